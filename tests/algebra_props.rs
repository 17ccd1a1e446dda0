//! Property tests of the unit algebra and the walk (proptest). Failures print the minimal
//! case; proptest's own seed is kept in `proptest-regressions/` for replay.

use binade::algebra::Exact;
use binade::format::{same_result, F32, F64};
use binade::plan::PlanKind;
use binade::unit::{apply, compose, term_unit, Binade, Unit};
use binade::walk::{chunk_sums, loop_sum, pipeline};
use proptest::prelude::*;

/// Any unit a run of terms can produce: increments up to 2^53, or saturated.
fn any_unit() -> impl Strategy<Value = Unit> {
    let slot = prop_oneof![0u64..64, 0u64..(1 << 53), Just(Unit::SATURATED)];
    (slot.clone(), slot).prop_map(|(even, odd)| Unit { even, odd })
}

/// Non-negative f64 terms of mixed scale, including ties for sums in [1, 2).
fn term() -> impl Strategy<Value = f64> {
    prop_oneof![
        (1u64..(1 << 20)).prop_map(|j| j as f64 * 2f64.powi(-53)),
        0.0f64..1.0,
        (0u32..2000, 0.0f64..1.0).prop_map(|(k, f)| (1.0 + f) * 2f64.powi(k as i32 - 1000)),
        Just(0.0),
        Just(5e-324),
    ]
}

/// Any f64 at all, specials and negatives included.
fn any_f64() -> impl Strategy<Value = f64> {
    prop_oneof![
        4 => term(),
        1 => any::<f64>(),
        1 => Just(f64::NAN),
        1 => Just(f64::INFINITY),
        1 => (0.0f64..1.0).prop_map(|x| -x),
    ]
}

fn any_plan() -> impl Strategy<Value = PlanKind> {
    prop_oneof![
        Just(PlanKind::TreePrefix),
        Just(PlanKind::OneTooHigh),
        Just(PlanKind::OneTooLow),
        Just(PlanKind::AllZero),
        (-60i32..60).prop_map(PlanKind::Fixed),
        Just(PlanKind::TermByTerm),
        any::<u64>().prop_map(PlanKind::Random),
        Just(PlanKind::Stale),
    ]
}

/// Composes `units` as a tree split at the given points (in order), recursively.
fn tree(units: &[Unit], splits: &[usize]) -> Unit {
    match units.len() {
        0 => Unit::ZERO,
        1 => units[0],
        n => {
            let cut = 1 + splits.first().copied().unwrap_or(0) % (n - 1);
            let rest = splits.get(1..).unwrap_or(&[]);
            compose(tree(&units[..cut], rest), tree(&units[cut..], rest))
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn composition_is_associative(a in any_unit(), b in any_unit(), c in any_unit()) {
        let left = compose(compose(a, b), c);
        let right = compose(a, compose(b, c));
        prop_assert_eq!(left, right);
    }

    #[test]
    fn identity_is_neutral(a in any_unit()) {
        prop_assert_eq!(compose(Unit::ZERO, a), a);
        prop_assert_eq!(compose(a, Unit::ZERO), a);
    }

    #[test]
    fn any_tree_equals_the_terms_one_by_one(
        start in 1.0f64..2.0,
        terms in prop::collection::vec(term(), 1..64),
        splits in prop::collection::vec(any::<usize>(), 0..64),
    ) {
        let b = Binade::of::<F64>(start.to_bits()).unwrap();
        let units: Vec<Unit> = terms.iter().map(|x| term_unit::<F64>(b, x.to_bits())).collect();
        let folded = units.iter().fold(Unit::ZERO, |acc, &u| compose(acc, u));
        prop_assert_eq!(tree(&units, &splits), folded);
        let by_adds = terms.iter().fold(start, |s, &x| s + x);
        if let Some(bits) = apply::<F64>(folded, b, start.to_bits()) {
            prop_assert_eq!(bits, by_adds.to_bits(), "start {:e} terms {:?}", start, terms);
        } else {
            // Refused only when the sequence really leaves the binade.
            prop_assert!(by_adds >= 2.0, "refused but the adds stay below 2: start {:e} terms {:?}", start, terms);
        }
    }

}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn walk_equals_loop_for_any_input_and_plan(
        terms in prop::collection::vec(any_f64(), 0..3000),
        plan in any_plan(),
        stale in prop::collection::vec(term(), 0..3000),
    ) {
        let want = loop_sum::<F64>(&terms).to_bits();
        let got = pipeline::<F64, Exact>(&terms, &plan, Some(&chunk_sums::<F64>(&stale)), &Exact).total.to_bits();
        prop_assert!(same_result::<F64>(got, want), "plan {} len {}: walk {:#x} loop {:#x}", plan, terms.len(), got, want);
    }

    #[test]
    fn f32_walk_equals_loop(terms in prop::collection::vec(0.0f32..4.0, 0..5000), plan in any_plan()) {
        let want = loop_sum::<F32>(&terms).to_bits() as u64;
        let got = pipeline::<F32, Exact>(&terms, &plan, None, &Exact).total.to_bits() as u64;
        prop_assert!(same_result::<F32>(got, want), "plan {}: walk {:#x} loop {:#x}", plan, got, want);
    }
}
