//! IB CC in the NICs: the source's per-flow congestion control table index (CCTI) and
//! injection rate delay (IRD), the CCTI timer, and the destination's congestion
//! notification packets (CNP).
//!
//! A flow is one (source, destination) pair: the NIC's send queue for that destination
//! (QP-level CC with one QP per destination). A throttled flow never blocks another: the
//! NIC starts the next packet from the first *eligible* destination in round-robin order.
//!
//! - BECN (a CNP's arrival at the source): `CCTI += ccti_increase`, at most `ccti_limit`.
//! - Timer: every `ccti_timer` (x 1.024 us) each flow of the NIC with `CCTI > ccti_min`
//!   loses one. Each NIC's timer runs from its own phase (drawn from the run seed), as
//!   NICs are not started in lock-step.
//! - IRD: a packet of L flits started at t on a flow makes that flow's next packet wait
//!   until `t + L + IRD`, IRD = `ird(CCT[CCTI], L)`; CCTI = 0 means no delay. A started
//!   packet's flits go out as credits allow (the block gates only packet starts).
//! - FECN at the destination: a data packet whose head arrives with FECN queues one CNP
//!   (one flit, to the packet's source), sent before any data packet of that NIC.
//!
//! The source's rules (BECN, timer, IRD) are `pft_hdl::ibcc::model`'s, the one logic the
//! RTL (`pft_hdl::ibcc`) is tested against: this file keeps the state of the active flows
//! and calls the model's functions on it.
//!
//! Memory (issue 43): a flow has a record (CCTI, next start: 16 bytes, in a map keyed by
//! (source, destination)) only while its CCTI is above 0 or its next start is ahead; absent
//! means CCTI 0 and no wait. Each NIC lists its flows with a record; its timer expiry
//! lowers their CCTIs (the only ones above 0) and drops the records that came back to
//! "CCTI 0, no wait". Neither the list's order nor a drop can change a result: flows are
//! independent under the timer, and a dropped record reads as what it held.

use super::IbccConfig;
use crate::net::flows::{key, FlowMap};
use pft_hdl::ibcc::model::{Params, Timer};
use std::collections::VecDeque;

/// IB CC state of every NIC (flows keyed by `key(src, dst)`, active ones only).
pub struct IbccNics {
    /// The source's constants (CCTI step, limit, floor, CCT): the hdl model's.
    p: Params,
    period: u64,
    /// Per active flow: (CCTI, earliest start of its next packet); absent: (0, 0).
    flows: FlowMap<(u16, u64)>,
    /// Per NIC: the destinations of its flows in `flows` (any order).
    listed: Vec<Vec<u32>>,
    /// Per NIC: flows with CCTI > 0 (the NIC is "congested" while any).
    hot: Vec<u32>,
    /// Per NIC: the CCTI timer.
    timer: Vec<Timer>,
    /// Per NIC: no queued flow is eligible before this cycle (a cache; 0 = unknown).
    blocked_until: Vec<u64>,
    /// Per NIC: CNPs to send (destination = the marked packet's source).
    cnp_q: Vec<VecDeque<u32>>,
    /// Per NIC counters.
    pub stats: Vec<IbccNicStats>,
}

/// Per-NIC IB CC counters since cycle 0.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct IbccNicStats {
    /// Data packets that arrived here with FECN.
    pub fecn_received: u64,
    /// CNPs this NIC injected.
    pub cnps_sent: u64,
    /// CNPs (BECNs) that arrived here.
    pub becns_received: u64,
    /// Timer expiries that lowered at least one CCTI.
    pub ccti_decrements: u64,
}

/// The first expiry of a timer of `period` cycles whose phase source is `phase` (any
/// u64): cycle 1..=period.
pub fn first_expiry(phase: u64, period: u64) -> u64 {
    1 + phase % period
}

impl IbccNics {
    /// State for `nodes` NICs; `cycle_ns` converts the timer; `phase(n)` is NIC n's timer
    /// phase source (any u64; reduced modulo the period).
    pub fn new(cfg: &IbccConfig, nodes: u32, cycle_ns: f64, phase: impl Fn(u32) -> u64) -> Self {
        let n = nodes as usize;
        let period = cfg.timer_cycles(cycle_ns);
        IbccNics {
            p: Params {
                increase: cfg.ccti_increase as u16,
                limit: cfg.ccti_limit as u16,
                min: cfg.ccti_min as u16,
                cct: cfg.table(),
            },
            period,
            flows: FlowMap::default(),
            listed: vec![Vec::new(); n],
            hot: vec![0; n],
            timer: (0..nodes)
                .map(|i| Timer::new(period, first_expiry(phase(i), period)))
                .collect(),
            blocked_until: vec![0; n],
            cnp_q: (0..n).map(|_| VecDeque::new()).collect(),
            stats: vec![IbccNicStats::default(); n],
        }
    }

    /// The timer period, cycles.
    pub fn period(&self) -> u64 {
        self.period
    }

    /// NIC `n`'s next timer expiry (before the first cycle: its first, the phase
    /// `pftsim verilog --nic` exports).
    pub fn next_expiry(&self, n: u32) -> u64 {
        self.timer[n as usize].at
    }

    /// The record of flow `src -> dst` ((0, 0) without one).
    #[inline]
    fn flow(&self, src: u32, dst: u32) -> (u16, u64) {
        self.flows.get(&key(src, dst)).copied().unwrap_or((0, 0))
    }

    /// The record of flow `n -> dst`, made (and listed) if it has none.
    #[inline]
    fn flow_mut(&mut self, n: usize, dst: u32) -> &mut (u16, u64) {
        let listed = &mut self.listed[n];
        self.flows.entry(key(n as u32, dst)).or_insert_with(|| {
            listed.push(dst);
            (0, 0)
        })
    }

    /// CCTI of flow `src -> dst`.
    pub fn ccti(&self, src: u32, dst: u32) -> u16 {
        self.flow(src, dst).0
    }

    /// Earliest start of the next packet of flow `src -> dst` (0 once its record is
    /// dropped: a start in the past).
    pub fn next_ok(&self, src: u32, dst: u32) -> u64 {
        self.flow(src, dst).1
    }

    /// Flows with a record (the memory in use: 16 bytes each, and the map's overhead).
    pub fn flow_records(&self) -> usize {
        self.flows.len()
    }

    /// NIC `n` has a flow with CCTI > 0.
    #[inline]
    pub fn congested(&self, n: usize) -> bool {
        self.hot[n] > 0
    }

    /// CNPs waiting at NIC `n`.
    pub fn cnps_pending(&self, n: usize) -> usize {
        self.cnp_q[n].len()
    }

    /// All NICs' waiting CNPs.
    pub fn cnps_pending_total(&self) -> usize {
        self.cnp_q.iter().map(|q| q.len()).sum()
    }

    /// Cycle `now` at NIC `n`: the timer.
    #[inline]
    pub fn tick(&mut self, n: usize, now: u64) {
        if !self.timer[n].expired(now) {
            return;
        }
        // Only listed flows can have CCTI > 0; the others stay at 0 under the timer.
        let lower = self.hot[n] > 0;
        let (p, src) = (&self.p, n as u32);
        let mut hot = 0;
        let mut lowered = false;
        let mut i = 0;
        while i < self.listed[n].len() {
            let d = self.listed[n][i];
            let k = key(src, d);
            let f = self.flows.get_mut(&k).expect("a listed flow has a record");
            if lower {
                let new = p.timer(f.0);
                lowered |= new != f.0;
                f.0 = new;
                hot += (f.0 > 0) as u32;
            }
            if f.0 == 0 && f.1 <= now {
                // back to "CCTI 0, no wait": the record goes
                self.flows.remove(&k);
                self.listed[n].swap_remove(i);
            } else {
                i += 1;
            }
        }
        if lower {
            self.hot[n] = hot;
            self.stats[n].ccti_decrements += lowered as u64;
        }
    }

    /// A BECN for flow `n -> dst` arrived at NIC `n`.
    pub fn becn(&mut self, n: usize, dst: u32) {
        let old = self.flow(n as u32, dst).0;
        let new = self.p.becn(old);
        self.flow_mut(n, dst).0 = new;
        self.hot[n] += (old == 0 && new > 0) as u32;
        self.stats[n].becns_received += 1;
    }

    /// A data packet from `src` arrived at NIC `n` with FECN: queue a CNP to `src`.
    pub fn fecn(&mut self, n: usize, src: u32) {
        self.cnp_q[n].push_back(src);
        self.stats[n].fecn_received += 1;
    }

    /// The next CNP of NIC `n` to send, if any (taken off the queue).
    #[inline]
    pub fn take_cnp(&mut self, n: usize) -> Option<u32> {
        let d = self.cnp_q[n].pop_front()?;
        self.stats[n].cnps_sent += 1;
        Some(d)
    }

    /// NIC `n` has something it may start now: a CNP, or a queued destination in `active`
    /// whose flow is eligible.
    #[inline]
    pub fn ready(&mut self, n: usize, now: u64, active: &VecDeque<u32>) -> bool {
        if !self.cnp_q[n].is_empty() {
            return true;
        }
        if active.is_empty() || now < self.blocked_until[n] {
            return false;
        }
        let mut earliest = u64::MAX;
        for &d in active {
            let t = self.flow(n as u32, d).1;
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

    /// Move the first eligible destination of `active` to its front (round-robin order of
    /// the others kept); false when none is eligible.
    pub fn pick(&self, n: usize, now: u64, active: &mut VecDeque<u32>) -> bool {
        match active.iter().position(|&d| self.flow(n as u32, d).1 <= now) {
            Some(0) => true,
            Some(k) => {
                active.rotate_left(k);
                true
            }
            None => false,
        }
    }

    /// Flow `n -> dst` may start a packet now.
    #[inline]
    pub fn eligible(&self, n: usize, dst: u32, now: u64) -> bool {
        self.flow(n as u32, dst).1 <= now
    }

    /// Flow `n -> dst` starts a packet of `flits` at `now`: its next may start at
    /// `now + flits + IRD`.
    #[inline]
    pub fn started(&mut self, n: usize, dst: u32, flits: u32, now: u64) {
        let ccti = self.flow(n as u32, dst).0;
        let next = self.p.next_ok(ccti, flits, now);
        self.flow_mut(n, dst).1 = next;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nics(cfg: &IbccConfig) -> IbccNics {
        // 1 cycle = 1.024 us / 40: ccti_timer 150 -> 6000 cycles; all timers in phase 0.
        IbccNics::new(cfg, 4, 25.6, |_| 0)
    }

    #[test]
    fn becn_raises_ccti_up_to_the_limit() {
        let cfg = IbccConfig {
            ccti_increase: 5,
            ccti_limit: 12,
            ..Default::default()
        };
        let mut s = nics(&cfg);
        s.becn(1, 2);
        assert_eq!(s.ccti(1, 2), 5);
        assert!(s.congested(1) && !s.congested(2));
        s.becn(1, 2);
        s.becn(1, 2);
        assert_eq!(s.ccti(1, 2), 12, "capped at ccti_limit");
        assert_eq!(s.ccti(1, 3), 0, "other flows untouched");
        assert_eq!(s.stats[1].becns_received, 3);
    }

    #[test]
    fn timer_lowers_every_flow_by_one_down_to_min() {
        let cfg = IbccConfig {
            ccti_increase: 3,
            ccti_min: 2,
            ..Default::default()
        };
        let mut s = nics(&cfg);
        assert_eq!(s.period(), 6000);
        s.becn(0, 1); // 3
        s.becn(0, 2);
        s.becn(0, 2); // 6
        for t in 0..=6000 {
            s.tick(0, t);
        }
        // First expiry at cycle 1 (phase 0), the next at 6001.
        assert_eq!((s.ccti(0, 1), s.ccti(0, 2)), (2, 5));
        for t in 6001..=6000 * 4 + 1 {
            s.tick(0, t);
        }
        assert_eq!((s.ccti(0, 1), s.ccti(0, 2)), (2, 2), "floor ccti_min");
        assert!(s.congested(0));
        assert_eq!(s.stats[0].ccti_decrements, 4);
    }

    #[test]
    fn timer_with_min_zero_clears_congestion() {
        let mut s = nics(&IbccConfig::default());
        s.becn(3, 0);
        s.tick(3, 1);
        assert_eq!(s.ccti(3, 0), 0);
        assert!(!s.congested(3));
    }

    #[test]
    fn ird_spaces_packet_starts_by_the_cct() {
        let mut s = nics(&IbccConfig::default());
        s.started(0, 1, 32, 100);
        assert_eq!(s.next_ok(0, 1), 132, "CCTI 0: only the packet's own time");
        for _ in 0..4 {
            s.becn(0, 1);
        }
        s.started(0, 1, 32, 200);
        assert_eq!(
            s.next_ok(0, 1),
            200 + 32 + 4 * 32,
            "linear table: CCTI packet times"
        );
        // An explicit entry: shift 2, multiplier 10 -> (32 * 10) >> 2 = 80.
        let cfg = IbccConfig {
            ccti_limit: 1,
            cct: Some(vec![0, 2 << 14 | 10]),
            ..Default::default()
        };
        let mut s = nics(&cfg);
        s.becn(0, 1);
        s.started(0, 1, 32, 0);
        assert_eq!(s.next_ok(0, 1), 32 + 80);
    }

    #[test]
    fn a_throttled_flow_never_blocks_another() {
        let mut s = nics(&IbccConfig::default());
        for _ in 0..10 {
            s.becn(0, 1);
        }
        s.started(0, 1, 32, 0); // flow 0->1 waits until 32 + 320
        let mut active: VecDeque<u32> = [1, 2, 3].into_iter().collect();
        assert!(s.ready(0, 10, &active));
        assert!(s.pick(0, 10, &mut active));
        assert_eq!(active.front(), Some(&2), "the eligible flow goes first");
        let mut only: VecDeque<u32> = [1].into_iter().collect();
        assert!(!s.ready(0, 10, &only));
        assert!(!s.ready(0, 351, &only));
        assert!(s.ready(0, 352, &only));
        assert!(s.pick(0, 352, &mut only));
    }

    #[test]
    fn fecn_queues_one_cnp_per_marked_packet() {
        let mut s = nics(&IbccConfig::default());
        s.fecn(2, 0);
        s.fecn(2, 1);
        assert_eq!(s.cnps_pending(2), 2);
        assert!(
            s.ready(2, 0, &VecDeque::new()),
            "a CNP is ready without data"
        );
        assert_eq!(s.take_cnp(2), Some(0));
        assert_eq!(s.take_cnp(2), Some(1));
        assert_eq!(s.take_cnp(2), None);
        assert_eq!((s.stats[2].fecn_received, s.stats[2].cnps_sent), (2, 2));
    }
}
