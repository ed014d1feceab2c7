//! The lane router (issue 22): virtual channels, wormhole and cut-through, dimension order
//! with dateline classes and Duato's adaptive routing.
//! - lossless with the invariant checker on every cycle (credits conserved lane by lane,
//!   lane buffers within `vc_buf_flits`), drains, deterministic, independent of the
//!   evaluation order, on tori, meshes and trees, with and without PFT;
//! - no deadlock at full offered load where the routing is deadlock-free, and a deadlock,
//!   named lane by lane, where it is not (one class of lanes on a ring), also when it is in
//!   one ring while the rest of the network moves (the per-lane stall watchdog);
//! - each routing's channel-dependency graph over lanes (the escape lanes for Duato) is
//!   acyclic, and cyclic without dateline classes;
//! - bad lane configurations refused with the key and the allowed range.

// The tests pass `NetError` by value to match on it (it is large; the library boxes it on
// its hot paths).
#![allow(clippy::result_large_err)]

mod one_message;
use one_message::One;
use pft_sim::net::lanes::{candidates, Router};
use pft_sim::net::{
    Allocator, BernoulliSource, Delivery, EvalOrder, LaneReuse, Message, NetConfig, NetError,
    NodeId, Pattern, Routing, Switching, TopologyConfig, Workload,
};
use pft_sim::{CcConfig, EngineKind, Network};
use std::collections::HashMap;

mod cdg;
use cdg::acyclic;
mod lane_config;
use lane_config::lanes;
mod row_burst;
use row_burst::RowBurst;

/// A channel-dependency graph: (router, output port, lane) to the lanes that follow it.
type Graph = HashMap<(u32, u32, u32), Vec<(u32, u32, u32)>>;

fn run(
    cfg: &NetConfig,
    cc: &CcConfig,
    order: EvalOrder,
    pattern: Pattern,
    load: f64,
    cycles: u64,
) -> Result<Vec<Delivery>, NetError> {
    let mut net = Network::with_cc(cfg, cc, EngineKind::Model, 5)?;
    net.set_eval_order(order);
    let mut w = BernoulliSource::new(net.nodes(), pattern, load, 16 * 64, 64, 9)
        .logged()
        .until(cycles);
    net.run(&mut w, cycles)?;
    assert!(net.run_until_idle(&mut w, 400_000)?, "drains");
    assert_eq!(w.created, w.delivered, "lossless");
    assert!(w.delivered > 50, "{} delivered", w.delivered);
    Ok(w.log.unwrap())
}

/// A head that found none of its lanes free waits until one of them frees instead of asking
/// every cycle: that only saves work. Saturated, every configuration (and a dragonfly under
/// each adaptive routing) delivers the same messages in the same cycles with the wait lists
/// off, and heads did wait.
#[test]
fn heads_waiting_for_a_lane_deliver_as_if_they_asked_every_cycle() {
    let mut cases = configs();
    for routing in [Routing::Ugal, Routing::Par, Routing::Min] {
        let topology = TopologyConfig::Dragonfly {
            p: 2,
            a: 4,
            h: 2,
            g: None,
        };
        cases.push((
            "dragonfly",
            NetConfig {
                lane_reuse: Some(LaneReuse::Tail),
                ..lanes(topology, 4, 8, Some(routing))
            },
        ));
    }
    // the central arbiter picks among every waiting head, those on a wait list too (then
    // skipped): with a head latency, which filters the same heads
    let torus = TopologyConfig::Torus { k: 4, n: 2 };
    for head in [0, 2] {
        cases.push((
            "torus central allocator",
            NetConfig {
                allocator: Some(Allocator::Central),
                head_latency_cycles: Some(head),
                ..lanes(torus.clone(), 2, 4, None)
            },
        ));
    }
    for (name, cfg) in cases {
        let logs = [true, false].map(|on| {
            let mut net = Network::with_cc(&cfg, &CcConfig::none(), EngineKind::Model, 5).unwrap();
            net.set_lane_wait_lists(on);
            let mut w = BernoulliSource::new(net.nodes(), Pattern::Uniform, 0.9, 16 * 64, 64, 9)
                .logged()
                .until(3_000);
            let mut waited = 0;
            for _ in 0..3_000 {
                net.step(&mut w).unwrap();
                waited = waited.max(net.lane_heads_waiting());
            }
            assert!(
                net.run_until_idle(&mut w, 400_000).unwrap(),
                "{name}: drains"
            );
            assert_eq!(w.created, w.delivered, "{name}: lossless");
            (w.log.unwrap(), waited)
        });
        assert!(
            logs[0].1 > 0 && logs[1].1 == 0,
            "{name}: heads waited {}, {}",
            logs[0].1,
            logs[1].1
        );
        assert!(
            logs[0].0 == logs[1].0,
            "{name}: deliveries differ with the wait lists off"
        );
    }
}

fn configs() -> Vec<(&'static str, NetConfig)> {
    let torus = TopologyConfig::Torus { k: 4, n: 2 };
    let mesh = TopologyConfig::Mesh { k: 4, n: 2 };
    let mut vct = lanes(torus.clone(), 2, 16, None);
    vct.switching = Some(Switching::Vct);
    vec![
        (
            "torus dor 2 lanes of 4 flits",
            lanes(torus.clone(), 2, 4, None),
        ),
        (
            "torus duato 3 lanes",
            lanes(torus.clone(), 3, 4, Some(Routing::Duato)),
        ),
        ("mesh dor 2 lanes", lanes(mesh.clone(), 2, 4, None)),
        (
            "mesh duato 2 lanes",
            lanes(mesh, 2, 8, Some(Routing::Duato)),
        ),
        (
            "4-ary 2-tree 2 lanes",
            lanes(
                TopologyConfig::KaryNtree {
                    k: 4,
                    n: 2,
                    hosts: None,
                },
                2,
                4,
                None,
            ),
        ),
        (
            "fat tree 2 lanes",
            lanes(
                TopologyConfig::FatTree {
                    radix: 8,
                    leaves: 4,
                },
                2,
                8,
                None,
            ),
        ),
        ("torus vct 2 lanes of 16", vct),
        (
            "4-ary 2-fly 2 lanes",
            lanes(
                TopologyConfig::KaryNfly {
                    k: 4,
                    n: 2,
                    hosts: None,
                },
                2,
                4,
                None,
            ),
        ),
        (
            "torus dor 2 lanes, heads delayed 3 cycles",
            NetConfig {
                head_latency_cycles: Some(3),
                ..lanes(torus, 2, 4, None)
            },
        ),
    ]
}

#[test]
fn head_latency_delays_each_head_once_per_router_and_body_flits_not_at_all() {
    // 4-ary 2-cube: NIC 0 to every other NIC, alone in the network. A packet passes
    // (minimal hops + 1) routers; with `head_latency_cycles` = H its head waits H cycles
    // in each, and its body flits follow at one per cycle, so the latency grows by exactly
    // H per router.
    let latency = |dst: u32, h: Option<u32>| {
        let cfg = NetConfig {
            head_latency_cycles: h,
            ..lanes(TopologyConfig::Torus { k: 4, n: 2 }, 2, 4, None)
        };
        let mut net = Network::with_cc(&cfg, &CcConfig::none(), EngineKind::Model, 1).unwrap();
        let mut w = One::new(0, dst);
        net.run(&mut w, 1).unwrap();
        assert!(net.run_until_idle(&mut w, 10_000).unwrap());
        w.latency.expect("delivered")
    };
    for dst in 1..16 {
        let ring = |x: u32| x.min(4 - x);
        let routers = ring(dst % 4) + ring(dst / 4) + 1;
        let base = latency(dst, None);
        assert_eq!(latency(dst, Some(0)), base, "to {dst}: H = 0 is no delay");
        for h in [1, 3, 7] {
            assert_eq!(
                latency(dst, Some(h)),
                base + h as u64 * routers as u64,
                "to {dst} over {routers} routers, H = {h}"
            );
        }
    }
}

#[test]
fn lanes_are_lossless_deterministic_and_order_independent() {
    let pft = CcConfig::Pft(pft_sim::PftConfig::default());
    for (name, cfg) in configs() {
        for cc in [CcConfig::none(), pft.clone()] {
            let go = |o| {
                run(&cfg, &cc, o, Pattern::Uniform, 0.4, 3_000)
                    .unwrap_or_else(|e| panic!("{name}, {}: {e}", cc.kind()))
            };
            let a = go(EvalOrder::Forward);
            assert_eq!(a, go(EvalOrder::Forward), "{name}: deterministic");
            assert_eq!(a, go(EvalOrder::Reverse), "{name}: reverse order");
            assert_eq!(a, go(EvalOrder::Shuffled(11)), "{name}: shuffled order");
        }
    }
}

#[test]
fn deadlock_free_routings_survive_full_load_on_small_buffers() {
    for (name, cfg) in configs() {
        // every configuration here has 16 NICs
        for pattern in [
            Pattern::Uniform,
            Pattern::Shift { by: 2 },
            Pattern::Shift { by: 6 },
            Pattern::Transpose,
            Pattern::Complement,
            Pattern::BitReversal,
            Pattern::Tornado { k: 4, n: 2 },
        ] {
            run(
                &cfg,
                &CcConfig::none(),
                EvalOrder::Forward,
                pattern,
                1.0,
                20_000,
            )
            .unwrap_or_else(|e| panic!("{name} under {pattern:?} at load 1: {e}"));
        }
    }
}

/// Every NIC of a ring of `n` sends `count` 16-flit messages two routers on, all created
/// in cycle 0 (so the first packets enter the ring in the same cycle).
struct Burst {
    n: u32,
    count: u64,
    next: u64,
    delivered: u64,
}

impl Workload for Burst {
    fn tick(&mut self, now: u64, out: &mut Vec<Message>) {
        if now > 0 {
            return;
        }
        for _ in 0..self.count {
            for src in 0..self.n {
                out.push(Message {
                    id: self.next,
                    src: NodeId(src),
                    dst: NodeId((src + 2) % self.n),
                    bytes: 16 * 64,
                    tag: 0,
                    created: now,
                });
                self.next += 1;
            }
        }
    }
    fn delivered(&mut self, _now: u64, _d: &Delivery) {
        self.delivered += 1;
    }
}

fn ring_burst(vcs: u32, buf: u32, routing: Option<Routing>) -> Result<u64, NetError> {
    let cfg = lanes(TopologyConfig::Torus { k: 4, n: 1 }, vcs, buf, routing);
    let mut net = Network::with_cc(&cfg, &CcConfig::none(), EngineKind::Model, 1)?;
    let mut w = Burst {
        n: 4,
        count: 50,
        next: 0,
        delivered: 0,
    };
    net.run(&mut w, 1)?;
    assert!(net.run_until_idle(&mut w, 100_000)?, "drains");
    Ok(w.delivered)
}

#[test]
fn one_class_of_lanes_on_a_ring_deadlocks_and_the_error_names_the_lanes() {
    // A 4-router ring, every NIC sending two routers on (DOR's tie goes plus: every packet
    // the same way round), the first packets of all four NICs entering the ring together,
    // one wormhole lane of 4 flits (a quarter of a packet).
    let e = ring_burst(1, 4, Some(Routing::DorNoDateline))
        .expect_err("one class of lanes on a ring deadlocks");
    let msg = e.to_string();
    assert!(matches!(e, NetError::Deadlock { .. }), "{msg}");
    assert!(
        msg.contains("buffers (lanes), each waiting for the next (for space in it, or for the output its packet holds)"),
        "{msg}"
    );
    // every router's ring lane (input 1: from the minus side) is in the cycle
    for r in 0..4 {
        assert!(
            msg.contains(&format!("router ({r}) input 1 lane 0")),
            "{msg}"
        );
    }
    // two dateline classes: no deadlock, wormhole or cut-through
    for buf in [4, 16] {
        let d = ring_burst(2, buf, None)
            .unwrap_or_else(|e| panic!("dateline classes, lanes of {buf}: {e}"));
        assert_eq!(d, 200);
    }
}

fn row_burst(vcs: u32, routing: Option<Routing>) -> Result<u64, NetError> {
    let cfg = lanes(TopologyConfig::Torus { k: 4, n: 2 }, vcs, 4, routing);
    let mut net = Network::with_cc(&cfg, &CcConfig::none(), EngineKind::Model, 1)?;
    let mut w = RowBurst {
        count: 50,
        until: 20_000,
        next: 0,
        delivered: 0,
    };
    net.run(&mut w, 20_000)?;
    assert!(net.run_until_idle(&mut w, 100_000)?, "drains");
    assert_eq!(w.delivered, w.next, "lossless");
    Ok(w.delivered)
}

#[test]
fn a_deadlock_in_one_ring_while_the_others_move_is_found_and_its_lanes_named() {
    // Row 0's ring deadlocks as the ring above (one lane, no dateline), while rows 1-3
    // keep moving: the global watchdog (nothing moved anywhere) cannot see it; the
    // per-lane one does, within deadlock_cycles (2,000) plus one look (1,024 cycles) of
    // the deadlock.
    let e = row_burst(1, Some(Routing::DorNoDateline)).expect_err("row 0 deadlocks");
    let msg = e.to_string();
    let NetError::LanesStalled {
        cycle,
        lanes,
        flits,
        limit,
        ..
    } = e
    else {
        panic!("not a lane stall: {msg}");
    };
    assert_eq!(limit, 2_000);
    assert!(cycle < 5_000, "{msg}");
    assert!(lanes >= 4 && flits >= 16, "{msg}");
    // each router's ring lane (input 1) waits for the packet injected at that router
    // (input 4, the NIC's), which holds the next ring lane and has no credit for it
    assert!(msg.contains("a cycle of 8 lanes, each waiting"), "{msg}");
    for x in 0..4 {
        for i in [1, 4] {
            assert!(
                msg.contains(&format!("router ({x},0) input {i} lane 0 ->")),
                "{msg}"
            );
        }
    }
    // no lane of another row is named
    for y in 1..4 {
        assert!(!msg.contains(&format!(",{y}) input")), "{msg}");
    }
    // dateline classes: the same traffic runs and drains
    let d = row_burst(2, None).expect("two dateline classes do not deadlock");
    assert!(d > 4 * 50 + 1_000, "{d}");
}

/// The channel-dependency graph over lanes of the non-adaptive (escape) candidates of a
/// cube's routing: a node per (router, output port, lane); an edge from every lane a
/// packet may hold at one hop to every lane it may request at the next; both ways round a
/// ring where they are equally long (a packet's tie-break).
fn escape_cdg(rt: &Router) -> Graph {
    let nodes = rt.k.pow(rt.n);
    let mut g: Graph = HashMap::new();
    let mut cand = Vec::new();
    let table = |r: u32, d: u32| pft_sim::net::topology::cube::dor_port(r, d, rt.k, rt.n, rt.wrap);
    for (s, d, tie) in
        (0..nodes).flat_map(|s| (0..nodes).flat_map(move |d| [(s, d, false), (s, d, true)]))
    {
        {
            if s == d {
                continue;
            }
            let (mut r, mut prev): (u32, Vec<(u32, u32, u32)>) = (s, Vec::new());
            for _ in 0..=nodes {
                candidates(rt, r, d, table(r, d), tie, !prev.is_empty(), &mut cand);
                let &(p, lo, hi, _) = cand.iter().find(|c| !c.3).expect("an escape candidate");
                if p == 2 * rt.n {
                    break;
                }
                let here: Vec<_> = (lo..hi).map(|c| (r, p, c)).collect();
                for a in &prev {
                    let e = g.entry(*a).or_default();
                    for b in &here {
                        if !e.contains(b) {
                            e.push(*b);
                        }
                    }
                }
                for b in &here {
                    g.entry(*b).or_default();
                }
                // the neighbour through port p
                let dim = p / 2;
                let x = (r / rt.k.pow(dim)) % rt.k;
                let nx = if p % 2 == 0 {
                    (x + 1) % rt.k
                } else {
                    (x + rt.k - 1) % rt.k
                };
                r = r - x * rt.k.pow(dim) + nx * rt.k.pow(dim);
                prev = here;
            }
            assert_eq!(r, d, "{s} -> {d} arrives");
        }
    }
    g
}

#[test]
fn escape_channel_dependency_graphs_are_acyclic_with_dateline_classes() {
    for (k, n) in [(4, 1), (5, 1), (4, 2), (3, 2), (4, 3)] {
        for (routing, vcs, wrap, want) in [
            (Routing::Dor, 2, true, true),
            (Routing::Dor, 4, true, true),
            (Routing::Duato, 3, true, true), // the escape pair
            (Routing::Dor, 2, false, true),
            (Routing::Duato, 2, false, true), // the escape lane
            (Routing::DorNoDateline, 2, true, k < 4),
        ] {
            let rt = Router {
                routing,
                vcs,
                k,
                n,
                wrap,
                ack_vcs: 0,
                df: None,
                threshold: 0,
                one_escape: false,
                disha: false,
            };
            assert_eq!(
                acyclic(&escape_cdg(&rt)),
                want,
                "{k}-ary {n}-cube wrap {wrap}: {rt:?}"
            );
        }
    }
}

#[test]
fn bad_lane_configurations_are_refused_with_key_and_range() {
    let torus = TopologyConfig::Torus { k: 4, n: 2 };
    let base = lanes(torus.clone(), 2, 4, None);
    let cases: Vec<(NetConfig, &str, &str)> = vec![
        (
            NetConfig {
                vcs: Some(0),
                ..base.clone()
            },
            "vcs",
            "1..=16",
        ),
        (
            NetConfig {
                vcs: Some(17),
                ..base.clone()
            },
            "vcs",
            "1..=16",
        ),
        (
            NetConfig {
                vcs: Some(1),
                ..base.clone()
            },
            "vcs",
            "needs vcs >= 2",
        ),
        (
            NetConfig {
                vcs: Some(2),
                routing: Some(Routing::Duato),
                ..base.clone()
            },
            "vcs",
            "needs vcs >= 3",
        ),
        (
            NetConfig {
                vcs: None,
                vc_buf_flits: None,
                ..base.clone()
            },
            "vcs",
            "vcs >= 2",
        ),
        (
            NetConfig {
                vc_buf_flits: Some(0),
                ..base.clone()
            },
            "vc_buf_flits",
            "1..=65535",
        ),
        (
            NetConfig {
                switching: Some(Switching::Vct),
                ..base.clone()
            },
            "vc_buf_flits",
            "16..=65535",
        ),
        (
            NetConfig {
                vcs: None,
                vc_buf_flits: Some(4),
                routing: Some(Routing::DorNoDateline),
                ..base.clone()
            },
            "vc_buf_flits",
            "needs `vcs`",
        ),
        (
            NetConfig {
                vcs: None,
                vc_buf_flits: None,
                switching: Some(Switching::Wormhole),
                routing: Some(Routing::DorNoDateline),
                ..base.clone()
            },
            "switching",
            "needs `vcs`",
        ),
        (
            NetConfig {
                vcs: None,
                vc_buf_flits: None,
                head_latency_cycles: Some(2),
                routing: Some(Routing::DorNoDateline),
                ..base.clone()
            },
            "head_latency_cycles",
            "needs `vcs`",
        ),
        (
            NetConfig {
                head_latency_cycles: Some(65537),
                ..base.clone()
            },
            "head_latency_cycles",
            "0..=65536",
        ),
        (
            NetConfig {
                topology: TopologyConfig::FatTree {
                    radix: 8,
                    leaves: 4,
                },
                routing: Some(Routing::Dor),
                ..base.clone()
            },
            "routing",
            "updown",
        ),
        (
            NetConfig {
                routing: Some(Routing::Updown),
                ..base.clone()
            },
            "routing",
            "`dor`",
        ),
        (
            NetConfig {
                topology: TopologyConfig::FatTree {
                    radix: 24,
                    leaves: 10,
                },
                vcs: Some(6),
                ..base.clone()
            },
            "vcs",
            "at most 5 here",
        ),
        (
            NetConfig {
                voq: true,
                ..base.clone()
            },
            "voq",
            "without lanes",
        ),
    ];
    for (cfg, key, want) in cases {
        let errs = cfg.errors();
        assert!(
            errs.iter()
                .any(|e| e.field == key && e.to_string().contains(want)),
            "{key} / {want}: {errs:?}"
        );
        assert!(Network::with_cc(&cfg, &CcConfig::none(), EngineKind::Model, 1).is_err());
    }
    // a scheme that marks packets at switch inputs is refused with lanes; IB CC, which
    // marks at outputs, runs
    let renato = CcConfig::example_of("renato").unwrap();
    let e = Network::with_cc(&base, &renato, EngineKind::Model, 1)
        .err()
        .expect("refused");
    assert!(
        e.to_string().contains("lane router does not support"),
        "{e}"
    );
    let ib = CcConfig::default_of("ibcc").unwrap();
    assert!(Network::with_cc(&base, &ib, EngineKind::Model, 1).is_ok());
    // the scenario form
    let t: NetConfig = toml::from_str(
        "topology = { kind = \"torus\", k = 4, n = 2 }\nvcs = 3\nvc_buf_flits = 8\nrouting = \"duato\"\nswitching = \"wormhole\"\nmtu_bytes = 1024\nbuffer_flits = 64\neject_buffer_flits = 64",
    )
    .unwrap();
    assert!(t.errors().is_empty(), "{:?}", t.errors());
}
