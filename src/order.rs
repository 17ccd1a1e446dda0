//! CPU orders: which floating-point loop a sum reproduces.
//!
//! Each order is a loop that real code runs, written out here as the reference
//! ([`loop_sum_in`]):
//! - `sequential`: `s = +0; for x in terms { s = s + x }`, one accumulator in memory order;
//! - `interleaved:K` (K = 2, 4, 8 or 16): K accumulators as a K-wide SIMD loop keeps them,
//!   accumulator `j` the sequential loop (from +0) over terms `j, j + K, j + 2K, ...`, then
//!   combined by halves as a horizontal SIMD reduction does: `a[j] = a[j] + a[j + h]` for
//!   `j < h`, `h = K/2, K/4, ..., 1`; the result is `a[0]`;
//! - `rows:W` (W >= 1): the terms as rows of W (the last row may be shorter), each row's
//!   sequential loop from +0, then the sequential loop (from +0) over the row sums in order
//!   (float VIF's rows, then rows);
//! - `numpy`: the order of `np.sum` on a contiguous float64 or float32 array (numpy's
//!   pairwise sum, read from its `loops_utils.h.src`, checked against numpy 2.4.6 itself in
//!   `tests/orders.rs`): `+0 + P(terms)` in the terms' type, where `P` of `n` terms is the
//!   sequential loop from `+0` for `n < 8`; for `8 <= n <= 128`, eight accumulators, `r[j]`
//!   starting at term `j` and adding terms `j + 8, j + 16, ...` below `n - n mod 8`, combined
//!   as `((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))`, then the last `n mod 8` terms
//!   added to that in order; above 128, `P(first n2) + P(rest)` with `n2 = n/2` rounded down
//!   to a multiple of 8. The reduction starts from numpy's identity `+0`, not from the first
//!   term (so a stream of `-0.0` sums to `+0.0`), and a contiguous array is one call of the
//!   pairwise sum, not blocks of the iterator's buffer.
//!
//! [`ordered_sum_in`] gives each order's bits without running its loop term by term: every
//! accumulator and every row is itself a sequential loop, whose bits the fast engine
//! ([`crate::fast::ordered_sum_fast`]) reproduces exactly; what is left (the K accumulators'
//! reduction by halves, the loop over the row sums) is a fixed sequence of native adds of
//! those exact values, done natively. So the result is the order's own loop's, bit for bit,
//! for every input (a NaN up to its payload, as for the sequential engine). The `numpy`
//! order's sequential pieces are at most 16 terms, too short for the fast engine's chunks: its
//! engine is its loop, the pairwise recursion itself.

use std::fmt;
use std::str::FromStr;

use crate::fast::FastTerm;
use crate::format::Format;

/// The CPU loop whose result a sum must reproduce.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum CpuOrder {
    /// `s = 0; for x in terms { s = s + x }`, one accumulator, terms in memory order.
    #[default]
    Sequential,
    /// K accumulators (K in {2, 4, 8, 16}), combined by halves (module documentation).
    Interleaved(usize),
    /// Rows of W terms, each summed, then the row sums summed (module documentation).
    Rows(usize),
    /// `np.sum`'s pairwise order on a contiguous array (module documentation).
    Numpy,
}

/// numpy's pairwise block: at most this many terms are summed by the eight accumulators
/// (`PW_BLOCKSIZE`).
pub const NUMPY_BLOCK: usize = 128;
/// numpy's accumulators in a pairwise block (its unroll factor).
pub const NUMPY_LANES: usize = 8;

/// The accumulator counts of `interleaved:K`.
pub const INTERLEAVED_K: [usize; 4] = [2, 4, 8, 16];

impl CpuOrder {
    /// The name used on the command line and in reports (`sequential`, `interleaved:K`,
    /// `rows:W`).
    pub fn name(self) -> String {
        match self {
            CpuOrder::Sequential => "sequential".to_string(),
            CpuOrder::Interleaved(k) => format!("interleaved:{k}"),
            CpuOrder::Rows(w) => format!("rows:{w}"),
            CpuOrder::Numpy => "numpy".to_string(),
        }
    }
}

impl fmt::Display for CpuOrder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

impl FromStr for CpuOrder {
    type Err = String;

    /// Parses `sequential`, `interleaved:K` (K in 2, 4, 8, 16), `rows:W` (W >= 1) and
    /// `numpy`. Every error is one line.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "sequential" => return Ok(CpuOrder::Sequential),
            "numpy" => return Ok(CpuOrder::Numpy),
            _ => {}
        }
        let known =
            "known: sequential, interleaved:K with K = 2, 4, 8 or 16, rows:W with W >= 1, numpy";
        let Some((family, param)) = s.split_once(':') else {
            return Err(format!("unknown CPU order `{s}` ({known})"));
        };
        let n = param.trim().parse::<usize>().ok();
        match (family, n) {
            ("interleaved", Some(k)) if INTERLEAVED_K.contains(&k) => Ok(CpuOrder::Interleaved(k)),
            ("interleaved", _) => Err(format!(
                "CPU order `{s}`: K must be 2, 4, 8 or 16 accumulators"
            )),
            ("rows", Some(w)) if w >= 1 => Ok(CpuOrder::Rows(w)),
            ("rows", _) => Err(format!(
                "CPU order `{s}`: W must be a row length of at least 1"
            )),
            _ => Err(format!("unknown CPU order `{s}` ({known})")),
        }
    }
}

/// The order's loop itself, term by term (the reference for [`ordered_sum_in`]).
pub fn loop_sum_in<F: Format>(terms: &[F::Value], order: CpuOrder) -> F::Value {
    let zero = F::from_bits(0);
    match order {
        CpuOrder::Sequential => terms.iter().fold(zero, |s, &x| F::add(s, x)),
        CpuOrder::Interleaved(k) => {
            debug_assert!(INTERLEAVED_K.contains(&k));
            let mut acc = vec![zero; k];
            for (i, &x) in terms.iter().enumerate() {
                acc[i % k] = F::add(acc[i % k], x);
            }
            reduce_by_halves::<F>(acc)
        }
        CpuOrder::Rows(w) => {
            debug_assert!(w >= 1);
            let mut total = zero;
            for row in terms.chunks(w) {
                let r = row.iter().fold(zero, |s, &x| F::add(s, x));
                total = F::add(total, r);
            }
            total
        }
        CpuOrder::Numpy => F::add(zero, numpy_pairwise::<F>(terms, Fault::None)),
    }
}

/// numpy's pairwise sum `P` of `a` (module documentation), in format `F`; `fault` breaks one
/// of its rules for the kill matrix ([`Fault::None`]: numpy's).
fn numpy_pairwise<F: Format>(a: &[F::Value], fault: Fault) -> F::Value {
    let n = a.len();
    let zero = F::from_bits(0);
    if n < NUMPY_LANES {
        return a.iter().fold(zero, |s, &x| F::add(s, x));
    }
    if n <= NUMPY_BLOCK {
        let mut r = [zero; NUMPY_LANES];
        r.copy_from_slice(&a[..NUMPY_LANES]);
        let whole = n - n % NUMPY_LANES;
        for row in a[NUMPY_LANES..whole].chunks_exact(NUMPY_LANES) {
            for (acc, &x) in r.iter_mut().zip(row) {
                *acc = F::add(*acc, x);
            }
        }
        let tree = if fault == Fault::NumpyLanesInOrder {
            r[1..].iter().fold(r[0], |s, &x| F::add(s, x))
        } else {
            let add = F::add;
            add(
                add(add(r[0], r[1]), add(r[2], r[3])),
                add(add(r[4], r[5]), add(r[6], r[7])),
            )
        };
        return a[whole..].iter().fold(tree, |s, &x| F::add(s, x));
    }
    let mut n2 = n / 2;
    if fault != Fault::NumpySplitUnaligned {
        n2 -= n2 % NUMPY_LANES;
    }
    F::add(
        numpy_pairwise::<F>(&a[..n2], fault),
        numpy_pairwise::<F>(&a[n2..], fault),
    )
}

/// `a[j] = a[j] + a[j + h]` for `j < h`, `h = K/2, ..., 1`; returns `a[0]`.
fn reduce_by_halves<F: Format>(mut acc: Vec<F::Value>) -> F::Value {
    debug_assert!(acc.len().is_power_of_two());
    let mut h = acc.len() / 2;
    while h >= 1 {
        for j in 0..h {
            acc[j] = F::add(acc[j], acc[j + h]);
        }
        h /= 2;
    }
    acc[0]
}

/// The bits of the order's loop over `terms`, from exact sequential sums of its accumulators
/// or rows (the argument in the module documentation). Guarantee: equal in bits to
/// [`loop_sum_in`] for every input (NaN as NaN).
pub fn ordered_sum_in<T: FastTerm>(terms: &[T], order: CpuOrder) -> T {
    ordered_sum_in_with(terms, order, Fault::None)
}

/// A deliberately broken build of [`ordered_sum_in`], for the kill matrix
/// (`verify::order_mutants`); [`Fault::None`] is the correct one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Fault {
    /// The correct engine.
    None,
    /// Accumulator `j` takes the j-th contiguous K-th of the terms instead of every K-th term.
    LanesContiguous,
    /// The accumulators are combined left to right instead of by halves.
    ReducedInOrder,
    /// Each row's loop starts from the rows before it instead of from +0.
    RowsCarried,
    /// A last row shorter than W is left out.
    ShortRowDropped,
    /// numpy's split of a long run is not rounded down to a multiple of its eight lanes.
    NumpySplitUnaligned,
    /// numpy's eight accumulators are combined left to right instead of as its tree.
    NumpyLanesInOrder,
}

impl Fault {
    /// Every fault, the correct engine first.
    pub const ALL: [Fault; 7] = [
        Fault::None,
        Fault::LanesContiguous,
        Fault::ReducedInOrder,
        Fault::RowsCarried,
        Fault::ShortRowDropped,
        Fault::NumpySplitUnaligned,
        Fault::NumpyLanesInOrder,
    ];
}

/// What [`ordered_sum_in_counted`] did: its total, and the chunks of the fast engine over the
/// order's sequential pieces (accumulators, rows, the row sums; for `numpy`, whose engine is
/// its loop, the input's chunks, all of them added term by term).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OrderSum<T> {
    /// The order's result (the bits of [`loop_sum_in`]).
    pub total: T,
    /// Chunks of [`crate::fast::CHUNK`] terms over the order's sequential pieces.
    pub chunks: usize,
    /// Of those, the chunks added term by term.
    pub native_chunks: usize,
}

/// [`ordered_sum_in`], and how many chunks it took term by term.
pub fn ordered_sum_in_counted<T: FastTerm>(terms: &[T], order: CpuOrder) -> OrderSum<T> {
    let mut counts = (0usize, 0usize);
    let total = ordered_in(terms, order, Fault::None, &mut counts);
    if order == CpuOrder::Numpy {
        let chunks = terms.len().div_ceil(crate::fast::CHUNK);
        counts = (chunks, chunks);
    }
    OrderSum {
        total,
        chunks: counts.0,
        native_chunks: counts.1,
    }
}

/// [`ordered_sum_in`] with `fault` (the correct engine for [`Fault::None`]).
pub fn ordered_sum_in_with<T: FastTerm>(terms: &[T], order: CpuOrder, fault: Fault) -> T {
    ordered_in(terms, order, fault, &mut (0, 0))
}

/// The engine of [`ordered_sum_in_with`]; `counts` gains the chunks of each sequential piece
/// and those it added term by term.
fn ordered_in<T: FastTerm>(
    terms: &[T],
    order: CpuOrder,
    fault: Fault,
    counts: &mut (usize, usize),
) -> T {
    let mut exact = |piece: &[T]| {
        let chunk = crate::fast::CHUNK;
        let (s, native) =
            crate::fast::ordered_sum_fast_counted(piece, crate::fast::Checks::ALL, chunk);
        counts.0 += piece.len().div_ceil(chunk);
        counts.1 += native;
        s
    };
    match order {
        CpuOrder::Sequential => exact(terms),
        CpuOrder::Interleaved(k) => {
            debug_assert!(INTERLEAVED_K.contains(&k));
            let acc: Vec<T> = (0..k)
                .map(|j| {
                    let lane: Vec<T> = if fault == Fault::LanesContiguous {
                        let per = terms.len().div_ceil(k);
                        terms.iter().skip(j * per).take(per).copied().collect()
                    } else {
                        terms.iter().skip(j).step_by(k).copied().collect()
                    };
                    exact(&lane)
                })
                .collect();
            if fault == Fault::ReducedInOrder {
                let zero = <T::F as Format>::from_bits(0);
                return acc.into_iter().fold(zero, <T::F as Format>::add);
            }
            reduce_by_halves::<T::F>(acc)
        }
        CpuOrder::Rows(w) => {
            debug_assert!(w >= 1);
            let mut rows: Vec<&[T]> = terms.chunks(w).collect();
            if fault == Fault::ShortRowDropped && rows.last().is_some_and(|r| r.len() < w) {
                rows.pop();
            }
            let sums: Vec<T> = if fault == Fault::RowsCarried {
                let mut before = <T::F as Format>::from_bits(0);
                rows.iter()
                    .map(|r| {
                        let mut all = vec![before];
                        all.extend_from_slice(r);
                        let s = exact(&all);
                        before = s;
                        s
                    })
                    .collect()
            } else {
                rows.iter().map(|r| exact(r)).collect()
            };
            exact(&sums)
        }
        CpuOrder::Numpy => {
            let zero = <T::F as Format>::from_bits(0);
            <T::F as Format>::add(zero, numpy_pairwise::<T::F>(terms, fault))
        }
    }
}

/// Where the sequential loop starts: `s = start; for x in terms { s = s + x }`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Start {
    /// `s = +0.0` (the loop of `binade sum`, and numpy's reduction identity).
    #[default]
    PlusZero,
    /// `s = -0.0` (Rust's `Iterator::sum` for floats).
    MinusZero,
    /// `s = terms[0]`, then the rest (numpy's `np.cumsum`); `+0.0` for an empty stream.
    First,
}

impl Start {
    /// The name used on the command line and in reports (`+0`, `-0`, `first`).
    pub fn name(self) -> &'static str {
        match self {
            Start::PlusZero => "+0",
            Start::MinusZero => "-0",
            Start::First => "first",
        }
    }
}

impl fmt::Display for Start {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Start {
    type Err = String;

    /// Parses `+0`, `-0` and `first`; the error is one line.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "+0" | "0" => Ok(Start::PlusZero),
            "-0" => Ok(Start::MinusZero),
            "first" => Ok(Start::First),
            _ => Err(format!("unknown start `{s}` (known: +0, -0, first)")),
        }
    }
}

/// The sequential loop from `start`, written out term by term (the reference for
/// [`restart`]).
pub fn loop_sum_from<F: Format>(terms: &[F::Value], start: Start) -> F::Value {
    let (s, rest) = match (start, terms.split_first()) {
        (Start::First, Some((&first, rest))) => (first, rest),
        (Start::MinusZero, _) => (F::from_bits(<F as crate::format::Layout>::SIGN), terms),
        _ => (F::from_bits(0), terms),
    };
    rest.iter().fold(s, |s, &x| F::add(s, x))
}

/// The sequential loop's result from `start`, given `from_plus_zero`, its result from `+0`
/// over the same `terms` (any engine's). Guarantee: the bits of [`loop_sum_from`].
///
/// The argument. Adding a value to a zero of either sign gives the value itself unless the
/// value is a zero too (then the result is `-0` only for `-0 + -0`). So two loops over the same
/// terms whose starts are zeros, or `x0` against `+0 + x0`, hold the same running sum from the
/// first term that is not a zero on (a NaN or an infinity included), and differ at most in the
/// sign of a zero before it. Their results differ only where every term is a zero; there the
/// loop from `start` is run as written (its terms are zeros: no rounding to model).
pub fn restart<F: Format>(from_plus_zero: F::Value, terms: &[F::Value], start: Start) -> F::Value {
    let magnitude = |v: F::Value| F::to_bits(v) & !<F as crate::format::Layout>::SIGN;
    if start == Start::PlusZero || magnitude(from_plus_zero) != 0 {
        return from_plus_zero;
    }
    if terms.iter().any(|&x| magnitude(x) != 0) {
        return from_plus_zero;
    }
    loop_sum_from::<F>(terms, start)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_sequential_and_round_trips() {
        let order: CpuOrder = "sequential".parse().unwrap();
        assert_eq!(order, CpuOrder::Sequential);
        assert_eq!(order.to_string().parse::<CpuOrder>(), Ok(order));
    }

    #[test]
    fn orders_parse_round_trip_and_refuse_bad_parameters() {
        for s in [
            "interleaved:2",
            "interleaved:16",
            "rows:1",
            "rows:1920",
            "numpy",
        ] {
            let order: CpuOrder = s.parse().unwrap();
            assert_eq!(order.to_string(), s);
        }
        for s in [
            "interleaved:3",
            "interleaved:0",
            "interleaved:x",
            "rows:0",
            "rows:-1",
        ] {
            let e = s.parse::<CpuOrder>().unwrap_err();
            assert!(e.contains("must be"), "{s}: {e}");
        }
        for s in ["", "reverse", "Sequential", "tree:8", "interleaved"] {
            let e = s.parse::<CpuOrder>().unwrap_err();
            assert!(e.starts_with("unknown CPU order"), "{s}: {e}");
            assert!(!e.contains('\n'), "{s}: {e}");
        }
    }
}
