//! The tables the float VIF replays share: one row per cause put back, and the summary over
//! all frames.

use crate::report::{thousands, Table};
use crate::vif::compare::Tally;

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
