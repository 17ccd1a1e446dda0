//! `cpu-timing`: the fast CPU engine ([`crate::fast`]) against the loop it reproduces, on one
//! thread and on all of them, beside a plain parallel sum (rayon, not the loop's bits), a plain
//! one-thread sum (what one thread's reads cost), the host pipeline that mirrors the device,
//! and numpy's and Python's sums; four distributions, f64 and f32, sizes up to 1e9.

use std::path::Path;
use std::process::Command;
use std::time::Instant;

use anyhow::{Context as _, Result};
use rayon::prelude::*;
use serde::Deserialize;

use super::{Context, Outcome};
use crate::cumsum::{first_difference, loop_cumsum_into, ordered_cumsum_into, Start};
use crate::fast::{ordered_sum_fast, ordered_sum_par_report, FastTerm};
use crate::format::{same_result, Format};
use crate::gpu::timing::median;
use crate::plan::PlanKind;
use crate::report::{ratio_cell as ratio, thousands, Report, Table};
use crate::walk::{loop_sum, pipeline};

/// Host distributions, as the GPU timing makes them on the device (a counter hash; the
/// transcendental functions of the log-normal are the host's, so its values are not the
/// device's bit for bit).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Dist {
    Uniform,
    LogNormal3,
    SsimTies,
    Geometric,
    /// Signed: `1 + z`, `z` standard normal (the sum stays positive and grows).
    Normal11,
}

impl Dist {
    const ALL: [Dist; 5] = [
        Dist::Uniform,
        Dist::LogNormal3,
        Dist::SsimTies,
        Dist::Geometric,
        Dist::Normal11,
    ];

    /// The distribution's key in the experiment file's `distributions` list.
    fn key(self) -> &'static str {
        match self {
            Dist::Uniform => "uniform",
            Dist::LogNormal3 => "log-normal",
            Dist::SsimTies => "half-ties",
            Dist::Geometric => "geometric",
            Dist::Normal11 => "normal-1-1",
        }
    }

    fn name(self) -> &'static str {
        match self {
            Dist::Uniform => "uniform [0, 1)",
            Dist::LogNormal3 => "log-normal, sigma 3",
            Dist::SsimTies => "1 - q, half the terms ties",
            Dist::Geometric => "geometric, a binade per 2^20 terms",
            Dist::Normal11 => "N(1, 1), signed",
        }
    }

    fn term(self, seed: u64, i: u64) -> f64 {
        let u = unit_hash(seed, i);
        match self {
            Dist::Uniform => u,
            Dist::LogNormal3 => {
                let u2 = unit_hash(seed ^ 0x5bd1_e995, i);
                let z = (-2.0 * (1.0 - u).ln()).sqrt() * (std::f64::consts::TAU * u2).cos();
                (3.0 * z).exp()
            }
            Dist::SsimTies => {
                // Half an ulp of the running sum (about i / 4) as the grid of 1 - q.
                let approx = (i + 4) as f64 * 0.25;
                let e = approx.log2().floor() as i32;
                let grid = 2f64.powi(e - 53);
                ((1.0 - (0.5 + 0.5 * u)) / grid).round_ties_even() * grid
            }
            Dist::Geometric => (0.5 + 0.5 * u) * ((i as f64) * 2f64.powi(-20) - 960.0).exp2(),
            Dist::Normal11 => {
                let u2 = unit_hash(seed ^ 0x5bd1_e995, i);
                1.0 + (-2.0 * (1.0 - u).ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
            }
        }
    }

    /// `n` terms of type `T` (f32 terms are the f64 terms rounded to nearest; the geometric
    /// stream starts at `2^-100` for f32 instead of `2^-960`, inside f32's normal range).
    fn generate<T: FastTerm>(self, n: usize, seed: u64) -> Vec<T> {
        let shift = if <T::F as Format>::FRAC_BITS == 23 && self == Dist::Geometric {
            2f64.powi(860)
        } else {
            1.0
        };
        (0..n as u64)
            .into_par_iter()
            .map(|i| <T::F as Format>::from_f64(self.term(seed, i) * shift))
            .collect()
    }
}

/// `(splitmix64(seed + (i + 1) * golden) >> 11) * 2^-53`.
fn unit_hash(seed: u64, i: u64) -> f64 {
    let mut z = seed.wrapping_add((i + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^= z >> 31;
    (z >> 11) as f64 * 2f64.powi(-53)
}

/// Median milliseconds of `reps` runs of `f` (after one untimed run), and its last result.
fn time<R>(reps: usize, f: impl Fn() -> R) -> (f64, R) {
    let mut out = std::hint::black_box(f());
    let t: Vec<f64> = (0..reps.max(1))
        .map(|_| {
            let t0 = Instant::now();
            out = std::hint::black_box(f());
            t0.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    (median(&t), out)
}

/// One peer's time and result from `experiments/peers/numpy_sum.py`.
#[derive(Clone, Debug, Deserialize)]
struct PeerRow {
    name: String,
    median_ms: f64,
    bits: String,
}

#[derive(Clone, Debug, Deserialize)]
struct PeerOut {
    numpy: String,
    python: String,
    peers: Vec<PeerRow>,
    /// Median ms of `np.cumsum(x)` (asked for with `--cumsum-out`).
    cumsum_ms: Option<f64>,
}

/// numpy's and Python's sums of `terms` (written to a temporary .npy file), timed by the peer
/// script with `python`.
fn run_peers<T: FastTerm + npyz::AutoSerialize + npyz::Deserialize>(
    python: &str,
    script: &Path,
    terms: &[T],
    reps: usize,
) -> Result<(PeerOut, Vec<T>)> {
    let tmp = std::env::temp_dir();
    let file = tmp.join(format!("binade-cpu-timing-{}.npy", std::process::id()));
    let cumsum = tmp.join(format!(
        "binade-cpu-timing-{}.cumsum.npy",
        std::process::id()
    ));
    let written = npyz::to_file_1d(&file, terms.iter().copied());
    let out = written
        .context("writing the peer's .npy input")
        .and_then(|()| {
            Command::new(python)
                .arg(script)
                .arg("--file")
                .arg(&file)
                .args(["--reps", &reps.to_string()])
                .arg("--cumsum-out")
                .arg(&cumsum)
                .output()
                .with_context(|| format!("running {python} {}", script.display()))
        });
    let _ = std::fs::remove_file(&file);
    let parsed = out.and_then(|o| super::peer_json::<PeerOut>(script, &o));
    let outputs = parsed.as_ref().ok().map(|_| {
        std::fs::read(&cumsum)
            .context("reading np.cumsum's output")
            .and_then(|b| {
                npyz::NpyFile::new(&b[..])
                    .and_then(|f| f.into_vec::<T>())
                    .context("decoding np.cumsum's output")
            })
    });
    let _ = std::fs::remove_file(&cumsum);
    let parsed = parsed?;
    Ok((parsed, outputs.unwrap_or_else(|| Ok(Vec::new()))?))
}

/// Median milliseconds of `reps` runs of `f` after one untimed run (for work that writes into
/// a buffer the caller keeps).
fn time_mut(reps: usize, mut f: impl FnMut()) -> f64 {
    f();
    let t: Vec<f64> = (0..reps.max(1))
        .map(|_| {
            let t0 = Instant::now();
            f();
            t0.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    median(&t)
}

/// The prefix sums of one row: median ms of the loop, the exact engine on one thread and on
/// all threads, numpy's `np.cumsum`; and for the exact engine (both pools) and numpy the
/// first index where the whole output differs from the loop's (`None`: equal at every
/// position).
struct CumsumRow {
    loop_ms: f64,
    one_ms: f64,
    all_ms: f64,
    numpy_ms: Option<f64>,
    exact_differs: Option<usize>,
    numpy_differs: Result<Option<usize>, String>,
}

struct Row {
    dtype: &'static str,
    dist: Dist,
    n: usize,
    /// numpy/Python peers: (name, ms, equal to the loop), or why they were not run.
    peers: Result<Vec<(String, f64, bool)>, String>,
    /// loop, fast 1 thread, fast all threads, plain parallel sum, plain one-thread sum, host
    /// pipeline (NaN: not run), lane-wise plain parallel sum.
    ms: [f64; 7],
    /// Chunks the threaded engine added term by term, chunks whose planned unit its walk did
    /// not apply, and chunks in all.
    native: (usize, usize, usize),
    fast_exact: bool,
    par_exact: bool,
    plain_equal: bool,
    cumsum: CumsumRow,
}

/// The settings every row shares.
struct Setup {
    reps: usize,
    pipeline_max: usize,
    peer_max: usize,
    python: String,
    script: std::path::PathBuf,
}

/// One row: every engine and peer on `dist`'s `n` terms of type `T`.
fn measure<T: FastTerm + npyz::AutoSerialize + npyz::Deserialize>(
    set: &Setup,
    dist: Dist,
    n: usize,
    seed: u64,
    versions: &mut Option<String>,
) -> Row
where
    T::F: Format<Value = T>,
{
    let terms: Vec<T> = dist.generate(n, seed);
    let reps = set.reps;
    let (loop_ms, want) = time(reps, || loop_sum::<T::F>(&terms));
    let (fast_ms, fast) = time(reps, || ordered_sum_fast(&terms));
    let (par_ms, par) = time(reps, || ordered_sum_par_report(&terms));
    let (plain_ms, plain) = time(reps, || terms.par_iter().map(|x| x.widen()).sum::<f64>());
    let (plain1_ms, _) = time(reps, || T::plain_sum(&terms));
    let (lanes_ms, _) = time(reps, || crate::fast::plain_sum_lanes_par(&terms));
    let walk_ms = if n <= set.pipeline_max {
        time(reps, || {
            pipeline::<T::F, crate::algebra::Exact>(
                &terms,
                &PlanKind::TreePrefix,
                None,
                &crate::algebra::Exact,
            )
            .total
        })
        .0
    } else {
        f64::NAN
    };
    let want_bits = <T::F as Format>::to_bits(want);
    let same = |x: T| same_result::<T::F>(<T::F as Format>::to_bits(x), want_bits);
    let mut numpy_cumsum = None;
    let peers = if n > set.peer_max {
        Err(format!(
            "not run above {} terms",
            thousands(set.peer_max as u64)
        ))
    } else {
        match run_peers(&set.python, &set.script, &terms, reps) {
            Ok((p, outputs)) => {
                numpy_cumsum = Some((p.cumsum_ms, outputs));
                *versions = Some(format!("numpy {} on Python {}", p.numpy, p.python));
                Ok(p.peers
                    .into_iter()
                    .map(|r| {
                        let equal = r
                            .bits
                            .parse::<u64>()
                            .is_ok_and(|b| same_result::<T::F>(b, want_bits));
                        (r.name, r.median_ms, equal)
                    })
                    .collect())
            }
            Err(e) => Err(format!("not run: {e:#}")),
        }
    };
    let cumsum = measure_cumsum(&terms, reps, numpy_cumsum, &peers);
    Row {
        dtype: <T::F as Format>::NAME,
        dist,
        n,
        peers,
        ms: [
            loop_ms, fast_ms, par_ms, plain_ms, plain1_ms, walk_ms, lanes_ms,
        ],
        native: (par.native_chunks, par.replanned_chunks, par.chunks),
        fast_exact: same(fast),
        par_exact: same(par.total),
        plain_equal: same(<T::F as Format>::from_f64(plain)),
        cumsum,
    }
}

/// The prefix sums of `terms` (numpy's start: the first term), the loop against the exact
/// engine on one thread and on all threads, and numpy's output against the loop's; the output
/// buffers are made once, so the times do not include first-touch page faults.
fn measure_cumsum<T: FastTerm>(
    terms: &[T],
    reps: usize,
    numpy: Option<(Option<f64>, Vec<T>)>,
    peers: &Result<Vec<(String, f64, bool)>, String>,
) -> CumsumRow {
    let zero = <T::F as Format>::from_bits(0);
    let start = Start::FirstTerm;
    let mut want = vec![zero; terms.len()];
    let loop_ms = time_mut(reps, || loop_cumsum_into(terms, start, &mut want));
    let mut got = vec![zero; terms.len()];
    let all_ms = time_mut(reps, || ordered_cumsum_into(terms, start, &mut got));
    let mut exact_differs = first_difference(&got, &want);
    got.fill(zero);
    let one_ms = match rayon::ThreadPoolBuilder::new().num_threads(1).build() {
        Ok(pool) => {
            let ms =
                pool.install(|| time_mut(reps, || ordered_cumsum_into(terms, start, &mut got)));
            exact_differs = exact_differs.or(first_difference(&got, &want));
            ms
        }
        Err(_) => f64::NAN,
    };
    let (numpy_ms, numpy_differs) = match (numpy, peers) {
        (Some((ms, out)), _) => (ms, Ok(first_difference(&out, &want))),
        (None, Err(why)) => (None, Err(why.clone())),
        (None, Ok(_)) => (None, Err("not run".into())),
    };
    CumsumRow {
        loop_ms,
        one_ms,
        all_ms,
        numpy_ms,
        exact_differs,
        numpy_differs,
    }
}

/// The engine's ideas as this experiment measured them, each prediction written before its
/// measurement.
const HISTORY: &str = "History. (1) The chunk scan with fused multiply-adds: `t = fma(x, scale, 1.5 * 2^52)` and `d = fma(x, scale, -r)` round the exact `x * scale` once, so `y` is not formed, and the per-term bound on `y` gives way to a bound of 2^51 on the chunk's sum of `r` (a term too large for the rounding makes that sum reach 2^51): seven vector instructions for four terms instead of nine. Measured first by `examples/fast_probe` on this 2-core machine (one thread, uniform terms, fast engine / loop at 10^6 terms: 0.48 and 0.42 before, 0.37 and 0.32 after, two runs each; at 10^8 0.84 and 0.82 after, against 1.04 and 0.86). Predicted from that, before this experiment's first run with it: the one-thread fast engine 20 to 30% faster than in the report before it (commit 6be8b86, this 2-core machine) on uniform and log-normal f64 terms at 10^6 (uniform from 0.656 to about 0.5 ms), the same within noise from 10^7 on (one thread's read rate bounds it there: the plain one-thread sum alone took 0.81 of the loop's time at 10^7 and 0.68 at 10^9), and no change on the streams with ties (their chunks take the bit-mask pass) and the signed stream (its own scan). Measured (commit fab28e2, this machine, `reports/cpu-timing-2core`): uniform f64 at 10^6 0.652 ms against 0.656 before, so the probe's gain did not show in this experiment's row (as the H200 host's probe found too, this experiment's one-thread rows at 10^6 are not the engine's alone; why was not found); log-normal at 10^7 8.99 against 13.14 ms, uniform at 10^9 783 against 1234 ms (0.71x the loop; one thread's plain read 690 ms), geometric at 10^9 777 against 931; the half-ties and signed streams within noise of before, as predicted; every sum the loop's bits. (2) The AVX2 bit-mask pass (every chunk of the half-ties stream) rewritten as the scan is: `t` and `d` by fused multiply-adds, four accumulators for the sum of `r` and for the count of `d = -1/2` ties (one accumulator made each add wait on the one before), one `movemask` each for the base's low bit and the tie flag, and the bound on the chunk's own sum of `r` in place of a per-term bound on `y`. Measured first by `examples/fast_probe` on a 2-core Intel Xeon build machine, no prediction written before (`reports/fast-probe-ties-2core`, three runs of each binary): half-ties f64 terms at 10^6 a median 1.226 ns a term before and 1.042 after, at 4,096 terms 0.976 and 0.921, at 131,072 and 10^8 no change through the noise. Predicted from that, before this experiment's next run: the half-ties f64 rows 10 to 15% faster on one thread at 10^6, within noise from 10^7 on; every other row unchanged. That run (commit 783f11f, `reports/cpu-timing-2core`) was made on the 2-core Intel Xeon, not on the AMD EPYC of the run before it, so its rows are not a before and after: the half-ties f64 row at 10^6 took 1.038 ms on one thread (the probe's 1.04 ns a term; 1.195 ms on the EPYC before the change) and 1.44x this machine's loop, whose adds are faster than the EPYC's (0.72 against 1.13 ms for the loop at 10^6); every sum the loop's bits. (3) Signed units planned on threads: a block's plan formed units only for non-negative chunks from a positive guess, so on every signed stream the walk re-formed every chunk itself (the 2-core run at 783f11f: 976,563 of 976,563 chunks of N(1, 1) at 10^9), one thread's work after a parallel read; now a chunk with negative terms, or guessed below zero, is planned by its signed unit (increment and running bounds, for the guessed sign and binade), which the walk applies where the exact sum has that sign and binade and the bounds hold from its significand. Measured first by `examples/signed_probe` on this 2-core machine (10^7 f64 terms, 2 threads, medians of 5, before at e5c2290 and after) (that output not kept; `reports/signed-chunks-cpu` has (3) to (5) together, before at e5c2290 and after at d8eae6d, two runs each): N(1, 1) 6.30 to 5.06 ms, N(0, 1) 8.71 to 5.92, differences of close values 8.08 to 5.45, uniform with one in twenty negated 5.92 to 4.45, alternating signs 9.47 to 9.46 (its chunks tie, and a signed chunk with a tie goes term by term); every total the loop's bits. Predicted from that, before this experiment's next run (the 16-core H200 host): N(1, 1) f64 with all threads within 1.5x the plain parallel sum at 10^8 and 10^9 (the uniform stream's ratio there was 1.14 to 1.35x), where the walk alone would have made it about one thread's time; the re-formed column for N(1, 1) under 1% of the chunks; every one-thread row and every unsigned row as before within noise. (4) Signed chunks with ties: a chunk with negative terms and a tie went term by term; now its ties take their corrections from the start's parity by the bit-mask pass (as on the non-negative path: a tie of either sign leaves the significand even), and its running bounds widen by its number of ties (a tie's add differs from its `r` by at most one). Measured first by `examples/signed_probe` on this 2-core machine (10^7 f64 terms, medians of 5, before at 5e54ad5's sources and after, one thread) (that output not kept; `reports/signed-chunks-cpu` has (3) to (5) together, before at e5c2290 and after at d8eae6d, two runs each): N(1, 1) 6.83 to 4.89 ms (235 to 100 chunks term by term), N(0, 1) 8.66 to 7.19 (8,026 to 1,000), uniform with one in twenty negated 4.95 to 4.83 (172 to 100), alternating signs 8.94 to 9.06 (9,733 to 9,310: its chunks are refused for another reason, not found yet); every total the loop's bits. Predicted from both, before this experiment's next run (the 16-core H200 host, which has no N(1, 1) rows yet): N(1, 1) f64 on one thread about 0.6x the loop at 10^6 and 10^7 and about the uniform stream's ratio at 10^8 and 10^9 (one thread's read bounds it there), with all threads within 1.5x the plain parallel sum at 10^8 and 10^9; N(1, 1) chunks term by term under 0.5% on one thread. Measured (commit 079b511, the 16-core H200 host, to 10^8 terms: `reports/cpu-timing-gpu-host-1e8`; its full run with 10^9 was cut by the device call's limit at 36 of 40 rows and wrote nothing): N(1, 1) f64 on all threads 14.33 ms at 10^8, 1.73x the plain parallel sum (predicted within 1.5x: wrong), with 18 of 97,657 chunks re-formed in the walk (every chunk before (3)); 2.06x at 10^7; f32 2.26x at 10^8. On one thread N(1, 1) f64 took 1.12x the loop at 10^7 and 1.22x at 10^8 (predicted about 0.6x and the uniform stream's 0.97x: wrong), with 15 and 18 chunks term by term; the signed scan (four sums and two maxima a vector, in sub-blocks of 64) costs more a term than the unsigned one, which this run did not split from the ties' second pass. The unsigned rows: uniform f64 0.97x the loop on one thread at 10^8 (one thread's plain read 0.63x), 1.51x the plain parallel sum on 16 threads. (5) The signed scan as the unsigned one: `t` and `d` by fused multiply-adds (`y` not formed), two sets of accumulators (each add waited on the one before it), and no bound on `|y|` term by term: a chunk's `sum |r|` below 2^51 stands for it (a term off the rounding has `|r| >= 2^51`), and only a chunk whose `sum |r|` reaches 2^51 takes a second look from L1 for its largest `|y|` (named mutant: the scan bound at 2^53, killed by `inputs::signed_term_past_the_rounding`). Measured first by `examples/signed_probe` on this 2-core machine (10^7 f64 terms, medians of 9, two runs of each binary in turn, one thread, before at 079b511's sources) (that output not kept; `reports/signed-chunks-cpu` has (3) to (5) together, before at e5c2290 and after at d8eae6d, two runs each): N(1, 1) 4.88 and 6.08 to 3.88 and 3.95 ms, N(0, 1) 7.15 and 7.25 to 6.48 and 6.47, differences of close values 6.14 and 6.23 to 5.74 and 5.85, one in twenty negated 5.43 and 4.90 to 3.81 and 3.80; every total the loop's bits. Predicted from that, before this experiment's next run on the 16-core H200 host (to 10^8): N(1, 1) f64 on one thread from 13.18 to about 9 ms at 10^7 (1.12x to about 0.8x the loop) and from 128.3 to about 115 ms at 10^8 (one thread's read bounds it there: the plain read was 82 ms); on 16 threads from 14.33 to about 12 ms at 10^8 (1.73x to about 1.45x the plain parallel sum); the unsigned rows as before within noise. Measured (commit cc73556, the same host, `reports/cpu-timing-gpu-host-1e8`; 079b511's run kept in `reports/cpu-timing-gpu-host-history`): wrong, and not read as a loss either: N(1, 1) f64 on one thread 15.52 ms at 10^7 (1.18x the loop) and 150.1 ms at 10^8 (1.33x), against 13.18 and 128.3, in a run where one thread's plain read was slower too (4.58 against 3.21 ms at 10^7, 89.2 against 82.1 at 10^8) and the whole command 41.4 against 33.6 ms; on 16 threads 17.61 ms at 10^8 (1.68x the plain parallel sum, against 1.73x). So on this Xeon the rewrite showed no gain through the host's drift, where the 2-core EPYC showed 20% and more; and this host's 10^7 rows do not compare across calls: uniform f64 at 10^7, whose code did not change, took 4.34 ms on one thread in 079b511's run and 11.85 ms in this one (80 MB of terms, about the size of a large last-level cache, so whether they stay cached between the runs of a row likely decides; not checked), so the N(1, 1) rows at 10^7 say nothing about (5) there, and at 10^8 the drift of the plain read (+9%) is about the size of the change looked for. (6) Not taken: a chunk that no path took whole retried in pieces of 64 terms by the one-thread engine from the exact sum (commit 43735df, reverted by 762505f). Predicted before its measurement: fewer chunks term by term on every signed stream, and faster where only part of a chunk is refused. Measured by `examples/signed_probe` on this 2-core machine, first while the machine was loaded (its output not kept), then again with binaries built from clean checkouts of 43735df and d8eae6d, two runs each in turn (`reports/signed-chunks-cpu/not-kept`, 10^7 f64 terms, medians of 7, one thread): chunks term by term fell on every stream (N(1, 1) 100 to 1, N(0, 1) 1,000 to 712, close differences 2,994 to 1,580, alternating signs 9,310 to 4,669), but alternating signs took 11.85 and 11.96 ms against 8.90 and 8.99 (its pieces mostly fail after their scans) and close differences 6.03 and 6.07 against 5.60 and 5.65; N(1, 1) 3.75 and 3.75 against 4.94 and 3.77, N(0, 1) 6.50 and 7.13 against 6.46 and 6.47. (7) Not taken: the signed path without its bound on a chunk's mass `sum |r| < 2^53` (commit c267609; the running bounds alone keep every sum it forms exact, the argument in that commit's module doc; the bound is back in the next commit, which keeps that commit's proptest of large cancelling terms and its one fix: a signed chunk's ties take the signed scan's exact sum of `r`, not the bit-mask pass's own, whose whole-chunk lanes such terms carry past 2^53, a wrong sum the proptest finds). Predicted before its measurement: alternating signs, whose chunks the mass bound refuses (`scripts/alternating-mass-model.py`), mostly taken by the signed path and faster. Measured by `examples/signed_probe` on this 2-core machine, first on a loaded machine (its output not kept; it showed alternating signs 45% slower), then again with binaries built from clean checkouts of c267609 and d8eae6d, two runs each in turn (`reports/signed-chunks-cpu/not-kept`, 10^7 f64 terms, medians of 7, one thread): alternating signs 9,310 to 5,578 chunks term by term but 9.54 and 10.83 ms against 8.90 and 8.99 (a chunk near its binade's edges is refused after its scans, and the cooldown then rarely starts); close differences 2,994 to 2,274 chunks and 5.28 and 5.42 ms against 5.60 and 5.65 (faster); N(0, 1) 1,000 to 982 chunks, 6.41 and 6.45 against 6.46 and 6.47 ms. Not taken for the slower alternating stream, though the gain on close differences says the bound could be lifted where a chunk's mass is spread over its sub-blocks. (8) The bit-mask pass with AVX-512F where the CPU has it (`fast::scan::masks_avx512`: eight terms a step, each compare's bits in a mask register, the `d = -1/2` ties counted by one POPCNT a word; named mutant `Checks::down_flip` in every compiled path). Measured first by `examples/fast_probe` on this 2-core machine (an AMD EPYC with AVX-512F), the prediction written before (`reports/fast-probe-avx512-2core`): half ties on one thread at 10^6 0.890 to 0.477 ns a term (medians of three alternating runs), at 10^8 no change through the noise. Then by this experiment on half ties and uniform (`reports/cpu-timing-2core-ties`, d51a07b, against d0d0148's whole run): half-ties f64 on one thread 0.675 to 0.644 ms at 10^6, 5.53 to 4.64 at 10^7, 84.4 to 46.7 at 10^8, 720 to 708 at 10^9, with the uniform control moving by up to 73% between the runs; the whole run at d51a07b (`reports/cpu-timing-2core`) 0.418, 11.9, 45.5 and 501 ms, so on this machine the gain holds at 10^8 and the 10^7 row is an outlier of the run. (9) The chunk scan with AVX-512F where the CPU has it (`fast::scan::scan_avx512`: eight terms a step, 32 a loop turn, the same seven instructions as the AVX2 scan for twice the terms; the terms past the last whole turn through the AVX2 scan; `fast::limit_vector_path` lets a probe time both paths in one process). Predicted before its first measurement, on the H200 host's Xeon (AVX-512F; the 2-core build machine of this change has none, so nothing was measured before): by `examples/fast_probe`, uniform f64 on one thread 20 to 35% fewer ns a term with AVX-512 than with AVX2 at 10^6, within 10% at 10^8 (one thread's read rate bounds it there); in this experiment on that host (to 10^8, against 2368892's run in `reports/cpu-timing-gpu-host-1e8`), uniform, log-normal and geometric f64 on one thread at 10^6 and 10^7 from 0.52 to 0.58x the loop to 0.40 to 0.48x, and their all-thread rows at 10^6 and 10^7 10 to 25% faster; the half-ties and N(1, 1) rows (the bit-mask pass and the signed scan, unchanged) and every row at 10^8 within the host's drift; every sum the loop's bits. Measured (commit f58d5c9, the H200 host: `reports/fast-probe-avx512-h200-host`, `reports/cpu-timing-gpu-host-1e8`): by the probe, 34 and 39% fewer ns a term at 131,072 terms (in L2), but -11% and +10% at 10^6, where one thread's plain read alone (0.38 ns a term) is as slow as the AVX2 scan: wrong at 10^6, the gain is where the terms are in L2; at 10^8 within noise, as predicted. In this experiment the host ran slower than in 2368892's run (one thread's plain read of 10^8 f64 terms 87.2 against 62.2 ms, the loop 119.9 against 88.5), so the rows are not a before and after: uniform f64 on one thread 0.49x the loop at 10^6 (0.54x before), log-normal 0.41x (0.57x), geometric 0.70x (0.58x), and at 10^7 0.81x, 1.04x and 0.77x (0.52x, 0.56x, 0.56x): the 10^7 rows, 80 MB of terms, moved with the host as before; every sum the loop's bits. (10) Blocks sized by the terms (`fast::Shape::for_terms`): 32 chunks a block as before up to about 4 million terms on 16 threads, growing to 128 chunks (1 MiB of f64 terms) while every thread still gets eight blocks. Predicted before its first run in this experiment, from `examples/threads_probe` on the H200 host (10^8 uniform terms, 16 threads: blocks of 128 chunks 14.0 against 18.5 ms for f64, 8.4 against 9.4 for f32): on that host at 10^8 every distribution's all-thread time 10 to 25% below f58d5c9's run, and uniform, log-normal and half-ties f64 within 1.5x the plain parallel sum there; at 10^7 (76 chunks a block) 0 to 15% faster; at 10^6 (32 chunks) and every one-thread row unchanged within the host's drift; every sum the loop's bits. Measured (commit 9cb8fd3, the same host, the next device call: `reports/cpu-timing-gpu-host-1e8`, f58d5c9's run in `reports/cpu-timing-gpu-host-history`): not held. At 10^8 the all-thread times moved from -37% to +43% against f58d5c9's run (uniform f64 13.27 to 13.53 ms, f32 13.51 to 8.51; log-normal f64 14.83 to 18.04, f32 12.98 to 9.10; half ties f64 13.62 to 18.64, f32 9.08 to 10.27; geometric f64 15.47 to 11.48, f32 10.82 to 9.95; N(1, 1) f64 16.89 to 17.18, f32 11.63 to 16.61), and uniform, log-normal and half-ties f64 stood at 1.46x, 1.89x and 1.88x the plain parallel sum; the host's drift between calls is as large as the change looked for. In the same call `examples/threads_probe` again found blocks of 128 chunks faster than blocks of 32 in one process (21.4 against 31.2 ms for f64, 10.7 against 11.0 for f32), so the shape was kept; every sum the loop's bits. (11) The AVX2 bit-mask pass with its accumulators in registers (`fast::scan::masks_avx2`): the pass went over a word's sixteen vectors in one loop whose accumulators were picked by `q % 4`, which the compiler kept on the stack (a load and a store of two accumulators a vector, and shifts by a register); `perf` on a 2-core AMD EPYC build machine without AVX-512 put 67% of a half-ties sum's time in that pass and 12% in the ties' corrections. Now sixteen terms a group, four vectors with fixed accumulators (the compiled loop has no stack access), and the `d = -1/2` ties taken from a third `movemask` (the sign of `d` under the tie compare) and counted by POPCNT a word instead of a vector sum. Predicted before its first measurement, by `examples/fast_probe` on that machine (half ties, one thread: 0.674 ns a term at 10^6 and 0.678 at 10^8 before, 0.64x the loop): 0.45 to 0.52 ns a term at 10^6 and at 10^8 (0.42 to 0.49x the loop), the uniform rows unchanged (the scan); in this experiment on that machine, the half-ties f64 rows on one thread at or below 0.5x the loop from 10^6 to 10^9; on the H200 host (AVX-512F, whose pass `masks_avx512` already keeps its accumulators in registers) no change. Measured by `examples/fast_probe` on the EPYC (two runs, that output not kept): half ties 0.565 ns a term at 10^6 (0.54x the loop) and 0.558 to 0.565 at 10^8 (0.53x), 0.643 at 131,072; the uniform rows unchanged; the loop's bits. So -16%: wrong, a smaller gain, and still above 0.5x the loop. Then on a 2-core Intel Xeon build machine (family 6 model 167, AVX-512F, so the change shows on the probe's line limited to AVX2), binaries from 1c5f9c7 and 5c09bb9 run alternately three times each, the prediction written first (`reports/fast-probe-avx2-registers`): half ties by the AVX2 pass 0.708, 0.700, 0.699 to 0.582, 0.555, 0.552 ns a term at 131,072 (-21%), 0.785, 0.778, 0.788 to 0.653, 0.615, 0.639 at 10^6 (-18%), 2.09, 2.11, 2.23 to 1.74, 1.67, 1.70 at 10^8 (-19%); by the AVX-512 pass and on uniform terms unchanged. Not taken: the ties' corrections with the doubling steps of every word in one loop (to vectorise) before a sequential carry; on the EPYC 0.572 and 0.583 ns a term at 10^6, 0.595 and 0.590 at 10^8: no gain. (12) Every pass that reads terms from memory asks for their lines 1 KiB ahead (`fast::term::prefetch_ahead`: the AVX2 and AVX-512 scans, both bit-mask passes, the signed scan's sub-blocks, and the plain sum that plans blocks and is this experiment's one-thread read). On the 2-core Intel Xeon, `examples/fast_probe` put the one-thread engine at 10^8 uniform f64 terms at 1.25 ns a term against the loop's 1.25 and a plain eight-lane sum's 0.94, while the same scan with its terms in L2 took 0.18: a one-thread read of memory there is bound by how far ahead the hardware asks for lines, not by the memory. A throwaway build with prefetches in the AVX-512 scan alone, 256 bytes to 8 KiB ahead, two runs each (that output not kept): the scan on terms whose sum is high from the start 1.18 ns a term to 0.75, 0.69, 0.69, 0.84, 1.01 and 0.99 (256, 512, 1024, 2048, 4096, 8192 bytes), the engine on the uniform stream 1.25 to 0.92 at 1 KiB; in L2 no change. Predicted before the measurement of this change, by `examples/fast_probe` on that Xeon (binaries from 5c09bb9 and this change, alternately, three runs each): at 10^8 the engine on uniform terms 1.25 to 0.88 to 0.98 ns a term (0.70 to 0.78x the loop), on half ties (the AVX-512 bit-mask pass) 1.30 to 0.85 to 1.0, the plain one-thread sum 0.94 to 0.65 to 0.75; at 10^6 5 to 20% fewer ns a term; at 131,072 and 4,096 (in cache) within 5%; in `examples/threads_probe` (two threads, 10^8 terms) 10 to 30% faster; in this experiment on that machine the one-thread f64 rows at 10^8 and 10^9 20 to 30% faster for every distribution, the all-thread rows 10 to 30% faster, the plain read's column faster by about as much, so the ratio to it about the same. Not measured on the H200 host or the EPYC (no device was lent): predicted there 0 to 10% at 10^8, where their hardware prefetch already brought one thread's plain read to 0.63 to 0.73x the loop. Measured by the probes on the Xeon (`reports/fast-probe-prefetch-2core`): the engine on uniform terms at 10^8 1.240 to 0.925 ns a term (0.98 to 0.72x the loop), the scan alone 1.170 to 0.678, half ties 1.313 to 1.025 (one run of three no faster), at 10^6 -15% and -14%, in cache within 7%; the plain one-thread sum only 0.926 to 0.890 (wrong: predicted 0.65 to 0.75); two threads at blocks of 128 chunks -12% and -17%, at blocks of 8 and 32 within the runs' spread (predicted 10 to 30% at every shape: wrong there). A copy of the same terms reads faster than the vector filled term by term, by the loop and the engine alike (at 10^8 the loop 0.93 against 1.27 ns a term), so the probe's ratios are taken within one vector. In this experiment (`reports/cpu-timing-1e8-prefetch`: 10^8 terms, binaries from 5c09bb9 and fe7510d, which has (13) too, two runs each in turn on the Xeon): one-thread f64 rows uniform -23%, log-normal -23%, half ties -26%, geometric -20%, N(1, 1) -42% (predicted 20 to 30%: held, more on the signed stream), f32 -34% to -58%; all-thread rows -2% to -17% (predicted 10 to 30%: four of ten below); the plain read's column about -7% (predicted about as much as the engine: wrong); every sum the loop's bits. The full run at 0322364 on that machine is `reports/cpu-timing-2core-xeon`. (13) Both vector bit-mask passes kept the minimum of the terms in one accumulator, a chain of 16 (AVX2) or 8 (AVX-512) minima of 4 cycles each a word; now four accumulators, and in the AVX-512 pass the `d = -1/2` ties counted by a masked add into a vector of counts and each word's mask bytes stored as bytes (the compiler had turned the shifts and ORs into a vector insert and a horizontal OR a word). Predicted before the measurement, by `examples/fast_probe` on the Xeon (`reports/fast-probe-masks-2core`): half ties by the AVX2 pass 0.555 to 0.40 to 0.45 ns a term at 131,072 terms and 0.64 to 0.45 to 0.50 at 10^6, by the AVX-512 pass 0.495 to 0.45 to 0.48, at 10^8 no change. Measured: wrong in cache, no change by either pass (the chain did not bound a word); at 10^8 the AVX-512 pass 1.036 to 0.873 ns a term (-16%, not predicted), the AVX2 pass unchanged; the loop's bits in every run. (14) A second plain parallel sum beside rayon's `par_iter().sum()`: rayon over pieces of 65,536 terms, each by the eight-lane plain sum (`plain parallel sum, lanes`, and the engine's ratio to it). Each piece of `par_iter().sum()` is one chain of adds, so it is no read-rate bar where the terms are in cache, nor for f32 terms (widened one by one): on the Xeon at 0322364 it took 1,222 ms for 10^9 f32 terms on two threads, where the one-thread plain read took 360. Predicted before the first run with it, this experiment in full on that Xeon: the lane-wise sum within 10% of rayon's for f64 at 10^8 and 10^9 (both read-bound, about 61 and 500 ms) and about half of it or less at 10^6; for f32 25 to 35 ms at 10^8 and 250 to 350 ms at 10^9 (against 120 and 1,200), so the engine's all-thread ratio to it about 1.0 to 1.5 for f32 from 10^8 on, where to rayon's it was 0.21 to 0.61. Measured (a96661d, the Xeon, `reports/cpu-timing-2core-xeon` and its `NOTES.md`): f64 lane-wise 50.2 against 75.0 ms at 10^8 and 394 against 609 at 10^9 (uniform; wrong: rayon's sum is not read-bound on two threads either), 0.47 to 0.59 of rayon's at 10^6 (held); f32 23.9 to 29.2 ms at 10^8 (held) and 194 to 233 at 10^9 (faster than predicted); the engine's all-thread ratio to it 1.34 to 2.33 for f32 from 10^8 and 1.42 to 2.05 for f64 at 10^8 and 10^9 but one row (wrong: above the range), so against a plain parallel read the two-thread engine costs about 1.5 to 2x on that machine. (15) The threaded plan in one read of each block (`fast::Checks::one_read_plan`, on in `Checks::ALL`; the two-read plan kept as that switch off, a timing-only row of the kill matrix): a planner read its block from memory for the chunks' plain sums, published their aggregate, waited for every earlier block's aggregate, then formed the units from the block's second read in L2, so each thread paid one thread's read of memory plus a pass in L2 (on the Xeon at a96661d the two-thread engine took 639 ms for 10^9 uniform f64 terms against one thread's 721, where one thread's engine is at one thread's plain read, 716). Now it estimates the sum before its block without waiting (back to the walk's nearest exact sum, the planned blocks' aggregates, and for each block not planned yet the smaller in magnitude of the nearest planned block's aggregate and its own first chunk times its chunks), forms each chunk's unit for the guessed binade in its one read of the block (the one-thread engine's pass, a chunk's plain sum from L1 only where the guess cannot follow its unit) and publishes the guess's move over the block as its aggregate with its planned status; a chunk with a unit is marked as keeping an infinite sum without its plain sum (only finite terms form a unit; named mutant `keeps_need_unit` off, killed on threads by `inputs::infinity_then_its_opposite`). Predicted before the measurement, by `examples/threads_probe 100000000 5` on the Xeon, both plans in one process in turn, blocks of 128 chunks (`reports/threads-one-read-2core`): f64 uniform 61 to 67 ms with two reads, 48 to 56 with one (-15 to -25%), 1.0 to 1.15x the lane-wise plain parallel sum; f32 uniform about 37 to 28 to 33; the same for f32 from 2^25; at most 100 of 97,657 chunks re-formed; in this experiment the all-thread f64 rows at 10^8 and 10^9 15 to 25% faster than at a96661d, uniform, log-normal and geometric within 1.3x the lane-wise sum, half ties and N(1, 1) within 1.5x, one-thread rows unchanged. Measured by the probe (two runs): f64 uniform 48.6 and 50.4 ms against 65.7 and 69.6 with two reads (-26% and -28%, more than predicted), 1.08x the lane-wise sum (44.8 and 46.6) in both runs; f32 31.4 and 31.7 against 37.7 and 38.3 (held); f32 from 2^25 31.0 and 32.5 against 39.9 and 39.5 with 129 chunks re-formed (one block at the start, whose predecessor had not planned: the estimate cannot know the first term's 2^25) against 1; f64 24 and f32 23 re-formed against 17 and 16. The first form of the change measured the aggregate from the estimate before its rounding to the terms' format, and on f32 from 2^25 (a sum that sits on its binade's lowest value) those roundings' residues, added block after block, pushed the guesses below 2^25: 3,457 chunks re-formed (`probe-runs-first-form.txt`; the times about as above). On `tests/fast.rs`'s stream that crosses a binade every 2^16 terms (two blocks) the one-read plan re-formed 106 to 142 of 1,954 chunks over 18 runs on 2 and 3 threads (about four a crossing) against 38 with two reads, whichever estimate of a block in flight was tried (its nearest planned block's aggregate, its own first chunk's, their mean, the larger or the smaller: 89 to 186); the smaller was kept for the sum that starts with a large term. Measured in this experiment (commit 0a3f58f, the Xeon, full run: `reports/cpu-timing-2core-xeon`, a96661d's run in its `at-a96661d/`): the all-thread f64 rows at 10^8 and 10^9 14 to 33% faster (uniform 75.15 to 50.29 ms and 638.9 to 522.9, half ties 89.84 to 65.15 and 775.5 to 620.5, N(1, 1) 83.36 to 71.64 and 767.0 to 565.1; predicted 15 to 25%: held in six of ten rows), f32 4 to 32%; against the lane-wise sum uniform 1.21 and 1.34x, log-normal 0.64 and 1.28x, geometric 1.12 and 1.30x (predicted within 1.3x: wrong for uniform at 10^9), half ties 1.34 and 1.48x, N(1, 1) 1.55 and 1.42x (predicted within 1.5x: wrong for N(1, 1) at 10^8); f32 1.09 to 1.63x and N(1, 1) 1.62 and 2.11x. The one-thread rows at 10^9 for uniform, log-normal and geometric took 882 to 944 ms against 721 to 756 at a96661d, whose one-thread code is this one's; `examples/one_thread_read` (10^9 uniform f64, binaries of both commits alternately, two runs of five) put the engine at 757 to 826 ms at a96661d and 711 to 807 at 0a3f58f, each 1.01 to 1.06x the plain read of its run, so those rows moved with the machine; every sum the loop's bits. (16) Not taken: the signed scan's sub-blocks with AVX-512F (`fast::signed::sub_avx512`, the same ten operations for eight terms, two vectors a step; committed once and removed by the next commit; its paths test, `fast::signed::tests::signed_scan_paths_agree_with_the_portable_scan`, stays and checks the AVX2 path against the portable one). Predicted before the measurement (`reports/signed-avx512-2core`), by `examples/signed_probe` at 10^7 f64 terms on the Xeon: one thread 0 to 10% faster, two threads 10 to 25% faster; in this experiment N(1, 1) f64 on two threads 71.6 to 55 to 62 ms at 10^8, N(1, 1) f32 on one thread at 10^9 704 to 450 to 550 ms. Measured by the probe: N(1, 1) on one thread 10.82 and 10.79 ms with AVX2 against 11.42 and 12.04 with AVX-512, on two threads 5.31 and 5.41 against 4.93 and 4.31 (runs that move by as much as the change); by `examples/signed_scan_probe` (every chunk on the signed path, both paths in one process) 0.366 and 0.364 ns a term in L2 with AVX2 against 0.388 and 0.387 with AVX-512, and 1.12 and 1.01 against 1.12 and 1.00 from memory: wrong, 6% slower in L2 and no faster from memory on this CPU, where the three sums and the maximum of eight lanes every 64 terms cost about what the halved vector count saves; not measured on the H200 host (no device lent); this experiment was not run with it. (17) The signed scan's positive and negative parts from the sums of `r` and of `|r|` (`fast::signed::sub_avx2`: `pos = (S + A) / 2`, `neg = (S - A) / 2` once a sub-block, in place of a max and a min with their adds for every vector: eight vector operations for four terms, nine for f32; exact wherever the chunk's `sum |r|` is below 2^53, which the signed path requires, the argument in the function's documentation; checked against the portable pass by bits by the paths test). `perf` had put about 90% of a one-thread N(1, 1) f32 sum in that pass. Predicted before the measurement, by `examples/signed_scan_probe` on the Xeon, binaries of 58ed4a4 and this change alternately (`reports/signed-abs-parts-2core`): -10 to -18% in L2 for f64 and f32, f64 from memory within the runs' spread, f32 from memory -5 to -15%; in this experiment N(1, 1) f32 on one thread at 10^9 704 to 580 to 650 ms and on two threads 446 to 360 to 410, N(1, 1) f64 within the drift on one thread and 0 to 10% faster on two, the unsigned rows unchanged. Measured by the probe (two runs): f64 in L2 0.389 and 0.388 to 0.327 and 0.327 ns a term (-16%), f32 in L2 0.413 and 0.412 to 0.356 and 0.358 (-14%), f64 at 10^7 0.950 and 1.158 to 0.955 and 0.953, f32 at 10^7 0.556 and 0.519 to 0.471 and 0.404 (-15 to -22%: more than predicted); the loop's bits in every run. Beside it, a named mutant of the new pass, `fast::Checks::signed_neg_part` off (`|r|` summed with its sign, so the negative part is zero and the positive part the sum), killed on one thread and on threads by `inputs::excursion_above_binade`. (18) The one-read plan's first blocks wait: a planner that finds nothing known before its block (no exact sum, no planned block) waits for the block before it to plan, once, at the start of a sum. After (15) `tests/fast.rs`'s f32 sum that stops moving after a first term of 2^25 - 2^20 re-formed 33 of 2,930 chunks on the Xeon in every run (block 1, planned before block 0, cannot know the first term), above that test's 1%. No prediction was written before its one measurement (`reports/threads-one-read-2core/probe-runs-start-wait.txt`, `examples/threads_probe 100000000 5`): f32 from 2^25 at blocks of 128 chunks 1 chunk re-formed against 129, 29.64 ms against 30.97 and 32.54; f64 uniform 49.37 ms (1.15x the lane-wise sum), f32 uniform 29.43. Measured in this experiment with (17) and (18) both in (commit b7913a6, the Xeon, full run: `reports/cpu-timing-2core-xeon`, 0a3f58f's run in its `at-0a3f58f/`): N(1, 1) f32 on one thread at 10^9 704.0 to 447.6 ms (predicted 580 to 650: wrong, a larger gain, in a run whose one-thread plain read was 12% faster, 389.1 to 341.1), on two threads 445.7 to 318.7 (predicted 360 to 410: a larger gain); N(1, 1) f64 on two threads 71.64 to 56.33 ms at 10^8 and 565.1 to 433.8 at 10^9 (predicted 0 to 10%: wrong, -21% and -23%); the unsigned all-thread rows moved by -5% to -20% but one (geometric f64 at 10^8, 51.28 to 85.69 ms, an outlier: 49.26 in a run of the 10^8 rows alone right after, `check-1e8-b7913a6/`), the machine's drift, which (17) and (18) do not touch on unsigned terms beyond the first blocks; every sum the loop's bits. (19) Not taken: the one-read plan waiting near a binade's edge (commit 5110acc, returned to (18)'s plan by the next commit): where the blocks in flight, each as large as the larger of its two estimates, could carry the sum into another binade of the same sign (`fast::threads::may_cross`), a planner waits for the oldest of them and looks again. `tests/fast.rs`'s stream that crosses a binade every two blocks had failed its bound once in seven runs (272 chunks re-formed on 3 threads); a throwaway count of it, 30 runs each on the Xeon (not kept), gave 91 to 127 chunks on 2 threads, 38 to 159 on 3 and 91 to 499 on 4, and after the change 38 in every run on 2 and 3 threads, quiet or beside a busy process, and 38 to 192 on 4. No prediction was written before. `examples/threads_probe 100000000 5`, one run (`reports/threads-one-read-2core/probe-runs-edge-wait.txt`): f64 uniform 50.02 ms at blocks of 128 chunks (1.26x the lane-wise sum's 39.79 in that run), f32 27.85, f32 from 2^25 27.37; in this experiment's 10^8 rows, run once with it (`reports/threads-one-read-2core/edge-wait-1e8`) against the same rows at b7913a6 run just before, fewer chunks re-formed (geometric f64 527 to 107) but the geometric rows slower (f64 49.26 to 68.73 ms on two threads, 1.11 to 1.56x the lane-wise sum; f32 29.95 to 35.44) and half ties f32 31.16 to 37.86: the waits cost more than the re-formed chunks; `tests/fast.rs` bounds the one-read plan on the crossing stream at sixteen chunks a crossing instead (417 chunks were seen on 3 threads with two test binaries running at once). (20) The signed scan keeps f32 terms in f32 lanes (`fast::signed::signed_scan_f32_lanes`): where the scale `2^(23 - e)` is a normal f32, `fma(x, scale, 1.5 * 2^23) - 1.5 * 2^23` is `rint(x * scale)` for every `|x * scale| < 2^22`, and those `r` sum exactly in eight 32-bit integer lanes a vector (eleven vector operations for eight terms, against nine for four widened to f64); a chunk whose largest `|r|` reaches 2^22 (a large term, or a NaN or infinite one, which the conversion turns into -2^31) is scanned again by the f64 pass, so every kept chunk has the f64 pass's sums (the argument in the function's documentation; `fast::signed`'s paths tests compare it with the portable pass by bits, at the bound and across scales); named mutant `signed_lane_bound` off (the chunk kept whatever its largest `|r|`), killed on one thread and on threads by `inputs::signed_f32_terms_past_the_lanes`. Predicted before the measurement (`reports/signed-f32-lanes-2core`), on the Xeon, binaries of 15f2769 and the change alternately: by `examples/signed_scan_probe` f32 -25 to -40% in L2 and -10 to -25% from memory, f64 unchanged; N(1, 1) f32 at 10^8 on two threads within 1.2 to 1.45x the lane-wise sum and on one thread 38 to 44 ms. A first form, which reduced the lanes to scalars once a 64-term sub-block, measured no faster (0.356 to 0.362 ns a term in L2); the form kept reduces the bound and the tie flag once a chunk. Measured (two runs each): f32 in L2 0.357 and 0.356 to 0.239 and 0.239 ns a term (-33%), at 10^7 0.450 and 0.422 to 0.243 and 0.276 (-35 to -42%), f64 unchanged; by `examples/signed_threads_probe 100000000 7`, N(1, 1) f32 on one thread 42.55 and 41.14 to 32.51 and 33.89 ms (0.39 to 0.29x the loop), on two threads 29.95 and 29.46 to 27.09 and 28.03 (1.88 and 1.91x to 1.78 and 1.65x the lane-wise sum: the prediction wrong, the two-thread pass waits on its loads, 39% of its samples by `perf` on a throwaway program, output not kept); every total the loop's bits. In this experiment's 10^8 rows (commit 55cb988, the Xeon, `reports/cpu-timing-2core-xeon/check-1e8-55cb988`, against `check-1e8-b7913a6`): N(1, 1) f32 on one thread 57.57 to 40.55 ms (0.54 to 0.36x the loop), on two threads 35.53 to 25.79 ms (1.60 to 1.38x the lane-wise sum: the prediction held at 10^8; 10^9 not run); the other rows within the machine's drift; every sum the loop's bits. (21) The one-read plan's estimate of the blocks in flight interpolated (`fast::threads::gap_estimate`): each run of blocks not yet planned is estimated between the planned blocks on either side of it (a geometric progression where both have one sign, else a straight line; the block's own first chunk times its chunks above the top run), where each such block counted as the smaller of its nearest planned block's aggregate and its own estimate. A trace in a throwaway program (not kept) put that estimate 55% above the loop's sum (median over the blocks) on the geometric stream with 16 threads on this 2-core Xeon: the nearest planned block is often one after the run in flight, whose larger aggregate stood for all of them. Predicted before the measurement (`reports/threads-estimate`), by `examples/threads_probe 100000000 5 THREADS`, binaries of 5cd5602 and the change in turn: geometric f64 at blocks of 128 chunks, one read, on 2 threads 100 to 250 chunks re-formed (about 500 before) with the time within 5%, on 16 threads under 3% of the chunks re-formed (30 to 50% before) and the time -20 to -35%; the uniform streams unchanged. Measured (two runs each, `reports/threads-estimate/probe-2core.txt`): on 16 threads 47,590 and 48,848 chunks re-formed before, 2,243 and 1,971 after (2.0 to 2.3%), 74.92 and 79.13 ms before, 53.35 and 54.12 after (-29 to -32%); on 2 threads 538 and 534 before, 531 and 538 after (wrong: unchanged; with one block in flight there is one block to estimate, and its error was not what re-formed them), times within 2%; uniform f64 on 16 threads 49 to 20 and 21 chunks, f32 681 and 1,176 to 31 and 27, times within the runs' spread; two reads unchanged; every sum the loop's bits. On a 16-core NVIDIA H100 host (`reports/threads-estimate/probe-h100-host.txt`, one run of each binary): geometric f64 on 16 threads 15,049 chunks re-formed before and 8,052 after (predicted under 1,000: wrong), 21.35 to 12.63 ms, 1.67x the lane-wise sum (predicted within 1.5x: wrong; the two-read plan took 10.06 and 10.64 ms there); in this experiment's reduced run on such a host (commit bac133d, `reports/cpu-timing-h100-host-1e8/reduced-bac133d`) 6,349 chunks re-formed at 10^8 and 1.44x rayon's sum. Not taken: the block's own estimate as the mean of its first and last chunks (3,002 and 1,076 chunks re-formed on 16 and 2 threads of the Xeon, against about 2,100 and 535). (22) A run of blocks in flight that starts at the walk's last block takes that block's own aggregate (stored before its planned status) as its side below, where it had none and counted as its length times the block's own estimate, too large on a growing stream (a throwaway trace on 2 threads put the estimated start 0.38% of the prefix off, median over the blocks; at this stream's growth a prefix holds about 11 blocks' worth, so about 4% of a block; that the run then sat on the walk's last block was read from the code, and the count's fall below is what supports it). No prediction was written before its one measurement (`reports/threads-estimate/probe-2core-base-block.txt`, the Xeon, 10^8 geometric f64 terms, one run of each binary in turn): 3,953 to 1,525 chunks re-formed on 16 threads, 537 to 335 on 2, times within the runs' spread; not measured on the 16-core host. (23) The sum's first block no side of a run of blocks in flight (`fast::threads::estimated_blocks`): its aggregate holds the sum's first terms, which may be its largest, and a run interpolated from it took a level for a rate. Found by `tests/fast.rs`'s f32 sum of 2^25 - 2^20 and then terms the loop rounds away, which failed its bound of 1% re-formed chunks in 8 of 30 runs alone on the 2-core Xeon (33 of 2,930 each time: a block planned a binade up, half of block 0's aggregate counted for the block in flight before it) and once in a fresh-clone CI run; after the change 0 of 40 runs failed. No prediction was written; not timed (only the look-backs of blocks right after a sum's first block change). (24) The AVX2 bit-mask pass takes the base's low bit from one `movemask` (`fast::scan::masks_avx2`): at a tie `r` is even, so `t`'s low bit is 0 there, and the base bit, `t`'s low bit XOR the `d = -1/2` tie, is one vector XOR of two sign bits; the `d = -1/2` ties are the base bits under the tie bits (one POPCNT a word), and the sums of `r` and the minima take two accumulators each instead of four. `perf` had put 64% of a one-thread half-ties sum in that pass on the 2-core AMD EPYC (AVX2, no AVX-512F), its hottest instructions the `movemask`s. Predicted before the measurement (`reports/masks-avx2-2core`): half ties on one thread 15 to 25% faster in cache and at 10^6 by `examples/fast_probe`. Measured there, binaries of 9158fbd and of the change in turn, eight runs each: -12% at 4,096 terms and -9% at 10^6 by the medians, no change through the noise at 131,072 and 10^8 terms (wrong: less than predicted); this experiment's half-ties rows (`cpu-timing-ties`, run before and after on that machine) could not resolve it, its unchanged uniform rows moving by up to 75% between the runs; every sum the loop's bits. (25) The tie corrections by PEXT (`fast::scan::tie_corrections_pext`, where the CPU has BMI2 and its PEXT is not microcode, `fast::has_fast_pext`): with `P` the XOR of the bases from the chunk's start, a later tie's correction is `P` at it XOR `P` at the tie before it, so their sum is the number of changes of `P` along the ties, which PEXT gathers a word at a time; about 25 operations a word against about 40 for the segmented doubling. `perf` had put 12 to 14% of a one-thread half-ties sum in the old form on the 2-core AMD EPYC. Predicted before the measurement (`reports/masks-avx2-2core`, section (2)): 4 to 8% fewer ns a term in cache and at 10^6 by `examples/fast_probe`. Measured there, six pinned runs of each binary in turn: -5% at 4,096 terms and -3% at 131,072 by the medians (1 to 5% by the least times); the -22% at 10^6 and -8% at 10^8 larger than the change can explain (the machine's spread); named mutant `pext_carry` off, killed on one thread and on threads where the CPU takes the path; this experiment not run with it.";

/// Runs the experiment (see the module doc).
pub fn run(ctx: &Context) -> Result<Outcome> {
    let sizes: Vec<usize> = ctx.non_empty("sizes", ctx.get("sizes")?)?;
    let set = Setup {
        reps: ctx.get_or("reps", 5)?,
        pipeline_max: ctx.get_or("pipeline_max", 10_000_000)?,
        peer_max: ctx.get_or("peer_max", 100_000_000)?,
        python: std::env::var("BINADE_PYTHON")
            .unwrap_or(ctx.get_or("python", "python3".to_string())?),
        script: ctx.peers_dir().join("numpy_sum.py"),
    };
    let dists = distributions(ctx)?;
    let mut versions = None;
    let threads = rayon::current_num_threads();
    let bar = ctx.progress((2 * sizes.len() * dists.len()) as u64, "cpu-timing");
    let mut rows = Vec::new();
    for &dist in &dists {
        for &n in &sizes {
            rows.push(measure::<f64>(&set, dist, n, ctx.seed, &mut versions));
            bar.inc(1);
            rows.push(measure::<f32>(&set, dist, n, ctx.seed, &mut versions));
            bar.inc(1);
        }
    }
    bar.finish_and_clear();
    let failures = rows
        .iter()
        .filter(|r| !r.fast_exact || !r.par_exact || r.cumsum.exact_differs.is_some())
        .count() as u64;
    let mut rep = report(ctx, threads, set.reps, &rows);
    rep.text(format!(
        "Peers from `experiments/peers/numpy_sum.py` ({}), on the same terms written to a .npy file, timed inside Python: `np.cumsum(x)[-1]` is numpy's sequential loop (it starts from the first term, the same bits as the loop from +0 except for the sign of a zero result; for f32 it adds in f32), `np.sum(x)` is pairwise, `math.fsum(x)` is correctly rounded (up to 10^7 terms; for f32 rounded to f32). \"= loop\" says whether its bits equal the loop's.",
        versions.unwrap_or_else(|| "not run".into())
    ));
    rep.table(peer_table(&rows));
    rep.text(format!("Prefix sums (`binade::cumsum`, numpy's start: the first output is the first term) on the same terms: the loop `out[0] = x[0]; s = x[0]; for i >= 1 {{ s += x[i]; out[i] = s }}` (`loop_cumsum_into`), the exact engine (`ordered_cumsum_into`: the exact running sum before every block of {} terms from the fast engine's walk, then each block's native loop on rayon's threads) on all threads and in a pool of one thread (where it is the loop: one thread has nothing to overlap), and numpy's `np.cumsum(x)` timed inside Python by the same peer script (its output saved and read back). Our output buffers are made once per row, so our times do not include first-touch page faults; `np.cumsum(x)` allocates its output on every call, so its time does (as a numpy user's call does). GB/s counts the terms read and the outputs written (twice the term size for each term). \"= loop\" compares the whole output with the loop's by bits and names the first differing index.", crate::fast::Shape::DEFAULT.chunk * crate::fast::Shape::DEFAULT.block_chunks));
    rep.table(cumsum_table(&rows));
    // `command_terms = 0` leaves the whole command out (a run of some rows only).
    let command_terms: usize = ctx.get_or("command_terms", 100_000_000)?;
    let mut bad = 0;
    if command_terms > 0 {
        let (text, table, command_bad) = command_table(command_terms, set.reps, ctx.seed)?;
        rep.text(text);
        rep.table(table);
        bad = command_bad;
    }
    rep.text(HISTORY.to_string());
    Ok(Outcome {
        report: rep,
        failures: failures + bad,
    })
}

/// The distributions named by the experiment file's `distributions` list (their keys,
/// [`Dist::key`]), in the file's order; every one where the list is absent.
fn distributions(ctx: &Context) -> Result<Vec<Dist>> {
    let all: Vec<String> = Dist::ALL.iter().map(|d| d.key().to_string()).collect();
    let keys: Vec<String> = ctx.non_empty("distributions", ctx.get_or("distributions", all)?)?;
    keys.iter()
        .map(|k| {
            Dist::ALL.into_iter().find(|d| d.key() == k).ok_or_else(|| {
                let known: Vec<&str> = Dist::ALL.iter().map(|d| d.key()).collect();
                let why = format!("unknown distribution {k:?} (known: {})", known.join(", "));
                super::ConfigError::new(&ctx.file, "distributions", why).into()
            })
        })
        .collect()
}

/// Median milliseconds of `reps` reads of `path` from the page cache into a 1 MiB buffer, on
/// one thread: what reading the file costs a plain program.
fn read_ms(path: &Path, reps: usize) -> Result<f64> {
    use std::io::Read;
    let mut buf = vec![0u8; 1 << 20];
    let mut one = || -> Result<f64> {
        let t0 = Instant::now();
        let mut f = std::fs::File::open(path)?;
        while f.read(&mut buf)? > 0 {}
        Ok(t0.elapsed().as_secs_f64() * 1e3)
    };
    one()?; // warm the page cache
    let t: Vec<f64> = (0..reps.max(1)).map(|_| one()).collect::<Result<_>>()?;
    Ok(median(&t))
}

/// `binade sum` as a whole command (this binary, a new process each run) on one file of
/// `n` uniform f64 terms, against the time to read that file: the table, the text before it,
/// and the number of failed checks (an engine whose bits differ from the loop's).
fn command_table(n: usize, reps: usize, seed: u64) -> Result<(String, Table, u64)> {
    let terms: Vec<f64> = Dist::Uniform.generate(n, seed);
    let want = loop_sum::<crate::format::F64>(&terms).to_bits();
    let file = std::env::temp_dir().join(format!("binade-sum-{}.npy", std::process::id()));
    npyz::to_file_1d(&file, terms.iter().copied()).context("writing the command's .npy input")?;
    drop(terms);
    let exe = std::env::current_exe().context("finding this binary")?;
    let result = (|| -> Result<(String, Table, u64)> {
        let read = read_ms(&file, reps)?;
        let mut t = Table::new(
            "sum_command",
            &format!(
                "`binade sum` on a file of {} f64 terms, whole command",
                thousands(n as u64)
            ),
            &[
                "engine",
                "whole command ms",
                "whole command / read",
                "read phase ms",
                "sum phase ms",
                "peak heap bytes",
                "mapped",
                "= loop",
            ],
        );
        let mut bad = 0;
        for engine in ["fast", "loop"] {
            let run = || -> Result<(f64, serde_json::Value)> {
                let t0 = Instant::now();
                let out = Command::new(&exe)
                    .args(["sum", "--engine", engine, "--format", "json"])
                    .arg(&file)
                    .output()
                    .context("running binade sum")?;
                let ms = t0.elapsed().as_secs_f64() * 1e3;
                let line = String::from_utf8_lossy(&out.stdout).trim().to_string();
                Ok((
                    ms,
                    serde_json::from_str(&line).context("reading binade sum's JSON")?,
                ))
            };
            run()?;
            let runs: Vec<(f64, serde_json::Value)> =
                (0..reps.max(1)).map(|_| run()).collect::<Result<_>>()?;
            let wall: Vec<f64> = runs.iter().map(|r| r.0).collect();
            let j = &runs[runs.len() - 1].1;
            let bits = j["bits"]
                .as_str()
                .and_then(|b| u64::from_str_radix(b.trim_start_matches("0x"), 16).ok());
            let equal = bits == Some(want);
            bad += u64::from(!equal);
            let phase = |p: &str| j["phases_ms"][p].as_f64().unwrap_or(f64::NAN);
            t.row(vec![
                engine.into(),
                ms(median(&wall)),
                ratio(median(&wall), read),
                ms(phase("read")),
                ms(phase("sum")),
                j["peak_heap_bytes"]
                    .as_u64()
                    .map_or("-".into(), |b| b.to_string()),
                j["mapped"].to_string(),
                equal.to_string(),
            ]);
        }
        let text = format!(
            "The whole command: this binary run as `binade sum --engine E --format json FILE` in a new process, wall clock from start to exit, median of {reps} runs after one, the file in the page cache. Reading the file is a plain program's cost: one thread reading it from the page cache into a 1 MiB buffer, median {} ms ({} GB/s). The command maps the file and sums it in place, so its heap is the engine's per-chunk records, not the terms; the sum phase includes faulting the mapped pages in.",
            ms(read),
            format_args!("{:.2}", n as f64 * 8.0 / (read * 1e-3) / 1e9),
        );
        Ok((text, t, bad))
    })();
    let _ = std::fs::remove_file(&file);
    result
}

/// The peers beside the loop and the fast engine.
fn peer_table(rows: &[Row]) -> Table {
    let mut t = Table::new(
        "peers",
        "numpy and Python on the same terms (median ms; = loop: the loop's bits)",
        &[
            "distribution",
            "dtype",
            "terms",
            "loop",
            "fast, all threads",
            "peer",
            "peer ms",
            "peer / loop",
            "= loop",
        ],
    );
    for r in rows {
        match &r.peers {
            Ok(peers) => {
                for (name, p_ms, equal) in peers {
                    t.row(vec![
                        r.dist.name().into(),
                        r.dtype.into(),
                        thousands(r.n as u64),
                        ms(r.ms[0]),
                        ms(r.ms[2]),
                        name.clone(),
                        ms(*p_ms),
                        ratio(*p_ms, r.ms[0]),
                        equal.to_string(),
                    ]);
                }
            }
            Err(why) => t.row(vec![
                r.dist.name().into(),
                r.dtype.into(),
                thousands(r.n as u64),
                ms(r.ms[0]),
                ms(r.ms[2]),
                why.clone(),
                "-".into(),
                "-".into(),
                "-".into(),
            ]),
        }
    }
    t
}

/// The prefix sums beside the loop and numpy.
fn cumsum_table(rows: &[Row]) -> Table {
    let mut t = Table::new(
        "cumsum",
        "Prefix sums: the loop, the exact engine and np.cumsum (median ms; = loop: every position's bits)",
        &[
            "distribution",
            "dtype",
            "terms",
            "loop cumsum",
            "exact, 1 thread",
            "exact, all threads",
            "exact all threads / loop",
            "exact all threads, GB/s",
            "np.cumsum",
            "np.cumsum / exact all threads",
            "exact = loop",
            "np.cumsum = loop",
        ],
    );
    let equal = |d: Option<usize>| match d {
        None => "true".to_string(),
        Some(i) => format!("false (index {i})"),
    };
    for r in rows {
        let c = &r.cumsum;
        let bytes = if r.dtype == "f64" { 16.0 } else { 8.0 };
        let gbs = r.n as f64 * bytes / (c.all_ms * 1e-3) / 1e9;
        let numpy_ms = c.numpy_ms.unwrap_or(f64::NAN);
        t.row(vec![
            r.dist.name().into(),
            r.dtype.into(),
            thousands(r.n as u64),
            ms(c.loop_ms),
            ms(c.one_ms),
            ms(c.all_ms),
            ratio(c.all_ms, c.loop_ms),
            format!("{gbs:.2}"),
            if c.numpy_ms.is_some() {
                ms(numpy_ms)
            } else {
                "-".into()
            },
            if c.numpy_ms.is_some() {
                ratio(numpy_ms, c.all_ms)
            } else {
                "-".into()
            },
            equal(c.exact_differs),
            match &c.numpy_differs {
                Ok(d) => equal(*d),
                Err(why) => why.clone(),
            },
        ]);
    }
    t
}

fn ms(x: f64) -> String {
    crate::report::ms_cell(x, 3)
}

fn report(ctx: &Context, threads: usize, reps: usize, rows: &[Row]) -> Report {
    let mut r = Report::new(
        &ctx.name,
        "The loop's bits on the CPU: the fast engine against the loop",
    );
    // The uniform stream's largest f64 row, or (a run of other distributions only) the first
    // measured distribution's.
    let lead = rows
        .iter()
        .find(|r| r.dist == Dist::Uniform)
        .or(rows.first())
        .map(|r| r.dist);
    let big = rows
        .iter()
        .filter(|r| Some(r.dist) == lead && r.dtype == "f64")
        .max_by_key(|r| r.n);
    r.headline(match big {
        Some(b) => format!(
            "{} f64, {} terms: the fast engine on 1 thread {} ms ({}x the loop's {} ms; one thread's plain read {} ms), on {} threads {} ms ({}x a plain parallel sum); every sum, f64 and f32, has the loop's bits: {}",
            if b.dist == Dist::Uniform {
                "Uniform"
            } else {
                b.dist.name()
            },
            thousands(b.n as u64),
            ms(b.ms[1]),
            ratio(b.ms[1], b.ms[0]),
            ms(b.ms[0]),
            ms(b.ms[4]),
            threads,
            ms(b.ms[2]),
            ratio(b.ms[2], b.ms[3]),
            rows.iter().all(|r| r.fast_exact && r.par_exact)
        ),
        None => "no sizes measured".into(),
    });
    let blocks = format!(
        "{} to {} chunks (`fast::Shape::for_terms`: the most up to {} that still gives every thread eight blocks)",
        crate::fast::Shape::MIN_BLOCK_CHUNKS,
        crate::fast::Shape::MAX_BLOCK_CHUNKS,
        crate::fast::Shape::MAX_BLOCK_CHUNKS
    );
    r.text(format!(
        "Vector path of the chunk scan on this CPU: {}. Terms are made on the host by a counter hash (the distributions of gpu-timing, and N(1, 1) for signed terms; f32 terms are the f64 terms rounded to f32, summed in f32). Medians of {reps} runs after one untimed run, wall clock, this process; {threads} threads in rayon's pool (`RAYON_NUM_THREADS` sets it). The loop is `s = 0.0; for x in terms {{ s += x }}` in the terms' type (`walk::loop_sum`). The fast engine (`binade::fast`) forms each chunk's unit of {} terms for a binade `e` as the f64 sum of `rint(x * 2^(P-e))`, plus one parity bit where a term ties (a bit-mask pass: after the scan, from L1, or at once after a chunk that had a tie), takes a chunk with negative terms (or from a negative sum) by the signed path where the bounds of its running offsets (widened by its number of ties, each tie's correction from the start's parity) keep it in the binade (`binade::fast`'s signed module), and adds a chunk term by term where a term is not finite or the sum leaves the binade. On one thread the binade is the exact running sum's. On threads (one thread in the pool: the one-thread engine), blocks of {} are taken in order from a ticket: each block's thread estimates the sum before it without waiting (back to the nearest block whose walk has published its exact end, adding the planned blocks' aggregates and an estimate for each block still in flight), guesses each chunk's binade from that estimate and the units before it, and forms its units in its one read of the block from memory (for a chunk with negative terms, or guessed below zero, the signed unit for the guessed sign and binade: `fast::Checks::one_read_plan`, HISTORY (15)); a walk, taken by whichever thread finds the next block planned, passes the exact sum from block to block, applying a unit where the exact sum is in the guessed binade and re-forming the chunk's unit for the walked binade elsewhere; the re-formed column counts those chunks. The plain parallel sum is rayon's `par_iter().sum()` and the plain one-thread sum eight f64 accumulators: neither has the loop's bits (the last column says whether the parallel one happened to be equal); the one-thread sum is what reading the terms costs one thread, the floor of any one-thread engine. Each piece of rayon's `par_iter().sum()` is one chain of adds, so where the terms are in cache (and for f32 terms, widened one by one) it is slower than a read; the lane-wise plain parallel sum (pieces of 65,536 terms, each by the eight-lane one-thread sum) is the stricter bar, beside it. The host pipeline is the model of the device kernels (`walk::pipeline`), the exact engine before this one, timed up to 10^7 terms: it exists to mirror the device, not to be fast.",
        crate::fast::vector_path(),
        crate::fast::CHUNK,
        blocks,
    ));
    let mut t = Table::new(
        "cpu_timing",
        "Median ms per sum, and ratios",
        &[
            "distribution",
            "dtype",
            "terms",
            "loop",
            "fast, 1 thread",
            "fast 1 thread / loop",
            "plain sum, 1 thread",
            "fast, all threads",
            "plain parallel sum",
            "fast all threads / plain parallel",
            "plain parallel sum, lanes",
            "fast all threads / plain parallel lanes",
            "fast all threads, GB/s",
            "chunks term by term (threads)",
            "chunks re-formed in the walk (threads)",
            "host pipeline (before)",
            "fast = loop",
            "plain parallel = loop",
        ],
    );
    for row in rows {
        let bytes = if row.dtype == "f64" { 8.0 } else { 4.0 };
        let gbs = row.n as f64 * bytes / (row.ms[2] * 1e-3) / 1e9;
        t.row(vec![
            row.dist.name().into(),
            row.dtype.into(),
            thousands(row.n as u64),
            ms(row.ms[0]),
            ms(row.ms[1]),
            ratio(row.ms[1], row.ms[0]),
            ms(row.ms[4]),
            ms(row.ms[2]),
            ms(row.ms[3]),
            ratio(row.ms[2], row.ms[3]),
            ms(row.ms[6]),
            ratio(row.ms[2], row.ms[6]),
            format!("{gbs:.2}"),
            format!("{} of {}", row.native.0, row.native.2),
            format!("{} of {}", row.native.1, row.native.2),
            ms(row.ms[5]),
            (row.fast_exact && row.par_exact).to_string(),
            row.plain_equal.to_string(),
        ]);
    }
    r.table(t);
    r
}
