//! The kill search of the signed units on the device: a pipeline carrying signed units
//! (built with a fault or without) sums every signed stream under the device's plan, both
//! walks, and under plan codes moved one binade and given random signs; the first total whose
//! bits differ from the CPU loop's is named for replay.

use anyhow::Result;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::{GpuOrderedSum, UnitKind, WalkKind};
use crate::format::{same_result, F64};
use crate::layout::PLAN_NEGATIVE;
use crate::plan::PlanKind;
use crate::verify::signed_inputs::SignedKind;
use crate::walk::loop_sum;

/// Terms of each stream the search sums.
pub const KILL_SIZES: [usize; 2] = [100_003, 1 << 20];

/// `planned` (plan codes) each moved by -1, 0 or +1 binade at random, one in four given the
/// other sign; a code 0 or one moved out of the normal binades becomes 0 (term by term). Any
/// codes give the loop's bits, so these test that the units' checks, not the plan, decide.
pub fn moved_codes(planned: &[u32], rng: &mut Xoshiro256PlusPlus) -> Vec<u32> {
    planned
        .iter()
        .map(|&c| {
            let b = (c & !PLAN_NEGATIVE) as i64 + rng.random_range(-1..=1i64);
            let flip = rng.random_range(0..4u32) == 0;
            let sign = (c ^ if flip { PLAN_NEGATIVE } else { 0 }) & PLAN_NEGATIVE;
            if c == 0 || b <= 0 || b >= 0x7ff {
                0
            } else {
                b as u32 | sign
            }
        })
        .collect()
}

/// The first wrong total of `sum` (which must carry [`UnitKind::Signed`]) over every
/// [`SignedKind`] at [`KILL_SIZES`] from `seed`, or `None` where every total had the loop's
/// bits (a NaN equals any NaN).
pub fn first_wrong_signed(sum: &GpuOrderedSum, seed: u64) -> Result<Option<String>> {
    if sum.units() != UnitKind::Signed {
        anyhow::bail!("the signed kill search needs a pipeline carrying signed units");
    }
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    for kind in SignedKind::ALL {
        for n in KILL_SIZES {
            let terms = kind.generate(n, seed ^ n as u64);
            let want = loop_sum::<F64>(&terms).to_bits();
            let dev = sum.upload(&terms)?;
            for walk in WalkKind::ALL {
                let s = sum.clone().with_walk(walk);
                let mut job = s.job(dev.slice(0..n), std::slice::from_ref(&(0..n)))?;
                s.launch(&mut job, &PlanKind::TreePrefix, None)?;
                let planned = s.stages(&job)?.binades;
                let tree = s.results(&job)?[0].total.to_bits();
                let moved = moved_codes(&planned, &mut rng);
                let moved_total = s.run_with_codes(&mut job, &moved)?[0].total.to_bits();
                for (plan, got) in [("tree-prefix", tree), ("moved codes", moved_total)] {
                    if !same_result::<F64>(got, want) {
                        return Ok(Some(format!(
                            "{} n {n} {} {plan} seed {seed:#x}: {:e}, the loop {:e}",
                            kind.name(),
                            walk.name(),
                            f64::from_bits(got),
                            f64::from_bits(want)
                        )));
                    }
                }
            }
        }
    }
    Ok(None)
}
