//! Signed units: what a run of terms of either sign does to a positive sum that stays inside
//! one binade, and where that is known without adding the terms one by one.
//!
//! A positive normal sum in binade `e` is `m * u`, `u = 2^(e - FRAC)`, `m` an integer in
//! `[2^FRAC, 2^(FRAC+1))`. While the exact value of `m * u + x` stays in `[2^e, 2^(e+1))` the
//! format rounds it at the quantum `u`: to `(m + r) * u`, `r` the nearest integer to `x / u`,
//! a tie going to the even result. For a negative `x` that is the negation of what `|x|` does
//! to the same start (a tie `x / u = -(k + 1/2)` gives `m - k` or `m - k - 1`, whichever is
//! even, as `+(k + 1/2)` gives `m + k` or `m + k + 1`), so a term's increment for each start
//! parity is `+-` the unsigned one of [`crate::unit::term_unit`].
//!
//! A [`SignedUnit`] keeps, for each start parity, a [`Reach`]: the increment of the whole run,
//! and the lowest and highest increment after any of its terms (the running offsets from the
//! start). Composition: for parity `p`, `a` then `b` reads `b` at the parity after `a`,
//! `q = (p + a.inc) mod 2`, and gives `inc = a.inc + b.inc`, `lo = min(a.lo, a.inc + b.lo)`,
//! `hi = max(a.hi, a.inc + b.hi)` (offsets after `a`'s terms, then `b`'s shifted by
//! `a.inc`): associative, the empty run (`lo = +inf`, `hi = -inf`) its identity.
//!
//! Where it applies ([`apply`]), by induction over the terms: if every running offset `t`
//! gives `2^FRAC + 1 <= m + t <= 2^(FRAC+1) - 1`, each exact partial sum is within half a
//! quantum of `(m + t) * u`, so inside `[2^e + u/2, 2^(e+1) - u/2]`: in the binade, rounded at
//! `u` as modelled. Where a modelled offset leaves those bounds the exact partial sum may have
//! left the binade, and the unit is refused. A run of non-negative terms keeps the unsigned
//! rule of [`crate::unit::apply`] (its offsets only grow, and landing exactly on `2^(e+1)` at
//! the end applies). NaN and infinite terms make the unit invalid; a term of magnitude `2^e` or
//! more saturates, and saturated offsets never satisfy the bounds.
//!
//! Saturation and grouping. Without saturation every field is an exact integer sum, and
//! composition is associative exactly, so a run's unit does not depend on how its terms are
//! grouped (a left fold here, a lane tree on the device). Clamping at [`SAT`] breaks that only
//! for runs some of whose offsets (or those of a part of the run, which are differences of
//! two of its offsets) pass `2^62`: in a left fold a clamp puts `+-SAT` into `lo` or `hi` for
//! good, and in any grouping an offset at or beyond `2^FRAC` from the start fails the bounds
//! for every start (`m` lies in `[2^FRAC, 2^(FRAC+1))`). So two groupings of one run give
//! equal units, or units that both apply to no start ([`SignedUnit::applies_nowhere`]).

use crate::format::{is_finite, is_negative, Format, Layout};
use crate::unit::{self, Binade, Unit};

/// Offsets beyond this magnitude count as "out of every binade" (far above `2^(FRAC+1)` for
/// every format here); offsets saturate at it, so sums of two never overflow an `i64`.
pub const SAT: i64 = 1 << 62;

/// A run's offsets for one start parity.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Reach {
    /// The increment of the whole run.
    pub inc: i64,
    /// The lowest increment after any of its terms ([`SAT`] for the empty run).
    pub lo: i64,
    /// The highest increment after any of its terms (`-SAT` for the empty run).
    pub hi: i64,
}

/// The offsets of a run of signed terms for an even and an odd start.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SignedUnit {
    /// For a start whose integer significand is even.
    pub even: Reach,
    /// For an odd one.
    pub odd: Reach,
    /// Every term is non-negative (zeros of either sign count as non-negative).
    pub nonneg: bool,
    /// No term is NaN or infinite.
    pub valid: bool,
}

/// A deliberately broken rule, for the kill matrix (`None`: the algebra as documented).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SignedFault {
    /// The algebra itself.
    None,
    /// [`apply`] ignores the running offsets (only the end is checked, as for non-negative runs).
    BoundsIgnored,
    /// A negative term's increment keeps the sign of its magnitude's.
    SignFlipped,
    /// Composition takes the highest offset for the lowest and the lowest for the highest.
    MinMaxSwapped,
}

impl SignedFault {
    /// Every fault, the algebra first.
    pub const ALL: [SignedFault; 4] = [
        SignedFault::None,
        SignedFault::BoundsIgnored,
        SignedFault::SignFlipped,
        SignedFault::MinMaxSwapped,
    ];
}

fn sat(v: i64) -> i64 {
    v.clamp(-SAT, SAT)
}

/// `a + b` clamped to `[-SAT, SAT]`, for `|a|, |b| <= SAT`: `SAT + SAT = 2^63` does not fit an
/// `i64`, so the add saturates before the clamp (a saturated increment composed with the empty
/// run's `lo = SAT` reaches it).
fn sat_add(a: i64, b: i64) -> i64 {
    sat(a.saturating_add(b))
}

impl SignedUnit {
    /// The empty run: the identity of [`compose`].
    pub const ZERO: SignedUnit = SignedUnit {
        even: Reach {
            inc: 0,
            lo: SAT,
            hi: -SAT,
        },
        odd: Reach {
            inc: 0,
            lo: SAT,
            hi: -SAT,
        },
        nonneg: true,
        valid: true,
    };

    /// No start of format `F` can satisfy this unit's checks in [`apply`]: it is invalid, or
    /// for both parities a non-negative run's increment passes `2^FRAC` or another run's
    /// lowest offset is at most `-2^FRAC` or its highest at least `2^FRAC`.
    pub fn applies_nowhere<F: Format>(&self) -> bool {
        let span = 1i64 << F::FRAC_BITS;
        let nowhere = |r: Reach| {
            if self.nonneg {
                r.inc > span || r.inc < 0
            } else {
                (r.lo <= -span && r.lo != SAT) || (r.hi >= span && r.hi != -SAT)
            }
        };
        !self.valid || (nowhere(self.even) && nowhere(self.odd))
    }

    /// The offsets for a start of parity `p` (0 even, 1 odd).
    pub fn pick(&self, p: i64) -> Reach {
        if p.rem_euclid(2) == 0 {
            self.even
        } else {
            self.odd
        }
    }
}

/// The signed unit of one term `x` (bits of `F`) for sums in binade `b`.
pub fn term_unit<F: Format>(b: Binade, x: u64) -> SignedUnit {
    term_unit_with::<F>(b, x, SignedFault::None)
}

/// [`term_unit`] with `fault`.
pub fn term_unit_with<F: Format>(b: Binade, x: u64, fault: SignedFault) -> SignedUnit {
    if !is_finite::<F>(x) {
        return SignedUnit {
            valid: false,
            ..SignedUnit::ZERO
        };
    }
    let negative = is_negative::<F>(x) && (x & F::ALL & !F::SIGN) != 0;
    let magnitude: Unit = unit::term_unit::<F>(b, x & F::ALL & !F::SIGN);
    let signed = |r: u64| {
        let r = sat(r.min(SAT as u64) as i64);
        if negative && fault != SignedFault::SignFlipped {
            -r
        } else {
            r
        }
    };
    let reach = |r: u64| {
        let v = signed(r);
        Reach {
            inc: v,
            lo: v,
            hi: v,
        }
    };
    SignedUnit {
        even: reach(magnitude.even),
        odd: reach(magnitude.odd),
        nonneg: !negative,
        valid: true,
    }
}

/// `a` then `b` (module documentation).
pub fn compose(a: SignedUnit, b: SignedUnit) -> SignedUnit {
    compose_with(a, b, SignedFault::None)
}

/// [`compose`] with `fault`.
pub fn compose_with(a: SignedUnit, b: SignedUnit, fault: SignedFault) -> SignedUnit {
    // `ra` is `a`'s reach for a start of parity `p`; `b` then starts at parity `p + ra.inc`.
    let one = |ra: Reach, p: i64| {
        let rb = b.pick(p + ra.inc);
        let (lo, hi) = (
            ra.lo.min(sat_add(ra.inc, rb.lo)),
            ra.hi.max(sat_add(ra.inc, rb.hi)),
        );
        let (lo, hi) = if fault == SignedFault::MinMaxSwapped && rb.lo != SAT {
            (
                ra.lo.min(sat_add(ra.inc, rb.hi)),
                ra.hi.max(sat_add(ra.inc, rb.lo)),
            )
        } else {
            (lo, hi)
        };
        Reach {
            inc: sat_add(ra.inc, rb.inc),
            lo,
            hi,
        }
    };
    SignedUnit {
        even: one(a.even, 0),
        odd: one(a.odd, 1),
        nonneg: a.nonneg && b.nonneg,
        valid: a.valid && b.valid,
    }
}

/// The signed unit of a run of terms (bits of `F`), composed left to right.
pub fn run_unit<F: Format>(b: Binade, terms: &[u64]) -> SignedUnit {
    run_unit_with::<F>(b, terms, SignedFault::None)
}

/// [`run_unit`] with `fault`.
pub fn run_unit_with<F: Format>(b: Binade, terms: &[u64], fault: SignedFault) -> SignedUnit {
    terms.iter().fold(SignedUnit::ZERO, |acc, &x| {
        compose_with(acc, term_unit_with::<F>(b, x, fault), fault)
    })
}

/// The bits of `s + x1 + x2 + ...` (in order, each add rounded) for the run of `unit`, or
/// `None` where the module's bounds do not show that every partial sum stays in `b`. `s`
/// must be a positive normal in `b`.
pub fn apply<F: Format>(unit: SignedUnit, b: Binade, s: u64) -> Option<u64> {
    apply_with::<F>(unit, b, s, SignedFault::None)
}

/// [`apply`] with `fault`.
pub fn apply_with<F: Format>(
    unit: SignedUnit,
    b: Binade,
    s: u64,
    fault: SignedFault,
) -> Option<u64> {
    if !unit.valid || Binade::of::<F>(s) != Some(b) {
        return None;
    }
    let m = (crate::format::frac_field::<F>(s) | F::HIDDEN) as i64;
    let r = unit.pick(m);
    let (bottom, top) = (F::HIDDEN as i64, (F::HIDDEN << 1) as i64);
    let end = m + r.inc;
    let inside = if unit.nonneg || fault == SignedFault::BoundsIgnored {
        (bottom..=top).contains(&end)
    } else {
        // The empty run has lo = SAT, hi = -SAT: nothing to bound.
        (r.lo == SAT || m + r.lo > bottom) && (r.hi == -SAT || m + r.hi < top)
    };
    inside.then(|| unit::assemble::<F>(b, end as u64))
}

/// The code a signed plan gives a chunk whose start is planned near `prefix` (the device's
/// signed pipeline, `binade_plan_code_f64`): the binade field of `|prefix|` for a normal
/// finite prefix, with [`crate::layout::PLAN_NEGATIVE`] set where it is negative; 0 (term by
/// term) for zeros, subnormals, infinities and NaN.
pub fn plan_code_f64(prefix: u64) -> u32 {
    use crate::format::F64;
    match Binade::of::<F64>(prefix & !F64::SIGN) {
        None => 0,
        Some(b) if is_negative::<F64>(prefix) => b.0 | crate::layout::PLAN_NEGATIVE,
        Some(b) => b.0,
    }
}

/// The sign bit a plan code flips: a run from `-|s|` is the negation of the run from `|s|`
/// over the negated terms (rounding to nearest, ties to even, commutes with negation).
pub fn plan_flip_f64(code: u32) -> u64 {
    if code & crate::layout::PLAN_NEGATIVE != 0 {
        crate::format::F64::SIGN
    } else {
        0
    }
}

/// The signed unit of one f64 term `x` under plan `code` (its binade, the term's sign
/// flipped for a negative code); invalid for code 0.
pub fn term_unit_planned_f64(code: u32, x: u64) -> SignedUnit {
    let b = code & !crate::layout::PLAN_NEGATIVE;
    if b == 0 {
        return SignedUnit {
            valid: false,
            ..SignedUnit::ZERO
        };
    }
    term_unit::<crate::format::F64>(Binade(b), x ^ plan_flip_f64(code))
}

/// The signed unit of f64 `terms` under plan `code`, composed left to right; invalid for
/// code 0.
pub fn run_unit_planned_f64(code: u32, terms: &[u64]) -> SignedUnit {
    if code & !crate::layout::PLAN_NEGATIVE == 0 {
        return term_unit_planned_f64(code, 0);
    }
    terms.iter().fold(SignedUnit::ZERO, |acc, &x| {
        compose(acc, term_unit_planned_f64(code, x))
    })
}

/// [`apply`] for a unit of [`run_unit_planned_f64`]: the sum's sign flipped around it.
pub fn apply_planned_f64(unit: SignedUnit, code: u32, s: u64) -> Option<u64> {
    let flip = plan_flip_f64(code);
    let b = code & !crate::layout::PLAN_NEGATIVE;
    if b == 0 {
        return None;
    }
    apply::<crate::format::F64>(unit, Binade(b), s ^ flip).map(|r| r ^ flip)
}
