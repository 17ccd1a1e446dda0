//! What `binade sum` prints for a file: the report as text or JSON, and the optional check
//! against the plain loop.

use std::path::Path;

use anyhow::Result;
use serde::Serialize;

use super::decode::{read_terms, Terms};
use super::engines::Engine;
use super::{Dtype, OutputFormat, SumArgs};
use crate::format::{same_result, Format, F32, F64};
use crate::order::{CpuOrder, Start};
use crate::walk::{self, chunk_count, Walk};

/// One file's result, as printed (the JSON object of `--format json`).
#[derive(Clone, Debug, Serialize)]
pub struct FileReport {
    /// The file as given on the command line.
    pub file: String,
    /// `f64` or `f32`.
    pub dtype: &'static str,
    /// Number of terms.
    pub terms: usize,
    /// Number of chunks of [`walk::CHUNK`] terms (the last may be partial).
    pub chunks: usize,
    /// The engine's name.
    pub engine: &'static str,
    /// The plan's name (`null` for the loop engine, which follows no plan).
    pub plan: Option<String>,
    /// The CPU order reproduced.
    pub order: String,
    /// Where the sequential loop starts (`+0`, `-0`, `first`).
    pub start: &'static str,
    /// The engine's sum, shortest decimal that reads back to the same value.
    pub sum: String,
    /// The engine's sum as hex bits (`0x` and 16 or 8 digits).
    pub bits: String,
    /// Chunks the engine added term by term.
    pub term_by_term_chunks: usize,
    /// The comparison with the plain loop (`--check`), `null` without it.
    pub check: Option<LoopCheck>,
    /// True when the terms were read in place from a memory mapping of the file (no copy).
    pub mapped: bool,
    /// Wall-clock time of each phase, in milliseconds.
    pub phases_ms: Phases,
    /// What the GPU engine did (tiles, upload and kernel times); `null` for the other engines.
    pub device: Option<super::engines::DeviceReport>,
    /// The most heap bytes live at once while this file was read and summed (`null` where the
    /// binary's counting allocator is not in use). A mapped file's pages are not heap.
    pub peak_heap_bytes: Option<usize>,
    /// The commit this binary was built from, `-dirty` appended where its tree had changes
    /// (so a saved result names the code that made it).
    pub built_from: String,
}

/// Wall-clock milliseconds of one file's phases: opening and decoding (a mapped file is only
/// opened here; its pages are read by the sum), the engine's sum, and the check's loop.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct Phases {
    /// Opening, mapping or decoding the file (for a GPU engine's first file, also reading in
    /// a mapped file's pages on rayon's threads while the device opens; later files' pages
    /// are read by the upload).
    pub read: f64,
    /// Waiting, after the first file was read, for the engine to finish opening (the device,
    /// its kernels, its staging buffers: they open on a thread of their own while the first
    /// file is read); 0 for later files.
    pub wait: f64,
    /// The engine's sum (for a mapped file, this includes reading its pages).
    pub sum: f64,
    /// The plain loop of `--check` (0 without it).
    pub check: f64,
}

/// A file read before its engine was ready (the first file, while the engine opens on a
/// thread of its own): the terms or why they could not be read, how long that took, and how
/// long the command then waited for the engine.
pub(crate) struct EarlyRead {
    /// The terms, or the reason they could not be read.
    pub terms: Result<Terms, String>,
    /// The read phase, ms.
    pub read_ms: f64,
    /// The wait for the engine after it, ms.
    pub wait_ms: f64,
}

/// Reads `path` as [`read_terms`] does and, where `touch` (a GPU engine opens meanwhile),
/// reads one term of every 4 KiB page on rayon's threads, so a mapped file's pages are in
/// memory before the upload. Resets the heap's peak first (the file's report counts from
/// here). Returns the terms and the milliseconds taken.
pub(crate) fn read_early(path: &Path, args: &SumArgs, touch: bool) -> (Result<Terms, String>, f64) {
    crate::cli::heap::reset_peak();
    let t = std::time::Instant::now();
    let terms = read_terms(path, args.dtype);
    if touch {
        match &terms {
            Ok(Terms::F64(v)) => touch_pages(&v[..]),
            Ok(Terms::F32(v)) => touch_pages(&v[..]),
            Err(_) => {}
        }
    }
    (terms, ms_since(t))
}

/// Reads the first value of every 4 KiB page of `terms` on rayon's threads (a mapped file's
/// pages are faulted in; the values are not used).
fn touch_pages<T: Copy + Send + Sync>(terms: &[T]) {
    use rayon::prelude::*;
    let per_page = (4096 / std::mem::size_of::<T>()).max(1);
    terms.par_chunks(per_page).for_each(|page| {
        std::hint::black_box(page[0]);
    });
}

fn ms_since(t: std::time::Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1e3
}

/// The plain loop's result beside the engine's.
#[derive(Clone, Debug, Serialize)]
pub struct LoopCheck {
    /// True when the engine's bits equal the loop's (any NaN equals any NaN).
    pub equal: bool,
    /// The loop's sum, shortest round-trip decimal.
    pub loop_sum: String,
    /// The loop's sum as hex bits.
    pub loop_bits: String,
}

/// Shortest round-trip decimal and hex bits of a value of `F` (f64 or f32).
pub(crate) fn show<F: Format>(v: F::Value) -> (String, String) {
    let digits = ((F::EXP_BITS + F::FRAC_BITS + 1) / 4) as usize;
    (format!("{v:?}"), format!("0x{:0digits$x}", F::to_bits(v)))
}

/// Sums one stream with `engine` and builds its report (checked on request against the loop
/// written out term by term: `order::loop_sum_from` with the start for the sequential order,
/// `order::loop_sum_in` for the others).
pub(crate) fn sum_stream<F: Format>(
    terms: &[F::Value],
    run: impl FnOnce() -> Result<Walk<F::Value>>,
    check: Option<(CpuOrder, Start)>,
    phases: &mut Phases,
) -> Result<(Walk<F::Value>, Option<LoopCheck>)> {
    let t = std::time::Instant::now();
    let got = run()?;
    phases.sum = ms_since(t);
    let t = std::time::Instant::now();
    let check = check.map(|(order, start)| {
        let want = match order {
            CpuOrder::Sequential => crate::order::loop_sum_from::<F>(terms, start),
            _ => crate::order::loop_sum_in::<F>(terms, order),
        };
        let (loop_sum, loop_bits) = show::<F>(want);
        LoopCheck {
            equal: same_result::<F>(F::to_bits(got.total), F::to_bits(want)),
            loop_sum,
            loop_bits,
        }
    });
    phases.check = ms_since(t);
    Ok((got, check))
}

/// An engine's sum from `+0` turned into the loop's from `--start` (`order::restart`: they
/// differ only where every term is a zero).
fn restarted<F: Format>(
    w: Result<Walk<F::Value>>,
    terms: &[F::Value],
    args: &SumArgs,
) -> Result<Walk<F::Value>> {
    w.map(|w| Walk {
        total: crate::order::restart::<F>(w.total, terms, args.start),
        ..w
    })
}

/// A non-sequential `--order` by `--engine loop` (the order's loop written out) or `--engine
/// fast` (`order::ordered_sum_in`; `chunks` becomes the chunks over the order's sequential
/// pieces). Other engines are refused by `check_options`.
fn sum_in_order<T: crate::fast::FastTerm>(
    terms: &[T],
    args: &SumArgs,
    chunks: &mut usize,
) -> Walk<T> {
    if args.engine == super::EngineKind::Loop {
        return Walk {
            total: crate::order::loop_sum_in::<T::F>(terms, args.order),
            applied: 0,
            fallback: *chunks,
        };
    }
    debug_assert_eq!(
        args.engine,
        super::EngineKind::Fast,
        "refused by check_options"
    );
    let r = crate::order::ordered_sum_in_counted(terms, args.order);
    *chunks = r.chunks;
    Walk {
        total: r.total,
        applied: r.chunks - r.native_chunks,
        fallback: r.native_chunks,
    }
}

/// Reads, sums and reports one file.
pub(crate) fn sum_file(
    engine: &mut dyn Engine,
    path: &Path,
    args: &SumArgs,
    stale: Option<&Terms>,
    early: Option<EarlyRead>,
) -> Result<FileReport> {
    let (terms, mut phases) = match early {
        Some(e) => (
            e.terms.map_err(anyhow::Error::msg)?,
            Phases {
                read: e.read_ms,
                wait: e.wait_ms,
                ..Phases::default()
            },
        ),
        None => {
            crate::cli::heap::reset_peak();
            let t = std::time::Instant::now();
            let terms = read_terms(path, args.dtype).map_err(anyhow::Error::msg)?;
            let read = ms_since(t);
            (
                terms,
                Phases {
                    read,
                    ..Phases::default()
                },
            )
        }
    };
    let (name, planned) = (engine.name(), engine.planned());
    let plan = args.plan();
    // The engine's own order (the sequential loop, or numpy's on the device), else the
    // order's CPU engine.
    let by_engine = args.order == engine.order();
    let check_order = args.check.then_some((args.order, args.start));
    let mut chunks = chunk_count(terms.len());
    let (dtype, total, check, fallback) = match &terms {
        Terms::F64(t) => {
            let stale = stale.map(|t| walk::chunk_sums::<F64>(&t.as_f64()));
            let (w, c) = sum_stream::<F64>(
                t,
                || match by_engine {
                    true => restarted::<F64>(engine.sum_f64(t, &plan, stale.as_deref()), t, args),
                    false => Ok(sum_in_order(t, args, &mut chunks)),
                },
                check_order,
                &mut phases,
            )?;
            (Dtype::F64, show::<F64>(w.total), c, w.fallback)
        }
        Terms::F32(t) => {
            let stale = stale.map(|t| walk::chunk_sums::<F32>(&t.as_f32()));
            let (w, c) = sum_stream::<F32>(
                t,
                || match by_engine {
                    true => restarted::<F32>(engine.sum_f32(t, &plan, stale.as_deref()), t, args),
                    false => Ok(sum_in_order(t, args, &mut chunks)),
                },
                check_order,
                &mut phases,
            )?;
            (Dtype::F32, show::<F32>(w.total), c, w.fallback)
        }
    };
    Ok(FileReport {
        file: path.display().to_string(),
        dtype: dtype.name(),
        terms: terms.len(),
        chunks,
        engine: name,
        plan: planned.then(|| plan.name()),
        order: args.order.name(),
        start: args.start.name(),
        sum: total.0,
        bits: total.1,
        term_by_term_chunks: fallback,
        check,
        mapped: terms.is_mapped(),
        phases_ms: phases,
        device: engine.device(),
        peak_heap_bytes: crate::cli::heap::peak(),
        built_from: format!(
            "{}{}",
            crate::provenance::BUILD_COMMIT,
            if crate::provenance::BUILD_DIRTY {
                "-dirty"
            } else {
                ""
            }
        ),
    })
}

/// The text block of one file.
pub(crate) fn text_block(r: &FileReport) -> String {
    let mut out = format!("{}\n", r.file);
    out += &format!("  terms   {} {} in {} chunks\n", r.terms, r.dtype, r.chunks);
    out += &format!("  sum     {} ({})\n", r.sum, r.bits);
    let plan = r
        .plan
        .as_ref()
        .map(|p| format!("plan {p}, "))
        .unwrap_or_default();
    // The start is named where it is not the default +0.
    let order = match r.start {
        "+0" => r.order.clone(),
        start => format!("{} from {start}", r.order),
    };
    match &r.device {
        Some(d) if r.order == "numpy" => {
            out += &format!(
                "  engine  {} (numpy's pairwise tree, order {}); device open {:.1} ms, compile {:.1} ms, upload {:.1} ms, kernel {:.1} ms\n",
                r.engine, order, d.open_ms, d.compile_ms, d.upload_ms, d.kernel_ms
            )
        }
        Some(d) => {
            out += &format!(
                "  engine  {} ({} engine, order {}): {} tiles, {} finished lane by lane, {} lanes added natively; device open {:.1} ms, compile {:.1} ms, staging buffers {:.1} ms (while the file was read), upload ({}) {:.1} ms, kernel {:.1} ms\n",
                r.engine, d.exact_engine, order, d.tiles, d.tiles_finished_lane_by_lane, d.lanes_added_natively, d.open_ms, d.compile_ms, d.staging_ms, d.upload, d.upload_ms, d.kernel_ms
            )
        }
        None => {
            out += &format!(
                "  engine  {} ({plan}order {}): {} of {} chunks term by term\n",
                r.engine, order, r.term_by_term_chunks, r.chunks
            )
        }
    }
    match &r.check {
        Some(c) if c.equal => out += "  check   equal to the loop\n",
        Some(c) => {
            out += &format!(
                "  check   DIFFERS from the loop: {} ({})\n",
                c.loop_sum, c.loop_bits
            )
        }
        None => {}
    }
    out
}

/// One file's output in the chosen format (JSON: one line).
pub(crate) fn render(r: &FileReport, format: OutputFormat) -> String {
    match format {
        OutputFormat::Text => text_block(r),
        OutputFormat::Json => format!("{}\n", serde_json::to_string(r).unwrap_or_default()),
    }
}
