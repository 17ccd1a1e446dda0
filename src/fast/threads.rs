//! The fast engine over rayon's threads: blocks taken in order, a look-back for the plan, the
//! terms read once from memory, and a walk that passes the exact sum from block to block.
//!
//! 1. A ticket gives each thread the next block of [`Shape::block_chunks`] chunks, so every
//!    block a thread waits for has been taken by a running thread.
//! 2. The thread estimates the sum before its block without waiting ([`look_back_estimated`]):
//!    back over the earlier blocks to the nearest one whose walk has published its exact end,
//!    adding each planned block's aggregate, and for each run of blocks not planned yet an
//!    estimate interpolated between the planned blocks on either side of the run (its own
//!    block's first chunk times its chunks above the top run, the walked block's aggregate
//!    below a run that starts at the look-back's base; [`gap_estimate`]), so a growing
//!    stream's blocks in flight count as what they are likely worth, not as their largest
//!    neighbour. Only where nothing before the block is known (the first blocks
//!    of a sum, which may hold its largest terms) does it wait, for the block before it to
//!    plan. A planner more than `4 x threads` blocks ahead of the walk waits
//!    (walking, if it can) before it starts, so a look-back covers a bounded number of blocks.
//!    The estimate is a sum of doubles in an order that depends on timing, so the plan may
//!    differ from run to run.
//! 3. From that estimate it guesses each chunk's binade and sign and forms the chunk's unit
//!    for them in its one read of the block from memory (the one-thread engine's pass): from a
//!    positive guess the unit of non-negative terms, or for a chunk with negative terms (and
//!    from a negative guess) the signed unit of [`super::signed`] (its increment and the
//!    bounds of its running offsets). The guess for the next chunk is the guess plus this
//!    unit, as the loop rounds (where the unit does not form or apply, plus the chunk's plain
//!    sum, read from L1). The block's aggregate (the guess's move over it) is published with
//!    its planned status. The first form of this plan ([`Checks::one_read_plan`] off, kept as
//!    a timing switch) read the block for its chunks' plain sums first, published their
//!    aggregate, waited for every earlier block's aggregate (Merrill and Garland's decoupled
//!    look-back), then formed the units from a second read in L2: one thread's read of
//!    memory plus a pass in L2 for every block, where this form costs about the read alone.
//! 4. It marks the block planned and takes the walk if no other thread holds it: the walk
//!    goes from block to block in order for as long as the next one is planned, starting from
//!    the exact sum after the block before (the walk's start before block 0: `+0` for a sum,
//!    any value for the prefix sums of the `cumsum` module, which read these exact sums through
//!    [`block_starts_par`]). A unit applies where the
//!    exact running sum is in its planned binade and stays below the binade's top (a signed
//!    unit: where the exact sum has its planned sign and binade and its bounds hold from the
//!    exact significand); elsewhere
//!    the chunk is taken from the exact sum as one thread takes it ([`super::step`]: its unit
//!    re-formed for the walked binade, else term by term). An infinite sum is kept through a
//!    chunk, unread, where the chunk's plain sum shows that no term is NaN or the infinity of
//!    the other sign (`KEEPS_POSITIVE`). After each block the walk publishes its exact sum
//!    (for the look-backs of step 2). No thread waits for the walk: one that finds it taken
//!    goes on to its next ticket, and the holder, after giving the walk back, looks once more
//!    at the next block (see `Walker::try_walk`).
//!
//! Why the bits are the loop's. Write `S_k` for the loop's sum after chunk `k`. One walk state (the
//! next block and the exact sum before it) passes from thread to thread under a token (acquire on
//! taking, release on giving back) and only its holder changes it, so the blocks are walked once
//! each, in order, from its start (`+0` for a sum); by induction on the block the walk's sum is `S` at the block's first
//! chunk. The walk reads a block's units only after the status that says they are planned (acquire
//! after the planner's release). Each chunk then moves the walk's sum from `S_(k-1)` to `S_k`: a
//! unit applies only where `S_(k-1)` lies in the binade it was formed for and the end stays at or
//! below the binade's top, where a unit is exact (`crate::unit`, [`super`]); a signed unit only
//! where `S_(k-1)` has the sign and binade it was formed for and its running offsets' bounds,
//! added to `S_(k-1)`'s own significand, stay inside the binade, where it is exact
//! ([`super::signed`]: the bounds are checked in the walk, from the exact start, never in the
//! plan); an infinite sum is
//! kept only through a chunk with no NaN and no infinity of the other sign, where every add gives
//! it back; anything else goes through [`super::step`], exact from any start. The plan (look-back
//! values, guesses, plain sums, which may differ from run to run) only decides which chunks carry a
//! unit for which binade, never a bit of the result; the thread count and the [`Shape`] only decide
//! which thread plans and walks which block. A pool of one thread takes the one-thread engine
//! ([`super::ordered_sum_fast`]) directly.
//!
//! Guarantee: the bits of the loop for every input, thread count and [`Shape`]; the plan only
//! moves chunks between "unit" and "re-formed or term by term".

use std::sync::atomic::{fence, AtomicBool, AtomicU64, AtomicU8, AtomicUsize, Ordering};
use std::sync::Mutex;

use super::scan::{chunk_unit_hinted, FastUnit, MAX_CHUNK};
use super::signed::{apply_signed, signed_unit, SignedUnit};
use super::{
    add_terms, apply, fast_field, infinite_sign, ordered_sum_fast_from, scale_of, signed_field,
    step, Checks, FastTerm, Hints, Step, CHUNK,
};
use crate::format::Format;

/// The shape of the threaded engine's work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Terms per chunk (`1..=MAX_CHUNK`).
    pub chunk: usize,
    /// Chunks per block (at least 1): a block's terms should fit in one core's L2.
    pub block_chunks: usize,
}

impl Shape {
    /// 1,024-term chunks in blocks of 32 (256 KiB of f64 terms).
    pub const DEFAULT: Shape = Shape {
        chunk: CHUNK,
        block_chunks: 32,
    };

    /// The fewest chunks a block of [`Shape::for_terms`] holds.
    pub const MIN_BLOCK_CHUNKS: usize = 32;
    /// The most chunks a block of [`Shape::for_terms`] holds (1 MiB of f64 terms: one Xeon
    /// core's L2 holds it twice).
    pub const MAX_BLOCK_CHUNKS: usize = 128;

    /// The shape [`ordered_sum_par`] takes for `terms` terms on `threads` threads: 1,024-term
    /// chunks in blocks of [`Shape::MIN_BLOCK_CHUNKS`], grown up to
    /// [`Shape::MAX_BLOCK_CHUNKS`] while every thread still gets at least eight blocks. Each
    /// block costs a look-back, a hold of the walk and a ticket; on the H200 host's 16 threads
    /// at 10^8 f64 terms blocks of 128 chunks took 14.0 ms against 18.5 for blocks of 32
    /// (`reports/fast-probe-avx512-h200-host`). The shape moves time only, never a bit.
    pub fn for_terms(terms: usize, threads: usize) -> Shape {
        let chunks = terms.div_ceil(CHUNK);
        let per_thread = chunks / (8 * threads.max(1));
        Shape {
            chunk: CHUNK,
            block_chunks: per_thread.clamp(Self::MIN_BLOCK_CHUNKS, Self::MAX_BLOCK_CHUNKS),
        }
    }

    fn valid(self) -> bool {
        (1..=MAX_CHUNK).contains(&self.chunk) && self.block_chunks >= 1
    }
}

/// A sum of the threaded engine and how it went.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FastSum<T> {
    /// The loop's bits.
    pub total: T,
    /// Chunks added term by term (the rest applied a unit).
    pub native_chunks: usize,
    /// Chunks whose planned unit did not apply from the exact sum (a wrong plan, a refused
    /// term or a crossing); each was then taken as one thread takes it. 0 where the sum ran
    /// on one thread, which needs no plan.
    pub replanned_chunks: usize,
    /// Chunks in all.
    pub chunks: usize,
    /// Wall time, summed over the threads, spent holding the walk (nanoseconds; 0 on one
    /// thread): where it nears the whole sum's time, the walk is what the threads wait on.
    pub walk_ns: u64,
    /// Times a planner found itself more than `4 x threads` blocks ahead of the walk and
    /// waited before planning (0 on one thread).
    pub lead_waits: u64,
}

/// The sequential sum of `terms` over the threads of rayon's current pool.
///
/// Guarantee: the same bits as [`super::ordered_sum_fast`] (the loop's) for every input and
/// every number of threads; the threads only change the time.
pub fn ordered_sum_par<T: FastTerm>(terms: &[T]) -> T {
    ordered_sum_par_report(terms).total
}

/// [`ordered_sum_par`], with its counts; in blocks of [`Shape::for_terms`].
pub fn ordered_sum_par_report<T: FastTerm>(terms: &[T]) -> FastSum<T> {
    let shape = Shape::for_terms(terms.len(), rayon::current_num_threads());
    walk_par(terms, Checks::ALL, shape)
}

/// [`ordered_sum_par`] with `checks` (all of them for the exact engine) and `shape`.
pub fn ordered_sum_par_with<T: FastTerm>(terms: &[T], checks: Checks, shape: Shape) -> FastSum<T> {
    walk_par(terms, checks, shape)
}

/// A chunk's planned unit: the binade field of the magnitude it was formed for and the unit
/// (for a non-negative sum and chunk, [`super::scan`]'s pair; for either sign, the signed
/// path's increment and bounds), or none (the walk takes the chunk from the exact sum); and
/// which infinite sums the chunk leaves as they are ([`KEEPS_POSITIVE`], [`KEEPS_NEGATIVE`]).
#[derive(Clone, Copy, Debug)]
struct Slot {
    field: u32,
    plan: Planned,
    keeps: u8,
}

/// What [`Slot`] planned.
#[derive(Clone, Copy, Debug)]
enum Planned {
    /// Nothing: the walk takes the chunk from the exact sum.
    None,
    /// A unit of non-negative terms for a positive sum in the slot's binade.
    Unit(FastUnit),
    /// A signed unit for a sum of sign `negative` whose magnitude is in the slot's binade.
    Signed { negative: bool, unit: SignedUnit },
}

const EMPTY: Slot = Slot {
    field: 0,
    plan: Planned::None,
    keeps: 0,
};

/// [`Slot::keeps`]: no term of the chunk is NaN or `-inf`, so `+inf` stays `+inf`. The chunk's
/// plain sum shows it: a NaN term makes any sum of it NaN, and a `-inf` term makes it `-inf`
/// or NaN, so a plain sum above `-inf` rules both out.
const KEEPS_POSITIVE: u8 = 1;
/// [`Slot::keeps`]: no term is NaN or `+inf` (the plain sum is below `+inf`).
const KEEPS_NEGATIVE: u8 = 2;

/// The [`Slot::keeps`] bits of a chunk whose plain sum is `sum`.
fn keeps_of(sum: f64) -> u8 {
    (if sum > f64::NEG_INFINITY {
        KEEPS_POSITIVE
    } else {
        0
    }) | (if sum < f64::INFINITY {
        KEEPS_NEGATIVE
    } else {
        0
    })
}

/// A block's published state: nothing yet, its aggregate (a plain sum, for the plan), its
/// units planned as well, or the walk's exact sum after it. Each value is stored before the
/// status that announces it (release), and read after it (acquire); the status only rises.
struct Published {
    status: AtomicU8,
    aggregate: AtomicU64,
    exact: AtomicU64,
}

const NOTHING: u8 = 0;
const AGGREGATE: u8 = 1;
const PLANNED: u8 = 2;
const EXACT: u8 = 3;

impl Published {
    fn new() -> Published {
        Published {
            status: AtomicU8::new(NOTHING),
            aggregate: AtomicU64::new(0),
            exact: AtomicU64::new(0),
        }
    }

    fn publish(&self, what: u8, bits: u64) {
        match what {
            AGGREGATE => self.aggregate.store(bits, Ordering::Relaxed),
            EXACT => self.exact.store(bits, Ordering::Relaxed),
            _ => {}
        }
        self.status.store(what, Ordering::Release);
    }

    /// What a look-back reads of this block at `status` (a value it loaded): the walk's exact
    /// sum after it (where `checks.exact_plan` lets the plan use it), its aggregate (any status
    /// from `AGGREGATE` on), or nothing yet.
    fn seen<T: FastTerm>(&self, status: u8, checks: Checks) -> Seen {
        match status {
            EXACT if checks.exact_plan => {
                let exact: T = <T::F as Format>::from_bits(self.exact.load(Ordering::Relaxed));
                Seen::Exact(exact.widen())
            }
            NOTHING => Seen::Nothing,
            _ => Seen::Aggregate(f64::from_bits(self.aggregate.load(Ordering::Relaxed))),
        }
    }

    /// Waits until the status is at least `what`, and returns it.
    fn wait_for(&self, what: u8) -> u8 {
        let mut spins = 0u32;
        loop {
            let status = self.status.load(Ordering::Acquire);
            if status >= what {
                return status;
            }
            pause(&mut spins);
        }
    }
}

/// A block as a look-back sees it ([`Published::seen`]).
enum Seen {
    Exact(f64),
    Aggregate(f64),
    Nothing,
}

/// One round of waiting: spin a little, then give the core away.
fn pause(spins: &mut u32) {
    *spins += 1;
    if *spins < 64 {
        std::hint::spin_loop();
    } else {
        std::thread::yield_now();
    }
}

/// The approximate sum of every block before `block`, from the walk's start `origin` (`+0`
/// for a sum), for the two-read plan: every block's aggregate is waited for.
fn look_back<T: FastTerm>(states: &[Published], block: usize, checks: Checks, origin: f64) -> f64 {
    let mut prefix = 0.0f64;
    let mut j = block;
    while j > 0 {
        j -= 1;
        let state = &states[j];
        let status = if checks.lookback_waits {
            state.wait_for(AGGREGATE)
        } else {
            state.status.load(Ordering::Acquire) // the plan mutant: nothing read as zero
        };
        match state.seen::<T>(status, checks) {
            Seen::Exact(exact) => return prefix + exact,
            Seen::Aggregate(aggregate) => prefix += aggregate,
            Seen::Nothing => {}
        }
    }
    origin + prefix
}

/// The approximate sum of every block before `block`, from the walk's start `origin`, for the
/// one-read plan: back to the nearest block the walk has finished (its exact sum), adding each
/// planned block's aggregate, and for each run of blocks not planned yet an estimate
/// interpolated between the planned blocks on either side of the run ([`gap_estimate`]; past
/// the run's top, `own()`: an estimate from this block's own terms; below a run that starts at
/// the base, the walked block's own aggregate). It waits only where
/// nothing before the block is known (no exact sum, no planned block: the first blocks of a
/// sum), for the block before it to plan. Only a guess: the plan it starts may be wrong, never
/// a bit of the sum.
fn look_back_estimated<T: FastTerm>(
    states: &[Published],
    block: usize,
    checks: Checks,
    origin: f64,
    own: impl FnOnce() -> f64,
) -> f64 {
    // The blocks from `block - 1` back: `Some(aggregate)` where planned, `None` where not yet.
    let mut seen: Vec<Option<f64>> = Vec::new();
    loop {
        seen.clear();
        let (mut base, mut base_block) = (None, None);
        let mut j = block;
        while j > 0 {
            j -= 1;
            let state = &states[j];
            match state.seen::<T>(state.status.load(Ordering::Acquire), checks) {
                Seen::Exact(exact) => {
                    // The walked block's own aggregate, stored before its planned status (so
                    // visible after the acquire above): the side below a run that starts here,
                    // unless it is the sum's first block (`estimated_blocks`).
                    base = Some(exact);
                    base_block =
                        (j > 0).then(|| f64::from_bits(state.aggregate.load(Ordering::Relaxed)));
                    break;
                }
                Seen::Aggregate(aggregate) => seen.push(Some(aggregate)),
                Seen::Nothing => seen.push(None),
            }
        }
        let missing = seen.iter().filter(|a| a.is_none()).count();
        if missing > 0 && missing == seen.len() && base.is_none() {
            // Nothing is known before this block, not even the sum's start (which may hold
            // its largest terms): wait for the block before to plan, once, at the start.
            states[block - 1].wait_for(PLANNED);
            continue;
        }
        let origin = base.unwrap_or(origin);
        if missing == 0 {
            return origin + seen.iter().flatten().sum::<f64>();
        }
        seen.reverse(); // oldest first
                        // Without a walked base the look-back went back to block 0, the oldest entry.
        let first_block_seen = base.is_none();
        return origin + estimated_blocks(&seen, first_block_seen, base_block, own());
    }
}

/// The sum of `blocks` (oldest first; `None` for a block not planned yet), each missing block
/// estimated by [`gap_estimate`] from the planned blocks around its run, the block before the
/// first being worth `before` (the walked block at the look-back's base, none at a sum's
/// start) and the block after the last `after`. The sum's first block (`blocks[0]` where
/// `first_is_block_0`; the caller passes no `before` where the base is block 0) is never a
/// side of a run: its aggregate holds the sum's first terms, which may be its largest (the
/// reason the first blocks wait in [`look_back_estimated`]), and a run interpolated from it
/// takes a level for a rate: a sum of 2^25 - 2^20 and then terms that the f32 loop rounds
/// away (`tests/fast.rs`) had its third block planned a binade up, half of block 0's
/// aggregate counted for the one block in flight between them.
fn estimated_blocks(
    blocks: &[Option<f64>],
    first_is_block_0: bool,
    before: Option<f64>,
    after: f64,
) -> f64 {
    let mut sum = 0.0;
    let mut i = 0;
    while i < blocks.len() {
        if let Some(a) = blocks[i] {
            sum += a;
            i += 1;
            continue;
        }
        let run_end = blocks[i..]
            .iter()
            .position(Option::is_some)
            .map_or(blocks.len(), |k| i + k);
        let below = match i {
            0 => before,
            1 if first_is_block_0 => None,
            _ => blocks[i - 1],
        };
        let above = blocks.get(run_end).copied().flatten().unwrap_or(after);
        sum += gap_estimate(below, above, run_end - i);
        i = run_end;
    }
    sum
}

/// The estimated sum of a run of `r` blocks not planned yet, between a planned block worth
/// `below` (none where the run starts at the look-back's base) and one worth `above`: the
/// values of a geometric progression from `below` to `above` at the run's `r` inner points,
/// where both are positive or both negative (a stream that grows or shrinks as a power, the
/// geometric stream's case, is followed exactly; a steady one gives `r` times its block), else
/// of a straight line; `r` times `above` where nothing is below. The first form of this
/// estimate, `r` times the smaller of the nearest planned block and `above`, was off by about
/// half the prefix on a stream that doubles every 1,024 chunks with 16 blocks in flight
/// (`reports/threads-estimate`), and the plans it started sent a sixth of the chunks to the
/// walk.
fn gap_estimate(below: Option<f64>, above: f64, r: usize) -> f64 {
    debug_assert!(r > 0);
    let Some(below) = below else {
        return r as f64 * above;
    };
    let steps = (r + 1) as f64;
    if below * above > 0.0 && (above / below).is_finite() {
        let q = (above / below).powf(1.0 / steps);
        let mut v = below;
        let mut sum = 0.0;
        for _ in 0..r {
            v *= q;
            sum += v;
        }
        sum
    } else {
        // The straight line's r inner points sum to r times the mean of its ends.
        r as f64 * 0.5 * (below + above)
    }
}

/// Steps 2 and 3 for one block: its chunks' planned units into `slots`. With
/// [`Checks::one_read_plan`] the block is read once ([`plan_block_one_read`]); else its plain
/// sums come first, and its units from a second read in L2 ([`plan_block_two_reads`]).
#[allow(clippy::too_many_arguments)]
fn plan_block<T: FastTerm>(
    block_terms: &[T],
    block: usize,
    states: &[Published],
    slots: &mut [Slot],
    sums: &mut Vec<f64>,
    shape: Shape,
    checks: Checks,
    origin: f64,
) {
    debug_assert!(slots.len() == block_terms.len().div_ceil(shape.chunk));
    if checks.one_read_plan {
        plan_block_one_read(block_terms, block, states, slots, shape, checks, origin);
    } else {
        plan_block_two_reads(
            block_terms,
            block,
            states,
            slots,
            sums,
            shape,
            checks,
            origin,
        );
    }
}

/// The plan of step 3 for one block, as first written: each chunk's plain sum (the block's
/// read from memory), the block's aggregate published, the look-back (which waits for every
/// predecessor's aggregate), then each chunk's unit from the block's second read (in L2).
#[allow(clippy::too_many_arguments)]
fn plan_block_two_reads<T: FastTerm>(
    block_terms: &[T],
    block: usize,
    states: &[Published],
    slots: &mut [Slot],
    sums: &mut Vec<f64>,
    shape: Shape,
    checks: Checks,
    origin: f64,
) {
    sums.clear();
    sums.extend(block_terms.chunks(shape.chunk).map(T::plain_sum));
    let aggregate: f64 = sums.iter().sum();
    states[block].publish(AGGREGATE, aggregate.to_bits());
    let mut running = look_back::<T>(states, block, checks, origin);
    let mut hints = Hints::default();
    for ((chunk, &sum), slot) in block_terms.chunks(shape.chunk).zip(sums.iter()).zip(slots) {
        let guess = <T::F as Format>::from_f64(running);
        *slot = Slot {
            keeps: keeps_of(sum),
            ..EMPTY
        };
        let next = plan_slot(chunk, guess, slot, checks, &mut hints);
        running = next.map_or(running + sum, T::widen);
    }
}

/// The plan of step 3 for one block in one read of it: the start estimated by
/// [`look_back_estimated`] (no wait), then chunk by chunk the unit for the guessed binade and
/// sign, read from memory once; a chunk's plain sum is formed (from L1) only where the guess
/// cannot follow its unit. Publishes the block's aggregate (the guess's move over the block)
/// with its `PLANNED` status.
///
/// A chunk's [`Slot::keeps`] without its plain sum: a unit forms only from finite terms (the
/// scan's bound refuses a NaN or infinite term, and so does the signed scan's mass bound), and
/// `inf + x = inf` for every finite `x`, so a chunk with a unit keeps both infinite sums. The
/// start is a guess like any other: where it is off, the walk finds the chunk's planned
/// binade or sign wrong and re-forms the chunk from the exact sum (step 4); a bit never
/// depends on it.
fn plan_block_one_read<T: FastTerm>(
    block_terms: &[T],
    block: usize,
    states: &[Published],
    slots: &mut [Slot],
    shape: Shape,
    checks: Checks,
    origin: f64,
) {
    let own = || {
        // No predecessor has planned: this block's first chunk, as if every chunk were like it.
        let first = &block_terms[..block_terms.len().min(shape.chunk)];
        T::plain_sum(first) * shape.block_chunks as f64
    };
    // The guess in the terms' format: the aggregate is its move, not the rounding of an
    // estimate to that format (which, added block after block, would drift).
    let start =
        <T::F as Format>::from_f64(look_back_estimated::<T>(states, block, checks, origin, own))
            .widen();
    let mut running = start;
    let mut hints = Hints::default();
    for (chunk, slot) in block_terms.chunks(shape.chunk).zip(slots) {
        let guess = <T::F as Format>::from_f64(running);
        *slot = EMPTY;
        let next = plan_slot(chunk, guess, slot, checks, &mut hints);
        // The mutant without `keeps_need_unit` marks every chunk as keeping infinite sums.
        let keeps_all = !matches!(slot.plan, Planned::None) || !checks.keeps_need_unit;
        if let (true, Some(next)) = (keeps_all, next) {
            slot.keeps = KEEPS_POSITIVE | KEEPS_NEGATIVE;
            running = next.widen();
            continue;
        }
        let sum = T::plain_sum(chunk);
        slot.keeps = if keeps_all {
            KEEPS_POSITIVE | KEEPS_NEGATIVE
        } else {
            keeps_of(sum)
        };
        running = next.map_or(running + sum, T::widen);
    }
    // Announced by the `PLANNED` status the caller stores next (release).
    states[block]
        .aggregate
        .store((running - start).to_bits(), Ordering::Relaxed);
}

/// A chunk's plan from the guessed sum `guess` into `slot` (its binade field and unit), and
/// the guess after the chunk where it follows the unit (None: the plan adds the chunk's plain
/// sum instead).
fn plan_slot<T: FastTerm>(
    chunk: &[T],
    guess: T,
    slot: &mut Slot,
    checks: Checks,
    hints: &mut Hints,
) -> Option<T> {
    if let Some((field, negative)) = signed_field::<T::F>(guess) {
        slot.field = field;
        slot.plan = plan_chunk(chunk, scale_of::<T::F>(field), negative, checks, hints);
    }
    match slot.plan {
        _ if !checks.unit_plan => None,
        Planned::None => None,
        Planned::Unit(unit) => apply::<T::F>(guess, slot.field, unit, checks),
        Planned::Signed { unit, .. } => apply_signed::<T::F>(guess, slot.field, unit, checks),
    }
}

/// A chunk's unit for the binade of a guessed sum of sign `negative` (`scale` its
/// `2^(P - e)`): from a positive guess the unit of non-negative terms, else (negative terms)
/// the signed unit; from a negative guess the signed unit. After a chunk planned signed the
/// next tries the signed unit first (`hints.signed`), after one with a tie the bit-mask pass
/// runs at once (`hints.ties`): each a second look at the chunk spared, never a bit changed.
fn plan_chunk<T: FastTerm>(
    chunk: &[T],
    scale: f64,
    negative: bool,
    checks: Checks,
    hints: &mut Hints,
) -> Planned {
    let signed = |hints: &mut Hints| {
        let unit = checks
            .signed_path
            .then(|| signed_unit(chunk, scale, negative, checks))
            .flatten();
        hints.signed = unit.is_some();
        unit.map(|unit| Planned::Signed { negative, unit })
    };
    let non_negative = |hints: &mut Hints| {
        let (unit, had) = chunk_unit_hinted(chunk, scale, checks, hints.ties);
        hints.ties = had;
        unit.map(Planned::Unit)
    };
    let planned = if negative {
        signed(hints)
    } else if hints.signed {
        signed(hints).or_else(|| non_negative(hints))
    } else {
        non_negative(hints).or_else(|| signed(hints))
    };
    planned.unwrap_or(Planned::None)
}

/// Chunks of one block that the walk took from the exact sum instead of their planned unit,
/// and those of them added term by term.
#[derive(Clone, Copy, Debug, Default)]
struct Counts {
    replanned: usize,
    native: usize,
}

/// Step 4 for one block: the walk over its planned units from the exact sum `s` before it.
fn walk_block<T: FastTerm>(
    block_terms: &[T],
    slots: &[Slot],
    mut s: T,
    chunk: usize,
    checks: Checks,
    counts: &mut Counts,
) -> T {
    let mut hints = Hints::default();
    for (c, slot) in block_terms.chunks(chunk).zip(slots) {
        if let Some(positive) = infinite_sign(s) {
            let bit = if positive {
                KEEPS_POSITIVE
            } else {
                KEEPS_NEGATIVE
            };
            if !checks.infinity_terms || slot.keeps & bit != 0 {
                continue; // the chunk leaves the infinite sum as it is, unread
            }
        }
        let walked = fast_field::<T::F>(s);
        let applied = match slot.plan {
            Planned::None => None,
            Planned::Unit(unit) => (!checks.field || walked == Some(slot.field))
                .then(|| apply::<T::F>(s, slot.field, unit, checks))
                .flatten(),
            Planned::Signed { negative, unit } => (!checks.signed_key
                || signed_field::<T::F>(s) == Some((slot.field, negative)))
            .then(|| apply_signed::<T::F>(s, slot.field, unit, checks))
            .flatten(),
        };
        if let Some(next) = applied {
            s = next;
            continue;
        }
        counts.replanned += 1;
        let planned_field = !matches!(slot.plan, Planned::None);
        let (next, how) = match walked {
            // The mutant: the unit re-formed for the planned binade, applied in the walked one.
            Some(field) if !checks.reform_walked && planned_field && slot.field != field => {
                let (unit, had) =
                    chunk_unit_hinted(c, scale_of::<T::F>(slot.field), checks, hints.ties);
                hints.ties = had;
                match unit.and_then(|u| apply::<T::F>(s, field, u, checks)) {
                    Some(next) => (next, Step::Unit),
                    None => (add_terms(s, c), Step::NativeRefused),
                }
            }
            _ => step(s, c, checks, &mut hints),
        };
        s = next;
        counts.native += usize::from(how.is_native());
    }
    s
}

/// The walk's state, held by one thread at a time (the one that holds [`Walker::token`]).
struct WalkState<T> {
    /// The next block to walk.
    next: usize,
    /// The exact sum before it.
    sum: T,
    counts: Counts,
}

/// The walk over the blocks, taken by whichever thread finds the next block planned: no
/// thread waits for another's walk.
struct Walker<'a, T> {
    terms: &'a [T],
    states: &'a [Published],
    groups: &'a [Mutex<&'a mut [Slot]>],
    token: AtomicBool,
    state: Mutex<WalkState<T>>,
    /// Blocks walked (a copy of `state.next` for the planners' back-pressure).
    walked: AtomicUsize,
    /// [`FastSum::walk_ns`].
    walk_ns: AtomicU64,
    shape: Shape,
    checks: Checks,
}

impl<T: FastTerm> Walker<'_, T> {
    /// Walks every planned block from the next one on, unless another thread is walking.
    ///
    /// A planner stores its block's status, then (after a sequentially consistent fence)
    /// tries the token; the walker gives the token back, then (after such a fence) looks at
    /// the next block's status. Of two fenced store-then-load pairs one sees the other's
    /// store, so a block planned while the token was held is walked by someone.
    fn try_walk(&self) {
        let blocks = self.states.len();
        let block_terms = self.shape.chunk * self.shape.block_chunks;
        loop {
            if self
                .token
                .compare_exchange(false, true, Ordering::Acquire, Ordering::Relaxed)
                .is_err()
            {
                return;
            }
            let held = std::time::Instant::now();
            let next = {
                let mut w = self.state.lock().unwrap_or_else(|p| p.into_inner());
                while w.next < blocks
                    && self.states[w.next].status.load(Ordering::Acquire) >= PLANNED
                {
                    let b = w.next;
                    let start = b * block_terms;
                    let these = &self.terms[start..self.terms.len().min(start + block_terms)];
                    let slots = self.groups[b].lock().unwrap_or_else(|p| p.into_inner());
                    let (sum, mut counts) = (w.sum, w.counts);
                    w.sum = walk_block(
                        these,
                        &slots,
                        sum,
                        self.shape.chunk,
                        self.checks,
                        &mut counts,
                    );
                    w.counts = counts;
                    self.states[b].publish(EXACT, <T::F as Format>::to_bits(w.sum));
                    w.next = b + 1;
                    self.walked.store(w.next, Ordering::Release);
                }
                w.next
            };
            self.walk_ns
                .fetch_add(held.elapsed().as_nanos() as u64, Ordering::Relaxed);
            self.token.store(false, Ordering::Release);
            fence(Ordering::SeqCst);
            if next >= blocks || self.states[next].status.load(Ordering::Acquire) < PLANNED {
                return;
            }
        }
    }
}

/// The loop's running sum before each block of `shape.chunk * shape.block_chunks` terms of
/// `terms`, from the running sum `start` (`+0.0` for the loop, `-0.0` or a first term for the
/// other starts of the `cumsum` module), and the sum after the last block, over the threads of
/// rayon's current pool.
///
/// This exposes the exact machinery of [`ordered_sum_par`] for ordered prefix sums: the walk
/// already holds the exact sum at every block boundary (the argument in the module doc, from
/// `start` instead of `+0`); here it is kept. A pool of one thread, or a single block, takes
/// the one-thread engine block by block.
///
/// Guarantee: `starts[b]` has the bits of `s = start; for x in &terms[..b * block] { s += x }`
/// (NaN payloads included: every chunk that meets a NaN is added natively), and the second
/// value those of the same loop over all of `terms`, for every input, thread count and shape.
pub fn block_starts_par<T: FastTerm>(
    start: T,
    terms: &[T],
    checks: Checks,
    shape: Shape,
) -> (Vec<T>, T) {
    let (sum, starts) = walk_blocks(start, terms, checks, shape, true);
    (starts, sum.total)
}

fn walk_par<T: FastTerm>(terms: &[T], checks: Checks, shape: Shape) -> FastSum<T> {
    walk_blocks(<T::F as Format>::from_bits(0), terms, checks, shape, false).0
}

/// The threaded engine from the running sum `start`; with `want_starts`, also the exact sum
/// before each block (else an empty vector).
fn walk_blocks<T: FastTerm>(
    start: T,
    terms: &[T],
    checks: Checks,
    shape: Shape,
    want_starts: bool,
) -> (FastSum<T>, Vec<T>) {
    debug_assert!(shape.valid(), "{shape:?}");
    let shape = Shape {
        chunk: shape.chunk.clamp(1, MAX_CHUNK),
        block_chunks: shape.block_chunks.max(1),
    };
    let chunks = terms.len().div_ceil(shape.chunk);
    let block_terms = shape.chunk * shape.block_chunks;
    let blocks = terms.len().div_ceil(block_terms);
    let threads = rayon::current_num_threads();
    if threads <= 1 || blocks <= 1 {
        // One thread knows the exact sum before every chunk: no plan, no blocks.
        let (total, native, starts) = if want_starts {
            let (mut s, mut native, mut starts) = (start, 0, Vec::with_capacity(blocks));
            for block in terms.chunks(block_terms) {
                starts.push(s);
                let (next, n) = ordered_sum_fast_from(s, block, checks, shape.chunk);
                (s, native) = (next, native + n);
            }
            (s, native, starts)
        } else {
            let (total, native) = ordered_sum_fast_from(start, terms, checks, shape.chunk);
            (total, native, Vec::new())
        };
        let sum = FastSum {
            total,
            native_chunks: native,
            replanned_chunks: 0,
            chunks,
            walk_ns: 0,
            lead_waits: 0,
        };
        return (sum, starts);
    }
    let origin = start.widen();
    // A planner this many blocks ahead of the walk waits (walking, if it can), so that a
    // look-back adds at most this many plain block sums.
    let max_lead = 4 * threads;
    let states: Vec<Published> = (0..blocks).map(|_| Published::new()).collect();
    let mut slots = vec![EMPTY; chunks];
    let groups: Vec<Mutex<&mut [Slot]>> = slots
        .chunks_mut(shape.block_chunks)
        .map(Mutex::new)
        .collect();
    let walker = Walker {
        terms,
        states: &states,
        groups: &groups,
        token: AtomicBool::new(false),
        state: Mutex::new(WalkState {
            next: 0,
            sum: start,
            counts: Counts::default(),
        }),
        walked: AtomicUsize::new(0),
        walk_ns: AtomicU64::new(0),
        shape,
        checks,
    };
    let ticket = AtomicUsize::new(0);
    let lead_waits = AtomicU64::new(0);
    rayon::broadcast(|_| {
        let mut sums = Vec::with_capacity(shape.block_chunks);
        loop {
            let b = ticket.fetch_add(1, Ordering::Relaxed);
            if b >= blocks {
                break;
            }
            let mut spins = 0u32;
            if walker.walked.load(Ordering::Acquire) + max_lead < b {
                lead_waits.fetch_add(1, Ordering::Relaxed);
            }
            while walker.walked.load(Ordering::Acquire) + max_lead < b {
                walker.try_walk();
                pause(&mut spins);
            }
            let start = b * block_terms;
            let these = &terms[start..terms.len().min(start + block_terms)];
            {
                // Each block's slots are taken by the one thread that holds its ticket, then
                // by the walker once the block is planned.
                let mut group = groups[b].lock().unwrap_or_else(|p| p.into_inner());
                plan_block(
                    these, b, &states, &mut group, &mut sums, shape, checks, origin,
                );
            }
            states[b].publish(PLANNED, 0);
            fence(Ordering::SeqCst);
            walker.try_walk();
        }
    });
    let walk_ns = walker.walk_ns.load(Ordering::Relaxed);
    let w = walker.state.into_inner().unwrap_or_else(|p| p.into_inner());
    debug_assert_eq!(w.next, blocks);
    // The walk published the exact sum after every block (the broadcast has joined, so every
    // store is visible); the sum before block b is the one after block b - 1.
    let starts = if want_starts {
        std::iter::once(start)
            .chain(states[..blocks - 1].iter().map(|st| {
                debug_assert_eq!(st.status.load(Ordering::Relaxed), EXACT);
                <T::F as Format>::from_bits(st.exact.load(Ordering::Relaxed))
            }))
            .collect()
    } else {
        Vec::new()
    };
    let sum = FastSum {
        total: w.sum,
        native_chunks: w.counts.native,
        replanned_chunks: w.counts.replanned,
        chunks,
        walk_ns,
        lead_waits: lead_waits.into_inner(),
    };
    (sum, starts)
}

#[cfg(test)]
mod shape_tests {
    use super::*;

    /// The shape grows with the terms between its bounds and gives every thread eight blocks
    /// wherever it grew.
    #[test]
    fn block_shape_for_terms_stays_within_its_bounds() {
        for threads in [1usize, 2, 16, 128] {
            let mut last = 0;
            for terms in [
                0usize,
                1,
                1 << 10,
                1_000_000,
                10_000_000,
                100_000_000,
                1 << 40,
            ] {
                let s = Shape::for_terms(terms, threads);
                assert_eq!(s.chunk, CHUNK);
                assert!(
                    (Shape::MIN_BLOCK_CHUNKS..=Shape::MAX_BLOCK_CHUNKS).contains(&s.block_chunks),
                    "{terms} terms, {threads} threads: {s:?}"
                );
                assert!(s.block_chunks >= last, "{terms} terms, {threads} threads");
                if s.block_chunks > Shape::MIN_BLOCK_CHUNKS {
                    let blocks = terms.div_ceil(CHUNK).div_ceil(s.block_chunks);
                    assert!(
                        blocks >= 8 * threads,
                        "{terms} terms, {threads} threads: {s:?}"
                    );
                }
                last = s.block_chunks;
            }
        }
        assert_eq!(Shape::for_terms(100_000_000, 16).block_chunks, 128);
        assert_eq!(Shape::for_terms(1_000_000, 16).block_chunks, 32);
    }
}

#[cfg(test)]
mod estimate_tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-12 * b.abs().max(1.0)
    }

    /// A run between two planned blocks of a geometric progression is estimated as the
    /// progression's own values; a steady stream as the run's length times its block.
    #[test]
    fn a_gap_follows_a_geometric_progression_and_a_steady_stream() {
        for (ratio, r) in [(1.09f64, 15usize), (2.0, 3), (0.5, 7), (1.0, 1)] {
            let below = 3.0;
            let above = below * ratio.powi(r as i32 + 1);
            let want: f64 = (1..=r).map(|j| below * ratio.powi(j as i32)).sum();
            let got = gap_estimate(Some(below), above, r);
            assert!(
                close(got, want),
                "ratio {ratio}, run {r}: {got} against {want}"
            );
            let got = gap_estimate(Some(-below), -above, r);
            assert!(close(got, -want), "negative, ratio {ratio}, run {r}: {got}");
        }
        assert_eq!(gap_estimate(None, 5.0, 4), 20.0);
    }

    /// Where the sides differ in sign, or one is zero, the run is a straight line between them.
    #[test]
    fn a_gap_between_signs_is_a_straight_line() {
        assert_eq!(gap_estimate(Some(-2.0), 4.0, 3), 3.0);
        assert_eq!(gap_estimate(Some(0.0), 4.0, 1), 2.0);
        assert_eq!(gap_estimate(Some(4.0), 0.0, 2), 4.0);
        assert!(gap_estimate(Some(1e-300), 1e300, 2).is_finite());
    }

    /// The blocks' sum takes every planned aggregate as it is and estimates each run of
    /// missing blocks from its own sides, the block after the last standing above the top run.
    #[test]
    fn estimated_blocks_fill_each_run_from_its_sides() {
        let blocks = [Some(1.0), None, Some(4.0), None, None];
        let want = 1.0 + 2.0 + 4.0 + (8.0 + 16.0);
        assert!(close(estimated_blocks(&blocks, false, None, 32.0), want));
        assert!(close(
            estimated_blocks(&[None, None, Some(1.0)], false, None, 9.0),
            3.0
        ));
        assert_eq!(estimated_blocks(&[], false, None, 9.0), 0.0);
        assert_eq!(
            estimated_blocks(&[Some(2.5), Some(-1.0)], false, None, 9.0),
            1.5
        );
        // A run on the look-back's base: between the walked block's aggregate and the next.
        let on_base = estimated_blocks(&[None, None, Some(8.0)], false, Some(1.0), 99.0);
        assert!(close(on_base, 2.0 + 4.0 + 8.0), "{on_base}");
        assert!(close(estimated_blocks(&[None], false, Some(1.0), 4.0), 2.0));
    }

    /// The sum's first block is no side of a run: a run right after it is worth its upper
    /// side alone, however large block 0's aggregate (the sum's first terms) is.
    #[test]
    fn the_first_block_is_no_side_of_a_run() {
        let blocks = [Some(3.2e7), None, Some(0.0)];
        assert_eq!(estimated_blocks(&blocks, true, None, 5.0), 3.2e7);
        assert_eq!(estimated_blocks(&blocks, false, None, 5.0), 3.2e7 + 1.6e7);
        let later = [Some(3.2e7), Some(1.0), None, Some(4.0)];
        assert!(close(
            estimated_blocks(&later, true, None, 9.0),
            3.2e7 + 1.0 + 2.0 + 4.0
        ));
    }
}
