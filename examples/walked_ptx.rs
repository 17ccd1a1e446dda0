//! The walked engine's PTX for the engine's shape, its fast-finish option, its producers-only
//! build and the f32 engine (as it is, without its look-backs' re-read, with the re-read
//! compiled out but its tag kept, and with per-term moves), and (with `PTXAS` naming a ptxas, e.g. from `pip download nvidia-cuda-nvcc`) what
//! `ptxas -arch=sm_90 -v` reports for each: registers, stack frame and spill bytes, per
//! function (the walker, `wk_walk`, is a function of its own). Needs NVRTC, no device. The
//! spill figures in `reports/walked-probe/PREDICTION.md` come from this.
//!
//!     PTXAS=/path/ptxas walked_ptx DIR

use anyhow::{bail, Context as _, Result};
use binade::gpu::ordered_sum::walked::{compile_for, Moves, WalkedMutant, WalkedShape};

fn main() -> Result<()> {
    let Some(dir) = std::env::args().nth(1) else {
        bail!("usage: walked_ptx DIR (the PTX files are written there)");
    };
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {dir}"))?;
    let d = WalkedShape::DEFAULT;
    let shapes = [
        ("engine", d),
        (
            "fast-finish",
            WalkedShape {
                fast_finish: true,
                split: false,
                planned: false,
                seg_step: false,
                fetch_splits: false,
                ..d
            },
        ),
        (
            "producers-only",
            WalkedShape {
                producers_only: true,
                ..d
            },
        ),
        ("f32-engine", WalkedShape::DEFAULT_F32),
        (
            "f32-no-reread",
            WalkedShape {
                moves: Moves::Parity,
                ..WalkedShape::DEFAULT_F32
            },
        ),
        (
            "f32-tag-only",
            WalkedShape {
                moves: Moves::TagOnly,
                ..WalkedShape::DEFAULT_F32
            },
        ),
        (
            "f32-per-term-moves",
            WalkedShape {
                moves: Moves::On,
                ..WalkedShape::DEFAULT_F32
            },
        ),
    ];
    for (name, shape) in shapes {
        let ptx = compile_for("sm_90", shape, WalkedMutant::None)?;
        let path = std::path::Path::new(&dir).join(format!("{name}.ptx"));
        std::fs::write(&path, ptx.to_src())
            .with_context(|| format!("writing {}", path.display()))?;
        println!("{name}: {}", path.display());
        let Ok(ptxas) = std::env::var("PTXAS") else {
            continue;
        };
        let out = std::process::Command::new(&ptxas)
            .args(["-arch=sm_90", "-v", "-o", "/dev/null"])
            .arg(&path)
            .output()
            .with_context(|| format!("running {ptxas}"))?;
        if !out.status.success() {
            bail!(
                "{ptxas} failed on {}: {}",
                path.display(),
                String::from_utf8_lossy(&out.stderr)
            );
        }
        for line in String::from_utf8_lossy(&out.stderr).lines() {
            if line.contains("Function properties")
                || line.contains("spill")
                || line.contains("Used")
            {
                println!("  {}", line.trim());
            }
        }
    }
    Ok(())
}
