//! The charts with axes, drawn with plotters: distributions, `c` over time, lines through
//! points and F_C bars; each with its legend right of the chart (`legend.rs`).

use super::legend::{dashed, line, split, Legend, Mark};
use super::{err, short_num, unit_of, FONT};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

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
    lines_with(title, x_desc, y_desc, series, dashed, true)
}

/// Lines through many points (a time series), one per series, without markers.
pub fn series_svg(
    title: &str,
    x_desc: &str,
    y_desc: &str,
    series: &[(String, Vec<(f64, f64)>)],
) -> anyhow::Result<String> {
    lines_with(title, x_desc, y_desc, series, &[], false)
}

fn lines_with(
    title: &str,
    x_desc: &str,
    y_desc: &str,
    series: &[(String, Vec<(f64, f64)>)],
    dashed: &[&str],
    markers: bool,
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
            dot: markers,
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
            if markers {
                chart
                    .draw_series(v.iter().map(|&p| Circle::new(p, 3, color.filled())))
                    .map_err(err)?;
            }
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

#[cfg(test)]
mod tests {
    use super::super::test_svg::{assert_legend_clear, legend_and_data, parse};
    use super::*;

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
