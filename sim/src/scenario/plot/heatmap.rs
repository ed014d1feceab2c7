//! The sweep's F_C heat map, written by hand: each cell label is sized to its cell.

use super::colorbar::{colorbar, fc_color, has_missing, hex};
use super::{ellipsize, CHAR_W, FONT};
use std::fmt::Write as _;

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
pub(super) const AXIS_FONT: f64 = 13.0;
pub(super) const TICK_FONT: f64 = 12.0;
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
    // an F_C that one decimal would show as 0 keeps two: `.0` must never stand for 0.048
    let tiny = v != 0.0 && v.abs() < 0.05;
    match level {
        0 => format!("{v:.2}"),
        1 if !tiny => format!("{v:.1}"),
        _ if v.abs() >= 9.5 => format!("{v:.0}"),
        _ => {
            let s = if tiny {
                format!("{v:.2}")
            } else {
                format!("{v:.1}")
            };
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

#[cfg(test)]
mod tests {
    #[test]
    fn a_small_fc_is_never_shown_as_zero() {
        for level in 0..3 {
            let t = super::cell_text(Some(0.0476), level);
            assert!(t.contains('5') && !t.ends_with(".0"), "level {level}: {t}");
        }
        assert_eq!(super::cell_text(Some(0.0), 2), ".0", "an exact 0 stays 0");
    }

    use super::super::test_svg::{grid, names, parse, El};
    use super::*;

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
}
