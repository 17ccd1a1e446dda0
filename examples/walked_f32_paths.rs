//! The walked engine's f32 plans on the device, path by path: for each f32 build (the engine's,
//! with the moves; without them; with the moves and no far anchor; with the moves and
//! look-backs that wait rather than plan from a range) and each f32 stream of `gpu-timing-f32`
//! at each size, one CSV line of one launch's counters: tiles, tiles the walker finished from
//! their terms, tiles planned from the walker's hint, from a look-back's range, by a look-back
//! that waited and from a far anchor, tiles that published split words and those ended by them,
//! the walker's steps, and whether the total has the f32 loop's bits. Not a report: a probe of
//! which plans a stream's finishes follow (`reports/walked-moves`).
//!
//!     walked_f32_paths [SIZES]   (comma-separated term counts, default 100000000)
use anyhow::{Context, Result};
use binade::format::{same_result, F32};
use binade::gpu::ordered_sum::onepass::Distribution;
use binade::gpu::ordered_sum::walked::{Lookback, Moves, WalkedMutant, WalkedShape, WalkedSum};
use binade::gpu::{Gpu, OnePassSum};
use binade::walk::loop_sum;
use cudarc::driver::CudaSlice;

fn main() -> Result<()> {
    let sizes: Vec<usize> = match std::env::args().nth(1) {
        Some(a) => a
            .split(',')
            .map(|s| s.parse().with_context(|| format!("a size: {s:?}")))
            .collect::<Result<_>>()?,
        None => vec![100_000_000],
    };
    let gpu = Gpu::open()?;
    let op = OnePassSum::new(&gpu)?;
    let e = WalkedShape::DEFAULT_F32;
    let shapes = [
        ("moves (engine)", e),
        (
            "no moves",
            WalkedShape {
                moves: Moves::Off,
                ..e
            },
        ),
        ("moves, no far anchor", WalkedShape { far: 0, ..e }),
        (
            "moves, look-backs wait",
            WalkedShape {
                lookback: Lookback::Wait,
                ..e
            },
        ),
    ];
    let builds: Vec<(&str, WalkedSum)> = shapes
        .iter()
        .map(|&(name, shape)| Ok((name, WalkedSum::build(&gpu, shape, WalkedMutant::None)?)))
        .collect::<Result<_>>()?;
    println!("build,stream,terms,tiles,finished,hinted,ranged,waited,far,split_tiles,split_ends,steps,loop_bits");
    let s = gpu.stream();
    for &n in &sizes {
        for &dist in &Distribution::ALL {
            let mut pool: CudaSlice<f32> = s.alloc_zeros(n)?;
            op.fill_f32(&mut pool, 2026, dist)?;
            let want = loop_sum::<F32>(&s.clone_dtoh(&pool)?);
            for (name, w) in &builds {
                let mut job = w.job(pool.slice(0..n))?;
                let t = w.run(&mut job)?;
                println!(
                    "\"{name}\",\"{}\",{n},{},{},{},{},{},{},{},{},{},{}",
                    dist.name_f32(),
                    t.tiles,
                    t.finished_tiles,
                    t.hinted_plans,
                    t.ranged_plans,
                    t.waited_plans,
                    t.far_plans,
                    t.split_tiles,
                    t.split_ends,
                    t.steps,
                    same_result::<F32>(t.bits, u64::from(want.to_bits()))
                );
            }
        }
    }
    Ok(())
}
