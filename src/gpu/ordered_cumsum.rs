//! The loop's running sums on the device: `out[i]` is the sum after term `i` of the loop
//! `s = start; for x in terms { s += x; out.push(s) }` in f64, round to nearest even, at every
//! position, by the one-pass engine's running-sum build (`BINADE_OP_CUMSUM` in
//! `kernels/ordered_sum_onepass.cu`).
//!
//! The argument. The one-pass engine gives each tile the loop's exact sum before it (its
//! look-back, [`crate::gpu::OnePassSum`]). From that start a tile finds each lane's exact
//! start as its finishing step does: the lanes' units for the start's binade, composed in
//! order (a scan), applied where they apply; the first lane whose composition leaves the
//! binade adds its terms natively and the lanes after it go on from its end. A unit that
//! applies gives the loop's sum after its terms (the algebra of [`crate::unit`]), so every
//! lane's start is the loop's running sum before the lane; the lane then adds its own terms
//! natively, in order, which is what the loop does from there. Each output is therefore the
//! loop's, whatever the plan, the order the tiles run in, or which lanes fell back. As a check
//! of the code (not of the argument), each tile compares its last lane's native end with the
//! exact end it published; a run where any differs is refused.
//!
//! The terms are read from memory once by the engine. Where the tile keeps its terms in
//! shared memory until it is done (one block per tile, [`CUMSUM_SCHEDULE`], and the staged
//! schedule), the running sums are staged in the tile's buffer and stored with coalesced
//! 16-byte stores; under the single-buffer resident schedule a tile whose unit applied reads
//! its terms a second time after publishing its end (moments after its copy, so mostly from
//! L2) and stores each lane's running sums directly. The outputs are written once.

use anyhow::{bail, Context as _, Result};
use cudarc::driver::{CudaFunction, CudaSlice, CudaView, CudaViewMut, LaunchConfig, PushKernelArg};

use super::ordered_sum::onepass::Schedule;
use super::{Gpu, Module, OnePassSum, OnePassTotal};
use crate::cumsum::Start;

/// The comparison kernel's source.
pub const DIFF_SOURCE: &str = include_str!("../../kernels/first_difference.cu");

/// A deliberate defect of the running sums' own steps (`BINADE_OP_CUM_MUTANT`), for the kill
/// matrix: each must write a wrong running sum at some position (the totals stay right).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CumsumMutant {
    /// The correct running sums.
    None,
    /// Every lane starts from its tile's exact start (the lane scan skipped).
    LanesAtTileStart,
    /// A lane starts from the composition of the lanes up to and including itself.
    LaneStartInclusive,
    /// A segment's loop starts from +0.0 whatever the start asked for.
    StartSignDropped,
    /// A tile's last lane with terms writes none of its running sums.
    LastLaneUnwritten,
}

impl CumsumMutant {
    /// Every variant, `None` first; the index is the code in the kernel.
    pub const ALL: [CumsumMutant; 5] = [
        CumsumMutant::None,
        CumsumMutant::LanesAtTileStart,
        CumsumMutant::LaneStartInclusive,
        CumsumMutant::StartSignDropped,
        CumsumMutant::LastLaneUnwritten,
    ];

    /// The `BINADE_OP_CUM_MUTANT` code.
    pub fn code(self) -> u32 {
        Self::ALL.iter().position(|&m| m == self).unwrap_or(0) as u32
    }

    /// A short name for reports.
    pub fn name(self) -> &'static str {
        match self {
            CumsumMutant::None => "none",
            CumsumMutant::LanesAtTileStart => "lanes start at the tile's start",
            CumsumMutant::LaneStartInclusive => "lane start includes the lane",
            CumsumMutant::StartSignDropped => "start's sign dropped",
            CumsumMutant::LastLaneUnwritten => "last lane unwritten",
        }
    }
}

/// Compiles the running sums with `mutant` and the comparison kernel for `arch` (no device
/// needed; for checks).
pub fn compile_for(arch: &str, mutant: CumsumMutant) -> Result<()> {
    super::ordered_sum::onepass::compile_running_sums_for(arch, mutant.code())?;
    super::compile("first_difference", &[DIFF_SOURCE], &[], arch)?;
    Ok(())
}

/// The running sums' schedule: one block per tile at every size, so every tile keeps its
/// terms in shared memory, stages its running sums there and stores them coalesced (under the
/// sum engine's single-buffer resident blocks of large launches, a tile whose unit applied
/// read its terms again from memory and each lane stored its own running sums:
/// `gpu-cumsum-timing` at 6d1ad92 measured 23.35 ms at 2^30 terms, 2.31x `cupy.cumsum`).
/// `gpu-cumsum-timing` times the other schedules beside it.
pub const CUMSUM_SCHEDULE: Schedule = Schedule::OneBlockPerTile;

/// Where two arrays first differ (bits, NaN matching NaN).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Difference {
    /// The least differing index.
    pub first: u64,
    /// How many positions differ.
    pub count: u64,
}

/// The compiled running-sum engine and the comparison kernel.
#[derive(Clone, Debug)]
pub struct GpuCumsum {
    engine: OnePassSum,
    mutant: CumsumMutant,
    k_diff: CudaFunction,
}

impl GpuCumsum {
    /// Compiles the running sums for `gpu`.
    pub fn new(gpu: &Gpu) -> Result<GpuCumsum> {
        Self::with_mutant(gpu, CumsumMutant::None)
    }

    /// Compiles the running sums with `mutant` (a verification build: every mutant but
    /// `None` writes wrong running sums on purpose).
    pub fn with_mutant(gpu: &Gpu, mutant: CumsumMutant) -> Result<GpuCumsum> {
        let engine = OnePassSum::running_sums(gpu, mutant.code())?.with_schedule(CUMSUM_SCHEDULE);
        let m: Module = gpu.load("first_difference", &[DIFF_SOURCE], &[])?;
        Ok(GpuCumsum {
            engine,
            mutant,
            k_diff: m.function("first_difference")?,
        })
    }

    /// The same running sums run by `schedule` (every schedule writes the same bits).
    pub fn with_schedule(mut self, schedule: Schedule) -> GpuCumsum {
        self.engine = self.engine.with_schedule(schedule);
        self
    }

    /// The running-sum mutant this build was compiled with.
    pub fn mutant(&self) -> CumsumMutant {
        self.mutant
    }

    /// The engine (for timing: a job made once, launched many times).
    pub fn engine(&self) -> &OnePassSum {
        &self.engine
    }

    /// Writes the running sums of `terms` into `out` (at least as long), from `start`, and
    /// returns the engine's account of its tiles (its `total` is the last running sum). Errors where the tiles' self-check failed.
    pub fn run(
        &self,
        terms: CudaView<'_, f64>,
        out: &mut CudaViewMut<'_, f64>,
        start: Start,
    ) -> Result<OnePassTotal> {
        let n = terms.len();
        let mut job = self.engine.job(terms, std::slice::from_ref(&(0..n)))?;
        self.launch(&mut job, out, start)?;
        let total = self.engine.results(&job)?[0];
        if total.cum_mismatch_tiles > 0 && self.mutant == CumsumMutant::None {
            bail!(
                "{} of {} tiles' running sums did not end at their exact sums",
                total.cum_mismatch_tiles,
                total.tiles
            );
        }
        Ok(total)
    }

    /// Launches one running-sum pass of `job` (one segment over its terms) into `out`.
    pub fn launch(
        &self,
        job: &mut super::OnePassJob<'_>,
        out: &mut CudaViewMut<'_, f64>,
        start: Start,
    ) -> Result<()> {
        job.set_start(match start {
            Start::PositiveZero => 0.0,
            Start::FirstTerm | Start::NegativeZero => -0.0,
        })?;
        self.engine.launch_cumsum(job, out)?;
        if start == Start::FirstTerm && job.terms_len() > 0 {
            // numpy's first output is the first term itself (a loop from -0.0 differs only
            // where that term is a signalling NaN, which the add quiets).
            let first = job.first_term();
            let mut dst = out.slice_mut(0..1);
            self.engine
                .gpu()
                .stream()
                .memcpy_dtod(&first, &mut dst)
                .context("copying the first term")?;
        }
        Ok(())
    }

    /// The running sums of host `terms` (copied to the device and back).
    pub fn cumsum_of(&self, terms: &[f64], start: Start) -> Result<Vec<f64>> {
        if terms.is_empty() {
            return Ok(Vec::new());
        }
        let s = self.engine.gpu().stream();
        let dev = s.clone_htod(terms)?;
        let mut out = s.alloc_zeros::<f64>(terms.len())?;
        self.run(
            dev.slice(0..terms.len()),
            &mut out.slice_mut(0..terms.len()),
            start,
        )?;
        Ok(s.clone_dtoh(&out)?)
    }

    /// Where `a` and `b` (equal lengths) first differ in bits, NaN matching NaN; `None` where
    /// they agree everywhere. On the device: nothing but two counters is copied back.
    pub fn first_difference(
        &self,
        a: &CudaView<'_, f64>,
        b: &CudaView<'_, f64>,
    ) -> Result<Option<Difference>> {
        if a.len() != b.len() {
            bail!("comparing {} values with {}", a.len(), b.len());
        }
        let n = a.len() as u64;
        if n == 0 {
            return Ok(None);
        }
        let s = self.engine.gpu().stream();
        let mut first: CudaSlice<u64> = s.clone_htod(&[n])?;
        let mut count: CudaSlice<u64> = s.alloc_zeros(1)?;
        // SAFETY: f64 and u64 have one size and alignment; the kernel only reads the bits.
        let (ab, bb) = unsafe { (a.transmute::<u64>(a.len()), b.transmute::<u64>(b.len())) };
        let (ab, bb) = (
            ab.context("viewing a as bits")?,
            bb.context("viewing b as bits")?,
        );
        let mut l = s.launch_builder(&self.k_diff);
        l.arg(&ab).arg(&bb).arg(&n).arg(&mut first).arg(&mut count);
        let cfg = LaunchConfig {
            grid_dim: (2048, 1, 1),
            block_dim: (256, 1, 1),
            shared_mem_bytes: 0,
        };
        // SAFETY: first_difference reads a[0..n), b[0..n) and writes the two counters.
        unsafe { l.launch(cfg) }.context("launching first_difference")?;
        let first = s.clone_dtoh(&first)?[0];
        let count = s.clone_dtoh(&count)?[0];
        Ok((count > 0).then_some(Difference { first, count }))
    }
}
