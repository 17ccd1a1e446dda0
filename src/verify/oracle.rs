//! Oracles for one addition: the format's own add, and MPFR at the format's precision.
//!
//! The MPFR oracle rounds the exact sum once to the format's precision (nearest, ties to
//! even), then emulates the subnormal range with `mpfr_subnormalize` (which uses the first
//! rounding's direction, so nothing is rounded twice) and maps magnitudes past the largest
//! finite value to infinity. It shares no code with the format's add.

use std::cmp::Ordering;

use rug::float::Round;
use rug::Float;

use crate::format::{round_f64, Format, Layout};

/// The format's own `a + b` on bit patterns.
pub fn native_add<F: Format>(a: u64, b: u64) -> u64 {
    F::to_bits(F::add(F::from_bits(a), F::from_bits(b)))
}

/// `a + b` through MPFR at `F`'s precision and exponent range, as bits of `F`.
///
/// NaN results are returned as the format's default NaN (compare with
/// [`crate::format::same_result`]).
pub fn mpfr_add<F: Format>(a: u64, b: u64) -> u64 {
    let (x, y) = (F::to_f64(F::from_bits(a)), F::to_f64(F::from_bits(b)));
    let fx = Float::with_val(53, x);
    let fy = Float::with_val(53, y);
    let (mut r, dir) = Float::with_val_round(F::PRECISION, &fx + &fy, Round::Nearest);
    // Smallest normal 2^(1 - BIAS) has MPFR exponent 2 - BIAS (MPFR significands are in [1/2, 1)).
    r.subnormalize_round(2 - F::BIAS, dir, Round::Nearest);
    from_mpfr::<F>(&r)
}

/// Bits of `F` for an MPFR value already rounded to `F`'s precision and subnormal grid.
fn from_mpfr<F: Format>(r: &Float) -> u64 {
    if r.is_nan() {
        return round_f64::<F>(f64::NAN);
    }
    let max_finite = F::to_f64(F::from_bits(
        (((F::MAX_NORMAL_FIELD as u64) << F::FRAC_BITS) | F::FRAC_MASK) & F::ALL,
    ));
    if r.is_infinite() || r.cmp_abs(&Float::with_val(64, max_finite)) == Some(Ordering::Greater) {
        let inf = F::to_f64(F::from_bits((F::EXP_ALL_ONES) << F::FRAC_BITS));
        return round_f64::<F>(if r.is_sign_negative() { -inf } else { inf });
    }
    // The value is representable in F and therefore in f64: the conversion is exact.
    round_f64::<F>(r.to_f64())
}

/// The loop `s = 0; for x in terms { s = s + x }` with every add done by MPFR.
pub fn mpfr_loop<F: Format>(terms: &[F::Value]) -> u64 {
    terms
        .iter()
        .fold(0u64, |s, &x| mpfr_add::<F>(s, F::to_bits(x)))
}

/// True when the exact (unrounded) value of `a + b` is at most `limit` (all bits of `F`).
pub fn exact_sum_at_most<F: Format>(a: u64, b: u64, limit: u64) -> bool {
    let prec = 2 * (F::BIAS as u32 + F::FRAC_BITS + 2) + 8; // enough for any exact sum of two finite values
    let fa = Float::with_val(prec, F::to_f64(F::from_bits(a)));
    let fb = Float::with_val(prec, F::to_f64(F::from_bits(b)));
    let sum = Float::with_val(prec, &fa + &fb);
    let lim = Float::with_val(prec, F::to_f64(F::from_bits(limit)));
    sum <= lim
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::{same_result, E4M3, F32, F64};

    #[test]
    fn mpfr_agrees_with_native_on_edges() {
        let xs = [
            0.0f64,
            -0.0,
            1.0,
            1e-310,
            5e-324,
            f64::MAX,
            -f64::MAX,
            f64::INFINITY,
            f64::NAN,
            2f64.powi(-53),
        ];
        for &a in &xs {
            for &b in &xs {
                let (x, y) = (a.to_bits(), b.to_bits());
                assert!(
                    same_result::<F64>(mpfr_add::<F64>(x, y), native_add::<F64>(x, y)),
                    "{a:e} + {b:e}"
                );
                let (x, y) = ((a as f32).to_bits() as u64, (b as f32).to_bits() as u64);
                assert!(
                    same_result::<F32>(mpfr_add::<F32>(x, y), native_add::<F32>(x, y)),
                    "f32 {a:e} + {b:e}"
                );
            }
        }
    }

    #[test]
    fn tiny_exhaustive_pairs_agree() {
        for a in 0..256u64 {
            for b in 0..256u64 {
                assert!(
                    same_result::<E4M3>(mpfr_add::<E4M3>(a, b), native_add::<E4M3>(a, b)),
                    "e4m3 {a:#x} + {b:#x}"
                );
            }
        }
    }
}
