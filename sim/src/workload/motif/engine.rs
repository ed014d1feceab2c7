//! The engine that runs motifs and traces: every rank steps through its operations of the
//! current iteration (`Op`), one after the other, until one blocks (a `Wait` whose sends
//! are not all delivered or whose receives have not all arrived, or a `Compute`). A
//! rank reacts to a delivery in the cycle after it; a `Compute(c)` started in cycle t ends
//! in cycle t + c. The end of an iteration's operations is a `Wait`; the cycle in which it
//! completes is the rank's end of that iteration. Receives are matched by source, in
//! order of arrival (MPI with one tag); sizes are checked by the trace reader, not here.

use super::{MotifConfig, MotifGen, Op, Trace};
use crate::metrics::Summary;
use crate::net::types::{Delivery, Message, NodeId, Workload};
use crate::workload::config::{check_workload, ConfigErrors};
use crate::workload::tag;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

/// Where the operations come from.
#[derive(Clone, Debug)]
enum Source {
    Motif(Box<MotifGen>),
    Trace(Arc<Trace>),
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum St {
    /// Runnable in its next wake-up (or not started).
    #[default]
    Ready,
    Computing,
    Blocked,
    Done,
}

#[derive(Clone, Debug, Default)]
struct Rank {
    ops: Vec<Op>,
    pc: usize,
    iter: u32,
    sends_out: u32,
    /// Posted receives not yet matched: (source, count).
    need: Vec<(u32, u32)>,
    /// Arrived messages not yet matched, by source.
    arrived: HashMap<u32, u32>,
    st: St,
    /// Cycle its last iteration ended (its start for the first).
    last_end: u64,
}

#[derive(Clone, Debug, Default)]
struct IterAgg {
    ranks_done: u32,
    first_end: u64,
    end: u64,
    rank_min: u64,
    rank_max: u64,
    rank_sum: u64,
    messages: u64,
    bytes: u64,
}

/// One iteration of the job (a row of `motif_iterations.csv`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct IterationRow {
    /// 0-based.
    pub iteration: u32,
    /// False for the first `warmup_iterations` (left out of the statistics).
    pub measured: bool,
    /// Ranks that finished it.
    pub ranks_done: u32,
    /// Cycle in which its first rank finished it.
    pub first_rank_end: Option<u64>,
    /// Cycle in which its last rank finished it: the job's end of the iteration (empty
    /// while a rank has not).
    pub end_cycle: Option<u64>,
    /// The job's iteration time: `end_cycle` minus the previous iteration's `end_cycle`
    /// (the first: minus the start cycle).
    pub cycles: Option<u64>,
    /// Ranks' own iteration times (their end minus their previous end): min, mean, max.
    pub rank_cycles_min: Option<u64>,
    pub rank_cycles_mean: Option<f64>,
    pub rank_cycles_max: Option<u64>,
    /// Messages the ranks sent in it, and their bytes.
    pub messages: u64,
    pub bytes: u64,
}

/// Everything a motif or trace run measured.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MotifResults {
    /// The motif's name, or `trace`.
    pub motif: String,
    pub ranks: u32,
    pub iterations: u32,
    pub warmup_iterations: u32,
    pub start_cycle: u64,
    /// Every rank finished every iteration.
    pub finished: bool,
    pub messages_sent: u64,
    pub messages_delivered: u64,
    pub bytes_delivered: u64,
    pub rows: Vec<IterationRow>,
}

/// The statistics of a motif or trace run (`summary.json`'s `motif`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MotifSummary {
    pub motif: String,
    pub ranks: u32,
    pub iterations: u32,
    pub warmup_iterations: u32,
    /// Iterations every rank finished.
    pub iterations_done: u32,
    pub finished: bool,
    /// The job's iteration times (`IterationRow::cycles`) of the measured iterations done:
    /// count, mean, min, p50, p99 (nearest rank), max, cycles.
    pub iteration_cycles: Option<Summary>,
    /// Cycle in which the last iteration ended minus the start cycle (None: not finished).
    pub total_cycles: Option<u64>,
    pub messages_delivered: u64,
    pub bytes_delivered: u64,
}

impl MotifResults {
    /// The summary.
    pub fn summary(&self) -> MotifSummary {
        let done: Vec<&IterationRow> = self.rows.iter().filter(|r| r.cycles.is_some()).collect();
        let samples: Vec<f64> = done
            .iter()
            .filter(|r| r.measured)
            .filter_map(|r| r.cycles.map(|c| c as f64))
            .collect();
        MotifSummary {
            motif: self.motif.clone(),
            ranks: self.ranks,
            iterations: self.iterations,
            warmup_iterations: self.warmup_iterations,
            iterations_done: done.len() as u32,
            finished: self.finished,
            iteration_cycles: Summary::of(&samples),
            total_cycles: self
                .finished
                .then(|| done.last().and_then(|r| r.end_cycle))
                .flatten()
                .map(|e| e - self.start_cycle),
            messages_delivered: self.messages_delivered,
            bytes_delivered: self.bytes_delivered,
        }
    }
}

/// A motif or a trace, run closed loop (see the module docs).
#[derive(Clone, Debug)]
pub struct MotifWorkload {
    name: String,
    source: Source,
    ranks: Vec<Rank>,
    iterations: u32,
    warmup: u32,
    start: u64,
    started: bool,
    wake: BTreeSet<(u64, u32)>,
    next_id: u64,
    outbox: Vec<Message>,
    iters: Vec<IterAgg>,
    done_ranks: u32,
    sent: u64,
    delivered: u64,
    bytes_delivered: u64,
    /// The NIC of each rank, and the rank of each NIC (u32::MAX: none).
    nic_of: Vec<u32>,
    rank_of: Vec<u32>,
    /// The tag of its messages and the first message id.
    tag: u32,
    id_base: u64,
    /// The all-to-all's operations made one at a time (`MotifGen::one_at_a_time`), not
    /// listed in `Rank::ops`.
    one_at_a_time: Option<(u32, u32, u64)>,
}

impl MotifWorkload {
    /// The motif `cfg` on `nodes` NICs (one rank each); `seed` draws the random rings.
    pub fn new(
        cfg: &MotifConfig,
        nodes: u32,
        flit_bytes: u32,
        seed: u64,
    ) -> Result<Self, ConfigErrors> {
        check_workload(nodes, flit_bytes, cfg.validate(nodes))?;
        let gen = MotifGen::new(cfg, nodes, seed);
        Ok(Self::with_source(
            cfg.motif.name(),
            Source::Motif(Box::new(gen)),
            nodes,
            cfg.iterations,
            cfg.warmup_iterations,
            cfg.start_cycle,
        ))
    }

    /// The trace `t` on `nodes` NICs (rank r on NIC r; NICs above its ranks run nothing).
    pub fn from_trace(
        t: Arc<Trace>,
        nodes: u32,
        flit_bytes: u32,
        warmup: u32,
        start: u64,
    ) -> Result<Self, ConfigErrors> {
        let mut e = ConfigErrors::default();
        crate::workload::config::check_fabric(&mut e, nodes, flit_bytes);
        if t.ranks > nodes {
            e.push(
                "path",
                format!("a trace of {} ranks", t.ranks),
                format!("allowed at most the NIC count, {nodes}, ranks"),
            );
        }
        super::check_common(&mut e, t.iterations, warmup, start);
        e.into_result()?;
        let (ranks, iters) = (t.ranks, t.iterations);
        Ok(Self::with_source(
            "trace",
            Source::Trace(t),
            ranks,
            iters,
            warmup,
            start,
        ))
    }

    fn with_source(
        name: &str,
        source: Source,
        ranks: u32,
        iterations: u32,
        warmup: u32,
        start: u64,
    ) -> Self {
        let one_at_a_time = match &source {
            Source::Motif(g) => g.one_at_a_time(),
            Source::Trace(_) => None,
        };
        MotifWorkload {
            name: name.to_string(),
            one_at_a_time,
            source,
            ranks: vec![Rank::default(); ranks as usize],
            iterations,
            warmup,
            start,
            started: false,
            wake: BTreeSet::new(),
            next_id: 0,
            outbox: Vec::new(),
            iters: vec![IterAgg::default(); iterations as usize],
            done_ranks: 0,
            sent: 0,
            delivered: 0,
            bytes_delivered: 0,
            nic_of: (0..ranks).collect(),
            rank_of: (0..ranks).collect(),
            tag: tag::MOTIF,
            id_base: 0,
        }
    }

    /// The same workload with rank r on NIC `nics[r]` of `nodes`, its messages tagged `tag`
    /// and numbered from `id_base` (a job among others: `jobs`).
    pub(crate) fn placed(mut self, nics: &[u32], nodes: u32, tag: u32, id_base: u64) -> Self {
        debug_assert_eq!(nics.len(), self.ranks.len());
        self.rank_of = vec![u32::MAX; nodes as usize];
        for (r, &n) in nics.iter().enumerate() {
            self.rank_of[n as usize] = r as u32;
        }
        self.nic_of = nics.to_vec();
        self.tag = tag;
        self.id_base = id_base;
        self
    }

    /// The NIC of each rank.
    pub fn nics(&self) -> &[u32] {
        &self.nic_of
    }

    /// Ranks (NICs 0..ranks run them).
    pub fn ranks(&self) -> u32 {
        self.ranks.len() as u32
    }

    /// The motif's name, or `trace`.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// True once every rank has finished every iteration.
    pub fn finished(&self) -> bool {
        self.done_ranks == self.ranks()
    }

    /// Share of the rank-iterations done, 0 to 1.
    pub fn work_done(&self) -> f64 {
        let total = self.ranks.len() as f64 * self.iterations as f64;
        let done: f64 = self.ranks.iter().map(|r| r.iter as f64).sum();
        (done / total.max(1.0)).clamp(0.0, 1.0)
    }

    /// The operations of `rank` in iteration `iter`.
    fn load(&mut self, rank: u32, iter: u32) {
        let mut ops = std::mem::take(&mut self.ranks[rank as usize].ops);
        ops.clear();
        match &mut self.source {
            Source::Motif(_) if self.one_at_a_time.is_some() => {}
            Source::Motif(g) => g.ops(rank, iter, &mut ops),
            Source::Trace(t) => ops.extend_from_slice(t.ops(rank, iter)),
        }
        let r = &mut self.ranks[rank as usize];
        r.ops = ops;
        r.pc = 0;
    }

    /// Completes the posted sends and receives of `rank` if they are done.
    fn try_wait(&mut self, rank: u32) -> bool {
        let r = &mut self.ranks[rank as usize];
        if r.sends_out > 0 {
            return false;
        }
        let ok = r
            .need
            .iter()
            .all(|(p, n)| r.arrived.get(p).copied().unwrap_or(0) >= *n);
        if ok {
            for (p, n) in std::mem::take(&mut r.need) {
                let c = r.arrived.get_mut(&p).expect("checked above");
                *c -= n;
                if *c == 0 {
                    r.arrived.remove(&p);
                }
            }
        }
        ok
    }

    fn iteration_done(&mut self, rank: u32, now: u64) {
        let r = &mut self.ranks[rank as usize];
        let t = now - r.last_end;
        r.last_end = now;
        let k = r.iter as usize;
        r.iter += 1;
        let a = &mut self.iters[k];
        if a.ranks_done == 0 {
            a.first_end = now;
            a.rank_min = t;
        }
        a.ranks_done += 1;
        a.end = a.end.max(now);
        a.rank_min = a.rank_min.min(t);
        a.rank_max = a.rank_max.max(t);
        a.rank_sum += t;
    }

    /// Runs `rank` in cycle `now` until it blocks.
    fn run_rank(&mut self, rank: u32, now: u64) {
        loop {
            let r = &mut self.ranks[rank as usize];
            if r.st == St::Done {
                return;
            }
            r.st = St::Ready;
            let op = match self.one_at_a_time {
                Some(gen) => MotifGen::op_at(gen, rank, r.pc),
                None => r.ops.get(r.pc).copied(),
            };
            let Some(op) = op else {
                // the end of the iteration: wait for everything posted
                if !self.try_wait(rank) {
                    self.ranks[rank as usize].st = St::Blocked;
                    return;
                }
                self.iteration_done(rank, now);
                let it = self.ranks[rank as usize].iter;
                if it >= self.iterations {
                    self.ranks[rank as usize].st = St::Done;
                    self.done_ranks += 1;
                    return;
                }
                self.load(rank, it);
                continue;
            };
            match op {
                Op::Send { peer, bytes } => {
                    r.pc += 1;
                    r.sends_out += 1;
                    let k = r.iter as usize;
                    self.outbox.push(Message {
                        id: self.id_base + self.next_id,
                        src: NodeId(self.nic_of[rank as usize]),
                        dst: NodeId(self.nic_of[peer as usize]),
                        bytes,
                        tag: self.tag,
                        created: now,
                    });
                    self.next_id += 1;
                    self.sent += 1;
                    self.iters[k].messages += 1;
                    self.iters[k].bytes += bytes as u64;
                }
                Op::Recv { peer, .. } => {
                    r.pc += 1;
                    match r.need.iter_mut().find(|(p, _)| *p == peer) {
                        Some(e) => e.1 += 1,
                        None => r.need.push((peer, 1)),
                    }
                }
                Op::Wait => {
                    if !self.try_wait(rank) {
                        self.ranks[rank as usize].st = St::Blocked;
                        return;
                    }
                    self.ranks[rank as usize].pc += 1;
                }
                Op::Compute(c) => {
                    r.pc += 1;
                    if c > 0 {
                        r.st = St::Computing;
                        self.wake.insert((now + c, rank));
                        return;
                    }
                }
            }
        }
    }

    /// Everything measured so far.
    pub fn results(&self) -> MotifResults {
        let n = self.ranks();
        let mut prev = Some(self.start);
        let rows = self
            .iters
            .iter()
            .enumerate()
            .map(|(k, a)| {
                let all = a.ranks_done == n;
                let end = all.then_some(a.end);
                let cycles = match (end, prev) {
                    (Some(e), Some(p)) => Some(e - p),
                    _ => None,
                };
                prev = end;
                let some = a.ranks_done > 0;
                IterationRow {
                    iteration: k as u32,
                    measured: k as u32 >= self.warmup,
                    ranks_done: a.ranks_done,
                    first_rank_end: some.then_some(a.first_end),
                    end_cycle: end,
                    cycles,
                    rank_cycles_min: some.then_some(a.rank_min),
                    rank_cycles_mean: some.then(|| a.rank_sum as f64 / a.ranks_done as f64),
                    rank_cycles_max: some.then_some(a.rank_max),
                    messages: a.messages,
                    bytes: a.bytes,
                }
            })
            .collect();
        MotifResults {
            motif: self.name.clone(),
            ranks: n,
            iterations: self.iterations,
            warmup_iterations: self.warmup,
            start_cycle: self.start,
            finished: self.finished(),
            messages_sent: self.sent,
            messages_delivered: self.delivered,
            bytes_delivered: self.bytes_delivered,
            rows,
        }
    }
}

impl Workload for MotifWorkload {
    fn tag_name(&self, tag: u32) -> Option<&'static str> {
        crate::workload::tag::known(tag)
    }

    fn tick(&mut self, now: u64, out: &mut Vec<Message>) {
        if !self.started && now >= self.start {
            self.started = true;
            for r in 0..self.ranks() {
                self.ranks[r as usize].last_end = now;
                self.load(r, 0);
                self.wake.insert((now, r));
            }
        }
        while let Some(&(t, r)) = self.wake.first() {
            if t > now {
                break;
            }
            self.wake.pop_first();
            self.run_rank(r, now);
        }
        out.append(&mut self.outbox);
    }

    fn delivered(&mut self, now: u64, d: &Delivery) {
        if d.msg.tag != self.tag {
            return;
        }
        self.delivered += 1;
        self.bytes_delivered += d.msg.bytes as u64;
        let rank = |n: NodeId| self.rank_of.get(n.index()).copied().unwrap_or(u32::MAX);
        let (s, t) = (rank(d.msg.src), rank(d.msg.dst));
        for (rank, is_src) in [(s, true), (t, false)] {
            let Some(r) = self.ranks.get_mut(rank as usize) else {
                continue;
            };
            if is_src {
                r.sends_out = r.sends_out.saturating_sub(1);
            } else {
                *r.arrived.entry(s).or_insert(0) += 1;
            }
            if r.st == St::Blocked {
                self.wake.insert((now + 1, rank));
            }
        }
    }
}
