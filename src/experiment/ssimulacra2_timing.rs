//! `ssimulacra2-timing`: milliseconds per frame at 576x324, 1920x1080 and 3840x2160 of the
//! term kernel plus tree sums against the term kernel plus ordered sums on the device (the
//! seed's pipeline, and the walked engine with a scale's 18 sums in one launch and with a
//! frame's 108 in one, the latter also with the plans' tile margin it had before; CUDA
//! events, warm-up, median, frames rotated), and of the CPU reference on one thread and on
//! all cores; and the trace builds' walkers of a frame's one launch (both margins).

use std::time::Instant;

use anyhow::{bail, Context as _, Result};

use super::fixture_select::{load_fixtures, Loaded};
use super::{ConfigError, Context, Outcome};
use crate::gpu::ordered_sum::walked::{
    WalkedMutant, WalkedShape, WalkedSum, WalkedTotal, WalkerTrace,
};
use crate::gpu::timing::{event_times, median};
use crate::gpu::{Gpu, GpuOrderedSum};
use crate::plan::PlanKind;
use crate::plot::{Plot, PlotKind};
use crate::report::{Report, Table};
use crate::ssimulacra2::device::{
    frame_walked_job, frame_walked_sums, frame_walked_totals, scale_job, scale_walked_job,
    walked_engine, DeviceScale, DeviceTerms, WALKED_SHAPE,
};
use crate::ssimulacra2::terms::TERM_NAMES;
use crate::ssimulacra2::{for_each_scale, frame_sums, scale_sums, yuv, ScaleSums};

/// One frame prepared on the device: every scale's planes and term buffer, and the CPU sums.
struct Prepared {
    scales: Vec<DeviceScale>,
    cpu: Vec<ScaleSums>,
}

fn prepare(terms: &DeviceTerms, a: &yuv::YuvFrame, b: &yuv::YuvFrame) -> Result<Prepared> {
    yuv::check_pair(a, b)?;
    let (mut scales, mut cpu) = (Vec::new(), Vec::new());
    for_each_scale(yuv::to_linear_rgb(a), yuv::to_linear_rgb(b), |s| {
        cpu.push(scale_sums(s));
        scales.push(terms.upload(s)?);
        Ok(())
    })?;
    Ok(Prepared { scales, cpu })
}

/// Median milliseconds of `reps` runs of `f` after one untimed run.
fn cpu_ms(reps: usize, mut f: impl FnMut() -> Result<()>) -> Result<f64> {
    f()?;
    let mut t = Vec::with_capacity(reps);
    for _ in 0..reps {
        let start = Instant::now();
        f()?;
        t.push(start.elapsed().as_secs_f64() * 1e3);
    }
    Ok(median(&t))
}

/// One size's measurements.
struct Row {
    fixture: String,
    size: String,
    frames: usize,
    tree: f64,
    exact: f64,
    walked: f64,
    frame_walked: f64,
    cpu_one: f64,
    cpu_all: f64,
    mismatches: u64,
    walked_mismatches: u64,
    walked_finished: u64,
    frame_mismatches: u64,
    frame_finished: u64,
    /// The one launch in the engine's default shape (the plans' tile margin, `Margin::Tile`:
    /// SSIMULACRA2's shape before `WALKED_SHAPE`).
    before: FrameLaunch,
    /// The trace build's sums of the first frame in one launch, slowest walker first.
    traced: Vec<TracedSum>,
    /// The same with the tile margin.
    traced_before: Vec<TracedSum>,
}

/// A frame's one launch of a build, timed and checked over the fixture's frames.
struct FrameLaunch {
    /// Median ms a frame (terms and the launch).
    ms: f64,
    /// Sums whose bits are not the CPU's.
    mismatches: u64,
    /// Tiles the walkers finished from their terms.
    finished: u64,
}

/// One sum of a frame's launch of the trace build: where in the frame, and its counts.
struct TracedSum {
    /// Scale (0 the full frame), channel (X, Y, B) and term (0 to 5) of the sum.
    scale: usize,
    channel: usize,
    term: usize,
    total: WalkedTotal,
    /// Its total has the CPU's bits.
    exact: bool,
}

impl TracedSum {
    fn walker_ns(&self) -> u64 {
        self.total.trace.as_ref().map_or(0, |t| t.walker_ns)
    }
}

/// Sums of a fixture's traced launch listed in the report (the slowest walkers).
const TRACED_LISTED: usize = 4;

/// The engines a size is timed with.
struct Engines<'a> {
    terms: &'a DeviceTerms,
    sum: &'a GpuOrderedSum,
    walked: &'a WalkedSum,
    /// The engine's shape with the walker's trace (`WalkedShape::trace`): its clock stamps.
    traced: &'a WalkedSum,
    /// The engine's default shape (the tile margin, `Margin::Tile`), and its trace build.
    before: &'a WalkedSum,
    traced_before: &'a WalkedSum,
}

/// A trace build's (`traced`) sums of frame `p` in one launch, slowest walker first.
fn traced_frame(e: &Engines, traced: &WalkedSum, p: &Prepared) -> Result<Vec<TracedSum>> {
    let mut job = frame_walked_job(traced, &p.scales)?;
    for s in &p.scales {
        e.terms.launch(s)?;
    }
    let totals = frame_walked_totals(traced, &mut job, p.scales.len())?;
    let mut out = Vec::new();
    for (scale, (got, cpu)) in totals.iter().zip(&p.cpu).enumerate() {
        for (channel, (g, c)) in got.iter().zip(&cpu.sums).enumerate() {
            for (term, (&total, want)) in g.iter().zip(c).enumerate() {
                out.push(TracedSum {
                    scale,
                    channel,
                    term,
                    exact: total.total.to_bits() == want.to_bits(),
                    total,
                });
            }
        }
    }
    out.sort_by_key(|t| std::cmp::Reverse(t.walker_ns()));
    Ok(out)
}

/// Build `walked`'s one launch a frame: median ms over `reps` frames (rotated, after
/// `warmup`), then every frame's sums against the CPU's bits and the tiles finished.
fn frame_launch(
    gpu: &Gpu,
    terms: &DeviceTerms,
    walked: &WalkedSum,
    prepared: &[Prepared],
    (warmup, reps): (usize, usize),
) -> Result<FrameLaunch> {
    let nf = prepared.len();
    let mut jobs = prepared
        .iter()
        .map(|p| frame_walked_job(walked, &p.scales))
        .collect::<Result<Vec<_>>>()?;
    let ms = event_times(gpu, warmup, reps, |rep| {
        let k = rep % nf;
        for s in &prepared[k].scales {
            terms.launch(s)?;
        }
        walked.launch(&mut jobs[k])
    })?;
    let (mut mismatches, mut finished) = (0u64, 0u64);
    for (p, job) in prepared.iter().zip(jobs.iter_mut()) {
        for s in &p.scales {
            terms.launch(s)?;
        }
        let (got, done) = frame_walked_sums(walked, job, p.scales.len())?;
        finished += done;
        for (g, cpu) in got.iter().zip(&p.cpu) {
            mismatches += g
                .iter()
                .flatten()
                .zip(cpu.sums.iter().flatten())
                .filter(|(g, w)| g.to_bits() != w.to_bits())
                .count() as u64;
        }
    }
    Ok(FrameLaunch {
        ms: median(&ms),
        mismatches,
        finished,
    })
}

fn measure(ctx: &Context, gpu: &Gpu, e: &Engines, f: &crate::fixtures::Fixture) -> Result<Row> {
    let (terms, sum, walked) = (e.terms, e.sum, e.walked);
    let warmup: usize = ctx.get_or("warmup", 3)?;
    let reps: usize = ctx.get("reps")?;
    let cpu_reps: usize = ctx.get_or("cpu_reps", 3)?;
    let max_frames: usize = ctx.get_or("max_frames", usize::MAX)?;
    if reps == 0 || cpu_reps == 0 {
        bail!(ConfigError::new(
            &ctx.file,
            "reps",
            "reps and cpu_reps must be at least 1"
        ));
    }
    let pairs: Vec<_> = f.pairs.iter().take(max_frames).collect();
    let prepared = pairs
        .iter()
        .map(|(a, b)| prepare(terms, a, b))
        .collect::<Result<Vec<_>>>()?;
    let mut jobs = prepared
        .iter()
        .map(|p| {
            p.scales
                .iter()
                .map(|s| scale_job(sum, s))
                .collect::<Result<Vec<_>>>()
        })
        .collect::<Result<Vec<_>>>()?;
    let mut walked_jobs = prepared
        .iter()
        .map(|p| {
            p.scales
                .iter()
                .map(|s| scale_walked_job(walked, s))
                .collect::<Result<Vec<_>>>()
        })
        .collect::<Result<Vec<_>>>()?;
    let nf = prepared.len();
    let tree = event_times(gpu, warmup, reps, |rep| {
        let k = rep % nf;
        for (s, job) in prepared[k].scales.iter().zip(jobs[k].iter_mut()) {
            terms.launch(s)?;
            sum.launch_tree(job)?;
        }
        Ok(())
    })?;
    let exact = event_times(gpu, warmup, reps, |rep| {
        let k = rep % nf;
        for (s, job) in prepared[k].scales.iter().zip(jobs[k].iter_mut()) {
            terms.launch(s)?;
            sum.launch(job, &PlanKind::TreePrefix, None)?;
        }
        Ok(())
    })?;
    let walked_ms = event_times(gpu, warmup, reps, |rep| {
        let k = rep % nf;
        for (s, job) in prepared[k].scales.iter().zip(walked_jobs[k].iter_mut()) {
            terms.launch(s)?;
            walked.launch(job)?;
        }
        Ok(())
    })?;
    let (mut walked_mismatches, mut walked_finished) = (0u64, 0u64);
    for (p, js) in prepared.iter().zip(walked_jobs.iter_mut()) {
        for ((cpu, job), s) in p.cpu.iter().zip(js.iter_mut()).zip(&p.scales) {
            terms.launch(s)?;
            let got = walked.run_segments(job)?;
            walked_finished += got.iter().map(|t| t.finished_tiles).sum::<u64>();
            walked_mismatches += got
                .iter()
                .zip(cpu.sums.iter().flatten())
                .filter(|(g, w)| g.total.to_bits() != w.to_bits())
                .count() as u64;
        }
    }
    drop(walked_jobs);
    let frame = frame_launch(gpu, terms, walked, &prepared, (warmup, reps))?;
    let before = frame_launch(gpu, terms, e.before, &prepared, (warmup, reps))?;
    let (traced, traced_before) = match prepared.first() {
        Some(p) => (
            traced_frame(e, e.traced, p)?,
            traced_frame(e, e.traced_before, p)?,
        ),
        None => (Vec::new(), Vec::new()),
    };
    let mut mismatches = 0u64;
    for (p, js) in prepared.iter().zip(jobs.iter_mut()) {
        for (cpu, job) in p.cpu.iter().zip(js.iter_mut()) {
            let got = sum.run(job, &PlanKind::TreePrefix, None)?;
            let want = cpu.sums.iter().flatten();
            mismatches += got
                .iter()
                .zip(want)
                .filter(|(g, w)| g.total.to_bits() != w.to_bits())
                .count() as u64;
        }
    }
    drop(jobs);
    drop(prepared);
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .context("one-thread pool")?;
    let mut k = 0;
    let cpu_one = one.install(|| {
        cpu_ms(cpu_reps, || {
            let (a, b) = pairs[k % nf];
            k += 1;
            frame_sums(a, b).map(|_| ())
        })
    })?;
    let cpu_all = cpu_ms(cpu_reps, || {
        let (a, b) = pairs[k % nf];
        k += 1;
        frame_sums(a, b).map(|_| ())
    })?;
    Ok(Row {
        fixture: f.name.clone(),
        size: format!("{}x{}", f.manifest.width, f.manifest.height),
        frames: nf,
        tree: median(&tree),
        exact: median(&exact),
        walked: median(&walked_ms),
        frame_walked: frame.ms,
        cpu_one,
        cpu_all,
        mismatches,
        walked_mismatches,
        walked_finished,
        frame_mismatches: frame.mismatches,
        frame_finished: frame.finished,
        before,
        traced,
        traced_before,
    })
}

/// Where a frame's one launch spends its time, by the trace builds' clocks (the engine's and
/// the tile margin's): the sums whose walkers ran longest, and all of the frame's sums
/// together, with how their tiles were planned.
fn traced_table(rows: &[Row]) -> Table {
    let mut t = Table::new(
        "walked_trace",
        "The walked engine's trace builds, first frame in one launch: the slowest walkers, and the frame's sums together",
        &[
            "fixture", "size", "build", "sum (scale, channel, term)", "tiles", "walker µs", "µs in finishes", "last unit word µs", "tiles finished", "tiles with a tie", "walker steps", "walker sleeps", "split ends", "planned from the hint", "ranged look-backs", "look-backs that waited", "= CPU",
        ],
    );
    for r in rows {
        for (build, traced) in [
            ("SSIMULACRA2's shape (mean margin)", &r.traced),
            ("default shape (tile margin, before)", &r.traced_before),
        ] {
            for ts in traced.iter().take(TRACED_LISTED) {
                let name = format!(
                    "{}, {}, {}",
                    ts.scale,
                    ["X", "Y", "B"][ts.channel],
                    TERM_NAMES[ts.term]
                );
                let exact = (if ts.exact { "yes" } else { "no" }).to_string();
                t.row(traced_cells(r, build, name, &[ts], exact));
            }
            let all: Vec<&TracedSum> = traced.iter().collect();
            let exact = format!(
                "{} of {}",
                all.iter().filter(|x| x.exact).count(),
                all.len()
            );
            let name = format!("all {} (walker µs: the longest)", all.len());
            t.row(traced_cells(r, build, name, &all, exact));
        }
    }
    t
}

/// One row of [`traced_table`]: `sums` together (walker µs and last unit word µs the
/// longest, the counts summed).
fn traced_cells(
    r: &Row,
    build: &str,
    name: String,
    sums: &[&TracedSum],
    exact: String,
) -> Vec<String> {
    let us = |ns: u64| format!("{:.1}", ns as f64 / 1e3);
    let sum = |f: &dyn Fn(&WalkedTotal) -> u64| sums.iter().map(|x| f(&x.total)).sum::<u64>();
    let longest = |f: &dyn Fn(&WalkerTrace) -> u64| {
        sums.iter()
            .filter_map(|x| x.total.trace.as_ref().map(f))
            .max()
            .map_or("n/a".into(), us)
    };
    vec![
        r.fixture.clone(),
        r.size.clone(),
        build.to_string(),
        name,
        sum(&|x| x.tiles).to_string(),
        longest(&|tr| tr.walker_ns),
        {
            let traced = sums.iter().any(|x| x.total.trace.is_some());
            if traced {
                us(sum(&|x| x.trace.as_ref().map_or(0, |tr| tr.finish_ns)))
            } else {
                "n/a".into()
            }
        },
        longest(&|tr| tr.producers_ns),
        sum(&|x| x.finished_tiles).to_string(),
        sum(&|x| x.pair_tiles).to_string(),
        sum(&|x| x.steps).to_string(),
        sum(&|x| x.sleeps).to_string(),
        sum(&|x| x.split_ends).to_string(),
        sum(&|x| x.hinted_plans).to_string(),
        sum(&|x| x.ranged_plans).to_string(),
        sum(&|x| x.waited_plans).to_string(),
        exact,
    ]
}

/// The plans' margin, the column before, and the prediction written before the first run
/// with the mean margin.
const MARGIN_TEXT: &str =
    "The plans' margin. The walked engine plans a tile (the binade its unit is \
formed for) from a known prefix P without reading every earlier tile: from the walker's \
exact sum (its hint), from a far anchor's approximate prefix, or from a look-back that \
meets tree sums not yet published. Each takes the k tiles between P and the tile as summing \
to at most 4 k u and plans P's binade where P + 4 k u stays in it; a guess that fails costs \
the walker a finish from the tile's terms and changes no bit. The engine's default shape \
takes u = ts, the tile's own tree sum (`Margin::Tile`: the column before and the second \
trace build); SSIMULACRA2's shape (`ssimulacra2::device::WALKED_SHAPE`, the columns of the \
walked engine and the first trace build) takes u = max(ts, P / n), n the tiles P covers \
(`Margin::Mean`). Why: at 3818228 (H100, `reports/ssimulacra2-walked-trace`) checker-10px \
took 2.93x the tree sums in one launch; one sum (scale 0, B, detail_lost^4) finished 132 of \
its 507 tiles, and the host (`examples/ssim_sum_crossings`) found that a hint 256 tiles \
behind takes 117 plans in that frame's sums by the tile margin, 112 in the wrong binade, \
and none by the mean margin. Prediction written before the first run with the mean margin \
(168b9b2, H100, where it was the engine's default; `reports/walked-margin`): checker-10px in \
one launch at most 1.4x the tree sums, its first frame's sums finishing at most 170 tiles \
and its slowest walker under 300 µs; the tile margin within 10% of 3818228's 1.263 ms; \
astronaut-4k-jpeg30 at least 5% faster than with the tile margin, astronaut-jpeg50 within \
5% of it. Measured: checker-10px 0.436 ms (1.02x; the tile margin 1.243, 2.92x), the first \
frame's sums finishing 131 tiles (the host model with every plan right: 131) with the \
slowest walker at 205 µs (the tile margin in the same run: 333 and 1,220); \
astronaut-4k-jpeg30 1.626 against 1.623 ms (wrong: not faster), astronaut-jpeg50 0.103 \
against 0.100 (+3%). On f64 streams of 10^8 and 2^30 terms the mean margin was 6 to 11% \
slower than the tile margin (`examples/walked_probe`, same call), so it is SSIMULACRA2's \
shape, not the engine's default.";

/// Runs the experiment (needs a GPU).
pub fn run(ctx: &Context) -> Result<Outcome> {
    let gpu = Gpu::open()?;
    let terms = DeviceTerms::new(&gpu)?;
    let sum = GpuOrderedSum::new(&gpu)?;
    let walked = walked_engine(&gpu)?;
    let traced_of = |shape: WalkedShape| WalkedShape {
        trace: true,
        ..shape
    };
    let traced = WalkedSum::build(&gpu, traced_of(WALKED_SHAPE), WalkedMutant::None)?;
    let before = WalkedSum::build(&gpu, WalkedShape::DEFAULT, WalkedMutant::None)?;
    let traced_before =
        WalkedSum::build(&gpu, traced_of(WalkedShape::DEFAULT), WalkedMutant::None)?;
    let engines = Engines {
        terms: &terms,
        sum: &sum,
        walked: &walked,
        traced: &traced,
        before: &before,
        traced_before: &traced_before,
    };
    let loaded = load_fixtures(ctx)?;
    let mut rows = Vec::new();
    let mut missing = Vec::new();
    let bar = ctx.progress(loaded.len() as u64, "ssimulacra2-timing");
    for item in &loaded {
        bar.inc(1);
        match item {
            Loaded::Ready(f) => {
                rows.push(measure(ctx, &gpu, &engines, f).with_context(|| f.name.clone())?)
            }
            Loaded::Missing(name, reason) => missing.push(format!("{name} ({reason})")),
        }
    }
    bar.finish_and_clear();
    let threads = rayon::current_num_threads();
    let mut table = Table::new(
        "timing",
        "Milliseconds per frame (medians; device: CUDA events around every scale's term kernel and sums)",
        &["fixture", "size", "frames", "terms + tree", "terms + ordered", "exact / tree", "CPU 1 thread", &format!("CPU {threads} threads"), "ordered sums != CPU", "terms + walked", "walked / tree", "walked sums != CPU", "walked tiles finished", "terms + walked, one launch", "one launch / tree", "one-launch sums != CPU", "one-launch tiles finished", "one launch, default shape (tile margin, before)", "before / tree", "before: sums != CPU", "before: tiles finished"],
    );
    for r in &rows {
        table.row(vec![
            r.fixture.clone(),
            r.size.clone(),
            r.frames.to_string(),
            format!("{:.3}", r.tree),
            format!("{:.3}", r.exact),
            format!("{:.2}", r.exact / r.tree),
            format!("{:.1}", r.cpu_one),
            format!("{:.1}", r.cpu_all),
            r.mismatches.to_string(),
            format!("{:.3}", r.walked),
            format!("{:.2}", r.walked / r.tree),
            r.walked_mismatches.to_string(),
            r.walked_finished.to_string(),
            format!("{:.3}", r.frame_walked),
            format!("{:.2}", r.frame_walked / r.tree),
            r.frame_mismatches.to_string(),
            r.frame_finished.to_string(),
            format!("{:.3}", r.before.ms),
            format!("{:.2}", r.before.ms / r.tree),
            r.before.mismatches.to_string(),
            r.before.finished.to_string(),
        ]);
    }
    let failures = rows
        .iter()
        .map(|r| {
            r.mismatches
                + r.walked_mismatches
                + r.frame_mismatches
                + r.before.mismatches
                + r.traced
                    .iter()
                    .chain(&r.traced_before)
                    .filter(|t| !t.exact)
                    .count() as u64
        })
        .sum();
    let mut report = Report::new(
        &ctx.name,
        "SSIMULACRA2 per frame: exact sums against tree sums, and the CPU",
    );
    let ratios: Vec<String> = rows
        .iter()
        .map(|r| format!("{} {:.2}", r.size, r.exact / r.tree))
        .collect();
    let walked_ratios: Vec<String> = rows
        .iter()
        .map(|r| format!("{} {:.2}", r.size, r.frame_walked / r.tree))
        .collect();
    // Research-1433's ratio at 3840x2160, from `research/claims.toml`.
    let (seed_ratio, seed_hardware) =
        crate::experiment::research::document_figure("research-1433", "ratio-4k")?;
    let seed_gpu = seed_hardware.split(',').next().unwrap_or("").to_string();
    let listed = |v: &[String]| {
        if v.is_empty() {
            "nothing measured".to_string()
        } else {
            v.join(", ")
        }
    };
    report.headline(format!(
        "exact/tree per frame, walked engine (one launch a frame): {}; seed's pipeline: {} (Research-1433 measured {seed_ratio:.1} on an {seed_gpu})",
        listed(&walked_ratios),
        listed(&ratios)
    ));
    report.text(format!(
        "Per frame: for every scale, the term kernel (`kernels/ssimulacra2.cu`, from the CPU's `f32` \
         planes already on the device) and then the 18 sums of the scale, as tree sums or as ordered \
         sums: the seed's pipeline (`{}` walk, tree-prefix plan; `terms + ordered`) and the walked \
         engine, once with a launch a scale (`terms + walked`: the scale's 18 sums in one launch of \
         `kernels/ordered_sum_walked.cu`, a walker block a sum, the sums' tiles interleaved among the \
         producers) and once with one launch a frame after all its term kernels (`terms + walked, one \
         launch`: the 108 sums in six groups, the smallest scale's first). Frames are rotated \
         between repetitions. The CPU reference is the whole pipeline from YUV (`frame_sums`), on \
         one thread and on {threads}. After timing, every ordered sum of both engines was compared \
         with the CPU's bits; `walked tiles finished` counts the tiles the walked engine's walkers \
         finished from their terms (each sum's first, and those where its sum crosses a binade), \
         over all frames and scales.",
        sum.walk().name()
    ));
    if !missing.is_empty() {
        report.text(format!(
            "Not available here (run `just fixtures`): {}.",
            missing.join(", ")
        ));
    }
    report.table(table);
    report.text(
        "Where the one launch's time goes: the engine's shape built with the walker's trace \
         (`WalkedShape::trace`: the walker stamps the device's global timer at its start and \
         end and adds the time inside its finishes and split ends; producers stamp the latest \
         unit word of the sum), one launch of each fixture's first frame after its term \
         kernels. Its clocks are the trace build's, not the timed build's, and each of the \
         frame's 108 walkers runs in its own block, so the frame ends with its slowest walker. \
         A sum is named by its scale (0 the full frame), its channel and its term \
         (`ssimulacra2::terms::TERM_NAMES`)."
            .to_string(),
    );
    report.text(MARGIN_TEXT.to_string());
    report.table(traced_table(&rows));
    report.plot(Plot {
        stem: "ms_per_frame".into(),
        title: "Milliseconds per frame".into(),
        kind: PlotKind::Bars {
            categories: rows.iter().map(|r| r.size.clone()).collect(),
            series: vec![
                ("terms + tree".into(), rows.iter().map(|r| r.tree).collect()),
                (
                    "terms + ordered".into(),
                    rows.iter().map(|r| r.exact).collect(),
                ),
                (
                    "terms + walked".into(),
                    rows.iter().map(|r| r.walked).collect(),
                ),
                (
                    "terms + walked, one launch".into(),
                    rows.iter().map(|r| r.frame_walked).collect(),
                ),
                (
                    "CPU all cores".into(),
                    rows.iter().map(|r| r.cpu_all).collect(),
                ),
            ],
            x_label: "frame size (pixels)".into(),
            y_label: "ms per frame".into(),
            log_y: true,
        },
    });
    Ok(Outcome { report, failures })
}
