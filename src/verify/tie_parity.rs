//! A host model of the walked engine's tie-parity unit (`WalkedShape::tie_parity`,
//! `BINADE_WK_TIE_PARITY`: `wk_lane_tie_parity`, `wk_tp_compose` and `wk_tp_block_reduce` in
//! `kernels/ordered_sum_walked.cu`), step for step in the kernel's f64 and int arithmetic, with
//! the kernel's two mutants of it as faults.
//!
//! The argument (the kernel's comment has it too). A sum `M u` in binade `b` (`M` its integer
//! significand, `u` its quantum) plus a term `x >= 0`, `y = x / u`, rounds while it stays in
//! `b` to `M + rint(y)` where `y` is not a tie. Where `y = k + 1/2` it rounds to the even one
//! of `M + k` and `M + k + 1`; `rint(y)` is the even one of `k` and `k + 1`, so the result is
//! `M + rint(y)` for an even `M` and `M + rint(y) + c` for an odd one, `c = +1` where `rint`
//! rounded down and `-1` where it rounded up. After a tie `M` is even, whatever it was; after
//! any other term its parity has flipped with `rint(y)`'s low bit. So a run of terms moves `M`
//! by `R + C_p`: `R` the sum of `rint(y)` and `C_p` the corrections from a start of parity `p`,
//! counted with one parity state per start. A start's state packs into one integer
//! `v = 2 C + q` (`q` the parity after the run), and runs compose by
//! `(v_A & !1) + v_B[v_A & 1]`. `rint(y)` is `(y + 2^52) - 2^52` for `0 <= y < 2^52` (the sum
//! lies where the doubles are the integers), and the sum's low bit is `rint(y)`'s; a term with
//! `y >= 2^52` may get a wrong parity, but its tile's increments are then above `2^52`, which
//! no start applies.

use crate::fast::{min_field, scale_of};
use crate::format::{Format, Layout};
use crate::unit::{Binade, Unit};

/// A deliberate defect of the model: the kernel's mutants of this path (`WalkedMutant`'s
/// `TieParityKept` and `TieCarryIgnored`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TieParityFault {
    /// The correct model.
    None,
    /// A tie's correction leaves the parity state as it was, not even.
    ParityKept,
    /// Runs composed as if every run before ended on an even significand.
    CarryIgnored,
}

/// Each start parity's state `2 C + q` after a run: `C` its tie corrections, `q` the
/// significand's parity after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Corrections {
    /// From an even start.
    pub even: i64,
    /// From an odd start.
    pub odd: i64,
}

impl Corrections {
    /// The empty run: no correction, each start keeps its parity.
    pub const EMPTY: Corrections = Corrections { even: 0, odd: 1 };
}

/// `a` then `b` (`wk_tp_compose`): each start's corrections in `a`, then `b`'s from the parity
/// `a` ends on. Associative with identity [`Corrections::EMPTY`] (the correct model).
pub fn compose(a: Corrections, b: Corrections, fault: TieParityFault) -> Corrections {
    let after = |v: i64| {
        let from = if fault == TieParityFault::CarryIgnored || v & 1 == 0 {
            b.even
        } else {
            b.odd
        };
        (v & !1) + from
    };
    Corrections {
        even: after(a.even),
        odd: after(a.odd),
    }
}

/// The kernel's `rint` by the add of `2^52`, and the sum's low bit.
fn rint_by_add(y: f64) -> (f64, i64) {
    const ADD: f64 = 4_503_599_627_370_496.0; // 2^52
    let t = y + ADD;
    (t - ADD, (t.to_bits() & 1) as i64)
}

/// A run's corrections (`wk_lane_tie_parity`): its terms (non-negative, widened to f64) in
/// order, for the binade whose scale is `scale`.
pub fn run_corrections(terms: &[f64], scale: f64, fault: TieParityFault) -> Corrections {
    debug_assert!(terms.iter().all(|&x| x >= 0.0 || x.is_nan()));
    let tie = |v: i64, s2: i64| {
        let q = v & 1;
        let kept = if fault == TieParityFault::ParityKept {
            v
        } else {
            v - q
        };
        kept + if q == 1 { s2 } else { 0 }
    };
    terms.iter().fold(Corrections::EMPTY, |c, &x| {
        let y = x * scale;
        let (r, flip) = rint_by_add(y);
        let d = y - r;
        if d.abs() == 0.5 {
            let s2 = if d > 0.0 { 2 } else { -2 };
            Corrections {
                even: tie(c.even, s2),
                odd: tie(c.odd, s2),
            }
        } else {
            Corrections {
                even: c.even ^ flip,
                odd: c.odd ^ flip,
            }
        }
    })
}

/// A tile's unit for binade `b` by this path: `R` (the f64 sum of `rint(y)`, in term order;
/// exact below `2^53`) plus each start's corrections, the lanes of `per` terms composed in
/// order; each increment saturated at `2^53` as `wk_bounded` does. `None` where the scale
/// `2^(P - e)` (the CPU engine's `scale_of`, the kernel's `wk_scale`) is not a normal double
/// (below the kernel's `WK_FAST_MIN_B`, where it takes the pair units). The terms are
/// non-negative (a tile with a negative term never takes this path).
pub fn tile_unit<F: Format>(
    terms: &[f64],
    b: Binade,
    per: usize,
    fault: TieParityFault,
) -> Option<Unit> {
    debug_assert!(per >= 1);
    let scale =
        (b.0 >= min_field::<F>() && b.0 <= F::MAX_NORMAL_FIELD).then(|| scale_of::<F>(b.0))?;
    let r: f64 = terms.iter().map(|&x| (x * scale).round_ties_even()).sum();
    let c = terms
        .chunks(per)
        .map(|lane| run_corrections(lane, scale, fault))
        .fold(Corrections::EMPTY, |a, l| compose(a, l, fault));
    let bounded = |v: i64| {
        let inc = r + (v >> 1) as f64;
        if inc < 9_007_199_254_740_992.0 {
            inc as u64
        } else {
            Unit::SATURATED
        }
    };
    Some(Unit {
        even: bounded(c.even),
        odd: bounded(c.odd),
    })
}
