//! The host build of the device term header (`kernels/ssimulacra2_host.cpp`, compiled by
//! `build.rs` with `-ffp-contract=off`), so tests compare the device arithmetic with the Rust
//! reference without a GPU.

use super::layout::PLANES;
use super::terms::TERMS;

extern "C" {
    fn binade_ss2_host_terms(planes: *const f32, n: usize, channels: usize, out: *mut f64);
}

/// The header's terms for `planes` laid out as in [`super::layout`] (`channels` channels of
/// `n` pixels). Returns `None` when `planes` does not hold `channels * 7 * n` values.
pub fn host_terms(planes: &[f32], n: usize, channels: usize) -> Option<Vec<f64>> {
    if planes.len() != channels * PLANES * n {
        return None;
    }
    let mut out = vec![0f64; channels * TERMS * n];
    // SAFETY: `planes` holds channels * 7 * n floats and `out` channels * 6 * n doubles, the
    // extents the shim reads and writes.
    unsafe { binade_ss2_host_terms(planes.as_ptr(), n, channels, out.as_mut_ptr()) };
    Some(out)
}
