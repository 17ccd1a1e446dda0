//! The kill matrix: every check of the battery against one implementation of the algebra,
//! with a budget, recording whether it failed (killed the mutant) and after how many samples.

use crate::algebra::Algebra;
use crate::format::{Format, E4M3, E5M2, F32, F64};
use crate::plan::PlanKind;
use crate::verify::battery::{
    exhaustive_pairs, exhaustive_triples, one_term, pipeline_cases, FailureKind, Reference, Tally,
};
use crate::verify::inputs::InputKind;
use crate::verify::sampler::SampleClass;

/// One check of the battery.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Check {
    /// Random one-term samples (every class) against the f64 add.
    OneTermF64Native,
    /// Random one-term samples against MPFR at f64's precision.
    OneTermF64Mpfr,
    /// Random one-term samples against the f32 add.
    OneTermF32Native,
    /// Every pair of e4m3.
    PairsE4M3,
    /// Every pair of e5m2.
    PairsE5M2,
    /// Every (start, term, term) triple of e4m3.
    TriplesE4M3,
    /// The pipeline on every input kind and plan, f64.
    PipelineF64,
    /// The pipeline on every input kind and plan, f32.
    PipelineF32,
}

impl Check {
    /// Every check, in the order they run (cheapest first).
    pub const ALL: [Check; 8] = [
        Check::OneTermF64Native,
        Check::OneTermF32Native,
        Check::OneTermF64Mpfr,
        Check::PairsE4M3,
        Check::PairsE5M2,
        Check::TriplesE4M3,
        Check::PipelineF64,
        Check::PipelineF32,
    ];

    /// The name used in reports.
    pub fn name(self) -> &'static str {
        match self {
            Check::OneTermF64Native => "one-term f64/native",
            Check::OneTermF64Mpfr => "one-term f64/MPFR",
            Check::OneTermF32Native => "one-term f32/native",
            Check::PairsE4M3 => "all pairs e4m3",
            Check::PairsE5M2 => "all pairs e5m2",
            Check::TriplesE4M3 => "all triples e4m3",
            Check::PipelineF64 => "pipeline f64",
            Check::PipelineF32 => "pipeline f32",
        }
    }
}

/// How much each check may spend.
#[derive(Clone, Debug)]
pub struct Budget {
    /// One-term samples per class.
    pub per_class: u64,
    /// Pipeline sizes (every input kind and plan at each).
    pub sizes: Vec<usize>,
    /// Plans for the pipeline checks.
    pub plans: Vec<PlanKind>,
    /// Seed of every random choice.
    pub seed: u64,
}

impl Budget {
    /// The small budget the CI test uses.
    pub fn quick(seed: u64) -> Budget {
        Budget {
            per_class: 20_000,
            sizes: vec![1025, 5000],
            plans: PlanKind::standard(seed),
            seed,
        }
    }
}

fn one_term_all<F: Format, A: Algebra<F>>(alg: &A, b: &Budget, reference: Reference) -> Tally {
    SampleClass::ALL
        .iter()
        .map(|&c| one_term::<F, A>(alg, c, b.per_class, b.seed, reference))
        .fold(Tally::default(), Tally::merge)
}

fn pipeline_all<F: Format, A: Algebra<F>>(alg: &A, b: &Budget) -> Tally {
    let mut t = Tally::default();
    let kinds = InputKind::ALL;
    for (i, &kind) in kinds.iter().enumerate() {
        for &n in &b.sizes {
            for c in
                pipeline_cases::<F, A>(alg, kind, kinds[(i + 1) % kinds.len()], n, &b.plans, b.seed)
            {
                if !c.identical {
                    t.fail(FailureKind::WrongResult, || {
                        format!(
                            "{}: kind {} n {} plan {} seed {}: walk {:#x}, loop {:#x}",
                            F::NAME,
                            c.input,
                            c.n,
                            c.plan,
                            b.seed,
                            c.walk_bits,
                            c.loop_bits
                        )
                    });
                }
                if c.fast_identical == Some(false) {
                    // The loop and the fast engine beside the pipeline disagree: the reference
                    // of this check is in doubt, whatever the algebra under test.
                    t.fail(FailureKind::OraclesDisagree, || {
                        format!(
                            "{}: kind {} n {} seed {}: the fast engine {:?}, loop {:#x}",
                            F::NAME,
                            c.input,
                            c.n,
                            b.seed,
                            c.fast_bits,
                            c.loop_bits
                        )
                    });
                }
                t.applied += c.applied as u64;
                t.samples += 1;
            }
        }
    }
    t
}

/// Runs `check` on an implementation of the f64 and f32 algebra (the tiny-format checks give
/// `None`).
pub fn run_wide<A: Algebra<F64> + Algebra<F32>>(
    check: Check,
    alg: &A,
    b: &Budget,
) -> Option<Tally> {
    Some(match check {
        Check::OneTermF64Native => one_term_all::<F64, A>(alg, b, Reference::Native),
        Check::OneTermF64Mpfr => one_term_all::<F64, A>(alg, b, Reference::Mpfr),
        Check::OneTermF32Native => one_term_all::<F32, A>(alg, b, Reference::Native),
        Check::PipelineF64 => pipeline_all::<F64, A>(alg, b),
        Check::PipelineF32 => pipeline_all::<F32, A>(alg, b),
        _ => return None,
    })
}

/// Runs `check` on an implementation of the algebra for every format.
pub fn run_all_formats<A>(check: Check, alg: &A, b: &Budget) -> Tally
where
    A: Algebra<F64> + Algebra<F32> + Algebra<E4M3> + Algebra<E5M2>,
{
    match check {
        Check::PairsE4M3 => exhaustive_pairs::<E4M3, A>(alg),
        Check::PairsE5M2 => exhaustive_pairs::<E5M2, A>(alg),
        Check::TriplesE4M3 => exhaustive_triples::<E4M3, A>(alg),
        _ => run_wide(check, alg, b).unwrap_or_default(),
    }
}
