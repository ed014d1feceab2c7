//! The helper threads of phase 2 (`parallel.rs`) and the chunks' logs.
//!
//! Each thread has a share of the chunks, the same every cycle (a contiguous run of NIC
//! chunks and one of switch chunks), so that a chunk's records stay in one core's cache
//! from cycle to cycle; a thread done with its share takes chunks left in the others'
//! (a late or descheduled helper does not hold the cycle up). Which thread runs a chunk
//! never changes a result (`parallel.rs`).
//!
//! Waiting spins (a cycle of the 648-NIC fat tree is tens of microseconds, and a sleep and
//! wake-up costs as much), then yields, then sleeps, so that helpers cost little while the
//! run is between steps.

use super::error::NetError;
use super::store::{CreditEv, FlitEv, MsgId, Packet, PktId};
use super::types::Delivery;
use std::cell::Cell;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// Spins of a waiting thread before it yields, then yields before it sleeps.
const SPINS: u32 = 1 << 11;
const YIELDS: u32 = 1 << 14;
/// The epoch that tells helpers to stop.
const STOP: u64 = u64::MAX;

/// A packet slab operation of a NIC chunk, in the order the chunk did them.
pub(crate) enum PktOp {
    Free(PktId),
    Alloc(u32, Packet),
}

/// A traffic class's watch moved: a message started, or a packet of it was delivered
/// (and with it the message, or not).
#[derive(Clone, Copy)]
pub(crate) enum ClassOp {
    Started(u32),
    Moved(u32, bool),
}

/// What one chunk sends one owner in a cycle, in the order sent: the events, and the runs
/// of them that arrive in the same cycle (each run: its arrival cycle and its first event).
/// The receiver copies a run into its channels whole; an outbox's links mostly share one
/// latency, so most outboxes are one run. (Events tagged one by one with their cycle cost
/// the receiver a scan and a copy per event, and two to four times the bytes across
/// cores: measured, `docs/performance.md`, "Threads".)
#[derive(Clone, Debug)]
pub(crate) struct Outbox<T> {
    evs: Vec<T>,
    runs: Vec<(u64, u32)>,
    /// The arrival cycle of the last run (`u64::MAX` with no run): `runs.last()`'s, kept
    /// apart so that a send reads one field.
    last: u64,
}

impl<T> Default for Outbox<T> {
    fn default() -> Self {
        Outbox {
            evs: Vec::new(),
            runs: Vec::new(),
            last: u64::MAX,
        }
    }
}

impl<T: Copy> Outbox<T> {
    /// `ev` arrives at the owner in cycle `at`.
    #[inline(always)]
    pub fn push(&mut self, at: u64, ev: T) {
        debug_assert!(at != u64::MAX, "an arrival cycle");
        if at != self.last {
            self.last = at;
            self.runs.push((at, self.evs.len() as u32));
        }
        self.evs.push(ev);
    }

    /// The runs in the order sent: each its arrival cycle and its events.
    pub fn runs(&self) -> impl Iterator<Item = (u64, &[T])> {
        let ends = self.runs.iter().skip(1).map(|r| r.1 as usize);
        self.runs
            .iter()
            .zip(ends.chain(std::iter::once(self.evs.len())))
            .map(|(&(at, a), b)| (at, &self.evs[a as usize..b]))
    }

    /// Every event, in the order sent.
    pub fn events(&self) -> &[T] {
        &self.evs
    }

    pub fn clear(&mut self) {
        self.evs.clear();
        self.runs.clear();
        self.last = u64::MAX;
    }
}

/// One chunk's shared effects of one cycle. The flits and credits it sends wait in its
/// outboxes, one per receiving owner, until the owner's chunk takes them in the next
/// cycle; the rest is applied after phase 2 in chunk order.
#[derive(Default)]
pub(crate) struct ChunkLog {
    /// An outbox for every owner o (`Network::owner_of`), `fbox[o]` and `cbox[o]`, indexed
    /// by the owner so that a send looks up nothing else; the chunk sends to `targets`
    /// only, and the others stay empty.
    pub targets: Vec<u32>,
    pub fbox: Vec<Outbox<FlitEv>>,
    pub cbox: Vec<Outbox<CreditEv>>,
    pub progressed: bool,
    pub pkts: Vec<PktOp>,
    pub msgs_freed: Vec<MsgId>,
    pub classes: Vec<ClassOp>,
    pub deliveries: Vec<Delivery>,
    pub sq_removed: Vec<u64>,
    pub in_network: i64,
    pub delivered: u64,
    /// The lane counters of `duato` and `disha` (`lane_stats.rs`): flits per lane, detours.
    pub hops: Vec<u64>,
    pub detours: u64,
    pub err: Option<Box<NetError>>,
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
    // SAFETY: `LOG` points into this cycle's logs at the chunk this thread claimed; no
    // other thread touches that log until the calling thread applies it after every
    // thread is done, and the logs are not resized while chunks run.
    unsafe { &mut *p }
}

/// A claim counter on a cache line of its own.
#[repr(align(128))]
#[derive(Default)]
struct Cursor(AtomicU64);

/// What the threads share.
pub(crate) struct Ctl {
    epoch: AtomicU64,
    /// `*mut Network<S>` of the cycle, as an address.
    pub net: AtomicUsize,
    /// This cycle's logs (`*mut ChunkLog`, one per chunk), the last cycle's (whose
    /// outboxes the switch chunks take in), and the last cycle's packet ids (`*const PktId`).
    logs: AtomicUsize,
    pub prev: AtomicUsize,
    pub prov: AtomicUsize,
    /// Per thread, its chunks, and how many of them are claimed, tagged with the epoch
    /// (high 32 bits): a thread late from an earlier cycle cannot claim in this one.
    shares: Vec<Vec<u32>>,
    cursors: Vec<Cursor>,
    /// Per owner, the chunks that may send it flits or credits, in chunk order.
    pub senders: Vec<Vec<u32>>,
    finished: AtomicUsize,
    /// The first chunk (in chunk order) that panicked this cycle, and its panic.
    panicked: Mutex<Option<Panicked>>,
}

/// A chunk's panic: the chunk and what it panicked with.
pub(crate) type Panicked = (u32, Box<dyn std::any::Any + Send>);

/// Keep chunk `c`'s panic `p` if no earlier chunk (in chunk order) panicked.
fn record_panic(ctl: &Ctl, c: u32, p: Box<dyn std::any::Any + Send>) {
    LOG.with(|l| l.set(std::ptr::null_mut()));
    let mut first = ctl.panicked.lock().unwrap_or_else(|e| e.into_inner());
    if first.as_ref().is_none_or(|(k, _)| c < *k) {
        *first = Some((c, p));
    }
}

/// What one cycle's `Par::run` ended with: the caller's own work (`extra`), and the first
/// chunk's panic, if any chunk panicked.
pub(crate) struct Ran {
    pub extra: std::thread::Result<()>,
    pub panicked: Option<Panicked>,
}

/// Evaluates chunk `c` of the cycle's network.
pub(crate) type RunChunk = fn(&Ctl, u32);

/// The helper threads of one network and the chunks' logs.
pub(crate) struct Par {
    ctl: Arc<Ctl>,
    helpers: Vec<JoinHandle<()>>,
    /// The logs of the last two cycles: `logs[parity]` is written this cycle.
    pub logs: [Vec<ChunkLog>; 2],
    pub parity: usize,
    /// Chunk 0 runs on the calling thread, first (`new`).
    pinned: bool,
    /// Real packet ids of the last cycle's provisional ones, by NIC.
    pub prov: Vec<PktId>,
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

/// The next unclaimed chunk of thread `j`'s share in epoch `e`, claimed.
fn claim(ctl: &Ctl, j: usize, e: u64) -> Option<u32> {
    let cur = &ctl.cursors[j].0;
    let share = &ctl.shares[j];
    let mut v = cur.load(Ordering::Acquire);
    loop {
        let i = (v & u32::MAX as u64) as usize;
        if v >> 32 != e & u32::MAX as u64 || i >= share.len() {
            return None;
        }
        match cur.compare_exchange_weak(v, v + 1, Ordering::AcqRel, Ordering::Acquire) {
            Ok(_) => return Some(share[i]),
            Err(x) => v = x,
        }
    }
}

/// Run thread `k`'s share of epoch `e`, then what is left of the others'; count them
/// done at the end (one write of the shared count per thread and cycle).
fn take_chunks(ctl: &Ctl, k: usize, e: u64, run: RunChunk) {
    let t = ctl.shares.len();
    let mut done = 0;
    for j in (0..t).map(|d| (k + d) % t) {
        while let Some(c) = claim(ctl, j, e) {
            if let Err(p) = std::panic::catch_unwind(|| run_one(ctl, c, run)) {
                record_panic(ctl, c, p);
            }
            done += 1;
        }
    }
    ctl.finished.fetch_add(done, Ordering::AcqRel);
}

/// Evaluate chunk `c` (claimed) with its log as this thread's.
fn run_one(ctl: &Ctl, c: u32, run: RunChunk) {
    let logs = ctl.logs.load(Ordering::Relaxed) as *mut ChunkLog;
    // SAFETY: chunk `c` is claimed by one thread alone (its cursor hands each out once an
    // epoch), and `logs` has an entry for every chunk, alive until the cycle ends.
    LOG.with(|l| l.set(unsafe { logs.add(c as usize) }));
    run(ctl, c);
    LOG.with(|l| l.set(std::ptr::null_mut()));
}

impl Par {
    /// Start a helper for each share but the first (the calling thread's). `shares[k]`:
    /// thread k's chunks; `pinned`: chunk 0 is in no share, the calling thread runs it
    /// first every cycle (NICs that must stay on one thread); `outboxes[c]`: the owners
    /// (of `owners`) chunk c sends to.
    pub fn new(
        nodes: u32,
        shares: Vec<Vec<u32>>,
        pinned: bool,
        outboxes: &[Vec<u32>],
        owners: u32,
        run: RunChunk,
    ) -> Par {
        let t = shares.len();
        // per owner, the chunks that send to it
        let mut senders = vec![Vec::new(); owners as usize];
        let log_of = |to: &Vec<u32>| ChunkLog {
            targets: to.clone(),
            fbox: vec![Outbox::default(); owners as usize],
            cbox: vec![Outbox::default(); owners as usize],
            ..Default::default()
        };
        for (s, to) in outboxes.iter().enumerate() {
            for &k in to {
                senders[k as usize].push(s as u32);
            }
        }
        let logs: Vec<ChunkLog> = outboxes.iter().map(log_of).collect();
        let logs2 = outboxes.iter().map(log_of).collect();
        let ctl = Arc::new(Ctl {
            epoch: AtomicU64::new(0),
            net: AtomicUsize::new(0),
            logs: AtomicUsize::new(0),
            prev: AtomicUsize::new(0),
            prov: AtomicUsize::new(0),
            shares,
            cursors: (0..t).map(|_| Cursor::default()).collect(),
            senders,
            finished: AtomicUsize::new(0),
            panicked: Mutex::new(None),
        });
        // More threads than cores: a waiting thread yields at once, or it would spin
        // against the very thread it waits for.
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let spins = if t <= cores { SPINS } else { 0 };
        let helpers = (1..t)
            .map(|k| {
                let ctl = Arc::clone(&ctl);
                std::thread::spawn(move || {
                    SLOT.with(|s| s.set(k));
                    let mut seen = 0;
                    loop {
                        seen = wait_change(&ctl.epoch, seen, spins);
                        if seen == STOP {
                            return;
                        }
                        take_chunks(&ctl, k, seen, run);
                    }
                })
            })
            .collect();
        Par {
            ctl,
            helpers,
            logs: [logs, logs2],
            parity: 0,
            pinned,
            prov: vec![PktId::NONE; nodes as usize],
            spins,
        }
    }

    /// One cycle's phase 2 of the network at `net`: every chunk, on every thread, writing
    /// `logs[parity]`. A panic of `extra`, and the first chunk's panic (a bug: the network
    /// is not usable after it), are returned once every chunk is done, for the caller to
    /// finish its cycle first and to tell whether one thread would have met an error of an
    /// earlier chunk first.
    pub fn run(&mut self, net: usize, run: RunChunk, extra: Option<&mut dyn FnMut()>) -> Ran {
        let p = self.parity;
        let c = &self.ctl;
        let chunks = self.logs[p].len();
        c.net.store(net, Ordering::Relaxed);
        c.logs
            .store(self.logs[p].as_mut_ptr() as usize, Ordering::Relaxed);
        c.prev
            .store(self.logs[1 - p].as_mut_ptr() as usize, Ordering::Relaxed);
        c.prov.store(self.prov.as_ptr() as usize, Ordering::Relaxed);
        c.finished.store(0, Ordering::Relaxed);
        let e = (c.epoch.load(Ordering::Relaxed) + 1) % STOP;
        for cur in &c.cursors {
            cur.0.store((e & u32::MAX as u64) << 32, Ordering::Relaxed);
        }
        // Release: a helper that sees the epoch sees the setup above and phase 1's writes.
        c.epoch.store(e, Ordering::Release);
        // the caller's own work first (the others meanwhile take its chunks); a panic in
        // it waits for the chunks, which use `net`
        let extra = extra.map(|f| std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)));
        if self.pinned {
            if let Err(p) = std::panic::catch_unwind(|| run_one(c, 0, run)) {
                record_panic(c, 0, p);
            }
            c.finished.fetch_add(1, Ordering::AcqRel);
        }
        take_chunks(c, 0, e, run);
        let mut n = 0u32;
        while c.finished.load(Ordering::Acquire) < chunks {
            n = n.saturating_add(1);
            if n < self.spins {
                std::hint::spin_loop();
            } else {
                std::thread::yield_now();
            }
        }
        let panicked = c.panicked.lock().unwrap_or_else(|e| e.into_inner()).take();
        Ran {
            extra: extra.unwrap_or(Ok(())),
            panicked,
        }
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

#[cfg(test)]
mod tests {
    use super::Outbox;

    /// An outbox gives its events back in the order sent, cut where the arrival cycle
    /// changes (a cycle that comes back starts a run of its own), and nothing once cleared.
    #[test]
    fn outbox_runs_keep_the_order_sent() {
        let mut b = Outbox::default();
        for (at, ev) in [(5, 1u32), (5, 2), (7, 3), (5, 4), (5, 5), (9, 6)] {
            b.push(at, ev);
        }
        let runs: Vec<(u64, Vec<u32>)> = b.runs().map(|(t, e)| (t, e.to_vec())).collect();
        assert_eq!(
            runs,
            vec![(5, vec![1, 2]), (7, vec![3]), (5, vec![4, 5]), (9, vec![6])]
        );
        assert_eq!(b.events(), &[1, 2, 3, 4, 5, 6]);
        b.clear();
        assert_eq!(b.runs().count(), 0);
        // the cycle of the last run before the clear starts a run of its own
        b.push(9, 7);
        assert_eq!(
            b.runs().map(|(t, e)| (t, e.to_vec())).collect::<Vec<_>>(),
            vec![(9, vec![7])]
        );
    }
}
