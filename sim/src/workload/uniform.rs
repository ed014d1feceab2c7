//! Uniform random traffic: every node sends to destinations drawn uniformly from the other
//! nodes, with Bernoulli or on/off (bursty) injection at a given load; or, with `pattern`,
//! to the destinations of a classic synthetic pattern (transpose, bit complement, bit
//! reversal, tornado, shift, hot spot).

use super::config::{check_workload, flits_for, ConfigErrors, MAX_MSG_BYTES};
use super::injection::{InjectionProcess, Injector};
use super::tag;
use crate::net::types::{Delivery, Message, NodeId, Workload};
use crate::net::Pattern;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::{Deserialize, Serialize};

/// Configuration of the `uniform` workload. Every field has a default (`#[serde(default)]`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct UniformConfig {
    /// Offered load per node, as a fraction of the injection link's bandwidth, i.e. payload
    /// flits per cycle per node (a message counts `ceil(msg_bytes / flit_bytes)` flits).
    /// Range 0..=1. Default 0.5.
    pub load: f64,
    /// Payload bytes per message. Range 1..=67108864. Default 256.
    pub msg_bytes: u32,
    /// Injection process. Default Bernoulli.
    pub injection: InjectionProcess,
    /// At most this many of a node's messages may be undelivered; a creation draw that finds
    /// the cap reached is dropped (the offered load then falls below `load`). `None` = open
    /// loop without a cap. Range >= 1. Default `None`.
    pub max_outstanding: Option<u32>,
    /// First cycle in which messages are created. Default 0.
    pub start_cycle: u64,
    /// No message is created in this cycle or later (`None` = never stop). Must be
    /// > `start_cycle`. Default `None`.
    pub stop_cycle: Option<u64>,
    /// Where messages go. Default `{ kind = "uniform" }`.
    #[serde(skip_serializing_if = "DestPattern::is_uniform")]
    pub pattern: DestPattern,
}

/// The destinations of the `uniform` workload (`pattern = { kind = ... }`): BookSim's
/// synthetic patterns. The permutations work on the b = log2(nodes) bits of a NIC number;
/// a NIC that a permutation maps to itself sends nothing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum DestPattern {
    /// Uniform over the other nodes.
    #[default]
    Uniform,
    /// The upper and lower b/2 bits swapped (4^j NICs).
    Transpose,
    /// Every bit inverted (a power of two NICs).
    Complement,
    /// The b bits in reverse order (a power of two NICs).
    BitReversal,
    /// Perfect shuffle: the b bits rotated left by one (a power of two NICs).
    Shuffle,
    /// On a k-ary n-cube (k^n NICs; default one ring of all NICs): each coordinate moves
    /// ceil(k/2) - 1 places plus.
    Tornado { k: Option<u32>, n: Option<u32> },
    /// NIC s sends to NIC (s + by) mod nodes.
    Shift { by: u32 },
    /// `percent` % of the messages to NIC `node`, the others uniform (the hot spot sends
    /// uniformly).
    HotSpot { node: u32, percent: u32 },
}

impl DestPattern {
    fn is_uniform(&self) -> bool {
        *self == DestPattern::Uniform
    }

    /// Its `kind`.
    pub fn kind(&self) -> &'static str {
        match self {
            DestPattern::Uniform => "uniform",
            DestPattern::Transpose => "transpose",
            DestPattern::Complement => "complement",
            DestPattern::BitReversal => "bit_reversal",
            DestPattern::Shuffle => "shuffle",
            DestPattern::Tornado { .. } => "tornado",
            DestPattern::Shift { .. } => "shift",
            DestPattern::HotSpot { .. } => "hot_spot",
        }
    }

    /// The network's pattern for `nodes` NICs, or why it cannot run there.
    pub fn pattern(&self, nodes: u32) -> Result<Pattern, String> {
        let p = match *self {
            DestPattern::Uniform => Pattern::Uniform,
            DestPattern::Transpose => Pattern::Transpose,
            DestPattern::Complement => Pattern::Complement,
            DestPattern::BitReversal => Pattern::BitReversal,
            DestPattern::Shuffle => Pattern::Shuffle,
            DestPattern::Tornado { k, n } => match (k, n) {
                (None, None) => Pattern::Tornado { k: nodes, n: 1 },
                (Some(k), Some(n)) => Pattern::Tornado { k, n },
                _ => return Err("give both k and n (or neither: one ring of all NICs)".into()),
            },
            DestPattern::Shift { by } => Pattern::Shift { by },
            DestPattern::HotSpot { node, percent } => {
                if percent > 100 {
                    return Err(format!("percent = {percent}: must be in 0..=100"));
                }
                Pattern::HotSpot {
                    dst: NodeId(node),
                    percent: percent as u8,
                }
            }
        };
        p.check(nodes)?;
        Ok(p)
    }
}

impl Default for UniformConfig {
    fn default() -> Self {
        UniformConfig {
            load: 0.5,
            msg_bytes: 256,
            injection: InjectionProcess::Bernoulli,
            max_outstanding: None,
            start_cycle: 0,
            stop_cycle: None,
            pattern: DestPattern::Uniform,
        }
    }
}

impl UniformConfig {
    /// Checks every field for a network of `nodes` endpoints.
    pub fn validate(&self, nodes: u32) -> Result<(), ConfigErrors> {
        let mut errs = ConfigErrors::default();
        errs.check_u64("nodes", nodes as u64, 2, super::config::MAX_NODES as u64);
        errs.check_f64("load", self.load, 0.0, 1.0);
        errs.check_u64("msg_bytes", self.msg_bytes as u64, 1, MAX_MSG_BYTES as u64);
        self.injection
            .validate(self.load, "injection", "load", &mut errs);
        if let Some(m) = self.max_outstanding {
            errs.check_u64("max_outstanding", m as u64, 1, u32::MAX as u64);
        }
        check_window(&mut errs, self.start_cycle, self.stop_cycle);
        if let Err(e) = self.pattern.pattern(nodes) {
            errs.push("pattern", self.pattern.kind(), e);
        }
        errs.into_result()
    }
}

pub(crate) fn check_window(errs: &mut ConfigErrors, start: u64, stop: Option<u64>) {
    if let Some(stop) = stop {
        if stop <= start {
            errs.push(
                "stop_cycle",
                stop,
                format!("allowed stop_cycle > start_cycle = {start}"),
            );
        }
    }
}

/// Uniform random traffic. Deterministic for a given (config, nodes, flit_bytes, seed) and a
/// given sequence of deliveries (the latter only matters with `max_outstanding`).
#[derive(Clone, Debug)]
pub struct UniformWorkload {
    cfg: UniformConfig,
    nodes: u32,
    inj: Injector,
    on: Vec<bool>,
    /// `Budget`: flits created per source.
    sent: Vec<u64>,
    outstanding: Vec<u32>,
    rng: Xoshiro256PlusPlus,
    next_id: u64,
    pattern: Pattern,
}

impl UniformWorkload {
    /// Builds the workload for `nodes` endpoints with flits of `flit_bytes` bytes.
    pub fn new(
        cfg: &UniformConfig,
        nodes: u32,
        flit_bytes: u32,
        seed: u64,
    ) -> Result<Self, ConfigErrors> {
        check_workload(nodes, flit_bytes, cfg.validate(nodes))?;
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let inj = Injector::new(
            &cfg.injection,
            cfg.load,
            flits_for(cfg.msg_bytes, flit_bytes),
        );
        let on = (0..nodes).map(|_| inj.initial_state(&mut rng)).collect();
        let pattern = cfg.pattern.pattern(nodes).unwrap_or(Pattern::Uniform); // validated
        Ok(UniformWorkload {
            pattern,
            cfg: cfg.clone(),
            nodes,
            inj,
            on,
            sent: vec![0; nodes as usize],
            outstanding: vec![0; nodes as usize],
            rng,
            next_id: 0,
        })
    }

    /// Messages created so far.
    pub fn messages_created(&self) -> u64 {
        self.next_id
    }
}

/// A destination drawn uniformly from all nodes except `src`.
pub(crate) fn uniform_other<R: Rng>(rng: &mut R, nodes: u32, src: NodeId) -> NodeId {
    let d = rng.gen_range(0..nodes - 1);
    NodeId(if d >= src.0 { d + 1 } else { d })
}

impl Workload for UniformWorkload {
    fn tick(&mut self, now: u64, out: &mut Vec<Message>) {
        if now < self.cfg.start_cycle || self.cfg.stop_cycle.is_some_and(|s| now >= s) {
            return;
        }
        for src in 0..self.nodes {
            let s = src as usize;
            // a permutation's destination; a NIC that maps to itself sends nothing
            let fixed = match self.pattern {
                Pattern::Uniform | Pattern::HotSpot { .. } => None,
                p => match p.permute(src, self.nodes) {
                    Some(d) => Some(NodeId(d)),
                    None => continue,
                },
            };
            if self.inj.is_budget() {
                let capped = self
                    .cfg
                    .max_outstanding
                    .is_some_and(|c| self.outstanding[s] >= c);
                if capped
                    || !self
                        .inj
                        .budget_due(self.sent[s], now - self.cfg.start_cycle)
                {
                    continue;
                }
                self.sent[s] += self.inj.budget_flits();
            } else if !self.inj.step(&mut self.on[s], &mut self.rng) {
                continue;
            }
            let dst = match (fixed, self.pattern) {
                (Some(d), _) => d,
                (None, Pattern::HotSpot { dst, percent }) => {
                    if self.rng.gen_range(0..100u32) < percent as u32 && dst.0 != src {
                        dst
                    } else {
                        uniform_other(&mut self.rng, self.nodes, NodeId(src))
                    }
                }
                _ => uniform_other(&mut self.rng, self.nodes, NodeId(src)),
            };
            if let Some(cap) = self.cfg.max_outstanding {
                if self.outstanding[src as usize] >= cap {
                    continue;
                }
            }
            self.outstanding[src as usize] += 1;
            out.push(Message {
                id: self.next_id,
                src: NodeId(src),
                dst,
                bytes: self.cfg.msg_bytes,
                tag: tag::UNIFORM,
                created: now,
            });
            self.next_id += 1;
        }
    }

    fn delivered(&mut self, _now: u64, d: &Delivery) {
        if let Some(o) = self.outstanding.get_mut(d.msg.src.index()) {
            *o = o.saturating_sub(1);
        }
    }
}
