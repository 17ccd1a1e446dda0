//! The algebra as a value: the three operations every pipeline needs, so that the same walk
//! and the same checks run on the Rust algebra, on any of its mutants, and on the CUDA header
//! compiled for the host.

use crate::format::Format;
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

/// The exact algebra of [`crate::unit`]: what every library entry point and engine uses.
///
/// Guarantee: satisfies the guarantees of [`unit::term_unit`], [`unit::compose`] and
/// [`unit::apply`] (checked against the native add and MPFR by the battery).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Exact;

impl<F: Format> Algebra<F> for Exact {
    fn term_unit(&self, b: Binade, x: u64) -> Unit {
        unit::term_unit::<F>(b, x)
    }
    fn compose(&self, a: Unit, b: Unit) -> Unit {
        unit::compose(a, b)
    }
    fn apply(&self, u: Unit, b: Binade, s: u64) -> Option<u64> {
        unit::apply::<F>(u, b, s)
    }
    fn label(&self) -> String {
        "rust".into()
    }
}
