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
pub mod gpu_parity;
pub mod gpu_tests;
pub mod gpu_timing;
pub mod gpu_timing_onepass;
pub mod mutations;
pub mod mutations_extra;
pub mod one_term_rule;
pub mod pipeline_plans;
pub mod sanitize;
pub mod ssimulacra2_crate;
pub mod ssimulacra2_parity;
pub mod ssimulacra2_timing;

use std::path::PathBuf;

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

    /// A progress bar of `len` steps (hidden when stderr is not a terminal or for short runs).
    pub fn progress(&self, len: u64, what: &str) -> ProgressBar {
        let bar = ProgressBar::new(len);
        bar.set_style(
            ProgressStyle::with_template(
                "{msg:>24} [{elapsed_precise}] {wide_bar} {pos}/{len} (eta {eta})",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar.set_message(what.to_string());
        bar
    }
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
            | "float-vif-parity"
            | "float-vif-replay"
            | "float-vif-replay-host"
            | "float-vif-timing"
    );
    let samples = name == "one-term-rule";
    Overrides { seed, samples }
}

/// Every runner name [`runner`] knows.
pub const RUNNERS: [&str; 15] = [
    "one-term-rule",
    "pipeline-plans",
    "cpu-timing",
    "mutations",
    "cargo-mutants",
    "gpu-parity",
    "gpu-timing",
    "gpu-tests",
    "float-vif-parity",
    "float-vif-replay",
    "float-vif-replay-host",
    "float-vif-timing",
    "ssimulacra2-crate",
    "ssimulacra2-parity",
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
        "gpu-tests" => gpu_tests::run,
        "float-vif-parity" => float_vif_parity::run,
        "float-vif-replay" => float_vif_replay::run,
        "float-vif-replay-host" => float_vif_replay_host::run,
        "float-vif-timing" => float_vif_timing::run,
        "ssimulacra2-crate" => ssimulacra2_crate::run,
        "ssimulacra2-parity" => ssimulacra2_parity::run,
        "ssimulacra2-timing" => ssimulacra2_timing::run,
        _ => return None,
    };
    Some(r)
}
