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
//! Correctness: the device's copy out of a buffer is asynchronous, so refilling the buffer
//! before that copy has run would send the later chunk's terms in place of the earlier one's.
//! Each buffer has an event of its own, recorded on the stream right after its copy is
//! queued, and the host waits on it before it writes the buffer again. (cudarc's own events
//! on page-locked buffers are not recorded here: [`crate::gpu::Gpu`] turns the context's
//! event tracking off, so `PinnedHostSlice::as_mut_slice` would not wait.) The mutant
//! [`StagedUpload::unsynchronized`] drops the wait; [`first_wrong_term`] kills it
//! deterministically by holding the stream behind a kernel that sleeps while the host fills
//! every buffer. The device buffer is rounded up to whole staging buffers (the last copy
//! moves a whole buffer; only the first `host.len()` terms are meaningful), and the terms are
//! copied bit for bit (no arithmetic touches them).

use std::sync::Arc;

use anyhow::Result;
use cudarc::driver::{
    CudaContext, CudaEvent, CudaSlice, CudaStream, LaunchConfig, PinnedHostSlice, PushKernelArg,
};
use rayon::prelude::*;

/// Terms per staging buffer at most: 4 Mi doubles (32 MiB), large enough that a copy's fixed
/// cost is small against its 32 MiB, small enough that the first copy starts early.
pub const STAGE_TERMS: usize = 1 << 22;

/// Terms each rayon task copies into a staging buffer (512 KiB).
const TASK_TERMS: usize = 1 << 16;

/// Two page-locked staging buffers of one length, each with the event of its last copy.
pub struct StagedUpload {
    bufs: [PinnedHostSlice<f64>; 2],
    copied: [CudaEvent; 2],
    /// The host waits for a buffer's last copy before refilling it (off only in the
    /// mutant [`StagedUpload::unsynchronized`]).
    wait_for_copy: bool,
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
        Self::build(ctx, terms, true)
    }

    /// The kill matrix's mutant: as [`StagedUpload::new`], but a buffer is refilled without
    /// waiting for the device's copy out of it (a wrong upload wherever that copy has not run
    /// by then).
    pub fn unsynchronized(ctx: &Arc<CudaContext>, terms: usize) -> Result<StagedUpload> {
        Self::build(ctx, terms, false)
    }

    fn build(ctx: &Arc<CudaContext>, terms: usize, wait_for_copy: bool) -> Result<StagedUpload> {
        let len = terms.clamp(1, STAGE_TERMS);
        // SAFETY: f64 is plain data; every term of a buffer is written before the device
        // reads it (`upload` copies a whole chunk in before each device copy).
        let a = unsafe { ctx.alloc_pinned::<f64>(len) }?;
        // SAFETY: as above.
        let b = unsafe { ctx.alloc_pinned::<f64>(len) }?;
        let copied = [ctx.new_event(None)?, ctx.new_event(None)?];
        Ok(StagedUpload {
            bufs: [a, b],
            copied,
            wait_for_copy,
        })
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
        let (dev, host_copy) = self.queue(stream, host)?;
        stream.synchronize()?;
        let times = UploadTimes {
            ms: t0.elapsed().as_secs_f64() * 1e3,
            host_copy_ms: host_copy,
        };
        Ok((dev, times))
    }

    /// [`StagedUpload::upload`] without its final wait: returns once every copy is queued
    /// (the last ones may not have run), with the host's copying time in ms. A kill check
    /// asks whether its hold is still on at this point, before anything waits for the copies.
    fn queue(&mut self, stream: &Arc<CudaStream>, host: &[f64]) -> Result<(CudaSlice<f64>, f64)> {
        let stage = self.stage_terms();
        let chunks = host.len().div_ceil(stage).max(1);
        // SAFETY: every term the engines read (the first host.len()) is written by the copies
        // below before the stream's later work; the rounding tail is never read as terms.
        let mut dev = unsafe { stream.alloc::<f64>(chunks * stage) }?;
        let mut host_copy = 0.0f64;
        for (i, chunk) in host.chunks(stage).enumerate() {
            let (buf, copied) = (&mut self.bufs[i % 2], &self.copied[i % 2]);
            let t = std::time::Instant::now();
            if i >= 2 && self.wait_for_copy {
                copied.synchronize()?; // the device's copy of chunk i - 2 out of this buffer
            }
            let dst = buf.as_mut_slice()?;
            dst[..chunk.len()]
                .par_chunks_mut(TASK_TERMS)
                .zip(chunk.par_chunks(TASK_TERMS))
                .for_each(|(d, s)| d.copy_from_slice(s));
            host_copy += t.elapsed().as_secs_f64() * 1e3;
            let mut view = dev.slice_mut(i * stage..(i + 1) * stage);
            stream.memcpy_htod(&*buf, &mut view)?;
            copied.record(stream)?;
        }
        Ok((dev, host_copy))
    }
}

/// A kernel that sleeps until the device's clock has passed `ns` nanoseconds from its start:
/// it holds a stream so that the copies queued behind it run only after the host has done
/// all its work.
const HOLD_SOURCE: &str = r#"
extern "C" __global__ void hold_stream(unsigned long long ns) {
    unsigned long long t0, t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    do {
        __nanosleep(1000);
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    } while (t - t0 < ns);
}
"#;

/// How long [`hold_stream`] holds a stream in the kill checks that use it: 100 ms, far longer
/// than the host takes to queue the work behind it.
pub const HOLD_NS: u64 = 100_000_000;

/// A stream held by [`hold_stream`]. Keep it until the work that must queue behind the hold
/// is queued: it keeps the sleeping kernel's module loaded (unloading a module may wait for
/// its kernels, which would end the hold on the host before anything is queued), and it
/// says whether the hold is still on ([`Hold::still_held`]).
pub struct Hold {
    _module: crate::gpu::Module,
    passed: cudarc::driver::CudaEvent,
}

impl Hold {
    /// True while the held stream has not passed the sleeping kernel: work queued on it since
    /// has not started. A kill check that relies on the hold asserts this after queuing its
    /// work, so a hold that ended early fails the check instead of letting a mutant survive.
    pub fn still_held(&self) -> Result<bool> {
        Ok(!self.passed.try_is_complete()?)
    }
}

/// Queues on `gpu`'s stream a one-thread kernel that sleeps until `ns` nanoseconds of the
/// device's clock have passed: the work queued behind it on that stream runs only after, so
/// a kill check can make a missing wait between streams, or between the host and a stream,
/// show deterministically. Returns the [`Hold`] to keep while queuing that work.
pub fn hold_stream(gpu: &crate::gpu::Gpu, ns: u64) -> Result<Hold> {
    let module = gpu.load("hold_stream", &[HOLD_SOURCE], &[])?;
    let hold = module.function("hold_stream")?;
    let mut b = gpu.stream().launch_builder(&hold);
    b.arg(&ns);
    // SAFETY: the kernel takes one u64 and touches no memory.
    unsafe { b.launch(LaunchConfig::for_num_elems(1)) }?;
    let passed = gpu.stream().record_event(Some(
        cudarc::driver::sys::CUevent_flags::CU_EVENT_DISABLE_TIMING,
    ))?;
    Ok(Hold {
        _module: module,
        passed,
    })
}

/// Terms per staging buffer in [`first_wrong_term`]: 2 MiB a copy, far above the size below
/// which a driver may take a small copy's bytes at once when it is queued (which would let
/// the mutant pass).
pub const KILL_STAGE: usize = 1 << 18;
/// Terms [`first_wrong_term`] uploads: 8 and a part buffers of [`KILL_STAGE`] (17 MB).
pub const KILL_TERMS: usize = 8 * KILL_STAGE + 321;

/// Uploads [`KILL_TERMS`] distinct terms (NaN payloads, -0 and subnormals among them) through
/// staging buffers of [`KILL_STAGE`] (the engine's, or the mutant's where `!wait_for_copy`)
/// on a stream held for 100 ms by a sleeping kernel, so that every copy runs after the host
/// has filled its buffers; returns the first term whose bits differ after the round trip,
/// or `None`. The correct upload gives `None`; the mutant refills each buffer before its copy
/// has run and gives `Some` (the first chunk's terms are overwritten by a later chunk's).
pub fn first_wrong_term(gpu: &crate::gpu::Gpu, wait_for_copy: bool) -> Result<Option<usize>> {
    let host: Vec<f64> = (0..KILL_TERMS as u64)
        .map(|i| match i % 5 {
            0 => f64::from_bits(0x7ff8_0000_dead_0000 ^ i),
            1 => -0.0 - i as f64,
            2 => f64::from_bits(i + 1), // subnormal
            _ => (i as f64).sqrt(),
        })
        .collect();
    let stream = gpu.stream();
    let mut up = StagedUpload::build(gpu.context(), KILL_STAGE, wait_for_copy)?;
    let hold = hold_stream(gpu, HOLD_NS)?;
    let (dev, _) = up.queue(stream, &host)?;
    // The mutant queues every copy without waiting: the hold must still be on once they are
    // queued (before anything waits for them), or its copies may have run as they were queued
    // and its survival would say nothing. (Asked after `upload`, which waits for the last
    // copy, the hold had always ended: the H100 at b5d3995 failed the check so.)
    if !wait_for_copy && !hold.still_held()? {
        anyhow::bail!("the stream's hold ended before the unsynchronized upload was queued");
    }
    stream.synchronize()?;
    drop(hold);
    let back = stream.clone_dtoh(&dev)?;
    Ok(host
        .iter()
        .zip(&back)
        .position(|(a, b)| a.to_bits() != b.to_bits()))
}

/// One device test of the library at a time (its tests that use the device take this lock):
/// libtest runs tests on threads of one process, and a driver call of another test that waits
/// for the device (a free, a synchronous copy) can hold this test's launches until the hold
/// has ended, so a kill check's hold would end before its work is queued.
#[cfg(test)]
pub(crate) fn one_device_test_at_a_time() -> std::sync::MutexGuard<'static, ()> {
    static DEVICE: std::sync::Mutex<()> = std::sync::Mutex::new(());
    DEVICE.lock().unwrap_or_else(|e| e.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Round trips through the staging buffers keep every term's bits, for lengths around
    /// the buffer's (one short, exact, one over, several) and with NaN payloads, -0 and
    /// subnormals; skipped without a device.
    #[test]
    fn staged_upload_keeps_every_bit() {
        let _device = one_device_test_at_a_time();
        let Some(gpu) = crate::gpu::require::open_or_skip("staged_upload_keeps_every_bit") else {
            return;
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

    /// The kernel that holds the stream compiles (NVRTC only; no device needed).
    #[test]
    fn hold_kernel_compiles() {
        if !crate::gpu::require::nvrtc_or_skip("hold_kernel_compiles") {
            return;
        }
        let ptx = crate::gpu::compile("hold_stream", &[HOLD_SOURCE], &[], "sm_90").unwrap();
        assert!(ptx.to_src().contains(".entry hold_stream("));
    }

    /// The upload waits for each buffer's copy (none wrong with the stream held behind a
    /// sleeping kernel), and its mutant that does not wait is killed by a wrong term there.
    #[test]
    fn staged_upload_waits_and_its_mutant_is_killed() {
        let _device = one_device_test_at_a_time();
        let Some(gpu) =
            crate::gpu::require::open_or_skip("staged_upload_waits_and_its_mutant_is_killed")
        else {
            return;
        };
        assert_eq!(first_wrong_term(&gpu, true).unwrap(), None);
        let wrong = first_wrong_term(&gpu, false).unwrap();
        assert!(
            wrong.is_some(),
            "the unsynchronized upload survived a held stream"
        );
        println!("killed: staged upload without the wait, first wrong term {wrong:?}");
    }
}
