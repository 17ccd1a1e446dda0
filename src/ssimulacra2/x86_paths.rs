//! libvmaf's x86 SSIMULACRA2 paths (AVX2 and AVX-512) as variants of the reference: what their
//! functions (`libvmaf/src/feature/x86/ssimulacra2_avx2.c` and `ssimulacra2_avx512.c` at
//! [`crate::fixtures::libvmaf::LIBVMAF_COMMIT`]) compute differently from its scalar path,
//! which the reference follows.
//!
//! Read in that source: the multiply, XYB conversion, downsampling, blur and SSIM map form
//! every value with the scalar path's operations in its order, lane by lane, and both maps add
//! their terms pixel by pixel in `f64` in pixel order. One operation differs: in
//! `edge_diff_map`, each whole block of a plane's pixels (eight for AVX2, sixteen for AVX-512:
//! one vector of `f32` lanes) forms `|img - mu|` by an `f32` subtraction (`_mm256_sub_ps` or
//! `_mm512_sub_ps`, then the sign bit cleared) and widens the result, where the scalar path
//! widens both operands and subtracts in `f64`, which is exact for two `f32` values. The
//! plane's last `n mod lanes` pixels take the scalar tail. So a path differs from the scalar
//! one exactly where `img - mu` is not an `f32`, and the two x86 paths differ from each other
//! only in the pixels of the tail that one has and the other does not.
//!
//! Whether this is all that separates each build's scores from the scalar build's is a
//! measurement, not a reading: `ssimulacra2-replay` and `tests/ssimulacra2_libvmaf.rs` compare
//! [`frame_sums`] with the scores libvmaf's own builds printed
//! (`fixtures/libvmaf/ssimulacra2-scores-avx2.csv`, `-avx512.csv`).

use anyhow::Result;

use super::frontend::FrontEnd;
use super::terms::{edge_terms, quartic, ssim_term, ChannelPlanes, TERMS};
use super::yuv::YuvFrame;
use super::{frame_sums_by, FrameSums};

/// One of libvmaf's x86 SSIMULACRA2 paths.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum X86Path {
    /// The AVX2 functions (eight `f32` lanes), taken with AVX-512 masked or absent.
    Avx2,
    /// The AVX-512 functions (sixteen `f32` lanes), taken where the CPU has AVX-512 F, DQ, CD,
    /// BW and VL.
    Avx512,
}

impl X86Path {
    /// Both paths.
    pub const ALL: [X86Path; 2] = [X86Path::Avx2, X86Path::Avx512];

    /// Pixels per block of `edge_diff_map`'s vector loop (one vector of `f32` lanes).
    pub const fn lanes(self) -> usize {
        match self {
            X86Path::Avx2 => 8,
            X86Path::Avx512 => 16,
        }
    }

    /// The path's name as libvmaf's sources and the CSV files spell it.
    pub const fn name(self) -> &'static str {
        match self {
            X86Path::Avx2 => "avx2",
            X86Path::Avx512 => "avx512",
        }
    }
}

/// The edge terms as the vector blocks form them: `|img - mu|` rounded to `f32` before
/// widening; otherwise [`edge_terms`].
pub fn edge_terms_f32_difference(img1: f32, mu1: f32, img2: f32, mu2: f32) -> (f64, f64) {
    let ed1 = f64::from((img1 - mu1).abs());
    let ed2 = f64::from((img2 - mu2).abs());
    let d1 = (1.0 + ed2) / (1.0 + ed1) - 1.0;
    let artifact = if d1 > 0.0 { d1 } else { 0.0 };
    let detail_lost = if d1 < 0.0 { -d1 } else { 0.0 };
    (artifact, detail_lost)
}

/// The six sums of one scale and channel as a path with `LANES`-pixel blocks adds them: pixel
/// order, `f64`, the edge terms of whole blocks by [`edge_terms_f32_difference`], of the tail
/// by [`edge_terms`].
pub fn sequential_sums<const LANES: usize>(p: &ChannelPlanes) -> [f64; TERMS] {
    debug_assert!(LANES > 0);
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

/// The sums of a frame pair as libvmaf's `path` forms them, with libvmaf's front end.
pub fn frame_sums(path: X86Path, reference: &YuvFrame, distorted: &YuvFrame) -> Result<FrameSums> {
    let sums = match path {
        X86Path::Avx2 => sequential_sums::<{ X86Path::Avx2.lanes() }>,
        X86Path::Avx512 => sequential_sums::<{ X86Path::Avx512.lanes() }>,
    };
    frame_sums_by(reference, distorted, &FrontEnd::LIBVMAF, sums)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_block_widths_are_the_vector_widths() {
        assert_eq!(X86Path::Avx2.lanes(), 256 / 32);
        assert_eq!(X86Path::Avx512.lanes(), 512 / 32);
    }
}
