//! The GPU: opening the device, compiling kernels with NVRTC, and the ordered sum on it.
//!
//! Everything here loads `libcuda` and `libnvrtc` at run time (cudarc's dynamic loading), so
//! the binary builds and runs on machines without them: [`Gpu::open`] then returns
//! [`NoDevice`] with a one-line reason and CPU work is unaffected. A kernel that does not
//! compile is never "no device": it is a [`KernelCompileError`], with the compiler's log.

pub mod half_pairs;
pub mod ordered_cumsum;
pub mod ordered_sum;
pub mod require;
pub mod timing;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

use anyhow::{anyhow, Context as _, Result};
use cudarc::driver::{CudaContext, CudaFunction, CudaModule, CudaStream};
use cudarc::nvrtc::{compile_ptx_with_opts, CompileError, CompileOptions, Ptx};

/// This machine has no usable device (no driver library, no NVRTC, no GPU). The binary
/// prints the reason in one line and exits with the CLI's no-device code; no report is
/// touched.
#[derive(Debug, thiserror::Error)]
#[error("no GPU: {0}")]
pub struct NoDevice(pub String);

/// NVRTC could not compile a kernel module: a defect of the kernels (or of the defines they
/// were given), never a missing device. Holds the compiler's log.
#[derive(Debug, thiserror::Error)]
#[error("kernel {module} does not compile ({status}, options {options}):\n{log}")]
pub struct KernelCompileError {
    /// The module's name.
    pub module: String,
    /// NVRTC's status code.
    pub status: String,
    /// The options it was compiled with.
    pub options: String,
    /// The compiler's log.
    pub log: String,
}

pub use ordered_cumsum::{CumsumMutant, Difference, GpuCumsum};
pub use ordered_sum::{
    GpuOrderedSum, GpuSum, OnePassJob, OnePassMutant, OnePassSum, OnePassTotal, Stages, SumJob,
    WalkKind,
};

/// An open device: its context, one stream all work goes on, and what it is.
///
/// Guarantee: every launch made through this crate goes on [`Gpu::stream`], in order.
#[derive(Clone, Debug)]
pub struct Gpu {
    ctx: Arc<CudaContext>,
    stream: Arc<CudaStream>,
    /// The device's compute capability as `sm_XY` (the NVRTC target).
    pub arch: String,
    /// The device's name as the driver reports it.
    pub name: String,
}

/// A module compiled by NVRTC and loaded on the device.
#[derive(Clone, Debug)]
pub struct Module {
    module: Arc<CudaModule>,
    /// The name given to [`Gpu::load`] (used in error messages).
    pub name: String,
}

impl Module {
    /// The kernel `name` of this module, or an error naming module and kernel.
    pub fn function(&self, name: &str) -> Result<CudaFunction> {
        self.module
            .load_function(name)
            .with_context(|| format!("module {}: no kernel `{name}`", self.name))
    }
}

impl Gpu {
    /// Opens device 0. Without the CUDA driver library, without NVRTC, or without a usable
    /// device, returns [`NoDevice`] with a one-line reason (never panics).
    pub fn open() -> Result<Gpu, NoDevice> {
        // SAFETY: only probes whether the shared libraries can be loaded.
        let cuda = unsafe { cudarc::driver::sys::is_culib_present() };
        if !cuda {
            return Err(NoDevice(
                "the CUDA driver library (libcuda) is not installed".into(),
            ));
        }
        if !nvrtc_present() {
            return Err(NoDevice(
                "the NVRTC library (libnvrtc) is not installed".into(),
            ));
        }
        let opened = catch_unwind(AssertUnwindSafe(Self::open_device));
        match opened {
            Ok(r) => r,
            Err(_) => Err(NoDevice("the CUDA driver could not be initialised".into())),
        }
    }

    fn open_device() -> Result<Gpu, NoDevice> {
        let count = CudaContext::device_count()
            .map_err(|e| NoDevice(format!("the CUDA driver reports {e:?}")))?;
        if count < 1 {
            return Err(NoDevice("the CUDA driver sees no device".into()));
        }
        let ctx = CudaContext::new(0).map_err(|e| NoDevice(format!("opening device 0: {e:?}")))?;
        let (major, minor) = ctx
            .compute_capability()
            .map_err(|e| NoDevice(format!("compute capability: {e:?}")))?;
        let name = ctx.name().unwrap_or_else(|_| "unknown device".into());
        // One stream, used in order: cudarc's per-buffer event tracking is not needed.
        // SAFETY: no buffer of this context is used on more than one stream.
        unsafe { ctx.disable_event_tracking() };
        let stream = ctx.default_stream();
        Ok(Gpu {
            ctx,
            stream,
            arch: format!("sm_{major}{minor}"),
            name,
        })
    }

    /// The stream every launch goes on.
    pub fn stream(&self) -> &Arc<CudaStream> {
        &self.stream
    }

    /// The device context.
    pub fn context(&self) -> &Arc<CudaContext> {
        &self.ctx
    }

    /// Compiles the concatenation of `sources` with NVRTC for this device (see [`compile`])
    /// and loads it. On a compile error the message holds the compiler's log.
    pub fn load(&self, name: &str, sources: &[&str], defines: &[(&str, String)]) -> Result<Module> {
        let ptx = compile(name, sources, defines, &self.arch)?;
        let module = self
            .ctx
            .load_module(ptx)
            .with_context(|| format!("loading module {name} on {}", self.name))?;
        Ok(Module {
            module,
            name: name.to_string(),
        })
    }
}

/// True when the NVRTC library can be loaded (kernels can be compiled, with or without a
/// device).
pub fn nvrtc_present() -> bool {
    // SAFETY: only probes whether the shared library can be loaded.
    unsafe { cudarc::nvrtc::sys::is_culib_present() }
}

/// Compiles the concatenation of `sources` with NVRTC for `arch` (`sm_XY`) with
/// `--fmad=false`, `-std=c++17` and each `(name, value)` of `defines` as `-Dname=value`.
/// On a compile error the message holds the compiler's log. Needs no device.
pub fn compile(
    name: &str,
    sources: &[&str],
    defines: &[(&str, String)],
    arch: &str,
) -> Result<Ptx> {
    let src: String = sources.concat();
    let mut options = vec![format!("-arch={arch}"), "-std=c++17".to_string()];
    options.extend(defines.iter().map(|(k, v)| format!("-D{k}={v}")));
    let opts = CompileOptions {
        fmad: Some(false),
        options,
        name: Some(format!("{name}.cu")),
        ..Default::default()
    };
    compile_ptx_with_opts(&src, opts).map_err(|e| compile_error(name, e))
}

fn compile_error(name: &str, e: CompileError) -> anyhow::Error {
    match e {
        CompileError::CompileError {
            nvrtc,
            options,
            log,
        } => anyhow::Error::new(KernelCompileError {
            module: name.to_string(),
            status: format!("{nvrtc:?}"),
            options: options.join(" "),
            log: log.to_string_lossy().into_owned(),
        }),
        other => anyhow!("NVRTC failed on {name}: {other:?}"),
    }
}
