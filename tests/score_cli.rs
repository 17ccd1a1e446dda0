//! `binade score` end to end: the built binary on raw YUV files written from the fixtures.
//!
//! Independent evidence: every committed libvmaf SSIMULACRA2 score of a synthetic input up to
//! 128x128 (`fixtures/libvmaf/ssimulacra2-scores.csv`, printed by libvmaf's own `vmaf` tool at
//! `fixtures::libvmaf::LIBVMAF_COMMIT`) comes back from the command with libvmaf's bits. The
//! float_vif outputs and the pooled metrics are the library's, bit for bit; every kind of bad
//! input gets one line, exit 2, and no output file.

use std::fs;
use std::path::Path;
use std::process::{Command, Output};

use binade::cli::score::pooled;
use binade::fixtures::libvmaf::{manifest_path, read_scores, ScoreRow, SCORES_CSV};
use binade::fixtures::{self, encode_frame, project_root, Dirs, Fixture, NotAvailable};
use binade::ssimulacra2::yuv::YuvFrame;
use binade::vif::frame::Plane;
use binade::vif::options::VifOptions;
use serde_json::Value;

fn binade(args: &[&str]) -> Output {
    Command::new(binade::cli::binary_under_test(env!("CARGO_BIN_EXE_binade")))
        .current_dir(project_root())
        .arg("score")
        .args(args)
        .output()
        .unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

/// Writes the reference frames and the distorted frames of `pairs` as two raw files.
fn write_pairs(dir: &Path, pairs: &[(YuvFrame, YuvFrame)]) -> (String, String) {
    let mut files = [Vec::new(), Vec::new()];
    for (a, b) in pairs {
        encode_frame(a, &mut files[0]);
        encode_frame(b, &mut files[1]);
    }
    let names = [dir.join("ref.yuv"), dir.join("dist.yuv")];
    for (name, bytes) in names.iter().zip(&files) {
        fs::write(name, bytes).unwrap();
    }
    (
        names[0].display().to_string(),
        names[1].display().to_string(),
    )
}

/// The format arguments of a fixture's frames, with the matrix and range given.
fn format_args(f: &YuvFrame, matrix: &str, range: &str) -> Vec<String> {
    vec![
        "--width".into(),
        f.format.width.to_string(),
        "--height".into(),
        f.format.height.to_string(),
        "--pixel-format".into(),
        f.format.chroma.name().into(),
        "--bitdepth".into(),
        f.format.bit_depth.to_string(),
        "--matrix".into(),
        matrix.into(),
        "--range".into(),
        range.into(),
    ]
}

fn run_json(args: &[String]) -> Value {
    let a: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = binade(&a);
    assert_eq!(
        o.status.code(),
        Some(0),
        "binade score {a:?}: {}",
        stderr(&o)
    );
    serde_json::from_slice(&o.stdout).unwrap()
}

fn metric(doc: &Value, frame: usize, name: &str) -> f64 {
    doc["frames"][frame]["metrics"][name]
        .as_f64()
        .unwrap_or_else(|| panic!("frame {frame} has no {name}: {doc}"))
}

#[test]
fn score_gives_libvmafs_ssimulacra2_bits() {
    let root = project_root();
    let rows = read_scores(&root.join(SCORES_CSV)).unwrap();
    let dirs = Dirs::under(&root);
    let mut by_input: std::collections::BTreeMap<String, Vec<&ScoreRow>> = Default::default();
    for row in rows.iter().filter(|r| r.width * r.height <= 128 * 128) {
        by_input.entry(row.input.clone()).or_default().push(row);
    }
    let (mut checked, mut unavailable) = (0, 0);
    for (input, rows) in &by_input {
        let f: Fixture = match fixtures::load(&manifest_path(&root, input), &dirs) {
            Ok(f) => f,
            Err(e) if e.downcast_ref::<NotAvailable>().is_some() => {
                unavailable += rows.len();
                continue;
            }
            Err(e) => panic!("{input}: {e:#}"),
        };
        let dir = tempfile::tempdir().unwrap();
        let (r, d) = write_pairs(dir.path(), &f.pairs);
        let mut options: Vec<(&str, &str)> = rows
            .iter()
            .map(|row| (row.matrix.name(), row.range.name()))
            .collect();
        options.dedup();
        for (matrix, range) in options {
            let mut args = vec![
                r.clone(),
                d.clone(),
                "--feature".into(),
                "ssimulacra2".into(),
            ];
            args.extend(format_args(&f.pairs[0].0, matrix, range));
            let doc = run_json(&args);
            for row in rows
                .iter()
                .filter(|row| row.matrix.name() == matrix && row.range.name() == range)
            {
                let got = metric(&doc, row.frame, "ssimulacra2");
                assert_eq!(
                    got.to_bits(),
                    row.score.to_bits(),
                    "{SCORES_CSV}: line {} ({input}, frame {}, {matrix} {range}): binade score gave {got:?}, libvmaf printed {}",
                    row.line,
                    row.frame,
                    row.text
                );
                checked += 1;
            }
        }
    }
    let eligible: usize = by_input.values().map(Vec::len).sum();
    eprintln!("{checked} libvmaf scores checked through binade score, {unavailable} of photographs not available");
    assert!(
        eligible > 0,
        "{SCORES_CSV}: no score of an input up to 128x128"
    );
    assert_eq!(
        checked + unavailable,
        eligible,
        "rows neither checked nor unavailable"
    );
    assert!(checked > 0, "no libvmaf score checked");
}

/// A small 10-bit 4:4:4 input with noise (its frames as the manifest says).
fn noisy_pairs() -> Vec<(YuvFrame, YuvFrame)> {
    let root = project_root();
    let f = fixtures::load(
        &manifest_path(&root, "libvmaf/noise-67x41-10bit-444"),
        &Dirs::under(&root),
    )
    .unwrap();
    f.pairs
}

#[test]
fn float_vif_and_pooling_are_the_librarys_bits() {
    let pairs = noisy_pairs();
    let dir = tempfile::tempdir().unwrap();
    let (r, d) = write_pairs(dir.path(), &pairs);
    let mut args = vec![r, d, "--vif-option".into(), "vif_kernelscale=0.5".into()];
    args.extend(format_args(&pairs[0].0, "bt709", "limited"));
    let doc = run_json(&args);
    let opts = VifOptions {
        kernelscale: 0.5,
        ..VifOptions::default()
    };
    let mut vif0 = Vec::new();
    for (i, (a, b)) in pairs.iter().enumerate() {
        let f = &a.format;
        let plane =
            |y: &YuvFrame| Plane::new(f.width, f.height, f.bit_depth, y.planes[0].clone()).unwrap();
        let want = binade::vif::reference::vif(&plane(a), &plane(b), &opts).unwrap();
        for (name, value) in want.published(&opts) {
            let printed = binade::cli::score::printed_name(name);
            let got = metric(&doc, i, printed);
            assert_eq!(
                got.to_bits(),
                value.to_bits(),
                "frame {i} {printed}: {got:?} against {value:?}"
            );
        }
        let s2 = binade::ssimulacra2::frame_sums(a, b).unwrap().score();
        assert_eq!(
            metric(&doc, i, "ssimulacra2").to_bits(),
            s2.to_bits(),
            "frame {i} ssimulacra2"
        );
        vif0.push(metric(&doc, i, "vif_scale0"));
    }
    for (name, want) in pooled(&vif0) {
        let got = doc["pooled_metrics"]["vif_scale0"][name].as_f64().unwrap();
        assert_eq!(got.to_bits(), want.to_bits(), "pooled vif_scale0 {name}");
    }
    assert_eq!(doc["frames"].as_array().unwrap().len(), pairs.len());
    assert!(doc["built_from"].as_str().is_some_and(|c| c.len() >= 40));
}

/// A feature asked for twice is computed once, in the order first asked for; none asked for
/// means both. (Checked on the list itself: the JSON object would hide a duplicate.)
#[test]
fn a_repeated_feature_is_computed_once() {
    use binade::cli::score::{features_of, Feature};
    let (s, v) = (Feature::Ssimulacra2, Feature::FloatVif);
    assert_eq!(features_of(&[s, v, s]), vec![s, v]);
    assert_eq!(features_of(&[v, v]), vec![v]);
    assert_eq!(features_of(&[]), vec![v, s]);
}

#[test]
fn pooling_is_libvmafs() {
    let p = pooled(&[1.0, 3.0, 2.0]);
    assert_eq!(p[0], ("min", 1.0));
    assert_eq!(p[1], ("max", 3.0));
    assert_eq!(p[2], ("mean", 2.0));
    // n / sum(1 / (s + 1)) - 1 = 3 / (1/2 + 1/4 + 1/3) - 1
    let h: f64 = 3.0 / (0.5 + 0.25 + 1.0 / 3.0) - 1.0;
    assert_eq!(p[3].1.to_bits(), h.to_bits());
}

/// Runs with `args`, expects exit 2, one line naming `needle`, and `out` untouched.
fn refused(args: &[&str], needle: &str, out: &Path) {
    fs::write(out, "before").unwrap();
    let mut all = args.to_vec();
    let o_arg = out.display().to_string();
    all.extend(["--output", &o_arg]);
    let o = binade(&all);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(
        err.trim_end().lines().count(),
        1,
        "{args:?}: not one line: {err}"
    );
    assert!(
        err.contains(needle),
        "{args:?}: {err} does not say {needle:?}"
    );
    assert_eq!(
        fs::read_to_string(out).unwrap(),
        "before",
        "{args:?}: the output was touched"
    );
}

#[test]
fn bad_input_gets_one_line_and_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let p = |n: &str| dir.path().join(n).display().to_string();
    let out = dir.path().join("out.json");
    // 16x16 4:2:0 8-bit: 384 bytes a frame.
    fs::write(p("a.yuv"), vec![100u8; 384 * 2]).unwrap();
    fs::write(p("b.yuv"), vec![101u8; 384 * 2]).unwrap();
    fs::write(p("one.yuv"), vec![101u8; 384]).unwrap();
    fs::write(p("cut.yuv"), vec![101u8; 384 + 7]).unwrap();
    let (a, b) = (p("a.yuv"), p("b.yuv"));
    let size = ["--width", "16", "--height", "16"];
    let with = |extra: &[&'static str], files: [&str; 2]| -> Vec<String> {
        let mut v: Vec<String> = files.iter().map(|s| s.to_string()).collect();
        v.extend(size.iter().map(|s| s.to_string()));
        v.extend(extra.iter().map(|s| s.to_string()));
        v
    };
    let run = |v: Vec<String>, needle: &str| {
        let r: Vec<&str> = v.iter().map(String::as_str).collect();
        refused(&r, needle, &out);
    };
    run(
        with(&[], [&a, &p("one.yuv")]),
        "the reference holds 2 frames and the distorted 1",
    );
    run(with(&[], [&a, &p("cut.yuv")]), "not a whole number");
    run(with(&[], [&a, &p("missing.yuv")]), "cannot open");
    run(
        with(&["--vif-option", "vif_kernelscale=9"], [&a, &b]),
        "vif_kernelscale",
    );
    run(
        with(&["--vif-option", "nonsense=1"], [&a, &b]),
        "has no option nonsense",
    );
    run(with(&["--bitdepth", "7"], [&a, &b]), "bit depth 7");
    // A 10-bit file whose first luma sample is 1024.
    let mut ten = vec![0u8; 384 * 2];
    ten[0] = 0x00;
    ten[1] = 0x04;
    fs::write(p("ten.yuv"), &ten).unwrap();
    run(
        with(&["--bitdepth", "10"], [&p("ten.yuv"), &p("ten.yuv")]),
        "above the 10-bit maximum 1023",
    );
    // Frames smaller than the metrics' filters: 4x4 (float_vif's filters; ssimulacra2's 8x8).
    fs::write(p("tiny.yuv"), vec![100u8; 24]).unwrap();
    let tiny = [p("tiny.yuv"), p("tiny.yuv")];
    let small = |feature: &'static str| {
        vec![
            tiny[0].clone(),
            tiny[1].clone(),
            "--width".into(),
            "4".into(),
            "--height".into(),
            "4".into(),
            "--feature".into(),
            feature.into(),
        ]
    };
    run(small("ssimulacra2"), "smaller than 8x8");
    run(small("float_vif"), "smaller than its filter's radius");
}
