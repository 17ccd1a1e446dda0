//! The house has one direction: every module imports only from its own layer or the layers
//! below it (core <- verify <- device <- metrics <- support <- experiment <- cli). This test
//! reads the sources (the library's code, not its `#[cfg(test)]` modules) and fails on any
//! `crate::` path that looks up, naming the file, the line and the two layers.

use std::path::{Path, PathBuf};

/// The rank of a top-level module: a module may use only modules of equal or lower rank.
/// Within the metrics layer `fixtures` sits above the metrics whose frames it makes.
fn rank(module: &str) -> Option<(u32, &'static str)> {
    Some(match module {
        "format" | "layout" => (0, "core"),
        "unit" => (1, "core"),
        "algebra" | "plan" | "signed_unit" => (2, "core"),
        "walk" | "order" | "fast" => (3, "core"),
        "api" | "cumsum" => (4, "core"),
        "verify" => (10, "verify"),
        "gpu" => (20, "device"),
        "vif" | "ssimulacra2" => (30, "metrics"),
        "fixtures" => (31, "metrics"),
        "plot" | "provenance" => (40, "support"),
        "report" => (41, "support"),
        "experiment" => (50, "experiment"),
        "cli" => (60, "cli"),
        _ => return None,
    })
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The top-level module a file under `src/` belongs to (`None` for lib.rs and main.rs).
fn module_of(src: &Path, file: &Path) -> Option<String> {
    let rel = file.strip_prefix(src).ok()?;
    let first = rel.components().next()?.as_os_str().to_str()?;
    let name = first.strip_suffix(".rs").unwrap_or(first);
    match name {
        "lib" | "main" => None,
        "layout_values" => Some("layout".into()),
        n => Some(n.to_string()),
    }
}

/// The identifier at the start of `s` (after white space).
fn ident(s: &str) -> String {
    s.trim_start()
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect()
}

/// Every module named after `crate::` in `text`, with the byte offset of its `crate::`:
/// `crate::NAME`, and each top-level item of a group `crate::{a::x, b, ...}` (which may span
/// lines).
fn crate_paths(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (i, m) in text.match_indices("crate::") {
        let before = i.checked_sub(1).map(|j| text.as_bytes()[j]);
        if before.is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_') {
            continue;
        }
        let rest = &text[i + m.len()..];
        let Some(group) = rest.strip_prefix('{') else {
            out.push((i, ident(rest)));
            continue;
        };
        let (mut depth, mut start) = (0, 0);
        for (k, c) in group.char_indices() {
            match c {
                '{' => depth += 1,
                '}' if depth == 0 => {
                    out.push((i, ident(&group[start..k])));
                    break;
                }
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    out.push((i, ident(&group[start..k])));
                    start = k + 1;
                }
                _ => {}
            }
        }
    }
    out.retain(|(_, s)| !s.is_empty() && s != "self");
    out
}

/// The library's code of a file: everything before its `#[cfg(test)]` module (tests may use
/// anything), with comment lines blanked so that line numbers stay right.
fn library_code(text: &str) -> String {
    text.lines()
        .take_while(|l| !l.trim_start().starts_with("#[cfg(test)]"))
        .map(|l| {
            if l.trim_start().starts_with("//") {
                ""
            } else {
                l
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn no_module_imports_a_layer_above_it() {
    let src = binade::fixtures::project_root().join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    assert!(
        files.len() > 50,
        "read only {} files under {}",
        files.len(),
        src.display()
    );
    let mut wrong = Vec::new();
    for file in &files {
        let Some(module) = module_of(&src, file) else {
            continue;
        };
        let (own, own_layer) = rank(&module)
            .unwrap_or_else(|| panic!("{}: module `{module}` has no layer", file.display()));
        let code = library_code(&std::fs::read_to_string(file).unwrap());
        for (at, target) in crate_paths(&code) {
            let line = code[..at].matches('\n').count() + 1;
            let Some((theirs, their_layer)) = rank(&target) else {
                wrong.push(format!(
                    "{}:{line}: `crate::{target}` is no known module",
                    file.display()
                ));
                continue;
            };
            if theirs > own {
                wrong.push(format!(
                    "{}:{line}: `{module}` ({own_layer}) uses `crate::{target}` ({their_layer})",
                    file.display()
                ));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "imports that look up:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_checker_sees_an_import_that_looks_up() {
    let names = |t: &str| {
        crate_paths(t)
            .into_iter()
            .map(|(_, n)| n)
            .collect::<Vec<_>>()
    };
    assert_eq!(
        names("use crate::experiment::{Context, Outcome};"),
        ["experiment"]
    );
    assert_eq!(names("x = my_crate::foo; y = crate::gpu::Gpu"), ["gpu"]);
    assert_eq!(
        names("use crate::{\n    cli::exit::X,\n    gpu::{A, B},\n    self,\n};"),
        ["cli", "gpu"]
    );
    assert_eq!(
        library_code("use crate::cli;\n#[cfg(test)]\nuse crate::cli;"),
        "use crate::cli;"
    );
    assert!(rank("vif").unwrap().0 < rank("experiment").unwrap().0);
}
