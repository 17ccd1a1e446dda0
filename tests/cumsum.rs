//! Ordered prefix sums (`binade::cumsum`): numpy's own `np.cumsum` outputs reproduced bit for
//! bit at every position (numpy-written fixtures), the exact engine against the loop for any
//! input, start, thread count and shape (proptest), the engine's mutants killed, and
//! `binade cumsum` end to end (round trip, bad inputs, an old OUT kept on failure).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use binade::cumsum::{cumsum_with, first_difference, loop_cumsum_into, Fault, Start};
use binade::fast::{FastTerm, Shape, CHUNK, MAX_CHUNK};
use binade::fixtures::project_root;
use binade::format::{Format, F32, F64};
use binade::verify::cumsum_mutants::kill_rows;
use binade::verify::inputs::InputKind;
use proptest::prelude::*;

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a rayon pool")
}

fn cumsum_dir() -> PathBuf {
    project_root().join("fixtures/npy/cumsum")
}

fn read_npy<T: npyz::Deserialize>(path: &Path) -> Vec<T> {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    npyz::NpyFile::new(&bytes[..])
        .and_then(|f| f.into_vec())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The shapes the fixtures run in: the default, and small ones whose block boundaries fall
/// inside the fixtures (one term a chunk included).
const SHAPES: [Shape; 4] = [
    Shape::DEFAULT,
    Shape {
        chunk: CHUNK,
        block_chunks: 1,
    },
    Shape {
        chunk: 64,
        block_chunks: 3,
    },
    Shape {
        chunk: 1,
        block_chunks: 1,
    },
];

/// Every engine entry on one numpy fixture: the first failure, described.
fn check_fixture<T: FastTerm + npyz::Deserialize>(
    input: &Path,
    output: &Path,
) -> Result<usize, String> {
    let terms: Vec<T> = read_npy(input);
    let numpy: Vec<T> = read_npy(output);
    let name = input.display();
    if numpy.len() != terms.len() {
        return Err(format!(
            "{name}: numpy wrote {} outputs for {} terms",
            numpy.len(),
            terms.len()
        ));
    }
    let zero = <T::F as Format>::from_bits(0);
    let mut out = vec![zero; terms.len()];
    loop_cumsum_into(&terms, Start::FirstTerm, &mut out);
    if let Some(i) = first_difference(&out, &numpy) {
        return Err(format!(
            "{name}: the first-term loop differs from np.cumsum at index {i}: {:?} vs {:?}",
            out[i], numpy[i]
        ));
    }
    let mut checked = 0;
    for threads in [1, 2, 4] {
        for shape in SHAPES {
            let mut got = vec![zero; terms.len()];
            pool(threads)
                .install(|| cumsum_with(&terms, Start::FirstTerm, &mut got, shape, Fault::None));
            if let Some(i) = first_difference(&got, &numpy) {
                return Err(format!(
                    "{name}: {threads} threads, {shape:?}: index {i}: {:?} vs numpy {:?}",
                    got[i], numpy[i]
                ));
            }
            checked += 1;
        }
        let got = pool(threads).install(|| {
            let mut o = vec![zero; terms.len()];
            binade::ordered_cumsum_into(&terms, Start::FirstTerm, &mut o);
            o
        });
        if let Some(i) = first_difference(&got, &numpy) {
            return Err(format!(
                "{name}: ordered_cumsum_into on {threads} threads: index {i}"
            ));
        }
    }
    // -0.0 as the start agrees with numpy from the second output on, and at the first
    // except where the first term is a signalling NaN (which the add quiets).
    let mut neg = vec![zero; terms.len()];
    loop_cumsum_into(&terms, Start::NegativeZero, &mut neg);
    if let Some(i) = first_difference(&neg, &numpy) {
        let b = <T::F as Format>::to_bits(terms[0]);
        let exp = ((1u64 << <T::F as Format>::EXP_BITS) - 1) << <T::F as Format>::FRAC_BITS;
        let quiet = 1u64 << (<T::F as Format>::FRAC_BITS - 1);
        let snan = b & exp == exp && b & quiet == 0 && b & (quiet - 1) != 0;
        let quieted = <T::F as Format>::to_bits(neg[0]) == b | quiet;
        if !(i == 0 && snan && quieted && first_difference(&neg[1..], &numpy[1..]).is_none()) {
            return Err(format!(
                "{name}: the -0.0 start differs from np.cumsum at index {i}"
            ));
        }
    }
    Ok(checked)
}

#[test]
fn every_numpy_fixture_is_reproduced_at_every_position() {
    let manifest = std::fs::read_to_string(cumsum_dir().join("manifest.csv")).expect(
        "fixtures/npy/cumsum/manifest.csv: run `python3 fixtures/npy/make.py --cumsum-only`",
    );
    let mut cases = 0;
    let mut kinds = std::collections::BTreeSet::new();
    for line in manifest.lines().skip(1) {
        let cols: Vec<&str> = line.split(',').collect();
        assert!(cols.len() >= 5, "manifest line {line}");
        let (input, output) = (cumsum_dir().join(cols[0]), cumsum_dir().join(cols[1]));
        let r = match cols[3] {
            "f64" => check_fixture::<f64>(&input, &output),
            "f32" => check_fixture::<f32>(&input, &output),
            other => panic!("manifest line {line}: dtype {other}"),
        };
        r.unwrap_or_else(|e| panic!("{e}"));
        cases += 1;
        kinds.insert(cols[2].to_string());
    }
    // An empty or shrunken list would check nothing: the fixtures are every kind, both types.
    assert!(cases >= 38, "only {cases} fixtures in the manifest");
    for k in [
        "ties",
        "negzero-first",
        "nan-inf",
        "snan-first",
        "subnormal",
        "overflow",
        "cancellation",
        "signed",
        "length",
    ] {
        assert!(kinds.contains(k), "no fixture of kind {k}");
    }
}

/// Terms that make the starts differ, put first by the proptest.
fn first_terms() -> [f64; 8] {
    [
        -0.0,
        0.0,
        f64::from_bits(0x7ff0_0000_0000_0001), // signalling NaN
        f64::from_bits(0x7ff8_0000_0000_0123), // quiet NaN with a payload
        f64::INFINITY,
        f64::NEG_INFINITY,
        5e-324,
        1e300,
    ]
}

fn check_case<T: FastTerm>(
    terms: &[T],
    threads: usize,
    shape: Shape,
    case: &str,
) -> Result<(), String> {
    let zero = <T::F as Format>::from_bits(0);
    for start in Start::ALL {
        let mut want = vec![zero; terms.len()];
        loop_cumsum_into(terms, start, &mut want);
        let mut got = vec![zero; terms.len()];
        pool(threads).install(|| cumsum_with(terms, start, &mut got, shape, Fault::None));
        if let Some(i) = first_difference(&got, &want) {
            return Err(format!(
                "{case}, start {start}, {threads} threads, {shape:?}: index {i}: {:?} vs loop {:?}",
                got[i], want[i]
            ));
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn exact_cumsum_equals_the_loop(
        kind in 0usize..InputKind::ALL.len(),
        n in 0usize..6 * CHUNK + 3,
        seed in any::<u64>(),
        first in proptest::option::of(0usize..8),
        threads in 1usize..5,
        chunk in prop_oneof![Just(CHUNK), 1usize..70, Just(MAX_CHUNK)],
        block_chunks in 1usize..6,
    ) {
        let kind = InputKind::ALL[kind];
        let shape = Shape { chunk, block_chunks };
        let case = format!("seed {seed:#x} kind {kind:?} n {n} first {first:?}");
        let mut t64 = kind.generate::<F64>(n, seed);
        let mut t32 = kind.generate::<F32>(n, seed);
        if let (Some(f), false) = (first, t64.is_empty()) {
            t64[0] = first_terms()[f];
            t32[0] = first_terms()[f] as f32;
        }
        let r = check_case(&t64, threads, shape, &format!("f64 {case}"));
        prop_assert!(r.is_ok(), "{}", r.unwrap_err());
        let r = check_case(&t32, threads, shape, &format!("f32 {case}"));
        prop_assert!(r.is_ok(), "{}", r.unwrap_err());
    }

    #[test]
    fn arbitrary_bits_equal_the_loop(raw in proptest::collection::vec(any::<u64>(), 0..3 * CHUNK)) {
        let shape = Shape { chunk: 100, block_chunks: 2 };
        let t64: Vec<f64> = raw.iter().map(|&b| f64::from_bits(b)).collect();
        let r = check_case(&t64, 3, shape, "arbitrary f64 bits");
        prop_assert!(r.is_ok(), "{}", r.unwrap_err());
        let t32: Vec<f32> = raw.iter().map(|&b| f32::from_bits(b as u32)).collect();
        let r = check_case(&t32, 3, shape, "arbitrary f32 bits");
        prop_assert!(r.is_ok(), "{}", r.unwrap_err());
    }
}

#[test]
fn long_streams_at_block_boundaries_equal_the_loop() {
    let seed = 0xc5u64;
    let block = Shape::DEFAULT.chunk * Shape::DEFAULT.block_chunks;
    for kind in InputKind::ALL {
        for n in [2 * block - 1, 2 * block, 2 * block + 1, 300_007] {
            let case = format!("seed {seed:#x} kind {kind:?} n {n}");
            for threads in [2, 3] {
                check_case(
                    &kind.generate::<F64>(n, seed),
                    threads,
                    Shape::DEFAULT,
                    &case,
                )
                .unwrap();
                check_case(
                    &kind.generate::<F32>(n, seed),
                    threads,
                    Shape::DEFAULT,
                    &case,
                )
                .unwrap();
            }
        }
    }
}

#[test]
fn every_mutant_is_killed_by_a_wrong_output() {
    let seed = 0xc0ffee;
    let rows = kill_rows(seed).expect("a rayon pool");
    assert_eq!(rows.len(), Fault::ALL.len());
    for row in &rows {
        assert!(
            row.caught(),
            "seed {seed:#x}: {} -> {:?}",
            row.mutant.name,
            row.wrong
        );
    }
}

// `binade cumsum`, the built binary.

fn binade(args: &[&str]) -> Output {
    Command::new(binade::cli::binary_under_test(env!("CARGO_BIN_EXE_binade")))
        .current_dir(project_root())
        .arg("cumsum")
        .args(args)
        .output()
        .expect("running binade")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn the_command_writes_numpys_outputs() {
    let dir = tempfile::tempdir().unwrap();
    let mut runs = 0;
    for name in [
        "nan-inf-2051-f64",
        "ties-2051-f32",
        "negzero-first-2051-f64",
        "length-0-f32",
        "snan-first-2051-f32",
    ] {
        for engine in ["exact", "loop", "fast"] {
            let input = cumsum_dir().join(format!("{name}.npy"));
            let out = dir.path().join(format!("{name}-{engine}.npy"));
            let o = binade(&[
                "--engine",
                engine,
                "--check",
                input.to_str().unwrap(),
                out.to_str().unwrap(),
            ]);
            assert_eq!(o.status.code(), Some(0), "{name} {engine}: {}", stderr(&o));
            let want = std::fs::read(cumsum_dir().join(format!("{name}.cumsum.npy"))).unwrap();
            let got = std::fs::read(&out).unwrap();
            // Same dtype and values; compare the data bits (the headers may pad differently).
            if name.ends_with("f64") {
                let (g, w): (Vec<f64>, Vec<f64>) = (
                    npyz::NpyFile::new(&got[..]).unwrap().into_vec().unwrap(),
                    npyz::NpyFile::new(&want[..]).unwrap().into_vec().unwrap(),
                );
                assert_eq!(first_difference(&g, &w), None, "{name} {engine}");
            } else {
                let f = npyz::NpyFile::new(&got[..]).unwrap();
                assert_eq!(f.dtype().descr(), "'<f4'", "{name} {engine}");
                let (g, w): (Vec<f32>, Vec<f32>) = (
                    f.into_vec().unwrap(),
                    npyz::NpyFile::new(&want[..]).unwrap().into_vec().unwrap(),
                );
                assert_eq!(first_difference(&g, &w), None, "{name} {engine}");
            }
            runs += 1;
        }
    }
    assert_eq!(runs, 15);
}

#[test]
fn the_starts_on_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let input = cumsum_dir().join("all-negzero-2051-f64.npy");
    for (start, sign) in [
        ("first-term", 1u64 << 63),
        ("negative-zero", 1 << 63),
        ("positive-zero", 0),
    ] {
        let out = dir.path().join(format!("{start}.npy"));
        let o = binade(&[
            "--start",
            start,
            input.to_str().unwrap(),
            out.to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(0), "{start}: {}", stderr(&o));
        let v: Vec<f64> = read_npy(&out);
        assert!(
            v.len() == 2051 && v.iter().all(|x| x.to_bits() == sign),
            "{start}"
        );
    }
}

#[test]
fn bad_input_is_one_line_exit_2_and_the_old_output_stays() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.npy");
    std::fs::write(&out, b"the old output").unwrap();
    let truncated = dir.path().join("truncated.npy");
    let whole = std::fs::read(cumsum_dir().join("uniform-1023-f64.npy")).unwrap();
    std::fs::write(&truncated, &whole[..whole.len() - 3]).unwrap();
    let good = cumsum_dir().join("uniform-1023-f64.npy");
    let bad_dir = project_root().join("fixtures/npy/bad");
    let cases: Vec<(PathBuf, PathBuf, &str)> = vec![
        (bad_dir.join("int32.npy"), out.clone(), "integer"),
        (bad_dir.join("float16.npy"), out.clone(), "float16"),
        (
            bad_dir.join("fortran-f64.npy"),
            out.clone(),
            "Fortran-order",
        ),
        (truncated.clone(), out.clone(), "truncated data"),
        (dir.path().join("missing.npy"), out.clone(), "No such file"),
        (
            good.clone(),
            dir.path().join("no-such-folder/out.npy"),
            "cannot create a file",
        ),
        (good.clone(), dir.path().to_path_buf(), "cannot rename"),
    ];
    for (input, output, want) in &cases {
        let o = binade(&[input.to_str().unwrap(), output.to_str().unwrap()]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{}: {err}", input.display());
        assert_eq!(err.lines().count(), 1, "one line: {err}");
        assert!(
            err.starts_with("binade cumsum: ") && err.contains(want),
            "expected `{want}` in `{err}`"
        );
        assert!(
            o.stdout.is_empty(),
            "nothing on stdout: {}",
            String::from_utf8_lossy(&o.stdout)
        );
    }
    assert_eq!(std::fs::read(&out).unwrap(), b"the old output");
    let names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        names.iter().all(|n| !n.contains(".tmp")),
        "a temporary file was left: {names:?}"
    );
    // A good run replaces the old output whole.
    let o = binade(&[good.to_str().unwrap(), out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(read_npy::<f64>(&out).len(), 1023);
}

#[test]
fn the_gpu_engine_writes_numpys_outputs_or_reports_no_gpu() {
    let dir = tempfile::tempdir().unwrap();
    let mut inputs: Vec<PathBuf> = std::fs::read_dir(cumsum_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let n = p.file_name().unwrap().to_string_lossy().into_owned();
            n.ends_with("-f64.npy") && !n.contains(".cumsum.")
        })
        .collect();
    inputs.sort();
    assert!(inputs.len() >= 15, "only {} f64 fixtures", inputs.len());
    for input in &inputs {
        let out = dir.path().join("out.npy");
        let o = binade(&[
            "--engine",
            "gpu",
            "--check",
            input.to_str().unwrap(),
            out.to_str().unwrap(),
        ]);
        if o.status.code() == Some(3) {
            let err = stderr(&o);
            assert_eq!(
                err.lines().count(),
                1,
                "no-GPU message must be one line: {err:?}"
            );
            binade::gpu::require::skip(
                "the_gpu_engine_writes_numpys_outputs_or_reports_no_gpu",
                &format!("--engine gpu found no usable GPU ({})", err.trim()),
            );
            return;
        }
        let name = input.display();
        assert_eq!(o.status.code(), Some(0), "{name}: {}", stderr(&o));
        let want_path = input.with_file_name(
            input
                .file_name()
                .unwrap()
                .to_string_lossy()
                .replace(".npy", ".cumsum.npy"),
        );
        let (got, want): (Vec<f64>, Vec<f64>) = (read_npy(&out), read_npy(&want_path));
        assert_eq!(got.len(), want.len(), "{name}");
        // The device's adds return a NaN without the operand's payload: NaN matches NaN.
        if let Some(i) = binade::cumsum::first_difference_nan_as_nan(&got, &want) {
            panic!(
                "{name}: position {i} is {:#x}, numpy's {:#x}",
                got[i].to_bits(),
                want[i].to_bits()
            );
        }
    }
    // f32 has no device engine yet: one line, exit 2.
    let f32_input = cumsum_dir().join("ties-2051-f32.npy");
    let out = dir.path().join("f32.npy");
    let o = binade(&[
        "--engine",
        "gpu",
        f32_input.to_str().unwrap(),
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(!out.exists());
}
