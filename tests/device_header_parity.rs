//! The host build of `kernels/binade.cuh` (the device algebra) against the Rust algebra of
//! `src/unit.rs` (every mutant) and against MPFR (the correct algebra), for f64 and f32, on
//! seeded random samples aimed at ties, landings, wide gaps, subnormals and specials.
//!
//! `BINADE_HEADER_SAMPLES` overrides the sample count (default 1,000,000 per format).

use binade::algebra::Algebra;
use binade::format::{scaled, Format, Layout, F32, F64};
use binade::unit::{Binade, Unit};
use binade::verify::device_header as dh;
use binade::verify::mutant::Mutant;
use binade::verify::oracle::mpfr_add;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use rayon::prelude::*;

const SEED: u64 = 0x5eed_b1ade;

fn sample_count() -> usize {
    std::env::var("BINADE_HEADER_SAMPLES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1_000_000)
}

/// One case: a binade, a start and a short run of terms (bits of the format).
#[derive(Clone, Debug)]
struct Case {
    b: Binade,
    s: u64,
    terms: Vec<u64>,
}

fn random_binade<F: Format>(rng: &mut Xoshiro256PlusPlus) -> Binade {
    let max = F::MAX_NORMAL_FIELD;
    Binade(match rng.random_range(0..10) {
        0..=2 => rng.random_range(1..=(F::FRAC_BITS + 4).min(max)),
        3 => max - rng.random_range(0..3),
        _ => rng.random_range(1..=max),
    })
}

fn start_in<F: Format>(b: Binade, rng: &mut Xoshiro256PlusPlus) -> u64 {
    let frac = match rng.random_range(0..10) {
        0..=2 => F::FRAC_MASK - rng.random_range(0..16u64).min(F::FRAC_MASK),
        3 => rng.random_range(0..16u64),
        _ => rng.random::<u64>() & F::FRAC_MASK,
    };
    ((b.0 as u64) << F::FRAC_BITS) | frac
}

fn start<F: Format>(b: Binade, rng: &mut Xoshiro256PlusPlus) -> u64 {
    if rng.random_range(0..10) == 0 {
        rng.random::<u64>() & F::ALL // anything: other binades, zero, negative, specials
    } else {
        start_in::<F>(b, rng)
    }
}

/// A term `2^(b - BIAS - gap) * (1 + f)`-ish: gap is the shift from the term to the sum's ulp
/// grid, so ties, half-misplaced ties and sticky patterns appear often.
fn term_near<F: Format>(b: Binade, rng: &mut Xoshiro256PlusPlus) -> u64 {
    let gap: i64 = rng.random_range(-3..=(F::FRAC_BITS as i64 + 4));
    let field = b.0 as i64 - gap;
    let mut frac = rng.random::<u64>() & F::FRAC_MASK;
    if (1..=F::FRAC_BITS as i64).contains(&gap) {
        let g = gap as u32;
        let low = match rng.random_range(0..4) {
            0 => 1u64 << (g - 1),                      // exact tie
            1 if g >= 2 => 1u64 << (g - 2),            // a quarter: the misplaced half
            2 if g >= 2 => (1u64 << (g - 1)) | 1,      // just above the tie
            _ => rng.random::<u64>() & ((1 << g) - 1), // anything
        };
        frac = (frac & !((1u64 << g) - 1)) | low;
        frac &= F::FRAC_MASK;
    }
    if field < 1 {
        frac | 1 // subnormal
    } else if field as u64 >= F::EXP_ALL_ONES {
        F::EXP_ALL_ONES << F::FRAC_BITS
    } else {
        ((field as u64) << F::FRAC_BITS) | frac
    }
}

fn term<F: Format>(b: Binade, rng: &mut Xoshiro256PlusPlus) -> u64 {
    match rng.random_range(0..20) {
        0..=8 => term_near::<F>(b, rng),
        9 => rng.random::<u64>() & F::SIGN, // +0 or -0
        10 => term_near::<F>(b, rng) | F::SIGN,
        11 => (F::EXP_ALL_ONES << F::FRAC_BITS) | (rng.random::<u64>() & F::FRAC_MASK),
        12 | 13 => rng.random::<u64>() & F::FRAC_MASK, // subnormal or zero
        14 => {
            // Far above the sum: shifts past the saturation bound.
            let field = (b.0 as u64 + rng.random_range(3..80)).min(F::MAX_NORMAL_FIELD as u64);
            (field << F::FRAC_BITS) | (rng.random::<u64>() & F::FRAC_MASK)
        }
        _ => rng.random::<u64>() & F::ALL,
    }
}

/// A start `top - k*u` and terms summing to exactly `k*u`, landing on `2^(e+1)`.
fn landing<F: Format>(rng: &mut Xoshiro256PlusPlus) -> Case {
    let lo = F::FRAC_BITS + 2;
    let b = Binade(rng.random_range(lo..=F::MAX_NORMAL_FIELD - 1));
    let k = rng.random_range(1..=8u64);
    let s = ((b.0 as u64) << F::FRAC_BITS) | (F::FRAC_MASK + 1 - k);
    let q = b.0 as i32 - F::BIAS - F::FRAC_BITS as i32;
    Case {
        b,
        s,
        terms: vec![scaled::<F>(k, q)],
    }
}

fn cases<F: Format>(n: usize, seed: u64) -> Vec<Case> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    (0..n)
        .map(|_| {
            if rng.random_range(0..50) == 0 {
                return landing::<F>(&mut rng);
            }
            let b = random_binade::<F>(&mut rng);
            let s = start::<F>(b, &mut rng);
            let len = rng.random_range(1..=3);
            let terms = (0..len).map(|_| term::<F>(b, &mut rng)).collect();
            Case { b, s, terms }
        })
        .collect()
}

/// The format-specific entry points of the header.
trait Header: Format {
    fn c_term(b: Binade, x: u64, m: Mutant) -> Unit;
    fn c_apply(u: Unit, b: Binade, s: u64, m: Mutant) -> Option<u64>;
}

impl Header for F64 {
    fn c_term(b: Binade, x: u64, m: Mutant) -> Unit {
        dh::term_unit_f64(b, x, m)
    }
    fn c_apply(u: Unit, b: Binade, s: u64, m: Mutant) -> Option<u64> {
        dh::apply_f64(u, b, s, m)
    }
}

impl Header for F32 {
    fn c_term(b: Binade, x: u64, m: Mutant) -> Unit {
        dh::term_unit_f32(b, x as u32, m)
    }
    fn c_apply(u: Unit, b: Binade, s: u64, m: Mutant) -> Option<u64> {
        dh::apply_f32(u, b, s as u32, m).map(u64::from)
    }
}

/// The run's unit through the header, checking every step against the Rust algebra.
fn run_unit_checked<F: Header>(c: &Case, m: Mutant, seed: u64) -> Unit {
    let mut acc = Unit::ZERO;
    for &x in &c.terms {
        let want = Algebra::<F>::term_unit(&m, c.b, x);
        let got = F::c_term(c.b, x, m);
        assert_eq!(
            got,
            want,
            "{} term_unit mutant {m} seed {seed:#x}: b={} x={x:#x} case {c:?}",
            F::NAME,
            c.b.0
        );
        let next = Algebra::<F>::compose(&m, acc, want);
        let got = dh::compose(acc, want, m);
        assert_eq!(
            got,
            next,
            "{} compose mutant {m} seed {seed:#x}: {acc:?} then {want:?} case {c:?}",
            F::NAME
        );
        acc = next;
    }
    acc
}

fn check_against_rust<F: Header>(seed: u64) {
    let n = sample_count();
    let all = cases::<F>(n, seed);
    for &m in &Mutant::ALL {
        all.par_iter().for_each(|c| {
            let u = run_unit_checked::<F>(c, m, seed);
            let want = Algebra::<F>::apply(&m, u, c.b, c.s);
            let got = F::c_apply(u, c.b, c.s, m);
            assert_eq!(
                got,
                want,
                "{} apply mutant {m} seed {seed:#x}: unit {u:?} b={} s={:#x}",
                F::NAME,
                c.b.0,
                c.s
            );
        });
    }
}

/// Random units (any increments up to SATURATED) composed by both sides, every mutant.
fn check_compose_random(seed: u64) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let pick = |rng: &mut Xoshiro256PlusPlus| match rng.random_range(0..4) {
        0 => Unit::SATURATED - rng.random_range(0..4),
        1 => rng.random_range(0..8),
        _ => rng.random_range(0..=Unit::SATURATED),
    };
    for _ in 0..sample_count() / 4 {
        let a = Unit {
            even: pick(&mut rng),
            odd: pick(&mut rng),
        };
        let b = Unit {
            even: pick(&mut rng),
            odd: pick(&mut rng),
        };
        for &m in &Mutant::ALL {
            assert_eq!(
                dh::compose(a, b, m),
                Algebra::<F64>::compose(&m, a, b),
                "compose mutant {m} seed {seed:#x}: {a:?} then {b:?}"
            );
        }
    }
}

/// Where the header's unit applies, the result equals MPFR's additions one by one. Returns
/// (applied, total) so the caller can check the samples exercised the rule.
fn check_against_mpfr<F: Header>(seed: u64) -> (usize, usize) {
    let n = sample_count();
    let all = cases::<F>(n, seed);
    let applied: usize = all
        .par_iter()
        .map(|c| {
            let mut u = Unit::ZERO;
            for &x in &c.terms {
                u = dh::compose(u, F::c_term(c.b, x, Mutant::None), Mutant::None);
            }
            let Some(got) = F::c_apply(u, c.b, c.s, Mutant::None) else {
                return 0;
            };
            let want = c.terms.iter().fold(c.s, |s, &x| mpfr_add::<F>(s, x));
            assert_eq!(
                got,
                want,
                "{} vs MPFR seed {seed:#x}: b={} s={:#x} terms {:x?} unit {u:?}",
                F::NAME,
                c.b.0,
                c.s,
                c.terms
            );
            1
        })
        .sum();
    (applied, n)
}

#[test]
fn f64_header_equals_rust_algebra_for_every_mutant() {
    check_against_rust::<F64>(SEED);
}

#[test]
fn f32_header_equals_rust_algebra_for_every_mutant() {
    check_against_rust::<F32>(SEED ^ 32);
}

#[test]
fn header_compose_equals_rust_on_random_units() {
    check_compose_random(SEED ^ 0xc0);
}

#[test]
fn f64_header_equals_mpfr() {
    let (applied, n) = check_against_mpfr::<F64>(SEED ^ 0x64);
    println!("f64: {applied} of {n} runs applied in one step and matched MPFR");
    assert!(
        applied * 4 > n,
        "only {applied} of {n} samples applied: the sampler misses the rule (seed {:#x})",
        SEED ^ 0x64
    );
}

#[test]
fn f32_header_equals_mpfr() {
    let (applied, n) = check_against_mpfr::<F32>(SEED ^ 0x32);
    println!("f32: {applied} of {n} runs applied in one step and matched MPFR");
    assert!(
        applied * 4 > n,
        "only {applied} of {n} samples applied: the sampler misses the rule (seed {:#x})",
        SEED ^ 0x32
    );
}

/// Every mutant of the header is caught by these samples: it gives bits MPFR disagrees with,
/// or refuses a run the correct algebra applies.
#[test]
fn every_header_mutant_is_caught() {
    let n = sample_count() / 4;
    let f64_cases = cases::<F64>(n, SEED ^ 0x4b);
    let f32_cases = cases::<F32>(n, SEED ^ 0x4c);
    for &m in &Mutant::ALL[1..] {
        let caught = caught_by::<F64>(&f64_cases, m) + caught_by::<F32>(&f32_cases, m);
        assert!(
            caught > 0,
            "mutant {m} survives {n} samples per format (seeds {:#x}, {:#x})",
            SEED ^ 0x4b,
            SEED ^ 0x4c
        );
    }
}

fn caught_by<F: Header>(cases: &[Case], m: Mutant) -> usize {
    cases
        .par_iter()
        .filter(|c| {
            let unit = |mm: Mutant| {
                c.terms.iter().fold(Unit::ZERO, |u, &x| {
                    dh::compose(u, F::c_term(c.b, x, mm), mm)
                })
            };
            let right = F::c_apply(unit(Mutant::None), c.b, c.s, Mutant::None);
            match F::c_apply(unit(m), c.b, c.s, m) {
                Some(bits) => bits != c.terms.iter().fold(c.s, |s, &x| mpfr_add::<F>(s, x)),
                None => right.is_some(),
            }
        })
        .count()
}
