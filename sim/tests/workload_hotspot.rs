//! Hot-spot traffic: class fractions, subsets, B nodes' hot share, moving hot spots, incast
//! under a destination-limited fabric, determinism, validation.

mod workload_fabric;

use pft_sim::metrics::{jain_index, DeliveryStats};
use pft_sim::net::NodeId;
use pft_sim::workload::{tag, HotspotConfig, HotspotWorkload, NodeClass};
use workload_fabric::Fabric;

fn cfg(c: f64, v: f64, b: f64) -> HotspotConfig {
    HotspotConfig {
        hotspots: 4,
        frac_c: c,
        frac_v: v,
        frac_b: b,
        p_hot: 0.3,
        load: 0.5,
        msg_bytes: 64,
        ..Default::default()
    }
}

#[test]
fn classes_and_subsets_follow_the_fractions() {
    let w = HotspotWorkload::new(&cfg(0.5, 0.3, 0.2), 100, 16, 9).unwrap();
    let count = |k: NodeClass| (0..100).filter(|&n| w.class_of(NodeId(n)) == k).count();
    assert_eq!(
        (
            count(NodeClass::C),
            count(NodeClass::V),
            count(NodeClass::B)
        ),
        (50, 30, 20)
    );
    let mut c_sizes = [0u32; 4];
    let mut b_sizes = [0u32; 4];
    for n in 0..100 {
        match w.class_of(NodeId(n)) {
            NodeClass::C => c_sizes[w.subset_of(NodeId(n)).unwrap() as usize] += 1,
            NodeClass::B => b_sizes[w.subset_of(NodeId(n)).unwrap() as usize] += 1,
            NodeClass::V => assert_eq!(w.subset_of(NodeId(n)), None),
        }
    }
    assert!(c_sizes.iter().all(|&s| s == 12 || s == 13), "{c_sizes:?}");
    assert_eq!(b_sizes, [5, 5, 5, 5]);
    let hs = w.hotspots();
    assert_eq!(hs.len(), 4);
    let mut u = hs.to_vec();
    u.sort_unstable();
    u.dedup();
    assert_eq!(u.len(), 4, "distinct hot spots");
}

#[test]
fn c_send_to_their_hot_spot_v_uniform_b_split_by_p() {
    let (nodes, cycles) = (100u32, 20_000u64);
    let c = cfg(0.5, 0.3, 0.2);
    let mut w = HotspotWorkload::new(&c, nodes, 16, 4).unwrap();
    let mut f = Fabric::ideal(nodes, 3);
    f.run_until(&mut w, cycles);
    let hs = w.hotspots().to_vec();
    let (mut b_hot, mut b_all) = (0u64, 0u64);
    let mut c_flits = vec![0u64; nodes as usize];
    for m in &f.created {
        match w.class_of(m.src) {
            NodeClass::C => {
                assert_eq!(m.tag, tag::HOTSPOT_HOT);
                assert_eq!(m.dst, hs[w.subset_of(m.src).unwrap() as usize]);
                c_flits[m.src.index()] += 4;
            }
            NodeClass::V => assert_eq!(m.tag, tag::HOTSPOT_UNIFORM),
            NodeClass::B => {
                b_all += 1;
                if m.tag == tag::HOTSPOT_HOT {
                    b_hot += 1;
                    assert_eq!(m.dst, hs[w.subset_of(m.src).unwrap() as usize]);
                }
            }
        }
    }
    let share = b_hot as f64 / b_all as f64;
    let sd = (0.3 * 0.7 / b_all as f64).sqrt();
    assert!((share - 0.3).abs() < 5.0 * sd, "B hot share {share}");
    // each C node (not itself a hot spot) offers load 0.5: p = 0.5/4 messages per cycle
    let p = 0.125;
    let sd = (cycles as f64 * p * (1.0 - p)).sqrt() * 4.0;
    for n in 0..nodes {
        if w.class_of(NodeId(n)) == NodeClass::C && !hs.contains(&NodeId(n)) {
            let got = c_flits[n as usize] as f64;
            assert!(
                (got - 0.5 * cycles as f64).abs() < 5.0 * sd,
                "node {n}: {got}"
            );
        }
    }
}

#[test]
fn hot_spots_move_every_period_and_traffic_follows() {
    let mut c = cfg(0.8, 0.2, 0.0);
    c.move_period_cycles = Some(500);
    let nodes = 40;
    let mut w = HotspotWorkload::new(&c, nodes, 16, 21).unwrap();
    let mut f = Fabric::ideal(nodes, 2);
    f.run_until(&mut w, 5000);
    let h = w.history().to_vec();
    assert_eq!(h.len(), 10);
    for (k, e) in h.iter().enumerate() {
        assert_eq!(e.from_cycle, 500 * k as u64);
        assert_eq!(e.hotspots.len(), 4);
        if k > 0 {
            for s in 0..4 {
                assert_ne!(
                    e.hotspots[s],
                    h[k - 1].hotspots[s],
                    "subset {s} must switch"
                );
            }
        }
    }
    for m in f.created.iter().filter(|m| m.tag == tag::HOTSPOT_HOT) {
        let e = &h[(m.created / 500) as usize];
        assert_eq!(m.dst, e.hotspots[w.subset_of(m.src).unwrap() as usize]);
    }
    // same seed -> same moves and messages; the moves do not change the classes
    let mut w2 = HotspotWorkload::new(&c, nodes, 16, 21).unwrap();
    let mut f2 = Fabric::ideal(nodes, 2);
    f2.run_until(&mut w2, 5000);
    assert_eq!(w2.history(), &h[..]);
    assert_eq!(f2.created, f.created);
    let stat = HotspotWorkload::new(&cfg(0.8, 0.2, 0.0), nodes, 16, 21).unwrap();
    assert!((0..nodes).all(|n| stat.class_of(NodeId(n)) == w.class_of(NodeId(n))));
    let mut w3 = HotspotWorkload::new(&c, nodes, 16, 22).unwrap();
    let mut f3 = Fabric::ideal(nodes, 2);
    f3.run_until(&mut w3, 5000);
    assert_ne!(w3.history(), &h[..]);
}

#[test]
fn incast_saturates_the_hot_spot_and_shares_it_fairly() {
    // All C, one hot spot, full load: 7 senders into one destination that ejects 1 flit/cycle.
    let c = HotspotConfig {
        hotspots: 1,
        frac_c: 1.0,
        frac_v: 0.0,
        frac_b: 0.0,
        load: 1.0,
        msg_bytes: 64,
        max_outstanding: Some(4),
        ..Default::default()
    };
    let nodes = 8;
    let mut w = HotspotWorkload::new(&c, nodes, 16, 2).unwrap();
    let hs = w.hotspots()[0];
    let mut f = Fabric::limited(nodes, 10, 16);
    f.run_until(&mut w, 40_000);
    let mut st = DeliveryStats::new(nodes, 16, 5_000, 40_000);
    f.deliveries.iter().for_each(|d| st.record(d));
    let rep = st.report(None);
    let at_hot = rep.per_node[hs.index()].accepted_flits_per_cycle;
    assert!(
        at_hot > 0.97 && at_hot <= 1.0,
        "hot spot ejects {at_hot} flits/cycle"
    );
    for r in &rep.per_node {
        if r.node != hs {
            assert_eq!(r.accepted_bytes, 0, "only the hot spot receives");
        }
    }
    // each sender gets about 1/7 of the hot spot's bandwidth
    let sent: Vec<f64> = rep
        .per_node
        .iter()
        .filter(|r| r.node != hs)
        .map(|r| r.sent_bytes as f64)
        .collect();
    assert_eq!(sent.len(), 7);
    assert!(jain_index(&sent).unwrap() > 0.98);
    // queueing: message latency far above the unloaded 10 + 3 cycles
    let lat = rep
        .latency
        .iter()
        .find(|l| l.tag == tag::HOTSPOT_HOT)
        .unwrap();
    assert!(lat.total.unwrap().mean > 50.0, "{:?}", lat.total);
}

#[test]
fn validation_errors_name_fields() {
    let mut c = cfg(0.5, 0.3, 0.3);
    c.hotspots = 10;
    c.p_hot = 1.5;
    c.move_period_cycles = Some(0);
    let e = c.validate(10).unwrap_err();
    for f in [
        "frac_c + frac_v + frac_b",
        "hotspots",
        "p_hot",
        "move_period_cycles",
    ] {
        assert!(e.names(f), "missing {f}: {e}");
    }
    assert!(e.to_string().contains("1 <= hotspots <= 9"), "{e}");
    assert!(HotspotWorkload::new(&c, 10, 16, 0).is_err());
    assert!(cfg(0.5, 0.3, 0.2).validate(10).is_ok());
    let e = cfg(f64::NAN, 0.3, 0.2).validate(10).unwrap_err();
    assert!(e.names("frac_c"), "{e}");
}

/// The IB study's generator (`injection = budget`): each stream stays within its share of
/// the node's rate at every cycle, the node's DMA never exceeds the node's rate (plus one
/// banked message), a stream at `max_outstanding` waits and then uses the budget it kept,
/// and `hot_traffic = false` silences the hot streams.
#[test]
fn budget_streams_keep_their_shares_and_the_node_rate() {
    use pft_sim::net::{Delivery, Message, Workload};
    use pft_sim::workload::InjectionProcess;
    let (nodes, flit_bytes, msg_flits) = (40u32, 64u32, 8u64);
    let c = HotspotConfig {
        hotspots: 2,
        frac_c: 0.25,
        frac_v: 0.25,
        frac_b: 0.5,
        p_hot: 0.3,
        load: 0.6,
        msg_bytes: (msg_flits as u32) * flit_bytes,
        injection: InjectionProcess::Budget,
        max_outstanding: Some(4),
        ..Default::default()
    };
    let mut w = HotspotWorkload::new(&c, nodes, flit_bytes, 5).unwrap();
    let b_node = (0..nodes)
        .find(|&n| w.class_of(NodeId(n)) == NodeClass::B && !w.is_hotspot(NodeId(n)))
        .unwrap();
    // Deliver everything at once, except node b_node's hot stream in cycles 0..2000 (its
    // messages are stuck, as behind a throttled flow).
    let mut created = vec![[0u64; 2]; nodes as usize];
    let mut held: Vec<Message> = Vec::new();
    let mut out = Vec::new();
    for t in 0..6000u64 {
        out.clear();
        w.tick(t, &mut out);
        for m in &out {
            let s = (m.tag == tag::HOTSPOT_UNIFORM) as usize;
            created[m.src.index()][s] += msg_flits;
            let total = created[m.src.index()][0] + created[m.src.index()][1];
            let cap = c.load * (t + 1) as f64 + msg_flits as f64;
            assert!(
                total as f64 <= cap,
                "node {} over its DMA rate at {t}",
                m.src
            );
            let share = if w.class_of(m.src) == NodeClass::B {
                if s == 0 {
                    c.p_hot
                } else {
                    1.0 - c.p_hot
                }
            } else {
                1.0
            };
            let budget = share * c.load * (t + 1) as f64;
            assert!(
                created[m.src.index()][s] as f64 <= budget + 1e-9,
                "stream over budget at {t}"
            );
            if m.src == NodeId(b_node) && s == 0 && t < 2000 {
                held.push(*m);
            } else {
                w.delivered(
                    t,
                    &Delivery {
                        msg: *m,
                        injected: t,
                        delivered: t,
                        bits: 0,
                    },
                );
            }
        }
        if t == 2000 {
            for m in held.drain(..) {
                w.delivered(
                    t,
                    &Delivery {
                        msg: m,
                        injected: t,
                        delivered: t,
                        bits: 0,
                    },
                );
            }
        }
        if t == 1999 {
            // Held at max_outstanding: 4 messages, while the uniform stream went on.
            assert_eq!(created[b_node as usize][0], 4 * msg_flits);
            assert!(created[b_node as usize][1] as f64 >= 0.69 * 0.6 * 1999.0 - 8.0);
        }
    }
    // After the stall the hot stream ran faster than its share (it kept its budget, and the
    // DMA alternates between the two due streams), without passing its budget (above).
    let after = created[b_node as usize][0] as f64 - 4.0 * msg_flits as f64;
    assert!(
        after > 0.3 * 0.6 * 4000.0 + 2.0 * msg_flits as f64,
        "hot stream {after}"
    );
    // A C node at full rate: its whole load goes to its hot spot.
    let c_node = (0..nodes)
        .find(|&n| w.class_of(NodeId(n)) == NodeClass::C && !w.is_hotspot(NodeId(n)))
        .unwrap();
    let got = created[c_node as usize][0] as f64;
    assert!(
        (got - 0.6 * 6000.0).abs() <= msg_flits as f64,
        "C node {got}"
    );

    let quiet = HotspotConfig {
        hot_traffic: false,
        ..c.clone()
    };
    let mut w = HotspotWorkload::new(&quiet, nodes, flit_bytes, 5).unwrap();
    let mut any = Vec::new();
    for t in 0..3000 {
        w.tick(t, &mut any);
    }
    assert!(!any.is_empty(), "V and B nodes still send uniformly");
    assert!(
        any.iter().all(|m| m.tag == tag::HOTSPOT_UNIFORM),
        "no hot traffic"
    );
}
