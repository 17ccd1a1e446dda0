//! Reports: a folder per experiment with `README.md` (provenance, headline, tables, figures),
//! one CSV per table and PNG plots, written to a temporary folder and renamed into place.
//!
//! Guarantee: a report folder is either the previous complete report or the new complete
//! one; a failed run never leaves half a report.

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use crate::plot::Plot;
use crate::provenance::Provenance;

/// A table: a title, column names and rows of already formatted cells.
#[derive(Clone, Debug, Default)]
pub struct Table {
    /// File stem of the table's CSV (`fallback` gives `fallback.csv`).
    pub stem: String,
    /// Heading shown above the table in the README.
    pub title: String,
    /// Column names.
    pub headers: Vec<String>,
    /// Rows, each with one cell per column.
    pub rows: Vec<Vec<String>>,
    /// When set, the README shows only the first this many rows (the CSV has all).
    pub show_rows: Option<usize>,
}

impl Table {
    /// An empty table with the given CSV stem, title and columns.
    pub fn new(stem: &str, title: &str, headers: &[&str]) -> Table {
        Table {
            stem: stem.into(),
            title: title.into(),
            headers: headers.iter().map(|h| h.to_string()).collect(),
            rows: Vec::new(),
            show_rows: None,
        }
    }

    /// Appends a row (cells are formatted by the caller).
    pub fn row(&mut self, cells: Vec<String>) {
        self.rows.push(cells);
    }

    fn markdown(&self) -> String {
        let mut s = String::new();
        let shown = self
            .show_rows
            .unwrap_or(self.rows.len())
            .min(self.rows.len());
        if shown == 0 {
            // No header over an empty table: say where the rows are, or that there are none.
            let _ = if self.rows.is_empty() {
                writeln!(s, "No rows.")
            } else {
                writeln!(
                    s,
                    "{} rows, not shown here; all are in `{}.csv`.",
                    thousands(self.rows.len() as u64),
                    self.stem
                )
            };
            return s;
        }
        let _ = writeln!(s, "| {} |", self.headers.join(" | "));
        let _ = writeln!(s, "|{}", " --- |".repeat(self.headers.len()));
        for row in &self.rows[..shown] {
            // A `|` inside a cell would end the cell: escape it (the CSV keeps it as is).
            let cells: Vec<String> = row.iter().map(|c| c.replace('|', "\\|")).collect();
            let _ = writeln!(s, "| {} |", cells.join(" | "));
        }
        if shown < self.rows.len() {
            let _ = writeln!(
                s,
                "\n{} of {} rows shown; all are in `{}.csv`.",
                shown,
                self.rows.len(),
                self.stem
            );
        }
        s
    }
}

/// One piece of a report's body, in order.
#[derive(Clone, Debug)]
enum Block {
    Text(String),
    Table(Table),
    Plot(Plot),
}

/// A report under construction. Nothing touches the disk until [`Report::write`].
#[derive(Clone, Debug)]
pub struct Report {
    /// The experiment's name (the report folder's name).
    pub name: String,
    /// The README's title.
    pub title: String,
    /// One line for `reports/README.md`: the figure a reader wants first.
    pub headline: String,
    blocks: Vec<Block>,
}

impl Report {
    /// An empty report for experiment `name`.
    pub fn new(name: &str, title: &str) -> Report {
        Report {
            name: name.into(),
            title: title.into(),
            headline: String::new(),
            blocks: Vec::new(),
        }
    }

    /// Sets the headline.
    pub fn headline(&mut self, line: impl Into<String>) {
        self.headline = line.into();
    }

    /// Appends `clause` to the headline, after "; ".
    pub fn extend_headline(&mut self, clause: &str) {
        debug_assert!(!clause.is_empty());
        self.headline = format!("{}; {clause}", self.headline);
    }

    /// Adds a paragraph of markdown.
    pub fn text(&mut self, markdown: impl Into<String>) {
        self.blocks.push(Block::Text(markdown.into()));
    }

    /// Adds a table (shown in the README and written as `<stem>.csv`).
    pub fn table(&mut self, table: Table) {
        self.blocks.push(Block::Table(table));
    }

    /// Adds a figure (drawn as `<stem>.png` and shown in the README).
    pub fn plot(&mut self, plot: Plot) {
        self.blocks.push(Block::Plot(plot));
    }

    /// Writes the report to `dir` (created or replaced whole): into a temporary sibling folder
    /// first, renamed into place only when every file was written.
    pub fn write(&self, dir: &Path, provenance: &Provenance) -> Result<()> {
        let parent = dir
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        fs::create_dir_all(parent).with_context(|| format!("creating {}", parent.display()))?;
        let leaf = dir.file_name().and_then(|n| n.to_str()).unwrap_or("report");
        let tmp = parent.join(format!(".{leaf}.tmp-{}", std::process::id()));
        if tmp.exists() {
            fs::remove_dir_all(&tmp)?;
        }
        fs::create_dir_all(&tmp)?;
        let written = self.write_files(&tmp, provenance);
        if let Err(e) = written {
            let _ = fs::remove_dir_all(&tmp);
            return Err(e);
        }
        replace_dir(&tmp, dir)
    }

    fn write_files(&self, tmp: &Path, provenance: &Provenance) -> Result<()> {
        // Two tables or figures of one file name would leave only the last on disk.
        let mut names = std::collections::HashSet::new();
        for block in &self.blocks {
            let name = match block {
                Block::Table(t) => format!("{}.csv", t.stem),
                Block::Plot(p) => format!("{}.png", p.stem),
                Block::Text(_) => continue,
            };
            if !names.insert(name.clone()) {
                anyhow::bail!("report {}: two blocks write {name}", self.name);
            }
        }
        let mut md = String::new();
        let _ = writeln!(md, "# {}\n", self.title);
        let _ = writeln!(md, "<!-- headline -->\n**{}**\n", self.headline);
        md.push_str(&provenance.markdown());
        for block in &self.blocks {
            match block {
                Block::Text(t) => {
                    let _ = writeln!(md, "{t}\n");
                }
                Block::Table(t) => {
                    write_csv(&tmp.join(format!("{}.csv", t.stem)), t)?;
                    let _ = writeln!(
                        md,
                        "### {}\n\n{}\nCSV: [`{}.csv`]({}.csv)\n",
                        t.title,
                        t.markdown(),
                        t.stem,
                        t.stem
                    );
                }
                Block::Plot(p) => {
                    let file = format!("{}.png", p.stem);
                    p.draw(&tmp.join(&file))
                        .with_context(|| format!("drawing {file}"))?;
                    let _ = writeln!(md, "![{}]({file})\n", p.title);
                }
            }
        }
        fs::write(tmp.join("README.md"), md)?;
        Ok(())
    }
}

fn write_csv(path: &Path, t: &Table) -> Result<()> {
    let (headers, rows) = csv_form(&t.headers, &t.rows);
    let mut w =
        csv::Writer::from_path(path).with_context(|| format!("writing {}", path.display()))?;
    w.write_record(&headers)?;
    for row in &rows {
        w.write_record(row)?;
    }
    w.flush()?;
    Ok(())
}

/// Cells that stand for a figure that was not measured or does not apply.
const MISSING: [&str; 5] = ["-", "n/a", "not run", "not measured", ""];

/// The CSV form of a table whose cells are formatted for people (the README keeps that form):
/// numbers a program can read.
///
/// 1. Thousands separators go: `8,294,400` becomes `8294400`, inside any cell
///    (`killed@4,098` becomes `killed@4098`); a comma that is not between digit groups of
///    three stays.
/// 2. A column whose figures all end in `%` loses the sign, and its name gains ` (%)`; one
///    whose figures all end in `x` (a ratio) loses it, and its name gains ` (x)`.
/// 3. In a column of figures, a cell that marks a missing figure (`-`, `n/a`, `not run`)
///    becomes empty.
///
/// Guarantee: applied to its own output it changes nothing (the committed CSVs are checked
/// to be such fixed points).
pub fn csv_form(headers: &[String], rows: &[Vec<String>]) -> (Vec<String>, Vec<Vec<String>>) {
    let mut rows: Vec<Vec<String>> = rows
        .iter()
        .map(|r| r.iter().map(|c| without_separators(c)).collect())
        .collect();
    let mut headers = headers.to_vec();
    for (col, header) in headers.iter_mut().enumerate() {
        let cells: Vec<&str> = rows
            .iter()
            .filter_map(|r| r.get(col))
            .map(|c| c.trim())
            .filter(|c| !MISSING.contains(c))
            .collect();
        if cells.is_empty() {
            continue;
        }
        let all_with = |suffix: char| {
            cells.iter().all(|c| {
                c.strip_suffix(suffix)
                    .is_some_and(|n| is_figure(n.trim_end()))
            })
        };
        let suffix = ['%', 'x'].into_iter().find(|&s| all_with(s));
        if suffix.is_none() && !cells.iter().all(|c| is_figure(c)) {
            continue;
        }
        if let Some(s) = suffix {
            let unit = format!("({s})");
            if !header.contains(&unit) {
                header.push_str(&format!(" {unit}"));
            }
        }
        for row in rows.iter_mut() {
            let Some(cell) = row.get_mut(col) else {
                continue;
            };
            let t = cell.trim();
            if MISSING.contains(&t) {
                cell.clear();
            } else if let Some(s) = suffix {
                *cell = t.trim_end_matches(s).trim_end().to_string();
            }
        }
    }
    (headers, rows)
}

/// True for a plain number as a program reads one: `12`, `-0.5`, `+6.09e-6`, `1.5E3`
/// (not `inf` or `NaN`, which are words in these tables).
fn is_figure(s: &str) -> bool {
    let body = s.strip_prefix(['+', '-']).unwrap_or(s);
    body.starts_with(|c: char| c.is_ascii_digit() || c == '.')
        && body.chars().any(|c| c.is_ascii_digit())
        && s.parse::<f64>().is_ok()
}

/// `s` with the commas between digit groups removed: a run of 1 to 3 digits followed by one
/// or more `,ddd` groups (not part of a longer digit run, not after a decimal point).
pub fn without_separators(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    while i < b.len() {
        let starts_run = b[i].is_ascii_digit()
            && (i == 0 || !(b[i - 1].is_ascii_digit() || b[i - 1] == b'.' || b[i - 1] == b','));
        if !starts_run {
            let ch = s[i..].chars().next().unwrap_or(' ');
            out.push(ch);
            i += ch.len_utf8();
            continue;
        }
        let mut j = i;
        while j < b.len() && b[j].is_ascii_digit() {
            j += 1;
        }
        let lead = j - i;
        let mut groups = 0;
        let mut k = j;
        while k + 4 <= b.len()
            && b[k] == b','
            && b[k + 1..k + 4].iter().all(u8::is_ascii_digit)
            && (k + 4 == b.len() || !b[k + 4].is_ascii_digit())
        {
            groups += 1;
            k += 4;
        }
        if lead <= 3 && groups > 0 {
            out.extend(s[i..k].chars().filter(|&c| c != ','));
        } else {
            out.push_str(&s[i..j]);
            k = j;
        }
        i = k;
    }
    out
}

/// Moves the complete folder `tmp` to `dir`, replacing any previous `dir` only after the new
/// one is complete.
pub fn replace_dir(tmp: &Path, dir: &Path) -> Result<()> {
    if dir.exists() {
        let old = dir.with_file_name(format!(
            ".{}.old-{}",
            dir.file_name().and_then(|n| n.to_str()).unwrap_or("report"),
            std::process::id()
        ));
        fs::rename(dir, &old).with_context(|| format!("moving aside {}", dir.display()))?;
        fs::rename(tmp, dir).with_context(|| format!("renaming into {}", dir.display()))?;
        fs::remove_dir_all(&old)?;
    } else {
        fs::rename(tmp, dir).with_context(|| format!("renaming into {}", dir.display()))?;
    }
    Ok(())
}

/// Rewrites `root/README.md`, the index of every report folder under `root` with its
/// headline, atomically (temporary file, then rename).
pub fn write_index(root: &Path) -> Result<()> {
    let mut rows: Vec<(String, String, String)> = Vec::new();
    let entries = match fs::read_dir(root) {
        Ok(e) => e,
        Err(_) => return Ok(()),
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().to_string();
        if !path.is_dir() || name.starts_with('.') {
            continue;
        }
        if let Ok(md) = fs::read_to_string(path.join("README.md")) {
            let title = md
                .lines()
                .next()
                .unwrap_or("")
                .trim_start_matches("# ")
                .to_string();
            let headline = headline_of(&md).unwrap_or_default();
            rows.push((name, title, headline));
        }
    }
    rows.sort();
    let mut md = String::from("# Reports\n\nEach folder is written by one experiment (`binade run NAME`, or `just run-experiment NAME`) and is regenerated, never edited. Its README gives the commit, date, machine and the command that made it.\n\n| experiment | what | headline |\n| --- | --- | --- |\n");
    for (name, title, headline) in rows {
        let _ = writeln!(md, "| [{name}]({name}/README.md) | {title} | {headline} |");
    }
    let tmp: PathBuf = root.join(format!(".README.md.tmp-{}", std::process::id()));
    fs::write(&tmp, md)?;
    fs::rename(&tmp, root.join("README.md"))?;
    Ok(())
}

fn headline_of(md: &str) -> Option<String> {
    let mut lines = md.lines();
    lines.find(|l| l.trim() == "<!-- headline -->")?;
    lines.next().map(|l| l.trim().trim_matches('*').to_string())
}

/// A time in milliseconds with `digits` decimals; `not run` for NaN (a figure that was not
/// measured).
pub fn ms_cell(x: f64, digits: usize) -> String {
    if x.is_nan() {
        "not run".into()
    } else {
        format!("{x:.digits$}")
    }
}

/// `a / b` with two decimals; `n/a` where either was not measured or `b` is not positive.
pub fn ratio_cell(a: f64, b: f64) -> String {
    if a.is_nan() || b.is_nan() || b <= 0.0 {
        "n/a".into()
    } else {
        format!("{:.2}", a / b)
    }
}

/// Formats a count with thousands separators (`8,294,400`).
pub fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failed_write_keeps_previous_report() {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("exp");
        let prov = Provenance::for_tests();
        let mut good = Report::new("exp", "Good");
        good.headline("first");
        good.write(&dir, &prov).unwrap();
        let mut bad = Report::new("exp", "Bad");
        bad.plot(Plot::failing_for_tests());
        assert!(bad.write(&dir, &prov).is_err());
        let md = fs::read_to_string(dir.join("README.md")).unwrap();
        assert!(
            md.starts_with("# Good"),
            "previous report must survive a failed write"
        );
        let leftovers: Vec<_> = fs::read_dir(root.path())
            .unwrap()
            .flatten()
            .map(|e| e.file_name())
            .collect();
        assert_eq!(
            leftovers.len(),
            1,
            "no temporary folder left: {leftovers:?}"
        );
    }

    #[test]
    fn two_tables_of_one_name_are_refused() {
        let root = tempfile::tempdir().unwrap();
        let mut r = Report::new("exp", "Twice");
        r.table(Table::new("same", "first", &["a"]));
        r.table(Table::new("same", "second", &["a"]));
        let err = r
            .write(&root.path().join("exp"), &Provenance::for_tests())
            .unwrap_err();
        assert!(
            format!("{err:#}").contains("two blocks write same.csv"),
            "{err:#}"
        );
    }

    #[test]
    fn csv_form_keeps_numbers_plain() {
        assert_eq!(without_separators("8,333,334"), "8333334");
        assert_eq!(without_separators("killed@4,098"), "killed@4098");
        assert_eq!(
            without_separators("461,733 of 7,458,816"),
            "461733 of 7458816"
        );
        assert_eq!(without_separators("uniform [0, 1)"), "uniform [0, 1)");
        assert_eq!(without_separators("1,23"), "1,23");
        assert_eq!(without_separators("1234,567"), "1234,567");
        assert_eq!(without_separators("0.5,123"), "0.5,123");
        assert_eq!(without_separators("1,2345"), "1,2345");
        assert_eq!(without_separators("µs 1,000"), "µs 1000");
        let h = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let (headers, rows) = csv_form(
            &h(&["plan", "chunks", "share", "ratio", "ms"]),
            &[
                h(&["a", "213,486", "23.49%", "1.00x", "n/a"]),
                h(&["b", "-", "100.00%", "0.82x", "2.5"]),
            ],
        );
        assert_eq!(
            headers,
            h(&["plan", "chunks", "share (%)", "ratio (x)", "ms"])
        );
        assert_eq!(rows[0], h(&["a", "213486", "23.49", "1.00", ""]));
        assert_eq!(rows[1], h(&["b", "", "100.00", "0.82", "2.5"]));
        assert_eq!(csv_form(&headers, &rows), (headers.clone(), rows.clone()));
        // Words stay words; a column with one word in it is left alone.
        let (_, rows) = csv_form(&h(&["x"]), &[h(&["inf"]), h(&["-"]), h(&["3"])]);
        assert_eq!(rows, [h(&["inf"]), h(&["-"]), h(&["3"])]);
    }

    #[test]
    fn thousands_groups() {
        assert_eq!(thousands(8294400), "8,294,400");
        assert_eq!(thousands(999), "999");
    }
}
