//! A workload for lane tests (`net_lanes`, `net_blocks`) whose row 0 deadlocks on a 4-ary
//! 2-cube of one lane without a dateline while the other rows keep moving.

use pft_sim::net::{Delivery, Message, NodeId, Workload};

/// On a 4-ary 2-cube: NICs 0-3 (row 0) each send `count` 16-flit messages two routers on
/// in their row at cycle 0; NICs of rows 1-3 keep sending one message every 40 cycles to
/// the next NIC in their own row, until `until`. Rows never share a link under DOR.
pub struct RowBurst {
    pub count: u64,
    pub until: u64,
    pub next: u64,
    pub delivered: u64,
}

impl Workload for RowBurst {
    fn tick(&mut self, now: u64, out: &mut Vec<Message>) {
        let mut send = |src: u32, dst: u32| {
            out.push(Message {
                id: self.next,
                src: NodeId(src),
                dst: NodeId(dst),
                bytes: 16 * 64,
                tag: 0,
                created: now,
            });
            self.next += 1;
        };
        if now == 0 {
            for _ in 0..self.count {
                for x in 0..4 {
                    send(x, (x + 2) % 4);
                }
            }
        }
        if now < self.until && now.is_multiple_of(40) {
            for y in 1..4 {
                for x in 0..4 {
                    send(4 * y + x, 4 * y + (x + 1) % 4);
                }
            }
        }
    }
    fn delivered(&mut self, _now: u64, _d: &Delivery) {
        self.delivered += 1;
    }
}
