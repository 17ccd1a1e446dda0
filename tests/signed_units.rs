//! Signed units (`binade::signed_unit`) checked exhaustively in the tiny formats: every start
//! in every binade and every pair of terms of either sign (NaN, infinities, zeros and
//! subnormals included), every triple from the starts of two binades, against the format's
//! own adds and (pairs, one binade's starts) against MPFR. A unit that applies must give the
//! loop's bits; the named faults must each give a wrong result somewhere. Failures print the
//! format, the start and the terms.

use binade::format::{is_positive_normal, Format, Layout, E4M3, E5M2};
use binade::signed_unit::{apply, compose, run_unit, SignedFault, SignedUnit};
use binade::unit::Binade;
use binade::verify::oracle::{mpfr_add, native_add};

/// Every bit pattern of `F`.
fn all<F: Format>() -> Vec<u64> {
    (0..=F::ALL).collect()
}

/// The positive normal starts of binade `b`.
fn starts<F: Format>(b: u32) -> Vec<u64> {
    (0..=F::FRAC_MASK)
        .map(|f| ((b as u64) << F::FRAC_BITS) | f)
        .collect()
}

fn binades<F: Format>() -> std::ops::RangeInclusive<u32> {
    1..=F::MAX_NORMAL_FIELD
}

fn native_loop<F: Format>(s: u64, terms: &[u64]) -> u64 {
    terms.iter().fold(s, |s, &x| native_add::<F>(s, x))
}

/// True when every partial sum of the loop from `s` stays a positive normal in `b`.
fn stays<F: Format>(b: u32, s: u64, terms: &[u64]) -> bool {
    let mut acc = s;
    terms.iter().all(|&x| {
        acc = native_add::<F>(acc, x);
        is_positive_normal::<F>(acc) && (acc >> F::FRAC_BITS) as u32 == b
    })
}

/// Pairs: (cases where the unit applied, cases where the loop stayed in the binade).
fn check_pairs<F: Format>() -> Result<(u64, u64), String> {
    let (mut applied, mut stayed) = (0u64, 0u64);
    let values = all::<F>();
    for b in binades::<F>() {
        let bin = Binade(b);
        for &x in &values {
            for &y in &values {
                let unit = run_unit::<F>(bin, &[x, y]);
                for s in starts::<F>(b) {
                    let inside = stays::<F>(b, s, &[x, y]);
                    stayed += u64::from(inside);
                    if let Some(v) = apply::<F>(unit, bin, s) {
                        applied += 1;
                        let want = native_loop::<F>(s, &[x, y]);
                        if v != want {
                            return Err(format!(
                                "{} start {s:#x} terms {x:#x} {y:#x}: unit gives {v:#x}, the loop {want:#x}",
                                F::NAME
                            ));
                        }
                    }
                }
            }
        }
    }
    Ok((applied, stayed))
}

#[test]
fn every_pair_in_e4m3_and_e5m2_is_exact_where_it_applies() {
    for (name, r) in [
        ("e4m3", check_pairs::<E4M3>()),
        ("e5m2", check_pairs::<E5M2>()),
    ] {
        let (applied, stayed) = r.unwrap_or_else(|e| panic!("{e}"));
        // Not vacuous: most runs that stay in their binade are taken by the unit (the rest
        // touch the margins of half a quantum at either end).
        assert!(
            applied * 10 >= stayed * 8,
            "{name}: applied {applied} of {stayed} cases that stay in their binade"
        );
        eprintln!("{name}: the unit applied in {applied} of {stayed} start-pair cases that stay in their binade");
    }
}

#[test]
fn every_triple_in_e4m3_from_two_binades_is_exact_where_it_applies() {
    let values = all::<E4M3>();
    let mut applied = 0u64;
    for b in [7u32, 11] {
        let bin = Binade(b);
        let ss = starts::<E4M3>(b);
        for &x in &values {
            for &y in &values {
                let xy = run_unit::<E4M3>(bin, &[x, y]);
                for &z in &values {
                    let unit = compose(xy, run_unit::<E4M3>(bin, &[z]));
                    for &s in &ss {
                        if let Some(v) = apply::<E4M3>(unit, bin, s) {
                            applied += 1;
                            let want = native_loop::<E4M3>(s, &[x, y, z]);
                            assert_eq!(v, want, "e4m3 start {s:#x} terms {x:#x} {y:#x} {z:#x}");
                        }
                    }
                }
            }
        }
    }
    assert!(applied > 1_000_000, "applied {applied}");
}

#[test]
fn pairs_agree_with_mpfr() {
    let values = all::<E4M3>();
    let bin = Binade(8);
    for &x in &values {
        for &y in &values {
            let unit = run_unit::<E4M3>(bin, &[x, y]);
            for s in starts::<E4M3>(8) {
                if let Some(v) = apply::<E4M3>(unit, bin, s) {
                    let want = mpfr_add::<E4M3>(mpfr_add::<E4M3>(s, x), y);
                    assert_eq!(
                        v, want,
                        "e4m3 start {s:#x} terms {x:#x} {y:#x}: MPFR {want:#x}"
                    );
                }
            }
        }
    }
}

#[test]
fn composition_is_associative_with_the_empty_run_as_identity() {
    let values = all::<E5M2>();
    let bin = Binade(15);
    let units: Vec<SignedUnit> = values
        .iter()
        .map(|&x| run_unit::<E5M2>(bin, &[x]))
        .collect();
    for &a in units.iter().step_by(3) {
        assert_eq!(compose(SignedUnit::ZERO, a), a);
        assert_eq!(compose(a, SignedUnit::ZERO), a);
        for &b in units.iter().step_by(5) {
            for &c in units.iter().step_by(7) {
                assert_eq!(
                    compose(compose(a, b), c),
                    compose(a, compose(b, c)),
                    "{a:?} {b:?} {c:?}"
                );
            }
        }
    }
}

#[test]
fn each_named_fault_gives_a_wrong_result() {
    use binade::verify::signed_mutants::{first_wrong_triple, name};
    assert_eq!(first_wrong_triple(SignedFault::None), None);
    for fault in SignedFault::ALL.into_iter().skip(1) {
        let wrong = first_wrong_triple(fault);
        assert!(
            wrong.is_some(),
            "{}: every applied triple still had the loop's bits",
            name(fault)
        );
        eprintln!("{} killed: {}", name(fault), wrong.unwrap_or_default());
    }
}
