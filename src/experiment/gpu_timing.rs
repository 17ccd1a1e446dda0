//! `gpu-timing`: what the exact sum costs on the device: the one-pass engine and the seed's
//! pipeline (kernel by kernel) beside the plain tree sum, `cupy.sum` on the same data (run by
//! `experiments/peers/cupy_sum.py`), CCCL's deterministic and default reduce (built and run by
//! `experiments/peers/cccl_reduce.sh`), the one-lane loop and the CPU loop, for N from 1e3 to
//! 1e9 terms; and the one-pass engine per distribution and phase
//! ([`super::gpu_timing_onepass`]).

use std::path::Path;
use std::process::Command;
use std::time::Instant;

use anyhow::{Context as _, Result};
use serde::Deserialize;

use super::gpu_timing_onepass::{self as onepass, CcclOut, DistRow, Engines, Timing};
use super::peer_timing::PeerTiming;
use super::{Context, Outcome};
use crate::format::{same_result, F64};
use crate::gpu::ordered_sum::onepass::{Distribution, TimedSchedules};
use crate::gpu::timing::{event_times, median};
use crate::gpu::{Gpu, GpuOrderedSum, OnePassJob, OnePassSum, SumJob, WalkKind};
use crate::plan::PlanKind;
use crate::plot::{Plot, PlotKind};
use crate::report::{ratio_cell as ratio, thousands, Report, Table};
use crate::walk::{chunk_count, loop_sum};

/// Most distinct offsets a size is rotated over (the peer uses the same bound).
const MAX_OFFSETS: usize = 256;

/// Settings read from the experiment file.
struct Settings {
    /// The keys every peer timing reads (`cupy_sum.py`).
    t: PeerTiming,
    loop_max: usize,
    cpu_reps: usize,
    term_by_term_n: usize,
    onepass_sizes: Vec<usize>,
}

impl Settings {
    fn timing(&self) -> Timing {
        Timing {
            warmup: self.t.warmup,
            reps: self.t.reps,
            pool: self.t.pool,
        }
    }

    fn peers(&self) -> &Path {
        self.t.peer.parent().unwrap_or(Path::new("."))
    }
}

fn settings(ctx: &Context) -> Result<Settings> {
    Ok(Settings {
        t: PeerTiming::read(ctx, "cupy_sum.py")?,
        loop_max: ctx.get("one_lane_max")?,
        cpu_reps: ctx.get_or("cpu_reps", 5)?,
        term_by_term_n: ctx.get_or("term_by_term_terms", 8_294_400)?,
        onepass_sizes: ctx.non_empty("onepass_sizes", ctx.get("onepass_sizes")?)?,
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
    /// The one-pass engine.
    onepass: f64,
    kernels: [f64; 6],
    tree: f64,
    cupy: f64,
    /// CCCL's reduce: deterministic (`gpu_to_gpu`), default.
    cccl: [f64; 2],
    one_lane: f64,
    cpu: f64,
    checksum: u64,
    exact_ok: bool,
    fallback: u64,
}

/// `cupy_sum.py`'s answer for one size.
#[derive(Clone, Debug, Deserialize)]
pub(super) struct PeerSize {
    pub n: usize,
    /// The pool's checksum (the sum modulo 2^64 of its bit patterns), as a decimal string.
    pub checksum: String,
    pub median_ms: f64,
}

/// `cupy_sum.py`'s whole answer.
#[derive(Clone, Debug, Deserialize)]
pub(super) struct PeerOut {
    pub cupy: String,
    pub device: String,
    /// The terms' type it summed (absent from answers before `--dtype`: float64).
    pub dtype: Option<String>,
    pub sizes: Vec<PeerSize>,
}

/// What `cupy_sum.py` is asked to time: `sizes` over pools of at least `pool` terms made
/// from `seed`, `warmup` and `reps` as ours, the terms `dtype` (`float64` or `float32`).
pub(super) struct CupySum<'a> {
    pub python: &'a str,
    pub peer: &'a Path,
    pub sizes: &'a [usize],
    pub pool: usize,
    pub seed: u64,
    pub warmup: usize,
    pub reps: usize,
    pub dtype: &'a str,
}

impl<'a> CupySum<'a> {
    /// The peer asked for `t`'s sizes, pool and timings on `dtype` terms from `seed`.
    pub fn of(t: &'a PeerTiming, seed: u64, dtype: &'a str) -> Self {
        CupySum {
            python: &t.python,
            peer: &t.peer,
            sizes: &t.sizes,
            pool: t.pool,
            seed,
            warmup: t.warmup,
            reps: t.reps,
            dtype,
        }
    }

    /// Runs the peer and reads its answer; an answer for another type than asked is an error.
    pub fn run(&self) -> Result<PeerOut> {
        let sizes: Vec<String> = self.sizes.iter().map(|n| n.to_string()).collect();
        let out = Command::new(self.python)
            .arg(self.peer)
            .args([
                "--sizes",
                &sizes.join(","),
                "--pool",
                &self.pool.to_string(),
            ])
            .args(["--seed", &self.seed.to_string(), "--dtype", self.dtype])
            .args(["--warmup", &self.warmup.to_string()])
            .args(["--reps", &self.reps.to_string()])
            .output()
            .with_context(|| format!("running {} {}", self.python, self.peer.display()))?;
        let p: PeerOut = super::peer_json(self.peer, &out)?;
        let got = p.dtype.as_deref().unwrap_or("float64");
        if got != self.dtype {
            anyhow::bail!(
                "{} summed {got} terms, not {}",
                self.peer.display(),
                self.dtype
            );
        }
        Ok(p)
    }
}

/// Runs the experiment (needs a GPU; the cupy column needs Python with CuPy).
pub fn run(ctx: &Context) -> Result<Outcome> {
    let gpu = Gpu::open()?;
    let set = settings(ctx)?;
    let sum = GpuOrderedSum::new(&gpu)?;
    let op = OnePassSum::new(&gpu)?;
    // Only for its shape in the report: the staged kernel is compiled only where asked for.
    let staged = OnePassSum::with_timed(
        &gpu,
        TimedSchedules {
            staged: true,
            ..TimedSchedules::NONE
        },
    )?;
    let mut rows = Vec::new();
    let bar = ctx.progress(set.t.sizes.len() as u64, "gpu-timing");
    for &n in &set.t.sizes {
        rows.push(measure(&sum, &op, &set, ctx.seed, n)?);
        bar.inc(1);
    }
    bar.finish_and_clear();
    let (dist_rows, builds) = distributions(ctx, &gpu, &sum, &set)?;
    let peer = run_peer(&set, ctx.seed);
    let cccl = onepass::run_cccl(set.peers(), &set.t.sizes, &set.timing(), ctx.seed);
    let tbt = term_by_term_cost(&sum, &set, ctx.seed)?;
    let mut failures = rows.iter().filter(|r| !r.exact_ok).count() as u64
        + u64::from(!tbt.exact_ok)
        + dist_rows
            .iter()
            .filter(|r| !r.exact || !r.identical || !r.walked.exact || !r.walked.identical)
            .count() as u64;
    let cccl_note = attach_cccl(&mut rows, &cccl);
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
    let peer_of = |n: usize| {
        rows.iter()
            .find(|r| r.n == n)
            .map_or((f64::NAN, f64::NAN), |r| (r.cupy, r.cccl[0]))
    };
    let mut rep = report(
        ctx,
        &gpu,
        &set,
        &rows,
        &tbt,
        &format!("{peer_note} {cccl_note}"),
    );
    if let Some(h) = walked_headline(&dist_rows, peer_of) {
        let rest = rep.headline.clone();
        rep.headline(format!("{h}; {rest}"));
    }
    rep.text(onepass_text());
    rep.text(shape_text(&op, &staged));
    rep.table(onepass::distribution_table(&dist_rows, peer_of));
    rep.text(walked_text());
    rep.table(onepass::walked_table(&dist_rows, peer_of));
    rep.table(onepass::phase_table(&dist_rows));
    rep.table(onepass::trace_table(&dist_rows));
    rep.table(builds);
    rep.table(onepass::ideas_table(&dist_rows));
    rep.table(before_after(&rows, &dist_rows));
    Ok(Outcome {
        report: rep,
        failures,
    })
}

/// The one-pass engine at every distribution and size of `onepass_sizes`, and the table of
/// the kernel each build runs at the largest of them.
fn distributions(
    ctx: &Context,
    gpu: &Gpu,
    seed: &GpuOrderedSum,
    set: &Settings,
) -> Result<(Vec<DistRow>, Table)> {
    let engines = Engines::new(gpu, seed)?;
    let largest = set.onepass_sizes.iter().copied().max().unwrap_or(0) as u64;
    let builds = onepass::builds_table(&engines, largest.div_ceil(crate::layout::OP_TILE as u64));
    let total = (Distribution::ALL.len() * set.onepass_sizes.len()) as u64;
    let bar = ctx.progress(total, "one-pass distributions");
    let mut out = Vec::new();
    for d in Distribution::ALL {
        for &n in &set.onepass_sizes {
            out.push(onepass::measure_distribution(
                &engines,
                &set.timing(),
                d,
                n,
                ctx.seed,
            )?);
            bar.inc(1);
        }
    }
    bar.finish_and_clear();
    Ok((out, builds))
}

/// Puts CCCL's times on the rows whose data it summed (same checksum); returns a sentence.
fn attach_cccl(rows: &mut [Row], cccl: &Result<CcclOut>) -> String {
    let p = match cccl {
        Ok(p) => p,
        Err(e) => return format!("CCCL's reduce was not measured: {e:#}"),
    };
    let mut differ = Vec::new();
    for row in rows.iter_mut() {
        if let Some(s) = p.sizes.iter().find(|s| s.n == row.n) {
            if s.checksum == row.checksum.to_string() {
                row.cccl = [s.deterministic_median_ms, s.default_median_ms];
            } else {
                differ.push(format!("N={}", row.n));
            }
        }
    }
    let same = if differ.is_empty() {
        "its data's checksums agree with ours at every size".to_string()
    } else {
        format!(
            "its data differed from ours at {}, left out",
            differ.join(", ")
        )
    };
    format!(
        "CCCL {} on {} (`cub::DeviceReduce::Sum`, built here by nvcc from experiments/peers/cccl_reduce.cu): {same}. {}",
        p.cccl, p.device, p.note
    )
}

/// What the one-pass engine is, and the predictions written before its first measurement.
fn onepass_text() -> String {
    "## The one-pass engine\n\nOne kernel reads each term once: a tile of 8,192 terms (256 threads x 32, in shared memory, copied there by `cp.async`) forms its tree sum and publishes it; finds an approximate prefix by look-back (the nearest earlier tile with an exact sum or an approximate inclusive prefix, plus the tree sums after it, waiting for any not yet published; the binade is the plan, which may vary from run to run while the bits may not); forms its unit for that binade while the terms are on chip (where no term is a tie: both increments are the f64 sum of rint(x * 2^(52-e)), exact below 2^53; otherwise the pair composition in term order) and publishes it in one word (the two increments differ by at most one); then finds the exact sum before it by look-back over its predecessors' units, composed while they were planned for the nearest predecessor's binade. Blocks stay resident (as many as fit, one tile buffer each: two of 256 threads per multiprocessor) and loop over tiles drawn by a ticket (`onepass_sums_held`, `Schedule::Held`): a block reads its tile out of the buffer into registers (32 terms a thread) as its copy lands, draws its next tile and at once starts copying it into the buffer, so a copy is in flight during all of a tile's work; it publishes the new tile's tree sum, then does the exact look-back of the tile it holds. A tile whose plan says it may leave its binade does its exact look-back first, from its registers, before the next tile is taken; any other tile whose unit does not apply reads its terms again from global memory. The schedule until this version (`Schedule::BySize`, timed below as idea (17) off): below 32,768 tiles one block per tile, which copies its tile, processes it and exits; from there resident blocks that start copying their next tile into their one buffer once a tile's unit is published. A tile whose unit does not apply finishes from the exact sum before it lane by lane: lanes form their units for that sum's binade (the fast path where a lane has no tie), the first lane whose end leaves the binade adds its 32 terms natively and the rest go on in the new binade. Each sum's first tile starts from +0 and is finished that way.\n\nHistory. Predictions written before the first measurement on the H200 (to be compared with the tables below): uniform terms at 2^30 within 1.3x `cupy.sum` (read-bound, the look-backs hidden behind the loads); at 8,294,400 terms (2,025 tiles) about 2x, the first tile's lane-by-lane start (about 12 rounds) on the critical path; log-normal like uniform; half-ties data pays the pair composition in every tile, about 1.5x uniform; geometric growth about 1,000 crossings at 2^30, each stalling the chain for a few µs: +3 to +5 ms. Measured on a first version (terms in registers, one block per tile): 3.9x `cupy.sum` at 2^30, with the load, tree sum and plan look-back alone at 2.0x: blocks held registers while they waited on look-backs, so too few loads were in flight. Ideas measured since, each with its prediction written before its measurement: (1) tiles in shared memory by `cp.async`, resident blocks copying their next tile while processing the current one: predicted load + plan near 1.2x `cupy.sum`; measured 2.5x slower than the first version (a block's next tile cannot publish before the block finishes its current one, so the look-backs of all blocks advance in lock-step waves); kept as a timed variant. (2) One block per tile with registers capped so six blocks stay resident: predicted -20%; measured 7.28 against 9.08 ms uncapped at 2^30 (-20%), now the default. (3) Each record one 16-byte word of value and tag, read and written whole with relaxed loads and stores, no acquire/release fences: predicted load + plan from 4.45 to about 3.3 ms and the engine to about 5.5 ms at 2^30; measured (commit 3fd8453 against b646ec5, earlier runs of this experiment) load + plan 3.05 ms and the engine 4.60 ms, now the engine. (4) 8,192-term tiles (half the look-backs per byte) and 2,048-term tiles (twice the resident blocks): predicted 8,192-term tiles 10-20% faster, 2,048-term tiles slower; measured 4.45 and 5.37 ms against 4.60 at 2^30 (3fd8453), not taken. Ideas of this version, each with its prediction written before its first measurement, each timed in this run by switching it off alone (the ideas table below): (5) the plan look-back never waits (a tree sum not yet published is estimated by the tile's own): predicted load + plan from 3.05 to about 2.3 ms at 2^30 and the engine -25%; (6) each look-back reads one word per tile (the tree sum becomes the approximate prefix in the same word, the unit becomes the exact sum in the same word: a status word, as in single-pass scans): part of every build here, predicted -10% against separate records; (7) look-back rounds of 4 words per lane issued together: predicted -10% at 2^30 and -20% at 8,294,400 terms against 1 word; (8) fast lane units when a tile finishes lane by lane: predicted -30% on the geometric stream at 2^30 (1,034 tiles finished lane by lane in the earlier run) and -10% at 8,294,400 uniform terms, nothing on uniform terms at 2^30; extended (after the first run) to lanes with ties: a lane's two increments summed in f64, each tie adding k or k + 1 by the parity of the start plus the increment so far, in place of the pair composition of 64-bit integers, for tiles with ties and in finishing: predicted the half-ties stream's unit phase from 3.1 to about 1 ms at 2^30. Together (5)-(8) against the look-backs before: predicted about 3.3 ms (1.7x `cupy.sum`) for uniform terms at 2^30. A first run of (5)-(8) (commit 76ca502, its report kept in `reports/gpu-timing-history/76ca502`) measured the engine slower than the look-backs before (6.70 against 4.35 ms at 2^30): the estimate for a missing tree sum was read on every lane of the look-back warp, where only lane 0 held the tile's tree sum, so most plans were garbage and 361 missed; and rounds of 4 and 8 words per lane were slower than 1 (the registers are capped at 40 for six resident blocks, so the words likely spill; not checked). Fixed (the tree sum is broadcast to the warp) and 1 word per lane made the default, with 2 and 4 as variants. (9) Blocks stay resident and copy their next tile while they wait on the exact look-back (above), its terms re-read from global memory only where a unit does not apply: the earlier run's phases show load + tree sum + plan alone at 3.38 ms, so the blocks' time away from loading is what costs; predicted the engine within 1.4x `cupy.sum` at 2^30 and 10^8 uniform terms. A second run (commit 965f67d, its report kept in `reports/gpu-timing-history/965f67d`) measured at 2^30 uniform terms the engine at 4.47 ms (2.32x), the plan that waits 4.13 ms, one block per tile 4.38 ms, 8,192-term tiles 3.92 ms; lane units in f64 took the half-ties stream from 9.54 to 5.41 ms; the geometric stream took 94.9 ms against 12.85 for the look-backs before (its crossing tiles had released their terms and finished from global memory, on the critical path of the exact chain). So (5) is not taken: the plan waits again (the estimates made plans miss: 182 on log-normal terms at 2^30); (10) 8,192-term tiles (256 x 32, three resident): predicted -10% at every size; (11) a tile whose plan says it may leave its binade (its planned prefix and end, widened by the estimates and 2^-20, in different binades) keeps its terms through the exact look-back: predicted the geometric stream at or below 13 ms and nothing elsewhere; the engine at 2^30 predicted 3.9 ms (2.0x `cupy.sum`). A third run (commit de458d5, `reports/gpu-timing-history/de458d5`) measured the engine at 4.40 ms at 2^30 (2.35x `cupy.sum`, 2.02x CCCL's deterministic reduce); 8,192-term tiles paid (5.20 ms with 4,096); keeping the terms of risky tiles did not: releasing them all measured 4.28 ms at 2^30 and 15.5 against 24.6 ms on the geometric stream, so (11) is not taken; and the registers uncapped (the compiler's choice, against a cap for three resident blocks) measured 4.45 ms at 2^30 but 0.157 against 0.275 ms at 8,294,400 terms, 6.52 against 9.95 ms on half ties and 8.32 against 24.6 ms on the geometric stream at 2^30 (likely register spills under the cap; not checked), so (12) registers uncapped is taken. Predicted for that version: about 4.3 ms at 2^30 (2.3x `cupy.sum`), half ties about 6.5 ms, the geometric stream below 8.3 ms, 8,294,400 uniform terms about 0.15 ms; measured (commit 100d9d6, the report before this one) 4.44, 6.51, 10.9 and 0.177 ms, and in the same run the variant with (11) on was faster at every size and distribution (4.39 ms at 2^30 uniform, 8.34 on the geometric stream, 0.153 at 8,294,400 terms), and one block per tile faster than resident blocks below 2^30 terms (0.137 against 0.177 ms at 8,294,400 uniform terms; 0.80 against 1.14 on the geometric stream at 10^8). This version takes (11), and (13) chooses the schedule by size: one block per tile below 32,768 tiles (2^28 terms), resident blocks from there. Predicted, before this run: 8,294,400 uniform terms about 0.13 ms (about 3x `cupy.sum`, from 3.96x), 10^8 about 0.53 ms, 2^30 about 4.39 ms (2.26x), the geometric stream at 2^30 about 8.3 ms and at 10^8 about 0.75 ms, half ties at 2^30 about 6.5 ms. Measured (commit 6d1ad92, in `gpu-cumsum-timing`'s run): 0.141 ms at 8,294,400 uniform terms, 0.550 at 10^8, 4.37 at 2^30; the geometric stream 0.795 and 8.34, half ties 0.762 and 6.51. The phases of the run before showed load + tree sum + plan look-back alone at 2.93 ms at 2^30 (1.5x the tree sum): a resident block with one buffer copies nothing while its tile looks back, so the loads stop for each tile's look-backs. Idea (14), timed as variants: two tile buffers per resident block (`onepass_sums_staged`), the next tile's copy in flight during the whole of the current tile's work and the tile keeping its terms until it is done. Predicted, before its first measurement: at 2^30 uniform terms from 4.37 to about 2.6 ms (1.35x `cupy.sum`); at 10^8 from 0.55 to about 0.35 ms; at 8,294,400 terms slower than one block per tile (one block of 8 warps per multiprocessor with two 64 KiB buffers: about 0.2 ms); with 4,096-term tiles (three blocks per multiprocessor if the registers allow) about 2.3 ms at 2^30. Its first build (commit 6fdc346, made the engine's schedule from 32,768 tiles for that run) measured 65 ms at 2^30 uniform terms (34x `cupy.sum`) and 0.54 ms at 8,294,400 with two buffers at every size: each block drew two tickets at once as it started, so block k held tiles 2k and 2k + 1, every tile's plan waited for the tree sum of a tile that its block had not started, and the tiles ran one after another. The build timed here draws one ticket as a tile starts (a block holds at most one tile it has not started) and is a variant only; predicted for it: about 3 ms at 2^30 with 8,192-term tiles (one block per multiprocessor: each tile's look-backs and ticket, about 3 µs, against 2 µs of a multiprocessor's share of the copy rate for 64 KiB) and about 2.5 ms with 4,096-term tiles, three blocks per multiprocessor. Measured (commit 9ad2724): 12.97 ms at 2^30 with 8,192-term tiles, 12.65 with 4,096, 12.01 capped for three blocks; not taken. A profile of the engine (`scripts/profile-onepass.sh`, Nsight Compute 2025.3.1, one launch of 2^28 uniform terms, `reports/profile-onepass`, commit d3818f1): 1.24 ms, DRAM at 36% of its peak (1.74 TB/s); 61.6% of the warps' stall samples at block barriers, 31.9% at the barrier after the exact look-back and 21.9% after the plan look-back (seven warps wait while warp 0 looks back); the exact look-back slept 6.5 times per tile (waiting for predecessors' units), the plan look-back 1.2 times. Idea (15), built and not kept (commit c55cce6): warp 1 of each resident block does the exact look-back of the block's previous tile while the other warps copy the next tile, form its tree sum and plan it (`onepass_sums_overlap`), the tile's exact sum published a round later. Predicted, before any measurement: at 2^30 uniform terms from 4.43 to about 2.9 ms (1.5x `cupy.sum`) with look-backs of 8 ways, 1 way slower. Measured: its sums had the loop's bits on every input kind and size of `tests/gpu_onepass` (up to 9,000,011 terms, every launch; 97 s on the H200 with `BINADE_REQUIRE_GPU=1`); its times were not measured: in two gpu-timing runs (the committed settings, and those of `experiments/reduced/gpu-timing.toml`), the runs were cut by their time limits, once after every input of the per-distribution stage had finished (57 s) and once with that stage's last input, the geometric stream at 2^30, still running after more than 300 s, where the same input had taken seconds in the first run. A wait that can stall or a very slow chain on crossings (an exact sum published a round late makes each tile at a crossing wait a block's round for its predecessor's) was not told apart, and its two mutants' test was cut as well; so the schedule is not part of this version. Idea (16), timed as variants: the exact look-back a round late without a second warp (`Schedule::Deferred`, the kernel's `prefetch` 2): a resident block publishes its tile's unit, draws its next tile and starts its copy, then does the exact look-back of the tile it deferred a round before, whose predecessors have had a round to publish their units, and defers the current one; a tile whose plan says it may leave its binade is resolved at once, after the deferred one, with its terms kept; a plan waits at most 256 rounds before it estimates (the bound its deadlock-freedom argument needs, in the kernel's comments). Predicted, before its first measurement: with 8-way look-backs, uniform and log-normal terms at 2^30 from 4.43 to about 2.6 ms (1.4x `cupy.sum`), half ties from 6.55 to about 4.5 ms, the geometric stream from 8.33 to about 10 ms (every crossing holds the blocks for about a round), 10^8 uniform terms about 0.40 ms against the 0.56 of one block per tile, 8,294,400 terms no better than one block per tile; 1 way slower than 8 (a look-back then spans about a round of 264 tiles, 32 per read). Measured by a focused probe (`examples/onepass_schedules`, `reports/onepass-schedules`, kernel of commit c5d4069, every total the loop's bits): the opposite order, 1 way fastest and 8 slowest; with 1 way, uniform, log-normal and half-ties terms within a few percent of the engine at every size, and only the geometric stream faster (most at 2^30). So the blocks' time is not mainly their wait for predecessors' units; not taken, and the 1-way build stays a timed variant. Since then the timed schedules are compiled only into the builds that run them (`TimedSchedules`): every one-pass build had carried the deferred schedule's inlined look-backs and the staged kernel (24.9 s of NVRTC a build on the 2-core build machine, against 7.6 s without; `scripts/nvrtc-build-times.py`), the engine's included. Predicted, before this run: the engine as in the run of commit 9ad2724, whose kernel had neither (about 4.4 ms at 2^30 uniform terms, 0.56 at 10^8, 0.14 at 8,294,400, each within 5%). The schedule probe measured the engine at 6.14 ms at 2^30 with the deferred schedule compiled in; if the engine here is near 4.4 ms, that code slowed the engine's kernel (registers or code size), and not the start of the machine. Measured (commit c56b8b8): the engine at 4.38 ms at 2^30 uniform terms (2.28x `cupy.sum`), 0.556 at 10^8 and 0.139 at 8,294,400, the prediction held; and the deferred schedule, now a build of its own, at 6.23 ms at 2^30 (1.42x the engine; 1.22x at 10^8; 0.95x on the geometric stream at 2^30): the probe's finding (within a few percent of the engine) compared two schedules of one slow build, so (16) is slower, not even, and the code a build carries is part of its cost. Idea (17), timed as variants (`Schedule::Held`, its own kernel `onepass_sums_held`): the phases show load + tree sum + plan alone at 2.94 ms at 2^30, 1.5x `cupy.sum`, because a resident block has no copy in flight while it forms a tree sum, plans, forms its unit; so a block reads each tile out of its buffer into registers (32 terms a thread) as it lands and at once draws and starts copying its next tile there, the copy in flight during all of the tile's work; the next tile's tree sum is published as soon as its copy lands, after the current tile's unit and before its exact look-back, so no plan waits on an exact sum (the chain that made (14) slow); a tile whose unit does not apply finishes from global memory. ptxas (CUDA 13.5, sm_90, `-v`, on the build machine) gives its kernel 128 registers and a 144-byte stack (as one kernel with the others, 255 registers); with 4,096-term tiles 128 registers and no spills, 80 capped for three blocks. Predicted, before its first measurement: a round of 264 blocks costs about the larger of the copy (about 4 µs for 264 x 64 KiB at 4.3 TB/s) and a tile's work (plan look-back, unit, the next tile's take, exact look-back: about 4 to 5 µs), so uniform and log-normal terms at 2^30 about 2.6 ms (1.35x `cupy.sum`), 10^8 about 0.35 ms, 8,294,400 terms about 0.14 ms (the first tile's lane-by-lane start dominates there), half ties about 3.6 ms, the geometric stream about 8.5 ms (crossing tiles finish from L2); 4,096-term tiles slower at 2^30 (about 3.5 ms: 264 blocks of 32 KiB leave 2 µs a round), capped for three blocks about 2.8 ms. Measured (commit 19e05be): 3.99 ms at 2^30 uniform terms (0.91x the engine's 4.40 in the same run; log-normal 4.00 against 4.40, half ties 6.09 against 6.52), not the 2.6 predicted: a tile's work, not the copy, sets the round (about 8 µs a tile for 4 µs of copy); slower than the engine below 2^30 (0.575 against 0.563 ms at 10^8, 0.202 against 0.140 at 8,294,400, where the engine runs one block per tile) and on the geometric stream (18.5 against 8.34 ms at 2^30), whose crossing tiles finished with their loads issued one after another (written asm volatile to hold registers down, which ptxas showed they did not need); 4,096-term tiles 5.54 ms and capped for three blocks 5.12 ms at 2^30. Not taken as the engine. Since then the finishing loads are plain loads, free to be issued together (still 128 registers); predicted for the held build: as before on uniform, log-normal and half-ties terms (about 4.0 ms at 2^30), the geometric stream at 2^30 about 8.5 ms; two more held builds, to see what a round waits on: with a plan that never waits (estimating tree sums not yet published, which in the held schedule come from blocks still planning their own tiles) predicted about 5% faster on uniform terms at 2^30 and slower on the geometric stream (plans that miss); with look-backs of 2 ways, within 3% of 1 way. Measured (commit cf969ae): the held build at 4.00 ms at 2^30 uniform terms (0.90x the engine's 4.43), log-normal 4.04 (0.91x), half ties 6.12 (0.94x), and the geometric stream still at 18.5 ms (2.2x the engine's 8.33): the finishing loads were not the cause, and what is was not found (the held tile's finish re-reads its terms in every finishing round, and its exact look-back comes after the next tile's take; neither was timed alone); the plan that never waits gave 4.01 ms at 2^30 (no gain) and 21.1 on the geometric stream; 2 ways 4.14 ms on uniform terms (+4%) but 5.71 on half ties (0.87x the engine). So (17) pays about 10% at 2^30 on three distributions and loses on the fourth and below 2^30; not taken. Found after that run, by `scripts/nvrtc-build-times.py` with ptxas (CUDA 13.5, sm_90, on the build machine): the deferred schedule's build of (16) gives `onepass_sums` 254 registers, against 128 for the engine's, so it kept one block per multiprocessor resident where the engine keeps two; every measurement of (16) so far compared schedules at different residencies (and the probe of c5d4069, whose builds all carried the deferred code, compared two schedules at one block). A build of (16) capped for two blocks (128 registers and a 40-byte stack by ptxas) is timed from this version on, with the table of every build's kernel, registers and residency below. Predicted, before its first measurement: within 5% of the engine on uniform, log-normal and half-ties terms at 2^30 (the probe found the two schedules within a few percent of each other at equal residency), and faster than the engine on the geometric stream (as in the probe). A model for the held schedule's geometric stream, written after the cf969ae run: a tile's exact look-back came after the next tile's take, which waits for that tile's copy, so every crossing tile's exact sum, which the tiles after it wait for, was late by about a copy: about 1,033 crossings x about 10 µs, about 10 ms, the 18.5 - 8.3 measured. So from this version a held tile whose plan says it may leave its binade does its exact look-back before the take, from its registers, as the engine keeps such a tile's terms; the order measured before is kept as a variant. Predicted, before its first measurement: the held build's geometric stream at 2^30 from 18.5 to about 8.5 ms (the engine's 8.33), its other distributions unchanged (within 3% of 4.00, 4.04 and 6.12 ms at 2^30), the variant in the old order as before (about 18.5 ms). A fourth phase build from this version on, `load + tree sum` (`BINADE_OP_UNTIL` 0: each tile copied, its tree sum formed and published, no look-back), to tell the schedule's loads and barriers from the plan look-back in the 2.94 ms of load + tree sum + plan at 2^30. Predicted, before its first measurement: with nothing overlapping a resident block's copy, a tile costs its copy (about 3.9 µs for 64 KiB at a multiprocessor's share of 4.3 TB/s, two blocks sharing it) plus its tree sum and ticket (about 1 µs), 496 tiles a block: about 2.4 ms at 2^30 uniform terms (1.25x `cupy.sum`), so the plan look-back adds about 0.5 ms; at 10^8 and 8,294,400 terms (one block per tile) within 15% of the plain tree sum (about 0.22 and 0.035 ms). If it is near 2.9 ms instead, the look-back is not what the through-plan build pays for, and the schedule's load structure is. Found while adding it (ptxas, CUDA 13.5, sm_90, `scripts/nvrtc-build-times.py`): the through-plan build's kernel takes 48 registers (the new build 40, the through-unit build and the engine 128), so with one 64 KiB tile per block it kept three blocks resident per multiprocessor where the engine keeps two; every earlier phase table compared the through-plan build at three blocks with the later phases at two, and the plan look-back's share was read from that. From this version on the phase builds are launched with unused extra shared memory so that at most the engine's blocks fit (`OnePassSum::pinned_to`; the builds table shows both counts). Predicted, with that: load + tree sum about 2.4 ms at 2^30 (as above), load + tree sum + plan look-back above the 2.94 measured at three blocks, about 3.3 ms. Measured (commit db03199, every phase build at two blocks): load + tree sum 2.22 ms at 2^30 uniform terms (1.16x `cupy.sum`; 0.232 ms at 10^8, 0.030 at 8,294,400, the plain tree sum's 0.196 and 0.030), with the plan look-back 3.37 ms, with the unit 3.77, the engine 4.38: the plan look-back adds 1.14 ms at 2^30 on every distribution (about 2.3 µs a tile for each of the 264 blocks' 496 tiles), the unit 0.40 (1.95 on half ties), the exact look-back 0.61 (4.59 on the geometric stream). So the loads and barriers of the schedule alone are within the issue's 1.25x at 2^30, and the largest single cost above them is the plan look-back, not the exact one. The held schedule in its new order (risky tiles resolved before the take): 3.84 ms at 2^30 uniform terms (0.88x the engine's 4.38), log-normal 3.85 (0.88x), half ties 6.00 (0.92x), the geometric stream 8.42 (1.01x; 18.5 in the old order, measured again in this run at 18.54), so the prediction held; at 10^8 it was 0.486 against 0.556 ms (0.87x), log-normal 0.85x, half ties 0.98x, geometric 0.872 against 0.797 (1.09x); at 8,294,400 terms faster on all four (0.137 against 0.140 ms uniform). (16) capped for two blocks: 4.69 ms at 2^30 uniform terms (1.07x the engine), half ties 1.03x, the geometric stream 12.0 against 8.35; the prediction (within 5% on three distributions, faster on the geometric stream) did not hold, and (16) is not taken. Predicted for the next run, with nothing changed in the kernels: the same figures within 3%, held faster than the engine on 10 of the 12 distribution and size rows (not on the geometric stream at 2^30 and 10^8). From this version the held schedule is the engine's at every size ((17) taken; the engine before, by size, timed as its variant), and every phase build and option variant is a held build, so each idea's row compares builds of one schedule. The variants that measured slower in the run before and compare only schedules the engine no longer runs (one block per tile and resident blocks at every size, two tile buffers, the deferred schedule uncapped) are not timed again: their last figures are in `reports/gpu-timing-history/db03199`. Predicted, before this run: the engine within 3% of the held build's figures at db03199 (3.84 ms at 2^30 uniform terms, 3.85 log-normal, 6.00 half ties, 8.42 the geometric stream; 0.486, 0.489, 0.744, 0.872 at 10^8; 0.137, 0.138, 0.133, 0.161 at 8,294,400), so faster than its variant by size on 10 of 12 rows; the phase builds, now held (the next tile's copy in flight while a tile is planned): load + tree sum about 2.1 ms at 2^30 (1.1x `cupy.sum`, a copy's time, against 2.22 ms without a copy in flight), + plan look-back about 3.2, + unit about 3.5; (12) capped for three blocks slower than the engine (the 32 held terms alone take 64 of the 80 registers a cap for three blocks leaves). Found before this run (ptxas, CUDA 13.5, sm_90, `scripts/nvrtc-build-times.py` with `BINADE_OP_HELD=1`): the held kernel of the engine's build takes 128 registers with a 144-byte stack and 216 bytes of spill stores (344 of spill loads), and `onepass_sums` beside it 128 with 48 bytes of spill stores; the held phase builds take 128 registers and spill nothing. Their cost was not timed alone. Measured (commit 41044425, the held schedule the engine's): 3.86 ms at 2^30 uniform terms in the size table (2.07x `cupy.sum`'s 1.87, 1.79x CCCL's deterministic reduce) and 3.89 in the distribution table; log-normal 3.88, half ties 5.98, the geometric stream 8.37; at 10^8 0.484, 0.490, 0.746, 0.871; at 8,294,400 0.139, 0.145, 0.136, 0.161: 11 of the 12 rows within 3% of the prediction (log-normal at 8,294,400 terms 4.7% above it), and against the schedule by size in the same run 0.88x at 2^30 uniform terms, 0.86x at 10^8, 0.98x at 8,294,400, 0.92x on half ties at 2^30, 1.005x and 1.09x on the geometric stream at 2^30 and 10^8. (12) capped for three blocks: 6.37 ms at 2^30 (1.64x the engine), as predicted slower. The phase builds did not decompose the held engine at 2^30: load + tree sum 2.21 ms (1.13x the plain tree sum; predicted 2.1), but through the plan 5.54 ms and through the unit 6.73, both slower than the whole engine (3.89), while at 10^8 (0.216, 0.420, 0.471 against 0.484) and 8,294,400 terms they rise in order; so the differences the phase table prints for 2^30 (a negative share for the exact look-back) are not costs of phases. Why a held build that stops after its plan is slower than one that goes on was not found; a guess not checked: without the exact look-back between a block's takes, all blocks plan their tiles in the same few microseconds, each walking back over a round of tiles none of which has published its prefix yet. The engine's own profile (`scripts/profile-onepass.sh`, one launch of 2^28 uniform terms, `reports/profile-onepass-held`, commit 41044425): 1.10 ms (1.24 for the engine of d3818f1), DRAM at 40.9% of its peak (1.97 TB/s); 57.6% of the warps' stall samples at block barriers, 31.9% at one barrier and 15.0% at another, each executed once a tile by every warp, and the look-backs' sleeps 2.0 and 4.4 times a tile (66,165 and 143,624 for 32,768 tiles); which barrier and sleep belong to which look-back is read from their order in the SASS (the plan's sleep and barrier early, the exact look-back's late, as the held loop runs them), not from a source mapping (the profile imports no source): read so, 31.9% wait after the exact look-back and 15.0% after the plan, which sleeps 2.0 times a tile against the exact look-back's 4.4; 15.4 million local-memory spill requests (3.9 million in d3818f1's profile), the spills ptxas reported. So in the held engine the exact look-back, not the plan, is where the blocks wait most, and the round a tile takes is set by its predecessors' units arriving, not by its copy. Predicted for the next run, with nothing changed in the kernels: every figure of this run within 3%. From this version a trace build of the engine (`BINADE_OP_TRACE`, `OnePassSum::traced`; the engine's kernel unchanged, by ptxas) stamps each tile's steps with the device's clock, and the trace table gives each step's median over the tiles of the first window, since the phase builds do not decompose the held engine. Predicted, before its first measurement, at 2^30 uniform terms: a block's round about 7.8 µs (3.89 ms over the 496 tiles of each block), of which the exact step (the next tile's take, then the exact look-back) about 4 µs, the plan about 2 µs and the unit below 1 µs; a tile's exact sum about 30 ns after its predecessor's (131,072 tiles in 3.9 ms). Added before its first run: a stamp when each tile's copy has landed, so that the exact step splits into the wait for the next tile's copy and the exact look-back after the take. Predicted: the copy wait near 0 (a 64 KiB copy, about 4 µs at a multiprocessor's share of the copy rate, is in flight for the whole of a round of about 7.8 µs), so the exact step is mostly the look-back, about 3.5 µs. Measured (commit 9a58529, this experiment's trace table and `reports/onepass-trace`): at 2^30 uniform terms a round of 7.3 µs (median; 7.65 mean), the copy waited for 64 ns (as predicted), the exact look-back after the take 2.4 µs, the unit 1.15, the plan step 3.9 (it includes the exact look-back of the block's tile before, which runs between the take and the plan: the plan itself about 1.6 µs), and the take 2.1 µs (read-out, ticket, span, the next copy's start, tree sum), not predicted; the engine 3.84 ms at 2^30 (2.01x `cupy.sum`), every other figure within 3% of 41044425's. So a round is the block's own steps in series and no copy: two look-backs one warp walks while seven wait, a take and a unit. Ideas (18) and (19), built as options of the held schedule (commits 720697e and bb25a0d) and made the engine's for their first run: (18) the next ticket (an atomic on one counter) and its tile's span (dependent loads of the segment tables) drawn by an idle warp's thread as the current tile's plan starts, so the take only reads out and starts the copy; (19) a tile's exact look-back run by warp 1 beside the plan of the block's next tile in warp 0 (paired), its exact sum published by warp 1 where its unit applies, the plan's waits bounded beside it (256 rounds) for the progress argument (in the kernel's comments); the paired kernel, left free, took 254 registers (one block per multiprocessor) by ptxas, so it is capped for two blocks (128 registers, 232 bytes of spill stores, against 240 for the kernel before). Predicted, before their first measurement: the take from 2.1 to about 1.0 µs and the plan hidden behind the exact look-back (-1.5 µs), a round of about 5.0 µs; uniform and log-normal terms at 2^30 from 3.84 to about 2.5 ms (1.3x `cupy.sum`), at 10^8 from 0.486 to about 0.34 ms, at 8,294,400 terms little change (about 0.13 ms, the chain's latency); half ties from 6.0 to about 4.9 ms (its unit, 5 µs, stays); the geometric stream from 8.4 to about 7.5 ms; each off alone about 3.1 ms ((18) off) and 3.2 ms ((19) off) at 2^30 uniform terms. Measured (commit 720697e, first staged as 158241a, the same sources with a build archive committed by mistake and removed; the trace example on the H200, `reports/onepass-trace`): the trace build with both at 2^30 uniform terms ran 7.25 ms from the first copy landed to the last exact sum, against 3.81 ms for the trace build without them (9a58529); this experiment's run was cut by its time limit and timed nothing. The take fell from 2.14 to 1.63 µs (mean), as predicted in kind but by half as much; the plan beside the exact look-back took 8.6 µs (median, from the take to the plan known) against 2.4 + 1.6 alone, and a round 12 µs (median; 14.6 mean). A model, not checked: a ticket drawn as the tile before is planned is published two rounds after its draw, not one, so about twice the tiles are drawn and unpublished at any time and every plan look-back walks about twice as far back (32 tiles a read, each read a trip to L2) before it meets an inclusive prefix; a paired plan starts before its predecessors' plans have published theirs, with the same effect. Neither is taken (the engine's options went back to off at bb25a0d, and the trace example took the options there, `onepass_trace N DIST CSV OPTIONS`). Predicted, before the probe of each alone (trace builds, 2^30 uniform terms, first copy to last exact sum): the ticket drawn ahead alone about 6 ms (the deeper walks without the pairing); paired look-backs alone about 3.5 ms (the plan partly hidden behind the exact look-back, partly lengthened by starting earlier). Measured (bb25a0d, the same call, `reports/onepass-trace/bb25a0d`): the engine's trace build 3.52 ms, the ticket drawn ahead alone 3.97 ms (1.13x: slower, not the 6 predicted), paired look-backs alone 4.88 ms (1.39x, not the 3.5 predicted: the paired window, from the take to the plan known, 5.1 µs median against 3.6 for the look-back and the plan in series, and the next copy waited for 224 ns against 64); every total the loop's bits. The same call's `gpu-tests` of bb25a0d was cut by the call's time limit with 32 of 33 test binaries done, the last (`gpu_onepass`, which ran the options' variants and their two mutants) still running after 5 minutes; whether it would have passed or hung is not known, and no device time was left to run it again. So the options' code is not kept: the kernel, its options and the trace example are as at 9a58529, the trace step names aside, and this history and `reports/onepass-trace` keep the measurements; the code is in bb25a0d. From the next version the trace build also counts each tile's look-back trips (the trace table's last columns: reads, one load of the records by the look-back warp, 32 tiles a read; sleeps, one pause of a wait for a record not yet published), to tell a look-back that walks far from one that waits; the engine's PTX is unchanged by it (`AGAINST=02a04ab scripts/nvrtc-build-times.py`). Predicted, before its first measurement, at 2^30 uniform terms: the plan about 2.5 reads and 2 sleeps a tile (the profile of 41044425 at 2^28 counted 2.0 of the plan's sleeps a tile), the exact look-back about 5 reads and 4 sleeps (the profile: 4.4), so about 0.5 to 0.65 µs a read, and both look-backs mostly waiting for their nearest predecessors rather than walking back; the geometric stream more exact sleeps than uniform terms. Measured (commit 9f1da0e, the trace example on the H200, `reports/onepass-trace/9f1da0e`; gpu-timing not run at this commit, its kernels' PTX the same as 02a04ab's): at 2^30 uniform terms the plan 1.39 reads and 0.13 sleeps a tile, the exact look-back 2.66 reads and 0.68 sleeps; half ties 1.48, 0.36, 2.85, 1.20; the geometric stream 7.25, 5.58, 23.6, 21.6; 10^8 uniform terms 3.04, 1.59, 8.41, 6.34. So the prediction was wrong at 2^30 on uniform terms: the look-backs hardly wait there (the profile's counts, at 2^28 under the profiler, do not carry over), and the exact look-back walks back about one read more than it waits; on the half-ties stream the exact look-backs that never slept took 1,280 ns median with one read, 2,048 with two, 2,784 with three (`scripts/trace-round.py`): about 0.75 µs a further read of the records and about 0.5 µs besides, so a round's look-backs are mostly the latency of reads in series, not waits. The geometric stream and the shorter sum do wait (93% of the geometric stream's exact look-backs slept). Two probes follow from it, each predicted before any measurement and not run in this session (no device time left): (20) the engine's build with its registers capped for the two blocks it keeps anyway (`BINADE_OP_MIN_BLOCKS` 2): ptxas (CUDA 13.0, sm_90, `scripts/nvrtc-build-times.py`) gives the held kernel 128 registers either way but 32 bytes of spill stores and 16 of loads capped against 240 and 352 free (the trace build 96 and 116 against 212 and 212); predicted 2 to 5% faster at 2^30 uniform terms (fewer local-memory requests in the take and the look-backs) and within 1% on the geometric stream (its time is waits); (21) look-backs of 2 ways with the same cap (a read covers 64 tiles; the trace build capped takes 128 registers, 208 bytes of spill stores; free it takes 246 and keeps one block): predicted the exact look-back's reads at 2^30 uniform terms from 2.66 to about 1.8 a tile and the round from 6.8 µs (mean) to about 6.3, the trace build's time from 3.39 to about 3.2 ms; the 2-way variant timed here at 41044425 (3.99 ms against 3.84, uncapped) had the compiler's register choice, so it does not decide this. Both run by `onepass_trace 1073741824 uniform - WAYS MIN_BLOCKS` (`- 1 2` and `- 2 2` against `- 1 0`). Measured at dbe033a in one call (`reports/onepass-trace/dbe033a`, every total the loop's bits), trace builds at 2^30 uniform terms, first copy landed to last exact sum: the engine (`- 1 0`) 3.406 ms, round 6,834 ns (mean), exact reads 2.68 and sleeps 0.71 a tile; (20) capped (`- 1 2`) 3.650 ms, 7% slower, not 2 to 5% faster: its unit took 1,345 ns against 1,194 and its take-to-plan 4,245 against 3,898, so the spills ptxas removed were not where the time went and the cap cost more than it saved; (21) 2 ways capped (`- 2 2`) 3.910 ms, 15% slower: the exact reads fell to 2.02 a tile (predicted 1.8) but a read cost more (the look-backs that never slept: one read 1,920 ns median against 1,376) and the plan itself rose from 1,403 to 2,181 ns, so the round grew to 7,845 ns instead of falling to about 6,300; 2 ways free (`- 2 0`, 246 registers, one block a multiprocessor) 5.057 ms with 1.29 exact reads: half the blocks. Neither probe is kept; the geometric stream was not run for them.".into()
}

/// The headline's first clause: the walked engine (the fastest exact engine) on uniform terms
/// at each size of the distribution table, against `cupy.sum` and CCCL's deterministic reduce
/// (`peer_of`). None where no uniform row was measured.
fn walked_headline(dist_rows: &[DistRow], peer_of: impl Fn(usize) -> (f64, f64)) -> Option<String> {
    let mut uniform: Vec<&DistRow> = dist_rows
        .iter()
        .filter(|r| r.dist == Distribution::Uniform)
        .collect();
    uniform.sort_by_key(|r| std::cmp::Reverse(r.n));
    let cells: Vec<String> = uniform
        .iter()
        .map(|r| {
            let (cupy, cccl) = peer_of(r.n);
            format!(
                "{} terms {} ms ({}x cupy.sum, {}x CCCL's deterministic reduce)",
                thousands(r.n as u64),
                ms(r.walked.ms),
                ratio(r.walked.ms, cupy),
                ratio(r.walked.ms, cccl)
            )
        })
        .collect();
    (!cells.is_empty()).then(|| format!("The walked engine on uniform terms: {}", cells.join(", ")))
}

/// The walked engine's paragraph: what it is and the prediction for its first run here.
fn walked_text() -> String {
    "### The walked engine\n\nA third engine stands beside the one-pass engine (`kernels/ordered_sum_walked.cu`): producer blocks take 4,096-term tiles by ticket and, for each, publish the tree sum, plan the binade by a look-back over the earlier tiles' tree sums, form the unit for that binade and take the next tile, never waiting on an exact sum; one walker block composes the published units in order (1,024 tiles a step, by an ordered block scan) and finishes a tile whose unit cannot be used lane by lane from its terms (or, since the split, ends a crossing tile by its split words). Its producers alone are timed by a build whose walker does nothing (not a sum). First measured by `examples/walked_probe` (`reports/walked-probe`, commit d17d386). Predicted for its first run here, with nothing changed in its kernel: every walked and producers-alone figure within 5% of that probe's (2^30 uniform 3.02 ms, log-normal 3.02, half ties 7.15, geometric 12.2; 10^8 0.294, 0.313, 0.689, 1.26; 8,294,400 terms 0.153, 0.159, 0.156, 0.221), so faster than the one-pass engine on uniform and log-normal terms at 10^8 and 2^30 and slower on the other eight rows. Not run at that kernel. The engine's shape since takes two changes (`reports/walked-probe/PREDICTION.md`): a producer draws its next ticket as it starts a tile and asks for that tile's lines in L2 (prefetch), and a lane's terms in term order come from the registers through shared memory instead of a strided second read of global memory (transpose). Predicted for them, before their first run: at 2^30 uniform terms the producers alone about 2.3 ms and the engine 2.35 to 2.45 ms (1.2 to 1.25x `cupy.sum`), 10^8 about 0.24 ms; half ties at 2^30 about 3.3 ms; the geometric stream at 2^30 about 9 ms; 8,294,400 uniform terms about 0.12 ms. Measured by the probe (`reports/walked-probe`, d5bab74 and 8f61489): the transpose paid on half ties and finishes, the prefetch with an early ticket slowed everything (not kept), a prefetch a round ahead with no early ticket gained 3 to 4% at 2^30, and finishing in the same step the tile that ends a step's run (added then) took the geometric stream at 2^30 from 10.6 to 8.56 ms. The engine's shape now has the three (prefetch a round ahead, transpose, finish in step). Predicted for this run, written before it: every walked figure within 5% of the probe's 8f61489 column for that shape (`walked, and prefetch`: 2^30 uniform 2.97 ms, log-normal 2.98, half ties 4.41, geometric 8.58; 10^8 0.295, 0.292, 0.440, 0.893; 8,294,400 terms 0.118, 0.126, 0.124, 0.164), producers alone within 5% of its producers with prefetch (2.85 ms at 2^30 uniform). Measured (commit 035ce8b, `reports/gpu-timing-history/035ce8b`, only part of whose files came back from the device): 11 of 12 walked rows within 5% (2^30 uniform 2.936 ms, 1.51x `cupy.sum`'s 1.942 in that run; 10^8 0.289, 1.42x; 8,294,400 terms 0.116, 2.90x; log-normal at 8,294,400 terms 0.133, 5.4% over), producers alone 2.851 ms at 2^30; CCCL's reduce not run (its headers were not carried). The probe's phase builds in the same session (`reports/walked-probe/035ce8b/phases`) split the producers at 2^30 uniform terms into load and tree sum 2.22 ms (1.16x `cupy.sum`), the plan look-back +0.41 and the unit +0.22; two options of the producer's round timed there (fewer barriers; the next ticket drawn as the plan is known) did not pay and were removed. Predicted for the next run, nothing changed in the kernel since but shared-memory offsets: every walked figure within 5% of 035ce8b's. Measured (commit 6097719, `reports/gpu-timing-history` keeps the run before): 12 of 12 walked rows within 5% (2^30 uniform 2.937 ms, 1.53x `cupy.sum`'s 1.926 and 1.34x CCCL's deterministic reduce's 2.199; 10^8 0.290, 1.41x; 8,294,400 terms 0.121, 3.11x, and 0.82x CCCL's 0.146). In the same session the probe timed plans from the walker's hint (`WalkedShape::hint`: the walker publishes its exact sum and position each step, and a producer plans without a look-back where a margin allows; every eighth tile still looks back): 2^30 uniform 2.288 ms against 2.952 without it (1.22x `cupy.sum` in that call), half ties 3.85 against 4.38, 10^8 uniform 0.270 against 0.289; geometric and 8,294,400 terms unchanged (`reports/walked-probe/6097719`). The engine's shape takes it since. Predicted for this run, written before it: every walked figure within 5% of that probe's hint column (2^30 uniform 2.29 ms, log-normal 2.27, half ties 3.85, geometric 8.72; 10^8 0.270, 0.281, 0.405, 0.907; 8,294,400 terms 0.119, 0.131, 0.123, 0.167), so about 1.2x `cupy.sum` and 1.05x CCCL's deterministic reduce at 2^30, 1.35x `cupy.sum` at 10^8 and 3.1x at 8,294,400 terms (there the walker's crossings, not the reads, set the time); producers alone unchanged (they have no walker to publish a hint). Measured (commit 1a6507f): 12 of 12 walked rows within 5% of that column (2^30 uniform 2.384 ms, +4.2%, 1.27x `cupy.sum`'s 1.884 and 1.11x CCCL's deterministic reduce's 2.155; 10^8 0.274, 1.39x and 0.88x CCCL's; 8,294,400 terms 0.118, 3.09x and 0.93x CCCL's); the probe in the same call 2.371 ms at 2^30 (1.27x its `cupy.sum`), 2.932 with every plan by a look-back. The engine's shape since takes two changes (`reports/walked-probe/PREDICTION.md`): no L2 prefetch (1a6507f's probe timed it in the same call: 2.174 ms at 2^30 uniform terms without it, 1.16x `cupy.sum`), and ranged look-backs (a plan look-back that meets tree sums not yet published bounds each by [0, 4 ts], ts the tile's own, and waits only where the range straddles a binade; every eighth tile still waits). Predicted for this run, written before it: 2^30 uniform about 2.15 ms (1.15x `cupy.sum`, about 1.0x CCCL's deterministic reduce), log-normal the same, half ties about 3.8 ms, geometric within 5% of 1a6507f's; 10^8 uniform about 0.255 ms (1.35x); 8,294,400 terms within 5% of 1a6507f's (about 3.1x: the walker's crossings set it). Measured (commit 2368892, `reports/gpu-timing-history/1a6507f` keeps the run before): 2^30 uniform 2.158 ms (1.13x `cupy.sum`'s 1.907, 1.01x CCCL's deterministic reduce), 10^8 0.261 ms (1.38x), 8,294,400 terms 0.115 ms (3.88x against a `cupy.sum` of 0.0295 in that run). At 10^8 the walker is far behind after the early crossings, so its hint planned 3,712 of 24,415 tiles in the probe and the rest looked back. The engine's shape since plans those from a far anchor (`WalkedShape::far`, 1,024): a producer reads, with its terms, the approximate inclusive prefix of the anchor tile about 1,024 back (anchors always look back and publish one) and plans from it by the hint's margin where the walker's hint gives no plan. Predicted for its run, written before it: 10^8 uniform about 0.24 ms (about 1.25x `cupy.sum`), 2^30 uniform about 2.12 ms (about 1.1x), 8,294,400 terms unchanged. This experiment's run at that commit (4430d67) was cut by the device call's time limit; the probe in the same call (`reports/walked-probe/4430d67`) measured 2.129 ms at 2^30 uniform terms (1.11x its `cupy.sum`; 2.160 without the anchor), 0.255 ms at 10^8 (1.29x; 0.265 without), 0.120 at 8,294,400, and log-normal terms at 10^8 3% slower with the anchor. Not run at the commits of grouped launches (many sums in one launch, for SSIMULACRA2), whose producers looked each ticket's group up in global memory and split the ticket by a 64-bit division: the probe at f530bad (`reports/walked-probe/f530bad`) measured the engine in 4430d67's shape 7 to 12% slower than 4430d67's (0.1288 ms at 8,294,400 uniform terms, 0.2852 at 10^8, 2.179 at 2^30) and its producers alone 7 to 11% slower. The same probe timed finishes by fast rounds (every reachable binade's lane increments at once, one warp walking the crossings) and steps resumed after a finish: both slower (0.1472 and 0.1314 ms at 8,294,400), not kept. The engine's kernel since copies a launch's groups into shared memory and splits tickets in 32 bits. Predicted for this run, written before it: every walked figure within 5% of 4430d67's probe engine column (2^30 uniform 2.13 ms, 10^8 0.255, 8,294,400 terms 0.120), so about 1.1x `cupy.sum` at 2^30, 1.3x at 10^8 and 3.5x at 8,294,400 terms. Measured (commit 39cc916, `reports/walked-probe/39cc916/gpu-timing`): 2.329 ms at 2^30 (1.19x), 0.297 at 10^8 (1.53x), 0.135 at 8,294,400 terms (4.17x): wrong, and 4430d67's probe binary in the same call was 10 to 19% faster. Its trace put the producers 11% slower with the walker running than alone; the walker's code, inlined into the kernel, shared one register allocation with them under the cap of 64. The engine's kernel since keeps the walker in a function of its own; the probe at fcadd8d measured it within 2.2% of 4430d67's binary in the same call at 2^30 and 10^8 uniform terms (2.181 and 0.261 ms) and the same at 8,294,400 (0.120). Predicted for the next run, written before it: every walked figure within 5% of that probe's (2^30 uniform 2.18 ms, 10^8 0.261, 8,294,400 terms 0.120). Measured (commit f722f80, `reports/gpu-timing-history/2368892` keeps the run before): 2.186 ms at 2^30 (+0.3%; 1.17x `cupy.sum`'s 1.868, 1.00x CCCL's deterministic reduce's 2.195), 0.265 at 10^8 (+1.6%; 1.39x `cupy.sum`'s 0.191, 0.79x CCCL's), 0.120 at 8,294,400 terms (-0.3%; 3.49x `cupy.sum`'s 0.034, 0.84x CCCL's): held. At 10^8 the producers alone took 0.243 ms (1.27x `cupy.sum`), so the walker is not what keeps the engine above 1.25x there; at 8,294,400 terms the producers alone took 0.034 ms (1.0x) and the walker's finishes at the early crossings set the time. Predicted for the next run, nothing changed in the kernel: every walked figure within 5% of this run's. Not run at that kernel. The engine's shape since splits crossings (`WalkedShape::split`, `reports/walked-split`): a producer that knows its tile's prefix and whose tree sum carries it into the next binade publishes the lane where the running sum reaches the top and the units of the lanes on either side, and the walker ends such a tile by one lane's native adds between two checked applies instead of a finish. The probe at 67044ea on an H100 (`reports/walked-split/67044ea`) measured it beside the shape without it in one call: 8,294,400 uniform terms 0.094 against 0.126 ms, the geometric stream at 2^30 5.30 against 9.15, 2^30 uniform 3.06 against 2.93 (the split's code costs the producers about 5%: 3.02 against 2.86 ms alone). Predicted for this run, written before it, on an H100: every walked figure within 5% of that probe's split column (2^30 uniform 3.06 ms, log-normal 3.04, half ties 4.08, geometric 5.30; 10^8 0.323, 0.323, 0.422, 0.565; 8,294,400 terms 0.094, 0.095, 0.096, 0.117), so about 1.09x `cupy.sum` at 2^30, 1.15x at 10^8 and 2.1x at 8,294,400 terms (the `cupy.sum` of that probe's call: 2.804, 0.280 and 0.045 ms). Measured (commit abda1fb, on an H100, `reports/gpu-timing-history/abda1fb`): 12 of 12 walked rows within 5% of that column (2^30 uniform 3.055 ms, log-normal 3.033, half ties 4.089, geometric 5.339; 10^8 0.325, 0.325, 0.423, 0.567; 8,294,400 terms 0.092, 0.094, 0.093, 0.114): 1.07x `cupy.sum`'s 2.846 at 2^30, 1.13x its 0.288 at 10^8 and 1.84x its 0.050 at 8,294,400 terms; CCCL's reduce not run (the host's CUDA 13.0 ships CCCL 3.0.1, without the determinism API, and no newer headers were carried). The engine's shape since tries each finish by a planned pass first (`WalkedShape::planned`, `reports/walked-planned`): the walker's exact sum and an f64 scan of the lanes' sums plan each lane's binade, a segmented ordered scan composes each run of lanes planned for one binade, and one thread walks the tile, a run by one checked apply and a native lane by its adds; the rounds finish the tile where a check fails. The probe at 9f93b99 (H100, one call) measured it 3 to 4% faster than every finish by rounds on uniform and log-normal terms at every size and within 1% on half ties, but 9 to 11% slower on the geometric stream at 10^8 and 2^30: the pass, inlined into the walker, made the walker's function spill 28 bytes (ptxas, `scripts/nvrtc-build-times.py`), which every split end paid. The finish is now a function of its own (no spill in the walker or the finish, either shape). Predicted for this run, written before it: every walked figure within 5% of that probe's planned column (2^30 uniform 2.97 ms, log-normal 2.96, half ties 4.11; 10^8 0.312, 0.309, 0.423; 8,294,400 terms 0.087, 0.091, 0.093, 0.113), and the geometric stream within 5% of its rounds column (5.30 at 2^30, 0.563 at 10^8): about 1.05x `cupy.sum` at 2^30, 1.1x at 10^8 and 1.8 to 2.1x at 8,294,400 terms (where the 10 split ends, about 3.5 µs each as derived from the trace builds' time in finishes, and the walker's 12 steps set the time). Measured (commit ec9e84b, on an H100, `reports/gpu-timing-history/ec9e84b`, CCCL 3.3's headers carried): 5 of 12 walked rows within 5%: 8,294,400 terms 0.0816, 0.0896, 0.0830, 0.1070 ms (uniform and half ties 6 and 11% below the prediction, geometric 5% below), 10^8 0.329, 0.332, 0.441, 0.555 (uniform and log-normal 5 and 7% above), 2^30 3.145, 3.136, 4.239, 5.195 (uniform and log-normal 6% above): 1.14x `cupy.sum`'s 2.749 and 1.12x CCCL's deterministic reduce's 2.815 at 2^30, 1.17x and 0.90x at 10^8, 1.74x and 0.65x at 8,294,400 terms. The probe in the same call (`reports/walked-planned/ec9e84b`) had the planned pass 15 to 18% faster than every finish by rounds at 8,294,400 terms and 1 to 7% slower at 10^8 and 2^30 (the first probe had it faster there: a difference between the two builds not explained); the probe at be3e9ad, with the pass's shared memory folded into the staged tile, the same (10 to 16% faster, 1 to 5% slower). Predicted for the next run, written before it: every walked figure within 5% of this run's. Not run at that kernel. The engine's shape since ends many crossings a step (`WalkedShape::seg_step`, `reports/walked-step`): a segmented scan composes every position of a step from its segment's start (a run of tiles planned for one binade), and one thread applies the segments in turn, ending the crossings between them by bisection and split words, where a step ended at its first crossing before. The probe at ba9299d (H100, one call) measured it at 8,294,400 terms 0.96, 0.85, 0.89 and 0.78 of a crossing a step (uniform, log-normal, half ties, geometric: 0.0764, 0.0779, 0.0749, 0.0840 ms; 1.59x that call's `cupy.sum` on uniform terms), the geometric stream 0.90 at 10^8 and 0.94 at 2^30, the other rows 0.996 to 1.02. Predicted for the next run, written before it: every walked figure within 5% of that probe's segmented column (8,294,400 terms 0.0764, 0.0779, 0.0749, 0.0840 ms; 10^8 0.332, 0.341, 0.441, 0.497; 2^30 3.133, 3.124, 4.241, 4.878), so about 1.6x `cupy.sum` at 8,294,400 terms, 1.16x at 10^8 and 1.13x at 2^30 on an H100. Not run at that kernel. The engine's shape since fetches a step's crossings' split words and split lane's terms into shared memory with the step's words (`WalkedShape::fetch_splits`: the producer's unit word names the lane), so the walk's split ends read no memory. The probe at 517c5e6 (H100, one call, `reports/walked-step/517c5e6`) measured it at 8,294,400 terms 0.94, 0.93, 0.89 and 0.89 of the segmented step without it (0.0673, 0.0682, 0.0676, 0.0758 ms; 1.81x that call's `cupy.sum` of 0.0372 on uniform terms), the geometric stream 0.78 at 10^8 (0.390 ms) and 0.75 at 2^30 (3.686), the other rows 1.00. Predicted for the next run, written before it: every walked figure within 5% of that probe's fetched column (8,294,400 terms 0.0673, 0.0682, 0.0676, 0.0758 ms; 10^8 0.332, 0.336, 0.442, 0.390; 2^30 3.137, 3.129, 4.238, 3.686), so about 1.8x `cupy.sum` at 8,294,400 terms, 1.25x at 10^8 and 1.16x at 2^30 on an H100 if its `cupy.sum` is that call's. Measured at b5d3995 (H100, `reports/gpu-timing-history/b5d3995`): 8,294,400 terms 0.0645, 0.0721, 0.0690, 0.0744 ms; 10^8 0.3323, 0.3408, 0.4426, 0.3905; 2^30 3.1585, 3.1484, 4.2430, 3.7149: 11 of 12 within 5% (log-normal at 8,294,400 terms 5.7% above), 1.67x that run's `cupy.sum` at 8,294,400 terms, 1.22x at 10^8 and 1.13x at 2^30. The engine's shape since finishes a sum's first tile in the producer that drew it (`WalkedShape::first`, `reports/walked-first`): a trace of the walker's events at bc9ee39 showed it taking the first tile's sum only at 32 to 41 µs (its own steps, a sleep for the tile's word, then a 16 to 25 µs finish from +0), after the producers' last unit word at about 35 µs at 8,294,400 terms, so that every tile after it waited; the producer now finishes it from the sum's start as soon as it has published its words, and the walker waits for that exact sum and starts at the second tile. Predicted for this run, written before it: 8,294,400 terms about 12 µs faster on every distribution (uniform about 0.053 ms, about 1.4x `cupy.sum`), 10^8 and 2^30 within 3% of b5d3995's figures. Measured at 054862f (H100, `reports/gpu-timing-history/054862f`): 8,294,400 terms 0.0588, 0.0609, 0.0644, 0.0690 ms (5.7, 11.2, 4.6 and 5.4 µs faster, not about 12; 1.49x that run's `cupy.sum` of 0.0395 ms on uniform terms, not about 1.4x); 10^8 0.3224, 0.3298, 0.4384, 0.3803 (3.0, 3.2, 0.9 and 2.6% faster) and 2^30 3.0428, 3.0357, 4.1838, 3.6700 (3.7, 3.6, 1.4 and 1.2% faster): 5 of those 8 within 3%, the other three faster by more. The engine's shape since takes a tile with a tie's unit from its tie corrections (`WalkedShape::tie_parity`, `reports/walked-tie-parity`): a tie leaves the sum's significand even, so each lane counts its corrections in two ints with `rint` by the add of 2^52, and an ordered block reduction composes them, where each lane formed its pair unit in f64 with conversions to and from integers and a block scan composed the pairs. The probe at 8a3ef12 (H100, one call, both builds) measured half ties at 2^30 3.418 ms against 4.190 with the pair units, at 10^8 0.366 against 0.437, the other rows 0.93 to 1.03. Predicted for this run, written before it (`reports/device-calls/2026-12-07/call6.sh`): every walked figure within 5% of that probe's tie-corrections column (8,294,400 terms 0.0615, 0.0649, 0.0641, 0.0708 ms; 10^8 0.321, 0.330, 0.366, 0.387; 2^30 3.029, 3.017, 3.418, 3.657), 1.07 to 1.13x `cupy.sum` at 2^30 uniform terms and 1.2 to 1.3x on half ties. Measured at 7f27b03 (H100, `reports/gpu-timing` as committed then): 8,294,400 terms 0.0570, 0.0612, 0.0608, 0.0655 ms (5.1 to 7.5% below the probe's on all four: outside the prediction, in the faster direction); 10^8 0.3171, 0.3279, 0.3583, 0.3740 and 2^30 3.0073, 2.9923, 3.3891, 3.6060 (within 3.4%); 1.11x `cupy.sum`'s 2.708 ms at 2^30 uniform terms and 1.25x on half ties. Since 5c2f826 a tile's first plan look-back takes its first round from the 32 plan words copied with its terms (`WalkedShape::early`, `reports/walked-early`: warp 0's `cp.async` into shared memory before the terms' loads). The probe at 62e5e97 (H100, one call, both builds) measured 0.937 to 0.974 of the time without it on uniform, log-normal and geometric terms (geometric at 2^30 3.404 ms against 3.632) and 0.996 and 1.011 on half ties at 10^8 and 2^30. Predicted for the run at 5c2f826 (`reports/device-calls/2026-12-07-b/call3.sh`): the walked rows within 3% of that probe's (2^30: 2.92, 2.90, 3.43, 3.40 ms; 10^8: 0.302, 0.309, 0.362, 0.361), 1.05 to 1.10x `cupy.sum` at 2^30 uniform terms and 1.2 to 1.3x on the geometric stream. Measured at 5c2f826 (H100, `reports/gpu-timing` as committed then; 7f27b03's run in `reports/gpu-timing-history`): 2^30 2.9201, 2.9038, 3.4301, 3.4152 ms and 10^8 0.3025, 0.3085, 0.3609, 0.3577 (within 1.2% of the probe's: held); 1.08x `cupy.sum`'s 2.702 ms at 2^30 uniform terms and 1.26x on the geometric stream (held); 8,294,400 terms 0.0577, 0.0596, 0.0624, 0.0657. The engine's shape since tries a failing segment's crossing at the segment's last position before it bisects (`WalkedShape::last_first`, `reports/walked-last-first`, `reports/walked-ahead`): a crossing tile publishes split words and the tiles after it plan for the next binade, so the crossing is most often the segment's last position, found by one checked apply where the bisection took about log2 of the segment's length. The probe at d600150 (H100) measured it at 8,294,400 terms 0.96, 0.95, 0.88 and 0.98 of the bisection, and at 6a3e598 (H100) the geometric stream 0.95 at 10^8 and 0.97 at 2^30, the other rows there within 1%; the same call timed the first step composed ahead of the first tile's sum (`WalkedShape::ahead`), which did not pay (1.01 to 1.07 at 8,294,400 terms) and is not the engine's. Predicted for this run (`reports/device-calls/2026-12-07-e/call2.sh`), written before it, on an H100: every walked figure within 3% of 6a3e598's probe column for the engine's shape (`walked, composed after the first sum`: 8,294,400 terms 0.0585, 0.0619, 0.0584, 0.0652 ms; 10^8 0.3015, 0.3054, 0.3607, 0.3366; 2^30 2.9138, 2.9016, 3.4316, 3.3229), so 1.5 to 1.6x `cupy.sum` at 8,294,400 uniform terms, about 1.13x at 10^8 and 1.08x at 2^30; on an H200 no figure is predicted. Measured at d09aedd (H100, `reports/gpu-timing` as committed then; 5c2f826's run in `reports/gpu-timing-history`): 8,294,400 terms 0.0555, 0.0607, 0.0605, 0.0628 ms (uniform 5.1% and geometric 3.7% below the prediction, half ties 3.6% above, log-normal within); 10^8 0.3041, 0.3119, 0.3618, 0.3356 and 2^30 2.9169, 2.9037, 3.4326, 3.3433 (within 2.1%): 9 of 12 within 3%; 1.39x that run's `cupy.sum` of 0.0399 ms at 8,294,400 uniform terms, 1.12x at 10^8 and 1.08x at 2^30. Predicted for the next run, with nothing changed in the kernel: every walked figure within 5% of these.".into()
}

/// The compiled one-pass kernels' registers, shared memory and residency.
fn shape_text(op: &OnePassSum, staged: &OnePassSum) -> String {
    let engine = op.kernel_use(u64::MAX);
    match (engine, op.shape(), staged.shape()) {
        (Ok(k), Ok(s), Ok(t)) => format!(
            "The engine's kernel as compiled here (`{}`, schedule: {}): {} registers per thread, {} blocks of {} threads resident per multiprocessor with one tile ({} bytes of dynamic shared memory), {} multiprocessors; `onepass_sums` (the kernel of one block per tile and of resident blocks, compiled into every build): {} registers per thread, {} bytes of static shared memory, {} blocks resident per multiprocessor; the staged build (two tile buffers): {} registers per thread, {} blocks resident per multiprocessor.",
            k.kernel, op.schedule().name(), k.registers, k.resident_blocks, op.shape_of_tiles().threads, s.dynamic_shared, s.multiprocessors, s.registers, s.static_shared, s.resident_blocks, t.staged_registers, t.staged_resident_blocks
        ),
        (Err(e), _, _) | (_, Err(e), _) | (_, _, Err(e)) => format!("The one-pass kernels' shape could not be read: {e:#}"),
    }
}

/// Before/after per idea at the largest size measured for each distribution.
fn before_after(rows: &[Row], dist: &[DistRow]) -> Table {
    let mut t = Table::new(
        "before_after",
        "Before and after: the seed's pipeline (group walk) against the one-pass engine, uniform terms (ms and ratio to cupy.sum)",
        &["terms", "before: group walk", "before / cupy", "after: one-pass", "after / cupy", "speed-up"],
    );
    let sizes: Vec<usize> = dist
        .iter()
        .filter(|d| d.dist == Distribution::Uniform)
        .map(|d| d.n)
        .collect();
    for r in rows.iter().filter(|r| sizes.contains(&r.n)) {
        t.row(vec![
            thousands(r.n as u64),
            ms(r.pipeline[1]),
            ratio(r.pipeline[1], r.cupy),
            ms(r.onepass),
            ratio(r.onepass, r.cupy),
            ratio(r.pipeline[1], r.onepass),
        ]);
    }
    t
}

fn run_peer(set: &Settings, seed: u64) -> Result<PeerOut> {
    CupySum::of(&set.t, seed, "float64").run()
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
    let t = event_times(sum.gpu(), set.t.warmup, set.t.reps, |i| {
        f(sum, &mut jobs[i % k])
    })?;
    Ok(median(&t))
}

/// The ordered sum with each walk, in `WalkKind::ALL` order.
fn walks(sum: &GpuOrderedSum) -> [GpuOrderedSum; 2] {
    WalkKind::ALL.map(|w| sum.clone().with_walk(w))
}

fn measure(
    sum: &GpuOrderedSum,
    op: &OnePassSum,
    set: &Settings,
    seed: u64,
    n: usize,
) -> Result<Row> {
    let count = n.max(set.t.pool);
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
    let mut op_jobs: Vec<OnePassJob> = windows(count, n)
        .iter()
        .map(|w| op.job(pool.slice(0..count), std::slice::from_ref(w)))
        .collect::<Result<_>>()?;
    let (op_ms, op_ok) = onepass::time_uniform(op, &set.timing(), &mut op_jobs, want)?;
    drop(op_jobs);
    row.onepass = op_ms;
    row.exact_ok &= op_ok;
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
    row.cccl = [f64::NAN; 2];
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
    crate::report::ms_cell(x, 4)
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
        "What the exact GPU sum costs: the one-pass engine, the seed's kernels, baselines, cupy.sum and CCCL",
    );
    r.headline(match rows.iter().max_by_key(|r| r.n) {
        Some(b) => format!(
            "At {} terms the one-pass engine takes {} ms ({}x cupy.sum, {}x CCCL's deterministic reduce); the seed's pipeline {} ms with the group walk ({}x) and {} ms with the chunk walk ({}x); the plain tree sum {} ms, the CPU loop {} ms",
            thousands(b.n as u64),
            ms(b.onepass),
            ratio(b.onepass, b.cupy),
            ratio(b.onepass, b.cccl[0]),
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
        "Device: {} ({}). Medians of {} CUDA-event timings after {} warm-up runs, nothing copied to or from the host inside a timing. Terms are uniform doubles in [0, 1) made on the device by a counter-based hash; each size is rotated over up to {} disjoint windows of a pool of at least {} doubles ({} MB, over 4x the 60 MB L2 from 1e5 terms up; the smallest sizes stay in L2). {peer_note} The CPU loop is one thread of this host, median of {} runs. The one-pass engine and both walks of the seed's pipeline (the chunk walk, and the group walk that steps over 256 chunks planned for one binade at a time) were checked against the CPU loop's bits at every size.",
        gpu.name,
        gpu.arch,
        set.t.reps,
        set.t.warmup,
        MAX_OFFSETS,
        thousands(set.t.pool as u64),
        set.t.pool * 8 / 1_000_000,
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
                ("exact, one pass".into(), series(rows, |r| r.onepass)),
                ("exact, group walk".into(), series(rows, |r| r.pipeline[1])),
                (
                    "exact, chunk walk (seed)".into(),
                    series(rows, |r| r.pipeline[0]),
                ),
                ("plain tree sum".into(), series(rows, |r| r.tree)),
                ("cupy.sum".into(), series(rows, |r| r.cupy)),
                (
                    "CCCL deterministic reduce".into(),
                    series(rows, |r| r.cccl[0]),
                ),
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
            "exact, one pass",
            "exact, group walk",
            "exact, chunk walk",
            "plain tree sum",
            "cupy.sum",
            "CCCL deterministic",
            "CCCL default",
            "one pass / cupy",
            "one pass / CCCL det.",
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
            ms(r.onepass),
            ms(r.pipeline[1]),
            ms(r.pipeline[0]),
            ms(r.tree),
            ms(r.cupy),
            ms(r.cccl[0]),
            ms(r.cccl[1]),
            ratio(r.onepass, r.cupy),
            ratio(r.onepass, r.cccl[0]),
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
