//! Experiment `cargo-mutants`: generic mutation testing of the algebra modules with
//! `cargo-mutants`, its score, and every missed mutant with the reason it is equivalent (from
//! the experiment file) or marked as a gap.
//!
//! With `BINADE_MUTANTS_OUT=DIR` the runner does not start cargo-mutants but reads the
//! `mutants.out` folder `DIR` of an earlier (possibly interrupted) run; the report then says
//! how many of the listed mutants were tested.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use anyhow::{bail, Context as _, Result};

use super::{ConfigError, Context, Outcome};
use crate::plot::{Plot, PlotKind};
use crate::report::{Report, Table};

fn read_lines(dir: &Path, file: &str) -> Vec<String> {
    std::fs::read_to_string(dir.join(file))
        .map(|s| {
            s.lines()
                .map(str::to_string)
                .filter(|l| !l.trim().is_empty())
                .collect()
        })
        .unwrap_or_default()
}

/// Runs the experiment (see the module doc).
pub fn run(ctx: &Context) -> Result<Outcome> {
    let files: Vec<String> = ctx.get("files")?;
    let test_args: Vec<String> = ctx.get("test_args")?;
    let timeout: u64 = ctx.get_or("timeout", 300)?;
    let equivalent: BTreeMap<String, String> = ctx.get_or("equivalent", BTreeMap::new())?;
    let closed: BTreeMap<String, String> = ctx.get_or("closed", BTreeMap::new())?;
    if files.is_empty() {
        bail!(ConfigError::new(
            &ctx.file,
            "files",
            "must name at least one file"
        ));
    }
    if let Some(dir) = std::env::var_os("BINADE_MUTANTS_OUT") {
        return from_earlier_run(
            ctx,
            &std::path::PathBuf::from(dir),
            &files,
            &test_args,
            &equivalent,
            &closed,
        );
    }
    if Command::new("cargo")
        .args(["mutants", "--version"])
        .output()
        .map(|o| !o.status.success())
        .unwrap_or(true)
    {
        bail!("cargo-mutants is not installed: run `cargo install --locked cargo-mutants` (or `just mutants`)");
    }
    let out = tempfile_dir()?;
    let mut cmd = Command::new("cargo");
    cmd.args([
        "mutants",
        "--no-shuffle",
        "--timeout",
        &timeout.to_string(),
        "--profile",
        "mutants",
        "--output",
    ])
    .arg(&out);
    for f in &files {
        cmd.args(["--file", f]);
    }
    cmd.arg("--").args(&test_args);
    eprintln!("cargo-mutants: running {:?} (this takes a while)", cmd);
    let status = cmd.status().context("starting cargo mutants")?;
    // cargo-mutants exits 2 when mutants are missed, 3 on timeouts: both still wrote outcomes.
    if !matches!(status.code(), Some(0) | Some(2) | Some(3)) {
        bail!("cargo mutants failed with {status}");
    }
    let dir = out.join("mutants.out");
    let caught = read_lines(&dir, "caught.txt");
    let missed = read_lines(&dir, "missed.txt");
    let unviable = read_lines(&dir, "unviable.txt");
    let timeouts = read_lines(&dir, "timeout.txt");
    let _ = std::fs::remove_dir_all(&out);
    Ok(build_report(
        ctx,
        &files,
        &test_args,
        &caught,
        &missed,
        &unviable,
        &timeouts,
        &equivalent,
        &closed,
    ))
}

/// The report of an earlier (possibly interrupted) run, from its `mutants.out` folder.
fn from_earlier_run(
    ctx: &Context,
    dir: &Path,
    files: &[String],
    test_args: &[String],
    equivalent: &BTreeMap<String, String>,
    closed: &BTreeMap<String, String>,
) -> Result<Outcome> {
    let lists: Vec<Vec<String>> = ["caught.txt", "missed.txt", "unviable.txt", "timeout.txt"]
        .iter()
        .map(|f| read_lines(dir, f))
        .collect();
    if !dir.join("mutants.json").exists() {
        bail!(
            "{}: not a cargo-mutants output folder (no mutants.json)",
            dir.display()
        );
    }
    let listed = std::fs::read_to_string(dir.join("mutants.json"))
        .ok()
        .and_then(|t| serde_json::from_str::<Vec<serde_json::Value>>(&t).ok())
        .map(|v| v.len());
    let tested: usize = lists.iter().map(Vec::len).sum();
    let mut outcome = build_report(
        ctx, files, test_args, &lists[0], &lists[1], &lists[2], &lists[3], equivalent, closed,
    );
    let note = match listed {
        Some(n) if n > tested => format!(
            "read from a cargo-mutants run stopped before its end: {tested} of the {n} mutants it listed were tested, in source order; the rest were not run"
        ),
        Some(n) => format!("read from a finished cargo-mutants run of {n} mutants"),
        None => "read from an earlier cargo-mutants run".to_string(),
    };
    outcome.report.text(format!("This report was {note}."));
    let headline = format!("{} ({note})", outcome.report.headline);
    outcome.report.headline(headline);
    Ok(outcome)
}

fn tempfile_dir() -> Result<std::path::PathBuf> {
    let dir = std::env::temp_dir().join(format!("binade-mutants-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}

#[allow(clippy::too_many_arguments)]
fn build_report(
    ctx: &Context,
    files: &[String],
    test_args: &[String],
    caught: &[String],
    missed: &[String],
    unviable: &[String],
    timeouts: &[String],
    equivalent: &BTreeMap<String, String>,
    closed: &BTreeMap<String, String>,
) -> Outcome {
    let mut report = Report::new(&ctx.name, "Generic mutation testing with cargo-mutants");
    report.text(format!(
        "`cargo mutants --profile mutants` on {} with the tests `cargo test {}`. Each mutant is a small source change made by cargo-mutants; \
         caught means a test failed, missed means every test passed, unviable means it did not compile. \
         Missed mutants are either listed as equivalent in `experiments/cargo-mutants.toml` (with the reason), listed there as gaps closed by a test added after the run, or count as open gaps.",
        files.iter().map(|f| format!("`{f}`")).collect::<Vec<_>>().join(", "),
        test_args.join(" ")
    ));
    let total = caught.len() + missed.len() + unviable.len() + timeouts.len();
    let mut score = Table::new(
        "score",
        "Score",
        &[
            "caught",
            "missed",
            "unviable",
            "timeout",
            "total",
            "caught / viable",
        ],
    );
    let viable = caught.len() + missed.len() + timeouts.len();
    score.row(vec![
        caught.len().to_string(),
        missed.len().to_string(),
        unviable.len().to_string(),
        timeouts.len().to_string(),
        total.to_string(),
        format!(
            "{:.1}%",
            100.0 * (caught.len() + timeouts.len()) as f64 / viable.max(1) as f64
        ),
    ]);
    report.table(score);
    let mut gaps = 0u64;
    let mut closed_gaps = 0u64;
    let mut table = Table::new("missed", "Missed mutants", &["mutant", "verdict"]);
    for m in missed {
        let find = |map: &BTreeMap<String, String>| {
            map.iter()
                .find(|(k, _)| m.contains(k.as_str()))
                .map(|(_, v)| v.clone())
        };
        let reason = find(equivalent)
            .map(|v| format!("equivalent: {v}"))
            .or_else(|| find(closed).map(|v| format!("gap, closed after this run by {v}")));
        match &reason {
            None => gaps += 1,
            Some(r) if r.starts_with("gap") => closed_gaps += 1,
            Some(_) => {}
        }
        table.row(vec![
            format!("`{m}`"),
            reason.unwrap_or_else(|| "GAP: no test kills it".into()),
        ]);
    }
    report.table(table);
    report.plot(Plot {
        stem: "score".into(),
        title: "cargo-mutants outcomes".into(),
        kind: PlotKind::Bars {
            categories: vec![
                "caught".into(),
                "missed".into(),
                "unviable".into(),
                "timeout".into(),
            ],
            series: vec![(
                "mutants".into(),
                vec![
                    caught.len() as f64,
                    missed.len() as f64,
                    unviable.len() as f64,
                    timeouts.len() as f64,
                ],
            )],
            y_label: "mutants".into(),
            log_y: false,
        },
    });
    report.headline(format!(
        "{} mutants: {} caught, {} missed ({} equivalent, {} gaps closed by later tests, {} open gaps), {} unviable, {} timeouts",
        total,
        caught.len(),
        missed.len(),
        missed.len() as u64 - gaps - closed_gaps,
        closed_gaps,
        gaps,
        unviable.len(),
        timeouts.len()
    ));
    Outcome {
        report,
        failures: gaps,
    }
}
