//! Experiment `float-vif-replay-host`: three of ADR-1412's four differences (tap table, fp32
//! statistic, tree reduction) put back one at a time on the host, with no GPU: the same
//! arithmetic the device variants run, emulated in Rust. The device `log2f` needs the device
//! (`float-vif-replay`).

use anyhow::Result;

use super::float_vif_replay::adr_figure;
use super::float_vif_tables::{cause_row, fmt_diff, summary_table};
use super::{Context, Outcome};
use crate::report::{Report, Table};
use crate::vif::compare::Tally;
use crate::vif::fixtures::{standard, Counts};
use crate::vif::options::VifOptions;
use crate::vif::reference::{publish, replay_sums, vif, HostCauses};

/// The host causes replayed, with a label and ADR-1412's figure (read from
/// `research/claims.toml`; the exact reference's is 0 by definition, the three together have
/// none).
pub fn causes() -> Result<Vec<(&'static str, HostCauses, String)>> {
    let n = HostCauses::default();
    Ok(vec![
        ("exact (host)", n, "0".to_string()),
        (
            "decimal tap table",
            HostCauses { table: true, ..n },
            adr_figure("taps")?,
        ),
        (
            "statistic in fp32",
            HostCauses {
                stat_f32: true,
                ..n
            },
            adr_figure("types")?,
        ),
        (
            "warp and block trees",
            HostCauses { tree: true, ..n },
            adr_figure("order-4k")?,
        ),
        (
            "all three",
            HostCauses {
                table: true,
                stat_f32: true,
                tree: true,
            },
            "-".to_string(),
        ),
    ])
}

/// The decimal tap table against the computed taps of kernel scale 1 (the first cause's
/// input), counted by `float_vif_replay::tap_differences`: one row.
fn taps_table() -> Table {
    let (differ, total, ulps, scale, tap) = super::float_vif_replay::tap_differences();
    let mut t = Table::new(
        "taps",
        "The decimal tap table against the taps computed at run time (kernel scale 1): taps that differ, and the largest difference",
        &[
            "taps",
            "taps that differ",
            "largest difference (units in the last place)",
            "its scale",
            "its tap",
        ],
    );
    t.row(vec![
        total.to_string(),
        differ.to_string(),
        ulps.to_string(),
        scale.to_string(),
        tap.to_string(),
    ]);
    t
}

/// Runs the experiment (CPU only).
pub fn run(ctx: &Context) -> Result<Outcome> {
    let counts = Counts {
        sd8: ctx.get("frames_sd8")?,
        sd_deep: ctx.get("frames_sd_deep")?,
        checker: ctx.get("frames_checker")?,
        uhd: ctx.get("frames_uhd")?,
    };
    let opts = VifOptions::default();
    let causes = causes()?;
    let mut table = Table::new(
        "replay_host",
        "Each difference alone, then all three (host emulation)",
        &[
            "frames",
            "cause",
            "frames run",
            "identical outputs",
            "largest score difference",
            "largest sum difference",
            "ADR-1412",
        ],
    );
    let mut all = vec![Tally::default(); causes.len()];
    for set in standard(counts, ctx.seed) {
        let mut tallies = vec![Tally::default(); causes.len()];
        let bar = ctx.progress(set.frames as u64, &set.name);
        for k in 0..set.frames {
            let (r, d) = set.frame(k)?;
            let want = vif(&r, &d, &opts)?;
            let (ri, di) = (r.to_image(), d.to_image());
            for (t, (_, c, _)) in tallies.iter_mut().zip(&causes) {
                let (num, den) = replay_sums(&ri, &di, &opts, *c)?;
                t.add(&publish(num, den, &opts), &want);
            }
            bar.inc(1);
        }
        bar.finish_and_clear();
        for (i, ((label, _, adr), t)) in causes.iter().zip(&tallies).enumerate() {
            all[i].merge(t);
            table.row(cause_row(&set.name, set.frames, label, t, adr));
        }
    }
    let labels: Vec<(&str, &str)> = causes
        .iter()
        .map(|(label, _, adr)| (*label, adr.as_str()))
        .collect();
    let summary = summary_table("replay_host_summary", &labels, &all);
    let mut report = Report::new(
        &ctx.name,
        "Float VIF: three differences of ADR-1412, replayed on the host",
    );
    report.headline(format!(
        "largest score difference (host): table {}, fp32 statistic {}, trees {} (ADR-1412: {}, {}, {})",
        fmt_diff(all[1].max_score_diff),
        fmt_diff(all[2].max_score_diff),
        fmt_diff(all[3].max_score_diff),
        adr_figure("taps")?,
        adr_figure("types")?,
        adr_figure("order-4k")?
    ));
    report.text(
        "Default options. The CPU reference with one difference put back at a time: libvmaf's former \
         decimal tap table for kernel scale 1 instead of the computed taps; the statistic with \
         `vif_sigma_nsq` rounded to fp32 and fp32 quotients; the former GPU reduction emulated (each 16x16 \
         block: a shuffle-down tree per warp, then the eight warp sums in a tree, all fp32; blocks added in \
         fp64). The device `log2f` needs a GPU: see `float-vif-replay`. \"Score difference\" is over the \
         four scale scores and `vif`. The ADR's figures were measured on other content and stand beside \
         ours for comparison only.",
    );
    report.table(summary);
    report.table(table);
    report.table(taps_table());
    let exact_mismatches = all[0].mismatches();
    Ok(Outcome {
        report,
        failures: exact_mismatches,
    })
}
