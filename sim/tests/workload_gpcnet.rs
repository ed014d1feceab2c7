//! GPCNeT-like workload: placement, congestor patterns, canary tests (exact timings on an
//! ideal fabric), windows, the eager incast, isolation, determinism, validation.

mod workload_fabric;

use pft_sim::metrics::{congestion_impact, summarize};
use pft_sim::net::types::Message;
use pft_sim::net::NodeId;
use pft_sim::workload::gpcnet::NodeRole;
use pft_sim::workload::gpcnet::SendProtocol;
use pft_sim::workload::{
    tag, CanaryTest, CongestorKind, GpcnetConfig, GpcnetWorkload, WorkloadConfig,
};
use std::collections::{BTreeMap, BTreeSet};
use workload_fabric::Fabric;

fn base(ppn: u32) -> GpcnetConfig {
    GpcnetConfig {
        ppn,
        canary_start_cycles: 200,
        lat_warmup_iters: 2,
        lat_iters: 5,
        lat_rings: 3,
        bw_msg_bytes: 1024,
        bw_warmup_iters: 1,
        bw_iters: 3,
        bw_rings: 2,
        allreduce_warmup_iters: 2,
        allreduce_iters: 6,
        // the network alone: exact fabric timings (host time has its own test)
        host_send_ns: 0.0,
        host_recv_ns: 0.0,
        // every congestor closed loop, so that windows have exact timings (the eager
        // incast has its own test)
        incast_protocol: SendProtocol::Rendezvous,
        ..Default::default()
    }
}

fn run(
    cfg: &GpcnetConfig,
    nodes: u32,
    mut f: Fabric,
    seed: u64,
    limit: u64,
) -> (GpcnetWorkload, Fabric) {
    let mut w = GpcnetWorkload::new(cfg, nodes, 16, seed).expect("valid");
    let done = f.run_while(&mut w, limit, |w| w.finished());
    assert!(done, "canaries did not finish in {limit} cycles");
    (w, f)
}

fn only(cfg: &GpcnetConfig, t: CanaryTest) -> GpcnetConfig {
    GpcnetConfig {
        canary_tests: vec![t],
        ..cfg.clone()
    }
}

#[test]
fn placement_is_80_20_with_four_interleaved_groups() {
    let w = GpcnetWorkload::new(&base(2), 40, 16, 5).unwrap();
    let l = w.layout();
    assert_eq!(l.canary_nodes.len(), 8);
    assert_eq!(l.groups.len(), 4);
    let kinds: Vec<_> = l.groups.iter().map(|g| g.kind).collect();
    assert_eq!(
        kinds,
        [
            CongestorKind::A2a,
            CongestorKind::Incast,
            CongestorKind::PutIncast,
            CongestorKind::GetBcast
        ]
    );
    let mut seen = BTreeSet::new();
    for (g, grp) in l.groups.iter().enumerate() {
        assert_eq!(grp.nodes.len(), 8, "32 congestor NICs dealt evenly");
        for (r, &n) in grp.nodes.iter().enumerate() {
            assert_eq!(
                l.roles[n.index()],
                NodeRole::Congestor {
                    group: g as u32,
                    rank: r as u32
                }
            );
            assert!(seen.insert(n));
        }
    }
    for (r, &n) in l.canary_nodes.iter().enumerate() {
        assert_eq!(l.roles[n.index()], NodeRole::Canary { rank: r as u32 });
        assert!(seen.insert(n));
    }
    assert_eq!(seen.len(), 40);
    // interleaved: the groups are not contiguous NIC ranges
    let g0: Vec<NodeId> = l.groups[0].nodes.clone();
    assert!(g0.windows(2).any(|p| p[1].0 != p[0].0 + 1));
    // 10 NICs is GPCNeT's minimum; 9 is refused
    assert!(GpcnetWorkload::new(&base(1), 10, 16, 0).is_ok());
    let e = GpcnetWorkload::new(&base(1), 9, 16, 0).unwrap_err();
    assert!(e.names("congestor_frac"), "{e}");
}

fn group_of(w: &GpcnetWorkload, n: NodeId) -> Option<usize> {
    match w.layout().roles[n.index()] {
        NodeRole::Congestor { group, .. } => Some(group as usize),
        _ => None,
    }
}

#[test]
fn congestor_patterns_stay_in_their_groups() {
    let mut cfg = base(2);
    cfg.canary_start_cycles = 1_000_000; // congestors only
    let nodes = 40;
    let mut w = GpcnetWorkload::new(&cfg, nodes, 16, 8).unwrap();
    let mut f = Fabric::ideal(nodes, 5);
    f.run_until(&mut w, 3000);
    let l = w.layout().clone();
    let root = |g: usize| l.groups[g].nodes[0];
    let mut a2a_pairs = BTreeSet::new();
    let mut incast_src = BTreeMap::new();
    let (mut puts, mut acks, mut reqs, mut resps) = (0u64, 0u64, 0u64, 0u64);
    for m in &f.created {
        assert!(
            tag::is_congestor(m.tag),
            "no canary traffic before the canaries start"
        );
        let (gs, gd) = (group_of(&w, m.src), group_of(&w, m.dst));
        assert!(
            gs.is_some() && gs == gd,
            "congestor traffic stays in its group: {m:?}"
        );
        let g = gs.unwrap();
        let kind = l.groups[g].kind;
        match m.tag {
            tag::CONGESTOR_A2A => {
                assert_eq!(kind, CongestorKind::A2a);
                assert_eq!(m.bytes, 4096);
                a2a_pairs.insert((m.src, m.dst));
            }
            tag::CONGESTOR_INCAST => {
                assert_eq!(kind, CongestorKind::Incast);
                assert_eq!((m.dst, m.bytes), (root(g), 4096));
                *incast_src.entry(m.src).or_insert(0u64) += 1;
            }
            tag::CONGESTOR_PUT => {
                assert_eq!(
                    (kind, m.dst, m.bytes),
                    (CongestorKind::PutIncast, root(g), 4096)
                );
                puts += 1;
            }
            tag::CONGESTOR_PUT_ACK => {
                assert_eq!((m.src, m.bytes), (root(g), 8));
                acks += 1;
            }
            tag::CONGESTOR_GET_REQ => {
                assert_eq!(
                    (kind, m.dst, m.bytes),
                    (CongestorKind::GetBcast, root(g), 8)
                );
                reqs += 1;
            }
            tag::CONGESTOR_GET_RESP => {
                assert_eq!((m.src, m.bytes), (root(g), 4096));
                resps += 1;
            }
            t => panic!("unexpected tag {t:#x}"),
        }
    }
    // all-to-all covers every ordered pair of its group's NICs
    let a2a = &l.groups[0].nodes;
    for &s in a2a {
        for &d in a2a {
            if s != d {
                assert!(a2a_pairs.contains(&(s, d)), "a2a pair {s}->{d} missing");
            }
        }
    }
    // every non-root incast NIC sends; window 1 and latency 5 give one send per 6 cycles
    // per process, i.e. 2 processes * 3000 / 6 = 1000 per NIC
    assert_eq!(incast_src.len(), 7);
    for (&n, &c) in &incast_src {
        assert!((995..=1000).contains(&c), "NIC {n}: {c} incast sends");
    }
    // put: one ack per put delivered; get: one response per request delivered
    assert!(puts > 0 && acks > 0 && reqs > 0 && resps > 0);
    assert!(
        acks <= puts && puts - acks <= 14,
        "{puts} puts, {acks} acks"
    );
    assert!(
        resps <= reqs && reqs - resps <= 14,
        "{reqs} reqs, {resps} resps"
    );
    // canary NICs get nothing
    let canary: BTreeSet<NodeId> = l.canary_nodes.iter().copied().collect();
    assert!(f
        .created
        .iter()
        .all(|m| !canary.contains(&m.src) && !canary.contains(&m.dst)));
}

/// Max messages of `tags` in flight per source NIC over the run.
fn max_in_flight(f: &Fabric, nodes: u32, tags: &[u32]) -> Vec<i64> {
    let mut ev: Vec<(u64, i64, NodeId)> = Vec::new();
    for m in f.created.iter().filter(|m| tags.contains(&m.tag)) {
        ev.push((m.created, 1, m.src));
    }
    for d in f.deliveries.iter().filter(|d| tags.contains(&d.msg.tag)) {
        ev.push((d.delivered, -1, d.msg.src));
    }
    ev.sort_by_key(|e| (e.0, e.1));
    let (mut cur, mut max) = (vec![0i64; nodes as usize], vec![0i64; nodes as usize]);
    for (_, d, s) in ev {
        cur[s.index()] += d;
        max[s.index()] = max[s.index()].max(cur[s.index()]);
    }
    max
}

/// The eager two-sided incast (the default): each sender process keeps `eager_window`
/// sends handed to its NIC and undelivered, whatever `congestor_window` says; the other
/// congestors keep their window.
#[test]
fn eager_incast_keeps_its_window_in_flight() {
    let mut cfg = base(3);
    cfg.canary_start_cycles = 1_000_000;
    cfg.incast_protocol = SendProtocol::Eager;
    cfg.eager_window = 5;
    cfg.congestor_window = 2;
    let nodes = 20;
    let mut w = GpcnetWorkload::new(&cfg, nodes, 16, 1).unwrap();
    let mut f = Fabric::limited(nodes, 4, 64);
    f.run_until(&mut w, 5000);
    let l = w.layout();
    for g in &l.groups {
        let want = match g.kind {
            CongestorKind::A2a => continue,
            CongestorKind::Incast => 3 * 5,
            _ => 3 * 2,
        };
        let tags = [
            tag::CONGESTOR_INCAST,
            tag::CONGESTOR_PUT,
            tag::CONGESTOR_GET_REQ,
        ];
        let max = max_in_flight(&f, nodes, &tags);
        for &n in &g.nodes[1..] {
            assert_eq!(max[n.index()], want, "NIC {n} of {:?}", g.kind);
        }
    }
}

#[test]
fn congestor_window_bounds_operations_in_flight() {
    let mut cfg = base(3);
    cfg.canary_start_cycles = 1_000_000;
    cfg.congestor_window = 2;
    let nodes = 20;
    let mut w = GpcnetWorkload::new(&cfg, nodes, 16, 1).unwrap();
    let mut f = Fabric::limited(nodes, 4, 64);
    f.run_until(&mut w, 5000);
    let max = max_in_flight(
        &f,
        nodes,
        &[
            tag::CONGESTOR_INCAST,
            tag::CONGESTOR_PUT,
            tag::CONGESTOR_GET_REQ,
        ],
    );
    let l = w.layout();
    for g in &l.groups {
        if g.kind == CongestorKind::A2a {
            continue;
        }
        for &n in &g.nodes[1..] {
            // 3 processes x window 2
            assert_eq!(max[n.index()], 6, "NIC {n} of {:?}", g.kind);
        }
        assert_eq!(max[g.nodes[0].index()], 0, "roots only answer");
    }
    // the a2a runs its rounds one after the other: one send in flight per process
    let a2a = max_in_flight(&f, nodes, &[tag::CONGESTOR_A2A]);
    for &n in &l.groups[0].nodes {
        assert_eq!(a2a[n.index()], 3);
    }
}

#[test]
fn latency_ping_pong_gives_one_sample_per_iteration_equal_to_the_fabric_latency() {
    let cfg = only(&base(1), CanaryTest::Latency);
    let nodes = 40; // 8 canaries
    let (w, f) = run(&cfg, nodes, Fabric::ideal(nodes, 7), 3, 100_000);
    let r = w.results();
    assert!(r.finished);
    let t = r.test(CanaryTest::Latency).unwrap();
    assert_eq!(t.processes.len(), 8);
    for p in &t.processes {
        assert_eq!(p.samples.len(), 15, "5 measured iterations x 3 rings");
        assert!(p.samples.iter().all(|&s| s == 7.0), "{:?}", p.samples);
        assert_eq!(p.ring_values, vec![7.0; 3]);
    }
    // each iteration takes 8 cycles (deliver at +7, react at +8); 7 iterations per ring
    let start = t.start_cycle.unwrap();
    assert_eq!(start, 200);
    assert_eq!(t.end_cycle.unwrap(), start + 3 * 7 * 8 - 1);
    // 8 B messages, two per process per iteration, to the two ring neighbours
    let lat: Vec<&Message> = f
        .created
        .iter()
        .filter(|m| m.tag == tag::CANARY_LATENCY)
        .collect();
    assert_eq!(lat.len(), 8 * 2 * 7 * 3);
    assert!(lat.iter().all(|m| m.bytes == 8));
    // a random ring per ring: the neighbour sets differ between rings
    let rings: Vec<BTreeSet<(NodeId, NodeId)>> = (0..3)
        .map(|k| {
            lat.iter()
                .filter(|m| (m.created - start) / 56 == k)
                .map(|m| (m.src.min(m.dst), m.src.max(m.dst)))
                .collect()
        })
        .collect();
    for r in &rings {
        assert_eq!(r.len(), 8, "a ring of 8 has 8 edges");
    }
    assert!(rings[0] != rings[1] || rings[1] != rings[2]);
}

/// Host time on one CPU per process (docs/workloads.md, "Host time"), with 16 B flits at
/// 100 Gb/s (1.28 ns per cycle): o_s = 12.8 ns = 10 cycles, o_r = 25.6 ns = 20 cycles.
/// An iteration posts two sends (NIC at +10 and +20) and completes two receives one after
/// the other: with fabric latency 7 they arrive at +17 and +27 while the CPU is busy, so
/// 2 o_s + 2 o_r = 60; with latency 30 they arrive at +40 and +50, so o_s + 30 + 2 o_r = 80.
#[test]
fn host_time_adds_send_and_receive_overheads_on_one_cpu() {
    let cfg = GpcnetConfig {
        host_send_ns: 12.8,
        host_recv_ns: 25.6,
        ..only(&base(1), CanaryTest::Latency)
    };
    let nodes = 40;
    for (latency, want) in [(7, 60.0), (30, 80.0)] {
        let mut w = GpcnetWorkload::new(&cfg, nodes, 16, 3).unwrap();
        assert_eq!(w.host_cycles(), (10, 20));
        let mut f = Fabric::ideal(nodes, latency);
        assert!(f.run_while(&mut w, 100_000, |w| w.finished()));
        let t = w.results().test(CanaryTest::Latency).unwrap().clone();
        for p in &t.processes {
            assert!(
                p.samples.iter().all(|&s| s == want),
                "latency {latency}: {:?}",
                p.samples
            );
        }
        // the NIC gets each message when its CPU has posted it: 10 and 20 cycles after
        // the iteration starts
        let start = t.start_cycle.unwrap();
        let first: Vec<u64> = f
            .created
            .iter()
            .filter(|m| m.tag == tag::CANARY_LATENCY && m.created < start + 30)
            .map(|m| m.created - start)
            .collect();
        assert_eq!(first.len(), 16, "{first:?}");
        assert!(first.iter().all(|&c| c == 10 || c == 20), "{first:?}");
    }
    // 0 ns on both sides: the network alone (the fabric's 7 cycles)
    let zero = GpcnetConfig {
        host_send_ns: 0.0,
        host_recv_ns: 0.0,
        ..cfg
    };
    let mut w = GpcnetWorkload::new(&zero, nodes, 16, 3).unwrap();
    assert_eq!(w.host_cycles(), (0, 0));
    let mut f = Fabric::ideal(nodes, 7);
    assert!(f.run_while(&mut w, 100_000, |w| w.finished()));
    let t = w.results().test(CanaryTest::Latency).unwrap().clone();
    assert!(t
        .processes
        .iter()
        .all(|p| p.samples.iter().all(|&s| s == 7.0)));
}

/// Host time on the congestors: an incast sender's CPU posts each send (o_s) and a put
/// origin also completes each acknowledgement (o_r), so with a fast fabric their rates are
/// set by the host: one operation per o_s + latency (incast) or per o_s + 2 latency + o_r
/// (put) cycles.
#[test]
fn host_time_paces_the_congestors() {
    let cfg = GpcnetConfig {
        host_send_ns: 12.8,
        host_recv_ns: 25.6,
        congestor_kinds: vec![CongestorKind::Incast, CongestorKind::PutIncast],
        canary_start_cycles: 1000,
        ..only(&base(1), CanaryTest::Latency)
    };
    let nodes = 40;
    let mut w = GpcnetWorkload::new(&cfg, nodes, 16, 3).unwrap();
    let mut f = Fabric::ideal(nodes, 5);
    f.run_while(&mut w, 1000, |_| false);
    let per_sender = |t: u32| {
        let mut by: BTreeMap<NodeId, u64> = BTreeMap::new();
        for m in f.created.iter().filter(|m| m.tag == t) {
            *by.entry(m.src).or_default() += 1;
        }
        by
    };
    // incast: a send every 10 + 5 + 1 cycles (post, deliver, react): 1000 / 16 = 62
    let incast = per_sender(tag::CONGESTOR_INCAST);
    let put = per_sender(tag::CONGESTOR_PUT);
    assert!(incast.len() >= 10 && put.len() >= 10, "{incast:?} {put:?}");
    for (&n, &c) in &incast {
        assert!((61..=63).contains(&c), "incast sender {n}: {c}");
    }
    // put: post 10, deliver 5, ack answered next cycle, deliver 5, complete 20, react 1
    for (&n, &c) in &put {
        assert!((23..=25).contains(&c), "put sender {n}: {c}");
    }
}

#[test]
fn bandwidth_posts_eight_per_neighbour_then_a_barrier() {
    let cfg = only(&base(1), CanaryTest::Bandwidth);
    let nodes = 40; // 8 canaries: 3 dissemination rounds
    let (w, f) = run(&cfg, nodes, Fabric::ideal(nodes, 5), 3, 100_000);
    let t = w.results().test(CanaryTest::Bandwidth).unwrap().clone();
    // data at +5, then 3 barrier rounds of 6 cycles: 23 cycles per iteration
    let want = (1024.0 * 8.0 * 2.0) / 23.0;
    for p in &t.processes {
        assert_eq!(p.samples.len(), 6);
        assert!(
            p.samples.iter().all(|&s| (s - want).abs() < 1e-9),
            "{:?}",
            p.samples
        );
        assert_eq!(p.ring_values.len(), 2);
    }
    let bw = f
        .created
        .iter()
        .filter(|m| m.tag == tag::CANARY_BANDWIDTH)
        .count();
    let bar = f
        .created
        .iter()
        .filter(|m| m.tag == tag::CANARY_BARRIER)
        .count();
    assert_eq!(
        bw,
        8 * 16 * 4 * 2,
        "8 procs x 16 msgs x 4 iterations x 2 rings"
    );
    assert_eq!(bar, 8 * 3 * 4 * 2);

    // On a bandwidth-limited fabric the window is still exactly 8 per direction.
    let (w, f) = run(&cfg, nodes, Fabric::limited(nodes, 5, 64), 3, 1_000_000);
    let max = max_in_flight(&f, nodes, &[tag::CANARY_BANDWIDTH]);
    for &n in &w.layout().canary_nodes {
        assert_eq!(max[n.index()], 16, "NIC {n}");
    }
    // 16 x 1 KiB through a 64 B/cycle port: at most 64 bytes/cycle
    let t = w.results().test(CanaryTest::Bandwidth).unwrap().clone();
    for p in &t.processes {
        assert!(
            p.samples.iter().all(|&s| s > 30.0 && s <= 64.0),
            "{:?}",
            p.samples
        );
    }
}

#[test]
fn allreduce_recursive_doubling_completes_with_exact_times() {
    let cfg = only(&base(1), CanaryTest::Allreduce);
    // 8 canaries (power of two): 3 exchange steps, each + 5 cycles, reactions +1: 17 cycles
    let (w, f) = run(&cfg, 40, Fabric::ideal(40, 5), 4, 100_000);
    let t = w.results().test(CanaryTest::Allreduce).unwrap().clone();
    for p in &t.processes {
        assert_eq!(p.samples.len(), 6);
        assert!(p.samples.iter().all(|&s| s == 17.0), "{:?}", p.samples);
    }
    let n = f
        .created
        .iter()
        .filter(|m| m.tag == tag::CANARY_ALLREDUCE)
        .count();
    assert_eq!(n, 8 * 3 * 8, "8 procs x 3 steps x 8 operations");

    // 6 canaries (not a power of two): MPICH's fold, 2 + 4*2 + 2 = 12 messages per operation
    let (w, f) = run(&cfg, 30, Fabric::ideal(30, 5), 4, 100_000);
    assert_eq!(w.layout().canary_nodes.len(), 6);
    let t = w.results().test(CanaryTest::Allreduce).unwrap().clone();
    let n = f
        .created
        .iter()
        .filter(|m| m.tag == tag::CANARY_ALLREDUCE)
        .count();
    assert_eq!(n, 12 * 8);
    let mut all = Vec::new();
    for p in &t.processes {
        assert_eq!(p.samples.len(), 6);
        all.extend(p.samples.iter().copied());
    }
    // the folded ranks wait for pre + 2 steps + post: 4*5 + 3 = 23 cycles
    assert!(all.iter().all(|&s| (17.0..=24.0).contains(&s)), "{all:?}");
    assert!(all.contains(&23.0));
}

#[test]
fn all_three_tests_run_in_sequence_with_several_processes_per_nic() {
    let cfg = base(4);
    let nodes = 20; // 4 canary NICs x 4 processes
    let (w, f) = run(&cfg, nodes, Fabric::limited(nodes, 3, 32), 6, 2_000_000);
    let r = w.results();
    assert_eq!(r.tests.len(), 3);
    let mut prev_end = 0;
    for t in &r.tests {
        assert_eq!(t.processes.len(), 16);
        let (s, e) = (t.start_cycle.unwrap(), t.end_cycle.unwrap());
        assert!(s > prev_end || prev_end == 0 && s == 200);
        prev_end = e;
        for p in &t.processes {
            assert!(!p.samples.is_empty());
            assert!(p.samples.iter().all(|s| s.is_finite() && *s > 0.0));
        }
    }
    // the congestors ran and were measured while the canaries ran
    assert!(r.congestors_on && r.measure_cycles > 0);
    assert_eq!(r.congestors.len(), 16 * 4);
    for c in &r.congestors {
        if c.kind == CongestorKind::A2a || !c.root {
            assert!(c.bytes > 0, "{c:?}");
        } else {
            assert_eq!(c.bytes, 0);
        }
    }
    // canary tags only between canary NICs
    let canary: BTreeSet<NodeId> = w.layout().canary_nodes.iter().copied().collect();
    for m in f.created.iter().filter(|m| tag::is_canary(m.tag)) {
        assert!(canary.contains(&m.src) && canary.contains(&m.dst));
    }
    let s = summarize(&r, 10);
    assert_eq!(s.groups.len(), 4);
    assert_eq!(
        s.groups[1].senders, 12,
        "incast: 3 non-root NICs x 4 processes"
    );
}

#[test]
fn isolated_runs_no_congestors_and_an_ideal_fabric_shows_no_impact() {
    let nodes = 40;
    let iso_cfg = GpcnetConfig {
        congestors: false,
        ..base(2)
    };
    let (wi, fi) = run(&iso_cfg, nodes, Fabric::ideal(nodes, 6), 12, 1_000_000);
    assert!(fi.created.iter().all(|m| tag::is_canary(m.tag)));
    assert!(wi.results().congestors.is_empty());
    let (wc, fc) = run(&base(2), nodes, Fabric::ideal(nodes, 6), 12, 1_000_000);
    assert!(fc.created.iter().any(|m| tag::is_congestor(m.tag)));
    // same seed: same canary traffic (placement and rings), and no interference in an
    // ideal fabric, so every CIF is exactly 1
    let canary = |f: &Fabric| -> Vec<(NodeId, NodeId, u64, u32)> {
        f.created
            .iter()
            .filter(|m| tag::is_canary(m.tag))
            .map(|m| (m.src, m.dst, m.created, m.tag))
            .collect()
    };
    assert_eq!(canary(&fi), canary(&fc));
    let cif = congestion_impact(&summarize(&wi.results(), 10), &summarize(&wc.results(), 10));
    assert_eq!(cif.factors.len(), 3);
    for f in &cif.factors {
        assert_eq!((f.avg, f.tail), (Some(1.0), Some(1.0)), "{f:?}");
    }
}

#[test]
fn deterministic_for_a_seed() {
    let nodes = 20;
    let go = |seed| {
        let mut w = GpcnetWorkload::new(&base(2), nodes, 16, seed).unwrap();
        let mut f = Fabric::limited(nodes, 4, 32);
        f.run_until(&mut w, 4000);
        (f.created, w.layout().clone())
    };
    let (a, la) = go(77);
    let (b, lb) = go(77);
    let (c, lc) = go(78);
    assert!(a.len() > 1000);
    assert_eq!(a, b);
    assert_eq!(la, lb);
    assert!(a != c || la != lc);
}

#[test]
fn validation_and_toml() {
    let bad = GpcnetConfig {
        ppn: 0,
        congestor_frac: 1.0,
        congestor_kinds: vec![CongestorKind::A2a, CongestorKind::A2a],
        canary_tests: vec![],
        bw_outstanding: 0,
        lat_iters: 0,
        ..Default::default()
    };
    let e = bad.validate(120).unwrap_err();
    for f in [
        "ppn",
        "congestor_frac",
        "congestor_kinds",
        "canary_tests",
        "bw_outstanding",
        "lat_iters",
    ] {
        assert!(e.names(f), "missing {f}: {e}");
    }
    assert!(e.to_string().contains("1 <= ppn <= 1024"), "{e}");
    assert!(GpcnetConfig::default().validate(120).is_ok());

    let c: WorkloadConfig = toml::from_str(
        "kind = \"gpcnet\"\nppn = 4\ncongestors = false\ncanary_tests = [\"allreduce\", \"latency\"]\ncongestor_kinds = [\"incast\"]\n",
    )
    .unwrap();
    let WorkloadConfig::Gpcnet(g) = &c else {
        panic!()
    };
    assert_eq!(
        g.canary_tests,
        vec![CanaryTest::Allreduce, CanaryTest::Latency]
    );
    assert_eq!(g.bw_outstanding, 8);
    assert!(c.validate(10).is_ok());
    let w = c.build(10, 16, 0).unwrap();
    assert!(!w.finished());
    assert!(toml::from_str::<WorkloadConfig>("kind = \"gpcnet\"\nppn_typo = 4\n").is_err());
}

/// A canary test's keys, the bandwidth test's barrier included, are warned about when
/// `canary_tests` leaves the test out (`barrier_msg_bytes` was not).
#[test]
fn a_left_out_canary_tests_keys_are_warned_about() {
    let w = |extra: &str| {
        pft_sim::scenario::Scenario::parse(&format!(
            "[network]\ntopology = {{ kind = \"single_switch\", nodes = 8 }}\n[workload]\nkind = \"gpcnet\"\ncanary_tests = [\"latency\"]\n{extra}\n"
        ))
        .unwrap()
        .warnings()
    };
    for key in ["bw_msg_bytes = 2048", "barrier_msg_bytes = 4096"] {
        let k = key.split(' ').next().unwrap();
        let ws = w(key);
        let want = format!("workload.{k} is set but changes nothing");
        assert!(ws.iter().any(|x| x.contains(&want)), "{key}: {ws:?}");
    }
    assert!(w("").is_empty(), "{:?}", w(""));
}
