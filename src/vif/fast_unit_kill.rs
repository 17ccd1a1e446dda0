//! The row-parallel sum's fast segment units (`fvif_segment_unit_fast_m` in
//! `kernels/float_vif.cuh`, run through the header's host build) against the CPU's
//! left-to-right fp32 row sum, on rows made to reach each of its checks: every row sum must be
//! the loop's bits with the engine's units and with the pair composition, and each
//! [`FastUnitMutant`] must give a wrong one. Shared by `tests/vif_header.rs` and the
//! `mutations` kill matrix.

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::host::{row_sums_binade_with, SegmentUnits};
use super::stat::row_sum;

/// One scale's terms (row by row) to sum: its name with the seed that makes it.
pub struct RowCase {
    /// What it is, with its seed.
    pub name: String,
    /// Terms per row.
    pub w: usize,
    /// Rows.
    pub h: usize,
    /// Segments per row.
    pub nseg: usize,
    /// The terms, row by row.
    pub terms: Vec<f32>,
}

/// The kinds of row, each reaching one check of the fast unit.
const KINDS: [&str; 5] = [
    "uniform [0, 2)",
    "eighth powers (many binades)",
    "uniform with one term in twenty negated",
    "2^23 then n + 1/2 (every term a tie)",
    "random bits below 2^1 (subnormals to 2)",
];

fn term(kind: usize, k: usize, rng: &mut Xoshiro256PlusPlus) -> f32 {
    match kind {
        0 => rng.random_range(0.0..2.0_f32),
        1 => rng.random_range(0.0..1.0_f32).powi(8) * 1.0e3,
        2 => {
            let x = rng.random_range(0.0..1.0_f32);
            if rng.random_bool(0.05) {
                -x
            } else {
                x
            }
        }
        3 => {
            if k == 0 {
                8_388_608.0
            } else {
                rng.random_range(0..4u8) as f32 + 0.5
            }
        }
        _ => f32::from_bits(rng.random_range(0..0x4000_0000_u32)),
    }
}

/// Every kind at widths from 1 to 5,000 terms, 1 to 3 rows, 1 to 256 segments a row (seed
/// `seed`; case c's rows from `seed ^ c`).
pub fn row_cases(seed: u64) -> Vec<RowCase> {
    let mut shape = Xoshiro256PlusPlus::seed_from_u64(seed);
    (0..200)
        .map(|c| {
            let kind = c % KINDS.len();
            let w = shape.random_range(1..5000);
            let h = shape.random_range(1..4);
            let nseg = [1, 3, 32, 128, 256][(c / KINDS.len()) % 5];
            let case_seed = seed ^ c as u64;
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(case_seed);
            let terms = (0..w * h).map(|i| term(kind, i % w, &mut rng)).collect();
            RowCase {
                name: format!(
                    "{} w={w} h={h} nseg={nseg} seed={case_seed:#x}",
                    KINDS[kind]
                ),
                w,
                h,
                nseg,
                terms,
            }
        })
        .collect()
}

/// Sums every case's rows with `units`: (rows checked, segments, segments added term by
/// term, the first row whose bits differ from the loop's, named with its case and both bit
/// patterns). `None` in place of the whole result without the binade algebra in the header's
/// host build.
pub fn first_wrong_row(
    units: SegmentUnits,
    cases: &[RowCase],
) -> Option<(u64, u64, u64, Option<String>)> {
    let (mut rows, mut segments, mut fell) = (0u64, 0u64, 0u64);
    for c in cases {
        let (got, fb) = row_sums_binade_with(&c.terms, c.w, c.h, c.nseg, units)?;
        segments += (c.h * c.nseg) as u64;
        fell += fb;
        for (i, g) in got.iter().enumerate() {
            rows += 1;
            let want = row_sum(&c.terms[i * c.w..(i + 1) * c.w]);
            if g.to_bits() != want.to_bits() {
                return Some((
                    rows,
                    segments,
                    fell,
                    Some(format!(
                        "{} row {i}: {:#010x}, the loop {:#010x}",
                        c.name,
                        g.to_bits(),
                        want.to_bits()
                    )),
                ));
            }
        }
    }
    Some((rows, segments, fell, None))
}
