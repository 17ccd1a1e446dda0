//! The walked engine's f32 plans on the device, path by path: for each f32 build (the engine's,
//! with the moves; without them; with the moves and no far anchor; with the moves and
//! look-backs that wait rather than plan from a range) and each f32 stream of `gpu-timing-f32`
//! at each size, one CSV line of one launch's counters: tiles, tiles the walker finished from
//! their terms, tiles planned from the walker's hint, from a look-back's range, by a look-back
//! that waited and from a far anchor, tiles that published split words and those ended by them,
//! the walker's steps, and whether the total has the f32 loop's bits. Not a report: a probe of
//! which plans a stream's finishes follow (`reports/walked-moves`).
//!
//! `tiles` mode: for the engine's build and the build without moves, each tile's planned
//! binade (its unit word's) against the binade of the f32 loop's sum before it, computed on
//! the host from the same terms, with the tile's path: how many tiles each path planned in
//! the wrong binade, how the misses run, the first misses with their plan words, and how far
//! the anchors' approximate prefixes (the plan words that hold one) drift from the loop's.
//! `once` mode: one stream and size, each of those two builds launched twice (a run for a
//! profiler: `ncu -k walked_sum --launch-skip 1`...).
//!
//!     walked_f32_paths [SIZES]   (comma-separated term counts, default 100000000)
//!     walked_f32_paths tiles SIZE [STREAMS]   (stream names as gpu-timing-f32's, comma-separated)
//!     walked_f32_paths once STREAM SIZE
//!
//! `trace` mode: one CSV line a tile of one launch of the engine's build (the tile's f32 loop
//! sum before it and its binade, its tree sum, largest term and moves in the three binades
//! around the loop's, and its plan, unit and path words), for reading a chain of plans step
//! by step. `time` mode: CUDA-event medians (21 launches each, in 3 rounds of 7 that take the
//! builds in turn, after 3 untimed) of the f32 engine's moves (`Moves::Crossing`) at 4, 3
//! (the engine's shape since 5531182) and 2 blocks a multiprocessor beside the build without
//! moves, without the re-read (`Moves::Parity`) and with the re-read compiled out
//! (`Moves::TagOnly`), each with its registers, its counts of one launch (tiles finished,
//! planned from the hint and from a far anchor, look-backs read again or, with the re-read
//! compiled out, that would have been, walker steps) and whether it kept the loop's bits;
//! and the producers alone of `Moves::Crossing` and of `Moves::Parity` at 4 blocks (a walker
//! that does nothing: no sum, its bits not the loop's); and `a3`, the engine with the plans'
//! mean margin (`Margin::Mean`; at 168b9b2, whose engine had the mean margin, the build `m3`
//! was the tile margin); and `q3`, the engine with the lanes' pair units for ties
//! (`tie_parity` off; at 8a3ef12, whose engine had them, `q3` was the tie corrections). The
//! build names of `reports/walked-blocks` (call 33, 3818228) are
//! these; `e4` was the engine then.
//!
//!     walked_f32_paths trace STREAM SIZE
//!     walked_f32_paths time SIZES STREAMS [BUILDS]
//!         (BUILDS: e4,n4,e3,a3,q3,n3,e2,p4,p3,t4,t3,ep,pp, default all)
use anyhow::{bail, Context, Result};
use binade::format::{same_result, Layout, F32};
use binade::gpu::ordered_sum::onepass::Distribution;
use binade::gpu::ordered_sum::walked::{
    Lookback, Margin, Moves, PlanWord, TileWords, WalkedMutant, WalkedShape, WalkedSum, PATH_FAR,
    PATH_HINTED, PATH_RANGED,
};
use binade::gpu::timing::{event_times, median};
use binade::gpu::{Gpu, OnePassSum};
use binade::unit::Binade;
use binade::verify::walked_model::move_f32;
use binade::walk::loop_sum;
use cudarc::driver::CudaSlice;

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("tiles") => return tiles_mode(&args[1..]),
        Some("once") => return once_mode(&args[1..]),
        Some("trace") => return trace_mode(&args[1..]),
        Some("time") => return time_mode(&args[1..]),
        _ => {}
    }
    let sizes: Vec<usize> = match std::env::args().nth(1) {
        Some(a) => a
            .split(',')
            .map(|s| s.parse().with_context(|| format!("a size: {s:?}")))
            .collect::<Result<_>>()?,
        None => vec![100_000_000],
    };
    let gpu = Gpu::open()?;
    let op = OnePassSum::new(&gpu)?;
    let e = WalkedShape::DEFAULT_F32;
    let shapes = [
        ("moves (engine)", e),
        (
            "no moves",
            WalkedShape {
                moves: Moves::Off,
                ..e
            },
        ),
        ("moves, no far anchor", WalkedShape { far: 0, ..e }),
        (
            "moves, look-backs wait",
            WalkedShape {
                lookback: Lookback::Wait,
                ..e
            },
        ),
    ];
    let builds: Vec<(&str, WalkedSum)> = shapes
        .iter()
        .map(|&(name, shape)| Ok((name, WalkedSum::build(&gpu, shape, WalkedMutant::None)?)))
        .collect::<Result<_>>()?;
    println!("build,stream,terms,tiles,finished,hinted,ranged,waited,far,split_tiles,split_ends,steps,loop_bits");
    let s = gpu.stream();
    for &n in &sizes {
        for &dist in &Distribution::ALL {
            let mut pool: CudaSlice<f32> = s.alloc_zeros(n)?;
            op.fill_f32(&mut pool, 2026, dist)?;
            let want = loop_sum::<F32>(&s.clone_dtoh(&pool)?);
            for (name, w) in &builds {
                let mut job = w.job(pool.slice(0..n))?;
                let t = w.run(&mut job)?;
                println!(
                    "\"{name}\",\"{}\",{n},{},{},{},{},{},{},{},{},{},{}",
                    dist.name_f32(),
                    t.tiles,
                    t.finished_tiles,
                    t.hinted_plans,
                    t.ranged_plans,
                    t.waited_plans,
                    t.far_plans,
                    t.split_tiles,
                    t.split_ends,
                    t.steps,
                    same_result::<F32>(t.bits, u64::from(want.to_bits()))
                );
            }
        }
    }
    Ok(())
}

/// The engine's f32 build and the same without moves.
fn two_builds(gpu: &Gpu) -> Result<[(&'static str, WalkedSum); 2]> {
    let e = WalkedShape::DEFAULT_F32;
    let off = WalkedShape {
        moves: Moves::Off,
        ..e
    };
    Ok([
        (
            "moves (engine)",
            WalkedSum::build(gpu, e, WalkedMutant::None)?,
        ),
        ("no moves", WalkedSum::build(gpu, off, WalkedMutant::None)?),
    ])
}

fn stream_named(name: &str) -> Result<Distribution> {
    Distribution::ALL
        .into_iter()
        .find(|d| d.name_f32() == name || format!("{d:?}").eq_ignore_ascii_case(name))
        .with_context(|| format!("no f32 stream {name:?}"))
}

fn size_arg(a: Option<&String>) -> Result<usize> {
    let a = a.context("a size")?;
    a.parse().with_context(|| format!("a size: {a:?}"))
}

fn once_mode(args: &[String]) -> Result<()> {
    let dist = stream_named(args.first().context("a stream")?)?;
    let n = size_arg(args.get(1))?;
    let gpu = Gpu::open()?;
    let op = OnePassSum::new(&gpu)?;
    let builds = two_builds(&gpu)?;
    let s = gpu.stream();
    let mut pool: CudaSlice<f32> = s.alloc_zeros(n)?;
    op.fill_f32(&mut pool, 2026, dist)?;
    for (name, w) in &builds {
        let mut job = w.job(pool.slice(0..n))?;
        for _ in 0..2 {
            let t = w.run(&mut job)?;
            println!(
                "{name}: {} tiles finished, {} steps",
                t.finished_tiles, t.steps
            );
        }
    }
    Ok(())
}

/// The f32 binade of a sum: the exponent field of a positive normal, else 0 (the kernel's
/// `binade_of_f32`).
fn binade_f32(v: f32) -> u32 {
    Binade::of::<F32>(u64::from(v.to_bits())).map_or(0, |b| b.0)
}

fn tiles_mode(args: &[String]) -> Result<()> {
    let n = size_arg(args.first())?;
    let streams: Vec<Distribution> = match args.get(1) {
        Some(list) => list.split(',').map(stream_named).collect::<Result<_>>()?,
        None => Distribution::ALL.to_vec(),
    };
    let gpu = Gpu::open()?;
    let op = OnePassSum::new(&gpu)?;
    let builds = two_builds(&gpu)?;
    let s = gpu.stream();
    for dist in streams {
        let mut pool: CudaSlice<f32> = s.alloc_zeros(n)?;
        op.fill_f32(&mut pool, 2026, dist)?;
        let terms = s.clone_dtoh(&pool)?;
        for (name, w) in &builds {
            let tile = w.shape().tile() as usize;
            let before = loop_before_tiles(&terms, tile);
            let mut job = w.job(pool.slice(0..n))?;
            for run in 0..2 {
                let t = w.run(&mut job)?;
                let words = w.tile_words(&job)?;
                if words.units.len() + 1 != before.len() {
                    bail!(
                        "{} unit words for {} tiles",
                        words.units.len(),
                        before.len() - 1
                    );
                }
                println!(
                    "== {} {name}, {n} terms, run {run}: {} tiles, {} finished by the walker, loop bits {}",
                    dist.name_f32(),
                    t.tiles,
                    t.finished_tiles,
                    same_result::<F32>(t.bits, u64::from(loop_sum::<F32>(&terms).to_bits()))
                );
                report_tiles(&words, &before);
            }
        }
    }
    Ok(())
}

/// The f32 loop's sum before each tile, and after the last.
fn loop_before_tiles(terms: &[f32], tile: usize) -> Vec<f32> {
    let mut out = Vec::with_capacity(terms.len() / tile + 2);
    let mut s = 0.0f32;
    for c in terms.chunks(tile) {
        out.push(s);
        s = c.iter().fold(s, |a, &x| a + x);
    }
    out.push(s);
    out
}

/// A plan word's kind as the trace writes it: 1 a tree sum or moves, 2 an approximate prefix
/// (the kernel's `WK_AGG` and `WK_APPROX`), 0 anything else.
fn plan_kind(w: PlanWord) -> u32 {
    match w {
        PlanWord::TreeSum(_) | PlanWord::Moves { .. } => 1,
        PlanWord::Prefix(_) => 2,
        PlanWord::Other(_) => 0,
    }
}

fn plan_word_text(w: PlanWord) -> String {
    match w {
        PlanWord::Prefix(v) => format!("prefix {v:.6e}"),
        PlanWord::Moves { window, at, above } => {
            format!("moves at {window}: {at:.4e}, {above:.4e}")
        }
        PlanWord::TreeSum(v) => format!("tree sum {v:.4e}"),
        PlanWord::Other(k) => format!("kind {k}"),
    }
}

fn report_tiles(words: &TileWords, before: &[f32]) {
    let ntiles = words.units.len();
    let path_name = |p: u32| {
        if p & PATH_HINTED != 0 {
            "hinted"
        } else if p & PATH_FAR != 0 {
            "far"
        } else if p & PATH_RANGED != 0 {
            "ranged"
        } else {
            "look-back"
        }
    };
    let mut by_path: std::collections::BTreeMap<(&str, &str), u64> = Default::default();
    let (mut crossings, mut saturated) = (0u64, 0u64);
    let mut misses = Vec::new();
    for t in 1..ntiles {
        let lb = binade_f32(before[t]);
        let la = binade_f32(before[t + 1]);
        let uv = words.units[t].0;
        let ub = words.unit_binade(t);
        let p = words.paths[t];
        if ub != lb {
            let side = if ub > lb { "high" } else { "low" };
            *by_path.entry((path_name(p), side)).or_default() += 1;
            misses.push(t);
        } else if la != lb {
            crossings += 1;
        } else if uv >= 1u64 << 62 {
            saturated += 1;
        }
    }
    println!(
        "planned in another binade: {} of {} ({by_path:?}); crossings planned right: {crossings}; saturated in their binade: {saturated}",
        misses.len(),
        ntiles - 1
    );
    let mut runs: Vec<(usize, usize)> = Vec::new();
    for &t in &misses {
        match runs.last_mut() {
            Some((start, len)) if *start + *len == t => *len += 1,
            _ => runs.push((t, 1)),
        }
    }
    let longest = runs.iter().map(|r| r.1).max().unwrap_or(0);
    println!(
        "runs of misses: {}, longest {longest}; first runs (tile, length):",
        runs.len()
    );
    let shown: Vec<String> = runs
        .iter()
        .take(16)
        .map(|(a, l)| format!("{a}+{l}"))
        .collect();
    println!("  {}", shown.join(" "));
    for &t in misses.iter().take(12) {
        let ub = words.unit_binade(t);
        let base = (0..t).rev().find(|&a| plan_kind(words.plan_word(a)) == 2);
        let base_text = base.map_or_else(
            || "none".to_string(),
            |a| {
                format!(
                    "tile {a}: {} (the loop after it {:.6e}, binade {})",
                    plan_word_text(words.plan_word(a)),
                    before[a + 1],
                    binade_f32(before[a + 1])
                )
            },
        );
        println!(
            "  tile {t}: loop before {:.6e} (binade {}), planned {ub}, path {:#x}, own word {}; nearest earlier prefix word {base_text}",
            before[t],
            binade_f32(before[t]),
            words.paths[t],
            plan_word_text(words.plan_word(t))
        );
    }
    let mut anchors = 0u64;
    let mut off = 0u64;
    let mut worst = 1.0f64;
    for a in 1..ntiles {
        let PlanWord::Prefix(approx) = words.plan_word(a) else {
            continue;
        };
        anchors += 1;
        let truth = f64::from(before[a + 1]);
        if binade_f32(approx as f32) != binade_f32(before[a + 1]) {
            off += 1;
        }
        if truth > 0.0 && approx > 0.0 {
            let r = approx / truth;
            if (r - 1.0).abs() > (worst - 1.0).abs() {
                worst = r;
            }
        }
    }
    println!(
        "prefix words: {anchors}, in another binade than the loop's sum after their tile: {off}; the largest drift: {worst:.6} of the loop's"
    );
}

fn trace_mode(args: &[String]) -> Result<()> {
    let dist = stream_named(args.first().context("a stream")?)?;
    let n = size_arg(args.get(1))?;
    let gpu = Gpu::open()?;
    let op = OnePassSum::new(&gpu)?;
    let w = WalkedSum::build(&gpu, WalkedShape::DEFAULT_F32, WalkedMutant::None)?;
    let s = gpu.stream();
    let mut pool: CudaSlice<f32> = s.alloc_zeros(n)?;
    op.fill_f32(&mut pool, 2026, dist)?;
    let terms = s.clone_dtoh(&pool)?;
    let tile = w.shape().tile() as usize;
    let before = loop_before_tiles(&terms, tile);
    let mut job = w.job(pool.slice(0..n))?;
    let total = w.run(&mut job)?;
    let words = w.tile_words(&job)?;
    println!(
        "# {}, {n} terms: {} tiles finished",
        dist.name_f32(),
        total.finished_tiles
    );
    println!("tile,loop_before,loop_binade,tree_sum,largest,move_below,move_at,move_above,plan_kind,plan,window,unit_binade,path");
    for (t, c) in terms.chunks(tile).enumerate() {
        let lb = binade_f32(before[t]);
        let ts: f64 = c.iter().map(|&x| f64::from(x)).sum();
        let big = c.iter().fold(0.0f32, |a, &x| a.max(x));
        let m = |b: u32| {
            if (1..=<F32 as Layout>::MAX_NORMAL_FIELD).contains(&b) {
                format!("{:.9e}", move_f32(c, b))
            } else {
                String::new()
            }
        };
        let w = words.plan_word(t);
        let (plan, window) = match w {
            PlanWord::Prefix(v) | PlanWord::TreeSum(v) => (format!("{v:.9e}"), 0),
            PlanWord::Moves { window, at, above } => (format!("{at:.9e};{above:.9e}"), window),
            PlanWord::Other(_) => (String::new(), 0),
        };
        println!(
            "{t},{:.9e},{lb},{ts:.9e},{big:.6e},{},{},{},{},{plan},{window},{},{}",
            before[t],
            m(lb.wrapping_sub(1)),
            m(lb),
            m(lb + 1),
            plan_kind(w),
            words.unit_binade(t),
            words.paths[t]
        );
    }
    Ok(())
}

/// Rounds of the time mode, each [`TIME_REPS`] timed launches of every build in turn.
const TIME_ROUNDS: usize = 3;
/// Timed launches of a build in one round of the time mode.
const TIME_REPS: usize = 7;

fn time_mode(args: &[String]) -> Result<()> {
    let sizes: Vec<usize> = args
        .first()
        .context("sizes")?
        .split(',')
        .map(|v| v.parse().with_context(|| format!("a size: {v:?}")))
        .collect::<Result<_>>()?;
    let streams: Vec<Distribution> = args
        .get(1)
        .context("streams")?
        .split(',')
        .map(stream_named)
        .collect::<Result<_>>()?;
    let gpu = Gpu::open()?;
    let op = OnePassSum::new(&gpu)?;
    let e = WalkedShape::DEFAULT_F32;
    let with = |moves: Moves, min_blocks: u32| WalkedShape {
        moves,
        min_blocks,
        ..e
    };
    let shapes = [
        ("e4", "moves (Crossing), 4 blocks", with(e.moves, 4)),
        ("n4", "no moves, 4 blocks", with(Moves::Off, 4)),
        (
            "e3",
            "moves (Crossing), 3 blocks (the engine)",
            with(e.moves, 3),
        ),
        (
            "a3",
            "moves (Crossing), 3 blocks, the mean margin (Margin::Mean)",
            WalkedShape {
                margin: Margin::Mean,
                ..with(e.moves, 3)
            },
        ),
        (
            "q3",
            "moves (Crossing), 3 blocks, the lanes' pair units for ties (tie_parity off)",
            WalkedShape {
                tie_parity: false,
                ..with(e.moves, 3)
            },
        ),
        ("n3", "no moves, 3 blocks", with(Moves::Off, 3)),
        ("e2", "moves, 2 blocks", with(e.moves, 2)),
        (
            "p4",
            "no re-read (Parity), 4 blocks",
            with(Moves::Parity, 4),
        ),
        (
            "p3",
            "no re-read (Parity), 3 blocks",
            with(Moves::Parity, 3),
        ),
        (
            "t4",
            "re-read compiled out (TagOnly), 4 blocks",
            with(Moves::TagOnly, 4),
        ),
        (
            "t3",
            "re-read compiled out (TagOnly), 3 blocks",
            with(Moves::TagOnly, 3),
        ),
        (
            "ep",
            "moves (Crossing), 4 blocks, producers alone (no sum)",
            WalkedShape {
                producers_only: true,
                ..with(e.moves, 4)
            },
        ),
        (
            "pp",
            "no re-read (Parity), 4 blocks, producers alone (no sum)",
            WalkedShape {
                producers_only: true,
                ..with(Moves::Parity, 4)
            },
        ),
    ];
    let wanted: Vec<&str> = match args.get(2) {
        Some(list) => list.split(',').collect(),
        None => shapes.iter().map(|s| s.0).collect(),
    };
    if let Some(bad) = wanted.iter().find(|w| !shapes.iter().any(|s| s.0 == **w)) {
        let names: Vec<&str> = shapes.iter().map(|s| s.0).collect();
        bail!("no build {bad:?}: one of {}", names.join(", "));
    }
    let builds: Vec<(&str, WalkedSum)> = shapes
        .iter()
        .filter(|s| wanted.contains(&s.0))
        .map(|&(_, name, shape)| Ok((name, WalkedSum::build(&gpu, shape, WalkedMutant::None)?)))
        .collect::<Result<_>>()?;
    println!("build,stream,terms,median_ms,registers,blocks_per_sm,finished,hinted,far,reread,steps,loop_bits");
    let s = gpu.stream();
    for &n in &sizes {
        for &dist in &streams {
            let mut pool: CudaSlice<f32> = s.alloc_zeros(n)?;
            op.fill_f32(&mut pool, 2026, dist)?;
            let want = loop_sum::<F32>(&s.clone_dtoh(&pool)?);
            let mut jobs: Vec<_> = builds
                .iter()
                .map(|(_, w)| w.job(pool.slice(0..n)))
                .collect::<Result<_>>()?;
            // Rounds that take the builds in turn, so a drift of the device's clock in the
            // course of a row falls on every build alike.
            let mut times = vec![Vec::new(); builds.len()];
            for round in 0..TIME_ROUNDS {
                for (i, (_, w)) in builds.iter().enumerate() {
                    let warm = if round == 0 { 3 } else { 0 };
                    let ms = event_times(&gpu, warm, TIME_REPS, |_| w.launch(&mut jobs[i]))?;
                    times[i].extend(ms);
                }
            }
            for (((name, w), job), times) in builds.iter().zip(&mut jobs).zip(&times) {
                // A producers-only build's run may refuse its output (no walker, no sum):
                // its time stands, its counts are reported as not read.
                let t = match w.run(job) {
                    Ok(t) => t,
                    Err(e) => {
                        println!(
                            "\"{name}\",\"{}\",{n},{:.4},{},{},,,,,,\"{}\"",
                            dist.name_f32(),
                            median(times),
                            w.registers,
                            w.blocks_per_multiprocessor,
                            format!("{e:#}").replace('"', "'")
                        );
                        continue;
                    }
                };
                println!(
                    "\"{name}\",\"{}\",{n},{:.4},{},{},{},{},{},{},{},{}",
                    dist.name_f32(),
                    median(times),
                    w.registers,
                    w.blocks_per_multiprocessor,
                    t.finished_tiles,
                    t.hinted_plans,
                    t.far_plans,
                    t.reread_plans,
                    t.steps,
                    same_result::<F32>(t.bits, u64::from(want.to_bits()))
                );
            }
        }
    }
    Ok(())
}
