//! The fast engine over rayon's threads: blocks taken in order, a look-back for the plan, the
//! terms read once from memory, and a sequential walk over the chunks' units.
//!
//! 1. A ticket gives each thread the next block of [`Shape::block_chunks`] chunks, so every
//!    block a thread waits for has been taken by a running thread.
//! 2. The thread forms each chunk's plain sum (the only read of the block from memory) and
//!    publishes the block's aggregate; then it looks back over the earlier blocks: an
//!    inclusive prefix ends the look-back, an aggregate is added and the look-back goes on
//!    (Merrill and Garland's decoupled look-back), a block that has published nothing is
//!    waited for. It publishes its own inclusive prefix. The prefix is a sum of doubles in an
//!    order that depends on timing, so the plan may differ from run to run.
//! 3. From that prefix and its chunk sums it guesses each chunk's binade and forms the chunk's
//!    unit for it, reading the block a second time from the core's cache (a block is sized to
//!    fit in L2).
//! 4. After every block is done, one walk over the chunks applies a unit where the exact sum
//!    is in the guessed binade; elsewhere it takes the chunk from the exact sum as one thread
//!    would (the unit for the exact binade, else term by term).
//!
//! Guarantee: the bits of the loop for every input, thread count and [`Shape`]; the plan only
//! moves chunks between "unit" and "term by term".

use std::sync::atomic::{AtomicU64, AtomicU8, AtomicUsize, Ordering};
use std::sync::Mutex;

use super::scan::{chunk_unit_hinted, FastUnit, MAX_CHUNK};
use super::{apply, fast_field, scale_of, step, Checks, FastTerm, Step, CHUNK};
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
    /// term or a crossing); each was then taken as one thread takes it.
    pub replanned_chunks: usize,
    /// Chunks in all.
    pub chunks: usize,
}

/// The sequential sum of `terms` over the threads of rayon's current pool.
///
/// Guarantee: the same bits as [`super::ordered_sum_fast`] (the loop's) for every input and
/// every number of threads; the threads only change the time.
pub fn ordered_sum_par<T: FastTerm>(terms: &[T]) -> T {
    walk_par(terms, Checks::ALL, Shape::DEFAULT).total
}

/// [`ordered_sum_par`], with its counts.
pub fn ordered_sum_par_report<T: FastTerm>(terms: &[T]) -> FastSum<T> {
    walk_par(terms, Checks::ALL, Shape::DEFAULT)
}

/// [`ordered_sum_par`] with `checks` (all of them for the exact engine) and `shape`.
pub fn ordered_sum_par_with<T: FastTerm>(terms: &[T], checks: Checks, shape: Shape) -> FastSum<T> {
    walk_par(terms, checks, shape)
}

/// A chunk's planned unit: the binade field it was formed for (0: none, the walk takes the
/// chunk from the exact sum) and the unit.
#[derive(Clone, Copy, Debug)]
struct Slot {
    field: u32,
    unit: FastUnit,
}

const EMPTY: Slot = Slot {
    field: 0,
    unit: FastUnit { inc: 0, first: 0 },
};

/// A block's published state: nothing yet, its aggregate, or its inclusive prefix. Each value
/// is stored before the status that announces it (release), and read after it (acquire).
struct Published {
    status: AtomicU8,
    aggregate: AtomicU64,
    inclusive: AtomicU64,
}

const NOTHING: u8 = 0;
const AGGREGATE: u8 = 1;
const INCLUSIVE: u8 = 2;

impl Published {
    fn new() -> Published {
        Published {
            status: AtomicU8::new(NOTHING),
            aggregate: AtomicU64::new(0),
            inclusive: AtomicU64::new(0),
        }
    }

    fn publish(&self, what: u8, value: f64) {
        let cell = if what == INCLUSIVE {
            &self.inclusive
        } else {
            &self.aggregate
        };
        cell.store(value.to_bits(), Ordering::Relaxed);
        self.status.store(what, Ordering::Release);
    }
}

/// The approximate sum of every block before `block`: step 2 of the module doc.
fn look_back(states: &[Published], block: usize, checks: Checks) -> f64 {
    let mut prefix = 0.0f64;
    let mut j = block;
    while j > 0 {
        j -= 1;
        let mut spins = 0u32;
        loop {
            match states[j].status.load(Ordering::Acquire) {
                INCLUSIVE => {
                    return prefix + f64::from_bits(states[j].inclusive.load(Ordering::Relaxed));
                }
                AGGREGATE => {
                    prefix += f64::from_bits(states[j].aggregate.load(Ordering::Relaxed));
                    break;
                }
                _ if !checks.lookback_waits => break, // the plan mutant: nothing read as zero
                _ => {
                    spins += 1;
                    if spins < 64 {
                        std::hint::spin_loop();
                    } else {
                        std::thread::yield_now();
                    }
                }
            }
        }
    }
    prefix
}

/// Steps 2 and 3 for one block: its chunks' planned units into `slots`.
fn plan_block<T: FastTerm>(
    block_terms: &[T],
    block: usize,
    states: &[Published],
    slots: &mut [Slot],
    sums: &mut Vec<f64>,
    shape: Shape,
    checks: Checks,
) {
    sums.clear();
    sums.extend(block_terms.chunks(shape.chunk).map(T::plain_sum));
    let aggregate: f64 = sums.iter().sum();
    let before = if block == 0 {
        0.0
    } else {
        states[block].publish(AGGREGATE, aggregate);
        look_back(states, block, checks)
    };
    states[block].publish(INCLUSIVE, before + aggregate);
    let mut running = before;
    let mut ties = false;
    for ((chunk, &sum), slot) in block_terms.chunks(shape.chunk).zip(sums.iter()).zip(slots) {
        let guess = <T::F as Format>::from_f64(running);
        *slot = fast_field::<T::F>(guess)
            .and_then(|field| {
                let (unit, had) = chunk_unit_hinted(chunk, scale_of::<T::F>(field), checks, ties);
                ties = had;
                Some(Slot { field, unit: unit? })
            })
            .unwrap_or(EMPTY);
        running += sum;
    }
}

fn walk_par<T: FastTerm>(terms: &[T], checks: Checks, shape: Shape) -> FastSum<T> {
    debug_assert!(shape.valid(), "{shape:?}");
    let shape = Shape {
        chunk: shape.chunk.clamp(1, MAX_CHUNK),
        block_chunks: shape.block_chunks.max(1),
    };
    let chunks = terms.len().div_ceil(shape.chunk);
    let block_terms = shape.chunk * shape.block_chunks;
    let blocks = terms.len().div_ceil(block_terms);
    let mut slots = vec![EMPTY; chunks];
    {
        let states: Vec<Published> = (0..blocks).map(|_| Published::new()).collect();
        let groups: Vec<Mutex<&mut [Slot]>> = slots
            .chunks_mut(shape.block_chunks)
            .map(Mutex::new)
            .collect();
        let ticket = AtomicUsize::new(0);
        rayon::broadcast(|_| {
            let mut sums = Vec::with_capacity(shape.block_chunks);
            loop {
                let b = ticket.fetch_add(1, Ordering::Relaxed);
                if b >= blocks {
                    break;
                }
                let start = b * block_terms;
                let these = &terms[start..terms.len().min(start + block_terms)];
                // Each block's slots are taken by the one thread that holds its ticket.
                let mut group = groups[b].lock().unwrap_or_else(|p| p.into_inner());
                plan_block(these, b, &states, &mut group, &mut sums, shape, checks);
            }
        });
    }
    walk_slots(terms, &slots, checks, shape.chunk)
}

/// Step 4: the exact walk over the planned units.
fn walk_slots<T: FastTerm>(
    terms: &[T],
    slots: &[Slot],
    checks: Checks,
    chunk: usize,
) -> FastSum<T> {
    let mut s = <T::F as Format>::from_bits(0);
    let (mut native, mut replanned) = (0usize, 0usize);
    let mut ties = false;
    for (c, slot) in terms.chunks(chunk).zip(slots) {
        let planned =
            slot.field != 0 && (!checks.field || fast_field::<T::F>(s) == Some(slot.field));
        if let Some(next) = planned
            .then(|| apply::<T::F>(s, slot.field, slot.unit, checks))
            .flatten()
        {
            s = next;
            continue;
        }
        replanned += 1;
        let (next, how) = step(s, c, checks, &mut ties);
        s = next;
        native += usize::from(how != Step::Unit);
    }
    FastSum {
        total: s,
        native_chunks: native,
        replanned_chunks: replanned,
        chunks: slots.len(),
    }
}
