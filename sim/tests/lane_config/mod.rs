//! A lane-router configuration for tests (`net_lanes`, `net_lane_masks`, `net_disha`,
//! `net_one_escape`): checker on, 1-cycle links and switches, 16-flit messages, a
//! 2,000-cycle deadlock limit.

use pft_sim::net::{NetConfig, Routing, TopologyConfig};

/// `topology` on the lane router with `vcs` lanes of `buf` flits a port, under `routing`
/// (the topology's default when `None`).
pub fn lanes(topology: TopologyConfig, vcs: u32, buf: u32, routing: Option<Routing>) -> NetConfig {
    NetConfig {
        topology,
        vcs: Some(vcs),
        vc_buf_flits: Some(buf),
        routing,
        buffer_flits: 64,
        eject_buffer_flits: 64,
        mtu_bytes: 16 * 64,
        link_latency_cycles: 1,
        credit_latency_cycles: 1,
        switch_latency_cycles: 1,
        check: true,
        deadlock_cycles: 2_000,
        ..NetConfig::default()
    }
}
