//! `gpu-parity`: every exact GPU sum against the CPU loop, bit for bit, for every input kind,
//! size and plan kind, plus long streams; and the plain tree sum's distance from the loop
//! (what a port has before it is exact).

use std::ops::Range;

use anyhow::Result;
use rayon::prelude::*;

use super::{ConfigError, Context, Outcome};
use crate::format::{same_result, F64};
use crate::gpu::{Gpu, GpuOrderedSum, GpuSum, Stages, WalkKind};
use crate::plan::{tree_prefix, PlanKind};
use crate::plot::{Plot, PlotKind};
use crate::report::{thousands, Report, Table};
use crate::verify::inputs::{InputKind, STANDARD_SIZES};
use crate::verify::mutant::Mutant;
use crate::walk::{chunk_count, chunk_sums, chunk_units, loop_sum};

/// One exact sum checked against the loop.
#[derive(Clone, Debug)]
struct Check {
    kind: InputKind,
    n: usize,
    plan: String,
    walk: WalkKind,
    got: GpuSum,
    want: f64,
}

impl Check {
    fn ok(&self) -> bool {
        same_result::<F64>(self.got.total.to_bits(), self.want.to_bits())
    }
}

/// One tree sum (and the one-lane loop, where run) against the loop.
#[derive(Clone, Debug)]
struct Baseline {
    kind: InputKind,
    n: usize,
    want: f64,
    tree: f64,
    lane_loop: Option<f64>,
}

/// The device's first three stages against the host's layout, for one input kind's segments
/// under the tree-prefix plan: chunks whose bits differ.
#[derive(Clone, Debug)]
struct StageCheck {
    kind: InputKind,
    chunks: usize,
    sums_differ: usize,
    plan_differs: usize,
    units_differ: usize,
}

impl StageCheck {
    fn failures(&self) -> u64 {
        (self.sums_differ + self.plan_differs + self.units_differ) as u64
    }
}

/// Compares the device's chunk sums, plan and units with `walk::chunk_sums`,
/// `plan::tree_prefix` and `walk::chunk_units` of every segment (`pieces`, in order).
fn compare_stages(
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
fn distance(got: f64, want: f64) -> Option<(f64, f64, u64)> {
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

fn parse_list<T: std::str::FromStr<Err = String>>(
    ctx: &Context,
    key: &str,
    default: Vec<String>,
) -> Result<Vec<T>> {
    let names: Vec<String> = ctx.get_or(key, default)?;
    names
        .iter()
        .map(|s| {
            s.parse::<T>()
                .map_err(|e| ConfigError::new(&ctx.file, key, e).into())
        })
        .collect()
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

/// The experiment's settings.
struct Settings {
    kinds: Vec<InputKind>,
    sizes: Vec<usize>,
    streams: Vec<usize>,
    plans: Vec<PlanKind>,
    stream_plans: Vec<PlanKind>,
    mutant: Mutant,
}

fn settings(ctx: &Context) -> Result<Settings> {
    let all_kinds = InputKind::ALL
        .iter()
        .map(|k| k.name().to_string())
        .collect();
    let stream_plans = parse_list::<PlanKind>(ctx, "stream_plans", vec!["tree-prefix".into()])?;
    let mutant: String = ctx.get_or("mutant", "none".to_string())?;
    Ok(Settings {
        kinds: parse_list::<InputKind>(ctx, "kinds", all_kinds)?,
        sizes: ctx.get_or("sizes", STANDARD_SIZES.to_vec())?,
        streams: ctx.get("streams")?,
        plans: PlanKind::standard(ctx.seed),
        stream_plans,
        mutant: mutant
            .parse()
            .map_err(|e: String| ConfigError::new(&ctx.file, "mutant", e))?,
    })
}

/// Runs the experiment (needs a GPU).
pub fn run(ctx: &Context) -> Result<Outcome> {
    let gpu = Gpu::open()?;
    let set = settings(ctx)?;
    let sum = GpuOrderedSum::with_mutant(&gpu, set.mutant)?;
    let mut checks = Vec::new();
    let mut baselines = Vec::new();
    let mut stage_checks = Vec::new();
    let bar = ctx.progress(set.kinds.len() as u64, "gpu-parity");
    for (i, &kind) in set.kinds.iter().enumerate() {
        let next = set.kinds[(i + 1) % set.kinds.len()];
        let max = set.sizes.iter().copied().max().unwrap_or(0);
        let stale = chunk_sums::<F64>(&next.generate::<F64>(max, ctx.seed ^ 0x57a1e));
        standard_sizes(
            &sum,
            ctx.seed,
            kind,
            &set,
            &stale,
            &mut checks,
            &mut baselines,
            &mut stage_checks,
        )?;
        for &n in &set.streams {
            stream(
                &sum,
                ctx.seed,
                kind,
                n,
                &set.stream_plans,
                &stale,
                &mut checks,
                &mut baselines,
            )?;
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    let mut out = outcome(ctx, &gpu, &set, &checks, &baselines, &stage_checks);
    sanitizers(ctx, &mut out)?;
    Ok(out)
}

/// Runs the sanitizers named by `sanitize` on the experiment `sanitize_experiment` (small
/// sizes), unless this run is itself under a sanitizer, and adds their verdicts.
fn sanitizers(ctx: &Context, out: &mut Outcome) -> Result<()> {
    let tools: Vec<String> = ctx.get_or("sanitize", Vec::new())?;
    if tools.is_empty() || super::sanitize::under_sanitizer() {
        return Ok(());
    }
    let experiment: String = ctx.get("sanitize_experiment")?;
    let timeout: u64 = ctx.get_or("sanitize_timeout", 300)?;
    let dir = ctx
        .file
        .parent()
        .unwrap_or(std::path::Path::new("experiments"));
    let runs = super::sanitize::run_tools(&tools, dir, &experiment, timeout);
    out.failures += runs.iter().filter(|r| !r.clean).count() as u64;
    out.report.text(format!(
        "The sanitizers ran the experiment `{experiment}` (small sizes, every kernel and both walks) under each tool; a tool is clean when it finished with zero errors or hazards."
    ));
    out.report.table(super::sanitize::table(&runs));
    Ok(())
}

fn segments_of(sizes: &[usize]) -> Vec<Range<usize>> {
    let mut at = 0;
    sizes
        .iter()
        .map(|&n| {
            at += n;
            at - n..at
        })
        .collect()
}

/// All standard sizes of one kind as segments of one buffer: one launch sequence per plan.
#[allow(clippy::too_many_arguments)]
fn standard_sizes(
    sum: &GpuOrderedSum,
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
fn stream(
    sum: &GpuOrderedSum,
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
    let mut job = sum.job(dev.slice(0..n), std::slice::from_ref(&(0..n)))?;
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

fn outcome(
    ctx: &Context,
    gpu: &Gpu,
    set: &Settings,
    checks: &[Check],
    baselines: &[Baseline],
    stage_checks: &[StageCheck],
) -> Outcome {
    let bad_sums = checks.iter().filter(|c| !c.ok()).count() as u64;
    let bad_chunks: u64 = stage_checks.iter().map(StageCheck::failures).sum();
    let failures = bad_sums + bad_chunks;
    let tree_same = baselines
        .iter()
        .filter(|b| same_result::<F64>(b.tree.to_bits(), b.want.to_bits()))
        .count();
    let max_ulps = baselines
        .iter()
        .filter_map(|b| distance(b.tree, b.want))
        .map(|d| d.2)
        .max()
        .unwrap_or(0);
    let mut r = Report::new(
        &ctx.name,
        "GPU ordered sums against the CPU loop, bit for bit",
    );
    r.headline(format!(
        "{} of {} exact GPU sums have the CPU loop's bits ({} input kinds, {} plan kinds, 2 walks, up to {} terms); the plain tree sum matched {} of {}, off by up to {} ulps",
        checks.len() as u64 - bad_sums,
        checks.len(),
        set.kinds.len(),
        set.plans.len(),
        thousands(set.sizes.iter().chain(&set.streams).copied().max().unwrap_or(0) as u64),
        tree_same,
        baselines.len(),
        thousands(max_ulps)
    ));
    r.text(format!(
        "Device: {} ({}). Mutant: `{}`. Every sum is `s = 0; for x in terms {{ s += x }}` on the host CPU (the reference) and on the device through the four kernels of `kernels/ordered_sum.cu` (chunk sums, plan, chunk units, walk), once with the seed's walk over every chunk and once with the group walk (runs of 256 chunks planned for one binade composed into one unit, stepped over whole where it applies). The standard sizes of one input kind are segments of one buffer, summed in one launch sequence per plan; streams of {} terms are one sum each, with the plans {}. `stale` plans use the chunk sums of the next input kind. Bits are compared with `to_bits()` (NaN equal to NaN). The failure count is the number of mismatching exact sums ({bad_sums}) plus the number of chunks whose device stages differ from the host's layout ({bad_chunks}).",
        gpu.name,
        gpu.arch,
        set.mutant,
        set.streams.iter().map(|&n| thousands(n as u64)).collect::<Vec<_>>().join(" and "),
        set.stream_plans.iter().map(|p| format!("`{p}`")).collect::<Vec<_>>().join(", ")
    ));
    r.table(plan_table(checks));
    r.table(kind_table(set, checks));
    r.table(stage_table(stage_checks));
    r.table(before_after_table(set, checks, baselines));
    r.plot(identical_plot(set, checks, baselines));
    r.table(detail_table(baselines, checks));
    if failures > 0 {
        r.table(mismatch_table(ctx.seed, checks));
    }
    Outcome {
        report: r,
        failures,
    }
}

fn stage_table(stage_checks: &[StageCheck]) -> Table {
    let mut t = Table::new(
        "stages",
        "The device's stages chunk by chunk against the host's layout (standard sizes, tree-prefix plan): walk::chunk_sums, plan::tree_prefix, walk::chunk_units",
        &["input kind", "chunks", "chunk sums differing", "planned binades differing", "units differing"],
    );
    for c in stage_checks {
        t.row(vec![
            c.kind.name().into(),
            thousands(c.chunks as u64),
            c.sums_differ.to_string(),
            c.plan_differs.to_string(),
            c.units_differ.to_string(),
        ]);
    }
    t
}

fn plan_table(checks: &[Check]) -> Table {
    let mut t = Table::new(
        "by_plan",
        "Exact sums by walk and plan kind",
        &[
            "walk",
            "plan",
            "sums",
            "identical",
            "mismatches",
            "chunks applied",
            "chunks term by term",
        ],
    );
    let mut names: Vec<(WalkKind, String)> = Vec::new();
    for c in checks {
        if !names.contains(&(c.walk, c.plan.clone())) {
            names.push((c.walk, c.plan.clone()));
        }
    }
    for (walk, name) in names {
        let of: Vec<&Check> = checks
            .iter()
            .filter(|c| c.plan == name && c.walk == walk)
            .collect();
        let ok = of.iter().filter(|c| c.ok()).count();
        let applied: u64 = of.iter().map(|c| c.got.applied).sum();
        let fallback: u64 = of.iter().map(|c| c.got.fallback).sum();
        t.row(vec![
            walk.name().into(),
            name,
            of.len().to_string(),
            ok.to_string(),
            (of.len() - ok).to_string(),
            thousands(applied),
            thousands(fallback),
        ]);
    }
    t
}

fn kind_table(set: &Settings, checks: &[Check]) -> Table {
    let mut t = Table::new(
        "by_kind",
        "Exact sums by input kind, both walks (chunk counts: tree-prefix plan, chunk walk)",
        &[
            "input kind",
            "sums",
            "identical",
            "chunks",
            "term by term (tree-prefix)",
        ],
    );
    for &kind in &set.kinds {
        let of: Vec<&Check> = checks.iter().filter(|c| c.kind == kind).collect();
        let ok = of.iter().filter(|c| c.ok()).count();
        let tree: Vec<&&Check> = of
            .iter()
            .filter(|c| c.plan == "tree-prefix" && c.walk == WalkKind::Chunks)
            .collect();
        let chunks: usize = tree.iter().map(|c| chunk_count(c.n)).sum();
        let fallback: u64 = tree.iter().map(|c| c.got.fallback).sum();
        t.row(vec![
            kind.name().into(),
            of.len().to_string(),
            ok.to_string(),
            thousands(chunks as u64),
            thousands(fallback),
        ]);
    }
    t
}

/// Worst distances from the loop over a set of (got, want) pairs.
fn worst(pairs: &[(f64, f64)]) -> (usize, String, String, String) {
    let same = pairs
        .iter()
        .filter(|(g, w)| same_result::<F64>(g.to_bits(), w.to_bits()))
        .count();
    let d: Vec<(f64, f64, u64)> = pairs.iter().filter_map(|&(g, w)| distance(g, w)).collect();
    let abs = d.iter().map(|x| x.0).fold(0.0, f64::max);
    let rel = d.iter().map(|x| x.1).fold(0.0, f64::max);
    let ulps = d.iter().map(|x| x.2).max().unwrap_or(0);
    (
        same,
        format!("{abs:.3e}"),
        format!("{rel:.3e}"),
        thousands(ulps),
    )
}

fn before_after_table(set: &Settings, checks: &[Check], baselines: &[Baseline]) -> Table {
    let mut t = Table::new(
        "before_after",
        "Before (plain tree sum) and after (exact pipeline, tree-prefix plan, both walks): distance from the CPU loop",
        &["input kind", "tree identical", "tree max abs", "tree max rel", "tree max ulps", "exact identical", "exact max abs", "exact max rel", "exact max ulps"],
    );
    for &kind in &set.kinds {
        let tree: Vec<(f64, f64)> = baselines
            .iter()
            .filter(|b| b.kind == kind)
            .map(|b| (b.tree, b.want))
            .collect();
        let exact: Vec<(f64, f64)> = checks
            .iter()
            .filter(|c| c.kind == kind && c.plan == "tree-prefix")
            .map(|c| (c.got.total, c.want))
            .collect();
        let (ts, ta, tr, tu) = worst(&tree);
        let (es, ea, er, eu) = worst(&exact);
        t.row(vec![
            kind.name().into(),
            format!("{ts}/{}", tree.len()),
            ta,
            tr,
            tu,
            format!("{es}/{}", exact.len()),
            ea,
            er,
            eu,
        ]);
    }
    t
}

fn identical_plot(set: &Settings, checks: &[Check], baselines: &[Baseline]) -> Plot {
    let share = |pairs: Vec<(f64, f64)>| {
        let same = pairs
            .iter()
            .filter(|(g, w)| same_result::<F64>(g.to_bits(), w.to_bits()))
            .count();
        100.0 * same as f64 / pairs.len().max(1) as f64
    };
    let tree = set
        .kinds
        .iter()
        .map(|&k| {
            share(
                baselines
                    .iter()
                    .filter(|b| b.kind == k)
                    .map(|b| (b.tree, b.want))
                    .collect(),
            )
        })
        .collect();
    let exact = set
        .kinds
        .iter()
        .map(|&k| {
            share(
                checks
                    .iter()
                    .filter(|c| c.kind == k)
                    .map(|c| (c.got.total, c.want))
                    .collect(),
            )
        })
        .collect();
    Plot {
        stem: "identical".into(),
        title: "Sums with the CPU loop's bits, by input kind: plain tree sum vs exact pipeline (all plans)".into(),
        kind: PlotKind::Bars {
            categories: set.kinds.iter().map(|k| k.name().to_string()).collect(),
            series: vec![("plain tree sum".into(), tree), ("exact pipeline".into(), exact)],
            y_label: "% of sums identical to the loop".into(),
            log_y: false,
        },
    }
}

fn detail_table(baselines: &[Baseline], checks: &[Check]) -> Table {
    let mut t = Table::new(
        "detail",
        "Every sum: the loop, the tree sum's distance, the one-lane GPU loop and the exact sums (all plans)",
        &["input kind", "terms", "loop", "tree sum", "tree abs diff", "tree ulps", "one-lane GPU loop identical", "exact identical (plans)"],
    );
    for b in baselines {
        let d = distance(b.tree, b.want);
        let lane = b.lane_loop.map_or("not run".to_string(), |l| {
            same_result::<F64>(l.to_bits(), b.want.to_bits()).to_string()
        });
        let of: Vec<&Check> = checks
            .iter()
            .filter(|c| c.kind == b.kind && c.n == b.n)
            .collect();
        let ok = of.iter().filter(|c| c.ok()).count();
        t.row(vec![
            b.kind.name().into(),
            thousands(b.n as u64),
            format!("{:e}", b.want),
            format!("{:e}", b.tree),
            d.map_or("n/a".into(), |d| format!("{:.3e}", d.0)),
            d.map_or("n/a".into(), |d| thousands(d.2)),
            lane,
            format!("{ok}/{}", of.len()),
        ]);
    }
    t.show_rows = Some(40);
    t
}

fn mismatch_table(seed: u64, checks: &[Check]) -> Table {
    let mut t = Table::new(
        "mismatches",
        &format!("Mismatching exact sums (seed {seed})"),
        &["input kind", "terms", "walk", "plan", "gpu", "loop"],
    );
    for c in checks.iter().filter(|c| !c.ok()) {
        t.row(vec![
            c.kind.name().into(),
            c.n.to_string(),
            c.walk.name().into(),
            c.plan.clone(),
            format!("{:#018x}", c.got.total.to_bits()),
            format!("{:#018x}", c.want.to_bits()),
        ]);
    }
    t.show_rows = Some(40);
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distance_counts_ulps_across_zero_and_binades() {
        assert_eq!(distance(1.0, 1.0), Some((0.0, 0.0, 0)));
        let next = f64::from_bits(1.0f64.to_bits() + 3);
        assert_eq!(distance(next, 1.0).map(|d| d.2), Some(3));
        // Just below 1 to 1: one ulp across the binade edge.
        let below = f64::from_bits(1.0f64.to_bits() - 1);
        assert_eq!(distance(below, 1.0).map(|d| d.2), Some(1));
        // -0 and +0 are the same value, adjacent on the ordered line.
        assert_eq!(distance(-0.0, 0.0).map(|d| d.2), Some(0));
        assert_eq!(distance(-5e-324, 5e-324).map(|d| d.2), Some(2));
        assert_eq!(distance(f64::NAN, 1.0), None);
        assert_eq!(distance(f64::INFINITY, 1.0), None);
    }

    /// The host layout laid out as the device's stages are: all segments' chunks in order.
    fn host_stages(pieces: &[Vec<f64>]) -> Stages {
        let mut st = Stages {
            sums: vec![],
            binades: vec![],
            units: vec![],
            chunk_base: vec![0],
        };
        for p in pieces {
            let sums = chunk_sums::<F64>(p);
            let plan = tree_prefix::<F64>(&sums);
            st.units
                .extend(chunk_units::<F64, Mutant>(p, &plan, &Mutant::None));
            st.binades
                .extend(plan.binades.iter().map(|b| b.map_or(0, |b| b.0)));
            st.sums.extend(sums);
            st.chunk_base.push(st.sums.len() as u64);
        }
        st
    }

    #[test]
    fn stage_comparison_finds_exactly_the_changed_chunks() {
        let pieces: Vec<Vec<f64>> = [0usize, 5, 3000, 1024]
            .iter()
            .map(|&n| InputKind::Uniform.generate::<F64>(n, n as u64))
            .collect();
        let st = host_stages(&pieces);
        let c = compare_stages(InputKind::Uniform, &pieces, &st, Mutant::None);
        assert_eq!((c.chunks, c.failures()), (st.sums.len(), 0));
        let mut bad = st.clone();
        bad.sums[2] = f64::from_bits(bad.sums[2].to_bits() ^ 1);
        bad.binades[3] += 1;
        bad.units[4].odd += 1;
        let c = compare_stages(InputKind::Uniform, &pieces, &bad, Mutant::None);
        assert_eq!((c.sums_differ, c.plan_differs, c.units_differ), (1, 1, 1));
    }

    #[test]
    fn segments_tile_the_buffer_in_order() {
        assert_eq!(segments_of(&[0, 3, 0, 2]), vec![0..0, 0..3, 3..3, 3..5]);
    }

    #[test]
    fn streams_are_reproducible() {
        let a = stream_terms(InputKind::Uniform, (1 << 22) + 5, 9);
        let b = stream_terms(InputKind::Uniform, (1 << 22) + 5, 9);
        assert!(a.iter().zip(&b).all(|(x, y)| x.to_bits() == y.to_bits()));
        assert_eq!(a.len(), (1 << 22) + 5);
    }
}
