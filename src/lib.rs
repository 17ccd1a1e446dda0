//! binade: the CPU's sequential floating-point sum, reproduced bit for bit by a parallel
//! algebra of per-binade integer increments, on the host and on a GPU.
//!
//! The loop `s = 0; for x in terms { s = s + x }` is cut into chunks; each chunk becomes a
//! [`unit::Unit`] (a pair of integer increments, one per parity of the running significand)
//! valid inside one binade, and a [`walk`] applies the units in order, falling back to the
//! plain loop for any chunk where a unit does not apply. The result has the loop's bits for
//! every input and every plan.

pub mod algebra;
pub mod api;
pub mod battery;
pub mod cli;
pub mod device_header;
pub mod experiment;
pub mod format;
pub mod gpu;
pub mod inputs;
pub mod kill;
pub mod mutant;
pub mod oracle;
pub mod order;
pub mod plan;
pub mod plot;
pub mod provenance;
pub mod report;
pub mod sampler;
pub mod sum_cmd;
pub mod unit;
pub mod vif;
pub mod walk;

pub use api::{
    ordered_sum, ordered_sum_f32, ordered_sum_f32_with, ordered_sum_with, Binade, CpuOrder, Format,
    Mutant, Plan, PlanKind, Unit, Walk, F32, F64,
};
pub mod fixtures;
pub mod ssimulacra2;
