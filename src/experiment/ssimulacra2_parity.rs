//! `ssimulacra2-parity`: for every fixture and frame, how many of the per-frame averages the
//! device returns with the CPU's bits when its terms are added in a tree (before) and in order
//! (after: the seed's pipeline, and the walked engine with a scale's 18 sums in one launch),
//! the largest difference before, and the final scores.

use anyhow::{Context as _, Result};

use super::fixture_select::{load_fixtures, orders_below_one, Loaded};
use super::{Context, Outcome};
use crate::gpu::ordered_sum::walked::WalkedSum;
use crate::gpu::{Gpu, GpuOrderedSum};
use crate::plot::{Plot, PlotKind};
use crate::report::{Report, Table};
use crate::ssimulacra2::device::{scale_on_device, DeviceTerms, ScaleOnDevice};
use crate::ssimulacra2::terms::TERMS;
use crate::ssimulacra2::{for_each_scale, scale_sums, yuv, FrameSums, ScaleSums};

/// One frame's sums: the CPU's and the device's three.
struct FrameRun {
    cpu: FrameSums,
    tree: FrameSums,
    ordered: FrameSums,
    walked: FrameSums,
    walked_finished: u64,
    one_lane: Option<FrameSums>,
    term_mismatches: Option<u64>,
    fallback_chunks: u64,
}

fn frame_sums_of(
    cpu: &[ScaleSums],
    pick: impl Fn(&ScaleOnDevice) -> [[f64; TERMS]; 3],
    dev: &[ScaleOnDevice],
) -> FrameSums {
    FrameSums {
        scales: cpu
            .iter()
            .zip(dev)
            .map(|(c, d)| ScaleSums {
                sums: pick(d),
                ..*c
            })
            .collect(),
    }
}

fn run_frame(
    terms: &DeviceTerms,
    sum: &GpuOrderedSum,
    walked: &WalkedSum,
    a: &yuv::YuvFrame,
    b: &yuv::YuvFrame,
    check_terms: bool,
    one_lane: bool,
) -> Result<FrameRun> {
    yuv::check_pair(a, b)?;
    let (mut cpu, mut dev) = (Vec::new(), Vec::new());
    for_each_scale(yuv::to_linear_rgb(a), yuv::to_linear_rgb(b), |scale| {
        cpu.push(scale_sums(scale));
        dev.push(scale_on_device(
            terms,
            sum,
            walked,
            scale,
            check_terms,
            one_lane,
        )?);
        Ok(())
    })?;
    let one = if one_lane {
        Some(frame_sums_of(
            &cpu,
            |d| d.one_lane.unwrap_or([[f64::NAN; TERMS]; 3]),
            &dev,
        ))
    } else {
        None
    };
    Ok(FrameRun {
        tree: frame_sums_of(&cpu, |d| d.tree, &dev),
        ordered: frame_sums_of(&cpu, |d| d.ordered, &dev),
        walked: frame_sums_of(&cpu, |d| d.walked, &dev),
        walked_finished: dev.iter().map(|d| d.walked_finished).sum(),
        one_lane: one,
        term_mismatches: if check_terms {
            Some(dev.iter().filter_map(|d| d.term_mismatches).sum())
        } else {
            None
        },
        fallback_chunks: dev.iter().map(|d| d.fallback_chunks).sum(),
        cpu: FrameSums { scales: cpu },
    })
}

/// Averages equal in bits to the CPU's, and the largest absolute difference.
fn compare(cpu: &FrameSums, other: &FrameSums) -> (usize, f64) {
    let (a, b) = (cpu.flat_averages(), other.flat_averages());
    let equal = a
        .iter()
        .zip(&b)
        .filter(|(x, y)| x.to_bits() == y.to_bits())
        .count();
    let largest = a
        .iter()
        .zip(&b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f64::max);
    (equal, largest)
}

/// Per-fixture totals for the summary and the figure.
#[derive(Default)]
struct Totals {
    frames: usize,
    identical_before: usize,
    identical_after: usize,
    identical_walked: usize,
    largest_before: f64,
}

/// Runs the experiment (needs a GPU).
pub fn run(ctx: &Context) -> Result<Outcome> {
    let gpu = Gpu::open()?;
    let terms = DeviceTerms::new(&gpu)?;
    let sum = GpuOrderedSum::new(&gpu)?;
    let walked = crate::ssimulacra2::device::walked_engine(&gpu)?;
    let max_frames: usize = ctx.get_or("max_frames", usize::MAX)?;
    let check_terms: bool = ctx.get_or("check_terms", true)?;
    let one_lane: bool = ctx.get_or("one_lane", false)?;
    let loaded = load_fixtures(ctx)?;
    let mut frames = Table::new(
        "frames",
        "Every fixture and frame: averages with the CPU's bits (of N), largest difference before, scores",
        &[
            "fixture", "frame", "N", "equal before (tree)", "equal after (ordered)", "equal one lane",
            "largest |diff| before", "CPU score", "score before", "score after", "term mismatches", "fallback chunks",
            "equal walked", "walked tiles finished",
        ],
    );
    let mut summary = Table::new(
        "fixtures",
        "Per fixture",
        &[
            "fixture",
            "size",
            "format",
            "frames",
            "identical before",
            "identical after",
            "largest |diff| before",
            "identical walked",
        ],
    );
    let mut failures = 0u64;
    let mut all = Totals::default();
    let mut per_fixture: Vec<(String, Totals)> = Vec::new();
    let mut missing = Vec::new();
    let bar = ctx.progress(loaded.len() as u64, "ssimulacra2-parity");
    for item in &loaded {
        bar.inc(1);
        let f = match item {
            Loaded::Ready(f) => f,
            Loaded::Missing(name, reason) => {
                summary.row(vec![
                    name.clone(),
                    "-".into(),
                    "-".into(),
                    "not available: run just fixtures".into(),
                    reason.clone(),
                    "-".into(),
                    "-".into(),
                ]);
                missing.push(name.clone());
                continue;
            }
        };
        let mut t = Totals::default();
        for (i, (a, b)) in f.pairs.iter().enumerate().take(max_frames) {
            let r = run_frame(&terms, &sum, &walked, a, b, check_terms, one_lane)
                .with_context(|| format!("{} frame {i}", f.name))?;
            let n = r.cpu.flat_averages().len();
            let (eq_before, largest) = compare(&r.cpu, &r.tree);
            let (eq_after, _) = compare(&r.cpu, &r.ordered);
            let (eq_walked, _) = compare(&r.cpu, &r.walked);
            let eq_one = r.one_lane.as_ref().map(|o| compare(&r.cpu, o).0);
            let (cpu_score, before, after) = (r.cpu.score(), r.tree.score(), r.ordered.score());
            failures += (eq_after != n) as u64
                + (eq_walked != n) as u64
                + r.term_mismatches.unwrap_or(0)
                + eq_one.map_or(0, |e| (e != n) as u64);
            t.frames += 1;
            t.identical_before += (eq_before == n) as usize;
            t.identical_after += (eq_after == n && after.to_bits() == cpu_score.to_bits()) as usize;
            t.identical_walked +=
                (eq_walked == n && r.walked.score().to_bits() == cpu_score.to_bits()) as usize;
            t.largest_before = t.largest_before.max(largest);
            frames.row(vec![
                f.name.clone(),
                i.to_string(),
                n.to_string(),
                eq_before.to_string(),
                eq_after.to_string(),
                eq_one.map_or("-".into(), |e| e.to_string()),
                format!("{largest:.2e}"),
                format!("{cpu_score:.17}"),
                format!("{before:.17}"),
                format!("{after:.17}"),
                r.term_mismatches.map_or("-".into(), |m| m.to_string()),
                r.fallback_chunks.to_string(),
                eq_walked.to_string(),
                r.walked_finished.to_string(),
            ]);
        }
        let m = &f.manifest;
        summary.row(vec![
            f.name.clone(),
            format!("{}x{}", m.width, m.height),
            format!(
                "{} {}-bit {} {}",
                m.chroma.name(),
                m.bit_depth,
                m.matrix.name(),
                m.range.name()
            ),
            t.frames.to_string(),
            format!("{} of {}", t.identical_before, t.frames),
            format!("{} of {}", t.identical_after, t.frames),
            format!("{:.2e}", t.largest_before),
            format!("{} of {}", t.identical_walked, t.frames),
        ]);
        all.frames += t.frames;
        all.identical_before += t.identical_before;
        all.identical_after += t.identical_after;
        all.identical_walked += t.identical_walked;
        all.largest_before = all.largest_before.max(t.largest_before);
        per_fixture.push((f.name.clone(), t));
    }
    bar.finish_and_clear();
    let mut report = Report::new(
        &ctx.name,
        "SSIMULACRA2 on the device: tree sums against ordered sums",
    );
    report.headline(format!(
        "before: {} of {} frames identical, largest difference {:.2e}; after: {} of {} (walked engine: {} of {}){}",
        all.identical_before,
        all.frames,
        all.largest_before,
        all.identical_after,
        all.frames,
        all.identical_walked,
        all.frames,
        if missing.is_empty() {
            String::new()
        } else {
            format!(" ({} natural fixtures not available)", missing.len())
        }
    ));
    report.text(format!(
        "The device computes the per-pixel terms of every scale (`kernels/ssimulacra2.cu`) from the \
         CPU reference's own `f32` planes, uploaded, and adds each of the 18 sums per scale with \
         the tree sum (before) and the ordered sum (after; the seed's pipeline with the `{}` walk and \
         the tree-prefix plan, and the walked engine, the scale's 18 sums in one launch with a \
         walker each, its tiles finished from their terms counted). A frame \
         is identical when all its averages (108 for six scales, 18 per completed scale) and its \
         score have the CPU's bits. Terms checked against the CPU's bit for bit: {check_terms}; \
         one lane per sum: {one_lane}. The CPU reference is this crate's scalar pipeline \
         (libvmaf's scalar operation order; its AVX2/AVX-512 paths add in the same order).",
        sum.walk().name()
    ));
    if !missing.is_empty() {
        report.text(format!(
            "Not available here (run `just fixtures`): {}.",
            missing.join(", ")
        ));
    }
    report.table(summary);
    report.table(frames);
    let names: Vec<String> = per_fixture.iter().map(|(n, _)| n.clone()).collect();
    report.plot(Plot {
        stem: "largest_difference".into(),
        title:
            "-log10 of the largest |average - CPU| per fixture, tree sums (ordered: no difference)"
                .into(),
        kind: PlotKind::Bars {
            categories: names.clone(),
            series: vec![(
                "tree sum".into(),
                per_fixture
                    .iter()
                    .map(|(_, t)| orders_below_one(t.largest_before))
                    .collect(),
            )],
            x_label: "fixture".into(),
            y_label: "-log10 |difference in points| (none: identical)".into(),
            log_y: false,
        },
    });
    report.plot(Plot {
        stem: "identical_frames".into(),
        title: "Share of frames identical to the CPU".into(),
        kind: PlotKind::Bars {
            categories: names,
            series: vec![
                (
                    "tree sum".into(),
                    per_fixture
                        .iter()
                        .map(|(_, t)| t.identical_before as f64 / t.frames.max(1) as f64)
                        .collect(),
                ),
                (
                    "ordered sum".into(),
                    per_fixture
                        .iter()
                        .map(|(_, t)| t.identical_after as f64 / t.frames.max(1) as f64)
                        .collect(),
                ),
            ],
            x_label: "fixture".into(),
            y_label: "share of frames identical (1 = all)".into(),
            log_y: false,
        },
    });
    Ok(Outcome { report, failures })
}
