//! The host pipeline in the kernels' layout, and the walk that makes it exact.
//!
//! A chunk is [`CHUNK`] terms: [`LANES`] lanes of [`PER_LANE`] consecutive terms. The four
//! stages are the device's: [`chunk_sums`] (tree sums, only for the plan), the plan
//! ([`crate::plan`]), [`chunk_units`] (each lane composes its terms in order, then lanes
//! compose in an ordered tree) and [`walk`] (the exact sum, chunk by chunk, with a
//! term-by-term fallback wherever a unit does not apply).

use rayon::prelude::*;

use crate::algebra::{Algebra, Exact};
use crate::format::Format;
pub use crate::layout::{chunk_count, CHUNK, LANES, PER_LANE};
use crate::plan::{self, Plan, PlanKind};
use crate::unit::{Binade, Unit};

/// The sequential loop `s = 0; for x in terms { s = s + x }` in the format's arithmetic.
pub fn loop_sum<F: Format>(terms: &[F::Value]) -> F::Value {
    terms.iter().fold(F::from_bits(0), |s, &x| F::add(s, x))
}

/// The loop continued from `start`.
pub fn loop_from<F: Format>(start: F::Value, terms: &[F::Value]) -> F::Value {
    terms.iter().fold(start, |s, &x| F::add(s, x))
}

/// The ordered lane tree of a chunk, shared by its tree sum and its unit (the device's tree):
/// each lane folds its [`PER_LANE`] terms in order with `fold`, then lane `i` takes lane
/// `i + step` with `combine` for `step = 1, 2, 4, ...`. Lane `i` always stands left of lane
/// `i + step`, so for an associative `combine` the result is the terms folded left to right.
fn lane_tree<T: Copy, X: Copy>(
    chunk: &[X],
    identity: T,
    fold: impl Fn(T, X) -> T,
    combine: impl Fn(T, T) -> T,
) -> T {
    debug_assert!(chunk.len() <= CHUNK, "a chunk holds at most {CHUNK} terms");
    let mut lanes = [identity; LANES];
    for (lane, terms) in lanes.iter_mut().zip(chunk.chunks(PER_LANE)) {
        *lane = terms.iter().fold(identity, |acc, &x| fold(acc, x));
    }
    let mut step = 1;
    while step < LANES {
        for i in (0..LANES).step_by(2 * step) {
            lanes[i] = combine(lanes[i], lanes[i + step]);
        }
        step *= 2;
    }
    lanes[0]
}

/// One chunk's terms added as the device's tree adds them: each lane its terms in order, then
/// lane `i` takes lane `i + step` for `step = 1, 2, 4, ...`. Only the plan reads these.
pub fn chunk_tree_sum<F: Format>(chunk: &[F::Value]) -> F::Value {
    lane_tree(chunk, F::from_bits(0), F::add, F::add)
}

/// Stage 1: every chunk's tree sum.
pub fn chunk_sums<F: Format>(terms: &[F::Value]) -> Vec<F::Value> {
    terms.par_chunks(CHUNK).map(chunk_tree_sum::<F>).collect()
}

/// One chunk's unit for binade `b`: lanes compose their terms in order, then lanes compose in
/// the ordered tree of [`chunk_tree_sum`]. Equal to the terms composed left to right.
pub fn chunk_unit<F: Format, A: Algebra<F>>(chunk: &[F::Value], b: Binade, alg: &A) -> Unit {
    lane_tree(
        chunk,
        Unit::ZERO,
        |acc, x| alg.compose(acc, alg.term_unit(b, F::to_bits(x))),
        |l, r| alg.compose(l, r),
    )
}

/// A chunk's signed unit under a signed plan `code` (`signed_unit::plan_code_f64`), grouped
/// as the device groups it: each lane composes its terms in order, then the lane tree. Equal
/// to the left fold `signed_unit::run_unit_planned_f64` unless saturation clamped, where both
/// apply to no start (the argument in `crate::signed_unit`); invalid for code 0.
pub fn chunk_signed_unit(chunk: &[f64], code: u32) -> crate::signed_unit::SignedUnit {
    use crate::signed_unit::{compose, term_unit_planned_f64, SignedUnit};
    if code & !crate::layout::PLAN_NEGATIVE == 0 {
        return term_unit_planned_f64(code, 0);
    }
    lane_tree(
        chunk,
        SignedUnit::ZERO,
        |acc, x: f64| compose(acc, term_unit_planned_f64(code, x.to_bits())),
        compose,
    )
}

/// Stage 3: every chunk's unit under its planned binade (`Unit::INVALID` where the plan says
/// term by term).
pub fn chunk_units<F: Format, A: Algebra<F>>(
    terms: &[F::Value],
    plan: &Plan,
    alg: &A,
) -> Vec<Unit> {
    terms
        .par_chunks(CHUNK)
        .zip(plan.binades.par_iter())
        .map(|(chunk, b)| match b {
            Some(b) => chunk_unit::<F, A>(chunk, *b, alg),
            None => Unit::INVALID,
        })
        .collect()
}

/// What a walk returns: the exact sum and how it got there.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Walk<V> {
    /// The sum, equal in bits to the sequential loop (NaN as NaN).
    pub total: V,
    /// Chunks whose unit applied (stepped over in one move).
    pub applied: usize,
    /// Chunks added term by term.
    pub fallback: usize,
}

/// Stage 4: the walk. Starting from `+0`, each chunk's unit is applied when the running sum
/// is in the planned binade and the result stays at or below `2^(e+1)`; otherwise the
/// chunk's terms are added one by one with the format's add.
///
/// Guarantee (for the exact algebra): `total` has the bits of [`loop_sum`] for every input and
/// every plan, NaN results compared as NaN.
pub fn walk<F: Format, A: Algebra<F>>(
    terms: &[F::Value],
    plan: &Plan,
    units: &[Unit],
    alg: &A,
) -> Walk<F::Value> {
    let mut s = F::from_bits(0);
    let (mut applied, mut fallback) = (0, 0);
    for (i, chunk) in terms.chunks(CHUNK).enumerate() {
        let stepped = plan.binades[i].and_then(|b| alg.apply(units[i], b, F::to_bits(s)));
        match stepped {
            Some(bits) => {
                s = F::from_bits(bits);
                applied += 1;
            }
            None => {
                s = loop_from::<F>(s, chunk);
                fallback += 1;
            }
        }
    }
    Walk {
        total: s,
        applied,
        fallback,
    }
}

/// The device pipeline's chunk walk with signed units, on the host: each chunk planned by the
/// signed code of the prefix of the chunks' tree sums (`signed_unit::plan_code_f64`, the
/// device's `chunk_plan_signed`), its unit grouped as the device groups it
/// ([`chunk_signed_unit`]), applied where its checks hold and added term by term otherwise.
/// The device's chunk walk (`UnitKind::Signed`, `WalkKind::Chunks`) must give the same total
/// and the same counts.
///
/// Guarantee: `total` has the bits of [`loop_sum`] (NaN as NaN) for every input.
pub fn signed_chunk_walk(terms: &[f64]) -> Walk<f64> {
    use crate::signed_unit::{apply_planned_f64, plan_code_f64};
    let sums = chunk_sums::<crate::format::F64>(terms);
    let mut prefix = 0.0f64;
    let mut s = 0.0f64;
    let (mut applied, mut fallback) = (0, 0);
    for (chunk, &sum) in terms.chunks(CHUNK).zip(&sums) {
        let code = plan_code_f64(prefix.to_bits());
        prefix += sum;
        let unit = chunk_signed_unit(chunk, code);
        match apply_planned_f64(unit, code, s.to_bits()) {
            Some(bits) => {
                s = f64::from_bits(bits);
                applied += 1;
            }
            None => {
                s = loop_from::<crate::format::F64>(s, chunk);
                fallback += 1;
            }
        }
    }
    Walk {
        total: s,
        applied,
        fallback,
    }
}

/// The whole pipeline with a plan of kind `kind`. `stale_sums` feeds [`PlanKind::Stale`]: the
/// chunk sums of another input (as [`chunk_sums`] gives them), whose tree-prefix plan is
/// reused; the device's pipeline takes the same thing.
pub fn pipeline<F: Format, A: Algebra<F>>(
    terms: &[F::Value],
    kind: &PlanKind,
    stale_sums: Option<&[F::Value]>,
    alg: &A,
) -> Walk<F::Value> {
    let sums = chunk_sums::<F>(terms);
    let plan = plan::make::<F>(kind, &sums, stale_sums);
    let units = chunk_units::<F, A>(terms, &plan, alg);
    walk::<F, A>(terms, &plan, &units, alg)
}

/// The sequential sum of `terms` with the default plan, bit for bit the loop's.
pub fn ordered_sum_of<F: Format>(terms: &[F::Value]) -> F::Value {
    pipeline::<F, Exact>(terms, &PlanKind::TreePrefix, None, &Exact).total
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::{same_result, F32, F64};

    fn check_f64(terms: &[f64]) {
        let want = loop_sum::<F64>(terms).to_bits();
        for kind in PlanKind::standard(7) {
            let sums = chunk_sums::<F64>(terms);
            let got = pipeline::<F64, Exact>(terms, &kind, Some(&sums), &Exact);
            assert!(
                same_result::<F64>(got.total.to_bits(), want),
                "plan {kind}: {:e} vs {:e}",
                got.total,
                f64::from_bits(want)
            );
        }
    }

    #[test]
    fn ssim_like_ties_match_the_loop() {
        let terms: Vec<f64> = (0..5000u64)
            .map(|i| ((i * 7919) % (1 << 20) + 1) as f64 * 2f64.powi(-53))
            .collect();
        check_f64(&terms);
    }

    #[test]
    fn specials_fall_back() {
        let mut terms: Vec<f64> = (0..3000).map(|i| i as f64 * 0.5).collect();
        terms[2500] = -7.0;
        check_f64(&terms);
        terms[2600] = f64::INFINITY;
        check_f64(&terms);
        terms[2700] = f64::NAN;
        check_f64(&terms);
    }

    #[test]
    fn edge_sizes() {
        for n in [0usize, 1, 2, 3, 1023, 1024, 1025, 2049] {
            let terms: Vec<f64> = (0..n).map(|i| 1.0 + i as f64 * 1e-3).collect();
            check_f64(&terms);
        }
    }

    #[test]
    fn f32_matches_loop() {
        let terms: Vec<f32> = (0..4000).map(|i| 0.1 + i as f32 * 1e-4).collect();
        let got = ordered_sum_of::<F32>(&terms);
        assert_eq!(got.to_bits(), loop_sum::<F32>(&terms).to_bits());
    }
}
