//! The NIC: message layer (per-destination send queues, message -> packets -> flits), the
//! scheme's injection gate on the injection port, and the receive buffer drained at
//! `eject_rate`.
//!
//! ```text
//!  workload --Message--> send queue per destination --round robin per packet-->
//!     flit_valid --> [injection gate] --send--> injection link --> edge switch input buffer
//!                        ^ credit_return <-- credit channel <--+ (one per flit it forwards)
//!  ejection link --> receive buffer (eject_buffer_flits) --eject_rate--> Delivery
//!                        one credit per drained flit --> last switch's output
//! ```
//!
//! The gate's `c` is the NIC's only credit state: the NIC sends exactly when the gate says
//! `send`, and feeds it `flit_valid` (a flit is ready), `flit_head` (no packet is in
//! progress, so the next flit starts one) and `credit_return` (credits arriving this cycle).
//! The scheme's flow control decides whether a packet may start (a flit is ready only if
//! one may) and which destination starts it; its control packets go before data, and it
//! sees the heads that arrive with scheme bits (`net::scheme`).

use super::acks::ACK;
use super::error::NetError;
use super::network::{Clocked, Network, Nic, ONE};
use super::plain::GENERAL;
use super::scheme::{Arrival, GateIn, Scheme};
use super::store::{
    CreditEv, Endpoint, Entry, EntryId, FlitEv, MsgId, Packet, PktId, CONTROL, NEVER, SEEN,
};
use super::types::Delivery;

impl Clocked for Nic {
    type Input = u32;
    type Id = u32;
    #[inline(always)]
    fn read<S: Scheme, const COPY: bool>(
        net: &mut Network<S>,
        n: u32,
        ev: &FlitEv,
    ) -> Result<(), Box<NetError>> {
        net.nic_receive::<COPY>(n, ev)
    }
    /// An idle NIC's cycle is the sleep check alone, inlined where the NICs are stepped.
    #[inline(always)]
    fn evaluate<S: Scheme>(net: &mut Network<S>, n: u32) -> Result<(), Box<NetError>> {
        net.eval_nic_in::<GENERAL>(n)
    }
}

impl<S: Scheme> Network<S> {
    /// Phase 2 for NIC `n`: its cycle, or the sleep check alone when it is idle.
    /// `PLAIN`: the copy (`plain.rs`: a plain one when the cycle is plain).
    #[inline(always)]
    pub(crate) fn eval_nic_in<const PLAIN: u8>(&mut self, n: u32) -> Result<(), Box<NetError>> {
        if self.nic.skip_idle && self.nic_sleeps(n, self.now) {
            return Ok(());
        }
        self.eval_nic::<PLAIN>(n)
    }

    /// Phase 2 for NIC `n` (awake). The plain copies (`PLAIN` not `GENERAL`) have no
    /// branches for what a plain cycle lacks.
    #[inline(always)]
    fn eval_nic<const PLAIN: u8>(&mut self, n: u32) -> Result<(), Box<NetError>> {
        let now = self.now;
        let check = self.cfg.check;
        let i = n as usize;
        // Injection: the scheme's flow control, then one slot of its gate.
        let flows = PLAIN == GENERAL && self.seams.flows;
        if flows {
            self.cc.nic_tick(n, now);
        }
        let ns = &mut self.nic.st[i];
        let credit_return = ns.credit_in.min(u8::MAX as u32) as u8;
        ns.credit_in -= credit_return as u32;
        // a packet in progress, or an ACK waiting (it goes before data)
        let (ready, held) = if ns.cur_pkt != PktId::NONE
            || PLAIN == GENERAL && self.acks.as_ref().is_some_and(|a| !a.queue[i].is_empty())
        {
            (true, false)
        } else if !flows {
            (ns.dsts > 0, false)
        } else if self.cc.control_waiting(n) {
            (true, false)
        } else {
            let r = ns.dsts > 0 && self.cc.may_start(n, now, &self.nic.active[i]);
            (r, !r && ns.dsts > 0)
        };
        let mut inputs = GateIn {
            flit_valid: !ns.inj_paused && ready,
            // No packet in progress: the next flit starts one (read with packet gating).
            flit_head: ns.cur_pkt == PktId::NONE,
            credit_return,
            check,
            csr: None,
        };
        if PLAIN == GENERAL && self.faults.csr_pending > 0 {
            // A register rewrite in progress (fault): one CSR write per cycle.
            if let Some(w) = self.faults.csr_q[i].pop_front() {
                self.faults.csr_pending -= 1;
                inputs.csr = Some(w);
            }
        }
        let out = self.cc.gate(n, now, &inputs);
        // With the checker on (every test) the verdict is checked; the gate's own checks
        // come through `gate_error`.
        debug_assert!(
            !out.send || inputs.flit_valid,
            "the gate sent a flit not offered"
        );
        if check && out.send && !inputs.flit_valid {
            return Err(Box::new(self.gate_disagrees(n)));
        }
        let ns = &mut self.nic.st[i];
        // Throttled: the gate held a ready flit with a credit, or the flow control held a
        // queued packet while a credit was free.
        ns.throttled += (out.throttled
            || (held && !ns.inj_paused && c_free(out.used_credits, self.cfg.buffer_flits)))
            as u64;
        ns.congested += (out.congested || (flows && self.cc.nic_congested(n))) as u64;
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
            let ctl = ns.cur_ctl;
            let o = self.owner_of(ev.rx);
            self.push_flit::<PLAIN>(now + self.lat_inj, o, ev, 1);
            if !ctl {
                let st = &mut self.nic.stats[i];
                st.flits_injected += 1;
                st.queued_flits -= 1;
            }
            self.nic.st[i].thr_since = now + 1;
        } else if !out.throttled {
            self.nic.st[i].thr_since = now + 1;
        } else if self.nic.st[i].cur_pkt != PktId::NONE
            && self.cfg.deadlock_cycles > 0
            && now + 1 - self.nic.st[i].thr_since >= 2 * self.cfg.deadlock_cycles
        {
            // Starvation by the throttle itself: a packet stuck halfway, the gate holding
            // back its next flit (which has credit) in every cycle for twice the
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
                self.drain_one::<PLAIN>(i);
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
    /// backlog to one destination never blocks the others at the NIC. The scheme's control
    /// packet goes first; with flow control only eligible destinations take part (the
    /// first eligible one in round-robin order starts).
    fn start_packet(&mut self, i: usize) {
        let shared = self.nic.share.get(i).is_some_and(Option::is_some);
        let flows = self.seams.flows;
        if let Some(c) = flows.then(|| self.cc.take_control(i as u32)).flatten() {
            // A control packet is a real packet: at least one flit, and it must fit the
            // edge switch's buffer (virtual cut-through) or it could never leave.
            assert!(
                c.flits >= 1 && (c.flits as u32) <= self.cfg.buffer_flits,
                "a control packet of {} flits (1..={} allowed)",
                c.flits,
                self.cfg.buffer_flits
            );
            let pkt = self.alloc_packet(
                i as u32,
                Packet {
                    msg: MsgId::NONE,
                    src: i as u32,
                    dst: c.dst,
                    len: c.flits,
                    flags: CONTROL,
                    bits: c.bits,
                    route: 0,
                },
            );
            self.set_current(i, pkt, c.flits, true);
            return;
        }
        if self.acks.is_some() && self.start_ack(i) {
            return;
        }
        if S::FLOWS && flows && !shared {
            let (cc, now) = (&self.cc, self.now);
            // `may_start` said yes only with an eligible destination (the contract in
            // net::Scheme); without one the head of the round robin starts.
            let k = self.nic.active[i]
                .iter()
                .position(|&d| cc.eligible(i as u32, d, now));
            debug_assert!(k.is_some(), "flit_valid implies an eligible flow");
            self.nic.active[i].rotate_left(k.unwrap_or(0));
        }
        if shared {
            self.pick_stream(i);
        }
        let d = self.nic.active[i]
            .pop_front()
            .expect("flit_valid implies a queued destination");
        self.nic.st[i].dsts -= 1;
        let q = super::flows::key(i as u32, d);
        let m = self.nic.sq[&q].0;
        let mtu = self.cfg.mtu_bytes;
        let ms = &mut self.msgs[m];
        let bytes = ms.bytes_left.min(mtu);
        ms.bytes_left -= bytes;
        if ms.injected == NEVER {
            ms.injected = self.now;
            if self.cfg.send_queue_msgs.is_some() {
                self.nic.waiting[i] -= 1;
            }
            let class = ms.class;
            self.class_started(class);
        }
        let ms = &self.msgs[m];
        let done = ms.bytes_left == 0;
        let next = ms.next;
        let len = self.cfg.flits_for(bytes) as u16;
        let pkt = self.alloc_packet(
            i as u32,
            Packet {
                msg: m,
                src: i as u32,
                dst: d,
                len,
                flags: 0,
                bits: 0,
                route: 0,
            },
        );
        if flows {
            self.cc.packet_started(i as u32, d, len as u32, self.now);
        }
        if self.acks.is_some() {
            self.ack_expected(i, d);
        }
        if done && next == MsgId::NONE {
            // the queue is empty: its entry goes
            self.sq_remove(q);
        } else {
            if done {
                self.nic.sq.get_mut(&q).expect("a queued destination").0 = next;
            }
            self.nic.active[i].push_back(d);
            self.nic.st[i].dsts += 1;
        }
        self.set_current(i, pkt, len, false);
        self.nic.stats[i].packets_injected += 1;
    }

    /// NIC `i` has a stream share: move the destination to start next to the front of its
    /// round robin. The first (eligible) destination of each stream is a candidate; with
    /// both present, the stream behind its share goes, and the choice is counted.
    fn pick_stream(&mut self, i: usize) {
        let now = self.now;
        let sh = self.nic.share[i].expect("a share");
        let mut first = [None; 2];
        for (k, &d) in self.nic.active[i].iter().enumerate() {
            if S::FLOWS && self.seams.flows && !self.cc.eligible(i as u32, d, now) {
                continue;
            }
            let head = self.nic.sq[&super::flows::key(i as u32, d)].0;
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
    #[inline(always)]
    fn drain_one<const PLAIN: u8>(&mut self, i: usize) {
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
        let ctl = ns.rx_head_msg == MsgId::NONE;
        let (at, o) = (self.credit_at_in::<PLAIN>(tx), self.owner_of(tx));
        self.push_credit::<PLAIN>(at, o, CreditEv { tx });
        if !ctl {
            self.nic.stats[i].flits_ejected += 1;
        }
        self.flit_ejected::<PLAIN>(!ctl);
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
        self.free_entry(e);
        let bits = self.packets[pkt].bits;
        self.packets[pkt].len = 0;
        self.free_packet(pkt);
        if m == MsgId::NONE {
            return; // a control packet: the scheme saw it on arrival
        }
        if bits != 0 {
            // the packet's scheme bits as it arrived here, OR-ed into its message's
            // (`Delivery::bits`; the slab clears them when the slot is freed)
            self.msgs.mark_or(m, bits);
        }
        let marks = self.msgs.mark(m);
        let ms = &mut self.msgs[m];
        ms.flits_ejected += len as u32;
        let (class, done) = (ms.class, ms.flits_ejected >= ms.flits_total);
        let d = done.then_some(Delivery {
            msg: ms.msg,
            injected: ms.injected,
            delivered: now,
            bits: marks,
        });
        if done {
            ms.flits_total = 0; // marks the slot free
        }
        // A packet of its class delivered: the class moves.
        self.class_moved(class, done);
        if let Some(d) = d {
            self.free_msg(m);
            let st = &mut self.nic.stats[i];
            st.messages_delivered += 1;
            st.bytes_delivered += d.msg.bytes as u64;
            self.deliver(d);
        }
    }

    /// Phase 1: a flit arrives at NIC `n`'s receive buffer. (`COPY`: `Clocked::read`'s.)
    #[inline]
    fn nic_receive<const COPY: bool>(&mut self, n: u32, ev: &FlitEv) -> Result<(), Box<NetError>> {
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
                if self.acks.is_some() {
                    let pk = self.packets[ev.pkt];
                    self.ack_due(i, &pk);
                }
            }
        } else {
            // A head: the packet must be live, for this NIC, and not seen here before.
            let pk = match self.packets.get(ev.pkt) {
                Some(p) if p.len > 0 && p.flags & SEEN == 0 => *p,
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
            self.packets[ev.pkt].flags |= SEEN;
            if self.acks.is_some() {
                if pk.flags & ACK != 0 {
                    self.ack_arrived(i, pk.src);
                } else if pk.len == 1 {
                    self.ack_due(i, &pk); // the head is the tail
                }
            }
            if self.seams.flows && (pk.bits != 0 || pk.flags & CONTROL != 0) {
                self.cc.arrived(
                    n,
                    &Arrival {
                        src: pk.src,
                        len: pk.len,
                        bits: pk.bits,
                        control: pk.flags & CONTROL != 0,
                        ack: pk.flags & ACK != 0,
                    },
                );
            }
            let e = self.entries.alloc(
                n >> self.pool_nic_shift,
                Entry {
                    pkt: ev.pkt,
                    next: EntryId::NONE,
                    port: Endpoint::nic(n),
                    msg: pk.msg,
                    len: pk.len,
                    out: 0,
                    live: true,
                },
            );
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
        self.nic.poke(n);
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

    /// The error for a gate that sent a flit that was not offered.
    #[cold]
    #[inline(never)]
    fn gate_disagrees(&self, n: u32) -> NetError {
        NetError::Gate {
            cycle: self.now,
            nic: n,
            gate: self.cc.gate_name().to_string(),
            detail: "send without flit_valid".into(),
        }
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

#[cfg(test)]
mod tests {
    use crate::net::scheme::{CreditGate, Plain};
    use crate::net::store::PktId;
    use crate::net::types::{Delivery, Message, NodeId, Workload};
    use crate::net::{NetConfig, Network, TopologyConfig};

    /// Two messages of four packets from NIC 0 to NIC 1, the second after the first.
    struct Two {
        sent: u32,
        got: Vec<Delivery>,
    }

    impl Workload for Two {
        fn tick(&mut self, now: u64, out: &mut Vec<Message>) {
            if self.sent < 2 && (self.sent == 0 || self.got.len() == 1) {
                out.push(Message {
                    id: self.sent as u64,
                    src: NodeId(0),
                    dst: NodeId(1),
                    bytes: 4 * 256,
                    tag: 1,
                    created: now,
                });
                self.sent += 1;
            }
        }
        fn delivered(&mut self, _now: u64, d: &Delivery) {
            self.got.push(*d);
        }
    }

    /// `Delivery::bits` is the OR of the bits its packets carried to the destination, not
    /// the last packet's; and a message slot used again starts without marks.
    #[test]
    fn a_delivery_carries_the_or_of_its_packets_bits() {
        let cfg = NetConfig {
            topology: TopologyConfig::SingleSwitch { nodes: 2 },
            mtu_bytes: 256,
            buffer_flits: 64,
            eject_buffer_flits: 64,
            check: true,
            ..Default::default()
        };
        let mut net = Network::build(&cfg, 1, |ctx| {
            Ok(Plain(CreditGate::new(
                ctx.nodes,
                ctx.cfg.buffer_flits as u16,
            )))
        })
        .unwrap();
        let mut w = Two {
            sent: 0,
            got: Vec::new(),
        };
        // the first message's packets, in the order they appear: the first and the third
        // get a (switch-like) mark on the way, the second and the last none
        let mut seen: Vec<PktId> = Vec::new();
        while w.got.len() < 2 && net.now() < 10_000 {
            net.step(&mut w).unwrap();
            if w.sent == 1 {
                let live: Vec<PktId> = (net.packets.items.iter().enumerate())
                    .filter(|(_, p)| p.len > 0)
                    .map(|(k, _)| PktId(k as u32))
                    .collect();
                for id in live {
                    if !seen.contains(&id) {
                        net.packets[id].bits = [0b01, 0, 0b100, 0][seen.len().min(3)];
                        seen.push(id);
                    }
                }
            }
        }
        assert_eq!(seen.len(), 4, "four packets of the first message");
        assert_eq!(w.got.len(), 2);
        assert_eq!(w.got[0].msg.id, 0);
        assert_eq!(w.got[0].bits, 0b101, "the OR, not the last packet's 0");
        assert_eq!(w.got[1].bits, 0, "the second message was not marked");
    }
}
