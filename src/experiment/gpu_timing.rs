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
use crate::gpu::{Gpu, GpuOrderedSum, SumJob, WalkKind};
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

/// Kernels timed alone, in pipeline order.
const KERNELS: [&str; 6] = [
    "chunk_sums",
    "chunk_plan",
    "chunk_units",
    "group_units",
    "ordered_totals",
    "ordered_totals_grouped",
];

/// Median milliseconds of everything measured at one size (NaN: not measured).
#[derive(Clone, Debug, Default)]
struct Row {
    n: usize,
    chunks: usize,
    offsets: usize,
    /// The whole exact pipeline, by walk (`WalkKind::ALL` order).
    pipeline: [f64; 2],
    kernels: [f64; 6],
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
    let sum = GpuOrderedSum::new(&gpu)?;
    let mut rows = Vec::new();
    let bar = ctx.progress(set.sizes.len() as u64, "gpu-timing");
    for &n in &set.sizes {
        rows.push(measure(&sum, &set, ctx.seed, n)?);
        bar.inc(1);
    }
    bar.finish_and_clear();
    let peer = run_peer(&set, ctx.seed);
    let tbt = term_by_term_cost(&sum, &set, ctx.seed)?;
    let mut failures =
        rows.iter().filter(|r| !r.exact_ok).count() as u64 + u64::from(!tbt.exact_ok);
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

/// The ordered sum with each walk, in `WalkKind::ALL` order.
fn walks(sum: &GpuOrderedSum) -> [GpuOrderedSum; 2] {
    WalkKind::ALL.map(|w| sum.clone().with_walk(w))
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
    let [chunk_walk, group_walk] = walks(sum);
    let tp = PlanKind::TreePrefix;
    // Every job once with the group walk (which makes every stage's input, the group units
    // included); the first job is checked against the CPU loop with both walks.
    for job in jobs.iter_mut() {
        group_walk.launch(job, &tp, None)?;
    }
    let host = sum.gpu().stream().clone_dtoh(&pool.slice(0..n))?;
    let want = loop_sum::<F64>(&host);
    let by_chunks = chunk_walk.run(&mut jobs[0], &tp, None)?[0];
    let by_groups = group_walk.run(&mut jobs[0], &tp, None)?[0];
    let ok = |g: f64| same_result::<F64>(g.to_bits(), want.to_bits());
    let mut row = Row {
        n,
        chunks: chunk_count(n),
        offsets: jobs.len(),
        checksum,
        fallback: by_chunks.fallback,
        exact_ok: ok(by_chunks.total) && ok(by_groups.total),
        ..Row::default()
    };
    for (i, s) in [&chunk_walk, &group_walk].into_iter().enumerate() {
        row.pipeline[i] = times(s, set, &mut jobs, |s, j| {
            s.launch(j, &PlanKind::TreePrefix, None)
        })?;
    }
    row.kernels[0] = times(sum, set, &mut jobs, |s, j| s.launch_chunk_sums(j))?;
    row.kernels[1] = times(sum, set, &mut jobs, |s, j| {
        s.launch_plan(j, &PlanKind::TreePrefix, None)
    })?;
    row.kernels[2] = times(sum, set, &mut jobs, |s, j| s.launch_chunk_units(j))?;
    row.kernels[3] = times(sum, set, &mut jobs, |s, j| s.launch_group_units(j))?;
    row.kernels[4] = times(&chunk_walk, set, &mut jobs, |s, j| s.launch_totals(j))?;
    row.kernels[5] = times(&group_walk, set, &mut jobs, |s, j| s.launch_totals(j))?;
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

/// The walk's cost under the tree-prefix plan and under the all-term-by-term plan, by walk.
struct TermByTerm {
    n: usize,
    /// (plan, walk, chunks term by term, walk ms, pipeline ms)
    rows: Vec<(String, WalkKind, u64, f64, f64)>,
    exact_ok: bool,
}

fn term_by_term_cost(sum: &GpuOrderedSum, set: &Settings, seed: u64) -> Result<TermByTerm> {
    let n = set.term_by_term_n;
    let mut pool = sum.gpu().stream().alloc_zeros::<f64>(n.max(1))?;
    sum.fill_uniform(&mut pool, seed ^ 0x7bb7)?;
    let mut jobs = vec![sum.job(pool.slice(0..n), std::slice::from_ref(&(0..n)))?];
    let host = sum.gpu().stream().clone_dtoh(&pool.slice(0..n))?;
    let want = loop_sum::<F64>(&host);
    let mut rows = Vec::new();
    let mut exact_ok = true;
    for plan in [PlanKind::TreePrefix, PlanKind::TermByTerm] {
        for s in walks(sum) {
            let got = s.run(&mut jobs[0], &plan, None)?[0];
            exact_ok &= same_result::<F64>(got.total.to_bits(), want.to_bits());
            let walk = times(&s, set, &mut jobs, |s, j| s.launch_totals(j))?;
            let pipeline = times(&s, set, &mut jobs, |s, j| s.launch(j, &plan, None))?;
            rows.push((plan.name(), s.walk(), got.fallback, walk, pipeline));
        }
    }
    Ok(TermByTerm { n, rows, exact_ok })
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
    r.headline(match rows.iter().max_by_key(|r| r.n) {
        Some(b) => format!(
            "At {} terms the exact pipeline takes {} ms with the group walk ({}x cupy.sum) and {} ms with the seed's chunk walk ({}x); the plain tree sum {} ms, the CPU loop {} ms",
            thousands(b.n as u64),
            ms(b.pipeline[1]),
            ratio(b.pipeline[1], b.cupy),
            ms(b.pipeline[0]),
            ratio(b.pipeline[0], b.cupy),
            ms(b.tree),
            ms(b.cpu)
        ),
        None => "no sizes measured".into(),
    });
    r.text(format!(
        "Device: {} ({}). Medians of {} CUDA-event timings after {} warm-up runs, nothing copied to or from the host inside a timing. Terms are uniform doubles in [0, 1) made on the device by a counter-based hash; each size is rotated over up to {} disjoint windows of a pool of at least {} doubles ({} MB, over 4x the 60 MB L2 from 1e5 terms up; the smallest sizes stay in L2). {peer_note} The CPU loop is one thread of this host, median of {} runs. Both exact pipelines (the seed's chunk walk, and the group walk that steps over 256 chunks planned for one binade at a time) were checked against the CPU loop's bits at every size.",
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
                ("exact, group walk".into(), series(rows, |r| r.pipeline[1])),
                (
                    "exact, chunk walk (seed)".into(),
                    series(rows, |r| r.pipeline[0]),
                ),
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
    Plot {
        stem: "kernels_vs_n".into(),
        title: "Each kernel of the exact pipeline alone (median, ms)".into(),
        kind: PlotKind::Lines {
            series: KERNELS
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
            "exact, group walk",
            "exact, chunk walk",
            "plain tree sum",
            "cupy.sum",
            "group walk / cupy",
            "chunk walk / cupy",
            "tree / cupy",
            "one GPU lane",
            "CPU loop",
            "exact = CPU loop",
        ],
    );
    for r in rows {
        t.row(vec![
            thousands(r.n as u64),
            ms(r.pipeline[1]),
            ms(r.pipeline[0]),
            ms(r.tree),
            ms(r.cupy),
            ratio(r.pipeline[1], r.cupy),
            ratio(r.pipeline[0], r.cupy),
            ratio(r.tree, r.cupy),
            ms(r.one_lane),
            ms(r.cpu),
            r.exact_ok.to_string(),
        ]);
    }
    t
}

fn kernel_table(rows: &[Row]) -> Table {
    let mut headers = vec!["terms", "chunks", "windows"];
    headers.extend(KERNELS);
    headers.extend([
        "chunks term by term",
        "chunks walked per µs (chunk walk)",
        "chunks walked per µs (group walk)",
    ]);
    let mut t = Table::new(
        "kernels",
        "Each kernel alone (median ms), and the walks' rates",
        &headers,
    );
    let rate = |chunks: usize, ms: f64| {
        if ms > 0.0 {
            format!("{:.1}", chunks as f64 / (ms * 1e3))
        } else {
            "n/a".into()
        }
    };
    for r in rows {
        let mut cells = vec![
            thousands(r.n as u64),
            thousands(r.chunks as u64),
            r.offsets.to_string(),
        ];
        cells.extend(r.kernels.iter().map(|&k| ms(k)));
        cells.extend([
            r.fallback.to_string(),
            rate(r.chunks, r.kernels[4]),
            rate(r.chunks, r.kernels[5]),
        ]);
        t.row(cells);
    }
    t
}

fn tbt_table(t: &TermByTerm) -> Table {
    let mut tab = Table::new(
        "term_by_term",
        &format!("The all-term-by-term plan on one {}-term sum (walk: the last kernel alone; the term-by-term plan is made on the host, so its pipeline time includes that round trip)", thousands(t.n as u64)),
        &["plan", "walk", "chunks term by term", "walk ms", "pipeline ms", "exact"],
    );
    for (plan, walk, fallback, w, p) in &t.rows {
        tab.row(vec![
            plan.clone(),
            walk.name().into(),
            fallback.to_string(),
            ms(*w),
            ms(*p),
            t.exact_ok.to_string(),
        ]);
    }
    tab
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_are_disjoint_and_inside_the_pool() {
        for (pool, n) in [
            (32_000_000usize, 1_000usize),
            (32_000_000, 10_000_000),
            (100, 1_000),
            (1_000, 1_000),
        ] {
            let w = windows(pool.max(n), n);
            assert!(!w.is_empty() && w.len() <= MAX_OFFSETS, "pool {pool} n {n}");
            assert!(
                w.iter()
                    .all(|r| r.end - r.start == n && r.end <= pool.max(n)),
                "pool {pool} n {n}"
            );
            assert!(
                w.windows(2).all(|p| p[0].end <= p[1].start),
                "pool {pool} n {n}"
            );
        }
    }
}
