//! Procedural frame pairs for the experiments and fixtures: natural-looking references
//! (several octaves of smooth lattice noise, soft-edged shapes, fine grain) and distorted
//! versions (blur, noise, a contrast change, quantisation), plus checkerboards. Every pair is
//! a function of its size, depth and seed alone.

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use rayon::prelude::*;

use super::frame::{Plane, PlaneError};

/// A seeded lattice of random values in `[0, 1)`, interpolated smoothly.
struct Lattice {
    cells: usize,
    values: Vec<f64>,
}

impl Lattice {
    fn new(cells: usize, rng: &mut Xoshiro256PlusPlus) -> Lattice {
        let n = (cells + 2) * (cells + 2);
        Lattice {
            cells,
            values: (0..n).map(|_| rng.random::<f64>()).collect(),
        }
    }

    /// The value at `(x, y)` in `[0, 1] x [0, 1]`.
    fn at(&self, x: f64, y: f64) -> f64 {
        let fx = x * self.cells as f64;
        let fy = y * self.cells as f64;
        let (ix, iy) = (fx.floor() as usize, fy.floor() as usize);
        let smooth = |t: f64| t * t * (3.0 - 2.0 * t);
        let (tx, ty) = (smooth(fx - ix as f64), smooth(fy - iy as f64));
        let n = self.cells + 2;
        let v = |i: usize, j: usize| self.values[j.min(n - 1) * n + i.min(n - 1)];
        let top = v(ix, iy) * (1.0 - tx) + v(ix + 1, iy) * tx;
        let bottom = v(ix, iy + 1) * (1.0 - tx) + v(ix + 1, iy + 1) * tx;
        top * (1.0 - ty) + bottom * ty
    }
}

/// A soft-edged disc: centre, radius, level and edge width (all relative to the frame).
struct Disc {
    cx: f64,
    cy: f64,
    r: f64,
    level: f64,
    soft: f64,
}

/// A natural-looking scene in `[0, 1]`, `w * h` values.
fn scene(w: usize, h: usize, seed: u64) -> Vec<f64> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let octaves: Vec<(Lattice, f64)> = (0..6)
        .map(|o| (Lattice::new(3 << o, &mut rng), 0.55_f64.powi(o)))
        .collect();
    let discs: Vec<Disc> = (0..12)
        .map(|_| Disc {
            cx: rng.random(),
            cy: rng.random(),
            r: rng.random_range(0.03..0.2),
            level: rng.random_range(-0.35..0.35),
            soft: rng.random_range(0.002..0.02),
        })
        .collect();
    let grain_seed: u64 = rng.random();
    let norm: f64 = octaves.iter().map(|o| o.1).sum();
    let aspect = w as f64 / h as f64;
    let mut out = vec![0.0; w * h];
    out.par_chunks_mut(w).enumerate().for_each(|(i, row)| {
        let mut grain = Xoshiro256PlusPlus::seed_from_u64(
            grain_seed ^ (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15),
        );
        let y = (i as f64 + 0.5) / h as f64;
        for (j, px) in row.iter_mut().enumerate() {
            let x = (j as f64 + 0.5) / w as f64;
            let mut v: f64 = octaves.iter().map(|(l, a)| l.at(x, y) * a).sum::<f64>() / norm;
            for d in &discs {
                let dist = (((x - d.cx) * aspect).powi(2) + (y - d.cy).powi(2)).sqrt();
                let inside = 1.0 / (1.0 + ((dist - d.r) / d.soft).exp());
                v += d.level * inside;
            }
            v += 0.02 * (grain.random::<f64>() - 0.5);
            *px = v.clamp(0.0, 1.0);
        }
    });
    out
}

/// The distortion of a scene: a 3x3 blur mixed with the original, a contrast change and
/// additive noise.
fn distort(src: &[f64], w: usize, h: usize, seed: u64) -> Vec<f64> {
    let mut out = vec![0.0; w * h];
    out.par_chunks_mut(w).enumerate().for_each(|(i, row)| {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(
            seed ^ (i as u64).wrapping_mul(0xbf58_476d_1ce4_e5b9),
        );
        for (j, px) in row.iter_mut().enumerate() {
            let mut acc = 0.0;
            for di in [-1_isize, 0, 1] {
                for dj in [-1_isize, 0, 1] {
                    let ii = (i as isize + di).clamp(0, h as isize - 1) as usize;
                    let jj = (j as isize + dj).clamp(0, w as isize - 1) as usize;
                    acc += src[ii * w + jj];
                }
            }
            let blurred = 0.7 * acc / 9.0 + 0.3 * src[i * w + j];
            let noisy = 0.03 + 0.92 * blurred + 0.025 * (rng.random::<f64>() - 0.5);
            *px = noisy.clamp(0.0, 1.0);
        }
    });
    out
}

fn quantise(v: &[f64], w: usize, h: usize, bpc: u32) -> Result<Plane, PlaneError> {
    let max = ((1u32 << bpc) - 1) as f64;
    let samples = v.iter().map(|&x| (x * max).round() as u16).collect();
    Plane::new(w, h, bpc, samples)
}

/// A natural-looking reference and its distorted version at `bpc` bits.
pub fn natural_pair(w: usize, h: usize, bpc: u32, seed: u64) -> Result<(Plane, Plane), PlaneError> {
    let r = scene(w, h, seed);
    let d = distort(&r, w, h, seed ^ 0x5eed);
    Ok((quantise(&r, w, h, bpc)?, quantise(&d, w, h, bpc)?))
}

/// A checkerboard of `cell`-pixel squares at 8 bits, levels `lo` and `hi`, shifted right by
/// `shift` pixels.
pub fn checkerboard(
    w: usize,
    h: usize,
    cell: usize,
    lo: u16,
    hi: u16,
    shift: usize,
) -> Result<Plane, PlaneError> {
    let samples = (0..h)
        .flat_map(|i| {
            (0..w).map(move |j| {
                if ((j + shift) / cell + i / cell).is_multiple_of(2) {
                    lo
                } else {
                    hi
                }
            })
        })
        .collect();
    Plane::new(w, h, 8, samples)
}
