//! Named mutants of the algebra, injected at run time without editing source.
//!
//! Each variant breaks exactly one rule of the algebra the way a plausible bug would. The
//! verification battery must kill every one of them (see the `mutations` experiment); the
//! same names select preprocessor defines in the CUDA header (`BINADE_MUTANT_<NAME>`).

use std::fmt;
use std::str::FromStr;

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
