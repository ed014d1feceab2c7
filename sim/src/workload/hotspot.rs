//! Hot spots as in the InfiniBand congestion-control study (seed 002): C nodes send only to
//! their hot spot, V nodes send uniformly, B nodes send a fraction `p_hot` of their load to
//! their hot spot and the rest uniformly; hot spots may move every `move_period_cycles`.
//! Seed 004's burst: with `hot_start_after_delivered` the C nodes stay idle until that many
//! messages have been delivered, and with `hot_messages` each sends that many and stops.

use super::config::{check_workload, flits_for, ConfigErrors, MAX_MSG_BYTES};
use super::injection::{InjectionProcess, Injector};
use super::tag;
use super::uniform::{check_window, uniform_other};
use crate::net::types::{Delivery, Message, NodeId, Workload};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::{Deserialize, Serialize};

/// How a B node's NIC serves its two streams (`HotspotConfig::stream_service`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StreamService {
    /// Hot : uniform = p : 1 - p of the flits started while both wait.
    #[default]
    Split,
    /// Round robin over destination queues.
    RoundRobin,
}

/// Configuration of the `hotspot` workload. Every field has a default.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct HotspotConfig {
    /// Number of hot spots H. Range 1..=nodes-1. Default 8.
    pub hotspots: u32,
    /// Fraction of nodes that are C (contributors: 100 % of their load to their hot spot).
    /// Range 0..=1; `frac_c + frac_v + frac_b` must be 1 (within 1e-9). Default 0.8.
    pub frac_c: f64,
    /// Fraction of nodes that are V (potential victims: uniform traffic). Default 0.2.
    pub frac_v: f64,
    /// Fraction of nodes that are B (both: `p_hot` of their load to their hot spot, the rest
    /// uniform). Default 0.0.
    pub frac_b: f64,
    /// Share of a B node's load that goes to its hot spot. Range 0..=1. Default 0.5.
    pub p_hot: f64,
    /// Offered load per node, payload flits per cycle (fraction of link bandwidth).
    /// Range 0..=1. Default 1.0 (the study's "inject at full speed").
    pub load: f64,
    /// Payload bytes per message. Range 1..=67108864. Default 4096 (the study's message).
    pub msg_bytes: u32,
    /// Injection process of each stream. Default Bernoulli.
    pub injection: InjectionProcess,
    /// Hot spots move every this many cycles (at cycles k * period, k >= 1); `None` = static.
    /// Range 1..=10^10 (`config::MAX_CYCLE`). Default `None`.
    pub move_period_cycles: Option<u64>,
    /// Cap of undelivered messages per node and stream (hot and uniform streams separately,
    /// so a backed-up hot stream never blocks the uniform one); a draw that finds the cap
    /// reached is dropped. `None` = no cap. Range >= 1. Default `None`.
    pub max_outstanding: Option<u32>,
    /// How a B node's NIC shares its injection between the hot-spot stream and the
    /// uniform stream while both have a packet to start: `split` (default) gives the hot
    /// stream `p_hot` of the flits, the IB CC seed's p : 1 - p (its Frame I);
    /// `round_robin` serves every destination queue in turn (one hot queue against up to
    /// as many uniform queues as are open), the model before 2026-11-25.
    pub stream_service: StreamService,
    /// Hot-spot streams on. false: C nodes stay idle and B nodes send only their uniform
    /// share (the IB study's "no hot spots" run, and `compare`'s isolated baseline for this
    /// workload). Default true.
    pub hot_traffic: bool,
    /// First cycle in which messages are created. Default 0.
    pub start_cycle: u64,
    /// No message is created in this cycle or later. start_cycle + 1..=10^10
    /// (`config::MAX_CYCLE`). Default `None`.
    pub stop_cycle: Option<u64>,
    /// C nodes create no message until this many messages (every class, network-wide)
    /// have been delivered; they start in the cycle after the one of that delivery (and
    /// not before `start_cycle`). Seed 004's hot-spot hosts, idle until the first 50,000
    /// packets have been received. V and B nodes are not affected. `None` = C nodes start
    /// at `start_cycle`. Range >= 1. Default `None`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hot_start_after_delivered: Option<u64>,
    /// Each C node creates at most this many hot-spot messages, then stops for good (seed
    /// 004's 1,000 packets per hot-spot host). V and B nodes are not affected. `None` =
    /// unbounded. Range >= 1. Default `None`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hot_messages: Option<u64>,
}

impl Default for HotspotConfig {
    fn default() -> Self {
        HotspotConfig {
            hotspots: 8,
            frac_c: 0.8,
            frac_v: 0.2,
            frac_b: 0.0,
            p_hot: 0.5,
            load: 1.0,
            msg_bytes: 4096,
            injection: InjectionProcess::Bernoulli,
            move_period_cycles: None,
            max_outstanding: None,
            stream_service: StreamService::Split,
            hot_traffic: true,
            start_cycle: 0,
            stop_cycle: None,
            hot_start_after_delivered: None,
            hot_messages: None,
        }
    }
}

impl HotspotConfig {
    /// Keys that are valid but change nothing here: a B node's `p_hot` and
    /// `stream_service` with `frac_b = 0` (no B node), `hot_messages` and
    /// `hot_start_after_delivered` with `hot_traffic = false` (not `move_period_cycles`:
    /// the hot spots still move, and the hot-spot rates and `coldhot.csv` follow them). Warned, not refused: a sweep may vary `frac_b` through 0 with
    /// them set.
    pub fn warnings(&self) -> Vec<String> {
        let d = HotspotConfig::default();
        let mut out = Vec::new();
        if !self.hot_traffic {
            for (k, set) in [
                ("hot_messages", self.hot_messages.is_some()),
                (
                    "hot_start_after_delivered",
                    self.hot_start_after_delivered.is_some(),
                ),
            ] {
                if set {
                    out.push(format!(
                        "workload.{k} is set but changes nothing: hot_traffic = false sends no hot-spot stream"
                    ));
                }
            }
        }
        if self.frac_b == 0.0 {
            for (k, set) in [
                ("p_hot", self.p_hot != d.p_hot),
                ("stream_service", self.stream_service != d.stream_service),
            ] {
                if set {
                    out.push(format!(
                        "workload.{k} is set but changes nothing: it applies to B nodes, and frac_b = 0 makes none"
                    ));
                }
            }
        }
        out
    }

    /// Checks every field for a network of `nodes` endpoints.
    pub fn validate(&self, nodes: u32) -> Result<(), ConfigErrors> {
        let mut errs = ConfigErrors::default();
        errs.check_u64("nodes", nodes as u64, 2, super::config::MAX_NODES as u64);
        errs.check_u64(
            "hotspots",
            self.hotspots as u64,
            1,
            (nodes.max(2) - 1) as u64,
        );
        errs.check_f64("frac_c", self.frac_c, 0.0, 1.0);
        errs.check_f64("frac_v", self.frac_v, 0.0, 1.0);
        errs.check_f64("frac_b", self.frac_b, 0.0, 1.0);
        let sum = self.frac_c + self.frac_v + self.frac_b;
        if (sum - 1.0).abs() > 1e-9 || sum.is_nan() {
            errs.push(
                "frac_c + frac_v + frac_b",
                sum,
                "allowed 1.0 (within 1e-9)".to_string(),
            );
        }
        errs.check_f64("p_hot", self.p_hot, 0.0, 1.0);
        errs.check_f64("load", self.load, 0.0, 1.0);
        errs.check_u64("msg_bytes", self.msg_bytes as u64, 1, MAX_MSG_BYTES as u64);
        self.injection
            .validate(self.load, "injection", "load", &mut errs);
        if let Some(p) = self.move_period_cycles {
            errs.check_u64("move_period_cycles", p, 1, super::config::MAX_CYCLE);
        }
        if let Some(m) = self.max_outstanding {
            errs.check_u64("max_outstanding", m as u64, 1, u32::MAX as u64);
        }
        check_window(&mut errs, self.start_cycle, self.stop_cycle);
        if self.hot_start_after_delivered == Some(0) {
            errs.push(
                "hot_start_after_delivered",
                0,
                "allowed hot_start_after_delivered >= 1 (messages delivered before the C nodes \
                 start; leave it out to start them at start_cycle)",
            );
        }
        if self.hot_messages == Some(0) {
            errs.push(
                "hot_messages",
                0,
                "allowed hot_messages >= 1 (hot-spot messages per C node; leave it out for no \
                 limit, or set hot_traffic = false for none)",
            );
        }
        errs.into_result()
    }

    /// True when either seed-004 key (`hot_start_after_delivered`, `hot_messages`) is set:
    /// the C nodes then draw from a random stream of their own.
    pub fn hot_burst(&self) -> bool {
        self.hot_start_after_delivered.is_some() || self.hot_messages.is_some()
    }
}

/// Class of a node in the hot-spot workload.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NodeClass {
    /// Contributor: all its load to its hot spot.
    C,
    /// Potential victim: uniform traffic.
    V,
    /// Both: `p_hot` to its hot spot, the rest uniform.
    B,
}

/// The hot spots in force from `from_cycle` on; `hotspots[s]` is subset s's target.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HotspotEpoch {
    pub from_cycle: u64,
    pub hotspots: Vec<NodeId>,
}

const HOT: usize = 0;
const UNI: usize = 1;

/// The hot-spot workload. Classes and subsets are drawn once from the seed; hot-spot moves
/// come from a second generator, and arrivals from a third, so changing the move period does
/// not change the classes.
#[derive(Clone, Debug)]
pub struct HotspotWorkload {
    cfg: HotspotConfig,
    nodes: u32,
    class: Vec<NodeClass>,
    subset: Vec<Option<u32>>,
    /// Per node, per stream (HOT, UNI): its injector, if the node has that stream.
    streams: Vec<[Option<Injector>; 2]>,
    on: Vec<[bool; 2]>,
    /// `Budget`: flits created per node and stream; the node's DMA token bucket (flits,
    /// at most one message) and which stream goes first in the next cycle.
    sent: Vec<[u64; 2]>,
    bucket: Vec<f64>,
    first: Vec<usize>,
    msg_flits: u64,
    outstanding: Vec<[u32; 2]>,
    history: Vec<HotspotEpoch>,
    move_rng: Xoshiro256PlusPlus,
    rng: Xoshiro256PlusPlus,
    next_id: u64,
    /// Messages delivered so far (every class; `delivered`).
    delivered: u64,
    /// First cycle in which C nodes may create: `start_cycle`, or with
    /// `hot_start_after_delivered` the cycle after the N-th delivery (`None` until then).
    hot_open: Option<u64>,
    /// Hot-spot messages created per node.
    hot_created: Vec<u64>,
    /// Creation cycle of the first hot-spot message of a C node.
    first_c_hot: Option<u64>,
    /// With `hot_start_after_delivered` or `hot_messages`: the C nodes' own random stream.
    hot_rng: Option<Xoshiro256PlusPlus>,
}

impl HotspotWorkload {
    /// Builds the workload for `nodes` endpoints with flits of `flit_bytes` bytes.
    pub fn new(
        cfg: &HotspotConfig,
        nodes: u32,
        flit_bytes: u32,
        seed: u64,
    ) -> Result<Self, ConfigErrors> {
        check_workload(nodes, flit_bytes, cfg.validate(nodes))?;

        let mut place_rng = Xoshiro256PlusPlus::seed_from_u64(seed ^ 0x9e37_79b9_7f4a_7c15);
        let move_rng = Xoshiro256PlusPlus::seed_from_u64(seed ^ 0x6a09_e667_f3bc_c908);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);

        // Classes: shuffle the nodes; the first n_c are C, the next n_b are B, the rest V.
        let n = nodes as usize;
        let n_c = ((cfg.frac_c * n as f64).round() as usize).min(n);
        let n_b = ((cfg.frac_b * n as f64).round() as usize).min(n - n_c);
        let mut order: Vec<NodeId> = NodeId::all(nodes).collect();
        order.shuffle(&mut place_rng);
        let mut class = vec![NodeClass::V; n];
        let mut subset = vec![None; n];
        for (i, &node) in order.iter().enumerate() {
            let (c, s) = if i < n_c {
                (NodeClass::C, Some((i as u32) % cfg.hotspots))
            } else if i < n_c + n_b {
                (NodeClass::B, Some(((i - n_c) as u32) % cfg.hotspots))
            } else {
                (NodeClass::V, None)
            };
            class[node.index()] = c;
            subset[node.index()] = s;
        }
        let mut first: Vec<NodeId> = NodeId::all(nodes).collect();
        first.shuffle(&mut place_rng);
        first.truncate(cfg.hotspots as usize);

        let flits = flits_for(cfg.msg_bytes, flit_bytes);
        let mk = |load: f64| Some(Injector::new(&cfg.injection, load, flits));
        let streams: Vec<[Option<Injector>; 2]> = class
            .iter()
            .map(|c| match c {
                NodeClass::C => [mk(cfg.load), None],
                NodeClass::V => [None, mk(cfg.load)],
                NodeClass::B => [mk(cfg.p_hot * cfg.load), mk((1.0 - cfg.p_hot) * cfg.load)],
            })
            .collect();
        let on = streams
            .iter()
            .map(|s| {
                [
                    s[HOT].as_ref().is_some_and(|i| i.initial_state(&mut rng)),
                    s[UNI].as_ref().is_some_and(|i| i.initial_state(&mut rng)),
                ]
            })
            .collect();
        let hot_rng = cfg
            .hot_burst()
            .then(|| Xoshiro256PlusPlus::seed_from_u64(seed ^ 0xbb67_ae85_84ca_a73b));
        Ok(HotspotWorkload {
            cfg: cfg.clone(),
            nodes,
            class,
            subset,
            streams,
            on,
            sent: vec![[0, 0]; n],
            bucket: vec![flits as f64; n],
            first: vec![HOT; n],
            msg_flits: flits,
            outstanding: vec![[0, 0]; n],
            history: vec![HotspotEpoch {
                from_cycle: 0,
                hotspots: first,
            }],
            move_rng,
            rng,
            next_id: 0,
            delivered: 0,
            hot_open: match cfg.hot_start_after_delivered {
                None => Some(cfg.start_cycle),
                Some(_) => None,
            },
            hot_created: vec![0; n],
            first_c_hot: None,
            hot_rng,
        })
    }

    /// Number of endpoints.
    pub fn nodes(&self) -> u32 {
        self.nodes
    }

    /// Class of `node`.
    pub fn class_of(&self, node: NodeId) -> NodeClass {
        self.class[node.index()]
    }

    /// Subset (index of the hot spot it targets) of a C or B node; `None` for V nodes.
    pub fn subset_of(&self, node: NodeId) -> Option<u32> {
        self.subset[node.index()]
    }

    /// Hot spots in force now (after the last `tick`).
    pub fn hotspots(&self) -> &[NodeId] {
        &self
            .history
            .last()
            .expect("history is never empty")
            .hotspots
    }

    /// Every hot-spot set so far, oldest first.
    pub fn history(&self) -> &[HotspotEpoch] {
        &self.history
    }

    /// True when `node` is a hot spot now.
    pub fn is_hotspot(&self, node: NodeId) -> bool {
        self.hotspots().contains(&node)
    }

    /// The hot spots in force in `cycle` (a message created in `cycle` to one of them is
    /// a hot-spot message); `cycle` no later than the last `tick`.
    pub fn hotspots_at(&self, cycle: u64) -> &[NodeId] {
        let k = self.history.partition_point(|e| e.from_cycle <= cycle);
        &self.history[k.saturating_sub(1)].hotspots
    }

    /// Messages delivered so far (every class), as `hot_start_after_delivered` counts them.
    pub fn delivered_count(&self) -> u64 {
        self.delivered
    }

    /// The first cycle in which C nodes may create messages: `start_cycle`, or with
    /// `hot_start_after_delivered` = N the cycle after the one of the N-th delivery
    /// (`None` until then).
    pub fn hot_start(&self) -> Option<u64> {
        self.hot_open
    }

    /// Hot-spot messages `node` has created (C and B nodes; 0 for V nodes).
    pub fn hot_created(&self, node: NodeId) -> u64 {
        self.hot_created[node.index()]
    }

    /// The cycle in which the first hot-spot message of a C node was created (`None`
    /// before): the start of the congestion period of `metrics::coldhot`.
    pub fn first_c_hot_created(&self) -> Option<u64> {
        self.first_c_hot
    }

    fn maybe_move(&mut self, now: u64) {
        let Some(period) = self.cfg.move_period_cycles else {
            return;
        };
        if now == 0 || !now.is_multiple_of(period) {
            return;
        }
        // Each subset switches to a new hot spot, different from its previous one and from
        // the other subsets' new ones.
        let old = self.hotspots().to_vec();
        let mut new: Vec<NodeId> = Vec::with_capacity(old.len());
        for &prev in &old {
            loop {
                let cand = NodeId(self.move_rng.gen_range(0..self.nodes));
                if cand != prev && !new.contains(&cand) {
                    new.push(cand);
                    break;
                }
            }
        }
        self.history.push(HotspotEpoch {
            from_cycle: now,
            hotspots: new,
        });
    }
}

impl Workload for HotspotWorkload {
    fn tag_name(&self, tag: u32) -> Option<&'static str> {
        crate::workload::tag::known(tag)
    }

    fn tick(&mut self, now: u64, out: &mut Vec<Message>) {
        self.maybe_move(now);
        if now < self.cfg.start_cycle || self.cfg.stop_cycle.is_some_and(|s| now >= s) {
            return;
        }
        let current = self.history.len() - 1;
        let budget_mode = self.cfg.injection == InjectionProcess::Budget;
        let cap_flits = self.msg_flits as f64;
        for src in 0..self.nodes {
            let s = src as usize;
            let order = if budget_mode {
                // The node's DMA: `load` flits per cycle, at most one message banked (plus
                // this cycle's fraction, so that whole cycles do not round the rate down).
                self.bucket[s] = (self.bucket[s] + self.cfg.load).min(cap_flits + self.cfg.load);
                [self.first[s], 1 - self.first[s]]
            } else {
                [HOT, UNI]
            };
            for stream in order {
                let Some(inj) = &self.streams[s][stream] else {
                    continue;
                };
                if stream == HOT && !self.cfg.hot_traffic {
                    continue;
                }
                // A C node's burst (seed 004): not before `hot_open`, at most
                // `hot_messages`, its draws from its own stream. Without the keys
                // `hot_open` is `start_cycle` and nothing changes.
                let c_node = self.class[s] == NodeClass::C;
                let mut origin = self.cfg.start_cycle;
                if c_node {
                    match self.hot_open {
                        Some(open) if now >= open => origin = open,
                        _ => continue,
                    }
                    if self
                        .cfg
                        .hot_messages
                        .is_some_and(|cap| self.hot_created[s] >= cap)
                    {
                        continue;
                    }
                }
                let budget = inj.is_budget();
                if budget {
                    let capped = self
                        .cfg
                        .max_outstanding
                        .is_some_and(|c| self.outstanding[s][stream] >= c);
                    let due = inj.budget_due(self.sent[s][stream], now - origin);
                    let dma = self.bucket[s] >= inj.budget_flits() as f64;
                    if capped || !due || !dma {
                        continue;
                    }
                } else {
                    let rng = match &mut self.hot_rng {
                        Some(r) if c_node => r,
                        _ => &mut self.rng,
                    };
                    if !inj.step(&mut self.on[s][stream], rng) {
                        continue;
                    }
                }
                let flits = inj.budget_flits();
                let (dst, t) = if stream == HOT {
                    let sub = self.subset[s].expect("C and B nodes have a subset") as usize;
                    (self.history[current].hotspots[sub], tag::HOTSPOT_HOT)
                } else {
                    (
                        uniform_other(&mut self.rng, self.nodes, NodeId(src)),
                        tag::HOTSPOT_UNIFORM,
                    )
                };
                if dst.0 == src {
                    continue; // a C/B node that is itself its subset's hot spot stays idle
                }
                if budget {
                    self.sent[s][stream] += flits;
                    self.bucket[s] -= flits as f64;
                    self.first[s] = 1 - stream;
                }
                if let Some(cap) = self.cfg.max_outstanding {
                    if self.outstanding[s][stream] >= cap {
                        continue;
                    }
                }
                self.outstanding[s][stream] += 1;
                if stream == HOT {
                    self.hot_created[s] += 1;
                    if c_node && self.first_c_hot.is_none() {
                        self.first_c_hot = Some(now);
                    }
                }
                out.push(Message {
                    id: self.next_id,
                    src: NodeId(src),
                    dst,
                    bytes: self.cfg.msg_bytes,
                    tag: t,
                    created: now,
                });
                self.next_id += 1;
            }
        }
    }

    fn delivered(&mut self, now: u64, d: &Delivery) {
        self.release(&d.msg);
        self.delivered += 1;
        if self.hot_open.is_none()
            && self
                .cfg
                .hot_start_after_delivered
                .is_some_and(|n| self.delivered >= n)
        {
            // the C nodes start in the next cycle (and not before start_cycle)
            self.hot_open = Some((now + 1).max(self.cfg.start_cycle));
        }
    }

    /// A message its NIC refused (`send_queue_msgs`) was never created: it is no longer
    /// outstanding, and it does not count toward its C node's `hot_messages` (the burst
    /// delivers what was asked).
    fn refused(&mut self, _now: u64, m: &Message) {
        self.release(m);
        if m.tag == tag::HOTSPOT_HOT {
            if let Some(h) = self.hot_created.get_mut(m.src.index()) {
                *h = h.saturating_sub(1);
            }
        }
    }
}

impl HotspotWorkload {
    /// Message `m` of its source's stream left the network (delivered or refused).
    fn release(&mut self, m: &Message) {
        let stream = if m.tag == tag::HOTSPOT_HOT { HOT } else { UNI };
        if let Some(o) = self.outstanding.get_mut(m.src.index()) {
            o[stream] = o[stream].saturating_sub(1);
        }
    }
}
