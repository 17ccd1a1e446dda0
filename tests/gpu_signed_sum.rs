//! The device pipeline carrying signed units (`UnitKind::Signed`): its kernels compile for
//! every signed fault (NVRTC only), and on a device every sum equals the CPU loop's bits for
//! every signed kind and the standard input kinds, every plan (the device's signed plan, the
//! host's plans, plan codes with random binades and signs), both walks, in one launch
//! sequence of many sums; its units equal the host's chunk by chunk, and its chunk walk's
//! counts those of the host model (`walk::signed_chunk_walk`); it takes the chunks of
//! streams with a drifting sum by their units (the seed's units take none of them); and every
//! signed fault gives a wrong sum. Without NVRTC or a device the tests print `skipped:
//! REASON`; with `BINADE_REQUIRE_GPU=1` they fail instead. Seeds are in every message.

use binade::format::{same_result, F64};
use binade::gpu::ordered_sum::signed_kill::moved_codes;
use binade::gpu::require::{nvrtc_or_skip, open_or_skip};
use binade::gpu::{ordered_sum, GpuOrderedSum, GpuSum, UnitKind, WalkKind};
use binade::layout::PLAN_NEGATIVE;
use binade::plan::PlanKind;
use binade::signed_unit::{plan_code_f64, run_unit_planned_f64, SignedFault};
use binade::verify::inputs::InputKind;
use binade::verify::mutant::Mutant;
use binade::verify::signed_inputs::SignedKind;
use binade::walk::{chunk_signed_unit, chunk_sums, loop_sum, signed_chunk_walk, CHUNK};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

const SEED: u64 = 0x5167_0a11;
const SIZES: [usize; 8] = [0, 1, 3, 1023, 1025, 4099, 100_003, (1 << 20) + 7];

/// The streams every device test sums: each signed kind, and the input kinds whose terms
/// are non-negative, signed or special.
fn streams(seed: u64) -> Vec<(String, Vec<Vec<f64>>)> {
    let mut out: Vec<(String, Vec<Vec<f64>>)> = SignedKind::ALL
        .iter()
        .map(|k| {
            let pieces = SIZES
                .iter()
                .map(|&n| k.generate(n, seed ^ n as u64))
                .collect();
            (k.name().to_string(), pieces)
        })
        .collect();
    for k in [
        InputKind::Uniform,
        InputKind::SsimLike,
        InputKind::Geometric,
        InputKind::AdversarialTies,
        InputKind::Negatives,
        InputKind::Specials,
        InputKind::Overflow,
    ] {
        let pieces = SIZES
            .iter()
            .map(|&n| k.generate::<F64>(n, seed ^ n as u64))
            .collect();
        out.push((k.name().to_string(), pieces));
    }
    out
}

/// Each piece's total against the loop's bits (computed once per stream), naming `what`.
fn check_totals(name: &str, pieces: &[Vec<f64>], wants: &[u64], got: &[GpuSum], what: &str) {
    for ((p, &want), g) in pieces.iter().zip(wants).zip(got) {
        assert!(
            same_result::<F64>(g.total.to_bits(), want),
            "{name} n {} {what} seed {SEED:#x}: {:e} vs {:e}",
            p.len(),
            g.total,
            f64::from_bits(want)
        );
    }
}

/// The loop's bits of every piece.
fn loop_bits(pieces: &[Vec<f64>]) -> Vec<u64> {
    pieces
        .iter()
        .map(|p| loop_sum::<F64>(p).to_bits())
        .collect()
}

fn segments(pieces: &[Vec<f64>]) -> Vec<std::ops::Range<usize>> {
    let mut at = 0;
    pieces
        .iter()
        .map(|p| {
            at += p.len();
            at - p.len()..at
        })
        .collect()
}

#[test]
fn signed_kernels_compile_for_every_fault() {
    if !nvrtc_or_skip("signed_kernels_compile_for_every_fault") {
        return;
    }
    for f in SignedFault::ALL {
        if let Err(e) = ordered_sum::compile_with("sm_90", Mutant::None, f) {
            panic!("fault {f:?}: {e:#}");
        }
    }
}

#[test]
fn signed_sums_equal_the_loop() {
    let Some(gpu) = open_or_skip("signed_sums_equal_the_loop") else {
        return;
    };
    let base = GpuOrderedSum::new(&gpu)
        .unwrap()
        .with_units(UnitKind::Signed);
    for (name, pieces) in streams(SEED) {
        let segs = segments(&pieces);
        let all = pieces.concat();
        let stale = chunk_sums::<F64>(&all);
        let wants = loop_bits(&pieces);
        let dev = base.upload(&all).unwrap();
        for (plan, walk) in PlanKind::standard(SEED)
            .into_iter()
            .flat_map(|p| WalkKind::ALL.map(|w| (p.clone(), w)))
        {
            let sum = base.clone().with_walk(walk);
            let mut job = sum.job(dev.slice(0..all.len()), &segs).unwrap();
            let got = sum.run(&mut job, &plan, Some(&stale)).unwrap();
            let what = format!("plan {plan} {}", walk.name());
            check_totals(&name, &pieces, &wants, &got, &what);
        }
    }
}

/// The device's own plan with every sign flipped, and its codes moved by up to one binade
/// with one sign in four flipped (`signed_kill::moved_codes`): any codes give the loop's bits.
#[test]
fn any_signed_codes_give_the_loop() {
    let Some(gpu) = open_or_skip("any_signed_codes_give_the_loop") else {
        return;
    };
    let base = GpuOrderedSum::new(&gpu)
        .unwrap()
        .with_units(UnitKind::Signed);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(SEED);
    for (name, pieces) in streams(SEED ^ 7) {
        let segs = segments(&pieces);
        let all = pieces.concat();
        let wants = loop_bits(&pieces);
        let dev = base.upload(&all).unwrap();
        for walk in WalkKind::ALL {
            let sum = base.clone().with_walk(walk);
            let mut job = sum.job(dev.slice(0..all.len()), &segs).unwrap();
            sum.launch(&mut job, &PlanKind::TreePrefix, None).unwrap();
            let planned = sum.stages(&job).unwrap().binades;
            let flipped: Vec<u32> = planned
                .iter()
                .map(|&c| if c == 0 { 0 } else { c ^ PLAN_NEGATIVE })
                .collect();
            let moved = moved_codes(&planned, &mut rng);
            for (label, codes) in [("flipped", &flipped), ("moved", &moved)] {
                let got = sum.run_with_codes(&mut job, codes).unwrap();
                let what = format!("{label} codes {}", walk.name());
                check_totals(&name, &pieces, &wants, &got, &what);
            }
        }
    }
}

/// The device's plan codes and signed units equal the host's, chunk by chunk: the codes of
/// the prefix of the device's chunk sums, each chunk's unit under its code (or, where
/// saturation made the groupings differ, both units apply to no start).
#[test]
fn signed_stages_equal_the_host() {
    let Some(gpu) = open_or_skip("signed_stages_equal_the_host") else {
        return;
    };
    let sum = GpuOrderedSum::new(&gpu)
        .unwrap()
        .with_units(UnitKind::Signed);
    for (name, pieces) in streams(SEED ^ 3) {
        let segs = segments(&pieces);
        let all = pieces.concat();
        let dev = sum.upload(&all).unwrap();
        let mut job = sum.job(dev.slice(0..all.len()), &segs).unwrap();
        sum.launch(&mut job, &PlanKind::TreePrefix, None).unwrap();
        let st = sum.stages(&job).unwrap();
        assert_eq!(st.signed.len(), st.binades.len(), "{name}");
        for (k, p) in pieces.iter().enumerate() {
            let (c0, c1) = (st.chunk_base[k] as usize, st.chunk_base[k + 1] as usize);
            let mut prefix = 0.0f64;
            for (j, c) in (c0..c1).enumerate() {
                let code = plan_code_f64(prefix.to_bits());
                assert_eq!(
                    st.binades[c],
                    code,
                    "{name} n {} chunk {j} seed {SEED:#x}",
                    p.len()
                );
                let terms: Vec<u64> = p[j * CHUNK..((j + 1) * CHUNK).min(p.len())]
                    .iter()
                    .map(|x| x.to_bits())
                    .collect();
                let want = run_unit_planned_f64(code, &terms);
                let chunk = &p[j * CHUNK..((j + 1) * CHUNK).min(p.len())];
                let got = st.signed[c];
                assert_eq!(
                    got,
                    chunk_signed_unit(chunk, code),
                    "{name} n {} chunk {j} code {code:#x} seed {SEED:#x}: the host's lane tree",
                    p.len()
                );
                if code == 0 {
                    assert!(
                        !got.valid,
                        "{name} n {} chunk {j}: a term-by-term chunk's unit must be invalid",
                        p.len()
                    );
                } else if got != want {
                    // The device composes in a lane tree, the host left to right: equal
                    // unless saturation clamped, where both must apply to no start.
                    assert!(
                        got.applies_nowhere::<F64>() && want.applies_nowhere::<F64>(),
                        "{name} n {} chunk {j} code {code:#x} seed {SEED:#x}: {got:?} vs the host's {want:?}",
                        p.len()
                    );
                }
                prefix += st.sums[c];
            }
        }
    }
}

/// Streams whose running sum drifts away from zero are taken by their units: at most one
/// chunk in ten term by term under the device's plan with signed units, while the seed's
/// units (which refuse any negative term) take none of those with a negative term.
#[test]
fn drifting_signed_streams_are_taken_by_units() {
    let Some(gpu) = open_or_skip("drifting_signed_streams_are_taken_by_units") else {
        return;
    };
    let n = 1 << 20;
    for kind in [
        SignedKind::NormalOne,
        SignedKind::NormalMinusOne,
        SignedKind::OneInTwentyNegated,
    ] {
        let terms = kind.generate(n, SEED);
        let want = loop_sum::<F64>(&terms).to_bits();
        for walk in WalkKind::ALL {
            let signed = GpuOrderedSum::new(&gpu)
                .unwrap()
                .with_units(UnitKind::Signed)
                .with_walk(walk);
            let s = signed
                .sums_of(
                    &terms,
                    std::slice::from_ref(&(0..n)),
                    &PlanKind::TreePrefix,
                    None,
                )
                .unwrap()[0];
            assert_eq!(
                s.total.to_bits(),
                want,
                "{} {} seed {SEED:#x}",
                kind.name(),
                walk.name()
            );
            let chunks = n.div_ceil(CHUNK) as u64;
            assert!(
                s.fallback * 10 <= chunks,
                "{} {}: {} of {chunks} chunks term by term with signed units (seed {SEED:#x})",
                kind.name(),
                walk.name(),
                s.fallback
            );
            let seed_units = signed.clone().with_units(UnitKind::Unsigned);
            let u = seed_units
                .sums_of(
                    &terms,
                    std::slice::from_ref(&(0..n)),
                    &PlanKind::TreePrefix,
                    None,
                )
                .unwrap()[0];
            assert_eq!(
                u.total.to_bits(),
                want,
                "{} {} unsigned",
                kind.name(),
                walk.name()
            );
            assert_eq!(
                u.fallback,
                chunks,
                "{} {}: the seed's units took a chunk with a negative term",
                kind.name(),
                walk.name()
            );
        }
    }
}

/// Runs are deterministic: the same sums twice give the same bits and counts.
#[test]
fn signed_sums_repeat() {
    let Some(gpu) = open_or_skip("signed_sums_repeat") else {
        return;
    };
    let sum = GpuOrderedSum::new(&gpu)
        .unwrap()
        .with_units(UnitKind::Signed);
    let terms = SignedKind::NormalZero.generate(3_000_001, SEED);
    let a = sum
        .sums_of(
            &terms,
            std::slice::from_ref(&(0..terms.len())),
            &PlanKind::TreePrefix,
            None,
        )
        .unwrap();
    for _ in 0..3 {
        let b = sum
            .sums_of(
                &terms,
                std::slice::from_ref(&(0..terms.len())),
                &PlanKind::TreePrefix,
                None,
            )
            .unwrap();
        assert_eq!(a[0].total.to_bits(), b[0].total.to_bits(), "seed {SEED:#x}");
        assert_eq!((a[0].applied, a[0].fallback), (b[0].applied, b[0].fallback));
    }
}

/// A job made for one kind of units is refused by a pipeline carrying the other.
#[test]
fn a_job_of_the_other_units_is_refused() {
    let Some(gpu) = open_or_skip("a_job_of_the_other_units_is_refused") else {
        return;
    };
    let signed = GpuOrderedSum::new(&gpu)
        .unwrap()
        .with_units(UnitKind::Signed);
    let unsigned = signed.clone().with_units(UnitKind::Unsigned);
    let terms = vec![1.0f64; 5000];
    let dev = unsigned.upload(&terms).unwrap();
    let mut job = unsigned
        .job(
            dev.slice(0..terms.len()),
            std::slice::from_ref(&(0..terms.len())),
        )
        .unwrap();
    let err = signed
        .run(&mut job, &PlanKind::TreePrefix, None)
        .expect_err("words differ");
    assert!(format!("{err:#}").contains("words"), "{err:#}");
}

/// Every signed fault gives at least one wrong sum on the signed streams (the first named).
#[test]
fn every_signed_fault_is_killed_on_the_device() {
    let Some(gpu) = open_or_skip("every_signed_fault_is_killed_on_the_device") else {
        return;
    };
    for fault in SignedFault::ALL.into_iter().skip(1) {
        let sum = GpuOrderedSum::with_mutants(&gpu, Mutant::None, fault)
            .unwrap()
            .with_units(UnitKind::Signed);
        let wrong = ordered_sum::first_wrong_signed(&sum, SEED).unwrap();
        assert!(
            wrong.is_some(),
            "signed fault {fault:?} survived every stream (seed {SEED:#x})"
        );
    }
    let exact = GpuOrderedSum::new(&gpu)
        .unwrap()
        .with_units(UnitKind::Signed);
    let wrong = ordered_sum::first_wrong_signed(&exact, SEED).unwrap();
    assert!(wrong.is_none(), "the correct build: {wrong:?}");
}

/// The device's signed chunk walk takes exactly the chunks the host model takes
/// (`walk::signed_chunk_walk`: the same plan codes, the same lane-tree units, the same walk),
/// with the same bits.
#[test]
fn device_chunk_walk_counts_equal_the_host_model() {
    let Some(gpu) = open_or_skip("device_chunk_walk_counts_equal_the_host_model") else {
        return;
    };
    let sum = GpuOrderedSum::new(&gpu)
        .unwrap()
        .with_units(UnitKind::Signed)
        .with_walk(WalkKind::Chunks);
    for kind in SignedKind::ALL {
        for n in [100_003usize, 1 << 20] {
            let terms = kind.generate(n, SEED ^ n as u64);
            let host = signed_chunk_walk(&terms);
            let dev = sum
                .sums_of(
                    &terms,
                    std::slice::from_ref(&(0..n)),
                    &PlanKind::TreePrefix,
                    None,
                )
                .unwrap()[0];
            assert_eq!(
                dev.total.to_bits(),
                host.total.to_bits(),
                "{} n {n} seed {SEED:#x}",
                kind.name()
            );
            assert_eq!(
                (dev.applied, dev.fallback),
                (host.applied as u64, host.fallback as u64),
                "{} n {n} seed {SEED:#x}: (applied, term by term) on the device and in the host model",
                kind.name()
            );
        }
    }
}
