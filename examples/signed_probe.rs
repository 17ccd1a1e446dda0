//! Signed streams on the CPU: chunks taken term by term and the time of the fast engine with
//! its signed chunk path and without it (`Checks::signed_path`), and with it but no cooldown
//! after a refused chunk (`Checks::cooldown`), on one thread and on every
//! thread of rayon's pool, beside the loop, on the same data; every total checked against the
//! loop's bits. Writes the CSV to the path given (the markdown table goes to stdout).
//!
//!     signed_probe OUT.csv [TERMS] [REPS] [PATH]
//!
//! Defaults 10,000,000 terms and 5 timed runs; PATH `widest` (the default) or `avx2` limits
//! the engine's compiled vector paths (`fast::limit_vector_path`), so that binaries need not
//! differ to time one path against another.

use std::time::Instant;

use anyhow::{bail, Context as _, Result};
use binade::fast::{ordered_sum_par_with, Checks, FastSum, Shape};
use binade::format::F64;
use binade::verify::signed_inputs::normal;
use binade::walk::loop_sum;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

const SEED: u64 = 2026;

/// The signed streams: name and terms.
fn streams(n: usize) -> Vec<(&'static str, Vec<f64>)> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(SEED);
    let mut make = |f: &mut dyn FnMut(&mut Xoshiro256PlusPlus, usize) -> f64| {
        (0..n).map(|i| f(&mut rng, i)).collect::<Vec<f64>>()
    };
    vec![
        ("N(1, 1)", make(&mut |r, _| 1.0 + normal(r))),
        ("N(0, 1)", make(&mut |r, _| normal(r))),
        (
            "alternating signs, magnitudes uniform in [0, 1)",
            make(&mut |r, i| {
                if i % 2 == 0 {
                    r.random::<f64>()
                } else {
                    -r.random::<f64>()
                }
            }),
        ),
        (
            "differences of close values, (1 + 1e-6 a) - (1 + 1e-6 b)",
            make(&mut |r, _| (1.0 + 1e-6 * normal(r)) - (1.0 + 1e-6 * normal(r))),
        ),
        (
            "uniform [0, 1), one in twenty negated",
            make(&mut |r, i| {
                let x: f64 = r.random();
                if i % 20 == 19 {
                    -x
                } else {
                    x
                }
            }),
        ),
    ]
}

fn median_ms<T>(reps: usize, mut f: impl FnMut() -> T) -> (f64, T) {
    let mut out = f();
    let mut t: Vec<f64> = (0..reps)
        .map(|_| {
            let t0 = Instant::now();
            out = f();
            t0.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    t.sort_by(f64::total_cmp);
    (t[t.len() / 2], out)
}

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let Some(out) = args.get(1) else {
        bail!("usage: signed_probe OUT.csv [TERMS] [REPS] [widest|avx2]");
    };
    let n: usize = args
        .get(2)
        .map_or(Ok(10_000_000), |a| a.parse())
        .context("TERMS")?;
    let reps: usize = args.get(3).map_or(Ok(5), |a| a.parse()).context("REPS")?;
    match args.get(4).map(String::as_str) {
        None | Some("widest") => {}
        Some("avx2") => binade::fast::limit_vector_path(binade::fast::VectorLimit::Avx2),
        Some(other) => bail!("PATH must be widest or avx2, not {other}"),
    }
    println!("vector path {}", binade::fast::vector_path());
    let all_threads = rayon::current_num_threads();
    let one = rayon::ThreadPoolBuilder::new().num_threads(1).build()?;
    let off = Checks {
        signed_path: false,
        ..Checks::ALL
    };
    let tmp = format!("{out}.tmp");
    let mut csv = csv::Writer::from_path(&tmp)?;
    csv.write_record([
        "stream",
        "terms",
        "threads",
        "loop_ms",
        "without_ms",
        "with_ms",
        "with_over_without",
        "chunks",
        "native_without",
        "native_with",
        "no_cooldown_ms",
        "native_no_cooldown",
        "exact",
    ])?;
    println!(
        "Built from {}{}; {n} terms, medians of {reps} runs, wall clock, one thread and {all_threads} threads.\n",
        binade::provenance::BUILD_COMMIT,
        if binade::provenance::BUILD_DIRTY { " (dirty tree)" } else { "" }
    );
    println!("| stream | threads | loop, ms | fast without the signed path, ms | with it, ms | with / without | chunks | term by term without | term by term with | with it and no cooldown, ms | term by term, no cooldown | every total = loop |");
    println!("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    for (name, terms) in streams(n) {
        let (loop_ms, want) = median_ms(reps, || loop_sum::<F64>(&terms));
        for threads in [1, all_threads] {
            let run = |checks: Checks| -> (f64, FastSum<f64>) {
                let f = || {
                    median_ms(reps, || {
                        ordered_sum_par_with(&terms, checks, Shape::DEFAULT)
                    })
                };
                if threads == 1 {
                    one.install(f)
                } else {
                    f()
                }
            };
            let (without_ms, without) = run(off);
            let (with_ms, with) = run(Checks::ALL);
            let (nocool_ms, nocool) = run(Checks {
                cooldown: false,
                ..Checks::ALL
            });
            let exact = [without.total, with.total, nocool.total]
                .iter()
                .all(|t| t.to_bits() == want.to_bits());
            println!(
                "| {name} | {threads} | {loop_ms:.3} | {without_ms:.3} | {with_ms:.3} | {:.2} | {} | {} | {} | {nocool_ms:.3} | {} | {exact} |",
                with_ms / without_ms, with.chunks, without.native_chunks, with.native_chunks, nocool.native_chunks
            );
            csv.write_record([
                name.to_string(),
                n.to_string(),
                threads.to_string(),
                format!("{loop_ms:.3}"),
                format!("{without_ms:.3}"),
                format!("{with_ms:.3}"),
                format!("{:.3}", with_ms / without_ms),
                with.chunks.to_string(),
                without.native_chunks.to_string(),
                with.native_chunks.to_string(),
                format!("{nocool_ms:.3}"),
                nocool.native_chunks.to_string(),
                exact.to_string(),
            ])?;
        }
    }
    csv.flush()?;
    drop(csv);
    std::fs::rename(&tmp, out)?;
    Ok(())
}
