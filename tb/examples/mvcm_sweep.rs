//! The table and plots of `tb/mvcm/sweep.sh`: reads `OUT_DIR/runs/<kind>-<value>-<row>/
//! summary.json` (one `pftsim run` per point: `kind` is `split`, with `value` the number
//! of hot-spot hosts, or `load`, with `value` the rate in bytes per cycle per first-stage
//! switch) and writes `OUT_DIR/sweep.csv` (kind, value, row, hot_hosts, load, accepted,
//! cold_lat_mean, cold_lat_peak, hot_link_util, marked_cold_frac, marked_hot_frac, cycles,
//! cold_wait_mean, hot_flits_in_flight_peak) and the plots `OUT_DIR/mvcm_split.svg` (the
//! peak cold latency against the hot-spot hosts), `OUT_DIR/mvcm_split_mean.svg` (the
//! mean cold latency against them; both log-log: log2 hosts, log10 cycles) and `OUT_DIR/mvcm_load.svg` (the mean cold latency
//! against accepted traffic, the seed's Fig. 9), one line per row. The `split` points at 16 hosts are the `load`
//! points at 0.45.
//!
//! ```text
//! cargo run --release -p pft-tb --example mvcm_sweep -- OUT_DIR
//! ```

use anyhow::{bail, Context};
use pft_sim::scenario::plot::lines_svg;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

/// One point's readings.
struct Point {
    kind: String,
    value: f64,
    row: String,
    hot: f64,
    load: f64,
    accepted: f64,
    cold_mean: f64,
    cold_peak: f64,
    util: f64,
    cold_marked: f64,
    hot_marked: f64,
    cycles: f64,
    cold_wait: f64,
    in_flight: f64,
}

fn num(v: &Value, path: &[&str]) -> f64 {
    let mut v = v;
    for k in path {
        v = &v[*k];
    }
    v.as_f64().unwrap_or(f64::NAN)
}

fn main() -> anyhow::Result<()> {
    let args = pft_tb::args()?;
    let [dir] = args.as_slice() else {
        bail!("usage: mvcm_sweep OUT_DIR");
    };
    let dir = Path::new(dir);
    let mut pts = Vec::new();
    for e in std::fs::read_dir(dir.join("runs")).context("reading OUT_DIR/runs")? {
        let e = e?;
        if !e.file_type()?.is_dir() {
            continue;
        }
        let name = e.file_name().to_string_lossy().to_string();
        let mut parts = name.splitn(3, '-');
        let (Some(kind), Some(value), Some(row)) = (parts.next(), parts.next(), parts.next())
        else {
            continue;
        };
        let value: f64 = value.parse().with_context(|| format!("value of {name}"))?;
        let text = std::fs::read_to_string(e.path().join("summary.json"))
            .with_context(|| format!("{name}/summary.json"))?;
        let s: Value = serde_json::from_str(&text).with_context(|| name.clone())?;
        let w = &s["config"]["workload"];
        pts.push(Point {
            kind: kind.to_string(),
            value,
            row: row.to_string(),
            hot: num(w, &["frac_c"]) * num(&s, &["nodes"]),
            load: num(w, &["load"]),
            accepted: num(&s, &["throughput", "accepted_per_node_cycle"]),
            cold_mean: num(&s, &["coldhot", "cold_lat_mean"]),
            cold_peak: num(&s, &["coldhot", "cold_lat_peak"]),
            util: num(&s, &["coldhot", "hot_link_util"]),
            cold_marked: num(&s, &["coldhot", "marked_cold_frac"]),
            hot_marked: num(&s, &["coldhot", "marked_hot_frac"]),
            cycles: num(&s, &["cycles_run"]),
            cold_wait: num(&s, &["coldhot", "cold_wait_mean"]),
            in_flight: num(&s, &["coldhot", "hot_flits_in_flight_peak"]),
        });
    }
    if pts.is_empty() {
        bail!("no runs under {}", dir.join("runs").display());
    }
    pts.sort_by(|a, b| {
        (&a.kind, &a.row, a.value)
            .partial_cmp(&(&b.kind, &b.row, b.value))
            .unwrap()
    });
    let mut w = csv::Writer::from_path(dir.join("sweep.csv"))?;
    w.write_record([
        "kind",
        "value",
        "row",
        "hot_hosts",
        "load",
        "accepted",
        "cold_lat_mean",
        "cold_lat_peak",
        "hot_link_util",
        "marked_cold_frac",
        "marked_hot_frac",
        "cycles",
        "cold_wait_mean",
        "hot_flits_in_flight_peak",
    ])?;
    for p in &pts {
        w.write_record([
            p.kind.clone(),
            p.value.to_string(),
            p.row.clone(),
            format!("{:.0}", p.hot),
            p.load.to_string(),
            format!("{:.5}", p.accepted),
            format!("{:.1}", p.cold_mean),
            format!("{:.1}", p.cold_peak),
            format!("{:.4}", p.util),
            format!("{:.5}", p.cold_marked),
            format!("{:.5}", p.hot_marked),
            format!("{:.0}", p.cycles),
            format!("{:.2}", p.cold_wait),
            format!("{:.0}", p.in_flight),
        ])?;
    }
    w.flush()?;
    // the split plots: peak and mean cold latency against hot-spot hosts, both on log
    // scales (8 to 128 hosts; 50 cycles to millions); the load plot: the split point at
    // 16 hosts is the medium load
    let mut split: BTreeMap<String, Vec<(f64, f64)>> = BTreeMap::new();
    let mut split_mean: BTreeMap<String, Vec<(f64, f64)>> = BTreeMap::new();
    let mut load: BTreeMap<String, Vec<(f64, f64)>> = BTreeMap::new();
    for p in &pts {
        if p.kind == "split" {
            split
                .entry(p.row.clone())
                .or_default()
                .push((p.value.log2(), p.cold_peak.log10()));
            split_mean
                .entry(p.row.clone())
                .or_default()
                .push((p.value.log2(), p.cold_mean.log10()));
        }
        if p.kind == "load" || (p.kind == "split" && p.value == 16.0) {
            load.entry(p.row.clone())
                .or_default()
                .push((p.accepted, p.cold_mean));
        }
    }
    for v in load.values_mut() {
        v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    }
    let split: Vec<_> = split.into_iter().collect();
    let split_mean: Vec<_> = split_mean.into_iter().collect();
    let load: Vec<_> = load.into_iter().collect();
    std::fs::write(
        dir.join("mvcm_split.svg"),
        lines_svg(
            "mvcm-hotspot.toml's network, hot spot after 50,000 packets: peak cold latency",
            "log2 of the hot-spot hosts (of 512; the others uniform): 3 = 8, 7 = 128",
            "log10 of the largest per-bin mean cold latency (cycles of 8 bytes)",
            &split,
            &[],
        )?,
    )?;
    std::fs::write(
        dir.join("mvcm_split_mean.svg"),
        lines_svg(
            "mvcm-hotspot.toml's network, hot spot after 50,000 packets: mean cold latency",
            "log2 of the hot-spot hosts (of 512; the others uniform): 3 = 8, 7 = 128",
            "log10 of the mean cold latency over the run (cycles of 8 bytes)",
            &split_mean,
            &[],
        )?,
    )?;
    std::fs::write(
        dir.join("mvcm_load.svg"),
        lines_svg(
            "mvcm-hotspot.toml's network, 16 hot-spot hosts: cold latency against accepted traffic",
            "accepted (flits/node/cycle)",
            "mean cold latency from generation (cycles of 8 bytes)",
            &load,
            &[],
        )?,
    )?;
    Ok(())
}
