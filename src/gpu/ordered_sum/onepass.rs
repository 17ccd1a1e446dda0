//! The one-pass engine (`kernels/ordered_sum_onepass.cu`): the CPU loop's double sum, bit for
//! bit, reading the terms once. A tile of [`crate::layout::OP_TILE`] terms forms its tree sum
//! (for the plan), gets the earlier tiles' approximate prefix by look-back (its binade is the
//! plan), forms its unit while its terms are on chip and publishes it in one status word, and
//! gets the exact sum before it by look-back over its predecessors' units; crossings are
//! finished lane by lane. The engine's schedule ([`SCHEDULE`], [`Schedule::Held`],
//! `onepass_sums_held`): as many blocks as stay resident, each reading its tile out of its
//! one buffer into registers as it lands and at once copying its next tile there, so a copy is
//! in flight during all of a tile's work; a tile whose unit then does not apply finishes from
//! global memory (unless its plan said it might not, and it did its exact look-back first,
//! from its registers). The schedules measured before it stay as timed variants:
//! [`Schedule::BySize`] (the engine's until `gpu-timing` at db03199: one block per tile below
//! [`RESIDENT_FROM_TILES`] tiles, [`Schedule::Resident`] from there), [`Schedule::Staged`]
//! (`onepass_sums_staged`, two tile buffers per block) and [`Schedule::Deferred`].
//!
//! Guarantee: for [`OnePassMutant::None`] every total equals `s = 0; for x in terms { s += x }`
//! in bits (NaN as NaN), whatever the plan and whatever order the tiles run in. The plan comes
//! from a look-back over doubles and may differ from run to run; the totals may not, and the
//! tests and `gpu-parity` run each sum several times to show it.

use std::ops::Range;

use anyhow::{bail, Context as _, Result};
use cudarc::driver::sys::{CUdevice_attribute, CUfunction_attribute};
use cudarc::driver::{CudaFunction, CudaSlice, CudaView, CudaViewMut, LaunchConfig, PushKernelArg};

use super::super::{Gpu, Module};
use crate::layout::{OP_THREADS, OP_TILE};
use crate::verify::device_header::HEADER;

/// The kernel's source (compiled with [`HEADER`] prepended).
pub const SOURCE: &str = include_str!("../../../kernels/ordered_sum_onepass.cu");

/// Epochs are stored in the 29 high bits of a tile's status word.
const EPOCH_LIMIT: u32 = 1 << 29;

/// A deliberate defect of the engine's own shortcuts (`BINADE_OP_MUTANT`), for the kill
/// matrix: each must give a wrong total on some input.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OnePassMutant {
    /// The correct engine.
    None,
    /// The fast unit's tie check removed: tiles with a tie take (rint, rint) as their unit.
    TieIgnored,
    /// The exact look-back trusts an unfinished predecessor: it reads the exact sum of the
    /// nearest tile it cannot compose without waiting for it to be published.
    LookbackTrustsUnfinished,
    /// The fast unit's bound ignored: its f64 sum is used even at or above 2^53 (and NaN).
    BoundIgnored,
    /// The look-back composes predecessors' units planned for another binade.
    BinadesMixed,
    /// The fast unit's sign check removed: negative terms count as rint(x / u).
    NegativeAccepted,
    /// A unit read back from its one-word record loses its odd increment (odd taken as even).
    OddDropped,
    /// A plan fault, not a bit fault: the plan look-back counts a tree sum not yet published
    /// as zero instead of estimating it. It must change no bits.
    PlanUnpublishedZero,
    /// A lane's f64 unit resolves a tie for the odd start by the even start's parity.
    TieParityShared,
    /// The staged schedule works on the buffer its next tile is being copied into, not on
    /// the one its current tile landed in (run by [`Schedule::Staged`]).
    StagedBuffersSwapped,
    /// The staged schedule copies a block's next tile into the buffer of the tile it works
    /// on, not into the other one (run by [`Schedule::Staged`]; the mutant waits for that
    /// copy, so the fault is never hidden by timing).
    StagedBufferReused,
    /// The deferred schedule finishes a deferred tile lane by lane from the block's buffer,
    /// which by then holds the block's next tile, instead of from global memory (run by
    /// [`Schedule::Deferred`]; a wrong total where a deferred tile's unit does not apply).
    DeferredFromBuffer,
    /// The deferred schedule applies the unit of the block's current tile to its deferred
    /// tile's start instead of the deferred tile's own (run by [`Schedule::Deferred`]).
    DeferredUnitOfNext,
    /// The held schedule finishes a tile whose unit does not apply with the terms the block
    /// holds, which by then are its next tile's, instead of reading its own from global
    /// memory (run by [`Schedule::Held`]).
    HeldFinishFromRegisters,
    /// The held schedule starts copying a block's next tile into the buffer before its
    /// threads have read out the tile in it (run by [`Schedule::Held`]; the mutant waits for
    /// that copy, so the fault is never hidden by timing).
    HeldBufferReused,
}

impl OnePassMutant {
    /// Every variant, `None` first; the index is the code in the kernel.
    pub const ALL: [OnePassMutant; 15] = [
        OnePassMutant::None,
        OnePassMutant::TieIgnored,
        OnePassMutant::LookbackTrustsUnfinished,
        OnePassMutant::BoundIgnored,
        OnePassMutant::BinadesMixed,
        OnePassMutant::NegativeAccepted,
        OnePassMutant::OddDropped,
        OnePassMutant::PlanUnpublishedZero,
        OnePassMutant::TieParityShared,
        OnePassMutant::StagedBuffersSwapped,
        OnePassMutant::StagedBufferReused,
        OnePassMutant::DeferredFromBuffer,
        OnePassMutant::DeferredUnitOfNext,
        OnePassMutant::HeldFinishFromRegisters,
        OnePassMutant::HeldBufferReused,
    ];

    /// The schedule a mutant is run by: the engine's, except the schedules' own mutants,
    /// which exist only under those ([`Self::own_schedule`]).
    pub fn schedule(self) -> Schedule {
        self.own_schedule().unwrap_or(SCHEDULE)
    }

    /// The schedule whose own code the mutant breaks (`None`: code every schedule runs).
    pub fn own_schedule(self) -> Option<Schedule> {
        match self {
            OnePassMutant::StagedBuffersSwapped | OnePassMutant::StagedBufferReused => {
                Some(Schedule::Staged)
            }
            OnePassMutant::DeferredFromBuffer | OnePassMutant::DeferredUnitOfNext => {
                Some(Schedule::Deferred)
            }
            OnePassMutant::HeldFinishFromRegisters | OnePassMutant::HeldBufferReused => {
                Some(Schedule::Held)
            }
            _ => None,
        }
    }

    /// The options a mutant is built with: the engine's, except where its shortcut exists only
    /// under others (the plan-only fault estimates missing tree sums, which a waiting plan
    /// never does, so it is built with a plan that never waits; the held schedule's late
    /// finish is built with every tile released, so that risky tiles take it too).
    pub fn options(self) -> EngineOptions {
        match self {
            OnePassMutant::PlanUnpublishedZero => EngineOptions {
                plan_waits: false,
                ..EngineOptions::DEFAULT
            },
            // Its fault is in the late finish of the held schedule, which risky tiles skip
            // where they are resolved before the take: every tile takes the late path.
            OnePassMutant::HeldFinishFromRegisters => EngineOptions {
                hold_risky: false,
                ..EngineOptions::DEFAULT
            },
            _ => EngineOptions::DEFAULT,
        }
    }

    /// Whether the mutant must give a wrong total somewhere (a bit fault); `false` for the
    /// correct engine and for plan faults, which must give the loop's bits everywhere.
    pub fn changes_bits(self) -> bool {
        !matches!(
            self,
            OnePassMutant::None | OnePassMutant::PlanUnpublishedZero
        )
    }

    /// The `BINADE_OP_MUTANT` code.
    pub fn code(self) -> u32 {
        Self::ALL.iter().position(|&m| m == self).unwrap_or(0) as u32
    }

    /// The name used in reports.
    pub fn name(self) -> &'static str {
        match self {
            OnePassMutant::None => "none (correct)",
            OnePassMutant::TieIgnored => "tie check removed",
            OnePassMutant::LookbackTrustsUnfinished => "look-back trusts an unfinished tile",
            OnePassMutant::BoundIgnored => "fast unit's 2^53 bound ignored",
            OnePassMutant::BinadesMixed => "look-back mixes binades",
            OnePassMutant::NegativeAccepted => "fast unit's sign check removed",
            OnePassMutant::OddDropped => "unit record's odd increment dropped",
            OnePassMutant::PlanUnpublishedZero => {
                "plan look-back counts unpublished tree sums as zero (plan only)"
            }
            OnePassMutant::TieParityShared => {
                "lane unit's odd start takes the even start's parity at a tie"
            }
            OnePassMutant::StagedBuffersSwapped => "staged tile read from the buffer being filled",
            OnePassMutant::StagedBufferReused => "staged copy into the buffer still being filled",
            OnePassMutant::DeferredFromBuffer => {
                "deferred tile finished from the buffer holding the next tile"
            }
            OnePassMutant::DeferredUnitOfNext => "deferred tile applies the next tile's unit",
            OnePassMutant::HeldFinishFromRegisters => {
                "held tile finished with the next tile's terms"
            }
            OnePassMutant::HeldBufferReused => "held: next copy before the buffer is read out",
        }
    }
}

/// Distributions the device makes for the timing experiments (`fill_distribution`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Distribution {
    /// Uniform in `[0, 1)` (the same values as `fill_hash` of the pipeline's kernels).
    Uniform,
    /// `exp(3 z)`, `z` standard normal.
    LogNormal3,
    /// `1 - q`, `q` in `[0.5, 1)` on the grid of half the running sum's ulp: about half the
    /// terms are exact ties.
    SsimTies,
    /// Geometric growth: the sum crosses a binade about every 2^20 terms.
    Geometric,
}

impl Distribution {
    /// Every distribution, in report order.
    pub const ALL: [Distribution; 4] = [
        Distribution::Uniform,
        Distribution::LogNormal3,
        Distribution::SsimTies,
        Distribution::Geometric,
    ];

    /// The kernel's code.
    pub fn code(self) -> u32 {
        Self::ALL.iter().position(|&d| d == self).unwrap_or(0) as u32
    }

    /// The name used in reports.
    pub fn name(self) -> &'static str {
        match self {
            Distribution::Uniform => "uniform [0, 1)",
            Distribution::LogNormal3 => "log-normal, sigma 3",
            Distribution::SsimTies => "1 - q, half the terms ties",
            Distribution::Geometric => "geometric, a binade per 2^20 terms",
        }
    }

    /// The name of the f32 stream of the same kind ([`OnePassSum::fill_f32`]) in reports.
    pub fn name_f32(self) -> &'static str {
        match self {
            Distribution::Uniform => "uniform [0, 1), f32",
            Distribution::LogNormal3 => "log-normal, sigma 3, f32",
            Distribution::SsimTies => "1 - q on an f32 sum's half ulp, f32",
            Distribution::Geometric => "geometric, a binade per 2^23 terms, f32",
        }
    }
}

/// One exact total and how its tiles reached it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OnePassTotal {
    /// Equal in bits to the loop's sum for [`OnePassMutant::None`].
    pub total: f64,
    /// Tiles of the sum.
    pub tiles: u64,
    /// Tiles with a tie (their unit by the pair composition).
    pub pair_tiles: u64,
    /// Tiles whose unit did not apply, finished lane by lane (each sum's first tile is one).
    pub finished_tiles: u64,
    /// Lanes (of [`crate::layout::OP_PER_THREAD`] terms) added natively.
    pub native_lanes: u64,
    /// Tiles whose exact start was not in their planned binade (the plan missed).
    pub missed_tiles: u64,
    /// Tiles whose plan estimated a tree sum not yet published.
    pub estimated_plans: u64,
    /// Tiles whose plan said they may leave their binade (they kept their terms).
    pub risky_tiles: u64,
    /// Running-sum builds ([`crate::gpu::GpuCumsum`]): tiles whose last lane's native
    /// running sum was not the tile's exact end (the argument says none; a result with any
    /// is refused).
    pub cum_mismatch_tiles: u64,
}

/// What one build of the module is compiled with.
#[derive(Clone, Copy, Debug)]
struct BuildSpec {
    mutant: OnePassMutant,
    phases: Phases,
    min_blocks: u32,
    shape: TileShape,
    options: EngineOptions,
    /// `Some` (the running sums' mutant code) for a running-sum build.
    cumsum: Option<u32>,
    timed: TimedSchedules,
    /// A trace build (`BINADE_OP_TRACE 1`, [`OnePassSum::traced`]).
    trace: bool,
}

impl BuildSpec {
    /// The correct engine's build: no mutant, every phase, its shape, options and
    /// registers, no running sums, no trace, no timed schedule but the engine's.
    const ENGINE: BuildSpec = BuildSpec {
        mutant: OnePassMutant::None,
        phases: Phases::All,
        min_blocks: MIN_BLOCKS,
        shape: TileShape::DEFAULT,
        options: EngineOptions::DEFAULT,
        cumsum: None,
        timed: TimedSchedules::NONE,
        trace: false,
    };

    /// The engine's build with `mutant` ([`OnePassSum::with_mutant`]).
    fn with_mutant(mutant: OnePassMutant) -> BuildSpec {
        BuildSpec {
            mutant,
            options: mutant.options(),
            ..BuildSpec::ENGINE
        }
    }

    /// The running-sum build with the running sums' mutant `cum_mutant`
    /// ([`OnePassSum::running_sums`]).
    fn running_sums(cum_mutant: u32) -> BuildSpec {
        BuildSpec {
            cumsum: Some(cum_mutant),
            timed: RUNNING_SUM_SCHEDULES,
            ..BuildSpec::ENGINE
        }
    }

    /// The schedules the build compiles besides `onepass_sums`, and its defines: the one
    /// place both are formed, for a device build and for a compile check alike. Sum builds
    /// always compile the engine's schedule; running-sum builds never the held one (the
    /// kernel refuses BINADE_OP_HELD with BINADE_OP_CUMSUM).
    fn defines(&self) -> (TimedSchedules, Vec<(&'static str, String)>) {
        let timed = match self.cumsum {
            None => self.timed.and(ENGINE_SCHEDULES),
            Some(_) => self.timed,
        }
        .and_those_of(self.mutant);
        let mut defines = kernel_defines(self.mutant, self.options, timed);
        for (name, value) in self.shape.defines() {
            if let Some(d) = defines.iter_mut().find(|d| d.0 == name) {
                d.1 = value;
            }
        }
        defines.push(("BINADE_OP_UNTIL", self.phases.code().to_string()));
        defines.push(("BINADE_OP_MIN_BLOCKS", self.min_blocks.to_string()));
        defines.push(("BINADE_OP_TRACE", u32::from(self.trace).to_string()));
        defines.push(("BINADE_OP_TRACE_WORDS", TRACE_WORDS.to_string()));
        if let Some(code) = self.cumsum {
            defines.push(("BINADE_OP_CUMSUM", "1".to_string()));
            defines.push(("BINADE_OP_CUM_MUTANT", code.to_string()));
        }
        (timed, defines)
    }
}

/// The compiled one-pass kernel for one mutant.
#[derive(Clone, Debug)]
pub struct OnePassSum {
    gpu: Gpu,
    mutant: OnePassMutant,
    k_sums: CudaFunction,
    /// The staged schedule's kernel (`onepass_sums_staged`), in builds that compile it.
    k_staged: Option<CudaFunction>,
    /// The held schedule's kernel (`onepass_sums_held`), in builds that compile it.
    k_held: Option<CudaFunction>,
    /// Blocks of the held kernel resident per multiprocessor (one tile each; 0: no build).
    resident_held: u32,
    /// Blocks of the held kernel that fit with one tile (`resident_held` before any
    /// [`OnePassSum::pinned_to`]).
    fits_held: u32,
    /// Dynamic shared memory the held kernel is launched with, bytes (as `smem`).
    smem_held: usize,
    /// The schedules this build compiled besides `onepass_sums` (its timed ones and, in sum builds, the engine's).
    timed: TimedSchedules,
    k_fill: CudaFunction,
    k_fill_f32: CudaFunction,
    schedule: Schedule,
    /// `Some` for a running-sum build (`BINADE_OP_CUMSUM 1`) and its mutant's code.
    cumsum: Option<u32>,
    /// A trace build ([`OnePassSum::traced`]): launched only with its trace buffer.
    trace: bool,
    /// Blocks resident per multiprocessor (one tile of shared memory each).
    resident: u32,
    /// Blocks of `onepass_sums` that fit on a multiprocessor with one tile (`resident`
    /// before any [`OnePassSum::pinned_to`]).
    fits: u32,
    /// Dynamic shared memory `onepass_sums` is launched with, bytes: one tile, or more where
    /// [`OnePassSum::pinned_to`] holds the build to fewer resident blocks than would fit.
    smem: usize,
    /// Blocks of the staged kernel resident per multiprocessor (two tiles each; 0: none fits).
    resident_staged: u32,
    multiprocessors: u32,
    shape: TileShape,
}

/// What the compiled kernel takes on the device (for reports).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KernelShape {
    /// Registers per thread.
    pub registers: i32,
    /// Static shared memory per block, bytes.
    pub static_shared: i32,
    /// Dynamic shared memory per block (one tile), bytes.
    pub dynamic_shared: usize,
    /// Blocks resident per multiprocessor.
    pub resident_blocks: u32,
    /// Registers per thread of the staged kernel (`onepass_sums_staged`; 0 in builds
    /// without it).
    pub staged_registers: i32,
    /// Blocks of the staged kernel resident per multiprocessor (two tiles of shared memory
    /// each; 0: two tiles do not fit).
    pub staged_resident_blocks: u32,
    /// Registers per thread of the held schedule's kernel (`onepass_sums_held`; 0 in builds
    /// without it).
    pub held_registers: i32,
    /// Blocks of the held schedule's kernel resident per multiprocessor (0 in builds
    /// without it).
    pub held_resident_blocks: u32,
    /// Multiprocessors of the device.
    pub multiprocessors: u32,
}

/// Allows kernel `k` one tile of `shape` in dynamic shared memory and returns how many of
/// its blocks fit on a multiprocessor with it (0: none).
fn one_tile_residency(k: &CudaFunction, shape: TileShape, name: &str) -> Result<u32> {
    k.set_attribute(
        CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
        shape.bytes() as i32,
    )
    .with_context(|| format!("allowing {name} one tile of dynamic shared memory"))?;
    k.occupancy_max_active_blocks_per_multiprocessor(shape.threads, shape.bytes(), None)
        .with_context(|| format!("occupancy of {name}"))
}

/// The kernel one launch runs ([`OnePassSum::kernel_use`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KernelUse {
    /// The kernel's name in `kernels/ordered_sum_onepass.cu`.
    pub kernel: &'static str,
    /// Registers per thread, as the driver reports them.
    pub registers: i32,
    /// Blocks of it resident per multiprocessor with its dynamic shared memory.
    pub resident_blocks: u32,
    /// Blocks of it that fit with its tile(s) alone: `resident_blocks` unless
    /// [`OnePassSum::pinned_to`] lowered it.
    pub fitting_blocks: u32,
}

/// Words a trace build records per tile: the kernel's `OP_TRACE_WORDS`, given to it as
/// `BINADE_OP_TRACE_WORDS` (it refuses a trace build with another count).
pub const TRACE_WORDS: usize = 8;

/// The trips of a tile's two look-backs in a trace build (each saturating at 65,535): a read
/// is one load of the records by the look-back warp (`OP_WAYS` words a lane, 32 tiles a
/// way), a sleep one pause of a wait for a record not yet published.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LookbackTrips {
    /// Reads of the plan look-back.
    pub plan_reads: u16,
    /// Sleeps of the plan look-back (waiting for predecessors' tree sums).
    pub plan_sleeps: u16,
    /// Reads of the exact look-back.
    pub exact_reads: u16,
    /// Sleeps of the exact look-back (waiting for a predecessor's unit or exact sum).
    pub exact_sleeps: u16,
}

impl LookbackTrips {
    /// The kernel's `OP_TR_TRIPS` word: the plan's half low, the exact look-back's high,
    /// each half reads in its low 16 bits and sleeps in its high 16.
    pub fn from_word(w: u64) -> LookbackTrips {
        let field = |shift: u32| (w >> shift) as u16;
        LookbackTrips {
            plan_reads: field(0),
            plan_sleeps: field(16),
            exact_reads: field(32),
            exact_sleeps: field(48),
        }
    }
}

/// One tile's record in a trace build ([`OnePassSum::launch_traced`]): times in ns of the
/// device's `%globaltimer` (one clock for the whole device).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TileTrace {
    /// Its tree sum published (its copy read out of the block's buffer).
    pub taken: u64,
    /// Its plan known (its approximate prefix found by look-back).
    pub planned: u64,
    /// Its unit published.
    pub unit: u64,
    /// Its exact sum published, or the tile finished.
    pub exact: u64,
    /// The multiprocessor that ran it.
    pub sm: u32,
    /// The block that ran it.
    pub block: u32,
    /// Tiles its block ran before it.
    pub round: u64,
    /// Its copy had landed in its block's buffer (the take's wait for it over; before
    /// `taken`).
    pub landed: u64,
    /// The trips of its look-backs (all 0 for a segment's first tile, finished at once).
    pub trips: LookbackTrips,
}

impl TileTrace {
    /// The records of `tiles` tiles from a trace buffer read back to the host.
    pub fn from_words(words: &[u64], tiles: usize) -> Vec<TileTrace> {
        debug_assert!(words.len() >= tiles * TRACE_WORDS);
        words
            .chunks_exact(TRACE_WORDS)
            .take(tiles)
            .map(|w| TileTrace {
                taken: w[0],
                planned: w[1],
                unit: w[2],
                exact: w[3],
                sm: (w[4] >> 32) as u32,
                block: w[4] as u32,
                round: w[5],
                landed: w[6],
                trips: LookbackTrips::from_word(w[7]),
            })
            .collect()
    }

    /// Whether the launch stamped it (a trace buffer zeroed before the launch reads 0 where
    /// no stamp was written; the first stamp, `landed`, is never 0 on the device's clock) with
    /// its steps in their order.
    pub fn stamped_in_order(&self) -> bool {
        self.landed != 0 && self.in_order()
    }

    /// Whether its steps are recorded in their order (landed, taken, planned, unit, exact).
    pub fn in_order(&self) -> bool {
        self.landed <= self.taken
            && self.taken <= self.planned
            && self.planned <= self.unit
            && self.unit <= self.exact
    }
}

/// The steps [`trace_steps`] measures: a name, and the two stamps it runs between.
pub const TRACE_STEPS: [(&str, &str); 7] = [
    (
        "plan",
        "its tree sum published, its plan known (in the held loop this includes the exact look-back of the block's tile before, which runs between the take and the plan)",
    ),
    ("unit", "its plan known, its unit published"),
    (
        "exact",
        "its unit published, its exact sum published (the next tile's take and the exact look-back)",
    ),
    (
        "after the predecessor",
        "the previous tile's exact sum, this tile's",
    ),
    ("round", "a block's take of one tile, its take of its next"),
    (
        "copy wait",
        "a tile's last stamp before its block's next take (its unit, or its exact sum if it was resolved before the take), the next tile's copy landed",
    ),
    (
        "exact look-back",
        "the next tile taken, this tile's exact sum (tiles resolved after the take)",
    ),
];

/// The durations (ns, later stamp minus earlier, negative where the later came first) of
/// each of [`TRACE_STEPS`] over the tiles of one sum's trace (in tile order): the first
/// three for every tile but the first (a sum's first tile is finished at once), the fourth
/// for every tile after the first, the fifth and sixth for every pair of tiles one block ran
/// in turn, the seventh for those pairs whose first tile's exact sum came after the take of
/// the second. The exact step of a tile resolved after the take is its copy wait, the take
/// (read-out, draw, tree sum) and its exact look-back.
pub fn trace_steps(trace: &[TileTrace]) -> [Vec<i64>; 7] {
    let diff = |later: u64, earlier: u64| later as i64 - earlier as i64;
    let rest = || trace.iter().skip(1);
    let mut by_block: Vec<&TileTrace> = trace.iter().collect();
    by_block.sort_unstable_by_key(|t| (t.block, t.round));
    let in_turn = || by_block.windows(2).filter(|w| w[0].block == w[1].block);
    [
        rest().map(|t| diff(t.planned, t.taken)).collect(),
        rest().map(|t| diff(t.unit, t.planned)).collect(),
        rest().map(|t| diff(t.exact, t.unit)).collect(),
        trace
            .windows(2)
            .map(|w| diff(w[1].exact, w[0].exact))
            .collect(),
        in_turn().map(|w| diff(w[1].taken, w[0].taken)).collect(),
        in_turn()
            .map(|w| {
                // Resolved before the take (risky, or finished at once): its exact sum;
                // otherwise its unit (an in-order tile's exact sum is never before its unit).
                let before = if w[0].exact <= w[1].landed {
                    w[0].exact
                } else {
                    w[0].unit
                };
                diff(w[1].landed, before)
            })
            .collect(),
        in_turn()
            .filter(|w| w[0].exact > w[1].taken)
            .map(|w| diff(w[0].exact, w[1].taken))
            .collect(),
    ]
}

/// The names of [`LookbackTrips`]' four counts, in the order [`trip_means`] gives them.
pub const TRIP_NAMES: [&str; 4] = ["plan reads", "plan sleeps", "exact reads", "exact sleeps"];

/// The mean of each of [`LookbackTrips`]' counts ([`TRIP_NAMES`]) over the tiles of one
/// sum's trace but the first (finished at once, no look-backs); NaN for a trace of one tile.
pub fn trip_means(trace: &[TileTrace]) -> [f64; 4] {
    let rest = trace.get(1..).unwrap_or(&[]);
    let mean = |f: fn(&LookbackTrips) -> u16| {
        let total: u64 = rest.iter().map(|t| u64::from(f(&t.trips))).sum();
        total as f64 / rest.len() as f64
    };
    [
        mean(|t| t.plan_reads),
        mean(|t| t.plan_sleeps),
        mean(|t| t.exact_reads),
        mean(|t| t.exact_sleeps),
    ]
}

/// How a launch runs its tiles ([`OnePassSum::with_schedule`]). Every schedule gives the
/// same bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Schedule {
    /// One block per tile, which copies its tile, processes it and exits.
    OneBlockPerTile,
    /// As many blocks as stay resident, each copying its next tile during the exact
    /// look-back of the current one (the kernel's `prefetch`), one tile buffer each.
    Resident,
    /// As many blocks as stay resident with two tile buffers each (`onepass_sums_staged`):
    /// the next tile's copy is in flight during the whole of the current tile's work.
    Staged,
    /// As many blocks as stay resident, one tile buffer each, every tile's exact look-back a
    /// round late (the kernel's `prefetch` 2): a block publishes its tile's unit, draws and
    /// starts copying its next tile, then does the exact look-back of its tile before.
    Deferred,
    /// As many blocks as stay resident, one tile buffer each used only as the landing place
    /// of copies (`onepass_sums_held`): a block reads each tile into registers as it lands
    /// and at once starts copying its next one, so a copy is in flight during all of a
    /// tile's work; the next tile's tree sum is published before the current tile's exact
    /// look-back.
    Held,
    /// [`Schedule::Resident`] from [`RESIDENT_FROM_TILES`] tiles on, one block per tile
    /// below: `gpu-timing` (100d9d6) measured resident blocks 0.94x at 2^30 uniform terms
    /// but 1.01x at 10^8 and 1.2-1.3x at 8,294,400 terms, against one block per tile.
    BySize,
}

/// How one launch runs (what a [`Schedule`] picks for its number of tiles).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LaunchKind {
    /// One block per tile (`onepass_sums`, prefetch 0).
    OneBlockPerTile,
    /// Resident blocks, one buffer (`onepass_sums`, prefetch 1).
    Resident,
    /// Resident blocks, two buffers (`onepass_sums_staged`).
    Staged,
    /// Resident blocks, one buffer, exact look-backs a round late (`onepass_sums`, prefetch 2).
    Deferred,
    /// Resident blocks, each tile held in registers (`onepass_sums_held`).
    Held,
}

/// The engine's schedule: tiles held in registers at every size. Measured (`gpu-timing`,
/// commit db03199, H200) against [`Schedule::BySize`], the engine's before: faster on 10 of
/// its 12 distribution and size rows (3.84 against 4.38 ms at 2^30 uniform terms, 0.486
/// against 0.556 at 10^8, 0.137 against 0.140 at 8,294,400), slower on the geometric stream
/// at 10^8 (1.09x) and 2^30 (1.01x).
pub const SCHEDULE: Schedule = Schedule::Held;

/// What every sum build compiles for the engine's schedule ([`SCHEDULE`]) besides
/// `onepass_sums` (running-sum builds excepted: the held kernel has no running sums).
pub const ENGINE_SCHEDULES: TimedSchedules = TimedSchedules::of(SCHEDULE);

/// The schedules a build compiles besides `onepass_sums` (one block per tile and resident
/// blocks, always there) and, in sum builds, the engine's ([`ENGINE_SCHEDULES`]): the timed
/// ones. Each adds code that NVRTC compiles at every build of
/// the module: on the 2-core build machine (`scripts/nvrtc-build-times.py`, NVRTC 13.5,
/// `compute_90`, 2026-12-01) one build took 24.9 s with both, 16.7 s with the deferred one,
/// 12.0 s with the staged one and 7.6 s with neither; running-sum builds 53.6, 23.5 (staged)
/// and 16.6 s. So a build compiles only those it is asked for, and launching a schedule a
/// build lacks is an error.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TimedSchedules {
    /// `onepass_sums_staged` ([`Schedule::Staged`], `BINADE_OP_STAGED`).
    pub staged: bool,
    /// The deferred schedule ([`Schedule::Deferred`], `BINADE_OP_DEFERRED`).
    pub deferred: bool,
    /// `onepass_sums_held` ([`Schedule::Held`], `BINADE_OP_HELD`).
    pub held: bool,
}

impl TimedSchedules {
    /// The engine's own schedules only.
    pub const NONE: TimedSchedules = TimedSchedules {
        staged: false,
        deferred: false,
        held: false,
    };
    /// Every schedule.
    pub const ALL: TimedSchedules = TimedSchedules {
        staged: true,
        deferred: true,
        held: true,
    };

    /// What a build must compile to run `schedule`.
    pub const fn of(schedule: Schedule) -> TimedSchedules {
        TimedSchedules {
            staged: matches!(schedule, Schedule::Staged),
            deferred: matches!(schedule, Schedule::Deferred),
            held: matches!(schedule, Schedule::Held),
        }
    }

    /// These and `other`.
    pub fn and(self, other: TimedSchedules) -> TimedSchedules {
        TimedSchedules {
            staged: self.staged || other.staged,
            deferred: self.deferred || other.deferred,
            held: self.held || other.held,
        }
    }

    /// Whether a build with these can run `schedule`.
    pub fn runs(self, schedule: Schedule) -> bool {
        match schedule {
            Schedule::Staged => self.staged,
            Schedule::Deferred => self.deferred,
            Schedule::Held => self.held,
            Schedule::OneBlockPerTile | Schedule::Resident | Schedule::BySize => true,
        }
    }

    /// These and the schedule whose own code `mutant` breaks, if any (a mutant of code
    /// every schedule runs adds nothing: a running-sum build, which cannot compile the held
    /// schedule, stays without it).
    pub fn and_those_of(self, mutant: OnePassMutant) -> TimedSchedules {
        match mutant.own_schedule() {
            Some(s) => self.and(TimedSchedules::of(s)),
            None => self,
        }
    }

    /// The kernel's defines.
    pub fn defines(self) -> [(&'static str, String); 3] {
        [
            ("BINADE_OP_STAGED", u32::from(self.staged).to_string()),
            ("BINADE_OP_DEFERRED", u32::from(self.deferred).to_string()),
            ("BINADE_OP_HELD", u32::from(self.held).to_string()),
        ]
    }
}

/// From this many tiles of one launch on, [`Schedule::BySize`] keeps blocks resident (2^15
/// tiles of 8,192 terms: 2^28 terms, between the 10^8 and 2^30 of the measurements).
pub const RESIDENT_FROM_TILES: u64 = 1 << 15;

impl Schedule {
    /// How a launch of `tiles` tiles runs.
    pub fn launch_kind(self, tiles: u64) -> LaunchKind {
        match self {
            Schedule::OneBlockPerTile => LaunchKind::OneBlockPerTile,
            Schedule::Resident => LaunchKind::Resident,
            Schedule::Staged => LaunchKind::Staged,
            Schedule::Deferred => LaunchKind::Deferred,
            Schedule::Held => LaunchKind::Held,
            Schedule::BySize if tiles >= RESIDENT_FROM_TILES => LaunchKind::Resident,
            Schedule::BySize => LaunchKind::OneBlockPerTile,
        }
    }

    /// A short name for reports.
    pub fn name(self) -> &'static str {
        match self {
            Schedule::OneBlockPerTile => "one block per tile",
            Schedule::Resident => "resident blocks copying their next tile",
            Schedule::Staged => "resident blocks with two tile buffers",
            Schedule::Deferred => "resident blocks, exact look-backs a round late",
            Schedule::Held => "resident blocks holding each tile in registers",
            Schedule::BySize => "by size (resident blocks from 32,768 tiles)",
        }
    }
}

/// Resident blocks per multiprocessor the engine asks of the compiler (`__launch_bounds__`);
/// 0: none, the registers per thread uncapped. Measured faster on the H200 than asking for the
/// [`CAPPED_BLOCKS`] that the shared memory allows (`gpu-timing`'s variants); the likely cause,
/// register spills under the cap, was not checked (no ptxas report was read).
pub const MIN_BLOCKS: u32 = 0;

/// As many tiles of the layout's shape as fit in 192 KiB of shared memory (three of 64 KiB):
/// the residency a register cap would ask for (a timed variant).
pub const CAPPED_BLOCKS: u32 = (192 * 1024 / (OP_TILE * 8)) as u32;

/// The shape of a tile: threads of its block and terms per thread (the layout's
/// `OP_THREADS` x `OP_PER_THREAD` unless a timing variant asks for another).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TileShape {
    /// Threads per block, a multiple of 32, at most 1024.
    pub threads: u32,
    /// Terms per thread, twice a power of two.
    pub per_thread: u32,
}

impl TileShape {
    /// The layout's shape (`src/layout_values.rs`).
    pub const DEFAULT: TileShape = TileShape {
        threads: OP_THREADS as u32,
        per_thread: (OP_TILE / OP_THREADS) as u32,
    };

    /// Terms per tile.
    pub fn tile(self) -> u64 {
        u64::from(self.threads) * u64::from(self.per_thread)
    }

    /// Bytes of one tile in shared memory.
    pub fn bytes(self) -> usize {
        self.tile() as usize * 8
    }

    /// The kernel's layout defines for this shape.
    fn defines(self) -> [(&'static str, String); 3] {
        [
            ("BINADE_OP_THREADS", self.threads.to_string()),
            ("BINADE_OP_PER_THREAD", self.per_thread.to_string()),
            ("BINADE_OP_TILE", self.tile().to_string()),
        ]
    }
}

/// The engine's switches for timing its ideas one at a time (every setting gives the same
/// bits): how the look-backs read, and how a tile finishes lane by lane.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EngineOptions {
    /// Words each lane loads per look-back round (`BINADE_OP_LB_WAYS`, 1 to 8): a round
    /// covers `32 * ways` tiles for the latency of one load.
    pub ways: u32,
    /// The plan look-back waits until every nearer tile has published its tree sum
    /// (`BINADE_OP_PLAN_WAITS`, the plan of the engine before) instead of estimating it.
    pub plan_waits: bool,
    /// A tile finished lane by lane forms each lane's unit by the fast path where the lane
    /// has no tie (`BINADE_OP_LANE_FAST`); `false`: by the pair composition always.
    pub lane_fast: bool,
    /// With prefetching, a tile whose plan says it may leave its binade keeps its terms in
    /// shared memory through the exact look-back (`BINADE_OP_HOLD_RISKY`); `false`: every
    /// tile releases its buffer once its unit is published.
    pub hold_risky: bool,
}

impl EngineOptions {
    /// The engine's: [`LOOKBACK_WAYS`] ways, a plan that waits for every nearer tree sum
    /// (measured faster than estimating them, see `gpu-timing`), fast lane units, and tiles
    /// whose plan says they may leave their binade holding their terms (measured faster at
    /// every size and distribution of `gpu-timing` at 100d9d6, the registers uncapped:
    /// 0.76x on the geometric stream at 2^30, 0.99x on uniform terms).
    pub const DEFAULT: EngineOptions = EngineOptions {
        ways: LOOKBACK_WAYS,
        plan_waits: true,
        lane_fast: true,
        hold_risky: true,
    };

    fn defines(self) -> [(&'static str, String); 4] {
        [
            ("BINADE_OP_LB_WAYS", self.ways.to_string()),
            (
                "BINADE_OP_PLAN_WAITS",
                u32::from(self.plan_waits).to_string(),
            ),
            ("BINADE_OP_LANE_FAST", u32::from(self.lane_fast).to_string()),
            (
                "BINADE_OP_HOLD_RISKY",
                u32::from(self.hold_risky).to_string(),
            ),
        ]
    }
}

/// Words each lane of a look-back loads per round in the engine.
pub const LOOKBACK_WAYS: u32 = 1;

/// A timing build that stops every tile early (`BINADE_OP_UNTIL`): its totals are not sums.
/// The time of each build is the cost of the phases up to its stop.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phases {
    /// Load the terms and publish their tree sum, no look-back: the schedule's loads and
    /// barriers alone.
    ThroughTreeSum,
    /// Load the terms, tree sum, approximate look-back (the plan).
    ThroughPlan,
    /// And the unit, published.
    ThroughUnit,
    /// The whole engine (exact totals).
    All,
}

impl Phases {
    /// Every build, shortest first.
    pub const ALL: [Phases; 4] = [
        Phases::ThroughTreeSum,
        Phases::ThroughPlan,
        Phases::ThroughUnit,
        Phases::All,
    ];

    /// The `BINADE_OP_UNTIL` code.
    pub fn code(self) -> u32 {
        match self {
            Phases::ThroughTreeSum => 0,
            Phases::ThroughPlan => 1,
            Phases::ThroughUnit => 2,
            Phases::All => 3,
        }
    }

    /// The name used in reports.
    pub fn name(self) -> &'static str {
        match self {
            Phases::ThroughTreeSum => "load + tree sum",
            Phases::ThroughPlan => "+ plan look-back",
            Phases::ThroughUnit => "+ unit",
            Phases::All => "+ exact look-back (the engine)",
        }
    }

    /// The build's name on its own: where it stops each tile.
    pub fn build_name(self) -> &'static str {
        match self {
            Phases::ThroughTreeSum => "phase build: stops after the tree sum",
            Phases::ThroughPlan => "phase build: stops after the plan look-back",
            Phases::ThroughUnit => "phase build: stops after the unit",
            Phases::All => "the engine",
        }
    }
}

/// The defines the one-pass kernel is compiled with: the layout, the mutant's code, `options`
/// and the schedules `timed` besides `onepass_sums` (with the one whose own code `mutant` breaks).
pub fn kernel_defines(
    mutant: OnePassMutant,
    options: EngineOptions,
    timed: TimedSchedules,
) -> Vec<(&'static str, String)> {
    let mut d = crate::layout::defines();
    d.push(("BINADE_OP_MUTANT", mutant.code().to_string()));
    d.extend(options.defines());
    d.extend(timed.and_those_of(mutant).defines());
    d
}

/// Compiles the one-pass kernel for `arch` as the engine's build with `mutant` (the engine's
/// schedule and the one `mutant` runs by; no device needed; for checks).
pub fn compile_for(arch: &str, mutant: OnePassMutant) -> Result<cudarc::nvrtc::Ptx> {
    compile_form_for(super::super::ModuleForm::Ptx, arch, mutant)
}

/// As [`compile_for`], in `form` (a CUBIN needs a real architecture): the build
/// [`OnePassSum::with_mutant`] loads, for a caller that loads it itself
/// ([`Gpu::load_image`], `examples/load_probe`).
pub fn compile_form_for(
    form: super::super::ModuleForm,
    arch: &str,
    mutant: OnePassMutant,
) -> Result<cudarc::nvrtc::Ptx> {
    form.compile(
        "ordered_sum_onepass",
        &[HEADER, "\n", SOURCE],
        &BuildSpec::with_mutant(mutant).defines().1,
        arch,
    )
}

/// The build of [`compile_for`] assembled by NVRTC for `arch` (`sm_XY`): its CUBIN's bytes,
/// an ELF image ([`super::super::compile_cubin`]; what [`compile_form_for`] hands the driver
/// as `ModuleForm::Cubin`, whose bytes cudarc does not give back).
pub fn cubin_for(arch: &str, mutant: OnePassMutant) -> Result<Vec<u8>> {
    super::super::compile_cubin(
        "ordered_sum_onepass",
        &[HEADER, "\n", SOURCE],
        &BuildSpec::with_mutant(mutant).defines().1,
        arch,
    )
}

/// Compiles the correct one-pass kernel with `options` and every schedule for `arch` (no
/// device needed).
pub fn compile_variant_for(arch: &str, options: EngineOptions) -> Result<cudarc::nvrtc::Ptx> {
    super::super::compile(
        "ordered_sum_onepass",
        &[HEADER, "\n", SOURCE],
        &kernel_defines(OnePassMutant::None, options, TimedSchedules::ALL),
        arch,
    )
}

/// The timed schedules of running-sum builds: the staged one, which `gpu-cumsum-timing`
/// and `tests/gpu_cumsum.rs` run beside [`crate::gpu::ordered_cumsum::CUMSUM_SCHEDULE`].
pub const RUNNING_SUM_SCHEDULES: TimedSchedules = TimedSchedules {
    staged: true,
    deferred: false,
    held: false,
};

/// Compiles the running-sum build (`BINADE_OP_CUMSUM 1`) with the running sums' mutant
/// code `cum_mutant` for `arch` (no device needed; for checks).
pub fn compile_running_sums_for(arch: &str, cum_mutant: u32) -> Result<cudarc::nvrtc::Ptx> {
    super::super::compile(
        "ordered_sum_onepass",
        &[HEADER, "\n", SOURCE],
        &BuildSpec::running_sums(cum_mutant).defines().1,
        arch,
    )
}

/// One launch's buffers: the segments, the per-tile records the look-backs read, and the
/// totals. Reusable for any number of launches (each launch has its own epoch, so records of
/// an earlier launch read as unpublished).
#[derive(Debug)]
pub struct OnePassJob<'a> {
    terms: CudaView<'a, f64>,
    seg_start: CudaSlice<u64>,
    seg_len: CudaSlice<u64>,
    tile_base: CudaSlice<u64>,
    host_tile_base: Vec<u64>,
    /// The published words, two u64 (value, tag) per tile each: the plan word (tree sum,
    /// then approximate prefix) and the exact word (unit, then exact sum).
    records: [CudaSlice<u64>; 2],
    paths: CudaSlice<u32>,
    ticket: CudaSlice<u64>,
    tickets_issued: u64,
    epoch: u32,
    totals: CudaSlice<f64>,
    /// Bits of the value every segment's loop starts from (+0 unless set).
    start: u64,
    /// What a sums-only launch passes as the kernel's unused running-sum output.
    no_out: CudaSlice<f64>,
    shape: TileShape,
}

impl OnePassJob<'_> {
    /// Makes every segment's loop start from `start`, which must be +0 or -0 (the two
    /// starts a loop is written with: `s = 0.0` and Rust's float `Iterator::sum`, whose
    /// result for terms that are all -0.0 is -0.0).
    pub fn set_start(&mut self, start: f64) -> Result<()> {
        if start != 0.0 {
            bail!("a loop starts from +0 or -0, not {start}");
        }
        self.start = start.to_bits();
        Ok(())
    }

    /// Number of terms the segments index (the length a running-sum output must have).
    pub fn terms_len(&self) -> usize {
        self.terms.len()
    }

    /// The first term (empty where there are no terms).
    pub fn first_term(&self) -> CudaView<'_, f64> {
        self.terms.slice(0..self.terms.len().min(1))
    }

    /// Number of sums (segments).
    pub fn sums(&self) -> usize {
        self.host_tile_base.len() - 1
    }

    /// Number of tiles over all segments (blocks of one launch).
    pub fn tiles(&self) -> u64 {
        self.host_tile_base[self.host_tile_base.len() - 1]
    }
}

impl OnePassSum {
    /// Compiles the exact kernel for `gpu` ([`MIN_BLOCKS`], run by [`SCHEDULE`]; no timed
    /// schedule but the engine's).
    pub fn new(gpu: &Gpu) -> Result<OnePassSum> {
        Self::with_mutant(gpu, OnePassMutant::None)
    }

    /// The exact kernel compiled with the timed schedules `timed` as well (run by
    /// [`SCHEDULE`] until [`Self::with_schedule`] picks another). Same bits as [`Self::new`].
    pub fn with_timed(gpu: &Gpu, timed: TimedSchedules) -> Result<OnePassSum> {
        Self::variant_with_timed(
            gpu,
            TileShape::DEFAULT,
            MIN_BLOCKS,
            EngineOptions::DEFAULT,
            timed,
        )
    }

    /// A variant of the correct engine for timing: `min_blocks` resident blocks asked of the
    /// compiler (0: registers uncapped), run by `schedule`. Same bits as [`Self::new`].
    pub fn variant(
        gpu: &Gpu,
        shape: TileShape,
        min_blocks: u32,
        schedule: Schedule,
        options: EngineOptions,
    ) -> Result<OnePassSum> {
        Ok(Self::variant_with_timed(
            gpu,
            shape,
            min_blocks,
            options,
            TimedSchedules::of(schedule),
        )?
        .with_schedule(schedule))
    }

    /// [`Self::variant`] compiled with the timed schedules `timed`, run by [`SCHEDULE`]
    /// until [`Self::with_schedule`] picks another (one build for several schedules).
    pub fn variant_with_timed(
        gpu: &Gpu,
        shape: TileShape,
        min_blocks: u32,
        options: EngineOptions,
        timed: TimedSchedules,
    ) -> Result<OnePassSum> {
        Self::build(
            gpu,
            BuildSpec {
                min_blocks,
                shape,
                options,
                timed,
                ..BuildSpec::ENGINE
            },
        )
    }

    /// Compiles the kernel with `mutant` (a verification build: every mutant but `None` gives
    /// wrong totals on purpose).
    pub fn with_mutant(gpu: &Gpu, mutant: OnePassMutant) -> Result<OnePassSum> {
        Ok(Self::build(gpu, BuildSpec::with_mutant(mutant))?.with_schedule(mutant.schedule()))
    }

    /// The running-sum build of the correct engine (`BINADE_OP_CUMSUM 1`) with the running
    /// sums' own mutant of code `cum_mutant` (0: none): every launch also writes each
    /// position's running sum ([`Self::launch_cumsum`]). Its totals are the engine's.
    pub fn running_sums(gpu: &Gpu, cum_mutant: u32) -> Result<OnePassSum> {
        Self::build(gpu, BuildSpec::running_sums(cum_mutant))
    }

    /// A timing build of the correct engine that stops after `phases` (its totals are sums
    /// only for [`Phases::All`]).
    pub fn timing_build(gpu: &Gpu, phases: Phases) -> Result<OnePassSum> {
        Self::build(
            gpu,
            BuildSpec {
                phases,
                ..BuildSpec::ENGINE
            },
        )
    }

    /// The engine's build with `BINADE_OP_TRACE 1`: each launch by [`Self::launch_traced`]
    /// also records, for every tile, when its tree sum, plan, unit and exact sum were
    /// published (the device's `%globaltimer`), and where and in which round of its block it
    /// ran ([`TileTrace`]). Its totals are the engine's; the recording adds a few stores per
    /// tile, so its times are not the engine's times.
    pub fn traced(gpu: &Gpu) -> Result<OnePassSum> {
        Self::traced_with(gpu, EngineOptions::DEFAULT, MIN_BLOCKS)
    }

    /// The trace build ([`Self::traced`]) with `options` in place of the engine's and the
    /// registers capped for `min_blocks` resident blocks a multiprocessor (0: the compiler's
    /// choice, as the engine's): a probe of an option's steps and look-back trips at a pinned
    /// residency (a trace build with 2 look-back ways takes 246 registers by ptxas when free,
    /// one block where the engine keeps two). Its totals are the engine's bits all the same.
    pub fn traced_with(gpu: &Gpu, options: EngineOptions, min_blocks: u32) -> Result<OnePassSum> {
        Self::build(
            gpu,
            BuildSpec {
                trace: true,
                options,
                min_blocks,
                ..BuildSpec::ENGINE
            },
        )
    }

    fn build(gpu: &Gpu, spec: BuildSpec) -> Result<OnePassSum> {
        let (timed, defines) = spec.defines();
        let BuildSpec {
            mutant,
            shape,
            cumsum,
            trace,
            ..
        } = spec;
        let m: Module = gpu.load("ordered_sum_onepass", &[HEADER, "\n", SOURCE], &defines)?;
        let k_sums = m.function("onepass_sums")?;
        let resident = one_tile_residency(&k_sums, shape, "onepass_sums")?;
        let k_staged = if timed.staged {
            Some(m.function("onepass_sums_staged")?)
        } else {
            None
        };
        // Two tiles may exceed a block's shared memory for large shapes: then the staged
        // schedule is refused at launch, the others still run.
        let resident_staged = match &k_staged {
            None => 0,
            Some(k) => match k.set_attribute(
                CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                2 * shape.bytes() as i32,
            ) {
                Ok(()) => k
                    .occupancy_max_active_blocks_per_multiprocessor(
                        shape.threads,
                        2 * shape.bytes(),
                        None,
                    )
                    .context("occupancy of onepass_sums_staged")?,
                Err(_) => 0,
            },
        };
        let (k_held, resident_held) = if timed.held {
            let k = m.function("onepass_sums_held")?;
            // 0 where no block fits (the held schedule is then refused at launch).
            let n = one_tile_residency(&k, shape, "onepass_sums_held")?;
            (Some(k), n)
        } else {
            (None, 0)
        };
        let multiprocessors = gpu.multiprocessors()?;
        if resident == 0 {
            bail!("onepass_sums: no block fits on a multiprocessor with one tile of shared memory");
        }
        Ok(OnePassSum {
            gpu: gpu.clone(),
            mutant,
            k_sums,
            k_staged,
            k_held,
            resident_held,
            fits_held: resident_held,
            smem_held: shape.bytes(),
            timed,
            k_fill: m.function("fill_distribution")?,
            k_fill_f32: m.function("fill_distribution_f32")?,
            // Running-sum builds lack the held kernel: their own default.
            trace,
            schedule: if timed.runs(SCHEDULE) {
                SCHEDULE
            } else {
                Schedule::OneBlockPerTile
            },
            cumsum,
            resident,
            fits: resident,
            smem: shape.bytes(),
            resident_staged,
            multiprocessors,
            shape,
        })
    }

    /// This build with at most `blocks` of each of its one-tile kernels (`onepass_sums`, and
    /// `onepass_sums_held` where compiled) resident per multiprocessor, in every schedule
    /// that runs them, so that a timing build that takes fewer registers than the engine is
    /// timed at the engine's residency (the through-plan build of `onepass_sums` takes 48
    /// registers and would keep three blocks where the engine keeps two). Done by launching
    /// it with more dynamic shared memory than its tile (unused by the kernel): the smallest
    /// amount, in steps of 1 KiB, at which at most `blocks` fit. Refused where even a
    /// block's largest shared memory leaves more.
    pub fn pinned_to(mut self, blocks: u32) -> Result<OnePassSum> {
        debug_assert!(blocks >= 1);
        let (resident, smem) = self.pin(&self.k_sums, self.resident, self.smem, blocks)?;
        self.resident = resident;
        self.smem = smem;
        if let Some(k) = &self.k_held {
            let (resident, smem) = self.pin(k, self.resident_held, self.smem_held, blocks)?;
            self.resident_held = resident;
            self.smem_held = smem;
        }
        Ok(self)
    }

    /// Kernel `k`'s residency and launch shared memory held to at most `blocks` (see
    /// [`Self::pinned_to`]), from `resident` blocks at `smem` bytes.
    fn pin(
        &self,
        k: &CudaFunction,
        resident: u32,
        smem: usize,
        blocks: u32,
    ) -> Result<(u32, usize)> {
        if resident <= blocks {
            return Ok((resident, smem));
        }
        let most = self
            .gpu
            .context()
            .attribute(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)
            .context("largest shared memory of a block")? as usize;
        let most = most.saturating_sub(k.shared_size_bytes()? as usize);
        k.set_attribute(
            CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
            most as i32,
        )
        .context("allowing a one-pass kernel more dynamic shared memory")?;
        let mut bytes = self.shape.bytes();
        while bytes <= most {
            let fit = k
                .occupancy_max_active_blocks_per_multiprocessor(self.shape.threads, bytes, None)
                .context("occupancy of a one-pass kernel")?;
            if fit <= blocks {
                return Ok((fit, bytes));
            }
            bytes += 1024;
        }
        bail!("no shared memory size keeps at most {blocks} blocks of a one-pass kernel resident")
    }

    /// The same build, run by `schedule` (any of [`Schedule`]). Every schedule gives the same
    /// bits. A schedule this build did not compile ([`Self::timed_schedules`]) is
    /// refused at launch.
    pub fn with_schedule(mut self, schedule: Schedule) -> OnePassSum {
        self.schedule = schedule;
        self
    }

    /// The tile shape the kernel was compiled for.
    pub fn shape_of_tiles(&self) -> TileShape {
        self.shape
    }

    /// How launches run their tiles.
    pub fn schedule(&self) -> Schedule {
        self.schedule
    }

    /// The schedules this build compiled besides `onepass_sums` (its timed ones and, in sum builds, the engine's).
    pub fn timed_schedules(&self) -> TimedSchedules {
        self.timed
    }

    /// Registers, shared memory and residency of the compiled kernel.
    pub fn shape(&self) -> Result<KernelShape> {
        Ok(KernelShape {
            registers: self.k_sums.num_regs()?,
            static_shared: self.k_sums.shared_size_bytes()?,
            dynamic_shared: self.shape.bytes(),
            resident_blocks: self.resident,
            staged_registers: match &self.k_staged {
                Some(k) => k.num_regs()?,
                None => 0,
            },
            staged_resident_blocks: self.resident_staged,
            held_registers: match &self.k_held {
                Some(k) => k.num_regs()?,
                None => 0,
            },
            held_resident_blocks: self.resident_held,
            multiprocessors: self.multiprocessors,
        })
    }

    /// Blocks of `onepass_sums` that would fit on a multiprocessor with one tile of shared
    /// memory: its residency unless [`OnePassSum::pinned_to`] lowered it.
    pub fn fits_unpinned(&self) -> u32 {
        self.fits
    }

    /// The kernel a launch of `tiles` tiles runs by this build's schedule, with its
    /// registers per thread and the blocks of it that fit on a multiprocessor (for reports:
    /// a timed build's registers are part of its cost, and they differ by schedule).
    pub fn kernel_use(&self, tiles: u64) -> Result<KernelUse> {
        let (kernel, function, resident, fitting) = match self.schedule.launch_kind(tiles) {
            LaunchKind::Staged => (
                "onepass_sums_staged",
                self.k_staged.as_ref(),
                self.resident_staged,
                self.resident_staged,
            ),
            LaunchKind::Held => (
                "onepass_sums_held",
                self.k_held.as_ref(),
                self.resident_held,
                self.fits_held,
            ),
            LaunchKind::OneBlockPerTile | LaunchKind::Resident | LaunchKind::Deferred => {
                ("onepass_sums", Some(&self.k_sums), self.resident, self.fits)
            }
        };
        let Some(function) = function else {
            bail!("this one-pass build has no {kernel}");
        };
        Ok(KernelUse {
            kernel,
            registers: function.num_regs()?,
            resident_blocks: resident,
            fitting_blocks: fitting,
        })
    }

    /// The mutant the kernel was compiled with.
    pub fn mutant(&self) -> OnePassMutant {
        self.mutant
    }

    /// The device.
    pub fn gpu(&self) -> &Gpu {
        &self.gpu
    }

    /// Buffers for the sums of `segments` (ranges of `terms`, any lengths, may overlap).
    /// Errors when a segment lies outside `terms` or there are more tiles than one launch
    /// can hold.
    pub fn job<'a>(
        &self,
        terms: CudaView<'a, f64>,
        segments: &[Range<usize>],
    ) -> Result<OnePassJob<'a>> {
        super::check_segments(terms.len(), segments, u32::MAX as usize - 1)?;
        let mut base = vec![0u64];
        for r in segments {
            base.push(
                base[base.len() - 1] + ((r.end - r.start) as u64).div_ceil(self.shape.tile()),
            );
        }
        let tiles = base[base.len() - 1];
        if tiles > i32::MAX as u64 {
            bail!("{tiles} tiles: at most {} per launch", i32::MAX);
        }
        let start: Vec<u64> = segments.iter().map(|r| r.start as u64).collect();
        let len: Vec<u64> = segments.iter().map(|r| (r.end - r.start) as u64).collect();
        let s = self.gpu.stream();
        let n = (tiles as usize).max(1);
        Ok(OnePassJob {
            terms,
            // One spare entry each: a job of no segments still has buffers.
            seg_start: s.clone_htod(&start.into_iter().chain([0]).collect::<Vec<_>>())?,
            seg_len: s.clone_htod(&len.into_iter().chain([0]).collect::<Vec<_>>())?,
            tile_base: s.clone_htod(&base)?,
            host_tile_base: base,
            records: [s.alloc_zeros::<u64>(2 * n)?, s.alloc_zeros::<u64>(2 * n)?],
            paths: s.alloc_zeros::<u32>(n)?,
            ticket: s.alloc_zeros::<u64>(1)?,
            tickets_issued: 0,
            epoch: 0,
            totals: s.alloc_zeros::<f64>(segments.len().max(1))?,
            start: 0,
            no_out: s.alloc_zeros::<f64>(1)?,
            shape: self.shape,
        })
    }

    /// Launches the one pass: one kernel, `job.tiles()` blocks. Errors for a running-sum
    /// build (it needs its output: [`Self::launch_cumsum`]).
    pub fn launch(&self, job: &mut OnePassJob) -> Result<()> {
        if self.cumsum.is_some() {
            bail!("a running-sum build needs an output buffer (launch_cumsum)");
        }
        if self.trace {
            bail!("a trace build needs its trace buffer (launch_traced)");
        }
        self.launch_into(job, None)
    }

    /// Launches a trace build ([`Self::traced`]) by the held schedule, recording into `trace`
    /// ([`TRACE_WORDS`] words per tile, at least `job.tiles()` of them; read back by
    /// [`TileTrace::from_words`]). Its totals are the engine's.
    pub fn launch_traced(&self, job: &mut OnePassJob, trace: &mut CudaSlice<u64>) -> Result<()> {
        if !self.trace {
            bail!("launch_traced needs a trace build (OnePassSum::traced)");
        }
        if self.schedule != Schedule::Held {
            bail!("the trace records the held schedule's steps only");
        }
        let need = job.tiles() as usize * TRACE_WORDS;
        if trace.len() < need {
            bail!("a trace buffer of {} words for {need}", trace.len());
        }
        // SAFETY: the kernel reads cum_out as u64 words in a trace build; the same bytes.
        let mut as_f64 = unsafe { trace.transmute_mut::<f64>(trace.len()) }
            .context("the trace buffer as the kernel's output pointer")?;
        self.launch_into(job, Some(&mut as_f64))
    }

    /// Launches a running-sum build ([`Self::running_sums`]): the sums as [`Self::launch`],
    /// and `out[i]` the loop's running sum after term i for every term i of every segment
    /// (`out` is laid out as the job's terms, at least as long).
    pub fn launch_cumsum(
        &self,
        job: &mut OnePassJob,
        out: &mut CudaViewMut<'_, f64>,
    ) -> Result<()> {
        if self.trace {
            bail!("a trace build has no running sums");
        }
        if self.cumsum.is_none() {
            bail!("running sums need a running-sum build (OnePassSum::running_sums)");
        }
        if out.len() < job.terms.len() {
            bail!(
                "a running-sum output of {} for {} terms",
                out.len(),
                job.terms.len()
            );
        }
        self.launch_into(job, Some(out))
    }

    fn launch_into(
        &self,
        job: &mut OnePassJob,
        out: Option<&mut CudaViewMut<'_, f64>>,
    ) -> Result<()> {
        let tiles = job.tiles();
        if job.shape != self.shape {
            bail!(
                "a job of {:?} tiles launched by a kernel compiled for {:?}",
                job.shape,
                self.shape
            );
        }
        if tiles == 0 {
            return Ok(());
        }
        if job.epoch + 1 >= EPOCH_LIMIT {
            // Tags of 2^29 launches ago would alias: start the records afresh.
            for r in job.records.iter_mut() {
                self.gpu.stream().memset_zeros(r)?;
            }
            self.gpu.stream().memset_zeros(&mut job.ticket)?;
            job.tickets_issued = 0;
            job.epoch = 0;
        }
        job.epoch += 1;
        let nseg = job.sums() as u32;
        let (ticket_base, epoch) = (job.tickets_issued, job.epoch);
        if !self.timed.runs(self.schedule) {
            bail!(
                "this one-pass build has no {} schedule (it compiles only the engine's schedule and the timed ones it is asked for: OnePassSum::with_timed)",
                self.schedule.name()
            );
        }
        let kind = self.schedule.launch_kind(tiles);
        let function = match (kind, &self.k_staged, &self.k_held) {
            (LaunchKind::Staged, Some(k), _) => k,
            (LaunchKind::Staged, None, _) => bail!("this one-pass build has no staged kernel"),
            (LaunchKind::Held, _, Some(k)) => k,
            (LaunchKind::Held, _, None) => bail!("this one-pass build has no held kernel"),
            _ => &self.k_sums,
        };
        let mut b = self.gpu.stream().launch_builder(function);
        b.arg(&job.terms)
            .arg(&job.seg_start)
            .arg(&job.seg_len)
            .arg(&job.tile_base)
            .arg(&nseg);
        for r in job.records.iter_mut() {
            b.arg(r);
        }
        b.arg(&mut job.paths);
        let prefetch: u32 = match kind {
            LaunchKind::OneBlockPerTile | LaunchKind::Staged | LaunchKind::Held => 0,
            LaunchKind::Resident => 1,
            LaunchKind::Deferred => 2,
        };
        b.arg(&mut job.ticket)
            .arg(&ticket_base)
            .arg(&epoch)
            .arg(&prefetch)
            .arg(&mut job.totals)
            .arg(&job.start);
        match out {
            Some(o) => b.arg(o),
            None => b.arg(&mut job.no_out),
        };
        let per_sm = match kind {
            LaunchKind::OneBlockPerTile => 0,
            LaunchKind::Resident | LaunchKind::Deferred => self.resident,
            LaunchKind::Held if self.resident_held == 0 => {
                bail!("onepass_sums_held: no block of this shape fits on a multiprocessor")
            }
            LaunchKind::Held => self.resident_held,
            LaunchKind::Staged if self.resident_staged == 0 => bail!(
                "the staged schedule needs two tiles of {} bytes of shared memory per block, more than a block has",
                self.shape.bytes()
            ),
            LaunchKind::Staged => self.resident_staged,
        };
        let (blocks, smem) = match kind {
            LaunchKind::OneBlockPerTile => (tiles, self.smem),
            LaunchKind::Resident | LaunchKind::Deferred => (
                tiles.min(u64::from(per_sm) * u64::from(self.multiprocessors)),
                self.smem,
            ),
            LaunchKind::Held => (
                tiles.min(u64::from(per_sm) * u64::from(self.multiprocessors)),
                self.smem_held,
            ),
            LaunchKind::Staged => (
                tiles.min(u64::from(per_sm) * u64::from(self.multiprocessors)),
                2 * self.shape.bytes(),
            ),
        };
        let cfg = LaunchConfig {
            grid_dim: (blocks as u32, 1, 1),
            block_dim: (self.shape.threads, 1, 1),
            shared_mem_bytes: smem as u32,
        };
        // SAFETY: argument types match onepass_sums, onepass_sums_staged and
        // onepass_sums_held (the same list); every record array holds `tiles` 16-byte words (allocations are 256-byte
        // aligned), paths `tiles` entries, totals one per segment; the dynamic shared memory
        // is the one tile (two for the staged kernel) the kernel indexes; the running-sum
        // output (written by running-sum builds only) is at least as long as the terms,
        // checked in launch_cumsum.
        unsafe { b.launch(cfg) }.context("launching onepass_sums")?;
        // Past the last tile, every resident block draws one ticket (the kernel's comments).
        job.tickets_issued += tiles
            + match kind {
                LaunchKind::OneBlockPerTile => 0,
                LaunchKind::Resident
                | LaunchKind::Staged
                | LaunchKind::Deferred
                | LaunchKind::Held => blocks,
            };
        Ok(())
    }

    /// Downloads the totals of the last launch and each sum's tile paths.
    pub fn results(&self, job: &OnePassJob) -> Result<Vec<OnePassTotal>> {
        let s = self.gpu.stream();
        let totals = s.clone_dtoh(&job.totals)?;
        let paths = s.clone_dtoh(&job.paths)?;
        Ok(job
            .host_tile_base
            .windows(2)
            .enumerate()
            .map(|(k, w)| {
                let p = &paths[w[0] as usize..w[1] as usize];
                OnePassTotal {
                    total: totals[k],
                    tiles: w[1] - w[0],
                    pair_tiles: p.iter().filter(|&&c| c & 1 != 0).count() as u64,
                    finished_tiles: p.iter().filter(|&&c| c & 2 != 0).count() as u64,
                    native_lanes: p.iter().map(|&c| u64::from(c >> 8)).sum(),
                    missed_tiles: p.iter().filter(|&&c| c & 4 != 0).count() as u64,
                    estimated_plans: p.iter().filter(|&&c| c & 8 != 0).count() as u64,
                    risky_tiles: p.iter().filter(|&&c| c & 16 != 0).count() as u64,
                    cum_mismatch_tiles: p.iter().filter(|&&c| c & 32 != 0).count() as u64,
                }
            })
            .collect())
    }

    /// Launches and downloads the results.
    pub fn run(&self, job: &mut OnePassJob) -> Result<Vec<OnePassTotal>> {
        self.launch(job)?;
        self.results(job)
    }

    /// Convenience: the exact sums of `segments` of host `terms` (copied to the device).
    pub fn sums_of(&self, terms: &[f64], segments: &[Range<usize>]) -> Result<Vec<OnePassTotal>> {
        let s = self.gpu.stream();
        let dev = if terms.is_empty() {
            s.alloc_zeros::<f64>(1)?
        } else {
            s.clone_htod(terms)?
        };
        let mut job = self.job(dev.slice(0..terms.len()), segments)?;
        self.run(&mut job)
    }

    /// Fills `out` with `dist`'s values for `seed` (made on the device).
    pub fn fill(&self, out: &mut CudaSlice<f64>, seed: u64, dist: Distribution) -> Result<()> {
        self.launch_fill(&self.k_fill, "fill_distribution", out, seed, dist)
    }

    /// Fills `out` with `dist`'s f32 stream for `seed` (made on the device,
    /// `fill_distribution_f32`): uniform and log-normal are the f64 streams' values rounded to
    /// nearest; the ties sit on half the ulp of an f32 running sum near i / 4; the geometric
    /// stream grows a binade every 2^23 terms from 2^-120 ([`Distribution::name_f32`]).
    pub fn fill_f32(&self, out: &mut CudaSlice<f32>, seed: u64, dist: Distribution) -> Result<()> {
        self.launch_fill(&self.k_fill_f32, "fill_distribution_f32", out, seed, dist)
    }

    /// Launches a fill kernel (`fill_distribution` or its f32 twin) over all of `out`.
    fn launch_fill<T: cudarc::driver::DeviceRepr>(
        &self,
        kernel: &CudaFunction,
        name: &str,
        out: &mut CudaSlice<T>,
        seed: u64,
        dist: Distribution,
    ) -> Result<()> {
        let n = out.len() as u64;
        let code = dist.code();
        let mut b = self.gpu.stream().launch_builder(kernel);
        b.arg(out).arg(&n).arg(&seed).arg(&code);
        let cfg = LaunchConfig {
            grid_dim: (4096, 1, 1),
            block_dim: (256, 1, 1),
            shared_mem_bytes: 0,
        };
        // SAFETY: both fill kernels write out[0..n) only, one element of out's type each.
        unsafe { b.launch(cfg) }.with_context(|| format!("launching {name}"))?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn define<'a>(d: &'a [(&'static str, String)], name: &str) -> Option<&'a str> {
        d.iter().find(|x| x.0 == name).map(|x| x.1.as_str())
    }

    /// The held kernel refuses running sums (`#error` in the kernel): the running-sum
    /// build must not ask for it, whatever the engine's schedule; the build of every mutant
    /// must compile the engine's schedule and the mutant's own. Checked on the defines the
    /// device builds and the compile checks both use ([`BuildSpec::defines`]).
    #[test]
    fn running_sum_builds_never_compile_the_held_schedule() {
        let (timed, d) = BuildSpec::running_sums(0).defines();
        assert!(!timed.held);
        assert_eq!(define(&d, "BINADE_OP_HELD"), Some("0"));
        assert_eq!(define(&d, "BINADE_OP_CUMSUM"), Some("1"));
        for m in OnePassMutant::ALL {
            let (t, d) = BuildSpec::with_mutant(m).defines();
            assert!(t.runs(SCHEDULE) && t.runs(m.schedule()), "{m:?}");
            let held = ENGINE_SCHEDULES.held || m.own_schedule() == Some(Schedule::Held);
            assert_eq!(
                define(&d, "BINADE_OP_HELD"),
                Some(if held { "1" } else { "0" }),
                "{m:?}"
            );
            assert_eq!(define(&d, "BINADE_OP_CUMSUM"), None, "{m:?}");
        }
    }

    /// A trace's words read back as the kernel writes them, and each step measured between
    /// the stamps it names: negative where the later stamp came first, the round only
    /// between tiles one block ran in turn, the first tile left out of its own steps.
    #[test]
    fn trace_steps_measure_between_the_stamps_they_name() {
        // Tile: taken, planned, unit, exact, (sm << 32 | block), round, landed, trips (the
        // exact look-back's sleeps, reads, the plan's sleeps, reads; 16 bits each).
        let trips = (9 << 48) | (3 << 32) | (2 << 16) | 1;
        let words: Vec<u64> = [
            [100, 100, 100, 100, (3 << 32) | 7, 0, 90, 0],
            [110, 130, 135, 180, (4 << 32) | 8, 0, 105, trips],
            [120, 150, 160, 170, (3 << 32) | 7, 1, 112, u64::MAX],
            [160, 210, 220, 260, (4 << 32) | 8, 1, 150, 1 << 32],
        ]
        .concat();
        assert_eq!(words.len(), 4 * TRACE_WORDS);
        let t = TileTrace::from_words(&words, 4);
        assert_eq!(
            (t[1].sm, t[1].block, t[1].round, t[1].landed),
            (4, 8, 0, 105)
        );
        let want = |plan_reads, plan_sleeps, exact_reads, exact_sleeps| LookbackTrips {
            plan_reads,
            plan_sleeps,
            exact_reads,
            exact_sleeps,
        };
        assert_eq!(t[0].trips, LookbackTrips::default());
        assert_eq!(t[1].trips, want(1, 2, 3, 9));
        assert_eq!(t[2].trips, want(u16::MAX, u16::MAX, u16::MAX, u16::MAX));
        assert_eq!(t[3].trips, want(0, 0, 1, 0));
        let m = trip_means(&t);
        let max = f64::from(u16::MAX);
        assert_eq!(
            m,
            [
                (1.0 + max) / 3.0,
                (2.0 + max) / 3.0,
                (4.0 + max) / 3.0,
                (9.0 + max) / 3.0
            ]
        );
        assert!(trip_means(&t[..1]).iter().all(|x| x.is_nan()));
        assert!(t.iter().all(TileTrace::in_order));
        let bad = TileTrace { unit: 90, ..t[0] };
        assert!(!bad.in_order());
        let late = TileTrace {
            landed: 101,
            ..t[0]
        };
        assert!(!late.in_order());
        assert!(t.iter().all(TileTrace::stamped_in_order));
        let unstamped = TileTrace { landed: 0, ..t[0] };
        assert!(unstamped.in_order() && !unstamped.stamped_in_order());
        let [plan, unit, exact, after, round, copy, lookback] = trace_steps(&t);
        assert_eq!(plan, [20, 30, 50]);
        assert_eq!(unit, [5, 10, 10]);
        assert_eq!(exact, [45, 10, 40]);
        assert_eq!(after, [80, -10, 90]);
        // Block 7 ran tiles 0 then 2, block 8 tiles 1 then 3.
        assert_eq!(round, [20, 50]);
        // Tile 0's exact sum came before tile 2 landed (from it, 12); tile 1's after tile 3's
        // take (from its unit, 15), and its look-back from that take (20).
        assert_eq!(copy, [12, 15]);
        assert_eq!(lookback, [20]);
        assert_eq!(TRACE_STEPS.len(), 7);
    }
}
