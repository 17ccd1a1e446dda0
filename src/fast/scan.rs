//! One chunk's unit for a given binade, from the terms' own bits, with operations that have no
//! chain from term to term.
//!
//! The sum is `m * u` in binade `e` of its format (`u = 2^(e - P)`, `P` the stored fraction
//! bits, `m` an integer in `[2^P, 2^(P+1))`); `scale = 2^(P - e)` turns a term into ulps.
//!
//! 1. `y = x * scale` (f32 terms widened to f64 first, which is exact) is exact: a scaling
//!    by a power of two that stays normal (where it would round, `y < 2^-1022`, far below
//!    one half, and so is its rounding).
//! 2. `t = y + 1.5 * 2^52` lies in `[2^52, 2^53)` for `0 <= y < 2^51`, where the ulp is 1:
//!    it is `y` rounded to an integer, ties to even (the constant is even), plus the constant,
//!    and `r = t - 1.5 * 2^52` is exact. The low bit of `t`'s pattern is `r mod 2`.
//! 3. `d = y - r` is exact and `|d| <= 1/2`. Where `|d| != 1/2` the loop's add rounds to
//!    `m + r` whatever `m` is: the increment is `r`.
//! 4. A tie (`|d| = 1/2`, `y = k + 1/2`) adds `k` or `k + 1`, whichever makes the result even
//!    (landing exactly on `2^(P+1)` counts as even). So after a tie the running significand is
//!    even whatever it was before, and every later increment of the chunk is fixed. Write `b`
//!    for the low bit of the term's base (`r` off ties, `k` on them: `k = r` where `d = +1/2`,
//!    `k = r - 1` where `d = -1/2`, and `r` is even on a tie). A tie's correction (`0` or `1`,
//!    added to `k`) is the parity of the significand before it plus `b`: for every tie but the
//!    first that is the XOR of the `b` since the previous tie (after which the parity was 0),
//!    through this one. The first tie's correction is the start's parity XOR `first`, the XOR
//!    of the `b` from the chunk's start through the first tie.
//! 5. So a chunk's unit is `inc + (has tie ? (p XOR first) : 0)` for a start of parity `p`,
//!    with `inc` the sum of the bases plus the later ties' corrections: one integer and one
//!    bit, the pair `(for m even, for m odd)` of the algebra in `crate::unit`.
//!
//! Integers below `2^53` add exactly in f64, and a sum of non-negative values that reaches
//! `2^53` stays at or above it (rounding is monotone), so a total below `2^53` is exact.
//!
//! The scan ([`scan`]) forms `sum r` with a flag for ties and a flag for terms that leave the
//! path (negative, NaN, infinite, `y >= 2^51`); only a chunk with a tie takes the second,
//! bit-mask pass ([`tie_unit`]), which reads the chunk again from L1.

use super::term::FastTerm;
use super::Checks;

/// `1.5 * 2^52`: adding and subtracting it rounds a value below `2^51` to an integer.
pub(super) const MAGIC: f64 = 6_755_399_441_055_744.0;
/// `2^51`: the bound on one term's `y`.
pub(super) const Y_LIMIT: f64 = 2_251_799_813_685_248.0;
/// `2^53`: a chunk's increment must stay below it to be exact.
pub(super) const INC_LIMIT: f64 = 9_007_199_254_740_992.0;
/// The most terms a chunk may hold: the tie pass keeps one bit per term in
/// `MAX_CHUNK / 64` words on the stack.
pub const MAX_CHUNK: usize = 4096;
const WORDS: usize = MAX_CHUNK / 64;

/// What the scan of a chunk found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Scan {
    /// The sum of `rint(y)` (exact where it is below `2^53`).
    pub rsum: f64,
    /// Some term is a tie.
    pub tie: bool,
    /// Some term leaves the path (negative, not finite, `y >= 2^51`).
    pub off: bool,
}

/// The unit of a chunk for one binade: the increment for a start of parity `p` is
/// `inc + (p ^ first)` where `first` is 0 or 1, and `inc` where `first` is [`NO_TIE`].
///
/// Invariant: `inc < 2^53`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FastUnit {
    /// The increment without the first tie's correction.
    pub inc: u64,
    /// The parity the first tie's correction is XORed with, or [`NO_TIE`].
    pub first: u8,
}

/// [`FastUnit::first`] of a chunk without a tie.
pub const NO_TIE: u8 = 2;

impl FastUnit {
    /// The increment for a start significand of parity `parity` (0 or 1).
    #[inline]
    pub fn increment(self, parity: u64) -> u64 {
        debug_assert!(parity < 2);
        if self.first == NO_TIE {
            self.inc
        } else {
            self.inc + (parity ^ u64::from(self.first))
        }
    }
}

/// The unit of `chunk` for `scale = 2^(P - e)`, or `None` where the path does not apply (a
/// term that leaves it, or an increment at or above `2^53`).
pub(super) fn chunk_unit<T: FastTerm>(chunk: &[T], scale: f64, checks: Checks) -> Option<FastUnit> {
    debug_assert!(chunk.len() <= MAX_CHUNK);
    let s = scan(chunk, scale);
    let off = s.off && (checks.sign || !only_negatives(chunk, scale));
    if off || !(s.rsum < INC_LIMIT) {
        return None;
    }
    if s.tie && checks.ties {
        return tie_unit(chunk, scale, checks);
    }
    Some(FastUnit {
        inc: s.rsum as u64,
        first: NO_TIE,
    })
}

/// True when every term that leaves the path leaves it only by its sign (the sign-check
/// mutant's view: it lets negative terms through, as `rint` of a negative `y`).
fn only_negatives<T: FastTerm>(chunk: &[T], scale: f64) -> bool {
    chunk.iter().all(|x| {
        let y = x.widen() * scale;
        y.abs() < Y_LIMIT
    })
}

/// The scan: `sum rint(y)`, whether some term ties, and whether some term leaves the path.
/// AVX2 where the CPU has it, else the portable loop; both add the same integers (in another
/// order, which cannot change an exact sum) and raise the same flags.
pub(super) fn scan<T: FastTerm>(chunk: &[T], scale: f64) -> Scan {
    #[cfg(target_arch = "x86_64")]
    {
        if super::has_avx2() {
            // SAFETY: the CPU has AVX2 (checked just above).
            return unsafe { scan_avx2(chunk, scale) };
        }
    }
    scan_portable(chunk, scale)
}

/// The portable scan, four accumulators so the adds need not wait on each other.
pub(super) fn scan_portable<T: FastTerm>(chunk: &[T], scale: f64) -> Scan {
    let mut acc = [0.0f64; 4];
    let (mut dmax, mut ymax, mut xmin) = (0.0f64, 0.0f64, 0.0f64);
    for (i, x) in chunk.iter().enumerate() {
        let x = x.widen();
        let y = x * scale;
        let r = (y + MAGIC) - MAGIC;
        acc[i % 4] += r;
        dmax = dmax.max((y - r).abs());
        ymax = ymax.max(y);
        xmin = xmin.min(x);
    }
    let rsum = (acc[0] + acc[1]) + (acc[2] + acc[3]);
    // NaN and infinite terms make `rsum` NaN or infinite, which the caller's `< 2^53` refuses;
    // `ymax` and `xmin` catch the finite terms that leave the path.
    Scan {
        rsum,
        tie: dmax >= 0.5,
        off: xmin < 0.0 || ymax >= Y_LIMIT || rsum.is_nan(),
    }
}

/// [`scan_portable`] four lanes at a time, four vectors a step: per vector one multiply, two
/// adds for `rint`, one subtract, and four max/min/and for the flags (tested once a chunk).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn scan_avx2<T: FastTerm>(chunk: &[T], scale: f64) -> Scan {
    use std::arch::x86_64::*;
    let vs = _mm256_set1_pd(scale);
    let magic = _mm256_set1_pd(MAGIC);
    let abs = _mm256_castsi256_pd(_mm256_set1_epi64x(0x7fff_ffff_ffff_ffff));
    let zero = _mm256_setzero_pd();
    let (mut acc, mut dmax, mut ymax, mut xmin) = ([zero; 4], [zero; 4], [zero; 4], [zero; 4]);
    let mut blocks = chunk.chunks_exact(16);
    for c in &mut blocks {
        for k in 0..4 {
            // SAFETY: c holds 16 terms; terms 4k..4k+4 are inside it.
            let x = unsafe { T::load4(c.as_ptr().add(4 * k)) };
            let y = _mm256_mul_pd(x, vs);
            let r = _mm256_sub_pd(_mm256_add_pd(y, magic), magic);
            acc[k] = _mm256_add_pd(acc[k], r);
            // max(acc, v) keeps v where v is NaN only until the next max; NaN terms are
            // caught by the sum instead.
            dmax[k] = _mm256_max_pd(dmax[k], _mm256_and_pd(_mm256_sub_pd(y, r), abs));
            ymax[k] = _mm256_max_pd(ymax[k], y);
            xmin[k] = _mm256_min_pd(xmin[k], x);
        }
    }
    let lanes = |v: __m256d| -> [f64; 4] {
        let mut out = [0.0f64; 4];
        // SAFETY: out holds four doubles.
        unsafe { _mm256_storeu_pd(out.as_mut_ptr(), v) };
        out
    };
    let rest = scan_portable(blocks.remainder(), scale);
    let a = lanes(_mm256_add_pd(
        _mm256_add_pd(acc[0], acc[1]),
        _mm256_add_pd(acc[2], acc[3]),
    ));
    let d = lanes(_mm256_max_pd(
        _mm256_max_pd(dmax[0], dmax[1]),
        _mm256_max_pd(dmax[2], dmax[3]),
    ));
    let y = lanes(_mm256_max_pd(
        _mm256_max_pd(ymax[0], ymax[1]),
        _mm256_max_pd(ymax[2], ymax[3]),
    ));
    let x = lanes(_mm256_min_pd(
        _mm256_min_pd(xmin[0], xmin[1]),
        _mm256_min_pd(xmin[2], xmin[3]),
    ));
    let rsum = ((a[0] + a[1]) + (a[2] + a[3])) + rest.rsum;
    let dmax = d.iter().fold(0.0f64, |m, &v| m.max(v));
    let ymax = y.iter().fold(0.0f64, |m, &v| m.max(v));
    let xmin = x.iter().fold(0.0f64, |m, &v| m.min(v));
    Scan {
        rsum,
        tie: dmax >= 0.5 || rest.tie,
        off: xmin < 0.0 || ymax >= Y_LIMIT || rsum.is_nan() || rest.off,
    }
}

/// Bit masks of a chunk, one bit per term: `b`, the low bit of the term's base, and `t`, the
/// term is a tie; with `sum r` and the number of ties with `d = -1/2`.
struct Masks {
    b: [u64; WORDS],
    t: [u64; WORDS],
    rsum: f64,
    down: u64,
}

/// One term's contribution to [`Masks`]: `(r, low bit of r, tie with d = -1/2, tie)`.
#[inline(always)]
fn term_bits(x: f64, scale: f64) -> (f64, u64, u64, u64) {
    let y = x * scale;
    let t = y + MAGIC;
    let r = t - MAGIC;
    let d = y - r;
    (
        r,
        t.to_bits() & 1,
        u64::from(d == -0.5),
        u64::from(d.abs() == 0.5),
    )
}

fn masks<T: FastTerm>(chunk: &[T], scale: f64) -> Masks {
    let mut m = Masks {
        b: [0; WORDS],
        t: [0; WORDS],
        rsum: 0.0,
        down: 0,
    };
    let mut acc = [0.0f64; 4];
    for (i, x) in chunk.iter().enumerate() {
        let (r, low, down, tie) = term_bits(x.widen(), scale);
        acc[i % 4] += r;
        m.b[i / 64] |= (low ^ down) << (i % 64);
        m.t[i / 64] |= tie << (i % 64);
        m.down += down;
    }
    m.rsum = (acc[0] + acc[1]) + (acc[2] + acc[3]);
    m
}

/// The unit of a chunk with ties (step 4 of the module doc), or `None` where its increment
/// reaches `2^53`. The caller has checked that no term leaves the path.
pub(super) fn tie_unit<T: FastTerm>(chunk: &[T], scale: f64, checks: Checks) -> Option<FastUnit> {
    let m = masks(chunk, scale);
    // Sum of the bases: `r` less one for every tie whose `r` is `k + 1`.
    let base = m.rsum - m.down as f64;
    let (first, later) = tie_corrections(&m.b, &m.t, chunk.len());
    let later = if checks.later_ties { later } else { 0 };
    let first = match first {
        Some(f) if checks.first_tie => f as u8,
        Some(_) => 0, // the mutant: the first tie corrected as if the start were even
        None => NO_TIE,
    };
    let inc = base + later as f64;
    (inc < INC_LIMIT).then_some(FastUnit {
        inc: inc as u64,
        first,
    })
}

/// The parity `first` of the first tie (the XOR of `b` from the start through it) and the sum
/// of the later ties' corrections, over the first `len` bits of the masks.
fn tie_corrections(b: &[u64; WORDS], t: &[u64; WORDS], len: usize) -> (Option<u64>, u64) {
    let mut parity = 0u64; // XOR of b since the last tie (or the start), exclusive of now
    let mut first = None;
    let mut later = 0u64;
    for w in 0..len.div_ceil(64) {
        let (bw, mut tw) = (b[w], t[w]);
        let mut from = 0u32; // the first bit of this word not yet in `parity`
        while tw != 0 {
            let i = tw.trailing_zeros();
            // bits from..=i of bw
            let span = (u64::MAX >> (63 - i)) & !((1u64 << from) - 1);
            let c = parity ^ u64::from((bw & span).count_ones() & 1);
            match first {
                None => first = Some(c),
                Some(_) => later += c,
            }
            parity = 0;
            from = i + 1;
            tw &= tw - 1;
        }
        if from < 64 {
            parity ^= u64::from((bw >> from).count_ones() & 1);
        }
    }
    (first, later)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::{Format, F64};
    use crate::unit::{run_unit, Binade};

    /// The algebra's pair unit of `chunk` in binade `[1, 2)` (f64), term by term.
    fn algebra_unit(chunk: &[f64]) -> (u64, u64) {
        let b = Binade::from_exponent::<F64>(0).expect("a normal binade");
        let bits: Vec<u64> = chunk.iter().map(|&x| F64::to_bits(x)).collect();
        let u = run_unit::<F64>(b, &bits);
        (u.even, u.odd)
    }

    #[test]
    fn tie_units_equal_the_algebra() {
        use rand::{Rng, SeedableRng};
        let seed = 0x7e5u64;
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
        for case in 0..2000 {
            let n = rng.random_range(1..300usize);
            let chunk: Vec<f64> = (0..n)
                .map(|_| {
                    let k = rng.random_range(0..8u32) as f64;
                    match rng.random_range(0..3) {
                        0 => (k + 0.5) * f64::EPSILON, // a tie in [1, 2)
                        1 => k * f64::EPSILON,
                        _ => rng.random::<f64>() * 4.0 * f64::EPSILON,
                    }
                })
                .collect();
            let scale = 2f64.powi(52);
            let got = chunk_unit(&chunk, scale, Checks::ALL).expect("in range");
            let want = algebra_unit(&chunk);
            assert_eq!(
                (got.increment(0), got.increment(1)),
                want,
                "seed {seed:#x} case {case}: {chunk:?}"
            );
        }
    }
}
