//! The running sums' own mutants on the device ([`CumsumMutant`]) for the `mutations` kill
//! matrix: each build writes its running sums for `inputs::running_sum_cases` and every input
//! kind, compared at every position with the CPU loop's; a mutant is killed by the first
//! position that differs.

use crate::cumsum::{first_difference_nan_as_nan, Start};
use crate::experiment::gpu_parity::cumsum::{loop_running_sums, start_name, STARTS};
use crate::experiment::Context;
use crate::format::F64;
use crate::gpu::{CumsumMutant, Gpu, GpuCumsum};
use crate::layout::OP_TILE;
use crate::report::{thousands, Table};
use crate::verify::inputs::{running_sum_cases, InputKind};

/// The rows, a note, and failures (the correct build wrong anywhere, a mutant with the
/// loop's bits everywhere, a device error). Empty rows and a note where no device is present.
pub fn cumsum_rows(ctx: &Context, sizes: &[usize], seed: u64) -> (Table, String, u64) {
    let mut t = Table::new(
        "gpu-cumsum-mutants",
        "The running sums' own steps, each broken on purpose (device)",
        &[
            "mutant",
            "running sums checked",
            "result",
            "first wrong position",
        ],
    );
    let gpu = match Gpu::open() {
        Ok(g) => g,
        Err(e) => {
            return (
                t,
                format!("Running-sum mutants: not run on this machine ({e}). They are run by this experiment on the GPU machine."),
                0,
            )
        }
    };
    // Every build is a whole NVRTC compile (tens of seconds each): on rayon's threads first.
    let builds: Vec<anyhow::Result<GpuCumsum>> = {
        use rayon::prelude::*;
        CumsumMutant::ALL
            .par_iter()
            .map(|&m| GpuCumsum::with_mutant(&gpu, m))
            .collect()
    };
    let bar = ctx.progress(CumsumMutant::ALL.len() as u64, "running-sum mutants");
    let mut failures = 0;
    for (m, build) in CumsumMutant::ALL.into_iter().zip(builds) {
        let (checked, result, first) = super::mutations::engine_mutant_cells(
            m == CumsumMutant::None,
            build.and_then(|c| check(&c, sizes, seed)),
            "exact everywhere",
            &mut failures,
        );
        t.row(vec![m.name().into(), thousands(checked), result, first]);
        bar.inc(1);
    }
    bar.finish_and_clear();
    let note = format!(
        "Running-sum mutants: `kernels/ordered_sum_onepass.cu` with `-DBINADE_OP_CUMSUM=1 -DBINADE_OP_CUM_MUTANT=<code>` for {} ({}), run on each of `inputs::running_sum_cases` with every start (numpy's first term, +0, -0), then on every input kind at sizes {sizes:?} from +0; every position is compared with the CPU loop's running sum (bits, NaN as NaN) and the first that differs is named.",
        gpu.name, gpu.arch
    );
    (t, note, failures)
}

/// One mutant: (running sums checked, where the first wrong one was).
fn check(c: &GpuCumsum, sizes: &[usize], seed: u64) -> anyhow::Result<(u64, Option<String>)> {
    let mut cases: Vec<(String, Vec<f64>, Start)> = Vec::new();
    for (name, terms) in running_sum_cases(OP_TILE) {
        for start in STARTS {
            cases.push((name.to_string(), terms.clone(), start));
        }
    }
    for kind in InputKind::ALL {
        for &n in sizes {
            cases.push((
                format!("{}, {} terms", kind.name(), thousands(n as u64)),
                kind.generate::<F64>(n, seed ^ n as u64),
                Start::PositiveZero,
            ));
        }
    }
    let mut count = 0u64;
    for (name, terms, start) in &cases {
        let got = c.cumsum_of(terms, *start)?;
        let want = loop_running_sums(terms, *start);
        count += 1;
        if let Some(i) = first_difference_nan_as_nan(&got, &want) {
            return Ok((
                count,
                Some(format!(
                    "{name}, start {}, position {i}",
                    start_name(*start)
                )),
            ));
        }
    }
    Ok((count, None))
}
