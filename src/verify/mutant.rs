//! Named mutants of the algebra, selected at run time without editing source.
//!
//! Each variant breaks exactly one rule of the algebra the way a plausible bug would. The
//! verification battery must kill every one of them (see the `mutations` experiment); the
//! same names select the preprocessor switch `BINADE_MUTANT` in the CUDA header.
//!
//! The exact algebra (`crate::unit`) knows nothing of them: a mutant is a value of type
//! [`Mutant`], whose [`Algebra`] implementation is a defective twin of the exact functions.
//! Where the defect can be written as a change of the exact result (a tie resolved one way,
//! a binade one too high, a sign bit dropped) the twin calls the exact function and changes
//! its input or output; where it cannot (the rounding compare, wrapping sums, the checks of
//! `apply`) the twin holds its own short copy of the step with the defect in it.

use std::fmt;
use std::str::FromStr;

use crate::algebra::Algebra;
use crate::format::{exp_field, frac_field, is_finite, is_negative, significand, Format, Layout};
use crate::unit::{self, Binade, Unit};

/// One deliberate defect in the algebra, or none.
///
/// `Mutant::None` is the correct algebra; every other variant names the rule it breaks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Mutant {
    /// The correct algebra.
    #[default]
    None,
    /// A tie always rounds up, whatever the parity of the running integer.
    TieAlwaysUp,
    /// A tie always rounds down, whatever the parity of the running integer.
    TieAlwaysDown,
    /// Composition picks `B[p]` instead of `B[(p + A[p]) mod 2]`.
    ParityIgnored,
    /// The walk applies a unit without checking that the sum is in the unit's binade.
    NoBinadeCheck,
    /// The walk applies a unit without checking that the result stays at or below `2^(e+1)`.
    NoUpperCheck,
    /// Only the highest shifted-out bit decides the rounding (a set bit is taken as a tie).
    StickyIgnored,
    /// The exponent gap between term and binade is one too large.
    GapOffByOne,
    /// Increments wrap instead of saturating (shifts and sums modulo `2^64`).
    NoSaturation,
    /// Subnormal terms are given the implicit leading bit.
    SubnormalImplicitBit,
    /// A result landing exactly on `2^(e+1)` is refused (the correct code accepts it).
    LandingRefused,
    /// The tie test compares against the half of the next larger shift (a quarter-ulp tie).
    HalfMisplaced,
    /// Negative terms are treated as their absolute value instead of forcing term by term.
    NegativeAsPositive,
}

impl Mutant {
    /// Every mutant, `None` first.
    pub const ALL: [Mutant; 13] = [
        Mutant::None,
        Mutant::TieAlwaysUp,
        Mutant::TieAlwaysDown,
        Mutant::ParityIgnored,
        Mutant::NoBinadeCheck,
        Mutant::NoUpperCheck,
        Mutant::StickyIgnored,
        Mutant::GapOffByOne,
        Mutant::NoSaturation,
        Mutant::SubnormalImplicitBit,
        Mutant::LandingRefused,
        Mutant::HalfMisplaced,
        Mutant::NegativeAsPositive,
    ];

    /// The kebab-case name used on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Mutant::None => "none",
            Mutant::TieAlwaysUp => "tie-always-up",
            Mutant::TieAlwaysDown => "tie-always-down",
            Mutant::ParityIgnored => "parity-ignored",
            Mutant::NoBinadeCheck => "no-binade-check",
            Mutant::NoUpperCheck => "no-upper-check",
            Mutant::StickyIgnored => "sticky-ignored",
            Mutant::GapOffByOne => "gap-off-by-one",
            Mutant::NoSaturation => "no-saturation",
            Mutant::SubnormalImplicitBit => "subnormal-implicit-bit",
            Mutant::LandingRefused => "landing-refused",
            Mutant::HalfMisplaced => "half-misplaced",
            Mutant::NegativeAsPositive => "negative-as-positive",
        }
    }

    /// The index the CUDA header uses for this mutant (`BINADE_MUTANT`), 0 for none.
    pub fn code(self) -> u32 {
        Mutant::ALL.iter().position(|m| *m == self).unwrap_or(0) as u32
    }

    /// One line on what the mutant breaks.
    pub fn description(self) -> &'static str {
        match self {
            Mutant::None => "the correct algebra",
            Mutant::TieAlwaysUp => "tie always rounds up",
            Mutant::TieAlwaysDown => "tie always rounds down",
            Mutant::ParityIgnored => "composition ignores the parity (B[p] instead of B[p+A[p]])",
            Mutant::NoBinadeCheck => "walk skips the binade check",
            Mutant::NoUpperCheck => "walk skips the upper-bound check",
            Mutant::StickyIgnored => {
                "sticky bits ignored: only the highest shifted-out bit decides"
            }
            Mutant::GapOffByOne => "exponent gap off by one",
            Mutant::NoSaturation => "increments wrap instead of saturating",
            Mutant::SubnormalImplicitBit => "subnormal terms given the implicit leading bit",
            Mutant::LandingRefused => "landing exactly on 2^(e+1) treated as outside",
            Mutant::HalfMisplaced => "tie detected against the wrong half",
            Mutant::NegativeAsPositive => "negative terms taken as their absolute value",
        }
    }
}

impl fmt::Display for Mutant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Mutant {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Mutant::ALL
            .iter()
            .copied()
            .find(|m| m.name() == s)
            .ok_or_else(|| {
                let names: Vec<_> = Mutant::ALL.iter().map(|m| m.name()).collect();
                format!("unknown mutant `{s}` (known: {})", names.join(", "))
            })
    }
}

/// The Rust algebra with the given defect; `Mutant::None` is the exact algebra of
/// [`crate::unit`] (the same as [`crate::algebra::Exact`]).
impl<F: Format> Algebra<F> for Mutant {
    fn term_unit(&self, b: Binade, x: u64) -> Unit {
        defective_term_unit::<F>(*self, b, x)
    }
    fn compose(&self, a: Unit, b: Unit) -> Unit {
        defective_compose(*self, a, b)
    }
    fn apply(&self, u: Unit, b: Binade, s: u64) -> Option<u64> {
        defective_apply::<F>(*self, u, b, s)
    }
    fn label(&self) -> String {
        format!("rust/{}", self.name())
    }
}

/// [`unit::term_unit`] with `mutant`'s defect.
fn defective_term_unit<F: Format>(mutant: Mutant, b: Binade, x: u64) -> Unit {
    let exact = || unit::term_unit::<F>(b, x);
    let finite_nonzero = is_finite::<F>(x) && x & F::ALL & !F::SIGN != 0;
    match mutant {
        Mutant::TieAlwaysUp | Mutant::TieAlwaysDown => {
            // A tie is the only unit whose two slots differ (by one).
            let u = exact();
            if u.even == u.odd {
                u
            } else if mutant == Mutant::TieAlwaysUp {
                Unit::flat(u.even.max(u.odd))
            } else {
                Unit::flat(u.even.min(u.odd))
            }
        }
        // The gap b - ex grows by one exactly when b does.
        Mutant::GapOffByOne => unit::term_unit::<F>(Binade(b.0 + 1), x),
        // A subnormal with the implicit bit is the normal of exponent field 1, same fraction.
        Mutant::SubnormalImplicitBit if exp_field::<F>(x) == 0 && frac_field::<F>(x) != 0 => {
            unit::term_unit::<F>(b, x | (1 << F::FRAC_BITS))
        }
        Mutant::NegativeAsPositive if finite_nonzero && is_negative::<F>(x) => {
            unit::term_unit::<F>(b, x & !F::SIGN)
        }
        Mutant::StickyIgnored | Mutant::HalfMisplaced | Mutant::NoSaturation
            if finite_nonzero && !is_negative::<F>(x) =>
        {
            let (mx, ex) = significand::<F>(x & F::ALL);
            let gap = b.0 as i64 - ex as i64;
            match mutant {
                // The unsaturated shift of a term at or above 2^e: high bits lost.
                Mutant::NoSaturation if gap <= 0 => {
                    let up = gap.unsigned_abs();
                    Unit::flat(if up >= 64 { 0 } else { mx << up })
                }
                Mutant::StickyIgnored | Mutant::HalfMisplaced
                    if gap > 0 && gap <= F::FRAC_BITS as i64 + 2 =>
                {
                    defective_rounding(mutant, mx, gap as u32)
                }
                _ => exact(),
            }
        }
        _ => exact(),
    }
}

/// [`unit::round_quotient`] with the rounding compare broken the way `mutant` says.
fn defective_rounding(mutant: Mutant, mx: u64, g: u32) -> Unit {
    use std::cmp::Ordering::*;
    let q = mx >> g;
    let rem = mx & ((1u64 << g) - 1);
    let side = match mutant {
        // Only the highest shifted-out bit is read: a set bit counts as a tie.
        Mutant::StickyIgnored if rem & (1u64 << (g - 1)) != 0 => Equal,
        Mutant::StickyIgnored => Less,
        // Compared with a quarter of 2^g instead of a half.
        _ if g >= 2 => rem.cmp(&(1u64 << (g - 2))),
        _ => rem.cmp(&(1u64 << (g - 1))),
    };
    match side {
        Less => Unit::flat(q),
        Greater => Unit::flat(q + 1),
        Equal => unit::tie_unit(q),
    }
}

/// [`unit::compose`] with `mutant`'s defect.
fn defective_compose(mutant: Mutant, a: Unit, b: Unit) -> Unit {
    match mutant {
        Mutant::ParityIgnored => Unit {
            even: (a.even + b.even).min(Unit::SATURATED),
            odd: (a.odd + b.odd).min(Unit::SATURATED),
        },
        Mutant::NoSaturation => Unit {
            even: a.even.wrapping_add(b.pick(a.even)),
            odd: a.odd.wrapping_add(b.pick(1 + a.odd)),
        },
        _ => unit::compose(a, b),
    }
}

/// [`unit::apply`] with `mutant`'s defect (the end significand is added modulo `2^64`, as a
/// wrapped increment of the `NoSaturation` mutant needs).
fn defective_apply<F: Format>(mutant: Mutant, u: Unit, b: Binade, s: u64) -> Option<u64> {
    let checks_binade = mutant != Mutant::NoBinadeCheck;
    if checks_binade && Binade::of::<F>(s) != Some(b) {
        return None;
    }
    let m = frac_field::<F>(s) | F::HIDDEN;
    let end = m.wrapping_add(u.pick(m));
    let top = F::HIDDEN << 1;
    let refused = match mutant {
        Mutant::NoUpperCheck => false,
        Mutant::LandingRefused => end >= top,
        _ => end > top,
    };
    (!refused).then(|| unit::assemble::<F>(b, end))
}
