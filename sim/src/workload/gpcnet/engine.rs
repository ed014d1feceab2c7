//! The GPCNeT process engine. Every process runs a list of steps per iteration; a step posts
//! its sends and waits (MPI `Waitall`) until its own sends are delivered and every awaited
//! message has arrived. Messages are matched like MPI: by (source process, kind, sequence).
//! A process reacts to a delivery in the cycle after it (its new messages are created then).
//!
//! Host time (`host_send_ns`, `host_recv_ns`; docs/workloads.md "Host time"): every process
//! has one CPU, busy `o_s` cycles to post each message it sends (the NIC gets the message
//! when that ends) and `o_r` cycles to complete each message it receives (the process sees
//! it when that ends), one message after the other. Messages a NIC answers by itself (the
//! put acknowledgement and the get response at the target) and the arrival of an incast
//! message at its root (which only the sender's completion waits for) take no host time.

use super::layout::{Layout, NodeRole};
use super::results::{
    CanaryProcessResult, CanaryTestResult, CongestorProcessResult, GpcnetResults,
};
use super::{CanaryTest, CongestorKind, GpcnetConfig, SendProtocol};
use crate::net::types::{Delivery, Message, NodeId, Workload};
use crate::workload::config::{check_workload, ConfigErrors};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::collections::{BTreeMap, HashMap};

mod burst;
mod canary;
mod steps;

use burst::Burst;
use canary::iter_cost;
use std::borrow::Cow;
use steps::{Key, Kind, Meta, Step, Steps};

#[derive(Clone, Copy, Debug)]
enum ProcRole {
    Canary { cidx: u32, comm: u32, rank: u32 },
    Congestor { group: u32, comm: u32, rank: u32 },
}

#[derive(Clone, Debug, Default)]
struct Proc {
    mailbox: HashMap<Key, u32>,
    steps: Steps,
    step: usize,
    pending: u32,
    iter: u32,
    iter_start: u64,
    left: u32,
    right: u32,
    outstanding: u32,
    bytes: u64,
    ops: u64,
    acc_sum: f64,
    acc_n: u32,
    acc_bytes: u64,
    acc_cycles: u64,
    /// First cycle in which this process's CPU is free (host time).
    host_free: u64,
}

#[derive(Clone, Debug, Default)]
struct CanaryState {
    started: bool,
    finished: bool,
    pos: usize,
    ring: u32,
    running: u32,
    start_cycle: Option<u64>,
    end_cycle: Option<u64>,
}

/// The GPCNeT-like workload (see the module docs and docs/workloads.md).
#[derive(Clone, Debug)]
pub struct GpcnetWorkload {
    cfg: GpcnetConfig,
    layout: Layout,
    roles: Vec<ProcRole>,
    procs: Vec<Proc>,
    canary_procs: Vec<u32>,
    canary_comms: Vec<Vec<u32>>,
    cong_comms: Vec<Vec<Vec<u32>>>,
    inflight: HashMap<u64, Meta>,
    outbox: Vec<Message>,
    next_id: u64,
    ring_rng: Xoshiro256PlusPlus,
    congestors_started: bool,
    canary: CanaryState,
    test_span: Vec<(Option<u64>, Option<u64>)>,
    results: Vec<Vec<CanaryProcessResult>>,
    last_cycle: u64,
    /// Host time per message, cycles: posting (o_s) and completing a receive (o_r).
    host_send: u64,
    host_recv: u64,
    /// Messages a CPU is still posting, by (cycle the NIC gets them, id).
    posted: BTreeMap<(u64, u64), Message>,
    /// A congestor's first window of operations, posted back to back at its start: only
    /// the next of each is in `posted` (keyed here by its id), the rest made when it leaves
    /// (every sender's whole window at once grew to 53 MB at 4,096 NICs, times `ppn`).
    bursts: HashMap<u64, Burst>,
    /// Received messages a CPU is still completing, by (cycle it is done, id).
    receiving: BTreeMap<(u64, u64), Meta>,
    /// Estimated cycles of one iteration of each canary test (`work_done` only).
    iter_cost: Vec<f64>,
}

impl GpcnetWorkload {
    /// Builds the workload for `nodes` NICs on 100 Gb/s links (`with_link`).
    pub fn new(
        cfg: &GpcnetConfig,
        nodes: u32,
        flit_bytes: u32,
        seed: u64,
    ) -> Result<Self, ConfigErrors> {
        Self::with_link(cfg, nodes, flit_bytes, 100.0, seed)
    }

    /// Builds the workload for `nodes` NICs whose cycle is one `flit_bytes` flit at
    /// `link_gbps` (that converts the host times from ns to cycles; every GPCNeT test is
    /// closed loop, so nothing else depends on them).
    pub fn with_link(
        cfg: &GpcnetConfig,
        nodes: u32,
        flit_bytes: u32,
        link_gbps: f64,
        seed: u64,
    ) -> Result<Self, ConfigErrors> {
        check_workload(nodes, flit_bytes, cfg.validate(nodes))?;
        let cycle_ns = flit_bytes as f64 * 8.0 / link_gbps;
        let cycles = |ns: f64| (ns / cycle_ns).round() as u64;
        let layout = Layout::new(cfg, nodes, seed);
        let ppn = cfg.ppn;
        let np = layout.processes() as usize;
        let mut roles = vec![
            ProcRole::Canary {
                cidx: 0,
                comm: 0,
                rank: 0
            };
            np
        ];
        let mut canary_procs = Vec::new();
        for node in 0..nodes {
            for l in 0..ppn {
                let p = layout.process(NodeId(node), l) as usize;
                roles[p] = match layout.roles[node as usize] {
                    NodeRole::Canary { rank } => {
                        canary_procs.push(p as u32);
                        ProcRole::Canary {
                            cidx: 0,
                            comm: l,
                            rank,
                        }
                    }
                    NodeRole::Congestor { group, rank } => ProcRole::Congestor {
                        group,
                        comm: l,
                        rank,
                    },
                };
            }
        }
        // canary result index: ordered by (canary rank, local index)
        canary_procs.sort_by_key(|&p| {
            let ProcRole::Canary { rank, comm, .. } = roles[p as usize] else {
                unreachable!()
            };
            (rank, comm)
        });
        for (i, &p) in canary_procs.iter().enumerate() {
            if let ProcRole::Canary { cidx, .. } = &mut roles[p as usize] {
                *cidx = i as u32;
            }
        }
        let canary_comms = (0..ppn).map(|l| layout.canary_comm(l)).collect();
        let cong_comms = (0..layout.groups.len())
            .map(|g| (0..ppn).map(|l| layout.congestor_comm(g, l)).collect())
            .collect();
        let host = (cycles(cfg.host_send_ns) + cycles(cfg.host_recv_ns)) as f64;
        let canary_nics = layout.canary_nodes.len() as u32;
        let iter_cost = cfg
            .canary_tests
            .iter()
            .map(|&t| iter_cost(cfg, t, canary_nics, flit_bytes, host))
            .collect();
        let results = cfg
            .canary_tests
            .iter()
            .map(|_| {
                canary_procs
                    .iter()
                    .map(|&p| {
                        let ProcRole::Canary { comm, .. } = roles[p as usize] else {
                            unreachable!()
                        };
                        CanaryProcessResult {
                            process: p,
                            node: layout.node_of(p),
                            comm,
                            samples: Vec::new(),
                            ring_values: Vec::new(),
                        }
                    })
                    .collect()
            })
            .collect();
        Ok(GpcnetWorkload {
            cfg: cfg.clone(),
            roles,
            procs: vec![Proc::default(); np],
            canary_procs,
            canary_comms,
            cong_comms,
            inflight: HashMap::new(),
            outbox: Vec::new(),
            next_id: 0,
            ring_rng: Xoshiro256PlusPlus::seed_from_u64(seed ^ 0x1319_8a2e_0370_7344),
            congestors_started: false,
            canary: CanaryState::default(),
            test_span: vec![(None, None); cfg.canary_tests.len()],
            results,
            layout,
            last_cycle: 0,
            host_send: cycles(cfg.host_send_ns),
            host_recv: cycles(cfg.host_recv_ns),
            posted: BTreeMap::new(),
            bursts: HashMap::new(),
            receiving: BTreeMap::new(),
            iter_cost,
        })
    }

    /// Where every role runs.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// True once every canary test has completed (the run can stop).
    pub fn finished(&self) -> bool {
        self.canary.finished
    }

    /// The canary test running now (`None` before the canaries start and after they end).
    pub fn current_test(&self) -> Option<CanaryTest> {
        if self.canary.started && !self.canary.finished {
            Some(self.cfg.canary_tests[self.canary.pos])
        } else {
            None
        }
    }

    /// Share of the run's expected work done, 0 to 1 (1 exactly once `finished`): the cycles
    /// before the canaries start, then the canary iterations completed (warm-up included),
    /// each weighted by its test's estimated cycles per iteration (`iter_cost`). Only the
    /// ratio matters, for a progress bar; it reads the state and changes nothing.
    pub fn work_done(&self) -> f64 {
        if self.canary.finished {
            return 1.0;
        }
        let warmup = self.cfg.canary_start_cycles as f64;
        let per_ring = |pos: usize| {
            let (warm, iters, rings) = self.test_params(self.cfg.canary_tests[pos]);
            ((warm + iters) as f64, rings as f64, self.iter_cost[pos])
        };
        let total: f64 = warmup
            + (0..self.iter_cost.len())
                .map(|pos| {
                    let (n, rings, cost) = per_ring(pos);
                    n * rings * cost
                })
                .sum::<f64>();
        let mut done = (self.last_cycle as f64).min(warmup);
        if self.canary.started {
            let pos = self.canary.pos;
            done += (0..pos)
                .map(|q| {
                    let (n, rings, cost) = per_ring(q);
                    n * rings * cost
                })
                .sum::<f64>();
            let (n, _, cost) = per_ring(pos);
            // processes of one ring run their iterations in step: their mean is the ring's
            let iters: f64 = self
                .canary_procs
                .iter()
                .map(|&p| (self.procs[p as usize].iter as f64).min(n))
                .sum();
            let mean = iters / self.canary_procs.len().max(1) as f64;
            done += (self.canary.ring as f64 * n + mean) * cost;
        }
        (done / total.max(1.0)).clamp(0.0, 1.0)
    }

    /// Messages posted and not yet delivered (some may still be in their CPU's send
    /// overhead, not yet at the NIC).
    pub fn in_flight(&self) -> usize {
        self.inflight.len() + self.bursts.values().map(|b| b.left as usize).sum::<usize>()
    }

    /// Host time per message, cycles: (send, receive).
    pub fn host_cycles(&self) -> (u64, u64) {
        (self.host_send, self.host_recv)
    }

    /// (source process, destination process) of an undelivered message.
    pub fn processes_of(&self, msg_id: u64) -> Option<(u32, u32)> {
        self.inflight.get(&msg_id).map(|m| (m.src, m.dst))
    }

    /// Everything measured so far.
    pub fn results(&self) -> GpcnetResults {
        let tests = self
            .cfg
            .canary_tests
            .iter()
            .enumerate()
            .map(|(i, &t)| CanaryTestResult {
                test: t,
                units: t.units().to_string(),
                start_cycle: self.test_span[i].0,
                end_cycle: self.test_span[i].1,
                processes: self.results[i].clone(),
            })
            .collect();
        let mut congestors = Vec::new();
        if self.cfg.congestors {
            for (p, role) in self.roles.iter().enumerate() {
                if let ProcRole::Congestor { group, rank, .. } = *role {
                    congestors.push(CongestorProcessResult {
                        process: p as u32,
                        node: self.layout.node_of(p as u32),
                        group,
                        kind: self.layout.groups[group as usize].kind,
                        root: rank == 0,
                        bytes: self.procs[p].bytes,
                        ops: self.procs[p].ops,
                    });
                }
            }
        }
        let measure_cycles = match (self.canary.start_cycle, self.canary.end_cycle) {
            (Some(s), Some(e)) => e.saturating_sub(s),
            (Some(s), None) => self.last_cycle.saturating_sub(s),
            _ => 0,
        };
        GpcnetResults {
            nodes: self.layout.nodes,
            ppn: self.layout.ppn,
            congestors_on: self.cfg.congestors,
            canary_start_cycle: self.canary.start_cycle,
            canary_end_cycle: self.canary.end_cycle,
            finished: self.canary.finished,
            measure_cycles,
            tests,
            congestors,
        }
    }

    fn measuring(&self) -> bool {
        self.canary.started && !self.canary.finished
    }

    /// Posts a message from process `src` in cycle `emit`; `host`: its CPU posts it (send
    /// overhead), else its NIC answers by itself.
    #[allow(clippy::too_many_arguments)]
    fn send(
        &mut self,
        src: u32,
        dst: u32,
        kind: Kind,
        seq: u64,
        bytes: u32,
        emit: u64,
        host: bool,
    ) {
        let id = self.next_id;
        self.next_id += 1;
        self.inflight.insert(
            id,
            Meta {
                src,
                dst,
                kind,
                seq,
                bytes,
            },
        );
        let msg = Message {
            id,
            src: self.layout.node_of(src),
            dst: self.layout.node_of(dst),
            bytes,
            tag: kind.tag(),
            created: emit,
        };
        if host && self.host_send > 0 {
            let pr = &mut self.procs[src as usize];
            let t = pr.host_free.max(emit) + self.host_send;
            pr.host_free = t;
            self.posted.insert((t, id), Message { created: t, ..msg });
        } else {
            self.outbox.push(msg);
        }
    }

    /// The CPU of the receiving process completes message `id` (`m`), delivered in cycle
    /// `now`, after the host receive time; `complete_receive` then acts on it.
    fn defer_receive(&mut self, id: u64, m: Meta, now: u64) {
        let pr = &mut self.procs[m.dst as usize];
        let t = pr.host_free.max(now) + self.host_recv;
        pr.host_free = t;
        self.receiving.insert((t, id), m);
    }

    /// The receiving process has completed `m` in cycle `at`.
    fn complete_receive(&mut self, m: Meta, at: u64) {
        let emit = at + 1;
        match m.kind {
            Kind::PutAck => {
                let b = self.cfg.congestor_msg_bytes;
                self.op_done(m.dst, m.src, b, emit);
            }
            Kind::GetResp => self.op_done(m.dst, m.src, m.bytes, emit),
            _ => {
                *self.procs[m.dst as usize]
                    .mailbox
                    .entry((m.src, m.kind, m.seq))
                    .or_insert(0) += 1;
                self.progress(m.dst, at, emit);
            }
        }
    }

    /// Step `i` of process `p`'s current iteration (an all-to-all round made here).
    fn step_at(&self, p: u32, i: usize) -> Cow<'_, Step> {
        match self.procs[p as usize].steps {
            Steps::List(ref v) => Cow::Borrowed(&v[i]),
            Steps::A2a {
                group,
                comm,
                rank,
                k,
                ..
            } => Cow::Owned(steps::a2a_step(
                &self.cong_comms[group as usize][comm as usize],
                rank,
                k,
                i as u32,
                self.cfg.congestor_msg_bytes,
            )),
        }
    }

    fn post_step(&mut self, p: u32, emit: u64) {
        let sends = self
            .step_at(p, self.procs[p as usize].step)
            .into_owned()
            .sends;
        for s in &sends {
            for _ in 0..s.count {
                self.send(p, s.dst, s.kind, s.seq, s.bytes, emit, true);
            }
            self.procs[p as usize].pending += s.count;
        }
    }

    /// Completes as many steps of `p` as its mailbox allows. `at`: cycle of the event that
    /// triggered this; `emit`: cycle in which new messages are created.
    fn progress(&mut self, p: u32, at: u64, emit: u64) {
        loop {
            let pr = &self.procs[p as usize];
            if pr.step >= pr.steps.len() || pr.pending > 0 {
                return;
            }
            let st = self.step_at(p, pr.step);
            let ready = st.awaits.iter().all(|a| {
                pr.mailbox
                    .get(&(a.src, a.kind, a.seq))
                    .copied()
                    .unwrap_or(0)
                    >= a.count
            });
            if !ready {
                return;
            }
            // (a listed step is read again beside the mailbox; an all-to-all round is owned)
            let made = match st {
                Cow::Owned(s) => Some(s),
                Cow::Borrowed(_) => None,
            };
            let pr = &mut self.procs[p as usize];
            let st = match (&made, &pr.steps) {
                (Some(s), _) => s,
                (None, Steps::List(v)) => &v[pr.step],
                (None, Steps::A2a { .. }) => unreachable!("an all-to-all round is made"),
            };
            for a in &st.awaits {
                let k = (a.src, a.kind, a.seq);
                let c = pr.mailbox.get_mut(&k).expect("checked above");
                *c -= a.count;
                if *c == 0 {
                    pr.mailbox.remove(&k);
                }
            }
            pr.step += 1;
            if pr.step < pr.steps.len() {
                self.post_step(p, emit);
            } else {
                self.iteration_done(p, at, emit);
            }
        }
    }

    fn start_congestors(&mut self, emit: u64) {
        for g in 0..self.cong_comms.len() {
            let kind = self.layout.groups[g].kind;
            for l in 0..self.cong_comms[g].len() {
                let members = self.cong_comms[g][l].clone();
                for (r, &p) in members.iter().enumerate() {
                    if kind == CongestorKind::A2a {
                        self.start_iteration(p, emit);
                    } else if r > 0 {
                        let window = match (kind, self.cfg.incast_protocol) {
                            (CongestorKind::Incast, SendProtocol::Eager) => self.cfg.eager_window,
                            _ => self.cfg.congestor_window,
                        };
                        if self.host_send > 0 && window > 1 {
                            self.post_burst(p, members[0], kind, window, emit);
                        } else {
                            for _ in 0..window {
                                self.post_op(p, members[0], kind, emit);
                            }
                        }
                    }
                }
            }
        }
    }

    fn post_op(&mut self, p: u32, root: u32, kind: CongestorKind, emit: u64) {
        self.procs[p as usize].outstanding += 1;
        let (k, b) = self.op_message(kind);
        self.send(p, root, k, 0, b, emit, true);
    }

    /// The message kind and bytes of an operation of congestor `kind`.
    fn op_message(&self, kind: CongestorKind) -> (Kind, u32) {
        match kind {
            CongestorKind::Incast => (Kind::Incast, self.cfg.congestor_msg_bytes),
            CongestorKind::PutIncast => (Kind::Put, self.cfg.congestor_msg_bytes),
            CongestorKind::GetBcast => (Kind::GetReq, self.cfg.control_msg_bytes),
            CongestorKind::A2a => unreachable!("a2a runs steps"),
        }
    }

    fn op_done(&mut self, p: u32, root: u32, bytes: u32, emit: u64) {
        let measuring = self.measuring();
        let ProcRole::Congestor { group, .. } = self.roles[p as usize] else {
            return;
        };
        let kind = self.layout.groups[group as usize].kind;
        let pr = &mut self.procs[p as usize];
        pr.outstanding = pr.outstanding.saturating_sub(1);
        if measuring {
            pr.bytes += bytes as u64;
            pr.ops += 1;
        }
        self.post_op(p, root, kind, emit);
    }
}

impl Workload for GpcnetWorkload {
    fn tag_name(&self, tag: u32) -> Option<&'static str> {
        crate::workload::tag::known(tag)
    }

    fn tick(&mut self, now: u64, out: &mut Vec<Message>) {
        self.last_cycle = self.last_cycle.max(now);
        // Receives whose host time ended in an earlier cycle: the processes act now.
        while let Some(e) = self.receiving.first_entry() {
            if e.key().0 >= now {
                break;
            }
            let ((at, _), m) = e.remove_entry();
            self.complete_receive(m, at);
        }
        if !self.congestors_started && self.cfg.congestors {
            self.congestors_started = true;
            self.start_congestors(now);
        }
        if !self.canary.started && now >= self.cfg.canary_start_cycles {
            self.canary.started = true;
            self.canary.start_cycle = Some(now);
            self.canary.pos = 0;
            self.canary.ring = 0;
            self.start_ring(now);
        }
        // Messages whose host send time has ended reach the NIC.
        while let Some(e) = self.posted.first_entry() {
            if e.key().0 > now {
                break;
            }
            let m = e.remove();
            // (a burst's next message, one host send time later)
            if let Some(b) = self.bursts.remove(&m.id) {
                self.make_burst_message(b);
            }
            self.outbox.push(m);
        }
        out.append(&mut self.outbox);
    }

    fn delivered(&mut self, now: u64, d: &Delivery) {
        self.last_cycle = self.last_cycle.max(now);
        let Some(m) = self.inflight.remove(&d.msg.id) else {
            return;
        };
        let emit = now + 1;
        let id = d.msg.id;
        match m.kind {
            Kind::Incast => self.op_done(m.src, m.dst, m.bytes, emit),
            Kind::Put => {
                let b = self.cfg.control_msg_bytes;
                self.send(m.dst, m.src, Kind::PutAck, 0, b, emit, false);
            }
            Kind::GetReq => {
                let b = self.cfg.congestor_msg_bytes;
                self.send(m.dst, m.src, Kind::GetResp, 0, b, emit, false);
            }
            Kind::PutAck | Kind::GetResp if self.host_recv > 0 => self.defer_receive(id, m, now),
            Kind::PutAck | Kind::GetResp => self.complete_receive(m, now),
            _ => {
                let host = self.host_recv > 0;
                if !host {
                    *self.procs[m.dst as usize]
                        .mailbox
                        .entry((m.src, m.kind, m.seq))
                        .or_insert(0) += 1;
                }
                let measuring = self.measuring();
                let sp = &mut self.procs[m.src as usize];
                sp.pending = sp.pending.saturating_sub(1);
                if m.kind == Kind::A2a && measuring {
                    sp.bytes += m.bytes as u64;
                    sp.ops += 1;
                }
                if host {
                    // The sender's completion is local; the receiver's CPU is not yet done.
                    self.progress(m.src, now, emit);
                    self.defer_receive(id, m, now);
                } else {
                    self.progress(m.dst, now, emit);
                    self.progress(m.src, now, emit);
                }
            }
        }
    }
}
