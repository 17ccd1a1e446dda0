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
pub mod signed_kill;
pub mod walked;
pub mod walked_kill;

pub use job::SumJob;
pub use onepass::{OnePassJob, OnePassMutant, OnePassSum, OnePassTotal};
pub use signed_kill::first_wrong_signed;

use anyhow::Result;
use cudarc::driver::CudaFunction;

use super::{Gpu, Module};
use crate::signed_unit::{SignedFault, SignedUnit};
use crate::unit::Unit;
use crate::verify::device_header::HEADER;
use crate::verify::mutant::Mutant;

/// The kernels' source (compiled with [`HEADER`] prepended).
pub const SOURCE: &str = include_str!("../../../kernels/ordered_sum.cu");

/// Compiles the ordered-sum kernels for `arch` with `mutant` (no device needed; for checks).
pub fn compile_for(arch: &str, mutant: Mutant) -> Result<cudarc::nvrtc::Ptx> {
    compile_with(arch, mutant, SignedFault::None)
}

/// [`compile_for`] with a fault of the signed units (`BINADE_SIGNED_MUTANT`).
pub fn compile_with(arch: &str, mutant: Mutant, fault: SignedFault) -> Result<cudarc::nvrtc::Ptx> {
    super::compile(
        "ordered_sum",
        &[HEADER, "\n", SOURCE],
        &kernel_defines_with(mutant, fault),
        arch,
    )
}

/// The defines the ordered-sum kernels are compiled with: the layout of [`crate::layout`]
/// and the mutant's code.
pub fn kernel_defines(mutant: Mutant) -> Vec<(&'static str, String)> {
    kernel_defines_with(mutant, SignedFault::None)
}

/// [`kernel_defines`] with a fault of the signed units too (`BINADE_SIGNED_MUTANT`).
pub fn kernel_defines_with(mutant: Mutant, fault: SignedFault) -> Vec<(&'static str, String)> {
    let mut d = crate::layout::defines();
    d.push(("BINADE_MUTANT", mutant.code().to_string()));
    d.push((
        "BINADE_SIGNED_MUTANT",
        crate::verify::device_header_signed::code(fault).to_string(),
    ));
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

/// Which units the pipeline carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnitKind {
    /// The seed's: a pair of increments for non-negative runs (a chunk with a negative term
    /// goes term by term); the plan's codes are binade fields of positive prefixes.
    Unsigned,
    /// The signed units of `crate::signed_unit` (each start parity's increment and lowest and
    /// highest running offsets, 7 words a chunk): a chunk of terms of either sign applies where
    /// its running sum keeps a quantum inside the planned binade; the plan
    /// (`chunk_plan_signed`) also plans negative prefixes, whose chunks are taken negated.
    Signed,
}

impl UnitKind {
    /// The name used in reports.
    pub fn name(self) -> &'static str {
        match self {
            UnitKind::Unsigned => "unsigned units",
            UnitKind::Signed => "signed units",
        }
    }

    /// Words a unit takes on the device.
    pub fn words(self) -> usize {
        match self {
            UnitKind::Unsigned => 2,
            UnitKind::Signed => SIGNED_WORDS,
        }
    }
}

/// Words of a signed unit on the device (`signed_units::WORDS` in the kernels): each parity's
/// increment, lowest and highest offset, then `nonneg | valid << 1`.
pub const SIGNED_WORDS: usize = 7;

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
    /// Every chunk's unit under its planned binade ([`UnitKind::Unsigned`]; empty otherwise).
    pub units: Vec<Unit>,
    /// Every chunk's signed unit under its plan's code ([`UnitKind::Signed`]; empty
    /// otherwise).
    pub signed: Vec<SignedUnit>,
    /// Segment `k`'s chunks are `chunk_base[k] .. chunk_base[k+1]`.
    pub chunk_base: Vec<u64>,
}

/// The signed pipeline's kernels (`*_signed` in `kernels/ordered_sum.cu`).
#[derive(Clone, Debug)]
pub(super) struct SignedKernels {
    pub(super) plan: CudaFunction,
    pub(super) units: CudaFunction,
    pub(super) totals: CudaFunction,
    pub(super) group: CudaFunction,
    pub(super) totals_grouped: CudaFunction,
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
    pub(super) k_signed: SignedKernels,
    pub(super) walk: WalkKind,
    pub(super) units: UnitKind,
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
        Self::with_mutants(gpu, mutant, SignedFault::None)
    }

    /// Compiles the kernels with `mutant` and the signed units' `fault` (a verification build
    /// unless both are none).
    pub fn with_mutants(gpu: &Gpu, mutant: Mutant, fault: SignedFault) -> Result<GpuOrderedSum> {
        let m: Module = gpu.load(
            "ordered_sum",
            &[HEADER, "\n", SOURCE],
            &kernel_defines_with(mutant, fault),
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
            k_signed: SignedKernels {
                plan: m.function("chunk_plan_signed")?,
                units: m.function("chunk_units_signed")?,
                totals: m.function("ordered_totals_signed")?,
                group: m.function("group_units_signed")?,
                totals_grouped: m.function("ordered_totals_grouped_signed")?,
            },
            walk: WalkKind::Groups,
            units: UnitKind::Unsigned,
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

    /// The same kernels carrying `units` (the default is [`UnitKind::Unsigned`], the seed's).
    pub fn with_units(mut self, units: UnitKind) -> GpuOrderedSum {
        self.units = units;
        self
    }

    /// The units the pipeline carries.
    pub fn units(&self) -> UnitKind {
        self.units
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
