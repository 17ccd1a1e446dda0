//! Float VIF kernels: NVRTC compiles every variant without FMA contraction (needs only
//! libnvrtc), and on a GPU the exact twins return the CPU reference's bits on the fixture
//! frames. Without the library or the device both print `skipped: REASON`; with
//! `BINADE_REQUIRE_GPU=1` (the GPU machine) a missing piece fails them instead.

use binade::gpu::require::{nvrtc_or_skip, skip};
use binade::vif::filter::Image;
use binade::vif::gpu::{self, Reduction, Variant, VifGpu};
use binade::vif::reference::scale_sums;
use binade::vif::VifOptions;

/// One device test at a time: libtest runs tests on threads of one process, and a driver call
/// of another test that waits for the device (a free, a synchronous copy) can hold this test's
/// launches until a kill check's hold has ended, so the check finds its hold over before its
/// frame is queued (the sums-beside check did so on the H100 at b5d3995, among this binary's
/// parallel tests, while the same check passed in that call's single-threaded `mutations` run).
static DEVICE: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn one_at_a_time() -> std::sync::MutexGuard<'static, ()> {
    DEVICE.lock().unwrap_or_else(|e| e.into_inner())
}

fn variants() -> Vec<Variant> {
    let e = Variant::exact(Reduction::Ordered);
    vec![
        e,
        Variant {
            device_log2: true,
            ..e
        },
        Variant {
            stat_f32: true,
            ..e
        },
        Variant {
            device_log2: true,
            stat_f32: true,
            ..e
        },
        Variant {
            warp_run_end_unchecked: true,
            ..e
        },
        Variant {
            paired_plans_crossed: true,
            ..e
        },
        Variant {
            paired_units_crossed: true,
            ..e
        },
        Variant {
            staged_last_unstaged: true,
            ..e
        },
        Variant {
            interleaved_fallback_row_major: true,
            ..e
        },
        Variant {
            head_one_short: true,
            ..e
        },
    ]
}

#[test]
fn kernels_compile_without_contraction() {
    let _device = one_at_a_time();
    if !nvrtc_or_skip("kernels_compile_without_contraction") {
        return;
    }
    for v in variants() {
        let ptx = gpu::compile(&v.defines(), "compute_90").unwrap().to_src();
        for k in [
            "fvif_filter_dec_v",
            "fvif_filter_dec_h",
            "fvif_vertical5",
            "fvif_compute",
            "fvif_row_sums",
            "fvif_tree_sums",
        ] {
            assert!(
                ptx.contains(&format!(".entry {k}(")),
                "{:?}: no entry {k}",
                v.defines()
            );
        }
        for k in [
            "fvif_row_sums_binade",
            "fvif_row_sums_binade_pairs",
            "fvif_row_sums_binade_warp",
            "fvif_row_sums_binade_paired",
            "fvif_row_sums_binade_staged",
            "fvif_row_sums_binade_interleaved",
            "fvif_row_sums_binade_headed",
        ] {
            assert!(
                ptx.contains(&format!(".entry {k}(")),
                "{:?}: no row-parallel sum {k}",
                v.defines()
            );
        }
        if !v.device_log2 {
            // the device log2f is libdevice's and may fuse; nothing of ours may
            assert!(
                !ptx.contains("fma.rn"),
                "{:?}: the PTX contains a fused multiply-add",
                v.defines()
            );
            assert!(
                !ptx.contains("lg2.approx"),
                "{:?}: the PTX calls the hardware log2",
                v.defines()
            );
        }
        for inexact in ["div.approx", "div.full", "rcp.approx"] {
            assert!(
                !ptx.contains(inexact),
                "{:?}: the PTX contains {inexact}",
                v.defines()
            );
        }
        assert!(
            ptx.contains("div.rn.f32"),
            "{:?}: no correctly rounded fp32 division",
            v.defines()
        );
    }
}

fn fixture(name: &str, w: usize, h: usize, bpc: u32) -> (Image, Image) {
    let dir = binade::fixtures::project_root().join("fixtures/vif");
    binade::vif::fixtures::committed_pair(&dir, name, w, h, bpc).unwrap()
}

#[test]
fn exact_twins_equal_the_cpu_on_fixture_frames() {
    let _device = one_at_a_time();
    let mut g = match VifGpu::open() {
        Ok(g) => g,
        Err(e) => {
            skip(
                "exact_twins_equal_the_cpu_on_fixture_frames",
                &e.to_string(),
            );
            return;
        }
    };
    let mut variants: Vec<Variant> = [
        Reduction::Ordered,
        Reduction::Binade,
        Reduction::BinadePairs,
        Reduction::BinadeWarp,
        Reduction::BinadePaired,
        Reduction::BinadeStaged,
        Reduction::BinadeInterleaved,
        Reduction::BinadeHeaded,
    ]
    .map(Variant::exact)
    .to_vec();
    variants.extend(
        [
            Reduction::Ordered,
            Reduction::BinadePaired,
            Reduction::BinadeInterleaved,
            Reduction::BinadeHeaded,
        ]
        .map(Variant::beside),
    );
    let d = VifOptions::default();
    let option_sets = [
        d,
        VifOptions {
            skip_scale0: true,
            sigma_nsq: 0.5,
            enhn_gain_limit: 1.0,
            ..d
        },
        VifOptions {
            kernelscale: 360.0 / 97.0,
            ..d
        },
    ];
    for (name, w, h, bpc) in [
        ("nat8", 96, 64, 8),
        ("nat10", 101, 67, 10),
        ("nat16", 104, 59, 16),
        ("checker8", 96, 64, 8),
    ] {
        let (r, dd) = fixture(name, w, h, bpc);
        for opts in option_sets {
            let want = scale_sums(&r, &dd, &opts).unwrap();
            for v in &variants {
                let red = (v.reduction, v.sums_beside);
                let got = g.scale_sums(&r, &dd, &opts, v).unwrap();
                for (s, cpu) in want.iter().enumerate().skip(opts.first_scale()) {
                    assert_eq!(
                        got.num[s].to_bits(),
                        f64::from(cpu.num).to_bits(),
                        "{name} {opts:?} {red:?} scale {s} num"
                    );
                    assert_eq!(
                        got.den[s].to_bits(),
                        f64::from(cpu.den).to_bits(),
                        "{name} {opts:?} {red:?} scale {s} den"
                    );
                }
            }
        }
    }
}

/// The warp walk's own shortcut broken (`FVIF_WARP_RUN_END_UNCHECKED`: a composed run applied
/// without checking that it stays in its binade) gives a scale sum other than the CPU's on the
/// fixture frames.
#[test]
fn warp_walk_mutant_gives_wrong_sums() {
    let _device = one_at_a_time();
    killed(
        "warp_walk_mutant_gives_wrong_sums",
        Variant {
            warp_run_end_unchecked: true,
            ..Variant::exact(Reduction::BinadeWarp)
        },
        "warp walk, run end unchecked",
    );
}

/// The paired rows' own shortcut broken (`FVIF_PAIRED_UNITS_CROSSED`: the den row walked with
/// the num row's units) gives a scale sum other than the CPU's on the fixture frames.
#[test]
fn paired_rows_mutant_gives_wrong_sums() {
    let _device = one_at_a_time();
    killed(
        "paired_rows_mutant_gives_wrong_sums",
        Variant {
            paired_units_crossed: true,
            ..Variant::exact(Reduction::BinadePaired)
        },
        "paired rows, units crossed",
    );
}

/// A plan mutant of the paired rows (`FVIF_PAIRED_PLANS_CROSSED`: the den row walked on the num
/// row's plan) keeps the CPU's bits on the fixture frames: the walk composes only units planned
/// for its sum's binade. (As a wrong-sum mutant it survived on the H200 at fcadd8d.)
#[test]
fn paired_rows_plan_mutant_keeps_the_cpu_bits() {
    let _device = one_at_a_time();
    let v = Variant {
        paired_plans_crossed: true,
        ..Variant::exact(Reduction::BinadePaired)
    };
    if let Some(wrong) = first_wrong("paired_rows_plan_mutant_keeps_the_cpu_bits", v) {
        assert!(
            wrong.is_none(),
            "the plan mutant changed a sum: {}",
            wrong.unwrap()
        );
    }
}

/// The staged rows' own shortcut broken (`FVIF_STAGED_LAST_UNSTAGED`: the copy into shared
/// memory stops one term short, the row's last term read as +0) gives a scale sum other than
/// the CPU's on the fixture frames.
#[test]
fn staged_rows_mutant_gives_wrong_sums() {
    let _device = one_at_a_time();
    killed(
        "staged_rows_mutant_gives_wrong_sums",
        Variant {
            staged_last_unstaged: true,
            ..Variant::exact(Reduction::BinadeStaged)
        },
        "staged rows, last term unstaged",
    );
}

/// The interleaved rows' own shortcut broken (`FVIF_INTERLEAVED_FALLBACK_ROW_MAJOR`: the walk's
/// term-by-term adds read a segment as if its row were row by row) gives a scale sum other
/// than the CPU's on the fixture frames.
#[test]
fn interleaved_rows_mutant_gives_wrong_sums() {
    let _device = one_at_a_time();
    killed(
        "interleaved_rows_mutant_gives_wrong_sums",
        Variant {
            interleaved_fallback_row_major: true,
            ..Variant::exact(Reduction::BinadeInterleaved)
        },
        "interleaved rows, fallback read row by row",
    );
}

/// The sums beside the next scale's filters wait for their scale's terms: with the terms
/// poisoned (NaN) and the frame's stream held for 100 ms before the frame
/// (`VifGpu::poison_terms_and_hold`), the correct launch gives the CPU's bits on the fixture
/// frames, and the mutant whose second stream does not wait (`Variant::sums_unwaited`)
/// reads the poison and gives a wrong sum.
#[test]
fn sums_beside_wait_for_their_terms_and_the_mutant_is_killed() {
    let _device = one_at_a_time();
    let v = Variant::beside(Reduction::BinadePaired);
    if let Some(wrong) = first_wrong("sums_beside_wait_for_their_terms", v) {
        assert!(wrong.is_none(), "sums beside: {}", wrong.unwrap());
    }
    killed(
        "sums_beside_unwaited_gives_wrong_sums",
        Variant {
            sums_unwaited: true,
            ..v
        },
        "sums beside, unwaited",
    );
}

/// The staged rows on rows wider than the 48 KiB of shared memory a kernel has without asking
/// (8,200 terms: 65,600 bytes for a row of num and of den; `vif::gpu::staged_bytes`) and on
/// an odd width, every scale's sums against the CPU reference's by bits, beside the paired
/// rows: the launch raises the kernel's limit, and the copy covers the whole row.
#[test]
fn staged_rows_equal_the_cpu_on_wide_rows() {
    let _device = one_at_a_time();
    let mut g = match VifGpu::open() {
        Ok(g) => g,
        Err(e) => {
            skip("staged_rows_equal_the_cpu_on_wide_rows", &e.to_string());
            return;
        }
    };
    assert!(gpu::staged_bytes(8200) > 48 * 1024);
    let opts = VifOptions::default();
    for (w, h, seed) in [(8200usize, 64usize, 2026u64), (4097, 67, 7)] {
        let (r, d) = binade::vif::synth::natural_pair(w, h, 8, seed).unwrap();
        let (r, d) = (r.to_image(), d.to_image());
        let want = scale_sums(&r, &d, &opts).unwrap();
        for red in [
            Reduction::BinadePaired,
            Reduction::BinadeStaged,
            Reduction::BinadeInterleaved,
        ] {
            let got = g.scale_sums(&r, &d, &opts, &Variant::exact(red)).unwrap();
            assert_eq!(
                got.first_scale_unlike(&want),
                None,
                "{w}x{h} seed {seed} {red:?}: the GPU's {got:?}, the CPU's {want:?}"
            );
        }
    }
}

/// The headed rows' own shortcut broken (`FVIF_HEAD_ONE_SHORT`: the head's last term never
/// added while the walk starts after it) gives a scale sum other than the CPU's on the fixture
/// frames.
#[test]
fn headed_rows_mutant_gives_wrong_sums() {
    let _device = one_at_a_time();
    killed(
        "headed_rows_mutant_gives_wrong_sums",
        Variant {
            head_one_short: true,
            ..Variant::exact(Reduction::BinadeHeaded)
        },
        "headed rows, head one term short",
    );
}

/// The headed rows for every kind of head: none (0), one segment, a few, the default
/// ([`gpu::HEAD_SEGMENTS`]), more than a chunk of terms, and the whole row (every segment, so
/// the walk has nothing left), on a wide row (8,200 terms: 65 a segment, up to 8,200 terms in
/// the head, 65 chunks of 128), an odd width and the fixture size (one term a segment, the
/// last 32 segments empty); every scale's sums against the CPU reference's by bits, beside and
/// not beside.
#[test]
fn headed_rows_equal_the_cpu_for_every_head() {
    let _device = one_at_a_time();
    let mut g = match VifGpu::open() {
        Ok(g) => g,
        Err(e) => {
            skip("headed_rows_equal_the_cpu_for_every_head", &e.to_string());
            return;
        }
    };
    let opts = VifOptions::default();
    for (w, h, seed) in [(8200usize, 16usize, 2026u64), (4097, 67, 7), (96, 64, 11)] {
        let (r, d) = binade::vif::synth::natural_pair(w, h, 8, seed).unwrap();
        let (r, d) = (r.to_image(), d.to_image());
        let want = scale_sums(&r, &d, &opts).unwrap();
        for head in [0, 1, 3, gpu::HEAD_SEGMENTS, 16, 127, gpu::SEGMENTS] {
            for v in [Variant::exact, Variant::beside].map(|f| Variant {
                head,
                ..f(Reduction::BinadeHeaded)
            }) {
                let got = g.scale_sums(&r, &d, &opts, &v).unwrap();
                assert_eq!(
                    got.first_scale_unlike(&want),
                    None,
                    "{w}x{h} seed {seed} head {head} beside {}: the GPU's {got:?}, the CPU's {want:?}",
                    v.sums_beside
                );
            }
        }
    }
}

/// Mutant `v` (named `what`) gives a scale sum other than the CPU's on the fixture frames;
/// after a skip (no device; a failure under `BINADE_REQUIRE_GPU=1`) nothing is checked.
fn killed(test: &str, v: Variant, what: &str) {
    if let Some(wrong) = first_wrong(test, v) {
        let wrong =
            wrong.unwrap_or_else(|| panic!("the mutant {what} survived the fixture frames"));
        println!("killed: {what}: {wrong}");
    }
}

/// `vif::gpu::first_wrong_scale` of `v` on the committed fixture frames; `None` after a skip
/// (no device; a failure under `BINADE_REQUIRE_GPU=1`).
fn first_wrong(test: &str, v: Variant) -> Option<Option<String>> {
    let mut g = match VifGpu::open() {
        Ok(g) => g,
        Err(e) => {
            skip(test, &e.to_string());
            return None;
        }
    };
    let dir = binade::fixtures::project_root().join("fixtures/vif");
    Some(gpu::first_wrong_scale(&mut g, &v, &dir).unwrap())
}
