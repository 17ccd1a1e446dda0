//! f16 and bf16 as formats of the algebra, on the CPU: the one-term rule against the format's
//! own add and against MPFR on seeded samples of every sample class, and the format's add
//! (the f64 sum rounded once more, `format::Tiny`) against MPFR on every class; then the rule
//! on every one of the 2^32 (start, term) pairs of each format against that add
//! (`verify::battery::exhaustive_pairs_native`). The check of every pair against the
//! device's own half-precision add instruction needs a GPU and is not here.
//!
//! Each failure message names the format, the class, the seed and the sample, so a case can
//! be replayed (`verify::battery::one_term`).

use binade::algebra::Exact;
use binade::format::{Format, BF16, F16};
use binade::verify::battery::{one_term, Reference, Tally};
use binade::verify::sampler::SampleClass;

/// Samples per class and reference (about a second for both formats on two cores).
const PER_CLASS: u64 = 200_000;
const SEED: u64 = 0x16_b16;

/// Checks every class `F` has; returns the samples checked.
fn check<F: Format>() -> u64 {
    let mut total = Tally::default();
    for class in SampleClass::ALL.into_iter().filter(|c| c.exists_for::<F>()) {
        for reference in [Reference::Native, Reference::Mpfr] {
            let t = one_term::<F, Exact>(&Exact, class, PER_CLASS, SEED, reference);
            assert_eq!(
                t.failures,
                0,
                "{} {class:?} against {reference:?}, seed {SEED:#x}: {}",
                F::NAME,
                t.example.as_deref().unwrap_or("(no example)")
            );
            assert_eq!(t.samples, PER_CLASS, "{} {class:?}", F::NAME);
            total.samples += t.samples;
            total.applied += t.applied;
        }
    }
    println!(
        "{}: {} samples, the rule applied on {}, no failure",
        F::NAME,
        total.samples,
        total.applied
    );
    assert!(total.applied > 0, "{}: the rule never applied", F::NAME);
    total.samples
}

#[test]
fn f16_one_term_rule_and_add_against_mpfr() {
    assert_eq!(F16::NAME, "f16");
    assert_eq!((F16::EXP_BITS, F16::FRAC_BITS), (5, 10));
    // Eleven classes: f16 has no gaps over 70 binades.
    assert_eq!(check::<F16>(), 11 * 2 * PER_CLASS);
}

#[test]
fn bf16_one_term_rule_and_add_against_mpfr() {
    assert_eq!(BF16::NAME, "bf16");
    assert_eq!((BF16::EXP_BITS, BF16::FRAC_BITS), (8, 7));
    assert_eq!(check::<BF16>(), 12 * 2 * PER_CLASS);
}

/// Every (start, term) pair of bf16: 2^32, those with a positive normal start judged against
/// the native add (about 50 s on two cores).
#[test]
fn bf16_every_pair_against_the_native_add() {
    every_pair::<BF16>();
}

/// Every (start, term) pair of f16: 2^32, those with a positive normal start judged against
/// the native add (about 50 s on two cores).
#[test]
fn f16_every_pair_against_the_native_add() {
    every_pair::<F16>();
}

fn every_pair<F: Format>() {
    let started = std::time::Instant::now();
    let t = binade::verify::battery::exhaustive_pairs_native::<F, Exact>(&Exact);
    println!(
        "{}: {} pairs with a positive normal start, the rule applied on {}, {} failures, {:.1} s",
        F::NAME,
        t.samples,
        t.applied,
        t.failures,
        started.elapsed().as_secs_f64()
    );
    assert_eq!(
        t.failures,
        0,
        "{}: {}",
        F::NAME,
        t.example.as_deref().unwrap_or("(no example)")
    );
    assert!(t.applied > 0);
}
