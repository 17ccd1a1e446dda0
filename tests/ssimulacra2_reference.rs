//! The CPU reference: committed expected bits on small fixtures (regression pins: written by
//! the reference itself, they catch a change of its bits, not an error it always made), the
//! separation of terms and sums, independence from the thread count, and agreement with the
//! `ssimulacra2` crate (an independent implementation).

use std::fmt::Write as _;
use std::fs;
use std::path::PathBuf;

use binade::fixtures::project_root;
use binade::fixtures::{self, Dirs, Fixture};
use binade::ssimulacra2::{self, compare, sums, terms, yuv, FrameSums};

/// Small fixtures whose expected outputs are committed in `fixtures/expected/`.
const SMALL: [&str; 7] = [
    "random-8x8",
    "random-9x17",
    "random-33x31",
    "random-40x24-bt601-full",
    "random-36x20-bt2020-full-10bit",
    "random-64x48-422-10bit",
    "random-65x47-444-12bit",
];

/// Set to write the expected files instead of checking them (after a deliberate change).
const BLESS_ENV: &str = "BINADE_BLESS_EXPECTED";

fn repo() -> PathBuf {
    project_root()
}

fn load(name: &str) -> Fixture {
    let dirs = Dirs {
        cache: None,
        ..Dirs::under(&repo())
    };
    fixtures::load(&repo().join("fixtures").join(format!("{name}.toml")), &dirs)
        .unwrap_or_else(|e| panic!("{name}: {e:#}"))
}

/// One line per sum, average and score: `frame,key,bits,value`.
fn expected_lines(frame: usize, s: &FrameSums) -> String {
    let mut out = String::new();
    let averages = s.averages();
    for (k, (scale, avgs)) in s.scales.iter().zip(&averages).enumerate() {
        for (c, (sums, avgs)) in scale.sums.iter().zip(avgs).enumerate() {
            for (t, (&sum, &avg)) in sums.iter().zip(avgs).enumerate() {
                let _ = writeln!(
                    out,
                    "{frame},s{k}.c{c}.t{t}.sum,{:016x},{sum:e}",
                    sum.to_bits()
                );
                let _ = writeln!(
                    out,
                    "{frame},s{k}.c{c}.t{t}.avg,{:016x},{avg:e}",
                    avg.to_bits()
                );
            }
        }
    }
    let score = s.score();
    let _ = writeln!(out, "{frame},score,{:016x},{score}", score.to_bits());
    out
}

#[test]
fn reference_matches_committed_bits() {
    let mut blessed = Vec::new();
    for name in SMALL {
        let f = load(name);
        let mut text = String::from("frame,key,bits,value\n");
        for (i, (a, b)) in f.pairs.iter().enumerate() {
            text.push_str(&expected_lines(i, &ssimulacra2::frame_sums(a, b).unwrap()));
        }
        let path = repo().join("fixtures/expected").join(format!("{name}.csv"));
        if std::env::var_os(BLESS_ENV).is_some() {
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(&path, &text).unwrap();
            blessed.push(path.display().to_string());
            continue;
        }
        let want = fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{}: {e} (set {BLESS_ENV}=1 to write it)", path.display()));
        for (line, (got, want)) in text.lines().zip(want.lines()).enumerate() {
            assert_eq!(
                got,
                want,
                "{name}: line {} of {} differs (fixture seed {})",
                line + 1,
                path.display(),
                f.manifest.seed
            );
        }
        assert_eq!(
            text.lines().count(),
            want.lines().count(),
            "{name}: line count"
        );
    }
    // Blessing checks nothing: it must never pass as a check.
    assert!(
        blessed.is_empty(),
        "{BLESS_ENV} is set: wrote {} (regression pins, not independent evidence); run again without it to check them",
        blessed.join(", ")
    );
}

#[test]
fn materialised_terms_add_to_the_fused_sums() {
    for name in SMALL {
        let f = load(name);
        for (i, (a, b)) in f.pairs.iter().enumerate() {
            let (ra, rb) = (yuv::to_linear_rgb(a), yuv::to_linear_rgb(b));
            ssimulacra2::for_each_scale(ra, rb, |planes| {
                for (c, ch) in planes.channels.iter().enumerate() {
                    let fused = sums::sequential_sums(ch);
                    let planes_of_terms = terms::term_planes(ch);
                    for t in 0..terms::TERMS {
                        let s = sums::loop_sum(&planes_of_terms[t]);
                        assert_eq!(
                            s.to_bits(),
                            fused[t].to_bits(),
                            "{name} seed {} frame {i} scale {} channel {c} term {t}",
                            f.manifest.seed,
                            planes.scale
                        );
                        assert!(
                            planes_of_terms[t].iter().all(|x| *x >= 0.0),
                            "{name}: negative term {t}"
                        );
                    }
                }
                Ok(())
            })
            .unwrap();
        }
    }
}

#[test]
fn sums_do_not_depend_on_the_thread_count() {
    let f = load("random-65x47-444-12bit");
    let (a, b) = &f.pairs[0];
    let many = ssimulacra2::frame_sums(a, b).unwrap();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let one = pool.install(|| ssimulacra2::frame_sums(a, b).unwrap());
    let bits = |s: &FrameSums| {
        s.flat_averages()
            .iter()
            .map(|x| x.to_bits())
            .collect::<Vec<_>>()
    };
    assert_eq!(bits(&one), bits(&many));
    assert_eq!(one.score().to_bits(), many.score().to_bits());
}

#[test]
fn scales_stop_below_eight_pixels() {
    let f = load("random-9x17");
    let s = ssimulacra2::frame_sums(&f.pairs[0].0, &f.pairs[0].1).unwrap();
    assert_eq!(s.scales.len(), 1, "9x17 halves to 5x9");
    let f = load("random-33x31");
    let s = ssimulacra2::frame_sums(&f.pairs[0].0, &f.pairs[0].1).unwrap();
    assert_eq!(
        s.scales
            .iter()
            .map(|x| (x.width, x.height))
            .collect::<Vec<_>>(),
        vec![(33, 31), (17, 16), (9, 8)]
    );
}

#[test]
fn identical_frames_score_100() {
    let f = load("random-33x31");
    let s = ssimulacra2::frame_sums(&f.pairs[0].0, &f.pairs[0].0).unwrap();
    assert!(
        s.flat_averages().iter().all(|x| *x == 0.0),
        "{:?}",
        s.flat_averages()
    );
    assert_eq!(s.score(), 100.0);
}

/// The crate computes the same metric with another blur boundary, fused multiply-adds and an
/// `f32` division, so its score is close, not equal: within 0.5 points on a 6-scale image.
#[test]
fn close_to_the_ssimulacra2_crate() {
    let f = load("random-577x323");
    for (i, (a, b)) in f.pairs.iter().enumerate() {
        let ours = ssimulacra2::frame_sums(a, b).unwrap().score();
        let theirs = compare::crate_score(&yuv::to_linear_rgb(a), &yuv::to_linear_rgb(b)).unwrap();
        println!(
            "random-577x323 frame {i}: reference {ours} crate {theirs} difference {:e}",
            ours - theirs
        );
        assert!(
            (ours - theirs).abs() < 0.5,
            "frame {i}: {ours} against {theirs}"
        );
    }
}

/// The crate's XYB and blur with this reference's terms, sums and pooling land on the crate's
/// score, so the difference above comes from the rounding of those two steps (the crate's
/// blur fuses multiply-adds), which the SSIM term's variance `(s11 - mu11) + (s22 - mu22)`
/// amplifies at coarse scales.
#[test]
fn crate_blur_and_xyb_explain_the_difference() {
    let f = load("random-577x323");
    for (i, (a, b)) in f.pairs.iter().enumerate() {
        let (la, lb) = (yuv::to_linear_rgb(a), yuv::to_linear_rgb(b));
        let theirs = compare::crate_score(&la, &lb).unwrap();
        let ours = ssimulacra2::frame_sums(a, b).unwrap().score();
        let mixed = compare::mixed_score(&la, &lb).unwrap();
        println!("frame {i}: reference {ours}, crate {theirs}, crate blur and XYB with reference terms {mixed}");
        assert!(
            (mixed - theirs).abs() < 1e-3,
            "frame {i}: {mixed} against {theirs}"
        );
        assert!((mixed - theirs).abs() < (ours - theirs).abs(), "frame {i}");
    }
}
