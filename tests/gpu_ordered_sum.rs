//! The GPU pipeline: the kernels compile with NVRTC for every mutant (when the NVRTC library
//! is present, no device needed), and on a device every sum equals the CPU loop's bits for
//! every input kind and plan kind. Without NVRTC or a device the tests print
//! `skipped: REASON`; with `BINADE_REQUIRE_GPU=1` (the GPU machine) they fail instead.

use binade::format::{same_result, F64};
use binade::gpu::require::{nvrtc_or_skip, open_or_skip};
use binade::gpu::{self, ordered_sum, GpuOrderedSum, WalkKind};
use binade::plan::PlanKind;
use binade::verify::inputs::InputKind;
use binade::verify::mutant::Mutant;
use binade::walk::{chunk_sums, loop_sum};

#[test]
fn kernels_compile_for_every_mutant() {
    if !nvrtc_or_skip("kernels_compile_for_every_mutant") {
        return;
    }
    for &m in &Mutant::ALL {
        if let Err(e) = ordered_sum::compile_for("sm_90", m) {
            panic!("mutant {m}: {e:#}");
        }
    }
}

#[test]
fn compile_errors_carry_the_log() {
    if !nvrtc_or_skip("compile_errors_carry_the_log") {
        return;
    }
    let err = gpu::compile(
        "broken",
        &["extern \"C\" __global__ void k() { undefined_name(); }"],
        &[],
        "sm_90",
    )
    .expect_err("the source does not compile");
    let msg = format!("{err:#}");
    assert!(
        msg.contains("undefined_name"),
        "the compiler's log is missing from: {msg}"
    );
    assert!(
        err.downcast_ref::<gpu::KernelCompileError>().is_some(),
        "a compile error must be a KernelCompileError, never a missing device: {msg}"
    );
    assert!(err.downcast_ref::<gpu::NoDevice>().is_none());
}

#[test]
fn device_sums_equal_the_loop() {
    let Some(gpu) = open_or_skip("device_sums_equal_the_loop") else {
        return;
    };
    let base = GpuOrderedSum::new(&gpu).unwrap();
    let seed = 0x6a7u64;
    let sizes = [0usize, 1, 3, 1023, 1025, 4099, 100_003];
    for kind in InputKind::ALL {
        // Every size is one segment of one buffer: many sums in one launch sequence.
        let pieces: Vec<Vec<f64>> = sizes
            .iter()
            .map(|&n| kind.generate::<F64>(n, seed ^ n as u64))
            .collect();
        let mut segments = Vec::new();
        let mut at = 0;
        for p in &pieces {
            segments.push(at..at + p.len());
            at += p.len();
        }
        let all = pieces.concat();
        for (plan, walk) in PlanKind::standard(seed)
            .into_iter()
            .flat_map(|p| WalkKind::ALL.map(|w| (p.clone(), w)))
        {
            let sum = base.clone().with_walk(walk);
            let stale = chunk_sums::<F64>(&all);
            let got = sum.sums_of(&all, &segments, &plan, Some(&stale)).unwrap();
            for (k, p) in pieces.iter().enumerate() {
                let want = loop_sum::<F64>(p).to_bits();
                assert!(
                    same_result::<F64>(got[k].total.to_bits(), want),
                    "kind {kind} n {} plan {plan} {} seed {seed:#x}: {:e} vs {:e}",
                    p.len(),
                    walk.name(),
                    got[k].total,
                    f64::from_bits(want)
                );
            }
        }
    }
}
