//! CPU orders: which floating-point loop a sum reproduces.
//!
//! The harness reproduces one CPU loop bit for bit. Today that is the sequential loop
//! `s = 0; for x in terms { s = s + x }`; orders that vectorised or blocked CPU code uses
//! (`interleaved:K` accumulators, `rows:W` row sums then a sum of rows) will be added here.

use std::fmt;
use std::str::FromStr;

/// The CPU loop whose result a sum must reproduce.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum CpuOrder {
    /// `s = 0; for x in terms { s = s + x }`, one accumulator, terms in memory order.
    #[default]
    Sequential,
}

impl CpuOrder {
    /// The name used on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            CpuOrder::Sequential => "sequential",
        }
    }
}

impl fmt::Display for CpuOrder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Orders that are named in the design but not implemented yet (prefixes of `NAME:PARAM`).
const PLANNED: [&str; 2] = ["interleaved", "rows"];

impl FromStr for CpuOrder {
    type Err = String;

    /// Parses `sequential`. `interleaved:K` and `rows:W` are recognised and refused as not
    /// implemented yet; anything else is an unknown order. Every error is one line.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s == "sequential" {
            return Ok(CpuOrder::Sequential);
        }
        let family = s.split(':').next().unwrap_or(s);
        if PLANNED.contains(&family) {
            Err(format!(
                "CPU order `{s}` is not implemented yet (implemented: sequential)"
            ))
        } else {
            Err(format!(
                "unknown CPU order `{s}` (known: sequential; planned: interleaved:K, rows:W)"
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_sequential_and_round_trips() {
        let order: CpuOrder = "sequential".parse().unwrap();
        assert_eq!(order, CpuOrder::Sequential);
        assert_eq!(order.to_string().parse::<CpuOrder>(), Ok(order));
    }

    #[test]
    fn planned_and_unknown_orders_are_refused_with_distinct_reasons() {
        for s in ["interleaved:4", "rows:1920", "interleaved"] {
            let e = s.parse::<CpuOrder>().unwrap_err();
            assert!(e.contains("not implemented yet"), "{s}: {e}");
        }
        for s in ["", "reverse", "Sequential", "tree:8"] {
            let e = s.parse::<CpuOrder>().unwrap_err();
            assert!(e.starts_with("unknown CPU order"), "{s}: {e}");
            assert!(!e.contains('\n'), "{s}: {e}");
        }
    }
}
