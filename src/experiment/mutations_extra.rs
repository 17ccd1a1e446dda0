//! The parts of the `mutations` experiment that need more than the Rust algebra: the CUDA
//! header compiled for the host, the device pipeline, and the `cargo-mutants` score.

use super::mutations::MatrixRow;
use super::Context;
use crate::kill::Budget;
use crate::mutant::Mutant;

/// Kill-matrix rows for the CUDA header compiled for the host (f64 and f32 checks).
pub fn header_rows(_ctx: &Context, _b: &Budget) -> Vec<MatrixRow> {
    Vec::new()
}

/// The device column: per mutant, whether the device pipeline killed it.
pub struct DeviceColumn {
    /// (mutant, cell text) for the rows the device ran.
    pub cells: Vec<(Mutant, String)>,
    /// A paragraph on how the column was filled, or why it was not.
    pub note: String,
}

impl DeviceColumn {
    /// The cell for an implementation's mutant row (device results sit on the header rows).
    pub fn cell(&self, implementation: &str, m: Mutant) -> String {
        if !implementation.starts_with("header") {
            return "n/a".into();
        }
        self.cells.iter().find(|(x, _)| *x == m).map(|(_, c)| c.clone()).unwrap_or_else(|| "not run".into())
    }
}

/// Runs every mutant of the header on the device, when one is present.
pub fn device_rows(_ctx: &Context, _b: &Budget) -> DeviceColumn {
    DeviceColumn { cells: Vec::new(), note: "Device column: not run (this build has no GPU pipeline).".into() }
}

/// The `cargo-mutants` score, read from `reports/cargo-mutants/outcomes.csv` when that
/// experiment has been run.
pub fn cargo_mutants_section() -> String {
    match std::fs::read_to_string("reports/cargo-mutants/README.md") {
        Ok(md) => {
            let headline = md.lines().skip_while(|l| l.trim() != "<!-- headline -->").nth(1).unwrap_or("").trim_matches('*').to_string();
            format!("### Generic mutation testing\n\n`cargo-mutants` on the algebra modules ([report](../cargo-mutants/README.md)): {headline}")
        }
        Err(_) => "### Generic mutation testing\n\n`cargo-mutants` has not been run on this checkout (`just run-experiment cargo-mutants`).".into(),
    }
}
