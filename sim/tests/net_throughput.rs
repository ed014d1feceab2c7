//! Throughput sanity: below saturation the network accepts what is offered; an incast
//! drains exactly at the destination's eject rate; the 648-node fabric runs.

use pft_sim::net::NodeId;
use pft_sim::net::{BernoulliSource, NetConfig, Pattern, TopologyConfig};
use pft_sim::{EngineKind, Network, PftConfig};

/// Flits ejected network-wide per node and cycle over `measure` cycles after `warm`.
fn accepted(net: &mut Network, w: &mut BernoulliSource, warm: u64, measure: u64) -> f64 {
    net.run(w, warm).unwrap();
    let before = net.total_stats().flits_ejected;
    net.run(w, measure).unwrap();
    let after = net.total_stats().flits_ejected;
    (after - before) as f64 / (measure as f64 * net.nodes() as f64)
}

#[test]
fn uniform_load_0_3_on_the_120_node_tree_is_accepted() {
    for voq in [false, true] {
        let cfg = NetConfig {
            voq,
            ..Default::default()
        };
        let mut net = Network::new(&cfg, &PftConfig::default(), EngineKind::Model, 1).unwrap();
        assert_eq!(net.nodes(), 120);
        let mut w = BernoulliSource::new(120, Pattern::Uniform, 0.3, 4096, 64, 5);
        let a = accepted(&mut net, &mut w, 5_000, 40_000);
        // Offered: the messages actually created, in flits per node and cycle.
        assert!(
            (a - 0.3).abs() < 0.01,
            "voq {voq}: accepted {a:.4} != offered 0.3"
        );
        // Below saturation nothing piles up at the sources, and the block never throttles.
        let t = net.total_stats();
        assert!(
            t.queued_flits < 120 * 2 * 64,
            "backlog {} flits",
            t.queued_flits
        );
        assert_eq!(t.throttled_cycles, 0);
    }
}

#[test]
fn incast_drains_at_the_eject_rate() {
    for (topology, rate) in [
        (TopologyConfig::SingleSwitch { nodes: 8 }, 0.5),
        (TopologyConfig::SingleSwitch { nodes: 8 }, 0.3),
        (TopologyConfig::default(), 0.75),
    ] {
        let cfg = NetConfig {
            topology: topology.clone(),
            eject_rate: rate,
            ..Default::default()
        };
        let mut net = Network::new(&cfg, &PftConfig::default(), EngineKind::Model, 1).unwrap();
        let n = net.nodes();
        let mut w = BernoulliSource::new(n, Pattern::Incast { dst: NodeId(2) }, 0.5, 4096, 64, 5);
        net.run(&mut w, 5_000).unwrap();
        let before = net.nic_stats(NodeId(2)).flits_ejected;
        net.run(&mut w, 20_000).unwrap();
        let r = (net.nic_stats(NodeId(2)).flits_ejected - before) as f64 / 20_000.0;
        assert!(
            (r - rate).abs() < 0.002,
            "{topology:?}: ejection {r:.4} != {rate}"
        );
    }
}

#[test]
fn ib648_runs() {
    let cfg = NetConfig {
        topology: TopologyConfig::ib648(),
        check: true,
        ..Default::default()
    };
    // with the invariant checker: traffic enters and leaves the 648-node fabric
    let mut net = Network::new(&cfg, &PftConfig::default(), EngineKind::Model, 1).unwrap();
    let mut w = BernoulliSource::new(648, Pattern::Uniform, 0.5, 4096, 64, 5);
    net.run(&mut w, 1_000).unwrap();
    let t = net.total_stats();
    assert!(
        t.flits_injected > 648 * 100,
        "injected {}",
        t.flits_injected
    );
    assert!(t.flits_ejected > 0, "nothing arrived in 1000 cycles");
    // without it, a second network and its own workload: near the offered load, and its
    // own deliveries (not the first network's) counted
    let mut w = BernoulliSource::new(648, Pattern::Uniform, 0.5, 4096, 64, 5);
    let mut net2 = Network::new(
        &NetConfig {
            check: false,
            ..cfg
        },
        &PftConfig::default(),
        EngineKind::Model,
        1,
    )
    .unwrap();
    let a = accepted(&mut net2, &mut w, 2_000, 3_000);
    assert!(a > 0.4, "accepted {a:.3}");
    assert!(w.delivered > 1000);
}

#[test]
fn head_of_line_blocking_without_voq() {
    // Saturated uniform traffic on a 32-port switch: plain input queueing saturates near
    // the classic 2 - sqrt(2) = 0.586; VOQ with the one-iteration allocator goes well above.
    let mut acc = Vec::new();
    for voq in [false, true] {
        let cfg = NetConfig {
            topology: TopologyConfig::SingleSwitch { nodes: 32 },
            voq,
            ..Default::default()
        };
        let mut net = Network::new(&cfg, &PftConfig::disabled(), EngineKind::Model, 1).unwrap();
        let mut w = BernoulliSource::new(32, Pattern::Uniform, 0.95, 4096, 64, 5);
        acc.push(accepted(&mut net, &mut w, 5_000, 25_000));
    }
    assert!(
        (0.55..0.65).contains(&acc[0]),
        "input queueing: {:.3}",
        acc[0]
    );
    assert!(acc[1] > 0.8, "VOQ: {:.3}", acc[1]);
}
