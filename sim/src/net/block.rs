//! Blocks of cycles: `run` evaluates the NICs for up to `Network::block` cycles, then each
//! chunk of switches for those cycles in a row, so that a chunk's records stay in cache
//! across the block instead of being fetched again every cycle.
//!
//! Why the results cannot change: nothing a component sends arrives sooner than the
//! shortest latency of the network's channels (flits and credits alike), and a block is at
//! most that long. So in cycle t + j of a block starting at t every channel head a NIC or
//! a switch reads was sent before t, or by a component the block has already run through
//! t + j - 1 (the NICs, for the switches); and what a block sends arrives after it. The
//! NICs run cycle by cycle, each cycle whole (the workload's messages, the deliveries
//! reported); the switches share nothing but the deadlock watchdog's last progress (kept
//! as a maximum here) and their counters, which are sums. The order of evaluation within a
//! cycle does not matter (`EvalOrder`, `net_order`). No watchdog may look inside a block:
//! a block ends before the cycle the deadlock watchdog could first fire and before a
//! stall watchdog's look, and those cycles are stepped one at a time as before.
//!
//! Blocks run where phase 1 is by owner and the NICs keep their state per NIC
//! (`parallel_blocker`, `nics_blocker`), on one thread, without the checker, under a scheme
//! with no global or lane-state hook and no NIC flow control. docs/performance.md, "Scale".

use super::build::min_latency;
use super::config::NetConfig;
use super::error::NetError;
use super::network::{Network, STALL_LOOK_EVERY};
use super::plain::PLAIN_ONE;
use super::scheme::{Global, Scheme};
use super::types::Workload;

/// Longest block, cycles.
const MOST: u64 = 16;

/// Most bytes of switch records a chunk should hold when blocks run on a network whose
/// records outgrow the caches (a quarter of this machine's 1 MiB L2 a core).
const CHUNK_BYTES: usize = 1 << 18;

/// Switches per chunk (`Network::sw_chunk`) of `switches` switches holding `records`
/// bytes of records, whose pool chunk is `pool`, when blocks run: whole pool chunks, a
/// power of two, as many as keep a chunk's records under `CHUNK_BYTES` (at least one
/// pool). Measured on the 16,512-NIC dragonfly (2,000 cycles, one at a time): chunks of
/// 32, 64 and 128 routers 4.3-5.4 CPU-seconds, one chunk of all 2,064 8.6-10.2
/// (docs/performance.md, "Blocks of cycles").
pub(crate) fn switch_chunk(pool: u32, switches: u32, records: usize) -> u32 {
    if let Some(c) = FORCED_CHUNK.get() {
        return c.max(1).next_power_of_two().max(pool);
    }
    let per = records / switches.max(1) as usize;
    let mut c = pool;
    while c < switches && 2 * c as usize * per <= CHUNK_BYTES {
        c *= 2;
    }
    c
}

thread_local! {
    /// Switches per chunk forced on networks built on this thread (`force_switch_chunk`).
    static FORCED_CHUNK: std::cell::Cell<Option<u32>> = const { std::cell::Cell::new(None) };
}

/// Networks built from now on by this thread, where blocks run, cut their switches into
/// chunks of `per` (rounded up to whole pool chunks, a power of two) whatever their size,
/// or (`None`) as `switch_chunk` says. For tests: small networks then run several chunks
/// through each block, with flits crossing between chunks (`net_blocks`).
#[doc(hidden)]
pub fn force_switch_chunk(per: Option<u32>) {
    FORCED_CHUNK.set(per);
}

/// Whether this thread forces switch chunks (`force_switch_chunk`).
pub(crate) fn chunk_forced() -> bool {
    FORCED_CHUNK.get().is_some()
}

/// Most cycles a block of the network `cfg` describes may take: its shortest channel
/// latency (at most `MOST`), or 1 (no blocks) where the network or the scheme rules blocks
/// out whatever happens in the run (the rest is asked before each block,
/// `Network::block_len`).
pub(crate) fn block_cycles<S: Scheme>(cfg: &NetConfig, flows: bool) -> u64 {
    if cfg.threads > 1 || cfg.check || S::WANTS_GLOBAL || S::WANTS_LANES || flows {
        return 1;
    }
    (min_latency(cfg) as u64).clamp(1, MOST)
}

impl<S: Scheme> Network<S> {
    /// A cycle's start: the faults' windows, the scheme's global hook, phase 1 without
    /// `owner_p1`, and the workload's new messages taken in.
    pub(crate) fn begin_cycle(&mut self, workload: &mut dyn Workload) -> Result<(), NetError> {
        let now = self.now;
        self.deliveries.clear();
        if !self.faults.specs.is_empty() {
            self.apply_faults();
        }
        // The scheme's global hook, before any component.
        let g = Global {
            flits_in_network: self.flits_in_network,
            full_inputs: if S::WANTS_GLOBAL {
                self.full_switch_inputs()
            } else {
                0
            },
            flits_delivered: self.flits_delivered,
            messages_pending: self.messages_pending,
        };
        self.cc.cycle(now, &g);
        if S::WANTS_LANES {
            for (s, st) in self.sw.sw.items.iter().enumerate() {
                self.cc.lanes(s as u32, st.locked_out, st.used_mask);
            }
        }
        // Phase 1: read the channel heads of this cycle (by owner, `owner_p1`: none here,
        // each chunk's just before the chunk is evaluated in phase 2).
        self.read_inputs().map_err(|e| *e)?;
        let mut buf = std::mem::take(&mut self.msg_buf);
        self.new_messages(now, workload, &mut buf);
        for m in buf.drain(..) {
            if !self.accept(m)? {
                workload.refused(now, &m);
            }
        }
        self.msg_buf = buf;
        Ok(())
    }

    /// A cycle's end: its deliveries reported to the workload (sorted by message id).
    pub(crate) fn end_cycle(&mut self, workload: &mut dyn Workload) {
        self.deliveries.sort_unstable_by_key(|d| d.msg.id);
        for d in &self.deliveries {
            workload.delivered(self.now, d);
        }
    }

    /// `cycles` cycles, in blocks where they may be.
    pub(crate) fn run_blocks(&mut self, w: &mut dyn Workload, cycles: u64) -> Result<(), NetError> {
        let mut left = cycles;
        while left > 0 {
            let b = self.block_len(left);
            if b > 1 {
                self.step_block(w, b)?;
            } else {
                self.step(w)?;
            }
            left -= b.max(1);
        }
        Ok(())
    }

    /// Cycles run in blocks so far (for tests, which show that results do not depend on
    /// them: `run` against `step`).
    #[doc(hidden)]
    pub fn blocked_cycles(&self) -> u64 {
        self.blocked
    }

    /// The chunks of switches phase 1 and the blocks go through (`force_switch_chunk`).
    #[doc(hidden)]
    pub fn switch_chunks(&self) -> u32 {
        self.sw_chunks
    }

    /// Cycles the next block may take, at most `left`; 1: step one cycle.
    fn block_len(&self, left: u64) -> u64 {
        let t = self.now;
        let mut b = self.block.min(left);
        // (the checker, threads and the schemes' hooks are ruled out at build, `block_cycles`)
        if b < 2 || self.parallel_blocker().is_some() || self.nics_blocker().is_some() {
            return 1;
        }
        if self.cfg.deadlock_cycles > 0 {
            // (it fires at the end of cycle u once u - last_progress reaches its cycles, with
            // a flit in the network; in an empty one, a flit injected in the block is
            // progress from then)
            let since = match self.flits_in_network {
                0 => t,
                _ => self.last_progress,
            };
            b = b.min((since + self.cfg.deadlock_cycles).saturating_sub(t));
        }
        if (self.sw.vcs != 0 && self.cfg.deadlock_cycles > 0) || self.cfg.stall_cycles > 0 {
            b = b.min(t.next_multiple_of(STALL_LOOK_EVERY) - t);
        }
        b.max(1)
    }

    /// Cycles `now..now + b` (b at most the block's, `block_len`): every NIC cycle by cycle,
    /// then each switch chunk through the `b` cycles. An error or a panic (of the workload or
    /// a gate) in a NIC's cycle u leaves the switches at the end of cycle u - 1, as `step`
    /// would, so that a caller that catches the panic can go on. An error of a switch
    /// leaves the NICs up to `b - 1` cycles ahead of it; with several switch chunks, the
    /// error reported is the first chunk's, not the earliest cycle's (switches report
    /// only broken invariants).
    fn step_block(&mut self, w: &mut dyn Workload, b: u64) -> Result<(), NetError> {
        let t = self.now;
        let mut plain = 0u64;
        for j in 0..b {
            let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                self.nic_cycle(w, j, &mut plain)
            }));
            let stopped = match r {
                Ok(Ok(())) => continue,
                Ok(Err(e)) => Ok(e),
                Err(p) => Err(p),
            };
            self.switch_cycles(t, j, plain)?;
            self.now = t + j;
            return match stopped {
                Ok(e) => Err(e),
                Err(p) => std::panic::resume_unwind(p),
            };
        }
        self.switch_cycles(t, b, plain)?;
        self.now = t + b;
        self.blocked += b;
        Ok(())
    }

    /// Cycle `now` of the NICs (the `j`-th of its block), with the cycle's start and end;
    /// bit `j` of `plain` set when it takes the plain copies.
    fn nic_cycle(&mut self, w: &mut dyn Workload, j: u64, plain: &mut u64) -> Result<(), NetError> {
        self.begin_cycle(w)?;
        let p = self.plain();
        *plain |= (p as u64) << j;
        self.eval_nic_chunks::<PLAIN_ONE>(0, self.nic_owners, p)
            .map_err(|e| *e)?;
        self.end_cycle(w);
        self.now += 1;
        Ok(())
    }

    /// Cycles `t..t + b` of every switch chunk, one chunk at a time (bit j of `plain`: cycle
    /// t + j takes the plain copies).
    fn switch_cycles(&mut self, t: u64, b: u64, plain: u64) -> Result<(), NetError> {
        // each chunk moves its own last progress forward; the network's is the latest
        let mut progress = self.last_progress;
        for c in 0..self.sw_chunks {
            for j in 0..b {
                self.now = t + j;
                self.eval_switch_chunk::<PLAIN_ONE>(c, plain >> j & 1 != 0)
                    .map_err(|e| *e)?;
            }
            progress = progress.max(self.last_progress);
        }
        self.last_progress = progress;
        Ok(())
    }
}
