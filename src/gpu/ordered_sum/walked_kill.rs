//! The walked engine's checks, shared by `tests/gpu_walked.rs` and the `mutations` kill
//! matrix: the cases every build must sum to the CPU loop's bits, and the check of a job's
//! buffers launched again on other terms (where a walker that trusts a word of an earlier
//! launch goes wrong).

use anyhow::Result;

use super::walked::{SumGroup, WalkedSum, WalkedTerm};
use crate::format::{same_result, Format, F64};
use crate::verify::inputs::{self, InputKind};
use crate::walk::{loop_from, loop_sum};

/// One sum to check: its name (kind, size and seed, or the hand-made input), its terms (f64,
/// or f32 for an f32 build) and the loop's start (+0 or -0).
pub struct KillCase<T = f64> {
    /// What it is, with the seed that makes it.
    pub name: String,
    /// The terms.
    pub terms: Vec<T>,
    /// The loop's start (+0 or -0, in the terms' format).
    pub start: f64,
}

/// Every input kind at each of `sizes` made in `T`'s format (seed `seed ^ n`), from +0, each
/// named with `label` after its kind.
fn kind_cases<T: WalkedTerm>(seed: u64, sizes: &[usize], label: &str) -> Vec<KillCase<T>> {
    InputKind::ALL
        .into_iter()
        .flat_map(|kind| {
            sizes.iter().map(move |&n| {
                let s = seed ^ n as u64;
                KillCase {
                    name: format!("{}{label} n={n} seed={s:#x}", kind.name()),
                    terms: kind.generate::<T::F>(n, s),
                    start: 0.0,
                }
            })
        })
        .collect()
}

/// Every input kind at each of `sizes` (seed `seed ^ n`), from +0; then the hand-made inputs
/// at the engine's tile of `tile` terms (the one-pass engine's tile cases, a plan behind a
/// crossing for 300 tiles, an infinity then its opposite, -0.0 over three tiles, an infinity
/// after increments in its tile, a crossing before, at and after its split lane), each from
/// +0 and from -0.
pub fn kill_cases(seed: u64, sizes: &[usize], tile: usize) -> Vec<KillCase> {
    let mut cases = kind_cases::<f64>(seed, sizes, "");
    let mut hand: Vec<(&str, Vec<f64>)> = inputs::tile_boundary_cases(tile).into_iter().collect();
    hand.push((
        "plan behind a crossing, 300 tiles",
        inputs::plan_behind_crossing(tile, 300),
    ));
    hand.push((
        "infinity then its opposite",
        inputs::infinity_then_its_opposite(tile),
    ));
    hand.push(("-0.0 over three tiles", vec![-0.0; 3 * tile + 5]));
    hand.push((
        "an infinity after increments in its tile",
        inputs::infinity_after_increments(tile),
    ));
    for (name, miss) in SPLIT_CASES {
        hand.push((name, split_lane_miss(tile, miss)));
    }
    for (name, case) in PLAN_CASES {
        hand.push((name, planned_finish_case(tile, case, f64::EPSILON)));
    }
    hand.push((STEP_SEARCH_CASE, step_search_case(tile, f64::EPSILON)));
    for (name, terms) in hand {
        for start in [0.0, -0.0] {
            cases.push(KillCase {
                name: name.to_string(),
                terms: terms.clone(),
                start,
            });
        }
    }
    cases
}

/// [`kill_cases`] for an f32 build: every input kind at each of `sizes` made as f32 terms
/// (seed `seed ^ n`), from +0; the hand-made inputs rounded to f32; the crossing and the
/// excursion rebuilt at f32's quantum; two f32 streams of their own: a sum that stops moving
/// at 2^25 (every later term below half its quantum of 4), and one whose every later term is
/// a tie at that quantum (2.0 after 2^25 + 4: the loop rounds each to the even significand);
/// one stalled at 2^24 for 2^25 terms, long enough for its tree sums to pass 2^25;
/// and the split inputs at f32's quantum; each from +0 and from -0.
pub fn kill_cases_f32(seed: u64, sizes: &[usize], tile: usize) -> Vec<KillCase<f32>> {
    let mut cases = kind_cases::<f32>(seed, sizes, " f32");
    let mut hand: Vec<(String, Vec<f32>)> = kill_cases(seed, &[], tile)
        .into_iter()
        .filter(|c| c.start.is_sign_positive())
        .map(|c| {
            (
                format!("{}, rounded to f32", c.name),
                c.terms.iter().map(|&x| x as f32).collect(),
            )
        })
        .collect();
    hand.push((
        "plan behind a crossing, f32, 300 tiles".to_string(),
        plan_behind_crossing_f32(tile, 300),
    ));
    hand.push((
        "excursion above the binade, f32".to_string(),
        excursion_above_binade_f32(tile),
    ));
    let below: Vec<f32> = std::iter::once(33_554_432.0f32)
        .chain((1..3 * tile + 11).map(|i| 0.5 + (i % 97) as f32 / 256.0))
        .collect();
    hand.push(("f32 sum stopped at 2^25".to_string(), below));
    // Stalled for long: the tree sums pass 2^25 after about 2^24 / 0.61 terms and go on, the
    // loop stays at 2^24 (every term below 1, half its ulp there): plans from tree sums alone
    // miss every tile after that, the stall cap's (`StallCap`) follow the loop.
    let stalled: Vec<f32> = std::iter::once(16_777_216.0f32)
        .chain((1..(1usize << 25) + 3 * tile).map(|i| 0.25 + (i % 3001) as f32 / 4096.0))
        .collect();
    hand.push((
        "f32 sum stalled at 2^24 while its tree sums pass 2^25".to_string(),
        stalled,
    ));
    let ties: Vec<f32> = std::iter::once(33_554_436.0f32)
        .chain(std::iter::repeat_n(2.0, 3 * tile + 11))
        .collect();
    hand.push(("f32 ties at the quantum 4 after 2^25 + 4".to_string(), ties));
    for (name, miss) in SPLIT_CASES {
        hand.push((format!("{name}, f32"), split_lane_miss_f32(tile, miss)));
    }
    for (name, case) in PLAN_CASES {
        let terms = planned_finish_case(tile, case, f64::from(f32::EPSILON));
        hand.push((
            format!("{name}, f32"),
            terms.into_iter().map(|x| x as f32).collect(),
        ));
    }
    let terms = step_search_case(tile, f64::from(f32::EPSILON));
    hand.push((
        format!("{STEP_SEARCH_CASE}, f32"),
        terms.into_iter().map(|x| x as f32).collect(),
    ));
    for (name, terms) in hand {
        for start in [0.0, -0.0] {
            cases.push(KillCase {
                name: name.clone(),
                terms: terms.clone(),
                start,
            });
        }
    }
    cases
}

/// `inputs::plan_behind_crossing` at f32's quantum: the first term `2 - k 2^-23` (`k = 3000
/// tile / 4096`), then `x = 2^-24 (1 + 2^-7)`, one ulp of `[1, 2)` each (the loop reaches 2
/// inside the first tile) and below half an ulp of `[2, 4)` (then it adds nothing). The tree
/// sums put the second tile in `[1, 2)` although its exact start is 2: a walker that composes
/// units planned for another binade goes wrong. (The f64 input rounded to f32 loses it: its
/// terms fall below f32's quantum.) Needs `tile >= 64`.
fn plan_behind_crossing_f32(tile: usize, tiles: usize) -> Vec<f32> {
    debug_assert!(tile >= 64);
    let ulp = f32::EPSILON; // 2^-23, the ulp of [1, 2)
    let x = 0.5 * ulp * (1.0 + 1.0 / 128.0);
    let k = (3000 * tile / 4096) as f32;
    let mut v = vec![x; tile * tiles];
    v[0] = 2.0 - k * ulp;
    v
}

/// `inputs::excursion_above_binade` at f32's quantum: `1.875` and zeros, then a tile that
/// starts with `0.25 + 3 * 2^-25` and `-0.25`. The loop rounds `1.875 + x` in `[2, 4)`, where
/// `3 * 2^-25` is below half an ulp, and ends at `1.875`; the increments of `[1, 2)` (with
/// `x / 2^-23 = 2^21 + 0.75` rounded up) end one ulp higher: a unit that takes a negative
/// term goes wrong.
fn excursion_above_binade_f32(tile: usize) -> Vec<f32> {
    debug_assert!(tile >= 2);
    let mut v = vec![0.0f32; 2 * tile];
    v[0] = 1.875;
    v[tile] = 0.25 + 3.0 * 2f32.powi(-25);
    v[tile + 1] = -0.25;
    v
}

/// The split inputs of the kill cases, by name.
const SPLIT_CASES: [(&str, SplitMiss); 3] = [
    ("a crossing before its split lane", SplitMiss::Early),
    (
        "a crossing at its split lane's start",
        SplitMiss::AtLaneStart,
    ),
    ("a crossing after its split lane", SplitMiss::Late),
];

/// Where the loop's crossing falls against a split's lane ([`split_lane_miss`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SplitMiss {
    /// Before it: the first unit leaves the binade.
    Early,
    /// Exactly at its start: the first unit lands on the binade's top and the lane moves on.
    AtLaneStart,
    /// After it: the sum after the lane is still in the binade.
    Late,
}

/// Terms whose third tile carries the tree sums' prefix over 2 while the loop reaches 2
/// elsewhere than the lane the tree sums name: a split's plan (`WalkedShape::split`) is off
/// there, and only its checks keep the bits. The first term is `2 - d u` (`u = 2^-52`, the
/// ulp of `[1, 2)`), the rest of the first two tiles zeros, so the third tile's prefix is
/// exactly `2 - d u` wherever it is planned from (tree sums or the walker's hint). Then the
/// third tile and 5 terms after it are all `x`, each of which the loop rounds to a whole
/// number of ulps in `[1, 2)`, so it reaches 2 inside the third tile (its unit does not
/// apply: the walker takes the split or finishes the tile). Lanes of 16 terms:
/// - `Early`: `d = 100`, `x = 0.75 u`. The loop adds `u` a term and reaches 2 in lane 6;
///   the tree sums (`12 u` a lane) reach it in lane 8: the split's first unit (lanes 0 to 7)
///   leaves `[1, 2)` (a check that its end stays in the binade must refuse it).
/// - `AtLaneStart`: `d = 224`, `x = 1.75 u`. The loop adds `2 u` a term and reaches exactly 2
///   at the end of lane 6; the tree sums (`28 u` a lane) reach it in lane 7: the first unit
///   (lanes 0 to 6) lands on 2, and lane 7's terms move the sum on (`2 u` each in `[2, 4)`),
///   so a split that skips its lane goes wrong.
/// - `Late`: `d = 100`, `x = 1.25 u`. The loop adds `u` a term and reaches 2 in lane 6; the
///   tree sums (`20 u` a lane) reach it in lane 4: after lane 4 the sum is still in `[1, 2)`,
///   not in the binade of the split's second unit.
///
/// Needs `tile >= 256` (the lanes named lie in the tile).
fn split_lane_miss(tile: usize, miss: SplitMiss) -> Vec<f64> {
    split_lane_miss_at(tile, miss, f64::EPSILON)
}

/// [`split_lane_miss`] at f32's quantum (`u = 2^-23`): every term is exact in f32, and the
/// f32 loop rounds them as the f64 loop rounds the f64 input's.
fn split_lane_miss_f32(tile: usize, miss: SplitMiss) -> Vec<f32> {
    split_lane_miss_at(tile, miss, f64::from(f32::EPSILON))
        .into_iter()
        .map(|x| x as f32)
        .collect()
}

/// [`split_lane_miss`] with `ulp` the ulp of `[1, 2)` in the terms' format.
fn split_lane_miss_at(tile: usize, miss: SplitMiss, ulp: f64) -> Vec<f64> {
    debug_assert!(tile >= 256);
    let (d, x) = match miss {
        SplitMiss::Early => (100.0, 0.75 * ulp),
        SplitMiss::AtLaneStart => (224.0, 1.75 * ulp),
        SplitMiss::Late => (100.0, 1.25 * ulp),
    };
    let mut v = vec![0.0; 2 * tile];
    v[0] = 2.0 - d * ulp;
    v.extend(std::iter::repeat_n(x, tile + 5));
    v
}

/// The planned finish's inputs of the kill cases, by name.
const PLAN_CASES: [(&str, PlanCase); 3] = [
    (
        "a planned run the loop leaves early (half-ulp terms rounded up)",
        PlanCase::RunLeftEarly,
    ),
    (
        "a negative term inside a planned tile",
        PlanCase::NativeInside,
    ),
    (
        "two planned runs of two binades in one tile",
        PlanCase::TwoRuns,
    ),
];

/// The planned finish's kill inputs for f64 terms at tiles of `tile` terms (lanes of 16), by
/// name: the cases [`kill_cases`] holds, for the host model's checks (`tests/walked_model.rs`).
pub fn planned_finish_inputs(tile: usize) -> Vec<(&'static str, Vec<f64>)> {
    PLAN_CASES
        .into_iter()
        .map(|(name, case)| (name, planned_finish_case(tile, case, f64::EPSILON)))
        .collect()
}

/// The segmented step's kill input for f64 terms at tiles of `tile` terms, with its name: the
/// case [`kill_cases`] holds, for the host model's checks (`tests/walked_model.rs`).
pub fn step_search_input(tile: usize) -> (&'static str, Vec<f64>) {
    (STEP_SEARCH_CASE, step_search_case(tile, f64::EPSILON))
}

/// Which shortcut of the planned finish (`WalkedShape::planned`) an input is made to catch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PlanCase {
    /// A run whose approximate sums stay in the binade while the loop leaves it: only the
    /// run's check keeps the bits.
    RunLeftEarly,
    /// A native lane (a negative term) between two stretches of one binade: skipping its
    /// adds keeps every later check passing.
    NativeInside,
    /// Two runs of two binades with a native lane between them: a scan that composes across
    /// a run's start adds the first run's increments again.
    TwoRuns,
}

/// Terms for the planned finish's kill inputs, `u` the ulp of `[1, 2)` in the terms' format
/// (every term is exact in it, and the loop rounds at f32's quantum as at f64's), lanes of
/// 16 terms. A planned run's margin is 512 ulps of `[1, 2)` either way (`walked::PLAN_MARGIN_EXP_F64` and `_F32`, 2^-44
/// of the sum for f64 and 2^-15 for f32). Needs `tile >= 256`.
/// - `RunLeftEarly`: `2 - k u` (`k = 3500 tile / 4096`) and zeros (the first tile), then
///   `tile + 5` terms `x = u (1/2 + 2^-20)`. The loop rounds each `x` up to a whole ulp and
///   reaches 2 at term k of the second tile; the f64 sums of the lanes add `x` itself, so the
///   second tile's lanes end `k u - tile x` (1,452 ulps at 4,096-term tiles) below 2, past
///   the margin: one run planned in `[1, 2)`, whose check must refuse it (the loop stays at
///   2 after: `x` is below half an ulp of `[2, 4)`).
/// - `NativeInside`: `1.5` and zeros, then a tile of `4 u` whose lane 5 has one term `-2 u`:
///   lane 5 is native between two runs in `[1, 2)`.
/// - `TwoRuns`: the first tile from the sum's start: `1.0` and zeros (lane 0, native from
///   +-0), 144 terms `u` (lanes 1 to 9), lane 10 `1 - 2^-10`, `2^-9` and zeros (it carries
///   the sum over 2: native), then `2 u` to the tile's end and 5 terms after; the run of
///   lanes 11 on is in `[2, 4)`.
fn planned_finish_case(tile: usize, case: PlanCase, u: f64) -> Vec<f64> {
    debug_assert!(tile >= 256);
    match case {
        PlanCase::RunLeftEarly => half_ulp_drift(tile, 3500 * tile / 4096, tile + 5, u),
        PlanCase::NativeInside => {
            let mut v = vec![0.0; tile];
            v[0] = 1.5;
            v.extend(std::iter::repeat_n(4.0 * u, tile));
            v[tile + 5 * 16 + 3] = -2.0 * u;
            v
        }
        PlanCase::TwoRuns => {
            let mut v = vec![0.0; tile + 5];
            v[0] = 1.0;
            v[16..160].fill(u);
            v[160] = 1.0 - 2f64.powi(-10);
            v[161] = 2f64.powi(-9);
            v[176..].fill(2.0 * u);
            v
        }
    }
}

/// The segmented step's kill input, by name.
const STEP_SEARCH_CASE: &str =
    "a segment the loop leaves two tiles before its end (half-ulp terms rounded up)";

/// The segmented step's kill input (`WalkedShape::seg_step`), `u` the ulp of `[1, 2)` in the
/// terms' format (every term is exact in it): the first tile `2 - k u` (`k = 5 tile / 2`) and
/// zeros, then `5 tile + 7` terms `x = u (1/2 + 2^-20)`. The loop rounds each `x` up to a
/// whole ulp, so it reaches 2 at term k after the first tile, half way through tile 3, and
/// stays there (`x` is below half an ulp of `[2, 4)`). Tree sums add `x` itself, about half
/// an ulp, so every plan from them puts tiles 1 to 5 in `[1, 2)`: one segment of five tiles
/// whose apply fails, and whose crossing is its third tile, not its last. Only the step's
/// search finds it (the prefix of tiles 1 to 4, taken unchecked, ends at `2 + 6,144 u` for
/// 4,096-term tiles, outside the binade). Needs `tile >= 256`.
fn step_search_case(tile: usize, u: f64) -> Vec<f64> {
    debug_assert!(tile >= 256);
    half_ulp_drift(tile, 5 * tile / 2, 5 * tile + 7, u)
}

/// A first tile of `2 - k u` and zeros (`u` the ulp of `[1, 2)` in the terms' format), then
/// `len` terms `x = u (1/2 + 2^-20)`: the loop rounds each `x` up to a whole ulp and reaches
/// 2 at term k after the first tile, then stays there (`x` is below half an ulp of `[2, 4)`),
/// while any sum of the terms themselves (a plan's, a lane's) adds `x`, about half an ulp:
/// the plans lag the loop's crossing by about k terms. Every term is exact in f32 and f64.
fn half_ulp_drift(tile: usize, k: usize, len: usize, u: f64) -> Vec<f64> {
    let x = u * (0.5 + 2f64.powi(-20));
    let mut v = vec![0.0; tile];
    v[0] = 2.0 - k as f64 * u;
    v.extend(std::iter::repeat_n(x, len));
    v
}

/// Sums every case `launches` times with `sum`: (sums checked, the first whose bits differ
/// from the loop's, named with its case, start, launch and both bit patterns). A device
/// error (a stall included) is an error, not a wrong sum.
pub fn first_wrong<T: WalkedTerm>(
    sum: &WalkedSum,
    cases: &[KillCase<T>],
    launches: usize,
) -> Result<(u64, Option<String>)> {
    let mut checked = 0u64;
    for c in cases {
        let want = <T::F as Format>::to_bits(loop_from::<T::F>(T::F::from_f64(c.start), &c.terms));
        for launch in 0..launches {
            let got = sum.sum_of(&c.terms, c.start)?;
            checked += 1;
            if !same_result::<T::F>(got.bits, want) {
                return Ok((
                    checked,
                    Some(format!(
                        "{} (start {:?}), launch {launch}: {:#018x}, the loop {want:#018x}",
                        c.name, c.start, got.bits
                    )),
                ));
            }
        }
    }
    Ok((checked, None))
}

/// Rounds of [`stale_words`] with every resident producer block.
const STALE_ROUNDS: usize = 5;
/// Rounds of [`stale_words`] after those, with one producer block.
const STALE_ONE_PRODUCER_ROUNDS: usize = 2;
/// Terms of [`stale_words`]' rounds with one producer block (at most): 2,048 tiles of 4,096,
/// two walker steps.
const STALE_ONE_PRODUCER_TERMS: usize = 1 << 23;

/// The first term of [`stale_words`]' inputs: the sum stays in `[2^40, 2^41)` from it on.
const STALE_FIRST: f64 = 1_099_511_627_776.0;

/// A job's buffers launched on `n` terms, 2^40 and then uniform ones (seed `seed`), and then
/// on the same terms with the uniform ones times `1 + 2^-20`, five rounds (and two more,
/// below): every second-launch total must be the loop's. The other terms keep the old plans'
/// binade (the walker composes only units planned for its sum's binade) while units differ
/// (about eight terms a tile round to another multiple of the quantum 2^-12), so a walker
/// that takes a word of the first launch as published composes a wrong unit wherever it
/// reads ahead of the producers. The sum never leaves its binade after the first term, so
/// the walker finishes no tile but the first and composes 1,024 tiles a step, faster than the
/// producers publish them: it reads ahead. (Uniform terms alone cross a binade at tiles 1,
/// 2, 4, ... and kept the walker behind: that mutant survived on the H200 at d17d386 and
/// d5bab74.)
/// With every resident producer that is a race the input makes likely, not certain: the
/// mutant survived it once, on the H100 at 5ccd8b6 (call C of 2026-12-07-h). So the last
/// rounds launch one producer block ([`super::walked::WalkedJob::cap_producers`]), on the
/// first 2^23 terms (a fresh job on them, launched on both inputs in turn as above): it publishes
/// one tile at a time, while the walker, past the first tile, composes 1,024 tiles a step: it
/// is then far ahead of the tiles published (still a race, but a one-sided one).
/// Returns (sums checked, the first wrong).
pub fn stale_words(sum: &WalkedSum, n: usize, seed: u64) -> Result<(u64, Option<String>)> {
    let mut a = InputKind::Uniform.generate::<F64>(n, seed);
    let mut b: Vec<f64> = a.iter().map(|x| x * (1.0 + 2f64.powi(-20))).collect();
    a[0] = STALE_FIRST;
    b[0] = STALE_FIRST;
    let s = sum.gpu().stream();
    let (da, db) = (s.clone_htod(&a)?, s.clone_htod(&b)?);
    let mut checked = 0u64;
    // Every resident producer on all n terms, then one producer on the first few tiles' worth
    // (a walker step's 1,024 tiles and more: one producer block's launch stays short).
    let one = n.min(STALE_ONE_PRODUCER_TERMS);
    for (len, cap, rounds) in [
        (n, None, STALE_ROUNDS),
        (one, Some(1), STALE_ONE_PRODUCER_ROUNDS),
    ] {
        let want = loop_sum::<F64>(&b[..len]).to_bits();
        let mut job = sum.job(da.slice(0..len))?;
        if let Some(c) = cap {
            job = job.cap_producers(c);
        }
        for round in 0..rounds {
            sum.run(&mut job)?;
            let mut on_b = job.with_terms(db.slice(0..len))?;
            let got = sum.run(&mut on_b)?;
            checked += 2;
            if got.total.to_bits() != want {
                let producers = cap.map_or("every resident producer block".to_string(), |c| {
                    format!("{c} producer block")
                });
                return Ok((
                    checked,
                    Some(format!(
                        "2^40 then uniform x (1 + 2^-20) after 2^40 then uniform on one job's buffers, n={len} seed={seed:#x}, {producers}, round {round}: {:#018x}, the loop {want:#018x}",
                        got.total.to_bits()
                    )),
                ));
            }
            job = on_b.with_terms(da.slice(0..len))?;
        }
    }
    Ok((checked, None))
}

/// One group of a segmented launch: `count` sums of `len` terms, sum k at `terms[k * pitch..]`.
pub struct CaseGroup {
    /// The buffer holding the group's terms (gaps between sums hold other terms).
    pub terms: Vec<f64>,
    /// Sums in the group.
    pub count: u32,
    /// Terms a sum.
    pub len: usize,
    /// Terms from one sum's start to the next's.
    pub pitch: usize,
}

impl CaseGroup {
    /// Sum k's terms.
    pub fn sum_terms(&self, k: usize) -> &[f64] {
        &self.terms[k * self.pitch..k * self.pitch + self.len]
    }
}

/// One segmented launch to check: its groups, every sum from `start`.
pub struct SegmentedCase {
    /// What it is, with the seed that makes it.
    pub name: String,
    /// The groups, each in its own buffer.
    pub groups: Vec<CaseGroup>,
    /// Every sum's start (+0 or -0).
    pub start: f64,
}

/// A group of `count` sums of `len` terms `pitch` apart, sum k's terms of kind `kind_of(k)`
/// (seed from `seed`, `len` and k).
fn case_group(
    seed: u64,
    count: u32,
    len: usize,
    pitch: usize,
    kind_of: &dyn Fn(usize) -> InputKind,
) -> CaseGroup {
    let mut terms = Vec::with_capacity(count as usize * pitch);
    for k in 0..count as usize {
        let s = seed ^ ((k as u64) << 32) ^ len as u64;
        terms.extend_from_slice(&kind_of(k).generate::<F64>(pitch, s));
    }
    CaseGroup {
        terms,
        count,
        len,
        pitch,
    }
}

/// Segmented launches for a tile of `tile` terms (seeds from `seed`). One group each: 18
/// uniform sums of one 960x540 plane (SSIMULACRA2's count; sums alike, so a walker that reads
/// another sum's units composes units planned for its own binade), every input kind side by
/// side at an odd length (sums on 8-byte, not 16-byte, boundaries) with a gap between sums,
/// one-tile and one-term sums, -0 starts, three long log-uniform sums. Many groups: the six
/// scales of a 960x540 SSIMULACRA2 frame (18 sums a scale, each scale its own buffer, the
/// smallest first), and groups of other kinds with an empty group among them.
pub fn segmented_cases(seed: u64, tile: usize) -> Vec<SegmentedCase> {
    let kinds = InputKind::ALL;
    let every = |k: usize| kinds[k % kinds.len()];
    let one = |name: &str, g: CaseGroup, start: f64| SegmentedCase {
        name: format!(
            "{name}: {} sums of {} terms {} apart, seed {seed:#x}",
            g.count, g.len, g.pitch
        ),
        groups: vec![g],
        start,
    };
    let n = kinds.len() as u32;
    let mut cases = vec![
        one(
            "uniform, 960x540 planes",
            case_group(seed, 18, 518_400, 518_400, &|_| InputKind::Uniform),
            0.0,
        ),
        one(
            "every kind, odd length",
            case_group(seed, n, 3 * tile + 77, 3 * tile + 80, &every),
            0.0,
        ),
        one(
            "every kind twice, -0 starts",
            case_group(seed, 2 * n, 100_003, 100_003, &every),
            -0.0,
        ),
        one(
            "half ties, one tile each",
            case_group(seed, 40, tile, tile + 1, &|_| InputKind::SsimLike),
            0.0,
        ),
        one(
            "geometric, one term each",
            case_group(seed, 64, 1, 3, &|_| InputKind::Geometric),
            0.0,
        ),
        one(
            "log-uniform, long sums",
            case_group(seed, 3, 2_000_003, 2_000_011, &|_| InputKind::LogUniform),
            0.0,
        ),
    ];
    let scales: Vec<CaseGroup> = (0..6)
        .rev()
        .map(|scale| {
            let len = (960 >> scale) * (540 >> scale);
            case_group(seed ^ scale, 18, len, len, &|k| {
                if k % 6 == 1 {
                    InputKind::Quartic
                } else {
                    InputKind::SsimLike
                }
            })
        })
        .collect();
    cases.push(SegmentedCase {
        name: format!(
            "six scales of a 960x540 frame, 18 sums each, smallest first, seed {seed:#x}"
        ),
        groups: scales,
        start: 0.0,
    });
    cases.push(SegmentedCase {
        name: format!("mixed groups with an empty one, seed {seed:#x}"),
        groups: vec![
            case_group(seed, 5, 70_001, 70_003, &every),
            case_group(seed, 3, 0, 0, &every),
            case_group(seed, 1, 1_000_003, 1_000_003, &|_| InputKind::Geometric),
            case_group(seed, 7, 2 * tile, 2 * tile, &|k| every(k + 5)),
        ],
        start: -0.0,
    });
    cases
}

/// Sums every segmented case `launches` times with `sum` (one launch for all its sums):
/// (sums checked, the first whose bits differ from the loop's over its own terms, named with
/// its case, group, sum, launch and both bit patterns). A device error is an error, not a
/// wrong sum.
pub fn first_wrong_segmented(
    sum: &WalkedSum,
    cases: &[SegmentedCase],
    launches: usize,
) -> Result<(u64, Option<String>)> {
    let s = sum.gpu().stream();
    let mut checked = 0u64;
    for c in cases {
        let wants: Vec<(usize, usize, u64)> = c
            .groups
            .iter()
            .enumerate()
            .flat_map(|(j, g)| {
                (0..g.count as usize)
                    .map(move |k| (j, k, loop_from::<F64>(c.start, g.sum_terms(k)).to_bits()))
            })
            .collect();
        let devs = c
            .groups
            .iter()
            .map(|g| {
                s.clone_htod(if g.terms.is_empty() {
                    &[0.0][..]
                } else {
                    &g.terms
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        let groups = c
            .groups
            .iter()
            .zip(&devs)
            .map(|(g, d)| SumGroup {
                terms: d.slice(0..g.terms.len()),
                count: g.count,
                len: g.len,
                pitch: g.pitch,
            })
            .collect();
        let mut job = sum.groups_job(groups)?;
        job.set_start(c.start)?;
        for launch in 0..launches {
            let got = sum.run_segments(&mut job)?;
            for (g, &(j, k, want)) in got.iter().zip(&wants) {
                checked += 1;
                if !same_result::<F64>(g.total.to_bits(), want) {
                    return Ok((
                        checked,
                        Some(format!(
                            "{} (start {:?}), group {j} sum {k}, launch {launch}: {:#018x}, the loop {want:#018x}",
                            c.name,
                            c.start,
                            g.total.to_bits()
                        )),
                    ));
                }
            }
        }
    }
    Ok((checked, None))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::F32;

    /// The f32 hand inputs do what their docs say on the host's f32 loop: the crossing input
    /// reaches exactly 2 inside its first tile and stays there; the excursion ends at 1.875,
    /// where adding `[1, 2)`'s rounded increments would end one ulp higher.
    #[test]
    fn the_f32_hand_inputs_reach_their_limits() {
        let tile = 4096;
        let v = plan_behind_crossing_f32(tile, 4);
        assert_eq!(loop_sum::<F32>(&v[..tile]), 2.0);
        assert_eq!(loop_sum::<F32>(&v), 2.0);
        let tree: f64 = v[..tile].iter().map(|&x| f64::from(x)).sum();
        assert!(
            tree < 2.0,
            "the first tile's tree sum must plan below 2: {tree}"
        );
        let e = excursion_above_binade_f32(tile);
        assert_eq!(e[tile], 0.25 + 3.0 * 2f32.powi(-25));
        assert_eq!(loop_sum::<F32>(&e), 1.875);
        let y = f64::from(e[tile]) / f64::from(f32::EPSILON);
        assert_eq!(y, 2f64.powi(21) + 0.75);
    }

    /// The split inputs do what their docs say on `F`'s loop (`inputs(miss)`, `u` the ulp of
    /// `[1, 2)` in `F`): the third tile's prefix is exactly `2 - d u`, its tree sum carries it
    /// past 2, and the loop reaches 2 at the term the doc names (and, for `AtLaneStart`, lane 7
    /// moves it on by `2 u` a term).
    fn check_split_inputs<F: Format>(inputs: impl Fn(SplitMiss) -> Vec<F::Value>, u: f64) {
        let tile = 4096;
        let sum = |v: &[F::Value]| F::to_f64(loop_sum::<F>(v));
        for (miss, d, at) in [
            (SplitMiss::Early, 100.0, 100),
            (SplitMiss::AtLaneStart, 224.0, 112),
            (SplitMiss::Late, 100.0, 100),
        ] {
            let v = inputs(miss);
            let start = 2 * tile;
            assert_eq!(sum(&v[..start]), 2.0 - d * u, "{miss:?}");
            assert!(sum(&v[..start + at - 1]) < 2.0, "{miss:?}");
            assert_eq!(sum(&v[..start + at]), 2.0, "{miss:?}");
            let tree: f64 = v[start..start + tile].iter().map(|&x| F::to_f64(x)).sum();
            assert!(
                2.0 - d * u + tree > 2.0,
                "{miss:?}: the tree sum must carry it past 2"
            );
        }
        let v = inputs(SplitMiss::AtLaneStart);
        assert_eq!(sum(&v[..2 * tile + 128]), 2.0 + 32.0 * u);
    }

    /// The planned finish's inputs do what their docs say, at f64's quantum on the f64 loop
    /// and at f32's on the f32 loop.
    fn check_plan_inputs<F: Format>(u: f64) {
        let tile = 4096;
        let terms = |case| -> Vec<F::Value> {
            planned_finish_case(tile, case, u)
                .into_iter()
                .map(F::from_f64)
                .collect()
        };
        let sum = |v: &[F::Value]| F::to_f64(loop_sum::<F>(v));
        let v = terms(PlanCase::RunLeftEarly);
        assert_eq!(
            sum(&v[..tile + 3499]),
            2.0 - u,
            "the loop is below 2 before term 3500"
        );
        assert_eq!(sum(&v[..tile + 3500]), 2.0, "and reaches 2 there");
        assert_eq!(sum(&v), 2.0, "and stays there");
        // The planned pass's approximate end of the second tile: S (exact) plus the f64 sum
        // of its lanes' f64 sums (the kernel's scan adds them in another order; these tiny
        // sums are exact in any order).
        let lanes: f64 = v[tile..2 * tile]
            .chunks(16)
            .map(|l| l.iter().map(|&x| F::to_f64(x)).sum::<f64>())
            .sum();
        let approx = F::to_f64(v[0]) + lanes;
        assert!(
            2.0 - approx > 1024.0 * u,
            "the lanes' sums end past the margin: {approx}"
        );
        let v = terms(PlanCase::NativeInside);
        assert_eq!(sum(&v), 1.5 + (4.0 * 4095.0 - 2.0) * u);
        let v = terms(PlanCase::TwoRuns);
        assert_eq!(sum(&v[..160]), 1.0 + 144.0 * u);
        assert_eq!(sum(&v[..162]), 2.0 + 2f64.powi(-10) + 144.0 * u);
        assert_eq!(
            sum(&v),
            2.0 + 2f64.powi(-10) + 144.0 * u + 2.0 * u * (tile + 5 - 176) as f64
        );
    }

    /// The segmented step's input does what its doc says on `F`'s loop: the loop crosses 2
    /// half way through tile 3 and stays there, while the tree sums' prefixes put tiles 1 to 5
    /// below 2 by more than the plans' margins and tile 6 at 2 or above.
    fn check_step_input<F: Format>(u: f64) {
        let tile = 4096;
        let v: Vec<F::Value> = step_search_case(tile, u)
            .into_iter()
            .map(F::from_f64)
            .collect();
        let sum = |v: &[F::Value]| F::to_f64(loop_sum::<F>(v));
        let k = 5 * tile / 2;
        assert_eq!(sum(&v[..tile + k - 1]), 2.0 - u, "below 2 before term k");
        assert_eq!(sum(&v[..tile + k]), 2.0, "at 2 at term k, inside tile 3");
        assert!(tile + k > 3 * tile && tile + k < 4 * tile);
        assert_eq!(sum(&v), 2.0, "and stays there");
        // The prefix before tile t as a plan sees it: the first tile's sum plus (t - 1) tiles
        // of x at their real value (the f64 sum of many x is exact up to its last rounding;
        // an f64 loop over them would round each x up as the format's loop does).
        let x = F::to_f64(v[tile]);
        let tree = |t: usize| -> f64 { F::to_f64(v[0]) + ((t - 1) * tile) as f64 * x };
        assert!(
            2.0 - tree(5) > 1024.0 * u,
            "tile 5 planned below 2: {}",
            tree(5)
        );
        assert!(tree(6) >= 2.0, "tile 6 planned at 2 or above: {}", tree(6));
    }

    #[test]
    fn the_step_search_input_does_what_its_doc_says() {
        check_step_input::<F64>(f64::EPSILON);
        check_step_input::<F32>(f64::from(f32::EPSILON));
    }

    #[test]
    fn the_planned_finish_inputs_do_what_their_docs_say() {
        check_plan_inputs::<F64>(f64::EPSILON);
        check_plan_inputs::<F32>(f64::from(f32::EPSILON));
    }

    /// The split inputs cross where their docs say, at f64's quantum on the f64 loop and at
    /// f32's on the f32 loop.
    #[test]
    fn the_split_inputs_cross_where_their_docs_say() {
        check_split_inputs::<F64>(|m| split_lane_miss(4096, m), f64::EPSILON);
        check_split_inputs::<F32>(|m| split_lane_miss_f32(4096, m), f64::from(f32::EPSILON));
    }
}
