//! Figures draw with their titles, axis titles and legends, zeros and missing figures marked,
//! on linear and log axes. `BINADE_PLOT_OUT=DIR` keeps the drawn PNGs in DIR to look at.

use binade::plot::{Plot, PlotKind};

fn out_dir() -> (std::path::PathBuf, Option<tempfile::TempDir>) {
    match std::env::var_os("BINADE_PLOT_OUT") {
        Some(d) => {
            std::fs::create_dir_all(&d).unwrap();
            (d.into(), None)
        }
        None => {
            let t = tempfile::tempdir().unwrap();
            (t.path().to_path_buf(), Some(t))
        }
    }
}

#[test]
fn bars_and_lines_draw() {
    // A missing font fails the test: a skip would read as a pass.
    binade::plot::ensure_font().expect("a TrueType font for the plots (`.ci/setup` installs fonts-dejavu-core; or set BINADE_FONT)");
    let (dir, _keep) = out_dir();
    let cats: Vec<String> = ["a", "b", "c"].iter().map(|s| s.to_string()).collect();
    for log_y in [false, true] {
        let plot = Plot {
            stem: format!("bars-{log_y}"),
            title: "Bars with a zero and a missing figure".into(),
            kind: PlotKind::Bars {
                categories: cats.clone(),
                series: vec![
                    ("counted".into(), vec![8100.0, 13.0, 0.0]),
                    ("other".into(), vec![1.0, f64::NAN, 250000.0]),
                    ("mismatches".into(), vec![0.0, 0.0, 0.0]),
                ],
                x_label: "category".into(),
                y_label: "count".into(),
                log_y,
            },
        };
        let path = dir.join(format!("bars-{log_y}.png"));
        plot.draw(&path).unwrap();
        assert!(std::fs::metadata(&path).unwrap().len() > 1000);
    }
    let n = [1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1.07e9];
    let plot = Plot {
        stem: "lines".into(),
        title: "Time of one sum vs number of terms".into(),
        kind: PlotKind::Lines {
            series: vec![
                (
                    "exact".into(),
                    n.iter().map(|&x| (x, 0.02 + x * 4e-9)).collect(),
                ),
                (
                    "tree".into(),
                    n.iter().map(|&x| (x, 0.008 + x * 1.8e-9)).collect(),
                ),
            ],
            x_label: "terms".into(),
            y_label: "ms".into(),
            log: true,
        },
    };
    let path = dir.join("lines.png");
    plot.draw(&path).unwrap();
    assert!(std::fs::metadata(&path).unwrap().len() > 1000);
}
