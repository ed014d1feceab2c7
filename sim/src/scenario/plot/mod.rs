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
//!
//! Files: `legend.rs` (the legend column of the charts), `charts.rs` (the charts with axes),
//! `heatmap.rs` (the heat map's layout and labels), `colorbar.rs` (its F_C colour scale).

mod charts;
mod colorbar;
mod heatmap;
mod legend;
#[cfg(test)]
mod test_svg;

pub use charts::{
    distribution_of_svg, distribution_svg, fc_bars_svg, lines_svg, series_svg, timeseries_svg,
};
pub use heatmap::heatmap_svg;

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_names_are_cut_in_the_middle() {
        assert_eq!(ellipsize("value_0001", 20), "value_0001");
        assert_eq!(ellipsize("a_long_value_0001", 9), "a_lo…0001");
        assert_eq!(ellipsize("a_long_value_0001", 9).chars().count(), 9);
    }
}
