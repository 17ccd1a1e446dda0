//! `gpu-signed`: signed streams on the device. For each signed kind (`verify::signed_inputs`)
//! and size: the chunks taken term by term and the time (CUDA events, medians) of the device
//! pipeline carrying signed units (group walk and chunk walk) against the same pipeline with
//! the seed's units (which refuse every chunk with a negative term), the one-pass engine (the
//! engine of `binade sum --engine gpu`, whose tiles with a negative term finish lane by lane)
//! and the plain tree sum; on the host's CPU the loop and the fast engine with its signed path
//! (wall clock, all threads). Every total is compared by bits with the CPU loop's.

use std::time::Instant;

use anyhow::{bail, Result};

use super::{Context, Outcome};
use crate::fast::{ordered_sum_par_with, Checks, Shape};
use crate::format::{same_result, F64};
use crate::gpu::timing::{event_times, median};
use crate::gpu::{Gpu, GpuOrderedSum, OnePassSum, SumJob, UnitKind, WalkKind};
use crate::plan::PlanKind;
use crate::report::{ratio_cell, thousands, Report, Table};
use crate::verify::signed_inputs::SignedKind;
use crate::walk::loop_sum;

/// Runs of a variant slower than this (one untimed run, ms) are timed `slow_reps` times.
const SLOW_MS: f64 = 50.0;

struct Settings {
    sizes: Vec<usize>,
    warmup: usize,
    reps: usize,
    slow_reps: usize,
    cpu_reps: usize,
    /// The one-pass engine runs only up to this many terms (its tiles with a negative term
    /// finish lane by lane, one lane a round: seconds at 10^7 terms).
    onepass_max_terms: usize,
}

fn settings(ctx: &Context) -> Result<Settings> {
    let sizes: Vec<usize> = ctx.non_empty("sizes", ctx.get("sizes")?)?;
    if sizes.contains(&0) {
        bail!(super::ConfigError::new(
            &ctx.file,
            "sizes",
            "sizes must be positive"
        ));
    }
    Ok(Settings {
        sizes,
        warmup: ctx.get("warmup")?,
        reps: ctx.positive("reps")?,
        slow_reps: ctx.positive("slow_reps")?,
        cpu_reps: ctx.positive("cpu_reps")?,
        onepass_max_terms: ctx.get_or("onepass_max_terms", usize::MAX)?,
    })
}

/// One timed device variant: median ms, chunks (or tiles) term by term, the bits.
#[derive(Clone, Copy, Debug)]
struct Timed {
    ms: f64,
    fallback: u64,
    total: u64,
}

/// Times `launch` (which must leave the job's results ready): one untimed run decides the
/// repetitions, then the median of CUDA-event times.
fn time_launch(gpu: &Gpu, s: &Settings, mut launch: impl FnMut() -> Result<()>) -> Result<f64> {
    let t = Instant::now();
    launch()?;
    gpu.stream().synchronize()?;
    let first = t.elapsed().as_secs_f64() * 1e3;
    let reps = if first > SLOW_MS { s.slow_reps } else { s.reps };
    let warmup = if first > SLOW_MS { 0 } else { s.warmup };
    Ok(median(&event_times(gpu, warmup, reps, |_| launch())?))
}

fn pipeline(gpu: &Gpu, s: &Settings, sum: &GpuOrderedSum, job: &mut SumJob) -> Result<Timed> {
    let ms = time_launch(gpu, s, || sum.launch(job, &PlanKind::TreePrefix, None))?;
    let r = sum.results(job)?[0];
    Ok(Timed {
        ms,
        fallback: r.fallback,
        total: r.total.to_bits(),
    })
}

/// Everything measured for one kind at one size.
struct Row {
    kind: SignedKind,
    n: usize,
    chunks: u64,
    cpu_loop: f64,
    cpu_fast: f64,
    cpu_fast_native: u64,
    seed_units: Timed,
    signed_groups: Timed,
    signed_chunks: Timed,
    /// The one-pass engine and its tiles (`None` above `onepass_max_terms`).
    onepass: Option<(Timed, u64)>,
    tree: f64,
    exact: bool,
}

/// The compiled engines, once per run (a one-pass build takes about 10 s of NVRTC).
struct Engines {
    seed_units: GpuOrderedSum,
    onepass: OnePassSum,
}

fn measure(
    gpu: &Gpu,
    s: &Settings,
    e: &Engines,
    kind: SignedKind,
    n: usize,
    seed: u64,
) -> Result<Row> {
    let terms = kind.generate(n, seed ^ n as u64);
    let mut loop_ms = Vec::new();
    let mut want = 0.0;
    for _ in 0..s.cpu_reps {
        let t = Instant::now();
        want = loop_sum::<F64>(&terms);
        loop_ms.push(t.elapsed().as_secs_f64() * 1e3);
    }
    let mut fast_ms = Vec::new();
    let mut fast = None;
    for _ in 0..s.cpu_reps {
        let t = Instant::now();
        let f = ordered_sum_par_with(&terms, Checks::ALL, Shape::DEFAULT);
        fast_ms.push(t.elapsed().as_secs_f64() * 1e3);
        fast = Some(f);
    }
    let fast = fast.ok_or_else(|| anyhow::anyhow!("cpu_reps is 0"))?;
    let seed_units = e.seed_units.clone();
    let signed = seed_units.clone().with_units(UnitKind::Signed);
    let dev = seed_units.upload(&terms)?;
    let view = || dev.slice(0..n);
    let whole = 0..n;
    let seg = std::slice::from_ref(&whole);
    let mut job = seed_units.job(view(), seg)?;
    let seed_t = pipeline(gpu, s, &seed_units, &mut job)?;
    let tree = time_launch(gpu, s, || seed_units.launch_tree(&mut job))?;
    let mut sjob = signed.job(view(), seg)?;
    let signed_groups = pipeline(gpu, s, &signed, &mut sjob)?;
    let chunk_walk = signed.clone().with_walk(WalkKind::Chunks);
    let signed_chunks = pipeline(gpu, s, &chunk_walk, &mut sjob)?;
    // A line per stream as it goes, so a run cut by a time limit still leaves its figures in
    // the log (the one-pass engine, whose signed tiles finish lane by lane, comes last).
    eprintln!(
        "gpu-signed: {} n {n}: tree {} ms; seed units {} ms ({} of {} chunks term by term); signed units, group walk {} ms ({}), chunk walk {} ms ({}); CPU loop {} ms, fast {} ms",
        kind.name(),
        ms(tree),
        ms(seed_t.ms),
        seed_t.fallback,
        job.chunks(),
        ms(signed_groups.ms),
        signed_groups.fallback,
        ms(signed_chunks.ms),
        signed_chunks.fallback,
        ms(median(&loop_ms)),
        ms(median(&fast_ms))
    );
    let mut onepass = None;
    if n <= s.onepass_max_terms {
        let op = &e.onepass;
        let mut ojob = op.job(view(), seg)?;
        let op_ms = time_launch(gpu, s, || op.launch(&mut ojob))?;
        let o = op.results(&ojob)?[0];
        eprintln!(
            "gpu-signed: {} n {n}: one-pass engine {} ms ({} of {} tiles finished lane by lane)",
            kind.name(),
            ms(op_ms),
            o.finished_tiles,
            o.tiles
        );
        onepass = Some((
            Timed {
                ms: op_ms,
                fallback: o.finished_tiles,
                total: o.total.to_bits(),
            },
            o.tiles,
        ));
    }
    let w = want.to_bits();
    let exact = [
        seed_t.total,
        signed_groups.total,
        signed_chunks.total,
        fast.total.to_bits(),
    ]
    .iter()
    .chain(onepass.as_ref().map(|o| &o.0.total))
    .all(|&b| same_result::<F64>(b, w));
    Ok(Row {
        kind,
        n,
        chunks: job.chunks(),
        cpu_loop: median(&loop_ms),
        cpu_fast: median(&fast_ms),
        cpu_fast_native: fast.native_chunks as u64,
        seed_units: seed_t,
        signed_groups,
        signed_chunks,
        onepass,
        tree,
        exact,
    })
}

fn ms(x: f64) -> String {
    if x.is_nan() {
        "n/a".into()
    } else {
        format!("{x:.3}")
    }
}

/// Runs the experiment (see the module doc).
pub fn run(ctx: &Context) -> Result<Outcome> {
    let s = settings(ctx)?;
    let gpu = Gpu::open()?;
    let bar = ctx.progress(
        (SignedKind::ALL.len() * s.sizes.len()) as u64,
        "signed streams",
    );
    let engines = Engines {
        seed_units: GpuOrderedSum::new(&gpu)?,
        onepass: OnePassSum::new(&gpu)?,
    };
    let mut rows = Vec::new();
    for &n in &s.sizes {
        for kind in SignedKind::ALL {
            rows.push(measure(&gpu, &s, &engines, kind, n, ctx.seed)?);
            bar.inc(1);
        }
    }
    bar.finish_and_clear();
    let mut chunks = Table::new(
        "signed-chunks",
        "Chunks (1,024 terms) and tiles (8,192) taken term by term or lane by lane: the device pipeline with the seed's units and with signed units (tree-prefix plan), the one-pass engine, the CPU's fast engine",
        &[
            "stream",
            "terms",
            "chunks",
            "seed units: term by term",
            "signed units, group walk: term by term",
            "signed units, chunk walk: term by term",
            "one-pass engine: tiles finished lane by lane, of",
            "CPU fast engine: chunks term by term",
            "every total = loop",
        ],
    );
    let mut times = Table::new(
        "signed-times",
        "Time, ms: device medians of CUDA-event timings (tree-prefix plan made on the device); CPU medians of wall-clock runs on all of the host's threads (the loop on one)",
        &[
            "stream",
            "terms",
            "tree sum (plain)",
            "seed units",
            "signed units, group walk",
            "signed units, chunk walk",
            "one-pass engine",
            "signed group walk / tree sum",
            "seed units / signed group walk",
            "CPU loop",
            "CPU fast engine",
        ],
    );
    let skipped = format!("not run (above onepass_max_terms, {})", s.onepass_max_terms);
    let mut failures = 0;
    for r in &rows {
        failures += u64::from(!r.exact);
        chunks.row(vec![
            r.kind.description().to_string(),
            thousands(r.n as u64),
            thousands(r.chunks),
            thousands(r.seed_units.fallback),
            thousands(r.signed_groups.fallback),
            thousands(r.signed_chunks.fallback),
            r.onepass.map_or(skipped.clone(), |(o, tiles)| {
                format!("{} of {}", thousands(o.fallback), thousands(tiles))
            }),
            thousands(r.cpu_fast_native),
            r.exact.to_string(),
        ]);
        times.row(vec![
            r.kind.description().to_string(),
            thousands(r.n as u64),
            ms(r.tree),
            ms(r.seed_units.ms),
            ms(r.signed_groups.ms),
            ms(r.signed_chunks.ms),
            r.onepass.map_or(skipped.clone(), |(o, _)| ms(o.ms)),
            ratio_cell(r.signed_groups.ms, r.tree),
            ratio_cell(r.seed_units.ms, r.signed_groups.ms),
            ms(r.cpu_loop),
            ms(r.cpu_fast),
        ]);
    }
    let mut report = Report::new(&ctx.name, "Signed streams on the GPU: the pipeline's signed units against the seed's units and the one-pass engine");
    report.text(format!(
        "Device: {} ({}). Each stream made on the host from seed {} (xoshiro256++, `verify::signed_inputs`), copied to the device once; \
         each device variant run once untimed, then timed by CUDA events ({} runs after {} warm-up, or {} runs where the untimed run took over {SLOW_MS} ms), medians. \
         At 10^7 terms and more the terms (80 MB and up) exceed the H200's L2 (60 MB); smaller sizes are not timings of memory. \
         The seed's units (`UnitKind::Unsigned`) refuse a chunk with any negative term; signed units (`UnitKind::Signed`, `signed_unit`'s algebra in `kernels/binade.cuh`) apply where every running offset stays a quantum inside the planned binade, negative sums by symmetry (`chunk_plan_signed`). The one-pass engine runs up to `onepass_max_terms` ({}) terms.",
        gpu.name, gpu.arch, ctx.seed, s.reps, s.warmup, s.slow_reps, s.onepass_max_terms
    ));
    report.text(prediction_text());
    report.table(chunks);
    report.table(times);
    let worst = rows
        .iter()
        .filter(|r| r.n == *s.sizes.iter().max().unwrap_or(&0))
        .map(|r| (r.signed_groups.fallback, r.chunks, r.kind))
        .max_by(|a, b| (a.0 * b.1.max(1)).cmp(&(b.0 * a.1.max(1))));
    report.headline(format!(
        "{} of {} totals had the CPU loop's bits{}",
        rows.iter().filter(|r| r.exact).count(),
        rows.len(),
        worst.map_or(String::new(), |(f, c, k)| format!(
            "; with signed units the most chunks term by term at the largest size: {} of {} ({})",
            thousands(f),
            thousands(c),
            k.description()
        ))
    ));
    Ok(Outcome { report, failures })
}

fn prediction_text() -> String {
    "Prediction, written before the first measurement on the device: with signed units the streams whose sum drifts away from zero (N(1, 1), N(-1, 1), one in twenty negated) go term by term only where the sum crosses a binade (under 0.1% of the chunks at 10^8 terms), and the every-add-a-tie stream not at all (its ties take the parity rule); N(0, 1), alternating signs and close differences wander near zero and cross binades and signs often: 1 to 10% of their chunks. The seed's units take none of the chunks with a negative term (every chunk of every stream but signed ties). Time at 10^8 terms: the signed group walk within 1.5x of the same pipeline's time on uniform non-negative terms (its units are 7 words and composed with 64-bit minima and maxima, the terms read as often), 50x or more faster than the seed's units on these streams, which add every term on one lane.".into()
}
