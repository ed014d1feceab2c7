//! Seed 004's hot-spot burst in the `hotspot` workload: `hot_start_after_delivered` (the C
//! nodes stay idle until that many messages have been delivered, then start in the next
//! cycle) and `hot_messages` (each C node creates that many hot-spot messages and stops),
//! on the ideal test fabric. V and B nodes are unaffected, runs are deterministic, and the
//! keys combine with `hot_traffic`, `stop_cycle`, `move_period_cycles` and the budget
//! generator as docs/workloads.md says.

mod workload_fabric;

use pft_sim::net::{Message, NodeId};
use pft_sim::workload::{tag, HotspotConfig, HotspotWorkload, InjectionProcess, NodeClass};
use workload_fabric::Fabric;

const NODES: u32 = 32;

fn cfg() -> HotspotConfig {
    HotspotConfig {
        hotspots: 2,
        frac_c: 0.5,
        frac_v: 0.5,
        load: 0.3,
        msg_bytes: 64,
        hot_start_after_delivered: Some(500),
        hot_messages: Some(40),
        ..Default::default()
    }
}

/// Runs `c` on the ideal fabric (latency 20) for `cycles`; the workload and the fabric.
fn run(c: &HotspotConfig, cycles: u64, seed: u64) -> (HotspotWorkload, Fabric) {
    let mut w = HotspotWorkload::new(c, NODES, 64, seed).unwrap();
    let mut f = Fabric::ideal(NODES, 20);
    f.run_until(&mut w, cycles);
    (w, f)
}

fn of_class(w: &HotspotWorkload, msgs: &[Message], k: NodeClass) -> Vec<Message> {
    msgs.iter()
        .filter(|m| w.class_of(m.src) == k)
        .copied()
        .collect()
}

/// A C node that is its own subset's hot spot sends nothing (static hot spots).
fn c_senders(w: &HotspotWorkload) -> Vec<NodeId> {
    NodeId::all(NODES)
        .filter(|&n| w.class_of(n) == NodeClass::C && !w.is_hotspot(n))
        .collect()
}

#[test]
fn c_nodes_wait_for_the_nth_delivery_start_in_the_next_cycle_and_send_exactly_the_cap() {
    // load 1 with one-flit messages: a Bernoulli stream creates a message every cycle,
    // so the start and the stop are exact
    let c = HotspotConfig { load: 1.0, ..cfg() };
    let (w, f) = run(&c, 3000, 5);
    let nth = f.deliveries[499].delivered;
    assert_eq!(w.hot_start(), Some(nth + 1));
    assert_eq!(w.delivered_count(), f.deliveries.len() as u64);
    let cm = of_class(&w, &f.created, NodeClass::C);
    assert!(!cm.is_empty());
    assert!(
        cm.iter().all(|m| m.created > nth),
        "a C node created a message before the 500th delivery (cycle {nth})"
    );
    let senders = c_senders(&w);
    assert!(senders.len() >= 14, "{} C senders", senders.len());
    for &n in &senders {
        let mine: Vec<u64> = cm
            .iter()
            .filter(|m| m.src == n)
            .map(|m| m.created)
            .collect();
        // one per cycle from the cycle after the 500th delivery, 40 of them, then none
        let want: Vec<u64> = (nth + 1..nth + 41).collect();
        assert_eq!(mine, want, "C node {n}");
        assert_eq!(w.hot_created(n), 40);
    }
    for m in &cm {
        let sub = w.subset_of(m.src).unwrap() as usize;
        assert_eq!(m.dst, w.hotspots()[sub]);
        assert_eq!(m.tag, tag::HOTSPOT_HOT);
    }
    assert_eq!(
        w.first_c_hot_created(),
        Some(nth + 1),
        "the congestion period starts with the first C message"
    );
    assert_eq!(cm.len(), 40 * senders.len());
}

#[test]
fn at_a_lower_load_each_c_node_still_sends_exactly_hot_messages_and_stops() {
    let (w, f) = run(&cfg(), 40_000, 11);
    let nth = f.deliveries[499].delivered;
    let cm = of_class(&w, &f.created, NodeClass::C);
    assert!(cm.iter().all(|m| m.created > nth));
    // Bernoulli at 0.3: some C node starts within a few cycles of the trigger
    let first = cm.iter().map(|m| m.created).min().unwrap();
    assert!(
        first <= nth + 10,
        "first C message at {first}, trigger {nth}"
    );
    for n in c_senders(&w) {
        assert_eq!(cm.iter().filter(|m| m.src == n).count(), 40, "C node {n}");
    }
    // the burst is over well before the end: 40 messages at 0.3 per cycle
    let last = cm.iter().map(|m| m.created).max().unwrap();
    assert!(last < nth + 1000, "last C message at {last}");
}

#[test]
fn v_and_b_nodes_do_not_see_the_burst_and_runs_repeat() {
    let c = HotspotConfig {
        frac_c: 0.4,
        frac_v: 0.4,
        frac_b: 0.2,
        p_hot: 0.3,
        ..cfg()
    };
    let (w, f) = run(&c, 20_000, 3);
    assert!(w.hot_start().is_some());
    // the same workload whose C nodes never start: V and B nodes create exactly the
    // same messages (the C nodes draw from a stream of their own)
    let never = HotspotConfig {
        hot_start_after_delivered: Some(u64::MAX),
        ..c.clone()
    };
    let (w2, f2) = run(&never, 20_000, 3);
    assert_eq!(w2.hot_start(), None);
    assert!(of_class(&w2, &f2.created, NodeClass::C).is_empty());
    let key = |m: &Message| (m.src, m.dst, m.tag, m.created, m.bytes);
    for k in [NodeClass::V, NodeClass::B] {
        let a: Vec<_> = of_class(&w, &f.created, k).iter().map(key).collect();
        let b: Vec<_> = of_class(&w2, &f2.created, k).iter().map(key).collect();
        assert!(!a.is_empty());
        assert_eq!(a, b, "{k:?} nodes changed with the C nodes' burst");
    }
    // B nodes keep their hot share from the start: the keys are for C nodes only
    let b_hot_early = of_class(&w, &f.created, NodeClass::B)
        .iter()
        .filter(|m| m.tag == tag::HOTSPOT_HOT && m.created < 100)
        .count();
    assert!(b_hot_early > 0);
    // deterministic
    let (_, again) = run(&c, 20_000, 3);
    assert_eq!(f.created, again.created);
    assert_eq!(f.deliveries, again.deliveries);
    // another seed, another run
    let (_, other) = run(&c, 20_000, 4);
    assert_ne!(f.created, other.created);
}

#[test]
fn without_the_keys_c_nodes_start_at_start_cycle_unbounded() {
    let c = HotspotConfig {
        hot_start_after_delivered: None,
        hot_messages: None,
        start_cycle: 100,
        ..cfg()
    };
    let (w, f) = run(&c, 5000, 2);
    assert_eq!(w.hot_start(), Some(100));
    let cm = of_class(&w, &f.created, NodeClass::C);
    assert!(cm.iter().all(|m| m.created >= 100));
    assert!(cm.iter().map(|m| m.created).min().unwrap() < 120);
    // about 0.3 * 4900 per sender, far above any cap
    for n in c_senders(&w) {
        assert!(w.hot_created(n) > 1000, "{}", w.hot_created(n));
    }
    // only the cap: from start_cycle, exactly 40 each
    let capped = HotspotConfig {
        hot_messages: Some(40),
        ..c
    };
    let (w, f) = run(&capped, 5000, 2);
    let cm = of_class(&w, &f.created, NodeClass::C);
    assert!(cm.iter().map(|m| m.created).min().unwrap() < 120);
    for n in c_senders(&w) {
        assert_eq!(w.hot_created(n), 40);
    }
}

#[test]
fn hot_traffic_off_stop_cycle_and_moving_hot_spots() {
    // hot_traffic = false: C nodes never send, whatever the keys say
    let off = HotspotConfig {
        hot_traffic: false,
        ..cfg()
    };
    let (w, f) = run(&off, 10_000, 1);
    assert!(w.delivered_count() >= 500);
    assert!(of_class(&w, &f.created, NodeClass::C).is_empty());

    // stop_cycle ends the burst early: nothing at or after it, fewer than the cap
    let (w0, f0) = run(&cfg(), 10_000, 1);
    let start = w0.hot_start().unwrap();
    let stopped = HotspotConfig {
        stop_cycle: Some(start + 30),
        ..cfg()
    };
    let (w, f) = run(&stopped, 10_000, 1);
    assert_eq!(
        w.hot_start(),
        Some(start),
        "same deliveries before the stop"
    );
    assert!(f.created.iter().all(|m| m.created < start + 30));
    let cm = of_class(&w, &f.created, NodeClass::C);
    assert!(!cm.is_empty());
    assert!(c_senders(&w).iter().all(|&n| w.hot_created(n) < 40));
    assert!(of_class(&w0, &f0.created, NodeClass::C).len() > cm.len());

    // moving hot spots: each message goes to its subset's hot spot of its cycle, and each
    // C node still sends exactly the cap (a node that is its own hot spot for a while
    // waits for the next move)
    let moving = HotspotConfig {
        move_period_cycles: Some(60),
        ..cfg()
    };
    let (w, f) = run(&moving, 30_000, 7);
    let cm = of_class(&w, &f.created, NodeClass::C);
    let mut dsts = std::collections::BTreeSet::new();
    for m in &cm {
        let sub = w.subset_of(m.src).unwrap() as usize;
        assert_eq!(m.dst, w.hotspots_at(m.created)[sub]);
        dsts.insert(m.dst);
    }
    assert!(dsts.len() > 2, "the burst followed the moves: {dsts:?}");
    for n in NodeId::all(NODES).filter(|&n| w.class_of(n) == NodeClass::C) {
        assert_eq!(w.hot_created(n), 40, "C node {n}");
    }
}

#[test]
fn the_budget_generator_counts_a_c_nodes_budget_from_its_start() {
    let c = HotspotConfig {
        injection: InjectionProcess::Budget,
        load: 0.25,
        ..cfg()
    };
    let (w, f) = run(&c, 10_000, 9);
    let open = w.hot_start().unwrap();
    assert!(open > 100, "the trigger came late enough to matter: {open}");
    let senders = c_senders(&w);
    for &n in &senders {
        let mine: Vec<u64> = f
            .created
            .iter()
            .filter(|m| m.src == n)
            .map(|m| m.created)
            .collect();
        assert_eq!(mine.len(), 40);
        // one flit per message at 0.25: one every 4 cycles from the start, no banked
        // budget from the idle cycles before it
        let want: Vec<u64> = (0..40).map(|k| open + 3 + 4 * k).collect();
        assert_eq!(mine, want, "C node {n}");
    }
}

#[test]
fn bad_values_name_the_key() {
    let c = HotspotConfig {
        hot_start_after_delivered: Some(0),
        hot_messages: Some(0),
        ..cfg()
    };
    let e = c.validate(NODES).unwrap_err();
    assert!(e.names("hot_start_after_delivered"), "{e}");
    assert!(e.names("hot_messages"), "{e}");
    assert!(e.to_string().contains("allowed hot_messages >= 1"), "{e}");
    assert!(HotspotWorkload::new(&c, NODES, 64, 1).is_err());
    assert!(cfg().validate(NODES).is_ok());
}
