//! Input planes (luma, 8 to 16 bits) and their conversion to the fp32 samples VIF filters.

use super::filter::Image;

/// A luma plane of integer samples with its bit depth.
#[derive(Clone, Debug, PartialEq)]
pub struct Plane {
    /// Width in samples.
    pub w: usize,
    /// Height in rows.
    pub h: usize,
    /// Bits per sample: 8, 10, 12 or 16 (the depths libvmaf's `picture_copy` converts).
    pub bpc: u32,
    /// `w * h` samples, row by row, each below `2^bpc`.
    pub samples: Vec<u16>,
}

/// A plane the extractor cannot take.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum PlaneError {
    /// libvmaf converts 8, 10, 12 and 16 bits only; other depths would be read as bytes.
    #[error("bit depth {0} is not one of 8, 10, 12, 16")]
    Depth(u32),
    /// The sample count is not `w * h`.
    #[error("{got} samples for a {w}x{h} plane")]
    Size {
        /// Samples given.
        got: usize,
        /// Width.
        w: usize,
        /// Height.
        h: usize,
    },
    /// A sample does not fit the bit depth.
    #[error("sample {value} at index {index} exceeds {bpc} bits")]
    Range {
        /// The offending sample.
        value: u16,
        /// Its index.
        index: usize,
        /// The depth.
        bpc: u32,
    },
}

impl Plane {
    /// A plane after checking its depth, size and sample range.
    pub fn new(w: usize, h: usize, bpc: u32, samples: Vec<u16>) -> Result<Plane, PlaneError> {
        if !matches!(bpc, 8 | 10 | 12 | 16) {
            return Err(PlaneError::Depth(bpc));
        }
        if samples.len() != w * h {
            return Err(PlaneError::Size {
                got: samples.len(),
                w,
                h,
            });
        }
        let max = if bpc == 16 {
            u16::MAX
        } else {
            (1u16 << bpc) - 1
        };
        if let Some((index, &value)) = samples.iter().enumerate().find(|(_, &v)| v > max) {
            return Err(PlaneError::Range { value, index, bpc });
        }
        Ok(Plane { w, h, bpc, samples })
    }

    /// `picture_copy`: 8 bits as `x + (-128)`, deeper samples as `x / 2^(bpc - 8) + (-128)`,
    /// each an fp32 operation (all exact for these depths).
    pub fn to_image(&self) -> Image {
        let scaler = match self.bpc {
            10 => Some(4.0_f32),
            12 => Some(16.0_f32),
            16 => Some(256.0_f32),
            _ => None,
        };
        let data = self
            .samples
            .iter()
            .map(|&s| match scaler {
                Some(k) => f32::from(s) / k + (-128.0_f32),
                None => f32::from(s) + (-128.0_f32),
            })
            .collect();
        Image {
            w: self.w,
            h: self.h,
            data,
        }
    }

    /// The raw little-endian bytes: one byte per sample at 8 bits, two above.
    pub fn to_bytes(&self) -> Vec<u8> {
        if self.bpc == 8 {
            self.samples.iter().map(|&s| s as u8).collect()
        } else {
            self.samples.iter().flat_map(|s| s.to_le_bytes()).collect()
        }
    }

    /// A plane read from raw little-endian bytes as written by [`Plane::to_bytes`].
    pub fn from_bytes(w: usize, h: usize, bpc: u32, bytes: &[u8]) -> Result<Plane, PlaneError> {
        let per = if bpc == 8 { 1 } else { 2 };
        if bytes.len() != w * h * per {
            return Err(PlaneError::Size {
                got: bytes.len() / per,
                w,
                h,
            });
        }
        let samples: Vec<u16> = if bpc == 8 {
            bytes.iter().map(|&b| u16::from(b)).collect()
        } else {
            bytes
                .chunks_exact(2)
                .map(|c| u16::from_le_bytes([c[0], c[1]]))
                .collect()
        };
        Plane::new(w, h, bpc, samples)
    }
}
