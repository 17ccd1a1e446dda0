//! Whether a GPU is required here: `BINADE_REQUIRE_GPU=1` turns every "no device, skipped"
//! of the GPU tests into a failure, so a run on the GPU machine cannot pass by skipping.
//!
//! Guarantee: with the variable set, [`open_or_skip`] and [`nvrtc_or_skip`] never return a
//! skip: they panic with the reason instead. Without it they print `skipped: REASON` (the
//! GPU-less CI machine) and the test returns early.

use super::{nvrtc_present, Gpu};

/// The variable that makes a missing GPU a failure.
pub const REQUIRE_GPU_VAR: &str = "BINADE_REQUIRE_GPU";

/// True when `BINADE_REQUIRE_GPU` is set to anything but empty or `0`.
pub fn gpu_required() -> bool {
    std::env::var(REQUIRE_GPU_VAR).is_ok_and(|v| !v.is_empty() && v != "0")
}

/// What a test does without the piece it needs: fails when a GPU is required, else prints
/// `skipped: REASON` and lets the caller return.
pub fn skip(test: &str, reason: &str) {
    assert!(
        !gpu_required(),
        "{test}: {REQUIRE_GPU_VAR} is set but {reason}"
    );
    println!("skipped: {test}: {reason}");
}

/// The device, or `None` after [`skip`] when there is none.
pub fn open_or_skip(test: &str) -> Option<Gpu> {
    match Gpu::open() {
        Ok(g) => Some(g),
        Err(e) => {
            skip(test, &e.to_string());
            None
        }
    }
}

/// True when NVRTC can be loaded; otherwise [`skip`] and false.
pub fn nvrtc_or_skip(test: &str) -> bool {
    if nvrtc_present() {
        return true;
    }
    skip(test, "the NVRTC library (libnvrtc) is not installed");
    false
}
