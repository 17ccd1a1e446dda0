//! The threaded fast engine on uniform [0, 1) terms (f32: the loop's sum stops moving at 2^24;
//! f64: it does not) and on `cpu-timing`'s geometric f64 stream (a binade every 2^20 terms, so
//! the sum crosses one about every 1,024 chunks, where a plan's estimate of the blocks still in
//! flight decides how many chunks the walk re-forms): medians of its time over shapes, with the time spent holding the walk,
//! the planners' waits on the walk's lead, and the chunks the walk re-formed, against one
//! thread, the loop and two plain parallel sums (rayon's `par_iter().sum()`, and rayon over
//! pieces of 65,536 terms each summed by the eight-lane sum). Each shape is timed with the
//! one-read plan (`Checks::ALL`) and with the two-read plan (`one_read_plan` off), in turn in
//! each repetition. Every sum is checked against the loop by bits.
//!
//! `cargo run --release --example threads_probe -- N [REPS] [THREADS]` (THREADS: the pool's
//! size, default rayon's; more threads than cores puts more blocks in flight)
use binade::fast::{ordered_sum_fast, ordered_sum_par_with, Checks, FastTerm, Shape};
use binade::walk::loop_sum;
use rayon::prelude::*;
use std::time::Instant;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn uniform(i: u64) -> f64 {
    let mut z = i.wrapping_mul(0x9e37_79b9_7f4a_7c15).wrapping_add(2026);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    ((z ^ (z >> 31)) >> 11) as f64 * 2f64.powi(-53)
}

/// `cpu-timing`'s geometric stream: `(0.5 + 0.5 u) 2^(i 2^-20 - 960)`, u uniform in [0, 1).
fn geometric(i: u64) -> f64 {
    (0.5 + 0.5 * uniform(i)) * ((i as f64) * 2f64.powi(-20) - 960.0).exp2()
}

fn probe<T: FastTerm + std::iter::Sum<T>>(name: &str, terms: &[T], reps: usize) {
    let bits = |x: T| <T::F as binade::format::Format>::to_bits(x);
    let ms = |t: Instant| t.elapsed().as_secs_f64() * 1e3;
    let want = bits(loop_sum::<T::F>(terms));
    let (mut tl, mut t1, mut tp, mut tq) = (vec![], vec![], vec![], vec![]);
    for _ in 0..reps {
        let t = Instant::now();
        std::hint::black_box(loop_sum::<T::F>(terms));
        tl.push(ms(t));
        let t = Instant::now();
        let one = ordered_sum_fast(terms);
        t1.push(ms(t));
        assert_eq!(bits(one), want, "{name}: one thread");
        let t = Instant::now();
        std::hint::black_box(terms.par_iter().copied().sum::<T>());
        tp.push(ms(t));
        let t = Instant::now();
        std::hint::black_box(binade::fast::plain_sum_lanes_par(terms));
        tq.push(ms(t));
    }
    println!(
        "{name} n={} threads={}: loop {:.2} ms, one thread {:.2}, plain parallel {:.2}, plain parallel lanes {:.2}",
        terms.len(),
        rayon::current_num_threads(),
        median(tl),
        median(t1),
        median(tp),
        median(tq)
    );
    let two_reads = Checks {
        one_read_plan: false,
        ..Checks::ALL
    };
    for block_chunks in [8usize, 32, 128] {
        let shape = Shape {
            chunk: 1024,
            block_chunks,
        };
        let plans = [("one read", Checks::ALL), ("two reads", two_reads)];
        let mut runs: Vec<[Vec<f64>; 4]> = vec![Default::default(), Default::default()];
        for _ in 0..reps {
            for ((plan, checks), run) in plans.iter().zip(runs.iter_mut()) {
                let s = Instant::now();
                let r = ordered_sum_par_with(terms, *checks, shape);
                run[0].push(ms(s));
                assert_eq!(bits(r.total), want, "{name}: threads, {plan}, {shape:?}");
                run[1].push(r.walk_ns as f64 * 1e-6);
                run[2].push(r.lead_waits as f64);
                run[3].push(r.replanned_chunks as f64);
            }
        }
        for ((plan, _), [t, walk, waits, re]) in plans.iter().zip(runs) {
            println!(
                "  blocks of {block_chunks} chunks, {plan}: {:.2} ms, walk held {:.2} ms, lead waits {}, re-formed {} (medians), the loop's bits",
                median(t),
                median(walk),
                median(waits),
                median(re)
            );
        }
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let n: u64 = args
        .next()
        .and_then(|s| s.parse().ok())
        .unwrap_or(100_000_000);
    let reps: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(5);
    let threads: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(0);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool");
    pool.install(|| run(n, reps));
}

fn run(n: u64, reps: usize) {
    println!("vector path {}", binade::fast::vector_path());
    let f64s: Vec<f64> = (0..n).into_par_iter().map(uniform).collect();
    probe("f64 uniform", &f64s, reps);
    drop(f64s);
    let geo: Vec<f64> = (0..n).into_par_iter().map(geometric).collect();
    probe("f64 geometric", &geo, reps);
    drop(geo);
    let f32s: Vec<f32> = (0..n).into_par_iter().map(|i| uniform(i) as f32).collect();
    probe("f32 uniform", &f32s, reps);
    // The same f32 terms after a first term of 2^25: the loop's sum never moves from it.
    let mut stuck = f32s;
    stuck[0] = 2f32.powi(25);
    probe("f32 uniform from 2^25", &stuck, reps);
}
