//! `send_queue_msgs`: a NIC's send queue holds at most that many messages that have not
//! started, and refuses the rest (the workload is told; nothing is lost or half-sent).

use pft_sim::cc::CcConfig;
use pft_sim::net::{Delivery, Message, NetConfig, NodeId, TopologyConfig, Workload};
use pft_sim::{EngineKind, Network};

/// NIC 0 hands over `per_cycle` one-packet messages to NIC 1 every cycle until `until`.
struct Flood {
    per_cycle: u32,
    until: u64,
    next: u64,
    refused: Vec<u64>,
    delivered: u64,
}

impl Workload for Flood {
    fn tick(&mut self, now: u64, out: &mut Vec<Message>) {
        if now >= self.until {
            return;
        }
        for _ in 0..self.per_cycle {
            out.push(Message {
                id: self.next,
                src: NodeId(0),
                dst: NodeId(1),
                bytes: 64,
                tag: 1,
                created: now,
            });
            self.next += 1;
        }
    }
    fn delivered(&mut self, _now: u64, _d: &Delivery) {
        self.delivered += 1;
    }
    fn refused(&mut self, _now: u64, m: &Message) {
        self.refused.push(m.id);
    }
}

#[test]
fn a_full_send_queue_refuses_messages_and_loses_none_it_took() {
    let cfg = NetConfig {
        topology: TopologyConfig::SingleSwitch { nodes: 4 },
        flit_bytes: 64,
        mtu_bytes: 64,
        buffer_flits: 4,
        eject_buffer_flits: 4,
        send_queue_msgs: Some(2),
        check: true,
        ..NetConfig::default()
    };
    let mut net = Network::with_cc(&cfg, &CcConfig::none(), EngineKind::Model, 1).unwrap();
    let mut w = Flood {
        per_cycle: 3,
        until: 200,
        next: 0,
        refused: Vec::new(),
        delivered: 0,
    };
    for t in 0..200 {
        net.step(&mut w).unwrap();
        let s = net.nic_stats(NodeId(0));
        assert!(
            s.messages_accepted - s.packets_injected <= 2,
            "cycle {t}: {} accepted, {} started",
            s.messages_accepted,
            s.packets_injected
        );
    }
    assert!(net.run_until_idle(&mut w, 10_000).unwrap());
    let s = net.nic_stats(NodeId(0));
    assert_eq!(s.messages_refused, w.refused.len() as u64);
    assert_eq!(s.messages_accepted + s.messages_refused, 600);
    assert!(
        s.messages_refused > 300,
        "one link takes at most one flit per cycle"
    );
    assert_eq!(
        w.delivered, s.messages_accepted,
        "every message taken is delivered"
    );
    // without a cap nothing is refused
    let open = NetConfig {
        send_queue_msgs: None,
        ..cfg
    };
    let mut net = Network::with_cc(&open, &CcConfig::none(), EngineKind::Model, 1).unwrap();
    let mut w = Flood {
        per_cycle: 3,
        until: 50,
        next: 0,
        refused: Vec::new(),
        delivered: 0,
    };
    net.run(&mut w, 50).unwrap();
    assert!(w.refused.is_empty());
    assert_eq!(net.nic_stats(NodeId(0)).messages_accepted, 150);
}

#[test]
fn send_queue_msgs_out_of_range_is_named() {
    let cfg = NetConfig {
        send_queue_msgs: Some(0),
        ..NetConfig::default()
    };
    let e = cfg.validate().unwrap_err().to_string();
    assert!(
        e.contains("send_queue_msgs") && e.contains("1..=1048576"),
        "{e}"
    );
}

/// Counts the hot-spot messages each source had delivered, around a hot-spot workload.
struct Counting<'a> {
    inner: &'a mut pft_sim::workload::HotspotWorkload,
    hot_delivered: Vec<u64>,
    hot_refused: u64,
}

impl Workload for Counting<'_> {
    fn tick(&mut self, now: u64, out: &mut Vec<Message>) {
        self.inner.tick(now, out)
    }
    fn delivered(&mut self, now: u64, d: &Delivery) {
        if d.msg.tag == pft_sim::workload::tag::HOTSPOT_HOT {
            self.hot_delivered[d.msg.src.index()] += 1;
        }
        self.inner.delivered(now, d)
    }
    fn refused(&mut self, now: u64, m: &Message) {
        if m.tag == pft_sim::workload::tag::HOTSPOT_HOT {
            self.hot_refused += 1;
        }
        self.inner.refused(now, m)
    }
}

#[test]
fn a_refused_message_does_not_count_toward_a_hot_spot_burst() {
    // 8 NICs, a send queue of one message, every C node bursting 30 ten-flit hot-spot
    // messages at load 1 into one hot spot: most tries are refused, and each C node still gets all 30
    // delivered (a refused message was never created). Before the fix the refused tries
    // counted toward the 30 and each burst delivered a fraction of it.
    use pft_sim::workload::{HotspotConfig, HotspotWorkload, NodeClass};
    const N: u32 = 8;
    let cfg = NetConfig {
        topology: TopologyConfig::SingleSwitch { nodes: N },
        flit_bytes: 64,
        mtu_bytes: 64,
        buffer_flits: 8,
        eject_buffer_flits: 8,
        send_queue_msgs: Some(1),
        check: true,
        ..NetConfig::default()
    };
    let hc = HotspotConfig {
        hotspots: 1,
        frac_c: 0.5,
        frac_v: 0.5,
        load: 1.0,
        msg_bytes: 640,
        hot_messages: Some(30),
        ..Default::default()
    };
    let mut hw = HotspotWorkload::new(&hc, N, 64, 3).unwrap();
    let senders: Vec<NodeId> = NodeId::all(N)
        .filter(|&n| hw.class_of(n) == NodeClass::C && !hw.is_hotspot(n))
        .collect();
    assert!(senders.len() >= 2, "{senders:?}");
    let mut net = Network::with_cc(&cfg, &CcConfig::none(), EngineKind::Model, 1).unwrap();
    let mut w = Counting {
        inner: &mut hw,
        hot_delivered: vec![0; N as usize],
        hot_refused: 0,
    };
    for _ in 0..20_000 {
        net.step(&mut w).unwrap();
    }
    let (hot_delivered, hot_refused) = (w.hot_delivered, w.hot_refused);
    assert!(
        hot_refused > 30,
        "only {hot_refused} refused: no contention"
    );
    for &n in &senders {
        assert_eq!(hot_delivered[n.index()], 30, "C node {n}");
        assert_eq!(hw.hot_created(n), 30, "C node {n}");
    }
    let refused: u64 = NodeId::all(N)
        .map(|n| net.nic_stats(n).messages_refused)
        .sum();
    assert!(refused >= 30, "{refused}");
}
