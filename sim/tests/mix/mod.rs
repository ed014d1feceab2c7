//! A test workload shared by the network tests: two `BernoulliSource`s at once (typically a
//! uniform background plus an incast, so that queues, credits and throttling all matter),
//! with message ids unique across both, logging every delivery; the small networks and
//! PFT configurations those tests share; and `lockstep`, which runs two networks side by
//! side and requires them to agree at every NIC in every cycle.

use pft_sim::net::{
    BernoulliSource, Delivery, Fault, Message, NetConfig, NodeId, Pattern, TopologyConfig, Workload,
};
use pft_sim::{DetMode, Network, PftConfig, ThrMode};

/// Six NICs on one switch with test fault `fault` armed, the checker on or off, and a
/// 500-cycle deadlock limit: the network of the fault tests.
#[allow(dead_code)]
pub fn faulted_switch(fault: Fault, check: bool) -> NetConfig {
    NetConfig {
        topology: TopologyConfig::SingleSwitch { nodes: 6 },
        buffer_flits: 128,
        check,
        deadlock_cycles: 500,
        fault: Some(fault),
        ..Default::default()
    }
}

/// FT-FI entering Congested above 24 used credits (of a 64-flit buffer), for tests that
/// need blocks to throttle.
#[allow(dead_code)]
pub fn ft_fi() -> PftConfig {
    PftConfig::default().with_all(&[
        ("det_mode", DetMode::Ft as u64),
        ("thr_mode", ThrMode::Fi as u64),
        ("th_enter", 24),
        ("th_escape", 16),
        ("n", 2),
        ("k", 1),
    ])
}

/// AT-RI with short windows, so that blocks go Congested and back within a burst.
#[allow(dead_code)]
pub fn at_ri() -> PftConfig {
    PftConfig::default().with_all(&[
        ("th_enter", 20),
        ("th_escape", 40),
        ("at_win_e", 16),
        ("at_cnt_e", 6),
        ("at_win_s", 16),
        ("at_cnt_s", 6),
        ("m", 24),
    ])
}

/// A 20-NIC fat tree (radix 8, 5 leaves) with small VOQ buffers, a slow drain and the
/// invariant checker on: queues fill and PFT acts within a few thousand cycles.
#[allow(dead_code)]
pub fn small_fat_tree() -> NetConfig {
    NetConfig {
        topology: TopologyConfig::FatTree {
            radix: 8,
            leaves: 5,
        },
        buffer_flits: 128,
        eject_buffer_flits: 64,
        mtu_bytes: 1024,
        eject_rate: 0.8,
        voq: true,
        check: true,
        ..Default::default()
    }
}

/// A 4-ary 2-tree (16 NICs) with 64-flit buffers, the checker off.
#[allow(dead_code)]
pub fn tree4x2() -> NetConfig {
    NetConfig {
        topology: TopologyConfig::KaryNtree {
            k: 4,
            n: 2,
            hosts: None,
        },
        buffer_flits: 64,
        check: false,
        ..Default::default()
    }
}

/// An incast to NIC 0 for the first third of `cycles` (blocks go Congested and throttle)
/// over uniform traffic at `load` throughout; every delivery logged.
#[allow(dead_code)]
pub fn incast_over_uniform(nodes: u32, cycles: u64, load: f64) -> Mix {
    Mix(
        BernoulliSource::new(nodes, Pattern::Incast { dst: NodeId(0) }, 0.3, 512, 64, 3)
            .until(cycles / 3),
        BernoulliSource::new(nodes, Pattern::Uniform, load, 256, 64, 4),
        Vec::new(),
    )
}

#[allow(dead_code)]
pub struct Mix(pub BernoulliSource, pub BernoulliSource, pub Vec<Delivery>);

impl Workload for Mix {
    fn tick(&mut self, now: u64, out: &mut Vec<Message>) {
        let start = out.len();
        self.0.tick(now, out);
        self.1.tick(now, out);
        for (k, m) in out[start..].iter_mut().enumerate() {
            m.id = now * 1000 + k as u64;
        }
    }
    fn delivered(&mut self, _now: u64, d: &Delivery) {
        self.2.push(*d);
    }
}

/// Steps two networks side by side for `cycles` cycles, each with its own workload, and
/// requires the same gate outputs, block state and NIC counters at every NIC in every
/// cycle and the same deliveries (over 1,000). Returns the Congested and throttled
/// NIC-cycles seen.
#[allow(dead_code)]
pub fn lockstep(name: &str, nets: &mut [Network; 2], ws: &mut [Mix; 2], cycles: u64) -> (u64, u64) {
    let nodes = nets[0].nodes();
    let (mut congested, mut throttled) = (0u64, 0u64);
    for t in 0..cycles {
        for (net, w) in nets.iter_mut().zip(ws.iter_mut()) {
            net.step(w).unwrap();
        }
        let (a, b) = (&nets[0], &nets[1]);
        for i in 0..nodes {
            let n = NodeId(i);
            let out = a.gate_outputs(n);
            assert_eq!(out, b.gate_outputs(n), "{name}: cycle {t}, NIC {i}: gate");
            assert_eq!(a.pft_probe(n), b.pft_probe(n), "{name}: cycle {t}, NIC {i}");
            assert_eq!(a.nic_stats(n), b.nic_stats(n), "{name}: cycle {t}, NIC {i}");
            congested += out.congested as u64;
            throttled += out.throttled as u64;
        }
    }
    assert!(ws[0].2 == ws[1].2, "{name}: deliveries differ");
    assert!(
        ws[0].2.len() > 1_000,
        "{name}: {} deliveries",
        ws[0].2.len()
    );
    (congested, throttled)
}
