//! The sRGB transfer curve removed (IEC 61966-2-1): `v / 12.92` up to `v = 0.04045`, else
//! `((v + 0.055) / 1.055)^2.4`. Two evaluations: libvmaf's table (the reference) and, for the
//! replay of the front end before issue 13, the curve in `f64` rounded once.
//!
//! libvmaf's table (scalar SSIMULACRA2 at the revision in `docs/ssimulacra2-libvmaf.md`) has
//! [`TABLE_SIZE`] = 1024 entries: entry `i` is the curve at `i / 1023`, evaluated in `f64`
//! (the quotient `i / 1023`, the comparison with 0.04045, then either `x / 12.92` or the sum,
//! the quotient by 1.055 and the power 2.4, each rounded to `f64`) and rounded once to `f32`.
//! libvmaf commits those entries as `f32` bit patterns; here they are computed once, the same
//! way, with the platform's `f64` `powf` (glibc's on Linux). `tests/ssimulacra2_libvmaf.rs`
//! checks every entry against the power evaluated by MPFR and correctly rounded, so a libm
//! whose `pow` rounds one of these 1024 inputs differently fails there instead of moving a
//! score. A sample `v` in `[0, 1]` is then read by linear interpolation, in `f32`:
//!
//! 1. `v <= 0` gives `+0`, `v >= 1` gives 1 (both exact, no table read);
//! 2. `p = v * 1023` (rounded), `i = trunc(p)` (so `0 <= i <= 1022`: `p < 1023` because
//!    `v < 1` and rounding cannot reach 1023 from below it), `t = p - i` (exact: Sterbenz);
//! 3. `a + (b - a) * t` with `a = T[i]`, `b = T[i + 1]`: a difference, a product and a sum,
//!    each rounded once, no fused multiply-add.
//!
//! Guarantee: [`srgb_to_linear_table`] is a function of the input bits alone and returns
//! libvmaf's scalar value for every `v` in `[0, 1]` (the only inputs the YUV conversion passes,
//! after its clamp). The table's interpolation error is about 2e-7 against the curve; it
//! moves SSIMULACRA2 scores by up to about 2 points on flat frames, through the variance terms
//! (`reports/ssimulacra2-replay`).

use std::sync::OnceLock;

/// Entries of libvmaf's table.
pub const TABLE_SIZE: usize = 1024;

/// Where the curve's linear segment ends.
pub const LINEAR_END: f64 = 0.04045;

/// The curve at `x` in `f64`, each operation rounded to `f64` in the order written.
pub fn curve_f64(x: f64) -> f64 {
    if x <= LINEAR_END {
        x / 12.92
    } else {
        ((x + 0.055) / 1.055).powf(2.4)
    }
}

/// The table: entry `i` is [`curve_f64`]`(i / 1023)` rounded to `f32`. Guarantee: computed
/// once per process, the same every call.
pub fn table() -> &'static [f32; TABLE_SIZE] {
    static TABLE: OnceLock<[f32; TABLE_SIZE]> = OnceLock::new();
    TABLE.get_or_init(|| {
        std::array::from_fn(|i| curve_f64(i as f64 / (TABLE_SIZE - 1) as f64) as f32)
    })
}

/// libvmaf's linearisation: the table read by linear interpolation (steps in the module
/// documentation). Guarantee: `0` for `v <= 0`, `1` for `v >= 1`, else a value between two
/// neighbouring entries, with libvmaf's rounding.
pub fn srgb_to_linear_table(v: f32) -> f32 {
    if v <= 0.0 {
        return 0.0;
    }
    if v >= 1.0 {
        return 1.0;
    }
    let t = table();
    let p = v * (TABLE_SIZE - 1) as f32;
    let i = p as usize;
    debug_assert!(i + 1 < TABLE_SIZE, "v = {v} read past the table");
    let frac = p - i as f32;
    let (a, b) = (t[i], t[i + 1]);
    a + (b - a) * frac
}

/// The curve in `f64`, rounded once to `f32` (the front end before issue 13).
pub fn srgb_to_linear_f64(v: f32) -> f32 {
    curve_f64(v as f64) as f32
}

/// Which linearisation the YUV conversion takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Transfer {
    /// libvmaf's table, [`srgb_to_linear_table`] (the reference).
    LibvmafTable,
    /// The curve in `f64` rounded once, [`srgb_to_linear_f64`].
    F64Rounded,
}

impl Transfer {
    /// The linear value of `v` (in `[0, 1]`) under this choice.
    pub fn apply(self, v: f32) -> f32 {
        match self {
            Transfer::LibvmafTable => srgb_to_linear_table(v),
            Transfer::F64Rounded => srgb_to_linear_f64(v),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The ends are exact, the table's nodes are the entries, and every sample lies between its
    /// neighbouring entries.
    #[test]
    fn ends_nodes_and_bracketing() {
        assert_eq!(srgb_to_linear_table(0.0).to_bits(), 0);
        assert_eq!(srgb_to_linear_table(1.0), 1.0);
        assert_eq!(table()[0], 0.0);
        assert_eq!(table()[TABLE_SIZE - 1], 1.0);
        for i in 0..TABLE_SIZE - 1 {
            let v = i as f32 / 1023.0;
            let p = v * 1023.0;
            if p == i as f32 {
                assert_eq!(srgb_to_linear_table(v), table()[i], "node {i}");
            }
        }
        for k in 1..20_000u32 {
            let v = k as f32 / 20_000.0;
            let i = (v * 1023.0) as usize;
            let got = srgb_to_linear_table(v);
            assert!(
                table()[i] <= got && got <= table()[i + 1],
                "{v}: {got} outside [{}, {}]",
                table()[i],
                table()[i + 1]
            );
        }
    }

    /// The table and the f64 curve differ somewhere (else the replay's row would be vacuous),
    /// by no more than the interpolation error.
    #[test]
    fn table_is_close_to_the_curve() {
        let mut differ = 0;
        for k in 0..=20_000u32 {
            let v = k as f32 / 20_000.0;
            let (a, b) = (srgb_to_linear_table(v), srgb_to_linear_f64(v));
            differ += (a != b) as u32;
            assert!((a - b).abs() < 1e-6, "{v}: table {a}, curve {b}");
        }
        assert!(differ > 0, "the table equals the curve on every sample");
    }
}
