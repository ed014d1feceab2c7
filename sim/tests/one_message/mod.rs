//! A workload of one 16-flit message (64-byte flits), created in cycle 0: for latency tests
//! on an idle network (`net_lanes`, `net_cioq`).

use pft_sim::net::{Delivery, Message, NodeId, Workload};

/// One 16-flit message from NIC `src` to NIC `dst`, created in cycle 0; `latency` is its
/// creation-to-delivery time once delivered.
pub struct One {
    pub src: u32,
    pub dst: u32,
    pub latency: Option<u64>,
}

impl One {
    pub fn new(src: u32, dst: u32) -> One {
        One {
            src,
            dst,
            latency: None,
        }
    }
}

impl Workload for One {
    fn tick(&mut self, now: u64, out: &mut Vec<Message>) {
        if now == 0 {
            out.push(Message {
                id: 0,
                src: NodeId(self.src),
                dst: NodeId(self.dst),
                bytes: 16 * 64,
                tag: 0,
                created: 0,
            });
        }
    }
    fn delivered(&mut self, _now: u64, d: &Delivery) {
        self.latency = Some(d.delivered - d.msg.created);
    }
}
