//! `gpu-timing-f32`: what the walked engine's f32 build ([`WalkedShape::f32_terms`], the build
//! `binade sum --engine gpu` runs on an f32 file) costs on the device, per distribution and
//! size, beside a device copy of the same terms and `cupy.sum` on the same uniform f32 data
//! (run by `experiments/peers/cupy_sum.py --dtype float32`). Every timed sum is checked against
//! the CPU's f32 loop (`s += x` in f32 from +0, in order) by its bits, and relaunched to show it
//! does not vary.

use std::time::Instant;

use anyhow::Result;
use cudarc::driver::CudaSlice;

use super::gpu_timing::{CupySum, PeerOut};
use super::peer_timing::PeerTiming;
use super::{Context, Outcome};
use crate::format::{same_result, F32};
use crate::gpu::ordered_sum::onepass::Distribution;
use crate::gpu::ordered_sum::walked::{WalkedJob, WalkedMutant, WalkedShape, WalkedSum};
use crate::gpu::timing::{event_times, median};
use crate::gpu::{Gpu, OnePassSum};
use crate::report::{ms_cell, ratio_cell as ratio, thousands, Report, Table};
use crate::walk::loop_sum;

/// Most distinct windows a size is rotated over (the peer uses the same bound).
const MAX_OFFSETS: usize = 256;

/// The engine's f32 shape at the f64 engine's blocks a multiprocessor (four, 64 registers a
/// thread): the f32 engine's shape before it took three (`WalkedShape::DEFAULT_F32`).
const BEFORE: WalkedShape = WalkedShape::DEFAULT.with_f32_terms();

/// Relaunches of the first window compared with its first total besides the timed ones.
const RELAUNCHES: usize = 3;

/// A first run longer than this (ms, wall clock) is reported as it ran, not relaunched or
/// timed by events (at b5d3995 on an H100 the row of 2^30 uniform f32 terms, whose running
/// sum stalls, had not finished after 80 s).
const SLOW_MS: f64 = 2_000.0;

struct Settings {
    /// The keys every peer timing reads (`cupy_sum.py`, asked for float32).
    t: PeerTiming,
    /// CUDA-event timings of the build before (0: that build is not run).
    before_reps: usize,
    /// The largest size the build before is run at.
    before_max_terms: usize,
}

fn settings(ctx: &Context) -> Result<Settings> {
    Ok(Settings {
        t: PeerTiming::read(ctx, "cupy_sum.py")?,
        before_reps: ctx.get("before_reps")?,
        before_max_terms: ctx.get("before_max_terms")?,
    })
}

/// One build's figures on one row's windows (ms).
#[derive(Clone, Debug)]
struct Timed {
    /// Median of the CUDA-event timings; NaN where `slow`.
    walked: f64,
    /// The first run's wall time on the host (ms), whatever its speed.
    first_ms: f64,
    /// The first run took longer than [`SLOW_MS`]: not relaunched or timed by events.
    slow: bool,
    tiles: u64,
    finished_tiles: u64,
    steps: u64,
    /// The first window's total had the f32 loop's bits.
    exact: bool,
    /// Every relaunch gave the first total's bits.
    identical: bool,
    total_bits: u32,
}

/// Everything measured for one distribution at one size (ms medians).
#[derive(Clone, Debug)]
struct Row {
    dist: Distribution,
    n: usize,
    windows: usize,
    /// The engine's build (`WalkedShape::DEFAULT_F32`: the stall cap, the parity moves and
    /// look-backs read again across a crossing).
    engine: Timed,
    /// The same shape at four blocks a multiprocessor ([`BEFORE`]), where run (`before_reps`,
    /// `before_max_terms`).
    before: Option<Timed>,
    copy: f64,
    cpu_loop: f64,
    loop_bits: u32,
    /// Sum modulo 2^64 of the pool's f32 bit patterns (the peer's data check).
    pool_checksum: u64,
}

impl Row {
    /// Every build run here had the loop's bits in every launch.
    fn ok(&self) -> bool {
        std::iter::once(&self.engine)
            .chain(self.before.as_ref())
            .all(|b| b.exact && b.identical)
    }
}

fn f32_checksum(xs: &[f32]) -> u64 {
    xs.iter()
        .fold(0u64, |a, x| a.wrapping_add(u64::from(x.to_bits())))
}

/// Times build `w` on `windows` of `pool` (the first window's total compared with `want`):
/// its first run by the wall clock, and, unless that took over [`SLOW_MS`], relaunches and
/// `reps` CUDA-event timings after `warmup`.
fn time_build(
    w: &WalkedSum,
    pool: &CudaSlice<f32>,
    windows: &[std::ops::Range<usize>],
    (warmup, reps): (usize, usize),
    want: f32,
) -> Result<Timed> {
    let k = windows.len();
    let mut jobs: Vec<WalkedJob<f32>> = windows
        .iter()
        .map(|r| w.job(pool.slice(r.clone())))
        .collect::<Result<_>>()?;
    let t1 = Instant::now();
    let first = w.run(&mut jobs[0])?;
    let first_ms = t1.elapsed().as_secs_f64() * 1e3;
    // A sum slower than SLOW_MS is not relaunched or timed by events: its one run's wall
    // time (launch, kernel and the result's download) is reported instead.
    let slow = first_ms > SLOW_MS;
    let mut identical = true;
    let mut walked = f64::NAN;
    if !slow {
        for _ in 0..RELAUNCHES {
            identical &= w.run(&mut jobs[0])?.bits == first.bits;
        }
        walked = median(&event_times(w.gpu(), warmup, reps, |r| {
            w.launch(&mut jobs[r % k])
        })?);
    }
    Ok(Timed {
        walked,
        first_ms,
        slow,
        tiles: first.tiles,
        finished_tiles: first.finished_tiles,
        steps: first.steps,
        exact: same_result::<F32>(first.bits, u64::from(want.to_bits())),
        identical,
        total_bits: first.bits as u32,
    })
}

fn measure(
    (w, before): (&WalkedSum, &WalkedSum),
    op: &OnePassSum,
    set: &Settings,
    dist: Distribution,
    n: usize,
    seed: u64,
) -> Result<Row> {
    let gpu = w.gpu();
    let s = gpu.stream();
    let count = n.max(set.t.pool);
    let mut pool: CudaSlice<f32> = s.alloc_zeros(count)?;
    op.fill_f32(&mut pool, seed, dist)?;
    let host = s.clone_dtoh(&pool)?;
    let pool_checksum = f32_checksum(&host);
    let t0 = Instant::now();
    let want = loop_sum::<F32>(&host[0..n]);
    let cpu_loop = t0.elapsed().as_secs_f64() * 1e3;
    drop(host);
    let k = (count / n).clamp(1, MAX_OFFSETS);
    let windows: Vec<_> = (0..k).map(|r| r * n..r * n + n).collect();
    let engine = time_build(w, &pool, &windows, (set.t.warmup, set.t.reps), want)?;
    let before = (set.before_reps > 0 && n <= set.before_max_terms)
        .then(|| time_build(before, &pool, &windows, (1, set.before_reps), want))
        .transpose()?;
    let mut dst: CudaSlice<f32> = s.alloc_zeros(n)?;
    let copy = median(&event_times(gpu, set.t.warmup, set.t.reps, |r| {
        s.memcpy_dtod(
            &pool.slice(windows[r % k].clone()),
            &mut dst.slice_mut(0..n),
        )?;
        Ok(())
    })?);
    Ok(Row {
        dist,
        n,
        windows: k,
        engine,
        before,
        copy,
        cpu_loop,
        loop_bits: want.to_bits(),
        pool_checksum,
    })
}

fn run_peer(set: &Settings, seed: u64) -> Result<PeerOut> {
    CupySum::of(&set.t, seed, "float32").run()
}

/// Runs the experiment (needs a GPU; the cupy column needs Python with CuPy).
pub fn run(ctx: &Context) -> Result<Outcome> {
    let gpu = Gpu::open()?;
    let set = settings(ctx)?;
    let w = WalkedSum::build(&gpu, WalkedShape::DEFAULT_F32, WalkedMutant::None)?;
    let before = WalkedSum::build(&gpu, BEFORE, WalkedMutant::None)?;
    let op = OnePassSum::new(&gpu)?;
    let mut rows = Vec::new();
    let bar = ctx.progress(
        (set.t.sizes.len() * Distribution::ALL.len()) as u64,
        "gpu-timing-f32",
    );
    for &dist in &Distribution::ALL {
        for &n in &set.t.sizes {
            rows.push(measure((&w, &before), &op, &set, dist, n, ctx.seed)?);
            bar.inc(1);
        }
    }
    bar.finish_and_clear();
    let peer = run_peer(&set, ctx.seed);
    Ok(report(ctx, &gpu, &set, &rows, &peer))
}

/// `cupy.sum`'s median ms at the uniform row `r`; NaN where not measured or its data differed.
fn cupy_ms(peer: &Result<PeerOut>, r: &Row) -> f64 {
    if r.dist != Distribution::Uniform {
        return f64::NAN;
    }
    peer.as_ref()
        .ok()
        .and_then(|p| p.sizes.iter().find(|s| s.n == r.n))
        .filter(|s| s.checksum == r.pool_checksum.to_string())
        .map_or(f64::NAN, |s| s.median_ms)
}

fn report(
    ctx: &Context,
    gpu: &Gpu,
    set: &Settings,
    rows: &[Row],
    peer: &Result<PeerOut>,
) -> Outcome {
    let mut failures = rows.iter().filter(|r| !r.ok()).count() as u64;
    let mut rep = Report::new(
        &ctx.name,
        "Exact f32 sums on the GPU: the walked engine's f32 build against cupy.sum and a copy",
    );
    let largest = rows
        .iter()
        .filter(|r| r.dist == Distribution::Uniform)
        .max_by_key(|r| r.n);
    if let Some(b) = largest {
        let cu = cupy_ms(peer, b);
        let e = &b.engine;
        let time = if e.slow {
            format!(
                "was not timed: its first run took {:.1} s",
                e.first_ms / 1e3
            )
        } else {
            format!("takes {} ms", ms_cell(e.walked, 4))
        };
        rep.headline(format!(
            "At {} uniform f32 terms the walked engine's f32 sum {time} ({}x cupy.sum on the same f32 terms, {}x a device copy); {} of {} rows had the f32 loop's bits in every launch of every build",
            thousands(b.n as u64),
            ratio(e.walked, cu),
            ratio(e.walked, b.copy),
            rows.len() as u64 - failures,
            rows.len()
        ));
    }
    rep.text(format!(
        "Device: {} ({}). The engine is `WalkedSum` built with `WalkedShape::f32_terms` on the engine's default shape (`kernels/ordered_sum_walked.cu` with `BINADE_WK_F32`): terms loaded as f32 and widened in registers, the sum's own operations in f32, plans capped where the f32 loop stops growing (`WalkedShape::stall_cap`, `BINADE_WK_STALL_CAP`) and moved by each tile as the f32 loop would move them, each thread carrying the sum's parity through its ties, and each look-back whose prefix lies in another binade than its base read again forward, each tile moved from the running prefix's binade (`WalkedShape::moves`, `Moves::Crossing`, `BINADE_WK_MOVES` 5): the build `binade sum --engine gpu` runs on an f32 file. The engine's f32 shape has three blocks a multiprocessor (`WalkedShape::min_blocks`, 80 registers a thread); the column \"before\" is the same shape at four (64 registers a thread, the f64 engine's and the f32 engine's before), timed by {} CUDA events after one untimed run, at sizes up to {}. Times are medians of {} CUDA-event timings after {} untimed runs, each size rotated over up to {MAX_OFFSETS} disjoint windows of a pool of at least {} f32 terms, the same windows for the engine and the copy. The data is made on the device by `fill_distribution_f32` (`OnePassSum::fill_f32`); the uniform pool is the one `cupy_sum.py --dtype float32` makes (its doubles rounded to nearest f32), checked by the checksum of the pool's bits. Correctness: the first window's total against the CPU's f32 loop over the same terms (`s += x` in f32 from +0, in order), bits compared, and {RELAUNCHES} relaunches against the first total. `cupy.sum` on f32 is not exact and is timed only.",
        gpu.name,
        gpu.arch,
        set.before_reps,
        thousands(set.before_max_terms as u64),
        set.t.reps,
        set.t.warmup,
        thousands(set.t.pool as u64)
    ));
    rep.text(prediction_text());
    match peer {
        Ok(p) => {
            let differ: Vec<String> = rows
                .iter()
                .filter(|r| r.dist == Distribution::Uniform)
                .filter_map(|r| {
                    let s = p.sizes.iter().find(|s| s.n == r.n)?;
                    (s.checksum != r.pool_checksum.to_string())
                        .then(|| format!("N={}: {} vs ours {}", r.n, s.checksum, r.pool_checksum))
                })
                .collect();
            failures += differ.len() as u64;
            rep.text(if differ.is_empty() {
                format!("`cupy.sum` from CuPy {} on {}, on float32 terms; the pools' checksums agree at every size.", p.cupy, p.device)
            } else {
                format!("`cupy.sum` from CuPy {} on {}; its data differed from ours, so those sizes are left out: {}.", p.cupy, p.device, differ.join("; "))
            });
        }
        Err(e) => rep.text(format!("`cupy.sum` was not measured: {e:#}")),
    }
    rep.table(time_table(rows, peer));
    rep.table(check_table(rows));
    Outcome {
        report: rep,
        failures,
    }
}

fn prediction_text() -> String {
    [
        "Prediction before the first run (b5d3995), from the f64 engine's figures on an H100 at 517c5e6 (3.14 ms at 2^30 uniform terms, 1.16x `cupy.sum`; 0.067 ms at 8,294,400, 1.81x): an f32 term is half the bytes but the same work (its fast unit is formed in f64 as an f64 term's is), so at 2^30 about 2.0 ms against `cupy.sum` on f32 at about 1.35 ms (1.5x); at 8,294,400 terms about 0.06 ms, 2x `cupy.sum` or more. That run (H100) finished the rows below 2^30 and was cut after 80 s inside the 2^30 uniform row, so the stalled tiles were not free.",
        "Why, found since (by reading and on the host model, before any device run of the fix): the f32 loop over uniform [0, 1) terms reaches 2^24 after about 2^25 terms and stays there (half an ulp of 2^24 in f32 is 1, above every term). The plans came from tree sums in f64, which go on growing and leave the binade of 2^24 after 2^26 terms, so every later tile was planned for a binade the sum never reaches and finished by the walker from its terms, one after another: about 8,000 tiles at 10^8 terms and 245,760 of the 262,144 at 2^30 (`walked_model::tree_plans_f32` against `exact_plans_f32`: on 2^24 and then 2^26 - 1 uniform terms the uncapped plans miss 8,190 of 16,384 tiles, the capped ones none; `tests/walked_model.rs`).",
        "The fix, a plan (`BINADE_WK_STALL_CAP`): each tile publishes, with its tree sum, its cap 2^(k+25) (k the exponent of its largest term), above which the f32 sum absorbs every one of its terms; approximate prefixes grow by the tree sums only up to the cap. Prediction for this run (the column before is the shape without the cap, at sizes up to 10^8): with the cap, the uniform rows finish about as many tiles from their terms as the rows that do not stall (tens, not tens of thousands) and take about 0.05 ms at 8,294,400 terms, 0.22 ms at 10^8 and 2.0 ms at 2^30 (1.3x to 1.6x `cupy.sum` on f32); without it, the uniform row at 10^8 finishes about 8,000 tiles and takes hundreds of ms. On the three streams that do not stall the cap costs at most 3% (two more reductions per tile; ptxas gives the producers 128 bytes of spill stores against 80).",
        "Measured at 88f4369 (H100, `reports/gpu-timing-f32` of that commit): the cap held for uniform terms (2^30 in 2.56 ms, 1.83x `cupy.sum`), but log-normal terms took 17.4 ms at 10^8 and 831 ms at 2^30 (85,422 tiles finished), the geometric stream 13.8 and 301 ms. Why, on the host model (`scripts/f32-moves-plan-model.py`, numpy's f32 cumsum as the loop): where terms are small against the sum's ulp the f32 loop moves far less than the tree sums (the log-normal loop ends at 8.34e9 against an f64 sum of 9.04e9 at 10^8), so chains of tree sums run ahead of it by whole binades: 2,100 of 24,414 tiles at 10^8 planned for a binade the loop is not in (log-normal), 1,403 (geometric). The fix, a plan (`BINADE_WK_MOVES`): each tile also forms its moves u_b sum rint(x / u_b) for two binades b (the larger of its walker's hint's and its far anchor's, and the one above), and look-backs add those moves instead of tree sums; the model's chain of such moves misses 50 and 23 tiles. Prediction for the run at 6466b94 (the column before is the build of 88f4369, now up to 2^30): log-normal at 2^30 under 5 ms with under 1,000 tiles finished, geometric at 2^30 under 12 ms, both under 1 ms at 10^8; uniform 3 to 8% slower than before (two more rounded sums a term and one more barrier a tile); the half-ties stream unchanged (the model's chain of moves still misses 1,025 tiles there, against 1,027). Measured at 6466b94 (H100): log-normal at 2^30 in 9.4 ms (749 tiles finished), half ties in 13.6 ms, uniform 3.39 ms (32% slower), geometric 322 ms, not helped. Found since on the device (`examples/walked_f32_paths`, `reports/walked-moves`): a look-back longer than 32 tiles moved the tiles of its passes before its base from the window's base binade, one below the prefix on the geometric stream, where most look-backs were that long; such passes now sum both window binades and keep the base's, and the moves' block sums skip warps with no moves (361be44). Prediction for the run at 654dfd7 (device call 15, written before it ran): within 10% of the probe's figures for that build (uniform 3.1 ms at 2^30, log-normal 3.9, geometric 26); half ties between 5 and 14 ms.",
        "Measured at 654dfd7 (H100): half ties 16.3 ms at 10^8 (997 tiles finished) and 18.4 ms at 2^30 (1,028). Why (`reports/walked-ties`, host model): a tie x = (k + 1/2) u moves an f32 sum to whichever neighbour is even, so after a tie the sum is even; from an odd sum the loop takes a tie the other way from rint's, the per-term moves rounded every tie as if from an even sum, lagged the loop, and the plans missed the loop's binade on 1,023 of 24,576 tiles at about 10^8 (the loop carried through each tile in order: 0). The fix, a plan (`Moves::Parity`, `BINADE_WK_MOVES` 4): each thread carries the sum's parity through its own 16 terms from an even start (the model: 63 tiles missed). Prediction for the first run with it (written before it): half ties at 10^8 about 60 tiles finished and 1 to 2.5 ms, at 2^30 under 150 tiles finished and under 6 ms; uniform, log-normal and geometric within 5% of the build before (a few more operations a term where the terms are read at the copy's rate) with the same tiles finished. Measured at 3426936 (H100, `reports/gpu-timing-f32-history/3426936`): half ties 1.330 ms at 10^8 (69 tiles finished) and 3.360 at 2^30 (55); log-normal at 2^30 4.928 ms against the per-term moves' 3.963 in the same run (646 walker steps against 398; not explained there).",
        "Geometric f32 at 2^30 took 25.4 ms at 3426936 (2,312 of 262,144 tiles finished, about 18 for each of its 128 crossings). Why (host model, `walked_model::lookback_plans_f32`): a look-back moves each tile after its base from the base's binade, so where its span crosses a binade the tiles after the crossing are moved at the binade below, half the quantum, and on this stream (terms about an ulp of the sum) that is far from the loop's move; the longer the look-backs the more tiles are planned a binade off: at 2^25 terms (4 crossings) 16 tiles missed at 16 tiles back, 43 at 256, 66 at 1,024, and 16 at every length with each tile moved from its running prefix's binade. The fix, a plan (`Moves::Crossing`, `BINADE_WK_MOVES` 5, `wk_rescan_plan`): a look-back whose prefix lies in another binade than its base reads its span again forward, 32 words a round, each lane's binade from a warp scan of the moves before it. Prediction for the first run with it (written before it): geometric at 2^30 500 to 900 tiles finished and 7 to 12 ms, at 10^8 50 to 90 tiles and 0.9 to 1.4 ms; uniform, log-normal and half ties within 5% of the build before (few look-backs span a crossing) with the same tiles finished; log-normal at 2^30 in the build before (now `Moves::Parity`) within 10% of the 3.963 ms of 3426936's per-term moves, so that call's 4.928 was the run's. Measured at 7fd0c3c (H100, `reports/gpu-timing-f32-history/7fd0c3c`): geometric at 2^30 6.64 ms against 25.36 (208 tiles finished against 2,408), at 10^8 0.868 against 1.925 (42 against 124): better than predicted; but uniform at 2^30 3.486 against 3.142 ms (+11%) and half ties 3.724 against 3.391 (+10%), 10^8 +12% and +14%, the same tiles finished (wrong: predicted within 5%); log-normal at 2^30 in the build before 4.929 ms (wrong: the parity moves' own figure, not the run's). Not found on the device; in a throwaway copy of the model (not kept; 256 tiles back, 2^26 uniform terms) about 1,800 of the sum's first 8,448 tiles, whose sum doubles tile by tile, re-read their look-backs, none after.",
        "So the re-read is taken only where a tile of the span has its two moves more than 1/64 apart (a tag bit, `WK_MOVES_APART`, set by its producer): on uniform terms in the sum's first tiles the two moves differ by rounding alone. And the parity moves cost log-normal terms their time (4.93 ms at 2^30 against the per-term moves' 3.96 in call 25, the same tiles finished): every thread carried the parity chain (a floor, two products and compares a term, twice), where the moves are formed on every tile; uniform and half-ties terms form none once their sums stall. Now a thread keeps its sum in ulps of the binade, M = rint(M + n) term by term from 0 (`walked_model::chained_move_f32`, equal by bits to the chain from an even start, `tests/walked_model.rs`): M is an integer, so rint(M + n) is M + rint(n) off a tie and the even neighbour on one, the loop's step, at one add and one rint a term as the per-term moves. Prediction for this run (written before it): uniform and half ties within 3% of the build before, geometric within 10% of 7fd0c3c's 6.64 ms at 2^30 and 0.868 at 10^8, log-normal at 2^30 3.9 to 4.3 ms in both builds (call 29: about 4.9), at 10^8 within 5% of call 29.",
        "Measured at fb0be33 (H100, `reports/walked-crossings`): log-normal at 2^30 3.94 ms before and 4.02 with the re-read (held); geometric 6.08 ms at 2^30 and 0.820 at 10^8 (held); uniform 3.397 against 3.148 ms at 2^30 and 0.3905 against 0.3602 at 10^8 (+8%, the same 6 tiles finished) and half ties 3.628 against 3.303 (+10%, 71 tiles finished against 62): wrong, the bit did not remove the slowdown, whose cause is not found.",
        "Found since (call 33, H100, 3818228, `reports/walked-blocks`: `examples/walked_f32_paths` time mode, 21 CUDA-event timings a build, the builds taken in turn): with the re-read compiled out and its tag bit and ballot kept (`Moves::TagOnly`, the same spill bytes as `Moves::Parity` by ptxas) uniform at 2^30 took 3.369 ms against the re-read's 3.416 and Parity's 3.162, so there most of the 8% came with the tag and its ballot, not with the re-read's code or its work (173 look-backs re-read in that sum), while on half ties at 10^8 most came with the re-read's code (1.463 ms, TagOnly 1.303, Parity 1.297); the prediction (TagOnly within 2% of Parity) was wrong on five of eight rows. At three blocks a multiprocessor (80 registers a thread, not 64) the engine was faster on all eight rows, 6 to 17%, and below Parity at four on seven of them (uniform at 10^8: 0.369 against 0.362). The engine's f32 shape takes three blocks since (`WalkedShape::DEFAULT_F32`); the column before is the same shape at four. Prediction for this run (written before it): every engine figure within 5% of the probe's three-block build (2^30: uniform 3.125 ms, half ties 3.255, log-normal 3.726, geometric 5.042; 10^8: 0.369, 1.282, 0.770, 0.687) and every figure before within 5% of its four-block build (2^30: 3.416, 3.623, 4.024, 6.099; 10^8: 0.393, 1.463, 0.902, 0.816). Measured at e105a79 (call 34b, H100, `reports/gpu-timing-f32` of that run): it held on all sixteen figures, the engine at 2^30 3.117, 3.243, 3.719, 5.037 ms and at 10^8 0.367, 1.285, 0.776, 0.690; before at 2^30 3.397, 3.633, 4.022, 6.074 and at 10^8 0.391, 1.469, 0.943, 0.820 (the widest gap, 4.5%, log-normal before at 10^8).",
        "A tile with a tie takes its unit from its tie corrections since 7f27b03 (`WalkedShape::tie_parity`, `reports/walked-tie-parity`), where each lane formed its pair unit in f64. Call 4 of 2026-12-07 (H100, 8a3ef12, `walked_f32_paths` time mode, `e3` against `q3`): half ties at 10^8 1.251 ms against 1.290, at 2^30 3.205 against 3.249; uniform 0.370 and 3.137 against 0.370 and 3.125. Predicted for this run, written before it (`reports/device-calls/2026-12-07/call8.sh`): the walked rows within 5% of `q3` on half ties and uniform terms and of e105a79's run on the other two streams. Measured at 7f27b03 (H100): half ties 1.2515 and 3.1988 ms, uniform 0.3674 and 3.1307, log-normal 0.7707 and 3.7239, geometric 0.6894 and 5.0383 at 10^8 and 2^30: held, every row within 1% of the figure it was predicted from.",
        "A tile's first plan look-back takes its first round from the 32 plan words copied with its terms since 5c2f826 (`WalkedShape::early`, `reports/walked-early`), timed on f64 terms only before it became the f32 engine's too. Predicted for the f32 rows (call 4 of 2026-12-07-b, before the run): within 5% of 7f27b03's. Measured at 5c2f826 (H100): within 5% on all twelve rows (held); at 2^30 1.2 to 1.9% slower than 7f27b03 on all four streams (uniform 3.188 ms against 3.131, geometric 5.134 against 5.038), at 10^8 1 to 2.5% faster on three and 2.2% slower on uniform, at 8,294,400 2.9 to 5.4% faster; two runs, not one binary timing both, so a difference of 2% is not told from the run's own spread.",
    ]
    .join("\n\n")
}
fn time_table(rows: &[Row], peer: &Result<PeerOut>) -> Table {
    let mut t = Table::new(
        "f32_times",
        "Median ms per f32 sum (cupy on the uniform data only)",
        &[
            "distribution",
            "terms",
            "windows",
            "walked, f32",
            "first run, wall ms",
            "before: 4 blocks",
            "before, first run, wall ms",
            "device copy",
            "cupy.sum, f32",
            "walked / cupy",
            "walked / copy",
            "walked GB/s (read)",
            "CPU f32 loop",
        ],
    );
    for r in rows {
        let cu = cupy_ms(peer, r);
        let e = &r.engine;
        let (before, before_first) = r.before.as_ref().map_or_else(
            || ("not run".to_string(), "not run".to_string()),
            |b| (timed_cell(b), first_cell(b)),
        );
        t.row(vec![
            r.dist.name_f32().into(),
            thousands(r.n as u64),
            r.windows.to_string(),
            timed_cell(e),
            first_cell(e),
            before,
            before_first,
            ms_cell(r.copy, 4),
            ms_cell(cu, 4),
            ratio(e.walked, cu),
            ratio(e.walked, r.copy),
            format!("{:.0}", 4.0 * r.n as f64 / (e.walked * 1e6)),
            ms_cell(r.cpu_loop, 4),
        ]);
    }
    t
}

/// A build's median, or why it has none.
fn timed_cell(b: &Timed) -> String {
    if b.slow {
        "untimed (slow)".into()
    } else {
        ms_cell(b.walked, 4)
    }
}

/// A build's first run by the wall clock.
fn first_cell(b: &Timed) -> String {
    format!(
        "{:.1}{}",
        b.first_ms,
        if b.slow { " (too slow to time)" } else { "" }
    )
}

fn check_table(rows: &[Row]) -> Table {
    let mut t = Table::new(
        "f32_checks",
        "Correctness: each first window's total against the CPU's f32 loop, bits",
        &[
            "distribution",
            "terms",
            "build",
            "tiles",
            "tiles finished from their terms",
            "walker steps",
            "total bits",
            "loop bits",
            "= loop",
            "relaunches identical",
        ],
    );
    for r in rows {
        let builds = std::iter::once(("3 blocks (engine)", &r.engine))
            .chain(r.before.as_ref().map(|b| ("4 blocks (before)", b)));
        for (build, b) in builds {
            t.row(vec![
                r.dist.name_f32().into(),
                thousands(r.n as u64),
                build.into(),
                thousands(b.tiles),
                thousands(b.finished_tiles),
                thousands(b.steps),
                format!("0x{:08x}", b.total_bits),
                format!("0x{:08x}", r.loop_bits),
                (if b.exact { "yes" } else { "no" }).into(),
                (if b.slow {
                    "not relaunched (slow)"
                } else if b.identical {
                    "yes"
                } else {
                    "no"
                })
                .into(),
            ]);
        }
    }
    t
}
