//! Where `binade run` writes, what it refuses, and `binade list`, run from folders that are not
//! the project root: quick and ad-hoc runs never touch `reports/`, `--out DIR` writes only
//! inside DIR, a run that would check nothing (zero or negative samples, an override the
//! experiment ignores) exits with code 2 and one line, and the experiment files come from the
//! binary itself.

use std::fs;
use std::path::Path;
use std::process::Command;

fn binade() -> Command {
    Command::new(binade::cli::binary_under_test(env!("CARGO_BIN_EXE_binade")))
}

/// (exit code, stdout, stderr) of `binade ARGS` run in `dir`.
fn run_in(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = binade()
        .current_dir(dir)
        .args(args)
        .output()
        .expect("binade runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

/// A folder with a committed-looking `reports/one-term-rule` and index.
fn with_committed_report() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir_all(dir.path().join("reports/one-term-rule")).unwrap();
    fs::write(
        dir.path().join("reports/one-term-rule/README.md"),
        "committed report",
    )
    .unwrap();
    fs::write(dir.path().join("reports/README.md"), "committed index").unwrap();
    dir
}

fn committed_untouched(dir: &Path) {
    assert_eq!(
        fs::read_to_string(dir.join("reports/one-term-rule/README.md")).unwrap(),
        "committed report"
    );
    assert_eq!(
        fs::read_to_string(dir.join("reports/README.md")).unwrap(),
        "committed index"
    );
}

/// The plots' font; a missing one fails the test (a skip would read as a pass).
fn require_font() {
    binade::plot::ensure_font().expect("a TrueType font for the plots (`.ci/setup` installs fonts-dejavu-core; or set BINADE_FONT)");
}

#[test]
fn quick_run_goes_to_reports_local_and_says_so() {
    require_font();
    let dir = with_committed_report();
    let (code, out, err) = run_in(
        dir.path(),
        &["run", "one-term-rule", "--quick", "--samples", "2000"],
    );
    assert_eq!(code, 0, "{err}");
    committed_untouched(dir.path());
    let md = fs::read_to_string(dir.path().join("reports-local/one-term-rule/README.md"))
        .expect("the quick report is in reports-local");
    assert!(
        md.contains("binade run one-term-rule --quick --samples 2000\n"),
        "every override in the regenerate command: {md}"
    );
    assert!(
        out.contains("report: reports-local/one-term-rule/README.md"),
        "{out}"
    );
    assert!(!dir.path().join("reports-local/README.md").exists());
}

#[test]
fn out_writes_only_inside_its_folder() {
    require_font();
    let dir = with_committed_report();
    let (code, out, err) = run_in(
        dir.path(),
        &[
            "run",
            "one-term-rule",
            "--quick",
            "--seed",
            "7",
            "--out",
            "elsewhere/deep/otr",
        ],
    );
    assert_eq!(code, 0, "{err}");
    committed_untouched(dir.path());
    assert!(dir.path().join("elsewhere/deep/otr/README.md").exists());
    assert!(dir.path().join("elsewhere/deep/otr/samples.csv").exists());
    assert!(
        !dir.path().join("elsewhere/deep/README.md").exists(),
        "no index beside --out"
    );
    assert!(!dir.path().join("reports-local").exists());
    let names: Vec<_> = fs::read_dir(dir.path().join("elsewhere/deep"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert_eq!(names, ["otr"], "nothing else beside the report: {names:?}");
    assert!(
        out.contains("report: elsewhere/deep/otr/README.md"),
        "{out}"
    );
    let md = fs::read_to_string(dir.path().join("elsewhere/deep/otr/README.md")).unwrap();
    assert!(
        md.contains("binade run one-term-rule --quick --seed 7\n"),
        "{md}"
    );
}

#[test]
fn only_the_committed_settings_choose_reports() {
    use binade::cli::destination;
    let full = destination("x", None, true);
    assert_eq!(full.dir, Path::new("reports/x"));
    assert_eq!(full.index.as_deref(), Some(Path::new("reports")));
    let quick = destination("x", None, false);
    assert_eq!(quick.dir, Path::new("reports-local/x"));
    assert_eq!(quick.index, None);
    for committed in [true, false] {
        let out = destination("x", Some(Path::new("o/y")), committed);
        assert_eq!(out.dir, Path::new("o/y"));
        assert_eq!(out.index, None);
    }
}

/// One line on stderr, exit code 2, nothing written.
fn refused(args: &[&str], words: &str) {
    let dir = with_committed_report();
    let (code, _, err) = run_in(dir.path(), args);
    assert_eq!(code, 2, "{args:?}: {err}");
    assert_eq!(err.trim().lines().count(), 1, "one line: {err}");
    assert!(err.contains(words), "{args:?}: {err}");
    assert!(!err.contains("tip:") && !err.contains("field"), "{err}");
    committed_untouched(dir.path());
    assert!(!dir.path().join("reports-local").exists());
}

#[test]
fn a_run_that_checks_nothing_is_refused() {
    refused(
        &["run", "one-term-rule", "--samples", "0"],
        "--samples 0 would check nothing",
    );
    refused(
        &["run", "one-term-rule", "--samples", "-5"],
        "cannot be negative",
    );
    refused(
        &["run", "one-term-rule", "--samples", "many"],
        "not a whole number",
    );
    refused(
        &["run", "pipeline-plans", "--samples", "1000"],
        "pipeline-plans takes no sample count",
    );
    refused(
        &["run", "ssimulacra2-crate", "--seed", "3"],
        "draws nothing at random",
    );
}

/// An experiment file whose list of what it checks is empty is refused with one line.
#[test]
fn an_empty_list_of_what_to_check_is_refused() {
    // The project root is the working folder (cargo's and the GPU machine's), not the
    // compile-time source path, which need not exist where the binary runs.
    let root = Path::new(".");
    for (name, line) in [
        ("pipeline-plans", "kinds = []"),
        ("pipeline-plans", "plans = []"),
        ("mutations", "sizes = []"),
        ("cpu-timing", "sizes = []"),
        ("ssimulacra2-plan-reuse", "fixtures = []"),
    ] {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let text = fs::read_to_string(root.join("experiments").join(format!("{name}.toml")))
            .expect("the committed experiment file");
        // The line goes into [params] and into both modes, so neither mode can refill it.
        let key = line.split('=').next().unwrap_or("").trim();
        let mut out = String::new();
        for l in text.lines() {
            if l.trim_start().starts_with(&format!("{key} "))
                || l.trim_start().starts_with(&format!("{key}="))
            {
                continue;
            }
            out.push_str(l);
            out.push('\n');
            if l.trim() == "[params]" || l.trim() == "[quick]" || l.trim() == "[full]" {
                out.push_str(line);
                out.push('\n');
            }
        }
        fs::write(dir.path().join(format!("{name}.toml")), out).expect("writes the file");
        let exp = dir.path().display().to_string();
        let (code, _, err) = run_in(dir.path(), &["run", name, "--experiments", &exp, "--quick"]);
        assert_eq!(code, 2, "{name} with `{line}`: {err}");
        // The line saying where the run would write comes first; the refusal is one line.
        let refusal: Vec<&str> = err
            .lines()
            .filter(|l| !l.starts_with("binade: running "))
            .collect();
        assert_eq!(refusal.len(), 1, "{name}: one line: {err}");
        assert!(
            err.contains("would check nothing"),
            "{name} with `{line}`: {err}"
        );
        assert!(
            !dir.path().join("reports-local").exists(),
            "{name}: wrote a report"
        );
    }
}

#[test]
fn unknown_experiment_suggests_close_names() {
    refused(
        &["run", "one-term-rul"],
        "unknown experiment `one-term-rul`; did you mean `one-term-rule`?",
    );
}

#[test]
fn list_works_from_any_folder_and_marks_gpu_experiments() {
    let dir = tempfile::tempdir().unwrap();
    let (code, out, err) = run_in(dir.path(), &["list"]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    let row = |name: &str| {
        lines
            .iter()
            .find(|l| l.split_whitespace().next() == Some(name))
            .copied()
            .unwrap_or_else(|| panic!("{name} not listed: {out}"))
    };
    assert!(row("gpu-timing").contains(binade::cli::GPU_MARK), "{out}");
    assert!(
        !row("one-term-rule").contains(binade::cli::GPU_MARK),
        "{out}"
    );
}

/// The experiments of the README's table, each with whether it is marked `(GPU)`.
fn readme_experiments() -> Vec<(String, bool)> {
    let readme = fs::read_to_string("README.md").expect("tests run in the project root");
    let start = readme
        .find("| experiment | what it shows |")
        .expect("the README's table of experiments");
    readme[start..]
        .lines()
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .filter_map(|l| {
            let first = l.split('|').nth(1)?.trim();
            let name = first.split('`').nth(1)?.to_string();
            Some((name, first.contains(binade::cli::GPU_MARK)))
        })
        .collect()
}

#[test]
fn readme_lists_what_binade_list_lists() {
    let dir = tempfile::tempdir().unwrap();
    let (code, out, err) = run_in(dir.path(), &["list"]);
    assert_eq!(code, 0, "{err}");
    let listed: Vec<(String, bool)> = out
        .lines()
        .filter(|l| !l.starts_with(binade::cli::GPU_MARK))
        .filter_map(|l| {
            let name = l.split_whitespace().next()?.to_string();
            Some((name, l.contains(binade::cli::GPU_MARK)))
        })
        .collect();
    let mut readme = readme_experiments();
    readme.sort();
    assert_eq!(readme, listed, "README table against `binade list`");
}

/// The source text of the runner `name` (`src/experiment/NAME.rs`, or every file of the
/// folder `src/experiment/NAME/`).
fn runner_source(name: &str) -> String {
    let stem = name.replace('-', "_");
    let file = Path::new("src/experiment").join(format!("{stem}.rs"));
    if let Ok(text) = fs::read_to_string(&file) {
        return text;
    }
    let dir = Path::new("src/experiment").join(&stem);
    let mut text = String::new();
    for entry in fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        text.push_str(&fs::read_to_string(entry.unwrap().path()).unwrap());
    }
    text
}

#[test]
fn declared_overrides_match_what_runners_read() {
    for name in binade::experiment::RUNNERS {
        assert!(binade::experiment::runner(name).is_some(), "{name}");
        let src = runner_source(name);
        let declared = binade::experiment::overrides(name);
        assert_eq!(
            declared.seed,
            src.contains("ctx.seed"),
            "{name}: --seed declared {} but the runner {} ctx.seed",
            declared.seed,
            if src.contains("ctx.seed") {
                "reads"
            } else {
                "never reads"
            }
        );
        assert_eq!(
            declared.samples,
            src.contains("sample_count()"),
            "{name}: --samples declared {}",
            declared.samples
        );
    }
}

#[test]
fn just_recipes_show_the_build_and_keep_the_callers_folder_for_files() {
    let justfile = fs::read_to_string("justfile").expect("tests run in the project root");
    assert!(
        !justfile.contains("--quiet") && !justfile.contains(" -q "),
        "no recipe hides cargo's progress"
    );
    let sum = justfile
        .split("\n\n")
        .find(|block| block.contains("\nsum *ARGS:"))
        .expect("a sum recipe");
    assert!(sum.contains("[no-cd]"), "{sum}");
    assert!(sum.contains("justfile_directory()"), "{sum}");
    assert!(
        justfile.contains("set positional-arguments"),
        "arguments pass through whole"
    );
}

/// A stage in a log prints its first line when it starts and its `done` line when it ends,
/// both whatever the stage's length: the first on the stage's own thread, the last by its
/// printer, which the command joins before it exits. (The test set a line every 0.001 s and
/// relied on the printer's first wake before the stage ended, which a fast, loaded machine
/// did not give: call 3 of 2026-12-07-b.) So every line it asserts is certain.
#[test]
fn progress_lines_in_a_log_cover_the_exhaustive_stage() {
    require_font();
    let dir = tempfile::tempdir().unwrap();
    let out = binade()
        .current_dir(dir.path())
        .args(["run", "one-term-rule", "--quick", "--samples", "1000"])
        .env("BINADE_PROGRESS_SECS", "0.001")
        .output()
        .expect("binade runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    let line = err
        .lines()
        .find(|l| l.starts_with("progress: e4m3 every pair and triple: ") && l.contains("/512 ("))
        .unwrap_or_else(|| panic!("no progress line of the exhaustive stage: {err}"));
    assert!(
        line.contains("/s, ") && line.contains(" elapsed, ETA "),
        "{line}"
    );
    assert!(
        err.contains("progress: e4m3 every pair and triple: done after "),
        "{err}"
    );
}
