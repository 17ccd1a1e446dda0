//! Experiment `float-vif-timing`: the kernels of one 3840x2160 frame for the exact twin, the
//! row-parallel twin and the former tree reduction, in one run, timed with CUDA events
//! (median of many frames after a warm-up), and the device memory they hold.

use anyhow::{ensure, Result};

use super::{Context, Outcome};
use crate::plot::{Plot, PlotKind};
use crate::report::{Report, Table};
use crate::vif::filter::Image;
use crate::vif::fixtures::{FrameSet, Kind};
use crate::vif::gpu::{Reduction, Variant, VifGpu, HEAD_SEGMENTS};
use crate::vif::options::VifOptions;
use crate::vif::reference::scale_sums;

/// The heads timed for the headed rows (segments of a row added term by term by the head).
const HEADS: [u32; 5] = [4, 8, 16, 32, 64];

fn percentile(sorted: &[f32], p: f64) -> f32 {
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[i]
}

/// Runs the experiment (needs a GPU).
pub fn run(ctx: &Context) -> Result<Outcome> {
    let mut g = VifGpu::open()?;
    let reps: usize = ctx.get("reps")?;
    let warmup: usize = ctx.get("warmup")?;
    let rounds: usize = ctx.get_or("rounds", 3)?;
    ensure!(
        reps >= 1 && rounds >= 1,
        "{}: `reps` and `rounds` must be at least 1",
        ctx.file.display()
    );
    let set = FrameSet {
        name: "3840x2160 8-bit".into(),
        kind: Kind::Natural {
            w: 3840,
            h: 2160,
            bpc: 8,
        },
        frames: 1,
        seed: ctx.seed,
    };
    let (r, d) = set.frame(0)?;
    let opts = VifOptions::default();
    let (free_before, total) = g.mem_info()?;
    g.upload(&r.to_image(), &d.to_image())?;
    let (free_after, _) = g.mem_info()?;
    let mut variants: Vec<(String, Variant)> = [
        (
            "exact twin (row per thread)",
            Variant::exact(Reduction::Ordered),
        ),
        (
            "row-parallel (binade units)",
            Variant::exact(Reduction::Binade),
        ),
        (
            "row-parallel, pair units only (before the fast units)",
            Variant::exact(Reduction::BinadePairs),
        ),
        (
            "row-parallel, plan and walk by one warp",
            Variant::exact(Reduction::BinadeWarp),
        ),
        (
            "row-parallel, num and den rows at once by two warps",
            Variant::exact(Reduction::BinadePaired),
        ),
        (
            "row-parallel, two warps, the rows staged in shared memory",
            Variant::exact(Reduction::BinadeStaged),
        ),
        (
            "row-parallel, two warps, sums beside the next scale's filters",
            Variant::beside(Reduction::BinadePaired),
        ),
        (
            "row-parallel, two warps, segment-interleaved rows",
            Variant::exact(Reduction::BinadeInterleaved),
        ),
        (
            "row-parallel, two warps, segment-interleaved rows, sums beside",
            Variant::beside(Reduction::BinadeInterleaved),
        ),
        (
            "warp and block trees (not exact)",
            Variant::exact(Reduction::Tree),
        ),
        (
            "warp and block trees, sums beside the next scale's filters (not exact)",
            Variant::beside(Reduction::Tree),
        ),
    ]
    .map(|(label, v)| (label.to_string(), v))
    .to_vec();
    // the headed rows for a few heads, not beside (for the sums alone) and beside
    for (beside, how) in [(false, ""), (true, ", sums beside")] {
        for head in HEADS {
            let f = if beside {
                Variant::beside
            } else {
                Variant::exact
            };
            variants.push((
                format!("row-parallel, two warps and a head of {head} segments{how}"),
                Variant {
                    head,
                    ..f(Reduction::BinadeHeaded)
                },
            ));
        }
    }
    // alternate the variants in rounds so that drift in clocks or load touches all of them
    let mut times: Vec<Vec<f32>> = vec![Vec::new(); variants.len()];
    let mut sum_times: Vec<Vec<f32>> = vec![Vec::new(); variants.len()];
    for _ in 0..rounds {
        for (i, (_, v)) in variants.iter().enumerate() {
            times[i].extend(g.time_frames(&opts, v, warmup, reps)?);
            if !v.sums_beside {
                sum_times[i].extend(g.time_sums(&opts, v, warmup, reps)?);
            }
        }
    }
    let mut table = Table::new(
        "timing",
        "Kernels of one 3840x2160 frame (all four scales, default options), CUDA events",
        &[
            "variant",
            "frames timed",
            "median ms",
            "p10 ms",
            "p90 ms",
            "median vs exact twin",
            "sums alone median ms",
        ],
    );
    let mut medians = Vec::new();
    let mut sum_medians = Vec::new();
    for (i, (label, _)) in variants.iter().enumerate() {
        let mut t = times[i].clone();
        t.sort_by(f32::total_cmp);
        medians.push(percentile(&t, 0.5));
        let mut st = sum_times[i].clone();
        st.sort_by(f32::total_cmp);
        let sums_alone = if st.is_empty() {
            f32::NAN
        } else {
            percentile(&st, 0.5)
        };
        sum_medians.push(sums_alone);
        table.row(vec![
            label.to_string(),
            t.len().to_string(),
            format!("{:.3}", percentile(&t, 0.5)),
            format!("{:.3}", percentile(&t, 0.1)),
            format!("{:.3}", percentile(&t, 0.9)),
            format!("{:.2}x", percentile(&t, 0.5) / medians[0]),
            if sums_alone.is_nan() {
                "-".to_string()
            } else {
                format!("{sums_alone:.3}")
            },
        ]);
    }
    let (walks, failures) = walk_table(&mut g, &r.to_image(), &d.to_image(), &opts, &variants)?;
    let mib = |b: usize| b as f64 / (1024.0 * 1024.0);
    let work = g.workspace_bytes();
    let mut report = Report::new(
        &ctx.name,
        "Float VIF: kernel time per 3840x2160 frame and device memory",
    );
    // Each figure found by its variant, not by its place in the list.
    let pos = |v: Variant| variants.iter().position(|(_, x)| *x == v);
    let at = |v: Variant| pos(v).map_or(f32::NAN, |i| medians[i]);
    let alone = |v: Variant| pos(v).map_or(f32::NAN, |i| sum_medians[i]);
    let e = Variant::exact;
    let trees = at(e(Reduction::Tree));
    let paired_beside = at(Variant::beside(Reduction::BinadePaired));
    let trees_beside = at(Variant::beside(Reduction::Tree));
    let interleaved = at(e(Reduction::BinadeInterleaved));
    let interleaved_beside = at(Variant::beside(Reduction::BinadeInterleaved));
    let head_default = |beside: bool| {
        let f = if beside {
            Variant::beside
        } else {
            Variant::exact
        };
        at(Variant {
            head: HEAD_SEGMENTS,
            ..f(Reduction::BinadeHeaded)
        })
    };
    let headed_alone = alone(Variant {
        head: HEAD_SEGMENTS,
        ..e(Reduction::BinadeHeaded)
    });
    // the fastest head timed, with its sums beside
    let (best_head, best_beside) = HEADS
        .iter()
        .map(|&head| {
            (
                head,
                at(Variant {
                    head,
                    ..Variant::beside(Reduction::BinadeHeaded)
                }),
            )
        })
        .min_by(|x, y| x.1.total_cmp(&y.1))
        .unwrap_or((HEAD_SEGMENTS, f32::NAN));
    report.headline(format!(
        "The scorer's exact sums (two warps and a head of {HEAD_SEGMENTS} segments, sums beside) \
         take {:.3} ms a 3840x2160 frame, {:.3}x the trees ({:.3}x the trees beside); the \
         fastest head timed, {best_head} segments, {:.3} ms, {:.3}x; trees {:.3} ms, trees \
         beside {:.3} ms; exact twin (row per thread) {:.3} ms",
        head_default(true),
        head_default(true) / trees,
        head_default(true) / trees_beside,
        best_beside,
        best_beside / trees,
        trees,
        trees_beside,
        at(e(Reduction::Ordered)),
    ));
    report.text(format!(
        "All variants, 3840x2160 frame: exact twin {:.3} ms, row-parallel {:.3} ms ({:.2}x the trees; with pair units only {:.3} ms; plan and walk by one warp {:.3} ms, {:.2}x; num and den rows at once by two warps, {:.3} ms, {:.2}x; the same with the rows staged in shared memory {:.3} ms, {:.2}x; two warps with the sums beside the next scale's filters {:.3} ms, {:.2}x the trees, {:.2}x the trees beside; two warps on segment-interleaved rows {:.3} ms, {:.2}x, and with the sums beside {:.3} ms, {:.2}x the trees, {:.2}x the trees beside), trees {:.3} ms, trees beside {:.3} ms; the sums alone: two warps {:.3} ms, on interleaved rows {:.3} ms, trees {:.3} ms; {:.0} MiB of device buffers",
        at(e(Reduction::Ordered)),
        at(e(Reduction::Binade)),
        at(e(Reduction::Binade)) / trees,
        at(e(Reduction::BinadePairs)),
        at(e(Reduction::BinadeWarp)),
        at(e(Reduction::BinadeWarp)) / trees,
        at(e(Reduction::BinadePaired)),
        at(e(Reduction::BinadePaired)) / trees,
        at(e(Reduction::BinadeStaged)),
        at(e(Reduction::BinadeStaged)) / trees,
        paired_beside,
        paired_beside / trees,
        paired_beside / trees_beside,
        interleaved,
        interleaved / trees,
        interleaved_beside,
        interleaved_beside / trees,
        interleaved_beside / trees_beside,
        trees,
        trees_beside,
        alone(e(Reduction::BinadePaired)),
        alone(e(Reduction::BinadeInterleaved)),
        alone(e(Reduction::Tree)),
        mib(work)
    ));
    report.text(format!(
        "Device: {}. Each timed frame runs every kernel of the four scales (filter and decimation, \
         vertical passes, horizontal passes with the statistic, the sums) on a frame already on the device; \
         the row sums are not read back inside the timing. The row-parallel sum forms each segment's unit by \
         the fast path (`fvif_segment_unit_fast`: the f64 sum of rint(x * 2^(150 - b)) where no term is a \
         tie) and, in the row before it was added, by the pair composition term by term. The variants \
         with sums beside the next scale's filters launch each scale's sums on a second stream after an \
         event recorded behind the scale's term kernel, the frame's stream waiting for the last of them \
         (the same kernels and bits; each scale's terms in a buffer of their own). The segment-interleaved \
         rows keep a segment's k-th term 128 floats after its (k-1)-th (the term kernel's layout 2), so \
         the 32 threads of a warp, a segment each, read 32 neighbouring terms at each step of their \
         segments; row by row they read 32 terms w / 128 apart. \"Sums alone\": the \
         four scales' sum kernels of one frame in turn on the terms the frame left, nothing beside them, \
         CUDA events around the four (the same warm-up and counts). {warmup} untimed frames before each block of \
         {reps} timed ones, {rounds} rounds alternating the variants. Device buffers: {:.1} MiB allocated by \
         the twin (inputs, two scale ping-pong pairs, one filter row buffer, five vertical-pass planes, \
         the num and den terms of every scale, row sums and block partials); the free memory reported by the \
         driver fell by {:.1} MiB when they were allocated (of {:.0} MiB on the device).",
        g.describe(),
        mib(work),
        mib(free_before.saturating_sub(free_after)),
        mib(total)
    ));
    report.text(format!(
        "The headed rows (`fvif_row_sums_binade_headed`): the paired rows with a fifth warp, the \
         head, adding the first segments of each row term by term (the CPU's adds, from +0) while \
         the four form the estimates and units; the walks start after the head from its sums. A \
         row's sum from +0 crosses a binade near segments 1, 2, 4, 8, ..., and each crossing costs \
         the walk two rounds. With the scorer's head (`HEAD_SEGMENTS`) of {HEAD_SEGMENTS} segments: \
         {:.3} ms ({:.3}x the trees), sums beside {:.3} ms (**{:.3}x the trees**, {:.3}x the trees \
         beside; the paired rows beside {:.3} ms, {:.3}x); the sums alone {:.3} ms against the \
         paired rows' {:.3}.",
        head_default(false),
        head_default(false) / trees,
        head_default(true),
        head_default(true) / trees,
        head_default(true) / trees_beside,
        paired_beside,
        paired_beside / trees,
        headed_alone,
        alone(e(Reduction::BinadePaired)),
    ));
    report.table(table);
    report.table(walks);
    report.plot(Plot {
        stem: "timing".into(),
        title: "Median kernel time per 3840x2160 frame".into(),
        kind: PlotKind::Bars {
            categories: variants.iter().map(|v| v.0.to_string()).collect(),
            series: vec![(
                "median ms".into(),
                medians.iter().map(|&m| f64::from(m)).collect(),
            )],
            x_label: "kernel variant".into(),
            y_label: "median ms per frame".into(),
            log_y: false,
        },
    });
    Ok(Outcome { report, failures })
}

/// Each exact row-parallel variant's frame once more, outside the timing: the segments its
/// walk added term by term, and whether every scale's num and den sums have the CPU
/// reference's bits (a variant that does not is a failure of the run).
fn walk_table(
    g: &mut VifGpu,
    r: &Image,
    d: &Image,
    opts: &VifOptions,
    variants: &[(String, Variant)],
) -> Result<(Table, u64)> {
    let want = scale_sums(r, d, opts)?;
    let mut table = Table::new(
        "walks",
        "The row-parallel variants' walks on the timed frame, and their bits",
        &[
            "variant",
            "segments added term by term a frame",
            "a row (num and den, four scales)",
            "every scale's sums the CPU's bits",
        ],
    );
    let rows = rows_summed(r.h);
    let mut failures = 0;
    for (label, v) in variants {
        if matches!(v.reduction, Reduction::Tree | Reduction::Ordered) {
            continue;
        }
        let got = g.scale_sums(r, d, opts, v)?;
        let same = got.first_scale_unlike(&want).is_none();
        failures += u64::from(!same);
        table.row(vec![
            label.clone(),
            got.fallbacks.to_string(),
            format!("{:.2}", got.fallbacks as f64 / rows as f64),
            if same { "yes" } else { "**no**" }.to_string(),
        ]);
    }
    Ok((table, failures))
}

/// The rows a frame of height `h` sums: num and den of each of the four scales.
fn rows_summed(h: usize) -> usize {
    2 * (0..4).map(|s| h >> s).sum::<usize>()
}
