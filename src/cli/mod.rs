//! The command line: `binade list`, `binade run NAME`, `binade sum FILE...`, and the exit
//! codes ([`exit`]).

pub mod exit;
pub mod heap;
pub mod sum;

/// The `binade` binary a test should run: `BINADE_BIN` when set (the GPU machine runs test
/// binaries built elsewhere, beside the carried binary), else `built`, the path cargo gave the
/// test at compile time.
pub fn binary_under_test(built: &str) -> PathBuf {
    std::env::var_os("BINADE_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(built))
}

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::experiment::{self, ConfigError, Context};
use crate::gpu::{KernelCompileError, NoDevice};
use crate::provenance::Provenance;
use crate::report;
use exit::{EXIT_BAD_INPUT, EXIT_FAILED_CHECKS, EXIT_KERNEL_COMPILE, EXIT_NO_DEVICE, EXIT_OK};

/// Exact ordered floating-point sums on CPU and GPU, verified against MPFR.
#[derive(Debug, Parser)]
#[command(name = "binade", version, about, long_about = None)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// List the experiments in the experiments folder, one line each.
    List {
        /// Folder holding the experiment files.
        #[arg(long, default_value = "experiments")]
        experiments: PathBuf,
    },
    /// Run the experiment `experiments/NAME.toml` and write its report folder.
    Run(RunArgs),
    /// Sum term streams from .npy or raw files the way the CPU loop does.
    Sum(sum::SumArgs),
    /// Rewrite the index (README.md) of a reports folder from its reports' headlines.
    Reindex {
        /// The reports folder.
        #[arg(default_value = "reports")]
        dir: PathBuf,
    },
}

/// Arguments of `binade run`.
#[derive(Debug, clap::Args)]
pub struct RunArgs {
    /// The experiment's name (see `binade list`).
    pub name: String,
    /// Run the quick settings (seconds to a few minutes) instead of the full ones.
    #[arg(long)]
    pub quick: bool,
    /// Seed for every random choice (default: the experiment file's).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Override the number of random samples.
    #[arg(long)]
    pub samples: Option<u64>,
    /// Report folder (default: reports/NAME).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Folder holding the experiment files.
    #[arg(long, default_value = "experiments")]
    pub experiments: PathBuf,
}

/// Parses the command line and runs it; the exit code is one of [`exit`]'s.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let code = match cli.command {
        Command::List { experiments } => list(&experiments),
        Command::Run(args) => run(&args),
        Command::Sum(args) => sum::run(&args),
        Command::Reindex { dir } => match report::write_index(&dir) {
            Ok(()) => EXIT_OK,
            Err(e) => {
                eprintln!("binade: {}: {e:#}", dir.display());
                EXIT_BAD_INPUT
            }
        },
    };
    ExitCode::from(code as u8)
}

fn list(dir: &std::path::Path) -> i32 {
    match experiment::config::list(dir) {
        Ok(items) => {
            let width = items.iter().map(|(n, _)| n.len()).max().unwrap_or(0);
            for (name, desc) in items {
                println!("{name:<width$}  {desc}");
            }
            EXIT_OK
        }
        Err(e) => {
            eprintln!("binade: {}: {e}", dir.display());
            EXIT_BAD_INPUT
        }
    }
}

fn run(args: &RunArgs) -> i32 {
    let (file, parsed) = match experiment::load(&args.experiments, &args.name) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("binade: {e}");
            return EXIT_BAD_INPUT;
        }
    };
    let Some(runner) = experiment::runner(&parsed.runner) else {
        eprintln!(
            "binade: {}",
            ConfigError::new(
                &file,
                "runner",
                format!("unknown runner `{}`", parsed.runner)
            )
        );
        return EXIT_BAD_INPUT;
    };
    let mut params = parsed.params.clone();
    let mode = if args.quick {
        &parsed.quick
    } else {
        &parsed.full
    };
    for (k, v) in mode {
        params.insert(k.clone(), v.clone());
    }
    let out_dir = args
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from("reports").join(&args.name));
    let ctx = Context {
        name: args.name.clone(),
        file,
        quick: args.quick,
        seed: args.seed.unwrap_or(parsed.seed),
        samples: args.samples,
        params,
        out_dir: out_dir.clone(),
    };
    let mut prov = Provenance::collect(&regenerate_command(args));
    let started = std::time::Instant::now();
    let outcome = match runner(&ctx) {
        Ok(o) => o,
        Err(e) => return report_error(&e),
    };
    prov.setting("mode", ctx.mode());
    prov.setting(
        "run time",
        format!("{:.1} s", started.elapsed().as_secs_f64()),
    );
    prov.setting("seed", ctx.seed);
    if let Some(n) = ctx.samples {
        prov.setting("samples (override)", n);
    }
    if let Err(e) = outcome.report.write(&out_dir, &prov) {
        eprintln!("binade: writing report {}: {e:#}", out_dir.display());
        return EXIT_BAD_INPUT;
    }
    if let Some(parent) = out_dir.parent() {
        if let Err(e) = report::write_index(parent) {
            eprintln!(
                "binade: updating the report index in {}: {e:#}",
                parent.display()
            );
        }
    }
    println!("{}: {}", args.name, outcome.report.headline);
    println!("report: {}", out_dir.join("README.md").display());
    if outcome.failures > 0 {
        eprintln!(
            "binade: {} check(s) failed; see the report",
            outcome.failures
        );
        EXIT_FAILED_CHECKS
    } else {
        EXIT_OK
    }
}

fn report_error(e: &anyhow::Error) -> i32 {
    if let Some(nd) = e.downcast_ref::<NoDevice>() {
        eprintln!("binade: {nd}");
        return EXIT_NO_DEVICE;
    }
    if let Some(ce) = e.downcast_ref::<KernelCompileError>() {
        eprintln!("binade: {ce}");
        return EXIT_KERNEL_COMPILE;
    }
    if let Some(ce) = e.downcast_ref::<ConfigError>() {
        eprintln!("binade: {ce}");
        return EXIT_BAD_INPUT;
    }
    eprintln!("binade: {e:#}");
    EXIT_BAD_INPUT
}

fn regenerate_command(args: &RunArgs) -> String {
    let mut cmd = format!("binade run {}", args.name);
    if args.quick {
        cmd.push_str(" --quick");
    }
    if let Some(s) = args.seed {
        cmd.push_str(&format!(" --seed {s}"));
    }
    if let Some(n) = args.samples {
        cmd.push_str(&format!(" --samples {n}"));
    }
    format!(
        "{cmd}\n# or: just run-experiment {}{}",
        args.name,
        if args.quick { " --quick" } else { "" }
    )
}
