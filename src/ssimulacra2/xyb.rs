//! Linear RGB to the "positive" XYB planes SSIMULACRA2 compares.
//!
//! Opsin mixing (the JPEG XL matrix and bias), a cube root, then X, Y and B rescaled into a
//! roughly `[0, 1]` range: `B = (B - Y) + 0.55`, `X = 14 X + 0.42`, `Y = Y + 0.01`, with B taken
//! from Y before Y is offset. Every step is `f32` in this order, except the cube root, which is
//! evaluated in `f64` and rounded once.

use rayon::prelude::*;

use super::yuv::LinearRgb;

const M00: f32 = 0.30;
const M02: f32 = 0.078;
const M10: f32 = 0.23;
const M12: f32 = 0.078;
const M20: f32 = 0.243_422_69;
const M21: f32 = 0.204_767_44;
const OPSIN_BIAS: f32 = 0.003_793_073_3;

/// Cube root, evaluated in `f64` and rounded to `f32`.
fn cbrt(v: f32) -> f32 {
    (v as f64).cbrt() as f32
}

/// Positive XYB of one linear RGB pixel.
pub fn pixel(r: f32, g: f32, b: f32) -> [f32; 3] {
    let m01 = 1.0f32 - M00 - M02;
    let m11 = 1.0f32 - M10 - M12;
    let m22 = 1.0f32 - M20 - M21;
    let bias_root = cbrt(OPSIN_BIAS);
    let l = (M00 * r + m01 * g + M02 * b + OPSIN_BIAS).max(0.0);
    let m = (M10 * r + m11 * g + M12 * b + OPSIN_BIAS).max(0.0);
    let s = (M20 * r + M21 * g + m22 * b + OPSIN_BIAS).max(0.0);
    let lr = cbrt(l) - bias_root;
    let mr = cbrt(m) - bias_root;
    let sr = cbrt(s) - bias_root;
    let x = 0.5f32 * (lr - mr);
    let y = 0.5f32 * (lr + mr);
    [x * 14.0 + 0.42, y + 0.01, (sr - y) + 0.55]
}

/// Positive XYB planes of a linear RGB image (same size).
pub fn from_linear(rgb: &LinearRgb) -> [Vec<f32>; 3] {
    let n = rgb.width * rgb.height;
    let p = &rgb.planes;
    let xyb: Vec<[f32; 3]> = (0..n)
        .into_par_iter()
        .map(|i| pixel(p[0][i], p[1][i], p[2][i]))
        .collect();
    super::deinterleave(&xyb)
}
