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
//!   (float VIF's rows, then rows).
//!
//! [`ordered_sum_in`] gives each order's bits without running its loop term by term: every
//! accumulator and every row is itself a sequential loop, whose bits the fast engine
//! ([`crate::fast::ordered_sum_fast`]) reproduces exactly; what is left (the K accumulators'
//! reduction by halves, the loop over the row sums) is a fixed sequence of native adds of
//! those exact values, done natively. So the result is the order's own loop's, bit for bit,
//! for every input (a NaN up to its payload, as for the sequential engine).

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
}

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

    /// Parses `sequential`, `interleaved:K` (K in 2, 4, 8, 16) and `rows:W` (W >= 1). Every
    /// error is one line.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s == "sequential" {
            return Ok(CpuOrder::Sequential);
        }
        let known = "known: sequential, interleaved:K with K = 2, 4, 8 or 16, rows:W with W >= 1";
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
    }
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
}

impl Fault {
    /// Every fault, the correct engine first.
    pub const ALL: [Fault; 5] = [
        Fault::None,
        Fault::LanesContiguous,
        Fault::ReducedInOrder,
        Fault::RowsCarried,
        Fault::ShortRowDropped,
    ];
}

/// [`ordered_sum_in`] with `fault` (the correct engine for [`Fault::None`]).
pub fn ordered_sum_in_with<T: FastTerm>(terms: &[T], order: CpuOrder, fault: Fault) -> T {
    let exact = crate::fast::ordered_sum_fast::<T>;
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
    }
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
        for s in ["interleaved:2", "interleaved:16", "rows:1", "rows:1920"] {
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
