//! SVG reading for the plots' tests: the elements of a plot, the heat maps' test grids, and
//! the checks that a chart's legend covers no data.

/// One SVG element: its tag, attributes and (for `text`) content, in document order.
#[derive(Debug)]
pub(super) struct El {
    pub(super) tag: String,
    pub(super) attrs: Vec<(String, String)>,
    pub(super) text: String,
}

impl El {
    pub(super) fn get(&self, k: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(a, _)| a == k)
            .map(|(_, v)| v.as_str())
    }

    pub(super) fn num(&self, k: &str) -> f64 {
        self.get(k)
            .unwrap_or_else(|| panic!("{} without {k}", self.tag))
            .parse()
            .unwrap()
    }
}

/// The elements of `svg` (as these plots write them: one start tag per line).
pub(super) fn parse(svg: &str) -> Vec<El> {
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

pub(super) fn names(prefix: &str, n: usize) -> Vec<String> {
    (0..n).map(|i| format!("{prefix}{i}")).collect()
}

pub(super) fn grid(nx: usize, ny: usize) -> Vec<Vec<Option<f64>>> {
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

/// A rectangle: x0, y0, x1, y1.
pub(super) type Box4 = (f64, f64, f64, f64);

/// The legend box of a chart (its only unfilled rectangle) and the points of what is
/// drawn before it: line vertices, circle centres, filled rectangles' corners (not the
/// background), text anchors.
pub(super) fn legend_and_data(svg: &str) -> (Box4, Vec<(f64, f64)>) {
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

pub(super) fn assert_legend_clear(svg: &str, entries: usize) {
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
