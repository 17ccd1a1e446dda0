//! `binade sum` end to end: the built binary on numpy-written .npy files, raw files from the
//! Rust generators, every kind of bad input, option errors and the GPU engine.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use binade::fixtures::project_root;
use binade::format::{same_result, Format, F32, F64};
use binade::plan::PlanKind;
use binade::verify::inputs::InputKind;
use binade::walk::{chunk_count, loop_sum};
use serde_json::Value;

const SEED: u64 = 20261130;

fn binade(args: &[&str]) -> Output {
    Command::new(binade::cli::binary_under_test(env!("CARGO_BIN_EXE_binade")))
        .current_dir(project_root())
        .arg("sum")
        .args(args)
        .output()
        .unwrap()
}

fn npy_dir() -> PathBuf {
    project_root().join("fixtures/npy")
}

fn fixture(name: &str) -> String {
    npy_dir().join(name).display().to_string()
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

/// Whether a GPU command found no usable GPU: exit 3 with one line `binade sum: no GPU: ...`
/// (anything else is left to the caller's checks). Then the test is skipped, which fails
/// with `BINADE_REQUIRE_GPU=1` ([`binade::gpu::require::skip`]); exit 3 is that and only that.
fn found_no_gpu(test: &str, engine: &str, out: &Output) -> bool {
    if out.status.code() != Some(3) {
        return false;
    }
    let err = stderr(out);
    assert_eq!(
        err.lines().count(),
        1,
        "{test}: no-GPU message must be one line: {err:?}"
    );
    assert!(err.starts_with("binade sum: no GPU: "), "{test}: {err:?}");
    binade::gpu::require::skip(
        test,
        &format!("--engine {engine} found no usable GPU ({})", err.trim()),
    );
    true
}

/// The JSON objects printed on stdout, one per line.
fn json_lines(o: &Output) -> Vec<Value> {
    stdout(o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn hex(v: &Value) -> u64 {
    let s = v.as_str().unwrap();
    u64::from_str_radix(s.strip_prefix("0x").unwrap(), 16).unwrap()
}

/// `manifest.csv`: file -> numpy's own sequential loop bits over it.
fn numpy_loop_bits() -> HashMap<String, u64> {
    let text = std::fs::read_to_string(npy_dir().join("manifest.csv")).unwrap();
    let mut out = HashMap::new();
    for line in text.lines().skip(1) {
        let cols: Vec<&str> = line.split(',').collect();
        if let Some(bits) = cols[6].strip_prefix("0x") {
            out.insert(cols[0].to_string(), u64::from_str_radix(bits, 16).unwrap());
        }
    }
    out
}

/// The loop over a .npy file, read here by npyz (not by the binary's reader).
fn npyz_loop_bits(path: &str) -> (u64, bool) {
    let bytes = std::fs::read(path).unwrap();
    let file = npyz::NpyFile::new(&bytes[..]).unwrap();
    let is_f64 = file.dtype().num_bytes() == Some(8);
    if is_f64 {
        let v: Vec<f64> = file.into_vec().unwrap();
        (loop_sum::<F64>(&v).to_bits(), true)
    } else {
        let v: Vec<f32> = file.into_vec().unwrap();
        (loop_sum::<F32>(&v).to_bits() as u64, false)
    }
}

fn same(a: u64, b: u64, is_f64: bool) -> bool {
    if is_f64 {
        same_result::<F64>(a, b)
    } else {
        same_result::<F32>(a, b)
    }
}

fn kind_files() -> Vec<String> {
    let mut files = Vec::new();
    for kind in InputKind::ALL {
        for t in ["f64", "f32"] {
            let name = format!("{kind}-{t}.npy");
            assert!(
                npy_dir().join(&name).is_file(),
                "missing fixture {name}: run fixtures/npy/make.py"
            );
            files.push(fixture(&name));
        }
    }
    files
}

#[test]
fn walk_equals_loop_on_numpy_files_of_every_input_kind() {
    let files = kind_files();
    let numpy = numpy_loop_bits();
    let args = |engine: &str| {
        let mut a = vec!["--format", "json", "--check", "--engine", engine];
        a.extend(files.iter().map(String::as_str));
        binade(&a)
    };
    let walk = args("walk");
    assert_eq!(walk.status.code(), Some(0), "stderr: {}", stderr(&walk));
    let looped = args("loop");
    assert_eq!(looped.status.code(), Some(0), "stderr: {}", stderr(&looped));
    let (walk, looped) = (json_lines(&walk), json_lines(&looped));
    assert_eq!(walk.len(), files.len());
    let mut stepped = 0;
    for ((w, l), path) in walk.iter().zip(&looped).zip(&files) {
        let name = Path::new(path).file_name().unwrap().to_str().unwrap();
        let (want, is_f64) = npyz_loop_bits(path);
        let got = hex(&w["bits"]);
        assert_eq!(w["dtype"], if is_f64 { "f64" } else { "f32" }, "{name}");
        assert!(
            same(got, want, is_f64),
            "{name}: walk {got:#x}, loop {want:#x}"
        );
        assert_eq!(w["check"]["equal"], true, "{name}");
        assert!(same(hex(&w["check"]["loop_bits"]), want, is_f64), "{name}");
        assert!(same(hex(&l["bits"]), want, is_f64), "{name}: --engine loop");
        assert!(
            same(numpy[name], want, is_f64),
            "{name}: numpy's loop {:#x}",
            numpy[name]
        );
        let (terms, chunks) = (w["terms"].as_u64().unwrap(), w["chunks"].as_u64().unwrap());
        assert_eq!(chunks as usize, chunk_count(terms as usize), "{name}");
        assert_eq!(
            l["term_by_term_chunks"], l["chunks"],
            "{name}: the loop takes every chunk term by term"
        );
        stepped += chunks - w["term_by_term_chunks"].as_u64().unwrap();
    }
    assert!(
        stepped > 0,
        "the walk never stepped over a chunk: it is not the engine that ran"
    );
}

#[test]
fn every_plan_gives_the_loop_bits() {
    let files = [
        fixture("uniform-f64.npy"),
        fixture("adversarial-ties-f32.npy"),
        fixture("geometric-f64.npy"),
    ];
    for plan in PlanKind::standard(SEED) {
        let name = plan.name();
        let mut args = vec![
            "--format",
            "json",
            "--check",
            "--engine",
            "walk",
            "--plan",
            name.as_str(),
        ];
        let stale = fixture("log-uniform-f32.npy");
        if plan == PlanKind::Stale {
            args.extend(["--stale-from", stale.as_str()]);
        }
        args.extend(files.iter().map(String::as_str));
        let out = binade(&args);
        assert_eq!(
            out.status.code(),
            Some(0),
            "plan {name} (seed {SEED}): {}",
            stderr(&out)
        );
        for (r, path) in json_lines(&out).iter().zip(&files) {
            assert_eq!(r["plan"], name.as_str());
            let (want, is_f64) = npyz_loop_bits(path);
            assert!(
                same(hex(&r["bits"]), want, is_f64),
                "plan {name} (seed {SEED}) on {path}"
            );
        }
    }
}

/// Writes the terms' little-endian bytes to a temporary raw file.
fn raw_file<T: Copy>(dir: &Path, name: &str, terms: &[T], bytes: impl Fn(T) -> Vec<u8>) -> String {
    let path = dir.join(name);
    std::fs::write(
        &path,
        terms.iter().flat_map(|&x| bytes(x)).collect::<Vec<u8>>(),
    )
    .unwrap();
    path.display().to_string()
}

#[test]
fn raw_files_from_the_rust_generators_match_the_loop() {
    let dir = tempfile::tempdir().unwrap();
    for kind in InputKind::ALL {
        let t64 = kind.generate::<F64>(3000, SEED);
        let t32 = kind.generate::<F32>(3000, SEED);
        let f64_path = raw_file(dir.path(), &format!("{kind}.f64"), &t64, |x: f64| {
            x.to_le_bytes().to_vec()
        });
        let f32_path = raw_file(dir.path(), &format!("{kind}.f32"), &t32, |x: f32| {
            x.to_le_bytes().to_vec()
        });
        for (path, dtype, want, is_f64) in [
            (&f64_path, "f64", loop_sum::<F64>(&t64).to_bits(), true),
            (
                &f32_path,
                "f32",
                loop_sum::<F32>(&t32).to_bits() as u64,
                false,
            ),
        ] {
            let out = binade(&["--format", "json", "--check", "--dtype", dtype, path]);
            assert_eq!(
                out.status.code(),
                Some(0),
                "kind {kind} {dtype} seed {SEED}: {}",
                stderr(&out)
            );
            let r = &json_lines(&out)[0];
            assert_eq!(r["terms"], 3000);
            assert!(
                same(hex(&r["bits"]), want, is_f64),
                "kind {kind} {dtype} seed {SEED}"
            );
        }
    }
}

#[test]
fn nan_infinities_and_negatives_are_valid_terms() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&str, Vec<f64>); 4] = [
        ("neg", vec![1.0, -2.5, -0.25]),
        ("inf", vec![1.0, f64::INFINITY, 3.0]),
        ("nan", vec![1.0, f64::INFINITY, f64::NEG_INFINITY]),
        ("negzero", vec![-0.0, -0.0]),
    ];
    for (name, terms) in cases {
        let path = raw_file(dir.path(), name, &terms, |x: f64| x.to_le_bytes().to_vec());
        let out = binade(&["--format", "json", "--check", "--dtype", "f64", &path]);
        assert_eq!(out.status.code(), Some(0), "{name}: {}", stderr(&out));
        let r = &json_lines(&out)[0];
        let want = loop_sum::<F64>(&terms).to_bits();
        assert!(
            same(hex(&r["bits"]), want, true),
            "{name}: {} vs {want:#x}",
            r["bits"]
        );
        assert_eq!(r["check"]["equal"], true, "{name}");
    }
    let out = binade(&[
        "--format",
        "json",
        "--dtype",
        "f64",
        &dir.path().join("nan").display().to_string(),
    ]);
    assert_eq!(json_lines(&out)[0]["sum"], "NaN");
    assert_eq!(json_lines(&out)[0]["check"], Value::Null);
}

/// Runs `good BAD good` and checks: exit 2, one stderr line naming BAD with `reason`, and
/// both good files still reported (text and JSON).
fn assert_bad(bad: &str, extra: &[&str], reason: &str) {
    let good = fixture("uniform-f64.npy");
    for format in ["text", "json"] {
        let mut args = vec!["--format", format];
        args.extend_from_slice(extra);
        args.extend([good.as_str(), bad, good.as_str()]);
        let out = binade(&args);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{bad}: stderr {err}");
        assert_eq!(err.lines().count(), 1, "{bad}: want one line, got {err:?}");
        let prefix = format!("binade sum: {bad}: ");
        assert!(
            err.starts_with(&prefix),
            "{bad}: {err:?} does not start with {prefix:?}"
        );
        assert!(
            err.contains(reason),
            "{bad}: {err:?} does not say {reason:?}"
        );
        let text = stdout(&out);
        if format == "text" {
            assert_eq!(
                text.matches("\n  sum ").count(),
                2,
                "{bad}: both good files reported:\n{text}"
            );
        } else {
            let lines = json_lines(&out);
            assert_eq!(lines.len(), 3, "{bad}");
            assert!(
                lines[0]["bits"].is_string() && lines[2]["bits"].is_string(),
                "{bad}"
            );
            assert_eq!(lines[1]["file"], bad);
            assert!(
                lines[1]["error"].as_str().unwrap().contains(reason),
                "{bad}"
            );
        }
    }
}

#[test]
fn missing_file() {
    assert_bad(&fixture("no-such-file.npy"), &[], "No such file");
}

#[test]
fn truncated_and_malformed_npy() {
    let dir = tempfile::tempdir().unwrap();
    let bytes = std::fs::read(fixture("uniform-f64.npy")).unwrap();
    let write = |name: &str, b: &[u8]| {
        let p = dir.path().join(name);
        std::fs::write(&p, b).unwrap();
        p.display().to_string()
    };
    assert_bad(
        &write("short-data.npy", &bytes[..bytes.len() - 5]),
        &[],
        "truncated data",
    );
    assert_bad(
        &write("short-header.npy", &bytes[..30]),
        &[],
        "truncated .npy header",
    );
    assert_bad(
        &write("long.npy", &[&bytes[..], &[0u8; 8]].concat()),
        &[],
        "stray bytes",
    );
    let mut broken = bytes.clone();
    broken[10..20].copy_from_slice(b"not a dict");
    assert_bad(
        &write("broken-header.npy", &broken),
        &[],
        "malformed .npy header",
    );
    assert_bad(&write("text.npy", b"1.0 2.0 3.0\n"), &[], "not a .npy file");
}

#[test]
fn unsupported_dtypes_and_fortran_order() {
    assert_bad(&fixture("bad/int32.npy"), &[], "integer");
    assert_bad(&fixture("bad/float16.npy"), &[], "float16");
    assert_bad(&fixture("bad/complex128.npy"), &[], "complex");
    assert_bad(&fixture("bad/fortran-f64.npy"), &[], "Fortran-order");
}

#[test]
fn raw_length_dtype_and_empty_streams() {
    let dir = tempfile::tempdir().unwrap();
    let odd = dir.path().join("odd.f64");
    std::fs::write(&odd, [0u8; 13]).unwrap();
    let odd = odd.display().to_string();
    assert_bad(&odd, &["--dtype", "f64"], "13 bytes is not a multiple of 8");
    assert_bad(&odd, &["--dtype", "f32"], "13 bytes is not a multiple of 4");
    assert_bad(&odd, &[], "--dtype f64 or --dtype f32 is needed");
    let empty = dir.path().join("empty.raw");
    std::fs::write(&empty, []).unwrap();
    assert_bad(
        &empty.display().to_string(),
        &["--dtype", "f32"],
        "empty stream",
    );
    assert_bad(&fixture("bad/empty-f64.npy"), &[], "empty stream");
}

/// Runs an option error and checks exit 2 and a message containing `reason`.
fn assert_option_error(args: &[&str], reason: &str) {
    let out = binade(args);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(
        err.contains(reason),
        "{args:?}: {err:?} does not say {reason:?}"
    );
    assert!(stdout(&out).is_empty(), "{args:?}: nothing may be summed");
}

#[test]
fn option_errors() {
    let f = fixture("uniform-f64.npy");
    assert_option_error(
        &["--engine", "walk", "--plan", "stale", &f],
        "--plan stale needs --stale-from FILE",
    );
    assert_option_error(
        &["--stale-from", &f, &f],
        "--stale-from is only used by --plan stale",
    );
    assert_option_error(
        &[
            "--engine",
            "walk",
            "--plan",
            "stale",
            "--stale-from",
            "nope.npy",
            &f,
        ],
        "nope.npy",
    );
    assert_option_error(&["--plan", "sideways", &f], "unknown plan `sideways`");
    for engine in ["walk", "gpu", "gpu-pipeline"] {
        for order in ["interleaved:4", "rows:1920", "numpy"] {
            if (engine, order) == ("gpu", "numpy") {
                continue; // numpy's order has a device engine
            }
            assert_option_error(
                &["--engine", engine, "--order", order, &f],
                "reproduced by --engine fast and --engine loop",
            );
        }
    }
    assert_option_error(&["--order", "interleaved:3", &f], "K must be 2, 4, 8 or 16");
    assert_option_error(
        &["--order", "backwards", &f],
        "unknown CPU order `backwards`",
    );
    assert_option_error(&["--engine", "fpga", &f], "fpga");
}

#[test]
fn text_output_names_every_field() {
    let f = fixture("ssim-like-f32.npy");
    let out = binade(&["--check", "--engine", "walk", "--plan", "fixed:10", &f]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    let (want, _) = npyz_loop_bits(&f);
    let want_line = format!("  sum     {:?} (0x{want:08x})", f32::from_bits(want as u32));
    assert!(
        text.starts_with(&format!("{f}\n  terms   4099 f32 in 5 chunks\n")),
        "{text}"
    );
    assert!(text.contains(&want_line), "{text}\nwant {want_line}");
    assert!(
        text.contains("  engine  walk (plan fixed:10, order sequential): "),
        "{text}"
    );
    assert!(text.contains("  check   equal to the loop\n"), "{text}");
}

#[test]
fn gpu_engine_matches_the_loop_or_reports_no_gpu() {
    // Two files in one call: the first is read while the device opens (its read and wait
    // phases reported), the second after; a third of 9,000,000 terms fills the staged
    // upload's two buffers (4 Mi terms each) and reuses the first.
    let dir = tempfile::tempdir().unwrap();
    let long: Vec<f64> = (0..9_000_000u64)
        .map(|i| ((i.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 11) as f64) * 2f64.powi(-53))
        .collect();
    let long_path = raw_file(dir.path(), "long.f64", &long, |x: f64| {
        x.to_le_bytes().to_vec()
    });
    // The device's adds return a NaN of their own; the command gives the loop's NaN (a
    // payload kept, the host's default NaN of inf - inf) by summing a NaN total again on the
    // host, and says so.
    let payload: Vec<f64> = vec![
        1.5,
        f64::from_bits(0x7ff8_0000_0000_0123),
        2.0,
        f64::from_bits(0xfff8_0000_0000_0456),
    ];
    let payload_path = raw_file(dir.path(), "payload.f64", &payload, |x: f64| {
        x.to_le_bytes().to_vec()
    });
    let opposite: Vec<f64> = (0..20_000u64)
        .map(|i| {
            if i == 9_000 {
                f64::INFINITY
            } else if i == 15_000 {
                f64::NEG_INFINITY
            } else {
                i as f64
            }
        })
        .collect();
    let opposite_path = raw_file(dir.path(), "opposite.f64", &opposite, |x: f64| {
        x.to_le_bytes().to_vec()
    });
    let files = [
        fixture("adversarial-ties-f64.npy"),
        fixture("uniform-f64.npy"),
        long_path.clone(),
        payload_path.clone(),
        opposite_path.clone(),
    ];
    // (engine, its exact engine, --upload given or None, the upload that must run)
    for (engine, exact, given, upload) in [
        ("gpu", "walked", Some("plain"), "plain"),
        ("gpu", "walked", Some("staged"), "staged"),
        ("gpu", "walked", None, "staged"),
        ("gpu-onepass", "one-pass", Some("plain"), "plain"),
        ("gpu-onepass", "one-pass", None, "staged"),
    ] {
        let mut a = vec![
            "--engine", engine, "--check", "--format", "json", "--dtype", "f64",
        ];
        if let Some(u) = given {
            a.extend(["--upload", u]);
        }
        a.extend(files.iter().map(String::as_str));
        let out = binade(&a);
        let err = stderr(&out);
        // Exit 3 is "no usable GPU" and only that; a kernel that does not compile is exit 4
        // and fails here like any other error.
        if found_no_gpu(
            "gpu_engine_matches_the_loop_or_reports_no_gpu",
            engine,
            &out,
        ) {
            return;
        }
        assert_eq!(out.status.code(), Some(0), "{engine}: {err}");
        let lines = json_lines(&out);
        assert_eq!(lines.len(), files.len(), "{engine}");
        for (k, r) in lines.iter().enumerate() {
            let want = if files[k] == long_path {
                loop_sum::<F64>(&long).to_bits()
            } else if files[k] == payload_path {
                loop_sum::<F64>(&payload).to_bits()
            } else if files[k] == opposite_path {
                loop_sum::<F64>(&opposite).to_bits()
            } else {
                npyz_loop_bits(&files[k]).0
            };
            let nan = f64::from_bits(want).is_nan();
            assert_eq!(r["device"]["nan_host_ms"].is_f64(), nan, "{r}");
            assert_eq!(r["engine"], engine);
            assert_eq!(hex(&r["bits"]), want, "{engine} sum of {}", files[k]);
            assert_eq!(r["check"]["equal"], true);
            // The exact engine named ran: its tiles and phases are reported.
            assert_eq!(r["device"]["exact_engine"], exact, "{r}");
            assert_eq!(r["device"]["upload"], upload, "{r}");
            assert!(r["device"]["tiles"].as_u64().unwrap_or(0) >= 1, "{r}");
            for phase in ["kernel_ms", "upload_ms", "staging_ms", "open_ms"] {
                assert!(r["device"][phase].as_f64().is_some(), "{phase}: {r}");
            }
            let wait = r["phases_ms"]["wait"].as_f64().unwrap();
            assert!(wait >= 0.0 && (k == 0 || wait == 0.0), "{r}");
        }
    }
}

#[test]
fn staged_upload_is_refused_off_the_exact_gpu_engines() {
    let f = fixture("uniform-f64.npy");
    for engine in ["fast", "loop", "walk", "gpu-pipeline"] {
        for upload in ["staged", "plain"] {
            let out = binade(&["--engine", engine, "--upload", upload, &f]);
            assert_eq!(
                out.status.code(),
                Some(2),
                "{engine} {upload}: {}",
                stderr(&out)
            );
            let err = stderr(&out);
            assert!(
                err.contains(&format!("--upload {upload} is taken by --engine gpu")),
                "{err}"
            );
            assert_eq!(err.lines().count(), 1, "{err}");
        }
    }
}

#[test]
fn f32_files_are_summed_in_f32() {
    // Terms where the f32 loop and the f64 loop rounded to f32 differ.
    let terms = [1.0f32, 2f32.powi(-24), 2f32.powi(-24)];
    let in_f32 = loop_sum::<F32>(&terms);
    let in_f64 = loop_sum::<F64>(&terms.map(f64::from)) as f32;
    assert_ne!(
        in_f32.to_bits(),
        in_f64.to_bits(),
        "the witness must tell the two apart"
    );
    let dir = tempfile::tempdir().unwrap();
    let path = raw_file(dir.path(), "t.f32", &terms, |x: f32| {
        x.to_le_bytes().to_vec()
    });
    let out = binade(&["--format", "json", "--dtype", "f32", &path]);
    assert_eq!(hex(&json_lines(&out)[0]["bits"]), F32::to_bits(in_f32));
}

#[test]
fn fast_engine_is_the_default_and_equals_the_loop_on_every_fixture() {
    let files = kind_files();
    let mut a = vec!["--format", "json", "--check"];
    a.extend(files.iter().map(String::as_str));
    let out = binade(&a);
    assert_eq!(out.status.code(), Some(0), "stderr: {}", stderr(&out));
    let lines = json_lines(&out);
    assert_eq!(lines.len(), files.len());
    let mut applied = 0;
    for (r, path) in lines.iter().zip(&files) {
        let (want, _) = npyz_loop_bits(path);
        assert_eq!(r["engine"], "fast", "{path}");
        assert_eq!(
            hex(&r["bits"]),
            want,
            "{path}: fast engine against the loop"
        );
        assert_eq!(r["check"]["equal"], true, "{path}");
        // numpy writes data at an aligned offset: little-endian files are read in place,
        // the big-endian ones decoded.
        let header = std::fs::read(path).unwrap();
        let big = header.windows(3).take(120).any(|w| w == b"'>f");
        assert_eq!(r["mapped"], !big, "{path}");
        for phase in ["read", "sum", "check"] {
            assert!(
                r["phases_ms"][phase].as_f64().is_some_and(|t| t >= 0.0),
                "{path}: {r}"
            );
        }
        applied += r["chunks"].as_u64().unwrap() - r["term_by_term_chunks"].as_u64().unwrap();
    }
    assert!(
        applied > 0,
        "the fast engine never applied a unit: it is not the engine that ran"
    );
}

#[test]
fn a_plan_for_an_engine_that_follows_none_is_refused() {
    let f = fixture("uniform-f64.npy");
    for engine in ["fast", "loop", "gpu"] {
        let out = binade(&["--engine", engine, "--plan", "fixed:3", &f]);
        assert_eq!(out.status.code(), Some(2), "stderr: {}", stderr(&out));
        let err = stderr(&out);
        assert!(err.contains("--plan is followed by --engine walk"), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
}

#[test]
fn gpu_pipeline_engine_follows_a_plan_and_matches_the_loop() {
    let f = fixture("adversarial-ties-f64.npy");
    let out = binade(&[
        "--engine",
        "gpu-pipeline",
        "--plan",
        "one-too-high",
        "--check",
        "--format",
        "json",
        &f,
    ]);
    if found_no_gpu(
        "gpu_pipeline_engine_follows_a_plan_and_matches_the_loop",
        "gpu-pipeline",
        &out,
    ) {
        return;
    }
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let r = &json_lines(&out)[0];
    let (want, _) = npyz_loop_bits(&f);
    assert_eq!(r["engine"], "gpu-pipeline");
    assert_eq!(r["plan"], "one-too-high");
    assert_eq!(hex(&r["bits"]), want, "gpu-pipeline sum of {f}");
    assert!(r["device"].is_null(), "{r}");
}

/// Every CPU order through the command, by the fast engine and by the loop: the bits of the
/// library's loop for that order over the file's terms, `--check` equal, and the chunk counts
/// of the order's sequential pieces.
#[test]
fn orders_through_the_command() {
    use binade::order::{loop_sum_in, CpuOrder};
    for name in ["uniform-f64.npy", "negatives-f64.npy", "ssim-like-f32.npy"] {
        let f = fixture(name);
        let terms = binade::cli::sum::read_npy(&std::fs::read(&f).unwrap()).unwrap();
        for order in [
            "interleaved:2",
            "interleaved:16",
            "rows:7",
            "rows:1920",
            "numpy",
        ] {
            let o: CpuOrder = order.parse().unwrap();
            let want = match &terms {
                binade::cli::sum::Terms::F64(t) => F64::to_bits(loop_sum_in::<F64>(t, o)),
                binade::cli::sum::Terms::F32(t) => F32::to_bits(loop_sum_in::<F32>(t, o)),
            };
            for engine in ["fast", "loop"] {
                let out = binade(&[
                    "--engine", engine, "--order", order, "--check", "--format", "json", &f,
                ]);
                assert_eq!(
                    out.status.code(),
                    Some(0),
                    "{name} {order} {engine}: {}",
                    stderr(&out)
                );
                let j = &json_lines(&out)[0];
                assert_eq!(j["order"], order, "{name} {order} {engine}");
                assert_eq!(hex(&j["bits"]), want, "{name} {order} {engine}: {j}");
                assert_eq!(j["check"]["equal"], true, "{name} {order} {engine}: {j}");
                let (chunks, native) = (
                    j["chunks"].as_u64().unwrap(),
                    j["term_by_term_chunks"].as_u64().unwrap(),
                );
                assert!(native <= chunks, "{name} {order} {engine}: {j}");
                if engine == "loop" || order == "numpy" {
                    assert_eq!(
                        native, chunks,
                        "{name} {order} {engine}: every chunk term by term"
                    );
                }
            }
        }
    }
}

/// `--engine gpu --order numpy`: `np.sum`'s order on the device, f64 and f32 files, the bits
/// of the library's loop for that order, `--check` equal, the device's phases reported (or
/// the one-line no-GPU exit where there is none).
#[test]
fn gpu_numpy_order_through_the_command() {
    use binade::order::{loop_sum_in, CpuOrder};
    for name in ["uniform-f64.npy", "negatives-f64.npy", "ssim-like-f32.npy"] {
        let f = fixture(name);
        let out = binade(&[
            "--engine", "gpu", "--order", "numpy", "--check", "--format", "json", &f,
        ]);
        if found_no_gpu("gpu_numpy_order_through_the_command", "gpu", &out) {
            return;
        }
        assert_eq!(out.status.code(), Some(0), "{name}: {}", stderr(&out));
        let terms = binade::cli::sum::read_npy(&std::fs::read(&f).unwrap()).unwrap();
        let want = match &terms {
            binade::cli::sum::Terms::F64(t) => F64::to_bits(loop_sum_in::<F64>(t, CpuOrder::Numpy)),
            binade::cli::sum::Terms::F32(t) => F32::to_bits(loop_sum_in::<F32>(t, CpuOrder::Numpy)),
        };
        let j = &json_lines(&out)[0];
        assert_eq!(
            (j["engine"].as_str(), j["order"].as_str()),
            (Some("gpu"), Some("numpy")),
            "{j}"
        );
        assert_eq!(hex(&j["bits"]), want, "{name}: {j}");
        assert_eq!(j["check"]["equal"], true, "{name}: {j}");
        assert!(j["device"]["kernel_ms"].as_f64().is_some(), "{j}");
    }
}

/// `--start`: a file of -0.0 terms sums to +0 from +0 and to -0 from -0 and from its first
/// term, by every CPU engine, `--check` against the loop written out from that start; an
/// ordinary file is the same from every start; a start with another order is refused.
#[test]
fn starts_through_the_command() {
    let dir = tempfile::tempdir().unwrap();
    let zeros = raw_file(dir.path(), "zeros.f64", &[-0.0f64; 2500], |x: f64| {
        x.to_le_bytes().to_vec()
    });
    for engine in ["fast", "loop", "walk"] {
        for (start, bits) in [("+0", 0u64), ("-0", 1 << 63), ("first", 1 << 63)] {
            let out = binade(&[
                "--engine", engine, "--start", start, "--check", "--format", "json", "--dtype",
                "f64", &zeros,
            ]);
            assert_eq!(
                out.status.code(),
                Some(0),
                "{engine} {start}: {}",
                stderr(&out)
            );
            let j = &json_lines(&out)[0];
            assert_eq!(hex(&j["bits"]), bits, "{engine} {start}: {j}");
            assert_eq!(j["start"], start, "{engine} {start}");
            assert_eq!(j["check"]["equal"], true, "{engine} {start}: {j}");
        }
    }
    let f = fixture("uniform-f64.npy");
    let from = |start: &str| {
        let out = binade(&["--start", start, "--format", "json", &f]);
        hex(&json_lines(&out)[0]["bits"])
    };
    assert_eq!(from("-0"), from("+0"));
    assert_eq!(from("first"), from("+0"));
    assert_option_error(
        &["--order", "numpy", "--start", "first", &f],
        "applies to --order sequential",
    );
    assert_option_error(&["--start", "second", &f], "unknown start `second`");
}

/// `--engine gpu` sums f32 files in f32 (the walked engine's f32 build) with the f32 loop's
/// bits: a file where the f32 and the f64 loops differ, a long one that stops moving at 2^25,
/// one whose terms tie at the sum's quantum, and one with a NaN payload (summed again on the
/// host). Without a usable GPU: exit 3 and one line, reported as skipped.
#[test]
fn gpu_engine_sums_f32_files_in_f32() {
    let dir = tempfile::tempdir().unwrap();
    let witness = vec![1.0f32, 2f32.powi(-24), 2f32.powi(-24)];
    let mut stopped: Vec<f32> = (0..3_000_000u32)
        .map(|i| 0.5 + (i % 251) as f32 / 512.0)
        .collect();
    stopped[0] = 33_554_432.0;
    let mut ties = vec![2.0f32; 200_000];
    ties[0] = 33_554_436.0;
    let uniform: Vec<f32> = (0..5_000_003u64)
        .map(|i| ((i.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 40) as f32) * 2f32.powi(-24))
        .collect();
    let payload = vec![1.5f32, f32::from_bits(0x7fc0_0123), 2.0];
    let cases = [
        ("witness", witness),
        ("stopped", stopped),
        ("ties", ties),
        ("uniform", uniform),
        ("payload", payload),
    ];
    let paths: Vec<String> = cases
        .iter()
        .map(|(name, terms)| raw_file(dir.path(), name, terms, |x: f32| x.to_le_bytes().to_vec()))
        .collect();
    let mut a = vec!["--engine", "gpu", "--format", "json", "--dtype", "f32"];
    a.extend(paths.iter().map(String::as_str));
    let out = binade(&a);
    let err = stderr(&out);
    if found_no_gpu("gpu_engine_sums_f32_files_in_f32", "gpu", &out) {
        return;
    }
    assert_eq!(out.status.code(), Some(0), "{err}");
    let lines = json_lines(&out);
    assert_eq!(lines.len(), cases.len());
    for ((name, terms), r) in cases.iter().zip(&lines) {
        let want = F32::to_bits(loop_sum::<F32>(terms));
        assert_eq!(hex(&r["bits"]), want, "{name}: {r}");
        assert_eq!(r["device"]["exact_engine"], "walked", "{name}: {r}");
        let nan = f32::from_bits(want as u32).is_nan();
        assert_eq!(r["device"]["nan_host_ms"].is_f64(), nan, "{name}: {r}");
    }
}
