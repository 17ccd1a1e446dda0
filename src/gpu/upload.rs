//! Host terms to the device through pinned staging buffers: the copy into a buffer (by
//! rayon's threads, which also fault in the pages of a memory-mapped file) overlaps the
//! device's copy out of the other buffer.
//!
//! A copy from pageable memory (`cuMemcpyHtoD` on a `&[f64]`) goes through the driver's own
//! small staging buffers on one thread: about 6.6 GB/s for a mapped 800 MB file on the H200
//! host (`reports/sum-whole-command`, 9a58529). Here the host side is a parallel `memcpy`
//! into write-combined page-locked memory and the device side a DMA from it, two stages that
//! run at once on alternate buffers, so the upload takes about the longer of the two.
//!
//! Correctness: each buffer's `PinnedHostSlice` carries an event recorded after the device's
//! copy out of it, and `as_mut_slice` waits on that event, so a buffer is never refilled
//! while the device still reads it. The device buffer is rounded up to whole staging
//! buffers (the last copy moves a whole buffer; only the first `host.len()` terms are
//! meaningful), and the terms are copied bit for bit (no arithmetic touches them).

use std::sync::Arc;

use anyhow::Result;
use cudarc::driver::{CudaContext, CudaSlice, CudaStream, PinnedHostSlice};
use rayon::prelude::*;

/// Terms per staging buffer at most: 4 Mi doubles (32 MiB), large enough that a copy's fixed
/// cost is small against its 32 MiB, small enough that the first copy starts early.
pub const STAGE_TERMS: usize = 1 << 22;

/// Terms each rayon task copies into a staging buffer (512 KiB).
const TASK_TERMS: usize = 1 << 16;

/// Two page-locked staging buffers of one length.
pub struct StagedUpload {
    bufs: [PinnedHostSlice<f64>; 2],
}

/// What one upload took, wall clock.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct UploadTimes {
    /// The whole upload, from the first host copy to the last device copy done.
    pub ms: f64,
    /// Time the host spent copying terms into the staging buffers (summed over buffers).
    pub host_copy_ms: f64,
}

impl StagedUpload {
    /// Two staging buffers of `min(STAGE_TERMS, terms)` doubles each (at least one), for
    /// uploads of up to any length (a longer upload reuses them in turn).
    pub fn new(ctx: &Arc<CudaContext>, terms: usize) -> Result<StagedUpload> {
        let len = terms.clamp(1, STAGE_TERMS);
        // SAFETY: f64 is plain data; every term of a buffer is written before the device
        // reads it (`upload` copies a whole chunk in before each device copy).
        let a = unsafe { ctx.alloc_pinned::<f64>(len) }?;
        // SAFETY: as above.
        let b = unsafe { ctx.alloc_pinned::<f64>(len) }?;
        Ok(StagedUpload { bufs: [a, b] })
    }

    /// Terms per staging buffer.
    pub fn stage_terms(&self) -> usize {
        self.bufs[0].len()
    }

    /// A device buffer holding `host` in its first `host.len()` terms (its length rounded up
    /// to whole staging buffers, at least one), copied through the staging buffers on
    /// `stream`; returns when the last copy is done.
    pub fn upload(
        &mut self,
        stream: &Arc<CudaStream>,
        host: &[f64],
    ) -> Result<(CudaSlice<f64>, UploadTimes)> {
        let t0 = std::time::Instant::now();
        let stage = self.stage_terms();
        let chunks = host.len().div_ceil(stage).max(1);
        // SAFETY: every term the engines read (the first host.len()) is written by the copies
        // below before the stream's later work; the rounding tail is never read as terms.
        let mut dev = unsafe { stream.alloc::<f64>(chunks * stage) }?;
        let mut host_copy = 0.0f64;
        for (i, chunk) in host.chunks(stage).enumerate() {
            let buf = &mut self.bufs[i % 2];
            let t = std::time::Instant::now();
            let dst = buf.as_mut_slice()?; // waits for the device's last copy out of it
            dst[..chunk.len()]
                .par_chunks_mut(TASK_TERMS)
                .zip(chunk.par_chunks(TASK_TERMS))
                .for_each(|(d, s)| d.copy_from_slice(s));
            host_copy += t.elapsed().as_secs_f64() * 1e3;
            let mut view = dev.slice_mut(i * stage..(i + 1) * stage);
            stream.memcpy_htod(&*buf, &mut view)?;
        }
        stream.synchronize()?;
        let times = UploadTimes {
            ms: t0.elapsed().as_secs_f64() * 1e3,
            host_copy_ms: host_copy,
        };
        Ok((dev, times))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Round trips through the staging buffers keep every term's bits, for lengths around
    /// the buffer's (one short, exact, one over, several) and with NaN payloads, -0 and
    /// subnormals; skipped without a device.
    #[test]
    fn staged_upload_keeps_every_bit() {
        let gpu = match crate::gpu::Gpu::open() {
            Ok(g) => g,
            Err(e) => {
                crate::gpu::require::skip("staged_upload_keeps_every_bit", &e.to_string());
                return;
            }
        };
        let stream = gpu.stream();
        let stage = 1000;
        let mut up = StagedUpload::new(gpu.context(), stage).unwrap();
        assert_eq!(up.stage_terms(), stage);
        for n in [1usize, 999, 1000, 1001, 4321] {
            let host: Vec<f64> = (0..n as u64)
                .map(|i| match i % 5 {
                    0 => f64::from_bits(0x7ff8_0000_dead_beef ^ i),
                    1 => -0.0,
                    2 => f64::from_bits(i + 1), // subnormal
                    _ => (i as f64).sqrt(),
                })
                .collect();
            let (dev, _) = up.upload(stream, &host).unwrap();
            assert_eq!(dev.len(), n.div_ceil(stage) * stage, "n {n}");
            let back = stream.clone_dtoh(&dev).unwrap();
            for (k, (a, b)) in host.iter().zip(&back).enumerate() {
                assert_eq!(a.to_bits(), b.to_bits(), "n {n} term {k}");
            }
        }
    }
}
