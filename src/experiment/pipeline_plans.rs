//! Experiment `pipeline-plans`: the host pipeline in the kernels' layout on every input kind,
//! size and plan, against the loop; the cost of each plan in term-by-term chunks and time.

use std::collections::BTreeMap;

use anyhow::{bail, Result};

use super::{ConfigError, Context, Outcome};
use crate::algebra::Exact;
use crate::format::{Format, F32, F64};
use crate::plan::PlanKind;
use crate::plot::{Plot, PlotKind};
use crate::report::{thousands, Report, Table};
use crate::verify::battery::{pipeline_cases, PipelineCase};
use crate::verify::inputs::{InputKind, STANDARD_SIZES};
use crate::walk::chunk_count;

/// Parsed parameters.
struct Params {
    formats: Vec<String>,
    kinds: Vec<InputKind>,
    sizes: Vec<usize>,
    plans: Vec<PlanKind>,
}

fn params(ctx: &Context) -> Result<Params> {
    let formats: Vec<String> = ctx.get_or("formats", vec!["f64".to_string()])?;
    let kinds: Vec<String> = ctx.get_or(
        "kinds",
        InputKind::ALL
            .iter()
            .map(|k| k.name().to_string())
            .collect(),
    )?;
    let kinds = kinds
        .iter()
        .map(|k| {
            k.parse::<InputKind>()
                .map_err(|e| ConfigError::new(&ctx.file, "kinds", e))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let sizes: Vec<usize> = ctx.get_or("sizes", STANDARD_SIZES.to_vec())?;
    let plans: Vec<String> = ctx.get_or(
        "plans",
        PlanKind::standard(ctx.seed)
            .iter()
            .map(|p| p.name())
            .collect(),
    )?;
    let plans = plans
        .iter()
        .map(|p| {
            p.parse::<PlanKind>()
                .map_err(|e| ConfigError::new(&ctx.file, "plans", e))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let formats = ctx.non_empty("formats", formats)?;
    let kinds = ctx.non_empty("kinds", kinds)?;
    let sizes = ctx.non_empty("sizes", sizes)?;
    let plans = ctx.non_empty("plans", plans)?;
    Ok(Params {
        formats,
        kinds,
        sizes,
        plans,
    })
}

fn cases_for<F: Format>(ctx: &Context, p: &Params) -> Vec<PipelineCase> {
    let bar = ctx.progress(
        (p.kinds.len() * p.sizes.len()) as u64,
        &format!("{} pipelines", F::NAME),
    );
    let mut out = Vec::new();
    for (i, &kind) in p.kinds.iter().enumerate() {
        let stale = p.kinds[(i + 1) % p.kinds.len()];
        for &n in &p.sizes {
            let cases = pipeline_cases::<F, Exact>(&Exact, kind, stale, n, &p.plans, ctx.seed);
            if let Some(c) = cases.first().filter(|c| c.fast_identical == Some(false)) {
                eprintln!(
                    "pipeline-plans: FAST ENGINE MISMATCH format {} kind {} n {} seed {}: loop {:#x}, fast (one thread, threads, small shape) {:x?}",
                    F::NAME, c.input, c.n, ctx.seed, c.loop_bits, c.fast_bits
                );
            }
            for c in cases.iter().filter(|c| !c.identical) {
                eprintln!(
                    "pipeline-plans: MISMATCH format {} kind {} n {} plan {} seed {}: loop {:#x}, walk {:#x}",
                    F::NAME, c.input, c.n, c.plan, ctx.seed, c.loop_bits, c.walk_bits
                );
            }
            out.extend(cases);
            bar.inc(1);
        }
    }
    bar.finish_and_clear();
    out
}

/// Runs the experiment (see the module doc).
pub fn run(ctx: &Context) -> Result<Outcome> {
    let p = params(ctx)?;
    let mut all: Vec<(&'static str, PipelineCase)> = Vec::new();
    for f in &p.formats {
        let cases = match f.as_str() {
            "f64" => cases_for::<F64>(ctx, &p)
                .into_iter()
                .map(|c| ("f64", c))
                .collect::<Vec<_>>(),
            "f32" => cases_for::<F32>(ctx, &p)
                .into_iter()
                .map(|c| ("f32", c))
                .collect(),
            other => bail!(ConfigError::new(
                &ctx.file,
                "formats",
                format!("unknown format `{other}` (f64, f32)")
            )),
        };
        all.extend(cases);
    }
    Ok(build_report(ctx, &p, &all))
}

fn build_report(ctx: &Context, p: &Params, all: &[(&'static str, PipelineCase)]) -> Outcome {
    let mut report = Report::new(
        &ctx.name,
        "The host pipeline on every input kind, size and plan",
    );
    // The fast engine runs once per input: its verdict is on every plan's case, counted once.
    let first_plan = p.plans.first();
    let fast_cases: Vec<&(&'static str, PipelineCase)> = all
        .iter()
        .filter(|(_, c)| Some(&c.plan) == first_plan && c.fast_identical.is_some())
        .collect();
    let fast_wrong = fast_cases
        .iter()
        .filter(|(_, c)| c.fast_identical == Some(false))
        .count() as u64;
    let failures = all.iter().filter(|(_, c)| !c.identical).count() as u64 + fast_wrong;
    let largest = *p.sizes.iter().max().unwrap_or(&0);
    report.text(format!(
        "Each case generates `n` terms of one input kind (seed {}), sums them with the plain loop, and runs the pipeline of the kernels' layout \
         (chunks of 256 lanes x 4 terms: tree sums, plan, lane units composed in an ordered tree, the walk) with one plan. \
         `identical` compares bits (NaN as NaN). Every plan must give the loop's bits; the plans differ only in how many chunks the walk adds term by term. \
         The stale plan is the tree-prefix plan of the next input kind in the list. \
         Beside the pipeline, the fast engine (`binade::fast`, the default exact engine) sums each input on one thread, on rayon's threads ({} here) with its default shape, \
         and on the threads with chunks of {} terms in blocks of {} chunks; `fast = loop` says whether all three have the loop's bits. Formats: {}. Mode: {}.",
        ctx.seed,
        rayon::current_num_threads(),
        crate::verify::battery::SMALL_SHAPE.chunk,
        crate::verify::battery::SMALL_SHAPE.block_chunks,
        p.formats.join(", "),
        ctx.mode()
    ));

    // Summary per plan.
    let mut by_plan: BTreeMap<String, (u64, u64, u64, u64)> = BTreeMap::new();
    for (_, c) in all {
        let e = by_plan.entry(c.plan.name()).or_default();
        e.0 += 1;
        e.1 += c.identical as u64;
        e.2 += c.fallback as u64;
        e.3 += (c.applied + c.fallback) as u64;
    }
    let mut summary = Table::new(
        "plans",
        "Per plan: sums bit-identical to the loop, and term-by-term chunks",
        &[
            "plan",
            "sums",
            "identical",
            "chunks",
            "term-by-term chunks",
            "share term by term",
        ],
    );
    for plan in &p.plans {
        if let Some((n, same, fb, chunks)) = by_plan.get(&plan.name()) {
            summary.row(vec![
                plan.name(),
                n.to_string(),
                same.to_string(),
                thousands(*chunks),
                thousands(*fb),
                format!("{:.2}%", 100.0 * *fb as f64 / (*chunks).max(1) as f64),
            ]);
        }
    }
    report.table(summary);
    let plan_names: Vec<String> = p
        .plans
        .iter()
        .map(|pl| pl.name())
        .filter(|n| by_plan.contains_key(n))
        .collect();
    // by_plan's value: (sums, identical, term-by-term chunks, chunks).
    let count = |pick: fn(&(u64, u64, u64, u64)) -> u64| -> Vec<f64> {
        plan_names
            .iter()
            .map(|n| by_plan.get(n).map_or(0.0, |v| pick(v) as f64))
            .collect()
    };
    report.plot(Plot {
        stem: "identical".into(),
        title: format!(
            "Sums with the loop's bits, per plan ({} sums each, {}): every plan must give every bit",
            by_plan.values().next().map_or(0, |v| v.0),
            p.formats.join(" and ")
        ),
        kind: PlotKind::Bars {
            categories: plan_names.clone(),
            series: vec![
                ("bit-identical to the loop".into(), count(|v| v.1)),
                ("mismatches".into(), count(|v| v.0 - v.1)),
            ],
            x_label: "plan".into(),
            y_label: "sums (count)".into(),
            log_y: false,
        },
    });

    let mut fast = Table::new(
        "fast",
        "The fast engine beside the pipeline: sums bit-identical to the loop (one thread, threads, small shape)",
        &["format", "inputs", "identical"],
    );
    for f in &p.formats {
        let mine: Vec<_> = fast_cases.iter().filter(|(g, _)| g == f).collect();
        fast.row(vec![
            f.clone(),
            mine.len().to_string(),
            mine.iter()
                .filter(|(_, c)| c.fast_identical == Some(true))
                .count()
                .to_string(),
        ]);
    }
    report.table(fast);

    // Fallback chunks per kind and plan at the largest size (first format).
    let first = p.formats.first().map(String::as_str).unwrap_or("f64");
    let mut grid = Table::new(
        "fallback-largest",
        &format!(
            "Term-by-term chunks of {} at n = {} ({} chunks)",
            first,
            thousands(largest as u64),
            thousands(chunk_count(largest) as u64)
        ),
        &[],
    );
    grid.headers = std::iter::once("input kind".to_string())
        .chain(p.plans.iter().map(|p| p.name()))
        .collect();
    let mut series: Vec<(String, Vec<f64>)> =
        p.plans.iter().map(|pl| (pl.name(), Vec::new())).collect();
    for kind in &p.kinds {
        let mut row = vec![kind.name().to_string()];
        for (j, plan) in p.plans.iter().enumerate() {
            let c = all.iter().find(|(f, c)| {
                *f == first && c.input == *kind && c.n == largest && c.plan == *plan
            });
            let fb = c.map_or(0, |(_, c)| c.fallback);
            row.push(thousands(fb as u64));
            series[j].1.push(fb as f64);
        }
        grid.row(row);
    }
    report.table(grid);
    report.plot(Plot {
        stem: "fallback-chunks".into(),
        title: format!(
            "Chunks added term by term (the cost of a plan, never its bits), {first}, n = {} ({} chunks)",
            thousands(largest as u64),
            thousands(chunk_count(largest) as u64)
        ),
        kind: PlotKind::Bars {
            categories: p.kinds.iter().map(|k| k.name().to_string()).collect(),
            series,
            x_label: "input kind".into(),
            y_label: "term-by-term chunks (count, log scale)".into(),
            log_y: true,
        },
    });

    // Time at the largest size, tree-prefix plan.
    report.text(
        "The host pipeline is the kernels' layout run on the CPU to check the algebra, not a fast path: it reads the terms twice (chunk sums for the plan, then units), composes pairs lane by lane and walks chunk by chunk, so it is expected to be slower than the one-thread loop, by several times on a machine with few cores. The fast CPU engine is measured in `cpu-timing`.",
    );
    let mut timing = Table::new("timing", &format!("Time at n = {}: plain loop (one thread) against the pipeline (tree-prefix plan, rayon)", thousands(largest as u64)), &["format", "input kind", "loop ms", "pipeline ms", "pipeline / loop", "term-by-term chunks"]);
    for (f, c) in all
        .iter()
        .filter(|(_, c)| c.n == largest && c.plan == PlanKind::TreePrefix)
    {
        timing.row(vec![
            (*f).into(),
            c.input.name().into(),
            format!("{:.2}", c.loop_seconds * 1e3),
            format!("{:.2}", c.walk_seconds * 1e3),
            format!("{:.2}", c.walk_seconds / c.loop_seconds.max(1e-12)),
            thousands(c.fallback as u64),
        ]);
    }
    report.table(timing);

    let mut rows = Table::new(
        "cases",
        "Every case",
        &[
            "format",
            "input kind",
            "n",
            "plan",
            "identical",
            "fast = loop",
            "applied chunks",
            "term-by-term chunks",
            "loop bits",
            "walk bits",
            "loop ms",
            "pipeline ms",
        ],
    );
    rows.show_rows = Some(0);
    for (f, c) in all {
        rows.row(vec![
            (*f).into(),
            c.input.name().into(),
            c.n.to_string(),
            c.plan.name(),
            c.identical.to_string(),
            c.fast_identical.map_or("-".into(), |b| b.to_string()),
            c.applied.to_string(),
            c.fallback.to_string(),
            format!("{:#018x}", c.loop_bits),
            format!("{:#018x}", c.walk_bits),
            format!("{:.3}", c.loop_seconds * 1e3),
            format!("{:.3}", c.walk_seconds * 1e3),
        ]);
    }
    report.table(rows);

    let tree = by_plan
        .get(&PlanKind::TreePrefix.name())
        .copied()
        .unwrap_or_default();
    report.headline(format!(
        "{} of {} sums bit-identical to the loop ({} input kinds x {} sizes x {} plans x {} formats); tree-prefix plan adds {} of {} chunks term by term; the fast engine: {} of {} inputs bit-identical",
        all.iter().filter(|(_, c)| c.identical).count(),
        all.len(),
        p.kinds.len(),
        p.sizes.len(),
        p.plans.len(),
        p.formats.len(),
        thousands(tree.2),
        thousands(tree.3),
        fast_cases.len() as u64 - fast_wrong,
        fast_cases.len()
    ));
    Outcome { report, failures }
}
