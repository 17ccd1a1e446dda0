//! The fast CPU engine's own mutants: each of its checks ([`crate::fast::Checks`]) switched
//! off alone, and the inputs that must expose it by a wrong sum.

use crate::fast::{ordered_sum_fast_with, ordered_sum_par_with, Checks, CHUNK};
use crate::format::{same_result, F64};
use crate::verify::inputs::{excursion_above_binade, InputKind};
use crate::walk::loop_sum;

/// Each check switched off alone, by name; the first entry is the correct engine.
pub const FAST_MUTANTS: [(&str, Checks); 4] = [
    ("none (correct)", Checks::ALL),
    (
        "tie check removed",
        Checks {
            ties: false,
            ..Checks::ALL
        },
    ),
    (
        "sign check removed",
        Checks {
            sign: false,
            ..Checks::ALL
        },
    ),
    (
        "bound ignored",
        Checks {
            bound: false,
            ..Checks::ALL
        },
    ),
];

/// The first input on which `f` differs from the loop, by name: every input kind at 10,000
/// and 300,000 terms from `seed`, then `inputs::excursion_above_binade` (None: the loop's
/// bits on all of them).
pub fn first_wrong(seed: u64, f: impl Fn(&[f64]) -> f64) -> Option<String> {
    for kind in InputKind::ALL {
        for n in [10_000usize, 300_000] {
            let terms = kind.generate::<F64>(n, seed);
            if !same_result::<F64>(f(&terms).to_bits(), loop_sum::<F64>(&terms).to_bits()) {
                return Some(format!("{}, {n} terms, seed {seed:#x}", kind.name()));
            }
        }
    }
    let terms = excursion_above_binade(CHUNK);
    let wrong = !same_result::<F64>(f(&terms).to_bits(), loop_sum::<F64>(&terms).to_bits());
    wrong.then(|| "excursion above the binade".into())
}

/// For every mutant of [`FAST_MUTANTS`]: its name and the first wrong input on one thread
/// and on rayon's threads.
pub fn kill_rows(seed: u64) -> Vec<(&'static str, Option<String>, Option<String>)> {
    FAST_MUTANTS
        .iter()
        .map(|&(name, checks)| {
            (
                name,
                first_wrong(seed, |t| ordered_sum_fast_with(t, checks)),
                first_wrong(seed, |t| ordered_sum_par_with(t, checks)),
            )
        })
        .collect()
}
