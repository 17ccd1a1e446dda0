//! The frame sets of the float VIF experiments: procedural natural-looking pairs at
//! 576x324 (8, 10, 12 and 16 bits) and 3840x2160, and 1920x1080 checkerboard pairs. Frames
//! are generated on demand from the set's seed and the frame's index.

use anyhow::Result;

use super::frame::Plane;
use super::synth::{checkerboard, natural_pair};

/// How a set's frames are made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Natural-looking pairs, one seed per frame.
    Natural {
        /// Width.
        w: usize,
        /// Height.
        h: usize,
        /// Bit depth.
        bpc: u32,
    },
    /// 1920x1080 8-pixel checkerboard against itself shifted by one pixel (frame k: both
    /// shifted by k more).
    CheckerShift,
    /// 1920x1080 16-pixel checkerboard against a lower-contrast board (frame k: shifted by k).
    CheckerContrast,
}

/// A named set of frames.
#[derive(Clone, Debug)]
pub struct FrameSet {
    /// Name shown in reports.
    pub name: String,
    /// How frames are made.
    pub kind: Kind,
    /// Number of frames.
    pub frames: usize,
    /// Seed of frame 0 (frame k uses seed + k).
    pub seed: u64,
}

impl FrameSet {
    /// Frame `k` of the set.
    pub fn frame(&self, k: usize) -> Result<(Plane, Plane)> {
        let s = self.seed.wrapping_add(k as u64);
        Ok(match self.kind {
            Kind::Natural { w, h, bpc } => natural_pair(w, h, bpc, s)?,
            Kind::CheckerShift => (
                checkerboard(1920, 1080, 8, 16, 235, k)?,
                checkerboard(1920, 1080, 8, 16, 235, k + 1)?,
            ),
            Kind::CheckerContrast => (
                checkerboard(1920, 1080, 16, 16, 235, k)?,
                checkerboard(1920, 1080, 16, 40, 200, k)?,
            ),
        })
    }

    /// Width and height of its frames.
    pub fn size(&self) -> (usize, usize) {
        match self.kind {
            Kind::Natural { w, h, .. } => (w, h),
            Kind::CheckerShift | Kind::CheckerContrast => (1920, 1080),
        }
    }
}

/// Frame counts of the standard sets.
#[derive(Clone, Copy, Debug)]
pub struct Counts {
    /// 576x324 8-bit frames.
    pub sd8: usize,
    /// 576x324 frames at each of 10, 12 and 16 bits.
    pub sd_deep: usize,
    /// Frames of each checkerboard pair.
    pub checker: usize,
    /// 3840x2160 frames.
    pub uhd: usize,
}

/// The standard sets with the given counts (sets with zero frames are left out).
pub fn standard(c: Counts, seed: u64) -> Vec<FrameSet> {
    let n = |name: &str, w, h, bpc, frames, k: u64| FrameSet {
        name: name.into(),
        kind: Kind::Natural { w, h, bpc },
        frames,
        seed: seed.wrapping_add(k * 1000),
    };
    let sets = vec![
        n("576x324 8-bit", 576, 324, 8, c.sd8, 0),
        n("576x324 10-bit", 576, 324, 10, c.sd_deep, 1),
        n("576x324 12-bit", 576, 324, 12, c.sd_deep, 2),
        n("576x324 16-bit", 576, 324, 16, c.sd_deep, 3),
        FrameSet {
            name: "1920x1080 checkerboard, shifted".into(),
            kind: Kind::CheckerShift,
            frames: c.checker,
            seed: 0,
        },
        FrameSet {
            name: "1920x1080 checkerboard, contrast".into(),
            kind: Kind::CheckerContrast,
            frames: c.checker,
            seed: 0,
        },
        n("3840x2160 8-bit", 3840, 2160, 8, c.uhd, 4),
    ];
    sets.into_iter().filter(|s| s.frames > 0).collect()
}

/// The committed fixture pair `NAME_ref.yuv` and `NAME_dis.yuv` in `dir` (the project's
/// `fixtures/vif`: one `w` x `h` luma plane each at `bpc` bits, as `tests/vif_reference.rs`
/// writes them), as filter images; errors name the file.
pub fn committed_pair(
    dir: &std::path::Path,
    name: &str,
    w: usize,
    h: usize,
    bpc: u32,
) -> Result<(super::filter::Image, super::filter::Image)> {
    let read = |which: &str| -> Result<super::filter::Image> {
        let path = dir.join(format!("{name}_{which}.yuv"));
        let bytes = std::fs::read(&path).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
        Ok(Plane::from_bytes(w, h, bpc, &bytes)?.to_image())
    };
    Ok((read("ref")?, read("dis")?))
}
