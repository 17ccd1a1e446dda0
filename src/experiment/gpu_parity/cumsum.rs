//! The running sums in `gpu-parity`: for every input kind and size (and the long streams),
//! the device's running sums ([`GpuCumsum`]) against the CPU loop's at every position,
//! compared on the device ([`GpuCumsum::first_difference`]: bits, NaN as NaN), each launched
//! [`LAUNCHES`] times; a row fails if any position differs in any launch, and reports the
//! first differing index.

use anyhow::Result;

use crate::cumsum::Start;
use crate::format::F64;
use crate::gpu::{Gpu, GpuCumsum};
use crate::report::{thousands, Table};
use crate::verify::inputs::InputKind;

/// Launches per input.
pub const LAUNCHES: usize = 2;

/// Every start convention, numpy's first.
pub const STARTS: [Start; 3] = [Start::FirstTerm, Start::PositiveZero, Start::NegativeZero];

/// One input's running sums over [`LAUNCHES`] launches.
#[derive(Clone, Debug)]
pub struct CumsumCheck {
    /// The input kind.
    pub kind: InputKind,
    /// Terms.
    pub n: usize,
    /// The start convention.
    pub start: Start,
    /// Tiles, and tiles whose unit did not apply (finished lane by lane), first launch.
    pub tiles: u64,
    /// Tiles finished lane by lane.
    pub finished: u64,
    /// The first position that differed from the loop's in any launch, and how many did
    /// (the most over the launches); `None`: every position had the loop's bits every time.
    pub first_difference: Option<(u64, u64)>,
}

/// The loop's running sums from `start`, on the host (the plain loop,
/// [`crate::cumsum::loop_cumsum_into`]): the reference.
pub fn loop_running_sums(terms: &[f64], start: Start) -> Vec<f64> {
    let mut out = vec![0.0; terms.len()];
    crate::cumsum::loop_cumsum_into(terms, start, &mut out);
    out
}

/// Checks the running sums of `kind`'s `n` terms (seed `seed`) for each of `starts`.
pub fn check(
    gpu: &Gpu,
    c: &GpuCumsum,
    seed: u64,
    kind: InputKind,
    n: usize,
    starts: &[Start],
    out: &mut Vec<CumsumCheck>,
) -> Result<()> {
    let terms = kind.generate::<F64>(n, seed ^ n as u64 ^ 0xc0);
    let s = gpu.stream();
    let dev = s.clone_htod(&terms)?;
    let mut got = s.alloc_zeros::<f64>(n.max(1))?;
    for &start in starts {
        let want = loop_running_sums(&terms, start);
        let dwant = s.clone_htod(&want)?;
        drop(want);
        let mut row = CumsumCheck {
            kind,
            n,
            start,
            tiles: 0,
            finished: 0,
            first_difference: None,
        };
        for launch in 0..LAUNCHES {
            // A wrong launch must not pass on the last one's outputs.
            s.memset_zeros(&mut got)?;
            let run = c.run(dev.slice(0..n), &mut got.slice_mut(0..n), start)?;
            if launch == 0 {
                row.tiles = run.tiles;
                row.finished = run.finished_tiles;
            }
            if let Some(d) = c.first_difference(&got.slice(0..n), &dwant.slice(0..n))? {
                let (first, count) = row.first_difference.unwrap_or((u64::MAX, 0));
                row.first_difference = Some((first.min(d.first), count.max(d.count)));
            }
        }
        out.push(row);
    }
    Ok(())
}

/// One row per check.
pub fn table(checks: &[CumsumCheck]) -> Table {
    let mut t = Table::new(
        "cumsum",
        &format!("Running sums on the device (GpuCumsum, the one-pass engine's running-sum build) against the CPU loop's at every position, compared on the device; each input launched {LAUNCHES} times"),
        &[
            "input kind",
            "terms",
            "start",
            "tiles",
            "tiles finished lane by lane",
            "positions with the loop's bits",
            "first differing position",
        ],
    );
    for c in checks {
        let (first, count) = match c.first_difference {
            None => ("none".to_string(), 0),
            Some((f, k)) => (f.to_string(), k),
        };
        t.row(vec![
            c.kind.name().into(),
            thousands(c.n as u64),
            start_name(c.start).into(),
            thousands(c.tiles),
            thousands(c.finished),
            thousands(c.n as u64 - count.min(c.n as u64)),
            first,
        ]);
    }
    t
}

/// The start's name in reports.
pub fn start_name(s: Start) -> &'static str {
    match s {
        Start::FirstTerm => "first term (numpy)",
        Start::PositiveZero => "+0",
        Start::NegativeZero => "-0",
    }
}
