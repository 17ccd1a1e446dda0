//! Figures for reports, drawn to PNG with `plotters`: grouped bars, lines (log-log or
//! linear) and labelled heatmaps.
//!
//! Every figure has a title, axis titles (with units, from the caller), tick labels as plain
//! numbers (`1e5` beyond four digits) or `10^k` on log axes, its legend beside the plot, and a
//! visible `0` where a bar's value is zero (also on log axes). Red is kept for failures: a
//! series whose name says `mismatch`, `fail` or `wrong` is red, and no other series is red or
//! green.
//!
//! Text needs a TrueType font: `BINADE_FONT`, else DejaVu Sans from the usual system places
//! (`fonts-dejavu-core`, or the copy matplotlib ships). Without one, drawing fails with an
//! error that says so; it never writes a figure without its labels.

use std::path::Path;
use std::sync::OnceLock;

use anyhow::{anyhow, bail, Result};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
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
        /// Title of the x axis (what the categories are).
        x_label: String,
        /// Title of the y axis, with its unit.
        y_label: String,
        /// Logarithmic y axis. On either axis a value of 0 is marked `0` at the floor, and NaN
        /// (no figure, e.g. no difference to show) is marked `none`.
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

/// Series colours: no red and no green, so that no series reads as pass or fail.
const PALETTE: [RGBColor; 8] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
];

/// The colour of failures.
const FAILURE: RGBColor = RGBColor(214, 39, 40);

/// True for a series that counts failures (drawn in [`FAILURE`] red).
pub fn is_failure_series(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    ["mismatch", "fail", "wrong"].iter().any(|w| n.contains(w))
}

/// The colours of `names`, in order: red for failure series, the palette for the others.
fn colours(names: &[&str]) -> Vec<RGBColor> {
    let mut next = 0;
    names
        .iter()
        .map(|n| {
            if is_failure_series(n) {
                FAILURE
            } else {
                next += 1;
                PALETTE[(next - 1) % PALETTE.len()]
            }
        })
        .collect()
}

/// A tick label on a log axis: `10^k` (with superscript digits) at powers of ten, nothing
/// between them.
pub fn log_tick(v: f64) -> String {
    if v <= 0.0 || !v.is_finite() {
        return String::new();
    }
    let k = v.log10();
    if (k - k.round()).abs() > 1e-9 {
        return String::new();
    }
    let sup: String = format!("{}", k.round() as i64)
        .chars()
        .map(|c| match c {
            '-' => '\u{207b}',
            '0' => '\u{2070}',
            '1' => '\u{00b9}',
            '2' => '\u{00b2}',
            '3' => '\u{00b3}',
            d => char::from_u32(0x2070 + d.to_digit(10).unwrap_or(0)).unwrap_or(d),
        })
        .collect();
    format!("10{sup}")
}

/// A tick label on a linear axis: `0`, `8000`, `0.25`, `3e5`, `2.5e-4` (no trailing zeros).
pub fn linear_tick(v: f64) -> String {
    if v == 0.0 || !v.is_finite() {
        return "0".into();
    }
    let a = v.abs();
    if !(1e-3..1e5).contains(&a) {
        let e = a.log10().floor() as i32;
        let m = v / 10f64.powi(e);
        let m = trim_zeros(&format!("{m:.2}"));
        return format!("{m}e{e}");
    }
    trim_zeros(&format!("{v:.3}"))
}

fn trim_zeros(s: &str) -> String {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s.to_string()
    }
}

/// The log axis range of bars of positive values `lo..=hi`: from half the power of ten at or
/// below `lo` (the bars' floor) to a little above `hi`.
fn log_range(lo: f64, hi: f64) -> (f64, f64) {
    let bottom = 10f64.powf(lo.log10().floor()) * 0.5;
    (bottom, (hi * 1.5).max(bottom * 10.0))
}

/// Draws a legend (a swatch or a line, then the name) in `area`, top to bottom.
fn legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    entries: &[(&str, RGBColor)],
    lines: bool,
) -> Result<()> {
    let font = ("sans-serif", 14).into_font();
    for (i, (name, c)) in entries.iter().enumerate() {
        let y = 60 + 24 * i as i32;
        if lines {
            area.draw(&PathElement::new(vec![(8, y), (30, y)], c.stroke_width(3)))
                .map_err(err)?;
        } else {
            area.draw(&Rectangle::new([(8, y - 7), (26, y + 7)], c.filled()))
                .map_err(err)?;
        }
        area.draw(&Text::new(name.to_string(), (38, y - 8), font.clone()))
            .map_err(err)?;
    }
    Ok(())
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
                x_label,
                y_label,
                log_y,
            } => self.bars(path, categories, series, (x_label, y_label), *log_y),
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
        (x_label, y_label): (&str, &str),
        log_y: bool,
    ) -> Result<()> {
        if cats.is_empty() || series.is_empty() {
            bail!("bar chart `{}` has no data", self.stem);
        }
        let legend_w = 300u32;
        let width = (cats.len() as u32 * 120 + 160 + legend_w).clamp(900, 3000);
        let root = BitMapBackend::new(path, (width, 660)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let root = root
            .margin(8, 0, 0, 0)
            .titled(&self.title, ("sans-serif", 22))
            .map_err(err)?;
        let (area, legend_area) = root.split_horizontally(width - legend_w);
        let positive: Vec<f64> = series
            .iter()
            .flat_map(|(_, v)| v.iter().copied())
            .filter(|v| *v > 0.0 && v.is_finite())
            .collect();
        let max = positive.iter().copied().fold(0.0f64, f64::max);
        let n = cats.len() as f64;
        let group = 0.8 / series.len() as f64;
        let names: Vec<&str> = series.iter().map(|(n, _)| n.as_str()).collect();
        let cols = colours(&names);
        let cat_label = |x: &f64| {
            let i = (*x - 0.5).round();
            if (x - 0.5 - i).abs() < 1e-6 && i >= 0.0 && (i as usize) < cats.len() {
                cats[i as usize].clone()
            } else {
                String::new()
            }
        };
        let mut builder = ChartBuilder::on(&area);
        builder
            .margin(12)
            .x_label_area_size(56)
            .y_label_area_size(90);
        macro_rules! finish {
            ($chart:expr, $floor:expr, $zero_at:expr, $tick:expr) => {{
                let mut chart = $chart;
                chart
                    .configure_mesh()
                    .disable_x_mesh()
                    .x_labels(cats.len() * 2 + 1)
                    .x_label_formatter(&cat_label)
                    .x_label_style(("sans-serif", 12))
                    .y_label_formatter(&$tick)
                    .y_label_style(("sans-serif", 13))
                    .x_desc(x_label)
                    .y_desc(y_label)
                    .axis_desc_style(("sans-serif", 15))
                    .draw()
                    .map_err(err)?;
                for (j, (_, values)) in series.iter().enumerate() {
                    let c = cols[j];
                    chart
                        .draw_series(values.iter().enumerate().filter(|(_, v)| **v > 0.0).map(
                            |(i, &v)| {
                                let x0 = i as f64 + 0.1 + j as f64 * group;
                                Rectangle::new([(x0, $floor), (x0 + group, v)], c.filled())
                            },
                        ))
                        .map_err(err)?;
                    // A zero would be no bar at all: mark it (grey for a failure series: nothing
                    // failed); NaN (no figure) says `none`.
                    let mark = if c == FAILURE {
                        RGBColor(90, 90, 90)
                    } else {
                        c
                    };
                    chart
                        .draw_series(
                            values
                                .iter()
                                .enumerate()
                                .filter(|(_, v)| v.is_nan() || **v <= 0.0)
                                .map(|(i, v)| {
                                    let x = i as f64 + 0.1 + (j as f64 + 0.5) * group;
                                    Text::new(
                                        if v.is_nan() { "none" } else { "0" }.to_string(),
                                        (x, $zero_at),
                                        ("sans-serif", 13)
                                            .into_font()
                                            .color(&mark)
                                            .pos(Pos::new(HPos::Center, VPos::Bottom)),
                                    )
                                }),
                        )
                        .map_err(err)?;
                }
            }};
        }
        if log_y {
            let lo = positive.iter().copied().fold(f64::MAX, f64::min);
            let (bottom, top) = if positive.is_empty() {
                (0.5, 10.0)
            } else {
                log_range(lo, max)
            };
            let chart = builder
                .build_cartesian_2d(0.0..n, (bottom..top).log_scale())
                .map_err(err)?;
            let zero_at = bottom * (top / bottom).powf(0.01);
            finish!(chart, bottom, zero_at, |v: &f64| log_tick(*v));
        } else {
            let top = if max > 0.0 { max * 1.1 } else { 1.0 };
            let chart = builder.build_cartesian_2d(0.0..n, 0.0..top).map_err(err)?;
            finish!(chart, 0.0, top * 0.01, |v: &f64| linear_tick(*v));
        }
        let entries: Vec<(&str, RGBColor)> = names.iter().copied().zip(cols).collect();
        legend(&legend_area, &entries, false)?;
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
        let legend_w = 260u32;
        let width = 1000 + legend_w;
        let root = BitMapBackend::new(path, (width, 700)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let root = root
            .margin(8, 0, 0, 0)
            .titled(&self.title, ("sans-serif", 22))
            .map_err(err)?;
        let (area, legend_area) = root.split_horizontally(width - legend_w);
        let names: Vec<&str> = series.iter().map(|(n, _)| n.as_str()).collect();
        let cols = colours(&names);
        let mut builder = ChartBuilder::on(&area);
        builder
            .margin(12)
            .x_label_area_size(56)
            .y_label_area_size(90);
        macro_rules! finish {
            ($chart:expr, $tick:expr) => {{
                let mut chart = $chart;
                chart
                    .configure_mesh()
                    .x_desc(x_label)
                    .y_desc(y_label)
                    .x_label_formatter(&$tick)
                    .y_label_formatter(&$tick)
                    .x_label_style(("sans-serif", 13))
                    .y_label_style(("sans-serif", 13))
                    .axis_desc_style(("sans-serif", 15))
                    .draw()
                    .map_err(err)?;
                for (j, (_, p)) in series.iter().enumerate() {
                    let c = cols[j];
                    let p: Vec<(f64, f64)> = p
                        .iter()
                        .copied()
                        .filter(|(x, y)| !log || (*x > 0.0 && *y > 0.0))
                        .collect();
                    chart
                        .draw_series(LineSeries::new(p.clone(), c.stroke_width(2)))
                        .map_err(err)?;
                    chart
                        .draw_series(p.iter().map(|&q| Circle::new(q, 3, c.filled())))
                        .map_err(err)?;
                }
            }};
        }
        if log {
            let chart = builder
                .build_cartesian_2d(
                    (x0 / 1.5..x1 * 1.5).log_scale(),
                    (y0 / 2.0..y1 * 2.0).log_scale(),
                )
                .map_err(err)?;
            finish!(chart, |v: &f64| log_tick(*v));
        } else {
            let pad = ((y1 - y0) * 0.05).max(1e-12);
            let chart = builder
                .build_cartesian_2d(x0..x1.max(x0 + 1e-12), y0 - pad..y1 + pad)
                .map_err(err)?;
            finish!(chart, |v: &f64| linear_tick(*v));
        }
        let entries: Vec<(&str, RGBColor)> = names.iter().copied().zip(cols).collect();
        legend(&legend_area, &entries, true)?;
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
                x_label: String::new(),
                y_label: String::new(),
                log_y: false,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_read_as_numbers() {
        assert_eq!(log_tick(1e5), "10\u{2075}");
        assert_eq!(log_tick(1.0), "10\u{2070}");
        assert_eq!(log_tick(0.01), "10\u{207b}\u{00b2}");
        assert_eq!(log_tick(2e5), "");
        assert_eq!(linear_tick(100000.0), "1e5");
        assert_eq!(linear_tick(250000.0), "2.5e5");
        assert_eq!(linear_tick(8000.0), "8000");
        assert_eq!(linear_tick(0.25), "0.25");
        assert_eq!(linear_tick(0.0), "0");
        assert_eq!(linear_tick(0.00025), "2.5e-4");
    }

    #[test]
    fn red_only_for_failures() {
        let c = colours(&[
            "applied",
            "refused",
            "mismatches",
            "x",
            "y",
            "z",
            "w",
            "v",
            "u",
        ]);
        assert_eq!(c[2], FAILURE);
        for (i, colour) in c.iter().enumerate().filter(|(i, _)| *i != 2) {
            let RGBColor(r, g, b) = *colour;
            let reddish = r > 180 && g < 90 && b < 90;
            let greenish = g > 140 && r < 100 && b < 100;
            assert!(!reddish && !greenish, "series {i}: {colour:?}");
        }
    }
}
