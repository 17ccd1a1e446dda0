//! Reading term streams: `.npy` files (f64 or f32, either byte order, any shape in C order)
//! and raw little-endian files of a given element type.

use std::borrow::Cow;
use std::path::Path;
use std::sync::Arc;

use memmap2::Mmap;

use npyz::{DType, Endianness, NpyHeader, Order, TypeChar};

use super::Dtype;

/// Terms in memory order: decoded into a vector, or the bytes of a memory-mapped file read in
/// place (little-endian data at an offset aligned to the term size), so a large file costs no
/// heap.
#[derive(Clone)]
pub enum TermVec<T> {
    /// Decoded (or copied) into the heap.
    Owned(Vec<T>),
    /// `len` terms at byte `offset` of a read-only mapping of the file.
    Mapped {
        /// The mapping (shared by clones).
        map: Arc<Mmap>,
        /// Byte offset of the first term (a multiple of the term's size).
        offset: usize,
        /// Number of terms.
        len: usize,
    },
}

impl<T: bytemuck_free::Plain> std::ops::Deref for TermVec<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        match self {
            TermVec::Owned(v) => v,
            TermVec::Mapped { map, offset, len } => {
                let bytes = &map[*offset..*offset + len * std::mem::size_of::<T>()];
                debug_assert!((bytes.as_ptr() as usize).is_multiple_of(std::mem::align_of::<T>()));
                // SAFETY: the bytes lie inside the mapping, which lives as long as `self`; they
                // are aligned for T (checked when the mapping was made: a page-aligned base and
                // an offset that is a multiple of T's size, which is T's alignment); every bit
                // pattern is a valid f64 or f32 (`Plain`).
                unsafe { std::slice::from_raw_parts(bytes.as_ptr().cast::<T>(), *len) }
            }
        }
    }
}

impl<T: bytemuck_free::Plain> From<Vec<T>> for TermVec<T> {
    fn from(v: Vec<T>) -> Self {
        TermVec::Owned(v)
    }
}

impl<T: bytemuck_free::Plain + PartialEq> PartialEq for TermVec<T> {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl<T: bytemuck_free::Plain + std::fmt::Debug> std::fmt::Debug for TermVec<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kind = match self {
            TermVec::Owned(_) => "owned",
            TermVec::Mapped { .. } => "mapped",
        };
        write!(f, "{kind} {:?}", &**self)
    }
}

/// The float types a file may hold, whose every bit pattern is a value.
mod bytemuck_free {
    /// Plain old data: any bit pattern of the type's size is a valid value.
    pub trait Plain: Copy + 'static {}
    impl Plain for f64 {}
    impl Plain for f32 {}
}

/// A term stream read from a file, in memory order.
#[derive(Clone, Debug, PartialEq)]
pub enum Terms {
    /// float64 terms.
    F64(TermVec<f64>),
    /// float32 terms.
    F32(TermVec<f32>),
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

    /// True when the terms are read in place from a memory-mapped file.
    pub fn is_mapped(&self) -> bool {
        matches!(
            self,
            Terms::F64(TermVec::Mapped { .. }) | Terms::F32(TermVec::Mapped { .. })
        )
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
/// any other file is raw little-endian `raw_dtype`. Little-endian data is read in place from a
/// memory mapping of the file; big-endian data is decoded into the heap. Errors are one-line
/// reasons (without the file name); an empty stream is an error.
pub fn read_terms(path: &Path, raw_dtype: Option<Dtype>) -> Result<Terms, String> {
    let terms = read_terms_or_empty(path, raw_dtype)?;
    if terms.is_empty() {
        return Err("empty stream (no terms)".into());
    }
    Ok(terms)
}

/// [`read_terms`], where an empty stream is a stream (of no terms) rather than an error: for
/// `binade cumsum`, whose output for no terms is an empty array, as numpy's.
pub fn read_terms_or_empty(path: &Path, raw_dtype: Option<Dtype>) -> Result<Terms, String> {
    let file = std::fs::File::open(path).map_err(|e| e.to_string())?;
    let size = file.metadata().map_err(|e| e.to_string())?.len();
    let map = if size == 0 {
        None
    } else {
        // SAFETY: the mapping is read-only; a file changed by another process while it is
        // summed gives that process's bytes, as a read would at that moment.
        Some(Arc::new(
            unsafe { Mmap::map(&file) }.map_err(|e| format!("cannot map the file: {e}"))?,
        ))
    };
    let bytes: &[u8] = map.as_deref().map_or(&[], |m| &m[..]);
    let layout = if is_npy(path) {
        npy_layout(bytes)?
    } else {
        let dtype = raw_dtype.ok_or("not a .npy file, so --dtype f64 or --dtype f32 is needed")?;
        raw_layout(bytes, dtype)?
    };
    let in_place = !layout.big_endian && layout.offset.is_multiple_of(layout.dtype.size());
    if !in_place || layout.len == 0 {
        return Ok(decode(
            &bytes[layout.offset..],
            layout.dtype,
            layout.big_endian,
        ));
    }
    match map {
        Some(map) => Ok(layout.mapped(map)),
        None => Ok(decode(&[], layout.dtype, false)),
    }
}

/// Where a file's terms are: type, byte order, byte offset and count.
struct DataLayout {
    dtype: Dtype,
    big_endian: bool,
    offset: usize,
    len: usize,
}

impl DataLayout {
    fn mapped(&self, map: Arc<Mmap>) -> Terms {
        let (offset, len) = (self.offset, self.len);
        match self.dtype {
            Dtype::F64 => Terms::F64(TermVec::Mapped { map, offset, len }),
            Dtype::F32 => Terms::F32(TermVec::Mapped { map, offset, len }),
        }
    }
}

fn is_npy(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("npy"))
}

/// Decodes raw little-endian terms; the length must be a multiple of the term size.
pub fn read_raw(bytes: &[u8], dtype: Dtype) -> Result<Terms, String> {
    let l = raw_layout(bytes, dtype)?;
    Ok(decode(&bytes[l.offset..], l.dtype, l.big_endian))
}

fn raw_layout(bytes: &[u8], dtype: Dtype) -> Result<DataLayout, String> {
    if !bytes.len().is_multiple_of(dtype.size()) {
        return Err(format!(
            "{} bytes is not a multiple of {} (the size of one {} term)",
            bytes.len(),
            dtype.size(),
            dtype.name()
        ));
    }
    Ok(DataLayout {
        dtype,
        big_endian: false,
        offset: 0,
        len: bytes.len() / dtype.size(),
    })
}

/// Decodes a `.npy` file: float64 or float32, either byte order, C order, any shape
/// (flattened in memory order). The data must be exactly as long as the header says.
pub fn read_npy(bytes: &[u8]) -> Result<Terms, String> {
    let l = npy_layout(bytes)?;
    Ok(decode(&bytes[l.offset..], l.dtype, l.big_endian))
}

fn npy_layout(bytes: &[u8]) -> Result<DataLayout, String> {
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
    Ok(DataLayout {
        dtype,
        big_endian,
        offset: bytes.len() - data.len(),
        len: n as usize,
    })
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
                .collect::<Vec<_>>()
                .into(),
        ),
        Dtype::F32 => Terms::F32(
            words::<4>(bytes, big_endian)
                .map(f32::from_le_bytes)
                .collect::<Vec<_>>()
                .into(),
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
