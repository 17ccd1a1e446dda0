//! The fixture loader: generation against the committed hashes, the cache, and the error cases
//! (bad manifest, wrong size, truncated file, wrong bit depth, hash mismatch, missing sources).

use std::fs;
use std::path::{Path, PathBuf};

use binade::fixtures::project_root;
use binade::fixtures::{self, Dirs, NotAvailable};

fn repo() -> PathBuf {
    project_root()
}

fn manifest(name: &str) -> PathBuf {
    repo().join("fixtures").join(format!("{name}.toml"))
}

/// A scratch folder with a copy of one manifest and an empty cache.
fn scratch(name: &str) -> (tempfile::TempDir, PathBuf, Dirs) {
    let dir = tempfile::tempdir().unwrap();
    let m = dir.path().join(format!("{name}.toml"));
    fs::copy(manifest(name), &m).unwrap();
    let dirs = Dirs {
        manifests: dir.path().into(),
        cache: Some(dir.path().join("cache")),
        sources: dir.path().join("none"),
    };
    (dir, m, dirs)
}

fn raw_of(dirs: &Dirs, name: &str) -> PathBuf {
    dirs.cache.as_ref().unwrap().join(format!("{name}.yuv"))
}

fn error_of(path: &Path, dirs: &Dirs) -> String {
    format!("{:#}", fixtures::load(path, dirs).unwrap_err())
}

#[test]
fn synthetic_fixtures_match_their_hashes() {
    let dirs = Dirs {
        cache: None,
        ..Dirs::under(&repo())
    };
    for name in [
        "random-8x8",
        "random-9x17",
        "random-33x31",
        "random-64x48-422-10bit",
        "random-65x47-444-12bit",
    ] {
        let f = fixtures::load(&manifest(name), &dirs).unwrap_or_else(|e| panic!("{name}: {e:#}"));
        assert_eq!(f.pairs.len(), f.manifest.frames, "{name}");
        let bytes = fixtures::encode_raw(&f.pairs);
        assert_eq!(fixtures::sha256_hex(&bytes), f.manifest.sha256, "{name}");
    }
}

#[test]
fn cache_is_written_then_read_back_identically() {
    let (_d, m, dirs) = scratch("random-64x48-422-10bit");
    let first = fixtures::load(&m, &dirs).unwrap();
    assert!(raw_of(&dirs, "random-64x48-422-10bit").exists());
    let second = fixtures::load(&m, &dirs).unwrap();
    assert_eq!(first.pairs, second.pairs);
}

#[test]
fn truncated_and_oversized_files_are_named() {
    let (_d, m, dirs) = scratch("random-9x17");
    fixtures::load(&m, &dirs).unwrap();
    let raw = raw_of(&dirs, "random-9x17");
    let bytes = fs::read(&raw).unwrap();
    fs::write(&raw, &bytes[..bytes.len() - 5]).unwrap();
    let e = error_of(&m, &dirs);
    assert!(
        e.contains("random-9x17.yuv") && e.contains("truncated"),
        "{e}"
    );
    let mut longer = bytes.clone();
    longer.push(0);
    fs::write(&raw, &longer).unwrap();
    let e = error_of(&m, &dirs);
    assert!(
        e.contains("random-9x17.yuv") && e.contains("wrong size"),
        "{e}"
    );
}

#[test]
fn samples_above_the_bit_depth_are_named() {
    let (_d, m, dirs) = scratch("random-64x48-422-10bit");
    fixtures::load(&m, &dirs).unwrap();
    let raw = raw_of(&dirs, "random-64x48-422-10bit");
    let mut bytes = fs::read(&raw).unwrap();
    bytes[101] = 0x08; // sample 50 becomes at least 2048, above the 10-bit maximum 1023
    fs::write(&raw, &bytes).unwrap();
    let e = error_of(&m, &dirs);
    assert!(
        e.contains("random-64x48-422-10bit.yuv")
            && e.contains("wrong bit depth")
            && e.contains("byte 100"),
        "{e}"
    );
}

#[test]
fn hash_mismatch_is_named() {
    let (_d, m, dirs) = scratch("random-33x31");
    fixtures::load(&m, &dirs).unwrap();
    let raw = raw_of(&dirs, "random-33x31");
    let mut bytes = fs::read(&raw).unwrap();
    bytes[7] ^= 1;
    fs::write(&raw, &bytes).unwrap();
    let e = error_of(&m, &dirs);
    assert!(
        e.contains("random-33x31.yuv") && e.contains("hash mismatch"),
        "{e}"
    );
}

#[test]
fn new_frames_are_checked_against_the_manifest_hash() {
    let (_d, m, dirs) = scratch("random-8x8");
    let text = fs::read_to_string(&m)
        .unwrap()
        .replace("seed = 10", "seed = 11");
    fs::write(&m, text).unwrap();
    let e = error_of(&m, &dirs);
    assert!(
        e.contains("random-8x8.toml") && e.contains("frames made from the manifest hash to"),
        "{e}"
    );
    assert!(
        !raw_of(&dirs, "random-8x8").exists(),
        "a frame file that fails its hash must not be cached"
    );
}

#[test]
fn bad_manifest_fields_are_named() {
    let (_d, m, dirs) = scratch("random-8x8");
    let good = fs::read_to_string(&m).unwrap();
    for (from, to, field) in [
        ("chroma = \"420\"", "chroma = \"411\"", "411"),
        ("bit_depth = 8", "bit_depth = 7", "bit_depth"),
        ("frames = 2", "frames = 0", "frames"),
        ("noise = 6", "noise = 6\ncolour = 1", "colour"),
    ] {
        fs::write(&m, good.replace(from, to)).unwrap();
        let e = error_of(&m, &dirs);
        assert!(
            e.contains("random-8x8.toml") && e.contains(field),
            "{from} -> {to}: {e}"
        );
    }
    let sha = good.lines().find(|l| l.starts_with("sha256")).unwrap();
    fs::write(&m, good.replace(sha, "sha256 = \"xyz\"")).unwrap();
    let e = error_of(&m, &dirs);
    assert!(e.contains("sha256"), "{e}");
}

#[test]
fn missing_photographs_are_reported_as_not_available() {
    let (_d, m, dirs) = scratch("astronaut-jpeg50");
    let err = fixtures::load(&m, &dirs).unwrap_err();
    let na = err
        .downcast_ref::<NotAvailable>()
        .expect("a NotAvailable error");
    let text = na.to_string();
    assert!(
        text.contains("astronaut-jpeg50.toml")
            && text.contains("just fixtures")
            && text.contains("astronaut.png"),
        "{text}"
    );
}

/// Prints every manifest's hash from freshly made frames (needs `just fixtures` for the
/// photographs). Run with `--ignored --nocapture` after changing a generator.
#[test]
#[ignore]
fn print_hashes() {
    let dirs = Dirs::under(&repo());
    for path in fixtures::libvmaf::input_manifests(&repo()).unwrap() {
        let m = fixtures::read_manifest(&path).unwrap();
        match fixtures::generate_raw(&path, &m, &dirs.sources) {
            Ok(bytes) => println!(
                "{} {} {}",
                path.file_stem().unwrap().to_string_lossy(),
                fixtures::sha256_hex(&bytes),
                bytes.len()
            ),
            Err(e) => println!("{}: {e:#}", path.display()),
        }
    }
}
