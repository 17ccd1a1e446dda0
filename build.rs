//! Three jobs:
//! 1. Embeds the commit the binary is built from, and whether the tree had changes, as the
//!    environment variables `BINADE_BUILD_COMMIT` and `BINADE_BUILD_DIRTY` (reports record
//!    them, wherever the binary later runs).
//! 2. Compiles kernels/binade.cuh as host C++ once per mutant code (the shim in
//!    kernels/host_shim.cpp with `-DBINADE_MUTANT=k`, and kernels/host_shim_signed.cpp once per
//!    signed mutant code), plus a dispatch table, so tests compare
//!    the device algebra with the Rust one without a GPU; and the float VIF and SSIMULACRA2
//!    headers likewise. These are rebuilt only when their sources change (a stamp in OUT_DIR),
//!    because job 1 makes this script run again after every edit of the tree.
//! 3. Embeds every experiment file (`experiments/*.toml`) in the binary (`OUT_DIR/experiments.rs`),
//!    so `binade list` and `binade run` work from any folder.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Mutant codes compiled: the length of `Mutant::ALL` (a test checks they agree).
const MUTANT_CODES: u32 = 13;

/// Signed mutant codes compiled: the length of `SignedFault::ALL` (a test checks they agree).
const SIGNED_CODES: u32 = 4;

fn main() {
    embed_commit();
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    embed_experiments(&out);
    let stamp = out.join("host-headers.stamp");
    let key = sources_key();
    if std::fs::read_to_string(&stamp).ok().as_deref() == Some(key.as_str()) {
        // Unchanged headers: link what the last run compiled.
        println!("cargo:rustc-link-search=native={}", out.display());
        for lib in ["binade_host_shim", "float_vif_host", "binade_ss2_host"] {
            println!("cargo:rustc-link-lib=static={lib}");
        }
        println!("cargo:rustc-link-lib=stdc++");
        return;
    }
    build_algebra(&out);
    build_vif();
    build_ssimulacra2();
    std::fs::write(&stamp, key).expect("writing the stamp into OUT_DIR");
}

/// The layout numbers (`src/layout_values.rs`), shared with the library.
mod layout {
    include!("src/layout_values.rs");
}

/// The host C++ sources and their contents, as one string: equal strings, equal builds.
fn sources_key() -> String {
    let mut key = String::new();
    for f in [
        "build.rs",
        "src/layout_values.rs",
        "kernels/binade.cuh",
        "kernels/host_shim.cpp",
        "kernels/host_shim_dispatch.cpp",
        "kernels/host_shim_signed.cpp",
        "kernels/float_vif.cuh",
        "kernels/float_vif_host.cpp",
        "kernels/ssimulacra2_terms.cuh",
        "kernels/ssimulacra2_host.cpp",
    ] {
        println!("cargo:rerun-if-changed={f}");
        let text = std::fs::read_to_string(f).unwrap_or_default();
        let _ = writeln!(key, "{f}:{}:{text}", text.len());
    }
    key
}

/// `git` in the manifest's folder, its output trimmed, or `None`.
fn git(root: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .arg("-C")
        .arg(root)
        .args(args)
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// Sets `BINADE_BUILD_COMMIT` (the HEAD commit, or `unknown`) and `BINADE_BUILD_DIRTY`
/// (`true` when tracked files outside `reports/` differ from HEAD) for the library, and asks
/// cargo to run this script again when HEAD moves or a tracked file outside `reports/`
/// changes. Reports are left out on purpose: every `binade run` rewrites them, and they do not
/// change what the binary computes. Nothing watched is written by the build or the tests
/// (`git --no-optional-locks` keeps `git status` from refreshing the index), so an unchanged
/// tree is not rebuilt.
fn embed_commit() {
    let root =
        PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let commit = git(&root, &["rev-parse", "HEAD"]).unwrap_or_else(|| "unknown".into());
    let dirty = git(
        &root,
        &[
            "--no-optional-locks",
            "status",
            "--porcelain",
            "--untracked-files=no",
            "--",
            ".",
            ":!reports",
        ],
    )
    .map(|s| !s.is_empty())
    .unwrap_or(false);
    println!("cargo:rustc-env=BINADE_BUILD_COMMIT={commit}");
    println!("cargo:rustc-env=BINADE_BUILD_DIRTY={dirty}");
    if let Some(git_dir) = git(&root, &["rev-parse", "--absolute-git-dir"]) {
        // A path that does not exist would make cargo run this script on every build.
        for f in ["HEAD", "refs", "packed-refs"] {
            let path = Path::new(&git_dir).join(f);
            if path.exists() {
                println!("cargo:rerun-if-changed={}", path.display());
            }
        }
    }
    let tracked = git(&root, &["ls-files"]).unwrap_or_default();
    for f in tracked
        .lines()
        .filter(|f| !f.starts_with("reports/") && root.join(f).exists())
    {
        println!("cargo:rerun-if-changed={f}");
    }
    println!("cargo:rerun-if-changed=build.rs");
}

/// Writes `out/experiments.rs`: the constant `FILES`, every `experiments/*.toml` as
/// (name, text) through `include_str!`, sorted by name.
fn embed_experiments(out: &Path) {
    let root =
        PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let dir = root.join("experiments");
    println!("cargo:rerun-if-changed=experiments");
    let mut files: Vec<(String, PathBuf)> = std::fs::read_dir(&dir)
        .map(|entries| {
            entries
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().and_then(|e| e.to_str()) == Some("toml"))
                .filter_map(|p| {
                    let stem = p.file_stem()?.to_str()?.to_string();
                    Some((stem, p))
                })
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    let mut code = String::from(
        "/// Every experiment file of the source tree: (name, the file's text).\npub const FILES: &[(&str, &str)] = &[\n",
    );
    for (name, path) in &files {
        let _ = writeln!(
            code,
            "    ({name:?}, include_str!({:?})),",
            path.display().to_string()
        );
    }
    code.push_str("];\n");
    std::fs::write(out.join("experiments.rs"), code).expect("writing experiments.rs into OUT_DIR");
}

/// The algebra header for the host, once per mutant code.
fn build_algebra(out: &Path) {
    let kernels =
        PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"))
            .join("kernels");
    let mut build = cc::Build::new();
    build
        .cpp(true)
        .opt_level(2)
        .flag("-ffp-contract=off")
        .flag("-std=c++14")
        .include(&kernels)
        .warnings(true)
        .extra_warnings(true);
    for (name, value) in [
        ("BINADE_LANES", layout::LANES),
        ("BINADE_PER_LANE", layout::PER_LANE),
        ("BINADE_CHUNK", layout::CHUNK),
        ("BINADE_GROUP", layout::GROUP),
        ("BINADE_STAGE", layout::STAGE),
        ("BINADE_OP_THREADS", layout::OP_THREADS),
        ("BINADE_OP_PER_THREAD", layout::OP_PER_THREAD),
        ("BINADE_OP_TILE", layout::OP_TILE),
        ("BINADE_SIGNED_STAGE", layout::SIGNED_STAGE),
    ] {
        build.define(name, Some(value.to_string().as_str()));
    }
    build.define(
        "BINADE_PLAN_NEGATIVE",
        Some(format!("{:#x}u", layout::PLAN_NEGATIVE).as_str()),
    );
    let mut list = String::new();
    for k in 0..MUTANT_CODES {
        let wrapper = out.join(format!("host_shim_m{k}.cpp"));
        let text = format!(
            "#define BINADE_MUTANT {k}\n#define BINADE_SHIM_SUFFIX _m{k}\n#include \"{}\"\n",
            kernels.join("host_shim.cpp").display()
        );
        std::fs::write(&wrapper, text).expect("writing a shim wrapper into OUT_DIR");
        build.file(&wrapper);
        let _ = write!(list, "X({k}) ");
    }
    for k in 0..SIGNED_CODES {
        let wrapper = out.join(format!("host_shim_s{k}.cpp"));
        let text = format!(
            "#define BINADE_SIGNED_MUTANT {k}\n#define BINADE_SHIM_SUFFIX _s{k}\n#include \"{}\"\n",
            kernels.join("host_shim_signed.cpp").display()
        );
        std::fs::write(&wrapper, text).expect("writing a shim wrapper into OUT_DIR");
        build.file(&wrapper);
    }
    build.file(kernels.join("host_shim_dispatch.cpp"));
    build.define("BINADE_SHIM_LIST(X)", Some(list.trim_end()));
    build.compile("binade_host_shim");
}

/// Float VIF: compiles kernels/float_vif.cuh as host C++ through kernels/float_vif_host.cpp
/// (no FMA contraction), with the binade algebra of kernels/binade.cuh.
fn build_vif() {
    let root = std::path::PathBuf::from(
        std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"),
    );
    let kernels = root.join("kernels");
    let mut build = cc::Build::new();
    build
        .cpp(true)
        .opt_level(2)
        .flag("-ffp-contract=off")
        .flag("-std=c++14")
        .include(&kernels)
        .warnings(true);
    build.define("FVIF_WITH_BINADE", None);
    build.file(kernels.join("float_vif_host.cpp"));
    build.compile("float_vif_host");
}

/// Compiles the SSIMULACRA2 per-pixel term header for the host, so that tests compare it with
/// the Rust terms by bits without a GPU.
fn build_ssimulacra2() {
    cc::Build::new()
        .cpp(true)
        .opt_level(2)
        .flag("-ffp-contract=off")
        .flag("-std=c++14")
        .include("kernels")
        .warnings(true)
        .file("kernels/ssimulacra2_host.cpp")
        .compile("binade_ss2_host");
}
