//! The loop's bits, faster than the loop: the CPU engine of fast units, f64 and f32.
//!
//! The loop `s = 0; for x in terms { s += x }` waits for one add per term. This engine forms
//! each chunk's unit (its pair of increments, [`crate::unit`]) for a binade with operations that
//! have no chain between terms ([`scan`]'s module doc has the arithmetic: `rint(x * 2^(P-e))`
//! summed in f64 where no term ties, one extra bit where one does), and steps over the chunk
//! by adding that integer to the running significand.
//!
//! * A unit computed for binade `e` is exact from a start `s = m * u` in `e` when
//!   `m + inc <= 2^(P+1)` (landing on `2^(e+1)` is exact too). Terms are non-negative on the
//!   path, so the end bounds every intermediate sum.
//! * One thread ([`ordered_sum_fast`]) knows the exact sum before every chunk, so it forms the
//!   unit for that sum's own binade: no plan, one read of the terms.
//! * Threads ([`ordered_sum_par`], [`threads`]) take blocks of chunks in order from a ticket.
//!   A block reads its terms once to form its chunks' plain sums, finds the (approximate)
//!   sum before it by a look-back over the earlier blocks (back to the nearest block whose
//!   walk has published its exact end), guesses each chunk's binade from that prefix and the
//!   units before it, and forms the units while the block is still in the core's cache. The
//!   same thread then waits for the exact sum after the block before and walks its chunks:
//!   a unit applies where the exact running sum is in the guessed binade, any other chunk is
//!   taken as one thread takes it (its unit re-formed for the walked binade, from the cache).
//!   A chunk with negative terms, or guessed below zero, is planned by the signed unit of
//!   [`signed`], which the walk applies where the exact sum has the guessed sign and binade
//!   and the unit's bounds hold from it.
//!   A wrong guess (the plan may differ from run to run: the look-back adds doubles in
//!   whatever order the threads publish them) costs time, never bits.
//!
//! An infinite sum stays as it is through a chunk without NaN and without the infinity of the
//! other sign (`inf + x = inf` exactly for every other `x`): one compare a term, no add.
//! A chunk with negative terms, or from a negative sum, takes the signed path of [`signed`]
//! where its running offsets' bounds (widened by its number of ties) keep every partial sum
//! inside the binade. Anything else (a zero, subnormal or tiny start, a non-finite term, a term at or
//! above half the binade, a chunk whose sum leaves its binade) is added term by term with
//! the native add, which is never wrong. So the result has the loop's bits for every input,
//! every number of threads and every shape.

mod scan;
mod signed;
mod term;
pub mod threads;

use crate::format::{exp_field, is_positive_normal, Format, Layout};

pub use scan::{FastUnit, MAX_CHUNK, NO_TIE};
pub use term::{plain_sum_lanes_par, FastTerm, LANES_PIECE};
pub use threads::{
    block_starts_par, ordered_sum_par, ordered_sum_par_report, ordered_sum_par_with, FastSum, Shape,
};

/// Terms per chunk of the fast engine by default: the layout's chunk, so its counts read like
/// the walk's.
pub const CHUNK: usize = crate::layout::CHUNK;

/// Which of the engine's checks are on: all of them, except in the deliberately broken builds
/// of the kill matrix ([`crate::verify::fast_mutants`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Checks {
    /// Take the tie path where a term ties (off: every tie rounds as `rint` does).
    pub ties: bool,
    /// Leave the path on a negative term.
    pub sign: bool,
    /// Refuse a unit whose end passes `2^(e+1)`.
    pub bound: bool,
    /// Correct the first tie of a chunk by the start's parity (off: as if it were even).
    pub first_tie: bool,
    /// Correct the later ties of a chunk (off: their corrections are dropped).
    pub later_ties: bool,
    /// Apply a planned unit only where the exact running sum is in the planned binade.
    pub field: bool,
    /// The two-read plan's look-back waits for a block that has not published (off: it reads
    /// it as zero; the one-read plan never waits for it, see `one_read_plan`).
    /// A plan-only check: switched off it may change the time, never the bits.
    pub lookback_waits: bool,
    /// The look-back stops at the walk's exact sum after a block (off: it adds plain block
    /// sums back to the first block). Plan only.
    pub exact_plan: bool,
    /// A block's plan follows its units from chunk to chunk, as the loop's rounding does
    /// (off: it adds the plain chunk sums, which run ahead of a sum that stagnates). Plan only.
    pub unit_plan: bool,
    /// A chunk whose planned unit does not apply is re-formed for the binade the walk is in
    /// (off: for the planned binade, then applied in the walked one).
    pub reform_walked: bool,
    /// An infinite sum is kept through a chunk only where no term is NaN or the infinity of
    /// the other sign (off: it is kept through every chunk).
    pub infinity_terms: bool,
    /// A chunk with negative terms is taken by its increment only where the running offsets'
    /// bounds keep every partial sum inside the binade (off: where its end is inside).
    pub signed_bounds: bool,
    /// A chunk with negative terms and a tie takes its ties' corrections by the start's
    /// parity (off: its ties round as `rint` does).
    pub signed_ties: bool,
    /// A signed chunk's bounds are widened by its number of ties (off: the bounds of the `r`
    /// alone, which a tie's other neighbour can pass).
    pub signed_tie_bounds: bool,
    /// A chunk with negative terms tries the signed path (off: it goes term by term, as in the
    /// engine before that path). A timing switch: off, it may change the time, never the bits.
    pub signed_path: bool,
    /// From a negative sum, the signed path mirrors its bounds (off: it negates the increment
    /// only).
    pub mirrored: bool,
    /// On threads, a chunk's planned signed unit applies only where the exact sum has the sign
    /// and the binade it was planned for (off: it is trusted, as a look-back that trusts an
    /// unfinished predecessor's plan would).
    pub signed_key: bool,
    /// A chunk's scan applies only below [`scan::SCAN_LIMIT`] (`2^51`), the bound that stands
    /// for the per-term bound of the rounding (off: below `2^53`, the exactness bound alone,
    /// so a term the rounding gets wrong passes: `inputs::term_past_the_rounding`).
    pub scan_bound: bool,
    /// After a chunk whose terms left every path, the next [`COOLDOWN`] chunks go term by term
    /// without trying one (off: every chunk tries). A timing switch: off, it may change the
    /// time, never the bits.
    pub cooldown: bool,
    /// The bit-mask pass takes a term's base `k` as `r`'s low bit flipped where the term is a
    /// tie that rounded up (`d = -1/2`, `r = k + 1`) (off: `r`'s low bit alone, in every
    /// compiled path of the pass: portable, AVX2, AVX-512).
    pub down_flip: bool,
    /// The bit-mask pass counts the ties that rounded up (`d = -1/2`), whose base is one less
    /// than their `r` (off: every tie is counted so; in the AVX2 pass the count is the tie
    /// bits alone instead of the base bits under them, the shortcut this check is of).
    pub down_count: bool,
    /// The tie corrections by PEXT (`scan::tie_corrections_pext`, taken where
    /// [`has_fast_pext`]) compare a word's first tie with the last tie of the words before it
    /// (off: with itself, so a change of the prefix XOR across a word boundary is lost). On a
    /// CPU that does not take that path it changes nothing.
    pub pext_carry: bool,
    /// On threads, a block's planner forms its units in its one read of the block from
    /// memory, from an estimated start: its look-back estimates each predecessor that has not
    /// planned yet instead of waiting for it (off: the planner
    /// reads the block for its chunks' plain sums, publishes their aggregate, waits for its
    /// predecessors' aggregates, then forms the units from the block's second read, in L2).
    /// A timing switch: off, it may change the time, never the bits.
    pub one_read_plan: bool,
    /// In the one-read plan, a chunk is marked as keeping an infinite sum without its plain
    /// sum only where a unit formed for it, which only finite terms do (off: every chunk is
    /// marked so, as if each had formed one, and an infinite sum is kept through NaN).
    pub keeps_need_unit: bool,
    /// The signed scan counts each sub-block's negative part (off: it is taken as zero; in
    /// the AVX2 pass `|r|` is summed without clearing its sign, so `sum |r| = sum r`), so a
    /// chunk's running offsets' lower bound misses a dip inside a sub-block.
    pub signed_neg_part: bool,
    /// The signed scan keeps an f32 chunk in f32 lanes only where every `|r|` is below
    /// `2^22` (off: whatever its terms, so a NaN term is summed as the integer `-2^31` and a
    /// term past `2^22` is rounded with a quantum of 2 or more).
    pub signed_lane_bound: bool,
}

impl Checks {
    /// Every check: the exact engine.
    pub const ALL: Checks = Checks {
        ties: true,
        sign: true,
        bound: true,
        first_tie: true,
        later_ties: true,
        field: true,
        lookback_waits: true,
        exact_plan: true,
        unit_plan: true,
        reform_walked: true,
        infinity_terms: true,
        signed_bounds: true,
        signed_ties: true,
        signed_tie_bounds: true,
        signed_path: true,
        mirrored: true,
        signed_key: true,
        scan_bound: true,
        cooldown: true,
        down_flip: true,
        down_count: true,
        pext_carry: true,
        one_read_plan: true,
        keeps_need_unit: true,
        signed_neg_part: true,
        signed_lane_bound: true,
    };
}

/// The widest compiled vector path the fast engine may take, whatever the CPU has: for probes
/// and reports that time one path against another in the same process. Every path gives the
/// same bits (each is checked against the portable one); only the time differs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VectorLimit {
    /// The widest path the CPU has (the default).
    Widest,
    /// AVX2 and FMA at most (no AVX-512F).
    Avx2,
    /// The portable loops only.
    Portable,
}

/// [`VectorLimit`] as set by [`limit_vector_path`]: 0 widest, 1 AVX2, 2 portable.
static VECTOR_LIMIT: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(0);

/// Limits the fast engine's compiled vector paths from now on, for every thread (a probe's
/// switch; the library never calls it). Guarantee: no bit of any sum changes.
pub fn limit_vector_path(limit: VectorLimit) {
    let code = match limit {
        VectorLimit::Widest => 0,
        VectorLimit::Avx2 => 1,
        VectorLimit::Portable => 2,
    };
    VECTOR_LIMIT.store(code, std::sync::atomic::Ordering::Relaxed);
}

/// The limit's code (one relaxed load: a probe's switch, not a synchronisation).
#[inline]
fn vector_limit() -> u8 {
    VECTOR_LIMIT.load(std::sync::atomic::Ordering::Relaxed)
}

/// True when the CPU has AVX2, FMA and POPCNT (every AVX2 CPU made has all three; detected
/// once) and [`limit_vector_path`] allows them. The chunk scan uses FMA; the other vector
/// paths AVX2 and POPCNT.
#[inline]
pub(crate) fn has_avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        vector_limit() <= 1
            && std::arch::is_x86_feature_detected!("avx2")
            && std::arch::is_x86_feature_detected!("fma")
            && std::arch::is_x86_feature_detected!("popcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// True when the CPU has AVX-512F beside [`has_avx2`]'s features (detected once) and
/// [`limit_vector_path`] allows it: the chunk scan and the bit-mask pass then take eight terms
/// a step.
#[inline]
pub(crate) fn has_avx512() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        vector_limit() == 0 && has_avx2() && std::arch::is_x86_feature_detected!("avx512f")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Whether the tie corrections take PEXT (`scan::tie_corrections_pext`): the CPU has BMI2 and
/// POPCNT, its PEXT is not microcoded ([`pext_is_microcoded`]) and the vector paths are not
/// limited. Asked once a chunk with ties, so the CPU's answer is kept.
pub(crate) fn has_fast_pext() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        static FAST: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
        vector_limit() <= 1
            && *FAST.get_or_init(|| {
                std::arch::is_x86_feature_detected!("bmi2")
                    && std::arch::is_x86_feature_detected!("popcnt")
                    && !pext_is_microcoded()
            })
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Whether this CPU's PEXT is microcoded ([`microcoded_pext`] of its CPUID vendor and
/// signature).
#[cfg(target_arch = "x86_64")]
fn pext_is_microcoded() -> bool {
    use std::arch::x86_64::__cpuid;
    #[allow(unused_unsafe)]
    // SAFETY: CPUID leaves 0 and 1 exist on every x86_64 processor.
    let (vendor, signature) = unsafe { (__cpuid(0), __cpuid(1).eax) };
    let mut name = [0u8; 12];
    name[..4].copy_from_slice(&vendor.ebx.to_le_bytes());
    name[4..8].copy_from_slice(&vendor.edx.to_le_bytes());
    name[8..].copy_from_slice(&vendor.ecx.to_le_bytes());
    microcoded_pext(&name, signature)
}

/// AMD's processors before family 19h (Zen 1 and 2, and Hygon's, which are Zen 1) run PEXT
/// as microcode whose time grows with the bits of its mask; from family 19h (Zen 3) on, and on
/// Intel's processors with BMI2, it is one fast instruction. `vendor` is CPUID leaf 0's
/// vendor string, `signature` leaf 1's EAX: the family is its base family, plus its extended
/// family where the base is 0Fh.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
fn microcoded_pext(vendor: &[u8; 12], signature: u32) -> bool {
    let base = (signature >> 8) & 0xf;
    let family = if base == 0xf {
        base + ((signature >> 20) & 0xff)
    } else {
        base
    };
    (vendor == b"AuthenticAMD" || vendor == b"HygonGenuine") && family < 0x19
}

/// Which compiled paths the chunk scan and the bit-mask pass take on this CPU (for reports).
pub fn vector_path() -> &'static str {
    if has_avx512() {
        "x86_64 AVX-512F and FMA (the scan and the bit-mask pass; the signed scan AVX2)"
    } else if has_avx2() {
        "x86_64 AVX2 and FMA"
    } else {
        "portable"
    }
}

/// The lowest binade field of format `F` whose scale `2^(P - e)` is a normal f64:
/// `P - e <= 1023`, `e = field - BIAS`.
pub(crate) fn min_field<F: Format>() -> u32 {
    (F::FRAC_BITS as i32 + F::BIAS - 1023).max(1) as u32
}

/// The binade field of `s` when the path can start from it (a positive normal whose scale is
/// a normal f64), else `None`.
#[inline]
pub(crate) fn fast_field<F: Format>(s: F::Value) -> Option<u32> {
    let bits = F::to_bits(s);
    let field = exp_field::<F>(bits);
    (is_positive_normal::<F>(bits) && field >= min_field::<F>()).then_some(field)
}

/// The binade field of `-s` when `s` is a negative normal whose scale is a normal f64, else
/// `None`.
#[inline]
pub(crate) fn negative_field<F: Format>(s: F::Value) -> Option<u32> {
    let bits = F::to_bits(s);
    let magnitude = F::from_bits(bits & !F::SIGN);
    (bits & F::SIGN != 0)
        .then(|| fast_field::<F>(magnitude))
        .flatten()
}

/// The binade field of `|s|` and whether `s` is negative, where either path can start from
/// `s` (a normal of either sign whose scale is a normal f64), else `None`.
#[inline]
pub(crate) fn signed_field<F: Format>(s: F::Value) -> Option<(u32, bool)> {
    fast_field::<F>(s)
        .map(|field| (field, false))
        .or_else(|| negative_field::<F>(s).map(|field| (field, true)))
}

/// `2^(P - e)` for binade field `field` of `F`, as an f64.
#[inline]
pub(crate) fn scale_of<F: Format>(field: u32) -> f64 {
    debug_assert!(field >= min_field::<F>() && field <= F::MAX_NORMAL_FIELD);
    let exp = F::FRAC_BITS as i64 + F::BIAS as i64 - field as i64; // P - e
    f64::from_bits(((exp + 1023) as u64) << 52)
}

/// `s + unit` in binade `field`, where the end stays at or below `2^(e+1)`; `None` otherwise.
/// The caller has checked that `s` is in `field` (unless the field check is the mutant's).
#[inline]
pub(crate) fn apply<F: Format>(
    s: F::Value,
    field: u32,
    unit: FastUnit,
    checks: Checks,
) -> Option<F::Value> {
    let m = (F::to_bits(s) & F::FRAC_MASK) | F::HIDDEN;
    let end = m + unit.increment(m & 1); // inc < 2^53, m < 2^53: no overflow
    if checks.bound && end > 2 * F::HIDDEN {
        return None;
    }
    // end == 2^(P+1) carries into the exponent: exactly 2^(e+1) (infinity past the top).
    Some(F::from_bits(
        ((field as u64) << F::FRAC_BITS) + (end - F::HIDDEN),
    ))
}

/// The native loop over `chunk` from `s`.
#[inline]
pub(crate) fn add_terms<T: FastTerm>(s: T, chunk: &[T]) -> T {
    chunk.iter().fold(s, |s, &x| <T::F as Format>::add(s, x))
}

/// How one chunk was taken from the exact sum before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// Its unit applied.
    Unit,
    /// Added term by term: the start is outside the path.
    NativeStart,
    /// Added term by term: a term left the path.
    NativeRefused,
    /// Added term by term without trying: a cooldown after a refused chunk.
    NativeSkipped,
    /// Added term by term: the sum left its binade.
    NativeCrossing,
    /// Kept: the sum is infinite and no term of the chunk is NaN or the other infinity.
    Infinite,
    /// Taken by the signed path (`signed`): a chunk with negative terms (or from a negative
    /// sum), inside the running offsets' bounds.
    Signed,
}

impl Step {
    /// True when the chunk was added term by term.
    pub(crate) fn is_native(self) -> bool {
        !matches!(self, Step::Unit | Step::Infinite | Step::Signed)
    }
}

/// True when the loop leaves an infinite sum of sign `positive` unchanged through `chunk`:
/// `inf + x = inf` for every `x` but NaN and `-inf` (and the same with the signs turned). One
/// compare a term, without a chain from term to term.
#[inline]
pub(crate) fn keeps_infinity<T: FastTerm>(positive: bool, chunk: &[T]) -> bool {
    if positive {
        chunk
            .iter()
            .fold(true, |ok, x| ok & (x.widen() > f64::NEG_INFINITY))
    } else {
        chunk
            .iter()
            .fold(true, |ok, x| ok & (x.widen() < f64::INFINITY))
    }
}

/// `Some(sign)` (true for `+inf`) when `s` is infinite.
#[inline]
pub(crate) fn infinite_sign<T: FastTerm>(s: T) -> Option<bool> {
    let w = s.widen();
    w.is_infinite().then_some(w > 0.0)
}

/// What one chunk's step leaves for the next, in a run of chunks walked in order (one thread,
/// or a block's walk). A wrong hint costs time only.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Hints {
    /// The chunk before had a tie: the bit-mask pass runs at once.
    pub ties: bool,
    /// The chunk before took the signed path: this one tries it first, instead of after a
    /// scan that refuses its negative terms.
    pub signed: bool,
    /// Chunks still to add natively without trying a path, after one whose terms left every
    /// path ([`COOLDOWN`]).
    pub skip: usize,
}

/// One chunk from the exact sum `s` before it: during a cooldown the native adds; an infinite
/// `s` kept where the chunk cannot change it ([`keeps_infinity`]); else the unit for `s`'s own
/// binade, else (a chunk with negative terms, or a negative sum) the signed path of
/// [`signed`], else the native adds. `hints` are read and set for the next chunk.
pub(crate) fn step<T: FastTerm>(s: T, chunk: &[T], checks: Checks, hints: &mut Hints) -> (T, Step) {
    if hints.skip > 0 {
        hints.skip -= 1;
        return (add_terms(s, chunk), Step::NativeSkipped);
    }
    let (next, how) = step_once(s, chunk, checks, &mut hints.ties, &mut hints.signed);
    if how == Step::NativeRefused && checks.cooldown {
        hints.skip = COOLDOWN;
    }
    (next, how)
}

/// [`step`] without the cooldown.
fn step_once<T: FastTerm>(
    s: T,
    chunk: &[T],
    checks: Checks,
    ties: &mut bool,
    signed: &mut bool,
) -> (T, Step) {
    if let Some(positive) = infinite_sign(s) {
        if !checks.infinity_terms || keeps_infinity(positive, chunk) {
            return (s, Step::Infinite);
        }
    }
    let Some(field) = fast_field::<T::F>(s) else {
        // A negative sum: the signed path by symmetry (its module documentation).
        if let Some(field) = negative_field::<T::F>(s).filter(|_| checks.signed_path) {
            let scale = scale_of::<T::F>(field);
            if let Some(next) = signed::signed_step::<T::F>(s, field, chunk, scale, checks) {
                *signed = true;
                return (next, Step::Signed);
            }
            // Refused (the cooldown then spares the next chunks the attempt).
            *signed = false;
            return (add_terms(s, chunk), Step::NativeRefused);
        }
        return (add_terms(s, chunk), Step::NativeStart);
    };
    let scale = scale_of::<T::F>(field);
    let hinted = *signed && checks.signed_path;
    if hinted {
        if let Some(next) = signed::signed_step::<T::F>(s, field, chunk, scale, checks) {
            return (next, Step::Signed);
        }
        *signed = false;
    }
    let (unit, had_ties) = scan::chunk_unit_hinted(chunk, scale, checks, *ties);
    *ties = had_ties;
    let Some(unit) = unit else {
        if checks.signed_path && !hinted {
            if let Some(next) = signed::signed_step::<T::F>(s, field, chunk, scale, checks) {
                *signed = true;
                return (next, Step::Signed);
            }
        }
        return (add_terms(s, chunk), Step::NativeRefused);
    };
    match apply::<T::F>(s, field, unit, checks) {
        Some(next) => (next, Step::Unit),
        None => (add_terms(s, chunk), Step::NativeCrossing),
    }
}

/// Chunks a thread adds natively, without trying the path, after one whose terms left it
/// (negative and non-finite terms tend to come in runs; a wrong skip costs time only).
const COOLDOWN: usize = 8;

/// The sequential sum of `terms` on this thread, in the terms' own format.
///
/// Guarantee: the bits of `s = 0.0; for x in terms { s += x }` for every input (a NaN result
/// is the loop's NaN: every chunk that meets a NaN is added natively).
pub fn ordered_sum_fast<T: FastTerm>(terms: &[T]) -> T {
    ordered_sum_fast_with(terms, Checks::ALL, CHUNK)
}

/// [`ordered_sum_fast`] with `checks` (all of them for the exact engine) and chunks of
/// `chunk` terms (`1..=MAX_CHUNK`).
pub fn ordered_sum_fast_with<T: FastTerm>(terms: &[T], checks: Checks, chunk: usize) -> T {
    ordered_sum_fast_counted(terms, checks, chunk).0
}

/// [`ordered_sum_fast_with`], and how many chunks it added term by term.
pub(crate) fn ordered_sum_fast_counted<T: FastTerm>(
    terms: &[T],
    checks: Checks,
    chunk: usize,
) -> (T, usize) {
    ordered_sum_fast_from(<T::F as Format>::from_bits(0), terms, checks, chunk)
}

/// [`ordered_sum_fast_counted`] from the running sum `start` instead of `+0`: the bits of
/// `s = start; for x in terms { s += x }`, and how many chunks went term by term.
pub(crate) fn ordered_sum_fast_from<T: FastTerm>(
    start: T,
    terms: &[T],
    checks: Checks,
    chunk: usize,
) -> (T, usize) {
    debug_assert!((1..=MAX_CHUNK).contains(&chunk));
    let mut s = start;
    let mut native = 0usize;
    let mut hints = Hints::default();
    for c in terms.chunks(chunk.clamp(1, MAX_CHUNK)) {
        let (next, how) = step(s, c, checks, &mut hints);
        s = next;
        native += usize::from(how.is_native());
    }
    (s, native)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// PEXT is taken as microcoded on AMD's families 17h and 18h (Zen 1, 2; Hygon) and as fast
    /// on family 19h (Zen 3, 4) and 1Ah (Zen 5) and on Intel's: CPUID leaf 1 signatures of
    /// each kind.
    #[test]
    fn pext_is_microcoded_before_amd_family_19h() {
        let (amd, hygon, intel) = (b"AuthenticAMD", b"HygonGenuine", b"GenuineIntel");
        assert!(microcoded_pext(amd, 0x0080_0F12)); // family 17h, Zen 1 (EPYC 7001)
        assert!(microcoded_pext(amd, 0x0083_0F10)); // family 17h, Zen 2 (EPYC 7002)
        assert!(microcoded_pext(hygon, 0x0090_0F01)); // family 18h, Dhyana
        assert!(!microcoded_pext(amd, 0x00A0_0F11)); // family 19h, Zen 3 (EPYC 7003)
        assert!(!microcoded_pext(amd, 0x00A1_0F11)); // family 19h, Zen 4 (EPYC 9004)
        assert!(!microcoded_pext(amd, 0x00B0_0F21)); // family 1Ah, Zen 5
        assert!(!microcoded_pext(intel, 0x0005_0654)); // Skylake-SP
        assert!(!microcoded_pext(intel, 0x0008_06F8)); // Sapphire Rapids
    }
    use crate::format::{F32, F64};

    fn loop_sum<T: FastTerm>(x: &[T]) -> T {
        add_terms(<T::F as Format>::from_bits(0), x)
    }

    fn same<T: FastTerm>(a: T, b: T) -> bool {
        crate::format::same_result::<T::F>(
            <T::F as Format>::to_bits(a),
            <T::F as Format>::to_bits(b),
        )
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
            scan::Y_LIMIT - 0.5,
            scan::Y_LIMIT - 1.0,
        ] {
            assert_eq!(
                (y + scan::MAGIC) - scan::MAGIC,
                y.round_ties_even(),
                "y = {y}"
            );
        }
    }

    #[test]
    fn scales_are_the_binades_ulps() {
        // 1.0 has field BIAS: its ulp is 2^-P, so the scale is 2^P.
        assert_eq!(scale_of::<F64>(1023), 2f64.powi(52));
        assert_eq!(scale_of::<F32>(127), 2f64.powi(23));
        assert_eq!(min_field::<F64>(), 52);
        assert_eq!(min_field::<F32>(), 1);
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
            let head = &c[..c.len().min(4)];
            assert!(same(ordered_sum_fast(&c), loop_sum(&c)), "{head:?}");
            assert!(same(ordered_sum_par(&c), loop_sum(&c)), "{head:?}");
            let c32: Vec<f32> = c.iter().map(|&x| x as f32).collect();
            assert!(same(ordered_sum_fast(&c32), loop_sum(&c32)), "f32 {head:?}");
            assert!(same(ordered_sum_par(&c32), loop_sum(&c32)), "f32 {head:?}");
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
