//! Comparing two frames' published features: bits, and the largest difference.

use super::reference::Features;
use crate::report::{thousands, Table};

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

/// A difference for a table: `0` or three significant digits.
pub fn fmt_diff(d: f64) -> String {
    if d == 0.0 {
        "0".into()
    } else {
        format!("{d:.2e}")
    }
}

/// One row of a replay table: a frame set, the cause put back, and how far it moved the outputs.
pub fn cause_row(set: &str, frames: usize, cause: &str, t: &Tally, adr: &str) -> Vec<String> {
    vec![
        set.to_string(),
        cause.to_string(),
        frames.to_string(),
        format!("{} of {}", thousands(t.identical), thousands(t.outputs)),
        fmt_diff(t.max_score_diff),
        fmt_diff(t.max_sum_diff),
        adr.to_string(),
    ]
}

/// The "over all frames" table of a replay: one row per cause (label, ADR-1412's figure).
pub fn summary_table(stem: &str, causes: &[(&str, &str)], totals: &[Tally]) -> Table {
    let mut summary = Table::new(
        stem,
        "Over all frames",
        &[
            "cause",
            "identical outputs",
            "largest score difference",
            "ADR-1412",
        ],
    );
    for ((label, adr), t) in causes.iter().zip(totals) {
        summary.row(vec![
            label.to_string(),
            format!("{} of {}", thousands(t.identical), thousands(t.outputs)),
            fmt_diff(t.max_score_diff),
            adr.to_string(),
        ]);
    }
    summary
}
