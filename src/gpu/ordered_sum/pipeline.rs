//! The exact pipeline's stages on the device (chunk sums, plan, units, group units, walk)
//! and the calls that run them all.

use std::ops::Range;

use anyhow::{Context as _, Result};
use cudarc::driver::{LaunchConfig, PushKernelArg};

use super::job::{chunk_grid, launch_level, SumJob};
use super::{GpuOrderedSum, GpuSum, Stages, UnitKind, WalkKind, LANES};
use crate::format::F64;
use crate::plan::{self, PlanKind};
use crate::signed_unit::{Reach, SignedUnit};
use crate::unit::Unit;

/// A signed unit from its 7 device words (`signed_units::store` in the kernels).
fn signed_of_words(w: &[u64]) -> SignedUnit {
    let reach = |r: &[u64]| Reach {
        inc: r[0] as i64,
        lo: r[1] as i64,
        hi: r[2] as i64,
    };
    SignedUnit {
        even: reach(&w[0..3]),
        odd: reach(&w[3..6]),
        nonneg: w[6] & 1 != 0,
        valid: w[6] & 2 != 0,
    }
}

impl GpuOrderedSum {
    /// Stage 1: every chunk's tree sum (`walk::chunk_tree_sum` on the device).
    pub fn launch_chunk_sums(&self, job: &mut SumJob) -> Result<()> {
        launch_level(&self.gpu, &self.k_sums, &job.terms, &mut job.first)
    }

    /// Stage 2: the plan. `TreePrefix` is made on the device from the chunk sums; every other
    /// kind is made on the host by `plan::make` from the downloaded chunk sums (per segment,
    /// `stale` shared by all) and uploaded.
    pub fn launch_plan(
        &self,
        job: &mut SumJob,
        kind: &PlanKind,
        stale: Option<&[f64]>,
    ) -> Result<()> {
        let nseg = job.first.nseg();
        if job.chunks() == 0 {
            return Ok(());
        }
        if *kind == PlanKind::TreePrefix {
            let f = match self.units {
                UnitKind::Unsigned => &self.k_plan,
                UnitKind::Signed => &self.k_signed.plan,
            };
            let mut b = self.gpu.stream().launch_builder(f);
            b.arg(&job.first.out)
                .arg(&job.first.base)
                .arg(&nseg)
                .arg(&mut job.binades);
            let cfg = LaunchConfig {
                grid_dim: (nseg, 1, 1),
                block_dim: (LANES, 1, 1),
                shared_mem_bytes: 0,
            };
            // SAFETY: argument types match chunk_plan's signature; buffers hold `chunks` entries.
            unsafe { b.launch(cfg) }.context("launching chunk_plan")?;
            return Ok(());
        }
        let sums = self.gpu.stream().clone_dtoh(&job.first.out)?;
        let mut binades = Vec::with_capacity(sums.len());
        for w in job.first.host_base.windows(2) {
            let p = plan::make::<F64>(kind, &sums[w[0] as usize..w[1] as usize], stale);
            binades.extend(p.binades.iter().map(|b| b.map_or(0, |b| b.0)));
        }
        self.launch_codes(job, &binades)
    }

    /// Stage 2 given by the caller: every chunk's plan code, all segments' chunks in order
    /// (binade fields; for [`UnitKind::Signed`] also [`crate::layout::PLAN_NEGATIVE`]; 0 term
    /// by term). Any codes give the loop's bits: a unit applies only where its checks hold.
    pub fn launch_codes(&self, job: &mut SumJob, codes: &[u32]) -> Result<()> {
        let chunks = job.chunks() as usize;
        if codes.len() != chunks {
            anyhow::bail!("{} plan codes for {chunks} chunks", codes.len());
        }
        if chunks == 0 {
            return Ok(());
        }
        self.gpu.stream().memcpy_htod(codes, &mut job.binades)?;
        Ok(())
    }

    /// The pipeline with the caller's plan codes ([`Self::launch_codes`]) and its results.
    pub fn run_with_codes(&self, job: &mut SumJob, codes: &[u32]) -> Result<Vec<GpuSum>> {
        self.launch_chunk_sums(job)?;
        self.launch_codes(job, codes)?;
        self.launch_after_plan(job)?;
        self.results(job)
    }

    /// A job's unit buffers were sized for this object's [`UnitKind`] (a job made by an
    /// object carrying the other kind is refused, never read past its end).
    fn check_units(&self, job: &SumJob) -> Result<()> {
        if job.unit_words != self.units.words() {
            anyhow::bail!(
                "the job was made for units of {} words, the pipeline carries {} ({})",
                job.unit_words,
                self.units.words(),
                self.units.name()
            );
        }
        Ok(())
    }

    /// Stage 3: every chunk's unit under its planned binade.
    pub fn launch_chunk_units(&self, job: &mut SumJob) -> Result<()> {
        self.check_units(job)?;
        let (nseg, chunks) = (job.first.nseg(), job.chunks());
        if chunks == 0 {
            return Ok(());
        }
        let l = &job.first;
        let f = match self.units {
            UnitKind::Unsigned => &self.k_units,
            UnitKind::Signed => &self.k_signed.units,
        };
        let mut b = self.gpu.stream().launch_builder(f);
        b.arg(&job.terms)
            .arg(&l.start)
            .arg(&l.len)
            .arg(&l.base)
            .arg(&nseg)
            .arg(&job.binades)
            .arg(&mut job.units);
        // SAFETY: argument types match chunk_units; every index stays inside its buffer.
        unsafe { b.launch(chunk_grid(chunks)) }.context("launching chunk_units")?;
        Ok(())
    }

    /// Between stages 3 and 4 of the group walk: each group's composed unit and binade.
    pub fn launch_group_units(&self, job: &mut SumJob) -> Result<()> {
        self.check_units(job)?;
        let (nseg, groups) = (job.first.nseg(), job.first.groups());
        if groups == 0 {
            return Ok(());
        }
        let l = &job.first;
        let f = match self.units {
            UnitKind::Unsigned => &self.k_group,
            UnitKind::Signed => &self.k_signed.group,
        };
        let mut b = self.gpu.stream().launch_builder(f);
        b.arg(&l.base)
            .arg(&l.gbase)
            .arg(&nseg)
            .arg(&job.binades)
            .arg(&job.units);
        b.arg(&mut job.gbinades).arg(&mut job.gunits);
        // SAFETY: argument types match group_units; gbinades and gunits hold `groups` entries.
        unsafe { b.launch(chunk_grid(groups)) }.context("launching group_units")?;
        Ok(())
    }

    /// Stage 4: the walk, one block per sum, of this object's [`WalkKind`] (the group walk
    /// needs [`Self::launch_group_units`] first).
    pub fn launch_totals(&self, job: &mut SumJob) -> Result<()> {
        self.check_units(job)?;
        match self.walk {
            WalkKind::Chunks => self.launch_chunk_walk(job),
            WalkKind::Groups => self.launch_group_walk(job),
        }
    }

    fn launch_group_walk(&self, job: &mut SumJob) -> Result<()> {
        let nseg = job.first.nseg();
        if nseg == 0 {
            return Ok(());
        }
        let l = &job.first;
        let f = match self.units {
            UnitKind::Unsigned => &self.k_totals_grouped,
            UnitKind::Signed => &self.k_signed.totals_grouped,
        };
        let mut b = self.gpu.stream().launch_builder(f);
        b.arg(&job.terms)
            .arg(&l.start)
            .arg(&l.len)
            .arg(&l.base)
            .arg(&l.gbase)
            .arg(&nseg);
        b.arg(&job.binades)
            .arg(&job.units)
            .arg(&job.gbinades)
            .arg(&job.gunits);
        b.arg(&mut job.totals).arg(&mut job.counts);
        let cfg = LaunchConfig {
            grid_dim: (nseg, 1, 1),
            block_dim: (LANES, 1, 1),
            shared_mem_bytes: 0,
        };
        // SAFETY: argument types match ordered_totals_grouped; totals and counts hold nseg entries.
        unsafe { b.launch(cfg) }.context("launching ordered_totals_grouped")?;
        Ok(())
    }

    fn launch_chunk_walk(&self, job: &mut SumJob) -> Result<()> {
        let nseg = job.first.nseg();
        if nseg == 0 {
            return Ok(());
        }
        let l = &job.first;
        let f = match self.units {
            UnitKind::Unsigned => &self.k_totals,
            UnitKind::Signed => &self.k_signed.totals,
        };
        let mut b = self.gpu.stream().launch_builder(f);
        b.arg(&job.terms)
            .arg(&l.start)
            .arg(&l.len)
            .arg(&l.base)
            .arg(&nseg);
        b.arg(&job.binades)
            .arg(&job.units)
            .arg(&mut job.totals)
            .arg(&mut job.counts);
        let cfg = LaunchConfig {
            grid_dim: (nseg, 1, 1),
            block_dim: (LANES, 1, 1),
            shared_mem_bytes: 0,
        };
        // SAFETY: argument types match ordered_totals; totals and counts hold nseg entries.
        unsafe { b.launch(cfg) }.context("launching ordered_totals")?;
        Ok(())
    }

    /// Downloads the chunk sums, plan and chunk units of the last launch sequence.
    pub fn stages(&self, job: &SumJob) -> Result<Stages> {
        self.check_units(job)?;
        let chunks = job.chunks() as usize;
        let s = self.gpu.stream();
        let sums = s.clone_dtoh(&job.first.out)?;
        let binades = s.clone_dtoh(&job.binades)?;
        let words = s.clone_dtoh(&job.units)?;
        let w = self.units.words();
        let mut units = Vec::new();
        let mut signed = Vec::new();
        match self.units {
            UnitKind::Unsigned => units.extend(words.chunks_exact(w).take(chunks).map(|p| Unit {
                even: p[0],
                odd: p[1],
            })),
            UnitKind::Signed => {
                signed.extend(words.chunks_exact(w).take(chunks).map(signed_of_words))
            }
        }
        Ok(Stages {
            sums: sums[..chunks].to_vec(),
            binades: binades[..chunks].to_vec(),
            units,
            signed,
            chunk_base: job.first.host_base.clone(),
        })
    }

    /// Downloads the totals and counts of the last [`Self::launch_totals`].
    pub fn results(&self, job: &SumJob) -> Result<Vec<GpuSum>> {
        let n = job.sums();
        let totals = self.gpu.stream().clone_dtoh(&job.totals)?;
        let counts = self.gpu.stream().clone_dtoh(&job.counts)?;
        Ok((0..n)
            .map(|k| GpuSum {
                total: totals[k],
                applied: counts[2 * k],
                fallback: counts[2 * k + 1],
            })
            .collect())
    }

    /// The whole pipeline and its results: every sum exact, whatever the plan.
    pub fn run(
        &self,
        job: &mut SumJob,
        kind: &PlanKind,
        stale: Option<&[f64]>,
    ) -> Result<Vec<GpuSum>> {
        self.launch(job, kind, stale)?;
        self.results(job)
    }

    /// Launches the whole pipeline (four stages, plus the group units for the group walk).
    pub fn launch(&self, job: &mut SumJob, kind: &PlanKind, stale: Option<&[f64]>) -> Result<()> {
        self.launch_chunk_sums(job)?;
        self.launch_plan(job, kind, stale)?;
        self.launch_after_plan(job)
    }

    /// Stages 3 and 4 (and the group units for the group walk).
    fn launch_after_plan(&self, job: &mut SumJob) -> Result<()> {
        self.launch_chunk_units(job)?;
        if self.walk == WalkKind::Groups {
            self.launch_group_units(job)?;
        }
        self.launch_totals(job)
    }

    /// Convenience: the exact sums of `segments` of host `terms` (copied to the device).
    /// `stale`, for [`PlanKind::Stale`], is the chunk sums of another input, as
    /// `walk::chunk_sums` gives them (the host pipeline takes the same).
    pub fn sums_of(
        &self,
        terms: &[f64],
        segments: &[Range<usize>],
        kind: &PlanKind,
        stale: Option<&[f64]>,
    ) -> Result<Vec<GpuSum>> {
        let dev = self.upload(terms)?;
        let view = dev.slice(0..terms.len());
        let mut job = self.job(view, segments)?;
        self.run(&mut job, kind, stale)
    }
}
