//! The buffer layout the term kernels (device and host builds of
//! `kernels/ssimulacra2_terms.cuh`) read and write for one scale.
//!
//! Input: per channel, seven `f32` planes of `n` pixels in the order of
//! [`ChannelPlanes::as_array`] (`img1, img2, mu1, mu2, s11, s22, s12`), channel after channel.
//! Output: per channel, six `f64` planes of `n` terms, term-major: term `k` of channel `c` at
//! `(c * 6 + k) * n + i`. Each output plane is one sum's terms in the CPU's pixel order.

use std::ops::Range;

use super::pyramid::ScalePlanes;
use super::terms::{term_planes, TERMS};

/// Planes per channel in the input.
pub const PLANES: usize = 7;

/// The input buffer of a scale.
pub fn pack_planes(scale: &ScalePlanes) -> Vec<f32> {
    let n = scale.width * scale.height;
    let mut out = Vec::with_capacity(3 * PLANES * n);
    for ch in &scale.channels {
        for plane in ch.as_array() {
            out.extend_from_slice(plane);
        }
    }
    out
}

/// The output the kernels must produce for a scale, computed by the Rust reference.
pub fn reference_terms(scale: &ScalePlanes) -> Vec<f64> {
    let n = scale.width * scale.height;
    let mut out = Vec::with_capacity(3 * TERMS * n);
    for ch in &scale.channels {
        for plane in term_planes(ch) {
            out.extend_from_slice(&plane);
        }
    }
    out
}

/// The ranges of the output holding each sum's terms, index `c * 6 + k`.
pub fn sum_segments(n: usize) -> Vec<Range<usize>> {
    (0..3 * TERMS).map(|s| s * n..(s + 1) * n).collect()
}
