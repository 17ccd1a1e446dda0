//! One thread on N uniform [0, 1) f64 terms (default 10^9): the loop, the fast engine and the
//! plain eight-lane sum (one thread's read), five times each in turn, with whether the engine
//! gave the loop's bits. For checking a `cpu-timing` one-thread row against binaries of two
//! commits run alternately, outside that experiment's other rows.
//!
//! `cargo run --release --example one_thread_read -- [N]`
use binade::fast::{ordered_sum_fast, FastTerm};
use binade::walk::loop_sum;
use rayon::prelude::*;
use std::time::Instant;
fn uniform(i: u64) -> f64 {
    let mut z = i.wrapping_mul(0x9e37_79b9_7f4a_7c15).wrapping_add(2026);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    ((z ^ (z >> 31)) >> 11) as f64 * 2f64.powi(-53)
}
fn main() {
    let n: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1_000_000_000);
    let t: Vec<f64> = (0..n).into_par_iter().map(uniform).collect();
    for _ in 0..5 {
        let s = Instant::now();
        let a = loop_sum::<binade::format::F64>(&t);
        let l = s.elapsed().as_secs_f64() * 1e3;
        let s = Instant::now();
        let b = ordered_sum_fast(&t);
        let f = s.elapsed().as_secs_f64() * 1e3;
        let s = Instant::now();
        std::hint::black_box(f64::plain_sum(&t));
        let p = s.elapsed().as_secs_f64() * 1e3;
        println!(
            "loop {l:.1} ms, fast one thread {f:.1}, plain one thread {p:.1}, the loop's bits {}",
            a.to_bits() == b.to_bits()
        );
    }
}
