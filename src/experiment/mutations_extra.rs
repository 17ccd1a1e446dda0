//! The parts of the `mutations` experiment that need more than the Rust algebra: the CUDA
//! header compiled for the host, the device pipeline, and the `cargo-mutants` score.

use super::mutations::MatrixRow;
use super::Context;
use crate::format::{same_result, F64};
use crate::gpu::{Gpu, GpuOrderedSum, OnePassMutant, OnePassSum};
use crate::layout::OP_TILE;
use crate::report::{thousands, Table};
use crate::verify::device_header::HeaderAlgebra;
use crate::verify::inputs::{tile_boundary_cases, InputKind};
use crate::verify::kill::{run_wide, Budget, Check};
use crate::verify::mutant::Mutant;
use crate::walk::{chunk_sums, loop_sum};

/// Kill-matrix rows for the CUDA header compiled for the host (the f64 and f32 checks; the
/// tiny-format checks are not applicable to it).
pub fn header_rows(ctx: &Context, b: &Budget) -> Vec<MatrixRow> {
    let bar = ctx.progress(
        (Mutant::ALL.len() * Check::ALL.len()) as u64,
        "header mutants",
    );
    let rows = Mutant::ALL
        .iter()
        .map(|&m| {
            let alg = HeaderAlgebra(m);
            let cells = Check::ALL
                .iter()
                .map(|&c| {
                    bar.inc(1);
                    run_wide(c, &alg, b)
                })
                .collect();
            MatrixRow {
                implementation: "header (host build)".into(),
                mutant: m,
                cells,
            }
        })
        .collect();
    bar.finish_and_clear();
    rows
}

/// The device column: per mutant, whether the device pipeline killed it.
pub struct DeviceColumn {
    /// (mutant, cell text) for the rows the device ran.
    pub cells: Vec<(Mutant, String)>,
    /// A paragraph on how the column was filled, or why it was not.
    pub note: String,
    /// Wrong results of the correct build, and device errors. (A mutant that survives the
    /// device pipeline is not a failure by itself: the kill matrix asks for one killing check.)
    pub failures: u64,
}

impl DeviceColumn {
    /// The cell for an implementation's mutant row (device results sit on the header rows).
    pub fn cell(&self, implementation: &str, m: Mutant) -> String {
        if !implementation.starts_with("header") {
            return "n/a".into();
        }
        self.cells
            .iter()
            .find(|(x, _)| *x == m)
            .map(|(_, c)| c.clone())
            .unwrap_or_else(|| "not run".into())
    }
}

/// Runs every mutant of the header as NVRTC-compiled kernels on the device, when one is
/// present: every input kind at the budget's sizes with every plan, against the loop.
pub fn device_rows(ctx: &Context, b: &Budget) -> DeviceColumn {
    let gpu = match Gpu::open() {
        Ok(g) => g,
        Err(e) => {
            return DeviceColumn {
                cells: Vec::new(),
                note: format!("Device column: not run on this machine ({e}). It is filled by running this experiment on the GPU machine."),
                failures: 0,
            }
        }
    };
    // Every build is a whole NVRTC compile: all of them on rayon's threads first.
    let builds: Vec<anyhow::Result<GpuOrderedSum>> = {
        use rayon::prelude::*;
        Mutant::ALL
            .par_iter()
            .map(|&m| GpuOrderedSum::with_mutant(&gpu, m))
            .collect()
    };
    let bar = ctx.progress(Mutant::ALL.len() as u64, "device mutants");
    let mut cells = Vec::new();
    let mut failures = 0;
    for (m, build) in Mutant::ALL.into_iter().zip(builds) {
        let text = match build.and_then(|sum| device_check(&sum, b)) {
            Ok((sums, Some(first))) => {
                failures += (m == Mutant::None) as u64;
                format!(
                    "killed@{} (of {} sums)",
                    thousands(first + 1),
                    thousands(sums)
                )
            }
            Ok((sums, None)) => format!("survived ({} sums)", thousands(sums)),
            Err(e) => {
                failures += 1;
                format!("error: {}", format!("{e:#}").lines().next().unwrap_or(""))
            }
        };
        cells.push((m, text));
        bar.inc(1);
    }
    bar.finish_and_clear();
    DeviceColumn {
        cells,
        note: format!(
            "Device column: each mutant's header compiled by NVRTC (`-DBINADE_MUTANT=<code>`, `--fmad=false`) for {} ({}), run over every input kind at sizes {:?} with every plan; `killed@N` is the first of the device's sums whose bits differ from the loop's.",
            gpu.name, gpu.arch, b.sizes
        ),
        failures,
    }
}

/// Device sums of one mutant build: (sums checked, index of the first wrong one).
fn device_check(sum: &GpuOrderedSum, b: &Budget) -> anyhow::Result<(u64, Option<u64>)> {
    let kinds = InputKind::ALL;
    let mut count = 0u64;
    let mut first = None;
    for (i, &kind) in kinds.iter().enumerate() {
        for &n in &b.sizes {
            let terms = kind.generate::<F64>(n, b.seed);
            let stale = chunk_sums::<F64>(&kinds[(i + 1) % kinds.len()].generate::<F64>(n, b.seed));
            let want = loop_sum::<F64>(&terms).to_bits();
            for plan in &b.plans {
                let got = sum.sums_of(&terms, std::slice::from_ref(&(0..n)), plan, Some(&stale))?;
                let same = got
                    .first()
                    .is_some_and(|g| same_result::<F64>(g.total.to_bits(), want));
                if !same && first.is_none() {
                    first = Some(count);
                }
                count += 1;
            }
        }
    }
    Ok((count, first))
}

/// The pointer to the generic mutation testing, which is its own experiment.
pub fn cargo_mutants_section() -> String {
    "### Generic mutation testing\n\n`cargo-mutants` on the algebra modules is its own experiment (it rebuilds the crate once per mutant): its score and every missed mutant are in [reports/cargo-mutants](../cargo-mutants/README.md) (`just run-experiment cargo-mutants`).".into()
}

/// The one-pass engine's own mutants on the device: the rows, a note, and failures (the
/// correct build wrong anywhere, a mutant that gives the loop's bits everywhere, a device
/// error). Empty rows and a note where no device is present.
pub fn onepass_rows(ctx: &Context, b: &Budget) -> (Table, String, u64) {
    let mut t = Table::new(
        "onepass-mutants",
        "The one-pass engine's own shortcuts, each broken on purpose (device)",
        &["mutant", "sums checked", "result", "first wrong sum"],
    );
    let gpu = match Gpu::open() {
        Ok(g) => g,
        Err(e) => {
            return (
                t,
                format!("One-pass mutants: not run on this machine ({e}). They are run by this experiment on the GPU machine."),
                0,
            )
        }
    };
    // Every build is a whole NVRTC compile (seconds each): all of them on rayon's threads first.
    let builds: Vec<anyhow::Result<OnePassSum>> = {
        use rayon::prelude::*;
        OnePassMutant::ALL
            .par_iter()
            .map(|&m| OnePassSum::with_mutant(&gpu, m))
            .collect()
    };
    let bar = ctx.progress(OnePassMutant::ALL.len() as u64, "one-pass mutants");
    let mut failures = 0;
    for (m, build) in OnePassMutant::ALL.into_iter().zip(builds) {
        let (result, first) = match build.and_then(|op| onepass_check(&op, b)) {
            Ok((sums, wrong)) => {
                let killed = wrong.is_some();
                failures += u64::from(killed != m.changes_bits());
                let text = match (m, killed) {
                    (OnePassMutant::None, false) => "exact everywhere".to_string(),
                    (OnePassMutant::None, true) => "WRONG (the correct build)".to_string(),
                    (_, false) if !m.changes_bits() => {
                        "changed no bits (plan only), as it must".to_string()
                    }
                    (_, true) if !m.changes_bits() => {
                        "WRONG (a plan fault changed bits)".to_string()
                    }
                    (_, true) => "killed by a wrong result".to_string(),
                    (_, false) => "SURVIVED".to_string(),
                };
                (
                    vec![m.name().to_string(), thousands(sums), text],
                    wrong.unwrap_or_else(|| "-".into()),
                )
            }
            Err(e) => {
                failures += 1;
                let msg = format!("{e:#}");
                (
                    vec![
                        m.name().to_string(),
                        "0".into(),
                        format!("error: {}", msg.lines().next().unwrap_or("")),
                    ],
                    "-".into(),
                )
            }
        };
        let mut cells = result;
        cells.push(first);
        t.row(cells);
        bar.inc(1);
    }
    bar.finish_and_clear();
    let note = format!(
        "One-pass mutants: `kernels/ordered_sum_onepass.cu` compiled by NVRTC with `-DBINADE_OP_MUTANT=<code>` for {} ({}), run first on each of `inputs::tile_boundary_cases` (300 sums of it in one launch: a tile planned one binade below its exact start, followed by one planned in the right binade (a later tile that composed both would mix binades); a tile whose sum leaves its binade upward and comes back; a tile without ties whose increment passes the binade's top; an infinity among zeros in a later tile, which only the fast unit's bound refuses), then on every input kind at sizes {:?} as segments of one launch, then on one long sum of each kind ({LONG_TILES_PER_BLOCK} tiles for each resident block, so that every block works on several tiles in turn and a deferred tile has a next one in its block); the first sum whose bits differ from the loop's is named. Each mutant runs by the engine's schedule, except the own two of each timed schedule, which run by that schedule at every size: the staged one (two tile buffers per resident block), the deferred one (exact look-backs a round late) and the held one (tiles read into registers as they land). The plan-only mutant must give the loop's bits everywhere. Wrong results of a look-back mutant depend on which tiles are still running when another looks back, so such a kill is a race the input makes likely, not certain (the staged and held schedules' own are not: each makes a tile read another tile's terms); the table shows the run that was made.",
        gpu.name, gpu.arch, b.sizes
    );
    (t, note, failures)
}

/// One mutant's sums: (sums checked, a description of the first wrong one).
fn onepass_check(op: &OnePassSum, b: &Budget) -> anyhow::Result<(u64, Option<String>)> {
    let mut count = 0u64;
    for (name, one) in tile_boundary_cases(OP_TILE) {
        let segments: Vec<_> = (0..300)
            .map(|k| k * one.len()..(k + 1) * one.len())
            .collect();
        if let Some(wrong) = first_wrong_sum(op, name, &one.repeat(300), &segments, &mut count)? {
            return Ok((count, Some(wrong)));
        }
    }
    for kind in InputKind::ALL {
        let mut all = Vec::new();
        let mut segments = Vec::new();
        for &n in &b.sizes {
            let start = all.len();
            all.extend(kind.generate::<F64>(n, b.seed ^ n as u64));
            segments.push(start..all.len());
        }
        if let Some(wrong) = first_wrong_sum(op, kind.name(), &all, &segments, &mut count)? {
            return Ok((count, Some(wrong)));
        }
    }
    // One long sum per kind: LONG_TILES_PER_BLOCK tiles for each block the build keeps
    // resident, so that under the resident and deferred schedules every block works on
    // several tiles in turn (a deferred tile then has a next tile in its block; the budget's
    // sizes above fit in one tile per block).
    let shape = op.shape()?;
    let blocks = u64::from(shape.resident_blocks) * u64::from(shape.multiprocessors);
    let n = (blocks * LONG_TILES_PER_BLOCK) as usize * OP_TILE + 11;
    for kind in InputKind::ALL {
        let all = kind.generate::<F64>(n, b.seed ^ 0x10a6);
        let label = format!("{}, long", kind.name());
        let whole = 0..n;
        if let Some(wrong) =
            first_wrong_sum(op, &label, &all, std::slice::from_ref(&whole), &mut count)?
        {
            return Ok((count, Some(wrong)));
        }
    }
    Ok((count, None))
}

/// Tiles per resident block of the one-pass check's long sums.
const LONG_TILES_PER_BLOCK: u64 = 4;

/// The one-pass sums of `segments` of `all` in one launch against the loop's; counts each
/// sum checked and names the first wrong one.
fn first_wrong_sum(
    op: &OnePassSum,
    name: &str,
    all: &[f64],
    segments: &[std::ops::Range<usize>],
    count: &mut u64,
) -> anyhow::Result<Option<String>> {
    let got = op.sums_of(all, segments)?;
    for (k, r) in segments.iter().enumerate() {
        let want = loop_sum::<F64>(&all[r.clone()]).to_bits();
        *count += 1;
        if !same_result::<F64>(got[k].total.to_bits(), want) {
            return Ok(Some(format!(
                "{name}, {} terms (sum {})",
                thousands(r.len() as u64),
                count
            )));
        }
    }
    Ok(None)
}

/// The fast CPU engine's kill rows: the table and its failures (the correct engine wrong
/// anywhere, or a mutant with the loop's bits everywhere).
pub fn fast_rows(seed: u64) -> (Table, u64) {
    let mut t = Table::new(
        "fast-mutants",
        "The fast CPU engine's own checks, each switched off (host)",
        &[
            "mutant",
            "one thread: first wrong sum",
            "threads: first wrong sum",
            "result",
        ],
    );
    let mut failures = 0;
    let rows = match crate::verify::fast_mutants::kill_rows(seed) {
        Ok(rows) => rows,
        Err(e) => {
            t.row(vec![
                "-".into(),
                "-".into(),
                "-".into(),
                format!("NOT RUN: no thread pool ({e})"),
            ]);
            failures += 1;
            Vec::new()
        }
    };
    for row in rows {
        use crate::verify::fast_mutants::Expect;
        let ok = row.caught();
        failures += u64::from(!ok);
        let result = match (row.mutant.expect, ok) {
            (Expect::Exact, true) => "exact everywhere",
            (Expect::Exact, false) => "WRONG (the correct engine)",
            (Expect::SameBits, true) => "changed no bits (plan only), as it must",
            (Expect::SameBits, false) => "WRONG (a plan fault changed bits)",
            (_, true) => "killed by a wrong result",
            (_, false) => "SURVIVED",
        };
        t.row(vec![
            row.mutant.name.to_string(),
            row.one.unwrap_or_else(|| "-".into()),
            row.threads.unwrap_or_else(|| "-".into()),
            result.to_string(),
        ]);
    }
    (t, failures)
}

/// The prefix-sum engine's kill rows (`verify::cumsum_mutants`): the table and its failures
/// (the correct engine wrong anywhere, or a mutant with the loop's bits at every position).
pub fn cumsum_rows(seed: u64) -> (Table, u64) {
    let mut t = Table::new(
        "cumsum-mutants",
        "The prefix-sum engine's own shortcuts, each broken alone (host)",
        &["mutant", "first wrong output", "result"],
    );
    let rows = match crate::verify::cumsum_mutants::kill_rows(seed) {
        Ok(rows) => rows,
        Err(e) => {
            t.row(vec![
                "-".into(),
                "-".into(),
                format!("NOT RUN: no thread pool ({e})"),
            ]);
            return (t, 1);
        }
    };
    let failures = kill_table_rows(
        &mut t,
        "exact at every position",
        rows.into_iter().map(|row| {
            let (correct, ok) = (row.mutant.fault == crate::cumsum::Fault::None, row.caught());
            (row.mutant.name, row.wrong, correct, ok)
        }),
    );
    (t, failures)
}

/// Rows of a host kill table from (mutant name, first wrong case, is the correct engine,
/// caught): the result in words; returns the failures (the correct engine wrong, or a mutant
/// that survived). `exact` is what the correct engine's row says when it is right.
fn kill_table_rows(
    t: &mut Table,
    exact: &str,
    rows: impl Iterator<Item = (&'static str, Option<String>, bool, bool)>,
) -> u64 {
    let mut failures = 0;
    for (name, wrong, correct, ok) in rows {
        failures += u64::from(!ok);
        let result = match (correct, ok) {
            (true, true) => exact,
            (true, false) => "WRONG (the correct engine)",
            (false, true) => "killed by a wrong result",
            (false, false) => "SURVIVED",
        };
        t.row(vec![
            name.to_string(),
            wrong.unwrap_or_else(|| "-".into()),
            result.to_string(),
        ]);
    }
    failures
}

/// The CPU orders' kill rows (`verify::order_mutants`): the table and its failures (the
/// correct engine wrong anywhere, or a mutant with the loop's bits on every input).
pub fn order_rows(seed: u64) -> (Table, u64) {
    let mut t = Table::new(
        "order-mutants",
        "The CPU orders' own shortcuts, each broken alone (host)",
        &["mutant", "first wrong total", "result"],
    );
    let failures = kill_table_rows(
        &mut t,
        "exact on every input",
        crate::verify::order_mutants::kill_rows(seed)
            .into_iter()
            .map(|row| {
                let (correct, ok) = (row.mutant.fault == crate::order::Fault::None, row.caught());
                (row.mutant.name, row.wrong, correct, ok)
            }),
    );
    (t, failures)
}

/// The signed units' kill rows (`verify::signed_mutants`, `gpu::ordered_sum::signed_kill`):
/// each fault in the Rust algebra and in the header's host build (every e4m3 triple), and in
/// the device pipeline carrying signed units (every signed stream) where a GPU opens; the
/// table, its failures (the correct build wrong anywhere, or a fault with no wrong result) and
/// a note on the device rows.
pub fn signed_rows(seed: u64) -> (Table, u64, String) {
    use crate::signed_unit::SignedFault;
    use crate::verify::signed_mutants::{first_wrong_triple, first_wrong_triple_header, name};
    let mut t = Table::new(
        "signed-unit-mutants",
        "The signed units' own rules, each broken alone: Rust and the header's host build (every e4m3 triple), the device pipeline (signed streams)",
        &["mutant", "implementation", "first wrong result", "result"],
    );
    let mut failures = 0;
    // One row; 1 where it is a failure.
    let row = |t: &mut Table, f: SignedFault, imp: &str, wrong: Option<String>| -> u64 {
        let correct = f == SignedFault::None;
        let ok = wrong.is_some() != correct;
        let result = match (correct, ok) {
            (true, true) => "exact wherever it applies",
            (true, false) => "WRONG (the correct build)",
            (false, true) => "killed by a wrong result",
            (false, false) => "SURVIVED",
        };
        t.row(vec![
            name(f).to_string(),
            imp.to_string(),
            wrong.unwrap_or_else(|| "-".into()),
            result.to_string(),
        ]);
        u64::from(!ok)
    };
    for f in SignedFault::ALL {
        failures += row(&mut t, f, "rust", first_wrong_triple(f));
        failures += row(&mut t, f, "header (host)", first_wrong_triple_header(f));
    }
    let note = match Gpu::open() {
        Err(e) => format!("Signed units on the device: not run on this machine ({e})."),
        Ok(gpu) => {
            let sizes = crate::gpu::ordered_sum::signed_kill::KILL_SIZES;
            for f in SignedFault::ALL {
                let label = format!("device pipeline ({})", gpu.name);
                match GpuOrderedSum::with_mutants(&gpu, Mutant::None, f).and_then(|sum| {
                    crate::gpu::ordered_sum::first_wrong_signed(
                        &sum.with_units(crate::gpu::UnitKind::Signed),
                        seed,
                    )
                }) {
                    Ok(wrong) => failures += row(&mut t, f, &label, wrong),
                    Err(e) => {
                        failures += 1;
                        t.row(vec![
                            name(f).to_string(),
                            label,
                            format!("error: {}", format!("{e:#}").lines().next().unwrap_or("")),
                            "ERROR".into(),
                        ]);
                    }
                }
            }
            format!(
                "Signed units on the device ({}): each fault compiled into the pipeline carrying signed units (`BINADE_SIGNED_MUTANT`), every signed stream (`verify::signed_inputs`) at {} and {} terms, both walks, under the device's signed plan and under its codes moved by up to one binade with one sign in four flipped; each total compared by bits with the loop.",
                gpu.name, sizes[0], sizes[1]
            )
        }
    };
    (t, failures, note)
}

/// The float VIF row-parallel sum's fast segment units with each check broken
/// (`vif::host::FastUnitMutant`, the header's host build; `vif::fast_unit_kill`): the engine's
/// units and the pair composition must keep every row the loop's, each mutant must give a
/// wrong row. The table and its failures.
pub fn fvif_unit_rows(seed: u64) -> (Table, u64) {
    use crate::vif::fast_unit_kill::{first_wrong_row, row_cases};
    use crate::vif::host::{FastUnitMutant, SegmentUnits};
    let mut t = Table::new(
        "fvif-unit-mutants",
        "The float VIF row-parallel sum's fast segment units, each check broken (header, host build)",
        &["mutant", "first wrong row", "result"],
    );
    let cases = row_cases(seed);
    let builds = [
        (
            "float VIF units: the fast path (the engine's)",
            SegmentUnits::Fast,
        ),
        ("float VIF units: the pair composition", SegmentUnits::Pairs),
    ]
    .into_iter()
    .chain(
        FastUnitMutant::ALL
            .into_iter()
            .map(|m| (m.name(), SegmentUnits::FastMutant(m))),
    );
    let mut rows = Vec::new();
    for (name, units) in builds {
        let correct = !matches!(units, SegmentUnits::FastMutant(_));
        match first_wrong_row(units, &cases) {
            Some((_, _, _, wrong)) => {
                let ok = wrong.is_some() != correct;
                rows.push((name, wrong, correct, ok));
            }
            None => rows.push((
                name,
                Some("NOT RUN: the header's host build lacks the binade algebra".to_string()),
                correct,
                false,
            )),
        }
    }
    let failures = kill_table_rows(&mut t, "exact on every row", rows.into_iter());
    (t, failures)
}

/// The float VIF warp walk's own shortcut broken on the device (`Variant::warp_run_end_unchecked`:
/// a composed run applied without checking that it stays in its binade) and the paired rows'
/// (`Variant::paired_units_crossed`: the den row walked with the num row's units): the correct
/// builds and the paired rows' plan mutant (`Variant::paired_plans_crossed`) must give the
/// CPU's scale sums on the committed fixture frames (`fixtures/vif`), each mutant a wrong one. The table, its failures and a note (not run without a device).
pub fn fvif_warp_rows() -> (Table, u64, String) {
    use crate::vif::gpu::{Reduction, Variant, VifGpu};
    let mut t = Table::new(
        "fvif-warp-mutants",
        "The float VIF warp walk's own shortcut, broken on purpose (device)",
        &["mutant", "first wrong scale sum", "result"],
    );
    let mut g = match VifGpu::open() {
        Ok(g) => g,
        Err(e) => {
            return (
                t,
                0,
                format!("The float VIF warp walk's mutant: not run on this machine ({e}); `tests/vif_gpu.rs` kills it on the GPU machine."),
            )
        }
    };
    let warp = Variant::exact(Reduction::BinadeWarp);
    let paired = Variant::exact(Reduction::BinadePaired);
    let staged = Variant::exact(Reduction::BinadeStaged);
    let beside = Variant::beside(Reduction::BinadePaired);
    let interleaved = Variant::exact(Reduction::BinadeInterleaved);
    let headed = Variant::exact(Reduction::BinadeHeaded);
    let builds = [
        ("float VIF warp walk", warp, false),
        (
            "float VIF warp walk: run end unchecked",
            Variant {
                warp_run_end_unchecked: true,
                ..warp
            },
            true,
        ),
        ("float VIF paired rows", paired, false),
        (
            "float VIF paired rows: den walked with num's units",
            Variant {
                paired_units_crossed: true,
                ..paired
            },
            true,
        ),
        (
            "float VIF paired rows: den walked on num's plan (a plan: keeps the bits)",
            Variant {
                paired_plans_crossed: true,
                ..paired
            },
            false,
        ),
        ("float VIF staged rows", staged, false),
        (
            "float VIF staged rows: the row's last term not staged",
            Variant {
                staged_last_unstaged: true,
                ..staged
            },
            true,
        ),
        ("float VIF interleaved rows", interleaved, false),
        (
            "float VIF interleaved rows: a segment's term-by-term adds read row by row",
            Variant {
                interleaved_fallback_row_major: true,
                ..interleaved
            },
            true,
        ),
        ("float VIF headed rows (the scorer's)", headed, false),
        (
            "float VIF headed rows: the head one term short",
            Variant {
                head_one_short: true,
                ..headed
            },
            true,
        ),
        (
            "float VIF sums beside the next scale's filters",
            beside,
            false,
        ),
        (
            "float VIF sums beside: the second stream not waiting for the terms",
            Variant {
                sums_unwaited: true,
                ..beside
            },
            true,
        ),
    ];
    let mut rows = Vec::new();
    for (name, v, broken) in builds {
        match crate::vif::gpu::first_wrong_scale(
            &mut g,
            &v,
            &crate::fixtures::project_root().join("fixtures/vif"),
        ) {
            Ok(wrong) => {
                let ok = wrong.is_some() == broken;
                rows.push((name, wrong, !broken, ok));
            }
            Err(e) => rows.push((name, Some(format!("error: {e:#}")), !broken, false)),
        }
    }
    let failures = kill_table_rows(&mut t, "the CPU's bits on every scale", rows.into_iter());
    let note = format!("The float VIF warp walk (`fvif_row_sums_binade_warp`) on {} with its run-end check removed (`FVIF_WARP_RUN_END_UNCHECKED`), the paired rows (`fvif_row_sums_binade_paired`) with the den row walked with the num row's units (`FVIF_PAIRED_UNITS_CROSSED`) and, a plan mutant that must keep the bits, on the num row's plan (`FVIF_PAIRED_PLANS_CROSSED`), the staged rows (`fvif_row_sums_binade_staged`) with the copy into shared memory one term short (`FVIF_STAGED_LAST_UNSTAGED`), the interleaved rows (`fvif_row_sums_binade_interleaved`) whose term-by-term adds read a segment as if its row were row by row (`FVIF_INTERLEAVED_FALLBACK_ROW_MAJOR`), the headed rows (`fvif_row_sums_binade_headed`, a head of {} segments, the scorer's) whose head's last term is never added while the walk starts after it (`FVIF_HEAD_ONE_SHORT`), the paired rows' sums beside the next scale's filters on a second stream that does not wait for the scale's terms (`Variant::sums_unwaited`; terms poisoned with NaN and the frame's stream held 100 ms first, `VifGpu::poison_terms_and_hold`), and the correct builds, each on the committed fixture frames `fixtures/vif` nat8, nat16 and checker8 under the default options; every scale's num and den sums compared by bits with the CPU reference's; the first that differs is named.", g.describe(), crate::vif::gpu::HEAD_SEGMENTS);
    (t, failures, note)
}

/// The staged upload's own shortcut broken on the device (`gpu::upload::StagedUpload::
/// unsynchronized`: a staging buffer refilled without waiting for the device's copy out of
/// it): through `gpu::upload::first_wrong_term` (a stream held behind a sleeping kernel while
/// the host fills every buffer), the correct upload must give every term's bits back and the
/// mutant a wrong term. The table, its failures and a note (not run without a device).
pub fn upload_rows() -> (Table, u64, String) {
    use crate::gpu::upload::{first_wrong_term, KILL_STAGE, KILL_TERMS};
    let mut t = Table::new(
        "upload-mutants",
        "The staged upload's wait for a buffer's copy, broken on purpose (device)",
        &["mutant", "first wrong term", "result"],
    );
    let gpu = match crate::gpu::Gpu::open() {
        Ok(g) => g,
        Err(e) => {
            return (
                t,
                0,
                format!("The staged upload's mutant: not run on this machine ({e}); the library test `staged_upload_waits_and_its_mutant_is_killed` kills it on the GPU machine."),
            )
        }
    };
    let rows = [
        ("staged upload (`--upload staged`)", true),
        (
            "staged upload: a buffer refilled before its copy ran",
            false,
        ),
    ]
    .map(|(name, wait)| match first_wrong_term(&gpu, wait) {
        Ok(w) => (
            name,
            w.map(|k| format!("term {k}")),
            wait,
            w.is_none() == wait,
        ),
        Err(e) => (name, Some(format!("error: {e:#}")), wait, false),
    });
    let failures = kill_table_rows(&mut t, "every term's bits", rows.into_iter());
    let note = format!("The staged upload of `binade sum --upload staged` (`gpu::upload`) and its mutant that refills a staging buffer without waiting for the device's copy out of it, on {} ({}): {KILL_TERMS} terms (NaN payloads, -0 and subnormals among them) through buffers of {KILL_STAGE} terms on a stream held for 100 ms behind a sleeping kernel, so that every copy runs after the host has filled its buffers; each term read back and compared by bits.", gpu.name, gpu.arch);
    (t, failures, note)
}
