//! The one-pass engine in `gpu-parity`: the same segments and streams as the seed's pipeline,
//! each launched [`LAUNCHES`] times on the same records; every total must have the loop's
//! bits in every launch (so the bits cannot vary with the plan the look-back finds).

use std::ops::Range;

use anyhow::Result;
use cudarc::driver::CudaView;

use crate::format::{same_result, F64};
use crate::gpu::OnePassSum;
use crate::report::{thousands, Table};

/// Launches per job.
pub const LAUNCHES: usize = 3;

/// One sum of an exact engine (the one-pass engine, or the walked engine of
/// [`super::walked`]) over [`LAUNCHES`] launches.
#[derive(Clone, Debug)]
pub struct EngineCheck {
    /// The input kind's name, or the name of a hand-made input.
    pub label: String,
    /// Terms.
    pub n: usize,
    /// Launches whose total had the loop's bits.
    pub exact_launches: usize,
    /// Tiles, tiles finished lane by lane, lanes added natively (first launch).
    pub tiles: u64,
    /// Tiles finished lane by lane.
    pub finished: u64,
    /// Lanes added natively.
    pub native_lanes: u64,
}

impl EngineCheck {
    /// A sum of `n` terms labelled `label` with the first launch's counts, no launch counted
    /// exact yet.
    pub fn first_launch(
        label: &str,
        n: usize,
        tiles: u64,
        finished: u64,
        native_lanes: u64,
    ) -> Self {
        EngineCheck {
            label: label.to_string(),
            n,
            exact_launches: 0,
            tiles,
            finished,
            native_lanes,
        }
    }

    /// Exact in every launch.
    pub fn ok(&self) -> bool {
        self.exact_launches == LAUNCHES
    }
}

/// Sums `segments` of `terms` (on the device) [`LAUNCHES`] times against `wants`.
pub fn check(
    op: &OnePassSum,
    label: &str,
    terms: CudaView<f64>,
    segments: &[Range<usize>],
    wants: &[f64],
    out: &mut Vec<EngineCheck>,
) -> Result<()> {
    let mut job = op.job(terms, segments)?;
    let first = out.len();
    for launch in 0..LAUNCHES {
        let got = op.run(&mut job)?;
        for (k, g) in got.iter().enumerate() {
            if launch == 0 {
                out.push(EngineCheck::first_launch(
                    label,
                    segments[k].len(),
                    g.tiles,
                    g.finished_tiles,
                    g.native_lanes,
                ));
            }
            if same_result::<F64>(g.total.to_bits(), wants[k].to_bits()) {
                out[first + k].exact_launches += 1;
            }
        }
    }
    Ok(())
}

/// The table `name` titled `title`: per label (input kind, in `labels` order), sums, sums
/// exact in every launch, and the tiles' paths.
pub fn table(name: &str, title: &str, labels: &[&str], checks: &[EngineCheck]) -> Table {
    let mut t = Table::new(
        name,
        title,
        &[
            "input kind",
            "sums",
            "exact in every launch",
            "tiles",
            "tiles finished lane by lane",
            "lanes added natively",
        ],
    );
    for &label in labels {
        let c: Vec<&EngineCheck> = checks.iter().filter(|c| c.label == label).collect();
        t.row(vec![
            label.into(),
            c.len().to_string(),
            c.iter().filter(|c| c.ok()).count().to_string(),
            thousands(c.iter().map(|c| c.tiles).sum()),
            thousands(c.iter().map(|c| c.finished).sum()),
            thousands(c.iter().map(|c| c.native_lanes).sum()),
        ]);
    }
    t
}
