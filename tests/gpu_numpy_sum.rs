//! `np.sum`'s bits on the device (`binade::gpu::numpy_sum`): the kernels compile with NVRTC
//! for both term types and every mutant (no device needed); on a device every sum equals
//! numpy's own results (`tests/data/numpy_sum.csv`) and the `numpy` order's loop
//! (`order::loop_sum_in`) in bits, NaN as NaN, for every input kind at sizes around every
//! leaf, tile and level boundary, identically over repeated launches; each of the kernels'
//! named mutants gives a wrong sum on some input. Without NVRTC or a device the tests print
//! `skipped: REASON`; with `BINADE_REQUIRE_GPU=1` (the GPU machine) they fail instead.

use binade::format::{same_result, Format, F32, F64};
use binade::gpu::numpy_sum::{
    compile_for, first_wrong, kill_cases, level_bound, GpuNumpySum, LeafLoads, NumpyMutant,
    NumpyTerm, RowLoads, TileGrid,
};
use binade::gpu::require::{nvrtc_or_skip, open_or_skip};
use binade::gpu::Gpu;
use binade::order::{loop_sum_in, CpuOrder, NUMPY_BLOCK};
use binade::verify::inputs::InputKind;
use binade::verify::numpy_fixture;

const SEED: u64 = 0x0b5a_0001;

/// Sizes on both sides of numpy's leaf and lanes, of the level-1 tile and of level 2's bound,
/// and two large ones.
fn sizes() -> Vec<usize> {
    let leaf = NUMPY_BLOCK;
    let (t1, t2) = (level_bound(1) as usize, level_bound(2) as usize);
    let mut v = vec![0, 1, 2, 7, 8, 9, 15, 16, 17, 100];
    for edge in [leaf, 2 * leaf, t1 / 2, t1, 2 * t1, t2 / 2, t2] {
        v.extend([edge - 1, edge, edge + 1, edge + 7, edge + 8]);
    }
    v.extend([1000, 100_003, 3 * t2 + 12_345, 8_294_400, 10_000_019]);
    v
}

/// Kinds summed at every size; the others up to this many terms.
const ALL_KINDS_UP_TO: usize = 1 << 17;
const LARGE_KINDS: [InputKind; 4] = [
    InputKind::Uniform,
    InputKind::LogUniform,
    InputKind::Negatives,
    InputKind::Specials,
];

fn bits<F: Format>(x: F::Value) -> u64 {
    F::to_bits(x)
}

/// The device's sum and the order's loop over `terms`, or the case described where they
/// differ.
fn compare<F: Format>(s: &GpuNumpySum<F::Value>, terms: &[F::Value], case: &str) -> Option<String>
where
    F::Value: NumpyTerm,
{
    let got = s.sum_of(terms).unwrap_or_else(|e| panic!("{case}: {e:#}"));
    let want = loop_sum_in::<F>(terms, CpuOrder::Numpy);
    (!same_result::<F>(bits::<F>(got), bits::<F>(want))).then(|| {
        format!(
            "{case}: device {:#x}, numpy's order {:#x}",
            bits::<F>(got),
            bits::<F>(want)
        )
    })
}

/// One variant of the device's sum: leaf loads, row loads, level 1's grid and the fan.
type Variant = (LeafLoads, RowLoads, TileGrid, u32);

/// The variants checked: the default, then each choice changed alone.
fn variants(f64_terms: bool) -> Vec<Variant> {
    let mut v = vec![
        (LeafLoads::Single, RowLoads::InTurn, TileGrid::PerPoint, 10),
        (
            LeafLoads::Single,
            RowLoads::AllFirst,
            TileGrid::PerPoint,
            10,
        ),
        (LeafLoads::Single, RowLoads::InTurn, TileGrid::Resident, 10),
        (LeafLoads::Single, RowLoads::InTurn, TileGrid::PerPoint, 11),
    ];
    if f64_terms {
        v.push((LeafLoads::Paired, RowLoads::InTurn, TileGrid::PerPoint, 10));
        v.push((
            LeafLoads::Paired,
            RowLoads::AllFirst,
            TileGrid::PerPoint,
            10,
        ));
    }
    v
}

fn every_kind_and_size<F: Format>(gpu: &Gpu, name: &str, variant: Variant)
where
    F::Value: NumpyTerm,
{
    let (loads, rows, grid, fan) = variant;
    let s = GpuNumpySum::<F::Value>::with_build(gpu, NumpyMutant::None, loads, rows)
        .unwrap()
        .with_grid(grid)
        .with_fan(fan);
    let mut sums = 0;
    for n in sizes() {
        for kind in InputKind::ALL {
            if n > ALL_KINDS_UP_TO && !LARGE_KINDS.contains(&kind) {
                continue;
            }
            let seed = SEED ^ n as u64;
            let terms = kind.generate::<F>(n, seed);
            let case = format!("{name} {loads:?} seed {seed:#x} kind {} n {n}", kind.name());
            if let Some(wrong) = compare::<F>(&s, &terms, &case) {
                panic!("{wrong}");
            }
            sums += 1;
        }
    }
    assert!(sums > 500, "{sums} sums");
}

#[test]
fn kernels_compile_for_both_types_and_every_mutant() {
    if !nvrtc_or_skip("kernels_compile_for_both_types_and_every_mutant") {
        return;
    }
    for m in NumpyMutant::ALL {
        for rows in [RowLoads::InTurn, RowLoads::AllFirst] {
            for loads in [LeafLoads::Single, LeafLoads::Paired] {
                compile_for::<f64>("sm_90", m, loads, rows)
                    .unwrap_or_else(|e| panic!("f64 {loads:?} {rows:?} {}: {e:#}", m.name()));
            }
            compile_for::<f32>("sm_90", m, LeafLoads::Single, rows)
                .unwrap_or_else(|e| panic!("f32 {rows:?} {}: {e:#}", m.name()));
        }
    }
}

#[test]
fn every_f64_sum_is_numpys_order() {
    if let Some(gpu) = open_or_skip("every_f64_sum_is_numpys_order") {
        for v in variants(true) {
            every_kind_and_size::<F64>(&gpu, "f64", v);
        }
    }
}

#[test]
fn every_f32_sum_is_numpys_order() {
    if let Some(gpu) = open_or_skip("every_f32_sum_is_numpys_order") {
        for v in variants(false) {
            every_kind_and_size::<F32>(&gpu, "f32", v);
        }
    }
}

/// The device against numpy itself: every row of numpy's results, f64 and f32.
#[test]
fn sums_equal_numpys_own_results() {
    let Some(gpu) = open_or_skip("sums_equal_numpys_own_results") else {
        return;
    };
    let (s64, s32) = (
        GpuNumpySum::<f64>::new(&gpu).unwrap(),
        GpuNumpySum::<f32>::new(&gpu).unwrap(),
    );
    let rows = numpy_fixture::rows().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(rows.len(), numpy_fixture::ROWS);
    for row in &rows {
        let terms = numpy_fixture::stream(&row.kind, row.seed, row.n)
            .unwrap_or_else(|| panic!("unknown stream kind {}", row.kind));
        let got = match row.dtype.as_str() {
            "f64" => s64.sum_of(&terms).unwrap().to_bits(),
            "f32" => {
                let t: Vec<f32> = terms.iter().map(|&x| x as f32).collect();
                u64::from(s32.sum_of(&t).unwrap().to_bits())
            }
            d => panic!("unknown dtype {d}"),
        };
        assert_eq!(
            got, row.sum_bits,
            "{} {} seed {} n {}: device {got:#x}, np.sum {:#x} ({})",
            row.dtype, row.kind, row.seed, row.n, row.sum_bits, row.numpy
        );
    }
}

/// Launches of one work area repeat bit for bit.
#[test]
fn repeated_launches_repeat_the_bits() {
    let Some(gpu) = open_or_skip("repeated_launches_repeat_the_bits") else {
        return;
    };
    let s = GpuNumpySum::<f64>::new(&gpu).unwrap();
    let n = 10_000_019;
    let terms = InputKind::LogUniform.generate::<F64>(n, SEED);
    let dev = gpu.stream().clone_htod(&terms).unwrap();
    let view = dev.slice(0..n);
    let mut work = s.work(n as u64).unwrap();
    let mut seen = Vec::new();
    for _ in 0..5 {
        s.launch(&view, &mut work).unwrap();
        seen.push(s.result(&work).unwrap().to_bits());
    }
    assert!(
        seen.iter().all(|&b| b == seen[0]),
        "seed {SEED:#x} log-uniform n {n}: {seen:x?}"
    );
    assert_eq!(
        seen[0],
        loop_sum_in::<F64>(&terms, CpuOrder::Numpy).to_bits()
    );
}

/// Each named mutant of the kernels gives a wrong f64 sum on some input, and the correct
/// build on none of them.
#[test]
fn every_mutant_gives_a_wrong_sum() {
    let Some(gpu) = open_or_skip("every_mutant_gives_a_wrong_sum") else {
        return;
    };
    let cases = kill_cases(SEED);
    for loads in [LeafLoads::Single, LeafLoads::Paired] {
        for m in NumpyMutant::ALL
            .into_iter()
            .filter(|m| m.builds_with(loads))
        {
            let s = GpuNumpySum::<f64>::with_options(&gpu, m, loads).unwrap();
            let (_, wrong) = first_wrong(&s, &cases).unwrap();
            if m == NumpyMutant::None {
                assert!(
                    wrong.is_none(),
                    "the correct {loads:?} build: {}",
                    wrong.unwrap_or_default()
                );
            } else {
                let found = wrong.unwrap_or_else(|| {
                    panic!(
                        "{loads:?} mutant {}: numpy's bits on every kill case",
                        m.name()
                    )
                });
                println!("{loads:?} mutant {} killed: {found}", m.name());
            }
        }
    }
}

/// The paired build on terms that are not 16-byte aligned (a view one term into an
/// allocation) falls back to single loads and keeps numpy's bits.
#[test]
fn paired_build_on_unaligned_terms_keeps_the_bits() {
    let Some(gpu) = open_or_skip("paired_build_on_unaligned_terms_keeps_the_bits") else {
        return;
    };
    let s = GpuNumpySum::<f64>::with_options(&gpu, NumpyMutant::None, LeafLoads::Paired).unwrap();
    let n = 1_000_003;
    let terms = InputKind::Uniform.generate::<F64>(n + 1, SEED);
    let dev = gpu.stream().clone_htod(&terms).unwrap();
    for start in [0, 1] {
        let got = s.sum_device(&dev.slice(start..start + n)).unwrap();
        let want = loop_sum_in::<F64>(&terms[start..start + n], CpuOrder::Numpy);
        assert_eq!(
            got.to_bits(),
            want.to_bits(),
            "seed {SEED:#x} uniform n {n} from term {start}"
        );
    }
}
