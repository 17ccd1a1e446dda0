//! Figures for reports, drawn to PNG with `plotters`: grouped bars, lines (log-log or
//! linear) and labelled heatmaps.
//!
//! Text needs a TrueType font: `BINADE_FONT`, else DejaVu Sans from the usual system places
//! (`fonts-dejavu-core`, or the copy matplotlib ships). Without one, drawing fails with an
//! error that says so; it never writes a figure without its labels.

use std::path::Path;
use std::sync::OnceLock;

use anyhow::{anyhow, bail, Result};
use plotters::prelude::*;
use plotters::style::{register_font, FontStyle};

/// A figure: its file stem, title, and what to draw.
#[derive(Clone, Debug)]
pub struct Plot {
    /// File stem (`fallback` gives `fallback.png`).
    pub stem: String,
    /// Caption above the figure.
    pub title: String,
    /// What to draw.
    pub kind: PlotKind,
}

/// The kinds of figure a report can hold.
#[derive(Clone, Debug)]
pub enum PlotKind {
    /// Grouped bars: one group per category, one bar per series.
    Bars {
        /// Category names along x.
        categories: Vec<String>,
        /// (series name, one value per category).
        series: Vec<(String, Vec<f64>)>,
        /// Label of the y axis.
        y_label: String,
        /// Logarithmic y axis (values <= 0 are drawn at the axis floor).
        log_y: bool,
    },
    /// Lines with points: (series name, points).
    Lines {
        /// (series name, (x, y) points).
        series: Vec<(String, Vec<(f64, f64)>)>,
        /// Label of the x axis.
        x_label: String,
        /// Label of the y axis.
        y_label: String,
        /// Logarithmic axes.
        log: bool,
    },
    /// A grid of labelled cells coloured by a value in [0, 1] (None: grey).
    Heatmap {
        /// Row names (top to bottom).
        rows: Vec<String>,
        /// Column names (left to right).
        cols: Vec<String>,
        /// Colour value per cell, row-major.
        values: Vec<Vec<Option<f64>>>,
        /// Text per cell, row-major.
        labels: Vec<Vec<String>>,
    },
}

static FONT: OnceLock<Result<(), String>> = OnceLock::new();

const FONT_PLACES: [&str; 4] = [
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/TTF/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans.ttf",
    "/opt/torch/.venv/lib/python3.12/site-packages/matplotlib/mpl-data/fonts/ttf/DejaVuSans.ttf",
];

/// Registers the report font once; returns an error naming the places searched.
pub fn ensure_font() -> Result<()> {
    FONT.get_or_init(|| {
        let mut places: Vec<String> = std::env::var("BINADE_FONT").into_iter().collect();
        places.extend(FONT_PLACES.iter().map(|s| s.to_string()));
        for p in &places {
            if let Ok(bytes) = std::fs::read(p) {
                let leaked: &'static [u8] = Box::leak(bytes.into_boxed_slice());
                if register_font("sans-serif", FontStyle::Normal, leaked).is_ok() {
                    return Ok(());
                }
            }
        }
        Err(format!(
            "no TrueType font for the plots: install fonts-dejavu-core (apt-get install fonts-dejavu-core) or set BINADE_FONT; looked in {}",
            places.join(", ")
        ))
    })
    .clone()
    .map_err(|e| anyhow!(e))
}

const PALETTE: [RGBColor; 8] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
];

fn color(i: usize) -> RGBColor {
    PALETTE[i % PALETTE.len()]
}

fn err<E: std::fmt::Debug>(e: E) -> anyhow::Error {
    anyhow!("plotting: {e:?}")
}

impl Plot {
    /// Draws the figure to `path` (PNG).
    pub fn draw(&self, path: &Path) -> Result<()> {
        ensure_font()?;
        match &self.kind {
            PlotKind::Bars {
                categories,
                series,
                y_label,
                log_y,
            } => self.bars(path, categories, series, y_label, *log_y),
            PlotKind::Lines {
                series,
                x_label,
                y_label,
                log,
            } => self.lines(path, series, x_label, y_label, *log),
            PlotKind::Heatmap {
                rows,
                cols,
                values,
                labels,
            } => self.heatmap(path, rows, cols, values, labels),
        }
    }

    fn bars(
        &self,
        path: &Path,
        cats: &[String],
        series: &[(String, Vec<f64>)],
        y_label: &str,
        log_y: bool,
    ) -> Result<()> {
        if cats.is_empty() || series.is_empty() {
            bail!("bar chart `{}` has no data", self.stem);
        }
        let width = (cats.len() as u32 * 120 + 160).clamp(900, 3000);
        let root = BitMapBackend::new(path, (width, 640)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let max = series
            .iter()
            .flat_map(|(_, v)| v.iter().copied())
            .fold(0.0f64, f64::max)
            .max(1e-9);
        let n = cats.len() as f64;
        let group = 0.8 / series.len() as f64;
        let cat_label = |x: &f64| {
            let i = (*x - 0.5).round();
            if (x - 0.5 - i).abs() < 1e-6 && i >= 0.0 && (i as usize) < cats.len() {
                cats[i as usize].clone()
            } else {
                String::new()
            }
        };
        let mut builder = ChartBuilder::on(&root);
        builder
            .caption(&self.title, ("sans-serif", 22))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(80);
        macro_rules! finish {
            ($chart:expr, $floor:expr) => {{
                let mut chart = $chart;
                chart
                    .configure_mesh()
                    .disable_x_mesh()
                    .x_labels(cats.len() * 2 + 1)
                    .x_label_formatter(&cat_label)
                    .x_label_style(("sans-serif", 12))
                    .y_desc(y_label)
                    .draw()
                    .map_err(err)?;
                for (j, (name, values)) in series.iter().enumerate() {
                    let c = color(j);
                    chart
                        .draw_series(values.iter().enumerate().map(|(i, &v)| {
                            let x0 = i as f64 + 0.1 + j as f64 * group;
                            Rectangle::new([(x0, $floor), (x0 + group, v.max($floor))], c.filled())
                        }))
                        .map_err(err)?
                        .label(name.as_str())
                        .legend(move |(x, y)| {
                            Rectangle::new([(x, y - 5), (x + 12, y + 5)], c.filled())
                        });
                }
                chart
                    .configure_series_labels()
                    .position(SeriesLabelPosition::UpperRight)
                    .background_style(WHITE.mix(0.85))
                    .border_style(BLACK)
                    .label_font(("sans-serif", 13))
                    .draw()
                    .map_err(err)?;
            }};
        }
        if log_y {
            let floor = 0.5;
            let chart = builder
                .build_cartesian_2d(0.0..n, (floor..max * 40.0).log_scale())
                .map_err(err)?;
            finish!(chart, floor);
        } else {
            let chart = builder
                .build_cartesian_2d(0.0..n, 0.0..max * 1.1)
                .map_err(err)?;
            finish!(chart, 0.0);
        }
        root.present().map_err(err)?;
        Ok(())
    }

    fn lines(
        &self,
        path: &Path,
        series: &[(String, Vec<(f64, f64)>)],
        x_label: &str,
        y_label: &str,
        log: bool,
    ) -> Result<()> {
        let pts: Vec<(f64, f64)> = series
            .iter()
            .flat_map(|(_, p)| p.iter().copied())
            .filter(|(x, y)| !log || (*x > 0.0 && *y > 0.0))
            .collect();
        if pts.is_empty() {
            bail!("line chart `{}` has no data", self.stem);
        }
        let (x0, x1) = pts
            .iter()
            .fold((f64::MAX, f64::MIN), |(a, b), p| (a.min(p.0), b.max(p.0)));
        let (y0, y1) = pts
            .iter()
            .fold((f64::MAX, f64::MIN), |(a, b), p| (a.min(p.1), b.max(p.1)));
        let root = BitMapBackend::new(path, (1000, 680)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let mut builder = ChartBuilder::on(&root);
        builder
            .caption(&self.title, ("sans-serif", 22))
            .margin(12)
            .x_label_area_size(50)
            .y_label_area_size(80);
        macro_rules! finish {
            ($chart:expr) => {{
                let mut chart = $chart;
                chart
                    .configure_mesh()
                    .x_desc(x_label)
                    .y_desc(y_label)
                    .draw()
                    .map_err(err)?;
                for (j, (name, p)) in series.iter().enumerate() {
                    let c = color(j);
                    let p: Vec<(f64, f64)> = p
                        .iter()
                        .copied()
                        .filter(|(x, y)| !log || (*x > 0.0 && *y > 0.0))
                        .collect();
                    chart
                        .draw_series(LineSeries::new(p.clone(), c.stroke_width(2)))
                        .map_err(err)?
                        .label(name.as_str())
                        .legend(move |(x, y)| {
                            PathElement::new(vec![(x, y), (x + 16, y)], c.stroke_width(2))
                        });
                    chart
                        .draw_series(p.iter().map(|&q| Circle::new(q, 3, c.filled())))
                        .map_err(err)?;
                }
                chart
                    .configure_series_labels()
                    .position(SeriesLabelPosition::UpperLeft)
                    .background_style(WHITE.mix(0.85))
                    .border_style(BLACK)
                    .label_font(("sans-serif", 13))
                    .draw()
                    .map_err(err)?;
            }};
        }
        if log {
            let chart = builder
                .build_cartesian_2d(
                    (x0 / 1.5..x1 * 1.5).log_scale(),
                    (y0 / 2.0..y1 * 2.0).log_scale(),
                )
                .map_err(err)?;
            finish!(chart);
        } else {
            let pad = ((y1 - y0) * 0.05).max(1e-12);
            let chart = builder
                .build_cartesian_2d(x0..x1.max(x0 + 1e-12), y0 - pad..y1 + pad)
                .map_err(err)?;
            finish!(chart);
        }
        root.present().map_err(err)?;
        Ok(())
    }

    fn heatmap(
        &self,
        path: &Path,
        rows: &[String],
        cols: &[String],
        values: &[Vec<Option<f64>>],
        labels: &[Vec<String>],
    ) -> Result<()> {
        if rows.is_empty() || cols.is_empty() {
            bail!("heatmap `{}` has no cells", self.stem);
        }
        let cell_w = 150u32;
        let cell_h = 34u32;
        let width = 260 + cell_w * cols.len() as u32;
        let height = 200 + cell_h * rows.len() as u32;
        let root = BitMapBackend::new(path, (width, height)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let (nr, nc) = (rows.len() as f64, cols.len() as f64);
        let mut chart = ChartBuilder::on(&root)
            .caption(&self.title, ("sans-serif", 20))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(240)
            .build_cartesian_2d(0.0..nc, 0.0..nr)
            .map_err(err)?;
        // Labels sit at cell centres (x.5); the mesh asks for labels every half unit.
        let centre = |v: f64, names: &[String], flip: bool| {
            let i = (v - 0.5).round();
            if (v - 0.5 - i).abs() > 1e-6 || i < 0.0 || i as usize >= names.len() {
                return String::new();
            }
            let k = if flip {
                names.len() - 1 - i as usize
            } else {
                i as usize
            };
            names[k].clone()
        };
        let col_label = |x: &f64| centre(*x, cols, false);
        let row_label = |y: &f64| centre(*y, rows, true);
        chart
            .configure_mesh()
            .disable_mesh()
            .x_labels(cols.len() * 2 + 1)
            .y_labels(rows.len() * 2 + 1)
            .x_label_formatter(&col_label)
            .y_label_formatter(&row_label)
            .x_label_style(("sans-serif", 11))
            .y_label_style(("sans-serif", 13))
            .draw()
            .map_err(err)?;
        for (r, row) in values.iter().enumerate() {
            for (c, v) in row.iter().enumerate() {
                let y = nr - 1.0 - r as f64;
                let x = c as f64;
                let fill = match v {
                    Some(t) => {
                        let t = t.clamp(0.0, 1.0);
                        if t >= 0.5 {
                            let k = (t - 0.5) * 2.0; // amber to green
                            RGBColor(
                                (240.0 - 190.0 * k) as u8,
                                (190.0 + 10.0 * k) as u8,
                                (80.0 + 20.0 * k) as u8,
                            )
                        } else {
                            let k = t * 2.0; // red to amber
                            RGBColor((220.0 + 20.0 * k) as u8, (70.0 + 120.0 * k) as u8, 80)
                        }
                    }
                    None => RGBColor(200, 200, 200),
                };
                chart
                    .draw_series(std::iter::once(Rectangle::new(
                        [(x + 0.02, y + 0.04), (x + 0.98, y + 0.96)],
                        fill.filled(),
                    )))
                    .map_err(err)?;
                let text = labels
                    .get(r)
                    .and_then(|l| l.get(c))
                    .cloned()
                    .unwrap_or_default();
                chart
                    .draw_series(std::iter::once(Text::new(
                        text,
                        (x + 0.06, y + 0.7),
                        ("sans-serif", 12).into_font(),
                    )))
                    .map_err(err)?;
            }
        }
        root.present().map_err(err)?;
        Ok(())
    }

    /// A plot whose drawing always fails (for tests of the report writer).
    #[doc(hidden)]
    pub fn failing_for_tests() -> Plot {
        Plot {
            stem: "broken".into(),
            title: "broken".into(),
            kind: PlotKind::Bars {
                categories: vec![],
                series: vec![],
                y_label: String::new(),
                log_y: false,
            },
        }
    }
}
