//! The CPU orders (`binade::order`): `ordered_sum_in` has the bits of each order's own loop
//! (`loop_sum_in`, the loop written out term by term) on every input kind, size and order, in
//! f64 and f32, and on arbitrary bit patterns (proptest). Failures print the seed, the kind,
//! the size and the order. The `numpy` order and the sequential loop are also checked against
//! numpy's own results (`tests/data/numpy_sum.csv`, written by `scripts/numpy-sum-bits.py`).

use binade::format::{same_result, Format, Layout, F32, F64};
use binade::order::{
    loop_sum_from, loop_sum_in, ordered_sum_in, restart, CpuOrder, Start, INTERLEAVED_K,
};
use binade::verify::inputs::InputKind;
use binade::verify::numpy_fixture::{self, NumpyRow};
use proptest::prelude::*;

const SEED: u64 = 0x0bde_5201;

fn orders() -> Vec<CpuOrder> {
    let mut v = vec![CpuOrder::Sequential];
    v.extend(INTERLEAVED_K.iter().map(|&k| CpuOrder::Interleaved(k)));
    v.extend([1, 7, 1920, 100_000].map(CpuOrder::Rows));
    v.push(CpuOrder::Numpy);
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

/// One row of numpy's results: `np.sum` must be the `numpy` order's bits, and
/// `np.cumsum(x)[-1]` (numpy's loop, started from the first term) the sequential loop's,
/// except for a stream of -0.0, where the loop from +0 gives +0.0 and numpy's gives -0.0.
fn check_numpy_row<F: Format>(terms: &[F::Value], row: &NumpyRow) -> usize
where
    F::Value: binade::fast::FastTerm,
{
    let (kind, n, want) = (&row.kind, row.n, row.sum_bits);
    for got in [
        ordered_sum_in(terms, CpuOrder::Numpy),
        loop_sum_in::<F>(terms, CpuOrder::Numpy),
    ] {
        assert_eq!(
            F::to_bits(got),
            want,
            "{} {kind} seed {} n {n}: the numpy order {:#x}, np.sum {want:#x} ({})",
            row.dtype,
            row.seed,
            F::to_bits(got),
            row.numpy
        );
    }
    let Some(cumsum) = row.cumsum_last_bits else {
        return 1;
    };
    let from_zero = ordered_sum_in(terms, CpuOrder::Sequential);
    for got in [
        loop_sum_from::<F>(terms, Start::First),
        restart::<F>(from_zero, terms, Start::First),
    ] {
        assert_eq!(
            F::to_bits(got),
            cumsum,
            "{} {kind} seed {} n {n}: the loop from the first term {:#x}, np.cumsum(x)[-1] {cumsum:#x}",
            row.dtype,
            row.seed,
            F::to_bits(got)
        );
    }
    let seq = F::to_bits(from_zero);
    if kind == "negzero" {
        assert_eq!(
            (seq, cumsum),
            (0, F::SIGN),
            "{} negzero n {n}: the loop from +0 gives +0, numpy's cumsum -0",
            row.dtype
        );
    } else {
        assert_eq!(
            seq, cumsum,
            "{} {kind} seed {} n {n}: the sequential loop {seq:#x}, np.cumsum(x)[-1] {cumsum:#x} ({})",
            row.dtype, row.seed, row.numpy
        );
    }
    2
}

#[test]
fn numpy_order_and_sequential_loop_equal_numpys_own_results() {
    let rows = numpy_fixture::rows().unwrap_or_else(|e| panic!("{e}"));
    let mut checks = 0usize;
    for row in &rows {
        let terms = numpy_fixture::stream(&row.kind, row.seed, row.n)
            .unwrap_or_else(|| panic!("{}: unknown stream kind {}", numpy_fixture::PATH, row.kind));
        checks += match row.dtype.as_str() {
            "f64" => check_numpy_row::<F64>(&terms, row),
            "f32" => {
                let t: Vec<f32> = terms.iter().map(|&x| x as f32).collect();
                check_numpy_row::<F32>(&t, row)
            }
            d => panic!("{}: unknown dtype {d}", numpy_fixture::PATH),
        };
    }
    // The file has every stream of the script: a truncated file must not pass.
    assert_eq!(
        rows.len(),
        numpy_fixture::ROWS,
        "{}: rows",
        numpy_fixture::PATH
    );
    assert!(checks > 600, "{checks} checks");
}

/// Terms that are mostly zeros of either sign, with now and then a value, a NaN or an
/// infinity: where the three starts can differ.
fn zeros_and_values() -> impl Strategy<Value = Vec<f64>> {
    prop::collection::vec(
        prop_oneof![
            8 => Just(0.0f64),
            8 => Just(-0.0f64),
            1 => Just(1.5f64),
            1 => Just(-1.5f64),
            1 => Just(f64::NAN),
            1 => Just(f64::NEG_INFINITY),
            1 => any::<f64>(),
        ],
        0..40,
    )
}

proptest! {
    /// Every start: the fast engine's sum from +0, restarted, has the bits of the loop written
    /// out from that start, in f64 and f32.
    #[test]
    fn every_start_has_its_loops_bits(terms in zeros_and_values()) {
        for start in [Start::PlusZero, Start::MinusZero, Start::First] {
            let want = loop_sum_from::<F64>(&terms, start);
            let got = restart::<F64>(ordered_sum_in(&terms, CpuOrder::Sequential), &terms, start);
            prop_assert!(
                same_result::<F64>(got.to_bits(), want.to_bits()),
                "start {start}, terms {terms:?}: got {:#x}, the loop {:#x}", got.to_bits(), want.to_bits()
            );
            let t32: Vec<f32> = terms.iter().map(|&x| x as f32).collect();
            let want = loop_sum_from::<F32>(&t32, start);
            let got = restart::<F32>(ordered_sum_in(&t32, CpuOrder::Sequential), &t32, start);
            prop_assert!(
                same_result::<F32>(u64::from(got.to_bits()), u64::from(want.to_bits())),
                "f32 start {start}, terms {t32:?}: got {:#x}, the loop {:#x}", got.to_bits(), want.to_bits()
            );
        }
    }
}

#[test]
fn starts_differ_only_in_the_sign_of_an_all_zero_sum() {
    let z = [-0.0f64, -0.0];
    let bits = |s| loop_sum_from::<F64>(&z, s).to_bits();
    assert_eq!(bits(Start::PlusZero), 0);
    assert_eq!(bits(Start::MinusZero), 1 << 63);
    assert_eq!(bits(Start::First), 1 << 63);
    assert_eq!(
        loop_sum_from::<F64>(&[-0.0, 0.0], Start::First).to_bits(),
        0
    );
    assert_eq!(loop_sum_from::<F64>(&[], Start::First).to_bits(), 0);
    for s in ["+0", "-0", "first"] {
        assert_eq!(s.parse::<Start>().unwrap().name(), s);
    }
    assert!("second"
        .parse::<Start>()
        .unwrap_err()
        .starts_with("unknown start"));
}
