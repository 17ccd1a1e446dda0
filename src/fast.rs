//! The loop's bits, faster than the loop: the CPU engine of fast units.
//!
//! The loop `s = 0; for x in terms { s += x }` waits for one add per term. Here the running
//! sum is exact before every chunk of [`CHUNK`] terms, so the chunk's unit is formed for the
//! sum's own binade (no plan on one thread) with operations that have no chain between terms:
//!
//! * In binade `e` a sum is `m * u`, `u = 2^(e-52)`, `m` an integer in `[2^52, 2^53)`. For
//!   `x >= 0`, `y = x * 2^(52-e)` is exact (a power-of-two scaling; where it would round,
//!   `y < 2^-1022` and both it and its rounding are far below one half) and the loop adds
//!   `rint(y)` ulps, rounded to nearest even, as long as the sum stays in the binade.
//! * `rint(y)` for `0 <= y < 2^51` is `(y + 1.5 * 2^52) - 1.5 * 2^52`: the sum lies in
//!   `[2^52, 2^53)` where the ulp is 1, so it rounds `y` to an integer, ties to even (the
//!   magic number is even), and the subtraction is exact. Terms with `y >= 2^51` (or NaN)
//!   leave the fast path.
//! * Where `y - rint(y)` is not `+-1/2` (no tie) the increment does not depend on the parity
//!   of `m`, so the chunk's unit is one integer: the sum of the `rint(y)`. Integers add
//!   exactly in f64 below 2^53, and a sum of non-negative values that reaches `2^53` stays at
//!   or above it (rounding is monotone), so a chunk sum below `2^53` is exact.
//! * The unit applies when `m + inc <= 2^53` (landing on `2^(e+1)` is exact too). Terms are
//!   non-negative on this path, so the end bounds every intermediate sum.
//!
//! A chunk with a tie, a negative or non-finite term, a term at or above half the binade, a
//! start that is not a normal number at or above `2^-971`, or an end past the binade is added
//! term by term with the native add, which is never wrong. So the result has the loop's bits
//! for every input.
//!
//! [`ordered_sum_par`] does the same over threads: a parallel pass forms each chunk's plain
//! sum, their prefix (a guess) gives each chunk a binade, a second parallel pass forms each
//! chunk's unit for it, and a walk over the chunks applies each unit where the exact running
//! sum is in the guessed binade and adds the chunk term by term otherwise. A wrong guess costs
//! time, never bits.

use rayon::prelude::*;

/// Terms per chunk of the fast engine: the layout's chunk, so its counts read like the
/// walk's.
pub const CHUNK: usize = crate::layout::CHUNK;

/// `1.5 * 2^52`: adding and subtracting it rounds a value below `2^51` to an integer.
const MAGIC: f64 = 6_755_399_441_055_744.0;
/// `2^51`: the fast path's bound on one term's `y`.
const Y_LIMIT: f64 = 2_251_799_813_685_248.0;
/// `2^53`: a chunk's increment must stay below it to be exact.
const INC_LIMIT: f64 = 9_007_199_254_740_992.0;
const HIDDEN: u64 = 1 << 52;
const FRAC_MASK: u64 = HIDDEN - 1;
/// Lowest binade field with a normal `2^(52-e)`: `2^(1075-b)` needs `1075 - b <= 1023`.
const MIN_FIELD: u64 = 52;

/// Which of the fast path's checks are on: all of them, except in the deliberately broken
/// builds of the kill matrix ([`crate::verify`]'s fast mutants).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Checks {
    /// Leave the fast path on a tie.
    pub ties: bool,
    /// Leave it on a negative term.
    pub sign: bool,
    /// Refuse a unit whose end passes `2^(e+1)`.
    pub bound: bool,
}

impl Checks {
    /// Every check: the exact engine.
    pub const ALL: Checks = Checks {
        ties: true,
        sign: true,
        bound: true,
    };
}

/// The increment of `chunk` for a sum in binade field `field` (`MIN_FIELD <= field < 2047`)
/// by the fast path, or `None` where the fast path does not apply (see the module doc).
fn fast_increment(chunk: &[f64], field: u64, checks: Checks) -> Option<f64> {
    debug_assert!((MIN_FIELD..0x7ff).contains(&field));
    let scale = f64::from_bits((2098 - field) << 52); // 2^(52-e), e = field - 1023
    let (total, off) = increments(chunk, scale, checks);
    (off == 0 && total < INC_LIMIT).then_some(total)
}

/// The sum of `rint(x * scale)` over `chunk` and a non-zero flag where a term leaves the
/// fast path: AVX2 where the CPU has it ([`vector_path`]), else the portable loop. Both add
/// the same non-negative integers (in another order, which cannot change an exact sum).
fn increments(chunk: &[f64], scale: f64, checks: Checks) -> (f64, u64) {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2 (checked just above).
            return unsafe { increments_avx2(chunk, scale, checks) };
        }
    }
    increments_portable(chunk, scale, checks)
}

/// One term's rounded increment and whether it leaves the fast path.
#[inline(always)]
fn one_increment(x: f64, scale: f64, checks: Checks) -> (f64, bool) {
    let y = x * scale;
    let r = (y + MAGIC) - MAGIC;
    let tie = checks.ties && (y - r).abs() == 0.5;
    let negative = checks.sign && x < 0.0;
    // `y < Y_LIMIT` is false for NaN too: a NaN term leaves the fast path.
    let inside = y < Y_LIMIT;
    (r, tie || negative || !inside)
}

fn increments_portable(chunk: &[f64], scale: f64, checks: Checks) -> (f64, u64) {
    let mut acc = [0.0f64; 4];
    let mut off = false;
    for (i, &x) in chunk.iter().enumerate() {
        let (r, o) = one_increment(x, scale, checks);
        acc[i % 4] += r;
        off |= o;
    }
    (acc.iter().sum(), u64::from(off))
}

/// [`increments_portable`] four lanes at a time, four vectors per step.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn increments_avx2(chunk: &[f64], scale: f64, checks: Checks) -> (f64, u64) {
    use std::arch::x86_64::*;
    let vs = _mm256_set1_pd(scale);
    let magic = _mm256_set1_pd(MAGIC);
    let half = _mm256_set1_pd(0.5);
    let limit = _mm256_set1_pd(Y_LIMIT);
    let zero = _mm256_setzero_pd();
    let abs = _mm256_castsi256_pd(_mm256_set1_epi64x(0x7fff_ffff_ffff_ffff));
    let on = |b: bool| _mm256_castsi256_pd(_mm256_set1_epi64x(if b { -1 } else { 0 }));
    let (tie_on, sign_on) = (on(checks.ties), on(checks.sign));
    let mut acc = [zero; 4];
    let mut off = zero;
    let mut blocks = chunk.chunks_exact(16);
    for c in &mut blocks {
        for (k, a) in acc.iter_mut().enumerate() {
            // SAFETY: c holds 16 doubles; lanes 4k..4k+4 are inside it.
            let x = unsafe { _mm256_loadu_pd(c.as_ptr().add(4 * k)) };
            let y = _mm256_mul_pd(x, vs);
            let r = _mm256_sub_pd(_mm256_add_pd(y, magic), magic);
            let d = _mm256_and_pd(_mm256_sub_pd(y, r), abs);
            let tie = _mm256_and_pd(_mm256_cmp_pd::<_CMP_EQ_OQ>(d, half), tie_on);
            let neg = _mm256_and_pd(_mm256_cmp_pd::<_CMP_LT_OQ>(x, zero), sign_on);
            let big = _mm256_cmp_pd::<_CMP_NLT_UQ>(y, limit); // also NaN
            off = _mm256_or_pd(off, _mm256_or_pd(tie, _mm256_or_pd(neg, big)));
            *a = _mm256_add_pd(*a, r);
        }
    }
    let mut lanes = [0.0f64; 4];
    let sum = _mm256_add_pd(_mm256_add_pd(acc[0], acc[1]), _mm256_add_pd(acc[2], acc[3]));
    // SAFETY: lanes holds four doubles.
    unsafe { _mm256_storeu_pd(lanes.as_mut_ptr(), sum) };
    let (rest, rest_off) = increments_portable(blocks.remainder(), scale, checks);
    let total = lanes.iter().sum::<f64>() + rest;
    (total, u64::from(_mm256_movemask_pd(off) != 0) | rest_off)
}

/// Which compiled path [`increments`] takes on this CPU (for reports).
pub fn vector_path() -> &'static str {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx2") {
            return "x86_64 AVX2";
        }
    }
    "portable"
}

/// The binade field of `s` when the fast path can start from it (a positive normal at or
/// above `2^-971`), else `None`.
fn fast_field(s: f64) -> Option<u64> {
    let bits = s.to_bits();
    let field = (bits >> 52) & 0x7ff;
    (bits >> 63 == 0 && (MIN_FIELD..0x7ff).contains(&field)).then_some(field)
}

/// `s + inc` ulps of its binade `field`, where that stays at or below `2^(e+1)`.
fn apply(s: f64, field: u64, inc: f64, checks: Checks) -> Option<f64> {
    let m = (s.to_bits() & FRAC_MASK) | HIDDEN;
    let end = m + inc as u64; // inc < 2^53: exact integer
    if checks.bound && end > 2 * HIDDEN {
        return None;
    }
    // end == 2^53 carries into the exponent: exactly 2^(e+1).
    Some(f64::from_bits((field << 52) + (end - HIDDEN)))
}

/// The native loop over `chunk` from `s`.
fn add_terms(s: f64, chunk: &[f64]) -> f64 {
    chunk.iter().fold(s, |s, &x| s + x)
}

/// One chunk from the exact sum `s` before it: the fast unit, else the native adds; the flag
/// says the fast unit was tried and refused (not: the start was outside the fast path).
fn step(s: f64, chunk: &[f64], checks: Checks) -> (f64, bool) {
    let Some(field) = fast_field(s) else {
        return (add_terms(s, chunk), false);
    };
    if let Some(inc) = fast_increment(chunk, field, checks) {
        if let Some(next) = apply(s, field, inc, checks) {
            return (next, false);
        }
    }
    (add_terms(s, chunk), true)
}

/// Chunks a thread adds natively, without trying the fast unit, after one where it did not
/// apply (ties tend to come in runs; a wrong skip costs time only).
const COOLDOWN: usize = 8;

/// The sequential sum of `terms` on this thread.
///
/// Guarantee: the bits of `s = 0.0; for x in terms { s += x }` in f64 for every input (a NaN
/// result is the loop's NaN: every chunk that meets a NaN is added natively).
pub fn ordered_sum_fast(terms: &[f64]) -> f64 {
    ordered_sum_fast_with(terms, Checks::ALL)
}

/// [`ordered_sum_fast`] with `checks` (all of them for the exact engine).
pub fn ordered_sum_fast_with(terms: &[f64], checks: Checks) -> f64 {
    let mut s = 0.0f64;
    let mut skip = 0usize;
    for chunk in terms.chunks(CHUNK) {
        if skip > 0 {
            skip -= 1;
            s = add_terms(s, chunk);
            continue;
        }
        let (next, refused) = step(s, chunk, checks);
        s = next;
        if refused {
            skip = COOLDOWN;
        }
    }
    s
}

/// The sequential sum of `terms` over the threads of rayon's current pool.
///
/// Guarantee: the same bits as [`ordered_sum_fast`] (the loop's) for every input and every
/// number of threads; the threads only change the time.
pub fn ordered_sum_par(terms: &[f64]) -> f64 {
    ordered_sum_par_with(terms, Checks::ALL)
}

/// A sum of the threaded engine and how it went.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FastSum {
    /// The loop's bits.
    pub total: f64,
    /// Chunks of [`CHUNK`] terms added natively (the rest applied their unit).
    pub native_chunks: usize,
}

/// [`ordered_sum_par`], with the number of chunks it added natively.
pub fn ordered_sum_par_report(terms: &[f64]) -> FastSum {
    walk_par(terms, Checks::ALL)
}

/// [`ordered_sum_par`] with `checks` (all of them for the exact engine).
pub fn ordered_sum_par_with(terms: &[f64], checks: Checks) -> f64 {
    walk_par(terms, checks).total
}

fn walk_par(terms: &[f64], checks: Checks) -> FastSum {
    // The plan: each chunk's plain sum (any order serves a guess), then their prefix.
    let sums: Vec<f64> = terms.par_chunks(CHUNK).map(|c| c.iter().sum()).collect();
    let mut prefix = 0.0f64;
    let fields: Vec<Option<u64>> = sums
        .iter()
        .map(|&x| {
            let f = fast_field(prefix);
            prefix += x;
            f
        })
        .collect();
    // Each chunk's fast unit for its guessed binade (None: the walk adds it natively).
    let units: Vec<Option<f64>> = terms
        .par_chunks(CHUNK)
        .zip(fields.par_iter())
        .map(|(c, f)| f.and_then(|f| fast_increment(c, f, checks)))
        .collect();
    // The walk: a unit applies only from the exact sum in its own binade.
    let mut s = 0.0f64;
    let mut native_chunks = 0;
    for ((chunk, field), unit) in terms.chunks(CHUNK).zip(&fields).zip(&units) {
        let applied = match (field, unit) {
            (Some(f), Some(inc)) if fast_field(s) == Some(*f) => apply(s, *f, *inc, checks),
            _ => None,
        };
        s = match applied {
            Some(next) => next,
            None => {
                let (next, refused) = step(s, chunk, checks);
                // step applied the unit for the exact binade unless it refused or could not try
                native_chunks += usize::from(refused || fast_field(s).is_none());
                next
            }
        };
    }
    FastSum {
        total: s,
        native_chunks,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn loop_sum(x: &[f64]) -> f64 {
        x.iter().fold(0.0, |s, &t| s + t)
    }

    fn same(a: f64, b: f64) -> bool {
        a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
    }

    #[test]
    fn magic_rint_is_round_half_even_below_the_limit() {
        for y in [
            0.0,
            0.25,
            0.5,
            1.5,
            2.5,
            3.5,
            1e15 + 0.5,
            Y_LIMIT - 0.5,
            Y_LIMIT - 1.0,
        ] {
            assert_eq!((y + MAGIC) - MAGIC, y.round_ties_even(), "y = {y}");
        }
    }

    #[test]
    fn edges_equal_the_loop() {
        let cases: Vec<Vec<f64>> = vec![
            vec![],
            vec![-0.0],
            vec![-0.0, -0.0],
            vec![1.0; 3 * CHUNK + 5],
            vec![0.5; 2 * CHUNK],
            vec![f64::MAX, f64::MAX],
            vec![1.0, f64::NAN, 1.0],
            vec![f64::INFINITY, -1.0],
            vec![5e-324; CHUNK + 1],
            (0..4000).map(|i| (i as f64).sqrt()).collect(),
            (0..4000)
                .map(|i| {
                    if i % 7 == 0 {
                        -0.3
                    } else {
                        0.5 + i as f64 * 1e-3
                    }
                })
                .collect(),
        ];
        for c in cases {
            assert!(
                same(ordered_sum_fast(&c), loop_sum(&c)),
                "{:?}",
                &c[..c.len().min(4)]
            );
            assert!(
                same(ordered_sum_par(&c), loop_sum(&c)),
                "{:?}",
                &c[..c.len().min(4)]
            );
        }
    }

    #[test]
    fn a_landing_on_the_next_power_of_two_is_exact() {
        // 1 + 2048 * 2^-11 = 2 exactly, inside one chunk after the first.
        let mut v = vec![1.0];
        v.extend(std::iter::repeat_n(0.0, CHUNK - 1));
        v.extend(std::iter::repeat_n(2f64.powi(-11), 2048));
        assert_eq!(ordered_sum_fast(&v), loop_sum(&v));
        assert_eq!(ordered_sum_fast(&v), 2.0);
    }
}
