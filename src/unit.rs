//! Units: what a run of non-negative terms does to a sum that stays in one binade.
//!
//! A positive normal sum in binade `e` is `m * u` with `u = 2^(e - FRAC)` and integer
//! `m` in `[2^FRAC, 2^(FRAC+1))`. Adding `x >= 0` rounds to `(m + r) * u`, `r` being `x / u`
//! rounded to an integer; on an exact tie the result is the even one, so `r` depends on the
//! parity of `m`. A [`Unit`] is the pair of increments for an even and an odd start.
//!
//! Everything here works on bit patterns and integers: no floating-point operation.

use crate::format::{
    exp_field, frac_field, is_finite, is_negative, is_positive_normal, significand, Format, Layout,
};
use crate::mutant::Mutant;

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

    /// True when neither slot can ever apply.
    pub fn is_saturated(self) -> bool {
        self.even >= Unit::SATURATED && self.odd >= Unit::SATURATED
    }
}

/// Saturating add of two increments (each at most `SATURATED`).
fn sat_add(a: u64, b: u64, mutant: Mutant) -> u64 {
    if mutant == Mutant::NoSaturation {
        a.wrapping_add(b)
    } else {
        (a + b).min(Unit::SATURATED)
    }
}

/// The unit of one term `x` (bits of `F`) for sums in binade `b`.
///
/// Guarantee: for every start `s = m * u` in `b` with `m + unit.pick(m) <= 2^(FRAC+1)`, the
/// format's `s + x` equals `(m + unit.pick(m)) * u`. Zeros (either sign) give [`Unit::ZERO`];
/// negative, infinite and NaN terms give [`Unit::INVALID`]; terms at or above `2^e`
/// saturate.
pub fn term_unit<F: Format>(b: Binade, x: u64, mutant: Mutant) -> Unit {
    let magnitude = x & F::ALL & !F::SIGN;
    if magnitude == 0 {
        return Unit::ZERO; // +0 and -0 add nothing to a positive sum
    }
    if !is_finite::<F>(x) || (is_negative::<F>(x) && mutant != Mutant::NegativeAsPositive) {
        return Unit::INVALID;
    }
    let (mut mx, ex) = significand::<F>(magnitude);
    if mutant == Mutant::SubnormalImplicitBit && exp_field::<F>(x) == 0 && frac_field::<F>(x) != 0 {
        mx |= F::HIDDEN;
    }
    if mx == 0 {
        return Unit::ZERO;
    }
    // x / u = mx * 2^(ex - b): shift right by the gap b - ex.
    let mut gap = b.0 as i64 - ex as i64;
    if mutant == Mutant::GapOffByOne {
        gap += 1;
    }
    if gap <= 0 {
        return Unit::flat(shift_left_saturating(mx, (-gap) as u64, mutant));
    }
    let g = gap as u64;
    if g > F::FRAC_BITS as u64 + 2 {
        // mx < 2^(FRAC+1), so x / u < 2^(FRAC+1-g) <= 1/2 only when g >= FRAC+2; with
        // g > FRAC+2 it is below 1/4: nothing survives rounding.
        return Unit::ZERO;
    }
    round_quotient(mx, g as u32, mutant)
}

/// `mx << up`, saturated at [`Unit::SATURATED`] (or wrapped by the `NoSaturation` mutant).
fn shift_left_saturating(mx: u64, up: u64, mutant: Mutant) -> u64 {
    if mutant == Mutant::NoSaturation {
        return if up >= 64 { 0 } else { mx << up }; // high bits lost: a wrapped increment
    }
    // mx >= 1, so mx << up >= 2^up: anything from 62 up saturates.
    if up >= 62 || mx > (Unit::SATURATED >> up) {
        Unit::SATURATED
    } else {
        mx << up
    }
}

/// The unit of `mx / 2^g` rounded to an integer, ties resolved by the start's parity
/// (`1 <= g <= 63`).
fn round_quotient(mx: u64, g: u32, mutant: Mutant) -> Unit {
    use std::cmp::Ordering::*;
    let q = mx >> g;
    let rem = mx & ((1u64 << g) - 1);
    let half = if mutant == Mutant::HalfMisplaced && g >= 2 {
        1u64 << (g - 2)
    } else {
        1u64 << (g - 1)
    };
    let side = if mutant == Mutant::StickyIgnored {
        if rem & half != 0 {
            Equal
        } else {
            Less
        }
    } else {
        rem.cmp(&half)
    };
    match side {
        Less => Unit::flat(q),
        Greater => Unit::flat(q + 1),
        Equal => match mutant {
            Mutant::TieAlwaysUp => Unit::flat(q + 1),
            Mutant::TieAlwaysDown => Unit::flat(q),
            // m + q must come out even: an even start keeps q when q is even.
            _ => Unit {
                even: q + (q & 1),
                odd: q + 1 - (q & 1),
            },
        },
    }
}

/// `a` then `b`: for start parity `p`, `a[p] + b[(p + a[p]) mod 2]`, saturating.
///
/// Associative with identity [`Unit::ZERO`]; not commutative.
pub fn compose(a: Unit, b: Unit, mutant: Mutant) -> Unit {
    if mutant == Mutant::ParityIgnored {
        return Unit {
            even: sat_add(a.even, b.even, mutant),
            odd: sat_add(a.odd, b.odd, mutant),
        };
    }
    Unit {
        even: sat_add(a.even, b.pick(a.even), mutant),
        odd: sat_add(a.odd, b.pick(1 + a.odd), mutant),
    }
}

/// The unit of a run of terms, composed left to right.
pub fn run_unit<F: Format>(b: Binade, terms: &[u64], mutant: Mutant) -> Unit {
    terms.iter().fold(Unit::ZERO, |acc, &x| {
        compose(acc, term_unit::<F>(b, x, mutant), mutant)
    })
}

/// Applies `unit` (computed for binade `b`) to the start `s` (bits of `F`).
///
/// Returns the exact result of adding the unit's terms to `s` one by one, or `None` when the
/// unit does not apply: `s` is not a positive normal in `b`, or the result would pass
/// `2^(e+1)`. Landing exactly on `2^(e+1)` applies (for the top binade that is infinity,
/// which is also what the format's addition gives).
pub fn apply<F: Format>(unit: Unit, b: Binade, s: u64, mutant: Mutant) -> Option<u64> {
    let in_binade = Binade::of::<F>(s) == Some(b);
    if !in_binade && mutant != Mutant::NoBinadeCheck {
        return None;
    }
    let m = frac_field::<F>(s) | F::HIDDEN;
    let end = m.wrapping_add(unit.pick(m));
    let top = F::HIDDEN << 1; // 2^(FRAC+1): the significand of 2^(e+1) at this binade's quantum
    if end > top && mutant != Mutant::NoUpperCheck {
        return None;
    }
    if end == top && mutant == Mutant::LandingRefused {
        return None;
    }
    // (b << FRAC) + (end - 2^FRAC): for end == top this carries into the exponent, giving
    // exactly 2^(e+1).
    let bits = ((b.0 as u64) << F::FRAC_BITS).wrapping_add(end.wrapping_sub(F::HIDDEN));
    Some(bits & F::ALL)
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
        let unit = term_unit::<F64>(b, x.to_bits(), Mutant::None);
        assert_eq!(unit, Unit { even: 0, odd: 1 });
        for s in [1.0f64, 1.0 + 2f64.powi(-52)] {
            let got = apply::<F64>(unit, b, s.to_bits(), Mutant::None).unwrap();
            assert_eq!(got, (s + x).to_bits(), "s={s:e}");
        }
    }

    #[test]
    fn zero_negative_zero_and_specials() {
        let b = b64(1.0);
        assert_eq!(
            term_unit::<F64>(b, 0f64.to_bits(), Mutant::None),
            Unit::ZERO
        );
        assert_eq!(
            term_unit::<F64>(b, (-0f64).to_bits(), Mutant::None),
            Unit::ZERO
        );
        for x in [-1.0, f64::NAN, f64::INFINITY, f64::NEG_INFINITY, -5e-324] {
            assert_eq!(
                term_unit::<F64>(b, x.to_bits(), Mutant::None),
                Unit::INVALID,
                "{x}"
            );
        }
    }

    #[test]
    fn huge_terms_saturate_never_wrap() {
        let b = b64(1.0);
        for x in [2.0f64, 1e10, 2f64.powi(62), 2f64.powi(64), 1e300, f64::MAX] {
            let unit = term_unit::<F64>(b, x.to_bits(), Mutant::None);
            assert!(unit.even >= 1 << 52, "x={x:e} gave {unit:?}");
            assert!(apply::<F64>(unit, b, 1.5f64.to_bits(), Mutant::None).is_none());
        }
        let wrapped = term_unit::<F64>(b, 2f64.powi(64).to_bits(), Mutant::NoSaturation);
        assert!(wrapped.even < 1 << 52, "the NoSaturation mutant must wrap");
    }

    #[test]
    fn landing_exactly_on_next_power_applies() {
        let b = b64(1.0);
        let s = 2.0 - 2f64.powi(-52);
        let x = 2f64.powi(-52);
        let unit = term_unit::<F64>(b, x.to_bits(), Mutant::None);
        assert_eq!(
            apply::<F64>(unit, b, s.to_bits(), Mutant::None),
            Some(2f64.to_bits())
        );
        assert_eq!(
            apply::<F64>(unit, b, s.to_bits(), Mutant::LandingRefused),
            None
        );
        // The top binade lands on infinity, as the add does.
        let top = Binade::of::<F64>(f64::MAX.to_bits()).unwrap();
        let ulp = 2f64.powi(971);
        let unit = term_unit::<F64>(top, ulp.to_bits(), Mutant::None);
        assert_eq!(
            apply::<F64>(unit, top, f64::MAX.to_bits(), Mutant::None),
            Some((f64::MAX + ulp).to_bits())
        );
    }

    #[test]
    fn subnormal_terms_and_wide_gaps() {
        let b = Binade::of::<F64>(f64::MIN_POSITIVE.to_bits()).unwrap();
        let s = f64::MIN_POSITIVE * 1.25;
        for x in [5e-324f64, 1e-310, 1e-309] {
            let unit = term_unit::<F64>(b, x.to_bits(), Mutant::None);
            let got = apply::<F64>(unit, b, s.to_bits(), Mutant::None).unwrap();
            assert_eq!(got, (s + x).to_bits(), "x={x:e}");
        }
        let big = b64(1e300);
        assert_eq!(
            term_unit::<F64>(big, 1e-300f64.to_bits(), Mutant::None),
            Unit::ZERO
        );
    }

    #[test]
    fn composition_is_not_commutative() {
        // Witness: a = tie unit (0, 1), b = flat 1.
        let a = Unit { even: 0, odd: 1 };
        let b = Unit::flat(1);
        assert_ne!(compose(a, b, Mutant::None), compose(b, a, Mutant::None));
    }

    #[test]
    fn f32_rule_matches_add() {
        let b = Binade::of::<F32>(1.0f32.to_bits() as u64).unwrap();
        let s = 1.0f32 + f32::EPSILON;
        let x = f32::EPSILON / 2.0;
        let unit = term_unit::<F32>(b, x.to_bits() as u64, Mutant::None);
        let got = apply::<F32>(unit, b, s.to_bits() as u64, Mutant::None).unwrap();
        assert_eq!(got, (s + x).to_bits() as u64);
    }
}
