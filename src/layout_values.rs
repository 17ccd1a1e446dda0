// The chunk layout's numbers, in one place. Included by `src/layout.rs` (the library) and by
// `build.rs` (the host C++ build), and passed to NVRTC as `-D` defines, so the host pipeline,
// the host-compiled headers and the kernels cannot disagree. Plain items only: this file is
// `include!`d, so it holds no inner attributes or module docs.

/// Lanes per chunk: threads per block on the device (a multiple of the 32-lane warp).
pub const LANES: usize = 256;
/// Consecutive terms per lane.
pub const PER_LANE: usize = 4;
/// Terms per chunk: `LANES * PER_LANE`.
pub const CHUNK: usize = LANES * PER_LANE;
/// Chunks per group of the device's grouped walk (runs composed into one unit).
pub const GROUP: usize = 256;
/// Chunks whose terms the device's walk stages per round.
pub const STAGE: usize = 1024;
/// Threads per block of the one-pass engine (one tile per block).
pub const OP_THREADS: usize = 256;
/// Consecutive terms each thread of the one-pass engine answers for (its tile is in shared
/// memory).
pub const OP_PER_THREAD: usize = 32;
/// Terms per tile of the one-pass engine: `OP_THREADS * OP_PER_THREAD`.
pub const OP_TILE: usize = OP_THREADS * OP_PER_THREAD;
/// Chunks whose signed units the device's signed walks stage per round (a signed unit is 7
/// words, against an unsigned one's 2).
pub const SIGNED_STAGE: usize = 256;
/// The bit a signed plan's code sets for a negative prefix (above every f64 exponent field,
/// whose largest normal value is 0x7fe): the chunk's terms and the sum are negated around its
/// unit.
pub const PLAN_NEGATIVE: u32 = 0x800;
