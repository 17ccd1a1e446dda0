//! Chunks taken term by term on signed streams by the host model of the device pipeline's
//! chunk walk with signed units (`walk::signed_chunk_walk`: the tree-prefix signed plan, the
//! device's lane-tree grouping), beside the seed's units under the tree-prefix plan
//! (`walk::pipeline`, which refuses every chunk with a negative term). Counts, not times: the
//! device's chunk walk must give the same counts (`tests/gpu_signed_sum.rs`). Every total is
//! compared with the loop's bits. Prints a Markdown table.
//!
//!     signed_walk_counts [TERMS...]     (default 10,000,000 and 100,000,000)

use anyhow::{Context as _, Result};
use binade::algebra::Exact;
use binade::format::{same_result, F64};
use binade::plan::PlanKind;
use binade::verify::signed_inputs::SignedKind;
use binade::walk::{loop_sum, pipeline, signed_chunk_walk};

/// The seed `gpu-signed` uses, so that the streams are the same.
const SEED: u64 = 2026;

fn main() -> Result<()> {
    let sizes: Vec<usize> = std::env::args()
        .skip(1)
        .map(|a| a.parse().context("TERMS"))
        .collect::<Result<_>>()?;
    let sizes = if sizes.is_empty() {
        vec![10_000_000, 100_000_000]
    } else {
        sizes
    };
    println!(
        "Built from {}{}; streams from seed {SEED} (`SignedKind::generate(n, {SEED} ^ n)`, as `gpu-signed` makes them).\n",
        binade::provenance::BUILD_COMMIT,
        if binade::provenance::BUILD_DIRTY { " (dirty tree)" } else { "" }
    );
    println!("| stream | terms | chunks | signed units: term by term | seed units: term by term | every total = loop |");
    println!("| --- | --- | --- | --- | --- | --- |");
    for &n in &sizes {
        for kind in SignedKind::ALL {
            let terms = kind.generate(n, SEED ^ n as u64);
            let want = loop_sum::<F64>(&terms).to_bits();
            let signed = signed_chunk_walk(&terms);
            let seed_units = pipeline::<F64, Exact>(&terms, &PlanKind::TreePrefix, None, &Exact);
            let exact = same_result::<F64>(signed.total.to_bits(), want)
                && same_result::<F64>(seed_units.total.to_bits(), want);
            println!(
                "| {} | {n} | {} | {} | {} | {exact} |",
                kind.description(),
                signed.applied + signed.fallback,
                signed.fallback,
                seed_units.fallback
            );
        }
    }
    Ok(())
}
