//! Plots of `tb/booksim/dragonfly_curves.sh`'s CSV: mean packet latency and accepted rate
//! against offered load on the k = 4 dragonfly, BookSim 2 dashed beside ours solid, one
//! colour per series, one pair of plots per traffic pattern (docs/network.md §9,
//! "Dragonflies beside BookSim 2").
//!
//! ```text
//! cargo run --release -p pft-tb --example booksim_dragonfly_plot -- CURVES.csv OUT_DIR [POINTS.csv]
//! ```
//!
//! `POINTS.csv`, optional, is `tb/booksim/dragonfly.sh`'s CSV (no mode column: its 0.8 rows
//! ran BookSim's throughput mode, the others its latency mode); its rows join the curves at
//! the loads CURVES.csv does not have.
//!
//! Writes `OUT_DIR/booksim-dragonfly-{uniform,group_shift}-{latency,accepted}.svg` (refuses
//! to overwrite them). A latency is drawn only where the run kept up with the offered load
//! (accepted at least 0.95 x offered) and, for BookSim, came from its latency mode; past
//! saturation the mean latency grows with the run and is left out. Accepted rates are drawn
//! at every load.

use anyhow::{bail, Context};
use pft_sim::scenario::plot::lines_svg;
use std::path::Path;

/// One CSV row: routing, pattern, offered, BookSim's mode, its accepted and latency, ours.
struct Row {
    routing: String,
    pattern: String,
    offered: f64,
    booksim_latency_mode: bool,
    booksim: [Option<f64>; 2],
    ours: [Option<f64>; 2],
}

fn main() -> anyhow::Result<()> {
    let args = pft_tb::args()?;
    let (csv, out, points) = match args.as_slice() {
        [csv, out] => (csv, out, None),
        [csv, out, points] => (csv, out, Some(points)),
        _ => bail!("usage: booksim_dragonfly_plot CURVES.csv OUT_DIR [POINTS.csv]"),
    };
    let mut rows = read(csv, 8)?;
    if let Some(points) = points {
        for r in read(points, 7)? {
            let same = |q: &Row| {
                q.routing == r.routing && q.pattern == r.pattern && q.offered == r.offered
            };
            if !rows.iter().any(same) {
                rows.push(r);
            }
        }
    }
    rows.sort_by(|a, b| a.offered.total_cmp(&b.offered));
    let out = Path::new(out);
    std::fs::create_dir_all(out).with_context(|| format!("cannot create {}", out.display()))?;
    for pattern in ["uniform", "group_shift"] {
        let mut lat = Vec::new();
        let mut acc = Vec::new();
        let mut dashed = Vec::new();
        for routing in ["min", "ugal"] {
            let case: Vec<&Row> = rows
                .iter()
                .filter(|r| r.routing == routing && r.pattern == pattern)
                .collect();
            for who in ["BookSim", "ours"] {
                let label = format!("{routing} {who}");
                let (mut l, mut a) = (Vec::new(), Vec::new());
                for r in &case {
                    let ([acc_v, lat_v], ok_mode) = if who == "BookSim" {
                        (r.booksim, r.booksim_latency_mode)
                    } else {
                        (r.ours, true)
                    };
                    if let Some(av) = acc_v {
                        a.push((r.offered, av));
                        if let (Some(lv), true) = (lat_v, ok_mode && av >= 0.95 * r.offered) {
                            l.push((r.offered, lv));
                        }
                    }
                }
                lat.push((label.clone(), l));
                acc.push((label.clone(), a));
                if who == "BookSim" {
                    dashed.push(label);
                }
            }
        }
        let dashed: Vec<&str> = dashed.iter().map(String::as_str).collect();
        let name = format!("dragonfly k = 4 (1,056 nodes), {pattern}, 8-flit packets");
        for (what, y, series) in [
            ("latency", "mean packet latency, cycles", &lat),
            ("accepted", "accepted, flits/node/cycle", &acc),
        ] {
            let p = out.join(format!("booksim-dragonfly-{pattern}-{what}.svg"));
            if p.exists() {
                bail!("{} exists; give a new directory", p.display());
            }
            let title = format!("{name}: {what} (BookSim dashed)");
            let svg = lines_svg(&title, "offered load, flits/node/cycle", y, series, &dashed)?;
            std::fs::write(&p, svg).with_context(|| format!("cannot write {}", p.display()))?;
            println!("wrote {}", p.display());
        }
    }
    Ok(())
}

/// The rows of a CSV with `fields` columns: 8 with BookSim's mode (dragonfly_curves.sh),
/// 7 without (dragonfly.sh: throughput mode at 0.8 only).
fn read(csv: &str, fields: usize) -> anyhow::Result<Vec<Row>> {
    let text = std::fs::read_to_string(csv).with_context(|| format!("cannot read {csv}"))?;
    let num = |s: &str| s.trim().parse::<f64>().ok().filter(|v| v.is_finite());
    let mut rows = Vec::new();
    for (i, line) in text.lines().enumerate().skip(1) {
        let mut f: Vec<&str> = line.split(',').collect();
        if f.len() != fields {
            bail!(
                "{csv} line {}: {fields} fields expected, got {}",
                i + 1,
                f.len()
            );
        }
        let Some(offered) = num(f[2]) else {
            bail!("{csv} line {}: no offered load", i + 1);
        };
        if fields == 7 {
            f.insert(
                3,
                if f[2] == "0.8" {
                    "throughput"
                } else {
                    "latency"
                },
            );
        }
        rows.push(Row {
            routing: f[0].to_string(),
            pattern: f[1].to_string(),
            offered,
            booksim_latency_mode: f[3] == "latency",
            booksim: [num(f[4]), num(f[5])],
            ours: [num(f[6]), num(f[7])],
        });
    }
    Ok(rows)
}
