//! Compiles kernels/binade.cuh as host C++ once per mutant code (the shim in
//! kernels/host_shim.cpp with `-DBINADE_MUTANT=k`), plus a dispatch table, so tests compare the
//! device algebra with the Rust one without a GPU.

use std::fmt::Write as _;
use std::path::PathBuf;

/// Mutant codes compiled: the length of `Mutant::ALL` (a test checks they agree).
const MUTANT_CODES: u32 = 13;

fn main() {
    println!("cargo:rerun-if-changed=kernels/binade.cuh");
    println!("cargo:rerun-if-changed=kernels/host_shim.cpp");
    println!("cargo:rerun-if-changed=kernels/host_shim_dispatch.cpp");
    println!("cargo:rerun-if-changed=build.rs");
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
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
    build.file(kernels.join("host_shim_dispatch.cpp"));
    build.define("BINADE_SHIM_LIST(X)", Some(list.trim_end()));
    build.compile("binade_host_shim");
    build_vif();
    build_ssimulacra2();
}

/// Float VIF: compiles kernels/float_vif.cuh as host C++ through kernels/float_vif_host.cpp
/// (no FMA contraction), with the binade algebra when kernels/binade.cuh is present; sets
/// the cfg `fvif_binade` in that case.
fn build_vif() {
    println!("cargo:rerun-if-changed=kernels/float_vif.cuh");
    println!("cargo:rerun-if-changed=kernels/float_vif_host.cpp");
    println!("cargo:rerun-if-changed=kernels/binade.cuh");
    println!("cargo:rustc-check-cfg=cfg(fvif_binade)");
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
    if kernels.join("binade.cuh").exists() {
        build.define("FVIF_WITH_BINADE", None);
        println!("cargo:rustc-cfg=fvif_binade");
    }
    build.file(kernels.join("float_vif_host.cpp"));
    build.compile("float_vif_host");
}

/// Compiles the SSIMULACRA2 per-pixel term header for the host, so that tests compare it with
/// the Rust terms by bits without a GPU.
fn build_ssimulacra2() {
    println!("cargo:rerun-if-changed=kernels/ssimulacra2_terms.cuh");
    println!("cargo:rerun-if-changed=kernels/ssimulacra2_host.cpp");
    println!("cargo:rustc-check-cfg=cfg(ssim_host_terms)");
    println!("cargo:rustc-cfg=ssim_host_terms");
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
