//! Where do the flits of a congested run sit? Runs a scenario with one PFT configuration
//! (or PFT off) and, every `--every` cycles after the warm-up, counts the flits in every
//! switch input buffer by class:
//!
//! - `injection`: leaf inputs fed by a NIC. This is exactly the `c` the NIC's PFT block sees.
//! - `spine_in`: spine inputs, fed by leaves (the up path).
//! - `leaf_down`: leaf inputs fed by spines (the down path, towards the destinations).
//!
//! It prints the mean flits per buffer and the share of all buffered flits per class, plus
//! the fraction of buffer samples of each class that are more than half full, and that are
//! completely full (no credit at all: even a 1-flit packet must wait). It also samples every
//! NIC: the share of NIC samples whose PFT block is Congested, and the mean `c` (flits in
//! flight on the NIC's link, credits not yet returned) of the NICs while Congested.
//! docs/results.md and docs/reproduction.md use it to locate the congestion trees.
//!
//! ```sh
//! cargo run --release -p pft-sim --example buffer_census -- scenarios/default.toml --pft off
//! ```

use anyhow::Context;
use clap::Parser;
use pft_sim::cc::CcConfig;
use pft_sim::net::Peer;
use pft_sim::scenario::Scenario;
use pft_sim::Network;
use std::path::PathBuf;

#[derive(Parser)]
#[command(about = "Count buffered flits by buffer class during a scenario run")]
struct Cli {
    scenario: PathBuf,
    /// A `[[pft]]` name of the scenario, or `off`.
    #[arg(long, default_value = "off")]
    pft: String,
    /// Cycles between samples.
    #[arg(long, default_value_t = 1000)]
    every: u64,
    /// Change a scenario value, as `pftsim run --set` (repeatable).
    #[arg(long = "set", value_name = "KEY=VALUE", value_parser = pft_sim::scenario::overrides::parse_set)]
    sets: Vec<(String, toml::Value)>,
    /// Stop after this many cycles [default: the scenario's cycles.max, or when a GPCNeT
    /// workload's canaries finish].
    #[arg(long)]
    cycles: Option<u64>,
}

const CLASSES: [&str; 3] = ["injection", "spine_in", "leaf_down"];

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    let sc = Scenario::load_with(&cli.scenario, &cli.sets)?;
    let cc = if cli.pft == "off" {
        CcConfig::none()
    } else {
        sc.config_named(&cli.pft)
            .with_context(|| format!("--pft {}: no such [[pft]] or [[cc]] entry", cli.pft))?
    };
    let mut net = Network::with_cc(&sc.network, &cc, sc.engine, sc.seed)?;
    let mut w = sc
        .workload
        .build_at(
            net.nodes(),
            sc.network.flit_bytes,
            sc.network.link_gbps,
            sc.seed,
        )
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let cap = sc.network.buffer_flits as f64;
    // Buffers of each class: (switch, port).
    let mut bufs: [Vec<(u32, u32)>; 3] = Default::default();
    for (s, spec) in net.topology().switches().iter().enumerate() {
        for (p, peer) in spec.ports.iter().enumerate() {
            let class = match (spec.level, peer) {
                (_, Peer::Unused) => continue,
                (0, Peer::Nic(_)) => 0,
                (0, Peer::Switch { .. }) => 2,
                _ => 1,
            };
            bufs[class].push((s as u32, p as u32));
        }
    }
    let max = cli.cycles.unwrap_or(sc.cycles.max);
    let warmup = sc.warmup();
    let stop_when_finished = cli.cycles.is_none() && sc.gpcnet().is_some();
    let (mut sum, mut full, mut samples) = ([0f64; 3], [0f64; 3], 0u64);
    let mut brim = [0f64; 3];
    // NIC samples: Congested, and the sum of their c.
    let (mut cong, mut cong_c) = (0u64, 0u64);
    while net.now() < max && !(stop_when_finished && w.finished()) {
        net.step(&mut w)?;
        let t = net.now();
        if t >= warmup && t % cli.every == 0 {
            samples += 1;
            for k in 0..3 {
                for &(s, p) in &bufs[k] {
                    let f = net.switch_input_flits(s, p) as f64;
                    sum[k] += f;
                    full[k] += (f > cap / 2.0) as u8 as f64;
                    brim[k] += (f >= cap) as u8 as f64;
                }
            }
            for n in 0..net.nodes() {
                let n = pft_sim::net::NodeId(n);
                if net.congested(n) {
                    cong += 1;
                    cong_c += net.used_credits(n) as u64;
                }
            }
        }
    }
    anyhow::ensure!(samples > 0, "no sample: the run ended before the warm-up");
    let total: f64 = sum.iter().sum();
    println!(
        "scenario {} pft {}: {} cycles, {} samples from cycle {warmup}, every {}",
        sc.name(),
        cli.pft,
        net.now(),
        samples,
        cli.every
    );
    println!(
        "{:<10} {:>7} {:>12} {:>14} {:>13} {:>7}",
        "class", "buffers", "mean flits", "share of flits", ">half full %", "full %"
    );
    for k in 0..3 {
        let n = bufs[k].len() as f64;
        println!(
            "{:<10} {:>7} {:>12.1} {:>14.3} {:>13.1} {:>7.2}",
            CLASSES[k],
            bufs[k].len(),
            sum[k] / samples as f64 / n,
            sum[k] / total,
            100.0 * full[k] / samples as f64 / n,
            100.0 * brim[k] / samples as f64 / n
        );
    }
    let nic_samples = samples * net.nodes() as u64;
    println!(
        "NICs: Congested in {:.1} % of samples; mean c while Congested {}",
        100.0 * cong as f64 / nic_samples as f64,
        if cong > 0 {
            format!("{:.1} flits", cong_c as f64 / cong as f64)
        } else {
            "- (never Congested)".into()
        }
    );
    Ok(())
}
