//! The CPU float VIF reference against committed expected outputs (bits), on small frame
//! pairs committed in `fixtures/vif/`. These are regression pins: the expected values were
//! written by the reference itself, so this test catches a change of its bits, not an error
//! it always made. The independent evidence is a one-off comparison with libvmaf's own C
//! sources (see `fixtures/vif/README.md`).
//!
//! `BINADE_WRITE_VIF_FIXTURES=1 cargo test --release --test vif_reference -- --ignored`
//! rewrites the frames and the expected file from the generator and the reference.

use std::path::PathBuf;

use binade::fixtures::project_root;
use binade::vif::synth::{checkerboard, natural_pair};
use binade::vif::{vif, Plane, VifOptions, FEATURE_NAMES};
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, Clone)]
struct FrameSpec {
    name: String,
    w: usize,
    h: usize,
    bpc: u32,
    /// "natural" (seeded pair) or "checker" (8-pixel board against the board shifted by one).
    kind: String,
    seed: u64,
}

#[derive(Serialize, Deserialize, Clone)]
struct Case {
    frames: String,
    egl: f64,
    ks: f64,
    snsq: f64,
    skip: bool,
    min: [f64; 3],
    /// The fifteen published features (debug on), as fp64 bit patterns in hex.
    expected: Vec<String>,
}

#[derive(Serialize, Deserialize)]
struct Manifest {
    frames: Vec<FrameSpec>,
    case: Vec<Case>,
}

fn dir() -> PathBuf {
    project_root().join("fixtures/vif")
}

fn load(spec: &FrameSpec, which: &str) -> Plane {
    let path = dir().join(format!("{}_{which}.yuv", spec.name));
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    Plane::from_bytes(spec.w, spec.h, spec.bpc, &bytes)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn options(c: &Case) -> VifOptions {
    VifOptions {
        enhn_gain_limit: c.egl,
        kernelscale: c.ks,
        sigma_nsq: c.snsq,
        skip_scale0: c.skip,
        min_val: c.min,
        debug: true,
    }
}

fn manifest() -> Manifest {
    let path = dir().join("cases.toml");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    toml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn cpu_reference_matches_committed_bits() {
    let m = manifest();
    let mut checked = 0;
    for (k, c) in m.case.iter().enumerate() {
        let spec = m
            .frames
            .iter()
            .find(|f| f.name == c.frames)
            .expect("case names a listed frame pair");
        let f = vif(&load(spec, "ref"), &load(spec, "dis"), &options(c)).unwrap();
        assert_eq!(c.expected.len(), 15, "case {k}");
        for (i, v) in f.values().iter().enumerate() {
            let want = u64::from_str_radix(&c.expected[i], 16).unwrap();
            assert_eq!(
                v.to_bits(),
                want,
                "case {k} ({}, egl {}, ks {}, snsq {}, skip {}, min {:?}): {} is {v:e} ({:016x}), expected {:e}",
                c.frames,
                c.egl,
                c.ks,
                c.snsq,
                c.skip,
                c.min,
                FEATURE_NAMES[i],
                v.to_bits(),
                f64::from_bits(want)
            );
            checked += 1;
        }
    }
    assert!(checked >= 15 * 10, "only {checked} outputs checked");
}

fn frame_specs() -> Vec<FrameSpec> {
    let n = |name: &str, w, h, bpc, seed| FrameSpec {
        name: name.into(),
        w,
        h,
        bpc,
        kind: "natural".into(),
        seed,
    };
    vec![
        n("nat8", 96, 64, 8, 11),
        n("nat10", 101, 67, 10, 12),
        n("nat12", 97, 72, 12, 13),
        n("nat16", 104, 59, 16, 14),
        FrameSpec {
            name: "checker8".into(),
            w: 96,
            h: 64,
            bpc: 8,
            kind: "checker".into(),
            seed: 0,
        },
    ]
}

fn make_pair(s: &FrameSpec) -> (Plane, Plane) {
    if s.kind == "checker" {
        (
            checkerboard(s.w, s.h, 8, 16, 235, 0).unwrap(),
            checkerboard(s.w, s.h, 8, 16, 235, 1).unwrap(),
        )
    } else {
        natural_pair(s.w, s.h, s.bpc, s.seed).unwrap()
    }
}

fn case(frames: &str, egl: f64, ks: f64, snsq: f64, skip: bool, min: [f64; 3]) -> Case {
    Case {
        frames: frames.into(),
        egl,
        ks,
        snsq,
        skip,
        min,
        expected: vec![],
    }
}

#[test]
#[ignore = "rewrites fixtures/vif; run with BINADE_WRITE_VIF_FIXTURES=1"]
fn write_fixtures() {
    if std::env::var("BINADE_WRITE_VIF_FIXTURES").as_deref() != Ok("1") {
        println!("skipped: set BINADE_WRITE_VIF_FIXTURES=1 to rewrite fixtures/vif");
        return;
    }
    let frames = frame_specs();
    for s in &frames {
        let (r, d) = make_pair(s);
        std::fs::write(dir().join(format!("{}_ref.yuv", s.name)), r.to_bytes()).unwrap();
        std::fs::write(dir().join(format!("{}_dis.yuv", s.name)), d.to_bytes()).unwrap();
    }
    let z = [0.0; 3];
    let mut cases = vec![
        case("nat8", 100.0, 1.0, 2.0, false, z),
        case("nat8", 1.0, 1.0, 2.0, false, z),
        case("nat8", 100.0, 1.0, 0.5, false, z),
        case("nat8", 100.0, 1.0, 4.5, false, z),
        case("nat8", 100.0, 1.0, 2.0, true, z),
        case("nat8", 100.0, 1.0, 2.0, false, [0.9, 0.95, 0.99]),
        case("nat8", 100.0, 0.5, 2.0, false, z),
        case("nat8", 100.0, 1.5, 2.0, false, z),
        case("nat8", 100.0, 2.0, 2.0, false, z),
        case("nat8", 100.0, 360.0 / 97.0, 2.0, false, z),
        case("nat8", 3.5, 2.0 / 3.0, 1.25, true, [0.3, 0.0, 0.6]),
        case("nat10", 100.0, 1.0, 2.0, false, z),
        case("nat10", 100.0, 1.5, 2.0, false, z),
        case("nat12", 100.0, 1.0, 2.0, false, z),
        case("nat12", 2.0, 1.0, 3.0, false, z),
        case("nat16", 100.0, 1.0, 2.0, false, z),
        case("nat16", 100.0, 1.0, 2.0, true, z),
        case("checker8", 100.0, 1.0, 2.0, false, z),
        case("checker8", 100.0, 1.0, 2.0, false, [1.0, 1.0, 1.0]),
    ];
    for c in &mut cases {
        let spec = frames.iter().find(|f| f.name == c.frames).unwrap();
        let (r, d) = make_pair(spec);
        let f = vif(&r, &d, &options(c)).unwrap();
        c.expected = f
            .values()
            .iter()
            .map(|v| format!("{:016x}", v.to_bits()))
            .collect();
    }
    let text = toml::to_string(&Manifest {
        frames,
        case: cases,
    })
    .unwrap();
    let header =
        "# Small float VIF frame pairs and the fifteen features of each case (debug on) as fp64\n\
                  # bits. Made by `write_fixtures` in tests/vif_reference.rs; see README.md.\n\n";
    std::fs::write(dir().join("cases.toml"), format!("{header}{text}")).unwrap();
}
