//! `binade sum`: term streams from files, summed the way the CPU loop sums them.
//!
//! Each file is read into memory as a stream of f64 or f32 terms ([`read_terms`]), summed by
//! an [`Engine`] (the plain loop, the host walk, or the GPU), and reported as text or as one
//! JSON object per file. A bad file is reported in one line on stderr and the call goes on
//! with the next file; the exit code then says that some input was bad.

use std::borrow::Cow;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Result;
use npyz::{DType, Endianness, NpyHeader, Order, TypeChar};
use serde::Serialize;

use crate::algebra::Exact;
use crate::experiment::{NoDevice, EXIT_BAD_INPUT, EXIT_FAILED_CHECKS, EXIT_NO_DEVICE, EXIT_OK};
use crate::format::{same_result, Format, F32, F64};
use crate::order::CpuOrder;
use crate::plan::PlanKind;
use crate::walk::{self, chunk_count, Walk};

/// Arguments of `binade sum`.
#[derive(Debug, clap::Args)]
pub struct SumArgs {
    /// Files holding term streams: `.npy` (float64 or float32, any shape, C order) or raw
    /// little-endian floats (then `--dtype` is required).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Element type of raw (non-.npy) files; a .npy file's own header decides its type.
    #[arg(long, value_enum)]
    pub dtype: Option<Dtype>,
    /// Who computes the sum: the plain loop, the host walk, or the GPU.
    #[arg(long, value_enum, default_value_t = EngineKind::Walk)]
    pub engine: EngineKind,
    /// How chunks are planned (tree-prefix, one-too-high, one-too-low, all-zero, fixed:E,
    /// term-by-term, random:SEED, stale). Any plan gives the loop's bits; it changes only
    /// how many chunks are taken term by term.
    #[arg(long, default_value = "tree-prefix")]
    pub plan: PlanKind,
    /// The input whose tree-prefix plan `--plan stale` reuses (read like the other files).
    #[arg(long, value_name = "FILE")]
    pub stale_from: Option<PathBuf>,
    /// The CPU loop to reproduce.
    #[arg(long, default_value = "sequential")]
    pub order: CpuOrder,
    /// Also run the plain loop and report whether the engine's bits equal it (NaN as NaN).
    #[arg(long)]
    pub check: bool,
    /// Output: text for people, or one JSON object per file for scripts.
    #[arg(long, value_enum, default_value_t = OutputFormat::Text)]
    pub format: OutputFormat,
}

/// The element type of a term stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Dtype {
    /// IEEE binary64.
    F64,
    /// IEEE binary32, summed in f32.
    F32,
}

impl Dtype {
    /// `f64` or `f32`.
    pub fn name(self) -> &'static str {
        match self {
            Dtype::F64 => F64::NAME,
            Dtype::F32 => F32::NAME,
        }
    }

    /// Bytes per term.
    pub fn size(self) -> usize {
        match self {
            Dtype::F64 => 8,
            Dtype::F32 => 4,
        }
    }
}

/// Which engine computes the sum.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum EngineKind {
    /// The plain sequential loop (the reference itself).
    Loop,
    /// The host pipeline: chunk sums, plan, units, walk.
    Walk,
    /// The device pipeline on an NVIDIA GPU.
    Gpu,
}

/// How results are printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum OutputFormat {
    /// A short block per file.
    Text,
    /// One JSON object per line and file.
    Json,
}

// ---------------------------------------------------------------------------------------
// Reading term streams
// ---------------------------------------------------------------------------------------

/// A term stream read from a file, in memory order.
#[derive(Clone, Debug, PartialEq)]
pub enum Terms {
    /// float64 terms.
    F64(Vec<f64>),
    /// float32 terms.
    F32(Vec<f32>),
}

impl Terms {
    /// The number of terms.
    pub fn len(&self) -> usize {
        match self {
            Terms::F64(v) => v.len(),
            Terms::F32(v) => v.len(),
        }
    }

    /// True when the stream holds no term.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The terms as f64 (f32 terms widen exactly).
    pub fn as_f64(&self) -> Cow<'_, [f64]> {
        match self {
            Terms::F64(v) => Cow::Borrowed(v),
            Terms::F32(v) => Cow::Owned(v.iter().map(|&x| x as f64).collect()),
        }
    }

    /// The terms as f32 (f64 terms rounded to nearest); used only to reuse another
    /// stream's plan, which never changes the bits of a sum.
    pub fn as_f32(&self) -> Cow<'_, [f32]> {
        match self {
            Terms::F64(v) => Cow::Owned(v.iter().map(|&x| x as f32).collect()),
            Terms::F32(v) => Cow::Borrowed(v),
        }
    }
}

/// Reads the terms of `path`: a `.npy` file (by its extension) is decoded as its header says;
/// any other file is raw little-endian `raw_dtype`. Errors are one-line reasons (without the
/// file name); an empty stream is an error.
pub fn read_terms(path: &Path, raw_dtype: Option<Dtype>) -> Result<Terms, String> {
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    let terms = if is_npy(path) {
        read_npy(&bytes)?
    } else {
        let dtype = raw_dtype.ok_or("not a .npy file, so --dtype f64 or --dtype f32 is needed")?;
        read_raw(&bytes, dtype)?
    };
    if terms.is_empty() {
        return Err("empty stream (no terms)".into());
    }
    Ok(terms)
}

fn is_npy(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("npy"))
}

/// Decodes raw little-endian terms; the length must be a multiple of the term size.
pub fn read_raw(bytes: &[u8], dtype: Dtype) -> Result<Terms, String> {
    if !bytes.len().is_multiple_of(dtype.size()) {
        return Err(format!(
            "{} bytes is not a multiple of {} (the size of one {} term)",
            bytes.len(),
            dtype.size(),
            dtype.name()
        ));
    }
    Ok(decode(bytes, dtype, false))
}

/// Decodes a `.npy` file: float64 or float32, either byte order, C order, any shape
/// (flattened in memory order). The data must be exactly as long as the header says.
pub fn read_npy(bytes: &[u8]) -> Result<Terms, String> {
    if !bytes.starts_with(b"\x93NUMPY") {
        return Err("not a .npy file (the \\x93NUMPY magic is missing)".into());
    }
    let mut data = bytes;
    let header = NpyHeader::from_reader(&mut data).map_err(|e| match e.kind() {
        std::io::ErrorKind::UnexpectedEof => "truncated .npy header".to_string(),
        _ => format!("malformed .npy header: {}", one_line(&e.to_string())),
    })?;
    let (dtype, big_endian) = float_dtype(&header.dtype())?;
    if header.order() == Order::Fortran {
        return Err("Fortran-order arrays are not supported (save a C-order array, e.g. np.ascontiguousarray)".into());
    }
    let n = header
        .shape()
        .iter()
        .try_fold(1u64, |acc, &d| acc.checked_mul(d))
        .ok_or("the shape's element count overflows")?;
    let want = n
        .checked_mul(dtype.size() as u64)
        .ok_or("the shape's byte count overflows")?;
    let have = data.len() as u64;
    if have < want {
        return Err(format!(
            "truncated data: the header announces {n} terms ({want} bytes), {have} bytes follow it"
        ));
    }
    if have > want {
        return Err(format!(
            "{} stray bytes after the {n} terms the header announces",
            have - want
        ));
    }
    Ok(decode(data, dtype, big_endian))
}

/// `text` with every run of whitespace (newlines included) turned into one space.
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The float type and byte order (true: big-endian) of a `.npy` dtype, or why it is refused.
fn float_dtype(dtype: &DType) -> Result<(Dtype, bool), String> {
    let DType::Plain(ts) = dtype else {
        return Err(format!(
            "structured dtype {} is not supported (f64 and f32 only)",
            dtype.descr()
        ));
    };
    let kind = match (ts.type_char(), ts.size_field()) {
        (TypeChar::Float, 8) => Dtype::F64,
        (TypeChar::Float, 4) => Dtype::F32,
        (TypeChar::Float, 2) => {
            return Err(format!(
                "dtype {ts} (float16) is not supported (f64 and f32 only)"
            ))
        }
        (TypeChar::Float, _) => {
            return Err(format!(
                "dtype {ts} (extended float) is not supported (f64 and f32 only)"
            ))
        }
        (TypeChar::Int | TypeChar::Uint | TypeChar::Bool, _) => {
            return Err(format!(
                "dtype {ts} (integer) is not supported (f64 and f32 only)"
            ))
        }
        (TypeChar::Complex, _) => {
            return Err(format!(
                "dtype {ts} (complex) is not supported (f64 and f32 only)"
            ))
        }
        _ => return Err(format!("dtype {ts} is not a float type (f64 and f32 only)")),
    };
    match ts.endianness() {
        Endianness::Little => Ok((kind, false)),
        Endianness::Big => Ok((kind, true)),
        Endianness::Irrelevant => Err(format!("dtype {ts} has no byte order")),
    }
}

/// Decodes whole terms of `dtype` from `bytes` (a multiple of the term size), in order.
fn decode(bytes: &[u8], dtype: Dtype, big_endian: bool) -> Terms {
    match dtype {
        Dtype::F64 => Terms::F64(
            words::<8>(bytes, big_endian)
                .map(f64::from_le_bytes)
                .collect(),
        ),
        Dtype::F32 => Terms::F32(
            words::<4>(bytes, big_endian)
                .map(f32::from_le_bytes)
                .collect(),
        ),
    }
}

/// The `N`-byte words of `bytes` in little-endian order (reversed from big-endian files).
fn words<const N: usize>(bytes: &[u8], big_endian: bool) -> impl Iterator<Item = [u8; N]> + '_ {
    bytes.chunks_exact(N).map(move |c| {
        let mut a = [0u8; N];
        a.copy_from_slice(c);
        if big_endian {
            a.reverse();
        }
        a
    })
}

// ---------------------------------------------------------------------------------------
// Engines
// ---------------------------------------------------------------------------------------

/// Something that computes the sequential loop's result of a stream. f32 streams are summed
/// in f32, f64 streams in f64.
///
/// Contract: `total` has the bits of [`walk::loop_sum`] (NaN as NaN) for every input and
/// plan; `fallback` counts the chunks of [`walk::CHUNK`] terms added term by term.
pub trait Engine {
    /// The engine's name in reports (`loop`, `walk`, `gpu`).
    fn name(&self) -> &'static str;
    /// True when the engine follows a plan (false for the plain loop, which has none).
    fn planned(&self) -> bool {
        true
    }
    /// The sum of f64 terms under plan `plan` (`stale`, the chunk sums of another input,
    /// feeds [`PlanKind::Stale`]).
    fn sum_f64(
        &mut self,
        terms: &[f64],
        plan: &PlanKind,
        stale: Option<&[f64]>,
    ) -> Result<Walk<f64>>;
    /// The sum of f32 terms under plan `plan` (`stale`, the chunk sums of another input,
    /// feeds [`PlanKind::Stale`]).
    fn sum_f32(
        &mut self,
        terms: &[f32],
        plan: &PlanKind,
        stale: Option<&[f32]>,
    ) -> Result<Walk<f32>>;
}

/// The plain loop: every chunk is taken term by term.
struct LoopEngine;

fn loop_walk<F: Format>(terms: &[F::Value]) -> Walk<F::Value> {
    Walk {
        total: walk::loop_sum::<F>(terms),
        applied: 0,
        fallback: chunk_count(terms.len()),
    }
}

impl Engine for LoopEngine {
    fn name(&self) -> &'static str {
        "loop"
    }
    fn planned(&self) -> bool {
        false
    }
    fn sum_f64(&mut self, terms: &[f64], _: &PlanKind, _: Option<&[f64]>) -> Result<Walk<f64>> {
        Ok(loop_walk::<F64>(terms))
    }
    fn sum_f32(&mut self, terms: &[f32], _: &PlanKind, _: Option<&[f32]>) -> Result<Walk<f32>> {
        Ok(loop_walk::<F32>(terms))
    }
}

/// The host pipeline of [`walk::pipeline`].
struct HostWalkEngine;

impl Engine for HostWalkEngine {
    fn name(&self) -> &'static str {
        "walk"
    }
    fn sum_f64(
        &mut self,
        terms: &[f64],
        plan: &PlanKind,
        stale: Option<&[f64]>,
    ) -> Result<Walk<f64>> {
        Ok(walk::pipeline::<F64, Exact>(terms, plan, stale, &Exact))
    }
    fn sum_f32(
        &mut self,
        terms: &[f32],
        plan: &PlanKind,
        stale: Option<&[f32]>,
    ) -> Result<Walk<f32>> {
        Ok(walk::pipeline::<F32, Exact>(terms, plan, stale, &Exact))
    }
}

/// The engine of kind `kind`, or why the device is unusable.
fn open_engine(kind: EngineKind) -> Result<Box<dyn Engine>, NoDevice> {
    match kind {
        EngineKind::Loop => Ok(Box::new(LoopEngine)),
        EngineKind::Walk => Ok(Box::new(HostWalkEngine)),
        EngineKind::Gpu => open_gpu_engine(),
    }
}

/// The device pipeline (`crate::gpu::GpuOrderedSum`), compiled once per call.
struct GpuEngine(crate::gpu::GpuOrderedSum);

impl Engine for GpuEngine {
    fn name(&self) -> &'static str {
        "gpu"
    }
    fn sum_f64(
        &mut self,
        terms: &[f64],
        plan: &PlanKind,
        stale: Option<&[f64]>,
    ) -> Result<Walk<f64>> {
        let sums = self
            .0
            .sums_of(terms, std::slice::from_ref(&(0..terms.len())), plan, stale)?;
        let s = sums
            .first()
            .ok_or_else(|| anyhow::anyhow!("the device returned no sum"))?;
        Ok(Walk {
            total: s.total,
            applied: s.applied as usize,
            fallback: s.fallback as usize,
        })
    }
    fn sum_f32(&mut self, _: &[f32], _: &PlanKind, _: Option<&[f32]>) -> Result<Walk<f32>> {
        anyhow::bail!("--engine gpu sums f64 streams only (the device has no f32 pipeline yet)")
    }
}

/// Opens the GPU engine: the device, and the ordered-sum kernels compiled for it. No driver,
/// no device or kernels that do not compile give `NoDevice` with a one-line reason.
fn open_gpu_engine() -> Result<Box<dyn Engine>, NoDevice> {
    let gpu = crate::gpu::Gpu::open()?;
    let sum = crate::gpu::GpuOrderedSum::new(&gpu).map_err(|e| {
        NoDevice(format!(
            "compiling the ordered-sum kernels: {}",
            one_line(&format!("{e:#}"))
        ))
    })?;
    Ok(Box::new(GpuEngine(sum)))
}

// ---------------------------------------------------------------------------------------
// Running and reporting
// ---------------------------------------------------------------------------------------

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
    pub order: &'static str,
    /// The engine's sum, shortest decimal that reads back to the same value.
    pub sum: String,
    /// The engine's sum as hex bits (`0x` and 16 or 8 digits).
    pub bits: String,
    /// Chunks the engine added term by term.
    pub term_by_term_chunks: usize,
    /// The comparison with the plain loop (`--check`), `null` without it.
    pub check: Option<LoopCheck>,
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
fn show<F: Format>(v: F::Value) -> (String, String) {
    let digits = ((F::EXP_BITS + F::FRAC_BITS + 1) / 4) as usize;
    (format!("{v:?}"), format!("0x{:0digits$x}", F::to_bits(v)))
}

/// Sums one stream with `engine` and builds its report (checked against the loop on request).
fn sum_stream<F: Format>(
    terms: &[F::Value],
    run: impl FnOnce() -> Result<Walk<F::Value>>,
    check: bool,
) -> Result<(Walk<F::Value>, Option<LoopCheck>)> {
    let got = run()?;
    let check = check.then(|| {
        let want = walk::loop_sum::<F>(terms);
        let (loop_sum, loop_bits) = show::<F>(want);
        LoopCheck {
            equal: same_result::<F>(F::to_bits(got.total), F::to_bits(want)),
            loop_sum,
            loop_bits,
        }
    });
    Ok((got, check))
}

/// Reads, sums and reports one file.
fn sum_file(
    engine: &mut dyn Engine,
    path: &Path,
    args: &SumArgs,
    stale: Option<&Terms>,
) -> Result<FileReport> {
    let terms = read_terms(path, args.dtype).map_err(anyhow::Error::msg)?;
    match args.order {
        CpuOrder::Sequential => {}
    }
    let (name, planned) = (engine.name(), engine.planned());
    let (dtype, total, check, fallback) = match &terms {
        Terms::F64(t) => {
            let stale = stale.map(|t| walk::chunk_sums::<F64>(&t.as_f64()));
            let (w, c) = sum_stream::<F64>(
                t,
                || engine.sum_f64(t, &args.plan, stale.as_deref()),
                args.check,
            )?;
            (Dtype::F64, show::<F64>(w.total), c, w.fallback)
        }
        Terms::F32(t) => {
            let stale = stale.map(|t| walk::chunk_sums::<F32>(&t.as_f32()));
            let (w, c) = sum_stream::<F32>(
                t,
                || engine.sum_f32(t, &args.plan, stale.as_deref()),
                args.check,
            )?;
            (Dtype::F32, show::<F32>(w.total), c, w.fallback)
        }
    };
    Ok(FileReport {
        file: path.display().to_string(),
        dtype: dtype.name(),
        terms: terms.len(),
        chunks: chunk_count(terms.len()),
        engine: name,
        plan: planned.then(|| args.plan.name()),
        order: args.order.name(),
        sum: total.0,
        bits: total.1,
        term_by_term_chunks: fallback,
        check,
    })
}

/// The text block of one file.
fn text_block(r: &FileReport) -> String {
    let mut out = format!("{}\n", r.file);
    out += &format!("  terms   {} {} in {} chunks\n", r.terms, r.dtype, r.chunks);
    out += &format!("  sum     {} ({})\n", r.sum, r.bits);
    let plan = r
        .plan
        .as_ref()
        .map(|p| format!("plan {p}, "))
        .unwrap_or_default();
    out += &format!(
        "  engine  {} ({plan}order {}): {} of {} chunks term by term\n",
        r.engine, r.order, r.term_by_term_chunks, r.chunks
    );
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
fn render(r: &FileReport, format: OutputFormat) -> String {
    match format {
        OutputFormat::Text => text_block(r),
        OutputFormat::Json => format!("{}\n", serde_json::to_string(r).unwrap_or_default()),
    }
}

/// Options that make no sense together, as one line.
fn check_options(args: &SumArgs) -> Result<(), String> {
    match (&args.plan, &args.stale_from) {
        (PlanKind::Stale, None) => {
            Err("--plan stale needs --stale-from FILE (the input whose plan it reuses)".into())
        }
        (plan, Some(_)) if *plan != PlanKind::Stale => Err(format!(
            "--stale-from is only used by --plan stale, not --plan {plan}"
        )),
        _ => Ok(()),
    }
}

/// Runs `binade sum`; returns the exit code: 0 when every file was summed (and matched the
/// loop under `--check`), 1 when a check failed, 2 when some input was bad (the other files
/// are still reported), 3 when `--engine gpu` finds no usable GPU.
pub fn run(args: &SumArgs) -> i32 {
    if let Err(e) = check_options(args) {
        eprintln!("binade sum: {e}");
        return EXIT_BAD_INPUT;
    }
    let stale = match &args.stale_from {
        Some(p) => match read_terms(p, args.dtype) {
            Ok(t) => Some(t),
            Err(e) => {
                eprintln!(
                    "binade sum: {}: {} (the --stale-from input)",
                    p.display(),
                    one_line(&e)
                );
                return EXIT_BAD_INPUT;
            }
        },
        None => None,
    };
    let mut engine = match open_engine(args.engine) {
        Ok(e) => e,
        Err(nd) => {
            eprintln!("binade sum: {nd}");
            return EXIT_NO_DEVICE;
        }
    };
    let mut code = EXIT_OK;
    let mut stdout = std::io::stdout().lock();
    for path in &args.files {
        let shown = match sum_file(engine.as_mut(), path, args, stale.as_ref()) {
            Ok(r) => {
                if r.check.as_ref().is_some_and(|c| !c.equal) {
                    code = code.max(EXIT_FAILED_CHECKS);
                }
                render(&r, args.format)
            }
            Err(e) => {
                let reason = one_line(&format!("{e:#}"));
                eprintln!("binade sum: {}: {reason}", path.display());
                let bad = if e.downcast_ref::<NoDevice>().is_some() {
                    EXIT_NO_DEVICE
                } else {
                    EXIT_BAD_INPUT
                };
                code = code.max(bad);
                match args.format {
                    OutputFormat::Json => {
                        let obj = serde_json::json!({ "file": path.display().to_string(), "error": reason });
                        format!("{obj}\n")
                    }
                    OutputFormat::Text => String::new(),
                }
            }
        };
        // A closed stdout (`| head`) ends the call quietly; the exit code stands.
        if stdout.write_all(shown.as_bytes()).is_err() {
            break;
        }
    }
    code
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verify::mutant::Mutant;

    fn npy(descr: &str, fortran: bool, shape: &str, data: &[u8]) -> Vec<u8> {
        let dict = format!(
            "{{'descr': '{descr}', 'fortran_order': {}, 'shape': {shape}, }}",
            if fortran { "True" } else { "False" }
        );
        let mut header = dict.into_bytes();
        while (10 + header.len() + 1) % 64 != 0 {
            header.push(b' ');
        }
        header.push(b'\n');
        let mut out = b"\x93NUMPY\x01\x00".to_vec();
        out.extend_from_slice(&(header.len() as u16).to_le_bytes());
        out.extend_from_slice(&header);
        out.extend_from_slice(data);
        out
    }

    #[test]
    fn big_and_little_endian_decode_to_the_same_terms() {
        let xs = [1.5f64, -0.0, f64::NAN, 5e-324, f64::INFINITY];
        let le: Vec<u8> = xs.iter().flat_map(|x| x.to_le_bytes()).collect();
        let be: Vec<u8> = xs.iter().flat_map(|x| x.to_be_bytes()).collect();
        let a = read_npy(&npy("<f8", false, "(5,)", &le)).unwrap();
        let b = read_npy(&npy(">f8", false, "(5,)", &be)).unwrap();
        let bits = |t: &Terms| match t {
            Terms::F64(v) => v.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
            Terms::F32(_) => panic!("f64 expected"),
        };
        assert_eq!(bits(&a), xs.iter().map(|x| x.to_bits()).collect::<Vec<_>>());
        assert_eq!(bits(&a), bits(&b));
        let ys = [0.25f32, 3.0, -1e-40];
        let be32: Vec<u8> = ys.iter().flat_map(|x| x.to_be_bytes()).collect();
        assert_eq!(
            read_npy(&npy(">f4", false, "(1, 3)", &be32)).unwrap(),
            Terms::F32(ys.to_vec())
        );
    }

    #[test]
    fn header_and_length_errors_are_one_line() {
        let eight = 1.0f64.to_le_bytes();
        let cases = [
            (npy("<f8", false, "(2,)", &eight), "truncated data"),
            (
                npy("<f8", false, "(1,)", &[eight, eight].concat()),
                "stray bytes",
            ),
            (npy("<f8", true, "(1,)", &eight), "Fortran-order"),
            (npy("<i8", false, "(1,)", &eight), "integer"),
            (npy("<f2", false, "(4,)", &eight), "float16"),
            (
                npy("<c16", false, "(1,)", &[eight, eight].concat()),
                "complex",
            ),
            (b"\x93NUMPY\x01\x00\x40".to_vec(), "truncated .npy header"),
            (b"PK\x03\x04 not numpy".to_vec(), "magic"),
        ];
        for (bytes, want) in cases {
            let e = read_npy(&bytes).unwrap_err();
            assert!(e.contains(want), "expected `{want}` in `{e}`");
            assert!(!e.contains('\n'), "multi-line error: {e}");
        }
        assert!(read_raw(&[0u8; 12], Dtype::F64)
            .unwrap_err()
            .contains("not a multiple of 8"));
        assert_eq!(
            read_raw(&[0u8; 12], Dtype::F32).unwrap(),
            Terms::F32(vec![0.0; 3])
        );
    }

    /// The walk under a broken algebra: what `--check` exists to catch.
    struct TieAlwaysUpEngine;

    impl Engine for TieAlwaysUpEngine {
        fn name(&self) -> &'static str {
            "walk/tie-always-up"
        }
        fn sum_f64(&mut self, t: &[f64], p: &PlanKind, s: Option<&[f64]>) -> Result<Walk<f64>> {
            Ok(walk::pipeline::<F64, Mutant>(t, p, s, &Mutant::TieAlwaysUp))
        }
        fn sum_f32(&mut self, t: &[f32], p: &PlanKind, s: Option<&[f32]>) -> Result<Walk<f32>> {
            Ok(walk::pipeline::<F32, Mutant>(t, p, s, &Mutant::TieAlwaysUp))
        }
    }

    fn sum_args(argv: &[&str]) -> SumArgs {
        use clap::Parser;
        let cli = crate::cli::Cli::try_parse_from(["binade", "sum"].iter().chain(argv)).unwrap();
        match cli.command {
            crate::cli::Command::Sum(args) => args,
            other => panic!("parsed as {other:?}"),
        }
    }

    #[test]
    fn check_reports_a_wrong_engine() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/fixtures/npy/adversarial-ties-f64.npy"
        );
        let args = sum_args(&["--check", path]);
        let report = sum_file(&mut TieAlwaysUpEngine, Path::new(path), &args, None).unwrap();
        let check = report.check.clone().unwrap();
        assert!(
            !check.equal,
            "a tie-always-up walk must differ on {path}: {report:?}"
        );
        assert_ne!(report.bits, check.loop_bits);
        assert!(text_block(&report).contains("  check   DIFFERS from the loop: "));
        let right = sum_file(&mut HostWalkEngine, Path::new(path), &args, None).unwrap();
        assert_eq!(right.bits, check.loop_bits);
        assert!(right.check.unwrap().equal);
    }

    #[test]
    fn show_gives_shortest_decimal_and_full_width_hex() {
        assert_eq!(
            show::<F64>(0.1),
            ("0.1".into(), "0x3fb999999999999a".into())
        );
        assert_eq!(show::<F32>(0.1f32), ("0.1".into(), "0x3dcccccd".into()));
        assert_eq!(show::<F64>(1.0).1.len(), 18);
        assert_eq!(show::<F32>(f32::NAN).0, "NaN");
    }
}
