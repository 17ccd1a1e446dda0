//! `binade score REF DIST`: per-frame scores of a pair of raw planar YUV files, taken the way
//! libvmaf's `vmaf` tool takes them (`-r REF -d DIST -w W -h H -p 420 -b 8`), with the
//! reference implementations of `float_vif` ([`crate::vif::reference`]) and `ssimulacra2`
//! ([`crate::ssimulacra2`]).
//!
//! Input: each file is its frames one after another, each frame the Y plane then U then V,
//! row by row, one byte per sample at 8 bits and two little-endian bytes above (as vmaf reads
//! `.yuv`); chroma planes are `ceil(w / 2)` wide for 4:2:0 and 4:2:2 and `ceil(h / 2)` high for
//! 4:2:0. Frames are read one pair at a time (memory is one frame pair, whatever the files'
//! length). Both files must hold the same whole number of frames.
//!
//! Output: JSON shaped like `vmaf --json`'s: `frames` (each `frameNum` and its `metrics`, the
//! names as vmaf prints them: `VMAF_feature_vif_scaleN_score` as `vif_scaleN`) and
//! `pooled_metrics` (`min`, `max`, `mean`, `harmonic_mean`, computed as libvmaf pools: in
//! frame order, the harmonic mean as `n / sum(1 / (s + 1)) - 1`), plus what was read and the
//! commit the binary was built from. It goes to standard output, or to `--output`, written to
//! a temporary file and renamed into place.
//!
//! Errors (bad sizes, files that do not hold whole frames, samples above the bit depth's
//! maximum, frames smaller than a metric's filters, options out of range) print one line and
//! exit 2, before anything is written.
//!
//! Engines: `cpu` computes with the references; `gpu` computes `float_vif` on the device with
//! the row-parallel exact twin ([`crate::vif::gpu::VifGpu::features`]) and `ssimulacra2`'s
//! per-pixel terms and 108 ordered sums on the device
//! ([`crate::ssimulacra2::device::DeviceSsimulacra2`]; its front end, blur and pyramid stay on
//! the CPU). Both are built to return the CPU engine's bits; the GPU tests of this command
//! (`tests/score_gpu.rs`) compare every output of both engines by bits. Without a usable GPU
//! `--engine gpu` prints one line and exits 3; a kernel that does not compile exits 4.

use std::fs::File;
use std::io::{BufReader, Read, Write};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context as _, Result};

use super::exit::{EXIT_BAD_INPUT, EXIT_KERNEL_COMPILE, EXIT_NO_DEVICE, EXIT_OK};
use super::sum::decode::one_line;
use crate::gpu::{Gpu, KernelCompileError, NoDevice};
use crate::ssimulacra2::device::DeviceSsimulacra2;
use crate::ssimulacra2::yuv::{Chroma, Matrix, Range, YuvFormat, YuvFrame};
use crate::vif::frame::Plane;
use crate::vif::gpu::VifGpu;
use crate::vif::options::VifOptions;
use crate::vif::reference::Features;

/// Arguments of `binade score`.
#[derive(Debug, clap::Args)]
pub struct ScoreArgs {
    /// The reference: raw planar YUV frames (vmaf's `-r`).
    pub reference: PathBuf,
    /// The distorted frames, the same layout (vmaf's `-d`).
    pub distorted: PathBuf,
    /// Frame width in pixels (vmaf's `-w`).
    #[arg(long)]
    pub width: usize,
    /// Frame height in pixels (vmaf's `-h`).
    #[arg(long)]
    pub height: usize,
    /// Chroma subsampling (vmaf's `-p`).
    #[arg(long, value_enum, default_value_t = PixelFormat::P420)]
    pub pixel_format: PixelFormat,
    /// Bits per sample, 8 to 16 (vmaf's `-b`); `float_vif` takes 8, 10, 12 and 16.
    #[arg(long, default_value_t = 8)]
    pub bitdepth: u32,
    /// The YUV matrix of `ssimulacra2` (libvmaf's `yuv_matrix` 0-3 are bt709/bt601 with
    /// limited/full range; `bt2020-extension` is beyond libvmaf).
    #[arg(long, value_enum, default_value_t = MatrixArg::Bt709)]
    pub matrix: MatrixArg,
    /// The YUV range of `ssimulacra2`.
    #[arg(long, value_enum, default_value_t = RangeArg::Limited)]
    pub range: RangeArg,
    /// A metric to compute (repeat for several; default: both).
    #[arg(long = "feature", value_enum)]
    pub features: Vec<Feature>,
    /// A `float_vif` option as libvmaf names it, `NAME=VALUE` (repeat for several):
    /// vif_enhn_gain_limit, vif_kernelscale, vif_sigma_nsq, vif_skip_scale0 (true/false),
    /// vif_scale1_min_val, vif_scale2_min_val, vif_scale3_min_val, debug (true/false).
    #[arg(long = "vif-option", value_name = "NAME=VALUE")]
    pub vif_options: Vec<String>,
    /// Who computes the metrics: the CPU references, or the device with the CPU's bits.
    #[arg(long, value_enum, default_value_t = ScoreEngine::Cpu)]
    pub engine: ScoreEngine,
    /// Where the JSON goes (default: standard output); written whole or not at all.
    #[arg(long, short = 'o')]
    pub output: Option<PathBuf>,
}

/// Who computes the metrics.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ScoreEngine {
    /// The CPU references of float_vif and SSIMULACRA2.
    Cpu,
    /// The device: float_vif's kernels with row-parallel exact sums, SSIMULACRA2's terms and
    /// ordered sums (built to give the CPU engine's bits).
    Gpu,
}

impl ScoreEngine {
    /// The name `--engine` takes and the JSON's `engine` field holds.
    pub fn name(self) -> &'static str {
        match self {
            ScoreEngine::Cpu => "cpu",
            ScoreEngine::Gpu => "gpu",
        }
    }
}

/// Chroma subsampling, as vmaf's `-p` spells it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum PixelFormat {
    /// 4:2:0.
    #[value(name = "420")]
    P420,
    /// 4:2:2.
    #[value(name = "422")]
    P422,
    /// 4:4:4.
    #[value(name = "444")]
    P444,
}

/// The YUV matrix.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum MatrixArg {
    /// BT.709.
    Bt709,
    /// BT.601.
    Bt601,
    /// BT.2020's weights with libvmaf's arithmetic (not a libvmaf option).
    Bt2020Extension,
}

/// The YUV range.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum RangeArg {
    /// Limited (studio) range.
    Limited,
    /// Full range.
    Full,
}

/// A metric `binade score` computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Feature {
    /// libvmaf's `float_vif` on the luma planes: every output it publishes.
    #[value(name = "float_vif")]
    FloatVif,
    /// libvmaf's `ssimulacra2`.
    Ssimulacra2,
}

/// Runs `binade score`; returns the exit code.
pub fn run(args: &ScoreArgs) -> i32 {
    match score_files(args) {
        Ok(frames) => {
            eprintln!("binade score: {frames} frame pairs scored");
            EXIT_OK
        }
        Err(e) => {
            eprintln!("binade score: {}", one_line(&format!("{e:#}")));
            if e.downcast_ref::<NoDevice>().is_some() {
                EXIT_NO_DEVICE
            } else if e.downcast_ref::<KernelCompileError>().is_some() {
                EXIT_KERNEL_COMPILE
            } else {
                EXIT_BAD_INPUT
            }
        }
    }
}

/// The frame format the arguments describe, checked.
pub fn format_of(args: &ScoreArgs) -> Result<YuvFormat> {
    let format = YuvFormat {
        width: args.width,
        height: args.height,
        bit_depth: args.bitdepth,
        chroma: match args.pixel_format {
            PixelFormat::P420 => Chroma::C420,
            PixelFormat::P422 => Chroma::C422,
            PixelFormat::P444 => Chroma::C444,
        },
        matrix: match args.matrix {
            MatrixArg::Bt709 => Matrix::Bt709,
            MatrixArg::Bt601 => Matrix::Bt601,
            MatrixArg::Bt2020Extension => Matrix::Bt2020Extension,
        },
        range: match args.range {
            RangeArg::Limited => Range::Limited,
            RangeArg::Full => Range::Full,
        },
    };
    format.validate()?;
    Ok(format)
}

/// `float_vif` options from `NAME=VALUE` texts, checked against the reference's ranges.
pub fn vif_options(texts: &[String]) -> Result<VifOptions> {
    let mut o = VifOptions::default();
    for text in texts {
        let Some((name, value)) = text.split_once('=') else {
            bail!("--vif-option {text}: expected NAME=VALUE, e.g. vif_kernelscale=0.5");
        };
        let number = || {
            value
                .trim()
                .parse::<f64>()
                .with_context(|| format!("--vif-option {text}: {value} is not a number"))
        };
        let flag = || match value.trim() {
            "true" | "1" => Ok(true),
            "false" | "0" => Ok(false),
            v => bail!("--vif-option {text}: {v} is not true or false"),
        };
        match name.trim() {
            "vif_enhn_gain_limit" => o.enhn_gain_limit = number()?,
            "vif_kernelscale" => o.kernelscale = number()?,
            "vif_sigma_nsq" => o.sigma_nsq = number()?,
            "vif_skip_scale0" => o.skip_scale0 = flag()?,
            "vif_scale1_min_val" => o.min_val[0] = number()?,
            "vif_scale2_min_val" => o.min_val[1] = number()?,
            "vif_scale3_min_val" => o.min_val[2] = number()?,
            "debug" => o.debug = flag()?,
            other => bail!(
                "--vif-option {text}: float_vif has no option {other} (it has vif_enhn_gain_limit, vif_kernelscale, vif_sigma_nsq, vif_skip_scale0, vif_scale1_min_val, vif_scale2_min_val, vif_scale3_min_val, debug)"
            ),
        }
    }
    o.validate()?;
    Ok(o)
}

/// The name vmaf prints for a published feature (libvmaf's alias of the four scale scores).
pub fn printed_name(name: &str) -> &str {
    match name {
        "VMAF_feature_vif_scale0_score" => "vif_scale0",
        "VMAF_feature_vif_scale1_score" => "vif_scale1",
        "VMAF_feature_vif_scale2_score" => "vif_scale2",
        "VMAF_feature_vif_scale3_score" => "vif_scale3",
        other => other,
    }
}

/// One frame's metrics: each printed name and its value, in the order computed (the JSON
/// object lists them by name).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Metrics(pub Vec<(String, f64)>);

impl Metrics {
    fn to_json(&self) -> serde_json::Value {
        serde_json::Value::Object(
            self.0
                .iter()
                .map(|(k, v)| (k.clone(), serde_json::json!(*v)))
                .collect(),
        )
    }
}

/// Who computes the metrics, with what each engine holds: the device's compiled kernels are
/// made once per run, for the features asked for.
pub enum Scorer {
    /// The CPU references.
    Cpu,
    /// The device.
    Gpu(Box<DeviceScorer>),
}

/// The device's pieces for `--engine gpu`.
pub struct DeviceScorer {
    /// The device's name and architecture, for the JSON.
    pub device: String,
    vif: Option<VifGpu>,
    ssimulacra2: Option<DeviceSsimulacra2>,
}

impl Scorer {
    /// The scorer of `engine` for `features`: for `gpu`, opens the device and compiles the
    /// kernels the features need (errors: [`NoDevice`], [`KernelCompileError`]).
    pub fn new(engine: ScoreEngine, features: &[Feature]) -> Result<Scorer> {
        if engine == ScoreEngine::Cpu {
            return Ok(Scorer::Cpu);
        }
        let gpu = Gpu::open()?;
        let vif = if features.contains(&Feature::FloatVif) {
            Some(VifGpu::on(gpu.clone()))
        } else {
            None
        };
        let ssimulacra2 = if features.contains(&Feature::Ssimulacra2) {
            Some(DeviceSsimulacra2::new(&gpu)?)
        } else {
            None
        };
        Ok(Scorer::Gpu(Box::new(DeviceScorer {
            device: format!("{} ({})", gpu.name, gpu.arch),
            vif,
            ssimulacra2,
        })))
    }

    /// The device's description, or `None` for the CPU.
    pub fn device(&self) -> Option<&str> {
        match self {
            Scorer::Cpu => None,
            Scorer::Gpu(d) => Some(&d.device),
        }
    }

    fn float_vif(&mut self, r: &Plane, d: &Plane, opts: &VifOptions) -> Result<Features> {
        match self {
            Scorer::Cpu => Ok(crate::vif::reference::vif(r, d, opts)?),
            Scorer::Gpu(dev) => match dev.vif.as_mut() {
                Some(g) => g.features(r, d, opts),
                None => bail!("float_vif was not prepared on the device"),
            },
        }
    }

    fn ssimulacra2(&mut self, reference: &YuvFrame, distorted: &YuvFrame) -> Result<f64> {
        let sums = match self {
            Scorer::Cpu => crate::ssimulacra2::frame_sums(reference, distorted)?,
            Scorer::Gpu(dev) => match dev.ssimulacra2.as_ref() {
                Some(s) => s.frame_sums(reference, distorted)?,
                None => bail!("ssimulacra2 was not prepared on the device"),
            },
        };
        Ok(sums.score())
    }
}

/// The scores of one frame pair for `features`, computed by `scorer`.
pub fn score_pair(
    scorer: &mut Scorer,
    reference: &YuvFrame,
    distorted: &YuvFrame,
    features: &[Feature],
    vif: &VifOptions,
) -> Result<Metrics> {
    let mut out = Metrics::default();
    for &f in features {
        match f {
            Feature::FloatVif => {
                let f = &reference.format;
                let luma = |frame: &YuvFrame| {
                    Plane::new(f.width, f.height, f.bit_depth, frame.planes[0].clone())
                        .map_err(|e| anyhow::anyhow!("float_vif: {e}"))
                };
                let features = scorer
                    .float_vif(&luma(reference)?, &luma(distorted)?, vif)
                    .context("float_vif")?;
                for (name, value) in features.published(vif) {
                    out.0.push((printed_name(name).to_string(), value));
                }
            }
            Feature::Ssimulacra2 => {
                let score = scorer
                    .ssimulacra2(reference, distorted)
                    .context("ssimulacra2")?;
                out.0.push(("ssimulacra2".to_string(), score));
            }
        }
    }
    Ok(out)
}

/// libvmaf's pooling of one metric over frames `scores` (in frame order): min, max, mean and
/// harmonic mean (`n / sum(1 / (s + 1)) - 1`).
pub fn pooled(scores: &[f64]) -> [(&'static str, f64); 4] {
    debug_assert!(!scores.is_empty());
    let (mut min, mut max, mut sum, mut i_sum) = (0.0_f64, 0.0_f64, 0.0_f64, 0.0_f64);
    for (i, &s) in scores.iter().enumerate() {
        sum += s;
        i_sum += 1.0 / (s + 1.0);
        if i == 0 || s < min {
            min = s;
        }
        if i == 0 || s > max {
            max = s;
        }
    }
    let n = scores.len() as f64;
    [
        ("min", min),
        ("max", max),
        ("mean", sum / n),
        ("harmonic_mean", n / i_sum - 1.0),
    ]
}

/// Reads one frame of `format` from `r`: `Ok(None)` at a clean end of file; an error for a
/// partial frame or a sample above the bit depth's maximum.
pub fn read_frame(
    r: &mut impl Read,
    format: &YuvFormat,
    what: &str,
    index: usize,
) -> Result<Option<YuvFrame>> {
    let bps = format.bytes_per_sample();
    let mut bytes = vec![0u8; format.samples_per_frame() * bps];
    let mut got = 0;
    while got < bytes.len() {
        let n = r
            .read(&mut bytes[got..])
            .with_context(|| format!("{what}: cannot read frame {index}"))?;
        if n == 0 {
            break;
        }
        got += n;
    }
    if got == 0 {
        return Ok(None);
    }
    if got < bytes.len() {
        bail!(
            "{what}: frame {index} is cut short ({got} of {} bytes): the file does not hold whole {}",
            bytes.len(),
            frames_of(format)
        );
    }
    let max = format.max_code();
    let mut samples = bytes.chunks_exact(bps).map(|c| {
        if bps == 1 {
            u16::from(c[0])
        } else {
            u16::from_le_bytes([c[0], c[1]])
        }
    });
    let mut planes: [Vec<u16>; 3] = Default::default();
    for (p, plane) in planes.iter_mut().enumerate() {
        let (w, h) = format.plane_size(p);
        plane.extend(samples.by_ref().take(w * h));
        if let Some(i) = plane.iter().position(|&s| s > max) {
            bail!(
                "{what}: frame {index}, plane {}, sample {i} is {}, above the {}-bit maximum {max}",
                ["Y", "U", "V"][p],
                plane[i],
                format.bit_depth
            );
        }
    }
    Ok(Some(YuvFrame {
        format: *format,
        planes,
    }))
}

fn open(path: &Path) -> Result<BufReader<File>> {
    Ok(BufReader::with_capacity(
        1 << 20,
        File::open(path).with_context(|| format!("{}: cannot open", path.display()))?,
    ))
}

/// The features to compute: each of `asked` once, in the order first asked for; both when
/// none is asked for.
pub fn features_of(asked: &[Feature]) -> Vec<Feature> {
    if asked.is_empty() {
        return vec![Feature::FloatVif, Feature::Ssimulacra2];
    }
    let mut f: Vec<Feature> = Vec::new();
    for &x in asked {
        if !f.contains(&x) {
            f.push(x);
        }
    }
    f
}

/// `WxH B-bit C frames`, for messages.
fn frames_of(format: &YuvFormat) -> String {
    format!(
        "{}x{} {}-bit {} frames",
        format.width,
        format.height,
        format.bit_depth,
        format.chroma.name()
    )
}

/// Scores every frame pair of the files and writes the JSON; returns the number of pairs.
pub fn score_files(args: &ScoreArgs) -> Result<usize> {
    let format = format_of(args)?;
    let vif = vif_options(&args.vif_options)?;
    let features = features_of(&args.features);
    let frame_bytes = (format.samples_per_frame() * format.bytes_per_sample()) as u64;
    let mut lens = [0u64; 2];
    for (k, path) in [&args.reference, &args.distorted].into_iter().enumerate() {
        let len = std::fs::metadata(path)
            .with_context(|| format!("{}: cannot open", path.display()))?
            .len();
        if len == 0 || len % frame_bytes != 0 {
            bail!(
                "{}: {len} bytes is not a whole number of {} ({frame_bytes} bytes each)",
                path.display(),
                frames_of(&format)
            );
        }
        lens[k] = len / frame_bytes;
    }
    if lens[0] != lens[1] {
        bail!(
            "the reference holds {} frames and the distorted {}: vmaf pairs them one to one",
            lens[0],
            lens[1]
        );
    }
    let (mut rr, mut dr) = (open(&args.reference)?, open(&args.distorted)?);
    let (rname, dname) = (
        args.reference.display().to_string(),
        args.distorted.display().to_string(),
    );
    let mut scorer = Scorer::new(args.engine, &features)?;
    let bar = crate::experiment::progress_bar(lens[0], "binade score");
    let mut frames = Vec::new();
    for index in 0.. {
        let r = read_frame(&mut rr, &format, &rname, index)?;
        let d = read_frame(&mut dr, &format, &dname, index)?;
        let (Some(r), Some(d)) = (r, d) else { break };
        frames.push(
            score_pair(&mut scorer, &r, &d, &features, &vif)
                .with_context(|| format!("frame {index}"))?,
        );
        bar.inc(1);
    }
    bar.finish_and_clear();
    let json = serde_json::to_string_pretty(&document(args, &format, &frames, &scorer))?;
    write_output(args.output.as_deref(), &json)?;
    Ok(frames.len())
}

/// The JSON document: what was read, every frame's metrics, the pooled metrics.
fn document(
    args: &ScoreArgs,
    format: &YuvFormat,
    frames: &[Metrics],
    scorer: &Scorer,
) -> serde_json::Value {
    let frame_list: Vec<serde_json::Value> = frames
        .iter()
        .enumerate()
        .map(|(i, m)| serde_json::json!({ "frameNum": i, "metrics": m.to_json() }))
        .collect();
    let mut pooled_map = serde_json::Map::new();
    if let Some(first) = frames.first() {
        for (k, (name, _)) in first.0.iter().enumerate() {
            let scores: Vec<f64> = frames.iter().map(|m| m.0[k].1).collect();
            let p = pooled(&scores);
            let m = Metrics(p.iter().map(|&(n, v)| (n.to_string(), v)).collect());
            pooled_map.insert(name.clone(), m.to_json());
        }
    }
    serde_json::json!({
        "version": format!("binade {}", env!("CARGO_PKG_VERSION")),
        "built_from": format!(
            "{}{}",
            crate::provenance::BUILD_COMMIT,
            if crate::provenance::BUILD_DIRTY { "-dirty" } else { "" }
        ),
        "reference": args.reference.display().to_string(),
        "distorted": args.distorted.display().to_string(),
        "format": {
            "width": format.width,
            "height": format.height,
            "pixel_format": format.chroma.name(),
            "bitdepth": format.bit_depth,
            "matrix": format.matrix.name(),
            "range": format.range.name(),
        },
        "engine": args.engine.name(),
        "device": scorer.device(),
        "frames": frame_list,
        "pooled_metrics": pooled_map,
    })
}

/// Writes `text` to `path` whole or not at all ([`super::atomic::write_replacing`]), or to
/// standard output.
fn write_output(path: Option<&Path>, text: &str) -> Result<()> {
    let Some(path) = path else {
        println!("{text}");
        return Ok(());
    };
    super::atomic::write_replacing(path, |f| {
        f.write_all(text.as_bytes())?;
        f.write_all(b"\n")
    })
}
