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
//! The scan ([`scan`]) forms `sum r` with a flag for ties and a flag for negative terms, and
//! refuses a chunk whose `sum r` is not below `2^51` ([`SCAN_LIMIT`]). That bound also stands
//! for the per-term bound of step 2, without a comparison per term: with no negative term every
//! `r >= 0`, and a term with `y >= 2^51 - 1/2` has `t >= 2^53` (rounding is monotone), so
//! `r >= 2^51`; a sum of non-negative values is at least each of them, so `sum r < 2^51`
//! means every term had `y < 2^51 - 1/2` and its `r` is right. NaN and infinite terms make the
//! sum NaN or infinite, which the bound refuses too. A chunk it refuses with an increment
//! that would have applied (`2^51` ulps or more: a chunk worth a quarter of the running sum,
//! as only the first chunks of a sum are) is added natively: time, never bits. The bound is
//! load-bearing: a term the rounding gets wrong does raise the tie flag (`|y - r| >= 1/2`),
//! but the bit-mask pass the flag sends its chunk to relies on the same bound having refused
//! such terms (`inputs::term_past_the_rounding` is the case; the kill matrix's mutant with
//! `scan_bound` off gives a wrong sum on it). The AVX2 bit-mask pass, which runs first on a
//! chunk after one with a tie, forms `t` and `d` by the same fused multiply-adds and is
//! bounded the same way, on its own `sum r`. The AVX2 scan forms `t` and `d` with fused
//! multiply-adds, `fma(x, scale, 1.5 * 2^52)` and `fma(x, scale, -r)`: each rounds the exact
//! `x * scale` once, which is `y` itself (step 1), so they are step 2's `t` and step 3's `d`,
//! one instruction each, and `y` is not formed. Only a chunk with a tie takes the second,
//! bit-mask pass ([`chunk_unit_hinted`]), which reads the chunk again from L1; after a chunk
//! with a tie the next one takes the bit-mask pass at once (it finds what the scan finds).
//! Every vector pass that reads a chunk from memory asks for the lines
//! [`PREFETCH_BYTES`](super::term::PREFETCH_BYTES) ahead of the terms it is reading (a hint:
//! it changes no bit).

use super::term::{prefetch_ahead, FastTerm};
use super::Checks;

/// `1.5 * 2^52`: adding and subtracting it rounds a value below `2^51` to an integer.
pub(super) const MAGIC: f64 = 6_755_399_441_055_744.0;
/// `2^51`: the bound on one term's `y` (the portable bit-mask pass checks it term by term;
/// the vector passes bound the chunk's `sum r` by [`SCAN_LIMIT`] instead).
pub(super) const Y_LIMIT: f64 = 2_251_799_813_685_248.0;
/// `2^53`: a chunk's increment must stay below it to be exact.
pub(super) const INC_LIMIT: f64 = 9_007_199_254_740_992.0;
/// `2^51`: the scan's bound on a chunk's `sum r`, which stands for the per-term bound
/// (module documentation).
pub(super) const SCAN_LIMIT: f64 = Y_LIMIT;
/// The most terms a chunk may hold: the tie pass keeps one bit per term in
/// `MAX_CHUNK / 64` words on the stack.
pub const MAX_CHUNK: usize = 4096;
const WORDS: usize = MAX_CHUNK / 64;

/// What the scan of a chunk found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Scan {
    /// The sum of `rint(y)`: exact, and every term's `rint(y)` right, where it is below
    /// [`SCAN_LIMIT`] and `off` is false.
    pub rsum: f64,
    /// Some term is a tie.
    pub tie: bool,
    /// Some term is negative, or the sum is NaN.
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
#[cfg(test)]
pub(super) fn chunk_unit<T: FastTerm>(chunk: &[T], scale: f64, checks: Checks) -> Option<FastUnit> {
    chunk_unit_hinted(chunk, scale, checks, false).0
}

/// [`chunk_unit`], and whether the chunk had a tie. Where `ties_likely` (the chunk before had
/// one), the bit-mask pass runs at once instead of after a scan: it finds everything the scan
/// finds, so a chunk with ties is read once instead of twice.
pub(super) fn chunk_unit_hinted<T: FastTerm>(
    chunk: &[T],
    scale: f64,
    checks: Checks,
    ties_likely: bool,
) -> (Option<FastUnit>, bool) {
    debug_assert!(chunk.len() <= MAX_CHUNK);
    if ties_likely && checks.ties {
        let m = masks(chunk, scale, checks);
        let tie = m.t.iter().any(|&w| w != 0);
        let off = m.off && (checks.sign || !only_negatives(chunk, scale));
        if off || !sum_bounded(m.rsum, checks) {
            return (None, tie);
        }
        if !tie {
            let unit = FastUnit {
                inc: m.rsum as u64,
                first: NO_TIE,
            };
            return (Some(unit), false);
        }
        return (unit_from_masks(&m, chunk.len(), checks), true);
    }
    let s = scan(chunk, scale);
    let off = s.off && (checks.sign || !only_negatives(chunk, scale));
    if off || !sum_bounded(s.rsum, checks) {
        return (None, s.tie);
    }
    if s.tie && checks.ties {
        let m = masks(chunk, scale, checks);
        return (unit_from_masks(&m, chunk.len(), checks), true);
    }
    let unit = FastUnit {
        inc: s.rsum as u64,
        first: NO_TIE,
    };
    (Some(unit), s.tie)
}

/// True when an increment is below `2^53` (false for NaN and infinity).
fn below_limit(inc: f64) -> bool {
    inc < INC_LIMIT
}

/// True when a scan's `sum r` is below [`SCAN_LIMIT`] (false for NaN and infinity): then, with
/// no negative term, every term's `r` is right and the sum is exact (module documentation).
fn scan_below_limit(rsum: f64) -> bool {
    rsum < SCAN_LIMIT
}

/// The bound on a chunk's `sum r` that both vector passes (the scan and the bit-mask pass)
/// rely on in place of a per-term bound: [`SCAN_LIMIT`], or `2^53` alone under the
/// `scan_bound` mutant.
fn sum_bounded(rsum: f64, checks: Checks) -> bool {
    if checks.scan_bound {
        scan_below_limit(rsum)
    } else {
        below_limit(rsum)
    }
}

/// True when every term that leaves the path leaves it only by its sign (the sign-check
/// mutant's view: it lets negative terms through, as `rint` of a negative `y`).
fn only_negatives<T: FastTerm>(chunk: &[T], scale: f64) -> bool {
    chunk.iter().all(|x| {
        let y = x.widen() * scale;
        y.abs() < Y_LIMIT
    })
}

/// The scan: `sum rint(y)`, whether some term ties, and whether some term is negative (or the
/// sum NaN). AVX-512F, else AVX2, with FMA where the CPU has them, else the portable loop;
/// each adds the same integers (in another order, which cannot change an exact sum) and
/// raises the same flags.
pub(super) fn scan<T: FastTerm>(chunk: &[T], scale: f64) -> Scan {
    #[cfg(target_arch = "x86_64")]
    {
        if super::has_avx512() {
            // SAFETY: the CPU has AVX-512F, AVX2 and FMA (checked just above).
            return unsafe { scan_avx512(chunk, scale) };
        }
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
    let (mut dmax, mut xmin) = (0.0f64, 0.0f64);
    for (i, x) in chunk.iter().enumerate() {
        let x = x.widen();
        let y = x * scale;
        let r = (y + MAGIC) - MAGIC;
        acc[i % 4] += r;
        dmax = dmax.max((y - r).abs());
        xmin = xmin.min(x);
    }
    let rsum = (acc[0] + acc[1]) + (acc[2] + acc[3]);
    // NaN and infinite terms, and terms too large for the rounding, make `rsum` NaN, infinite
    // or at least 2^51, which the caller's bound refuses; `xmin` catches negative terms.
    Scan {
        rsum,
        tie: dmax >= 0.5,
        off: xmin < 0.0 || rsum.is_nan(),
    }
}

/// [`scan_portable`] four lanes at a time, four vectors a step: per vector one fused
/// multiply-add and one subtract for `r`, one add into the sum, one fused multiply-subtract
/// for `d`, and three and/max/min for the flags (tested once a chunk): seven instructions for
/// four terms, where forming `y` apart and bounding it term by term took nine.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn scan_avx2<T: FastTerm>(chunk: &[T], scale: f64) -> Scan {
    use std::arch::x86_64::*;
    let vs = _mm256_set1_pd(scale);
    let magic = _mm256_set1_pd(MAGIC);
    let abs = _mm256_castsi256_pd(_mm256_set1_epi64x(0x7fff_ffff_ffff_ffff));
    let zero = _mm256_setzero_pd();
    let (mut acc, mut dmax, mut xmin) = ([zero; 4], [zero; 4], [zero; 4]);
    let mut blocks = chunk.chunks_exact(16);
    for c in &mut blocks {
        prefetch_ahead(c.as_ptr(), 16);
        for k in 0..4 {
            // SAFETY: c holds 16 terms; terms 4k..4k+4 are inside it.
            let x = unsafe { T::load4(c.as_ptr().add(4 * k)) };
            // t = fl(x * scale + M) and d = fl(x * scale - r): x * scale is y exactly.
            let r = _mm256_sub_pd(_mm256_fmadd_pd(x, vs, magic), magic);
            acc[k] = _mm256_add_pd(acc[k], r);
            // max(acc, v) keeps v where v is NaN only until the next max; NaN terms are
            // caught by the sum instead.
            dmax[k] = _mm256_max_pd(dmax[k], _mm256_and_pd(_mm256_fmsub_pd(x, vs, r), abs));
            xmin[k] = _mm256_min_pd(xmin[k], x);
        }
    }
    let rest = scan_portable(blocks.remainder(), scale);
    let a = fold4(acc, _mm256_add_pd);
    let d = fold4(dmax, _mm256_max_pd);
    let x = fold4(xmin, _mm256_min_pd);
    let rsum = ((a[0] + a[1]) + (a[2] + a[3])) + rest.rsum;
    let dmax = d.iter().fold(0.0f64, |m, &v| m.max(v));
    let xmin = x.iter().fold(0.0f64, |m, &v| m.min(v));
    Scan {
        rsum,
        tie: dmax >= 0.5 || rest.tie,
        off: xmin < 0.0 || rsum.is_nan() || rest.off,
    }
}

/// [`scan_avx2`] eight lanes at a time with AVX-512F, four vectors (32 terms) a step: the same
/// seven instructions (fused multiply-add and subtract for `r`, the add into the sum, fused
/// multiply-subtract for `d`, its absolute value, max and min for the flags) for eight terms
/// instead of four. The sum of `r` is of integers, exact in any order while below the bound
/// (module documentation), so the lanes' order of adding cannot change it; NaN terms are
/// caught by the sum, as in [`scan_avx2`] (max and min may drop them). The terms past the
/// last whole step go through [`scan_avx2`].
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx2,fma")]
unsafe fn scan_avx512<T: FastTerm>(chunk: &[T], scale: f64) -> Scan {
    use std::arch::x86_64::*;
    let vs = _mm512_set1_pd(scale);
    let magic = _mm512_set1_pd(MAGIC);
    let zero = _mm512_setzero_pd();
    let (mut acc, mut dmax, mut xmin) = ([zero; 4], [zero; 4], [zero; 4]);
    let mut blocks = chunk.chunks_exact(32);
    for c in &mut blocks {
        prefetch_ahead(c.as_ptr(), 32);
        for k in 0..4 {
            // SAFETY: c holds 32 terms; terms 8k..8k+8 are inside it.
            let x = unsafe { T::load8(c.as_ptr().add(8 * k)) };
            // t = fl(x * scale + M) and d = fl(x * scale - r): x * scale is y exactly.
            let r = _mm512_sub_pd(_mm512_fmadd_pd(x, vs, magic), magic);
            acc[k] = _mm512_add_pd(acc[k], r);
            dmax[k] = _mm512_max_pd(dmax[k], _mm512_abs_pd(_mm512_fmsub_pd(x, vs, r)));
            xmin[k] = _mm512_min_pd(xmin[k], x);
        }
    }
    // SAFETY: the CPU has AVX2 and FMA (this function's features).
    let rest = unsafe { scan_avx2(blocks.remainder(), scale) };
    let a = _mm512_add_pd(_mm512_add_pd(acc[0], acc[1]), _mm512_add_pd(acc[2], acc[3]));
    let d = _mm512_max_pd(
        _mm512_max_pd(dmax[0], dmax[1]),
        _mm512_max_pd(dmax[2], dmax[3]),
    );
    let x = _mm512_min_pd(
        _mm512_min_pd(xmin[0], xmin[1]),
        _mm512_min_pd(xmin[2], xmin[3]),
    );
    let rsum = _mm512_reduce_add_pd(a) + rest.rsum;
    let dmax = _mm512_reduce_max_pd(d);
    let xmin = _mm512_reduce_min_pd(x);
    Scan {
        rsum,
        tie: dmax >= 0.5 || rest.tie,
        off: xmin < 0.0 || rsum.is_nan() || rest.off,
    }
}

/// The four doubles of `v`, in lane order (for the AVX2 scans' final reductions).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn lanes(v: std::arch::x86_64::__m256d) -> [f64; 4] {
    let mut out = [0.0f64; 4];
    // SAFETY: out holds four doubles.
    unsafe { std::arch::x86_64::_mm256_storeu_pd(out.as_mut_ptr(), v) };
    out
}

/// The four lanes of four accumulators folded by `op` (an add, min or max of vectors), as
/// `op(op(v0, v1), op(v2, v3))`: the vector passes' final reductions.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
fn fold4(
    v: [std::arch::x86_64::__m256d; 4],
    op: unsafe fn(
        std::arch::x86_64::__m256d,
        std::arch::x86_64::__m256d,
    ) -> std::arch::x86_64::__m256d,
) -> [f64; 4] {
    // SAFETY: op is one of the AVX intrinsics add, min and max; this function has AVX2.
    lanes(unsafe { op(op(v[0], v[1]), op(v[2], v[3])) })
}

/// Bit masks of a chunk, one bit per term: `b`, the low bit of the term's base, and `t`, the
/// term is a tie; with `sum r` and the number of ties with `d = -1/2`.
struct Masks {
    b: [u64; WORDS],
    t: [u64; WORDS],
    rsum: f64,
    down: u64,
    /// Some term leaves the path (as [`Scan::off`]).
    off: bool,
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

/// The masks of `chunk` by the fastest compiled path this CPU has; `checks.down_flip` off and
/// `checks.down_count` off are the kill matrix's mutants (the base's low bit not flipped at
/// `d = -1/2` ties; every tie counted as one with `d = -1/2`).
fn masks<T: FastTerm>(chunk: &[T], scale: f64, checks: Checks) -> Masks {
    match (checks.down_flip, checks.down_count) {
        (true, true) => masks_flip::<T, true, true>(chunk, scale),
        (false, true) => masks_flip::<T, false, true>(chunk, scale),
        (true, false) => masks_flip::<T, true, false>(chunk, scale),
        (false, false) => masks_flip::<T, false, false>(chunk, scale),
    }
}

/// [`masks`] with the flip of the base's low bit at `d = -1/2` ties on (`FLIP`) or off, and
/// the `d = -1/2` ties counted (`DOWN`) or, the mutant, every tie counted instead.
fn masks_flip<T: FastTerm, const FLIP: bool, const DOWN: bool>(chunk: &[T], scale: f64) -> Masks {
    #[cfg(target_arch = "x86_64")]
    {
        if super::has_avx512() {
            // SAFETY: the CPU has AVX-512F, AVX2 and FMA (checked just above by has_avx512).
            return unsafe { masks_avx512::<T, FLIP, DOWN>(chunk, scale) };
        }
        if super::has_avx2() {
            // SAFETY: the CPU has AVX2, FMA and POPCNT (checked just above by has_avx2).
            return unsafe { masks_avx2::<T, FLIP, DOWN>(chunk, scale) };
        }
    }
    masks_portable::<T, FLIP, DOWN>(chunk, scale, 0, empty_masks())
}

/// [`tie_corrections`] by the word's whole prefix XOR and PEXT, where the CPU extracts bits
/// fast (`super::has_fast_pext`). With `P` the XOR of the bases from the chunk's start through
/// each term, a later tie's correction (the XOR of the bases since the tie before it, through
/// itself) is `P` at it XOR `P` at the tie before it, and the first tie's is `P` at it. So
/// the sum of the later ties' corrections is the number of changes in the sequence of `P` at
/// the ties, in order: PEXT gathers a word's `P` at its ties into the low bits of one word,
/// where a change is that word XOR itself shifted up by one (the previous word's last tie in
/// bit 0). The prefix XOR of a word is six doubling steps without the segment masks of
/// [`segmented_xor`]; the earlier words' parity complements it.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2,popcnt")]
unsafe fn tie_corrections_pext(
    b: &[u64; WORDS],
    t: &[u64; WORDS],
    len: usize,
    carry: bool,
) -> (Option<u64>, u64) {
    use std::arch::x86_64::_pext_u64;
    let mut parity = 0u64; // the XOR of every base in the earlier words
    let mut last: Option<u64> = None; // P at the last tie of the earlier words
    let mut first = None;
    let mut changes = 0u64;
    for w in 0..len.div_ceil(64) {
        let mut p = b[w];
        p ^= p << 1;
        p ^= p << 2;
        p ^= p << 4;
        p ^= p << 8;
        p ^= p << 16;
        p ^= p << 32;
        if parity == 1 {
            p = !p;
        }
        let ties = t[w];
        if ties != 0 {
            let count = ties.count_ones();
            let q = _pext_u64(p, ties);
            // `carry` off is the `pext_carry` mutant: each word starts from its own first tie.
            let before = match last {
                Some(v) if carry => v,
                Some(_) => q & 1,
                None => {
                    first = Some(q & 1);
                    q & 1
                }
            };
            let ends = if count == 64 { !0 } else { (1u64 << count) - 1 };
            changes += u64::from(((q ^ ((q << 1) | before)) & ends).count_ones());
            last = Some((q >> (count - 1)) & 1);
        }
        parity = p >> 63;
    }
    (first, changes)
}

/// [`tie_corrections`] compiled with the POPCNT instruction.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
unsafe fn tie_corrections_popcnt(
    b: &[u64; WORDS],
    t: &[u64; WORDS],
    len: usize,
) -> (Option<u64>, u64) {
    tie_corrections(b, t, len)
}

fn empty_masks() -> Masks {
    Masks {
        b: [0; WORDS],
        t: [0; WORDS],
        rsum: 0.0,
        down: 0,
        off: false,
    }
}

/// The masks of `chunk`, whose first term is term `from` of the chunk, into `m`.
fn masks_portable<T: FastTerm, const FLIP: bool, const DOWN: bool>(
    chunk: &[T],
    scale: f64,
    from: usize,
    mut m: Masks,
) -> Masks {
    let mut acc = [0.0f64; 4];
    for (k, x) in chunk.iter().enumerate() {
        let i = from + k;
        let (r, low, down, tie) = term_bits(x.widen(), scale);
        acc[k % 4] += r;
        m.b[i / 64] |= (low ^ (down & u64::from(FLIP))) << (i % 64);
        m.t[i / 64] |= tie << (i % 64);
        m.down += if DOWN { down } else { tie };
        let (x, y) = (x.widen(), x.widen() * scale);
        m.off |= x < 0.0 || y >= Y_LIMIT || y.is_nan();
    }
    m.rsum += (acc[0] + acc[1]) + (acc[2] + acc[3]);
    m.off |= m.rsum.is_nan();
    m
}

/// [`masks_portable`] four terms at a time, as the scan forms them: `t = fma(x, scale, MAGIC)`,
/// `r = t - MAGIC` and `d = fma(x, scale, -r)` (`y` is not formed, step 2 and 3 of the module
/// doc); the sum of `r` in two accumulators (the pass is bound by its instruction count, not
/// by the adds' latency; two leave registers for the rest). A term's bits come from two
/// `movemask`s: the base's low bit and the tie compare `|d| = 1/2`. The base's low bit is
/// `t`'s low bit XOR the `d = -1/2` tie (step 4); both are sign bits, `t`'s low bit shifted
/// up and `d`'s sign under the tie compare (`d = +1/2` has its sign clear), so one vector XOR
/// and one `movemask` give it. At a tie `r` is even (ties to even), so `t`'s low bit is 0
/// there and the base bit is the `d = -1/2` flag alone: the `d = -1/2` ties are the base bits
/// under the tie bits, counted by one POPCNT a word. (Off the path a term past the rounding
/// can tie with `t`'s low bit set, and the count is then wrong; the chunk's `sum r` is
/// refused by the bound, so the count is never used.) The mutant without the flip
/// (`FLIP` false) takes the `d = -1/2` ties from a third `movemask`. The terms go sixteen to a
/// group, four vectors whose accumulator and mask position are fixed, so the compiler keeps
/// every accumulator in a register (a loop of sixteen vectors with the accumulator picked by
/// `q % 4` kept them on the stack); the minima of the terms in two accumulators too. No
/// per-term bound on `y`: the caller bounds `sum r` by [`SCAN_LIMIT`], which stands for it
/// exactly as in the scan (terms with `y >= 2^51 - 1/2` make `r >= 2^51`, whatever their mask
/// bits).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma,popcnt")]
unsafe fn masks_avx2<T: FastTerm, const FLIP: bool, const DOWN: bool>(
    chunk: &[T],
    scale: f64,
) -> Masks {
    use std::arch::x86_64::*;
    let vs = _mm256_set1_pd(scale);
    let magic = _mm256_set1_pd(MAGIC);
    let half = _mm256_set1_pd(0.5);
    let abs = _mm256_castsi256_pd(_mm256_set1_epi64x(0x7fff_ffff_ffff_ffff));
    let zero = _mm256_setzero_pd();
    let mut m = empty_masks();
    let (mut acc, mut xmin) = ([zero; 2], [zero; 2]);
    let mut down = 0u64;
    // Whole words of 64 terms: the masks are built in registers and stored once a word.
    let mut words = chunk.chunks_exact(64);
    for (w, c) in (&mut words).enumerate() {
        prefetch_ahead(c.as_ptr(), 64);
        let (mut bw, mut tw, mut dw) = (0u64, 0u64, 0u64);
        for g in 0..4 {
            let (mut b16, mut t16, mut d16) = (0u64, 0u64, 0u64);
            for k in 0..4 {
                // SAFETY: c holds 64 terms; terms 16g + 4k .. 16g + 4k + 4 are inside it.
                let x = unsafe { T::load4(c.as_ptr().add(16 * g + 4 * k)) };
                let t = _mm256_fmadd_pd(x, vs, magic);
                let r = _mm256_sub_pd(t, magic);
                let d = _mm256_fmsub_pd(x, vs, r);
                let tie = _mm256_cmp_pd::<_CMP_EQ_OQ>(_mm256_and_pd(d, abs), half);
                acc[k % 2] = _mm256_add_pd(acc[k % 2], r);
                xmin[k % 2] = _mm256_min_pd(xmin[k % 2], x);
                // Sign bits: t's low bit, and the d = -1/2 tie (d's sign under the tie).
                let low = _mm256_castsi256_pd(_mm256_slli_epi64::<63>(_mm256_castpd_si256(t)));
                let down4 = _mm256_and_pd(tie, d);
                let b = if FLIP { _mm256_xor_pd(low, down4) } else { low };
                b16 |= (_mm256_movemask_pd(b) as u64) << (4 * k);
                t16 |= (_mm256_movemask_pd(tie) as u64) << (4 * k);
                if !FLIP {
                    d16 |= (_mm256_movemask_pd(down4) as u64) << (4 * k);
                }
            }
            bw |= b16 << (16 * g);
            tw |= t16 << (16 * g);
            dw |= d16 << (16 * g);
        }
        m.b[w] = bw;
        m.t[w] = tw;
        // With the flip, the d = -1/2 ties are the base bits under the tie bits: t's low bit
        // is 0 at a tie (r even), so there the base bit is the d = -1/2 flag alone.
        // (The `down_count` mutant counts every tie: the tie bits without the base bits.)
        let counted = if !DOWN {
            tw
        } else if FLIP {
            bw & tw
        } else {
            dw
        };
        down += u64::from(counted.count_ones());
    }
    let a = lanes(_mm256_add_pd(acc[0], acc[1]));
    // Integers below 2^53 in any order: exact (the counts are at most MAX_CHUNK).
    m.rsum = (a[0] + a[1]) + (a[2] + a[3]);
    m.down = down;
    // NaN terms make rsum NaN, caught here (min may drop a NaN).
    m.off = lanes(_mm256_min_pd(xmin[0], xmin[1]))
        .iter()
        .any(|&v| v < 0.0)
        || m.rsum.is_nan();
    let done = chunk.len() - words.remainder().len();
    masks_portable::<T, FLIP, DOWN>(words.remainder(), scale, done, m)
}

/// [`masks_avx2`] eight terms at a time with AVX-512F: the same `t`, `r` and `d` (fused
/// multiply-adds, `y` not formed), but each compare yields its eight bits in a mask register
/// at once, so a term's three bits (the base's low bit, the tie, the `d = -1/2` tie) cost no
/// vector shuffles: the base's low bit is `t`'s low bit (a mask test) XOR the `d = -1/2`
/// compare, and the `d = -1/2` ties are counted by a masked add of one into a vector of eight
/// counts (at most `MAX_CHUNK` in all, so exact). The sums of `r` and the minima of the terms
/// in four accumulators each (one minimum accumulator made a chain of eight 4-cycle minima a
/// word); no per-term bound on `y` (the caller bounds `sum r` by [`SCAN_LIMIT`], as for the
/// other paths). Byte `q` of a word's masks is step `q`'s eight bits, so bit `j` of it is
/// term `8q + j` of the word, as the portable pass sets it; the bytes are stored as bytes
/// (shifts and ORs of them were compiled into a vector insert and a horizontal OR a word).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx2,fma")]
unsafe fn masks_avx512<T: FastTerm, const FLIP: bool, const DOWN: bool>(
    chunk: &[T],
    scale: f64,
) -> Masks {
    use std::arch::x86_64::*;
    let vs = _mm512_set1_pd(scale);
    let magic = _mm512_set1_pd(MAGIC);
    let half = _mm512_set1_pd(0.5);
    let minus_half = _mm512_set1_pd(-0.5);
    // Each lane's integer 1: the mask of `t`'s low bit, and the count added per `d = -1/2` tie.
    let one = _mm512_set1_epi64(1);
    let zero = _mm512_setzero_pd();
    let mut m = empty_masks();
    let (mut acc, mut xmin) = ([zero; 4], [zero; 4]);
    let mut downs = _mm512_setzero_si512();
    let mut words = chunk.chunks_exact(64);
    for (w, c) in (&mut words).enumerate() {
        prefetch_ahead(c.as_ptr(), 64);
        let (mut bw, mut tw) = ([0u8; 8], [0u8; 8]);
        for q in 0..8 {
            // SAFETY: c holds 64 terms; terms 8q..8q+8 are inside it.
            let x = unsafe { T::load8(c.as_ptr().add(8 * q)) };
            let t = _mm512_fmadd_pd(x, vs, magic);
            let r = _mm512_sub_pd(t, magic);
            let d = _mm512_fmsub_pd(x, vs, r);
            let down8 = _mm512_cmp_pd_mask::<_CMP_EQ_OQ>(d, minus_half);
            let tie8 = _mm512_cmp_pd_mask::<_CMP_EQ_OQ>(_mm512_abs_pd(d), half);
            let low8 = _mm512_test_epi64_mask(_mm512_castpd_si512(t), one);
            acc[q % 4] = _mm512_add_pd(acc[q % 4], r);
            xmin[q % 4] = _mm512_min_pd(xmin[q % 4], x);
            bw[q] = if FLIP { low8 ^ down8 } else { low8 };
            tw[q] = tie8;
            let counted = if DOWN { down8 } else { tie8 };
            downs = _mm512_mask_add_epi64(downs, counted, downs, one);
        }
        m.b[w] = u64::from_le_bytes(bw);
        m.t[w] = u64::from_le_bytes(tw);
    }
    // Integers below 2^53 in any order: exact (the counts are at most MAX_CHUNK).
    let a = _mm512_add_pd(_mm512_add_pd(acc[0], acc[1]), _mm512_add_pd(acc[2], acc[3]));
    m.rsum = _mm512_reduce_add_pd(a);
    m.down = _mm512_reduce_add_epi64(downs) as u64;
    // NaN terms make rsum NaN, caught here (min may drop a NaN).
    let x = _mm512_min_pd(
        _mm512_min_pd(xmin[0], xmin[1]),
        _mm512_min_pd(xmin[2], xmin[3]),
    );
    m.off = _mm512_reduce_min_pd(x) < 0.0 || m.rsum.is_nan();
    let done = chunk.len() - words.remainder().len();
    masks_portable::<T, FLIP, DOWN>(words.remainder(), scale, done, m)
}

/// The ties' corrections of the masks' first `len` terms (step 4 of the module doc): the first
/// tie's parity (or [`NO_TIE`]) and the sum of the later ties' corrections, by PEXT where the
/// CPU's is fast, else with POPCNT where the CPU has it; under the `first_tie` and
/// `later_ties` mutants, the first as if the start were even and the later ones dropped.
fn corrections(m: &Masks, len: usize, checks: Checks) -> (u8, u64) {
    #[cfg(target_arch = "x86_64")]
    let (first, later) = if super::has_fast_pext() {
        // SAFETY: has_fast_pext checks BMI2 and POPCNT.
        unsafe { tie_corrections_pext(&m.b, &m.t, len, checks.pext_carry) }
    } else if super::has_avx2() {
        // SAFETY: has_avx2 also checks POPCNT.
        unsafe { tie_corrections_popcnt(&m.b, &m.t, len) }
    } else {
        tie_corrections(&m.b, &m.t, len)
    };
    #[cfg(not(target_arch = "x86_64"))]
    let (first, later) = tie_corrections(&m.b, &m.t, len);
    let later = if checks.later_ties { later } else { 0 };
    let first = match first {
        Some(f) if checks.first_tie => f as u8,
        Some(_) => 0, // the mutant: the first tie corrected as if the start were even
        None => NO_TIE,
    };
    (first, later)
}

/// The unit of a chunk with ties from its masks (step 4 of the module doc), or `None` where
/// its increment reaches `2^53`. The caller has checked that no term leaves the path.
fn unit_from_masks(m: &Masks, len: usize, checks: Checks) -> Option<FastUnit> {
    // Sum of the bases: `r` less one for every tie whose `r` is `k + 1`.
    let base = m.rsum - m.down as f64;
    let (first, later) = corrections(m, len, checks);
    let inc = base + later as f64;
    (inc < INC_LIMIT).then_some(FastUnit {
        inc: inc as u64,
        first,
    })
}

/// The tie part of a signed chunk's unit ([`super::signed`]): `inc`, the sum of the bases plus
/// the later ties' corrections, `first` (the parity the first tie's correction is XORed with,
/// or [`NO_TIE`]) and `ties`, the number of ties.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct TieParts {
    /// The sum of the bases plus the later ties' corrections (an integer below `2^53`).
    pub inc: f64,
    /// The first tie's parity, or [`NO_TIE`].
    pub first: u8,
    /// The number of ties.
    pub ties: u64,
}

/// [`TieParts`] of `chunk` at `scale`, for its terms as they are or, where `negated`, for their
/// negations (the loop from a negative start is the negation of the loop from its magnitude
/// over the negated terms), given `rsum`, the sum of the `r` of those terms (the signed scan's,
/// exact wherever the signed unit can apply: this pass's own sum runs over whole-chunk lanes,
/// whose partial sums a chunk of large cancelling terms can carry past `2^53`). Steps 4 and 5
/// of the module doc hold for terms of either sign: a tie `y = k + 1/2` adds `k` or `k + 1`,
/// whichever makes the running significand even, so its correction is the parity of the
/// significand before it plus `k`'s, and after it the parity is 0. Negating a term negates `r`
/// (ties to even is symmetric) and turns a tie's `k` into `-k - 1`, of the other parity: the
/// base bits flip exactly where a term ties and the `d = -1/2` ties become the others.
pub(super) fn signed_tie_parts<T: FastTerm>(
    chunk: &[T],
    scale: f64,
    negated: bool,
    rsum: f64,
    checks: Checks,
) -> TieParts {
    debug_assert!(chunk.len() <= MAX_CHUNK);
    let mut m = masks(chunk, scale, checks);
    let ties: u64 = m.t.iter().map(|w| u64::from(w.count_ones())).sum();
    let mut down = m.down;
    if negated {
        for (b, t) in m.b.iter_mut().zip(&m.t) {
            *b ^= *t;
        }
        down = ties - down;
    }
    let (first, later) = corrections(&m, chunk.len(), checks);
    TieParts {
        inc: (rsum - down as f64) + later as f64,
        first,
        ties,
    }
}

/// The segmented prefix XOR of one word: bit `i` of the result is the XOR of the bits of `b`
/// from the last segment start at or before `i` through `i`, where a segment starts at bit 0
/// and after every set bit of `t`; and whether a segment starts in `0..=i` after bit 0 (so
/// the carry from earlier words does not reach `i`).
///
/// Hillis-Steele doubling: after the step of distance `k`, `x[i]` covers the window
/// `(i - 2k, i]` cut at the segment start, and `h[i]` says whether a start lies in that window.
fn segmented_xor(b: u64, t: u64, tie_before: bool) -> (u64, u64) {
    let mut x = b;
    // h[i]: a segment starts at i (after a tie at i - 1, or at 0 after a tie ending the
    // previous word).
    let mut h = (t << 1) | u64::from(tie_before);
    let mut k = 1;
    while k < 64 {
        x ^= (x << k) & !h;
        h |= h << k;
        k <<= 1;
    }
    (x, h)
}

/// The parity `first` of the first tie (the XOR of `b` from the start through it) and the sum
/// of the later ties' corrections (each the XOR of `b` since the tie before it, through
/// itself), over the first `len` bits of the masks.
#[inline(always)]
fn tie_corrections(b: &[u64; WORDS], t: &[u64; WORDS], len: usize) -> (Option<u64>, u64) {
    let mut carry = 0u64; // XOR of b since the last tie, over the earlier words
    let mut tie_before = false;
    let mut first = None;
    let mut total = 0u64;
    for w in 0..len.div_ceil(64) {
        let (x, h) = segmented_xor(b[w], t[w], tie_before);
        // Bits before the word's first segment start continue the previous word's segment.
        let x = x ^ (if carry == 1 { !h } else { 0 });
        let ties = t[w];
        if ties != 0 {
            if first.is_none() {
                first = Some((x >> ties.trailing_zeros()) & 1);
            }
            total += u64::from((x & ties).count_ones());
        }
        tie_before = ties >> 63 == 1;
        carry = if tie_before { 0 } else { x >> 63 };
    }
    (first, total - first.unwrap_or(0))
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
    fn terms_too_large_for_the_rounding_are_refused_by_the_sum_bound() {
        // scale 1: y = x. Below 2^51 the rounding is right and the chunk applies; from
        // 2^51 - 1/2 on (where t reaches 2^53) the sum of r reaches 2^51 and the scan refuses
        // the chunk, as it does an infinite term; a NaN term sets `off`.
        let cases = [
            (Y_LIMIT - 1.0, Some(Y_LIMIT as u64 - 1)),
            (Y_LIMIT - 0.25, None),
            (Y_LIMIT, None),
            (Y_LIMIT + 1.0, None),
            (3.0 * Y_LIMIT, None),
            (f64::INFINITY, None),
            (f64::NAN, None),
        ];
        for (y, want) in cases {
            let mut chunk = vec![0.25f64; 100];
            chunk[37] = y;
            let p = scan_portable(&chunk, 1.0);
            for (path, v) in scan_paths(&chunk, 1.0) {
                assert!(
                    v.rsum.to_bits() == p.rsum.to_bits() && (v.tie, v.off) == (p.tie, p.off),
                    "y = {y}: the {path} scan {v:?} against {p:?}"
                );
            }
            let got = chunk_unit(&chunk, 1.0, Checks::ALL).map(|u| u.increment(0));
            assert_eq!(got, want, "y = {y}");
            // The bit-mask pass first (after a chunk with a tie): the same bound on its own
            // sum of r, no per-term bound.
            let hinted = |checks| chunk_unit_hinted(&chunk, 1.0, checks, true).0;
            assert_eq!(
                hinted(Checks::ALL).map(|u| u.increment(0)),
                want,
                "y = {y}, masks first"
            );
            // Without the scan's bound (the kill matrix's mutant) the odd term past the
            // rounding applies with the wrong increment, in both passes: the bound is what
            // refuses it.
            let no_bound = Checks {
                scan_bound: false,
                ..Checks::ALL
            };
            if y == Y_LIMIT + 1.0 {
                let wrong = chunk_unit(&chunk, 1.0, no_bound).map(|u| u.increment(0));
                assert_eq!(wrong, Some(Y_LIMIT as u64), "y = {y}, no scan bound");
                let wrong = hinted(no_bound).map(|u| u.increment(0));
                assert_eq!(
                    wrong,
                    Some(Y_LIMIT as u64),
                    "y = {y}, no bound, masks first"
                );
            }
        }
    }

    /// The masks of `chunk` by every compiled path this CPU runs (the dispatched one first),
    /// named. With `BINADE_REQUIRE_AVX512=1` a CPU without AVX-512F fails the test instead of
    /// leaving that path unchecked.
    fn masks_paths(chunk: &[f64], scale: f64) -> Vec<(&'static str, Masks)> {
        let mut out = vec![("dispatched", masks(chunk, scale, Checks::ALL))];
        #[cfg(target_arch = "x86_64")]
        {
            if super::super::has_avx2() {
                // SAFETY: the CPU has AVX2, FMA and POPCNT.
                out.push(("AVX2", unsafe {
                    masks_avx2::<f64, true, true>(chunk, scale)
                }));
            }
            if super::super::has_avx512() {
                // SAFETY: the CPU has AVX-512F, AVX2 and FMA.
                out.push(("AVX-512", unsafe {
                    masks_avx512::<f64, true, true>(chunk, scale)
                }));
            }
        }
        if std::env::var_os("BINADE_REQUIRE_AVX512").is_some_and(|v| v == "1") {
            assert!(
                out.iter().any(|(p, _)| *p == "AVX-512"),
                "BINADE_REQUIRE_AVX512=1 but this CPU has no AVX-512F"
            );
        }
        out
    }

    /// The scan of `chunk` by every compiled path this CPU runs (the dispatched one first),
    /// named. With `BINADE_REQUIRE_AVX512=1` a CPU without AVX-512F fails the test instead of
    /// leaving that path unchecked.
    fn scan_paths<T: FastTerm>(chunk: &[T], scale: f64) -> Vec<(&'static str, Scan)> {
        let mut out = vec![("dispatched", scan(chunk, scale))];
        #[cfg(target_arch = "x86_64")]
        {
            if super::super::has_avx2() {
                // SAFETY: the CPU has AVX2 and FMA.
                out.push(("AVX2", unsafe { scan_avx2(chunk, scale) }));
            }
            if super::super::has_avx512() {
                // SAFETY: the CPU has AVX-512F, AVX2 and FMA.
                out.push(("AVX-512", unsafe { scan_avx512(chunk, scale) }));
            }
        }
        if std::env::var_os("BINADE_REQUIRE_AVX512").is_some_and(|v| v == "1") {
            assert!(
                out.iter().any(|(p, _)| *p == "AVX-512"),
                "BINADE_REQUIRE_AVX512=1 but this CPU has no AVX-512F"
            );
        }
        out
    }

    /// Whether a scan leaves the path (raises `off` or its `sum r` is refused by the bound),
    /// and where it stays, its sum's bits and its tie flag: what every path must agree on.
    fn scan_verdict(s: &Scan) -> (bool, Option<(u64, bool)>) {
        let leaves = s.off || !scan_below_limit(s.rsum);
        (leaves, (!leaves).then_some((s.rsum.to_bits(), s.tie)))
    }

    /// Every compiled scan agrees with the portable one, by bits, on chunks of every length up
    /// to 200 (so every remainder of the vector steps) of f64 and f32 terms with ties, zeros
    /// and one odd term (negative, -0.0, NaN, infinite, past the rounding) at the first,
    /// middle or last position. Seeded; a failure names the seed and the case.
    #[test]
    fn scan_paths_agree_with_the_portable_scan() {
        use rand::{Rng, SeedableRng};
        let seed = 0x5ca7u64;
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
        let scale = 2f64.powi(52);
        let odd = [-f64::EPSILON, -0.0, f64::NAN, f64::INFINITY, 2f64.powi(2)];
        for n in 1..200usize {
            for case in 0..8 {
                let chunk: Vec<f64> = (0..n)
                    .map(|_| {
                        let k = rng.random_range(0..8u32) as f64;
                        match rng.random_range(0..3) {
                            0 => (k + 0.5) * f64::EPSILON,
                            1 => k * f64::EPSILON,
                            _ => rng.random::<f64>() * 4.0 * f64::EPSILON,
                        }
                    })
                    .collect();
                let mut chunk = chunk;
                if case >= 3 {
                    let at = [0, n / 2, n - 1][case % 3];
                    chunk[at] = odd[rng.random_range(0..odd.len())];
                }
                let want = scan_verdict(&scan_portable(&chunk, scale));
                for (path, v) in scan_paths(&chunk, scale) {
                    assert_eq!(
                        scan_verdict(&v),
                        want,
                        "seed {seed:#x} n {n} case {case}: the {path} scan of {chunk:?}"
                    );
                }
                // The same terms as f32 (a scale that puts them near an ulp of 1.0 in f32).
                let narrow: Vec<f32> = chunk.iter().map(|&x| (x * 2f64.powi(29)) as f32).collect();
                let want = scan_verdict(&scan_portable(&narrow, 2f64.powi(23)));
                for (path, v) in scan_paths(&narrow, 2f64.powi(23)) {
                    assert_eq!(
                        scan_verdict(&v),
                        want,
                        "seed {seed:#x} n {n} case {case}: the {path} scan of f32 {narrow:?}"
                    );
                }
            }
        }
    }

    /// Chunks with one odd term (a negative term, a NaN, an infinity, a term past the
    /// rounding, which leave the path, and -0.0, which does not) at the first, middle and last
    /// position of every length up to 130: every path leaves (raises `off`, or makes `sum r`
    /// refused by the bound) where the portable pass does, with its bits, and its sums where
    /// it stays.
    #[test]
    fn masks_paths_agree_off_the_path() {
        let scale = 2f64.powi(52);
        let odd = [-f64::EPSILON, -0.0, f64::NAN, f64::INFINITY, 2f64.powi(2)];
        for n in 1..130usize {
            for at in [0, n / 2, n - 1] {
                for (o, &bad) in odd.iter().enumerate() {
                    let mut chunk = vec![0.5 * f64::EPSILON; n];
                    chunk[at] = bad;
                    let p = masks_portable::<f64, true, true>(&chunk, scale, 0, empty_masks());
                    for (path, v) in masks_paths(&chunk, scale) {
                        let case = format!("n {n}, term {at} = odd[{o}] ({bad}): the {path} pass");
                        // The vector passes leave terms past the rounding (an infinity
                        // among them) to the bound on `sum r`, where the portable pass also
                        // raises `off`: what must agree is whether the chunk leaves.
                        let leaves = |m: &Masks| m.off || !scan_below_limit(m.rsum);
                        assert_eq!(leaves(&v), leaves(&p), "{case}");
                        assert_eq!((v.b, v.t), (p.b, p.t), "{case}");
                        if !leaves(&p) {
                            assert_eq!((v.rsum, v.down), (p.rsum, p.down), "{case}");
                        }
                    }
                }
            }
        }
    }

    /// The PEXT form of the tie corrections gives the portable form's first parity and sum on
    /// random masks of every length up to `MAX_CHUNK` (dense and sparse ties, ties in the last
    /// bit of a word, no ties at all). Seeded; a failure names the seed and the case. On a CPU
    /// without BMI2 or POPCNT the form cannot run; there the test checks instead that the
    /// engine never dispatches to it.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn tie_corrections_by_pext_equal_the_portable_ones() {
        use rand::{Rng, SeedableRng};
        if !(std::arch::is_x86_feature_detected!("bmi2")
            && std::arch::is_x86_feature_detected!("popcnt"))
        {
            assert!(
                !super::super::has_fast_pext(),
                "no BMI2 or POPCNT, yet the engine would take the PEXT form"
            );
            eprintln!("the PEXT form was not run: this CPU has no BMI2 or no POPCNT");
            return;
        }
        let seed = 0x9e47u64;
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
        for case in 0..3000 {
            let len = rng.random_range(1..=MAX_CHUNK);
            let density = [0.0, 0.01, 0.5, 0.95, 1.0][case % 5];
            let (mut b, mut t) = ([0u64; WORDS], [0u64; WORDS]);
            for i in 0..len {
                b[i / 64] |= u64::from(rng.random_bool(0.5)) << (i % 64);
                t[i / 64] |= u64::from(rng.random_bool(density)) << (i % 64);
            }
            let want = tie_corrections(&b, &t, len);
            // SAFETY: the CPU has BMI2 and POPCNT (checked above).
            let got = unsafe { tie_corrections_pext(&b, &t, len, true) };
            assert_eq!(
                got, want,
                "seed {seed:#x} case {case}: len {len}, density {density}"
            );
        }
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
            // Every vector path this CPU has builds the portable pass's masks.
            let p = masks_portable::<f64, true, true>(&chunk, scale, 0, empty_masks());
            for (path, v) in masks_paths(&chunk, scale) {
                assert_eq!(
                    (v.b, v.t, v.rsum, v.down, v.off),
                    (p.b, p.t, p.rsum, p.down, p.off),
                    "seed {seed:#x} case {case}: the {path} pass"
                );
            }
            assert_eq!(
                scan(&chunk, scale),
                scan_portable(&chunk, scale),
                "seed {seed:#x} case {case}"
            );
            let got = chunk_unit(&chunk, scale, Checks::ALL).expect("in range");
            let hinted = chunk_unit_hinted(&chunk, scale, Checks::ALL, true).0;
            assert_eq!(
                hinted,
                Some(got),
                "seed {seed:#x} case {case}: the hinted pass"
            );
            let want = algebra_unit(&chunk);
            assert_eq!(
                (got.increment(0), got.increment(1)),
                want,
                "seed {seed:#x} case {case}: {chunk:?}"
            );
        }
    }
}
