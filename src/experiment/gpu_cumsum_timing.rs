//! `gpu-cumsum-timing`: what the exact running sums ([`GpuCumsum`]) cost on the device, per
//! distribution and size, beside the one-pass sum of the same terms (what the running sums add
//! to it), a device copy of the terms (the memory floor of any scan: each term read once and
//! written once), `cupy.cumsum` on the same uniform data (run by
//! `experiments/peers/cupy_cumsum.py`, with CuPy's own scan and with CUB's) and the CPU loop.
//! Every timed output is compared with the CPU loop's running sums at every position (on the
//! device, [`GpuCumsum::first_difference`]), and relaunched to show it does not vary;
//! `cupy.cumsum`'s outputs are compared with the loop's by checksum of their bits.

use std::process::Command;
use std::time::Instant;

use anyhow::{Context as _, Result};
use cudarc::driver::CudaSlice;
use serde::Deserialize;

use super::gpu_parity::cumsum::loop_running_sums;
use super::peer_timing::PeerTiming;
use super::{Context, Outcome};
use crate::cumsum::Start;
use crate::gpu::ordered_sum::onepass::{Distribution, Schedule};
use crate::gpu::timing::{event_times, median};
use crate::gpu::{Gpu, GpuCumsum, OnePassJob, OnePassSum};
use crate::report::{ratio_cell as ratio, thousands, Report, Table};

/// Most distinct windows a size is rotated over (the peer uses the same bound).
const MAX_OFFSETS: usize = 256;

/// Relaunches of the first window checked against the loop besides the timed ones.
const CHECKS: usize = 3;

/// The file's keys ([`PeerTiming`]); the peer is `cupy_cumsum.py`.
type Settings = PeerTiming;

fn settings(ctx: &Context) -> Result<Settings> {
    PeerTiming::read(ctx, "cupy_cumsum.py")
}

/// Everything measured for one distribution at one size (ms medians).
#[derive(Clone, Debug)]
struct Row {
    dist: Distribution,
    n: usize,
    windows: usize,
    cumsum: f64,
    /// The running sums under the other schedules: [two buffers, one buffer] at every size.
    other: [f64; 2],
    /// Whether each of [`Row::other`]'s first-window outputs had the loop's bits everywhere.
    other_exact: [bool; 2],
    sum: f64,
    copy: f64,
    cpu_loop: f64,
    tiles: u64,
    finished_tiles: u64,
    /// Launches (of the first window, timed ones excluded) whose every position had the
    /// loop's bits, of [`CHECKS`].
    exact_launches: usize,
    first_difference: Option<u64>,
    /// Sum modulo 2^64 of the bits of the loop's running sums (first window), for the peer.
    loop_checksum: u64,
    /// Sum modulo 2^64 of the pool's bits (the peer's data check).
    pool_checksum: u64,
}

#[derive(Clone, Debug, Deserialize)]
struct PeerRun {
    routine: String,
    median_ms: f64,
    out_checksums: Vec<String>,
}

#[derive(Clone, Debug, Deserialize)]
struct PeerSize {
    n: usize,
    checksum: String,
    runs: Vec<PeerRun>,
}

#[derive(Clone, Debug, Deserialize)]
struct PeerOut {
    cupy: String,
    device: String,
    accelerators: Option<Vec<String>>,
    sizes: Vec<PeerSize>,
}

fn bits_checksum(xs: &[f64]) -> u64 {
    xs.iter().fold(0u64, |a, x| a.wrapping_add(x.to_bits()))
}

fn measure(
    c: &GpuCumsum,
    op: &OnePassSum,
    set: &Settings,
    dist: Distribution,
    n: usize,
    seed: u64,
) -> Result<Row> {
    let gpu = c.engine().gpu();
    let s = gpu.stream();
    let count = n.max(set.pool);
    let mut pool: CudaSlice<f64> = s.alloc_zeros(count)?;
    c.engine().fill(&mut pool, seed, dist)?;
    let host_pool = s.clone_dtoh(&pool)?;
    let pool_checksum = bits_checksum(&host_pool);
    let k = (count / n).clamp(1, MAX_OFFSETS);
    let windows: Vec<_> = (0..k).map(|r| r * n..r * n + n).collect();
    let start = Start::FirstTerm;
    let t0 = Instant::now();
    let want = loop_running_sums(&host_pool[0..n], start);
    let cpu_loop = t0.elapsed().as_secs_f64() * 1e3;
    drop(host_pool);
    let loop_checksum = bits_checksum(&want);
    let dwant = s.clone_htod(&want)?;
    drop(want);
    let mut out: CudaSlice<f64> = s.alloc_zeros(n)?;
    let mut exact_launches = 0;
    let mut first_difference = None;
    let mut tiles = (0, 0);
    for launch in 0..CHECKS {
        s.memset_zeros(&mut out)?;
        let run = c.run(pool.slice(0..n), &mut out.slice_mut(0..n), start)?;
        if launch == 0 {
            tiles = (run.tiles, run.finished_tiles);
        }
        match c.first_difference(&out.slice(0..n), &dwant.slice(0..n))? {
            None => exact_launches += 1,
            Some(d) => first_difference = Some(first_difference.unwrap_or(d.first).min(d.first)),
        }
    }
    let cumsum = time_running_sums(c, &pool, &windows, &mut out, start, set)?;
    let mut other = [f64::NAN; 2];
    let mut other_exact = [false; 2];
    for (i, schedule) in OTHER_SCHEDULES.into_iter().enumerate() {
        let v = c.clone().with_schedule(schedule);
        s.memset_zeros(&mut out)?;
        v.run(pool.slice(0..n), &mut out.slice_mut(0..n), start)?;
        other_exact[i] = v
            .first_difference(&out.slice(0..n), &dwant.slice(0..n))?
            .is_none();
        other[i] = time_running_sums(&v, &pool, &windows, &mut out, start, set)?;
    }
    drop(dwant);
    let mut sjobs: Vec<OnePassJob> = windows
        .iter()
        .map(|w| op.job(pool.slice(0..count), std::slice::from_ref(w)))
        .collect::<Result<_>>()?;
    let sum = median(&event_times(gpu, set.warmup, set.reps, |r| {
        op.launch(&mut sjobs[r % k])
    })?);
    drop(sjobs);
    let copy = median(&event_times(gpu, set.warmup, set.reps, |r| {
        s.memcpy_dtod(
            &pool.slice(windows[r % k].clone()),
            &mut out.slice_mut(0..n),
        )?;
        Ok(())
    })?);
    Ok(Row {
        dist,
        n,
        windows: k,
        cumsum,
        other,
        other_exact,
        sum,
        copy,
        cpu_loop,
        tiles: tiles.0,
        finished_tiles: tiles.1,
        exact_launches,
        first_difference,
        loop_checksum,
        pool_checksum,
    })
}

/// Median ms of `c`'s running sums over `windows` of `pool` (rotated), written into `out`.
fn time_running_sums(
    c: &GpuCumsum,
    pool: &CudaSlice<f64>,
    windows: &[std::ops::Range<usize>],
    out: &mut CudaSlice<f64>,
    start: Start,
    set: &Settings,
) -> Result<f64> {
    let n = windows[0].len();
    let mut jobs: Vec<OnePassJob> = windows
        .iter()
        .map(|w| {
            c.engine()
                .job(pool.slice(w.clone()), std::slice::from_ref(&(0..n)))
        })
        .collect::<Result<_>>()?;
    let k = jobs.len();
    Ok(median(&event_times(
        c.engine().gpu(),
        set.warmup,
        set.reps,
        |r| c.launch(&mut jobs[r % k], &mut out.slice_mut(0..n), start),
    )?))
}

/// The schedules timed beside the running sums' own
/// ([`crate::gpu::ordered_cumsum::CUMSUM_SCHEDULE`], one block per tile), in the order of
/// [`Row::other`].
const OTHER_SCHEDULES: [Schedule; 2] = [Schedule::Staged, Schedule::Resident];

fn run_peer(set: &Settings, seed: u64) -> Result<PeerOut> {
    let sizes: Vec<String> = set.sizes.iter().map(|n| n.to_string()).collect();
    let out = Command::new(&set.python)
        .arg(&set.peer)
        .args(["--sizes", &sizes.join(","), "--pool", &set.pool.to_string()])
        .args([
            "--seed",
            &seed.to_string(),
            "--warmup",
            &set.warmup.to_string(),
        ])
        .args(["--reps", &set.reps.to_string()])
        .output()
        .with_context(|| format!("running {} {}", set.python, set.peer.display()))?;
    super::peer_json(&set.peer, &out)
}

/// Runs the experiment (needs a GPU; the cupy columns need Python with CuPy).
pub fn run(ctx: &Context) -> Result<Outcome> {
    let gpu = Gpu::open()?;
    let set = settings(ctx)?;
    let c = GpuCumsum::new(&gpu)?;
    let op = OnePassSum::new(&gpu)?;
    let mut rows = Vec::new();
    let bar = ctx.progress(
        (set.sizes.len() * Distribution::ALL.len()) as u64,
        "gpu-cumsum-timing",
    );
    for &dist in &Distribution::ALL {
        for &n in &set.sizes {
            rows.push(measure(&c, &op, &set, dist, n, ctx.seed)?);
            bar.inc(1);
        }
    }
    bar.finish_and_clear();
    let peer = run_peer(&set, ctx.seed);
    Ok(report(ctx, &gpu, &set, &rows, &peer))
}

/// The peer's (median ms, equals the loop's bits in every run, distinct output checksums)
/// for `routine` at the uniform row `r`; None where not measured or its data differed.
fn peer_cell<'a>(peer: &'a PeerOut, r: &Row, routine: &str) -> Option<(&'a PeerRun, bool, usize)> {
    let p = peer.sizes.iter().find(|p| p.n == r.n)?;
    if p.checksum != r.pool_checksum.to_string() {
        return None;
    }
    let run = p.runs.iter().find(|x| x.routine == routine)?;
    let want = r.loop_checksum.to_string();
    let mut distinct = run.out_checksums.clone();
    distinct.sort();
    distinct.dedup();
    let all_loop = !run.out_checksums.is_empty() && run.out_checksums.iter().all(|c| *c == want);
    Some((run, all_loop, distinct.len()))
}

fn report(
    ctx: &Context,
    gpu: &Gpu,
    set: &Settings,
    rows: &[Row],
    peer: &Result<PeerOut>,
) -> Outcome {
    let failures = rows.iter().filter(|r| r.exact_launches != CHECKS).count() as u64;
    let mut rep = Report::new(
        &ctx.name,
        "Exact running sums on the GPU: cost against cupy.cumsum, the one-pass sum and a copy",
    );
    let uniform_last = rows
        .iter()
        .filter(|r| r.dist == Distribution::Uniform)
        .max_by_key(|r| r.n);
    let cupy = |r: &Row, routine: &str| -> f64 {
        peer.as_ref()
            .ok()
            .and_then(|p| peer_cell(p, r, routine))
            .map_or(f64::NAN, |(run, _, _)| run.median_ms)
    };
    if let Some(b) = uniform_last {
        rep.headline(format!(
            "At {} uniform terms the exact running sums take {} ms ({}x cupy.cumsum, {}x with CUB's scan; {}x the one-pass sum, {}x a device copy); {} of {} inputs had the loop's bits at every position in every launch",
            thousands(b.n as u64),
            ms(b.cumsum),
            ratio(b.cumsum, cupy(b, "default")),
            ratio(b.cumsum, cupy(b, "cub")),
            ratio(b.cumsum, b.sum),
            ratio(b.cumsum, b.copy),
            rows.len() as u64 - failures,
            rows.len()
        ));
    }
    rep.text(format!(
        "Device: {} ({}). Each running sum is numpy's convention (the first output is the first term; then `s += x`), the one-pass engine's running-sum build (`kernels/ordered_sum_onepass.cu` with `BINADE_OP_CUMSUM 1`): a tile publishes its exact end as the sum engine does, then finds its lanes' exact starts by the finishing scan and each lane adds its terms natively, writing every running sum into the tile's buffer, from which the tile stores them coalesced (under the single-buffer schedule, directly). The running sums' schedule: one block per tile at every size (`CUMSUM_SCHEDULE`); resident blocks with two tile buffers (`Schedule::Staged`) and with one (the sum engine's from 32,768 tiles until it held tiles in registers; the held kernel has no running sums) are timed and checked beside it. Times are medians of {} CUDA-event timings after {} untimed runs, each size rotated over up to {MAX_OFFSETS} disjoint windows of a pool of at least {} doubles (beyond L2), the same windows for every engine. The data is made on the device by `fill_distribution`; the uniform pool is the one `cupy_cumsum.py` makes, checked by checksum. Correctness: the first window's running sums, launched {CHECKS} times outside the timing, each compared at every position with the CPU loop's on the host (`s += x` in order, numpy's first term), on the device by `first_difference` (bits, NaN as NaN). `cupy.cumsum` is compared by the checksum of its output's bits (sum modulo 2^64) against the loop's, after each of its runs.",
        gpu.name, gpu.arch, set.reps, set.warmup, thousands(set.pool as u64)
    ));
    rep.text(prediction_text());
    rep.text(match peer {
        Ok(p) => format!(
            "`cupy.cumsum` from CuPy {} on {}; its routine accelerators at start: {}. `default` is CuPy's scan with those, `cub` with CUB's (`cp._core.set_routine_accelerators(['cub'])`).",
            p.cupy,
            p.device,
            p.accelerators.as_ref().map_or("not reported".to_string(), |a| if a.is_empty() { "none".into() } else { a.join(", ") })
        ),
        Err(e) => format!("`cupy.cumsum` was not measured: {e:#}"),
    });
    rep.table(time_table(rows, peer));
    rep.table(check_table(rows, peer));
    Outcome {
        report: rep,
        failures,
    }
}

fn prediction_text() -> String {
    "Prediction, written before the first measurement: the running sums cost the one-pass sum (4.4 ms at 2^30 uniform terms) plus the second look at each tile's terms and the writes, most of it overlapped: about 6 ms at 2^30 uniform terms; `cupy.cumsum` reads and writes each term once, at best a copy (about 3.9 ms at 2^30), so about 1.5x `cupy.cumsum` if CuPy's scan runs near a copy's rate. Measured (commit 6d1ad92): 23.35 ms at 2^30 uniform terms (2.31x `cupy.cumsum`), 1.86 ms at 10^8 (1.94x). Each lane stored its own 32 consecutive running sums (a warp's store touching 32 sectors), and under the single-buffer resident schedule every tile whose unit applied read its terms again from global memory the same way. This version stages the running sums in the tile's buffer and stores them with coalesced 16-byte stores, and runs one block per tile at every size (each tile keeps its terms, nothing is read twice from memory). Predicted before its first measurement: 2^30 uniform terms from 23.35 to about 9 ms (0.9x `cupy.cumsum`), 10^8 from 1.86 to about 0.9 ms; two tile buffers per resident block about 0.8 ms at 10^8; every row within 1.5x `cupy.cumsum`.".into()
}

fn ms(x: f64) -> String {
    if x.is_nan() {
        "n/a".into()
    } else {
        format!("{x:.4}")
    }
}

fn time_table(rows: &[Row], peer: &Result<PeerOut>) -> Table {
    let mut t = Table::new(
        "cumsum_times",
        "Median ms per running sum (cupy on the uniform data only)",
        &[
            "distribution",
            "terms",
            "windows",
            "exact running sums",
            "two tile buffers at every size",
            "one tile buffer at every size",
            "one-pass sum",
            "device copy",
            "cupy.cumsum",
            "cupy.cumsum (CUB)",
            "exact / cupy",
            "exact / cupy (CUB)",
            "exact / sum",
            "exact / copy",
            "exact GB/s (read + write)",
            "CPU loop",
        ],
    );
    for r in rows {
        let (cu, cub) = match peer {
            Ok(p) if r.dist == Distribution::Uniform => (
                peer_cell(p, r, "default").map_or(f64::NAN, |x| x.0.median_ms),
                peer_cell(p, r, "cub").map_or(f64::NAN, |x| x.0.median_ms),
            ),
            _ => (f64::NAN, f64::NAN),
        };
        t.row(vec![
            r.dist.name().into(),
            thousands(r.n as u64),
            r.windows.to_string(),
            ms(r.cumsum),
            ms(r.other[0]),
            ms(r.other[1]),
            ms(r.sum),
            ms(r.copy),
            ms(cu),
            ms(cub),
            ratio(r.cumsum, cu),
            ratio(r.cumsum, cub),
            ratio(r.cumsum, r.sum),
            ratio(r.cumsum, r.copy),
            format!("{:.0}", 16.0 * r.n as f64 / (r.cumsum * 1e6)),
            ms(r.cpu_loop),
        ]);
    }
    t
}

fn yes_no(b: bool) -> String {
    (if b { "yes" } else { "no" }).into()
}

fn check_table(rows: &[Row], peer: &Result<PeerOut>) -> Table {
    let mut t = Table::new(
        "cumsum_checks",
        "Correctness: the exact running sums at every position, and cupy.cumsum's bits",
        &[
            "distribution",
            "terms",
            "tiles",
            "tiles finished lane by lane",
            "launches with the loop's bits everywhere",
            "first differing position",
            "two buffers: the loop's bits everywhere",
            "one buffer: the loop's bits everywhere",
            "cupy.cumsum = loop (every run)",
            "cupy.cumsum distinct outputs",
            "cupy.cumsum (CUB) = loop (every run)",
            "cupy.cumsum (CUB) distinct outputs",
        ],
    );
    for r in rows {
        let cell = |routine: &str| -> (String, String) {
            match peer {
                Ok(p) if r.dist == Distribution::Uniform => match peer_cell(p, r, routine) {
                    Some((_, same, distinct)) => (
                        (if same { "yes" } else { "no" }).into(),
                        distinct.to_string(),
                    ),
                    None => ("n/a".into(), "n/a".into()),
                },
                _ => ("n/a".into(), "n/a".into()),
            }
        };
        let (a, b) = cell("default");
        let (c2, d) = cell("cub");
        t.row(vec![
            r.dist.name().into(),
            thousands(r.n as u64),
            thousands(r.tiles),
            thousands(r.finished_tiles),
            format!("{} of {CHECKS}", r.exact_launches),
            r.first_difference.map_or("none".into(), |f| f.to_string()),
            yes_no(r.other_exact[0]),
            yes_no(r.other_exact[1]),
            a,
            b,
            c2,
            d,
        ]);
    }
    t
}
