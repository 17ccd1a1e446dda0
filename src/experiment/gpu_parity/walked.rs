//! The walked engine (`gpu::ordered_sum::walked`, in the engine's shape) in `gpu-parity`: the
//! same inputs as the one-pass engine, each sum its own job launched [`LAUNCHES`] times on the
//! same buffers, and the repeated boundary cases all again in one launch (a walker a sum,
//! [`check_one_launch`]); every total must have the loop's bits in every launch. Its plans (a
//! look-back over doubles, or the walker's hint) may differ between launches; its bits may not.

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

/// The row label of a case's sums in one launch.
pub fn one_launch_label(label: &str) -> String {
    format!("{label}, in one launch")
}

/// `count` sums of `len` terms each, one after another in `terms`, in one launch (a walker a
/// sum), [`LAUNCHES`] times on the same buffers against `wants`; a row per sum labelled
/// [`one_launch_label`].
pub fn check_one_launch(
    w: &WalkedSum,
    label: &str,
    terms: CudaView<f64>,
    len: usize,
    wants: &[f64],
    out: &mut Vec<EngineCheck>,
) -> Result<()> {
    let count = wants.len();
    let mut job = w.segments_job(terms, count as u32, len, len)?;
    let label = one_launch_label(label);
    let mut checks: Vec<EngineCheck> = Vec::with_capacity(count);
    for launch in 0..LAUNCHES {
        let got = w.run_segments(&mut job)?;
        if launch == 0 {
            checks = got
                .iter()
                .map(|t| {
                    EngineCheck::first_launch(
                        &label,
                        len,
                        t.tiles,
                        t.finished_tiles,
                        t.native_lanes,
                    )
                })
                .collect();
        }
        for ((c, g), want) in checks.iter_mut().zip(&got).zip(wants) {
            if same_result::<F64>(g.total.to_bits(), want.to_bits()) {
                c.exact_launches += 1;
            }
        }
    }
    out.append(&mut checks);
    Ok(())
}
