//! Seed 003's router arrangement as options of the lane router (issue 41):
//! - `escape_lanes = 1`: Duato on a torus with one escape lane (dimension order without the
//!   wrap links, kept once taken). Its extended channel-dependency graph (Duato's: direct
//!   and indirect dependencies between escape lanes through adaptive hops) is acyclic, and
//!   it would not be if a packet could leave the escape lane; it drains at full load on
//!   small buffers under every pattern, losslessly, deterministically and independently of
//!   the evaluation order;
//! - `allocator = "central"`: one head routed per router per cycle (seed 003's central
//!   arbiter), against the separable allocator that routes every waiting head at once;
//! - both keys refused with their name and range where they do not apply.

#![allow(clippy::result_large_err)]

use pft_sim::net::lanes::{candidates, Router};
use pft_sim::net::topology::cube;
use pft_sim::net::{
    Allocator, BernoulliSource, Delivery, EvalOrder, Message, NetConfig, NetError, NodeId, Pattern,
    Routing, TopologyConfig, Workload,
};
use pft_sim::{CcConfig, EngineKind, Network};
use std::collections::{HashMap, HashSet};

mod cdg;
use cdg::acyclic;

mod lane_config;
use lane_config::lanes;

/// (router, output port, lane) to the escape lanes a packet holding it may wait for next.
type Graph = HashMap<(u32, u32, u32), Vec<(u32, u32, u32)>>;

fn rt(k: u32, n: u32, vcs: u32) -> Router {
    Router {
        routing: Routing::Duato,
        vcs,
        k,
        n,
        wrap: true,
        ack_vcs: 0,
        df: None,
        threshold: 0,
        one_escape: true,
        disha: false,
    }
}

fn neighbour(rt: &Router, r: u32, p: u32) -> u32 {
    let d = p / 2;
    let x = cube::digit(r, rt.k, d);
    let nx = if p.is_multiple_of(2) {
        (x + 1) % rt.k
    } else {
        (x + rt.k - 1) % rt.k
    };
    cube::with_digit(r, rt.k, d, nx)
}

/// Duato's extended channel-dependency graph of the escape lanes: from every escape lane
/// (r, p, lane) towards every destination, an edge to each escape lane the packet may
/// request at a router it reaches next, directly or after any number of adaptive hops
/// (taken on adaptive lanes, so `escaped` is false there). With `sticky` the routing is
/// told that a packet on an escape lane arrived on one; without, the routing is asked as if
/// it had not (a packet could go back to the adaptive lanes).
fn extended_escape_cdg(rt: &Router, sticky: bool) -> Graph {
    let nodes = rt.k.pow(rt.n);
    let mut g: Graph = HashMap::new();
    let mut cand = Vec::new();
    for d in 0..nodes {
        for r in 0..nodes {
            if r == d {
                continue;
            }
            // the escape lanes of r towards d
            candidates(rt, r, d, 0, false, false, &mut cand);
            let esc: Vec<_> = cand.iter().filter(|c| !c.3).copied().collect();
            for &(p, lo, hi, _) in &esc {
                if p == 2 * rt.n {
                    continue;
                }
                for c in lo..hi {
                    let from = (r, p, c);
                    g.entry(from).or_default();
                    // the routers the packet may reach from the next one before its next
                    // escape request, and the escape lanes it may request there
                    let mut seen = HashSet::new();
                    let mut todo = vec![(neighbour(rt, r, p), sticky)];
                    let mut next = Vec::new();
                    while let Some((x, escaped)) = todo.pop() {
                        if x == d || !seen.insert((x, escaped)) {
                            continue;
                        }
                        candidates(rt, x, d, 0, false, escaped, &mut cand);
                        for &(q, lo2, hi2, adaptive) in &cand {
                            if adaptive {
                                todo.push((neighbour(rt, x, q), false));
                            } else if q != 2 * rt.n {
                                next.extend((lo2..hi2).map(|c2| (x, q, c2)));
                            }
                        }
                    }
                    for b in next {
                        g.entry(b).or_default();
                        let e = g.get_mut(&from).unwrap();
                        if !e.contains(&b) {
                            e.push(b);
                        }
                    }
                }
            }
        }
    }
    g
}

#[test]
fn one_escape_lane_is_deadlock_free_by_duatos_extended_graph_and_only_if_kept() {
    for (k, n) in [(4, 1), (5, 1), (4, 2), (5, 2), (8, 2), (3, 3)] {
        for vcs in [2, 3] {
            let r = rt(k, n, vcs);
            let mut cand = Vec::new();
            // the escape lane never uses a wrap link, and a packet on it is offered nothing else
            for x in 0..k.pow(n) {
                for d in 0..k.pow(n) {
                    candidates(&r, x, d, 0, false, true, &mut cand);
                    assert!(cand.iter().all(|c| !c.3 && (c.1, c.2) == (0, 1)));
                    let p = cand[0].0;
                    if p < 2 * n {
                        let (a, b) = (
                            cube::digit(x, k, p / 2),
                            cube::digit(neighbour(&r, x, p), k, p / 2),
                        );
                        assert_eq!(a.abs_diff(b), 1, "{k}-ary {n}-cube {x} -> {d}: no wrap");
                    }
                }
            }
            let g = extended_escape_cdg(&r, true);
            assert!(g.len() > 2 * n as usize, "{} escape lanes", g.len());
            assert!(acyclic(&g), "{k}-ary {n}-cube, {vcs} lanes");
            // leaving the escape lane for the adaptive ones closes cycles once a ring is
            // long enough for the mesh's way and the torus's shorter way to differ
            assert_eq!(
                acyclic(&extended_escape_cdg(&r, false)),
                k < 4,
                "{k}-ary {n}-cube, {vcs} lanes, escape not kept"
            );
        }
    }
}

fn cfg(k: u32, vcs: u32, buf: u32) -> NetConfig {
    NetConfig {
        escape_lanes: Some(1),
        head_latency_cycles: Some(1),
        ..lanes(
            TopologyConfig::Torus { k, n: 2 },
            vcs,
            buf,
            Some(Routing::Duato),
        )
    }
}

fn run(cfg: &NetConfig, order: EvalOrder, pattern: Pattern, load: f64) -> Vec<Delivery> {
    let cycles = 10_000;
    let mut net = Network::with_cc(cfg, &CcConfig::none(), EngineKind::Model, 5).unwrap();
    net.set_eval_order(order);
    let nodes = net.nodes();
    let mut w = BernoulliSource::new(nodes, pattern, load, 16 * 64, 64, 9)
        .logged()
        .until(cycles);
    net.run(&mut w, cycles)
        .unwrap_or_else(|e| panic!("{pattern:?}: {e}"));
    assert!(net.run_until_idle(&mut w, 400_000).unwrap(), "drains");
    assert_eq!(w.created, w.delivered, "lossless");
    assert!(w.delivered > nodes as u64 * 10, "{} delivered", w.delivered);
    w.log.unwrap()
}

#[test]
fn one_escape_lane_drains_at_full_load_losslessly_and_deterministically() {
    for (k, vcs, buf, alloc) in [
        (4, 2, 4, None),
        (4, 3, 4, Some(Allocator::Central)),
        (5, 3, 8, None),
        (5, 2, 4, Some(Allocator::Central)),
    ] {
        let c = NetConfig {
            allocator: alloc,
            ..cfg(k, vcs, buf)
        };
        let mut patterns = vec![
            Pattern::Uniform,
            Pattern::Shift { by: 2 },
            Pattern::Tornado { k, n: 2 },
        ];
        if k == 4 {
            patterns.extend([
                Pattern::Complement,
                Pattern::BitReversal,
                Pattern::Transpose,
            ]);
        }
        for pattern in patterns {
            run(&c, EvalOrder::Forward, pattern, 1.0);
        }
        let a = run(&c, EvalOrder::Forward, Pattern::Uniform, 0.4);
        assert_eq!(a, run(&c, EvalOrder::Reverse, Pattern::Uniform, 0.4));
        assert_eq!(a, run(&c, EvalOrder::Shuffled(3), Pattern::Uniform, 0.4));
    }
}

/// Every NIC of a single switch sends one 16-flit message to the next NIC, all in cycle 0.
struct Shift {
    n: u32,
    lat: Vec<u64>,
}

impl Workload for Shift {
    fn tick(&mut self, now: u64, out: &mut Vec<Message>) {
        if now == 0 {
            for s in 0..self.n {
                out.push(Message {
                    id: s as u64,
                    src: NodeId(s),
                    dst: NodeId((s + 1) % self.n),
                    bytes: 16 * 64,
                    tag: 0,
                    created: 0,
                });
            }
        }
    }
    fn delivered(&mut self, _now: u64, d: &Delivery) {
        self.lat.push(d.delivered - d.msg.created);
    }
}

#[test]
fn the_central_arbiter_routes_one_head_per_router_per_cycle() {
    // Eight heads reach one switch in the same cycle, each for another output. The
    // separable allocator gives all eight their lanes at once (equal latencies); the central
    // arbiter one per cycle, so the latencies are eight consecutive cycles.
    let lat = |a: Option<Allocator>| {
        let c = NetConfig {
            topology: TopologyConfig::SingleSwitch { nodes: 8 },
            vcs: Some(2),
            allocator: a,
            mtu_bytes: 16 * 64,
            check: true,
            ..NetConfig::default()
        };
        let mut net = Network::with_cc(&c, &CcConfig::none(), EngineKind::Model, 1).unwrap();
        let mut w = Shift { n: 8, lat: vec![] };
        net.run(&mut w, 1).unwrap();
        assert!(net.run_until_idle(&mut w, 10_000).unwrap());
        w.lat.sort();
        w.lat
    };
    let sep = lat(None);
    assert_eq!(sep.len(), 8);
    assert!(sep.iter().all(|&l| l == sep[0]), "{sep:?}");
    assert_eq!(lat(Some(Allocator::Separable)), sep);
    let cen = lat(Some(Allocator::Central));
    let want: Vec<u64> = (0..8).map(|i| sep[0] + i).collect();
    assert_eq!(cen, want);
}

fn refused(c: NetConfig) -> String {
    match Network::with_cc(&c, &CcConfig::none(), EngineKind::Model, 1) {
        Err(NetError::Config(e)) => e.to_string(),
        Err(e) => panic!("{e}"),
        Ok(_) => panic!("accepted"),
    }
}

#[test]
fn the_keys_are_refused_with_name_and_range_where_they_do_not_apply() {
    let ok = cfg(4, 2, 4);
    for (c, key, text) in [
        (
            NetConfig {
                escape_lanes: Some(3),
                vcs: Some(4),
                ..ok.clone()
            },
            "escape_lanes",
            "1..=2",
        ),
        (
            NetConfig {
                escape_lanes: Some(0),
                ..ok.clone()
            },
            "escape_lanes",
            "1..=2",
        ),
        (
            NetConfig {
                routing: Some(Routing::Dor),
                ..ok.clone()
            },
            "escape_lanes",
            "`duato` on a torus",
        ),
        (
            NetConfig {
                topology: TopologyConfig::Mesh { k: 4, n: 2 },
                ..ok.clone()
            },
            "escape_lanes",
            "`duato` on a torus",
        ),
        (
            NetConfig {
                vcs: Some(1),
                ..ok.clone()
            },
            "vcs",
            "vcs >= 2",
        ),
        (
            NetConfig {
                escape_lanes: Some(2),
                ..ok.clone()
            },
            "vcs",
            "vcs >= 3",
        ),
        (
            NetConfig {
                topology: TopologyConfig::SingleSwitch { nodes: 4 },
                routing: None,
                escape_lanes: None,
                vcs: None,
                vc_buf_flits: None,
                head_latency_cycles: None,
                allocator: Some(Allocator::Central),
                ..ok.clone()
            },
            "allocator",
            "needs `vcs`",
        ),
    ] {
        let e = refused(c);
        assert!(e.contains(key) && e.contains(text), "{key}, {text}: {e}");
    }
}

/// `duato` with `lane_reuse = "tail"` under wormhole (docs/network.md, "Lanes"): a lane
/// takes the next packet once the last tail left only if the lane behind it is empty or
/// has room for the whole packet. Without that rule (each lane at its tail, whatever the
/// room: `Router::whole_at_tail` false) the saturated runs on 8-flit lanes deadlocked in 2,
/// 3 and 7 of their 40 (a head granted an adaptive lane behind a packet that waits for a
/// credit waits on that lane alone, and such heads close cycles). With it every run
/// drains under the checker, no warning is drawn, and:
/// - on lanes of 20 flits (room for two 8-flit packets and a part) a lane does take a
///   packet behind another: the deliveries differ from `lane_reuse = "empty"`; heads
///   waiting for a lane (woken by a credit that may make room) deliver as if they asked
///   every cycle;
/// - on lanes of 4 flits (shorter than a packet) a lane takes a packet when the lane
///   behind it is empty.
#[test]
fn duato_with_tail_reuse_drains_saturated() {
    use pft_sim::net::LaneReuse;
    for (name, topology, escape, vcs) in [
        (
            "4-ary 2-cube, one escape lane",
            TopologyConfig::Torus { k: 4, n: 2 },
            Some(1),
            2,
        ),
        (
            "4-ary 2-cube, two escape lanes",
            TopologyConfig::Torus { k: 4, n: 2 },
            None,
            3,
        ),
        ("4-ary 2-mesh", TopologyConfig::Mesh { k: 4, n: 2 }, None, 2),
    ] {
        let cfg = |buf: u32, reuse| NetConfig {
            topology: topology.clone(),
            vcs: Some(vcs),
            vc_buf_flits: Some(buf),
            routing: Some(Routing::Duato),
            escape_lanes: escape,
            lane_reuse: Some(reuse),
            check: true,
            mtu_bytes: 8 * 64,
            deadlock_cycles: 5_000,
            ..NetConfig::default()
        };
        let log = |cfg: &NetConfig, wait_lists: bool| {
            let mut net = Network::with_cc(cfg, &CcConfig::none(), EngineKind::Model, 3).unwrap();
            net.set_lane_wait_lists(wait_lists);
            let mut w = BernoulliSource::new(net.nodes(), Pattern::Uniform, 1.0, 8 * 64, 64, 4)
                .logged()
                .until(3_000);
            net.run(&mut w, 3_000).unwrap();
            assert!(net.run_until_idle(&mut w, 200_000).unwrap(), "{name}");
            w.log.unwrap()
        };
        let room = cfg(20, LaneReuse::Tail);
        assert!(room.warnings().is_empty(), "{name}: {:?}", room.warnings());
        let tail = log(&room, true);
        assert!(
            tail == log(&room, false),
            "{name}: the same without wait lists"
        );
        assert!(
            tail != log(&cfg(20, LaneReuse::Empty), true),
            "{name}: a lane with room takes a packet behind another"
        );
        for (buf, seeds) in [(8, 20), (20, 4), (4, 4)] {
            let cfg = cfg(buf, LaneReuse::Tail);
            for seed in 0..seeds {
                for load in [0.6, 1.0] {
                    let at = format!("{name}, {buf}-flit lanes, seed {seed}, load {load}");
                    let mut net =
                        Network::with_cc(&cfg, &CcConfig::none(), EngineKind::Model, seed).unwrap();
                    let mut w = BernoulliSource::new(
                        net.nodes(),
                        Pattern::Uniform,
                        load,
                        8 * 64,
                        64,
                        seed + 100,
                    )
                    .until(3_000);
                    let r = net
                        .run(&mut w, 3_000)
                        .and_then(|_| net.run_until_idle(&mut w, 200_000));
                    assert!(matches!(r, Ok(true)), "{at}: {:?}", r.err());
                    assert_eq!(w.delivered, w.created, "{at}");
                }
            }
        }
    }
}
