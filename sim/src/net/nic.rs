//! The NIC: message layer (per-destination send queues, message -> packets -> flits), the
//! PFT block gating the injection port, and the receive buffer drained at `eject_rate`.
//!
//! ```text
//!  workload --Message--> send queue per destination --round robin per packet-->
//!     flit_valid --> [PFT block] --send--> injection link --> edge switch input buffer
//!                        ^ credit_return <-- credit channel <--+ (one per flit it forwards)
//!  ejection link --> receive buffer (eject_buffer_flits) --eject_rate--> Delivery
//!                        one credit per drained flit --> last switch's output
//! ```
//!
//! The PFT block's `c` is the NIC's only credit state: the NIC sends exactly when the
//! block's `send` output is high, and feeds it `flit_valid` (a flit is ready), `flit_head`
//! (no packet is in progress, so the next flit starts one: with the PFT entry's
//! `gating = "packet"` the block throttles only those) and `credit_return` (credits arriving
//! this cycle). With IB CC (`crate::cc::ibcc`) the block
//! stays disabled and the flow control decides which destination may start a packet
//! (a flit is ready only if one may), CNPs go before data, and a CNP's arrival is a BECN.

use super::error::NetError;
use super::network::{Clocked, Network, Nic, ONE};
use super::store::{
    CreditEv, Endpoint, Entry, EntryId, FlitEv, MsgId, Packet, PktId, CNP, FECN, NEVER,
};
use super::types::Delivery;
use crate::cc::FlowCtl;
use pft_hdl::model::{Inputs, Outputs};

impl Clocked for Nic {
    type Input = u32;
    type Id = u32;
    #[inline]
    fn read(net: &mut Network, n: u32, ev: &FlitEv) -> Result<(), Box<NetError>> {
        net.nic_receive(n, ev)
    }
    #[inline]
    fn evaluate(net: &mut Network, n: u32) -> Result<(), Box<NetError>> {
        net.eval_nic(n)
    }
}

impl Network {
    /// Phase 2 for NIC `n`.
    #[inline]
    fn eval_nic(&mut self, n: u32) -> Result<(), Box<NetError>> {
        let check = self.cfg.check;
        let i = n as usize;
        let now = self.now;
        // Injection: packet-level flow control, then one step of the PFT block.
        if let FlowCtl::Ibcc(ib) = &mut self.flow {
            ib.tick(i, now);
        }
        let ns = &mut self.nic.st[i];
        let credit_return = ns.credit_in.min(u8::MAX as u32) as u8;
        ns.credit_in -= credit_return as u32;
        let (ready, held) = if ns.cur_pkt != PktId::NONE {
            (true, false)
        } else {
            match &mut self.flow {
                FlowCtl::None => (ns.dsts > 0, false),
                FlowCtl::Ibcc(ib) => {
                    let r = ib.ready(i, now, &self.nic.active[i]);
                    (r, !r && ns.dsts > 0)
                }
            }
        };
        let flit_valid = !ns.inj_paused && ready;
        let mut inputs = Inputs {
            flit_valid,
            // No packet in progress: the next flit starts one (read with packet gating).
            flit_head: ns.cur_pkt == PktId::NONE,
            credit_return,
            ..Default::default()
        };
        if self.faults.csr_pending > 0 {
            // A register rewrite in progress (fault): one CSR write per cycle.
            if let Some((a, d)) = self.faults.csr_q[i].pop_front() {
                self.faults.csr_pending -= 1;
                inputs.csr_we = true;
                inputs.csr_addr = a;
                inputs.csr_wdata = d;
            }
        }
        // The block's clock cycles in this flit slot (one at clock ratio 1): the slot's
        // credits and CSR write come with the first; the flit is offered until the block
        // sends it, and the link then carries it for the rest of the slot.
        let engine = &mut self.nic.engine[i];
        let mut out = Outputs::default();
        let (mut sent, mut thr) = (false, false);
        for _ in 0..self.clk_steps {
            let c_before = if check { engine.used_credits() } else { 0 };
            let o = engine.step(&inputs);
            if check && o.used_credits != c_before {
                return Err(Box::new(NetError::Pft {
                    cycle: now,
                    nic: n,
                    detail: format!(
                        "output used_credits = {} but the counter held {c_before}",
                        o.used_credits
                    ),
                }));
            }
            if o.send && !inputs.flit_valid {
                return Err(Box::new(NetError::Pft {
                    cycle: now,
                    nic: n,
                    detail: "send without flit_valid".into(),
                }));
            }
            sent |= o.send;
            thr |= o.throttled;
            out = o;
            inputs.credit_return = 0;
            inputs.csr_we = false;
            inputs.flit_valid &= !o.send;
        }
        // The slot's outputs: sent if any block cycle sent, throttled if the throttle held
        // the flit back in some block cycle and it did not leave; the rest from the last.
        out.send = sent;
        out.throttled = thr && !sent;
        let ns = &mut self.nic.st[i];
        ns.throttled += out.throttled as u64;
        ns.congested += out.congested as u64;
        if let FlowCtl::Ibcc(ib) = &self.flow {
            // Held back by the IRD with a credit free: IB CC's throttled cycles.
            ns.throttled +=
                (held && !ns.inj_paused && (c_free(out.used_credits, self.cfg.buffer_flits)))
                    as u64;
            ns.congested += ib.congested(i) as u64;
        }
        ns.out_flags = out.send as u8 | (out.congested as u8) << 1 | (out.throttled as u8) << 2;
        ns.out_c = out.used_credits;
        if out.send {
            if self.nic.st[i].cur_pkt == PktId::NONE {
                self.start_packet(i);
            }
            let ns = &mut self.nic.st[i];
            let seq = ns.cur_seq;
            let ev = FlitEv {
                rx: Endpoint::port(ns.inj_rx),
                pkt: ns.cur_pkt,
                seq,
            };
            ns.cur_seq = seq + 1;
            if seq + 1 == ns.cur_len {
                ns.cur_pkt = PktId::NONE;
            }
            let cnp = ns.cur_cnp;
            self.fwheel.push(now + self.lat_inj, ev);
            if !cnp {
                let st = &mut self.nic.stats[i];
                st.flits_injected += 1;
                st.queued_flits -= 1;
            }
            self.flits_in_network += 1;
            self.last_progress = now;
            self.nic.st[i].thr_since = now + 1;
        } else if !out.throttled {
            self.nic.st[i].thr_since = now + 1;
        } else if self.nic.st[i].cur_pkt != PktId::NONE
            && self.cfg.deadlock_cycles > 0
            && now + 1 - self.nic.st[i].thr_since >= 2 * self.cfg.deadlock_cycles
        {
            // Starvation by the throttle itself: a packet stuck halfway, the PFT block
            // holding back its next flit (which has credit) in every cycle for twice the
            // deadlock limit. (Waiting for credit is the fabric's doing and does not count:
            // the deadlock detector speaks if nothing moves. Twice the limit, so that a
            // fabric-wide stop is reported as a deadlock first.)
            return Err(Box::new(self.starved(n)));
        }
        // Ejection: the fractional accumulator earns eject_rate flits per cycle and banks
        // at most one flit while the buffer is empty.
        let ns = &mut self.nic.st[i];
        if ns.rate > 0 && (ns.rx_occ > 0 || ns.acc < ONE) {
            let mut acc = ns.acc + ns.rate;
            if ns.rx_occ > 0 && acc >= ONE {
                acc -= ONE;
                self.drain_one(i);
            }
            let ns = &mut self.nic.st[i];
            if ns.rx_occ == 0 {
                acc = acc.min(ONE);
            }
            ns.acc = acc;
        }
        Ok(())
    }

    /// Start the next packet: round robin over the destinations with queued messages, so a
    /// backlog to one destination never blocks the others at the NIC. With IB CC a CNP goes
    /// first, and only destinations whose flow is past its IRD take part.
    fn start_packet(&mut self, i: usize) {
        let n = self.nodes as usize;
        let shared = self.nic.share.get(i).is_some_and(Option::is_some);
        if let FlowCtl::Ibcc(ib) = &mut self.flow {
            if let Some(d) = ib.take_cnp(i) {
                let pkt = self.packets.alloc(Packet {
                    msg: MsgId::NONE,
                    src: i as u32,
                    dst: d,
                    len: 1,
                    rx: 0,
                    flags: CNP,
                });
                let ns = &mut self.nic.st[i];
                ns.cur_pkt = pkt;
                ns.cur_seq = 0;
                ns.cur_len = 1;
                ns.cur_cnp = true;
                return;
            }
            if !shared {
                let found = ib.pick(i, self.now, &mut self.nic.active[i]);
                debug_assert!(found, "flit_valid implies an eligible flow");
            }
        }
        if shared {
            self.pick_stream(i);
        }
        let d = self.nic.active[i]
            .pop_front()
            .expect("flit_valid implies a queued destination");
        self.nic.st[i].dsts -= 1;
        let q = i * n + d as usize;
        let m = self.nic.sq[q].0;
        let mtu = self.cfg.mtu_bytes;
        let ms = &mut self.msgs[m];
        let bytes = ms.bytes_left.min(mtu);
        ms.bytes_left -= bytes;
        if ms.injected == NEVER {
            ms.injected = self.now;
            let c = &mut self.classes[ms.class as usize];
            if c.started == 0 {
                c.since = self.now;
            }
            c.started += 1;
        }
        let done = ms.bytes_left == 0;
        let next = ms.next;
        let len = self.cfg.flits_for(bytes) as u16;
        let pkt = self.packets.alloc(Packet {
            msg: m,
            src: i as u32,
            dst: d,
            len,
            rx: 0,
            flags: 0,
        });
        if let FlowCtl::Ibcc(ib) = &mut self.flow {
            ib.started(i, d, len as u32, self.now);
        }
        if done {
            self.nic.sq[q].0 = next;
            if next == MsgId::NONE {
                self.nic.sq[q].1 = MsgId::NONE;
            }
        }
        if self.nic.sq[q].0 != MsgId::NONE {
            self.nic.active[i].push_back(d);
            self.nic.st[i].dsts += 1;
        }
        let ns = &mut self.nic.st[i];
        ns.cur_pkt = pkt;
        ns.cur_seq = 0;
        ns.cur_len = len;
        ns.cur_cnp = false;
        self.nic.stats[i].packets_injected += 1;
    }

    /// NIC `i` has a stream share: move the destination to start next to the front of its
    /// round robin. The first (eligible) destination of each stream is a candidate; with
    /// both present, the stream behind its share goes, and the choice is counted.
    fn pick_stream(&mut self, i: usize) {
        let n = self.nodes as usize;
        let now = self.now;
        let sh = self.nic.share[i].expect("a share");
        let mut first = [None; 2];
        for (k, &d) in self.nic.active[i].iter().enumerate() {
            if let FlowCtl::Ibcc(ib) = &self.flow {
                if !ib.eligible(i, d, now) {
                    continue;
                }
            }
            let head = self.nic.sq[i * n + d as usize].0;
            let s = (self.msgs[head].msg.tag != sh.tag) as usize;
            if first[s].is_none() {
                first[s] = Some((k, head));
                if first[1 - s].is_some() {
                    break;
                }
            }
        }
        let k = match first {
            [Some(a), Some(b)] => {
                // stream 0 is behind when served0 / share <= served1 / (1 - share)
                let behind0 =
                    sh.served[0] as f64 * (1.0 - sh.share) <= sh.served[1] as f64 * sh.share;
                let (s, (k, head)) = if behind0 { (0, a) } else { (1, b) };
                let ms = &self.msgs[head];
                let flits = self.cfg.flits_for(ms.bytes_left.min(self.cfg.mtu_bytes));
                if let Some(st) = &mut self.nic.share[i] {
                    st.served[s] += flits as u64;
                }
                k
            }
            [Some((k, _)), None] | [None, Some((k, _))] => k,
            [None, None] => unreachable!("flit_valid implies an eligible destination"),
        };
        self.nic.active[i].rotate_left(k);
    }

    /// Drain the receive buffer's oldest flit: its credit goes back to the switch; the
    /// message is delivered with its last flit.
    #[inline]
    fn drain_one(&mut self, i: usize) {
        let now = self.now;
        let ns = &mut self.nic.st[i];
        debug_assert!(
            ns.rx_sent
                < if ns.rx_arriving == ns.rx_head {
                    ns.rx_arr_count
                } else {
                    ns.rx_head_len
                }
        );
        ns.rx_sent += 1;
        ns.rx_occ -= 1;
        let tx = Endpoint::port(ns.ej_tx);
        let cnp = ns.rx_head_msg == MsgId::NONE;
        self.cwheel.push(self.credit_at(tx), CreditEv { tx });
        if !cnp {
            self.nic.stats[i].flits_ejected += 1;
        }
        self.flits_in_network -= 1;
        self.last_progress = now;
        let ns = &mut self.nic.st[i];
        if ns.rx_sent < ns.rx_head_len {
            return;
        }
        // The packet's tail: retire it, move to the next one.
        let (e, pkt, m, len) = (ns.rx_head, ns.rx_head_pkt, ns.rx_head_msg, ns.rx_head_len);
        let next = self.entries[e].next;
        let ns = &mut self.nic.st[i];
        ns.rx_head = next;
        ns.rx_sent = 0;
        if next == EntryId::NONE {
            ns.rx_tail = EntryId::NONE;
        } else {
            let en = &self.entries[next];
            ns.rx_head_len = en.len;
            ns.rx_head_pkt = en.pkt;
            ns.rx_head_msg = en.msg;
        }
        self.entries[e].live = false;
        self.entries.free(e);
        self.packets[pkt].len = 0;
        self.packets.free(pkt);
        if m == MsgId::NONE {
            return; // a CNP: it acted on arrival
        }
        let ms = &mut self.msgs[m];
        ms.flits_ejected += len as u32;
        // A packet of its class delivered: the class moves.
        let c = &mut self.classes[ms.class as usize];
        c.longest = c.longest.max(now - c.since);
        c.since = now;
        if ms.flits_ejected >= ms.flits_total {
            c.started -= 1;
            let d = Delivery {
                msg: ms.msg,
                injected: ms.injected,
                delivered: now,
            };
            ms.flits_total = 0; // marks the slot free
            self.msgs.free(m);
            let st = &mut self.nic.stats[i];
            st.messages_delivered += 1;
            st.bytes_delivered += d.msg.bytes as u64;
            self.messages_pending -= 1;
            self.deliver(d);
        }
    }

    /// Phase 1: a flit arrives at NIC `n`'s receive buffer.
    #[inline]
    fn nic_receive(&mut self, n: u32, ev: &FlitEv) -> Result<(), Box<NetError>> {
        let i = n as usize;
        let now = self.now;
        let ns = &mut self.nic.st[i];
        if ns.rx_arriving != EntryId::NONE {
            // Body flit of the packet arriving: count it.
            if ev.pkt != ns.rx_arr_pkt || ev.seq != ns.rx_arr_count {
                let ns = *ns;
                return Err(Box::new(self.sequence_error(
                    Some(ns.rx_arr_pkt),
                    ns.rx_arr_count,
                    ns.rx_arr_len,
                    PktId::NONE,
                    ev,
                    Endpoint::nic(n),
                )));
            }
            ns.rx_arr_count += 1;
            if ns.rx_arr_count == ns.rx_arr_len {
                ns.rx_arriving = EntryId::NONE;
            }
        } else {
            // A head: the packet must be live, for this NIC, and not seen here before.
            let pk = match self.packets.get(ev.pkt) {
                Some(p) if p.len > 0 && p.rx == 0 => *p,
                _ => {
                    return Err(Box::new(NetError::FlitDuplicated {
                        cycle: now,
                        component: format!(
                            "NIC {n} (a flit of a packet that already arrived here)"
                        ),
                        packet: ev.pkt.0,
                        seq: ev.seq as u32,
                        arrived: 0,
                        len: 0,
                    }))
                }
            };
            if pk.dst != n {
                return Err(Box::new(NetError::Misrouted {
                    cycle: now,
                    packet: ev.pkt.0,
                    msg_id: if pk.msg == MsgId::NONE {
                        u64::MAX
                    } else {
                        self.msgs[pk.msg].msg.id
                    },
                    src: pk.src,
                    dst: pk.dst,
                    at: n,
                }));
            }
            if ev.seq != 0 {
                return Err(Box::new(self.sequence_error(
                    None,
                    0,
                    0,
                    PktId::NONE,
                    ev,
                    Endpoint::nic(n),
                )));
            }
            self.packets[ev.pkt].rx = 1;
            if pk.flags != 0 {
                if let FlowCtl::Ibcc(ib) = &mut self.flow {
                    if pk.flags & CNP != 0 {
                        ib.becn(i, pk.src); // the BECN of flow i -> pk.src
                    } else if pk.flags & FECN != 0 {
                        ib.fecn(i, pk.src);
                    }
                }
            }
            let e = self.entries.alloc(Entry {
                pkt: ev.pkt,
                next: EntryId::NONE,
                port: Endpoint::nic(n),
                msg: pk.msg,
                len: pk.len,
                out: 0,
                live: true,
            });
            let t = self.nic.st[i].rx_tail;
            let ns = &mut self.nic.st[i];
            if t == EntryId::NONE {
                ns.rx_head = e;
                ns.rx_sent = 0;
                ns.rx_head_len = pk.len;
                ns.rx_head_pkt = ev.pkt;
                ns.rx_head_msg = pk.msg;
            }
            ns.rx_tail = e;
            if pk.len > 1 {
                ns.rx_arriving = e;
                ns.rx_arr_pkt = ev.pkt;
                ns.rx_arr_count = 1;
                ns.rx_arr_len = pk.len;
            }
            if t != EntryId::NONE {
                self.entries[t].next = e;
            }
        }
        let ns = &mut self.nic.st[i];
        ns.rx_occ += 1;
        if ns.rx_occ > self.cfg.eject_buffer_flits {
            return Err(Box::new(NetError::Overflow {
                cycle: now,
                component: format!("NIC {n} receive buffer"),
                occupancy_flits: ns.rx_occ,
                capacity_flits: self.cfg.eject_buffer_flits,
            }));
        }
        Ok(())
    }

    /// The error for a flit that broke a buffer's arrival order. A buffer receives flits
    /// packet by packet, in order: with `arriving` the packet being received (None between
    /// packets; `arrived` of its `len` flits so far) and `last` the packet received before
    /// it, a flit must be the next flit of `arriving`, or a head flit between packets.
    /// Anything else is a lost or duplicated flit.
    #[cold]
    #[inline(never)]
    pub(crate) fn sequence_error(
        &self,
        arriving: Option<PktId>,
        arrived: u16,
        len: u16,
        last: PktId,
        ev: &FlitEv,
        port: Endpoint,
    ) -> NetError {
        let cycle = self.now;
        let (arrived, len) = (arrived as u32, len as u32);
        let dup = |arrived: u32, len: u32| NetError::FlitDuplicated {
            cycle,
            component: self.in_port_name(port),
            packet: ev.pkt.0,
            seq: ev.seq as u32,
            arrived,
            len,
        };
        let lost = |detail: String| NetError::FlitLost {
            cycle,
            component: self.in_port_name(port),
            detail,
        };
        let len_of = |p: PktId| self.packets.get(p).map_or(0, |k| k.len as u32);
        let Some(a) = arriving else {
            if ev.pkt == last {
                return dup(len_of(last), len_of(last));
            }
            return lost(format!(
                "flit {} of {} arrived with no packet in progress (its head never came)",
                ev.seq,
                self.packet_name(ev.pkt)
            ));
        };
        if ev.pkt == a {
            if (ev.seq as u32) < arrived {
                return dup(arrived, len);
            }
            return lost(format!(
                "flit {} of {} arrived when flit {arrived} was expected",
                ev.seq,
                self.packet_name(ev.pkt)
            ));
        }
        if ev.pkt == last {
            return dup(len_of(last), len_of(last));
        }
        lost(format!(
            "flit {} of {} arrived while {} had only {arrived} of {len} flits (its tail never came)",
            ev.seq,
            self.packet_name(ev.pkt),
            self.packet_name(a)
        ))
    }
}

/// The NIC has a credit free (c below the limit).
#[inline]
fn c_free(c: u16, limit: u32) -> bool {
    (c as u32) < limit
}
