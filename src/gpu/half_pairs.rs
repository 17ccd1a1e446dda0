//! The one-term rule on every (start, term) pair of f16 and bf16 against the device's own add
//! instruction (`kernels/half_pairs.cu`: `add.rn.f16`, `add.rn.bf16`), with the device copy of
//! the algebra (`kernels/binade.cuh`). The CPU check of the same pairs judges the rule against
//! the f64 sum rounded once to the format (`verify::battery::exhaustive_pairs_native`); this
//! one takes a reference that shares no code with the project: the instruction itself.
//!
//! Guarantee: [`HalfPairs::check`] returns the counts the kernel found over all 2^32 pairs
//! whose start is a positive normal, and the lowest pair of each kind of failure. A build
//! with a [`Mutant`] of the header is a check of the check: it must find failures.

use anyhow::{Context as _, Result};
use cudarc::driver::{CudaFunction, LaunchConfig, PushKernelArg};

use super::Gpu;
use crate::format::{Format, BF16, F16};
use crate::verify::device_header::HEADER;
use crate::verify::mutant::Mutant;

/// The kernel's source (compiled with [`HEADER`] prepended).
pub const SOURCE: &str = include_str!("../../kernels/half_pairs.cu");

/// A 16-bit format of the device.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HalfFormat {
    /// IEEE binary16: 5 exponent, 10 fraction bits.
    F16,
    /// bfloat16: 8 exponent, 7 fraction bits.
    Bf16,
}

impl HalfFormat {
    /// Both formats.
    pub const ALL: [HalfFormat; 2] = [HalfFormat::F16, HalfFormat::Bf16];

    /// The format's name: `format::F16::NAME` or `format::BF16::NAME`.
    pub const fn name(self) -> &'static str {
        match self {
            HalfFormat::F16 => F16::NAME,
            HalfFormat::Bf16 => BF16::NAME,
        }
    }
}

/// What the kernel counted over every pair with a positive normal start.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct PairTally {
    /// Pairs judged (65,536 terms for each positive normal start).
    pub pairs: u64,
    /// Pairs where the rule applied.
    pub applied: u64,
    /// Pairs where it applied and its bits were not the add's.
    pub wrong: u64,
    /// Pairs where it did not apply although the exact sum stays in the binade.
    pub refused: u64,
    /// The lowest wrong pair as (start bits, term bits).
    pub first_wrong: Option<(u16, u16)>,
    /// The lowest refused pair as (start bits, term bits).
    pub first_refused: Option<(u16, u16)>,
}

/// The compiled check of one format and one header build.
pub struct HalfPairs {
    gpu: Gpu,
    kernel: CudaFunction,
    /// The format it checks.
    pub format: HalfFormat,
    /// The header's mutant it was built with ([`Mutant::None`]: the algebra).
    pub mutant: Mutant,
}

fn pair_of(code: u32) -> Option<(u16, u16)> {
    (code != u32::MAX).then_some(((code >> 16) as u16, code as u16))
}

impl HalfPairs {
    /// Compiles the check for `format` with the header's `mutant` (a whole NVRTC compile).
    pub fn new(gpu: &Gpu, format: HalfFormat, mutant: Mutant) -> Result<HalfPairs> {
        let module = gpu.load(
            "half_pairs",
            &[HEADER, "\n", SOURCE],
            &defines(format, mutant),
        )?;
        Ok(HalfPairs {
            gpu: gpu.clone(),
            kernel: module.function("half_pairs")?,
            format,
            mutant,
        })
    }

    /// Runs every pair once (65,536 threads, each over every term) and reads the counts back.
    pub fn check(&self) -> Result<PairTally> {
        let s = self.gpu.stream();
        let mut counts = s.alloc_zeros::<u64>(4)?;
        let mut first_wrong = s.clone_htod(&[u32::MAX])?;
        let mut first_refused = s.clone_htod(&[u32::MAX])?;
        let mut l = s.launch_builder(&self.kernel);
        l.arg(&mut counts)
            .arg(&mut first_wrong)
            .arg(&mut first_refused);
        let cfg = LaunchConfig {
            grid_dim: (65536 / 256, 1, 1),
            block_dim: (256, 1, 1),
            shared_mem_bytes: 0,
        };
        // SAFETY: half_pairs writes only the four counters and the two minima given here.
        unsafe { l.launch(cfg) }.context("launching half_pairs")?;
        let c = s.clone_dtoh(&counts)?;
        Ok(PairTally {
            pairs: c[0],
            applied: c[1],
            wrong: c[2],
            refused: c[3],
            first_wrong: pair_of(s.clone_dtoh(&first_wrong)?[0]),
            first_refused: pair_of(s.clone_dtoh(&first_refused)?[0]),
        })
    }
}

/// The kernel's defines: the format and the header's mutant.
fn defines(format: HalfFormat, mutant: Mutant) -> [(&'static str, String); 2] {
    [
        (
            "BINADE_HP_BF16",
            u32::from(format == HalfFormat::Bf16).to_string(),
        ),
        ("BINADE_MUTANT", mutant.code().to_string()),
    ]
}

/// Compiles the check for `arch` without a device (for the compile checks).
pub fn compile_for(arch: &str, format: HalfFormat, mutant: Mutant) -> Result<cudarc::nvrtc::Ptx> {
    super::compile(
        "half_pairs",
        &[HEADER, "\n", SOURCE],
        &defines(format, mutant),
        arch,
    )
}
