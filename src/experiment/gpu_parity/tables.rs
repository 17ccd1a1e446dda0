//! The tables and the figure of the `gpu-parity` report.

use super::checks::{distance, Baseline, Check, StageCheck};
use super::Settings;
use crate::format::{same_result, F64};
use crate::gpu::WalkKind;
use crate::plot::{Plot, PlotKind};
use crate::report::{thousands, Table};
use crate::walk::chunk_count;

pub(super) fn stage_table(stage_checks: &[StageCheck]) -> Table {
    let mut t = Table::new(
        "stages",
        "The device's stages chunk by chunk against the host's layout (standard sizes, tree-prefix plan): walk::chunk_sums, plan::tree_prefix, walk::chunk_units",
        &["input kind", "chunks", "chunk sums differing", "planned binades differing", "units differing"],
    );
    for c in stage_checks {
        t.row(vec![
            c.kind.name().into(),
            thousands(c.chunks as u64),
            c.sums_differ.to_string(),
            c.plan_differs.to_string(),
            c.units_differ.to_string(),
        ]);
    }
    t
}

pub(super) fn plan_table(checks: &[Check]) -> Table {
    let mut t = Table::new(
        "by_plan",
        "Exact sums by walk and plan kind",
        &[
            "walk",
            "plan",
            "sums",
            "identical",
            "mismatches",
            "chunks applied",
            "chunks term by term",
        ],
    );
    let mut names: Vec<(WalkKind, String)> = Vec::new();
    for c in checks {
        if !names.contains(&(c.walk, c.plan.clone())) {
            names.push((c.walk, c.plan.clone()));
        }
    }
    for (walk, name) in names {
        let of: Vec<&Check> = checks
            .iter()
            .filter(|c| c.plan == name && c.walk == walk)
            .collect();
        let ok = of.iter().filter(|c| c.ok()).count();
        let applied: u64 = of.iter().map(|c| c.got.applied).sum();
        let fallback: u64 = of.iter().map(|c| c.got.fallback).sum();
        t.row(vec![
            walk.name().into(),
            name,
            of.len().to_string(),
            ok.to_string(),
            (of.len() - ok).to_string(),
            thousands(applied),
            thousands(fallback),
        ]);
    }
    t
}

pub(super) fn kind_table(set: &Settings, checks: &[Check], seconds: &[f64]) -> Table {
    debug_assert_eq!(seconds.len(), set.kinds.len());
    let mut t = Table::new(
        "by_kind",
        "Exact sums by input kind, both walks (chunk counts: tree-prefix plan, chunk walk); the wall time of each kind's checks in this run (every engine, size and stream of it, the running sums included)",
        &[
            "input kind",
            "sums",
            "identical",
            "chunks",
            "term by term (tree-prefix)",
            "streams run",
            "seconds",
        ],
    );
    for (&kind, secs) in set.kinds.iter().zip(seconds) {
        let of: Vec<&Check> = checks.iter().filter(|c| c.kind == kind).collect();
        let ok = of.iter().filter(|c| c.ok()).count();
        let tree: Vec<&&Check> = of
            .iter()
            .filter(|c| c.plan == "tree-prefix" && c.walk == WalkKind::Chunks)
            .collect();
        let chunks: usize = tree.iter().map(|c| chunk_count(c.n)).sum();
        let fallback: u64 = tree.iter().map(|c| c.got.fallback).sum();
        t.row(vec![
            kind.name().into(),
            of.len().to_string(),
            ok.to_string(),
            thousands(chunks as u64),
            thousands(fallback),
            set.streams_of(kind)
                .iter()
                .map(|&n| thousands(n as u64))
                .collect::<Vec<_>>()
                .join(" and "),
            format!("{secs:.1}"),
        ]);
    }
    t
}

/// Worst distances from the loop over a set of (got, want) pairs.
pub(super) fn worst(pairs: &[(f64, f64)]) -> (usize, String, String, String) {
    let same = pairs
        .iter()
        .filter(|(g, w)| same_result::<F64>(g.to_bits(), w.to_bits()))
        .count();
    let d: Vec<(f64, f64, u64)> = pairs.iter().filter_map(|&(g, w)| distance(g, w)).collect();
    let abs = d.iter().map(|x| x.0).fold(0.0, f64::max);
    let rel = d.iter().map(|x| x.1).fold(0.0, f64::max);
    let ulps = d.iter().map(|x| x.2).max().unwrap_or(0);
    (
        same,
        format!("{abs:.3e}"),
        format!("{rel:.3e}"),
        thousands(ulps),
    )
}

pub(super) fn before_after_table(
    set: &Settings,
    checks: &[Check],
    baselines: &[Baseline],
) -> Table {
    let mut t = Table::new(
        "before_after",
        "Before (plain tree sum) and after (exact pipeline, tree-prefix plan, both walks): distance from the CPU loop",
        &["input kind", "tree identical", "tree max abs", "tree max rel", "tree max ulps", "exact identical", "exact max abs", "exact max rel", "exact max ulps"],
    );
    for &kind in &set.kinds {
        let tree: Vec<(f64, f64)> = baselines
            .iter()
            .filter(|b| b.kind == kind)
            .map(|b| (b.tree, b.want))
            .collect();
        let exact: Vec<(f64, f64)> = checks
            .iter()
            .filter(|c| c.kind == kind && c.plan == "tree-prefix")
            .map(|c| (c.got.total, c.want))
            .collect();
        let (ts, ta, tr, tu) = worst(&tree);
        let (es, ea, er, eu) = worst(&exact);
        t.row(vec![
            kind.name().into(),
            format!("{ts}/{}", tree.len()),
            ta,
            tr,
            tu,
            format!("{es}/{}", exact.len()),
            ea,
            er,
            eu,
        ]);
    }
    t
}

pub(super) fn identical_plot(set: &Settings, checks: &[Check], baselines: &[Baseline]) -> Plot {
    let share = |pairs: Vec<(f64, f64)>| {
        let same = pairs
            .iter()
            .filter(|(g, w)| same_result::<F64>(g.to_bits(), w.to_bits()))
            .count();
        100.0 * same as f64 / pairs.len().max(1) as f64
    };
    let tree = set
        .kinds
        .iter()
        .map(|&k| {
            share(
                baselines
                    .iter()
                    .filter(|b| b.kind == k)
                    .map(|b| (b.tree, b.want))
                    .collect(),
            )
        })
        .collect();
    let exact = set
        .kinds
        .iter()
        .map(|&k| {
            share(
                checks
                    .iter()
                    .filter(|c| c.kind == k)
                    .map(|c| (c.got.total, c.want))
                    .collect(),
            )
        })
        .collect();
    Plot {
        stem: "identical".into(),
        title: "Sums with the CPU loop's bits, by input kind: plain tree sum vs exact pipeline (all plans)".into(),
        kind: PlotKind::Bars {
            categories: set.kinds.iter().map(|k| k.name().to_string()).collect(),
            series: vec![("plain tree sum".into(), tree), ("exact pipeline".into(), exact)],
            x_label: "input kind".into(),
            y_label: "% of sums identical to the loop".into(),
            log_y: false,
        },
    }
}

pub(super) fn detail_table(baselines: &[Baseline], checks: &[Check]) -> Table {
    let mut t = Table::new(
        "detail",
        "Every sum: the loop, the tree sum's distance, the one-lane GPU loop and the exact sums (all plans)",
        &["input kind", "terms", "loop", "tree sum", "tree abs diff", "tree ulps", "one-lane GPU loop identical", "exact identical (plans)"],
    );
    for b in baselines {
        let d = distance(b.tree, b.want);
        let lane = b.lane_loop.map_or("not run".to_string(), |l| {
            same_result::<F64>(l.to_bits(), b.want.to_bits()).to_string()
        });
        let of: Vec<&Check> = checks
            .iter()
            .filter(|c| c.kind == b.kind && c.n == b.n)
            .collect();
        let ok = of.iter().filter(|c| c.ok()).count();
        t.row(vec![
            b.kind.name().into(),
            thousands(b.n as u64),
            format!("{:e}", b.want),
            format!("{:e}", b.tree),
            d.map_or("n/a".into(), |d| format!("{:.3e}", d.0)),
            d.map_or("n/a".into(), |d| thousands(d.2)),
            lane,
            format!("{ok}/{}", of.len()),
        ]);
    }
    t.show_rows = Some(40);
    t
}

pub(super) fn mismatch_table(seed: u64, checks: &[Check]) -> Table {
    let mut t = Table::new(
        "mismatches",
        &format!("Mismatching exact sums (seed {seed})"),
        &["input kind", "terms", "walk", "plan", "gpu", "loop"],
    );
    for c in checks.iter().filter(|c| !c.ok()) {
        t.row(vec![
            c.kind.name().into(),
            c.n.to_string(),
            c.walk.name().into(),
            c.plan.clone(),
            format!("{:#018x}", c.got.total.to_bits()),
            format!("{:#018x}", c.want.to_bits()),
        ]);
    }
    t.show_rows = Some(40);
    t
}
