//! Experiments: one TOML file per named experiment in `experiments/`, run by a runner that
//! returns a report.
//!
//! An experiment file has a `description`, a `runner` (which code runs it), a `seed`, and
//! `[params]`, `[quick]` and `[full]` tables; the chosen mode's table is laid over
//! `[params]`. Command-line overrides (`--seed`, `--samples`) win over both.

pub mod cargo_mutants;
pub mod config;
pub mod cpu_timing;
pub mod fixture_select;
pub mod float_vif_parity;
pub mod float_vif_replay;
pub mod float_vif_replay_host;
pub mod float_vif_tables;
pub mod float_vif_timing;
pub mod gpu_cumsum_timing;
pub mod gpu_numpy_order;
pub mod gpu_parity;
pub mod gpu_signed;
pub mod gpu_tests;
pub mod gpu_timing;
pub mod gpu_timing_f32;
pub mod gpu_timing_onepass;
pub mod mutations;
pub mod mutations_cumsum;
pub mod mutations_extra;
pub mod mutations_numpy;
pub mod mutations_walked;
pub mod one_term_rule;
pub mod peer_timing;
pub mod pipeline_plans;
pub mod research;
pub mod sanitize;
pub mod ssimulacra2_crate;
pub mod ssimulacra2_parity;
pub mod ssimulacra2_plan_reuse;
pub mod ssimulacra2_replay;
pub mod ssimulacra2_timing;

use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::Result;
use indicatif::{ProgressBar, ProgressStyle};
use serde::de::DeserializeOwned;

pub use config::{load, ExperimentFile, LoadError, Source};

use crate::report::Report;

/// Everything a runner needs: the experiment's settings and where the report goes.
#[derive(Clone, Debug)]
pub struct Context {
    /// The experiment's name (`experiments/NAME.toml`).
    pub name: String,
    /// The file it was read from.
    pub file: PathBuf,
    /// True for `--quick`.
    pub quick: bool,
    /// The seed (file's `seed` unless `--seed` was given).
    pub seed: u64,
    /// `--samples`, when given: overrides the mode's `samples`.
    pub samples: Option<u64>,
    /// `[params]` with the mode's table laid over it.
    pub params: toml::Table,
    /// The report folder.
    pub out_dir: PathBuf,
    /// `--experiments DIR`, when given (else the embedded files were used).
    pub experiments: Option<PathBuf>,
}

impl Context {
    /// The parameter `key`, or an error naming the file and the field.
    pub fn get<T: DeserializeOwned>(&self, key: &str) -> Result<T, ConfigError> {
        let value = self
            .params
            .get(key)
            .ok_or_else(|| ConfigError::new(&self.file, key, "missing"))?;
        value
            .clone()
            .try_into()
            .map_err(|e: toml::de::Error| ConfigError::new(&self.file, key, e.message()))
    }

    /// The parameter `key`, or `default` when the file does not set it.
    pub fn get_or<T: DeserializeOwned>(&self, key: &str, default: T) -> Result<T, ConfigError> {
        if self.params.contains_key(key) {
            self.get(key)
        } else {
            Ok(default)
        }
    }

    /// `list` (the value of parameter `key`), refused when empty: a list of what an experiment
    /// checks (input kinds, sizes, formats, plans) that is empty would check nothing.
    pub fn non_empty<T>(&self, key: &str, list: Vec<T>) -> Result<Vec<T>, ConfigError> {
        if list.is_empty() {
            return Err(ConfigError::new(
                &self.file,
                key,
                "an empty list would check nothing; give at least one",
            ));
        }
        Ok(list)
    }

    /// The count parameter `key`, refused when zero: zero repetitions would time nothing.
    pub fn positive(&self, key: &str) -> Result<usize, ConfigError> {
        let n: usize = self.get(key)?;
        if n == 0 {
            return Err(ConfigError::new(&self.file, key, "must be at least 1"));
        }
        Ok(n)
    }

    /// The folder of the peer programs (`experiments/peers`): beside the experiment file when
    /// it is there (a folder given with `--experiments`), else under the working folder's
    /// `experiments/` (the project root, where the binaries run on the GPU machine, whose tree
    /// need not lie where it was built), else in the source tree the binary was built from, so
    /// an installed `binade` run from another folder still finds them.
    pub fn peers_dir(&self) -> std::path::PathBuf {
        let beside = self
            .file
            .parent()
            .unwrap_or(std::path::Path::new("."))
            .join("peers");
        if beside.is_dir() {
            return beside;
        }
        let here = std::path::Path::new("experiments").join("peers");
        if here.is_dir() {
            return here;
        }
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("experiments")
            .join("peers")
    }

    /// The sample count: `--samples` if given, else the mode's `samples`; zero is refused
    /// (a run of no samples checks nothing).
    pub fn sample_count(&self) -> Result<u64, ConfigError> {
        let n = match self.samples {
            Some(n) => n,
            None => self.get("samples")?,
        };
        if n == 0 {
            return Err(ConfigError::new(
                &self.file,
                "samples",
                "0 samples would check nothing; give at least 1",
            ));
        }
        Ok(n)
    }

    /// "quick" or "full".
    pub fn mode(&self) -> &'static str {
        if self.quick {
            "quick"
        } else {
            "full"
        }
    }

    /// A progress bar of `len` steps for the stage `what`. On a terminal it is indicatif's bar;
    /// otherwise (a log, a pipe) the bar is hidden and a line printer writes one line to stderr
    /// when the stage starts, one every [`progress_every`] while it runs (stage, done/total,
    /// rate, elapsed, ETA) and one when it ends, so a log shows every stage and where a long
    /// run is.
    pub fn progress(&self, len: u64, what: &str) -> ProgressBar {
        bar_with_lines(len, what, true)
    }
}

/// A progress bar of `len` steps for the stage `what` (for commands outside experiments): as
/// [`Context::progress`] makes it, but in a log its first line comes only after
/// [`progress_every`], so a short command (or one refused with its one line) prints none.
pub fn progress_bar(len: u64, what: &str) -> ProgressBar {
    bar_with_lines(len, what, false)
}

/// The bar of [`Context::progress`] (`announce`: its first line in a log when it starts) and
/// of [`progress_bar`].
fn bar_with_lines(len: u64, what: &str, announce: bool) -> ProgressBar {
    let bar = ProgressBar::new(len);
    bar.set_style(
        ProgressStyle::with_template(
            "{msg:>24} [{elapsed_precise}] {wide_bar} {pos}/{len} (eta {eta})",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar.set_message(what.to_string());
    if !std::io::stderr().is_terminal() {
        progress_lines(&bar, what.to_string(), progress_every(), announce);
    }
    bar
}

/// How often a hidden progress bar prints its line: `BINADE_PROGRESS_SECS` seconds (a
/// decimal number) when set, else 10 s.
pub fn progress_every() -> Duration {
    std::env::var("BINADE_PROGRESS_SECS")
        .ok()
        .and_then(|s| s.trim().parse::<f64>().ok())
        .filter(|s| s.is_finite() && *s > 0.0)
        .map(Duration::from_secs_f64)
        .unwrap_or(Duration::from_secs(10))
}

/// The line printers [`progress_lines`] started, joined by [`finish_progress_lines`].
static PRINTERS: std::sync::Mutex<Vec<std::thread::JoinHandle<()>>> =
    std::sync::Mutex::new(Vec::new());

/// The printers' list, also where a printer panicked while it was held (a list of handles
/// cannot be left half-changed).
fn printers() -> std::sync::MutexGuard<'static, Vec<std::thread::JoinHandle<()>>> {
    PRINTERS
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// How long [`finish_progress_lines`] waits for the printers: a printer ends within one tick
/// (100 ms at most) of its bar's end, so only a bar still held outlives this.
const PRINTERS_WAIT: Duration = Duration::from_secs(1);

/// Starts the line printer of a hidden bar: where `announce`, its first line now, on the
/// caller's thread (so every stage in a log has one, however short); then a thread that
/// holds only a weak reference, wakes every 100 ms (or every `every` where shorter), prints
/// [`progress_line`] every `every`, and ends with a `done` line once the bar is finished or
/// dropped, where it printed a line (a short stage not announced stays quiet). The command
/// joins the printers before it exits ([`finish_progress_lines`]), so the `done` line of
/// every stage that ended and printed is in the log.
fn progress_lines(bar: &ProgressBar, what: String, every: Duration, announce: bool) {
    if announce {
        eprintln!(
            "{}",
            progress_line(&what, 0, bar.length(), 0.0, Duration::ZERO, Duration::ZERO)
        );
    }
    let weak = bar.downgrade();
    let stage = what.clone();
    let tick = every.min(Duration::from_millis(100));
    let spawned = std::thread::Builder::new()
        .name("progress-lines".into())
        .spawn(move || {
            let mut last_line = Instant::now();
            let mut printed = announce;
            let started = Instant::now();
            loop {
                std::thread::sleep(tick);
                let Some(bar) = weak.upgrade() else { break };
                if bar.is_finished() {
                    break;
                }
                if last_line.elapsed() >= every {
                    // The average over the whole stage: the bar's own estimate weighs the
                    // latest steps, and one long step sends it to thousands of hours.
                    let (pos, len, elapsed) = (bar.position(), bar.length(), bar.elapsed());
                    let secs = elapsed.as_secs_f64();
                    let rate = if secs > 0.0 { pos as f64 / secs } else { 0.0 };
                    let left = len.map_or(0, |l| l.saturating_sub(pos));
                    let eta = if pos > 0 {
                        Duration::from_secs_f64(secs * left as f64 / pos as f64)
                    } else {
                        Duration::ZERO
                    };
                    let line = progress_line(&what, pos, len, rate, elapsed, eta);
                    eprintln!("{line}");
                    last_line = Instant::now();
                    printed = true;
                }
            }
            if printed {
                let took = short_duration(started.elapsed());
                eprintln!("progress: {what}: done after {took}");
            }
        });
    match spawned {
        Ok(handle) => printers().push(handle),
        Err(e) => eprintln!("progress: {stage}: no progress lines ({e})"),
    }
}

/// Joins the progress line printers whose bars have ended, waiting up to [`PRINTERS_WAIT`]
/// for them, so each ended stage's `done` line is written before the command exits. A
/// printer whose bar is still held is left running (the process ends it).
pub fn finish_progress_lines() {
    let handles = std::mem::take(&mut *printers());
    let deadline = Instant::now() + PRINTERS_WAIT;
    while Instant::now() < deadline && !handles.iter().all(|h| h.is_finished()) {
        std::thread::sleep(Duration::from_millis(5));
    }
    for handle in handles.into_iter().filter(|h| h.is_finished()) {
        let _ = handle.join();
    }
}

/// One progress line: `progress: STAGE: 12/40 (30%), 1.5/s, 8s elapsed, ETA 19s`.
pub fn progress_line(
    what: &str,
    done: u64,
    total: Option<u64>,
    per_sec: f64,
    elapsed: Duration,
    eta: Duration,
) -> String {
    let of = match total {
        Some(t) if t > 0 => format!("{done}/{t} ({:.0}%)", 100.0 * done as f64 / t as f64),
        _ => format!("{done}"),
    };
    let rate = if per_sec >= 10.0 {
        format!("{per_sec:.0}/s")
    } else {
        format!("{per_sec:.2}/s")
    };
    let eta = if done == 0 {
        "ETA unknown".to_string()
    } else {
        format!("ETA {}", short_duration(eta))
    };
    format!(
        "progress: {what}: {of}, {rate}, {} elapsed, {eta}",
        short_duration(elapsed)
    )
}

/// `42s`, `3m05s`, `1h02m`.
fn short_duration(d: Duration) -> String {
    let s = d.as_secs();
    if s < 60 {
        format!("{s}s")
    } else if s < 3600 {
        format!("{}m{:02}s", s / 60, s % 60)
    } else {
        format!("{}h{:02}m", s / 3600, (s % 3600) / 60)
    }
}

/// The JSON object a peer program (`experiments/peers/*`) printed on stdout, or an error
/// naming the program and the last line of its stderr when it failed.
pub fn peer_json<T: DeserializeOwned>(
    program: &std::path::Path,
    out: &std::process::Output,
) -> anyhow::Result<T> {
    use anyhow::Context as _;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        let last = err.lines().last().unwrap_or("no message");
        anyhow::bail!("{} exited with {}: {last}", program.display(), out.status);
    }
    serde_json::from_str(String::from_utf8_lossy(&out.stdout).trim())
        .with_context(|| format!("reading the output of {}", program.display()))
}

/// A bad experiment file or parameter: names the file and the field (when one is at fault).
#[derive(Debug, thiserror::Error)]
#[error("{file}: {}{reason}", if field.is_empty() { String::new() } else { format!("field `{field}`: ") })]
pub struct ConfigError {
    /// The experiment file.
    pub file: String,
    /// The field at fault.
    pub field: String,
    /// What is wrong with it.
    pub reason: String,
}

impl ConfigError {
    /// An error about `field` of `file`.
    pub fn new(file: &std::path::Path, field: &str, reason: impl Into<String>) -> ConfigError {
        ConfigError {
            file: file.display().to_string(),
            field: field.into(),
            reason: reason.into(),
        }
    }
}

/// What a runner returns: the report, and how many checks failed (0 for a clean run).
#[derive(Debug)]
pub struct Outcome {
    /// The report to write.
    pub report: Report,
    /// Failed checks (mismatches); a non-zero count makes the run exit with code 1.
    pub failures: u64,
}

/// A runner: reads its parameters from the context and returns the report.
pub type Runner = fn(&Context) -> Result<Outcome>;

/// The command-line overrides a runner honours: any other is refused before the run (an
/// override that changes nothing would make the report claim what was not run).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Overrides {
    /// `--seed` changes what the runner draws.
    pub seed: bool,
    /// `--samples` sets the runner's sample count.
    pub samples: bool,
}

/// The overrides the runner named `name` honours (`tests/run_places.rs` checks them against
/// the runners' sources).
pub fn overrides(name: &str) -> Overrides {
    let seed = matches!(
        name,
        "one-term-rule"
            | "pipeline-plans"
            | "cpu-timing"
            | "mutations"
            | "gpu-parity"
            | "gpu-timing"
            | "gpu-cumsum-timing"
            | "gpu-timing-f32"
            | "gpu-numpy-order"
            | "gpu-signed"
            | "float-vif-parity"
            | "float-vif-replay"
            | "float-vif-replay-host"
            | "float-vif-timing"
    );
    let samples = name == "one-term-rule";
    Overrides { seed, samples }
}

/// Every runner name [`runner`] knows.
pub const RUNNERS: [&str; 21] = [
    "one-term-rule",
    "pipeline-plans",
    "cpu-timing",
    "mutations",
    "cargo-mutants",
    "gpu-parity",
    "gpu-timing",
    "gpu-cumsum-timing",
    "gpu-timing-f32",
    "gpu-numpy-order",
    "gpu-signed",
    "gpu-tests",
    "float-vif-parity",
    "float-vif-replay",
    "float-vif-replay-host",
    "float-vif-timing",
    "ssimulacra2-crate",
    "ssimulacra2-parity",
    "ssimulacra2-plan-reuse",
    "ssimulacra2-replay",
    "ssimulacra2-timing",
];

/// The runner named `name` in an experiment file's `runner` field.
pub fn runner(name: &str) -> Option<Runner> {
    let r: Runner = match name {
        "one-term-rule" => one_term_rule::run,
        "pipeline-plans" => pipeline_plans::run,
        "cpu-timing" => cpu_timing::run,
        "mutations" => mutations::run,
        "cargo-mutants" => cargo_mutants::run,
        "gpu-parity" => gpu_parity::run,
        "gpu-timing" => gpu_timing::run,
        "gpu-cumsum-timing" => gpu_cumsum_timing::run,
        "gpu-timing-f32" => gpu_timing_f32::run,
        "gpu-numpy-order" => gpu_numpy_order::run,
        "gpu-signed" => gpu_signed::run,
        "gpu-tests" => gpu_tests::run,
        "float-vif-parity" => float_vif_parity::run,
        "float-vif-replay" => float_vif_replay::run,
        "float-vif-replay-host" => float_vif_replay_host::run,
        "float-vif-timing" => float_vif_timing::run,
        "ssimulacra2-crate" => ssimulacra2_crate::run,
        "ssimulacra2-parity" => ssimulacra2_parity::run,
        "ssimulacra2-plan-reuse" => ssimulacra2_plan_reuse::run,
        "ssimulacra2-replay" => ssimulacra2_replay::run,
        "ssimulacra2-timing" => ssimulacra2_timing::run,
        _ => return None,
    };
    Some(r)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_line_says_stage_count_rate_and_eta() {
        let line = progress_line(
            "f64 samples",
            12,
            Some(40),
            1.5,
            Duration::from_secs(8),
            Duration::from_secs(125),
        );
        assert_eq!(
            line,
            "progress: f64 samples: 12/40 (30%), 1.50/s, 8s elapsed, ETA 2m05s"
        );
        let start = progress_line("x", 0, None, 0.0, Duration::ZERO, Duration::ZERO);
        assert_eq!(start, "progress: x: 0, 0.00/s, 0s elapsed, ETA unknown");
    }
}

#[cfg(test)]
mod peers_tests {
    use super::Context;
    use std::path::PathBuf;

    fn context(file: PathBuf) -> Context {
        Context {
            name: "x".into(),
            file,
            quick: true,
            seed: 1,
            samples: None,
            params: toml::Table::new(),
            out_dir: PathBuf::from("out"),
            experiments: None,
        }
    }

    #[test]
    fn peers_are_found_from_any_folder() {
        // An experiment file in a folder without peers/: the source tree's peers.
        let far = context(PathBuf::from("/nonexistent/experiments/x.toml"));
        assert!(
            far.peers_dir().join("numpy_sum.py").is_file(),
            "{:?}",
            far.peers_dir()
        );
        // A folder that has peers/: that one.
        let dir = tempfile::tempdir().expect("a temporary folder");
        std::fs::create_dir(dir.path().join("peers")).expect("creates peers/");
        let near = context(dir.path().join("x.toml"));
        assert_eq!(near.peers_dir(), dir.path().join("peers"));
    }
}

#[cfg(test)]
mod peer_json_tests {
    use super::peer_json;
    use std::path::Path;
    use std::process::Command;

    fn sh(script: &str) -> std::process::Output {
        Command::new("sh")
            .args(["-c", script])
            .output()
            .expect("sh runs")
    }

    #[test]
    fn a_peer_s_json_is_read_and_its_failure_named() {
        let ok: serde_json::Value =
            peer_json(Path::new("p.py"), &sh("echo '{\"n\": 3}'")).expect("parses");
        assert_eq!(ok["n"], 3);
        let err = peer_json::<serde_json::Value>(
            Path::new("p.py"),
            &sh("echo a >&2; echo last >&2; exit 3"),
        )
        .expect_err("a failed peer");
        let msg = format!("{err:#}");
        assert!(
            msg.starts_with("p.py exited with") && msg.ends_with(": last"),
            "{msg}"
        );
        let bad = peer_json::<serde_json::Value>(Path::new("p.py"), &sh("echo not-json"))
            .expect_err("not JSON");
        assert!(
            format!("{bad:#}").contains("reading the output of p.py"),
            "{bad:#}"
        );
    }
}
