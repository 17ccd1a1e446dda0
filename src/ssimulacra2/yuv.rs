//! Planar YUV frames (any size, 8 to 16 bits, 4:2:0 / 4:2:2 / 4:4:4) and their conversion to
//! linear-light RGB.
//!
//! The conversion follows the scalar path of libvmaf's SSIMULACRA2 extractor: chroma is taken
//! from the nearest sample to the upper left (`x >> sx`, `y >> sy`), the matrix is applied in
//! `f32` to normalised samples, the result is clamped to `[0, 1]` and the sRGB transfer curve
//! is removed. Unlike that path: samples are normalised by a division (libvmaf multiplies by a
//! reciprocal), so the top code of each range lands exactly on 1; limited range is scaled by
//! the exact code values of the bit depth (`16 << (b - 8)` to `235 << (b - 8)`); BT.2020 is
//! offered beside BT.601 and BT.709; and the transfer curve is evaluated in `f64` and rounded
//! once (libvmaf uses a table). The linear planes may therefore differ from libvmaf's in the
//! last bits.

use anyhow::{bail, Result};
use rayon::prelude::*;

/// Chroma subsampling of a frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize, serde::Serialize)]
pub enum Chroma {
    /// Chroma at half width and half height.
    #[serde(rename = "420")]
    C420,
    /// Chroma at half width, full height.
    #[serde(rename = "422")]
    C422,
    /// Chroma at full resolution.
    #[serde(rename = "444")]
    C444,
}

impl Chroma {
    /// Horizontal and vertical shift of the chroma planes (1 for halved, 0 for full).
    pub fn shifts(self) -> (u32, u32) {
        match self {
            Chroma::C420 => (1, 1),
            Chroma::C422 => (1, 0),
            Chroma::C444 => (0, 0),
        }
    }

    /// The name used in manifests ("420", "422", "444").
    pub fn name(self) -> &'static str {
        match self {
            Chroma::C420 => "420",
            Chroma::C422 => "422",
            Chroma::C444 => "444",
        }
    }
}

/// The YUV to RGB matrix.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Matrix {
    /// ITU-R BT.601 (Kr 0.299, Kb 0.114).
    Bt601,
    /// ITU-R BT.709 (Kr 0.2126, Kb 0.0722).
    Bt709,
    /// ITU-R BT.2020 non-constant luminance (Kr 0.2627, Kb 0.0593).
    Bt2020,
}

impl Matrix {
    /// `(Kr, Kb)` of the matrix, as `f32`.
    pub fn kr_kb(self) -> (f32, f32) {
        match self {
            Matrix::Bt601 => (0.299, 0.114),
            Matrix::Bt709 => (0.2126, 0.0722),
            Matrix::Bt2020 => (0.2627, 0.0593),
        }
    }
}

/// Quantisation range of the samples.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Range {
    /// Luma in `[16, 235] << (b - 8)`, chroma in `[16, 240] << (b - 8)`.
    Limited,
    /// Every code value of the bit depth.
    Full,
}

/// The shape and colour interpretation of a YUV frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct YuvFormat {
    /// Luma width in pixels.
    pub width: usize,
    /// Luma height in pixels.
    pub height: usize,
    /// Bits per sample, 8 to 16.
    pub bit_depth: u32,
    /// Chroma subsampling.
    pub chroma: Chroma,
    /// YUV to RGB matrix.
    pub matrix: Matrix,
    /// Quantisation range.
    pub range: Range,
}

impl YuvFormat {
    /// Width and height of plane `p` (0 = Y, 1 = U, 2 = V).
    pub fn plane_size(&self, p: usize) -> (usize, usize) {
        if p == 0 {
            return (self.width, self.height);
        }
        let (sx, sy) = self.chroma.shifts();
        (
            (self.width + sx as usize) >> sx,
            (self.height + sy as usize) >> sy,
        )
    }

    /// Samples in one frame (all three planes).
    pub fn samples_per_frame(&self) -> usize {
        (0..3).map(|p| self.plane_size(p)).map(|(w, h)| w * h).sum()
    }

    /// Bytes a sample takes in a raw file: 1 up to 8 bits, else 2 (little endian).
    pub fn bytes_per_sample(&self) -> usize {
        if self.bit_depth <= 8 {
            1
        } else {
            2
        }
    }

    /// Largest code value of the bit depth.
    pub fn max_code(&self) -> u16 {
        ((1u32 << self.bit_depth) - 1) as u16
    }

    /// Checks the bit depth (8..=16) and the size (at least 1x1).
    pub fn validate(&self) -> Result<()> {
        if !(8..=16).contains(&self.bit_depth) {
            bail!("bit depth {} is not in 8..=16", self.bit_depth);
        }
        if self.width == 0 || self.height == 0 {
            bail!("size {}x{} is empty", self.width, self.height);
        }
        Ok(())
    }
}

/// One planar YUV frame: samples as `u16` whatever the bit depth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct YuvFrame {
    /// Shape and colour interpretation.
    pub format: YuvFormat,
    /// Y, U and V planes, row major, each of [`YuvFormat::plane_size`].
    pub planes: [Vec<u16>; 3],
}

/// Linear-light RGB, three row-major `f32` planes of `width * height`.
#[derive(Clone, Debug, PartialEq)]
pub struct LinearRgb {
    /// Width in pixels.
    pub width: usize,
    /// Height in pixels.
    pub height: usize,
    /// R, G and B planes.
    pub planes: [Vec<f32>; 3],
}

/// sRGB transfer curve removed: IEC 61966-2-1, evaluated in `f64` and rounded once to `f32`.
pub fn srgb_to_linear(v: f32) -> f32 {
    let v = v as f64;
    let l = if v <= 0.04045 {
        v / 12.92
    } else {
        ((v + 0.055) / 1.055).powf(2.4)
    };
    l as f32
}

/// Per-format constants of the conversion: offsets and divisors of the normalisation (a
/// division, so that the top code of each range lands exactly on 1).
struct Normalise {
    y_off: f32,
    y_div: f32,
    c_off: f32,
    c_div: f32,
}

impl Normalise {
    fn of(format: &YuvFormat) -> Normalise {
        let b = format.bit_depth;
        match format.range {
            Range::Limited => {
                let k = (1u32 << (b - 8)) as f32;
                Normalise {
                    y_off: 16.0 * k,
                    y_div: 219.0 * k,
                    c_off: 128.0 * k,
                    c_div: 224.0 * k,
                }
            }
            Range::Full => {
                let peak = ((1u32 << b) - 1) as f32;
                let half = (1u32 << (b - 1)) as f32;
                Normalise {
                    y_off: 0.0,
                    y_div: peak,
                    c_off: half,
                    c_div: peak,
                }
            }
        }
    }
}

/// The YUV to non-linear RGB coefficients `(cr_r, cb_g, cr_g, cb_b)` of a matrix, in `f32`.
fn coefficients(matrix: Matrix) -> (f32, f32, f32, f32) {
    let (kr, kb) = matrix.kr_kb();
    let kg = 1.0f32 - kr - kb;
    let cr_r = 2.0f32 * (1.0 - kr);
    let cb_b = 2.0f32 * (1.0 - kb);
    let cb_g = -(2.0f32 * kb * (1.0 - kb)) / kg;
    let cr_g = -(2.0f32 * kr * (1.0 - kr)) / kg;
    (cr_r, cb_g, cr_g, cb_b)
}

/// Converts a frame to linear-light RGB (see the module documentation for the exact steps).
/// Guarantees: deterministic for a given frame; every output is in `[0, 1]`.
pub fn to_linear_rgb(frame: &YuvFrame) -> LinearRgb {
    let f = &frame.format;
    let (w, h) = (f.width, f.height);
    let (sx, sy) = f.chroma.shifts();
    let (cw, _) = f.plane_size(1);
    let n = Normalise::of(f);
    let (cr_r, cb_g, cr_g, cb_b) = coefficients(f.matrix);
    let pixel = |i: usize| {
        let (x, y) = (i % w, i / w);
        let ci = (y >> sy) * cw + (x >> sx);
        let yn = (frame.planes[0][i] as f32 - n.y_off) / n.y_div;
        let un = (frame.planes[1][ci] as f32 - n.c_off) / n.c_div;
        let vn = (frame.planes[2][ci] as f32 - n.c_off) / n.c_div;
        let r = yn + cr_r * vn;
        let g = yn + cb_g * un + cr_g * vn;
        let b = yn + cb_b * un;
        [
            srgb_to_linear(r.clamp(0.0, 1.0)),
            srgb_to_linear(g.clamp(0.0, 1.0)),
            srgb_to_linear(b.clamp(0.0, 1.0)),
        ]
    };
    let rgb: Vec<[f32; 3]> = (0..w * h).into_par_iter().map(pixel).collect();
    let planes = super::deinterleave(&rgb);
    LinearRgb {
        width: w,
        height: h,
        planes,
    }
}

/// Converts non-linear RGB in `[0, 1]` to YUV codes of `format` (the inverse matrix in `f64`,
/// rounded to nearest and clamped to the range). Used to build fixtures from photographs.
pub fn rgb_to_yuv_codes(rgb: [f64; 3], format: &YuvFormat) -> [f64; 3] {
    let (kr, kb) = format.matrix.kr_kb();
    let (kr, kb) = (kr as f64, kb as f64);
    let kg = 1.0 - kr - kb;
    let y = kr * rgb[0] + kg * rgb[1] + kb * rgb[2];
    let u = (rgb[2] - y) / (2.0 * (1.0 - kb));
    let v = (rgb[0] - y) / (2.0 * (1.0 - kr));
    let b = format.bit_depth;
    match format.range {
        Range::Limited => {
            let k = (1u32 << (b - 8)) as f64;
            [
                16.0 * k + 219.0 * k * y,
                128.0 * k + 224.0 * k * u,
                128.0 * k + 224.0 * k * v,
            ]
        }
        Range::Full => {
            let peak = ((1u32 << b) - 1) as f64;
            let half = (1u32 << (b - 1)) as f64;
            [peak * y, half + peak * u, half + peak * v]
        }
    }
}

/// Rounds a code to the nearest integer and clamps it to `[0, max]`.
pub fn quantise(code: f64, max: u16) -> u16 {
    code.round().clamp(0.0, max as f64) as u16
}

/// Checks that two frames can be compared (same size) and are large enough (8x8).
pub fn check_pair(a: &YuvFrame, b: &YuvFrame) -> Result<()> {
    if (a.format.width, a.format.height) != (b.format.width, b.format.height) {
        bail!(
            "frame sizes differ: {}x{} against {}x{}",
            a.format.width,
            a.format.height,
            b.format.width,
            b.format.height
        );
    }
    if a.format.width < 8 || a.format.height < 8 {
        bail!(
            "frames of {}x{} are smaller than 8x8",
            a.format.width,
            a.format.height
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame_of(format: YuvFormat, y: u16, u: u16, v: u16) -> YuvFrame {
        let planes = std::array::from_fn(|p| {
            let (w, h) = format.plane_size(p);
            vec![[y, u, v][p]; w * h]
        });
        YuvFrame { format, planes }
    }

    fn format(bit_depth: u32, matrix: Matrix, range: Range) -> YuvFormat {
        YuvFormat {
            width: 3,
            height: 3,
            bit_depth,
            chroma: Chroma::C420,
            matrix,
            range,
        }
    }

    /// Black and white land exactly on 0 and 1 in every range, depth and matrix.
    #[test]
    fn black_and_white_are_exact() {
        for matrix in [Matrix::Bt601, Matrix::Bt709, Matrix::Bt2020] {
            for bits in [8u32, 10, 12, 16] {
                let k = 1u16 << (bits - 8);
                let max = ((1u32 << bits) - 1) as u16;
                let half = 1u16 << (bits - 1);
                for (range, black, white) in
                    [(Range::Limited, 16 * k, 235 * k), (Range::Full, 0, max)]
                {
                    let f = format(bits, matrix, range);
                    let c = if range == Range::Limited {
                        128 * k
                    } else {
                        half
                    };
                    let lo = to_linear_rgb(&frame_of(f, black, c, c));
                    let hi = to_linear_rgb(&frame_of(f, white, c, c));
                    for p in 0..3 {
                        assert_eq!(
                            lo.planes[p][4], 0.0,
                            "{matrix:?} {bits} {range:?} black plane {p}"
                        );
                        assert_eq!(
                            hi.planes[p][4], 1.0,
                            "{matrix:?} {bits} {range:?} white plane {p}"
                        );
                    }
                }
            }
        }
    }

    /// Codes of a colour, converted back, give the colour within the quantisation error.
    #[test]
    fn codes_round_trip_through_the_matrix() {
        for matrix in [Matrix::Bt601, Matrix::Bt709, Matrix::Bt2020] {
            for range in [Range::Limited, Range::Full] {
                let f = format(10, matrix, range);
                let rgb = [0.8, 0.3, 0.55];
                let codes = rgb_to_yuv_codes(rgb, &f).map(|c| quantise(c, f.max_code()));
                let back = to_linear_rgb(&frame_of(f, codes[0], codes[1], codes[2]));
                for (p, (plane, v)) in back.planes.iter().zip(rgb).enumerate() {
                    let want = srgb_to_linear(v as f32);
                    assert!(
                        (plane[0] - want).abs() < 4e-3,
                        "{matrix:?} {range:?} plane {p}: {} against {want}",
                        plane[0]
                    );
                }
            }
        }
    }

    /// Chroma of a subsampled frame is taken from the sample up and left.
    #[test]
    fn chroma_is_nearest_up_and_left() {
        let f = YuvFormat {
            width: 4,
            height: 2,
            bit_depth: 8,
            chroma: Chroma::C422,
            matrix: Matrix::Bt709,
            range: Range::Full,
        };
        assert_eq!(f.plane_size(1), (2, 2));
        let mut frame = frame_of(f, 128, 128, 128);
        frame.planes[2][1] = 255;
        let rgb = to_linear_rgb(&frame);
        let red: Vec<bool> = rgb.planes[0]
            .iter()
            .zip(&rgb.planes[1])
            .map(|(r, g)| r > g)
            .collect();
        assert_eq!(
            red,
            vec![false, false, true, true, false, false, false, false]
        );
    }
}
