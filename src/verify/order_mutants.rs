//! The CPU orders' own mutants ([`crate::order::Fault`]): each shortcut of
//! [`crate::order::ordered_sum_in`] broken alone, and the inputs that must expose it by a
//! wrong total.

use crate::format::{same_result, Format, F64};
use crate::order::{loop_sum_in, ordered_sum_in_with, CpuOrder, Fault, INTERLEAVED_K};
use crate::verify::inputs::InputKind;

/// A named mutant of the orders' engine.
#[derive(Clone, Copy, Debug)]
pub struct OrderMutant {
    /// Its name in the kill matrix.
    pub name: &'static str,
    /// The fault it runs with.
    pub fault: Fault,
}

/// Every mutant, by name; the first entry is the correct engine.
pub fn order_mutants() -> Vec<OrderMutant> {
    Fault::ALL
        .iter()
        .map(|&fault| OrderMutant {
            name: match fault {
                Fault::None => "none (correct)",
                Fault::LanesContiguous => "interleaved lanes contiguous, not strided",
                Fault::ReducedInOrder => "interleaved lanes combined left to right",
                Fault::RowsCarried => "rows summed from the rows before them",
                Fault::ShortRowDropped => "short last row dropped",
                Fault::NumpySplitUnaligned => "numpy's split not rounded to its eight lanes",
                Fault::NumpyLanesInOrder => "numpy's eight lanes combined left to right",
            },
            fault,
        })
        .collect()
}

/// One mutant's kill row: the first input (kind, size, order) where its total differs from
/// the order's loop, or `None`.
#[derive(Clone, Debug)]
pub struct OrderKillRow {
    /// The mutant.
    pub mutant: OrderMutant,
    /// The first input with a wrong total, named for replay.
    pub wrong: Option<String>,
}

impl OrderKillRow {
    /// The correct engine has no wrong total; every mutant has one.
    pub fn caught(&self) -> bool {
        self.wrong.is_some() != (self.mutant.fault == Fault::None)
    }
}

/// Every order of the kill rows.
pub fn kill_orders() -> Vec<CpuOrder> {
    let mut v: Vec<CpuOrder> = INTERLEAVED_K
        .iter()
        .map(|&k| CpuOrder::Interleaved(k))
        .collect();
    v.extend([7, 1000].map(CpuOrder::Rows));
    v.push(CpuOrder::Numpy);
    v
}

/// Runs every mutant on every input kind at 10,007 f64 terms (seed `seed ^ kind`) under every
/// order of [`kill_orders`].
pub fn kill_rows(seed: u64) -> Vec<OrderKillRow> {
    const N: usize = 10_007;
    let inputs: Vec<(InputKind, Vec<f64>)> = InputKind::ALL
        .iter()
        .map(|&k| (k, k.generate::<F64>(N, seed ^ k as u64)))
        .collect();
    order_mutants()
        .into_iter()
        .map(|mutant| {
            let wrong = inputs.iter().find_map(|(kind, terms)| {
                kill_orders().into_iter().find_map(|order| {
                    let want = loop_sum_in::<F64>(terms, order);
                    let got = ordered_sum_in_with(terms, order, mutant.fault);
                    (!same_result::<F64>(F64::to_bits(got), F64::to_bits(want)))
                        .then(|| format!("seed {seed:#x} ^ kind, {kind:?}, {N} terms, {order}"))
                })
            });
            OrderKillRow { mutant, wrong }
        })
        .collect()
}
