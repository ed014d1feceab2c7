//! Phase 2 on several threads (`[network] threads`, `pftsim --threads`, `net-bench
//! --threads`), with results equal to one thread's in every byte.
//!
//! How: the NICs and the switches are cut into chunks of consecutive components (NIC
//! chunks first, then switch chunks: the order one thread evaluates them in), and the
//! threads take chunks from a shared counter. A component in phase 2 touches its own
//! records and a few shared things: it sends flits and credits into the channels, takes and
//! frees slots of the packet, entry and message slabs, counts flits and messages, moves its
//! traffic class's watch and delivers messages. Under threads each of those goes into its
//! chunk's log (a new packet gets a provisional id, `PROVISIONAL + NIC`), and once every
//! chunk is done the logs are applied in chunk order, each in the order it was written.
//! That is the order one thread would have done them in, so the channels, the slabs' free
//! lists, the ids and every later cycle are the same, whoever ran which chunk. The
//! allocators' scratch is per thread (`slot`).
//!
//! What stays on one thread (`Network::parallel_blocker` names it; `pftsim check` says
//! it): everything under schemes that mark at switches, Disha (one token for the whole
//! network), the test hook's faults and a set evaluation order; and the NICs alone (the switches still spread) under schemes whose
//! NIC state is not per NIC (`Scheme::nic_parallel`), per-packet ACKs and run-time faults.
//!
//! Waiting spins (a cycle of the 648-NIC fat tree is tens of microseconds, and a sleep and
//! wake-up costs as much), then yields, then sleeps, so that helpers cost little while the
//! run is between steps. The calling thread never waits for a helper that has not woken
//! (it takes the chunks left itself), only for chunks being run: on a busy machine a late
//! helper finds nothing to do.

use super::error::NetError;
use super::network::{Clocked, Network, Switch};
use super::scheme::Scheme;
use super::store::{CreditEv, EntryId, FlitEv, MsgId, Packet, PktId, SwitchId};
use super::types::Delivery;
use std::cell::Cell;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;

/// NICs and switches per chunk: enough work per claim to hide the shared counter, small
/// enough that the threads end together.
/// (A NIC chunk is one word of the NICs' visit bits, `Nics::awake`: a chunk writes only
/// its own word.)
const CHUNK_NICS: u32 = 64;
const CHUNK_SWITCHES: u32 = 4;
/// Spins of a waiting thread before it yields, then yields before it sleeps.
const SPINS: u32 = 1 << 11;
const YIELDS: u32 = 1 << 14;
/// The epoch that tells helpers to stop.
const STOP: u64 = u64::MAX;
/// Provisional packet ids under threads: `PROVISIONAL + NIC` (a NIC starts at most one
/// packet a cycle); replaced by the slab's id when the logs are applied.
const PROVISIONAL: u32 = 0x8000_0000;

/// A packet slab operation of a NIC chunk, in the order the chunk did them.
enum PktOp {
    Free(PktId),
    Alloc(u32, Packet),
}

/// A traffic class's watch moved: a message started, or a packet of it was delivered
/// (and with it the message, or not).
#[derive(Clone, Copy)]
enum ClassOp {
    Started(u32),
    Moved(u32, bool),
}

/// One chunk's shared effects, applied after phase 2 in chunk order.
#[derive(Default)]
pub(crate) struct ChunkLog {
    flits: Vec<(u64, FlitEv)>,
    credits: Vec<(u64, CreditEv)>,
    freed: Vec<EntryId>,
    progressed: bool,
    pkts: Vec<PktOp>,
    msgs_freed: Vec<MsgId>,
    classes: Vec<ClassOp>,
    pub(crate) deliveries: Vec<Delivery>,
    sq_removed: Vec<u64>,
    in_network: i64,
    delivered: u64,
    /// The lane counters of `duato` and `disha` (`lane_stats.rs`): flits per lane, detours.
    pub(crate) hops: Vec<u64>,
    pub(crate) detours: u64,
    err: Option<Box<NetError>>,
}

thread_local! {
    /// This thread's scratch slot: 0 on the calling thread, k on helper k.
    static SLOT: Cell<usize> = const { Cell::new(0) };
    /// The log of the chunk this thread is evaluating (null outside phase 2 under threads).
    static LOG: Cell<*mut ChunkLog> = const { Cell::new(std::ptr::null_mut()) };
}

/// This thread's scratch slot.
#[inline]
pub(crate) fn slot() -> usize {
    SLOT.with(Cell::get)
}

/// The log of the chunk being evaluated on this thread. Only called under threads
/// (`Network::par_on`), while a chunk runs.
#[inline]
pub(crate) fn log<'a>() -> &'a mut ChunkLog {
    let p = LOG.with(Cell::get);
    assert!(!p.is_null(), "a shared effect outside a chunk");
    // SAFETY: `LOG` points into `Par::logs[c]` for the chunk `c` this thread claimed;
    // no other thread touches that log until the calling thread applies it after every
    // thread is done, and the logs are not resized while chunks run.
    unsafe { &mut *p }
}

/// What the threads share: the cycle's epoch, the job, the chunk counter.
struct Ctl {
    epoch: AtomicU64,
    /// `*mut Network<S>` of the cycle, as an address.
    net: AtomicUsize,
    /// `*mut ChunkLog`: the logs, one per chunk.
    logs: AtomicUsize,
    /// The next chunk to claim (stored with Release after the cycle's setup: a claim
    /// sees the network as phase 1 left it), and the chunks finished.
    next: AtomicUsize,
    finished: AtomicUsize,
    failed: AtomicBool,
}

/// Evaluates chunk `c` of the network at an address.
type RunChunk = fn(usize, u32);

/// The helper threads of one network and the chunks' logs.
pub(crate) struct Par {
    ctl: Arc<Ctl>,
    helpers: Vec<JoinHandle<()>>,
    logs: Vec<ChunkLog>,
    /// NIC chunks (0: the NICs are one chunk, run first by the calling thread).
    nic_chunks: u32,
    /// Real packet ids of this cycle's provisional ones, by NIC.
    prov: Vec<PktId>,
    /// Spins of a waiting thread before it yields.
    spins: u32,
}

/// Wait while `a` holds `v`; returns its new value.
fn wait_change(a: &AtomicU64, v: u64, spins: u32) -> u64 {
    let mut n = 0u32;
    loop {
        let x = a.load(Ordering::Acquire);
        if x != v {
            return x;
        }
        n = n.saturating_add(1);
        if n < spins {
            std::hint::spin_loop();
        } else if n < spins + YIELDS {
            std::thread::yield_now();
        } else {
            std::thread::sleep(std::time::Duration::from_micros(50));
        }
    }
}

/// Claim chunks until none is left; evaluate each with its log as this thread's. A helper
/// that wakes late finds none left and does nothing: the calling thread never waits for a
/// helper that has not started, only for chunks being run.
fn take_chunks(ctl: &Ctl, chunks: usize, run: RunChunk) {
    loop {
        let c = ctl.next.fetch_add(1, Ordering::AcqRel);
        if c >= chunks {
            break;
        }
        let ok = std::panic::catch_unwind(|| run_one(ctl, c, run));
        if ok.is_err() {
            LOG.with(|l| l.set(std::ptr::null_mut()));
            ctl.failed.store(true, Ordering::Release);
        }
        ctl.finished.fetch_add(1, Ordering::AcqRel);
    }
}

/// Evaluate chunk `c` (claimed) with its log as this thread's.
fn run_one(ctl: &Ctl, c: usize, run: RunChunk) {
    let net = ctl.net.load(Ordering::Relaxed);
    let logs = ctl.logs.load(Ordering::Relaxed) as *mut ChunkLog;
    // SAFETY: chunk `c` is claimed by one thread alone (the counter hands each out
    // once), and `logs` has an entry for every chunk, alive until the cycle ends.
    LOG.with(|l| l.set(unsafe { logs.add(c) }));
    run(net, c as u32);
    LOG.with(|l| l.set(std::ptr::null_mut()));
}

impl Par {
    /// Start `threads - 1` helpers for `chunks` chunks, the first `nic_chunks` of them NICs
    /// (`nic_chunks` = 0: the NICs are chunk 0, run by the calling thread).
    fn new(threads: u32, nodes: u32, nic_chunks: u32, chunks: u32, run: RunChunk) -> Par {
        let ctl = Arc::new(Ctl {
            epoch: AtomicU64::new(0),
            net: AtomicUsize::new(0),
            logs: AtomicUsize::new(0),
            next: AtomicUsize::new(0),
            finished: AtomicUsize::new(0),
            failed: AtomicBool::new(false),
        });
        // More threads than cores: a waiting thread yields at once, or it would spin
        // against the very thread it waits for.
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let spins = if threads as usize <= cores { SPINS } else { 0 };
        let helpers = (1..threads as usize)
            .map(|k| {
                let ctl = Arc::clone(&ctl);
                let chunks = chunks as usize;
                std::thread::spawn(move || {
                    SLOT.with(|s| s.set(k));
                    let mut seen = 0;
                    loop {
                        seen = wait_change(&ctl.epoch, seen, spins);
                        if seen == STOP {
                            return;
                        }
                        take_chunks(&ctl, chunks, run);
                    }
                })
            })
            .collect();
        Par {
            ctl,
            helpers,
            logs: (0..chunks).map(|_| ChunkLog::default()).collect(),
            nic_chunks,
            prov: vec![PktId::NONE; nodes as usize],
            spins,
        }
    }

    /// One cycle's phase 2 of the network at `net`: every chunk, on every thread.
    /// Panics if a chunk panicked (a bug: the network is not usable).
    fn run(&mut self, net: usize, run: RunChunk) {
        let c = &self.ctl;
        let chunks = self.logs.len();
        c.net.store(net, Ordering::Relaxed);
        c.logs
            .store(self.logs.as_mut_ptr() as usize, Ordering::Relaxed);
        c.finished.store(0, Ordering::Relaxed);
        // With the NICs as one chunk, this thread runs it; the helpers start on switches.
        let first = (self.nic_chunks == 0) as usize;
        // Release: a claim (AcqRel) sees the setup above and phase 1's writes.
        c.next.store(first, Ordering::Release);
        let e = c.epoch.load(Ordering::Relaxed);
        c.epoch.store((e + 1) % STOP, Ordering::Release);
        if first == 1 {
            if std::panic::catch_unwind(|| run_one(c, 0, run)).is_err() {
                LOG.with(|l| l.set(std::ptr::null_mut()));
                c.failed.store(true, Ordering::Release);
            }
            c.finished.fetch_add(1, Ordering::AcqRel);
        }
        take_chunks(c, chunks, run);
        let mut n = 0u32;
        while c.finished.load(Ordering::Acquire) < chunks {
            n = n.saturating_add(1);
            if n < self.spins {
                std::hint::spin_loop();
            } else {
                std::thread::yield_now();
            }
        }
        assert!(
            !c.failed.load(Ordering::Acquire),
            "a phase-2 chunk panicked"
        );
    }
}

impl Drop for Par {
    fn drop(&mut self) {
        self.ctl.epoch.store(STOP, Ordering::Release);
        for h in self.helpers.drain(..) {
            let _ = h.join();
        }
    }
}

/// Evaluate chunk `c` of the `Network<S>` at address `net`, on whichever thread claimed it.
fn run_chunk<S: Scheme>(net: usize, c: u32) {
    // SAFETY: `net` is the network whose `evaluate_parallel` is running: it stays in place
    // until every chunk is done. A component in phase 2 writes only its own records (a
    // NIC's state, queues, scheme state and the messages it sends or receives; a switch's
    // ports, lanes, queue entries and the packets it holds), its thread's scratch slot and
    // its chunk's log, and reads nothing another component writes in phase 2 (the module
    // docs; `parallel_blocker` and `nic_parallel` keep out what would break that).
    let net = unsafe { &mut *(net as *mut Network<S>) };
    let nc = net.par_nic_chunks;
    if c < nc.max(1) {
        let (lo, hi) = if nc == 0 {
            (0, net.nodes)
        } else {
            (c * CHUNK_NICS, ((c + 1) * CHUNK_NICS).min(net.nodes))
        };
        if let Err(e) = net.eval_nics(lo, hi) {
            log().err = Some(e);
        }
    } else {
        let lo = (c - nc.max(1)) * CHUNK_SWITCHES;
        let hi = (lo + CHUNK_SWITCHES).min(net.sw.sw.len() as u32);
        for s in lo..hi {
            Switch::evaluate(net, SwitchId(s)).expect("a switch's phase 2 does not fail");
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
    pub(crate) fn evaluate_parallel(&mut self) -> Result<(), Box<NetError>> {
        let mut par = match self.par.take() {
            Some(p) => p,
            None => {
                let t = self.cfg.threads;
                self.sw.reqs.resize(64 * t as usize, 0);
                self.sw.waits.resize(64 * t as usize, 0);
                self.sw.cands.resize(t as usize, Vec::new());
                let nc = if self.nics_parallel() {
                    self.nodes.div_ceil(CHUNK_NICS)
                } else {
                    0
                };
                self.par_nic_chunks = nc;
                let chunks = nc.max(1) + (self.sw.sw.len() as u32).div_ceil(CHUNK_SWITCHES);
                Box::new(Par::new(t, self.nodes, nc, chunks, run_chunk::<S>))
            }
        };
        // `mark_or` must not grow the message marks while NICs on other threads read them.
        self.msgs.presize_marks();
        self.par_on = true;
        par.run(self as *mut Self as usize, run_chunk::<S>);
        self.par_on = false;
        let r = self.apply_logs(&mut par);
        self.par = Some(par);
        r
    }

    /// Apply the chunks' logs in chunk order; the first chunk's error, if any.
    fn apply_logs(&mut self, par: &mut Par) -> Result<(), Box<NetError>> {
        let now = self.now;
        let mut err = None;
        for log in &mut par.logs {
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
            for (t, mut ev) in log.flits.drain(..) {
                if ev.pkt.0 >= PROVISIONAL && ev.pkt != PktId::NONE {
                    ev.pkt = par.prov[(ev.pkt.0 - PROVISIONAL) as usize];
                }
                self.fwheel.push(t, ev);
            }
            for (t, ev) in log.credits.drain(..) {
                self.cwheel.push(t, ev);
            }
            for e in log.freed.drain(..) {
                self.entries.free(e);
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
                err = log.err.take();
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

    /// A NIC or switch sends a flit into a channel.
    #[inline]
    pub(crate) fn send_flit(&mut self, at: u64, ev: FlitEv) {
        if self.par_on {
            log().flits.push((at, ev));
        } else {
            self.fwheel.push(at, ev);
        }
    }

    /// A NIC or switch sends a credit back.
    #[inline]
    pub(crate) fn send_credit(&mut self, at: u64, ev: CreditEv) {
        if self.par_on {
            log().credits.push((at, ev));
        } else {
            self.cwheel.push(at, ev);
        }
    }

    /// A NIC or switch frees the queue entry of a packet that left it.
    #[inline]
    pub(crate) fn free_entry(&mut self, e: EntryId) {
        if self.par_on {
            log().freed.push(e);
        } else {
            self.entries.free(e);
        }
    }

    /// A flit moved this cycle (the deadlock watchdog's progress).
    #[inline]
    pub(crate) fn moved(&mut self) {
        if self.par_on {
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

    /// Flits in the network change by `d`.
    #[inline]
    pub(crate) fn in_network(&mut self, d: i64) {
        if self.par_on {
            log().in_network += d;
        } else {
            self.flits_in_network = (self.flits_in_network as i64 + d) as u64;
        }
    }

    /// A data flit was delivered to a NIC.
    #[inline]
    pub(crate) fn flit_delivered(&mut self) {
        if self.par_on {
            log().delivered += 1;
        } else {
            self.flits_delivered += 1;
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
