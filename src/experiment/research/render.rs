//! One report folder per document: `README.md` (the claims table, the open questions, the
//! claims no CSV answers, a figure), `claims.csv` (the same figures as plain numbers) and the
//! figure's PNG, written to a temporary folder and renamed into place.
//!
//! Guarantee: the README holds no date or machine of its own, so regenerating it from the
//! same reports and data file gives the same bytes; every figure of ours in it was read from a
//! cited CSV cell.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs;
use std::path::Path;

use anyhow::{Context as _, Result};

use super::cells::{self, plain, Cell, Reading};
use super::{evaluate, run_info, Claims, Evaluated, RunInfo, Verdict, CLAIMS_PATH};
use crate::plot::{Plot, PlotKind};
use crate::report::{csv_form, replace_dir};

/// The start of the provenance row naming the binary that wrote a page (its commit, and
/// `-dirty` for a tree with changes): the one line of a page that changes with the binary
/// alone, so the byte-for-byte comparison of a regenerated page leaves it out.
pub const WRITTEN_BY: &str = "| written by |";

/// The command that regenerates the pages, as the READMEs show it.
pub const REGENERATE: &str = "binade research --from-reports\n# or: just research --from-reports";

/// The stem of each page's CSV of claims.
pub const CLAIMS_CSV: &str = "claims.csv";

/// The columns of `claims.csv`.
pub const CSV_HEADERS: [&str; 13] = [
    "id",
    "claim",
    "document figure",
    "document total",
    "document range end",
    "unit",
    "document hardware",
    "harness figure",
    "harness total",
    "machine",
    "commit",
    "source",
    "verdict",
];

/// A labelled cell of an open question, read.
#[derive(Clone, Debug)]
pub struct AnsweredCell {
    /// What the figure is.
    pub label: String,
    /// Where it comes from.
    pub cell: Cell,
    /// The figure.
    pub reading: Reading,
    /// The report's machine and commit.
    pub run: RunInfo,
}

/// An open question with its cells read and each stated ordering checked.
#[derive(Clone, Debug)]
pub struct Answered {
    /// The question's title.
    pub title: String,
    /// The question.
    pub asks: String,
    /// The answer in words.
    pub answer: String,
    /// The cells.
    pub cells: Vec<AnsweredCell>,
    /// Each ordering or completeness the answer states, and whether the figures bear it out.
    pub checks: Vec<(String, bool)>,
}

/// A document's page, ready to write.
#[derive(Clone, Debug)]
pub struct Page {
    /// The report folder's name.
    pub folder: String,
    /// The headline (also in the README).
    pub headline: String,
    /// The README's text.
    pub readme: String,
    /// The rows of `claims.csv`, plain numbers, in the CSV form the report tests expect.
    pub csv: Vec<Vec<String>>,
    /// The figure, if the document has one.
    pub plot: Option<Plot>,
    /// The claims with their verdicts.
    pub claims: Vec<Evaluated>,
    /// The open questions answered.
    pub questions: Vec<Answered>,
}

impl Page {
    /// Orderings or completeness statements of the answers that the figures do not bear out.
    pub fn failed_answers(&self) -> Vec<String> {
        self.questions
            .iter()
            .flat_map(|q| {
                q.checks
                    .iter()
                    .filter(|(_, ok)| !ok)
                    .map(move |(s, _)| format!("{}: {s}", q.title))
            })
            .collect()
    }

    /// How many claims have each verdict.
    pub fn counts(&self) -> BTreeMap<Verdict, usize> {
        let mut m = BTreeMap::new();
        for e in &self.claims {
            *m.entry(e.verdict).or_insert(0) += 1;
        }
        m
    }
}

fn esc(s: &str) -> String {
    s.replace('|', "\\|")
}

fn source_md(cell: &Cell) -> String {
    let d = cell.describe();
    let rest = d.split_once(": ").map(|(_, r)| r).unwrap_or("");
    format!(
        "[{e}/{f}](../{e}/{f}): {}",
        esc(rest),
        e = cell.experiment,
        f = cell.file
    )
}

fn run_md(run: &RunInfo) -> String {
    match (run.machine.is_empty(), run.commit.is_empty()) {
        (false, false) => format!("{}, `{}`", run.machine, run.commit),
        (false, true) => run.machine.clone(),
        (true, false) => format!("`{}`", run.commit),
        (true, true) => "not recorded".into(),
    }
}

fn with_unit(figure: &str, unit: &str) -> String {
    if unit.is_empty() || unit == "x" {
        if unit == "x" {
            format!("{figure}x")
        } else {
            figure.to_string()
        }
    } else {
        format!("{figure} {unit}")
    }
}

/// Builds the page of document `key` from the committed reports under `reports`.
///
/// Errors name the claim or question and the cell that could not be read.
pub fn build(data: &Claims, key: &str, reports: &Path) -> Result<Page> {
    let doc = data
        .documents
        .get(key)
        .with_context(|| format!("{CLAIMS_PATH}: no document `{key}`"))?;
    let claims: Vec<Evaluated> = data
        .claims_of(key)
        .map(|c| evaluate(data, c, reports))
        .collect::<Result<_>>()?;
    let mut questions = Vec::new();
    for q in data.question.iter().filter(|q| q.document == key) {
        let mut answered = Vec::new();
        for qc in &q.cells {
            let reading = cells::read(reports, &qc.cell)
                .with_context(|| format!("question `{}`, cell `{}`", q.id, qc.label))?;
            answered.push(AnsweredCell {
                label: qc.label.clone(),
                cell: qc.cell.clone(),
                reading,
                run: run_info(reports, &qc.cell.experiment),
            });
        }
        let value = |label: &str| {
            answered
                .iter()
                .find(|c| c.label == label)
                .map(|c| c.reading.figure)
        };
        let mut checks = Vec::new();
        for h in &q.holds {
            let ok = match (value(&h.a), value(&h.less_than)) {
                (Some(a), Some(b)) => a.value < b.value,
                _ => false,
            };
            checks.push((format!("{} < {}", h.a, h.less_than), ok));
        }
        for l in &q.complete {
            let ok = value(l).is_some_and(|f| f.complete());
            checks.push((format!("{l}: all"), ok));
        }
        questions.push(Answered {
            title: q.title.clone(),
            asks: q.asks.clone(),
            answer: q.answer.clone(),
            cells: answered,
            checks,
        });
    }
    let mut page = Page {
        folder: doc.folder.clone(),
        headline: String::new(),
        readme: String::new(),
        csv: Vec::new(),
        plot: None,
        claims,
        questions,
    };
    page.headline = headline(&doc.name, &page, data, key);
    page.csv = csv_rows(data, key, &page.claims);
    page.readme = readme(data, key, &page);
    page.plot = match &doc.plot {
        Some(spec) => {
            let mut ours = Vec::new();
            let mut theirs = Vec::new();
            let mut machine = String::new();
            for cat in &spec.categories {
                let e = page
                    .claims
                    .iter()
                    .find(|e| e.claim.id == cat.claim)
                    .with_context(|| format!("plot of `{key}`: no claim `{}`", cat.claim))?;
                theirs.push(e.doc.value);
                ours.push(e.ours.figure.value);
                if machine.is_empty() {
                    machine = e.run.machine.clone();
                }
            }
            Some(Plot {
                stem: spec.stem.clone(),
                title: spec.title.clone(),
                kind: PlotKind::Bars {
                    categories: spec.categories.iter().map(|c| c.label.clone()).collect(),
                    series: vec![
                        (
                            format!(
                                "{} ({})",
                                doc.name,
                                doc.hardware.split(',').next().unwrap_or("")
                            ),
                            theirs,
                        ),
                        (format!("harness ({machine})"), ours),
                    ],
                    x_label: spec.x_label.clone(),
                    y_label: spec.y_label.clone(),
                    log_y: spec.log_y,
                },
            })
        }
        None => None,
    };
    Ok(page)
}

fn headline(name: &str, page: &Page, data: &Claims, key: &str) -> String {
    let counts = page.counts();
    let n = |v| counts.get(&v).copied().unwrap_or(0);
    let measured = page
        .questions
        .iter()
        .filter(|q| !q.cells.is_empty())
        .count();
    let unmeasured = data.unmeasured.iter().filter(|u| u.document == key).count();
    format!(
        "{name}: {} claims against the committed reports: {} confirmed, {} differ, {} go further; {} of {} open questions answered with measured data; {} claims no CSV answers",
        page.claims.len(),
        n(Verdict::Confirmed),
        n(Verdict::Differs),
        n(Verdict::GoesFurther),
        measured,
        page.questions.len(),
        unmeasured
    )
}

fn csv_rows(data: &Claims, key: &str, claims: &[Evaluated]) -> Vec<Vec<String>> {
    let hardware = data
        .documents
        .get(key)
        .map(|d| d.hardware.clone())
        .unwrap_or_default();
    let opt = |x: Option<f64>| x.map(plain).unwrap_or_default();
    let rows: Vec<Vec<String>> = claims
        .iter()
        .map(|e| {
            vec![
                e.claim.id.clone(),
                e.claim.claim.clone(),
                plain(e.doc.value),
                opt(e.doc.of),
                opt(e.doc.upto),
                e.claim
                    .ours_unit
                    .clone()
                    .map(|u| format!("{} (harness: {u})", e.claim.unit))
                    .unwrap_or_else(|| e.claim.unit.clone()),
                e.claim.hardware.clone().unwrap_or_else(|| hardware.clone()),
                plain(e.ours.figure.value),
                opt(e.ours.figure.of),
                e.run.machine.clone(),
                e.run.commit.clone(),
                e.claim.ours.describe(),
                e.verdict.as_str().to_string(),
            ]
        })
        .collect();
    let headers: Vec<String> = CSV_HEADERS.iter().map(|h| h.to_string()).collect();
    csv_form(&headers, &rows).1
}

fn readme(data: &Claims, key: &str, page: &Page) -> String {
    let Some(doc) = data.documents.get(key) else {
        return String::new();
    };
    let mut md = String::new();
    let _ = writeln!(md, "# {}\n", doc.title);
    let _ = writeln!(md, "<!-- headline -->\n**{}**\n", page.headline);
    let _ = writeln!(md, "{}\n", doc.subject);
    let _ = writeln!(md, "## Provenance\n\n| | |\n| --- | --- |");
    let _ = writeln!(
        md,
        "| the document's figures | [`{CLAIMS_PATH}`](../../{CLAIMS_PATH}) (the only place they are written) |"
    );
    let mut cited: BTreeMap<String, RunInfo> = BTreeMap::new();
    for e in &page.claims {
        cited.insert(e.claim.ours.experiment.clone(), e.run.clone());
    }
    for q in &page.questions {
        for c in &q.cells {
            cited.insert(c.cell.experiment.clone(), c.run.clone());
        }
    }
    let list: Vec<String> = cited
        .iter()
        .map(|(exp, run)| format!("[{exp}](../{exp}/README.md) ({})", run_md(run)))
        .collect();
    let _ = writeln!(
        md,
        "| reports cited (machine, commit) | {} |",
        list.join(", ")
    );
    let _ = writeln!(
        md,
        "{WRITTEN_BY} `binade research` built from `{}` |",
        crate::provenance::commit()
    );
    let _ = writeln!(md, "\nRegenerate with:\n\n```\n{REGENERATE}\n```\n");
    let _ = writeln!(
        md,
        "Every figure under \"harness\" is read from the CSV cell named under \"source\" (a row selector and a column, or the largest, smallest, sum or count over the rows selected); none is typed. The document's figures come from `{CLAIMS_PATH}`. A verdict follows from the two figures by the claim's rule, stated in that file: *confirmed* (equal, within a stated factor, inside the document's range, or on the stated side of it), *differs* (with the reason), or *goes further* (the harness measured more than the document did, with every check on it passing). A claim's checks are further cells that must hold (no mismatch, every output identical); a failed check makes the verdict *differs* and names the cell. The document's figures were measured on other hardware and, where the note says so, on other content; they stand beside ours for comparison.\n"
    );
    let _ = writeln!(md, "## Claims\n");
    let _ = writeln!(
        md,
        "| # | claim | document ({}) | harness | run | source | verdict |",
        esc(&doc.hardware)
    );
    let _ = writeln!(md, "| --- | --- | --- | --- | --- | --- | --- |");
    for (i, e) in page.claims.iter().enumerate() {
        let mut theirs = if e.claim.ratio_of.is_some() {
            e.doc_text.clone()
        } else {
            with_unit(&e.doc_text, &e.claim.unit)
        };
        if let Some(h) = &e.claim.hardware {
            theirs.push_str(&format!(" ({h})"));
        }
        let ours = with_unit(
            &e.ours.shown,
            e.claim.ours_unit.as_deref().unwrap_or(&e.claim.unit),
        );
        let reason = e.reason();
        let verdict = if reason.is_empty() {
            format!("**{}**", e.verdict.as_str())
        } else {
            format!("**{}**: {}", e.verdict.as_str(), reason)
        };
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} | {} | {} | {} |",
            i + 1,
            esc(&e.claim.claim),
            esc(&theirs),
            esc(&ours),
            run_md(&e.run),
            source_md(&e.claim.ours),
            esc(&verdict)
        );
    }
    let _ = writeln!(md, "\nCSV: [`{CLAIMS_CSV}`]({CLAIMS_CSV})\n");
    let _ = writeln!(md, "## Open questions\n");
    for q in &page.questions {
        let _ = writeln!(md, "### {}\n", q.title);
        let _ = writeln!(md, "*Asked:* {}\n", q.asks);
        if q.cells.is_empty() {
            let _ = writeln!(md, "*Answer:* {}\n", q.answer);
            continue;
        }
        let _ = writeln!(md, "| measured | harness | run | source |");
        let _ = writeln!(md, "| --- | --- | --- | --- |");
        for c in &q.cells {
            let _ = writeln!(
                md,
                "| {} | {} | {} | {} |",
                esc(&c.label),
                esc(&c.reading.shown),
                run_md(&c.run),
                source_md(&c.cell)
            );
        }
        let _ = writeln!(md, "\n*Answer:* {}\n", q.answer);
        if !q.checks.is_empty() {
            let list: Vec<String> = q
                .checks
                .iter()
                .map(|(s, ok)| format!("{s}: {}", if *ok { "holds" } else { "**does not hold**" }))
                .collect();
            let _ = writeln!(
                md,
                "What the answer states, checked against the figures: {}.\n",
                list.join("; ")
            );
        }
    }
    let unmeasured: Vec<_> = data
        .unmeasured
        .iter()
        .filter(|u| u.document == key)
        .collect();
    if !unmeasured.is_empty() {
        let _ = writeln!(md, "## Claims no committed CSV answers\n");
        let _ = writeln!(md, "| claim | why not here |\n| --- | --- |");
        for u in unmeasured {
            let _ = writeln!(md, "| {} | {} |", esc(&u.claim), esc(&u.why));
        }
        md.push('\n');
    }
    if let Some(spec) = &doc.plot {
        let _ = writeln!(md, "![{}]({}.png)\n", spec.title, spec.stem);
    }
    md
}

/// Writes `page` into `dir/<folder>` whole: a temporary sibling folder first (README,
/// `claims.csv`, the figure), renamed into place only when every file was written.
pub fn write(page: &Page, dir: &Path) -> Result<()> {
    fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let target = dir.join(&page.folder);
    let tmp = dir.join(format!(".{}.tmp-{}", page.folder, std::process::id()));
    if tmp.exists() {
        fs::remove_dir_all(&tmp)?;
    }
    fs::create_dir_all(&tmp)?;
    let written = (|| -> Result<()> {
        fs::write(tmp.join("README.md"), &page.readme)?;
        let mut w = csv::Writer::from_path(tmp.join(CLAIMS_CSV))?;
        w.write_record(CSV_HEADERS)?;
        for row in &page.csv {
            w.write_record(row)?;
        }
        w.flush()?;
        if let Some(p) = &page.plot {
            p.draw(&tmp.join(format!("{}.png", p.stem)))
                .with_context(|| format!("drawing {}.png", p.stem))?;
        }
        Ok(())
    })();
    if let Err(e) = written {
        let _ = fs::remove_dir_all(&tmp);
        return Err(e);
    }
    replace_dir(&tmp, &target)
}

/// What changed between a previous `claims.csv` (its text) and the page's rows: one line per
/// claim whose harness figure, total or verdict moved, or that is new or gone.
pub fn changes(previous: Option<&str>, page: &Page) -> Vec<String> {
    let key = |r: &[String]| -> (String, String) {
        let fig = match r.get(8).filter(|t| !t.is_empty()) {
            Some(of) => format!("{} of {of}", r.get(7).cloned().unwrap_or_default()),
            None => r.get(7).cloned().unwrap_or_default(),
        };
        (fig, r.get(12).cloned().unwrap_or_default())
    };
    let mut old: BTreeMap<String, (String, String)> = BTreeMap::new();
    if let Some(text) = previous {
        let mut rdr = csv::Reader::from_reader(text.as_bytes());
        for rec in rdr.records().flatten() {
            let r: Vec<String> = rec.iter().map(str::to_string).collect();
            if let Some(id) = r.first() {
                old.insert(id.clone(), key(&r));
            }
        }
    }
    let mut out = Vec::new();
    for r in &page.csv {
        let id = r.first().cloned().unwrap_or_default();
        let (fig, verdict) = key(r);
        match old.remove(&id) {
            None if previous.is_some() => {
                out.push(format!("{}: {id}: new, {fig} ({verdict})", page.folder))
            }
            None => {}
            Some((f0, v0)) if f0 != fig || v0 != verdict => out.push(format!(
                "{}: {id}: {f0} ({v0}) -> {fig} ({verdict})",
                page.folder
            )),
            Some(_) => {}
        }
    }
    for id in old.keys() {
        out.push(format!("{}: {id}: no longer a claim", page.folder));
    }
    out
}
