//! The table and plots of `tb/selftuned/curves.sh`: reads `OUT_DIR/runs/<pattern>-<load>/
//! compare.csv` (one `pftsim compare` per point) and writes `OUT_DIR/curves.csv` (pattern,
//! load, row, accepted, lat_mean, lat_p99, cong_pct, thr_pct) and
//! `OUT_DIR/selftuned_latency.svg`, `OUT_DIR/selftuned_accepted.svg`: mean packet latency
//! and accepted throughput against offered load, one line per (row, pattern) of uniform and
//! complement, complement dashed (seed 003's Figs. 4 and 13-15); and per pattern
//! `OUT_DIR/selftuned_<pattern>_{latency,accepted}.svg`, one line per row.
//!
//! ```text
//! cargo run --release -p pft-tb --example selftuned_curves -- OUT_DIR
//! ```

use anyhow::{bail, Context};
use pft_sim::scenario::plot::lines_svg;
use std::collections::BTreeMap;
use std::path::Path;

fn main() -> anyhow::Result<()> {
    let args = pft_tb::args()?;
    let [dir] = args.as_slice() else {
        bail!("usage: selftuned_curves OUT_DIR");
    };
    let dir = Path::new(dir);
    let mut rows = Vec::new();
    for e in std::fs::read_dir(dir.join("runs")).context("reading OUT_DIR/runs")? {
        let e = e?;
        if !e.file_type()?.is_dir() {
            continue;
        }
        let name = e.file_name().to_string_lossy().to_string();
        let Some((pattern, load)) = name.rsplit_once('-') else {
            continue;
        };
        let load: f64 = load.parse().with_context(|| format!("load of {name}"))?;
        let mut rd = csv::Reader::from_path(e.path().join("compare.csv"))
            .with_context(|| format!("{name}/compare.csv"))?;
        let head = rd.headers()?.clone();
        let col = |k: &str| head.iter().position(|h| h == k).context(k.to_string());
        let (c, a, l, p, fc, ft) = (
            col("config")?,
            col("accepted")?,
            col("lat_mean")?,
            col("lat_p99")?,
            col("frac_congested")?,
            col("frac_throttled")?,
        );
        for r in rd.records() {
            let r = r?;
            if &r[c] == "off" {
                continue; // the same run as `base`
            }
            let f = |i: usize| r[i].parse::<f64>().unwrap_or(f64::NAN);
            rows.push((
                pattern.to_string(),
                load,
                r[c].to_string(),
                f(a),
                f(l),
                f(p),
                100.0 * f(fc),
                100.0 * f(ft),
            ));
        }
    }
    if rows.is_empty() {
        bail!("no runs under {}", dir.join("runs").display());
    }
    rows.sort_by(|x, y| (&x.0, &x.2, x.1).partial_cmp(&(&y.0, &y.2, y.1)).unwrap());
    let mut w = csv::Writer::from_path(dir.join("curves.csv"))?;
    w.write_record([
        "pattern", "load", "row", "accepted", "lat_mean", "lat_p99", "cong_pct", "thr_pct",
    ])?;
    for r in &rows {
        w.write_record([
            r.0.clone(),
            r.1.to_string(),
            r.2.clone(),
            format!("{:.4}", r.3),
            format!("{:.1}", r.4),
            format!("{:.0}", r.5),
            format!("{:.1}", r.6),
            format!("{:.1}", r.7),
        ])?;
    }
    w.flush()?;
    // one pair of plots per pattern (rows as lines), then uniform against complement
    let patterns: std::collections::BTreeSet<&str> = rows.iter().map(|r| r.0.as_str()).collect();
    for pat in patterns {
        let mut lat: BTreeMap<String, Vec<(f64, f64)>> = BTreeMap::new();
        let mut acc: BTreeMap<String, Vec<(f64, f64)>> = BTreeMap::new();
        for r in rows.iter().filter(|r| r.0 == pat) {
            lat.entry(r.2.clone()).or_default().push((r.1, r.4));
            acc.entry(r.2.clone()).or_default().push((r.1, r.3));
        }
        for (what, y, s) in [
            ("latency", "latency (cycles)", lat),
            ("accepted", "accepted (flits/node/cycle)", acc),
        ] {
            let s: Vec<_> = s.into_iter().collect();
            let svg = lines_svg(
                &format!("16-ary 2-cube, {pat}: {what} against offered load"),
                "offered load (flits/node/cycle)",
                y,
                &s,
                &[],
            )?;
            std::fs::write(dir.join(format!("selftuned_{pat}_{what}.svg")), svg)?;
        }
    }
    let mut lat: BTreeMap<String, Vec<(f64, f64)>> = BTreeMap::new();
    let mut acc: BTreeMap<String, Vec<(f64, f64)>> = BTreeMap::new();
    for r in rows
        .iter()
        .filter(|r| r.0 == "uniform" || r.0 == "complement")
    {
        let k = format!("{} {}", r.2, r.0);
        lat.entry(k.clone()).or_default().push((r.1, r.4));
        acc.entry(k).or_default().push((r.1, r.3));
    }
    let dashed: Vec<String> = lat
        .keys()
        .filter(|k| k.ends_with("complement"))
        .cloned()
        .collect();
    let dashed: Vec<&str> = dashed.iter().map(String::as_str).collect();
    let lat: Vec<_> = lat.into_iter().collect();
    let acc: Vec<_> = acc.into_iter().collect();
    for (file, title, y, s) in [
        (
            "selftuned_latency.svg",
            "mean packet latency from generation",
            "latency (cycles)",
            &lat,
        ),
        (
            "selftuned_accepted.svg",
            "delivered throughput",
            "accepted (flits/node/cycle)",
            &acc,
        ),
    ] {
        let svg = lines_svg(
            &format!("16-ary 2-cube, 3 VCs x 8 flits, Duato: {title}"),
            "offered load (flits/node/cycle)",
            y,
            s,
            &dashed,
        )?;
        std::fs::write(dir.join(file), svg)?;
    }
    Ok(())
}
