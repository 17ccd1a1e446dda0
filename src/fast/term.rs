//! The term types of the fast engine: f64 and f32, each summed in its own format.

use crate::format::{Format, F32, F64};

/// A term type the fast engine sums, in the format [`FastTerm::F`] (f64 terms in f64, f32
/// terms in f32, as the CPU's loop over that type adds them).
///
/// Guarantee: `widen` is exact (every f32 is an f64), and `load4` and `load8` load four and
/// eight consecutive terms widened to f64.
pub trait FastTerm: Copy + Send + Sync + PartialEq + std::fmt::Debug + 'static {
    /// The format the sum is kept in.
    type F: Format<Value = Self>;
    /// The term as an f64, exactly.
    fn widen(self) -> f64;
    /// Four terms from `p`, widened.
    ///
    /// # Safety
    /// `p..p+4` must be readable and the CPU must have AVX2.
    #[cfg(target_arch = "x86_64")]
    unsafe fn load4(p: *const Self) -> std::arch::x86_64::__m256d;
    /// Eight terms from `p`, widened.
    ///
    /// # Safety
    /// `p..p+8` must be readable and the CPU must have AVX-512F.
    #[cfg(target_arch = "x86_64")]
    unsafe fn load8(p: *const Self) -> std::arch::x86_64::__m512d;
    /// A plain (not ordered) sum of `terms` in f64, only to make a plan.
    fn plain_sum(terms: &[Self]) -> f64;
    /// The terms as f32s where `Self` is f32 (the same slice), else `None`: for passes that
    /// keep f32 terms in f32 lanes instead of widening them.
    fn as_f32(terms: &[Self]) -> Option<&[f32]>;
}

impl FastTerm for f64 {
    type F = F64;
    #[inline(always)]
    fn widen(self) -> f64 {
        self
    }
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    unsafe fn load4(p: *const f64) -> std::arch::x86_64::__m256d {
        // SAFETY: the caller guarantees four readable doubles and AVX2.
        unsafe { std::arch::x86_64::_mm256_loadu_pd(p) }
    }
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    unsafe fn load8(p: *const f64) -> std::arch::x86_64::__m512d {
        // SAFETY: the caller guarantees eight readable doubles and AVX-512F.
        unsafe { std::arch::x86_64::_mm512_loadu_pd(p) }
    }
    fn plain_sum(terms: &[f64]) -> f64 {
        plain_sum_lanes(terms)
    }
    fn as_f32(_: &[f64]) -> Option<&[f32]> {
        None
    }
}

impl FastTerm for f32 {
    type F = F32;
    #[inline(always)]
    fn widen(self) -> f64 {
        self as f64
    }
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    unsafe fn load4(p: *const f32) -> std::arch::x86_64::__m256d {
        use std::arch::x86_64::*;
        // SAFETY: the caller guarantees four readable floats and AVX2.
        unsafe { _mm256_cvtps_pd(_mm_loadu_ps(p)) }
    }
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    unsafe fn load8(p: *const f32) -> std::arch::x86_64::__m512d {
        use std::arch::x86_64::*;
        // SAFETY: the caller guarantees eight readable floats and AVX-512F.
        unsafe { _mm512_cvtps_pd(_mm256_loadu_ps(p)) }
    }
    fn plain_sum(terms: &[f32]) -> f64 {
        // Sixteen f32 accumulators vectorise without widening; a chunk's sum is only a guess.
        let mut acc = [0.0f32; 16];
        let mut blocks = terms.chunks_exact(16);
        for c in &mut blocks {
            prefetch_ahead(c.as_ptr(), 16);
            for (a, x) in acc.iter_mut().zip(c) {
                *a += x;
            }
        }
        let rest: f64 = blocks.remainder().iter().map(|&x| x as f64).sum();
        acc.iter().map(|&a| a as f64).sum::<f64>() + rest
    }
    fn as_f32(terms: &[f32]) -> Option<&[f32]> {
        Some(terms)
    }
}

/// How far ahead of the terms being read every pass that reads the terms from memory asks
/// for their cache lines ([`prefetch_ahead`]): 1 KiB, sixteen 64-byte lines. On a 2-core
/// Intel Xeon build machine (family 6 model 167) one thread's hardware prefetch left the
/// chunk scan at 1.18 ns a term on 10^8 f64 terms and a plain eight-lane sum at 0.94; asking
/// 256 bytes to 8 KiB ahead took the scan to 0.69 to 1.0 ns, 512 bytes and 1 KiB fastest
/// (`cpu-timing` HISTORY (12) has the figures). A distance, not a correctness constant: no
/// value changes a bit of any result.
pub(crate) const PREFETCH_BYTES: usize = 1024;

/// Asks the cache for the lines of the `n` terms that start [`PREFETCH_BYTES`] past `p`: one
/// prefetch a 64-byte line, to the first level. A hint, not a load: it reads and writes no
/// memory the program sees and does not fault on any address (past the slice, or unmapped),
/// so no result can depend on it; the address is formed by `wrapping_add` and never
/// dereferenced, so it need not lie in any allocation. Elsewhere than on x86-64 it does
/// nothing.
#[inline(always)]
pub(crate) fn prefetch_ahead<T>(p: *const T, n: usize) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        let ahead = p.cast::<i8>().wrapping_add(PREFETCH_BYTES);
        let bytes = n * std::mem::size_of::<T>();
        for line in (0..bytes).step_by(64) {
            // SAFETY: a prefetch is a hint the CPU may drop; it neither reads nor faults.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(ahead.wrapping_add(line)) };
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = (p, n);
    }
}

/// Eight independent f64 accumulators: the compiler vectorises this, and the order only
/// matters for a plan, which may be wrong at no cost but time. The lines [`PREFETCH_BYTES`]
/// ahead are asked for as the other passes ask for them (a one-thread read of terms from
/// memory, this sum is also the timing experiments' bound on such a read).
fn plain_sum_lanes<T: FastTerm>(terms: &[T]) -> f64 {
    let mut acc = [0.0f64; 8];
    let mut blocks = terms.chunks_exact(8);
    for c in &mut blocks {
        prefetch_ahead(c.as_ptr(), 8);
        for (a, x) in acc.iter_mut().zip(c) {
            *a += x.widen();
        }
    }
    let rest: f64 = blocks.remainder().iter().map(|x| x.widen()).sum();
    acc.iter().sum::<f64>() + rest
}

/// Terms a rayon piece of [`plain_sum_lanes_par`] holds: 64 Ki, large enough that splitting
/// costs nothing against the adds, small enough for every thread to get many pieces.
pub const LANES_PIECE: usize = 1 << 16;

/// The lane-wise plain parallel sum, a bar for benchmarks, not an engine: rayon over pieces of
/// [`LANES_PIECE`] terms, each summed by [`FastTerm::plain_sum`] (eight lanes, its lines asked
/// for ahead as the engine's passes ask for them), the pieces' sums added by rayon. Not the
/// loop's bits, nor the same bits from one pool to another: what reading the terms on every
/// thread of the current pool costs, which `par_iter().sum()` (one chain of adds a piece) is
/// not where the terms are in cache or are f32.
pub fn plain_sum_lanes_par<T: FastTerm>(terms: &[T]) -> f64 {
    use rayon::prelude::*;
    terms.par_chunks(LANES_PIECE).map(T::plain_sum).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The comparators read every term, so a timing column that uses them cannot be fast by
    /// skipping work: on terms `k mod 1024` (integers whose every partial sum in any order
    /// stays below 2^24, so exact in f32 lanes and in f64), at lengths around the pieces, the
    /// lanes and the vector steps, the lane-wise parallel sum and the one-thread plain sum
    /// equal the exact total, f64 and f32.
    #[test]
    fn plain_sums_read_every_term() {
        for n in [
            0usize,
            1,
            15,
            17,
            1023,
            LANES_PIECE - 1,
            LANES_PIECE,
            LANES_PIECE + 1,
            3 * LANES_PIECE + 5,
        ] {
            let wide: Vec<f64> = (0..n).map(|k| (k % 1024) as f64).collect();
            let narrow: Vec<f32> = wide.iter().map(|&x| x as f32).collect();
            let want: f64 = wide.iter().sum();
            assert_eq!(
                plain_sum_lanes_par(&wide),
                want,
                "f64, {n} terms, lane-wise parallel sum"
            );
            assert_eq!(
                plain_sum_lanes_par(&narrow),
                want,
                "f32, {n} terms, lane-wise parallel sum"
            );
            if n <= LANES_PIECE + 1 {
                assert_eq!(
                    f64::plain_sum(&wide),
                    want,
                    "f64, {n} terms, one-thread plain sum"
                );
                assert_eq!(
                    f32::plain_sum(&narrow),
                    want,
                    "f32, {n} terms, one-thread plain sum"
                );
            }
        }
    }
}
