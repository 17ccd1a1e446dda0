//! Experiment `float-vif-timing`: the kernels of one 3840x2160 frame for the exact twin, the
//! row-parallel twin and the former tree reduction, in one run, timed with CUDA events
//! (median of many frames after a warm-up), and the device memory they hold.

use anyhow::{ensure, Result};

use super::{Context, Outcome};
use crate::plot::{Plot, PlotKind};
use crate::report::{Report, Table};
use crate::vif::fixtures::{FrameSet, Kind};
use crate::vif::gpu::{Reduction, Variant, VifGpu};
use crate::vif::options::VifOptions;

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
    let variants = [
        ("exact twin (row per thread)", Reduction::Ordered),
        ("row-parallel (binade units)", Reduction::Binade),
        (
            "row-parallel, pair units only (before the fast units)",
            Reduction::BinadePairs,
        ),
        (
            "row-parallel, plan and walk by one warp",
            Reduction::BinadeWarp,
        ),
        (
            "row-parallel, num and den rows at once by two warps",
            Reduction::BinadePaired,
        ),
        (
            "row-parallel, two warps, the rows staged in shared memory",
            Reduction::BinadeStaged,
        ),
        ("warp and block trees (not exact)", Reduction::Tree),
    ];
    // alternate the variants in rounds so that drift in clocks or load touches all of them
    let mut times: Vec<Vec<f32>> = vec![Vec::new(); variants.len()];
    for _ in 0..rounds {
        for (i, (_, red)) in variants.iter().enumerate() {
            times[i].extend(g.time_frames(&opts, &Variant::exact(*red), warmup, reps)?);
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
        ],
    );
    let mut medians = Vec::new();
    for (i, (label, _)) in variants.iter().enumerate() {
        let mut t = times[i].clone();
        t.sort_by(f32::total_cmp);
        medians.push(percentile(&t, 0.5));
        table.row(vec![
            label.to_string(),
            t.len().to_string(),
            format!("{:.3}", percentile(&t, 0.5)),
            format!("{:.3}", percentile(&t, 0.1)),
            format!("{:.3}", percentile(&t, 0.9)),
            format!("{:.2}x", percentile(&t, 0.5) / medians[0]),
        ]);
    }
    let mib = |b: usize| b as f64 / (1024.0 * 1024.0);
    let work = g.workspace_bytes();
    let mut report = Report::new(
        &ctx.name,
        "Float VIF: kernel time per 3840x2160 frame and device memory",
    );
    // Each figure found by its reduction, not by its place in the list.
    let at = |r: Reduction| {
        variants
            .iter()
            .position(|&(_, v)| v == r)
            .map_or(f32::NAN, |i| medians[i])
    };
    let trees = at(Reduction::Tree);
    report.headline(format!(
        "3840x2160 frame: exact twin {:.3} ms, row-parallel {:.3} ms ({:.2}x the trees; with pair units only {:.3} ms; plan and walk by one warp {:.3} ms, {:.2}x; num and den rows at once by two warps, the scorer's, {:.3} ms, {:.2}x; the same with the rows staged in shared memory {:.3} ms, {:.2}x), trees {:.3} ms; {:.0} MiB of device buffers",
        at(Reduction::Ordered),
        at(Reduction::Binade),
        at(Reduction::Binade) / trees,
        at(Reduction::BinadePairs),
        at(Reduction::BinadeWarp),
        at(Reduction::BinadeWarp) / trees,
        at(Reduction::BinadePaired),
        at(Reduction::BinadePaired) / trees,
        at(Reduction::BinadeStaged),
        at(Reduction::BinadeStaged) / trees,
        trees,
        mib(work)
    ));
    report.text(format!(
        "Device: {}. Each timed frame runs every kernel of the four scales (filter and decimation, \
         vertical passes, horizontal passes with the statistic, the sums) on a frame already on the device; \
         the row sums are not read back inside the timing. The row-parallel sum forms each segment's unit by \
         the fast path (`fvif_segment_unit_fast`: the f64 sum of rint(x * 2^(150 - b)) where no term is a \
         tie) and, in the row before it was added, by the pair composition term by term. {warmup} untimed frames before each block of \
         {reps} timed ones, {rounds} rounds alternating the variants. Device buffers: {:.1} MiB allocated by \
         the twin (inputs, two scale ping-pong pairs, one filter row buffer, five vertical-pass planes, \
         the num and den terms of scale 0, row sums and block partials); the free memory reported by the \
         driver fell by {:.1} MiB when they were allocated (of {:.0} MiB on the device).",
        g.describe(),
        mib(work),
        mib(free_before.saturating_sub(free_after)),
        mib(total)
    ));
    report.table(table);
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
    Ok(Outcome {
        report,
        failures: 0,
    })
}
