//! The CIOQ switch (`[network] speedup = S`): combined input and output queueing, virtual
//! cut-through, a crossbar `S` times as fast as the links (BookSim's `internal_speedup`
//! with `output_buffer_size`; the seed 004's switches with speedup 2).
//!
//! - **Input buffers** as today's switch: one FIFO of `buffer_flits` per input (the
//!   credits of the link feeding it), a packet routed by the table when its head arrives.
//! - **Output queues**: one FIFO of `out_buffer_flits` per output, between the crossbar and
//!   the link. Not credited: the crossbar starts a packet into a queue only when the queue
//!   has room for the whole packet (cut-through into the queue), and reserves that room.
//! - **Crossbar**, S sub-steps per cycle. In each: every free input whose head packet's
//!   output is free on the crossbar side and has room asks for it; every such output grants
//!   one asking input, round robin from its pointer (one iteration); then every input
//!   holding an output moves one flit across, if the flit has arrived. So an input sends and
//!   an output receives at most S flits per cycle. A flit crossing in cycle t returns its
//!   credit upstream (arriving t + `credit_latency_cycles`).
//! - **Link stage**, once per cycle after the crossbar: the packet at the front of an
//!   output queue starts on the link when the downstream buffer has credits for all of it
//!   (virtual cut-through on the link, as today's switch); then one flit per cycle leaves,
//!   if it has crossed, and enters the link at t + `switch_latency_cycles`. A packet may
//!   cross and leave in the same cycle, so an idle switch adds no latency over today's.
//!
//! The switch keeps today's input records and the output records' link credits
//! (`OutPort::used`, `limit`: the credit path and the checker's credit conservation are
//! shared); the crossbar side and the queue of each output are an `OutQueue`. Without
//! `speedup` nothing here runs.
//!
//! A marking scheme (IB CC) sees the switch as today's: a head entering an input buffer
//! (`head_arrived`), a flit queued for an output on arrival (`queued`), a flit leaving an
//! output onto the link (`departs`: from the output queue here), the switch's end of cycle;
//! a flit in an output queue still counts as queued for its output.

use super::network::Network;
use super::scheme::{OutputAt, Scheme};
use super::store::{CreditEv, EntryId, FlitEv, Id, PktId, PortId, SwitchId};
use std::collections::VecDeque;

/// Largest `speedup`.
pub const MAX_SPEEDUP: u32 = 8;

/// One output's crossbar side and queue (CIOQ only).
#[derive(Clone, Debug)]
pub(crate) struct OutQueue {
    /// The input entry streaming across the crossbar into this queue (NONE: free), its
    /// input port, and how many of its flits have crossed.
    pub xentry: EntryId,
    pub xin: PortId,
    pub xcrossed: u16,
    /// Flits in the queue plus those reserved for the streaming packet; at most `limit`.
    pub space_used: u32,
    pub limit: u32,
    /// Flits in the queue.
    pub occ: u32,
    /// Packets in the queue, oldest first: (packet, length, flits crossed).
    pub pkts: VecDeque<(PktId, u16, u16)>,
    /// The front packet has its link credits and is leaving; flits of it sent.
    pub started: bool,
    pub sent: u16,
    /// Round-robin pointer over inputs (local numbers).
    pub rr: u8,
}

impl OutQueue {
    pub fn new(limit: u32) -> OutQueue {
        OutQueue {
            xentry: EntryId::NONE,
            xin: PortId::NONE,
            xcrossed: 0,
            space_used: 0,
            limit,
            occ: 0,
            pkts: VecDeque::new(),
            started: false,
            sent: 0,
            rr: 0,
        }
    }
}

impl<S: Scheme> Network<S> {
    /// Phase 2 for CIOQ switch `si`: S crossbar sub-steps, then the link stage.
    #[inline(never)]
    pub(crate) fn eval_cioq(&mut self, si: SwitchId) {
        if self.sw.sw[si].resident == 0 {
            return;
        }
        for _ in 0..self.sw.speedup {
            self.crossbar_step(si);
        }
        self.link_step(si);
    }

    /// One crossbar sub-step of switch `si`: allocation, then one flit per held output.
    fn crossbar_step(&mut self, si: SwitchId) {
        let st = self.sw.sw[si];
        let r = st.radix;
        // at most 64 ports: the low half of the masks
        let mut cand = (st.queued & !st.locked_in) as u64;
        let free = (st.used_mask & !st.locked_out) as u64;
        let mut asked = 0u64;
        // this thread's scratch (`parallel.rs`)
        let base = self.scratch_base();
        while cand != 0 {
            let i = cand.trailing_zeros();
            cand &= cand - 1;
            let e = self.sw.q[st.port(i).index()].0;
            let en = &self.entries[e];
            let o = en.out as u32;
            let oq = &self.sw.oq[st.port(o).index()];
            if free >> o & 1 != 0 && oq.limit - oq.space_used >= en.len as u32 {
                self.sw.reqs[base + o as usize] |= 1 << i;
                asked |= 1 << o;
            }
        }
        let (mut locked_out, mut locked_in, mut queued) =
            (st.locked_out as u64, st.locked_in as u64, st.queued as u64);
        while asked != 0 {
            let o = asked.trailing_zeros();
            asked &= asked - 1;
            let reqs = std::mem::take(&mut self.sw.reqs[base + o as usize]);
            let go = st.port(o);
            let start = self.sw.oq[go.index()].rr as u32;
            let i = (reqs.rotate_right(start).trailing_zeros() + start) & 63;
            let g = st.port(i);
            let q = &mut self.sw.q[g.index()];
            let e = q.0;
            let next = self.entries[e].next;
            q.0 = next;
            if next == EntryId::NONE {
                q.1 = EntryId::NONE;
                self.sw.inp[g].nonempty = 0;
                queued &= !(1 << i);
            }
            if S::MARKS && self.seams.marks {
                self.head_leaves(si, g, e);
            }
            let en = self.entries[e];
            let oq = &mut self.sw.oq[go.index()];
            oq.xentry = e;
            oq.xin = g;
            oq.xcrossed = 0;
            oq.space_used += en.len as u32;
            oq.pkts.push_back((en.pkt, en.len, 0));
            oq.rr = ((i + 1) % r) as u8;
            locked_out |= 1 << o;
            locked_in |= 1 << i;
        }
        let mut held = locked_out;
        while held != 0 {
            let o = held.trailing_zeros();
            held &= held - 1;
            let go = st.port(o);
            let (e, g) = {
                let oq = &self.sw.oq[go.index()];
                (oq.xentry, oq.xin)
            };
            let len = self.entries[e].len;
            let ip = &mut self.sw.inp[g];
            let arrived = if ip.arriving == e { ip.arr_count } else { len };
            let oq = &mut self.sw.oq[go.index()];
            if arrived == oq.xcrossed {
                continue; // cut-through: the next flit is still on its way
            }
            ip.occ -= 1;
            oq.xcrossed += 1;
            oq.occ += 1;
            oq.pkts
                .back_mut()
                .expect("the streaming packet is queued")
                .2 += 1;
            let tail = oq.xcrossed == len;
            if tail {
                oq.xentry = EntryId::NONE;
                oq.xin = PortId::NONE;
            }
            let credit = CreditEv { tx: ip.credit_to };
            let back = ip.credit_owner;
            self.send_credit(self.credit_at(credit.tx), back, credit);
            self.moved();
            if tail {
                locked_out &= !(1 << o);
                locked_in &= !(1 << st.local(g));
                self.entries[e].live = false;
                self.free_entry(e);
            }
        }
        let st = &mut self.sw.sw[si];
        st.locked_out = locked_out as u128;
        st.locked_in = locked_in as u128;
        st.queued = queued as u128;
    }

    /// The link stage of switch `si`: the front packet of each output queue starts when
    /// the downstream buffer has credits for all of it, then sends one crossed flit.
    fn link_step(&mut self, si: SwitchId) {
        let st = self.sw.sw[si];
        let now = self.now;
        for o in 0..st.radix {
            let go = st.port(o);
            let oq = &mut self.sw.oq[go.index()];
            let Some(&(pkt, len, crossed)) = oq.pkts.front() else {
                continue;
            };
            let op = &mut self.sw.out[go];
            if !oq.started {
                if op.limit - op.used < len as u32 {
                    continue;
                }
                oq.started = true;
                oq.sent = 0;
            }
            if crossed == oq.sent {
                continue; // the next flit has not crossed yet
            }
            let seq = oq.sent;
            oq.sent += 1;
            oq.occ -= 1;
            oq.space_used -= 1;
            op.used += 1;
            let flit = FlitEv {
                rx: op.rx,
                pkt,
                seq,
            };
            let to = op.rx_owner;
            if S::MARKS && self.seams.marks {
                // the scheme's view of the output as today's switch gives it: the link's
                // free credits (the queue's flits still count as queued for it)
                let at = OutputAt {
                    switch: si.0,
                    port: o,
                    global: go.index(),
                    free: op.limit - op.used,
                    queue: oq.space_used + 1, // before this flit left
                };
                let pk = &mut self.packets[pkt];
                let d = pk.departure(seq);
                pk.bits |= self.cc.departs(&at, &d);
            }
            let oq = &mut self.sw.oq[go.index()];
            if oq.sent == len {
                oq.pkts.pop_front();
                oq.started = false;
                oq.sent = 0;
                self.sw.sw[si].resident -= 1;
            }
            let lat = match self.sw.lat_out.get(go.index()) {
                Some(&l) => l as u64,
                None => self.lat_sw,
            };
            self.send_flit(now + lat, to, flit);
        }
        if S::MARKS && self.seams.marks {
            let out = &self.sw.out.items[st.base.index()..];
            self.cc
                .switch_done(si.0, |o| out[o as usize].limit - out[o as usize].used);
        }
    }
}
