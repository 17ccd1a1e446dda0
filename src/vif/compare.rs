//! Comparing two frames' published features: bits, and the largest difference.

use super::reference::Features;

/// Tally of a comparison over any number of frames.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Tally {
    /// Outputs compared.
    pub outputs: u64,
    /// Outputs with identical bits.
    pub identical: u64,
    /// Largest absolute difference among the dimensionless outputs (the four scale scores
    /// and `vif`).
    pub max_score_diff: f64,
    /// Largest absolute difference among the per-scale sums and their totals.
    pub max_sum_diff: f64,
}

impl Tally {
    /// Adds one frame's comparison of `got` against `want` (all fifteen outputs).
    pub fn add(&mut self, got: &Features, want: &Features) {
        let (g, w) = (got.values(), want.values());
        for k in 0..15 {
            self.outputs += 1;
            if g[k].to_bits() == w[k].to_bits() {
                self.identical += 1;
            }
            let d = (g[k] - w[k]).abs();
            let d = if d.is_nan() { f64::INFINITY } else { d };
            if k < 5 {
                self.max_score_diff = self.max_score_diff.max(d);
            } else {
                self.max_sum_diff = self.max_sum_diff.max(d);
            }
        }
    }

    /// Adds another tally: counts summed, largest differences kept.
    pub fn merge(&mut self, other: &Tally) {
        self.outputs += other.outputs;
        self.identical += other.identical;
        self.max_score_diff = self.max_score_diff.max(other.max_score_diff);
        self.max_sum_diff = self.max_sum_diff.max(other.max_sum_diff);
    }

    /// Outputs whose bits differ.
    pub fn mismatches(&self) -> u64 {
        self.outputs - self.identical
    }
}
