//! A focused probe of the one-pass engine's schedules on the device: for each configuration
//! (schedule and look-back ways) and each input (distribution and size), one line as soon as
//! it is measured, so that a run cut by a time limit still says how far it got and where it
//! stopped. Not a report: `binade run gpu-timing` times the same variants beside the peers.
//!
//!     onepass_schedules [REPS]      (default 11 timed launches after 3 untimed ones)
//!
//! Each line: configuration, distribution, terms, median ms of CUDA-event timings (the
//! inputs rotated over disjoint windows of a pool of at least 2^25 doubles, beyond the L2),
//! tiles finished lane by lane, and whether the first launch's total has the CPU loop's bits.
//! The CSV goes to stdout; before each input a line `start ...` goes to stderr, so a launch
//! that never returns is named.

use anyhow::{bail, Result};
use binade::format::F64;
use binade::gpu::ordered_sum::onepass::{
    Distribution, EngineOptions, Schedule, TileShape, MIN_BLOCKS, SCHEDULE,
};
use binade::gpu::timing::{event_times, median};
use binade::gpu::{Gpu, OnePassSum};
use binade::walk::loop_sum;
use cudarc::driver::CudaSlice;

/// The configurations probed: a name, the schedule, the look-back ways.
const CONFIGS: [(&str, Schedule, u32); 5] = [
    ("engine (its schedule, 1 way)", SCHEDULE, 1),
    ("resident, 8 ways", Schedule::Resident, 8),
    ("deferred, 8 ways", Schedule::Deferred, 8),
    ("deferred, 4 ways", Schedule::Deferred, 4),
    ("deferred, 1 way", Schedule::Deferred, 1),
];

/// The inputs, smallest first so a stall shows early.
const INPUTS: [(Distribution, usize); 8] = [
    (Distribution::Uniform, 1 << 24),
    (Distribution::Uniform, 8_294_400),
    (Distribution::Uniform, 100_000_000),
    (Distribution::Geometric, 100_000_000),
    (Distribution::Uniform, 1 << 30),
    (Distribution::LogNormal3, 1 << 30),
    (Distribution::SsimTies, 1 << 30),
    (Distribution::Geometric, 1 << 30),
];

const POOL: usize = 1 << 25;
const SEED: u64 = 2026;

fn main() -> Result<()> {
    let reps: usize = match std::env::args().nth(1) {
        Some(a) => match a.parse() {
            Ok(r) if r > 0 => r,
            _ => bail!("REPS must be a positive integer, not {a:?}"),
        },
        None => 11,
    };
    let gpu = Gpu::open().map_err(|e| anyhow::anyhow!("no GPU: {e}"))?;
    let mut out = csv::Writer::from_writer(std::io::stdout());
    let builds: Vec<(&str, OnePassSum)> = CONFIGS
        .iter()
        .map(|&(name, schedule, ways)| {
            let t = std::time::Instant::now();
            let options = EngineOptions {
                ways,
                ..EngineOptions::DEFAULT
            };
            let op = OnePassSum::variant(&gpu, TileShape::DEFAULT, MIN_BLOCKS, schedule, options)?;
            eprintln!("compiled {name} in {:.1} s", t.elapsed().as_secs_f64());
            Ok((name, op))
        })
        .collect::<Result<_>>()?;
    out.write_record([
        "config",
        "distribution",
        "terms",
        "median_ms",
        "finished_tiles",
        "tiles",
        "exact",
    ])?;
    out.flush()?;
    for &(dist, n) in &INPUTS {
        let op = &builds[0].1;
        let s = gpu.stream();
        let count = n.max(POOL);
        let mut pool: CudaSlice<f64> = s.alloc_zeros(count)?;
        op.fill(&mut pool, SEED, dist)?;
        let k = (count / n).clamp(1, 16);
        let host = s.clone_dtoh(&pool.slice(0..n))?;
        let want = loop_sum::<F64>(&host).to_bits();
        drop(host);
        for (name, op) in &builds {
            eprintln!("start {name}, {}, {n} terms", dist.name());
            let mut jobs = (0..k)
                .map(|r| {
                    op.job(
                        pool.slice(0..count),
                        std::slice::from_ref(&(r * n..r * n + n)),
                    )
                })
                .collect::<Result<Vec<_>>>()?;
            let first = op.run(&mut jobs[0])?[0];
            let times = event_times(&gpu, 3, reps, |r| op.launch(&mut jobs[r % k]))?;
            out.write_record([
                name.to_string(),
                dist.name().to_string(),
                n.to_string(),
                format!("{:.4}", median(&times)),
                first.finished_tiles.to_string(),
                first.tiles.to_string(),
                (first.total.to_bits() == want).to_string(),
            ])?;
            out.flush()?;
        }
    }
    Ok(())
}
