//! `cpu-timing`: the fast CPU engine ([`crate::fast`]) against the loop it reproduces, on one
//! thread and on all of them, beside a plain parallel sum (rayon, not the loop's bits) and the
//! host pipeline that mirrors the device; four distributions, f64, sizes up to 1e9.

use std::time::Instant;

use anyhow::Result;
use rayon::prelude::*;

use super::{Context, Outcome};
use crate::fast::{ordered_sum_fast, ordered_sum_par};
use crate::format::{same_result, F64};
use crate::gpu::timing::median;
use crate::plan::PlanKind;
use crate::report::{thousands, Report, Table};
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

struct Row {
    dist: Dist,
    n: usize,
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
            rows.push(Row {
                dist,
                n,
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
    Ok(Outcome {
        report: report(ctx, threads, reps, &rows),
        failures,
    })
}

fn ms(x: f64) -> String {
    if x.is_nan() {
        "not run".into()
    } else {
        format!("{x:.3}")
    }
}

fn ratio(a: f64, b: f64) -> String {
    if a.is_nan() || b.is_nan() || b <= 0.0 {
        "n/a".into()
    } else {
        format!("{:.2}", a / b)
    }
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
