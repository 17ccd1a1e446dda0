//! The CPU reference against libvmaf's own SSIMULACRA2 scores (independent evidence: printed
//! by libvmaf's `vmaf` tool, scalar build, at `fixtures::libvmaf::LIBVMAF_COMMIT`, committed
//! in `fixtures/libvmaf/ssimulacra2-scores.csv` by `scripts/libvmaf-ssimulacra2.sh`; no
//! libvmaf is needed here).
//!
//! Every committed score is compared by bits: libvmaf printed it with 17 significant digits
//! (`--precision max`, `%.17g`), which parse back to its `f64` exactly. A missing or empty
//! file fails; photograph inputs are skipped only when their sources are missing (`just
//! fixtures`), and the synthetic ones, always there, must all be checked.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

use binade::fixtures::libvmaf::{
    self, check_row_against, input_manifests, input_name, manifest_path, options_for, read_scores,
    reinterpret, ScoreRow, SCORES_CSV,
};
use binade::fixtures::{self, project_root, Dirs, Fixture, NotAvailable};
use binade::ssimulacra2::frontend::{Difference, FrontEnd};
use binade::ssimulacra2::transfer::{self, TABLE_SIZE};
use binade::ssimulacra2::x86_paths::{self, X86Path};
use binade::ssimulacra2::{self, yuv::YuvFrame};

/// Where the ignored writer puts the YUV files for libvmaf.
const INPUTS_ENV: &str = "BINADE_LIBVMAF_INPUTS";

/// Loads every input named by the rows; `None` for a photograph whose sources are missing.
fn load_inputs(root: &Path, rows: &[ScoreRow]) -> BTreeMap<String, Option<Fixture>> {
    let dirs = Dirs::under(root);
    let mut out = BTreeMap::new();
    for row in rows {
        if out.contains_key(&row.input) {
            continue;
        }
        let path = manifest_path(root, &row.input);
        let f = match fixtures::load(&path, &dirs) {
            Ok(f) => Some(f),
            Err(e) if e.downcast_ref::<NotAvailable>().is_some() => None,
            Err(e) => panic!("{SCORES_CSV}: line {}: {e:#}", row.line),
        };
        if let Some(f) = &f {
            check_row_against(row, &f.manifest, Path::new(SCORES_CSV))
                .unwrap_or_else(|e| panic!("{e:#}"));
        }
        out.insert(row.input.clone(), f);
    }
    out
}

/// A row's frame pair, read with the row's matrix and range.
fn pair_of(row: &ScoreRow, f: &Fixture) -> (YuvFrame, YuvFrame) {
    let (a, b) = &f.pairs[row.frame];
    (
        reinterpret(a, row.matrix, row.range),
        reinterpret(b, row.matrix, row.range),
    )
}

/// The reference's score of a row's frame pair under `front`.
fn score_of(row: &ScoreRow, f: &Fixture, front: &FrontEnd) -> f64 {
    let (a, b) = pair_of(row, f);
    ssimulacra2::frame_sums_with(&a, &b, front)
        .unwrap_or_else(|e| panic!("{}: line {}: {e:#}", SCORES_CSV, row.line))
        .score()
}

fn rows() -> Vec<ScoreRow> {
    read_scores(&project_root().join(SCORES_CSV)).unwrap_or_else(|e| panic!("{e:#}"))
}

/// Every committed libvmaf score, bit for bit.
#[test]
fn reference_scores_are_libvmafs_bits() {
    let root = project_root();
    let rows = rows();
    let inputs = load_inputs(&root, &rows);
    let (mut checked, mut skipped, mut synthetic) = (0usize, 0usize, 0usize);
    let mut wrong = Vec::new();
    for row in &rows {
        assert_eq!(
            row.commit,
            libvmaf::LIBVMAF_COMMIT,
            "{SCORES_CSV}: line {}: scores of another libvmaf revision",
            row.line
        );
        let Some(f) = &inputs[&row.input] else {
            skipped += 1;
            continue;
        };
        synthetic += !f.manifest.is_natural() as usize;
        let ours = score_of(row, f, &FrontEnd::LIBVMAF);
        checked += 1;
        if ours.to_bits() != row.score.to_bits() {
            wrong.push(format!(
                "line {}: {} frame {} yuv_matrix {}: reference {ours:?} ({:016x}), libvmaf {} ({:016x}), difference {:e}",
                row.line,
                row.input,
                row.frame,
                row.option,
                ours.to_bits(),
                row.text,
                row.score.to_bits(),
                ours - row.score
            ));
        }
    }
    println!(
        "{checked} of {} libvmaf scores checked ({synthetic} on synthetic frames), {skipped} skipped (photographs not available: just fixtures), {} differ",
        rows.len(),
        wrong.len()
    );
    assert!(
        synthetic > 0,
        "no synthetic frame was checked: the comparison checked nothing that is always there"
    );
    assert!(
        wrong.is_empty(),
        "{} of {checked} scores differ from libvmaf's:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

/// One of libvmaf's x86 paths (its CSV: the same inputs and options as the scalar file): the
/// reference with the path's one difference put back ([`x86_paths::frame_sums`]) gives every
/// score's bits, and the reference itself differs from that build on some (the variant is not
/// the reference under another name).
fn x86_variant_scores_are_libvmafs(path: X86Path) {
    let root = project_root();
    let csv = libvmaf::scores_csv_of(path);
    let rows = read_scores(&root.join(csv)).unwrap_or_else(|e| panic!("{e:#}"));
    let inputs = load_inputs(&root, &rows);
    let (mut checked, mut synthetic, mut reference_differs) = (0usize, 0usize, 0usize);
    let mut wrong = Vec::new();
    for row in &rows {
        assert_eq!(
            row.commit,
            libvmaf::LIBVMAF_COMMIT,
            "{csv}: line {}",
            row.line
        );
        let Some(f) = &inputs[&row.input] else {
            continue;
        };
        synthetic += !f.manifest.is_natural() as usize;
        let (a, b) = pair_of(row, f);
        let ours = x86_paths::frame_sums(path, &a, &b)
            .unwrap_or_else(|e| panic!("{csv}: line {}: {e:#}", row.line))
            .score();
        reference_differs +=
            (score_of(row, f, &FrontEnd::LIBVMAF).to_bits() != row.score.to_bits()) as usize;
        checked += 1;
        if ours.to_bits() != row.score.to_bits() {
            wrong.push(format!(
                "line {}: {} frame {} yuv_matrix {}: {} variant {ours:?}, libvmaf {}, difference {:e}",
                row.line,
                row.input,
                row.frame,
                row.option,
                path.name(),
                row.text,
                ours - row.score
            ));
        }
    }
    println!(
        "{checked} of {} libvmaf {} scores checked ({synthetic} synthetic), {} differ from the variant, {reference_differs} differ from the reference",
        rows.len(),
        path.name(),
        wrong.len()
    );
    assert!(synthetic > 0, "{csv}: no synthetic frame was checked");
    assert!(
        reference_differs > 0,
        "{csv}: the scores equal the scalar reference's everywhere"
    );
    assert!(
        wrong.is_empty(),
        "{csv}: {} of {checked} scores differ from the variant's:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

/// libvmaf's AVX2 path (`SCORES_AVX2_CSV`).
#[test]
fn avx2_variant_scores_are_libvmafs_avx2_bits() {
    x86_variant_scores_are_libvmafs(X86Path::Avx2);
}

/// libvmaf's AVX-512 path (`SCORES_AVX512_CSV`, printed on the GPU machine's host).
#[test]
fn avx512_variant_scores_are_libvmafs_avx512_bits() {
    x86_variant_scores_are_libvmafs(X86Path::Avx512);
}

/// Each difference of the old front end, put back alone, changes at least one committed score:
/// the comparison above sees every one of them.
#[test]
fn every_old_difference_is_seen_by_the_libvmaf_scores() {
    let root = project_root();
    let rows = rows();
    // The small synthetic inputs suffice and keep this quick.
    let small: Vec<ScoreRow> = rows
        .into_iter()
        .filter(|r| r.width * r.height <= 128 * 128)
        .collect();
    let inputs = load_inputs(&root, &small);
    for d in Difference::ALL {
        let front = FrontEnd::LIBVMAF.with(d);
        let moved = small
            .iter()
            .filter_map(|r| inputs[&r.input].as_ref().map(|f| (r, f)))
            .filter(|(r, f)| score_of(r, f, &front).to_bits() != r.score.to_bits())
            .count();
        println!(
            "{}: {moved} of {} small scores moved",
            d.name(),
            small.len()
        );
        assert!(moved > 0, "{}: moved no libvmaf score", d.name());
    }
}

/// A file of libvmaf scores that is missing, empty, has only a header or a malformed row is an
/// error, never a comparison of nothing.
#[test]
fn missing_empty_or_malformed_score_files_fail() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("scores.csv");
    let err = |text: Option<&str>| {
        if let Some(t) = text {
            fs::write(&p, t).unwrap();
        }
        format!("{:#}", read_scores(&p).unwrap_err())
    };
    assert!(err(None).contains("cannot read"));
    assert!(err(Some("")).contains("empty"));
    assert!(err(Some(&format!("{}\n", libvmaf::HEADER))).contains("no scores"));
    let row = "random-8x8,0,0,bt709,limited,8,420,8,8,94.0,c";
    assert!(err(Some(&format!("{}\n{row},x\n", libvmaf::HEADER))).contains("12 fields"));
    let bad_option = row.replacen(",0,0,", ",0,7,", 1);
    assert!(err(Some(&format!("{}\n{bad_option}\n", libvmaf::HEADER))).contains("yuv_matrix"));
    let disagree = row.replace("bt709", "bt601");
    assert!(err(Some(&format!("{}\n{disagree}\n", libvmaf::HEADER))).contains("disagree"));
    assert!(err(Some("a,b\n")).contains("header"));
}

/// Every entry of the linearisation table is the sRGB curve with its power evaluated by MPFR
/// and correctly rounded to f64, then rounded to f32: the platform's `powf` did not round any
/// of the 1024 inputs differently from a correctly rounded power.
#[test]
fn transfer_table_is_the_correctly_rounded_curve() {
    use rug::ops::Pow;
    use rug::Float;
    let t = transfer::table();
    for (i, &got) in t.iter().enumerate() {
        let x = i as f64 / (TABLE_SIZE - 1) as f64;
        let want = if x <= transfer::LINEAR_END {
            x / 12.92
        } else {
            let base = (x + 0.055) / 1.055;
            Float::with_val(53, base)
                .pow(Float::with_val(53, 2.4))
                .to_f64()
        } as f32;
        assert_eq!(
            got.to_bits(),
            want.to_bits(),
            "entry {i}: {got} against {want}"
        );
    }
}

fn write_raw(path: &Path, frames: &[&YuvFrame]) {
    let mut bytes = Vec::new();
    for f in frames {
        fixtures::encode_frame(f, &mut bytes);
    }
    fs::write(path, bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
}

/// Writes every input as a reference and a distorted YUV file for libvmaf's `vmaf` tool, and
/// `inputs.tsv` (input, file stem, width, height, chroma, bit depth, frames, options), into
/// the folder `BINADE_LIBVMAF_INPUTS` names. Run by `scripts/libvmaf-ssimulacra2.sh`.
#[test]
#[ignore]
fn write_libvmaf_inputs() {
    let root = project_root();
    let out = std::env::var_os(INPUTS_ENV)
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| panic!("set {INPUTS_ENV} to the folder to write"));
    fs::create_dir_all(&out).unwrap();
    let dirs = Dirs::under(&root);
    let mut tsv = String::new();
    for path in input_manifests(&root).unwrap() {
        let input = input_name(&root, &path);
        let f = match fixtures::load(&path, &dirs) {
            Ok(f) => f,
            Err(e) if e.downcast_ref::<NotAvailable>().is_some() => {
                panic!("{input}: {e:#}: libvmaf's scores must cover every input")
            }
            Err(e) => panic!("{input}: {e:#}"),
        };
        let stem = input.replace('/', "__");
        let refs: Vec<&YuvFrame> = f.pairs.iter().map(|p| &p.0).collect();
        let dis: Vec<&YuvFrame> = f.pairs.iter().map(|p| &p.1).collect();
        write_raw(&out.join(format!("{stem}.ref.yuv")), &refs);
        write_raw(&out.join(format!("{stem}.dis.yuv")), &dis);
        let m = &f.manifest;
        let options: Vec<String> = options_for(m).iter().map(u32::to_string).collect();
        if options.is_empty() {
            println!(
                "{input}: libvmaf's tool refuses {}x{} {}",
                m.width,
                m.height,
                m.chroma.name()
            );
            continue;
        }
        tsv.push_str(&format!(
            "{input}\t{stem}\t{}\t{}\t{}\t{}\t{}\t{}\n",
            m.width,
            m.height,
            m.chroma.name(),
            m.bit_depth,
            m.frames,
            options.join(",")
        ));
    }
    fs::write(out.join("inputs.tsv"), tsv).unwrap();
    println!("wrote {}", out.display());
}
