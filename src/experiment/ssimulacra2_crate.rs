//! `ssimulacra2-crate`: this reference's score against the `ssimulacra2` crate's on the same
//! linear RGB frames, and the score with the crate's XYB conversion and blur under this
//! reference's terms, sums and pooling (which locates the difference). CPU only.

use anyhow::{Context as _, Result};

use super::fixture_select::{load_fixtures, orders_below_one, Loaded};
use super::{Context, Outcome};
use crate::plot::{Plot, PlotKind};
use crate::report::{Report, Table};
use crate::ssimulacra2::compare::{crate_score, mixed_score, replay_score, Side};
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
            "crate XYB alone - reference",
            "crate blur alone - reference",
        ],
    );
    let (mut largest, mut largest_mixed, mut frames, mut six_scale) = (0f64, 0f64, 0usize, 0usize);
    // Each difference alone, largest over six-scale frames: XYB, blur; and the replay of
    // neither, which must be the reference's own bits (a check that counts failures).
    let (mut largest_xyb, mut largest_blur, mut replay_wrong) = (0f64, 0f64, 0usize);
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
            let xyb_alone = replay_score(&la, &lb, Side::Crate, Side::Reference)?;
            let blur_alone = replay_score(&la, &lb, Side::Reference, Side::Crate)?;
            let neither = replay_score(&la, &lb, Side::Reference, Side::Reference)?;
            if neither.to_bits() != ours.to_bits() {
                replay_wrong += 1;
            }
            let scales = sums.scales.len();
            frames += 1;
            if scales == 6 {
                six_scale += 1;
                fixture_six = true;
                largest = largest.max((ours - theirs).abs());
                largest_mixed = largest_mixed.max((mixed - theirs).abs());
                largest_xyb = largest_xyb.max((xyb_alone - ours).abs());
                largest_blur = largest_blur.max((blur_alone - ours).abs());
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
                format!("{:+.2e}", xyb_alone - ours),
                format!("{:+.2e}", blur_alone - ours),
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
         the crate's XYB alone moves the reference by up to {largest_xyb:.1e}, its blur alone \
         by {largest_blur:.1e}; with both: {largest_mixed:.1e} from the crate"
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
         headline. The two columns after them take each of the two alone (the crate's XYB \
         conversion, with its cube root, under this reference's blur; the crate's blur, with its \
         fused multiply-adds, under this reference's XYB) and give its distance from the \
         reference's score; the replay with neither is this reference's own score, checked bit \
         for bit on every frame: {replay_wrong} of {frames} differed (a difference counts as a \
         failure)."
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
        failures: replay_wrong as u64,
    })
}
