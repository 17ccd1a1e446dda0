//! `ssimulacra2-replay`: the CPU reference's SSIMULACRA2 scores against libvmaf's own
//! (`fixtures/libvmaf/ssimulacra2-scores.csv`, printed by its `vmaf` tool, scalar build), with
//! the differences of the front end before issue 13 put back one at a time, in the spirit of
//! ADR-1412's replay. CPU only.
//!
//! Configurations: libvmaf's front end (the reference), each [`Difference`] alone on top of
//! it, and all of them at once ([`FrontEnd::BEFORE_ISSUE_13`]). For each: how many committed
//! scores have libvmaf's bits, and the largest and median `|score - libvmaf|`.
//!
//! Then libvmaf's AVX2 and AVX-512 paths (`fixtures/libvmaf/ssimulacra2-scores-avx2.csv`,
//! `-avx512.csv`): each of their scores against the reference's, and against the reference with
//! the path's one difference put back ([`crate::ssimulacra2::x86_paths`]).
//!
//! Failures counted: every score of the reference that is not libvmaf's bits, every
//! difference that moves no score (a replay row that measures nothing), every score of an x86
//! path its variant does not give with its bits, and an x86 file the reference already matches.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{Context as _, Result};

use super::fixture_select::orders_below_one;
use super::{Context, Outcome};
use crate::fixtures::libvmaf::{
    check_row_against, manifest_path, read_scores, reinterpret, scores_csv_of, ScoreRow,
    LIBVMAF_COMMIT, SCORES_CSV,
};
use crate::fixtures::{self, Dirs, Fixture, NotAvailable};
use crate::plot::{Plot, PlotKind};
use crate::report::{Report, Table};
use crate::ssimulacra2::frontend::{Difference, FrontEnd};
use crate::ssimulacra2::x86_paths::{self, X86Path};
use crate::ssimulacra2::yuv::YuvFrame;
use crate::ssimulacra2::{frame_sums, frame_sums_with};

/// One configuration of the replay: a name, what it changes, the front end.
struct Config {
    name: String,
    what: String,
    front: FrontEnd,
}

fn configs() -> Vec<Config> {
    let mut out = vec![Config {
        name: "libvmaf".into(),
        what: "libvmaf's front end (the reference)".into(),
        front: FrontEnd::LIBVMAF,
    }];
    for d in Difference::ALL {
        out.push(Config {
            name: d.name().into(),
            what: d.describe().into(),
            front: FrontEnd::LIBVMAF.with(d),
        });
    }
    out.push(Config {
        name: "before-issue-13".into(),
        what: "all of the above at once: the front end before issue 13".into(),
        front: FrontEnd::BEFORE_ISSUE_13,
    });
    out
}

/// Per configuration: the differences `score - libvmaf` of every scored row, in row order.
struct Tally {
    diffs: Vec<f64>,
    equal: usize,
}

fn median_abs(v: &[f64]) -> f64 {
    let mut a: Vec<f64> = v.iter().map(|d| d.abs()).collect();
    a.sort_by(f64::total_cmp);
    a.get(a.len() / 2).copied().unwrap_or(0.0)
}

/// Loads each input the rows name; `None` where its photographs are missing.
fn load_inputs(rows: &[ScoreRow], csv: &Path) -> Result<Inputs> {
    let root = Path::new(".");
    let dirs = Dirs::under(root);
    let mut out = BTreeMap::new();
    for row in rows {
        if out.contains_key(&row.input) {
            continue;
        }
        let f = match fixtures::load(&manifest_path(root, &row.input), &dirs) {
            Ok(f) => Some(f),
            Err(e) if e.downcast_ref::<NotAvailable>().is_some() => None,
            Err(e) => return Err(e.context(format!("{}: line {}", csv.display(), row.line))),
        };
        if let Some(f) = &f {
            check_row_against(row, &f.manifest, csv)?;
        }
        out.insert(row.input.clone(), f);
    }
    Ok(out)
}

/// Each input a score file names, loaded; `None` where its photographs are missing.
type Inputs = BTreeMap<String, Option<Fixture>>;

/// The rows of `csv` up to `max_pixels` pixels a frame, and their inputs loaded.
fn rows_and_inputs(csv: &Path, max_pixels: usize) -> Result<(Vec<ScoreRow>, Inputs)> {
    let rows: Vec<ScoreRow> = read_scores(csv)?
        .into_iter()
        .filter(|r| r.width * r.height <= max_pixels)
        .collect();
    let inputs = load_inputs(&rows, csv)?;
    Ok((rows, inputs))
}

/// A row's frame pair, read with the row's matrix and range.
fn pair_of(f: &Fixture, row: &ScoreRow) -> (YuvFrame, YuvFrame) {
    let (a, b) = &f.pairs[row.frame];
    (
        reinterpret(a, row.matrix, row.range),
        reinterpret(b, row.matrix, row.range),
    )
}

/// Runs the experiment.
pub fn run(ctx: &Context) -> Result<Outcome> {
    let max_pixels: usize = ctx.get_or("max_pixels", usize::MAX)?;
    let csv = Path::new(SCORES_CSV);
    let (rows, inputs) = rows_and_inputs(csv, max_pixels)?;
    let configs = configs();
    let mut tallies: Vec<Tally> = configs
        .iter()
        .map(|_| Tally {
            diffs: Vec::new(),
            equal: 0,
        })
        .collect();
    let mut headers = vec!["input", "frame", "yuv_matrix", "libvmaf_score"];
    let named: Vec<String> = configs
        .iter()
        .map(|c| format!("{} - libvmaf (points)", c.name))
        .collect();
    headers.extend(named.iter().map(String::as_str));
    let mut per_row = Table::new(
        "scores",
        "Every score: libvmaf's, and each configuration's difference from it",
        &headers,
    );
    per_row.show_rows = Some(0);
    let mut missing = Vec::new();
    let bar = ctx.progress(rows.len() as u64, "ssimulacra2-replay");
    for row in &rows {
        bar.inc(1);
        let Some(f) = &inputs[&row.input] else {
            missing.push(format!("{} frame {}", row.input, row.frame));
            continue;
        };
        let (a, b) = pair_of(f, row);
        let mut cells = vec![
            row.input.clone(),
            row.frame.to_string(),
            row.option.to_string(),
            row.text.clone(),
        ];
        for (c, t) in configs.iter().zip(tallies.iter_mut()) {
            let score = frame_sums_with(&a, &b, &c.front)
                .with_context(|| format!("{} frame {}", row.input, row.frame))?
                .score();
            let d = score - row.score;
            t.equal += (score.to_bits() == row.score.to_bits()) as usize;
            t.diffs.push(d);
            cells.push(format!("{d:e}"));
        }
        per_row.row(cells);
    }
    bar.finish_and_clear();
    let scored = tallies[0].diffs.len();

    let mut summary = Table::new(
        "replay",
        "Each difference put back alone on libvmaf's front end",
        &[
            "configuration",
            "what changes",
            "scores with libvmaf's bits",
            "scores",
            "largest |score - libvmaf| (points)",
            "median |score - libvmaf| (points)",
            "where largest",
        ],
    );
    let mut failures = 0u64;
    let mut largest_of = Vec::new();
    for (i, (c, t)) in configs.iter().zip(&tallies).enumerate() {
        let (at, largest) = t
            .diffs
            .iter()
            .enumerate()
            .map(|(k, d)| (k, d.abs()))
            .fold((0, 0.0f64), |m, x| if x.1 > m.1 { x } else { m });
        let scored_rows: Vec<&ScoreRow> =
            rows.iter().filter(|r| inputs[&r.input].is_some()).collect();
        let where_ = scored_rows
            .get(at)
            .filter(|_| largest > 0.0)
            .map_or("-".to_string(), |r| {
                format!("{} frame {} yuv_matrix {}", r.input, r.frame, r.option)
            });
        if i == 0 {
            failures += (scored - t.equal) as u64;
        } else if t.equal == scored && i < configs.len() - 1 {
            failures += 1;
        }
        largest_of.push((c.name.clone(), largest));
        summary.row(vec![
            c.name.clone(),
            c.what.clone(),
            t.equal.to_string(),
            scored.to_string(),
            format!("{largest:.2e}"),
            format!("{:.2e}", median_abs(&t.diffs)),
            where_,
        ]);
    }

    let mut report = Report::new(
        &ctx.name,
        "SSIMULACRA2: the reference against libvmaf's own scores, and the old front end replayed",
    );
    let old = &tallies[configs.len() - 1];
    report.headline(format!(
        "{} of {scored} libvmaf scores bit-equal (the front end before issue 13: {} of {scored}, \
         up to {:.3} points)",
        tallies[0].equal,
        old.equal,
        old.diffs.iter().fold(0.0f64, |m, d| m.max(d.abs()))
    ));
    report.text(format!(
        "libvmaf's scores: `{SCORES_CSV}`, printed by libvmaf's `vmaf` tool at {LIBVMAF_COMMIT} \
         built with its SIMD code off (its scalar path; `scripts/libvmaf-ssimulacra2.sh`, \
         `docs/ssimulacra2-libvmaf.md`), `--feature ssimulacra2=yuv_matrix=M --precision max`. \
         Each printed score has 17 significant digits and parses back to libvmaf's `f64`, so \
         \"bit-equal\" compares bits. {scored} scores of {} inputs (the fixtures and \
         `fixtures/libvmaf/*.toml`, under each libvmaf `yuv_matrix` option: 0 BT.709 limited, \
         1 BT.601 limited, 2 BT.709 full, 3 BT.601 full). Each configuration changes only the \
         front end (YUV to linear RGB, and the XYB conversion's cube root and matrix); blur, \
         downscaling, terms, sums and pooling are the reference's in all of them. The green \
         weight matters for BT.601 only: for BT.709, `1 - 0.2126 - 0.0722` in `f32` is \
         libvmaf's constant 0.7152. The differences partly cancel, so the last row is not the \
         sum of the others.",
        inputs.values().filter(|f| f.is_some()).count()
    ));
    report.text(
        "Not replayed here: libvmaf's AVX-512 SSIMULACRA2 path (no machine here runs it), the \
         `ssimulacra2` crate (`reports/ssimulacra2-crate`) and the device's tree sums \
         (`reports/ssimulacra2-parity`, GPU). Its AVX2 path is below."
            .to_string(),
    );
    if !missing.is_empty() {
        report.text(format!(
            "Not available here (photographs missing; run `just fixtures`): {} scores, e.g. {}.",
            missing.len(),
            missing[0]
        ));
    }
    report.table(summary);
    report.table(per_row);
    for path in X86Path::ALL {
        failures += x86_section(ctx, &mut report, max_pixels, path)?;
    }
    report.plot(Plot {
        stem: "largest_difference".into(),
        title: "-log10 of the largest |score - libvmaf| per configuration".into(),
        kind: PlotKind::Bars {
            categories: largest_of.iter().map(|(n, _)| n.clone()).collect(),
            series: vec![(
                "largest difference".into(),
                largest_of
                    .iter()
                    .map(|(_, d)| orders_below_one(*d))
                    .collect(),
            )],
            x_label: "configuration".into(),
            y_label: "-log10 |difference in points| (none: bit-equal)".into(),
            log_y: false,
        },
    });
    Ok(Outcome { report, failures })
}

/// One of libvmaf's x86 paths: its scores (`scores_csv_of(path)`) against the reference's (the
/// scalar path) and against the reference with the path's one difference put back
/// ([`x86_paths::frame_sums`]). Failures: a score of that variant without the build's bits
/// (the difference would not be all there is), or no score where the two paths differ.
fn x86_section(
    ctx: &Context,
    report: &mut Report,
    max_pixels: usize,
    path: X86Path,
) -> Result<u64> {
    let csv_name = scores_csv_of(path);
    let (rows, inputs) = rows_and_inputs(Path::new(csv_name), max_pixels)?;
    let name = path.name();
    let upper = name.to_uppercase();
    let mut table = Table::new(
        &format!("{name}_scores"),
        &format!("libvmaf's {upper} path: every score, and the reference's differences from it"),
        &[
            "input",
            "frame",
            "yuv_matrix",
            &format!("libvmaf_{name}_score"),
            &format!("reference - {name} (points)"),
            &format!("reference with f32 edge differences - {name} (points)"),
        ],
    );
    table.show_rows = Some(0);
    let (mut scored, mut ref_equal, mut variant_equal) = (0usize, 0usize, 0usize);
    let (mut ref_largest, mut variant_largest) = (0.0f64, 0.0f64);
    let bar = ctx.progress(rows.len() as u64, &format!("ssimulacra2-replay {name}"));
    for row in &rows {
        bar.inc(1);
        let Some(f) = &inputs[&row.input] else {
            continue;
        };
        let (a, b) = pair_of(f, row);
        let at = || format!("{} frame {}", row.input, row.frame);
        let reference = frame_sums(&a, &b).with_context(at)?.score();
        let variant = x86_paths::frame_sums(path, &a, &b)
            .with_context(at)?
            .score();
        let (dr, dv) = (reference - row.score, variant - row.score);
        scored += 1;
        ref_equal += (reference.to_bits() == row.score.to_bits()) as usize;
        variant_equal += (variant.to_bits() == row.score.to_bits()) as usize;
        ref_largest = ref_largest.max(dr.abs());
        variant_largest = variant_largest.max(dv.abs());
        table.row(vec![
            row.input.clone(),
            row.frame.to_string(),
            row.option.to_string(),
            row.text.clone(),
            format!("{dr:e}"),
            format!("{dv:e}"),
        ]);
    }
    bar.finish_and_clear();
    let mut summary = Table::new(
        &format!("{name}_replay"),
        &format!(
            "libvmaf's {upper} path replayed: its one difference from the scalar path put back"
        ),
        &[
            "configuration",
            "what changes",
            &format!("scores with the {upper} build's bits"),
            "scores",
            &format!("largest |score - {name}| (points)"),
        ],
    );
    summary.row(vec![
        "reference (scalar path)".into(),
        "nothing: libvmaf's scalar path".into(),
        ref_equal.to_string(),
        scored.to_string(),
        format!("{ref_largest:.2e}"),
    ]);
    let lanes = path.lanes();
    summary.row(vec![
        "edge-f32".into(),
        format!("edge_diff_map's |img - mu| rounded to f32 in whole {lanes}-pixel blocks (the {upper} loop), in f64 in the tail"),
        variant_equal.to_string(),
        scored.to_string(),
        format!("{variant_largest:.2e}"),
    ]);
    let how = match path {
        X86Path::Avx2 => "built with its x86 SIMD code (`LIBVMAF_PATH=avx2 scripts/libvmaf-ssimulacra2.sh`) and run with `--cpumask 48` (AVX-512 not permitted)",
        X86Path::Avx512 => "the same build run unmasked on a CPU with AVX-512 F, DQ, CD, BW and VL (`scripts/device-libvmaf-avx512.sh`, on the GPU machine's host; its CPU is named in `fixtures/README.md`)",
    };
    report.text(format!(
        "libvmaf's {upper} path: `{csv_name}`, printed by the same revision's `vmaf` {how}, so \
         its SSIMULACRA2 extractor takes the {upper} functions. Read in their source, they \
         compute every value with the scalar path's operations in its order except one: \
         `edge_diff_map` forms `|img - mu|` by an `f32` subtraction in whole blocks of {lanes} \
         pixels, where the scalar path subtracts in `f64` (`src/ssimulacra2/x86_paths.rs`). \
         The row `edge-f32` is the reference with that one change; {scored} scores, \
         {variant_equal} of them with the {upper} build's bits."
    ));
    report.table(summary);
    report.table(table);
    let mut failures = (scored - variant_equal) as u64;
    if ref_equal == scored {
        failures += 1;
    }
    Ok(failures)
}
