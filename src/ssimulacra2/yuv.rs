//! Planar YUV frames (any size, 8 to 16 bits, 4:2:0 / 4:2:2 / 4:4:4) and their conversion to
//! linear-light RGB, the first half of SSIMULACRA2's front end ([`super::frontend`]).
//!
//! The reference conversion is libvmaf's scalar one (`picture_to_linear_rgb` of its SSIMULACRA2
//! extractor at the revision in `docs/ssimulacra2-libvmaf.md`), step by step, all in `f32`:
//!
//! 1. chroma is the nearest sample up and left (`x >> sx`, `y >> sy`; for odd sizes libvmaf's
//!    `x * cw / w` is the same index for every `x < w`);
//! 2. a code `c` of bit depth `b` becomes `c * fl(1 / (2^b - 1))`; in limited range luma is then
//!    `(s - fl(16/255)) * fl(255/219)` and chroma `(s - 0.5) * fl(255/224)`, in full range luma is
//!    `s` and chroma `s - 0.5`. So zero chroma sits at half the peak code, `(2^b - 1) / 2`, not
//!    at `2^(b-1)`, and limited range takes the 8-bit fractions at every bit depth (a 10-bit
//!    `64` is not exactly black, `940` not exactly white);
//! 3. `R = Y + cr_r V`, `G = (Y + cb_g U) + cr_g V`, `B = Y + cb_b U` with [`coefficients`],
//!    whose green weight is a fixed constant per matrix ([`Matrix::kg`]);
//! 4. each of R, G, B is clamped to `[0, 1]` and linearised through libvmaf's table
//!    ([`super::transfer`]).
//!
//! Every operation rounds once to nearest and none is fused, as libvmaf's scalar C is built
//! (`-ffp-contract=off`). [`to_linear_rgb_with`] takes the other choices of a
//! [`FrontEnd`] too (the replay puts the old ones back one at a time). BT.2020 is an extension
//! beyond libvmaf ([`Matrix::Bt2020Extension`]): libvmaf's arithmetic with BT.2020's weights.

use anyhow::{bail, Result};
use rayon::prelude::*;

use super::frontend::{ChromaCentre, FrontEnd, Green, Normalisation};

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
pub enum Matrix {
    /// ITU-R BT.601 (Kr 0.299, Kb 0.114; green weight 0.587).
    #[serde(rename = "bt601")]
    Bt601,
    /// ITU-R BT.709 (Kr 0.2126, Kb 0.0722; green weight 0.7152).
    #[serde(rename = "bt709")]
    Bt709,
    /// ITU-R BT.2020 non-constant luminance (Kr 0.2627, Kb 0.0593; green weight 0.678): an
    /// extension beyond libvmaf, whose `yuv_matrix` offers only BT.709 and BT.601. It takes
    /// libvmaf's arithmetic with these coefficients, so no other tool's scores vouch for it.
    #[serde(rename = "bt2020-extension")]
    Bt2020Extension,
}

impl Matrix {
    /// `(Kr, Kb)` of the matrix, as `f32`.
    pub fn kr_kb(self) -> (f32, f32) {
        match self {
            Matrix::Bt601 => (0.299, 0.114),
            Matrix::Bt709 => (0.2126, 0.0722),
            Matrix::Bt2020Extension => (0.2627, 0.0593),
        }
    }

    /// The fixed green luma weight of the matrix, as `f32`: the standard's rounded `Kg`
    /// (libvmaf's constants for BT.709 and BT.601), not `1 - Kr - Kb` evaluated in `f32`.
    pub fn kg(self) -> f32 {
        match self {
            Matrix::Bt601 => 0.587,
            Matrix::Bt709 => 0.7152,
            Matrix::Bt2020Extension => 0.678,
        }
    }

    /// The name in manifests, CSV files and reports.
    pub fn name(self) -> &'static str {
        match self {
            Matrix::Bt601 => "bt601",
            Matrix::Bt709 => "bt709",
            Matrix::Bt2020Extension => "bt2020-extension",
        }
    }

    /// libvmaf's `yuv_matrix` option for this matrix and range (0 BT.709 limited, 1 BT.601
    /// limited, 2 BT.709 full, 3 BT.601 full); `None` for the BT.2020 extension, which libvmaf
    /// does not offer.
    pub fn libvmaf_option(self, range: Range) -> Option<u32> {
        match (self, range) {
            (Matrix::Bt709, Range::Limited) => Some(0),
            (Matrix::Bt601, Range::Limited) => Some(1),
            (Matrix::Bt709, Range::Full) => Some(2),
            (Matrix::Bt601, Range::Full) => Some(3),
            (Matrix::Bt2020Extension, _) => None,
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

impl Range {
    /// The name in manifests, CSV files and reports.
    pub fn name(self) -> &'static str {
        match self {
            Range::Limited => "limited",
            Range::Full => "full",
        }
    }
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

/// The per-format constants of a [`Normalisation`]: how one code becomes a normalised luma
/// sample (`[0, 1]` from black to white) or chroma sample (zero at the centre).
enum Normaliser {
    /// `(code * inv_peak - off) * scale`, every operation in `f32` (libvmaf).
    Reciprocal {
        inv_peak: f32,
        y_off: f32,
        y_scale: f32,
        c_off: f32,
        c_scale: f32,
    },
    /// `(code - off) / div` in `f32`.
    Division {
        y_off: f32,
        y_div: f32,
        c_off: f32,
        c_div: f32,
    },
}

impl Normaliser {
    /// The constants for `format` under `front`'s normalisation and chroma centre.
    fn of(format: &YuvFormat, front: &FrontEnd) -> Normaliser {
        let b = format.bit_depth;
        let peak = ((1u32 << b) - 1) as f32;
        let centre_code = (1u32 << (b - 1)) as f32;
        let limited = format.range == Range::Limited;
        match front.normalisation {
            Normalisation::LibvmafReciprocal => {
                let inv_peak = 1.0f32 / peak;
                let c_off = match front.centre {
                    ChromaCentre::HalfPeak => 0.5,
                    ChromaCentre::Code => centre_code * inv_peak,
                };
                let (y_off, y_scale, c_scale) = if limited {
                    (16.0f32 / 255.0, 255.0f32 / 219.0, 255.0f32 / 224.0)
                } else {
                    (0.0, 1.0, 1.0)
                };
                Normaliser::Reciprocal {
                    inv_peak,
                    y_off,
                    y_scale,
                    c_off,
                    c_scale,
                }
            }
            Normalisation::ExactDivision => {
                let c_off = match front.centre {
                    // Exact: peak / 2 = 2^(b-1) - 1/2 needs b <= 16 significant bits.
                    ChromaCentre::HalfPeak => peak / 2.0,
                    ChromaCentre::Code => centre_code,
                };
                let k = (1u32 << (b - 8)) as f32;
                let (y_off, y_div, c_div) = if limited {
                    (16.0 * k, 219.0 * k, 224.0 * k)
                } else {
                    (0.0, peak, peak)
                };
                Normaliser::Division {
                    y_off,
                    y_div,
                    c_off,
                    c_div,
                }
            }
        }
    }

    /// The normalised luma of a code.
    fn luma(&self, code: u16) -> f32 {
        match *self {
            Normaliser::Reciprocal {
                inv_peak,
                y_off,
                y_scale,
                ..
            } => (code as f32 * inv_peak - y_off) * y_scale,
            Normaliser::Division { y_off, y_div, .. } => (code as f32 - y_off) / y_div,
        }
    }

    /// The normalised chroma of a code.
    fn chroma(&self, code: u16) -> f32 {
        match *self {
            Normaliser::Reciprocal {
                inv_peak,
                c_off,
                c_scale,
                ..
            } => (code as f32 * inv_peak - c_off) * c_scale,
            Normaliser::Division { c_off, c_div, .. } => (code as f32 - c_off) / c_div,
        }
    }
}

/// The YUV to non-linear RGB coefficients of a matrix: `R = Y + cr_r V`,
/// `G = Y + cb_g U + cr_g V`, `B = Y + cb_b U`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Coefficients {
    /// V's weight in R, `2 (1 - Kr)`.
    pub cr_r: f32,
    /// U's weight in G, `-2 Kb (1 - Kb) / Kg`.
    pub cb_g: f32,
    /// V's weight in G, `-2 Kr (1 - Kr) / Kg`.
    pub cr_g: f32,
    /// U's weight in B, `2 (1 - Kb)`.
    pub cb_b: f32,
}

/// The coefficients of `matrix` with the green weight `green` takes, each evaluated in `f32`
/// left to right as written in [`Coefficients`] (libvmaf's order). Guarantee: with
/// [`Green::Fixed`], BT.709's and BT.601's are libvmaf's bits.
pub fn coefficients(matrix: Matrix, green: Green) -> Coefficients {
    let (kr, kb) = matrix.kr_kb();
    let kg = match green {
        Green::Fixed => matrix.kg(),
        Green::Derived => 1.0f32 - kr - kb,
    };
    Coefficients {
        cr_r: 2.0f32 * (1.0 - kr),
        cb_g: -(2.0f32 * kb * (1.0 - kb)) / kg,
        cr_g: -(2.0f32 * kr * (1.0 - kr)) / kg,
        cb_b: 2.0f32 * (1.0 - kb),
    }
}

/// Converts a frame to linear-light RGB with libvmaf's front end ([`FrontEnd::LIBVMAF`]).
/// Guarantees: libvmaf's scalar linear RGB planes, bit for bit, for BT.709 and BT.601 in both
/// ranges at every bit depth and subsampling; deterministic; every output in `[0, 1]`.
pub fn to_linear_rgb(frame: &YuvFrame) -> LinearRgb {
    to_linear_rgb_with(frame, &FrontEnd::LIBVMAF)
}

/// Converts a frame to linear-light RGB with the choices of `front` (the module documentation
/// lists the steps). Guarantees: deterministic for a given frame and front end; every output in
/// `[0, 1]` (the clamp comes before the transfer curve, which maps `[0, 1]` into itself).
pub fn to_linear_rgb_with(frame: &YuvFrame, front: &FrontEnd) -> LinearRgb {
    let f = &frame.format;
    let (w, h) = (f.width, f.height);
    let (sx, sy) = f.chroma.shifts();
    let (cw, _) = f.plane_size(1);
    let n = Normaliser::of(f, front);
    let c = coefficients(f.matrix, front.green);
    let transfer = front.transfer;
    let pixel = |i: usize| {
        let (x, y) = (i % w, i / w);
        let ci = (y >> sy) * cw + (x >> sx);
        let yn = n.luma(frame.planes[0][i]);
        let un = n.chroma(frame.planes[1][ci]);
        let vn = n.chroma(frame.planes[2][ci]);
        let r = yn + c.cr_r * vn;
        let g = yn + c.cb_g * un + c.cr_g * vn;
        let b = yn + c.cb_b * un;
        [r, g, b].map(|v| transfer.apply(v.clamp(0.0, 1.0)))
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
    use super::super::transfer::srgb_to_linear_f64;
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

    /// Black and white with chroma at the code `2^(b-1)` (half a code above libvmaf's centre):
    /// near 0 and 1 for every matrix, range and depth. At 10 bits and above `235 << (b - 8)` is
    /// a little below libvmaf's white, `235/255` of the peak.
    #[test]
    fn black_and_white() {
        for matrix in [Matrix::Bt601, Matrix::Bt709, Matrix::Bt2020Extension] {
            for bits in [8u32, 10, 12, 16] {
                let k = 1u16 << (bits - 8);
                let max = ((1u32 << bits) - 1) as u16;
                let half = 1u16 << (bits - 1);
                let full = format(bits, matrix, Range::Full);
                let lo = to_linear_rgb(&frame_of(full, 0, half, half));
                let hi = to_linear_rgb(&frame_of(full, max, half, half));
                let limited = format(bits, matrix, Range::Limited);
                let lim_lo = to_linear_rgb(&frame_of(limited, 16 * k, half, half));
                let lim_hi = to_linear_rgb(&frame_of(limited, 235 * k, half, half));
                for p in 0..3 {
                    let at = format!("{matrix:?} {bits} bits plane {p}");
                    assert!(
                        lo.planes[p][4] < 1e-3,
                        "{at}: full black {}",
                        lo.planes[p][4]
                    );
                    assert!(
                        hi.planes[p][4] > 0.99,
                        "{at}: full white {}",
                        hi.planes[p][4]
                    );
                    assert!(
                        lim_lo.planes[p][4] < 1e-3,
                        "{at}: black {}",
                        lim_lo.planes[p][4]
                    );
                    assert!(
                        lim_hi.planes[p][4] > 0.99,
                        "{at}: white {}",
                        lim_hi.planes[p][4]
                    );
                }
            }
        }
    }

    /// Codes of a colour, converted back, give the colour within the quantisation error.
    #[test]
    fn codes_round_trip_through_the_matrix() {
        for matrix in [Matrix::Bt601, Matrix::Bt709, Matrix::Bt2020Extension] {
            for range in [Range::Limited, Range::Full] {
                let f = format(10, matrix, range);
                let rgb = [0.8, 0.3, 0.55];
                let codes = rgb_to_yuv_codes(rgb, &f).map(|c| quantise(c, f.max_code()));
                let back = to_linear_rgb(&frame_of(f, codes[0], codes[1], codes[2]));
                for (p, (plane, v)) in back.planes.iter().zip(rgb).enumerate() {
                    let want = srgb_to_linear_f64(v as f32);
                    assert!(
                        (plane[0] - want).abs() < 4e-3,
                        "{matrix:?} {range:?} plane {p}: {} against {want}",
                        plane[0]
                    );
                }
            }
        }
    }

    /// For BT.709 `1 - 0.2126 - 0.0722` in f32 is the constant 0.7152 (no difference); for
    /// BT.601 and the BT.2020 extension the fixed weight differs from the derived one in the
    /// last bits (else the replay's row would be vacuous).
    #[test]
    fn fixed_green_weight_against_the_derived_one() {
        assert_eq!(
            coefficients(Matrix::Bt709, Green::Fixed),
            coefficients(Matrix::Bt709, Green::Derived)
        );
        for matrix in [Matrix::Bt601, Matrix::Bt2020Extension] {
            let fixed = coefficients(matrix, Green::Fixed);
            let derived = coefficients(matrix, Green::Derived);
            assert_ne!(fixed, derived, "{matrix:?}");
            assert!((fixed.cb_g - derived.cb_g).abs() < 1e-6, "{matrix:?}");
            assert_eq!(fixed.cr_r, derived.cr_r);
            assert_eq!(fixed.cb_b, derived.cb_b);
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
            .map(|(r, g)| *r > g + 0.1)
            .collect();
        assert_eq!(
            red,
            vec![false, false, true, true, false, false, false, false]
        );
    }
}
