//! SSIMULACRA2 on the device: the term kernels compile with NVRTC for sm_90 without any fused
//! multiply-add (needs libnvrtc, not a device), and on a device the terms equal the CPU's bit
//! for bit and the ordered sums (the seed's pipeline and the walked engine, a scale's 18 sums
//! in one launch) and the one-lane sums equal the CPU's sums on every scale of two fixtures. Without the library or device they print `skipped: REASON`; with
//! `BINADE_REQUIRE_GPU=1` (the GPU machine) a missing piece fails them instead.

use binade::fixtures::{self, project_root, Dirs};
use binade::gpu::require::{nvrtc_or_skip, open_or_skip};
use binade::gpu::GpuOrderedSum;
use binade::ssimulacra2::device::{scale_on_device, DeviceTerms, KERNELS, TERMS_HEADER};
use binade::ssimulacra2::terms::TERMS;
use binade::ssimulacra2::{for_each_scale, scale_sums, yuv};

#[test]
fn kernels_compile_with_nvrtc() {
    if !nvrtc_or_skip("kernels_compile_with_nvrtc") {
        return;
    }
    let ptx =
        binade::gpu::compile("ssimulacra2", &[TERMS_HEADER, "\n", KERNELS], &[], "sm_90").unwrap();
    let src = ptx.to_src();
    assert!(
        src.contains("ssimulacra2_terms"),
        "no kernel entry in the PTX"
    );
    assert!(!src.contains("fma."), "the PTX contracts a multiply-add");
}

#[test]
fn device_sums_equal_the_cpu_sums() {
    let Some(gpu) = open_or_skip("device_sums_equal_the_cpu_sums") else {
        return;
    };
    let terms = DeviceTerms::new(&gpu).unwrap();
    let sum = GpuOrderedSum::new(&gpu).unwrap();
    let walked = binade::ssimulacra2::device::walked_engine(&gpu).unwrap();
    let root = project_root();
    let dirs = Dirs {
        cache: None,
        ..Dirs::under(&root)
    };
    let mut scales = 0;
    for name in ["random-65x47-444-12bit", "random-577x323"] {
        let path = root.join("fixtures").join(format!("{name}.toml"));
        let f = fixtures::load(&path, &dirs).unwrap();
        let (a, b) = &f.pairs[0];
        for_each_scale(yuv::to_linear_rgb(a), yuv::to_linear_rgb(b), |s| {
            let cpu = scale_sums(s);
            let d = scale_on_device(&terms, &sum, &walked, s, true, true)?;
            let case = format!("{name} (seed {}) scale {}", f.manifest.seed, s.scale);
            assert_eq!(d.term_mismatches, Some(0), "{case}");
            let bits =
                |v: &[[f64; TERMS]; 3]| v.iter().flatten().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&d.ordered), bits(&cpu.sums), "{case}: ordered");
            assert_eq!(bits(&d.walked), bits(&cpu.sums), "{case}: walked");
            assert_eq!(
                bits(&d.one_lane.unwrap()),
                bits(&cpu.sums),
                "{case}: one lane"
            );
            scales += 1;
            Ok(())
        })
        .unwrap();
    }
    assert!(scales >= 8, "only {scales} scales compared");
}
