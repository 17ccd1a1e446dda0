//! The checks of `gpu-parity`: exact sums against the loop, the tree baseline's distance,
//! and the device's stages against the host's layout, on the standard sizes and long streams.

use std::ops::Range;

use anyhow::Result;
use cudarc::driver::CudaView;
use rayon::prelude::*;

use super::onepass::{self, EngineCheck};
use super::walked;
use super::Settings;
use crate::format::{same_result, F64};
use crate::gpu::ordered_sum::walked::WalkedSum;
use crate::gpu::{GpuOrderedSum, GpuSum, OnePassSum, Stages, WalkKind};
use crate::plan::{tree_prefix, PlanKind};
use crate::verify::inputs::InputKind;
use crate::verify::mutant::Mutant;
use crate::walk::{chunk_sums, chunk_units, loop_sum};

/// One exact sum checked against the loop.
#[derive(Clone, Debug)]
pub(super) struct Check {
    pub(super) kind: InputKind,
    pub(super) n: usize,
    pub(super) plan: String,
    pub(super) walk: WalkKind,
    pub(super) got: GpuSum,
    pub(super) want: f64,
}

impl Check {
    pub(super) fn ok(&self) -> bool {
        same_result::<F64>(self.got.total.to_bits(), self.want.to_bits())
    }
}

/// One tree sum (and the one-lane loop, where run) against the loop.
#[derive(Clone, Debug)]
pub(super) struct Baseline {
    pub(super) kind: InputKind,
    pub(super) n: usize,
    pub(super) want: f64,
    pub(super) tree: f64,
    pub(super) lane_loop: Option<f64>,
}

/// The device's first three stages against the host's layout, for one input kind's segments
/// under the tree-prefix plan: chunks whose bits differ.
#[derive(Clone, Debug)]
pub(super) struct StageCheck {
    pub(super) kind: InputKind,
    pub(super) chunks: usize,
    pub(super) sums_differ: usize,
    pub(super) plan_differs: usize,
    pub(super) units_differ: usize,
}

impl StageCheck {
    pub(super) fn failures(&self) -> u64 {
        (self.sums_differ + self.plan_differs + self.units_differ) as u64
    }
}

/// Compares the device's chunk sums, plan and units with `walk::chunk_sums`,
/// `plan::tree_prefix` and `walk::chunk_units` of every segment (`pieces`, in order).
pub(super) fn compare_stages(
    kind: InputKind,
    pieces: &[Vec<f64>],
    dev: &Stages,
    mutant: Mutant,
) -> StageCheck {
    let mut c = StageCheck {
        kind,
        chunks: dev.sums.len(),
        sums_differ: 0,
        plan_differs: 0,
        units_differ: 0,
    };
    for (k, p) in pieces.iter().enumerate() {
        let (lo, hi) = (dev.chunk_base[k] as usize, dev.chunk_base[k + 1] as usize);
        let sums = chunk_sums::<F64>(p);
        let plan = tree_prefix::<F64>(&sums);
        let units = chunk_units::<F64, Mutant>(p, &plan, &mutant);
        let binades: Vec<u32> = plan.binades.iter().map(|b| b.map_or(0, |b| b.0)).collect();
        if hi - lo != sums.len() {
            c.sums_differ += sums.len().max(hi - lo);
            continue;
        }
        c.sums_differ += sums
            .iter()
            .zip(&dev.sums[lo..hi])
            .filter(|(h, d)| !same_result::<F64>(h.to_bits(), d.to_bits()))
            .count();
        c.plan_differs += binades
            .iter()
            .zip(&dev.binades[lo..hi])
            .filter(|(h, d)| h != d)
            .count();
        c.units_differ += units
            .iter()
            .zip(&dev.units[lo..hi])
            .filter(|(h, d)| h != d)
            .count();
    }
    c
}

/// Distance of `got` from `want`: absolute, relative and in units in the last place (None
/// where a NaN or an infinity makes it meaningless).
pub(super) fn distance(got: f64, want: f64) -> Option<(f64, f64, u64)> {
    if !got.is_finite() || !want.is_finite() {
        return None;
    }
    let ordered = |x: f64| {
        let b = x.to_bits();
        if b >> 63 == 1 {
            -((b & !(1 << 63)) as i128)
        } else {
            b as i128
        }
    };
    let abs = (got - want).abs();
    let rel = if want != 0.0 { abs / want.abs() } else { abs };
    Some((
        abs,
        rel,
        (ordered(got) - ordered(want)).unsigned_abs() as u64,
    ))
}

/// `n` terms of `kind` for a long stream: built from independently seeded pieces in parallel
/// (kinds whose terms depend on the position or the running sum are built in one piece).
pub fn stream_terms(kind: InputKind, n: usize, seed: u64) -> Vec<f64> {
    const PIECE: usize = 1 << 22;
    if n <= PIECE || matches!(kind, InputKind::AdversarialTies | InputKind::Geometric) {
        return kind.generate::<F64>(n, seed);
    }
    let mut out = vec![0.0f64; n];
    out.par_chunks_mut(PIECE)
        .enumerate()
        .for_each(|(i, piece)| {
            let s = seed ^ (i as u64 + 1).wrapping_mul(0xd1b5_4a32_d192_ed03);
            piece.copy_from_slice(&kind.generate::<F64>(piece.len(), s));
        });
    out
}

pub(super) fn segments_of(sizes: &[usize]) -> Vec<Range<usize>> {
    let mut at = 0;
    sizes
        .iter()
        .map(|&n| {
            at += n;
            at - n..at
        })
        .collect()
}

/// The exact engines checked beside the seed's pipeline.
pub struct Engines<'a> {
    /// The one-pass engine.
    pub onepass: &'a OnePassSum,
    /// The walked engine, in the engine's shape.
    pub walked: &'a WalkedSum,
}

/// Each exact engine's checks.
#[derive(Default)]
pub struct EngineChecks {
    /// The one-pass engine's.
    pub onepass: Vec<EngineCheck>,
    /// The walked engine's.
    pub walked: Vec<EngineCheck>,
}

impl EngineChecks {
    /// Both engines on `segments` of `terms`, against `wants`.
    pub fn check(
        &mut self,
        engines: &Engines,
        label: &str,
        terms: CudaView<f64>,
        segments: &[Range<usize>],
        wants: &[f64],
    ) -> Result<()> {
        let all = terms.slice(0..terms.len());
        onepass::check(
            engines.onepass,
            label,
            all,
            segments,
            wants,
            &mut self.onepass,
        )?;
        walked::check(
            engines.walked,
            label,
            terms,
            segments,
            wants,
            &mut self.walked,
        )
    }
}

/// All standard sizes of one kind as segments of one buffer: one launch sequence per plan.
#[allow(clippy::too_many_arguments)]
pub(super) fn standard_sizes(
    sum: &GpuOrderedSum,
    engines: &Engines,
    engine_checks: &mut EngineChecks,
    seed: u64,
    kind: InputKind,
    set: &Settings,
    stale: &[f64],
    checks: &mut Vec<Check>,
    baselines: &mut Vec<Baseline>,
    stage_checks: &mut Vec<StageCheck>,
) -> Result<()> {
    let pieces: Vec<Vec<f64>> = set
        .sizes
        .iter()
        .map(|&n| kind.generate::<F64>(n, seed ^ n as u64))
        .collect();
    let wants: Vec<f64> = pieces.iter().map(|p| loop_sum::<F64>(p)).collect();
    let all: Vec<f64> = pieces.concat();
    let segments = segments_of(&set.sizes);
    let dev = sum.upload(&all)?;
    engine_checks.check(
        engines,
        kind.name(),
        dev.slice(0..all.len()),
        &segments,
        &wants,
    )?;
    let mut job = sum.job(dev.slice(0..all.len()), &segments)?;
    for walk in WalkKind::ALL {
        let sum = sum.clone().with_walk(walk);
        for plan in &set.plans {
            let got = sum.run(&mut job, plan, Some(stale))?;
            for (k, g) in got.into_iter().enumerate() {
                checks.push(Check {
                    kind,
                    n: set.sizes[k],
                    plan: plan.name(),
                    walk,
                    got: g,
                    want: wants[k],
                });
            }
        }
    }
    sum.launch(&mut job, &PlanKind::TreePrefix, None)?;
    stage_checks.push(compare_stages(
        kind,
        &pieces,
        &sum.stages(&job)?,
        sum.mutant(),
    ));
    let tree = sum.tree_sums(&mut job)?;
    let lane = sum.loop_sums(&mut job)?;
    for k in 0..set.sizes.len() {
        baselines.push(Baseline {
            kind,
            n: set.sizes[k],
            want: wants[k],
            tree: tree[k],
            lane_loop: Some(lane[k]),
        });
    }
    Ok(())
}

/// One long stream of `kind`: the plans of `plans` and the tree sum.
#[allow(clippy::too_many_arguments)]
pub(super) fn stream(
    sum: &GpuOrderedSum,
    engines: &Engines,
    engine_checks: &mut EngineChecks,
    seed: u64,
    kind: InputKind,
    n: usize,
    plans: &[PlanKind],
    stale: &[f64],
    checks: &mut Vec<Check>,
    baselines: &mut Vec<Baseline>,
) -> Result<()> {
    let terms = stream_terms(kind, n, seed ^ 0x5173 ^ n as u64);
    let want = loop_sum::<F64>(&terms);
    let dev = sum.upload(&terms)?;
    drop(terms);
    let range = 0..n;
    let whole = std::slice::from_ref(&range);
    engine_checks.check(engines, kind.name(), dev.slice(0..n), whole, &[want])?;
    let mut job = sum.job(dev.slice(0..n), whole)?;
    for walk in WalkKind::ALL {
        let sum = sum.clone().with_walk(walk);
        for plan in plans {
            let got = sum.run(&mut job, plan, Some(stale))?;
            checks.push(Check {
                kind,
                n,
                plan: plan.name(),
                walk,
                got: got[0],
                want,
            });
        }
    }
    let tree = sum.tree_sums(&mut job)?;
    baselines.push(Baseline {
        kind,
        n,
        want,
        tree: tree[0],
        lane_loop: None,
    });
    Ok(())
}
