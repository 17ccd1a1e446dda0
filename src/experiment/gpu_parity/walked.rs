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
        let first = w.run(&mut job)?;
        let mut c = EngineCheck::first_launch(
            label,
            range.len(),
            first.tiles,
            first.finished_tiles,
            first.native_lanes,
        );
        for launch in 0..LAUNCHES {
            let got = if launch == 0 { first } else { w.run(&mut job)? };
            if same_result::<F64>(got.total.to_bits(), want.to_bits()) {
                c.exact_launches += 1;
            }
        }
        out.push(c);
    }
    Ok(())
}
