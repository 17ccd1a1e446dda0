//! The CPU orders (`binade::order`): `ordered_sum_in` has the bits of each order's own loop
//! (`loop_sum_in`, the loop written out term by term) on every input kind, size and order, in
//! f64 and f32, and on arbitrary bit patterns (proptest). Failures print the seed, the kind,
//! the size and the order.

use binade::format::{same_result, Format, F32, F64};
use binade::order::{loop_sum_in, ordered_sum_in, CpuOrder, INTERLEAVED_K};
use binade::verify::inputs::InputKind;
use proptest::prelude::*;

const SEED: u64 = 0x0bde_5201;

fn orders() -> Vec<CpuOrder> {
    let mut v = vec![CpuOrder::Sequential];
    v.extend(INTERLEAVED_K.iter().map(|&k| CpuOrder::Interleaved(k)));
    v.extend([1, 7, 1920, 100_000].map(CpuOrder::Rows));
    v
}

const SIZES: [usize; 10] = [0, 1, 2, 15, 16, 17, 1000, 4099, 33_333, 250_001];

fn check<F: Format>(kind: InputKind, n: usize)
where
    F::Value: binade::fast::FastTerm,
{
    let terms = kind.generate::<F>(n, SEED ^ n as u64);
    for order in orders() {
        let want = loop_sum_in::<F>(&terms, order);
        let got = ordered_sum_in(&terms, order);
        assert!(
            same_result::<F>(F::to_bits(got), F::to_bits(want)),
            "seed {SEED:#x} ^ n, kind {kind:?}, n {n}, order {order}, {}: got {:#x}, the loop {:#x}",
            std::any::type_name::<F>(),
            F::to_bits(got),
            F::to_bits(want)
        );
    }
}

#[test]
fn every_order_has_its_loops_bits_f64() {
    for kind in InputKind::ALL {
        for n in SIZES {
            check::<F64>(kind, n);
        }
    }
}

#[test]
fn every_order_has_its_loops_bits_f32() {
    for kind in InputKind::ALL {
        for n in SIZES {
            check::<F32>(kind, n);
        }
    }
}

/// The orders differ from each other on ordinary data (so a test of one does not pass for
/// another's sake): their results spread over about a hundred ulps, so two may agree by
/// chance, but most differ.
#[test]
fn orders_give_different_bits_on_uniform_terms() {
    let terms = InputKind::Uniform.generate::<F64>(100_000, SEED);
    let bits: Vec<u64> = orders()
        .into_iter()
        .filter(|o| *o != CpuOrder::Rows(100_000) && *o != CpuOrder::Rows(1))
        .map(|o| loop_sum_in::<F64>(&terms, o).to_bits())
        .collect();
    let mut distinct = bits.clone();
    distinct.sort_unstable();
    distinct.dedup();
    assert!(
        distinct.len() + 1 >= bits.len(),
        "seed {SEED:#x}: more than two orders agree: {bits:x?}"
    );
    assert_ne!(
        bits[0], bits[1],
        "seed {SEED:#x}: interleaved:2 gave the sequential bits"
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, ..ProptestConfig::default() })]

    /// Any bit patterns (NaN, infinities, subnormals, negatives included), any order.
    #[test]
    fn arbitrary_terms_any_order(
        bits in proptest::collection::vec(any::<u64>(), 0..300),
        which in 0usize..9,
        w in 1usize..40,
    ) {
        let terms: Vec<f64> = bits.iter().map(|&b| f64::from_bits(b)).collect();
        let order = match which {
            0 => CpuOrder::Sequential,
            1..=4 => CpuOrder::Interleaved(INTERLEAVED_K[which - 1]),
            _ => CpuOrder::Rows(w),
        };
        let want = loop_sum_in::<F64>(&terms, order);
        let got = ordered_sum_in(&terms, order);
        prop_assert!(
            same_result::<F64>(got.to_bits(), want.to_bits()),
            "order {}: got {:#x}, the loop {:#x}", order, got.to_bits(), want.to_bits()
        );
    }
}

/// Each of the orders' named mutants gives a wrong total on some input, and the correct
/// engine on none (the kill rows of the `mutations` experiment).
#[test]
fn order_mutants_are_killed_by_wrong_totals() {
    for row in binade::verify::order_mutants::kill_rows(SEED) {
        assert!(
            row.caught(),
            "seed {SEED:#x}: {} {}",
            row.mutant.name,
            match &row.wrong {
                Some(w) => format!("gave a wrong total: {w}"),
                None => "gave the loop's bits on every input".into(),
            }
        );
    }
}
