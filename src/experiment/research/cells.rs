//! Reading one figure from a committed report's CSV: a file, a row selector and a column, or
//! an aggregate (max, min, sum, count) over the selected rows.
//!
//! A cell holds a plain number, or `N of M` (a part and its total); `of_column` takes the
//! total from a second column instead.
//!
//! Guarantee: [`read`] returns a figure only when the file, every selector's column and the
//! cited column exist, the selector picks exactly one row (or, with an aggregate, at least
//! one, except a count), and every picked cell is a figure; otherwise its error names the
//! file, the selector and the column.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{bail, Context as _, Result};
use serde::Deserialize;

use crate::report::thousands;

/// How the selected rows become one figure.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Aggregate {
    /// The largest part.
    Max,
    /// The smallest part.
    Min,
    /// Parts and totals summed.
    Sum,
    /// How many rows the selector picks (no column needed).
    Count,
}

/// The address of a figure in `reports/<experiment>/<file>`.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Cell {
    /// The experiment (its report folder).
    pub experiment: String,
    /// The CSV file in the report folder.
    pub file: String,
    /// Column = value pairs a row must match: a value ending in `*` matches a prefix, one
    /// starting with `!` matches anything else.
    #[serde(default)]
    pub rows: BTreeMap<String, String>,
    /// The column holding the figure (a count needs none).
    pub column: Option<String>,
    /// A column holding the figure's total.
    pub of_column: Option<String>,
    /// How several rows become one figure; without it the selector must pick one row.
    pub aggregate: Option<Aggregate>,
}

impl Cell {
    /// `experiment/file: rows → column`, as the READMEs show a source.
    pub fn describe(&self) -> String {
        let rows = if self.rows.is_empty() {
            "every row".to_string()
        } else {
            self.rows
                .iter()
                .map(|(k, v)| format!("{k} = {v}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let col = match (&self.column, &self.of_column) {
            (Some(c), Some(o)) => format!("{c} of {o}"),
            (Some(c), None) => c.clone(),
            (None, _) => "rows".into(),
        };
        let agg = match self.aggregate {
            Some(Aggregate::Max) => " (largest)",
            Some(Aggregate::Min) => " (smallest)",
            Some(Aggregate::Sum) => " (sum)",
            Some(Aggregate::Count) => " (count)",
            None => "",
        };
        format!("{}/{}: {rows} → {col}{agg}", self.experiment, self.file)
    }
}

/// A figure, with the total it is a part of when it has one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Figure {
    /// The figure (the part, for `N of M`).
    pub value: f64,
    /// The total.
    pub of: Option<f64>,
}

impl Figure {
    /// True when the figure is all of its total (`N of N`).
    pub fn complete(&self) -> bool {
        self.of == Some(self.value)
    }
}

/// A figure read from a CSV and how it is shown.
#[derive(Clone, Debug, PartialEq)]
pub struct Reading {
    /// The figure.
    pub figure: Figure,
    /// The cell's text for one cell (as the CSV has it), else the figure formatted.
    pub shown: String,
}

/// A number as a program reads it: an integer below 10^15 in full, a magnitude below 1e-3 or
/// from 1e15 on as `2.14e-13`, anything else in Rust's shortest form.
pub fn plain(x: f64) -> String {
    if x == 0.0 {
        "0".into()
    } else if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{}", x as i64)
    } else if x.abs() < 1e-3 || x.abs() >= 1e15 {
        format!("{x:e}")
    } else {
        format!("{x}")
    }
}

/// A number for people: integers with thousands separators, small ones as `2.14e-13`, others
/// to `digits` significant digits at most.
pub fn people(x: f64, digits: usize) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        let s = thousands(x.abs() as u64);
        return if x < 0.0 { format!("-{s}") } else { s };
    }
    if x.abs() < 1e-3 || x.abs() >= 1e15 {
        return format!("{x:e}");
    }
    let mag = x.abs().log10().floor() as i32;
    let decimals = (digits as i32 - 1 - mag).max(0) as usize;
    let s = format!("{x:.decimals$}");
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

/// Parses a cell: a plain number, or `N of M`.
pub fn parse_figure(text: &str) -> Option<Figure> {
    let t = text.trim();
    if let Some((a, b)) = t.split_once(" of ") {
        return Some(Figure {
            value: a.trim().parse().ok()?,
            of: Some(b.trim().parse().ok()?),
        });
    }
    t.parse().ok().map(|value| Figure { value, of: None })
}

fn matches(pattern: &str, value: &str) -> bool {
    if let Some(rest) = pattern.strip_prefix('!') {
        !matches(rest, value)
    } else if let Some(prefix) = pattern.strip_suffix('*') {
        value.starts_with(prefix)
    } else {
        value == pattern
    }
}

/// Reads the figure at `cell` under the reports folder `reports`.
pub fn read(reports: &Path, cell: &Cell) -> Result<Reading> {
    let path = reports.join(&cell.experiment).join(&cell.file);
    let where_ = || cell.describe();
    let mut rdr = csv::Reader::from_path(&path)
        .with_context(|| format!("{}: cannot read the CSV ({})", path.display(), where_()))?;
    let headers: Vec<String> = rdr
        .headers()
        .with_context(|| format!("{}: no header row", path.display()))?
        .iter()
        .map(str::to_string)
        .collect();
    let index = |name: &str| -> Result<usize> {
        headers.iter().position(|h| h == name).with_context(|| {
            format!(
                "{}: no column `{name}` (columns: {})",
                path.display(),
                headers.join(", ")
            )
        })
    };
    let selectors: Vec<(usize, &str)> = cell
        .rows
        .iter()
        .map(|(k, v)| Ok((index(k)?, v.as_str())))
        .collect::<Result<_>>()?;
    let column = cell.column.as_deref().map(index).transpose()?;
    let of_column = cell.of_column.as_deref().map(index).transpose()?;
    let mut picked: Vec<Vec<String>> = Vec::new();
    for (n, rec) in rdr.records().enumerate() {
        let rec = rec.with_context(|| format!("{}: row {}", path.display(), n + 2))?;
        if selectors
            .iter()
            .all(|(i, v)| matches(v, rec.get(*i).unwrap_or("")))
        {
            picked.push(rec.iter().map(str::to_string).collect());
        }
    }
    if cell.aggregate == Some(Aggregate::Count) {
        let n = picked.len() as f64;
        return Ok(Reading {
            figure: Figure { value: n, of: None },
            shown: people(n, 4),
        });
    }
    if picked.is_empty() {
        bail!("{}: no row where {}", path.display(), where_());
    }
    if cell.aggregate.is_none() && picked.len() > 1 {
        bail!(
            "{}: {} rows where {} (one is needed: add a selector or an aggregate)",
            path.display(),
            picked.len(),
            where_()
        );
    }
    let Some(col) = column else {
        bail!("{}: {} names no column", path.display(), where_());
    };
    let mut figures = Vec::with_capacity(picked.len());
    for row in &picked {
        let text = row.get(col).map(String::as_str).unwrap_or("");
        let mut f = parse_figure(text).with_context(|| {
            format!(
                "{}: column `{}` holds `{text}`, not a figure ({})",
                path.display(),
                headers[col],
                where_()
            )
        })?;
        if let Some(oc) = of_column {
            let t = row.get(oc).map(String::as_str).unwrap_or("");
            let total = parse_figure(t).with_context(|| {
                format!(
                    "{}: column `{}` holds `{t}`, not a figure ({})",
                    path.display(),
                    headers[oc],
                    where_()
                )
            })?;
            f.of = Some(total.value);
        }
        figures.push((f, text.to_string()));
    }
    let figure = match cell.aggregate {
        None => figures[0].0,
        Some(Aggregate::Sum) => Figure {
            value: figures.iter().map(|(f, _)| f.value).sum(),
            of: figures.iter().map(|(f, _)| f.of).sum::<Option<f64>>(),
        },
        Some(Aggregate::Max) => figures.iter().map(|(f, _)| *f).fold(figures[0].0, |a, b| {
            if b.value > a.value {
                b
            } else {
                a
            }
        }),
        Some(Aggregate::Min) => figures.iter().map(|(f, _)| *f).fold(figures[0].0, |a, b| {
            if b.value < a.value {
                b
            } else {
                a
            }
        }),
        Some(Aggregate::Count) => unreachable!("a count returned above"),
    };
    let shown = match (cell.aggregate, figure.of) {
        (None, None) => figures[0].1.clone(),
        (_, Some(of)) => format!("{} of {}", people(figure.value, 4), people(of, 4)),
        (_, None) => match figures.iter().find(|(f, _)| *f == figure) {
            Some((_, text)) if cell.aggregate != Some(Aggregate::Sum) => text.clone(),
            _ => people(figure.value, 4),
        },
    };
    Ok(Reading { figure, shown })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_parse() {
        assert_eq!(
            parse_figure("0 of 1020"),
            Some(Figure {
                value: 0.0,
                of: Some(1020.0)
            })
        );
        assert_eq!(parse_figure("2.14e-13").map(|f| f.value), Some(2.14e-13));
        assert_eq!(parse_figure("-"), None);
        assert_eq!(plain(2.14e-13), "2.14e-13");
        assert_eq!(plain(3.73), "3.73");
        assert_eq!(people(200000016.0, 4), "200,000,016");
        assert_eq!(people(1.99616858, 2), "2");
        assert!(matches("random-*", "random-8x8") && matches("!defaults", "x"));
    }
}
