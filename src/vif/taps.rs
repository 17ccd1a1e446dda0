//! The Gaussian taps of the four scales, derived at run time as libvmaf's `vif_get_filter`
//! derives them: a width from the kernel scale, then per tap an fp64 `exp` of an fp64
//! argument rounded to fp32, an fp32 quotient by the fp32 normaliser, an fp32 sum of the
//! taps in order and an fp32 division of every tap by that sum.
//!
//! The decimal table libvmaf used before it computed its taps (`vif_filter1d_table_s`,
//! kernel scale 1.0) is kept as [`legacy_table`] for the replay experiment only.

use std::f64::consts::PI;

/// The largest filter width any accepted kernel scale produces (scale 0 at 360/97: 65).
pub const MAX_TAPS: usize = 65;

/// The kernel scales libvmaf accepts (`valid_kernelscales`), each computed as the reference
/// computes it in fp32.
pub fn valid_kernelscales() -> [f32; 21] {
    [
        1.0_f64 as f32,
        1.0_f32 / 2.0_f32,
        3.0_f32 / 2.0_f32,
        2.0_f32,
        2.0_f32 / 3.0_f32,
        24.0_f32 / 10.0_f32,
        360.0_f32 / 97.0_f32,
        4.0_f32 / 3.0_f32,
        3.5_f32 / 3.0_f32,
        3.75_f32 / 3.0_f32,
        4.25_f32 / 3.0_f32,
        5.0_f32 / 3.0_f32,
        3.0_f32,
        1.0_f32 / 2.25_f32,
        1.4746_f32,
        1.54_f32,
        1.6_f32,
        1.06667_f32,
        0.711111_f32,
        0.740740_f32,
        1.111111_f32,
    ]
}

/// True when `kernelscale` (rounded to fp32) is within 1e-3 of an accepted scale, the
/// reference's `vif_validate_kernelscale` test (an fp32 difference compared in fp64).
pub fn kernelscale_is_valid(kernelscale: f32) -> bool {
    valid_kernelscales()
        .iter()
        .any(|&v| f64::from((kernelscale - v).abs()) < 1e-3)
}

/// The filter width of `scale` (0..=3): `(2^(4 - scale) + 1) * kernelscale` in fp32, rounded
/// up to an odd integer, at least 3.
pub fn filter_width(scale: usize, kernelscale: f32) -> usize {
    let n = (1_i32 << (4 - scale)) + 1;
    let f = n as f32 * kernelscale;
    let ceiling = f64::from(f).ceil() as i32;
    let odd = if ceiling % 2 == 0 {
        ceiling + 1
    } else {
        ceiling
    };
    odd.max(3) as usize
}

/// One unnormalised tap: `exp(-0.5 * x / sd * x / sd)` in fp64 rounded to fp32, divided in
/// fp32 by `1 / (sd * sqrt(2 pi))` computed in fp64 and rounded to fp32.
fn gaussian_pdf(x: f32, stdev: f32) -> f32 {
    let d = f64::from(x - 0.0_f32);
    let sd = f64::from(stdev);
    let arg = -0.5 * d / sd * d / sd;
    let num = arg.exp() as f32;
    let den = (1.0 / (sd * (2.0 * PI).sqrt())) as f32;
    num / den
}

/// The taps of `scale` for `kernelscale`, libvmaf's `vif_get_filter` bit for bit.
pub fn taps(scale: usize, kernelscale: f32) -> Vec<f32> {
    let width = filter_width(scale, kernelscale);
    let stdev = width as f32 / 5.0_f32;
    let half = (width as i32 - 1) / 2;
    let mut out: Vec<f32> = (0..width as i32)
        .map(|i| gaussian_pdf((i - half) as f32, stdev))
        .collect();
    let mut sum = 0.0_f32;
    for &t in &out {
        sum += t;
    }
    for t in &mut out {
        *t /= sum;
    }
    out
}

/// The taps of all four scales.
pub fn all_taps(kernelscale: f32) -> [Vec<f32>; 4] {
    [
        taps(0, kernelscale),
        taps(1, kernelscale),
        taps(2, kernelscale),
        taps(3, kernelscale),
    ]
}

/// libvmaf's former decimal tap table for kernel scale 1.0 (`vif_filter1d_table_s[0]`, the
/// active `#if 1` branch before the taps were computed), each double literal rounded to fp32.
pub fn legacy_table() -> [Vec<f32>; 4] {
    let s0: [f64; 17] = [
        0.00745626912,
        0.0142655009,
        0.0250313189,
        0.0402820669,
        0.0594526194,
        0.0804751068,
        0.0999041125,
        0.113746084,
        0.118773937,
        0.113746084,
        0.0999041125,
        0.0804751068,
        0.0594526194,
        0.0402820669,
        0.0250313189,
        0.0142655009,
        0.00745626912,
    ];
    let s1: [f64; 9] = [
        0.0189780835,
        0.0558981746,
        0.120920904,
        0.192116052,
        0.224173605,
        0.192116052,
        0.120920904,
        0.0558981746,
        0.0189780835,
    ];
    let s2: [f64; 5] = [
        0.054488685,
        0.244201347,
        0.402619958,
        0.244201347,
        0.054488685,
    ];
    let s3: [f64; 3] = [0.166378498, 0.667243004, 0.166378498];
    let f = |v: &[f64]| v.iter().map(|&x| x as f32).collect::<Vec<f32>>();
    [f(&s0), f(&s1), f(&s2), f(&s3)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_of_the_default_scale() {
        let w: Vec<usize> = (0..4).map(|s| filter_width(s, 1.0)).collect();
        assert_eq!(w, vec![17, 9, 5, 3]);
    }

    #[test]
    fn widest_filter_fits_max_taps() {
        for ks in valid_kernelscales() {
            assert!(filter_width(0, ks) <= MAX_TAPS, "kernelscale {ks}");
        }
    }

    #[test]
    fn taps_are_symmetric_and_sum_near_one() {
        for ks in valid_kernelscales() {
            for s in 0..4 {
                let t = taps(s, ks);
                let n = t.len();
                for i in 0..n {
                    assert_eq!(
                        t[i].to_bits(),
                        t[n - 1 - i].to_bits(),
                        "ks {ks} scale {s} tap {i}"
                    );
                }
                let sum: f64 = t.iter().map(|&x| f64::from(x)).sum();
                assert!((sum - 1.0).abs() < 1e-6, "ks {ks} scale {s} sum {sum}");
            }
        }
    }

    /// ADR-1412 counts 26 of the 34 taps of kernel scale 1 differing between the decimal
    /// table and the computed taps, by one to three units in the last place, the centre tap of
    /// scale 0 by 14: an independent check of both the table and the derivation.
    #[test]
    fn legacy_table_differs_from_computed_taps_as_adr_1412_counts() {
        let legacy = legacy_table();
        let computed = all_taps(1.0);
        let mut differ = 0;
        let mut total = 0;
        for s in 0..4 {
            assert_eq!(legacy[s].len(), computed[s].len(), "scale {s}");
            for (k, (a, b)) in legacy[s].iter().zip(&computed[s]).enumerate() {
                let ulps = a.to_bits().abs_diff(b.to_bits());
                total += 1;
                differ += usize::from(ulps > 0);
                let centre_of_scale0 = s == 0 && k == 8;
                if centre_of_scale0 {
                    assert_eq!(ulps, 14, "centre tap of scale 0");
                } else {
                    assert!(ulps <= 3, "scale {s} tap {k}: {ulps} ulps");
                }
            }
        }
        assert_eq!((differ, total), (26, 34));
    }
}
