//! The device term header compiled for the host (`kernels/ssimulacra2_host.cpp`) against the
//! Rust terms, bit for bit, on every scale of the small fixtures and of one 4:2:0 577x323 pair.

use binade::fixtures::{self, project_root, Dirs};
use binade::ssimulacra2::{self, host, layout, terms::TERM_NAMES, yuv};

#[test]
fn host_header_terms_equal_rust_terms_by_bits() {
    let root = project_root();
    let dirs = Dirs {
        cache: None,
        ..Dirs::under(&root)
    };
    let names = [
        "random-8x8",
        "random-9x17",
        "random-33x31",
        "random-40x24-bt601-full",
        "random-36x20-bt2020-full-10bit",
        "random-64x48-422-10bit",
        "random-65x47-444-12bit",
        "random-577x323",
    ];
    let mut checked = 0u64;
    for name in names {
        let f = fixtures::load(&root.join("fixtures").join(format!("{name}.toml")), &dirs).unwrap();
        for (frame, (a, b)) in f.pairs.iter().enumerate() {
            ssimulacra2::for_each_scale(yuv::to_linear_rgb(a), yuv::to_linear_rgb(b), |scale| {
                let n = scale.width * scale.height;
                let want = layout::reference_terms(scale);
                let got = host::host_terms(&layout::pack_planes(scale), n, 3).unwrap();
                assert_eq!(
                    got.len(),
                    want.len(),
                    "{name} frame {frame} scale {}: the host header gave {} terms, the reference {}",
                    scale.scale,
                    got.len(),
                    want.len()
                );
                for (j, (g, w)) in got.iter().zip(&want).enumerate() {
                    let (plane, i) = (j / n, j % n);
                    assert_eq!(
                        g.to_bits(),
                        w.to_bits(),
                        "{name} (seed {}) frame {frame} scale {} channel {} term {} pixel {i}: {g:e} against {w:e}",
                        f.manifest.seed,
                        scale.scale,
                        plane / 6,
                        TERM_NAMES[plane % 6]
                    );
                }
                checked += got.len() as u64;
                Ok(())
            })
            .unwrap();
        }
    }
    println!("{checked} terms identical");
    assert!(checked > 1_000_000);
}
