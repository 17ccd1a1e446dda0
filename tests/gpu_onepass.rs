//! The one-pass engine: the kernel compiles with NVRTC for every mutant (no device needed),
//! and on a device every total equals the CPU loop's bits for every input kind, size and
//! segment layout, identically over repeated launches, and each of its own mutants gives a
//! wrong total somewhere. Without NVRTC or a device the tests print `skipped: REASON`; with
//! `BINADE_REQUIRE_GPU=1` (the GPU machine) they fail instead.

use binade::format::{same_result, F64};
use binade::gpu::ordered_sum::onepass::{
    self, EngineOptions, OnePassMutant, Schedule, TileShape, TimedSchedules,
};
use binade::gpu::require::{nvrtc_or_skip, open_or_skip};
use binade::gpu::OnePassSum;
use binade::layout::OP_TILE;
use binade::verify::inputs::{tile_boundary_cases, InputKind};
use binade::walk::loop_sum;

#[test]
fn onepass_compiles_for_every_mutant() {
    use rayon::prelude::*;
    if !nvrtc_or_skip("onepass_compiles_for_every_mutant") {
        return;
    }
    // Every mutant (with the schedule it runs by) and every option variant (with every
    // schedule), compiled on rayon's threads: each is a whole NVRTC build of the module.
    let mut builds: Vec<(String, EngineOptions, Option<OnePassMutant>)> = OnePassMutant::ALL
        .into_iter()
        .map(|m| (format!("mutant {}", m.name()), m.options(), Some(m)))
        .collect();
    for ways in 1..=8 {
        for (plan_waits, lane_fast, hold_risky) in [(false, true, false), (true, false, true)] {
            let options = EngineOptions {
                ways,
                plan_waits,
                lane_fast,
                hold_risky,
            };
            builds.push((format!("options {options:?}"), options, None));
        }
    }
    let failed: Vec<String> = builds
        .par_iter()
        .filter_map(|(name, options, mutant)| {
            let built = match mutant {
                Some(m) => onepass::compile_for("sm_90", *m),
                None => onepass::compile_variant_for("sm_90", *options),
            };
            built.err().map(|e| format!("one-pass {name}: {e:#}"))
        })
        .collect();
    assert!(failed.is_empty(), "{}", failed.join("\n"));
    // The engine's build also assembles for sm_90 in NVRTC (a CUBIN, what
    // `BINADE_MODULE_FORM=cubin` loads): an ELF image.
    let cubin =
        onepass::cubin_for("sm_90", OnePassMutant::None).expect("the engine's build as a CUBIN");
    assert_eq!(
        &cubin[..4],
        b"\x7fELF",
        "the engine's CUBIN is not an ELF image"
    );
}

/// Sizes around the tile and lane boundaries, and a few thousand tiles.
const SIZES: [usize; 11] = [
    0,
    1,
    15,
    17,
    OP_TILE - 1,
    OP_TILE,
    OP_TILE + 1,
    3 * OP_TILE + 77,
    100_003,
    1_000_003,
    9_000_011,
];

/// `copies` sums of each of `inputs::tile_boundary_cases` as segments of one buffer.
fn boundary_cases(copies: usize) -> (Vec<f64>, Vec<std::ops::Range<usize>>) {
    let mut all = Vec::new();
    let mut segments = Vec::new();
    for (_, one) in tile_boundary_cases(OP_TILE) {
        for _ in 0..copies {
            let start = all.len();
            all.extend_from_slice(&one);
            segments.push(start..all.len());
        }
    }
    (all, segments)
}

/// `build` of every key on rayon's threads (each build of the module is a whole NVRTC
/// compile, seconds each), in key order; panics naming the key whose build failed.
fn in_parallel<K: Sync + std::fmt::Debug>(
    keys: &[K],
    build: impl Fn(&K) -> anyhow::Result<OnePassSum> + Sync,
) -> Vec<OnePassSum> {
    use rayon::prelude::*;
    keys.par_iter()
        .map(|k| build(k).unwrap_or_else(|e| panic!("building {k:?}: {e:#}")))
        .collect()
}

/// The first segment whose device total differs from the loop's (None: all equal).
fn first_wrong(
    sum: &OnePassSum,
    all: &[f64],
    segments: &[std::ops::Range<usize>],
) -> Option<usize> {
    let got = sum.sums_of(all, segments).unwrap();
    segments.iter().enumerate().position(|(k, r)| {
        !same_result::<F64>(
            got[k].total.to_bits(),
            loop_sum::<F64>(&all[r.clone()]).to_bits(),
        )
    })
}

#[test]
fn onepass_tile_boundary_cases() {
    let Some(gpu) = open_or_skip("onepass_tile_boundary_cases") else {
        return;
    };
    let sum = OnePassSum::new(&gpu).unwrap();
    let (all, segments) = boundary_cases(300);
    for launch in 0..3 {
        assert_eq!(
            first_wrong(&sum, &all, &segments),
            None,
            "inputs::tile_boundary_cases({OP_TILE}) x 300 each, launch {launch}"
        );
    }
}

/// Every size of `kind` as one segment of one buffer; returns (terms, segments).
fn layout(kind: InputKind, seed: u64) -> (Vec<f64>, Vec<std::ops::Range<usize>>) {
    let mut all = Vec::new();
    let mut segments = Vec::new();
    for &n in &SIZES {
        let start = all.len();
        all.extend(kind.generate::<F64>(n, seed ^ n as u64));
        segments.push(start..all.len());
    }
    (all, segments)
}

/// Every input kind and size under `schedule`, several launches on the same records: every
/// one exact, so identical. Prints each kind as it passes (seen with `--nocapture`), so a run
/// cut by a time limit names the kind it stopped in.
fn totals_equal_the_loop_every_launch(name: &str, schedule: Schedule) {
    let Some(gpu) = open_or_skip(name) else {
        return;
    };
    let sum = OnePassSum::with_timed(&gpu, TimedSchedules::of(schedule))
        .unwrap()
        .with_schedule(schedule);
    let seed = 0x0e9a55u64;
    for kind in InputKind::ALL {
        let started = std::time::Instant::now();
        let (all, segments) = layout(kind, seed);
        let dev = gpu.stream().clone_htod(&all).unwrap();
        let mut job = sum.job(dev.slice(0..all.len()), &segments).unwrap();
        let want: Vec<u64> = segments
            .iter()
            .map(|r| loop_sum::<F64>(&all[r.clone()]).to_bits())
            .collect();
        for launch in 0..4 {
            let got = sum.run(&mut job).unwrap();
            for (k, r) in segments.iter().enumerate() {
                assert!(
                    same_result::<F64>(got[k].total.to_bits(), want[k]),
                    "seed {seed:#x} kind {kind:?} schedule {schedule:?} n {} launch {launch}: device {:e} ({:#018x}) loop {:e} ({:#018x}); {got:?}",
                    r.len(),
                    got[k].total,
                    got[k].total.to_bits(),
                    f64::from_bits(want[k]),
                    want[k]
                );
                assert_eq!(got[k].tiles, (r.len() as u64).div_ceil(OP_TILE as u64));
            }
        }
        eprintln!(
            "{name}: {kind:?} exact in 4 launches ({:.1} s)",
            started.elapsed().as_secs_f64()
        );
    }
}

#[test]
fn onepass_every_launch_resident() {
    totals_equal_the_loop_every_launch("onepass_every_launch_resident", Schedule::Resident);
}

#[test]
fn onepass_every_launch_staged() {
    totals_equal_the_loop_every_launch("onepass_every_launch_staged", Schedule::Staged);
}

#[test]
fn onepass_every_launch_one_block_per_tile() {
    totals_equal_the_loop_every_launch(
        "onepass_every_launch_one_block_per_tile",
        Schedule::OneBlockPerTile,
    );
}

#[test]
fn onepass_every_launch_deferred() {
    totals_equal_the_loop_every_launch("onepass_every_launch_deferred", Schedule::Deferred);
}

/// The engine's schedule ([`onepass::SCHEDULE`]). `Schedule::BySize`, the engine's before,
/// only picks between the two schedules tested above by the number of tiles.
#[test]
fn onepass_every_launch_held() {
    assert_eq!(onepass::SCHEDULE, Schedule::Held);
    totals_equal_the_loop_every_launch("onepass_every_launch_held", Schedule::Held);
}

/// A build held to fewer resident blocks than fit (`OnePassSum::pinned_to`, how gpu-timing
/// times its phase builds at the engine's residency) reports that residency for both of its
/// one-tile kernels and still gives the loop's bits, one block per tile, resident and held;
/// pinning above the fit changes nothing.
#[test]
fn onepass_pinned_residency_equals_the_loop() {
    let Some(gpu) = open_or_skip("onepass_pinned_residency_equals_the_loop") else {
        return;
    };
    let sum = OnePassSum::new(&gpu).unwrap();
    let fits = sum.shape().unwrap().resident_blocks;
    assert!(fits >= 2, "the engine keeps {fits} blocks resident");
    let held_fits = sum.kernel_use(u64::MAX).unwrap();
    assert_eq!(held_fits.kernel, "onepass_sums_held");
    assert!(held_fits.resident_blocks >= 2, "{held_fits:?}");
    let same = sum
        .clone()
        .pinned_to(fits.max(held_fits.resident_blocks) + 1)
        .unwrap();
    assert_eq!(same.shape().unwrap().resident_blocks, fits);
    assert_eq!(same.kernel_use(u64::MAX).unwrap(), held_fits);
    let pinned = sum.pinned_to(1).unwrap();
    assert_eq!(pinned.shape().unwrap().resident_blocks, 1);
    assert_eq!(pinned.fits_unpinned(), fits);
    let held = pinned.kernel_use(u64::MAX).unwrap();
    assert_eq!(
        (held.resident_blocks, held.fitting_blocks),
        (1, held_fits.resident_blocks),
        "{held:?}"
    );
    let seed = 0x91e5u64;
    for kind in [
        InputKind::Uniform,
        InputKind::Geometric,
        InputKind::AdversarialTies,
    ] {
        let (all, segments) = layout(kind, seed);
        for schedule in [
            Schedule::OneBlockPerTile,
            Schedule::Resident,
            Schedule::Held,
        ] {
            let got = pinned
                .clone()
                .with_schedule(schedule)
                .sums_of(&all, &segments)
                .unwrap();
            for (k, r) in segments.iter().enumerate() {
                let want = loop_sum::<F64>(&all[r.clone()]).to_bits();
                assert!(
                    same_result::<F64>(got[k].total.to_bits(), want),
                    "seed {seed:#x} kind {kind:?} schedule {schedule:?} n {}: device {:#018x} loop {want:#018x}",
                    r.len(),
                    got[k].total.to_bits()
                );
            }
        }
    }
}

#[test]
fn onepass_many_small_segments_in_one_launch() {
    let Some(gpu) = open_or_skip("onepass_many_small_segments_in_one_launch") else {
        return;
    };
    let sum = OnePassSum::new(&gpu).unwrap();
    let seed = 0x5e65u64;
    // 108 sums of one plane each, as SSIMULACRA2 has, and overlapping ranges.
    let terms = InputKind::SsimLike.generate::<F64>(108 * 9_001, seed);
    let mut segments: Vec<_> = (0..108).map(|k| k * 9_001..(k + 1) * 9_001).collect();
    segments.push(0..terms.len());
    segments.push(5..5);
    segments.push(1_000..60_000);
    let got = sum.sums_of(&terms, &segments).unwrap();
    for (k, r) in segments.iter().enumerate() {
        let want = loop_sum::<F64>(&terms[r.clone()]).to_bits();
        assert!(
            same_result::<F64>(got[k].total.to_bits(), want),
            "seed {seed:#x} segment {k} {r:?}: device {:#018x} loop {want:#018x}",
            got[k].total.to_bits()
        );
    }
    // The engine's build compiles no timed schedule but its own: asking it for another is an
    // error, not a launch of code that is not there.
    assert_eq!(sum.timed_schedules(), onepass::ENGINE_SCHEDULES);
    for schedule in [Schedule::Staged, Schedule::Deferred] {
        let e = sum
            .clone()
            .with_schedule(schedule)
            .sums_of(&terms, &segments)
            .expect_err("a schedule the build did not compile ran");
        assert!(format!("{e:#}").contains("has no"), "{schedule:?}: {e:#}");
    }
}

#[test]
fn onepass_mutants_give_wrong_totals() {
    let Some(gpu) = open_or_skip("onepass_mutants_give_wrong_totals") else {
        return;
    };
    let seed = 0x6b11u64;
    // The builds (each a whole NVRTC compile) on rayon's threads, then each run in turn.
    let mutants: Vec<OnePassMutant> = OnePassMutant::ALL
        .into_iter()
        .filter(|m| m.changes_bits())
        .collect();
    let builds = in_parallel(&mutants, |&m| OnePassSum::with_mutant(&gpu, m));
    for (&m, sum) in mutants.iter().zip(&builds) {
        let (all, segments) = boundary_cases(300);
        let mut killed = first_wrong(sum, &all, &segments).map(|k| format!("boundary case {k}"));
        for kind in InputKind::ALL {
            if killed.is_some() {
                break;
            }
            let (all, segments) = layout(kind, seed);
            killed = first_wrong(sum, &all, &segments).map(|k| format!("{kind:?} segment {k}"));
        }
        assert!(
            killed.is_some(),
            "seed {seed:#x}: one-pass mutant `{}` gave the loop's bits on every input",
            m.name()
        );
    }
}

#[test]
fn onepass_other_tile_shapes_equal_the_loop() {
    let Some(gpu) = open_or_skip("onepass_other_tile_shapes_equal_the_loop") else {
        return;
    };
    let seed = 0x5a9e5u64;
    let shapes = [
        (512u32, 16u32, 3u32),
        (128, 16, 12),
        (256, 16, 6),
        (64, 2, 0),
    ];
    // One build per shape with every schedule compiled in (the builds on rayon's threads),
    // run by each schedule in turn.
    let builds = in_parallel(&shapes, |&(threads, per_thread, min_blocks)| {
        OnePassSum::variant_with_timed(
            &gpu,
            TileShape {
                threads,
                per_thread,
            },
            min_blocks,
            EngineOptions::DEFAULT,
            TimedSchedules::ALL,
        )
    });
    for (&(threads, per_thread, _), build) in shapes.iter().zip(&builds) {
        for schedule in [
            Schedule::Resident,
            Schedule::Staged,
            Schedule::Deferred,
            Schedule::Held,
        ] {
            let sum = build.clone().with_schedule(schedule);
            for kind in InputKind::ALL {
                let (all, segments) = layout(kind, seed);
                if let Some(k) = first_wrong(&sum, &all, &segments) {
                    panic!(
                        "seed {seed:#x} shape {threads} x {per_thread} {schedule:?} kind {kind:?}: segment {k} ({} terms) differs from the loop",
                        segments[k].len()
                    );
                }
            }
        }
    }
}

#[test]
fn onepass_option_variants_equal_the_loop() {
    let Some(gpu) = open_or_skip("onepass_option_variants_equal_the_loop") else {
        return;
    };
    let seed = 0x10b4c4u64;
    // One block per tile, resident blocks with one buffer, with two, with exact look-backs a
    // round late, and holding their tiles in registers: the schedules meet estimated and waited plans, both lane units, held and
    // released tiles.
    let variants = [
        (1u32, false, true, true, Schedule::OneBlockPerTile),
        (2, true, true, true, Schedule::Resident),
        (4, false, false, false, Schedule::Staged),
        (8, true, true, false, Schedule::Staged),
        (8, true, true, true, Schedule::Deferred),
        (4, false, true, false, Schedule::Deferred),
        (1, true, true, true, Schedule::Held),
        (4, false, false, false, Schedule::Held),
    ]
    .map(|(ways, plan_waits, lane_fast, hold_risky, schedule)| {
        let options = EngineOptions {
            ways,
            plan_waits,
            lane_fast,
            hold_risky,
        };
        (options, schedule)
    });
    let builds = in_parallel(&variants, |&(options, schedule)| {
        OnePassSum::variant(
            &gpu,
            TileShape::DEFAULT,
            onepass::MIN_BLOCKS,
            schedule,
            options,
        )
    });
    for (&(options, schedule), sum) in variants.iter().zip(&builds) {
        let (all, segments) = boundary_cases(300);
        assert_eq!(
            first_wrong(sum, &all, &segments),
            None,
            "{options:?} {schedule:?}: inputs::tile_boundary_cases"
        );
        for kind in InputKind::ALL {
            let (all, segments) = layout(kind, seed);
            if let Some(k) = first_wrong(sum, &all, &segments) {
                panic!(
                    "seed {seed:#x} {options:?} {schedule:?} kind {kind:?}: segment {k} ({} terms) differs from the loop",
                    segments[k].len()
                );
            }
        }
    }
}

/// A plan fault must change no bits: the plan only decides which path a tile takes.
#[test]
fn onepass_plan_faults_change_no_bits() {
    let Some(gpu) = open_or_skip("onepass_plan_faults_change_no_bits") else {
        return;
    };
    let seed = 0x9a1au64;
    for m in OnePassMutant::ALL.into_iter().filter(|m| !m.changes_bits()) {
        let sum = OnePassSum::with_mutant(&gpu, m).unwrap();
        let (all, segments) = boundary_cases(300);
        assert_eq!(
            first_wrong(&sum, &all, &segments),
            None,
            "{}: inputs::tile_boundary_cases",
            m.name()
        );
        for kind in InputKind::ALL {
            let (all, segments) = layout(kind, seed);
            if let Some(k) = first_wrong(&sum, &all, &segments) {
                panic!(
                    "seed {seed:#x} `{}` kind {kind:?}: segment {k} ({} terms) differs from the loop",
                    m.name(),
                    segments[k].len()
                );
            }
        }
    }
}
