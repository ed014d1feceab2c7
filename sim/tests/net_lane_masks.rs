//! The lane router scans its lanes on `u64` masks when every router has at most 64 lanes
//! and on `u128` ones otherwise (`LaneMask`, for speed). The width is an implementation detail:
//! forced wide at every router (`set_wide_lane_masks`), every lane configuration below
//! delivers the same messages in the same cycles, saturated, with the checker on, on
//! routers of 10 to 64 lanes (lanes up to 63 used by links between routers, and by Disha
//! and the central allocator) and one of 80 (wide either way). Fails if the narrow path
//! scans, shifts or grants differently (measured: its masks cut to 32 bits; the narrow
//! path taken up to 128 lanes). It cannot tell whether `set_wide_lane_masks` took effect.
//! The same cases hold the switch allocator's shortcut for a lone ready lane to its search
//! (`set_lane_sa_search`).

use pft_sim::net::{
    Allocator, BernoulliSource, LaneReuse, NetConfig, Pattern, Routing, Switching, TopologyConfig,
};
use pft_sim::{CcConfig, EngineKind, Network, PftConfig};

mod lane_config;
use lane_config::lanes;

fn cases() -> Vec<(&'static str, NetConfig)> {
    let torus = TopologyConfig::Torus { k: 4, n: 2 };
    let tree = TopologyConfig::KaryNtree {
        k: 4,
        n: 2,
        hosts: None,
    };
    let dragonfly = TopologyConfig::Dragonfly {
        p: 2,
        a: 4,
        h: 2,
        g: None,
    };
    let mut vct = lanes(torus.clone(), 2, 16, None);
    vct.switching = Some(Switching::Vct);
    let mut cases = vec![
        ("torus dor", lanes(torus.clone(), 2, 4, None)),
        (
            "torus duato, tail reuse",
            NetConfig {
                lane_reuse: Some(LaneReuse::Tail),
                ..lanes(torus.clone(), 3, 8, Some(Routing::Duato))
            },
        ),
        ("torus vct", vct),
        (
            "torus disha",
            lanes(torus.clone(), 2, 4, Some(Routing::Disha)),
        ),
        (
            "torus central allocator, heads delayed 2 cycles",
            NetConfig {
                allocator: Some(Allocator::Central),
                head_latency_cycles: Some(2),
                ..lanes(torus.clone(), 2, 4, None)
            },
        ),
        (
            "torus duato, 12 lanes a port (60 lanes: the narrow masks' high half)",
            lanes(torus.clone(), 12, 4, Some(Routing::Duato)),
        ),
        (
            "mesh duato, 16 lanes a port (80 lanes: wide either way)",
            lanes(
                TopologyConfig::Mesh { k: 4, n: 2 },
                16,
                4,
                Some(Routing::Duato),
            ),
        ),
        ("4-ary 2-tree", lanes(tree.clone(), 2, 4, None)),
    ];
    // the high half of the narrow masks, up to lane 63: a 64-lane switch (8 ports x 8
    // lanes), a 64-lane dragonfly router (its global ports on lanes 48-63), Disha (12 lane
    // records a port) and the central allocator on 60
    cases.push((
        "4-ary 2-tree, 8 lanes a port (64 lanes)",
        lanes(tree, 8, 4, None),
    ));
    cases.push((
        "dragonfly p 2, a 5, h 2, ugal, 8 lanes a port (64 lanes)",
        lanes(
            TopologyConfig::Dragonfly {
                p: 2,
                a: 5,
                h: 2,
                g: None,
            },
            8,
            8,
            Some(Routing::Ugal),
        ),
    ));
    cases.push((
        "torus disha, 11 lanes and the deadlock buffer a port (60 lanes)",
        lanes(torus.clone(), 11, 4, Some(Routing::Disha)),
    ));
    cases.push((
        "torus central allocator, 12 lanes a port (60 lanes)",
        NetConfig {
            allocator: Some(Allocator::Central),
            ..lanes(torus.clone(), 12, 4, None)
        },
    ));
    for routing in [Routing::Ugal, Routing::Par, Routing::Min] {
        cases.push((
            "dragonfly",
            NetConfig {
                lane_reuse: Some(LaneReuse::Tail),
                ..lanes(dragonfly.clone(), 4, 8, Some(routing))
            },
        ));
    }
    cases
}

/// Every case, with and without PFT, run saturated and drained with `tweak` applied or
/// not: the same messages delivered in the same cycles.
fn same_deliveries(what: &str, tweak: impl Fn(&mut Network, bool)) {
    let pft = PftConfig::default().with_all(&[("th_enter", 8), ("th_escape", 12)]);
    for (name, cfg) in cases() {
        for cc in [CcConfig::none(), CcConfig::Pft(pft)] {
            let logs = [false, true].map(|on| {
                let mut net = Network::with_cc(&cfg, &cc, EngineKind::Model, 5).unwrap();
                tweak(&mut net, on);
                let mut w =
                    BernoulliSource::new(net.nodes(), Pattern::Uniform, 0.9, 16 * 64, 64, 9)
                        .logged()
                        .until(2_000);
                net.run(&mut w, 2_000).unwrap();
                assert!(
                    net.run_until_idle(&mut w, 400_000).unwrap(),
                    "{name}: drains"
                );
                assert_eq!(w.created, w.delivered, "{name}: lossless");
                assert!(w.delivered > 50, "{name}: {} delivered", w.delivered);
                w.log.unwrap()
            });
            assert!(logs[0] == logs[1], "{name}: deliveries differ {what}");
        }
    }
}

#[test]
fn narrow_and_wide_lane_masks_deliver_the_same() {
    same_deliveries("with wide lane masks", |net, wide| {
        net.set_wide_lane_masks(wide)
    });
}

/// A lone ready lane wins its ports without the switch allocator's search: the same grant
/// and the same round-robin pointers as the search. Fails if the shortcut leaves a pointer
/// where it was (measured: without its pointer moves).
#[test]
fn a_lone_ready_lane_is_granted_as_the_search_grants_it() {
    same_deliveries("with the search for a lone ready lane", |net, search| {
        net.set_lane_sa_search(search)
    });
}

/// The input lanes that can move a flit, found from the has-flit masks (`has_flit`, kept
/// as flits come and go) or from the lanes' records: the same grants. Fails if a bit is
/// left set after a lane's last flit leaves (measured: the mask never cleared).
#[test]
fn ready_lanes_by_masks_are_the_ones_the_records_give() {
    same_deliveries("with ready lanes from the records", |net, scan| {
        net.set_lane_ready_scan(scan)
    });
}

/// Prefetching (`Switches::prefetch`, on by default only above 4 MiB of switch records)
/// asks the cache ahead for records and changes nothing else: forced on, every case
/// delivers the same; so do today's switch on a fat tree (phase 1's prefetch) and, at two
/// threads, that tree and a torus of lane routers. Fails if the prefetching copies of
/// phase 1 or of the router loop read or grant differently (measured: the prefetching
/// loop on 64-bit masks at routers of more than 64 lanes, the 80-lane mesh).
#[test]
fn prefetching_changes_no_delivery() {
    same_deliveries("with prefetching", |net, on| net.set_prefetch(on));
    let tree = NetConfig {
        topology: TopologyConfig::KaryNtree {
            k: 4,
            n: 3,
            hosts: None,
        },
        check: true,
        ..NetConfig::default()
    };
    let torus = NetConfig {
        check: false,
        ..lanes(TopologyConfig::Torus { k: 4, n: 2 }, 2, 4, None)
    };
    for (name, cfg, threads) in [
        ("today's switch", &tree, 1),
        (
            "today's switch, two threads",
            &NetConfig {
                check: false,
                ..tree.clone()
            },
            2,
        ),
        ("torus of lane routers, two threads", &torus, 2),
    ] {
        let logs = [false, true].map(|on| {
            let cfg = NetConfig {
                threads: if on { threads } else { 1 },
                ..cfg.clone()
            };
            let mut net = Network::with_cc(&cfg, &CcConfig::none(), EngineKind::Model, 5).unwrap();
            net.set_prefetch(on);
            assert_eq!(net.prefetches(), on, "{name}: set_prefetch took effect");
            let mut w = BernoulliSource::new(net.nodes(), Pattern::Uniform, 0.9, 16 * 64, 64, 9)
                .logged()
                .until(3_000);
            net.run(&mut w, 3_000).unwrap();
            assert!(
                net.run_until_idle(&mut w, 400_000).unwrap(),
                "{name}: drains"
            );
            assert!(w.delivered > 500, "{name}: {} delivered", w.delivered);
            w.log.unwrap()
        });
        assert!(
            logs[0] == logs[1],
            "{name}: deliveries differ with prefetching"
        );
    }
}

/// Prefetching is on by default where the switch records outgrow 4 MiB (the 16,512-NIC
/// dragonfly of `make bench`: about 19 MB) and off where they do not (a 128-NIC fat tree,
/// the k = 4 dragonfly with three lanes), and off under threads (the large dragonfly at
/// two threads). Fails if the threshold, the size it counts or the thread rule moves.
#[test]
fn prefetching_is_on_for_large_networks_only() {
    let dragonfly = |p, a, h| NetConfig {
        topology: TopologyConfig::Dragonfly { p, a, h, g: None },
        vcs: Some(3),
        vc_buf_flits: Some(64),
        routing: Some(Routing::Ugal),
        ..NetConfig::default()
    };
    let tree = NetConfig {
        topology: TopologyConfig::KaryNtree {
            k: 4,
            n: 3,
            hosts: None,
        },
        ..NetConfig::default()
    };
    let threads = NetConfig {
        threads: 2,
        ..dragonfly(8, 16, 8)
    };
    for (name, cfg, on) in [
        ("dragonfly 8, 16, 8", dragonfly(8, 16, 8), true),
        ("dragonfly 8, 16, 8 at two threads", threads, false),
        ("dragonfly 4, 8, 4", dragonfly(4, 8, 4), false),
        ("4-ary 3-tree", tree, false),
    ] {
        let net = Network::with_cc(&cfg, &CcConfig::none(), EngineKind::Model, 5).unwrap();
        assert_eq!(net.prefetches(), on, "{name}");
    }
}
