//! A test workload shared by the network tests: two `BernoulliSource`s at once (typically a
//! uniform background plus an incast, so that queues, credits and throttling all matter),
//! with message ids unique across both, logging every delivery; and the small networks and
//! PFT configurations those tests share.

use pft_sim::net::{BernoulliSource, Delivery, Message, NetConfig, TopologyConfig, Workload};
use pft_sim::{DetMode, PftConfig, ThrMode};

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
