//! The settings every device timing experiment with a Python peer reads from its file: the
//! sizes, the pool the sizes' windows are drawn from, the CUDA-event warm-up and timed runs,
//! the Python interpreter and the peer script. One reader, so each experiment adds only its
//! own keys.

use std::path::PathBuf;

use anyhow::{bail, Result};

use super::{ConfigError, Context};

/// The keys `sizes` (non-empty, every size positive), `pool_terms`, `warmup`, `reps`
/// (positive) and `python` (`BINADE_PYTHON` in the environment takes its place), and the
/// peer script `experiments/peers/<script>`.
#[derive(Clone, Debug)]
pub struct PeerTiming {
    /// Terms per sum, one row each.
    pub sizes: Vec<usize>,
    /// Terms of the pool each size's windows are drawn from.
    pub pool: usize,
    /// Untimed runs before the CUDA-event timings.
    pub warmup: usize,
    /// CUDA-event timings per median.
    pub reps: usize,
    /// The Python that runs the peer.
    pub python: String,
    /// The peer script.
    pub peer: PathBuf,
}

impl PeerTiming {
    /// Reads the keys of `ctx`'s experiment file; `script` is the peer's file name. A missing
    /// or wrong key is a [`ConfigError`] naming it.
    pub fn read(ctx: &Context, script: &str) -> Result<Self> {
        let reps = ctx.positive("reps")?;
        let sizes: Vec<usize> = ctx.non_empty("sizes", ctx.get("sizes")?)?;
        if sizes.contains(&0) {
            bail!(ConfigError::new(
                &ctx.file,
                "sizes",
                "sizes must be positive"
            ));
        }
        let python = match std::env::var("BINADE_PYTHON") {
            Ok(p) => p,
            Err(_) => ctx.get("python")?,
        };
        Ok(PeerTiming {
            sizes,
            pool: ctx.get("pool_terms")?,
            warmup: ctx.get("warmup")?,
            reps,
            python,
            peer: ctx.peers_dir().join(script),
        })
    }
}
