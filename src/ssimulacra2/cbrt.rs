//! The cube root of the XYB conversion: libvmaf's single-precision Newton cube root (the
//! reference) and, for the replay of the front end before issue 13, the `f64` cube root rounded
//! once.
//!
//! libvmaf's root (scalar SSIMULACRA2 at the revision in `docs/ssimulacra2-libvmaf.md`) starts
//! from an estimate read off the bits and takes two Newton steps, all in `f32`:
//!
//! 1. For `x = 2^E * (1 + f) > 0` the bit pattern, read as an integer, is about
//!    `(E + 127 + f) * 2^23`: a piecewise-linear `log2(x)` shifted by the exponent bias. A third
//!    of it is a third of the logarithm, that is the logarithm of `x^(1/3)`, but with a third of
//!    the bias; adding the integer `0x2a51_37a0` (a little under `2/3 * 127 * 2^23`, which puts
//!    the bias back and centres the error of the linear pieces) gives the bits of an estimate
//!    `y0` within a few percent of `x^(1/3)`. The division is the unsigned integer one
//!    (truncating).
//! 2. Newton's method on `g(y) = y^3 - x`: `y <- y - g(y) / g'(y) = (2y + x / y^2) / 3`. Each
//!    step about squares the relative error, so two steps come within about a dozen `f32` ulp
//!    (the second step's own roundings, not its convergence, set that floor). Written as
//!    libvmaf evaluates it: `(2 * y + x / (y * y)) * t`, `t = fl(1/3)`, every operation rounded to
//!    `f32` to nearest, no fused multiply-add: `2 * y` is exact, `y * y`, the quotient, the sum
//!    and the product by `t` are each rounded once.
//! 3. Zero and every input `x <= 0` give `+0.0` (the XYB code clamps negative mixtures to zero
//!    first, so only zero reaches this branch there).
//!
//! Guarantee: [`cbrt_libvmaf`] returns, for every `f32`, the bits of that evaluation order (it is
//! a function of the input bits alone: integer arithmetic and IEEE `f32` operations, which Rust
//! never contracts into fused multiply-adds). It is not the correctly rounded cube root: it
//! differs from [`cbrt_f64`] in about 80 % of inputs, by up to 12 ulp (measured on 3 million
//! points of `[1e-30, 1]`); `reports/ssimulacra2-replay` has what that does to scores.

/// The integer added to a third of the input's bits to form the first estimate.
pub const ESTIMATE_OFFSET: u32 = 0x2a51_37a0;

/// Newton steps after the estimate.
pub const NEWTON_STEPS: usize = 2;

/// libvmaf's `f32` cube root (see the module documentation for the steps). Guarantee: `+0.0`
/// for `x <= 0`; otherwise the bits of the estimate refined by [`NEWTON_STEPS`] Newton steps,
/// each rounded as libvmaf's scalar C rounds it.
pub fn cbrt_libvmaf(x: f32) -> f32 {
    if x <= 0.0 {
        return 0.0;
    }
    // Step 1: a third of the bits, the bias restored.
    let mut y = f32::from_bits(x.to_bits() / 3 + ESTIMATE_OFFSET);
    // Step 2: Newton on y^3 - x; `1.0 / 3.0` is folded to the nearest f32, as in C.
    const THIRD: f32 = 1.0 / 3.0;
    for _ in 0..NEWTON_STEPS {
        y = (2.0 * y + x / (y * y)) * THIRD;
    }
    y
}

/// The cube root evaluated in `f64` and rounded once to `f32` (the front end before issue 13).
/// Guarantee: within half an `f32` ulp of the true root plus the `f64` root's own error (a
/// fraction of an `f64` ulp), so correctly rounded except within about `2^-29` ulp of a tie.
pub fn cbrt_f64(x: f32) -> f32 {
    (x as f64).cbrt() as f32
}

/// Which cube root the XYB conversion takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CubeRoot {
    /// libvmaf's Newton root, [`cbrt_libvmaf`] (the reference).
    Libvmaf,
    /// The `f64` root rounded once, [`cbrt_f64`].
    F64Rounded,
}

impl CubeRoot {
    /// The root of `x` under this choice.
    pub fn apply(self, x: f32) -> f32 {
        match self {
            CubeRoot::Libvmaf => cbrt_libvmaf(x),
            CubeRoot::F64Rounded => cbrt_f64(x),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Exact cubes come out within 8 ulp, and zero and negatives give +0.
    #[test]
    fn roots_of_cubes_are_close_and_zero_is_zero() {
        for k in 1..=64u32 {
            let r = k as f32 / 16.0;
            let got = cbrt_libvmaf(r * r * r);
            let ulps = (got.to_bits() as i64 - r.to_bits() as i64).abs();
            assert!(ulps <= 8, "cbrt({}^3) = {got}, {ulps} ulp from {r}", r);
        }
        for x in [0.0f32, -0.0, -1.0, f32::NEG_INFINITY] {
            assert_eq!(cbrt_libvmaf(x).to_bits(), 0, "cbrt({x})");
        }
    }

    /// The two roots differ somewhere in [0, 1] (else the replay's row would be vacuous), and
    /// never by more than 12 ulp.
    #[test]
    fn newton_root_is_a_few_ulp_from_the_f64_root() {
        let mut differ = 0;
        let mut worst = 0i64;
        for i in 1..=100_000u32 {
            let x = i as f32 / 100_000.0;
            let d = (cbrt_libvmaf(x).to_bits() as i64 - cbrt_f64(x).to_bits() as i64).abs();
            differ += (d != 0) as u32;
            worst = worst.max(d);
        }
        assert!(
            differ > 0,
            "the Newton root equals the f64 root on every sample"
        );
        assert!(
            worst <= 12,
            "the Newton root is {worst} ulp from the f64 root"
        );
    }
}
