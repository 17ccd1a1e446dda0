//! Experiment `float-vif-parity`: every output of every frame, CPU reference against the GPU
//! exact twin (one thread per row) and the row-parallel twin (binade algebra), by bits.

use anyhow::Result;

use super::float_vif_tables::fmt_diff;
use super::{Context, Outcome};
use crate::report::{thousands, Report, Table};
use crate::vif::compare::Tally;
use crate::vif::fixtures::{standard, Counts, FrameSet};
use crate::vif::gpu::{Reduction, Variant, VifGpu, SEGMENTS};
use crate::vif::options::VifOptions;
use crate::vif::reference::vif;

/// The option sets run besides the defaults, with a label each.
pub fn option_sets() -> Vec<(&'static str, VifOptions)> {
    let d = VifOptions::default();
    vec![
        (
            "vif_enhn_gain_limit=1",
            VifOptions {
                enhn_gain_limit: 1.0,
                ..d
            },
        ),
        (
            "vif_sigma_nsq=0.5",
            VifOptions {
                sigma_nsq: 0.5,
                ..d
            },
        ),
        (
            "vif_sigma_nsq=4",
            VifOptions {
                sigma_nsq: 4.0,
                ..d
            },
        ),
        (
            "vif_skip_scale0",
            VifOptions {
                skip_scale0: true,
                ..d
            },
        ),
        (
            "scale floors 0.9/0.95/0.99",
            VifOptions {
                min_val: [0.9, 0.95, 0.99],
                ..d
            },
        ),
        (
            "vif_kernelscale=0.5",
            VifOptions {
                kernelscale: 0.5,
                ..d
            },
        ),
        (
            "vif_kernelscale=360/97",
            VifOptions {
                kernelscale: 360.0 / 97.0,
                ..d
            },
        ),
    ]
}

/// Heads of the headed rows checked besides the scorer's, with their labels: those
/// `float-vif-timing` times, 8 segments the scorer's head until 64 was timed faster.
pub const OTHER_HEADS: [(u32, &str); 3] = [
    (
        8,
        "row-parallel, two warps and a head of 8 segments, sums beside",
    ),
    (
        16,
        "row-parallel, two warps and a head of 16 segments, sums beside",
    ),
    (
        32,
        "row-parallel, two warps and a head of 32 segments, sums beside",
    ),
];

/// The twins compared: the exact twin (one thread per row) and the row-parallel ones (binade
/// units, the walk by thread 0, by one warp, the num and den rows by two warps at once, and
/// the same with the rows first copied into shared memory, the two warps with each scale's
/// sums beside the next scale's filters on a second stream, and the same with a head: the
/// scorer's ([`crate::vif::gpu::HEAD_SEGMENTS`]) and [`OTHER_HEADS`]).
pub fn exact_twins() -> Vec<(&'static str, Variant)> {
    let mut sets = vec![
        (
            "exact twin (row per thread)",
            Variant::exact(Reduction::Ordered),
        ),
        (
            "row-parallel (binade units)",
            Variant::exact(Reduction::Binade),
        ),
        (
            "row-parallel, walk by one warp",
            Variant::exact(Reduction::BinadeWarp),
        ),
        (
            "row-parallel, num and den rows by two warps",
            Variant::exact(Reduction::BinadePaired),
        ),
        (
            "row-parallel, two warps, rows staged in shared memory",
            Variant::exact(Reduction::BinadeStaged),
        ),
        (
            "row-parallel, two warps, sums beside the next scale's filters",
            Variant::beside(Reduction::BinadePaired),
        ),
        (
            "row-parallel, two warps, segment-interleaved rows, sums beside",
            Variant::beside(Reduction::BinadeInterleaved),
        ),
        (
            "row-parallel, two warps and a head, sums beside (the scorer's)",
            Variant::beside(Reduction::BinadeHeaded),
        ),
    ];
    sets.extend(OTHER_HEADS.iter().map(|&(head, label)| {
        (
            label,
            Variant {
                head,
                ..Variant::beside(Reduction::BinadeHeaded)
            },
        )
    }));
    sets
}

struct Row {
    set: String,
    options: String,
    twin: &'static str,
    frames: usize,
    tally: Tally,
    fallbacks: u64,
    segments: u64,
}

fn run_set(
    g: &mut VifGpu,
    set: &FrameSet,
    label: &str,
    opts: &VifOptions,
    ctx: &Context,
) -> Result<Vec<Row>> {
    let twins = exact_twins();
    let mut rows: Vec<Row> = twins
        .iter()
        .map(|&(twin, _)| Row {
            set: set.name.clone(),
            options: label.into(),
            twin,
            frames: set.frames,
            tally: Tally::default(),
            fallbacks: 0,
            segments: 0,
        })
        .collect();
    let bar = ctx.progress(set.frames as u64, &format!("{} {label}", set.name));
    for k in 0..set.frames {
        let (r, d) = set.frame(k)?;
        let want = vif(&r, &d, opts)?;
        let (ri, di) = (r.to_image(), d.to_image());
        for (row, (_, v)) in rows.iter_mut().zip(&twins) {
            let red = v.reduction;
            let sums = g.scale_sums(&ri, &di, opts, v)?;
            row.tally.add(&sums.features(opts), &want);
            row.fallbacks += sums.fallbacks;
            if red != Reduction::Ordered {
                let (mut h, mut total) = (r.h, 0u64);
                for s in 0..4 {
                    if s > 0 {
                        h /= 2;
                    }
                    if s >= opts.first_scale() {
                        total += 2 * h as u64 * u64::from(SEGMENTS);
                    }
                }
                row.segments += total;
            }
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    Ok(rows)
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
    let option_frames: usize = ctx.get("option_frames")?;
    let mut rows = Vec::new();
    for set in standard(counts, ctx.seed) {
        rows.extend(run_set(
            &mut g,
            &set,
            "defaults",
            &VifOptions::default(),
            ctx,
        )?);
    }
    let mut sd = standard(
        Counts {
            sd8: option_frames,
            sd_deep: 0,
            checker: 0,
            uhd: 0,
        },
        ctx.seed,
    );
    if let Some(set) = sd.pop() {
        for (label, opts) in option_sets() {
            rows.extend(run_set(&mut g, &set, label, &opts, ctx)?);
        }
    }
    let mut table = Table::new(
        "parity",
        "Every output of every frame: GPU twin against the CPU reference",
        &[
            "frames",
            "options",
            "twin",
            "frames run",
            "outputs",
            "identical",
            "largest score difference",
            "largest sum difference",
            "segments added term by term",
        ],
    );
    let (mut outputs, mut identical) = (0u64, 0u64);
    for r in &rows {
        outputs += r.tally.outputs;
        identical += r.tally.identical;
        let fb = if r.segments > 0 {
            format!("{} of {}", thousands(r.fallbacks), thousands(r.segments))
        } else {
            "-".into()
        };
        table.row(vec![
            r.set.clone(),
            r.options.clone(),
            r.twin.into(),
            r.frames.to_string(),
            thousands(r.tally.outputs),
            thousands(r.tally.identical),
            fmt_diff(r.tally.max_score_diff),
            fmt_diff(r.tally.max_sum_diff),
            fb,
        ]);
    }
    let mut report = Report::new(
        &ctx.name,
        "Float VIF: GPU twins against the CPU reference, bit for bit",
    );
    report.headline(format!(
        "{} of {} float VIF outputs identical to the CPU's bits ({})",
        thousands(identical),
        thousands(outputs),
        exact_twins()
            .iter()
            .map(|t| t.0)
            .collect::<Vec<_>>()
            .join(", ")
    ));
    report.text(format!(
        "Device: {}. The CPU reference is `vif::reference` (libvmaf's `float_vif`, the AVX2 and the scalar \
         convolution give the same bits). Each frame publishes fifteen outputs (debug on): four scale scores, \
         `vif`, `vif_num`, `vif_den` and the eight per-scale sums. \"Identical\" compares fp64 bit patterns. \
         The row-parallel twin adds each row with {SEGMENTS} segments composed by the binade algebra; a segment \
         whose unit does not apply (start at zero, a binade crossing, a negative term) is added term by term, \
         which is never wrong.",
        g.describe()
    ));
    report.table(table);
    Ok(Outcome {
        report,
        failures: outputs - identical,
    })
}

#[cfg(test)]
mod tests {
    use super::OTHER_HEADS;
    use crate::vif::gpu::{HEAD_SEGMENTS, SEGMENTS};

    /// The heads checked beside the scorer's are other heads of a row, each named in its label.
    #[test]
    fn other_heads_are_not_the_scorers() {
        for (head, label) in OTHER_HEADS {
            assert!(head != HEAD_SEGMENTS && head < SEGMENTS, "head {head}");
            assert!(
                label.contains(&format!("head of {head} segments")),
                "{label}"
            );
        }
    }
}
