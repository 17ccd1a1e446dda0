//! `gpu-parity`: every exact GPU sum against the CPU loop, bit for bit, for every input kind,
//! size and plan kind, plus long streams; and the plain tree sum's distance from the loop
//! (what a port has before it is exact).

use anyhow::Result;

use super::{ConfigError, Context, Outcome};
use crate::format::{same_result, F64};
use crate::gpu::ordered_sum::walked::WalkedSum;
use crate::gpu::{Gpu, GpuCumsum, GpuOrderedSum, OnePassSum};
use crate::layout::OP_TILE;
use crate::plan::PlanKind;
use crate::report::{thousands, Report};
use crate::verify::inputs::{tile_boundary_cases, InputKind, STANDARD_SIZES};
use crate::verify::mutant::Mutant;
use crate::walk::chunk_sums;

pub mod checks;
pub mod cumsum;
pub mod onepass;
pub mod tables;
pub mod walked;

use checks::*;
use tables::*;

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

/// The experiment's settings.
struct Settings {
    kinds: Vec<InputKind>,
    sizes: Vec<usize>,
    streams: Vec<usize>,
    plans: Vec<PlanKind>,
    stream_plans: Vec<PlanKind>,
    /// Kinds whose streams stop at `native_stream_max` terms: those whose chunks and tiles
    /// are nearly all refused (negative terms, a NaN or an infinity early in the sum) and
    /// added natively, one dependent add after another, in every engine.
    native_kinds: Vec<InputKind>,
    /// The longest stream run for `native_kinds` (all of `streams` when absent).
    native_stream_max: usize,
    mutant: Mutant,
}

impl Settings {
    /// The streams run for `kind`: every stream, except those longer than
    /// `native_stream_max` for the kinds summed natively from end to end.
    fn streams_of(&self, kind: InputKind) -> Vec<usize> {
        self.streams
            .iter()
            .copied()
            .filter(|&n| !self.native_kinds.contains(&kind) || n <= self.native_stream_max)
            .collect()
    }

    /// (kind, stream length) pairs left out by `native_stream_max`.
    fn streams_left_out(&self) -> Vec<(InputKind, usize)> {
        self.kinds
            .iter()
            .flat_map(|&k| {
                let run = self.streams_of(k);
                self.streams
                    .iter()
                    .filter(move |n| !run.contains(n))
                    .map(move |&n| (k, n))
            })
            .collect()
    }
}

fn settings(ctx: &Context) -> Result<Settings> {
    let all_kinds = InputKind::ALL
        .iter()
        .map(|k| k.name().to_string())
        .collect();
    let stream_plans = parse_list::<PlanKind>(ctx, "stream_plans", vec!["tree-prefix".into()])?;
    let mutant: String = ctx.get_or("mutant", "none".to_string())?;
    Ok(Settings {
        kinds: ctx.non_empty("kinds", parse_list::<InputKind>(ctx, "kinds", all_kinds)?)?,
        sizes: ctx.non_empty("sizes", ctx.get_or("sizes", STANDARD_SIZES.to_vec())?)?,
        streams: ctx.get("streams")?,
        plans: PlanKind::standard(ctx.seed),
        stream_plans,
        native_kinds: parse_list::<InputKind>(ctx, "native_kinds", Vec::new())?,
        native_stream_max: ctx.get_or("native_stream_max", usize::MAX)?,
        mutant: mutant
            .parse()
            .map_err(|e: String| ConfigError::new(&ctx.file, "mutant", e))?,
    })
}

/// Runs the experiment (needs a GPU).
pub fn run(ctx: &Context) -> Result<Outcome> {
    let gpu = Gpu::open()?;
    let set = settings(ctx)?;
    // Four whole NVRTC compiles (seconds to tens of seconds each): on rayon's threads.
    let ((sum, walked), (op, cum)) = rayon::join(
        || {
            rayon::join(
                || GpuOrderedSum::with_mutant(&gpu, set.mutant),
                || WalkedSum::new(&gpu),
            )
        },
        || rayon::join(|| OnePassSum::new(&gpu), || GpuCumsum::new(&gpu)),
    );
    let (sum, walked, op, cum) = (sum?, walked?, op?, cum?);
    let engines = Engines {
        onepass: &op,
        walked: &walked,
    };
    let mut cum_checks = Vec::new();
    let mut engine_checks = EngineChecks::default();
    let mut checks = Vec::new();
    let mut baselines = Vec::new();
    let mut stage_checks = Vec::new();
    let bar = ctx.progress(set.kinds.len() as u64, "gpu-parity");
    let mut seconds = Vec::with_capacity(set.kinds.len());
    for (i, &kind) in set.kinds.iter().enumerate() {
        let started = std::time::Instant::now();
        let next = set.kinds[(i + 1) % set.kinds.len()];
        let max = set.sizes.iter().copied().max().unwrap_or(0);
        let stale = chunk_sums::<F64>(&next.generate::<F64>(max, ctx.seed ^ 0x57a1e));
        standard_sizes(
            &sum,
            &engines,
            &mut engine_checks,
            ctx.seed,
            kind,
            &set,
            &stale,
            &mut checks,
            &mut baselines,
            &mut stage_checks,
        )?;
        for &n in &set.sizes {
            cumsum::check(
                &gpu,
                &cum,
                ctx.seed,
                kind,
                n,
                &cumsum::STARTS,
                &mut cum_checks,
            )?;
        }
        for n in set.streams_of(kind) {
            cumsum::check(
                &gpu,
                &cum,
                ctx.seed,
                kind,
                n,
                &cumsum::STARTS[..1],
                &mut cum_checks,
            )?;
            stream(
                &sum,
                &engines,
                &mut engine_checks,
                ctx.seed,
                kind,
                n,
                &set.stream_plans,
                &stale,
                &mut checks,
                &mut baselines,
            )?;
        }
        seconds.push(started.elapsed().as_secs_f64());
        bar.inc(1);
    }
    bar.finish_and_clear();
    boundary_cases(&engines, &mut engine_checks)?;
    let mut out = outcome(
        ctx,
        &gpu,
        &set,
        &checks,
        &baselines,
        &stage_checks,
        &seconds,
    );
    let op_checks = &engine_checks.onepass;
    let op_bad = op_checks.iter().filter(|c| !c.ok()).count() as u64;
    let wk_checks = &engine_checks.walked;
    let wk_bad = wk_checks.iter().filter(|c| !c.ok()).count() as u64;
    out.failures += op_bad + wk_bad;
    let mut labels: Vec<&str> = set.kinds.iter().map(|k| k.name()).collect();
    labels.extend(tile_boundary_cases(OP_TILE).map(|c| c.0));
    out.report.text(format!(
        "The one-pass engine summed the same segments and streams ({} sums, each launched {} times on the same records; its plan comes from a look-back over doubles and may differ between launches): {} of them had the loop's bits in every launch. The last rows are `inputs::tile_boundary_cases`, {BOUNDARY_REPEATS} sums of each in one launch: four tiles whose second is planned one binade below its exact start and whose third is planned in the right one (a later tile that composed both would mix binades); two tiles whose sum leaves its binade upward and comes back; two tiles whose second, without ties, leaves its binade (its increment passes the binade's top); three tiles whose second holds an infinity among zeros (only the fast unit's bound refuses it).",
        op_checks.len(),
        onepass::LAUNCHES,
        op_checks.len() as u64 - op_bad,
    ));
    out.report.table(onepass::table(
        "onepass",
        &format!("The one-pass engine (kernels/ordered_sum_onepass.cu): every sum launched {} times on the same records", onepass::LAUNCHES),
        &labels,
        op_checks,
    ));
    out.report.text(format!(
        "The walked engine (`kernels/ordered_sum_walked.cu`, in the engine's shape: {} threads x {} terms a tile, plans from the walker's hint where its margin allows) summed the same inputs, each sum its own job launched {} times on the same buffers (its plans come from a look-back over doubles or from the walker's hint, and may differ between launches): {} of {} sums had the loop's bits in every launch. Its boundary rows are the same cases built for its {}-term tiles, {WALKED_BOUNDARY_REPEATS} sums of each, each sum its own job and then all {WALKED_BOUNDARY_REPEATS} in one launch (a walker a sum; the rows labelled `in one launch`).",
        walked.shape().threads,
        walked.shape().per_thread,
        onepass::LAUNCHES,
        wk_checks.len() as u64 - wk_bad,
        wk_checks.len(),
        walked.shape().tile(),
    ));
    let one_launch =
        tile_boundary_cases(walked.shape().tile() as usize).map(|c| walked::one_launch_label(c.0));
    let wk_labels: Vec<&str> = labels
        .iter()
        .copied()
        .chain(one_launch.iter().map(String::as_str))
        .collect();
    out.report.table(onepass::table(
        "walked",
        &format!("The walked engine (kernels/ordered_sum_walked.cu): every sum launched {} times on the same buffers", onepass::LAUNCHES),
        &wk_labels,
        wk_checks,
    ));
    let cum_bad = cum_checks
        .iter()
        .filter(|c| c.first_difference.is_some())
        .count();
    out.failures += cum_bad as u64;
    let positions: u64 = cum_checks.iter().map(|c| c.n as u64).sum();
    out.report.text(format!(
        "Running sums (`binade::gpu::GpuCumsum`): for every input kind, at the standard sizes with each start (numpy's first term, +0, -0) and on the streams with numpy's, the device wrote the running sum at every position and a device kernel compared it with the CPU loop's (bits, NaN as NaN; the one-pass engine has no plan kinds to vary: its plan is its own look-back). {} of {} inputs ({} positions, each launched {} times) had the loop's bits at every position.",
        cum_checks.len() - cum_bad,
        cum_checks.len(),
        thousands(positions),
        cumsum::LAUNCHES,
    ));
    out.report.table(cumsum::table(&cum_checks));
    let headline = format!(
        "{}; the one-pass engine: {} of {} sums, the walked engine: {} of {} sums exact in every launch; running sums: {} of {} inputs had the loop's bits at every position ({} positions)",
        out.report.headline.clone(),
        op_checks.len() as u64 - op_bad,
        op_checks.len(),
        wk_checks.len() as u64 - wk_bad,
        wk_checks.len(),
        cum_checks.len() - cum_bad,
        cum_checks.len(),
        thousands(positions)
    );
    out.report.headline(headline);
    sanitizers(ctx, &mut out)?;
    Ok(out)
}

/// Sums of each boundary case in the one-pass engine's launch (segments of one buffer).
const BOUNDARY_REPEATS: usize = 300;

/// Sums of each boundary case by the walked engine (a job each: fewer, as every sum is a
/// launch of its own).
const WALKED_BOUNDARY_REPEATS: usize = 30;

/// `inputs::tile_boundary_cases`: [`BOUNDARY_REPEATS`] sums of each in one launch of the
/// one-pass engine (its tiles), and [`WALKED_BOUNDARY_REPEATS`] of each, built for the walked
/// engine's tiles, by the walked engine.
fn boundary_cases(engines: &Engines, out: &mut EngineChecks) -> Result<()> {
    let (op, wk) = (engines.onepass, engines.walked);
    for (name, one) in tile_boundary_cases(OP_TILE) {
        let (all, segments, wants) = repeated(&one, BOUNDARY_REPEATS);
        let dev = op.gpu().stream().clone_htod(&all)?;
        let view = dev.slice(0..all.len());
        onepass::check(op, name, view, &segments, &wants, &mut out.onepass)?;
    }
    for (name, one) in tile_boundary_cases(wk.shape().tile() as usize) {
        let (all, segments, wants) = repeated(&one, WALKED_BOUNDARY_REPEATS);
        let dev = wk.gpu().stream().clone_htod(&all)?;
        let view = dev.slice(0..all.len());
        walked::check(wk, name, view.slice(..), &segments, &wants, &mut out.walked)?;
        walked::check_one_launch(wk, name, view, one.len(), &wants, &mut out.walked)?;
    }
    Ok(())
}

/// `one` repeated `repeats` times: the terms, each copy's range, and the loop's sum of each.
fn repeated(one: &[f64], repeats: usize) -> (Vec<f64>, Vec<std::ops::Range<usize>>, Vec<f64>) {
    let want = crate::walk::loop_sum::<F64>(one);
    let segments = (0..repeats)
        .map(|k| k * one.len()..(k + 1) * one.len())
        .collect();
    (one.repeat(repeats), segments, vec![want; repeats])
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
    let runs = super::sanitize::run_tools(&tools, ctx.experiments.as_deref(), &experiment, timeout);
    out.failures += runs.iter().filter(|r| !r.clean).count() as u64;
    out.report.text(format!(
        "The sanitizers ran the experiment `{experiment}` (small sizes, every kernel and both walks) under each tool; a tool is clean when it finished with zero errors or hazards."
    ));
    out.report.table(super::sanitize::table(&runs));
    Ok(())
}

fn outcome(
    ctx: &Context,
    gpu: &Gpu,
    set: &Settings,
    checks: &[Check],
    baselines: &[Baseline],
    stage_checks: &[StageCheck],
    seconds: &[f64],
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
    let left_out = set.streams_left_out();
    if !left_out.is_empty() {
        r.text(format!(
            "Streams not run (`native_stream_max` = {}): {}. In these kinds almost every chunk and tile is refused (the term-by-term column below) and added natively, one dependent add after another, in every engine; the time of each kind's checks in this run, with its streams as listed, is in the last column of the table by input kind. Their longest stream that ran checks the same paths.",
            thousands(set.native_stream_max as u64),
            left_out
                .iter()
                .map(|(k, n)| format!("{} at {} terms", k.name(), thousands(*n as u64)))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    r.table(plan_table(checks));
    r.table(kind_table(set, checks, seconds));
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gpu::Stages;
    use crate::plan::tree_prefix;
    use crate::walk::chunk_units;

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
            signed: vec![],
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
    fn native_kinds_stop_at_their_longest_stream() {
        let set = Settings {
            kinds: vec![InputKind::Uniform, InputKind::Negatives],
            sizes: vec![10],
            streams: vec![100, 1_000],
            plans: vec![],
            stream_plans: vec![],
            native_kinds: vec![InputKind::Negatives],
            native_stream_max: 100,
            mutant: Mutant::None,
        };
        assert_eq!(set.streams_of(InputKind::Uniform), vec![100, 1_000]);
        assert_eq!(set.streams_of(InputKind::Negatives), vec![100]);
        assert_eq!(set.streams_left_out(), vec![(InputKind::Negatives, 1_000)]);
        let uncapped = Settings {
            native_stream_max: usize::MAX,
            ..set
        };
        assert!(uncapped.streams_left_out().is_empty());
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
