//! One launch sequence's bookkeeping: the segment tables of each level (the terms, then the
//! chunk sums of the tree baseline), and the buffers of every stage.

use std::ops::Range;

use anyhow::{Context as _, Result};
use cudarc::driver::{CudaFunction, CudaSlice, CudaView, LaunchConfig, PushKernelArg};

use super::{GpuOrderedSum, GRID_X_MAX, GROUP, LANES, SEGMENT_BLOCK};
use crate::gpu::Gpu;
use crate::walk::CHUNK;

/// Segment tables on the device: segment `k` holds `len[k]` values from `start[k]`; its chunks
/// are `base[k] .. base[k+1]` of the level's output.
#[derive(Debug)]
pub(super) struct Level {
    pub(super) start: CudaSlice<u64>,
    pub(super) len: CudaSlice<u64>,
    pub(super) base: CudaSlice<u64>,
    pub(super) gbase: CudaSlice<u64>,
    pub(super) host_len: Vec<u64>,
    pub(super) host_base: Vec<u64>,
    pub(super) host_gbase: Vec<u64>,
    pub(super) out: CudaSlice<f64>,
}

impl Level {
    pub(super) fn new(gpu: &Gpu, start: Vec<u64>, len: Vec<u64>) -> Result<Level> {
        let mut base = Vec::with_capacity(len.len() + 1);
        base.push(0u64);
        for &l in &len {
            base.push(base[base.len() - 1] + l.div_ceil(CHUNK as u64));
        }
        let chunks = base[base.len() - 1] as usize;
        let mut gbase = Vec::with_capacity(len.len() + 1);
        gbase.push(0u64);
        for w in base.windows(2) {
            gbase.push(gbase[gbase.len() - 1] + (w[1] - w[0]).div_ceil(GROUP));
        }
        let s = gpu.stream();
        Ok(Level {
            start: s.clone_htod(&start)?,
            len: s.clone_htod(&len)?,
            base: s.clone_htod(&base)?,
            gbase: s.clone_htod(&gbase)?,
            host_gbase: gbase,
            out: s.alloc_zeros::<f64>(chunks.max(1))?,
            host_len: len,
            host_base: base,
        })
    }

    pub(super) fn nseg(&self) -> u32 {
        self.host_len.len() as u32
    }

    pub(super) fn chunks(&self) -> u64 {
        self.host_base[self.host_base.len() - 1]
    }

    pub(super) fn groups(&self) -> u64 {
        self.host_gbase[self.host_gbase.len() - 1]
    }

    /// The next level of the tree sum: each segment's chunk sums as its values.
    pub(super) fn next(&self, gpu: &Gpu) -> Result<Level> {
        let starts = self.host_base[..self.host_base.len() - 1].to_vec();
        let lens = self.host_base.windows(2).map(|w| w[1] - w[0]).collect();
        Level::new(gpu, starts, lens)
    }
}

/// One launch sequence's buffers: the terms (on the device), the segments, and every stage's
/// output. Made by [`GpuOrderedSum::job`]; reusable for any number of runs.
#[derive(Debug)]
pub struct SumJob<'a> {
    pub(super) terms: CudaView<'a, f64>,
    pub(super) first: Level,
    pub(super) tree: Vec<Level>,
    pub(super) binades: CudaSlice<u32>,
    pub(super) units: CudaSlice<u64>,
    pub(super) gbinades: CudaSlice<u32>,
    pub(super) gunits: CudaSlice<u64>,
    pub(super) totals: CudaSlice<f64>,
    pub(super) counts: CudaSlice<u64>,
    /// Words a unit takes in `units` and `gunits` (the [`super::UnitKind`] it was made for).
    pub(super) unit_words: usize,
}

impl SumJob<'_> {
    /// Number of sums (segments).
    pub fn sums(&self) -> usize {
        self.first.host_len.len()
    }

    /// Number of chunks over all segments.
    pub fn chunks(&self) -> u64 {
        self.first.chunks()
    }

    /// Number of terms over all segments.
    pub fn terms(&self) -> u64 {
        self.first.host_len.iter().sum()
    }
}

pub(super) fn chunk_grid(chunks: u64) -> LaunchConfig {
    let x = chunks.min(GRID_X_MAX);
    let y = chunks.div_ceil(x.max(1));
    LaunchConfig {
        grid_dim: (x as u32, y as u32, 1),
        block_dim: (LANES, 1, 1),
        shared_mem_bytes: 0,
    }
}

pub(super) fn segment_grid(nseg: u32) -> LaunchConfig {
    LaunchConfig {
        grid_dim: (nseg.div_ceil(SEGMENT_BLOCK), 1, 1),
        block_dim: (SEGMENT_BLOCK, 1, 1),
        shared_mem_bytes: 0,
    }
}

impl GpuOrderedSum {
    /// Buffers for the sums of `segments` (ranges of `terms`, any lengths, may overlap).
    /// Errors when a segment lies outside `terms`.
    pub fn job<'a>(
        &self,
        terms: CudaView<'a, f64>,
        segments: &[Range<usize>],
    ) -> Result<SumJob<'a>> {
        super::check_segments(terms.len(), segments, u32::MAX as usize)?;
        let start = segments.iter().map(|r| r.start as u64).collect();
        let len = segments.iter().map(|r| (r.end - r.start) as u64).collect();
        let first = Level::new(&self.gpu, start, len)?;
        let mut tree = Vec::new();
        let mut last = &first;
        while last.host_base.windows(2).any(|w| w[1] - w[0] > 1) {
            tree.push(last.next(&self.gpu)?);
            last = &tree[tree.len() - 1];
        }
        let chunks = first.chunks() as usize;
        let groups = first.groups() as usize;
        let s = self.gpu.stream();
        let nseg = segments.len().max(1);
        let words = self.units.words();
        Ok(SumJob {
            terms,
            binades: s.alloc_zeros::<u32>(chunks.max(1))?,
            units: s.alloc_zeros::<u64>(words * chunks.max(1))?,
            gbinades: s.alloc_zeros::<u32>(groups.max(1))?,
            gunits: s.alloc_zeros::<u64>(words * groups.max(1))?,
            totals: s.alloc_zeros::<f64>(nseg)?,
            counts: s.alloc_zeros::<u64>(2 * nseg)?,
            unit_words: words,
            first,
            tree,
        })
    }

    /// Copies `terms` to the device (for callers whose terms are on the host).
    pub fn upload(&self, terms: &[f64]) -> Result<CudaSlice<f64>> {
        if terms.is_empty() {
            return Ok(self.gpu.stream().alloc_zeros::<f64>(1)?);
        }
        Ok(self.gpu.stream().clone_htod(terms)?)
    }
}

/// Launches `chunk_sums` over one level: `values` in, `level.out` the chunk sums.
pub(super) fn launch_level(
    gpu: &Gpu,
    f: &CudaFunction,
    values: &CudaView<f64>,
    level: &mut Level,
) -> Result<()> {
    let (nseg, chunks) = (level.nseg(), level.chunks());
    if chunks == 0 {
        return Ok(());
    }
    let mut b = gpu.stream().launch_builder(f);
    b.arg(values)
        .arg(&level.start)
        .arg(&level.len)
        .arg(&level.base)
        .arg(&nseg)
        .arg(&mut level.out);
    // SAFETY: argument types match chunk_sums; out holds `chunks` entries.
    unsafe { b.launch(chunk_grid(chunks)) }.context("launching chunk_sums")?;
    Ok(())
}
