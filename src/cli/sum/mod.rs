//! `binade sum`: term streams from files, summed the way the CPU loop sums them.
//!
//! Each file is read into memory as a stream of f64 or f32 terms ([`decode::read_terms`]),
//! summed by an [`engines::Engine`] (the plain loop, the host walk, or the GPU), and reported
//! as text or as one JSON object per file ([`output`]). A bad file is reported in one line on
//! stderr and the call goes on with the next file; the exit code then says that some input
//! was bad.

pub mod decode;
pub mod engines;
pub mod output;

use std::io::Write;
use std::path::PathBuf;

use crate::cli::exit::{
    EXIT_BAD_INPUT, EXIT_FAILED_CHECKS, EXIT_KERNEL_COMPILE, EXIT_NO_DEVICE, EXIT_OK,
};
use crate::format::{Format, F32, F64};
use crate::gpu::{KernelCompileError, NoDevice};
use crate::order::{CpuOrder, Start};
use crate::plan::PlanKind;

use decode::one_line;
pub use decode::{read_npy, read_raw, read_terms, read_terms_or_empty, TermVec, Terms};
use engines::open_engine;
pub use engines::{Engine, OpenError};
use output::{render, sum_file};
pub use output::{FileReport, LoopCheck};

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
    /// Who computes the sum: the fast CPU engine (the default), the plain loop, the host
    /// walk in the kernels' layout, or the GPU.
    #[arg(long, value_enum, default_value_t = EngineKind::Fast)]
    pub engine: EngineKind,
    /// How chunks are planned by `--engine walk` and `--engine gpu` (tree-prefix, the default,
    /// one-too-high, one-too-low, all-zero, fixed:E, term-by-term, random:SEED, stale). Any
    /// plan gives the loop's bits; it changes only how many chunks are taken term by term.
    #[arg(long)]
    pub plan: Option<PlanKind>,
    /// The input whose tree-prefix plan `--plan stale` reuses (read like the other files).
    #[arg(long, value_name = "FILE")]
    pub stale_from: Option<PathBuf>,
    /// The CPU loop to reproduce: sequential (the default), interleaved:K (K = 2, 4, 8, 16
    /// accumulators, combined by halves), rows:W (rows of W, then the row sums) or numpy
    /// (`np.sum`'s pairwise order); every order but sequential by --engine fast or loop only
    /// (numpy also by --engine gpu).
    #[arg(long, default_value = "sequential")]
    pub order: CpuOrder,
    /// Where the sequential loop starts: +0 (the default), -0 (Rust's `Iterator::sum`) or
    /// first (numpy's `np.cumsum`: the first term, then the rest). The starts differ only in
    /// the sign of a sum of zeros.
    #[arg(long, default_value = "+0", allow_hyphen_values = true)]
    pub start: Start,
    /// Also run the plain loop and report whether the engine's bits equal it (NaN as NaN).
    #[arg(long)]
    pub check: bool,
    /// Output: text for people, or one JSON object per file for scripts.
    #[arg(long, value_enum, default_value_t = OutputFormat::Text)]
    pub format: OutputFormat,
    /// How `--engine gpu` and `--engine gpu-onepass` copy the terms to the device: staged (the
    /// default: rayon's threads copy into two page-locked buffers while the device copies out
    /// of the other) or plain (the driver's copy from the file's pages). Taken by those two
    /// engines only.
    #[arg(long, value_enum)]
    pub upload: Option<UploadKind>,
}

/// How an exact GPU engine copies the terms to the device.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum UploadKind {
    /// One copy from the host's (pageable, possibly mapped) memory by the driver.
    Plain,
    /// Through page-locked staging buffers (`binade::gpu::upload`).
    Staged,
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
    /// The fast CPU engine over all threads (f64 and f32; follows no plan).
    Fast,
    /// The walked engine on an NVIDIA GPU, the fastest exact one (f64, and f32 by its f32
    /// build with the driver's copy; follows no plan).
    Gpu,
    /// The one-pass engine on an NVIDIA GPU (f64; follows no plan).
    GpuOnepass,
    /// The seed's four-kernel pipeline on an NVIDIA GPU (f64; follows `--plan`).
    GpuPipeline,
}

/// How results are printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum OutputFormat {
    /// A short block per file.
    Text,
    /// One JSON object per line and file.
    Json,
}

impl SumArgs {
    /// The plan asked for, or the default tree-prefix plan.
    pub fn plan(&self) -> PlanKind {
        self.plan.clone().unwrap_or(PlanKind::TreePrefix)
    }

    /// The upload an exact GPU engine uses: `--upload`, else staged (its fix ran on the H200
    /// at d3aaf61, `reports/sum-whole-command`).
    pub fn upload(&self) -> UploadKind {
        self.upload.unwrap_or(UploadKind::Staged)
    }
}

/// Options that make no sense together, as one line.
fn check_options(args: &SumArgs) -> Result<(), String> {
    let gpu_numpy = args.engine == EngineKind::Gpu && args.order == CpuOrder::Numpy;
    if args.order != CpuOrder::Sequential
        && !matches!(args.engine, EngineKind::Loop | EngineKind::Fast)
        && !gpu_numpy
    {
        return Err(format!(
            "--order {}: reproduced by --engine fast and --engine loop (numpy also by --engine gpu); the walk and GPU engines reproduce the sequential loop only",
            args.order
        ));
    }
    if args.start != Start::PlusZero && args.order != CpuOrder::Sequential {
        return Err(format!(
            "--start {} applies to --order sequential; --order {} has its own starts",
            args.start, args.order
        ));
    }
    if args.plan.is_some()
        && matches!(
            args.engine,
            EngineKind::Loop | EngineKind::Fast | EngineKind::Gpu | EngineKind::GpuOnepass
        )
    {
        return Err(format!(
            "--plan is followed by --engine walk and --engine gpu-pipeline only; --engine {} follows none",
            match args.engine {
                EngineKind::Loop => "loop",
                EngineKind::Gpu => "gpu",
                EngineKind::GpuOnepass => "gpu-onepass",
                _ => "fast",
            }
        ));
    }
    let exact_gpu = matches!(args.engine, EngineKind::Gpu | EngineKind::GpuOnepass) && !gpu_numpy;
    if let (Some(upload), false) = (args.upload, exact_gpu) {
        return Err(format!(
            "--upload {} is taken by --engine gpu and --engine gpu-onepass (order sequential) only",
            match upload {
                UploadKind::Plain => "plain",
                UploadKind::Staged => "staged",
            }
        ));
    }
    match (&args.plan(), &args.stale_from) {
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
/// are still reported), 3 when `--engine gpu` finds no usable GPU, 4 when its kernels do not
/// compile.
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
    // The engine opens on a thread of its own while the first file is read (for a GPU
    // engine, the device's context and kernels take longer than mapping a file; its pages
    // are read in meanwhile).
    let (kind, order, upload) = (args.engine, args.order, args.upload());
    let opener = std::thread::spawn(move || open_engine(kind, order, upload));
    let device = matches!(
        args.engine,
        EngineKind::Gpu | EngineKind::GpuOnepass | EngineKind::GpuPipeline
    );
    let early = args
        .files
        .first()
        .map(|p| output::read_early(p, args, device));
    let waited = std::time::Instant::now();
    let opened = opener.join().unwrap_or_else(|_| {
        Err(OpenError::Load(
            "the thread opening the engine panicked".into(),
        ))
    });
    let wait_ms = waited.elapsed().as_secs_f64() * 1e3;
    let mut early = early.map(|(terms, read_ms)| output::EarlyRead {
        terms,
        read_ms,
        wait_ms,
    });
    let mut engine = match opened {
        Ok(e) => e,
        Err(e) => {
            eprintln!("binade sum: {e}");
            return match e {
                OpenError::NoDevice(_) => EXIT_NO_DEVICE,
                OpenError::Compile(_) => EXIT_KERNEL_COMPILE,
                OpenError::Load(_) => EXIT_BAD_INPUT,
            };
        }
    };
    let mut code = EXIT_OK;
    let mut stdout = std::io::stdout().lock();
    for path in &args.files {
        let shown = match sum_file(engine.as_mut(), path, args, stale.as_ref(), early.take()) {
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
                } else if e.downcast_ref::<KernelCompileError>().is_some() {
                    EXIT_KERNEL_COMPILE
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
    use super::decode::*;
    use super::engines::*;
    use super::output::*;
    use super::*;
    use crate::verify::mutant::Mutant;
    use crate::walk::{self, Walk};
    use anyhow::Result;
    use std::path::Path;

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
            Terms::F32(ys.to_vec().into())
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
            Terms::F32(vec![0.0f32; 3].into())
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
        let path = "fixtures/npy/adversarial-ties-f64.npy";
        let args = sum_args(&["--check", path]);
        let report = sum_file(&mut TieAlwaysUpEngine, Path::new(path), &args, None, None).unwrap();
        let check = report.check.clone().unwrap();
        assert!(
            !check.equal,
            "a tie-always-up walk must differ on {path}: {report:?}"
        );
        assert_ne!(report.bits, check.loop_bits);
        assert!(text_block(&report).contains("  check   DIFFERS from the loop: "));
        let right = sum_file(&mut HostWalkEngine, Path::new(path), &args, None, None).unwrap();
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
