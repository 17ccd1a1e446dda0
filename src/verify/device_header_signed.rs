//! The signed units of `kernels/binade.cuh` (`binade_signed_*`), compiled as host C++ by
//! `build.rs` once per signed mutant code, behind safe wrappers. The GPU runs the same source
//! through NVRTC, so checking these against [`crate::signed_unit`] checks the device's signed
//! algebra without a GPU.

use crate::format::Format;
use crate::signed_unit::{Reach, SignedFault, SignedUnit};
use crate::unit::Binade;

/// The header's `binade_reach`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
struct CReach {
    inc: i64,
    lo: i64,
    hi: i64,
}

/// The header's `binade_signed` (56 bytes: two reaches and two flags).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
struct CSigned {
    even: CReach,
    odd: CReach,
    nonneg: u32,
    valid: u32,
}

impl From<SignedUnit> for CSigned {
    fn from(u: SignedUnit) -> CSigned {
        let r = |r: Reach| CReach {
            inc: r.inc,
            lo: r.lo,
            hi: r.hi,
        };
        CSigned {
            even: r(u.even),
            odd: r(u.odd),
            nonneg: u.nonneg as u32,
            valid: u.valid as u32,
        }
    }
}

impl From<CSigned> for SignedUnit {
    fn from(u: CSigned) -> SignedUnit {
        let r = |r: CReach| Reach {
            inc: r.inc,
            lo: r.lo,
            hi: r.hi,
        };
        SignedUnit {
            even: r(u.even),
            odd: r(u.odd),
            nonneg: u.nonneg != 0,
            valid: u.valid != 0,
        }
    }
}

/// One signed build's entry points.
struct Build {
    term: unsafe extern "C" fn(u32, u64, u32, u32, *mut CSigned),
    compose: unsafe extern "C" fn(*const CSigned, *const CSigned, *mut CSigned),
    apply: unsafe extern "C" fn(*const CSigned, u32, u64, u32, u32, *mut u64) -> i32,
    apply_planned: unsafe extern "C" fn(*const CSigned, u32, u64, *mut u64) -> i32,
    plan_code: unsafe extern "C" fn(u64) -> u32,
}

macro_rules! builds {
    ($($k:literal => $term:ident, $compose:ident, $apply:ident, $planned:ident, $code:ident;)*) => {
        extern "C" {
            $(
                fn $term(binade: u32, x: u64, frac: u32, exp: u32, out: *mut CSigned);
                fn $compose(a: *const CSigned, b: *const CSigned, out: *mut CSigned);
                fn $apply(u: *const CSigned, binade: u32, s: u64, frac: u32, exp: u32, out: *mut u64) -> i32;
                fn $planned(u: *const CSigned, code: u32, s: u64, out: *mut u64) -> i32;
                fn $code(s: u64) -> u32;
            )*
        }
        /// The build compiled with `BINADE_SIGNED_MUTANT = code` (codes: `SignedFault::ALL`).
        fn build(code: usize) -> Build {
            match code {
                $($k => Build { term: $term, compose: $compose, apply: $apply, apply_planned: $planned, plan_code: $code },)*
                _ => unreachable!("SignedFault::ALL has 4 faults, build.rs compiles 4 codes"),
            }
        }
    };
}

builds! {
    0 => binade_shim_signed_term_s0, binade_shim_signed_compose_s0, binade_shim_signed_apply_s0, binade_shim_signed_apply_planned_f64_s0, binade_shim_plan_code_f64_s0;
    1 => binade_shim_signed_term_s1, binade_shim_signed_compose_s1, binade_shim_signed_apply_s1, binade_shim_signed_apply_planned_f64_s1, binade_shim_plan_code_f64_s1;
    2 => binade_shim_signed_term_s2, binade_shim_signed_compose_s2, binade_shim_signed_apply_s2, binade_shim_signed_apply_planned_f64_s2, binade_shim_plan_code_f64_s2;
    3 => binade_shim_signed_term_s3, binade_shim_signed_compose_s3, binade_shim_signed_apply_s3, binade_shim_signed_apply_planned_f64_s3, binade_shim_plan_code_f64_s3;
}

/// The header's code for `fault` (`BINADE_SIGNED_MUTANT`): its index in `SignedFault::ALL`.
pub fn code(fault: SignedFault) -> u32 {
    SignedFault::ALL
        .iter()
        .position(|f| *f == fault)
        .unwrap_or(0) as u32
}

/// The header's signed algebra (its host build) under a fault.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HeaderSigned(pub SignedFault);

impl HeaderSigned {
    fn build(self) -> Build {
        build(code(self.0) as usize)
    }

    /// `binade_signed_term_fmt` for a term `x` of `F` and sums in `b`.
    pub fn term_unit<F: Format>(self, b: Binade, x: u64) -> SignedUnit {
        let mut out = CSigned::default();
        // SAFETY: `out` is a valid, writable CSigned; the function only writes it.
        unsafe { (self.build().term)(b.0, x, F::FRAC_BITS, F::EXP_BITS, &mut out) };
        out.into()
    }

    /// `binade_signed_compose`: `a` then `c`.
    pub fn compose(self, a: SignedUnit, c: SignedUnit) -> SignedUnit {
        let (a, c, mut out) = (CSigned::from(a), CSigned::from(c), CSigned::default());
        // SAFETY: all three pointers are valid for the call; only `out` is written.
        unsafe { (self.build().compose)(&a, &c, &mut out) };
        out.into()
    }

    /// `binade_signed_apply_fmt`: `Some(bits)` where the unit applies to `s` (bits of `F`).
    pub fn apply<F: Format>(self, u: SignedUnit, b: Binade, s: u64) -> Option<u64> {
        let (u, mut out) = (CSigned::from(u), 0u64);
        // SAFETY: both pointers are valid for the call; only `out` is written.
        let ok = unsafe { (self.build().apply)(&u, b.0, s, F::FRAC_BITS, F::EXP_BITS, &mut out) };
        (ok == 1).then_some(out)
    }

    /// `binade_signed_apply_planned_f64`: the unit of a signed plan `code` applied to `s`.
    pub fn apply_planned_f64(self, u: SignedUnit, code: u32, s: u64) -> Option<u64> {
        let (u, mut out) = (CSigned::from(u), 0u64);
        // SAFETY: both pointers are valid for the call; only `out` is written.
        let ok = unsafe { (self.build().apply_planned)(&u, code, s, &mut out) };
        (ok == 1).then_some(out)
    }

    /// `binade_plan_code_f64`: the signed plan's code for a prefix `s`.
    pub fn plan_code_f64(self, s: u64) -> u32 {
        // SAFETY: a pure function of its argument.
        unsafe { (self.build().plan_code)(s) }
    }
}
