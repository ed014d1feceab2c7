//! The no-progress errors and what they name: the deadlock dump with the cycle of waiting
//! buffers or lanes (`wait_cycle`), the per-lane stall watchdog (`lanes_stalled`), a NIC
//! starved by its own throttle, and a traffic class that stalled.

use super::error::NetError;
use super::network::{ClassWatch, Network};
use super::scheme::Scheme;
use super::store::{End, Endpoint, EntryId, Id, PortId, NEVER};
use super::types::NodeId;
use std::fmt::Write;

/// Lines of a deadlock dump before it is cut.
const DUMP_LINES: usize = 40;

impl<S: Scheme> Network<S> {
    /// The no-progress error, with a dump of every non-empty buffer and busy port.
    /// NIC `n`'s gate has held a packet halfway for twice `deadlock_cycles`: say why.
    #[cold]
    #[inline(never)]
    pub(crate) fn starved(&self, n: u32) -> NetError {
        let ns = &self.nic.st[n as usize];
        let g = self.cc.gate_state(n);
        let limit = self.cfg.buffer_flits;
        let edge = self.in_port_name(Endpoint::port(ns.inj_rx));
        let reason = format!(
            "its {} throttles every cycle while {edge} stays locked to the packet, so c cannot fall; {}",
            self.cc.gate_name(),
            g.reason
        );
        NetError::Starved {
            cycle: self.now,
            nic: n,
            gate: self.cc.gate_name().to_string(),
            packet: self.packet_name(ns.cur_pkt),
            stalled_cycles: self.now + 1 - ns.thr_since,
            c: g.c,
            credit_limit: limit,
            state: g.state,
            reason,
        }
    }

    pub(crate) fn deadlock(&self) -> NetError {
        let mut lines: Vec<String> = Vec::new();
        if let Some(cycle) = self.wait_cycle() {
            let names: Vec<String> = cycle
                .iter()
                .map(|&g| self.in_port_name(Endpoint::port(g)))
                .collect();
            lines.push(format!(
                "  a cycle of {} buffers (lanes), each waiting for the next (for space in it, or for the output its packet holds): {} -> (the first)",
                names.len(),
                names.join(" -> ")
            ));
        }
        let qpp = self.sw.qpp as usize;
        for st in self.sw.sw.iter() {
            for p in 0..st.radix {
                let gp = st.port(p);
                let g = gp.index();
                let occ = self.sw.inp[gp].occ;
                let locked = self.sw.out[gp].entry;
                if occ == 0 && locked == EntryId::NONE {
                    continue;
                }
                let mut l = format!("  {}:", self.in_port_name(Endpoint::port(gp)));
                if occ > 0 {
                    let _ = write!(l, " holds {occ} flits");
                    for k in 0..qpp {
                        let e = self.sw.q[g * qpp + k].0;
                        if e != EntryId::NONE {
                            let en = &self.entries[e];
                            let op = &self.sw.out[st.port(en.out as u32)];
                            let (arrived, sent) = self.entry_flits(e);
                            let _ = write!(
                                l,
                                "; queued {} for output {} ({} of {} flits here; output {}, credits used {}/{})",
                                self.packet_name(en.pkt),
                                en.out,
                                arrived - sent,
                                en.len,
                                if op.entry == EntryId::NONE { "free" } else { "busy" },
                                op.used,
                                op.limit
                            );
                        }
                    }
                }
                if locked != EntryId::NONE {
                    let op = &self.sw.out[gp];
                    let en = &self.entries[locked];
                    let _ = write!(
                        l,
                        "; output {p} sending {} from {} ({}/{} flits sent), credits used {}/{}",
                        self.packet_name(en.pkt),
                        self.in_port_name(en.port),
                        op.sent,
                        en.len,
                        op.used,
                        op.limit
                    );
                }
                lines.push(l);
            }
        }
        for n in 0..self.nodes as usize {
            let c = self.cc.used_credits(n as u32);
            let st = self.nic_stats(NodeId(n as u32));
            let rx = self.nic.st[n].rx_occ;
            if c > 0 || rx > 0 || st.queued_flits > 0 {
                lines.push(format!(
                    "  NIC {n}: used credits {c}/{}, {} flits queued to send, receive buffer {rx}/{} flits, congested {}",
                    self.cfg.buffer_flits,
                    st.queued_flits,
                    self.cfg.eject_buffer_flits,
                    self.congested(NodeId(n as u32))
                ));
            }
        }
        let more = lines.len().saturating_sub(DUMP_LINES);
        lines.truncate(DUMP_LINES);
        if more > 0 {
            lines.push(format!("  ... and {more} more"));
        }
        let stalls: Vec<String> = (self.cfg.faults.iter().enumerate())
            .filter(|(_, f)| f.stalls())
            .map(|(i, _)| format!("faults[{i}]"))
            .collect();
        if !stalls.is_empty() {
            lines.push(format!(
                "  note: the run has stall faults ({}); stalls that together stop every flit for network.deadlock_cycles = {} cycles end the run here (raise the limit, or shorten the stalls)",
                stalls.join(", "),
                self.cfg.deadlock_cycles
            ));
        }
        NetError::Deadlock {
            cycle: self.now,
            stalled_cycles: self.now - self.last_progress,
            flits_in_network: self.flits_in_network,
            dump: lines.join("\n"),
        }
    }
    /// A cycle of switch input buffers in which each one's queued packet waits for the next
    /// (the next is the buffer behind the output it is queued for, when that output lacks
    /// credits, or the input whose packet holds that output), if there is one: the lanes
    /// of a deadlock. Inputs in the order of the waits.
    pub(crate) fn wait_cycle(&self) -> Option<Vec<PortId>> {
        self.wait_cycle_among(None)
    }

    /// `wait_cycle` through the inputs `among[g]` only (all without it).
    fn wait_cycle_among(&self, among: Option<&[bool]>) -> Option<Vec<PortId>> {
        if self.sw.model == 2 {
            return None; // CIOQ: the waits through output queues are not modelled here
        }
        let ports = self.sw.inp.len();
        // the inputs each input waits for
        let mut waits: Vec<Vec<PortId>> = vec![Vec::new(); ports];
        if let Some(rt) = self.sw.router {
            self.lane_waits(&rt, &mut waits);
        } else {
            self.port_waits(&mut waits);
        }
        if let Some(among) = among {
            for (g, w) in waits.iter_mut().enumerate() {
                if among[g] {
                    w.retain(|x| among[x.index()]);
                } else {
                    w.clear();
                }
            }
        }
        // depth-first search for a back edge: 0 new, 1 on the stack, 2 done
        let mut mark = vec![0u8; ports];
        let mut stack: Vec<(PortId, usize)> = Vec::new();
        for start in 0..ports {
            if mark[start] != 0 || waits[start].is_empty() {
                continue;
            }
            stack.push((PortId(start as u32), 0));
            mark[start] = 1;
            while let Some(&mut (g, ref mut i)) = stack.last_mut() {
                match waits[g.index()].get(*i) {
                    Some(&next) => {
                        *i += 1;
                        match mark[next.index()] {
                            0 => {
                                mark[next.index()] = 1;
                                stack.push((next, 0));
                            }
                            1 => {
                                let from = stack.iter().position(|&(x, _)| x == next)?;
                                return Some(stack[from..].iter().map(|&(x, _)| x).collect());
                            }
                            _ => {}
                        }
                    }
                    None => {
                        mark[g.index()] = 2;
                        stack.pop();
                    }
                }
            }
        }
        None
    }

    /// The per-lane stall watchdog (lane router, every `STALL_LOOK_EVERY` cycles): the
    /// input lanes that hold flits of which none has left for `deadlock_cycles` cycles (no
    /// flit sent and no head arrived into an empty queue since), as an error naming the
    /// cycle of waits among them if there is one, and the lanes. None if every lane moves.
    #[cold]
    #[inline(never)]
    pub(crate) fn lanes_stalled(&self) -> Option<NetError> {
        let limit = self.cfg.deadlock_cycles;
        let stuck: Vec<bool> = (0..self.sw.inp.len())
            .map(|g| {
                let ip = &self.sw.inp[PortId(g as u32)];
                ip.occ > 0 && self.now - ip.moved_at >= limit
            })
            .collect();
        let lanes: Vec<PortId> = (0..stuck.len())
            .filter(|&g| stuck[g])
            .map(|g| PortId(g as u32))
            .collect();
        if lanes.is_empty() {
            return None;
        }
        let mut lines = Vec::new();
        match self.wait_cycle_among(Some(&stuck)) {
            Some(cycle) => {
                let names: Vec<String> = cycle
                    .iter()
                    .map(|&g| self.in_port_name(Endpoint::port(g)))
                    .collect();
                lines.push(format!(
                    "  a cycle of {} lanes, each waiting for the next (for space in it, or for the output its packet holds): {} -> (the first)",
                    names.len(),
                    names.join(" -> ")
                ));
            }
            None => lines.push(
                "  no cycle of waits among them: they wait for something that does not move (a NIC that does not drain, or a lane outside the set)".to_string(),
            ),
        }
        let mut flits = 0u64;
        for &g in &lanes {
            let occ = self.sw.inp[g].occ;
            flits += occ as u64;
            if lines.len() < DUMP_LINES {
                lines.push(format!(
                    "  {}: holds {occ} flits, none left since cycle {}",
                    self.in_port_name(Endpoint::port(g)),
                    self.sw.inp[g].moved_at
                ));
            }
        }
        if lanes.len() + 1 > DUMP_LINES {
            lines.push(format!("  ... and {} more", lanes.len() + 1 - DUMP_LINES));
        }
        Some(NetError::LanesStalled {
            cycle: self.now,
            lanes: lanes.len(),
            flits,
            limit,
            dump: lines.join("\n"),
        })
    }

    /// `wait_cycle`'s waits in today's switch: a queued head waits for the input holding its
    /// output, or for the buffer behind an output that lacks room for it.
    fn port_waits(&self, waits: &mut [Vec<PortId>]) {
        let qpp = self.sw.qpp as usize;
        for st in self.sw.sw.iter() {
            for p in 0..st.radix {
                let gp = st.port(p);
                if self.sw.inp[gp].occ == 0 {
                    continue;
                }
                for k in 0..qpp {
                    let e = self.sw.q[gp.index() * qpp + k].0;
                    if e == EntryId::NONE {
                        continue;
                    }
                    let op = &self.sw.out[st.port(self.entries[e].out as u32)];
                    if op.entry != EntryId::NONE && op.entry != e {
                        let holder = self.entries[op.entry].port;
                        if let End::Port(h) = holder.end() {
                            waits[gp.index()].push(h);
                        }
                    } else if op.limit - op.used < self.entries[e].len as u32 {
                        // cut-through: it starts when the whole packet fits
                        if let End::Port(next) = op.rx.end() {
                            waits[gp.index()].push(next);
                        }
                    }
                }
            }
        }
    }

    /// `wait_cycle`'s waits in the lane router: a lane whose packet holds an output lane
    /// without credits waits for the lane behind it; a head without an output lane waits
    /// for every candidate lane that is not free (for its holder's input lane, or for the
    /// lane behind it while that drains).
    fn lane_waits(&self, rt: &super::lanes::Router, waits: &mut [Vec<PortId>]) {
        let mut cand = Vec::new();
        for (si, st) in self.sw.sw.iter().enumerate() {
            for o in 0..st.radix {
                let op = &self.sw.out[st.port(o)];
                if op.entry != EntryId::NONE && op.used >= op.limit {
                    if let End::Port(next) = op.rx.end() {
                        waits[op.from.index()].push(next);
                    }
                }
            }
            for i in 0..st.radix {
                let g = st.port(i);
                let e = self.sw.q[g.index()].0;
                if e == EntryId::NONE || st.locked_in >> i & 1 != 0 {
                    continue;
                }
                let en = &self.entries[e];
                let pk = self.packets[en.pkt];
                let tie = self.tie_minus(&pk);
                let (crt, base) = rt.class(pk.flags & super::store::CONTROL != 0);
                if let Some(df) = crt.df {
                    // the hop from the packet's route state; a head whose source router has
                    // not chosen yet waits for its minimal hop
                    let (p, c) =
                        super::dragonfly_route::hop(&df, crt.routing, si as u32, pk.dst, pk.route);
                    cand.clear();
                    cand.push((p, c, c + 1, false));
                } else if crt.routing == super::lanes::Routing::Shortest {
                    let nic = matches!(
                        self.topo.switches()[si].ports[en.out as usize],
                        super::topology::Peer::Nic(_)
                    );
                    cand.clear();
                    cand.push(super::lanes::shortest_hop(en.out as u32, pk.route, nic));
                } else if crt.routing == super::lanes::Routing::ShortestUpdown {
                    let v = rt.vcs;
                    let escaped = st.on_escape(i, v, base);
                    super::lanes::updown_candidates(
                        &self.topo,
                        si as u32,
                        en.out as u32,
                        super::types::NodeId(pk.dst),
                        escaped,
                        crt.vcs,
                        &mut cand,
                    );
                } else if crt.routing.rising() {
                    super::lanes::rising_candidates(
                        &self.topo,
                        si as u32,
                        en.out as u32,
                        super::types::NodeId(pk.dst),
                        pk.route,
                        crt.vcs,
                        crt.routing == super::lanes::Routing::ShortestAdaptive,
                        &mut cand,
                    );
                } else {
                    let v = rt.vcs;
                    let escaped = crt.one_escape && st.on_escape(i, v, base);
                    super::lanes::candidates(
                        &crt,
                        si as u32,
                        pk.dst,
                        en.out as u32,
                        tie,
                        escaped,
                        &mut cand,
                    );
                }
                for &(p, lo, hi, _) in &cand {
                    let b = if base == 0 || st.used_mask >> (p * rt.vcs + 1) & 1 == 0 {
                        0 // a NIC's port: lane 0 only
                    } else {
                        base
                    };
                    for c in lo..hi {
                        let op = &self.sw.out[st.port(p * rt.vcs + b + c)];
                        if op.entry != EntryId::NONE {
                            waits[g.index()].push(op.from);
                        } else if op.used > 0 {
                            if let End::Port(next) = op.rx.end() {
                                waits[g.index()].push(next);
                            }
                        }
                    }
                }
            }
        }
    }

    /// The class-stall error: class `c` has waited `stall_cycles` for a delivery. Names the
    /// class and says where its oldest message is (send queue, or the buffers holding its
    /// packets and what each waits for).
    #[cold]
    #[inline(never)]
    pub(crate) fn class_stalled(&self, c: ClassWatch, name: Option<&str>) -> NetError {
        let oldest = self
            .msgs
            .items
            .iter()
            .enumerate()
            .filter(|(_, m)| m.flits_total > 0 && m.msg.tag == c.tag && m.injected != NEVER)
            .min_by_key(|(_, m)| (m.msg.created, m.msg.id));
        let where_ = match oldest {
            None => "none found".to_string(),
            Some((slot, m)) => {
                let mut s = format!(
                    "message {} (NIC {} -> NIC {}, {} B, created in cycle {}), {} of {} flits delivered",
                    m.msg.id,
                    m.msg.src,
                    m.msg.dst,
                    m.msg.bytes,
                    m.msg.created,
                    m.flits_ejected,
                    m.flits_total
                );
                if m.bytes_left > 0 {
                    let _ = write!(
                        s,
                        "; {} B still in NIC {}'s send queue (used credits {}/{})",
                        m.bytes_left,
                        m.msg.src,
                        self.cc.used_credits(m.msg.src.0),
                        self.cfg.buffer_flits
                    );
                }
                let mut held = 0;
                for (id, e) in self.entries.iter() {
                    if !e.live || e.msg.index() != slot {
                        continue;
                    }
                    held += 1;
                    if held > 4 {
                        continue;
                    }
                    let (arrived, sent) = self.entry_flits(id);
                    let _ = write!(
                        s,
                        "; {} in {} ({arrived} of {} flits arrived, {sent} sent",
                        self.packet_name(e.pkt),
                        self.in_port_name(e.port),
                        e.len
                    );
                    if let End::Port(g) = e.port.end() {
                        let st = &self.sw.sw[self.sw.inp[g].sw];
                        let op = &self.sw.out[st.port(e.out as u32)];
                        let _ = write!(
                            s,
                            "; waits for output {}: {}, credits used {}/{}",
                            e.out,
                            if op.entry != EntryId::NONE {
                                "busy"
                            } else if st.reserved_out >> e.out & 1 != 0 {
                                "reserved"
                            } else {
                                "free"
                            },
                            op.used,
                            op.limit
                        );
                    }
                    s.push(')');
                }
                if held > 4 {
                    let _ = write!(s, "; and {} more of its packets", held - 4);
                }
                s
            }
        };
        NetError::Stalled {
            cycle: self.now,
            class: name.map_or_else(|| format!("tag {:#x}", c.tag), str::to_string),
            outstanding: c.started,
            stalled_cycles: self.now - c.since,
            limit: self.cfg.stall_cycles,
            oldest: where_,
        }
    }
}
