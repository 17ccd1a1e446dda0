//! `cpu-timing`: the fast CPU engine ([`crate::fast`]) against the loop it reproduces, on one
//! thread and on all of them, beside a plain parallel sum (rayon, not the loop's bits) and the
//! host pipeline that mirrors the device; four distributions, f64, sizes up to 1e9.

use std::path::Path;
use std::process::Command;
use std::time::Instant;

use anyhow::{anyhow, Context as _, Result};
use rayon::prelude::*;
use serde::Deserialize;

use super::{Context, Outcome};
use crate::fast::{ordered_sum_fast, ordered_sum_par};
use crate::format::{same_result, F64};
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
}

impl Dist {
    const ALL: [Dist; 4] = [
        Dist::Uniform,
        Dist::LogNormal3,
        Dist::SsimTies,
        Dist::Geometric,
    ];

    fn name(self) -> &'static str {
        match self {
            Dist::Uniform => "uniform [0, 1)",
            Dist::LogNormal3 => "log-normal, sigma 3",
            Dist::SsimTies => "1 - q, half the terms ties",
            Dist::Geometric => "geometric, a binade per 2^20 terms",
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
        }
    }

    fn generate(self, n: usize, seed: u64) -> Vec<f64> {
        (0..n as u64)
            .into_par_iter()
            .map(|i| self.term(seed, i))
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
fn time(reps: usize, f: impl Fn() -> f64) -> (f64, f64) {
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
}

/// numpy's and Python's sums of `terms` (written to a temporary .npy file), timed by the peer
/// script with `python`.
fn run_peers(python: &str, script: &Path, terms: &[f64], reps: usize) -> Result<PeerOut> {
    let file = std::env::temp_dir().join(format!("binade-cpu-timing-{}.npy", std::process::id()));
    let written = npyz::to_file_1d(&file, terms.iter().copied());
    let out = written
        .context("writing the peer's .npy input")
        .and_then(|()| {
            Command::new(python)
                .arg(script)
                .arg("--file")
                .arg(&file)
                .args(["--reps", &reps.to_string()])
                .output()
                .with_context(|| format!("running {python} {}", script.display()))
        });
    let _ = std::fs::remove_file(&file);
    let out = out?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        let last = err.lines().last().unwrap_or("no message").to_string();
        return Err(anyhow!(
            "{} exited with {}: {last}",
            script.display(),
            out.status
        ));
    }
    serde_json::from_str(String::from_utf8_lossy(&out.stdout).trim())
        .with_context(|| format!("reading the output of {}", script.display()))
}

struct Row {
    dist: Dist,
    n: usize,
    /// numpy/Python peers: (name, ms, equal to the loop), or why they were not run.
    peers: Result<Vec<(String, f64, bool)>, String>,
    /// loop, fast 1 thread, fast all threads, plain parallel sum, host pipeline (NaN: not run).
    ms: [f64; 5],
    fast_exact: bool,
    par_exact: bool,
    plain_equal: bool,
}

/// Runs the experiment (see the module doc).
pub fn run(ctx: &Context) -> Result<Outcome> {
    let sizes: Vec<usize> = ctx.get("sizes")?;
    let reps: usize = ctx.get_or("reps", 5)?;
    let pipeline_max: usize = ctx.get_or("pipeline_max", 10_000_000)?;
    let peer_max: usize = ctx.get_or("peer_max", 100_000_000)?;
    let python =
        std::env::var("BINADE_PYTHON").unwrap_or(ctx.get_or("python", "python3".to_string())?);
    let script = ctx
        .file
        .parent()
        .unwrap_or(Path::new("."))
        .join("peers")
        .join("numpy_sum.py");
    let mut versions = None;
    let threads = rayon::current_num_threads();
    let bar = ctx.progress((sizes.len() * Dist::ALL.len()) as u64, "cpu-timing");
    let mut rows = Vec::new();
    for dist in Dist::ALL {
        for &n in &sizes {
            let terms = dist.generate(n, ctx.seed);
            let (loop_ms, want) = time(reps, || loop_sum::<F64>(&terms));
            let (fast_ms, fast) = time(reps, || ordered_sum_fast(&terms));
            let (par_ms, par) = time(reps, || ordered_sum_par(&terms));
            let (plain_ms, plain) = time(reps, || terms.par_iter().sum::<f64>());
            let walk_ms = if n <= pipeline_max {
                time(reps, || {
                    pipeline::<F64, crate::algebra::Exact>(
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
            let same = |x: f64| same_result::<F64>(x.to_bits(), want.to_bits());
            let peers = if n > peer_max {
                Err(format!(
                    "not run above {} terms",
                    thousands(peer_max as u64)
                ))
            } else {
                match run_peers(&python, &script, &terms, reps) {
                    Ok(p) => {
                        versions = Some(format!("numpy {} on Python {}", p.numpy, p.python));
                        Ok(p.peers
                            .into_iter()
                            .map(|r| {
                                let b = r.bits.parse::<u64>().unwrap_or(!want.to_bits());
                                (r.name, r.median_ms, same(f64::from_bits(b)))
                            })
                            .collect())
                    }
                    Err(e) => Err(format!("not run: {e:#}")),
                }
            };
            rows.push(Row {
                dist,
                n,
                peers,
                ms: [loop_ms, fast_ms, par_ms, plain_ms, walk_ms],
                fast_exact: same(fast),
                par_exact: same(par),
                plain_equal: same(plain),
            });
            bar.inc(1);
        }
    }
    bar.finish_and_clear();
    let failures = rows
        .iter()
        .filter(|r| !r.fast_exact || !r.par_exact)
        .count() as u64;
    let mut rep = report(ctx, threads, reps, &rows);
    rep.text(format!(
        "Peers from `experiments/peers/numpy_sum.py` ({}), on the same terms written to a .npy file, timed inside Python: `np.cumsum(x)[-1]` is numpy's sequential loop (it starts from the first term, the same bits as the loop from +0 except for the sign of a zero result), `np.sum(x)` is pairwise, `math.fsum(x)` is correctly rounded (up to 10^7 terms). \"= loop\" says whether its bits equal the loop's.",
        versions.unwrap_or_else(|| "not run".into())
    ));
    rep.table(peer_table(&rows));
    Ok(Outcome {
        report: rep,
        failures,
    })
}

/// The peers beside the loop and the fast engine.
fn peer_table(rows: &[Row]) -> Table {
    let mut t = Table::new(
        "peers",
        "numpy and Python on the same terms (median ms; = loop: the loop's bits)",
        &[
            "distribution",
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

fn ms(x: f64) -> String {
    crate::report::ms_cell(x, 3)
}

fn report(ctx: &Context, threads: usize, reps: usize, rows: &[Row]) -> Report {
    let mut r = Report::new(
        &ctx.name,
        "The loop's bits on the CPU: the fast engine against the loop",
    );
    let big = rows
        .iter()
        .filter(|r| r.dist == Dist::Uniform)
        .max_by_key(|r| r.n);
    r.headline(match big {
        Some(b) => format!(
            "Uniform f64, {} terms: the fast engine on 1 thread {} ms ({}x the loop's {} ms), on {} threads {} ms ({}x a plain parallel sum); every sum has the loop's bits: {}",
            thousands(b.n as u64),
            ms(b.ms[1]),
            ratio(b.ms[1], b.ms[0]),
            ms(b.ms[0]),
            threads,
            ms(b.ms[2]),
            ratio(b.ms[2], b.ms[3]),
            rows.iter().all(|r| r.fast_exact && r.par_exact)
        ),
        None => "no sizes measured".into(),
    });
    r.text(format!(
        "Vector path of the fast units on this CPU: {}. Terms are f64 made on the host by a counter hash (the distributions of gpu-timing). Medians of {reps} runs after one untimed run, wall clock, this process; {threads} threads in rayon's pool (`RAYON_NUM_THREADS` sets it). The loop is `s = 0.0; for x in terms {{ s += x }}` (`walk::loop_sum`). The fast engine (`binade::fast`) forms each chunk's unit of {} terms as the f64 sum of `rint(x * 2^(52-e))` for the running sum's binade `e` and adds a chunk term by term where a term ties, is negative or not finite, or the sum leaves the binade; on threads, a parallel pass of plain chunk sums gives each chunk a guessed binade and a second parallel pass its unit. The plain parallel sum is rayon's `par_iter().sum()`: not the loop's bits (the last column says whether it happened to be equal). The host pipeline is the model of the device kernels (`walk::pipeline`), the exact engine before this one, timed up to 10^7 terms. A chunk refused by the fast path on one thread makes the next 8 go natively without trying (ties come in runs); on threads, refused chunks are added natively by the walk.",
        crate::fast::vector_path(),
        crate::fast::CHUNK
    ));
    let mut t = Table::new(
        "cpu_timing",
        "Median ms per sum, and ratios",
        &[
            "distribution",
            "terms",
            "loop",
            "fast, 1 thread",
            "fast 1 thread / loop",
            "fast, all threads",
            "plain parallel sum",
            "fast all threads / plain parallel",
            "fast all threads, GB/s",
            "host pipeline (before)",
            "fast = loop",
            "plain parallel = loop",
        ],
    );
    for row in rows {
        let gbs = row.n as f64 * 8.0 / (row.ms[2] * 1e-3) / 1e9;
        t.row(vec![
            row.dist.name().into(),
            thousands(row.n as u64),
            ms(row.ms[0]),
            ms(row.ms[1]),
            ratio(row.ms[1], row.ms[0]),
            ms(row.ms[2]),
            ms(row.ms[3]),
            ratio(row.ms[2], row.ms[3]),
            format!("{gbs:.2}"),
            ms(row.ms[4]),
            (row.fast_exact && row.par_exact).to_string(),
            row.plain_equal.to_string(),
        ]);
    }
    r.table(t);
    r
}
