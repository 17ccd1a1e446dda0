//! f16 and bf16 on the device: the one-term rule of the device header on every (start,
//! term) pair against the device's own add instruction (`gpu::half_pairs`), and the check
//! itself checked: a header mutant must make it fail, and the CPU check of the same pairs
//! (`verify::battery::exhaustive_pairs_native`, whose reference is the f64 sum rounded once)
//! must find the rule applying on exactly as many pairs.
//!
//! Without a GPU (or NVRTC) the tests print `skipped:` and return, which fails under
//! `BINADE_REQUIRE_GPU=1`.

use binade::algebra::Exact;
use binade::format::{Format, BF16, F16};
use binade::gpu::half_pairs::{compile_for, HalfFormat, HalfPairs};
use binade::gpu::require::{nvrtc_or_skip, open_or_skip};
use binade::verify::battery::exhaustive_pairs_native;
use binade::verify::mutant::Mutant;

/// Positive normal starts times every term: (2^E - 2) * 2^F * 2^16.
fn pairs_of<F: Format>() -> u64 {
    ((1u64 << F::EXP_BITS) - 2) * (1u64 << F::FRAC_BITS) * 65536
}

#[test]
fn half_pairs_compiles_for_sm_90() {
    if !nvrtc_or_skip("half_pairs_compiles_for_sm_90") {
        return;
    }
    for format in HalfFormat::ALL {
        compile_for("sm_90", format, Mutant::None)
            .unwrap_or_else(|e| panic!("{}: {e:#}", format.name()));
    }
}

#[test]
fn every_pair_against_the_device_add() {
    let Some(gpu) = open_or_skip("every_pair_against_the_device_add") else {
        return;
    };
    for format in HalfFormat::ALL {
        let started = std::time::Instant::now();
        let t = HalfPairs::new(&gpu, format, Mutant::None)
            .and_then(|c| c.check())
            .unwrap_or_else(|e| panic!("{}: {e:#}", format.name()));
        let (want_pairs, cpu) = match format {
            HalfFormat::F16 => (
                pairs_of::<F16>(),
                exhaustive_pairs_native::<F16, Exact>(&Exact),
            ),
            HalfFormat::Bf16 => (
                pairs_of::<BF16>(),
                exhaustive_pairs_native::<BF16, Exact>(&Exact),
            ),
        };
        println!(
            "{} on {}: {} pairs, the rule applied on {}, {} wrong, {} refused (CPU: applied on {}); {:.1} s",
            format.name(),
            gpu.name,
            t.pairs,
            t.applied,
            t.wrong,
            t.refused,
            cpu.applied,
            started.elapsed().as_secs_f64()
        );
        assert_eq!(t.pairs, want_pairs, "{}: pairs judged", format.name());
        assert_eq!(
            (t.wrong, t.refused),
            (0, 0),
            "{}: first wrong pair (start, term) {:x?}, first refused {:x?}",
            format.name(),
            t.first_wrong,
            t.first_refused
        );
        assert_eq!(cpu.failures, 0, "{}: the CPU check failed", format.name());
        assert_eq!(
            t.applied,
            cpu.applied,
            "{}: the device and the CPU saw the rule apply on different numbers of pairs",
            format.name()
        );
        assert!(t.applied > 0, "{}: the rule never applied", format.name());
    }
}

/// The check can fail: each header mutant that changes the one-term rule is caught on some
/// pair of each format (a wrong result or a refusal where the rule must apply).
#[test]
fn header_mutants_fail_the_pair_check() {
    let Some(gpu) = open_or_skip("header_mutants_fail_the_pair_check") else {
        return;
    };
    let mutants = [
        Mutant::TieAlwaysUp,
        Mutant::TieAlwaysDown,
        Mutant::NoUpperCheck,
        Mutant::GapOffByOne,
        Mutant::LandingRefused,
        Mutant::HalfMisplaced,
    ];
    for format in HalfFormat::ALL {
        for m in mutants {
            let t = HalfPairs::new(&gpu, format, m)
                .and_then(|c| c.check())
                .unwrap_or_else(|e| panic!("{} {}: {e:#}", format.name(), m.name()));
            assert!(
                t.wrong + t.refused > 0,
                "{}: header mutant {} passed every pair ({} applied)",
                format.name(),
                m.name(),
                t.applied
            );
        }
    }
}
