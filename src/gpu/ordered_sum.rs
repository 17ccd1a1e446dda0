//! The ordered double sum on the device: many independent sums (segments of one buffer of
//! terms) per launch sequence, each equal in bits to the CPU loop, with the seed's four
//! kernels (`kernels/ordered_sum.cu`) and the baselines a port starts from.

use std::ops::Range;

use anyhow::{bail, Context as _, Result};
use cudarc::driver::{CudaFunction, CudaSlice, CudaView, LaunchConfig, PushKernelArg};

use super::{Gpu, Module};
use crate::format::F64;
use crate::plan::{self, PlanKind};
use crate::unit::Unit;
use crate::verify::device_header::HEADER;
use crate::verify::mutant::Mutant;
use crate::walk::CHUNK;

/// The kernels' source (compiled with [`HEADER`] prepended).
pub const SOURCE: &str = include_str!("../../kernels/ordered_sum.cu");

/// Compiles the ordered-sum kernels for `arch` with `mutant` (no device needed; for checks).
pub fn compile_for(arch: &str, mutant: Mutant) -> Result<cudarc::nvrtc::Ptx> {
    let defines = kernel_defines(mutant);
    let pairs: Vec<(&str, &str)> = defines.iter().map(|(k, v)| (*k, v.as_str())).collect();
    super::compile("ordered_sum", &[HEADER, "\n", SOURCE], &pairs, arch)
}

/// The defines the ordered-sum kernels are compiled with: the layout of [`crate::layout`]
/// and the mutant's code.
pub fn kernel_defines(mutant: Mutant) -> Vec<(&'static str, String)> {
    let mut d = crate::layout::defines();
    d.push(("BINADE_MUTANT", mutant.code().to_string()));
    d
}

/// Threads per block of the chunk kernels (lanes of a chunk).
const LANES: u32 = crate::layout::LANES as u32;
/// Threads per block of the one-lane-per-segment kernels.
const SEGMENT_BLOCK: u32 = 128;
/// Largest grid x dimension.
const GRID_X_MAX: u64 = (1 << 31) - 1;

/// Chunks per group of the grouped walk (`BINADE_GROUP` in the kernels).
pub const GROUP: u64 = crate::layout::GROUP as u64;

/// How the last stage walks a sum.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WalkKind {
    /// The seed's walk: lane 0 visits every chunk (`ordered_totals`).
    Chunks,
    /// Runs of 256 chunks planned for one binade are composed into one unit
    /// (`group_units`) and the walk steps over whole groups where they apply
    /// (`ordered_totals_grouped`), visiting the chunks of the other groups one by one.
    Groups,
}

impl WalkKind {
    /// Both walks, the seed's first.
    pub const ALL: [WalkKind; 2] = [WalkKind::Chunks, WalkKind::Groups];

    /// The name used in reports.
    pub fn name(self) -> &'static str {
        match self {
            WalkKind::Chunks => "chunk walk",
            WalkKind::Groups => "group walk",
        }
    }
}

/// One exact sum and how the walk reached it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GpuSum {
    /// Equal in bits to `s = 0; for x in terms { s += x }` (NaN as NaN) for `Mutant::None`.
    pub total: f64,
    /// Chunks whose unit applied in one step.
    pub applied: u64,
    /// Chunks added term by term.
    pub fallback: u64,
}

/// What the first three stages of the last launch sequence left on the device, downloaded:
/// for comparing with the host's layout (`walk::chunk_sums`, `plan::make`, `walk::chunk_units`).
#[derive(Clone, Debug, PartialEq)]
pub struct Stages {
    /// Every chunk's tree sum, all segments' chunks in order.
    pub sums: Vec<f64>,
    /// Every chunk's planned binade (0: term by term).
    pub binades: Vec<u32>,
    /// Every chunk's unit under its planned binade.
    pub units: Vec<Unit>,
    /// Segment `k`'s chunks are `chunk_base[k] .. chunk_base[k+1]`.
    pub chunk_base: Vec<u64>,
}

/// The compiled kernels for one mutant, and the launches of the pipeline and baselines.
#[derive(Clone, Debug)]
pub struct GpuOrderedSum {
    gpu: Gpu,
    mutant: Mutant,
    k_sums: CudaFunction,
    k_plan: CudaFunction,
    k_units: CudaFunction,
    k_totals: CudaFunction,
    k_group: CudaFunction,
    k_totals_grouped: CudaFunction,
    walk: WalkKind,
    k_loop: CudaFunction,
    k_fill: CudaFunction,
    k_checksum: CudaFunction,
}

/// Segment tables on the device: segment `k` holds `len[k]` values from `start[k]`; its chunks
/// are `base[k] .. base[k+1]` of the level's output.
#[derive(Debug)]
struct Level {
    start: CudaSlice<u64>,
    len: CudaSlice<u64>,
    base: CudaSlice<u64>,
    gbase: CudaSlice<u64>,
    host_len: Vec<u64>,
    host_base: Vec<u64>,
    host_gbase: Vec<u64>,
    out: CudaSlice<f64>,
}

impl Level {
    fn new(gpu: &Gpu, start: Vec<u64>, len: Vec<u64>) -> Result<Level> {
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

    fn nseg(&self) -> u32 {
        self.host_len.len() as u32
    }

    fn chunks(&self) -> u64 {
        self.host_base[self.host_base.len() - 1]
    }

    fn groups(&self) -> u64 {
        self.host_gbase[self.host_gbase.len() - 1]
    }

    /// The next level of the tree sum: each segment's chunk sums as its values.
    fn next(&self, gpu: &Gpu) -> Result<Level> {
        let starts = self.host_base[..self.host_base.len() - 1].to_vec();
        let lens = self.host_base.windows(2).map(|w| w[1] - w[0]).collect();
        Level::new(gpu, starts, lens)
    }
}

/// One launch sequence's buffers: the terms (on the device), the segments, and every stage's
/// output. Made by [`GpuOrderedSum::job`]; reusable for any number of runs.
#[derive(Debug)]
pub struct SumJob<'a> {
    terms: CudaView<'a, f64>,
    first: Level,
    tree: Vec<Level>,
    binades: CudaSlice<u32>,
    units: CudaSlice<u64>,
    gbinades: CudaSlice<u32>,
    gunits: CudaSlice<u64>,
    totals: CudaSlice<f64>,
    counts: CudaSlice<u64>,
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

fn chunk_grid(chunks: u64) -> LaunchConfig {
    let x = chunks.min(GRID_X_MAX);
    let y = chunks.div_ceil(x.max(1));
    LaunchConfig {
        grid_dim: (x as u32, y as u32, 1),
        block_dim: (LANES, 1, 1),
        shared_mem_bytes: 0,
    }
}

fn segment_grid(nseg: u32) -> LaunchConfig {
    LaunchConfig {
        grid_dim: (nseg.div_ceil(SEGMENT_BLOCK), 1, 1),
        block_dim: (SEGMENT_BLOCK, 1, 1),
        shared_mem_bytes: 0,
    }
}

impl GpuOrderedSum {
    /// Compiles the exact kernels for `gpu`.
    pub fn new(gpu: &Gpu) -> Result<GpuOrderedSum> {
        Self::with_mutant(gpu, Mutant::None)
    }

    /// Compiles the kernels with `BINADE_MUTANT = mutant.code()` for `gpu` (a verification
    /// build: every mutant but `Mutant::None` gives wrong sums on purpose).
    pub fn with_mutant(gpu: &Gpu, mutant: Mutant) -> Result<GpuOrderedSum> {
        let defines = kernel_defines(mutant);
        let pairs: Vec<(&str, &str)> = defines.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let m: Module = gpu.load("ordered_sum", &[HEADER, "\n", SOURCE], &pairs)?;
        Ok(GpuOrderedSum {
            gpu: gpu.clone(),
            mutant,
            k_sums: m.function("chunk_sums")?,
            k_plan: m.function("chunk_plan")?,
            k_units: m.function("chunk_units")?,
            k_totals: m.function("ordered_totals")?,
            k_group: m.function("group_units")?,
            k_totals_grouped: m.function("ordered_totals_grouped")?,
            walk: WalkKind::Groups,
            k_loop: m.function("loop_sums")?,
            k_fill: m.function("fill_hash")?,
            k_checksum: m.function("bits_checksum")?,
        })
    }

    /// The same kernels with the walk `walk` (the default is [`WalkKind::Groups`]).
    pub fn with_walk(mut self, walk: WalkKind) -> GpuOrderedSum {
        self.walk = walk;
        self
    }

    /// The walk the pipeline uses.
    pub fn walk(&self) -> WalkKind {
        self.walk
    }

    /// The mutant the kernels were compiled with.
    pub fn mutant(&self) -> Mutant {
        self.mutant
    }

    /// The device.
    pub fn gpu(&self) -> &Gpu {
        &self.gpu
    }

    /// Buffers for the sums of `segments` (ranges of `terms`, any lengths, may overlap).
    /// Errors when a segment lies outside `terms`.
    pub fn job<'a>(
        &self,
        terms: CudaView<'a, f64>,
        segments: &[Range<usize>],
    ) -> Result<SumJob<'a>> {
        if segments.len() > u32::MAX as usize {
            bail!("{} segments: at most {} per job", segments.len(), u32::MAX);
        }
        for (k, r) in segments.iter().enumerate() {
            if r.start > r.end || r.end > terms.len() {
                bail!(
                    "segment {k} ({}..{}) lies outside the {} terms",
                    r.start,
                    r.end,
                    terms.len()
                );
            }
        }
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
        Ok(SumJob {
            terms,
            binades: s.alloc_zeros::<u32>(chunks.max(1))?,
            units: s.alloc_zeros::<u64>(2 * chunks.max(1))?,
            gbinades: s.alloc_zeros::<u32>(groups.max(1))?,
            gunits: s.alloc_zeros::<u64>(2 * groups.max(1))?,
            totals: s.alloc_zeros::<f64>(nseg)?,
            counts: s.alloc_zeros::<u64>(2 * nseg)?,
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

    /// Stage 1: every chunk's tree sum (`walk::chunk_tree_sum` on the device).
    pub fn launch_chunk_sums(&self, job: &mut SumJob) -> Result<()> {
        launch_level(&self.gpu, &self.k_sums, &job.terms, &mut job.first)
    }

    /// Stage 2: the plan. `TreePrefix` is made on the device from the chunk sums; every other
    /// kind is made on the host by `plan::make` from the downloaded chunk sums (per segment,
    /// `stale` shared by all) and uploaded.
    pub fn launch_plan(
        &self,
        job: &mut SumJob,
        kind: &PlanKind,
        stale: Option<&[f64]>,
    ) -> Result<()> {
        let nseg = job.first.nseg();
        if job.chunks() == 0 {
            return Ok(());
        }
        if *kind == PlanKind::TreePrefix {
            let mut b = self.gpu.stream().launch_builder(&self.k_plan);
            b.arg(&job.first.out)
                .arg(&job.first.base)
                .arg(&nseg)
                .arg(&mut job.binades);
            let cfg = LaunchConfig {
                grid_dim: (nseg, 1, 1),
                block_dim: (LANES, 1, 1),
                shared_mem_bytes: 0,
            };
            // SAFETY: argument types match chunk_plan's signature; buffers hold `chunks` entries.
            unsafe { b.launch(cfg) }.context("launching chunk_plan")?;
            return Ok(());
        }
        let sums = self.gpu.stream().clone_dtoh(&job.first.out)?;
        let mut binades = Vec::with_capacity(sums.len());
        for w in job.first.host_base.windows(2) {
            let p = plan::make::<F64>(kind, &sums[w[0] as usize..w[1] as usize], stale);
            binades.extend(p.binades.iter().map(|b| b.map_or(0, |b| b.0)));
        }
        self.gpu.stream().memcpy_htod(&binades, &mut job.binades)?;
        Ok(())
    }

    /// Stage 3: every chunk's unit under its planned binade.
    pub fn launch_chunk_units(&self, job: &mut SumJob) -> Result<()> {
        let (nseg, chunks) = (job.first.nseg(), job.chunks());
        if chunks == 0 {
            return Ok(());
        }
        let l = &job.first;
        let mut b = self.gpu.stream().launch_builder(&self.k_units);
        b.arg(&job.terms)
            .arg(&l.start)
            .arg(&l.len)
            .arg(&l.base)
            .arg(&nseg)
            .arg(&job.binades)
            .arg(&mut job.units);
        // SAFETY: argument types match chunk_units; every index stays inside its buffer.
        unsafe { b.launch(chunk_grid(chunks)) }.context("launching chunk_units")?;
        Ok(())
    }

    /// Between stages 3 and 4 of the group walk: each group's composed unit and binade.
    pub fn launch_group_units(&self, job: &mut SumJob) -> Result<()> {
        let (nseg, groups) = (job.first.nseg(), job.first.groups());
        if groups == 0 {
            return Ok(());
        }
        let l = &job.first;
        let mut b = self.gpu.stream().launch_builder(&self.k_group);
        b.arg(&l.base)
            .arg(&l.gbase)
            .arg(&nseg)
            .arg(&job.binades)
            .arg(&job.units);
        b.arg(&mut job.gbinades).arg(&mut job.gunits);
        // SAFETY: argument types match group_units; gbinades and gunits hold `groups` entries.
        unsafe { b.launch(chunk_grid(groups)) }.context("launching group_units")?;
        Ok(())
    }

    /// Stage 4: the walk, one block per sum, of this object's [`WalkKind`] (the group walk
    /// needs [`Self::launch_group_units`] first).
    pub fn launch_totals(&self, job: &mut SumJob) -> Result<()> {
        match self.walk {
            WalkKind::Chunks => self.launch_chunk_walk(job),
            WalkKind::Groups => self.launch_group_walk(job),
        }
    }

    fn launch_group_walk(&self, job: &mut SumJob) -> Result<()> {
        let nseg = job.first.nseg();
        if nseg == 0 {
            return Ok(());
        }
        let l = &job.first;
        let mut b = self.gpu.stream().launch_builder(&self.k_totals_grouped);
        b.arg(&job.terms)
            .arg(&l.start)
            .arg(&l.len)
            .arg(&l.base)
            .arg(&l.gbase)
            .arg(&nseg);
        b.arg(&job.binades)
            .arg(&job.units)
            .arg(&job.gbinades)
            .arg(&job.gunits);
        b.arg(&mut job.totals).arg(&mut job.counts);
        let cfg = LaunchConfig {
            grid_dim: (nseg, 1, 1),
            block_dim: (LANES, 1, 1),
            shared_mem_bytes: 0,
        };
        // SAFETY: argument types match ordered_totals_grouped; totals and counts hold nseg entries.
        unsafe { b.launch(cfg) }.context("launching ordered_totals_grouped")?;
        Ok(())
    }

    fn launch_chunk_walk(&self, job: &mut SumJob) -> Result<()> {
        let nseg = job.first.nseg();
        if nseg == 0 {
            return Ok(());
        }
        let l = &job.first;
        let mut b = self.gpu.stream().launch_builder(&self.k_totals);
        b.arg(&job.terms)
            .arg(&l.start)
            .arg(&l.len)
            .arg(&l.base)
            .arg(&nseg);
        b.arg(&job.binades)
            .arg(&job.units)
            .arg(&mut job.totals)
            .arg(&mut job.counts);
        let cfg = LaunchConfig {
            grid_dim: (nseg, 1, 1),
            block_dim: (LANES, 1, 1),
            shared_mem_bytes: 0,
        };
        // SAFETY: argument types match ordered_totals; totals and counts hold nseg entries.
        unsafe { b.launch(cfg) }.context("launching ordered_totals")?;
        Ok(())
    }

    /// Downloads the chunk sums, plan and chunk units of the last launch sequence.
    pub fn stages(&self, job: &SumJob) -> Result<Stages> {
        let chunks = job.chunks() as usize;
        let s = self.gpu.stream();
        let sums = s.clone_dtoh(&job.first.out)?;
        let binades = s.clone_dtoh(&job.binades)?;
        let units = s.clone_dtoh(&job.units)?;
        Ok(Stages {
            sums: sums[..chunks].to_vec(),
            binades: binades[..chunks].to_vec(),
            units: units
                .chunks_exact(2)
                .take(chunks)
                .map(|p| Unit {
                    even: p[0],
                    odd: p[1],
                })
                .collect(),
            chunk_base: job.first.host_base.clone(),
        })
    }

    /// Downloads the totals and counts of the last [`Self::launch_totals`].
    pub fn results(&self, job: &SumJob) -> Result<Vec<GpuSum>> {
        let n = job.sums();
        let totals = self.gpu.stream().clone_dtoh(&job.totals)?;
        let counts = self.gpu.stream().clone_dtoh(&job.counts)?;
        Ok((0..n)
            .map(|k| GpuSum {
                total: totals[k],
                applied: counts[2 * k],
                fallback: counts[2 * k + 1],
            })
            .collect())
    }

    /// The whole pipeline and its results: every sum exact, whatever the plan.
    pub fn run(
        &self,
        job: &mut SumJob,
        kind: &PlanKind,
        stale: Option<&[f64]>,
    ) -> Result<Vec<GpuSum>> {
        self.launch(job, kind, stale)?;
        self.results(job)
    }

    /// Launches the whole pipeline (four stages, plus the group units for the group walk).
    pub fn launch(&self, job: &mut SumJob, kind: &PlanKind, stale: Option<&[f64]>) -> Result<()> {
        self.launch_chunk_sums(job)?;
        self.launch_plan(job, kind, stale)?;
        self.launch_chunk_units(job)?;
        if self.walk == WalkKind::Groups {
            self.launch_group_units(job)?;
        }
        self.launch_totals(job)
    }

    /// Convenience: the exact sums of `segments` of host `terms` (copied to the device).
    /// `stale`, for [`PlanKind::Stale`], is the chunk sums of another input, as
    /// `walk::chunk_sums` gives them (the host pipeline takes the same).
    pub fn sums_of(
        &self,
        terms: &[f64],
        segments: &[Range<usize>],
        kind: &PlanKind,
        stale: Option<&[f64]>,
    ) -> Result<Vec<GpuSum>> {
        let dev = self.upload(terms)?;
        let view = dev.slice(0..terms.len());
        let mut job = self.job(view, segments)?;
        self.run(&mut job, kind, stale)
    }

    /// Baseline, launches only: the plain tree sum (chunk tree sums, then the same tree over
    /// the chunk sums until one value per sum is left). What a port does before it is exact.
    pub fn launch_tree(&self, job: &mut SumJob) -> Result<()> {
        launch_level(&self.gpu, &self.k_sums, &job.terms, &mut job.first)?;
        for i in 0..job.tree.len() {
            let (done, rest) = job.tree.split_at_mut(i);
            let input = done.last().map_or(&job.first.out, |l| &l.out);
            launch_level(&self.gpu, &self.k_sums, &input.as_view(), &mut rest[0])?;
        }
        Ok(())
    }

    /// Baseline: the tree sums of every segment (`+0` for an empty one).
    pub fn tree_sums(&self, job: &mut SumJob) -> Result<Vec<f64>> {
        self.launch_tree(job)?;
        let last = job.tree.last().unwrap_or(&job.first);
        let values = self.gpu.stream().clone_dtoh(&last.out)?;
        Ok(last
            .host_base
            .windows(2)
            .map(|w| {
                if w[1] > w[0] {
                    values[w[0] as usize]
                } else {
                    0.0
                }
            })
            .collect())
    }

    /// Baseline, launch only: one GPU lane per sum adds its terms in order.
    pub fn launch_loop(&self, job: &mut SumJob) -> Result<()> {
        let nseg = job.first.nseg();
        if nseg == 0 {
            return Ok(());
        }
        let l = &job.first;
        let mut b = self.gpu.stream().launch_builder(&self.k_loop);
        b.arg(&job.terms)
            .arg(&l.start)
            .arg(&l.len)
            .arg(&nseg)
            .arg(&mut job.totals);
        // SAFETY: argument types match loop_sums; totals holds nseg entries.
        unsafe { b.launch(segment_grid(nseg)) }.context("launching loop_sums")?;
        Ok(())
    }

    /// Baseline: the one-lane loop's sums (equal to the CPU loop's bits).
    pub fn loop_sums(&self, job: &mut SumJob) -> Result<Vec<f64>> {
        self.launch_loop(job)?;
        let totals = self.gpu.stream().clone_dtoh(&job.totals)?;
        Ok(totals[..job.sums()].to_vec())
    }

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

/// Launches `chunk_sums` over one level: `values` in, `level.out` the chunk sums.
fn launch_level(
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
