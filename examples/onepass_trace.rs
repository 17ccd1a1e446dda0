//! Where a held tile's time goes: one launch of the engine's trace build
//! (`OnePassSum::traced`, `BINADE_OP_TRACE 1`) on the device, every tile's steps stamped by
//! the device's `%globaltimer`, and the distribution of each step's duration over the tiles.
//! The phase builds of `gpu-timing` stop tiles early and at 2^30 terms they run slower than
//! the whole engine (commit 41044425), so they do not say this; a trace of the engine does.
//!
//!     onepass_trace [N] [DISTRIBUTION] [CSV] [WAYS] [MIN_BLOCKS]
//!
//! WAYS (1 to 8, default the engine's) sets the look-backs' words a lane per read
//! (`EngineOptions::ways`): the other options stay the engine's. MIN_BLOCKS (0 to 8, default
//! 0: the compiler's choice, as the engine's) caps the registers for that many resident blocks
//! a multiprocessor (`OnePassSum::traced_with`). CSV `-` writes no file.
//! N terms (default 2^28) of `uniform`, `log-normal`, `ties` or `geometric` (default uniform),
//! made on the device (`fill_distribution`, seed 2026). One untimed launch, then the traced
//! one; its total must be the CPU loop's bits (else exit 1). Prints a Markdown table to
//! stdout (medians and percentiles in ns of: the plan's wait after the tile's tree sum, the
//! unit, the wait for the exact sum, a block's round from one tile's take to the next, the
//! wait for the next tile's copy and the exact look-back after the take)
//! and, with CSV, writes every tile's record there (ns from the launch's first copy landed;
//! `scripts/trace-round.py` reads it).
//! The stamps add a few stores per tile: the traced launch's time is not the engine's.

use anyhow::{bail, Context as _, Result};
use binade::format::{same_result, F64};
use binade::gpu::ordered_sum::onepass::{
    self, trace_steps, trip_means, Distribution, EngineOptions, TileTrace, TRACE_STEPS,
    TRACE_WORDS, TRIP_NAMES,
};
use binade::gpu::{Gpu, OnePassSum};
use binade::walk::loop_sum;
use cudarc::driver::CudaSlice;

const SEED: u64 = 2026;

fn distribution(name: &str) -> Result<Distribution> {
    Ok(match name {
        "uniform" => Distribution::Uniform,
        "log-normal" => Distribution::LogNormal3,
        "ties" => Distribution::SsimTies,
        "geometric" => Distribution::Geometric,
        _ => bail!("DISTRIBUTION is uniform, log-normal, ties or geometric, not {name:?}"),
    })
}

/// The `q`-quantile (0..=1) of sorted `v` (nearest rank).
fn quantile(v: &[i64], q: f64) -> i64 {
    debug_assert!(!v.is_empty());
    v[((v.len() - 1) as f64 * q).round() as usize]
}

/// One row: a step's name, what it measures, and its durations (ns, later minus earlier
/// stamp, negative where the later step's stamp came first) over the tiles.
fn row(name: &str, what: &str, mut d: Vec<i64>) -> String {
    if d.is_empty() {
        return format!("| {name} | {what} | 0 | | | | |");
    }
    d.sort_unstable();
    let total: i64 = d.iter().sum();
    format!(
        "| {name} | {what} | {} | {} | {} | {} | {:.1} |",
        d.len(),
        quantile(&d, 0.1),
        quantile(&d, 0.5),
        quantile(&d, 0.9),
        total as f64 / d.len() as f64
    )
}

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let n: usize = match args.first() {
        Some(a) => a
            .parse()
            .ok()
            .filter(|&n: &usize| n > 0)
            .with_context(|| format!("N must be a positive integer, not {a:?}"))?,
        None => 1 << 28,
    };
    let dist = distribution(args.get(1).map_or("uniform", String::as_str))?;
    let options = match args.get(3) {
        Some(a) => EngineOptions {
            ways: a
                .parse()
                .ok()
                .filter(|w| (1..=8).contains(w))
                .with_context(|| format!("WAYS must be 1 to 8, not {a:?}"))?,
            ..EngineOptions::DEFAULT
        },
        None => EngineOptions::DEFAULT,
    };
    let min_blocks: u32 = match args.get(4) {
        Some(a) => a
            .parse()
            .ok()
            .filter(|b| *b <= 8)
            .with_context(|| format!("MIN_BLOCKS must be 0 to 8, not {a:?}"))?,
        None => onepass::MIN_BLOCKS,
    };
    let gpu = Gpu::open().map_err(|e| anyhow::anyhow!("{e}"))?;
    let op = OnePassSum::traced_with(&gpu, options, min_blocks)?;
    let s = gpu.stream();
    let mut pool: CudaSlice<f64> = s.alloc_zeros(n)?;
    op.fill(&mut pool, SEED, dist)?;
    let want = loop_sum::<F64>(&s.clone_dtoh(&pool)?).to_bits();
    let mut job = op.job(pool.slice(0..n), std::slice::from_ref(&(0..n)))?;
    let tiles = job.tiles() as usize;
    let used = op.kernel_use(job.tiles())?;
    let mut words: CudaSlice<u64> = s.alloc_zeros(tiles * TRACE_WORDS)?;
    op.launch_traced(&mut job, &mut words)?;
    s.memset_zeros(&mut words)?;
    op.launch_traced(&mut job, &mut words)?;
    let got = op.results(&job)?[0];
    let trace = TileTrace::from_words(&s.clone_dtoh(&words)?, tiles);
    let exact = same_result::<F64>(got.total.to_bits(), want);
    let start = trace.iter().map(|t| t.landed).min().unwrap_or(0);
    let end = trace.iter().map(|t| t.exact).max().unwrap_or(0);
    let out_of_order = trace.iter().filter(|t| !t.stamped_in_order()).count();
    println!(
        "{n} terms ({dist:?}), {tiles} tiles, look-backs of {} ways, registers capped for {} blocks (0: free; {} registers, {} blocks resident), commit {}: total {:#018x}, the CPU loop's {want:#018x} ({}); {} finished lane by lane, {} risky; first copy landed to last exact sum {:.3} ms; {out_of_order} tiles unstamped or with steps out of order\n",
        options.ways,
        min_blocks,
        used.registers,
        used.resident_blocks,
        binade::provenance::commit(),
        got.total.to_bits(),
        if exact { "equal" } else { "DIFFERENT" },
        got.finished_tiles,
        got.risky_tiles,
        (end - start) as f64 * 1e-6
    );
    println!("| step | from, to | tiles | p10 (ns) | median (ns) | p90 (ns) | mean (ns) |");
    println!("| --- | --- | --- | --- | --- | --- | --- |");
    for ((name, what), d) in TRACE_STEPS.iter().zip(trace_steps(&trace)) {
        println!("{}", row(name, what, d));
    }
    println!();
    println!(
        "| look-back trips a tile (mean, every tile but the first) | {} |",
        TRIP_NAMES.join(" | ")
    );
    println!("| --- |{}", " --- |".repeat(TRIP_NAMES.len()));
    let means: Vec<String> = trip_means(&trace)
        .iter()
        .map(|m| format!("{m:.2}"))
        .collect();
    println!("| {n} terms ({dist:?}) | {} |", means.join(" | "));
    if let Some(path) = args.get(2).filter(|p| p.as_str() != "-") {
        // Written beside its place and renamed into it: a failed run leaves no half file.
        let partial = format!("{path}.partial");
        let mut w =
            csv::Writer::from_path(&partial).with_context(|| format!("writing {partial}"))?;
        w.write_record([
            "tile",
            "taken_ns",
            "planned_ns",
            "unit_ns",
            "exact_ns",
            "sm",
            "block",
            "round",
            "landed_ns",
            "plan_reads",
            "plan_sleeps",
            "exact_reads",
            "exact_sleeps",
        ])?;
        for (i, t) in trace.iter().enumerate() {
            w.write_record([
                i.to_string(),
                (t.taken - start).to_string(),
                (t.planned.saturating_sub(start)).to_string(),
                (t.unit.saturating_sub(start)).to_string(),
                (t.exact.saturating_sub(start)).to_string(),
                t.sm.to_string(),
                t.block.to_string(),
                t.round.to_string(),
                (t.landed.saturating_sub(start)).to_string(),
                t.trips.plan_reads.to_string(),
                t.trips.plan_sleeps.to_string(),
                t.trips.exact_reads.to_string(),
                t.trips.exact_sleeps.to_string(),
            ])?;
        }
        w.flush()?;
        drop(w);
        std::fs::rename(&partial, path).with_context(|| format!("renaming {partial} to {path}"))?;
    }
    if !exact || out_of_order > 0 {
        bail!("the traced total differs from the loop's, or steps were stamped out of order");
    }
    Ok(())
}
