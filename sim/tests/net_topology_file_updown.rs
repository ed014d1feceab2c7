//! File topologies under `shortest_updown` (issue 43: routing on any graph, deadlock-free,
//! on two lanes whatever the diameter): Duato's protocol with an up*/down* escape lane.
//! - Every adaptive candidate is on a shortest path (distances from the graph's links) and
//!   every such port is offered; the escape candidate is lane 0 of the `updown` table's
//!   port; a packet on the escape lane is offered it alone.
//! - Duato's extended channel-dependency graph of the escape lanes (direct dependencies,
//!   and indirect ones through any number of adaptive hops) is acyclic on a ring, a torus,
//!   a dragonfly and random graphs. If a packet could leave the escape lane for the
//!   adaptive ones (the routing asked as if it had not arrived on it), the graph has a
//!   cycle on some of them: the test would catch a routing that let it.
//! - It runs lossless under the checker at a saturating load on two and three lanes, the
//!   same deliveries at one and two threads, and with ACKs in a class of their own; on a ring of 40 routers (diameter 20, above
//!   the most lanes) where the lane-per-hop routings are refused.
//! - Fewer than two lanes (or than two a class with `ack_vcs`) are refused, naming `vcs`.
//! - Under `lane_reuse = "tail"` a lane takes the next packet only when the lane behind
//!   it is empty or has room for all of it: without that, saturated runs deadlock.
//! - Its lane counters add up.

use pft_sim::net::lanes::updown_candidates;
use pft_sim::net::{NetConfig, NodeId, Peer, Routing, Topology, TopologyConfig};
use std::collections::{HashMap, HashSet};

mod anynet_util;
mod cdg;
use anynet_util::{distances, file_cfg, graph, lane_net, ring, run, shortest_ports, test_graphs};
use cdg::acyclic;

/// An escape lane: `(switch, out_port)` (its lane is 0).
type Chan = (u32, u32);

fn net(topology: TopologyConfig, vcs: u32) -> NetConfig {
    lane_net(topology, Routing::ShortestUpdown, vcs)
}

/// Duato's extended channel-dependency graph of the escape lanes, checking every
/// candidate on the way: from every escape lane (s, p) towards every NIC, an edge to each
/// escape lane the packet may request at a router it reaches next, directly or after any
/// number of adaptive hops. With `sticky` the routing is told that a packet on the escape
/// lane arrived on one; without, it is asked as if it had not.
fn extended_escape_cdg(
    t: &Topology,
    dist: &[Vec<u32>],
    nic_router: &[u32],
    vcs: u32,
    sticky: bool,
) -> HashMap<Chan, Vec<Chan>> {
    let sw = t.switches();
    let mut g: HashMap<Chan, Vec<Chan>> = HashMap::new();
    let mut cand = Vec::new();
    let next_of = |s: u32, p: u32| match sw[s as usize].ports[p as usize] {
        Peer::Switch { switch, .. } => Some(switch),
        _ => None,
    };
    for d in 0..t.nodes() {
        let rd = nic_router[d as usize] as usize;
        for s in 0..sw.len() as u32 {
            let table = t.route(s, NodeId(d));
            updown_candidates(t, s, table, NodeId(d), false, vcs, &mut cand);
            let escape = *cand.last().expect("the escape is always offered");
            assert_eq!(
                (escape.0, escape.1, escape.2, escape.3),
                (table, 0, 1, false)
            );
            let mut offered = 0;
            for &(p, lo, hi, adaptive) in &cand[..cand.len() - 1] {
                let m = next_of(s, p).expect("adaptive lanes lead to routers");
                assert!(adaptive && (lo, hi) == (1, vcs), "lanes {lo}..{hi}");
                assert_eq!(
                    dist[m as usize][rd] + 1,
                    dist[s as usize][rd],
                    "switch {s} port {p} towards NIC {d} is not on a shortest path"
                );
                offered += 1;
            }
            let on_shortest = shortest_ports(t, dist, s, rd);
            assert_eq!(offered, on_shortest, "switch {s} towards NIC {d}");
            // on the escape lane: the escape alone
            updown_candidates(t, s, table, NodeId(d), true, vcs, &mut cand);
            assert_eq!(cand, vec![(table, 0, 1, false)]);
            let Some(first) = next_of(s, table) else {
                continue; // ejection
            };
            let from = (s, table);
            g.entry(from).or_default();
            let mut seen = HashSet::new();
            let mut todo = vec![(first, sticky)];
            let mut next = Vec::new();
            while let Some((x, escaped)) = todo.pop() {
                if !seen.insert((x, escaped)) {
                    continue;
                }
                let tx = t.route(x, NodeId(d));
                updown_candidates(t, x, tx, NodeId(d), escaped, vcs, &mut cand);
                for &(q, _, _, adaptive) in &cand {
                    match next_of(x, q) {
                        Some(m) if adaptive => todo.push((m, false)),
                        Some(_) => next.push((x, q)),
                        None => {}
                    }
                }
            }
            for b in next {
                g.entry(b).or_default();
                let e = g.get_mut(&from).expect("added above");
                if !e.contains(&b) {
                    e.push(b);
                }
            }
        }
    }
    g
}

#[test]
fn the_escape_lanes_extended_dependencies_are_acyclic_only_if_the_escape_is_kept() {
    let mut cyclic_if_left = 0;
    for (name, text) in test_graphs() {
        let g = graph(&text);
        let dist = distances(&g);
        let cfg = net(file_cfg(&text, &format!("cdg-{name}")), 3);
        cfg.validate().unwrap_or_else(|e| panic!("{name}: {e}"));
        let t = Topology::for_net(&cfg);
        let kept = extended_escape_cdg(&t, &dist, &g.nic_router, 3, true);
        assert!(kept.len() > 2, "{name}: {} escape lanes", kept.len());
        assert!(acyclic(&kept), "{name}");
        if !acyclic(&extended_escape_cdg(&t, &dist, &g.nic_router, 3, false)) {
            cyclic_if_left += 1;
        }
    }
    assert!(
        cyclic_if_left > 0,
        "leaving the escape lane closes a cycle on some graph"
    );
}

#[test]
fn it_runs_lossless_on_two_lanes_at_any_thread_count() {
    for (name, text) in test_graphs() {
        for vcs in [2, 3] {
            let mut cfg = net(file_cfg(&text, &format!("run-{name}")), vcs);
            let one = run(&cfg, 0.9, 3_000);
            cfg.threads = 2;
            assert_eq!(
                one,
                run(&cfg, 0.9, 3_000),
                "{name}, {vcs} lanes: the same at two threads"
            );
        }
        // ACKs in a class of two lanes of their own (its own escape lane)
        let cfg = NetConfig {
            ack_vcs: Some(2),
            ack_bytes: Some(8),
            ..net(file_cfg(&text, &format!("acks-{name}")), 4)
        };
        run(&cfg, 0.9, 3_000);
    }
}

#[test]
fn a_diameter_above_the_most_lanes_runs_on_two() {
    let file = file_cfg(&ring(40), "ring40");
    for routing in [
        Routing::Shortest,
        Routing::ShortestRising,
        Routing::ShortestAdaptive,
    ] {
        let e = NetConfig {
            routing: Some(routing),
            ..net(file.clone(), 16)
        }
        .validate()
        .unwrap_err()
        .to_string();
        assert!(e.contains("vcs >= 20") && e.contains("route it by"), "{e}");
    }
    // (a light load: up*/down* alone saturates a long ring near 0.02, and far past that
    // a lane may starve longer than the deadlock limit, under `updown` too)
    run(&net(file, 2), 0.05, 3_000);
}

#[test]
fn fewer_than_two_lanes_a_class_are_refused() {
    let text = ring(6);
    let file = file_cfg(&text, "refused");
    for cfg in [
        net(file.clone(), 1),
        NetConfig {
            vcs: None,
            vc_buf_flits: None,
            ..net(file.clone(), 2)
        },
    ] {
        let e = cfg.validate().unwrap_err().to_string();
        assert!(
            e.contains("vcs") && e.contains(">= 2") && e.contains("shortest_updown"),
            "{e}"
        );
    }
    let acks = |vcs, ack_vcs| NetConfig {
        ack_vcs: Some(ack_vcs),
        ack_bytes: Some(8),
        ..net(file.clone(), vcs)
    };
    let e = acks(3, 1).validate().unwrap_err().to_string();
    assert!(e.contains("must be at least 4 with `ack_vcs`"), "{e}");
    let e = acks(5, 1).validate().unwrap_err().to_string();
    assert!(
        e.contains("`ack_vcs`") && e.contains("must be in 2..=3"),
        "{e}"
    );
    acks(4, 2).validate().unwrap();
    // not a file
    let e = NetConfig {
        topology: TopologyConfig::Torus { k: 4, n: 2 },
        ..net(file, 2)
    }
    .validate()
    .unwrap_err()
    .to_string();
    assert!(
        e.contains("`shortest_updown` routes file topologies"),
        "{e}"
    );
}

/// The lane counters (`cc_counters`): flits sent router to router on the escape lane and on
/// the adaptive ones add up to the minimal hops of every delivered flit when no flit took
/// the escape lane, and to more when some did (up*/down* paths may be longer); under a
/// saturating load both kinds carry flits.
#[test]
fn escape_and_adaptive_hops_add_up() {
    use pft_sim::net::{BernoulliSource, Pattern};
    use pft_sim::{CcConfig, EngineKind, Network};
    let mut escaped_somewhere = false;
    for (name, text) in test_graphs() {
        let g = graph(&text);
        let dist = distances(&g);
        for load in [0.02, 0.9] {
            let cfg = net(file_cfg(&text, &format!("hops-{name}")), 3);
            let mut net = Network::with_cc(&cfg, &CcConfig::none(), EngineKind::Model, 5).unwrap();
            let nodes = net.nodes();
            let mut w = BernoulliSource::new(nodes, Pattern::Uniform, load, 8 * 64, 64, 9)
                .logged()
                .until(3_000);
            net.run(&mut w, 3_000).unwrap();
            assert!(net.run_until_idle(&mut w, 200_000).unwrap(), "drains");
            let minimal: u64 = (w.log.as_ref().unwrap().iter())
                .map(|d| {
                    let (a, b) = (
                        g.nic_router[d.msg.src.index()],
                        g.nic_router[d.msg.dst.index()],
                    );
                    u64::from(dist[a as usize][b as usize]) * u64::from(d.msg.bytes.div_ceil(64))
                })
                .sum();
            let c = net.lane_counters();
            assert_eq!(
                (c[0].0, c[1].0, c.len()),
                ("escape_hop_flits", "adaptive_hop_flits", 2),
                "{c:?}"
            );
            let (escape, adaptive) = (c[0].1, c[1].1);
            assert!(adaptive > 0, "{name} at {load}: {c:?}");
            if escape == 0 {
                assert_eq!(adaptive, minimal, "{name} at {load}");
            } else {
                assert!(
                    escape + adaptive >= minimal,
                    "{name} at {load}: {c:?} {minimal}"
                );
                escaped_somewhere |= load > 0.5;
            }
        }
    }
    assert!(
        escaped_somewhere,
        "a saturated graph sends flits on the escape lane"
    );
}

/// Under `lane_reuse = "tail"` a lane takes the next packet once the last tail left only
/// when the lane behind it is empty or has room for all of it (`Router::whole_at_tail`): a
/// head granted an adaptive lane without room would wait on it alone, and such heads can
/// close a cycle. Saturated runs of the dragonfly, the torus and a random graph under
/// several seeds drain losslessly, the same with the lane wait lists off; with every lane
/// reused at the tail whatever the room (`whole_at_tail` false, run by hand) the dragonfly
/// deadlocks at seed 1.
#[test]
fn with_tail_reuse_a_lane_needs_room_for_the_packet() {
    use pft_sim::net::{BernoulliSource, LaneReuse, Pattern};
    use pft_sim::{CcConfig, EngineKind, Network};
    let graphs = test_graphs();
    for (name, text) in graphs
        .iter()
        .filter(|(n, _)| ["torus", "dragonfly", "random1"].contains(n))
    {
        let mut first = Vec::new();
        for (seed, wait_lists) in (1..=8u64).map(|s| (s, true)).chain([(1, false)]) {
            let cfg = NetConfig {
                lane_reuse: Some(LaneReuse::Tail),
                ..net(file_cfg(text, &format!("tail-{name}")), 2)
            };
            let mut net =
                Network::with_cc(&cfg, &CcConfig::none(), EngineKind::Model, seed).unwrap();
            net.set_lane_wait_lists(wait_lists);
            let nodes = net.nodes();
            let mut w = BernoulliSource::new(nodes, Pattern::Uniform, 1.0, 8 * 64, 64, seed)
                .logged()
                .until(2_000);
            net.run(&mut w, 2_000)
                .unwrap_or_else(|e| panic!("{name}, seed {seed}: {e}"));
            assert!(
                net.run_until_idle(&mut w, 200_000)
                    .unwrap_or_else(|e| panic!("{name}, seed {seed}: {e}")),
                "{name}, seed {seed}: drains"
            );
            assert_eq!(w.created, w.delivered, "{name}, seed {seed}: lossless");
            // heads that wait for a lane (woken by a credit of a lane that needs room for
            // the whole packet) deliver as if they asked every cycle
            let log = w.log.unwrap();
            if seed == 1 && wait_lists {
                first = log;
            } else if seed == 1 {
                assert_eq!(log, first, "{name}: the same without wait lists");
            }
        }
    }
}
