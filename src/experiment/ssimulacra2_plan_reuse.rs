//! `ssimulacra2-plan-reuse`: Research-1433's first open question, measured on the host model of
//! the seed's device pipeline. Could each of SSIMULACRA2's 108 sums keep the previous video
//! frame's plan (saving the pass that forms this frame's chunk tree sums before the plan), and
//! how many chunks would that send term by term?
//!
//! For each fixture (a frame pair per frame; the photographs' crops pan by the manifest's
//! `motion` pixels a frame, so consecutive frames are a moving picture) and each frame after the
//! first, every scale, channel and term is summed by the steps of [`walk::pipeline`] (the chunk
//! layout of `kernels/ordered_sum.cu`: 1,024-term chunks, their tree sums, the plan, the units,
//! the walk;
//! `gpu-parity` checks the device's stages against it chunk by chunk) twice: with the frame's own
//! tree-prefix plan, and with the previous frame's (`PlanKind::Stale` fed with that frame's chunk
//! tree sums of the same sum). Both totals are compared by bits with the loop. A plan cannot
//! change a bit (the walk checks each chunk's unit against the exact sum), so the figure is the
//! count of chunks added term by term, which is what a reused plan costs.
//!
//! Failures counted: every total (either plan) without the loop's bits. CPU only.

use anyhow::{bail, Context as _, Result};

use super::fixture_select::{load_fixtures, Loaded};
use super::{ConfigError, Context, Outcome};
use crate::algebra::Exact;
use crate::format::F64;
use crate::plan::{self, Plan, PlanKind};
use crate::report::{thousands, Report, Table};
use crate::ssimulacra2::frontend::FrontEnd;
use crate::ssimulacra2::terms::{term_planes, TERMS};
use crate::ssimulacra2::{frame_sums_of_scales, scale_sums};
use crate::walk::{self, chunk_sums};

/// The chunk tree sums of every sum of one frame, by scale, channel and term.
type FrameChunkSums = Vec<[[Vec<f64>; TERMS]; 3]>;

/// One frame's figures (a frame after the first).
#[derive(Clone, Debug, Default)]
struct FrameRow {
    fixture: String,
    size: String,
    frame: usize,
    sums: u64,
    chunks: u64,
    own_term_by_term: u64,
    reused_term_by_term: u64,
    own_identical: u64,
    reused_identical: u64,
}

/// Sums one frame pair: its chunk tree sums for the next frame, and (given the previous
/// frame's) the counts of both plans into `row`.
fn frame(
    reference: &crate::ssimulacra2::yuv::YuvFrame,
    distorted: &crate::ssimulacra2::yuv::YuvFrame,
    previous: Option<&FrameChunkSums>,
    row: &mut FrameRow,
) -> Result<FrameChunkSums> {
    let mut mine: FrameChunkSums = Vec::new();
    frame_sums_of_scales(reference, distorted, &FrontEnd::LIBVMAF, |planes| {
        let loops = scale_sums(planes);
        let mut scale: [[Vec<f64>; TERMS]; 3] = Default::default();
        for (c, channel) in planes.channels.iter().enumerate() {
            let terms = term_planes(channel);
            for (k, t) in terms.iter().enumerate() {
                let sums = chunk_sums::<F64>(t);
                if let Some(prev) = previous {
                    let stale = &prev[planes.scale][c][k];
                    let want = loops.sums[c][k].to_bits();
                    let own =
                        walked_with(t, &plan::make::<F64>(&PlanKind::TreePrefix, &sums, None));
                    let reused =
                        walked_with(t, &plan::make::<F64>(&PlanKind::Stale, &sums, Some(stale)));
                    row.sums += 1;
                    row.chunks += (own.applied + own.fallback) as u64;
                    row.own_term_by_term += own.fallback as u64;
                    row.reused_term_by_term += reused.fallback as u64;
                    row.own_identical += u64::from(same(own.total, want));
                    row.reused_identical += u64::from(same(reused.total, want));
                }
                scale[c][k] = sums;
            }
        }
        mine.push(scale);
        Ok(loops)
    })?;
    Ok(mine)
}

/// The pipeline's units and walk of `terms` under `plan` (`walk::pipeline` after its plan: the
/// chunk tree sums the plans come from are formed once, by the caller).
fn walked_with(terms: &[f64], plan: &Plan) -> walk::Walk<f64> {
    let units = walk::chunk_units::<F64, _>(terms, plan, &Exact);
    walk::walk::<F64, _>(terms, plan, &units, &Exact)
}

/// Bits equal, NaN as NaN.
fn same(x: f64, want: u64) -> bool {
    x.to_bits() == want || (x.is_nan() && f64::from_bits(want).is_nan())
}

/// Runs the experiment (see the module doc).
pub fn run(ctx: &Context) -> Result<Outcome> {
    let max_frames: usize = ctx.get_or("max_frames", usize::MAX)?;
    if max_frames < 2 {
        bail!(ConfigError::new(
            &ctx.file,
            "max_frames",
            "fewer than 2 frames would check nothing (a frame is compared with the one before it); give at least 2",
        ));
    }
    ctx.non_empty("fixtures", ctx.get::<Vec<String>>("fixtures")?)?;
    let loaded = load_fixtures(ctx)?;
    let mut rows: Vec<FrameRow> = Vec::new();
    let mut missing: Vec<(String, String)> = Vec::new();
    let bar = ctx.progress(loaded.len() as u64, "fixtures");
    for l in &loaded {
        match l {
            Loaded::Missing(name, why) => missing.push((name.clone(), why.clone())),
            Loaded::Ready(f) => {
                let size = format!("{}x{}", f.manifest.width, f.manifest.height);
                let mut previous: Option<FrameChunkSums> = None;
                for (i, (a, b)) in f.pairs.iter().enumerate().take(max_frames) {
                    let mut row = FrameRow {
                        fixture: f.name.clone(),
                        size: size.clone(),
                        frame: i,
                        ..FrameRow::default()
                    };
                    let sums = frame(a, b, previous.as_ref(), &mut row)
                        .with_context(|| format!("{} frame {i}", f.name))?;
                    if previous.is_some() {
                        rows.push(row);
                    }
                    previous = Some(sums);
                }
            }
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    if rows.is_empty() {
        bail!(
            "ssimulacra2-plan-reuse: no fixture had a frame after the first (missing: {}): nothing was compared",
            if missing.is_empty() {
                "none".to_string()
            } else {
                missing.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>().join(", ")
            }
        );
    }
    Ok(build_report(ctx, &rows, &missing))
}

fn share(part: u64, whole: u64) -> String {
    format!("{:.2}%", 100.0 * part as f64 / whole.max(1) as f64)
}

fn build_report(ctx: &Context, rows: &[FrameRow], missing: &[(String, String)]) -> Outcome {
    let mut report = Report::new(
        &ctx.name,
        "SSIMULACRA2: the previous frame's plan reused, chunks term by term",
    );
    let failures: u64 = rows
        .iter()
        .map(|r| 2 * r.sums - r.own_identical - r.reused_identical)
        .sum();
    let (sums, chunks, own, reused) = rows.iter().fold((0, 0, 0, 0), |a, r| {
        (
            a.0 + r.sums,
            a.1 + r.chunks,
            a.2 + r.own_term_by_term,
            a.3 + r.reused_term_by_term,
        )
    });
    report.headline(format!(
        "Over {} frames after the first of {} fixtures ({} sums, {} chunks): the frame's own plan sends {} chunks term by term ({}), the previous frame's plan {} ({}); every total of both plans has the loop's bits: {}",
        rows.len(),
        rows.iter().map(|r| r.fixture.as_str()).collect::<std::collections::BTreeSet<_>>().len(),
        thousands(sums),
        thousands(chunks),
        thousands(own),
        share(own, chunks),
        thousands(reused),
        share(reused, chunks),
        failures == 0
    ));
    report.text(
        "Research-1433 asks whether each scale could keep the previous video frame's plan, form the units under it in the same pass as the tree sums, and redo only the chunks whose plan was wrong. \
         Here every frame after the first of each fixture is summed by the host model of the seed's device pipeline (`walk::pipeline`: 1,024-term chunks, tree sums, plan, units, walk; `gpu-parity` checks the device's stages against it) with its own tree-prefix plan and with the previous frame's (the stale plan: that frame's chunk tree sums of the same scale, channel and term). \
         The photographs' crops pan by the manifest's `motion` pixels a frame; the synthetic fixtures' frames are independent draws (random) or shifted squares (checkerboards). \
         A plan changes no bit; a reused plan that is wrong for a chunk costs that chunk a term-by-term walk (on the device, one lane adding 1,024 terms). \
         Counts only: no time is measured here."
            .to_string(),
    );
    let mut t = Table::new(
        "reuse",
        "Per frame after the first: chunks term by term with the frame's own plan and with the previous frame's",
        &[
            "fixture",
            "size",
            "frame",
            "sums",
            "chunks",
            "term by term, own plan",
            "term by term, previous frame's plan",
            "share, own plan",
            "share, previous frame's plan",
            "identical, own plan",
            "identical, previous frame's plan",
        ],
    );
    for r in rows {
        t.row(vec![
            r.fixture.clone(),
            r.size.clone(),
            r.frame.to_string(),
            r.sums.to_string(),
            r.chunks.to_string(),
            r.own_term_by_term.to_string(),
            r.reused_term_by_term.to_string(),
            share(r.own_term_by_term, r.chunks),
            share(r.reused_term_by_term, r.chunks),
            r.own_identical.to_string(),
            r.reused_identical.to_string(),
        ]);
    }
    report.table(t);
    let mut total = Table::new(
        "totals",
        "All frames after the first",
        &[
            "frames",
            "sums",
            "chunks",
            "term by term, own plan",
            "term by term, previous frame's plan",
            "identical, own plan",
            "identical, previous frame's plan",
        ],
    );
    total.row(vec![
        rows.len().to_string(),
        sums.to_string(),
        chunks.to_string(),
        own.to_string(),
        reused.to_string(),
        rows.iter()
            .map(|r| r.own_identical)
            .sum::<u64>()
            .to_string(),
        rows.iter()
            .map(|r| r.reused_identical)
            .sum::<u64>()
            .to_string(),
    ]);
    report.table(total);
    if !missing.is_empty() {
        let mut m = Table::new(
            "missing",
            "Fixtures not run (their sources are missing: `just fixtures`)",
            &["fixture", "reason"],
        );
        for (n, why) in missing {
            m.row(vec![n.clone(), why.clone()]);
        }
        report.table(m);
    }
    Outcome { report, failures }
}
