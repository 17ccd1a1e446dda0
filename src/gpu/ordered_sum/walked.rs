//! The walked engine (`kernels/ordered_sum_walked.cu`): the CPU loop's double sum, bit for
//! bit, reading the terms once, with no block waiting on an exact sum but one. Producer
//! blocks take tiles by ticket and, for each, form its tree sum, plan its binade by a
//! look-back over the earlier tiles' tree sums, form its unit for that binade while its terms
//! are in registers, publish it and take the next tile. One walker block (block 0) holds the
//! exact running sum and composes the published units in order, a step of many tiles at a
//! time (an ordered block scan), applying each run as far as it stays in its binade; a tile
//! whose unit cannot be used (a crossing, a missed plan, a negative or non-finite term, a
//! sum's first tile) it ends by the split words its producer published for a crossing
//! ([`WalkedShape::split`]) where their checks hold, and else finishes from its terms, lane by
//! lane.
//!
//! It stands beside the one-pass engine ([`super::onepass`]), whose every tile waits for the
//! exact sum before it: here a producer's round is load, tree sum, plan and unit, and the
//! exact composition runs on one block at the rate it can, behind the producers.
//!
//! One launch may add many independent sums of one length ([`WalkedSum::segments_job`]): one
//! walker block a sum, the sums' tiles interleaved among the producers, so short sums (the 18
//! of an SSIMULACRA2 scale) overlap their walkers' sequential work instead of queueing it.
//!
//! Guarantee: for [`WalkedMutant::None`] each total equals `s = start; for x in terms { s += x }`
//! over its own terms in bits (a NaN as some NaN), whatever the plans and whatever order the
//! tiles run in; the plans come from look-backs over doubles and may differ from run to run.

use anyhow::{bail, Context as _, Result};
use cudarc::driver::sys::CUfunction_attribute;
use cudarc::driver::{CudaFunction, CudaSlice, CudaView, DevicePtr, LaunchConfig, PushKernelArg};

use super::super::{Gpu, ModuleForm};
use crate::format::{Format, F32, F64};
use crate::verify::device_header::HEADER;
use cudarc::nvrtc::Ptx;

/// The kernel's source (compiled with [`HEADER`] prepended).
pub const SOURCE: &str = include_str!("../../../kernels/ordered_sum_walked.cu");

/// Epochs sit in the tag's bits 2..31.
const EPOCH_LIMIT: u32 = 1 << 29;

/// Words of a walker's output (one run per sum; the kernel's `BINADE_WK_OUT_STRIDE`): the
/// total's bits, [`WalkedTotal`]'s counts, then a stall's code (tagged with the launch's
/// epoch), tile and detail; then the hint word (16 bytes at word 8, aligned as the stride is
/// even: the walker's exact sum and position, `WalkedShape::hint`); the trace (words 10 to
/// 13, `WalkedShape::trace`); the finishes' fast and pair-unit rounds (14, 15); the tiles
/// ended by their split words (16, `WalkedShape::split`); the finishes ended by a planned
/// pass (17, `WalkedShape::planned`); of the split ends, those inside a segmented step's
/// walk (18, `WalkedShape::seg_step`); the events a trace build logged (19); a trace build's
/// event log from word 20 ([`TRACE_EVENTS`] of [`EVENT_WORDS`], [`WalkedSum::walker_events`]).
const OUT_WORDS: usize = 20;

/// The most events a trace build's walker logs (the kernel's `BINADE_WK_EVENTS`).
pub const TRACE_EVENTS: usize = 64;

/// Words of one logged event: kind, aux and tile; ns since the walker's start; cycles since.
const EVENT_WORDS: usize = 3;

/// Words of a walker's output for a build of `shape`: [`OUT_WORDS`], and a trace build's event
/// log after them (the stride stays even).
const fn out_words(trace: bool) -> usize {
    if trace {
        OUT_WORDS + EVENT_WORDS * TRACE_EVENTS
    } else {
        OUT_WORDS
    }
}

/// The planned finish's margins and native-lane limit: one source for the kernel's defines
/// and the host model that mirrors the pass.
pub use crate::verify::walked_model::{
    PLAN_MARGIN_EXP_F32, PLAN_MARGIN_EXP_F64, PLAN_NATIVE_MAX, SEG_STEP_SLOTS,
};

/// The layout of a build: one source of truth for the kernel's `BINADE_WK_*` defines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WalkedShape {
    /// Threads per block (a multiple of 32, at most 1024).
    pub threads: u32,
    /// Terms per thread in a tile (even).
    pub per_thread: u32,
    /// The walker's unit words per thread per step (a step covers `threads * step` tiles).
    pub step: u32,
    /// `__launch_bounds__`' minimum of resident blocks per multiprocessor (0: none asked).
    pub min_blocks: u32,
    /// A timing build: the walker does nothing, so a launch times the producers alone and
    /// its total is not the sum.
    pub producers_only: bool,
    /// The producer's steps kept (below 3 only with `producers_only`): 1 the load and the
    /// tree sum, 2 and the plan look-back, 3 (the engine) and the unit.
    pub phases: u32,
    /// A producer starting tile t asks L2 for the lines of tile t plus the producers'
    /// count, about the tile drawn a round later (a hint: no bit depends on it).
    pub prefetch: bool,
    /// Lanes' terms in term order (the tie path, the walker's finishes) come from one
    /// coalesced read through shared memory rather than a strided read of global memory.
    pub transpose: bool,
    /// The tile that ends a walker step's applied run (a crossing, a plan for another
    /// binade) is finished in that step, not found again by the next step's read of the
    /// unit words.
    pub finish_in_step: bool,
    /// The walker publishes its exact sum and position each step, and a producer plans its
    /// tile from them without a look-back where a margin allows (every eighth tile still
    /// looks back). A plan: no bit depends on it.
    pub hint: Hint,
    /// Whether a plan look-back waits for earlier tree sums not yet published, or plans from
    /// the range they leave where it lies in one binade (`BINADE_WK_LOOKBACK`). A plan: no
    /// bit depends on it.
    pub lookback: Lookback,
    /// With the hint: where the walker's hint gives no plan, a producer plans from the
    /// approximate inclusive prefix of the anchor (every eighth tile) about this many tiles
    /// back, read with its terms, by the hint's margin (`BINADE_WK_FAR`; 0: off; a multiple
    /// of 8). A plan: no bit depends on it.
    pub far: u32,
    /// The per-tile bound of the guess that the hint, the far anchor and a ranged look-back
    /// plan by (`BINADE_WK_MARGIN`): each tile between a known prefix and the planned tile is
    /// taken to sum to at most 4 u. A plan: no bit depends on it.
    pub margin: Margin,
    /// Warp 0 reads the plan words of the 32 tiles before its tile with the tile's terms,
    /// and the tile's first plan look-back takes its first round from them
    /// (`BINADE_WK_EARLY`): that round's trip overlaps the terms' instead of following the
    /// tree sum. Older words show fewer tiles published, so such a look-back may count more
    /// tree sums missing or go further back. A plan: no bit depends on it. The engine's since
    /// 5c2f826: on an H100 at 62e5e97 (`reports/walked-early`, one binary timing both) the
    /// engine took 0.937 to 0.97 of its time without the window on the uniform, log-normal
    /// and geometric streams at 10^8 and 2^30 terms (geometric at 2^30 3.404 ms against
    /// 3.632), 0.93 to 0.97 at 8,294,400, and on half ties 0.996 at 10^8 and 1.011 at 2^30.
    pub early: Early,
    /// A finish goes by fast rounds where it can (`BINADE_WK_FAST_FINISH`, needs
    /// `transpose`): each lane's increments for every binade the rest of the tile may reach,
    /// their prefix sums over the lanes, and one warp that walks the crossings from them,
    /// adding only a crossing lane natively; the pair units' rounds where a lane has a tie or
    /// a negative term. Off in the engine's shape: measured slower at f530bad
    /// (`reports/walked-probe/f530bad`).
    pub fast_finish: bool,
    /// A producer whose tile's known prefix its tree sum carries into the next binade also
    /// publishes split words (`BINADE_WK_SPLIT`, needs `transpose`): the lane where the
    /// approximate running sum reaches the binade's top, the lanes before it composed for
    /// the binade and the lanes after it for the next. The walker, about to finish such a
    /// tile, applies the first (checked), adds the lane natively, applies the second
    /// (checked), and finishes the tile from its terms only where a check fails. A plan: no
    /// bit depends on it.
    pub split: bool,
    /// A finish first tries one planned pass (`BINADE_WK_PLANNED`, needs `transpose`, not
    /// with `fast_finish`): each lane's approximate start and end from the walker's exact
    /// sum and an f64 scan of the lanes' sums; a lane whose both lie in one binade forms its
    /// unit for it, the others are native; each run of lanes planned for one binade is
    /// composed by a segmented ordered scan; one thread walks the tile, a run by one checked
    /// apply, a native lane by its native adds. Where a check fails (or too many lanes are
    /// native, or a term is infinite or NaN) the rounds finish the tile. A plan: no bit
    /// depends on it.
    pub planned: bool,
    /// A walker step ends many crossings (`BINADE_WK_SEG_STEP`, needs `finish_in_step`,
    /// `planned` and `split`): its positions are grouped into segments of consecutive units
    /// planned for one binade, one segmented ordered scan composes every position's unit
    /// from its segment's start, and one thread walks the segments, each by one checked
    /// apply; where a segment does not apply, a bisection over its stored prefixes (each a
    /// checked apply) finds the tile where the sum leaves the binade, which its split words
    /// end, and the walk goes on. Without it a step ends at its first crossing and the next
    /// step reads the words again. No bit depends on the segments or the search.
    pub seg_step: bool,
    /// A segmented step fetches the split words and the split lane's terms of up to
    /// [`SEG_STEP_SLOTS`] crossings with its words (`BINADE_WK_FETCH_SPLITS`, needs
    /// `seg_step`; the producer's unit word names the lane), so the walk's split ends read no
    /// memory (else two dependent reads each). A fetched split is used only where its words
    /// are this launch's and name the lane fetched: no bit depends on it. On in the engine's
    /// shape (measured on an H100 at 517c5e6, `reports/walked-step`: 0.89 to 0.94 of the
    /// segmented step without it at 8,294,400 terms on four distributions, 0.78 and 0.75 on
    /// the geometric stream at 10^8 and 2^30, 1.00 on the others there).
    pub fetch_splits: bool,
    /// Where a segment of a segmented step does not apply, the walk first tries the prefix
    /// that stops one position short of the segment's end (`BINADE_WK_LAST_FIRST`, used by
    /// `seg_step`, ignored without it), and bisects only where that fails too. A crossing
    /// tile publishes split words and the tiles after it plan for the next binade, so the
    /// crossing is most often a segment's last position: one checked apply finds it where the
    /// bisection took about log2 of the segment's length (a trace at 5c2f826 on an H100:
    /// 0.45 to 1.1 µs from one split end to the next at 8,294,400 uniform terms, growing with
    /// the segment). Every prefix taken is a checked apply and every split end checks its
    /// words: no bit depends on which position is found. On in the engine's shape since
    /// 2026-12-07: on an H100 at d600150 it took 0.88 to 0.98 of the bisection's time at
    /// 8,294,400 terms on the four gpu-timing streams, with the loop's bits
    /// (`reports/walked-last-first`); at 6a3e598 (`reports/walked-ahead`) the geometric
    /// stream 0.95 of it at 10^8 terms and 0.97 at 2^30, the other rows of those sizes
    /// within 1%.
    pub last_first: bool,
    /// A sum's first tile (from +-0, so always finished from its terms) is finished by its
    /// own producer as soon as it has published its words, and the exact sum after it
    /// published in the tile's split words (`BINADE_WK_FIRST`; the job has split words
    /// with or without `split`); the walker waits for that word and starts its steps at the
    /// second tile. The same finish from the same start, so the same bits; the walker no
    /// longer waits for the first producer and then finishes the tile itself (a trace at
    /// bc9ee39 on an H100: that finish ran from 15.9 to 37.9 µs of a 65 µs walk of 8,294,400
    /// uniform terms).
    pub first: bool,
    /// The walker composes its first step (tiles 1 on) while the first tile's producer
    /// finishes it, and takes that tile's exact sum only for the step's walk
    /// (`BINADE_WK_AHEAD`; used with `first` and `seg_step`, ignored without either). A
    /// segmented step's compose scans unit words into segments and never reads the exact
    /// sum, which only the walk applies, every apply checked: the same positions from the
    /// same sum, so the same bits. Thread 0 first waits for the step's last word or the
    /// first tile's sum, whichever comes first, so that the compose does not stop short at a
    /// word not yet published. Motivated by a trace at d600150 on an H100
    /// (`reports/walked-last-first/d600150`, 8,294,400 uniform terms): the first tile's sum
    /// taken at 30.3 µs, step 1's compose done at 39.0, every word published by 32.6. Off in
    /// the engine's shape: it did not pay. On an H100 at 6a3e598 (`reports/walked-ahead`) it
    /// took 1.01 to 1.07 of the build without it at 8,294,400 terms on the four gpu-timing
    /// streams (uniform 0.0592 against 0.0585 ms), and 1.00 to 1.02 at 10^8 and 2^30.
    pub ahead: bool,
    /// A producer holds the ticket after its tile's and copies that tile's terms into a
    /// shared-memory buffer by asynchronous copies while it works on its own tile
    /// (`BINADE_WK_BUFFER`: the launch's dynamic shared memory, one tile of doubles, so fewer
    /// blocks may stay resident; f64 terms, without `prefetch`). The same terms in the same
    /// registers: no bit depends on it. A tile that is not whole or not 16-byte aligned is
    /// read from global memory as without it. Off in the engine's shape.
    pub buffer: bool,
    /// A tile with a tie takes its unit from the first pass's sum of `rint(x / u)` and each
    /// start parity's count of tie corrections (`BINADE_WK_TIE_PARITY`): a tie leaves the
    /// sum's significand even, so each lane counts its corrections in integers with one
    /// parity state per start, `rint` by the add of 2^52 (no conversion), and an ordered
    /// block reduction composes the lanes' counts; without it each lane forms its pair unit
    /// in f64, with conversions for the parities, and an ordered block scan composes the
    /// pairs. The same units: no bit depends on it.
    pub tie_parity: bool,
    /// A timing build: the walker stamps the device clock ([`WalkedTotal::trace`]); the bits
    /// are the engine's.
    pub trace: bool,
    /// f32 terms summed in f32 (`BINADE_WK_F32`): the loop `s = 0.0f32; for x in terms
    /// { s += x }`, its jobs over f32 buffers ([`WalkedTerm`]). Not with `fast_finish`.
    pub f32_terms: bool,
    /// Whether plans know where an f32 loop stops growing (`BINADE_WK_STALL_CAP`, f32 builds
    /// only). A plan: no bit depends on it.
    pub stall_cap: StallCap,
    /// Whether an f32 build's plans follow the loop's rounding (`BINADE_WK_MOVES`, needs the
    /// stall cap and the hint; [`Moves`]). A plan: no bit depends on it.
    pub moves: Moves,
}

pub use crate::verify::walked_model::{stall_cap_f32, STALL_CAP_SHIFT};

/// Whether an f32 build's plans add each tile's move as the f32 loop would make it, rather
/// than its tree sum (`BINADE_WK_MOVES`; the argument is in the kernel's comment on it). A
/// float sum in binade b is a multiple of its ulp u_b, so while it stays in b a tile moves it
/// by `u_b * sum rint(x / u_b)`; where terms are small against u_b that is far from the tree
/// sum (below it for log-normal terms, whose small terms round away; above it for terms just
/// under an ulp, which round up), and plans that add tree sums leave the loop's binade for
/// runs of tiles (log-normal terms at 10^8: 2,100 of 24,414 tiles planned for another binade in
/// `scripts/f32-moves-plan-model.py`'s chain of tree sums, 50 in its chain of moves). Each
/// producer forms its moves for two binades, the larger of its walker's hint's and its far
/// anchor's and the one above, with its tree sum.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Moves {
    /// Plans from tree sums (under the stall cap where it is on).
    Off = 0,
    /// Plans from each tile's moves in its window, each term rounded as if from an even sum
    /// (the f32 engine's before `Parity`).
    On = 1,
    /// A plan mutant for the tests: each window's two moves swapped. Plans change no bit,
    /// so its totals must be the loop's.
    Swapped = 2,
    /// A plan mutant for the tests: a look-back longer than 32 tiles moves the tiles of its
    /// passes before the base from the window's base binade, whatever the base's binade (the
    /// rule before `reports/walked-moves`' calls 12 and 13 found it moving whole chains one
    /// binade low on the geometric stream). Its totals must be the loop's.
    BaseUnknown = 3,
    /// Plans from each tile's moves in its window with each thread's ties carried through
    /// its terms in order from an even start (`walked_model::thread_parity_move_f32`): a tie
    /// from an odd sum goes the other way from rint's, and `On` rounds every tie as if from
    /// an even sum. On the half-ties f32 stream (about 10^8 terms) the model's plans miss 63
    /// tiles against `On`'s 1,023 (`reports/walked-ties`). The f32 engine's before
    /// `Crossing`, and a plan mutant of it for the tests (the re-read skipped).
    Parity = 4,
    /// `Parity`, with each look-back moving every tile from the binade of the running prefix
    /// before it, not its base's: where the prefix a look-back finds lies in another binade
    /// than its base the span crossed a binade, and it reads the span again forward
    /// (`wk_rescan_plan`), where some tile of the span has its two moves more than 1/64
    /// apart (a tag bit its producer sets; elsewhere the binade a tile is moved from hardly
    /// changes its move). On the geometric f32 stream (terms about an ulp of the sum, so the
    /// binade decides each move) look-backs of 1,024 tiles at the base's binade miss 66 of
    /// 8,192 tiles at 2^25 terms in the model, from the running prefix's 16
    /// (`walked_model::lookback_plans_f32`, [`EarlyPasses::Running`]); on an H100 at fb0be33
    /// the stream at 2^30 took 6.08 ms against 28.2 without the re-read, uniform terms 3.40
    /// against 3.15 (`reports/walked-crossings`); that cost lies partly in the tag and its
    /// ballot, partly in the re-read's code ([`Moves::TagOnly`], `reports/walked-blocks`), and
    /// at three blocks a multiprocessor the engine is below both (`DEFAULT_F32`). The f32
    /// engine's.
    ///
    /// [`EarlyPasses::Running`]: crate::verify::walked_model::EarlyPasses::Running
    Crossing = 5,
    /// `Crossing` with its re-read compiled out: the tag bit formed and each look-back's
    /// ballot of it taken, the plans `Parity`'s; a look-back that would read its span again
    /// is counted (`WalkedTotal::reread_plans`). A diagnostic build that prices `Crossing`'s
    /// code apart from the re-reads it does (`examples/walked_f32_paths`, time mode).
    TagOnly = 6,
}

/// Whether an f32 build's plans cap a tile's growth where the loop's sum stops growing
/// (`BINADE_WK_STALL_CAP`; the argument is in the kernel's comment on it). A float sum in
/// binade E leaves every term below 2^(E-24) out, so a tile whose largest term lies in
/// [2^k, 2^(k+1)) changes no sum at or above its cap 2^(k+25); plans from tree sums alone
/// go on growing past it, and once the loop's sum stalls (2^25 uniform [0, 1) terms bring it
/// to 2^24) every later tile would be planned for a binade the sum never reaches and be
/// finished by the walker, one after another.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StallCap {
    /// Plans from tree sums alone (the f64 build's only choice: an f64 loop stalls only
    /// after about 2^53 terms of one size).
    Off = 0,
    /// Plans capped (the f32 engine's).
    On = 1,
    /// A plan mutant for the tests: every cap four binades low, so plans stall too early.
    /// Plans change no bit, so its totals must be the loop's.
    TooLow = 2,
}

/// A term type of the walked engine: f64 (a build without [`WalkedShape::f32_terms`]) or
/// f32 (a build with it), each summed in its own format `F`.
pub trait WalkedTerm:
    cudarc::driver::DeviceRepr + cudarc::driver::ValidAsZeroBits + Copy + Default + Unpin + 'static
{
    /// The terms' format: the loop the engine reproduces is this format's.
    type F: Format<Value = Self>;
    /// True for f32 (a build's `f32_terms` must say the same).
    const F32: bool;
    /// The loop's start (+0 or -0, given as an f64) as the bits the kernel starts from.
    fn start_bits(start: f64) -> u64 {
        Self::F::to_bits(Self::F::from_f64(start))
    }
}

impl WalkedTerm for f64 {
    type F = F64;
    const F32: bool = false;
}

impl WalkedTerm for f32 {
    type F = F32;
    const F32: bool = true;
}

/// A total's bits in its build's format (an f32's in the low 32 bits) as an f64: exact (an
/// f32 widens exactly; a NaN stays a NaN).
fn total_of(bits: u64, f32_terms: bool) -> f64 {
    if f32_terms {
        f64::from(F32::from_bits(bits))
    } else {
        F64::from_bits(bits)
    }
}

impl WalkedShape {
    /// The engine's shape: 256 threads x 16 terms (4,096-term tiles), 4 words a walker
    /// thread (1,024 tiles a step), registers capped for 4 resident blocks, plans from the
    /// walker's hint (measured at 6097719: 2.29 against 2.95 ms at 2^30 uniform terms), no
    /// L2 prefetch (measured at 1a6507f with the hint on: 2.17 without it against 2.37 ms
    /// at 2^30 uniform terms), look-backs that plan from a range rather than wait (2368892:
    /// 2.161 against 2.176 ms at 2^30, 0.262 against 0.270 at 10^8), plans from an
    /// anchor 1,024 tiles back where the walker's hint gives none, and crossings split by
    /// their producers (measured on an H100 at 67044ea, `reports/walked-split`: 0.094
    /// against 0.126 ms at 8,294,400 uniform terms, 5.30 against 9.15 ms on the geometric
    /// stream at 2^30, 3.06 against 2.93 ms at 2^30 uniform, where the split's code costs
    /// the producers about 5%), and finishes tried by a planned pass first (measured on an
    /// H100 at ec9e84b and be3e9ad, `reports/walked-planned`: 10 to 18% faster than every
    /// finish by rounds at 8,294,400 terms on four distributions, 1 to 7% slower at 10^8
    /// and 2^30, a cost whose cause was not found), and steps that end many crossings
    /// (measured on an H100 at ba9299d, `reports/walked-step`: 0.78 to 0.96 of a crossing a
    /// step at 8,294,400 terms on four distributions, 0.90 and 0.94 on the geometric stream
    /// at 10^8 and 2^30, 0.996 to 1.02 on the others there), those steps' split ends read
    /// from words and terms fetched with the step's (see `fetch_splits`), and each sum's
    /// first tile finished by its producer (`first`; measured on an H100 at 054862f,
    /// `reports/walked-first`: 0.89 to 0.96 of the walker's own finish at 8,294,400 terms on
    /// four distributions, 0.97 to 0.99 at 10^8). The plans' margin is the tile margin
    /// (`Margin::Tile`): the mean margin measured 6 to 11% slower on four f64 streams at
    /// 10^8 and 2^30 terms on an H100 at 168b9b2 (`reports/walked-margin`: 2^30 uniform
    /// 3.380 against 3.043 ms); SSIMULACRA2's sums take it
    /// (`ssimulacra2::device::WALKED_SHAPE`). A tile with a tie takes its unit from its tie
    /// corrections (`tie_parity`; measured on an H100 at 8a3ef12, `reports/walked-tie-parity`,
    /// the pair units beside it in one run: 2^30 half-ties terms 3.418 against 4.190 ms, 10^8
    /// 0.366 against 0.437, 8,294,400 0.064 against 0.066; uniform, log-normal and geometric
    /// 0.93 to 1.03 of the pair units' time at the three sizes). A failing segment's
    /// crossing is tried at its last position first (`last_first`; on an H100 at d600150
    /// 0.88 to 0.98 of the bisection's time at 8,294,400 terms; at 6a3e598 0.95 and 0.97 of
    /// it on the geometric stream at 10^8 and 2^30, the other rows within 1%).
    pub const DEFAULT: WalkedShape = WalkedShape {
        threads: 256,
        per_thread: 16,
        step: 4,
        min_blocks: 4,
        producers_only: false,
        phases: 3,
        prefetch: false,
        transpose: true,
        finish_in_step: true,
        hint: Hint::On,
        lookback: Lookback::Ranged,
        far: 1024,
        margin: Margin::Tile,
        early: Early::On,
        fast_finish: false,
        split: true,
        planned: true,
        seg_step: true,
        fetch_splits: true,
        last_first: true,
        first: true,
        ahead: false,
        buffer: false,
        tie_parity: true,
        trace: false,
        f32_terms: false,
        stall_cap: StallCap::Off,
        moves: Moves::Off,
    };

    /// The engine's shape for f32 terms ([`WalkedShape::f32_terms`]): the build `binade sum
    /// --engine gpu` runs on an f32 file and `gpu-timing-f32` times. Three blocks a
    /// multiprocessor (80 registers a thread), not the f64 engine's four (64): on an H100 at
    /// 3818228 (`reports/walked-blocks`, 21 CUDA-event timings a build, the builds taken in
    /// turn) it was faster at 3 on all eight rows of four f32 streams at 10^8 and 2^30 terms,
    /// 6 to 17% (2^30: uniform 3.125 ms against 3.416, half ties 3.255 against 3.623,
    /// log-normal 3.726 against 4.024, geometric 5.042 against 6.099), and below the build
    /// before the re-read (`Moves::Parity` at 4 blocks) on seven of the eight (uniform at
    /// 10^8: 0.369 against 0.362).
    pub const DEFAULT_F32: WalkedShape = WalkedShape {
        min_blocks: 3,
        ..WalkedShape::DEFAULT.with_f32_terms()
    };

    /// The engine's shape with the buffered producers (`buffer`) and its registers capped
    /// for the 3 blocks a multiprocessor that the buffer's shared memory leaves room for (the
    /// engine's static shared words and a 32 KiB tile: more than a quarter of an H100's or
    /// H200's 228 KiB). A build under measurement, not the engine's.
    pub const BUFFERED: WalkedShape = WalkedShape {
        buffer: true,
        min_blocks: 3,
        ..WalkedShape::DEFAULT
    };

    /// The engine's shape as first measured (commit d17d386): no prefetch, lanes read
    /// strided from global memory, a step's failing tile found again by the next step, every
    /// plan by a look-back, every crossing finished from its terms by rounds.
    pub const FIRST: WalkedShape = WalkedShape {
        prefetch: false,
        transpose: false,
        split: false,
        planned: false,
        seg_step: false,
        fetch_splits: false,
        finish_in_step: false,
        hint: Hint::Off,
        lookback: Lookback::Wait,
        far: 0,
        first: false,
        tie_parity: false,
        ..WalkedShape::DEFAULT
    };

    /// This shape for f32 terms summed in f32, with the plans' stall cap and, where the shape
    /// plans from the walker's hint (the moves' window comes from it), their moves (the f32
    /// engine's choice; [`StallCap`], [`Moves`]).
    pub const fn with_f32_terms(self) -> WalkedShape {
        WalkedShape {
            f32_terms: true,
            stall_cap: StallCap::On,
            moves: if matches!(self.hint, Hint::Off) {
                Moves::Off
            } else {
                Moves::Crossing
            },
            ..self
        }
    }

    /// The most static shared memory a transposed tile may take (the block's static limit
    /// is 48 KiB; the rest is the block's other shared words).
    const TRANSPOSE_BYTES: u64 = 46 * 1024;

    /// The launch's dynamic shared memory in bytes: the buffered producers' next tile
    /// (`buffer`), else none.
    pub fn dynamic_shared_bytes(self) -> u32 {
        if self.buffer {
            self.threads * self.per_thread * 8
        } else {
            0
        }
    }

    /// Tickets each producer block draws past the last one: one, or two where it holds the
    /// ticket after its tile's (`buffer`).
    pub fn draws_past_last(self) -> u64 {
        if self.buffer {
            2
        } else {
            1
        }
    }

    /// The most dynamic shared memory a buffered tile may take: what is left of a block's
    /// 227 KiB on sm_90 beside the static words (under 48 KiB).
    const BUFFER_BYTES: u64 = 179 * 1024;

    /// Terms per tile.
    pub fn tile(self) -> u64 {
        u64::from(self.threads) * u64::from(self.per_thread)
    }

    fn check(self) -> Result<()> {
        let ok = self.threads.is_multiple_of(32)
            && (32..=1024).contains(&self.threads)
            && self.per_thread >= 2
            && self.per_thread.is_multiple_of(2)
            && (1..=16).contains(&self.step)
            && self.far.is_multiple_of(8);
        if !ok {
            bail!("walked shape {self:?}: threads a multiple of 32 up to 1024, an even per_thread, step 1 to 16, far a multiple of 8");
        }
        if self.far != 0 && self.hint == Hint::Off {
            bail!("walked shape {self:?}: a far anchor plans where the walker's hint gives none, so it needs the hint");
        }
        if self.stall_cap != StallCap::Off && !self.f32_terms {
            bail!("walked shape {self:?}: the stall cap is a plan of f32 sums");
        }
        if self.moves != Moves::Off && (self.stall_cap == StallCap::Off || self.hint == Hint::Off) {
            bail!("walked shape {self:?}: the moves are a plan of f32 sums with the stall cap and the walker's hint");
        }
        if self.fast_finish && self.f32_terms {
            bail!("walked shape {self:?}: the fast finish is written for f64 sums");
        }
        if self.fast_finish && !self.transpose {
            bail!("walked shape {self:?}: the fast finish keeps its prefixes in the transposed tile's shared memory");
        }
        if self.planned && (!self.transpose || self.fast_finish) {
            bail!("walked shape {self:?}: the planned finish reads native lanes from the transposed tile, which the fast finish overwrites");
        }
        if self.seg_step && !(self.finish_in_step && self.planned && self.split) {
            bail!("walked shape {self:?}: the segmented step finishes its stop in the step, ends crossings by split words and uses the planned pass's segmented scan");
        }
        let positions = u64::from(self.step) * u64::from(self.threads);
        let fetched = if self.fetch_splits {
            u64::from(SEG_STEP_SLOTS) * (5 + u64::from(self.per_thread))
        } else {
            0
        };
        if self.fetch_splits && !self.seg_step {
            bail!("walked shape {self:?}: splits are fetched by a segmented step's scan");
        }
        if self.seg_step
            && (3 * positions + positions.div_ceil(64) + fetched
                > self.tile() + u64::from(self.threads)
                || !64u32.is_multiple_of(self.step))
        {
            bail!("walked shape {self:?}: a segmented step keeps 3 words and a bit per position ({positions}) and {fetched} words of fetched splits in the transposed tile's {} words, and a thread's head bits in one 64-bit word (step divides 64)", self.tile() + u64::from(self.threads));
        }
        if self.split && !self.transpose {
            bail!("walked shape {self:?}: the split reads its lanes from the transposed tile's shared memory");
        }
        if self.buffer && (self.prefetch || self.f32_terms) {
            bail!("walked shape {self:?}: the buffered producers take f64 terms, without the L2 prefetch");
        }
        if self.buffer && self.tile() * 8 > Self::BUFFER_BYTES {
            bail!(
                "walked shape {self:?}: a buffered tile needs {} bytes of shared memory, more than {}",
                self.tile() * 8,
                Self::BUFFER_BYTES
            );
        }
        if !(1..=3).contains(&self.phases) || (self.phases < 3 && !self.producers_only) {
            bail!("walked shape {self:?}: phases 1 to 3, below 3 only in a producers-only build");
        }
        if self.transpose && (self.tile() + u64::from(self.threads)) * 8 > Self::TRANSPOSE_BYTES {
            bail!(
                "walked shape {self:?}: a transposed tile needs {} bytes of shared memory, more than {}",
                (self.tile() + u64::from(self.threads)) * 8,
                Self::TRANSPOSE_BYTES
            );
        }
        Ok(())
    }

    fn defines(self, mutant: WalkedMutant) -> Vec<(&'static str, String)> {
        vec![
            ("BINADE_WK_THREADS", self.threads.to_string()),
            ("BINADE_WK_PER_THREAD", self.per_thread.to_string()),
            ("BINADE_WK_STEP", self.step.to_string()),
            ("BINADE_WK_MIN_BLOCKS", self.min_blocks.to_string()),
            ("BINADE_WK_MUTANT", mutant.code().to_string()),
            (
                "BINADE_WK_PRODUCERS_ONLY",
                u32::from(self.producers_only).to_string(),
            ),
            ("BINADE_WK_PHASES", self.phases.to_string()),
            ("BINADE_WK_PREFETCH", u32::from(self.prefetch).to_string()),
            ("BINADE_WK_TRANSPOSE", u32::from(self.transpose).to_string()),
            (
                "BINADE_WK_FINISH_IN_STEP",
                u32::from(self.finish_in_step).to_string(),
            ),
            ("BINADE_WK_HINT", (self.hint as u32).to_string()),
            ("BINADE_WK_LOOKBACK", (self.lookback as u32).to_string()),
            ("BINADE_WK_FAR", self.far.to_string()),
            ("BINADE_WK_MARGIN", (self.margin as u32).to_string()),
            ("BINADE_WK_EARLY", (self.early as u32).to_string()),
            (
                "BINADE_WK_FAST_FINISH",
                u32::from(self.fast_finish).to_string(),
            ),
            ("BINADE_WK_SPLIT", u32::from(self.split).to_string()),
            ("BINADE_WK_PLANNED", u32::from(self.planned).to_string()),
            ("BINADE_WK_SEG_STEP", u32::from(self.seg_step).to_string()),
            (
                "BINADE_WK_FETCH_SPLITS",
                u32::from(self.fetch_splits).to_string(),
            ),
            (
                "BINADE_WK_LAST_FIRST",
                u32::from(self.last_first).to_string(),
            ),
            ("BINADE_WK_FIRST", u32::from(self.first).to_string()),
            (
                "BINADE_WK_AHEAD",
                u32::from(self.ahead && self.first && self.seg_step).to_string(),
            ),
            ("BINADE_WK_BUFFER", u32::from(self.buffer).to_string()),
            (
                "BINADE_WK_TIE_PARITY",
                u32::from(self.tie_parity).to_string(),
            ),
            ("BINADE_WK_TRACE", u32::from(self.trace).to_string()),
            ("BINADE_WK_F32", u32::from(self.f32_terms).to_string()),
            ("BINADE_WK_STALL_CAP", (self.stall_cap as u32).to_string()),
            ("BINADE_WK_STALL_CAP_SHIFT", STALL_CAP_SHIFT.to_string()),
            ("BINADE_WK_MOVES", (self.moves as u32).to_string()),
            ("BINADE_WK_OUT_STRIDE", out_words(self.trace).to_string()),
            ("BINADE_WK_EVENTS", TRACE_EVENTS.to_string()),
            (
                "BINADE_WK_PL_MARGIN_EXP",
                if self.f32_terms {
                    PLAN_MARGIN_EXP_F32
                } else {
                    PLAN_MARGIN_EXP_F64
                }
                .to_string(),
            ),
            ("BINADE_WK_PL_NATIVE_MAX", PLAN_NATIVE_MAX.to_string()),
            ("BINADE_WK_SS_SLOTS", SEG_STEP_SLOTS.to_string()),
            ("WK_PATH_TIE", format!("{PATH_TIE}u")),
            ("WK_PATH_HINTED", format!("{PATH_HINTED}u")),
            ("WK_PATH_RANGED", format!("{PATH_RANGED}u")),
            ("WK_PATH_WAITED", format!("{PATH_WAITED}u")),
            ("WK_PATH_FAR", format!("{PATH_FAR}u")),
            ("WK_PATH_SPLIT", format!("{PATH_SPLIT}u")),
            ("WK_PATH_REREAD", format!("{PATH_REREAD}u")),
        ]
    }
}

/// Whether producers plan from the walker's hint word (`BINADE_WK_HINT`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Hint {
    /// Every plan by a look-back.
    Off = 0,
    /// A plan from the hint where its margin allows, else a look-back.
    On = 1,
    /// A plan mutant for the tests: the margin ignored, every tile but every eighth planned
    /// in the hint's binade. Plans change no bit, so its totals must be the loop's.
    MarginIgnored = 2,
    /// A plan mutant for the tests: the walker's hint with its margin, the far anchor's
    /// margin ignored (`WalkedShape::far`), so every tile the hint leaves is planned in the
    /// anchor's binade. Plans change no bit, so its totals must be the loop's.
    FarMarginIgnored = 3,
    /// A plan mutant of segments for the tests: the producers of every sum of a launch read
    /// the first sum's hint (another sum's running total). Plans change no bit, so its
    /// totals must be the loop's.
    SharedAcrossSegments = 4,
}

/// The per-tile bound u of the plans' guess (`BINADE_WK_MARGIN`): a plan from a known prefix
/// P (the walker's exact sum before tile w, a far anchor's approximate inclusive prefix, or a
/// look-back's published tree sums) takes the tiles between P and tile t, k of them, as
/// summing to at most 4 k u, and is the binade of P where P + 4 k u stays in it. A guess
/// that fails makes a wrong plan, which costs the walker a finish and changes no bit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Margin {
    /// u = ts, tile t's own tree sum: fails where t sums to little after tiles that summed
    /// to much (SSIMULACRA2's error maps: 112 wrong plans among the 117 a walker 256 tiles
    /// behind would take in checker-10px's first frame, `examples/ssim_sum_crossings`).
    Tile = 0,
    /// u = max(ts, P / n), n the tiles P covers: no tile between is taken to sum to less than
    /// the mean of those before. Where the tiles' sums never grow it bounds each tile after
    /// P, and where they never shrink ts does (for non-negative terms); elsewhere a guess.
    /// SSIMULACRA2's shape (`ssimulacra2::device::WALKED_SHAPE`; on an H100 at 168b9b2,
    /// checker-10px 1.02x the tree sums in one launch against 2.92x with the tile margin);
    /// 6 to 11% slower than the tile margin on f64 streams of 10^8 and 2^30 terms.
    Mean = 1,
}

/// Whether a tile's first plan look-back takes its first round from words read with the
/// tile's terms (`BINADE_WK_EARLY`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Early {
    /// Every round reads its words when it runs.
    Off = 0,
    /// Warp 0 reads the 32 words before the tile with its terms; the first round takes them.
    On = 1,
    /// A plan mutant for the tests: the early words read one tile late (lane i holds tile
    /// `t - i`'s word, the tile's own unpublished one in lane 0), so each tree sum of the
    /// first round stands one place off. Plans change no bit, so its totals must be the
    /// loop's.
    Shifted = 2,
}

/// How a plan look-back treats earlier tree sums not yet published (`BINADE_WK_LOOKBACK`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Lookback {
    /// It waits for them.
    Wait = 0,
    /// Each counts as anything in [0, 4 u] (u the margin's per-tile bound, `Margin`); where the prefix's
    /// range lies in one binade that is the plan, else it waits. Every eighth tile waits, so
    /// the approximate prefixes later look-backs stop at hold no guess.
    Ranged = 1,
    /// A plan mutant for the tests: the range ignored, the plan from the published tree sums
    /// alone. Plans change no bit, so its totals must be the loop's.
    RangeIgnored = 2,
}

/// A deliberate defect of the engine's own shortcuts (`BINADE_WK_MUTANT`), for the kill
/// matrix: each must give a wrong total on some input.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WalkedMutant {
    /// The correct engine.
    None,
    /// The tie check removed: a tile or lane with a tie takes (rint, rint) as its unit.
    TieIgnored,
    /// The fast unit's bound ignored: its f64 sum is used at or above 2^53 (and NaN).
    BoundIgnored,
    /// The walker composes units planned for another binade than its sum's (with
    /// `seg_step`: the step's scan composes across its segments' starts).
    BinadesMixed,
    /// The sign check removed: negative terms count as rint(x / u).
    NegativeAccepted,
    /// A unit read back from its word loses its odd increment (odd taken as even).
    OddDropped,
    /// The walker applies a composed run (with `seg_step`: a segment) without checking that
    /// it stays in its binade.
    RunEndUnchecked,
    /// The walker takes a unit word left by an earlier launch as published (the analogue of
    /// a look-back that trusts an unfinished predecessor).
    UnpublishedRead,
    /// A finish's native lane adds its terms from the round's start, not its own.
    NativeFromRound,
    /// A lane's terms read back from shared memory at the unpadded stride (the transpose's
    /// own shortcut: another lane's terms, or a gap). Needs `transpose`.
    LaneUnpadded,
    /// Every sum's walker of a segmented launch composes the first sum's unit words (the
    /// segments' offset dropped). Needs two sums or more.
    SegmentUnits,
    /// A fast round's lanes with a tie take the sum of rint's as their increment (its tie
    /// mask dropped). Needs `fast_finish`.
    FastTieIgnored,
    /// A fast round's run after a crossing lane is counted from the tile's first lane (the
    /// prefix before it not subtracted). Needs `fast_finish`.
    FastBaseIgnored,
    /// A fast round's crossing search ignores the binade's top: a run is applied past it.
    /// Needs `fast_finish`.
    FastBoundIgnored,
    /// A split's crossing lane is not added (the walker goes from the first unit's end
    /// straight to the second). Needs `split` (the engine's shape has it).
    SplitLaneSkipped,
    /// A split's first unit is applied without its check (the sum may leave the binade
    /// before the split lane). Needs `split`.
    SplitFirstUnchecked,
    /// A split's second unit is applied without its check (the sum after the split lane may
    /// not have reached the next binade). Needs `split`.
    SplitSecondUnchecked,
    /// A planned finish applies a run without its check (the sum may not be in the run's
    /// binade, or may leave it inside the run). Needs `planned`.
    PlanRunUnchecked,
    /// A planned finish skips its native lanes' adds. Needs `planned`.
    PlanNativeSkipped,
    /// A planned finish's segmented scan ignores the runs' starts: a run's unit composes the
    /// units of every lane before it, planned for other binades. Needs `planned`.
    PlanHeadsIgnored,
    /// A segmented step whose segment does not apply takes the crossing to be the segment's
    /// last tile: the prefix before it applied without its check, no search. Needs
    /// `seg_step`.
    StepSearchUnchecked,
    /// A segmented step's split end adds the lane terms of the first slot its scan fetched,
    /// whichever crossing they were fetched for (the split words of its own). Needs
    /// `fetch_splits` (on in the engine's shape).
    StepSlotMixed,
    /// The walker takes the first tile's exact word (`first`) of any launch as finished (the
    /// analogue of a look-back that trusts an unfinished predecessor): a fresh job's word
    /// reads as a sum of +0 after the first tile. Needs `first`.
    FirstUnfinished,
    /// The first tile's producer finishes it from +0 whatever the sum's start (-0 where the
    /// loop starts from -0). Needs `first`.
    FirstStartIgnored,
    /// A tie's correction leaves the lane's parity state as it was instead of even (the
    /// parity rule's own shortcut: after a tie the significand is even). Needs `tie_parity`.
    TieParityKept,
    /// The lanes' tie corrections composed as if every lane before ended on an even
    /// significand (the carried parity dropped). Needs `tie_parity`.
    TieCarryIgnored,
    /// A segmented step whose try of the last position fails (the prefix before it does not
    /// apply) takes that position as the crossing anyway, from the segment's start: the last
    /// position first's own shortcut with its fallback to the search removed. Built with
    /// `last_first` on.
    StepLastTrusted,
    /// The walker's first step, composed before the first tile's sum is taken, walks from
    /// the sum's start instead of that sum: the compose ahead's own shortcut with its wait
    /// removed from the walk. Built with `ahead` on (off in the engine's shape).
    AheadUnawaited,
    /// A buffered producer copies, for the ticket after its tile's, the tile before that
    /// one (of the same sum; the first tile itself): the buffer's own shortcut, the terms
    /// taken from shared memory instead of read, fed another tile's. Built with `buffer` on
    /// (off in the engine's shape).
    BufferTileBehind,
}

impl WalkedMutant {
    /// Every mutant, the correct engine first; the order of the kernel's codes.
    pub const ALL: [WalkedMutant; 29] = [
        WalkedMutant::None,
        WalkedMutant::TieIgnored,
        WalkedMutant::BoundIgnored,
        WalkedMutant::BinadesMixed,
        WalkedMutant::NegativeAccepted,
        WalkedMutant::OddDropped,
        WalkedMutant::RunEndUnchecked,
        WalkedMutant::UnpublishedRead,
        WalkedMutant::NativeFromRound,
        WalkedMutant::LaneUnpadded,
        WalkedMutant::SegmentUnits,
        WalkedMutant::FastTieIgnored,
        WalkedMutant::FastBaseIgnored,
        WalkedMutant::FastBoundIgnored,
        WalkedMutant::SplitLaneSkipped,
        WalkedMutant::SplitFirstUnchecked,
        WalkedMutant::SplitSecondUnchecked,
        WalkedMutant::PlanRunUnchecked,
        WalkedMutant::PlanNativeSkipped,
        WalkedMutant::PlanHeadsIgnored,
        WalkedMutant::StepSearchUnchecked,
        WalkedMutant::StepSlotMixed,
        WalkedMutant::FirstUnfinished,
        WalkedMutant::FirstStartIgnored,
        WalkedMutant::TieParityKept,
        WalkedMutant::TieCarryIgnored,
        WalkedMutant::StepLastTrusted,
        WalkedMutant::AheadUnawaited,
        WalkedMutant::BufferTileBehind,
    ];

    /// The mutants an f32 build ([`WalkedShape::f32_terms`]) is checked against: those of the
    /// code where the format enters (the tie check and the fast unit's bound on the widened
    /// terms, the binades and parities the walker composes, the checked apply of a run's end,
    /// a finish's native lane, the transposed lanes). The unpublished read and the segments'
    /// units read words whatever the format, and their inputs need a sum that stays in one
    /// binade over 2^25 terms that each move it, which an f32 sum cannot (2^25 terms of at
    /// least half a quantum carry it over a binade of 2^23 quanta): they are killed on the
    /// f64 build. The fast finish and the buffered producers are not built for f32. The
    /// split's three mutants joined this list after f8b00f0, with `walked_kill`'s split
    /// inputs made at f32's quantum; the planned finish's three joined with it, with its
    /// inputs made at f32's quantum, and the segmented step's search and fetched splits with
    /// them, and the first tile's two with the first tile's finish by its producer, and the
    /// tie parity's two with it, and the last position first's with it.
    pub const F32_CHECKED: [WalkedMutant; 21] = [
        WalkedMutant::TieIgnored,
        WalkedMutant::BoundIgnored,
        WalkedMutant::BinadesMixed,
        WalkedMutant::NegativeAccepted,
        WalkedMutant::OddDropped,
        WalkedMutant::RunEndUnchecked,
        WalkedMutant::NativeFromRound,
        WalkedMutant::LaneUnpadded,
        WalkedMutant::SplitLaneSkipped,
        WalkedMutant::SplitFirstUnchecked,
        WalkedMutant::SplitSecondUnchecked,
        WalkedMutant::PlanRunUnchecked,
        WalkedMutant::PlanNativeSkipped,
        WalkedMutant::PlanHeadsIgnored,
        WalkedMutant::StepSearchUnchecked,
        WalkedMutant::StepSlotMixed,
        WalkedMutant::FirstUnfinished,
        WalkedMutant::FirstStartIgnored,
        WalkedMutant::TieParityKept,
        WalkedMutant::TieCarryIgnored,
        WalkedMutant::StepLastTrusted,
    ];

    /// The kernel's `BINADE_WK_MUTANT` code (its index in [`Self::ALL`]).
    pub fn code(self) -> u32 {
        Self::ALL.iter().position(|&m| m == self).unwrap_or(0) as u32
    }

    /// The shape this mutant is built in: the engine's (crossings split), or for the fast
    /// finish's mutants the engine's with the fast finish on and the split off (as the fast
    /// finish was measured, and so that crossings reach its rounds), or for the tie parity's
    /// mutants the engine's with `tie_parity` on whatever the engine's choice.
    pub fn shape(self) -> WalkedShape {
        match self {
            WalkedMutant::TieParityKept | WalkedMutant::TieCarryIgnored => WalkedShape {
                tie_parity: true,
                ..WalkedShape::DEFAULT
            },
            WalkedMutant::StepLastTrusted => WalkedShape {
                last_first: true,
                ..WalkedShape::DEFAULT
            },
            WalkedMutant::AheadUnawaited => WalkedShape {
                ahead: true,
                ..WalkedShape::DEFAULT
            },
            WalkedMutant::BufferTileBehind => WalkedShape::BUFFERED,
            WalkedMutant::FastTieIgnored
            | WalkedMutant::FastBaseIgnored
            | WalkedMutant::FastBoundIgnored => WalkedShape {
                fast_finish: true,
                split: false,
                planned: false,
                seg_step: false,
                fetch_splits: false,
                ..WalkedShape::DEFAULT
            },
            _ => WalkedShape::DEFAULT,
        }
    }

    /// The name in reports and the kill matrix.
    pub fn name(self) -> &'static str {
        match self {
            WalkedMutant::None => "none",
            WalkedMutant::TieIgnored => "walked: tie check removed",
            WalkedMutant::BoundIgnored => "walked: fast unit's 2^53 bound ignored",
            WalkedMutant::BinadesMixed => "walked: walker composes another binade's units",
            WalkedMutant::NegativeAccepted => "walked: negative terms accepted",
            WalkedMutant::OddDropped => "walked: odd increment dropped",
            WalkedMutant::RunEndUnchecked => "walked: composed run's end unchecked",
            WalkedMutant::UnpublishedRead => "walked: walker reads an unpublished word",
            WalkedMutant::NativeFromRound => "walked: native lane from the round's start",
            WalkedMutant::LaneUnpadded => "walked: transposed lane read unpadded",
            WalkedMutant::SegmentUnits => "walked: segments' walkers read the first sum's units",
            WalkedMutant::FastTieIgnored => "walked: fast finish's tie mask dropped",
            WalkedMutant::FastBaseIgnored => "walked: fast finish's run counted from lane 0",
            WalkedMutant::FastBoundIgnored => "walked: fast finish's binade top ignored",
            WalkedMutant::SplitLaneSkipped => "walked: split's crossing lane skipped",
            WalkedMutant::SplitFirstUnchecked => "walked: split's first unit unchecked",
            WalkedMutant::SplitSecondUnchecked => "walked: split's second unit unchecked",
            WalkedMutant::PlanRunUnchecked => "walked: planned finish's run unchecked",
            WalkedMutant::PlanNativeSkipped => "walked: planned finish's native lane skipped",
            WalkedMutant::PlanHeadsIgnored => "walked: planned finish's runs joined",
            WalkedMutant::StepSearchUnchecked => "walked: segmented step's search skipped",
            WalkedMutant::StepSlotMixed => "walked: segmented step's lane terms from another slot",
            WalkedMutant::FirstUnfinished => "walked: first tile's exact word of any launch taken",
            WalkedMutant::FirstStartIgnored => {
                "walked: first tile finished from +0 whatever the start"
            }
            WalkedMutant::TieParityKept => "walked: tie leaves the parity as it was",
            WalkedMutant::TieCarryIgnored => "walked: lanes' tie corrections from an even start",
            WalkedMutant::StepLastTrusted => {
                "walked: segmented step's failed last-position try taken"
            }
            WalkedMutant::AheadUnawaited => "walked: step composed ahead walks from the start",
            WalkedMutant::BufferTileBehind => {
                "walked: buffered next tile copied from the tile before"
            }
        }
    }
}

/// One walked sum: its total and how the walker got it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WalkedTotal {
    /// The sum (of an f32 build: its f32 total, widened exactly).
    pub total: f64,
    /// The sum's bits in the terms' format (an f32's in the low 32 bits).
    pub bits: u64,
    /// Tiles of the sum.
    pub tiles: u64,
    /// Tiles with a tie (their units by the lanes' composition).
    pub pair_tiles: u64,
    /// Tiles finished from their terms: by the walker, and a sum's first by its producer
    /// (`WalkedShape::first`).
    pub finished_tiles: u64,
    /// Lanes the walker added natively while finishing.
    pub native_lanes: u64,
    /// The walker's steps (each composes up to `threads * step` tiles or finishes one).
    pub steps: u64,
    /// Times the walker found the next tile's unit not yet published and slept.
    pub sleeps: u64,
    /// Tiles planned from the walker's hint (no look-back).
    pub hinted_plans: u64,
    /// Tiles planned from a look-back's range, with tree sums still missing (no wait).
    pub ranged_plans: u64,
    /// Tiles whose look-back waited for a tree sum.
    pub waited_plans: u64,
    /// Tiles planned from a far anchor's approximate prefix (no look-back).
    pub far_plans: u64,
    /// The finishes' fast rounds (`WalkedShape::fast_finish`).
    pub fast_rounds: u64,
    /// The finishes' rounds by pair units (a block scan of the lanes' units each).
    pub pair_rounds: u64,
    /// Tiles whose producer published split words (`WalkedShape::split`).
    pub split_tiles: u64,
    /// Tiles whose plan look-back read its span again across a crossing (`Moves::Crossing`),
    /// or would have (`Moves::TagOnly`).
    pub reread_plans: u64,
    /// Tiles the walker ended by their split words, with no finish.
    pub split_ends: u64,
    /// Finished tiles ended by one planned pass, with no rounds (`WalkedShape::planned`).
    pub planned_finishes: u64,
    /// Of the split ends, those inside a segmented step's walk (`WalkedShape::seg_step`):
    /// crossings ended without ending the step.
    pub walk_split_ends: u64,
    /// Where the walker's time went, from a trace build (`WalkedShape::trace`).
    pub trace: Option<WalkerTrace>,
}

/// A trace build's clock stamps of one sum (the device's `%globaltimer`, ns), from the
/// walker's start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WalkerTrace {
    /// The walker's whole walk.
    pub walker_ns: u64,
    /// Time inside the walker's finishes and split ends (not a first tile its producer finished,
    /// `WalkedShape::first`).
    pub finish_ns: u64,
    /// When the sum's last unit word was published.
    pub producers_ns: u64,
}

/// What a trace build's walker was doing at one of its logged events (the kernel's
/// `WK_EV_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WalkerEventKind {
    /// A step begins; the tile is its first.
    Step,
    /// The step's words are composed; aux: its composable positions.
    Composed,
    /// The step's walk ends; aux: the position it stopped at.
    Walked,
    /// A split end inside the step's walk begins.
    WalkSplit,
    /// That split end ends; aux: 1 where it held.
    WalkSplitEnd,
    /// The walker sleeps (the first of a run of sleeps) for the tile's word.
    Sleep,
    /// A split end outside a step's walk begins.
    Split,
    /// That split end ends; aux: 1 where it held.
    SplitEnd,
    /// A finish from the tile's terms begins.
    Finish,
    /// That finish ends; aux: the finishes ended by a planned pass so far.
    FinishEnd,
    /// The first tile's exact sum taken from its producer (`WalkedShape::first`); aux: the
    /// walker's sleeps while it waited.
    First,
    /// A walker's finish has its tile's terms in its lanes' registers (stamped inside the
    /// finish and logged after it, before its `FinishEnd`).
    FinishLoaded,
    /// A planned pass of that finish has its lanes' keys, runs and scanned units in shared
    /// memory (`WalkedShape::planned`; none where the pass did not run).
    FinishKeyed,
    /// That pass's walk of its runs and native lanes (one thread) is done; where it failed
    /// the rounds go on to the `FinishEnd`.
    FinishWalked,
    /// A code the kernel does not write (a defect of the log).
    Other(u8),
}

impl WalkerEventKind {
    fn of(code: u8) -> WalkerEventKind {
        match code {
            1 => WalkerEventKind::Step,
            2 => WalkerEventKind::Composed,
            3 => WalkerEventKind::Walked,
            4 => WalkerEventKind::WalkSplit,
            5 => WalkerEventKind::WalkSplitEnd,
            6 => WalkerEventKind::Sleep,
            7 => WalkerEventKind::Split,
            8 => WalkerEventKind::SplitEnd,
            9 => WalkerEventKind::Finish,
            10 => WalkerEventKind::FinishEnd,
            11 => WalkerEventKind::First,
            12 => WalkerEventKind::FinishLoaded,
            13 => WalkerEventKind::FinishKeyed,
            14 => WalkerEventKind::FinishWalked,
            k => WalkerEventKind::Other(k),
        }
    }

    /// The kind's name in a probe's output.
    pub fn name(self) -> String {
        match self {
            WalkerEventKind::Step => "step".into(),
            WalkerEventKind::Composed => "composed".into(),
            WalkerEventKind::Walked => "walked".into(),
            WalkerEventKind::WalkSplit => "walk split".into(),
            WalkerEventKind::WalkSplitEnd => "walk split end".into(),
            WalkerEventKind::Sleep => "sleep".into(),
            WalkerEventKind::Split => "split".into(),
            WalkerEventKind::SplitEnd => "split end".into(),
            WalkerEventKind::Finish => "finish".into(),
            WalkerEventKind::FinishEnd => "finish end".into(),
            WalkerEventKind::First => "first tile's sum".into(),
            WalkerEventKind::FinishLoaded => "finish loaded".into(),
            WalkerEventKind::FinishKeyed => "finish keyed".into(),
            WalkerEventKind::FinishWalked => "finish walked".into(),
            WalkerEventKind::Other(k) => format!("code {k}"),
        }
    }
}

/// One event of a trace build's walker ([`WalkedSum::walker_events`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WalkerEvent {
    /// What the walker was doing.
    pub kind: WalkerEventKind,
    /// The tile it concerned (a step's: its first).
    pub tile: u64,
    /// The kind's detail (see [`WalkerEventKind`]).
    pub aux: u32,
    /// ns since the walker's start (`%globaltimer`).
    pub ns: u64,
    /// The walker's multiprocessor's cycles since its start (`clock64`).
    pub cycles: u64,
}

/// A trace build's event log of one sum: the first [`TRACE_EVENTS`] events, and how many the
/// walker met in all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WalkerEvents {
    /// The events kept, in order.
    pub events: Vec<WalkerEvent>,
    /// Events met, kept or not.
    pub met: u64,
}

/// Every tile's words after a launch ([`WalkedSum::tile_words`]).
#[derive(Clone, Debug, Default)]
pub struct TileWords {
    /// Plan words (value, tag): a tree sum or moves (`WK_AGG`), or an approximate inclusive
    /// prefix (`WK_APPROX`).
    pub plan: Vec<(u64, u64)>,
    /// Unit words (value, tag): the even increment, the binade in tag bits 32..42.
    pub units: Vec<(u64, u64)>,
    /// Path words (`WK_PATH_*`).
    pub paths: Vec<u32>,
}

/// A plan word read back ([`TileWords::plan_word`]), as the kernel writes it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PlanWord {
    /// The tile's tree sum (`WK_AGG`, no window).
    TreeSum(f64),
    /// The tile's moves in binades `window` and `window + 1` (`WK_AGG`, an f32 build with
    /// `BINADE_WK_MOVES`; the window's base in tag bits 43..50).
    Moves { window: u32, at: f32, above: f32 },
    /// An approximate inclusive prefix (`WK_APPROX`).
    Prefix(f64),
    /// No word of this launch's kinds (the tag's low two bits).
    Other(u64),
}

impl TileWords {
    /// Tile `t`'s plan word. The tag's layout is the kernel's (`WK_AGG` 1, `WK_APPROX` 2 in
    /// its low two bits; a moves word's window base in bits 43..50, its two floats low then
    /// high in the value).
    pub fn plan_word(&self, t: usize) -> PlanWord {
        let (value, tag) = self.plan[t];
        let window = ((tag >> 43) & 0xff) as u32;
        match tag & 3 {
            1 if window != 0 => PlanWord::Moves {
                window,
                at: f32::from_bits(value as u32),
                above: f32::from_bits((value >> 32) as u32),
            },
            1 => PlanWord::TreeSum(f64::from_bits(value)),
            2 => PlanWord::Prefix(f64::from_bits(value)),
            k => PlanWord::Other(k),
        }
    }

    /// The binade tile `t` was planned for: its unit word's (tag bits 32..42; 0 for none).
    pub fn unit_binade(&self, t: usize) -> u32 {
        ((self.units[t].1 >> 32) & 0x7ff) as u32
    }
}

// A tile's path word (`paths[t]`), one bit each: the kernel's `WK_PATH_*`, defined from these
// ([`WalkedShape::defines`]).
/// Path bit 0: the tile had a tie.
pub const PATH_TIE: u32 = 1;
/// Path bit 1: planned from the walker's hint.
pub const PATH_HINTED: u32 = 2;
/// Path bit 2: planned from a look-back's range, tree sums still missing.
pub const PATH_RANGED: u32 = 4;
/// Path bit 3: its look-back waited for a tree sum.
pub const PATH_WAITED: u32 = 8;
/// Path bit 4: planned from a far anchor.
pub const PATH_FAR: u32 = 16;
/// Path bit 5: its split words were published.
pub const PATH_SPLIT: u32 = 32;
/// Path bit 6: its plan look-back read its span again across a crossing (`Moves::Crossing`),
/// or would have (`Moves::TagOnly`).
pub const PATH_REREAD: u32 = 64;

/// Sums of one length in a launch: `count` sums of `len` terms, sum k over
/// `terms[k * pitch..k * pitch + len]`.
pub struct SumGroup<'a, T = f64> {
    /// The buffer holding the group's terms.
    pub terms: CudaView<'a, T>,
    /// Sums in the group.
    pub count: u32,
    /// Terms of each sum.
    pub len: usize,
    /// Terms from one sum's start to the next's (at least `len`).
    pub pitch: usize,
}

/// Words of a group in the kernel's table (`wk_group`): the terms' device address, n, pitch,
/// ntiles, tickets_before, words_before, count, first_sum.
const GROUP_WORDS: usize = 8;

/// The most groups in one launch (each tile's producer scans them).
pub const MAX_GROUPS: usize = 64;

/// Where a group sits in its launch.
#[derive(Clone, Copy, Debug)]
struct GroupLayout {
    count: u32,
    len: u64,
    pitch: u64,
    tiles: u64,
    tickets_before: u64,
    first_sum: u64,
}

/// The device buffers of one launch's sums (one sum, or groups of sums of one length);
/// reusable for many launches (tags carry an epoch).
pub struct WalkedJob<'a, T = f64> {
    groups: Vec<SumGroup<'a, T>>,
    layout: Vec<GroupLayout>,
    /// The kernel's group table; rewritten before a launch where `table_fresh` is false.
    table: CudaSlice<u64>,
    table_fresh: bool,
    sums: u32,
    tickets: u64,
    plan: CudaSlice<u64>,
    units: CudaSlice<u64>,
    /// Two 16-byte words a tile where the build splits crossings, else two words the kernel
    /// never touches (a launch argument must be a buffer).
    splits: CudaSlice<u64>,
    paths: CudaSlice<u32>,
    ticket: CudaSlice<u64>,
    tickets_issued: u64,
    epoch: u32,
    out: CudaSlice<u64>,
    start: u64,
    /// Made for a trace build: its results carry the walker's clock stamps.
    traced: bool,
    /// At most this many producer blocks a launch ([`WalkedJob::cap_producers`]); `None`: as
    /// many as stay resident beside the walkers.
    producer_cap: Option<u32>,
    /// The layout its buffers were made for: terms per tile, the terms' format, and whether
    /// split words are allocated ([`WalkedSum::launch`] refuses a build of another layout).
    layout_made: JobLayout,
}

/// The layout a job's buffers were made for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct JobLayout {
    /// Terms per tile (the tickets and words were counted in these tiles).
    tile: u64,
    /// Split words allocated (two 16-byte words a tile: for splits, and for the first
    /// tile's exact sum).
    split_words: bool,
    /// f32 terms (the job's buffers are of the build's term type).
    f32_terms: bool,
    /// A trace build's out words (its event log after the counts).
    traced: bool,
}

impl JobLayout {
    fn of(shape: WalkedShape) -> JobLayout {
        JobLayout {
            tile: shape.tile(),
            split_words: shape.split || shape.first,
            f32_terms: shape.f32_terms,
            traced: shape.trace,
        }
    }

    /// Whether a build of `shape` may launch a job of this layout: the same tiles and terms'
    /// format, and split words wherever the build writes them (a job with them may go to a
    /// build without).
    fn fits(self, shape: WalkedShape) -> Result<()> {
        if self.f32_terms != shape.f32_terms {
            bail!(
                "a walked job of {} terms launched on a build for {} terms",
                if self.f32_terms { "f32" } else { "f64" },
                if shape.f32_terms { "f32" } else { "f64" }
            );
        }
        if self.traced != shape.trace {
            bail!(
                "a walked job made for a build {} a trace launched on a build {} one",
                if self.traced { "with" } else { "without" },
                if shape.trace { "with" } else { "without" }
            );
        }
        if self.tile != shape.tile() || ((shape.split || shape.first) && !self.split_words) {
            bail!(
                "a walked job made for {}-term tiles{} launched on a build of {}-term tiles{}",
                self.tile,
                if self.split_words {
                    " with split words"
                } else {
                    ""
                },
                shape.tile(),
                if shape.split || shape.first {
                    " that writes split words"
                } else {
                    ""
                }
            );
        }
        Ok(())
    }
}

impl<T: WalkedTerm> WalkedJob<'_, T> {
    /// Tiles of each sum of the first group (of the sum, for a job of one).
    pub fn tiles(&self) -> u64 {
        self.layout[0].tiles
    }

    /// Sums in a launch.
    pub fn sums(&self) -> u32 {
        self.sums
    }

    /// The same buffers for another sum of as many terms (a job of one group, `terms` of the
    /// same length): its tags move on by one epoch, so no word of this job's launches reads as
    /// published.
    pub fn with_terms<'b>(self, terms: CudaView<'b, T>) -> Result<WalkedJob<'b, T>> {
        if self.groups.len() != 1 || terms.len() != self.groups[0].terms.len() {
            bail!(
                "a walked job of {} groups and {} terms given one buffer of {} terms",
                self.groups.len(),
                self.groups[0].terms.len(),
                terms.len()
            );
        }
        let g = &self.groups[0];
        let group = SumGroup {
            terms,
            count: g.count,
            len: g.len,
            pitch: g.pitch,
        };
        Ok(WalkedJob {
            groups: vec![group],
            layout: self.layout,
            table: self.table,
            table_fresh: false,
            sums: self.sums,
            tickets: self.tickets,
            plan: self.plan,
            units: self.units,
            splits: self.splits,
            paths: self.paths,
            ticket: self.ticket,
            tickets_issued: self.tickets_issued,
            epoch: self.epoch,
            out: self.out,
            start: self.start,
            traced: self.traced,
            producer_cap: self.producer_cap,
            layout_made: self.layout_made,
        })
    }

    /// The same job launched with at most `blocks` producer blocks (at least one), kept by
    /// [`WalkedJob::with_terms`]. No bit depends on it: every ticket is drawn by some
    /// producer whatever their number, and the host counts the tickets drawn past the last
    /// from the producers launched. It exists for the kill of a walker that trusts an earlier
    /// launch's word ([`super::walked_kill::stale_words`]): with one producer the walker,
    /// composing 1,024 tiles a step, is far ahead of the tiles published.
    pub fn cap_producers(mut self, blocks: u32) -> Self {
        debug_assert!(blocks >= 1, "a launch needs a producer");
        self.producer_cap = Some(blocks.max(1));
        self
    }

    /// The loop's start: +0 (the default) or -0 (`Iterator::sum`'s); other values are refused.
    pub fn set_start(&mut self, start: f64) -> Result<()> {
        if start != 0.0 {
            bail!("a walked sum starts from +0 or -0, not {start}");
        }
        self.start = T::start_bits(start);
        Ok(())
    }
}

/// Blocks of a launch of `sums` sums of `tickets` tiles on a device where `resident` blocks
/// stay resident: a walker a sum, and producers in the room the walkers leave (at least one),
/// never more than the tiles nor than `cap`.
fn grid_blocks(resident: u32, sums: u32, tickets: u64, cap: Option<u32>) -> u32 {
    let room = u64::from(resident.saturating_sub(sums).max(1));
    let room = cap.map_or(room, |c| room.min(u64::from(c.max(1))));
    sums + room.min(tickets.max(1)) as u32
}

/// The walked engine, compiled for one device.
pub struct WalkedSum {
    gpu: Gpu,
    kernel: CudaFunction,
    shape: WalkedShape,
    mutant: WalkedMutant,
    /// Blocks resident at once on the whole device.
    resident: u32,
    /// Registers per thread, as the driver reports them.
    pub registers: i32,
    /// Blocks resident per multiprocessor.
    pub blocks_per_multiprocessor: u32,
}

impl WalkedSum {
    /// The engine's build.
    pub fn new(gpu: &Gpu) -> Result<WalkedSum> {
        Self::build(gpu, WalkedShape::DEFAULT, WalkedMutant::None)
    }

    /// `mutant` in its shape ([`WalkedMutant::shape`]: the engine's, with the option it
    /// belongs to on).
    pub fn with_mutant(gpu: &Gpu, mutant: WalkedMutant) -> Result<WalkedSum> {
        Self::build(gpu, mutant.shape(), mutant)
    }

    /// Any shape and mutant.
    pub fn build(gpu: &Gpu, shape: WalkedShape, mutant: WalkedMutant) -> Result<WalkedSum> {
        let image = Self::image(&gpu.arch, shape, mutant)?;
        Self::from_image(gpu, shape, mutant, image)
    }

    /// The module of `shape` with `mutant` compiled for `arch` (`sm_XY`) in the form
    /// [`ModuleForm::from_env`] names, with no device: many builds can be compiled on as many
    /// threads and then loaded by [`WalkedSum::from_image`] ([`WalkedSum::build`] is the two
    /// in turn).
    pub fn image(arch: &str, shape: WalkedShape, mutant: WalkedMutant) -> Result<Ptx> {
        shape.check()?;
        ModuleForm::from_env()?.compile(
            "ordered_sum_walked",
            &[HEADER, "\n", SOURCE],
            &shape.defines(mutant),
            arch,
        )
    }

    /// Every `(shape, mutant)` of `builds`, in order: their modules compiled on rayon's
    /// threads ([`WalkedSum::image`]: NVRTC needs no device, and one build takes seconds,
    /// about 4.5 s on the H100 host by `walked_probe`'s log), then loaded one after another.
    pub fn build_all(gpu: &Gpu, builds: &[(WalkedShape, WalkedMutant)]) -> Vec<Result<WalkedSum>> {
        use rayon::prelude::*;
        let images: Vec<Result<Ptx>> = builds
            .par_iter()
            .map(|&(shape, mutant)| Self::image(&gpu.arch, shape, mutant))
            .collect();
        builds
            .iter()
            .zip(images)
            .map(|(&(shape, mutant), image)| {
                image.and_then(|image| Self::from_image(gpu, shape, mutant, image))
            })
            .collect()
    }

    /// Loads `image`, which [`WalkedSum::image`] made for `shape` and `mutant` on this
    /// device's architecture.
    pub fn from_image(
        gpu: &Gpu,
        shape: WalkedShape,
        mutant: WalkedMutant,
        image: Ptx,
    ) -> Result<WalkedSum> {
        shape.check()?;
        let m = gpu.load_image("ordered_sum_walked", image)?;
        let kernel = m.function("walked_sum")?;
        let dynamic = shape.dynamic_shared_bytes();
        if dynamic > 0 {
            // The static words and the buffer together pass the 48 KiB a block gets unasked.
            kernel
                .set_attribute(
                    CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                    dynamic as i32,
                )
                .context("dynamic shared memory of walked_sum")?;
        }
        let per_sm = kernel
            .occupancy_max_active_blocks_per_multiprocessor(shape.threads, dynamic as usize, None)
            .context("occupancy of walked_sum")?;
        let registers = kernel
            .get_attribute(CUfunction_attribute::CU_FUNC_ATTRIBUTE_NUM_REGS)
            .context("registers of walked_sum")?;
        let sms = gpu.multiprocessors()?;
        if per_sm == 0 {
            bail!("walked_sum: no block fits on a multiprocessor");
        }
        Ok(WalkedSum {
            gpu: gpu.clone(),
            kernel,
            shape,
            mutant,
            resident: per_sm * sms,
            registers,
            blocks_per_multiprocessor: per_sm,
        })
    }

    /// The device it runs on.
    pub fn gpu(&self) -> &Gpu {
        &self.gpu
    }

    /// The build's shape.
    pub fn shape(&self) -> WalkedShape {
        self.shape
    }

    /// The build's mutant.
    pub fn mutant(&self) -> WalkedMutant {
        self.mutant
    }

    /// The buffers for summing `terms` (from +0).
    pub fn job<'a, T: WalkedTerm>(&self, terms: CudaView<'a, T>) -> Result<WalkedJob<'a, T>> {
        let len = terms.len();
        self.segments_job(terms, 1, len, len)
    }

    /// The buffers for `segments` sums in one launch (each from +0), sum k over the `len`
    /// terms at `terms[k * pitch..]`. Refused as [`Self::groups_job`] refuses.
    pub fn segments_job<'a, T: WalkedTerm>(
        &self,
        terms: CudaView<'a, T>,
        segments: u32,
        len: usize,
        pitch: usize,
    ) -> Result<WalkedJob<'a, T>> {
        self.groups_job(vec![SumGroup {
            terms,
            count: segments,
            len,
            pitch,
        }])
    }

    /// The buffers for the sums of `groups` in one launch (each from +0), numbered group by
    /// group. Refused where a group is empty or its sums overlap or run past its buffer, where
    /// there are more than [`MAX_GROUPS`] groups, where the sums leave no resident block
    /// beside their walkers for a producer, or where the terms' type is not the build's
    /// ([`WalkedShape::f32_terms`]).
    pub fn groups_job<'a, T: WalkedTerm>(
        &self,
        groups: Vec<SumGroup<'a, T>>,
    ) -> Result<WalkedJob<'a, T>> {
        if T::F32 != self.shape.f32_terms {
            bail!(
                "a walked build for {} terms given {} terms",
                if self.shape.f32_terms { "f32" } else { "f64" },
                if T::F32 { "f32" } else { "f64" }
            );
        }
        if groups.is_empty() || groups.len() > MAX_GROUPS {
            bail!(
                "a walked launch holds 1 to {MAX_GROUPS} groups of sums, not {}",
                groups.len()
            );
        }
        let mut layout = Vec::with_capacity(groups.len());
        let (mut sums, mut tickets) = (0u64, 0u64);
        for g in &groups {
            let reach = (g.count as usize)
                .checked_sub(1)
                .and_then(|c| c.checked_mul(g.pitch))
                .and_then(|r| r.checked_add(g.len));
            if g.pitch < g.len || reach.is_none_or(|r| r > g.terms.len()) {
                bail!(
                    "{} sums of {} terms {} apart do not fit in {} terms",
                    g.count,
                    g.len,
                    g.pitch,
                    g.terms.len()
                );
            }
            let tiles = (g.len as u64).div_ceil(self.shape.tile());
            layout.push(GroupLayout {
                count: g.count,
                len: g.len as u64,
                pitch: g.pitch as u64,
                tiles,
                tickets_before: tickets,
                first_sum: sums,
            });
            sums += u64::from(g.count);
            tickets += tiles * u64::from(g.count);
        }
        if sums >= u64::from(self.resident) {
            bail!(
                "a walked launch holds 1 to {} sums (a walker block each and a producer), not {sums}",
                self.resident.saturating_sub(1)
            );
        }
        let s = self.gpu.stream();
        // A tile has one ticket and one cell of the plan, unit and path words: a group's
        // tickets and its cells cover the same range (count * tiles from tickets_before), the
        // cells of its sum k starting at tickets_before + k * tiles.
        let cells = tickets.max(1) as usize;
        Ok(WalkedJob {
            table: s.alloc_zeros::<u64>(GROUP_WORDS * groups.len())?,
            table_fresh: false,
            groups,
            layout,
            sums: sums as u32,
            tickets,
            plan: s.alloc_zeros::<u64>(2 * cells)?,
            units: s.alloc_zeros::<u64>(2 * cells)?,
            splits: s.alloc_zeros::<u64>(if self.shape.split || self.shape.first {
                4 * cells
            } else {
                4
            })?,
            paths: s.alloc_zeros::<u32>(cells)?,
            ticket: s.alloc_zeros::<u64>(1)?,
            tickets_issued: 0,
            epoch: 0,
            out: s.alloc_zeros::<u64>(out_words(self.shape.trace) * sums as usize)?,
            start: 0,
            traced: self.shape.trace,
            producer_cap: None,
            layout_made: JobLayout::of(self.shape),
        })
    }

    /// Writes the job's group table (the groups' device addresses and layout) to the device.
    fn write_table<T: WalkedTerm>(&self, job: &mut WalkedJob<T>) -> Result<()> {
        let s = self.gpu.stream();
        let mut words = Vec::with_capacity(GROUP_WORDS * job.groups.len());
        for (g, l) in job.groups.iter().zip(&job.layout) {
            let (address, _sync) = g.terms.device_ptr(s);
            words.extend_from_slice(&[
                address,
                l.len,
                l.pitch,
                l.tiles,
                l.tickets_before,
                l.tickets_before, // the kernel's words_before: a cell a ticket
                u64::from(l.count),
                l.first_sum,
            ]);
        }
        s.memcpy_htod(&words, &mut job.table)?;
        job.table_fresh = true;
        Ok(())
    }

    /// Blocks one launch of one sum of `tiles` tiles runs: the walker and at most as many
    /// producers as stay resident beside it (never more than the tiles).
    pub fn grid(&self, tiles: u64) -> u32 {
        grid_blocks(self.resident, 1, tiles, None)
    }

    /// Launches every sum of the job (one kernel). Nothing to launch for no terms. Refused
    /// where the job was made by a build of other tiles, or without split words for a build
    /// that writes them.
    pub fn launch<T: WalkedTerm>(&self, job: &mut WalkedJob<T>) -> Result<()> {
        job.layout_made.fits(self.shape)?;
        if job.tickets == 0 {
            return Ok(());
        }
        if !job.table_fresh {
            self.write_table(job)?;
        }
        if job.epoch + 1 >= EPOCH_LIMIT {
            let s = self.gpu.stream();
            s.memset_zeros(&mut job.plan)?;
            s.memset_zeros(&mut job.units)?;
            s.memset_zeros(&mut job.splits)?;
            s.memset_zeros(&mut job.ticket)?;
            s.memset_zeros(&mut job.out)?;
            job.tickets_issued = 0;
            job.epoch = 0;
        }
        job.epoch += 1;
        let grid = grid_blocks(self.resident, job.sums, job.tickets, job.producer_cap);
        let producers = grid - job.sums;
        let (base, epoch, ngroups) = (job.tickets_issued, job.epoch, job.groups.len() as u32);
        let mut b = self.gpu.stream().launch_builder(&self.kernel);
        b.arg(&job.table)
            .arg(&ngroups)
            .arg(&job.sums)
            .arg(&job.tickets)
            .arg(&mut job.plan)
            .arg(&mut job.units)
            .arg(&mut job.splits)
            .arg(&mut job.paths)
            .arg(&mut job.ticket)
            .arg(&base)
            .arg(&epoch)
            .arg(&job.start)
            .arg(&mut job.out);
        let cfg = LaunchConfig {
            grid_dim: (grid, 1, 1),
            block_dim: (self.shape.threads, 1, 1),
            shared_mem_bytes: self.shape.dynamic_shared_bytes(),
        };
        // SAFETY: the job's layout fits this build (checked above: its tiles and terms'
        // format, and split words where the build writes them); the table holds each group's
        // device address (a view the job borrows, alive while it is) and layout; the kernel
        // reads sum k of a group over terms[k * pitch..k * pitch + len), inside its view
        // (groups_job checked it), writes plan and units (2 words per tile of every sum, as
        // allocated), splits (4 words per tile, allocated so where the build splits; a build
        // without it never touches them), paths (one per tile of every sum), the ticket and
        // out (OUT_WORDS a sum).
        unsafe { b.launch(cfg) }.context("launching walked_sum")?;
        // Every producer block draws exactly one ticket past the last one (two, buffered).
        job.tickets_issued += job.tickets + u64::from(producers) * self.shape.draws_past_last();
        Ok(())
    }

    /// The last launch's total and counts, for a job of one sum (downloads them).
    pub fn result<T: WalkedTerm>(&self, job: &WalkedJob<T>) -> Result<WalkedTotal> {
        if job.sums != 1 {
            bail!(
                "a walked job of {} sums has {} results: ask for results",
                job.sums,
                job.sums
            );
        }
        Ok(self.results(job)?[0])
    }

    /// The last launch's totals and counts, one per sum in order (downloads them). Errors where
    /// any sum's walker or plan stalled.
    pub fn results<T: WalkedTerm>(&self, job: &WalkedJob<T>) -> Result<Vec<WalkedTotal>> {
        if job.tickets == 0 {
            return Ok(vec![
                Self::empty_total(job.start, T::F32);
                job.sums as usize
            ]);
        }
        let s = self.gpu.stream();
        let out = s.clone_dtoh(&job.out)?;
        let paths = s.clone_dtoh(&job.paths)?;
        let mut totals = Vec::with_capacity(job.sums as usize);
        for l in &job.layout {
            for k in 0..u64::from(l.count) {
                let sum = (l.first_sum + k) as usize;
                let at = (l.tickets_before + k * l.tiles) as usize;
                let stride = out_words(job.traced);
                let words = &out[sum * stride..(sum + 1) * stride];
                let p = &paths[at..at + l.tiles as usize];
                totals.push(Self::sum_total(job, sum, l.tiles, words, p)?);
            }
        }
        Ok(totals)
    }

    /// Sum `k`'s total (of `tiles` tiles) from its out words and path words.
    fn sum_total<T: WalkedTerm>(
        job: &WalkedJob<T>,
        k: usize,
        tiles: u64,
        out: &[u64],
        paths: &[u32],
    ) -> Result<WalkedTotal> {
        if tiles == 0 {
            return Ok(Self::empty_total(job.start, T::F32));
        }
        let stall = if out[5] >> 2 == u64::from(job.epoch) {
            out[5] & 3
        } else {
            0
        };
        let which = if job.sums == 1 {
            String::new()
        } else {
            format!(" (sum {k} of {})", job.sums)
        };
        match stall {
            0 => {}
            1 => bail!(
                "walked engine stalled{which}: the walker waited over a second for tile {}'s unit, or for a first tile's exact sum where its producer finishes it (tag {:#x}); a defect",
                out[6],
                out[7]
            ),
            code => bail!(
                "walked engine stalled{which}: tile {}'s plan waited over a second for tile {}'s tree sum (code {code}); a defect",
                out[6],
                out[7]
            ),
        }
        let count = |bit: u32| paths.iter().filter(|&&p| p & bit != 0).count() as u64;
        Ok(WalkedTotal {
            total: total_of(out[0], T::F32),
            bits: out[0],
            tiles,
            pair_tiles: count(PATH_TIE),
            finished_tiles: out[1],
            native_lanes: out[2],
            steps: out[3],
            sleeps: out[4],
            hinted_plans: count(PATH_HINTED),
            ranged_plans: count(PATH_RANGED),
            waited_plans: count(PATH_WAITED),
            far_plans: count(PATH_FAR),
            fast_rounds: out[14],
            pair_rounds: out[15],
            split_tiles: count(PATH_SPLIT),
            reread_plans: count(PATH_REREAD),
            split_ends: out[16],
            planned_finishes: out[17],
            walk_split_ends: out[18],
            trace: job.traced.then(|| WalkerTrace {
                walker_ns: out[11].saturating_sub(out[10]),
                finish_ns: out[12],
                producers_ns: out[13].saturating_sub(out[10]),
            }),
        })
    }

    /// The total of a sum of no terms: its start (bits in the terms' format).
    fn empty_total(start: u64, f32_terms: bool) -> WalkedTotal {
        WalkedTotal {
            total: total_of(start, f32_terms),
            bits: start,
            tiles: 0,
            pair_tiles: 0,
            finished_tiles: 0,
            native_lanes: 0,
            steps: 0,
            sleeps: 0,
            hinted_plans: 0,
            ranged_plans: 0,
            waited_plans: 0,
            far_plans: 0,
            fast_rounds: 0,
            pair_rounds: 0,
            split_tiles: 0,
            reread_plans: 0,
            split_ends: 0,
            planned_finishes: 0,
            walk_split_ends: 0,
            trace: None,
        }
    }

    /// Launches and downloads the result.
    pub fn run<T: WalkedTerm>(&self, job: &mut WalkedJob<T>) -> Result<WalkedTotal> {
        self.launch(job)?;
        self.result(job)
    }

    /// Launches and downloads every sum's result, in order.
    pub fn run_segments<T: WalkedTerm>(&self, job: &mut WalkedJob<T>) -> Result<Vec<WalkedTotal>> {
        self.launch(job)?;
        self.results(job)
    }

    /// The last launch's words of every tile, for probes of the plans: each tile's plan word
    /// and unit word as (value, tag) pairs and its path word, in ticket order (a job of one
    /// sum: tile order). Downloads them; what a word means is the kernel's (`WK_AGG`,
    /// `WK_APPROX`, `WK_UNIT` in `kernels/ordered_sum_walked.cu`). No result depends on them.
    pub fn tile_words<T: WalkedTerm>(&self, job: &WalkedJob<T>) -> Result<TileWords> {
        let s = self.gpu.stream();
        let pairs = |v: Vec<u64>| v.chunks_exact(2).map(|w| (w[0], w[1])).collect();
        let tiles = job.tickets as usize;
        let mut plan: Vec<(u64, u64)> = pairs(s.clone_dtoh(&job.plan)?);
        let mut units: Vec<(u64, u64)> = pairs(s.clone_dtoh(&job.units)?);
        let mut paths = s.clone_dtoh(&job.paths)?;
        plan.truncate(tiles);
        units.truncate(tiles);
        paths.truncate(tiles);
        Ok(TileWords { plan, units, paths })
    }

    /// The last launch's walker event log of sum `k`, for a job of a trace build
    /// ([`WalkedShape::trace`]); refused for any other job. Downloads the out words. No result
    /// depends on it.
    pub fn walker_events<T: WalkedTerm>(&self, job: &WalkedJob<T>, k: u32) -> Result<WalkerEvents> {
        if !job.traced || k >= job.sums {
            bail!(
                "walker events are logged by a trace build's job, for sums 0 to {}",
                job.sums.saturating_sub(1)
            );
        }
        let stride = out_words(true);
        let out = self.gpu.stream().clone_dtoh(&job.out)?;
        let words = &out[k as usize * stride..(k as usize + 1) * stride];
        let met = words[19];
        let kept = (met as usize).min(TRACE_EVENTS);
        let events = words[OUT_WORDS..OUT_WORDS + EVENT_WORDS * kept]
            .chunks_exact(EVENT_WORDS)
            .map(|e| WalkerEvent {
                kind: WalkerEventKind::of((e[0] & 0xff) as u8),
                aux: ((e[0] >> 8) & 0xff_ffff) as u32,
                tile: e[0] >> 32,
                ns: e[1],
                cycles: e[2],
            })
            .collect();
        Ok(WalkerEvents { events, met })
    }

    /// Convenience: the sum of host `terms` (f64, or f32 for an f32 build) from `start` (+0
    /// or -0), copied to the device.
    pub fn sum_of<T: WalkedTerm>(&self, terms: &[T], start: f64) -> Result<WalkedTotal> {
        let s = self.gpu.stream();
        let dev = if terms.is_empty() {
            s.alloc_zeros::<T>(1)?
        } else {
            s.clone_htod(terms)?
        };
        let mut job = self.job(dev.slice(0..terms.len()))?;
        job.set_start(start)?;
        self.run(&mut job)
    }
}

/// Compiles the walked kernel for `arch` with `shape` and `mutant` (no device needed; for
/// checks).
pub fn compile_for(
    arch: &str,
    shape: WalkedShape,
    mutant: WalkedMutant,
) -> Result<cudarc::nvrtc::Ptx> {
    super::super::compile(
        "ordered_sum_walked",
        &[HEADER, "\n", SOURCE],
        &shape.defines(mutant),
        arch,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A launch has a walker a sum and producers in the room left, at least one, at most the
    /// tiles, and at most the cap where one is set.
    #[test]
    fn launch_grids_count_walkers_and_capped_producers() {
        assert_eq!(grid_blocks(528, 1, 24_415, None), 528);
        assert_eq!(grid_blocks(528, 1, 10, None), 11);
        assert_eq!(grid_blocks(528, 1, 24_415, Some(1)), 2);
        assert_eq!(grid_blocks(528, 1, 24_415, Some(0)), 2, "a cap of 0 is one");
        assert_eq!(
            grid_blocks(528, 600, 1_000, None),
            601,
            "walkers fill it: one producer"
        );
        assert_eq!(grid_blocks(528, 18, 3_000, Some(64)), 82);
        assert_eq!(grid_blocks(528, 18, 3_000, Some(10_000)), 528);
    }

    /// A job's buffers fit builds of their tiles and terms' format, with split words or
    /// without where they have them, and only builds without split words (no splits, the
    /// first tile by the walker) where they do not; a trace build's only trace builds.
    #[test]
    fn job_layouts_fit_only_builds_they_were_made_for() {
        let d = WalkedShape::DEFAULT;
        let plain = WalkedShape {
            split: false,
            first: false,
            ..d
        };
        let first_only = WalkedShape { split: false, ..d };
        let traced = WalkedShape { trace: true, ..d };
        assert!(JobLayout::of(first_only).fits(d).is_ok());
        assert!(JobLayout::of(plain).fits(first_only).is_err());
        assert!(JobLayout::of(traced).fits(traced).is_ok());
        assert!(JobLayout::of(traced).fits(d).is_err());
        assert!(JobLayout::of(d).fits(traced).is_err());
        let small = WalkedShape { per_thread: 8, ..d };
        let f32_build = WalkedShape {
            f32_terms: true,
            ..d
        };
        assert!(JobLayout::of(d).fits(d).is_ok());
        assert!(JobLayout::of(d).fits(plain).is_ok());
        assert!(JobLayout::of(plain).fits(plain).is_ok());
        assert!(JobLayout::of(plain).fits(d).is_err());
        assert!(JobLayout::of(d).fits(small).is_err());
        assert!(JobLayout::of(small).fits(d).is_err());
        assert!(JobLayout::of(f32_build).fits(f32_build).is_ok());
        assert!(JobLayout::of(f32_build).fits(d).is_err());
        assert!(JobLayout::of(d).fits(f32_build).is_err());
    }

    /// The shapes the engine and its tests use pass the check; a fast finish without the
    /// transposed tile, a far anchor without the hint, a far anchor off the anchors' spacing,
    /// an odd per-thread count, a split without the transposed tile, a planned finish
    /// without it or beside the fast finish, and a segmented step without the planned pass,
    /// without finishes in the step, on tiles too small for its words or with a step that
    /// does not divide 64, and fetched splits without the segmented step do not.
    #[test]
    fn shape_check_refuses_inconsistent_shapes() {
        assert!(WalkedShape::DEFAULT.check().is_ok());
        assert!(WalkedShape::FIRST.check().is_ok());
        assert!(WalkedShape::BUFFERED.check().is_ok());
        assert_eq!(WalkedShape::BUFFERED.dynamic_shared_bytes(), 4096 * 8);
        assert_eq!(WalkedShape::DEFAULT.dynamic_shared_bytes(), 0);
        assert_eq!(WalkedShape::BUFFERED.draws_past_last(), 2);
        assert_eq!(WalkedShape::DEFAULT.draws_past_last(), 1);
        let refused = [
            WalkedShape {
                prefetch: true,
                ..WalkedShape::BUFFERED
            },
            WalkedShape::BUFFERED.with_f32_terms(),
            WalkedShape {
                transpose: false,
                split: false,
                planned: false,
                seg_step: false,
                fetch_splits: false,
                per_thread: 1024,
                ..WalkedShape::BUFFERED
            },
            WalkedShape {
                transpose: false,
                fast_finish: true,
                split: false,
                planned: false,
                seg_step: false,
                fetch_splits: false,
                ..WalkedShape::DEFAULT
            },
            WalkedShape {
                hint: Hint::Off,
                seg_step: false,
                fetch_splits: false,
                ..WalkedShape::DEFAULT
            },
            WalkedShape {
                far: 1020,
                seg_step: false,
                fetch_splits: false,
                ..WalkedShape::DEFAULT
            },
            WalkedShape {
                per_thread: 15,
                seg_step: false,
                fetch_splits: false,
                ..WalkedShape::DEFAULT
            },
            WalkedShape {
                transpose: false,
                split: true,
                planned: false,
                seg_step: false,
                fetch_splits: false,
                ..WalkedShape::DEFAULT
            },
            WalkedShape {
                transpose: false,
                split: false,
                planned: true,
                seg_step: false,
                fetch_splits: false,
                ..WalkedShape::DEFAULT
            },
            WalkedShape {
                fast_finish: true,
                split: false,
                planned: true,
                seg_step: false,
                fetch_splits: false,
                ..WalkedShape::DEFAULT
            },
            WalkedShape {
                planned: false,
                ..WalkedShape::DEFAULT
            },
            WalkedShape {
                finish_in_step: false,
                ..WalkedShape::DEFAULT
            },
            WalkedShape {
                per_thread: 8,
                ..WalkedShape::DEFAULT
            },
            WalkedShape {
                step: 3,
                ..WalkedShape::DEFAULT
            },
            WalkedShape {
                seg_step: false,
                fetch_splits: true,
                ..WalkedShape::DEFAULT
            },
        ];
        for s in refused {
            assert!(s.check().is_err(), "{s:?} passed the check");
        }
    }
}
