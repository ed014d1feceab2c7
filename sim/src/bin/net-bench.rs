//! net-bench: simulation speed (node-cycles/s) and peak memory of the network model under
//! a uniform Bernoulli load.
//!
//! `cargo run --release -p pft-sim --bin net-bench -- --help` lists the flags (topologies,
//! loads, patterns, latencies, lanes, schemes) with their ranges; docs/network.md §9.
//!
//! Prints one line: topology, engine, cycles, wall and CPU time (the CPU time, from
//! /proc/self/schedstat, is less sensitive to other load on the machine), node-cycles/s by
//! both, accepted load, mean message latency and peak RSS (VmHWM from /proc/self/status).
//! A bad argument or a flag value the network refuses is a usage error (exit status 2)
//! naming the flag and its range; a network that fails to build or run, exit 1.

use clap::Parser;
use pft_sim::cc::pft::{EngineKind, PftConfig};
use pft_sim::cc::{CcConfig, Network, KINDS};
use pft_sim::net::{
    BernoulliSource, Delivery, Message, NetConfig, Pattern, Routing, Switching, TopologyConfig,
    Workload,
};
use pft_sim::scenario::output::LastWords;
use pft_sim::workload::config::MAX_MSG_BYTES;
use std::process::ExitCode;
use std::time::Instant;

// a closed stdout (`>&-`) is found before Rust's runtime hides it (`pft_hdl::outfile`)
pft_hdl::standard_fds_guard!();

// the refusals of the network the flags describe, as usage errors naming the flags
#[path = "net-bench/refusal.rs"]
mod refusal;
use refusal::refused;

/// Simulation speed and peak memory of the network model under uniform Bernoulli load.
// `pub`: tests/fuzz_inputs.rs includes this file as a module to fuzz the parser.
#[derive(Parser, Debug)]
#[command(name = "net-bench", version, allow_negative_numbers = true)]
pub struct Args {
    /// Topology: ft128 (radix-16 fat tree), ft120 (the default 120-node tree), ib648
    /// (648 nodes, radix 36), single:N (one switch, N in 2..=64 NICs), torus:K,N and
    /// mesh:K,N (K-ary N-cube, dimension-order routing), tree:K,N (K-ary N-tree),
    /// fly:K,N (K-ary N-fly, all K^N NICs), dragonfly:P,A,H or dragonfly:P,A,H,G (G groups of A routers of
    /// P NICs and H global links; G default A*H+1; needs --vcs 2 or more) or file:PATH (BookSim's anynet format,
    /// up*/down* routing); ranges as the scenario keys
    /// (docs/scenarios.md).
    #[arg(long, value_name = "TOPO", default_value = "ft128", value_parser = parse_topo)]
    topo: Topo,
    /// Offered flits per cycle per NIC, in 0..=1.
    #[arg(long, value_name = "L", default_value_t = 0.5, value_parser = parse_load)]
    load: f64,
    /// Simulated cycles, 1..=10^10.
    #[arg(long, value_name = "N", default_value_t = 100_000, value_parser = parse_cycles)]
    cycles: u64,
    /// PFT implementation in every NIC: model, rtl or verilator (default model); --cc pft
    /// only.
    #[arg(long, value_name = "ENGINE", value_parser = parse_engine)]
    engine: Option<EngineKind>,
    /// Virtual output queues at switch inputs.
    #[arg(long)]
    voq: bool,
    /// Run the invariant checker every cycle.
    #[arg(long)]
    check: bool,
    /// PFT on (the paper's configuration) or off [default: on]; with `--cc pft` only.
    #[arg(long, value_name = "on|off", action = clap::ArgAction::Set, value_parser = parse_on_off)]
    pft: Option<bool>,
    /// Congestion control: any registered scheme with its defaults (pft: the paper's
    /// configuration, on or off by --pft; none; ibcc: IB CC with the IB seed's Table I).
    #[arg(long, value_name = "SCHEME", default_value = "pft", value_parser = parse_cc)]
    cc: String,
    /// Message size, bytes, 1..=67108864 (default 4096: one 64-flit packet).
    #[arg(long, value_name = "B", value_parser = parse_msg_bytes, conflicts_with = "packet_flits")]
    msg_bytes: Option<u32>,
    /// Each message one packet of P flits (P in 1..=1024: the MTU is set to P flits; the
    /// switch buffers must hold a packet).
    #[arg(long, value_name = "P", value_parser = parse_packet_flits)]
    packet_flits: Option<u32>,
    /// Lanes (virtual channels) per switch-to-switch port, 1..=16: runs the lane router
    /// (`[network] vcs`). Without it: today's switch, one lane per port.
    #[arg(long, value_name = "V", value_parser = parse_vcs)]
    vcs: Option<u32>,
    /// Flits per lane, 1..=65535 (`[network] vc_buf_flits`; default 8). Needs --vcs.
    #[arg(long, value_name = "F", value_parser = parse_vc_buf, requires = "vcs")]
    vc_buf: Option<u32>,
    /// Routing: dor, dor_no_dateline, duato, disha (tori and meshes; disha's time-out 8
    /// cycles), updown (trees), min, valiant, ugal or par (dragonflies), updown, shortest,
    /// shortest_rising, shortest_adaptive or shortest_updown (file topologies); default
    /// the topology's (`[network] routing`).
    #[arg(long, value_name = "R", value_parser = parse_routing)]
    routing: Option<Routing>,
    /// wormhole or vct (`[network] switching`; default wormhole with --vcs).
    #[arg(long, value_name = "S", value_parser = parse_switching)]
    switching: Option<Switching>,
    /// Flit latency of every link, cycles, 1..=65536 (`[network] link_latency_cycles`;
    /// default 10).
    #[arg(long, value_name = "C", value_parser = parse_latency)]
    link_latency: Option<u32>,
    /// Credit latency of every link, cycles, 1..=65536 (`[network] credit_latency_cycles`;
    /// default 10).
    #[arg(long, value_name = "C", value_parser = parse_latency)]
    credit_latency: Option<u32>,
    /// Switch pipeline latency, cycles, 0..=65536 (`[network] switch_latency_cycles`;
    /// default 2).
    #[arg(long, value_name = "C", value_parser = parse_switch_latency)]
    switch_latency: Option<u32>,
    /// Dragonfly: flit and credit latency of the links inside a group, cycles, 1..=65536
    /// (`[network] local_latency_cycles`; with it or --global-latency, --link-latency and
    /// --credit-latency are the NIC links').
    #[arg(long, value_name = "C", value_parser = parse_latency)]
    local_latency: Option<u32>,
    /// Dragonfly: flit and credit latency of the links between groups, cycles, 1..=65536
    /// (`[network] global_latency_cycles`).
    #[arg(long, value_name = "C", value_parser = parse_latency)]
    global_latency: Option<u32>,
    /// Lane router: an output lane takes the next packet when the lane behind it is empty
    /// (empty) or once the previous tail has left (tail) (`[network] lane_reuse`; default
    /// tail on a dragonfly, as BookSim's, empty elsewhere). Needs --vcs.
    #[arg(long, value_name = "R", value_parser = parse_lane_reuse, requires = "vcs")]
    lane_reuse: Option<pft_sim::net::LaneReuse>,
    /// Dragonfly ugal and par: the bias towards the minimal path, flits, 0..=65535
    /// (`[network] ugal_threshold_flits`; default 30).
    #[arg(long, value_name = "T", value_parser = parse_threshold)]
    ugal_threshold: Option<u32>,
    /// Lane router: a head's routing and lane-allocation delay, cycles, 0..=65536
    /// (`[network] head_latency_cycles`; default 0). Needs --vcs.
    #[arg(long, value_name = "C", value_parser = parse_switch_latency, requires = "vcs")]
    head_latency: Option<u32>,
    /// The CIOQ switch with this crossbar speedup, 1..=8 (`[network] speedup`).
    #[arg(long, value_name = "S", value_parser = parse_speedup, conflicts_with_all = ["vcs", "voq"])]
    speedup: Option<u32>,
    /// CIOQ: each output queue, flits, 1..=65535 (`[network] out_buffer_flits`; default the
    /// input buffer's). Needs --speedup.
    #[arg(long, value_name = "F", value_parser = parse_vc_buf, requires = "speedup")]
    out_buf: Option<u32>,
    /// Per-packet ACKs of B bytes, 1..=the MTU (`[network] ack_bytes`).
    #[arg(long, value_name = "B", value_parser = parse_msg_bytes)]
    ack_bytes: Option<u32>,
    /// Lane router: the top C lanes carry the ACKs, 1..=16 (`[network] ack_vcs`). Needs --vcs
    /// and --ack-bytes.
    #[arg(long, value_name = "C", value_parser = parse_vcs, requires_all = ["vcs", "ack_bytes"])]
    ack_vcs: Option<u32>,
    /// Cycles run before the measured `--cycles` (0..=10^9): the accepted rate and the
    /// latency count only the measured window (messages created in it), the speed too.
    #[arg(long, value_name = "W", default_value_t = 0, value_parser = parse_warmup)]
    warmup: u64,
    /// Destinations: uniform, transpose, complement, bitrev, shuffle, tornado (on the torus's or
    /// mesh's k and n; one ring of all NICs otherwise), shift:B (NIC s sends to s + B),
    /// hotspot:D,P (P % of messages to NIC D, the rest uniform), permutation (a random
    /// permutation drawn from the seed) or group_shift (dragonfly: a NIC of the next group).
    #[arg(long, value_name = "PATTERN", default_value = "uniform", value_parser = parse_pattern)]
    pattern: PatternArg,
    /// Write the topology (--topo) as a file in BookSim's anynet format to PATH (a new
    /// file: an existing one is refused; `-`: stdout) and exit; run it with `--topo file:PATH`. Not for
    /// a butterfly (one-way links). A dragonfly's --local-latency and --global-latency, and
    /// a file topology's own latencies, are written as the latencies of its links
    #[arg(long, value_name = "PATH")]
    write_anynet: Option<std::path::PathBuf>,
    /// The deadlock watchdog, cycles, 0..=10^10 (0 off; `[network] deadlock_cycles`;
    /// default 100000): the run stops when no flit moved for this long (docs/network.md
    /// §6); above the wait a slow network may have, as the scenario key.
    #[arg(long, value_name = "C", value_parser = parse_watchdog)]
    deadlock_cycles: Option<u64>,
    /// The stall watchdog, cycles, 0..=10^10 (0 off; `[network] stall_cycles`; default
    /// 1000000): the run stops when a traffic class has delivered none of its packets for
    /// this long; above a packet's shortest way, as the scenario key.
    #[arg(long, value_name = "C", value_parser = parse_watchdog)]
    stall_cycles: Option<u64>,
    /// Run seed (any u64).
    #[arg(long, value_name = "S", default_value_t = 1, value_parser = parse_seed)]
    seed: u64,
    /// Threads for the run's phase 2 (1..=256; the results are the same at every count).
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = parse_threads)]
    threads: u32,
}

#[derive(Clone, Debug)]
pub struct Topo {
    name: String,
    cfg: TopologyConfig,
}

fn parse_topo(s: &str) -> Result<Topo, String> {
    let cfg = match s {
        "ft128" => TopologyConfig::FatTree {
            radix: 16,
            leaves: 16,
        },
        "ft120" => TopologyConfig::default(),
        "ib648" => TopologyConfig::ib648(),
        t => {
            let usage = "must be ft128, ft120, ib648, single:N (N an integer in 2..=64), torus:K,N, mesh:K,N, tree:K,N, fly:K,N (K, N integers), dragonfly:P,A,H[,G] (integers) or file:PATH (BookSim's anynet format)";
            let (kind, arg) = t.split_once(':').ok_or(usage)?;
            let kn = || -> Result<(u32, u32), String> {
                let (k, n) = arg.split_once(',').ok_or(usage)?;
                Ok((
                    k.trim().parse().map_err(|_| usage)?,
                    n.trim().parse().map_err(|_| usage)?,
                ))
            };
            let cfg = match kind {
                "single" => match arg.parse::<u32>() {
                    Ok(nodes) => TopologyConfig::SingleSwitch { nodes },
                    Err(_) => return Err(usage.to_string()),
                },
                "torus" => kn().map(|(k, n)| TopologyConfig::Torus { k, n })?,
                "mesh" => kn().map(|(k, n)| TopologyConfig::Mesh { k, n })?,
                "tree" => kn().map(|(k, n)| TopologyConfig::KaryNtree { k, n, hosts: None })?,
                "fly" => kn().map(|(k, n)| TopologyConfig::KaryNfly { k, n, hosts: None })?,
                "dragonfly" => {
                    let v: Vec<u32> = arg
                        .split(',')
                        .map(|x| x.trim().parse().map_err(|_| usage))
                        .collect::<Result<_, _>>()?;
                    match v[..] {
                        [p, a, h] => TopologyConfig::Dragonfly { p, a, h, g: None },
                        [p, a, h, g] => TopologyConfig::Dragonfly {
                            p,
                            a,
                            h,
                            g: Some(g),
                        },
                        _ => return Err(usage.to_string()),
                    }
                }
                "file" if arg.is_empty() => {
                    return Err(format!("{usage}: `file:` needs the topology file's path"));
                }
                "file" => {
                    let mut c = TopologyConfig::File {
                        path: arg.to_string(),
                        graph: None,
                    };
                    c.resolve(None);
                    c
                }
                _ => return Err(usage.to_string()),
            };
            // the ranges are the scenario keys' (one source): say which is wrong
            if let Some(e) = cfg.errors().first() {
                return Err(format!("{e}"));
            }
            cfg
        }
    };
    Ok(Topo {
        name: s.to_string(),
        cfg,
    })
}

fn parse_load(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(l) if (0.0..=1.0).contains(&l) => Ok(l),
        _ => Err("must be a number in 0..=1 (flits per cycle per NIC)".to_string()),
    }
}

fn parse_int(s: &str, lo: u64, hi: u64) -> Result<u64, String> {
    match s.trim().parse::<i128>() {
        Ok(n) if (lo as i128..=hi as i128).contains(&n) => Ok(n as u64),
        _ => Err(format!("must be an integer in {lo}..={hi}")),
    }
}

fn parse_cycles(s: &str) -> Result<u64, String> {
    parse_int(s, 1, 10_000_000_000)
}

fn parse_latency(s: &str) -> Result<u32, String> {
    parse_int(s, 1, 65536).map(|n| n as u32)
}

fn parse_watchdog(s: &str) -> Result<u64, String> {
    parse_int(s, 0, pft_sim::net::config::MAX_WATCHDOG_CYCLES)
}

fn parse_speedup(s: &str) -> Result<u32, String> {
    parse_int(s, 1, 8).map(|n| n as u32)
}

fn parse_switch_latency(s: &str) -> Result<u32, String> {
    parse_int(s, 0, 65536).map(|n| n as u32)
}

/// `--pattern` as given (tornado takes its k and n from the topology).
#[derive(Clone, Copy, Debug)]
pub enum PatternArg {
    Fixed(Pattern),
    Tornado,
    /// A random permutation drawn from the run seed.
    Permutation,
    /// To the next group of a dragonfly.
    GroupShift,
}

fn parse_pattern(s: &str) -> Result<PatternArg, String> {
    let usage = "must be uniform, transpose, complement, bitrev, shuffle, tornado, permutation, group_shift, shift:B or hotspot:D,P (B, D integers, P a percentage 0..=100)";
    Ok(PatternArg::Fixed(match s {
        "uniform" => Pattern::Uniform,
        "transpose" => Pattern::Transpose,
        "complement" => Pattern::Complement,
        "bitrev" | "bit_reversal" => Pattern::BitReversal,
        "shuffle" => Pattern::Shuffle,
        "tornado" => return Ok(PatternArg::Tornado),
        "permutation" => return Ok(PatternArg::Permutation),
        "group_shift" => return Ok(PatternArg::GroupShift),
        _ => match s.split_once(':') {
            Some(("shift", b)) => Pattern::Shift {
                by: b.trim().parse().map_err(|_| usage)?,
            },
            Some(("hotspot" | "hot_spot", a)) => {
                let (d, p) = a.split_once(',').ok_or(usage)?;
                let percent: u8 = p.trim().parse().map_err(|_| usage)?;
                if percent > 100 {
                    return Err(usage.to_string());
                }
                Pattern::HotSpot {
                    dst: pft_sim::net::NodeId(d.trim().parse().map_err(|_| usage)?),
                    percent,
                }
            }
            _ => return Err(usage.to_string()),
        },
    }))
}

fn parse_warmup(s: &str) -> Result<u64, String> {
    parse_int(s, 0, 1_000_000_000)
}

fn parse_vcs(s: &str) -> Result<u32, String> {
    parse_int(s, 1, pft_sim::net::lanes::MAX_VCS as u64).map(|n| n as u32)
}

fn parse_vc_buf(s: &str) -> Result<u32, String> {
    parse_int(s, 1, 65535).map(|n| n as u32)
}

fn parse_routing(s: &str) -> Result<Routing, String> {
    match s {
        "dor" => Ok(Routing::Dor),
        "dor_no_dateline" => Ok(Routing::DorNoDateline),
        "duato" => Ok(Routing::Duato),
        "disha" => Ok(Routing::Disha),
        "updown" => Ok(Routing::Updown),
        "min" => Ok(Routing::Min),
        "valiant" => Ok(Routing::Valiant),
        "ugal" => Ok(Routing::Ugal),
        "par" => Ok(Routing::Par),
        "shortest" => Ok(Routing::Shortest),
        "shortest_rising" => Ok(Routing::ShortestRising),
        "shortest_adaptive" => Ok(Routing::ShortestAdaptive),
        "shortest_updown" => Ok(Routing::ShortestUpdown),
        _ => Err(
            "must be dor, dor_no_dateline, duato, disha, updown, min, valiant, ugal, par, shortest, shortest_rising, shortest_adaptive or shortest_updown"
                .to_string(),
        ),
    }
}

fn parse_lane_reuse(s: &str) -> Result<pft_sim::net::LaneReuse, String> {
    match s {
        "empty" => Ok(pft_sim::net::LaneReuse::Empty),
        "tail" => Ok(pft_sim::net::LaneReuse::Tail),
        _ => Err("must be empty or tail".to_string()),
    }
}

fn parse_threshold(s: &str) -> Result<u32, String> {
    parse_int(s, 0, 65535).map(|n| n as u32)
}

fn parse_switching(s: &str) -> Result<Switching, String> {
    match s {
        "wormhole" => Ok(Switching::Wormhole),
        "vct" => Ok(Switching::Vct),
        _ => Err("must be wormhole or vct".to_string()),
    }
}

fn parse_packet_flits(s: &str) -> Result<u32, String> {
    parse_int(s, 1, 1024).map(|n| n as u32)
}

fn parse_msg_bytes(s: &str) -> Result<u32, String> {
    parse_int(s, 1, MAX_MSG_BYTES as u64).map(|n| n as u32)
}

fn parse_seed(s: &str) -> Result<u64, String> {
    parse_int(s, 0, u64::MAX)
}

fn parse_threads(s: &str) -> Result<u32, String> {
    parse_int(s, 1, pft_sim::net::config::MAX_THREADS as u64).map(|v| v as u32)
}

fn parse_engine(s: &str) -> Result<EngineKind, String> {
    match s {
        "model" => Ok(EngineKind::Model),
        "rtl" => Ok(EngineKind::Rtl),
        "verilator" => Ok(EngineKind::Verilator),
        _ => Err("must be model, rtl or verilator".to_string()),
    }
}

fn parse_cc(s: &str) -> Result<String, String> {
    if KINDS.contains(&s) {
        Ok(s.to_string())
    } else {
        Err(format!(
            "must be one of {} (the registered schemes)",
            KINDS.join(", ")
        ))
    }
}

fn parse_on_off(s: &str) -> Result<bool, String> {
    match s {
        "on" => Ok(true),
        "off" => Ok(false),
        _ => Err("must be on or off".to_string()),
    }
}

/// The uniform source, with the latency of every delivered message summed: from its
/// creation to the ejection of its last flit (with `--packet-flits`, or messages of at most
/// one MTU, a message is one packet, so this is the packet latency).
struct Latency {
    inner: BernoulliSource,
    sum: u64,
    count: u64,
    /// Only messages created from this cycle on count (`--warmup`).
    from: u64,
}

impl Workload for Latency {
    fn open_loop(&self) -> bool {
        self.inner.open_loop()
    }
    fn tick(&mut self, now: u64, out: &mut Vec<Message>) {
        self.inner.tick(now, out);
    }
    fn delivered(&mut self, now: u64, d: &Delivery) {
        if d.msg.created >= self.from {
            self.sum += d.delivered - d.msg.created;
            self.count += 1;
        }
        self.inner.delivered(now, d);
    }
}

fn vm_hwm_kib() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let l = s.lines().find(|l| l.starts_with("VmHWM:"))?;
    l.split_whitespace().nth(1)?.parse().ok()
}

/// `x / d` formatted by `f`, or `n/a` when `d` is 0 or the quotient is not finite.
fn ratio(x: f64, d: f64, f: impl Fn(f64) -> String) -> String {
    let q = x / d;
    if d > 0.0 && q.is_finite() {
        f(q)
    } else {
        "n/a".to_string()
    }
}

/// CPU seconds of the process so far: every thread's (`/proc/self/task/*/schedstat`, the
/// helpers of `--threads` included; they live as long as the network).
fn cpu_s() -> f64 {
    let task = |p: std::path::PathBuf| {
        std::fs::read_to_string(p.join("schedstat"))
            .ok()
            .and_then(|s| s.split_whitespace().next()?.parse::<u64>().ok())
            .unwrap_or(0)
    };
    let ns: u64 = std::fs::read_dir("/proc/self/task")
        .map(|d| d.flatten().map(|e| task(e.path())).sum())
        .unwrap_or(0);
    ns as f64 * 1e-9
}

/// Out of memory: an error and status 1, not Rust's abort with a backtrace. (Not in a
/// test that includes this file beside pftsim's, which has its own.)
#[cfg(not(test))]
#[global_allocator]
static ALLOC: LastWords = LastWords;

fn main() -> ExitCode {
    LastWords::net_bench();
    let a: Args = pft_sim::cli::parse();
    if a.pft.is_some() && a.cc != "pft" {
        pft_sim::eprintln_safe!(
            "error: --pft applies to --cc pft only (here --cc {}): leave it out",
            a.cc
        );
        return ExitCode::from(2);
    }
    if a.engine.is_some() && a.cc != "pft" {
        // the engine is the PFT block's: under another scheme it would be printed, not run
        pft_sim::eprintln_safe!(
            "error: --engine applies to --cc pft only (here --cc {}): leave it out",
            a.cc
        );
        return ExitCode::from(2);
    }
    if let Some(path) = &a.write_anynet {
        // what the file cannot say is refused, not dropped
        let refused = if matches!(a.topo.cfg, TopologyConfig::KaryNfly { .. }) {
            Some("a butterfly's links go one way (NICs inject at stage 0, eject at the last): an anynet link goes both ways".to_string())
        } else if (a.local_latency.is_some() || a.global_latency.is_some())
            && a.topo.cfg.dragonfly().is_none()
        {
            Some("--local-latency and --global-latency apply to dragonflies (links inside and between groups)".to_string())
        } else {
            pft_sim::net::topology::anynet_write::parallel_link(&a.topo.cfg).map(|(r, m)| format!("routers {r} and {m} are joined by two links (a 2-ary torus's two ways round its rings): an anynet file names a link once, and a reader merges a link named twice"))
        };
        if let Some(why) = refused {
            pft_sim::eprintln_safe!("error: --write-anynet: {why}");
            return ExitCode::from(2);
        }
        let text = pft_sim::net::topology::anynet_write::write_config(
            &a.topo.cfg,
            a.local_latency,
            a.global_latency,
        );
        return match pft_sim::net::topology::anynet::write_new_file(path, &text) {
            Ok(()) => ExitCode::SUCCESS,
            Err(what) => {
                pft_sim::eprintln_safe!("error: --write-anynet {}: {what}", path.display());
                ExitCode::FAILURE
            }
        };
    }
    let (topo, load, cycles, engine, seed) = (
        a.topo.name,
        a.load,
        a.cycles,
        a.engine.unwrap_or(EngineKind::Model),
        a.seed,
    );
    let mut cfg = NetConfig {
        topology: a.topo.cfg,
        voq: a.voq,
        check: a.check,
        vcs: a.vcs,
        vc_buf_flits: a.vc_buf,
        routing: a.routing,
        switching: a.switching,
        head_latency_cycles: a.head_latency,
        speedup: a.speedup,
        out_buffer_flits: a.out_buf,
        ack_bytes: a.ack_bytes,
        ack_vcs: a.ack_vcs,
        local_latency_cycles: a.local_latency,
        global_latency_cycles: a.global_latency,
        lane_reuse: a.lane_reuse,
        ugal_threshold_flits: a.ugal_threshold,
        threads: a.threads,
        ..NetConfig::default()
    };
    if let Some(l) = a.link_latency {
        cfg.link_latency_cycles = l;
    }
    if let Some(l) = a.credit_latency {
        cfg.credit_latency_cycles = l;
    }
    if let Some(l) = a.switch_latency {
        cfg.switch_latency_cycles = l;
    }
    if let Some(c) = a.deadlock_cycles {
        cfg.deadlock_cycles = c;
    }
    if let Some(c) = a.stall_cycles {
        cfg.stall_cycles = c;
    }
    let msg_bytes = match a.packet_flits {
        Some(p) => {
            cfg.mtu_bytes = p * cfg.flit_bytes;
            cfg.mtu_bytes
        }
        None => a.msg_bytes.unwrap_or(4096),
    };
    let pft = PftConfig::default().with("enable", a.pft.unwrap_or(true).into());
    let cc = match CcConfig::default_of(&a.cc).expect("parse_cc took a registered kind") {
        CcConfig::Pft(_) => CcConfig::Pft(pft),
        other => other,
    };
    let t0 = Instant::now();
    let mut net = match Network::with_cc(&cfg, &cc, engine, seed) {
        Ok(n) => n,
        Err(e) => return refused(&e, &cfg),
    };
    let build_s = t0.elapsed().as_secs_f64();
    // after the network's refusals: a network refused gets its error alone
    for w in cfg.warnings_for(Some(msg_bytes)) {
        pft_sim::eprintln_safe!("warning: {w}");
    }
    if let (true, Some(why)) = (a.threads > 1, net.single_thread_reason()) {
        pft_sim::eprintln_safe!("note: --threads {}: {why}", a.threads);
    }
    let nodes = net.nodes();
    let pattern = match a.pattern {
        PatternArg::Fixed(p) => p,
        PatternArg::Tornado => match cfg.topology {
            TopologyConfig::Torus { k, n } | TopologyConfig::Mesh { k, n } => {
                Pattern::Tornado { k, n }
            }
            _ => Pattern::Tornado { k: nodes, n: 1 },
        },
        PatternArg::Permutation => Pattern::Permutation { seed },
        PatternArg::GroupShift => {
            match cfg.topology.dragonfly() {
                Some(s) => Pattern::GroupShift {
                    group: s.group_nodes(),
                },
                None => {
                    pft_sim::eprintln_safe!("error: --pattern: group_shift needs a dragonfly (--topo dragonfly:P,A,H[,G])");
                    return ExitCode::from(2);
                }
            }
        }
    };
    if let Err(e) = pattern.check_sends(nodes) {
        pft_sim::eprintln_safe!("error: --pattern: {e}");
        return ExitCode::from(2);
    }
    let mut w = Latency {
        inner: BernoulliSource::new(
            nodes,
            pattern,
            load,
            msg_bytes,
            cfg.flit_bytes,
            seed ^ 0xABCD,
        ),
        sum: 0,
        count: 0,
        from: a.warmup,
    };
    if let Err(e) = net.run(&mut w, a.warmup) {
        pft_sim::eprintln_safe!("error: {e}");
        return ExitCode::FAILURE;
    }
    let ejected_before = net.total_stats().flits_ejected;
    let t1 = Instant::now();
    let c1 = cpu_s();
    if let Err(e) = net.run(&mut w, cycles) {
        pft_sim::eprintln_safe!("error: {e}");
        return ExitCode::FAILURE;
    }
    let secs = t1.elapsed().as_secs_f64();
    let cpu = cpu_s() - c1;
    let st = net.total_stats();
    let accepted = (st.flits_ejected - ejected_before) as f64 / (cycles as f64 * nodes as f64);
    // Never NaN or inf: no delivery has no mean latency, and a clock that did not move
    // (a run shorter than its resolution, or no /proc/self/schedstat) gives no rate.
    let latency = ratio(w.sum as f64, w.count as f64, |x| format!("{x:.2}"));
    let node_cycles = cycles as f64 * nodes as f64;
    let sci = |x: f64| format!("{x:.3e}");
    let line = format!(
        "topology={topo} nodes={nodes} engine={engine:?} voq={} vcs={} speedup={} check={} cc={} pft={} load={load} warmup={} cycles={cycles} build_s={build_s:.2} wall_s={secs:.3} cpu_s={cpu:.3} node_cycles_per_s={} node_cycles_per_cpu_s={} cycles_per_s={} accepted_flits_per_node_cycle={accepted:.4} latency_mean_cycles={latency} delivered_messages={} throttled_cycles={} peak_rss_mib={:.1}",
        cfg.voq,
        cfg.vcs.unwrap_or(0),
        cfg.speedup.unwrap_or(0),
        cfg.check,
        cc.kind(),
        cc.pft().enabled(),
        a.warmup,
        ratio(node_cycles, secs, sci),
        ratio(node_cycles, cpu, sci),
        ratio(cycles as f64, secs, |x| format!("{x:.0}")),
        w.count,
        st.throttled_cycles,
        vm_hwm_kib().unwrap_or(0) as f64 / 1024.0
    );
    use std::io::Write;
    // a closed stdout (`>&-`) is an error: Rust's stdout would drop the line silently
    if let Err(e) =
        pft_hdl::outfile::stdout_is_open().and_then(|_| writeln!(std::io::stdout(), "{line}"))
    {
        pft_sim::eprintln_safe!("error: cannot write to stdout: {e}");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
