//! Linear RGB to the "positive" XYB planes SSIMULACRA2 compares.
//!
//! Opsin mixing (the JPEG XL matrix and bias), a cube root, then X, Y and B rescaled into a
//! roughly `[0, 1]` range: `B = (B - Y) + 0.55`, `X = 14 X + 0.42`, `Y = Y + 0.01`, with B taken
//! from Y before Y is offset. Every step is `f32` in this order, as libvmaf's scalar
//! `linear_rgb_to_xyb` evaluates it (no fused multiply-add); the cube root is libvmaf's own
//! ([`super::cbrt`]). Negative mixtures are clamped to zero before the root. The matrix entries
//! are libjxl's decimal constants rounded to `f32` as libvmaf's C rounds its float literals
//! (the literals here are the shortest decimals of those `f32` values). The replay can put back
//! the choices of [`FrontEnd::BEFORE_ISSUE_13`]: the `f64` cube root, and `M21` one `f32` ulp
//! low (written `0.20476744`, which rounds down, where libvmaf's `0.20476744424496821f` rounds
//! up).

use rayon::prelude::*;

use super::frontend::{FrontEnd, Opsin};
use super::yuv::LinearRgb;

const M00: f32 = 0.30;
const M02: f32 = 0.078;
const M10: f32 = 0.23;
const M12: f32 = 0.078;
const M20: f32 = 0.243_422_69;
const M21: f32 = 0.204_767_45;
/// `M21` as this crate wrote it before issue 13: one `f32` ulp below libvmaf's.
const M21_BEFORE_ISSUE_13: f32 = 0.204_767_44;
const OPSIN_BIAS: f32 = 0.003_793_073_3;

/// Positive XYB of one linear RGB pixel as libvmaf computes it. Guarantee: libvmaf's scalar
/// bits for every finite input.
pub fn pixel(r: f32, g: f32, b: f32) -> [f32; 3] {
    pixel_with(r, g, b, &FrontEnd::LIBVMAF)
}

/// Positive XYB of one linear RGB pixel with the cube root and matrix of `front`.
pub fn pixel_with(r: f32, g: f32, b: f32, front: &FrontEnd) -> [f32; 3] {
    let root = front.cube_root;
    let cbrt = |v: f32| root.apply(v);
    let m21 = match front.opsin {
        Opsin::Libvmaf => M21,
        Opsin::M21OneUlpLow => M21_BEFORE_ISSUE_13,
    };
    let m01 = 1.0f32 - M00 - M02;
    let m11 = 1.0f32 - M10 - M12;
    let m22 = 1.0f32 - M20 - m21;
    let bias_root = cbrt(OPSIN_BIAS);
    let l = (M00 * r + m01 * g + M02 * b + OPSIN_BIAS).max(0.0);
    let m = (M10 * r + m11 * g + M12 * b + OPSIN_BIAS).max(0.0);
    let s = (M20 * r + m21 * g + m22 * b + OPSIN_BIAS).max(0.0);
    let lr = cbrt(l) - bias_root;
    let mr = cbrt(m) - bias_root;
    let sr = cbrt(s) - bias_root;
    let x = 0.5f32 * (lr - mr);
    let y = 0.5f32 * (lr + mr);
    [x * 14.0 + 0.42, y + 0.01, (sr - y) + 0.55]
}

/// Positive XYB planes of a linear RGB image (same size), as libvmaf computes them.
pub fn from_linear(rgb: &LinearRgb) -> [Vec<f32>; 3] {
    from_linear_with(rgb, &FrontEnd::LIBVMAF)
}

/// Positive XYB planes of a linear RGB image (same size) with the cube root and matrix of
/// `front`.
pub fn from_linear_with(rgb: &LinearRgb, front: &FrontEnd) -> [Vec<f32>; 3] {
    let n = rgb.width * rgb.height;
    let p = &rgb.planes;
    let xyb: Vec<[f32; 3]> = (0..n)
        .into_par_iter()
        .map(|i| pixel_with(p[0][i], p[1][i], p[2][i], front))
        .collect();
    super::deinterleave(&xyb)
}
