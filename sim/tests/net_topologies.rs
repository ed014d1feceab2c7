//! k-ary n-cube tori and meshes (dimension-order routing), k-ary n-trees (up/down) and k-ary
//! n-flies (destination tag) on today's one-lane cut-through switch (issue 22, first part):
//! - every pair is reachable, paths are minimal and follow the routing's rules;
//! - the channel-dependency graph of each routing, built from every path, is acyclic for
//!   meshes and trees and cyclic for a torus with one lane;
//! - lossless under load with the invariant checker, deterministic, independent of the
//!   evaluation order, and it drains;
//! - a one-lane ring with its wrap link deadlocks under a shift pattern, and the deadlock
//!   error names the buffers of the cycle; the same ring without the wrap link (a mesh)
//!   does not;
//! - sizes out of range are refused, naming the key and the range.

use pft_sim::net::{
    BernoulliSource, Delivery, EvalOrder, NetConfig, NetError, NodeId, Pattern, Peer, Routing,
    Topology, TopologyConfig,
};
use pft_sim::{CcConfig, EngineKind, Network};
use std::collections::HashMap;

mod cdg;
use cdg::{acyclic, add_path};

fn digits(x: u32, k: u32, n: u32) -> Vec<u32> {
    (0..n).map(|d| (x / k.pow(d)) % k).collect()
}

/// Checks every pair's path; returns the channel-dependency graph: a node per directed
/// switch-to-switch channel `(switch, out_port)`, an edge per consecutive pair of
/// channels on some path.
fn paths_and_cdg(
    t: &Topology,
    hops: impl Fn(u32, u32) -> usize,
) -> HashMap<(u32, u32), Vec<(u32, u32)>> {
    let sw = t.switches();
    let mut cdg: HashMap<(u32, u32), Vec<(u32, u32)>> = HashMap::new();
    for s in 0..t.nodes() {
        for d in 0..t.nodes() {
            if s == d {
                continue;
            }
            let p = t
                .path(NodeId(s), NodeId(d))
                .unwrap_or_else(|e| panic!("{}: {s} -> {d}: {e}", t.description()));
            assert_eq!(
                p.len(),
                hops(s, d),
                "{}: {s} -> {d}: {p:?}",
                t.description()
            );
            for w in p.windows(2) {
                assert_eq!(
                    sw[w[0].switch as usize].ports[w[0].out_port as usize],
                    Peer::Switch {
                        switch: w[1].switch,
                        port: w[1].in_port
                    }
                );
            }
            let chans: Vec<(u32, u32)> = p[..p.len() - 1]
                .iter()
                .map(|h| (h.switch, h.out_port))
                .collect();
            add_path(&mut cdg, &chans);
        }
    }
    cdg
}

fn cube_hops(k: u32, n: u32, wrap: bool) -> impl Fn(u32, u32) -> usize {
    move |s, d| {
        let (a, b) = (digits(s, k, n), digits(d, k, n));
        1 + a
            .iter()
            .zip(&b)
            .map(|(&x, &y)| {
                let dx = x.abs_diff(y);
                (if wrap { dx.min(k - dx) } else { dx }) as usize
            })
            .sum::<usize>()
    }
}

#[test]
fn cube_paths_are_minimal_dimension_ordered_and_mesh_cdg_is_acyclic() {
    for (k, n) in [(4, 2), (5, 2), (3, 3), (8, 1), (2, 3)] {
        for wrap in [false, true] {
            let cfg = if wrap {
                TopologyConfig::Torus { k, n }
            } else {
                TopologyConfig::Mesh { k, n }
            };
            cfg.validate().unwrap();
            let t = Topology::build(&cfg);
            assert_eq!(t.nodes(), k.pow(n));
            assert_eq!(t.switches().len() as u32, k.pow(n));
            assert!(t.switches().iter().all(|s| s.radix == 2 * n + 1));
            let cdg = paths_and_cdg(&t, cube_hops(k, n, wrap));
            // dimension order: the dimensions a path moves in never decrease
            for s in 0..t.nodes() {
                for d in 0..t.nodes() {
                    if s != d {
                        let p = t.path(NodeId(s), NodeId(d)).unwrap();
                        let dims: Vec<u32> =
                            p[..p.len() - 1].iter().map(|h| h.out_port / 2).collect();
                        assert!(dims.windows(2).all(|w| w[0] <= w[1]), "{dims:?}");
                    }
                }
            }
            // A mesh under DOR has no cycle of channel dependencies. A torus ring with one
            // lane has one when a path takes two hops in a ring (k >= 4): the need for
            // dateline lanes. With k <= 3 every path moves at most one hop per ring.
            assert_eq!(acyclic(&cdg), !wrap || k <= 3, "{}", t.description());
        }
    }
}

#[test]
fn tree_paths_are_up_down_minimal_and_acyclic() {
    for (k, n) in [(2, 3), (4, 2), (4, 3), (3, 3), (2, 1)] {
        let cfg = TopologyConfig::KaryNtree { k, n, hosts: None };
        cfg.validate().unwrap();
        let t = Topology::build(&cfg);
        assert_eq!(t.nodes(), k.pow(n));
        assert_eq!(t.switches().len() as u32, n * k.pow(n - 1));
        let hops = move |s: u32, d: u32| {
            let (a, b) = (digits(s, k, n), digits(d, k, n));
            // the nearest common ancestor's level: the highest differing digit above 0
            let l = (1..n)
                .rev()
                .find(|&i| a[i as usize] != b[i as usize])
                .unwrap_or(0);
            2 * l as usize + 1
        };
        let cdg = paths_and_cdg(&t, hops);
        assert!(acyclic(&cdg), "{}", t.description());
        // up then down
        let sw = t.switches();
        for s in 0..t.nodes() {
            for d in 0..t.nodes() {
                if s != d {
                    let lv: Vec<u8> = t
                        .path(NodeId(s), NodeId(d))
                        .unwrap()
                        .iter()
                        .map(|h| sw[h.switch as usize].level)
                        .collect();
                    let top = lv
                        .iter()
                        .position(|&l| l == *lv.iter().max().unwrap())
                        .unwrap();
                    assert!(lv[..=top].windows(2).all(|w| w[0] + 1 == w[1]), "{lv:?}");
                    assert!(lv[top..].windows(2).all(|w| w[0] == w[1] + 1), "{lv:?}");
                }
            }
        }
    }
}

#[test]
fn fly_paths_take_one_switch_per_stage_to_the_last_stage_and_are_acyclic() {
    for (k, n, hosts) in [
        (2, 3, None),
        (4, 2, None),
        (4, 3, None),
        (3, 2, None),
        (4, 1, None),
        (4, 1, Some(3)),
        (4, 3, Some(32)),
        // the seed 004's "4-ary 5-fly (512 hosts and 640 switches)"
        (4, 5, Some(512)),
    ] {
        let cfg = TopologyConfig::KaryNfly { k, n, hosts };
        cfg.validate().unwrap();
        let t = Topology::build(&cfg);
        let nodes = hosts.unwrap_or(k.pow(n));
        assert_eq!(t.nodes(), nodes);
        assert_eq!(t.switches().len() as u32, n * nodes.div_ceil(k));
        assert!(t.switches().iter().all(|s| s.radix == k));
        let cdg = paths_and_cdg(&t, |_, _| n as usize);
        assert!(acyclic(&cdg), "{}", t.description());
        let sw = t.switches();
        for s in 0..nodes {
            assert_eq!(sw[t.attach(NodeId(s)).0 as usize].level, 0);
            for d in 0..nodes {
                if s == d {
                    continue;
                }
                let p = t.path(NodeId(s), NodeId(d)).unwrap();
                // stage 0, 1, ..., n - 1, leaving by the port that ejects to d
                let stages: Vec<u8> = p.iter().map(|h| sw[h.switch as usize].level).collect();
                assert_eq!(stages, (0..n as u8).collect::<Vec<_>>());
                let last = p.last().unwrap();
                assert_eq!((last.switch, last.out_port), t.eject(NodeId(d)));
            }
        }
    }
    assert_eq!(
        Topology::build(&TopologyConfig::KaryNfly {
            k: 4,
            n: 5,
            hosts: None
        })
        .switches()
        .len(),
        1280,
        "the nominal 4-ary 5-fly: 5 stages of 256"
    );
}

fn net_cfg(topology: TopologyConfig, buffer_flits: u32, packet_flits: u32) -> NetConfig {
    // one lane: a torus runs without dateline classes (refused under `dor` without lanes)
    let routing =
        matches!(topology, TopologyConfig::Torus { .. }).then_some(Routing::DorNoDateline);
    NetConfig {
        routing,
        topology,
        buffer_flits,
        eject_buffer_flits: buffer_flits,
        mtu_bytes: packet_flits * 64,
        check: true,
        deadlock_cycles: 3_000,
        ..NetConfig::default()
    }
}

/// Deliveries of a uniform load of 16-flit packets for `cycles`, then a drain.
fn run(cfg: &NetConfig, cc: &CcConfig, order: EvalOrder, load: f64, cycles: u64) -> Vec<Delivery> {
    let mut net = Network::with_cc(cfg, cc, EngineKind::Model, 5).unwrap();
    net.set_eval_order(order);
    let nodes = net.nodes();
    let mut w = BernoulliSource::new(nodes, Pattern::Uniform, load, 16 * 64, 64, 9)
        .logged()
        .until(cycles);
    net.run(&mut w, cycles)
        .unwrap_or_else(|e| panic!("{}: {e}", net.topology().description()));
    assert!(
        net.run_until_idle(&mut w, 200_000).unwrap(),
        "{}: does not drain",
        net.topology().description()
    );
    assert_eq!(w.created, w.delivered, "lossless");
    assert!(w.delivered > 100, "{} delivered", w.delivered);
    w.log.unwrap()
}

#[test]
fn meshes_trees_and_lightly_loaded_tori_are_lossless_deterministic_and_order_independent() {
    let pft = CcConfig::Pft(pft_sim::PftConfig::default());
    for (topo, load) in [
        (TopologyConfig::Mesh { k: 4, n: 2 }, 0.6),
        (
            TopologyConfig::KaryNtree {
                k: 4,
                n: 2,
                hosts: None,
            },
            0.8,
        ),
        (
            TopologyConfig::KaryNtree {
                k: 2,
                n: 3,
                hosts: None,
            },
            0.8,
        ),
        (
            TopologyConfig::KaryNfly {
                k: 4,
                n: 2,
                hosts: None,
            },
            0.8,
        ),
        (
            TopologyConfig::KaryNfly {
                k: 2,
                n: 4,
                hosts: Some(8),
            },
            0.8,
        ),
        // a torus with one lane can deadlock; at this load, with buffers of 8 packets, it
        // does not within the run (the deadlock detector would end it with an error)
        (TopologyConfig::Torus { k: 4, n: 2 }, 0.2),
    ] {
        let cfg = net_cfg(topo, 128, 16);
        for cc in [CcConfig::none(), pft.clone()] {
            let a = run(&cfg, &cc, EvalOrder::Forward, load, 4_000);
            assert_eq!(
                a,
                run(&cfg, &cc, EvalOrder::Forward, load, 4_000),
                "deterministic"
            );
            assert_eq!(
                a,
                run(&cfg, &cc, EvalOrder::Reverse, load, 4_000),
                "reverse order"
            );
            assert_eq!(
                a,
                run(&cfg, &cc, EvalOrder::Shuffled(3), load, 4_000),
                "shuffled order"
            );
        }
    }
}

/// A 4-router ring, one lane, buffers of one 16-flit packet, every NIC sending to the NIC
/// two away (both ways are 2 hops; DOR's tie goes plus, so every packet goes the same way
/// round).
fn ring_run(wrap: bool) -> Result<u64, Box<NetError>> {
    let topo = if wrap {
        TopologyConfig::Torus { k: 4, n: 1 }
    } else {
        TopologyConfig::Mesh { k: 4, n: 1 }
    };
    let cfg = net_cfg(topo, 16, 16);
    let mut net =
        Network::with_cc(&cfg, &CcConfig::none(), EngineKind::Model, 1).map_err(Box::new)?;
    let mut w =
        BernoulliSource::new(4, Pattern::Shift { by: 2 }, 1.0, 16 * 64, 64, 2).until(20_000);
    net.run(&mut w, 20_000)?;
    net.run_until_idle(&mut w, 100_000)?;
    Ok(w.delivered)
}

#[test]
fn a_one_lane_ring_with_wrap_links_deadlocks_and_the_error_names_the_cycle() {
    let e = ring_run(true).expect_err("a one-lane ring under a shift of k/2 deadlocks");
    let msg = e.to_string();
    assert!(matches!(*e, NetError::Deadlock { .. }), "{msg}");
    assert!(msg.contains("a cycle of 4 buffers (lanes)"), "{msg}");
    // the plus links arrive at each router's minus port (input 1)
    for r in 0..4 {
        assert!(msg.contains(&format!("router ({r}) input 1")), "{msg}");
    }
    // the same ring without the wrap link routes the long way (at most 3 hops), no cycle
    let delivered = ring_run(false).expect("a mesh (no wrap) does not deadlock");
    assert!(delivered > 1_000, "{delivered}");
}

#[test]
fn cube_tree_and_fly_sizes_out_of_range_are_refused_naming_the_key() {
    for (cfg, key, range) in [
        (
            TopologyConfig::Torus { k: 1, n: 2 },
            "topology.k",
            "2..=32768",
        ),
        // a cube's limit is every kind's: k^n <= 32768 NICs
        (
            TopologyConfig::Mesh { k: 5, n: 7 },
            "topology.n",
            "must be at most 32768: with k = 5, n <= 6",
        ),
        (TopologyConfig::Mesh { k: 4, n: 0 }, "topology.n", "1..=12"),
        (
            TopologyConfig::Torus { k: 16, n: 4 },
            "topology.n",
            "n <= 3",
        ),
        (
            TopologyConfig::KaryNtree {
                k: 33,
                n: 2,
                hosts: None,
            },
            "topology.k",
            "2..=32",
        ),
        (
            TopologyConfig::KaryNtree {
                k: 4,
                n: 9,
                hosts: None,
            },
            "topology.n",
            "1..=8",
        ),
        (
            TopologyConfig::KaryNtree {
                k: 8,
                n: 6,
                hosts: None,
            },
            "topology.n",
            "must be at most 32768: with k = 8, n <= 5",
        ),
        (
            TopologyConfig::KaryNfly {
                k: 65,
                n: 2,
                hosts: None,
            },
            "topology.k",
            "2..=64",
        ),
        (
            TopologyConfig::KaryNfly {
                k: 2,
                n: 13,
                hosts: None,
            },
            "topology.n",
            "1..=12",
        ),
        (
            TopologyConfig::KaryNfly {
                k: 4,
                n: 3,
                hosts: Some(40),
            },
            "topology.hosts",
            "multiple of k^(n-1) = 16 in 16..=64",
        ),
        (
            TopologyConfig::KaryNfly {
                k: 4,
                n: 3,
                hosts: Some(80),
            },
            "topology.hosts",
            "16..=64",
        ),
    ] {
        let e = cfg.validate().expect_err("out of range");
        let m = e.to_string();
        assert!(m.contains(key) && m.contains(range), "{cfg:?}: {m}");
        let net = NetConfig {
            topology: cfg,
            ..NetConfig::default()
        };
        assert!(Network::with_cc(&net, &CcConfig::none(), EngineKind::Model, 1).is_err());
    }
    // the scenario form
    let t: NetConfig =
        toml::from_str("topology = { kind = \"kary_ntree\", k = 4, n = 3 }").unwrap();
    assert_eq!(t.topology.nodes(), 64);
    let t: NetConfig = toml::from_str("topology = { kind = \"torus\", k = 8, n = 2 }").unwrap();
    assert_eq!(t.topology.nodes(), 64);
    let t: NetConfig = toml::from_str("topology = { kind = \"mesh\", k = 3, n = 3 }").unwrap();
    assert_eq!(t.topology.nodes(), 27);
    let t: NetConfig =
        toml::from_str("topology = { kind = \"kary_nfly\", k = 4, n = 5, hosts = 512 }").unwrap();
    assert_eq!(t.topology.nodes(), 512);
    let t: NetConfig = toml::from_str("topology = { kind = \"kary_nfly\", k = 2, n = 4 }").unwrap();
    assert_eq!(t.topology.nodes(), 16);
}
