//! Experiment `cargo-mutants`: generic mutation testing of the algebra modules with
//! `cargo-mutants`, its score computed from the run's own output, and every missed mutant
//! with its verdict.
//!
//! A missed mutant is *equivalent* only when the experiment file lists its text (file,
//! replacement and function, without line and column, so the key survives edits elsewhere in
//! the file) with the reason. A key that names more than one mutant of the run is ambiguous
//! and counts as an open gap, as does every missed mutant it does not name; the run fails
//! (exit 1) while any gap is open. Keys that named no missed mutant are listed as stale.
//!
//! With `BINADE_MUTANTS_OUT=DIR` the runner does not start cargo-mutants but reads the
//! `mutants.out` folder `DIR` of an earlier run (for example one made in the background);
//! the report then says whether every mutant that run listed was tested, and
//! `BINADE_MUTANTS_PASSES`, when set, describes the run's passes (for example the commits of
//! a first pass and of an `--iterate` pass) in the report.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context as _, Result};

use super::{ConfigError, Context, Outcome};
use crate::plot::{Plot, PlotKind};
use crate::report::{Report, Table};

/// The outcome lists of one cargo-mutants run, one line per mutant.
#[derive(Debug, Default)]
pub struct Outcomes {
    /// A test failed (in this pass, or in an earlier pass of an `--iterate` run).
    pub caught: Vec<String>,
    /// Of `caught`, how many were caught in an earlier pass (`previously_caught.txt`).
    pub caught_earlier: usize,
    /// Every test passed.
    pub missed: Vec<String>,
    /// The mutant did not build.
    pub unviable: Vec<String>,
    /// The tests ran past the timeout (counted as caught, as cargo-mutants does).
    pub timeouts: Vec<String>,
    /// How many mutants the run listed (`mutants.json`), when known.
    pub listed: Option<usize>,
}

impl Outcomes {
    /// Reads a `mutants.out` folder.
    pub fn read(dir: &Path) -> Result<Outcomes> {
        if !dir.join("outcomes.json").exists() && !dir.join("mutants.json").exists() {
            bail!(
                "{}: not a cargo-mutants output folder (no outcomes.json or mutants.json)",
                dir.display()
            );
        }
        let lines = |file: &str| -> Vec<String> {
            std::fs::read_to_string(dir.join(file))
                .map(|s| {
                    s.lines()
                        .map(str::trim)
                        .filter(|l| !l.is_empty())
                        .map(str::to_string)
                        .collect()
                })
                .unwrap_or_default()
        };
        let listed = std::fs::read_to_string(dir.join("mutants.json"))
            .ok()
            .and_then(|t| serde_json::from_str::<Vec<serde_json::Value>>(&t).ok())
            .map(|v| v.len());
        // An `--iterate` pass lists the mutants caught *or unviable* in earlier passes in
        // previously_caught.txt; the earlier pass's own unviable list (kept beside it in
        // mutants.out.old) tells the two apart.
        let earlier = lines("previously_caught.txt");
        let old_unviable: std::collections::HashSet<String> = dir
            .parent()
            .map(|p| p.join("mutants.out.old").join("unviable.txt"))
            .and_then(|f| std::fs::read_to_string(f).ok())
            .map(|t| t.lines().map(|l| l.trim().to_string()).collect())
            .unwrap_or_default();
        let (earlier_unviable, earlier_caught): (Vec<String>, Vec<String>) =
            earlier.into_iter().partition(|l| old_unviable.contains(l));
        let mut caught = lines("caught.txt");
        let caught_earlier = earlier_caught.len();
        caught.extend(earlier_caught);
        let mut unviable = lines("unviable.txt");
        unviable.extend(earlier_unviable);
        Ok(Outcomes {
            caught,
            caught_earlier,
            missed: lines("missed.txt"),
            unviable,
            timeouts: lines("timeout.txt"),
            listed,
        })
    }

    /// Every mutant tested, whatever its outcome.
    pub fn tested(&self) -> usize {
        self.caught.len() + self.missed.len() + self.unviable.len() + self.timeouts.len()
    }

    fn all(&self) -> impl Iterator<Item = &String> {
        self.caught
            .iter()
            .chain(&self.missed)
            .chain(&self.unviable)
            .chain(&self.timeouts)
    }
}

/// A mutant's line without its position: `src/unit.rs:122:10: replace > with >= in f`
/// becomes `src/unit.rs: replace > with >= in f`.
pub fn mutant_key(line: &str) -> String {
    let mut parts = line.splitn(4, ':');
    let file = parts.next().unwrap_or("");
    let (l, c) = (parts.next(), parts.next());
    let is_num = |p: Option<&str>| {
        p.is_some_and(|p| !p.is_empty() && p.chars().all(|ch| ch.is_ascii_digit()))
    };
    match parts.next() {
        Some(rest) if is_num(l) && is_num(c) => format!("{file}:{rest}"),
        _ => line.to_string(),
    }
}

/// The verdict on one missed mutant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Listed as equivalent, with the reason.
    Equivalent(String),
    /// Its key matches several mutants of the run: the entry cannot say which is meant.
    Ambiguous(usize),
    /// No entry: no test kills it.
    Gap,
}

/// Judges every missed mutant against the equivalence list. Returns the verdicts (in the
/// order of `outcomes.missed`) and the keys of the list that matched no missed mutant.
pub fn judge(
    outcomes: &Outcomes,
    equivalent: &BTreeMap<String, String>,
) -> (Vec<(String, Verdict)>, Vec<String>) {
    let mut per_key: BTreeMap<String, usize> = BTreeMap::new();
    for line in outcomes.all() {
        *per_key.entry(mutant_key(line)).or_default() += 1;
    }
    let mut used = BTreeSet::new();
    let verdicts = outcomes
        .missed
        .iter()
        .map(|line| {
            let key = mutant_key(line);
            let verdict = match equivalent.get(&key) {
                None => Verdict::Gap,
                Some(reason) => {
                    used.insert(key.clone());
                    match per_key.get(&key).copied().unwrap_or(0) {
                        n if n > 1 => Verdict::Ambiguous(n),
                        _ => Verdict::Equivalent(reason.clone()),
                    }
                }
            };
            (line.clone(), verdict)
        })
        .collect();
    let stale = equivalent
        .keys()
        .filter(|k| !used.contains(*k))
        .cloned()
        .collect();
    (verdicts, stale)
}

/// Runs the experiment (see the module doc).
pub fn run(ctx: &Context) -> Result<Outcome> {
    let files: Vec<String> = ctx.non_empty("files", ctx.get("files")?)?;
    let test_args: Vec<String> = ctx.get("test_args")?;
    let timeout: u64 = ctx.get_or("timeout", 300)?;
    let equivalent: BTreeMap<String, String> = ctx.get_or("equivalent", BTreeMap::new())?;
    if files.is_empty() {
        bail!(ConfigError::new(
            &ctx.file,
            "files",
            "must name at least one file"
        ));
    }
    if let Some(dir) = std::env::var_os("BINADE_MUTANTS_OUT") {
        let outcomes = Outcomes::read(&PathBuf::from(&dir))?;
        let mut outcome = build_report(ctx, &files, &test_args, &outcomes, &equivalent);
        outcome.report.text(format!(
            "Read from the output folder of a cargo-mutants run made outside this command (`BINADE_MUTANTS_OUT={}`){}.",
            PathBuf::from(&dir).display(),
            std::env::var("BINADE_MUTANTS_PASSES")
                .map(|p| format!("; its passes: {p}"))
                .unwrap_or_default()
        ));
        return Ok(outcome);
    }
    if Command::new("cargo")
        .args(["mutants", "--version"])
        .output()
        .map(|o| !o.status.success())
        .unwrap_or(true)
    {
        bail!("cargo-mutants is not installed: run `cargo install --locked cargo-mutants` (or `just mutants`)");
    }
    let out = std::env::temp_dir().join(format!("binade-mutants-{}", std::process::id()));
    std::fs::create_dir_all(&out)?;
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
    // As cargo arguments, not after `--`: cargo-mutants passes `--` arguments to the test
    // run only, so each mutant's build (`cargo test --no-run`) compiled every test binary of
    // the package (32) to run four; `--cargo-arg` reaches the build as well.
    for a in &test_args {
        cmd.arg(format!("--cargo-arg={a}"));
    }
    eprintln!("cargo-mutants: running {cmd:?} (this takes a while)");
    let status = cmd.status().context("starting cargo mutants")?;
    // cargo-mutants exits 2 when mutants are missed, 3 on timeouts: both still wrote outcomes.
    if !matches!(status.code(), Some(0) | Some(2) | Some(3)) {
        bail!("cargo mutants failed with {status}");
    }
    let outcomes = Outcomes::read(&out.join("mutants.out"))?;
    let _ = std::fs::remove_dir_all(&out);
    Ok(build_report(
        ctx,
        &files,
        &test_args,
        &outcomes,
        &equivalent,
    ))
}

fn build_report(
    ctx: &Context,
    files: &[String],
    test_args: &[String],
    outcomes: &Outcomes,
    equivalent: &BTreeMap<String, String>,
) -> Outcome {
    let mut report = Report::new(&ctx.name, "Generic mutation testing with cargo-mutants");
    report.text(format!(
        "`cargo mutants --profile mutants` on {} with the tests `cargo test {}` (given as `--cargo-arg`, so that each mutant's build compiles only these test binaries). Each mutant is a small source change made by cargo-mutants; \
         caught means a test failed (a timeout counts as caught), missed means every test passed, unviable means it did not build. \
         Every figure below is counted from this run's output folder. A missed mutant is equivalent only where `experiments/cargo-mutants.toml` \
         lists its text (file, replacement and function; no line numbers) with the reason; any other missed mutant is an open gap.",
        files.iter().map(|f| format!("`{f}`")).collect::<Vec<_>>().join(", "),
        test_args.join(" ")
    ));
    if outcomes.caught_earlier > 0 {
        report.text(format!(
            "This output accumulates passes (`cargo mutants --iterate`): {} mutants were caught in an earlier pass; the later pass re-tested every mutant that was not caught or unviable before, on the tree this report was built from.",
            outcomes.caught_earlier
        ));
    }
    let completeness = match outcomes.listed {
        Some(n) if n > outcomes.tested() => format!(
            "incomplete run: {} of the {n} mutants it listed were tested",
            outcomes.tested()
        ),
        Some(n) if outcomes.caught_earlier > 0 => format!(
            "complete: {n} tested in the last pass, {} caught in earlier passes",
            outcomes.caught_earlier
        ),
        Some(n) => format!("a complete run of {n} mutants"),
        None => "a run whose mutant list was not found".to_string(),
    };
    let (verdicts, stale) = judge(outcomes, equivalent);
    let gaps = verdicts
        .iter()
        .filter(|(_, v)| !matches!(v, Verdict::Equivalent(_)))
        .count();
    let equivalents = verdicts.len() - gaps;
    let viable = outcomes.caught.len() + outcomes.missed.len() + outcomes.timeouts.len();
    let killed = outcomes.caught.len() + outcomes.timeouts.len();
    let mut score = Table::new(
        "score",
        "Score",
        &[
            "caught",
            "timeout",
            "missed equivalent",
            "missed gap",
            "unviable",
            "total",
            "caught / viable (%)",
            "caught / (viable - equivalent) (%)",
        ],
    );
    let pct = |a: usize, b: usize| format!("{:.1}", 100.0 * a as f64 / b.max(1) as f64);
    score.row(vec![
        outcomes.caught.len().to_string(),
        outcomes.timeouts.len().to_string(),
        equivalents.to_string(),
        gaps.to_string(),
        outcomes.unviable.len().to_string(),
        outcomes.tested().to_string(),
        pct(killed, viable),
        pct(killed, viable - equivalents),
    ]);
    report.table(score);
    let mut table = Table::new("missed", "Missed mutants", &["mutant", "verdict"]);
    for (line, verdict) in &verdicts {
        let v = match verdict {
            Verdict::Equivalent(r) => format!("equivalent: {r}"),
            Verdict::Ambiguous(n) => format!(
                "GAP: the equivalence key `{}` names {n} mutants of this run",
                mutant_key(line)
            ),
            Verdict::Gap => "GAP: no test kills it".to_string(),
        };
        table.row(vec![format!("`{line}`"), v]);
    }
    report.table(table);
    if !stale.is_empty() {
        let mut t = Table::new(
            "stale",
            "Equivalence entries that named no missed mutant",
            &["key"],
        );
        for k in &stale {
            t.row(vec![format!("`{k}`")]);
        }
        report.table(t);
    }
    report.plot(Plot {
        stem: "score".into(),
        title: "cargo-mutants outcomes (missed: equivalent cannot change a result)".into(),
        kind: PlotKind::Bars {
            categories: vec![
                "caught".into(),
                "timeout".into(),
                "missed: equivalent".into(),
                "missed: gap".into(),
                "unviable".into(),
            ],
            series: vec![(
                "mutants".into(),
                vec![
                    outcomes.caught.len() as f64,
                    outcomes.timeouts.len() as f64,
                    equivalents as f64,
                    gaps as f64,
                    outcomes.unviable.len() as f64,
                ],
            )],
            x_label: "outcome".into(),
            y_label: "mutants (count)".into(),
            log_y: false,
        },
    });
    report.headline(format!(
        "{} mutants ({completeness}): {} caught, {} timeouts, {} missed ({equivalents} equivalent, {gaps} open gaps), {} unviable",
        outcomes.tested(),
        outcomes.caught.len(),
        outcomes.timeouts.len(),
        outcomes.missed.len(),
        outcomes.unviable.len(),
    ));
    let incomplete = outcomes.listed.is_some_and(|n| n > outcomes.tested()) as u64;
    Outcome {
        report,
        failures: gaps as u64 + incomplete,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_drop_line_and_column_only() {
        assert_eq!(
            mutant_key("src/unit.rs:122:10: replace > with >= in term_unit"),
            "src/unit.rs: replace > with >= in term_unit"
        );
        assert_eq!(mutant_key("no position here"), "no position here");
    }

    #[test]
    fn unlisted_and_ambiguous_mutants_are_gaps() {
        let outcomes = Outcomes {
            caught: vec!["src/a.rs:3:1: replace + with - in f".into()],
            missed: vec![
                "src/a.rs:9:4: replace + with - in f".into(),
                "src/a.rs:10:4: replace > with >= in g".into(),
                "src/a.rs:11:4: replace h -> u64 with 0".into(),
            ],
            ..Default::default()
        };
        let eq: BTreeMap<String, String> = [
            ("src/a.rs: replace + with - in f", "ambiguous"),
            ("src/a.rs: replace > with >= in g", "a reason"),
            ("src/a.rs: replace gone with 1", "stale"),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
        let (v, stale) = judge(&outcomes, &eq);
        assert_eq!(v[0].1, Verdict::Ambiguous(2));
        assert_eq!(v[1].1, Verdict::Equivalent("a reason".into()));
        assert_eq!(v[2].1, Verdict::Gap);
        assert_eq!(stale, vec!["src/a.rs: replace gone with 1".to_string()]);
    }
}
