//! numpy's own results, `tests/data/numpy_sum.csv` (written by `scripts/numpy-sum-bits.py`
//! with numpy on the host): the streams the script summed, remade here bit for bit from its
//! counter hash, so any engine of the `numpy` order (CPU or GPU) can be checked against
//! `np.sum` itself rather than against this project's own statement of numpy's order.

/// The script's counter hash (the splitmix64 finaliser of `seed + (i + 1) * golden`).
pub fn hash(seed: u64, i: u64) -> u64 {
    let mut z = seed.wrapping_add((i + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The script's float64 stream `kind` of `n` terms, or `None` for a kind it does not write:
/// `uniform` (`[0, 1)` in steps of `2^-53`), `signed` (`(2u - 1) * 2^k`, `k` in
/// `-32..32`), `negzero` (every term `-0.0`). Its float32 streams are these rounded to f32.
pub fn stream(kind: &str, seed: u64, n: usize) -> Option<Vec<f64>> {
    if !matches!(kind, "uniform" | "signed" | "negzero") {
        return None;
    }
    Some(
        (0..n as u64)
            .map(|i| {
                let u = (hash(seed, i) >> 11) as f64 * 2f64.powi(-53);
                match kind {
                    "uniform" => u,
                    "signed" => {
                        let k = (hash(seed ^ 0x5bd1_e995, i) >> 58) as i32 - 32;
                        (2.0 * u - 1.0) * 2f64.powi(k)
                    }
                    _ => -0.0,
                }
            })
            .collect(),
    )
}

/// The file's path, relative to the project root: the working folder, where cargo starts the
/// tests and where the GPU machine's script starts the carried test binaries. A path fixed at
/// compile time would name the build machine's tree, which the GPU machine need not have
/// (binaries staged from a clone in another folder failed there, call B of 2026-12-07-h).
pub const PATH: &str = "tests/data/numpy_sum.csv";

/// The rows the script writes (a truncated file must not pass as a full one).
pub const ROWS: usize = 330;

/// One row of the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NumpyRow {
    /// `f64` or `f32`.
    pub dtype: String,
    /// The stream's kind ([`stream`]).
    pub kind: String,
    /// Its seed.
    pub seed: u64,
    /// Its length.
    pub n: usize,
    /// `np.sum(x)`'s bits.
    pub sum_bits: u64,
    /// `np.cumsum(x)[-1]`'s bits (`None` for an empty stream).
    pub cumsum_last_bits: Option<u64>,
    /// Which numpy on which machine wrote it.
    pub numpy: String,
}

fn bits(cell: &str) -> Result<u64, String> {
    u64::from_str_radix(cell.trim_start_matches("0x"), 16)
        .map_err(|e| format!("{PATH}: bad bits {cell:?}: {e}"))
}

/// Every row of the file, or one line saying what is wrong with it.
pub fn rows() -> Result<Vec<NumpyRow>, String> {
    let mut rd = csv::Reader::from_path(PATH).map_err(|e| format!("{PATH}: {e}"))?;
    let mut out = Vec::new();
    for rec in rd.records() {
        let r = rec.map_err(|e| format!("{PATH}: {e}"))?;
        let cell = |i: usize| r.get(i).ok_or_else(|| format!("{PATH}: a short row"));
        out.push(NumpyRow {
            dtype: cell(0)?.to_string(),
            kind: cell(1)?.to_string(),
            seed: cell(2)?.parse().map_err(|e| format!("{PATH}: seed: {e}"))?,
            n: cell(3)?.parse().map_err(|e| format!("{PATH}: n: {e}"))?,
            sum_bits: bits(cell(4)?)?,
            cumsum_last_bits: match cell(5)? {
                "" => None,
                c => Some(bits(c)?),
            },
            numpy: cell(6)?.to_string(),
        });
    }
    Ok(out)
}
