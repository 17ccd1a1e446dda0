//! libvmaf's AVX2 SSIMULACRA2 path as a variant of the reference: what its x86 functions
//! (`libvmaf/src/feature/x86/ssimulacra2_avx2.c` at [`crate::fixtures::libvmaf::LIBVMAF_COMMIT`])
//! compute differently from its scalar path, which the reference follows.
//!
//! Read in that source: the multiply, XYB conversion, downsampling, blur and SSIM map form
//! every value with the scalar path's operations in its order, lane by lane, and both maps add
//! their terms pixel by pixel in `f64` in pixel order. One operation differs: in
//! `edge_diff_map`, each whole block of eight pixels of a plane forms `|img - mu|` by an `f32`
//! subtraction (`_mm256_sub_ps`, then the sign bit cleared) and widens the result, where the
//! scalar path widens both operands and subtracts in `f64`, which is exact for two `f32`
//! values. The plane's last `n mod 8` pixels take the scalar tail. So the two differ exactly
//! where `img - mu` is not an `f32`.
//!
//! Whether this is all that separates the AVX2 build's scores from the scalar build's is a
//! measurement, not a reading: `ssimulacra2-replay` and `tests/ssimulacra2_libvmaf.rs` compare
//! [`frame_sums`] with the scores libvmaf's own AVX2 build printed
//! (`fixtures/libvmaf/ssimulacra2-scores-avx2.csv`). Its AVX-512 path (blocks of sixteen) is not
//! modelled: no machine here runs it.

use anyhow::Result;

use super::frontend::FrontEnd;
use super::terms::{edge_terms, quartic, ssim_term, ChannelPlanes, TERMS};
use super::yuv::YuvFrame;
use super::{frame_sums_by, FrameSums};

/// Pixels per AVX2 block (eight `f32` lanes).
pub const LANES: usize = 8;

/// The edge terms as the AVX2 blocks form them: `|img - mu|` rounded to `f32` before
/// widening; otherwise [`edge_terms`].
pub fn edge_terms_f32_difference(img1: f32, mu1: f32, img2: f32, mu2: f32) -> (f64, f64) {
    let ed1 = f64::from((img1 - mu1).abs());
    let ed2 = f64::from((img2 - mu2).abs());
    let d1 = (1.0 + ed2) / (1.0 + ed1) - 1.0;
    let artifact = if d1 > 0.0 { d1 } else { 0.0 };
    let detail_lost = if d1 < 0.0 { -d1 } else { 0.0 };
    (artifact, detail_lost)
}

/// The six sums of one scale and channel as the AVX2 path adds them: pixel order, `f64`, the
/// edge terms of whole eight-pixel blocks by [`edge_terms_f32_difference`], of the tail by
/// [`edge_terms`].
pub fn sequential_sums(p: &ChannelPlanes) -> [f64; TERMS] {
    let blocks = p.len() - p.len() % LANES;
    let mut s = [0f64; TERMS];
    for i in 0..p.len() {
        let d = ssim_term(p.mu1[i], p.mu2[i], p.s11[i], p.s22[i], p.s12[i]);
        let edge = if i < blocks {
            edge_terms_f32_difference
        } else {
            edge_terms
        };
        let (a, l) = edge(p.img1[i], p.mu1[i], p.img2[i], p.mu2[i]);
        let t = [d, quartic(d), a, quartic(a), l, quartic(l)];
        for k in 0..TERMS {
            s[k] += t[k];
        }
    }
    s
}

/// The sums of a frame pair as libvmaf's AVX2 path forms them, with libvmaf's front end.
pub fn frame_sums(reference: &YuvFrame, distorted: &YuvFrame) -> Result<FrameSums> {
    frame_sums_by(reference, distorted, &FrontEnd::LIBVMAF, sequential_sums)
}
