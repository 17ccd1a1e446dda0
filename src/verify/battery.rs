//! The verification battery: every check the algebra must pass, each runnable on any
//! [`Algebra`] (the Rust algebra, a mutant, the host-compiled CUDA header).
//!
//! Each check counts samples and failures and remembers the first failure (its seed, index
//! and operands) so that it can be replayed.

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use rayon::prelude::*;

use crate::algebra::Algebra;
use crate::fast::{
    ordered_sum_fast, ordered_sum_par, ordered_sum_par_with, Checks, FastTerm, Shape,
};
use crate::format::{is_finite, is_negative, same_result, scaled, Format, Layout};
use crate::plan::PlanKind;
use crate::unit::Binade;
use crate::verify::inputs::InputKind;
use crate::verify::oracle::{mpfr_add, native_add};
use crate::verify::sampler::{draw, Sample, SampleClass};
use crate::walk::{chunk_sums, loop_sum, pipeline};

/// What kind of failure a sample showed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FailureKind {
    /// The algebra gave bits other than the reference's: a wrong result, what a user would see.
    WrongResult,
    /// The algebra refused where the rule must apply: no result changes (the walk falls back
    /// to the loop), but the rule's coverage is broken. Only a coverage check sees this.
    Refused,
    /// The two oracles (MPFR and the native add) disagree: the check itself is in doubt.
    OraclesDisagree,
}

/// Counts of one check.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Samples (or pairs, triples, sums) checked.
    pub samples: u64,
    /// Samples where the algebra applied a unit (the rest were refused and fell back).
    pub applied: u64,
    /// Failures of every kind: `wrong + refused + oracle_disagreements`.
    pub failures: u64,
    /// Failures that are wrong results.
    pub wrong: u64,
    /// Failures that are refusals where the rule must apply (coverage only).
    pub refused: u64,
    /// Samples on which the oracles disagreed.
    pub oracle_disagreements: u64,
    /// Index (in check order) of the first failure.
    pub first_failure: Option<u64>,
    /// The first failure, printable and replayable.
    pub example: Option<String>,
}

impl Tally {
    /// Adds another tally (indices of `other` are offset by `self.samples`).
    pub fn merge(mut self, other: Tally) -> Tally {
        if self.first_failure.is_none() {
            if let Some(i) = other.first_failure {
                self.first_failure = Some(self.samples + i);
                self.example = other.example;
            }
        }
        self.samples += other.samples;
        self.applied += other.applied;
        self.failures += other.failures;
        self.wrong += other.wrong;
        self.refused += other.refused;
        self.oracle_disagreements += other.oracle_disagreements;
        self
    }

    /// Records a failure of kind `kind` at the current sample.
    pub fn fail(&mut self, kind: FailureKind, what: impl FnOnce() -> String) {
        if self.first_failure.is_none() {
            self.first_failure = Some(self.samples);
            self.example = Some(what());
        }
        self.failures += 1;
        match kind {
            FailureKind::WrongResult => self.wrong += 1,
            FailureKind::Refused => self.refused += 1,
            FailureKind::OraclesDisagree => self.oracle_disagreements += 1,
        }
    }
}

/// The verdict of the algebra on one `(binade, start, term)` against a reference result.
///
/// A unit that applies must give the reference's bits. A refusal is a failure only when the
/// rule must apply: the term is non-negative and finite, the start is in the binade, and the
/// exact sum is at most `2^(e+1)`.
pub fn judge<F: Format, A: Algebra<F>>(
    alg: &A,
    s: &Sample,
    reference: u64,
) -> Result<bool, (FailureKind, String)> {
    let unit = alg.term_unit(s.binade, s.term);
    match alg.apply(unit, s.binade, s.start) {
        Some(r) if same_result::<F>(r, reference) => Ok(true),
        Some(r) => Err((
            FailureKind::WrongResult,
            format!("unit {unit:?} gave {r:#x}, the add gives {reference:#x}"),
        )),
        None if must_apply::<F>(s) => Err((
            FailureKind::Refused,
            format!("unit {unit:?} refused, but the exact sum stays at or below 2^(e+1) (add gives {reference:#x})"),
        )),
        None => Ok(false),
    }
}

/// True when the rule is required to apply to `s` (see [`judge`]).
pub fn must_apply<F: Format>(s: &Sample) -> bool {
    let x = s.term;
    let x_ok = is_finite::<F>(x) && (!is_negative::<F>(x) || x & F::ALL & !F::SIGN == 0);
    if !x_ok || Binade::of::<F>(s.start) != Some(s.binade) {
        return false;
    }
    // Room to 2^(e+1): (2^p - m) * u, exactly representable.
    let m = (s.start & F::FRAC_MASK) | F::HIDDEN;
    let room = scaled::<F>(
        (F::HIDDEN << 1) - m,
        s.binade.0 as i32 - F::BIAS - F::FRAC_BITS as i32,
    );
    // Non-negative values order like their bit patterns.
    (x & F::ALL & !F::SIGN) <= room
}

/// Which reference a one-term check compares with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reference {
    /// The format's own add.
    Native,
    /// MPFR at the format's precision (also checked against the native add).
    Mpfr,
}

/// `n` random samples of `class` (seeded from `seed` and the class), judged against
/// `reference`, in parallel batches; deterministic for a given seed.
pub fn one_term<F: Format, A: Algebra<F>>(
    alg: &A,
    class: SampleClass,
    n: u64,
    seed: u64,
    reference: Reference,
) -> Tally {
    const BATCH: u64 = 1 << 16;
    let batches = n.div_ceil(BATCH);
    (0..batches)
        .into_par_iter()
        .map(|b| {
            let batch_seed = seed ^ (class as u64) << 56 ^ b.wrapping_mul(0x9e37_79b9_7f4a_7c15);
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(batch_seed);
            let mut t = Tally::default();
            let count = BATCH.min(n - b * BATCH);
            for i in 0..count {
                let s = draw::<F>(class, &mut rng);
                let native = native_add::<F>(s.start, s.term);
                let reference_bits = match reference {
                    Reference::Native => native,
                    Reference::Mpfr => {
                        let m = mpfr_add::<F>(s.start, s.term);
                        if !same_result::<F>(m, native) {
                            t.fail(FailureKind::OraclesDisagree, || {
                                format!(
                                    "{}: oracles disagree: MPFR {m:#x}, native {native:#x}; {}",
                                    F::NAME,
                                    replay(&s, class, seed, b, i)
                                )
                            });
                        }
                        m
                    }
                };
                match judge::<F, A>(alg, &s, reference_bits) {
                    Ok(applied) => t.applied += applied as u64,
                    Err((kind, why)) => t.fail(kind, || {
                        format!("{}: {why}; {}", F::NAME, replay(&s, class, seed, b, i))
                    }),
                }
                t.samples += 1;
            }
            t
        })
        .collect::<Vec<_>>()
        .into_iter()
        .fold(Tally::default(), Tally::merge)
}

fn replay(s: &Sample, class: SampleClass, seed: u64, batch: u64, index: u64) -> String {
    format!(
        "class {class}, seed {seed}, batch {batch}, index {index}: binade {}, start {:#x}, term {:#x}",
        s.binade.0, s.start, s.term
    )
}

/// Every (start, term) pair of a tiny format: MPFR against the native add on all pairs, and
/// the rule against the add on every positive normal start (its own binade) and every term.
pub fn exhaustive_pairs<F: Format, A: Algebra<F>>(alg: &A) -> Tally {
    exhaustive_pairs_ticking::<F, A>(alg, &|| {})
}

/// The number of starts [`exhaustive_pairs_ticking`] and [`exhaustive_triples_ticking`] tick
/// for format `F` (every bit pattern of the format).
pub fn exhaustive_starts<F: Format>() -> u64 {
    1u64 << (F::EXP_BITS + F::FRAC_BITS + 1)
}

/// [`exhaustive_pairs`], calling `tick` once per start when its terms are done
/// ([`exhaustive_starts`] calls in all), for progress.
pub fn exhaustive_pairs_ticking<F: Format, A: Algebra<F>>(
    alg: &A,
    tick: &(dyn Fn() + Sync),
) -> Tally {
    let count = exhaustive_starts::<F>();
    (0..count)
        .into_par_iter()
        .map(|a| {
            let mut t = Tally::default();
            for x in 0..count {
                let native = native_add::<F>(a, x);
                let m = mpfr_add::<F>(a, x);
                if !same_result::<F>(m, native) {
                    t.fail(FailureKind::OraclesDisagree, || format!("{}: oracles disagree on {a:#x} + {x:#x}: MPFR {m:#x}, native {native:#x}", F::NAME));
                }
                if let Some(b) = Binade::of::<F>(a) {
                    judge_pair::<F, A>(alg, b, a, x, native, &mut t);
                }
                t.samples += 1;
            }
            tick();
            t
        })
        .collect::<Vec<_>>()
        .into_iter()
        .fold(Tally::default(), Tally::merge)
}

/// The rule on the start `a` of binade `b` and the term `x`, judged by [`judge`] against the
/// add's bits `reference`; a failure or an application goes into `t` (its sample count is
/// the caller's).
fn judge_pair<F: Format, A: Algebra<F>>(
    alg: &A,
    b: Binade,
    a: u64,
    x: u64,
    reference: u64,
    t: &mut Tally,
) {
    let s = Sample {
        binade: b,
        start: a,
        term: x,
    };
    match judge::<F, A>(alg, &s, reference) {
        Ok(applied) => t.applied += applied as u64,
        Err((kind, why)) => t.fail(kind, || {
            format!("{}: start {a:#x} term {x:#x}: {why}", F::NAME)
        }),
    }
}

/// Every (start, term) pair of a format of 16 bits or fewer against its native add only (no
/// MPFR per pair: at 2^32 pairs MPFR costs hours on two cores, the add nanoseconds): the rule
/// on every positive normal start and every term ([`judge_pair`]); `samples` counts
/// those pairs. The native add of f16 and bf16 is the f64 sum rounded once to the format,
/// correctly rounded by the double-rounding argument beside `format::Tiny` (53 >= 2p + 2);
/// MPFR checks that add on seeded samples of every class (`tests/half_formats.rs`).
pub fn exhaustive_pairs_native<F: Format, A: Algebra<F>>(alg: &A) -> Tally {
    debug_assert!(F::EXP_BITS + F::FRAC_BITS < 16);
    let count = exhaustive_starts::<F>();
    (0..count)
        .into_par_iter()
        .map(|a| {
            let mut t = Tally::default();
            if let Some(b) = Binade::of::<F>(a) {
                for x in 0..count {
                    judge_pair::<F, A>(alg, b, a, x, native_add::<F>(a, x), &mut t);
                    t.samples += 1;
                }
            }
            t
        })
        .collect::<Vec<_>>()
        .into_iter()
        .fold(Tally::default(), Tally::merge)
}

/// Every (start, term, term) triple of a tiny format with non-negative finite terms: the two
/// terms' units composed must give the two adds' bits wherever the composition applies, and
/// must apply wherever the exact running sums stay in the binade.
pub fn exhaustive_triples<F: Format, A: Algebra<F>>(alg: &A) -> Tally {
    exhaustive_triples_ticking::<F, A>(alg, &|| {})
}

/// [`exhaustive_triples`], calling `tick` once per start ([`exhaustive_starts`] calls in
/// all), for progress.
pub fn exhaustive_triples_ticking<F: Format, A: Algebra<F>>(
    alg: &A,
    tick: &(dyn Fn() + Sync),
) -> Tally {
    let count = exhaustive_starts::<F>();
    let terms: Vec<u64> = (0..count)
        .filter(|&x| is_finite::<F>(x) && !is_negative::<F>(x))
        .collect();
    (0..count)
        .into_par_iter()
        .filter_map(|a| {
            let b = Binade::of::<F>(a);
            if b.is_none() {
                tick();
            }
            b.map(|b| (a, b))
        })
        .map(|(a, b)| {
            let mut t = Tally::default();
            for &x in &terms {
                let mid = native_add::<F>(a, x);
                let ux = alg.term_unit(b, x);
                for &y in &terms {
                    let end = native_add::<F>(mid, y);
                    let unit = alg.compose(ux, alg.term_unit(b, y));
                    match alg.apply(unit, b, a) {
                        Some(r) if same_result::<F>(r, end) => t.applied += 1,
                        Some(r) => t.fail(FailureKind::WrongResult, || format!("{}: start {a:#x} terms {x:#x}, {y:#x}: composed unit gave {r:#x}, the adds give {end:#x}", F::NAME)),
                        None => {
                            let stays = Binade::of::<F>(mid) == Some(b)
                                && must_apply::<F>(&Sample { binade: b, start: mid, term: y })
                                && must_apply::<F>(&Sample { binade: b, start: a, term: x });
                            if stays {
                                t.fail(FailureKind::Refused, || format!("{}: start {a:#x} terms {x:#x}, {y:#x}: composed unit refused though both adds stay in the binade", F::NAME));
                            }
                        }
                    }
                    t.samples += 1;
                }
            }
            tick();
            t
        })
        .collect::<Vec<_>>()
        .into_iter()
        .fold(Tally::default(), Tally::merge)
}

/// One pipeline case: the walk with plan `kind` on `n` terms of `kind_in` against the loop.
#[derive(Clone, Debug)]
pub struct PipelineCase {
    /// Input kind.
    pub input: InputKind,
    /// Number of terms.
    pub n: usize,
    /// Plan kind.
    pub plan: PlanKind,
    /// True when the walk's bits equal the loop's.
    pub identical: bool,
    /// Chunks applied in one step.
    pub applied: usize,
    /// Chunks added term by term.
    pub fallback: usize,
    /// The loop's result (bits).
    pub loop_bits: u64,
    /// The walk's result (bits).
    pub walk_bits: u64,
    /// Seconds for the plain loop.
    pub loop_seconds: f64,
    /// Seconds for the whole pipeline (sums, plan, units, walk).
    pub walk_seconds: f64,
    /// The fast engine's bits on the same terms ([`fast_sums`]; `None` for the formats it
    /// does not take). The same for every plan of one input.
    pub fast_bits: Option<[u64; 3]>,
    /// True when every one of `fast_bits` equals the loop's (`None` as `fast_bits`).
    pub fast_identical: Option<bool>,
}

/// Small chunks in small blocks, so that even the battery's short inputs span many blocks.
pub const SMALL_SHAPE: Shape = Shape {
    chunk: 100,
    block_chunks: 3,
};

/// The fast engine's bits on `terms` of format `F` where it takes that format (the layouts
/// of f64 and f32): on one thread, on rayon's threads with [`Shape::DEFAULT`], and on rayon's
/// threads with [`SMALL_SHAPE`]; `None` for the other formats. The terms are rebuilt from
/// their bits (a copy), so the result is `F`'s bits.
pub fn fast_sums<F: Format>(terms: &[F::Value]) -> Option<[u64; 3]> {
    fn three<T: FastTerm>(t: &[T]) -> [u64; 3] {
        let bits = |x: T| <T::F as Format>::to_bits(x);
        [
            bits(ordered_sum_fast(t)),
            bits(ordered_sum_par(t)),
            bits(ordered_sum_par_with(t, Checks::ALL, SMALL_SHAPE).total),
        ]
    }
    match (F::EXP_BITS, F::FRAC_BITS) {
        (11, 52) => Some(three(
            &terms
                .iter()
                .map(|&v| f64::from_bits(F::to_bits(v)))
                .collect::<Vec<_>>(),
        )),
        (8, 23) => Some(three(
            &terms
                .iter()
                .map(|&v| f32::from_bits(F::to_bits(v) as u32))
                .collect::<Vec<_>>(),
        )),
        _ => None,
    }
}

/// Runs the pipeline for one input and every plan in `plans`, against the loop, and the fast
/// engine beside it ([`fast_sums`]). The stale plan comes from `stale_input` of the same size
/// and seed.
pub fn pipeline_cases<F: Format, A: Algebra<F>>(
    alg: &A,
    input: InputKind,
    stale_input: InputKind,
    n: usize,
    plans: &[PlanKind],
    seed: u64,
) -> Vec<PipelineCase> {
    let terms = input.generate::<F>(n, seed);
    let stale = chunk_sums::<F>(&stale_input.generate::<F>(n, seed));
    let t0 = std::time::Instant::now();
    let want = F::to_bits(loop_sum::<F>(&terms));
    let loop_seconds = t0.elapsed().as_secs_f64();
    let fast_bits = fast_sums::<F>(&terms);
    let fast_identical = fast_bits.map(|b| b.iter().all(|&x| same_result::<F>(x, want)));
    plans
        .iter()
        .map(|plan| {
            let t1 = std::time::Instant::now();
            let w = pipeline::<F, A>(&terms, plan, Some(&stale), alg);
            let walk_seconds = t1.elapsed().as_secs_f64();
            let got = F::to_bits(w.total);
            PipelineCase {
                input,
                n,
                plan: plan.clone(),
                identical: same_result::<F>(got, want),
                applied: w.applied,
                fallback: w.fallback,
                loop_bits: want,
                walk_bits: got,
                loop_seconds,
                walk_seconds,
                fast_bits,
                fast_identical,
            }
        })
        .collect()
}
