//! binade: the CPU's sequential floating-point sum, reproduced bit for bit by a parallel
//! algebra of per-binade integer increments, on the host and on a GPU.
//!
//! The loop `s = 0; for x in terms { s = s + x }` is cut into chunks; each chunk becomes a
//! [`unit::Unit`] (a pair of integer increments, one per parity of the running significand)
//! valid inside one binade, and a [`walk`] applies the units in order, falling back to the
//! plain loop for any chunk where a unit does not apply. The result has the loop's bits for
//! every input and every plan.
//!
//! The modules are layers; each uses only the layers above it in this list (a test,
//! `tests/layers.rs`, reads the sources and fails on an import that looks up):
//!
//! 1. core: [`format`], [`layout`], [`unit`], [`algebra`], [`plan`], [`walk`], [`order`],
//!    [`fast`], [`cumsum`], [`api`]: the exact algebra, the host pipeline, the fast CPU engine
//!    and the loop's running sums;
//! 2. verify: [`verify`] (oracles, input kinds, samplers, the battery, the kill matrix,
//!    named mutants, the host build of the CUDA header);
//! 3. device: [`gpu`] (opening the GPU, compiling kernels, launches, device errors);
//! 4. metrics: [`vif`], [`ssimulacra2`], [`fixtures`] (libraries that know no experiment);
//! 5. support: [`report`], [`plot`], [`provenance`] (what experiments write);
//! 6. experiment: [`experiment`] (configuration, the registry and every runner);
//! 7. cli: [`cli`] (commands, `binade sum`, exit codes).

pub mod algebra;
pub mod api;
pub mod cli;
pub mod cumsum;
pub mod experiment;
pub mod fast;
pub mod fixtures;
pub mod format;
pub mod gpu;
pub mod layout;
pub mod order;
pub mod plan;
pub mod plot;
pub mod provenance;
pub mod report;
pub mod signed_unit;
pub mod ssimulacra2;
pub mod unit;
pub mod verify;
pub mod vif;
pub mod walk;

pub use api::{
    loop_cumsum_into, ordered_cumsum, ordered_cumsum_f32, ordered_cumsum_into, ordered_sum,
    ordered_sum_f32, ordered_sum_f32_with, ordered_sum_with, Binade, CpuOrder, Exact, FastTerm,
    Format, Plan, PlanKind, Start, Unit, Walk, F32, F64,
};
