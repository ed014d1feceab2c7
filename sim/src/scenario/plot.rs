//! SVG plots:
//!
//! - per-process distributions, as the PFT paper's Figs 3-4: the number of processes per
//!   equal-width interval of mean latency or bandwidth, one outline per run;
//! - `c` over time at the watched NICs, with the PFT thresholds as dashed lines;
//! - lines through points, and F_C per sweep point as bars;
//! - the sweep's F_C heat map.
//!
//! The charts with axes use plotters' SVG backend (no font files: text is laid out with
//! plotters' built-in estimate and drawn as SVG `<text>`). Their legend has a column of its
//! own right of the chart, which widens the image, so it never covers data. The heat map
//! is written by hand: each cell label is sized to its cell (`heatmap_svg`).

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::fmt::Write as _;

/// Size of a chart without its legend column, and of the heat map.
const SIZE: (u32, u32) = (960, 540);
const FONT: &str = "sans-serif";
/// Width of a character as a share of the font size: an upper estimate for digits and most
/// letters of a sans-serif font (SVG viewers measure the text themselves).
const CHAR_W: f64 = 0.6;
/// plotters writes a font of size s as SVG `font-size` s / 1.24.
const PLOTTERS_FONT_SCALE: f64 = 1.24;

fn err<E: std::fmt::Display>(e: E) -> anyhow::Error {
    anyhow::anyhow!("plot: {e}")
}

/// Estimated width of `s` at SVG font size `font`, px.
fn text_w(s: &str, font: f64) -> f64 {
    CHAR_W * font * s.chars().count() as f64
}

/// `s` cut to at most `max` characters in the middle, an ellipsis marking the cut: both
/// ends stay, as the values of a sweep axis often differ only at their end.
fn ellipsize(s: &str, max: usize) -> String {
    let n = s.chars().count();
    if n <= max {
        return s.to_string();
    }
    let keep = max.saturating_sub(1);
    let head = keep.div_ceil(2);
    let mut t: String = s.chars().take(head).collect();
    t.push('…');
    t.extend(s.chars().skip(n - (keep - head)));
    t
}

/// `x` with about three significant digits, for axis labels.
fn short_num(x: f64) -> String {
    let a = x.abs();
    if a == 0.0 || !a.is_finite() {
        return format!("{x}");
    }
    if !(1e-3..1e5).contains(&a) {
        return format!("{x:.2e}");
    }
    let decimals = (2 - a.log10().floor() as i32).max(0) as usize;
    format!("{x:.decimals$}")
}

/// The unit of a description such as `mean latency (cycles)`: the text in its last
/// parentheses.
fn unit_of(desc: &str) -> Option<&str> {
    let open = desc.rfind('(')?;
    let close = desc[open..].find(')')? + open;
    Some(desc[open + 1..close].trim()).filter(|u| !u.is_empty())
}

// ---- legends -------------------------------------------------------------------------

/// How a legend entry shows its series.
#[derive(Clone, Copy)]
enum Mark {
    Line {
        color: RGBAColor,
        width: u32,
        dashed: bool,
        dot: bool,
    },
    Dot(RGBAColor),
    Bar(RGBAColor),
}

fn line(color: RGBAColor, width: u32) -> Mark {
    Mark::Line {
        color,
        width,
        dashed: false,
        dot: false,
    }
}

fn dashed(color: RGBAColor) -> Mark {
    Mark::Line {
        color,
        width: 1,
        dashed: true,
        dot: false,
    }
}

/// A legend in a column right of the chart: the image is widened by `width` and made taller
/// when the entries need it, so the plotting area keeps its size and no entry covers data.
struct Legend {
    entries: Vec<(String, Mark)>,
}

/// plotters size of the legend text.
const LEGEND_FONT: f64 = 14.0;
const LEGEND_ROW: i32 = 18;
/// Top of the legend box: level with the top of the plotting area, below the caption.
const LEGEND_TOP: i32 = 45;
/// Longest entry text, px; longer names are cut.
const LEGEND_TEXT_MAX: f64 = 300.0;
/// Gap, padding and sample widths of the column, px.
const LEGEND_GAP: i32 = 10;
const LEGEND_PAD: i32 = 8;
const LEGEND_SAMPLE: i32 = 24;

impl Legend {
    fn new(entries: Vec<(String, Mark)>) -> Self {
        Legend { entries }
    }

    fn svg_font() -> f64 {
        LEGEND_FONT / PLOTTERS_FONT_SCALE
    }

    fn max_chars() -> usize {
        (LEGEND_TEXT_MAX / (CHAR_W * Self::svg_font())) as usize
    }

    fn text_width(&self) -> f64 {
        self.entries
            .iter()
            .map(|(n, _)| text_w(&ellipsize(n, Self::max_chars()), Self::svg_font()))
            .fold(0.0, f64::max)
    }

    /// Width of the column (0 without entries).
    fn width(&self) -> u32 {
        if self.entries.is_empty() {
            return 0;
        }
        (LEGEND_GAP + 3 * LEGEND_PAD + LEGEND_SAMPLE + self.text_width().ceil() as i32 + 12) as u32
    }

    fn box_height(&self) -> i32 {
        self.entries.len() as i32 * LEGEND_ROW + LEGEND_PAD
    }

    /// The image: `SIZE` plus the column, taller if the entries need it.
    fn canvas(&self) -> (u32, u32) {
        let h = (LEGEND_TOP + self.box_height() + 15) as u32;
        (SIZE.0 + self.width(), SIZE.1.max(h))
    }

    /// Draws the box and its entries on `area`, the column.
    fn draw(&self, area: &DrawingArea<SVGBackend, Shift>) -> anyhow::Result<()> {
        if self.entries.is_empty() {
            return Ok(());
        }
        let (x0, x1) = (LEGEND_GAP, self.width() as i32 - 12);
        let (y0, y1) = (LEGEND_TOP, LEGEND_TOP + self.box_height());
        // the border is the only unfilled rectangle of a chart (the tests find it so)
        area.draw(&Rectangle::new([(x0, y0), (x1, y1)], BLACK.mix(0.6)))
            .map_err(err)?;
        let style = TextStyle::from((FONT, LEGEND_FONT).into_font())
            .pos(Pos::new(HPos::Left, VPos::Center));
        for (i, (name, mark)) in self.entries.iter().enumerate() {
            let y = y0 + LEGEND_PAD / 2 + LEGEND_ROW / 2 + i as i32 * LEGEND_ROW;
            let sx = x0 + LEGEND_PAD;
            draw_mark(area, *mark, sx, y)?;
            area.draw(&Text::new(
                ellipsize(name, Self::max_chars()),
                (sx + LEGEND_SAMPLE + LEGEND_PAD, y),
                style.clone(),
            ))
            .map_err(err)?;
        }
        Ok(())
    }
}

/// The sample of `mark`, LEGEND_SAMPLE px wide from `x`, centred on `y`.
fn draw_mark(
    area: &DrawingArea<SVGBackend, Shift>,
    mark: Mark,
    x: i32,
    y: i32,
) -> anyhow::Result<()> {
    let w = LEGEND_SAMPLE;
    match mark {
        Mark::Line {
            color,
            width,
            dashed,
            dot,
        } => {
            let style = color.stroke_width(width);
            let parts = if dashed {
                vec![(x, x + w * 3 / 8), (x + w * 5 / 8, x + w)]
            } else {
                vec![(x, x + w)]
            };
            for (a, b) in parts {
                area.draw(&PathElement::new(vec![(a, y), (b, y)], style))
                    .map_err(err)?;
            }
            if dot {
                area.draw(&Circle::new((x + w / 2, y), 3, color.filled()))
                    .map_err(err)?;
            }
        }
        Mark::Dot(color) => {
            area.draw(&Circle::new((x + w / 2, y), 3, color.filled()))
                .map_err(err)?;
        }
        Mark::Bar(color) => {
            area.draw(&Rectangle::new(
                [(x + 4, y - 6), (x + w - 4, y + 6)],
                color.filled(),
            ))
            .map_err(err)?;
        }
    }
    Ok(())
}

/// A white image of `legend.canvas()` split into the chart's area and the legend column.
fn split(
    root: DrawingArea<SVGBackend, Shift>,
) -> anyhow::Result<(
    DrawingArea<SVGBackend, Shift>,
    DrawingArea<SVGBackend, Shift>,
)> {
    root.fill(&WHITE).map_err(err)?;
    Ok(root.split_horizontally(SIZE.0))
}

// ---- charts --------------------------------------------------------------------------

/// Histogram outlines of several value sets over common bins: the number of processes per
/// interval of `what`, which names the value and its unit (`mean latency (cycles)`: the x
/// axis is labelled so). Returns the SVG text.
pub fn distribution_svg(
    title: &str,
    what: &str,
    series: &[(String, Vec<f64>)],
    bins: usize,
) -> anyhow::Result<String> {
    distribution_of_svg(title, what, "processes", series, bins)
}

/// `distribution_svg` counting `counted` (plural, e.g. `victim NICs`) on the y axis.
pub fn distribution_of_svg(
    title: &str,
    what: &str,
    counted: &str,
    series: &[(String, Vec<f64>)],
    bins: usize,
) -> anyhow::Result<String> {
    let all: Vec<f64> = series
        .iter()
        .flat_map(|(_, v)| v.iter().copied())
        .filter(|x| x.is_finite())
        .collect();
    let mut lo = all.iter().copied().fold(f64::INFINITY, f64::min);
    let mut hi = all.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if !lo.is_finite() {
        (lo, hi) = (0.0, 1.0);
    }
    if hi - lo <= f64::EPSILON * hi.abs().max(1.0) {
        let pad = (lo.abs() * 0.05).max(0.5);
        (lo, hi) = (lo - pad, hi + pad);
    }
    let bins = bins.max(1);
    let w = (hi - lo) / bins as f64;
    let counts: Vec<Vec<u64>> = series
        .iter()
        .map(|(_, v)| {
            let mut c = vec![0u64; bins];
            for &x in v.iter().filter(|x| x.is_finite()) {
                let b = (((x - lo) / w).floor() as usize).min(bins - 1);
                c[b] += 1;
            }
            c
        })
        .collect();
    let ymax = counts.iter().flatten().copied().max().unwrap_or(1).max(1) as f64 * 1.1;
    // the interval's width in the x axis's unit says what one count stands for
    let y_desc = format!(
        "{counted} per interval of {}{}",
        short_num(w),
        unit_of(what).map_or(String::new(), |u| format!(" {u}"))
    );
    let colors: Vec<RGBAColor> = (0..series.len())
        .map(|i| Palette99::pick(i).to_rgba())
        .collect();
    let legend = Legend::new(
        series
            .iter()
            .zip(&colors)
            .map(|((n, _), &c)| (n.clone(), line(c, 2)))
            .collect(),
    );
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, legend.canvas()).into_drawing_area();
        let (area, column) = split(root.clone())?;
        let mut chart = ChartBuilder::on(&area)
            .caption(title, (FONT, 20))
            .margin(15)
            .x_label_area_size(45)
            .y_label_area_size(60)
            .build_cartesian_2d(lo..hi, 0.0..ymax)
            .map_err(err)?;
        chart
            .configure_mesh()
            .light_line_style(TRANSPARENT)
            .x_desc(what)
            .y_desc(y_desc)
            .draw()
            .map_err(err)?;
        for (c, &color) in counts.iter().zip(&colors) {
            let mut pts = vec![(lo, 0.0)];
            for (b, &k) in c.iter().enumerate() {
                let x0 = lo + b as f64 * w;
                pts.push((x0, k as f64));
                pts.push((x0 + w, k as f64));
            }
            pts.push((hi, 0.0));
            chart
                .draw_series(LineSeries::new(pts, color.stroke_width(2)))
                .map_err(err)?;
        }
        legend.draw(&column)?;
        root.present().map_err(err)?;
    }
    Ok(svg)
}

/// One line per watched NIC of `c` against the cycle; `thresholds` (enter, escape) and the
/// credit limit as horizontal dashed lines. Returns the SVG text.
pub fn timeseries_svg(
    title: &str,
    series: &[(String, Vec<(u64, u32)>)],
    thresholds: Option<(u16, u16)>,
    credit_limit: u32,
) -> anyhow::Result<String> {
    let xmax = series
        .iter()
        .flat_map(|(_, v)| v.iter().map(|p| p.0))
        .max()
        .unwrap_or(1)
        .max(1) as f64;
    let ymax = credit_limit.max(1) as f64 * 1.05;
    let mut hlines: Vec<(String, f64, RGBAColor)> =
        vec![("CREDIT_LIMIT".into(), credit_limit as f64, BLACK.to_rgba())];
    if let Some((enter, escape)) = thresholds {
        hlines.push((format!("TH_ENTER {enter:#x}"), enter as f64, RED.to_rgba()));
        hlines.push((
            format!("TH_ESCAPE {escape:#x}"),
            escape as f64,
            BLUE.to_rgba(),
        ));
    }
    let colors: Vec<RGBAColor> = (0..series.len())
        .map(|i| Palette99::pick(i).to_rgba())
        .collect();
    let mut entries: Vec<(String, Mark)> = series
        .iter()
        .zip(&colors)
        .map(|((n, _), &c)| (n.clone(), line(c, 2)))
        .collect();
    entries.extend(hlines.iter().map(|(n, _, c)| (n.clone(), dashed(*c))));
    let legend = Legend::new(entries);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, legend.canvas()).into_drawing_area();
        let (area, column) = split(root.clone())?;
        let mut chart = ChartBuilder::on(&area)
            .caption(title, (FONT, 20))
            .margin(15)
            .x_label_area_size(45)
            .y_label_area_size(60)
            .build_cartesian_2d(0.0..xmax, 0.0..ymax)
            .map_err(err)?;
        chart
            .configure_mesh()
            .light_line_style(TRANSPARENT)
            .x_desc("time (cycles)")
            .y_desc("used credits c (flits)")
            .draw()
            .map_err(err)?;
        for ((_, pts), &color) in series.iter().zip(&colors) {
            chart
                .draw_series(LineSeries::new(
                    pts.iter().map(|&(t, c)| (t as f64, c as f64)),
                    color.stroke_width(1),
                ))
                .map_err(err)?;
        }
        for (_, y, color) in hlines {
            chart
                .draw_series(DashedLineSeries::new(
                    vec![(0.0, y), (xmax, y)],
                    6,
                    4,
                    color.stroke_width(1),
                ))
                .map_err(err)?;
        }
        legend.draw(&column)?;
        root.present().map_err(err)?;
    }
    Ok(svg)
}

/// Lines through points (x, y), one per series, dashed for names listed in `dashed`, with
/// markers at the points. `x_desc` and `y_desc` should carry their units. Returns the SVG
/// text.
pub fn lines_svg(
    title: &str,
    x_desc: &str,
    y_desc: &str,
    series: &[(String, Vec<(f64, f64)>)],
    dashed: &[&str],
) -> anyhow::Result<String> {
    let pts = || series.iter().flat_map(|(_, v)| v.iter().copied());
    let xmax = pts().map(|p| p.0).fold(0.0, f64::max).max(1e-9);
    let xmin = pts().map(|p| p.0).fold(xmax, f64::min);
    let ymax = pts().map(|p| p.1).fold(0.0, f64::max).max(1e-9) * 1.1;
    let marks: Vec<Mark> = series
        .iter()
        .enumerate()
        .map(|(i, (name, _))| Mark::Line {
            color: Palette99::pick(i).to_rgba(),
            width: 2,
            dashed: dashed.contains(&name.as_str()),
            dot: true,
        })
        .collect();
    let legend = Legend::new(
        series
            .iter()
            .zip(&marks)
            .map(|((n, _), &m)| (n.clone(), m))
            .collect(),
    );
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, legend.canvas()).into_drawing_area();
        let (area, column) = split(root.clone())?;
        let mut chart = ChartBuilder::on(&area)
            .caption(title, (FONT, 20))
            .margin(15)
            .x_label_area_size(45)
            .y_label_area_size(60)
            .build_cartesian_2d(xmin..xmax, 0.0..ymax)
            .map_err(err)?;
        chart
            .configure_mesh()
            .light_line_style(TRANSPARENT)
            .x_desc(x_desc)
            .y_desc(y_desc)
            .draw()
            .map_err(err)?;
        for ((_, v), mark) in series.iter().zip(&marks) {
            let Mark::Line { color, dashed, .. } = *mark else {
                unreachable!("lines have line marks")
            };
            let style = color.stroke_width(2);
            if dashed {
                chart
                    .draw_series(DashedLineSeries::new(v.iter().copied(), 6, 4, style))
                    .map_err(err)?;
            } else {
                chart
                    .draw_series(LineSeries::new(v.iter().copied(), style))
                    .map_err(err)?;
            }
            chart
                .draw_series(v.iter().map(|&p| Circle::new(p, 3, color.filled())))
                .map_err(err)?;
        }
        legend.draw(&column)?;
        root.present().map_err(err)?;
    }
    Ok(svg)
}

/// F_C per point as bars (the mean over seeds) with the seeds' spread (a line from the
/// smallest to the largest value, and a dot per seed), a dashed line at F_C = 1, and a
/// legend saying so. Returns the SVG text.
pub fn fc_bars_svg(
    title: &str,
    x_desc: &str,
    bars: &[(String, Vec<f64>)],
) -> anyhow::Result<String> {
    let n = bars.len().max(1) as i32;
    let top = bars
        .iter()
        .flat_map(|(_, v)| v.iter().copied())
        .filter(|v| v.is_finite())
        .fold(1.0f64, f64::max)
        * 1.15;
    let blue = RGBColor(90, 130, 200).mix(0.6);
    let legend = Legend::new(vec![
        ("mean over the seeds".into(), Mark::Bar(blue)),
        ("range over the seeds".into(), line(BLACK.to_rgba(), 2)),
        ("one seed".into(), Mark::Dot(BLACK.to_rgba())),
        ("F_C = 1: as PFT off".into(), dashed(RED.to_rgba())),
    ]);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, legend.canvas()).into_drawing_area();
        let (area, column) = split(root.clone())?;
        let mut chart = ChartBuilder::on(&area)
            .caption(title, (FONT, 18))
            .margin(15)
            .x_label_area_size(70)
            .y_label_area_size(60)
            .build_cartesian_2d((0..n - 1).into_segmented(), 0.0..top)
            .map_err(err)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_desc(x_desc)
            .y_desc("F_C (ratio to PFT off, no unit)")
            .x_labels(bars.len().max(1))
            .x_label_formatter(&|v| match v {
                SegmentValue::CenterOf(i) => bars
                    .get(*i as usize)
                    .map_or(String::new(), |b| b.0.trim_matches('"').to_string()),
                _ => String::new(),
            })
            .draw()
            .map_err(err)?;
        for (i, (_, v)) in bars.iter().enumerate() {
            let v: Vec<f64> = v.iter().copied().filter(|x| x.is_finite()).collect();
            if v.is_empty() {
                continue;
            }
            let mean = v.iter().sum::<f64>() / v.len() as f64;
            let i = i as i32;
            let mut bar = Rectangle::new(
                [
                    (SegmentValue::Exact(i), 0.0),
                    (SegmentValue::Exact(i + 1), mean),
                ],
                blue.filled(),
            );
            bar.set_margin(0, 0, 12, 12);
            chart.draw_series(std::iter::once(bar)).map_err(err)?;
            let lo = v.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            chart
                .draw_series(std::iter::once(PathElement::new(
                    vec![
                        (SegmentValue::CenterOf(i), lo),
                        (SegmentValue::CenterOf(i), hi),
                    ],
                    BLACK.stroke_width(2),
                )))
                .map_err(err)?;
            chart
                .draw_series(
                    v.iter()
                        .map(|&y| Circle::new((SegmentValue::CenterOf(i), y), 3, BLACK.filled())),
                )
                .map_err(err)?;
            chart
                .draw_series(std::iter::once(Text::new(
                    format!("{mean:.2}"),
                    (SegmentValue::CenterOf(i), hi + top * 0.03),
                    TextStyle::from((FONT, 14).into_font())
                        .pos(Pos::new(HPos::Center, VPos::Bottom)),
                )))
                .map_err(err)?;
        }
        chart
            .draw_series(DashedLineSeries::new(
                vec![(SegmentValue::Exact(0), 1.0), (SegmentValue::Exact(n), 1.0)],
                6,
                4,
                RED.stroke_width(1),
            ))
            .map_err(err)?;
        legend.draw(&column)?;
        root.present().map_err(err)?;
    }
    Ok(svg)
}

// ---- heat map ------------------------------------------------------------------------

/// The fill of a heat-map cell: white at F_C = 1, blue above, red below, saturated at 4x
/// and 1/4 (log scale); grey for no value.
fn fc_color(v: Option<f64>) -> RGBColor {
    let Some(v) = v.filter(|v| v.is_finite() && *v > 0.0) else {
        return RGBColor(210, 210, 210);
    };
    let t = (v.log2() / 2.0).clamp(-1.0, 1.0);
    let fade = |t: f64| (255.0 * (1.0 - 0.75 * t.abs())) as u8;
    if t >= 0.0 {
        RGBColor(fade(t), fade(t), 255)
    } else {
        RGBColor(255, fade(t), fade(t))
    }
}

fn hex(c: RGBColor) -> String {
    format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2)
}

/// `s` escaped for SVG text and attribute values.
fn xml(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Heat-map layout, px (SVG font sizes).
const HEAT_MARGIN: f64 = 12.0;
const TITLE_FONT: f64 = 16.0;
const AXIS_FONT: f64 = 13.0;
const TICK_FONT: f64 = 12.0;
/// Tick labels smaller than this are thinned out (every k-th) rather than shrunk further.
const MIN_TICK_FONT: f64 = 7.0;
/// The smallest cell the map grows for (w, h), and the largest map: beyond that the cells
/// shrink.
const HEAT_CELL: (f64, f64) = (24.0, 14.0);
const HEAT_MAX: (f64, f64) = (2400.0, 1600.0);
/// Width of the colour-bar column right of the grid.
const COLORBAR_W: f64 = 96.0;
/// Cell labels: at most this size, and a longer number format only from this size on.
const CELL_FONT: f64 = 14.0;
const COMFORTABLE_CELL_FONT: f64 = 9.0;
/// Below this a cell label is not readable: all labels are left out, and a note says so.
const MIN_CELL_FONT: f64 = 6.0;

/// A cell's value in the format of `level`: 0 two decimals, 1 one, 2 the shortest (no
/// leading zero below 1, no decimals from 9.5 on); `-` for no value.
fn cell_text(v: Option<f64>, level: usize) -> String {
    let Some(v) = v.filter(|v| v.is_finite()) else {
        return "-".to_string();
    };
    match level {
        0 => format!("{v:.2}"),
        1 => format!("{v:.1}"),
        _ if v.abs() >= 9.5 => format!("{v:.0}"),
        _ => {
            let s = format!("{v:.1}");
            match s.strip_prefix("0.") {
                Some(rest) => format!(".{rest}"),
                None => s,
            }
        }
    }
}

/// The cell labels and their font size for cells of `cw` x `ch` px: the longest format
/// (`cell_text`) whose longest label fits at a comfortable size, else the shortest at any
/// readable size; None when no label is readable.
fn cell_labels(cells: &[Vec<Option<f64>>], cw: f64, ch: f64) -> Option<(f64, Vec<Vec<String>>)> {
    let fit = |level: usize| {
        let texts: Vec<Vec<String>> = cells
            .iter()
            .map(|row| row.iter().map(|&v| cell_text(v, level)).collect())
            .collect();
        let longest = texts.iter().flatten().map(|t| t.chars().count()).max();
        let by_width = (cw - 4.0) / (CHAR_W * longest.unwrap_or(1).max(1) as f64);
        let font = CELL_FONT.min(0.7 * ch).min(by_width).floor();
        (font, texts)
    };
    for level in 0..2 {
        let (font, texts) = fit(level);
        if font >= COMFORTABLE_CELL_FONT {
            return Some((font, texts));
        }
    }
    let (font, texts) = fit(2);
    (font >= MIN_CELL_FONT).then_some((font, texts))
}

/// Tick labels of slots (rows, or columns with turned labels) `slot` px apart, each label
/// at most `room` px long: the font, every how many-th label is drawn, and the labels cut
/// to fit.
fn tick_labels(names: &[String], slot: f64, room: f64) -> (f64, usize, Vec<String>) {
    let stride = (MIN_TICK_FONT / (0.9 * slot)).ceil().max(1.0) as usize;
    let font = TICK_FONT.min(0.9 * slot * stride as f64).floor();
    let max = ((room / (CHAR_W * font)) as usize).max(1);
    let cut = names
        .iter()
        .map(|n| ellipsize(n.trim_matches('"'), max))
        .collect();
    (font, stride, cut)
}

/// A heat map of F_C: `cells[y][x]` over the values `xs` and `ys` of two axes (`ys[0]` at
/// the bottom), each cell coloured (`fc_color`) and labelled with its value in a font and
/// number format that fit the cell (`cell_labels`; if none is readable, no labels and a note
/// under the map), a colour bar with ticks at 1/4, 1/2, 1, 2 and 4 right of it. Returns the
/// SVG text.
pub fn heatmap_svg(
    title: &str,
    x_desc: &str,
    xs: &[String],
    y_desc: &str,
    ys: &[String],
    cells: &[Vec<Option<f64>>],
) -> anyhow::Result<String> {
    let m = HEAT_MARGIN;
    let (nx, ny) = (xs.len().max(1), ys.len().max(1));
    let longest = |v: &[String]| {
        v.iter()
            .map(|s| s.trim_matches('"').chars().count())
            .max()
            .unwrap_or(1)
    };
    // left: the y axis's name (turned), then its tick labels in at most 240 px
    let y_room = (CHAR_W * TICK_FONT * longest(ys) as f64).min(240.0);
    let grid_x0 = m + AXIS_FONT + 8.0 + y_room + 6.0;
    // wide enough for cells of HEAT_CELL px (up to a limit), the colour bar on the right
    let w = (grid_x0 + nx as f64 * HEAT_CELL.0 + COLORBAR_W + m).clamp(960.0, HEAT_MAX.0);
    let grid_x1 = w - m - COLORBAR_W;
    let cw = (grid_x1 - grid_x0) / nx as f64;
    // title: shrunk to the width (then cut)
    let title_font = TITLE_FONT
        .min((w - 2.0 * m) / (CHAR_W * title.chars().count().max(1) as f64))
        .max(8.0)
        .floor();
    let title_text = ellipsize(title, ((w - 2.0 * m) / (CHAR_W * title_font)) as usize);
    let top = m + title_font + 14.0;
    // below: the x tick labels, across the columns if they fit, else turned (in at most
    // 180 px), then the x axis's name and a line for the note
    let x_flat = CHAR_W * TICK_FONT * longest(xs) as f64 <= 0.95 * cw;
    let x_room = if x_flat {
        TICK_FONT
    } else {
        (CHAR_W * TICK_FONT * longest(xs) as f64).min(180.0)
    };
    let below = (AXIS_FONT + 6.0) + (AXIS_FONT + 8.0) + x_room + 6.0 + m;
    let h = (top + ny as f64 * HEAT_CELL.1 + below).clamp(600.0, HEAT_MAX.1);
    let grid_y0 = top;
    let grid_y1 = h - below;
    let ch = (grid_y1 - grid_y0) / ny as f64;

    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg width="{w}" height="{h}" viewBox="0 0 {w} {h}" xmlns="http://www.w3.org/2000/svg" font-family="{FONT}">"#
    );
    let _ = writeln!(
        s,
        r##"<rect x="0" y="0" width="{w}" height="{h}" fill="#FFFFFF"/>"##
    );
    let _ = writeln!(
        s,
        r#"<text class="title" x="{}" y="{}" font-size="{title_font}" text-anchor="middle" dominant-baseline="central">{}</text>"#,
        w / 2.0,
        m + title_font / 2.0,
        xml(&title_text)
    );
    // cells, then their labels
    let labels = cell_labels(cells, cw, ch);
    for (yi, row) in cells.iter().enumerate().take(ny) {
        for (xi, &v) in row.iter().enumerate().take(nx) {
            let (x, y) = (grid_x0 + xi as f64 * cw, grid_y1 - (yi + 1) as f64 * ch);
            let _ = writeln!(
                s,
                r##"<rect class="cell" x="{x:.2}" y="{y:.2}" width="{cw:.2}" height="{ch:.2}" fill="{}" stroke="#FFFFFF" stroke-width="{}"/>"##,
                hex(fc_color(v)),
                (cw.min(ch) / 20.0).min(1.0)
            );
            if let Some((font, texts)) = &labels {
                let _ = writeln!(
                    s,
                    r#"<text class="cell-label" x="{:.2}" y="{:.2}" font-size="{font}" text-anchor="middle" dominant-baseline="central">{}</text>"#,
                    x + cw / 2.0,
                    y + ch / 2.0,
                    xml(&texts[yi][xi])
                );
            }
        }
    }
    // y ticks: right-aligned left of the grid
    let (font, stride, names) = tick_labels(ys, ch, y_room);
    for (yi, name) in names.iter().enumerate().step_by(stride) {
        let _ = writeln!(
            s,
            r#"<text class="tick" x="{:.2}" y="{:.2}" font-size="{font}" text-anchor="end" dominant-baseline="central">{}</text>"#,
            grid_x0 - 6.0,
            grid_y1 - (yi as f64 + 0.5) * ch,
            xml(name)
        );
    }
    // x ticks: centred under their column, or turned to read upwards, ending at the grid
    let (font, stride, names) = if x_flat {
        (
            TICK_FONT,
            1,
            xs.iter().map(|n| n.trim_matches('"').to_string()).collect(),
        )
    } else {
        tick_labels(xs, cw, x_room)
    };
    for (xi, name) in names.iter().enumerate().step_by(stride) {
        let x = grid_x0 + (xi as f64 + 0.5) * cw;
        let y = grid_y1 + 6.0;
        if x_flat {
            let _ = writeln!(
                s,
                r#"<text class="tick" x="{x:.2}" y="{:.2}" font-size="{font}" text-anchor="middle" dominant-baseline="central">{}</text>"#,
                y + font / 2.0,
                xml(name)
            );
        } else {
            let _ = writeln!(
                s,
                r#"<text class="tick" x="{x:.2}" y="{y:.2}" font-size="{font}" text-anchor="end" dominant-baseline="central" transform="rotate(-90 {x:.2} {y:.2})">{}</text>"#,
                xml(name)
            );
        }
    }
    // axis names
    let _ = writeln!(
        s,
        r#"<text class="axis" x="{:.2}" y="{:.2}" font-size="{AXIS_FONT}" text-anchor="middle" dominant-baseline="central">{}</text>"#,
        (grid_x0 + grid_x1) / 2.0,
        grid_y1 + 6.0 + x_room + 8.0 + AXIS_FONT / 2.0,
        xml(x_desc)
    );
    let (ax, ay) = (m + AXIS_FONT / 2.0, (grid_y0 + grid_y1) / 2.0);
    let _ = writeln!(
        s,
        r#"<text class="axis" x="{ax:.2}" y="{ay:.2}" font-size="{AXIS_FONT}" text-anchor="middle" dominant-baseline="central" transform="rotate(-90 {ax:.2} {ay:.2})">{}</text>"#,
        xml(y_desc)
    );
    if labels.is_none() {
        let _ = writeln!(
            s,
            r#"<text class="note" x="{:.2}" y="{:.2}" font-size="{AXIS_FONT}" text-anchor="start" dominant-baseline="central">{}</text>"#,
            m,
            h - m - AXIS_FONT / 2.0,
            xml(&format!(
                "No values in the cells: at {cw:.0} x {ch:.0} px a label would not be readable \
                 (the values are in the CSV)."
            ))
        );
    }
    colorbar(&mut s, grid_x1 + 16.0, grid_y0, grid_y1, has_missing(cells));
    s.push_str("</svg>\n");
    Ok(s)
}

fn has_missing(cells: &[Vec<Option<f64>>]) -> bool {
    cells
        .iter()
        .flatten()
        .any(|v| !v.is_some_and(|v| v.is_finite() && v > 0.0))
}

/// The colour scale of `fc_color` as a vertical bar from `x`, between `y0` and at most
/// `y1`: log scale, ticks at 1/4, 1/2, 1, 2, 4 (the ends saturate), titled F_C; a grey
/// swatch for cells without a value when there are any.
fn colorbar(s: &mut String, x: f64, y0: f64, y1: f64, missing: bool) {
    let bar_w = 16.0;
    let top = y0 + AXIS_FONT + 14.0;
    let len = (y1 - top - if missing { 30.0 } else { 0.0 }).clamp(40.0, 260.0);
    let bottom = top + len;
    let _ = writeln!(s, r#"<g class="colorbar">"#);
    // fc_color is linear in log2 F_C on each side of 1: three stops draw it exactly
    let _ = writeln!(
        s,
        r#"<defs><linearGradient id="fc-scale" x1="0" y1="1" x2="0" y2="0"><stop offset="0" stop-color="{}"/><stop offset="0.5" stop-color="{}"/><stop offset="1" stop-color="{}"/></linearGradient></defs>"#,
        hex(fc_color(Some(0.25))),
        hex(fc_color(Some(1.0))),
        hex(fc_color(Some(4.0)))
    );
    let _ = writeln!(
        s,
        r#"<text class="colorbar-title" x="{x:.2}" y="{:.2}" font-size="{AXIS_FONT}" text-anchor="start" dominant-baseline="central">F_C</text>"#,
        y0 + AXIS_FONT / 2.0
    );
    let _ = writeln!(
        s,
        r##"<rect class="colorbar-scale" x="{x:.2}" y="{top:.2}" width="{bar_w}" height="{len:.2}" fill="url(#fc-scale)" stroke="#000000" stroke-width="0.5"/>"##
    );
    for (v, label) in [
        (0.25, "≤ 1/4"),
        (0.5, "1/2"),
        (1.0, "1"),
        (2.0, "2"),
        (4.0, "≥ 4"),
    ] {
        let y = bottom - (f64::log2(v) + 2.0) / 4.0 * len;
        let _ = writeln!(
            s,
            r##"<line x1="{:.2}" y1="{y:.2}" x2="{:.2}" y2="{y:.2}" stroke="#000000"/>"##,
            x + bar_w,
            x + bar_w + 4.0
        );
        let _ = writeln!(
            s,
            r#"<text class="colorbar-tick" data-value="{v}" x="{:.2}" y="{y:.2}" font-size="{TICK_FONT}" text-anchor="start" dominant-baseline="central">{label}</text>"#,
            x + bar_w + 7.0
        );
    }
    if missing {
        let y = bottom + 14.0;
        let _ = writeln!(
            s,
            r#"<rect x="{x:.2}" y="{y:.2}" width="{bar_w}" height="12" fill="{}"/>"#,
            hex(fc_color(None))
        );
        let _ = writeln!(
            s,
            r#"<text x="{:.2}" y="{:.2}" font-size="{TICK_FONT}" text-anchor="start" dominant-baseline="central">no value</text>"#,
            x + bar_w + 7.0,
            y + 6.0
        );
    }
    let _ = writeln!(s, "</g>");
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One SVG element: its tag, attributes and (for `text`) content, in document order.
    #[derive(Debug)]
    struct El {
        tag: String,
        attrs: Vec<(String, String)>,
        text: String,
    }

    impl El {
        fn get(&self, k: &str) -> Option<&str> {
            self.attrs
                .iter()
                .find(|(a, _)| a == k)
                .map(|(_, v)| v.as_str())
        }

        fn num(&self, k: &str) -> f64 {
            self.get(k)
                .unwrap_or_else(|| panic!("{} without {k}", self.tag))
                .parse()
                .unwrap()
        }
    }

    /// The elements of `svg` (as these plots write them: one start tag per line).
    fn parse(svg: &str) -> Vec<El> {
        let mut out = Vec::new();
        let mut rest = svg;
        while let Some(i) = rest.find('<') {
            rest = &rest[i + 1..];
            if rest.starts_with('/') {
                continue;
            }
            let end = rest.find('>').expect("closed tag");
            let head = &rest[..end];
            let tag: String = head.chars().take_while(|c| c.is_alphanumeric()).collect();
            let mut attrs = Vec::new();
            let mut h = &head[tag.len()..];
            while let Some(eq) = h.find("=\"") {
                let name = h[..eq].trim().to_string();
                let close = h[eq + 2..].find('"').unwrap() + eq + 2;
                attrs.push((name, h[eq + 2..close].to_string()));
                h = &h[close + 1..];
            }
            let text = if tag == "text" {
                rest[end + 1..rest.find("</text>").unwrap()]
                    .trim()
                    .to_string()
            } else {
                String::new()
            };
            out.push(El { tag, attrs, text });
        }
        out
    }

    fn names(prefix: &str, n: usize) -> Vec<String> {
        (0..n).map(|i| format!("{prefix}{i}")).collect()
    }

    fn grid(nx: usize, ny: usize) -> Vec<Vec<Option<f64>>> {
        (0..ny)
            .map(|y| {
                (0..nx)
                    .map(|x| match (x + y) % 7 {
                        0 => None,
                        // up to hundreds, for labels of up to six characters
                        k => Some(0.1 * k as f64 * ((1 + y) * (1 + x)) as f64),
                    })
                    .collect()
            })
            .collect()
    }

    /// Every cell label's estimated box (0.6 x font size per character, one font size
    /// high, centred on its anchor) lies inside the cell that contains its anchor; returns
    /// the number of labels.
    fn assert_labels_in_cells(svg: &str) -> usize {
        let els = parse(svg);
        let cells: Vec<&El> = els
            .iter()
            .filter(|e| e.tag == "rect" && e.get("class") == Some("cell"))
            .collect();
        let labels: Vec<&El> = els
            .iter()
            .filter(|e| e.get("class") == Some("cell-label"))
            .collect();
        for l in &labels {
            assert_eq!(l.get("text-anchor"), Some("middle"));
            assert_eq!(l.get("dominant-baseline"), Some("central"));
            let (x, y, f) = (l.num("x"), l.num("y"), l.num("font-size"));
            let w = 0.6 * f * l.text.chars().count() as f64;
            let c = cells
                .iter()
                .find(|c| {
                    let (cx, cy) = (c.num("x"), c.num("y"));
                    (cx..cx + c.num("width")).contains(&x)
                        && (cy..cy + c.num("height")).contains(&y)
                })
                .unwrap_or_else(|| panic!("label {:?} outside every cell", l.text));
            let (cx, cy, cw, ch) = (c.num("x"), c.num("y"), c.num("width"), c.num("height"));
            assert!(
                x - w / 2.0 >= cx && x + w / 2.0 <= cx + cw,
                "label {:?} ({w:.1} px at {f} px) wider than its cell ({cw:.1} px)",
                l.text
            );
            assert!(
                y - f / 2.0 >= cy && y + f / 2.0 <= cy + ch,
                "label {:?} ({f} px) taller than its cell ({ch:.1} px)",
                l.text
            );
        }
        labels.len()
    }

    #[test]
    fn heatmap_labels_fit_their_cells_at_any_grid_size() {
        let long = |p: &str, n| names(&format!("\"{p}_a_rather_long_register_value_"), n);
        for (nx, ny, xs, ys) in [
            (2, 2, names("x", 2), names("y", 2)),
            (9, 7, names("th_enter=0x", 9), names("m=", 7)),
            (30, 30, long("x", 30), long("y", 30)),
            (40, 3, names("x", 40), names("y", 3)),
            (3, 40, names("x", 3), names("y", 40)),
            (4, 120, names("x", 4), names("y", 120)),
            (40, 40, names("x=", 40), names("y=", 40)),
        ] {
            let cells = grid(nx, ny);
            let svg = heatmap_svg("t", "x axis", &xs, "y axis", &ys, &cells).unwrap();
            let n = assert_labels_in_cells(&svg);
            assert_eq!(n, nx * ny, "{nx}x{ny}: one label per cell");
            let els = parse(&svg);
            assert_eq!(
                els.iter()
                    .filter(|e| e.get("class") == Some("cell"))
                    .count(),
                nx * ny
            );
            assert!(!els.iter().any(|e| e.get("class") == Some("note")));
            // tick labels stay on the image
            let w = els[0].num("width");
            for t in els.iter().filter(|e| e.get("class") == Some("tick")) {
                let f = t.num("font-size");
                let tw = 0.6 * f * t.text.chars().count() as f64;
                let x = t.num("x");
                let (lo, hi) = match (t.get("text-anchor"), t.get("transform")) {
                    (_, Some(_)) => (x - f / 2.0, x + f / 2.0), // turned: one line high
                    (Some("end"), None) => (x - tw, x),
                    _ => (x - tw / 2.0, x + tw / 2.0),
                };
                assert!(lo >= 0.0 && hi <= w, "tick {:?} off the image", t.text);
            }
        }
        // a 2x2 map keeps two decimals at a large size
        let svg = heatmap_svg("t", "x", &names("x", 2), "y", &names("y", 2), &grid(2, 2));
        let els = parse(&svg.unwrap());
        let l = els
            .iter()
            .find(|e| e.get("class") == Some("cell-label") && e.text != "-")
            .unwrap();
        assert_eq!(l.text.len(), 4, "{:?}", l.text);
        assert!(l.num("font-size") >= 12.0);
    }

    #[test]
    fn long_names_are_cut_in_the_middle() {
        assert_eq!(ellipsize("value_0001", 20), "value_0001");
        assert_eq!(ellipsize("a_long_value_0001", 9), "a_lo…0001");
        assert_eq!(ellipsize("a_long_value_0001", 9).chars().count(), 9);
    }

    #[test]
    fn heatmap_cells_too_small_to_read_have_no_labels_and_a_note() {
        let (nx, ny) = (300, 300);
        let svg =
            heatmap_svg("t", "x", &names("", nx), "y", &names("", ny), &grid(nx, ny)).unwrap();
        assert_eq!(assert_labels_in_cells(&svg), 0);
        let els = parse(&svg);
        let note = els
            .iter()
            .find(|e| e.get("class") == Some("note"))
            .expect("a note");
        assert!(note.text.contains("not be readable"), "{}", note.text);
    }

    #[test]
    fn heatmap_has_a_colour_bar_with_fc_ticks() {
        let svg = heatmap_svg("t", "x", &names("x", 3), "y", &names("y", 2), &grid(3, 2));
        let els = parse(&svg.unwrap());
        let bar = els
            .iter()
            .find(|e| e.get("class") == Some("colorbar-scale"))
            .expect("a colour bar");
        assert_eq!(bar.get("fill"), Some("url(#fc-scale)"));
        let stops: Vec<&str> = els
            .iter()
            .filter(|e| e.tag == "stop")
            .filter_map(|e| e.get("stop-color"))
            .collect();
        assert_eq!(stops, ["#FF3F3F", "#FFFFFF", "#3F3FFF"]);
        let title = els
            .iter()
            .find(|e| e.get("class") == Some("colorbar-title"))
            .unwrap();
        assert_eq!(title.text, "F_C");
        let ticks: Vec<(f64, f64, &str)> = els
            .iter()
            .filter(|e| e.get("class") == Some("colorbar-tick"))
            .map(|e| (e.num("data-value"), e.num("y"), e.text.as_str()))
            .collect();
        let values: Vec<f64> = ticks.iter().map(|t| t.0).collect();
        assert_eq!(values, [0.25, 0.5, 1.0, 2.0, 4.0]);
        assert_eq!(ticks[2].2, "1");
        // log scale: equal steps, larger values higher, on the bar
        let (top, h) = (bar.num("y"), bar.num("height"));
        for p in ticks.windows(2) {
            assert!((p[0].1 - p[1].1 - h / 4.0).abs() < 0.02, "{ticks:?}");
        }
        assert!((ticks[0].1 - (top + h)).abs() < 0.02 && (ticks[4].1 - top).abs() < 0.02);
        // the cells' colours are the scale's
        let fills: Vec<&str> = els
            .iter()
            .filter(|e| e.get("class") == Some("cell"))
            .filter_map(|e| e.get("fill"))
            .collect();
        assert!(fills.contains(&"#D2D2D2"), "a cell without value is grey");
    }

    /// A rectangle: x0, y0, x1, y1.
    type Box4 = (f64, f64, f64, f64);

    /// The legend box of a chart (its only unfilled rectangle) and the points of what is
    /// drawn before it: line vertices, circle centres, filled rectangles' corners (not the
    /// background), text anchors.
    fn legend_and_data(svg: &str) -> (Box4, Vec<(f64, f64)>) {
        let els = parse(svg);
        let canvas_w = els[0].num("width");
        let at = els
            .iter()
            .position(|e| e.tag == "rect" && e.get("fill") == Some("none"))
            .expect("a legend box");
        let b = &els[at];
        let bx = (
            b.num("x"),
            b.num("y"),
            b.num("x") + b.num("width"),
            b.num("y") + b.num("height"),
        );
        assert_eq!(
            els.iter()
                .filter(|e| e.tag == "rect" && e.get("fill") == Some("none"))
                .count(),
            1
        );
        let mut pts = Vec::new();
        for e in &els[1..at] {
            match e.tag.as_str() {
                "polyline" => {
                    for p in e.get("points").unwrap().split_whitespace() {
                        let (x, y) = p.split_once(',').unwrap();
                        pts.push((x.parse().unwrap(), y.parse().unwrap()));
                    }
                }
                "circle" => pts.push((e.num("cx"), e.num("cy"))),
                "rect" if e.num("width") < canvas_w => {
                    let (x, y) = (e.num("x"), e.num("y"));
                    pts.push((x, y));
                    pts.push((x + e.num("width"), y + e.num("height")));
                }
                "text" => pts.push((e.num("x"), e.num("y"))),
                _ => {}
            }
        }
        assert!(pts.len() > 10, "the chart has data");
        (bx, pts)
    }

    fn assert_legend_clear(svg: &str, entries: usize) {
        let (bx, pts) = legend_and_data(svg);
        let right = pts.iter().map(|p| p.0).fold(f64::MIN, f64::max);
        for &(x, y) in &pts {
            assert!(
                !(x >= bx.0 && x <= bx.2 && y >= bx.1 && y <= bx.3),
                "({x}, {y}) under the legend {bx:?}"
            );
        }
        assert!(
            bx.0 > right,
            "legend {bx:?} not right of the chart (to {right})"
        );
        let els = parse(svg);
        let after = els
            .iter()
            .skip_while(|e| e.tag != "rect" || e.get("fill") != Some("none"))
            .filter(|e| e.tag == "text")
            .count();
        assert_eq!(after, entries, "one legend text per entry");
    }

    #[test]
    fn distribution_legend_is_outside_the_data_and_axes_carry_units() {
        // a peak in the upper right corner, where a legend used to sit
        let series: Vec<(String, Vec<f64>)> = (0..3)
            .map(|k| {
                let mut v: Vec<f64> = (0..40).map(|i| 100.0 + i as f64 * 10.0).collect();
                v.extend(std::iter::repeat_n(500.0, 200 + k));
                (format!("run {k} with a long enough name"), v)
            })
            .collect();
        let svg = distribution_svg("t", "mean latency (cycles)", &series, 20).unwrap();
        assert_legend_clear(&svg, 3);
        let texts: Vec<String> = parse(&svg)
            .into_iter()
            .filter(|e| e.tag == "text")
            .map(|e| e.text)
            .collect();
        assert!(
            texts.iter().any(|t| t == "mean latency (cycles)"),
            "{texts:?}"
        );
        assert!(
            texts
                .iter()
                .any(|t| t == "processes per interval of 20.0 cycles"),
            "{texts:?}"
        );
        let svg = distribution_of_svg("t", "bandwidth (bytes/cycle)", "victim NICs", &series, 4);
        assert!(svg
            .unwrap()
            .contains("victim NICs per interval of 100 bytes/cycle"));
    }

    #[test]
    fn a_legend_with_many_entries_makes_the_image_taller_not_the_chart_covered() {
        let series: Vec<(String, Vec<f64>)> = (0..60)
            .map(|k| (format!("p{k:03} 0x250 18"), vec![k as f64, 2.0 * k as f64]))
            .collect();
        let svg = distribution_svg("t", "bandwidth (bytes/cycle)", &series, 10).unwrap();
        assert_legend_clear(&svg, 60);
        let els = parse(&svg);
        let (bx, _) = legend_and_data(&svg);
        assert!(bx.3 <= els[0].num("height"), "legend {bx:?} on the image");
    }

    #[test]
    fn timeseries_legend_is_outside_the_data() {
        let series: Vec<(String, Vec<(u64, u32)>)> = (0..4)
            .map(|k| {
                let pts = (0..200u64)
                    .map(|t| (t * 100, 1024 - (t as u32 % 7) * k))
                    .collect();
                (format!("NIC {k} (incast_root)"), pts)
            })
            .collect();
        let svg = timeseries_svg("t", &series, Some((0x250, 0x2a0)), 1024).unwrap();
        assert_legend_clear(&svg, 7);
        assert!(svg.contains("time (cycles)") && svg.contains("used credits c (flits)"));
    }

    #[test]
    fn fc_bars_and_lines_legends_are_outside_the_data() {
        let bars: Vec<(String, Vec<f64>)> = (0..6)
            .map(|k| (format!("\"0x{k}50\""), vec![0.9, 1.0 + k as f64, 1.2]))
            .collect();
        let svg = fc_bars_svg("t", "th_enter", &bars).unwrap();
        assert_legend_clear(&svg, 4);
        assert!(svg.contains("F_C (ratio to PFT off, no unit)"));
        let series: Vec<(String, Vec<(f64, f64)>)> = (0..3)
            .map(|k| {
                let v = (0..10).map(|i| (i as f64, (i * (k + 1)) as f64)).collect();
                (format!("s{k}"), v)
            })
            .collect();
        let svg = lines_svg("t", "load (flits/cycle)", "rx (Gb/s)", &series, &["s1"]).unwrap();
        assert_legend_clear(&svg, 3);
    }
}
