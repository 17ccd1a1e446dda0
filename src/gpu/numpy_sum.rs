//! `np.sum`'s bits on the device: numpy's pairwise order (`--order numpy`, stated in
//! [`crate::order`]) over a contiguous f64 or f32 array, every add of its tree done once, in
//! the terms' type, as numpy does it (`kernels/numpy_pairwise.cu` has the argument).
//!
//! The order is itself parallel: its tree of adds is fixed by the length alone, so the device
//! needs no plan and no walk, only the tree. Level 1 forms tiles of at most
//! [`TILE_LOG2`]-power terms from numpy's leaves (eight threads a leaf, one accumulator each);
//! each further level combines up to `2^(FAN_LOG2 + 1)` tiles of the level below in one block;
//! the last level is the root. The terms are read once.
//!
//! Guarantee: [`GpuNumpySum::sum_device`] returns the bits of
//! [`crate::order::loop_sum_in`]`(terms, CpuOrder::Numpy)` (numpy's own `np.sum` on the
//! host, as `tests/orders.rs` checks against numpy) for every input, NaN as a NaN (the
//! device's NaN, not the input's payload). A build with a [`NumpyMutant`] is a check of the
//! check: each gives a wrong sum on some input.

use anyhow::{Context as _, Result};
use cudarc::driver::sys::CUfunction_attribute;
use cudarc::driver::{
    CudaFunction, CudaSlice, CudaView, DevicePtr, DeviceRepr, LaunchConfig, PushKernelArg,
    ValidAsZeroBits,
};

use super::Gpu;
use crate::order::{NUMPY_BLOCK, NUMPY_LANES};

/// The kernels' source.
pub const SOURCE: &str = include_str!("../../kernels/numpy_pairwise.cu");

/// Level 1's tile bound is `2^TILE_LOG2` terms (a tile is at least half that long unless it
/// is the whole array), formed by one block.
pub const TILE_LOG2: u32 = 12;
/// The most a launch's fan may be ([`GpuNumpySum::with_fan`]): its tiles then hold up to
/// [`MAX_SLOTS`] values.
pub const MAX_FAN_LOG2: u32 = 11;
/// Each level above the first multiplies the tile bound by `2^FAN_LOG2` by default: a block combines at
/// most `2^(FAN_LOG2 + 1)` values of the level below ([`MAX_SLOTS`]).
pub const FAN_LOG2: u32 = 10;
/// The most values a block holds in shared memory (`BINADE_NP_MAX_SLOTS`): a level's tile
/// holds at most `2^(FAN_LOG2 + 1)` values of the level below, and level 1's at most
/// `2^(TILE_LOG2 - 6)` leaves (numpy's leaves are at least 64 terms long).
pub const MAX_SLOTS: u64 = 4096;
const _: () = assert!(
    FAN_LOG2 <= MAX_FAN_LOG2
        && 2u64 << MAX_FAN_LOG2 <= MAX_SLOTS
        && 1u64 << (TILE_LOG2 - 6) <= MAX_SLOTS
);

/// Threads of a level-1 block (eight a leaf, four in the paired build).
pub const TILE_THREADS: u32 = 256;
/// How many blocks level 1 launches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TileGrid {
    /// One block per lattice point: about half of them find their point is not a tile's
    /// first and exit at once; the hardware starts the next as each ends.
    PerPoint,
    /// As many blocks as the device holds at once (the occupancy API's count for the
    /// kernel, times the multiprocessors), each looping over lattice points.
    Resident,
}
/// Threads of a block of the higher levels.
pub const LEVEL_THREADS: u32 = 1024;

/// A deliberate defect of the device's tree (`BINADE_NP_MUTANT`), for the kill matrix: each
/// must give a wrong sum on some input.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NumpyMutant {
    /// numpy's order.
    None,
    /// A long run is split at half its length, not rounded down to a multiple of eight.
    SplitUnaligned,
    /// A leaf's eight accumulators are added left to right instead of numpy's tree.
    LanesInOrder,
    /// A leaf's last `n % 8` terms are added into the first accumulator before the tree.
    TailFirst,
    /// The combine rounds run from the root down, so parents add unfinished children.
    RoundsTopDown,
    /// The result is the tree's value, without numpy's `+0 +` (a sum of `-0.0` stays `-0.0`).
    NoPlusZero,
}

impl NumpyMutant {
    /// True when the mutant is a build of `loads`: the split mutant is a build of single
    /// loads only. With paired loads an unaligned split puts leaves at odd term offsets,
    /// where a 16-byte load faults (CUDA_ERROR_MISALIGNED_ADDRESS on the H200 at 1ef01af)
    /// and ends the device context instead of giving a sum; the split is shared code, killed
    /// in the single-load build.
    pub fn builds_with(self, loads: LeafLoads) -> bool {
        !(self == NumpyMutant::SplitUnaligned && loads == LeafLoads::Paired)
    }

    /// Every variant, `None` first; the index is the kernel's code.
    pub const ALL: [NumpyMutant; 6] = [
        NumpyMutant::None,
        NumpyMutant::SplitUnaligned,
        NumpyMutant::LanesInOrder,
        NumpyMutant::TailFirst,
        NumpyMutant::RoundsTopDown,
        NumpyMutant::NoPlusZero,
    ];

    /// The `BINADE_NP_MUTANT` code.
    pub fn code(self) -> u32 {
        Self::ALL.iter().position(|&m| m == self).unwrap_or(0) as u32
    }

    /// A short name for reports.
    pub fn name(self) -> &'static str {
        match self {
            NumpyMutant::None => "none",
            NumpyMutant::SplitUnaligned => "split not rounded to eight",
            NumpyMutant::LanesInOrder => "leaf lanes added in order",
            NumpyMutant::TailFirst => "leaf tail added before the tree",
            NumpyMutant::RoundsTopDown => "combine rounds top down",
            NumpyMutant::NoPlusZero => "no +0 start",
        }
    }
}

/// The leaf loads of the default f64 build: paired, the fastest of the variants
/// `gpu-numpy-order` timed at 85c1b5f on the H200 at every size (3.606 ms at 2^30 uniform
/// terms against 3.956 with single loads; `reports/gpu-numpy-order-history/85c1b5f`).
pub const DEFAULT_F64_LOADS: LeafLoads = LeafLoads::Paired;

/// When a leaf's rows are loaded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RowLoads {
    /// Each row loaded and added in turn.
    InTurn,
    /// Every row loaded before the first add (`BINADE_NP_ALL_FIRST`).
    AllFirst,
}

/// How a leaf's terms are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LeafLoads {
    /// Eight threads a leaf, one term each per row (f64 and f32).
    Single,
    /// Four threads a leaf, two adjacent terms each per row as one 16-byte load (f64 only;
    /// a launch on terms not 16-byte aligned falls back to a [`LeafLoads::Single`] build).
    Paired,
}

/// A term type of the kernels: f64 or f32.
pub trait NumpyTerm: DeviceRepr + ValidAsZeroBits + Copy + Unpin + 'static {
    /// `BINADE_NP_F32`.
    const F32: bool;
}

impl NumpyTerm for f64 {
    const F32: bool = false;
}

impl NumpyTerm for f32 {
    const F32: bool = true;
}

/// The kernels' defines for terms of type `T` and `mutant`. The lanes and the leaf come from
/// [`crate::order`], the one statement of numpy's order.
fn defines<T: NumpyTerm>(
    mutant: NumpyMutant,
    loads: LeafLoads,
    rows: RowLoads,
) -> Vec<(&'static str, String)> {
    vec![
        (
            "BINADE_NP_ALL_FIRST",
            u32::from(rows == RowLoads::AllFirst).to_string(),
        ),
        (
            "BINADE_NP_PAIRED",
            u32::from(loads == LeafLoads::Paired).to_string(),
        ),
        ("BINADE_NP_F32", u32::from(T::F32).to_string()),
        ("BINADE_NP_LANES", NUMPY_LANES.to_string()),
        ("BINADE_NP_LEAF", NUMPY_BLOCK.to_string()),
        ("BINADE_NP_TILE_LOG2", TILE_LOG2.to_string()),
        ("BINADE_NP_MAX_SLOTS", MAX_SLOTS.to_string()),
        ("BINADE_NP_MUTANT", mutant.code().to_string()),
    ]
}

/// Compiles the kernels for `arch` without a device (for the compile checks).
pub fn compile_for<T: NumpyTerm>(
    arch: &str,
    mutant: NumpyMutant,
    loads: LeafLoads,
    rows: RowLoads,
) -> Result<()> {
    super::compile(
        "numpy_pairwise",
        &[SOURCE],
        &defines::<T>(mutant, loads, rows),
        arch,
    )?;
    Ok(())
}

/// The tile bound of level `level` (1-based) under the default fan:
/// `2^(TILE_LOG2 + FAN_LOG2 * (level - 1))`.
pub fn level_bound(level: u32) -> u64 {
    level_bound_with(level, FAN_LOG2)
}

/// The tile bound of level `level` under fan `fan`.
pub fn level_bound_with(level: u32, fan: u32) -> u64 {
    debug_assert!(level >= 1 && fan <= MAX_FAN_LOG2);
    1u64 << (TILE_LOG2 + fan * (level - 1))
}

/// The levels a sum of `n` terms takes under fan `fan`: the first whose bound reaches `n` is
/// the root's.
pub fn levels(n: u64, fan: u32) -> u32 {
    let mut level = 1;
    while level_bound_with(level, fan) < n {
        level += 1;
    }
    level
}

/// The values level `level` writes for `n` terms: one slot per lattice point (spacing half
/// the level's bound).
fn level_slots(n: u64, level: u32, fan: u32) -> u64 {
    n.div_ceil(level_bound_with(level, fan) / 2).max(1)
}

/// The compiled kernels for one term type and one build.
#[derive(Clone, Debug)]
pub struct GpuNumpySum<T: NumpyTerm> {
    gpu: Gpu,
    /// Level 1's kernels: (a block per point, resident blocks).
    k_tiles: (CudaFunction, CudaFunction),
    /// The single-load level 1's kernels, for terms not aligned for the paired ones (`None`
    /// in a single build).
    k_tiles_single: Option<(CudaFunction, CudaFunction)>,
    /// Level-1 blocks the device holds at once.
    resident: u32,
    /// How leaves are read.
    pub loads: LeafLoads,
    /// How many blocks level 1 launches.
    pub grid: TileGrid,
    /// Registers per thread of the level-1 kernel of a block per point, as the driver reports
    /// them.
    pub tile_registers: i32,
    /// When a leaf's rows are loaded.
    pub rows: RowLoads,
    /// Each level above the first multiplies the tile bound by `2^fan_log2`.
    pub fan_log2: u32,
    k_levels: CudaFunction,
    k_finish: CudaFunction,
    /// The build's mutant ([`NumpyMutant::None`]: numpy's order).
    pub mutant: NumpyMutant,
    _terms: std::marker::PhantomData<T>,
}

/// Device memory for sums of up to a given length (made once, reused by every launch).
pub struct NumpyWork<T: NumpyTerm> {
    levels: Vec<CudaSlice<T>>,
    sum: CudaSlice<T>,
    n: u64,
}

impl<T: NumpyTerm> NumpyWork<T> {
    /// The terms it was made for.
    pub fn terms(&self) -> u64 {
        self.n
    }
}

impl<T: NumpyTerm> GpuNumpySum<T> {
    /// Compiles numpy's order for `gpu` with the default build: [`DEFAULT_F64_LOADS`] for f64
    /// terms, single loads for f32.
    pub fn new(gpu: &Gpu) -> Result<GpuNumpySum<T>> {
        let loads = if T::F32 {
            LeafLoads::Single
        } else {
            DEFAULT_F64_LOADS
        };
        Self::with_options(gpu, NumpyMutant::None, loads)
    }

    /// Compiles the build with `mutant` (every mutant but `None` is wrong on purpose).
    pub fn with_mutant(gpu: &Gpu, mutant: NumpyMutant) -> Result<GpuNumpySum<T>> {
        Self::with_options(gpu, mutant, LeafLoads::Single)
    }

    /// Compiles the build with `mutant` and leaves read as `loads` (`Paired` needs f64).
    pub fn with_options(
        gpu: &Gpu,
        mutant: NumpyMutant,
        loads: LeafLoads,
    ) -> Result<GpuNumpySum<T>> {
        Self::with_build(gpu, mutant, loads, RowLoads::InTurn)
    }

    /// Compiles the build with `mutant`, leaves read as `loads` and their rows as `rows`.
    pub fn with_build(
        gpu: &Gpu,
        mutant: NumpyMutant,
        loads: LeafLoads,
        rows: RowLoads,
    ) -> Result<GpuNumpySum<T>> {
        anyhow::ensure!(
            loads == LeafLoads::Single || !T::F32,
            "paired leaf loads are for f64 terms"
        );
        let m = gpu.load(
            "numpy_pairwise",
            &[SOURCE],
            &defines::<T>(mutant, loads, rows),
        )?;
        let pair = |m: &super::Module| -> Result<(CudaFunction, CudaFunction)> {
            Ok((m.function("np_tiles_point")?, m.function("np_tiles")?))
        };
        let k_tiles_single = match loads {
            LeafLoads::Single => None,
            LeafLoads::Paired => Some(pair(&gpu.load(
                "numpy_pairwise",
                &[SOURCE],
                &defines::<T>(mutant, LeafLoads::Single, rows),
            )?)?),
        };
        let multiprocessors = gpu.multiprocessors()?;
        let k_tiles = pair(&m)?;
        let per_sm = k_tiles
            .1
            .occupancy_max_active_blocks_per_multiprocessor(TILE_THREADS, 0, None)
            .context("occupancy of np_tiles")?;
        let tile_registers = k_tiles
            .0
            .get_attribute(CUfunction_attribute::CU_FUNC_ATTRIBUTE_NUM_REGS)
            .context("registers of np_tiles_point")?;
        Ok(GpuNumpySum {
            gpu: gpu.clone(),
            k_tiles,
            k_tiles_single,
            resident: per_sm.max(1) * multiprocessors,
            loads,
            grid: TileGrid::PerPoint,
            tile_registers,
            rows,
            fan_log2: FAN_LOG2,
            k_levels: m.function("np_levels")?,
            k_finish: m.function("np_finish")?,
            mutant,
            _terms: std::marker::PhantomData,
        })
    }

    /// The same build launching level 1 as `grid` says (both give the same bits).
    pub fn with_grid(mut self, grid: TileGrid) -> GpuNumpySum<T> {
        self.grid = grid;
        self
    }

    /// The same build with levels of fan `fan` (at most [`MAX_FAN_LOG2`]; both give the same
    /// bits).
    pub fn with_fan(mut self, fan: u32) -> GpuNumpySum<T> {
        debug_assert!((1..=MAX_FAN_LOG2).contains(&fan));
        self.fan_log2 = fan.clamp(1, MAX_FAN_LOG2);
        self
    }

    /// Level-1 blocks the device holds at once ([`TileGrid::Resident`]'s launch).
    pub fn resident_blocks(&self) -> u32 {
        self.resident
    }

    /// Device memory for a sum of `n` terms.
    pub fn work(&self, n: u64) -> Result<NumpyWork<T>> {
        let s = self.gpu.stream();
        let fan = self.fan_log2;
        let levels = (1..=levels(n, fan))
            .map(|l| s.alloc_zeros::<T>(level_slots(n, l, fan) as usize))
            .collect::<Result<Vec<_>, _>>()
            .context("allocating the levels' values")?;
        Ok(NumpyWork {
            levels,
            sum: s.alloc_zeros::<T>(1)?,
            n,
        })
    }

    /// Launches the sum of `terms` (as long as `work` was made for) into `work`; nothing is
    /// copied to the host. An empty array's sum is `+0`, numpy's identity.
    pub fn launch(&self, terms: &CudaView<'_, T>, work: &mut NumpyWork<T>) -> Result<()> {
        let n = terms.len() as u64;
        anyhow::ensure!(
            n == work.n,
            "a work area for {} terms given {n} terms",
            work.n
        );
        let s = self.gpu.stream();
        if n == 0 {
            s.memset_zeros(&mut work.sum)?;
            return Ok(());
        }
        let fan = self.fan_log2;
        anyhow::ensure!(
            work.levels.len() as u32 == levels(n, fan),
            "a work area made for another fan"
        );
        let blocks = |l: u32| u32::try_from(level_slots(n, l, fan)).context("too many terms");
        // The paired build reads 16-byte pairs from leaf offsets that are multiples of eight
        // terms: the array itself must be 16-byte aligned.
        let aligned = terms.device_ptr(s).0 % 16 == 0;
        let kernels = match &self.k_tiles_single {
            Some(single) if !aligned => single,
            _ => &self.k_tiles,
        };
        let tiles = match self.grid {
            TileGrid::PerPoint => &kernels.0,
            TileGrid::Resident => &kernels.1,
        };
        let mut l = s.launch_builder(tiles);
        l.arg(terms).arg(&n).arg(&mut work.levels[0]);
        let points = level_slots(n, 1, fan);
        let grid = match self.grid {
            TileGrid::PerPoint => points,
            TileGrid::Resident => points.min(u64::from(self.resident)),
        };
        let cfg = LaunchConfig {
            grid_dim: (u32::try_from(grid).context("too many terms")?, 1, 1),
            block_dim: (TILE_THREADS, 1, 1),
            shared_mem_bytes: 0,
        };
        // SAFETY: np_tiles reads terms[0..n) and writes its level's slots, sized by
        // level_slots (its blocks loop over them).
        unsafe { l.launch(cfg) }.context("launching np_tiles")?;
        let levels = work.levels.len() as u32;
        for level in 2..=levels {
            let (below, above) = work.levels.split_at_mut(level as usize - 1);
            let (bound, inner) = (
                level_bound_with(level, fan),
                level_bound_with(level - 1, fan),
            );
            let mut l = s.launch_builder(&self.k_levels);
            l.arg(&below[level as usize - 2])
                .arg(&n)
                .arg(&bound)
                .arg(&inner)
                .arg(&mut above[0])
                .arg(&mut work.sum);
            let cfg = LaunchConfig {
                grid_dim: (blocks(level)?, 1, 1),
                block_dim: (LEVEL_THREADS, 1, 1),
                shared_mem_bytes: 0,
            };
            // SAFETY: np_levels reads the level below's slots and writes this level's (the
            // sum at the root's level, the last).
            unsafe { l.launch(cfg) }.context("launching np_levels")?;
        }
        if levels == 1 {
            let mut l = s.launch_builder(&self.k_finish);
            l.arg(&work.levels[0]).arg(&mut work.sum);
            // SAFETY: np_finish reads one value and writes one.
            unsafe { l.launch(LaunchConfig::for_num_elems(1)) }.context("launching np_finish")?;
        }
        Ok(())
    }

    /// The sum of device `terms`, copied back.
    pub fn sum_device(&self, terms: &CudaView<'_, T>) -> Result<T> {
        let mut work = self.work(terms.len() as u64)?;
        self.launch(terms, &mut work)?;
        self.result(&work)
    }

    /// The sum a launch left in `work`, copied back.
    pub fn result(&self, work: &NumpyWork<T>) -> Result<T> {
        let v = self.gpu.stream().clone_dtoh(&work.sum)?;
        v.first().copied().context("no sum")
    }

    /// The sum of host `terms` (copied to the device first).
    pub fn sum_of(&self, terms: &[T]) -> Result<T> {
        let s = self.gpu.stream();
        if terms.is_empty() {
            return self.sum_device(&s.alloc_zeros::<T>(1)?.slice(0..0));
        }
        let dev = s.clone_htod(terms)?;
        self.sum_device(&dev.slice(0..terms.len()))
    }

    /// The device this build runs on.
    pub fn gpu(&self) -> &Gpu {
        &self.gpu
    }
}

/// The inputs the kill matrix searches the mutants on (the same in `tests/gpu_numpy_sum.rs`
/// and the `mutations` experiment): kinds and sizes that reach every rule (a leaf's tail, a
/// split whose half is not a multiple of eight, several tiles and levels), and a stream of
/// `-0.0`, each named with its seed.
pub fn kill_cases(seed: u64) -> Vec<(String, Vec<f64>)> {
    use crate::format::F64;
    use crate::verify::inputs::InputKind;
    let mut v = Vec::new();
    for n in [9, 135, 1000, 4099, 100_003] {
        for kind in [
            InputKind::Uniform,
            InputKind::LogUniform,
            InputKind::Negatives,
        ] {
            let s = seed ^ n as u64;
            let case = format!("seed {s:#x} kind {} n {n}", kind.name());
            v.push((case, kind.generate::<F64>(n, s)));
        }
    }
    v.push(("-0.0 x 1000".to_string(), vec![-0.0; 1000]));
    // A leaf's tail in the wrong place: numpy adds 2^-53 to 1 after the lanes' tree (a tie,
    // kept at 1); added into the first lane first, it makes 2^-52, which 1 keeps.
    let h = f64::EPSILON / 2.0;
    let mut tail = vec![h, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, h];
    v.push(("[2^-53, 1, 0 x 6, 2^-53]".to_string(), tail.clone()));
    // The same leaf at the end of a long array, where the tiles above it carry the difference.
    tail.splice(0..0, std::iter::repeat_n(0.0, 4096 * 3));
    v.push(("0 x 12288, then [2^-53, 1, 0 x 6, 2^-53]".to_string(), tail));
    v
}

/// The first of `cases` whose device sum under `build` differs in bits (NaN as NaN) from the
/// numpy order's loop, described with both bits; and how many sums were compared.
pub fn first_wrong(
    build: &GpuNumpySum<f64>,
    cases: &[(String, Vec<f64>)],
) -> Result<(u64, Option<String>)> {
    use crate::format::{same_result, F64};
    use crate::order::{loop_sum_in, CpuOrder};
    let mut count = 0;
    for (case, terms) in cases {
        let got = build.sum_of(terms)?;
        let want = loop_sum_in::<F64>(terms, CpuOrder::Numpy);
        count += 1;
        if !same_result::<F64>(got.to_bits(), want.to_bits()) {
            return Ok((
                count,
                Some(format!(
                    "{case}: device {:#x}, numpy's order {:#x}",
                    got.to_bits(),
                    want.to_bits()
                )),
            ));
        }
    }
    Ok((count, None))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_cover_every_length() {
        for fan in [10, 11] {
            assert_eq!(levels(0, fan), 1);
            assert_eq!(levels(4096, fan), 1);
            assert_eq!(levels(4097, fan), 2);
            assert_eq!(levels(1 << (12 + fan), fan), 2);
            assert_eq!(levels((1 << (12 + fan)) + 1, fan), 3);
            assert_eq!(levels(1 << (12 + 2 * fan), fan), 3);
        }
        assert_eq!(levels(8_294_400, 10), 3);
        assert_eq!(levels(8_294_400, 11), 2);
    }
}
