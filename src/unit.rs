//! Units: what a run of non-negative terms does to a sum that stays in one binade.
//!
//! A positive normal sum in binade `e` is `m * u` with `u = 2^(e - FRAC)` and integer
//! `m` in `[2^FRAC, 2^(FRAC+1))`. Adding `x >= 0` rounds to `(m + r) * u`, `r` being `x / u`
//! rounded to an integer; on an exact tie the result is the even one, so `r` depends on the
//! parity of `m`. A [`Unit`] is the pair of increments for an even and an odd start.
//!
//! Everything here works on bit patterns and integers: no floating-point operation. This is
//! the exact algebra only: the named mutants that prove the checks can fail are defective
//! twins of these functions in `crate::verify::mutant`, and nothing here branches on them.

use crate::format::{
    exp_field, frac_field, is_finite, is_negative, is_positive_normal, significand, Format, Layout,
};

/// A binade: the biased exponent field of the positive normal sums it holds.
///
/// Binade `b` of format `F` is `[2^(b - BIAS), 2^(b - BIAS + 1))`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Binade(pub u32);

impl Binade {
    /// The binade of a positive normal `bits`, `None` for anything else.
    pub fn of<F: Format>(bits: u64) -> Option<Binade> {
        is_positive_normal::<F>(bits).then(|| Binade(exp_field::<F>(bits)))
    }

    /// The unbiased exponent `e` of `[2^e, 2^(e+1))`.
    pub fn exponent<F: Format>(self) -> i32 {
        self.0 as i32 - F::BIAS
    }

    /// The binade `[2^e, 2^(e+1))`, if `e` is a normal exponent of `F`.
    pub fn from_exponent<F: Format>(e: i32) -> Option<Binade> {
        let field = e + F::BIAS;
        (field >= 1 && field <= F::MAX_NORMAL_FIELD as i32).then_some(Binade(field as u32))
    }
}

/// The pair of integer increments of a run of terms: `even` for a start with even `m`,
/// `odd` for an odd one. [`Unit::SATURATED`] in a slot means "leaves the binade".
///
/// Invariant: each slot is at most `SATURATED`; composition saturates and never wraps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Unit {
    /// Increment for a start whose integer significand is even.
    pub even: u64,
    /// Increment for a start whose integer significand is odd.
    pub odd: u64,
}

impl Unit {
    /// The identity of composition: an empty run.
    pub const ZERO: Unit = Unit { even: 0, odd: 0 };
    /// An increment this large never applies in any format here (`2^62 > 2^FRAC` for f64),
    /// and two of them add without overflow.
    pub const SATURATED: u64 = 1 << 62;
    /// A unit that applies to no start: negative, non-finite or too-large runs.
    pub const INVALID: Unit = Unit {
        even: Unit::SATURATED,
        odd: Unit::SATURATED,
    };

    /// The same increment for both parities.
    pub const fn flat(r: u64) -> Unit {
        Unit { even: r, odd: r }
    }

    /// The increment for a start of parity `p` (0 even, 1 odd).
    pub fn pick(self, parity: u64) -> u64 {
        if parity & 1 == 0 {
            self.even
        } else {
            self.odd
        }
    }
}

/// Saturating add of two increments (each at most `SATURATED`, so `a + b <= 2^63` cannot
/// overflow a `u64`).
pub(crate) fn sat_add(a: u64, b: u64) -> u64 {
    debug_assert!(a <= Unit::SATURATED && b <= Unit::SATURATED);
    (a + b).min(Unit::SATURATED)
}

/// The unit of one term `x` (bits of `F`) for sums in binade `b`.
///
/// Guarantee: for every start `s = m * u` in `b` with `m + unit.pick(m) <= 2^(FRAC+1)`, the
/// format's `s + x` equals `(m + unit.pick(m)) * u`. Zeros (either sign) give [`Unit::ZERO`];
/// negative, infinite and NaN terms give [`Unit::INVALID`]; terms at or above `2^e`
/// saturate.
pub fn term_unit<F: Format>(b: Binade, x: u64) -> Unit {
    let magnitude = x & F::ALL & !F::SIGN;
    if magnitude == 0 {
        return Unit::ZERO; // +0 and -0 add nothing to a positive sum
    }
    if !is_finite::<F>(x) || is_negative::<F>(x) {
        return Unit::INVALID;
    }
    let (mx, ex) = significand::<F>(magnitude);
    unit_of_significand::<F>(b, mx, ex)
}

/// The unit of the non-negative value `mx * 2^(ex - BIAS - FRAC)` (a finite term's
/// significand and exponent field as [`significand`] gives them) for sums in binade `b`.
///
/// Steps: (1) the quantum of `b` is `u = 2^(b - BIAS - FRAC)`, so `x / u = mx * 2^(ex - b)`;
/// (2) a non-positive gap `b - ex` shifts left, saturating; (3) a gap above `FRAC + 2` leaves
/// less than a quarter of `u`; (4) otherwise round the quotient by the shifted-out bits.
pub(crate) fn unit_of_significand<F: Format>(b: Binade, mx: u64, ex: u32) -> Unit {
    debug_assert!(
        mx < F::HIDDEN << 1,
        "significand {mx:#x} wider than the format"
    );
    if mx == 0 {
        return Unit::ZERO;
    }
    let gap = b.0 as i64 - ex as i64;
    if gap <= 0 {
        return Unit::flat(shift_left_saturating(mx, gap.unsigned_abs()));
    }
    let g = gap as u64;
    if g > F::FRAC_BITS as u64 + 2 {
        // mx < 2^(FRAC+1), so x / u < 2^(FRAC+1-g) <= 1/2 only when g >= FRAC+2; with
        // g > FRAC+2 it is below 1/4: nothing survives rounding.
        return Unit::ZERO;
    }
    round_quotient(mx, g as u32)
}

/// `mx << up`, saturated at [`Unit::SATURATED`].
fn shift_left_saturating(mx: u64, up: u64) -> u64 {
    debug_assert!(mx >= 1);
    // mx >= 1, so mx << up >= 2^up: anything from 62 up saturates.
    if up >= 62 || mx > (Unit::SATURATED >> up) {
        Unit::SATURATED
    } else {
        mx << up
    }
}

/// The unit of `mx / 2^g` rounded to an integer, ties resolved by the start's parity.
///
/// `q = mx >> g` and the remainder `rem` are compared with half of `2^g`: below rounds to
/// `q`, above to `q + 1`; exactly half is a tie, which rounds so that `m + r` is even.
pub(crate) fn round_quotient(mx: u64, g: u32) -> Unit {
    use std::cmp::Ordering::*;
    debug_assert!((1..=63).contains(&g), "shift {g} outside 1..=63");
    let q = mx >> g;
    let rem = mx & ((1u64 << g) - 1);
    match rem.cmp(&(1u64 << (g - 1))) {
        Less => Unit::flat(q),
        Greater => Unit::flat(q + 1),
        Equal => tie_unit(q),
    }
}

/// The unit of a tie between `q` and `q + 1`: the start's `m` plus the increment must come
/// out even, so an even start keeps `q` when `q` is even and an odd start takes `q + 1`.
pub(crate) fn tie_unit(q: u64) -> Unit {
    Unit {
        even: q + (q & 1),
        odd: q + 1 - (q & 1),
    }
}

/// `a` then `b`: for start parity `p`, `a[p] + b[(p + a[p]) mod 2]`, saturating.
///
/// Associative with identity [`Unit::ZERO`]; not commutative.
pub fn compose(a: Unit, b: Unit) -> Unit {
    Unit {
        even: sat_add(a.even, b.pick(a.even)),
        odd: sat_add(a.odd, b.pick(1 + a.odd)),
    }
}

/// The unit of a run of terms, composed left to right.
pub fn run_unit<F: Format>(b: Binade, terms: &[u64]) -> Unit {
    terms
        .iter()
        .fold(Unit::ZERO, |acc, &x| compose(acc, term_unit::<F>(b, x)))
}

/// Applies `unit` (computed for binade `b`) to the start `s` (bits of `F`).
///
/// Returns the exact result of adding the unit's terms to `s` one by one, or `None` when the
/// unit does not apply: `s` is not a positive normal in `b`, or the result would pass
/// `2^(e+1)`. Landing exactly on `2^(e+1)` applies (for the top binade that is infinity,
/// which is also what the format's addition gives).
pub fn apply<F: Format>(unit: Unit, b: Binade, s: u64) -> Option<u64> {
    if Binade::of::<F>(s) != Some(b) {
        return None;
    }
    let end = end_significand::<F>(unit, s);
    let top = F::HIDDEN << 1; // 2^(FRAC+1): the significand of 2^(e+1) at this binade's quantum
    if end > top {
        return None;
    }
    Some(assemble::<F>(b, end))
}

/// The start's integer significand `m` plus the unit's increment for `m`'s parity (never
/// wraps: `m < 2^(FRAC+1)` and an increment is at most `2^62`).
pub(crate) fn end_significand<F: Format>(unit: Unit, s: u64) -> u64 {
    let m = frac_field::<F>(s) | F::HIDDEN;
    m + unit.pick(m)
}

/// The bits of `end * u` in binade `b`, for `end` in `[2^FRAC, 2^(FRAC+1)]`: the exponent
/// field `b` and the fraction `end - 2^FRAC`; for `end == 2^(FRAC+1)` the addition carries
/// into the exponent, giving exactly `2^(e+1)` (infinity above the top binade, as the add
/// gives).
pub(crate) fn assemble<F: Format>(b: Binade, end: u64) -> u64 {
    let bits = ((b.0 as u64) << F::FRAC_BITS).wrapping_add(end.wrapping_sub(F::HIDDEN));
    bits & F::ALL
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::{F32, F64};

    fn b64(x: f64) -> Binade {
        Binade::of::<F64>(x.to_bits()).unwrap()
    }

    #[test]
    fn tie_follows_parity() {
        // Sum in [1, 2): u = 2^-52. x = u/2 is a tie.
        let b = b64(1.0);
        let x = 2f64.powi(-53);
        let unit = term_unit::<F64>(b, x.to_bits());
        assert_eq!(unit, Unit { even: 0, odd: 1 });
        for s in [1.0f64, 1.0 + 2f64.powi(-52)] {
            let got = apply::<F64>(unit, b, s.to_bits()).unwrap();
            assert_eq!(got, (s + x).to_bits(), "s={s:e}");
        }
    }

    #[test]
    fn zero_negative_zero_and_specials() {
        let b = b64(1.0);
        assert_eq!(term_unit::<F64>(b, 0f64.to_bits()), Unit::ZERO);
        assert_eq!(term_unit::<F64>(b, (-0f64).to_bits()), Unit::ZERO);
        for x in [-1.0, f64::NAN, f64::INFINITY, f64::NEG_INFINITY, -5e-324] {
            assert_eq!(term_unit::<F64>(b, x.to_bits()), Unit::INVALID, "{x}");
        }
    }

    #[test]
    fn huge_terms_saturate_never_wrap() {
        let b = b64(1.0);
        for x in [2.0f64, 1e10, 2f64.powi(62), 2f64.powi(64), 1e300, f64::MAX] {
            let unit = term_unit::<F64>(b, x.to_bits());
            assert!(unit.even >= 1 << 52, "x={x:e} gave {unit:?}");
            assert!(apply::<F64>(unit, b, 1.5f64.to_bits()).is_none());
        }
    }

    #[test]
    fn landing_exactly_on_next_power_applies() {
        let b = b64(1.0);
        let s = 2.0 - 2f64.powi(-52);
        let x = 2f64.powi(-52);
        let unit = term_unit::<F64>(b, x.to_bits());
        assert_eq!(apply::<F64>(unit, b, s.to_bits()), Some(2f64.to_bits()));
        // The top binade lands on infinity, as the add does.
        let top = Binade::of::<F64>(f64::MAX.to_bits()).unwrap();
        let ulp = 2f64.powi(971);
        let unit = term_unit::<F64>(top, ulp.to_bits());
        assert_eq!(
            apply::<F64>(unit, top, f64::MAX.to_bits()),
            Some((f64::MAX + ulp).to_bits())
        );
    }

    #[test]
    fn subnormal_terms_and_wide_gaps() {
        let b = Binade::of::<F64>(f64::MIN_POSITIVE.to_bits()).unwrap();
        let s = f64::MIN_POSITIVE * 1.25;
        for x in [5e-324f64, 1e-310, 1e-309] {
            let unit = term_unit::<F64>(b, x.to_bits());
            let got = apply::<F64>(unit, b, s.to_bits()).unwrap();
            assert_eq!(got, (s + x).to_bits(), "x={x:e}");
        }
        let big = b64(1e300);
        assert_eq!(term_unit::<F64>(big, 1e-300f64.to_bits()), Unit::ZERO);
    }

    #[test]
    fn composition_is_not_commutative() {
        // Witness: a = tie unit (0, 1), b = flat 1.
        let a = Unit { even: 0, odd: 1 };
        let b = Unit::flat(1);
        assert_ne!(compose(a, b), compose(b, a));
    }

    #[test]
    fn f32_rule_matches_add() {
        let b = Binade::of::<F32>(1.0f32.to_bits() as u64).unwrap();
        let s = 1.0f32 + f32::EPSILON;
        let x = f32::EPSILON / 2.0;
        let unit = term_unit::<F32>(b, x.to_bits() as u64);
        let got = apply::<F32>(unit, b, s.to_bits() as u64).unwrap();
        assert_eq!(got, (s + x).to_bits() as u64);
    }
}
