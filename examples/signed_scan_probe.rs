//! The one-thread engine on signed terms whose every chunk takes the signed path: N(1, 1)
//! terms after a first term of 2^30 (the sum stays in one binade, so no chunk goes term by
//! term), f64 and f32 (the f64 terms rounded, after a first term of 2^24), in L2 (131,072 terms) and from memory (10^7), by the widest compiled vector path and
//! by AVX2 at most (`fast::limit_vector_path`), in turn, five rounds; medians in ns a term.
//! Every total is checked against the loop's bits. Written for an AVX-512F form of the signed
//! scan, measured and removed (`reports/signed-avx512-2core`); the signed scan is AVX2 on
//! both lines since, so the two lines differ only by the passes a signed chunk does not take.
//!
//! `cargo run --release --example signed_scan_probe`
use binade::fast::{limit_vector_path, ordered_sum_fast, vector_path, FastTerm, VectorLimit};
use binade::format::Format;
use binade::verify::signed_inputs::normal;
use binade::walk::loop_sum;
use rand::SeedableRng;
use std::time::Instant;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn probe<T: FastTerm>(name: &str, terms: &[T], seed: u64) {
    let n = terms.len();
    let bits = |x: T| <T::F as Format>::to_bits(x);
    let want = bits(loop_sum::<T::F>(terms));
    let sums = (2_000_000_000 / n).max(3);
    let paths = [("widest", VectorLimit::Widest), ("AVX2", VectorLimit::Avx2)];
    let mut ns = [vec![], vec![]];
    for _ in 0..5 {
        for ((path, limit), times) in paths.iter().zip(ns.iter_mut()) {
            limit_vector_path(*limit);
            let t = Instant::now();
            for _ in 0..sums {
                let got = ordered_sum_fast(std::hint::black_box(terms));
                assert_eq!(bits(got), want, "seed {seed}, {name}, n {n}, {path}");
            }
            times.push(t.elapsed().as_secs_f64() * 1e9 / (sums * n) as f64);
        }
    }
    limit_vector_path(VectorLimit::Widest);
    let [wide, avx2] = ns;
    println!(
        "{name} n {n}: widest ({}) {:.3} ns/term, AVX2 {:.3} (medians of 5 rounds of {sums} sums), the loop's bits",
        vector_path(),
        median(wide),
        median(avx2)
    );
}

fn main() {
    let seed = 2026u64;
    for n in [131_072usize, 10_000_000] {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut terms: Vec<f64> = (0..n).map(|_| 1.0 + normal(&mut rng)).collect();
        terms[0] = 2f64.powi(30);
        probe("f64", &terms, seed);
        // From 2^24 (an ulp of 2) the f32 sum moves by about one a term and stays in its
        // binade; from 2^30 it would not move at all.
        let mut narrow: Vec<f32> = terms.iter().map(|&x| x as f32).collect();
        narrow[0] = 2f32.powi(24);
        probe("f32", &narrow, seed);
    }
}
