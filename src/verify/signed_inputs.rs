//! Signed f64 streams, the data most people sum (differences, residuals, samples), for the
//! signed units on every engine. The same `(kind, n, seed)` always gives the same terms on one
//! machine (the normal deviates use the platform's `ln` and `cos`, so another libm may give
//! other bits; every comparison is made inside one run).

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::inputs::GENERATE_BLOCK;

/// A kind of signed stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SignedKind {
    /// N(1, 1): a positive, growing running sum with terms of both signs.
    NormalOne,
    /// N(0, 1): the running sum wanders near zero, changing sign.
    NormalZero,
    /// N(-1, 1): a negative, falling running sum (the negated path).
    NormalMinusOne,
    /// Alternating signs, magnitudes uniform in `[0, 1)`.
    Alternating,
    /// Differences of close values, `(1 + 1e-6 a) - (1 + 1e-6 b)` with `a`, `b` from N(0, 1):
    /// heavy cancellation in every term.
    CloseDifferences,
    /// Uniform in `[0, 1)`, one term in twenty negated.
    OneInTwentyNegated,
    /// From 1.0, terms `+-(2k + 1)` half-ulps of the running sum (`k` in 0..4, three in four
    /// positive): every add is a tie, of either sign.
    SignedTies,
}

impl SignedKind {
    /// Every kind, in report order.
    pub const ALL: [SignedKind; 7] = [
        SignedKind::NormalOne,
        SignedKind::NormalZero,
        SignedKind::NormalMinusOne,
        SignedKind::Alternating,
        SignedKind::CloseDifferences,
        SignedKind::OneInTwentyNegated,
        SignedKind::SignedTies,
    ];

    /// The kebab-case name used in experiment files and reports.
    pub fn name(self) -> &'static str {
        match self {
            SignedKind::NormalOne => "normal-1-1",
            SignedKind::NormalZero => "normal-0-1",
            SignedKind::NormalMinusOne => "normal-minus-1-1",
            SignedKind::Alternating => "alternating",
            SignedKind::CloseDifferences => "close-differences",
            SignedKind::OneInTwentyNegated => "one-in-twenty-negated",
            SignedKind::SignedTies => "signed-ties",
        }
    }

    /// A description for reports.
    pub fn description(self) -> &'static str {
        match self {
            SignedKind::NormalOne => "N(1, 1)",
            SignedKind::NormalZero => "N(0, 1)",
            SignedKind::NormalMinusOne => "N(-1, 1)",
            SignedKind::Alternating => "alternating signs, magnitudes uniform in [0, 1)",
            SignedKind::CloseDifferences => {
                "differences of close values, (1 + 1e-6 a) - (1 + 1e-6 b), a and b N(0, 1)"
            }
            SignedKind::OneInTwentyNegated => "uniform [0, 1), one in twenty negated",
            SignedKind::SignedTies => "every add a tie: +-(2k+1) half-ulps of the running sum",
        }
    }

    /// `n` terms from `seed`, in blocks of [`GENERATE_BLOCK`] as
    /// [`super::inputs::InputKind::generate`] makes them (block `k` from the seeded generator
    /// jumped `k` times, made on rayon's threads, independent of the thread count);
    /// [`SignedKind::SignedTies`] depends on the running sum and is made in one pass.
    pub fn generate(self, n: usize, seed: u64) -> Vec<f64> {
        use rayon::prelude::*;
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(
            seed ^ (0x5167_0000 + self as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15),
        );
        if self == SignedKind::SignedTies {
            return signed_ties(n, &mut rng);
        }
        let blocks = n.div_ceil(GENERATE_BLOCK);
        let mut starts = Vec::with_capacity(blocks);
        for _ in 0..blocks {
            starts.push(rng.clone());
            rng.jump();
        }
        let mut out = vec![0.0; n];
        out.par_chunks_mut(GENERATE_BLOCK)
            .zip(starts)
            .enumerate()
            .for_each(|(k, (chunk, mut rng))| {
                for (j, v) in chunk.iter_mut().enumerate() {
                    *v = self.term(k * GENERATE_BLOCK + j, &mut rng);
                }
            });
        out
    }

    fn term(self, i: usize, rng: &mut Xoshiro256PlusPlus) -> f64 {
        match self {
            SignedKind::NormalOne => 1.0 + normal(rng),
            SignedKind::NormalZero => normal(rng),
            SignedKind::NormalMinusOne => normal(rng) - 1.0,
            SignedKind::Alternating => {
                let x: f64 = rng.random();
                if i.is_multiple_of(2) {
                    x
                } else {
                    -x
                }
            }
            SignedKind::CloseDifferences => (1.0 + 1e-6 * normal(rng)) - (1.0 + 1e-6 * normal(rng)),
            SignedKind::OneInTwentyNegated => {
                let x: f64 = rng.random();
                if i % 20 == 19 {
                    -x
                } else {
                    x
                }
            }
            SignedKind::SignedTies => unreachable!("made by signed_ties"),
        }
    }
}

/// A standard normal deviate (Box-Muller on two uniforms).
pub fn normal(rng: &mut Xoshiro256PlusPlus) -> f64 {
    let (u1, u2): (f64, f64) = (rng.random(), rng.random());
    (-2.0 * (1.0 - u1).ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
}

/// From 1.0, each term an odd multiple `2k + 1` (`k` in 0..4) of half the running sum's ulp,
/// three in four positive: the exact sum lies halfway between two neighbours at every add.
fn signed_ties(n: usize, rng: &mut Xoshiro256PlusPlus) -> Vec<f64> {
    let mut out = Vec::with_capacity(n);
    let mut s = 0.0f64;
    for i in 0..n {
        let x = if i == 0 || !s.is_normal() {
            1.0
        } else {
            // Half an ulp of s: 2^(e - 53) for s in [2^e, 2^(e+1)).
            let e = ((s.abs().to_bits() >> 52) as i32) - 1023;
            let half = 2f64.powi(e - 53);
            let k = rng.random_range(0..4u32);
            let mag = f64::from(2 * k + 1) * half;
            if rng.random_range(0..4u32) == 0 {
                -mag
            } else {
                mag
            }
        };
        s += x;
        out.push(x);
    }
    out
}
