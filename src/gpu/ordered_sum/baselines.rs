//! The baselines a port starts from: the plain tree sum (fast, not the loop's bits) and the
//! one-lane loop (the loop's bits, one lane per sum).

use anyhow::{Context as _, Result};
use cudarc::driver::PushKernelArg;

use super::job::{launch_level, segment_grid, SumJob};
use super::GpuOrderedSum;

impl GpuOrderedSum {
    /// Baseline, launches only: the plain tree sum (chunk tree sums, then the same tree over
    /// the chunk sums until one value per sum is left). What a port does before it is exact.
    pub fn launch_tree(&self, job: &mut SumJob) -> Result<()> {
        launch_level(&self.gpu, &self.k_sums, &job.terms, &mut job.first)?;
        for i in 0..job.tree.len() {
            let (done, rest) = job.tree.split_at_mut(i);
            let input = done.last().map_or(&job.first.out, |l| &l.out);
            launch_level(&self.gpu, &self.k_sums, &input.as_view(), &mut rest[0])?;
        }
        Ok(())
    }

    /// Baseline: the tree sums of every segment (`+0` for an empty one).
    pub fn tree_sums(&self, job: &mut SumJob) -> Result<Vec<f64>> {
        self.launch_tree(job)?;
        let last = job.tree.last().unwrap_or(&job.first);
        let values = self.gpu.stream().clone_dtoh(&last.out)?;
        Ok(last
            .host_base
            .windows(2)
            .map(|w| {
                if w[1] > w[0] {
                    values[w[0] as usize]
                } else {
                    0.0
                }
            })
            .collect())
    }

    /// Baseline, launch only: one GPU lane per sum adds its terms in order.
    pub fn launch_loop(&self, job: &mut SumJob) -> Result<()> {
        let nseg = job.first.nseg();
        if nseg == 0 {
            return Ok(());
        }
        let l = &job.first;
        let mut b = self.gpu.stream().launch_builder(&self.k_loop);
        b.arg(&job.terms)
            .arg(&l.start)
            .arg(&l.len)
            .arg(&nseg)
            .arg(&mut job.totals);
        // SAFETY: argument types match loop_sums; totals holds nseg entries.
        unsafe { b.launch(segment_grid(nseg)) }.context("launching loop_sums")?;
        Ok(())
    }

    /// Baseline: the one-lane loop's sums (equal to the CPU loop's bits).
    pub fn loop_sums(&self, job: &mut SumJob) -> Result<Vec<f64>> {
        self.launch_loop(job)?;
        let totals = self.gpu.stream().clone_dtoh(&job.totals)?;
        Ok(totals[..job.sums()].to_vec())
    }
}
