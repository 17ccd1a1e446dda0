//! The front end of SSIMULACRA2, from YUV codes to XYB: which arithmetic each of its six
//! choices takes. [`FrontEnd::LIBVMAF`] is the reference (libvmaf's scalar SSIMULACRA2 at the
//! revision in `docs/ssimulacra2-libvmaf.md`); [`FrontEnd::BEFORE_ISSUE_13`] is the front end
//! this crate had before, kept so the replay experiment can put each of its differences back
//! alone ([`Difference`]).
//!
//! Guarantee: the stages after the front end (blur, downscaling, terms, sums, pooling) are the
//! same for every choice; only the linear RGB planes and the cube root of the XYB conversion
//! depend on a [`FrontEnd`].

use super::cbrt::CubeRoot;
use super::transfer::Transfer;

/// Where zero chroma lies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ChromaCentre {
    /// At half the peak code, `(2^b - 1) / 2` (libvmaf: a normalised sample minus 0.5).
    HalfPeak,
    /// At the code `2^(b-1)` (`128 << (b - 8)`), as the standards quantise it.
    Code,
}

/// How codes become normalised samples.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Normalisation {
    /// libvmaf: the code times `fl(1 / peak)`, then (limited range) minus `fl(16/255)` and times
    /// `fl(255/219)` for luma, minus the centre and times `fl(255/224)` for chroma: the 8-bit
    /// limited range's fractions at every bit depth, all in `f32`.
    LibvmafReciprocal,
    /// The code minus its offset, divided by the code range of the bit depth
    /// (`219 << (b - 8)` and `224 << (b - 8)` limited, the peak full), in `f32`.
    ExactDivision,
}

/// Where the green row of the YUV to RGB matrix takes its luma weight from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Green {
    /// A fixed constant per matrix (libvmaf: 0.7152 for BT.709, 0.587 for BT.601).
    Fixed,
    /// `1 - Kr - Kb` evaluated in `f32`.
    Derived,
}

/// The opsin matrix's entry `M21` (green's weight in S).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Opsin {
    /// libvmaf's: `0.20476744424496821f`, which rounds to the `f32` `0.20476745`.
    Libvmaf,
    /// One `f32` ulp lower: `0.20476744`, as this crate wrote it before issue 13.
    M21OneUlpLow,
}

/// The six choices of the front end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FrontEnd {
    /// Chroma centre.
    pub centre: ChromaCentre,
    /// Normalisation of codes.
    pub normalisation: Normalisation,
    /// Green luma weight.
    pub green: Green,
    /// Linearisation.
    pub transfer: Transfer,
    /// Cube root of the XYB conversion.
    pub cube_root: CubeRoot,
    /// The opsin matrix of the XYB conversion.
    pub opsin: Opsin,
}

impl FrontEnd {
    /// libvmaf's scalar front end: the reference.
    pub const LIBVMAF: FrontEnd = FrontEnd {
        centre: ChromaCentre::HalfPeak,
        normalisation: Normalisation::LibvmafReciprocal,
        green: Green::Fixed,
        transfer: Transfer::LibvmafTable,
        cube_root: CubeRoot::Libvmaf,
        opsin: Opsin::Libvmaf,
    };

    /// The front end before issue 13 (every [`Difference`] at once).
    pub const BEFORE_ISSUE_13: FrontEnd = FrontEnd {
        centre: ChromaCentre::Code,
        normalisation: Normalisation::ExactDivision,
        green: Green::Derived,
        transfer: Transfer::F64Rounded,
        cube_root: CubeRoot::F64Rounded,
        opsin: Opsin::M21OneUlpLow,
    };

    /// This front end with one difference of [`FrontEnd::BEFORE_ISSUE_13`] put back.
    pub fn with(self, d: Difference) -> FrontEnd {
        let old = FrontEnd::BEFORE_ISSUE_13;
        let mut f = self;
        match d {
            Difference::ChromaCentre => f.centre = old.centre,
            Difference::Normalisation => f.normalisation = old.normalisation,
            Difference::Green => f.green = old.green,
            Difference::Transfer => f.transfer = old.transfer,
            Difference::CubeRoot => f.cube_root = old.cube_root,
            Difference::OpsinM21 => f.opsin = old.opsin,
        }
        f
    }
}

/// One way the front end before issue 13 differed from libvmaf's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Difference {
    /// Chroma centred at the code `2^(b-1)`, not at half the peak.
    ChromaCentre,
    /// Codes divided by the exact code range, not multiplied by `1 / peak` and rescaled by the
    /// 8-bit fractions.
    Normalisation,
    /// Green weight `1 - Kr - Kb` in `f32`, not the fixed constant.
    Green,
    /// Transfer curve in `f64` rounded once, not the table.
    Transfer,
    /// Cube root in `f64` rounded once, not the Newton root.
    CubeRoot,
    /// The opsin matrix's `M21` one `f32` ulp low.
    OpsinM21,
}

impl Difference {
    /// Every difference, in the replay's order.
    pub const ALL: [Difference; 6] = [
        Difference::ChromaCentre,
        Difference::Normalisation,
        Difference::Green,
        Difference::Transfer,
        Difference::CubeRoot,
        Difference::OpsinM21,
    ];

    /// A short name for tables and CSV columns.
    pub fn name(self) -> &'static str {
        match self {
            Difference::ChromaCentre => "chroma-centre",
            Difference::Normalisation => "normalisation",
            Difference::Green => "green-weight",
            Difference::Transfer => "transfer-f64",
            Difference::CubeRoot => "cbrt-f64",
            Difference::OpsinM21 => "opsin-m21",
        }
    }

    /// What putting it back does, in one phrase.
    pub fn describe(self) -> &'static str {
        match self {
            Difference::ChromaCentre => "chroma centred at code 2^(b-1) instead of half the peak",
            Difference::Normalisation => {
                "codes divided by the exact code range instead of times 1/peak and the 8-bit fractions"
            }
            Difference::Green => "green weight 1 - Kr - Kb in f32 instead of the fixed constant",
            Difference::Transfer => "sRGB curve in f64 rounded once instead of libvmaf's table",
            Difference::CubeRoot => "cube root in f64 rounded once instead of libvmaf's Newton root",
            Difference::OpsinM21 => "opsin M21 written 0.20476744 (one f32 ulp below libvmaf's)",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each difference changes exactly one field, and all five together give the old front end.
    #[test]
    fn differences_are_single_fields_and_compose_to_the_old_front_end() {
        let mut all = FrontEnd::LIBVMAF;
        for d in Difference::ALL {
            let one = FrontEnd::LIBVMAF.with(d);
            assert_ne!(one, FrontEnd::LIBVMAF, "{d:?} changes nothing");
            let fields = [
                one.centre != FrontEnd::LIBVMAF.centre,
                one.normalisation != FrontEnd::LIBVMAF.normalisation,
                one.green != FrontEnd::LIBVMAF.green,
                one.transfer != FrontEnd::LIBVMAF.transfer,
                one.cube_root != FrontEnd::LIBVMAF.cube_root,
                one.opsin != FrontEnd::LIBVMAF.opsin,
            ];
            assert_eq!(fields.iter().filter(|&&c| c).count(), 1, "{d:?}");
            all = all.with(d);
        }
        assert_eq!(all, FrontEnd::BEFORE_ISSUE_13);
    }
}
