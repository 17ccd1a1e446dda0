//! The research documents regenerated from the harness: each quantitative claim of
//! Research-1433 and ADR-1412 beside the cell of a committed report that answers it.
//!
//! The documents' own figures live in one data file, `research/claims.toml` (built into the
//! binary). A claim names the CSV cell of ours ([`cells::Cell`]), and a rule
//! ([`verdict::Rule`]) turns the two figures into a verdict: confirmed, differs (with the
//! reason the data file gives) or goes further. [`render`] writes one report folder per
//! document. Nothing of ours is typed: every harness figure is read from a CSV.
//!
//! Guarantee: [`load`] refuses a data file whose claims cite unknown documents or claims,
//! repeat an id, or lack the figure their rule needs; [`evaluate`] refuses a claim whose cited
//! cell is missing (naming the file, the row selector and the column) and a verdict the data
//! file has no words for (a "differs" without `why`, a "goes further" without `further`).

pub mod cells;
pub mod render;
pub mod verdict;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use anyhow::{bail, Context as _, Result};
use serde::Deserialize;

pub use cells::{Aggregate, Cell, Figure, Reading};
pub use verdict::{Beyond, DocFigure, Rule, Verdict};

/// The data file as built into the binary.
pub const CLAIMS_TOML: &str = include_str!("../../../research/claims.toml");

/// Where the data file lives in the repository (for messages and READMEs).
pub const CLAIMS_PATH: &str = "research/claims.toml";

/// The whole data file: the documents, their claims, the claims no CSV answers, and the
/// open questions.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Claims {
    /// The documents by key (`research-1433`, `adr-1412`).
    pub documents: BTreeMap<String, Document>,
    /// Every quantitative claim, in the order of the documents' tables.
    #[serde(default)]
    pub claim: Vec<Claim>,
    /// Claims of the documents that no committed CSV answers, with the reason.
    #[serde(default)]
    pub unmeasured: Vec<Unmeasured>,
    /// The documents' open questions, each with the cells that answer it.
    #[serde(default)]
    pub question: Vec<Question>,
}

/// One document.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Document {
    /// Its name as it calls itself (`Research-1433`).
    pub name: String,
    /// The report folder written for it (under `reports/`).
    pub folder: String,
    /// The report's title.
    pub title: String,
    /// What the document is about, paraphrased.
    pub subject: String,
    /// The hardware its figures were measured on.
    pub hardware: String,
    /// A figure comparing its figures with ours, if any.
    pub plot: Option<PlotSpec>,
}

/// A bar chart of claims: the document's figure and ours, one group per claim.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlotSpec {
    /// File stem of the PNG.
    pub stem: String,
    /// Caption.
    pub title: String,
    /// Title of the x axis.
    pub x_label: String,
    /// Title of the y axis, with its unit.
    pub y_label: String,
    /// Logarithmic y axis.
    #[serde(default)]
    pub log_y: bool,
    /// The groups, each a claim of the document.
    pub categories: Vec<PlotCategory>,
}

/// One group of a [`PlotSpec`].
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlotCategory {
    /// Label under the group.
    pub label: String,
    /// The claim whose two figures are drawn.
    pub claim: String,
}

/// A quantitative claim of a document and the cell of ours that answers it.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Claim {
    /// The document's key.
    pub document: String,
    /// Unique within the document.
    pub id: String,
    /// The claim, paraphrased.
    pub claim: String,
    /// The document's figure (absent when `ratio_of` derives it).
    pub figure: Option<f64>,
    /// The total the figure is a part of (`8 of 113`).
    pub of: Option<f64>,
    /// The end of a range (`9 to 27`).
    pub upto: Option<f64>,
    /// The figure is claim `[0]`'s figure divided by claim `[1]`'s (same document).
    pub ratio_of: Option<[String; 2]>,
    /// How the document writes the figure, where the number alone would not say it.
    pub text: Option<String>,
    /// The figure's unit.
    #[serde(default)]
    pub unit: String,
    /// Our figure's unit where it is not the document's (`sums` against `frames`).
    pub ours_unit: Option<String>,
    /// Hardware of this figure when not the document's.
    pub hardware: Option<String>,
    /// The cell of ours.
    pub ours: Cell,
    /// How the verdict follows from the two figures.
    pub rule: Rule,
    /// Why ours differs, shown when the rule says so.
    pub why: Option<String>,
    /// How far ours goes beyond the document, shown when the rule says so.
    pub further: Option<String>,
    /// Cells that must hold for the claim to stand at all.
    #[serde(default)]
    pub checks: Vec<Check>,
}

/// A condition on a cell: it equals a value, or is complete (`N of N`).
#[derive(Clone, Debug, Deserialize)]
pub struct Check {
    /// The cell.
    #[serde(flatten)]
    pub cell: Cell,
    /// The value it must equal.
    pub equals: Option<f64>,
    /// It must be complete: its part equals its total.
    #[serde(default)]
    pub all: bool,
}

/// A claim of a document no committed CSV answers.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Unmeasured {
    /// The document's key.
    pub document: String,
    /// The claim, with the document's figure.
    pub claim: String,
    /// Why no CSV answers it.
    pub why: String,
}

/// An open question of a document and the measured cells that answer it.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Question {
    /// The document's key.
    pub document: String,
    /// Unique within the document.
    pub id: String,
    /// A short title.
    pub title: String,
    /// The question, paraphrased.
    pub asks: String,
    /// The answer in words; it names no figure of ours (the cells below give them).
    pub answer: String,
    /// The cells the answer rests on.
    #[serde(default)]
    pub cells: Vec<QuestionCell>,
    /// Orderings between cells the answer states; each is checked.
    #[serde(default)]
    pub holds: Vec<Holds>,
    /// Labels of cells that must be complete (`N of N`).
    #[serde(default)]
    pub complete: Vec<String>,
}

/// A labelled cell of a [`Question`].
#[derive(Clone, Debug, Deserialize)]
pub struct QuestionCell {
    /// What the figure is, with its unit.
    pub label: String,
    /// The cell.
    #[serde(flatten)]
    pub cell: Cell,
}

/// "Cell `a` is less than cell `less_than`", by their labels.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Holds {
    /// The smaller one's label.
    pub a: String,
    /// The larger one's label.
    pub less_than: String,
}

/// Reads and checks the built-in data file.
pub fn load() -> Result<Claims> {
    parse(CLAIMS_TOML, CLAIMS_PATH)
}

/// Parses and checks a data file's text (`name` is used in errors).
pub fn parse(text: &str, name: &str) -> Result<Claims> {
    let claims: Claims = toml::from_str(text).with_context(|| format!("reading {name}"))?;
    claims
        .validate()
        .with_context(|| format!("checking {name}"))?;
    Ok(claims)
}

impl Claims {
    /// The claims of document `doc`, in the file's order.
    pub fn claims_of<'a>(&'a self, doc: &'a str) -> impl Iterator<Item = &'a Claim> + 'a {
        self.claim.iter().filter(move |c| c.document == doc)
    }

    /// The claim `id` of document `doc`.
    pub fn find(&self, doc: &str, id: &str) -> Result<&Claim> {
        self.claim
            .iter()
            .find(|c| c.document == doc && c.id == id)
            .with_context(|| format!("{CLAIMS_PATH}: no claim `{id}` in document `{doc}`"))
    }

    /// The document's figure of a claim, with a ratio derived from the two claims it names.
    pub fn doc_figure(&self, claim: &Claim) -> Result<DocFigure> {
        let value = match (&claim.figure, &claim.ratio_of) {
            (Some(v), None) => *v,
            (None, Some([a, b])) => {
                let fa = self.find(&claim.document, a)?.figure;
                let fb = self.find(&claim.document, b)?.figure;
                match (fa, fb) {
                    (Some(x), Some(y)) if y != 0.0 => x / y,
                    _ => bail!(
                        "claim `{}`: ratio_of needs two claims with non-zero figures",
                        claim.id
                    ),
                }
            }
            _ => bail!(
                "claim `{}`: give exactly one of `figure` and `ratio_of`",
                claim.id
            ),
        };
        Ok(DocFigure {
            value,
            of: claim.of,
            upto: claim.upto,
        })
    }

    /// How the document writes a claim's figure: `text` when given, else the number (with
    /// its range or total); a ratio shows the two figures it comes from.
    pub fn doc_text(&self, claim: &Claim) -> Result<String> {
        if let Some(t) = &claim.text {
            return Ok(t.clone());
        }
        let f = self.doc_figure(claim)?;
        if let Some([a, b]) = &claim.ratio_of {
            let (ca, cb) = (
                self.find(&claim.document, a)?,
                self.find(&claim.document, b)?,
            );
            return Ok(format!(
                "{:.2}x ({} {} / {} {})",
                f.value,
                self.doc_text(ca)?,
                ca.unit,
                self.doc_text(cb)?,
                cb.unit
            ));
        }
        Ok(match (f.of, f.upto) {
            (Some(of), _) => format!("{} of {}", cells::people(f.value, 4), cells::people(of, 4)),
            (_, Some(upto)) => format!(
                "{} to {}",
                cells::people(f.value, 4),
                cells::people(upto, 4)
            ),
            _ => cells::people(f.value, 4),
        })
    }

    fn validate(&self) -> Result<()> {
        let mut ids = BTreeSet::new();
        for c in &self.claim {
            if !self.documents.contains_key(&c.document) {
                bail!("claim `{}`: unknown document `{}`", c.id, c.document);
            }
            if !ids.insert((c.document.clone(), c.id.clone())) {
                bail!("claim `{}` of `{}` appears twice", c.id, c.document);
            }
        }
        for c in &self.claim {
            let f = self.doc_figure(c)?;
            if matches!(c.rule, Rule::InRange) && f.upto.is_none() {
                bail!("claim `{}`: rule in_range needs `upto`", c.id);
            }
            if c.ours.aggregate != Some(Aggregate::Count) && c.ours.column.is_none() {
                bail!(
                    "claim `{}`: `ours` needs a column (only a count needs none)",
                    c.id
                );
            }
        }
        for u in &self.unmeasured {
            if !self.documents.contains_key(&u.document) {
                bail!("unmeasured claim: unknown document `{}`", u.document);
            }
        }
        for q in &self.question {
            if !self.documents.contains_key(&q.document) {
                bail!("question `{}`: unknown document `{}`", q.id, q.document);
            }
            let labels: BTreeSet<&str> = q.cells.iter().map(|c| c.label.as_str()).collect();
            let named = q
                .holds
                .iter()
                .flat_map(|h| [&h.a, &h.less_than])
                .chain(&q.complete);
            for l in named {
                if !labels.contains(l.as_str()) {
                    bail!("question `{}`: no cell labelled `{l}`", q.id);
                }
            }
        }
        for (key, d) in &self.documents {
            for cat in d.plot.iter().flat_map(|p| &p.categories) {
                self.find(key, &cat.claim)
                    .with_context(|| format!("plot of `{key}`"))?;
            }
        }
        Ok(())
    }
}

/// Where and from which commit a cited report was made, read from its README's provenance.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RunInfo {
    /// The GPU's name without the vendor (`H200`), or the CPU's model where the run had no GPU.
    pub machine: String,
    /// The commit, shortened to 7 characters (empty when the README records none).
    pub commit: String,
}

/// The machine and commit of `reports/<experiment>/README.md` (empty fields where it records
/// none, or where there is no README).
pub fn run_info(reports: &Path, experiment: &str) -> RunInfo {
    let md =
        std::fs::read_to_string(reports.join(experiment).join("README.md")).unwrap_or_default();
    let field = |key: &str| -> Option<String> {
        md.lines().find_map(|l| {
            let cells: Vec<&str> = l.split('|').map(str::trim).collect();
            (cells.len() >= 4 && cells[1] == key).then(|| cells[2].trim_matches('`').to_string())
        })
    };
    let gpu = field("GPU").filter(|g| !g.is_empty() && g != "none");
    let machine = match gpu {
        Some(g) => g
            .split(',')
            .next()
            .unwrap_or("")
            .trim_start_matches("NVIDIA ")
            .to_string(),
        None => field("CPU")
            .map(|c| c.split(',').next().unwrap_or("").to_string())
            .unwrap_or_default(),
    };
    let commit = field("commit")
        .map(|c| c.chars().take(7).collect())
        .unwrap_or_default();
    RunInfo { machine, commit }
}

/// A claim with both figures read and its verdict.
#[derive(Clone, Debug)]
pub struct Evaluated {
    /// The claim as the data file states it.
    pub claim: Claim,
    /// The document's figure.
    pub doc: DocFigure,
    /// How the document writes it.
    pub doc_text: String,
    /// Our figure, read from the cited cell.
    pub ours: Reading,
    /// Where and from which commit our figure's report was made.
    pub run: RunInfo,
    /// Checks that failed, each naming its cell and what it held.
    pub failed_checks: Vec<String>,
    /// The verdict: the rule applied to the two figures, or differs when a check failed.
    pub verdict: Verdict,
}

impl Evaluated {
    /// The words that go with the verdict: the reason for "differs" (a failed check's, or the
    /// data file's `why`), how far for "goes further", nothing for "confirmed".
    pub fn reason(&self) -> String {
        match self.verdict {
            Verdict::Confirmed => String::new(),
            Verdict::Differs if !self.failed_checks.is_empty() => {
                format!("a check failed: {}", self.failed_checks.join("; "))
            }
            Verdict::Differs => self.claim.why.clone().unwrap_or_default(),
            Verdict::GoesFurther => self.claim.further.clone().unwrap_or_default(),
        }
    }
}

/// Reads every cited cell of claim `c` under `reports` and decides its verdict.
///
/// Errors name the claim and the cell (file, rows, column) that is missing, and a verdict the
/// data file gives no words for.
pub fn evaluate(data: &Claims, c: &Claim, reports: &Path) -> Result<Evaluated> {
    let ours = cells::read(reports, &c.ours).with_context(|| format!("claim `{}`", c.id))?;
    let doc = data.doc_figure(c)?;
    let mut failed_checks = Vec::new();
    for check in &c.checks {
        let r = cells::read(reports, &check.cell)
            .with_context(|| format!("claim `{}`, a check", c.id))?;
        let ok_eq = check.equals.is_none_or(|v| r.figure.value == v);
        let ok_all = !check.all || r.figure.complete();
        if !(ok_eq && ok_all) {
            let want = match check.equals {
                Some(v) => format!("expected {}", cells::plain(v)),
                None => "expected all".into(),
            };
            failed_checks.push(format!("{} is {} ({want})", check.cell.describe(), r.shown));
        }
    }
    let verdict = if failed_checks.is_empty() {
        verdict::decide(&c.rule, &doc, &ours.figure)
    } else {
        Verdict::Differs
    };
    if failed_checks.is_empty() {
        match verdict {
            Verdict::Differs if c.why.is_none() => bail!(
                "claim `{}`: the figures say \"differs\" ({} against the document's {}) and {CLAIMS_PATH} gives no `why`",
                c.id,
                ours.shown,
                cells::plain(doc.value)
            ),
            Verdict::GoesFurther if c.further.is_none() => bail!(
                "claim `{}`: the figures say \"goes further\" and {CLAIMS_PATH} gives no `further`",
                c.id
            ),
            _ => {}
        }
    }
    Ok(Evaluated {
        claim: c.clone(),
        doc,
        doc_text: data.doc_text(c)?,
        ours,
        run: run_info(reports, &c.ours.experiment),
        failed_checks,
        verdict,
    })
}

/// The document's figure of claim `id` of document `doc` as the document writes it, from the
/// built-in data file (the float VIF replays show these beside their own).
pub fn document_text(doc: &str, id: &str) -> Result<String> {
    let data = load()?;
    let c = data.find(doc, id)?;
    data.doc_text(c)
}

/// The document's figure of claim `id` of document `doc` as a number (a ratio derived), and
/// the document's hardware for it, from the built-in data file.
pub fn document_figure(doc: &str, id: &str) -> Result<(f64, String)> {
    let data = load()?;
    let c = data.find(doc, id)?;
    let hardware = match &c.hardware {
        Some(h) => h.clone(),
        None => data
            .documents
            .get(doc)
            .map(|d| d.hardware.clone())
            .unwrap_or_default(),
    };
    Ok((data.doc_figure(c)?.value, hardware))
}
