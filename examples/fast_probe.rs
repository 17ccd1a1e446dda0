//! Per-term cost of the one-thread fast engine against the loop and a plain sum, on data that
//! stays in L1, in L2/L3 and in memory (one thread, no pool).
use binade::fast::{
    limit_vector_path, ordered_sum_fast, ordered_sum_fast_with, Checks, FastTerm, VectorLimit,
};
use binade::format::F64;
use binade::walk::loop_sum;
use std::time::Instant;

fn med(mut f: impl FnMut() -> f64, reps: usize, inner: usize) -> f64 {
    let mut t = Vec::new();
    let mut sink = 0.0;
    for _ in 0..reps {
        let t0 = Instant::now();
        for _ in 0..inner {
            sink += f();
        }
        t.push(t0.elapsed().as_secs_f64() / inner as f64);
    }
    std::hint::black_box(sink);
    t.sort_by(f64::total_cmp);
    t[reps / 2]
}

/// Eight lanes, no prefetch: a one-thread read of the terms as the hardware alone fetches
/// them (the engine's own plain sum asks for the lines ahead).
fn plain_unprefetched(terms: &[f64]) -> f64 {
    let mut acc = [0.0f64; 8];
    let mut blocks = terms.chunks_exact(8);
    for c in &mut blocks {
        for (a, x) in acc.iter_mut().zip(c) {
            *a += x;
        }
    }
    acc.iter().sum::<f64>() + blocks.remainder().iter().sum::<f64>()
}

fn main() {
    println!("path {}", binade::fast::vector_path());
    for &(n, inner) in &[
        (4096usize, 20000usize),
        (1 << 17, 500),
        (1_000_000, 40),
        (100_000_000, 1),
    ] {
        let terms: Vec<f64> = (0..n as u64)
            .map(|i| {
                let mut z = i.wrapping_mul(0x9e37_79b9_7f4a_7c15).wrapping_add(2026);
                z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
                ((z ^ (z >> 31)) >> 11) as f64 * 2f64.powi(-53)
            })
            .collect();
        // The same terms after a first term of 2^40: the sum's binade is high from the
        // start, so no term ties and no chunk goes term by term (the scan alone).
        let mut big = terms.clone();
        big[0] = 2f64.powi(40);
        let ns = |t: f64| t / n as f64 * 1e9;
        let tl = med(|| loop_sum::<F64>(&terms), 7, inner);
        let tf = med(|| ordered_sum_fast(&terms), 7, inner);
        let tb = med(|| ordered_sum_fast(&big), 7, inner);
        // The same terms again, copied: on some machines a copy reads faster than the vector
        // filled term by term (where its pages lie), which the columns above mix.
        let copy = terms.clone();
        let tc = med(|| ordered_sum_fast(&copy), 7, inner);
        let tlc = med(|| loop_sum::<F64>(&copy), 7, inner);
        let t256 = med(|| ordered_sum_fast_with(&big, Checks::ALL, 256), 7, inner);
        let t4096 = med(|| ordered_sum_fast_with(&big, Checks::ALL, 4096), 7, inner);
        let tp = med(|| f64::plain_sum(&terms), 7, inner);
        let tpu = med(|| plain_unprefetched(&terms), 7, inner);
        // `1 - q` on a grid of half an ulp of the running sum (cpu-timing's half-ties
        // stream): about half the terms tie, so every chunk takes the bit-mask pass.
        let ties: Vec<f64> = terms
            .iter()
            .enumerate()
            .map(|(i, &u)| {
                let e = ((i + 4) as f64 * 0.25).log2().floor() as i32;
                let grid = 2f64.powi(e - 53);
                ((1.0 - (0.5 + 0.5 * u)) / grid).round_ties_even() * grid
            })
            .collect();
        let tlt = med(|| loop_sum::<F64>(&ties), 7, inner);
        let tft = med(|| ordered_sum_fast(&ties), 7, inner);
        println!(
            "n {n}: ns/term loop {:.3} fast {:.3} fast-no-ties {:.3} (chunks 256: {:.3}, 4096: {:.3}) plain {:.3} (no prefetch {:.3}); fast/loop {:.2}; on a copy: loop {:.3} fast {:.3}",
            ns(tl), ns(tf), ns(tb), ns(t256), ns(t4096), ns(tp), ns(tpu), tf / tl, ns(tlc), ns(tc)
        );
        println!(
            "n {n}: half ties: ns/term loop {:.3} fast {:.3}; fast/loop {:.2}",
            ns(tlt),
            ns(tft),
            tft / tlt
        );
        // The same engine limited to AVX2 (where the CPU has AVX-512F, the line compares the
        // two compiled paths in one process; the bits are checked equal).
        let widest = binade::fast::vector_path();
        limit_vector_path(VectorLimit::Avx2);
        let narrow = binade::fast::vector_path();
        let tfa = med(|| ordered_sum_fast(&terms), 7, inner);
        let tfta = med(|| ordered_sum_fast(&ties), 7, inner);
        let loop_bits = |v: &[f64]| loop_sum::<F64>(v).to_bits();
        let same_narrow = ordered_sum_fast(&terms).to_bits() == loop_bits(&terms)
            && ordered_sum_fast(&ties).to_bits() == loop_bits(&ties);
        limit_vector_path(VectorLimit::Widest);
        let same = same_narrow
            && ordered_sum_fast(&terms).to_bits() == loop_bits(&terms)
            && ordered_sum_fast(&ties).to_bits() == loop_bits(&ties);
        println!(
            "n {n}: paths: uniform fast {:.3} ns/term by {widest}, {:.3} by {narrow}; half ties {:.3} and {:.3}; the loop's bits by both: {same}",
            ns(tf),
            ns(tfa),
            ns(tft),
            ns(tfta)
        );
    }
}
