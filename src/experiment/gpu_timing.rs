//! `gpu-timing`: what the exact sum costs on the device, kernel by kernel, beside the plain
//! tree sum, `cupy.sum` on the same data (run by `experiments/peers/cupy_sum.py`), the one-lane
//! loop and the CPU loop, for N from 1e3 to 1e9 terms.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use anyhow::{anyhow, bail, Context as _, Result};
use serde::Deserialize;

use super::{Context, Outcome};
use crate::format::{same_result, F64};
use crate::gpu::timing::{event_times, median};
use crate::gpu::{Gpu, GpuOrderedSum, SumJob};
use crate::mutant::Mutant;
use crate::plan::PlanKind;
use crate::plot::{Plot, PlotKind};
use crate::report::{thousands, Report, Table};
use crate::walk::{chunk_count, loop_sum};

/// Most distinct offsets a size is rotated over (the peer uses the same bound).
const MAX_OFFSETS: usize = 256;

/// Settings read from the experiment file.
struct Settings {
    sizes: Vec<usize>,
    pool: usize,
    warmup: usize,
    reps: usize,
    loop_max: usize,
    cpu_reps: usize,
    term_by_term_n: usize,
    python: String,
    peer: PathBuf,
}

fn settings(ctx: &Context) -> Result<Settings> {
    let reps: usize = ctx.get("reps")?;
    if reps < 1 {
        bail!(super::ConfigError::new(
            &ctx.file,
            "reps",
            "must be at least 1"
        ));
    }
    let dir = ctx.file.parent().unwrap_or(Path::new("."));
    Ok(Settings {
        sizes: ctx.get("sizes")?,
        pool: ctx.get("pool_terms")?,
        warmup: ctx.get_or("warmup", 3)?,
        reps,
        loop_max: ctx.get("one_lane_max")?,
        cpu_reps: ctx.get_or("cpu_reps", 5)?,
        term_by_term_n: ctx.get_or("term_by_term_terms", 8_294_400)?,
        python: std::env::var("BINADE_PYTHON")
            .unwrap_or(ctx.get_or("python", "python3".to_string())?),
        peer: dir.join("peers").join("cupy_sum.py"),
    })
}

/// Median milliseconds of everything measured at one size (NaN: not measured).
#[derive(Clone, Debug, Default)]
struct Row {
    n: usize,
    chunks: usize,
    offsets: usize,
    pipeline: f64,
    kernels: [f64; 4],
    tree: f64,
    cupy: f64,
    one_lane: f64,
    cpu: f64,
    checksum: u64,
    exact_ok: bool,
    fallback: u64,
}

/// The peer's answer for one size.
#[derive(Clone, Debug, Deserialize)]
struct PeerSize {
    n: usize,
    checksum: String,
    median_ms: f64,
}

#[derive(Clone, Debug, Deserialize)]
struct PeerOut {
    cupy: String,
    device: String,
    sizes: Vec<PeerSize>,
}

/// Runs the experiment (needs a GPU; the cupy column needs Python with CuPy).
pub fn run(ctx: &Context) -> Result<Outcome> {
    let gpu = Gpu::open()?;
    let set = settings(ctx)?;
    let sum = GpuOrderedSum::new(&gpu, Mutant::None)?;
    let mut rows = Vec::new();
    let bar = ctx.progress(set.sizes.len() as u64, "gpu-timing");
    for &n in &set.sizes {
        rows.push(measure(&sum, &set, ctx.seed, n)?);
        bar.inc(1);
    }
    bar.finish_and_clear();
    let peer = run_peer(&set, ctx.seed);
    let tbt = term_by_term_cost(&sum, &set, ctx.seed)?;
    let mut failures = rows.iter().filter(|r| !r.exact_ok).count() as u64;
    let peer_note = match &peer {
        Ok(p) => {
            let mut differ = Vec::new();
            for row in rows.iter_mut() {
                if let Some(s) = p.sizes.iter().find(|s| s.n == row.n) {
                    if s.checksum == row.checksum.to_string() {
                        row.cupy = s.median_ms;
                    } else {
                        differ.push(format!(
                            "N={}: checksum {} vs ours {}",
                            row.n, s.checksum, row.checksum
                        ));
                    }
                }
            }
            failures += differ.len() as u64;
            if differ.is_empty() {
                format!("`cupy.sum` from CuPy {} on {}; the data's checksums (sum of the bit patterns modulo 2^64) agree at every size.", p.cupy, p.device)
            } else {
                format!("`cupy.sum` from CuPy {} on {}; its data differed from ours, so those sizes are left out: {}.", p.cupy, p.device, differ.join("; "))
            }
        }
        Err(e) => format!("`cupy.sum` was not measured: {e:#}"),
    };
    Ok(Outcome {
        report: report(ctx, &gpu, &set, &rows, &tbt, &peer_note),
        failures,
    })
}

fn run_peer(set: &Settings, seed: u64) -> Result<PeerOut> {
    let sizes: Vec<String> = set.sizes.iter().map(|n| n.to_string()).collect();
    let out = Command::new(&set.python)
        .arg(&set.peer)
        .args([
            "--sizes",
            &sizes.join(","),
            "--pool",
            &set.pool.to_string(),
            "--seed",
            &seed.to_string(),
        ])
        .args([
            "--warmup",
            &set.warmup.to_string(),
            "--reps",
            &set.reps.to_string(),
        ])
        .output()
        .with_context(|| format!("running {} {}", set.python, set.peer.display()))?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        let last = err.lines().last().unwrap_or("no message");
        return Err(anyhow!(
            "{} exited with {}: {last}",
            set.peer.display(),
            out.status
        ));
    }
    let text = String::from_utf8_lossy(&out.stdout);
    serde_json::from_str(text.trim())
        .with_context(|| format!("reading the output of {}", set.peer.display()))
}

/// Segments of the pool for size `n`: `offsets` disjoint windows, rotated over.
fn windows(pool: usize, n: usize) -> Vec<std::ops::Range<usize>> {
    let k = (pool / n.max(1)).clamp(1, MAX_OFFSETS);
    (0..k).map(|r| r * n..r * n + n).collect()
}

fn times(
    sum: &GpuOrderedSum,
    set: &Settings,
    jobs: &mut [SumJob],
    f: impl Fn(&GpuOrderedSum, &mut SumJob) -> Result<()>,
) -> Result<f64> {
    let k = jobs.len();
    let t = event_times(sum.gpu(), set.warmup, set.reps, |i| {
        f(sum, &mut jobs[i % k])
    })?;
    Ok(median(&t))
}

fn measure(sum: &GpuOrderedSum, set: &Settings, seed: u64, n: usize) -> Result<Row> {
    let count = n.max(set.pool);
    let mut pool = sum.gpu().stream().alloc_zeros::<f64>(count)?;
    sum.fill_uniform(&mut pool, seed)?;
    let checksum = sum.bits_checksum(&pool.as_view())?;
    let mut jobs: Vec<SumJob> = windows(count, n)
        .iter()
        .map(|w| sum.job(pool.slice(0..count), std::slice::from_ref(w)))
        .collect::<Result<_>>()?;
    let tree_prefix = PlanKind::TreePrefix;
    // Every job once, so each stage's inputs exist; the first one is checked against the CPU.
    for job in jobs.iter_mut() {
        sum.run(job, &tree_prefix, None)?;
    }
    let got = sum.run(&mut jobs[0], &tree_prefix, None)?[0];
    let host = sum.gpu().stream().clone_dtoh(&pool.slice(0..n))?;
    let want = loop_sum::<F64>(&host);
    let mut row = Row {
        n,
        chunks: chunk_count(n),
        offsets: jobs.len(),
        checksum,
        fallback: got.fallback,
        ..Row::default()
    };
    row.exact_ok = same_result::<F64>(got.total.to_bits(), want.to_bits());
    row.pipeline = times(sum, set, &mut jobs, |s, j| {
        s.launch_chunk_sums(j)?;
        s.launch_plan(j, &PlanKind::TreePrefix, None)?;
        s.launch_chunk_units(j)?;
        s.launch_totals(j)
    })?;
    row.kernels[0] = times(sum, set, &mut jobs, |s, j| s.launch_chunk_sums(j))?;
    row.kernels[1] = times(sum, set, &mut jobs, |s, j| {
        s.launch_plan(j, &PlanKind::TreePrefix, None)
    })?;
    row.kernels[2] = times(sum, set, &mut jobs, |s, j| s.launch_chunk_units(j))?;
    row.kernels[3] = times(sum, set, &mut jobs, |s, j| s.launch_totals(j))?;
    row.tree = times(sum, set, &mut jobs, |s, j| s.launch_tree(j))?;
    row.one_lane = if n <= set.loop_max {
        times(sum, set, &mut jobs, |s, j| s.launch_loop(j))?
    } else {
        f64::NAN
    };
    row.cpu = cpu_loop_ms(&host, set.cpu_reps);
    row.cupy = f64::NAN;
    Ok(row)
}

/// Median milliseconds of the CPU loop over `terms` (this process's thread).
fn cpu_loop_ms(terms: &[f64], reps: usize) -> f64 {
    let t: Vec<f64> = (0..reps.max(1))
        .map(|_| {
            let t0 = Instant::now();
            std::hint::black_box(loop_sum::<F64>(std::hint::black_box(terms)));
            t0.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    median(&t)
}

/// The walk's cost under the tree-prefix plan and under the all-term-by-term plan.
struct TermByTerm {
    n: usize,
    walk_tree: f64,
    walk_tbt: f64,
    pipeline_tree: f64,
    fallback_tree: u64,
    fallback_tbt: u64,
    exact_ok: bool,
}

fn term_by_term_cost(sum: &GpuOrderedSum, set: &Settings, seed: u64) -> Result<TermByTerm> {
    let n = set.term_by_term_n;
    let mut pool = sum.gpu().stream().alloc_zeros::<f64>(n.max(1))?;
    sum.fill_uniform(&mut pool, seed ^ 0x7bb7)?;
    let mut jobs = vec![sum.job(pool.slice(0..n), &[0..n])?];
    let host = sum.gpu().stream().clone_dtoh(&pool.slice(0..n))?;
    let want = loop_sum::<F64>(&host);
    let tree = sum.run(&mut jobs[0], &PlanKind::TreePrefix, None)?[0];
    let walk_tree = times(sum, set, &mut jobs, |s, j| s.launch_totals(j))?;
    let pipeline_tree = times(sum, set, &mut jobs, |s, j| {
        s.launch_chunk_sums(j)?;
        s.launch_plan(j, &PlanKind::TreePrefix, None)?;
        s.launch_chunk_units(j)?;
        s.launch_totals(j)
    })?;
    let tbt = sum.run(&mut jobs[0], &PlanKind::TermByTerm, None)?[0];
    let walk_tbt = times(sum, set, &mut jobs, |s, j| s.launch_totals(j))?;
    let ok = |g: f64| same_result::<F64>(g.to_bits(), want.to_bits());
    Ok(TermByTerm {
        n,
        walk_tree,
        walk_tbt,
        pipeline_tree,
        fallback_tree: tree.fallback,
        fallback_tbt: tbt.fallback,
        exact_ok: ok(tree.total) && ok(tbt.total),
    })
}

fn ms(x: f64) -> String {
    if x.is_nan() {
        "not run".into()
    } else {
        format!("{x:.4}")
    }
}

fn ratio(a: f64, b: f64) -> String {
    if a.is_nan() || b.is_nan() || b <= 0.0 {
        "n/a".into()
    } else {
        format!("{:.2}", a / b)
    }
}

fn report(
    ctx: &Context,
    gpu: &Gpu,
    set: &Settings,
    rows: &[Row],
    tbt: &TermByTerm,
    peer_note: &str,
) -> Report {
    let mut r = Report::new(
        &ctx.name,
        "What the exact GPU sum costs: kernels, baselines and cupy.sum",
    );
    let big = rows.iter().max_by_key(|r| r.n);
    r.headline(match big {
        Some(b) => format!(
            "At {} terms the exact pipeline takes {} ms ({}x cupy.sum, {}x the plain tree sum); the CPU loop {} ms",
            thousands(b.n as u64),
            ms(b.pipeline),
            ratio(b.pipeline, b.cupy),
            ratio(b.pipeline, b.tree),
            ms(b.cpu)
        ),
        None => "no sizes measured".into(),
    });
    r.text(format!(
        "Device: {} ({}). Medians of {} CUDA-event timings after {} warm-up runs. Terms are uniform doubles in [0, 1) made on the device by a counter-based hash; each size is rotated over up to {} disjoint windows of a pool of at least {} doubles ({} MB), so sizes from 1e6 up are read from memory, not L2, while the smallest sizes stay in L2. {peer_note} The CPU loop is one thread of this host, median of {} runs. The exact pipeline's result was checked against the CPU loop at every size.",
        gpu.name,
        gpu.arch,
        set.reps,
        set.warmup,
        MAX_OFFSETS,
        thousands(set.pool as u64),
        set.pool * 8 / 1_000_000,
        set.cpu_reps
    ));
    r.plot(time_plot(rows));
    r.table(ratio_table(rows));
    r.table(kernel_table(rows));
    r.plot(kernel_plot(rows));
    r.table(tbt_table(tbt));
    r
}

fn series(rows: &[Row], f: impl Fn(&Row) -> f64) -> Vec<(f64, f64)> {
    rows.iter()
        .map(|r| (r.n as f64, f(r)))
        .filter(|p| p.1.is_finite() && p.1 > 0.0)
        .collect()
}

fn time_plot(rows: &[Row]) -> Plot {
    Plot {
        stem: "time_vs_n".into(),
        title: "Time of one sum vs number of terms (median, ms)".into(),
        kind: PlotKind::Lines {
            series: vec![
                ("exact pipeline".into(), series(rows, |r| r.pipeline)),
                ("plain tree sum".into(), series(rows, |r| r.tree)),
                ("cupy.sum".into(), series(rows, |r| r.cupy)),
                (
                    "one GPU lane, in order".into(),
                    series(rows, |r| r.one_lane),
                ),
                ("CPU loop (one thread)".into(), series(rows, |r| r.cpu)),
            ],
            x_label: "terms".into(),
            y_label: "ms".into(),
            log: true,
        },
    }
}

fn kernel_plot(rows: &[Row]) -> Plot {
    let names = ["chunk_sums", "chunk_plan", "chunk_units", "ordered_totals"];
    Plot {
        stem: "kernels_vs_n".into(),
        title: "Each kernel of the exact pipeline (median, ms)".into(),
        kind: PlotKind::Lines {
            series: names
                .iter()
                .enumerate()
                .map(|(i, name)| (name.to_string(), series(rows, |r| r.kernels[i])))
                .collect(),
            x_label: "terms".into(),
            y_label: "ms".into(),
            log: true,
        },
    }
}

fn ratio_table(rows: &[Row]) -> Table {
    let mut t = Table::new(
        "ratios",
        "Median ms per sum, and ratios to cupy.sum",
        &[
            "terms",
            "exact pipeline",
            "plain tree sum",
            "cupy.sum",
            "exact / cupy",
            "tree / cupy",
            "one GPU lane",
            "CPU loop",
            "exact = CPU loop",
        ],
    );
    for r in rows {
        t.row(vec![
            thousands(r.n as u64),
            ms(r.pipeline),
            ms(r.tree),
            ms(r.cupy),
            ratio(r.pipeline, r.cupy),
            ratio(r.tree, r.cupy),
            ms(r.one_lane),
            ms(r.cpu),
            r.exact_ok.to_string(),
        ]);
    }
    t
}

fn kernel_table(rows: &[Row]) -> Table {
    let mut t = Table::new(
        "kernels",
        "Each kernel alone (median ms), and the walk's rate",
        &[
            "terms",
            "chunks",
            "windows",
            "chunk_sums",
            "chunk_plan",
            "chunk_units",
            "ordered_totals",
            "sum of kernels",
            "pipeline",
            "chunks term by term",
            "chunks walked per µs",
        ],
    );
    for r in rows {
        let walked = if r.kernels[3] > 0.0 {
            format!("{:.1}", r.chunks as f64 / (r.kernels[3] * 1e3))
        } else {
            "n/a".into()
        };
        t.row(vec![
            thousands(r.n as u64),
            thousands(r.chunks as u64),
            r.offsets.to_string(),
            ms(r.kernels[0]),
            ms(r.kernels[1]),
            ms(r.kernels[2]),
            ms(r.kernels[3]),
            ms(r.kernels.iter().sum()),
            ms(r.pipeline),
            r.fallback.to_string(),
            walked,
        ]);
    }
    t
}

fn tbt_table(t: &TermByTerm) -> Table {
    let mut tab = Table::new(
        "term_by_term",
        &format!(
            "The all-term-by-term plan on one {}-term sum (walk = ordered_totals)",
            thousands(t.n as u64)
        ),
        &[
            "plan",
            "chunks term by term",
            "walk ms",
            "walk / tree-prefix walk",
            "tree-prefix pipeline ms",
            "both exact",
        ],
    );
    tab.row(vec![
        "tree-prefix".into(),
        t.fallback_tree.to_string(),
        ms(t.walk_tree),
        "1.00".into(),
        ms(t.pipeline_tree),
        t.exact_ok.to_string(),
    ]);
    tab.row(vec![
        "term-by-term".into(),
        t.fallback_tbt.to_string(),
        ms(t.walk_tbt),
        ratio(t.walk_tbt, t.walk_tree),
        ms(t.pipeline_tree),
        t.exact_ok.to_string(),
    ]);
    tab
}
