fn main() {
    build_vif();
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
