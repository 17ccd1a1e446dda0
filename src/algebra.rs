//! The algebra as a value: the three operations every pipeline needs, so that the same walk
//! and the same checks run on the Rust algebra, on any of its mutants, and on the CUDA header
//! compiled for the host.

use crate::format::Format;
use crate::mutant::Mutant;
use crate::unit::{self, Binade, Unit};

/// An implementation of the unit algebra for format `F`.
///
/// A correct implementation satisfies the guarantees of [`unit::term_unit`],
/// [`unit::compose`] and [`unit::apply`]; mutants break one of them on purpose.
pub trait Algebra<F: Format>: Sync {
    /// The unit of one term `x` (bits) for sums in binade `b`.
    fn term_unit(&self, b: Binade, x: u64) -> Unit;
    /// `a` then `b`.
    fn compose(&self, a: Unit, b: Unit) -> Unit;
    /// `u` applied to the start `s` (bits), or `None` where it does not apply.
    fn apply(&self, u: Unit, b: Binade, s: u64) -> Option<u64>;
    /// A short name for reports (`rust`, `rust/tie-always-up`, `header/none`, ...).
    fn label(&self) -> String;
}

/// The Rust algebra with the given mutant (`Mutant::None` is the correct one).
impl<F: Format> Algebra<F> for Mutant {
    fn term_unit(&self, b: Binade, x: u64) -> Unit {
        unit::term_unit::<F>(b, x, *self)
    }
    fn compose(&self, a: Unit, b: Unit) -> Unit {
        unit::compose(a, b, *self)
    }
    fn apply(&self, u: Unit, b: Binade, s: u64) -> Option<u64> {
        unit::apply::<F>(u, b, s, *self)
    }
    fn label(&self) -> String {
        format!("rust/{}", self.name())
    }
}
