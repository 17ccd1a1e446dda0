//! Reading term streams: `.npy` files (f64 or f32, either byte order, any shape in C order)
//! and raw little-endian files of a given element type.

use std::borrow::Cow;
use std::path::Path;

use npyz::{DType, Endianness, NpyHeader, Order, TypeChar};

use super::Dtype;

/// A term stream read from a file, in memory order.
#[derive(Clone, Debug, PartialEq)]
pub enum Terms {
    /// float64 terms.
    F64(Vec<f64>),
    /// float32 terms.
    F32(Vec<f32>),
}

impl Terms {
    /// The number of terms.
    pub fn len(&self) -> usize {
        match self {
            Terms::F64(v) => v.len(),
            Terms::F32(v) => v.len(),
        }
    }

    /// True when the stream holds no term.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The terms as f64 (f32 terms widen exactly).
    pub fn as_f64(&self) -> Cow<'_, [f64]> {
        match self {
            Terms::F64(v) => Cow::Borrowed(v),
            Terms::F32(v) => Cow::Owned(v.iter().map(|&x| x as f64).collect()),
        }
    }

    /// The terms as f32 (f64 terms rounded to nearest); used only to reuse another
    /// stream's plan, which never changes the bits of a sum.
    pub fn as_f32(&self) -> Cow<'_, [f32]> {
        match self {
            Terms::F64(v) => Cow::Owned(v.iter().map(|&x| x as f32).collect()),
            Terms::F32(v) => Cow::Borrowed(v),
        }
    }
}

/// Reads the terms of `path`: a `.npy` file (by its extension) is decoded as its header says;
/// any other file is raw little-endian `raw_dtype`. Errors are one-line reasons (without the
/// file name); an empty stream is an error.
pub fn read_terms(path: &Path, raw_dtype: Option<Dtype>) -> Result<Terms, String> {
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    let terms = if is_npy(path) {
        read_npy(&bytes)?
    } else {
        let dtype = raw_dtype.ok_or("not a .npy file, so --dtype f64 or --dtype f32 is needed")?;
        read_raw(&bytes, dtype)?
    };
    if terms.is_empty() {
        return Err("empty stream (no terms)".into());
    }
    Ok(terms)
}

fn is_npy(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("npy"))
}

/// Decodes raw little-endian terms; the length must be a multiple of the term size.
pub fn read_raw(bytes: &[u8], dtype: Dtype) -> Result<Terms, String> {
    if !bytes.len().is_multiple_of(dtype.size()) {
        return Err(format!(
            "{} bytes is not a multiple of {} (the size of one {} term)",
            bytes.len(),
            dtype.size(),
            dtype.name()
        ));
    }
    Ok(decode(bytes, dtype, false))
}

/// Decodes a `.npy` file: float64 or float32, either byte order, C order, any shape
/// (flattened in memory order). The data must be exactly as long as the header says.
pub fn read_npy(bytes: &[u8]) -> Result<Terms, String> {
    if !bytes.starts_with(b"\x93NUMPY") {
        return Err("not a .npy file (the \\x93NUMPY magic is missing)".into());
    }
    let mut data = bytes;
    let header = NpyHeader::from_reader(&mut data).map_err(|e| match e.kind() {
        std::io::ErrorKind::UnexpectedEof => "truncated .npy header".to_string(),
        _ => format!("malformed .npy header: {}", one_line(&e.to_string())),
    })?;
    let (dtype, big_endian) = float_dtype(&header.dtype())?;
    if header.order() == Order::Fortran {
        return Err("Fortran-order arrays are not supported (save a C-order array, e.g. np.ascontiguousarray)".into());
    }
    let n = header
        .shape()
        .iter()
        .try_fold(1u64, |acc, &d| acc.checked_mul(d))
        .ok_or("the shape's element count overflows")?;
    let want = n
        .checked_mul(dtype.size() as u64)
        .ok_or("the shape's byte count overflows")?;
    let have = data.len() as u64;
    if have < want {
        return Err(format!(
            "truncated data: the header announces {n} terms ({want} bytes), {have} bytes follow it"
        ));
    }
    if have > want {
        return Err(format!(
            "{} stray bytes after the {n} terms the header announces",
            have - want
        ));
    }
    Ok(decode(data, dtype, big_endian))
}

/// `text` with every run of whitespace (newlines included) turned into one space.
/// `text` as one line: line breaks become `; `.
pub(crate) fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The float type and byte order (true: big-endian) of a `.npy` dtype, or why it is refused.
fn float_dtype(dtype: &DType) -> Result<(Dtype, bool), String> {
    let DType::Plain(ts) = dtype else {
        return Err(format!(
            "structured dtype {} is not supported (f64 and f32 only)",
            dtype.descr()
        ));
    };
    let kind = match (ts.type_char(), ts.size_field()) {
        (TypeChar::Float, 8) => Dtype::F64,
        (TypeChar::Float, 4) => Dtype::F32,
        (TypeChar::Float, 2) => {
            return Err(format!(
                "dtype {ts} (float16) is not supported (f64 and f32 only)"
            ))
        }
        (TypeChar::Float, _) => {
            return Err(format!(
                "dtype {ts} (extended float) is not supported (f64 and f32 only)"
            ))
        }
        (TypeChar::Int | TypeChar::Uint | TypeChar::Bool, _) => {
            return Err(format!(
                "dtype {ts} (integer) is not supported (f64 and f32 only)"
            ))
        }
        (TypeChar::Complex, _) => {
            return Err(format!(
                "dtype {ts} (complex) is not supported (f64 and f32 only)"
            ))
        }
        _ => return Err(format!("dtype {ts} is not a float type (f64 and f32 only)")),
    };
    match ts.endianness() {
        Endianness::Little => Ok((kind, false)),
        Endianness::Big => Ok((kind, true)),
        Endianness::Irrelevant => Err(format!("dtype {ts} has no byte order")),
    }
}

/// Decodes whole terms of `dtype` from `bytes` (a multiple of the term size), in order.
fn decode(bytes: &[u8], dtype: Dtype, big_endian: bool) -> Terms {
    match dtype {
        Dtype::F64 => Terms::F64(
            words::<8>(bytes, big_endian)
                .map(f64::from_le_bytes)
                .collect(),
        ),
        Dtype::F32 => Terms::F32(
            words::<4>(bytes, big_endian)
                .map(f32::from_le_bytes)
                .collect(),
        ),
    }
}

/// The `N`-byte words of `bytes` in little-endian order (reversed from big-endian files).
fn words<const N: usize>(bytes: &[u8], big_endian: bool) -> impl Iterator<Item = [u8; N]> + '_ {
    bytes.chunks_exact(N).map(move |c| {
        let mut a = [0u8; N];
        a.copy_from_slice(c);
        if big_endian {
            a.reverse();
        }
        a
    })
}
