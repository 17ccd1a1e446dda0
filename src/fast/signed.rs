//! Chunks with negative terms: their unit where no term ties, from the running offsets'
//! bounds (the argument of `crate::signed_unit`, specialised to one chunk and a known start).
//!
//! With the start `m * u` known (one thread, or a walk's exact sum), the magic-constant
//! rounding of `scan` gives each term's `r = rint(x / u)` for either sign while `|y| < 2^51`.
//! Where no term ties, `r` does not depend on the parity of the running significand, so while
//! every partial sum stays in the binade each term adds exactly `r`. Every running offset
//! (the sum of the `r` of a prefix) lies between `neg`, the sum of the negative `r`, and
//! `pos`, the sum of the positive ones. So where `m + neg >= 2^P + 1` and `m + pos <= 2^(P+1) - 1`
//! every modelled partial sum is at least one quantum inside the binade, every exact partial
//! sum within half a quantum of it, and by induction over the terms each add is the modelled
//! one: the chunk's end is `m + sum r`. The sums are of integers whose partial sums are bounded
//! by `pos - neg < 2^53`, so they are exact in f64 (a `pos` or `-neg` that reaches `2^53`, or a
//! NaN or infinite term, fails the bounds). A chunk with a tie goes term by term.
//!
//! A negative start by symmetry: rounding to nearest, ties to even, commutes with negation,
//! so the loop from `-|s|` over the terms is the negation of the loop from `|s|` over the
//! negated terms. Those have the negated `r`: the sum `-sum r`, the positive part `-neg`, the
//! negative part `-pos`, the same ties. One scan serves both signs.

use super::scan::{MAGIC, Y_LIMIT};
use super::term::FastTerm;
use super::Checks;
use crate::format::{Format, Layout};

/// What the signed scan of a chunk found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct SignedScan {
    /// `sum r`.
    pub rsum: f64,
    /// The sum of the positive `r` (an upper bound of every running offset).
    pub pos: f64,
    /// The sum of the negative `r` (a lower bound).
    pub neg: f64,
    /// Some term ties.
    pub tie: bool,
    /// Some `|y|` is at or above `2^51` (off the rounding path).
    pub big: bool,
}

/// The signed scan, portable: four accumulators of each sum.
pub(super) fn signed_scan_portable<T: FastTerm>(chunk: &[T], scale: f64) -> SignedScan {
    let (mut acc, mut pos, mut neg) = ([0.0f64; 4], [0.0f64; 4], [0.0f64; 4]);
    let (mut dmax, mut ymax) = (0.0f64, 0.0f64);
    for (i, x) in chunk.iter().enumerate() {
        let y = x.widen() * scale;
        let r = (y + MAGIC) - MAGIC;
        acc[i % 4] += r;
        pos[i % 4] += r.max(0.0);
        neg[i % 4] += r.min(0.0);
        dmax = dmax.max((y - r).abs());
        ymax = ymax.max(y.abs());
    }
    let total = |a: [f64; 4]| (a[0] + a[1]) + (a[2] + a[3]);
    SignedScan {
        rsum: total(acc),
        pos: total(pos),
        neg: total(neg),
        tie: dmax >= 0.5,
        big: ymax >= Y_LIMIT,
    }
}

/// [`signed_scan_portable`] four lanes at a time.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn signed_scan_avx2<T: FastTerm>(chunk: &[T], scale: f64) -> SignedScan {
    use std::arch::x86_64::*;
    let vs = _mm256_set1_pd(scale);
    let magic = _mm256_set1_pd(MAGIC);
    let abs = _mm256_castsi256_pd(_mm256_set1_epi64x(0x7fff_ffff_ffff_ffff));
    let zero = _mm256_setzero_pd();
    let (mut acc, mut pos, mut neg, mut dmax, mut ymax) = (zero, zero, zero, zero, zero);
    let mut blocks = chunk.chunks_exact(4);
    for c in &mut blocks {
        // SAFETY: c holds 4 terms.
        let x = unsafe { T::load4(c.as_ptr()) };
        let y = _mm256_mul_pd(x, vs);
        let r = _mm256_sub_pd(_mm256_add_pd(y, magic), magic);
        acc = _mm256_add_pd(acc, r);
        pos = _mm256_add_pd(pos, _mm256_max_pd(r, zero));
        neg = _mm256_add_pd(neg, _mm256_min_pd(r, zero));
        // A NaN |y| or d is caught by the sums instead (max keeps a NaN only until the next).
        dmax = _mm256_max_pd(dmax, _mm256_and_pd(_mm256_sub_pd(y, r), abs));
        ymax = _mm256_max_pd(ymax, _mm256_and_pd(y, abs));
    }
    let lanes = |v: __m256d| -> [f64; 4] {
        let mut out = [0.0f64; 4];
        // SAFETY: out holds four doubles.
        unsafe { _mm256_storeu_pd(out.as_mut_ptr(), v) };
        out
    };
    let rest = signed_scan_portable(blocks.remainder(), scale);
    let sum = |v: __m256d| {
        let a = lanes(v);
        (a[0] + a[1]) + (a[2] + a[3])
    };
    let max = |v: __m256d| lanes(v).iter().fold(0.0f64, |m, &x| m.max(x));
    SignedScan {
        rsum: sum(acc) + rest.rsum,
        pos: sum(pos) + rest.pos,
        neg: sum(neg) + rest.neg,
        tie: max(dmax) >= 0.5 || rest.tie,
        big: max(ymax) >= Y_LIMIT || rest.big,
    }
}

/// The signed scan: AVX2 where the CPU has it (the same sums, in another order of exact
/// integer adds, and the same flags).
pub(super) fn signed_scan<T: FastTerm>(chunk: &[T], scale: f64) -> SignedScan {
    #[cfg(target_arch = "x86_64")]
    {
        if super::has_avx2() {
            // SAFETY: the CPU has AVX2 (checked just above).
            return unsafe { signed_scan_avx2(chunk, scale) };
        }
    }
    signed_scan_portable(chunk, scale)
}

/// The loop's sum after `chunk` from `s` (a normal of either sign whose magnitude is in binade
/// `field`, `scale` its `2^(P - e)`), where the module's bounds hold and no term ties; `None`
/// otherwise.
pub(super) fn signed_step<F: Format>(
    s: F::Value,
    field: u32,
    chunk: &[F::Value],
    scale: f64,
    checks: Checks,
) -> Option<F::Value>
where
    F::Value: FastTerm,
{
    let mut sc = signed_scan(chunk, scale);
    let negative = F::to_bits(s) & F::SIGN != 0;
    if negative && checks.mirrored {
        sc = SignedScan {
            rsum: -sc.rsum,
            pos: -sc.neg,
            neg: -sc.pos,
            ..sc
        };
    } else if negative {
        sc.rsum = -sc.rsum; // the mutant: the sum negated, its bounds not mirrored
    }
    // A NaN term makes `rsum` NaN (max and min drop it from `pos` and `neg`); an infinite
    // one makes `pos` or `neg` infinite.
    if sc.big || sc.rsum.is_nan() || (sc.tie && checks.signed_ties) {
        return None;
    }
    let m = (F::to_bits(s) & F::FRAC_MASK) | F::HIDDEN;
    let (bottom, top) = (F::HIDDEN as f64, (F::HIDDEN << 1) as f64);
    // m < 2^53 and the sums are integers: m + pos and m + neg are exact where they matter
    // (below 2^54, where a comparison with the bounds is decided correctly).
    let inside = if checks.signed_bounds {
        m as f64 + sc.neg > bottom && m as f64 + sc.pos < top
    } else {
        let end = m as f64 + sc.rsum;
        end >= bottom && end <= top
    };
    if !inside {
        return None;
    }
    let end = (m as i64 + sc.rsum as i64) as u64;
    let sign = if negative { F::SIGN } else { 0 };
    Some(F::from_bits(
        sign | (((field as u64) << F::FRAC_BITS) + (end - F::HIDDEN)),
    ))
}
