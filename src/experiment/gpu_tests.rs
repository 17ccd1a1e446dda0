//! Experiment `gpu-tests`: the project's test binaries, built on another machine and carried
//! to the GPU machine, run there with `BINADE_REQUIRE_GPU=1`, so that every GPU test runs on
//! the device or fails; a skip cannot pass.
//!
//! `scripts/stage-device.sh` builds the binaries (`cargo test --release --no-run`), strips
//! them into `.devbin/tests/` and writes `.devbin/tests/MANIFEST.tsv` (one line per binary:
//! the test target's name, its file, and the commit and dirty flag of the build). This runner
//! runs each binary from the project root (where the fixtures are), with `BINADE_BIN` naming
//! the carried `binade` for the tests that start it, parses libtest's summary line, and counts
//! `skipped:` lines (printed by `binade::gpu::require::skip`, which with the variable set
//! fails instead: the count must be 0).
//!
//! Failures: a failed test, a binary that exits non-zero or prints no summary, a skip, a
//! binary built from another commit than the runner, or a manifest that lists no binary.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use anyhow::{bail, Context as _, Result};

use super::{Context, Outcome};
use crate::gpu::require::REQUIRE_GPU_VAR;
use crate::gpu::Gpu;
use crate::provenance;
use crate::report::{Report, Table};

/// One line of the manifest.
#[derive(Clone, Debug)]
pub struct Staged {
    /// The test target (`gpu_ordered_sum`, `binade` for the library's unit tests).
    pub target: String,
    /// The stripped binary.
    pub file: PathBuf,
    /// The commit it was built from, with `-dirty` for a tree with changes.
    pub commit: String,
}

/// libtest's counts for one binary.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Tests that passed.
    pub passed: u64,
    /// Tests that failed.
    pub failed: u64,
    /// Tests marked `#[ignore]` (not run).
    pub ignored: u64,
}

/// Reads the manifest written by `scripts/stage-device.sh`.
pub fn read_manifest(path: &Path) -> Result<Vec<Staged>> {
    let text = std::fs::read_to_string(path).with_context(|| {
        format!(
            "{}: no staged test binaries (run scripts/stage-device.sh on the build machine)",
            path.display()
        )
    })?;
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut out = Vec::new();
    for (n, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let f: Vec<&str> = line.split('\t').collect();
        let [target, file, commit] = f[..] else {
            bail!(
                "{}:{}: expected 3 tab-separated fields, found {}",
                path.display(),
                n + 1,
                f.len()
            );
        };
        out.push(Staged {
            target: target.to_string(),
            file: dir.join(file),
            commit: commit.to_string(),
        });
    }
    Ok(out)
}

/// Sums every `test result:` line of libtest's output (a binary prints one).
pub fn parse_counts(stdout: &str) -> Option<Counts> {
    let mut found = None;
    for line in stdout.lines().filter(|l| l.starts_with("test result:")) {
        let c: &mut Counts = found.get_or_insert_with(Counts::default);
        let count = |word: &str| {
            line.split(';')
                .find_map(|part| {
                    let part = part.trim().trim_start_matches("test result:").trim();
                    let part = part.split_once(". ").map_or(part, |(_, p)| p);
                    part.strip_suffix(word)?.trim().parse::<u64>().ok()
                })
                .unwrap_or(0)
        };
        c.passed += count("passed");
        c.failed += count("failed");
        c.ignored += count("ignored");
    }
    found
}

/// The failing tests of libtest `output` and each one's panic message (its first line after
/// `panicked at`), as `name: message`. Reads both the captured form (`---- NAME stdout ----`
/// blocks) and the `--nocapture` form (`thread 'NAME' ... panicked at LOCATION:` inline).
pub fn failure_lines(output: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut lines = output.lines();
    let mut captured = false;
    while let Some(l) = lines.next() {
        if let Some(name) = l
            .strip_prefix("---- ")
            .and_then(|r| r.strip_suffix(" stdout ----"))
        {
            captured = true;
            let message = lines
                .by_ref()
                .skip_while(|m| !m.contains("panicked at"))
                .nth(1)
                .unwrap_or("(no panic message)");
            out.push(format!("{name}: {}", message.trim()));
        } else if !captured && l.starts_with("thread '") && l.contains("panicked at") {
            let name = l["thread '".len()..].split('\'').next().unwrap_or("?");
            let message = lines.next().unwrap_or("(no panic message)");
            out.push(format!("{name}: {}", message.trim()));
        }
    }
    out
}

/// The arguments every binary runs with: output not captured, and each test's own wall
/// time on its result line (`test NAME ... ok <1.234s>`; libtest's `--report-time`, an
/// unstable option that the stable test harness accepts with `RUSTC_BOOTSTRAP=1`).
pub const TEST_ARGS: [&str; 4] = ["--nocapture", "-Z", "unstable-options", "--report-time"];

/// The tests a binary's output reports as passed so far (`test NAME ... ok`, with or without
/// `--report-time`'s time): what a binary killed before its summary had done.
pub fn passed_so_far(stdout: &str) -> usize {
    stdout
        .lines()
        .filter(|l| {
            l.starts_with("test ")
                && l.split_once(" ... ")
                    .is_some_and(|(_, r)| r == "ok" || r.starts_with("ok <"))
        })
        .count()
}

/// Each test's name and seconds from libtest's result lines with `--report-time`, in the
/// order they appear.
pub fn test_times(stdout: &str) -> Vec<(String, f64)> {
    stdout
        .lines()
        .filter_map(|l| {
            let rest = l.strip_prefix("test ")?;
            let (name, result) = rest.split_once(" ... ")?;
            let secs = result.split_once('<')?.1.strip_suffix("s>")?;
            Some((name.to_string(), secs.parse().ok()?))
        })
        .collect()
}

/// Lines of `output` saying a test skipped (see `binade::gpu::require::skip`).
pub fn skipped_lines(output: &str) -> Vec<String> {
    output
        .lines()
        .filter(|l| l.trim_start().starts_with("skipped:"))
        .map(str::to_string)
        .collect()
}

/// Runs the experiment (see the module doc).
pub fn run(ctx: &Context) -> Result<Outcome> {
    // A machine without a device has nothing to prove here: no report is written.
    let gpu = Gpu::open()?;
    let manifest: String = ctx.get_or("manifest", ".devbin/tests/MANIFEST.tsv".to_string())?;
    let binary: String = ctx.get_or("binary", ".devbin/binade".to_string())?;
    let mut staged = read_manifest(Path::new(&manifest))?;
    // `only`: run these test binaries alone (every name must be staged).
    let only: Vec<String> = ctx.get_or("only", Vec::new())?;
    if !only.is_empty() {
        if let Some(missing) = only
            .iter()
            .find(|o| !staged.iter().any(|s| &s.target == *o))
        {
            bail!("gpu-tests: `only` names {missing:?}, which {manifest} does not list");
        }
        staged.retain(|s| only.contains(&s.target));
    }
    let root = crate::fixtures::project_root();
    let bin = std::fs::canonicalize(&binary)
        .with_context(|| format!("{binary}: the carried binade binary is missing"))?;
    let mut table = Table::new(
        "gpu-tests",
        "Test binaries run on the device with BINADE_REQUIRE_GPU=1",
        &[
            "test binary",
            "built from",
            "tests run",
            "passed",
            "failed",
            "ignored",
            "skipped",
            "exit status",
            "seconds",
        ],
    );
    let (mut failures, mut total, mut passed) = (0u64, 0u64, 0u64);
    let mut problems = Vec::new();
    let runner_commit = provenance::commit();
    if staged.is_empty() {
        failures += 1;
        problems.push(format!("{manifest} lists no test binary"));
    }
    let form_name: String = ctx.get_or("module_form", "ptx".to_string())?;
    let form = crate::gpu::ModuleForm::parse(&form_name)
        .with_context(|| format!("gpu-tests: module_form {form_name:?}"))?;
    let jobs: usize = ctx.get_or("jobs", 4usize)?;
    if jobs == 0 {
        bail!("gpu-tests: jobs is 0: no binary would run (at least 1)");
    }
    let times_from: String = ctx.get_or("times_from", EARLIER_TIMES.to_string())?;
    let earlier = read_earlier_times(Path::new(&times_from))?;
    let order = start_order(&staged, &earlier);
    let known = staged
        .iter()
        .filter(|s| earlier.iter().any(|(n, _)| *n == s.target))
        .count();
    // `deadline_s`: seconds from here past which no binary starts and running ones are
    // killed (0: none), so that a caller's own limit (a device call's) does not cut the run
    // before it writes its report.
    let deadline_s: f64 = ctx.get_or("deadline_s", 0.0)?;
    if !(deadline_s >= 0.0 && deadline_s.is_finite()) {
        bail!("gpu-tests: deadline_s is {deadline_s}: seconds from the start, 0 for none");
    }
    let launch = Launch {
        root: &root,
        bin: &bin,
        form,
        deadline: (deadline_s > 0.0)
            .then(|| Instant::now() + std::time::Duration::from_secs_f64(deadline_s)),
    };
    let bar = ctx.progress(staged.len() as u64, "test binaries");
    let ran = run_binaries(&staged, &order, jobs, &launch, &bar)?;
    bar.finish_and_clear();
    let mut times: Vec<(String, String, f64)> = Vec::new();
    let mut cut = 0usize;
    for (s, out) in staged.iter().zip(ran) {
        let secs = out.secs;
        let stdout = String::from_utf8_lossy(&out.stdout);
        times.extend(
            test_times(&stdout)
                .into_iter()
                .map(|(name, t)| (s.target.clone(), name, t)),
        );
        let both = format!("{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
        let counts = parse_counts(&stdout);
        let skipped = skipped_lines(&both);
        let c = counts.clone().unwrap_or_default();
        let mut bad = c.failed + skipped.len() as u64;
        match out.ending {
            Ending::Exited => {
                if counts.is_none() {
                    problems.push(format!("{}: no libtest summary in its output", s.target));
                    bad += 1;
                }
                if !out.succeeded() {
                    problems.push(format!("{}: exit status {}", s.target, out.status_cell()));
                    bad += 1;
                }
            }
            Ending::Killed => {
                cut += 1;
                problems.push(format!(
                    "{}: killed at the deadline ({deadline_s} s) after {secs:.1} s, {} of its tests passed by then",
                    s.target,
                    passed_so_far(&stdout)
                ));
                bad += 1;
            }
            Ending::NotStarted => {
                cut += 1;
                problems.push(format!(
                    "{}: not started, the deadline ({deadline_s} s) had passed",
                    s.target
                ));
                bad += 1;
            }
        }
        if s.commit != runner_commit {
            problems.push(format!(
                "{}: built from {}, the runner from {runner_commit}",
                s.target, s.commit
            ));
            bad += 1;
        }
        for line in &skipped {
            problems.push(format!("{}: {line}", s.target));
        }
        for line in failure_lines(&both) {
            problems.push(format!("{}: {line}", s.target));
        }
        failures += bad;
        total += c.passed + c.failed;
        passed += c.passed;
        table.row(vec![
            format!("`{}`", s.target),
            format!("`{}`", s.commit),
            (c.passed + c.failed).to_string(),
            c.passed.to_string(),
            c.failed.to_string(),
            c.ignored.to_string(),
            skipped.len().to_string(),
            out.status_cell(),
            format!("{secs:.1}"),
        ]);
    }
    let deadline_text = if deadline_s > 0.0 {
        format!("A deadline of {deadline_s} s from the runner's start (`deadline_s`): past it no binary is started and a running one is killed with its process group, so that a caller's own limit does not cut the run before this report is written; such binaries count as failures ({cut} in this run).")
    } else {
        "No deadline (`deadline_s` 0).".to_string()
    };
    let first = order
        .iter()
        .take(jobs)
        .map(|&i| format!("`{}`", staged[i].target))
        .collect::<Vec<_>>()
        .join(", ");
    let mut report = Report::new(
        &ctx.name,
        "The test suite on the GPU machine, no skips allowed",
    );
    report.text(format!(
        "Device: {} ({}). Every test binary of the project (`cargo test --release --no-run` on the build machine, stripped and carried; \
         doc tests are compiled at test time and are not among them) ran from the project root on the GPU machine with `{REQUIRE_GPU_VAR}=1`: \
         a GPU test that finds no device, no NVRTC or a kernel that does not compile fails instead of printing `skipped:`. \
         `skipped` counts such lines in the output and must be 0. `ignored` tests are the ones marked `#[ignore]` (tools, not checks). \
         {}Up to {jobs} binaries ran at once (each runs its own tests on libtest's threads); `seconds` is each binary's own wall time. \
         They started longest first by the seconds of `{times_from}` as it stood before this run ({known} of {} binaries had a time there; the others started first): first {}. \
         {deadline_text} \
         Kernel modules reached the driver as {} (`{}={}` for every binary): {}",
        gpu.name, gpu.arch, if only.is_empty() { String::new() } else { format!("Only the binaries {} ran (`only`). ", only.iter().map(|o| format!("`{o}`")).collect::<Vec<_>>().join(", ")) }, staged.len(), first, form.describe(), crate::gpu::MODULE_FORM_VAR, form.name(), FORM_NOTE
    ));
    report.table(table);
    times.sort_by(|a, b| b.2.total_cmp(&a.2));
    let mut slow = Table::new(
        "test-times",
        &format!(
            "The slowest tests: each test's own wall time as libtest reports it (`--report-time`; tests of one binary run at once on libtest's threads, so they share the device and the CPU), the {} slowest of {} timed",
            SLOWEST.min(times.len()),
            times.len()
        ),
        &["test binary", "test", "seconds"],
    );
    for (binary, name, t) in times.iter().take(SLOWEST) {
        slow.row(vec![
            format!("`{binary}`"),
            format!("`{name}`"),
            format!("{t:.1}"),
        ]);
    }
    report.table(slow);
    if !problems.is_empty() {
        report.text(format!(
            "Problems:\n\n{}",
            problems
                .iter()
                .map(|p| format!("- {p}"))
                .collect::<Vec<_>>()
                .join("\n")
        ));
    }
    let cut_note = if cut > 0 {
        format!("; {cut} binaries cut by the deadline of {deadline_s} s (among the failures)")
    } else {
        String::new()
    };
    report.headline(format!(
        "{passed} of {total} tests passed in {} test binaries on {} with {REQUIRE_GPU_VAR}=1; {} failures or skips{cut_note}",
        staged.len(),
        gpu.name,
        failures
    ));
    Ok(Outcome { report, failures })
}

/// Why the test binaries may load CUBINs: measured, not assumed (`examples/load_probe`).
const FORM_NOTE: &str = "on the H200 at dbe033a one one-pass build's PTX took 5.7 s to load alone (the driver assembling it, its disk cache off) and 8 distinct builds loaded at once 46.9 s, while NVRTC compiled and assembled the same 8 to CUBINs in 12.8 s (`reports/load-probe`). The bits of a sum are fixed by the PTX either way; the experiments (gpu-parity, mutations, the timings) load PTX, the default, so that form is checked there.";

/// Tests listed in the slowest-tests table.
const SLOWEST: usize = 15;

/// Where the earlier run's per-binary seconds are read from, to start the longest binaries
/// first (`times_from`; the committed report, as it stood before this run replaces it).
const EARLIER_TIMES: &str = "reports/gpu-tests/gpu-tests.csv";

/// Each test binary's seconds in an earlier report's `gpu-tests.csv` (its `test binary`
/// column, the name in backticks, and its `seconds` column). A missing file gives no times
/// (every binary then starts in manifest order); a file that exists but does not parse is an
/// error, so a damaged report is not silently read as "no times".
pub fn read_earlier_times(path: &Path) -> Result<Vec<(String, f64)>> {
    if !path.exists() {
        return Ok(Vec::new());
    }
    let mut reader = csv::Reader::from_path(path)
        .with_context(|| format!("{}: cannot open the earlier times", path.display()))?;
    let headers = reader.headers()?.clone();
    let column = |name: &str| {
        headers
            .iter()
            .position(|h| h == name)
            .with_context(|| format!("{}: no {name:?} column", path.display()))
    };
    let (name_at, secs_at) = (column("test binary")?, column("seconds")?);
    let mut times = Vec::new();
    for (line, record) in reader.records().enumerate() {
        let record = record.with_context(|| format!("{}: row {}", path.display(), line + 1))?;
        let (Some(name), Some(secs)) = (record.get(name_at), record.get(secs_at)) else {
            bail!("{}: row {} is short", path.display(), line + 1);
        };
        let secs: f64 = secs
            .parse()
            .with_context(|| format!("{}: row {}: seconds {secs:?}", path.display(), line + 1))?;
        times.push((name.trim_matches('`').to_string(), secs));
    }
    Ok(times)
}

/// The order in which to start the staged binaries: those with no earlier time first (a new
/// binary may be the longest), in manifest order, then the rest by earlier seconds, longest
/// first, ties in manifest order. Longest-first is the classic list-scheduling rule: with
/// `jobs` runners the run ends no later than `total / jobs + longest` and, when one binary
/// is most of the suite (`gpu_onepass`, `gpu_walked`), close to that binary's own time,
/// where manifest (alphabetical) order started `gpu_walked` only after the first runners
/// were free (the cut run of 2026-12-07's call 1).
pub fn start_order(staged: &[Staged], earlier: &[(String, f64)]) -> Vec<usize> {
    let secs = |s: &Staged| {
        earlier
            .iter()
            .find(|(name, _)| *name == s.target)
            .map(|(_, t)| *t)
    };
    let mut order: Vec<usize> = (0..staged.len()).collect();
    // Unknown first (key +inf), then descending; sort_by is stable, so ties keep manifest order.
    order.sort_by(|&a, &b| {
        let key = |i: usize| secs(&staged[i]).unwrap_or(f64::INFINITY);
        key(b).total_cmp(&key(a))
    });
    order
}

/// How one binary's run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ending {
    /// It exited by itself (its status says how).
    Exited,
    /// It was still running at the deadline and was killed, with its process group.
    Killed,
    /// The deadline had passed before a runner was free to start it.
    NotStarted,
}

/// One binary's run: its output, its exit status (none where it never started), its wall time
/// and how it ended.
struct Ran {
    stdout: Vec<u8>,
    stderr: Vec<u8>,
    status: Option<std::process::ExitStatus>,
    secs: f64,
    ending: Ending,
}

impl Ran {
    fn not_started() -> Ran {
        Ran {
            stdout: Vec::new(),
            stderr: Vec::new(),
            status: None,
            secs: 0.0,
            ending: Ending::NotStarted,
        }
    }

    /// It exited by itself with status 0.
    fn succeeded(&self) -> bool {
        self.ending == Ending::Exited && self.status.is_some_and(|s| s.success())
    }

    /// The table's exit status cell.
    fn status_cell(&self) -> String {
        match (self.ending, self.status) {
            (Ending::NotStarted, _) => "not started (deadline)".into(),
            (Ending::Killed, _) => "killed (deadline)".into(),
            (Ending::Exited, Some(s)) => s.code().map_or("signal".into(), |c| c.to_string()),
            (Ending::Exited, None) => "unknown".into(),
        }
    }
}

/// What every binary is started with: where, which `binade`, how modules are loaded, and the
/// deadline past which none is started and a running one is killed.
struct Launch<'a> {
    root: &'a Path,
    bin: &'a Path,
    form: crate::gpu::ModuleForm,
    deadline: Option<Instant>,
}

/// How often a runner looks whether its binary has exited.
const POLL: std::time::Duration = std::time::Duration::from_millis(50);

/// Runs one binary to its end or to the deadline. Its output goes to two unnamed temporary
/// files (pipes would need a reader each, or fill and stall the binary), read back after.
/// The binary leads a process group of its own, so that at the deadline the processes it
/// started (`binade`, NVRTC workers) are killed with it.
fn run_one(s: &Staged, launch: &Launch) -> Result<Ran> {
    use std::io::{Read, Seek};
    use std::os::unix::process::CommandExt;
    if launch.deadline.is_some_and(|d| Instant::now() >= d) {
        return Ok(Ran::not_started());
    }
    // Unnamed files (removed by the system as soon as they are closed, whatever happens).
    let created = || tempfile::tempfile().context("cannot create a temporary output file");
    let (mut out_file, mut err_file) = (created()?, created()?);
    let started = Instant::now();
    let mut child = Command::new(&s.file)
        .args(TEST_ARGS)
        .env("RUSTC_BOOTSTRAP", "1")
        .current_dir(launch.root)
        .env(REQUIRE_GPU_VAR, "1")
        .env("BINADE_BIN", launch.bin)
        .env(crate::gpu::MODULE_FORM_VAR, launch.form.name())
        .stdout(out_file.try_clone()?)
        .stderr(err_file.try_clone()?)
        .process_group(0)
        .spawn()
        .with_context(|| format!("starting {}", s.file.display()))?;
    let (status, ending) = loop {
        if let Some(status) = child.try_wait()? {
            break (Some(status), Ending::Exited);
        }
        if launch.deadline.is_some_and(|d| Instant::now() >= d) {
            // The whole group: `kill -KILL -PID`; the child alone if that fails.
            let group = Command::new("kill")
                .args(["-KILL", "--", &format!("-{}", child.id())])
                .status();
            if !group.is_ok_and(|g| g.success()) {
                let _ = child.kill();
            }
            break (child.wait().ok(), Ending::Killed);
        }
        std::thread::sleep(POLL);
    };
    let secs = started.elapsed().as_secs_f64();
    let read = |f: &mut std::fs::File| -> Result<Vec<u8>> {
        let mut buf = Vec::new();
        f.rewind()?;
        f.read_to_end(&mut buf)?;
        Ok(buf)
    };
    let (stdout, stderr) = (read(&mut out_file)?, read(&mut err_file)?);
    Ok(Ran {
        stdout,
        stderr,
        status,
        secs,
        ending,
    })
}

/// Runs every staged binary with the GPU required, up to `jobs` at once (most of a GPU test
/// binary's time is NVRTC builds on the CPU), started in `order` (indices into `staged`, each
/// once); results in manifest order. Past `launch.deadline` no binary starts and a running
/// one is killed, so a run that a caller's own limit would cut still reports every binary.
fn run_binaries(
    staged: &[Staged],
    order: &[usize],
    jobs: usize,
    launch: &Launch,
    bar: &indicatif::ProgressBar,
) -> Result<Vec<Ran>> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Mutex;
    debug_assert!({
        let mut seen = order.to_vec();
        seen.sort_unstable();
        seen == (0..staged.len()).collect::<Vec<_>>()
    });
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Result<Ran>>>> =
        Mutex::new((0..staged.len()).map(|_| None).collect());
    std::thread::scope(|scope| {
        for _ in 0..jobs.min(staged.len()) {
            scope.spawn(|| {
                while let Some(&i) = order.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let r = run_one(&staged[i], launch);
                    if let Ok(mut all) = results.lock() {
                        all[i] = Some(r);
                    }
                    bar.inc(1);
                }
            });
        }
    });
    let all = results
        .into_inner()
        .map_err(|_| anyhow::anyhow!("a test-binary runner panicked"))?;
    all.into_iter()
        .zip(staged)
        .map(|(r, s)| r.unwrap_or_else(|| bail!("{}: not run", s.target)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn libtest_summaries_are_counted() {
        let out = "running 3 tests\nskipped: x: no GPU\ntest result: ok. 3 passed; 0 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.01s\n";
        assert_eq!(
            parse_counts(out),
            Some(Counts {
                passed: 3,
                failed: 0,
                ignored: 1
            })
        );
        assert_eq!(parse_counts("no summary"), None);
        let bad = "test result: FAILED. 1 passed; 2 failed; 0 ignored; 0 measured; 0 filtered out";
        assert_eq!(
            parse_counts(bad),
            Some(Counts {
                passed: 1,
                failed: 2,
                ignored: 0
            })
        );
        assert_eq!(skipped_lines(out), ["skipped: x: no GPU"]);
        let timed = "running 2 tests\ntest a::b ... ok <12.345s>\ntest c ... FAILED <0.5s>\ntest d ... ignored\ntest result: ok.";
        assert_eq!(
            test_times(timed),
            [("a::b".to_string(), 12.345), ("c".to_string(), 0.5)]
        );
    }

    #[test]
    fn the_longest_binaries_start_first_and_new_ones_before_them() {
        let staged = staged_files(&["a", "b", "c", "d", "e"]);
        let earlier = vec![
            ("a".to_string(), 1.0),
            ("b".to_string(), 300.0),
            ("d".to_string(), 1.0),
            ("e".to_string(), 50.0),
            ("gone".to_string(), 999.0),
        ];
        // c has no earlier time: first; then b, e; a and d tie and keep manifest order.
        assert_eq!(start_order(&staged, &earlier), [2, 1, 4, 0, 3]);
        assert_eq!(start_order(&staged, &[]), [0, 1, 2, 3, 4]);
    }

    #[test]
    fn earlier_times_are_read_from_a_report_and_a_damaged_one_is_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        let good = dir.join("good.csv");
        std::fs::write(
            &good,
            "test binary,built from,seconds\n`gpu_walked`,`abc`,284.9\n`units`,`abc`,0.0\n",
        )
        .unwrap();
        assert_eq!(
            read_earlier_times(&good).unwrap(),
            [
                ("gpu_walked".to_string(), 284.9),
                ("units".to_string(), 0.0)
            ]
        );
        assert!(read_earlier_times(&dir.join("missing.csv"))
            .unwrap()
            .is_empty());
        let bad = dir.join("bad.csv");
        std::fs::write(&bad, "test binary,seconds\n`x`,slow\n").unwrap();
        let err = format!("{:#}", read_earlier_times(&bad).unwrap_err());
        assert!(err.contains("seconds \"slow\""), "{err}");
        let no_column = dir.join("no-column.csv");
        std::fs::write(&no_column, "test binary,time\n`x`,1\n").unwrap();
        assert!(read_earlier_times(&no_column).is_err());
    }

    fn staged_files(files: &[&str]) -> Vec<Staged> {
        files
            .iter()
            .map(|f| Staged {
                target: f.to_string(),
                file: PathBuf::from(f),
                commit: "c".into(),
            })
            .collect()
    }

    fn launch(deadline: Option<Instant>) -> Launch<'static> {
        Launch {
            root: Path::new("."),
            bin: Path::new("/bin/true"),
            form: crate::gpu::ModuleForm::Ptx,
            deadline,
        }
    }

    /// A binary still running at the deadline is killed, one that the deadline finds not yet
    /// started is not started, and one that ended before it keeps its output: each says so.
    #[test]
    fn the_deadline_kills_a_running_binary_and_starts_no_other() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        // A "test binary" that prints one passed test, then sleeps far past the deadline
        // (libtest's arguments land in $0 and $@, which it ignores).
        let slow = dir.join("slow.sh");
        std::fs::write(
            &slow,
            "#!/bin/sh\necho 'test a ... ok <0.001s>'\nsleep 30\n",
        )
        .unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&slow, std::fs::Permissions::from_mode(0o755)).unwrap();
        let slow = slow.to_string_lossy().into_owned();
        let staged = staged_files(&["/bin/echo", &slow, "/bin/echo"]);
        let bar = indicatif::ProgressBar::hidden();
        let started = Instant::now();
        let deadline = Some(started + std::time::Duration::from_millis(700));
        // One runner: echo, then the slow one (killed at the deadline), then the last echo,
        // which the deadline finds not started.
        let ran = run_binaries(&staged, &[0, 1, 2], 1, &launch(deadline), &bar).unwrap();
        let took = started.elapsed().as_secs_f64();
        assert!(
            took < 10.0,
            "the run took {took} s: the slow binary was not killed"
        );
        let endings: Vec<Ending> = ran.iter().map(|r| r.ending).collect();
        assert_eq!(
            endings,
            [Ending::Exited, Ending::Killed, Ending::NotStarted]
        );
        assert!(ran[0].succeeded() && !ran[1].succeeded() && !ran[2].succeeded());
        assert_eq!(passed_so_far(&String::from_utf8_lossy(&ran[1].stdout)), 1);
        assert_eq!(ran[1].status_cell(), "killed (deadline)");
        assert_eq!(ran[2].status_cell(), "not started (deadline)");
    }

    #[test]
    fn passed_tests_are_counted_before_a_summary() {
        let out = "running 3 tests\ntest a ... ok\ntest b ... ok <1.500s>\ntest c ... FAILED\ntest d ... ignored\n";
        assert_eq!(passed_so_far(out), 2);
        assert_eq!(passed_so_far(""), 0);
    }

    #[test]
    fn binaries_run_concurrently_come_back_in_manifest_order() {
        let staged = staged_files(&[
            "/bin/echo",
            "/bin/true",
            "/bin/echo",
            "/bin/false",
            "/bin/echo",
        ]);
        let bar = indicatif::ProgressBar::hidden();
        let ran = run_binaries(&staged, &[4, 3, 2, 1, 0], 2, &launch(None), &bar).unwrap();
        let outs: Vec<(String, bool)> = ran
            .iter()
            .map(|r| {
                (
                    String::from_utf8_lossy(&r.stdout).into_owned(),
                    r.succeeded(),
                )
            })
            .collect();
        let echo = (format!("{}\n", TEST_ARGS.join(" ")), true);
        assert_eq!(
            outs,
            [
                echo.clone(),
                (String::new(), true),
                echo.clone(),
                (String::new(), false),
                echo
            ]
        );
        assert!(ran.iter().all(|r| r.ending == Ending::Exited));
        let missing = staged_files(&["/no/such/binary"]);
        assert!(run_binaries(&missing, &[0], 3, &launch(None), &bar).is_err());
    }

    #[test]
    fn failures_are_named_with_their_message() {
        let out = "running 2 tests\n---- a::b stdout ----\n\nthread 'a::b' (7) panicked at tests/x.rs:3:9:\nseed 0x5: wrong bits\nnote: x\n\nfailures:\n    a::b\n";
        assert_eq!(failure_lines(out), ["a::b: seed 0x5: wrong bits"]);
        assert!(failure_lines("test result: ok. 1 passed").is_empty());
        let inline = "running 1 test\nthread 'c::d' (9) panicked at tests/y.rs:1:2:\nseed 0x7: kind X\nnote: y\ntest c::d ... FAILED\n";
        assert_eq!(failure_lines(inline), ["c::d: seed 0x7: kind X"]);
    }
}
