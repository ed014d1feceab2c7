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
