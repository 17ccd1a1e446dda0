//! Launch code for the float VIF kernels (`kernels/float_vif.cu`) on [`crate::gpu::Gpu`]:
//! NVRTC compiles the binade algebra, the float VIF header and the kernels as one source with
//! `--fmad=false` for the device's own architecture; the host derives the taps and hands each
//! scale's taps to the kernels by value; the row sums come back and are added top to bottom
//! in fp32.
//!
//! Variants for the replay experiment are compile-time switches of the kernels (device
//! `log2f`, fp32 statistic), a different tap source on the host (libvmaf's former decimal
//! table) and a different reduction (per-warp and per-block trees, blocks added in fp64).

use std::collections::HashMap;
use std::sync::Arc;

use anyhow::{anyhow, bail, Result};
use cudarc::driver::sys::{CUevent_flags, CUfunction_attribute};
use cudarc::driver::{
    CudaFunction, CudaSlice, CudaStream, DeviceRepr, LaunchConfig, PushKernelArg,
};
use cudarc::nvrtc::Ptx;

use super::filter::Image;
use super::frame::Plane;
use super::host::FvifTaps;
use super::options::VifOptions;
use super::reference::{check_sizes, publish, Features, ScaleSums, VifError};
use super::stat::{sum_rows, StatParams};
use super::taps::{all_taps, legacy_table};
use crate::gpu::upload::{hold_stream, Hold, HOLD_NS};
use crate::gpu::NoDevice;
use crate::gpu::{Gpu, Module};

/// The kernels' source.
pub const KERNELS: &str = include_str!("../../kernels/float_vif.cu");
/// The arithmetic header the kernels include.
pub const HEADER: &str = include_str!("../../kernels/float_vif.cuh");
/// The binade algebra header the row-parallel sum uses.
pub const BINADE: &str = crate::verify::device_header::HEADER;

/// Threads (segments) per row of the row-parallel sum.
pub const SEGMENTS: u32 = 128;

/// The segments of a row the headed rows' head adds term by term unless a variant says
/// otherwise ([`Variant::head`]): the fastest head `float-vif-timing` timed at 3426936 (heads
/// 4 to 64 on an H100: 64 segments 1.554 ms a 3840x2160 frame against 8 segments' 1.618, the
/// trees 1.516), half of a row's 128 segments; as the scorer's at 7fd0c3c, 1.537 ms, 1.027x
/// the trees (`reports/float-vif-headed`).
pub const HEAD_SEGMENTS: u32 = 64;

/// Bytes of dynamic shared memory the staged row sums ([`Reduction::BinadeStaged`]) take for
/// rows of `w` terms: the row of num and the row of den, `2 * w` floats.
pub const fn staged_bytes(w: usize) -> usize {
    2 * w * std::mem::size_of::<f32>()
}

/// The dynamic shared memory of a staged-rows launch over rows of `w` terms, with the
/// kernel's limit raised where it passes the 48 KiB every kernel is allowed without asking;
/// an error (one line) where the device cannot give a block that much.
fn staged_shared(f: &CudaFunction, w: usize) -> Result<u32> {
    const WITHOUT_ASKING: usize = 48 * 1024;
    let bytes = staged_bytes(w);
    let value = u32::try_from(bytes)
        .ok()
        .and_then(|b| i32::try_from(b).ok().map(|v| (b, v)));
    let Some((bytes32, value)) = value else {
        bail!("rows of {w} terms need {bytes} bytes of shared memory for the staged row sums");
    };
    if bytes > WITHOUT_ASKING {
        f.set_attribute(
            CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
            value,
        )
        .map_err(|e| {
            anyhow!("rows of {w} terms need {bytes} bytes of shared memory for the staged row sums, more than this device gives a block ({e})")
        })?;
    }
    Ok(bytes32)
}

// SAFETY: both are plain `repr(C)` structs of floats and ints, the layouts the kernels declare.
unsafe impl DeviceRepr for FvifTaps {}
unsafe impl DeviceRepr for FvifParams {}

/// The header's `struct fvif_params`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct FvifParams {
    /// `(float) vif_enhn_gain_limit`.
    pub gain_limit: f32,
    /// `powf(sigma_nsq, 2) / 65025` in fp32.
    pub sigma_max_inv: f32,
    /// `vif_sigma_nsq`.
    pub sigma_nsq: f64,
}

impl From<&StatParams> for FvifParams {
    fn from(p: &StatParams) -> FvifParams {
        FvifParams {
            gain_limit: p.gain_limit,
            sigma_max_inv: p.sigma_max_inv,
            sigma_nsq: p.sigma_nsq,
        }
    }
}

/// How each scale's terms are added.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reduction {
    /// One thread per row, left to right (the exact twin).
    Ordered,
    /// One block per row, segments composed with the binade algebra (exact, row-parallel), each
    /// segment's unit by the fast path (`fvif_segment_unit_fast`) unless it holds a tie.
    Binade,
    /// As [`Reduction::Binade`] with every segment's unit by the pair composition, term by term
    /// (the kernel before the fast units; timed beside it).
    BinadePairs,
    /// As [`Reduction::Binade`] with the plan and the walk by one warp: the plan's prefix by a
    /// warp scan, the walk composing each run of units planned for the running sum's binade
    /// by a warp scan and applying it where it stays in the binade (`fvif_row_sums_binade_warp`).
    BinadeWarp,
    /// As [`Reduction::BinadeWarp`] with a row's num and den sums in one block, planned and
    /// walked at once by two warps (`fvif_row_sums_binade_paired`).
    BinadePaired,
    /// As [`Reduction::BinadePaired`] after the block has copied the row of num and of den
    /// into shared memory with coalesced loads, so the segments' two passes and the walk's
    /// term-by-term adds read shared memory (`fvif_row_sums_binade_staged`, launched with
    /// [`staged_bytes`] of it).
    BinadeStaged,
    /// As [`Reduction::BinadePaired`] on terms kept in segment-interleaved rows (the term
    /// kernel's layout 2: a segment's k-th term [`SEGMENTS`] after its (k-1)-th, so a warp's
    /// threads, one a segment, read neighbouring terms where row by row they read terms
    /// w / [`SEGMENTS`] apart; `fvif_row_sums_binade_interleaved`). Measured on an H100 at
    /// 56eca43 (`float-vif-timing`): no faster (the sums alone 0.282 against 0.276 ms a
    /// 3840x2160 frame), so a timed and tested variant, not the scorer's.
    BinadeInterleaved,
    /// As [`Reduction::BinadePaired`] with a fifth warp, the head, adding the first
    /// [`Variant::head`] segments of each row term by term (the CPU's adds, from +0) while the
    /// four form the estimates and the other segments' units; the walks start after the head,
    /// from its sums (`fvif_row_sums_binade_headed`, [`SEGMENTS`] + 32 threads a block). A
    /// row's sum from +0 crosses a binade near segments 1, 2, 4, 8, ..., each crossing two
    /// rounds of the walk; the head takes the first of them off the walk.
    BinadeHeaded,
    /// Per-warp and per-block fp32 trees, blocks added in fp64 on the host (the former kernel).
    Tree,
}

impl Reduction {
    /// The kernel that adds a scale's terms this way.
    pub const fn kernel(self) -> &'static str {
        match self {
            Reduction::Ordered => "fvif_row_sums",
            Reduction::Binade => "fvif_row_sums_binade",
            Reduction::BinadePairs => "fvif_row_sums_binade_pairs",
            Reduction::BinadeWarp => "fvif_row_sums_binade_warp",
            Reduction::BinadePaired => "fvif_row_sums_binade_paired",
            Reduction::BinadeStaged => "fvif_row_sums_binade_staged",
            Reduction::BinadeInterleaved => "fvif_row_sums_binade_interleaved",
            Reduction::BinadeHeaded => "fvif_row_sums_binade_headed",
            Reduction::Tree => "fvif_tree_sums",
        }
    }

    /// The term kernel's layout for this reduction (`fvif_term_index`): 0 column by column
    /// (one thread a row), 2 segment-interleaved rows, 1 row by row (the others).
    pub const fn layout(self) -> i32 {
        match self {
            Reduction::Ordered => 0,
            Reduction::BinadeInterleaved => 2,
            _ => 1,
        }
    }
}

/// Events that order two streams and are never timed.
const NO_TIMING: CUevent_flags = CUevent_flags::CU_EVENT_DISABLE_TIMING;

/// One kernel configuration: which differences from the CPU are reintroduced.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Variant {
    /// libvmaf's former decimal tap table instead of the computed taps (kernel scale 1 only).
    pub table: bool,
    /// The device's `log2f` instead of `log2f_approx`.
    pub device_log2: bool,
    /// The statistic in fp32 (`vif_sigma_nsq` rounded to fp32).
    pub stat_f32: bool,
    /// The reduction.
    pub reduction: Reduction,
    /// A mutant of the warp walk ([`Reduction::BinadeWarp`]): a composed run applied without
    /// checking that it stays in its binade (`FVIF_WARP_RUN_END_UNCHECKED`).
    pub warp_run_end_unchecked: bool,
    /// A plan mutant of the paired rows ([`Reduction::BinadePaired`]): the den row's walk
    /// reads the num row's plan (`FVIF_PAIRED_PLANS_CROSSED`). Plans change no bit (the walk
    /// composes only units planned for its sum's binade), so its sums must be the CPU's.
    pub paired_plans_crossed: bool,
    /// A mutant of the paired rows: the den row walked with the num row's units
    /// (`FVIF_PAIRED_UNITS_CROSSED`), a wrong sum.
    pub paired_units_crossed: bool,
    /// A mutant of the staged rows ([`Reduction::BinadeStaged`]): the copy into shared memory
    /// stops one term short and the row's last term reads as +0
    /// (`FVIF_STAGED_LAST_UNSTAGED`), a wrong sum.
    pub staged_last_unstaged: bool,
    /// Each scale's sums launched on a second stream, after an event recorded behind the
    /// scale's term kernel, so that they run beside the next scale's filter kernels; the
    /// frame's stream waits for the last of them before the frame ends. No kernel changes:
    /// the same sums, on the same terms (each scale's terms in a buffer of its own), so the
    /// same bits.
    pub sums_beside: bool,
    /// A mutant of [`Variant::sums_beside`]: the second stream does not wait for the scale's
    /// terms, so a scale's sums may read its terms before they are written (a wrong sum
    /// wherever they do; [`first_wrong_scale`] makes them do so).
    pub sums_unwaited: bool,
    /// A mutant of the interleaved rows ([`Reduction::BinadeInterleaved`]): the walk's
    /// term-by-term adds read a segment as if its row were row by row
    /// (`FVIF_INTERLEAVED_FALLBACK_ROW_MAJOR`), a wrong sum.
    pub interleaved_fallback_row_major: bool,
    /// The segments of a row the head adds term by term in the headed rows
    /// ([`Reduction::BinadeHeaded`]; 0 to [`SEGMENTS`], a launch argument, not a define).
    pub head: u32,
    /// A mutant of the headed rows: the head's last term is never added while the walk starts
    /// after it (`FVIF_HEAD_ONE_SHORT`), a wrong sum.
    pub head_one_short: bool,
}

impl Variant {
    /// The exact twin with the given reduction.
    pub const fn exact(reduction: Reduction) -> Variant {
        Variant {
            table: false,
            device_log2: false,
            stat_f32: false,
            reduction,
            warp_run_end_unchecked: false,
            paired_plans_crossed: false,
            paired_units_crossed: false,
            staged_last_unstaged: false,
            sums_beside: false,
            sums_unwaited: false,
            interleaved_fallback_row_major: false,
            head: HEAD_SEGMENTS,
            head_one_short: false,
        }
    }

    /// The exact twin with the given reduction, each scale's sums beside the next scale's
    /// filter kernels ([`Variant::sums_beside`]).
    pub const fn beside(reduction: Reduction) -> Variant {
        Variant {
            sums_beside: true,
            ..Variant::exact(reduction)
        }
    }

    /// The compile-time defines of this variant.
    pub fn defines(&self) -> Vec<&'static str> {
        let mut d = Vec::new();
        if self.device_log2 {
            d.push("FVIF_DEVICE_LOG2");
        }
        if self.stat_f32 {
            d.push("FVIF_STAT_F32");
        }
        if self.warp_run_end_unchecked {
            d.push("FVIF_WARP_RUN_END_UNCHECKED");
        }
        if self.paired_plans_crossed {
            d.push("FVIF_PAIRED_PLANS_CROSSED");
        }
        if self.paired_units_crossed {
            d.push("FVIF_PAIRED_UNITS_CROSSED");
        }
        if self.staged_last_unstaged {
            d.push("FVIF_STAGED_LAST_UNSTAGED");
        }
        if self.interleaved_fallback_row_major {
            d.push("FVIF_INTERLEAVED_FALLBACK_ROW_MAJOR");
        }
        if self.head_one_short {
            d.push("FVIF_HEAD_ONE_SHORT");
        }
        // sums_beside, sums_unwaited and head change the launches, not the kernels
        d
    }
}

/// The sources NVRTC compiles, in order: the binade algebra, the header, the kernels.
pub fn sources() -> [&'static str; 5] {
    [BINADE, "\n", HEADER, "\n", KERNELS]
}

/// The `-D` definitions for a variant: the single-source switch, the segments per row and
/// the variant's switches.
pub fn definitions(defines: &[&'static str]) -> Vec<(&'static str, String)> {
    let mut d = vec![
        ("FVIF_SINGLE_SOURCE", "1".to_string()),
        ("FVIF_SEGMENTS", SEGMENTS.to_string()),
    ];
    d.extend(defines.iter().map(|&k| (k, "1".to_string())));
    d
}

/// Compiles the kernels for `arch` (e.g. `sm_90` or `compute_90`) with `--fmad=false`
/// through [`crate::gpu::compile`]; needs NVRTC, not a device.
pub fn compile(defines: &[&'static str], arch: &str) -> Result<Ptx> {
    crate::gpu::compile("float_vif", &sources(), &definitions(defines), arch)
}

/// True when NVRTC can be loaded (it needs no GPU).
pub fn nvrtc_present() -> bool {
    crate::gpu::nvrtc_present()
}

/// The per-scale sums a GPU run returns, in fp64 (exact widenings of fp32 sums, except for
/// [`Reduction::Tree`], whose block partials are added in fp64).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct GpuSums {
    /// Numerator sum per scale (skipped scales 0).
    pub num: [f64; 4],
    /// Denominator sum per scale.
    pub den: [f64; 4],
    /// Segments the row-parallel sum added term by term.
    pub fallbacks: u64,
}

impl GpuSums {
    /// The features published from these sums, as the CPU publishes its own
    /// ([`publish`]).
    pub fn features(&self, opts: &VifOptions) -> Features {
        publish(self.num, self.den, opts)
    }

    /// The first scale whose num or den sum lacks the bits of the CPU reference's (`cpu`,
    /// [`super::reference::scale_sums`], widened to fp64 exactly), compared by bits; `None`
    /// where every scale's sums have them.
    pub fn first_scale_unlike(&self, cpu: &[ScaleSums; 4]) -> Option<usize> {
        (0..4).find(|&s| {
            self.num[s].to_bits() != f64::from(cpu[s].num).to_bits()
                || self.den[s].to_bits() != f64::from(cpu[s].den).to_bits()
        })
    }
}

/// The sizes of the four scales of a `w` x `h` frame: each halves the last (as the filter
/// and decimation steps do, rounding down).
fn scale_dims(w: usize, h: usize) -> [(usize, usize); 4] {
    let mut dims = [(w, h); 4];
    for s in 1..4 {
        dims[s] = (dims[s - 1].0 / 2, dims[s - 1].1 / 2);
    }
    dims
}

/// Where each scale's terms start in the term buffers: the scales one after another, so
/// that a scale's terms stay until the frame ends (its sums may run beside the next scale's
/// kernels, [`Variant::sums_beside`]). The last entry is the buffers' length.
fn term_offsets(w: usize, h: usize) -> [usize; 5] {
    let mut off = [0usize; 5];
    for (s, (sw, sh)) in scale_dims(w, h).into_iter().enumerate() {
        off[s + 1] = off[s] + interleaved_pitch(sw) * sh;
    }
    off
}

/// The row pitch of the segment-interleaved layout (`fvif_interleaved_pitch`): `w` rounded up
/// to a multiple of [`SEGMENTS`], so every layout's terms of a scale fit `pitch * h` floats.
pub const fn interleaved_pitch(w: usize) -> usize {
    w.div_ceil(SEGMENTS as usize) * SEGMENTS as usize
}

/// Device buffers for one frame size, reused across frames and runs.
struct Workspace {
    w: usize,
    h: usize,
    r: CudaSlice<f32>,
    d: CudaSlice<f32>,
    p: [CudaSlice<f32>; 4],
    tmp: CudaSlice<f32>,
    v: CudaSlice<f32>,
    /// Every scale's num terms, at [`term_offsets`].
    num: CudaSlice<f32>,
    /// Every scale's den terms, at [`term_offsets`].
    den: CudaSlice<f32>,
    terms_at: [usize; 5],
    rows_num: CudaSlice<f32>,
    rows_den: CudaSlice<f32>,
    part_num: CudaSlice<f32>,
    part_den: CudaSlice<f32>,
    fallbacks: CudaSlice<u64>,
}

impl Workspace {
    fn new(stream: &Arc<CudaStream>, w: usize, h: usize) -> Result<Workspace> {
        let n = w * h;
        let q = (w / 2).max(1) * (h / 2).max(1);
        let blocks = w.div_ceil(16) * h.div_ceil(16);
        let terms_at = term_offsets(w, h);
        Ok(Workspace {
            w,
            h,
            r: stream.alloc_zeros(n)?,
            d: stream.alloc_zeros(n)?,
            p: [
                stream.alloc_zeros(q)?,
                stream.alloc_zeros(q)?,
                stream.alloc_zeros(q)?,
                stream.alloc_zeros(q)?,
            ],
            tmp: stream.alloc_zeros((h / 2).max(1) * w)?,
            v: stream.alloc_zeros(5 * n)?,
            num: stream.alloc_zeros(terms_at[4])?,
            den: stream.alloc_zeros(terms_at[4])?,
            terms_at,
            rows_num: stream.alloc_zeros(4 * h)?,
            rows_den: stream.alloc_zeros(4 * h)?,
            part_num: stream.alloc_zeros(4 * blocks)?,
            part_den: stream.alloc_zeros(4 * blocks)?,
            fallbacks: stream.alloc_zeros(1)?,
        })
    }

    /// Bytes held on the device.
    fn bytes(&self) -> usize {
        let f = |s: &CudaSlice<f32>| s.num_bytes();
        f(&self.r)
            + f(&self.d)
            + self.p.iter().map(f).sum::<usize>()
            + f(&self.tmp)
            + f(&self.v)
            + f(&self.num)
            + f(&self.den)
            + f(&self.rows_num)
            + f(&self.rows_den)
            + f(&self.part_num)
            + f(&self.part_den)
            + self.fallbacks.num_bytes()
    }
}

/// The float VIF kernels on one GPU: compiled modules per variant and a workspace.
pub struct VifGpu {
    gpu: Gpu,
    modules: HashMap<Vec<&'static str>, Module>,
    work: Option<Workspace>,
    /// The second stream of [`Variant::sums_beside`], made at its first use.
    side: Option<Arc<CudaStream>>,
}

fn grid2(w: usize, h: usize) -> LaunchConfig {
    LaunchConfig {
        grid_dim: (w.div_ceil(32) as u32, h.div_ceil(8) as u32, 1),
        block_dim: (32, 8, 1),
        shared_mem_bytes: 0,
    }
}

/// Launches the sums of scale `s` (`dims` = (w, h), its terms at `work.terms_at[s]`, row by
/// row, or column by column for [`Reduction::Ordered`]) on `stream`: row sums into the
/// scale's slice of `rows_num` and `rows_den`, or block partials into its slice of
/// `part_num` and `part_den`.
fn launch_scale_sums(
    stream: &Arc<CudaStream>,
    work: &mut Workspace,
    sum_fn: &CudaFunction,
    v: &Variant,
    s: usize,
    (w, h): (usize, usize),
) -> Result<()> {
    debug_assert!(v.head <= SEGMENTS);
    let reduction = v.reduction;
    debug_assert!(s < 4 && interleaved_pitch(w) * h <= work.terms_at[s + 1] - work.terms_at[s]);
    let at = work.terms_at[s]..work.terms_at[s + 1];
    let (num, den) = (work.num.slice(at.clone()), work.den.slice(at));
    let (wi, hi) = (w as i32, h as i32);
    if reduction == Reduction::Tree {
        let (gx, gy) = (w.div_ceil(16), h.div_ceil(16));
        let blocks = work.w.div_ceil(16) * work.h.div_ceil(16);
        let off = s * blocks;
        let mut pn = work.part_num.slice_mut(off..off + gx * gy);
        let mut pd = work.part_den.slice_mut(off..off + gx * gy);
        let mut b = stream.launch_builder(sum_fn);
        b.arg(&num)
            .arg(&den)
            .arg(&wi)
            .arg(&hi)
            .arg(&mut pn)
            .arg(&mut pd);
        let cfg = LaunchConfig {
            grid_dim: (gx as u32, gy as u32, 1),
            block_dim: (16, 16, 1),
            shared_mem_bytes: 0,
        };
        // SAFETY: num and den hold w * h floats; the partial slices one float per block.
        unsafe { b.launch(cfg) }?;
        return Ok(());
    }
    let off = s * work.h;
    let mut rn = work.rows_num.slice_mut(off..off + h);
    let mut rd = work.rows_den.slice_mut(off..off + h);
    let head = v.head as i32;
    let mut b = stream.launch_builder(sum_fn);
    b.arg(&num)
        .arg(&den)
        .arg(&wi)
        .arg(&hi)
        .arg(&mut rn)
        .arg(&mut rd);
    let cfg = if reduction == Reduction::Ordered {
        LaunchConfig {
            grid_dim: (h.div_ceil(128) as u32, 1, 1),
            block_dim: (128, 1, 1),
            shared_mem_bytes: 0,
        }
    } else {
        b.arg(&mut work.fallbacks);
        let mut threads = SEGMENTS;
        if reduction == Reduction::BinadeHeaded {
            b.arg(&head);
            threads += 32;
        }
        let shared_mem_bytes = if reduction == Reduction::BinadeStaged {
            staged_shared(sum_fn, w)?
        } else {
            0
        };
        LaunchConfig {
            grid_dim: (h as u32, 1, 1),
            block_dim: (threads, 1, 1),
            shared_mem_bytes,
        }
    };
    // SAFETY: num and den hold w * h floats; the row slices h each.
    unsafe { b.launch(cfg) }?;
    Ok(())
}

impl VifGpu {
    /// Opens device 0 through [`Gpu::open`], or says why there is no usable GPU.
    pub fn open() -> Result<VifGpu, NoDevice> {
        Ok(VifGpu::on(Gpu::open()?))
    }

    /// Compiles and loads `v`'s kernels now rather than at its first frame, and makes the
    /// second stream of a variant with its sums beside, so that a kill check that holds a
    /// stream does nothing during the hold but queue its frame.
    pub fn prepare(&mut self, v: &Variant) -> Result<()> {
        self.module(v)?;
        if v.sums_beside {
            self.side_stream()?;
        }
        Ok(())
    }

    /// The kernels on an opened device (compiled at their first frame).
    pub fn on(gpu: Gpu) -> VifGpu {
        VifGpu {
            gpu,
            modules: HashMap::new(),
            work: None,
            side: None,
        }
    }

    /// The device's name and architecture.
    pub fn describe(&self) -> String {
        format!("{} ({})", self.gpu.name, self.gpu.arch)
    }

    /// (free, total) device memory in bytes.
    pub fn mem_info(&self) -> Result<(usize, usize)> {
        Ok(self.gpu.context().mem_get_info()?)
    }

    /// Bytes held by the current workspace (0 before the first frame).
    pub fn workspace_bytes(&self) -> usize {
        self.work.as_ref().map_or(0, Workspace::bytes)
    }

    fn stream(&self) -> Arc<CudaStream> {
        self.gpu.stream().clone()
    }

    fn side_stream(&mut self) -> Result<Arc<CudaStream>> {
        if let Some(side) = &self.side {
            return Ok(side.clone());
        }
        let side = self.gpu.context().new_stream()?;
        self.side = Some(side.clone());
        Ok(side)
    }

    fn module(&mut self, v: &Variant) -> Result<Module> {
        let key = v.defines();
        if let Some(m) = self.modules.get(&key) {
            return Ok(m.clone());
        }
        let m = self.gpu.load("float_vif", &sources(), &definitions(&key))?;
        self.modules.insert(key, m.clone());
        Ok(m)
    }

    /// Uploads a frame pair (allocating the workspace for its size if needed).
    pub fn upload(&mut self, r: &Image, d: &Image) -> Result<()> {
        if (r.w, r.h) != (d.w, d.h) {
            bail!(
                "reference {}x{} and distorted {}x{} differ in size",
                r.w,
                r.h,
                d.w,
                d.h
            );
        }
        if self.work.as_ref().is_none_or(|w| (w.w, w.h) != (r.w, r.h)) {
            self.work = None;
            self.work = Some(Workspace::new(&self.stream(), r.w, r.h)?);
        }
        let work = self.work.as_mut().ok_or_else(|| anyhow!("no workspace"))?;
        let stream = self.gpu.stream();
        stream.memcpy_htod(&r.data, &mut work.r)?;
        stream.memcpy_htod(&d.data, &mut work.d)?;
        Ok(())
    }

    /// Launches every kernel of one frame (the uploaded pair) for `variant`; nothing is read
    /// back. Returns the scales' sizes.
    pub fn launch_frame(&mut self, opts: &VifOptions, v: &Variant) -> Result<[(usize, usize); 4]> {
        opts.validate()?;
        let taps = if v.table {
            if opts.kernelscale != 1.0 {
                bail!(
                    "the decimal tap table exists for vif_kernelscale 1.0 only, not {}",
                    opts.kernelscale
                );
            }
            legacy_table()
        } else {
            all_taps(opts.kernelscale_f32())
        };
        let module = self.module(v)?;
        let side = if v.sums_beside {
            Some(self.side_stream()?)
        } else {
            None
        };
        let f = |name: &str| -> Result<CudaFunction> { module.function(name) };
        let (dec_v, dec_h, vert5, compute) = (
            f("fvif_filter_dec_v")?,
            f("fvif_filter_dec_h")?,
            f("fvif_vertical5")?,
            f("fvif_compute")?,
        );
        let sum_fn = f(v.reduction.kernel())?;
        let stream = self.stream();
        let work = self
            .work
            .as_mut()
            .ok_or_else(|| anyhow!("no frame uploaded"))?;
        let first = opts.first_scale();
        check_sizes(work.w, work.h, &taps, first)?;
        let params = FvifParams::from(&StatParams::new(opts.enhn_gain_limit, opts.sigma_nsq));
        let layout = v.reduction.layout();
        let mut dims = [(0usize, 0usize); 4];
        let (mut w, mut h) = (work.w, work.h);
        stream.memset_zeros(&mut work.fallbacks)?;
        // which buffers hold the current scale: None = the input, Some(k) = p[k], p[k + 1]
        let mut cur: Option<usize> = None;
        for s in 0..4 {
            let t = FvifTaps::new(&taps[s]);
            if s > 0 {
                if s < first {
                    continue;
                }
                let next = if cur == Some(0) { 2 } else { 0 };
                let (oh, ow) = (h / 2, w / 2);
                for k in 0..2 {
                    let (wi, hi, ohi) = (w as i32, h as i32, oh as i32);
                    {
                        let src = match cur {
                            None => {
                                if k == 0 {
                                    &work.r
                                } else {
                                    &work.d
                                }
                            }
                            Some(c) => &work.p[c + k],
                        };
                        let mut b = stream.launch_builder(&dec_v);
                        b.arg(src).arg(&wi).arg(&hi).arg(&t).arg(&mut work.tmp);
                        // SAFETY: src holds w * h floats, tmp (h / 2) * w; the kernel checks its bounds.
                        unsafe { b.launch(grid2(w, oh)) }?;
                    }
                    let mut b = stream.launch_builder(&dec_h);
                    b.arg(&work.tmp)
                        .arg(&wi)
                        .arg(&ohi)
                        .arg(&t)
                        .arg(&mut work.p[next + k]);
                    // SAFETY: tmp holds (h / 2) * w floats, the destination (h / 2) * (w / 2).
                    unsafe { b.launch(grid2(ow, oh)) }?;
                }
                cur = Some(next);
                w = ow;
                h = oh;
            }
            if s < first {
                continue;
            }
            dims[s] = (w, h);
            let (wi, hi) = (w as i32, h as i32);
            {
                let (a, bb) = match cur {
                    None => (&work.r, &work.d),
                    Some(c) => (&work.p[c], &work.p[c + 1]),
                };
                let mut b = stream.launch_builder(&vert5);
                b.arg(a).arg(bb).arg(&wi).arg(&hi).arg(&t).arg(&mut work.v);
                // SAFETY: a and b hold w * h floats, v 5 * w * h.
                unsafe { b.launch(grid2(w, h)) }?;
            }
            {
                let at = work.terms_at[s]..work.terms_at[s + 1];
                let mut num = work.num.slice_mut(at.clone());
                let mut den = work.den.slice_mut(at);
                let mut b = stream.launch_builder(&compute);
                b.arg(&work.v)
                    .arg(&wi)
                    .arg(&hi)
                    .arg(&t)
                    .arg(&params)
                    .arg(&layout)
                    .arg(&mut num)
                    .arg(&mut den);
                // SAFETY: v holds 5 * w * h floats; the scale's num and den hold
                // interleaved_pitch(w) * h floats each, every layout's span.
                unsafe { b.launch(grid2(w, h)) }?;
            }
            let sum_stream = match &side {
                Some(side) => {
                    if !v.sums_unwaited {
                        side.wait(&stream.record_event(Some(NO_TIMING))?)?;
                    }
                    side
                }
                None => &stream,
            };
            launch_scale_sums(sum_stream, work, &sum_fn, v, s, (w, h))?;
        }
        if let Some(side) = &side {
            stream.wait(&side.record_event(Some(NO_TIMING))?)?;
        }
        Ok(dims)
    }

    /// Reads back the sums of the last launched frame and adds them as the host routine does:
    /// rows top to bottom in fp32 (ordered and row-parallel), or block partials in fp64 (tree).
    pub fn read_sums(&self, dims: &[(usize, usize); 4], reduction: Reduction) -> Result<GpuSums> {
        let work = self
            .work
            .as_ref()
            .ok_or_else(|| anyhow!("no frame uploaded"))?;
        let mut out = GpuSums::default();
        match reduction {
            Reduction::Ordered
            | Reduction::Binade
            | Reduction::BinadePairs
            | Reduction::BinadeWarp
            | Reduction::BinadePaired
            | Reduction::BinadeStaged
            | Reduction::BinadeInterleaved
            | Reduction::BinadeHeaded => {
                let rn = self.gpu.stream().clone_dtoh(&work.rows_num)?;
                let rd = self.gpu.stream().clone_dtoh(&work.rows_den)?;
                for (s, &(_, h)) in dims.iter().enumerate() {
                    let off = s * work.h;
                    out.num[s] = f64::from(sum_rows(&rn[off..off + h]));
                    out.den[s] = f64::from(sum_rows(&rd[off..off + h]));
                }
                if reduction != Reduction::Ordered {
                    out.fallbacks = self.gpu.stream().clone_dtoh(&work.fallbacks)?[0];
                }
            }
            Reduction::Tree => {
                let pn = self.gpu.stream().clone_dtoh(&work.part_num)?;
                let pd = self.gpu.stream().clone_dtoh(&work.part_den)?;
                let blocks = work.w.div_ceil(16) * work.h.div_ceil(16);
                for (s, &(w, h)) in dims.iter().enumerate() {
                    let n = w.div_ceil(16) * h.div_ceil(16);
                    let off = s * blocks;
                    out.num[s] = pn[off..off + n]
                        .iter()
                        .map(|&x| f64::from(x))
                        .fold(0.0, |a, x| a + x);
                    out.den[s] = pd[off..off + n]
                        .iter()
                        .map(|&x| f64::from(x))
                        .fold(0.0, |a, x| a + x);
                }
            }
        }
        Ok(out)
    }

    /// For the kill check of [`Variant::sums_unwaited`]: fills every scale's terms with NaN
    /// and waits for that, then holds the frame's stream for [`HOLD_NS`]
    /// (`crate::gpu::upload::hold_stream`; keep the [`Hold`] until the frame is queued). A
    /// frame launched next writes its terms only after the hold, so sums that do not wait for
    /// them read NaN and give NaN; sums that wait give the frame's.
    pub fn poison_terms_and_hold(&mut self) -> Result<Hold> {
        let work = self
            .work
            .as_mut()
            .ok_or_else(|| anyhow!("no frame uploaded"))?;
        let stream = self.gpu.stream();
        let nan = vec![f32::NAN; work.terms_at[4]];
        stream.memcpy_htod(&nan, &mut work.num)?;
        stream.memcpy_htod(&nan, &mut work.den)?;
        stream.synchronize()?;
        hold_stream(&self.gpu, HOLD_NS)
    }

    /// One frame pair through `variant`: upload, kernels, readback, host sums.
    pub fn scale_sums(
        &mut self,
        r: &Image,
        d: &Image,
        opts: &VifOptions,
        v: &Variant,
    ) -> Result<GpuSums> {
        self.upload(r, d)?;
        let dims = self.launch_frame(opts, v)?;
        self.read_sums(&dims, v.reduction)
    }

    /// `float_vif`'s published features of one frame pair on the device: the row-parallel
    /// exact twin with a row's num and den planned and walked at once by two warps after a
    /// head of [`HEAD_SEGMENTS`] segments ([`Reduction::BinadeHeaded`]; the one-warp walk took
    /// 1.758 against 1.848 ms a 3840x2160 frame on the H200 at 75683a9, a head of 8 segments
    /// 1.597 against the paired rows' 1.651 on an H100 at df9ad94, of 64 segments 1.554
    /// against 8 segments' 1.618 on an H100 at 3426936), each scale's sums beside the next scale's
    /// filter kernels ([`Variant::sums_beside`]; 1.653 against 1.703 ms on an H100 at 517c5e6,
    /// 1.664 against 1.718 at 56eca43, `float-vif-timing`), so every output has the bits of
    /// [`super::reference::vif`] when the device is right (`float-vif-parity` checks that on
    /// every fixture). Refuses what the reference refuses: planes that differ in size or
    /// depth, frames smaller than a scale's filter, options out of range.
    pub fn features(&mut self, r: &Plane, d: &Plane, opts: &VifOptions) -> Result<Features> {
        if (r.w, r.h, r.bpc) != (d.w, d.h, d.bpc) {
            return Err(VifError::Mismatch(r.w, r.h, r.bpc, d.w, d.h, d.bpc).into());
        }
        let sums = self.scale_sums(
            &r.to_image(),
            &d.to_image(),
            opts,
            &Variant::beside(Reduction::BinadeHeaded),
        )?;
        Ok(sums.features(opts))
    }

    /// Milliseconds of the kernels of one frame (the uploaded pair), measured with CUDA
    /// events: `warmup` untimed frames, then `reps` timed ones.
    pub fn time_frames(
        &mut self,
        opts: &VifOptions,
        v: &Variant,
        warmup: usize,
        reps: usize,
    ) -> Result<Vec<f32>> {
        let gpu = self.gpu.clone();
        let times = crate::gpu::timing::event_times(&gpu, warmup, reps, |_| {
            self.launch_frame(opts, v).map(|_| ())
        })?;
        Ok(times.into_iter().map(|t| t as f32).collect())
    }

    /// Milliseconds of a frame's sum kernels alone, measured with CUDA events: one frame
    /// launched with `v` leaves every scale's terms in their buffers, then `warmup` untimed
    /// and `reps` timed launches of the four scales' sums in turn, on the frame's stream (so
    /// with nothing beside them). What a frame's time holds of its sums, where they do not
    /// overlap other kernels.
    pub fn time_sums(
        &mut self,
        opts: &VifOptions,
        v: &Variant,
        warmup: usize,
        reps: usize,
    ) -> Result<Vec<f32>> {
        let dims = self.launch_frame(opts, v)?;
        let module = self.module(v)?;
        let sum_fn = module.function(v.reduction.kernel())?;
        let stream = self.stream();
        let work = self
            .work
            .as_mut()
            .ok_or_else(|| anyhow!("no frame uploaded"))?;
        let times = crate::gpu::timing::event_times(&self.gpu, warmup, reps, |_| {
            for (s, &d) in dims.iter().enumerate() {
                if d != (0, 0) {
                    launch_scale_sums(&stream, work, &sum_fn, v, s, d)?;
                }
            }
            Ok(())
        })?;
        Ok(times.into_iter().map(|t| t as f32).collect())
    }
}

/// The synthetic frame (width, height; 8 bits, [`KILL_WIDE_SEED`]) a kill check of a device
/// variant sums after [`KILL_FRAMES`]: rows of 1,037 terms, 9 a segment, where the fixtures'
/// rows of at most 104 give every segment one term.
pub const KILL_WIDE: (usize, usize) = (1037, 37);
/// The seed of [`KILL_WIDE`]'s frame (`vif::synth::natural_pair`).
pub const KILL_WIDE_SEED: u64 = 2026;

/// The committed fixture frames (`fixtures/vif`: name, width, height, bits) that a kill check
/// of a device variant sums.
pub const KILL_FRAMES: [(&str, usize, usize, u32); 3] = [
    ("nat8", 96, 64, 8),
    ("nat16", 104, 59, 16),
    ("checker8", 96, 64, 8),
];

/// The first scale sum of the [`KILL_FRAMES`] (read from `fixtures`, the project's
/// `fixtures/vif`) whose bits differ from the CPU reference's with variant `v` under the
/// default options, named; `None` where every num and den sum has the CPU's bits. The check
/// both a mutant's kill (`Some`) and a plan mutant's keeping the bits (`None`) rest on.
pub fn first_wrong_scale(
    g: &mut VifGpu,
    v: &Variant,
    fixtures: &std::path::Path,
) -> Result<Option<String>> {
    let opts = VifOptions::default();
    let mut frames = Vec::new();
    for (name, w, h, bpc) in KILL_FRAMES {
        let (r, d) = super::fixtures::committed_pair(fixtures, name, w, h, bpc)?;
        frames.push((name.to_string(), r, d));
    }
    // Rows wider than SEGMENTS terms, so that a segment holds more than one term (the
    // interleaved layout is the row-major one where every segment holds one).
    let (w, h) = KILL_WIDE;
    let (r, d) = super::synth::natural_pair(w, h, 8, KILL_WIDE_SEED)?;
    frames.push((format!("synthetic {w}x{h}"), r.to_image(), d.to_image()));
    g.prepare(v)?;
    for (name, r, d) in &frames {
        let want = super::reference::scale_sums(r, d, &opts)?;
        let got = if v.sums_beside {
            g.upload(r, d)?;
            let hold = g.poison_terms_and_hold()?;
            let dims = g.launch_frame(&opts, v)?;
            if !hold.still_held()? {
                bail!("{name}: the frame's hold ended before its kernels were queued, so the kill check would say nothing");
            }
            drop(hold);
            g.read_sums(&dims, v.reduction)?
        } else {
            g.scale_sums(r, d, &opts, v)?
        };
        if let Some(s) = got.first_scale_unlike(&want) {
            return Ok(Some(format!(
                "{name} scale {s}: num {:?} den {:?}, the CPU {:?} {:?}",
                got.num[s], got.den[s], want[s].num, want[s].den
            )));
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The kill checks' synthetic frame has rows of more than one term a segment at scale 0
    /// and the CPU reference takes it at every scale (so a kill check can compare its sums).
    #[test]
    fn the_wide_kill_frame_has_segments_of_many_terms() {
        let (w, h) = KILL_WIDE;
        assert!(w.div_ceil(SEGMENTS as usize) > 1);
        let (r, d) = super::super::synth::natural_pair(w, h, 8, KILL_WIDE_SEED).unwrap();
        let sums = super::super::reference::scale_sums(
            &r.to_image(),
            &d.to_image(),
            &VifOptions::default(),
        )
        .unwrap();
        assert!(sums.iter().all(|s| s.den > 0.0));
    }
}
