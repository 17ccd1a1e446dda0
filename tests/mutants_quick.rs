//! The quick mutation battery: every named mutant of the Rust algebra must be killed within
//! the quick budget, and every plan must leave every result identical. A change that blinds
//! the checks fails here.

use binade::algebra::Exact;
use binade::verify::kill::{run_all_formats, Budget, Check};
use binade::verify::mutant::Mutant;

const SEED: u64 = 20261130;

#[test]
fn correct_algebra_passes_every_check() {
    let budget = Budget::quick(SEED);
    for check in Check::ALL {
        let t = run_all_formats(check, &Exact, &budget);
        assert!(t.samples > 0, "{} checked nothing", check.name());
        assert_eq!(
            t.failures,
            0,
            "{} failed on the correct algebra (seed {SEED}): {:?}",
            check.name(),
            t.example
        );
    }
}

/// Every named mutant is killed, and by a wrong result, except `landing-refused`: refusing a
/// landing exactly on `2^(e+1)` changes no sum (the walk falls back to the loop there), so
/// only the coverage checks (a refusal where the rule must apply) can see it.
#[test]
fn every_named_mutant_is_killed() {
    let budget = Budget::quick(SEED);
    let (mut survivors, mut coverage_only) = (Vec::new(), Vec::new());
    for mutant in Mutant::ALL.into_iter().filter(|m| *m != Mutant::None) {
        let tallies: Vec<_> = Check::ALL
            .iter()
            .map(|&check| run_all_formats(check, &mutant, &budget))
            .collect();
        if tallies.iter().all(|t| t.failures == 0) {
            survivors.push(mutant.name());
        } else if tallies.iter().all(|t| t.wrong == 0) {
            coverage_only.push(mutant.name());
        }
    }
    assert!(
        survivors.is_empty(),
        "mutants survived the quick battery (seed {SEED}): {survivors:?}"
    );
    assert_eq!(
        coverage_only,
        ["landing-refused"],
        "mutants killed only by a coverage check, no wrong result (seed {SEED})"
    );
}
