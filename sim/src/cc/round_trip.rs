//! The minimum round trip of a network for schemes that learn of congestion from
//! per-packet ACKs (seed 004's §4.3: MVCM and Renato's proposal derive their windows from
//! it). Neutral ground: no scheme folder imports from another.

use crate::net::config::{bad, FieldError};
use crate::net::{NetConfig, Topology, TopologyConfig};
use pft_hdl::mvcm::model::{omega, rtt_min_cycles};

/// The minimum round trip of a network as seed 004's §4.3 derives it, in cycles (one
/// cycle moves one flit, so B = 1 flit per cycle).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RoundTrip {
    /// Switches on the longest path, and the one-way head latency over it: the NIC's link
    /// and, per switch, its pipeline and its output link (the paper's h * t_hop).
    pub switches: u32,
    pub one_way: u32,
    /// Data packet and ACK, flits.
    pub data_flits: u32,
    pub ack_flits: u32,
    /// `2 * one_way + data_flits + ack_flits` (the paper's RTT_min), and
    /// `dw_max = ceil(omega)`, omega = RTT_min / data_flits.
    pub rtt: u32,
    pub dw_max: u32,
}

/// The [`RoundTrip`] of the valid network `net` for data packets of `packet_bytes`
/// (default the MTU; in 1..=mtu_bytes) and the network's ACKs, which it needs (errors name
/// `prefix.packet_bytes` and `network.ack_bytes`; every one is returned). `longest` gives
/// the switches on the longest path (`longest_path`, `longest_of`); it is asked only when
/// nothing is wrong, since on a file it builds the routing tables.
pub fn round_trip(
    net: &NetConfig,
    longest: impl FnOnce() -> u32,
    packet_bytes: Option<u64>,
    prefix: &str,
) -> Result<RoundTrip, Vec<FieldError>> {
    let mut errs = Vec::new();
    if net.ack_bytes.is_none() {
        errs.push(bad(
            "network.ack_bytes",
            "not set",
            format!("{prefix}: the sources learn the marks from per-packet ACKs: set network.ack_bytes (1..=mtu_bytes; seed 004's is 22)"),
        ));
    }
    let pkt = packet_bytes.unwrap_or(net.mtu_bytes as u64);
    if !(1..=net.mtu_bytes as u64).contains(&pkt) {
        errs.push(packet_bytes_error(prefix, pkt, net.mtu_bytes));
    }
    let Some(ack_bytes) = net.ack_bytes.filter(|_| errs.is_empty()) else {
        return Err(errs);
    };
    let fb = net.flit_bytes.max(1) as u64;
    let data_flits = pkt.div_ceil(fb) as u32;
    let ack_flits = (ack_bytes as u64).div_ceil(fb) as u32;
    let switches = longest();
    let one_way = (switches + 1) * net.link_latency_cycles + switches * net.switch_latency_cycles;
    let rtt = rtt_min_cycles(1, one_way, 1, data_flits, ack_flits);
    let (num, den) = omega(1, one_way, 1, data_flits, ack_flits);
    Ok(RoundTrip {
        switches,
        one_way,
        data_flits,
        ack_flits,
        rtt: u32::try_from(rtt).unwrap_or(u32::MAX),
        dw_max: u32::try_from(num.div_ceil(den.max(1))).unwrap_or(u32::MAX),
    })
}

/// `prefix.packet_bytes` = `got` outside 1..=mtu_bytes (`mtu` when the network's is
/// known).
pub fn packet_bytes_error(prefix: &str, got: u64, mtu: u32) -> FieldError {
    bad(
        &format!("{prefix}.packet_bytes"),
        got,
        format!("must be in 1..={mtu} (1..=network.mtu_bytes: a data packet is at most one MTU)"),
    )
}

/// Switches on the longest path of the network: n on a k-ary n-fly, 2n - 1 on a k-ary
/// n-tree (up to the top stage and down), else the longest routed path over all pairs.
pub fn longest_path(net: &NetConfig, topo: &Topology) -> u32 {
    match net.topology {
        TopologyConfig::KaryNfly { .. } | TopologyConfig::KaryNtree { .. } => longest_of(net),
        _ => topo.longest_path(),
    }
}

/// `longest_path` of the valid network `net`, its topology built only where the path
/// needs it (a file's routing tables take seconds on 10,000 routers).
pub fn longest_of(net: &NetConfig) -> u32 {
    match net.topology {
        TopologyConfig::KaryNfly { n, .. } => n,
        TopologyConfig::KaryNtree { n, .. } => 2 * n - 1,
        _ => Topology::for_net(net).longest_path(),
    }
}
