//! DCQCN in the NICs: the notification point (NP) at the destination and the reaction point
//! (RP) at the source, per flow (a flow is one source-destination pair, the NIC's queue for
//! that destination, as IB CC's; a limited flow never blocks another).
//!
//! - **NP**: a data packet that arrives with ECN set queues a CNP (one flit, to the packet's
//!   source) at once when the flow has had no CNP in the last `cnp_interval`; otherwise the
//!   flow's CNP is deferred to the end of that interval (at most one per flow per interval,
//!   one for every interval in which a marked packet arrived: the paper's §3.2).
//! - **RP** (the paper's Fig. 6): on a CNP `RT = RC`, `RC = max(RC (1 - alpha/2), min)`,
//!   `alpha = (1 - g) alpha + g`, and the increase state restarts (timer and byte counter
//!   at 0). Alpha decays by `(1 - g)` every `alpha_timer` without a CNP (kept lazily: the
//!   periods elapsed are applied at the next CNP). The rate timer (every `rate_timer`) and
//!   the byte counter (every `byte_counter` flits sent) each count an event and raise the
//!   rate: `RC = (RT + RC) / 2` after, while both counts are at most F, nothing (fast
//!   recovery); while one is above F, `RT += R_AI` (additive); both above F,
//!   `RT += (min(T, BC) - F) R_HAI` (hyper). RT is capped at the line rate; a flow whose RC
//!   is back at it is no longer limited.
//! - **Rate limiter**: a packet of L flits started at t makes the flow's next packet wait
//!   until `t + ceil(L / RC)` (RC a fraction of the line rate, one flit per cycle); a rate
//!   change moves that time (NS-3's `ChangeRate`). A started packet's flits leave back to
//!   back as credits allow, as under IB CC.
//!
//! The RP's per-flow rules (`Flow`) are `pft_hdl::dcqcn::float`, beside the fixed-point
//! model the RTL implements (`pft_hdl::dcqcn::model`; docs/cc/dcqcn.md, "The RTL"); this
//! file keeps the NP and each NIC's lists of flows and caches.

use super::config::Derived;
use crate::net::flows::{key, FlowMap};
use pft_hdl::dcqcn::float::{self, NEVER};
use std::collections::VecDeque;

/// One flow's RP state: the rules are `pft_hdl::dcqcn::float` (moved there unchanged, beside
/// the fixed-point model of the RTL, `pft_hdl::dcqcn::model`).
pub use pft_hdl::dcqcn::float::Flow;

/// The RP's constants of `d`, as the rules take them.
pub fn rp_params(d: &Derived) -> float::Params {
    float::Params {
        alpha_timer: d.alpha_timer,
        rate_timer: d.rate_timer,
        byte_counter: d.byte_counter,
        f: d.f,
        g: d.g,
        rai: d.rai,
        rhai: d.rhai,
        min_rate: d.min_rate,
    }
}

/// Per-NIC DCQCN counters since cycle 0.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DcqcnNicStats {
    /// Data packets that arrived here with ECN set (NP).
    pub ecn_received: u64,
    /// CNPs this NIC injected (NP).
    pub cnps_sent: u64,
    /// CNPs that arrived here: rate cuts (RP).
    pub cnps_received: u64,
    /// Rate-increase events (timer or byte counter) of this NIC's flows (RP).
    pub rate_increases: u64,
}

/// DCQCN state of every NIC.
pub struct DcqcnNics {
    d: Derived,
    /// The RP's part of `d`.
    rp: float::Params,
    /// RP: flow `src -> dst` at `key(src, dst)`, only while it differs from
    /// `Flow::default()` (issue 43: memory per flow with state, not per NIC pair). Only
    /// looked up: the order of service is in `limited` and the NICs' lists.
    flows: FlowMap<Flow>,
    /// `Flow::default()`: every flow without a record.
    fresh: Flow,
    /// RP, per NIC: destinations of its limited flows.
    limited: Vec<Vec<u32>>,
    /// NP: the last CNP of flow `src -> dst` at `key(dst, src)` (none: NEVER), and the
    /// flows whose CNP waits for the end of its interval (present: true). Only looked up.
    last_cnp: FlowMap<u64>,
    deferred: FlowMap<()>,
    /// NP, per NIC: sources with a deferred CNP.
    pending: Vec<Vec<u32>>,
    /// Per NIC: nothing is due before this cycle (a cache of the earliest timer).
    next_event: Vec<u64>,
    /// Per NIC: no queued flow may start before this cycle (a cache; 0 = unknown).
    blocked_until: Vec<u64>,
    /// Per NIC: CNPs to send (destination = the marked packets' source).
    cnp_q: Vec<VecDeque<u32>>,
    pub stats: Vec<DcqcnNicStats>,
}

impl DcqcnNics {
    /// State for `nodes` NICs with the constants `d`.
    pub fn new(d: Derived, nodes: u32) -> Self {
        let n = nodes as usize;
        DcqcnNics {
            rp: rp_params(&d),
            d,
            flows: FlowMap::default(),
            fresh: Flow::default(),
            limited: vec![Vec::new(); n],
            last_cnp: FlowMap::default(),
            deferred: FlowMap::default(),
            pending: vec![Vec::new(); n],
            next_event: vec![NEVER; n],
            blocked_until: vec![0; n],
            cnp_q: (0..n).map(|_| VecDeque::new()).collect(),
            stats: vec![DcqcnNicStats::default(); n],
        }
    }

    /// Flow `src -> dst`'s RP state.
    pub fn flow(&self, src: u32, dst: u32) -> &Flow {
        self.flows.get(&key(src, dst)).unwrap_or(&self.fresh)
    }

    /// Keep flow `src -> dst`'s state `f`: a record only while it is not the default.
    #[inline]
    fn store(&mut self, src: u32, dst: u32, f: Flow) {
        if f == self.fresh {
            self.flows.remove(&key(src, dst));
        } else {
            self.flows.insert(key(src, dst), f);
        }
    }

    /// Records held: RP flows with state, NP flows that sent a CNP.
    pub fn records(&self) -> usize {
        self.flows.len() + self.last_cnp.len()
    }

    /// The last CNP NIC `n` sent to `src` (NEVER: none).
    #[inline]
    fn last_cnp(&self, n: usize, src: u32) -> u64 {
        self.last_cnp
            .get(&key(n as u32, src))
            .copied()
            .unwrap_or(NEVER)
    }

    /// NIC `n` has a limited flow.
    #[inline]
    pub fn congested(&self, n: usize) -> bool {
        !self.limited[n].is_empty()
    }

    /// Limited flows at all NICs, and their mean rate (fraction of the line rate; 1 when
    /// none).
    pub fn limited_summary(&self) -> (usize, f64) {
        let mut count = 0;
        let mut sum = 0.0;
        for (n, l) in self.limited.iter().enumerate() {
            for &dst in l {
                count += 1;
                sum += self.flow(n as u32, dst).rc;
            }
        }
        (count, if count > 0 { sum / count as f64 } else { 1.0 })
    }

    /// CNPs waiting at NIC `n`.
    pub fn cnps_pending(&self, n: usize) -> usize {
        self.cnp_q[n].len()
    }

    /// All NICs' waiting CNPs, deferred ones included (the network is not idle while a
    /// CNP is still to come).
    pub fn cnps_pending_total(&self) -> usize {
        self.cnp_q.iter().map(|q| q.len()).sum::<usize>()
            + self.pending.iter().map(|p| p.len()).sum::<usize>()
    }

    /// Cycle `now` at NIC `n`: the rate timers of its limited flows and its deferred CNPs.
    #[inline]
    pub fn tick(&mut self, n: usize, now: u64) {
        if now < self.next_event[n] {
            return;
        }
        let mut next = NEVER;
        let d = self.d;
        let rp = self.rp;
        let mut i = 0;
        while i < self.limited[n].len() {
            let dst = self.limited[n][i];
            let mut f = *self.flow(n as u32, dst);
            let before = f.t;
            let still = f.timer(&rp, now);
            self.store(n as u32, dst, f);
            self.stats[n].rate_increases += (f.t - before) as u64;
            if still {
                next = next.min(f.next_t);
                i += 1;
            } else {
                self.limited[n].swap_remove(i);
            }
        }
        // the rates rose: a queued flow may start earlier than the cache says
        self.blocked_until[n] = 0;
        let mut i = 0;
        while i < self.pending[n].len() {
            let src = self.pending[n][i];
            let due = self.last_cnp(n, src) + d.cnp_interval;
            if due <= now {
                self.cnp_q[n].push_back(src);
                self.last_cnp.insert(key(n as u32, src), now);
                self.deferred.remove(&key(n as u32, src));
                self.pending[n].swap_remove(i);
            } else {
                next = next.min(due);
                i += 1;
            }
        }
        self.next_event[n] = next;
    }

    /// A CNP for flow `n -> dst` arrived at NIC `n` at `now`.
    pub fn cnp(&mut self, n: usize, dst: u32, now: u64) {
        let mut f = *self.flow(n as u32, dst);
        let was = f.limited;
        f.cnp(&self.rp, now);
        self.store(n as u32, dst, f);
        if !was {
            self.limited[n].push(dst);
        }
        self.next_event[n] = self.next_event[n].min(f.next_t);
        self.stats[n].cnps_received += 1;
    }

    /// A data packet from `src` arrived at NIC `n` with ECN set at `now`.
    pub fn marked(&mut self, n: usize, src: u32, now: u64) {
        self.stats[n].ecn_received += 1;
        let i = key(n as u32, src);
        let last = self.last_cnp(n, src);
        if last == NEVER || now - last >= self.d.cnp_interval {
            self.cnp_q[n].push_back(src);
            self.last_cnp.insert(i, now);
        } else if self.deferred.insert(i, ()).is_none() {
            // not deferred yet: now it is
            self.pending[n].push(src);
            self.next_event[n] = self.next_event[n].min(last + self.d.cnp_interval);
        }
    }

    /// The next CNP of NIC `n` to send, if any (taken off the queue).
    #[inline]
    pub fn take_cnp(&mut self, n: usize) -> Option<u32> {
        let d = self.cnp_q[n].pop_front()?;
        self.stats[n].cnps_sent += 1;
        Some(d)
    }

    /// NIC `n` has something it may start now: a CNP, or a queued destination in `active`
    /// whose flow may start.
    #[inline]
    pub fn ready(&mut self, n: usize, now: u64, active: &VecDeque<u32>) -> bool {
        if !self.cnp_q[n].is_empty() {
            return true;
        }
        if active.is_empty() || now < self.blocked_until[n] {
            return false;
        }
        let mut earliest = NEVER;
        for &d in active {
            let t = self.flow(n as u32, d).next_ok;
            if t <= now {
                return true;
            }
            earliest = earliest.min(t);
        }
        self.blocked_until[n] = earliest;
        false
    }

    /// A new destination queue became non-empty at NIC `n`: it may be eligible now.
    #[inline]
    pub fn queue_opened(&mut self, n: usize) {
        self.blocked_until[n] = 0;
    }

    /// Flow `n -> dst` may start a packet now.
    #[inline]
    pub fn eligible(&self, n: usize, dst: u32, now: u64) -> bool {
        self.flow(n as u32, dst).next_ok <= now
    }

    /// Flow `n -> dst` starts a packet of `flits` at `now`.
    #[inline]
    pub fn started(&mut self, n: usize, dst: u32, flits: u32, now: u64) {
        let mut f = *self.flow(n as u32, dst);
        let (bc, was) = (f.bc, f.limited);
        f.started(&self.rp, flits, now);
        self.store(n as u32, dst, f);
        self.stats[n].rate_increases += (f.bc != bc) as u64;
        if was && !f.limited {
            if let Some(k) = self.limited[n].iter().position(|&x| x == dst) {
                self.limited[n].swap_remove(k);
            }
        }
    }
}

#[cfg(test)]
mod tests;
