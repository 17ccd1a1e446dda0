//! Experiment `one-term-rule`: the one-term rule against the native add and MPFR on random
//! samples by class, and exhaustively on tiny formats.

use std::time::Instant;

use anyhow::{bail, Result};

use super::{Context, Outcome};
use crate::algebra::Exact;
use crate::format::{Format, E4M3, E5M2, E5M6, F32, F64};
use crate::plot::{Plot, PlotKind};
use crate::report::{thousands, Report, Table};
use crate::verify::battery::{
    exhaustive_pairs_ticking, exhaustive_starts, exhaustive_triples_ticking, one_term, Reference,
    Tally,
};
use crate::verify::sampler::SampleClass;

/// Per-format results of the random part.
struct FormatRun {
    name: &'static str,
    rows: Vec<(SampleClass, Tally, Tally)>,
    native_seconds: f64,
    mpfr_seconds: f64,
}

fn random_part<F: Format>(ctx: &Context, per_class: u64) -> FormatRun {
    let bar = ctx.progress(
        SampleClass::ALL.len() as u64 * 2,
        &format!("{} samples", F::NAME),
    );
    let mut rows = Vec::new();
    let (mut native_seconds, mut mpfr_seconds) = (0.0, 0.0);
    for class in SampleClass::ALL {
        let t = Instant::now();
        let native = one_term::<F, Exact>(&Exact, class, per_class, ctx.seed, Reference::Native);
        native_seconds += t.elapsed().as_secs_f64();
        bar.inc(1);
        let t = Instant::now();
        let mpfr = one_term::<F, Exact>(&Exact, class, per_class, ctx.seed, Reference::Mpfr);
        mpfr_seconds += t.elapsed().as_secs_f64();
        bar.inc(1);
        for tally in [&native, &mpfr] {
            if let Some(e) = &tally.example {
                eprintln!("one-term-rule: FAILURE {e}");
            }
        }
        rows.push((class, native, mpfr));
    }
    bar.finish_and_clear();
    FormatRun {
        name: F::NAME,
        rows,
        native_seconds,
        mpfr_seconds,
    }
}

/// Every pair (and, when `triples`, every triple) of tiny format `F`, with progress in starts
/// of the format.
fn exhaustive<F: Format>(
    ctx: &Context,
    triples: bool,
) -> (&'static str, Tally, Option<Tally>, f64) {
    let starts = exhaustive_starts::<F>();
    let steps = if triples { 2 * starts } else { starts };
    let bar = ctx.progress(
        steps,
        &format!(
            "{} every pair{}",
            F::NAME,
            if triples { " and triple" } else { "" }
        ),
    );
    let tick = || bar.inc(1);
    let t = Instant::now();
    let pairs = exhaustive_pairs_ticking::<F, Exact>(&Exact, &tick);
    let tri = triples.then(|| exhaustive_triples_ticking::<F, Exact>(&Exact, &tick));
    bar.finish_and_clear();
    (F::NAME, pairs, tri, t.elapsed().as_secs_f64())
}

/// Runs the experiment (see the module doc).
pub fn run(ctx: &Context) -> Result<Outcome> {
    let samples = ctx.sample_count()?;
    let formats: Vec<String> = ctx.get_or("formats", vec!["f64".to_string(), "f32".to_string()])?;
    let tiny: Vec<String> =
        ctx.get_or("exhaustive", vec!["e4m3".to_string(), "e5m2".to_string()])?;
    let triples: Vec<String> = ctx.get_or("triples", vec!["e4m3".to_string()])?;
    if formats.is_empty() && tiny.is_empty() && triples.is_empty() {
        bail!(super::ConfigError::new(
            &ctx.file,
            "formats",
            "formats, exhaustive and triples are all empty: the run would check nothing"
        ));
    }
    let per_class = samples.div_ceil(SampleClass::ALL.len() as u64);

    let mut runs = Vec::new();
    for f in &formats {
        runs.push(match f.as_str() {
            "f64" => random_part::<F64>(ctx, per_class),
            "f32" => random_part::<F32>(ctx, per_class),
            other => bail!(super::ConfigError::new(
                &ctx.file,
                "formats",
                format!("unknown format `{other}` (f64, f32)")
            )),
        });
    }
    let mut tiny_runs = Vec::new();
    for f in &tiny {
        let tri = triples.contains(f);
        tiny_runs.push(match f.as_str() {
            "e4m3" => exhaustive::<E4M3>(ctx, tri),
            "e5m2" => exhaustive::<E5M2>(ctx, tri),
            "e5m6" => exhaustive::<E5M6>(ctx, tri),
            other => bail!(super::ConfigError::new(
                &ctx.file,
                "exhaustive",
                format!("unknown tiny format `{other}` (e4m3, e5m2, e5m6)")
            )),
        });
    }
    Ok(build_report(ctx, &runs, &tiny_runs, per_class))
}

fn build_report(
    ctx: &Context,
    runs: &[FormatRun],
    tiny: &[(&'static str, Tally, Option<Tally>, f64)],
    per_class: u64,
) -> Outcome {
    let mut report = Report::new(&ctx.name, "One-term rule against the native add and MPFR");
    report.text(format!(
        "Each sample is a start `s` in binade `e`, a term `x` drawn to hit one rule (class), and the unit of `x` for `e`. \
         A unit that applies must give the bits of `s + x`; a refusal is a failure when the exact sum stays at or below `2^(e+1)` with a non-negative finite term and a start in the binade. \
         The native check compares with the format's add; the MPFR check compares with MPFR at the format's precision (subnormals emulated) and also checks MPFR against the add. \
         {} samples per class and format, {} mode.",
        thousands(per_class),
        ctx.mode()
    ));
    let mut table = Table::new(
        "samples",
        "Random samples by class",
        &[
            "format",
            "class",
            "samples",
            "applied",
            "refused",
            "mismatches vs native",
            "mismatches vs MPFR",
            "first failure",
        ],
    );
    let mut failures = 0u64;
    let mut total = 0u64;
    for run in runs {
        for (class, native, mpfr) in &run.rows {
            failures += native.failures + mpfr.failures;
            total += native.samples;
            let first = native
                .example
                .clone()
                .or(mpfr.example.clone())
                .unwrap_or_else(|| "-".into());
            table.row(vec![
                run.name.into(),
                class.name().into(),
                thousands(native.samples),
                thousands(native.applied),
                thousands(native.samples - native.applied),
                native.failures.to_string(),
                mpfr.failures.to_string(),
                first,
            ]);
        }
    }
    report.table(table);

    let mut speed = Table::new(
        "speed",
        "Samples per second (all classes, rayon on every core)",
        &[
            "format",
            "samples",
            "native check s",
            "native samples/s",
            "MPFR check s",
            "MPFR samples/s",
        ],
    );
    let mut speeds = Vec::new();
    for run in runs {
        let n: u64 = run.rows.iter().map(|r| r.1.samples).sum();
        let (ns, ms) = (n as f64 / run.native_seconds, n as f64 / run.mpfr_seconds);
        speeds.push(format!(
            "{}: native {:.1}M/s, MPFR {:.1}M/s",
            run.name,
            ns / 1e6,
            ms / 1e6
        ));
        speed.row(vec![
            run.name.into(),
            thousands(n),
            format!("{:.2}", run.native_seconds),
            format!("{:.0}", ns),
            format!("{:.2}", run.mpfr_seconds),
            format!("{:.0}", ms),
        ]);
    }
    report.table(speed);

    let mut ex = Table::new(
        "exhaustive",
        "Exhaustive checks on tiny formats",
        &[
            "format",
            "pairs",
            "pairs applied",
            "pair failures",
            "triples",
            "triples applied",
            "triple failures",
            "seconds",
        ],
    );
    let mut pairs_total = 0u64;
    for (name, pairs, tri, secs) in tiny {
        failures += pairs.failures + tri.as_ref().map_or(0, |t| t.failures);
        pairs_total += pairs.samples;
        for e in [
            &pairs.example,
            &tri.as_ref().and_then(|t| t.example.clone()),
        ]
        .into_iter()
        .flatten()
        {
            eprintln!("one-term-rule: FAILURE {e}");
        }
        ex.row(vec![
            (*name).into(),
            thousands(pairs.samples),
            thousands(pairs.applied),
            pairs.failures.to_string(),
            tri.as_ref().map_or("-".into(), |t| thousands(t.samples)),
            tri.as_ref().map_or("-".into(), |t| thousands(t.applied)),
            tri.as_ref().map_or("-".into(), |t| t.failures.to_string()),
            format!("{secs:.2}"),
        ]);
    }
    report.table(ex);

    let categories: Vec<String> = SampleClass::ALL
        .iter()
        .map(|c| c.name().to_string())
        .collect();
    let series: Vec<(String, Vec<f64>)> = runs
        .iter()
        .map(|r| {
            (
                format!("{} applied", r.name),
                r.rows.iter().map(|(_, t, _)| t.applied as f64).collect(),
            )
        })
        .chain(runs.iter().map(|r| {
            (
                format!("{} refused", r.name),
                r.rows
                    .iter()
                    .map(|(_, t, _)| (t.samples - t.applied) as f64)
                    .collect(),
            )
        }))
        .chain(std::iter::once((
            "mismatches (add or MPFR, every format)".to_string(),
            (0..categories.len())
                .map(|i| {
                    runs.iter()
                        .filter_map(|r| r.rows.get(i))
                        .map(|(_, n, m)| (n.failures + m.failures) as f64)
                        .sum()
                })
                .collect(),
        )))
        .collect();
    report.plot(Plot {
        stem: "samples-per-class".into(),
        title: "One-term rule per sample class: samples whose unit applied or was refused, and mismatches against the add or MPFR".into(),
        kind: PlotKind::Bars {
            categories,
            series,
            x_label: "sample class".into(),
            y_label: "samples (count, log scale)".into(),
            log_y: true,
        },
    });
    report.headline(format!(
        "{} random samples and {} exhaustive pairs: {} mismatches; {}",
        thousands(total),
        thousands(pairs_total),
        failures,
        speeds.join("; ")
    ));
    Outcome { report, failures }
}
