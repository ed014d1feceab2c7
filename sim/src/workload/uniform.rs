//! Uniform random traffic: every node sends to destinations drawn uniformly from the other
//! nodes, with Bernoulli or on/off (bursty) injection at a given load; or, with `pattern`,
//! to the destinations of a classic synthetic pattern (transpose, bit complement, bit
//! reversal, tornado, shift, hot spot). With `phases` (seed 003's bursty load) the nodes
//! instead create messages periodically, in a repeating list of phases that each have their
//! own interval and pattern.

use super::config::{check_workload, flits_for, ConfigErrors, MAX_MSG_BYTES};
use super::injection::{InjectionProcess, Injector};
use super::tag;
use crate::net::types::{Delivery, Message, NodeId, Workload};
use crate::net::Pattern;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::{Deserialize, Serialize};

mod pattern;
use pattern::check_pattern;
pub use pattern::DestPattern;

/// Configuration of the `uniform` workload. Every field has a default (`#[serde(default)]`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct UniformConfig {
    /// Offered load per node, as a fraction of the injection link's bandwidth, i.e. payload
    /// flits per cycle per node (a message counts `ceil(msg_bytes / flit_bytes)` flits).
    /// Range 0..=1. Default 0.5. Not with `phases` (a value other than the default is
    /// refused: each phase's `interval_cycles` sets the rate; `mean_load` gives the
    /// sequence's mean).
    pub load: f64,
    /// Payload bytes per message. Range 1..=67108864. Default 256.
    pub msg_bytes: u32,
    /// Injection process. Default Bernoulli. Not with `phases` (refused).
    pub injection: InjectionProcess,
    /// At most this many of a node's messages may be undelivered; a creation draw that finds
    /// the cap reached is dropped (the offered load then falls below `load`). `None` = open
    /// loop without a cap. Range >= 1. Default `None`.
    pub max_outstanding: Option<u32>,
    /// First cycle in which messages are created. Default 0.
    pub start_cycle: u64,
    /// No message is created in this cycle or later (`None` = never stop). Must be
    /// > `start_cycle` and at most 10^10 (`config::MAX_CYCLE`). Default `None`.
    pub stop_cycle: Option<u64>,
    /// Where messages go. Default `{ kind = "uniform" }`. Not with `phases` (refused: each
    /// phase has its own `pattern`).
    #[serde(skip_serializing_if = "DestPattern::is_uniform")]
    pub pattern: DestPattern,
    /// Phases of periodic creation (`[[workload.phases]]`, seed 003's bursty load). They run
    /// in order from `start_cycle` and the list repeats until `stop_cycle` or the run's end;
    /// in each, every node creates one message every `interval_cycles` cycles, to the
    /// phase's `pattern`. Replaces `load`, `injection` and `pattern`. Default empty: the
    /// injection process at `load`, as above.
    #[serde(
        skip_serializing_if = "Vec::is_empty",
        deserialize_with = "crate::net::config::tables_only"
    )]
    pub phases: Vec<Phase>,
}

/// One phase of the `uniform` workload's `phases`: for `cycles` cycles, every node creates
/// one message every `interval_cycles` cycles (the first at an offset drawn uniformly from
/// `0..interval_cycles` for each node and each occurrence of the phase), to `pattern`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Phase {
    /// Length of the phase, cycles. Range >= 1. Required.
    pub cycles: u64,
    /// A node creates one message every this many cycles in the phase (seed 003: 15 in the
    /// high phases, 1,500 in the low ones). Range >= 1. Required.
    pub interval_cycles: u32,
    /// Where the phase's messages go. Default `{ kind = "uniform" }`.
    #[serde(default, skip_serializing_if = "DestPattern::is_uniform")]
    pub pattern: DestPattern,
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
            phases: Vec::new(),
        }
    }
}

impl UniformConfig {
    /// Fills in `group_shift`'s `group` where it is not given, here and in every phase: on
    /// a dragonfly of `group` NICs a group (after parsing, before validation).
    pub fn resolve_groups(&mut self, group: u32) {
        self.pattern.resolve_group(group);
        for p in &mut self.phases {
            p.pattern.resolve_group(group);
        }
    }

    /// Checks every field for a network of `nodes` endpoints (with `phases`: every phase,
    /// and that `injection` and `pattern` are not given; `load` is ignored).
    pub fn validate(&self, nodes: u32) -> Result<(), ConfigErrors> {
        let mut errs = ConfigErrors::default();
        let phased = !self.phases.is_empty();
        errs.check_u64("nodes", nodes as u64, 2, super::config::MAX_NODES as u64);
        if !phased {
            errs.check_f64("load", self.load, 0.0, 1.0);
        }
        errs.check_u64("msg_bytes", self.msg_bytes as u64, 1, MAX_MSG_BYTES as u64);
        if !phased {
            self.injection
                .validate(self.load, "injection", "load", &mut errs);
        }
        if let Some(m) = self.max_outstanding {
            errs.check_u64("max_outstanding", m as u64, 1, u32::MAX as u64);
        }
        check_window(&mut errs, self.start_cycle, self.stop_cycle);
        if phased {
            self.check_phases(nodes, &mut errs);
        } else {
            check_pattern(&self.pattern, nodes, "pattern", &mut errs);
        }
        errs.into_result()
    }

    /// `validate`'s checks of `phases` (not empty): the keys it replaces, then each phase.
    fn check_phases(&self, nodes: u32, errs: &mut ConfigErrors) {
        const WITH: &str = "cannot be combined with `workload.phases`";
        if self.load != UniformConfig::default().load {
            errs.push(
                "load",
                self.load,
                format!("{WITH} (each phase's interval_cycles sets the rate)"),
            );
        }
        if self.injection != InjectionProcess::Bernoulli {
            errs.push(
                "injection",
                self.injection.kind(),
                format!("{WITH} (a phase creates its messages every interval_cycles cycles)"),
            );
        }
        if self.pattern != DestPattern::Uniform {
            errs.push(
                "pattern",
                self.pattern.kind(),
                format!("{WITH} (give each phase its own `pattern`)"),
            );
        }
        for (i, p) in self.phases.iter().enumerate() {
            for (key, v, most) in [
                ("cycles", p.cycles, None),
                ("interval_cycles", p.interval_cycles as u64, Some(u32::MAX)),
            ] {
                if v == 0 {
                    let field = format!("phases[{i}].{key}");
                    let rule = match most {
                        Some(m) => format!("must be in 1..={m}"),
                        None => format!("allowed {field} >= 1"),
                    };
                    errs.push(&field, v, rule);
                }
            }
            check_pattern(&p.pattern, nodes, &format!("phases[{i}].pattern"), errs);
        }
    }

    /// The offered load this configuration means, payload flits per cycle per node, for
    /// flits of `flit_bytes` bytes: `load` without `phases`; with `phases`, the phases'
    /// rates (`flits_per_msg / interval_cycles`) weighted by their `cycles` (one message
    /// per interval is also the mean when the interval does not divide the phase). Before
    /// any cap (`max_outstanding`) and counting the NICs a permutation silences as senders.
    /// Never NaN for a validated configuration.
    pub fn mean_load(&self, flit_bytes: u32) -> f64 {
        if self.phases.is_empty() {
            return self.load;
        }
        let flits = flits_for(self.msg_bytes, flit_bytes) as f64;
        let (mut cycles, mut flit_cycles) = (0.0f64, 0.0f64);
        for p in &self.phases {
            cycles += p.cycles as f64;
            flit_cycles += p.cycles as f64 * flits / p.interval_cycles.max(1) as f64;
        }
        if cycles > 0.0 {
            flit_cycles / cycles
        } else {
            0.0
        }
    }
}

pub(crate) fn check_window(errs: &mut ConfigErrors, start: u64, stop: Option<u64>) {
    if let Some(stop) = stop {
        let max = super::config::MAX_CYCLE;
        if stop > max {
            errs.push(
                "stop_cycle",
                stop,
                format!("allowed start_cycle < stop_cycle <= {max} (the longest run)"),
            );
        } else if stop <= start {
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
    /// `phases`: where the run is in them (None without phases).
    clock: Option<PhaseClock>,
    /// The table of every `permutation` pattern in use, by its seed (entry s is s's
    /// destination).
    tables: std::collections::BTreeMap<u64, Vec<u32>>,
}

/// Seed of the phases' offset stream: `seed ^ PHASE_SEED` (SHA-256's second initial word),
/// apart from the main stream so the offsets do not depend on the destinations drawn.
const PHASE_SEED: u64 = 0xbb67_ae85_84ca_a73b;

/// Where the run is in the `phases` sequence, and which nodes are due next. Each phase
/// occurrence draws every node's offset and sorts the nodes by it; a cursor then walks the
/// sorted list once per interval, so a cycle costs O(1) plus the nodes due in it (and a
/// phase occurrence O(nodes log nodes) to start).
#[derive(Clone, Debug)]
struct PhaseClock {
    /// (cycles, interval_cycles, destinations) of each phase, in order (validated: >= 1).
    phases: Vec<(u64, u64, Pattern)>,
    /// Draws every node's offset at the start of each phase occurrence (in node order).
    rng: Xoshiro256PlusPlus,
    /// The current phase.
    k: usize,
    /// First cycle after the current phase occurrence (saturating at u64::MAX).
    end: u64,
    /// First cycle of the current interval of the occurrence.
    base: u64,
    /// (offset, node) of every node, sorted: the order in which they are due in an interval.
    order: Vec<(u64, u32)>,
    /// The entry of `order` due next.
    pos: usize,
}

impl PhaseClock {
    /// The clock of validated `phases` for `nodes` nodes, its first phase starting at `start`.
    fn new(phases: &[Phase], nodes: u32, start: u64, seed: u64) -> Self {
        let phases = phases
            .iter()
            .map(|p| {
                let pattern = p.pattern.pattern(nodes).unwrap_or(Pattern::Uniform); // validated
                (p.cycles.max(1), p.interval_cycles.max(1) as u64, pattern)
            })
            .collect();
        let mut c = PhaseClock {
            phases,
            rng: Xoshiro256PlusPlus::seed_from_u64(seed ^ PHASE_SEED),
            k: 0,
            end: start,
            base: start,
            order: Vec::with_capacity(nodes as usize),
            pos: 0,
        };
        c.enter(0, start, nodes);
        c
    }

    /// Starts an occurrence of phase `k` at cycle `at`: every node draws its offset.
    fn enter(&mut self, k: usize, at: u64, nodes: u32) {
        let (cycles, interval, _) = self.phases[k];
        self.k = k;
        self.base = at;
        self.end = at.saturating_add(cycles);
        self.pos = 0;
        self.order.clear();
        for n in 0..nodes {
            self.order.push((self.rng.gen_range(0..interval), n));
        }
        self.order.sort_unstable();
    }

    /// The next node due by cycle `now` and its phase's pattern, or None when no more are
    /// due. Called with a `now` that never decreases; a node due in the same cycle as
    /// another comes after it when its number is higher.
    fn next_due(&mut self, now: u64, nodes: u32) -> Option<(u32, Pattern)> {
        while now >= self.end && self.end < u64::MAX {
            let k = (self.k + 1) % self.phases.len();
            self.enter(k, self.end, nodes);
        }
        let (_, interval, pattern) = self.phases[self.k];
        let &(offset, node) = self.order.get(self.pos)?;
        let at = self.base.saturating_add(offset);
        if at > now || at >= self.end {
            return None;
        }
        self.pos += 1;
        if self.pos == self.order.len() {
            self.pos = 0;
            self.base = self.base.saturating_add(interval);
        }
        Some((node, pattern))
    }
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
        let clock = (!cfg.phases.is_empty())
            .then(|| PhaseClock::new(&cfg.phases, nodes, cfg.start_cycle, seed));
        let mut tables = std::collections::BTreeMap::new();
        let patterns = std::iter::once(pattern).chain(
            clock
                .iter()
                .flat_map(|c| c.phases.iter().map(|p| p.2).collect::<Vec<_>>()),
        );
        for p in patterns {
            if let Pattern::Permutation { seed } = p {
                tables
                    .entry(seed)
                    .or_insert_with(|| Pattern::permutation(seed, nodes));
            }
        }
        Ok(UniformWorkload {
            tables,
            clock,
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

    /// The destination of a permutation pattern for `src` (its table for `permutation`);
    /// None when `src` maps to itself or the pattern draws its destinations.
    fn permuted(&self, p: Pattern, src: u32) -> Option<NodeId> {
        match p {
            Pattern::Permutation { seed } => {
                let d = self.tables.get(&seed)?[src as usize];
                (d != src).then_some(NodeId(d))
            }
            p => p.permute(src, self.nodes).map(NodeId),
        }
    }

    /// Hands over one message from `src` to `dst` created in cycle `now`.
    fn create(&mut self, src: u32, dst: NodeId, now: u64, out: &mut Vec<Message>) {
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

    /// One cycle with `phases`: every node due creates a message, unless it is at
    /// `max_outstanding` (then that message is dropped) or its phase's permutation maps it
    /// to itself. The destination is drawn (from the main stream) before the cap is looked
    /// at, so the draws do not depend on deliveries.
    fn tick_phases(&mut self, now: u64, out: &mut Vec<Message>) {
        let nodes = self.nodes;
        while let Some((src, pattern)) = self.clock.as_mut().and_then(|c| c.next_due(now, nodes)) {
            let dst = match pattern {
                Pattern::Uniform | Pattern::HotSpot { .. } | Pattern::GroupShift { .. } => {
                    drawn_dst(pattern, &mut self.rng, nodes, src)
                }
                p => match self.permuted(p, src) {
                    Some(d) => d,
                    None => continue,
                },
            };
            if self
                .cfg
                .max_outstanding
                .is_some_and(|cap| self.outstanding[src as usize] >= cap)
            {
                continue;
            }
            self.create(src, dst, now, out);
        }
    }
}

/// A destination of a drawing pattern (uniform, hot spot, group shift) for `src`.
fn drawn_dst<R: Rng>(pattern: Pattern, rng: &mut R, nodes: u32, src: u32) -> NodeId {
    match pattern {
        Pattern::GroupShift { .. } => NodeId(
            pattern
                .draw(rng, src, nodes)
                .expect("group_shift draws a destination"),
        ),
        Pattern::HotSpot { dst, percent } => {
            if rng.gen_range(0..100u32) < percent as u32 && dst.0 != src {
                dst
            } else {
                uniform_other(rng, nodes, NodeId(src))
            }
        }
        _ => uniform_other(rng, nodes, NodeId(src)),
    }
}

/// A destination drawn uniformly from all nodes except `src`.
pub(crate) fn uniform_other<R: Rng>(rng: &mut R, nodes: u32, src: NodeId) -> NodeId {
    let d = rng.gen_range(0..nodes - 1);
    NodeId(if d >= src.0 { d + 1 } else { d })
}

impl Workload for UniformWorkload {
    fn tag_name(&self, tag: u32) -> Option<&'static str> {
        crate::workload::tag::known(tag)
    }

    fn tick(&mut self, now: u64, out: &mut Vec<Message>) {
        if now < self.cfg.start_cycle || self.cfg.stop_cycle.is_some_and(|s| now >= s) {
            return;
        }
        if self.clock.is_some() {
            return self.tick_phases(now, out);
        }
        for src in 0..self.nodes {
            let s = src as usize;
            // a permutation's destination; a NIC that maps to itself sends nothing
            let fixed = match self.pattern {
                Pattern::Uniform | Pattern::HotSpot { .. } | Pattern::GroupShift { .. } => None,
                p => match self.permuted(p, src) {
                    Some(d) => Some(d),
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
            let dst = match fixed {
                Some(d) => d,
                None => drawn_dst(self.pattern, &mut self.rng, self.nodes, src),
            };
            if let Some(cap) = self.cfg.max_outstanding {
                if self.outstanding[src as usize] >= cap {
                    continue;
                }
            }
            self.create(src, dst, now, out);
        }
    }

    fn delivered(&mut self, _now: u64, d: &Delivery) {
        if let Some(o) = self.outstanding.get_mut(d.msg.src.index()) {
            *o = o.saturating_sub(1);
        }
    }

    /// A message its NIC refused (`send_queue_msgs`) is no longer outstanding.
    fn refused(&mut self, _now: u64, m: &Message) {
        if let Some(o) = self.outstanding.get_mut(m.src.index()) {
            *o = o.saturating_sub(1);
        }
    }
}
