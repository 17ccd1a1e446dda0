//! A probe of the walked engine (`gpu::ordered_sum::walked`) beside the one-pass engine on the
//! device: for each build and each input (distribution and size), one CSV line as soon as it
//! is measured, so a run cut by a time limit still says how far it got. Not a report:
//! `reports/walked-probe` holds its runs with the predictions written before them.
//!
//!     walked_probe [REPS] [phases|events|caps|-] [SIZES]   (default 11 timed launches after 3
//!                                     untimed ones; `phases`: the producers alone, cut after
//!                                     each step; `caps`: the engine with its producer blocks
//!                                     capped at 3, 2 and 1 a multiprocessor (one less for the
//!                                     walker), beside the engine compiled for 3 resident
//!                                     blocks and the engine; `events`: the engine, its trace build and
//!                                     trace builds with the compose ahead on and the first
//!                                     tile's producer finish off, whose walker's event log of three launches after
//!                                     the timed ones goes to `walker-events.csv` (the build's
//!                                     name in its first column); SIZES:
//!                                     comma-separated term counts, default
//!                                     8294400,100000000,1073741824)
//!
//! Each line: build, distribution, terms, median ms of CUDA-event timings (the inputs rotated
//! over up to 16 disjoint windows of a pool of at least 2^25 doubles, beyond the L2), the
//! build's registers and resident blocks per multiprocessor, tiles, tiles the walker (or the
//! one-pass engine) finished from their terms, tiles with a tie, the walker's steps and
//! sleeps, whether the first launch's total has the CPU loop's bits, and whether a launch after
//! the timed ones has the first launch's total; then, of that launch after the timed ones,
//! the tiles planned from the walker's hint, from a look-back's range (tree sums missing) and
//! by a look-back that waited, and from a far anchor; the lanes the walker added natively, its
//! finishes' fast and pair-unit rounds, and, for a trace build, the walker's time, its time in
//! finishes and when the last unit word was published, in µs from the walker's start (that one
//! launch's); the tiles that published split words and those the walker ended by them; the
//! finishes ended by a planned pass. Before
//! each input a line `start ...` goes to
//! stderr, so a launch that never returns is named.

use anyhow::{bail, Result};
use binade::format::F64;
use binade::gpu::ordered_sum::onepass::Distribution;
use binade::gpu::ordered_sum::walked::{WalkedMutant, WalkedShape, WalkedSum};
use binade::gpu::timing::{event_times, median};
use binade::gpu::{Gpu, OnePassSum};
use binade::walk::loop_sum;
use cudarc::driver::CudaSlice;
use std::rc::Rc;

/// The walked builds probed: a name and the shape. The engine's shape against the buffered
/// producers (`WalkedShape::BUFFERED`: the next tile's terms copied into shared memory while
/// a producer works on its own, 3 blocks a multiprocessor) and against the engine's shape
/// capped for 3 blocks without the buffer (what the buffer's shared memory costs in resident
/// blocks, apart from what it buys), and the producers alone of the engine and of the
/// buffered build. (The compose ahead against the engine without it, then the engine's, was
/// timed at 6a3e598, the last position first against the bisection at d600150 and 6a3e598,
/// the look-back's early window against none at 62e5e97, the tie corrections against the
/// pair units at 8a3ef12, the mean margin against the tile margin at 168b9b2, fetched splits
/// against the segmented step without them at 517c5e6, the segmented step against a
/// crossing a step at ba9299d and 517c5e6, planned finishes against every finish by rounds
/// at 9f93b99, ec9e84b and be3e9ad, the split against every crossing finished at 67044ea,
/// finishes by fast rounds and steps resumed after a finish at f530bad, the far anchor 512
/// and 2,048 back and every plan by a look-back at 4430d67, the lean round and the early
/// draw at 035ce8b, 128 x 16 tiles at 1a6507f, the prefetch and waiting look-backs at
/// 2368892.)
fn walked_builds() -> Vec<(&'static str, WalkedShape)> {
    let d = WalkedShape::DEFAULT;
    let alone = |s: WalkedShape| WalkedShape {
        producers_only: true,
        ..s
    };
    vec![
        ("walked", d),
        ("walked, next tile buffered", WalkedShape::BUFFERED),
        ("walked, 3 blocks", WalkedShape { min_blocks: 3, ..d }),
        ("walked producers only (not a sum)", alone(d)),
        (
            "walked producers only, next tile buffered (not a sum)",
            alone(WalkedShape::BUFFERED),
        ),
    ]
}

/// The engine's shape with its first step composed before the first tile's sum is taken
/// (`ahead` on): the events mode's trace of it.
fn composed_ahead() -> WalkedShape {
    WalkedShape {
        ahead: true,
        ..WalkedShape::DEFAULT
    }
}

/// The `phases` mode's builds: the engine's producers alone, cut after each of their steps.
fn phase_builds() -> Vec<(&'static str, WalkedShape)> {
    let p = WalkedShape {
        producers_only: true,
        ..WalkedShape::DEFAULT
    };
    vec![
        (
            "producers: load and tree sum (not a sum)",
            WalkedShape { phases: 1, ..p },
        ),
        (
            "producers: and plan (not a sum)",
            WalkedShape { phases: 2, ..p },
        ),
        ("producers: and unit (not a sum)", p),
    ]
}

/// The `events` mode's builds: the engine's shape and its trace build, whose walker logs
/// its events, the trace build with the first step composed before the first tile's sum is
/// taken (`ahead` on) and the trace build with the first tile finished by the walker
/// (`first` off), whose log splits that finish into its phases (terms loaded, the planned
/// pass's keys and scan, its walk: `WalkerEventKind::FinishLoaded` to `FinishWalked`). (The
/// bisection's trace against the last position first's was taken at d600150, the first tile
/// finished by its producer against by the walker timed at 054862f and 5c2f826.)
fn event_builds() -> Vec<(&'static str, WalkedShape)> {
    let d = WalkedShape::DEFAULT;
    let ahead = composed_ahead();
    let traced = |s: WalkedShape| WalkedShape { trace: true, ..s };
    vec![
        ("walked", d),
        ("walked, traced", traced(d)),
        ("walked, composed ahead traced", traced(ahead)),
        (
            "walked, first tile by the walker traced",
            traced(WalkedShape { first: false, ..d }),
        ),
    ]
}

/// Launches of a trace build whose event logs the `events` mode writes.
const EVENT_RUNS: usize = 3;

/// The inputs, smallest first so a stall shows early.
const SIZES: [usize; 3] = [8_294_400, 100_000_000, 1 << 30];
const DISTRIBUTIONS: [Distribution; 4] = [
    Distribution::Uniform,
    Distribution::LogNormal3,
    Distribution::SsimTies,
    Distribution::Geometric,
];

const POOL: usize = 1 << 25;
const SEED: u64 = 2026;

/// One build under test: a walked build with the cap on its producer blocks a launch
/// (`WalkedJob::cap_producers`; `None`: as many as stay resident), or the one-pass engine.
enum Build {
    Walked(Rc<WalkedSum>, Option<u32>),
    OnePass(OnePassSum),
}

/// The `caps` mode's builds: the engine's shape launched with its producer blocks capped at
/// `per_sm` a multiprocessor less one (the walker's block), beside the engine compiled for 3
/// resident blocks (80 registers a thread, 3 a multiprocessor less the walker's launched) and
/// the engine (4). A cap at 3 launches as many producers as the 3-block build, so the two
/// tell its register budget from its block count.
fn cap_builds() -> Vec<(String, WalkedShape, Option<u32>)> {
    let d = WalkedShape::DEFAULT;
    let mut v = vec![
        ("walked".to_string(), d, None),
        (
            "walked, 3 blocks".to_string(),
            WalkedShape { min_blocks: 3, ..d },
            None,
        ),
    ];
    for per_sm in [3u32, 2, 1] {
        v.push((
            format!("walked, producers capped at {per_sm} a multiprocessor"),
            d,
            Some(per_sm),
        ));
    }
    v
}

fn main() -> Result<()> {
    let reps: usize = match std::env::args().nth(1) {
        Some(a) => match a.parse() {
            Ok(r) if r > 0 => r,
            _ => bail!("REPS must be a positive integer, not {a:?}"),
        },
        None => 11,
    };
    let mode = std::env::args().nth(2);
    let (phases, events, caps) = match mode.as_deref() {
        None | Some("-") => (false, false, false),
        Some("phases") => (true, false, false),
        Some("events") => (false, true, false),
        Some("caps") => (false, false, true),
        Some(other) => {
            bail!(
                "the second argument is `phases`, `events`, `caps`, `-` or nothing, not {other:?}"
            )
        }
    };
    let sizes: Vec<usize> = match std::env::args().nth(3) {
        None => SIZES.to_vec(),
        Some(list) => list
            .split(',')
            .map(|n| match n.parse() {
                Ok(v) if v > 0 => Ok(v),
                _ => bail!("SIZES is a comma-separated list of positive term counts, not {list:?}"),
            })
            .collect::<Result<_>>()?,
    };
    let gpu = Gpu::open().map_err(|e| anyhow::anyhow!("no GPU: {e}"))?;
    let mut builds: Vec<(String, Build)> = Vec::new();
    let uncapped = |v: Vec<(&'static str, WalkedShape)>| {
        v.into_iter()
            .map(|(n, s)| (n.to_string(), s, None))
            .collect::<Vec<_>>()
    };
    let shapes = if phases {
        uncapped(phase_builds())
    } else if events {
        uncapped(event_builds())
    } else if caps {
        cap_builds()
    } else {
        uncapped(walked_builds())
    };
    let sms = gpu.multiprocessors()?;
    let mut event_log = if events {
        let mut w = csv::Writer::from_path("walker-events.csv")?;
        w.write_record([
            "build",
            "distribution",
            "terms",
            "run",
            "event",
            "kind",
            "tile",
            "aux",
            "us",
            "cycles",
            "producers_us",
            "events_met",
        ])?;
        Some(w)
    } else {
        None
    };
    let mut compiled: Vec<(WalkedShape, Rc<WalkedSum>)> = Vec::new();
    for (name, shape, per_sm) in shapes {
        let cap = per_sm.map(|k| (k * sms).saturating_sub(1).max(1));
        if let Some((_, w)) = compiled.iter().find(|(s, _)| *s == shape) {
            eprintln!("{name}: a build compiled before, at most {cap:?} producer blocks");
            builds.push((name, Build::Walked(Rc::clone(w), cap)));
            continue;
        }
        let t = std::time::Instant::now();
        let w = Rc::new(WalkedSum::build(&gpu, shape, WalkedMutant::None)?);
        eprintln!(
            "compiled {name} in {:.1} s: {} registers, {} blocks per multiprocessor",
            t.elapsed().as_secs_f64(),
            w.registers,
            w.blocks_per_multiprocessor
        );
        compiled.push((shape, Rc::clone(&w)));
        builds.push((name, Build::Walked(w, cap)));
    }
    builds.push((
        "one-pass engine".to_string(),
        Build::OnePass(OnePassSum::new(&gpu)?),
    ));
    let filler = match &builds[builds.len() - 1].1 {
        Build::OnePass(op) => op,
        Build::Walked(..) => unreachable!("the one-pass engine is the last build"),
    };
    let mut out = csv::Writer::from_writer(std::io::stdout());
    out.write_record([
        "build",
        "distribution",
        "terms",
        "median_ms",
        "registers",
        "blocks_per_sm",
        "tiles",
        "finished_tiles",
        "pair_tiles",
        "walker_steps",
        "walker_sleeps",
        "exact",
        "same_bits_after_timing",
        "hinted_plans",
        "ranged_plans",
        "waited_plans",
        "far_plans",
        "native_lanes",
        "fast_rounds",
        "pair_rounds",
        "walker_us",
        "finish_us",
        "producers_us",
        "split_tiles",
        "split_ends",
        "planned_finishes",
        "walk_split_ends",
    ])?;
    out.flush()?;
    for n in sizes {
        for dist in DISTRIBUTIONS {
            let s = gpu.stream();
            let count = n.max(POOL);
            let mut pool: CudaSlice<f64> = s.alloc_zeros(count)?;
            filler.fill(&mut pool, SEED, dist)?;
            let k = (count / n).clamp(1, 16);
            let host = s.clone_dtoh(&pool.slice(0..n))?;
            let want = loop_sum::<F64>(&host).to_bits();
            drop(host);
            for (name, build) in &builds {
                eprintln!("start {name}, {}, {n} terms", dist.name());
                let row = match build {
                    Build::Walked(w, cap) => {
                        let mut jobs = (0..k)
                            .map(|r| {
                                let j = w.job(pool.slice(r * n..r * n + n))?;
                                Ok(match cap {
                                    Some(c) => j.cap_producers(*c),
                                    None => j,
                                })
                            })
                            .collect::<Result<Vec<_>>>()?;
                        let first = match w.run(&mut jobs[0]) {
                            Ok(f) => f,
                            Err(e) => {
                                let rec = [
                                    name.clone(),
                                    dist.name().to_string(),
                                    n.to_string(),
                                    format!("error: {e:#}"),
                                ];
                                out.write_record(
                                    rec.iter().chain(std::iter::repeat_n(&String::new(), 23)),
                                )?;
                                out.flush()?;
                                continue;
                            }
                        };
                        let times = event_times(&gpu, 3, reps, |r| w.launch(&mut jobs[r % k]))?;
                        let again = w.run(&mut jobs[0])?;
                        if let (Some(log), true) = (event_log.as_mut(), w.shape().trace) {
                            write_events(log, w, &mut jobs[0], name, dist.name(), n)?;
                        }
                        let last_same =
                            (again.total.to_bits() == first.total.to_bits()).to_string();
                        let only = w.shape().producers_only;
                        vec![
                            format!("{:.4}", median(&times)),
                            w.registers.to_string(),
                            w.blocks_per_multiprocessor.to_string(),
                            first.tiles.to_string(),
                            first.finished_tiles.to_string(),
                            first.pair_tiles.to_string(),
                            first.steps.to_string(),
                            first.sleeps.to_string(),
                            if only {
                                "not a sum".to_string()
                            } else {
                                (first.total.to_bits() == want).to_string()
                            },
                            if only {
                                "not a sum".to_string()
                            } else {
                                last_same
                            },
                            again.hinted_plans.to_string(),
                            again.ranged_plans.to_string(),
                            again.waited_plans.to_string(),
                            again.far_plans.to_string(),
                            again.native_lanes.to_string(),
                            again.fast_rounds.to_string(),
                            again.pair_rounds.to_string(),
                            trace_us(again.trace.map(|t| t.walker_ns)),
                            trace_us(again.trace.map(|t| t.finish_ns)),
                            trace_us(again.trace.map(|t| t.producers_ns)),
                            again.split_tiles.to_string(),
                            again.split_ends.to_string(),
                            again.planned_finishes.to_string(),
                            again.walk_split_ends.to_string(),
                        ]
                    }
                    Build::OnePass(op) => {
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
                        let again = op.run(&mut jobs[0])?[0];
                        let last_same =
                            (again.total.to_bits() == first.total.to_bits()).to_string();
                        vec![
                            format!("{:.4}", median(&times)),
                            String::new(),
                            String::new(),
                            first.tiles.to_string(),
                            first.finished_tiles.to_string(),
                            first.pair_tiles.to_string(),
                            String::new(),
                            String::new(),
                            (first.total.to_bits() == want).to_string(),
                            last_same,
                            String::new(),
                            String::new(),
                            String::new(),
                            String::new(),
                        ]
                        .into_iter()
                        .chain(std::iter::repeat_n(String::new(), 10))
                        .collect()
                    }
                };
                let mut rec = vec![name.clone(), dist.name().to_string(), n.to_string()];
                rec.extend(row);
                out.write_record(&rec)?;
                out.flush()?;
            }
        }
    }
    Ok(())
}

/// [`EVENT_RUNS`] launches of a trace build's job, each launch's walker events as CSV lines.
fn write_events(
    log: &mut csv::Writer<std::fs::File>,
    w: &WalkedSum,
    job: &mut binade::gpu::ordered_sum::walked::WalkedJob<f64>,
    build: &str,
    dist: &str,
    n: usize,
) -> Result<()> {
    for run in 0..EVENT_RUNS {
        let total = w.run(job)?;
        let ev = w.walker_events(job, 0)?;
        let producers = trace_us(total.trace.map(|t| t.producers_ns));
        for (i, e) in ev.events.iter().enumerate() {
            log.write_record([
                build.to_string(),
                dist.to_string(),
                n.to_string(),
                run.to_string(),
                i.to_string(),
                e.kind.name(),
                e.tile.to_string(),
                e.aux.to_string(),
                format!("{:.3}", e.ns as f64 / 1e3),
                e.cycles.to_string(),
                producers.clone(),
                ev.met.to_string(),
            ])?;
        }
    }
    log.flush()?;
    Ok(())
}

/// A trace stamp in µs, or nothing for a build without the trace.
fn trace_us(ns: Option<u64>) -> String {
    ns.map(|v| format!("{:.2}", v as f64 / 1e3))
        .unwrap_or_default()
}
