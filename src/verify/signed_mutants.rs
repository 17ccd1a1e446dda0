//! The signed units' named faults ([`crate::signed_unit::SignedFault`]), each searched for a
//! wrong result over every triple of e4m3 terms from every start of one binade.

use crate::format::{Format, Layout, E4M3};
use crate::signed_unit::{apply_with, compose_with, term_unit_with, SignedFault, SignedUnit};
use crate::unit::Binade;
use crate::verify::device_header_signed::HeaderSigned;
use crate::verify::oracle::native_add;

/// The binade of the starts searched (e4m3 field 7: `[1, 2)`).
pub const KILL_BINADE: u32 = 7;

/// The first triple (start, three terms) where `fault` gives another result than the loop of
/// the format's own adds, named for replay; `None` where every applied unit was exact. The
/// units are composed right-nested, `x` then (`y` then `z`), so that composition meets a run
/// whose lowest and highest offsets differ (a left fold only ever adds one term).
pub fn first_wrong_triple(fault: SignedFault) -> Option<String> {
    first_wrong_triple_of(
        |b, x| term_unit_with::<E4M3>(b, x, fault),
        |a, c| compose_with(a, c, fault),
        |u, b, s| apply_with::<E4M3>(u, b, s, fault),
    )
}

/// [`first_wrong_triple`] of the header's host build (`kernels/binade.cuh`, the source the
/// device compiles) under `fault`.
pub fn first_wrong_triple_header(fault: SignedFault) -> Option<String> {
    let h = HeaderSigned(fault);
    first_wrong_triple_of(
        |b, x| h.term_unit::<E4M3>(b, x),
        |a, c| h.compose(a, c),
        |u, b, s| h.apply::<E4M3>(u, b, s),
    )
}

/// The search of [`first_wrong_triple`] over an implementation's term units, composition and
/// apply.
fn first_wrong_triple_of(
    term: impl Fn(Binade, u64) -> SignedUnit,
    compose_with: impl Fn(SignedUnit, SignedUnit) -> SignedUnit,
    apply: impl Fn(SignedUnit, Binade, u64) -> Option<u64>,
) -> Option<String> {
    let b = Binade(KILL_BINADE);
    let unit = |x| term(b, x);
    let starts: Vec<u64> = (0..=E4M3::FRAC_MASK)
        .map(|f| ((KILL_BINADE as u64) << E4M3::FRAC_BITS) | f)
        .collect();
    for x in 0..=E4M3::ALL {
        for y in 0..=E4M3::ALL {
            let yz: Vec<_> = (0..=E4M3::ALL)
                .map(|z| compose_with(unit(y), unit(z)))
                .collect();
            for (z, &tail) in yz.iter().enumerate() {
                let u = compose_with(unit(x), tail);
                for &s in &starts {
                    let Some(v) = apply(u, b, s) else {
                        continue;
                    };
                    let want = [x, y, z as u64]
                        .iter()
                        .fold(s, |acc, &t| native_add::<E4M3>(acc, t));
                    if v != want {
                        return Some(format!(
                            "{} start {s:#x}, terms {x:#x} {y:#x} {z:#x}: {v:#x}, the loop {want:#x}",
                            E4M3::NAME
                        ));
                    }
                }
            }
        }
    }
    None
}

/// Every fault's name in the kill matrix.
pub fn name(fault: SignedFault) -> &'static str {
    match fault {
        SignedFault::None => "none (correct)",
        SignedFault::BoundsIgnored => "running offsets' bounds ignored",
        SignedFault::SignFlipped => "a negative term's increment keeps its magnitude's sign",
        SignedFault::MinMaxSwapped => "composition swaps the lowest and highest offsets",
    }
}
