//! Where does a GPCNeT run crawl? Prints the placement (role of every NIC, by leaf), then
//! every `--every` cycles the bytes per cycle each traffic class delivered in the window
//! and the 14 fullest switch inputs, and at the end each class's longest wait without a
//! delivery (`Network::class_progress`). docs/network.md ("Arbitration") was found with it.
//!
//! ```sh
//! cargo run --release -p pft-sim --example class_progress -- scenarios/default.toml --every 250000
//! ```
use anyhow::Context;
use clap::Parser;
use pft_sim::net::Peer;
use pft_sim::scenario::Scenario;
use pft_sim::workload::gpcnet::{Layout, NodeRole};
use pft_sim::workload::tag;
use pft_sim::Network;
use std::collections::BTreeMap;
use std::path::PathBuf;

#[derive(Parser)]
#[command(about = "Per-class delivery rates and the fullest buffers of a GPCNeT run")]
struct Cli {
    scenario: PathBuf,
    /// A `[[pft]]` or `[[cc]]` name of the scenario, or `off`.
    #[arg(long, default_value = "off")]
    pft: String,
    /// Cycles per window.
    #[arg(long, default_value_t = 100_000)]
    every: u64,
    /// Stop after this many cycles [default: the scenario's cycles.max, or when the
    /// canaries finish].
    #[arg(long)]
    cycles: Option<u64>,
}

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    let sc = Scenario::load(&cli.scenario)?;
    let cc = pft_sim::scenario::run_spec(&sc, &cli.pft)?.cc;
    let mut net = Network::with_cc(&sc.network, &cc, sc.engine, sc.seed)?;
    let g = sc
        .gpcnet()
        .context("the scenario's workload is not gpcnet")?
        .clone();
    let lay = Layout::new(&g, net.nodes(), sc.seed);
    let mut s = String::new();
    for (i, r) in lay.roles.iter().enumerate() {
        if i % 12 == 0 {
            s.push_str(&format!("\nleaf {:2}: ", i / 12));
        }
        let c = match r {
            NodeRole::Canary { .. } => "C".to_string(),
            NodeRole::Congestor { group, rank } => format!(
                "{}{}",
                ["a", "i", "p", "g"][*group as usize],
                if *rank == 0 { "*" } else { "" }
            ),
        };
        s.push_str(&format!("{:>3}", c));
    }
    println!("layout (a=a2a i=incast p=put g=get, *=rank0){s}");
    let mut w = sc
        .workload
        .build_at(
            net.nodes(),
            sc.network.flit_bytes,
            sc.network.link_gbps,
            sc.seed,
        )
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let max = cli.cycles.unwrap_or(sc.cycles.max);
    let mut bytes: BTreeMap<&str, u64> = BTreeMap::new();
    let mut ports = Vec::new();
    for (si, spec) in net.topology().switches().iter().enumerate() {
        for (p, peer) in spec.ports.iter().enumerate() {
            if !matches!(peer, Peer::Unused) {
                ports.push((si as u32, p as u32, spec.level, format!("{peer:?}")));
            }
        }
    }
    while net.now() < max && !w.finished() {
        if let Err(e) = net.step(&mut w) {
            println!("ERROR {e}");
            break;
        }
        for d in net.last_deliveries() {
            *bytes.entry(tag::name(d.msg.tag)).or_default() += d.msg.bytes as u64;
        }
        if net.now() % cli.every == 0 {
            let mut line = format!("t={:>8}", net.now());
            for (k, v) in &bytes {
                line.push_str(&format!(
                    " {}={:.2}",
                    k.trim_start_matches("congestor_")
                        .trim_start_matches("canary_"),
                    *v as f64 / cli.every as f64
                ));
            }
            println!("{line}");
            bytes.clear();
            let mut occ: Vec<_> = ports
                .iter()
                .map(|(s, p, l, peer)| (net.switch_input_flits(*s, *p), *s, *p, *l, peer))
                .collect();
            occ.sort_by_key(|a| std::cmp::Reverse(a.0));
            let top: Vec<String> = occ
                .iter()
                .take(14)
                .map(|(o, s, p, l, peer)| {
                    format!(
                        "s{s}/L{l}p{p}<{}:{o}",
                        peer.replace("Switch", "S").replace("Nic", "N")
                    )
                })
                .collect();
            println!("   full: {}", top.join(" "));
        }
    }
    println!("end t={} finished={}", net.now(), w.finished());
    for (t, o, l) in net.class_progress() {
        println!("class {} outstanding {o} longest wait {l}", tag::name(t));
    }
    Ok(())
}
