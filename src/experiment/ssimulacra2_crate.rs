//! `ssimulacra2-crate`: this reference's score against the `ssimulacra2` crate's on the same
//! linear RGB frames, and the score with the crate's XYB conversion and blur under this
//! reference's terms, sums and pooling (which locates the difference). CPU only.

use anyhow::{Context as _, Result};

use super::fixture_select::{load_fixtures, orders_below_one, Loaded};
use super::{Context, Outcome};
use crate::plot::{Plot, PlotKind};
use crate::report::{Report, Table};
use crate::ssimulacra2::compare::{crate_score, mixed_score};
use crate::ssimulacra2::{frame_sums, yuv};

/// Runs the experiment.
pub fn run(ctx: &Context) -> Result<Outcome> {
    let max_frames: usize = ctx.get_or("max_frames", usize::MAX)?;
    let loaded = load_fixtures(ctx)?;
    let mut table = Table::new(
        "scores",
        "Scores per fixture and frame",
        &[
            "fixture",
            "frame",
            "scales",
            "reference",
            "crate",
            "reference - crate",
            "crate XYB and blur, reference terms",
            "that - crate",
        ],
    );
    let (mut largest, mut largest_mixed, mut frames, mut six_scale) = (0f64, 0f64, 0usize, 0usize);
    let mut per_fixture: Vec<(String, f64)> = Vec::new();
    let mut missing = Vec::new();
    let bar = ctx.progress(loaded.len() as u64, "ssimulacra2-crate");
    for item in &loaded {
        bar.inc(1);
        let f = match item {
            Loaded::Ready(f) => f,
            Loaded::Missing(name, reason) => {
                missing.push(format!("{name} ({reason})"));
                continue;
            }
        };
        let (mut fixture_largest, mut fixture_six) = (0f64, false);
        for (i, (a, b)) in f.pairs.iter().enumerate().take(max_frames) {
            let sums = frame_sums(a, b).with_context(|| format!("{} frame {i}", f.name))?;
            let (la, lb) = (yuv::to_linear_rgb(a), yuv::to_linear_rgb(b));
            let (ours, theirs, mixed) =
                (sums.score(), crate_score(&la, &lb)?, mixed_score(&la, &lb)?);
            let scales = sums.scales.len();
            frames += 1;
            if scales == 6 {
                six_scale += 1;
                fixture_six = true;
                largest = largest.max((ours - theirs).abs());
                largest_mixed = largest_mixed.max((mixed - theirs).abs());
                fixture_largest = fixture_largest.max((ours - theirs).abs());
            }
            table.row(vec![
                f.name.clone(),
                i.to_string(),
                scales.to_string(),
                format!("{ours:.6}"),
                format!("{theirs:.6}"),
                format!("{:+.2e}", ours - theirs),
                format!("{mixed:.6}"),
                format!("{:+.2e}", mixed - theirs),
            ]);
        }
        if fixture_six {
            per_fixture.push((f.name.clone(), fixture_largest));
        }
    }
    bar.finish_and_clear();
    let mut report = Report::new(
        &ctx.name,
        "SSIMULACRA2 reference against the ssimulacra2 crate",
    );
    report.headline(format!(
        "largest |reference - crate| {largest:.3} points over {six_scale} six-scale frames; \
         with the crate's XYB and blur: {largest_mixed:.1e}"
    ));
    report.text(format!(
        "{frames} frames. Both get the same linear RGB (this reference's YUV conversion). The \
         reference follows libvmaf's scalar operation order without fused multiply-adds; the \
         crate fuses multiply-adds in its blur and pooling, computes its own cube root and \
         divides the SSIM term in `f32`. The variance `(s11 - mu11) + (s22 - mu22)` cancels \
         almost entirely on coarse scales, so these one-ulp differences in the blurred planes move \
         the score by a tenth of a point. The last columns swap in the crate's XYB and blur and \
         keep everything else: they land on the crate's score. Frames with fewer than six scales \
         differ more: the crate pools only the scales it computed, shifting its weights, while \
         this reference (like libvmaf) counts missing scales as zero; they are left out of the \
         headline."
    ));
    if !missing.is_empty() {
        report.text(format!(
            "Not available here (run `just fixtures`): {}.",
            missing.join(", ")
        ));
    }
    report.table(table);
    report.plot(Plot {
        stem: "difference".into(),
        title: "-log10 of the largest |reference - crate| per fixture (six-scale frames)".into(),
        kind: PlotKind::Bars {
            categories: per_fixture.iter().map(|(n, _)| n.clone()).collect(),
            series: vec![(
                "score difference".into(),
                per_fixture
                    .iter()
                    .map(|(_, d)| orders_below_one(*d))
                    .collect(),
            )],
            x_label: "fixture".into(),
            y_label: "-log10 |difference in points| (none: identical)".into(),
            log_y: false,
        },
    });
    Ok(Outcome {
        report,
        failures: 0,
    })
}
