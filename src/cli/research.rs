//! `binade research`: the pages that set Research-1433's and ADR-1412's claims beside the
//! harness's figures (`reports/research-1433`, `reports/adr-1412`), from the data file
//! `research/claims.toml` and the committed reports it cites.
//!
//! Without `--from-reports` it first runs every cited experiment with its committed settings
//! (each writes `reports/NAME`), then reads them. Several cited experiments need a GPU: where
//! none is usable it says so in one line, runs nothing and exits with code 3, so a page never
//! mixes fresh CPU reports with stale GPU ones by accident; `--from-reports` reads the
//! committed reports as they are.
//!
//! Guarantee: each page is written whole or not at all (a temporary folder renamed into
//! place); the command prints every claim whose figure or verdict changed against the
//! `claims.csv` it replaces; it exits 1 when a claim's check or an answer's stated ordering
//! does not hold (the pages are still written, saying so).

use std::collections::BTreeSet;
use std::fs;
use std::path::PathBuf;

use crate::experiment::research::{self, render};
use crate::experiment::{self, Source};
use crate::gpu::Gpu;
use crate::report;

use super::exit::{EXIT_BAD_INPUT, EXIT_FAILED_CHECKS, EXIT_NO_DEVICE, EXIT_OK};
use super::{RunArgs, REPORTS};

/// Arguments of `binade research`.
#[derive(Debug, clap::Args)]
pub struct ResearchArgs {
    /// Read the committed reports as they are instead of running the cited experiments first.
    #[arg(long)]
    pub from_reports: bool,
    /// Write the two report folders into DIR and nowhere else (default: reports/, whose
    /// index is then rewritten).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

/// The experiments whose reports the data file cites, sorted.
pub fn cited_experiments(data: &research::Claims) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for c in &data.claim {
        out.insert(c.ours.experiment.clone());
        for k in &c.checks {
            out.insert(k.cell.experiment.clone());
        }
    }
    for q in &data.question {
        for c in &q.cells {
            out.insert(c.cell.experiment.clone());
        }
    }
    out
}

/// Runs `binade research`; the exit code is one of [`super::exit`]'s.
pub fn run(args: &ResearchArgs) -> i32 {
    let data = match research::load() {
        Ok(d) => d,
        Err(e) => {
            eprintln!("binade: research: {e:#}");
            return EXIT_BAD_INPUT;
        }
    };
    if !args.from_reports {
        let needed = cited_experiments(&data);
        let on_gpu: Vec<&str> = needed
            .iter()
            .filter(|n| {
                experiment::load(&Source::Embedded, n)
                    .map(|(_, f)| f.gpu)
                    .unwrap_or(false)
            })
            .map(String::as_str)
            .collect();
        if !on_gpu.is_empty() {
            if let Err(nd) = Gpu::open() {
                eprintln!(
                    "binade: research: the cited experiments {} need a GPU and none is usable ({nd}); `binade research --from-reports` reads the committed reports instead",
                    on_gpu.join(", ")
                );
                return EXIT_NO_DEVICE;
            }
        }
        for name in &needed {
            let code = super::run(&RunArgs {
                name: name.clone(),
                quick: false,
                seed: None,
                samples: None,
                out: None,
                experiments: None,
            });
            if code != EXIT_OK {
                eprintln!("binade: research: {name} ended with exit code {code}; no page written");
                return code;
            }
        }
    }
    let reports = PathBuf::from(REPORTS);
    let dest = args.out.clone().unwrap_or_else(|| reports.clone());
    let mut changed = Vec::new();
    let mut compared = false;
    let mut failures = 0;
    for key in data.documents.keys() {
        let page = match render::build(&data, key, &reports) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("binade: research: {e:#}");
                return EXIT_BAD_INPUT;
            }
        };
        let previous = fs::read_to_string(dest.join(&page.folder).join(render::CLAIMS_CSV)).ok();
        compared |= previous.is_some();
        changed.extend(render::changes(previous.as_deref(), &page));
        if let Err(e) = render::write(&page, &dest) {
            eprintln!(
                "binade: research: writing {}: {e:#}",
                dest.join(&page.folder).display()
            );
            return EXIT_BAD_INPUT;
        }
        println!("{}: {}", page.folder, page.headline);
        for e in page.claims.iter().filter(|e| !e.failed_checks.is_empty()) {
            eprintln!(
                "binade: research: {} `{}`: {}",
                page.folder,
                e.claim.id,
                e.reason()
            );
            failures += 1;
        }
        for f in page.failed_answers() {
            eprintln!("binade: research: {}: does not hold: {f}", page.folder);
            failures += 1;
        }
        println!(
            "report: {}",
            dest.join(&page.folder).join("README.md").display()
        );
    }
    if args.out.is_none() {
        if let Err(e) = report::write_index(&dest) {
            eprintln!(
                "binade: research: updating the report index in {}: {e:#}",
                dest.display()
            );
        }
    }
    if !compared {
        println!("no earlier version of the pages to compare with");
    } else if changed.is_empty() {
        println!("no headline figure or verdict changed since the version these pages replace");
    } else {
        println!("changed since the version these pages replace:");
        for line in &changed {
            println!("  {line}");
        }
    }
    if failures > 0 {
        eprintln!("binade: research: {failures} check(s) failed; see the pages");
        EXIT_FAILED_CHECKS
    } else {
        EXIT_OK
    }
}
