//! Experiment `float-vif-replay`: starting from the exact twin, each of the four differences
//! ADR-1412 found is put back alone, then all four together, and every output is compared
//! with the CPU reference.

use anyhow::Result;

use super::float_vif_tables::{cause_row, fmt_diff, summary_table};
use super::{Context, Outcome};
use crate::report::{Report, Table};
use crate::vif::compare::Tally;
use crate::vif::fixtures::{standard, Counts};
use crate::vif::gpu::{Reduction, Variant, VifGpu};
use crate::vif::options::VifOptions;
use crate::vif::reference::vif;
use crate::vif::taps::{all_taps, legacy_table};

/// The label of the exact twin among [`causes`].
pub const EXACT: &str = "exact twin";

/// The position of the cause labelled `label` in `causes` (a label that is not there is a
/// defect of this file, not of the input: it panics naming the label).
fn cause_index(causes: &[(&'static str, Variant, String)], label: &str) -> usize {
    causes
        .iter()
        .position(|(l, _, _)| *l == label)
        .unwrap_or_else(|| panic!("float-vif-replay: no cause labelled `{label}`"))
}

/// ADR-1412's figure for a cause, as the document writes it, from `research/claims.toml`
/// (the claim ids are that file's).
pub fn adr_figure(claim: &str) -> Result<String> {
    crate::experiment::research::document_text("adr-1412", claim)
}

/// The variants replayed, with a label and ADR-1412's figure for that cause (read from
/// `research/claims.toml`; the exact twin's is 0 by definition).
pub fn causes() -> Result<Vec<(&'static str, Variant, String)>> {
    let e = Variant::exact(Reduction::Ordered);
    Ok(vec![
        (EXACT, e, "0".to_string()),
        (
            "decimal tap table",
            Variant { table: true, ..e },
            adr_figure("taps")?,
        ),
        (
            "device log2f",
            Variant {
                device_log2: true,
                ..e
            },
            adr_figure("log2")?,
        ),
        (
            "statistic in fp32",
            Variant {
                stat_f32: true,
                ..e
            },
            adr_figure("types")?,
        ),
        (
            "warp and block trees",
            Variant::exact(Reduction::Tree),
            adr_figure("order-4k")?,
        ),
        (
            "all four",
            Variant {
                table: true,
                device_log2: true,
                stat_f32: true,
                ..Variant::exact(Reduction::Tree)
            },
            format!("{} (before)", adr_figure("before-largest")?),
        ),
    ])
}

/// How many of the 34 taps of kernel scale 1 differ between the decimal table and the
/// computed taps, and the largest difference in units in the last place (with its scale and
/// tap index).
pub fn tap_differences() -> (usize, usize, u32, usize, usize) {
    let (legacy, computed) = (legacy_table(), all_taps(1.0));
    let mut differ = 0;
    let mut total = 0;
    let mut worst = (0u32, 0usize, 0usize);
    for s in 0..4 {
        for (k, (a, b)) in legacy[s].iter().zip(&computed[s]).enumerate() {
            total += 1;
            let ulps = a.to_bits().abs_diff(b.to_bits());
            if ulps > 0 {
                differ += 1;
            }
            if ulps > worst.0 {
                worst = (ulps, s, k);
            }
        }
    }
    (differ, total, worst.0, worst.1, worst.2)
}

/// Runs the experiment (needs a GPU).
pub fn run(ctx: &Context) -> Result<Outcome> {
    let mut g = VifGpu::open()?;
    let counts = Counts {
        sd8: ctx.get("frames_sd8")?,
        sd_deep: ctx.get("frames_sd_deep")?,
        checker: ctx.get("frames_checker")?,
        uhd: ctx.get("frames_uhd")?,
    };
    let opts = VifOptions::default();
    let causes = causes()?;
    let mut table = Table::new(
        "replay",
        "Each difference alone, then all four: outputs identical to the CPU and the largest difference",
        &["frames", "cause", "frames run", "identical outputs", "largest score difference", "largest sum difference", "ADR-1412"],
    );
    let mut exact_mismatches = 0;
    let mut worst = vec![Tally::default(); causes.len()];
    for set in standard(counts, ctx.seed) {
        let mut tallies = vec![Tally::default(); causes.len()];
        let bar = ctx.progress(set.frames as u64, &set.name);
        for k in 0..set.frames {
            let (r, d) = set.frame(k)?;
            let want = vif(&r, &d, &opts)?;
            let (ri, di) = (r.to_image(), d.to_image());
            for (t, (_, v, _)) in tallies.iter_mut().zip(&causes) {
                let sums = g.scale_sums(&ri, &di, &opts, v)?;
                t.add(&sums.features(&opts), &want);
            }
            bar.inc(1);
        }
        bar.finish_and_clear();
        exact_mismatches += tallies[cause_index(&causes, EXACT)].mismatches();
        for (i, ((label, _, adr), t)) in causes.iter().zip(&tallies).enumerate() {
            worst[i].merge(t);
            table.row(cause_row(&set.name, set.frames, label, t, adr));
        }
    }
    let labels: Vec<(&str, &str)> = causes
        .iter()
        .map(|(label, _, adr)| (*label, adr.as_str()))
        .collect();
    let summary = summary_table("replay_summary", &labels, &worst);
    let (differ, total, ulps, s, k) = tap_differences();
    let mut report = Report::new(
        &ctx.name,
        "Float VIF: the four differences of ADR-1412, one at a time",
    );
    let largest = |label: &str| fmt_diff(worst[cause_index(&causes, label)].max_score_diff);
    report.headline(format!(
        "largest score difference: table {}, log2f {}, fp32 statistic {}, trees {}, all four {} (ADR-1412: {}, {}, {}, {})",
        largest("decimal tap table"),
        largest("device log2f"),
        largest("statistic in fp32"),
        largest("warp and block trees"),
        largest("all four"),
        adr_figure("taps")?,
        adr_figure("log2")?,
        adr_figure("types")?,
        adr_figure("order-4k")?
    ));
    report.text(format!(
        "Device: {}. Default options. Each cause is put back into the exact twin alone: the decimal tap \
         table is libvmaf's former `vif_filter1d_table_s` for kernel scale 1 (the active branch before the \
         taps were computed at run time; {differ} of its {total} taps differ from the computed ones, the \
         largest by {ulps} units in the last place, scale {s} tap {k}); the device log2f replaces \
         `log2f_approx`; the fp32 statistic rounds `vif_sigma_nsq` to fp32 and divides in fp32; the trees \
         reduce each 16x16 block in fp32 (warp shuffles, then the warps) and add the blocks in fp64 on the \
         host. \"Score difference\" is over the four scale scores and `vif`; \"sum difference\" over the \
         per-scale sums and their totals. The ADR's figures were measured on other content (the Netflix \
         pair, BBB) and stand beside ours for comparison only.",
        g.describe()
    ));
    report.table(summary);
    report.table(table);
    Ok(Outcome {
        report,
        failures: exact_mismatches,
    })
}
