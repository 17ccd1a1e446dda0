//! The fast CPU engine (`binade::fast`): its bits are the loop's for every input kind, size,
//! and number of threads (proptest), and each of its shortcuts, switched off, gives a wrong
//! sum on some input (its own kill rows).

use binade::fast::{ordered_sum_fast, ordered_sum_par, CHUNK};
use binade::format::{same_result, F64};
use binade::verify::fast_mutants::kill_rows;
use binade::verify::inputs::InputKind;
use binade::walk::loop_sum;
use proptest::prelude::*;

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a rayon pool")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn fast_sums_equal_the_loop(kind in 0usize..InputKind::ALL.len(), n in 0usize..6 * CHUNK + 3, seed in any::<u64>(), threads in 1usize..5) {
        let kind = InputKind::ALL[kind];
        let terms = kind.generate::<F64>(n, seed);
        let want = loop_sum::<F64>(&terms).to_bits();
        let one = ordered_sum_fast(&terms).to_bits();
        prop_assert!(same_result::<F64>(one, want), "seed {seed:#x} kind {kind:?} n {n}: fast {one:#018x} loop {want:#018x}");
        let par = pool(threads).install(|| ordered_sum_par(&terms)).to_bits();
        prop_assert!(same_result::<F64>(par, want), "seed {seed:#x} kind {kind:?} n {n} threads {threads}: par {par:#018x} loop {want:#018x}");
    }

    #[test]
    fn arbitrary_bits_equal_the_loop(bits in proptest::collection::vec(any::<u64>(), 0..3 * CHUNK)) {
        let terms: Vec<f64> = bits.iter().map(|&b| f64::from_bits(b)).collect();
        let want = loop_sum::<F64>(&terms).to_bits();
        prop_assert!(same_result::<F64>(ordered_sum_fast(&terms).to_bits(), want));
        prop_assert!(same_result::<F64>(ordered_sum_par(&terms).to_bits(), want));
    }
}

#[test]
fn long_streams_of_every_kind_equal_the_loop() {
    let seed = 0xfa57u64;
    for kind in InputKind::ALL {
        let terms = kind.generate::<F64>(1_000_003, seed);
        let want = loop_sum::<F64>(&terms).to_bits();
        for threads in [1, 2, 3] {
            let got = pool(threads).install(|| ordered_sum_par(&terms)).to_bits();
            assert!(
                same_result::<F64>(got, want),
                "seed {seed:#x} kind {kind:?} threads {threads}: {got:#018x} vs {want:#018x}"
            );
        }
        let got = ordered_sum_fast(&terms).to_bits();
        assert!(
            same_result::<F64>(got, want),
            "seed {seed:#x} kind {kind:?}: {got:#018x} vs {want:#018x}"
        );
    }
}

#[test]
fn each_broken_check_gives_a_wrong_sum() {
    for (name, one, par) in kill_rows(0xdead5) {
        if name.starts_with("none") {
            assert_eq!(
                (one, par),
                (None, None),
                "the correct engine differs from the loop"
            );
        } else {
            assert!(
                one.is_some(),
                "one thread, {name}: the loop's bits everywhere"
            );
            assert!(par.is_some(), "threads, {name}: the loop's bits everywhere");
        }
    }
}

#[test]
fn the_library_sum_equals_the_loop_on_both_sides_of_its_thread_threshold() {
    let seed = 0x11b5u64;
    for n in [
        0usize,
        1,
        64 * CHUNK - 1,
        64 * CHUNK,
        64 * CHUNK + 1,
        300_001,
    ] {
        for kind in [
            InputKind::Uniform,
            InputKind::Geometric,
            InputKind::Specials,
        ] {
            let terms = kind.generate::<F64>(n, seed ^ n as u64);
            let (got, want) = (
                binade::ordered_sum(&terms).to_bits(),
                loop_sum::<F64>(&terms).to_bits(),
            );
            assert!(
                same_result::<F64>(got, want),
                "seed {seed:#x} kind {kind:?} n {n}: {got:#018x} vs {want:#018x}"
            );
        }
    }
}
