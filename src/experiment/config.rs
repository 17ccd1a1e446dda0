//! Experiment files: `experiments/NAME.toml`, embedded in the binary at build time (so
//! `binade` runs from any folder) or read from a folder given with `--experiments`, parsed
//! with clear errors.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::ConfigError;

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/experiments.rs"));
}

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
    /// True for an experiment that needs an NVIDIA GPU (`binade list` marks it).
    #[serde(default)]
    pub gpu: bool,
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

/// Where experiment files come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// The files of `experiments/` as they were when the binary was built.
    Embedded,
    /// A folder of `NAME.toml` files (`--experiments DIR`).
    Dir(PathBuf),
}

impl Source {
    /// The source for an optional `--experiments DIR`.
    pub fn from_arg(dir: Option<&Path>) -> Source {
        match dir {
            Some(d) => Source::Dir(d.to_path_buf()),
            None => Source::Embedded,
        }
    }

    /// The path errors and reports name for experiment `name`: `experiments/NAME.toml` for
    /// the embedded files, `DIR/NAME.toml` otherwise.
    pub fn file(&self, name: &str) -> PathBuf {
        match self {
            Source::Embedded => Path::new("experiments").join(format!("{name}.toml")),
            Source::Dir(d) => d.join(format!("{name}.toml")),
        }
    }

    /// Every experiment name, sorted.
    pub fn names(&self) -> std::io::Result<Vec<String>> {
        let mut names: Vec<String> = match self {
            Source::Embedded => embedded::FILES.iter().map(|(n, _)| n.to_string()).collect(),
            Source::Dir(d) => {
                let mut v = Vec::new();
                for entry in std::fs::read_dir(d)? {
                    let path = entry?.path();
                    if path.extension().and_then(|e| e.to_str()) != Some("toml") {
                        continue;
                    }
                    if let Some(stem) = path.file_stem().and_then(|s| s.to_str()) {
                        v.push(stem.to_string());
                    }
                }
                v
            }
        };
        names.sort();
        Ok(names)
    }

    /// The text of experiment `name`, or `None` when there is no such experiment.
    fn text(&self, name: &str) -> Option<std::io::Result<String>> {
        match self {
            Source::Embedded => embedded::FILES
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, t)| Ok(t.to_string())),
            Source::Dir(d) => {
                let file = d.join(format!("{name}.toml"));
                match std::fs::read_to_string(&file) {
                    Ok(t) => Some(Ok(t)),
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
                    Err(e) => Some(Err(e)),
                }
            }
        }
    }
}

/// Why an experiment could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// No experiment of that name: the message suggests close names.
    #[error("unknown experiment `{name}`{hint}")]
    Unknown {
        /// The name asked for.
        name: String,
        /// "; did you mean `...`?" or where the names can be seen.
        hint: String,
    },
    /// The file exists but is malformed (names the file and the field or line).
    #[error(transparent)]
    Config(#[from] ConfigError),
}

/// Reads and parses experiment `name` from `source`. Errors name the file and the field (or
/// line); an unknown name gets the closest known names.
pub fn load(source: &Source, name: &str) -> Result<(PathBuf, ExperimentFile), LoadError> {
    let file = source.file(name);
    let plain = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if !plain {
        return Err(LoadError::Unknown {
            name: name.to_string(),
            hint: " (a name has only letters, digits, `-` and `_`; `binade list` shows them)"
                .into(),
        });
    }
    let text = match source.text(name) {
        Some(Ok(t)) => t,
        Some(Err(e)) => {
            return Err(ConfigError::new(&file, "", format!("cannot read it: {e}")).into());
        }
        None => {
            return Err(LoadError::Unknown {
                name: name.to_string(),
                hint: unknown_hint(source, name),
            })
        }
    };
    let parsed: ExperimentFile = toml::from_str(&text).map_err(|e| {
        let span = e
            .span()
            .map(|s| line_of(&text, s.start))
            .map(|l| format!(" (line {l})"))
            .unwrap_or_default();
        let field = e.message().split('`').nth(1).unwrap_or("").to_string();
        ConfigError::new(&file, &field, format!("{}{span}", e.message()))
    })?;
    Ok((file, parsed))
}

/// The end of an "unknown experiment" message: the closest names, or where to look.
fn unknown_hint(source: &Source, name: &str) -> String {
    let names = source.names().unwrap_or_default();
    let place = match source {
        Source::Embedded => String::new(),
        Source::Dir(d) => format!(" in {}", d.display()),
    };
    if names.is_empty() {
        return format!("{place}: there are no experiment files there");
    }
    let close = suggestions(name, &names);
    if close.is_empty() {
        format!(
            "{place}; `binade list` shows the {} experiments",
            names.len()
        )
    } else {
        let mut quoted: Vec<String> = close.iter().map(|n| format!("`{n}`")).collect();
        let last = quoted.pop().unwrap_or_default();
        let alternatives = if quoted.is_empty() {
            last
        } else {
            format!("{} or {last}", quoted.join(", "))
        };
        format!("{place}; did you mean {alternatives}?")
    }
}

/// Up to three of `names` close to `name`: those within a small edit distance, or that
/// contain it (or it them), closest first.
pub fn suggestions(name: &str, names: &[String]) -> Vec<String> {
    let wanted = name.to_ascii_lowercase();
    let mut scored: Vec<(usize, &String)> = names
        .iter()
        .filter_map(|n| {
            let d = strsim::levenshtein(&wanted, n);
            let near = d <= (n.len() / 3).max(2);
            let part = wanted.len() >= 3 && (n.contains(&wanted) || wanted.contains(n.as_str()));
            (near || part).then_some((d, n))
        })
        .collect();
    scored.sort();
    scored.into_iter().take(3).map(|(_, n)| n.clone()).collect()
}

fn line_of(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())].lines().count().max(1)
}

/// Every experiment in `source`, sorted, parsed (an unparsable file gives its error).
pub fn list(source: &Source) -> std::io::Result<Vec<(String, Result<ExperimentFile, String>)>> {
    Ok(source
        .names()?
        .into_iter()
        .map(|name| {
            let parsed = load(source, &name)
                .map(|(_, f)| f)
                .map_err(|e| e.to_string());
            (name, parsed)
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_files_parse() {
        let items = list(&Source::Embedded).unwrap();
        assert!(items.iter().any(|(n, _)| n == "one-term-rule"), "{items:?}");
        for (name, parsed) in items {
            assert!(parsed.is_ok(), "{name}: {parsed:?}");
        }
    }

    #[test]
    fn close_names_are_suggested() {
        let names: Vec<String> = ["one-term-rule", "cpu-timing", "gpu-timing", "mutations"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(suggestions("one-term-rul", &names), ["one-term-rule"]);
        assert_eq!(suggestions("timing", &names), ["cpu-timing", "gpu-timing"]);
        assert!(suggestions("zzzz", &names).is_empty());
    }
}
