//! Where does IB CC leave a hot-spot run's victims waiting? Runs a hot-spot scenario with
//! one `[[cc]]` entry (or `off`) and, every `--every` cycles after the warm-up, samples:
//!
//! - the CCTI of every hot flow (a non-hot-spot NIC towards the hot spot its hot stream
//!   feeds: the largest CCTI it holds towards any hot spot): mean, and the share of samples
//!   at `ccti_limit` (the table's last entry: the flow cannot be slowed further);
//! - the switch input buffers by level (leaf inputs fed by a NIC, inputs fed by a switch
//!   one level down, inputs fed by a switch one level up): mean flits and the share of
//!   samples completely full (no credit: a victim's packet cannot enter).
//!
//! docs/results.md uses it for the windy forest's 100 % B misses.
//!
//! ```sh
//! cargo run --release -p pft-sim --example ib_census -- scenarios/ib-windy-forest.toml --cc ibcc
//! ```

use anyhow::Context;
use clap::Parser;
use pft_sim::cc::CcConfig;
use pft_sim::net::{NodeId, Peer};
use pft_sim::scenario::Scenario;
use pft_sim::workload::NodeClass;
use pft_sim::workload::{AnyWorkload, WorkloadConfig};
use pft_sim::Network;
use std::path::PathBuf;

#[derive(Parser)]
#[command(about = "Sample hot flows' CCTIs and switch buffers during an IB CC hot-spot run")]
struct Cli {
    scenario: PathBuf,
    /// A `[[cc]]` name of the scenario, or `off`.
    #[arg(long, default_value = "off")]
    cc: String,
    /// Cycles between samples.
    #[arg(long, default_value_t = 1000)]
    every: u64,
    /// Change a scenario value, as `pftsim run --set` (repeatable).
    #[arg(long = "set", value_name = "KEY=VALUE", value_parser = pft_sim::scenario::overrides::parse_set)]
    sets: Vec<(String, toml::Value)>,
}

const LEVELS: [&str; 3] = ["from NIC", "from below", "from above"];

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    let sc = Scenario::load_with(&cli.scenario, &cli.sets)?;
    let cc = if cli.cc == "off" {
        CcConfig::none()
    } else {
        sc.config_named(&cli.cc)
            .with_context(|| format!("--cc {}: no such [[cc]] entry", cli.cc))?
    };
    let WorkloadConfig::Hotspot(_) = &sc.workload else {
        anyhow::bail!("the scenario's workload is not a hot-spot workload");
    };
    let limit = match &cc {
        CcConfig::Ibcc(c) => Some(c.ccti_limit),
        _ => None,
    };
    let mut net = Network::with_cc(&sc.network, &cc, sc.engine, sc.seed)?;
    let nodes = net.nodes();
    let mut w = sc
        .workload
        .build_at(nodes, sc.network.flit_bytes, sc.network.link_gbps, sc.seed)
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let AnyWorkload::Hotspot(h) = &w else {
        unreachable!("a hot-spot config builds a hot-spot workload")
    };
    // As a scenario run does: B nodes serve their two streams p : 1 - p.
    pft_sim::scenario::run::set_stream_shares(&sc.workload, &w, &mut net);
    let sources: Vec<NodeId> = NodeId::all(nodes)
        .filter(|&n| !h.is_hotspot(n) && h.class_of(n) != NodeClass::V)
        .collect();
    let cap = sc.network.buffer_flits as f64;
    let mut bufs: [Vec<(u32, u32)>; 3] = Default::default();
    let topo = net.topology();
    for (s, spec) in topo.switches().iter().enumerate() {
        for (p, peer) in spec.ports.iter().enumerate() {
            let class = match peer {
                Peer::Unused => continue,
                Peer::Nic(_) => 0,
                Peer::Switch { switch, .. }
                    if topo.switches()[*switch as usize].level < spec.level =>
                {
                    1
                }
                Peer::Switch { .. } => 2,
            };
            bufs[class].push((s as u32, p as u32));
        }
    }
    let warmup = sc.warmup();
    let (mut samples, mut ccti_sum, mut at_limit, mut flows) = (0u64, 0u64, 0u64, 0u64);
    let (mut sum, mut full) = ([0f64; 3], [0f64; 3]);
    while net.now() < sc.cycles.max {
        net.step(&mut w)?;
        let t = net.now();
        if t < warmup || t % cli.every != 0 {
            continue;
        }
        samples += 1;
        let AnyWorkload::Hotspot(h) = &w else {
            unreachable!()
        };
        for &n in &sources {
            let c = h
                .hotspots()
                .iter()
                .filter_map(|&d| net.ccti(n, d))
                .max()
                .unwrap_or(0);
            flows += 1;
            ccti_sum += c as u64;
            at_limit += (Some(c as u64) == limit) as u64;
        }
        for k in 0..3 {
            for &(s, p) in &bufs[k] {
                let f = net.switch_input_flits(s, p) as f64;
                sum[k] += f;
                full[k] += (f >= cap) as u8 as f64;
            }
        }
    }
    anyhow::ensure!(samples > 0, "no sample: the run ended before the warm-up");
    println!(
        "scenario {} cc {}: {} cycles, {} samples from cycle {warmup}, every {}",
        sc.name(),
        cli.cc,
        net.now(),
        samples,
        cli.every
    );
    if flows > 0 {
        println!(
            "hot flows ({} B/C NICs): mean CCTI {:.1}, at ccti_limit in {:.1} % of samples",
            sources.len(),
            ccti_sum as f64 / flows as f64,
            100.0 * at_limit as f64 / flows as f64
        );
    }
    println!(
        "{:<11} {:>7} {:>11} {:>7}",
        "inputs", "buffers", "mean flits", "full %"
    );
    for k in 0..3 {
        let n = (bufs[k].len() as f64).max(1.0) * samples as f64;
        println!(
            "{:<11} {:>7} {:>11.1} {:>7.2}",
            LEVELS[k],
            bufs[k].len(),
            sum[k] / n,
            100.0 * full[k] / n
        );
    }
    Ok(())
}
