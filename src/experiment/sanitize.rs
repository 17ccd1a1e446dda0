//! compute-sanitizer runs of the GPU pipeline, started from a GPU experiment so that its
//! report carries the tools' verdicts and the exact commands.

use std::path::Path;
use std::process::Command;

use crate::report::Table;

/// One tool's run: the command, its summary line and whether it found nothing.
#[derive(Clone, Debug)]
pub struct SanitizerRun {
    /// The tool (`memcheck`, `racecheck`, ...).
    pub tool: String,
    /// The command as run.
    pub command: String,
    /// The tool's summary lines (`ERROR SUMMARY: 0 errors`, `RACECHECK SUMMARY: ...`).
    pub summary: String,
    /// True when the tool ran to the end and reported no error or hazard.
    pub clean: bool,
}

/// Set in the environment of a run under a sanitizer, so that it does not start another.
pub const UNDER_SANITIZER: &str = "BINADE_UNDER_SANITIZER";

/// True when this process runs under a sanitizer started by [`run_tools`].
pub fn under_sanitizer() -> bool {
    std::env::var_os(UNDER_SANITIZER).is_some()
}

/// Runs `compute-sanitizer --tool T` on `binade run EXPERIMENT` for each tool, each within
/// `timeout_s` seconds, with `--experiments DIR` when given (else the binary's own experiment
/// files). A missing sanitizer gives one row saying so (not clean).
pub fn run_tools(
    tools: &[String],
    experiments: Option<&Path>,
    experiment: &str,
    timeout_s: u64,
) -> Vec<SanitizerRun> {
    let exe = std::env::current_exe()
        .map(|p| p.display().to_string())
        .unwrap_or_else(|_| "binade".into());
    tools
        .iter()
        .map(|tool| {
            let out_dir =
                std::env::temp_dir().join(format!("binade-sanitize-{tool}-{}", std::process::id()));
            let mut args = vec![
                timeout_s.to_string(),
                "compute-sanitizer".to_string(),
                "--tool".to_string(),
                tool.clone(),
                "--error-exitcode".to_string(),
                "97".to_string(),
                exe.clone(),
                "run".to_string(),
                experiment.to_string(),
                "--out".to_string(),
                out_dir.display().to_string(),
            ];
            if let Some(dir) = experiments {
                args.push("--experiments".to_string());
                args.push(dir.display().to_string());
            }
            let command = format!("timeout {}", args.join(" "));
            let result = Command::new("timeout")
                .args(&args)
                .env(UNDER_SANITIZER, "1")
                .output();
            let _ = std::fs::remove_dir_all(&out_dir);
            match result {
                Ok(out) => {
                    let text = format!(
                        "{}{}",
                        String::from_utf8_lossy(&out.stdout),
                        String::from_utf8_lossy(&out.stderr)
                    );
                    let summary: Vec<&str> = text
                        .lines()
                        .filter(|l| l.contains("SUMMARY"))
                        .map(|l| l.trim_start_matches("========= ").trim())
                        .collect();
                    let status = out.status.code();
                    let clean = status == Some(0)
                        && !summary.is_empty()
                        && summary
                            .iter()
                            .all(|l| l.contains(" 0 error") || l.contains(" 0 hazard"));
                    let mut summary = summary.join("; ");
                    if status == Some(124) {
                        summary = format!("stopped after {timeout_s} s (not finished); {summary}");
                    } else if status != Some(0) {
                        summary = format!("exit status {status:?}; {summary}");
                    }
                    SanitizerRun {
                        tool: tool.clone(),
                        command,
                        summary,
                        clean,
                    }
                }
                Err(e) => SanitizerRun {
                    tool: tool.clone(),
                    command,
                    summary: format!("not run: {e}"),
                    clean: false,
                },
            }
        })
        .collect()
}

/// The table of sanitizer runs for a report.
pub fn table(runs: &[SanitizerRun]) -> Table {
    let mut t = Table::new(
        "sanitizers",
        "compute-sanitizer on the pipeline",
        &["tool", "verdict", "summary", "command"],
    );
    for r in runs {
        t.row(vec![
            r.tool.clone(),
            if r.clean {
                "clean".into()
            } else {
                "NOT CLEAN".into()
            },
            r.summary.clone(),
            format!("`{}`", r.command),
        ]);
    }
    t
}
