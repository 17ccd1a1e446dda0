//! Chunks with negative terms: their unit from the running offsets' bounds (the argument of
//! `crate::signed_unit`, specialised to one chunk and a known start), ties included.
//!
//! With the start `m * u` known (one thread, or a walk's exact sum), the magic-constant
//! rounding of `scan` gives each term's `r = rint(x / u)` for either sign while `|y| < 2^51`.
//! Where no term ties, `r` does not depend on the parity of the running significand, so while
//! every partial sum stays in the binade each term adds exactly `r`. The chunk is read in
//! sub-blocks of [`SUB`] terms: a running offset (the sum of the `r` of a prefix) inside
//! sub-block `j` lies between `S_j + neg_j` and `S_j + pos_j`, with `S_j` the sum of the
//! sub-blocks before it and `pos_j`, `neg_j` the sums of its positive and of its negative `r`;
//! `lo` and `hi` are the lowest and highest of those bounds. So where `m + lo >= 2^P + 1` and
//! `m + hi <= 2^(P+1) - 1` every modelled partial sum is at least one quantum inside the
//! binade, every exact partial sum within half a quantum of it, and by induction over the
//! terms each add is the modelled one: the chunk's end is `m + sum r`. Every sum formed is of
//! integers whose partial sums are at most `sum |r|`, checked below `2^53`, so all are exact
//! in f64 (a NaN or infinite term makes them NaN or infinite, and is refused).
//!
//! A tie `y = k + 1/2` (of either sign) adds `k` or `k + 1`, whichever leaves the running
//! significand even, as on the non-negative path (`scan`'s steps 4 and 5, which never use the
//! sign): the increment is `inc + (p XOR first)` from a start of parity `p`, formed by `scan`'s
//! bit-mask pass. Each tie's add differs from its `r` by at most one, so a running offset is
//! within `T` (the chunk's number of ties) of the offset of the `r`: the bounds become
//! `lo - T` and `hi + T`, and the induction above holds with the ties' adds as the model (a
//! tie's exact sum lies half a quantum from the two neighbours, both inside the bounds).
//!
//! A negative start by symmetry: rounding to nearest, ties to even, commutes with negation,
//! so the loop from `-|s|` over the terms is the negation of the loop from `|s|` over the
//! negated terms. Those have the negated `r`: the sum `-sum r`, the positive part `-neg`, the
//! negative part `-pos`, the same ties (each tie's `k` becomes `-k - 1`, of the other parity).
//! One scan serves both signs.

#[cfg(target_arch = "x86_64")]
use super::scan::lanes;
use super::scan::{self, MAGIC, NO_TIE, SCAN_LIMIT, Y_LIMIT};
use super::term::{prefetch_ahead, FastTerm};
use super::Checks;
use crate::format::{Format, Layout};

/// What the signed scan of a chunk found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct SignedScan {
    /// `sum r`.
    pub rsum: f64,
    /// A lower bound of every running offset (see [`SUB`]).
    pub lo: f64,
    /// An upper bound of every running offset.
    pub hi: f64,
    /// `sum |r|`: every partial sum of the `r` is an integer at most this large.
    pub abs: f64,
    /// Some term ties.
    pub tie: bool,
    /// Some `|y|` is at or above `2^51` (off the rounding path), as far as the scan looked: the
    /// portable scan looks at every term, the AVX2 scan only at the few past its sub-blocks'
    /// whole vectors; [`signed_unit`] looks at the rest where it must.
    pub big: bool,
}

/// Terms per sub-block of the bounds: a running offset inside sub-block `j` lies between
/// `S_j + neg_j` and `S_j + pos_j`, `S_j` the sum of the sub-blocks before it and `pos_j`,
/// `neg_j` the sums of its positive and negative `r`. Much tighter than the whole chunk's
/// `pos` and `neg` where the terms' signs balance (a zero-mean stream moves by about the
/// square root of a chunk, its `pos` by half a chunk).
pub(super) const SUB: usize = 64;

/// One sub-block's sums: `(sum r, sum of the positive r, sum of the negative r, tie, big)`.
type Sub = (f64, f64, f64, bool, bool);

/// The chunk's scan built from its sub-blocks' sums, pushed in order.
struct SubFold(SignedScan);

impl SubFold {
    fn new() -> SubFold {
        SubFold(SignedScan {
            rsum: 0.0,
            lo: 0.0,
            hi: 0.0,
            abs: 0.0,
            tie: false,
            big: false,
        })
    }

    /// The next sub-block's sums: its offsets lie between the sum before it plus its negative
    /// part and that sum plus its positive part.
    fn push(&mut self, (sum, pos, neg, tie, big): Sub) {
        let out = &mut self.0;
        out.lo = out.lo.min(out.rsum + neg);
        out.hi = out.hi.max(out.rsum + pos);
        out.rsum += sum;
        out.abs += pos - neg;
        out.tie |= tie;
        out.big |= big;
    }

    fn finish(self) -> SignedScan {
        let mut out = self.0;
        // A NaN term makes its sub-block's sum NaN, which f64::min and max would drop.
        if out.rsum.is_nan() {
            out.lo = f64::NAN;
        }
        out
    }
}

/// Folds the sub-blocks' sums in order into the chunk's scan.
fn fold_subs(subs: impl Iterator<Item = Sub>) -> SignedScan {
    let mut fold = SubFold::new();
    for sub in subs {
        fold.push(sub);
    }
    fold.finish()
}

/// One sub-block's sums, portable. `NEG` false is the `signed_neg_part` mutant: the negative
/// part dropped (taken as zero).
fn sub_portable<T: FastTerm, const NEG: bool>(block: &[T], scale: f64) -> Sub {
    let (mut sum, mut pos, mut neg, mut dmax, mut ymax) = (0.0f64, 0.0f64, 0.0f64, 0.0f64, 0.0f64);
    for x in block {
        let y = x.widen() * scale;
        let r = (y + MAGIC) - MAGIC;
        sum += r;
        pos += r.max(0.0);
        if NEG {
            neg += r.min(0.0);
        }
        dmax = dmax.max((y - r).abs());
        ymax = ymax.max(y.abs());
    }
    (sum, pos, neg, dmax >= 0.5, ymax >= Y_LIMIT)
}

/// The signed scan, portable (`NEG` as in [`sub_portable`]).
pub(super) fn signed_scan_portable<T: FastTerm, const NEG: bool>(
    chunk: &[T],
    scale: f64,
) -> SignedScan {
    fold_subs(chunk.chunks(SUB).map(|b| sub_portable::<T, NEG>(b, scale)))
}

/// One sub-block's sums four lanes at a time, two vectors a step in two sets of accumulators
/// (so that no add waits on the one before it): `t = fma(x, scale, 1.5 * 2^52)` and
/// `d = fma(x, scale, -r)` round the exact `x * scale` once, as in `scan`, so `y` is not
/// formed. No bound on `|y|` per term: [`signed_unit`] bounds the chunk's `sum |r|` instead
/// (its documentation), so `big` is false here.
///
/// It sums `r` and `|r|` (`|r|` by clearing the sign bit) and takes the positive and negative
/// parts as `pos = (S + A) / 2` and `neg = (S - A) / 2`: two operations a vector fewer than a
/// max and a min with their adds. Exact where it matters: the lanes' partial sums of `|r|` only
/// grow, and each rounds to nearest, so a computed `A` below `2^53` means every partial sum was
/// below `2^53`, where integers add exactly; then `S` is exact too (its partial sums are at
/// most `A` in magnitude), `S + A = 2 pos` and `S - A = 2 neg` are even integers below `2^54`,
/// held exactly, and halving is exact. So the sub-block's `(sum, pos, neg)` are the portable
/// pass's wherever the chunk's `sum |r|` is below `2^53`, which [`signed_unit`] requires (it
/// refuses the chunk otherwise: a computed `A` at or above `2^53` makes the fold's `abs` at
/// least that, a NaN term makes `S` NaN and an infinite one makes `A` infinite).
///
/// `NEG` false is the `signed_neg_part` mutant: `|r|` summed without clearing its sign, so
/// `A = S` and the negative part comes out zero.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn sub_avx2<T: FastTerm, const NEG: bool>(block: &[T], scale: f64) -> Sub {
    use std::arch::x86_64::*;
    let vs = _mm256_set1_pd(scale);
    let magic = _mm256_set1_pd(MAGIC);
    let abs = _mm256_castsi256_pd(_mm256_set1_epi64x(0x7fff_ffff_ffff_ffff));
    let mag_mask = if NEG {
        abs
    } else {
        _mm256_castsi256_pd(_mm256_set1_epi64x(-1))
    };
    let zero = _mm256_setzero_pd();
    let (mut acc, mut mag, mut dmax) = ([zero; 2], [zero; 2], [zero; 2]);
    let mut octs = block.chunks_exact(8);
    for c in &mut octs {
        prefetch_ahead(c.as_ptr(), 8);
        for k in 0..2 {
            // SAFETY: c holds 8 terms; terms 4k..4k+4 are inside it.
            let x = unsafe { T::load4(c.as_ptr().add(4 * k)) };
            let r = _mm256_sub_pd(_mm256_fmadd_pd(x, vs, magic), magic);
            acc[k] = _mm256_add_pd(acc[k], r);
            mag[k] = _mm256_add_pd(mag[k], _mm256_and_pd(r, mag_mask));
            // A NaN d is caught by the sum instead (max keeps a NaN only until the next).
            dmax[k] = _mm256_max_pd(dmax[k], _mm256_and_pd(_mm256_fmsub_pd(x, vs, r), abs));
        }
    }
    let (s, p, n, t, b) = sub_portable::<T, NEG>(octs.remainder(), scale);
    // Integers below 2^53 in any order: exact (larger sums are refused by the caller).
    let sum = |v: [__m256d; 2]| {
        let a = lanes(_mm256_add_pd(v[0], v[1]));
        (a[0] + a[1]) + (a[2] + a[3])
    };
    let (vsum, vmag) = (sum(acc), sum(mag));
    let d = lanes(_mm256_max_pd(dmax[0], dmax[1]));
    let dmax = d.iter().fold(0.0f64, |m, &x| m.max(x));
    (
        vsum + s,
        0.5 * (vsum + vmag) + p,
        0.5 * (vsum - vmag) + n,
        dmax >= 0.5 || t,
        b,
    )
}

/// `1.5 * 2^23`: added to and taken from an f32 `y` with `|y| < 2^22` (where the sum lies in
/// `[2^23, 2^24)`, whose quantum is 1), it leaves `rint(y)`, ties to even (the constant is
/// even, so the rounded sum's parity is `rint(y)`'s).
const MAGIC_F32: f32 = 12_582_912.0;

/// The bound on `|r|` below which [`signed_scan_f32_lanes`] keeps a chunk: `2^22`.
const LANE_LIMIT: u32 = 1 << 22;

/// The f32 form of `scale` where [`signed_scan_f32_lanes`] may use it: a normal f32 equal to it (a
/// power of two `2^(23 - e)` between `2^-126` and `2^127`), else `None`.
fn lane_scale(scale: f64) -> Option<f32> {
    let s = scale as f32;
    (s.is_normal() && f64::from(s) == scale).then_some(s)
}

/// The signed scan of a chunk of f32 terms eight lanes at a time, without widening them:
/// `Some` of the scan [`sub_avx2`]'s sub-blocks give, or `None` where a term's `|r|` reaches
/// [`LANE_LIMIT`] (the caller then scans the chunk with [`sub_avx2`]). `scale` is a normal f32
/// power of two.
///
/// Why the sums are the f64 pass's. Let `y = x * scale` (exact as a real). `fma(x, scale, M)`
/// with `M = 1.5 * 2^23` rounds `y + M` once. Where `|y| < 2^22`, `y + M` lies in
/// `(2^23, 2^24)`, where f32's quantum is 1, so it rounds to `M + rint(y)` (ties to even: `M`
/// is even), and taking `M` away is exact (Sterbenz): `r = rint(y)`, the f64 pass's `r` (which
/// is `rint(y)` below `2^51`). Where `|y| >= 2^22`, `y + M >= 2^24` or `y + M <= 2^23`, so
/// `|r| >= 2^22` (rounding is monotone, and both ends are f32s); a NaN or infinite `y` makes
/// `r` NaN or infinite, which `cvtps_epi32` turns into `-2^31`, whose `abs_epi32` is `2^31`
/// taken unsigned. So a chunk whose largest `|r|` (unsigned) is below `2^22` has every
/// `|y| < 2^22` and every `r` the f64 pass's, each an integer below `2^22` in magnitude: eight
/// lanes of at most eight such terms a lane (a 64-term sub-block; the terms past its last
/// whole step of 16 go through the portable pass) and the lanes' pairwise totals stay below
/// `2^28` in 32-bit integers, so each sub-block's `sum r` and `sum |r|` are exact, and its
/// `pos` and `neg` the f64 pass's. The tie flag: `fmsub(x, scale, r)` rounds the exact
/// `y - r` once; `|y - r| <= 1/2`, and `y - r` is an f32 wherever it matters (for
/// `|y| >= 1/2` a multiple of `y`'s quantum, at least `2^-24`, with at most 24 significant
/// bits; for `|y| < 1/2`, `r = 0` and a rounded `y` stays below 1/2), so `|d| >= 1/2` exactly
/// where a term ties, as in the f64 pass. `big` is false, as there, for the lanes' terms.
/// The bound and the tie flag are the chunk's, not a sub-block's, so each is reduced across
/// its lanes once a chunk; a sub-block's two sums once a sub-block.
///
/// `NEG` false is the `signed_neg_part` mutant (`r` summed where `|r|` is), as in
/// [`sub_avx2`]. `bound` false is the `signed_lane_bound` mutant: the chunk is kept whatever
/// its largest `|r|`, so a NaN term's `-2^31` is summed as a number and a term past `2^22`
/// rounds with a quantum of 2 or more.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn signed_scan_f32_lanes<const NEG: bool>(
    chunk: &[f32],
    scale: f32,
    bound: bool,
) -> Option<SignedScan> {
    use std::arch::x86_64::*;
    let vs = _mm256_set1_ps(scale);
    let magic = _mm256_set1_ps(MAGIC_F32);
    let abs = _mm256_castsi256_ps(_mm256_set1_epi32(0x7fff_ffff));
    let zero = _mm256_setzero_si256();
    let mut rmax = zero;
    let mut dmax = [_mm256_setzero_ps(); 2];
    let (mut tail_tie, mut tail_big) = (false, false);
    let mut fold = SubFold::new();
    for block in chunk.chunks(SUB) {
        let (mut acc, mut mag) = (zero, zero);
        let mut steps = block.chunks_exact(16);
        for c in &mut steps {
            prefetch_ahead(c.as_ptr(), 16);
            for (k, dm) in dmax.iter_mut().enumerate() {
                // SAFETY: c holds 16 terms; terms 8k..8k+8 are inside it.
                let x = unsafe { _mm256_loadu_ps(c.as_ptr().add(8 * k)) };
                let r = _mm256_sub_ps(_mm256_fmadd_ps(x, vs, magic), magic);
                *dm = _mm256_max_ps(*dm, _mm256_and_ps(_mm256_fmsub_ps(x, vs, r), abs));
                let ri = _mm256_cvtps_epi32(r);
                let ai = _mm256_abs_epi32(ri);
                acc = _mm256_add_epi32(acc, ri);
                mag = _mm256_add_epi32(mag, if NEG { ai } else { ri });
                rmax = _mm256_max_epu32(rmax, ai);
            }
        }
        // Both sums' eight lanes at once: pairs, then quads, then the two halves.
        let h = _mm256_hadd_epi32(acc, mag);
        let h = _mm256_hadd_epi32(h, h);
        let both = _mm_add_epi32(_mm256_castsi256_si128(h), _mm256_extracti128_si256::<1>(h));
        let vsum = f64::from(_mm_cvtsi128_si32(both));
        let vmag = f64::from(_mm_extract_epi32::<1>(both));
        let (s, p, n, t, b) = sub_portable::<f32, NEG>(steps.remainder(), f64::from(scale));
        tail_tie |= t;
        tail_big |= b;
        fold.push((
            vsum + s,
            0.5 * (vsum + vmag) + p,
            0.5 * (vsum - vmag) + n,
            false,
            false,
        ));
    }
    let mut top = [0u32; 8];
    // SAFETY: top holds eight u32s; an unaligned store.
    unsafe { _mm256_storeu_si256(top.as_mut_ptr().cast(), rmax) };
    if bound && top.iter().any(|&m| m >= LANE_LIMIT) {
        return None;
    }
    let mut d = [0.0f32; 8];
    // SAFETY: d holds eight f32s; an unaligned store.
    unsafe { _mm256_storeu_ps(d.as_mut_ptr(), _mm256_max_ps(dmax[0], dmax[1])) };
    let mut out = fold.finish();
    out.tie = d.iter().any(|&x| x >= 0.5) || tail_tie;
    out.big = tail_big;
    Some(out)
}

/// [`signed_scan_portable`] with AVX2 sub-blocks: f32 terms in f32 lanes
/// ([`signed_scan_f32_lanes`]) where the scale is a normal f32 and the chunk's `|r|` stay
/// below `2^22`, else widened to f64 ([`sub_avx2`]). `lane_bound` false is the `signed_lane_bound`
/// mutant.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn signed_scan_avx2<T: FastTerm, const NEG: bool>(
    chunk: &[T],
    scale: f64,
    lane_bound: bool,
) -> SignedScan {
    if let (Some(narrow), Some(s32)) = (T::as_f32(chunk), lane_scale(scale)) {
        // SAFETY: the caller checked AVX2 and FMA.
        if let Some(sc) = unsafe { signed_scan_f32_lanes::<NEG>(narrow, s32, lane_bound) } {
            return sc;
        }
    }
    // SAFETY: the caller checked AVX2.
    fold_subs(
        chunk
            .chunks(SUB)
            .map(|b| unsafe { sub_avx2::<T, NEG>(b, scale) }),
    )
}

/// The signed scan: AVX2 where the CPU has it (the same sums, in another order of exact
/// integer adds, and the same flags). An AVX-512F form of the sub-blocks was 6% slower in L2
/// on a 2-core Xeon and no faster from memory (`reports/signed-avx512-2core`).
pub(super) fn signed_scan<T: FastTerm>(chunk: &[T], scale: f64, checks: Checks) -> SignedScan {
    #[cfg(target_arch = "x86_64")]
    {
        if super::has_avx2() {
            // SAFETY: the CPU has AVX2 (checked just above).
            return unsafe {
                if checks.signed_neg_part {
                    signed_scan_avx2::<T, true>(chunk, scale, checks.signed_lane_bound)
                } else {
                    signed_scan_avx2::<T, false>(chunk, scale, checks.signed_lane_bound)
                }
            };
        }
    }
    if checks.signed_neg_part {
        signed_scan_portable::<T, true>(chunk, scale)
    } else {
        signed_scan_portable::<T, false>(chunk, scale)
    }
}

/// A chunk's signed unit for one binade and one sign of the start: its increment and the
/// bounds `lo`, `hi` of its running offsets, mirrored for a negative start (so that for either
/// sign they are offsets of the magnitude's significand). `inc`, `lo` and `hi` are integers of
/// magnitude below `2^53`, held exactly in f64s. The increment from a start significand of
/// parity `p` is `inc` where `first` is [`NO_TIE`], else `inc + (p XOR first)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct SignedUnit {
    /// The increment of the magnitude's significand over the chunk, less the first tie's
    /// correction.
    pub inc: f64,
    /// The parity the first tie's correction is XORed with, or [`NO_TIE`].
    pub first: u8,
    /// A lower bound of every running offset of the magnitude's significand.
    pub lo: f64,
    /// An upper bound of every running offset of the magnitude's significand.
    pub hi: f64,
}

/// The signed unit of `chunk` for `scale = 2^(P - e)` and a start of sign `negative`, or
/// `None` where the path refuses the chunk whatever the start's significand (a term off the
/// rounding, a NaN or infinite term, or `sum |r|` at or above `2^53`). Whether it applies from
/// a given start is [`apply_signed`]'s to decide.
///
/// A chunk with ties takes the bit-mask pass of `scan` for its increment and first-tie parity
/// ([`scan::signed_tie_parts`]), and its bounds are widened by the number of ties `T`: each
/// tie adds `k` or `k + 1` where the bounds counted `r`, which is one of the two, so a running
/// offset is within the number of ties before it of the offset of the `r`, and so within
/// `[lo - T, hi + T]`. Inside those bounds every partial sum, tie or not, is rounded with a
/// quantum of 1 (a tie's exact value lies half a quantum from the modelled sum after it).
pub(super) fn signed_unit<T: FastTerm>(
    chunk: &[T],
    scale: f64,
    negative: bool,
    checks: Checks,
) -> Option<SignedUnit> {
    let mut sc = signed_scan(chunk, scale, checks);
    if negative && checks.mirrored {
        sc = SignedScan {
            rsum: -sc.rsum,
            lo: -sc.hi,
            hi: -sc.lo,
            ..sc
        };
    } else if negative {
        sc.rsum = -sc.rsum; // the mutant: the sum negated, its bounds not mirrored
    }
    if refuses(&sc, chunk, scale, checks) {
        return None;
    }
    let mut unit = SignedUnit {
        inc: sc.rsum,
        first: NO_TIE,
        lo: sc.lo,
        hi: sc.hi,
    };
    // The mutant without `signed_ties` takes every tie as `rint` does.
    if sc.tie && checks.signed_ties {
        let parts =
            scan::signed_tie_parts(chunk, scale, negative && checks.mirrored, sc.rsum, checks);
        unit.inc = parts.inc;
        unit.first = parts.first;
        if checks.signed_tie_bounds {
            unit.lo -= parts.ties as f64;
            unit.hi += parts.ties as f64;
        }
    }
    Some(unit)
}

/// True where the signed path refuses a chunk of scan `sc` whatever the start's significand:
/// a term off the rounding (seen by the portable scan's `big`, or looked for once `sum |r|`
/// reaches [`bound_from`]), a NaN term (`rsum` NaN: max and min drop it from `pos` and `neg`),
/// an infinite one (`pos` or `neg` infinite, so `abs` infinite or NaN), or `sum |r|` at or
/// above `2^53`. Mirroring a scan for a negative start changes none of these.
fn refuses<T: FastTerm>(sc: &SignedScan, chunk: &[T], scale: f64, checks: Checks) -> bool {
    sc.big
        || sc.rsum.is_nan()
        || sc.abs.is_nan()
        || sc.abs >= super::scan::INC_LIMIT
        || (sc.abs >= bound_from(checks) && off_the_rounding(chunk, scale))
}

/// The `sum |r|` from which a chunk's terms are each checked against `2^51`: [`SCAN_LIMIT`]
/// (`2^51`), or `2^53` under the `scan_bound` mutant (then no term ever is).
///
/// Below it no term needs the check. A term with `y >= 2^51 - 1/2` has
/// `t = y + 1.5 * 2^52 >= 2^53` after rounding (rounding is monotone), so `r >= 2^51`; one with
/// `y <= -2^51 + 1/2` has `t <= 2^52` (the tie at `2^52 + 1/2` goes to the even `2^52`), so
/// `r <= -2^51`. Either way `|r| >= 2^51`, and the computed `sum |r|` (a sum of `pos` and
/// `-neg`, each a sum of values of one sign, where rounding never lowers a partial sum below a
/// term) is at least that. So `sum |r| < 2^51` means every `|y| < 2^51 - 1/2`, where the
/// magic-constant rounding is `rint`.
fn bound_from(checks: Checks) -> f64 {
    if checks.scan_bound {
        SCAN_LIMIT
    } else {
        super::scan::INC_LIMIT
    }
}

/// True when some term of `chunk` has `|x * scale|` at or above `2^51`: a second look at the
/// chunk, from L1, only for chunks whose `sum |r|` reaches `2^51` (NaN terms were refused
/// before, by their NaN sum).
fn off_the_rounding<T: FastTerm>(chunk: &[T], scale: f64) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        if super::has_avx2() {
            // SAFETY: the CPU has AVX2 (checked just above).
            return unsafe { off_the_rounding_avx2(chunk, scale) };
        }
    }
    chunk.iter().any(|x| off_rounding(x.widen() * scale))
}

/// True when `y` is NaN or `|y| >= 2^51`.
fn off_rounding(y: f64) -> bool {
    y.is_nan() || y.abs() >= Y_LIMIT
}

/// [`off_the_rounding`] four lanes at a time: the largest `|x * scale|`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn off_the_rounding_avx2<T: FastTerm>(chunk: &[T], scale: f64) -> bool {
    use std::arch::x86_64::*;
    let vs = _mm256_set1_pd(scale);
    let abs = _mm256_castsi256_pd(_mm256_set1_epi64x(0x7fff_ffff_ffff_ffff));
    let mut ymax = [_mm256_setzero_pd(); 2];
    let mut octs = chunk.chunks_exact(8);
    for c in &mut octs {
        for (k, m) in ymax.iter_mut().enumerate() {
            // SAFETY: c holds 8 terms; terms 4k..4k+4 are inside it.
            let x = unsafe { T::load4(c.as_ptr().add(4 * k)) };
            *m = _mm256_max_pd(*m, _mm256_and_pd(_mm256_mul_pd(x, vs), abs));
        }
    }
    let top = lanes(_mm256_max_pd(ymax[0], ymax[1]));
    top.iter().any(|&y| y >= Y_LIMIT)
        || octs
            .remainder()
            .iter()
            .any(|x| off_rounding(x.widen() * scale))
}

/// The loop's sum after a chunk whose signed unit for binade `field` and the sign of `s` is
/// `unit`, from `s` (a normal whose magnitude is in `field`), where the unit's bounds keep
/// every partial sum inside the binade (module documentation); `None` otherwise. The caller
/// has checked that `unit` was formed for `s`'s sign and `field`.
pub(super) fn apply_signed<F: Format>(
    s: F::Value,
    field: u32,
    unit: SignedUnit,
    checks: Checks,
) -> Option<F::Value> {
    let m = (F::to_bits(s) & F::FRAC_MASK) | F::HIDDEN;
    let (bottom, top) = (F::HIDDEN as f64, (F::HIDDEN << 1) as f64);
    // m < 2^53 and lo, hi are integers of magnitude below 2^53: m + lo and m + hi are exact
    // below 2^53, and at or above it they round to at least 2^53, so each comparison with
    // the bounds is decided as on the exact values.
    let inc = unit.inc as i64
        + if unit.first == NO_TIE {
            0
        } else {
            ((m & 1) ^ u64::from(unit.first)) as i64
        };
    let inside = if checks.signed_bounds {
        m as f64 + unit.lo > bottom && m as f64 + unit.hi < top
    } else {
        let end = m as f64 + inc as f64;
        end >= bottom && end <= top
    };
    if !inside {
        return None;
    }
    // Inside the bounds `end` is in the binade; wrapping only where a mutant let it out (a
    // wrong sum, not a panic, is what the kill matrix looks for).
    let end = (m as i64).wrapping_add(inc) as u64;
    let sign = F::to_bits(s) & F::SIGN;
    Some(F::from_bits(
        sign | ((field as u64) << F::FRAC_BITS).wrapping_add(end.wrapping_sub(F::HIDDEN)),
    ))
}

/// The loop's sum after `chunk` from `s` (a normal of either sign whose magnitude is in binade
/// `field`, `scale` its `2^(P - e)`), where the module's bounds (widened by the ties) hold; `None`
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
    let negative = F::to_bits(s) & F::SIGN != 0;
    let unit = signed_unit(chunk, scale, negative, checks)?;
    apply_signed::<F>(s, field, unit, checks)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The signed scan of `chunk` by every compiled path this CPU runs (the portable one
    /// first), named.
    fn signed_paths<T: FastTerm>(chunk: &[T], scale: f64) -> Vec<(&'static str, SignedScan)> {
        let mut out = vec![
            ("portable", signed_scan_portable::<T, true>(chunk, scale)),
            ("dispatched", signed_scan(chunk, scale, Checks::ALL)),
        ];
        #[cfg(target_arch = "x86_64")]
        {
            if super::super::has_avx2() {
                // SAFETY: the CPU has AVX2 and FMA.
                out.push(("AVX2", unsafe {
                    signed_scan_avx2::<T, true>(chunk, scale, true)
                }));
                // The widened sub-blocks alone: for f32 terms the AVX2 path above takes them
                // only where the lanes refuse a chunk.
                let widened = chunk.chunks(SUB).map(|b| {
                    // SAFETY: the CPU has AVX2 and FMA.
                    unsafe { sub_avx2::<T, true>(b, scale) }
                });
                out.push(("AVX2 widened", fold_subs(widened)));
            }
        }
        out
    }

    /// What [`signed_unit`] makes of a scan ([`refuses`]): whether it refuses the chunk
    /// whatever the start, and where it does not, the bits of `sum r`, `lo`, `hi`, `sum |r|`
    /// and the tie flag. The vector paths leave a term off the rounding to the bound on
    /// `sum |r|` (their `big` is false), so the raw scans may differ where the chunk is
    /// refused; this may not.
    fn verdict<T: FastTerm>(chunk: &[T], scale: f64, sc: &SignedScan) -> Option<[u64; 5]> {
        (!refuses(sc, chunk, scale, Checks::ALL)).then(|| {
            [
                sc.rsum.to_bits(),
                sc.lo.to_bits(),
                sc.hi.to_bits(),
                sc.abs.to_bits(),
                u64::from(sc.tie),
            ]
        })
    }

    /// Every compiled path's verdict on `chunk` is the portable scan's; `case` names the
    /// input in a failure.
    fn assert_paths_agree<T: FastTerm + std::fmt::Debug>(chunk: &[T], scale: f64, case: &str) {
        let want = verdict(chunk, scale, &signed_scan_portable::<T, true>(chunk, scale));
        for (path, sc) in signed_paths(chunk, scale) {
            assert_eq!(
                verdict(chunk, scale, &sc),
                want,
                "{case}: the {path} signed scan of {chunk:?}"
            );
        }
    }

    /// Every compiled signed scan agrees with the portable one, by bits, on chunks of every
    /// length up to 200 (every remainder of the vector steps and of the 64-term sub-blocks) of
    /// f64 and f32 terms of both signs with ties, and one odd term (NaN, an infinity of either
    /// sign, a term past the rounding of either sign, -0.0) at the first, middle or last
    /// position. Seeded; a failure names the seed and the case.
    #[test]
    fn signed_scan_paths_agree_with_the_portable_scan() {
        use rand::{Rng, SeedableRng};
        let seed = 0x5197u64;
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
        let scale = 2f64.powi(52);
        let odd = [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 4.0, -4.0, -0.0];
        for n in 1..200usize {
            for case in 0..8 {
                let mut chunk: Vec<f64> = (0..n)
                    .map(|_| {
                        let k = rng.random_range(-8i32..8) as f64;
                        match rng.random_range(0..3) {
                            0 => (k + 0.5) * f64::EPSILON,
                            1 => k * f64::EPSILON,
                            _ => (rng.random::<f64>() - 0.5) * 8.0 * f64::EPSILON,
                        }
                    })
                    .collect();
                if case >= 2 {
                    let at = [0, n / 2, n - 1][case % 3];
                    chunk[at] = odd[rng.random_range(0..odd.len())];
                }
                let case = format!("seed {seed:#x} n {n} case {case}");
                assert_paths_agree(&chunk, scale, &case);
                // The same terms as f32, near an ulp of 1.0 in f32.
                let narrow: Vec<f32> = chunk.iter().map(|&x| (x * 2f64.powi(29)) as f32).collect();
                assert_paths_agree(&narrow, 2f64.powi(23), &format!("{case}, f32"));
            }
        }
    }

    /// The f32 lanes ([`signed_scan_f32_lanes`]) keep a chunk only where the f64 pass's sums are
    /// theirs: on f32 chunks whose `|y|` lie just below, at and above the lanes' bound `2^22`
    /// (ties among them), at scales from `2^-100` to `2^149` (`2^149` not a normal f32,
    /// so the f64 pass), with subnormal terms, every verdict is the portable scan's. Seeded;
    /// a failure names the seed and the case.
    #[test]
    fn f32_lanes_agree_with_the_portable_scan_at_their_bound() {
        use rand::{Rng, SeedableRng};
        let seed = 0xf32_1a4e5u64;
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
        let edge = f64::from(LANE_LIMIT);
        let near = [
            edge - 1.0,
            edge - 0.5,
            edge - 0.25,
            edge,
            edge + 1.0,
            2.0 * edge + 1.0,
            8.0 * edge + 3.0,
        ];
        for e in [-100i32, -20, 0, 23, 60, 126, 127, 149] {
            let scale = 2f64.powi(e);
            for n in [16usize, 64, 100, 200] {
                for case in 0..12 {
                    let mut y: Vec<f64> = (0..n)
                        .map(|_| f64::from(rng.random_range(-64i32..64)) * 0.25)
                        .collect();
                    if case >= 2 {
                        let at = rng.random_range(0..n);
                        let sign = if rng.random::<bool>() { 1.0 } else { -1.0 };
                        y[at] = sign * near[rng.random_range(0..near.len())];
                    }
                    if case >= 8 {
                        let at = rng.random_range(0..n);
                        y[at] =
                            f64::from(f32::from_bits(rng.random_range(1u32..0x0080_0000))) * scale;
                    }
                    // The terms y / scale, where f32 holds them (else the nearest f32).
                    let chunk: Vec<f32> = y.iter().map(|&v| (v / scale) as f32).collect();
                    let case = format!("seed {seed:#x} scale 2^{e} n {n} case {case}");
                    assert_paths_agree(&chunk, scale, &case);
                }
            }
        }
    }
}
