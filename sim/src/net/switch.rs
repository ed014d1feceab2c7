//! The switch: input-buffered, virtual cut-through, separable input-first round-robin
//! allocation, optional virtual output queues.
//!
//! - Each input port has a buffer of `buffer_flits` (the credits of the link feeding it).
//!   It holds packet entries (descriptor + flits arrived + flits sent), in one FIFO or, with
//!   VOQ, in one queue per output port.
//! - A packet is routed when its head arrives (table lookup, d-mod-k). It may be granted an
//!   output only if that output is free and the downstream buffer has credits for the whole
//!   packet (virtual cut-through); its flits then leave one per cycle as they arrive (cut
//!   through: the head may leave in the cycle it arrives), the output and the input stay
//!   locked to it until its tail has left, and no later flit needs to wait for a credit.
//! - Crossbar: one flit per cycle per input and per output (no speedup).
//! - Allocation (each cycle, for free inputs and outputs): every free input with a
//!   candidate requests one output: without VOQ, the output of its FIFO head (head-of-line
//!   blocking); with VOQ, the first eligible queue head in round-robin order from its
//!   pointer. Every output then grants one requesting input in round-robin order from its
//!   pointer. Pointers move past the granted port (iSLIP-style, one iteration).
//! - A flit leaving an input in cycle t returns a credit upstream (arriving t + credit
//!   latency) and enters the output link in cycle t + switch latency (the pipeline is
//!   modelled as part of the output channel), arriving t + switch + link latency.

use super::config::Fault;
use super::error::NetError;
use super::network::{Clocked, Network, Switch};
use super::plain::GENERAL;
use super::scheme::{InputAt, OutputAt, Scheme};
use super::store::{CreditEv, Endpoint, Entry, EntryId, FlitEv, Id, PortId, SwitchId, CONTROL};
use super::types::NodeId;

impl Clocked for Switch {
    type Input = PortId;
    type Id = SwitchId;
    #[inline(always)]
    fn read<S: Scheme, const COPY: bool>(
        net: &mut Network<S>,
        gp: PortId,
        ev: &FlitEv,
    ) -> Result<(), Box<NetError>> {
        net.switch_receive(gp, ev)
    }
    #[inline]
    fn evaluate<S: Scheme>(net: &mut Network<S>, s: SwitchId) -> Result<(), Box<NetError>> {
        net.eval_switch_model::<GENERAL>(s);
        Ok(())
    }
}

impl<S: Scheme> Network<S> {
    /// Phase 2 for switch `s`, by its model. `PLAIN`: the copy (`plain.rs`: a plain one
    /// when the cycle is plain, `Network::plain`).
    #[inline(always)]
    pub(crate) fn eval_switch_model<const PLAIN: u8>(&mut self, s: SwitchId) {
        if self.sw.model == 0 {
            self.eval_switch::<PLAIN>(s);
        } else if self.sw.model == 1 {
            self.eval_router(s);
        } else {
            self.eval_cioq(s);
        }
    }

    /// The scheme's view of output `o` (local) of switch `s`.
    #[inline]
    fn output_at(&self, s: SwitchId, o: u32) -> OutputAt {
        let go = self.sw.sw[s].port(o);
        let op = &self.sw.out[go];
        OutputAt {
            switch: s.0,
            port: o,
            global: go.index(),
            free: op.limit - op.used,
            queue: self.sw.oq.get(go.index()).map_or(0, |q| q.space_used),
        }
    }

    /// The output the scheme counts entry `e`'s flits for (queued in switch `s`): its
    /// output; on the lane router the physical port (`lane_output_at`) of its route until
    /// its head is granted a lane, of that lane after.
    #[inline]
    pub(crate) fn counted_output(&self, s: SwitchId, e: EntryId) -> OutputAt {
        if self.sw.vcs == 0 {
            self.output_at(s, self.entries[e].out as u32)
        } else {
            self.lane_output_at(s, self.counted_port(s, e))
        }
    }

    /// On the lane router, the physical output port entry `e` (queued in switch `s`)
    /// counts for: its `out` is the routing table's port until its head is granted an
    /// output lane, and that lane (`port * vcs + lane`) after, while the lane holds it.
    #[inline]
    pub(crate) fn counted_port(&self, s: SwitchId, e: EntryId) -> u32 {
        let o = self.entries[e].out as u32;
        if self.sw.out[self.sw.sw[s].port(o)].entry == e {
            o / self.sw.vcs
        } else {
            o
        }
    }

    /// The scheme sees entry `e`'s packet head leave input buffer `g` of switch `s` for
    /// its output (the grant); it may set bits in the packet.
    #[inline]
    pub(crate) fn head_leaves(&mut self, s: SwitchId, g: PortId, e: EntryId) {
        let en = self.entries[e];
        let i = self.input_at(s, g, en.out as u32, en.len, self.packets[en.pkt].flags);
        self.packets[en.pkt].bits |= self.cc.head_leaves(&i);
    }

    /// The scheme's view of a head of `len` flits (packet flags `flags`) in input buffer
    /// `g` of switch `s`, for local output `out`.
    #[inline]
    fn input_at(&self, s: SwitchId, g: PortId, out: u32, len: u16, flags: u8) -> InputAt {
        InputAt {
            switch: s.0,
            port: self.sw.sw[s].local(g),
            global: g.index(),
            occupancy: self.sw.inp[g].occ,
            capacity: self.cfg.buffer_flits,
            out,
            len,
            control: flags & CONTROL != 0,
        }
    }

    /// Phase 1: a flit arrives at global input port `gp`.
    #[inline(always)]
    fn switch_receive(&mut self, gp: PortId, ev: &FlitEv) -> Result<(), Box<NetError>> {
        let g = gp;
        let ip = &mut self.sw.inp[g];
        // (the port's switch, its local index and occupancy with this flit: one look-up of
        // the record on the body flits' path)
        let (si, l, occ) = if ip.arriving != EntryId::NONE {
            // Body flit of the packet arriving: count it.
            if ev.pkt != ip.arr_pkt || ev.seq != ip.arr_count {
                let ip = *ip;
                return Err(Box::new(self.sequence_error(
                    Some(ip.arr_pkt),
                    ip.arr_count,
                    ip.arr_len,
                    ip.last,
                    ev,
                    Endpoint::port(gp),
                )));
            }
            ip.arr_count += 1;
            let e = ip.arriving;
            if ip.arr_count == ip.arr_len {
                ip.arriving = EntryId::NONE;
                ip.last = ev.pkt;
            }
            ip.occ += 1;
            let here = (ip.sw, ip.local, ip.occ);
            if S::MARKS && self.seams.marks {
                let at = self.counted_output(here.0, e);
                self.cc.queued(&at);
            }
            here
        } else {
            self.switch_receive_head(gp, ev)?
        };
        if !self.sw.has_flit.is_empty() {
            self.sw.has_flit[si.index()].set(l as u32);
        }
        if occ > self.cfg.buffer_flits {
            return Err(Box::new(NetError::Overflow {
                cycle: self.now,
                component: self.in_port_name(Endpoint::port(gp)),
                occupancy_flits: occ,
                capacity_flits: self.cfg.buffer_flits,
            }));
        }
        Ok(())
    }

    /// `switch_receive` for a head flit (route and queue), out of line: inlined, its
    /// routing and queueing cost the body flits' path registers (one flit in a packet's
    /// length takes it).
    #[inline(never)]
    fn switch_receive_head(
        &mut self,
        gp: PortId,
        ev: &FlitEv,
    ) -> Result<(SwitchId, u8, u32), Box<NetError>> {
        let g = gp;
        let ip = &mut self.sw.inp[g];
        if ev.seq != 0 {
            let last = ip.last;
            return Err(Box::new(self.sequence_error(
                None,
                0,
                0,
                last,
                ev,
                Endpoint::port(gp),
            )));
        }
        // Head: route and queue.
        let s = ip.sw;
        let pk = self.packets[ev.pkt];
        let mut out = self.topo.route(s.0, NodeId(pk.dst));
        if let Some(Fault::Misroute { cycle }) = self.faults.test {
            if !self.faults.test_fired && self.now >= cycle {
                self.faults.test_fired = true;
                let used = self.sw.sw[s].used_mask;
                let r = self.sw.sw[s].radix;
                out = (1..r)
                    .map(|k| (out + k) % r)
                    .find(|&o| used >> o & 1 != 0)
                    .unwrap_or(out);
            }
        }
        let pool = self.pool_nic_owners + (s.0 >> self.pool_sw_shift);
        let e = self.entries.alloc(
            pool,
            Entry {
                pkt: ev.pkt,
                next: EntryId::NONE,
                port: Endpoint::port(gp),
                msg: pk.msg,
                len: pk.len,
                out: out as u8,
                live: true,
            },
        );
        let k = if self.sw.qpp > 1 { out } else { 0 };
        let q = &mut self.sw.q[g.index() * self.sw.qpp as usize + k as usize];
        let ip = &mut self.sw.inp[g];
        if q.0 == EntryId::NONE {
            q.0 = e;
            q.1 = e;
            ip.nonempty |= 1 << k;
            let st = &mut self.sw.sw[s];
            st.queued |= 1 << st.local(gp);
            if self.sw.vcs != 0 {
                // lane router: the stall watchdog's clock restarts, and so do the
                // route and lane allocation of the head
                ip.moved_at = self.now;
                if self.lat_head != 0 {
                    self.sw.va_at[g.index()] = self.now + self.lat_head;
                }
            }
        } else {
            let t = q.1;
            q.1 = e;
            self.entries[t].next = e;
        }
        self.sw.sw[s].resident += 1;
        self.mark_busy(s);
        if S::MARKS && self.seams.marks {
            let i = self.input_at(s, gp, out, pk.len, pk.flags);
            let bits = self.cc.head_arrived(&i);
            self.packets[ev.pkt].bits |= bits;
            let at = self.counted_output(s, e);
            self.cc.queued(&at);
        }
        let ip = &mut self.sw.inp[g];
        if pk.len > 1 {
            ip.arriving = e;
            ip.arr_pkt = ev.pkt;
            ip.arr_count = 1;
            ip.arr_len = pk.len;
        } else {
            ip.last = ev.pkt;
        }
        ip.occ += 1;
        Ok((ip.sw, ip.local, ip.occ))
    }

    /// Phase 2 for switch `s`: allocate, then move one flit per locked output.
    #[inline]
    fn eval_switch<const PLAIN: u8>(&mut self, si: SwitchId) {
        let st = self.sw.sw[si];
        if st.resident == 0 {
            return;
        }
        if let (true, Some(Fault::FreezeSwitch { switch, cycle })) =
            (PLAIN == GENERAL, self.faults.test)
        {
            if switch == si.0 && self.now >= cycle {
                return;
            }
        }
        // at most 64 ports: the low half of the masks
        let free_out = (st.used_mask & !st.locked_out) as u64;
        let cand = (st.queued & !st.locked_in) as u64;
        if cand != 0 && free_out != 0 {
            self.allocate(si, cand, free_out);
        }
        let mut busy = (self.sw.sw[si].locked_out & !self.sw.sw[si].paused_out) as u64;
        while busy != 0 {
            let o = busy.trailing_zeros();
            busy &= busy - 1;
            self.transmit::<PLAIN>(si, st.port(o));
        }
        if S::MARKS && self.seams.marks {
            let out = &self.sw.out.items[st.base.index()..];
            self.cc
                .switch_done(si.0, |o| out[o as usize].limit - out[o as usize].used);
        }
    }

    /// Separable input-first round-robin allocation, one iteration.
    ///
    /// Inputs: each free input requests one free output whose next packet fits its credits
    /// (its own reservations first, then round robin from its pointer). Unless the
    /// arbitration is `bypass`, it also names every other free output whose next packet
    /// waits for credits. Outputs reserved for another input are not requested.
    /// Outputs: a reserved output grants only its holder. A free one finds the input whose
    /// turn it is among requests and waiters (round robin from its pointer) and grants it;
    /// if that input is short of credits, it grants a request that fits without moving the
    /// turn (`fair_bypass`, at most `bypass_limit` times per turn), else it is reserved for
    /// that input. With `bypass`, waiters are not seen and every grant moves the pointer.
    fn allocate(&mut self, si: SwitchId, mut cand: u64, free_out: u64) {
        let st = self.sw.sw[si];
        let qpp = self.sw.qpp as usize;
        let voq = qpp > 1;
        let reserve = self.sw.keep_turn;
        // this thread's scratch (`parallel.rs`)
        let base = self.scratch_base();
        let (mut req_outs, mut wait_outs) = (0u64, 0u64);
        while cand != 0 {
            let i = cand.trailing_zeros() as usize;
            cand &= cand - 1;
            let g = st.port(i as u32);
            let ip = &self.sw.inp[g];
            // Outputs this input may take: free, and not reserved for another input.
            let open = free_out & (!(st.reserved_out as u64) | ip.resv);
            let fits = |net: &Network<S>, o: usize, e: EntryId| {
                let op = &net.sw.out[st.port(o as u32)];
                op.limit - op.used >= net.entries[e].len as u32
            };
            if voq {
                let m = ip.nonempty & open;
                if m == 0 {
                    continue;
                }
                let mut asked = false;
                let mut mine = m & ip.resv;
                while mine != 0 {
                    let o = mine.trailing_zeros() as usize;
                    mine &= mine - 1;
                    if fits(self, o, self.sw.q[g.index() * qpp + o].0) {
                        self.sw.reqs[base + o] |= 1 << i;
                        req_outs |= 1 << o;
                        asked = true;
                        break;
                    }
                }
                if asked && !reserve {
                    continue;
                }
                let start = self.sw.inp[g].rr as u32;
                let mut rot = (m & !self.sw.inp[g].resv).rotate_right(start);
                while rot != 0 {
                    let o = (rot.trailing_zeros() + start) as usize & 63;
                    rot &= rot - 1;
                    if fits(self, o, self.sw.q[g.index() * qpp + o].0) {
                        if !asked {
                            self.sw.reqs[base + o] |= 1 << i;
                            req_outs |= 1 << o;
                            asked = true;
                            if !reserve {
                                break;
                            }
                        }
                    } else if reserve {
                        self.sw.waits[base + o] |= 1 << i;
                        wait_outs |= 1 << o;
                    }
                }
            } else {
                let e = self.sw.q[g.index()].0;
                let o = self.entries[e].out as usize;
                if open >> o & 1 != 0 {
                    if fits(self, o, e) {
                        self.sw.reqs[base + o] |= 1 << i;
                        req_outs |= 1 << o;
                    } else if reserve && ip.resv >> o & 1 == 0 {
                        self.sw.waits[base + o] |= 1 << i;
                        wait_outs |= 1 << o;
                    }
                }
            }
        }
        let r = st.radix;
        let (mut locked_out, mut locked_in, mut queued) =
            (st.locked_out as u64, st.locked_in as u64, st.queued as u64);
        let mut reserved_out = st.reserved_out as u64;
        let mut outs = req_outs | wait_outs;
        while outs != 0 {
            let o = outs.trailing_zeros() as usize;
            outs &= outs - 1;
            let reqs = std::mem::take(&mut self.sw.reqs[base + o]);
            let waits = std::mem::take(&mut self.sw.waits[base + o]);
            let bo = st.port(o as u32);
            let mut bypass = false;
            let i = if reserved_out >> o & 1 != 0 {
                // Only its holder may have asked (the others skip a reserved output).
                if reqs == 0 {
                    continue;
                }
                reserved_out &= !(1 << o);
                let i = self.sw.out[bo].resv as usize;
                debug_assert_eq!(reqs, 1 << i);
                self.sw.inp[st.port(i as u32)].resv &= !(1 << o);
                i
            } else {
                let op = &mut self.sw.out[bo];
                let start = op.rr as u32;
                let next = |m: u64| (m.rotate_right(start).trailing_zeros() + start) as usize & 63;
                let w = next(reqs | waits);
                if reqs >> w & 1 != 0 {
                    op.bypassed = 0;
                    w
                } else {
                    // The input whose turn it is waits for credits.
                    if op.turn != w as u8 {
                        op.turn = w as u8;
                        op.bypassed = 0;
                    }
                    if reqs != 0 && op.bypassed < self.sw.bypass_limit {
                        // A smaller packet that fits goes first; the turn stays.
                        op.bypassed += 1;
                        bypass = true;
                        next(reqs)
                    } else {
                        op.bypassed = 0;
                        reserved_out |= 1 << o;
                        op.resv = w as u8;
                        self.sw.inp[st.port(w as u32)].resv |= 1 << o;
                        continue;
                    }
                }
            };
            // Grant: take the packet out of its queue; lock input and output to it.
            let g = st.port(i as u32);
            let k = if voq { o } else { 0 };
            let q = &mut self.sw.q[g.index() * qpp + k];
            let e = q.0;
            let next = self.entries[e].next;
            q.0 = next;
            let ip = &mut self.sw.inp[g];
            if next == EntryId::NONE {
                q.1 = EntryId::NONE;
                ip.nonempty &= !(1 << k);
                if ip.nonempty == 0 {
                    queued &= !(1 << i);
                }
            }
            ip.rr = ((o as u32 + 1) % r) as u8;
            if S::MARKS && self.seams.marks {
                self.head_leaves(si, g, e);
            }
            let en = &self.entries[e];
            let op = &mut self.sw.out[bo];
            op.entry = e;
            op.from = g;
            op.pkt = en.pkt;
            op.len = en.len;
            op.sent = 0;
            if !bypass {
                op.rr = ((i as u32 + 1) % r) as u8;
            }
            locked_out |= 1 << o;
            locked_in |= 1 << i;
        }
        let st = &mut self.sw.sw[si];
        st.locked_out = locked_out as u128;
        st.locked_in = locked_in as u128;
        st.queued = queued as u128;
        st.reserved_out = reserved_out as u128;
    }

    /// Move one flit through locked output `bo` (global id) of switch `si`, if it has
    /// arrived.
    #[inline]
    fn transmit<const PLAIN: u8>(&mut self, si: SwitchId, bo: PortId) {
        let op = &mut self.sw.out[bo];
        let g = op.from;
        let ip = &mut self.sw.inp[g];
        // Flits of the packet here so far: all of them unless it is still arriving.
        let arrived = if ip.arriving == op.entry {
            ip.arr_count
        } else {
            op.len
        };
        if arrived == op.sent {
            return; // cut-through: the next flit is still on its way
        }
        let seq = op.sent;
        op.sent += 1;
        op.used += 1;
        ip.occ -= 1;
        let (e, tail) = (op.entry, op.sent == op.len);
        if S::MARKS && self.seams.marks {
            let pk = &mut self.packets[op.pkt];
            let at = OutputAt {
                switch: si.0,
                port: self.sw.sw[si].local(bo),
                global: bo.index(),
                free: op.limit - op.used,
                queue: 0,
            };
            let d = pk.departure(seq);
            pk.bits |= self.cc.departs(&at, &d);
        }
        let credit = CreditEv { tx: ip.credit_to };
        let (to, back) = (op.rx_owner, ip.credit_owner);
        let flit = FlitEv {
            rx: op.rx,
            pkt: op.pkt,
            seq,
        };
        if tail {
            op.entry = EntryId::NONE;
        }
        let now = self.now;
        // per-channel latencies: a file topology's links that give one
        let flit_at = if self.sw.lat_out.is_empty() {
            now + self.lat_sw
        } else {
            now + self.sw.lat_out[bo.index()] as u64
        };
        let mut drop_credit = false;
        if let (true, Some(f)) = (PLAIN == GENERAL, self.faults.test) {
            if !self.faults.test_fired {
                match f {
                    Fault::DropCredit { cycle } if now >= cycle => {
                        self.faults.test_fired = true;
                        drop_credit = true;
                    }
                    Fault::DuplicateFlit { cycle } if now >= cycle => {
                        self.faults.test_fired = true;
                        self.send_flit(flit_at, to, flit);
                    }
                    _ => {}
                }
            }
        }
        if !drop_credit {
            self.push_credit::<PLAIN>(self.credit_at_in::<PLAIN>(credit.tx), back, credit);
        }
        self.push_flit::<PLAIN>(flit_at, to, flit, 0);
        if tail {
            let st = &mut self.sw.sw[si];
            let o = st.local(bo);
            let i = st.local(g);
            st.locked_out &= !(1 << o);
            st.locked_in &= !(1 << i);
            st.resident -= 1;
            self.entries[e].live = false;
            self.free_entry(e);
        }
    }
}
