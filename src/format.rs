//! IEEE 754 binary formats, described once and shared by f64, f32 and tiny test formats.
//!
//! A format has one sign bit, `EXP_BITS` exponent bits and `FRAC_BITS` stored fraction bits;
//! its precision is `FRAC_BITS + 1`. Every value is handled as its bit pattern in a `u64`
//! (the low `EXP_BITS + FRAC_BITS + 1` bits), so the algebra is written once for all formats.

use std::fmt::Debug;

/// An IEEE 754 binary format with round-to-nearest-even addition.
///
/// Implementations guarantee that `to_bits(from_bits(b)) == b` for every pattern `b` of the
/// format's width, and that `add` is the format's correctly rounded (ties-to-even) sum,
/// subnormals and overflow to infinity included.
pub trait Format: Copy + Send + Sync + Debug + Default + 'static {
    /// The machine type that carries a value of this format.
    type Value: Copy + Send + Sync + Debug + PartialEq + 'static;
    /// Short name used in reports and on the command line (`f64`, `f32`, `e4m3`, ...).
    const NAME: &'static str;
    /// Width of the exponent field.
    const EXP_BITS: u32;
    /// Width of the stored fraction field (precision minus one).
    const FRAC_BITS: u32;

    /// The bit pattern of `v`.
    fn to_bits(v: Self::Value) -> u64;
    /// The value with bit pattern `b` (only the format's low bits are read).
    fn from_bits(b: u64) -> Self::Value;
    /// The format's own addition, rounded to nearest, ties to even.
    fn add(a: Self::Value, b: Self::Value) -> Self::Value;
    /// `x` rounded to this format (nearest, ties to even).
    fn from_f64(x: f64) -> Self::Value;
    /// The exact value of `v` as an f64 (every format here is a subset of f64).
    fn to_f64(v: Self::Value) -> f64;
}

/// Derived constants of a format, written out beside their definition.
pub trait Layout: Format {
    /// Precision in bits: the stored fraction plus the implicit leading bit.
    const PRECISION: u32 = Self::FRAC_BITS + 1;
    /// Exponent bias: `2^(EXP_BITS-1) - 1`.
    const BIAS: i32 = (1 << (Self::EXP_BITS - 1)) - 1;
    /// The all-ones exponent field (infinity and NaN).
    const EXP_ALL_ONES: u64 = (1 << Self::EXP_BITS) - 1;
    /// Mask of the fraction field.
    const FRAC_MASK: u64 = (1 << Self::FRAC_BITS) - 1;
    /// The implicit leading bit of a normal significand: `2^FRAC_BITS`.
    const HIDDEN: u64 = 1 << Self::FRAC_BITS;
    /// The sign bit.
    const SIGN: u64 = 1 << (Self::EXP_BITS + Self::FRAC_BITS);
    /// Mask of every bit of the format.
    const ALL: u64 = u64::MAX >> (63 - Self::EXP_BITS - Self::FRAC_BITS);
    /// Largest biased exponent field of a finite (normal) value.
    const MAX_NORMAL_FIELD: u32 = (1 << Self::EXP_BITS) - 2;
}

impl<F: Format> Layout for F {}

/// The biased exponent field of `bits`.
pub fn exp_field<F: Format>(bits: u64) -> u32 {
    ((bits >> F::FRAC_BITS) & F::EXP_ALL_ONES) as u32
}

/// The fraction field of `bits`.
pub fn frac_field<F: Format>(bits: u64) -> u64 {
    bits & F::FRAC_MASK
}

/// True when the sign bit of `bits` is set (negative numbers, `-0`, negative NaN).
pub fn is_negative<F: Format>(bits: u64) -> bool {
    bits & F::SIGN != 0
}

/// True for zeros, subnormals and normals (not infinity, not NaN).
pub fn is_finite<F: Format>(bits: u64) -> bool {
    exp_field::<F>(bits) as u64 != F::EXP_ALL_ONES
}

/// True when `bits` is a NaN.
pub fn is_nan<F: Format>(bits: u64) -> bool {
    !is_finite::<F>(bits) && frac_field::<F>(bits) != 0
}

/// True when `bits` is a positive normal number (the only starts the algebra applies to).
pub fn is_positive_normal<F: Format>(bits: u64) -> bool {
    let e = exp_field::<F>(bits);
    !is_negative::<F>(bits) && e != 0 && e <= F::MAX_NORMAL_FIELD
}

/// The integer significand and effective biased exponent of a finite `bits`, sign ignored:
/// `|value| = m * 2^(e - BIAS - FRAC_BITS)`. Normals carry the hidden bit; subnormals have
/// `e = 1` and no hidden bit; zeros give `m = 0`.
pub fn significand<F: Format>(bits: u64) -> (u64, u32) {
    let e = exp_field::<F>(bits);
    let f = frac_field::<F>(bits);
    if e == 0 {
        (f, 1)
    } else {
        (f | F::HIDDEN, e)
    }
}

/// Bit patterns compared the way the loop is checked: equal bits, or both NaN.
pub fn same_result<F: Format>(a: u64, b: u64) -> bool {
    (a & F::ALL) == (b & F::ALL) || (is_nan::<F>(a) && is_nan::<F>(b))
}

/// Rounds a finite or special `x` to the format `F` (nearest, ties to even), subnormals and
/// overflow included. Exact for any `x` whose significand is at most 53 bits (all f64).
pub fn round_f64<F: Format>(x: f64) -> u64 {
    let sign = if x.is_sign_negative() { F::SIGN } else { 0 };
    if x.is_nan() {
        return sign | (F::EXP_ALL_ONES << F::FRAC_BITS) | (1 << (F::FRAC_BITS - 1));
    }
    let inf = sign | (F::EXP_ALL_ONES << F::FRAC_BITS);
    if x.is_infinite() {
        return inf;
    }
    if x == 0.0 {
        return sign;
    }
    // |x| = m * 2^k with m < 2^53 an integer (exact decomposition of the f64).
    let b = x.abs().to_bits();
    let (m, k) = {
        let e = ((b >> 52) & 0x7ff) as i32;
        let f = b & ((1 << 52) - 1);
        if e == 0 {
            (f, -1074)
        } else {
            (f | (1 << 52), e - 1075)
        }
    };
    // Target: significand of F at the quantum of the binade of |x|, clamped below at the
    // subnormal quantum 2^(1 - BIAS - FRAC).
    let top = 63 - m.leading_zeros() as i32 + k; // floor(log2 |x|)
    let min_q = 1 - F::BIAS - F::FRAC_BITS as i32;
    let q = (top - F::FRAC_BITS as i32).max(min_q); // exponent of one unit in the last place
    let shift = q - k;
    let r = if shift <= 0 {
        m << (-shift) as u32
    } else {
        round_shift_right(m, shift as u32)
    };
    // r * 2^q, with r possibly 2^(FRAC+1) after rounding up (renormalise).
    let (r, q) = if r >> (F::FRAC_BITS + 1) != 0 {
        (r >> 1, q + 1)
    } else {
        (r, q)
    };
    if r < F::HIDDEN {
        return sign | r; // subnormal (or rounded to zero)
    }
    let field = q + F::BIAS + F::FRAC_BITS as i32;
    if field as u64 >= F::EXP_ALL_ONES {
        return inf;
    }
    sign | ((field as u64) << F::FRAC_BITS) | (r & F::FRAC_MASK)
}

/// `m >> shift` rounded to nearest, ties to even (`shift >= 1`).
pub fn round_shift_right(m: u64, shift: u32) -> u64 {
    if shift >= 64 {
        return 0; // m < 2^63 in every use, so m / 2^shift < 1/2
    }
    let q = m >> shift;
    let rem = m & ((1u64 << shift) - 1);
    let half = 1u64 << (shift - 1);
    if rem > half || (rem == half && q & 1 == 1) {
        q + 1
    } else {
        q
    }
}

/// Builds the value `m * 2^k` (exact when representable; otherwise rounded) as bits of `F`.
pub fn scaled<F: Format>(m: u64, k: i32) -> u64 {
    round_f64::<F>(m as f64 * 2f64.powi(k))
}

/// IEEE binary64.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct F64;

impl Format for F64 {
    type Value = f64;
    const NAME: &'static str = "f64";
    const EXP_BITS: u32 = 11;
    const FRAC_BITS: u32 = 52;
    fn to_bits(v: f64) -> u64 {
        v.to_bits()
    }
    fn from_bits(b: u64) -> f64 {
        f64::from_bits(b)
    }
    fn add(a: f64, b: f64) -> f64 {
        a + b
    }
    fn from_f64(x: f64) -> f64 {
        x
    }
    fn to_f64(v: f64) -> f64 {
        v
    }
}

/// IEEE binary32.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct F32;

impl Format for F32 {
    type Value = f32;
    const NAME: &'static str = "f32";
    const EXP_BITS: u32 = 8;
    const FRAC_BITS: u32 = 23;
    fn to_bits(v: f32) -> u64 {
        v.to_bits() as u64
    }
    fn from_bits(b: u64) -> f32 {
        f32::from_bits(b as u32)
    }
    fn add(a: f32, b: f32) -> f32 {
        a + b
    }
    fn from_f64(x: f64) -> f32 {
        x as f32
    }
    fn to_f64(v: f32) -> f64 {
        v as f64
    }
}

/// A value of a tiny format: its bit pattern.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TinyBits(pub u16);

/// A tiny IEEE-style format with `E` exponent bits and `M` fraction bits (`1 + E + M <= 16`),
/// small enough that every pair of values can be checked.
///
/// Its addition is the f64 sum of the two values followed by one rounding to the format, and
/// that is correctly rounded for every shape used here. For `E <= 5`, `M <= 10` the f64 sum
/// is exact: both operands are integer multiples of the smallest subnormal `2^(2 - 2^(E-1) -
/// M)` below `2^(2^(E-1))`, so the sum is an integer below `2^(2^(E-1) + 2^(E-1) + M - 1)`,
/// under `2^53`. For [`BF16`] (`E = 8`) it is not exact, but rounding the exact sum to 53 bits
/// and then to `p = 8` bits gives the correctly rounded sum, because `53 >= 2p + 2` (double
/// rounding is innocuous for addition at that margin; Figueroa, 1995), and every bf16 sum,
/// subnormals included, lies in f64's normal range, where the first rounding is to 53 bits.
/// `tests/half_formats.rs` checks the add against MPFR.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Tiny<const E: u32, const M: u32>;

/// 8 bits: 4 exponent bits, 4 significand bits (3 stored).
pub type E4M3 = Tiny<4, 3>;
/// 8 bits: 5 exponent bits, 3 significand bits (2 stored).
pub type E5M2 = Tiny<5, 2>;
/// 12 bits: 5 exponent bits, 7 significand bits (6 stored).
pub type E5M6 = Tiny<5, 6>;
/// IEEE binary16 (`f16`): 5 exponent bits, 11 significand bits (10 stored).
pub type F16 = Tiny<5, 10>;
/// bfloat16 (`bf16`): 8 exponent bits, 8 significand bits (7 stored), the top half of an
/// `f32`.
pub type BF16 = Tiny<8, 7>;

impl<const E: u32, const M: u32> Format for Tiny<E, M> {
    type Value = TinyBits;
    const NAME: &'static str = tiny_name(E, M);
    const EXP_BITS: u32 = E;
    const FRAC_BITS: u32 = M;
    fn to_bits(v: TinyBits) -> u64 {
        v.0 as u64
    }
    fn from_bits(b: u64) -> TinyBits {
        TinyBits((b & Self::ALL) as u16)
    }
    fn add(a: TinyBits, b: TinyBits) -> TinyBits {
        let (x, y) = (Self::to_f64(a), Self::to_f64(b));
        Self::from_bits(round_f64::<Self>(x + y))
    }
    fn from_f64(x: f64) -> TinyBits {
        Self::from_bits(round_f64::<Self>(x))
    }
    fn to_f64(v: TinyBits) -> f64 {
        let b = v.0 as u64;
        let neg = is_negative::<Self>(b);
        let mag = if !is_finite::<Self>(b) {
            if frac_field::<Self>(b) != 0 {
                f64::NAN
            } else {
                f64::INFINITY
            }
        } else {
            let (m, e) = significand::<Self>(b);
            m as f64 * 2f64.powi(e as i32 - Self::BIAS - M as i32)
        };
        if neg {
            -mag
        } else {
            mag
        }
    }
}

const fn tiny_name(e: u32, m: u32) -> &'static str {
    match (e, m) {
        (4, 3) => "e4m3",
        (5, 2) => "e5m2",
        (5, 6) => "e5m6",
        (5, 10) => "f16",
        (8, 7) => "bf16",
        _ => "tiny",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_f64_is_identity_on_f64_and_matches_casts_for_f32() {
        let samples = [
            0.0,
            -0.0,
            1.0,
            1.5,
            f64::MIN_POSITIVE,
            5e-324,
            f64::MAX,
            1e300,
            3.4028235677973366e38,
            3.4028235677973362e38,
            1.401298464324817e-45,
            7.006492321624085e-46,
            7.006492321624087e-46,
            0.1,
            f64::INFINITY,
        ];
        for x in samples {
            assert_eq!(round_f64::<F64>(x), x.to_bits(), "f64 {x:e}");
            assert_eq!(
                round_f64::<F32>(x),
                (x as f32).to_bits() as u64,
                "f32 {x:e}"
            );
        }
    }

    #[test]
    fn tiny_round_trip_every_pattern() {
        for b in 0..256u64 {
            let v = E4M3::from_bits(b);
            let x = E4M3::to_f64(v);
            if x.is_nan() {
                continue;
            }
            assert_eq!(round_f64::<E4M3>(x), b, "e4m3 pattern {b:#x} value {x:e}");
        }
    }
}
