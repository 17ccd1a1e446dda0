//! Verification: the independent oracles (the native add, MPFR), term-stream and one-term
//! generators by kind, the battery that judges any implementation of the algebra, the kill
//! matrix, the named mutants, and the host build of the CUDA algebra header.
//!
//! Looks down on the core only; nothing in the core depends on it.

pub mod battery;
pub mod cumsum_mutants;
pub mod device_header;
pub mod device_header_signed;
pub mod fast_mutants;
pub mod inputs;
pub mod kill;
pub mod mutant;
pub mod numpy_fixture;
pub mod oracle;
pub mod order_mutants;
pub mod sampler;
pub mod signed_inputs;
pub mod signed_mutants;
pub mod tie_parity;
pub mod walked_model;
