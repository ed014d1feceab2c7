//! Plots of `tb/booksim/curves.sh`'s CSV: mean packet latency and accepted rate against
//! offered load, BookSim 2 dashed beside our lane router solid, one colour per series
//! (docs/network.md §9, "BookSim 2").
//!
//! ```text
//! cargo run --release -p pft-tb --example booksim_plot -- CURVES.csv OUT_DIR
//! ```
//!
//! Writes `OUT_DIR/booksim_latency.svg` and `OUT_DIR/booksim_accepted.svg` (refuses to
//! overwrite them). Latencies above 400 cycles (past saturation) are left out of the
//! latency plot; rows where a simulator saturated without a result are skipped.

use anyhow::{bail, Context};
use pft_sim::scenario::plot::lines_svg;
use std::path::Path;

fn main() -> anyhow::Result<()> {
    let args = pft_tb::args()?;
    let [csv, out] = args.as_slice() else {
        bail!("usage: booksim_plot CURVES.csv OUT_DIR");
    };
    let text = std::fs::read_to_string(csv).with_context(|| format!("cannot read {csv}"))?;
    // network -> (booksim, ours) points of (offered, accepted, latency)
    let mut nets: Vec<(String, Vec<[Option<f64>; 5]>)> = Vec::new();
    for (i, line) in text.lines().enumerate().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        if f.len() != 6 {
            bail!("{csv} line {}: 6 fields expected, got {}", i + 1, f.len());
        }
        if f[0].ends_with("-saturation") {
            continue; // one point per network, in the docs' table
        }
        let num = |s: &str| s.trim().parse::<f64>().ok().filter(|v| v.is_finite());
        let row = [num(f[1]), num(f[2]), num(f[3]), num(f[4]), num(f[5])];
        match nets.iter_mut().find(|(n, _)| n == f[0]) {
            Some((_, v)) => v.push(row),
            None => nets.push((f[0].to_string(), vec![row])),
        }
    }
    let mut lat = Vec::new();
    let mut acc = Vec::new();
    let mut dashed = Vec::new();
    let mut ours_seen: Vec<Vec<[Option<f64>; 2]>> = Vec::new();
    for (name, rows) in &nets {
        for (who, a, l) in [("BookSim", 1, 2), ("ours", 3, 4)] {
            if who == "ours" {
                // two BookSim variants against the same run of ours: draw ours once
                let pts: Vec<[Option<f64>; 2]> = rows.iter().map(|r| [r[3], r[4]]).collect();
                if ours_seen.contains(&pts) {
                    continue;
                }
                ours_seen.push(pts);
            }
            let label = format!("{name} {who}");
            let pts = |k: usize, cap: f64| -> Vec<(f64, f64)> {
                rows.iter()
                    .filter_map(|r| Some((r[0]?, r[k]?)))
                    .filter(|p| p.1 <= cap)
                    .collect()
            };
            lat.push((label.clone(), pts(l, 400.0)));
            acc.push((label.clone(), pts(a, f64::INFINITY)));
            if who == "BookSim" {
                dashed.push(label);
            }
        }
    }
    let dashed: Vec<&str> = dashed.iter().map(String::as_str).collect();
    let out = Path::new(out);
    std::fs::create_dir_all(out).with_context(|| format!("cannot create {}", out.display()))?;
    for (file, title, y, series) in [
        (
            "booksim_latency.svg",
            "8-ary 2-cube and 4-ary 3-fly, uniform, 16-flit packets: latency (BookSim dashed)",
            "mean packet latency, cycles",
            &lat,
        ),
        (
            "booksim_accepted.svg",
            "8-ary 2-cube and 4-ary 3-fly, uniform, 16-flit packets: accepted (BookSim dashed)",
            "accepted, flits/node/cycle",
            &acc,
        ),
    ] {
        let p = out.join(file);
        if p.exists() {
            bail!("{} exists; give a new directory", p.display());
        }
        let svg = lines_svg(title, "offered load, flits/node/cycle", y, series, &dashed)?;
        std::fs::write(&p, svg).with_context(|| format!("cannot write {}", p.display()))?;
        println!("wrote {}", p.display());
    }
    Ok(())
}
