//! Where the CPU loop's running sum of each SSIMULACRA2 sum of a fixture's first frame leaves
//! its binade: for every sum (scale, channel, term), its tiles of the walked engine's size
//! (`WalkedShape::DEFAULT`), the tiles inside which the loop's double sum from +0 changes its
//! exponent field (each is a tile the walked engine's walker must finish or end by its
//! split words: no one binade's unit applies across it), the tiles before its first nonzero
//! term, its negative terms, the tiles holding a subnormal term, the tiles where a plan from tree sums (the binade of the sum of
//! the earlier tiles' own sums, each in order) is not the loop's binade, its first nonzero
//! prefix, its total and the sum of its tiles' sums; and the host model of the walker
//! (`walked_model::walk`, the kernel's tile, step, planned finish and segmented step) given
//! every tile's plan right (the loop's binade) and split words where the tree sums put a
//! crossing: the tiles it finishes and ends by split words, and whether its total has the
//! loop's bits. Last, for walker lags of 16 and 256 tiles, the tiles a plan from the walker's
//! hint would put in the wrong binade: the kernel's `wk_plan_from_hint` takes the binade of
//! the walker's exact sum S_w, w tiles back, where S_w + 4 (t - w) ts stays below its top (ts
//! the tile's own tree sum: a guess that the tiles between sum to at most 4 ts each), here
//! with S_w the loop's sum d tiles back; and the same with the mean margin
//! (`WalkedShape::margin`, `Margin::Mean`: each tile between taken to sum to at most 4 max(ts,
//! S_w / w), the mean of the tiles S_w covers), with the hints each margin takes at lag 256.
//! A host companion of
//! `ssimulacra2-timing`'s trace table (`reports/ssimulacra2-walked-trace`): no GPU.
//!
//!     ssim_sum_crossings FIXTURE   (a manifest stem of fixtures/, e.g. checker-10px)
use anyhow::{bail, Context, Result};
use binade::fixtures::{load, project_root, Dirs};
use binade::gpu::ordered_sum::walked::WalkedShape;
use binade::ssimulacra2::layout::{reference_terms, sum_segments};
use binade::ssimulacra2::{for_each_scale, yuv};
use binade::verify::walked_model::{
    exact_plans, publish_split, tree_split_lanes, walk, ModelShape,
};

/// The walked kernel's shape in the model.
const KERNEL: ModelShape = ModelShape::KERNEL;

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
    if tile != KERNEL.tile() {
        bail!(
            "the model's tile ({}) is not the engine's ({tile})",
            KERNEL.tile()
        );
    }
    println!("scale,channel,term,tiles,crossing_tiles,tiles_before_first_nonzero,negative_terms,subnormal_tiles,tree_plan_misses,first_nonzero_prefix,total,tree_total,model_finished,model_split_ends,model_equals_loop,hint_misses_lag16,hint_misses_lag256,mean_misses_lag16,mean_misses_lag256,hints_taken_lag256,mean_hints_taken_lag256");
    let mut scale = 0usize;
    for_each_scale(yuv::to_linear_rgb(a), yuv::to_linear_rgb(b), |s| {
        let n = s.width * s.height;
        let terms = reference_terms(s);
        for (i, r) in sum_segments(n).into_iter().enumerate() {
            let sum_terms = &terms[r];
            let ts = TileSums::of(sum_terms, tile);
            let tiles = ts.own.len();
            let moved = |t: usize| (ts.prefix[t], ts.prefix[t + 1]);
            let zero_tiles = (0..tiles).filter(|&t| moved(t) == (0.0, 0.0)).count();
            let crossings = (0..tiles)
                .filter(|&t| moved(t) != (0.0, 0.0) && exponent(moved(t).0) != exponent(moved(t).1))
                .count();
            // Plans from tree sums: the binade of the sum of the earlier tiles' own sums.
            let mut tree = 0.0f64;
            let mut misses = 0usize;
            for t in 0..tiles {
                misses += usize::from(exponent(tree) != exponent(ts.prefix[t]));
                tree += ts.own[t];
            }
            let negative = sum_terms.iter().filter(|x| x.is_sign_negative()).count();
            let subnormal = sum_terms
                .chunks(tile)
                .filter(|t| t.iter().any(|x| x.is_subnormal()))
                .count();
            let words = publish_split(
                sum_terms,
                KERNEL,
                &exact_plans(sum_terms, KERNEL),
                &tree_split_lanes(sum_terms, KERNEL),
            );
            let (bits, counts) = walk(sum_terms, KERNEL, &words, 0.0);
            let total = ts.prefix[tiles];
            let (tile16, tile256) = (ts.hint_plans(16, false), ts.hint_plans(256, false));
            let (mean16, mean256) = (ts.hint_plans(16, true), ts.hint_plans(256, true));
            println!(
                "{scale},{},{},{tiles},{crossings},{zero_tiles},{negative},{subnormal},{misses},{:e},{total:e},{tree:e},{},{},{},{},{},{},{},{},{}",
                ["X", "Y", "B"][i / 6],
                i % 6,
                ts.first_nonzero,
                counts.finished,
                counts.split_ends,
                bits == total.to_bits(),
                tile16.1,
                tile256.1,
                mean16.1,
                mean256.1,
                tile256.0,
                mean256.0
            );
        }
        scale += 1;
        Ok(())
    })
}

/// One sum's tiles: the loop's sum before each tile and after the last (`prefix`, from +0),
/// each tile's own sum in order (`own`), and the loop's first nonzero running sum (0 if none).
struct TileSums {
    prefix: Vec<f64>,
    own: Vec<f64>,
    first_nonzero: f64,
}

impl TileSums {
    fn of(terms: &[f64], tile: usize) -> TileSums {
        let (mut prefix, mut own, mut first_nonzero) = (vec![0.0f64], Vec::new(), 0.0f64);
        let mut s = 0.0f64;
        for t in terms.chunks(tile) {
            own.push(t.iter().sum::<f64>());
            for &x in t {
                s += x;
                if first_nonzero == 0.0 {
                    first_nonzero = s;
                }
            }
            prefix.push(s);
        }
        TileSums {
            prefix,
            own,
            first_nonzero,
        }
    }

    /// For the tiles t from `lag` on: (the hint plans taken, those not in the binade of the
    /// loop's sum before t). A plan is taken where the loop's sum S `lag` tiles back is in a
    /// normal binade b and S + 4 lag u stays below 2^(b + 1), the binade's top; u is the
    /// tile's own sum ts, or with `mean` the larger of ts and S over the tiles it covers
    /// (`Margin::Mean`).
    fn hint_plans(&self, lag: usize, mean: bool) -> (usize, usize) {
        let (mut taken, mut missed) = (0, 0);
        for t in lag.max(1)..self.own.len() {
            let w = t - lag;
            let s = self.prefix[w];
            let b = exponent(s);
            if b == 0 || b >= 0x7fe {
                continue;
            }
            let u = if mean {
                self.own[t].max(s / w as f64)
            } else {
                self.own[t]
            };
            let top = f64::from_bits((b + 1) << 52);
            if s + 4.0 * lag as f64 * u < top {
                taken += 1;
                missed += usize::from(exponent(self.prefix[t]) != b);
            }
        }
        (taken, missed)
    }
}

/// The exponent field of a double (its binade; 0 for zero and subnormals).
fn exponent(v: f64) -> u64 {
    (v.to_bits() >> 52) & 0x7ff
}
