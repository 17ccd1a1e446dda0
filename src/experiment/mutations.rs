//! Experiment `mutations`: the whole battery against every named mutant (the kill matrix),
//! and every plan mutant against the correct algebra (must change no bit).

use anyhow::Result;

use super::{Context, Outcome};
use crate::format::F64;
use crate::plan::PlanKind;
use crate::plot::{Plot, PlotKind};
use crate::report::{thousands, Report, Table};
use crate::verify::battery::{pipeline_cases, Tally};
use crate::verify::inputs::InputKind;
use crate::verify::kill::{run_all_formats, Budget, Check};
use crate::verify::mutant::Mutant;

/// One row of the kill matrix: an implementation and its tally per check (`None`: not
/// applicable or not run).
pub struct MatrixRow {
    /// Which implementation: `rust`, `header (host)`, `device`.
    pub implementation: String,
    /// The mutant.
    pub mutant: Mutant,
    /// One entry per [`Check::ALL`], then any extra columns.
    pub cells: Vec<Option<Tally>>,
}

fn budget(ctx: &Context) -> Result<Budget> {
    Ok(Budget {
        per_class: ctx.get("per_class")?,
        sizes: ctx.non_empty("sizes", ctx.get("sizes")?)?,
        plans: PlanKind::standard(ctx.seed),
        seed: ctx.seed,
    })
}

fn rust_rows(ctx: &Context, b: &Budget) -> Vec<MatrixRow> {
    let bar = ctx.progress(
        (Mutant::ALL.len() * Check::ALL.len()) as u64,
        "rust mutants",
    );
    let rows = Mutant::ALL
        .iter()
        .map(|&m| {
            let cells = Check::ALL
                .iter()
                .map(|&c| {
                    let t = run_all_formats(c, &m, b);
                    bar.inc(1);
                    Some(t)
                })
                .collect();
            MatrixRow {
                implementation: "rust".into(),
                mutant: m,
                cells,
            }
        })
        .collect();
    bar.finish_and_clear();
    rows
}

/// The cells of one build in an engine's own mutant table: (sums checked, the result, the
/// first wrong sum). `run` is the build's check (sums checked, the first wrong one) or its
/// error; `correct` says whether the build is the engine itself, whose result reads
/// `exact_text`. Adds one to `failures` where the engine was wrong, a mutant survived, or
/// the build or the device failed.
pub fn engine_mutant_cells(
    correct: bool,
    run: anyhow::Result<(u64, Option<String>)>,
    exact_text: &str,
    failures: &mut u64,
) -> (u64, String, String) {
    match run {
        Ok((checked, wrong)) => {
            let killed = wrong.is_some();
            *failures += u64::from(killed == correct);
            let text = match (correct, killed) {
                (true, false) => exact_text,
                (true, true) => "WRONG (the correct build)",
                (false, true) => "killed by a wrong result",
                (false, false) => "SURVIVED",
            };
            (
                checked,
                text.to_string(),
                wrong.unwrap_or_else(|| "-".into()),
            )
        }
        Err(e) => {
            *failures += 1;
            let msg = format!("{e:#}");
            (
                0,
                format!("error: {}", msg.lines().next().unwrap_or("")),
                "-".into(),
            )
        }
    }
}

/// Runs the experiment (see the module doc).
pub fn run(ctx: &Context) -> Result<Outcome> {
    let only: Vec<String> = ctx.get_or("only_tables", Vec::new())?;
    if !only.is_empty() {
        return device_tables_only(ctx, &only);
    }
    let b = budget(ctx)?;
    let mut rows = rust_rows(ctx, &b);
    rows.extend(super::mutations_extra::header_rows(ctx, &b));
    let device = super::mutations_extra::device_rows(ctx, &b);
    let onepass = super::mutations_extra::onepass_rows(ctx, &b);
    let plan_rows = plan_mutants(ctx, &b)?;
    let mut out = build_report(ctx, &b, &rows, &device, &plan_rows);
    let matrix_failures = out.failures;
    let (table, note, failures) = onepass;
    out.report.text(note);
    out.report.table(table);
    out.failures += failures;
    let (table, note, failures) = super::mutations_cumsum::cumsum_rows(ctx, &b.sizes, b.seed);
    out.report.text(note);
    out.report.table(table);
    out.failures += failures;
    let (table, note, failures) = super::mutations_numpy::numpy_rows(ctx, b.seed);
    out.report.text(note);
    out.report.table(table);
    out.failures += failures;
    let (table, note, failures) = super::mutations_walked::walked_rows(ctx, &b.sizes, b.seed);
    out.report.text(note);
    out.report.table(table);
    out.failures += failures;
    let (table, note, failures) = super::mutations_walked::walked_f32_rows(ctx, &b.sizes, b.seed);
    out.report.text(note);
    out.report.table(table);
    out.failures += failures;
    let (table, failures) = super::mutations_extra::fast_rows(b.seed);
    out.report.text(format!("The fast CPU engine (`binade::fast`) with each of its checks switched off alone (`verify::fast_mutants`), on one thread and on rayon's threads (blocks of 4 chunks): every input kind at 10,000 and 300,000 f64 terms and 10,000 f32 terms, then the hand-made inputs of `verify::fast_mutants::first_wrong` (`inputs::excursion_above_binade`, `plan_behind_crossing`, `signed_plan_behind_crossing`, `leaves_by_its_bound`, `infinity_then_its_opposite`, `signed_ties`, `signed_ties_below_the_binade`, `negative_sum_leaves_by_one_term`, `term_past_the_rounding`, `signed_term_past_the_rounding`); the first input whose sum differs from the loop's is named. The planned-binade mutants (of a unit, and of a signed unit: its sign and binade) exist only on threads (one thread always knows the exact binade); the plan-only and timing-only mutants must change no bits. The compiled vector path on this CPU, which every row ran: {}.", crate::fast::vector_path()));
    out.report.table(table);
    out.failures += failures;
    let (table, failures) = super::mutations_extra::fvif_unit_rows(b.seed);
    out.report.text("The float VIF row-parallel sum's fast segment units (`fvif_segment_unit_fast_m` in `kernels/float_vif.cuh`: where no term of a segment is a tie, its unit is the f64 sum of rint(x * 2^(150 - b))) with each check broken alone (`vif::host::FastUnitMutant`), through the header's host build (the device kernels compile the same function): `vif::fast_unit_kill::row_cases` (uniform, eighth powers over many binades, one term in twenty negated, every term a tie after 2^23, random bits from subnormals to 2; 1 to 5,000 terms a row in 1 to 256 segments), every row compared by bits with the left-to-right fp32 loop; the first wrong row is named. The bound on the f64 sum has no mutant: it guards the conversion to an integer, and any bound from 2^24 to 2^63 gives the same sums (a larger increment never applies in an f32 binade).".to_string());
    out.report.table(table);
    out.failures += failures;
    for (_, rows) in DEVICE_TABLES {
        let (table, failures, note) = rows();
        out.report.text(note);
        out.report.table(table);
        out.failures += failures;
    }
    let (table, failures) = super::mutations_extra::cumsum_rows(b.seed);
    out.report.text(format!("The prefix-sum engine (`binade::cumsum`) with each of its shortcuts broken alone (`cumsum::Fault`, `verify::cumsum_mutants`), on {} threads in blocks of {} chunks of {} terms: every input kind at 10,000 f64 and f32 terms under every start (first-term, positive-zero, negative-zero), then a stream of -0.0 terms under first-term; every output position is compared with the loop's by bits, and the first wrong input and index are named.", crate::verify::cumsum_mutants::KILL_THREADS, crate::verify::cumsum_mutants::KILL_SHAPE.block_chunks, crate::verify::cumsum_mutants::KILL_SHAPE.chunk));
    out.report.table(table);
    out.failures += failures;
    let (table, failures) = super::mutations_extra::order_rows(b.seed);
    out.report.text("The CPU orders' engine (`binade::order::ordered_sum_in`: each accumulator or row an exact sequential sum, then the order's own adds) with each of its shortcuts broken alone (`order::Fault`, `verify::order_mutants`): every input kind at 10,007 f64 terms under interleaved:2, 4, 8 and 16, rows:7, rows:1000 and numpy, each total compared by bits with the order's loop written out term by term; the first wrong input is named.".to_string());
    out.report.table(table);
    out.failures += failures;
    let (table, failures, device_note) = super::mutations_extra::signed_rows(b.seed);
    out.report.text(format!("The signed units (`binade::signed_unit`: each start parity's increment and lowest and highest running offsets) with each rule broken alone (`signed_unit::SignedFault`, `verify::signed_mutants`), in Rust and in `kernels/binade.cuh` compiled for the host (`BINADE_SIGNED_MUTANT`, `verify::device_header_signed`): every triple of e4m3 terms, composed right-nested, from every start of binade field {}, each applied result compared by bits with the loop of the format's own adds; the first wrong one is named. {device_note}", crate::verify::signed_mutants::KILL_BINADE));
    out.report.table(table);
    out.failures += failures;
    // The headline counts the kill matrix; the engines' own tables below it say theirs here.
    let engine_failures = out.failures - matrix_failures;
    out.report.extend_headline(&if engine_failures == 0 {
        "no failed check in the engines' own mutant tables (device tables without a GPU say not run)".to_string()
    } else {
        format!("{engine_failures} failed check(s) in the engines' own mutant tables (a mutant that survived, or a correct build that was wrong)")
    });
    Ok(out)
}

/// A device table's rows: (table, failed checks, the text before it).
type DeviceTable = fn() -> (Table, u64, String);

/// The device tables a run with `only_tables` may name, each with its rows: (table, failed
/// checks, the text before it).
const DEVICE_TABLES: [(&str, DeviceTable); 2] = [
    ("fvif-warp-mutants", super::mutations_extra::fvif_warp_rows),
    ("upload-mutants", super::mutations_extra::upload_rows),
];

/// A partial run (`only_tables` in the experiment file, for a device call too short for the
/// whole matrix): only the named device tables, each as the whole run makes it; the headline
/// says it is partial. An unknown name is a configuration error.
fn device_tables_only(ctx: &Context, only: &[String]) -> Result<Outcome> {
    for name in only {
        if !DEVICE_TABLES.iter().any(|(n, _)| n == name) {
            let known: Vec<&str> = DEVICE_TABLES.iter().map(|(n, _)| *n).collect();
            anyhow::bail!(super::ConfigError::new(
                &ctx.file,
                "only_tables",
                format!("unknown table {name:?}; known: {}", known.join(", "))
            ));
        }
    }
    let mut report = Report::new(
        &ctx.name,
        "Engines' own mutant tables on the device, a partial run of the kill matrix",
    );
    let (mut failures, mut not_run) = (0, Vec::new());
    for (name, rows) in DEVICE_TABLES {
        if only.iter().any(|n| n == name) {
            let (table, f, note) = rows();
            // A table with no rows did not run (no device): that is no pass.
            if table.rows.is_empty() {
                not_run.push(name);
            }
            report.text(note);
            report.table(table);
            failures += f;
        }
    }
    let verdict = if !not_run.is_empty() {
        format!("NOT RUN: {} (no device)", not_run.join(", "))
    } else if failures == 0 {
        "no failed check (every mutant killed by a wrong result, every correct build the CPU's bits)".to_string()
    } else {
        format!("{failures} failed check(s) (a mutant that survived, or a correct build that was wrong)")
    };
    failures += not_run.len() as u64;
    report.headline(format!(
        "A partial run of `mutations` (only {}): {verdict}; the whole matrix is `binade run mutations`",
        only.join(", ")
    ));
    Ok(Outcome { report, failures })
}

/// Result of one plan mutant over every input kind and size.
struct PlanRow {
    plan: PlanKind,
    sums: u64,
    identical: u64,
    fallback: u64,
    chunks: u64,
    seconds: f64,
}

fn plan_mutants(ctx: &Context, b: &Budget) -> Result<Vec<PlanRow>> {
    let sizes: Vec<usize> = ctx.non_empty("plan_sizes", ctx.get("plan_sizes")?)?;
    let kinds = InputKind::ALL;
    let mut rows: Vec<PlanRow> = b
        .plans
        .iter()
        .map(|p| PlanRow {
            plan: p.clone(),
            sums: 0,
            identical: 0,
            fallback: 0,
            chunks: 0,
            seconds: 0.0,
        })
        .collect();
    let bar = ctx.progress((kinds.len() * sizes.len()) as u64, "plan mutants");
    for (i, &kind) in kinds.iter().enumerate() {
        for &n in &sizes {
            let cases = pipeline_cases::<F64, Mutant>(
                &Mutant::None,
                kind,
                kinds[(i + 1) % kinds.len()],
                n,
                &b.plans,
                b.seed,
            );
            for (row, c) in rows.iter_mut().zip(cases) {
                if !c.identical {
                    eprintln!("mutations: PLAN MUTANT CHANGED A RESULT: plan {} kind {} n {} seed {}: walk {:#x} loop {:#x}", c.plan, c.input, c.n, b.seed, c.walk_bits, c.loop_bits);
                }
                row.sums += 1;
                row.identical += c.identical as u64;
                row.fallback += c.fallback as u64;
                row.chunks += (c.fallback + c.applied) as u64;
                row.seconds += c.walk_seconds;
            }
            bar.inc(1);
        }
    }
    bar.finish_and_clear();
    Ok(rows)
}

/// How a mutant was killed, from the strongest evidence down.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kill {
    /// Some check saw a wrong result: bits a user would get.
    WrongResult,
    /// Only coverage checks failed: the rule refused where it must apply; no sum changes.
    CoverageOnly,
    /// No check failed.
    Survived,
}

/// The strongest kill over a row's cells.
pub fn kill_of(cells: &[Option<Tally>]) -> Kill {
    let all = cells.iter().flatten();
    if all.clone().any(|t| t.wrong > 0) {
        Kill::WrongResult
    } else if all.clone().any(|t| t.failures > 0) {
        Kill::CoverageOnly
    } else {
        Kill::Survived
    }
}

fn cell_text(t: &Option<Tally>, is_none: bool) -> (String, Option<f64>) {
    match t {
        None => ("n/a".into(), None),
        Some(t) if t.wrong > 0 => (
            format!("killed@{}", thousands(t.first_failure.unwrap_or(0) + 1)),
            Some(if is_none { 0.0 } else { 1.0 }),
        ),
        Some(t) if t.failures > 0 => (
            format!(
                "coverage@{} ({} refusals, 0 wrong)",
                thousands(t.first_failure.unwrap_or(0) + 1),
                thousands(t.refused)
            ),
            Some(if is_none { 0.0 } else { 0.75 }),
        ),
        Some(_) => ("survived".into(), Some(if is_none { 1.0 } else { 0.5 })),
    }
}

fn build_report(
    ctx: &Context,
    b: &Budget,
    rows: &[MatrixRow],
    device: &super::mutations_extra::DeviceColumn,
    plans: &[PlanRow],
) -> Outcome {
    let mut report = Report::new(
        &ctx.name,
        "Mutation testing: kill matrix of named mutants, and plan mutants",
    );
    report.text(format!(
        "Every named mutant breaks one rule of the algebra (see `src/verify/mutant.rs`; the CUDA header takes the same mutants as `-DBINADE_MUTANT=<code>`). \
         Each check of the battery runs on every mutant with the same budget: {} one-term samples per class, pipelines on every input kind at sizes {:?} with {} plans, every pair (and triple) of the tiny formats. \
         A cell says `killed@N` (the check saw a wrong result, first at its N-th sample), `coverage@N` (the check saw only refusals where the rule must apply: \
         no sum changes, the walk falls back to the loop there) or `survived`. The column `killed by` says whether any check saw a wrong result. The `none` rows are the correct algebra: they must survive everything. Seed {}, {} mode.",
        thousands(b.per_class),
        b.sizes,
        b.plans.len(),
        b.seed,
        ctx.mode()
    ));
    let mut headers: Vec<String> = vec![
        "implementation".into(),
        "mutant".into(),
        "what it breaks".into(),
    ];
    headers.extend(Check::ALL.iter().map(|c| c.name().to_string()));
    headers.push("device pipeline (GPU)".into());
    headers.push("killed by".into());
    headers.push("first failing check".into());
    let mut table = Table::new("kill-matrix", "Kill matrix", &[]);
    table.headers = headers;
    let mut failures = 0u64;
    let mut heat_rows = Vec::new();
    let mut heat_values = Vec::new();
    let mut heat_labels = Vec::new();
    for row in rows {
        let is_none = row.mutant == Mutant::None;
        let mut cells = vec![
            row.implementation.clone(),
            row.mutant.name().to_string(),
            row.mutant.description().to_string(),
        ];
        let mut values = Vec::new();
        let mut labels = Vec::new();
        for t in &row.cells {
            let (text, v) = cell_text(t, is_none);
            cells.push(text.clone());
            labels.push(text);
            values.push(v);
        }
        let dev = device.cell(&row.implementation, row.mutant);
        cells.push(dev.clone());
        let killers: Vec<(&'static str, u64)> = Check::ALL
            .iter()
            .zip(&row.cells)
            .filter_map(|(c, t)| {
                t.as_ref()
                    .filter(|t| t.failures > 0)
                    .map(|t| (c.name(), t.first_failure.unwrap_or(0) + 1))
            })
            .collect();
        let first = killers
            .first()
            .map(|(c, n)| format!("{c} after {} samples", thousands(*n)))
            .unwrap_or_else(|| "-".into());
        let kill = kill_of(&row.cells);
        cells.push(
            match kill {
                Kill::WrongResult => "a wrong result",
                Kill::CoverageOnly => "a coverage check only (no sum changes)",
                Kill::Survived => "-",
            }
            .to_string(),
        );
        cells.push(first);
        let killed = !killers.is_empty();
        if !is_none && !killed {
            values.iter_mut().for_each(|v| *v = v.map(|_| 0.0)); // a survivor of the whole battery: red row
        }
        if is_none == killed {
            failures += 1; // a surviving mutant, or a check failing on the correct algebra
        }
        table.row(cells);
        heat_rows.push(format!("{} / {}", row.implementation, row.mutant.name()));
        heat_values.push(values);
        heat_labels.push(labels);
    }
    report.table(table);
    report.text(device.note.clone());
    report.plot(Plot {
        stem: "kill-matrix".into(),
        title: "Kill matrix (green: killed, or the correct algebra passing; amber: this check misses the mutant; red: a survivor of every check)".into(),
        kind: PlotKind::Heatmap { rows: heat_rows, cols: Check::ALL.iter().map(|c| c.name().to_string()).collect(), values: heat_values, labels: heat_labels },
    });

    let mut pt = Table::new(
        "plan-mutants",
        "Plan mutants: every result must stay identical; the cost is term-by-term chunks",
        &[
            "plan",
            "sums",
            "identical",
            "chunks",
            "term-by-term chunks",
            "pipeline seconds (all sums)",
        ],
    );
    let mut plan_failures = 0;
    for p in plans {
        plan_failures += p.sums - p.identical;
        pt.row(vec![
            p.plan.name(),
            p.sums.to_string(),
            p.identical.to_string(),
            thousands(p.chunks),
            thousands(p.fallback),
            format!("{:.3}", p.seconds),
        ]);
    }
    report.table(pt);
    report.text(super::mutations_extra::cargo_mutants_section());
    failures += plan_failures + device.failures;
    let named: Vec<&MatrixRow> = rows.iter().filter(|r| r.mutant != Mutant::None).collect();
    let by = |k: Kill| named.iter().filter(|r| kill_of(&r.cells) == k).count();
    let coverage_only: Vec<String> = named
        .iter()
        .filter(|r| kill_of(&r.cells) == Kill::CoverageOnly)
        .map(|r| format!("{}/{}", r.implementation, r.mutant.name()))
        .collect();
    report.headline(format!(
        "{} of {} named mutants (Rust algebra and host-compiled header) killed by a wrong result, {} only by a coverage check{}, {} survived; {} plan mutants changed {} of {} results",
        by(Kill::WrongResult),
        named.len(),
        by(Kill::CoverageOnly),
        if coverage_only.is_empty() { String::new() } else { format!(" ({})", coverage_only.join(", ")) },
        by(Kill::Survived),
        plans.len(),
        plan_failures,
        plans.iter().map(|p| p.sums).sum::<u64>()
    ));
    Outcome { report, failures }
}

#[cfg(test)]
mod tests {
    use super::engine_mutant_cells;

    /// A survivor, a wrong engine and an error each count as a failure; a kill and an exact
    /// engine do not.
    #[test]
    fn engine_mutant_cells_count_what_fails() {
        let mut f = 0;
        let ok = engine_mutant_cells(true, Ok((5, None)), "exact", &mut f);
        assert_eq!((ok.1.as_str(), f), ("exact", 0));
        let killed = engine_mutant_cells(false, Ok((3, Some("case".into()))), "exact", &mut f);
        assert_eq!(
            (killed.1.as_str(), killed.2.as_str(), f),
            ("killed by a wrong result", "case", 0)
        );
        let survived = engine_mutant_cells(false, Ok((9, None)), "exact", &mut f);
        assert_eq!((survived.1.as_str(), f), ("SURVIVED", 1));
        let wrong = engine_mutant_cells(true, Ok((1, Some("c".into()))), "exact", &mut f);
        assert_eq!((wrong.1.as_str(), f), ("WRONG (the correct build)", 2));
        let err = engine_mutant_cells(
            false,
            Err(anyhow::anyhow!("no kernel\nlog")),
            "exact",
            &mut f,
        );
        assert_eq!((err.0, err.1.as_str(), f), (0, "error: no kernel", 3));
    }
}

#[cfg(test)]
mod only_tables_tests {
    use super::*;
    use std::path::PathBuf;

    fn context(only: &[&str]) -> Context {
        let mut params = toml::Table::new();
        params.insert(
            "only_tables".into(),
            toml::Value::Array(only.iter().map(|s| toml::Value::from(*s)).collect()),
        );
        Context {
            name: "mutations-partial".into(),
            file: PathBuf::from("experiments/reduced/mutations-partial.toml"),
            quick: true,
            seed: 1,
            samples: None,
            params,
            out_dir: PathBuf::from("out"),
            experiments: None,
        }
    }

    /// An unknown table name is refused with the field named, not run as an empty pass.
    #[test]
    fn an_unknown_table_is_a_configuration_error() {
        let err = match run(&context(&["no-such-table"])) {
            Ok(_) => panic!("an unknown table ran"),
            Err(e) => format!("{e:#}"),
        };
        assert!(
            err.contains("only_tables") && err.contains("no-such-table"),
            "{err}"
        );
    }

    /// A named table that could not run (no rows) fails the run and its headline says so;
    /// with rows, a table's own failed checks are counted. Checked on the upload table,
    /// which has no rows without a device and two with one.
    #[test]
    fn a_table_that_did_not_run_is_no_pass() {
        let _device = crate::gpu::upload::one_device_test_at_a_time();
        let out = match run(&context(&["upload-mutants"])) {
            Ok(o) => o,
            Err(e) => panic!("the partial run failed: {e:#}"),
        };
        let ran = crate::gpu::Gpu::open().is_ok();
        if ran {
            assert!(!out.report.headline.contains("NOT RUN"));
        } else {
            assert_eq!(out.failures, 1);
            assert!(out.report.headline.contains("NOT RUN: upload-mutants"));
        }
    }
}
