//! The running sums on the device: the kernels compile with NVRTC for every running-sum
//! mutant (no device needed), and on a device every output position equals the CPU loop's
//! running sum in bits (NaN as NaN) for every input kind, size, tile-boundary case and start,
//! identically over repeated launches; each of its own mutants writes a wrong running sum
//! somewhere. Without NVRTC or a device the tests print `skipped: REASON`; with
//! `BINADE_REQUIRE_GPU=1` (the GPU machine) they fail instead.

use binade::cumsum::first_difference_nan_as_nan;
use binade::gpu::ordered_cumsum::compile_for;
use binade::gpu::ordered_sum::onepass::Schedule;
use binade::gpu::require::{nvrtc_or_skip, open_or_skip};
use binade::gpu::{CumsumMutant, GpuCumsum};
use binade::layout::{OP_PER_THREAD, OP_TILE};
use binade::verify::inputs::{running_sum_cases, InputKind};
use binade::Start;

const STARTS: [Start; 3] = [Start::FirstTerm, Start::PositiveZero, Start::NegativeZero];

/// Every way a launch can run its tiles: each stages or writes its running sums its own way
/// (one block per tile and two buffers through the tile's buffer, one buffer directly).
const SCHEDULES: [Schedule; 3] = [
    Schedule::OneBlockPerTile,
    Schedule::Resident,
    Schedule::Staged,
];

/// The loop's running sums, written out as a user writes them.
fn loop_running(terms: &[f64], start: Start) -> Vec<f64> {
    let mut out = Vec::with_capacity(terms.len());
    let mut s = match start {
        Start::PositiveZero => 0.0f64,
        Start::FirstTerm | Start::NegativeZero => -0.0f64,
    };
    for (i, &x) in terms.iter().enumerate() {
        s += x;
        if i == 0 && start == Start::FirstTerm {
            s = x; // numpy's first output is the first term itself
        }
        out.push(s);
    }
    out
}

/// The first position where the device's running sums differ from the loop's.
fn first_wrong(c: &GpuCumsum, terms: &[f64], start: Start) -> Option<(usize, f64, f64)> {
    let got = c.cumsum_of(terms, start).unwrap();
    let want = loop_running(terms, start);
    assert_eq!(got.len(), want.len());
    first_difference_nan_as_nan(&got, &want).map(|i| (i, got[i], want[i]))
}

const SIZES: [usize; 10] = [
    0,
    1,
    2,
    OP_PER_THREAD + 1,
    OP_TILE - 1,
    OP_TILE,
    OP_TILE + 1,
    3 * OP_TILE + 77,
    100_003,
    1_000_003,
];

/// `inputs::running_sum_cases`: where a defect of the running-sum steps shows.
fn special_cases() -> Vec<(String, Vec<f64>)> {
    running_sum_cases(OP_TILE)
        .into_iter()
        .map(|(n, t)| (n.to_string(), t))
        .collect()
}

#[test]
fn cumsum_compiles_for_every_mutant() {
    if !nvrtc_or_skip("cumsum_compiles_for_every_mutant") {
        return;
    }
    for m in CumsumMutant::ALL {
        if let Err(e) = compile_for("sm_90", m) {
            panic!("running-sum mutant {}: {e:#}", m.name());
        }
    }
}

#[test]
fn cumsum_equals_the_loop_at_every_position() {
    let Some(gpu) = open_or_skip("cumsum_equals_the_loop_at_every_position") else {
        return;
    };
    let engine = GpuCumsum::new(&gpu).unwrap();
    let seed = 0xc05u64;
    for (kind, schedule) in InputKind::ALL
        .into_iter()
        .flat_map(|k| SCHEDULES.map(|s| (k, s)))
    {
        let c = engine.clone().with_schedule(schedule);
        for &n in &SIZES {
            let terms = kind.generate::<binade::format::F64>(n, seed ^ n as u64);
            for start in STARTS {
                for launch in 0..2 {
                    if let Some((i, got, want)) = first_wrong(&c, &terms, start) {
                        panic!(
                            "seed {seed:#x}, {kind:?}, {schedule:?}, n {n}, {start:?}, launch {launch}: position {i} is {got:e} ({:#x}), the loop's {want:e} ({:#x})",
                            got.to_bits(),
                            want.to_bits()
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn cumsum_special_cases() {
    let Some(gpu) = open_or_skip("cumsum_special_cases") else {
        return;
    };
    let engine = GpuCumsum::new(&gpu).unwrap();
    for (name, terms) in special_cases() {
        for (start, schedule) in STARTS.into_iter().flat_map(|s| SCHEDULES.map(|k| (s, k))) {
            let c = engine.clone().with_schedule(schedule);
            if let Some((i, got, want)) = first_wrong(&c, &terms, start) {
                panic!(
                    "{name}, {start:?}, {schedule:?}: position {i} is {:#x}, the loop's {:#x}",
                    got.to_bits(),
                    want.to_bits()
                );
            }
        }
    }
    // numpy keeps the first term's bits exactly, a signalling NaN included.
    let snan = f64::from_bits(0x7ff0_0000_0000_0001);
    let got = engine.cumsum_of(&[snan, 1.0], Start::FirstTerm).unwrap();
    assert_eq!(
        got[0].to_bits(),
        snan.to_bits(),
        "first output of FirstTerm"
    );
}

#[test]
fn cumsum_mutants_write_wrong_running_sums() {
    let Some(gpu) = open_or_skip("cumsum_mutants_write_wrong_running_sums") else {
        return;
    };
    let seed = 0x6b12u64;
    // One build per mutant (each build is a compile of the module, on rayon's threads), run
    // by each schedule.
    let builds: Vec<GpuCumsum> = {
        use rayon::prelude::*;
        let mutants: Vec<CumsumMutant> = CumsumMutant::ALL.into_iter().skip(1).collect();
        mutants
            .par_iter()
            .map(|&m| GpuCumsum::with_mutant(&gpu, m).unwrap())
            .collect()
    };
    for (build, schedule) in builds.iter().flat_map(|b| SCHEDULES.map(|s| (b, s))) {
        let m = build.mutant();
        let c = build.clone().with_schedule(schedule);
        let mut killed = None;
        'search: for (name, terms) in special_cases() {
            for start in STARTS {
                if let Some((i, _, _)) = first_wrong(&c, &terms, start) {
                    killed = Some(format!("{name}, {start:?}, position {i}"));
                    break 'search;
                }
            }
        }
        for kind in InputKind::ALL {
            if killed.is_some() {
                break;
            }
            let terms = kind.generate::<binade::format::F64>(100_003, seed);
            if let Some((i, _, _)) = first_wrong(&c, &terms, Start::PositiveZero) {
                killed = Some(format!("{kind:?}, position {i}"));
            }
        }
        assert!(
            killed.is_some(),
            "seed {seed:#x}: running-sum mutant `{}` under {schedule:?} wrote the loop's running sums everywhere",
            m.name()
        );
        eprintln!(
            "running-sum mutant `{}` under {schedule:?} killed: {}",
            m.name(),
            killed.unwrap()
        );
    }
}

#[test]
fn first_difference_finds_the_first_differing_position() {
    let Some(gpu) = open_or_skip("first_difference_finds_the_first_differing_position") else {
        return;
    };
    let c = GpuCumsum::new(&gpu).unwrap();
    let s = gpu.stream();
    let a: Vec<f64> = (0..1_000_003).map(|i| i as f64 * 0.5).collect();
    let mut b = a.clone();
    let da = s.clone_htod(&a).unwrap();
    let db = s.clone_htod(&b).unwrap();
    assert_eq!(
        c.first_difference(&da.slice(..), &db.slice(..)).unwrap(),
        None
    );
    // NaN matches NaN whatever its payload; -0.0 does not match +0.0.
    b[7] = f64::from_bits(0x7ff8_0000_0000_0123);
    let mut a2 = a.clone();
    a2[7] = f64::NAN;
    b[654_321] = a[654_321] + 1.0;
    b[0] = -0.0;
    let da = s.clone_htod(&a2).unwrap();
    let db = s.clone_htod(&b).unwrap();
    let d = c
        .first_difference(&da.slice(..), &db.slice(..))
        .unwrap()
        .unwrap();
    assert_eq!((d.first, d.count), (0, 2));
}
