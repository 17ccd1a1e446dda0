//! `binade sum`: term streams from files, summed the way the CPU loop sums them.

/// Arguments of `binade sum`.
#[derive(Debug, clap::Args)]
pub struct SumArgs {
    /// Files holding term streams.
    pub files: Vec<std::path::PathBuf>,
}

/// Runs `binade sum`; returns the exit code.
pub fn run(_args: &SumArgs) -> i32 {
    eprintln!("binade sum: not available in this build");
    crate::experiment::EXIT_BAD_INPUT
}
