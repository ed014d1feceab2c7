//! Phase 2 on several threads (`[network] threads`, `pftsim --threads`, `net-bench
//! --threads`), with results equal to one thread's in every byte.
//!
//! How: the NICs and the switches are cut into chunks of consecutive components (NIC
//! chunks first, then switch chunks: the order one thread evaluates them in), and the
//! threads run the chunks (`pool.rs`: each its own share, then what is left). A switch
//! chunk first reads its own channels (phase 1 by owner, `Network::owner_p1`), then
//! evaluates its switches. A component touches its own records and a few shared things: it
//! sends flits and credits into the channels, takes and frees packet and message slots,
//! counts flits and messages, moves its traffic class's watch and delivers messages. Buffer
//! entries come from pools of their own (`store::Entries`), in finer chunks that do not
//! depend on the thread count (a chunk is whole pools: `build.rs`, `owners`), so their ids
//! are the same at any thread count. Under threads each shared effect goes into its chunk's log (a new
//! packet gets a provisional id, `PROVISIONAL + NIC`):
//! - flits and credits go into the sending chunk's outbox for the receiving owner, whose
//!   chunk takes them into its channels at the start of its next cycle's run, outbox after
//!   outbox in sending-chunk order;
//! - the rest is applied once every chunk is done, in chunk order, each log in the order
//!   it was written.
//!
//! That is the order one thread would have done them in, so the channels, the slabs' free
//! lists, the ids and every later cycle are the same, whoever ran which chunk. The
//! allocators' scratch is per thread (`slot`).
//!
//! What stays on one thread (`Network::parallel_blocker` names it; `pftsim check` says
//! it): everything under schemes that mark at switches, Disha (one token for the whole
//! network), the test hook's faults and a set evaluation order; and the NICs alone (the
//! switches still spread) under schemes whose NIC state is not per NIC
//! (`Scheme::nic_parallel`), per-packet ACKs and run-time faults.

use super::error::NetError;
use super::network::Network;
use super::plain::{threaded, GENERAL, PLAIN_PAR};
use super::pool::{log, slot, ChunkLog, ClassOp, Ctl, Outbox, Par, PktOp};
use super::scheme::Scheme;
use super::store::{CreditEv, Endpoint, EntryId, FlitEv, MsgId, Packet, PktId};
use super::types::{Message, Workload};
use std::sync::atomic::Ordering;

/// NICs per entry pool at least, so per chunk too. (A NIC chunk is whole words of the
/// NICs' visit bits, `Nics::awake`: a chunk writes only its own words.) The pools of a
/// network: `build.rs`, `chunking`; its chunks (`Network::nic_chunk`, `Network::sw_chunk`),
/// whole pools: `build.rs`, `owners`.
pub(crate) const CHUNK_NICS: u32 = 64;
/// Provisional packet ids under threads: `PROVISIONAL + NIC` (a NIC starts at most one
/// packet a cycle); replaced by the slab's id when the logs are applied.
const PROVISIONAL: u32 = 0x8000_0000;

/// The real id of packet `p` (provisional or not), given the last provisional ones.
#[inline]
fn real(p: PktId, prov: &[PktId]) -> PktId {
    if p.0 >= PROVISIONAL && p != PktId::NONE {
        prov[(p.0 - PROVISIONAL) as usize]
    } else {
        p
    }
}

/// Evaluate chunk `c` of the cycle's `Network<S>`, on whichever thread claimed it.
fn run_chunk<S: Scheme>(ctl: &Ctl, c: u32) {
    // SAFETY: `net` is the network whose `evaluate_parallel` is running: it stays in place
    // until every chunk is done. A component in phase 2 writes only its own records (a
    // NIC's state, queues, scheme state and the messages it sends or receives; a switch's
    // ports, lanes, queue entries and the packets it holds), its chunk's entry pools and
    // channels, its thread's scratch slot and its chunk's log, and reads nothing another
    // component writes in phase 2 (the module docs; `parallel_blocker` and `nic_parallel`
    // keep out what would break that).
    let net = unsafe { &mut *(ctl.net.load(Ordering::Relaxed) as *mut Network<S>) };
    let nc = net.par_nic_chunks;
    let first = nc.max(1);
    let owners = match c {
        0 if nc == 0 => 0..net.nic_owners,
        c if c < first => c..c + 1,
        c => net.nic_owners + c - first..net.nic_owners + c - first + 1,
    };
    let prov = ctl.prov.load(Ordering::Relaxed) as *const PktId;
    // SAFETY: `prov` is `Par::prov`, one id per NIC, not written while chunks run.
    let prov = unsafe { std::slice::from_raw_parts(prov, net.nodes as usize) };
    let prev = ctl.prev.load(Ordering::Relaxed) as *const ChunkLog;
    // This chunk's outboxes of two cycles ago, which their receivers took in last cycle:
    // the sender empties them, so that a receiver only ever reads another chunk's log.
    let own = log();
    for &k in &own.targets {
        own.fbox[k as usize].clear();
        own.cbox[k as usize].clear();
    }
    for o in owners {
        // what was sent to it last cycle, its inputs (phase 1 by owner), its components
        for &s in &ctl.senders[o as usize] {
            // SAFETY: the last cycle's logs are not written while chunks run (each chunk
            // writes this cycle's log, and empties its own outboxes there), so shared
            // references into them are sound on every thread at once.
            let l = unsafe { &*prev.add(s as usize) };
            let nics = s < first;
            net.take_outbox(o, &l.fbox[o as usize], &l.cbox[o as usize], nics, prov);
        }
        // its inputs, then its NICs or its switches holding a flit (as on one thread)
        let r = if o < net.nic_owners {
            net.eval_nic_chunks::<PLAIN_PAR>(o, o + 1, net.par_plain)
        } else {
            net.eval_switch_chunk::<PLAIN_PAR>(o - net.nic_owners, net.par_plain)
        };
        if let Err(e) = r {
            log().err = Some(e);
            return;
        }
    }
}

impl<S: Scheme> Network<S> {
    /// Why this network runs phase 2 on one thread whatever `threads` says, if it does.
    pub(crate) fn parallel_blocker(&self) -> Option<&'static str> {
        if self.order.is_some() {
            Some("a set evaluation order")
        } else if self.seams.marks {
            Some("the scheme marks at switches")
        } else if self.disha.is_some() {
            Some("Disha's token is shared by every switch")
        } else if self.faults.test.is_some() {
            Some("a test fault")
        } else {
            None
        }
    }

    /// Why the NICs stay on the calling thread (in order, as one chunk, while the helpers
    /// take switches), if they do.
    pub(crate) fn nics_blocker(&self) -> Option<&'static str> {
        if !self.cc.nic_parallel() {
            Some("this scheme (or the engine it runs its NIC logic in) does not declare its NIC state per NIC (`Scheme::nic_parallel`)")
        } else if self.acks.is_some() {
            Some("per-packet ACKs")
        } else if !self.faults.specs.is_empty() {
            Some("run-time faults")
        } else {
            None
        }
    }

    fn nics_parallel(&self) -> bool {
        self.nics_blocker().is_none()
    }

    /// Phase 2 under threads: every chunk on every thread, then the logs in chunk order.
    pub(crate) fn evaluate_parallel(
        &mut self,
        workload: &mut dyn Workload,
    ) -> Result<(), Box<NetError>> {
        // (what keeps a network off threads keeps it off phase 1 by owner too)
        debug_assert!(self.owner_p1);
        let mut par = match self.par.take() {
            Some(p) => p,
            None => {
                let t = self.cfg.threads;
                self.sw.reqs.resize(64 * t as usize, 0);
                self.sw.waits.resize(64 * t as usize, 0);
                self.sw.cands.resize(t as usize, Vec::new());
                let nc = if self.nics_parallel() {
                    self.nic_owners
                } else {
                    0
                };
                self.par_nic_chunks = nc;
                let chunks = nc.max(1) + self.sw_chunks;
                let out = self.outboxes(nc, chunks);
                let owners = self.nic_owners + self.sw_chunks;
                let shares = self.shares(nc, t as usize);
                let pinned = nc == 0;
                Box::new(Par::new(
                    self.nodes,
                    shares,
                    pinned,
                    &out,
                    owners,
                    run_chunk::<S>,
                ))
            }
        };
        // `mark_or` must not grow the message marks while NICs on other threads read them.
        self.msgs.presize_marks();
        self.par_plain = self.plain();
        self.par_on = true;
        // an open-loop workload's next tick on the calling thread while the chunks run
        // (the other threads take its chunks meanwhile); not past the end of `run`
        let next = self.now + 1;
        let ahead = next < self.run_end && workload.open_loop();
        let mut msgs = std::mem::take(&mut self.ahead);
        msgs.clear();
        let mut tick = || workload.tick(next, &mut msgs);
        let extra: Option<&mut dyn FnMut()> = if ahead { Some(&mut tick) } else { None };
        let ran = par.run(self as *mut Self as usize, run_chunk::<S>, extra);
        self.ahead = msgs;
        if ahead {
            self.ahead_at = next;
            // a panic of the tick waits for the next cycle's step, where one thread ticks
            self.ahead_panic = ran.extra.err();
        }
        self.par_on = false;
        let r = self.apply_logs(&mut par);
        par.parity ^= 1;
        self.par = Some(par);
        if let Some((c, p)) = ran.panicked {
            // one thread stops at the first error or panic in chunk order
            if r.as_ref().err().is_none_or(|(e, _)| *e > c) {
                std::panic::resume_unwind(p);
            }
        }
        r.map_err(|(_, e)| e)
    }

    /// The threads' shares of the chunks: thread k takes the k-th of `t` runs of the NIC
    /// chunks, then the k-th run of the switch chunks. Which thread runs a chunk changes no
    /// result. (Measured on ib648 at two threads, 2026-11-30: this split 0.85-0.86 s; the
    /// switch chunks dealt round robin 0.89-0.92 s; a greedy pass that put linked switch
    /// chunks together and each NIC chunk with its NICs' switches 0.96-1.00 s; every NIC
    /// chunk on the calling thread 0.84-0.86 s.)
    fn shares(&self, nc: u32, t: usize) -> Vec<Vec<u32>> {
        let chunks = nc.max(1) + self.sw_chunks;
        let part = |k: usize, lo: u32, n: u32| {
            let (a, b) = (n as usize * k / t, n as usize * (k + 1) / t);
            (lo + a as u32)..(lo + b as u32)
        };
        (0..t)
            .map(|k| {
                // (NICs that stay on one thread are chunk 0, which the calling thread
                // runs first, outside the shares: `Par::run`)
                let nics = match nc {
                    0 => 0..0,
                    _ => part(k, 0, nc),
                };
                let first = nc.max(1);
                nics.chain(part(k, first, chunks - first)).collect()
            })
            .collect()
    }

    /// Per chunk, the owners (`Network::owner_of`) it may send flits or credits to over
    /// its links, ascending.
    fn outboxes(&self, nc: u32, chunks: u32) -> Vec<Vec<u32>> {
        let chunk_of = |e: Endpoint| {
            let o = self.owner_of(e);
            match o.checked_sub(self.nic_owners) {
                None if nc == 0 => 0,
                None => o,
                Some(k) => nc.max(1) + k,
            }
        };
        let mut to = vec![Vec::new(); chunks as usize];
        for l in self.links.iter() {
            to[chunk_of(l.tx) as usize].push(self.owner_of(l.rx));
            to[chunk_of(l.rx) as usize].push(self.owner_of(l.tx));
        }
        for t in &mut to {
            t.sort_unstable();
            t.dedup();
        }
        to
    }

    /// Take one outbox sent to owner `o` into its channels, a run at a time; from a chunk
    /// of NICs (`nics`), the flits' provisional packet ids replaced by the real ones. (The
    /// outbox stays as it is: its sender empties it before it writes it again.)
    #[inline]
    fn take_outbox(
        &mut self,
        o: u32,
        fb: &Outbox<FlitEv>,
        cb: &Outbox<CreditEv>,
        nics: bool,
        prov: &[PktId],
    ) {
        for (t, evs) in fb.runs() {
            let evs = self.fwheel.append_to(t, o as usize, evs);
            if nics {
                // only a NIC takes packet slots: a switch chunk's flits carry real ids
                for ev in evs {
                    ev.pkt = real(ev.pkt, prov);
                }
            }
        }
        for (t, evs) in cb.runs() {
            self.cwheel.append_to(t, o as usize, evs);
        }
    }

    /// Back to one thread after cycles under threads (a set evaluation order): what waits
    /// in the outboxes goes into the channels, as the receiving chunks would have taken it,
    /// and the helpers stop.
    pub(crate) fn leave_parallel(&mut self) {
        let Some(mut par) = self.par.take() else {
            return;
        };
        let last = 1 - par.parity;
        let logs = std::mem::take(&mut par.logs[last]);
        let first = self.par_nic_chunks.max(1);
        for o in 0..self.nic_owners + self.sw_chunks {
            for (s, l) in logs.iter().enumerate() {
                let nics = (s as u32) < first;
                self.take_outbox(o, &l.fbox[o as usize], &l.cbox[o as usize], nics, &par.prov);
            }
        }
    }

    /// Flits and credits sent under threads and not yet taken in by their chunk; an error
    /// names a chunk that sent to an owner outside its outboxes (no chunk takes those in).
    pub(crate) fn in_outboxes(&self) -> Result<(Vec<FlitEv>, Vec<CreditEv>), String> {
        let mut f = Vec::new();
        let mut c = Vec::new();
        if let Some(par) = &self.par {
            for logs in &par.logs {
                for (s, l) in logs.iter().enumerate() {
                    let stray = (0..l.fbox.len() as u32).find(|o| {
                        let sent = !l.fbox[*o as usize].events().is_empty()
                            || !l.cbox[*o as usize].events().is_empty();
                        sent && !l.targets.contains(o)
                    });
                    if let Some(o) = stray {
                        return Err(format!(
                            "chunk {s} sent to owner {o}, not one of its outboxes"
                        ));
                    }
                }
            }
            // the last cycle's outboxes (those of the cycle before were taken in: only
            // their senders empty them, in the next cycle)
            for l in &par.logs[1 - par.parity] {
                f.extend(l.fbox.iter().flat_map(|b| b.events()));
                c.extend(l.cbox.iter().flat_map(|b| b.events()));
            }
        }
        Ok((f, c))
    }

    /// Apply this cycle's logs in chunk order; the first chunk's error, if any, with the
    /// chunk.
    fn apply_logs(&mut self, par: &mut Par) -> Result<(), (u32, Box<NetError>)> {
        let now = self.now;
        let mut err = None;
        let p = par.parity;
        for (c, log) in par.logs[p].iter_mut().enumerate() {
            for op in log.pkts.drain(..) {
                match op {
                    PktOp::Free(p) => self.packets.free(p),
                    PktOp::Alloc(n, pk) => {
                        let id = self.packets.alloc(pk);
                        par.prov[n as usize] = id;
                        let ns = &mut self.nic.st[n as usize];
                        if ns.cur_pkt.0 == PROVISIONAL + n {
                            ns.cur_pkt = id;
                        }
                    }
                }
            }
            for m in log.msgs_freed.drain(..) {
                self.msgs.free(m);
            }
            for op in log.classes.drain(..) {
                match op {
                    ClassOp::Started(c) => self.class_started_now(c),
                    ClassOp::Moved(c, done) => self.class_moved_now(c, done),
                }
            }
            self.messages_pending -= log.deliveries.len() as u64;
            self.deliveries.append(&mut log.deliveries);
            for q in log.sq_removed.drain(..) {
                self.nic.sq.remove(&q);
            }
            self.flits_in_network = (self.flits_in_network as i64 + log.in_network) as u64;
            self.flits_delivered += log.delivered;
            (log.in_network, log.delivered) = (0, 0);
            for (h, x) in self.sw.hop_flits.iter_mut().zip(&mut log.hops) {
                *h += std::mem::take(x);
            }
            self.sw.detour_flits += std::mem::take(&mut log.detours);
            if std::mem::take(&mut log.progressed) {
                self.last_progress = now;
            }
            if err.is_none() {
                err = log.err.take().map(|e| (c as u32, e));
            }
            log.err = None;
        }
        err.map_or(Ok(()), Err)
    }

    /// Base of this thread's 64-entry slice of the allocators' scratch.
    #[inline]
    pub(crate) fn scratch_base(&self) -> usize {
        if self.par_on {
            slot() * 64
        } else {
            0
        }
    }

    /// The lane router's candidate scratch of this thread.
    #[inline]
    pub(crate) fn take_cand(&mut self) -> Vec<(u32, u32, u32, bool)> {
        if self.par_on {
            std::mem::take(&mut self.sw.cands[slot()])
        } else {
            std::mem::take(&mut self.sw.cand)
        }
    }

    #[inline]
    pub(crate) fn put_cand(&mut self, c: Vec<(u32, u32, u32, bool)>) {
        if self.par_on {
            self.sw.cands[slot()] = c;
        } else {
            self.sw.cand = c;
        }
    }

    /// This cycle's new messages into `buf` (empty): those the workload gave while the last
    /// cycle was evaluated, or its `tick` now.
    #[inline]
    pub(crate) fn new_messages(&mut self, now: u64, w: &mut dyn Workload, buf: &mut Vec<Message>) {
        if std::mem::replace(&mut self.ahead_at, u64::MAX) == now {
            if let Some(p) = self.ahead_panic.take() {
                // (a caller that catches it and steps on ticks this cycle again, as on one
                // thread)
                self.ahead.clear();
                std::panic::resume_unwind(p);
            }
            std::mem::swap(buf, &mut self.ahead);
        } else {
            // (messages ticked ahead for another cycle, after an error, are not this one's)
            self.ahead.clear();
            self.ahead_panic = None;
            w.tick(now, buf);
        }
    }

    /// A NIC or switch sends a flit into a channel, to owner `o` (`owner_of(ev.rx)`): the
    /// flit moved (the deadlock watchdog's progress).
    #[inline(always)]
    pub(crate) fn send_flit(&mut self, at: u64, o: u32, ev: FlitEv) {
        self.send_flit_counted(at, o, ev, 0);
    }

    /// `send_flit`, and flits in the network change by `d` (a NIC injects: 1), with one
    /// look-up of the chunk's log under threads.
    #[inline(always)]
    pub(crate) fn send_flit_counted(&mut self, at: u64, o: u32, ev: FlitEv, d: i64) {
        self.push_flit::<GENERAL>(at, o, ev, d);
    }

    /// `send_flit_counted` by copy `PLAIN` of the caller's cycle (`plain.rs`).
    #[inline(always)]
    pub(crate) fn push_flit<const PLAIN: u8>(&mut self, at: u64, o: u32, ev: FlitEv, d: i64) {
        if threaded::<PLAIN>(self.par_on) {
            let l = log();
            l.fbox[o as usize].push(at, ev);
            l.progressed = true;
            l.in_network += d;
        } else {
            self.fwheel.push_to(at, o as usize, ev);
            self.last_progress = self.now;
            self.flits_in_network = (self.flits_in_network as i64 + d) as u64;
        }
    }

    /// `push_flit` of a flit that stays in the network (a lane router's move), without the
    /// watchdog's progress (the router marks it once per visit, `moved_in`), the arrival
    /// cycle's wheel row given (`Wheel::row` of `at`: once for the visit's moves).
    #[inline(always)]
    pub(crate) fn push_flit_row<const PLAIN: u8>(
        &mut self,
        at: u64,
        row: usize,
        o: u32,
        ev: FlitEv,
    ) {
        if threaded::<PLAIN>(self.par_on) {
            log().fbox[o as usize].push(at, ev);
        } else {
            self.fwheel.push_row(row, o as usize, ev);
        }
    }

    /// `push_credit`, the arrival cycle's wheel row given (`Wheel::row` of `at`).
    #[inline(always)]
    pub(crate) fn push_credit_row<const PLAIN: u8>(
        &mut self,
        at: u64,
        row: usize,
        o: u32,
        ev: CreditEv,
    ) {
        if threaded::<PLAIN>(self.par_on) {
            log().cbox[o as usize].push(at, ev);
        } else {
            self.cwheel.push_row(row, o as usize, ev);
        }
    }

    /// A NIC or switch sends a credit back, to owner `o` (`owner_of(ev.tx)`).
    #[inline(always)]
    pub(crate) fn send_credit(&mut self, at: u64, o: u32, ev: CreditEv) {
        self.push_credit::<GENERAL>(at, o, ev);
    }

    /// `send_credit`; `PLAIN` as for `push_flit`.
    #[inline(always)]
    pub(crate) fn push_credit<const PLAIN: u8>(&mut self, at: u64, o: u32, ev: CreditEv) {
        if threaded::<PLAIN>(self.par_on) {
            let l = log();
            l.cbox[o as usize].push(at, ev);
        } else {
            self.cwheel.push_to(at, o as usize, ev);
        }
    }

    /// A NIC or switch frees the queue entry of a packet that left it (into its entry
    /// pool, which only the chunk this thread runs uses: no log).
    #[inline]
    pub(crate) fn free_entry(&mut self, e: EntryId) {
        self.entries.free(e);
    }

    /// A flit moved this cycle (the deadlock watchdog's progress).
    #[inline]
    pub(crate) fn moved(&mut self) {
        self.moved_in::<GENERAL>();
    }

    /// `moved` by copy `PLAIN` of the caller's cycle (`plain.rs`).
    #[inline(always)]
    pub(crate) fn moved_in<const PLAIN: u8>(&mut self) {
        if threaded::<PLAIN>(self.par_on) {
            log().progressed = true;
        } else {
            self.last_progress = self.now;
        }
    }

    /// A NIC (`n`) takes a packet slot; under threads the id is provisional.
    #[inline]
    pub(crate) fn alloc_packet(&mut self, n: u32, pk: Packet) -> PktId {
        if self.par_on {
            log().pkts.push(PktOp::Alloc(n, pk));
            PktId(PROVISIONAL + n)
        } else {
            self.packets.alloc(pk)
        }
    }

    /// A NIC frees a packet slot (the packet's tail was ejected).
    #[inline]
    pub(crate) fn free_packet(&mut self, p: PktId) {
        if self.par_on {
            log().pkts.push(PktOp::Free(p));
        } else {
            self.packets.free(p);
        }
    }

    /// A NIC frees a delivered message's slot.
    #[inline]
    pub(crate) fn free_msg(&mut self, m: MsgId) {
        if self.par_on {
            log().msgs_freed.push(m);
        } else {
            self.msgs.free(m);
        }
    }

    /// A NIC's send queue to one destination is empty: its entry goes.
    #[inline]
    pub(crate) fn sq_remove(&mut self, q: u64) {
        if self.par_on {
            log().sq_removed.push(q);
        } else {
            self.nic.sq.remove(&q);
        }
    }

    /// A NIC ejected a flit (a data flit, `data`, counts as delivered): it left the
    /// network and moved.
    #[inline]
    pub(crate) fn flit_ejected<const PLAIN: u8>(&mut self, data: bool) {
        if threaded::<PLAIN>(self.par_on) {
            let l = log();
            l.delivered += u64::from(data);
            l.in_network -= 1;
            l.progressed = true;
        } else {
            self.flits_delivered += u64::from(data);
            self.flits_in_network = self.flits_in_network.wrapping_sub(1);
            self.last_progress = self.now;
        }
    }

    /// A message of class `c` sent its first packet.
    #[inline]
    pub(crate) fn class_started(&mut self, c: u32) {
        if self.par_on {
            log().classes.push(ClassOp::Started(c));
        } else {
            self.class_started_now(c);
        }
    }

    /// A packet of class `c` was delivered, and with it its message if `done`.
    #[inline]
    pub(crate) fn class_moved(&mut self, c: u32, done: bool) {
        if self.par_on {
            log().classes.push(ClassOp::Moved(c, done));
        } else {
            self.class_moved_now(c, done);
        }
    }

    fn class_started_now(&mut self, c: u32) {
        let now = self.now;
        let c = &mut self.classes[c as usize];
        if c.started == 0 {
            c.since = now;
        }
        c.started += 1;
    }

    fn class_moved_now(&mut self, c: u32, done: bool) {
        let now = self.now;
        let c = &mut self.classes[c as usize];
        c.longest = c.longest.max(now - c.since);
        c.since = now;
        if done {
            c.started -= 1;
        }
    }
}
