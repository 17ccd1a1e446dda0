//! The chunk layout shared by the host pipeline, the host-compiled CUDA headers and the
//! kernels: a chunk is [`CHUNK`] terms, [`LANES`] lanes of [`PER_LANE`] consecutive terms.
//!
//! Guarantee: the numbers are defined once (`src/layout_values.rs`); the kernels receive them
//! as the `-D` defines of [`defines`] and refuse to compile without them (`#error`), and
//! `build.rs` includes the same file for the host build.

include!("layout_values.rs");

const _: () = assert!(LANES.is_multiple_of(32) && LANES.is_power_of_two());
const _: () = assert!(CHUNK == LANES * PER_LANE);
const _: () = assert!(OP_THREADS.is_multiple_of(32) && OP_THREADS <= 1024);
const _: () = assert!(OP_TILE == OP_THREADS * OP_PER_THREAD);

/// The layout as `(name, value)` preprocessor defines: `BINADE_LANES`, `BINADE_PER_LANE`,
/// `BINADE_CHUNK`, `BINADE_GROUP`, `BINADE_STAGE`, and the one-pass engine's
/// `BINADE_OP_THREADS`, `BINADE_OP_PER_THREAD`, `BINADE_OP_TILE`.
pub fn defines() -> Vec<(&'static str, String)> {
    vec![
        ("BINADE_LANES", LANES.to_string()),
        ("BINADE_PER_LANE", PER_LANE.to_string()),
        ("BINADE_CHUNK", CHUNK.to_string()),
        ("BINADE_GROUP", GROUP.to_string()),
        ("BINADE_STAGE", STAGE.to_string()),
        ("BINADE_OP_THREADS", OP_THREADS.to_string()),
        ("BINADE_OP_PER_THREAD", OP_PER_THREAD.to_string()),
        ("BINADE_OP_TILE", OP_TILE.to_string()),
        ("BINADE_SIGNED_STAGE", SIGNED_STAGE.to_string()),
        ("BINADE_PLAN_NEGATIVE", format!("{PLAN_NEGATIVE:#x}u")),
    ]
}

/// Number of chunks covering `n` terms (the last one may be partial).
pub fn chunk_count(n: usize) -> usize {
    n.div_ceil(CHUNK)
}
