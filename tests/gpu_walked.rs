//! The walked engine: the kernel compiles with NVRTC for every mutant and shape probed (no
//! device needed), and on a device every total equals the CPU loop's bits for every input
//! kind, size and start, identically over repeated launches, and each of its own mutants gives
//! a wrong total somewhere. Without NVRTC or a device the tests print `skipped: REASON`; with
//! `BINADE_REQUIRE_GPU=1` (the GPU machine) they fail instead. The cases are
//! `gpu::ordered_sum::walked_kill`'s, which the `mutations` kill matrix runs too.

use binade::format::{F32, F64};
use binade::gpu::ordered_sum::onepass::Distribution;
use binade::gpu::ordered_sum::walked::{
    compile_for, Early, Hint, Lookback, Margin, Moves, StallCap, WalkedMutant, WalkedShape,
    WalkedSum, WalkedTotal,
};
use binade::gpu::ordered_sum::walked_kill::{
    first_wrong, first_wrong_segmented, kill_cases, kill_cases_f32, segmented_cases, stale_words,
};
use binade::gpu::require::{nvrtc_or_skip, open_or_skip};
use binade::gpu::{Gpu, OnePassSum};
use binade::verify::inputs::InputKind;
use binade::walk::loop_sum;
use cudarc::driver::CudaSlice;

/// The shapes the probe times beside the engine's.
const SHAPES: [WalkedShape; 32] = [
    WalkedShape::DEFAULT,
    WalkedShape::FIRST,
    WalkedShape {
        prefetch: !WalkedShape::DEFAULT.prefetch,
        ..WalkedShape::DEFAULT
    },
    WalkedShape {
        finish_in_step: !WalkedShape::DEFAULT.finish_in_step,
        seg_step: false,
        fetch_splits: false,
        ..WalkedShape::DEFAULT
    },
    WalkedShape {
        min_blocks: 0,
        ..WalkedShape::DEFAULT
    },
    WalkedShape {
        per_thread: 8,
        min_blocks: 8,
        seg_step: false,
        fetch_splits: false,
        ..WalkedShape::DEFAULT
    },
    WalkedShape {
        threads: 128,
        min_blocks: 8,
        ..WalkedShape::DEFAULT
    },
    WalkedShape {
        hint: Hint::Off,
        far: 0,
        ..WalkedShape::DEFAULT
    },
    WalkedShape {
        hint: Hint::MarginIgnored,
        ..WalkedShape::DEFAULT
    },
    WalkedShape {
        lookback: Lookback::Wait,
        ..WalkedShape::DEFAULT
    },
    WalkedShape {
        lookback: Lookback::RangeIgnored,
        ..WalkedShape::DEFAULT
    },
    WalkedShape {
        hint: Hint::Off,
        lookback: Lookback::RangeIgnored,
        far: 0,
        ..WalkedShape::DEFAULT
    },
    WalkedShape {
        far: 0,
        ..WalkedShape::DEFAULT
    },
    WalkedShape {
        hint: Hint::FarMarginIgnored,
        ..WalkedShape::DEFAULT
    },
    WalkedShape {
        hint: Hint::FarMarginIgnored,
        far: 8,
        ..WalkedShape::DEFAULT
    },
    WalkedShape {
        fast_finish: true,
        split: false,
        planned: false,
        seg_step: false,
        fetch_splits: false,
        ..WalkedShape::DEFAULT
    },
    WalkedShape {
        trace: true,
        ..WalkedShape::DEFAULT
    },
    WalkedShape {
        fast_finish: true,
        split: false,
        planned: false,
        seg_step: false,
        fetch_splits: false,
        trace: true,
        ..WalkedShape::DEFAULT
    },
    WalkedShape {
        split: false,
        seg_step: false,
        fetch_splits: false,
        ..WalkedShape::DEFAULT
    },
    WalkedShape {
        split: false,
        seg_step: false,
        fetch_splits: false,
        trace: true,
        ..WalkedShape::DEFAULT
    },
    WalkedShape {
        planned: false,
        seg_step: false,
        fetch_splits: false,
        ..WalkedShape::DEFAULT
    },
    WalkedShape {
        seg_step: false,
        fetch_splits: false,
        ..WalkedShape::DEFAULT
    },
    WalkedShape {
        seg_step: false,
        fetch_splits: false,
        trace: true,
        ..WalkedShape::DEFAULT
    },
    WalkedShape {
        fetch_splits: false,
        ..WalkedShape::DEFAULT
    },
    WalkedShape {
        fetch_splits: false,
        trace: true,
        ..WalkedShape::DEFAULT
    },
    WalkedShape {
        margin: Margin::Mean,
        ..WalkedShape::DEFAULT
    },
    WalkedShape {
        tie_parity: false,
        ..WalkedShape::DEFAULT
    },
    WalkedShape {
        early: Early::Off,
        ..WalkedShape::DEFAULT
    },
    WalkedShape {
        early: Early::Shifted,
        ..WalkedShape::DEFAULT
    },
    WalkedShape {
        last_first: false,
        ..WalkedShape::DEFAULT
    },
    WalkedShape {
        ahead: true,
        ..WalkedShape::DEFAULT
    },
    WalkedShape::BUFFERED,
];

const SEED: u64 = 0x5eed_0003;

/// Sizes around the tile and lane boundaries, and a few thousand tiles.
fn sizes() -> Vec<usize> {
    let t = WalkedShape::DEFAULT.tile() as usize;
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

/// Which plan path a plan mutant changes, so its test can show that path was taken.
#[derive(Clone, Copy, Debug)]
enum PlanPath {
    /// Plans from the walker's hint (`WalkedTotal::hinted_plans`).
    Hint,
    /// Plans from a look-back's range (`WalkedTotal::ranged_plans`).
    Range,
    /// Plans from a far anchor (`WalkedTotal::far_plans`).
    Far,
    /// Not a plan: tiles whose unit took the tie path (`WalkedTotal::pair_tiles`).
    Tie,
    /// Not a plan: crossings a segmented step's walk ended by their split words
    /// (`WalkedTotal::walk_split_ends`), each found by that walk's search.
    WalkSplit,
}

/// Terms of the stream on which a plan mutant's path must be taken: 10^8 terms of
/// gpu-timing's "1 - q, half the terms ties" (`Distribution::SsimTies`, made on the device by
/// `OnePassSum::fill`), where the tie units slow the producers enough for the walker to keep
/// up: on the H200 at fcadd8d the engine's shape (then with pair units) planned that stream's
/// 24,415 tiles 5,752 times from the hint, 5,697 from a range and 3,964 from a far anchor
/// (`reports/walked-probe/fcadd8d`); on an H100 at 8a3ef12 with the tie corrections 6,775,
/// 5,430 and 2,941 (`reports/walked-tie-parity`); while the kill cases' sums (up to
/// 9,000,011 terms) plan few or none by the hint and the far anchor.
const PATH_TERMS: usize = 100_000_000;

/// A plan mutant's own path is taken and changes no bit: on [`PATH_TERMS`] terms, the total
/// is the loop's and the walker's count of `path`'s plans is not zero (a plan mutant whose
/// path never ran would pass its bits check without checking anything).
fn plan_path_taken(test: &str, shape: WalkedShape, path: PlanPath) {
    let Some(gpu) = open_or_skip(test) else {
        return;
    };
    let sum = WalkedSum::build(&gpu, shape, WalkedMutant::None).unwrap();
    let filler = OnePassSum::new(&gpu).unwrap();
    let s = gpu.stream();
    let mut terms: CudaSlice<f64> = s.alloc_zeros(PATH_TERMS).unwrap();
    filler
        .fill(&mut terms, SEED, Distribution::SsimTies)
        .unwrap();
    let want = loop_sum::<F64>(&s.clone_dtoh(&terms).unwrap()).to_bits();
    let mut job = sum.job(terms.slice(0..PATH_TERMS)).unwrap();
    let got = sum.run(&mut job).unwrap();
    let case = format!(
        "{} n={PATH_TERMS} seed={SEED:#x}, walked {shape:?}",
        Distribution::SsimTies.name()
    );
    assert_eq!(got.total.to_bits(), want, "{case}: {got:?}");
    let taken = match path {
        PlanPath::Hint => got.hinted_plans,
        PlanPath::Range => got.ranged_plans,
        PlanPath::Far => got.far_plans,
        PlanPath::Tie => got.pair_tiles,
        PlanPath::WalkSplit => got.walk_split_ends,
    };
    assert!(
        taken > 0,
        "{case}: no tile took {path:?}, so the check of that path checked nothing: {got:?}"
    );
    println!(
        "{case}: {taken} tiles by {path:?} of {} tiles, the loop's bits",
        got.tiles
    );
}

#[test]
fn walked_compiles_for_every_mutant_and_shape() {
    use rayon::prelude::*;
    if !nvrtc_or_skip("walked_compiles_for_every_mutant_and_shape") {
        return;
    }
    let mut builds: Vec<(WalkedShape, WalkedMutant)> = WalkedMutant::ALL
        .into_iter()
        .map(|m| (m.shape(), m))
        .collect();
    builds.extend(SHAPES.iter().map(|&s| (s, WalkedMutant::None)));
    builds.push((
        WalkedShape {
            hint: Hint::SharedAcrossSegments,
            ..WalkedShape::DEFAULT
        },
        WalkedMutant::None,
    ));
    for phases in 1..=3 {
        builds.push((
            WalkedShape {
                producers_only: true,
                phases,
                ..WalkedShape::DEFAULT
            },
            WalkedMutant::None,
        ));
    }
    // Every build but the fast finish's and the buffered producers' (written for f64 sums)
    // also for f32 terms.
    let f32_builds: Vec<(WalkedShape, WalkedMutant)> = builds
        .iter()
        .filter(|(shape, _)| !shape.fast_finish && !shape.buffer)
        .map(|&(shape, m)| (shape.with_f32_terms(), m))
        .collect();
    builds.extend(f32_builds);
    // The f32 engine's shape without the stall cap and the moves, without the moves, and
    // with their plan mutants.
    for shape in f32_plan_shapes() {
        builds.push((shape, WalkedMutant::None));
    }
    // The moves are a plan of f32 sums under the stall cap: a build without the cap is refused.
    assert!(
        WalkedSum::image(
            "sm_90",
            WalkedShape {
                stall_cap: StallCap::Off,
                ..WalkedShape::DEFAULT_F32
            },
            WalkedMutant::None
        )
        .is_err(),
        "an f32 build with the moves and without the stall cap accepted"
    );
    // The buffered producers take f64 terms: an f32 build of them is refused.
    assert!(
        WalkedSum::image(
            "sm_90",
            WalkedShape::BUFFERED.with_f32_terms(),
            WalkedMutant::None
        )
        .is_err(),
        "an f32 build of the buffered producers accepted"
    );
    // The cap is a plan of f32 sums: an f64 build with it is refused.
    assert!(
        WalkedSum::image(
            "sm_90",
            WalkedShape {
                stall_cap: StallCap::On,
                ..WalkedShape::DEFAULT
            },
            WalkedMutant::None
        )
        .is_err(),
        "an f64 build with the stall cap accepted"
    );
    let failed: Vec<String> = builds
        .par_iter()
        .filter_map(|&(shape, m)| {
            // The path the mutations experiment takes (the shape's check, then NVRTC in the
            // module form the environment names), on rayon's threads as it runs them.
            WalkedSum::image("sm_90", shape, m)
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
    let cases = kill_cases(SEED, &sizes(), shape.tile() as usize);
    let (checked, wrong) = first_wrong(&sum, &cases, 2).unwrap();
    assert!(wrong.is_none(), "walked {shape:?}: {}", wrong.unwrap());
    let (more, wrong) = stale_words(&sum, 1 << 25, SEED).unwrap();
    assert!(wrong.is_none(), "walked {shape:?}: {}", wrong.unwrap());
    println!("walked {shape:?}: {} sums, the loop's bits", checked + more);
}

#[test]
fn walked_equals_the_loop_engine_shape() {
    equals_the_loop("walked_equals_the_loop_engine_shape", SHAPES[0]);
}

#[test]
fn walked_equals_the_loop_first_shape() {
    equals_the_loop("walked_equals_the_loop_first_shape", SHAPES[1]);
}

#[test]
fn walked_equals_the_loop_prefetch_switched() {
    equals_the_loop("walked_equals_the_loop_prefetch_switched", SHAPES[2]);
}

#[test]
fn walked_equals_the_loop_finish_in_step_switched() {
    equals_the_loop("walked_equals_the_loop_finish_in_step_switched", SHAPES[3]);
}

#[test]
fn walked_equals_the_loop_registers_free() {
    equals_the_loop("walked_equals_the_loop_registers_free", SHAPES[4]);
}

#[test]
fn walked_equals_the_loop_small_tiles() {
    equals_the_loop("walked_equals_the_loop_small_tiles", SHAPES[5]);
}

#[test]
fn walked_equals_the_loop_narrow_blocks() {
    equals_the_loop("walked_equals_the_loop_narrow_blocks", SHAPES[6]);
}

/// Every plan by a look-back (the hint off), ranged as in the engine's shape.
#[test]
fn walked_equals_the_loop_look_back_plans() {
    equals_the_loop("walked_equals_the_loop_look_back_plans", SHAPES[7]);
}

/// A plan mutant: plans from the hint with its margin ignored. Plans change no bit, so this
/// must pass; were the hint able to change a total, this build would show it first.
#[test]
fn walked_equals_the_loop_hint_margin_ignored() {
    equals_the_loop("walked_equals_the_loop_hint_margin_ignored", SHAPES[8]);
    plan_path_taken(
        "walked_equals_the_loop_hint_margin_ignored",
        SHAPES[8],
        PlanPath::Hint,
    );
}

/// The plans' margin (`WalkedShape::margin`): the mean margin (`Margin::Mean`, SSIMULACRA2's
/// shape) and the engine's tile margin (`Margin::Tile`) each plan tiles from the walker's
/// hint on the path input and keep the loop's bits (a margin is a plan and changes no bit).
#[test]
fn walked_equals_the_loop_mean_margin() {
    equals_the_loop("walked_equals_the_loop_mean_margin", SHAPES[25]);
    plan_path_taken(
        "walked_equals_the_loop_mean_margin",
        SHAPES[25],
        PlanPath::Hint,
    );
    plan_path_taken(
        "walked_engine_hints_with_tile_margin",
        SHAPES[0],
        PlanPath::Hint,
    );
}

/// A tile with a tie takes its unit from its tie corrections (`WalkedShape::tie_parity`, the
/// engine's) or from the lanes' pair units (`tie_parity` off, the engine's through 8a3ef12):
/// each keeps the loop's bits on every kill case, and on 10^8 half-ties terms each takes the
/// tie path with the loop's bits (so neither passes without running its path).
#[test]
fn walked_equals_the_loop_pair_units() {
    equals_the_loop("walked_equals_the_loop_pair_units", SHAPES[26]);
    for shape in [SHAPES[0], SHAPES[26]] {
        plan_path_taken("walked_equals_the_loop_pair_units", shape, PlanPath::Tie);
    }
}

/// The look-back's first window (`WalkedShape::early`): the engine's shape (`Early::On`, its
/// first round from the words copied with the tile's terms) and the shape before it
/// (`Early::Off`, every round reads its words when it runs) each plan tiles by a ranged
/// look-back on the path input with the loop's bits (every tile's first look-back takes the
/// window's round, so the engine's ranged plans are look-backs that used it), and the shape
/// before it keeps the loop's bits on every kill case.
#[test]
fn walked_equals_the_loop_no_early_window() {
    equals_the_loop("walked_equals_the_loop_no_early_window", SHAPES[27]);
    for shape in [SHAPES[0], SHAPES[27]] {
        plan_path_taken(
            "walked_equals_the_loop_no_early_window",
            shape,
            PlanPath::Range,
        );
    }
}

/// A plan mutant: the early window read one tile late (`Early::Shifted`). Plans change no
/// bit, so this must pass; the ranged plans show its look-backs ran.
#[test]
fn walked_equals_the_loop_early_window_shifted() {
    equals_the_loop("walked_equals_the_loop_early_window_shifted", SHAPES[28]);
    plan_path_taken(
        "walked_equals_the_loop_early_window_shifted",
        SHAPES[28],
        PlanPath::Range,
    );
}

/// A segmented step's search for the crossing in a segment that does not apply: the
/// engine's, which tries the segment's last position first (`WalkedShape::last_first`), and
/// the shape that bisects from the segment's start. Both end crossings in their walks on the
/// path input with the loop's bits (so each search ran and found tiles whose split words
/// held), and the bisection keeps the loop's bits on every kill case.
#[test]
fn walked_equals_the_loop_last_position_first() {
    equals_the_loop("walked_equals_the_loop_last_position_first", SHAPES[29]);
    for shape in [SHAPES[0], SHAPES[29]] {
        plan_path_taken(
            "walked_equals_the_loop_last_position_first",
            shape,
            PlanPath::WalkSplit,
        );
    }
}

/// The first step composed before the first tile's sum is taken (`WalkedShape::ahead`, not
/// the engine's: on an H100 at 6a3e598 it did not pay, `reports/walked-ahead`): the loop's
/// bits on every kill case.
#[test]
fn walked_equals_the_loop_composed_ahead() {
    equals_the_loop("walked_equals_the_loop_composed_ahead", SHAPES[30]);
}

/// The buffered producers (`WalkedShape::BUFFERED`: the next tile copied into shared memory
/// while a producer works on its own, not the engine's): the loop's bits on every kill case,
/// and on every segmented case (sums of odd lengths and pitches, whose tiles are not all
/// whole or aligned and take the global read), twice on the same buffers, so the ticket
/// count of two draws past the last a block is checked by the second launch.
#[test]
fn walked_equals_the_loop_buffered() {
    equals_the_loop("walked_equals_the_loop_buffered", SHAPES[31]);
    segments_equal_the_loop("walked_equals_the_loop_buffered", &[SHAPES[31]]);
}

/// Look-backs that wait for every tree sum (before the ranged look-back became the engine's).
#[test]
fn walked_equals_the_loop_waiting_look_backs() {
    equals_the_loop("walked_equals_the_loop_waiting_look_backs", SHAPES[9]);
}

/// A plan mutant: look-backs that plan from the published tree sums alone, the range of the
/// missing ones ignored. Plans change no bit, so this must pass.
#[test]
fn walked_equals_the_loop_lookback_range_ignored() {
    equals_the_loop("walked_equals_the_loop_lookback_range_ignored", SHAPES[10]);
    plan_path_taken(
        "walked_equals_the_loop_lookback_range_ignored",
        SHAPES[10],
        PlanPath::Range,
    );
}

/// The same plan mutant with the hint off, so every tile but every eighth plans by it.
#[test]
fn walked_equals_the_loop_lookback_range_ignored_no_hint() {
    equals_the_loop(
        "walked_equals_the_loop_lookback_range_ignored_no_hint",
        SHAPES[11],
    );
    plan_path_taken(
        "walked_equals_the_loop_lookback_range_ignored_no_hint",
        SHAPES[11],
        PlanPath::Range,
    );
}

/// Plans without the far anchor (the engine's shape at 2368892).
#[test]
fn walked_equals_the_loop_no_far_anchor() {
    equals_the_loop("walked_equals_the_loop_no_far_anchor", SHAPES[12]);
}

/// A plan mutant: plans from the far anchor with its margin ignored (every tile the walker's
/// hint leaves is planned in the anchor's binade). Plans change no bit, so this must pass.
#[test]
fn walked_equals_the_loop_far_margin_ignored() {
    equals_the_loop("walked_equals_the_loop_far_margin_ignored", SHAPES[13]);
    plan_path_taken(
        "walked_equals_the_loop_far_margin_ignored",
        SHAPES[13],
        PlanPath::Far,
    );
}

/// The same plan mutant with the anchor 8 tiles back, so small sums plan by it too.
#[test]
fn walked_equals_the_loop_far_margin_ignored_near() {
    equals_the_loop("walked_equals_the_loop_far_margin_ignored_near", SHAPES[14]);
}

/// Finishes by fast rounds (an option, off in the engine's shape).
#[test]
fn walked_equals_the_loop_fast_finish() {
    equals_the_loop("walked_equals_the_loop_fast_finish", SHAPES[15]);
}

/// Crossings split by their producers (`WalkedShape::split`, the engine's shape): on
/// 8,294,400 uniform terms (a crossing at tiles 1, 2, 4, ..., 1,024) the split path is taken
/// in the engine's shape and its trace build: some tiles publish split words and the walker
/// ends some by them, never more than were published (a fast path that never ran would pass
/// the bits checks without checking anything), with the loop's bits. (The cases, the three
/// inputs whose split lane is off among them, run in the engine's shape in
/// `walked_equals_the_loop_engine_shape`.)
#[test]
fn walked_split_ends_crossings() {
    on_a_uniform_plane(
        "walked_split_ends_crossings",
        &[SHAPES[0], SHAPES[16]],
        |shape, got| {
            assert!(shape.split, "{shape:?}");
            got.split_ends > 0 && got.split_ends <= got.split_tiles
        },
    );
}

/// Each of `shapes` on 8,294,400 uniform terms (seed `SEED`): the loop's bits, and `took`
/// true of the total (the path the test is about was taken).
fn on_a_uniform_plane(
    test: &str,
    shapes: &[WalkedShape],
    took: impl Fn(WalkedShape, &WalkedTotal) -> bool,
) {
    let Some(gpu) = open_or_skip(test) else {
        return;
    };
    let n = 8_294_400;
    let terms = InputKind::Uniform.generate::<F64>(n, SEED);
    let want = loop_sum::<F64>(&terms).to_bits();
    for &shape in shapes {
        let sum = WalkedSum::build(&gpu, shape, WalkedMutant::None).unwrap();
        let got = sum.sum_of(&terms, 0.0).unwrap();
        assert_eq!(got.bits, want, "seed {SEED:#x}, {n} uniform terms: {got:?}");
        assert!(
            took(shape, &got),
            "{shape:?}, seed {SEED:#x}, {n} uniform terms: {got:?}"
        );
        println!("walked {shape:?}: {got:?}");
    }
}

/// Finishes tried by a planned pass first (`WalkedShape::planned`, the engine's shape): on
/// 8,294,400 uniform terms the sum's first tile (from +0, through about 12 binades) is
/// finished, and in the engine's shape and its trace build some finish is ended by the
/// planned pass, never more than the tiles finished (a fast path that never ran would pass
/// the bits checks without checking anything), with the loop's bits; the shape with every
/// finish by rounds ends none so. (The cases, the planned finish's three kill inputs among
/// them, run in the engine's shape in `walked_equals_the_loop_engine_shape`.)
#[test]
fn walked_planned_finishes_end_tiles() {
    on_a_uniform_plane(
        "walked_planned_finishes_end_tiles",
        &[SHAPES[0], SHAPES[16], SHAPES[20]],
        |shape, got| {
            if shape.planned {
                got.planned_finishes > 0 && got.planned_finishes <= got.finished_tiles
            } else {
                got.planned_finishes == 0
            }
        },
    );
}

/// Steps that end many crossings (`WalkedShape::seg_step`, the engine's shape): on 8,294,400
/// uniform terms, whose sum crosses a binade in tiles 1, 3, 7, ..., 1,023, the engine (whose
/// steps fetch their crossings' splits), the shape without fetched splits and their trace
/// builds end some crossing by its split words
/// inside a step's walk, never more than the split ends, with the loop's bits (a path that never ran would pass the bits checks
/// without checking anything); the shape with a crossing a step ends none so. (The kill
/// inputs of the step's mutants run in the engine's shape in
/// `walked_equals_the_loop_engine_shape`.)
#[test]
fn walked_seg_steps_end_crossings_in_the_walk() {
    on_a_uniform_plane(
        "walked_seg_steps_end_crossings_in_the_walk",
        &[
            SHAPES[0], SHAPES[16], SHAPES[21], SHAPES[22], SHAPES[23], SHAPES[24],
        ],
        |shape, got| {
            if shape.seg_step {
                got.walk_split_ends > 0 && got.walk_split_ends <= got.split_ends
            } else {
                got.walk_split_ends == 0
            }
        },
    );
}

/// Segmented steps that read their crossings' split words and lane terms when they end them
/// (the engine's shape before `WalkedShape::fetch_splits`).
#[test]
fn walked_equals_the_loop_unfetched_splits() {
    equals_the_loop("walked_equals_the_loop_unfetched_splits", SHAPES[23]);
}

/// A crossing a step (the engine's shape before the segmented step).
#[test]
fn walked_equals_the_loop_one_crossing_a_step() {
    equals_the_loop("walked_equals_the_loop_one_crossing_a_step", SHAPES[21]);
}

/// Every finish by rounds (the engine's shape before the planned finish).
#[test]
fn walked_equals_the_loop_finishes_by_rounds() {
    equals_the_loop("walked_equals_the_loop_finishes_by_rounds", SHAPES[20]);
}

/// Every crossing finished from its terms (the engine's shape before the split).
#[test]
fn walked_equals_the_loop_no_split() {
    equals_the_loop("walked_equals_the_loop_no_split", SHAPES[18]);
}

/// The engine's PTX calls the first tile's finish (in the producer) and the walker's wait for
/// it (`WalkedShape::first`), and the build without `first` holds neither: at 70e40a5 the
/// producer's call sat after an early return that every first tile takes, NVRTC compiled it
/// to nothing, every shape and mutant still compiled, and every launch on the device stalled.
#[test]
fn walked_compiles_the_first_tiles_finish() {
    if !nvrtc_or_skip("walked_compiles_the_first_tiles_finish") {
        return;
    }
    let called = |ptx: &str, f: &str| {
        ptx.lines().any(|l| {
            let l = l.trim();
            l.starts_with("_Z") && l.contains(f) && l.ends_with(',')
        })
    };
    for shape in [WalkedShape::DEFAULT, WalkedShape::DEFAULT_F32] {
        let on = compile_for("sm_90", shape, WalkedMutant::None)
            .unwrap()
            .to_src();
        let off = compile_for(
            "sm_90",
            WalkedShape {
                first: false,
                ..shape
            },
            WalkedMutant::None,
        )
        .unwrap()
        .to_src();
        for f in ["wk_first_finish", "wk_first_wait"] {
            assert!(called(&on, f), "{shape:?}: no call of {f} in the PTX");
            assert!(
                !on.is_empty() && !off.contains(f),
                "{shape:?} without first: {f} in the PTX"
            );
        }
    }
}

/// The trace build: the engine's bits, and stamps that are in order (the time in finishes
/// within the walk, some unit word published after the walker started).
#[test]
fn walked_equals_the_loop_traced() {
    equals_the_loop("walked_equals_the_loop_traced", SHAPES[16]);
    let Some(gpu) = open_or_skip("walked_equals_the_loop_traced") else {
        return;
    };
    let terms = InputKind::Uniform.generate::<F64>(1 << 22, SEED);
    for (shape, fast) in [(SHAPES[16], false), (SHAPES[17], true)] {
        let sum = WalkedSum::build(&gpu, shape, WalkedMutant::None).unwrap();
        let got = sum.sum_of(&terms, 0.0).unwrap();
        let t = got.trace.expect("a trace build's total carries its trace");
        assert!(
            t.finish_ns <= t.walker_ns && t.walker_ns > 0 && t.producers_ns > 0,
            "seed {SEED:#x}, 2^22 uniform terms: {t:?}"
        );
        assert!(
            got.finished_tiles > 0 && (got.fast_rounds > 0) == fast,
            "seed {SEED:#x}, 2^22 uniform terms: {got:?}"
        );
    }
    for shape in [SHAPES[16], SHAPES[30]] {
        let traced = WalkedShape {
            trace: true,
            ..shape
        };
        traced_events_tell_the_walk(&gpu, traced, &terms[..1 << 20]);
    }
    first_finish_phases_in_order(&gpu, &terms[..WalkedShape::DEFAULT.tile() as usize]);
}

/// A trace build's event log (`WalkedSum::walker_events`) on `terms`: it starts with the
/// first tile's exact sum taken from its producer and then a step at tile 1, or with the
/// compose ahead (`WalkedShape::ahead`) with a step at tile 1 composed before that sum is
/// taken and the sum taken before the step's walk; its clocks never run back, and it holds a begin and an end for every finish and split end the counts report (the log is long enough for 2^20 uniform terms: about 30
/// events); a job of the
/// build without the trace has no log.
fn traced_events_tell_the_walk(gpu: &Gpu, shape: WalkedShape, terms: &[f64]) {
    use binade::gpu::ordered_sum::walked::{WalkerEventKind as K, TRACE_EVENTS};
    debug_assert!(shape.trace);
    let sum = WalkedSum::build(gpu, shape, WalkedMutant::None).unwrap();
    let dev = gpu.stream().clone_htod(terms).unwrap();
    let mut job = sum.job(dev.slice(0..terms.len())).unwrap();
    let got = sum.run(&mut job).unwrap();
    let log = sum.walker_events(&job, 0).unwrap();
    let case = format!("seed {SEED:#x}, 2^20 uniform terms, {shape:?}: {got:?}, {log:?}");
    assert!(
        log.met as usize <= TRACE_EVENTS && log.met as usize == log.events.len(),
        "{case}"
    );
    let kinds: Vec<K> = log.events.iter().take(4).map(|e| e.kind).collect();
    let opening = if shape.ahead {
        kinds.starts_with(&[K::Step, K::Composed, K::First])
            && matches!(log.events.first(), Some(e) if e.tile == 1)
            && matches!(kinds.get(3), Some(k) if *k != K::Step && *k != K::Composed)
    } else {
        kinds.starts_with(&[K::First, K::Step])
            && matches!(log.events.get(1), Some(e) if e.tile == 1)
    };
    assert!(opening, "{case}");
    assert!(
        log.events
            .windows(2)
            .all(|w| w[0].ns <= w[1].ns && w[0].cycles <= w[1].cycles),
        "{case}"
    );
    let count = |k: K| log.events.iter().filter(|e| e.kind == k).count() as u64;
    let held = |k: K| {
        log.events
            .iter()
            .filter(|e| e.kind == k && e.aux == 1)
            .count() as u64
    };
    // The first tile is finished by its producer (`first`): one First event, no Finish.
    assert_eq!(count(K::First), 1, "{case}");
    assert_eq!(count(K::Finish) + 1, got.finished_tiles, "{case}");
    assert_eq!(count(K::FinishEnd) + 1, got.finished_tiles, "{case}");
    assert_eq!(
        held(K::WalkSplitEnd) + held(K::SplitEnd),
        got.split_ends,
        "{case}"
    );
    assert_eq!(count(K::Step), got.steps, "{case}");
    // Every finish logs its load, and a planned pass's keys and walk come in pairs.
    assert_eq!(count(K::FinishLoaded), count(K::Finish), "{case}");
    assert_eq!(count(K::FinishKeyed), count(K::FinishWalked), "{case}");
    assert!(count(K::FinishKeyed) <= count(K::Finish), "{case}");
    let plain = WalkedSum::new(gpu).unwrap();
    let mut other = plain.job(dev.slice(0..terms.len())).unwrap();
    plain.run(&mut other).unwrap();
    assert!(plain.walker_events(&other, 0).is_err(), "{case}");
}

/// A one-tile sum in the trace build with its first tile finished by the walker (`first`
/// off): the log holds that finish's begin, then exactly its three phases (terms loaded, the
/// planned pass's keys and scan, its walk) and its end, marked planned (uniform terms from +0
/// cross about ten binades in a tile, each a native lane of the planned pass), its clocks never
/// running back. The steps and the split end the walker tries before it finishes the tile
/// (at 5c2f826 two steps, a sleep and a split end, `reports/walked-last-first`) come before.
fn first_finish_phases_in_order(gpu: &Gpu, terms: &[f64]) {
    use binade::gpu::ordered_sum::walked::WalkerEventKind as K;
    let shape = WalkedShape {
        first: false,
        ..SHAPES[16]
    };
    let sum = WalkedSum::build(gpu, shape, WalkedMutant::None).unwrap();
    let dev = gpu.stream().clone_htod(terms).unwrap();
    let mut job = sum.job(dev.slice(0..terms.len())).unwrap();
    let got = sum.run(&mut job).unwrap();
    assert_eq!(
        got.bits,
        loop_sum::<F64>(terms).to_bits(),
        "seed {SEED:#x}, {} uniform terms",
        terms.len()
    );
    let log = sum.walker_events(&job, 0).unwrap();
    let case = format!(
        "seed {SEED:#x}, {} uniform terms, first tile by the walker: {got:?}, {log:?}",
        terms.len()
    );
    let start = log
        .events
        .iter()
        .position(|e| e.kind == K::Finish && e.tile == 0);
    let Some(start) = start else {
        panic!("{case}: no finish of tile 0 in the log");
    };
    let finish = &log.events[start..];
    let kinds: Vec<K> = finish.iter().map(|e| e.kind).collect();
    assert_eq!(
        kinds,
        [
            K::Finish,
            K::FinishLoaded,
            K::FinishKeyed,
            K::FinishWalked,
            K::FinishEnd
        ],
        "{case}"
    );
    assert!(
        finish.iter().all(|e| e.tile == 0)
            && finish[4].aux == 1
            && log
                .events
                .windows(2)
                .all(|w| w[0].ns <= w[1].ns && w[0].cycles <= w[1].cycles),
        "{case}"
    );
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

/// Each of `builds` compiled on many threads, then loaded in order
/// ([`WalkedSum::build_all`]), with its mutant.
fn built(gpu: &Gpu, builds: &[(WalkedShape, WalkedMutant)]) -> Vec<(WalkedMutant, WalkedSum)> {
    builds
        .iter()
        .zip(WalkedSum::build_all(gpu, builds))
        .map(|(&(shape, m), sum)| {
            let sum = sum.unwrap_or_else(|e| panic!("walked {shape:?} {}: {e:#}", m.name()));
            (m, sum)
        })
        .collect()
}

/// Every mutant is killed by a wrong total: on the cases, or (for all builds, the one it is
/// meant for being the walker that trusts an earlier launch's word) on a job's buffers
/// launched again on other terms, or (the one meant for segments) on the segmented launches.
#[test]
fn walked_mutants_give_wrong_totals() {
    let Some(gpu) = open_or_skip("walked_mutants_give_wrong_totals") else {
        return;
    };
    let tile = WalkedShape::DEFAULT.tile() as usize;
    let cases = kill_cases(SEED, &sizes(), tile);
    let segmented = segmented_cases(SEED, tile);
    let mut survivors = Vec::new();
    let builds: Vec<(WalkedShape, WalkedMutant)> = WalkedMutant::ALL
        .into_iter()
        .skip(1)
        .map(|m| (m.shape(), m))
        .collect();
    for (m, sum) in built(&gpu, &builds) {
        let (_, mut wrong) = first_wrong(&sum, &cases, 1).unwrap();
        if wrong.is_none() {
            wrong = stale_words(&sum, 1 << 25, SEED).unwrap().1;
        }
        if wrong.is_none() {
            wrong = first_wrong_segmented(&sum, &segmented, 1).unwrap().1;
        }
        match wrong {
            Some(case) => println!("killed: {}: {case}", m.name()),
            None => survivors.push(m.name()),
        }
    }
    assert!(survivors.is_empty(), "mutants not killed: {survivors:?}");
}

/// Segmented launches (many sums in one launch, one walker each) in the engine's shape and in
/// the first shape: every sum the loop's bits over its own terms, in two launches on the same
/// buffers.
#[test]
fn walked_segments_equal_the_loop() {
    segments_equal_the_loop(
        "walked_segments_equal_the_loop",
        &[WalkedShape::DEFAULT, WalkedShape::FIRST, SHAPES[6]],
    );
}

/// A plan mutant of segments: every sum's producers plan from the first sum's hint. Plans
/// change no bit, so this must pass.
#[test]
fn walked_segments_equal_the_loop_hint_shared() {
    segments_equal_the_loop(
        "walked_segments_equal_the_loop_hint_shared",
        &[WalkedShape {
            hint: Hint::SharedAcrossSegments,
            ..WalkedShape::DEFAULT
        }],
    );
}

/// Every segmented case, twice on the same buffers, in each of `shapes`: every sum the loop's
/// bits over its own terms.
fn segments_equal_the_loop(test: &str, shapes: &[WalkedShape]) {
    let Some(gpu) = open_or_skip(test) else {
        return;
    };
    for &shape in shapes {
        let sum = WalkedSum::build(&gpu, shape, WalkedMutant::None).unwrap();
        let cases = segmented_cases(SEED, shape.tile() as usize);
        let (checked, wrong) = first_wrong_segmented(&sum, &cases, 2).unwrap();
        assert!(wrong.is_none(), "walked {shape:?}: {}", wrong.unwrap());
        println!("walked {shape:?}: {checked} segmented sums, the loop's bits");
    }
}

/// A launch of more sums than leave a producer resident beside their walkers is refused, as
/// are sums that run past the buffer and sums that overlap: each with an error, not a hang.
#[test]
fn walked_segments_refuse_what_cannot_run() {
    let Some(gpu) = open_or_skip("walked_segments_refuse_what_cannot_run") else {
        return;
    };
    let sum = WalkedSum::new(&gpu).unwrap();
    let dev = gpu.stream().alloc_zeros::<f64>(1 << 16).unwrap();
    let too_many = sum.segments_job(dev.slice(0..1 << 16), 1 << 16, 1, 1);
    assert!(too_many.is_err(), "65,536 sums in one launch accepted");
    let past_end = sum.segments_job(dev.slice(0..1 << 16), 4, 1 << 14, (1 << 14) + 1);
    assert!(past_end.is_err(), "sums past the buffer accepted");
    let overlapping = sum.segments_job(dev.slice(0..1 << 16), 4, 1 << 14, 1 << 13);
    assert!(overlapping.is_err(), "overlapping sums accepted");
}

/// The f32 engine's shape with its plans taken away or broken, each of which must keep the
/// loop's bits: without the stall cap and the moves (plans from tree sums alone), without
/// the moves, every cap four binades low (`StallCap::TooLow`), each window's moves swapped
/// (`Moves::Swapped`), long look-backs' early passes moved from the window base alone
/// (`Moves::BaseUnknown`), each tie rounded as if from an even sum (`Moves::On`, the
/// parity moves with the parity ignored), and look-backs across a crossing not read again
/// (`Moves::Parity`, the engine's moves with its re-scan skipped), and the same with the
/// re-read's tag kept (`Moves::TagOnly`, the diagnostic build of `examples/walked_f32_paths`).
fn f32_plan_shapes() -> [WalkedShape; 8] {
    [
        (StallCap::Off, Moves::Off),
        (StallCap::On, Moves::Off),
        (StallCap::On, Moves::On),
        (StallCap::On, Moves::Parity),
        (StallCap::TooLow, Moves::Crossing),
        (StallCap::On, Moves::Swapped),
        (StallCap::On, Moves::BaseUnknown),
        (StallCap::On, Moves::TagOnly),
    ]
    .map(|(stall_cap, moves)| WalkedShape {
        stall_cap,
        moves,
        ..WalkedShape::DEFAULT_F32
    })
}

/// The f32 build (`WalkedShape::f32_terms`, with the stall cap and the parity moves) in the engine's shape
/// (crossings split), the first shape and the engine's without the split, and the engine's
/// f32 shape with its plans taken away or broken (`f32_plan_shapes`): every
/// f32 case (`walked_kill::kill_cases_f32`) has the f32 loop's bits, twice.
#[test]
fn walked_f32_equals_the_f32_loop() {
    let Some(gpu) = open_or_skip("walked_f32_equals_the_f32_loop") else {
        return;
    };
    let capped =
        [WalkedShape::DEFAULT, WalkedShape::FIRST, SHAPES[18]].map(WalkedShape::with_f32_terms);
    // The stall cap and the moves are plans: without them, or with their plan mutants, the
    // bits must be the same.
    for shape in capped.into_iter().chain(f32_plan_shapes()) {
        let sum = WalkedSum::build(&gpu, shape, WalkedMutant::None).unwrap();
        let cases = kill_cases_f32(SEED, &sizes(), shape.tile() as usize);
        let (checked, wrong) = first_wrong(&sum, &cases, 2).unwrap();
        assert!(wrong.is_none(), "walked f32 {shape:?}: {}", wrong.unwrap());
        println!("walked f32 {shape:?}: {checked} sums, the f32 loop's bits");
    }
}

/// Terms of the f32 stream on which the re-read must be taken: 10^8 terms of gpu-timing-f32's
/// geometric stream (the sum crosses a binade about every 2^20 terms, so a look-back that
/// spans a crossing plans from a binade the later tiles are not in). On an H100 at 168b9b2
/// the engine's f32 shape re-read 814 look-backs there (`reports/walked-margin`).
const REREAD_TERMS: usize = 100_000_000;

/// The re-read across a crossing (`Moves::Crossing`, the f32 engine's moves) is taken and
/// changes no bit: on [`REREAD_TERMS`] geometric f32 terms made on the device, the engine's
/// f32 shape and the build with the re-read compiled out but its tag kept (`Moves::TagOnly`)
/// each give the f32 loop's bits and count re-reads (`WalkedTotal::reread_plans`, done or
/// that would have been done), and the build without the tag (`Moves::Parity`) counts none.
/// A count that stayed at zero would leave `f32_plan_shapes`' bits check of the re-read
/// checking a path no tile took.
#[test]
fn walked_f32_rereads_look_backs_across_crossings() {
    let test = "walked_f32_rereads_look_backs_across_crossings";
    let Some(gpu) = open_or_skip(test) else {
        return;
    };
    let filler = OnePassSum::new(&gpu).unwrap();
    let s = gpu.stream();
    let mut terms: CudaSlice<f32> = s.alloc_zeros(REREAD_TERMS).unwrap();
    filler
        .fill_f32(&mut terms, SEED, Distribution::Geometric)
        .unwrap();
    let want = loop_sum::<F32>(&s.clone_dtoh(&terms).unwrap()).to_bits();
    assert_eq!(WalkedShape::DEFAULT_F32.moves, Moves::Crossing, "{test}");
    for (moves, rereads) in [
        (Moves::Crossing, true),
        (Moves::TagOnly, true),
        (Moves::Parity, false),
    ] {
        let shape = WalkedShape {
            moves,
            ..WalkedShape::DEFAULT_F32
        };
        let sum = WalkedSum::build(&gpu, shape, WalkedMutant::None).unwrap();
        let mut job = sum.job(terms.slice(0..REREAD_TERMS)).unwrap();
        let got = sum.run(&mut job).unwrap();
        let case = format!("{test}: {moves:?}, {REREAD_TERMS} geometric f32 terms, seed {SEED:#x}");
        assert_eq!(got.bits, u64::from(want), "{case}: {got:?}");
        assert_eq!(got.reread_plans > 0, rereads, "{case}: {got:?}");
        println!(
            "{case}: {} look-backs re-read of {} tiles, the f32 loop's bits",
            got.reread_plans, got.tiles
        );
    }
}

/// Each mutant of `WalkedMutant::F32_CHECKED` in an f32 build gives a wrong f32 total on
/// some case; an f64 job on an f32 build is refused.
#[test]
fn walked_f32_mutants_give_wrong_totals() {
    let Some(gpu) = open_or_skip("walked_f32_mutants_give_wrong_totals") else {
        return;
    };
    let cases = kill_cases_f32(SEED, &sizes(), WalkedShape::DEFAULT.tile() as usize);
    let mut survivors = Vec::new();
    let builds: Vec<(WalkedShape, WalkedMutant)> = WalkedMutant::F32_CHECKED
        .into_iter()
        .map(|m| (m.shape().with_f32_terms(), m))
        .collect();
    for (m, sum) in built(&gpu, &builds) {
        match first_wrong(&sum, &cases, 1).unwrap().1 {
            Some(case) => println!("killed (f32): {}: {case}", m.name()),
            None => survivors.push(m.name()),
        }
    }
    assert!(
        survivors.is_empty(),
        "f32 mutants not killed: {survivors:?}"
    );
    let sum = WalkedSum::build(
        &gpu,
        WalkedShape::DEFAULT.with_f32_terms(),
        WalkedMutant::None,
    )
    .unwrap();
    assert!(
        sum.sum_of(&[1.0f64], 0.0).is_err(),
        "an f64 job on an f32 build"
    );
}
