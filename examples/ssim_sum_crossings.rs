//! Where the CPU loop's running sum of each SSIMULACRA2 sum of a fixture's first frame leaves
//! its binade: for every sum (scale, channel, term), its tiles of the walked engine's size
//! (`WalkedShape::DEFAULT`), the tiles inside which the loop's double sum from +0 changes its
//! exponent field (each is a tile the walked engine's walker must finish or end by its
//! split words: no one binade's unit applies across it), the tiles before its first nonzero
//! term, its negative terms, the tiles holding a subnormal term, the tiles where a plan from tree sums (the binade of the sum of
//! the earlier tiles' own sums, each in order) is not the loop's binade, its first nonzero
//! prefix, its total and the sum of its tiles' sums. A host companion of
//! `ssimulacra2-timing`'s trace table (`reports/ssimulacra2-walked-trace`): no GPU.
//!
//!     ssim_sum_crossings FIXTURE   (a manifest stem of fixtures/, e.g. checker-10px)
use anyhow::{bail, Context, Result};
use binade::fixtures::{load, project_root, Dirs};
use binade::gpu::ordered_sum::walked::WalkedShape;
use binade::ssimulacra2::layout::{reference_terms, sum_segments};
use binade::ssimulacra2::{for_each_scale, yuv};

fn main() -> Result<()> {
    let Some(name) = std::env::args().nth(1) else {
        bail!("usage: ssim_sum_crossings FIXTURE (a manifest stem of fixtures/)");
    };
    let root = project_root();
    let dirs = Dirs::under(&root);
    let manifest = dirs.manifests.join(format!("{name}.toml"));
    let f = load(&manifest, &dirs).with_context(|| format!("loading {}", manifest.display()))?;
    let (a, b) = f.pairs.first().context("a fixture with no frames")?;
    let tile = WalkedShape::DEFAULT.tile() as usize;
    println!("scale,channel,term,tiles,crossing_tiles,tiles_before_first_nonzero,negative_terms,subnormal_tiles,tree_plan_misses,first_nonzero_prefix,total,tree_total");
    let mut scale = 0usize;
    for_each_scale(yuv::to_linear_rgb(a), yuv::to_linear_rgb(b), |s| {
        let n = s.width * s.height;
        let terms = reference_terms(s);
        for (i, r) in sum_segments(n).into_iter().enumerate() {
            let (mut sum, mut crossings, mut zero_tiles, mut first) = (0.0f64, 0u64, 0u64, None);
            let negative = terms[r.clone()]
                .iter()
                .filter(|x| x.is_sign_negative())
                .count();
            let (mut tree, mut misses) = (0.0f64, 0u64);
            let subnormal = terms[r.clone()]
                .chunks(tile)
                .filter(|t| t.iter().any(|x| x.is_subnormal()))
                .count();
            for t in terms[r].chunks(tile) {
                let before = sum;
                misses += u64::from(exponent(tree) != exponent(before));
                tree += t.iter().sum::<f64>();
                for &x in t {
                    sum += x;
                    if first.is_none() && sum != 0.0 {
                        first = Some(sum);
                    }
                }
                if before == 0.0 && sum == 0.0 {
                    zero_tiles += 1;
                } else if exponent(before) != exponent(sum) {
                    crossings += 1;
                }
            }
            println!(
                "{scale},{},{},{},{crossings},{zero_tiles},{negative},{subnormal},{misses},{:e},{sum:e},{tree:e}",
                ["X", "Y", "B"][i / 6],
                i % 6,
                n.div_ceil(tile),
                first.unwrap_or(0.0)
            );
        }
        scale += 1;
        Ok(())
    })
}

/// The exponent field of a double (its binade; 0 for zero and subnormals).
fn exponent(v: f64) -> u64 {
    (v.to_bits() >> 52) & 0x7ff
}
