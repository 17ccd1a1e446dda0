//! The former GPU reduction, emulated on the host for the replay: each 16x16 block of terms
//! reduced in fp32 as the tree kernel does (a shuffle-down tree per warp of 32 threads, then
//! the eight warps' sums in a tree), and the blocks added in fp64 in block order.

/// `a[i] = a[i] + a[i + off]` for `off` = n/2, n/4, ..., 1: what lane 0 of a shuffle-down
/// reduction over `n` lanes computes.
fn lane0_tree(a: &mut [f32]) -> f32 {
    let mut off = a.len() / 2;
    while off > 0 {
        for i in 0..off {
            a[i] += a[i + off];
        }
        off /= 2;
    }
    a[0]
}

/// One 16x16 block's fp32 sum: threads `t = 16 y + x` (zero outside the plane), warps of 32
/// consecutive threads, then warp 0 over the eight warp sums padded to 32 lanes with zeros.
fn block_sum(terms: &[f32], w: usize, h: usize, bx: usize, by: usize) -> f32 {
    let mut warps = [0.0_f32; 32];
    for (k, warp) in warps.iter_mut().take(8).enumerate() {
        let mut lanes = [0.0_f32; 32];
        for (lane, v) in lanes.iter_mut().enumerate() {
            let t = 32 * k + lane;
            let (j, i) = (bx * 16 + t % 16, by * 16 + t / 16);
            if j < w && i < h {
                *v = terms[i * w + j];
            }
        }
        *warp = lane0_tree(&mut lanes);
    }
    lane0_tree(&mut warps)
}

/// The tree kernel's result for a `w x h` plane of terms (row by row), blocks added in fp64
/// from zero in block order (row of blocks by row of blocks).
pub fn tree_sum(terms: &[f32], w: usize, h: usize) -> f64 {
    let mut acc = 0.0_f64;
    for by in 0..h.div_ceil(16) {
        for bx in 0..w.div_ceil(16) {
            acc += f64::from(block_sum(terms, w, h, bx, by));
        }
    }
    acc
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tree_of_exact_values_is_their_sum() {
        let (w, h) = (37, 21);
        let terms: Vec<f32> = (0..w * h).map(|k| (k % 7) as f32).collect();
        let want: f64 = terms.iter().map(|&x| f64::from(x)).sum();
        assert_eq!(tree_sum(&terms, w, h).to_bits(), want.to_bits());
    }

    #[test]
    fn lane0_tree_pairs_lanes_half_apart() {
        // (a0 + a2) + (a1 + a3): each 1 meets 2^24 alone and is rounded away (tie to even),
        // while the left-to-right loop keeps 1 + 1 = 2.
        let a = [1.0_f32, 1.0, 16_777_216.0, 0.0];
        let mut t = a;
        let tree = lane0_tree(&mut t);
        assert_eq!(tree.to_bits(), ((a[0] + a[2]) + (a[1] + a[3])).to_bits());
        assert_eq!(tree, 16_777_216.0);
        assert_eq!(a.iter().fold(0.0_f32, |s, &x| s + x), 16_777_218.0);
    }
}
