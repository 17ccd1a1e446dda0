//! The ordered double sum on the device: many independent sums (segments of one buffer of
//! terms) per launch sequence, each equal in bits to the CPU loop, with the seed's four
//! kernels (`kernels/ordered_sum.cu`) and the baselines a port starts from.
//!
//! [`job`]: the bookkeeping of one launch sequence (segments, levels, buffers); [`pipeline`]:
//! the four stages and the walks; [`baselines`]: the plain tree sum and the one-lane loop;
//! [`bench`]: the device-side input generator and checksum the timing experiments use.

pub mod baselines;
pub mod bench;
pub mod job;
pub mod onepass;
pub mod pipeline;

pub use job::SumJob;
pub use onepass::{OnePassJob, OnePassMutant, OnePassSum, OnePassTotal};

use anyhow::Result;
use cudarc::driver::CudaFunction;

use super::{Gpu, Module};
use crate::unit::Unit;
use crate::verify::device_header::HEADER;
use crate::verify::mutant::Mutant;

/// The kernels' source (compiled with [`HEADER`] prepended).
pub const SOURCE: &str = include_str!("../../../kernels/ordered_sum.cu");

/// Compiles the ordered-sum kernels for `arch` with `mutant` (no device needed; for checks).
pub fn compile_for(arch: &str, mutant: Mutant) -> Result<cudarc::nvrtc::Ptx> {
    super::compile(
        "ordered_sum",
        &[HEADER, "\n", SOURCE],
        &kernel_defines(mutant),
        arch,
    )
}

/// The defines the ordered-sum kernels are compiled with: the layout of [`crate::layout`]
/// and the mutant's code.
pub fn kernel_defines(mutant: Mutant) -> Vec<(&'static str, String)> {
    let mut d = crate::layout::defines();
    d.push(("BINADE_MUTANT", mutant.code().to_string()));
    d
}

/// Checks that every segment lies inside `terms` terms and that there are at most `max`
/// of them: the one error both engines give for a bad segment table.
pub(super) fn check_segments(
    terms: usize,
    segments: &[std::ops::Range<usize>],
    max: usize,
) -> Result<()> {
    if segments.len() > max {
        anyhow::bail!("{} segments: at most {max} per job", segments.len());
    }
    for (k, r) in segments.iter().enumerate() {
        if r.start > r.end || r.end > terms {
            anyhow::bail!(
                "segment {k} ({}..{}) lies outside the {terms} terms",
                r.start,
                r.end
            );
        }
    }
    Ok(())
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
    pub(super) gpu: Gpu,
    pub(super) mutant: Mutant,
    pub(super) k_sums: CudaFunction,
    pub(super) k_plan: CudaFunction,
    pub(super) k_units: CudaFunction,
    pub(super) k_totals: CudaFunction,
    pub(super) k_group: CudaFunction,
    pub(super) k_totals_grouped: CudaFunction,
    pub(super) walk: WalkKind,
    pub(super) k_loop: CudaFunction,
    pub(super) k_fill: CudaFunction,
    pub(super) k_checksum: CudaFunction,
}

impl GpuOrderedSum {
    /// Compiles the exact kernels for `gpu`.
    pub fn new(gpu: &Gpu) -> Result<GpuOrderedSum> {
        Self::with_mutant(gpu, Mutant::None)
    }

    /// Compiles the kernels with `BINADE_MUTANT = mutant.code()` for `gpu` (a verification
    /// build: every mutant but `Mutant::None` gives wrong sums on purpose).
    pub fn with_mutant(gpu: &Gpu, mutant: Mutant) -> Result<GpuOrderedSum> {
        let m: Module = gpu.load(
            "ordered_sum",
            &[HEADER, "\n", SOURCE],
            &kernel_defines(mutant),
        )?;
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
}
