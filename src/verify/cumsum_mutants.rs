//! The prefix-sum engine's own mutants ([`crate::cumsum::Fault`]): each of its shortcuts
//! broken alone, and the inputs that must expose it by a wrong output at some position.

use crate::cumsum::{cumsum_with, first_difference, loop_cumsum_into, Fault, Start};
use crate::fast::{FastTerm, Shape, CHUNK};
use crate::format::{Format, F32, F64};
use crate::verify::inputs::InputKind;

/// A named mutant of the prefix-sum engine.
#[derive(Clone, Copy, Debug)]
pub struct CumsumMutant {
    /// Its name in the kill matrix.
    pub name: &'static str,
    /// The fault it runs with.
    pub fault: Fault,
}

/// Every mutant, by name; the first entry is the correct engine.
pub fn cumsum_mutants() -> Vec<CumsumMutant> {
    Fault::ALL
        .iter()
        .map(|&fault| CumsumMutant {
            name: match fault {
                Fault::None => "none (correct)",
                Fault::PlannedStart => "block start from the plan, not the exact sum",
                Fault::FirstTermDropped => "first-term start taken as +0",
                Fault::BlockFirstSkipped => "a block's first output skipped",
                Fault::StartOneBlockLate => "block start one block late",
            },
            fault,
        })
        .collect()
}

/// The shape of the kill rows: 1,024-term chunks in blocks of 4, so the inputs span blocks.
pub const KILL_SHAPE: Shape = Shape {
    chunk: CHUNK,
    block_chunks: 4,
};

/// Threads of the pool the kill rows run in (more than one: one thread runs the loop).
pub const KILL_THREADS: usize = 4;

/// One case: the engine with `fault` against the loop on `terms` from `start`; the first
/// differing index, if any.
pub fn wrong_at<T: FastTerm>(
    terms: &[T],
    start: Start,
    shape: Shape,
    fault: Fault,
) -> Option<usize> {
    let zero = <T::F as Format>::from_bits(0);
    let (mut got, mut want) = (vec![zero; terms.len()], vec![zero; terms.len()]);
    cumsum_with(terms, start, &mut got, shape, fault);
    loop_cumsum_into(terms, start, &mut want);
    first_difference(&got, &want)
}

/// The first input on which the engine with `fault` differs from the loop at some position,
/// described (None: the loop's bits at every position of all of them): every input kind at
/// 10,000 f64 and f32 terms from `seed` under every [`Start`], then `-0.0` terms from the first
/// term on (under [`Start::FirstTerm`]), in the current rayon pool, blocks of `shape`.
pub fn first_wrong(seed: u64, shape: Shape, fault: Fault) -> Option<String> {
    for kind in InputKind::ALL {
        for start in Start::ALL {
            let t64 = kind.generate::<F64>(10_000, seed);
            if let Some(i) = wrong_at(&t64, start, shape, fault) {
                return Some(format!(
                    "{}, 10000 f64 terms, start {start}, seed {seed:#x}: index {i}",
                    kind.name()
                ));
            }
            let t32 = kind.generate::<F32>(10_000, seed);
            if let Some(i) = wrong_at(&t32, start, shape, fault) {
                return Some(format!(
                    "{}, 10000 f32 terms, start {start}, seed {seed:#x}: index {i}",
                    kind.name()
                ));
            }
        }
    }
    let zeros = vec![-0.0f64; 3 * shape.chunk * shape.block_chunks + 5];
    wrong_at(&zeros, Start::FirstTerm, shape, fault)
        .map(|i| format!("-0.0 terms, start first-term: index {i}"))
}

/// One row of the prefix-sum engine's kill matrix.
#[derive(Clone, Debug)]
pub struct KillRow {
    /// The mutant.
    pub mutant: CumsumMutant,
    /// The first wrong input and position (None: the loop's bits everywhere).
    pub wrong: Option<String>,
}

impl KillRow {
    /// True when the row is what it must be: the correct engine right everywhere, every
    /// mutant wrong somewhere.
    pub fn caught(&self) -> bool {
        (self.mutant.fault == Fault::None) == self.wrong.is_none()
    }
}

/// Every mutant of [`cumsum_mutants`] against the inputs of [`first_wrong`] on a pool of
/// [`KILL_THREADS`] threads in blocks of [`KILL_SHAPE`]. `Err` where the pool cannot be built.
pub fn kill_rows(seed: u64) -> Result<Vec<KillRow>, rayon::ThreadPoolBuildError> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(KILL_THREADS)
        .build()?;
    Ok(cumsum_mutants()
        .into_iter()
        .map(|m| KillRow {
            mutant: m,
            wrong: pool.install(|| first_wrong(seed, KILL_SHAPE, m.fault)),
        })
        .collect())
}
