//! The one-pass engine's trace build (`OnePassSum::traced`, `examples/onepass_trace`): its
//! totals are the CPU loop's bits, every tile's steps are stamped in their order, every tile
//! after the first records at least one read in each look-back, each block's rounds count up
//! from 0 without a gap, and it refuses the launches it cannot
//! record. Without NVRTC or a device the tests print `skipped: REASON`; with
//! `BINADE_REQUIRE_GPU=1` (the GPU machine) they fail instead.

use std::collections::BTreeMap;

use binade::format::{same_result, F64};
use binade::gpu::ordered_sum::onepass::{LookbackTrips, Schedule, TileTrace, TRACE_WORDS};
use binade::gpu::require::open_or_skip;
use binade::gpu::OnePassSum;
use binade::verify::inputs::InputKind;
use binade::walk::loop_sum;
use cudarc::driver::CudaSlice;

#[test]
fn trace_build_records_every_tile_in_order_and_sums_exactly() {
    let Some(gpu) = open_or_skip("trace_build_records_every_tile_in_order_and_sums_exactly") else {
        return;
    };
    let op = OnePassSum::traced(&gpu).unwrap();
    let seed = 0x7ace_u64;
    let s = gpu.stream();
    for (kind, n) in [
        (InputKind::Uniform, 3_000_017),
        (InputKind::Geometric, 2_000_003),
        (InputKind::SsimLike, 1_000_003),
    ] {
        let terms = kind.generate::<F64>(n, seed ^ n as u64);
        let want = loop_sum::<F64>(&terms).to_bits();
        let dev = s.clone_htod(&terms).unwrap();
        let mut job = op
            .job(dev.slice(0..n), std::slice::from_ref(&(0..n)))
            .unwrap();
        let tiles = job.tiles() as usize;
        let mut words: CudaSlice<u64> = s.alloc_zeros(tiles * TRACE_WORDS).unwrap();
        for launch in 0..2 {
            // Zeroed before each launch, so that a stamp the launch did not write reads 0.
            s.memset_zeros(&mut words).unwrap();
            op.launch_traced(&mut job, &mut words).unwrap();
            let got = op.results(&job).unwrap()[0].total;
            assert!(
                same_result::<F64>(got.to_bits(), want),
                "seed {seed:#x} kind {kind:?} n {n} launch {launch}: device {:#018x} loop {want:#018x}",
                got.to_bits()
            );
            let trace = TileTrace::from_words(&s.clone_dtoh(&words).unwrap(), tiles);
            // A stamp never written reads 0 (the buffer is zeroed): every tile was stamped.
            let bad: Vec<usize> = (0..tiles)
                .filter(|&i| !trace[i].stamped_in_order())
                .collect();
            assert!(
                bad.is_empty(),
                "seed {seed:#x} kind {kind:?} n {n} launch {launch}: tiles {:?} unstamped or stamped out of order, first {:?}",
                &bad[..bad.len().min(8)],
                trace[bad[0]]
            );
            // Every tile but the first (finished at once) read the records at least once in
            // each look-back; the first none.
            let unread: Vec<usize> = (1..tiles)
                .filter(|&i| trace[i].trips.plan_reads == 0 || trace[i].trips.exact_reads == 0)
                .collect();
            assert!(
                unread.is_empty() && trace[0].trips == LookbackTrips::default(),
                "seed {seed:#x} kind {kind:?} n {n} launch {launch}: look-back trips unrecorded for tiles {:?}, tile 0 {:?}",
                &unread[..unread.len().min(8)],
                trace[0].trips
            );
            let mut rounds: BTreeMap<u32, Vec<u64>> = BTreeMap::new();
            for t in &trace {
                rounds.entry(t.block).or_default().push(t.round);
            }
            for (block, mut r) in rounds {
                r.sort_unstable();
                assert!(
                    r.iter().enumerate().all(|(i, &x)| x == i as u64),
                    "seed {seed:#x} kind {kind:?} n {n} launch {launch}: block {block} rounds {r:?}"
                );
            }
        }
        // A trace build is launched only with its buffer, and only by the held schedule.
        assert!(op.launch(&mut job).is_err());
        let other = op.clone().with_schedule(Schedule::OneBlockPerTile);
        let mut words: CudaSlice<u64> = s.alloc_zeros(tiles * TRACE_WORDS).unwrap();
        assert!(other.launch_traced(&mut job, &mut words).is_err());
        let mut short: CudaSlice<u64> = s.alloc_zeros(TRACE_WORDS).unwrap();
        if tiles > 1 {
            assert!(op.launch_traced(&mut job, &mut short).is_err());
        }
    }
}
