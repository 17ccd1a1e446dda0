//! `binade score --engine gpu` end to end: the built binary on raw YUV files written from the
//! fixtures, every output of the device engine against the CPU engine's by bits, and every
//! committed libvmaf SSIMULACRA2 score (`fixtures/libvmaf/ssimulacra2-scores.csv`, printed by
//! libvmaf's own `vmaf` tool) whose input is available, through the device engine.
//!
//! Without a usable GPU the command must exit 3 with one line and write nothing; the tests
//! check that and then skip, which fails under `BINADE_REQUIRE_GPU=1`.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;
use std::process::{Command, Output};

use binade::fixtures::libvmaf::{manifest_path, read_scores, ScoreRow, SCORES_CSV};
use binade::fixtures::{self, encode_frame, project_root, Dirs, Fixture, NotAvailable};
use binade::gpu::require::skip;
use binade::ssimulacra2::yuv::YuvFrame;
use serde_json::Value;

fn binade(args: &[String]) -> Output {
    Command::new(binade::cli::binary_under_test(env!("CARGO_BIN_EXE_binade")))
        .current_dir(project_root())
        .arg("score")
        .args(args)
        .output()
        .unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Writes the reference and distorted frames of `pairs` as two raw files in `dir`.
fn write_pairs(dir: &Path, pairs: &[(YuvFrame, YuvFrame)]) -> [String; 2] {
    let mut files = [Vec::new(), Vec::new()];
    for (a, b) in pairs {
        encode_frame(a, &mut files[0]);
        encode_frame(b, &mut files[1]);
    }
    let names = [dir.join("ref.yuv"), dir.join("dist.yuv")];
    for (name, bytes) in names.iter().zip(&files) {
        fs::write(name, bytes).unwrap();
    }
    names.map(|n| n.display().to_string())
}

/// The command's arguments for a fixture's files, with the matrix, range and engine given.
fn args_for(
    files: &[String; 2],
    f: &YuvFrame,
    matrix: &str,
    range: &str,
    engine: &str,
) -> Vec<String> {
    let mut a: Vec<String> = files.to_vec();
    for (k, v) in [
        ("--width", f.format.width.to_string()),
        ("--height", f.format.height.to_string()),
        ("--pixel-format", f.format.chroma.name().to_string()),
        ("--bitdepth", f.format.bit_depth.to_string()),
        ("--matrix", matrix.to_string()),
        ("--range", range.to_string()),
        ("--engine", engine.to_string()),
    ] {
        a.push(k.into());
        a.push(v);
    }
    a
}

/// What one run gave: its JSON, the bad-input line, or the no-GPU line.
enum Ran {
    Json(Value),
    Refused(String),
    NoGpu(String),
}

/// Asserts that a refusing run printed one line starting with `prefix` and left `out` as it
/// was.
fn one_line_and_nothing_written(a: &[String], err: &str, prefix: &str, out: &Path) {
    assert_eq!(
        err.lines().count(),
        1,
        "{a:?}: must print one line: {err:?}"
    );
    assert!(err.starts_with(prefix), "{a:?}: {err:?}");
    assert_eq!(
        fs::read_to_string(out).unwrap(),
        "before",
        "{a:?} wrote its output"
    );
}

/// Runs the command; exit 0 gives the JSON, exit 2 (bad input) and exit 3 (no GPU) their one
/// line (checked to be one line and to have written nothing); anything else fails the test.
fn run(args: &[String], out: &Path) -> Ran {
    fs::write(out, "before").unwrap();
    let mut a = args.to_vec();
    a.push("--output".into());
    a.push(out.display().to_string());
    let o = binade(&a);
    let err = stderr(&o);
    match o.status.code() {
        Some(0) => Ran::Json(serde_json::from_str(&fs::read_to_string(out).unwrap()).unwrap()),
        Some(2) => {
            one_line_and_nothing_written(&a, &err, "binade score: ", out);
            Ran::Refused(err.trim().to_string())
        }
        Some(3) => {
            one_line_and_nothing_written(&a, &err, "binade score: no GPU: ", out);
            Ran::NoGpu(err.trim().to_string())
        }
        c => panic!("binade score {a:?}: exit {c:?}: {err}"),
    }
}

/// Every number of `doc`'s frames and pooled metrics, by path, as bits.
fn numbers(doc: &Value) -> BTreeMap<String, u64> {
    fn walk(v: &Value, path: String, out: &mut BTreeMap<String, u64>) {
        match v {
            Value::Number(n) => {
                out.insert(path, n.as_f64().unwrap().to_bits());
            }
            Value::Array(a) => a
                .iter()
                .enumerate()
                .for_each(|(i, x)| walk(x, format!("{path}[{i}]"), out)),
            Value::Object(m) => m
                .iter()
                .for_each(|(k, x)| walk(x, format!("{path}.{k}"), out)),
            _ => {}
        }
    }
    let mut out = BTreeMap::new();
    walk(&doc["frames"], "frames".into(), &mut out);
    walk(&doc["pooled_metrics"], "pooled_metrics".into(), &mut out);
    out
}

/// The fixtures of `fixtures/libvmaf/` (synthetic, every format libvmaf takes) and the
/// project's own small ones, loaded.
fn inputs() -> Vec<(String, Fixture)> {
    let root = project_root();
    let dirs = Dirs::under(&root);
    let mut names: Vec<String> = fs::read_dir(root.join("fixtures/libvmaf"))
        .unwrap()
        .filter_map(|e| {
            let p = e.unwrap().path();
            let stem = p.file_stem()?.to_str()?.to_string();
            (p.extension()? == "toml").then(|| format!("libvmaf/{stem}"))
        })
        .collect();
    names.sort();
    names.extend(
        [
            "random-64x48-422-10bit",
            "random-65x47-444-12bit",
            "random-33x31",
            "checker-10px",
        ]
        .map(String::from),
    );
    names
        .into_iter()
        .map(|n| {
            let f = fixtures::load(&manifest_path(&root, &n), &dirs)
                .unwrap_or_else(|e| panic!("{n}: {e:#}"));
            (n, f)
        })
        .collect()
}

/// What both engines gave for one input and one set of features.
enum Both {
    /// Both scored it: the CPU engine's document, then the device engine's.
    Scored(Value, Value),
    /// Both refused it with this same line.
    Refused(String),
    /// The device engine found no GPU.
    NoGpu(String),
}

/// Runs both engines on `files` with `extra` arguments. A refusal by one engine must be a
/// refusal by the other, with the same line.
fn both_engines(name: &str, files: &[String; 2], f: &YuvFrame, extra: &[&str], out: &Path) -> Both {
    let mut ran = Vec::new();
    for engine in ["cpu", "gpu"] {
        let mut a = args_for(files, f, "bt709", "limited", engine);
        a.extend(extra.iter().map(|s| s.to_string()));
        ran.push(run(&a, out));
    }
    match (ran.remove(0), ran.remove(0)) {
        (Ran::NoGpu(why), _) => panic!("{name}: the CPU engine asked for a GPU: {why}"),
        (_, Ran::NoGpu(why)) => Both::NoGpu(why),
        (Ran::Json(cpu), Ran::Json(gpu)) => Both::Scored(cpu, gpu),
        (Ran::Refused(cpu), Ran::Refused(gpu)) => {
            assert_eq!(
                gpu, cpu,
                "{name} {extra:?}: the engines refused differently"
            );
            Both::Refused(cpu)
        }
        (Ran::Refused(cpu), Ran::Json(_)) => {
            panic!("{name} {extra:?}: the CPU engine refused ({cpu}) and the GPU engine scored")
        }
        (Ran::Json(_), Ran::Refused(gpu)) => {
            panic!("{name} {extra:?}: the GPU engine refused ({gpu}) and the CPU engine scored")
        }
    }
}

/// Asserts that every number of the two documents has the same bits; returns how many.
fn same_bits(name: &str, cpu: &Value, gpu: &Value) -> usize {
    assert_eq!(gpu["engine"], "gpu", "{name}");
    assert!(
        gpu["device"].as_str().is_some_and(|d| !d.is_empty()),
        "{name}: {gpu}"
    );
    let (want, got) = (numbers(cpu), numbers(gpu));
    assert_eq!(
        want.keys().collect::<Vec<_>>(),
        got.keys().collect::<Vec<_>>(),
        "{name}: the engines published different outputs"
    );
    for (path, w) in &want {
        let g = got[path];
        assert_eq!(
            g,
            *w,
            "{name}: {path}: gpu {} against cpu {}",
            f64::from_bits(g),
            f64::from_bits(*w)
        );
    }
    want.len()
}

/// Every output of every frame (float_vif in debug mode: all fifteen; ssimulacra2) and every
/// pooled value: the device engine's bits are the CPU engine's. An input too small for
/// float_vif must be refused by both engines with the same line, and its SSIMULACRA2 alone
/// must then agree by bits.
#[test]
fn the_gpu_engine_gives_the_cpu_engines_bits() {
    const TEST: &str = "the_gpu_engine_gives_the_cpu_engines_bits";
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.json");
    let (mut inputs_checked, mut values, mut refused) = (0, 0, Vec::new());
    for (name, f) in inputs() {
        let files = write_pairs(dir.path(), &f.pairs);
        let frame = &f.pairs[0].0;
        let mut both = both_engines(&name, &files, frame, &["--vif-option", "debug=true"], &out);
        if let Both::Refused(line) = both {
            refused.push(format!("{name}: {line}"));
            both = both_engines(&name, &files, frame, &["--feature", "ssimulacra2"], &out);
        }
        match both {
            Both::Scored(cpu, gpu) => values += same_bits(&name, &cpu, &gpu),
            Both::Refused(line) => panic!("{name}: both engines refused SSIMULACRA2 alone: {line}"),
            Both::NoGpu(why) => {
                skip(TEST, &format!("--engine gpu found no usable GPU ({why})"));
                return;
            }
        }
        inputs_checked += 1;
    }
    eprintln!(
        "{inputs_checked} inputs, {values} values equal in bits on both engines; float_vif refused alike by both on {}: {refused:?}",
        refused.len()
    );
    assert!(inputs_checked >= 12 && values > 0);
    assert!(refused.len() < inputs_checked, "every input was refused");
}

/// Every committed libvmaf SSIMULACRA2 score whose input is available (photographs need
/// `just fixtures`) comes back from `--engine gpu` with libvmaf's bits.
#[test]
fn the_gpu_engine_gives_libvmafs_ssimulacra2_bits() {
    const TEST: &str = "the_gpu_engine_gives_libvmafs_ssimulacra2_bits";
    let root = project_root();
    let rows = read_scores(&root.join(SCORES_CSV)).unwrap();
    let dirs = Dirs::under(&root);
    let mut by_input: BTreeMap<String, Vec<&ScoreRow>> = BTreeMap::new();
    for row in &rows {
        by_input.entry(row.input.clone()).or_default().push(row);
    }
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.json");
    let (mut checked, mut unavailable) = (0, 0);
    for (input, rows) in &by_input {
        let f = match fixtures::load(&manifest_path(&root, input), &dirs) {
            Ok(f) => f,
            Err(e) if e.downcast_ref::<NotAvailable>().is_some() => {
                unavailable += rows.len();
                continue;
            }
            Err(e) => panic!("{input}: {e:#}"),
        };
        let files = write_pairs(dir.path(), &f.pairs);
        let mut options: Vec<(&str, &str)> = rows
            .iter()
            .map(|r| (r.matrix.name(), r.range.name()))
            .collect();
        options.dedup();
        for (matrix, range) in options {
            let mut a = args_for(&files, &f.pairs[0].0, matrix, range, "gpu");
            a.extend(["--feature".into(), "ssimulacra2".into()]);
            let doc = match run(&a, &out) {
                Ran::Json(doc) => doc,
                Ran::Refused(line) => panic!("{input} ({matrix} {range}): refused: {line}"),
                Ran::NoGpu(why) => {
                    skip(TEST, &format!("--engine gpu found no usable GPU ({why})"));
                    return;
                }
            };
            for row in rows
                .iter()
                .filter(|r| r.matrix.name() == matrix && r.range.name() == range)
            {
                let got = doc["frames"][row.frame]["metrics"]["ssimulacra2"]
                    .as_f64()
                    .unwrap_or_else(|| panic!("{input} frame {}: no score: {doc}", row.frame));
                assert_eq!(
                    got.to_bits(),
                    row.score.to_bits(),
                    "{SCORES_CSV}: line {} ({input}, frame {}, {matrix} {range}): --engine gpu gave {got:?}, libvmaf printed {}",
                    row.line,
                    row.frame,
                    row.text
                );
                checked += 1;
            }
        }
    }
    eprintln!("{checked} libvmaf scores equal through --engine gpu, {unavailable} of photographs not available");
    assert!(checked > 0, "no libvmaf score checked");
    assert_eq!(
        checked + unavailable,
        rows.len(),
        "rows neither checked nor unavailable"
    );
}
