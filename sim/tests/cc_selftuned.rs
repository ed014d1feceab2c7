//! The self-tuned global throttle (seed 003) in the network: the side-band's timing, the
//! gate on new packets, the buffer count and the checks that need the network.

use pft_hdl::selftuned::model::{SelfTuned, Snapshot};
use pft_sim::cc::selftuned::SelfTunedConfig;
use pft_sim::cc::CcConfig;
use pft_sim::net::{BernoulliSource, NetConfig, Pattern, Routing, TopologyConfig};
use pft_sim::{EngineKind, Network};

/// A 4-ary 2-cube with the seed's router: 3 lanes of 8 flits, Duato, 16-flit packets.
fn torus() -> NetConfig {
    NetConfig {
        topology: TopologyConfig::Torus { k: 4, n: 2 },
        vcs: Some(3),
        vc_buf_flits: Some(8),
        routing: Some(Routing::Duato),
        flit_bytes: 16,
        mtu_bytes: 256,
        buffer_flits: 16,
        eject_buffer_flits: 16,
        link_latency_cycles: 1,
        credit_latency_cycles: 1,
        switch_latency_cycles: 1,
        head_latency_cycles: Some(1),
        check: true,
        deadlock_cycles: 5_000,
        ..NetConfig::default()
    }
}

fn tune(cfg: SelfTunedConfig) -> CcConfig {
    CcConfig::SelfTuned(cfg)
}

fn probe(net: &Network, name: &str) -> f64 {
    net.scheme_probes()
        .iter()
        .find(|p| p.0 == name)
        .unwrap_or_else(|| panic!("no probe {name}"))
        .1
}

fn counter(net: &Network, name: &str) -> u64 {
    net.scheme_totals()
        .iter()
        .find(|p| p.0 == name)
        .unwrap_or_else(|| panic!("no counter {name}"))
        .1
}

#[test]
fn every_node_sees_a_g_cycle_old_snapshot_every_g_cycles_and_holds_new_packets() {
    // A saturating load on the 4-ary 2-cube (g = (4/2) * 2 * 2 = 8 cycles). The test keeps
    // its own copy of the node logic, fed from the network's counts as the docs describe
    // the side-band (taken at every multiple of g from the counts at the cycle's start,
    // arriving g cycles later), and compares it with the scheme every cycle.
    let cfg = SelfTunedConfig {
        threshold: Some(2),
        tune_cycles: 24,
        ..Default::default()
    };
    let cc = tune(cfg);
    let mut net = Network::with_cc(&torus(), &cc, EngineKind::Model, 3).unwrap();
    assert_eq!(counter(&net, "buffers"), 16 * 4 * 3);
    let p = pft_hdl::selftuned::model::Params {
        g: 8,
        periods: 3,
        t_init: 2,
        inc: 1, // 1 % of 192 buffers, rounded down
        dec: 7, // 4 % of 192
        t_ceiling: 192,
        drop_pct: 75,
        reset_pct: 75,
        r: 5,
        linear: true,
    };
    let mut mine = SelfTuned::new(p);
    let mut pending: Option<Snapshot> = None;
    let mut delivered_at = 0;
    let mut w = BernoulliSource::new(16, Pattern::Uniform, 0.9, 256, 16, 5);
    let (mut held, mut tuned) = (0, 0);
    let mut thresholds = std::collections::BTreeSet::new();
    for t in 0..6_000u64 {
        let (full, delivered) = (net.full_switch_inputs(), net.flits_delivered());
        let arriving = if t % 8 == 0 {
            let s = Snapshot {
                full: full as u32,
                flits: (delivered - delivered_at) as u32,
            };
            delivered_at = delivered;
            pending.replace(s)
        } else {
            None
        };
        let want = mine.step(arriving);
        let started = net.total_stats().packets_injected;
        net.step(&mut w).unwrap();
        assert_eq!(probe(&net, "threshold") as u32, want.threshold, "cycle {t}");
        assert_eq!(probe(&net, "inhibit") != 0.0, want.inhibit, "cycle {t}");
        assert_eq!(probe(&net, "full_buffers") as u64, full, "cycle {t}");
        if want.inhibit {
            held += 1;
            assert_eq!(
                net.total_stats().packets_injected,
                started,
                "cycle {t}: a packet started while the gate held"
            );
        } else if net.total_stats().packets_injected > started {
            tuned += 1;
        }
        thresholds.insert(want.threshold);
    }
    assert!(held > 100, "the gate held in {held} cycles only");
    assert!(tuned > 100, "packets started in {tuned} open cycles only");
    assert!(thresholds.len() > 3, "the tuner moved T: {thresholds:?}");
    assert_eq!(counter(&net, "inhibited_cycles"), held);
    assert_eq!(
        counter(&net, "tunings"),
        6_000 / 24 - 1,
        "one tuning per period after the first snapshot"
    );
}

#[test]
fn the_seed_torus_has_3072_buffers_and_a_32_cycle_gather() {
    let cfg = NetConfig {
        topology: TopologyConfig::Torus { k: 16, n: 2 },
        ..torus()
    };
    let net = Network::with_cc(&cfg, &tune(Default::default()), EngineKind::Model, 1).unwrap();
    assert_eq!(counter(&net, "buffers"), 3072);
    assert_eq!(probe(&net, "threshold"), 30.0, "1 % of 3,072");
    match &net {
        Network::SelfTuned(n) => {
            assert_eq!(n.scheme().gather_cycles(), 32);
            assert_eq!(n.scheme().buffers(), 3072);
        }
        _ => panic!("a selftuned network"),
    }
    let h3 = tune(SelfTunedConfig {
        h: 3,
        ..Default::default()
    });
    let net = Network::with_cc(&cfg, &h3, EngineKind::Model, 1).unwrap();
    match &net {
        Network::SelfTuned(n) => assert_eq!(n.scheme().gather_cycles(), 48),
        _ => panic!("a selftuned network"),
    }
}

#[test]
fn checks_that_need_the_network_name_their_key() {
    let err = |net: &NetConfig, cc: SelfTunedConfig| match Network::with_cc(
        net,
        &tune(cc),
        EngineKind::Model,
        1,
    ) {
        Ok(_) => panic!("accepted"),
        Err(e) => e.to_string(),
    };
    // a fat tree has no (k/2) h n
    let e = err(&NetConfig::default(), Default::default());
    assert!(e.contains("gather_cycles") && e.contains("1..=256"), "{e}");
    // 96 is no multiple of g = 40 (h = 5 on the 4-ary 2-cube: 2 * 5 * 2 = 20; h = 10: 40)
    let e = err(
        &torus(),
        SelfTunedConfig {
            h: 10,
            ..Default::default()
        },
    );
    assert!(
        e.contains("tune_cycles") && e.contains("multiple of g = 40"),
        "{e}"
    );
    // keys alone
    let bad = CcConfig::SelfTuned(SelfTunedConfig {
        drop_percent: 0,
        inc_percent: 101.0,
        ..Default::default()
    });
    let errs: Vec<String> = bad.errors("cc[2]").iter().map(|e| e.to_string()).collect();
    assert!(
        errs.iter()
            .any(|e| e.contains("cc[2].drop_percent") && e.contains("1..=100")),
        "{errs:?}"
    );
    assert!(
        errs.iter()
            .any(|e| e.contains("cc[2].inc_percent") && e.contains("0..=100")),
        "{errs:?}"
    );
}

#[test]
fn a_static_threshold_never_moves() {
    let cc = tune(SelfTunedConfig {
        tune: false,
        threshold: Some(5),
        ..Default::default()
    });
    let mut net = Network::with_cc(&torus(), &cc, EngineKind::Model, 3).unwrap();
    let mut w = BernoulliSource::new(16, Pattern::Uniform, 0.9, 256, 16, 5);
    for t in 0..3_000 {
        net.step(&mut w).unwrap();
        assert_eq!(probe(&net, "threshold"), 5.0, "cycle {t}");
    }
    assert!(counter(&net, "inhibited_cycles") > 0);
}
