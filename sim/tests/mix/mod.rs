//! A test workload shared by the network tests: two `BernoulliSource`s at once (typically a
//! uniform background plus an incast, so that queues, credits and throttling all matter),
//! with message ids unique across both, logging every delivery.

use pft_sim::net::{BernoulliSource, Delivery, Message, NetConfig, TopologyConfig, Workload};

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
