//! Chunks the threaded engine's walk re-forms on `tests/fast.rs`'s stream that crosses a
//! binade every 2^16 terms (two default blocks: 2,000,000 f64 terms, 31 crossings, 1,954
//! chunks): the minimum, median and maximum over 30 sums on 2, 3 and 4 threads, with the
//! one-read plan (`Checks::ALL`) and the two-read plan (`one_read_plan` off). Every total is
//! checked against the loop's bits.
//!
//! `cargo run --release --example crossing_probe`
use binade::fast::{ordered_sum_par_with, Checks, Shape};
use binade::format::F64;
use binade::walk::loop_sum;
use rand::{Rng, SeedableRng};

fn main() -> Result<(), rayon::ThreadPoolBuildError> {
    let seed = 0x9e0u64;
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
    let terms: Vec<f64> = (0..2_000_000)
        .map(|i| rng.random_range(0.5..1.0) * (i as f64 * 2f64.powi(-16)).exp2())
        .collect();
    let want = loop_sum::<F64>(&terms).to_bits();
    let two_reads = Checks {
        one_read_plan: false,
        ..Checks::ALL
    };
    for threads in [2usize, 3, 4] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()?;
        for (plan, checks) in [("one read", Checks::ALL), ("two reads", two_reads)] {
            let mut re: Vec<usize> = (0..30)
                .map(|_| {
                    let r = pool.install(|| ordered_sum_par_with(&terms, checks, Shape::DEFAULT));
                    assert_eq!(
                        r.total.to_bits(),
                        want,
                        "seed {seed:#x}, {threads} threads, {plan}"
                    );
                    r.replanned_chunks
                })
                .collect();
            re.sort_unstable();
            println!(
                "{threads} threads, {plan}: re-formed {} / {} / {} of {} chunks (min / median / max of 30), the loop's bits",
                re[0],
                re[15],
                re[29],
                terms.len().div_ceil(1024)
            );
        }
    }
    Ok(())
}
