//! `BernoulliSource`: a minimal built-in workload for tests and benchmarks (the real
//! workloads live in `crate::workload`). Every cycle, every source NIC starts a message of
//! `msg_bytes` with probability load / flits-per-message, so the offered load is `load`
//! flits per cycle per source; destinations are uniform over the other nodes, or one node
//! (incast). Seeded xoshiro256++: same seed, same messages.

use super::types::{Delivery, Message, NodeId, Workload};
use rand::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// Where messages go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pattern {
    /// Uniform over all nodes but the source.
    Uniform,
    /// Every other node sends to `dst`.
    Incast { dst: NodeId },
    /// NIC `s` sends to NIC `(s + by) mod nodes` (a shift permutation; nothing when `by` is a
    /// multiple of `nodes`).
    Shift { by: u32 },
}

/// Bernoulli message source.
#[derive(Clone, Debug)]
pub struct BernoulliSource {
    nodes: u32,
    pattern: Pattern,
    threshold: u64,
    msg_bytes: u32,
    rng: Xoshiro256PlusPlus,
    next_id: u64,
    /// No new message from this cycle on.
    pub stop_at: u64,
    /// Messages created so far.
    pub created: u64,
    /// Messages delivered so far.
    pub delivered: u64,
    /// Every delivery, in order, when `Some`.
    pub log: Option<Vec<Delivery>>,
}

impl BernoulliSource {
    /// `load`: offered flits per cycle per source, in 0..=1; `flit_bytes` converts
    /// `msg_bytes` into flits.
    ///
    /// # Panics
    /// On `nodes < 2`, `load` outside 0..=1 (or NaN), `msg_bytes == 0` or `flit_bytes == 0`.
    /// This is a test and benchmark source; tools validate user input before calling it
    /// (`net-bench` does).
    pub fn new(
        nodes: u32,
        pattern: Pattern,
        load: f64,
        msg_bytes: u32,
        flit_bytes: u32,
        seed: u64,
    ) -> Self {
        assert!(nodes >= 2, "a source needs two nodes");
        assert!((0.0..=1.0).contains(&load), "load {load} not in 0..=1");
        assert!(
            msg_bytes > 0 && flit_bytes > 0,
            "msg_bytes and flit_bytes must be positive"
        );
        let flits = msg_bytes.div_ceil(flit_bytes) as f64;
        let p = (load / flits).min(1.0);
        BernoulliSource {
            nodes,
            pattern,
            threshold: if p >= 1.0 {
                u64::MAX
            } else {
                (p * 18_446_744_073_709_551_616.0) as u64
            },
            msg_bytes,
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            next_id: 0,
            stop_at: u64::MAX,
            created: 0,
            delivered: 0,
            log: None,
        }
    }

    /// Keep every delivery in `log`.
    pub fn logged(mut self) -> Self {
        self.log = Some(Vec::new());
        self
    }

    /// Stop creating messages at cycle `stop_at`.
    pub fn until(mut self, stop_at: u64) -> Self {
        self.stop_at = stop_at;
        self
    }
}

impl Workload for BernoulliSource {
    fn tick(&mut self, now: u64, out: &mut Vec<Message>) {
        if now >= self.stop_at {
            return;
        }
        for src in NodeId::all(self.nodes) {
            match self.pattern {
                Pattern::Incast { dst } if src == dst => continue,
                Pattern::Shift { by } if by % self.nodes == 0 => continue,
                _ => {}
            }
            if self.rng.next_u64() >= self.threshold {
                continue;
            }
            let dst = match self.pattern {
                Pattern::Uniform => {
                    let r = (((self.rng.next_u64() >> 32) * (self.nodes as u64 - 1)) >> 32) as u32;
                    NodeId(if r >= src.0 { r + 1 } else { r })
                }
                Pattern::Incast { dst } => dst,
                Pattern::Shift { by } => NodeId((src.0 + by % self.nodes) % self.nodes),
            };
            out.push(Message {
                id: self.next_id,
                src,
                dst,
                bytes: self.msg_bytes,
                tag: 0,
                created: now,
            });
            self.next_id += 1;
            self.created += 1;
        }
    }

    fn delivered(&mut self, _now: u64, d: &Delivery) {
        self.delivered += 1;
        if let Some(log) = &mut self.log {
            log.push(*d);
        }
    }
}
