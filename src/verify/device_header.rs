//! The device header `kernels/binade.cuh`, compiled as host C++ by `build.rs` once per mutant
//! code, behind safe wrappers. The GPU runs the same source through NVRTC, so testing these
//! functions against [`crate::unit`] and MPFR tests the device arithmetic without a GPU.

use crate::algebra::Algebra;
use crate::format::{F32, F64};
use crate::unit::{Binade, Unit};
use crate::verify::mutant::Mutant;

/// The text of `kernels/binade.cuh`, prepended to every kernel source compiled at run time.
pub const HEADER: &str = include_str!("../../kernels/binade.cuh");

/// The header's `binade_unit`: the same layout as [`Unit`] (two `u64`, even then odd).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct CUnit {
    even: u64,
    odd: u64,
}

impl From<Unit> for CUnit {
    fn from(u: Unit) -> CUnit {
        CUnit {
            even: u.even,
            odd: u.odd,
        }
    }
}

impl From<CUnit> for Unit {
    fn from(u: CUnit) -> Unit {
        Unit {
            even: u.even,
            odd: u.odd,
        }
    }
}

extern "C" {
    fn binade_host_mutant_count() -> u32;
    fn binade_host_term_unit_f64(code: u32, binade: u32, x: u64, out: *mut CUnit) -> i32;
    fn binade_host_term_unit_f32(code: u32, binade: u32, x: u32, out: *mut CUnit) -> i32;
    fn binade_host_compose(code: u32, a: CUnit, b: CUnit, out: *mut CUnit) -> i32;
    fn binade_host_apply_f64(
        code: u32,
        u: CUnit,
        binade: u32,
        s: u64,
        applied: *mut i32,
        out: *mut u64,
    ) -> i32;
    fn binade_host_apply_f32(
        code: u32,
        u: CUnit,
        binade: u32,
        s: u32,
        applied: *mut i32,
        out: *mut u32,
    ) -> i32;
}

/// The number of mutant codes the host build holds (equal to `Mutant::ALL.len()`).
pub fn mutant_count() -> u32 {
    // SAFETY: a pure function of no arguments.
    unsafe { binade_host_mutant_count() }
}

/// The host build for `mutant`'s code; every `Mutant` has one (checked by a test), so a
/// missing code is a build defect and panics with the code.
fn checked(done: i32, mutant: Mutant) {
    assert!(
        done == 1,
        "kernels/binade.cuh has no host build for mutant {} (code {})",
        mutant,
        mutant.code()
    );
}

/// `binade_term_unit_f64` of the header built with `BINADE_MUTANT = mutant.code()`.
pub fn term_unit_f64(b: Binade, x: u64, mutant: Mutant) -> Unit {
    let mut out = CUnit::default();
    // SAFETY: `out` is a valid, writable CUnit.
    let done = unsafe { binade_host_term_unit_f64(mutant.code(), b.0, x, &mut out) };
    checked(done, mutant);
    out.into()
}

/// `binade_term_unit_f32` of the header (low 32 bits of `x`) under `mutant`.
pub fn term_unit_f32(b: Binade, x: u32, mutant: Mutant) -> Unit {
    let mut out = CUnit::default();
    // SAFETY: `out` is a valid, writable CUnit.
    let done = unsafe { binade_host_term_unit_f32(mutant.code(), b.0, x, &mut out) };
    checked(done, mutant);
    out.into()
}

/// `binade_compose` of the header under `mutant`.
pub fn compose(a: Unit, b: Unit, mutant: Mutant) -> Unit {
    let mut out = CUnit::default();
    // SAFETY: `out` is a valid, writable CUnit; the units are passed by value.
    let done = unsafe { binade_host_compose(mutant.code(), a.into(), b.into(), &mut out) };
    checked(done, mutant);
    out.into()
}

/// `binade_apply_f64` of the header under `mutant`: `Some(bits)` when the unit applies.
pub fn apply_f64(u: Unit, b: Binade, s: u64, mutant: Mutant) -> Option<u64> {
    let (mut applied, mut out) = (0i32, 0u64);
    // SAFETY: both out-pointers are valid and writable.
    let done =
        unsafe { binade_host_apply_f64(mutant.code(), u.into(), b.0, s, &mut applied, &mut out) };
    checked(done, mutant);
    (applied == 1).then_some(out)
}

/// `binade_apply_f32` of the header under `mutant`: `Some(bits)` when the unit applies.
pub fn apply_f32(u: Unit, b: Binade, s: u32, mutant: Mutant) -> Option<u32> {
    let (mut applied, mut out) = (0i32, 0u32);
    // SAFETY: both out-pointers are valid and writable.
    let done =
        unsafe { binade_host_apply_f32(mutant.code(), u.into(), b.0, s, &mut applied, &mut out) };
    checked(done, mutant);
    (applied == 1).then_some(out)
}

/// The header's algebra (its host build) as an [`Algebra`], for f64 and f32, under a mutant:
/// the same walks and batteries that check the Rust algebra run on the device's source.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HeaderAlgebra(pub Mutant);

impl Algebra<F64> for HeaderAlgebra {
    fn term_unit(&self, b: Binade, x: u64) -> Unit {
        term_unit_f64(b, x, self.0)
    }
    fn compose(&self, a: Unit, b: Unit) -> Unit {
        compose(a, b, self.0)
    }
    fn apply(&self, u: Unit, b: Binade, s: u64) -> Option<u64> {
        apply_f64(u, b, s, self.0)
    }
    fn label(&self) -> String {
        format!("header/{}", self.0.name())
    }
}

impl Algebra<F32> for HeaderAlgebra {
    fn term_unit(&self, b: Binade, x: u64) -> Unit {
        term_unit_f32(b, x as u32, self.0)
    }
    fn compose(&self, a: Unit, b: Unit) -> Unit {
        compose(a, b, self.0)
    }
    fn apply(&self, u: Unit, b: Binade, s: u64) -> Option<u64> {
        apply_f32(u, b, s as u32, self.0).map(u64::from)
    }
    fn label(&self) -> String {
        format!("header/{}", self.0.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_mutant_has_a_host_build() {
        assert_eq!(mutant_count() as usize, Mutant::ALL.len());
    }

    #[test]
    fn header_algebra_walks_like_the_loop() {
        use crate::plan::PlanKind;
        use crate::walk::{loop_sum, pipeline};
        let terms: Vec<f64> = (0..5000u64)
            .map(|i| ((i * 7919) % (1 << 20) + 1) as f64 * 2f64.powi(-53))
            .collect();
        let want = loop_sum::<F64>(&terms).to_bits();
        let got = pipeline::<F64, _>(
            &terms,
            &PlanKind::TreePrefix,
            None,
            &HeaderAlgebra(Mutant::None),
        );
        assert_eq!(got.total.to_bits(), want);
        assert!(got.applied > 0, "the header's units never applied");
    }

    #[test]
    fn tie_unit_from_the_header() {
        // Sum in [1, 2): a term of half an ulp is a tie, rounded to the even result.
        let b = Binade(1023);
        let u = term_unit_f64(b, 2f64.powi(-53).to_bits(), Mutant::None);
        assert_eq!(u, Unit { even: 0, odd: 1 });
        let s = 1.0f64 + 2f64.powi(-52);
        assert_eq!(
            apply_f64(u, b, s.to_bits(), Mutant::None),
            Some((s + 2f64.powi(-53)).to_bits())
        );
    }
}
