//! Experiment files: `experiments/NAME.toml`, parsed with clear errors.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::ConfigError;

/// The parsed top level of an experiment file.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExperimentFile {
    /// One line for `binade list`.
    pub description: String,
    /// Which runner executes the experiment.
    pub runner: String,
    /// Default seed.
    pub seed: u64,
    /// Parameters shared by both modes.
    #[serde(default)]
    pub params: toml::Table,
    /// Overrides for `--quick`.
    #[serde(default)]
    pub quick: toml::Table,
    /// Overrides for a full run.
    #[serde(default)]
    pub full: toml::Table,
}

/// Reads and parses `dir/NAME.toml`. Errors name the file and the field (or line).
pub fn load(dir: &Path, name: &str) -> Result<(PathBuf, ExperimentFile), ConfigError> {
    let file = dir.join(format!("{name}.toml"));
    if !name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        || name.is_empty()
    {
        return Err(ConfigError::new(
            &file,
            "name",
            format!("`{name}` is not an experiment name"),
        ));
    }
    let text = std::fs::read_to_string(&file).map_err(|e| {
        let known = list(dir)
            .map(|v| v.into_iter().map(|(n, _)| n).collect::<Vec<_>>().join(", "))
            .unwrap_or_default();
        ConfigError::new(
            &file,
            "-",
            format!("unknown experiment `{name}` ({e}); known: {known}"),
        )
    })?;
    let parsed: ExperimentFile = toml::from_str(&text).map_err(|e| {
        let span = e
            .span()
            .map(|s| line_of(&text, s.start))
            .map(|l| format!(" (line {l})"))
            .unwrap_or_default();
        let field = e.message().split('`').nth(1).unwrap_or("-").to_string();
        ConfigError::new(&file, &field, format!("{}{span}", e.message()))
    })?;
    Ok((file, parsed))
}

fn line_of(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())].lines().count().max(1)
}

/// Every experiment in `dir`, sorted, with its description (unparsable files are listed with
/// their error).
pub fn list(dir: &Path) -> std::io::Result<Vec<(String, String)>> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.extension().and_then(|e| e.to_str()) != Some("toml") {
            continue;
        }
        let Some(name) = path
            .file_stem()
            .and_then(|s| s.to_str())
            .map(str::to_string)
        else {
            continue;
        };
        let desc = match load(dir, &name) {
            Ok((_, f)) => f.description,
            Err(e) => format!("(unreadable: {e})"),
        };
        out.push((name, desc));
    }
    out.sort();
    Ok(out)
}
