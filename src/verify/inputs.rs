//! Named generators of term streams, each seeded (xoshiro256++), for every format.

use std::fmt;
use std::str::FromStr;

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::format::{exp_field, round_f64, scaled, Format, Layout};

/// Terms per block of [`InputKind::generate`] (2^20).
pub const GENERATE_BLOCK: usize = 1 << 20;

/// A kind of term stream. The same `(kind, n, seed)` always gives the same terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum InputKind {
    /// Uniform in `[0, 1)`.
    Uniform,
    /// SSIMULACRA2's `d = 1 - q`, `q` uniform in `[0.5, 1)` on the `2^-p` grid: every second
    /// term is a tie while the sum is in `[1, 2)`.
    SsimLike,
    /// Fourth powers of values uniform in `[0, 0.1)`.
    Quartic,
    /// Log-uniform over 70 binades, `[2^-35, 2^35)`.
    LogUniform,
    /// Exact powers of two, `2^k` with `k` uniform in `[-40, 10]`.
    PowersOfTwo,
    /// Terms growing smoothly over 60 binades along the stream (many crossings).
    Geometric,
    /// One term in a thousand non-zero, up to `2^40`; the rest zeros.
    SparseLarge,
    /// Random subnormals only.
    Subnormal,
    /// Integers uniform in `[0, 1000]`.
    Integer,
    /// Each term an odd multiple of half an ulp of the running sum: every add is a tie.
    AdversarialTies,
    /// Uniform terms with one in twenty negated (cancellation, downward crossings).
    Negatives,
    /// Uniform terms with NaN, both infinities and negatives at random places.
    Specials,
    /// Terms near the top of the range, so the sum overflows to infinity.
    Overflow,
}

impl InputKind {
    /// Every kind, in report order.
    pub const ALL: [InputKind; 13] = [
        InputKind::Uniform,
        InputKind::SsimLike,
        InputKind::Quartic,
        InputKind::LogUniform,
        InputKind::PowersOfTwo,
        InputKind::Geometric,
        InputKind::SparseLarge,
        InputKind::Subnormal,
        InputKind::Integer,
        InputKind::AdversarialTies,
        InputKind::Negatives,
        InputKind::Specials,
        InputKind::Overflow,
    ];

    /// The kebab-case name used in experiment files and reports.
    pub fn name(self) -> &'static str {
        match self {
            InputKind::Uniform => "uniform",
            InputKind::SsimLike => "ssim-like",
            InputKind::Quartic => "quartic",
            InputKind::LogUniform => "log-uniform",
            InputKind::PowersOfTwo => "powers-of-two",
            InputKind::Geometric => "geometric",
            InputKind::SparseLarge => "sparse-large",
            InputKind::Subnormal => "subnormal",
            InputKind::Integer => "integer",
            InputKind::AdversarialTies => "adversarial-ties",
            InputKind::Negatives => "negatives",
            InputKind::Specials => "specials",
            InputKind::Overflow => "overflow",
        }
    }

    /// `n` terms of this kind in format `F` from `seed`.
    ///
    /// The terms come in blocks of [`GENERATE_BLOCK`]: block 0 from the generator seeded by
    /// `seed` and the kind, block `k` from that generator jumped `k` times (xoshiro256++'s
    /// jump: 2^128 steps, so blocks never overlap), so blocks are made on rayon's threads and
    /// the terms do not depend on the thread count. A stream of at most one block is what
    /// the one generator gives alone. Adversarial ties depend on the running sum and are made
    /// in one pass.
    pub fn generate<F: Format>(self, n: usize, seed: u64) -> Vec<F::Value> {
        use rayon::prelude::*;
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(
            seed ^ (self as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15),
        );
        if self == InputKind::AdversarialTies {
            return adversarial_ties::<F>(n, &mut rng);
        }
        let blocks = n.div_ceil(GENERATE_BLOCK);
        let mut starts = Vec::with_capacity(blocks);
        for _ in 0..blocks {
            starts.push(rng.clone());
            rng.jump();
        }
        let mut out = vec![F::from_bits(0); n];
        out.par_chunks_mut(GENERATE_BLOCK)
            .zip(starts)
            .enumerate()
            .for_each(|(k, (chunk, mut rng))| {
                let first = k * GENERATE_BLOCK;
                for (j, v) in chunk.iter_mut().enumerate() {
                    *v = F::from_bits(self.term::<F>(first + j, n, &mut rng));
                }
            });
        out
    }

    fn term<F: Format>(self, i: usize, n: usize, rng: &mut Xoshiro256PlusPlus) -> u64 {
        let p = F::PRECISION as i32;
        match self {
            InputKind::Uniform => round_f64::<F>(rng.random::<f64>()),
            InputKind::SsimLike => {
                // q = k 2^-p with k in [2^(p-1), 2^p): d = (2^p - k) 2^-p, exact.
                let j = rng.random_range(1..=(1u64 << (p - 1)));
                scaled::<F>(j, -p)
            }
            InputKind::Quartic => {
                let v = F::to_f64(F::from_f64(rng.random::<f64>() * 0.1));
                round_f64::<F>(v * v * v * v)
            }
            InputKind::LogUniform => round_f64::<F>(2f64.powf(rng.random::<f64>() * 70.0 - 35.0)),
            InputKind::PowersOfTwo => scaled::<F>(1, rng.random_range(-40..=10)),
            InputKind::Geometric => {
                let t = if n > 1 {
                    i as f64 / (n - 1) as f64
                } else {
                    0.0
                };
                round_f64::<F>(2f64.powf(60.0 * t - 40.0) * (1.0 + rng.random::<f64>()))
            }
            InputKind::SparseLarge => {
                if rng.random_range(0..1000) == 0 {
                    round_f64::<F>(2f64.powf(rng.random::<f64>() * 40.0))
                } else {
                    0
                }
            }
            InputKind::Subnormal => rng.random_range(1..=F::FRAC_MASK),
            InputKind::Integer => round_f64::<F>(rng.random_range(0..=1000u32) as f64),
            InputKind::Negatives => {
                let x = round_f64::<F>(rng.random::<f64>());
                if rng.random_range(0..20) == 0 {
                    x | F::SIGN
                } else {
                    x
                }
            }
            InputKind::Specials => match rng.random_range(0..2000) {
                0 => round_f64::<F>(f64::NAN),
                1 => round_f64::<F>(f64::INFINITY),
                2 => round_f64::<F>(f64::NEG_INFINITY),
                3..=40 => round_f64::<F>(-rng.random::<f64>()),
                _ => round_f64::<F>(rng.random::<f64>()),
            },
            InputKind::Overflow => {
                // Values in [2^(emax-8), 2^(emax-7)): 256 of them reach the top binade.
                let top = F::BIAS - 8;
                round_f64::<F>(2f64.powi(top) * (1.0 + rng.random::<f64>()))
            }
            InputKind::AdversarialTies => unreachable!("built from the running sum"),
        }
    }
}

/// Terms `(2k + 1) * ulp(s) / 2` of the running sum `s` (k in 0..4): each add is an exact tie
/// or a multiple-of-half-ulp step, so parity decides every rounding.
fn adversarial_ties<F: Format>(n: usize, rng: &mut Xoshiro256PlusPlus) -> Vec<F::Value> {
    let mut out = Vec::with_capacity(n);
    let mut s = F::from_bits(0);
    for _ in 0..n {
        let sb = F::to_bits(s);
        let e = exp_field::<F>(sb) as i32;
        let x = if e == 0 || e as u64 == F::EXP_ALL_ONES {
            round_f64::<F>(1.0)
        } else {
            // ulp(s) = 2^(e - BIAS - FRAC); half of it is 2^(e - BIAS - FRAC - 1).
            let k = rng.random_range(0..4u64);
            scaled::<F>(2 * k + 1, e - F::BIAS - F::FRAC_BITS as i32 - 1)
        };
        let v = F::from_bits(x);
        out.push(v);
        s = F::add(s, v);
    }
    out
}

impl fmt::Display for InputKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for InputKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        InputKind::ALL
            .iter()
            .copied()
            .find(|k| k.name() == s)
            .ok_or_else(|| {
                let names: Vec<_> = InputKind::ALL.iter().map(|k| k.name()).collect();
                format!("unknown input kind `{s}` (known: {})", names.join(", "))
            })
    }
}

/// The sizes every pipeline experiment covers: edges of the chunk layout, sizes not divisible
/// by 4, and one 3840x2160 plane.
pub const STANDARD_SIZES: [usize; 11] = [0, 1, 2, 3, 7, 1023, 1024, 1025, 4099, 100_003, 8_294_400];

/// Terms whose loop sum reaches 2 inside the first `tile` terms while their tree sum stays
/// about `0.23 tile` ulps below 2, so a tile-wise plan from tree sums puts the second tile in
/// `[1, 2)` although its exact start is 2: the case where a plan is wrong at a tile boundary.
/// The second tile's own tree sum carries the plan of the third past 2, so a tile after it
/// sees one predecessor planned one binade below and one planned in the right binade.
///
/// The first term is `2 - k * 2^-52` with `k = 3000 tile / 4096` (3000 at 4,096-term tiles,
/// where the crossing falls inside the third of four 1,024-term chunks); every other term is
/// `x = 2^-53 (1 + 2^-7)`, above half an ulp of a sum in `[1, 2)` (the loop adds `2^-52`, so
/// it reaches exactly 2 after `k` of them, inside the first tile) and below half an ulp of a
/// sum in `[2, 4)` (the loop then adds nothing). The tree sum of the first tile is close to
/// `2 - k u + (tile - 1) x`, about `2 - 0.228 tile * 2^-52`; the second tile's, about
/// `0.504 tile * 2^-52`, takes the prefix above 2. `tiles` tiles long. Needs `tile >= 64`.
pub fn plan_behind_crossing(tile: usize, tiles: usize) -> Vec<f64> {
    debug_assert!(tile >= 64, "the crossing must fall inside the first tile");
    let ulp = f64::EPSILON; // 2^-52, the ulp of [1, 2)
    let x = 0.5 * ulp * (1.0 + 1.0 / 128.0);
    let k = (3000 * tile / 4096) as f64;
    let mut v = vec![x; tile * tiles];
    if let Some(first) = v.first_mut() {
        *first = 2.0 - k * ulp;
    }
    v
}

/// [`plan_behind_crossing`] with signed terms after its first tile: three terms of
/// `x = 2^-53 (1 + 2^-7)` then one of `-x`, over and over. In `[1, 2)` each is one ulp up or
/// down and no term ties, so a plan that puts the second tile in `[1, 2)` (as the tree sums
/// do) forms signed units there; the loop's sum is at 2 by then, where `+x` adds nothing and
/// `-x` takes it back below 2 for the next `+x` to return it. The case a planned signed unit
/// must refuse: applied from the exact sum in `[2, 4)` it gives another sum. Needs
/// `tile >= 64`.
pub fn signed_plan_behind_crossing(tile: usize, tiles: usize) -> Vec<f64> {
    let mut v = plan_behind_crossing(tile, tiles);
    for (i, x) in v.iter_mut().enumerate().skip(tile) {
        if i % 4 == 3 {
            *x = -*x;
        }
    }
    v
}

/// Two tiles of `tile` terms whose second tile's ties take the sum below its binade while the
/// rounded terms alone would not: the first tile is `1 + 5u` (`u = 2^-52`, an odd significand)
/// and zeros, the second starts with `-u/2, -u` four times, then zeros. From an odd
/// significand the tie `-u/2` goes one quantum down to the even neighbour (its `rint` is 0),
/// and `-u` makes it odd again, so the loop reaches 1 after the fifth term and falls below it
/// at the sixth (it ends at `1 - 2.5u`), where the `rint` of the terms fall only 4 quanta and
/// stay above 1. The case a signed chunk's bounds must widen by its number of ties.
pub fn signed_ties_below_the_binade(tile: usize) -> Vec<f64> {
    debug_assert!(tile >= 8);
    let u = f64::EPSILON;
    let mut v = vec![0.0; 2 * tile];
    v[0] = 1.0 + 5.0 * u;
    for pair in v[tile..tile + 8].chunks_exact_mut(2) {
        pair[0] = -0.5 * u;
        pair[1] = -u;
    }
    v
}

/// Two tiles of `tile` terms whose loop sum leaves its binade upward and comes back inside
/// the second tile: the first tile is `1.875` and zeros; the second starts with
/// `x = 0.25 + 3 * 2^-54` and `-0.25`, then zeros. The loop rounds `1.875 + x` in `[2, 4)`,
/// where `3 * 2^-54` is below half an ulp, so it ends at exactly `1.875`; adding the rounded
/// increments of `[1, 2)` instead (`x / 2^-52 = 2^50 + 0.75` rounds up) would end one ulp
/// higher. The case a unit must refuse: a run with a negative term can leave and re-enter
/// the binade, so its end does not bound its intermediate sums.
pub fn excursion_above_binade(tile: usize) -> Vec<f64> {
    debug_assert!(tile >= 2);
    let mut v = vec![0.0; 2 * tile];
    v[0] = 1.875;
    v[tile] = 0.25 + 3.0 * 2f64.powi(-54);
    v[tile + 1] = -0.25;
    v
}

/// Two tiles of `tile` terms whose running sum is negative and leaves its binade downwards by
/// one negative term: the first tile is `-1.875` and zeros, the second starts with
/// `-(0.25 + 3 * 2^-54)`, then zeros. The loop rounds `-2.125 - 3 * 2^-54` in `(-4, -2]`, where
/// `3 * 2^-54` is below half an ulp: it ends at `-2.125`. From a negative sum the signed path
/// must mirror its bounds: the negative term is the one that grows the magnitude, and only
/// the mirrored bound sees it pass `2^(e+1)`.
pub fn negative_sum_leaves_by_one_term(tile: usize) -> Vec<f64> {
    debug_assert!(tile >= 1);
    let mut v = vec![0.0; 2 * tile];
    v[0] = -1.875;
    v[tile] = -(0.25 + 3.0 * 2f64.powi(-54));
    v
}

/// Two tiles of `tile` terms whose second holds ties of both signs: the first tile is
/// `1.5 + 2^-52` (an odd significand) and zeros, the second alternates `-1.5 * 2^-52` and
/// `+2.5 * 2^-52`. Each is a tie in `[1, 2)`, resolved by the running significand's parity
/// (from an odd start, `-1.5` quanta goes to the even neighbour one quantum down, and `+2.5`
/// from there two up), not as `rint` of the term alone (`-2`, `+2`): the case a signed chunk
/// path must take term by term.
pub fn signed_ties(tile: usize) -> Vec<f64> {
    debug_assert!(tile >= 2);
    let u = 2f64.powi(-52);
    let mut v = vec![0.0; tile];
    v[0] = 1.5 + u;
    v.extend((0..tile).map(|i| if i % 2 == 0 { -1.5 * u } else { 2.5 * u }));
    v
}

/// Two tiles of `tile` terms whose second tile, all non-negative and without a tie, carries
/// the sum out of its binade: the first tile is `1.5` and zeros, the second `tile` terms of
/// `1 / tile` (a power of two for a power-of-two `tile`, so every add is exact and the loop
/// ends at exactly 2.5). The plan of tree sums puts the second tile in `[1, 2)`, where the
/// exact start lies too; its increment `2^52` passes `2^53 - m`, so its unit does not apply
/// (the apply's upper check refuses it on the device; the bound of the CPU engine's integer
/// increments refuses it there). Needs a power-of-two `tile` of at least 2.
pub fn leaves_by_its_bound(tile: usize) -> Vec<f64> {
    debug_assert!(tile >= 2 && tile.is_power_of_two());
    let mut v = vec![0.0; tile];
    v[0] = 1.5;
    v.extend(std::iter::repeat_n(1.0 / tile as f64, tile));
    v
}

/// Two chunks of `chunk` terms whose second holds one term too large for the scan's rounding
/// and nothing else: the first chunk is `chunk` terms of `1 / chunk` (exactly 1.0 in all, for
/// a power-of-two `chunk`), the second `0.5 + 2^-52` and zeros. In the binade `[1, 2)` that
/// term is `y = 2^51 + 1` ulps, odd, so `y + 1.5 * 2^52` rounds to an even value and `r` comes
/// out as `2^51`; the loop's sum is `1.5 + 2^-52`, inside the binade, so the chunk's unit
/// would apply with the wrong increment unless a bound refuses the term (the CPU engine's
/// scan bound on the sum of `r`). Needs a power-of-two `chunk` of at least 2.
pub fn term_past_the_rounding(chunk: usize) -> Vec<f64> {
    debug_assert!(chunk >= 2 && chunk.is_power_of_two());
    let mut v = vec![1.0 / chunk as f64; chunk];
    v.push(0.5 + f64::EPSILON);
    v.extend(std::iter::repeat_n(0.0, chunk - 1));
    v
}

/// Two chunks of `chunk` terms whose second takes the signed path with one term too large for
/// the scan's rounding: the first chunk is `1.25` and zeros, the second `0.5 + 2^-52`,
/// `-2^-52` and zeros. In the binade `[1, 2)` the large term is `y = 2^51 + 1` ulps, whose `r`
/// comes out as `2^51`; the loop's sum is `1.75`, and the signed unit (its bounds hold from
/// `1.25`) would end one ulp below it unless a bound refuses the term (the signed path checks
/// each term once the chunk's `sum |r|` reaches `2^51`). Needs `chunk >= 2`.
pub fn signed_term_past_the_rounding(chunk: usize) -> Vec<f64> {
    debug_assert!(chunk >= 2);
    let mut v = vec![0.0; 2 * chunk];
    v[0] = 1.25;
    v[chunk] = 0.5 + f64::EPSILON;
    v[chunk + 1] = -f64::EPSILON;
    v
}

/// Three chunks of `chunk` f32 terms whose last two take the signed path with terms at the f32
/// lanes' bound (`fast::signed`'s `signed_scan_f32_lanes`): the first chunk is `1.25` and zeros; in
/// the others every 64th term (one a sub-block of the signed scan's bounds) is in turn
/// `0.5 + 2^-23` and `-0.5`, the rest zeros. In the binade `[1, 2)` (`scale = 2^23`) the
/// positive terms are `y = 2^22 + 1`, which `1.5 * 2^23` rounds with a quantum of 2 (to
/// `r = 2^22`, off by one), and the negative ones `y = -2^22`, exact. The loop adds `2^-23`
/// a pair, exactly (every partial sum is an f32 of `[1.25, 2)`), and the sub-blocks' bounds
/// keep the signed unit inside the binade; lanes kept past their bound would add nothing.
/// Needs `chunk >= 128`.
pub fn signed_f32_terms_past_the_lanes(chunk: usize) -> Vec<f32> {
    debug_assert!(chunk >= 128);
    let mut v = vec![0.0f32; 3 * chunk];
    v[0] = 1.25;
    for (k, x) in v[chunk..].iter_mut().step_by(64).enumerate() {
        *x = if k % 2 == 0 { 0.5 + f32::EPSILON } else { -0.5 };
    }
    v
}

/// Three tiles of `tile` terms whose second holds one `+inf` among zeros: the first is `1.0`
/// and zeros, the third ones, so the loop's sum is `+inf`. The infinite tile has no tie and no
/// negative term, so a fast unit (an f64 sum of rounded scaled terms) is `+inf`: only that
/// unit's bound (a sum at or above 2^53, infinite or NaN, never applies) keeps it from being
/// converted to an integer (on the device `+inf` converts to 2^64 - 1, which wraps in the
/// apply; a NaN converts to 2^63, which the apply's upper check refuses by itself).
pub fn infinity_in_a_later_tile(tile: usize) -> Vec<f64> {
    debug_assert!(tile >= 2);
    let mut v = vec![0.0; 3 * tile];
    v[0] = 1.0;
    v[tile + tile / 2] = f64::INFINITY;
    v[2 * tile..].fill(1.0);
    v
}

/// Three tiles of `tile` terms: `1.0` and zeros; then `2^-20` terms with `+inf` in the
/// middle of the tile; then ones. The loop's sum is `+inf`. The infinite tile's fast unit is
/// `+inf` and never applies, so an engine finishes that tile lane by lane from
/// `1 + 2^-20 k`: the lanes before the infinity carry a non-zero increment, which a lane
/// unit of `+inf` converted to an integer (2^64 - 1 on the device) would wrap below the
/// binade's top unless the lane unit's bound refuses it ([`infinity_in_a_later_tile`] has
/// zeros before its infinity, where the wrapped sum saturates anyway). Needs `tile >= 2`.
pub fn infinity_after_increments(tile: usize) -> Vec<f64> {
    debug_assert!(tile >= 2);
    let mut v = vec![0.0; 3 * tile];
    v[0] = 1.0;
    v[tile..2 * tile].fill(2f64.powi(-20));
    v[tile + tile / 2] = f64::INFINITY;
    v[2 * tile..].fill(1.0);
    v
}

/// Six tiles of `tile` terms: `+inf` first, ones after it, and `-inf` as the first term of the
/// sixth tile. The loop's sum is `+inf` from the first term on and NaN from the last tile's
/// first term: an engine that keeps an infinite sum through a tile must look for the other
/// infinity (and for NaN) first. Needs `tile >= 1`.
pub fn infinity_then_its_opposite(tile: usize) -> Vec<f64> {
    debug_assert!(tile >= 1);
    let mut v = vec![1.0; 6 * tile];
    v[0] = f64::INFINITY;
    v[5 * tile] = f64::NEG_INFINITY;
    v
}

/// The hand-made inputs of the one-pass engine's checks, by name: each is one sum (several
/// tiles of `tile` terms) built to reach one of its shortcuts' limits.
pub fn tile_boundary_cases(tile: usize) -> [(&'static str, Vec<f64>); 4] {
    [
        ("plan behind a crossing", plan_behind_crossing(tile, 4)),
        ("excursion above the binade", excursion_above_binade(tile)),
        ("a tile that leaves its binade", leaves_by_its_bound(tile)),
        (
            "an infinity in a later tile",
            infinity_in_a_later_tile(tile),
        ),
    ]
}

/// The hand-made inputs of the running sums' checks, by name: a leading run of -0.0 longer
/// than a tile (where the start's sign shows at every position), the same run ended by a
/// term, a signalling NaN first (numpy's first output keeps its bits), then the one-pass
/// engine's [`tile_boundary_cases`].
pub fn running_sum_cases(tile: usize) -> Vec<(&'static str, Vec<f64>)> {
    debug_assert!(tile >= 1);
    let mut v = vec![
        ("-0.0 over two tiles", vec![-0.0; 2 * tile + 3]),
        ("-0.0 over a tile, then 1.5", {
            let mut x = vec![-0.0; tile + 5];
            x.push(1.5);
            x
        }),
        (
            "a signalling NaN first",
            vec![f64::from_bits(0x7ff0_0000_0000_0001), 1.0, 2.0],
        ),
    ];
    v.extend(tile_boundary_cases(tile));
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    fn loop_sum(x: &[f64]) -> f64 {
        x.iter().fold(0.0, |s, &t| s + t)
    }

    /// Blocks made on one thread and on four give the same bits; a stream's first block is
    /// the one generator's sequence alone (so streams of one block are the sequential ones),
    /// and two blocks never repeat each other.
    #[test]
    fn blocked_generation_does_not_depend_on_threads() {
        let n = 2 * GENERATE_BLOCK + 12_345;
        for kind in [
            InputKind::Uniform,
            InputKind::Geometric,
            InputKind::Specials,
        ] {
            let seed = 0x9e4e_0a7e;
            let pool = |threads| {
                rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .unwrap()
            };
            let one = pool(1).install(|| kind.generate::<crate::format::F64>(n, seed));
            let four = pool(4).install(|| kind.generate::<crate::format::F64>(n, seed));
            let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(
                bits(&one),
                bits(&four),
                "seed {seed:#x} {kind:?}: thread counts differ"
            );
            let small = kind.generate::<crate::format::F64>(GENERATE_BLOCK, seed);
            if kind != InputKind::Geometric {
                // (geometric terms depend on n through i / (n - 1))
                assert_eq!(
                    bits(&small),
                    bits(&one[..GENERATE_BLOCK]),
                    "seed {seed:#x} {kind:?}: the first block is not the sequential stream"
                );
            }
            assert_ne!(
                bits(&one[..1000]),
                bits(&one[GENERATE_BLOCK..GENERATE_BLOCK + 1000]),
                "seed {seed:#x} {kind:?}: blocks 0 and 1 start alike"
            );
        }
    }

    #[test]
    fn infinity_in_a_later_tile_does_what_it_says() {
        let v = infinity_in_a_later_tile(4096);
        assert_eq!(loop_sum(&v[..4096]), 1.0);
        assert_eq!(loop_sum(&v), f64::INFINITY);
        assert_eq!(v.iter().filter(|x| x.is_infinite()).count(), 1);
    }

    #[test]
    fn leaves_by_its_bound_does_what_it_says() {
        let v = leaves_by_its_bound(4096);
        assert_eq!(loop_sum(&v[..4096]), 1.5);
        assert_eq!(loop_sum(&v), 2.5);
    }

    #[test]
    fn plan_behind_crossing_does_what_it_says() {
        // At the CPU engine's and the device's tile sizes, and around them.
        for tile in [1024, 4096, 8192, 16384] {
            let v = plan_behind_crossing(tile, 3);
            // The loop reaches exactly 2 inside the first tile and stays there.
            assert_eq!(loop_sum(&v[..tile]), 2.0, "tile {tile}");
            assert_eq!(loop_sum(&v), 2.0, "tile {tile}");
            // A tree sum of the first tile (here pairwise) stays below 2, and with the
            // second tile's it passes 2.
            let tree = |x: &[f64]| {
                let mut level = x.to_vec();
                while level.len() > 1 {
                    level = level.chunks(2).map(|c| c.iter().sum()).collect();
                }
                level[0]
            };
            let first = tree(&v[..tile]);
            assert!(
                first < 2.0 && first > 2.0 - 0.3 * tile as f64 * f64::EPSILON,
                "tile {tile}: {first}"
            );
            assert!(first + tree(&v[tile..2 * tile]) > 2.0, "tile {tile}");
        }
    }

    #[test]
    fn excursion_leaves_and_comes_back() {
        let tile = 4096;
        let v = excursion_above_binade(tile);
        assert_eq!(loop_sum(&v[..tile + 1]), 2.125);
        assert_eq!(loop_sum(&v), 1.875);
        // In [1, 2) the two terms round to increments summing to one ulp.
        let u = f64::EPSILON;
        assert_eq!(
            (v[tile] / u).round_ties_even() + (v[tile + 1] / u).round_ties_even(),
            1.0
        );
    }
}
