//! Lossless under heavy incast: credits never let a buffer overflow (the checker runs every
//! cycle), nothing is lost, and every message is delivered once the sources stop.

use pft_sim::net::NodeId;
use pft_sim::net::{BernoulliSource, NetConfig, Pattern, TopologyConfig};
use pft_sim::{EngineKind, Network, PftConfig};

fn incast_until_idle(cfg: NetConfig, pft: PftConfig, load: f64, hot: u32) {
    let mut net = Network::new(&cfg, &pft, EngineKind::Model, 3).unwrap();
    let n = net.nodes();
    let mut w = BernoulliSource::new(n, Pattern::Incast { dst: NodeId(hot) }, load, 3000, 64, 11)
        .until(5000)
        .logged();
    net.run(&mut w, 5000).unwrap();
    assert!(
        net.flits_in_network() > 0 && net.messages_pending() > 0,
        "the incast must back up"
    );
    let idle = net.run_until_idle(&mut w, 2_000_000).unwrap();
    assert!(idle, "not drained by cycle {}", net.now());
    assert_eq!(w.delivered, w.created, "messages lost");
    // Each message exactly once.
    let log = w.log.as_ref().unwrap();
    let mut ids: Vec<u64> = log.iter().map(|d| d.msg.id).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len() as u64, w.created);
    assert!(log
        .iter()
        .all(|d| d.msg.dst == NodeId(hot) && d.delivered >= d.injected));
    let t = net.total_stats();
    assert_eq!(t.flits_injected, t.flits_ejected);
    assert_eq!(net.nic_stats(NodeId(hot)).flits_ejected, t.flits_ejected);
    net.check().unwrap();
}

#[test]
fn single_switch_incast_is_lossless() {
    for voq in [false, true] {
        let cfg = NetConfig {
            topology: TopologyConfig::SingleSwitch { nodes: 16 },
            buffer_flits: 96,
            eject_buffer_flits: 64,
            eject_rate: 0.3,
            voq,
            check: true,
            mtu_bytes: 2048,
            ..Default::default()
        };
        incast_until_idle(cfg.clone(), PftConfig::disabled(), 0.9, 5);
        incast_until_idle(cfg, PftConfig::default(), 0.9, 5);
    }
}

#[test]
fn fat_tree_incast_is_lossless() {
    for voq in [false, true] {
        let cfg = NetConfig {
            topology: TopologyConfig::FatTree {
                radix: 8,
                leaves: 6,
            },
            buffer_flits: 64,
            eject_buffer_flits: 64,
            mtu_bytes: 4096,
            voq,
            check: true,
            ..Default::default()
        };
        incast_until_idle(cfg, PftConfig::default(), 0.5, 17);
    }
}
