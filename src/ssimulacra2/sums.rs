//! The CPU's sums: each of the six terms of a scale and channel added in pixel order,
//! `s = 0; for i in 0..n { s += t[i] }`, and the averages formed from them.

use super::terms::{pixel_terms, ChannelPlanes, TERMS};

/// The six sequential sums of one scale and channel, in term order. Bits are those of the
/// plain loop over pixels in row-major order (terms computed and added pixel by pixel).
pub fn sequential_sums(p: &ChannelPlanes) -> [f64; TERMS] {
    let mut s = [0f64; TERMS];
    for i in 0..p.len() {
        let t = pixel_terms(p, i);
        for k in 0..TERMS {
            s[k] += t[k];
        }
    }
    s
}

/// The plain loop over one materialised term plane.
pub fn loop_sum(terms: &[f64]) -> f64 {
    let mut s = 0f64;
    for &t in terms {
        s += t;
    }
    s
}

/// The averages of one scale and channel from its six sums over `pixels` pixels: the 1-norm
/// `sum / n` for even terms and the 4-norm `sqrt(sqrt(sum / n))` for odd ones, each as
/// `(1 / n) * sum` like the CPU.
pub fn averages(sums: &[f64; TERMS], pixels: usize) -> [f64; TERMS] {
    let one_per_pixels = 1.0 / pixels as f64;
    let mut out = [0f64; TERMS];
    for k in 0..TERMS {
        let mean = one_per_pixels * sums[k];
        out[k] = if k % 2 == 0 { mean } else { mean.sqrt().sqrt() };
    }
    out
}
