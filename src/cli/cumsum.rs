//! `binade cumsum IN OUT.npy`: the loop's running sum at every position of a term stream,
//! written as a `.npy` file of the input's type.
//!
//! The input is read as `binade sum` reads it ([`super::sum::read_terms_or_empty`]: `.npy`
//! float64 or float32 of any shape in C order, flattened in memory order, or raw floats with
//! `--dtype`); an empty stream gives an empty output, as `np.cumsum` does. The output is a 1-D
//! little-endian array of the same type, written to a temporary file in OUT's folder and
//! renamed over OUT once it is complete: a failed run never leaves half a file, and an OUT
//! that existed before stays as it was.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::Result;

use super::exit::{
    EXIT_BAD_INPUT, EXIT_FAILED_CHECKS, EXIT_KERNEL_COMPILE, EXIT_NO_DEVICE, EXIT_OK,
};
use super::sum::decode::one_line;
use super::sum::{read_terms_or_empty, Dtype, Terms};
use crate::cumsum::{
    first_difference, first_difference_nan_as_nan, loop_cumsum_into, ordered_cumsum_into, Start,
};
use crate::fast::FastTerm;
use crate::format::Format;
use crate::gpu::{Gpu, GpuCumsum, KernelCompileError};

/// Arguments of `binade cumsum`.
#[derive(Debug, clap::Args)]
pub struct CumsumArgs {
    /// The term stream: `.npy` (float64 or float32, any shape, C order; flattened in memory
    /// order) or raw little-endian floats (then `--dtype` is required).
    pub input: PathBuf,
    /// Where the running sums go: a 1-D `.npy` array of the input's type, written whole or
    /// not at all.
    pub output: PathBuf,
    /// Who computes the running sums: the exact engine over all threads (the default), or
    /// the plain loop.
    #[arg(long, value_enum, default_value_t = CumsumEngine::Exact)]
    pub engine: CumsumEngine,
    /// The loop's start: numpy's `np.cumsum` (first-term, the default), `s = 0.0`
    /// (positive-zero) or `s = -0.0` (negative-zero).
    #[arg(long, value_enum, default_value_t = StartArg::FirstTerm)]
    pub start: StartArg,
    /// Element type of a raw (non-.npy) input; a .npy file's own header decides its type.
    #[arg(long, value_enum)]
    pub dtype: Option<Dtype>,
    /// Also run the plain loop and compare every position's bits (exit 1 on a difference).
    #[arg(long)]
    pub check: bool,
}

/// Which engine computes the running sums. (A device engine is a later variant here, with
/// its own arm in [`run_engine`].)
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum CumsumEngine {
    /// The exact engine of [`crate::cumsum`]: exact block starts from the fast engine's walk,
    /// then each block's native loop on rayon's threads (`fast` is accepted as its name in
    /// `binade sum`).
    #[value(alias = "fast")]
    Exact,
    /// The plain sequential loop (the reference itself).
    Loop,
    /// The one-pass engine's running sums on an NVIDIA GPU ([`crate::gpu::GpuCumsum`], f64).
    Gpu,
}

impl CumsumEngine {
    /// The engine's name in the output.
    pub fn name(self) -> &'static str {
        match self {
            CumsumEngine::Exact => "exact",
            CumsumEngine::Loop => "loop",
            CumsumEngine::Gpu => "gpu",
        }
    }
}

/// `--start` on the command line (the library's [`Start`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum StartArg {
    /// numpy's `np.cumsum`: the first output is the first term, copied.
    FirstTerm,
    /// `s = 0.0; for x { s += x }`.
    PositiveZero,
    /// `s = -0.0; for x { s += x }` (Rust's float `Iterator::sum`).
    NegativeZero,
}

impl From<StartArg> for Start {
    fn from(s: StartArg) -> Start {
        match s {
            StartArg::FirstTerm => Start::FirstTerm,
            StartArg::PositiveZero => Start::PositiveZero,
            StartArg::NegativeZero => Start::NegativeZero,
        }
    }
}

/// Runs `binade cumsum`; the exit code: 0 written (and equal to the loop under `--check`),
/// 1 `--check` found a difference (OUT is still written: it is the engine's output), 2 bad
/// input or an OUT that cannot be written (one line on stderr; OUT untouched).
pub fn run(args: &CumsumArgs) -> i32 {
    let gpu = if args.engine == CumsumEngine::Gpu {
        match open_gpu() {
            Ok(c) => Some(c),
            Err((code, msg)) => {
                eprintln!("binade cumsum: {msg}");
                return code;
            }
        }
    } else {
        None
    };
    match cumsum_file(args, gpu.as_ref()) {
        Ok(summary) => {
            println!("{}", summary.line);
            if summary.differs.is_some() {
                EXIT_FAILED_CHECKS
            } else {
                EXIT_OK
            }
        }
        Err(e) => {
            eprintln!("binade cumsum: {}", one_line(&format!("{e:#}")));
            EXIT_BAD_INPUT
        }
    }
}

/// What one run did, in one line, and the first position where `--check` found the engine's
/// bits different from the loop's.
struct Summary {
    line: String,
    differs: Option<usize>,
}

/// The device and its running-sum kernels, or the exit code and one line saying why not
/// (no usable GPU: [`EXIT_NO_DEVICE`]; kernels that do not compile: [`EXIT_KERNEL_COMPILE`]).
fn open_gpu() -> std::result::Result<GpuCumsum, (i32, String)> {
    let gpu = Gpu::open().map_err(|e| (EXIT_NO_DEVICE, e.to_string()))?;
    GpuCumsum::new(&gpu).map_err(|e| match e.downcast_ref::<KernelCompileError>() {
        Some(c) => (
            EXIT_KERNEL_COMPILE,
            format!(
                "the running-sum kernels do not compile: {}",
                one_line(&c.to_string())
            ),
        ),
        None => (
            EXIT_NO_DEVICE,
            one_line(&format!("loading the running-sum kernels: {e:#}")),
        ),
    })
}

/// The running sums of f64 `terms` on the device into `out`: copied there, computed,
/// copied back; returns the wall-clock milliseconds of the three.
fn on_gpu(c: &GpuCumsum, terms: &[f64], start: Start, out: &mut [f64]) -> Result<[f64; 3]> {
    if terms.is_empty() {
        return Ok([0.0; 3]);
    }
    let s = c.engine().gpu().stream().clone();
    let t = Instant::now();
    let dev = s.clone_htod(terms)?;
    let mut dout = s.alloc_zeros::<f64>(terms.len())?;
    s.synchronize()?;
    let upload = t.elapsed().as_secs_f64() * 1e3;
    let t = Instant::now();
    c.run(dev.slice(..), &mut dout.slice_mut(..), start)?;
    s.synchronize()?;
    let kernel = t.elapsed().as_secs_f64() * 1e3;
    let t = Instant::now();
    s.memcpy_dtoh(&dout, out)?;
    Ok([upload, kernel, t.elapsed().as_secs_f64() * 1e3])
}

fn cumsum_file(args: &CumsumArgs, gpu: Option<&GpuCumsum>) -> Result<Summary> {
    let t0 = Instant::now();
    let terms = read_terms_or_empty(&args.input, args.dtype)
        .map_err(|e| anyhow::anyhow!("{}: {e}", args.input.display()))?;
    let start = Start::from(args.start);
    let mut device = None;
    let (dtype, last, differs) = match (&terms, gpu) {
        (Terms::F64(t), Some(c)) => one_type(t, args, start, |t, out| {
            device = Some(on_gpu(c, t, start, out)?);
            Ok(())
        })?,
        (Terms::F32(_), Some(_)) => {
            anyhow::bail!(
                "--engine gpu writes f64 running sums only (the device has no f32 engine yet)"
            )
        }
        (Terms::F64(t), None) => one_type(t, args, start, |t, out| {
            run_engine(args.engine, t, start, out)
        })?,
        (Terms::F32(t), None) => one_type(t, args, start, |t, out| {
            run_engine(args.engine, t, start, out)
        })?,
    };
    let mut line = format!(
        "{} -> {}: {} {dtype} terms, engine {}, start {start}, last {last}, {:.1} ms",
        args.input.display(),
        args.output.display(),
        terms.len(),
        args.engine.name(),
        t0.elapsed().as_secs_f64() * 1e3,
    );
    if let Some([up, kernel, down]) = device {
        line.push_str(&format!(
            " (device: upload {up:.1} ms, running sums {kernel:.1} ms, download {down:.1} ms)"
        ));
    }
    if args.check {
        match differs {
            None => line.push_str(", check: equal to the loop at every position"),
            Some(i) => line.push_str(&format!(", check: DIFFERS from the loop at index {i}")),
        }
    }
    Ok(Summary { line, differs })
}

/// The running sums of one stream into OUT: the dtype's name, the last output as shortest
/// decimal and bits (`-` for an empty stream), and the first index where `--check` differs.
fn one_type<T: FastTerm + npyz::AutoSerialize>(
    terms: &[T],
    args: &CumsumArgs,
    start: Start,
    engine: impl FnOnce(&[T], &mut [T]) -> Result<()>,
) -> Result<(&'static str, String, Option<usize>)> {
    let mut out = vec![<T::F as Format>::from_bits(0); terms.len()];
    engine(terms, &mut out)?;
    let differs = if args.check {
        let mut want = vec![<T::F as Format>::from_bits(0); terms.len()];
        loop_cumsum_into(terms, start, &mut want);
        if args.engine == CumsumEngine::Gpu {
            // The device's adds return a NaN without the operand's payload.
            first_difference_nan_as_nan(&out, &want)
        } else {
            first_difference(&out, &want)
        }
    } else {
        None
    };
    write_npy_atomically(&args.output, &out)?;
    let last = out.last().map_or("-".to_string(), |&v| {
        let (dec, hex) = super::sum::output::show::<T::F>(v);
        format!("{dec} ({hex})")
    });
    Ok((<T::F as Format>::NAME, last, differs))
}

/// The engine of kind `kind` over `terms` into `out`.
fn run_engine<T: FastTerm>(
    kind: CumsumEngine,
    terms: &[T],
    start: Start,
    out: &mut [T],
) -> Result<()> {
    match kind {
        CumsumEngine::Exact => ordered_cumsum_into(terms, start, out),
        CumsumEngine::Loop => loop_cumsum_into(terms, start, out),
        CumsumEngine::Gpu => anyhow::bail!("the device engine needs its device (on_gpu)"),
    }
    Ok(())
}

/// Writes `values` as a 1-D little-endian `.npy` array at `path`: into a new temporary file in
/// the same folder, flushed and synced, then renamed over `path`. On any error the temporary
/// file is removed and `path` is left as it was.
pub fn write_npy_atomically<T: npyz::AutoSerialize + Copy>(
    path: &Path,
    values: &[T],
) -> Result<()> {
    super::atomic::write_replacing(path, |buf| {
        use npyz::WriterBuilder;
        let mut w = npyz::WriteOptions::new()
            .default_dtype()
            .shape(&[values.len() as u64])
            .writer(buf)
            .begin_nd()?;
        w.extend(values.iter().copied())?;
        w.finish()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_write_leaves_the_old_file_and_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out.npy");
        std::fs::write(&out, b"old").unwrap();
        // A folder where the temporary file must go is missing: nothing is written.
        let missing = dir.path().join("no-such-folder/out.npy");
        assert!(write_npy_atomically(&missing, &[1.0f64]).is_err());
        // OUT is a folder: the rename fails, the temporary file is removed.
        let folder = dir.path().join("folder.npy");
        std::fs::create_dir(&folder).unwrap();
        std::fs::write(folder.join("keep"), b"x").unwrap();
        assert!(write_npy_atomically(&folder, &[1.0f64]).is_err());
        assert_eq!(std::fs::read(&out).unwrap(), b"old");
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert!(names.iter().all(|n| !n.contains(".tmp")), "{names:?}");
        write_npy_atomically(&out, &[1.5f64, -0.0]).unwrap();
        let bytes = std::fs::read(&out).unwrap();
        let v: Vec<f64> = npyz::NpyFile::new(&bytes[..]).unwrap().into_vec().unwrap();
        assert_eq!(
            v.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
            [1.5f64.to_bits(), 1 << 63]
        );
    }
}
