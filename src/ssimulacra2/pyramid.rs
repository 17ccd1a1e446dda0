//! The six-scale pyramid: 2x2 box downsampling in linear RGB, and for each scale the seven
//! `f32` planes per channel that the terms read (XYB of both images, their blurs, and the
//! blurs of their squares and product).

use rayon::prelude::*;

use super::blur::RecursiveGaussian;
use super::frontend::FrontEnd;
use super::terms::ChannelPlanes;
use super::xyb;
use super::yuv::LinearRgb;

/// The planes of one scale.
#[derive(Clone, Debug, PartialEq)]
pub struct ScalePlanes {
    /// Scale index, 0 (full size) to 5 (1:32).
    pub scale: usize,
    /// Width at this scale.
    pub width: usize,
    /// Height at this scale.
    pub height: usize,
    /// X, Y and B channels.
    pub channels: [ChannelPlanes; 3],
}

/// Halves an image with a 2x2 box (edge pixels repeated on odd sizes): the four samples
/// added in `f32` in row order, times 0.25.
pub fn downsample(input: &LinearRgb) -> LinearRgb {
    let (iw, ih) = (input.width, input.height);
    let (ow, oh) = (iw.div_ceil(2), ih.div_ceil(2));
    let planes = input.planes.each_ref().map(|plane| {
        let mut out = vec![0f32; ow * oh];
        for oy in 0..oh {
            for ox in 0..ow {
                let mut sum = 0f32;
                for dy in 0..2 {
                    for dx in 0..2 {
                        let x = (ox * 2 + dx).min(iw - 1);
                        let y = (oy * 2 + dy).min(ih - 1);
                        sum += plane[y * iw + x];
                    }
                }
                out[oy * ow + ox] = sum * 0.25;
            }
        }
        out
    });
    LinearRgb {
        width: ow,
        height: oh,
        planes,
    }
}

fn multiply(a: &[f32], b: &[f32]) -> Vec<f32> {
    a.iter().zip(b).map(|(x, y)| x * y).collect()
}

/// The planes of one scale from the two linear RGB images of that scale, the XYB conversion
/// taking the cube root and matrix of `front`. The fifteen blurs run in parallel on the current rayon pool;
/// each is the same sequential filter.
pub fn scale_planes(
    scale: usize,
    reference: &LinearRgb,
    distorted: &LinearRgb,
    blur: &RecursiveGaussian,
    front: &FrontEnd,
) -> ScalePlanes {
    let (w, h) = (reference.width, reference.height);
    let (x1, x2) = rayon::join(
        || xyb::from_linear_with(reference, front),
        || xyb::from_linear_with(distorted, front),
    );
    let mut blurred: Vec<Vec<f32>> = (0..15)
        .into_par_iter()
        .map(|job| {
            let c = job / 5;
            let (a, b) = (&x1[c], &x2[c]);
            match job % 5 {
                0 => blur.blur(a, w, h),
                1 => blur.blur(b, w, h),
                2 => blur.blur(&multiply(a, a), w, h),
                3 => blur.blur(&multiply(b, b), w, h),
                _ => blur.blur(&multiply(a, b), w, h),
            }
        })
        .collect();
    let [i0, i1, i2] = x1;
    let [j0, j1, j2] = x2;
    let mut imgs = [(i0, j0), (i1, j1), (i2, j2)].into_iter();
    let channels = std::array::from_fn(|_| {
        let (img1, img2) = imgs.next().unwrap_or_default();
        let mut five = blurred.drain(..5);
        let mut next = || five.next().unwrap_or_default();
        ChannelPlanes {
            img1,
            img2,
            mu1: next(),
            mu2: next(),
            s11: next(),
            s22: next(),
            s12: next(),
        }
    });
    ScalePlanes {
        scale,
        width: w,
        height: h,
        channels,
    }
}
