//! The library API: the CPU's sequential sum, reproduced by the parallel algebra.
//!
//! Most users need one call: [`ordered_sum`] (f64) or [`ordered_sum_f32`] (f32), whose result
//! has the bits of `let mut s = 0.0; for x in terms { s += x }` for every input, NaN,
//! infinities, negative and subnormal terms included. [`ordered_sum_with`] picks the plan and
//! returns how the walk went. The types and stages re-exported here let you build your own
//! pipeline (for example to put some stages on a device): make chunk sums, a plan, chunk units,
//! then walk. [`ordered_cumsum`] and [`ordered_cumsum_f32`] give the loop's running sum at
//! every position (numpy's `np.cumsum` by default; [`Start`] names the other loops). The stages take the algebra as a value: [`Exact`] is the exact one.
//!
//! ```
//! use binade::api::{chunk_sums, chunk_units, plan, walk, Exact, PlanKind, F64};
//!
//! let terms: Vec<f64> = (0..5000).map(|i| 1.0 / (1.0 + i as f64)).collect();
//! let sums = chunk_sums::<F64>(&terms);
//! let plan = plan::make::<F64>(&PlanKind::TreePrefix, &sums, None);
//! let units = chunk_units::<F64, Exact>(&terms, &plan, &Exact);
//! let result = walk::<F64, Exact>(&terms, &plan, &units, &Exact);
//!
//! let mut s = 0.0f64;
//! for x in &terms {
//!     s += x;
//! }
//! assert_eq!(result.total.to_bits(), s.to_bits());
//! ```

pub use crate::algebra::{Algebra, Exact};
pub use crate::cumsum::{
    loop_cumsum_into, ordered_cumsum, ordered_cumsum_f32, ordered_cumsum_into, Start,
};
pub use crate::fast::FastTerm;
pub use crate::format::{same_result, Format, F32, F64};
pub use crate::order::CpuOrder;
pub use crate::plan::{self, Plan, PlanKind};
pub use crate::unit::{apply, compose, run_unit, term_unit, Binade, Unit};
pub use crate::walk::{
    chunk_count, chunk_sums, chunk_units, loop_sum, pipeline, walk, Walk, CHUNK, LANES, PER_LANE,
};

/// The sequential sum of f64 `terms`, computed chunk by chunk by the fast engine
/// ([`crate::fast`]), over rayon's threads from 65,536 terms on.
///
/// Guarantee: the result has the same bits as the loop `s = 0.0; for x in terms { s += x }`
/// in f64, round to nearest even, for every input (an empty slice gives `+0.0`; a NaN result
/// is the loop's NaN up to its payload).
///
/// ```
/// let terms = [0.1, 0.2, 0.3, 1e16, -1e16, 1.0];
/// let mut s = 0.0f64;
/// for x in terms {
///     s += x;
/// }
/// assert_eq!(binade::ordered_sum(&terms).to_bits(), s.to_bits());
/// ```
pub fn ordered_sum(terms: &[f64]) -> f64 {
    ordered_sum_any(terms)
}

/// The sequential sum of f32 `terms`, added in f32 as the CPU's `f32` loop adds them, by the
/// fast engine ([`crate::fast`]) as [`ordered_sum`] does for f64.
///
/// Guarantee: the result has the same bits as `s = 0.0f32; for x in terms { s += x }` for
/// every input (a NaN result is the loop's NaN up to its payload).
///
/// ```
/// let terms: Vec<f32> = (0..3000).map(|i| 0.1 + i as f32 * 1e-4).collect();
/// let mut s = 0.0f32;
/// for x in &terms {
///     s += x;
/// }
/// assert_eq!(binade::ordered_sum_f32(&terms).to_bits(), s.to_bits());
/// ```
pub fn ordered_sum_f32(terms: &[f32]) -> f32 {
    ordered_sum_any(terms)
}

/// The fast engine on one thread below [`THREADED_FROM`] terms, on rayon's threads above.
fn ordered_sum_any<T: crate::fast::FastTerm>(terms: &[T]) -> T {
    if terms.len() < THREADED_FROM {
        crate::fast::ordered_sum_fast(terms)
    } else {
        crate::fast::ordered_sum_par(terms)
    }
}

/// Below this many terms the threads' blocks and walk cost more than they save.
pub const THREADED_FROM: usize = 64 * crate::fast::CHUNK;

/// The sequential sum of f64 `terms` under a plan of kind `plan`, with the walk's counts:
/// how many chunks of [`CHUNK`] terms were stepped over by their unit (`applied`) and how many
/// were added term by term (`fallback`).
///
/// Guarantee: `total` has the loop's bits for every plan; a plan only moves chunks between
/// `applied` and `fallback`. [`PlanKind::Stale`] has no other input to borrow a plan from
/// here, so it takes every chunk term by term (use [`pipeline`] to give it one).
///
/// ```
/// use binade::PlanKind;
///
/// let terms: Vec<f64> = (0..4096).map(|i| (i % 7) as f64 * 0.125).collect();
/// let good = binade::ordered_sum_with(&terms, &PlanKind::TreePrefix);
/// let bad = binade::ordered_sum_with(&terms, &PlanKind::Fixed(-30));
/// assert_eq!(good.total.to_bits(), bad.total.to_bits());
/// assert_eq!(good.applied + good.fallback, 4);
/// assert!(good.applied > bad.applied);
/// ```
pub fn ordered_sum_with(terms: &[f64], plan: &PlanKind) -> Walk<f64> {
    pipeline::<F64, Exact>(terms, plan, None, &Exact)
}

/// [`ordered_sum_with`] for f32 terms, summed in f32.
///
/// Guarantee: `total` has the bits of the f32 loop for every plan.
///
/// ```
/// use binade::PlanKind;
///
/// let terms = vec![0.5f32; 2048];
/// let w = binade::ordered_sum_f32_with(&terms, &PlanKind::TermByTerm);
/// assert_eq!(w.total, 1024.0);
/// assert_eq!((w.applied, w.fallback), (0, 2));
/// ```
pub fn ordered_sum_f32_with(terms: &[f32], plan: &PlanKind) -> Walk<f32> {
    pipeline::<F32, Exact>(terms, plan, None, &Exact)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verify::inputs::InputKind;

    #[test]
    fn every_kind_and_plan_matches_the_loop() {
        let seed = 0x5eed;
        for kind in InputKind::ALL {
            let t64 = kind.generate::<F64>(3 * CHUNK + 5, seed);
            let t32 = kind.generate::<F32>(3 * CHUNK + 5, seed);
            let want64 = loop_sum::<F64>(&t64).to_bits();
            let want32 = loop_sum::<F32>(&t32).to_bits() as u64;
            let got = ordered_sum(&t64).to_bits();
            assert!(
                same_result::<F64>(got, want64),
                "seed {seed} kind {kind} f64: {got:#x} vs {want64:#x}"
            );
            let got = ordered_sum_f32(&t32).to_bits() as u64;
            assert!(
                same_result::<F32>(got, want32),
                "seed {seed} kind {kind} f32: {got:#x} vs {want32:#x}"
            );
            for plan in PlanKind::standard(seed) {
                let got = ordered_sum_with(&t64, &plan).total.to_bits();
                assert!(
                    same_result::<F64>(got, want64),
                    "seed {seed} kind {kind} plan {plan} f64"
                );
                let got = ordered_sum_f32_with(&t32, &plan).total.to_bits() as u64;
                assert!(
                    same_result::<F32>(got, want32),
                    "seed {seed} kind {kind} plan {plan} f32"
                );
            }
        }
    }

    #[test]
    fn empty_input_is_positive_zero() {
        assert_eq!(ordered_sum(&[]).to_bits(), 0);
        assert_eq!(ordered_sum_f32(&[]).to_bits(), 0);
    }
}

/// The Rust examples of `docs/sum.md`, run as doc tests so the documentation stays true.
#[cfg(doctest)]
#[doc = include_str!("../docs/sum.md")]
struct SumDocExamples;
