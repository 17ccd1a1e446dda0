//! Float VIF: libvmaf's CPU `float_vif` extractor reproduced bit for bit, and its GPU twin.
//!
//! The CPU reference ([`reference::vif`]) follows the extractor operation for operation:
//! taps computed at run time ([`taps`]), four scales of separable filtering with
//! `reflect_101` borders and decimation ([`filter`]), the statistic with `vif_sigma_nsq` in
//! fp64 and `log2f_approx` ([`stat`], [`log2`]), each row summed in one fp32 accumulator and
//! the rows summed in fp32, and the published features in fp64. libvmaf's AVX2 and scalar
//! convolution paths compute the same bits for float VIF (see [`filter`]); the reference
//! stands for both.
//!
//! The GPU twin lives in `kernels/float_vif.cuh` (arithmetic, compiled for the device and
//! for the host) and `kernels/float_vif.cu` (kernels); [`host`] runs the header's functions
//! on the host and [`gpu`] launches the kernels.

pub mod compare;
pub mod fast_unit_kill;
pub mod filter;
pub mod fixtures;
pub mod frame;
pub mod gpu;
pub mod host;
pub mod log2;
pub mod options;
pub mod reference;
pub mod stat;
pub mod synth;
pub mod taps;
pub mod tree;

pub use frame::Plane;
pub use options::VifOptions;
pub use reference::{vif, Features, ScaleSums, VifError, FEATURE_NAMES};
