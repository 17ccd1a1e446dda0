//! SSIMULACRA2's sums on the device: the terms of each scale computed by
//! `kernels/ssimulacra2.cu` from the CPU's own `f32` planes (uploaded), then added four ways:
//! by [`GpuOrderedSum`] the tree sum a port starts from, the ordered sum of the seed's
//! pipeline and one lane per sum, and by [`WalkedSum`] the ordered sum of the walked engine,
//! a scale's 18 sums in one launch ([`scale_walked_job`]) or a frame's 108 in one
//! ([`frame_walked_job`]). [`DeviceSsimulacra2`] is the scorer built on the walked engine's
//! frame launch: its scores are the CPU reference's bits whenever the device's terms and sums
//! are (`ssimulacra2-parity` checks both).

use anyhow::{Context as _, Result};
use cudarc::driver::{CudaFunction, CudaSlice, LaunchConfig, PushKernelArg};

use super::frontend::FrontEnd;
use super::layout::{pack_planes, reference_terms, sum_segments};
use super::pyramid::ScalePlanes;
use super::terms::TERMS;
use super::yuv::YuvFrame;
use super::{frame_sums_of_scales, FrameSums, ScaleSums};
use crate::gpu::ordered_sum::walked::{
    Margin, SumGroup, WalkedJob, WalkedMutant, WalkedShape, WalkedSum, WalkedTotal,
};
use crate::gpu::{Gpu, GpuOrderedSum, SumJob};
use crate::plan::PlanKind;

/// The term header, prepended to the kernels.
pub const TERMS_HEADER: &str = include_str!("../../kernels/ssimulacra2_terms.cuh");
/// The term kernels.
pub const KERNELS: &str = include_str!("../../kernels/ssimulacra2.cu");

const BLOCK: u32 = 256;
const MAX_BLOCKS: u64 = 1 << 20;

/// The term kernel, compiled for one device.
#[derive(Clone, Debug)]
pub struct DeviceTerms {
    gpu: Gpu,
    k_terms: CudaFunction,
}

/// One scale on the device: its planes, the buffer its terms go to, and their count per sum.
pub struct DeviceScale {
    /// Pixels per channel (terms per sum).
    pub n: usize,
    planes: CudaSlice<f32>,
    /// The terms, laid out as in [`super::layout`].
    pub terms: CudaSlice<f64>,
}

impl DeviceTerms {
    /// Compiles `kernels/ssimulacra2.cu` with its header for `gpu`.
    pub fn new(gpu: &Gpu) -> Result<DeviceTerms> {
        let m = gpu.load("ssimulacra2", &[TERMS_HEADER, "\n", KERNELS], &[])?;
        Ok(DeviceTerms {
            gpu: gpu.clone(),
            k_terms: m.function("ssimulacra2_terms")?,
        })
    }

    /// Uploads the planes of `scale` and allocates its term buffer.
    pub fn upload(&self, scale: &ScalePlanes) -> Result<DeviceScale> {
        let n = scale.width * scale.height;
        let s = self.gpu.stream();
        let planes = s
            .clone_htod(&pack_planes(scale))
            .context("uploading SSIMULACRA2 planes")?;
        let terms = s
            .alloc_zeros::<f64>(3 * TERMS * n)
            .context("allocating SSIMULACRA2 terms")?;
        Ok(DeviceScale { n, planes, terms })
    }

    /// Launches the term kernel: every term of the scale into `scale.terms`.
    pub fn launch(&self, scale: &DeviceScale) -> Result<()> {
        let n = scale.n as u64;
        let channels = 3u32;
        let total = n * channels as u64;
        let blocks = total.div_ceil(BLOCK as u64).clamp(1, MAX_BLOCKS) as u32;
        let mut b = self.gpu.stream().launch_builder(&self.k_terms);
        // The output is passed as a shared reference: the kernel writes it while sum jobs hold
        // views of it; all work is on one stream, in order.
        b.arg(&scale.planes)
            .arg(&n)
            .arg(&channels)
            .arg(&scale.terms);
        let cfg = LaunchConfig {
            grid_dim: (blocks, 1, 1),
            block_dim: (BLOCK, 1, 1),
            shared_mem_bytes: 0,
        };
        // SAFETY: argument types match ssimulacra2_terms; planes hold 3 * 7 * n floats and
        // terms 3 * 6 * n doubles, the extents the kernel reads and writes.
        unsafe { b.launch(cfg) }.context("launching ssimulacra2_terms")?;
        Ok(())
    }

    /// The device's terms of a scale, downloaded.
    pub fn download(&self, scale: &DeviceScale) -> Result<Vec<f64>> {
        Ok(self.gpu.stream().clone_dtoh(&scale.terms)?)
    }
}

/// A sum job over the 18 sums of a scale (index `channel * 6 + term`).
pub fn scale_job<'a>(sum: &GpuOrderedSum, scale: &'a DeviceScale) -> Result<SumJob<'a>> {
    sum.job(
        scale.terms.slice(0..3 * TERMS * scale.n),
        &sum_segments(scale.n),
    )
}

/// The walked engine's job over the 18 sums of a scale (sum `channel * 6 + term`, each of
/// `scale.n` terms, contiguous): one launch for all of them, a walker each.
pub fn scale_walked_job<'a>(walked: &WalkedSum, scale: &'a DeviceScale) -> Result<WalkedJob<'a>> {
    let sums = 3 * TERMS;
    walked.segments_job(
        scale.terms.slice(0..sums * scale.n),
        sums as u32,
        scale.n,
        scale.n,
    )
}

/// The walked engine's job over every sum of a frame's scales (18 a scale, each scale's
/// buffer its own group): one launch for the frame, the groups smallest scale first, so the
/// small sums' walkers (whose sequential finishes bound them) are fed first and the largest
/// scale's early finishes overlap the reading of its later tiles. Results come smallest scale
/// first ([`frame_walked_sums`] puts them back in scale order).
pub fn frame_walked_job<'a>(
    walked: &WalkedSum,
    scales: &'a [DeviceScale],
) -> Result<WalkedJob<'a>> {
    let sums = 3 * TERMS;
    let groups = scales
        .iter()
        .rev()
        .map(|scale| SumGroup {
            terms: scale.terms.slice(0..sums * scale.n),
            count: sums as u32,
            len: scale.n,
            pitch: scale.n,
        })
        .collect();
    walked.groups_job(groups)
}

/// Launches [`frame_walked_job`]'s `job` over a frame of `scales` scales (their term kernels
/// already launched on the same stream) and returns each sum's [`WalkedTotal`],
/// `[scale][channel][term]` in scale order (the job's groups run the smallest scale first).
pub fn frame_walked_totals(
    walked: &WalkedSum,
    job: &mut WalkedJob,
    scales: usize,
) -> Result<Vec<[[WalkedTotal; TERMS]; 3]>> {
    let results = walked.run_segments(job)?;
    let per = 3 * TERMS;
    if results.len() != per * scales {
        anyhow::bail!(
            "a frame of {scales} scales gave {} walked sums",
            results.len()
        );
    }
    let mut totals: Vec<[[WalkedTotal; TERMS]; 3]> = results
        .chunks(per)
        .map(|c| std::array::from_fn(|ch| std::array::from_fn(|k| c[ch * TERMS + k])))
        .collect();
    totals.reverse();
    Ok(totals)
}

/// [`frame_walked_totals`]' sums, `[scale][channel][term]` in scale order, and the tiles its
/// walkers finished from their terms.
pub fn frame_walked_sums(
    walked: &WalkedSum,
    job: &mut WalkedJob,
    scales: usize,
) -> Result<(Vec<[[f64; TERMS]; 3]>, u64)> {
    let totals = frame_walked_totals(walked, job, scales)?;
    let finished = totals
        .iter()
        .flatten()
        .flatten()
        .map(|r| r.finished_tiles)
        .sum();
    let sums = totals
        .iter()
        .map(|s| s.map(|ch| ch.map(|r| r.total)))
        .collect();
    Ok((sums, finished))
}

/// The walked engine's 18 ordered sums of a scale (`[channel][term]`, each the CPU loop's
/// bits) and the tiles its walkers finished from their terms.
/// A scale's job is a frame's of one scale, so [`frame_walked_sums`] reads it.
pub fn walked_sums(walked: &WalkedSum, job: &mut WalkedJob) -> Result<([[f64; TERMS]; 3], u64)> {
    let (sums, finished) = frame_walked_sums(walked, job, 1)?;
    Ok((sums[0], finished))
}

/// The 18 sums of a scale four ways, and how the device's terms compare with the CPU's.
#[derive(Clone, Debug, PartialEq)]
pub struct ScaleOnDevice {
    /// Tree sums, `[channel][term]`.
    pub tree: [[f64; TERMS]; 3],
    /// Ordered sums (the seed's pipeline).
    pub ordered: [[f64; TERMS]; 3],
    /// Ordered sums (the walked engine, one launch for the scale).
    pub walked: [[f64; TERMS]; 3],
    /// Tiles the walked engine's walkers finished from their terms.
    pub walked_finished: u64,
    /// One lane per sum, in order (when asked for).
    pub one_lane: Option<[[f64; TERMS]; 3]>,
    /// Terms whose bits differ from the CPU's (when checked).
    pub term_mismatches: Option<u64>,
    /// Chunks the ordered walk added term by term.
    pub fallback_chunks: u64,
}

fn by_channel(v: &[f64]) -> [[f64; TERMS]; 3] {
    std::array::from_fn(|c| std::array::from_fn(|k| v[c * TERMS + k]))
}

/// Computes a scale on the device and sums it every way asked for.
pub fn scale_on_device(
    terms: &DeviceTerms,
    sum: &GpuOrderedSum,
    walked: &WalkedSum,
    scale: &ScalePlanes,
    check_terms: bool,
    one_lane: bool,
) -> Result<ScaleOnDevice> {
    let dev = terms.upload(scale)?;
    terms.launch(&dev)?;
    let term_mismatches = if check_terms {
        let got = terms.download(&dev)?;
        let want = reference_terms(scale);
        Some(
            got.iter()
                .zip(&want)
                .filter(|(g, w)| g.to_bits() != w.to_bits())
                .count() as u64,
        )
    } else {
        None
    };
    let mut job = scale_job(sum, &dev)?;
    let tree = by_channel(&sum.tree_sums(&mut job)?);
    let (ordered, fallback_chunks) = ordered_sums(sum, &mut job)?;
    let (walked, walked_finished) = walked_sums(walked, &mut scale_walked_job(walked, &dev)?)?;
    let one_lane = if one_lane {
        Some(by_channel(&sum.loop_sums(&mut job)?))
    } else {
        None
    };
    Ok(ScaleOnDevice {
        tree,
        ordered,
        walked,
        walked_finished,
        one_lane,
        term_mismatches,
        fallback_chunks,
    })
}

/// The ordered sums of a scale's job (`[channel][term]`, each the CPU loop's bits) and the
/// chunks the walk added term by term.
fn ordered_sums(sum: &GpuOrderedSum, job: &mut SumJob) -> Result<([[f64; TERMS]; 3], u64)> {
    let results = sum.run(job, &PlanKind::TreePrefix, None)?;
    let totals: Vec<f64> = results.iter().map(|r| r.total).collect();
    Ok((
        by_channel(&totals),
        results.iter().map(|r| r.fallback).sum(),
    ))
}

/// The walked engine's shape for SSIMULACRA2's sums: the engine's, with the plans' mean
/// margin (`Margin::Mean`). Its sums are short (507 tiles at 1920x1080) and their error maps
/// put tiles that sum to almost nothing after tiles that sum to much, where the tile margin's
/// guess plans across crossings: on an H100 at 168b9b2 (`reports/walked-margin`,
/// `reports/ssimulacra2-timing`) checker-10px took 0.436 ms a frame in one launch with it
/// (1.02x the tree sums, 266 tiles finished over two frames) against 1.243 (2.92x, 601) with
/// the tile margin; astronaut-4k-jpeg30 1.626 against 1.623 and astronaut-jpeg50 0.103
/// against 0.100. A plan: no bit depends on it.
pub const WALKED_SHAPE: WalkedShape = WalkedShape {
    margin: Margin::Mean,
    ..WalkedShape::DEFAULT
};

/// The walked engine in SSIMULACRA2's shape ([`WALKED_SHAPE`]), compiled for `gpu`.
pub fn walked_engine(gpu: &Gpu) -> Result<WalkedSum> {
    WalkedSum::build(gpu, WALKED_SHAPE, WalkedMutant::None)
}

/// SSIMULACRA2 with its per-pixel terms and its 108 sums on the device: the CPU's front end,
/// blur and pyramid (their `f32` planes uploaded scale by scale), the terms from
/// `kernels/ssimulacra2.cu`, all the frame's sums the walked engine's, in one launch. Nothing
/// here compares with the CPU; `ssimulacra2-parity` and the GPU tests of `binade score` do.
pub struct DeviceSsimulacra2 {
    terms: DeviceTerms,
    walked: WalkedSum,
}

impl DeviceSsimulacra2 {
    /// Compiles the term kernel and the walked engine for `gpu`.
    pub fn new(gpu: &Gpu) -> Result<DeviceSsimulacra2> {
        Ok(DeviceSsimulacra2 {
            terms: DeviceTerms::new(gpu)?,
            walked: walked_engine(gpu)?,
        })
    }

    /// The sums of a frame pair (the CPU's [`super::frame_sums`] computed on the device).
    /// Errors as the CPU does for frames that differ in format or are below 8x8.
    pub fn frame_sums(&self, reference: &YuvFrame, distorted: &YuvFrame) -> Result<FrameSums> {
        let mut scales = Vec::new();
        let mut frame = frame_sums_of_scales(reference, distorted, &FrontEnd::LIBVMAF, |planes| {
            let dev = self.terms.upload(planes)?;
            self.terms.launch(&dev)?;
            scales.push(dev);
            // The sums come from the frame's one launch, below.
            Ok(ScaleSums {
                width: planes.width,
                height: planes.height,
                sums: [[f64::NAN; TERMS]; 3],
            })
        })
        .context("ssimulacra2 on the device")?;
        let mut job = frame_walked_job(&self.walked, &scales)?;
        let (sums, _) = frame_walked_sums(&self.walked, &mut job, scales.len())
            .context("ssimulacra2 on the device")?;
        for (scale, s) in frame.scales.iter_mut().zip(sums) {
            scale.sums = s;
        }
        Ok(frame)
    }
}
