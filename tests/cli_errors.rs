//! Bad input to `binade run` and `binade list`: a one-line error naming the file and field,
//! exit code 2, and no report touched.

use std::fs;
use std::process::Command;

fn binade() -> Command {
    Command::new(binade::cli::binary_under_test(env!("CARGO_BIN_EXE_binade")))
}

/// Runs `binade ARGS` in `dir`; a `run` reads the experiment files of `dir/experiments`.
fn run_in(dir: &std::path::Path, args: &[&str]) -> (i32, String) {
    let mut args: Vec<&str> = args.to_vec();
    if args.first() == Some(&"run") {
        args.extend(["--experiments", "experiments"]);
    }
    let out = binade()
        .current_dir(dir)
        .args(&args)
        .output()
        .expect("binade runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

fn setup(toml: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir_all(dir.path().join("experiments")).unwrap();
    fs::write(dir.path().join("experiments/bad.toml"), toml).unwrap();
    fs::create_dir_all(dir.path().join("reports/bad")).unwrap();
    fs::write(dir.path().join("reports/bad/README.md"), "previous report").unwrap();
    dir
}

fn report_untouched(dir: &std::path::Path) {
    assert_eq!(
        fs::read_to_string(dir.join("reports/bad/README.md")).unwrap(),
        "previous report"
    );
}

#[test]
fn unknown_experiment() {
    let dir = setup("description = \"x\"\nrunner = \"one-term-rule\"\nseed = 1\n");
    let (code, err) = run_in(dir.path(), &["run", "nope"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("unknown experiment `nope` in experiments"),
        "{err}"
    );
    assert!(!err.contains("field"), "no internal field names: {err}");
    assert_eq!(err.trim().lines().count(), 1, "one line: {err}");
    let (code, err) = run_in(dir.path(), &["run", "bda"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("did you mean `bad`?"), "{err}");
}

#[test]
fn malformed_toml_names_file_and_line() {
    let dir = setup("description = \"x\"\nrunner = \"one-term-rule\"\nseed = [\n");
    let (code, err) = run_in(dir.path(), &["run", "bad"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("bad.toml"), "{err}");
    report_untouched(dir.path());
}

#[test]
fn wrong_field_type_names_the_field() {
    let dir = setup(
        "description = \"x\"\nrunner = \"one-term-rule\"\nseed = 1\n[params]\nsamples = \"many\"\n",
    );
    let (code, err) = run_in(dir.path(), &["run", "bad"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("bad.toml") && err.contains("`samples`"),
        "{err}"
    );
    report_untouched(dir.path());
}

#[test]
fn unknown_runner_and_unknown_field() {
    let dir = setup("description = \"x\"\nrunner = \"nothing\"\nseed = 1\n");
    let (code, err) = run_in(dir.path(), &["run", "bad"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("`runner`") && err.contains("nothing"), "{err}");
    let dir = setup("description = \"x\"\nrunner = \"one-term-rule\"\nseed = 1\ncolour = 3\n");
    let (code, err) = run_in(dir.path(), &["run", "bad"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("colour"), "{err}");
    report_untouched(dir.path());
}

#[test]
fn bad_parameter_value() {
    let dir = setup("description = \"x\"\nrunner = \"pipeline-plans\"\nseed = 1\n[params]\nkinds = [\"uniform\", \"purple\"]\n");
    let (code, err) = run_in(dir.path(), &["run", "bad"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("`kinds`") && err.contains("purple"), "{err}");
    report_untouched(dir.path());
}

#[test]
fn unknown_distribution_of_cpu_timing() {
    let dir = setup("description = \"x\"\nrunner = \"cpu-timing\"\nseed = 1\n[params]\nsizes = [1000]\ndistributions = [\"uniform\", \"normal\"]\n");
    let (code, err) = run_in(dir.path(), &["run", "bad"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("`distributions`") && err.contains("\"normal\"") && err.contains("normal-1-1"),
        "{err}"
    );
    assert_eq!(
        err.lines()
            .filter(|l| l.contains("unknown distribution"))
            .count(),
        1,
        "{err}"
    );
    report_untouched(dir.path());
}

#[test]
fn a_small_run_writes_a_whole_report() {
    let dir = setup("description = \"x\"\nrunner = \"pipeline-plans\"\nseed = 1\n[params]\nkinds = [\"uniform\", \"ssim-like\"]\nsizes = [1, 2000]\nplans = [\"tree-prefix\", \"term-by-term\"]\n");
    // A missing font fails the test: a skip would read as a pass.
    binade::plot::ensure_font().expect("a TrueType font for the plots (`.ci/setup` installs fonts-dejavu-core; or set BINADE_FONT)");
    let (code, err) = run_in(dir.path(), &["run", "bad"]);
    assert_eq!(code, 0, "{err}");
    // A file of its own is not the committed configuration: the report goes to reports-local.
    report_untouched(dir.path());
    let md = fs::read_to_string(dir.path().join("reports-local/bad/README.md")).unwrap();
    assert!(md.contains("8 of 8 sums bit-identical"), "{md}");
    assert!(
        md.contains("binade run bad --experiments experiments"),
        "{md}"
    );
    for f in ["plans.csv", "cases.csv", "fallback-chunks.png"] {
        assert!(
            dir.path().join("reports-local/bad").join(f).exists(),
            "{f} missing"
        );
    }
    assert!(!dir.path().join("reports/README.md").exists());
    assert!(!dir.path().join("reports-local/README.md").exists());
}
