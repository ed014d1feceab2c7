//! Per-packet ACKs (`[network] ack_bytes`; issue 22): real packets on the control-packet
//! path, one per data packet, carrying its scheme bits back to its source, with per-flow
//! outstanding counts at the sources.
//! - one ACK per data packet, lossless with the checker on, drains, every flow's count
//!   back to 0; the counts agree with packets sent and ACKs received all along; on today's
//!   switch, the CIOQ switch and the lane router, with `none` and PFT; deterministic and
//!   independent of the evaluation order;
//! - an ACK carries the bits switches set on its packet, and a scheme sees it at the
//!   source as an ACK (a test scheme that marks every head at its first switch);
//! - ACKs take link time: the same load delivers later with them;
//! - with `ack_vcs` the ACKs keep to their own class of lanes (the checker verifies every
//!   held lane's class) and the data to the other, deadlock-free under DOR and Duato;
//! - `ack_bytes` out of range is refused with the key and the range.

// `net::Network::build` takes a closure returning `Result<_, NetError>` (large; the library
// boxes it on its hot paths).
#![allow(clippy::result_large_err)]

use pft_sim::net::scheme::{Arrival, CreditGate, GateIn, GateOut, InputAt, Scheme, Seams};
use pft_sim::net::{
    BernoulliSource, Delivery, EvalOrder, NetConfig, NodeId, Pattern, TopologyConfig,
};
use pft_sim::{CcConfig, EngineKind, Network};

fn cfg(topology: TopologyConfig) -> NetConfig {
    NetConfig {
        topology,
        ack_bytes: Some(64),
        buffer_flits: 64,
        eject_buffer_flits: 64,
        mtu_bytes: 16 * 64,
        link_latency_cycles: 2,
        credit_latency_cycles: 2,
        check: true,
        deadlock_cycles: 5_000,
        ..NetConfig::default()
    }
}

fn configs() -> Vec<(&'static str, NetConfig)> {
    let tree = TopologyConfig::FatTree {
        radix: 8,
        leaves: 4,
    };
    vec![
        ("fat tree", cfg(tree)),
        (
            "4-ary 2-fly, CIOQ S = 2",
            NetConfig {
                speedup: Some(2),
                ..cfg(TopologyConfig::KaryNfly {
                    k: 4,
                    n: 2,
                    hosts: None,
                })
            },
        ),
        (
            "4-ary 2-cube, 2 lanes, ACKs of 2 flits",
            NetConfig {
                vcs: Some(2),
                vc_buf_flits: Some(4),
                ack_bytes: Some(100),
                ..cfg(TopologyConfig::Torus { k: 4, n: 2 })
            },
        ),
        (
            "4-ary 2-cube, 4 lanes, ACKs on lanes 2-3 (ack_vcs), data on 0-1",
            NetConfig {
                vcs: Some(4),
                vc_buf_flits: Some(4),
                ack_vcs: Some(2),
                ..cfg(TopologyConfig::Torus { k: 4, n: 2 })
            },
        ),
        (
            "4-ary 2-cube, Duato on 4 lanes, ACKs on a class of 3",
            NetConfig {
                vcs: Some(6),
                vc_buf_flits: Some(4),
                ack_vcs: Some(3),
                routing: Some(pft_sim::net::Routing::Duato),
                ..cfg(TopologyConfig::Torus { k: 4, n: 2 })
            },
        ),
    ]
}

#[test]
fn every_data_packet_gets_one_ack_and_the_flow_counts_agree() {
    let pft = CcConfig::Pft(pft_sim::PftConfig::default());
    for (name, c) in configs() {
        for cc in [CcConfig::none(), pft.clone()] {
            let go = |order| {
                let mut net = Network::with_cc(&c, &cc, EngineKind::Model, 3).unwrap();
                net.set_eval_order(order);
                let nodes = net.nodes();
                let mut w = BernoulliSource::new(nodes, Pattern::Uniform, 0.3, 16 * 64, 64, 4)
                    .logged()
                    .until(3_000);
                let mut seen_outstanding = false;
                for _ in 0..30 {
                    net.run(&mut w, 100)
                        .unwrap_or_else(|e| panic!("{name}, {}: {e}", cc.kind()));
                    // sources: packets sent = ACKs received + outstanding, flow by flow
                    for s in 0..nodes {
                        let st = net.nic_stats(NodeId(s));
                        let out: u64 = (0..nodes)
                            .map(|d| net.outstanding(NodeId(s), NodeId(d)) as u64)
                            .sum();
                        assert_eq!(
                            st.packets_injected,
                            st.acks_received + out,
                            "{name}: NIC {s}"
                        );
                        seen_outstanding |= out > 0;
                    }
                }
                assert!(seen_outstanding, "{name}: some packet waited for its ACK");
                assert!(
                    net.run_until_idle(&mut w, 100_000).unwrap(),
                    "{name}: drains"
                );
                assert_eq!(w.created, w.delivered, "{name}: lossless");
                let t = net.total_stats();
                assert!(t.packets_injected > 100, "{name}");
                assert_eq!(
                    t.acks_sent, t.packets_injected,
                    "{name}: one ACK per packet"
                );
                assert_eq!(
                    t.acks_received, t.packets_injected,
                    "{name}: every ACK arrives"
                );
                for s in 0..nodes {
                    for d in 0..nodes {
                        assert_eq!(net.outstanding(NodeId(s), NodeId(d)), 0, "{name}");
                    }
                }
                w.log.unwrap()
            };
            let a: Vec<Delivery> = go(EvalOrder::Forward);
            assert_eq!(a, go(EvalOrder::Forward), "{name}: deterministic");
            assert_eq!(a, go(EvalOrder::Reverse), "{name}: reverse order");
            assert_eq!(a, go(EvalOrder::Shuffled(5)), "{name}: shuffled order");
        }
    }
}

/// A test scheme: the plain credit gate; every data packet's head is marked with `MARK`
/// at a switch input; at the NICs it counts arrivals by kind.
struct MarkAll {
    gate: CreditGate,
    /// (data heads with MARK, ACKs with MARK, ACKs without)
    seen: (u64, u64, u64),
}

const MARK: u8 = 0x40;

impl Scheme for MarkAll {
    const MARKS: bool = true;
    const FLOWS: bool = true;
    fn seams(&self) -> Seams {
        Seams {
            flows: true,
            marks: true,
        }
    }
    fn gate(&mut self, n: u32, _now: u64, i: &GateIn) -> GateOut {
        self.gate.step(n, i)
    }
    fn used_credits(&self, n: u32) -> u16 {
        self.gate.used(n)
    }
    fn gate_error(&self, n: u32) -> Option<String> {
        self.gate.error(n)
    }
    fn head_arrived(&mut self, i: &InputAt) -> u8 {
        if i.control {
            0
        } else {
            MARK
        }
    }
    fn arrived(&mut self, _at: u32, a: &Arrival) {
        match (a.ack, a.bits & MARK != 0) {
            (false, true) => self.seen.0 += 1,
            (true, true) => self.seen.1 += 1,
            (true, false) => self.seen.2 += 1,
            (false, false) => {}
        }
    }
}

#[test]
fn an_ack_carries_its_packets_bits_back_to_the_source() {
    let c = cfg(TopologyConfig::FatTree {
        radix: 8,
        leaves: 4,
    });
    for acks in [Some(64), None] {
        let c = NetConfig {
            ack_bytes: acks,
            ..c.clone()
        };
        let mut net = pft_sim::net::Network::build(&c, 1, |ctx| {
            Ok(MarkAll {
                gate: CreditGate::new(ctx.nodes, ctx.cfg.buffer_flits as u16),
                seen: (0, 0, 0),
            })
        })
        .unwrap();
        let mut w = BernoulliSource::new(16, Pattern::Uniform, 0.3, 16 * 64, 64, 4).until(2_000);
        net.run(&mut w, 2_000).unwrap();
        assert!(net.run_until_idle(&mut w, 100_000).unwrap());
        let (data, acked, plain) = net.scheme().seen;
        let packets = net.total_stats().packets_injected;
        assert_eq!(data, packets, "every data head arrives marked");
        match acks {
            // every ACK is the copy of a marked packet's bits; none is marked on its own
            // way back (the test scheme does not mark control packets)
            Some(_) => assert_eq!((acked, plain), (packets, 0)),
            None => assert_eq!((acked, plain), (0, 0)),
        }
    }
}

#[test]
fn acks_take_link_time() {
    // a 2-leaf tree at a high load: with ACKs of 4 flits the same traffic is delivered
    // later (the ACKs use the links and the buffers)
    let base = NetConfig {
        ack_bytes: None,
        ..cfg(TopologyConfig::FatTree {
            radix: 8,
            leaves: 2,
        })
    };
    let finish = |c: &NetConfig| {
        let mut net = Network::with_cc(c, &CcConfig::none(), EngineKind::Model, 3).unwrap();
        let mut w = BernoulliSource::new(8, Pattern::Uniform, 0.8, 16 * 64, 64, 4).until(5_000);
        net.run(&mut w, 5_000).unwrap();
        assert!(net.run_until_idle(&mut w, 100_000).unwrap());
        net.now()
    };
    let without = finish(&base);
    let with = finish(&NetConfig {
        ack_bytes: Some(4 * 64),
        ..base.clone()
    });
    assert!(with > without, "with ACKs {with}, without {without}");
}

#[test]
fn an_ack_class_that_cannot_hold_the_routing_is_refused() {
    let torus = NetConfig {
        vcs: Some(4),
        ..cfg(TopologyConfig::Torus { k: 4, n: 2 })
    };
    for (c, want) in [
        (
            NetConfig {
                ack_vcs: Some(1),
                ..torus.clone()
            },
            "must be in 2..=2",
        ),
        (
            NetConfig {
                ack_vcs: Some(3),
                ..torus.clone()
            },
            "must be in 2..=2",
        ),
        (
            NetConfig {
                ack_vcs: Some(2),
                ack_bytes: None,
                ..torus.clone()
            },
            "needs `ack_bytes`",
        ),
        // too few lanes for any ack_vcs: `vcs` is what to change (not an empty range)
        (
            NetConfig {
                vcs: Some(3),
                ack_vcs: Some(2),
                ..torus.clone()
            },
            "`vcs` = 3: must be at least 4 with `ack_vcs`",
        ),
        (
            NetConfig {
                ack_vcs: Some(2),
                ..cfg(TopologyConfig::SingleSwitch { nodes: 4 })
            },
            "needs `vcs`",
        ),
    ] {
        let m = c.validate().expect_err(want).to_string();
        assert!(m.contains("ack_vcs") && m.contains(want), "{m}");
    }
}

#[test]
fn ack_bytes_out_of_range_is_refused() {
    let c = cfg(TopologyConfig::SingleSwitch { nodes: 4 });
    for b in [0, 16 * 64 + 1] {
        let e = NetConfig {
            ack_bytes: Some(b),
            ..c.clone()
        }
        .validate()
        .expect_err("out of range");
        let m = e.to_string();
        assert!(m.contains("ack_bytes") && m.contains("1..=1024"), "{m}");
    }
}
