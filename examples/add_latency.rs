//! The latency of one dependent f64 add on this CPU, beside a dependent multiply, and the
//! loop's time per term on terms in L1: the figures
//! that say what the plain loop `s += x` costs here, and so how hard `cpu-timing`'s goal
//! (the exact engine on one thread at most half the loop's time) is on this CPU. Not a
//! report: `reports/cpu-timing-gpu-host-latency` holds its runs.
//!
//!     add_latency [OPS]   (default 100,000,000 dependent operations a chain)
//!
//! Each chain is one register carried through OPS operations of one kind, so each operation
//! waits for the one before: its time per operation is that operation's latency (the issue of
//! the loop's other instructions overlaps it). The clock is not needed: the add's latency
//! against the multiply's is a ratio of cycles (4 and 4 cycles on Skylake, 3 and 3 on Zen 2 to
//! Zen 4, 2 and 4 on Golden Cove, the core of Sapphire Rapids, by the vendors' optimization
//! manuals). The loop on L1 terms is `walk::loop_sum` over 4,096 uniform [0, 1) terms (32 KiB),
//! summed again and again. One CSV line a figure: name (no comma in it), median ns per
//! operation of 7 runs after one untimed, and the chain's result bits (so no chain is
//! optimized away).

use binade::format::F64;
use binade::gpu::timing::median;
use binade::walk::loop_sum;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::hint::black_box;
use std::time::Instant;

const RUNS: usize = 7;
const SEED: u64 = 2026;

/// Median ns per operation of `RUNS` timed runs of `f` (after one untimed), and the last
/// result's bits.
fn time_per_op(ops: u64, f: impl Fn(u64) -> f64) -> (f64, u64) {
    let mut bits = f(ops).to_bits();
    let ns: Vec<f64> = (0..RUNS)
        .map(|_| {
            let t = Instant::now();
            bits = black_box(f(ops)).to_bits();
            t.elapsed().as_secs_f64() * 1e9 / ops as f64
        })
        .collect();
    (median(&ns), bits)
}

fn add_chain(ops: u64) -> f64 {
    let step = black_box(1.0f64);
    let mut s = black_box(0.0f64);
    for _ in 0..ops {
        s += step;
    }
    s
}

fn mul_chain(ops: u64) -> f64 {
    let k = black_box(1.000_000_000_1f64);
    let mut p = black_box(1.0f64);
    for _ in 0..ops {
        p *= k;
    }
    p
}

fn main() {
    let ops: u64 = match std::env::args().nth(1) {
        None => 100_000_000,
        Some(a) => match a.replace(',', "").parse() {
            Ok(n) if n > 0 => n,
            _ => {
                eprintln!("add_latency: OPS must be a positive integer, got {a:?}");
                std::process::exit(2);
            }
        },
    };
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(SEED);
    let terms: Vec<f64> = (0..4096).map(|_| rng.random::<f64>()).collect();
    let rounds = (ops / terms.len() as u64).max(1);
    println!("figure,ns_per_op,result_bits");
    let (add, bits) = time_per_op(ops, add_chain);
    println!("dependent f64 add,{add:.4},{bits:#018x}");
    let (mul, bits) = time_per_op(ops, mul_chain);
    println!("dependent f64 multiply,{mul:.4},{bits:#018x}");
    let (l1, bits) = time_per_op(rounds * terms.len() as u64, |n| {
        let mut last = 0.0;
        for _ in 0..n / terms.len() as u64 {
            last = loop_sum::<F64>(black_box(&terms));
        }
        last
    });
    println!("loop_sum on 4096 terms in L1 (ns a term),{l1:.4},{bits:#018x}");
    println!("add / multiply latency,{:.4},", add / mul);
}
