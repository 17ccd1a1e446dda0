//! The per-pixel terms of the 108 sums: for one scale and channel, six non-negative doubles
//! per pixel, computed from seven `f32` planes.
//!
//! The operation order is that of the scalar `ssim_map` and `edge_diff_map` in libvmaf's
//! SSIMULACRA2 extractor: `f32` for the means and variances, `f64` from the division on (the
//! edge differences `|img - mu|` in `f64`, exactly), no fused multiply-add. Its x86 paths
//! round the edge differences to `f32` ([`super::x86_paths`]). The device header
//! `kernels/ssimulacra2_terms.cuh` computes the same terms in the same order.

/// The SSIM stabilising constant of the structure term.
pub const C2: f32 = 0.0009;

/// Number of terms per pixel.
pub const TERMS: usize = 6;

/// Names of the six terms, in index order.
pub const TERM_NAMES: [&str; TERMS] = [
    "ssim",
    "ssim^4",
    "artifact",
    "artifact^4",
    "detail_lost",
    "detail_lost^4",
];

/// The seven `f32` planes of one scale and channel that the terms read.
#[derive(Clone, Debug, PartialEq)]
pub struct ChannelPlanes {
    /// Reference XYB channel.
    pub img1: Vec<f32>,
    /// Distorted XYB channel.
    pub img2: Vec<f32>,
    /// Blurred reference.
    pub mu1: Vec<f32>,
    /// Blurred distorted.
    pub mu2: Vec<f32>,
    /// Blurred square of the reference.
    pub s11: Vec<f32>,
    /// Blurred square of the distorted.
    pub s22: Vec<f32>,
    /// Blurred product of reference and distorted.
    pub s12: Vec<f32>,
}

impl ChannelPlanes {
    /// Pixels in each plane.
    pub fn len(&self) -> usize {
        self.img1.len()
    }

    /// True when the planes hold no pixel.
    pub fn is_empty(&self) -> bool {
        self.img1.is_empty()
    }

    /// The planes in the order the device buffers take them:
    /// `img1, img2, mu1, mu2, s11, s22, s12`.
    pub fn as_array(&self) -> [&[f32]; 7] {
        [
            &self.img1, &self.img2, &self.mu1, &self.mu2, &self.s11, &self.s22, &self.s12,
        ]
    }
}

/// `x^4` as `(x * x) * (x * x)` with one rounding per product, like the CPU's `quartic`.
pub fn quartic(x: f64) -> f64 {
    let x2 = x * x;
    x2 * x2
}

/// The SSIM error `max(0, 1 - num_m * num_s / denom_s)` of one pixel.
pub fn ssim_term(mu1: f32, mu2: f32, s11: f32, s22: f32, s12: f32) -> f64 {
    let mu11 = mu1 * mu1;
    let mu22 = mu2 * mu2;
    let mu12 = mu1 * mu2;
    let diff = mu1 - mu2;
    let num_m = 1.0f32 - diff * diff;
    let num_s = 2.0f32 * (s12 - mu12) + C2;
    let denom_s = (s11 - mu11) + (s22 - mu22) + C2;
    let d = 1.0f64 - (num_m as f64 * num_s as f64) / denom_s as f64;
    if d < 0.0 {
        0.0
    } else {
        d
    }
}

/// The edge ratio `(1 + |img2 - mu2|) / (1 + |img1 - mu1|) - 1` of one pixel, split into
/// `(artifact, detail_lost)`: its positive part and its negated negative part.
pub fn edge_terms(img1: f32, mu1: f32, img2: f32, mu2: f32) -> (f64, f64) {
    let ed1 = (img1 as f64 - mu1 as f64).abs();
    let ed2 = (img2 as f64 - mu2 as f64).abs();
    let d1 = (1.0 + ed2) / (1.0 + ed1) - 1.0;
    let artifact = if d1 > 0.0 { d1 } else { 0.0 };
    let detail_lost = if d1 < 0.0 { -d1 } else { 0.0 };
    (artifact, detail_lost)
}

/// The six terms of pixel `i`: `[ssim, ssim^4, artifact, artifact^4, detail_lost,
/// detail_lost^4]`.
pub fn pixel_terms(p: &ChannelPlanes, i: usize) -> [f64; TERMS] {
    let d = ssim_term(p.mu1[i], p.mu2[i], p.s11[i], p.s22[i], p.s12[i]);
    let (a, l) = edge_terms(p.img1[i], p.mu1[i], p.img2[i], p.mu2[i]);
    [d, quartic(d), a, quartic(a), l, quartic(l)]
}

/// Every pixel's terms, one plane per term (pixel order).
pub fn term_planes(p: &ChannelPlanes) -> [Vec<f64>; TERMS] {
    let mut out: [Vec<f64>; TERMS] = Default::default();
    for plane in out.iter_mut() {
        plane.reserve_exact(p.len());
    }
    for i in 0..p.len() {
        let t = pixel_terms(p, i);
        for (plane, v) in out.iter_mut().zip(t) {
            plane.push(v);
        }
    }
    out
}
