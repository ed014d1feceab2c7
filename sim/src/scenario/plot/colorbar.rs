//! The heat map's colour scale: the fill of a cell by its F_C, and the colour bar.

use super::heatmap::{AXIS_FONT, TICK_FONT};
use plotters::style::RGBColor;
use std::fmt::Write as _;

/// The fill of a heat-map cell: white at F_C = 1, blue above, red below, saturated at 4x
/// and 1/4 (log scale); grey for no value.
pub(super) fn fc_color(v: Option<f64>) -> RGBColor {
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

/// `c` as `#RRGGBB`.
pub(super) fn hex(c: RGBColor) -> String {
    format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2)
}

/// Whether a cell has no value (`fc_color` grey), so the bar shows the grey swatch.
pub(super) fn has_missing(cells: &[Vec<Option<f64>>]) -> bool {
    cells
        .iter()
        .flatten()
        .any(|v| !v.is_some_and(|v| v.is_finite() && v > 0.0))
}

/// The colour scale of `fc_color` as a vertical bar from `x`, between `y0` and at most
/// `y1`: log scale, ticks at 1/4, 1/2, 1, 2, 4 (the ends saturate), titled F_C; a grey
/// swatch for cells without a value when there are any.
pub(super) fn colorbar(s: &mut String, x: f64, y0: f64, y1: f64, missing: bool) {
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
    use super::super::heatmap_svg;
    use super::super::test_svg::{grid, names, parse};

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
}
