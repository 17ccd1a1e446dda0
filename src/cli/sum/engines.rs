//! The engines of `binade sum`: the plain loop, the host walk and the GPU pipeline, each
//! returning the loop's bits.

use anyhow::Result;

use super::{EngineKind, UploadKind};
use crate::algebra::Exact;
use crate::format::{Format, F32, F64};
use crate::gpu::numpy_sum::{GpuNumpySum, NumpyTerm};
use crate::gpu::{KernelCompileError, NoDevice};
use crate::order::CpuOrder;
use crate::plan::PlanKind;
use crate::walk::{self, chunk_count, Walk};

/// Something that computes the sequential loop's result of a stream. f32 streams are summed
/// in f32, f64 streams in f64.
///
/// Contract: `total` has the bits of [`walk::loop_sum`] (NaN as NaN) for every input and
/// plan; `fallback` counts the chunks of [`walk::CHUNK`] terms added term by term.
pub trait Engine {
    /// The engine's name in reports (`loop`, `walk`, `fast`, `gpu`, `gpu-pipeline`).
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
    /// What a device engine did for the last sum (its tiles and its phases); `None` for the
    /// CPU engines.
    fn device(&self) -> Option<DeviceReport> {
        None
    }
    /// The order whose loop `sum_f64` and `sum_f32` reproduce (the sequential loop, except for
    /// engines of another order).
    fn order(&self) -> CpuOrder {
        CpuOrder::Sequential
    }
}

/// What an exact GPU engine did for one sum: its tiles, and the wall-clock milliseconds of
/// its phases (each ends with the device idle). Opening the device, compiling the kernels and
/// allocating the staging buffers happen once per command, on a thread of their own while the
/// first file is mapped and its pages read in (the command's `wait` phase is what is left of
/// them after that); upload and kernel add up to the engine's sum phase.
#[derive(Clone, Copy, Debug, Default, serde::Serialize)]
pub struct DeviceReport {
    /// The exact engine that ran: `walked` (`--engine gpu`) or `one-pass`
    /// (`--engine gpu-onepass`); empty for numpy's order.
    pub exact_engine: &'static str,
    /// How the terms were copied to the device: `plain` or `staged` (`--upload`); empty for
    /// numpy's order (always plain).
    pub upload: &'static str,
    /// Tiles (4,096 terms for the walked engine, [`crate::layout::OP_TILE`] for the one-pass).
    pub tiles: u64,
    /// Tiles whose unit did not apply, finished lane by lane from their terms.
    pub tiles_finished_lane_by_lane: u64,
    /// Lanes added natively while finishing.
    pub lanes_added_natively: u64,
    /// Opening the device (driver, context and stream), once per command.
    pub open_ms: f64,
    /// Compiling the kernels with NVRTC and loading them, once per command.
    pub compile_ms: f64,
    /// Allocating the two page-locked staging buffers of `--upload staged`, once per command
    /// (about 0 for the plain copy).
    pub staging_ms: f64,
    /// Copying the terms to the device (plain: the driver's copy from the host's pages;
    /// staged: host copies by rayon's threads overlapping the device's copies).
    pub upload_ms: f64,
    /// Of a staged upload, the host's copies into the staging buffers (0 for plain).
    pub upload_host_copy_ms: f64,
    /// The kernel, from launch to its totals on the host.
    pub kernel_ms: f64,
    /// Where the device's total was NaN: the milliseconds the host took to sum the terms
    /// again for the loop's own NaN ([`with_the_loops_nan`]); none (null) otherwise.
    pub nan_host_ms: Option<f64>,
}

/// The loop's NaN in place of a device's: the device's adds return a NaN of their own, not
/// the NaN operand's payload the host's adds keep, nor the host's default NaN for
/// `inf + -inf` (x86's has the sign bit set). So where the device's total is NaN, the terms
/// are summed again on the host by the exact CPU engine ([`crate::fast::ordered_sum_par`]),
/// which adds every chunk that meets a NaN or an infinity natively, in order, on the host's
/// own floating-point unit: its NaN is the loop's, bit for bit. Any other total is the
/// loop's already (the device engines' contract: equal bits, NaN as NaN) and is returned as
/// it is. Returns the total and whether the host summed it. Costs nothing on a sum that is
/// not NaN, and one exact host sum on one that is.
pub fn with_the_loops_nan<T: crate::fast::FastTerm>(total: T, terms: &[T]) -> (T, bool) {
    if total.widen().is_nan() {
        (crate::fast::ordered_sum_par(terms), true)
    } else {
        (total, false)
    }
}

/// The exact device engine behind `--engine gpu` (the walked engine) or `--engine gpu-onepass`.
enum ExactDevice {
    Walked(crate::gpu::ordered_sum::walked::WalkedSum),
    OnePass(crate::gpu::OnePassSum),
}

/// An exact GPU engine (`crate::gpu::ordered_sum::walked::WalkedSum` or `crate::gpu::OnePassSum`), compiled once
/// per call, with its staging buffers. It follows no plan (its plan is its own look-back
/// over the tiles before each).
pub struct ExactGpuEngine {
    sum: ExactDevice,
    /// The walked engine's f32 build, compiled at the first f32 file (its build time goes into
    /// that sum's `compile_ms`).
    f32_sum: Option<crate::gpu::ordered_sum::walked::WalkedSum>,
    /// The staging buffers of `--upload staged` (`None`: the plain copy).
    staging: Option<crate::gpu::upload::StagedUpload>,
    last: Option<DeviceReport>,
    open_ms: f64,
    compile_ms: f64,
    staging_ms: f64,
}

/// What one sum on an exact GPU engine did, for its [`DeviceReport`].
struct DeviceRun {
    exact_engine: &'static str,
    upload: &'static str,
    up: crate::gpu::upload::UploadTimes,
    tiles: u64,
    finished: u64,
    native: u64,
    /// A build compiled for this sum (the f32 build at the first f32 file), beyond the
    /// command's own.
    compile_ms: f64,
    kernel_ms: f64,
}

/// The driver's copy of `terms` to the device (`--upload plain`, and every f32 upload), timed
/// to the copy's end.
fn plain_upload<T: cudarc::driver::DeviceRepr>(
    s: &std::sync::Arc<cudarc::driver::CudaStream>,
    terms: &[T],
) -> Result<(
    cudarc::driver::CudaSlice<T>,
    crate::gpu::upload::UploadTimes,
)> {
    let t = std::time::Instant::now();
    let dev = s.clone_htod(terms)?;
    s.synchronize()?;
    let ms = t.elapsed().as_secs_f64() * 1e3;
    Ok((
        dev,
        crate::gpu::upload::UploadTimes {
            ms,
            host_copy_ms: 0.0,
        },
    ))
}

impl ExactGpuEngine {
    /// The sum's result: the device's `total`, or the loop's own NaN where it is NaN
    /// ([`with_the_loops_nan`]), with the run recorded as the last [`DeviceReport`].
    fn finish<T: crate::fast::FastTerm>(
        &mut self,
        total: T,
        terms: &[T],
        ran: DeviceRun,
    ) -> Walk<T> {
        let t = std::time::Instant::now();
        let (total, on_host) = with_the_loops_nan(total, terms);
        self.last = Some(DeviceReport {
            exact_engine: ran.exact_engine,
            nan_host_ms: on_host.then(|| t.elapsed().as_secs_f64() * 1e3),
            upload: ran.upload,
            tiles: ran.tiles,
            tiles_finished_lane_by_lane: ran.finished,
            lanes_added_natively: ran.native,
            open_ms: self.open_ms,
            compile_ms: self.compile_ms + ran.compile_ms,
            staging_ms: self.staging_ms,
            upload_ms: ran.up.ms,
            upload_host_copy_ms: ran.up.host_copy_ms,
            kernel_ms: ran.kernel_ms,
        });
        Walk {
            total,
            applied: 0,
            fallback: 0,
        }
    }

    fn gpu(&self) -> &crate::gpu::Gpu {
        match &self.sum {
            ExactDevice::Walked(w) => w.gpu(),
            ExactDevice::OnePass(o) => o.gpu(),
        }
    }
}

impl Engine for ExactGpuEngine {
    fn name(&self) -> &'static str {
        match self.sum {
            ExactDevice::Walked(_) => "gpu",
            ExactDevice::OnePass(_) => "gpu-onepass",
        }
    }
    fn planned(&self) -> bool {
        false
    }
    fn sum_f64(&mut self, terms: &[f64], _: &PlanKind, _: Option<&[f64]>) -> Result<Walk<f64>> {
        let s = self.gpu().stream().clone();
        let (dev, up) = match (&mut self.staging, terms.is_empty()) {
            (_, true) => (s.alloc_zeros::<f64>(1)?, Default::default()),
            (Some(staging), false) => staging.upload(&s, terms)?,
            (None, false) => plain_upload(&s, terms)?,
        };
        let t = std::time::Instant::now();
        let n = terms.len();
        let (exact_engine, total, tiles, finished, native) = match &self.sum {
            ExactDevice::Walked(w) => {
                let mut job = w.job(dev.slice(0..n))?;
                let g = w.run(&mut job)?;
                ("walked", g.total, g.tiles, g.finished_tiles, g.native_lanes)
            }
            ExactDevice::OnePass(o) => {
                let mut job = o.job(dev.slice(0..n), std::slice::from_ref(&(0..n)))?;
                let got = o.run(&mut job)?;
                let g = got
                    .first()
                    .ok_or_else(|| anyhow::anyhow!("the device returned no sum"))?;
                (
                    "one-pass",
                    g.total,
                    g.tiles,
                    g.finished_tiles,
                    g.native_lanes,
                )
            }
        };
        let kernel_ms = t.elapsed().as_secs_f64() * 1e3;
        let upload = if self.staging.is_some() {
            "staged"
        } else {
            "plain"
        };
        let ran = DeviceRun {
            exact_engine,
            upload,
            up,
            tiles,
            finished,
            native,
            compile_ms: 0.0,
            kernel_ms,
        };
        Ok(self.finish(total, terms, ran))
    }
    /// f32 terms by the walked engine's f32 build (`--engine gpu`), copied by the driver
    /// (the staging buffers hold f64 terms).
    fn sum_f32(&mut self, terms: &[f32], _: &PlanKind, _: Option<&[f32]>) -> Result<Walk<f32>> {
        use crate::gpu::ordered_sum::walked::{WalkedMutant, WalkedShape, WalkedSum};
        let ExactDevice::Walked(w) = &self.sum else {
            anyhow::bail!(
                "--engine {} sums f64 streams only (the one-pass engine has no f32 build; --engine gpu has)",
                self.name()
            )
        };
        let mut compile_ms = 0.0;
        if self.f32_sum.is_none() {
            let t = std::time::Instant::now();
            self.f32_sum = Some(WalkedSum::build(
                w.gpu(),
                WalkedShape::DEFAULT_F32,
                WalkedMutant::None,
            )?);
            compile_ms = t.elapsed().as_secs_f64() * 1e3;
        }
        let Some(f) = &self.f32_sum else {
            anyhow::bail!("the f32 build is missing after its compile")
        };
        let s = f.gpu().stream().clone();
        let (dev, up) = if terms.is_empty() {
            (s.alloc_zeros::<f32>(1)?, Default::default())
        } else {
            plain_upload(&s, terms)?
        };
        let t = std::time::Instant::now();
        let mut job = f.job(dev.slice(0..terms.len()))?;
        let g = f.run(&mut job)?;
        let ran = DeviceRun {
            exact_engine: "walked",
            upload: "plain",
            up,
            tiles: g.tiles,
            finished: g.finished_tiles,
            native: g.native_lanes,
            compile_ms,
            kernel_ms: t.elapsed().as_secs_f64() * 1e3,
        };
        Ok(self.finish(<F32 as Format>::from_bits(g.bits), terms, ran))
    }
    fn device(&self) -> Option<DeviceReport> {
        self.last
    }
}

/// The plain loop: every chunk is taken term by term.
pub(crate) struct LoopEngine;

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
pub(crate) struct HostWalkEngine;

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

/// The fast engine of [`crate::fast`] over rayon's threads, f64 and f32 (it follows no
/// plan: each chunk's binade comes from a look-back over the sums of the blocks before it).
pub(crate) struct FastEngine;

fn fast_walk<T: crate::fast::FastTerm>(terms: &[T]) -> Walk<T> {
    let r = crate::fast::ordered_sum_par_report(terms);
    Walk {
        total: r.total,
        applied: r.chunks - r.native_chunks,
        fallback: r.native_chunks,
    }
}

impl Engine for FastEngine {
    fn name(&self) -> &'static str {
        "fast"
    }
    fn planned(&self) -> bool {
        false
    }
    fn sum_f64(&mut self, terms: &[f64], _: &PlanKind, _: Option<&[f64]>) -> Result<Walk<f64>> {
        Ok(fast_walk(terms))
    }
    fn sum_f32(&mut self, terms: &[f32], _: &PlanKind, _: Option<&[f32]>) -> Result<Walk<f32>> {
        Ok(fast_walk(terms))
    }
}

/// Why an engine could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// No usable device: not a failure of the project's code.
    #[error(transparent)]
    NoDevice(#[from] NoDevice),
    /// The kernels do not compile: a defect, never "no device".
    #[error("the ordered-sum kernels do not compile: {0}")]
    Compile(String),
    /// Anything else the device said while loading the kernels.
    #[error("loading the ordered-sum kernels: {0}")]
    Load(String),
}

/// The engine of kind `kind`, or why it cannot run here.
pub fn open_engine(
    kind: EngineKind,
    order: CpuOrder,
    upload: UploadKind,
) -> Result<Box<dyn Engine + Send>, OpenError> {
    if kind == EngineKind::Gpu && order == CpuOrder::Numpy {
        return open_numpy_engine();
    }
    match kind {
        EngineKind::Loop => Ok(Box::new(LoopEngine)),
        EngineKind::Walk => Ok(Box::new(HostWalkEngine)),
        EngineKind::Fast => Ok(Box::new(FastEngine)),
        EngineKind::Gpu => open_exact_engine(true, upload),
        EngineKind::GpuOnepass => open_exact_engine(false, upload),
        EngineKind::GpuPipeline => open_gpu_engine(),
    }
}

/// The seed's device pipeline (`crate::gpu::GpuOrderedSum`: four kernels, the plan of
/// `--plan`), compiled once per call.
pub struct GpuEngine(pub crate::gpu::GpuOrderedSum);

impl Engine for GpuEngine {
    fn name(&self) -> &'static str {
        "gpu-pipeline"
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
            total: with_the_loops_nan(s.total, terms).0,
            applied: s.applied as usize,
            fallback: s.fallback as usize,
        })
    }
    fn sum_f32(&mut self, _: &[f32], _: &PlanKind, _: Option<&[f32]>) -> Result<Walk<f32>> {
        anyhow::bail!("--engine gpu sums f64 streams only (the device has no f32 pipeline yet)")
    }
}

/// Why compiling or loading device kernels failed, as an [`OpenError`].
fn load_error(e: anyhow::Error) -> OpenError {
    match e.downcast_ref::<KernelCompileError>() {
        Some(c) => OpenError::Compile(super::decode::one_line(&c.to_string())),
        None => OpenError::Load(super::decode::one_line(&format!("{e:#}"))),
    }
}

/// Opens an exact GPU engine, the walked one or the one-pass one, with its staging buffers
/// (errors as [`open_gpu_engine`]).
fn open_exact_engine(
    walked: bool,
    upload: UploadKind,
) -> Result<Box<dyn Engine + Send>, OpenError> {
    let t = std::time::Instant::now();
    let gpu = crate::gpu::Gpu::open()?;
    let open_ms = t.elapsed().as_secs_f64() * 1e3;
    let t = std::time::Instant::now();
    let sum = if walked {
        ExactDevice::Walked(
            crate::gpu::ordered_sum::walked::WalkedSum::new(&gpu).map_err(load_error)?,
        )
    } else {
        ExactDevice::OnePass(crate::gpu::OnePassSum::new(&gpu).map_err(load_error)?)
    };
    let compile_ms = t.elapsed().as_secs_f64() * 1e3;
    let t = std::time::Instant::now();
    let staging = match upload {
        UploadKind::Plain => None,
        UploadKind::Staged => Some(
            crate::gpu::upload::StagedUpload::new(gpu.context(), crate::gpu::upload::STAGE_TERMS)
                .map_err(|e| OpenError::Load(super::decode::one_line(&format!("{e:#}"))))?,
        ),
    };
    let staging_ms = t.elapsed().as_secs_f64() * 1e3;
    Ok(Box::new(ExactGpuEngine {
        sum,
        f32_sum: None,
        staging,
        last: None,
        open_ms,
        compile_ms,
        staging_ms,
    }))
}

/// Opens the GPU pipeline: the device, and the ordered-sum kernels compiled for it. No driver
/// or no device gives [`OpenError::NoDevice`]; kernels that do not compile give
/// [`OpenError::Compile`] with the first lines of the compiler's log.
fn open_gpu_engine() -> Result<Box<dyn Engine + Send>, OpenError> {
    let gpu = crate::gpu::Gpu::open()?;
    let sum = crate::gpu::GpuOrderedSum::new(&gpu).map_err(load_error)?;
    Ok(Box::new(GpuEngine(sum)))
}

/// `np.sum`'s order on the device (`crate::gpu::numpy_sum`), f64 and f32, compiled once per
/// call for both types.
pub struct NumpyGpuEngine {
    f64s: GpuNumpySum<f64>,
    f32s: GpuNumpySum<f32>,
    last: Option<DeviceReport>,
    open_ms: f64,
    compile_ms: f64,
}

impl NumpyGpuEngine {
    fn sum<T: NumpyTerm>(
        s: &GpuNumpySum<T>,
        terms: &[T],
        report: &mut DeviceReport,
    ) -> Result<Walk<T>> {
        let stream = s.gpu().stream().clone();
        let t = std::time::Instant::now();
        let dev = if terms.is_empty() {
            stream.alloc_zeros::<T>(1)?
        } else {
            stream.clone_htod(terms)?
        };
        stream.synchronize()?;
        report.upload_ms = t.elapsed().as_secs_f64() * 1e3;
        let t = std::time::Instant::now();
        let total = s.sum_device(&dev.slice(0..terms.len()))?;
        report.kernel_ms = t.elapsed().as_secs_f64() * 1e3;
        Ok(Walk {
            total,
            applied: 0,
            fallback: 0,
        })
    }

    fn report(&self) -> DeviceReport {
        DeviceReport {
            open_ms: self.open_ms,
            compile_ms: self.compile_ms,
            ..DeviceReport::default()
        }
    }
}

impl Engine for NumpyGpuEngine {
    fn name(&self) -> &'static str {
        "gpu"
    }
    fn planned(&self) -> bool {
        false
    }
    fn sum_f64(&mut self, terms: &[f64], _: &PlanKind, _: Option<&[f64]>) -> Result<Walk<f64>> {
        let mut r = self.report();
        let w = Self::sum(&self.f64s, terms, &mut r)?;
        self.last = Some(r);
        Ok(w)
    }
    fn sum_f32(&mut self, terms: &[f32], _: &PlanKind, _: Option<&[f32]>) -> Result<Walk<f32>> {
        let mut r = self.report();
        let w = Self::sum(&self.f32s, terms, &mut r)?;
        self.last = Some(r);
        Ok(w)
    }
    fn device(&self) -> Option<DeviceReport> {
        self.last
    }
    fn order(&self) -> CpuOrder {
        CpuOrder::Numpy
    }
}

/// Opens `np.sum`'s order on the device (errors as [`open_gpu_engine`]).
fn open_numpy_engine() -> Result<Box<dyn Engine + Send>, OpenError> {
    let t = std::time::Instant::now();
    let gpu = crate::gpu::Gpu::open()?;
    let open_ms = t.elapsed().as_secs_f64() * 1e3;
    let t = std::time::Instant::now();
    let f64s = GpuNumpySum::<f64>::new(&gpu).map_err(load_error)?;
    let f32s = GpuNumpySum::<f32>::new(&gpu).map_err(load_error)?;
    let compile_ms = t.elapsed().as_secs_f64() * 1e3;
    Ok(Box::new(NumpyGpuEngine {
        f64s,
        f32s,
        last: None,
        open_ms,
        compile_ms,
    }))
}

#[cfg(test)]
mod nan_tests {
    use super::with_the_loops_nan;
    use crate::format::F64;
    use crate::walk::loop_sum;

    /// A device's NaN (here `0x7fff_ffff_ffff_ffff`, what the device's adds return) becomes
    /// the loop's NaN bit for bit: a quiet NaN's payload, a signalling NaN quieted, the host's
    /// default NaN of `inf + -inf` (after an overflow too), on threads where the sum is long.
    #[test]
    fn a_device_nan_becomes_the_loops_nan() {
        let device_nan = f64::from_bits(0x7fff_ffff_ffff_ffff);
        let long = |at: usize, nan: f64| -> Vec<f64> {
            let mut v: Vec<f64> = (0..300_000).map(|i| (i % 7) as f64 * 0.375).collect();
            v[at] = nan;
            v
        };
        let cases: Vec<(&str, Vec<f64>)> = vec![
            (
                "two payloads",
                vec![
                    1.5,
                    f64::from_bits(0x7ff8_0000_0000_0123),
                    2.0,
                    f64::from_bits(0xfff8_0000_0000_0456),
                ],
            ),
            (
                "signalling",
                vec![1.0, f64::from_bits(0x7ff0_0000_0000_0001)],
            ),
            (
                "inf - inf",
                vec![1.0, f64::INFINITY, f64::NEG_INFINITY, 3.0],
            ),
            (
                "overflow, then -inf",
                vec![f64::MAX, f64::MAX, f64::NEG_INFINITY],
            ),
            (
                "payload in a long sum",
                long(123_457, f64::from_bits(0xfff8_0000_00ab_cdef)),
            ),
        ];
        for (case, terms) in cases {
            let want = loop_sum::<F64>(&terms);
            assert!(want.is_nan(), "{case}");
            let (got, on_host) = with_the_loops_nan(device_nan, &terms);
            assert!(on_host, "{case}");
            assert_eq!(got.to_bits(), want.to_bits(), "{case}: {got:?}");
        }
        // Any other total is returned as it is.
        assert_eq!(with_the_loops_nan(2.5, &[1.0, 1.5]), (2.5, false));
        let (inf, on_host) = with_the_loops_nan(f64::INFINITY, &[f64::INFINITY]);
        assert_eq!((inf, on_host), (f64::INFINITY, false));
    }
}
