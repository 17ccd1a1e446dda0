//! The walked engine (`gpu::ordered_sum::walked`, in the engine's shape) in `gpu-parity`: the
//! same inputs as the one-pass engine, each sum its own job (the walked engine sums one
//! range a launch) launched [`LAUNCHES`] times on the same buffers; every total must have the
//! loop's bits in every launch. Its plans (a look-back over doubles, or the walker's hint)
//! may differ between launches; its bits may not.

use std::ops::Range;

use anyhow::Result;
use cudarc::driver::CudaView;

use super::onepass::{EngineCheck, LAUNCHES};
use crate::format::{same_result, F64};
use crate::gpu::ordered_sum::walked::WalkedSum;

/// Sums each of `segments` of `terms` (on the device) [`LAUNCHES`] times against `wants`.
pub fn check(
    w: &WalkedSum,
    label: &str,
    terms: CudaView<f64>,
    segments: &[Range<usize>],
    wants: &[f64],
    out: &mut Vec<EngineCheck>,
) -> Result<()> {
    debug_assert_eq!(segments.len(), wants.len());
    for (range, want) in segments.iter().zip(wants) {
        let mut job = w.job(terms.slice(range.clone()))?;
        let mut c = EngineCheck {
            label: label.to_string(),
            n: range.len(),
            exact_launches: 0,
            tiles: 0,
            finished: 0,
            native_lanes: 0,
        };
        for launch in 0..LAUNCHES {
            let got = w.run(&mut job)?;
            if launch == 0 {
                c.tiles = got.tiles;
                c.finished = got.finished_tiles;
                c.native_lanes = got.native_lanes;
            }
            if same_result::<F64>(got.total.to_bits(), want.to_bits()) {
                c.exact_launches += 1;
            }
        }
        out.push(c);
    }
    Ok(())
}
