//! The signed units of `kernels/binade.cuh` (host build, the source the device compiles)
//! against `binade::signed_unit`, field by field and bit by bit, under every signed fault:
//! every e4m3 term in every binade, every pair composed and applied from every start, every
//! right-nested triple of one binade, and f64 samples by class (seeded xoshiro; a failure
//! prints the seed and the case). Then the kill search of the mutation matrix run on the
//! header: the correct build exact, every fault caught by a wrong result.

use binade::format::{Layout, E4M3, F64};
use binade::signed_unit::{
    apply_planned_f64, apply_with, compose_with, plan_code_f64, run_unit_planned_f64,
    term_unit_with, SignedFault, SignedUnit,
};
use binade::unit::Binade;
use binade::verify::device_header_signed::{code, HeaderSigned};
use binade::verify::signed_mutants::{first_wrong_triple, first_wrong_triple_header};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

const SEED: u64 = 0x5167_2026;

#[test]
fn codes_follow_signed_fault_all() {
    for (i, f) in SignedFault::ALL.iter().enumerate() {
        assert_eq!(code(*f), i as u32, "{f:?}");
    }
}

#[test]
fn every_e4m3_term_unit_equals_rust() {
    for fault in SignedFault::ALL {
        let h = HeaderSigned(fault);
        for b in 1..E4M3::EXP_ALL_ONES as u32 {
            for x in 0..=E4M3::ALL {
                let want = term_unit_with::<E4M3>(Binade(b), x, fault);
                let got = h.term_unit::<E4M3>(Binade(b), x);
                assert_eq!(got, want, "{fault:?} binade {b} term {x:#x}");
            }
        }
    }
}

#[test]
fn every_e4m3_pair_composes_and_applies_as_rust() {
    for fault in SignedFault::ALL {
        let h = HeaderSigned(fault);
        for b in [1u32, 6, 7, 14] {
            let b = Binade(b);
            let units: Vec<SignedUnit> = (0..=E4M3::ALL)
                .map(|x| term_unit_with::<E4M3>(b, x, fault))
                .collect();
            for (x, &ux) in units.iter().enumerate() {
                for (y, &uy) in units.iter().enumerate() {
                    let want = compose_with(ux, uy, fault);
                    let got = h.compose(ux, uy);
                    assert_eq!(got, want, "{fault:?} binade {} terms {x:#x} {y:#x}", b.0);
                    for s in 0..=E4M3::ALL {
                        assert_eq!(
                            h.apply::<E4M3>(want, b, s),
                            apply_with::<E4M3>(want, b, s, fault),
                            "{fault:?} binade {} terms {x:#x} {y:#x} start {s:#x}",
                            b.0
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn every_e4m3_triple_equals_rust() {
    let b = Binade(7);
    let h = HeaderSigned(SignedFault::None);
    let units: Vec<SignedUnit> = (0..=E4M3::ALL)
        .map(|x| term_unit_with::<E4M3>(b, x, SignedFault::None))
        .collect();
    let starts: Vec<u64> = (0..=E4M3::FRAC_MASK).map(|f| (7 << 3) | f).collect();
    for (x, &ux) in units.iter().enumerate() {
        for (y, &uy) in units.iter().enumerate() {
            let yz_h: Vec<SignedUnit> = units.iter().map(|&uz| h.compose(uy, uz)).collect();
            for (z, &uz) in units.iter().enumerate() {
                let want = compose_with(
                    ux,
                    compose_with(uy, uz, SignedFault::None),
                    SignedFault::None,
                );
                let got = h.compose(ux, yz_h[z]);
                assert_eq!(got, want, "terms {x:#x} {y:#x} {z:#x}");
                for &s in &starts {
                    assert_eq!(
                        h.apply::<E4M3>(got, b, s),
                        apply_with::<E4M3>(want, b, s, SignedFault::None),
                        "terms {x:#x} {y:#x} {z:#x} start {s:#x}"
                    );
                }
            }
        }
    }
}

/// An f64 term of a random class: near the binade's quantum, ties, large (saturating),
/// zeros of both signs, subnormals, infinities and NaN; either sign.
fn f64_term(rng: &mut Xoshiro256PlusPlus, b: u32) -> u64 {
    let sign = if rng.random::<bool>() { F64::SIGN } else { 0 };
    let field = |d: i64| ((b as i64 + d).clamp(0, 0x7fe) as u64) << 52;
    let mag = match rng.random_range(0..8u32) {
        0 => field(-rng.random_range(0..60i64)) | (rng.random::<u64>() & F64::FRAC_MASK),
        1 => field(-53) | (rng.random_range(0..4u64) << 50),
        2 => field(rng.random_range(0..1100i64)) | (rng.random::<u64>() & F64::FRAC_MASK),
        3 => 0,
        4 => rng.random::<u64>() & F64::FRAC_MASK,
        5 => 0x7ff0_0000_0000_0000 | (rng.random_range(0..2u64) << 51),
        _ => field(-rng.random_range(1..30i64)) | (rng.random::<u64>() & F64::FRAC_MASK),
    };
    sign | mag
}

#[test]
fn f64_samples_equal_rust() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(SEED);
    for fault in SignedFault::ALL {
        let h = HeaderSigned(fault);
        for case in 0..20_000u32 {
            let b = rng.random_range(1..0x7ffu32);
            let n = rng.random_range(1..12usize);
            let terms: Vec<u64> = (0..n).map(|_| f64_term(&mut rng, b)).collect();
            let (mut want, mut got) = (SignedUnit::ZERO, SignedUnit::ZERO);
            for &x in &terms {
                let (ux, hx) = (
                    term_unit_with::<F64>(Binade(b), x, fault),
                    h.term_unit::<F64>(Binade(b), x),
                );
                assert_eq!(
                    hx, ux,
                    "seed {SEED:#x} {fault:?} case {case} binade {b} term {x:#x}"
                );
                want = compose_with(want, ux, fault);
                got = h.compose(got, hx);
            }
            assert_eq!(
                got, want,
                "seed {SEED:#x} {fault:?} case {case} binade {b} terms {terms:x?}"
            );
            let s = ((b as u64) << 52) | (rng.random::<u64>() & F64::FRAC_MASK);
            let s = if rng.random_range(0..8u32) == 0 {
                s ^ F64::SIGN
            } else {
                s
            };
            assert_eq!(
                h.apply::<F64>(got, Binade(b), s),
                apply_with::<F64>(want, Binade(b), s, fault),
                "seed {SEED:#x} {fault:?} case {case} binade {b} terms {terms:x?} start {s:#x}"
            );
        }
    }
}

#[test]
fn plan_codes_and_negated_runs_equal_rust() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(SEED ^ 1);
    let h = HeaderSigned(SignedFault::None);
    let specials = [
        0u64,
        F64::SIGN,
        1,
        F64::SIGN | 1,
        0x7ff0_0000_0000_0000,
        0xfff0_0000_0000_0000,
        0x7ff8_0000_0000_0000,
        1.0f64.to_bits(),
        (-1.0f64).to_bits(),
        f64::MAX.to_bits(),
        f64::MIN.to_bits(),
        f64::MIN_POSITIVE.to_bits(),
    ];
    for &s in &specials {
        assert_eq!(h.plan_code_f64(s), plan_code_f64(s), "prefix {s:#x}");
    }
    for case in 0..20_000u32 {
        let prefix: f64 = (rng.random::<f64>() - 0.5) * 2f64.powi(rng.random_range(-20..20));
        let code = plan_code_f64(prefix.to_bits());
        assert_eq!(
            h.plan_code_f64(prefix.to_bits()),
            code,
            "seed {SEED:#x} case {case}"
        );
        let n = rng.random_range(1..40usize);
        let terms: Vec<f64> = (0..n)
            .map(|_| {
                (rng.random::<f64>() - 0.4) * prefix.abs() * 2f64.powi(-rng.random_range(8..40))
            })
            .collect();
        let bits: Vec<u64> = terms.iter().map(|x| x.to_bits()).collect();
        let u = run_unit_planned_f64(code, &bits);
        let got = h.apply_planned_f64(u, code, prefix.to_bits());
        assert_eq!(
            got,
            apply_planned_f64(u, code, prefix.to_bits()),
            "seed {SEED:#x} case {case}"
        );
        if let Some(r) = got {
            let want = terms.iter().fold(prefix, |a, &x| a + x);
            assert_eq!(
                r,
                want.to_bits(),
                "seed {SEED:#x} case {case}: the loop from {prefix:e}"
            );
        }
    }
}

#[test]
fn header_kill_search_matches_rust() {
    for fault in SignedFault::ALL {
        let header = first_wrong_triple_header(fault);
        let rust = first_wrong_triple(fault);
        assert_eq!(
            header.is_some(),
            fault != SignedFault::None,
            "{fault:?}: {header:?}"
        );
        assert_eq!(header, rust, "{fault:?}");
    }
}

/// The lane tree (the device's grouping) and the left fold give equal units, or units that
/// both apply to no start (saturation), on chunks of N(0, 1)-like terms under plans from far
/// below to far above the terms' scale, either sign.
#[test]
fn lane_tree_and_left_fold_agree_or_apply_nowhere() {
    use binade::walk::{chunk_signed_unit, CHUNK};
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(SEED ^ 2);
    let (mut equal, mut nowhere) = (0u32, 0u32);
    for case in 0..600u32 {
        let scale = 2f64.powi(rng.random_range(-30..30));
        let terms: Vec<f64> = (0..CHUNK)
            .map(|_| binade::verify::signed_inputs::normal(&mut rng) * scale)
            .collect();
        let prefix = (rng.random::<f64>() - 0.3) * 2f64.powi(rng.random_range(-40..40));
        let code = plan_code_f64(prefix.to_bits());
        let bits: Vec<u64> = terms.iter().map(|x| x.to_bits()).collect();
        let fold = run_unit_planned_f64(code, &bits);
        let tree = chunk_signed_unit(&terms, code);
        if fold == tree {
            equal += 1;
        } else {
            nowhere += 1;
            assert!(
                fold.applies_nowhere::<F64>() && tree.applies_nowhere::<F64>(),
                "seed {SEED:#x} case {case} code {code:#x}: fold {fold:?} tree {tree:?}"
            );
        }
        if let (Some(a), Some(b)) = (
            apply_planned_f64(fold, code, prefix.to_bits()),
            apply_planned_f64(tree, code, prefix.to_bits()),
        ) {
            assert_eq!(a, b, "seed {SEED:#x} case {case}");
        }
    }
    // Both outcomes must occur, or the test did not test the saturated case.
    assert!(
        equal > 0 && nowhere > 0,
        "equal {equal}, applying nowhere {nowhere}"
    );
}

/// The host model of the device's signed chunk walk has the loop's bits on every signed
/// stream at sizes around chunk edges, and takes the drifting streams by their units.
#[test]
fn signed_chunk_walk_equals_the_loop() {
    use binade::format::same_result;
    use binade::verify::signed_inputs::SignedKind;
    use binade::walk::{loop_sum, signed_chunk_walk, CHUNK};
    for kind in SignedKind::ALL {
        for n in [0usize, 1, 1023, 1025, 100_003, 1 << 20] {
            let terms = kind.generate(n, SEED ^ n as u64);
            let w = signed_chunk_walk(&terms);
            let want = loop_sum::<F64>(&terms).to_bits();
            assert!(
                same_result::<F64>(w.total.to_bits(), want),
                "{} n {n} seed {SEED:#x}: {:e} vs {:e}",
                kind.name(),
                w.total,
                f64::from_bits(want)
            );
            assert_eq!(
                w.applied + w.fallback,
                n.div_ceil(CHUNK),
                "{} n {n}",
                kind.name()
            );
            let drifting = matches!(
                kind,
                SignedKind::NormalOne | SignedKind::NormalMinusOne | SignedKind::OneInTwentyNegated
            );
            if drifting && n == 1 << 20 {
                assert!(
                    w.fallback * 10 <= n.div_ceil(CHUNK),
                    "{} n {n}: {} chunks term by term (seed {SEED:#x})",
                    kind.name(),
                    w.fallback
                );
            }
        }
    }
}
