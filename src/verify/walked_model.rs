//! A host model of the walked engine (`kernels/ordered_sum_walked.cu`), step for step: the
//! producers' published words for any plan, and the walker that composes them, a step of
//! positions at a time (or, `WalkedShape::seg_step`, every segment of positions planned for
//! one binade in turn, with the crossings between them ended by their split words inside the
//! step: [`ModelShape::seg_step`]), ends a tile by its split words where they hold
//! (`WalkedShape::split`) and finishes the tiles it cannot compose: by one planned pass where its checks hold
//! (`WalkedShape::planned`, [`planned_finish`], for any lane plan), else lane by lane.
//!
//! On the device the plans and split lanes come from look-backs over tree sums and cannot be
//! chosen; here any plan and any split lane can be given, wrong ones included (a binade the
//! running sum never visits, a plan a binade behind, none at all, a split lane before or after
//! the crossing or in a tile that does not cross), and the walker must still give the loop's
//! bits: a wrong plan may only cost tiles finished from their terms. `tests/walked_model.rs`
//! checks that for random terms, shapes, plans and split lanes against the loop. The lanes'
//! units are [`run_unit`]'s (the kernel forms them in f64 where it can, equal to these by the
//! argument in the kernel).

use crate::format::{Layout, F64};
use crate::unit::{apply, compose, run_unit, Binade, Unit};

/// A fault put into the model on purpose, mirroring one of the kernel's named mutants
/// (`gpu::ordered_sum::walked::WalkedMutant`): each must give a wrong sum on some input, or
/// the model's checks could not fail.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModelFault {
    /// The correct model.
    None,
    /// The walker composes units planned for another binade than its sum's.
    BinadesMixed,
    /// A unit read back with its odd increment equal to its even one.
    OddDropped,
    /// A composed run applied without checking that it stays in its binade.
    RunEndUnchecked,
    /// A finish's native lane adds its terms from the round's start, not its own.
    NativeFromRound,
    /// A split's lane is not added (`WalkedMutant::SplitLaneSkipped`).
    SplitLaneSkipped,
    /// A split's first unit applied without its check (`WalkedMutant::SplitFirstUnchecked`).
    SplitFirstUnchecked,
    /// A split's second unit applied without its check
    /// (`WalkedMutant::SplitSecondUnchecked`).
    SplitSecondUnchecked,
    /// A planned finish's run applied without its check (`WalkedMutant::PlanRunUnchecked`).
    PlanRunUnchecked,
    /// A planned finish's native lanes not added (`WalkedMutant::PlanNativeSkipped`).
    PlanNativeSkipped,
    /// A planned finish's run composed with every lane before it, across the runs' starts
    /// (`WalkedMutant::PlanHeadsIgnored`).
    PlanHeadsIgnored,
    /// A segmented step takes a failing segment's crossing to be its last tile, the prefix
    /// before it applied unchecked (`WalkedMutant::StepSearchUnchecked`).
    StepSearchUnchecked,
    /// A segmented step's split end adds the lane terms of its first fetched slot, whichever
    /// crossing they were fetched for (`WalkedMutant::StepSlotMixed`).
    StepSlotMixed,
    /// A segmented step whose try of the last position fails takes that position as the
    /// crossing anyway, from the segment's start (`WalkedMutant::StepLastTrusted`). Needs
    /// [`ModelShape::last_first`].
    StepLastTrusted,
}

impl ModelFault {
    /// Every fault, the correct model first.
    pub const ALL: [ModelFault; 14] = [
        ModelFault::None,
        ModelFault::BinadesMixed,
        ModelFault::OddDropped,
        ModelFault::RunEndUnchecked,
        ModelFault::NativeFromRound,
        ModelFault::SplitLaneSkipped,
        ModelFault::SplitFirstUnchecked,
        ModelFault::SplitSecondUnchecked,
        ModelFault::PlanRunUnchecked,
        ModelFault::PlanNativeSkipped,
        ModelFault::PlanHeadsIgnored,
        ModelFault::StepSearchUnchecked,
        ModelFault::StepSlotMixed,
        ModelFault::StepLastTrusted,
    ];
}

/// A planned finish's margin for f64 sums: a lane's approximate start and end are widened by
/// 2^-e of themselves, e this (the kernel's `BINADE_WK_PL_MARGIN_EXP`; 512 ulps of `[1, 2)`
/// either way). The loop's running sum over a 4,096-term tile drifts from the real sum of its
/// terms by at most about 2^-41 of it, so inputs made to drift can fool the plan (the kill
/// inputs of `gpu::ordered_sum::walked_kill` do), and the run's check must catch them;
/// ordinary data drifts far less.
pub const PLAN_MARGIN_EXP_F64: u32 = 44;
/// [`PLAN_MARGIN_EXP_F64`] for f32 sums (512 ulps of `[1, 2)` at f32's quantum).
pub const PLAN_MARGIN_EXP_F32: u32 = 15;
/// The most native lanes a planned finish takes (the kernel's `BINADE_WK_PL_NATIVE_MAX`);
/// with more it leaves the tile to the rounds.
pub const PLAN_NATIVE_MAX: u32 = 32;
/// Crossings a segmented step fetches the split words and lane terms of with its words (the
/// kernel's `BINADE_WK_SS_SLOTS`, `WalkedShape::fetch_splits`): more in one step are ended by
/// reading their words when the walk reaches them.
pub const SEG_STEP_SLOTS: u32 = 16;

/// The model's shape: terms per lane, lanes per tile, positions per walker step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ModelShape {
    /// Terms per lane (the kernel's terms per thread).
    pub lane: usize,
    /// Lanes per tile (the kernel's threads).
    pub lanes: usize,
    /// Positions per walker step (the kernel's threads times words per thread).
    pub step: usize,
    /// The tile that ends a step's applied run is finished in that step, as the kernel's
    /// `BINADE_WK_FINISH_IN_STEP` (else the next step finds it first).
    pub finish_in_step: bool,
    /// A finish first tries one planned pass with the kernel's lane plans
    /// ([`kernel_lane_plans`], [`planned_finish`]), as the kernel's `BINADE_WK_PLANNED`.
    pub planned: bool,
    /// A step walks its segments (consecutive positions planned for one binade) in turn, as
    /// the kernel's `BINADE_WK_SEG_STEP`: a segment by one checked apply of its composition,
    /// else a bisection for the first position whose prefix does not apply, that tile ended
    /// by its split words and the walk going on after it.
    pub seg_step: bool,
    /// A segmented step fetches the split lanes' terms of its first [`SEG_STEP_SLOTS`]
    /// crossings (positions whose tile has split words) with its words, as the kernel's
    /// `BINADE_WK_FETCH_SPLITS`; its split ends take them from there. The words are the
    /// producers' in either case, so only a fault can make the two differ.
    pub fetch_splits: bool,
    /// Where a segment does not apply, a segmented step first tries the prefix one position
    /// short of the segment's end, and bisects only where that fails too, as the kernel's
    /// `BINADE_WK_LAST_FIRST`. With non-negative terms both find the same position.
    pub last_first: bool,
}

impl ModelShape {
    /// The walked kernel's shape (`WalkedShape::DEFAULT`): 16 terms a lane, 256 lanes a tile,
    /// 1,024 tiles a step, the tile that ends a step's run finished in it, planned finishes
    /// and segmented steps that try a failing segment's last position before they bisect
    /// for its crossing; split lanes' terms read from the tile, not fetched with the step
    /// (the same words either way). The compose ahead of the first tile's sum
    /// (`WalkedShape::ahead`, a kernel option) changes when a step is composed, not what it
    /// composes: the model has no clock and needs no flag for it.
    pub const KERNEL: ModelShape = ModelShape {
        lane: 16,
        lanes: 256,
        step: 1024,
        finish_in_step: true,
        planned: true,
        seg_step: true,
        fetch_splits: false,
        last_first: true,
    };

    /// Terms per tile.
    pub fn tile(self) -> usize {
        self.lane * self.lanes
    }
}

/// A tile's published word: the binade it was planned for (`None`: no plan) and its unit
/// for that binade ([`Unit::INVALID`] without a plan, or where a term is negative or not
/// finite); and its split words, where its producer published them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Word {
    /// The planned binade.
    pub binade: Option<Binade>,
    /// The unit for it.
    pub unit: Unit,
    /// The split words (the kernel's `wk_split`).
    pub split: Option<Split>,
}

/// A tile's split words: its split lane, the lanes before it composed for the plan's binade
/// `b`, and the lanes after it composed for `b + 1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Split {
    /// The lane added natively.
    pub lane: usize,
    /// The plan's binade.
    pub binade: Binade,
    /// The lanes before `lane`, for `binade`.
    pub first: Unit,
    /// The lanes after `lane`, for the next binade.
    pub second: Unit,
}

/// What the walker did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WalkCounts {
    /// Tiles finished from their terms.
    pub finished: u64,
    /// Lanes added natively while finishing.
    pub native_lanes: u64,
    /// Steps (each composes some positions, finishes one tile, or both).
    pub steps: u64,
    /// Tiles ended by their split words.
    pub split_ends: u64,
    /// Finished tiles ended by a planned pass.
    pub planned: u64,
    /// Of the split ends, those inside a segmented step's walk.
    pub walk_split_ends: u64,
}

/// The producers: each tile's word for its plan (`plans[t]`, one per tile; the first tile's
/// plan is ignored, as the kernel's first tile is planned from +0, in no binade), no split
/// words.
pub fn publish(terms: &[f64], shape: ModelShape, plans: &[Option<Binade>]) -> Vec<Word> {
    publish_split(terms, shape, plans, &[])
}

/// [`publish`] with split words where `lanes[t]` names a split lane (any lane index, a lane
/// past the tile's included; missing entries and tiles without a plan or planned for the top
/// binade publish none).
pub fn publish_split(
    terms: &[f64],
    shape: ModelShape,
    plans: &[Option<Binade>],
    lanes: &[Option<usize>],
) -> Vec<Word> {
    debug_assert!(shape.lane >= 1 && shape.lanes >= 1);
    terms
        .chunks(shape.tile())
        .enumerate()
        .map(|(t, tile)| {
            let binade = if t == 0 { None } else { plans[t] };
            let bits: Vec<u64> = tile.iter().map(|x| x.to_bits()).collect();
            let unit = binade.map_or(Unit::INVALID, |b| run_unit::<F64>(b, &bits));
            let split = match (binade, lanes.get(t).copied().flatten()) {
                (Some(b), Some(lane)) if b.0 < F64::MAX_NORMAL_FIELD => {
                    let cut = (lane * shape.lane).min(bits.len());
                    let after = ((lane + 1) * shape.lane).min(bits.len());
                    Some(Split {
                        lane,
                        binade: b,
                        first: run_unit::<F64>(b, &bits[..cut]),
                        second: run_unit::<F64>(Binade(b.0 + 1), &bits[after..]),
                    })
                }
                _ => None,
            };
            Word {
                binade,
                unit,
                split,
            }
        })
        .collect()
}

/// The kernel's split lanes (`wk_split`): for a tile whose prefix of the tiles' own sums
/// (summed in order, as [`tree_plans`]) lies in a binade and whose own sum carries it into the
/// next, the first lane whose approximate running end reaches that binade's top.
pub fn tree_split_lanes(terms: &[f64], shape: ModelShape) -> Vec<Option<usize>> {
    let mut p = 0.0f64;
    terms
        .chunks(shape.tile())
        .map(|tile| {
            let prefix = p;
            let ts: f64 = tile.iter().sum();
            p += ts;
            let b = Binade::of::<F64>(prefix.to_bits())?;
            let carried = b.0 < F64::MAX_NORMAL_FIELD
                && Binade::of::<F64>((prefix + ts).to_bits()) == Some(Binade(b.0 + 1));
            if !carried {
                return None;
            }
            let top = 2f64.powi(b.exponent::<F64>() + 1);
            let mut run = prefix;
            tile.chunks(shape.lane).position(|lane| {
                run += lane.iter().sum::<f64>();
                run >= top
            })
        })
        .collect()
}

/// Whether a word composes onto a sum in binade `b`: planned for `b`, neither increment
/// saturated (the kernel stores a unit saturated on either side as saturated on both).
fn composes(w: &Word, b: Option<Binade>, fault: ModelFault) -> bool {
    let same = if fault == ModelFault::BinadesMixed {
        w.binade.is_some()
    } else {
        w.binade == b
    };
    b.is_some() && same && w.unit.even < Unit::SATURATED && w.unit.odd < Unit::SATURATED
}

/// The walker: the sum of `terms` from `start` over the published `words`, and its counts.
pub fn walk(terms: &[f64], shape: ModelShape, words: &[Word], start: f64) -> (u64, WalkCounts) {
    walk_with(terms, shape, words, start, ModelFault::None)
}

/// [`walk`] with `fault` put in.
pub fn walk_with(
    terms: &[f64],
    shape: ModelShape,
    words: &[Word],
    start: f64,
    fault: ModelFault,
) -> (u64, WalkCounts) {
    debug_assert!(shape.step >= 1);
    let tiles = words.len();
    let mut counts = WalkCounts::default();
    let (mut s, mut w) = (start.to_bits(), 0usize);
    while w < tiles {
        counts.steps += 1;
        let positions = shape.step.min(tiles - w);
        let (g, end, tried) = if shape.seg_step {
            seg_step(
                terms,
                shape,
                w,
                &words[w..w + positions],
                s,
                fault,
                &mut counts,
            )
        } else {
            let (g, end) = one_run_step(&words[w..w + positions], s, fault);
            (g, end, false)
        };
        if g > 0 {
            s = end;
            w += g;
            // Position g is in this step: finish it now, or let the next step find it.
            if !(shape.finish_in_step && g < positions) {
                continue;
            }
        }
        let tile = &terms[w * shape.tile()..((w + 1) * shape.tile()).min(terms.len())];
        if let Some(e) = words[w]
            .split
            .filter(|_| !tried)
            .and_then(|sp| split_end(tile, shape, &sp, s, fault))
        {
            s = e;
            counts.split_ends += 1;
        } else {
            let planned = shape
                .planned
                .then(|| {
                    let plans = kernel_lane_plans(tile, shape, s);
                    planned_finish(tile, shape, s, &plans, fault)
                })
                .flatten();
            match planned {
                Some((e, natives)) => {
                    s = e;
                    counts.native_lanes += natives;
                    counts.planned += 1;
                }
                None => s = finish(tile, shape, s, &mut counts.native_lanes, fault),
            }
            counts.finished += 1;
        }
        w += 1;
    }
    (s, counts)
}

/// A step of one run (the kernel's step without `BINADE_WK_SEG_STEP`): the composable
/// positions of `step` (a prefix, planned for the binade of `s`) and, of those, the prefix
/// whose composition applies to `s` (the terms of a composable unit are non-negative, so the
/// end only grows and the applying positions are a prefix): (its length, the sum after it).
fn one_run_step(step: &[Word], s: u64, fault: ModelFault) -> (usize, u64) {
    let b = Binade::of::<F64>(s);
    let f = step
        .iter()
        .position(|w| !composes(w, b, fault))
        .unwrap_or(step.len());
    let (mut acc, mut end, mut g) = (Unit::ZERO, s, 0usize);
    for (p, word) in step.iter().enumerate().take(f) {
        acc = compose(acc, read_unit(word, fault));
        let applied = match (fault, b) {
            (ModelFault::RunEndUnchecked, Some(b)) => Some(unchecked_end(acc, b, s)),
            _ => b.and_then(|b| apply::<F64>(acc, b, s)),
        };
        match applied {
            Some(e) => {
                end = e;
                g = p + 1;
            }
            None => break,
        }
    }
    (g, end)
}

/// A word's unit as the walker reads it back (with [`ModelFault::OddDropped`], its odd
/// increment taken as its even one).
fn read_unit(word: &Word, fault: ModelFault) -> Unit {
    let mut u = word.unit;
    if fault == ModelFault::OddDropped {
        u.odd = u.even;
    }
    u
}

/// A segmented step (the kernel's `wk_ss_compose` and `wk_ss_walk`) over `step`, the words
/// of tiles `w0..`, from the exact sum `s`: (the positions applied or ended by their split
/// words, the exact sum after them, whether the next position's split words were tried).
/// The composable positions are a prefix (planned, not saturated: any binade); a segment is
/// a run of them planned for one binade c. A segment whose composition applies to the sum
/// (checked) moves the sum past it; else the first position whose prefix in the segment
/// does not apply is found by the kernel's search (with [`ModelShape::last_first`] the
/// segment's last position tried first, then a bisection; every prefix taken is a checked apply,
/// so the sum before it is exact whatever it finds), that tile is ended by its split words
/// where they hold, and the walk goes on after it if it ended its segment; else the step
/// stops there (the rest of the segment was planned for the binade the sum left).
fn seg_step(
    terms: &[f64],
    shape: ModelShape,
    w0: usize,
    step: &[Word],
    s: u64,
    fault: ModelFault,
    counts: &mut WalkCounts,
) -> (usize, u64, bool) {
    let f = step
        .iter()
        .position(|w| {
            !(w.binade.is_some() && w.unit.even < Unit::SATURATED && w.unit.odd < Unit::SATURATED)
        })
        .unwrap_or(step.len());
    let prefix = |from: usize, q: usize| {
        step[from..=q]
            .iter()
            .fold(Unit::ZERO, |a, w| compose(a, read_unit(w, fault)))
    };
    // The fetched slots: the first SEG_STEP_SLOTS crossings with split words, in position
    // order (the kernel's order is its threads' atomics'; any order is one of its runs).
    let slots: Vec<usize> = if shape.fetch_splits {
        (0..f)
            .filter(|&q| step[q].split.is_some())
            .take(SEG_STEP_SLOTS as usize)
            .collect()
    } else {
        Vec::new()
    };
    let lane_of = |q: usize| -> Option<&[f64]> {
        let sp = step[q].split?;
        let at = (w0 + q) * shape.tile();
        let tile = &terms[at..(at + shape.tile()).min(terms.len())];
        tile.chunks(shape.lane).nth(sp.lane)
    };
    let (mut sum, mut p) = (s, 0usize);
    while p < f {
        let Some(c) = step[p].binade else {
            return (p, sum, false);
        };
        let e = (p + 1..f).find(|&q| step[q].binade != Some(c)).unwrap_or(f);
        if Binade::of::<F64>(sum) != Some(c) {
            return (p, sum, false);
        }
        // BinadesMixed: the step's scan composes across its segments' starts.
        let from = if fault == ModelFault::BinadesMixed {
            0
        } else {
            p
        };
        let whole = if fault == ModelFault::RunEndUnchecked {
            Some(unchecked_end(prefix(from, e - 1), c, sum))
        } else {
            apply::<F64>(prefix(from, e - 1), c, sum)
        };
        if let Some(r) = whole {
            sum = r;
            p = e;
            continue;
        }
        let (t, before) = if fault == ModelFault::StepSearchUnchecked {
            let before = if e - 1 > p {
                unchecked_end(prefix(from, e - 2), c, sum)
            } else {
                sum
            };
            (e - 1, before)
        } else {
            let (mut lo, mut hi, mut before) = (p, e - 1, sum);
            if shape.last_first && hi > p {
                // Where the prefix through hi - 1 applies, every shorter one does (the ends
                // only grow) and hi is the crossing; else the search goes on before it.
                match apply::<F64>(prefix(from, hi - 1), c, sum) {
                    Some(r) => {
                        lo = hi;
                        before = r;
                    }
                    None if fault == ModelFault::StepLastTrusted => lo = hi,
                    None => hi -= 1,
                }
            }
            while lo < hi {
                let mid = (lo + hi) / 2;
                match apply::<F64>(prefix(from, mid), c, sum) {
                    Some(r) => {
                        lo = mid + 1;
                        before = r;
                    }
                    None => hi = mid,
                }
            }
            (lo, before)
        };
        let at = (w0 + t) * shape.tile();
        let tile = &terms[at..(at + shape.tile()).min(terms.len())];
        let fetched = slots.contains(&t).then(|| {
            let from = if fault == ModelFault::StepSlotMixed {
                slots[0]
            } else {
                t
            };
            lane_of(from)
        });
        let ended = match (step[t].split, fetched) {
            (Some(sp), Some(Some(lane))) => split_apply(lane, &sp, before, fault),
            (Some(sp), _) => split_end(tile, shape, &sp, before, fault),
            (None, _) => None,
        };
        match ended {
            Some(end) => {
                counts.split_ends += 1;
                counts.walk_split_ends += 1;
                sum = end;
                p = t + 1;
                if p < e {
                    return (p, sum, false);
                }
            }
            None => return (t, before, true),
        }
    }
    (f, sum, false)
}

/// The tile's end from the exact sum `s` before it by its split words, as the kernel's
/// `wk_split_end`: the first unit applied to `s` in the plan's binade (checked), the split
/// lane's terms added natively, the second unit applied in the next binade (checked); `None`
/// where the lane is past the tile or a check fails (the walker then finishes the tile).
fn split_end(
    tile: &[f64],
    shape: ModelShape,
    sp: &Split,
    s: u64,
    fault: ModelFault,
) -> Option<u64> {
    let lane = tile.chunks(shape.lane).nth(sp.lane)?;
    split_apply(lane, sp, s, fault)
}

/// [`split_end`] with the split lane's terms given: from the tile, or from a segmented step's
/// fetched slot ([`ModelShape::fetch_splits`]).
fn split_apply(lane: &[f64], sp: &Split, s: u64, fault: ModelFault) -> Option<u64> {
    let next = Binade(sp.binade.0 + 1);
    let before = if fault == ModelFault::SplitFirstUnchecked {
        unchecked_end(sp.first, sp.binade, s)
    } else {
        apply::<F64>(sp.first, sp.binade, s)?
    };
    let after = if fault == ModelFault::SplitLaneSkipped {
        before
    } else {
        add_lane(lane, before)
    };
    if fault == ModelFault::SplitSecondUnchecked {
        return Some(unchecked_end(sp.second, next, after));
    }
    apply::<F64>(sp.second, next, after)
}

/// The kernel's lane plans for a planned finish of `tile` from the exact sum `s` before it
/// (`wk_pl_lane`): lane l's approximate start is `s` plus the f64 sum of the lanes before it
/// (the kernel adds them in a block scan's order; here in order: a plan, no bit depends on
/// it), its end that plus its own f64 sum; both widened by 2^-[`PLAN_MARGIN_EXP_F64`] of
/// themselves, and where they lie in one binade at or above the fast units' lowest (52) and
/// every term of the lane is non-negative, that binade is the plan; else none (a native lane).
pub fn kernel_lane_plans(tile: &[f64], shape: ModelShape, s: u64) -> Vec<Option<Binade>> {
    let margin = 2f64.powi(-(PLAN_MARGIN_EXP_F64 as i32));
    let mut before = 0.0f64;
    tile.chunks(shape.lane)
        .map(|lane| {
            let part = lane.iter().fold(0.0f64, |a, &x| a + x);
            let start = f64::from_bits(s) + before;
            before += part;
            let lo = Binade::of::<F64>((start * (1.0 - margin)).to_bits());
            let hi = Binade::of::<F64>(((start + part) * (1.0 + margin)).to_bits());
            let non_negative = lane.iter().all(|&x| x >= 0.0);
            match (lo, hi) {
                (Some(a), Some(b)) if a == b && a.0 >= 52 && non_negative => Some(a),
                _ => None,
            }
        })
        .collect()
}

/// One planned pass over `tile` from the exact sum `s` before it (the kernel's
/// `wk_planned_finish`), with any lane plans `plans` (one per lane; missing ones count as
/// none): a lane planned for a binade whose terms are non-negative and whose unit for it does
/// not saturate joins a run, every other lane is native; each run of consecutive lanes planned
/// for one binade applies by one checked apply of its lanes' units composed in order, each
/// native lane by its native adds. `Some` (the tile's end and the native lanes) where every run
/// applied; `None` where a check failed, more than [`PLAN_NATIVE_MAX`] lanes are native, a term
/// is infinite or NaN, or `s` is (the kernel then finishes the tile by rounds). A wrong plan
/// may only make it refuse: a run's check is the walker's own argument for a run of units.
pub fn planned_finish(
    tile: &[f64],
    shape: ModelShape,
    s: u64,
    plans: &[Option<Binade>],
    fault: ModelFault,
) -> Option<(u64, u64)> {
    if tile.iter().any(|x| !x.is_finite()) || !f64::from_bits(s).is_finite() {
        return None;
    }
    let lanes: Vec<&[f64]> = tile.chunks(shape.lane).collect();
    let keyed: Vec<Option<(Binade, Unit)>> = lanes
        .iter()
        .enumerate()
        .map(|(i, lane)| {
            let b = plans.get(i).copied().flatten()?;
            if lane.iter().any(|&x| x < 0.0) {
                return None;
            }
            let bits: Vec<u64> = lane.iter().map(|x| x.to_bits()).collect();
            let u = run_unit::<F64>(b, &bits);
            (u.even < Unit::SATURATED && u.odd < Unit::SATURATED).then_some((b, u))
        })
        .collect();
    let natives = keyed.iter().filter(|k| k.is_none()).count() as u64;
    if natives > u64::from(PLAN_NATIVE_MAX) {
        return None;
    }
    let (mut cur, mut l) = (s, 0usize);
    let mut joined = Unit::ZERO; // every lane's unit so far, native lanes adding nothing
    while l < lanes.len() {
        let Some((b, _)) = keyed[l] else {
            if fault != ModelFault::PlanNativeSkipped {
                cur = add_lane(lanes[l], cur);
            }
            l += 1;
            continue;
        };
        let mut run = Unit::ZERO;
        while let Some(&Some((c, u))) = keyed.get(l) {
            if c != b {
                break;
            }
            run = compose(run, u);
            joined = compose(joined, u);
            l += 1;
        }
        if fault == ModelFault::PlanHeadsIgnored {
            run = joined;
        }
        cur = if fault == ModelFault::PlanRunUnchecked {
            unchecked_end(run, b, cur)
        } else {
            apply::<F64>(run, b, cur)?
        };
    }
    Some((cur, natives))
}

/// The bits `apply` would give without its upper check (the significand may pass the
/// binade's top and carry wrongly): the fault [`ModelFault::RunEndUnchecked`].
fn unchecked_end(u: Unit, b: Binade, s: u64) -> u64 {
    let hidden = 1u64 << 52;
    let m = (s & (hidden - 1)) | hidden;
    (((b.0 as u64) << 52).wrapping_add((m + u.pick(m)).wrapping_sub(hidden))) & !(1u64 << 63)
}

/// Adds `lane`'s terms to `s` natively, in order.
fn add_lane(lane: &[f64], s: u64) -> u64 {
    lane.iter().fold(f64::from_bits(s), |a, &x| a + x).to_bits()
}

/// Finishes `tile` from the exact sum `s` before it, as the kernel's walker does: each round
/// the lanes not yet done form their units for the running sum's binade, the first lane whose
/// composed end does not apply adds its terms natively, the next round starts after it. A
/// start that is not a positive normal: NaN stays NaN; an infinity becomes NaN if a later
/// term is NaN or the other infinity and is kept otherwise; +-0 or a positive subnormal is
/// left by one lane's native adds; a negative sum adds the rest of the tile natively.
fn finish(tile: &[f64], shape: ModelShape, s: u64, native: &mut u64, fault: ModelFault) -> u64 {
    let lanes: Vec<&[f64]> = tile.chunks(shape.lane).collect();
    let (mut cur, mut from) = (s, 0usize);
    while from < lanes.len() {
        let Some(b) = Binade::of::<F64>(cur) else {
            let mag = cur & !(1u64 << 63);
            if mag >= f64::INFINITY.to_bits() {
                let c = f64::from_bits(cur);
                let hit = lanes[from..]
                    .iter()
                    .flat_map(|l| l.iter())
                    .any(|&x| x.is_nan() || x == -c);
                if hit && mag == f64::INFINITY.to_bits() {
                    cur = f64::NAN.to_bits();
                }
                from = lanes.len();
                continue;
            }
            let tiny = mag < f64::MIN_POSITIVE.to_bits() && (cur >> 63 == 0 || mag == 0);
            let last = if tiny { from + 1 } else { lanes.len() };
            for lane in &lanes[from..last] {
                cur = add_lane(lane, cur);
            }
            *native += (last - from) as u64;
            from = last;
            continue;
        };
        let mut acc = Unit::ZERO;
        let mut before = cur; // the exact sum before the lane being looked at
        let mut fail = None;
        for (i, lane) in lanes.iter().enumerate().skip(from) {
            let bits: Vec<u64> = lane.iter().map(|x| x.to_bits()).collect();
            acc = compose(acc, run_unit::<F64>(b, &bits));
            match apply::<F64>(acc, b, cur) {
                Some(e) => before = e,
                None => {
                    fail = Some(i);
                    break;
                }
            }
        }
        match fail {
            None => {
                cur = before;
                from = lanes.len();
            }
            Some(i) => {
                let at = if fault == ModelFault::NativeFromRound {
                    cur
                } else {
                    before
                };
                cur = add_lane(lanes[i], at);
                *native += 1;
                from = i + 1;
            }
        }
    }
    cur
}

/// The binade of the loop's running sum before each tile (the plan a perfect look-back
/// would give; `None` where that sum is not a positive normal).
pub fn exact_plans(terms: &[f64], shape: ModelShape) -> Vec<Option<Binade>> {
    let mut s = 0.0f64;
    terms
        .chunks(shape.tile())
        .map(|tile| {
            let b = Binade::of::<F64>(s.to_bits());
            s = tile.iter().fold(s, |a, &x| a + x);
            b
        })
        .collect()
}

/// The binade of the sum of the tiles' own sums before each tile (the kernel's plan: tree
/// sums, here each tile's summed in order).
pub fn tree_plans(terms: &[f64], shape: ModelShape) -> Vec<Option<Binade>> {
    let mut p = 0.0f64;
    terms
        .chunks(shape.tile())
        .map(|tile| {
            let b = Binade::of::<F64>(p.to_bits());
            p += tile.iter().sum::<f64>();
            b
        })
        .collect()
}

/// The stall cap's exponent offset: a tile whose largest term lies in [2^k, 2^(k+1)) leaves
/// every f32 sum at or above 2^(k + STALL_CAP_SHIFT) unchanged. Such a sum has exponent
/// E >= k + 25 and half an ulp 2^(E - 24) >= 2^(k+1) > every term, so each add rounds back
/// to the sum. f32's fraction bits plus 2; the kernel's `BINADE_WK_STALL_CAP_SHIFT` (passed by `WalkedShape::defines`).
pub const STALL_CAP_SHIFT: i32 =
    <crate::format::F32 as crate::format::Format>::FRAC_BITS as i32 + 2;

/// The stall cap of a tile whose largest term is `m` (the walked kernel's `wk_cap`, a plan of its f32 build): 0 for 0,
/// 2^(k + [`STALL_CAP_SHIFT`]) for a positive finite `m` of exponent k, +inf where that
/// passes f32's largest binade or `m` is not a non-negative finite value.
pub fn stall_cap_f32(m: f32) -> f64 {
    if m == 0.0 {
        return 0.0;
    }
    if !(m > 0.0 && m.is_finite()) {
        return f64::INFINITY;
    }
    // m widened is a normal double: its exponent field less the bias is k.
    let k = (f64::from(m).to_bits() >> 52) as i32 - 1023;
    let e = k + STALL_CAP_SHIFT;
    if e > 127 {
        f64::INFINITY
    } else {
        2f64.powi(e)
    }
}

/// The binade field of the f32 loop's running sum before each tile of `tile` terms (the plan a
/// perfect look-back would give; 0 where that sum is not a positive normal).
pub fn exact_plans_f32(terms: &[f32], tile: usize) -> Vec<u32> {
    let mut s = 0.0f32;
    terms
        .chunks(tile)
        .map(|t| {
            let b = f32_binade(f64::from(s));
            s = t.iter().fold(s, |a, &x| a + x);
            b
        })
        .collect()
}

/// The walked kernel's f32 plans from a look-back that sees every earlier tile (its
/// `wk_plan_binade` of the approximate prefix before each tile: the prefix in f64, taken to
/// f32): each tile's tree sum added, or, `capped`, added only up to the tile's stall cap
/// ([`stall_cap_f32`] of its largest term): `max(P, min(P + ts, cap))`. A model of the plan
/// alone (the kernel's look-backs see only what is published, compose the tiles after their
/// base under the least of their caps, and may plan from the walker's hint instead).
pub fn tree_plans_f32(terms: &[f32], tile: usize, capped: bool) -> Vec<u32> {
    let mut p = 0.0f64;
    terms
        .chunks(tile)
        .map(|t| {
            let b = f32_binade(p);
            let ts: f64 = t.iter().map(|&x| f64::from(x)).sum();
            p = if capped {
                let big = t.iter().fold(0.0f32, |a, &x| a.max(x));
                p.max((p + ts).min(stall_cap_f32(big)))
            } else {
                p + ts
            };
            b
        })
        .collect()
}

/// A tile's move on an f32 sum in binade field `b` (1..=254) while the sum stays there: the sum
/// is a multiple of the binade's ulp u_b = 2^(b - bias - 23) (2^(b - 150)), so `s + x` rounds
/// to `s + rint(x / u_b) u_b` (ties to the even multiple: the move from an even start), and the
/// tile moves it by `u_b * sum rint(x / u_b)`, an f64 sum of integers below 2^53 (exact). The
/// walked kernel's `wk_move_scale` (which takes the bias and the fraction bits from the same
/// widths) and its producers' moves (`BINADE_WK_MOVES`), a plan of its f32 build.
pub fn move_f32(tile: &[f32], b: u32) -> f64 {
    use crate::format::{Format, Layout, F32};
    debug_assert!((1..=<F32 as Layout>::MAX_NORMAL_FIELD).contains(&b));
    let scale = 2f64.powi(F32::BIAS + F32::FRAC_BITS as i32 - b as i32);
    tile.iter()
        .map(|&x| (f64::from(x) * scale).round_ties_even())
        .sum::<f64>()
        / scale
}

/// The walked kernel's f32 plans with moves (`BINADE_WK_MOVES`) from a look-back that sees
/// every earlier tile: each tile moves the approximate prefix by [`move_f32`] at the binade
/// of its window (base mb, the binade of the chain's own prefix `far` tiles back, as the
/// kernel's far anchor gives it; mb where the prefix's binade is at or below mb, mb + 1
/// above it), by its tree sum where it has no window (before the first anchor), under the
/// stall cap as in [`tree_plans_f32`]. A model of the plan alone (the kernel's window base
/// also takes the walker's hint, and its look-backs take the binade of their base).
pub fn moves_plans_f32(terms: &[f32], tile: usize, far: usize) -> Vec<u32> {
    plans_by_moves_f32(terms, tile, far, move_f32)
}

/// The f32 loop's move across a tile from a sum in binade field `b` (1..=254) that is an odd
/// (`start_odd`) or even multiple of the binade's ulp u_b, for as long as the sum stays in b:
/// unlike [`move_f32`] it carries the sum's parity from term to term, so it is the loop's
/// move on ties too. The argument: the sum is m u_b (m an integer) and a widened term is
/// n u_b with n = x 2^(150 - b) exact (a power-of-two scaling of an f32). `s + x` is
/// (m + n) u_b rounded to a multiple of u_b (the binade's grid): m + rint(n) where n is not
/// k + 1/2, and where it is, whichever of m + k and m + k + 1 is even, so the new m is even
/// whatever the old one was. The increments are integers below 2^53 in f64 (exact). From an
/// even sum a tie adds what [`move_f32`] adds for it, from an odd sum the other neighbour, so
/// where ties are frequent the two drift apart (the half-ties stream's plans).
pub fn parity_move_f32(tile: &[f32], b: u32, start_odd: bool) -> f64 {
    use crate::format::{Format, Layout, F32};
    debug_assert!((1..=<F32 as Layout>::MAX_NORMAL_FIELD).contains(&b));
    let scale = 2f64.powi(F32::BIAS + F32::FRAC_BITS as i32 - b as i32);
    let (mut moved, mut odd) = (0.0f64, start_odd);
    for &x in tile {
        let n = f64::from(x) * scale;
        let k = n.floor();
        let step = if n - k == 0.5 {
            // the sum's m + k is odd exactly where m's and k's parities differ
            k + f64::from(u8::from(odd != (k % 2.0 != 0.0)))
        } else {
            n.round_ties_even()
        };
        moved += step;
        odd = odd != (step % 2.0 != 0.0);
    }
    moved / scale
}

/// [`parity_move_f32`] from an even start in the walked kernel's form (`BINADE_WK_MOVES` 4
/// and 5): the sum kept in ulps of the binade, M = rint(M + n) term by term from M = 0, with
/// n = x 2^(150 - b). M is an integer, so rint(M + n) is M + rint(n) where n is not k + 1/2
/// and the even one of M + k and M + k + 1 where it is: the loop's step, its parity carried by
/// M itself. Equal to [`parity_move_f32`]`(tile, b, false)` wherever each M + n is exact in
/// f64 (M below 2^53 less the bits of n's fraction: a widened f32 has 24 significant bits).
pub fn chained_move_f32(tile: &[f32], b: u32) -> f64 {
    use crate::format::{Format, Layout, F32};
    debug_assert!((1..=<F32 as Layout>::MAX_NORMAL_FIELD).contains(&b));
    let scale = 2f64.powi(F32::BIAS + F32::FRAC_BITS as i32 - b as i32);
    tile.iter()
        .fold(0.0f64, |m, &x| (m + f64::from(x) * scale).round_ties_even())
        / scale
}

/// [`moves_plans_f32`] with each tile's move carried through its terms in order from an even
/// start ([`parity_move_f32`]) instead of rounded term by term: the plan a kernel would get
/// by composing its lanes' moves for both start parities in order (as its units are
/// composed). A model of a plan the walked kernel does not have (`reports/walked-ties`); its
/// `Moves::Parity` chains each thread's terms alone ([`thread_parity_moves_plans_f32`]).
pub fn parity_moves_plans_f32(terms: &[f32], tile: usize, far: usize) -> Vec<u32> {
    plans_by_moves_f32(terms, tile, far, |t, b| parity_move_f32(t, b, false))
}

/// A tile's move as the walked kernel's parity moves form it (`BINADE_WK_MOVES` 4 and 5): each of
/// `threads` threads carries [`parity_move_f32`]'s chain from an even start through its own
/// terms in order, the pairs 2 (j threads + i) and the term after each (`wk_load`'s layout),
/// and the threads' moves are added (integers of ulps below 2^53: exact in any order). Not
/// the loop's move where a thread's true start is odd; a model of the kernel's plan.
pub fn thread_parity_move_f32(tile: &[f32], b: u32, threads: usize) -> f64 {
    debug_assert!(threads > 0);
    let mut mine = Vec::with_capacity(tile.len() / threads + 2);
    (0..threads)
        .map(|i| {
            mine.clear();
            let pairs = (0..)
                .map(|j| 2 * (j * threads + i))
                .take_while(|&q| q < tile.len());
            for q in pairs {
                mine.extend(tile[q..tile.len().min(q + 2)].iter());
            }
            parity_move_f32(&mine, b, false)
        })
        .sum()
}

/// [`moves_plans_f32`] with the moves of [`thread_parity_move_f32`] (`threads` threads a
/// tile): the walked kernel's plans with `Moves::Parity`, from a look-back that sees every
/// earlier tile.
pub fn thread_parity_moves_plans_f32(
    terms: &[f32],
    tile: usize,
    threads: usize,
    far: usize,
) -> Vec<u32> {
    plans_by_moves_f32(terms, tile, far, |t, b| {
        thread_parity_move_f32(t, b, threads)
    })
}

/// Plans from moves: each tile moves the approximate prefix by `moved(tile, binade)` at the
/// binade of its window (base mb, the binade of the chain's own prefix `far` tiles back; mb
/// where the prefix's binade is at or below mb, mb + 1 above it), by its tree sum where it
/// has no window (before the first anchor, or where mb + 1 would pass f32's largest binade),
/// under the stall cap as in [`tree_plans_f32`].
fn plans_by_moves_f32(
    terms: &[f32],
    tile: usize,
    far: usize,
    moved: impl Fn(&[f32], u32) -> f64,
) -> Vec<u32> {
    let mut chain: Vec<f64> = Vec::new();
    let mut p = 0.0f64;
    terms
        .chunks(tile)
        .enumerate()
        .map(|(t, tl)| {
            let b = f32_binade(p);
            chain.push(p);
            let mb = t.checked_sub(far).map_or(0, |a| f32_binade(chain[a]));
            let m = if mb == 0
                || mb >= <crate::format::F32 as crate::format::Layout>::MAX_NORMAL_FIELD
                || b == 0
            {
                tl.iter().map(|&x| f64::from(x)).sum()
            } else {
                moved(tl, if b > mb { mb + 1 } else { mb })
            };
            let big = tl.iter().fold(0.0f32, |a, &x| a.max(x));
            p = p.max((p + m).min(stall_cap_f32(big)));
            b
        })
        .collect()
}

/// How a look-back moves the tiles of its passes that come before the pass holding its base
/// (the walked kernel's `wk_lookback_plan` reads 32 plan words a pass, nearest first).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EarlyPasses {
    /// From the base's binade, as the pass holding the base moves its tiles (the kernel's rule
    /// since 361be44: such passes sum both window binades and keep the base's).
    BaseBinade,
    /// From the looking tile's window base (the rule before, `Moves::BaseUnknown` now).
    WindowBase,
    /// Every tile after the base, early pass or not, from the binade of the running prefix
    /// before it (the base plus the moves of the tiles between, uncapped): the kernel's
    /// `Moves::Crossing`, which reads a look-back's span again forward where the prefix it
    /// found lies in another binade than its base (where it does not, the running prefix of
    /// non-negative moves stayed in the base's binade, and the two rules agree). The kernel
    /// reads a span again only where one of its tiles has its two moves more than 1/64 apart;
    /// the model moves every span this way.
    Running,
}

/// The walked kernel's f32 plans with moves from look-backs that all reach `depth` tiles back
/// for their base (an approximate inclusive prefix published `depth + 1` tiles before, or the
/// sum's start), a model of one launch whose tiles publish their prefixes that late. Each tile
/// t publishes its moves at its window: base mb, the binade of the prefix of the tile `far`
/// back (none before it: the tree sum), mb + 1 above. Its look-back moves each tile after the
/// base by that tile's word at the base's binade bb (the move at mb where bb <= mb, at mb + 1
/// above), except where [`EarlyPasses`] says otherwise (the tiles of passes before the base's
/// pass; with `Running` every tile, from its running prefix's binade); the
/// sum is capped by the least stall cap of those tiles; the tile's own move is taken at the
/// prefix's binade and capped by its own cap. The plan is the prefix's binade.
pub fn lookback_plans_f32(
    terms: &[f32],
    tile: usize,
    far: usize,
    depth: usize,
    early: EarlyPasses,
) -> Vec<u32> {
    const PASS: usize = 32;
    let tiles: Vec<&[f32]> = terms.chunks(tile).collect();
    let cap = |k: usize| stall_cap_f32(tiles[k].iter().fold(0.0f32, |a, &x| a.max(x)));
    // Tile k's word read at binade bb: its tree sum without a window, else its move at mb or
    // mb + 1 (each tile's moves formed once a binade).
    let mut formed: std::collections::HashMap<(usize, u32), f64> = Default::default();
    let mut word = |k: usize, mb: u32, bb: u32| {
        if mb == 0 || mb >= <crate::format::F32 as crate::format::Layout>::MAX_NORMAL_FIELD {
            tiles[k].iter().map(|&x| f64::from(x)).sum()
        } else {
            let b = if bb > mb { mb + 1 } else { mb };
            *formed
                .entry((k, b))
                .or_insert_with(|| move_f32(tiles[k], b))
        }
    };
    let mut prefix: Vec<f64> = Vec::with_capacity(tiles.len());
    let mut window: Vec<u32> = Vec::with_capacity(tiles.len());
    let mut plans = Vec::with_capacity(tiles.len());
    for t in 0..tiles.len() {
        let mb = t.checked_sub(far).map_or(0, |a| f32_binade(prefix[a]));
        window.push(mb);
        // The base: tile t - depth - 1's prefix, or the start (0, before tile 0).
        let (base, first) = match t.checked_sub(depth + 1) {
            Some(a) => (prefix[a], a + 1),
            None => (0.0, 0),
        };
        let bb = f32_binade(base);
        let base_pass = (t - first) / PASS; // the pass that reads tile first - 1
        let (mut moved, mut least) = (0.0f64, f64::INFINITY);
        for (k, &window_k) in window.iter().enumerate().take(t).skip(first) {
            let pass = (t - 1 - k) / PASS;
            let at = match early {
                EarlyPasses::WindowBase if pass < base_pass => mb,
                EarlyPasses::Running => f32_binade(base + moved),
                _ => bb,
            };
            moved += word(k, window_k, at);
            least = least.min(cap(k));
        }
        let p = base.max((base + moved).min(least));
        let b = f32_binade(p);
        plans.push(b);
        let own = word(t, mb, b);
        prefix.push(p.max((p + own).min(cap(t))));
    }
    plans
}

/// The binade field of v rounded to f32 (0 where that is not a positive normal).
fn f32_binade(v: f64) -> u32 {
    use crate::format::Format;
    Binade::of::<crate::format::F32>(crate::format::F32::to_bits(v as f32)).map_or(0, |b| b.0)
}
