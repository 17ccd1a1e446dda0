//! The walked engine (`gpu::ordered_sum::walked`, in the engine's shape) in `gpu-parity`: the
//! same inputs as the one-pass engine, each sum its own job launched [`LAUNCHES`] times on the
//! same buffers, and where the sums are of one length and evenly spaced (the repeated
//! boundary cases) all of them again in one segmented launch (a walker a sum); every total
//! must have the loop's bits in every launch. Its plans (a look-back over doubles, or the
//! walker's hint) may differ between launches; its bits may not.

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
    if let Some((len, pitch)) = evenly_spaced(segments) {
        segmented(w, label, terms, segments.len(), len, pitch, wants, out)?;
    }
    Ok(())
}

/// The common length and spacing of two or more segments, where they have them.
fn evenly_spaced(segments: &[Range<usize>]) -> Option<(usize, usize)> {
    let first = segments.first()?;
    let pitch = segments.get(1)?.start.checked_sub(first.start)?;
    let even = segments
        .iter()
        .enumerate()
        .all(|(k, r)| r.len() == first.len() && r.start == first.start + k * pitch);
    even.then_some((first.len(), pitch))
}

/// All the segments in one segmented launch, [`LAUNCHES`] times; a row per sum labelled with
/// the launch's size.
#[allow(clippy::too_many_arguments)]
fn segmented(
    w: &WalkedSum,
    label: &str,
    terms: CudaView<f64>,
    count: usize,
    len: usize,
    pitch: usize,
    wants: &[f64],
    out: &mut Vec<EngineCheck>,
) -> Result<()> {
    let view = terms.slice(0..(count - 1) * pitch + len);
    let mut job = w.segments_job(view, count as u32, len, pitch)?;
    let label = format!("{label}, {count} sums in one launch");
    let first = len_checked(w.run_segments(&mut job)?, count)?;
    let mut checks: Vec<EngineCheck> = first
        .iter()
        .map(|t| EngineCheck::first_launch(&label, len, t.tiles, t.finished_tiles, t.native_lanes))
        .collect();
    for launch in 0..LAUNCHES {
        let got = if launch == 0 {
            first.clone()
        } else {
            len_checked(w.run_segments(&mut job)?, count)?
        };
        for ((c, g), want) in checks.iter_mut().zip(&got).zip(wants) {
            if same_result::<F64>(g.total.to_bits(), want.to_bits()) {
                c.exact_launches += 1;
            }
        }
    }
    out.append(&mut checks);
    Ok(())
}

fn len_checked<T>(v: Vec<T>, count: usize) -> Result<Vec<T>> {
    if v.len() != count {
        anyhow::bail!(
            "a segmented launch of {count} sums gave {} results",
            v.len()
        );
    }
    Ok(v)
}
