//! net-bench: simulation speed (node-cycles/s) and peak memory of the network model under
//! a uniform Bernoulli load.
//!
//! ```text
//! cargo run --release -p pft-sim --bin net-bench -- [--topo ft128|ft120|ib648|single:N]
//!     [--load 0.5] [--cycles 100000] [--engine model|rtl] [--voq] [--check] [--pft off|on]
//!     [--msg-bytes 4096] [--seed 1]
//! ```
//! Prints one line: topology, engine, cycles, wall and CPU time (the CPU time, from
//! /proc/self/schedstat, is less sensitive to other load on the machine), node-cycles/s by
//! both, accepted load and peak RSS (VmHWM from /proc/self/status).

use pft_sim::net::{
    BernoulliSource, EngineKind, NetConfig, Network, Pattern, PftConfig, TopologyConfig,
};
use std::time::Instant;

fn usage() -> ! {
    eprintln!(
        "usage: net-bench [--topo ft128|ft120|ib648|single:N] [--load L] [--cycles N] \
         [--engine model|rtl] [--voq] [--check] [--pft on|off] [--msg-bytes B] [--seed S]"
    );
    std::process::exit(2)
}

fn vm_hwm_kib() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let l = s.lines().find(|l| l.starts_with("VmHWM:"))?;
    l.split_whitespace().nth(1)?.parse().ok()
}

/// CPU time of this process so far, seconds (/proc/self/schedstat: ns on CPU).
fn cpu_s() -> f64 {
    std::fs::read_to_string("/proc/self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<u64>().ok())
        .map_or(0.0, |ns| ns as f64 * 1e-9)
}

fn main() {
    let mut topo = "ft128".to_string();
    let mut load = 0.5f64;
    let mut cycles = 100_000u64;
    let mut engine = EngineKind::Model;
    let mut cfg = NetConfig::default();
    let mut pft = PftConfig::default();
    let mut msg_bytes = 4096u32;
    let mut seed = 1u64;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut val = || args.next().unwrap_or_else(|| usage());
        match a.as_str() {
            "--topo" => topo = val(),
            "--load" => load = val().parse().unwrap_or_else(|_| usage()),
            "--cycles" => cycles = val().parse().unwrap_or_else(|_| usage()),
            "--engine" => {
                engine = match val().as_str() {
                    "model" => EngineKind::Model,
                    "rtl" => EngineKind::Rtl,
                    _ => usage(),
                }
            }
            "--voq" => cfg.voq = true,
            "--check" => cfg.check = true,
            "--pft" => {
                pft.enable = match val().as_str() {
                    "on" => true,
                    "off" => false,
                    _ => usage(),
                }
            }
            "--msg-bytes" => msg_bytes = val().parse().unwrap_or_else(|_| usage()),
            "--seed" => seed = val().parse().unwrap_or_else(|_| usage()),
            _ => usage(),
        }
    }
    cfg.topology = match topo.as_str() {
        "ft128" => TopologyConfig::FatTree {
            radix: 16,
            leaves: 16,
        },
        "ft120" => TopologyConfig::default(),
        "ib648" => TopologyConfig::ib648(),
        t => match t.strip_prefix("single:").and_then(|n| n.parse().ok()) {
            Some(nodes) => TopologyConfig::SingleSwitch { nodes },
            None => usage(),
        },
    };
    let t0 = Instant::now();
    let mut net = match Network::new(&cfg, &pft, engine, seed) {
        Ok(n) => n,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1)
        }
    };
    let build_s = t0.elapsed().as_secs_f64();
    let nodes = net.nodes();
    let mut w = BernoulliSource::new(
        nodes,
        Pattern::Uniform,
        load,
        msg_bytes,
        cfg.flit_bytes,
        seed ^ 0xABCD,
    );
    let t1 = Instant::now();
    let c1 = cpu_s();
    if let Err(e) = net.run(&mut w, cycles) {
        eprintln!("error: {e}");
        std::process::exit(1)
    }
    let secs = t1.elapsed().as_secs_f64();
    let cpu = cpu_s() - c1;
    let st = net.total_stats();
    let accepted = st.flits_ejected as f64 / (cycles as f64 * nodes as f64);
    println!(
        "topology={topo} nodes={nodes} engine={engine:?} voq={} check={} pft={} load={load} cycles={cycles} build_s={build_s:.2} wall_s={secs:.3} cpu_s={cpu:.3} node_cycles_per_s={:.3e} node_cycles_per_cpu_s={:.3e} cycles_per_s={:.0} accepted_flits_per_node_cycle={accepted:.4} throttled_cycles={} peak_rss_mib={:.1}",
        cfg.voq,
        cfg.check,
        pft.enable,
        cycles as f64 * nodes as f64 / secs,
        cycles as f64 * nodes as f64 / cpu,
        cycles as f64 / secs,
        st.throttled_cycles,
        vm_hwm_kib().unwrap_or(0) as f64 / 1024.0
    );
}
