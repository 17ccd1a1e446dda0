//! `log2f_approx`: the logarithm libvmaf's float VIF uses in place of `log2f`.
//!
//! libvmaf defines `VIF_OPT_FAST_LOG2`, so its statistic never calls libm: the logarithm is
//! the unbiased exponent of `x` plus a nine-coefficient polynomial in the mantissa, evaluated
//! by Horner's rule in fp32 (one rounded multiply and one rounded add per coefficient). Every
//! operation below is an explicit fp32 operation in that order; Rust never fuses them.

/// The polynomial's coefficients, highest degree first, as fp32: each is the double literal
/// of the reference rounded to fp32 (the reference initialises a `float` array from double
/// literals, so the rounding is double literal to float, not decimal to float).
pub const LOG2_POLY: [f32; 9] = [
    -0.012671635276421_f64 as f32,
    0.064841182402670_f64 as f32,
    -0.157048836463065_f64 as f32,
    0.257167726303123_f64 as f32,
    -0.353800560300520_f64 as f32,
    0.480131410397451_f64 as f32,
    -0.721314327952201_f64 as f32,
    1.442694803896991_f64 as f32,
    0.0,
];

/// Horner's rule in fp32: `v = 0; for c in poly { v = v * x + c }`, each step rounded twice.
pub fn horner(poly: &[f32], x: f32) -> f32 {
    let mut v = 0.0_f32;
    for &c in poly {
        let p = v * x;
        v = p + c;
    }
    v
}

/// libvmaf's `log2f_approx`, bit for bit: `-inf` for zero (either sign), the fp32 quiet NaN
/// `0x7fc00000` for negative input, else `(exponent field - 127) + horner(mantissa in [1, 2) - 1)`.
/// NaN, infinite and subnormal inputs go through the same bit manipulation as in the reference.
pub fn log2f_approx(x: f32) -> f32 {
    if x == 0.0 {
        return f32::NEG_INFINITY;
    }
    if x < 0.0 {
        return f32::from_bits(0x7fc0_0000);
    }
    let bits = x.to_bits();
    let exponent = (bits & 0x7f80_0000) >> 23;
    let remain = f32::from_bits((bits & 0x007f_ffff) | 0x3f80_0000);
    let log_base = (exponent as i32 - 127) as f32;
    let log_remain = horner(&LOG2_POLY, remain - 1.0);
    log_base + log_remain
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_powers_of_two_have_zero_remainder() {
        for e in -126..=127 {
            let x = 2.0_f32.powi(e);
            assert_eq!(log2f_approx(x).to_bits(), (e as f32).to_bits(), "2^{e}");
        }
    }

    #[test]
    fn special_inputs() {
        assert_eq!(log2f_approx(0.0).to_bits(), f32::NEG_INFINITY.to_bits());
        assert_eq!(log2f_approx(-0.0).to_bits(), f32::NEG_INFINITY.to_bits());
        assert_eq!(log2f_approx(-1.0).to_bits(), 0x7fc0_0000);
    }
}
