//! The device header `kernels/float_vif.cuh` compiled for the host (through
//! `kernels/float_vif_host.cpp`), and the GPU pipeline run on the host with it: the kernels'
//! bodies over every index, so tests check the device arithmetic without a GPU.

use super::filter::Image;
use super::options::VifOptions;
use super::reference::{check_sizes, ScaleSums, VifError};
use super::stat::{sum_rows, StatParams};
use super::taps::{all_taps, MAX_TAPS};

/// The header's `struct fvif_taps`: a width and up to [`MAX_TAPS`] taps, passed by value to
/// every filter kernel.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct FvifTaps {
    /// Number of taps.
    pub width: i32,
    /// The taps; entries past `width` are zero.
    pub tap: [f32; MAX_TAPS],
}

impl FvifTaps {
    /// The struct for a tap list of at most [`MAX_TAPS`] taps.
    pub fn new(taps: &[f32]) -> FvifTaps {
        assert!(
            taps.len() <= MAX_TAPS,
            "{} taps exceed {MAX_TAPS}",
            taps.len()
        );
        let mut tap = [0.0; MAX_TAPS];
        tap[..taps.len()].copy_from_slice(taps);
        FvifTaps {
            width: taps.len() as i32,
            tap,
        }
    }
}

mod ffi {
    use super::FvifTaps;
    extern "C" {
        pub fn fvif_host_log2_approx(x: f32) -> f32;
        pub fn fvif_host_log2_batch(n: i64, x: *const f32, out: *mut f32);
        pub fn fvif_host_pixel_terms_batch(
            n: i64,
            m: *const f32,
            gain_limit: f32,
            sigma_max_inv: f32,
            sigma_nsq: f64,
            num: *mut f32,
            den: *mut f32,
        );
        pub fn fvif_host_filter_dec(
            t: *const FvifTaps,
            src: *const f32,
            w: i32,
            h: i32,
            dst: *mut f32,
        );
        #[allow(clippy::too_many_arguments)]
        pub fn fvif_host_compute(
            t: *const FvifTaps,
            gain_limit: f32,
            sigma_max_inv: f32,
            sigma_nsq: f64,
            r: *const f32,
            d: *const f32,
            w: i32,
            h: i32,
            layout: i32,
            num: *mut f32,
            den: *mut f32,
        );
        pub fn fvif_host_row_sums(terms: *const f32, w: i32, h: i32, layout: i32, rows: *mut f32);
        pub fn fvif_host_has_binade() -> i32;
        pub fn fvif_host_row_sums_binade(
            terms: *const f32,
            w: i32,
            h: i32,
            nseg: i32,
            units: i32,
            rows: *mut f32,
        ) -> i64;
    }
}

/// The header's `fvif_log2_approx` on the host.
pub fn log2_approx(x: f32) -> f32 {
    // SAFETY: a pure function of its argument.
    unsafe { ffi::fvif_host_log2_approx(x) }
}

/// The header's `fvif_log2_approx` over a slice.
pub fn log2_approx_batch(x: &[f32]) -> Vec<f32> {
    let mut out = vec![0.0; x.len()];
    // SAFETY: both buffers hold x.len() floats.
    unsafe { ffi::fvif_host_log2_batch(x.len() as i64, x.as_ptr(), out.as_mut_ptr()) };
    out
}

/// The header's `fvif_pixel_terms` over `moments` (five per pixel: mu1, mu2, xx, yy, xy).
pub fn pixel_terms_batch(moments: &[[f32; 5]], p: &StatParams) -> (Vec<f32>, Vec<f32>) {
    let n = moments.len();
    let (mut num, mut den) = (vec![0.0; n], vec![0.0; n]);
    // SAFETY: moments is n * 5 contiguous floats; num and den hold n floats.
    unsafe {
        ffi::fvif_host_pixel_terms_batch(
            n as i64,
            moments.as_ptr().cast(),
            p.gain_limit,
            p.sigma_max_inv,
            p.sigma_nsq,
            num.as_mut_ptr(),
            den.as_mut_ptr(),
        )
    };
    (num, den)
}

/// The filter-and-decimate kernels on the host.
pub fn filter_dec(t: &FvifTaps, src: &Image) -> Image {
    let (ow, oh) = (src.w / 2, src.h / 2);
    let mut data = vec![0.0; ow * oh];
    // SAFETY: src holds w * h floats, data (w/2) * (h/2).
    unsafe {
        ffi::fvif_host_filter_dec(
            t,
            src.data.as_ptr(),
            src.w as i32,
            src.h as i32,
            data.as_mut_ptr(),
        )
    };
    Image { w: ow, h: oh, data }
}

/// Where the compute kernel stores a scale's terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// Column by column (`j * h + i`): one thread per row reads neighbouring addresses.
    Columns = 0,
    /// Row by row (`i * w + j`).
    Rows = 1,
}

/// The vertical-pass and compute kernels on the host: a scale's terms in `layout`.
pub fn compute(
    t: &FvifTaps,
    p: &StatParams,
    r: &Image,
    d: &Image,
    layout: Layout,
) -> (Vec<f32>, Vec<f32>) {
    let n = r.w * r.h;
    let (mut num, mut den) = (vec![0.0; n], vec![0.0; n]);
    // SAFETY: r and d hold w * h floats; num and den as many.
    unsafe {
        ffi::fvif_host_compute(
            t,
            p.gain_limit,
            p.sigma_max_inv,
            p.sigma_nsq,
            r.data.as_ptr(),
            d.data.as_ptr(),
            r.w as i32,
            r.h as i32,
            layout as i32,
            num.as_mut_ptr(),
            den.as_mut_ptr(),
        )
    };
    (num, den)
}

/// The row-sum kernel on the host: one fp32 sum per row, left to right.
pub fn row_sums(terms: &[f32], w: usize, h: usize, layout: Layout) -> Vec<f32> {
    assert_eq!(terms.len(), w * h, "terms of a {w}x{h} scale");
    let mut rows = vec![0.0; h];
    // SAFETY: terms holds w * h floats, rows h.
    unsafe {
        ffi::fvif_host_row_sums(
            terms.as_ptr(),
            w as i32,
            h as i32,
            layout as i32,
            rows.as_mut_ptr(),
        )
    };
    rows
}

/// True when the header was compiled with the binade algebra (`kernels/binade.cuh`).
pub fn has_binade() -> bool {
    // SAFETY: no arguments.
    unsafe { ffi::fvif_host_has_binade() == 1 }
}

/// How the row-parallel sum forms a segment's unit (the header's `fvif_segment_unit` or
/// `fvif_segment_unit_fast_m`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SegmentUnits {
    /// The pair composition, term by term (the kernel before the fast units).
    Pairs,
    /// The fast path where no term is a tie (the engine's).
    Fast,
    /// The fast path with one of its checks broken (the kill matrix).
    FastMutant(FastUnitMutant),
}

/// A deliberate defect of the header's fast segment unit (`FVIF_M_*`): each must give a
/// wrong row sum on some input.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FastUnitMutant {
    /// The tie check removed: a tie takes rint's even choice for both start parities.
    TieIgnored = 1,
    /// The sign check removed: a negative term counts as its magnitude.
    NegativeAccepted = 2,
}

impl FastUnitMutant {
    /// Every mutant.
    pub const ALL: [FastUnitMutant; 2] =
        [FastUnitMutant::TieIgnored, FastUnitMutant::NegativeAccepted];

    /// The name in the kill matrix.
    pub fn name(self) -> &'static str {
        match self {
            FastUnitMutant::TieIgnored => "float VIF fast unit: tie check removed",
            FastUnitMutant::NegativeAccepted => "float VIF fast unit: sign check removed",
        }
    }
}

impl SegmentUnits {
    /// The header's code: -1 the pair composition, 0 the fast path, k the fast path with
    /// mutant k.
    fn code(self) -> i32 {
        match self {
            SegmentUnits::Pairs => -1,
            SegmentUnits::Fast => 0,
            SegmentUnits::FastMutant(m) => m as i32,
        }
    }
}

/// The row-parallel kernel's steps on the host (terms row by row, `nseg` segments per row,
/// the engine's fast units): the row sums and how many segments fell back to term-by-term
/// adds; `None` without the binade algebra.
pub fn row_sums_binade(terms: &[f32], w: usize, h: usize, nseg: usize) -> Option<(Vec<f32>, u64)> {
    row_sums_binade_with(terms, w, h, nseg, SegmentUnits::Fast)
}

/// [`row_sums_binade`] with the segments' units formed by `units`.
pub fn row_sums_binade_with(
    terms: &[f32],
    w: usize,
    h: usize,
    nseg: usize,
    units: SegmentUnits,
) -> Option<(Vec<f32>, u64)> {
    assert_eq!(terms.len(), w * h, "terms of a {w}x{h} scale");
    let mut rows = vec![0.0; h];
    // SAFETY: terms holds w * h floats, rows h.
    let fb = unsafe {
        ffi::fvif_host_row_sums_binade(
            terms.as_ptr(),
            w as i32,
            h as i32,
            nseg as i32,
            units.code(),
            rows.as_mut_ptr(),
        )
    };
    u64::try_from(fb).ok().map(|f| (rows, f))
}

/// How the host emulation adds each row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowSum {
    /// One thread per row, left to right (terms column by column).
    Ordered,
    /// Segments composed with the binade algebra (terms row by row), `nseg` per row, each
    /// segment's unit by the fast path unless it holds a tie (the engine's).
    Binade(usize),
    /// As `Binade`, every segment's unit by the pair composition.
    BinadePairs(usize),
}

/// The whole GPU pipeline run on the host through the header: per-scale fp32 sums, the
/// rows added top to bottom in fp32 as the host routine does after the readback.
pub fn scale_sums(
    r: &Image,
    d: &Image,
    opts: &VifOptions,
    rows: RowSum,
) -> Result<[ScaleSums; 4], VifError> {
    opts.validate()?;
    let taps = all_taps(opts.kernelscale_f32());
    let first = opts.first_scale();
    check_sizes(r.w, r.h, &taps, first)?;
    let p = StatParams::new(opts.enhn_gain_limit, opts.sigma_nsq);
    let mut sums = [ScaleSums::default(); 4];
    let (mut a, mut b) = (r.clone(), d.clone());
    for s in first..4 {
        let t = FvifTaps::new(&taps[s]);
        if s > 0 {
            a = filter_dec(&t, &a);
            b = filter_dec(&t, &b);
        }
        let (w, h) = (a.w, a.h);
        let (num_rows, den_rows) = match rows {
            RowSum::Ordered => {
                let (num, den) = compute(&t, &p, &a, &b, Layout::Columns);
                (
                    row_sums(&num, w, h, Layout::Columns),
                    row_sums(&den, w, h, Layout::Columns),
                )
            }
            RowSum::Binade(nseg) | RowSum::BinadePairs(nseg) => {
                let units = if matches!(rows, RowSum::Binade(_)) {
                    SegmentUnits::Fast
                } else {
                    SegmentUnits::Pairs
                };
                let (num, den) = compute(&t, &p, &a, &b, Layout::Rows);
                let n = row_sums_binade_with(&num, w, h, nseg, units);
                let dd = row_sums_binade_with(&den, w, h, nseg, units);
                match (n, dd) {
                    (Some(n), Some(dd)) => (n.0, dd.0),
                    _ => return Err(VifError::NoBinade),
                }
            }
        };
        sums[s] = ScaleSums {
            num: sum_rows(&num_rows),
            den: sum_rows(&den_rows),
        };
    }
    Ok(sums)
}
