//! The walked engine's walker, modelled on the host (`verify::walked_model`), gives the
//! loop's bits for any terms, shape, plan and split lanes: the plans a perfect look-back would
//! give, the tree sums' plans the kernel makes, and plans broken on purpose (tiles planned a
//! binade or two off, or not at all); no split words, the kernel's split lanes from tree
//! sums, and split lanes drawn at random (before or after the crossing, past the tile, in
//! tiles that do not cross). Small shapes make every step boundary, crossing, split and finish
//! frequent. Each case is made from a seed (xoshiro256++), printed on failure with the case.

use binade::format::{same_result, F64};
use binade::gpu::ordered_sum::walked_kill::{planned_finish_inputs, step_search_input};
use binade::unit::Binade;
use binade::verify::walked_model::{
    exact_plans, kernel_lane_plans, planned_finish, publish, publish_split, tree_plans,
    tree_split_lanes, walk, walk_with, ModelFault, ModelShape, Word,
};
use binade::walk::loop_from;
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// Terms of one of six kinds: uniform, half-ulp ties on a coarse grid, geometric growth,
/// spread over binades, with specials (NaN, infinities, negatives, -0.0, subnormals), and
/// runs of equal small terms that the sum rounds away or up.
fn terms(kind: u8, len: usize, rng: &mut Xoshiro256PlusPlus) -> Vec<f64> {
    (0..len)
        .map(|i| {
            let u: f64 = rng.random();
            match kind % 6 {
                0 => u,
                1 => (u * 64.0).floor() / 128.0,
                2 => (0.5 + u) * 2f64.powf(i as f64 / 16.0),
                3 => u * 2f64.powi(rng.random_range(-60..60)),
                4 => match rng.random_range(0..40) {
                    0 => f64::NAN,
                    1 => f64::INFINITY,
                    2 => f64::NEG_INFINITY,
                    3 => -u,
                    4 => -0.0,
                    5 => f64::from_bits(rng.random_range(1..1u64 << 52)),
                    _ => u,
                },
                _ => 2f64.powi(-53) * (1.0 + (kind / 6) as f64 / 128.0),
            }
        })
        .collect()
}

/// The loop from `start`, as bits.
fn loop_bits(start: f64, terms: &[f64]) -> u64 {
    loop_from::<F64>(start, terms).to_bits()
}

/// Plans of kind `k`: exact (0), tree sums' (1), exact moved by -2..=2 binades or dropped at
/// random tiles (2), every tile planned the binade of `1.0` (3).
fn plans(k: u8, t: &[f64], shape: ModelShape, rng: &mut Xoshiro256PlusPlus) -> Vec<Option<Binade>> {
    match k % 4 {
        0 => exact_plans(t, shape),
        1 => tree_plans(t, shape),
        2 => exact_plans(t, shape)
            .into_iter()
            .map(|p| match rng.random_range(0..6) {
                0 => None,
                1 => p.map(|b| Binade(b.0.saturating_sub(1).max(1))),
                2 => p.map(|b| Binade((b.0 + 1).min(2046))),
                3 => p.map(|b| Binade(b.0.saturating_sub(2).max(1))),
                _ => p,
            })
            .collect(),
        _ => vec![Binade::of::<F64>(1.0f64.to_bits()); t.len().div_ceil(shape.tile()).max(1)],
    }
}

/// Split lanes of kind `k`: none (0), the kernel's from tree sums (1), a random lane (up to
/// one past the tile's) at about half the tiles (2).
fn split_lanes(
    k: u8,
    t: &[f64],
    shape: ModelShape,
    rng: &mut Xoshiro256PlusPlus,
) -> Vec<Option<usize>> {
    let tiles = t.len().div_ceil(shape.tile());
    match k % 3 {
        0 => Vec::new(),
        1 => tree_split_lanes(t, shape),
        _ => (0..tiles)
            .map(|_| {
                rng.random_bool(0.5)
                    .then(|| rng.random_range(0..=shape.lanes))
            })
            .collect(),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn the_walker_gives_the_loops_bits_for_any_plan(
        seed in any::<u64>(),
        kind in 0u8..12,
        plan in 0u8..4,
        len in 0usize..700,
        lane in 1usize..6,
        lanes in 1usize..6,
        step in 1usize..6,
        negative_zero in any::<bool>(),
        finish_in_step in any::<bool>(),
        split in 0u8..3,
        planned in any::<bool>(),
        seg_step in any::<bool>(),
        fetch_splits in any::<bool>(),
        last_first in any::<bool>(),
    ) {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let t = terms(kind, len, &mut rng);
        let shape = ModelShape { lane, lanes, step, finish_in_step, planned, seg_step, fetch_splits, last_first };
        let p = plans(plan, &t, shape, &mut rng);
        let l = split_lanes(split, &t, shape, &mut rng);
        let start = if negative_zero { -0.0 } else { 0.0 };
        let words = publish_split(&t, shape, &p, &l);
        let (got, counts) = walk(&t, shape, &words, start);
        let want = loop_bits(start, &t);
        prop_assert!(
            same_result::<F64>(got, want),
            "seed {seed:#x} kind {kind} plan {plan} split {split} len {len} shape {shape:?} start {start:?}: {got:#018x}, the loop {want:#018x} ({counts:?})"
        );
    }
}

/// The producers' words as the kernel makes them: plans and split lanes from the tree sums.
fn tree_words(t: &[f64], shape: ModelShape) -> Vec<Word> {
    publish_split(t, shape, &tree_plans(t, shape), &tree_split_lanes(t, shape))
}

/// The kernel's lanes and tiles (16 terms a lane, here 16 lanes a tile) with a long step: the
/// shape of the tests that count how the walker ends its tiles.
const WIDE: ModelShape = ModelShape {
    lane: 16,
    lanes: 16,
    step: 32,
    finish_in_step: true,
    planned: true,
    seg_step: true,
    fetch_splits: false,
    last_first: true,
};

/// The kernel's shape: 16 terms a lane, 256 lanes a tile, 1,024 tiles a step.
const KERNEL: ModelShape = ModelShape::KERNEL;

/// Lane plans of kind `k` for a tile from the exact sum `s`: the kernel's (0), the binade of
/// the loop's running sum before each lane (1), those moved by -1..=1 binades or dropped at
/// random lanes (2), every lane planned the binade of `s` (3).
fn lane_plans(
    k: u8,
    tile: &[f64],
    shape: ModelShape,
    s: u64,
    rng: &mut Xoshiro256PlusPlus,
) -> Vec<Option<Binade>> {
    let exact = || {
        let mut cur = f64::from_bits(s);
        tile.chunks(shape.lane)
            .map(|lane| {
                let b = Binade::of::<F64>(cur.to_bits());
                cur = lane.iter().fold(cur, |a, &x| a + x);
                b
            })
            .collect::<Vec<_>>()
    };
    match k % 4 {
        0 => kernel_lane_plans(tile, shape, s),
        1 => exact(),
        2 => exact()
            .into_iter()
            .map(|p| match rng.random_range(0..5) {
                0 => None,
                1 => p.map(|b| Binade(b.0.saturating_sub(1).max(1))),
                2 => p.map(|b| Binade((b.0 + 1).min(2046))),
                _ => p,
            })
            .collect(),
        _ => vec![Binade::of::<F64>(s); tile.len().div_ceil(shape.lane)],
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// A planned pass with any lane plan either refuses the tile or gives the loop's bits,
    /// from the loop's sum of a random prefix of the terms (so the start has the bits the
    /// walker would hold there). A pass that refused every tile would pass this alone: that it
    /// does not is checked by `kernel_lane_plans_end_finishes` and by the planned faults'
    /// kills in `every_model_fault_gives_a_wrong_sum`.
    #[test]
    fn a_planned_finish_gives_the_loops_bits_or_refuses(
        seed in any::<u64>(),
        kind in 0u8..12,
        plan in 0u8..4,
        len in 1usize..400,
        lane in 1usize..6,
        lanes in 1usize..40,
        before in 0usize..300,
    ) {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let t = terms(kind, before + len, &mut rng);
        let shape = ModelShape { lane, lanes, step: 1, finish_in_step: true, planned: true, seg_step: false, fetch_splits: false, last_first: false };
        let s = loop_bits(0.0, &t[..before]);
        let tile = &t[before..(before + shape.tile()).min(t.len())];
        let p = lane_plans(plan, tile, shape, s, &mut rng);
        if let Some((got, _)) = planned_finish(tile, shape, s, &p, ModelFault::None) {
            let want = loop_bits(f64::from_bits(s), tile);
            prop_assert!(
                same_result::<F64>(got, want),
                "seed {seed:#x} kind {kind} plan {plan} before {before} len {len} shape {shape:?} from {s:#018x}: {got:#018x}, the loop {want:#018x}"
            );
        }
    }
}

/// The kernel's lane plans on uniform terms end every finish but none (the first tile) by the
/// planned pass (it is used, not ignored), and the kill inputs keep the loop's bits.
#[test]
fn kernel_lane_plans_end_finishes() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0x91a7);
    let t = terms(0, 16 * KERNEL.tile(), &mut rng);
    let words = tree_words(&t, KERNEL);
    let (got, counts) = walk(&t, KERNEL, &words, 0.0);
    assert_eq!(got, loop_bits(0.0, &t), "seed 0x91a7 uniform");
    assert!(
        counts.finished >= 1 && counts.planned == counts.finished,
        "seed 0x91a7: {counts:?}"
    );
    for (name, t) in planned_finish_inputs(KERNEL.tile()) {
        for start in [0.0, -0.0] {
            let words = tree_words(&t, KERNEL);
            let (got, counts) = walk(&t, KERNEL, &words, start);
            assert!(
                same_result::<F64>(got, loop_bits(start, &t)),
                "{name} from {start:?}: {got:#018x} ({counts:?})"
            );
        }
    }
}

/// In the kernel's shape with the tree sums' plans and split lanes, a segmented step ends
/// crossings inside its walk on uniform terms from +0 (whose sum crosses a binade in tiles 1,
/// 3, 7, ...: the walk is used, not bypassed), and the step's kill input, whose segment the
/// loop leaves two tiles before its end, keeps the loop's bits from +0 and -0 with one run
/// a step and with segments.
#[test]
fn seg_steps_end_crossings_in_the_walk() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0x5e95);
    let t = terms(0, 40 * KERNEL.tile(), &mut rng);
    let words = tree_words(&t, KERNEL);
    let (got, counts) = walk(&t, KERNEL, &words, 0.0);
    assert_eq!(got, loop_bits(0.0, &t), "seed 0x5e95 uniform");
    assert!(
        counts.walk_split_ends >= 3 && counts.walk_split_ends <= counts.split_ends,
        "seed 0x5e95: {counts:?}"
    );
    let (name, t) = step_search_input(KERNEL.tile());
    for (seg_step, last_first) in [(false, false), (true, false), (true, true)] {
        let shape = ModelShape {
            seg_step,
            last_first,
            ..KERNEL
        };
        let words = tree_words(&t, shape);
        for start in [0.0, -0.0] {
            let (got, counts) = walk(&t, shape, &words, start);
            assert!(
                same_result::<F64>(got, loop_bits(start, &t)),
                "{name} from {start:?}, seg_step {seg_step}, last_first {last_first}: {got:#018x} ({counts:?})"
            );
        }
    }
}

/// With exact plans on uniform terms most tiles compose (the plan is used, not ignored).
#[test]
fn exact_plans_compose_most_tiles() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0x3a1c);
    let t = terms(0, 64 * 4096, &mut rng);
    let shape = WIDE;
    let words = publish(&t, shape, &exact_plans(&t, shape));
    let (got, counts) = walk(&t, shape, &words, 0.0);
    assert_eq!(got, loop_bits(0.0, &t), "seed 0x3a1c uniform");
    assert!(
        counts.finished * 20 < words.len() as u64,
        "seed 0x3a1c: {counts:?} of {} tiles",
        words.len()
    );
}

/// With the tree sums' plans and split lanes on uniform terms, the walker ends most crossing
/// tiles by their split words (the split is used, not ignored): at least four for each tile
/// it finishes after the first.
#[test]
fn tree_split_lanes_end_crossings() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0x5b1d);
    let t = terms(0, 64 * 4096, &mut rng);
    let shape = WIDE;
    let words = tree_words(&t, shape);
    let (got, counts) = walk(&t, shape, &words, 0.0);
    assert_eq!(got, loop_bits(0.0, &t), "seed 0x5b1d uniform");
    assert!(
        counts.split_ends > 0 && counts.split_ends >= 4 * counts.finished.saturating_sub(1),
        "seed 0x5b1d: {counts:?} of {} tiles",
        words.len()
    );
}

/// Each fault of the model gives a wrong sum on some case of the property's generator
/// (seeds searched in order, the first wrong one printed), so the property can fail.
#[test]
fn every_model_fault_gives_a_wrong_sum() {
    let mut survivors = Vec::new();
    for fault in ModelFault::ALL.into_iter().skip(1) {
        let found = (0u64..20_000).find_map(|seed| {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            let kind = rng.random_range(0..12u8);
            let plan = rng.random_range(0..4u8);
            let len = rng.random_range(0..700usize);
            let shape = ModelShape {
                lane: rng.random_range(1..6),
                lanes: rng.random_range(1..6),
                step: rng.random_range(1..6),
                finish_in_step: seed % 2 == 1,
                planned: seed % 4 < 2,
                seg_step: seed % 8 < 4,
                fetch_splits: seed % 16 < 4,
                last_first: seed % 32 < 16,
            };
            let split = rng.random_range(0..3u8);
            let t = terms(kind, len, &mut rng);
            let p = plans(plan, &t, shape, &mut rng);
            let l = split_lanes(split, &t, shape, &mut rng);
            let words = publish_split(&t, shape, &p, &l);
            let (got, _) = walk_with(&t, shape, &words, 0.0, fault);
            let want = loop_bits(0.0, &t);
            (!same_result::<F64>(got, want)).then(|| {
                format!("seed {seed:#x} kind {kind} plan {plan} split {split} len {len} {shape:?}: {got:#018x}, the loop {want:#018x}")
            })
        });
        // The planned finish's faults need runs the loop leaves early, native lanes inside
        // a binade, or two runs in one tile, and the segmented step's search a segment the
        // loop leaves before its last tile: the kernel's kill inputs, in the kernel's shape.
        let found = found.or_else(|| {
            planned_finish_inputs(KERNEL.tile())
                .into_iter()
                .chain(std::iter::once(step_search_input(KERNEL.tile())))
                .find_map(|(name, t)| {
                    let words = tree_words(&t, KERNEL);
                    let (got, _) = walk_with(&t, KERNEL, &words, 0.0, fault);
                    let want = loop_bits(0.0, &t);
                    (!same_result::<F64>(got, want))
                        .then(|| format!("{name}: {got:#018x}, the loop {want:#018x}"))
                })
        });
        match found {
            Some(case) => println!("{fault:?} killed: {case}"),
            None => survivors.push(fault),
        }
    }
    assert!(
        survivors.is_empty(),
        "model faults not killed: {survivors:?}"
    );
}

/// The stall cap's argument (`walked::stall_cap_f32`, the kernel's `wk_cap`): for a largest
/// term m, every f32 sum S at or above the cap absorbs every term x in [0, m] (S + x == S in
/// f32), and at half the cap, just below it, the sum still moves for x = m (the cap is not
/// set needlessly high: a plan that stalls too late costs finishes). m and S are drawn over
/// every binade from a seed (xoshiro256++), printed on failure.
#[test]
fn stall_cap_absorbs_every_term_of_its_tile() {
    use binade::gpu::ordered_sum::walked::stall_cap_f32;
    let seed = 0x57a1_1ca9_u64;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut checked = 0u64;
    for case in 0..200_000u64 {
        let m = f32::from_bits(rng.random_range(1..0x7f80_0000u32));
        let cap = stall_cap_f32(m);
        if cap.is_infinite() {
            // Only where 2^(k+25) passes f32's largest binade.
            assert!(
                m > 2f32.powi(102),
                "seed {seed:#x} case {case}: m {m:e} has no cap"
            );
            continue;
        }
        let cap32 = cap as f32;
        assert_eq!(
            f64::from(cap32),
            cap,
            "seed {seed:#x} case {case}: cap {cap:e} not an f32"
        );
        let s = f32::from_bits(rng.random_range(cap32.to_bits()..0x7f80_0000));
        let x = m * rng.random::<f32>();
        for t in [m, x, 0.0] {
            assert_eq!(
                (s + t).to_bits(),
                s.to_bits(),
                "seed {seed:#x} case {case}: m {m:e}, cap {cap:e}, S {s:e}: S + {t:e} moved"
            );
        }
        // Just below the cap (cap / 2 in ulps of cap / 4 ...) the largest term still moves
        // the sum where it is at least half an ulp there: m >= 2^k = half an ulp of the
        // binade below the cap, so the largest odd sum there moves up.
        let below = f32::from_bits(cap32.to_bits() - 1);
        if below.is_normal() && (below.to_bits() & 1) == 1 {
            assert_ne!(
                (below + m).to_bits(),
                below.to_bits(),
                "seed {seed:#x} case {case}: m {m:e}: the sum just below the cap {cap:e} did not move"
            );
        }
        checked += 1;
    }
    assert!(
        checked > 100_000,
        "seed {seed:#x}: only {checked} cases had a cap"
    );
    assert_eq!(stall_cap_f32(0.0), 0.0);
    assert_eq!(stall_cap_f32(0.75), 2f64.powi(24));
    assert!(stall_cap_f32(f32::INFINITY).is_infinite() && stall_cap_f32(-1.0).is_infinite());
}

/// The stall cap as a plan, on the host model of the f32 plans (`walked_model::
/// tree_plans_f32` against `exact_plans_f32`, 4,096-term tiles): on 2^24 and then 2^26 - 1
/// uniform f32 terms, whose f32 loop stays at 2^24, the uncapped plans miss the loop's binade
/// on every tile after the tree sums pass 2^25 (half of them) and the capped ones on almost
/// none; on a stream
/// that grows (each term 1 + u times 2^(i / 2^22)) the cap changes no plan. Seeded
/// (xoshiro256++), printed on failure.
#[test]
fn stall_cap_plans_follow_the_stalled_f32_loop() {
    use binade::verify::walked_model::{exact_plans_f32, tree_plans_f32};
    let seed = 0xca9_5eed_u64;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let tile = 4096;
    let misses = |terms: &[f32], capped: bool| {
        let want = exact_plans_f32(terms, tile);
        plan_misses(seed, &want, &tree_plans_f32(terms, tile, capped))
    };
    // 2^24 first, so the loop stalls at once; the tree sums leave its binade after 2^25
    // terms (as they do after 2^26 terms of a stream from 0, whose loop reaches 2^24 after 2^25).
    let uniform: Vec<f32> = std::iter::once(16_777_216.0f32)
        .chain((1..1usize << 26).map(|_| rng.random::<f64>() as f32))
        .collect();
    let tiles = uniform.len() / tile;
    let (plain, capped) = (misses(&uniform, false), misses(&uniform, true));
    println!("uniform f32, {tiles} tiles: uncapped plans miss {plain}, capped {capped}");
    assert!(
        plain > tiles / 3 && capped < tiles / 1000,
        "seed {seed:#x}: uniform f32 plans missed {plain} uncapped, {capped} capped of {tiles}"
    );
    let growing: Vec<f32> = (0..1usize << 24)
        .map(|i| ((1.0 + rng.random::<f64>()) * 2f64.powf(i as f64 / 4_194_304.0)) as f32)
        .collect();
    let (plain, capped) = (misses(&growing, false), misses(&growing, true));
    println!("growing f32: uncapped plans miss {plain}, capped {capped}");
    assert_eq!(
        plain, capped,
        "seed {seed:#x}: the cap changed the plans of a growing stream"
    );
}

/// The moves' argument (`walked_model::move_f32`, the kernel's `BINADE_WK_MOVES`): from an f32
/// sum in binade b, a tile whose terms hold no tie at b's ulp moves the f32 loop by
/// `u_b * sum rint(x / u_b)` for as long as the loop stays in b. 100,000 seeded cases of 16
/// terms, each below 2^k times the ulp (k drawn in 0..=26, so from terms that mostly round
/// away to terms far above the ulp), from a start anywhere in its binade; the cases whose
/// loop leaves the binade or meets a tie are skipped, and at least half must be checked.
#[test]
fn move_f32_is_the_loops_move_inside_its_binade() {
    use binade::verify::walked_model::move_f32;
    let seed = 0x30e5_5eed_u64;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let (mut checked, cases) = (0usize, 100_000usize);
    for case in 0..cases {
        let b: u32 = rng.random_range(30..=200);
        let ulp = 2f64.powi(b as i32 - 150);
        let start = (2f64.powi(b as i32 - 127) * (1.0 + rng.random::<f64>())) as f32;
        let k: i32 = rng.random_range(0..=26);
        let tile: Vec<f32> = (0..16)
            .map(|_| (rng.random::<f64>() * ulp * 2f64.powi(k)) as f32)
            .collect();
        let tie = tile.iter().any(|&x| {
            let q = f64::from(x) / ulp;
            q - q.floor() == 0.5
        });
        let mut s = start;
        let mut inside = f32_field(s) == b;
        for &x in &tile {
            s += x;
            inside &= f32_field(s) == b;
        }
        if tie || !inside || f32_field(start) != b {
            continue;
        }
        checked += 1;
        let want = f64::from(start) + move_f32(&tile, b);
        assert_eq!(
            f64::from(s).to_bits(),
            want.to_bits(),
            "seed {seed:#x} case {case}: b {b}, start {start:e}, terms {tile:?}: loop {s:e}, start + move {want:e}"
        );
    }
    println!("{checked} of {cases} cases checked: the loop's bits");
    assert!(
        checked >= cases / 2,
        "seed {seed:#x}: only {checked} of {cases} cases stayed in their binade without a tie"
    );
}

/// Tiles whose plan differs from the wanted one. Every tile's plan is compared: a list of
/// another length is a wrong list, not fewer misses (it fails, with the seed).
fn plan_misses(seed: u64, want: &[u32], got: &[u32]) -> usize {
    assert_eq!(
        got.len(),
        want.len(),
        "seed {seed:#x}: plans for {} of {} tiles",
        got.len(),
        want.len()
    );
    want.iter().zip(got).filter(|(a, b)| a != b).count()
}

/// The f32 field of a value's binade (its exponent field; 0 for zero and subnormals).
fn f32_field(v: f32) -> u32 {
    (v.to_bits() >> 23) & 0xff
}

/// `n` log-normal terms with sigma 3 rounded to f32, from `rng` (Box-Muller on two uniform
/// doubles a term).
fn log_normal_f32(rng: &mut Xoshiro256PlusPlus, n: usize) -> Vec<f32> {
    (0..n)
        .map(|_| {
            let (u1, u2) = (rng.random::<f64>(), rng.random::<f64>());
            let z = (-2.0 * (1.0 - u1).ln()).sqrt() * (std::f64::consts::TAU * u2).cos();
            (3.0 * z).exp() as f32
        })
        .collect()
}

/// The parity-carrying move's argument (`walked_model::parity_move_f32`): from an f32 sum in
/// binade b, an odd or even multiple of b's ulp, a tile moves the f32 loop by exactly that
/// move for as long as the loop stays in b, ties included. 100,000 seeded cases of 16 terms
/// on b's half-ulp grid (so about half the terms are ties), each below 2^k ulps (k in
/// 0..=10), from a start anywhere in its binade; the cases whose loop leaves the binade are
/// skipped, and at least half must be checked, a third of them with a tie that
/// `walked_model::move_f32` (each term rounded as if from an even sum) gets wrong.
#[test]
fn parity_move_f32_is_the_loops_move_inside_its_binade() {
    use binade::verify::walked_model::{move_f32, parity_move_f32};
    let seed = 0x9a41_7e5e_u64;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let (mut checked, mut unlike, cases) = (0usize, 0usize, 100_000usize);
    for case in 0..cases {
        let b: u32 = rng.random_range(30..=200);
        let ulp = 2f64.powi(b as i32 - 150);
        let start = (2f64.powi(b as i32 - 127) * (1.0 + rng.random::<f64>())) as f32;
        let k: i32 = rng.random_range(0..=10);
        let tile: Vec<f32> = (0..16)
            .map(|_| {
                let halves = (rng.random::<f64>() * 2f64.powi(k + 1)).floor();
                (halves * 0.5 * ulp) as f32
            })
            .collect();
        let mut s = start;
        let mut inside = f32_field(s) == b;
        for &x in &tile {
            s += x;
            inside &= f32_field(s) == b;
        }
        if !inside || f32_field(start) != b {
            continue;
        }
        checked += 1;
        let odd = (f64::from(start) / ulp) % 2.0 != 0.0;
        let want = f64::from(start) + parity_move_f32(&tile, b, odd);
        assert_eq!(
            f64::from(s).to_bits(),
            want.to_bits(),
            "seed {seed:#x} case {case}: b {b}, start {start:e} (odd {odd}), terms {tile:?}: loop {s:e}, start + move {want:e}"
        );
        unlike += usize::from(f64::from(start) + move_f32(&tile, b) != want);
    }
    println!("{checked} of {cases} cases checked: the loop's bits; move_f32 unlike in {unlike}");
    assert!(
        checked >= cases / 2 && unlike >= checked / 3,
        "seed {seed:#x}: {checked} of {cases} cases stayed in their binade, {unlike} with a tie move_f32 gets wrong"
    );
}

/// The threads' split of a tile (`walked_model::thread_parity_move_f32`: each thread's pairs
/// 2 (j threads + i) and the terms after them, as `wk_load` lays them out) takes every term
/// once: where no term is a tie (every term a whole number of b's ulps, so each adds exactly
/// its ulps, whatever the parity) the threads' moves add up to the whole tile's
/// `parity_move_f32`. 2,000 seeded tiles of 1 to 4,096 terms, split over 1 to 256 threads.
#[test]
fn thread_parity_move_f32_takes_each_term_once() {
    use binade::verify::walked_model::{parity_move_f32, thread_parity_move_f32};
    let seed = 0x7e4d_5011_u64;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    for case in 0..2_000 {
        let b: u32 = rng.random_range(30..=200);
        let ulp = 2f64.powi(b as i32 - 150);
        let len: usize = rng.random_range(1..=4096);
        let threads: usize = rng.random_range(1..=256);
        let tile: Vec<f32> = (0..len)
            .map(|_| (f64::from(rng.random_range(0u32..1 << 10)) * ulp) as f32)
            .collect();
        let whole = parity_move_f32(&tile, b, false);
        let split = thread_parity_move_f32(&tile, b, threads);
        assert_eq!(
            split.to_bits(),
            whole.to_bits(),
            "seed {seed:#x} case {case}: b {b}, {len} terms over {threads} threads: split {split}, whole {whole}"
        );
    }
}

/// The kernel's form of the parity move (`walked_model::chained_move_f32`: the sum in ulps,
/// M = rint(M + n), one add and one rint a term) is `parity_move_f32` from an even start, by
/// bits: 100,000 seeded tiles of 16 terms, half on the binade's half-ulp grid (ties about half
/// the terms) and half any f32 below 2^k ulps (k in 0..=10), at binades 30 to 200. Seeded
/// (xoshiro256++), the case printed on failure.
#[test]
fn chained_move_f32_is_the_parity_move_from_an_even_start() {
    use binade::verify::walked_model::{chained_move_f32, parity_move_f32};
    let seed = 0xc4a1_4ed0_u64;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut tied = 0usize;
    for case in 0..100_000usize {
        let b: u32 = rng.random_range(30..=200);
        let ulp = 2f64.powi(b as i32 - 150);
        let k: i32 = rng.random_range(0..=10);
        let grid = case % 2 == 0;
        let tile: Vec<f32> = (0..16)
            .map(|_| {
                let n = rng.random::<f64>() * 2f64.powi(k);
                let n = if grid { (n * 2.0).floor() * 0.5 } else { n };
                (n * ulp) as f32
            })
            .collect();
        let want = parity_move_f32(&tile, b, false);
        let got = chained_move_f32(&tile, b);
        assert_eq!(
            got.to_bits(),
            want.to_bits(),
            "seed {seed:#x} case {case}: b {b}, terms {tile:?}: chained {got:e}, parity move {want:e}"
        );
        tied += usize::from(tile.iter().any(|&x| (f64::from(x) / ulp).fract() == 0.5));
    }
    assert!(
        tied >= 40_000,
        "seed {seed:#x}: only {tied} tiles had a tie"
    );
}

/// The threads of the walked f32 engine's block, whose own terms `Moves::Parity` chains.
const KERNEL_THREADS: usize =
    binade::gpu::ordered_sum::walked::WalkedShape::DEFAULT_F32.threads as usize;

/// `n` f32 terms shaped like `gpu-timing-f32`'s half-ties stream (the kernels' fill kind 2 on
/// the f32 grid) from its term 2^24 on, after one term of 2^22 (about the loop's sum there):
/// term i > 0 is 1 - q, q uniform in [0.5, 1), snapped to half an ulp of an f32 sum near
/// (i + 2^24 + 4) / 4, so that the terms are multiples of half the sum's ulp and many are
/// ties at its binade; from `rng`. The loop reaches 2^23 and stalls there (every later term
/// is 0 or a tie, half its ulp) within 2^25 terms.
fn half_ties_f32(rng: &mut Xoshiro256PlusPlus, n: usize) -> Vec<f32> {
    std::iter::once(4_194_304.0f32)
        .chain((1..n).map(|i| {
            let near = (i as f64 + 16_777_220.0) * 0.25;
            let grid = (near.log2().floor() - 24.0).exp2();
            let d = 1.0 - (0.5 + 0.5 * rng.random::<f64>());
            ((d / grid).round_ties_even() * grid) as f32
        }))
        .collect()
}

/// The half-ties f32 stream's plans (`reports/walked-ties`): moves rounded term by term as
/// if from an even sum (`moves_plans_f32`, the kernel's `Moves::On`) lag the loop, which
/// takes ties from odd sums the other way, so they reach 2^23 about a thousand tiles after
/// the loop stalls there, and miss those tiles; moves that carry the sum's parity through each tile in order
/// (`parity_moves_plans_f32`) follow the loop but for the tiles just before it reaches 2^23:
/// the first `far` tiles have no window and add their tree sums, above the loop's
/// moves here, so the prefix reaches 2^23 up to far / 4 tiles early (2 at far 8, 16 at far
/// 64 on this seed). The kernel's `Moves::Parity`, each of its 256 threads chaining its own terms
/// from an even start (`thread_parity_moves_plans_f32`), must miss at most a tenth as many as
/// the per-term moves (61 and 46 against 1,021 and 992 on this seed). Seeded
/// (xoshiro256++), printed on failure.
#[test]
fn parity_moves_follow_the_f32_loop_of_half_ties() {
    use binade::verify::walked_model::{
        exact_plans_f32, moves_plans_f32, parity_moves_plans_f32, thread_parity_moves_plans_f32,
    };
    let seed = 0x7_1e5_u64;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let tile = 4096;
    let terms = half_ties_f32(&mut rng, 1 << 25);
    let want = exact_plans_f32(&terms, tile);
    for far in [8, 64] {
        let moves = plan_misses(seed, &want, &moves_plans_f32(&terms, tile, far));
        let parity = plan_misses(seed, &want, &parity_moves_plans_f32(&terms, tile, far));
        let threads = plan_misses(
            seed,
            &want,
            &thread_parity_moves_plans_f32(&terms, tile, KERNEL_THREADS, far),
        );
        println!(
            "half ties f32, {} tiles, far {far}: moves miss {moves}, parity moves {parity}, by {KERNEL_THREADS} threads {threads}",
            want.len()
        );
        assert!(
            moves >= 900 && parity <= far / 4 && threads * 10 <= moves,
            "seed {seed:#x}, far {far}: plans missed {moves} (moves), {parity} (parity moves) and {threads} (by threads) of {} tiles",
            want.len()
        );
    }
}

/// Plans from the f32 loop's moves (`walked_model::moves_plans_f32`, the kernel's
/// `BINADE_WK_MOVES`) against plans from tree sums under the stall cap, on 2^25 log-normal f32
/// terms (exp(3 z), z normal by Box-Muller; `gpu-timing-f32`'s stream): where the loop's
/// sum is large against most terms it moves far less than their tree sums, so the tree sums'
/// plans run ahead of it by a binade on many tiles; the moves' plans (window base 64 tiles
/// back) must miss at most a tenth as many. Seeded (xoshiro256++), printed on failure.
#[test]
fn moves_plans_follow_the_f32_loop_of_log_normal_terms() {
    use binade::verify::walked_model::{
        exact_plans_f32, moves_plans_f32, thread_parity_moves_plans_f32, tree_plans_f32,
    };
    let seed = 0x109a_05ee_d000_u64;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let tile = 4096;
    let terms = log_normal_f32(&mut rng, 1 << 25);
    let want = exact_plans_f32(&terms, tile);
    let miss = |got: Vec<u32>| plan_misses(seed, &want, &got);
    let tree = miss(tree_plans_f32(&terms, tile, true));
    let moves = miss(moves_plans_f32(&terms, tile, 64));
    let parity = miss(thread_parity_moves_plans_f32(
        &terms,
        tile,
        KERNEL_THREADS,
        64,
    ));
    println!(
        "log-normal f32, {} tiles: tree-sum plans miss {tree}, moves {moves}, parity moves by {KERNEL_THREADS} threads {parity}",
        want.len()
    );
    assert!(
        tree >= 100 && moves.max(parity) * 10 <= tree,
        "seed {seed:#x}: plans missed {tree} (tree sums), {moves} (moves) and {parity} (parity moves) of {} tiles",
        want.len()
    );
}

/// Look-backs whose span crosses a binade (`EarlyPasses::Running`, the kernel's
/// `Moves::Crossing`): on the geometric f32 stream, whose terms are about an ulp of the sum so
/// that each tile's move depends on its binade, look-backs that reach 256 tiles back and move
/// every tile from the base's binade move the tiles after a crossing at the binade below (half
/// the quantum), and the plans miss more the longer the look-backs (16 tiles at 16 back, 20 at
/// 65, 43 at 256, 66 at 1,024 on this seed's 4 crossings); moved from the running prefix's
/// binade they stay at the shortest look-backs' 16. Pinned, with the bound: a rule that moved
/// from another binade changes the count. Seeded (xoshiro256++), printed on failure.
#[test]
fn look_backs_across_a_crossing_move_from_the_running_binade() {
    use binade::verify::walked_model::{lookback_plans_f32, EarlyPasses};
    let (seed, tile, terms, want) = geometric_case();
    let miss = |early| {
        plan_misses(
            seed,
            &want,
            &lookback_plans_f32(&terms, tile, 1024, 256, early),
        )
    };
    let (base, running) = (miss(EarlyPasses::BaseBinade), miss(EarlyPasses::Running));
    println!(
        "geometric f32, {} tiles, look-backs of 256 tiles: {base} missed from the base's binade, {running} from the running prefix's",
        want.len()
    );
    assert!(
        running * 2 <= base,
        "seed {seed:#x}: plans missed {running} (running binade) and {base} (base's) of {} tiles",
        want.len()
    );
    assert_eq!(
        (base, running),
        (43, 16),
        "seed {seed:#x}: misses of the two rules at 256 tiles back"
    );
}

/// The geometric f32 case the crossing tests share: its seed, tiles of 4,096 terms, 2^25 terms
/// of [`geometric_f32`] (4 crossings) and the loop's plans (`walked_model::exact_plans_f32`).
fn geometric_case() -> (u64, usize, Vec<f32>, Vec<u32>) {
    let seed = 0x10_0cba_c5ed_u64;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let tile = 4096;
    let terms = geometric_f32(&mut rng, 1 << 25);
    let want = binade::verify::walked_model::exact_plans_f32(&terms, tile);
    (seed, tile, terms, want)
}

/// The table of `reports/walked-crossings`: on [`geometric_case`], the tiles missed by
/// look-backs of 16, 65, 256 and 1,024 tiles (windows 1,024 back) that move every tile from the
/// base's binade and from the running prefix's (`EarlyPasses::BaseBinade`, `Running`).
/// Printed, not checked (the row at 256 is, by
/// `look_backs_across_a_crossing_move_from_the_running_binade`); about a minute.
#[test]
#[ignore]
fn look_back_lengths_on_the_geometric_stream() {
    use binade::verify::walked_model::{lookback_plans_f32, EarlyPasses};
    let (seed, tile, terms, want) = geometric_case();
    for depth in [16, 65, 256, 1024] {
        let miss = |early| {
            plan_misses(
                seed,
                &want,
                &lookback_plans_f32(&terms, tile, 1024, depth, early),
            )
        };
        println!(
            "look-backs of {depth} tiles: {} missed from the base's binade, {} from the running prefix's, of {} tiles",
            miss(EarlyPasses::BaseBinade),
            miss(EarlyPasses::Running),
            want.len()
        );
    }
}

/// `n` f32 terms whose loop sum crosses a binade every 2^23 terms from 2^-120 (each term
/// between a half and one times 2^(i / 2^23 - 120), about an ulp of the sum at its position:
/// `gpu-timing-f32`'s geometric stream), from `rng`.
fn geometric_f32(rng: &mut Xoshiro256PlusPlus, n: usize) -> Vec<f32> {
    (0..n)
        .map(|i| {
            let u = rng.random::<f64>();
            ((0.5 + 0.5 * u) * (i as f64 / 8_388_608.0 - 120.0).exp2()) as f32
        })
        .collect()
}

/// The moves' window binade where the prefix has left the window's base (`moves_plans_f32`'s
/// "mb + 1 above it"): on the geometric f32 stream, whose terms are about an ulp of the sum so
/// that the loop's rounding decides its moves, the tiles just after each crossing have their
/// prefix one binade above the base `far` tiles back. Moved at mb + 1 (the sum's binade) they
/// follow the loop on every tile; moved at mb (half the quantum: each term rounds to a finer
/// grid and the tile moves nearer its tree sum) the plans miss 3 tiles at far 8 and 22 at
/// far 64 (cargo-mutants' `>` to `<` at the rule, measured with a copy of the model; missed by
/// the log-normal test's bound). Seeded (xoshiro256++), printed on failure.
#[test]
fn moves_after_a_crossing_take_the_sums_binade() {
    use binade::verify::walked_model::moves_plans_f32;
    let (seed, tile, terms, want) = geometric_case();
    for far in [8, 64] {
        let misses = plan_misses(seed, &want, &moves_plans_f32(&terms, tile, far));
        assert_eq!(
            misses,
            0,
            "seed {seed:#x}, far {far}: the moves' plans missed {misses} of {} tiles",
            want.len()
        );
    }
}

/// At f32's largest binade (field 254) a window's upper binade would pass the format, so the
/// kernel opens none (`wk_moves_binade`) and its plans, like `moves_plans_f32`'s, add the
/// tiles' tree sums under the stall cap. On a stream that starts at 15 * 2^124 and adds terms
/// of about 0.7 of the sum's ulp (2^104), the loop adds a whole ulp a term and overflows after
/// about 2^20 terms, the tree sums after about 2^20 / 0.7: the moves' plans must be the capped
/// tree sums' tile for tile (moved at binade 254 instead they would follow the loop; a prefix
/// at or above 2^127, cargo-mutants' `||` to `&&` in the rule, was in no test), and those run
/// past the loop's overflow on at least 100 tiles (so that a move at 254 would differ).
/// Seeded (xoshiro256++), printed on failure.
#[test]
fn moves_open_no_window_at_the_largest_binade() {
    use binade::verify::walked_model::{exact_plans_f32, moves_plans_f32, tree_plans_f32};
    let seed = 0xfe0b_1ade_u64;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let tile = 4096;
    let ulp = 2f64.powi(104);
    let mut terms = vec![(15.0 * 2f64.powi(124)) as f32];
    terms.extend((0..(3usize << 19)).map(|_| ((0.65 + 0.1 * rng.random::<f64>()) * ulp) as f32));
    let want = exact_plans_f32(&terms, tile);
    let tree = tree_plans_f32(&terms, tile, true);
    for far in [1, 64] {
        let moves = moves_plans_f32(&terms, tile, far);
        let first = moves.iter().zip(&tree).position(|(a, b)| a != b);
        assert_eq!(
            first, None,
            "seed {seed:#x}, far {far}: the moves' plans leave the tree sums' at tile {first:?}"
        );
    }
    let misses = plan_misses(seed, &want, &tree);
    println!(
        "from 15 * 2^124: the tree sums' plans miss {misses} of {} tiles",
        want.len()
    );
    assert!(
        misses >= 100,
        "seed {seed:#x}: the tree sums' plans missed only {misses} of {} tiles",
        want.len()
    );
}

/// The walked kernel's rule for a look-back's passes before the pass that holds its base
/// (`walked_model::lookback_plans_f32`, `EarlyPasses`): on `gpu-timing-f32`'s geometric f32
/// stream (a binade every 2^23 terms, each term between a half and one times its position's
/// scale: about an ulp of the sum, so the loop's moves are far from the tree sums), with every
/// look-back reaching 65 tiles back (two passes before the base's, as on the device:
/// `reports/walked-moves`) and windows 1,024 tiles back, moving those passes' tiles from the
/// window base, often a binade below the prefix, leaves the loop's binade on many tiles;
/// moving them from the base's binade must miss at most a quarter as many (20 against 110). Seeded
/// (xoshiro256++), printed on failure.
#[test]
fn long_look_backs_move_early_passes_from_the_bases_binade() {
    use binade::verify::walked_model::{lookback_plans_f32, EarlyPasses};
    let (seed, tile, terms, want) = geometric_case();
    let miss = |got: Vec<u32>| plan_misses(seed, &want, &got);
    let base = miss(lookback_plans_f32(
        &terms,
        tile,
        1024,
        65,
        EarlyPasses::BaseBinade,
    ));
    let window = miss(lookback_plans_f32(
        &terms,
        tile,
        1024,
        65,
        EarlyPasses::WindowBase,
    ));
    println!(
        "geometric f32, {} tiles: look-backs of 65 tiles miss {base} (early passes at the base's binade), {window} (at the window base)",
        want.len()
    );
    assert!(
        window >= 50 && base * 4 <= window,
        "seed {seed:#x}: plans missed {base} (base's binade) and {window} (window base) of {} tiles",
        want.len()
    );
    // Which passes count as before the base's is the rule the device's plan mutant
    // `Moves::BaseUnknown` models; on this seeded stream it misses exactly 110 tiles, and a
    // pass boundary moved by one tile or a pass or more changes that (cargo-mutants' `-` to `+`
    // and `/` to `*` in the pass arithmetic of `lookback_plans_f32`, missed by the bound above).
    assert_eq!(
        window, 110,
        "seed {seed:#x}: the window base's rule missed {window} tiles, 110 when this test was written"
    );
}

/// With no windows (far beyond the stream, so every word is a tile's tree sum) a look-back of
/// depth 0 (its base the tile just before) or 1 (one tile moved onto the base before that)
/// forms each prefix by the same operations as the chain of capped tree sums
/// (`tree_plans_f32`), so its plans are that chain's exactly, whichever passes it takes
/// from which binade. A look-back whose base is one tile late (cargo-mutants' `depth + 1` to
/// `depth * 1` in `lookback_plans_f32`, missed by the miss-count tests: at depth 0 it reads a
/// prefix not yet formed) or that counts its base's own tile again (`a + 1` to `a * 1`) fails
/// here; both were checked by hand. Seeded (xoshiro256++), printed on failure.
#[test]
fn shallow_look_backs_without_windows_are_the_tree_sums_chain() {
    use binade::verify::walked_model::{lookback_plans_f32, tree_plans_f32, EarlyPasses};
    let seed = 0x5_4a11_0b4c_u64;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let tile = 4096;
    let uniform: Vec<f32> = (0..1usize << 20).map(|_| rng.random::<f32>()).collect();
    let log_normal = log_normal_f32(&mut rng, 1 << 20);
    for (name, terms) in [("uniform", &uniform), ("log-normal", &log_normal)] {
        let want = tree_plans_f32(terms, tile, true);
        for depth in [0, 1] {
            for early in [EarlyPasses::BaseBinade, EarlyPasses::WindowBase] {
                let got = lookback_plans_f32(terms, tile, usize::MAX, depth, early);
                assert_eq!(
                    got, want,
                    "seed {seed:#x}, {name} f32, depth {depth}, {early:?}: plans differ from the chain of tree sums"
                );
            }
        }
    }
}

/// The half-ties f32 stream of `gpu-timing-f32` at about 10^8 terms (3 * 2^25, from term 0),
/// the plans' misses of the moves rounded term by term and of the parity-carrying moves at
/// far 8, 64 and 1,024 (`reports/walked-ties`; about 20 s in release builds, so not in the
/// suite: `cargo test --release --test walked_model -- --ignored --nocapture half_ties_at`).
#[test]
#[ignore]
fn half_ties_at_the_devices_size() {
    use binade::verify::walked_model::{
        exact_plans_f32, moves_plans_f32, parity_moves_plans_f32, thread_parity_moves_plans_f32,
        tree_plans_f32,
    };
    let seed = 0x7_1e5_u64;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let tile = 4096;
    let terms: Vec<f32> = (0..3usize << 25)
        .map(|i| {
            let grid = (((i as f64 + 4.0) * 0.25).log2().floor() - 24.0).exp2();
            let d = 1.0 - (0.5 + 0.5 * rng.random::<f64>());
            ((d / grid).round_ties_even() * grid) as f32
        })
        .collect();
    let want = exact_plans_f32(&terms, tile);
    let tree = plan_misses(seed, &want, &tree_plans_f32(&terms, tile, true));
    println!(
        "half ties f32 from term 0, {} terms, {} tiles: capped tree sums miss {tree}",
        terms.len(),
        want.len()
    );
    for far in [8, 64, 1024] {
        let moves = plan_misses(seed, &want, &moves_plans_f32(&terms, tile, far));
        let parity = plan_misses(seed, &want, &parity_moves_plans_f32(&terms, tile, far));
        let threads = plan_misses(
            seed,
            &want,
            &thread_parity_moves_plans_f32(&terms, tile, KERNEL_THREADS, far),
        );
        println!("far {far}: moves miss {moves}, parity moves {parity}, parity moves by {KERNEL_THREADS} threads {threads}");
        assert!(
            parity * 10 <= moves,
            "seed {seed:#x}, far {far}: moves {moves}, parity moves {parity}"
        );
    }
}
