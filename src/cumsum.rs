//! The loop's running sums: ordered prefix sums (cumsum) with the bits of the sequential loop
//! at every position, f64 and f32, over rayon's threads.
//!
//! The loop is `s = s0; for i in 0..n { s = s + x[i]; out[i] = s }` in the terms' own type,
//! round to nearest even; [`Start`] names `s0` (numpy's convention, the default, copies the
//! first term instead of adding it). Every output is one native add of the loop, so no
//! arithmetic shortcut can produce it; what the threads need is only the loop's exact running
//! sum where each of them starts.
//!
//! 1. The fast engine's walk ([`crate::fast::block_starts_par`]) gives the exact running sum
//!    before every block of [`Shape::block_chunks`] chunks: units composed exactly where they
//!    apply, term by term where they do not, as [`crate::fast::ordered_sum_par`] computes the
//!    whole sum (the terms are read once from memory there, once more from the cache).
//! 2. Each block then runs the native loop from its exact start, in parallel on rayon's
//!    threads, writing its outputs (the terms are read a second time from memory, and the
//!    outputs written once: a cumsum moves about three times the bytes of a sum).
//!
//! Why the bits are the loop's. Write `S_j` for the loop's running sum after term `j`
//! (`S_-1 = s0`). Step 1 gives, for the block starting at term `a`, a value with the bits of
//! `S_(a-1)` (its guarantee, for every input, thread count and plan). Step 2 computes, from
//! that value, `S_(a-1) + x[a]`, then adds `x[a+1]`, and so on: the very adds the loop performs
//! from the same running sum, with the same operand order (the running sum first, which decides
//! a NaN's payload on x86-64). So `out[j] = S_j` bit for bit at every position, NaN payloads
//! included; the threads and the plan change only the time. On one thread, or a stream of one
//! block, the loop itself runs: a cumsum needs every add of the loop anyway, and one thread
//! cannot overlap them.
//!
//! Guarantee: [`ordered_cumsum_into`] writes the bits of [`loop_cumsum_into`] for every input,
//! [`Start`], thread count and [`Shape`].

use rayon::prelude::*;

use crate::fast::{block_starts_par, Checks, FastTerm, Shape};
use crate::format::Format;

/// The running sum the loop starts from: the three loops real code runs.
///
/// They differ only where the first output is concerned: with `x0 = -0.0` the first output
/// (and every output while the sum stays zero) is `-0.0` under [`Start::FirstTerm`] and
/// [`Start::NegativeZero`] but `+0.0` under [`Start::PositiveZero`]; and a signalling NaN as
/// the first term is copied unchanged by [`Start::FirstTerm`] but quieted by the add of the two
/// others (on the hardware add; Rust's semantics also let a compiler fold `-0.0 + x` into `x`,
/// which keeps it). From the second output on, [`Start::FirstTerm`] and [`Start::NegativeZero`]
/// agree bit for bit (`-0.0 + x` is `x` for every `x` but a signalling NaN, which it quiets, and the
/// next add quiets it under [`Start::FirstTerm`] too).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Start {
    /// numpy's `np.cumsum` and `np.add.accumulate` (the default, since the goal is numpy's
    /// bits): `out[0] = x[0]`, copied, then `s = s + x[i]` for `i >= 1`.
    #[default]
    FirstTerm,
    /// The C loop `s = 0.0; for x in terms { s += x; out.push(s) }`.
    PositiveZero,
    /// `s = -0.0` first, as Rust's float `Iterator::sum` starts.
    NegativeZero,
}

impl Start {
    /// Every start, the default first.
    pub const ALL: [Start; 3] = [Start::FirstTerm, Start::PositiveZero, Start::NegativeZero];

    /// The name on the command line: `first-term`, `positive-zero`, `negative-zero`.
    pub fn name(self) -> &'static str {
        match self {
            Start::FirstTerm => "first-term",
            Start::PositiveZero => "positive-zero",
            Start::NegativeZero => "negative-zero",
        }
    }
}

impl std::fmt::Display for Start {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A deliberately broken build of the engine, for the kill matrix
/// (`verify::cumsum_mutants`); [`Fault::None`] is the correct engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Fault {
    /// The correct engine.
    None,
    /// Each block starts from the plan's approximate prefix (the f64 prefix of the blocks'
    /// plain sums, rounded to the format) instead of the walk's exact sum.
    PlannedStart,
    /// [`Start::FirstTerm`] taken as [`Start::PositiveZero`]: `out[0] = +0 + x[0]`.
    FirstTermDropped,
    /// Each block's first output is not written.
    BlockFirstSkipped,
    /// Each block starts from the exact sum after it, not before it.
    StartOneBlockLate,
}

impl Fault {
    /// Every fault, the correct engine first.
    pub const ALL: [Fault; 5] = [
        Fault::None,
        Fault::PlannedStart,
        Fault::FirstTermDropped,
        Fault::BlockFirstSkipped,
        Fault::StartOneBlockLate,
    ];
}

/// The prefix sums of f64 `terms` from `start`, by the exact engine over rayon's threads.
///
/// Guarantee: `out[i]` has the bits of the loop's running sum after term `i` (see [`Start`]),
/// at every position, for every input; an empty input gives an empty vector.
///
/// ```
/// use binade::Start;
///
/// let terms = [-0.0, 0.1, 0.2, 1e16, -1e16, 0.3];
/// let out = binade::ordered_cumsum(&terms, Start::FirstTerm);
/// let mut want = vec![terms[0]]; // numpy's np.cumsum: the first term copied
/// let mut s = terms[0];
/// for x in &terms[1..] {
///     s += x;
///     want.push(s);
/// }
/// let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
/// assert_eq!(bits(&out), bits(&want));
/// assert_eq!(out[0].to_bits(), (-0.0f64).to_bits());
/// ```
pub fn ordered_cumsum(terms: &[f64], start: Start) -> Vec<f64> {
    let mut out = vec![0.0; terms.len()];
    ordered_cumsum_into(terms, start, &mut out);
    out
}

/// The prefix sums of f32 `terms` from `start`, added in f32 as the CPU's f32 loop adds them.
///
/// Guarantee: the bits of the f32 loop's running sums at every position.
///
/// ```
/// use binade::Start;
///
/// let terms: Vec<f32> = (0..5000).map(|i| 0.1 + i as f32 * 1e-4).collect();
/// let out = binade::ordered_cumsum_f32(&terms, Start::PositiveZero);
/// let mut s = 0.0f32;
/// for (x, y) in terms.iter().zip(&out) {
///     s += x;
///     assert_eq!(y.to_bits(), s.to_bits());
/// }
/// ```
pub fn ordered_cumsum_f32(terms: &[f32], start: Start) -> Vec<f32> {
    let mut out = vec![0.0; terms.len()];
    ordered_cumsum_into(terms, start, &mut out);
    out
}

/// The prefix sums of `terms` from `start` into the caller's `out`, by the exact engine
/// (steps 1 and 2 of the module doc) over rayon's current pool, blocks of [`Shape::DEFAULT`].
///
/// Guarantee: `out` ends with the bits of [`loop_cumsum_into`] at every position.
///
/// # Panics
/// When `out.len() != terms.len()`.
///
/// ```
/// use binade::Start;
///
/// let terms = vec![0.5f64; 100_000];
/// let mut out = vec![0.0; terms.len()];
/// binade::ordered_cumsum_into(&terms, Start::NegativeZero, &mut out);
/// assert_eq!(out[99_999], 50_000.0);
/// ```
pub fn ordered_cumsum_into<T: FastTerm>(terms: &[T], start: Start, out: &mut [T]) {
    cumsum_with(terms, start, out, Shape::DEFAULT, Fault::None);
}

/// The sequential loop itself, the reference: `s = s0; for i { s = s + x[i]; out[i] = s }`
/// (under [`Start::FirstTerm`], `out[0] = x[0]` copied and the loop runs from it).
///
/// # Panics
/// When `out.len() != terms.len()`.
///
/// ```
/// use binade::Start;
///
/// let mut out = [0.0f64; 2];
/// binade::loop_cumsum_into(&[-0.0, -0.0], Start::PositiveZero, &mut out);
/// assert_eq!(out.map(f64::to_bits), [0, 0]); // +0 + -0 = +0
/// binade::loop_cumsum_into(&[-0.0, -0.0], Start::FirstTerm, &mut out);
/// assert_eq!(out.map(f64::to_bits), [1 << 63, 1 << 63]);
/// ```
pub fn loop_cumsum_into<T: FastTerm>(terms: &[T], start: Start, out: &mut [T]) {
    assert_eq!(out.len(), terms.len(), "cumsum: output and input lengths");
    if let Some((s, terms, out)) = split_start(terms, start, out) {
        loop_from(s, terms, out);
    }
}

/// The start value and the terms the loop adds after it: for [`Start::FirstTerm`], `out[0]`
/// is written here (the first term, copied) and the rest follows from it. `None` for an empty
/// input under [`Start::FirstTerm`] (nothing to write).
fn split_start<'a, T: FastTerm>(
    terms: &'a [T],
    start: Start,
    out: &'a mut [T],
) -> Option<(T, &'a [T], &'a mut [T])> {
    let sign = 1u64 << (<T::F as Format>::EXP_BITS + <T::F as Format>::FRAC_BITS);
    let zero = |negative: bool| <T::F as Format>::from_bits(if negative { sign } else { 0 });
    match start {
        Start::PositiveZero => Some((zero(false), terms, out)),
        Start::NegativeZero => Some((zero(true), terms, out)),
        Start::FirstTerm => {
            let (&first, rest) = terms.split_first()?;
            let (head, tail) = out.split_first_mut()?;
            *head = first;
            Some((first, rest, tail))
        }
    }
}

/// The native loop from `s`, writing each running sum (the running sum is the add's first
/// operand, as in `s += x`).
#[inline]
fn loop_from<T: FastTerm>(mut s: T, terms: &[T], out: &mut [T]) {
    for (&x, y) in terms.iter().zip(out.iter_mut()) {
        s = <T::F as Format>::add(s, x);
        *y = s;
    }
}

/// [`ordered_cumsum_into`] in blocks of `shape` (`shape.chunk` in `1..=MAX_CHUNK`,
/// `shape.block_chunks >= 1`), with `fault` (only [`Fault::None`] is the exact engine; the
/// others exist for the kill matrix).
///
/// Guarantee (with [`Fault::None`]): the bits of [`loop_cumsum_into`] at every position, for
/// every input, shape and thread count.
///
/// # Panics
/// When `out.len() != terms.len()`.
pub fn cumsum_with<T: FastTerm>(
    terms: &[T],
    start: Start,
    out: &mut [T],
    shape: Shape,
    fault: Fault,
) {
    assert_eq!(out.len(), terms.len(), "cumsum: output and input lengths");
    let start = match (start, fault) {
        (Start::FirstTerm, Fault::FirstTermDropped) => Start::PositiveZero,
        (s, _) => s,
    };
    let Some((s0, terms, out)) = split_start(terms, start, out) else {
        return;
    };
    let block = shape.chunk.max(1) * shape.block_chunks.max(1);
    if rayon::current_num_threads() <= 1 || terms.len() <= block {
        loop_from(s0, terms, out);
        return;
    }
    // Step 1: the exact running sum before every block.
    let (mut starts, total) = block_starts_par(s0, terms, Checks::ALL, shape);
    match fault {
        Fault::PlannedStart => starts = planned_starts(s0, terms, block),
        Fault::StartOneBlockLate => {
            starts.remove(0);
            starts.push(total);
        }
        _ => {}
    }
    debug_assert_eq!(starts.len(), terms.len().div_ceil(block));
    // Step 2: each block's native loop from its exact start, in parallel.
    let skip = usize::from(fault == Fault::BlockFirstSkipped);
    out.par_chunks_mut(block)
        .zip(terms.par_chunks(block))
        .zip(starts.par_iter())
        .for_each(|((o, t), &s)| {
            let first = <T::F as Format>::add(s, t[0]);
            if skip == 0 {
                o[0] = first;
            }
            loop_from(first, &t[1..], &mut o[1..]);
        });
}

/// The first index where `a` and `b` differ in bits (no tolerance; a NaN equals only the same
/// NaN), or `None`.
pub fn first_difference<T: FastTerm>(a: &[T], b: &[T]) -> Option<usize> {
    if a.len() != b.len() {
        return Some(a.len().min(b.len()));
    }
    a.iter()
        .zip(b)
        .position(|(&x, &y)| <T::F as Format>::to_bits(x) != <T::F as Format>::to_bits(y))
}

/// As [`first_difference`], but any NaN equals any NaN: the comparison for engines whose adds
/// do not keep a NaN's payload (the GPU's return a NaN of their own).
pub fn first_difference_nan_as_nan<T: FastTerm>(a: &[T], b: &[T]) -> Option<usize> {
    if a.len() != b.len() {
        return Some(a.len().min(b.len()));
    }
    a.iter().zip(b).position(|(&x, &y)| {
        !crate::format::same_result::<T::F>(
            <T::F as Format>::to_bits(x),
            <T::F as Format>::to_bits(y),
        )
    })
}

/// The fault [`Fault::PlannedStart`]: the sum before each block guessed as a plan guesses it,
/// the f64 prefix of the blocks' plain sums from `s0`, rounded to the format.
fn planned_starts<T: FastTerm>(s0: T, terms: &[T], block: usize) -> Vec<T> {
    let mut prefix = s0.widen();
    terms
        .chunks(block)
        .map(|b| {
            let here = <T::F as Format>::from_f64(prefix);
            prefix += T::plain_sum(b);
            here
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bits<T: FastTerm>(v: &[T]) -> Vec<u64> {
        v.iter().map(|&x| <T::F as Format>::to_bits(x)).collect()
    }

    #[test]
    fn starts_differ_only_where_the_notes_say() {
        let snan = f64::from_bits(0x7ff0_0000_0000_0001);
        for terms in [
            vec![-0.0, -0.0, 1.0],
            vec![0.0, -0.0],
            vec![snan, 1.0],
            vec![1.0, snan],
        ] {
            let run = |s: Start| {
                let mut out = vec![0.0; terms.len()];
                loop_cumsum_into(&terms, s, &mut out);
                bits(&out)
            };
            let (first, neg) = (run(Start::FirstTerm), run(Start::NegativeZero));
            assert_eq!(first[1..], neg[1..], "{terms:?}");
            let quiet = f64::from_bits(terms[0].to_bits() | 0x0008_0000_0000_0000);
            assert!(first[0] == neg[0] || (terms[0].is_nan() && neg[0] == quiet.to_bits()));
        }
        let mut out = [0.0; 2];
        loop_cumsum_into(&[snan, 1.0], Start::FirstTerm, &mut out);
        assert_eq!(out[0].to_bits(), snan.to_bits(), "the first term is copied");
        loop_cumsum_into(&[snan, 1.0], Start::NegativeZero, &mut out);
        // The hardware add quiets it; Rust lets a compiler fold `-0.0 + x` into `x` (here the
        // terms are constants), so either bit pattern is the loop's.
        assert!(
            [0x7ff8_0000_0000_0001, snan.to_bits()].contains(&out[0].to_bits()),
            "{:#x}",
            out[0].to_bits()
        );
    }

    #[test]
    fn first_difference_compares_bits() {
        assert_eq!(first_difference(&[0.0f64, 1.0], &[0.0, 1.0]), None);
        assert_eq!(first_difference(&[0.0f64, 1.0], &[-0.0, 1.0]), Some(0));
        let (a, b) = (f64::from_bits(0x7ff8_0000_0000_0001), f64::NAN);
        assert_eq!(first_difference(&[1.0, a], &[1.0, b]), Some(1));
        assert_eq!(first_difference(&[1.0f32], &[1.0, 2.0]), Some(1));
    }

    #[test]
    fn empty_and_one_term() {
        for s in Start::ALL {
            assert!(ordered_cumsum(&[], s).is_empty());
            assert_eq!(bits(&ordered_cumsum(&[-0.0], s)).len(), 1);
        }
        assert_eq!(ordered_cumsum(&[-0.0], Start::PositiveZero)[0].to_bits(), 0);
        assert_eq!(
            ordered_cumsum_f32(&[-0.0], Start::FirstTerm)[0].to_bits(),
            1 << 31
        );
    }
}

/// The Rust examples of `docs/cumsum.md`, run as doc tests so the documentation stays true.
#[cfg(doctest)]
#[doc = include_str!("../docs/cumsum.md")]
struct CumsumDocExamples;
