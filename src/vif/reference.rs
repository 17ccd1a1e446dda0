//! libvmaf's `float_vif` extractor (`compute_vif` and the publishing in `extract`), bit for
//! bit: four scales, each filtered (and from scale 1 on decimated by 2), the statistic per
//! pixel, each row summed in one fp32 accumulator, the rows summed in fp32 top to bottom, the
//! per-scale sums widened to fp64 and combined into the published features.

use super::filter::{filter, moments, Filtered, Image, Source};
use super::frame::Plane;
use super::options::{OptionError, VifOptions};
use super::stat::{pixel_terms, pixel_terms_fp32, row_sum, sum_rows, Moments, StatParams};
use super::taps::{all_taps, legacy_table};
use super::tree::tree_sum;

/// Why a frame pair cannot be scored.
#[derive(Debug, thiserror::Error)]
pub enum VifError {
    /// An option is out of range.
    #[error(transparent)]
    Option(#[from] OptionError),
    /// The two planes differ in size or depth.
    #[error("reference is {0}x{1} at {2} bits, distorted is {3}x{4} at {5} bits")]
    Mismatch(usize, usize, u32, usize, usize, u32),
    /// The row-parallel sum was asked for but the binade algebra (`kernels/binade.cuh`) was
    /// not compiled in.
    #[error("the binade algebra (kernels/binade.cuh) is not part of this build")]
    NoBinade,
    /// A scale is too small for its filter to mirror inside the plane.
    #[error("scale {scale} is {w}x{h}, smaller than its filter's radius {radius} + 1")]
    TooSmall {
        /// The scale.
        scale: usize,
        /// Its width.
        w: usize,
        /// Its height.
        h: usize,
        /// Its filter's radius.
        radius: usize,
    },
}

/// One scale's two sums as the reference leaves them: fp32.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct ScaleSums {
    /// Sum of the numerator terms.
    pub num: f32,
    /// Sum of the denominator terms.
    pub den: f32,
}

/// The per-pixel terms of one scale, row-major.
#[derive(Clone, Debug)]
pub struct Terms {
    /// Width.
    pub w: usize,
    /// Height.
    pub h: usize,
    /// Numerator terms.
    pub num: Vec<f32>,
    /// Denominator terms.
    pub den: Vec<f32>,
}

impl Terms {
    /// The CPU's sums: each row left to right in fp32, then the rows top to bottom in fp32.
    pub fn sums(&self) -> ScaleSums {
        let rows = |v: &[f32]| -> Vec<f32> { v.chunks(self.w).map(row_sum).collect() };
        ScaleSums {
            num: sum_rows(&rows(&self.num)),
            den: sum_rows(&rows(&self.den)),
        }
    }
}

/// The terms of every pixel of a scale from its five filtered moments.
pub fn terms_of(f: &Filtered, p: &StatParams) -> Terms {
    terms_with(f, p, pixel_terms)
}

/// The terms of every pixel of a scale with a given per-pixel statistic.
pub fn terms_with(
    f: &Filtered,
    p: &StatParams,
    stat: fn(Moments, &StatParams) -> (f32, f32),
) -> Terms {
    let n = f.mu1.data.len();
    let mut num = Vec::with_capacity(n);
    let mut den = Vec::with_capacity(n);
    for k in 0..n {
        let m = Moments {
            mu1: f.mu1.data[k],
            mu2: f.mu2.data[k],
            xx: f.xx.data[k],
            yy: f.yy.data[k],
            xy: f.xy.data[k],
        };
        let (a, b) = stat(m, p);
        num.push(a);
        den.push(b);
    }
    Terms {
        w: f.mu1.w,
        h: f.mu1.h,
        num,
        den,
    }
}

/// The fp32 reference and distorted planes of each computed scale (scale 0: the input;
/// scale `s > 0`: scale `s - 1` filtered with scale `s`'s taps and decimated by 2).
/// Entries before the first computed scale are `None`.
pub fn scale_planes(
    r: &Image,
    d: &Image,
    taps: &[Vec<f32>; 4],
    first: usize,
) -> Vec<Option<(Image, Image)>> {
    let mut out: Vec<Option<(Image, Image)>> = vec![None; 4];
    let mut cur = (r.clone(), d.clone());
    for (s, slot) in out.iter_mut().enumerate().skip(first) {
        if s > 0 {
            cur = (
                filter(&taps[s], Source::Plain(&cur.0), 2),
                filter(&taps[s], Source::Plain(&cur.1), 2),
            );
        }
        *slot = Some(cur.clone());
    }
    out
}

/// Checks that every computed scale is large enough for its filter.
pub fn check_sizes(w: usize, h: usize, taps: &[Vec<f32>; 4], first: usize) -> Result<(), VifError> {
    let (mut sw, mut sh) = (w, h);
    for (s, t) in taps.iter().enumerate() {
        if s > 0 {
            sw /= 2;
            sh /= 2;
        }
        let radius = t.len() / 2;
        if s >= first && (sw < radius + 1 || sh < radius + 1) {
            return Err(VifError::TooSmall {
                scale: s,
                w: sw,
                h: sh,
                radius,
            });
        }
    }
    Ok(())
}

/// The eight sums of `compute_vif` (skipped scales stay zero), from fp32 input planes.
pub fn scale_sums(r: &Image, d: &Image, opts: &VifOptions) -> Result<[ScaleSums; 4], VifError> {
    opts.validate()?;
    let taps = all_taps(opts.kernelscale_f32());
    let first = opts.first_scale();
    check_sizes(r.w, r.h, &taps, first)?;
    let params = StatParams::new(opts.enhn_gain_limit, opts.sigma_nsq);
    let mut sums = [ScaleSums::default(); 4];
    for (s, planes) in scale_planes(r, d, &taps, first).into_iter().enumerate() {
        if let Some((a, b)) = planes {
            sums[s] = terms_of(&moments(&taps[s], &a, &b), &params).sums();
        }
    }
    Ok(sums)
}

/// The features `float_vif` publishes for one frame, in fp64 as the feature collector
/// stores them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Features {
    /// `VMAF_feature_vif_scale{0..3}_score`.
    pub scale_score: [f64; 4],
    /// `vif` (debug).
    pub vif: f64,
    /// `vif_num` (debug).
    pub vif_num: f64,
    /// `vif_den` (debug).
    pub vif_den: f64,
    /// `vif_num_scale{0..3}` (debug).
    pub num_scale: [f64; 4],
    /// `vif_den_scale{0..3}` (debug).
    pub den_scale: [f64; 4],
}

/// Names of the published features, in the order of [`Features::values`].
pub const FEATURE_NAMES: [&str; 15] = [
    "VMAF_feature_vif_scale0_score",
    "VMAF_feature_vif_scale1_score",
    "VMAF_feature_vif_scale2_score",
    "VMAF_feature_vif_scale3_score",
    "vif",
    "vif_num",
    "vif_den",
    "vif_num_scale0",
    "vif_den_scale0",
    "vif_num_scale1",
    "vif_den_scale1",
    "vif_num_scale2",
    "vif_den_scale2",
    "vif_num_scale3",
    "vif_den_scale3",
];

impl Features {
    /// The values in the order of [`FEATURE_NAMES`]; the last eleven are published only in
    /// debug mode.
    pub fn values(&self) -> [f64; 15] {
        let mut v = [0.0; 15];
        v[..4].copy_from_slice(&self.scale_score);
        v[4] = self.vif;
        v[5] = self.vif_num;
        v[6] = self.vif_den;
        for s in 0..4 {
            v[7 + 2 * s] = self.num_scale[s];
            v[8 + 2 * s] = self.den_scale[s];
        }
        v
    }

    /// The names and values published under `opts` (four, or fifteen in debug mode).
    pub fn published(&self, opts: &VifOptions) -> Vec<(&'static str, f64)> {
        let n = if opts.debug { 15 } else { 4 };
        FEATURE_NAMES
            .iter()
            .copied()
            .zip(self.values())
            .take(n)
            .collect()
    }
}

fn max_c(a: f64, b: f64) -> f64 {
    if a > b {
        a
    } else {
        b
    }
}

/// `extract`'s publishing from per-scale sums given in fp64 (the CPU's fp32 sums widened):
/// the ratios, the floors, the totals added scale by scale in fp64, and the skip-scale-0
/// placeholders (0 and -1).
pub fn publish(num: [f64; 4], den: [f64; 4], opts: &VifOptions) -> Features {
    let first = opts.first_scale();
    let mut score_num = 0.0_f64;
    let mut score_den = 0.0_f64;
    for s in first..4 {
        score_num += num[s];
        score_den += den[s];
    }
    let vif = if score_den == 0.0 {
        1.0
    } else {
        score_num / score_den
    };
    let ratio = |s: usize| num[s] / den[s];
    let scale0 = if opts.skip_scale0 { 0.0 } else { ratio(0) };
    let scale_score = [
        scale0,
        max_c(ratio(1), opts.min_val[0]),
        max_c(ratio(2), opts.min_val[1]),
        max_c(ratio(3), opts.min_val[2]),
    ];
    let (n0, d0) = if opts.skip_scale0 {
        (0.0, -1.0)
    } else {
        (num[0], den[0])
    };
    Features {
        scale_score,
        vif,
        vif_num: score_num,
        vif_den: score_den,
        num_scale: [n0, num[1], num[2], num[3]],
        den_scale: [d0, den[1], den[2], den[3]],
    }
}

/// The published features from fp32 sums (the CPU's types).
pub fn publish_f32(sums: &[ScaleSums; 4], opts: &VifOptions) -> Features {
    let num = sums.map(|s| f64::from(s.num));
    let den = sums.map(|s| f64::from(s.den));
    publish(num, den, opts)
}

/// Scores one frame pair: libvmaf's `float_vif` on the CPU.
pub fn vif(r: &Plane, d: &Plane, opts: &VifOptions) -> Result<Features, VifError> {
    if (r.w, r.h, r.bpc) != (d.w, d.h, d.bpc) {
        return Err(VifError::Mismatch(r.w, r.h, r.bpc, d.w, d.h, d.bpc));
    }
    let sums = scale_sums(&r.to_image(), &d.to_image(), opts)?;
    Ok(publish_f32(&sums, opts))
}

/// Differences from the CPU that the host can put back (the device `log2f` cannot be
/// emulated here): replay only.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HostCauses {
    /// libvmaf's former decimal tap table (kernel scale 1 only).
    pub table: bool,
    /// The statistic in fp32.
    pub stat_f32: bool,
    /// The former GPU reduction (16x16 fp32 trees, blocks in fp64).
    pub tree: bool,
}

/// Per-scale fp64 sums (numerators, denominators) with `causes` put back.
pub fn replay_sums(
    r: &Image,
    d: &Image,
    opts: &VifOptions,
    causes: HostCauses,
) -> Result<([f64; 4], [f64; 4]), VifError> {
    opts.validate()?;
    let taps = if causes.table {
        if opts.kernelscale != 1.0 {
            return Err(VifError::Option(OptionError {
                name: "vif_kernelscale",
                value: opts.kernelscale,
                reason: "the decimal tap table exists for 1.0 only",
            }));
        }
        legacy_table()
    } else {
        all_taps(opts.kernelscale_f32())
    };
    let first = opts.first_scale();
    check_sizes(r.w, r.h, &taps, first)?;
    let params = StatParams::new(opts.enhn_gain_limit, opts.sigma_nsq);
    let stat = if causes.stat_f32 {
        pixel_terms_fp32
    } else {
        pixel_terms
    };
    let (mut num, mut den) = ([0.0; 4], [0.0; 4]);
    for (s, planes) in scale_planes(r, d, &taps, first).into_iter().enumerate() {
        if let Some((a, b)) = planes {
            let t = terms_with(&moments(&taps[s], &a, &b), &params, stat);
            if causes.tree {
                num[s] = tree_sum(&t.num, t.w, t.h);
                den[s] = tree_sum(&t.den, t.w, t.h);
            } else {
                let sums = t.sums();
                num[s] = f64::from(sums.num);
                den[s] = f64::from(sums.den);
            }
        }
    }
    Ok((num, den))
}
