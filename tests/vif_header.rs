//! The device header `kernels/float_vif.cuh`, compiled for the host, against the Rust
//! reference: `log2f_approx` and the statistic on millions of inputs, the filter and row-sum
//! kernels' bodies on the fixture frames, and the binade row sums (the fast segment units and
//! the pair composition) against the ordered loop, with each fast-unit mutant killed. Every
//! comparison is of bits.

use binade::vif::fast_unit_kill::{first_wrong_row, row_cases};
use binade::vif::filter::Image;
use binade::vif::host::{self, FastUnitMutant, RowSum, SegmentUnits};
use binade::vif::log2::log2f_approx;
use binade::vif::reference::scale_sums;
use binade::vif::stat::{pixel_terms, row_sum, Moments, StatParams};
use binade::vif::VifOptions;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

const SEED: u64 = 0x0f1a_7f1f;

#[test]
fn log2_header_equals_reference_on_a_sweep_of_all_bit_patterns() {
    let inputs: Vec<f32> = (0..=u32::MAX).step_by(251).map(f32::from_bits).collect();
    let got = host::log2_approx_batch(&inputs);
    for (x, g) in inputs.iter().zip(&got) {
        assert_eq!(
            g.to_bits(),
            log2f_approx(*x).to_bits(),
            "x bits {:08x}",
            x.to_bits()
        );
    }
    assert!(inputs.len() > 17_000_000);
    assert_eq!(
        host::log2_approx(0.0).to_bits(),
        log2f_approx(0.0).to_bits()
    );
}

#[test]
fn log2_header_equals_reference_on_the_statistics_range() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(SEED);
    let inputs: Vec<f32> = (0..4_000_000)
        .map(|_| 1.0 + rng.random::<f32>() * rng.random_range(0.0..1.0e6_f32))
        .collect();
    let got = host::log2_approx_batch(&inputs);
    for (k, (x, g)) in inputs.iter().zip(&got).enumerate() {
        assert_eq!(
            g.to_bits(),
            log2f_approx(*x).to_bits(),
            "seed {SEED:#x} sample {k}: x {x:e}"
        );
    }
}

/// Moments of one pixel in one of several regimes.
fn moments(rng: &mut Xoshiro256PlusPlus) -> [f32; 5] {
    match rng.random_range(0..6) {
        0 => {
            // realistic: means in [-128, 128], variances and a correlation
            let mu1: f32 = rng.random_range(-128.0..128.0);
            let mu2: f32 = mu1 + rng.random_range(-20.0..20.0);
            let v1: f32 = rng.random_range(0.0..3000.0_f32).powi(2) / 3000.0;
            let v2: f32 = rng.random_range(0.0..3000.0_f32).powi(2) / 3000.0;
            let c: f32 = rng.random_range(-1.0..1.0_f32) * (v1 * v2).sqrt();
            [mu1, mu2, mu1 * mu1 + v1, mu2 * mu2 + v2, mu1 * mu2 + c]
        }
        1 => {
            // identical frames
            let mu: f32 = rng.random_range(-128.0..128.0);
            let v: f32 = rng.random_range(0.0..50.0);
            [mu, mu, mu * mu + v, mu * mu + v, mu * mu + v]
        }
        2 => {
            // variances near eps and near sigma_nsq
            let mu1: f32 = rng.random_range(-4.0..4.0);
            let mu2: f32 = rng.random_range(-4.0..4.0);
            let e = |r: &mut Xoshiro256PlusPlus| r.random_range(-1.0e-9..3.0_f32);
            [
                mu1,
                mu2,
                mu1 * mu1 + e(rng),
                mu2 * mu2 + e(rng),
                mu1 * mu2 + e(rng),
            ]
        }
        3 => {
            // flat reference, busy distorted (negative numerator terms)
            let mu1: f32 = rng.random_range(-128.0..128.0);
            let mu2: f32 = rng.random_range(-128.0..128.0);
            [
                mu1,
                mu2,
                mu1 * mu1,
                mu2 * mu2 + rng.random_range(0.0..40000.0),
                mu1 * mu2,
            ]
        }
        4 => {
            // large gains: tiny sigma1, strong covariance
            let mu1: f32 = rng.random_range(-10.0..10.0);
            let mu2: f32 = rng.random_range(-10.0..10.0);
            let v1: f32 = rng.random_range(1.0e-10..1.0e-3);
            [
                mu1,
                mu2,
                mu1 * mu1 + v1,
                mu2 * mu2 + rng.random_range(0.0..100.0),
                mu1 * mu2 + rng.random_range(-5.0..5.0),
            ]
        }
        _ => {
            // any finite bit patterns
            let mut f = || loop {
                let x = f32::from_bits(rng.random::<u32>());
                if x.is_finite() {
                    return x;
                }
            };
            [f(), f(), f(), f(), f()]
        }
    }
}

#[test]
fn statistic_header_equals_reference_on_millions_of_pixels() {
    let params = [
        (100.0, 2.0),
        (1.0, 2.0),
        (3.5, 0.5),
        (100.0, 4.5),
        (2.0, 1.25),
        (100.0, 0.0),
        (100.0, 1.0e-3),
    ];
    for (pi, &(egl, snsq)) in params.iter().enumerate() {
        let seed = SEED ^ pi as u64;
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let m: Vec<[f32; 5]> = (0..1_000_000).map(|_| moments(&mut rng)).collect();
        let p = StatParams::new(egl, snsq);
        let (num, den) = host::pixel_terms_batch(&m, &p);
        for (k, q) in m.iter().enumerate() {
            let want = pixel_terms(
                Moments {
                    mu1: q[0],
                    mu2: q[1],
                    xx: q[2],
                    yy: q[3],
                    xy: q[4],
                },
                &p,
            );
            assert!(
                num[k].to_bits() == want.0.to_bits() && den[k].to_bits() == want.1.to_bits(),
                "seed {seed:#x} sample {k}: moments {q:?}, egl {egl}, snsq {snsq}: header ({:e}, {:e}), reference ({:e}, {:e})",
                num[k],
                den[k],
                want.0,
                want.1
            );
        }
    }
}

fn fixture(name: &str, w: usize, h: usize, bpc: u32) -> (Image, Image) {
    let dir = binade::fixtures::project_root().join("fixtures/vif");
    binade::vif::fixtures::committed_pair(&dir, name, w, h, bpc).unwrap()
}

fn option_sets() -> Vec<VifOptions> {
    let d = VifOptions::default();
    vec![
        d,
        VifOptions {
            enhn_gain_limit: 1.0,
            sigma_nsq: 0.5,
            ..d
        },
        VifOptions {
            skip_scale0: true,
            min_val: [0.9, 0.95, 0.99],
            ..d
        },
        VifOptions {
            kernelscale: 2.0,
            ..d
        },
        VifOptions {
            kernelscale: 360.0 / 97.0,
            ..d
        },
    ]
}

#[test]
fn host_pipeline_equals_reference_on_fixture_frames() {
    let frames = [
        ("nat8", 96, 64, 8),
        ("nat10", 101, 67, 10),
        ("nat12", 97, 72, 12),
        ("nat16", 104, 59, 16),
        ("checker8", 96, 64, 8),
    ];
    assert!(
        host::has_binade(),
        "build.rs compiles kernels/float_vif.cuh with the binade algebra"
    );
    let variants = [
        RowSum::Ordered,
        RowSum::Binade(1),
        RowSum::Binade(7),
        RowSum::Binade(128),
        RowSum::BinadePairs(7),
        RowSum::BinadePairs(128),
    ];
    for (name, w, h, bpc) in frames {
        let (r, d) = fixture(name, w, h, bpc);
        for opts in option_sets() {
            let want = scale_sums(&r, &d, &opts).unwrap();
            for &v in &variants {
                let got = host::scale_sums(&r, &d, &opts, v).unwrap();
                for s in 0..4 {
                    assert!(
                        got[s].num.to_bits() == want[s].num.to_bits()
                            && got[s].den.to_bits() == want[s].den.to_bits(),
                        "{name} {opts:?} {v:?} scale {s}: host {:?}, reference {:?}",
                        got[s],
                        want[s]
                    );
                }
            }
        }
    }
}

#[test]
fn binade_row_sums_equal_the_ordered_loop() {
    assert!(
        host::has_binade(),
        "build.rs compiles kernels/float_vif.cuh with the binade algebra"
    );
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(SEED);
    let (mut segments, mut fell_back) = (0u64, 0u64);
    for case in 0..400 {
        let w = rng.random_range(1..5000);
        let h = rng.random_range(1..4);
        let nseg = [1, 3, 32, 128, 256][case % 5];
        let kind = case % 4;
        let terms: Vec<f32> = (0..w * h)
            .map(|_| match kind {
                0 => rng.random_range(0.0..2.0_f32),
                1 => rng.random_range(0.0..1.0_f32).powi(8) * 1.0e3,
                2 => {
                    if rng.random_bool(0.05) {
                        -rng.random_range(0.0..1.0_f32)
                    } else {
                        rng.random_range(0.0..1.0_f32)
                    }
                }
                _ => f32::from_bits(rng.random_range(0..0x4000_0000_u32)),
            })
            .collect();
        let (rows, fb) = host::row_sums_binade(&terms, w, h, nseg).unwrap();
        if kind == 0 {
            segments += (h * nseg) as u64;
            fell_back += fb;
        }
        for i in 0..h {
            let want = row_sum(&terms[i * w..(i + 1) * w]);
            assert_eq!(
                rows[i].to_bits(),
                want.to_bits(),
                "seed {SEED:#x} case {case} (w {w}, nseg {nseg}, kind {kind}) row {i}"
            );
        }
    }
    // the units must carry most segments of positive rows, or the test only exercised the fallback
    assert!(
        fell_back * 2 < segments,
        "{fell_back} of {segments} segments fell back"
    );
}

#[test]
fn host_pipeline_equals_reference_on_experiment_frames() {
    use binade::vif::fixtures::{standard, Counts};
    let sets = standard(
        Counts {
            sd8: 1,
            sd_deep: 1,
            checker: 1,
            uhd: 0,
        },
        20261130,
    );
    let opts = VifOptions::default();
    for set in sets.iter().filter(|s| {
        s.name.contains("8-bit") || s.name.contains("16-bit") || s.name.contains("shifted")
    }) {
        let (r, d) = set.frame(0).unwrap();
        let (ri, di) = (r.to_image(), d.to_image());
        let want = scale_sums(&ri, &di, &opts).unwrap();
        let got = host::scale_sums(&ri, &di, &opts, RowSum::Ordered).unwrap();
        for (s, (g, w)) in got.iter().zip(&want).enumerate() {
            assert_eq!(
                g.num.to_bits(),
                w.num.to_bits(),
                "{} frame 0 scale {s} num",
                set.name
            );
            assert_eq!(
                g.den.to_bits(),
                w.den.to_bits(),
                "{} frame 0 scale {s} den",
                set.name
            );
        }
    }
}

/// Every row of `fast_unit_kill::row_cases` (ties, negatives, subnormals, many binades) has the
/// loop's bits with the fast units and with the pair composition; the units carry most
/// segments; each fast-unit mutant gives a wrong row sum.
#[test]
fn fast_segment_units_equal_the_loop_and_kill_their_mutants() {
    assert!(
        host::has_binade(),
        "build.rs compiles kernels/float_vif.cuh with the binade algebra"
    );
    let cases = row_cases(SEED);
    for units in [SegmentUnits::Fast, SegmentUnits::Pairs] {
        let (rows, segments, fell, wrong) = first_wrong_row(units, &cases).unwrap();
        assert!(wrong.is_none(), "{units:?}: {}", wrong.unwrap());
        assert!(
            fell * 2 < segments,
            "{units:?}: {fell} of {segments} segments fell back: the units were hardly used"
        );
        println!("{units:?}: {rows} rows, {fell} of {segments} segments term by term");
    }
    for m in FastUnitMutant::ALL {
        let (_, _, _, wrong) = first_wrong_row(SegmentUnits::FastMutant(m), &cases).unwrap();
        assert!(wrong.is_some(), "{} survived (seed {SEED:#x})", m.name());
        println!("killed: {}: {}", m.name(), wrong.unwrap());
    }
}
