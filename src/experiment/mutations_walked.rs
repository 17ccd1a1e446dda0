//! The walked engine's own mutants ([`WalkedMutant`]) for the `mutations` kill matrix: each
//! build sums `gpu::ordered_sum::walked_kill`'s cases and then launches one job's buffers
//! again on other terms, then sums its segmented launches (many sums a launch), compared in
//! bits with the CPU loop; a mutant is killed by the first sum that differs.

use crate::experiment::Context;
use crate::gpu::ordered_sum::walked::{
    Early, Hint, Lookback, Moves, StallCap, WalkedMutant, WalkedShape, WalkedSum,
};
use crate::gpu::ordered_sum::walked_kill::{
    first_wrong, first_wrong_segmented, kill_cases, kill_cases_f32, segmented_cases, stale_words,
};
use crate::gpu::Gpu;
use crate::report::{thousands, Table};

/// The plan mutants' rows: plans from the walker's hint with the margin ignored, from the far
/// anchor with its margin ignored, from a look-back's published tree sums with the range of
/// the missing ones ignored, and, in segmented launches, from the first sum's hint. Plans
/// change no bit, so each must give the loop's bits everywhere (a wrong total is a failure).
const PLAN_MUTANTS: [(&str, WalkedShape); 5] = [
    (
        "walked plan mutant: hint's margin ignored (must keep the loop's bits)",
        WalkedShape {
            hint: Hint::MarginIgnored,
            ..WalkedShape::DEFAULT
        },
    ),
    (
        "walked plan mutant: far anchor's margin ignored (must keep the loop's bits)",
        WalkedShape {
            hint: Hint::FarMarginIgnored,
            ..WalkedShape::DEFAULT
        },
    ),
    (
        "walked plan mutant: look-back's range ignored (must keep the loop's bits)",
        WalkedShape {
            lookback: Lookback::RangeIgnored,
            ..WalkedShape::DEFAULT
        },
    ),
    (
        "walked plan mutant: look-back's early window read one tile late (must keep the loop's bits)",
        WalkedShape {
            early: Early::Shifted,
            ..WalkedShape::DEFAULT
        },
    ),
    (
        "walked plan mutant: every sum of a launch planned from the first sum's hint (must keep the loop's bits)",
        WalkedShape {
            hint: Hint::SharedAcrossSegments,
            ..WalkedShape::DEFAULT
        },
    ),
];

/// Terms of the stale-words check (8,192 tiles: the walker reads ahead of the producers).
const STALE_TERMS: usize = 1 << 25;

/// One build's row: its name, the sums checked and the verdict (a mutant must give a wrong
/// sum, the correct build and the plan mutants none; `failures` counts what does not).
fn mutant_row(
    t: &mut Table,
    name: &str,
    m: WalkedMutant,
    run: anyhow::Result<(u64, Option<String>)>,
    failures: &mut u64,
) {
    let (checked, result, first) = super::mutations::engine_mutant_cells(
        m == WalkedMutant::None,
        run,
        "the loop's bits everywhere",
        failures,
    );
    t.row(vec![name.to_string(), thousands(checked), result, first]);
}

/// The rows, a note, and failures (the correct build wrong anywhere, a mutant with the
/// loop's bits everywhere, a device error). Empty rows and a note where no device is present.
pub fn walked_rows(ctx: &Context, sizes: &[usize], seed: u64) -> (Table, String, u64) {
    let mut t = Table::new(
        "walked-mutants",
        "The walked engine's own shortcuts, each broken on purpose (device)",
        &["mutant", "sums checked", "result", "first wrong sum"],
    );
    let gpu = match Gpu::open() {
        Ok(g) => g,
        Err(e) => {
            return (
                t,
                format!("Walked-engine mutants: not run on this machine ({e}). They are run by this experiment on the GPU machine."),
                0,
            )
        }
    };
    let tile = WalkedShape::DEFAULT.tile() as usize;
    let cases = kill_cases(seed, sizes, tile);
    let segmented = segmented_cases(seed, tile);
    let bar = ctx.progress(
        (WalkedMutant::ALL.len() + PLAN_MUTANTS.len()) as u64,
        "walked mutants",
    );
    let mut failures = 0;
    let builds: Vec<(&str, WalkedShape, WalkedMutant)> = WalkedMutant::ALL
        .into_iter()
        .map(|m| (m.name(), m.shape(), m))
        .chain(
            PLAN_MUTANTS
                .into_iter()
                .map(|(name, shape)| (name, shape, WalkedMutant::None)),
        )
        .collect();
    let sums = built(&gpu, &builds);
    for ((name, _, m), sum) in builds.into_iter().zip(sums) {
        let run = sum.and_then(|sum| {
            let (checked, wrong) = first_wrong(&sum, &cases, 1)?;
            if wrong.is_some() {
                return Ok((checked, wrong));
            }
            let (more, wrong) = stale_words(&sum, STALE_TERMS, seed)?;
            if wrong.is_some() {
                return Ok((checked + more, wrong));
            }
            let (segs, wrong) = first_wrong_segmented(&sum, &segmented, 1)?;
            Ok((checked + more + segs, wrong))
        });
        mutant_row(&mut t, name, m, run, &mut failures);
        bar.inc(1);
    }
    bar.finish_and_clear();
    let note = format!(
        "Walked-engine mutants: `kernels/ordered_sum_walked.cu` with `-DBINADE_WK_MUTANT=<code>` in the engine's shape (256 threads x 16 terms, plans from the walker's hint; the fast finish's mutants with `WalkedShape::fast_finish` on and the split and planned finish off, the compose ahead's (`AheadUnawaited`) with `WalkedShape::ahead` on, the buffered producers' (`BufferTileBehind`) in `WalkedShape::BUFFERED`, the others in the engine's shape (segmented steps with fetched splits, a failing segment's last position tried first), `WalkedMutant::shape`) on {} ({}), and the plan mutants `Hint::MarginIgnored` (every tile but every eighth planned in the hint's binade, margin or not), `Hint::FarMarginIgnored` (every tile the hint leaves planned in the binade of the anchor 1,024 tiles back) `Lookback::RangeIgnored` (a look-back that finds tree sums missing plans from the published ones alone), `Early::Shifted` (a look-back's first round from words read with the terms one tile late) and `Hint::SharedAcrossSegments` (in a launch of many sums, every sum's producers plan from the first sum's hint; plans change no bit, so each must keep the loop's bits), each summing `gpu::ordered_sum::walked_kill::kill_cases` (every input kind at sizes {sizes:?}, then the one-pass engine's tile cases at 4,096-term tiles, a plan behind a crossing for 300 tiles, an infinity then its opposite, -0.0 over three tiles, an infinity after increments in its tile, a crossing before, at and after its split lane (`walked_kill::split_lane_miss`), and the planned finish's three (`walked_kill::planned_finish_case`: a run the loop leaves before its approximate sums do, a negative term inside a planned tile, two runs of two binades in one tile), and the segmented step's (`walked_kill::step_search_case`: a segment the loop leaves two tiles before its end), each from +0 and -0), then `walked_kill::stale_words` (one job's buffers launched on {STALE_TERMS} terms, 2^40 and then uniform ones, and again with the uniform ones times 1 + 2^-20, five rounds with every resident producer block, then two with one on the first 2^23 of them: the sum stays in one binade, so the walker composes 1,024 tiles a step and reads ahead of the producers), then `walked_kill::segmented_cases` (many sums in one launch, a walker each: 18 uniform 960x540 planes, every input kind at an odd length with gaps, one-tile and one-term sums, -0 starts, long log-uniform sums; and launches of several groups: the six scales of a 960x540 SSIMULACRA2 frame, mixed groups with an empty one); every total is compared by bits with the loop and the first that differs is named. A walker that trusts an earlier launch's word goes wrong only where it reads ahead of the producers, so its kill is a race the input makes likely, not certain; the rounds with one producer block make it one-sided (the mutant survived the five rounds alone once, in the GPU suite on the H100 at 5ccd8b6).",
        gpu.name, gpu.arch
    );
    (t, note, failures)
}

/// The rows' builds, compiled on many threads and loaded in order
/// ([`WalkedSum::build_all`]): about 40 NVRTC builds one after another is the likely reason,
/// not timed stage by stage, that the full run outgrew its device call at f8b00f0 and abda1fb.
fn built(
    gpu: &Gpu,
    builds: &[(&str, WalkedShape, WalkedMutant)],
) -> Vec<anyhow::Result<WalkedSum>> {
    let specs: Vec<(WalkedShape, WalkedMutant)> = builds.iter().map(|&(_, s, m)| (s, m)).collect();
    WalkedSum::build_all(gpu, &specs)
}

/// The f32 build's rows ([`WalkedShape::f32_terms`]): the correct build, the mutants of
/// [`WalkedMutant::F32_CHECKED`], the plan mutants of one sum a launch (the first four), the
/// stall cap's plan mutant ([`StallCap::TooLow`]) and the build without the cap, each summing
/// `walked_kill::kill_cases_f32` against the f32 loop by bits. Empty rows and a note where no
/// device is present.
pub fn walked_f32_rows(ctx: &Context, sizes: &[usize], seed: u64) -> (Table, String, u64) {
    let mut t = Table::new(
        "walked-f32-mutants",
        "The walked engine's f32 build: its shortcuts, each broken on purpose (device)",
        &["mutant", "sums checked", "result", "first wrong sum"],
    );
    let gpu = match Gpu::open() {
        Ok(g) => g,
        Err(e) => {
            return (
                t,
                format!("Walked-engine f32 mutants: not run on this machine ({e}). They are run by this experiment on the GPU machine."),
                0,
            )
        }
    };
    let f32_shape = WalkedShape::with_f32_terms;
    let cases = kill_cases_f32(seed, sizes, WalkedShape::DEFAULT.tile() as usize);
    let builds: Vec<(&str, WalkedShape, WalkedMutant)> = std::iter::once(WalkedMutant::None)
        .chain(WalkedMutant::F32_CHECKED)
        .map(|m| (m.name(), f32_shape(m.shape()), m))
        .chain(
            PLAN_MUTANTS[..4]
                .iter()
                .map(|&(name, shape)| (name, f32_shape(shape), WalkedMutant::None)),
        )
        .chain([
            (
                "walked f32 plan mutant: every stall cap four binades low (must keep the loop's bits)",
                WalkedShape {
                    stall_cap: StallCap::TooLow,
                    ..WalkedShape::DEFAULT_F32
                },
                WalkedMutant::None,
            ),
            (
                "walked f32 plan mutant: each window's two moves swapped (must keep the loop's bits)",
                WalkedShape {
                    moves: Moves::Swapped,
                    ..WalkedShape::DEFAULT_F32
                },
                WalkedMutant::None,
            ),
            (
                "walked f32 plan mutant: a long look-back's passes before its base moved from the window base alone (must keep the loop's bits)",
                WalkedShape {
                    moves: Moves::BaseUnknown,
                    ..WalkedShape::DEFAULT_F32
                },
                WalkedMutant::None,
            ),
            (
                "walked f32 plan mutant: each tie moved as if from an even sum (`Moves::On`, the parity moves with the parity ignored; must keep the loop's bits)",
                WalkedShape {
                    moves: Moves::On,
                    ..WalkedShape::DEFAULT_F32
                },
                WalkedMutant::None,
            ),
            (
                "walked f32 plan mutant: a look-back whose span crosses a binade not read again (`Moves::Parity`, every tile moved from its base's binade; must keep the loop's bits)",
                WalkedShape {
                    moves: Moves::Parity,
                    ..WalkedShape::DEFAULT_F32
                },
                WalkedMutant::None,
            ),
            (
                "walked f32 build without the moves (plans from tree sums under the stall cap; must keep the loop's bits)",
                WalkedShape {
                    moves: Moves::Off,
                    ..WalkedShape::DEFAULT_F32
                },
                WalkedMutant::None,
            ),
            (
                "walked f32 build without the stall cap and the moves (plans from tree sums alone; must keep the loop's bits)",
                WalkedShape {
                    stall_cap: StallCap::Off,
                    moves: Moves::Off,
                    ..WalkedShape::DEFAULT_F32
                },
                WalkedMutant::None,
            ),
        ])
        .collect();
    let bar = ctx.progress(builds.len() as u64, "walked f32 mutants");
    let mut failures = 0;
    let sums = built(&gpu, &builds);
    for ((name, _, m), sum) in builds.into_iter().zip(sums) {
        let run = sum.and_then(|sum| first_wrong(&sum, &cases, 1));
        mutant_row(&mut t, name, m, run, &mut failures);
        bar.inc(1);
    }
    bar.finish_and_clear();
    let note = format!(
        "Walked-engine f32 build (`BINADE_WK_F32=1`: f32 terms summed in f32, with the plans' stall cap, `BINADE_WK_STALL_CAP=1`, and parity moves, `BINADE_WK_MOVES=4`) on {} ({}): the correct build, the mutants of `WalkedMutant::F32_CHECKED`, the first three plan mutants above, the stall cap's plan mutant (`StallCap::TooLow`: every tile's cap four binades low, so plans take the sum to stall too early), the moves' plan mutants (`Moves::Swapped`: each tile's two moves swapped, so a prefix moves by the wrong binade's rounding; `Moves::BaseUnknown`: a look-back longer than 32 tiles moves its passes before the base from the window base alone), the build without the moves (plans from tree sums under the cap) and the build without the cap and the moves (plans from tree sums alone; all plans, so all must keep the loop's bits), each summing `walked_kill::kill_cases_f32` (every input kind made as f32 terms at sizes {sizes:?}, the hand-made inputs rounded to f32, the crossing, the excursion, the split inputs, the planned finish's and the segmented step's rebuilt at f32's quantum, a sum stopped at 2^25 and one of ties at its quantum, each from +0 and -0) against the f32 loop by bits; the first that differs is named. The unpublished read and the segments' units are killed on the f64 build above (`WalkedMutant::F32_CHECKED` says why).",
        gpu.name, gpu.arch
    );
    (t, note, failures)
}
