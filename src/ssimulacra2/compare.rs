//! The score of the `ssimulacra2` crate on the same linear RGB input, to validate this
//! reference against an independent implementation (the two differ in the blur's boundary
//! handling, fused multiply-adds, the `f32` SSIM division and the pooling of missing scales,
//! so the scores are close, not equal).

use anyhow::{anyhow, Result};

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
