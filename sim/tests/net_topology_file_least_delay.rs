//! The adaptive file routings on a file with per-link latencies: `shortest_adaptive` and
//! the adaptive lanes of `shortest_updown` offer exactly the ports on a path of least
//! (delay, hops) to the destination's router, as `shortest` takes one (BookSim's
//! `min_anynet`), not the ports on a path of fewest hops.
//! - On a triangle with one slow link, a ring with one slow channel (one way only), two
//!   random graphs with a latency on every channel and the k = 4 dragonfly written with its
//!   latencies (10 inside a group, 100 between groups, as `net-bench --write-anynet
//!   --local-latency 10 --global-latency 100` writes it), every port offered is on a
//!   least-delay path by the test's own Floyd-Warshall over (cycles, hops), and every such
//!   port is offered; on each of those graphs some router has a port on a path of fewest
//!   hops that is not on one of least delay, so a routing that offers the hop-shortest
//!   ports fails here (run by hand: without `Topology::least_delay` in
//!   `lanes::rising_candidates` and `lanes::updown_candidates`, and with the old
//!   `Topology::for_net` that built the hop table of fewest hops for them).
//! - `shortest_adaptive`'s (channel, lane) dependency graph over every lane any packet may
//!   take is acyclic there, with no empty lane range, on the lanes of the longest
//!   least-delay path (`Graph::lanes_needed`, as `shortest`); fewer are refused.
//! - A ring with one latency on every channel offers the ports of fewest hops.
//! - Both run lossless under the checker with the same deliveries at one and two threads.
//! - The least-delay table above its bound is refused naming `network.routing` and the
//!   range, by `pftsim check` with exit status 1 and no panic.

use pft_sim::net::lanes::updown_candidates;
use pft_sim::net::topology::anynet::Graph;
use pft_sim::net::topology::anynet_write;
use pft_sim::net::{LaneReuse, NetConfig, NodeId, Peer, Routing, Topology, TopologyConfig};
use std::collections::{BTreeSet, HashMap, HashSet};

mod anynet_util;
mod cdg;
use anynet_util::{distances, file_cfg, graph, lane_net, random_graph, ring, run};
use cdg::{acyclic, rising_cdg, LaneChan};

/// The network's `link_latency_cycles` (`NetConfig`'s default): a channel's latency when
/// the file gives none.
const DEFAULT: u32 = 10;

/// `text` with a latency after every `router M` of its lines, from 1..=29 by the channel.
fn with_latencies(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let w: Vec<&str> = line.split_whitespace().collect();
        let r: u32 = w[1].parse().unwrap();
        let mut l = format!("{} {}", w[0], w[1]);
        for pair in w[2..].chunks(2) {
            l.push_str(&format!(" {} {}", pair[0], pair[1]));
            if pair[0] == "router" {
                let m: u32 = pair[1].parse().unwrap();
                l.push_str(&format!(" {}", 1 + (r * 7 + m * 13) % 29));
            }
        }
        out.push_str(&l);
        out.push('\n');
    }
    out
}

/// The test graphs: name, text, and whether least delay and fewest hops differ on it.
fn graphs() -> Vec<(&'static str, String, bool)> {
    let df4 = TopologyConfig::Dragonfly {
        p: 4,
        a: 8,
        h: 4,
        g: None,
    };
    let slow_ring = ring(6).replacen(
        "router 0 node 0 router 1",
        "router 0 node 0 router 1 100",
        1,
    );
    let even_ring: String = (0..6)
        .map(|r| {
            format!(
                "router {r} node {r} router {} 7 router {} 7\n",
                (r + 1) % 6,
                (r + 5) % 6
            )
        })
        .collect();
    vec![
        (
            "triangle",
            "router 0 node 0 router 1 30 router 2\nrouter 1 node 1 router 0 30 router 2\nrouter 2 node 2 router 0 router 1\n".into(),
            true,
        ),
        ("slow-ring", slow_ring, true),
        ("random1", with_latencies(&random_graph(14, 28, 8, 3)), true),
        ("random2", with_latencies(&random_graph(20, 30, 12, 4)), true),
        (
            "dragonfly4-lat",
            anynet_write::write_config(&df4, Some(10), Some(100)),
            true,
        ),
        ("even-ring", even_ring, false),
    ]
}

/// Least (cycles, hops) from every router to every router, by Floyd-Warshall on the
/// graph's own channels (not the simulator's Dijkstra).
fn least(g: &Graph) -> Vec<Vec<(u64, u32)>> {
    let n = g.routers() as usize;
    let mut d = vec![vec![(u64::MAX, u32::MAX); n]; n];
    for (r, l) in g.links.iter().enumerate() {
        d[r][r] = (0, 0);
        for &(m, lat) in l {
            d[r][m as usize] = (lat.unwrap_or(DEFAULT) as u64, 1);
        }
    }
    for k in 0..n {
        for i in 0..n {
            if d[i][k].1 == u32::MAX {
                continue;
            }
            for j in 0..n {
                if d[k][j].1 == u32::MAX {
                    continue;
                }
                let c = (d[i][k].0 + d[k][j].0, d[i][k].1 + d[k][j].1);
                if c < d[i][j] {
                    d[i][j] = c;
                }
            }
        }
    }
    d
}

/// The ports of router `s` on a path of least (cycles, hops) to router `t`, and those on a
/// path of fewest hops (`hops`: `distances`).
fn expected(
    g: &Graph,
    d: &[Vec<(u64, u32)>],
    hops: &[Vec<u32>],
    s: u32,
    t: u32,
) -> (BTreeSet<u32>, BTreeSet<u32>) {
    let (s, t) = (s as usize, t as usize);
    let nics = g.nics[s].len() as u32;
    let (mut least, mut fewest) = (BTreeSet::new(), BTreeSet::new());
    for (i, &(m, lat)) in g.links[s].iter().enumerate() {
        let (c, h) = d[m as usize][t];
        if (c + lat.unwrap_or(DEFAULT) as u64, h + 1) == d[s][t] {
            least.insert(nics + i as u32);
        }
        if hops[m as usize][t] + 1 == hops[s][t] {
            fewest.insert(nics + i as u32);
        }
    }
    (least, fewest)
}

/// A NIC on each router that has one: a destination per router (the candidates towards
/// the NICs of one router differ only in the port that ejects).
fn one_nic_per_router(g: &Graph) -> Vec<(u32, u32)> {
    (0..g.routers())
        .filter_map(|r| g.nics[r as usize].first().map(|&n| (r, n)))
        .collect()
}

fn cfg(name: &str, text: &str, routing: Routing, vcs: u32) -> NetConfig {
    lane_net(file_cfg(text, &format!("ld-{name}")), routing, vcs)
}

/// `shortest_adaptive`'s (channel, lane) graph over every lane any packet may take
/// (`cdg::rising_cdg`), each candidate checked against `expected`; the count of (router,
/// destination router) whose least-delay ports differ from the fewest-hop ones.
fn adaptive_cdg(
    name: &str,
    t: &Topology,
    g: &Graph,
    vcs: u32,
) -> (HashMap<LaneChan, Vec<LaneChan>>, usize) {
    let (d, hops) = (least(g), distances(g));
    let sw = t.switches();
    let mut differ = HashSet::new();
    let nics = one_nic_per_router(g);
    let dests: Vec<u32> = nics.iter().map(|&(_, n)| n).collect();
    let sources: Vec<u32> = nics.iter().map(|&(r, _)| r).collect();
    let cdg = rising_cdg(
        t,
        &dests,
        |_| sources.clone(),
        vcs,
        true,
        |s, dst, table, cand| {
            let rd = g.nic_router[dst as usize];
            if s == rd {
                assert_eq!(cand, [(table, 0, 1, false)], "{name}: eject at {s}");
                return;
            }
            let mut ports = BTreeSet::new();
            for &(p, lo, hi, _) in cand {
                let Peer::Switch { .. } = sw[s as usize].ports[p as usize] else {
                    panic!("{name}: router {s} offers NIC port {p} towards router {rd}");
                };
                ports.insert(p);
                assert!(lo < hi && hi <= vcs, "{name}: lanes {lo}..{hi} of {vcs}");
            }
            let (want, fewest) = expected(g, &d, &hops, s, rd);
            assert_eq!(ports, want, "{name}: router {s} towards router {rd}");
            if want != fewest {
                differ.insert((s, rd));
            }
        },
    );
    (cdg, differ.len())
}

#[test]
fn shortest_adaptive_offers_the_least_delay_ports_on_acyclic_rising_lanes() {
    for (name, text, mixed) in graphs() {
        let g = graph(&text);
        let vcs = g.lanes_needed(DEFAULT, u32::MAX);
        let c = cfg(name, &text, Routing::ShortestAdaptive, vcs);
        c.validate().unwrap_or_else(|e| panic!("{name}: {e}"));
        let t = Topology::for_net(&c);
        let (cdg, differ) = adaptive_cdg(name, &t, &g, vcs);
        assert!(acyclic(&cdg), "{name}: the lanes close a cycle");
        assert_eq!(differ > 0, mixed, "{name}: least delay against fewest hops");
        println!("{name}: {differ} (router, destination router) pairs differ");
    }
}

#[test]
fn shortest_updowns_adaptive_lanes_take_the_least_delay_ports() {
    for (name, text, mixed) in graphs() {
        let g = graph(&text);
        let (d, hops) = (least(&g), distances(&g));
        let vcs = 3;
        let t = Topology::for_net(&cfg(name, &text, Routing::ShortestUpdown, vcs));
        let mut cand = Vec::new();
        let mut differ = 0;
        for (rd, dst) in one_nic_per_router(&g) {
            for s in (0..g.routers()).filter(|&s| s != rd) {
                let table = t.route(s, NodeId(dst));
                updown_candidates(&t, s, table, NodeId(dst), false, vcs, &mut cand);
                let (escape, adaptive) = cand.split_last().expect("the escape");
                assert_eq!(*escape, (table, 0, 1, false), "{name}: the escape");
                assert!(adaptive.iter().all(|c| (c.1, c.2, c.3) == (1, vcs, true)));
                let ports: BTreeSet<u32> = adaptive.iter().map(|c| c.0).collect();
                let (want, fewest) = expected(&g, &d, &hops, s, rd);
                assert_eq!(ports, want, "{name}: router {s} towards router {rd}");
                differ += usize::from(want != fewest);
                // on the escape lane: the escape alone (untouched by the latencies)
                updown_candidates(&t, s, table, NodeId(dst), true, vcs, &mut cand);
                assert_eq!(cand, vec![(table, 0, 1, false)]);
            }
        }
        assert_eq!(differ > 0, mixed, "{name}: least delay against fewest hops");
    }
}

#[test]
fn shortest_adaptive_needs_the_hops_of_the_longest_least_delay_path() {
    // the triangle's slow link: two hops round it (diameter 1); the slow ring's one slow
    // channel 0 -> 1: five hops the other way round (diameter 3)
    for (name, want) in [("triangle", 2), ("slow-ring", 5)] {
        let text = graphs().into_iter().find(|g| g.0 == name).unwrap().1;
        assert_eq!(graph(&text).lanes_needed(DEFAULT, u32::MAX), want, "{name}");
        // above `most` the diameter, a lower bound, without the search from every router
        let d = graph(&text).diameter();
        assert_eq!(graph(&text).lanes_needed(DEFAULT, d - 1), d, "{name}");
        let e = cfg(name, &text, Routing::ShortestAdaptive, want - 1)
            .validate()
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("vcs") && e.contains(&format!(">= {want}")),
            "{e}"
        );
        cfg(name, &text, Routing::ShortestAdaptive, want)
            .validate()
            .unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}

#[test]
fn both_run_lossless_on_least_delay_paths_at_any_thread_count() {
    let df2 = TopologyConfig::Dragonfly {
        p: 2,
        a: 4,
        h: 2,
        g: None,
    };
    let mut all: Vec<(&str, String)> = graphs()
        .into_iter()
        .filter(|g| matches!(g.0, "triangle" | "slow-ring" | "random1"))
        .map(|g| (g.0, g.1))
        .collect();
    all.push((
        "dragonfly2-lat",
        anynet_write::write_config(&df2, Some(10), Some(100)),
    ));
    for (name, text) in all {
        let vcs = graph(&text).lanes_needed(DEFAULT, u32::MAX).max(2);
        for routing in [Routing::ShortestAdaptive, Routing::ShortestUpdown] {
            let mut c = cfg(&format!("run-{name}"), &text, routing, vcs);
            c.vc_buf_flits = Some(256);
            if routing == Routing::ShortestUpdown {
                // a saturated run needs it (net_topology_file_updown.rs): main's own code,
                // without it, leaves an escape lane of the dragonfly waiting > 5,000 cycles
                c.lane_reuse = Some(LaneReuse::Tail);
            }
            c.validate().unwrap_or_else(|e| panic!("{name}: {e}"));
            let one = run(&c, 0.5, 3_000);
            c.threads = 2;
            assert_eq!(one, run(&c, 0.5, 3_000), "{name} under {}", routing.name());
        }
    }
}

/// A ring of `n` routers, a NIC on each, channel 0 -> 1 of 100 cycles when `slow`.
fn big_ring(n: u32, slow: bool) -> String {
    let mut s = ring(n);
    if slow {
        s = s.replacen(
            "router 0 node 0 router 1",
            "router 0 node 0 router 1 100",
            1,
        );
    }
    s
}

#[test]
fn a_least_delay_table_above_its_bound_is_refused_naming_the_routing() {
    // 8,193 routers with NICs: 8,193^2 = 67,125,249 entries, above 2^26 (256 MiB of u32)
    let n = 8_193;
    let slow = file_cfg(&big_ring(n, true), "ld-big-slow");
    let even = file_cfg(&big_ring(n, false), "ld-big-even");
    let e = lane_net(slow.clone(), Routing::ShortestUpdown, 2)
        .validate()
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("routing") && e.contains("1..=67108864") && e.contains("8193 x 8193"),
        "{e}"
    );
    // one latency everywhere: no table, nothing refused; `shortest_rising` keeps none
    lane_net(even, Routing::ShortestUpdown, 2)
        .validate()
        .unwrap_or_else(|e| panic!("{e}"));
    let TopologyConfig::File { path, .. } = &slow else {
        unreachable!()
    };
    let dir = std::path::Path::new(path).parent().unwrap();
    let toml = dir.join("ld-big.toml");
    std::fs::write(
        &toml,
        format!(
            "name = \"ld-big\"\n[cycles]\nmax = 100\n[network]\ntopology = {{ kind = \"file\", path = \"{path}\" }}\nvcs = 2\nrouting = \"shortest_updown\"\n[workload]\nkind = \"uniform\"\nload = 0.1\nmsg_bytes = 64\n[[pft]]\nname = \"p\"\n"
        ),
    )
    .unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_pftsim"))
        .args(["check", toml.to_str().unwrap()])
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains("network.routing") && text.contains("1..=67108864"),
        "{text}"
    );
    assert!(!text.contains("panicked"), "{text}");
}

/// More NICs than `build` gathers columns of at once (64), numbered across the routers at
/// random: every pair's path reaches its NIC, the shortest-path table's paths are
/// shortest, and the hop table gives the graph's distances.
#[test]
fn tables_of_many_nics_numbered_across_routers_route_every_pair() {
    let text = random_graph(30, 300, 25, 11);
    let dist = distances(&graph(&text));
    let cfg = file_cfg(&text, "many-nics");
    for routing in [Routing::Shortest, Routing::Updown, Routing::ShortestUpdown] {
        let t = Topology::for_net(&lane_net(cfg.clone(), routing, 12));
        let at = |n: u32| t.attach(NodeId(n)).0 as usize;
        for s in 0..t.nodes() {
            for d in (0..t.nodes()).filter(|&d| d != s) {
                let p = t
                    .path(NodeId(s), NodeId(d))
                    .unwrap_or_else(|e| panic!("{routing:?}: {s} -> {d}: {e}"));
                if routing == Routing::Shortest {
                    assert_eq!(p.len() as u32 - 1, dist[at(s)][at(d)], "{s} -> {d}");
                }
            }
        }
        if routing == Routing::ShortestUpdown {
            for (r, row) in dist.iter().enumerate() {
                for d in 0..t.nodes() {
                    assert_eq!(t.hops_to(r as u32, NodeId(d)), row[at(d)], "{r} -> {d}");
                }
            }
        }
    }
}
