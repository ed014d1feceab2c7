//! Topologies and routing: every pair reachable on all three topologies, paths
//! deterministic and up/down (d-mod-k), sizes as documented; configuration errors name the
//! field and the allowed range; configs deserialize from TOML.

use pft_hdl::regs::{self, Kind};
use pft_sim::net::NodeId;
use pft_sim::net::{NetConfig, Peer, Topology, TopologyConfig};
use pft_sim::{DetMode, EngineKind, Network, PftConfig, ThrMode};

fn check_all_pairs(t: &Topology) -> usize {
    let n = t.nodes();
    let sw = t.switches();
    let mut max_hops = 0;
    // Load per (switch, out_port) from all-to-all: d-mod-k spreads it evenly.
    let mut load = vec![vec![0u32; 64]; sw.len()];
    for s in 0..n {
        for d in 0..n {
            if s == d {
                continue;
            }
            let p = t
                .path(NodeId(s), NodeId(d))
                .unwrap_or_else(|e| panic!("{s} -> {d}: {e}"));
            assert_eq!(p, t.path(NodeId(s), NodeId(d)).unwrap(), "deterministic");
            assert_eq!(p[0].switch, t.attach(NodeId(s)).0);
            assert_eq!(p[0].in_port, t.attach(NodeId(s)).1);
            let last = p.last().unwrap();
            assert_eq!(
                sw[last.switch as usize].ports[last.out_port as usize],
                Peer::Nic(NodeId(d))
            );
            // Up*/down*: levels rise, then fall, never rise again.
            let lv: Vec<u8> = p.iter().map(|h| sw[h.switch as usize].level).collect();
            let top = lv
                .iter()
                .position(|&l| l == *lv.iter().max().unwrap())
                .unwrap();
            assert!(lv[..=top].windows(2).all(|w| w[0] < w[1]), "{lv:?}");
            assert!(lv[top..].windows(2).all(|w| w[0] > w[1]), "{lv:?}");
            // Consecutive hops are joined by a link.
            for w in p.windows(2) {
                assert_eq!(
                    sw[w[0].switch as usize].ports[w[0].out_port as usize],
                    Peer::Switch {
                        switch: w[1].switch,
                        port: w[1].in_port
                    }
                );
            }
            for h in &p {
                load[h.switch as usize][h.out_port as usize] += 1;
            }
            max_hops = max_hops.max(p.len());
        }
    }
    // Every used link carries traffic, and (full bisection, d-mod-k) all up-links of a
    // leaf carry the same number of routes.
    for (s, spec) in sw.iter().enumerate() {
        for (p, peer) in spec.ports.iter().enumerate() {
            assert_eq!(
                *peer == Peer::Unused,
                load[s][p] == 0,
                "{} port {p}",
                spec.name
            );
        }
        let up: Vec<u32> = (0..spec.radix as usize)
            .filter(|&p| matches!(spec.ports[p], Peer::Switch { switch, .. } if sw[switch as usize].level > spec.level))
            .map(|p| load[s][p])
            .collect();
        assert!(up.windows(2).all(|w| w[0] == w[1]), "{}: {up:?}", spec.name);
    }
    max_hops
}

#[test]
fn single_switch() {
    let t = Topology::build(&TopologyConfig::SingleSwitch { nodes: 8 });
    assert_eq!(t.nodes(), 8);
    assert_eq!(t.switches().len(), 1);
    assert_eq!(check_all_pairs(&t), 1);
}

#[test]
fn default_fat_tree_is_the_papers_120_nodes() {
    let c = NetConfig::default();
    let t = Topology::build(&c.topology);
    assert_eq!(t.nodes(), 120);
    let sw = t.switches();
    assert_eq!(sw.iter().filter(|s| s.level == 0).count(), 10);
    assert_eq!(sw.iter().filter(|s| s.level == 1).count(), 12);
    assert!(sw.iter().all(|s| s.radix == 24));
    assert_eq!(check_all_pairs(&t), 3);
    // d-mod-k: NIC d is reached through spine d mod 12 from every other leaf.
    for d in [0u32, 13, 119] {
        let p = t.path(NodeId((d + 12) % 120), NodeId(d)).unwrap();
        assert_eq!(sw[p[1].switch as usize].name, format!("spine {}", d % 12));
    }
    // Same leaf: one hop.
    assert_eq!(t.path(NodeId(0), NodeId(11)).unwrap().len(), 1);
}

#[test]
fn any_radix_and_leaf_count() {
    for (radix, leaves) in [(4, 2), (6, 3), (8, 8), (16, 16), (10, 7)] {
        let t = Topology::build(&TopologyConfig::FatTree { radix, leaves });
        assert_eq!(t.nodes(), leaves * radix / 2);
        assert_eq!(t.switches().len() as u32, leaves + radix / 2);
        check_all_pairs(&t);
    }
}

#[test]
fn ib648_three_stage_fabric() {
    let t = Topology::build(&TopologyConfig::ib648());
    assert_eq!(t.nodes(), 648);
    assert_eq!(
        t.switches().len(),
        54,
        "36 leaves + 18 spines, as the Sun DCS 648"
    );
    assert!(t.switches().iter().all(|s| s.radix == 36));
    // Every spine port is used (a full 3-stage Clos).
    assert!(t
        .switches()
        .iter()
        .all(|s| s.ports.iter().all(|p| *p != Peer::Unused)));
    assert_eq!(check_all_pairs(&t), 3);
}

fn refused(cfg: NetConfig) -> String {
    match Network::new(&cfg, &PftConfig::default(), EngineKind::Model, 1) {
        Ok(_) => panic!("accepted {cfg:?}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn bad_configs_name_the_field_and_range() {
    let ft = |radix, leaves| NetConfig {
        topology: TopologyConfig::FatTree { radix, leaves },
        ..Default::default()
    };
    let e = refused(ft(15, 4));
    assert!(
        e.contains("`topology.radix` = 15") && e.contains("even and in 4..=64"),
        "{e}"
    );
    let e = refused(ft(8, 9));
    assert!(
        e.contains("`topology.leaves` = 9") && e.contains("2..=8"),
        "{e}"
    );
    let e = refused(NetConfig {
        topology: TopologyConfig::SingleSwitch { nodes: 65 },
        ..Default::default()
    });
    assert!(
        e.contains("`topology.nodes` = 65") && e.contains("2..=64"),
        "{e}"
    );
    let e = refused(NetConfig {
        nodes: Some(128),
        ..Default::default()
    });
    assert!(
        e.contains("`nodes` = 128") && e.contains("node count, 120"),
        "{e}"
    );
    let e = refused(NetConfig {
        buffer_flits: 32,
        ..Default::default()
    });
    assert!(
        e.contains("`buffer_flits` = 32") && e.contains("64..=65535"),
        "{e}"
    );
    let e = refused(NetConfig {
        mtu_bytes: 1000,
        ..Default::default()
    });
    assert!(
        e.contains("`mtu_bytes` = 1000") && e.contains("multiple of network.flit_bytes = 64"),
        "{e}"
    );
    let e = refused(NetConfig {
        eject_rate: 0.0,
        ..Default::default()
    });
    assert!(
        e.contains("`eject_rate`") && e.contains("[1/65536, 1]"),
        "{e}"
    );
    let e = refused(NetConfig {
        link_latency_cycles: 0,
        ..Default::default()
    });
    assert!(e.contains("`link_latency_cycles` = 0"), "{e}");
    let e = refused(NetConfig {
        flit_bytes: 0,
        ..Default::default()
    });
    assert!(e.contains("`flit_bytes` = 0"), "{e}");
    // a PftConfig cannot hold an out-of-range value: parsing and `try_with` refuse it
    let e = PftConfig::default()
        .try_with("m", 40)
        .unwrap_err()
        .to_string();
    assert!(e.contains("`m` = 40") && e.contains("0..=31"), "{e}");
}

#[test]
fn configs_deserialize_from_toml() {
    let c: NetConfig = toml::from_str(
        r#"
        buffer_flits = 512
        voq = true
        eject_rate = 0.5
        topology = { kind = "three_stage", radix = 36 }
        "#,
    )
    .unwrap();
    assert_eq!(c.topology, TopologyConfig::ib648());
    assert_eq!(c.buffer_flits, 512);
    assert!(c.voq);
    assert_eq!(
        c.link_latency_cycles,
        NetConfig::default().link_latency_cycles
    );
    c.validate().unwrap();
    let e = toml::from_str::<NetConfig>("bufer_flits = 3")
        .unwrap_err()
        .to_string();
    assert!(e.contains("unknown field `bufer_flits`"), "{e}");
    let p: PftConfig =
        toml::from_str("det_mode = \"ft\"\nthr_mode = \"fi\"\nm = 3\nenable = false").unwrap();
    assert!(!p.enabled() && p.regs().m == 3);
    // the modes' names are the register map's names of the CTRL field values
    for (key, values) in [
        (
            "det_mode",
            [DetMode::Ft, DetMode::At].map(|d| toml::Value::try_from(d).unwrap()),
        ),
        (
            "thr_mode",
            [ThrMode::Fi, ThrMode::Ri].map(|t| toml::Value::try_from(t).unwrap()),
        ),
    ] {
        let Some(Kind::Enum(names)) = regs::field(key).map(|f| f.kind) else {
            panic!("{key} is not an enum field");
        };
        let values = values.map(|v| v.as_str().unwrap().to_string());
        assert_eq!(values.as_slice(), names, "{key}");
    }
    let k: EngineKind = toml::from_str::<toml::Table>("e = \"rtl\"").unwrap()["e"]
        .clone()
        .try_into()
        .unwrap();
    assert_eq!(k, EngineKind::Rtl);
}
