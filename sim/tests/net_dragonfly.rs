//! Dragonflies (issue 39): the wiring against BookSim's `dragonflynew`, minimal paths, the
//! per-link latencies, each routing's channel-dependency graph over lanes (acyclic, and
//! cyclic for mutants of the lane rule, among them BookSim's own ugal lanes), runs that are
//! lossless, drain, and do not depend on the evaluation order, the traffic patterns, and
//! bad configurations refused with the key and the range.

#![allow(clippy::result_large_err)]

mod one_message;
use one_message::One;
use pft_sim::net::dragonfly_route::{after, hop, lane, INTM};
use pft_sim::net::topology::DragonflyShape as Shape;
use pft_sim::net::{
    BernoulliSource, Delivery, EvalOrder, LaneReuse, NetConfig, NetError, Pattern, Peer, Routing,
    Topology, TopologyConfig, Workload,
};
use pft_sim::{CcConfig, EngineKind, Network};
use std::collections::HashMap;

mod cdg;
use cdg::acyclic;

fn df(p: u32, a: u32, h: u32, g: Option<u32>) -> TopologyConfig {
    TopologyConfig::Dragonfly { p, a, h, g }
}

/// BookSim's `dragonfly_port` (src/networks/dragonfly.cpp), transliterated: gP = p = h,
/// gA = a = 2p.
fn booksim_port(p: i32, a: i32, r_id: i32, dest: i32) -> i32 {
    let grp_num_nodes = a * p;
    let grp_id = r_id / a;
    let dest_grp_id = dest / grp_num_nodes;
    let mut grp_output = -1;
    let grp_rid;
    if dest_grp_id == grp_id {
        grp_rid = dest / p;
    } else {
        grp_output = if grp_id > dest_grp_id {
            dest_grp_id
        } else {
            dest_grp_id - 1
        };
        grp_rid = grp_output / p + grp_id * a;
    }
    if dest >= r_id * p && dest < (r_id + 1) * p {
        dest % p
    } else if grp_rid == r_id {
        p + (a - 1) + grp_output % p
    } else if r_id < grp_rid {
        (grp_rid % a) - 1 + p
    } else {
        (grp_rid % a) + p
    }
}

#[test]
fn wiring_and_minimal_routes_are_booksims_dragonflynew() {
    // k = 4: p = h = 4, a = 8, g = 33; and k = 2: p = h = 2, a = 4, g = 9
    for k in [2u32, 4] {
        let cfg = df(k, 2 * k, k, None);
        cfg.validate().unwrap();
        let t = Topology::build(&cfg);
        let s = cfg.dragonfly().unwrap();
        assert_eq!(s.g, 2 * k * k + 1);
        assert_eq!(t.nodes(), 2 * k * k * (2 * k * k + 1));
        assert_eq!(t.switches().len() as u32, s.g * s.a);
        for r in 0..t.switches().len() as u32 {
            for d in 0..t.nodes() {
                let want = booksim_port(k as i32, 2 * k as i32, r as i32, d as i32) as u32;
                assert_eq!(
                    t.route(r, pft_sim::net::NodeId(d)),
                    want,
                    "router {r} to {d}"
                );
            }
        }
    }
    assert_eq!(
        Topology::build(&df(4, 8, 4, None)).nodes(),
        1056,
        "BookSim's k = 4"
    );
}

#[test]
fn links_pair_up_and_every_two_groups_share_one_global_link() {
    for (p, a, h, g) in [
        (2, 4, 2, None),
        (1, 3, 2, Some(5)),
        (3, 2, 3, Some(4)),
        (2, 1, 3, None),
    ] {
        let cfg = df(p, a, h, g);
        cfg.validate().unwrap();
        let t = Topology::build(&cfg);
        let s = cfg.dragonfly().unwrap();
        let mut shared: HashMap<(u32, u32), u32> = HashMap::new();
        for (r, sw) in t.switches().iter().enumerate() {
            assert_eq!(sw.radix, p + a - 1 + h);
            for (port, peer) in sw.ports.iter().enumerate() {
                match *peer {
                    Peer::Switch { switch, port: back } => {
                        // bidirectional: the far end leads back here
                        assert_eq!(
                            t.switches()[switch as usize].ports[back as usize],
                            Peer::Switch {
                                switch: r as u32,
                                port: port as u32
                            }
                        );
                        let (g0, g1) = (r as u32 / a, switch / a);
                        if s.is_global(port as u32) {
                            assert_ne!(g0, g1, "a global link leaves its group");
                            *shared.entry((g0, g1)).or_default() += 1;
                        } else {
                            assert_eq!(g0, g1, "a local link stays in its group");
                        }
                    }
                    Peer::Unused => assert!(s.is_global(port as u32)),
                    Peer::Nic(n) => assert_eq!(n.0, r as u32 * p + port as u32),
                }
            }
        }
        // every ordered pair of distinct groups: exactly one link
        assert_eq!(shared.len() as u32, s.g * (s.g - 1), "{cfg:?}");
        assert!(shared.values().all(|&c| c == 1), "{cfg:?}");
    }
}

#[test]
fn minimal_paths_are_at_most_local_global_local() {
    let cfg = df(2, 4, 2, None);
    let t = Topology::build(&cfg);
    let s = cfg.dragonfly().unwrap();
    for src in 0..t.nodes() {
        for dst in 0..t.nodes() {
            let path = t
                .path(pft_sim::net::NodeId(src), pft_sim::net::NodeId(dst))
                .unwrap();
            let kinds: String = path[..path.len() - 1]
                .iter()
                .map(|h| if s.is_global(h.out_port) { 'G' } else { 'L' })
                .collect();
            let (sg, dg) = (s.node_group(src), s.node_group(dst));
            let ok = if src / 2 == dst / 2 {
                kinds.is_empty()
            } else if sg == dg {
                kinds == "L"
            } else {
                ["G", "LG", "GL", "LGL"].contains(&kinds.as_str())
            };
            assert!(ok, "{src} to {dst}: {kinds}");
        }
    }
}

/// A (router, port, lane) channel.
type Channel = (u32, u32, u32);
/// A channel-dependency graph: each channel and the channels a packet may wait for next.
type Cdg = HashMap<Channel, Vec<Channel>>;

/// Every path (as (router, port, lane) channels) of `routing` from every router to every
/// NIC, over every choice a packet can make (intermediate group; under `par` the second
/// router's), with the lane of a hop given by `lane_of(routing, g_after, moved)`; the
/// channel-dependency graph of consecutive switch-to-switch channels.
fn cdg(s: &Shape, routing: Routing, lane_of: &dyn Fn(Routing, u32, bool) -> u32) -> Cdg {
    let mut g: Cdg = HashMap::new();
    let nodes = s.g * s.a * s.p;
    let topo = Topology::build(&TopologyConfig::Dragonfly {
        p: s.p,
        a: s.a,
        h: s.h,
        g: Some(s.g),
    });
    // a path from router r in state st; `divert`: under par, the intermediate group the
    // second router may pick (0: none)
    let walk = |g: &mut HashMap<_, Vec<_>>, r0: u32, dst: u32, st0: u32, divert: u32| {
        let (mut r, mut st) = (r0, st0);
        let mut prev: Option<(u32, u32, u32)> = None;
        for _ in 0..8 {
            if routing == Routing::Par
                && divert != 0
                && st & INTM == 0
                && (st >> 18) & 3 == 0
                && st & (1 << 20) != 0
            {
                st |= divert;
            }
            let (port, _) = hop(s, routing, r, dst, st);
            if s.is_nic(port) {
                return;
            }
            let gl = (st >> 18) & 3;
            let c = lane_of(routing, gl + s.is_global(port) as u32, st & (1 << 20) != 0);
            let ch = (r, port, c);
            g.entry(ch).or_default();
            if let Some(p) = prev {
                let outs = g.get_mut(&p).unwrap();
                if !outs.contains(&ch) {
                    outs.push(ch);
                }
            }
            prev = Some(ch);
            st = after(s, st, port);
            match topo.switches()[r as usize].ports[port as usize] {
                Peer::Switch { switch, .. } => r = switch,
                _ => panic!("a path into an unused port"),
            }
        }
        panic!("a path longer than 8 hops");
    };
    for r in 0..s.g * s.a {
        for dst in 0..nodes {
            let intms: Vec<u32> = if routing == Routing::Min {
                vec![0]
            } else {
                (0..=s.g).collect() // 0: minimal, else group + 1
            };
            for &i in &intms {
                let st = 1 << 16 | i; // decided at the source
                walk(&mut g, r, dst, st, 0);
                if routing == Routing::Par && i == 0 {
                    for d in 1..=s.g {
                        walk(&mut g, r, dst, st, d);
                    }
                }
            }
        }
    }
    g
}

#[test]
fn every_routing_has_an_acyclic_channel_dependency_graph_and_lane_mutants_do_not() {
    for s in [
        Shape {
            p: 1,
            a: 4,
            h: 2,
            g: 9,
        },
        Shape {
            p: 1,
            a: 3,
            h: 1,
            g: 4,
        },
        Shape {
            p: 2,
            a: 4,
            h: 2,
            g: 6,
        },
    ] {
        for routing in [Routing::Min, Routing::Valiant, Routing::Ugal, Routing::Par] {
            let graph = cdg(&s, routing, &lane);
            assert!(acyclic(&graph), "{routing:?} on {s:?}");
            let most = graph.keys().map(|k| k.2).max().unwrap();
            assert_eq!(
                most + 1,
                routing.dragonfly_lanes(),
                "{routing:?} uses its lanes"
            );
        }
        // mutant: every hop on lane 0 (one class of lanes): cyclic for every routing
        for routing in [Routing::Min, Routing::Valiant, Routing::Par] {
            assert!(
                !acyclic(&cdg(&s, routing, &|_, _, _| 0)),
                "one lane, {routing:?} on {s:?}"
            );
        }
        // mutant: valiant on min's two lanes (lane 1 from the first global hop on)
        assert!(
            !acyclic(&cdg(&s, Routing::Valiant, &|_, g, _| g.min(1))),
            "valiant on two lanes {s:?}"
        );
        // mutant: par on valiant's lanes (no extra lane after the first hop): a diverted
        // packet's two local hops in its source group share a lane
        assert!(
            !acyclic(&cdg(&s, Routing::Par, &|_, g, _| g)),
            "par on valiant's lanes {s:?}"
        );
    }
}

/// BookSim's ugal lanes with a node intermediate: lane 0 to the intermediate router (its
/// group's local hop included), lane 1 from it to the last global hop, lane 2 after it.
/// The local hops in the intermediate group on lane 0 close a cycle with the first local
/// hops of packets that start there: this is why our ugal goes through the intermediate's
/// group, not its router (docs/network.md, "Dragonflies").
#[test]
fn booksims_ugal_lanes_with_an_intermediate_router_are_cyclic() {
    let s = Shape {
        p: 1,
        a: 4,
        h: 2,
        g: 9,
    };
    let topo = Topology::build(&TopologyConfig::Dragonfly {
        p: 1,
        a: 4,
        h: 2,
        g: Some(9),
    });
    let nodes = s.g * s.a * s.p;
    let mut g: Cdg = HashMap::new();
    for src in 0..nodes {
        for dst in 0..nodes {
            for intm in 0..nodes {
                let (sr, ir) = (src / s.p, intm / s.p);
                if s.group(sr) == s.group(ir) || s.node_group(dst) == s.group(sr) {
                    continue;
                }
                let (mut r, mut ph) = (sr, 0u32);
                let mut prev: Option<(u32, u32, u32)> = None;
                loop {
                    if ph == 0 && r == ir {
                        ph = 1;
                    }
                    let port = if ph == 0 {
                        s.min_port(r, intm)
                    } else {
                        s.min_port(r, dst)
                    };
                    if s.is_nic(port) {
                        break;
                    }
                    if ph == 1 && s.is_global(port) {
                        ph = 2;
                    }
                    let ch = (r, port, ph);
                    g.entry(ch).or_default();
                    if let Some(p) = prev {
                        g.get_mut(&p).unwrap().push(ch);
                    }
                    prev = Some(ch);
                    if let Peer::Switch { switch, .. } =
                        topo.switches()[r as usize].ports[port as usize]
                    {
                        r = switch;
                    }
                }
            }
        }
    }
    assert!(!acyclic(&g), "BookSim's ugal lanes close a cycle on lane 0");
}

fn cfg(routing: Routing, vcs: u32, reuse: Option<LaneReuse>) -> NetConfig {
    NetConfig {
        topology: df(2, 4, 2, None),
        vcs: Some(vcs),
        vc_buf_flits: Some(8),
        routing: Some(routing),
        lane_reuse: reuse,
        buffer_flits: 64,
        eject_buffer_flits: 64,
        mtu_bytes: 4 * 64,
        link_latency_cycles: 1,
        credit_latency_cycles: 1,
        local_latency_cycles: Some(3),
        global_latency_cycles: Some(12),
        switch_latency_cycles: 1,
        check: true,
        deadlock_cycles: 5_000,
        ..NetConfig::default()
    }
}

fn run(
    cfg: &NetConfig,
    order: EvalOrder,
    pattern: Pattern,
    load: f64,
) -> Result<Vec<Delivery>, NetError> {
    let mut net = Network::with_cc(cfg, &CcConfig::none(), EngineKind::Model, 5)?;
    net.set_eval_order(order);
    let mut w = BernoulliSource::new(net.nodes(), pattern, load, 4 * 64, 64, 9)
        .logged()
        .until(3_000);
    net.run(&mut w, 3_000)?;
    assert!(net.run_until_idle(&mut w, 400_000)?, "drains");
    assert_eq!(w.created, w.delivered, "lossless");
    assert!(w.delivered > 500, "{} delivered", w.delivered);
    Ok(w.log.unwrap())
}

#[test]
fn every_routing_is_lossless_drains_and_does_not_depend_on_the_evaluation_order() {
    for (routing, vcs) in [
        (Routing::Min, 2),
        (Routing::Valiant, 3),
        (Routing::Ugal, 3),
        (Routing::Par, 4),
    ] {
        for reuse in [Some(LaneReuse::Empty), Some(LaneReuse::Tail)] {
            // every pattern with one packet per lane, uniform with lane reuse (the lane rule
            // is the same; the tail-reuse path is what differs)
            let patterns: &[Pattern] = if reuse.is_none() {
                &[
                    Pattern::Uniform,
                    Pattern::GroupShift { group: 8 },
                    Pattern::Permutation { seed: 3 },
                ]
            } else {
                &[Pattern::Uniform]
            };
            for &pattern in patterns {
                let c = cfg(routing, vcs, reuse);
                // full offered load: no deadlock where the lane rule is deadlock-free
                let fwd = run(&c, EvalOrder::Forward, pattern, 1.0).unwrap();
                let shuf = run(&c, EvalOrder::Shuffled(7), pattern, 1.0).unwrap();
                assert_eq!(fwd, shuf, "{routing:?} {reuse:?} {pattern:?}");
                if pattern == Pattern::Uniform {
                    let rev = run(&c, EvalOrder::Reverse, pattern, 1.0).unwrap();
                    assert_eq!(fwd, rev, "{routing:?} {reuse:?} {pattern:?}");
                }
            }
        }
    }
}

#[test]
fn ib_cc_and_dcqcn_mark_on_lanes_and_count_every_flit_for_its_port() {
    // The checker compares each marking scheme's per-port queue count with the flits the
    // buffers hold for that port, every cycle; under ugal and par the port is chosen at lane
    // allocation, so the count moves there. group_shift at full load congests the global
    // links, so both schemes mark; no flit is lost, the network drains, and the evaluation
    // order does not matter.
    for (routing, vcs) in [(Routing::Min, 2), (Routing::Ugal, 3), (Routing::Par, 4)] {
        for kind in ["ibcc", "dcqcn"] {
            let c = NetConfig {
                ugal_threshold_flits: (routing != Routing::Min).then_some(0),
                ..cfg(routing, vcs, Some(LaneReuse::Tail))
            };
            let cc = CcConfig::default_of(kind).unwrap();
            let go = |order: EvalOrder| {
                let mut net = Network::with_cc(&c, &cc, EngineKind::Model, 5).unwrap();
                net.set_eval_order(order);
                let pattern = Pattern::GroupShift { group: 8 };
                let mut w = BernoulliSource::new(net.nodes(), pattern, 1.0, 4 * 64, 64, 9)
                    .logged()
                    .until(3_000);
                net.run(&mut w, 3_000).unwrap();
                assert!(net.run_until_idle(&mut w, 400_000).unwrap(), "drains");
                assert_eq!(w.created, w.delivered, "lossless");
                let marks = net.counter_map();
                (w.log.unwrap(), marks)
            };
            let (fwd, marks) = go(EvalOrder::Forward);
            let key = if kind == "ibcc" {
                "fecn_marked"
            } else {
                "ecn_marked"
            };
            let n = marks.get(key).copied().unwrap_or(0);
            assert!(n > 0, "{kind} {routing:?}: no marks ({marks:?})");
            let (shuf, _) = go(EvalOrder::Shuffled(7));
            assert_eq!(fwd, shuf, "{kind} {routing:?}");
        }
    }
    // MVCM and Renato mark at switch inputs: refused with lanes, naming `network.vcs`
    for kind in ["mvcm", "renato"] {
        let cc = CcConfig::example_of(kind).unwrap();
        let errs = cc.network_errors(&cfg(Routing::Min, 2, None), "cc");
        assert!(
            errs.iter().any(|e| e.field == "network.vcs"
                && e.to_string().contains("marks packets at switch inputs")),
            "{kind}: {errs:?}"
        );
    }
}

#[test]
fn a_stall_on_a_dragonfly_is_reported_not_a_panic() {
    // group_shift at full load holds lanes behind the one global link far longer than a
    // watchdog of 40 cycles: the report names the lanes (it asked the torus routings for a
    // dragonfly head's candidates, an unreachable arm, and panicked)
    for routing in [Routing::Min, Routing::Ugal] {
        let c = NetConfig {
            deadlock_cycles: 40,
            check: false,
            ..cfg(
                routing,
                if routing == Routing::Min { 2 } else { 3 },
                Some(LaneReuse::Empty),
            )
        };
        let mut net = Network::with_cc(&c, &CcConfig::none(), EngineKind::Model, 5).unwrap();
        let pattern = Pattern::GroupShift { group: 8 };
        let mut w = BernoulliSource::new(net.nodes(), pattern, 1.0, 4 * 64, 64, 9);
        let e = net.run(&mut w, 50_000).expect_err("the watchdog fires");
        let text = e.to_string();
        assert!(
            text.contains("deadlock") && text.contains("lane"),
            "{routing:?}: {text}"
        );
    }
}

#[test]
fn adaptive_routings_beat_minimal_under_group_shift() {
    // group_shift on minimal routing pours a group's traffic into one global link; valiant,
    // ugal and par spread it (accepted flits over the same window)
    // (lanes of 8 flits: a port's used credits stay below BookSim's threshold of 30, so
    // ugal and par would never leave the minimal path; threshold 0 here)
    let accepted = |routing: Routing, vcs: u32| {
        let c = NetConfig {
            check: false,
            ugal_threshold_flits: (routing != Routing::Min && routing != Routing::Valiant)
                .then_some(0),
            ..cfg(routing, vcs, Some(LaneReuse::Tail))
        };
        let mut net = Network::with_cc(&c, &CcConfig::none(), EngineKind::Model, 5).unwrap();
        let mut w = BernoulliSource::new(
            net.nodes(),
            Pattern::GroupShift { group: 8 },
            0.5,
            256,
            64,
            9,
        );
        net.run(&mut w, 20_000).unwrap();
        w.delivered
    };
    let min = accepted(Routing::Min, 2);
    for (r, v) in [(Routing::Valiant, 3), (Routing::Ugal, 3), (Routing::Par, 4)] {
        let a = accepted(r, v);
        assert!(a as f64 > 2.0 * min as f64, "{r:?}: {a} vs min {min}");
    }
}

#[test]
fn ugal_warns_when_one_packet_a_lane_keeps_it_minimal() {
    // under lane_reuse = "empty" a lane holds one packet, so a port's used credits stay at
    // most vcs x packet flits: 3 lanes of 64 flits and 4-flit packets (12 <= T = 30) keep
    // ugal on the minimal path, and check/net-bench must say so; under "tail" the lanes
    // fill past T, ugal leaves the minimal path and there is nothing to warn about
    let run = |routing, reuse| {
        let c = NetConfig {
            check: false,
            vc_buf_flits: Some(64),
            ..cfg(routing, 3, reuse)
        };
        let warned = c.warnings().iter().any(|w| w.contains("4-flit packets"));
        let mut net = Network::with_cc(&c, &CcConfig::none(), EngineKind::Model, 5).unwrap();
        let pattern = Pattern::GroupShift { group: 8 };
        let mut w = BernoulliSource::new(net.nodes(), pattern, 0.5, 4 * 64, 64, 9);
        net.run(&mut w, 10_000).unwrap();
        (warned, w.delivered)
    };
    let (_, min) = run(Routing::Min, Some(LaneReuse::Empty));
    let (warned, ugal) = run(Routing::Ugal, Some(LaneReuse::Empty));
    assert!(
        warned,
        "ugal under lane_reuse = \"empty\" with 4-flit packets warns"
    );
    assert_eq!(ugal, min, "and routes as min");
    let (warned, ugal) = run(Routing::Ugal, Some(LaneReuse::Tail));
    assert!(!warned);
    assert!(ugal as f64 > 1.5 * min as f64, "tail: {ugal} vs min {min}");
}

#[test]
fn a_dragonfly_reuses_lanes_at_the_tail_by_default() {
    // BookSim's dragonfly runs wait_for_tail_credit = 0; the BookSim command
    // names no lane reuse. Elsewhere the default stays one packet a lane.
    let c = NetConfig {
        check: false,
        ..cfg(Routing::Min, 2, None)
    };
    assert_eq!(c.lane_reuse(), LaneReuse::Tail);
    let torus = NetConfig {
        topology: TopologyConfig::Torus { k: 4, n: 2 },
        ..NetConfig::default()
    };
    assert_eq!(torus.lane_reuse(), LaneReuse::Empty);
    let delivered = |reuse| {
        let c = NetConfig {
            lane_reuse: reuse,
            ..c.clone()
        };
        let mut net = Network::with_cc(&c, &CcConfig::none(), EngineKind::Model, 5).unwrap();
        let mut w = BernoulliSource::new(net.nodes(), Pattern::Uniform, 0.8, 256, 64, 9);
        net.run(&mut w, 5_000).unwrap();
        w.delivered
    };
    let (default, tail, empty) = (
        delivered(None),
        delivered(Some(LaneReuse::Tail)),
        delivered(Some(LaneReuse::Empty)),
    );
    assert_eq!(default, tail);
    assert_ne!(default, empty);
}

#[test]
fn local_and_global_latencies_apply_to_their_links_and_the_nic_links_keep_theirs() {
    // NIC 0 alone to NICs in its router, its group and another group; each local hop adds
    // its latency, each global hop its own
    let latency = |dst: u32, local: u32, global: u32, link: u32| {
        let c = NetConfig {
            local_latency_cycles: Some(local),
            global_latency_cycles: Some(global),
            link_latency_cycles: link,
            credit_latency_cycles: link,
            // one packet of 16 flits in lanes that never run out of credits: latencies add
            mtu_bytes: 16 * 64,
            vc_buf_flits: Some(64),
            ..cfg(Routing::Min, 2, None)
        };
        let mut net = Network::with_cc(&c, &CcConfig::none(), EngineKind::Model, 1).unwrap();
        let mut w = One::new(0, dst);
        net.run(&mut w, 1).unwrap();
        assert!(net.run_until_idle(&mut w, 10_000).unwrap());
        w.latency.expect("delivered") as i64
    };
    let s = df(2, 4, 2, None).dragonfly().unwrap();
    let t = Topology::build(&df(2, 4, 2, None));
    for dst in 1..t.nodes() {
        let path = t
            .path(pft_sim::net::NodeId(0), pft_sim::net::NodeId(dst))
            .unwrap();
        let hops = &path[..path.len() - 1];
        let locals = hops.iter().filter(|h| !s.is_global(h.out_port)).count() as i64;
        let globals = hops.len() as i64 - locals;
        let base = latency(dst, 3, 12, 1);
        assert_eq!(latency(dst, 3 + 5, 12, 1) - base, 5 * locals, "to {dst}");
        assert_eq!(latency(dst, 3, 12 + 40, 1) - base, 40 * globals, "to {dst}");
        // NIC links: injection and ejection
        assert_eq!(latency(dst, 3, 12, 1 + 2) - base, 2 * 2, "to {dst}");
    }
}

#[test]
fn group_shift_and_permutation_send_where_they_say() {
    let nodes = 72;
    let mut w = BernoulliSource::new(nodes, Pattern::GroupShift { group: 8 }, 1.0, 64, 64, 1);
    let mut out = Vec::new();
    for t in 0..200 {
        w.tick(t, &mut out);
    }
    let mut hit = vec![0u32; nodes as usize];
    for m in &out {
        assert_eq!(m.dst.0 / 8, (m.src.0 / 8 + 1) % 9, "{m:?}");
        hit[m.dst.index()] += 1;
    }
    assert!(
        hit.iter().all(|&c| c > 100),
        "every NIC of the next group is drawn"
    );
    let table = Pattern::permutation(3, nodes);
    let mut seen = table.clone();
    seen.sort();
    assert_eq!(seen, (0..nodes).collect::<Vec<_>>(), "a permutation");
    assert_ne!(table, Pattern::permutation(4, nodes), "the seed matters");
    let mut w = BernoulliSource::new(nodes, Pattern::Permutation { seed: 3 }, 1.0, 64, 64, 1);
    out.clear();
    w.tick(0, &mut out);
    for m in &out {
        assert_eq!(m.dst.0, table[m.src.index()]);
    }
    assert!(Pattern::GroupShift { group: 8 }.check(72).is_ok());
    assert!(Pattern::GroupShift { group: 7 }.check(72).is_err());
    assert!(Pattern::GroupShift { group: 72 }.check(72).is_err());
}

#[test]
fn bad_dragonfly_configurations_are_refused_with_key_and_range() {
    let refused = |c: NetConfig, key: &str, range: &str| {
        let e = c.errors();
        assert!(
            e.iter()
                .any(|e| e.field == key && e.allowed.contains(range)),
            "{key} / {range}: {e:?}"
        );
    };
    let base = cfg(Routing::Min, 2, None);
    refused(
        NetConfig {
            topology: df(0, 4, 2, None),
            ..base.clone()
        },
        "topology.p",
        "1..=64",
    );
    refused(
        NetConfig {
            topology: df(2, 4, 2, Some(10)),
            ..base.clone()
        },
        "topology.g",
        "1..=9",
    );
    refused(
        NetConfig {
            topology: df(2, 40, 30, None),
            ..base.clone()
        },
        "topology.h",
        "at most 64",
    );
    // p and a fill the router: no h fits, so p is the one to lower
    refused(
        NetConfig {
            topology: df(64, 1, 1, None),
            ..base.clone()
        },
        "topology.p",
        "p <= 63",
    );
    refused(
        NetConfig {
            topology: df(16, 16, 16, None),
            ..base.clone()
        },
        "topology.h",
        "at most 32768",
    );
    refused(cfg(Routing::Ugal, 2, None), "vcs", "vcs >= 3");
    refused(cfg(Routing::Par, 3, None), "vcs", "vcs >= 4");
    refused(
        NetConfig {
            vcs: None,
            vc_buf_flits: None,
            ..base.clone()
        },
        "vcs",
        "vcs >= 2",
    );
    refused(
        cfg(Routing::Dor, 2, None),
        "routing",
        "`min`, `valiant`, `ugal` or `par`",
    );
    refused(
        NetConfig {
            topology: TopologyConfig::Torus { k: 4, n: 2 },
            local_latency_cycles: Some(3),
            global_latency_cycles: None,
            routing: None,
            ..base.clone()
        },
        "local_latency_cycles",
        "dragonflies",
    );
    refused(
        NetConfig {
            topology: TopologyConfig::Torus { k: 4, n: 2 },
            routing: Some(Routing::Ugal),
            local_latency_cycles: None,
            global_latency_cycles: None,
            ..base.clone()
        },
        "routing",
        "routes dragonflies; a torus routes by `dor`, `duato`, `disha` or `dor_no_dateline`",
    );
    refused(
        NetConfig {
            ugal_threshold_flits: Some(5),
            ..base.clone()
        },
        "ugal_threshold_flits",
        "`ugal` and `par`",
    );
    refused(
        NetConfig {
            global_latency_cycles: Some(0),
            ..base.clone()
        },
        "global_latency_cycles",
        "1..=65536",
    );
    // the ranges hold at the edges
    NetConfig {
        topology: df(2, 4, 2, Some(9)),
        ..base.clone()
    }
    .validate()
    .unwrap();
    NetConfig {
        topology: df(2, 4, 2, Some(2)),
        ..base
    }
    .validate()
    .unwrap();
}
