//! The fast engine on N(1, 1) terms (`1 + z`, z standard normal: signed terms whose sum grows),
//! f32 and f64, on one thread and on every thread of rayon's pool, beside the loop and the
//! lane-wise plain parallel sum (`fast::plain_sum_lanes_par`, what reading the terms on those
//! threads costs): medians in ms of REPS runs, each engine in turn within a run. Every total
//! of the engine is checked against the loop's bits. Written for cpu-timing HISTORY (20), the
//! f32 signed scan in f32 lanes (`reports/signed-f32-lanes-2core`).
//!
//! `cargo run --release --example signed_threads_probe -- [N] [REPS]` (defaults 10^8, 7)
use binade::fast::{ordered_sum_fast, ordered_sum_par_report, plain_sum_lanes_par, FastTerm};
use binade::format::Format;
use binade::verify::signed_inputs::normal;
use binade::walk::loop_sum;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::time::Instant;

const SEED: u64 = 2026;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn probe<T: FastTerm>(name: &str, terms: &[T], reps: usize) {
    let bits = |x: T| <T::F as Format>::to_bits(x);
    let want = bits(loop_sum::<T::F>(terms));
    let ms = |t: Instant| t.elapsed().as_secs_f64() * 1e3;
    let mut times = [vec![], vec![], vec![], vec![]];
    let mut reformed = 0;
    for _ in 0..reps {
        let t = Instant::now();
        std::hint::black_box(loop_sum::<T::F>(terms));
        times[0].push(ms(t));
        let t = Instant::now();
        let one = ordered_sum_fast(terms);
        times[1].push(ms(t));
        assert_eq!(bits(one), want, "{name}: one thread, seed {SEED}");
        let t = Instant::now();
        let all = ordered_sum_par_report(terms);
        times[2].push(ms(t));
        assert_eq!(bits(all.total), want, "{name}: threads, seed {SEED}");
        reformed = reformed.max(all.replanned_chunks);
        let t = Instant::now();
        std::hint::black_box(plain_sum_lanes_par(terms));
        times[3].push(ms(t));
    }
    let [lp, one, all, lanes] = times.map(median);
    println!(
        "{name} n={} threads={}: loop {lp:.2} ms, one thread {one:.2} ({:.2}x the loop), all threads {all:.2} ({:.2}x the lane-wise sum {lanes:.2}), at most {reformed} chunks re-formed; the loop's bits",
        terms.len(),
        rayon::current_num_threads(),
        one / lp,
        all / lanes,
    );
}

fn main() {
    let arg = |i: usize, default: usize| {
        std::env::args()
            .nth(i)
            .map_or(Ok(default), |a| a.parse::<usize>())
            .unwrap_or_else(|e| {
                eprintln!("signed_threads_probe: argument {i}: {e}");
                std::process::exit(2)
            })
    };
    let (n, reps) = (arg(1, 100_000_000), arg(2, 7));
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(SEED);
    let wide: Vec<f64> = (0..n).map(|_| 1.0 + normal(&mut rng)).collect();
    let narrow: Vec<f32> = wide.iter().map(|&x| x as f32).collect();
    probe("N(1, 1) f32", &narrow, reps);
    drop(narrow);
    probe("N(1, 1) f64", &wide, reps);
}
