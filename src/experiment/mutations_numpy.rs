//! The device's numpy order's own mutants ([`NumpyMutant`]) for the `mutations` kill matrix:
//! each build sums `gpu::numpy_sum::kill_cases`, compared in bits with the numpy order's loop
//! on the host; a mutant is killed by the first sum that differs.

use crate::experiment::Context;
use crate::gpu::numpy_sum::{first_wrong, kill_cases, GpuNumpySum, LeafLoads, NumpyMutant};
use crate::gpu::Gpu;
use crate::report::{thousands, Table};

/// The rows, a note, and failures (the correct build wrong anywhere, a mutant with numpy's
/// bits everywhere, a device error). Empty rows and a note where no device is present.
pub fn numpy_rows(ctx: &Context, seed: u64) -> (Table, String, u64) {
    let mut t = Table::new(
        "gpu-numpy-mutants",
        "The device's numpy order, each rule broken on purpose (device)",
        &["mutant", "sums checked", "result", "first wrong sum"],
    );
    let gpu = match Gpu::open() {
        Ok(g) => g,
        Err(e) => {
            return (
                t,
                format!("numpy-order mutants: not run on this machine ({e}). They are run by this experiment on the GPU machine."),
                0,
            )
        }
    };
    let cases = kill_cases(seed);
    let builds: Vec<(LeafLoads, NumpyMutant)> = [LeafLoads::Single, LeafLoads::Paired]
        .into_iter()
        .flat_map(|l| NumpyMutant::ALL.map(|m| (l, m)))
        .filter(|&(l, m)| m.builds_with(l))
        .collect();
    let bar = ctx.progress(builds.len() as u64, "numpy-order mutants");
    let mut failures = 0;
    for (loads, m) in builds {
        let run =
            GpuNumpySum::<f64>::with_options(&gpu, m, loads).and_then(|b| first_wrong(&b, &cases));
        let (checked, result, first) = super::mutations::engine_mutant_cells(
            m == NumpyMutant::None,
            run,
            "numpy's bits everywhere",
            &mut failures,
        );
        t.row(vec![
            format!("{} ({loads:?} leaf loads)", m.name()),
            thousands(checked),
            result,
            first,
        ]);
        bar.inc(1);
    }
    bar.finish_and_clear();
    let note = format!(
        "numpy-order mutants: `kernels/numpy_pairwise.cu` with `-DBINADE_NP_MUTANT=<code>` (f64, both leaf loads: `BINADE_NP_PAIRED` 0 and 1) on {} ({}), each summing `gpu::numpy_sum::kill_cases` (uniform, log-uniform and one-in-twenty-negated terms at 9, 135, 1,000, 4,099 and 100,003 terms, 1,000 terms of -0.0, and a leaf whose tail's place changes its sum, alone and after 12,288 zeros). The split mutant is a single-load build only (`NumpyMutant::builds_with`: with paired loads its leaves sit at odd offsets, where a 16-byte load faults and ends the device context); every sum is compared by bits with the numpy order's loop on the host (`order::loop_sum_in`) and the first that differs is named.",
        gpu.name, gpu.arch
    );
    (t, note, failures)
}
