//! The separable Gaussian filter and the decimation between scales.
//!
//! Each output is the reference's: a vertical pass (`acc = 0; acc += tap[k] * v[k]` for
//! `k` in tap order, rows mirrored at the borders) into an fp32 row, then a horizontal pass
//! of the same form over that row. The squared and cross filters multiply the pixels before
//! the tap (`tap * (a * b)`). Mirroring is `reflect_101`: index `-i` above and `2n - i - 2`
//! below. libvmaf's AVX2 convolution (`convolution_avx.c`, borders through
//! `convolution_edge_s`) and its scalar loops (`vif_tools.c`) perform these same operations
//! in the same order for every output kept, so one implementation stands for both paths.

use rayon::prelude::*;

/// A plane of fp32 samples, row-major, no padding.
#[derive(Clone, Debug, PartialEq)]
pub struct Image {
    /// Width in samples.
    pub w: usize,
    /// Height in rows.
    pub h: usize,
    /// `w * h` samples, row by row.
    pub data: Vec<f32>,
}

impl Image {
    /// The sample at row `i`, column `j`.
    pub fn at(&self, i: usize, j: usize) -> f32 {
        self.data[i * self.w + j]
    }
}

/// What the vertical pass multiplies by each tap.
#[derive(Clone, Copy, Debug)]
pub enum Source<'a> {
    /// The plane itself.
    Plain(&'a Image),
    /// The square of each sample (`a * a`).
    Square(&'a Image),
    /// The product of two planes' samples (`a * b`).
    Product(&'a Image, &'a Image),
}

impl Source<'_> {
    fn dims(&self) -> (usize, usize) {
        match self {
            Source::Plain(a) | Source::Square(a) | Source::Product(a, _) => (a.w, a.h),
        }
    }

    fn value(&self, idx: usize) -> f32 {
        match self {
            Source::Plain(a) => a.data[idx],
            Source::Square(a) => {
                let v = a.data[idx];
                v * v
            }
            Source::Product(a, b) => a.data[idx] * b.data[idx],
        }
    }
}

/// `reflect_101` of index `i` into `0..n` (valid for `-n < i < 2n - 1`).
pub fn mirror(i: isize, n: isize) -> usize {
    let m = if i < 0 {
        -i
    } else if i >= n {
        2 * n - i - 2
    } else {
        i
    };
    m as usize
}

/// The vertical pass at row `i`, column `j`.
fn vertical_at(taps: &[f32], src: &Source, i: usize, j: usize) -> f32 {
    let (w, h) = src.dims();
    let radius = (taps.len() / 2) as isize;
    let mut acc = 0.0_f32;
    for (k, &t) in taps.iter().enumerate() {
        let ii = mirror(i as isize - radius + k as isize, h as isize);
        let p = t * src.value(ii * w + j);
        acc += p;
    }
    acc
}

/// The horizontal pass of one fp32 row at column `j`.
fn horizontal_at(taps: &[f32], row: &[f32], j: usize) -> f32 {
    let radius = (taps.len() / 2) as isize;
    let w = row.len() as isize;
    let mut acc = 0.0_f32;
    for (k, &t) in taps.iter().enumerate() {
        let jj = mirror(j as isize - radius + k as isize, w);
        let p = t * row[jj];
        acc += p;
    }
    acc
}

/// Filters `src` with `taps` in both directions, keeping every `step`-th row and column
/// (`step` 1: the full plane, as `vif_filter1d*_s`; 2: the even rows and columns of that
/// plane, as `vif_filter1d_s` followed by `vif_dec2_s`). The output is
/// `(w / step) x (h / step)` for step 2 and `w x h` for step 1.
pub fn filter(taps: &[f32], src: Source, step: usize) -> Image {
    let (w, h) = src.dims();
    let (ow, oh) = (w / step, h / step);
    let mut data = vec![0.0_f32; ow * oh];
    data.par_chunks_mut(ow.max(1))
        .enumerate()
        .for_each(|(oi, out)| {
            let i = oi * step;
            let row: Vec<f32> = (0..w).map(|j| vertical_at(taps, &src, i, j)).collect();
            for (oj, o) in out.iter_mut().enumerate() {
                *o = horizontal_at(taps, &row, oj * step);
            }
        });
    Image { w: ow, h: oh, data }
}

/// The five filtered moments of a scale: means, squares and the cross product.
#[derive(Clone, Debug)]
pub struct Filtered {
    /// Filtered reference.
    pub mu1: Image,
    /// Filtered distorted.
    pub mu2: Image,
    /// Filtered reference squared.
    pub xx: Image,
    /// Filtered distorted squared.
    pub yy: Image,
    /// Filtered product.
    pub xy: Image,
}

/// The five filters of one scale over a reference and a distorted plane of equal size.
pub fn moments(taps: &[f32], r: &Image, d: &Image) -> Filtered {
    Filtered {
        mu1: filter(taps, Source::Plain(r), 1),
        mu2: filter(taps, Source::Plain(d), 1),
        xx: filter(taps, Source::Square(r), 1),
        yy: filter(taps, Source::Square(d), 1),
        xy: filter(taps, Source::Product(r, d), 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mirror_is_reflect_101() {
        let got: Vec<usize> = (-3..8).map(|i| mirror(i, 5)).collect();
        assert_eq!(got, vec![3, 2, 1, 0, 1, 2, 3, 4, 3, 2, 1]);
    }

    #[test]
    fn decimated_filter_equals_every_second_sample_of_the_full_one() {
        let w = 37;
        let h = 23;
        let data: Vec<f32> = (0..w * h)
            .map(|k| ((k * 7919) % 251) as f32 - 128.0)
            .collect();
        let img = Image { w, h, data };
        let taps = super::super::taps::taps(1, 1.0);
        let full = filter(&taps, Source::Plain(&img), 1);
        let dec = filter(&taps, Source::Plain(&img), 2);
        for i in 0..h / 2 {
            for j in 0..w / 2 {
                assert_eq!(
                    dec.at(i, j).to_bits(),
                    full.at(2 * i, 2 * j).to_bits(),
                    "({i}, {j})"
                );
            }
        }
    }
}
