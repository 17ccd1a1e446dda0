//! SSIMULACRA2 on the CPU: the reference whose 108 per-frame sums the GPU must reproduce.
//!
//! Pipeline for a pair of YUV frames: [`yuv::to_linear_rgb`], then for each of up to six
//! scales (stopping below 8x8): [`xyb`] conversion, the [`blur`]s of [`pyramid::scale_planes`],
//! the per-pixel [`terms`] and their sequential [`sums`], then [`score::pool`]. Before the next
//! scale the linear RGB images are halved ([`pyramid::downsample`]).
//!
//! The per-pixel terms are separate from the sums: [`pyramid::ScalePlanes`] holds, per scale
//! and channel, the `f32` planes the terms read, so a device can compute the same terms from
//! the same planes and add them in another way. The sums here are the plain loop in pixel
//! order; bits of every sum, average and score are deterministic for given frames.
//!
//! Which CPU this is: libvmaf's scalar SSIMULACRA2 extractor (its C built without SIMD, at
//! the revision, and with the build, in `docs/ssimulacra2-libvmaf.md`), end to end: the front
//! end ([`frontend::FrontEnd::LIBVMAF`]: YUV to linear RGB with libvmaf's normalisation, chroma
//! centre, green weight and transfer table, then XYB with its Newton cube root), the blur, the
//! downsampling, the per-pixel terms of `ssim_map` and `edge_diff_map`, their sums and
//! `pool_score`, operation for operation. Guarantee: for BT.709 and BT.601, limited and full
//! range, the score's bits are those libvmaf's `vmaf` tool prints with `--precision max`
//! (`tests/ssimulacra2_libvmaf.rs` checks every committed libvmaf score). libvmaf's AVX2 and
//! AVX-512 paths are not the target: their scores differ from its scalar path's in the last
//! bits ([`x86_paths`] puts their one difference back, checked against each build's own
//! scores). The BT.2020 matrix is an extension
//! beyond libvmaf ([`yuv::Matrix::Bt2020Extension`]).

pub mod blur;
pub mod cbrt;
pub mod compare;
pub mod device;
pub mod frontend;
pub mod host;
pub mod layout;
pub mod pyramid;
pub mod score;
pub mod sums;
pub mod terms;
pub mod transfer;
pub mod x86_paths;
pub mod xyb;
pub mod yuv;

use anyhow::Result;
use rayon::prelude::*;

use blur::RecursiveGaussian;
use frontend::FrontEnd;
use pyramid::ScalePlanes;
use terms::TERMS;
use yuv::{LinearRgb, YuvFrame};

/// The blur's sigma.
pub const SIGMA: f64 = 1.5;

/// Splits interleaved triples into three planes.
pub(crate) fn deinterleave(v: &[[f32; 3]]) -> [Vec<f32>; 3] {
    std::array::from_fn(|c| v.iter().map(|p| p[c]).collect())
}

/// The six sums of each channel at one scale.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ScaleSums {
    /// Width at this scale.
    pub width: usize,
    /// Height at this scale.
    pub height: usize,
    /// `sums[channel][term]`, each the sequential loop in pixel order.
    pub sums: [[f64; TERMS]; 3],
}

impl ScaleSums {
    /// The averages of this scale, `[channel][term]`.
    pub fn averages(&self) -> [[f64; TERMS]; 3] {
        self.sums
            .map(|s| sums::averages(&s, self.width * self.height))
    }
}

/// The sums of every completed scale of one frame.
#[derive(Clone, Debug, PartialEq)]
pub struct FrameSums {
    /// One entry per completed scale, scale 0 first.
    pub scales: Vec<ScaleSums>,
}

impl FrameSums {
    /// Averages of every completed scale, `[scale][channel][term]`.
    pub fn averages(&self) -> Vec<[[f64; TERMS]; 3]> {
        self.scales.iter().map(ScaleSums::averages).collect()
    }

    /// The averages flattened: index `scale * 18 + channel * 6 + term` (108 for six scales).
    pub fn flat_averages(&self) -> Vec<f64> {
        self.averages()
            .iter()
            .flat_map(|s| s.iter().flatten().copied())
            .collect()
    }

    /// The frame's SSIMULACRA2 score.
    pub fn score(&self) -> f64 {
        score::pool(&self.averages())
    }
}

/// Runs the pyramid on two linear RGB images of one size (at least 8x8) and calls `visit` with
/// the planes of each scale, scale 0 first; stops after scale 5 or below 8x8. The XYB
/// conversion is libvmaf's.
pub fn for_each_scale(
    reference: LinearRgb,
    distorted: LinearRgb,
    visit: impl FnMut(&ScalePlanes) -> Result<()>,
) -> Result<()> {
    for_each_scale_with(reference, distorted, &FrontEnd::LIBVMAF, visit)
}

/// [`for_each_scale`] with the XYB conversion of `front` (its cube root and matrix; its YUV
/// choices have been applied already, in the linear RGB images).
pub fn for_each_scale_with(
    reference: LinearRgb,
    distorted: LinearRgb,
    front: &FrontEnd,
    mut visit: impl FnMut(&ScalePlanes) -> Result<()>,
) -> Result<()> {
    let blur = RecursiveGaussian::new(SIGMA);
    let (mut a, mut b) = (reference, distorted);
    for scale in 0..score::SCALES {
        if a.width < 8 || a.height < 8 {
            break;
        }
        if scale > 0 {
            (a, b) = rayon::join(|| pyramid::downsample(&a), || pyramid::downsample(&b));
        }
        if a.width < 8 || a.height < 8 {
            break;
        }
        visit(&pyramid::scale_planes(scale, &a, &b, &blur, front))?;
    }
    Ok(())
}

/// The sums of one scale: each channel's six sequential loops (channels in parallel).
pub fn scale_sums(planes: &ScalePlanes) -> ScaleSums {
    scale_sums_by(planes, sums::sequential_sums)
}

/// The sums of one scale with each channel's six sums formed by `channel_sums` (channels in
/// parallel).
pub fn scale_sums_by(
    planes: &ScalePlanes,
    channel_sums: fn(&terms::ChannelPlanes) -> [f64; TERMS],
) -> ScaleSums {
    let v: Vec<[f64; TERMS]> = planes.channels.par_iter().map(channel_sums).collect();
    ScaleSums {
        width: planes.width,
        height: planes.height,
        sums: [v[0], v[1], v[2]],
    }
}

/// The sums of a frame pair with libvmaf's front end. Errors if the frames differ in size or
/// are below 8x8.
pub fn frame_sums(reference: &YuvFrame, distorted: &YuvFrame) -> Result<FrameSums> {
    frame_sums_with(reference, distorted, &FrontEnd::LIBVMAF)
}

/// The sums of a frame pair with the front end `front`. Errors if the frames differ in size or
/// are below 8x8.
pub fn frame_sums_with(
    reference: &YuvFrame,
    distorted: &YuvFrame,
    front: &FrontEnd,
) -> Result<FrameSums> {
    frame_sums_by(reference, distorted, front, sums::sequential_sums)
}

/// [`frame_sums_with`] with each scale's channel sums formed by `channel_sums` (a variant of
/// the sums, e.g. [`x86_paths::sequential_sums`]).
pub fn frame_sums_by(
    reference: &YuvFrame,
    distorted: &YuvFrame,
    front: &FrontEnd,
    channel_sums: fn(&terms::ChannelPlanes) -> [f64; TERMS],
) -> Result<FrameSums> {
    frame_sums_of_scales(reference, distorted, front, |planes| {
        Ok(scale_sums_by(planes, channel_sums))
    })
}

/// The sums of a frame pair with the front end `front`, each scale's sums formed from its
/// planes by `scale_sums` (on the CPU or elsewhere, e.g. the device's
/// [`device::DeviceSsimulacra2`]). Errors if the frames differ in size or are below 8x8, or
/// where `scale_sums` does.
pub fn frame_sums_of_scales(
    reference: &YuvFrame,
    distorted: &YuvFrame,
    front: &FrontEnd,
    mut scale_sums: impl FnMut(&ScalePlanes) -> Result<ScaleSums>,
) -> Result<FrameSums> {
    yuv::check_pair(reference, distorted)?;
    let (a, b) = rayon::join(
        || yuv::to_linear_rgb_with(reference, front),
        || yuv::to_linear_rgb_with(distorted, front),
    );
    let mut scales = Vec::new();
    for_each_scale_with(a, b, front, |planes| {
        scales.push(scale_sums(planes)?);
        Ok(())
    })?;
    Ok(FrameSums { scales })
}
