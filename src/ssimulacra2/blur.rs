//! The recursive Gaussian blur of SSIMULACRA2 (sigma 1.5): a three-pole IIR filter after
//! Charalampidis (2016), "Recursive implementation of the Gaussian filter using truncated
//! cosine functions", run along rows and then along columns with zero outside the image.
//!
//! The coefficients are derived in `f64` and rounded to `f32`; the filter itself runs in `f32`
//! with the operation order `n2 * (left + right) - d1 * prev1 - prev2` per pole and
//! `(o0 + o1) + o2` for the output.

use std::f64::consts::PI;

/// Filter coefficients for one sigma.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RecursiveGaussian {
    /// Feed-forward gain of each pole.
    pub n2: [f32; 3],
    /// Feedback coefficient of each pole.
    pub d1: [f32; 3],
    /// Radius `N` of the truncated cosine basis.
    pub radius: usize,
}

fn det3(m: [[f64; 3]; 3]) -> f64 {
    m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
        - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
        + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
}

impl RecursiveGaussian {
    /// Coefficients for `sigma` (the metric uses 1.5).
    pub fn new(sigma: f64) -> RecursiveGaussian {
        let radius = (3.2795 * sigma + 0.2546).round();
        let w0 = PI / (2.0 * radius);
        let omega = [w0, 3.0 * w0, 5.0 * w0];
        let p = [
            1.0 / (0.5 * omega[0]).tan(),
            -1.0 / (0.5 * omega[1]).tan(),
            1.0 / (0.5 * omega[2]).tan(),
        ];
        let r = [
            p[0] * p[0] / omega[0].sin(),
            -p[1] * p[1] / omega[1].sin(),
            p[2] * p[2] / omega[2].sin(),
        ];
        let rho: Vec<f64> = omega
            .iter()
            .map(|w| (-0.5 * sigma * sigma * w * w).exp() / radius)
            .collect();
        let d13 = p[0] * r[1] - r[0] * p[1];
        let d35 = p[1] * r[2] - r[1] * p[2];
        let d51 = p[2] * r[0] - r[2] * p[0];
        let zeta15 = d35 / d13;
        let zeta35 = d51 / d13;
        let a = [
            [p[0], p[1], p[2]],
            [r[0], r[1], r[2]],
            [zeta15, zeta35, 1.0],
        ];
        let gamma = [
            1.0,
            radius * radius - sigma * sigma,
            zeta15 * rho[0] + zeta35 * rho[1] + rho[2],
        ];
        let det_a = det3(a);
        let mut n2 = [0f32; 3];
        let mut d1 = [0f32; 3];
        for k in 0..3 {
            let mut m = a;
            for (row, g) in m.iter_mut().zip(gamma) {
                row[k] = g;
            }
            let beta = det3(m) / det_a;
            n2[k] = (-beta * (omega[k] * (radius + 1.0)).cos()) as f32;
            d1[k] = (-2.0 * omega[k].cos()) as f32;
        }
        RecursiveGaussian {
            n2,
            d1,
            radius: radius as usize,
        }
    }

    /// Filters one line `input` (read with `stride`) into `out` (same stride), zero outside.
    fn line(&self, input: &[f32], out: &mut [f32], len: usize, stride: usize) {
        let n = self.radius as isize;
        let mut prev1 = [0f32; 3];
        let mut prev2 = [0f32; 3];
        for i in (1 - n)..(len as isize) {
            let left = i - n - 1;
            let right = i + n - 1;
            let lv = if left >= 0 {
                input[left as usize * stride]
            } else {
                0.0
            };
            let rv = if right < len as isize {
                input[right as usize * stride]
            } else {
                0.0
            };
            let sum = lv + rv;
            let mut o = [0f32; 3];
            for k in 0..3 {
                o[k] = self.n2[k] * sum - self.d1[k] * prev1[k] - prev2[k];
                prev2[k] = prev1[k];
                prev1[k] = o[k];
            }
            if i >= 0 {
                out[i as usize * stride] = o[0] + o[1] + o[2];
            }
        }
    }

    /// Blurs a `width x height` plane: every row, then every column of the result.
    pub fn blur(&self, plane: &[f32], width: usize, height: usize) -> Vec<f32> {
        let mut rows = vec![0f32; width * height];
        for y in 0..height {
            let r = y * width..(y + 1) * width;
            self.line(&plane[r.clone()], &mut rows[r], width, 1);
        }
        self.columns(&rows, width, height)
    }

    /// The column pass: the same recursion as [`Self::line`] on every column, the columns
    /// stepped together row by row (same operations per column, better memory order).
    fn columns(&self, rows: &[f32], width: usize, height: usize) -> Vec<f32> {
        let mut out = vec![0f32; width * height];
        let n = self.radius as isize;
        let mut prev1 = vec![[0f32; 3]; width];
        let mut prev2 = vec![[0f32; 3]; width];
        for i in (1 - n)..(height as isize) {
            let left = i - n - 1;
            let right = i + n - 1;
            for x in 0..width {
                let lv = if left >= 0 {
                    rows[left as usize * width + x]
                } else {
                    0.0
                };
                let rv = if right < height as isize {
                    rows[right as usize * width + x]
                } else {
                    0.0
                };
                let sum = lv + rv;
                let (p1, p2) = (&mut prev1[x], &mut prev2[x]);
                let mut o = [0f32; 3];
                for k in 0..3 {
                    o[k] = self.n2[k] * sum - self.d1[k] * p1[k] - p2[k];
                    p2[k] = p1[k];
                    p1[k] = o[k];
                }
                if i >= 0 {
                    out[i as usize * width + x] = o[0] + o[1] + o[2];
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// The interleaved column pass gives the bits of the one-line filter run down each column.
    #[test]
    fn column_pass_equals_the_line_filter_on_each_column() {
        let seed = 7;
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let g = RecursiveGaussian::new(1.5);
        for (w, h) in [(1usize, 1usize), (3, 17), (37, 23), (64, 9)] {
            let plane: Vec<f32> = (0..w * h).map(|_| rng.random::<f32>()).collect();
            let cols = g.columns(&plane, w, h);
            for x in 0..w {
                let mut out = vec![0f32; w * h];
                g.line(&plane[x..], &mut out[x..], h, w);
                for y in 0..h {
                    let i = y * w + x;
                    assert_eq!(
                        cols[i].to_bits(),
                        out[i].to_bits(),
                        "seed {seed} size {w}x{h} pixel {x},{y}"
                    );
                }
            }
        }
    }

    /// The coefficients of sigma 1.5: radius 5 and a unit DC gain (a constant line far from
    /// the borders stays that constant up to rounding).
    #[test]
    fn coefficients_have_unit_gain() {
        let g = RecursiveGaussian::new(1.5);
        assert_eq!(g.radius, 5);
        let line = vec![1f32; 200];
        let mut out = vec![0f32; 200];
        g.line(&line, &mut out, 200, 1);
        assert!((out[100] - 1.0).abs() < 1e-5, "{}", out[100]);
    }
}
