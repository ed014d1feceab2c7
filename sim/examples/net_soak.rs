//! Network soak: a scenario (default `scenarios/soak648.toml`: 648 NICs, moving hot spots,
//! every run-time fault repeating) run for many cycles with its first PFT configuration.
//! Every `--every` cycles it runs the full invariant checker (credit conservation on every
//! link, buffer occupancy against the packets, PFT error flags, flit totals) and prints one
//! line: cycle, messages delivered, accepted rate since the last line, flits in flight, and
//! memory (RSS now and peak, from /proc/self/status). Exits non-zero on any violation,
//! deadlock or starvation. `make soak` runs it; docs/soak.md has the output.
//!
//! ```sh
//! cargo run --release -p pft-sim --example net_soak -- scenarios/soak648.toml --cycles 10000000
//! ```

use anyhow::Context;
use clap::Parser;
use pft_sim::net::{Delivery, Message, Workload};
use pft_sim::scenario::Scenario;
use pft_sim::Network;
use std::path::PathBuf;
use std::time::Instant;

#[derive(Parser)]
#[command(about = "Run a scenario for many cycles, checking invariants and memory")]
struct Cli {
    #[arg(default_value = "scenarios/soak648.toml")]
    scenario: PathBuf,
    /// Cycles to run [default: the scenario's cycles.max].
    #[arg(long)]
    cycles: Option<u64>,
    /// Cycles between checkpoints.
    #[arg(long, default_value_t = 1_000_000)]
    every: u64,
}

/// Counts deliveries on the way to the real workload.
struct Counting<W> {
    inner: W,
    delivered: u64,
    bytes: u64,
}

impl<W: Workload> Workload for Counting<W> {
    fn tick(&mut self, now: u64, out: &mut Vec<Message>) {
        self.inner.tick(now, out)
    }
    fn delivered(&mut self, now: u64, d: &Delivery) {
        self.delivered += 1;
        self.bytes += d.msg.bytes as u64;
        self.inner.delivered(now, d)
    }
}

/// (VmRSS, VmHWM) in KiB.
fn memory_kib() -> (u64, u64) {
    let s = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |k: &str| {
        s.lines()
            .find(|l| l.starts_with(k))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|v| v.parse().ok())
            .unwrap_or(0)
    };
    (field("VmRSS:"), field("VmHWM:"))
}

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    let sc = Scenario::load(&cli.scenario)?;
    let cycles = cli.cycles.unwrap_or(sc.cycles.max);
    anyhow::ensure!(cli.every >= 1, "--every must be at least 1");
    let pft = sc.pft.first().map(|p| p.config()).unwrap_or_default();
    let mut net =
        Network::new(&sc.network, &pft, sc.engine, sc.seed).context("building the network")?;
    let nodes = net.nodes();
    let inner = sc
        .workload
        .build_at(nodes, sc.network.flit_bytes, sc.network.link_gbps, sc.seed)
        .map_err(|e| anyhow::anyhow!("building the workload: {e}"))?;
    let mut w = Counting {
        inner,
        delivered: 0,
        bytes: 0,
    };
    println!(
        "soak {}: {} NICs, {} faults, {cycles} cycles, checkpoint every {}",
        sc.name(),
        nodes,
        sc.network.faults.len(),
        cli.every
    );
    println!(
        "{:>10} {:>11} {:>9} {:>9} {:>7} {:>9} {:>9} {:>7}",
        "cycle", "delivered", "accepted", "in_flight", "cong%", "rss_kib", "peak_kib", "wall_s"
    );
    let wall = Instant::now();
    let (mut last_ej, mut last_cong, mut last_t) = (0u64, 0u64, 0u64);
    let mut first_rss = None;
    let mut worst_rss = 0;
    while net.now() < cycles {
        let n = cli.every.min(cycles - net.now());
        net.run(&mut w, n)
            .with_context(|| format!("soak failed (scenario {}, seed {})", sc.name(), sc.seed))?;
        net.check()
            .with_context(|| format!("invariant check at cycle {}", net.now()))?;
        let t = net.total_stats();
        let dt = (net.now() - last_t) as f64;
        let (rss, hwm) = memory_kib();
        if net.now() >= 2 * cli.every.min(cycles) {
            first_rss.get_or_insert(rss);
        }
        worst_rss = worst_rss.max(rss);
        println!(
            "{:>10} {:>11} {:>9.4} {:>9} {:>7.2} {:>9} {:>9} {:>7.0}",
            net.now(),
            w.delivered,
            (t.flits_ejected - last_ej) as f64 / dt / nodes as f64,
            net.flits_in_network(),
            100.0 * (t.congested_cycles - last_cong) as f64 / dt / nodes as f64,
            rss,
            hwm,
            wall.elapsed().as_secs_f64()
        );
        (last_ej, last_cong, last_t) = (t.flits_ejected, t.congested_cycles, net.now());
    }
    let (_, hwm) = memory_kib();
    println!(
        "done: {} cycles x {} NICs in {:.0} s ({:.1} M node-cycles/s); every checkpoint passed the full checker; RSS after the second checkpoint {} KiB, largest {} KiB, peak (VmHWM) {} KiB",
        net.now(),
        nodes,
        wall.elapsed().as_secs_f64(),
        net.now() as f64 * nodes as f64 / wall.elapsed().as_secs_f64() / 1e6,
        first_rss.unwrap_or(0),
        worst_rss,
        hwm
    );
    Ok(())
}
