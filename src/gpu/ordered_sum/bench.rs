//! Device-side helpers of the timing experiments: inputs made on the device by a counter
//! hash (no host copy inside a timing), and a checksum of bit patterns to compare with a peer.

use anyhow::{Context as _, Result};
use cudarc::driver::{CudaSlice, CudaView, LaunchConfig, PushKernelArg};

use super::GpuOrderedSum;

impl GpuOrderedSum {
    /// Fills `out` with the counter-based uniform doubles of `seed` (the generator
    /// `experiments/peers/cupy_sum.py` implements identically).
    pub fn fill_uniform(&self, out: &mut CudaSlice<f64>, seed: u64) -> Result<()> {
        let n = out.len() as u64;
        let mut b = self.gpu.stream().launch_builder(&self.k_fill);
        b.arg(out).arg(&n).arg(&seed);
        let cfg = LaunchConfig {
            grid_dim: (4096, 1, 1),
            block_dim: (256, 1, 1),
            shared_mem_bytes: 0,
        };
        // SAFETY: fill_hash writes out[0..n) only.
        unsafe { b.launch(cfg) }.context("launching fill_hash")?;
        Ok(())
    }

    /// The sum modulo 2^64 of the bit patterns of `x` (compared with the peer's checksum).
    pub fn bits_checksum(&self, x: &CudaView<f64>) -> Result<u64> {
        let n = x.len() as u64;
        let mut out = self.gpu.stream().alloc_zeros::<u64>(1)?;
        let mut b = self.gpu.stream().launch_builder(&self.k_checksum);
        b.arg(x).arg(&n).arg(&mut out);
        let cfg = LaunchConfig {
            grid_dim: (4096, 1, 1),
            block_dim: (256, 1, 1),
            shared_mem_bytes: 0,
        };
        // SAFETY: bits_checksum reads x[0..n) and adds into out[0].
        unsafe { b.launch(cfg) }.context("launching bits_checksum")?;
        Ok(self.gpu.stream().clone_dtoh(&out)?[0])
    }
}
