//! The walked engine: the kernel compiles with NVRTC for every mutant and shape probed (no
//! device needed), and on a device every total equals the CPU loop's bits for every input
//! kind, size and start, identically over repeated launches, and each of its own mutants gives
//! a wrong total somewhere. Without NVRTC or a device the tests print `skipped: REASON`; with
//! `BINADE_REQUIRE_GPU=1` (the GPU machine) they fail instead.

use binade::format::{same_result, F64};
use binade::gpu::ordered_sum::walked::{self, WalkedMutant, WalkedShape, WalkedSum};
use binade::gpu::require::{nvrtc_or_skip, open_or_skip};
use binade::verify::inputs::{self, InputKind};
use binade::walk::loop_sum;

/// The shapes the probe times beside the engine's.
const SHAPES: [WalkedShape; 3] = [
    WalkedShape::DEFAULT,
    WalkedShape {
        min_blocks: 0,
        ..WalkedShape::DEFAULT
    },
    WalkedShape {
        per_thread: 8,
        min_blocks: 8,
        ..WalkedShape::DEFAULT
    },
];

const SEED: u64 = 0x5eed_0003;

fn tile() -> usize {
    WalkedShape::DEFAULT.tile() as usize
}

/// Sizes around the tile and lane boundaries, and a few thousand tiles.
fn sizes() -> Vec<usize> {
    let t = tile();
    vec![
        1,
        15,
        17,
        t - 1,
        t,
        t + 1,
        3 * t + 77,
        100_003,
        1_000_003,
        9_000_011,
    ]
}

/// The loop from `start`: `s = start; for x in terms { s += x }`.
fn loop_from(start: f64, terms: &[f64]) -> u64 {
    let mut s = start;
    for &x in terms {
        s += x;
    }
    s.to_bits()
}

/// The hand-made inputs: the one-pass engine's tile cases at this tile, and long runs of a
/// plan that stays a binade below the loop's sum.
fn hand_made() -> Vec<(&'static str, Vec<f64>)> {
    let t = tile();
    let mut v: Vec<(&'static str, Vec<f64>)> = inputs::tile_boundary_cases(t).into_iter().collect();
    v.push((
        "plan behind a crossing, 300 tiles",
        inputs::plan_behind_crossing(t, 300),
    ));
    v.push((
        "infinity then its opposite",
        inputs::infinity_then_its_opposite(t),
    ));
    v.push(("-0.0 over three tiles", vec![-0.0; 3 * t + 5]));
    v.push((
        "an infinity after increments in its tile",
        infinity_after_increments(t),
    ));
    v
}

/// Three tiles: `1.0` and zeros; then `2^-20` terms with `+inf` in the tile's middle lane;
/// then ones. The loop's sum is `+inf`. The infinite tile's fast unit saturates, so the
/// walker finishes it lane by lane from `1 + 2^-20 (lanes before)`: the lanes before the
/// infinity carry a non-zero increment, which a lane unit of `+inf` converted to an integer
/// (2^64 - 1 on the device) would wrap below the binade's top unless the lane unit's bound
/// refuses it (the one-pass engine's `infinity in a later tile` has zeros before its
/// infinity, where the wrapped sum saturates anyway).
fn infinity_after_increments(tile: usize) -> Vec<f64> {
    let mut v = vec![0.0; 3 * tile];
    v[0] = 1.0;
    v[tile..2 * tile].fill(2f64.powi(-20));
    v[tile + tile / 2] = f64::INFINITY;
    v[2 * tile..].fill(1.0);
    v
}

/// The first wrong case of `sum` over every kind and size and the hand-made inputs, from +0
/// and (for the -0.0 runs) -0; None when all equal the loop. Each case's name and seed are
/// in the message.
fn first_wrong(sum: &WalkedSum, launches: usize) -> Option<String> {
    let mut cases: Vec<(String, Vec<f64>, f64)> = Vec::new();
    for kind in InputKind::ALL {
        for n in sizes() {
            let seed = SEED ^ n as u64;
            cases.push((
                format!("{} n={n} seed={seed:#x}", kind.name()),
                kind.generate::<F64>(n, seed),
                0.0,
            ));
        }
    }
    for (name, terms) in hand_made() {
        cases.push((name.to_string(), terms.clone(), 0.0));
        cases.push((format!("{name}, from -0"), terms, -0.0));
    }
    for (name, terms, start) in &cases {
        eprintln!("case {name} (start {start:?})");
        let want = loop_from(*start, terms);
        for launch in 0..launches {
            let got = match sum.sum_of(terms, *start) {
                Ok(g) => g,
                Err(e) => return Some(format!("{name} (start {start:?}), launch {launch}: {e:#}")),
            };
            if !same_result::<F64>(got.total.to_bits(), want) {
                return Some(format!(
                    "{name} (start {start:?}), launch {launch}: {:#018x}, the loop {want:#018x}",
                    got.total.to_bits()
                ));
            }
        }
    }
    None
}

#[test]
fn walked_compiles_for_every_mutant_and_shape() {
    use rayon::prelude::*;
    if !nvrtc_or_skip("walked_compiles_for_every_mutant_and_shape") {
        return;
    }
    let mut builds: Vec<(WalkedShape, WalkedMutant)> = WalkedMutant::ALL
        .into_iter()
        .map(|m| (WalkedShape::DEFAULT, m))
        .collect();
    builds.extend(SHAPES.iter().map(|&s| (s, WalkedMutant::None)));
    builds.push((
        WalkedShape {
            producers_only: true,
            ..WalkedShape::DEFAULT
        },
        WalkedMutant::None,
    ));
    let failed: Vec<String> = builds
        .par_iter()
        .filter_map(|&(shape, m)| {
            walked::compile_for("sm_90", shape, m)
                .err()
                .map(|e| format!("walked {shape:?} {}: {e:#}", m.name()))
        })
        .collect();
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

fn equals_the_loop(test: &str, shape: WalkedShape) {
    let Some(gpu) = open_or_skip(test) else {
        return;
    };
    let sum = WalkedSum::build(&gpu, shape, WalkedMutant::None).unwrap();
    if let Some(wrong) = first_wrong(&sum, 2) {
        panic!("walked {shape:?}: {wrong}");
    }
}

#[test]
fn walked_equals_the_loop_engine_shape() {
    equals_the_loop("walked_equals_the_loop_engine_shape", SHAPES[0]);
}

#[test]
fn walked_equals_the_loop_registers_free() {
    equals_the_loop("walked_equals_the_loop_registers_free", SHAPES[1]);
}

#[test]
fn walked_equals_the_loop_small_tiles() {
    equals_the_loop("walked_equals_the_loop_small_tiles", SHAPES[2]);
}

/// One job launched many times gives one total, and the walker's counts say the plan was
/// used: most tiles composed, not finished.
#[test]
fn walked_repeats_its_bits_and_composes_most_tiles() {
    let Some(gpu) = open_or_skip("walked_repeats_its_bits_and_composes_most_tiles") else {
        return;
    };
    let sum = WalkedSum::new(&gpu).unwrap();
    for kind in [
        InputKind::Uniform,
        InputKind::SsimLike,
        InputKind::Geometric,
    ] {
        let n = 1 << 24;
        let terms = kind.generate::<F64>(n, SEED);
        let want = loop_sum::<F64>(&terms).to_bits();
        let dev = gpu.stream().clone_htod(&terms).unwrap();
        let mut job = sum.job(dev.slice(0..n)).unwrap();
        for launch in 0..5 {
            let got = sum.run(&mut job).unwrap();
            assert_eq!(
                got.total.to_bits(),
                want,
                "{} n={n} seed={SEED:#x} launch {launch}",
                kind.name()
            );
            assert!(
                got.finished_tiles * 10 < got.tiles,
                "{}: {got:?}: the walker finished most tiles itself",
                kind.name()
            );
        }
    }
}

/// The mutant that trusts unit words of an earlier launch is seen only where a job's buffers
/// are launched again on other terms: the words it reads ahead of the producers are the old
/// terms' units. The other terms are the same ones a little larger (times 1 + 2^-20), so
/// that the old plans name the new sums' binades (the walker composes only units planned
/// for its sum's binade; with terms three times as large, as first written, the old words
/// were planned for other binades, refused, and the mutant survived on the H200 at d17d386)
/// while every unit differs.
fn unpublished_read_is_wrong(sum: &WalkedSum) -> Option<String> {
    let n = 1 << 25;
    let a = InputKind::Uniform.generate::<F64>(n, SEED);
    let b: Vec<f64> = a.iter().map(|x| x * (1.0 + 2f64.powi(-20))).collect();
    let want = loop_sum::<F64>(&b).to_bits();
    let s = sum.gpu().stream();
    let (da, db) = (s.clone_htod(&a).unwrap(), s.clone_htod(&b).unwrap());
    let mut job = sum.job(da.slice(0..n)).unwrap();
    for round in 0..5 {
        sum.run(&mut job).unwrap();
        let mut on_b = job.with_terms(db.slice(0..n)).unwrap();
        let got = sum.run(&mut on_b).unwrap();
        if got.total.to_bits() != want {
            return Some(format!(
                "uniform x (1 + 2^-20) after uniform, n={n} seed={SEED:#x}, round {round}"
            ));
        }
        job = on_b.with_terms(da.slice(0..n)).unwrap();
    }
    None
}

#[test]
fn walked_mutants_give_wrong_totals() {
    let Some(gpu) = open_or_skip("walked_mutants_give_wrong_totals") else {
        return;
    };
    let mut survivors = Vec::new();
    for m in WalkedMutant::ALL.into_iter().skip(1) {
        let sum = WalkedSum::with_mutant(&gpu, m).unwrap();
        let killed = match m {
            WalkedMutant::UnpublishedRead => unpublished_read_is_wrong(&sum),
            _ => first_wrong(&sum, 1),
        };
        match killed {
            Some(case) => println!("killed: {}: {case}", m.name()),
            None => survivors.push(m.name()),
        }
    }
    assert!(survivors.is_empty(), "mutants not killed: {survivors:?}");
}
