//! Disha deadlock recovery (`[network] routing = "disha"`): seed 003's second configuration,
//! after Anjan and Pinkston, "DISHA: a deadlock recovery scheme for fully adaptive routing"
//! (ISCA 1995), in its sequential form (one recovery at a time, granted by a token).
//!
//! - **Routing.** Every one of the `vcs` lanes is fully adaptive and minimal (`lanes.rs`,
//!   `Routing::Disha`): no escape lane, so the lanes can deadlock.
//! - **Presumed deadlock.** A head that has waited `disha_timeout_cycles` at the front of its
//!   input lane without an output lane (the lane's last flit left, or the head arrived into
//!   the empty lane, that long ago: `moved_at`) is presumed deadlocked. It keeps asking for
//!   adaptive lanes meanwhile.
//! - **Token.** One token visits the routers one per cycle in snake order (a Hamiltonian
//!   ring of a torus with even k). At the router it visits, the presumed-deadlocked head
//!   that has waited longest (then the lowest lane) captures it. The token then travels
//!   with that packet: it is released when the packet's tail leaves its last router for
//!   the destination NIC, and goes on round the ring from that router in the next cycle.
//! - **Deadlock buffers.** The lane router gives every port one more lane, the deadlock
//!   buffer (its top lane, `vc_buf_flits` like the others). Only the token holder enters
//!   it: from its lane to the deadlock buffer of its dimension-order port, buffer to buffer
//!   to the destination router, then the NIC's lane. One packet on a minimal path cannot
//!   wait for itself, so the recovery path never deadlocks. The packet's flits behind the
//!   head follow through the lanes it already holds.
//! - **Priority.** The holder's head wins any output lane it asks for (and the central
//!   arbiter's slot), and its flits win switch allocation at every router they pass.
//!
//! Choices where Disha's paper leaves room (docs/cc/selftuned.md, "Disha"): the deadlock
//! buffer is a lane per port (only one packet uses the buffers, and it enters a router
//! once, so this holds what Disha's one buffer per router holds); the token moves one
//! router per cycle and, after a recovery, goes on from the destination's router, where
//! the packet that carried it left the path (going on from the capturing router instead
//! is a reading beside it in docs/results.md); the head waits `moved_at` cycles, the lane
//! router's own clock of a stalled lane.
//!
//! The invariant checker (`check = true`) holds: at most one packet is on the recovery path
//! and it is the token's holder; a deadlock buffer holds flits of the holder only; the
//! holder moves a flit at least every `deadlock_cycles`. The test hook
//! `Fault::SecondToken` grants the path to a second packet (the mutant it catches).

use super::config::{bad, Fault, NetConfig, Routing, TopologyConfig};
use super::error::NetError;
use super::network::Network;
use super::scheme::Scheme;
use super::store::{End, Id, PktId, SwitchId, RECOVERY};
use super::topology::cube;
use crate::error::FieldError;

/// `disha_timeout_cycles` when not given (seed 003's time-out).
pub const DEFAULT_TIMEOUT: u32 = 8;

/// The errors of the `disha` keys.
pub(crate) fn disha_errors(cfg: &NetConfig, routing: Routing, errs: &mut Vec<FieldError>) {
    if let Some(t) = cfg.disha_timeout_cycles {
        if routing != Routing::Disha {
            errs.push(bad(
                "disha_timeout_cycles",
                t,
                format!(
                    "applies to routing `disha` (its presumed-deadlock time-out), not `{}`",
                    routing.name()
                ),
            ));
        } else if !(1..=0xFFFF).contains(&t) {
            errs.push(bad("disha_timeout_cycles", t, "must be in 1..=65535"));
        }
    }
    if routing == Routing::Disha {
        if let Some(c) = cfg.ack_vcs {
            errs.push(bad(
                "ack_vcs",
                c,
                "not with routing `disha`: its recovery path is for data packets (remove `ack_vcs`)",
            ));
        }
    }
}

/// The token and the recovery path's state.
pub(crate) struct Disha {
    pub(crate) timeout: u64,
    /// Lane records per port (the deadlock buffer is lane `lanes - 1`).
    lanes: u32,
    /// The packet holding the token; NONE while it circulates.
    pub(crate) holder: PktId,
    /// The holder's head still waiting for its first deadlock buffer: (router, input lane).
    capture: Option<(SwitchId, u32)>,
    /// The routers in the token's order, and each router's place in it.
    ring: Vec<SwitchId>,
    /// Each router's place in `ring`.
    place: Vec<u32>,
    /// The router the circulating token is at (index into `ring`).
    at: u32,
    /// The holder's tail left for its NIC at this router this cycle: the token is free
    /// from the next cycle, starting there.
    release: Option<SwitchId>,
    /// The last cycle a flit of the holder moved.
    last_move: u64,
    /// Packets that took the token.
    pub(crate) recoveries: u64,
    /// Cycles the token was held by a packet (`lane_stats.rs`).
    pub(crate) held_cycles: u64,
}

impl Disha {
    /// The recovery state of network `cfg` (None unless routing `disha`).
    pub(crate) fn new(cfg: &NetConfig) -> Option<Box<Disha>> {
        if cfg.routing != Some(Routing::Disha) {
            return None;
        }
        let (k, n) = match cfg.topology {
            TopologyConfig::Torus { k, n } | TopologyConfig::Mesh { k, n } => (k, n),
            _ => return None,
        };
        let ring = snake(k, n);
        let mut place = vec![0; ring.len()];
        for (i, s) in ring.iter().enumerate() {
            place[s.index()] = i as u32;
        }
        Some(Box::new(Disha {
            timeout: cfg.disha_timeout_cycles.unwrap_or(DEFAULT_TIMEOUT) as u64,
            lanes: cfg.lane_records().unwrap_or(1),
            holder: PktId::NONE,
            capture: None,
            ring,
            place,
            at: 0,
            release: None,
            last_move: 0,
            recoveries: 0,
            held_cycles: 0,
        }))
    }

    /// The deadlock buffers' input lanes of a router whose used lanes are `used`.
    #[inline]
    fn buffers(&self, used: u128) -> u128 {
        let mut m = 0u128;
        let mut l = self.lanes - 1;
        while l < 128 {
            m |= 1 << l;
            l += self.lanes;
        }
        m & used
    }
}

/// Routers of a k-ary n-cube in snake order: the reflected k-ary Gray code, so each router
/// is one hop from the one before (and, on a torus with even k, the last from the first).
/// A digit runs backwards when the next higher digit of the count is odd (even k) or when
/// the higher digits sum to an odd number (odd k).
fn snake(k: u32, n: u32) -> Vec<SwitchId> {
    let total = k.pow(n);
    (0..total)
        .map(|t| {
            let mut r = 0;
            for d in 0..n {
                let x = cube::digit(t, k, d);
                let odd = if k.is_multiple_of(2) {
                    d + 1 < n && cube::digit(t, k, d + 1) % 2 == 1
                } else {
                    (d + 1..n).map(|h| cube::digit(t, k, h)).sum::<u32>() % 2 == 1
                };
                r += if odd { k - 1 - x } else { x } * k.pow(d);
            }
            SwitchId(r)
        })
        .collect()
}

impl<S: Scheme> Network<S> {
    /// Disha at router `si` whose heads `waiting` ask for lanes this cycle: the token is
    /// captured here if it is here, free, and a head has waited out the time-out. Returns
    /// the heads with priority (the token holder's, at most one but under the test hook).
    pub(crate) fn disha_heads(&mut self, si: SwitchId, waiting: u128) -> u128 {
        let now = self.now;
        let st = self.sw.sw[si];
        let Some(d) = self.disha.as_deref_mut() else {
            return 0;
        };
        let db = d.buffers(st.used_mask);
        let mut prio = waiting & db;
        if let Some((s, i)) = d.capture {
            if s == si && waiting >> i & 1 != 0 {
                prio |= 1 << i;
            }
        }
        let free = d.holder == PktId::NONE && d.release.is_none();
        let second = matches!(self.faults.test, Some(Fault::SecondToken { cycle }) if !self.faults.test_fired && now >= cycle);
        if !(free && d.ring[d.at as usize] == si || !free && second) {
            return prio;
        }
        // the presumed-deadlocked head that has waited longest
        let mut best: Option<(u64, u32)> = None;
        let mut m = waiting & !db & !prio;
        while m != 0 {
            let i = m.trailing_zeros();
            m &= m - 1;
            let since = self.sw.inp[st.port(i)].moved_at;
            if now - since >= d.timeout && best.is_none_or(|b| since < b.0) {
                best = Some((since, i));
            }
        }
        let Some((_, i)) = best else { return prio };
        let e = self.sw.q[st.port(i).index()].0;
        let pkt = self.entries[e].pkt;
        self.packets[pkt].flags |= RECOVERY;
        if free {
            d.holder = pkt;
            d.capture = Some((si, i));
            d.last_move = now;
            d.recoveries += 1;
        } else {
            // test hook: a second packet on the recovery path
            self.faults.test_fired = true;
        }
        prio | 1 << i
    }

    /// The holder's head at router `si`, input lane `i`, got its first deadlock buffer.
    #[inline]
    pub(crate) fn disha_granted(&mut self, si: SwitchId, i: u32) {
        if let Some(d) = self.disha.as_deref_mut() {
            if d.capture == Some((si, i)) {
                d.capture = None;
            }
        }
    }

    /// A flit of packet `pkt` left router `si` for `to`; `tail`: the packet's last.
    #[inline]
    pub(crate) fn disha_moved(&mut self, si: SwitchId, pkt: PktId, tail: bool, to: End) {
        let now = self.now;
        if let Some(d) = self.disha.as_deref_mut() {
            if pkt == d.holder {
                d.last_move = now;
                if tail && matches!(to, End::Nic(_)) {
                    d.release = Some(si);
                }
            }
        }
    }

    /// End of a cycle: a released token is at the router that released it; a free one
    /// moves to the next router of the ring.
    pub(crate) fn disha_end_cycle(&mut self) {
        if let Some(d) = self.disha.as_deref_mut() {
            if d.holder != PktId::NONE {
                d.held_cycles += 1;
            }
            if let Some(s) = d.release.take() {
                d.holder = PktId::NONE;
                d.at = d.place[s.index()];
            } else if d.holder == PktId::NONE {
                d.at = (d.at + 1) % d.ring.len() as u32;
            }
        }
    }

    /// The recovery path's invariants (`check`).
    pub(crate) fn check_disha(&self) -> Result<(), NetError> {
        let Some(d) = self.disha.as_deref() else {
            return Ok(());
        };
        let inv = |detail: String| NetError::Invariant {
            cycle: self.now,
            detail,
        };
        // (a packet's entries in NIC buffers are past the path)
        for (_, e) in self.entries.iter().filter(|(_, e)| e.live) {
            let End::Port(g) = e.port.end() else { continue };
            let on_path = self.packets[e.pkt].flags & RECOVERY != 0;
            if on_path && e.pkt != d.holder {
                return Err(inv(format!(
                    "{} is on Disha's recovery path but {} holds the token: two packets on the path",
                    self.packet_name(e.pkt),
                    self.packet_name(d.holder)
                )));
            }
            if g.index() as u32 % d.lanes == d.lanes - 1 && e.pkt != d.holder {
                return Err(inv(format!(
                    "the deadlock buffer {} holds {}, which does not hold the token",
                    self.in_port_name(e.port),
                    self.packet_name(e.pkt)
                )));
            }
        }
        let limit = self.cfg.deadlock_cycles;
        if d.holder != PktId::NONE && limit > 0 && self.now - d.last_move > limit {
            return Err(inv(format!(
                "{} holds Disha's token and has not moved for {} cycles (deadlock_cycles = {limit})",
                self.packet_name(d.holder),
                self.now - d.last_move
            )));
        }
        Ok(())
    }

    /// Packets that took Disha's recovery path since cycle 0 (0 without `disha`).
    pub fn disha_recoveries(&self) -> u64 {
        self.disha.as_deref().map_or(0, |d| d.recoveries)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::scheme::{CreditGate, GateIn, GateOut};
    use crate::net::source::{BernoulliSource, Pattern};

    /// A marking scheme that only records what `switch_done` tells it.
    struct Recorder {
        gate: CreditGate,
        ports: u32,
        /// (switch, port, free credits) of every `switch_done` since it was last cleared.
        seen: Vec<(u32, u32, u32)>,
    }

    impl Scheme for Recorder {
        const MARKS: bool = true;
        const MARKS_ON_LANES: bool = true;
        fn gate(&mut self, n: u32, _now: u64, i: &GateIn) -> GateOut {
            self.gate.step(n, i)
        }
        fn used_credits(&self, n: u32) -> u16 {
            self.gate.used(n)
        }
        fn switch_done(&mut self, s: u32, free: impl Fn(u32) -> u32) {
            for p in 0..self.ports {
                self.seen.push((s, p, free(p)));
            }
        }
    }

    /// A marking scheme judges a Disha port by its lanes but the deadlock buffer: the
    /// buffer is nearly always free, and counting it would show full ports as free.
    #[test]
    fn marking_schemes_do_not_count_the_deadlock_buffer() {
        let cfg = NetConfig {
            topology: TopologyConfig::Torus { k: 4, n: 2 },
            vcs: Some(2),
            vc_buf_flits: Some(4),
            routing: Some(Routing::Disha),
            mtu_bytes: 16 * 64,
            link_latency_cycles: 1,
            credit_latency_cycles: 1,
            switch_latency_cycles: 1,
            check: true,
            ..NetConfig::default()
        };
        let mut net = Network::build(&cfg, 3, |ctx| {
            Ok(Recorder {
                gate: CreditGate::new(ctx.nodes, ctx.cfg.buffer_flits as u16),
                ports: 0,
                seen: Vec::new(),
            })
        })
        .unwrap();
        let v = net.sw.vcs;
        assert_eq!(v, 3, "two data lanes and the deadlock buffer");
        let ports = net.sw.sw[SwitchId(0)].radix / v;
        net.cc.ports = ports;
        let mut w = BernoulliSource::new(net.nodes(), Pattern::Uniform, 0.6, 16 * 64, 64, 4);
        // (port readings where the buffer had more room than every data lane, readings)
        let (mut hidden, mut compared) = (0, 0);
        for _ in 0..3_000 {
            net.cc.seen.clear();
            net.step(&mut w).unwrap();
            for &(s, p, free) in &net.cc.seen {
                let st = &net.sw.sw[SwitchId(s)];
                let room = |l: u32| {
                    let o = &net.sw.out[st.port(p * v + l)];
                    o.limit - o.used
                };
                let want = (0..v - 1).map(room).max().unwrap();
                assert_eq!(free, want, "switch_done, switch {s} port {p}");
                let at = net.lane_output_at(SwitchId(s), p);
                assert_eq!(at.free, want, "lane_output_at, switch {s} port {p}");
                hidden += u64::from(room(v - 1) > want);
                compared += 1;
            }
        }
        assert!(compared > 10_000 && hidden > 100, "{hidden} of {compared}");
    }

    #[test]
    fn snake_is_a_hamiltonian_ring_of_the_torus() {
        for (k, n) in [(4, 2), (16, 2), (4, 3), (6, 2), (3, 2), (5, 3), (2, 4)] {
            let ring = snake(k, n);
            let mut seen = vec![false; ring.len()];
            for s in &ring {
                assert!(!seen[s.index()], "{s:?} twice");
                seen[s.index()] = true;
            }
            // each step is one hop (on a torus with even k the last back to the first too)
            let steps = ring.len() - usize::from(k % 2 == 1);
            for w in 0..steps {
                let (a, b) = (ring[w].0, ring[(w + 1) % ring.len()].0);
                let diff: Vec<u32> = (0..n)
                    .map(|d| {
                        let (x, y) = (cube::digit(a, k, d), cube::digit(b, k, d));
                        ((y + k - x) % k).min((x + k - y) % k)
                    })
                    .collect();
                assert_eq!(diff.iter().sum::<u32>(), 1, "k={k} n={n} {a} -> {b}");
            }
        }
    }
}
