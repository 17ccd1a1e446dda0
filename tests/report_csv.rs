//! Every committed CSV under `reports/` holds plain numbers: no thousands separators, no `%`
//! or `x` inside a cell (the unit is in the column's name), nothing a spreadsheet or pandas
//! would read as text. The README tables beside them keep the formatting for people.
//!
//! `cargo test --release --test report_csv -- --ignored` rewrites the committed CSVs into
//! that form (`binade::report::csv_form`, the same conversion the report writer applies), a
//! faithful change of notation that keeps every value.

use std::fs;
use std::path::{Path, PathBuf};

/// Every `*.csv` under `dir`, sorted.
fn csv_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = fs::read_dir(dir) else {
        return out;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(csv_files(&path));
        } else if path.extension().and_then(|e| e.to_str()) == Some("csv") {
            out.push(path);
        }
    }
    out.sort();
    out
}

/// (headers, rows) of a CSV file.
fn read(path: &Path) -> (Vec<String>, Vec<Vec<String>>) {
    let mut r = csv::Reader::from_path(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let headers = r
        .headers()
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .iter()
        .map(str::to_string)
        .collect();
    let rows = r
        .records()
        .map(|rec| {
            rec.unwrap_or_else(|e| panic!("{}: {e}", path.display()))
                .iter()
                .map(str::to_string)
                .collect()
        })
        .collect();
    (headers, rows)
}

#[test]
fn committed_csvs_hold_plain_numbers() {
    let files = csv_files(Path::new("reports"));
    assert!(
        !files.is_empty(),
        "no CSV under reports/ (tests run in the project root)"
    );
    let mut bad = Vec::new();
    for path in &files {
        let (headers, rows) = read(path);
        let (plain_headers, plain_rows) = binade::report::csv_form(&headers, &rows);
        for (col, name) in headers.iter().enumerate() {
            if plain_headers[col] != *name {
                bad.push(format!(
                    "{}: column `{name}` holds formatted figures (as `{}`)",
                    path.display(),
                    plain_headers[col]
                ));
            }
            let formatted = rows
                .iter()
                .zip(&plain_rows)
                .find(|(r, p)| r.get(col) != p.get(col));
            if let Some((r, p)) = formatted {
                bad.push(format!(
                    "{}: column `{name}`: cell `{}` is formatted for people (plain: `{}`)",
                    path.display(),
                    r[col],
                    p[col]
                ));
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
#[ignore = "rewrites the committed CSVs; run on purpose"]
fn convert_committed_csvs() {
    for path in csv_files(Path::new("reports")) {
        let (headers, rows) = read(&path);
        let (headers, rows) = binade::report::csv_form(&headers, &rows);
        let tmp = path.with_extension("csv.tmp");
        let mut w = csv::Writer::from_path(&tmp).unwrap();
        w.write_record(&headers).unwrap();
        for row in &rows {
            w.write_record(row).unwrap();
        }
        w.flush().unwrap();
        drop(w);
        fs::rename(&tmp, &path).unwrap();
    }
}
