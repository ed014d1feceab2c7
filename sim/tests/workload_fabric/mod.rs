//! Test double of the network for workload and metrics tests: an ideal fabric that delivers
//! every message after a fixed latency, optionally limited to one flit per cycle per source
//! (injection) and per destination (ejection), FIFO in creation order, which lets tests see
//! incast behaviour. Clock contract as the real network: `tick(now)` first, then the
//! deliveries of cycle `now`.
#![allow(dead_code)]

use pft_sim::net::types::{Delivery, Message, Workload};
use pft_sim::workload::{UniformConfig, UniformWorkload};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

pub struct Fabric {
    pub latency: u64,
    pub flit_bytes: u32,
    pub src_limit: bool,
    pub dst_limit: bool,
    src_free: Vec<u64>,
    dst_free: Vec<u64>,
    heap: BinaryHeap<Reverse<(u64, u64)>>,
    pending: Vec<Option<Delivery>>,
    /// Every message the workload created, in creation order.
    pub created: Vec<Message>,
    /// Every delivery, in delivery order.
    pub deliveries: Vec<Delivery>,
    out: Vec<Message>,
    pub now: u64,
}

impl Fabric {
    /// Unlimited bandwidth: each message is delivered `latency` cycles after its creation.
    pub fn ideal(nodes: u32, latency: u64) -> Fabric {
        Fabric::new(nodes, latency, 1, false, false)
    }

    /// One flit per cycle per source and per destination (`flit_bytes` per flit).
    pub fn limited(nodes: u32, latency: u64, flit_bytes: u32) -> Fabric {
        Fabric::new(nodes, latency, flit_bytes, true, true)
    }

    pub fn new(
        nodes: u32,
        latency: u64,
        flit_bytes: u32,
        src_limit: bool,
        dst_limit: bool,
    ) -> Fabric {
        assert!(latency >= 1);
        Fabric {
            latency,
            flit_bytes,
            src_limit,
            dst_limit,
            src_free: vec![0; nodes as usize],
            dst_free: vec![0; nodes as usize],
            heap: BinaryHeap::new(),
            pending: Vec::new(),
            created: Vec::new(),
            deliveries: Vec::new(),
            out: Vec::new(),
            now: 0,
        }
    }

    fn flits(&self, bytes: u32) -> u64 {
        (bytes as u64).div_ceil(self.flit_bytes as u64).max(1)
    }

    /// One cycle.
    pub fn step<W: Workload>(&mut self, w: &mut W) {
        let now = self.now;
        self.out.clear();
        w.tick(now, &mut self.out);
        let msgs = std::mem::take(&mut self.out);
        for m in &msgs {
            assert_eq!(
                m.created, now,
                "a message must be created in the cycle it is handed over"
            );
            assert!(m.bytes > 0 && m.src != m.dst);
            let f = self.flits(m.bytes);
            let (injected, head_out) = if self.src_limit {
                let s = &mut self.src_free[m.src.index()];
                let inj = now.max(*s);
                *s = inj + f;
                (inj, inj + f - 1)
            } else {
                (now, now)
            };
            let arrive = head_out + self.latency;
            let delivered = if self.dst_limit {
                let d = &mut self.dst_free[m.dst.index()];
                let start = arrive.max(*d);
                let done = start + f - 1;
                *d = done + 1;
                done
            } else {
                now + self.latency
            };
            let idx = self.pending.len() as u64;
            self.pending.push(Some(Delivery {
                msg: *m,
                injected,
                delivered,
                bits: 0,
            }));
            self.heap.push(Reverse((delivered, idx)));
        }
        self.created.extend_from_slice(&msgs);
        self.out = msgs;
        while let Some(Reverse((t, idx))) = self.heap.peek().copied() {
            if t > now {
                break;
            }
            self.heap.pop();
            let d = self.pending[idx as usize].take().expect("delivered once");
            w.delivered(now, &d);
            self.deliveries.push(d);
        }
        self.now += 1;
    }

    /// Runs until cycle `end` (exclusive).
    pub fn run_until<W: Workload>(&mut self, w: &mut W, end: u64) {
        while self.now < end {
            self.step(w);
        }
    }

    /// Runs until `done(w)` or cycle `limit`; returns true when `done`.
    pub fn run_while<W: Workload>(
        &mut self,
        w: &mut W,
        limit: u64,
        done: impl Fn(&W) -> bool,
    ) -> bool {
        while self.now < limit {
            if done(w) {
                return true;
            }
            self.step(w);
        }
        done(w)
    }

    /// Messages created but not yet delivered.
    pub fn in_flight(&self) -> usize {
        self.heap.len()
    }
}

/// `cfg` on an ideal fabric of `nodes` NICs (latency 5) up to cycle `cycles`.
pub fn run_uniform(cfg: &UniformConfig, nodes: u32, flit: u32, seed: u64, cycles: u64) -> Fabric {
    let mut w = UniformWorkload::new(cfg, nodes, flit, seed).expect("valid");
    let mut f = Fabric::ideal(nodes, 5);
    f.run_until(&mut w, cycles);
    f
}

/// Per-source created flits.
pub fn flits_by_src(msgs: &[Message], nodes: u32, flit: u32) -> Vec<u64> {
    let mut v = vec![0u64; nodes as usize];
    for m in msgs {
        v[m.src.index()] += (m.bytes as u64).div_ceil(flit as u64);
    }
    v
}
