//! Blocks of cycles (`sim/src/net/block.rs`): `run` evaluates the NICs for up to the
//! shortest channel latency of cycles, then each chunk of switches through them. Against
//! the same network stepped one cycle at a time (`step`, which never blocks): the same
//! deliveries in the same cycles, the same NIC counters and gate outputs, and the same
//! watchdog errors at the same cycles; and blocks were run.

#![allow(clippy::result_large_err)]

use pft_sim::net::{
    force_switch_chunk, BernoulliSource, Delivery, LaneReuse, Message, NetConfig, NetError, NodeId,
    Pattern, Routing, TopologyConfig, Workload,
};
use pft_sim::{CcConfig, EngineKind, Network, PftConfig};

mod lane_config;
use lane_config::lanes;
mod mix;
mod row_burst;
use row_burst::RowBurst;

/// What a run ends with: its deliveries, the NICs' counters and last gate outputs, and the
/// cycles it ran in blocks.
#[derive(Debug, PartialEq)]
struct End {
    deliveries: Vec<Delivery>,
    nics: Vec<String>,
}

/// `cycles` of uniform traffic at `load` (with `run` in uneven pieces when `blocks`, with
/// `step` otherwise), then drained the same way.
fn go(cfg: &NetConfig, cc: &CcConfig, load: f64, cycles: u64, blocks: bool) -> (End, u64) {
    let mut net = Network::with_cc(cfg, cc, EngineKind::Model, 3).unwrap();
    let n = net.nodes();
    let mut w = BernoulliSource::new(n, Pattern::Uniform, load, 16 * 64, 64, 7)
        .logged()
        .until(cycles);
    if blocks {
        let mut left = cycles;
        for piece in [1, 37, 5, 1000].iter().cycle() {
            let p = left.min(*piece);
            net.run(&mut w, p).unwrap();
            left -= p;
            if left == 0 {
                break;
            }
        }
        assert!(net.run_until_idle(&mut w, 200_000).unwrap(), "drains");
    } else {
        for _ in 0..cycles {
            net.step(&mut w).unwrap();
        }
        while !net.is_idle() {
            net.step(&mut w).unwrap();
        }
    }
    assert_eq!(w.created, w.delivered, "lossless");
    assert!(w.delivered > 100, "{} delivered", w.delivered);
    let nics = (0..n)
        .map(|i| {
            let o = net.pft_outputs(NodeId(i));
            format!(
                "{:?} {:?}",
                net.nic_stats(NodeId(i)),
                (o.send, o.throttled, o.used_credits)
            )
        })
        .collect();
    let blocked = net.blocked_cycles();
    let end = End {
        deliveries: w.log.unwrap(),
        nics,
    };
    (end, blocked)
}

/// Networks whose shortest latency allows blocks of 2 to 16 cycles.
fn configs() -> Vec<(&'static str, NetConfig)> {
    let tree = NetConfig {
        check: false,
        link_latency_cycles: 3,
        credit_latency_cycles: 2,
        switch_latency_cycles: 1,
        ..mix::small_fat_tree()
    };
    let unchecked = |mut c: NetConfig, link: u32, credit: u32| {
        c.check = false;
        c.link_latency_cycles = link;
        c.credit_latency_cycles = credit;
        c
    };
    let torus = lanes(
        TopologyConfig::Torus { k: 4, n: 2 },
        3,
        8,
        Some(Routing::Duato),
    );
    let mut df = lanes(
        TopologyConfig::Dragonfly {
            p: 2,
            a: 4,
            h: 2,
            g: None,
        },
        3,
        32,
        Some(Routing::Ugal),
    );
    df.local_latency_cycles = Some(6);
    df.global_latency_cycles = Some(25);
    df.lane_reuse = Some(LaneReuse::Tail);
    let mut tree_big = tree.clone();
    tree_big.link_latency_cycles = 20;
    tree_big.credit_latency_cycles = 17;
    vec![
        ("fat tree, blocks of 2", tree),
        ("fat tree, blocks of 16", tree_big),
        ("4-ary 2-cube, duato, blocks of 4", unchecked(torus, 5, 4)),
        ("dragonfly, ugal, blocks of 4", unchecked(df, 4, 9)),
    ]
}

#[test]
fn blocks_of_cycles_change_no_result() {
    let pft = CcConfig::Pft(mix::at_ri());
    for (name, cfg) in configs() {
        for (cc, load) in [(CcConfig::none(), 0.3), (pft.clone(), 0.6)] {
            let (a, stepped) = go(&cfg, &cc, load, 3_000, false);
            let (b, blocked) = go(&cfg, &cc, load, 3_000, true);
            assert_eq!(stepped, 0, "{name}: step never blocks");
            assert!(
                blocked > 2_000,
                "{name}, {}: {blocked} cycles in blocks",
                cc.kind()
            );
            assert!(a == b, "{name}, {}: results differ", cc.kind());
        }
    }
}

/// Networks whose switch records outgrow the caches (a 6-ary 5-tree: 7,776 NICs, 6,480
/// switches, 7.8 MB, chunks of 128 switches; a 4-ary 6-tree of lane routers) run their
/// blocks chunk by chunk: the same results as stepped.
#[test]
fn blocks_by_switch_chunk_change_no_result() {
    let cfg = NetConfig {
        topology: TopologyConfig::KaryNtree {
            k: 6,
            n: 5,
            hosts: None,
        },
        ..NetConfig::default()
    };
    // and a 4-ary 6-tree of lane routers (4,096 NICs, two lanes, 9.8 MB; links of 6 and
    // credits of 5 cycles: blocks of 5)
    let mut lane_tree = lanes(
        TopologyConfig::KaryNtree {
            k: 4,
            n: 6,
            hosts: None,
        },
        2,
        8,
        None,
    );
    lane_tree.check = false;
    lane_tree.link_latency_cycles = 6;
    lane_tree.credit_latency_cycles = 5;
    for (cfg, cc, load) in [
        (&cfg, CcConfig::none(), 0.4),
        (&cfg, CcConfig::Pft(PftConfig::default()), 0.4),
        (&lane_tree, CcConfig::none(), 0.1),
    ] {
        let (a, _) = go(cfg, &cc, load, 400, false);
        let (b, blocked) = go(cfg, &cc, load, 400, true);
        assert!(blocked > 300, "{}: {blocked} cycles in blocks", cc.kind());
        assert!(a == b, "{}: results differ", cc.kind());
        let net = Network::with_cc(cfg, &CcConfig::none(), EngineKind::Model, 3).unwrap();
        assert!(net.prefetches(), "records beyond 4 MiB (the chunked case)");
    }
}

/// Small networks forced into chunks of four switches (the 4-ary 2-cube in 4, the
/// dragonfly in 9, the fat trees in 3): each block runs every chunk through its cycles in
/// turn, with flits and credits crossing from later chunks to earlier ones. The same
/// results as stepped, with chunks and without.
#[test]
fn blocks_across_several_switch_chunks_change_no_result() {
    let pft = CcConfig::Pft(mix::at_ri());
    for (name, cfg) in configs() {
        for (cc, load) in [(CcConfig::none(), 0.3), (pft.clone(), 0.6)] {
            let (a, _) = go(&cfg, &cc, load, 2_000, false);
            force_switch_chunk(Some(4));
            let chunks = Network::with_cc(&cfg, &cc, EngineKind::Model, 3)
                .unwrap()
                .switch_chunks();
            let (b, _) = go(&cfg, &cc, load, 2_000, false);
            let (c, blocked) = go(&cfg, &cc, load, 2_000, true);
            force_switch_chunk(None);
            assert!(chunks >= 2, "{name}: {chunks} switch chunks");
            assert!(blocked > 1_000, "{name}: {blocked} cycles in blocks");
            assert!(a == b, "{name}, {}: stepped in chunks differs", cc.kind());
            assert!(a == c, "{name}, {}: blocks in chunks differ", cc.kind());
        }
    }
}

/// The checker, a second thread and NIC flow control rule blocks out.
#[test]
fn blocks_are_not_run_where_they_are_ruled_out() {
    let (_, cfg) = configs().swap_remove(1);
    let mut checked = cfg.clone();
    checked.check = true;
    let mut threads = cfg.clone();
    threads.threads = 2;
    for (why, c, cc) in [
        ("the checker", checked, CcConfig::none()),
        ("two threads", threads, CcConfig::none()),
        (
            "IB CC's flow control",
            cfg,
            CcConfig::Ibcc(Default::default()),
        ),
    ] {
        let (_, blocked) = go(&c, &cc, 0.3, 500, true);
        assert_eq!(blocked, 0, "{why}");
    }
}

/// A 4-ary 2-cube of one lane without a dateline (its rings can deadlock), unchecked,
/// with links of 7 cycles (blocks of 7).
fn ring_torus() -> NetConfig {
    let mut cfg = lanes(
        TopologyConfig::Torus { k: 4, n: 2 },
        1,
        4,
        Some(Routing::DorNoDateline),
    );
    cfg.check = false;
    cfg.link_latency_cycles = 7;
    cfg.credit_latency_cycles = 7;
    cfg
}

fn deadlock(until: u64, blocks: bool) -> (NetError, u64) {
    let cfg = ring_torus();
    let mut net = Network::with_cc(&cfg, &CcConfig::none(), EngineKind::Model, 1).unwrap();
    let mut w = RowBurst {
        count: 50,
        until,
        next: 0,
        delivered: 0,
    };
    let e = if blocks {
        net.run(&mut w, 20_000)
    } else {
        (0..20_000).try_for_each(|_| net.step(&mut w))
    };
    (e.expect_err("row 0 deadlocks"), net.blocked_cycles())
}

/// The watchdogs speak at the same cycle with the same words: the per-lane one (row 0
/// stuck while the others move) and the global one (nothing moves); with one chunk of
/// switches and with four (the last progress is the latest any chunk made).
#[test]
fn watchdogs_fire_in_the_same_cycle_with_blocks() {
    for until in [20_000, 300] {
        let (a, _) = deadlock(until, false);
        let (b, blocked) = deadlock(until, true);
        force_switch_chunk(Some(4));
        let (c, chunked) = deadlock(until, true);
        force_switch_chunk(None);
        assert!(blocked > 1_000, "{until}: {blocked} cycles in blocks");
        assert!(
            chunked > 1_000,
            "{until}: {chunked} cycles in chunked blocks"
        );
        assert_eq!(a.to_string(), b.to_string(), "{until}");
        assert_eq!(a.to_string(), c.to_string(), "{until}, four chunks");
        let global = matches!(a, NetError::Deadlock { .. });
        assert_eq!(global, until == 300, "{until}: {a}");
    }
}

/// On the 4-ary 2-cube, NICs 0, 4, 8 and 12 (column 0, one router in each chunk of four)
/// each send `count` 16-flit messages two routers down their column, NIC 4y at cycle
/// (3 - y) * `stagger`: the column's ring deadlocks without a dateline, its last flits
/// moving in the last chunk before the first.
struct ColumnBurst {
    count: u64,
    stagger: u64,
    next: u64,
}

impl Workload for ColumnBurst {
    fn tick(&mut self, now: u64, out: &mut Vec<Message>) {
        for y in 0..4 {
            if now != (3 - y) * self.stagger {
                continue;
            }
            for _ in 0..self.count {
                out.push(Message {
                    id: self.next,
                    src: NodeId(4 * y as u32),
                    dst: NodeId(4 * ((y as u32 + 2) % 4)),
                    bytes: 16 * 64,
                    tag: 0,
                    created: now,
                });
                self.next += 1;
            }
        }
    }
    fn delivered(&mut self, _now: u64, _d: &Delivery) {}
}

/// The global watchdog's cycle (`deadlock_cycles` after the last flit moved) is the same
/// through blocks with the switches in chunks of four and eight as stepped: the last
/// progress is the latest any chunk made in a block, not the last chunk's.
#[test]
fn the_last_progress_is_the_latest_of_any_chunk() {
    let cfg = NetConfig {
        deadlock_cycles: 500,
        ..ring_torus()
    };
    let run = |count: u64, stagger: u64, per: Option<u32>| {
        force_switch_chunk(per);
        let mut net = Network::with_cc(&cfg, &CcConfig::none(), EngineKind::Model, 1).unwrap();
        force_switch_chunk(None);
        let mut w = ColumnBurst {
            count,
            stagger,
            next: 0,
        };
        let e = match per {
            Some(_) => net.run(&mut w, 20_000),
            None => (0..20_000).try_for_each(|_| net.step(&mut w)),
        };
        let e = e.expect_err("column 0 deadlocks");
        assert!(matches!(e, NetError::Deadlock { .. }), "{count}: {e}");
        (e.to_string(), net.blocked_cycles())
    };
    for (count, stagger) in (1..=4).flat_map(|c| (1..=2).map(move |s| (c, s))) {
        let (a, _) = run(count, stagger, None);
        for per in [4, 8] {
            let (b, blocked) = run(count, stagger, Some(per));
            assert!(
                blocked > 100,
                "{count}, chunks of {per}: {blocked} in blocks"
            );
            assert_eq!(a, b, "{count} messages, {stagger} apart, chunks of {per}");
        }
    }
}
