//! SVG plots (plotters, SVG backend only, no font files: text is laid out with plotters'
//! built-in estimate and drawn as SVG `<text>`):
//!
//! - per-process distributions, as the PFT paper's Figs 3-4: the number of processes per
//!   equal-width interval of mean latency or bandwidth, one outline per run;
//! - `c` over time at the watched NICs, with the PFT thresholds as dashed lines.

use plotters::prelude::*;

const SIZE: (u32, u32) = (960, 540);

fn err<E: std::fmt::Display>(e: E) -> anyhow::Error {
    anyhow::anyhow!("plot: {e}")
}

/// Histogram outlines of several value sets over common bins. Returns the SVG text.
pub fn distribution_svg(
    title: &str,
    x_desc: &str,
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
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 20))
            .margin(15)
            .x_label_area_size(45)
            .y_label_area_size(60)
            .build_cartesian_2d(lo..hi, 0.0..ymax)
            .map_err(err)?;
        chart
            .configure_mesh()
            .light_line_style(TRANSPARENT)
            .x_desc(x_desc)
            .y_desc("processes per interval")
            .draw()
            .map_err(err)?;
        for (i, ((name, _), c)) in series.iter().zip(&counts).enumerate() {
            let color = Palette99::pick(i).to_rgba();
            let mut pts = vec![(lo, 0.0)];
            for (b, &k) in c.iter().enumerate() {
                let x0 = lo + b as f64 * w;
                pts.push((x0, k as f64));
                pts.push((x0 + w, k as f64));
            }
            pts.push((hi, 0.0));
            chart
                .draw_series(LineSeries::new(pts, color.stroke_width(2)))
                .map_err(err)?
                .label(name.clone())
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(2))
                });
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .position(SeriesLabelPosition::UpperRight)
            .draw()
            .map_err(err)?;
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
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 20))
            .margin(15)
            .x_label_area_size(45)
            .y_label_area_size(60)
            .build_cartesian_2d(0.0..xmax, 0.0..ymax)
            .map_err(err)?;
        chart
            .configure_mesh()
            .light_line_style(TRANSPARENT)
            .x_desc("cycle")
            .y_desc("used credits c")
            .draw()
            .map_err(err)?;
        for (i, (name, pts)) in series.iter().enumerate() {
            let color = Palette99::pick(i).to_rgba();
            chart
                .draw_series(LineSeries::new(
                    pts.iter().map(|&(t, c)| (t as f64, c as f64)),
                    color.stroke_width(1),
                ))
                .map_err(err)?
                .label(name.clone())
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(2))
                });
        }
        let mut hlines: Vec<(String, f64, RGBColor)> =
            vec![("CREDIT_LIMIT".into(), credit_limit as f64, BLACK)];
        if let Some((enter, escape)) = thresholds {
            hlines.push((format!("TH_ENTER {enter:#x}"), enter as f64, RED));
            hlines.push((format!("TH_ESCAPE {escape:#x}"), escape as f64, BLUE));
        }
        for (name, y, color) in hlines {
            chart
                .draw_series(DashedLineSeries::new(
                    vec![(0.0, y), (xmax, y)],
                    6,
                    4,
                    color.stroke_width(1),
                ))
                .map_err(err)?
                .label(name)
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], color));
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .position(SeriesLabelPosition::UpperLeft)
            .draw()
            .map_err(err)?;
        root.present().map_err(err)?;
    }
    Ok(svg)
}

/// Lines through points (x, y), one per series, dashed for names listed in `dashed`, with
/// markers at the points. Returns the SVG text.
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
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 20))
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
        for (i, (name, v)) in series.iter().enumerate() {
            let color = Palette99::pick(i).to_rgba();
            let style = color.stroke_width(2);
            let s = if dashed.contains(&name.as_str()) {
                chart
                    .draw_series(DashedLineSeries::new(v.iter().copied(), 6, 4, style))
                    .map_err(err)?
            } else {
                chart
                    .draw_series(LineSeries::new(v.iter().copied(), style))
                    .map_err(err)?
            };
            s.label(name.clone()).legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(2))
            });
            chart
                .draw_series(v.iter().map(|&p| Circle::new(p, 3, color.filled())))
                .map_err(err)?;
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .position(SeriesLabelPosition::UpperRight)
            .draw()
            .map_err(err)?;
        root.present().map_err(err)?;
    }
    Ok(svg)
}

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

/// A heat map of F_C: `cells[y][x]` over the values `xs` and `ys` of two axes, each cell
/// coloured (`fc_color`) and labelled with its value. Returns the SVG text.
pub fn heatmap_svg(
    title: &str,
    x_desc: &str,
    xs: &[String],
    y_desc: &str,
    ys: &[String],
    cells: &[Vec<Option<f64>>],
) -> anyhow::Result<String> {
    let (nx, ny) = (xs.len().max(1) as i32, ys.len().max(1) as i32);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 18))
            .margin(15)
            .x_label_area_size(50)
            .y_label_area_size(90)
            // a segmented range over 0..n has n + 1 segments: the last index is n - 1
            .build_cartesian_2d((0..nx - 1).into_segmented(), (0..ny - 1).into_segmented())
            .map_err(err)?;
        let label = |names: &[String], v: &SegmentValue<i32>| match v {
            SegmentValue::CenterOf(i) => names
                .get(*i as usize)
                .map_or(String::new(), |n| n.trim_matches('"').to_string()),
            _ => String::new(),
        };
        chart
            .configure_mesh()
            .disable_mesh()
            .x_desc(x_desc)
            .y_desc(y_desc)
            .x_labels(xs.len().max(1))
            .y_labels(ys.len().max(1))
            .x_label_formatter(&|v| label(xs, v))
            .y_label_formatter(&|v| label(ys, v))
            .draw()
            .map_err(err)?;
        for (yi, row) in cells.iter().enumerate() {
            for (xi, &c) in row.iter().enumerate() {
                let (x, y) = (xi as i32, yi as i32);
                chart
                    .draw_series(std::iter::once(Rectangle::new(
                        [
                            (SegmentValue::Exact(x), SegmentValue::Exact(y)),
                            (SegmentValue::Exact(x + 1), SegmentValue::Exact(y + 1)),
                        ],
                        fc_color(c).filled(),
                    )))
                    .map_err(err)?;
                let text = c.map_or("-".to_string(), |v| format!("{v:.2}"));
                chart
                    .draw_series(std::iter::once(Text::new(
                        text,
                        (SegmentValue::CenterOf(x), SegmentValue::CenterOf(y)),
                        ("sans-serif", 16).into_font().color(&BLACK),
                    )))
                    .map_err(err)?;
            }
        }
        root.present().map_err(err)?;
    }
    Ok(svg)
}

/// F_C per point as bars (the mean over seeds) with the seeds' spread (a line from the
/// smallest to the largest value, and a dot per seed), a dashed line at F_C = 1. Returns
/// the SVG text.
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
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 18))
            .margin(15)
            .x_label_area_size(70)
            .y_label_area_size(60)
            .build_cartesian_2d((0..n - 1).into_segmented(), 0.0..top)
            .map_err(err)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_desc(x_desc)
            .y_desc("F_C")
            .x_labels(bars.len().max(1))
            .x_label_formatter(&|v| match v {
                SegmentValue::CenterOf(i) => bars
                    .get(*i as usize)
                    .map_or(String::new(), |b| b.0.trim_matches('"').to_string()),
                _ => String::new(),
            })
            .draw()
            .map_err(err)?;
        let blue = RGBColor(90, 130, 200);
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
                blue.mix(0.6).filled(),
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
                    ("sans-serif", 14).into_font().color(&BLACK),
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
        root.present().map_err(err)?;
    }
    Ok(svg)
}
