//! The legend of the charts with axes: a column of its own right of the chart.

use super::{ellipsize, err, text_w, CHAR_W, FONT, PLOTTERS_FONT_SCALE, SIZE};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// How a legend entry shows its series.
#[derive(Clone, Copy)]
pub(super) enum Mark {
    Line {
        color: RGBAColor,
        width: u32,
        dashed: bool,
        dot: bool,
    },
    Dot(RGBAColor),
    Bar(RGBAColor),
}

pub(super) fn line(color: RGBAColor, width: u32) -> Mark {
    Mark::Line {
        color,
        width,
        dashed: false,
        dot: false,
    }
}

pub(super) fn dashed(color: RGBAColor) -> Mark {
    Mark::Line {
        color,
        width: 1,
        dashed: true,
        dot: false,
    }
}

/// A legend in a column right of the chart: the image is widened by `width` and made taller
/// when the entries need it, so the plotting area keeps its size and no entry covers data.
pub(super) struct Legend {
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
    pub(super) fn new(entries: Vec<(String, Mark)>) -> Self {
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
    pub(super) fn canvas(&self) -> (u32, u32) {
        let h = (LEGEND_TOP + self.box_height() + 15) as u32;
        (SIZE.0 + self.width(), SIZE.1.max(h))
    }

    /// Draws the box and its entries on `area`, the column.
    pub(super) fn draw(&self, area: &DrawingArea<SVGBackend, Shift>) -> anyhow::Result<()> {
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
pub(super) fn split(
    root: DrawingArea<SVGBackend, Shift>,
) -> anyhow::Result<(
    DrawingArea<SVGBackend, Shift>,
    DrawingArea<SVGBackend, Shift>,
)> {
    root.fill(&WHITE).map_err(err)?;
    Ok(root.split_horizontally(SIZE.0))
}
