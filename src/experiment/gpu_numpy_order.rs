//! `gpu-numpy-order`: `np.sum`'s bits on the device ([`GpuNumpySum`], numpy's pairwise order)
//! and what they cost, per distribution and size, beside `cupy.sum` (a tree sum of other bits),
//! the one-pass exact sum of the sequential loop on the same terms and a device copy; and on
//! the uniform data, `np.sum` itself on the host (run by `experiments/peers/cupy_numpy_sum.py`),
//! whose bits the device's must equal. Every device sum is also compared with the `numpy`
//! order's loop on the host ([`crate::order::loop_sum_in`]) in every check launch.

use std::process::Command;
use std::time::Instant;

use anyhow::{Context as _, Result};
use cudarc::driver::CudaSlice;
use serde::Deserialize;

use super::peer_timing::PeerTiming;
use super::{Context, Outcome};
use crate::format::{same_result, F64};
use crate::gpu::numpy_sum::{
    GpuNumpySum, LeafLoads, NumpyMutant, NumpyWork, RowLoads, TileGrid, DEFAULT_F64_LOADS, FAN_LOG2,
};
use crate::gpu::ordered_sum::onepass::Distribution;
use crate::gpu::timing::{event_times, median};
use crate::gpu::{Gpu, OnePassJob, OnePassSum};
use crate::order::{loop_sum_in, CpuOrder};
use crate::report::{ratio_cell as ratio, thousands, Report, Table};

/// Most distinct windows a size is rotated over (the peer uses the same bound).
const MAX_OFFSETS: usize = 256;

/// Launches of the first window compared with the order's loop, besides the timed ones.
const CHECKS: usize = 3;

/// The file's keys ([`PeerTiming`]); the peer is `cupy_numpy_sum.py`.
type Settings = PeerTiming;

fn settings(ctx: &Context) -> Result<Settings> {
    PeerTiming::read(ctx, "cupy_numpy_sum.py")
}

/// Everything measured for one distribution at one size (ms medians).
#[derive(Clone, Debug)]
struct Row {
    dist: Distribution,
    n: usize,
    windows: usize,
    /// The numpy order's median ms per variant ([`VARIANTS`]).
    numpy_order: [f64; V],
    onepass: f64,
    copy: f64,
    /// The `numpy` order's loop on the host over the first window.
    cpu_order: f64,
    /// Its bits.
    want_bits: u64,
    /// Check launches whose sum had those bits, of [`CHECKS`], per build.
    exact_launches: [usize; V],
    /// The device's bits in the first check launch, per build.
    got_bits: [u64; V],
    /// Sum modulo 2^64 of the pool's bits (the peer's data check).
    pool_checksum: u64,
}

#[derive(Clone, Debug, Deserialize)]
struct PeerSize {
    n: usize,
    checksum: String,
    cupy_median_ms: f64,
    cupy_bits: String,
    np_sum_bits: String,
    np_sum_ms: f64,
}

#[derive(Clone, Debug, Deserialize)]
struct PeerOut {
    cupy: String,
    numpy: String,
    device: String,
    sizes: Vec<PeerSize>,
}

fn bits_checksum(xs: &[f64]) -> u64 {
    xs.iter().fold(0u64, |a, x| a.wrapping_add(x.to_bits()))
}

/// One variant: leaf loads, row loads, level 1's grid and the fan of the levels above.
type Variant = (LeafLoads, RowLoads, TileGrid, u32);

/// The variants timed, the default (the engine of `binade sum --engine gpu --order numpy`)
/// first, then each choice changed alone.
const VARIANTS: [Variant; V] = [
    (
        DEFAULT_F64_LOADS,
        RowLoads::InTurn,
        TileGrid::PerPoint,
        FAN_LOG2,
    ),
    (
        LeafLoads::Single,
        RowLoads::InTurn,
        TileGrid::PerPoint,
        FAN_LOG2,
    ),
    (
        DEFAULT_F64_LOADS,
        RowLoads::AllFirst,
        TileGrid::PerPoint,
        FAN_LOG2,
    ),
    (
        DEFAULT_F64_LOADS,
        RowLoads::InTurn,
        TileGrid::Resident,
        FAN_LOG2,
    ),
    (
        DEFAULT_F64_LOADS,
        RowLoads::InTurn,
        TileGrid::PerPoint,
        FAN_LOG2 + 1,
    ),
];
const V: usize = 5;

/// A variant's name in the report: how it differs from the default.
fn variant_name((loads, rows, grid, fan): Variant) -> String {
    let mut parts = Vec::new();
    if loads != DEFAULT_F64_LOADS {
        parts.push(format!("{loads:?} leaf loads").to_lowercase());
    }
    if rows == RowLoads::AllFirst {
        parts.push("rows loaded first".to_string());
    }
    if grid == TileGrid::Resident {
        parts.push("resident blocks".to_string());
    }
    if fan != FAN_LOG2 {
        parts.push(format!("fan 2^{fan}"));
    }
    if parts.is_empty() {
        "the default".into()
    } else {
        parts.join(", ")
    }
}

fn measure(
    builds: &[GpuNumpySum<f64>],
    op: &OnePassSum,
    set: &Settings,
    dist: Distribution,
    n: usize,
    seed: u64,
) -> Result<Row> {
    let gpu = builds[0].gpu();
    let s = gpu.stream();
    let count = n.max(set.pool);
    let mut pool: CudaSlice<f64> = s.alloc_zeros(count)?;
    op.fill(&mut pool, seed, dist)?;
    let host_pool = s.clone_dtoh(&pool)?;
    let pool_checksum = bits_checksum(&host_pool);
    let t0 = Instant::now();
    let want = loop_sum_in::<F64>(&host_pool[0..n], CpuOrder::Numpy);
    let cpu_order = t0.elapsed().as_secs_f64() * 1e3;
    drop(host_pool);
    let k = (count / n).clamp(1, MAX_OFFSETS);
    let windows: Vec<_> = (0..k).map(|r| r * n..r * n + n).collect();
    let mut exact_launches = [0; V];
    let mut got_bits = [0; V];
    let mut numpy_order = [f64::NAN; V];
    for (b, np) in builds.iter().enumerate() {
        let mut work: NumpyWork<f64> = np.work(n as u64)?;
        for launch in 0..CHECKS {
            np.launch(&pool.slice(0..n), &mut work)?;
            let got = np.result(&work)?;
            if launch == 0 {
                got_bits[b] = got.to_bits();
            }
            exact_launches[b] += usize::from(same_result::<F64>(got.to_bits(), want.to_bits()));
        }
        numpy_order[b] = median(&event_times(gpu, set.warmup, set.reps, |r| {
            np.launch(&pool.slice(windows[r % k].clone()), &mut work)
        })?);
    }
    let mut jobs: Vec<OnePassJob> = windows
        .iter()
        .map(|w| op.job(pool.slice(0..count), std::slice::from_ref(w)))
        .collect::<Result<_>>()?;
    let onepass = median(&event_times(gpu, set.warmup, set.reps, |r| {
        op.launch(&mut jobs[r % k])
    })?);
    drop(jobs);
    let mut out: CudaSlice<f64> = s.alloc_zeros(n)?;
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
        numpy_order,
        onepass,
        copy,
        cpu_order,
        want_bits: want.to_bits(),
        exact_launches,
        got_bits,
        pool_checksum,
    })
}

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

/// Runs the experiment (needs a GPU; the peer columns need Python with CuPy and numpy).
pub fn run(ctx: &Context) -> Result<Outcome> {
    let gpu = Gpu::open()?;
    let set = settings(ctx)?;
    let builds: Vec<GpuNumpySum<f64>> = VARIANTS
        .iter()
        .map(|&(l, r, g, f)| {
            GpuNumpySum::<f64>::with_build(&gpu, NumpyMutant::None, l, r)
                .map(|b| b.with_grid(g).with_fan(f))
        })
        .collect::<Result<_>>()?;
    let op = OnePassSum::new(&gpu)?;
    let mut rows = Vec::new();
    let bar = ctx.progress(
        (set.sizes.len() * Distribution::ALL.len()) as u64,
        "gpu-numpy-order",
    );
    for &dist in &Distribution::ALL {
        for &n in &set.sizes {
            let r = measure(&builds, &op, &set, dist, n, ctx.seed)?;
            eprintln!(
                "gpu-numpy-order: {} n {n}: numpy order {:?} ms (variants {:?}), one pass {} ms, copy {} ms, {:?} of {CHECKS} launches with the order's bits",
                dist.name(),
                r.numpy_order,
                VARIANTS,
                ms(r.onepass),
                ms(r.copy),
                r.exact_launches
            );
            rows.push(r);
            bar.inc(1);
        }
    }
    bar.finish_and_clear();
    let peer = run_peer(&set, ctx.seed);
    let shape = (builds[0].resident_blocks(), builds[0].tile_registers);
    Ok(report(ctx, &gpu, &set, &rows, &peer, shape))
}

/// The peer's figures for the uniform row `r`, where its data's checksum matches ours.
fn peer_cell<'a>(peer: &'a Result<PeerOut>, r: &Row) -> Option<&'a PeerSize> {
    let p = peer.as_ref().ok()?;
    if r.dist != Distribution::Uniform {
        return None;
    }
    p.sizes
        .iter()
        .find(|p| p.n == r.n && p.checksum == r.pool_checksum.to_string())
}

fn report(
    ctx: &Context,
    gpu: &Gpu,
    set: &Settings,
    rows: &[Row],
    peer: &Result<PeerOut>,
    builds: (u32, i32),
) -> Outcome {
    // A failure: a check launch without the order's bits, or a uniform row whose device bits
    // are not np.sum's own.
    let numpy_differs = |r: &Row| {
        peer_cell(peer, r)
            .is_some_and(|p| r.got_bits.iter().any(|b| p.np_sum_bits != b.to_string()))
    };
    let failures = rows
        .iter()
        .filter(|r| r.exact_launches != [CHECKS; V] || numpy_differs(r))
        .count() as u64;
    let mut rep = Report::new(
        &ctx.name,
        "np.sum's bits on the GPU: numpy's pairwise order against cupy.sum and the exact sequential sum",
    );
    let cupy = |r: &Row| peer_cell(peer, r).map_or(f64::NAN, |p| p.cupy_median_ms);
    let uniform_last = rows
        .iter()
        .filter(|r| r.dist == Distribution::Uniform)
        .max_by_key(|r| r.n);
    if let Some(b) = uniform_last {
        rep.headline(format!(
            "At {} uniform terms numpy's order on the device takes {} ms ({}x cupy.sum, {}x the one-pass exact sequential sum, {}x a device copy; its fastest variant, {}, {} ms, {}x cupy.sum); {} of {} inputs had the order's bits in every launch of every variant, and every uniform sum compared with np.sum's own bits equal: {}",
            thousands(b.n as u64),
            ms(b.numpy_order[0]),
            ratio(b.numpy_order[0], cupy(b)),
            ratio(b.numpy_order[0], b.onepass),
            ratio(b.numpy_order[0], b.copy),
            variant_name(VARIANTS[fastest(b)]),
            ms(b.numpy_order[fastest(b)]),
            ratio(b.numpy_order[fastest(b)], cupy(b)),
            rows.len() as u64 - failures,
            rows.len(),
            rows.iter().filter(|r| peer_cell(peer, r).is_some()).all(|r| !numpy_differs(r))
        ));
    }
    rep.text(format!(
        "Device: {} ({}). The numpy order is `crate::gpu::numpy_sum` (`kernels/numpy_pairwise.cu`): numpy's pairwise tree of adds (`src/order.rs` states it), level 1 a block per tile of at most {} terms from numpy's leaves (by default four threads a leaf, each reading two adjacent accumulators' terms as one 16-byte load, each row loaded and added in turn, a block per lattice point ({} registers a thread); the variants: eight threads a leaf with one 8-byte load each (single leaf loads), every row loaded before the first add, the {} blocks the device holds at once each looping over points), each further level a block per tile of up to {} values of the level below (2^{} times the level below's bound; the fan 2^11 variant doubles that), its root's block adding `+0 +` the root. The one-pass exact sum is the sequential loop's bits (`OnePassSum`, the default engine of `binade sum --engine gpu`), timed on the same windows. Times are medians of {} CUDA-event timings after {} untimed runs, each size rotated over up to {MAX_OFFSETS} disjoint windows of a pool of at least {} doubles (beyond L2), the same windows for every engine. The data is made on the device by `fill_distribution`; the uniform pool is the one `cupy_sum.py` makes, checked by checksum. Correctness: the first window's sum, launched {CHECKS} times outside the timing, each compared in bits with the numpy order's loop on the host (`order::loop_sum_in`, NaN as NaN); on the uniform data also with `np.sum` itself.",
        gpu.name,
        gpu.arch,
        thousands(crate::gpu::numpy_sum::level_bound(1)),
        builds.1,
        builds.0,
        thousands(2u64 << FAN_LOG2),
        FAN_LOG2,
        set.reps,
        set.warmup,
        thousands(set.pool as u64)
    ));
    rep.text(prediction_text());
    rep.text(match peer {
        Ok(p) => format!(
            "`cupy.sum` from CuPy {} and `np.sum` from numpy {} (on the host, the first window copied there; median of 5 runs after one), on {}, by `experiments/peers/cupy_numpy_sum.py`.",
            p.cupy, p.numpy, p.device
        ),
        Err(e) => format!("`cupy.sum` and `np.sum` were not measured: {e:#}"),
    });
    rep.table(time_table(rows, peer));
    rep.table(check_table(rows, peer));
    Outcome {
        report: rep,
        failures,
    }
}

fn prediction_text() -> String {
    "Prediction, written before the first measurement: numpy's order needs no plan and no walk, only its tree: each term is read once (eight threads a leaf read 64 consecutive bytes a step, whole sectors) and added once, so the sum should run near a read of the terms: about 1.1 to 1.3x `cupy.sum` at 10^8 and 2^30 uniform terms (`cupy.sum` took 1.92 ms at 2^30 in gpu-timing), about half the one-pass exact sum's time (3.83 ms at 2^30), the same on every distribution (the tree does not look at the values); at 8,294,400 terms about 1.5x `cupy.sum` (three launches and half of level 1's blocks exiting at once). Measured (commit 60aeabf, this H200): 3.565 ms at 2^30 uniform terms (1.86x `cupy.sum`'s 1.917 ms, 2.41 TB/s), 0.357 ms at 10^8 (1.80x), 0.0667 ms at 8,294,400 (1.85x); the same within 1% on every distribution, as predicted; np.sum's bits at all three uniform sizes. The prediction was wrong by 1.5x: level 1 launched a block per lattice point (half of them exit at once), and each thread's 16 loads of a leaf were interleaved with its chain of adds. Changed since, predicted before their measurement: level 1 as at most 8 resident blocks a multiprocessor looping over the tiles, every row of a leaf loaded before the first add (2^30 from 3.57 to about 2.3 ms, 1.2x `cupy.sum`; 10^8 from 0.357 to about 0.24 ms); levels of 2^11 instead of 2^10 and the sum written by the root's block, so 8,294,400 terms take two launches instead of four (0.0667 to about 0.05 ms, 1.4x); leaves read as 16-byte pairs by four threads (paired loads, timed beside) a further 5 to 10% at 10^8 and 2^30. Measured (commit 1ef01af, this H200, `reports/gpu-numpy-order-history/1ef01af`): slower, not faster: 6.556 ms at 2^30 (3.51x `cupy.sum`), 0.575 ms at 10^8, 0.0986 ms at 8,294,400; paired loads 6.332, 0.592 and 0.0967 ms; every sum still numpy's bits. Suspected: the launch assumed 8 blocks a multiprocessor fit, and with every row's loads in registers fewer do, so the fixed assignment of points to blocks ran in waves. Now, predicted before the next measurement: the resident launch takes the occupancy API's count, and a block per point is timed beside it (four variants with both leaf loads): a block per point with single loads about the 60aeabf figure or a little under it (3.3 to 3.6 ms at 2^30), the resident launch within 10% of it either way. Measured (commit 3a9448f, `reports/gpu-numpy-order-history/3a9448f`): wrong again: a block per point 4.957 ms at 2^30 (2.59x), 0.545 ms at 10^8, 0.094 ms at 8,294,400; resident blocks 8.25 ms at 2^30; paired loads 5.37 ms. So what slowed 60aeabf's kernel down was not the grid alone: the rows loaded first, the fan of 2^11 (one block combining 4,096 values at the root of 8,294,400 terms) and the loop over points were all new at once. Now each is a variant of its own beside a default that is 60aeabf's kernel again (rows in turn, fan 2^10, a block per point) plus the root's block writing the sum, predicted before this measurement: the default within 5% of 60aeabf's 3.565 ms at 2^30 and 0.357 ms at 10^8, and at 8,294,400 a little under its 0.0667 ms (one launch fewer); rows loaded first and the fan of 2^11 each slower, by what the 3a9448f figures left unexplained. Measured (commit 85c1b5f, `reports/gpu-numpy-order-history/85c1b5f`): the default 3.956 ms at 2^30 (2.06x `cupy.sum`), 0.403 ms at 10^8, 0.0682 ms at 8,294,400, so still 11% over 60aeabf at 2^30; rows loaded first 4.91 ms, resident blocks 6.97 ms, fan 2^11 4.00 ms (0.0875 ms at 8,294,400); paired leaf loads the fastest at every size, 3.606 ms at 2^30 (1.88x), 0.367 ms at 10^8, 0.0635 ms at 8,294,400 (1.77x). Now, predicted before the next measurement: paired loads are the f64 default, and level 1's block no longer waits at a barrier after its last point (a block per point has one point: 60aeabf had no such barrier): single loads back to 60aeabf's 3.57 ms at 2^30, paired loads about 3.25 ms (1.7x `cupy.sum`). Measured (commit 6074334, the report this text first appeared in): wrong: paired loads 3.653 ms at 2^30 (1.91x), 0.376 ms at 10^8 (1.89x), 0.0676 ms at 8,294,400 (1.85x); single loads 3.943 ms at 2^30, still 10% over 60aeabf's kernel; what in the loop over points costs that was not found. The table of every run: `reports/gpu-numpy-order-history`. Now, predicted before the next measurement: a block per point runs a kernel of its own without the loop over points (`np_tiles_point`, 60aeabf's form; the loop stays in the resident kernel): single loads back to 60aeabf's 3.57 ms at 2^30 and 0.357 ms at 10^8, paired loads (the default) about 3.3 ms at 2^30. Measured (commit caf28d6, `reports/gpu-numpy-order-history` lists it): right this time: single loads 3.558 ms at 2^30 and 0.356 ms at 10^8 (60aeabf's figures), paired loads 3.367 ms at 2^30 (1.69x `cupy.sum`, whose own median was 1.996 ms in that run against 1.91 ms in 6074334's), 0.352 ms at 10^8 (1.62x), 0.0647 ms at 8,294,400 (1.35x); so the loop over points was the 10%. What is left between the tree and `cupy.sum` is not found: the paired default reads at 2.55 TB/s, 0.85x a device copy.".into()
}

/// The index of the fastest variant at row `r`.
fn fastest(r: &Row) -> usize {
    (0..V)
        .min_by(|&a, &b| r.numpy_order[a].total_cmp(&r.numpy_order[b]))
        .unwrap_or(0)
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
        "numpy_order_times",
        "Median ms per sum (cupy.sum and np.sum on the uniform data only)",
        &[
            "distribution",
            "terms",
            "windows",
            "numpy order, device",
            "single leaf loads",
            "rows loaded first",
            "resident blocks",
            "fan 2^11",
            "cupy.sum",
            "one-pass exact sequential",
            "device copy",
            "numpy order / cupy.sum",
            "fastest variant / cupy.sum",
            "numpy order / one pass",
            "numpy order / copy",
            "numpy order GB/s",
            "np.sum, host",
            "numpy order's loop, host (Rust)",
        ],
    );
    for r in rows {
        let p = peer_cell(peer, r);
        let cu = p.map_or(f64::NAN, |p| p.cupy_median_ms);
        t.row(vec![
            r.dist.name().into(),
            thousands(r.n as u64),
            r.windows.to_string(),
            ms(r.numpy_order[0]),
            ms(r.numpy_order[1]),
            ms(r.numpy_order[2]),
            ms(r.numpy_order[3]),
            ms(r.numpy_order[4]),
            ms(cu),
            ms(r.onepass),
            ms(r.copy),
            ratio(r.numpy_order[0], cu),
            ratio(r.numpy_order[fastest(r)], cu),
            ratio(r.numpy_order[0], r.onepass),
            ratio(r.numpy_order[0], r.copy),
            format!("{:.0}", 8.0 * r.n as f64 / (r.numpy_order[0] * 1e6)),
            ms(p.map_or(f64::NAN, |p| p.np_sum_ms)),
            ms(r.cpu_order),
        ]);
    }
    t
}

fn check_table(rows: &[Row], peer: &Result<PeerOut>) -> Table {
    let mut t = Table::new(
        "numpy_order_checks",
        "Correctness: the device's bits against the numpy order's loop and np.sum; cupy.sum's bits",
        &[
            "distribution",
            "terms",
            "launches with the order's bits (each variant)",
            "device bits (each variant)",
            "order's loop bits",
            "np.sum bits",
            "device = np.sum",
            "cupy.sum bits",
            "cupy.sum = np.sum",
        ],
    );
    for r in rows {
        let p = peer_cell(peer, r);
        let hex = |s: &str| {
            s.parse::<u64>()
                .map_or_else(|_| "n/a".to_string(), |b| format!("{b:#018x}"))
        };
        let (np_bits, cupy_bits) = p.map_or(("n/a".into(), "n/a".into()), |p| {
            (hex(&p.np_sum_bits), hex(&p.cupy_bits))
        });
        let yes_no = |b: bool| if b { "yes" } else { "no" }.to_string();
        t.row(vec![
            r.dist.name().into(),
            thousands(r.n as u64),
            r.exact_launches
                .iter()
                .map(|e| format!("{e} of {CHECKS}"))
                .collect::<Vec<_>>()
                .join(", "),
            r.got_bits
                .iter()
                .map(|b| format!("{b:#018x}"))
                .collect::<Vec<_>>()
                .join(", "),
            format!("{:#018x}", r.want_bits),
            np_bits,
            p.map_or("n/a".into(), |p| {
                yes_no(r.got_bits.iter().all(|b| p.np_sum_bits == b.to_string()))
            }),
            cupy_bits,
            p.map_or("n/a".into(), |p| yes_no(p.cupy_bits == p.np_sum_bits)),
        ]);
    }
    t
}
