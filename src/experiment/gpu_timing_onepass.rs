//! The one-pass engine's part of `gpu-timing`: its time per distribution and size beside the
//! plain tree sum, a device copy, `cupy.sum` and CCCL's deterministic reduce (peers on the
//! uniform data of the same size), its phases (timing builds that stop early), and how its
//! tiles went (ties, crossings, lanes added natively). Every timed sum is checked against the
//! CPU loop's bits, and relaunched to show the bits do not vary.

use std::path::Path;
use std::process::Command;

use anyhow::{Context as _, Result};
use cudarc::driver::CudaSlice;
use serde::Deserialize;

use crate::format::{same_result, F64};
use crate::gpu::ordered_sum::onepass::{
    trace_steps, trip_means, Distribution, EngineOptions, OnePassJob, Phases, Schedule, TileShape,
    TileTrace, TRACE_STEPS, TRACE_WORDS, TRIP_NAMES,
};
use crate::gpu::ordered_sum::walked::{WalkedJob, WalkedMutant, WalkedShape, WalkedSum};
use crate::gpu::timing::{event_times, median};
use crate::gpu::{Gpu, GpuOrderedSum, OnePassSum, SumJob};
use crate::report::{ratio_cell as ratio, thousands, Table};
use crate::walk::loop_sum;

/// Most distinct windows a size is rotated over.
const MAX_OFFSETS: usize = 256;

/// Timing settings shared with the rest of `gpu-timing`.
pub struct Timing {
    /// Untimed runs first.
    pub warmup: usize,
    /// Timed runs (the median is reported).
    pub reps: usize,
    /// Smallest pool of doubles a size's windows are cut from.
    pub pool: usize,
}

/// Everything measured for one distribution at one size (ms medians; NaN: not measured).
#[derive(Clone, Debug)]
pub struct DistRow {
    /// Which distribution.
    pub dist: Distribution,
    /// Terms per sum.
    pub n: usize,
    /// Windows rotated over.
    pub windows: usize,
    /// The engine, and its timing builds in [`Phases::ALL`] order (the last is the engine).
    pub phases: [f64; 4],
    /// The variants of [`VARIANTS`], in order.
    pub variants: Vec<f64>,
    /// The plain tree sum of the seed's kernels.
    pub tree: f64,
    /// A device-to-device copy of the same `n` doubles.
    pub copy: f64,
    /// Tiles of one sum, and how they went (first window).
    pub tiles: u64,
    /// Tiles with a tie.
    pub pair_tiles: u64,
    /// Tiles finished lane by lane.
    pub finished_tiles: u64,
    /// Lanes added natively.
    pub native_lanes: u64,
    /// Tiles whose plan missed their exact start's binade.
    pub missed_tiles: u64,
    /// Tiles whose plan estimated an unpublished tree sum.
    pub estimated_plans: u64,
    /// Tiles whose plan said they may leave their binade (they kept their terms).
    pub risky_tiles: u64,
    /// The first window's total equals the CPU loop's bits.
    pub exact: bool,
    /// Every relaunch of the first window, and every variant, gave the same bits.
    pub identical: bool,
    /// The trace build's launch on the first window.
    pub trace: TraceSummary,
    /// The walked engine beside it ([`Walked`]).
    pub walked: Walked,
}

/// The walked engine (`gpu::ordered_sum::walked`) on the same windows.
#[derive(Clone, Debug)]
pub struct Walked {
    /// Its median ms.
    pub ms: f64,
    /// The median ms of its producers alone (a timing build whose walker does nothing).
    pub producers_ms: f64,
    /// Its tiles (4,096 terms), and those its walker finished from their terms.
    pub tiles: u64,
    /// Tiles the walker finished from their terms.
    pub finished_tiles: u64,
    /// The walker's steps.
    pub steps: u64,
    /// The first window's total equals the CPU loop's bits.
    pub exact: bool,
    /// Three relaunches of the first window gave the first launch's bits.
    pub identical: bool,
}

/// One traced launch, summed up.
#[derive(Clone, Debug)]
pub struct TraceSummary {
    /// The median ns of each of [`TRACE_STEPS`].
    pub medians: [f64; TRACE_STEPS.len()],
    /// Tiles unstamped or stamped out of order.
    pub out_of_order: usize,
    /// The mean look-back trips a tile ([`trip_means`], [`TRIP_NAMES`]).
    pub trips: [f64; 4],
}

/// Uniform terms for one size: the engine's median ms over `jobs` (the caller's windows),
/// and whether the first window's total equals `want` in bits.
pub fn time_uniform(
    op: &OnePassSum,
    t: &Timing,
    jobs: &mut [OnePassJob],
    want: f64,
) -> Result<(f64, bool)> {
    let got = op.run(&mut jobs[0])?[0].total;
    let k = jobs.len();
    let times = event_times(op.gpu(), t.warmup, t.reps, |i| op.launch(&mut jobs[i % k]))?;
    Ok((
        median(&times),
        same_result::<F64>(got.to_bits(), want.to_bits()),
    ))
}

/// A launch variant timed beside the engine (same bits, another way to run it).
pub struct Variant {
    /// The name used in reports.
    pub name: &'static str,
    /// Tile shape.
    pub shape: TileShape,
    /// Resident blocks per multiprocessor asked of the compiler (0: registers uncapped).
    pub min_blocks: u32,
    /// How the launch runs its tiles.
    pub schedule: Schedule,
    /// How the look-backs read.
    pub options: EngineOptions,
}

const fn shape(threads: u32, per_thread: u32) -> TileShape {
    TileShape {
        threads,
        per_thread,
    }
}

const fn ways(ways: u32) -> EngineOptions {
    EngineOptions {
        ways,
        ..EngineOptions::DEFAULT
    }
}

const MB: u32 = crate::gpu::ordered_sum::onepass::MIN_BLOCKS;

const fn held(options: EngineOptions) -> Variant {
    Variant {
        name: "",
        shape: TileShape::DEFAULT,
        min_blocks: MB,
        schedule: Schedule::Held,
        options,
    }
}

/// The variants, in report order. The engine itself is the layout's shape (256 x 32),
/// registers uncapped (`MIN_BLOCKS`), tiles held in registers at every size (`SCHEDULE`),
/// [`EngineOptions::DEFAULT`]; each variant below differs from it in one thing (the first in
/// all of them). Variants of earlier versions that measured slower and are not listed here
/// (one block per tile at every size, resident blocks at every size, two tile buffers, the
/// deferred schedule uncapped) have their last figures in `reports/gpu-timing-history/db03199`.
pub const VARIANTS: [Variant; 9] = [
    Variant {
        name: "the look-backs before: 256 x 16 tiles, one block per tile, pair lane units, registers capped",
        shape: shape(256, 16),
        min_blocks: 6,
        schedule: Schedule::OneBlockPerTile,
        options: EngineOptions {
            lane_fast: false,
            ..EngineOptions::DEFAULT
        },
    },
    Variant {
        name: "(17) off: by size, the engine before (one block per tile below 32,768 tiles, resident blocks copying their next tile from there)",
        shape: TileShape::DEFAULT,
        min_blocks: MB,
        schedule: Schedule::BySize,
        options: EngineOptions::DEFAULT,
    },
    Variant {
        name: "(11) off: risky tiles resolved after the take (the order of cf969ae)",
        ..held(EngineOptions {
            hold_risky: false,
            ..EngineOptions::DEFAULT
        })
    },
    Variant {
        name: "(5) on: the plan never waits",
        ..held(EngineOptions {
            plan_waits: false,
            ..EngineOptions::DEFAULT
        })
    },
    Variant {
        name: "(8) off: lane units by the pair composition",
        ..held(EngineOptions {
            lane_fast: false,
            ..EngineOptions::DEFAULT
        })
    },
    Variant {
        name: "(10) off: 4,096-term tiles (256 x 16)",
        shape: shape(256, 16),
        ..held(EngineOptions::DEFAULT)
    },
    Variant {
        name: "(12) off: registers capped for three resident blocks",
        min_blocks: crate::gpu::ordered_sum::onepass::CAPPED_BLOCKS,
        ..held(EngineOptions::DEFAULT)
    },
    Variant {
        name: "look-backs 2 ways",
        ..held(ways(2))
    },
    Variant {
        name: "(16) exact look-backs a round late at every size, 1 way, registers capped for two blocks",
        shape: TileShape::DEFAULT,
        min_blocks: 2,
        schedule: Schedule::Deferred,
        options: ways(1),
    },
];

/// The index of the engine (the whole of [`Phases::ALL`]) among the phase builds.
const ENGINE: usize = Phases::ALL.len() - 1;

/// The timing builds and the engine, compiled once.
pub struct Engines {
    /// [`Phases::ALL`] order; the last is the engine.
    pub builds: Vec<OnePassSum>,
    /// [`VARIANTS`], in order.
    pub variants: Vec<OnePassSum>,
    /// The seed's kernels (for the tree sum).
    pub seed: GpuOrderedSum,
    /// The engine's trace build ([`OnePassSum::traced`]).
    pub trace: OnePassSum,
    /// The walked engine, and its producers-only timing build.
    pub walked: [WalkedSum; 2],
}

impl Engines {
    /// Compiles every build for `gpu`; `seed` is the caller's compiled seed pipeline.
    pub fn new(gpu: &Gpu, seed: &GpuOrderedSum) -> Result<Engines> {
        // Every build is a whole NVRTC compile (seconds each): on rayon's threads.
        use rayon::prelude::*;
        let builds: Vec<OnePassSum> = Phases::ALL
            .par_iter()
            .map(|&p| OnePassSum::timing_build(gpu, p))
            .collect::<Result<_>>()?;
        // Every phase build at the engine's residency (the last build is the engine).
        let engine_blocks = builds[ENGINE].kernel_use(u64::MAX)?.resident_blocks;
        let builds = builds
            .into_iter()
            .map(|b| b.pinned_to(engine_blocks))
            .collect::<Result<_>>()?;
        let (variants, trace) = rayon::join(
            || {
                VARIANTS
                    .par_iter()
                    .map(|v| OnePassSum::variant(gpu, v.shape, v.min_blocks, v.schedule, v.options))
                    .collect::<Result<Vec<_>>>()
            },
            || OnePassSum::traced(gpu),
        );
        let walked = [
            WalkedSum::new(gpu)?,
            WalkedSum::build(
                gpu,
                WalkedShape {
                    producers_only: true,
                    ..WalkedShape::DEFAULT
                },
                WalkedMutant::None,
            )?,
        ];
        Ok(Engines {
            builds,
            variants: variants?,
            seed: seed.clone(),
            trace: trace?,
            walked,
        })
    }

    fn engine(&self) -> &OnePassSum {
        &self.builds[self.builds.len() - 1]
    }
}

/// The kernel each build runs for a launch of `tiles` tiles, its registers and residency:
/// the engine first, then [`VARIANTS`] in order.
pub fn builds_table(e: &Engines, tiles: u64) -> Table {
    let mut t = Table::new(
        "builds",
        &format!("The kernel each build runs at {tiles} tiles (registers per thread as the driver reports them; blocks resident per multiprocessor as launched, and as would fit with one tile of shared memory: the phase builds are launched with more shared memory than their tile, unused, so that they run at the engine's residency)"),
        &["build", "kernel", "registers", "blocks resident per multiprocessor", "blocks that fit with one tile"],
    );
    let phases = Phases::ALL[..ENGINE]
        .iter()
        .map(|p| p.build_name())
        .zip(e.builds.iter());
    let named = std::iter::once((Phases::All.build_name(), e.engine()))
        .chain(phases)
        .chain(VARIANTS.iter().map(|v| v.name).zip(e.variants.iter()));
    for (name, build) in named {
        match build.kernel_use(tiles) {
            Ok(k) => t.row(vec![
                name.to_string(),
                k.kernel.to_string(),
                k.registers.to_string(),
                k.resident_blocks.to_string(),
                k.fitting_blocks.to_string(),
            ]),
            Err(err) => t.row(vec![
                name.to_string(),
                format!("not read: {err:#}"),
                String::new(),
                String::new(),
                String::new(),
            ]),
        }
    }
    t
}

/// Measures `dist` at `n` terms.
pub fn measure_distribution(
    e: &Engines,
    t: &Timing,
    dist: Distribution,
    n: usize,
    seed: u64,
) -> Result<DistRow> {
    let op = e.engine();
    let s = op.gpu().stream();
    let count = n.max(t.pool);
    let mut pool: CudaSlice<f64> = s.alloc_zeros(count)?;
    op.fill(&mut pool, seed, dist)?;
    let k = (count / n.max(1)).clamp(1, MAX_OFFSETS);
    let windows: Vec<_> = (0..k).map(|r| r * n..r * n + n).collect();
    let mut jobs: Vec<OnePassJob> = windows
        .iter()
        .map(|w| op.job(pool.slice(0..count), std::slice::from_ref(w)))
        .collect::<Result<_>>()?;
    let host = s.clone_dtoh(&pool.slice(0..n))?;
    let want = loop_sum::<F64>(&host).to_bits();
    drop(host);
    let first = op.run(&mut jobs[0])?[0];
    let mut identical = true;
    for _ in 0..3 {
        identical &= op.run(&mut jobs[0])?[0].total.to_bits() == first.total.to_bits();
    }
    let trace = trace_of(&e.trace, &pool, count, &windows[0], first.total.to_bits())?;
    identical &= trace.1;
    let trace = trace.0;
    let mut phases = [f64::NAN; 4];
    for (i, b) in e.builds.iter().enumerate() {
        let times = event_times(op.gpu(), t.warmup, t.reps, |r| b.launch(&mut jobs[r % k]))?;
        phases[i] = median(&times);
    }
    let mut variants = Vec::new();
    for v in &e.variants {
        let mut own: Vec<OnePassJob> = Vec::new();
        if v.shape_of_tiles() != op.shape_of_tiles() {
            own = windows
                .iter()
                .map(|w| v.job(pool.slice(0..count), std::slice::from_ref(w)))
                .collect::<Result<_>>()?;
        }
        let js = if own.is_empty() { &mut jobs } else { &mut own };
        identical &= v.run(&mut js[0])?[0].total.to_bits() == first.total.to_bits();
        variants.push(median(&event_times(op.gpu(), t.warmup, t.reps, |r| {
            v.launch(&mut js[r % k])
        })?));
    }
    let walked = measure_walked(e, t, &pool, &windows, want)?;
    let mut tree_jobs: Vec<SumJob> = windows
        .iter()
        .map(|w| e.seed.job(pool.slice(0..count), std::slice::from_ref(w)))
        .collect::<Result<_>>()?;
    let tree = median(&event_times(op.gpu(), t.warmup, t.reps, |r| {
        e.seed.launch_tree(&mut tree_jobs[r % k])
    })?);
    drop(tree_jobs);
    let mut dst: CudaSlice<f64> = s.alloc_zeros(n.max(1))?;
    let copy = median(&event_times(op.gpu(), t.warmup, t.reps, |r| {
        let w = &windows[r % k];
        s.memcpy_dtod(&pool.slice(w.clone()), &mut dst.slice_mut(0..n))?;
        Ok(())
    })?);
    Ok(DistRow {
        dist,
        n,
        windows: k,
        phases,
        variants,
        tree,
        copy,
        tiles: first.tiles,
        pair_tiles: first.pair_tiles,
        finished_tiles: first.finished_tiles,
        native_lanes: first.native_lanes,
        missed_tiles: first.missed_tiles,
        estimated_plans: first.estimated_plans,
        risky_tiles: first.risky_tiles,
        exact: same_result::<F64>(first.total.to_bits(), want),
        identical,
        trace,
        walked,
    })
}

/// The walked engine and its producers alone on `windows` of `pool`; `want` the loop's bits
/// of the first window.
fn measure_walked(
    e: &Engines,
    t: &Timing,
    pool: &CudaSlice<f64>,
    windows: &[std::ops::Range<usize>],
    want: u64,
) -> Result<Walked> {
    let [w, producers] = &e.walked;
    let k = windows.len();
    let mut jobs: Vec<WalkedJob> = windows
        .iter()
        .map(|r| w.job(pool.slice(r.clone())))
        .collect::<Result<_>>()?;
    let first = w.run(&mut jobs[0])?;
    let mut identical = true;
    for _ in 0..3 {
        identical &= w.run(&mut jobs[0])?.total.to_bits() == first.total.to_bits();
    }
    let ms = median(&event_times(w.gpu(), t.warmup, t.reps, |r| {
        w.launch(&mut jobs[r % k])
    })?);
    let mut only: Vec<WalkedJob> = windows
        .iter()
        .map(|r| producers.job(pool.slice(r.clone())))
        .collect::<Result<_>>()?;
    let producers_ms = median(&event_times(w.gpu(), t.warmup, t.reps, |r| {
        producers.launch(&mut only[r % k])
    })?);
    Ok(Walked {
        ms,
        producers_ms,
        tiles: first.tiles,
        finished_tiles: first.finished_tiles,
        steps: first.steps,
        exact: same_result::<F64>(first.total.to_bits(), want),
        identical,
    })
}

/// The walked engine's table: beside the one-pass engine and the peers.
pub fn walked_table(rows: &[DistRow], peer: impl Fn(usize) -> (f64, f64)) -> Table {
    let mut t = Table::new(
        "walked",
        "The walked engine beside the one-pass engine (median ms; the peers on uniform data of the same size)",
        &[
            "distribution",
            "terms",
            "walked",
            "its producers alone",
            "one-pass",
            "walked / one-pass",
            "cupy.sum",
            "walked / cupy",
            "CCCL deterministic",
            "walked / CCCL det.",
            "tiles",
            "tiles finished by the walker",
            "walker steps",
            "exact = CPU loop",
            "same bits in every launch",
        ],
    );
    for r in rows {
        let (cupy, cccl) = peer(r.n);
        let w = &r.walked;
        let engine = r.phases[ENGINE];
        t.row(vec![
            r.dist.name().into(),
            thousands(r.n as u64),
            ms(w.ms),
            ms(w.producers_ms),
            ms(engine),
            ratio(w.ms, engine),
            ms(cupy),
            ratio(w.ms, cupy),
            ms(cccl),
            ratio(w.ms, cccl),
            thousands(w.tiles),
            thousands(w.finished_tiles),
            thousands(w.steps),
            w.exact.to_string(),
            w.identical.to_string(),
        ]);
    }
    t
}

/// One traced launch (after an untimed one) of `window` of `pool`, summed up, and whether its
/// total's bits are `total`.
fn trace_of(
    op: &OnePassSum,
    pool: &CudaSlice<f64>,
    count: usize,
    window: &std::ops::Range<usize>,
    total: u64,
) -> Result<(TraceSummary, bool)> {
    let mut job = op.job(pool.slice(0..count), std::slice::from_ref(window))?;
    let tiles = job.tiles() as usize;
    let s = op.gpu().stream();
    let mut words: CudaSlice<u64> = s.alloc_zeros((tiles * TRACE_WORDS).max(1))?;
    op.launch_traced(&mut job, &mut words)?;
    s.memset_zeros(&mut words)?;
    op.launch_traced(&mut job, &mut words)?;
    let same = op.results(&job)?[0].total.to_bits() == total;
    let trace = TileTrace::from_words(&s.clone_dtoh(&words)?, tiles);
    let out_of_order = trace.iter().filter(|t| !t.stamped_in_order()).count();
    let medians = trace_steps(&trace).map(|mut d| {
        d.sort_unstable();
        d.get(d.len() / 2).map_or(f64::NAN, |&x| x as f64)
    });
    let summary = TraceSummary {
        medians,
        out_of_order,
        trips: trip_means(&trace),
    };
    Ok((summary, same))
}

/// The trace table: per distribution and size, the median of each traced step.
pub fn trace_table(rows: &[DistRow]) -> Table {
    let mut headers = vec!["distribution", "terms"];
    headers.extend(TRACE_STEPS.iter().map(|s| s.0));
    let trips: Vec<String> = TRIP_NAMES.iter().map(|n| format!("{n} a tile")).collect();
    headers.extend(trips.iter().map(String::as_str));
    headers.push("tiles unstamped or stamped out of order");
    let steps: Vec<String> = TRACE_STEPS
        .iter()
        .map(|(name, what)| format!("{name}: from {what}"))
        .collect();
    let mut t = Table::new(
        "onepass_trace",
        &format!(
            "Where a tile's time goes in the engine: one launch of its trace build (`BINADE_OP_TRACE`, each tile's steps stamped by the device's %globaltimer; the stamps add a few stores per tile), the median over the tiles of each step, ns ({}); and the mean over the tiles of each look-back's trips: its reads (one load of the records by the look-back warp, 32 tiles a read) and its sleeps (one pause of a wait for a record not yet published)",
            steps.join("; ")
        ),
        &headers,
    );
    for r in rows {
        let mut cells = vec![r.dist.name().to_string(), thousands(r.n as u64)];
        cells.extend(r.trace.medians.iter().map(|x| format!("{x:.0}")));
        cells.extend(r.trace.trips.iter().map(|x| format!("{x:.2}")));
        cells.push(r.trace.out_of_order.to_string());
        t.row(cells);
    }
    t
}

/// CCCL's reduce on the uniform data of one size (`experiments/peers/cccl_reduce.cu`).
#[derive(Clone, Debug, Deserialize)]
pub struct CcclSize {
    /// Terms.
    pub n: usize,
    /// Sum modulo 2^64 of the pool's bit patterns.
    pub checksum: String,
    /// `cub::DeviceReduce::Sum` with `determinism::gpu_to_gpu`, as a caller uses it.
    pub deterministic_median_ms: f64,
    /// The default `cub::DeviceReduce::Sum`, scratch allocated once.
    pub default_median_ms: f64,
}

/// The CCCL peer's output.
#[derive(Clone, Debug, Deserialize)]
pub struct CcclOut {
    /// CCCL's version.
    pub cccl: String,
    /// The device.
    pub device: String,
    /// One entry per size.
    pub sizes: Vec<CcclSize>,
    /// How the deterministic call was timed.
    #[serde(default)]
    pub note: String,
}

/// Runs the CCCL peer (built with nvcc on this machine) on `sizes`.
pub fn run_cccl(peers: &Path, sizes: &[usize], t: &Timing, seed: u64) -> Result<CcclOut> {
    let list: Vec<String> = sizes.iter().map(|n| n.to_string()).collect();
    let script = peers.join("cccl_reduce.sh");
    let out = Command::new("bash")
        .arg(&script)
        .args(["--sizes", &list.join(","), "--pool", &t.pool.to_string()])
        .args([
            "--seed",
            &seed.to_string(),
            "--warmup",
            &t.warmup.to_string(),
        ])
        .args(["--reps", &t.reps.to_string()])
        .output()
        .with_context(|| format!("running bash {}", script.display()))?;
    super::peer_json(&script, &out)
}

fn ms(x: f64) -> String {
    crate::report::ms_cell(x, 4)
}

/// GB/s of reading `n` doubles in `ms`.
fn read_rate(n: usize, ms: f64) -> f64 {
    (n as f64 * 8.0) / (ms * 1e-3) / 1e9
}

/// The distribution table: `peer(n)` gives (cupy.sum ms, CCCL deterministic ms) on uniform
/// data of `n` terms (NaN where not measured).
pub fn distribution_table(rows: &[DistRow], peer: impl Fn(usize) -> (f64, f64)) -> Table {
    let mut t = Table::new(
        "onepass",
        "The one-pass engine per distribution (median ms; the peers on uniform data of the same size, their time does not depend on the values)",
        &[
            "distribution",
            "terms",
            "one-pass",
            "cupy.sum",
            "one-pass / cupy",
            "CCCL deterministic",
            "one-pass / CCCL det.",
            "plain tree sum",
            "read GB/s",
            "device copy GB/s (read + write)",
            "share of copy rate",
            "tiles",
            "tiles with a tie",
            "tiles finished lane by lane",
            "lanes added natively",
            "plans that missed",
            "plans with an estimate",
            "tiles that kept their terms",
            "exact = CPU loop",
            "same bits in every launch and variant",
        ],
    );
    for r in rows {
        let (cupy, cccl) = peer(r.n);
        let engine = r.phases[ENGINE];
        let read = read_rate(r.n, engine);
        let copy = 2.0 * read_rate(r.n, r.copy);
        t.row(vec![
            r.dist.name().into(),
            thousands(r.n as u64),
            ms(engine),
            ms(cupy),
            ratio(engine, cupy),
            ms(cccl),
            ratio(engine, cccl),
            ms(r.tree),
            format!("{read:.0}"),
            format!("{copy:.0}"),
            format!("{:.2}", read / copy),
            thousands(r.tiles),
            thousands(r.pair_tiles),
            thousands(r.finished_tiles),
            thousands(r.native_lanes),
            thousands(r.missed_tiles),
            thousands(r.estimated_plans),
            thousands(r.risky_tiles),
            r.exact.to_string(),
            r.identical.to_string(),
        ]);
    }
    t
}

/// The phase table: each timing build's median and what its phase added, and every launch
/// variant of [`VARIANTS`].
pub fn phase_table(rows: &[DistRow]) -> Table {
    let mut headers = vec!["distribution", "terms"];
    headers.extend(Phases::ALL.iter().map(|p| p.name()));
    headers.extend(["plan look-back adds", "unit adds", "exact look-back adds"]);
    headers.extend(VARIANTS.iter().map(|v| v.name));
    let mut t = Table::new(
        "onepass_phases",
        "Where the one-pass time goes: builds that stop each tile after a phase, and launch variants of the whole engine (median ms)",
        &headers,
    );
    for r in rows {
        let mut cells = vec![r.dist.name().to_string(), thousands(r.n as u64)];
        cells.extend(r.phases.iter().map(|&x| ms(x)));
        cells.extend(r.phases.windows(2).map(|w| ms(w[1] - w[0])));
        cells.extend(r.variants.iter().map(|&x| ms(x)));
        t.row(cells);
    }
    t
}

/// The ideas tried in this version: the name, the index in [`VARIANTS`] of the engine
/// without (or, for an idea the engine does not take, with) it, and whether the engine takes it.
pub const IDEAS: [(&str, usize, bool); 8] = [
    (
        "(5) the plan never waits (estimates missing tree sums)",
        3,
        false,
    ),
    ("(8) lane units in f64, ties corrected by parity", 4, true),
    ("(10) 8,192-term tiles", 5, true),
    (
        "(11) tiles that may leave their binade keep their terms (held: resolved before the take)",
        2,
        true,
    ),
    ("(12) registers uncapped", 6, true),
    (
        "(16) exact look-backs a round late at every size, 1 way, capped for two blocks",
        8,
        false,
    ),
    ("(17) tiles held in registers at every size", 1, true),
    (
        "all that the engine takes, against the look-backs before",
        0,
        true,
    ),
];

/// Before and after for each idea of [`IDEAS`]: the engine without the idea and with it (one
/// of the two is the engine itself), per distribution and size (same run, same data).
pub fn ideas_table(rows: &[DistRow]) -> Table {
    let mut t = Table::new(
        "onepass_ideas",
        "Each idea of this version alone: the engine without it and with it, median ms (same run, same data)",
        &[
            "idea",
            "taken by the engine",
            "distribution",
            "terms",
            "without",
            "with",
            "with / without",
        ],
    );
    for &(idea, v, taken) in &IDEAS {
        for r in rows {
            let (engine, other) = (r.phases[ENGINE], r.variants[v]);
            let (without, with) = if taken {
                (other, engine)
            } else {
                (engine, other)
            };
            t.row(vec![
                idea.to_string(),
                if taken { "yes" } else { "no" }.to_string(),
                r.dist.name().into(),
                thousands(r.n as u64),
                ms(without),
                ms(with),
                ratio(with, without),
            ]);
        }
    }
    t
}
