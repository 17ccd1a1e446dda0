//! The test binaries run on the GPU machine from a copy of the tree that need not lie where it
//! was built (binaries staged from a clone in another folder: four tests failed there, call B of
//! 2026-12-07-h, each reading a file by the compile-time `CARGO_MANIFEST_DIR`). Files of the
//! tree are found from the working folder, the project root where cargo and the GPU machine's
//! script start the tests. This test reads the sources and fails on any other use of the
//! compile-time source path, naming the file and the line.

use std::path::{Path, PathBuf};

/// The one place allowed to name the build tree: the installed binary's last resort for its
/// peer programs, after the experiment file's folder and the working folder.
const ALLOWED: &[&str] = &["src/experiment/mod.rs"];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Lines of `text` that take the source folder at compile time (`env!` of the manifest
/// folder); the macro name is split so that this file does not match itself.
fn compile_time_roots(text: &str) -> Vec<usize> {
    let needle = format!("env!(\"{}\")", ["CARGO", "MANIFEST", "DIR"].join("_"));
    text.lines()
        .enumerate()
        .filter(|(_, l)| l.contains(&needle))
        .map(|(i, _)| i + 1)
        .collect()
}

#[test]
fn no_test_or_library_file_reads_the_build_tree() {
    let mut files = Vec::new();
    for dir in ["src", "tests", "examples", "benches"] {
        rust_files(Path::new(dir), &mut files);
    }
    files.sort();
    assert!(files.len() > 80, "read only {} files", files.len());
    let mut wrong = Vec::new();
    let mut allowed_seen = 0;
    for file in &files {
        let text =
            std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let lines = compile_time_roots(&text);
        if ALLOWED.iter().any(|a| Path::new(a) == file) {
            allowed_seen += lines.len();
            continue;
        }
        wrong.extend(lines.iter().map(|l| format!("{}:{l}", file.display())));
    }
    assert!(
        wrong.is_empty(),
        "compile-time source paths (read from the working folder instead):\n{}",
        wrong.join("\n")
    );
    // The allowed use is still there, so the search itself still finds what it looks for.
    assert_eq!(allowed_seen, 1, "{ALLOWED:?}");
}

#[test]
fn the_search_sees_a_compile_time_root() {
    let line = format!(
        "let p = env!(\"{}\");",
        ["CARGO", "MANIFEST", "DIR"].join("_")
    );
    assert_eq!(compile_time_roots(&format!("a\n{line}\nb")), [2]);
    assert!(compile_time_roots("std::env::var(\"CARGO_MANIFEST_DIR\")").is_empty());
}
