//! The GPU: opening the device, compiling kernels with NVRTC, and the ordered sum on it.
//!
//! Everything here loads `libcuda` and `libnvrtc` at run time (cudarc's dynamic loading), so
//! the binary builds and runs on machines without them: [`Gpu::open`] then returns
//! [`NoDevice`] with a one-line reason and CPU work is unaffected. A kernel that does not
//! compile is never "no device": it is a [`KernelCompileError`], with the compiler's log.

pub mod half_pairs;
pub mod numpy_sum;
pub mod ordered_cumsum;
pub mod ordered_sum;
pub mod require;
pub mod timing;
pub mod upload;

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
    UnitKind, WalkKind,
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

    /// The device's multiprocessors (the driver's count), which resident launches multiply
    /// their blocks per multiprocessor by.
    pub fn multiprocessors(&self) -> Result<u32> {
        let n = self
            .ctx
            .attribute(
                cudarc::driver::sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
            )
            .context("multiprocessor count")?;
        Ok(n as u32)
    }

    /// Compiles the concatenation of `sources` with NVRTC for this device (see [`compile`])
    /// and loads it, in the form [`ModuleForm::from_env`] names (PTX unless
    /// `BINADE_MODULE_FORM=cubin`). On a compile error the message holds the compiler's log.
    pub fn load(&self, name: &str, sources: &[&str], defines: &[(&str, String)]) -> Result<Module> {
        let image = ModuleForm::from_env()?.compile(name, sources, defines, &self.arch)?;
        self.load_image(name, image)
    }

    /// Loads a module compiled for this device by [`ModuleForm::compile`] (a PTX image is
    /// assembled by the driver here, a CUBIN is not).
    pub fn load_image(&self, name: &str, image: Ptx) -> Result<Module> {
        let module = self
            .ctx
            .load_module(image)
            .with_context(|| format!("loading module {name} on {}", self.name))?;
        Ok(Module {
            module,
            name: name.to_string(),
        })
    }
}

/// The environment variable that picks the form [`Gpu::load`] hands modules to the driver in.
pub const MODULE_FORM_VAR: &str = "BINADE_MODULE_FORM";

/// The form a module reaches the driver in. Both assemble the same PTX, but in different
/// places and possibly by assemblers of different versions: PTX is assembled by the driver as
/// the module is loaded (its results cached on disk by the driver, keyed by the PTX), CUBIN by
/// NVRTC's own assembler in the compiling thread (nothing cached). The bits of every sum are
/// the same either way (the kernels' arithmetic is fixed by the PTX); the machine code, and so
/// its timings, may differ, which is why a report made with [`MODULE_FORM_VAR`] set records
/// it. Which form is faster for many distinct builds loaded from many threads at once is what
/// `examples/load_probe` measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModuleForm {
    /// NVRTC's PTX, assembled by the driver at load (the default).
    Ptx,
    /// NVRTC's machine code for the device's own architecture (`sm_XY`).
    Cubin,
}

impl ModuleForm {
    /// From [`MODULE_FORM_VAR`]: unset or `ptx` gives [`ModuleForm::Ptx`], `cubin`
    /// [`ModuleForm::Cubin`]; anything else is an error naming the variable.
    pub fn from_env() -> Result<ModuleForm> {
        match std::env::var(MODULE_FORM_VAR) {
            Err(std::env::VarError::NotPresent) => Ok(ModuleForm::Ptx),
            Ok(v) => Self::parse(&v),
            Err(e) => Err(anyhow!("{MODULE_FORM_VAR}: {e}")),
        }
    }

    /// `ptx` or `cubin`.
    pub fn parse(s: &str) -> Result<ModuleForm> {
        match s {
            "ptx" => Ok(ModuleForm::Ptx),
            "cubin" => Ok(ModuleForm::Cubin),
            other => Err(anyhow!(
                "{MODULE_FORM_VAR} must be ptx or cubin, not {other:?}"
            )),
        }
    }

    /// The value of [`MODULE_FORM_VAR`] that selects this form.
    pub fn name(self) -> &'static str {
        match self {
            ModuleForm::Ptx => "ptx",
            ModuleForm::Cubin => "cubin",
        }
    }

    /// Where the module is assembled, in words for reports.
    pub fn describe(self) -> &'static str {
        match self {
            ModuleForm::Ptx => "PTX (assembled by the driver at load)",
            ModuleForm::Cubin => "CUBIN (assembled by NVRTC in the compiling thread)",
        }
    }

    /// Compiles `sources` in this form ([`compile`] or [`compile_cubin`]).
    pub fn compile(
        self,
        name: &str,
        sources: &[&str],
        defines: &[(&str, String)],
        arch: &str,
    ) -> Result<Ptx> {
        match self {
            ModuleForm::Ptx => compile(name, sources, defines, arch),
            ModuleForm::Cubin => compile_cubin(name, sources, defines, arch).map(Ptx::from_binary),
        }
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
    let opts = CompileOptions {
        fmad: Some(false),
        options: nvrtc_options(defines, arch),
        name: Some(format!("{name}.cu")),
        ..Default::default()
    };
    compile_ptx_with_opts(&src, opts).map_err(|e| compile_error(name, e))
}

/// The NVRTC options of every build but `--fmad=false`: the target, the language and the
/// defines.
fn nvrtc_options(defines: &[(&str, String)], arch: &str) -> Vec<String> {
    let mut options = vec![format!("-arch={arch}"), "-std=c++17".to_string()];
    options.extend(defines.iter().map(|(k, v)| format!("-D{k}={v}")));
    options
}

/// As [`compile`], but NVRTC also assembles the PTX for `arch` (which must name a real
/// architecture, `sm_XY`) and the result is that machine code (a CUBIN, an ELF image), which
/// the driver loads without assembling it (`Ptx::from_binary`, [`Gpu::load_image`]). Needs no
/// device.
pub fn compile_cubin(
    name: &str,
    sources: &[&str],
    defines: &[(&str, String)],
    arch: &str,
) -> Result<Vec<u8>> {
    use cudarc::nvrtc::{result, sys};
    if !arch.starts_with("sm_") {
        anyhow::bail!("a CUBIN needs a real architecture (sm_XY), not {arch}");
    }
    let src = std::ffi::CString::new(sources.concat())
        .map_err(|_| anyhow!("module {name}: its source holds a NUL byte"))?;
    let file = std::ffi::CString::new(format!("{name}.cu"))
        .map_err(|_| anyhow!("module {name}: its name holds a NUL byte"))?;
    let mut options = nvrtc_options(defines, arch);
    options.push("--fmad=false".to_string());
    let prog = result::create_program(&src, Some(&file))
        .map_err(|e| anyhow!("NVRTC could not create module {name}: {e:?}"))?;
    // SAFETY: `prog` was created above and is destroyed once, below; `src` and `file` outlive
    // it; the CUBIN buffer is sized by NVRTC's own report before it is written.
    let built = unsafe {
        let compiled = result::compile_program(prog, &options);
        let out = match compiled {
            Ok(()) => {
                let mut size = 0usize;
                sys::nvrtcGetCUBINSize(prog, &mut size)
                    .result()
                    .and_then(|()| {
                        let mut image = vec![0u8; size];
                        sys::nvrtcGetCUBIN(prog, image.as_mut_ptr().cast())
                            .result()
                            .map(|()| image)
                    })
                    .map_err(|e| anyhow!("NVRTC built module {name} but gave no CUBIN: {e:?}"))
            }
            Err(e) => {
                let log = result::get_program_log(prog)
                    .map(|l| {
                        std::ffi::CStr::from_ptr(l.as_ptr())
                            .to_string_lossy()
                            .into_owned()
                    })
                    .unwrap_or_default();
                Err(anyhow::Error::new(KernelCompileError {
                    module: name.to_string(),
                    status: format!("{e:?}"),
                    options: options.join(" "),
                    log,
                }))
            }
        };
        // A failure to free the program is not the build's failure.
        let _ = result::destroy_program(prog);
        out
    };
    built
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn module_forms_parse_and_refuse_others() {
        assert_eq!(ModuleForm::parse("ptx").unwrap(), ModuleForm::Ptx);
        assert_eq!(ModuleForm::parse("cubin").unwrap(), ModuleForm::Cubin);
        let e = ModuleForm::parse("CUBIN").unwrap_err().to_string();
        assert!(
            e.contains(MODULE_FORM_VAR) && e.contains("\"CUBIN\""),
            "{e}"
        );
    }

    /// A CUBIN is an ELF image for the real architecture asked for; a virtual one is refused;
    /// a module that does not compile gives the compiler's log, as for PTX.
    #[test]
    fn cubin_is_machine_code_and_keeps_the_compile_log() {
        if !require::nvrtc_or_skip("cubin_is_machine_code_and_keeps_the_compile_log") {
            return;
        }
        let src = ordered_cumsum::DIFF_SOURCE;
        let image = compile_cubin("first_difference", &[src], &[], "sm_90").unwrap();
        assert_eq!(&image[..4], b"\x7fELF", "not an ELF image");
        assert!(compile_cubin("first_difference", &[src], &[], "compute_90").is_err());
        let e = compile_cubin("broken", &["this is not C++"], &[], "sm_90").unwrap_err();
        let e = e
            .downcast::<KernelCompileError>()
            .expect("a compile error, not another failure");
        assert!(e.log.contains("error"), "{}", e.log);
        assert!(e.options.contains("--fmad=false"), "{}", e.options);
    }
}
