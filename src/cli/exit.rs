//! The exit codes of the `binade` command, one meaning each.

/// Every check passed.
pub const EXIT_OK: i32 = 0;
/// The run finished and its report was written, but some check failed.
pub const EXIT_FAILED_CHECKS: i32 = 1;
/// Bad input: unknown experiment, malformed file or field, bad parameter or file.
pub const EXIT_BAD_INPUT: i32 = 2;
/// The command needs a GPU and none is usable here (no driver, no NVRTC, no device).
pub const EXIT_NO_DEVICE: i32 = 3;
/// A kernel does not compile: a defect of the kernels, never "no device".
pub const EXIT_KERNEL_COMPILE: i32 = 4;
