//! The fast CPU engine's own mutants: each of its checks ([`crate::fast::Checks`]) switched
//! off alone, and the inputs that must expose it by a wrong sum (or, for the plan-only check,
//! must not).

use crate::fast::{ordered_sum_fast_with, ordered_sum_par_with, Checks, FastTerm, Shape, CHUNK};
use crate::format::{same_result, Format, F32, F64};
use crate::verify::inputs::{
    excursion_above_binade, infinity_then_its_opposite, leaves_by_its_bound,
    negative_sum_leaves_by_one_term, plan_behind_crossing, signed_f32_terms_past_the_lanes,
    signed_plan_behind_crossing, signed_term_past_the_rounding, signed_ties,
    signed_ties_below_the_binade, term_past_the_rounding, InputKind,
};
use crate::walk::loop_sum;

/// What a mutant must do to count as caught.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expect {
    /// The correct engine: the loop's bits on every input.
    Exact,
    /// A wrong sum on some input, on one thread and on threads.
    WrongBoth,
    /// A wrong sum on some input on threads (the check exists only there).
    WrongThreads,
    /// A plan-only fault: the loop's bits on every input (only the time may change).
    SameBits,
}

/// A named mutant of the fast engine.
#[derive(Clone, Copy, Debug)]
pub struct FastMutant {
    /// Its name in the kill matrix.
    pub name: &'static str,
    /// The checks it runs with.
    pub checks: Checks,
    /// What catches it.
    pub expect: Expect,
}

/// Every mutant, by name; the first entry is the correct engine.
pub fn fast_mutants() -> Vec<FastMutant> {
    let with = |f: fn(&mut Checks)| {
        let mut c = Checks::ALL;
        f(&mut c);
        c
    };
    vec![
        FastMutant {
            name: "none (correct)",
            checks: Checks::ALL,
            expect: Expect::Exact,
        },
        FastMutant {
            name: "tie check removed",
            checks: with(|c| c.ties = false),
            expect: Expect::WrongBoth,
        },
        FastMutant {
            name: "sign check removed",
            checks: with(|c| c.sign = false),
            expect: Expect::WrongBoth,
        },
        FastMutant {
            name: "bound ignored",
            checks: with(|c| c.bound = false),
            expect: Expect::WrongBoth,
        },
        FastMutant {
            name: "first tie's start parity ignored",
            checks: with(|c| c.first_tie = false),
            expect: Expect::WrongBoth,
        },
        FastMutant {
            name: "later ties' corrections dropped",
            checks: with(|c| c.later_ties = false),
            expect: Expect::WrongBoth,
        },
        FastMutant {
            name: "planned binade trusted (no field check)",
            checks: with(|c| c.field = false),
            expect: Expect::WrongThreads,
        },
        FastMutant {
            name: "planned signed unit trusted (no sign or binade check)",
            checks: with(|c| c.signed_key = false),
            expect: Expect::WrongThreads,
        },
        FastMutant {
            name: "re-formed unit for the planned, not the walked, binade",
            checks: with(|c| c.reform_walked = false),
            expect: Expect::WrongThreads,
        },
        FastMutant {
            name: "infinite sum kept through NaN or the other infinity",
            checks: with(|c| c.infinity_terms = false),
            expect: Expect::WrongBoth,
        },
        FastMutant {
            name: "signed chunk's running bounds ignored (only its end checked)",
            checks: with(|c| c.signed_bounds = false),
            expect: Expect::WrongBoth,
        },
        FastMutant {
            name: "signed chunk's ties taken as rint",
            checks: with(|c| c.signed_ties = false),
            expect: Expect::WrongBoth,
        },
        FastMutant {
            name: "signed chunk's bounds not widened by its ties",
            checks: with(|c| c.signed_tie_bounds = false),
            expect: Expect::WrongBoth,
        },
        FastMutant {
            name: "negative sum's bounds not mirrored",
            checks: with(|c| c.mirrored = false),
            expect: Expect::WrongBoth,
        },
        FastMutant {
            name: "signed path off: chunks with negative terms term by term (timing only)",
            checks: with(|c| c.signed_path = false),
            expect: Expect::SameBits,
        },
        FastMutant {
            name: "no cooldown after a refused chunk: every chunk tries a path (timing only)",
            checks: with(|c| c.cooldown = false),
            expect: Expect::SameBits,
        },
        FastMutant {
            name: "scan's sum bound at 2^53 (no bound on a term's rounding)",
            checks: with(|c| c.scan_bound = false),
            expect: Expect::WrongBoth,
        },
        FastMutant {
            name: "bit-mask pass: base's low bit not flipped at ties that rounded up",
            checks: with(|c| c.down_flip = false),
            expect: Expect::WrongBoth,
        },
        FastMutant {
            name: "bit-mask pass: every tie counted as one that rounded up (the tie bits without the base bits)",
            checks: with(|c| c.down_count = false),
            expect: Expect::WrongBoth,
        },
        FastMutant {
            name: "tie corrections by PEXT: a word's first tie not compared with the words before (a path only some CPUs take)",
            checks: with(|c| c.pext_carry = false),
            // Where this CPU does not take the PEXT path the mutant must change no bit.
            expect: if crate::fast::has_fast_pext() {
                Expect::WrongBoth
            } else {
                Expect::SameBits
            },
        },
        FastMutant {
            name: "two-read plan: look-back reads an unfinished block as zero (plan only)",
            checks: with(|c| {
                c.one_read_plan = false;
                c.lookback_waits = false;
            }),
            expect: Expect::SameBits,
        },
        FastMutant {
            name: "look-back ignores the walk's exact sums (plan only)",
            checks: with(|c| c.exact_plan = false),
            expect: Expect::SameBits,
        },
        FastMutant {
            name: "plan adds plain chunk sums, not the units (plan only)",
            checks: with(|c| c.unit_plan = false),
            expect: Expect::SameBits,
        },
        FastMutant {
            name: "plan reads its block twice, aggregates first (timing only)",
            checks: with(|c| c.one_read_plan = false),
            expect: Expect::SameBits,
        },
        FastMutant {
            name: "signed scan's negative parts dropped (|r| summed with its sign)",
            checks: with(|c| c.signed_neg_part = false),
            expect: Expect::WrongBoth,
        },
        FastMutant {
            name:
                "signed scan's f32 lanes keep a sub-block whatever its largest |r| (bound ignored)",
            checks: with(|c| c.signed_lane_bound = false),
            expect: Expect::WrongBoth,
        },
        FastMutant {
            name: "one-read plan: a chunk without a unit marked as keeping an infinite sum",
            checks: with(|c| c.keeps_need_unit = false),
            expect: Expect::WrongThreads,
        },
    ]
}

/// The first input on which `f` differs from the loop, by name: every input kind at 10,000
/// and 300,000 f64 terms and 10,000 f32 terms from `seed`, then the hand-made
/// `inputs::excursion_above_binade`, `inputs::plan_behind_crossing`,
/// `inputs::signed_plan_behind_crossing`, `inputs::leaves_by_its_bound`,
/// `inputs::infinity_then_its_opposite`, `inputs::signed_ties`,
/// `inputs::signed_ties_below_the_binade`, `inputs::negative_sum_leaves_by_one_term`,
/// `inputs::term_past_the_rounding`,
/// `inputs::signed_term_past_the_rounding` and, in f32,
/// `inputs::signed_f32_terms_past_the_lanes` (None: the loop's bits on all of them).
pub fn first_wrong(
    seed: u64,
    f64_sum: impl Fn(&[f64]) -> f64,
    f32_sum: impl Fn(&[f32]) -> f32,
) -> Option<String> {
    fn wrong<T: FastTerm>(terms: &[T], sum: &impl Fn(&[T]) -> T) -> bool {
        let (got, want) = (sum(terms), loop_sum::<T::F>(terms));
        !same_result::<T::F>(
            <T::F as Format>::to_bits(got),
            <T::F as Format>::to_bits(want),
        )
    }
    for kind in InputKind::ALL {
        for n in [10_000usize, 300_000] {
            if wrong(&kind.generate::<F64>(n, seed), &f64_sum) {
                return Some(format!("{}, {n} f64 terms, seed {seed:#x}", kind.name()));
            }
        }
        if wrong(&kind.generate::<F32>(10_000, seed), &f32_sum) {
            return Some(format!("{}, 10000 f32 terms, seed {seed:#x}", kind.name()));
        }
    }
    for (name, terms) in [
        ("excursion above the binade", excursion_above_binade(CHUNK)),
        ("plan behind a crossing", plan_behind_crossing(4 * CHUNK, 3)),
        (
            "signed chunks planned behind a crossing",
            signed_plan_behind_crossing(4 * CHUNK, 3),
        ),
        ("a chunk that leaves its binade", leaves_by_its_bound(CHUNK)),
        (
            "an infinite sum meets the other infinity",
            infinity_then_its_opposite(CHUNK),
        ),
        ("ties of both signs", signed_ties(CHUNK)),
        (
            "signed ties below the binade",
            signed_ties_below_the_binade(CHUNK),
        ),
        (
            "a negative sum leaves its binade by one term",
            negative_sum_leaves_by_one_term(CHUNK),
        ),
        (
            "a term past the scan's rounding",
            term_past_the_rounding(CHUNK),
        ),
        (
            "a term past the signed scan's rounding",
            signed_term_past_the_rounding(CHUNK),
        ),
    ] {
        if wrong(&terms, &f64_sum) {
            return Some(name.into());
        }
    }
    if wrong(&signed_f32_terms_past_the_lanes(CHUNK), &f32_sum) {
        return Some("f32 terms past the signed scan's lanes".into());
    }
    None
}

/// One row of the fast engine's kill matrix.
#[derive(Clone, Debug)]
pub struct KillRow {
    /// The mutant.
    pub mutant: FastMutant,
    /// The first wrong input on one thread (None: the loop's bits everywhere).
    pub one: Option<String>,
    /// The first wrong input on rayon's threads.
    pub threads: Option<String>,
}

impl KillRow {
    /// True when the row is what its [`Expect`] asks for.
    pub fn caught(&self) -> bool {
        match self.mutant.expect {
            Expect::Exact | Expect::SameBits => self.one.is_none() && self.threads.is_none(),
            Expect::WrongBoth => self.one.is_some() && self.threads.is_some(),
            Expect::WrongThreads => self.threads.is_some(),
        }
    }
}

/// Threads of the pool the kill rows' threaded sums run in: more than one, so the blocks and
/// their walk run whatever the machine (a pool of one takes the one-thread engine).
pub const KILL_THREADS: usize = 4;

/// Every mutant of [`fast_mutants`] against the inputs of [`first_wrong`], on one thread and
/// on a pool of [`KILL_THREADS`] threads (blocks of 4 chunks, so the small inputs span several
/// blocks). `Err` where the pool cannot be built.
pub fn kill_rows(seed: u64) -> Result<Vec<KillRow>, rayon::ThreadPoolBuildError> {
    let shape = Shape {
        chunk: CHUNK,
        block_chunks: 4,
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(KILL_THREADS)
        .build()?;
    Ok(fast_mutants()
        .into_iter()
        .map(|m| KillRow {
            mutant: m,
            one: first_wrong(
                seed,
                |t| ordered_sum_fast_with(t, m.checks, CHUNK),
                |t| ordered_sum_fast_with(t, m.checks, CHUNK),
            ),
            threads: pool.install(|| {
                first_wrong(
                    seed,
                    |t| ordered_sum_par_with(t, m.checks, shape).total,
                    |t| ordered_sum_par_with(t, m.checks, shape).total,
                )
            }),
        })
        .collect())
}
