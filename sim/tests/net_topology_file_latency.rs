//! A dragonfly written as a file with its links' own latencies (`net-bench --write-anynet`
//! with `--local-latency` and `--global-latency`, `anynet_write::write_config`): the file gives
//! every channel its latency back, and `shortest` (least delay, as BookSim's
//! `min_anynet`) then routes the built-in `min`'s paths: at most one global hop, and at
//! most one local hop on each side of it. Without the latencies some shortest paths take
//! two global hops (so the test tells the two apart).

use pft_sim::net::topology::{anynet, anynet_write};
use pft_sim::net::{NetConfig, NodeId, Peer, Routing, Topology, TopologyConfig};

mod anynet_util;
use anynet_util::{file_cfg, graph, run};

const LOCAL: u32 = 10;
const GLOBAL: u32 = 100;

fn dragonfly() -> (TopologyConfig, u32) {
    let a = 4;
    (
        TopologyConfig::Dragonfly {
            p: 2,
            a,
            h: 2,
            g: None,
        },
        a,
    )
}

/// The file of the dragonfly, with or without its links' latencies.
fn text(with_latencies: bool) -> String {
    let (cfg, _) = dragonfly();
    if with_latencies {
        // as `net-bench --write-anynet` writes it
        anynet_write::write_config(&cfg, Some(LOCAL), Some(GLOBAL))
    } else {
        anynet::write(&Topology::build(&cfg))
    }
}

fn shortest(topology: TopologyConfig) -> NetConfig {
    NetConfig {
        topology,
        vcs: Some(3),
        vc_buf_flits: Some(256),
        routing: Some(Routing::Shortest),
        check: true,
        mtu_bytes: 8 * 64,
        deadlock_cycles: 5_000,
        ..NetConfig::default()
    }
}

/// Over every pair of NICs, the most global hops and the most router-to-router hops of the
/// routed path.
fn most_hops(t: &Topology, a: u32) -> (u32, u32) {
    let sw = t.switches();
    let (mut global, mut hops) = (0, 0);
    for s in 0..t.nodes() {
        for d in 0..t.nodes() {
            if s == d {
                continue;
            }
            let p = t.path(NodeId(s), NodeId(d)).unwrap();
            let mut g = 0;
            for w in p.windows(2) {
                let Peer::Switch { switch, .. } =
                    sw[w[0].switch as usize].ports[w[0].out_port as usize]
                else {
                    panic!("{s} -> {d}: a hop to a NIC mid-path")
                };
                g += u32::from(switch / a != w[0].switch / a);
            }
            global = global.max(g);
            hops = hops.max(p.len() as u32 - 1);
        }
    }
    (global, hops)
}

#[test]
fn a_file_gives_each_channel_its_latency_back() {
    let (_, a) = dragonfly();
    let g = graph(&text(true));
    let lats = g.latencies();
    let t = Topology::build(&file_cfg(&text(true), "df-lat.net"));
    let mut channels = 0;
    for (r, sw) in t.switches().iter().enumerate() {
        for (p, peer) in sw.ports.iter().enumerate() {
            if let Peer::Switch { switch, .. } = *peer {
                channels += 1;
                let want = if switch / a == r as u32 / a {
                    LOCAL
                } else {
                    GLOBAL
                };
                assert!(
                    lats.contains(&(r as u32, p as u32, want)),
                    "router {r} port {p} to router {switch}: latency {want}"
                );
            }
        }
    }
    assert_eq!(lats.len(), channels, "every channel has one latency");
    assert!(graph(&text(false)).latencies().is_empty());
}

#[test]
fn with_its_latencies_a_dragonfly_file_routes_the_minimal_paths() {
    let (_, a) = dragonfly();
    let with = shortest(file_cfg(&text(true), "df-lat-route.net"));
    let without = shortest(file_cfg(&text(false), "df-route.net"));
    assert_eq!(
        most_hops(&Topology::for_net(&with), a),
        (1, 3),
        "least delay: local, global, local"
    );
    let (global, _) = most_hops(&Topology::for_net(&without), a);
    assert_eq!(global, 2, "fewest hops: some paths take two global links");
    // lossless under the checker on three lanes (a lane per hop)
    run(&with, 0.3, 3_000);
}
