//! The per-pixel VIF statistic and the CPU's order of summing it (libvmaf's
//! `vif_statistic_s`, "matching_matlab" arrangement).
//!
//! Types follow the reference exactly: the filtered moments, `g`, `sv_sq` and the terms are
//! fp32; `vif_sigma_nsq` is an fp64 parameter, so `sv_sq + sigma_nsq`, both quotients and the
//! `1 + ...` around them are fp64 and are rounded to fp32 once, where `log2f_approx` takes its
//! argument. `MAX`/`MIN` are the reference's ternaries (`a > b ? a : b`, `a < b ? a : b`), so
//! a NaN picks the second operand as it does there.

use super::log2::log2f_approx;

/// `eps` of the reference: `1.0e-10f`.
pub const EPS: f32 = 1.0e-10_f32;

/// The scalar parameters of the statistic, derived from the options as the reference does.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StatParams {
    /// `(float) vif_enhn_gain_limit`.
    pub gain_limit: f32,
    /// `vif_sigma_nsq`, kept in fp64.
    pub sigma_nsq: f64,
    /// `powf(sigma_nsq, 2) / (255 * 255)`: the fp32 square of the fp32 `sigma_nsq`, divided in
    /// fp64 by 65025 and rounded to fp32.
    pub sigma_max_inv: f32,
}

impl StatParams {
    /// The parameters for a gain limit and a noise variance.
    pub fn new(gain_limit: f64, sigma_nsq: f64) -> StatParams {
        let s = sigma_nsq as f32;
        let sq = s * s;
        let sigma_max_inv = (f64::from(sq) / (255.0 * 255.0)) as f32;
        StatParams {
            gain_limit: gain_limit as f32,
            sigma_nsq,
            sigma_max_inv,
        }
    }
}

fn max_c(a: f32, b: f32) -> f32 {
    if a > b {
        a
    } else {
        b
    }
}

fn min_c(a: f32, b: f32) -> f32 {
    if a < b {
        a
    } else {
        b
    }
}

/// The filtered moments at one pixel: the two means and the three second moments.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Moments {
    /// Filtered reference.
    pub mu1: f32,
    /// Filtered distorted.
    pub mu2: f32,
    /// Filtered square of the reference.
    pub xx: f32,
    /// Filtered square of the distorted.
    pub yy: f32,
    /// Filtered product of the two.
    pub xy: f32,
}

/// One pixel's `(num, den)` terms, `vif_statistic_s`'s loop body bit for bit.
pub fn pixel_terms(m: Moments, p: &StatParams) -> (f32, f32) {
    pixel_terms_typed(m, p, false)
}

/// The statistic with `vif_sigma_nsq` rounded to fp32 and both quotients and the comparison
/// in fp32: the type difference ADR-1412 found (the header's `FVIF_STAT_F32`). Replay only.
pub fn pixel_terms_fp32(m: Moments, p: &StatParams) -> (f32, f32) {
    pixel_terms_typed(m, p, true)
}

fn pixel_terms_typed(m: Moments, p: &StatParams, fp32: bool) -> (f32, f32) {
    let mu1_sq = m.mu1 * m.mu1;
    let mu2_sq = m.mu2 * m.mu2;
    let mu1_mu2 = m.mu1 * m.mu2;
    let mut sigma1_sq = m.xx - mu1_sq;
    let mut sigma2_sq = m.yy - mu2_sq;
    let sigma12 = m.xy - mu1_mu2;

    sigma1_sq = max_c(sigma1_sq, 0.0);
    sigma2_sq = max_c(sigma2_sq, 0.0);

    let mut g = sigma12 / (sigma1_sq + EPS);
    let mut sv_sq = sigma2_sq - g * sigma12;

    if sigma1_sq < EPS {
        g = 0.0;
        sv_sq = sigma2_sq;
        sigma1_sq = 0.0;
    }
    if sigma2_sq < EPS {
        g = 0.0;
        sv_sq = 0.0;
    }
    if g < 0.0 {
        sv_sq = sigma2_sq;
        g = 0.0;
    }
    sv_sq = max_c(sv_sq, EPS);
    g = min_c(g, p.gain_limit);

    let gain = g * g * sigma1_sq;
    let (num_arg, den_arg, below) = if fp32 {
        let s = p.sigma_nsq as f32;
        (
            1.0_f32 + gain / (sv_sq + s),
            1.0_f32 + sigma1_sq / s,
            sigma1_sq < s,
        )
    } else {
        (
            (1.0_f64 + f64::from(gain) / (f64::from(sv_sq) + p.sigma_nsq)) as f32,
            (1.0_f64 + f64::from(sigma1_sq) / p.sigma_nsq) as f32,
            f64::from(sigma1_sq) < p.sigma_nsq,
        )
    };
    let mut num = log2f_approx(num_arg);
    let mut den = log2f_approx(den_arg);

    if sigma12 < 0.0 {
        num = 0.0;
    }
    if below {
        num = 1.0 - sigma2_sq * p.sigma_max_inv;
        den = 1.0;
    }
    (num, den)
}

/// A row's terms added left to right into one fp32 accumulator starting at `+0`.
pub fn row_sum(terms: &[f32]) -> f32 {
    let mut acc = 0.0_f32;
    for &t in terms {
        acc += t;
    }
    acc
}

/// Row sums added top to bottom into one fp32 accumulator starting at `+0`.
pub fn sum_rows(rows: &[f32]) -> f32 {
    row_sum(rows)
}
