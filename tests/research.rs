//! The pages that set Research-1433's and ADR-1412's claims beside the harness's figures
//! (`reports/research-1433`, `reports/adr-1412`, from `research/claims.toml`).
//!
//! Fails when a claim's cited cell (file, row or column) is missing from the committed CSVs,
//! when a committed verdict is not the one its rule gives for the figures it cites, when a
//! committed page is not what the committed reports regenerate byte for byte (but the line
//! naming the binary that wrote it), or when an answer's stated ordering does not hold. The rules are checked on hand-built figures, so
//! the verdict logic itself can fail. No harness figure is written here: every one is read
//! from a CSV. Tests run in the project root.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;
use std::process::Command;

use binade::experiment::research::cells::{self, plain, Figure};
use binade::experiment::research::render::{self, CLAIMS_CSV, CSV_HEADERS};
use binade::experiment::research::verdict::decide;
use binade::experiment::research::{evaluate, load, parse, Beyond, DocFigure, Rule, Verdict};

const REPORTS: &str = "reports";

/// The rows of a committed `claims.csv`, by claim id (each row as column name -> cell).
fn committed_rows(folder: &str) -> BTreeMap<String, BTreeMap<String, String>> {
    let path = Path::new(REPORTS).join(folder).join(CLAIMS_CSV);
    let mut rdr = csv::Reader::from_path(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (run `binade research --from-reports`)",
            path.display()
        )
    });
    let headers: Vec<String> = rdr.headers().unwrap().iter().map(str::to_string).collect();
    assert_eq!(headers, CSV_HEADERS, "{}: columns", path.display());
    rdr.records()
        .map(|r| {
            let r = r.unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let row: BTreeMap<String, String> = headers
                .iter()
                .cloned()
                .zip(r.iter().map(str::to_string))
                .collect();
            (row["id"].clone(), row)
        })
        .collect()
}

#[test]
fn every_cited_cell_exists_in_the_committed_csvs() {
    let data = load().expect("research/claims.toml");
    let mut missing = Vec::new();
    let reports = Path::new(REPORTS);
    for c in &data.claim {
        let cited = std::iter::once(&c.ours).chain(c.checks.iter().map(|k| &k.cell));
        for cell in cited {
            if let Err(e) = cells::read(reports, cell) {
                missing.push(format!("{} `{}`: {e:#}", c.document, c.id));
            }
        }
    }
    for q in &data.question {
        for qc in &q.cells {
            if let Err(e) = cells::read(reports, &qc.cell) {
                missing.push(format!("question `{}`, `{}`: {e:#}", q.id, qc.label));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "cited cells missing:\n{}",
        missing.join("\n")
    );
}

#[test]
fn committed_verdicts_follow_from_the_figures_they_cite() {
    let data = load().unwrap();
    for (key, doc) in &data.documents {
        let rows = committed_rows(&doc.folder);
        let ids: Vec<&str> = data.claims_of(key).map(|c| c.id.as_str()).collect();
        assert_eq!(
            rows.keys().map(String::as_str).collect::<Vec<_>>().len(),
            ids.len(),
            "{}: claims.csv has {} rows, the data file {} claims",
            doc.folder,
            rows.len(),
            ids.len()
        );
        for c in data.claims_of(key) {
            let row = rows
                .get(&c.id)
                .unwrap_or_else(|| panic!("{}: no row for claim `{}`", doc.folder, c.id));
            let ours = cells::read(Path::new(REPORTS), &c.ours)
                .unwrap_or_else(|e| panic!("claim `{}`: {e:#}", c.id));
            assert_eq!(
                row["harness figure"],
                plain(ours.figure.value),
                "claim `{}`: claims.csv's figure is not the cited cell's",
                c.id
            );
            let theirs = data.doc_figure(c).unwrap();
            assert_eq!(
                row["document figure"],
                plain(theirs.value),
                "claim `{}`: claims.csv's document figure is not the data file's",
                c.id
            );
            // The verdict recomputed from the two figures and the claim's checks.
            let checks_hold = c.checks.iter().all(|k| {
                let r = cells::read(Path::new(REPORTS), &k.cell).unwrap();
                k.equals.is_none_or(|v| r.figure.value == v) && (!k.all || r.figure.complete())
            });
            let want = if checks_hold {
                decide(&c.rule, &theirs, &ours.figure)
            } else {
                Verdict::Differs
            };
            let written = Verdict::parse(&row["verdict"])
                .unwrap_or_else(|| panic!("claim `{}`: verdict `{}`", c.id, row["verdict"]));
            assert_eq!(
                written,
                want,
                "claim `{}`: the committed verdict is not what its rule gives for {} against {}",
                c.id,
                ours.shown,
                plain(theirs.value)
            );
            let e = evaluate(&data, c, Path::new(REPORTS)).unwrap();
            assert_eq!(e.verdict, want, "claim `{}`", c.id);
        }
    }
}

/// A page without its line naming the binary that wrote it (`render::WRITTEN_BY`), which
/// changes with the binary's commit alone; every other byte must regenerate.
fn without_writer(page: &str) -> String {
    page.lines()
        .filter(|l| !l.starts_with(render::WRITTEN_BY))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn pages_regenerate_byte_for_byte_from_the_committed_reports() {
    let data = load().unwrap();
    for key in data.documents.keys() {
        let page = render::build(&data, key, Path::new(REPORTS)).unwrap();
        let dir = Path::new(REPORTS).join(&page.folder);
        let readme = fs::read_to_string(dir.join("README.md")).unwrap();
        assert!(
            without_writer(&readme) == without_writer(&page.readme),
            "{}/README.md is not what `binade research --from-reports` writes from the committed reports",
            dir.display()
        );
        let committed = fs::read_to_string(dir.join(CLAIMS_CSV)).unwrap();
        assert!(
            render::changes(Some(&committed), &page).is_empty(),
            "{}: claims.csv differs from the regenerated one",
            dir.display()
        );
        assert!(
            page.failed_answers().is_empty(),
            "{}: answers whose stated orderings do not hold: {:?}",
            page.folder,
            page.failed_answers()
        );
        let index = fs::read_to_string(Path::new(REPORTS).join("README.md")).unwrap();
        assert!(
            index.contains(&format!("[{0}]({0}/README.md)", page.folder)),
            "reports/README.md does not list {}",
            page.folder
        );
    }
}

#[test]
fn the_command_writes_the_committed_pages_and_reports_no_change() {
    let bin = binade::cli::binary_under_test(env!("CARGO_BIN_EXE_binade"));
    let out = tempfile::tempdir().unwrap();
    let run = |args: &[&str]| {
        Command::new(&bin)
            .args(args)
            .output()
            .expect("running binade")
    };
    let dir = out.path().to_str().unwrap();
    let first = run(&["research", "--from-reports", "--out", dir]);
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    assert!(String::from_utf8_lossy(&first.stdout).contains("no earlier version"));
    for folder in ["research-1433", "adr-1412"] {
        let a = fs::read_to_string(out.path().join(folder).join("README.md")).unwrap();
        let b = fs::read_to_string(Path::new(REPORTS).join(folder).join("README.md")).unwrap();
        assert!(
            without_writer(&a) == without_writer(&b),
            "{folder}: the command's README differs from the committed one"
        );
        let writer = format!("built from `{}`", binade::provenance::commit());
        assert!(
            a.lines()
                .any(|l| l.starts_with(render::WRITTEN_BY) && l.contains(&writer)),
            "{folder}: the command's README does not name the binary that wrote it ({writer})"
        );
    }
    let second = run(&["research", "--from-reports", "--out", dir]);
    assert!(second.status.success());
    assert!(
        String::from_utf8_lossy(&second.stdout).contains("no headline figure or verdict changed"),
        "{}",
        String::from_utf8_lossy(&second.stdout)
    );
    // A changed cell is reported by claim id.
    fs::write(
        out.path().join("adr-1412").join(CLAIMS_CSV),
        fs::read_to_string(out.path().join("adr-1412").join(CLAIMS_CSV))
            .unwrap()
            .replacen(",confirmed\n", ",differs\n", 1),
    )
    .unwrap();
    let third = run(&["research", "--from-reports", "--out", dir]);
    let text = String::from_utf8_lossy(&third.stdout);
    assert!(
        text.contains("changed since") && text.contains("adr-1412: "),
        "{text}"
    );
}

/// A reports folder holding one small CSV, for claims written here.
fn small_reports(csv_text: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir_all(dir.path().join("exp")).unwrap();
    fs::write(dir.path().join("exp/t.csv"), csv_text).unwrap();
    dir
}

const DOC: &str = r#"
[documents.d]
name = "D"
folder = "d"
title = "t"
subject = "s"
hardware = "h"
"#;

#[test]
fn a_missing_file_row_or_column_fails_naming_it() {
    let data = parse(
        &format!(
            "{DOC}
[[claim]]
document = \"d\"
id = \"c\"
claim = \"x\"
figure = 1.0
ours = {{ experiment = \"exp\", file = \"t.csv\", rows = {{ kind = \"a\" }}, column = \"ms\" }}
rule = {{ kind = \"within\", factor = 2.0 }}
why = \"w\"
"
        ),
        "test",
    )
    .unwrap();
    let c = &data.claim[0];
    let ok = small_reports("kind,ms\na,1.5\nb,9\n");
    assert_eq!(
        evaluate(&data, c, ok.path()).unwrap().verdict,
        Verdict::Confirmed
    );
    let no_col = small_reports("kind,seconds\na,1.5\n");
    let e = format!("{:#}", evaluate(&data, c, no_col.path()).unwrap_err());
    assert!(e.contains("t.csv") && e.contains("no column `ms`"), "{e}");
    let no_row = small_reports("kind,ms\nb,1.5\n");
    let e = format!("{:#}", evaluate(&data, c, no_row.path()).unwrap_err());
    assert!(e.contains("no row where") && e.contains("kind = a"), "{e}");
    let two = small_reports("kind,ms\na,1.5\na,2\n");
    let e = format!("{:#}", evaluate(&data, c, two.path()).unwrap_err());
    assert!(e.contains("2 rows"), "{e}");
    let empty = small_reports("kind,ms\na,\n");
    let e = format!("{:#}", evaluate(&data, c, empty.path()).unwrap_err());
    assert!(e.contains("not a figure"), "{e}");
    let none = tempfile::tempdir().unwrap();
    let e = format!("{:#}", evaluate(&data, c, none.path()).unwrap_err());
    assert!(e.contains("exp/t.csv"), "{e}");
}

#[test]
fn a_verdict_without_words_and_a_failed_check_are_caught() {
    let claim = |rule: &str, words: &str, checks: &str| {
        parse(
            &format!(
                "{DOC}
[[claim]]
document = \"d\"
id = \"c\"
claim = \"x\"
figure = 1.0
ours = {{ experiment = \"exp\", file = \"t.csv\", rows = {{ kind = \"a\" }}, column = \"ms\" }}
rule = {rule}
{words}
{checks}
"
            ),
            "test",
        )
        .unwrap()
    };
    let reports = small_reports("kind,ms,bad\na,5,1 of 2\n");
    let d = claim("{ kind = \"within\", factor = 2.0 }", "", "");
    let e = format!(
        "{:#}",
        evaluate(&d, &d.claim[0], reports.path()).unwrap_err()
    );
    assert!(e.contains("no `why`"), "{e}");
    let d = claim("{ kind = \"goes_further\", than = \"more\" }", "", "");
    let e = format!(
        "{:#}",
        evaluate(&d, &d.claim[0], reports.path()).unwrap_err()
    );
    assert!(e.contains("no `further`"), "{e}");
    let d = claim(
        "{ kind = \"goes_further\", than = \"more\" }",
        "further = \"f\"",
        "checks = [{ experiment = \"exp\", file = \"t.csv\", rows = { kind = \"a\" }, column = \"bad\", all = true }]",
    );
    let e = evaluate(&d, &d.claim[0], reports.path()).unwrap();
    assert_eq!(e.verdict, Verdict::Differs);
    assert!(
        e.reason().contains("bad") && e.reason().contains("1 of 2"),
        "{}",
        e.reason()
    );
    // An unknown rule or a claim of an unknown document is refused when the file is read.
    assert!(parse(&format!("{DOC}\n[[claim]]\ndocument = \"d\"\nid = \"c\"\nclaim = \"x\"\nfigure = 1.0\nours = {{ experiment = \"e\", file = \"f\", column = \"c\" }}\nrule = {{ kind = \"roughly\" }}\n"), "t").is_err());
    assert!(parse(&format!("{DOC}\n[[claim]]\ndocument = \"z\"\nid = \"c\"\nclaim = \"x\"\nfigure = 1.0\nours = {{ experiment = \"e\", file = \"f\", column = \"c\" }}\nrule = {{ kind = \"equal\" }}\n"), "t").is_err());
}

fn fig(value: f64) -> Figure {
    Figure { value, of: None }
}

fn part(value: f64, of: f64) -> Figure {
    Figure {
        value,
        of: Some(of),
    }
}

fn doc(value: f64) -> DocFigure {
    DocFigure {
        value,
        of: None,
        upto: None,
    }
}

#[test]
fn every_rule_gives_each_verdict_it_can() {
    use Verdict::*;
    let within = Rule::Within { factor: 2.0 };
    let cases: Vec<(Rule, DocFigure, Figure, Verdict)> = vec![
        (Rule::Equal, doc(0.0), fig(0.0), Confirmed),
        (Rule::Equal, doc(0.0), fig(1e-9), Differs),
        (within, doc(4.0), fig(2.0), Confirmed),
        (within, doc(4.0), fig(8.0), Confirmed),
        (within, doc(4.0), fig(1.9), Differs),
        (within, doc(4.0), fig(8.1), Differs),
        (within, doc(0.0), fig(0.0), Confirmed),
        (within, doc(0.0), fig(1.0), Differs),
        (within, doc(1.0), fig(-1.0), Differs),
        (Rule::AtMost, doc(3.0), fig(3.0), Confirmed),
        (Rule::AtMost, doc(3.0), fig(4.0), Differs),
        // Shares when both have totals: 1 of 10 is at most 8 of 40, 5 of 10 is not.
        (
            Rule::AtMost,
            DocFigure {
                value: 8.0,
                of: Some(40.0),
                upto: None,
            },
            part(1.0, 10.0),
            Confirmed,
        ),
        (
            Rule::AtMost,
            DocFigure {
                value: 8.0,
                of: Some(40.0),
                upto: None,
            },
            part(5.0, 10.0),
            Differs,
        ),
        (Rule::AtLeast, doc(3.0), fig(3.0), Confirmed),
        (Rule::AtLeast, doc(3.0), fig(2.0), Differs),
        (Rule::All, doc(1.0), part(7.0, 7.0), Confirmed),
        (Rule::All, doc(1.0), part(6.0, 7.0), Differs),
        (Rule::All, doc(1.0), fig(7.0), Differs),
        (
            Rule::InRange,
            DocFigure {
                value: 9.0,
                of: None,
                upto: Some(27.0),
            },
            fig(27.0),
            Confirmed,
        ),
        (
            Rule::InRange,
            DocFigure {
                value: 9.0,
                of: None,
                upto: Some(27.0),
            },
            fig(8.0),
            Differs,
        ),
        (
            Rule::InRange,
            DocFigure {
                value: 9.0,
                of: None,
                upto: Some(27.0),
            },
            fig(28.0),
            Differs,
        ),
        (
            Rule::GoesFurther { than: Beyond::More },
            doc(4.0),
            fig(5.0),
            GoesFurther,
        ),
        (
            Rule::GoesFurther { than: Beyond::More },
            doc(4.0),
            fig(4.0),
            Confirmed,
        ),
        (
            Rule::GoesFurther { than: Beyond::More },
            doc(4.0),
            fig(3.0),
            Differs,
        ),
        (
            Rule::GoesFurther { than: Beyond::Less },
            doc(4.0),
            fig(3.0),
            GoesFurther,
        ),
        (
            Rule::GoesFurther { than: Beyond::Less },
            doc(4.0),
            fig(5.0),
            Differs,
        ),
    ];
    for (rule, d, o, want) in cases {
        assert_eq!(
            decide(&rule, &d, &o),
            want,
            "{rule:?} for {d:?} against {o:?}"
        );
    }
    for v in [Confirmed, Differs, GoesFurther] {
        assert_eq!(Verdict::parse(v.as_str()), Some(v));
    }
}

#[test]
fn the_float_vif_replays_read_adr_1412_from_the_data_file() {
    // The committed replay's "ADR-1412" column for the four causes alone is the data file's.
    let path = Path::new(REPORTS).join("float-vif-replay/replay_summary.csv");
    let mut rdr = csv::Reader::from_path(&path).unwrap();
    let committed: BTreeMap<String, String> = rdr
        .records()
        .map(|r| {
            let r = r.unwrap();
            (r[0].to_string(), r[3].to_string())
        })
        .collect();
    let causes = binade::experiment::float_vif_replay::causes().unwrap();
    for (label, _, adr) in &causes {
        if [
            "decimal tap table",
            "device log2f",
            "statistic in fp32",
            "warp and block trees",
        ]
        .contains(label)
        {
            assert_eq!(
                committed.get(*label),
                Some(adr),
                "{}: {label}",
                path.display()
            );
        }
    }
}
