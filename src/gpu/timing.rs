//! Timing on the device with CUDA events: warm-up, then the median of many repetitions.

use anyhow::Result;
use cudarc::driver::sys::CUevent_flags;

use super::Gpu;

/// Milliseconds of each of `reps` runs of `work(rep)` on the stream, after `warmup` untimed
/// runs, measured between two CUDA events recorded around each run.
pub fn event_times(
    gpu: &Gpu,
    warmup: usize,
    reps: usize,
    mut work: impl FnMut(usize) -> Result<()>,
) -> Result<Vec<f64>> {
    for i in 0..warmup {
        work(i)?;
    }
    gpu.stream().synchronize()?;
    let mut out = Vec::with_capacity(reps);
    for i in 0..reps {
        let start = gpu
            .stream()
            .record_event(Some(CUevent_flags::CU_EVENT_DEFAULT))?;
        work(warmup + i)?;
        let end = gpu
            .stream()
            .record_event(Some(CUevent_flags::CU_EVENT_DEFAULT))?;
        out.push(start.elapsed_ms(&end)? as f64);
    }
    Ok(out)
}

/// The median of `xs` (mean of the middle two for an even count; NaN when empty).
pub fn median(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        return f64::NAN;
    }
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

#[cfg(test)]
mod tests {
    use super::median;

    #[test]
    fn median_of_odd_and_even_counts() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), 2.5);
        assert!(median(&[]).is_nan());
    }
}
