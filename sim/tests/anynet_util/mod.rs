//! Helpers of the file-topology tests: a file written for a test, its graph, random graphs,
//! and a lossless run under the checker.
#![allow(dead_code)]

use pft_sim::net::topology::anynet;
use pft_sim::net::topology::anynet::Graph;
use pft_sim::net::{
    BernoulliSource, Delivery, NetConfig, Pattern, Peer, Routing, Topology, TopologyConfig,
};
use pft_sim::{CcConfig, EngineKind, Network};

/// `text` written as file `name` in this process's temporary directory, resolved.
pub fn file_cfg(text: &str, name: &str) -> TopologyConfig {
    let dir = std::env::temp_dir().join(format!("pft-anynet-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    let mut cfg = TopologyConfig::File {
        path: path.display().to_string(),
        graph: None,
    };
    cfg.resolve(None);
    cfg
}

/// `text` parsed as a graph of at most 64 ports a router and 4,096 NICs.
pub fn graph(text: &str) -> Graph {
    Graph::parse(text, 64, 4096).unwrap_or_else(|e| panic!("{e}"))
}

/// Router-to-router hops from every router to every router (breadth-first, from the
/// graph's links, not from any routing table).
pub fn distances(g: &Graph) -> Vec<Vec<u32>> {
    (0..g.routers())
        .map(|r| {
            let mut v = vec![u32::MAX; g.routers() as usize];
            v[r as usize] = 0;
            let mut q = std::collections::VecDeque::from([r]);
            while let Some(x) = q.pop_front() {
                for &(m, _) in &g.links[x as usize] {
                    if v[m as usize] == u32::MAX {
                        v[m as usize] = v[x as usize] + 1;
                        q.push_back(m);
                    }
                }
            }
            v
        })
        .collect()
}

/// A random connected graph: a random spanning tree plus `extra` links, NICs spread over
/// the routers (a small LCG: deterministic).
pub fn random_graph(routers: u32, nodes: u32, extra: u32, seed: u64) -> String {
    let mut x = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    let mut next = |m: u32| {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((x >> 33) % m as u64) as u32
    };
    let mut lines: Vec<String> = (0..routers).map(|r| format!("router {r}")).collect();
    for r in 1..routers {
        let p = next(r);
        lines[r as usize].push_str(&format!(" router {p}"));
    }
    for _ in 0..extra {
        let (a, b) = (next(routers), next(routers));
        if a != b {
            lines[a as usize].push_str(&format!(" router {b}"));
        }
    }
    for n in 0..nodes {
        let r = if n < routers { n } else { next(routers) };
        lines[r as usize].push_str(&format!(" node {n}"));
    }
    lines.join("\n") + "\n"
}

/// A Bernoulli uniform run of `cycles` at `load` under seed 5, drained: lossless, its
/// deliveries.
pub fn run(cfg: &NetConfig, load: f64, cycles: u64) -> Vec<Delivery> {
    let mut net = Network::with_cc(cfg, &CcConfig::none(), EngineKind::Model, 5).unwrap();
    let nodes = net.nodes();
    let mut w = BernoulliSource::new(nodes, Pattern::Uniform, load, 8 * 64, 64, 9)
        .logged()
        .until(cycles);
    net.run(&mut w, cycles).unwrap();
    assert!(net.run_until_idle(&mut w, 200_000).unwrap(), "drains");
    assert_eq!(w.created, w.delivered, "lossless");
    assert!(w.delivered > 20);
    w.log.unwrap()
}

/// A ring of `n` routers, a NIC on each.
pub fn ring(n: u32) -> String {
    (0..n)
        .map(|r| format!("router {r} node {r} router {}\n", (r + 1) % n))
        .collect()
}

/// A 4-ary 2-cube and a dragonfly (p = 2, a = 4, h = 2) written as files.
pub fn torus_and_dragonfly() -> [String; 2] {
    let torus = Topology::build(&TopologyConfig::Torus { k: 4, n: 2 });
    let dragonfly = Topology::build(&TopologyConfig::Dragonfly {
        p: 2,
        a: 4,
        h: 2,
        g: None,
    });
    [anynet::write(&torus), anynet::write(&dragonfly)]
}

/// A file network under `routing` on `vcs` lanes of 8 flits, 8-flit packets, the checker on
/// and a deadlock limit of 5,000 cycles (the file-routing tests).
pub fn lane_net(topology: TopologyConfig, routing: Routing, vcs: u32) -> NetConfig {
    NetConfig {
        topology,
        vcs: Some(vcs),
        vc_buf_flits: Some(8),
        routing: Some(routing),
        check: true,
        mtu_bytes: 8 * 64,
        deadlock_cycles: 5_000,
        ..NetConfig::default()
    }
}

/// The graphs the file-routing tests run on: a ring, a 4-ary 2-cube, a dragonfly and three
/// random graphs.
pub fn test_graphs() -> Vec<(&'static str, String)> {
    let [torus, dragonfly] = torus_and_dragonfly();
    vec![
        ("ring", ring(6)),
        ("torus", torus),
        ("dragonfly", dragonfly),
        ("random1", random_graph(14, 28, 8, 3)),
        ("random2", random_graph(20, 30, 12, 4)),
        ("random3", random_graph(24, 24, 20, 7)),
    ]
}

/// Ports of switch `s` of `t` that lead to a router one hop nearer router `rd` (`dist`:
/// `distances`), counted from the graph's own distances.
pub fn shortest_ports(t: &Topology, dist: &[Vec<u32>], s: u32, rd: usize) -> usize {
    t.switches()[s as usize]
        .ports
        .iter()
        .filter(|q| match q {
            Peer::Switch { switch: m, .. } => dist[*m as usize][rd] + 1 == dist[s as usize][rd],
            _ => false,
        })
        .count()
}
