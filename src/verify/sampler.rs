//! One-term samples drawn by class: a binade, a start in (or, for one class, beside) it, and a
//! term chosen to hit one rule of the algebra.

use std::fmt;

use rand::Rng;
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::format::{round_f64, scaled, Format, Layout};
use crate::unit::Binade;

/// What a sample aims at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SampleClass {
    /// `x / u` is exactly `q + 1/2`: parity decides.
    Tie,
    /// `x / u` is just above a half (`...100..01` shifted out).
    AboveHalf,
    /// `x / u` is just below a half (`...011..1` shifted out).
    BelowHalf,
    /// Exponent gap 0 to 70 with a random significand.
    Gap,
    /// Exponent gap beyond 70 (far beyond 64-bit shifts).
    WideGap,
    /// Subnormal terms on sums in the lowest binades.
    SubnormalTerm,
    /// `+0` and `-0`.
    Zero,
    /// Sums just below `2^(e+1)` with terms around the distance to it (landings, crossings).
    NearTop,
    /// Terms landing exactly on `2^(e+1)`.
    Landing,
    /// Terms at or above `2^e` (must saturate).
    Huge,
    /// Starts outside the unit's binade (one above, one below, zero, subnormal).
    OffBinade,
    /// Negative, infinite and NaN terms (must never apply).
    Special,
}

impl SampleClass {
    /// Every class, in report order.
    pub const ALL: [SampleClass; 12] = [
        SampleClass::Tie,
        SampleClass::AboveHalf,
        SampleClass::BelowHalf,
        SampleClass::Gap,
        SampleClass::WideGap,
        SampleClass::SubnormalTerm,
        SampleClass::Zero,
        SampleClass::NearTop,
        SampleClass::Landing,
        SampleClass::Huge,
        SampleClass::OffBinade,
        SampleClass::Special,
    ];

    /// Whether format `F` has samples of this class: gaps over 70 binades need more than 72
    /// binades of normal numbers (f64, f32 and bf16 have them; f16 and the tiny formats do
    /// not, and their every gap is in [`SampleClass::Gap`]). [`draw`] is defined only where
    /// this holds.
    pub fn exists_for<F: Format>(self) -> bool {
        self != SampleClass::WideGap || F::MAX_NORMAL_FIELD >= 73
    }

    /// The kebab-case name used in reports.
    pub fn name(self) -> &'static str {
        match self {
            SampleClass::Tie => "tie",
            SampleClass::AboveHalf => "above-half",
            SampleClass::BelowHalf => "below-half",
            SampleClass::Gap => "gap-0-70",
            SampleClass::WideGap => "gap-over-70",
            SampleClass::SubnormalTerm => "subnormal-term",
            SampleClass::Zero => "zero",
            SampleClass::NearTop => "near-2^(e+1)",
            SampleClass::Landing => "landing-2^(e+1)",
            SampleClass::Huge => "term->=2^e",
            SampleClass::OffBinade => "off-binade-start",
            SampleClass::Special => "negative-nan-inf",
        }
    }
}

impl fmt::Display for SampleClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A start `s` (bits), a term `x` (bits) and the binade the unit is computed for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    /// The binade the unit is built for.
    pub binade: Binade,
    /// The running sum before the add.
    pub start: u64,
    /// The term.
    pub term: u64,
}

/// Bits of the positive normal `m * 2^(e - BIAS - FRAC)` with `m` in `[2^FRAC, 2^p)` and field `e`.
fn normal<F: Format>(field: u32, m: u64) -> u64 {
    ((field as u64) << F::FRAC_BITS) | (m & F::FRAC_MASK)
}

fn random_m<F: Format>(rng: &mut Xoshiro256PlusPlus) -> u64 {
    F::HIDDEN | (rng.random::<u64>() & F::FRAC_MASK)
}

/// Draws one sample of `class` for format `F`.
pub fn draw<F: Format>(class: SampleClass, rng: &mut Xoshiro256PlusPlus) -> Sample {
    debug_assert!(
        class.exists_for::<F>(),
        "{} has no {class:?} samples",
        F::NAME
    );
    let max = F::MAX_NORMAL_FIELD;
    let frac = F::FRAC_BITS;
    let p = F::PRECISION;
    match class {
        SampleClass::Tie | SampleClass::AboveHalf | SampleClass::BelowHalf => {
            let g = if class == SampleClass::Tie {
                rng.random_range(1..=p)
            } else {
                rng.random_range(2..=p)
            };
            let e = rng.random_range(g + 1..=max);
            let half = 1u64 << (g - 1);
            let low_mask = (1u64 << g) - 1;
            let high = random_m::<F>(rng) & !low_mask;
            let low = match class {
                SampleClass::Tie => half,
                SampleClass::AboveHalf => half | 1,
                _ => half - 1,
            };
            // g == p puts the half on the hidden bit itself: the term is exactly u/2.
            let mx = if g == p {
                F::HIDDEN
            } else {
                (high | low) | F::HIDDEN
            };
            let x = normal::<F>(e - g, mx);
            Sample {
                binade: Binade(e),
                start: normal::<F>(e, random_m::<F>(rng)),
                term: x,
            }
        }
        SampleClass::Gap => {
            let g = rng.random_range(0..=70u32.min(max - 1));
            let e = rng.random_range(g + 1..=max);
            Sample {
                binade: Binade(e),
                start: normal::<F>(e, random_m::<F>(rng)),
                term: normal::<F>(e - g, random_m::<F>(rng)),
            }
        }
        SampleClass::WideGap => {
            let e = rng.random_range(73..=max);
            let g = rng.random_range(71..e);
            let x = if rng.random_range(0..4) == 0 {
                rng.random_range(1..=F::FRAC_MASK)
            } else {
                normal::<F>(e - g, random_m::<F>(rng))
            };
            Sample {
                binade: Binade(e),
                start: normal::<F>(e, random_m::<F>(rng)),
                term: x,
            }
        }
        SampleClass::SubnormalTerm => {
            let e = rng.random_range(1..=(frac + 3).min(max));
            Sample {
                binade: Binade(e),
                start: normal::<F>(e, random_m::<F>(rng)),
                term: rng.random_range(1..=F::FRAC_MASK),
            }
        }
        SampleClass::Zero => {
            let e = rng.random_range(1..=max);
            let x = if rng.random::<bool>() { 0 } else { F::SIGN };
            Sample {
                binade: Binade(e),
                start: normal::<F>(e, random_m::<F>(rng)),
                term: x,
            }
        }
        SampleClass::NearTop => {
            let e = rng.random_range(2..=max);
            let k = rng.random_range(1..=1024u64.min(F::HIDDEN));
            let m = (F::HIDDEN << 1) - k;
            let j = rng.random_range(-2i64..=2);
            // x / u = k + j/2, i.e. x = (2k + j) * u / 2, exact.
            let x = scaled::<F>(
                (2 * k as i64 + j) as u64,
                e as i32 - F::BIAS - frac as i32 - 1,
            );
            Sample {
                binade: Binade(e),
                start: normal::<F>(e, m),
                term: x,
            }
        }
        SampleClass::Landing => {
            let e = rng.random_range(2..=max);
            let m = random_m::<F>(rng);
            let x = scaled::<F>((F::HIDDEN << 1) - m, e as i32 - F::BIAS - frac as i32);
            Sample {
                binade: Binade(e),
                start: normal::<F>(e, m),
                term: x,
            }
        }
        SampleClass::Huge => {
            let e = rng.random_range(1..=max);
            let ex = rng.random_range(e..=max);
            Sample {
                binade: Binade(e),
                start: normal::<F>(e, random_m::<F>(rng)),
                term: normal::<F>(ex, random_m::<F>(rng)),
            }
        }
        SampleClass::OffBinade => {
            let e = rng.random_range(2..max);
            let start = match rng.random_range(0..4) {
                0 => normal::<F>(e + 1, random_m::<F>(rng)),
                1 => normal::<F>(e - 1, random_m::<F>(rng)),
                2 => 0,
                _ => rng.random_range(1..=F::FRAC_MASK),
            };
            let g = rng.random_range(1..=p);
            let x = normal::<F>(e.saturating_sub(g).max(1), random_m::<F>(rng));
            Sample {
                binade: Binade(e),
                start,
                term: x,
            }
        }
        SampleClass::Special => {
            let e = rng.random_range(1..=max);
            let x = match rng.random_range(0..4) {
                0 => round_f64::<F>(f64::NAN),
                1 => round_f64::<F>(f64::INFINITY),
                2 => round_f64::<F>(f64::NEG_INFINITY),
                _ => normal::<F>(rng.random_range(1..=max), random_m::<F>(rng)) | F::SIGN,
            };
            Sample {
                binade: Binade(e),
                start: normal::<F>(e, random_m::<F>(rng)),
                term: x,
            }
        }
    }
}
