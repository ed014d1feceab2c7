//! The IB CC study's windy-forest curve (seed 002, Fig. 6 style): the mean receive rate of
//! the non-hot-spot nodes against the B nodes' hot-spot share p, with congestion control off
//! and with each `[[cc]]`/`[[pft]]` entry of a hot-spot scenario, beside t_max (the rate the
//! non-hot-spot nodes would get without hot spots: the uniform traffic spread over the others).
//!
//! ```text
//! cargo run --release -p pft-sim --example windy_forest -- scenarios/ib-windy-forest.toml \
//!     --out out/windy [--p 0,10,...,100] [--b 25,50,75,100] [--jobs N]
//! ```
//! Writes `windy.csv` (p, config, rx_hot, rx_nonhot, rx_total, t_max; Gb/s; b, the B nodes'
//! share in percent) and `windy.svg` (one curve per config and per B share).

use anyhow::{bail, Context};
use clap::Parser;
use pft_sim::cc::CcConfig;
use pft_sim::scenario::{self, plot, Progress, RunSpec, Scenario};
use pft_sim::workload::WorkloadConfig;
use std::path::PathBuf;

#[derive(Parser)]
struct Cli {
    /// A scenario with a `hotspot` workload (its `p_hot` is replaced by each p).
    scenario: PathBuf,
    /// Output directory (created).
    #[arg(long)]
    out: PathBuf,
    /// Hot-spot shares of the B nodes, percent.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "0,10,20,30,40,50,60,70,80,90,100"
    )]
    p: Vec<u32>,
    /// Shares of B nodes, percent; the other nodes are split 80/20 C/V as in the seed's
    /// windy forest [default: the scenario's `frac_b`, with its C and V].
    #[arg(long, value_delimiter = ',')]
    b: Vec<u32>,
    /// Runs at once (default: the number of cores).
    #[arg(long)]
    jobs: Option<usize>,
}

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    let base = Scenario::load(&cli.scenario)?;
    let WorkloadConfig::Hotspot(h) = &base.workload else {
        bail!("{}: the workload must be `hotspot`", cli.scenario.display());
    };
    if let Some(bad) = cli.p.iter().chain(&cli.b).find(|&&p| p > 100) {
        bail!("--p/--b {bad}: shares are percentages in 0..=100");
    }
    // (B %, frac_b, frac_c, frac_v)
    let mixes: Vec<(u32, f64, f64, f64)> = if cli.b.is_empty() {
        vec![(
            (h.frac_b * 100.0).round() as u32,
            h.frac_b,
            h.frac_c,
            h.frac_v,
        )]
    } else {
        cli.b
            .iter()
            .map(|&b| {
                let fb = b as f64 / 100.0;
                (b, fb, 0.8 * (1.0 - fb), 0.2 * (1.0 - fb))
            })
            .collect()
    };
    let nodes = base.nodes() as f64;
    let node_gbps = base.network.gbps(h.load);
    let mut configs = vec![("off".to_string(), CcConfig::none())];
    configs.extend(base.configs());
    let jobs: Vec<(usize, u32, usize)> = (0..mixes.len())
        .flat_map(|m| {
            let n = configs.len();
            cli.p
                .iter()
                .flat_map(move |&p| (0..n).map(move |c| (m, p, c)))
        })
        .collect();
    let threads = cli
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let runs: Vec<(Scenario, RunSpec)> = jobs
        .iter()
        .map(|&(m, p, c)| {
            let mut sc = base.clone();
            if let WorkloadConfig::Hotspot(h) = &mut sc.workload {
                h.p_hot = p as f64 / 100.0;
                (_, h.frac_b, h.frac_c, h.frac_v) = mixes[m];
            }
            let (label, cc) = configs[c].clone();
            let spec = RunSpec {
                label,
                cc,
                congestors: true,
            };
            (sc, spec)
        })
        .collect();
    let pairs: Vec<(&Scenario, &RunSpec)> = runs.iter().map(|(s, r)| (s, r)).collect();
    let outs = scenario::run_each(&pairs, threads, &Progress::new())?;
    let mut rows = Vec::new();
    for (&(m, p, c), r) in jobs.iter().zip(outs) {
        let rates = r.hotspot_rates.context("no receive rates")?;
        let pf = p as f64 / 100.0;
        let (_, fb, fc, _) = mixes[m];
        let n_b = (fb * nodes).round();
        let n_v = nodes - n_b - (fc * nodes).round();
        // Uniform traffic spread over the other nodes: what a non-hot-spot node receives
        // without hot spots.
        let t_max = (n_v + (1.0 - pf) * n_b) * node_gbps / (nodes - 1.0);
        rows.push((m, p, c, rates, t_max));
    }
    rows.sort_by_key(|r| (r.0, r.1, r.2));
    std::fs::create_dir_all(&cli.out).with_context(|| format!("creating {}", cli.out.display()))?;
    let mut csv = String::from("p,config,rx_hot,rx_nonhot,rx_total,t_max,b\n");
    for (m, p, c, r, t) in &rows {
        csv += &format!(
            "{p},{},{:.4},{:.4},{:.2},{:.4},{}\n",
            configs[*c].0, r.rx_hot, r.rx_nonhot, r.rx_total, t, mixes[*m].0
        );
    }
    std::fs::write(cli.out.join("windy.csv"), &csv)?;
    let one = mixes.len() == 1;
    let mut series: Vec<(String, Vec<(f64, f64)>)> = Vec::new();
    let mut dashed: Vec<String> = Vec::new();
    for (m, mix) in mixes.iter().enumerate() {
        let tag = |name: &str| {
            if one {
                name.to_string()
            } else {
                format!("{name}, B = {} %", mix.0)
            }
        };
        for (c, (name, _)) in configs.iter().enumerate() {
            let pts = rows
                .iter()
                .filter(|r| r.0 == m && r.2 == c)
                .map(|r| (r.1 as f64, r.3.rx_nonhot))
                .collect();
            series.push((tag(name), pts));
        }
        let t = tag("t_max");
        series.push((
            t.clone(),
            rows.iter()
                .filter(|r| r.0 == m && r.2 == 0)
                .map(|r| (r.1 as f64, r.4))
                .collect(),
        ));
        dashed.push(t);
    }
    let dashed: Vec<&str> = dashed.iter().map(String::as_str).collect();
    let svg = plot::lines_svg(
        &format!(
            "{}: non-hot-spot receive rate vs B nodes' hot-spot share",
            base.name()
        ),
        "p (% of a B node's traffic to its hot spot)",
        "mean receive rate of non-hot-spot nodes (Gb/s)",
        &series,
        &dashed,
    )?;
    std::fs::write(cli.out.join("windy.svg"), svg)?;
    print!("{csv}");
    Ok(())
}
