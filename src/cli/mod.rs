//! The command line: `binade list`, `binade run NAME`, `binade sum FILE...`,
//! `binade cumsum IN OUT.npy` ([`cumsum`]), and the exit codes ([`exit`]).
//!
//! Guarantee: only a full run of the committed settings (no `--quick`, `--seed`,
//! `--samples` or `--experiments`, no `--out`) writes `reports/NAME` and the index
//! `reports/README.md`; any other run writes `reports-local/NAME`, and `--out DIR` writes
//! inside `DIR` and nowhere else.

pub mod atomic;
pub mod cumsum;
pub mod exit;
pub mod heap;
pub mod research;
pub mod score;
pub mod sum;

/// The `binade` binary a test should run: `BINADE_BIN` when set (the GPU machine runs test
/// binaries built elsewhere, beside the carried binary), else `built`, the path cargo gave the
/// test at compile time.
pub fn binary_under_test(built: &str) -> PathBuf {
    std::env::var_os("BINADE_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(built))
}

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::experiment::{self, ConfigError, Context, Source};
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
    /// List the experiments, one line each; `(GPU)` marks those that need an NVIDIA GPU.
    List {
        /// Read experiment files from this folder instead of those built into the binary.
        #[arg(long, value_name = "DIR")]
        experiments: Option<PathBuf>,
    },
    /// Run an experiment and write its report folder.
    Run(RunArgs),
    /// Sum term streams from .npy or raw files the way the CPU loop does.
    Sum(sum::SumArgs),
    /// Write the loop's running sum at every position of a term stream (numpy's `np.cumsum`
    /// by default) to a .npy file, bit for bit.
    Cumsum(cumsum::CumsumArgs),
    /// Score a pair of raw YUV files frame by frame (float_vif, ssimulacra2) the way libvmaf's
    /// `vmaf` tool takes them; JSON shaped like `vmaf --json`'s.
    Score(score::ScoreArgs),
    /// Set Research-1433's and ADR-1412's claims beside the harness's figures: writes
    /// reports/research-1433 and reports/adr-1412 (runs the cited experiments first unless
    /// --from-reports).
    Research(research::ResearchArgs),
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
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Number of random samples, at least 1 (only experiments that draw samples take it).
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    pub samples: Option<String>,
    /// Write the report into DIR and nowhere else (default: reports/NAME for a full run of the
    /// committed settings, reports-local/NAME for any other run).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Read experiment files from DIR instead of those built into the binary.
    #[arg(long, value_name = "DIR")]
    pub experiments: Option<PathBuf>,
}

/// The folder, under the working directory, of the committed reports and their index.
pub const REPORTS: &str = "reports";
/// The folder, under the working directory, of every other run's reports (ignored by git).
pub const LOCAL_REPORTS: &str = "reports-local";

/// Where a run writes its report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Destination {
    /// The report folder.
    pub dir: PathBuf,
    /// The reports folder whose index (`README.md`) is rewritten after the report, if any.
    pub index: Option<PathBuf>,
}

/// Where experiment `name` writes: `--out DIR` alone when given (no index); else
/// `reports/NAME` and the index of `reports/` for a full run of the committed settings
/// (`committed`), and `reports-local/NAME` (no index) for any other run, so that a quick or
/// ad-hoc run never replaces a committed report.
pub fn destination(name: &str, out: Option<&Path>, committed: bool) -> Destination {
    match out {
        Some(dir) => Destination {
            dir: dir.to_path_buf(),
            index: None,
        },
        None if committed => Destination {
            dir: Path::new(REPORTS).join(name),
            index: Some(PathBuf::from(REPORTS)),
        },
        None => Destination {
            dir: Path::new(LOCAL_REPORTS).join(name),
            index: None,
        },
    }
}

/// Reads `--samples`: a whole number of at least 1 (`_` may group digits), or a message in
/// plain words.
pub fn parse_samples(text: &str) -> Result<u64, String> {
    let t = text.trim().replace('_', "");
    if let Some(rest) = t.strip_prefix('-') {
        if !rest.is_empty() && rest.chars().all(|c| c.is_ascii_digit()) {
            return Err(format!(
                "--samples {text}: a sample count cannot be negative; give a whole number of at least 1"
            ));
        }
    }
    match t.parse::<u64>() {
        Ok(0) => Err("--samples 0 would check nothing; give a whole number of at least 1".into()),
        Ok(n) => Ok(n),
        Err(_) => Err(format!(
            "--samples {text}: not a whole number; give a count of at least 1, e.g. --samples 1000000"
        )),
    }
}

impl RunArgs {
    /// True when the run uses the committed settings unchanged: full mode, the embedded
    /// experiment file, no `--seed` and no `--samples`.
    pub fn committed(&self) -> bool {
        !self.quick && self.seed.is_none() && self.samples.is_none() && self.experiments.is_none()
    }

    /// The arguments after `binade run NAME` that change what is run, as typed.
    fn overrides(&self, samples: Option<u64>) -> String {
        let mut s = String::new();
        if self.quick {
            s.push_str(" --quick");
        }
        if let Some(seed) = self.seed {
            s.push_str(&format!(" --seed {seed}"));
        }
        if let Some(n) = samples {
            s.push_str(&format!(" --samples {n}"));
        }
        if let Some(d) = &self.experiments {
            s.push_str(&format!(" --experiments {}", d.display()));
        }
        s
    }
}

/// Parses the command line and runs it; the exit code is one of [`exit`]'s.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let code = match cli.command {
        Command::List { experiments } => list(&Source::from_arg(experiments.as_deref())),
        Command::Run(args) => run(&args),
        Command::Sum(args) => sum::run(&args),
        Command::Cumsum(args) => cumsum::run(&args),
        Command::Score(args) => score::run(&args),
        Command::Research(args) => research::run(&args),
        Command::Reindex { dir } => match report::write_index(&dir) {
            Ok(()) => EXIT_OK,
            Err(e) => {
                eprintln!("binade: {}: {e:#}", dir.display());
                EXIT_BAD_INPUT
            }
        },
    };
    experiment::finish_progress_lines();
    ExitCode::from(code as u8)
}

/// `(GPU)` for an experiment that needs a GPU, else nothing: the mark `binade list` and the
/// README's table of experiments share.
pub const GPU_MARK: &str = "(GPU)";

fn list(source: &Source) -> i32 {
    use std::io::Write as _;
    match experiment::config::list(source) {
        Ok(items) => {
            let width = items.iter().map(|(n, _)| n.len()).max().unwrap_or(0);
            let mut lines: Vec<String> = items
                .into_iter()
                .map(|(name, parsed)| match parsed {
                    Ok(f) => {
                        let mark = if f.gpu { GPU_MARK } else { "" };
                        format!("{name:<width$}  {mark:<5}  {}", f.description)
                    }
                    Err(e) => format!("{name:<width$}  {:<5}  (unreadable: {e})", ""),
                })
                .collect();
            lines.push(format!(
                "{GPU_MARK}: needs an NVIDIA GPU with CUDA 13 (without one: exit code 3)"
            ));
            // A closed pipe (`binade list | head`) ends the listing quietly.
            let mut out = std::io::stdout().lock();
            for line in lines {
                if writeln!(out, "{line}").is_err() {
                    break;
                }
            }
            EXIT_OK
        }
        Err(e) => {
            let place = match source {
                Source::Dir(d) => d.display().to_string(),
                Source::Embedded => "the built-in experiments".into(),
            };
            eprintln!("binade: {place}: {e}");
            EXIT_BAD_INPUT
        }
    }
}

/// The experiments (by name) whose runner honours `--samples`.
fn sampled_experiments(source: &Source) -> Vec<String> {
    experiment::config::list(source)
        .unwrap_or_default()
        .into_iter()
        .filter_map(|(n, f)| {
            f.ok()
                .filter(|f| experiment::overrides(&f.runner).samples)
                .map(|_| n)
        })
        .collect()
}

fn run(args: &RunArgs) -> i32 {
    let samples = match args.samples.as_deref().map(parse_samples).transpose() {
        Ok(n) => n,
        Err(e) => {
            eprintln!("binade: {e}");
            return EXIT_BAD_INPUT;
        }
    };
    let source = Source::from_arg(args.experiments.as_deref());
    let (file, parsed) = match experiment::load(&source, &args.name) {
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
                format!(
                    "unknown runner `{}` (known: {})",
                    parsed.runner,
                    experiment::RUNNERS.join(", ")
                )
            )
        );
        return EXIT_BAD_INPUT;
    };
    let honours = experiment::overrides(&parsed.runner);
    if args.seed.is_some() && !honours.seed {
        eprintln!(
            "binade: {} draws nothing at random, so --seed would change nothing; leave it out",
            args.name
        );
        return EXIT_BAD_INPUT;
    }
    if samples.is_some() && !honours.samples {
        let takers = sampled_experiments(&source);
        eprintln!(
            "binade: {} takes no sample count, so --samples would change nothing; leave it out (experiments that take it: {})",
            args.name,
            takers.join(", ")
        );
        return EXIT_BAD_INPUT;
    }
    let mut params = parsed.params.clone();
    let mode = if args.quick {
        &parsed.quick
    } else {
        &parsed.full
    };
    for (k, v) in mode {
        params.insert(k.clone(), v.clone());
    }
    let dest = destination(&args.name, args.out.as_deref(), args.committed());
    let ctx = Context {
        name: args.name.clone(),
        file,
        quick: args.quick,
        seed: args.seed.unwrap_or(parsed.seed),
        samples,
        params,
        out_dir: dest.dir.clone(),
        experiments: args.experiments.clone(),
    };
    eprintln!(
        "binade: running {} ({} mode), report into {}",
        args.name,
        ctx.mode(),
        dest.dir.display()
    );
    let mut prov = Provenance::collect(&regenerate_command(args, samples));
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
    // The form kernels reach the driver in may change their machine code (never their bits).
    if let Ok(form) = std::env::var(crate::gpu::MODULE_FORM_VAR) {
        prov.setting(
            "kernel modules",
            format!("{}={form}", crate::gpu::MODULE_FORM_VAR),
        );
    }
    if let Some(n) = ctx.samples {
        prov.setting("samples (override)", n);
    }
    if let Err(e) = outcome.report.write(&dest.dir, &prov) {
        eprintln!("binade: writing report {}: {e:#}", dest.dir.display());
        return EXIT_BAD_INPUT;
    }
    println!("{}: {}", args.name, outcome.report.headline);
    let readme = dest.dir.join("README.md");
    match (&dest.index, &args.out) {
        (Some(index), _) => match report::write_index(index) {
            Ok(()) => println!(
                "report: {} (the committed report; index {} updated)",
                readme.display(),
                index.join("README.md").display()
            ),
            Err(e) => eprintln!(
                "binade: updating the report index in {}: {e:#}",
                index.display()
            ),
        },
        (None, Some(_)) => println!("report: {}", readme.display()),
        (None, None) => println!(
            "report: {} ({REPORTS}/ is written only by a full run of the committed settings)",
            readme.display()
        ),
    }
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

/// The command that regenerates the report, with every override the run was given.
fn regenerate_command(args: &RunArgs, samples: Option<u64>) -> String {
    let rest = args.overrides(samples);
    format!(
        "binade run {name}{rest}\n# or: just run-experiment {name}{rest}",
        name = args.name
    )
}
