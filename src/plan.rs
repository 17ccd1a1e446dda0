//! Plans: the binade each chunk's unit is computed for, guessed before the exact prefix is
//! known.
//!
//! A plan only decides which chunks the walk can step over in one move. The walk checks
//! every planned binade against the exact running sum, so a wrong plan costs term-by-term
//! chunks, never bits.

use std::fmt;
use std::str::FromStr;

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::format::{Format, Layout};
use crate::unit::Binade;

/// One planned binade per chunk; `None` plans the chunk term by term.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// The binade planned for each chunk, in chunk order.
    pub binades: Vec<Option<Binade>>,
}

/// How a plan is made. Every kind gives the loop's bits; they differ only in cost.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum PlanKind {
    /// The binade of the prefix of the chunks' tree sums (the default).
    TreePrefix,
    /// The tree-prefix binade plus one, on every chunk.
    OneTooHigh,
    /// The tree-prefix binade minus one, on every chunk.
    OneTooLow,
    /// Every chunk planned for the binade `[1, 2)` (a plan array left zeroed: exponent 0).
    AllZero,
    /// Every chunk planned for the binade `[2^e, 2^(e+1))`.
    Fixed(i32),
    /// Every chunk planned term by term.
    TermByTerm,
    /// Uniformly random normal binades (one in eight chunks term by term), from a seed.
    Random(u64),
    /// The tree-prefix plan of another input (a stale plan), given as its chunk sums' seed.
    Stale,
}

impl PlanKind {
    /// The plan kinds every experiment runs, in report order (`Stale` takes its plan from the
    /// next input kind; `Fixed` uses binade `[2^10, 2^11)`).
    pub fn standard(seed: u64) -> Vec<PlanKind> {
        vec![
            PlanKind::TreePrefix,
            PlanKind::OneTooHigh,
            PlanKind::OneTooLow,
            PlanKind::AllZero,
            PlanKind::Fixed(10),
            PlanKind::TermByTerm,
            PlanKind::Random(seed),
            PlanKind::Stale,
        ]
    }

    /// The name used on the command line and in reports.
    pub fn name(&self) -> String {
        match self {
            PlanKind::TreePrefix => "tree-prefix".into(),
            PlanKind::OneTooHigh => "one-too-high".into(),
            PlanKind::OneTooLow => "one-too-low".into(),
            PlanKind::AllZero => "all-zero".into(),
            PlanKind::Fixed(e) => format!("fixed:{e}"),
            PlanKind::TermByTerm => "term-by-term".into(),
            PlanKind::Random(s) => format!("random:{s}"),
            PlanKind::Stale => "stale".into(),
        }
    }

    /// The name without its parameter (`fixed`, `random`), for tables that group by kind.
    pub fn family(&self) -> &'static str {
        match self {
            PlanKind::TreePrefix => "tree-prefix",
            PlanKind::OneTooHigh => "one-too-high",
            PlanKind::OneTooLow => "one-too-low",
            PlanKind::AllZero => "all-zero",
            PlanKind::Fixed(_) => "fixed",
            PlanKind::TermByTerm => "term-by-term",
            PlanKind::Random(_) => "random",
            PlanKind::Stale => "stale",
        }
    }
}

impl fmt::Display for PlanKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

impl FromStr for PlanKind {
    type Err = String;
    /// Parses `tree-prefix`, `one-too-high`, `one-too-low`, `all-zero`, `fixed:E`,
    /// `term-by-term`, `random:SEED` and `stale`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || {
            format!("unknown plan `{s}` (known: tree-prefix, one-too-high, one-too-low, all-zero, fixed:E, term-by-term, random:SEED, stale)")
        };
        Ok(match s {
            "tree-prefix" => PlanKind::TreePrefix,
            "one-too-high" => PlanKind::OneTooHigh,
            "one-too-low" => PlanKind::OneTooLow,
            "all-zero" => PlanKind::AllZero,
            "term-by-term" => PlanKind::TermByTerm,
            "stale" => PlanKind::Stale,
            _ => {
                if let Some(e) = s.strip_prefix("fixed:") {
                    PlanKind::Fixed(e.parse().map_err(|_| bad())?)
                } else if let Some(seed) = s.strip_prefix("random:") {
                    PlanKind::Random(seed.parse().map_err(|_| bad())?)
                } else if s == "random" {
                    PlanKind::Random(1)
                } else {
                    return Err(bad());
                }
            }
        })
    }
}

/// The tree-prefix plan: chunk `i` is planned for the binade of `sums[0] + ... + sums[i-1]`
/// (added in order, natively); a prefix that is zero, subnormal, negative or not finite plans
/// the chunk term by term.
pub fn tree_prefix<F: Format>(sums: &[F::Value]) -> Plan {
    let mut prefix = F::from_bits(0);
    let mut binades = Vec::with_capacity(sums.len());
    for &s in sums {
        binades.push(Binade::of::<F>(F::to_bits(prefix)));
        prefix = F::add(prefix, s);
    }
    Plan { binades }
}

/// The plan of kind `kind` for an input whose chunk tree sums are `sums`. `stale` supplies
/// the chunk sums of another input for [`PlanKind::Stale`] (cut or padded to length).
pub fn make<F: Format>(kind: &PlanKind, sums: &[F::Value], stale: Option<&[F::Value]>) -> Plan {
    let n = sums.len();
    let shift = |d: i32| {
        let base = tree_prefix::<F>(sums);
        let binades = base
            .binades
            .iter()
            .map(|b| b.and_then(|b| Binade::from_exponent::<F>(b.exponent::<F>() + d)))
            .collect();
        Plan { binades }
    };
    match kind {
        PlanKind::TreePrefix => tree_prefix::<F>(sums),
        PlanKind::OneTooHigh => shift(1),
        PlanKind::OneTooLow => shift(-1),
        PlanKind::AllZero => fixed::<F>(n, 0),
        PlanKind::Fixed(e) => fixed::<F>(n, *e),
        PlanKind::TermByTerm => Plan {
            binades: vec![None; n],
        },
        PlanKind::Random(seed) => random::<F>(n, *seed),
        PlanKind::Stale => {
            let other = stale.unwrap_or(&[]);
            let mut plan = tree_prefix::<F>(other);
            plan.binades.resize(n, None);
            plan
        }
    }
}

fn fixed<F: Format>(n: usize, e: i32) -> Plan {
    Plan {
        binades: vec![Binade::from_exponent::<F>(e); n],
    }
}

fn random<F: Format>(n: usize, seed: u64) -> Plan {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let binades = (0..n)
        .map(|_| {
            if rng.random_range(0..8) == 0 {
                None
            } else {
                Some(Binade(rng.random_range(1..=F::MAX_NORMAL_FIELD)))
            }
        })
        .collect();
    Plan { binades }
}
