//! The lane router: input-queued, V lanes (virtual channels) per switch-to-switch port,
//! wormhole or virtual cut-through, one packet per lane, separable round-robin allocators.
//!
//! The records are today's switch's (`state.rs`) with one input and one output record per
//! lane: a switch's local index `port * V + lane`, each lane with its own link record, so
//! flit and credit channels, the receive path (`switch.rs`, `switch_receive`) and the
//! invariant checker's per-link credit conservation are shared. The flit move is a copy of
//! today's switch's (`move_flit`): sharing it cost the fat-tree path its inlining
//! (measured: IB CC +7 % instructions).
//!
//! Marking schemes ([`Scheme::MARKS_ON_LANES`]: IB CC, DCQCN) see physical ports, not
//! lanes (`lane_output_at`): a flit counts for the routing table's port from its arrival,
//! moves to the port its head is granted a lane on if adaptive routing chose another
//! (`unqueued`, `queued`), and leaves through `departs`; `switch_done` ends the cycle
//! with each port's freest lane's credits (under Disha, of the lanes but its deadlock
//! buffer). `head_leaves` is not called here: MVCM and
//! Renato mark at inputs and stay refused with lanes.
//!
//! Each cycle, for a switch holding packets:
//! 1. **Lane allocation** (VA), for every input lane whose head packet has no output lane
//!    yet: the routing function gives its candidate lanes (`lanes::candidates`); the head
//!    picks one free lane: among adaptive candidates the one on the port with the most free
//!    credits, else the first free lane of the dimension-order (or table) candidates. Each
//!    output lane then grants one of the heads that picked it, round robin from its pointer
//!    (a separable input-first allocator, one iteration). An output lane is free when no
//!    packet holds it and every credit of the lane behind it is back: the downstream lane is
//!    empty, so a lane holds one packet at a time (BookSim's `wait_for_tail_credit = 1`).
//!    The lane to a NIC is free when no packet holds it and the NIC's buffer has room for
//!    the whole packet, as in today's switch.
//! 2. **Switch allocation and traversal** (SA, ST): an input lane holding an output lane
//!    may move a flit when the flit is here and the output lane has a credit. Each input
//!    port picks one such lane (round robin over its lanes), each output port grants one of
//!    the input ports that picked a lane on it (round robin over input ports); the winners
//!    move one flit each (one flit per input and per output port per cycle: no speedup).
//!    A flit leaving in cycle t returns its credit upstream and enters the output link in
//!    cycle t + `switch_latency_cycles`, as in today's switch.
//!
//! With `head_latency_cycles` = H a head may ask for an output lane (step 1) only H cycles
//! after it reached the front of its input lane (it arrived into an empty lane, or the
//! packet before it sent its tail): BookSim's routing and VC-allocation stages, which body
//! flits skip. The per-flit `switch_latency_cycles` is then its switch allocation and
//! traversal.
//!
//! Wormhole and cut-through differ only in the lane size: under `vct` a lane holds a whole
//! packet (checked), so a packet with an output lane never waits for a credit.

use super::config::Fault;
use super::lane_move::Sends;
use super::lanes::{self, Routing};
use super::network::Network;
use super::plain::GENERAL;
use super::scheme::{OutputAt, Scheme};
use super::state::{LaneMask, Mask};
use super::store::{EntryId, Id, PktId, PortId, SwitchId, CONTROL, RECOVERY};
use super::topology::Peer;
use std::mem::MaybeUninit;

impl<S: Scheme> Network<S> {
    /// Phase 2 for lane router `si` (not inlined: today's switch keeps its code), on lane
    /// masks as wide as the network's widest router needs (`LaneMask`: the same grants
    /// either way).
    #[inline(never)]
    pub(crate) fn eval_router(&mut self, si: SwitchId) {
        let sends = self.sends::<GENERAL>();
        if self.sw.narrow && !self.sw.wide_masks {
            self.eval_router_on::<u64, GENERAL>(si, sends);
        } else {
            self.eval_router_on::<u128, GENERAL>(si, sends);
        }
    }

    /// Phase 2 for the lane routers `lo..hi` that hold a flit (`eval_switches_in`): one
    /// call for them all, each router's cycle inlined in the loop over them (a call per
    /// router cost about 30 instructions of its cycle's 600 on the 16-ary 2-cube).
    /// The plain copy (`PLAIN`) also leaves out what only some lane networks and tests
    /// have (`plain_lanes`): a network with one of them runs the general copy.
    #[inline(never)]
    pub(crate) fn eval_routers_in<const PLAIN: u8>(&mut self, lo: u32, hi: u32) {
        if PLAIN != GENERAL && !self.plain_lanes() {
            return self.eval_routers_in::<GENERAL>(lo, hi);
        }
        if self.sw.prefetch {
            return self.eval_routers_prefetching::<PLAIN>(lo, hi);
        }
        let none = None::<fn(&Self, SwitchId, Option<SwitchId>)>;
        // (looked up once for the routers' flit moves: the same all cycle)
        let sends = self.sends::<PLAIN>();
        if self.sw.narrow && !self.sw.wide_masks {
            let eval = |n: &mut Self, s| n.eval_router_on::<u64, PLAIN>(s, sends);
            self.visit_busy::<PLAIN>(lo, hi, eval, none);
        } else {
            let eval = |n: &mut Self, s| n.eval_router_on::<u128, PLAIN>(s, sends);
            self.visit_busy::<PLAIN>(lo, hi, eval, none);
        }
    }

    /// `eval_router` with lane masks of type `M`; `PLAIN` a plain copy (`plain.rs`): the
    /// cycle is plain (`Network::plain`: no test or credit fault, ...) and the network's
    /// lane routers have none of what `plain_lanes` leaves out.
    #[inline(always)]
    pub(super) fn eval_router_on<M: LaneMask, const PLAIN: u8>(
        &mut self,
        si: SwitchId,
        sends: Sends,
    ) {
        // the fields used (not the whole record), read once for `traverse` too
        let (base, radix, queued, mut locked_in, blocked, paused) = {
            let s = &self.sw.sw[si];
            if s.resident == 0 {
                return;
            }
            (
                s.base,
                s.radix,
                s.queued,
                s.locked_in,
                s.blocked,
                s.paused_out,
            )
        };
        let waiting = queued & !locked_in;
        // heads on a wait list (none of their lanes has freed) would ask in vain: left out,
        // but after the central arbiter, which picks among all waiting heads
        let skip = M::of(blocked);
        let mut waiting = M::of(waiting);
        if PLAIN != GENERAL || self.sw.central.is_empty() {
            waiting &= !skip;
        }
        if waiting != M::ZERO && self.lat_head != 0 {
            // heads still in route and lane allocation (`head_latency_cycles`)
            let mut m = waiting;
            while m != M::ZERO {
                let i = m.tz();
                m &= m - M::ONE;
                if self.sw.va_at[PortId(base.0 + i).index()] > self.now {
                    waiting &= !(M::ONE << i);
                }
            }
        }
        // Disha: the token holder's head goes first (its capture here included)
        let prio = if PLAIN == GENERAL && waiting != M::ZERO && self.disha.is_some() {
            M::of(self.disha_heads(si, waiting.wide()))
        } else {
            M::ZERO
        };
        // (the plain copy has no central arbiter: `plain_lanes`)
        if PLAIN == GENERAL && prio != M::ZERO && !self.sw.central.is_empty() {
            waiting = M::ONE << prio.tz();
        } else if PLAIN == GENERAL && waiting != M::ZERO && !self.sw.central.is_empty() {
            // the central arbiter: one head per cycle, the first waiting input lane from
            // its pointer on
            let at = &mut self.sw.central[si.0 as usize];
            let start = *at as u32;
            let i = (waiting.wide().rotate_right(start).trailing_zeros() + start) & 127;
            *at = ((i + 1) % radix) as u8;
            waiting = M::ONE << i;
        }
        waiting &= !skip;
        if waiting != M::ZERO {
            self.allocate_lanes(si, waiting, prio);
            locked_in = self.sw.sw[si].locked_in;
        }
        self.traverse::<M, PLAIN>(si, base, radix, locked_in, paused, sends);
        if S::MARKS && self.seams.marks {
            let v = self.sw.vcs;
            let m = self.marked_lanes();
            let out = &self.sw.out.items[base.index()..];
            self.cc.switch_done(si.0, |p| {
                (p * v..p * v + m)
                    .map(|l| out[l as usize].limit - out[l as usize].used)
                    .max()
                    .unwrap_or(0)
            });
        }
    }

    /// The lanes of a port a marking scheme judges it by: all of them, but not Disha's
    /// deadlock buffer (the last lane), which only the token's holder may use, so it is
    /// free nearly always and would hide a full port.
    #[inline]
    fn marked_lanes(&self) -> u32 {
        self.sw.vcs - u32::from(self.disha.is_some())
    }

    /// The scheme's view of physical output port `p` of lane router `si`: its lane 0's
    /// global id stands for the port, and its free credits are its freest lane's (a port
    /// whose some lane has room for a packet can send one; Disha's deadlock buffer is not
    /// counted: `marked_lanes`).
    #[inline]
    pub(crate) fn lane_output_at(&self, si: SwitchId, p: u32) -> OutputAt {
        let st = &self.sw.sw[si];
        let v = self.sw.vcs;
        let free = (p * v..p * v + self.marked_lanes())
            .map(|l| {
                let op = &self.sw.out[st.port(l)];
                op.limit - op.used
            })
            .max()
            .unwrap_or(0);
        OutputAt {
            switch: si.0,
            port: p,
            global: st.port(p * v).index(),
            free,
            queue: 0,
        }
    }

    /// Lane allocation for the waiting heads `waiting` (input lanes, local, none on a wait
    /// list) of switch `si`; the heads in `prio` (Disha's token holder) win any lane they
    /// ask for.
    #[inline(always)]
    fn allocate_lanes<M: LaneMask>(&mut self, si: SwitchId, mut waiting: M, prio: M) {
        let st = self.sw.sw[si];
        let rt = self.sw.router.expect("a lane router has its routing");
        let v = rt.vcs;
        let lanes = st.radix;
        let mut cand = self.take_cand();
        // per output lane in `asked`, the head that won it so far (input lane, distance
        // from the lane's pointer): read only for those lanes, so not cleared per call
        let mut best = [MaybeUninit::<(u8, u8)>::uninit(); 128];
        let mut asked = M::ZERO;
        let mut blocked = M::of(st.blocked);
        // the output lanes with a link that no packet holds (none is granted before the
        // heads have picked: a working copy, not the records' u128 masks per lane)
        let open = M::of(st.used_mask & !st.locked_out);
        while waiting != M::ZERO {
            let i = waiting.tz();
            waiting &= waiting - M::ONE;
            let e = self.sw.q[st.port(i).index()].0;
            let en = self.entries[e];
            let pk = self.packets[en.pkt];
            let (crt, base) = rt.class(pk.flags & CONTROL != 0);
            if crt.df.is_some() {
                let (p, c) = self.dragonfly_hop(si, en.pkt, &crt);
                cand.clear();
                cand.push((p, c, c + 1, false));
            } else if crt.routing == Routing::Shortest {
                let nic = matches!(
                    self.topo.switches()[si.index()].ports[en.out as usize],
                    Peer::Nic(_)
                );
                cand.clear();
                cand.push(lanes::shortest_hop(en.out as u32, pk.route, nic));
            } else if crt.routing == Routing::ShortestUpdown {
                // on the escape lane from another router (a NIC's port has lane 0 only)
                let escaped = st.on_escape(i, v, base);
                lanes::updown_candidates(
                    &self.topo,
                    si.0,
                    en.out as u32,
                    super::types::NodeId(pk.dst),
                    escaped,
                    crt.vcs,
                    &mut cand,
                );
            } else if crt.routing.rising() {
                lanes::rising_candidates(
                    &self.topo,
                    si.0,
                    en.out as u32,
                    super::types::NodeId(pk.dst),
                    pk.route,
                    crt.vcs,
                    crt.routing == Routing::ShortestAdaptive,
                    &mut cand,
                );
            } else {
                // on an escape lane from another router (a NIC's port has lane 0 only), or
                // (disha) on the recovery path
                let escaped = if crt.disha {
                    pk.flags & RECOVERY != 0
                } else {
                    crt.one_escape && st.on_escape(i, v, base)
                };
                lanes::candidates(
                    &crt,
                    si.0,
                    pk.dst,
                    en.out as u32,
                    // (only a ring has a tie: no flag written elsewhere)
                    crt.wrap && self.tie_of(en.pkt, &pk),
                    escaped,
                    &mut cand,
                );
            }
            let mut pick = None;
            let mut pick_free = 0u32;
            let mut tried = M::ZERO;
            for &(p, lo, hi, adaptive) in cand.iter() {
                // a NIC's port has lane 0 only (whatever the class)
                let b = if base == 0 || st.used_mask >> (p * v + 1) & 1 == 0 {
                    0
                } else {
                    base
                };
                let free_lane = (lo..hi).find(|&c| {
                    let o = p * v + b + c;
                    open >> o & M::ONE != M::ZERO && self.lane_free(st.port(o), en.len)
                });
                let Some(c) = free_lane else {
                    tried |= (lo..hi).fold(M::ZERO, |m, c| m | M::ONE << (p * v + b + c));
                    continue;
                };
                let c = b + c;
                if adaptive {
                    // the port with the most free credits over its lanes (not counting
                    // disha's deadlock buffer, which no adaptive head may take)
                    let credits: u32 = (0..v - u32::from(rt.disha))
                        .map(|c| {
                            let op = &self.sw.out[st.port(p * v + c)];
                            op.limit - op.used
                        })
                        .sum();
                    if pick.is_none() || credits > pick_free {
                        pick = Some(p * v + c);
                        pick_free = credits;
                    }
                } else if pick.is_none() {
                    pick = Some(p * v + c);
                }
            }
            if pick.is_none() && !self.sw.waiters.is_empty() {
                // blocked until one of the lanes it tried frees (`lane_freed`)
                blocked |= M::ONE << i;
                while tried != M::ZERO {
                    let o = tried.tz();
                    tried &= tried - M::ONE;
                    self.sw.waiters[st.port(o).index()] |= 1 << i;
                }
            }
            if let Some(o) = pick {
                let rr = self.sw.out[st.port(o)].rr as u32;
                let dist = if prio >> i & M::ONE != M::ZERO {
                    0
                } else {
                    1 + ((i + lanes - rr) % lanes) as u8
                };
                let b = &mut best[o as usize];
                // SAFETY: read only once lane `o` is in `asked`, set below after the
                // first write
                if asked >> o & M::ONE == M::ZERO || dist < unsafe { b.assume_init().1 } {
                    *b = MaybeUninit::new((i as u8, dist));
                }
                asked |= M::ONE << o;
            }
        }
        self.put_cand(cand);
        // (working copies as wide as the switch needs, `LaneMask`: a grant's bits are
        // run-time shifts, several instructions each on u128)
        let (mut locked_out, mut locked_in, mut queued) =
            (M::of(st.locked_out), M::of(st.locked_in), M::of(st.queued));
        let (no_credit, mut stalled) = (
            M::of(self.sw.no_credit[si.index()]),
            M::of(self.sw.stalled_in[si.index()]),
        );
        while asked != M::ZERO {
            let o = asked.tz();
            asked &= asked - M::ONE;
            // SAFETY: lane `o` is in `asked`, so its entry was written
            let i = unsafe { best[o as usize].assume_init().0 } as u32;
            let g = st.port(i);
            let q = &mut self.sw.q[g.index()];
            let e = q.0;
            // (the entry looked up once: its pool and slot take a few instructions each time)
            let en = &mut self.entries[e];
            let (next, routed) = (en.next, en.out as u32);
            en.out = o as u8;
            let en = *en;
            q.0 = next;
            if next == EntryId::NONE {
                q.1 = EntryId::NONE;
                self.sw.inp[g].nonempty = 0;
                queued &= !(M::ONE << i);
            }
            if S::MARKS && self.seams.marks && routed != o / v {
                // adaptive routing took another port than the table's: the packet's flits
                // here count for the port it takes
                let ip = &self.sw.inp[g];
                let here = if ip.arriving == e {
                    ip.arr_count
                } else {
                    en.len
                };
                let (from, to) = (
                    self.lane_output_at(si, routed),
                    self.lane_output_at(si, o / v),
                );
                for _ in 0..here {
                    self.cc.unqueued(&from);
                    self.cc.queued(&to);
                }
            }
            if (rt.routing == Routing::Shortest || rt.routing.rising())
                && !matches!(
                    self.topo.switches()[si.index()].ports[(o / v) as usize],
                    Peer::Nic(_)
                )
            {
                let pk = &mut self.packets[en.pkt];
                pk.route = if rt.routing == Routing::Shortest {
                    // one more router-to-router hop: the next lane up
                    pk.route + 1
                } else {
                    // the lane taken (of its class): the next hop takes one above it
                    let (_, base) = rt.class(pk.flags & CONTROL != 0);
                    lanes::rising_next(o % v - base)
                };
            }
            if let Some(df) = rt.df {
                // the hop is taken: the dragonfly route state moves on
                if !df.is_nic(o / v) {
                    let r = &mut self.packets[en.pkt].route;
                    *r = super::dragonfly_route::after(&df, *r, o / v);
                }
            }
            if prio >> i & M::ONE != M::ZERO {
                self.disha_granted(si, i);
            }
            self.sw.held_from[st.port(o).index()] = i as u8;
            self.sw.held_to[g.index()] = o as u8;
            stalled = stalled & !(M::ONE << i) | (no_credit >> o & M::ONE) << i;
            let op = &mut self.sw.out[st.port(o)];
            op.entry = e;
            op.from = g;
            op.pkt = en.pkt;
            op.len = en.len;
            op.sent = 0;
            op.rr = ((i + 1) % lanes) as u8;
            locked_out |= M::ONE << o;
            locked_in |= M::ONE << i;
            if let Some(Fault::StaleStalled { cycle }) = self.faults.test {
                if !self.faults.test_fired && self.now >= cycle {
                    // test hook: the input lane marked stalled, its output lane has credits
                    self.faults.test_fired = true;
                    stalled |= M::ONE << i;
                }
            } else if let Some(Fault::DoubleGrant { cycle }) = self.faults.test {
                if !self.faults.test_fired && self.now >= cycle {
                    // test hook: a second output lane for the same packet
                    let free = st.used_mask & !locked_out.wide();
                    if free != 0 {
                        self.faults.test_fired = true;
                        let o2 = free.trailing_zeros();
                        self.sw.held_from[st.port(o2).index()] = i as u8;
                        let op2 = &mut self.sw.out[st.port(o2)];
                        op2.entry = e;
                        op2.from = g;
                        op2.pkt = en.pkt;
                        op2.len = en.len;
                        op2.sent = 0;
                        locked_out |= M::ONE << o2;
                    }
                }
            }
        }
        let st = &mut self.sw.sw[si];
        st.locked_out = locked_out.wide();
        st.locked_in = locked_in.wide();
        st.queued = queued.wide();
        st.blocked = blocked.wide();
        self.sw.stalled_in[si.index()] = stalled.wide();
    }

    /// Switch allocation and traversal of switch `si` (its `base`, `radix`, `locked_in` and
    /// `paused_out` given): at most one flit per input port and per output port. (Inlined
    /// in the loop over routers, `eval_routers_in`: a call per router costs more.)
    #[inline(always)]
    fn traverse<M: LaneMask, const PLAIN: u8>(
        &mut self,
        si: SwitchId,
        base: PortId,
        lanes: u32,
        locked_in: Mask,
        paused: Mask,
        sends: Sends,
    ) {
        let v = self.sw.vcs;
        // (no division by `v`, known only at run time: `lane_port`, and the pointers
        // kept at each port's lane 0)
        let ports = self.sw.lane_port.of(lanes - 1) + 1;
        let lbase = base.index();
        // input lanes that can move a flit now, and (when found by the records' scan) the
        // output lane each holds (set for the lanes in `ready` only, and read only for
        // them: not cleared per call)
        let mut ready = M::ZERO;
        let mut out_of = [MaybeUninit::<u8>::uninit(); 128];
        // Disha (never in the plain copy, `plain_lanes`): the token holder's flit goes first
        let disha = self.disha.as_deref().filter(|_| PLAIN == GENERAL);
        let holder = disha.map_or(PktId::NONE, |d| d.holder);
        let mut first = u32::MAX;
        let by_masks = paused == 0
            && (PLAIN != GENERAL
                || self.faults.test.is_none() && holder == PktId::NONE && !self.sw.ready_scan);
        if by_masks {
            // an input lane holding an output lane can move a flit when it holds one (its
            // front packet is the one the lane sends, and a flit of a later packet arrives
            // only after that packet's tail) and that lane has a credit: no scan
            let has = M::of(self.sw.has_flit[si.index()].all());
            ready = M::of(locked_in) & has & !M::of(self.sw.stalled_in[si.index()]);
        }
        // else the records' scan: of the held output lanes, those with a credit (the
        // others, in `no_credit`, cannot move a flit) and not paused
        let mut held = if by_masks {
            M::ZERO
        } else {
            let locked_out = self.sw.sw[si].locked_out;
            M::of(locked_out & !paused & !self.sw.no_credit[si.index()])
        };
        while held != M::ZERO {
            let o = held.tz();
            held &= held - M::ONE;
            let op = &self.sw.out[PortId(base.0 + o)];
            let ip = &self.sw.inp[op.from];
            let arrived = if ip.arriving == op.entry {
                ip.arr_count
            } else {
                op.len
            };
            // (a credit: the lane is not in `no_credit`)
            if arrived > op.sent {
                let i = op.from.0 - base.0;
                ready |= M::ONE << i;
                out_of[i as usize] = MaybeUninit::new(o as u8);
                if PLAIN == GENERAL && op.pkt == holder {
                    first = i;
                }
            }
        }
        // the output lane input lane `i` (in `ready`) holds (plain copy: `held_to`, no test fault)
        macro_rules! out_of {
            ($i:expr) => {
                if PLAIN != GENERAL || by_masks {
                    self.sw.held_to[lbase + $i as usize]
                } else {
                    // SAFETY: lane `$i` is in `ready`: the held-lane scan set `out_of[$i]`
                    unsafe { out_of[$i as usize].assume_init() }
                }
            };
        }
        if ready == M::ZERO {
            return;
        }
        // a flit moves (`ready` is not empty): the watchdog's progress, once for them all
        self.moved_in::<PLAIN>();
        if ready & (ready - M::ONE) == M::ZERO && (PLAIN != GENERAL || !self.sw.sa_search) {
            // one lane ready: it wins its input port and its output port (what the
            // allocator below grants it, without the search)
            let i = ready.tz();
            let o = out_of!(i) as u32;
            let (p, q) = (self.sw.lane_port.of(i), self.sw.lane_port.of(o));
            self.sa_grant(lbase, v, ports, i, p, q);
            let emptied =
                self.move_flit::<M, PLAIN>(si, PortId(base.0 + o), PortId(base.0 + i), sends);
            self.sw.has_flit[si.index()].clear(emptied);
            return;
        }
        // input ports pick a lane; output ports keep the closest input port to their pointer
        let lane_mask = if v >= 64 { u64::MAX } else { (1u64 << v) - 1 };
        // per output port in `wanted`: input lane, distance, its output lane and input port,
        // read only for those ports (an array each: a tuple's store packs them first)
        let [mut best_in, mut best_dist, mut best_out, mut best_port] =
            [[MaybeUninit::<u8>::uninit(); 64]; 4];
        let mut wanted = 0u64;
        // the ports with a ready lane, lowest first
        let mut rest = ready;
        // (divisions by v and ports by `lane_port` and compare: p, rr < ports, c < v)
        while rest != M::ZERO {
            let p = self.sw.lane_port.of(rest.tz());
            rest &= !(M::from_u64(lane_mask) << (p * v));
            let m = (ready >> (p * v)).low() & lane_mask;
            let start = self.sw.sa_in[lbase + p as usize] as u32;
            let c = if first != u32::MAX && self.sw.lane_port.of(first) == p {
                first - p * v
            } else {
                (m.rotate_right(start).trailing_zeros() + start) & 63
            };
            let i = p * v + c;
            // (lane `i` is in `ready`: `m` is `ready`'s lanes of port `p`, `first` a ready
            // lane)
            let o = out_of!(i);
            let q = self.sw.lane_port.of(o as u32);
            let rr = self.sw.sa_out[lbase + q as usize] as u32;
            debug_assert!(p < ports && rr < ports && c < v, "pointers wrap by compare");
            let dist = if PLAIN == GENERAL && i == first {
                0
            } else {
                // (p - rr) mod ports
                let d = p + ports - rr;
                1 + (if d >= ports { d - ports } else { d }) as u8
            };
            let q = q as usize;
            // SAFETY: read only once port `q` is in `wanted`, which is set below after
            // the first write
            if wanted >> q & 1 == 0 || dist < unsafe { best_dist[q].assume_init() } {
                best_in[q] = MaybeUninit::new(i as u8);
                best_dist[q] = MaybeUninit::new(dist);
                best_out[q] = MaybeUninit::new(o);
                best_port[q] = MaybeUninit::new(p as u8);
            }
            wanted |= 1 << q;
        }
        // the input lanes whose last flit left (`has_flit`, cleared once after the moves)
        let mut emptied = M::ZERO;
        while wanted != 0 {
            let q = wanted.trailing_zeros();
            wanted &= wanted - 1;
            let k = q as usize;
            // SAFETY (the three): port `q` is in `wanted`, so its entries were written
            let i = unsafe { best_in[k].assume_init() } as u32;
            let o = unsafe { best_out[k].assume_init() } as u32;
            let p = unsafe { best_port[k].assume_init() } as u32;
            self.sa_grant(lbase, v, ports, i, p, q);
            emptied |=
                self.move_flit::<M, PLAIN>(si, PortId(base.0 + o), PortId(base.0 + i), sends);
        }
        self.sw.has_flit[si.index()].clear(emptied);
    }

    /// The switch allocator grants input lane `i` (local, of port `p`) its output lane on
    /// port `q`: the round-robin pointers move past it (the input port's to its next lane,
    /// the output port's to the next input port). `lbase`: the switch's first lane's
    /// global id.
    #[inline(always)]
    fn sa_grant(&mut self, lbase: usize, v: u32, ports: u32, i: u32, p: u32, q: u32) {
        let c = i - p * v;
        self.sw.sa_in[lbase + p as usize] = if c + 1 == v { 0 } else { c + 1 } as u8;
        self.sw.sa_out[lbase + q as usize] = if p + 1 == ports { 0 } else { p + 1 } as u8;
    }
}
