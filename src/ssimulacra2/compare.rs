//! The score of the `ssimulacra2` crate on the same linear RGB input, to validate this
//! reference against an independent implementation. The two differ in rounding: the crate's
//! blur fuses multiply-adds, its XYB conversion has its own cube root, its SSIM division is
//! `f32`; and in pooling: it weights only the scales it computed (so below six scales its
//! weights shift). [`mixed_score`] isolates the first two: the crate's XYB and blur with this
//! reference's terms, sums and pooling; [`replay_score`] takes each of the two alone.

use anyhow::{anyhow, Result};

use super::pyramid::downsample;
use super::score::{self, SCALES};
use super::sums;
use super::terms::{ChannelPlanes, TERMS};
use super::yuv::LinearRgb;

fn to_crate(img: &LinearRgb) -> Result<ssimulacra2::LinearRgb> {
    let data: Vec<[f32; 3]> = (0..img.width * img.height)
        .map(|i| [img.planes[0][i], img.planes[1][i], img.planes[2][i]])
        .collect();
    ssimulacra2::LinearRgb::new(data, img.width, img.height)
        .map_err(|e| anyhow!("ssimulacra2 crate input: {e}"))
}

/// The crate's score of a pair of linear RGB images.
pub fn crate_score(reference: &LinearRgb, distorted: &LinearRgb) -> Result<f64> {
    ssimulacra2::compute_frame_ssimulacra2(to_crate(reference)?, to_crate(distorted)?)
        .map_err(|e| anyhow!("ssimulacra2 crate: {e}"))
}

/// The crate's positive XYB planes of a linear RGB image.
fn crate_positive_xyb(img: &LinearRgb) -> Result<[Vec<f32>; 3]> {
    let x = ssimulacra2::Xyb::from(to_crate(img)?);
    let mut out: [Vec<f32>; 3] = Default::default();
    for p in x.data() {
        out[0].push(p[0].mul_add(14.0, 0.42));
        out[1].push(p[1] + 0.01);
        out[2].push((p[2] - p[1]) + 0.55);
    }
    Ok(out)
}

fn multiply(a: &[Vec<f32>; 3], b: &[Vec<f32>; 3]) -> [Vec<f32>; 3] {
    std::array::from_fn(|c| a[c].iter().zip(&b[c]).map(|(x, y)| x * y).collect())
}

/// Whose stage a replay takes: this reference's or the crate's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// This reference's (libvmaf's scalar arithmetic).
    Reference,
    /// The `ssimulacra2` crate's.
    Crate,
}

/// The score with the crate's XYB conversion and blur at every scale, and this reference's
/// downsampling, terms, sums and pooling.
pub fn mixed_score(reference: &LinearRgb, distorted: &LinearRgb) -> Result<f64> {
    replay_score(reference, distorted, Side::Crate, Side::Crate)
}

/// The score with the XYB conversion (its cube root and matrix) of `xyb` and the blur of
/// `blur`, and this reference's downsampling, terms, sums and pooling at every scale: one
/// difference from the crate at a time. `(Reference, Reference)` is this reference's score.
pub fn replay_score(
    reference: &LinearRgb,
    distorted: &LinearRgb,
    xyb: Side,
    blur: Side,
) -> Result<f64> {
    let ours = super::blur::RecursiveGaussian::new(super::SIGMA);
    let (mut a, mut b) = (reference.clone(), distorted.clone());
    let mut averages: Vec<[[f64; TERMS]; 3]> = Vec::new();
    for scale in 0..SCALES {
        if scale > 0 {
            a = downsample(&a);
            b = downsample(&b);
        }
        if a.width < 8 || a.height < 8 {
            break;
        }
        let (w, h) = (a.width, a.height);
        let (x1, x2) = match xyb {
            Side::Crate => (crate_positive_xyb(&a)?, crate_positive_xyb(&b)?),
            Side::Reference => (super::xyb::from_linear(&a), super::xyb::from_linear(&b)),
        };
        let mut theirs = ssimulacra2::Blur::new(w, h);
        let mut blurred = |planes: &[Vec<f32>; 3]| -> [Vec<f32>; 3] {
            match blur {
                Side::Crate => theirs.blur(planes),
                Side::Reference => std::array::from_fn(|c| ours.blur(&planes[c], w, h)),
            }
        };
        let s11 = blurred(&multiply(&x1, &x1));
        let s22 = blurred(&multiply(&x2, &x2));
        let s12 = blurred(&multiply(&x1, &x2));
        let (mu1, mu2) = (blurred(&x1), blurred(&x2));
        averages.push(std::array::from_fn(|c| {
            let p = ChannelPlanes {
                img1: x1[c].clone(),
                img2: x2[c].clone(),
                mu1: mu1[c].clone(),
                mu2: mu2[c].clone(),
                s11: s11[c].clone(),
                s22: s22[c].clone(),
                s12: s12[c].clone(),
            };
            sums::averages(&sums::sequential_sums(&p), w * h)
        }));
    }
    Ok(score::pool(&averages))
}
