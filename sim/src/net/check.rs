//! The invariant checker (the no-progress errors and their dumps: `deadlock.rs`).
//!
//! Always on (cheap, at the point where it happens): buffer overflow on every arrival, flit
//! order per packet on every hop (a lost or duplicated flit), delivery to the right NIC,
//! credit underflow at switch outputs, no progress for `deadlock_cycles` cycles while flits
//! are in the network. With `check = true`, after every cycle, from independent counts:
//! credit conservation on every link (sender's used credits = flits in the flit channel +
//! flits in the receiver's buffer + credits in the credit channel, where the NIC's used
//! credits are its injection gate's counter `c`), every buffer's occupancy against its
//! entries and its size, the gates' error flags, a scheme's own count of the flits queued
//! for each switch output, the total of flits in the network, and the lane router's
//! no-credit, has-flit and stalled masks (`Switches::no_credit`, `Switches::has_flit`,
//! `Switches::stalled_in`) against the credits and buffers they summarize.

use super::error::NetError;
use super::network::Network;
use super::scheme::Scheme;
use super::store::{End, Endpoint, EntryId, Id, LinkId, PortId};

impl<S: Scheme> Network<S> {
    /// Run every invariant check now (between steps). `step` calls it each cycle when
    /// `check` is on.
    pub fn check(&self) -> Result<(), NetError> {
        let cycle = self.now;
        let inv = |detail: String| NetError::Invariant { cycle, detail };
        let nl = self.links.len();
        let mut flits = vec![0u32; nl];
        let mut credits = vec![0u32; nl];
        let (fo, co) = self.in_outboxes().map_err(inv)?;
        for ev in self.fwheel.iter().chain(&fo) {
            flits[self.link_to(ev.rx).index()] += 1;
        }
        for ev in self.cwheel.iter().chain(&co) {
            credits[self.link_from(ev.tx).index()] += 1;
        }
        // Buffer occupancy from the entries themselves.
        let ports = self.sw.inp.len();
        let mut occ_sw = vec![0u32; ports];
        let mut occ_nic = vec![0u32; self.nodes as usize];
        // Flits queued per switch output, from the entries (for a scheme that counts them).
        let mut for_out = vec![0u32; ports];
        for (id, e) in self.entries.iter() {
            if !e.live {
                continue;
            }
            let (arrived, sent) = self.entry_flits(id);
            if sent > arrived || arrived > e.len as u32 {
                return Err(inv(format!(
                    "{} in {}: {sent} flits sent, {arrived} arrived, of {}",
                    self.packet_name(e.pkt),
                    self.in_port_name(e.port),
                    e.len
                )));
            }
            let held = arrived - sent;
            match e.port.end() {
                End::Nic(n) => occ_nic[n as usize] += held,
                End::Port(g) => {
                    occ_sw[g.index()] += held;
                    let s = self.sw.inp[g].sw;
                    let o = if self.sw.vcs == 0 {
                        e.out as u32
                    } else {
                        // the lane router's schemes count per physical port (its lane 0)
                        self.counted_port(s, id) * self.sw.vcs
                    };
                    for_out[self.sw.sw[s].port(o).index()] += held;
                }
            }
        }
        for (g, oq) in self.sw.oq.iter().enumerate() {
            for_out[g] += oq.occ; // CIOQ: still queued for its output
        }
        for (g, &want) in for_out.iter().enumerate() {
            match self.cc.queued_for(g) {
                Some(q) if q != want => {
                    return Err(inv(format!(
                        "{}: the congestion control counts {q} flits queued for it, the buffers hold {want}",
                        self.out_port_name(PortId(g as u32)),
                    )));
                }
                _ => {}
            }
        }
        // Reservations (arbitration): a reserved output is free, its holder's mask has it,
        // and the holder's next packet is for it; an input's mask names only outputs
        // reserved for it.
        let qpp = self.sw.qpp as usize;
        for st in self.sw.sw.iter() {
            let mut reserved = st.reserved_out;
            while reserved != 0 {
                let o = reserved.trailing_zeros();
                reserved &= reserved - 1;
                let holder = st.port(self.sw.out[st.port(o)].resv as u32);
                let k = if qpp > 1 { o as usize } else { 0 };
                let head = self.sw.q[holder.index() * qpp + k].0;
                let for_it = head != EntryId::NONE && self.entries[head].out as u32 == o;
                let marked = self.sw.inp[holder].resv >> o & 1 != 0;
                if st.locked_out >> o & 1 != 0 || !marked || !for_it {
                    return Err(inv(format!(
                        "{} is reserved for {}, which does not wait for it",
                        self.out_port_name(st.port(o)),
                        self.in_port_name(Endpoint::port(holder))
                    )));
                }
            }
            for i in 0..st.radix {
                let mut held = self.sw.inp[st.port(i)].resv;
                while held != 0 {
                    let o = held.trailing_zeros();
                    held &= held - 1;
                    let recorded =
                        st.reserved_out >> o & 1 != 0 && self.sw.out[st.port(o)].resv as u32 == i;
                    if !recorded {
                        return Err(inv(format!(
                            "{} holds a reservation of {} that the output does not record",
                            self.in_port_name(Endpoint::port(st.port(i))),
                            self.out_port_name(st.port(o))
                        )));
                    }
                }
            }
        }
        if self.sw.vcs != 0 {
            self.check_lane_owners().map_err(inv)?;
        }
        for (g, (a, &b)) in self.sw.inp.iter().map(|p| p.occ).zip(&occ_sw).enumerate() {
            if a != b {
                return Err(inv(format!(
                    "{}: occupancy counter {a} != {b} flits held by its packets",
                    self.in_port_name(Endpoint::port(PortId(g as u32)))
                )));
            }
            let cap = self.in_capacity(PortId(g as u32));
            if a > cap {
                return Err(NetError::Overflow {
                    cycle,
                    component: self.in_port_name(Endpoint::port(PortId(g as u32))),
                    occupancy_flits: a,
                    capacity_flits: cap,
                });
            }
        }
        for (n, (a, &b)) in self
            .nic
            .st
            .iter()
            .map(|s| s.rx_occ)
            .zip(&occ_nic)
            .enumerate()
        {
            if a != b {
                return Err(inv(format!(
                    "NIC {n} receive buffer: occupancy counter {a} != {b} flits held by its packets"
                )));
            }
        }
        if let Some(detail) = self.no_credit_error() {
            return Err(inv(detail));
        }
        if let Some(detail) = self.has_flit_error() {
            return Err(inv(detail));
        }
        // Credit conservation, link by link.
        let mut total = 0u64;
        for (l, k) in self.links.iter().enumerate() {
            let (used, limit) = if let End::Nic(n) = k.tx.end() {
                // Credits that arrived but wait for the gate (more than 255 in one cycle)
                // are no longer in use on the link.
                (
                    (self.cc.used_credits(n) as u32)
                        .wrapping_sub(self.nic.st[n as usize].credit_in),
                    self.cfg.buffer_flits,
                )
            } else {
                let o = &self.sw.out[PortId(k.tx.raw())];
                (o.used, o.limit)
            };
            let buffer = match k.rx.end() {
                End::Nic(n) => self.nic.st[n as usize].rx_occ,
                End::Port(g) => self.sw.inp[g].occ,
            };
            let (f, c) = (flits[l], credits[l]);
            total += (f + buffer) as u64;
            if used != f + buffer + c {
                return Err(NetError::CreditNotConserved {
                    cycle,
                    link: self.link_name(LinkId(l as u32)),
                    used,
                    flits_in_channel: f,
                    flits_in_buffer: buffer,
                    credits_in_channel: c,
                    diff: used as i64 - (f + buffer + c) as i64,
                });
            }
            if used > limit {
                return Err(inv(format!(
                    "link {}: {used} credits in use > {limit} credits",
                    self.link_name(LinkId(l as u32))
                )));
            }
        }
        for n in 0..self.nodes {
            if let Some(detail) = self.cc.gate_error(n) {
                return Err(NetError::Gate {
                    cycle,
                    nic: n,
                    gate: self.cc.gate_name().to_string(),
                    detail,
                });
            }
        }
        for (g, oq) in self.sw.oq.iter().enumerate() {
            // CIOQ output queues: the flits of their packets, within the queue's size
            let held: u32 = oq
                .pkts
                .iter()
                .enumerate()
                .map(|(k, &(_, _, crossed))| {
                    crossed as u32 - if k == 0 { oq.sent as u32 } else { 0 }
                })
                .sum();
            let streaming = if oq.xentry == EntryId::NONE {
                0
            } else {
                (self.entries[oq.xentry].len - oq.xcrossed) as u32
            };
            if held != oq.occ || oq.space_used != oq.occ + streaming || oq.space_used > oq.limit {
                return Err(inv(format!(
                    "{} queue: occupancy counter {} against {held} flits of its packets, {} flits of room in use against {} + {streaming} still to cross, of {}",
                    self.out_port_name(PortId(g as u32)),
                    oq.occ,
                    oq.space_used,
                    oq.occ,
                    oq.limit
                )));
            }
            total += held as u64;
        }
        if total != self.flits_in_network {
            return Err(inv(format!(
                "{total} flits on links and in buffers != {} injected and not yet ejected",
                self.flits_in_network
            )));
        }
        self.check_sleepers().map_err(inv)?;
        self.check_disha()
    }

    /// (flits arrived, flits sent) of a buffer entry, from the ports that count them.
    pub(crate) fn entry_flits(&self, e: EntryId) -> (u32, u32) {
        let en = &self.entries[e];
        if let End::Nic(n) = en.port.end() {
            let ns = &self.nic.st[n as usize];
            let arrived = if ns.rx_arriving == e {
                ns.rx_arr_count
            } else {
                en.len
            };
            let sent = if ns.rx_head == e { ns.rx_sent } else { 0 };
            (arrived as u32, sent as u32)
        } else {
            let ip = &self.sw.inp[PortId(en.port.raw())];
            let arrived = if ip.arriving == e {
                ip.arr_count
            } else {
                en.len
            };
            let go = self.sw.sw[ip.sw].port(en.out as u32);
            let sent = if self.sw.model == 2 {
                // CIOQ: the flits that have crossed into the output queue
                let oq = &self.sw.oq[go.index()];
                if oq.xentry == e {
                    oq.xcrossed
                } else {
                    0
                }
            } else {
                let op = &self.sw.out[go];
                if op.entry == e {
                    op.sent
                } else {
                    0
                }
            };
            (arrived as u32, sent as u32)
        }
    }

    /// The link into receiver `rx`.
    fn link_to(&self, rx: Endpoint) -> LinkId {
        match rx.end() {
            End::Nic(n) => self.nic.st[n as usize].ej_link,
            End::Port(g) => self.sw.inp[g].link,
        }
    }

    /// The link out of sender `tx`.
    fn link_from(&self, tx: Endpoint) -> LinkId {
        match tx.end() {
            End::Nic(n) => self.nic.st[n as usize].inj_link,
            End::Port(g) => self.sw.out[g].link,
        }
    }
}

impl<S: super::scheme::Scheme> Network<S> {
    /// Lane router: every held output lane is held by one live packet, in an input lane of
    /// its own switch that no other output lane names, and routed to it; the switch's lock
    /// masks say exactly that. (A lane with two owners would interleave two packets' flits.)
    fn check_lane_owners(&self) -> Result<(), String> {
        for st in self.sw.sw.iter() {
            let (mut out_mask, mut in_mask) = (0u128, 0u128);
            for o in 0..st.radix {
                let go = st.port(o);
                let op = &self.sw.out[go];
                if op.entry == EntryId::NONE {
                    continue;
                }
                let en = &self.entries[op.entry];
                let own_switch = self.sw.inp[op.from].sw == self.sw.inp[go].sw;
                let i = st.local(op.from);
                if !en.live
                    || !own_switch
                    || en.out as u32 != o
                    || en.port != Endpoint::port(op.from)
                {
                    return Err(format!(
                        "{} is held by {} in {}, which is not a live packet of this switch routed to it",
                        self.out_port_name(go),
                        self.packet_name(en.pkt),
                        self.in_port_name(Endpoint::port(op.from))
                    ));
                }
                if let Some(rt) = self.sw.router.filter(|r| r.ack_vcs > 0) {
                    // ACK lanes carry control packets only, the others data only
                    let (lane, v) = (o % rt.vcs, rt.vcs);
                    let nic_port = st.used_mask >> (o - lane + 1) & 1 == 0;
                    let control = self.packets[en.pkt].flags & super::store::CONTROL != 0;
                    if !nic_port && (lane >= v - rt.ack_vcs) != control {
                        return Err(format!(
                            "{} (lane {lane}) is held by {}, a {} packet, outside its class",
                            self.out_port_name(go),
                            self.packet_name(en.pkt),
                            if control { "control" } else { "data" }
                        ));
                    }
                }
                if let Some(rt) = self.sw.router.filter(|r| r.sticky_escape()) {
                    // a packet that came on the escape lane from a router keeps it (or
                    // ejects): else an escape lane could wait for an adaptive one
                    let v = rt.vcs;
                    let control = self.packets[en.pkt].flags & super::store::CONTROL != 0;
                    let (_, base) = rt.class(control);
                    if st.on_escape(i, v, base) && st.router_lane(o, v) && o % v != base {
                        return Err(format!(
                            "{} (lane {}) is held by {}, which came on the escape lane {} and must keep it",
                            self.out_port_name(go),
                            o % v,
                            self.packet_name(en.pkt),
                            self.in_port_name(Endpoint::port(op.from))
                        ));
                    }
                }
                if in_mask >> i & 1 != 0 {
                    return Err(format!(
                        "{} holds two output lanes (one is {})",
                        self.in_port_name(Endpoint::port(op.from)),
                        self.out_port_name(go)
                    ));
                }
                in_mask |= 1 << i;
                out_mask |= 1 << o;
            }
            if out_mask != st.locked_out || in_mask != st.locked_in {
                return Err(format!(
                    "switch {}: held output lanes {out_mask:#x} and input lanes {in_mask:#x}, lock masks {:#x} and {:#x}",
                    self.sw.inp[st.base].sw.0,
                    st.locked_out,
                    st.locked_in
                ));
            }
        }
        Ok(())
    }
}

impl<S: Scheme> Network<S> {
    /// The lane router's `no_credit` bits against the credits they summarize: set exactly
    /// for the output lanes with no credit left.
    fn no_credit_error(&self) -> Option<String> {
        self.sw.router?;
        for (st, &no_credit) in self.sw.sw.items.iter().zip(&self.sw.no_credit) {
            for l in 0..st.radix {
                let o = &self.sw.out[st.port(l)];
                if st.used_mask >> l & 1 != 0 && (no_credit >> l & 1 != 0) != (o.used >= o.limit) {
                    return Some(format!(
                        "link {}: {} of {} credits in use, but the lane router's no-credit bit says {}",
                        self.link_name(o.link),
                        o.used,
                        o.limit,
                        no_credit >> l & 1
                    ));
                }
            }
        }
        None
    }

    /// The lane router's `has_flit` bits against the buffers they summarize (set exactly
    /// for the input lanes holding a flit), `held_from` against the held output lanes'
    /// records, and for each input lane holding an output lane, `held_to` (that lane) and
    /// its `stalled_in` bit (that lane's no-credit bit).
    fn has_flit_error(&self) -> Option<String> {
        self.sw.router?;
        let items = self.sw.sw.items.iter().zip(&self.sw.has_flit);
        for ((st, has), (&stalled, &no_credit)) in
            items.zip(self.sw.stalled_in.iter().zip(&self.sw.no_credit))
        {
            let has = has.all();
            for l in 0..st.radix {
                let g = st.port(l);
                if st.locked_in >> l & 1 != 0 {
                    let o = self.sw.held_to[g.index()] as u32;
                    let held = st.locked_out >> o & 1 != 0 && self.sw.out[st.port(o)].from == g;
                    if !held || stalled >> l & 1 != no_credit >> o & 1 {
                        return Some(format!(
                            "{}: the lane router's held-to entry says output lane {o} (held from it: {held}) and its stalled bit {}, against that lane's no-credit bit {}",
                            self.in_port_name(Endpoint::port(g)),
                            stalled >> l & 1,
                            no_credit >> o & 1
                        ));
                    }
                }
                let occ = self.sw.inp[g].occ;
                if (has >> l & 1 != 0) != (occ > 0) {
                    return Some(format!(
                        "{}: {occ} flits in its buffer, but the lane router's has-flit bit says {}",
                        self.in_port_name(Endpoint::port(g)),
                        has >> l & 1
                    ));
                }
                let from = self.sw.out[g].from;
                if st.locked_out >> l & 1 != 0
                    && PortId(st.base.0 + self.sw.held_from[g.index()] as u32) != from
                {
                    return Some(format!(
                        "{}: held from input lane {}, but the lane router's held-from entry says {}",
                        self.out_port_name(g),
                        st.local(from),
                        self.sw.held_from[g.index()]
                    ));
                }
            }
        }
        None
    }
}
