//! The IB CC study's moving forest (seed 002, "stormy" hot spots): the mean receive rate of
//! all nodes with congestion control off and with each `[[cc]]`/`[[pft]]` entry of a
//! hot-spot scenario, for several hot-spot lifetimes and node mixes.
//!
//! ```text
//! cargo run --release -p pft-sim --example moving_forest -- scenarios/ib-moving-forest.toml \
//!     --out out/moving [--lifetimes-ms 10,2,1] [--mixes v20,v60,b100p30,b100p60,b100p90] [--jobs N]
//! ```
//!
//! A mix is `vNN` (NN % V nodes, the rest C) or `b100pNN` (every node B, sending NN % of its
//! traffic to its hot spot). The lifetime sets `move_period_cycles` at the scenario's
//! `link_gbps`; the run is lengthened, if needed, so that its window holds at least five
//! lifetimes (`cycles.max` = warm-up + 5 lifetimes, rounded up to 100 k cycles).
//! Writes `moving.csv` (lifetime_ms, mix, config, rx_hot, rx_nonhot, rx_total, rx_mean, cycles;
//! Gb/s) and prints it with the change against `off`.

use anyhow::{bail, Context};
use clap::Parser;
use pft_sim::cc::CcConfig;
use pft_sim::scenario::{self, Progress, RunSpec, Scenario};
use pft_sim::workload::WorkloadConfig;
use std::path::PathBuf;

#[derive(Parser)]
struct Cli {
    /// A scenario with a `hotspot` workload.
    scenario: PathBuf,
    /// Output directory (created).
    #[arg(long)]
    out: PathBuf,
    /// Hot-spot lifetimes, ms.
    #[arg(long, value_delimiter = ',', default_value = "10,2,1")]
    lifetimes_ms: Vec<f64>,
    /// Node mixes: `vNN` or `b100pNN`.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "v20,v60,b100p30,b100p60,b100p90"
    )]
    mixes: Vec<String>,
    /// Runs at once (default: the number of cores).
    #[arg(long)]
    jobs: Option<usize>,
}

/// (frac_c, frac_v, frac_b, p_hot) of a mix.
type Mix = (f64, f64, f64, Option<f64>);

/// The mix of a name.
fn mix(name: &str) -> anyhow::Result<Mix> {
    let pct = |s: &str| -> anyhow::Result<f64> {
        let v: u32 = s
            .parse()
            .with_context(|| format!("--mixes {name}: `{s}` is not a percentage"))?;
        if v > 100 {
            bail!("--mixes {name}: {v} is not in 0..=100");
        }
        Ok(v as f64 / 100.0)
    };
    if let Some(p) = name.strip_prefix("b100p") {
        Ok((0.0, 0.0, 1.0, Some(pct(p)?)))
    } else if let Some(v) = name.strip_prefix('v') {
        let v = pct(v)?;
        Ok((1.0 - v, v, 0.0, None))
    } else {
        bail!(
            "--mixes {name}: a mix is vNN (NN % V nodes, the rest C) or b100pNN (all B, NN % hot)"
        )
    }
}

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    let base = Scenario::load(&cli.scenario)?;
    if !matches!(base.workload, WorkloadConfig::Hotspot(_)) {
        bail!("{}: the workload must be `hotspot`", cli.scenario.display());
    }
    if let Some(bad) = cli
        .lifetimes_ms
        .iter()
        .find(|&&l| !(l > 0.0 && l <= 1000.0))
    {
        bail!("--lifetimes-ms {bad}: must be in (0, 1000] ms");
    }
    let mixes: Vec<(String, Mix)> = cli
        .mixes
        .iter()
        .map(|m| mix(m).map(|x| (m.clone(), x)))
        .collect::<anyhow::Result<_>>()?;
    let mut configs = vec![("off".to_string(), CcConfig::None)];
    configs.extend(base.configs());
    let ns = base.network.cycle_ns();
    let mut jobs = Vec::new();
    for (li, _) in cli.lifetimes_ms.iter().enumerate() {
        for mi in 0..mixes.len() {
            for c in 0..configs.len() {
                jobs.push((li, mi, c));
            }
        }
    }
    let threads = cli
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let runs: Vec<(Scenario, RunSpec)> = jobs
        .iter()
        .map(|&(li, mi, c)| {
            let ms = cli.lifetimes_ms[li];
            let (_, (fc, fv, fb, p)) = mixes[mi];
            let mut sc = base.clone();
            let period = (ms * 1e6 / ns).round().max(1.0) as u64;
            sc.cycles.max = sc
                .cycles
                .max
                .max(sc.warmup() + (5 * period).div_ceil(100_000) * 100_000);
            if let WorkloadConfig::Hotspot(h) = &mut sc.workload {
                (h.frac_c, h.frac_v, h.frac_b) = (fc, fv, fb);
                if let Some(p) = p {
                    h.p_hot = p;
                }
                h.move_period_cycles = Some(period);
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
    for (&(li, mi, c), r) in jobs.iter().zip(outs) {
        let rates = r.hotspot_rates.context("no receive rates")?;
        rows.push((li, mi, c, rates, r.cycles_run));
    }
    rows.sort_by_key(|r| (r.0, r.1, r.2));
    std::fs::create_dir_all(&cli.out).with_context(|| format!("creating {}", cli.out.display()))?;
    let nodes = base.nodes() as f64;
    let mut csv = String::from("lifetime_ms,mix,config,rx_hot,rx_nonhot,rx_total,rx_mean,cycles\n");
    for (li, mi, c, r, cy) in &rows {
        csv += &format!(
            "{},{},{},{:.4},{:.4},{:.2},{:.4},{cy}\n",
            cli.lifetimes_ms[*li],
            mixes[*mi].0,
            configs[*c].0,
            r.rx_hot,
            r.rx_nonhot,
            r.rx_total,
            r.rx_total / nodes
        );
    }
    std::fs::write(cli.out.join("moving.csv"), &csv)?;
    print!("{csv}");
    println!("\nmean receive rate of all nodes, change against off:");
    for (li, mi, c, r, _) in rows.iter().filter(|r| r.2 != 0) {
        let off = rows
            .iter()
            .find(|o| o.0 == *li && o.1 == *mi && o.2 == 0)
            .expect("every point has an off run");
        println!(
            "  {} ms {:<8} {:<8} {:+.1} %",
            cli.lifetimes_ms[*li],
            mixes[*mi].0,
            configs[*c].0,
            100.0 * (r.rx_total / off.3.rx_total - 1.0)
        );
    }
    Ok(())
}
