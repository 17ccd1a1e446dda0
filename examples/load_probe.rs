//! Where a GPU test binary's time goes when it loads many distinct builds at once: NVRTC's
//! compile, or the driver's load. `gpu_onepass` ran 481 s on the H200 at 9f1da0e while its 13
//! tests each reported 300 to 476 s (`reports/gpu-tests`), even the one that only compiles
//! (306 s): as if something they share ran one build at a time. A guess to test: the driver
//! assembles each PTX module as it is loaded, one module at a time per process; NVRTC can
//! assemble it instead, in the compiling thread (`ModuleForm::Cubin`).
//!
//!     load_probe [FORM] [COPIES]
//!
//! FORM `ptx` (the default) or `cubin`; COPIES (1 to 15, default 8) distinct one-pass builds
//! (the engine's build with each of the first COPIES mutants, so no two have the same PTX).
//! First one build is compiled and loaded alone; then COPIES threads compile one build each
//! at once, and once all are compiled, load them at once. Prints each thread's seconds and
//! each phase's wall time: if the loads' wall time is near the sum of the loads alone, the
//! loads ran one at a time. The driver caches assembled PTX on disk (keyed by the PTX), so a
//! fair run of `ptx` sets `CUDA_CACHE_DISABLE=1` (printed). Nothing is launched.

use std::time::Instant;

use anyhow::{bail, Context as _, Result};
use binade::gpu::ordered_sum::onepass;
use binade::gpu::{Gpu, ModuleForm, OnePassMutant};

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let form = ModuleForm::parse(args.first().map_or("ptx", String::as_str))?;
    let copies: usize = match args.get(1) {
        Some(a) => a
            .parse()
            .ok()
            .filter(|c| (1..OnePassMutant::ALL.len()).contains(c))
            .with_context(|| {
                format!(
                    "COPIES must be 1 to {}, not {a:?}",
                    OnePassMutant::ALL.len() - 1
                )
            })?,
        None => 8,
    };
    let gpu = Gpu::open().map_err(|e| anyhow::anyhow!("{e}"))?;
    let mutants = &OnePassMutant::ALL[..=copies];
    let (alone, rest) = mutants.split_first().context("no mutant")?;
    println!(
        "{form:?}, {copies} builds at once, on {} ({}); CUDA_CACHE_DISABLE={}; commit {}{}\n",
        gpu.name,
        gpu.arch,
        std::env::var("CUDA_CACHE_DISABLE").unwrap_or_else(|_| "(unset)".into()),
        binade::provenance::commit(),
        if binade::provenance::BUILD_DIRTY {
            " (dirty)"
        } else {
            ""
        }
    );
    let (c, l) = compile_and_load(&gpu, form, *alone)?;
    println!(
        "alone: `{}` compiled in {c:.2} s, loaded in {l:.2} s\n",
        alone.name()
    );
    let arch = gpu.arch.clone();
    let started = Instant::now();
    let built = at_once(rest.to_vec(), |m| {
        let t = Instant::now();
        let image = onepass::compile_form_for(form, &arch, m)?;
        Ok((image, t.elapsed().as_secs_f64()))
    })?;
    let compile_wall = started.elapsed().as_secs_f64();
    let compile_secs: Vec<f64> = built.iter().map(|b| b.1).collect();
    let started = Instant::now();
    let load_secs = at_once(built, |(image, _)| {
        let t = Instant::now();
        gpu.load_image("ordered_sum_onepass", image)?;
        Ok(t.elapsed().as_secs_f64())
    })?;
    let load_wall = started.elapsed().as_secs_f64();
    println!("| mutant | compile s | load s |");
    println!("| --- | --- | --- |");
    for ((m, c), l) in rest.iter().zip(&compile_secs).zip(&load_secs) {
        println!("| `{}` | {c:.2} | {l:.2} |", m.name());
    }
    println!(
        "\n{} builds at once: compiles {compile_wall:.2} s wall (their sum {:.2}), loads {load_wall:.2} s wall (their sum {:.2}; one alone {l:.2})",
        rest.len(),
        compile_secs.iter().sum::<f64>(),
        load_secs.iter().sum::<f64>()
    );
    Ok(())
}

/// One build compiled and loaded in turn: (compile s, load s).
fn compile_and_load(gpu: &Gpu, form: ModuleForm, m: OnePassMutant) -> Result<(f64, f64)> {
    let t = Instant::now();
    let image = onepass::compile_form_for(form, &gpu.arch, m)?;
    let c = t.elapsed().as_secs_f64();
    let t = Instant::now();
    gpu.load_image("ordered_sum_onepass", image)?;
    Ok((c, t.elapsed().as_secs_f64()))
}

/// `f` on every item, each on a thread of its own, all started at once; the results in order.
fn at_once<I: Send, T: Send>(items: Vec<I>, f: impl Fn(I) -> Result<T> + Sync) -> Result<Vec<T>> {
    std::thread::scope(|s| {
        let handles: Vec<_> = items.into_iter().map(|i| s.spawn(|| f(i))).collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|_| bail!("a thread panicked")))
            .collect()
    })
}
