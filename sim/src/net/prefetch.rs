//! Prefetching: asking the cache ahead for the records a large network will read
//! (`Switches::prefetch`, on above `PREFETCH_BYTES` of switch records, on one thread).
//! Phase 1 asks, at
//! each arriving event, for the record of the event `AHEAD` places later; the lane router,
//! before each router's cycle, for the next router's held lanes and the one after's record.
//! Every function here only hints (`&self`, no write): the results are the same with it on
//! or off (`sim/tests/net_lane_masks.rs`).

use super::network::Network;
use super::scheme::Scheme;
use super::state::{InPort, LaneMask, OutPort, SwState};
use super::store::{CreditEv, End, FlitEv, Id, SwitchId};

/// The size of the switches' records (input, output and switch records) from which reads
/// are prefetched (`Switches::prefetch`): 4 MiB, a margin above the private L2 of current
/// x86 cores (1-2 MiB; 1 MiB a core on this machine). Smaller networks miss too, but
/// less; there the hints would cost instructions for a saving not measured (the 16-ary
/// 2-cube with an early form of them always on: +13 % instructions).
pub(crate) const PREFETCH_BYTES: usize = 4 << 20;

/// How many events ahead phase 1 asks the cache for the record an event will read: far
/// enough for a line to come from memory on a network larger than the caches.
pub(super) const AHEAD: usize = 16;

/// The event `AHEAD` places after `ev` (an element of `evs`) if there is one. (From the
/// addresses, without `unsafe`: were `ev` not in `evs`, only the hint would be wrong.)
#[inline(always)]
fn later<'a, T>(evs: &'a [T], ev: &T) -> Option<&'a T> {
    let bytes = (ev as *const T as usize).wrapping_sub(evs.as_ptr() as usize);
    evs.get((bytes / std::mem::size_of::<T>().max(1)).wrapping_add(AHEAD))
}

/// Ask the cache for every line of the `len` bytes at `p` but one at address `*last` (a
/// line's address), and leave `last` at the last line asked for: a scan of neighbouring
/// records asks for each line once. A hint, as `prefetch`: `p` is not dereferenced.
#[inline(always)]
pub(crate) fn prefetch_lines(last: &mut usize, p: *const u8, len: usize) {
    let start = p as usize;
    let mut line = start & !63;
    while line < start + len {
        if line != *last {
            prefetch(line as *const u8);
            *last = line;
        }
        line += 64;
    }
}

/// Ask the cache for the line holding `p` (a hint: `p` is not dereferenced, and a prefetch
/// never faults, so any address will do).
#[inline(always)]
pub(crate) fn prefetch<T>(p: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch reads and writes no memory and never faults
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>(p as *const i8);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

impl<S: Scheme> Network<S> {
    /// `eval_routers_in` asking the cache ahead for the next routers' records
    /// (`Switches::prefetch`; a function of its own, so that the loop without it is
    /// compiled as before).
    #[inline(never)]
    pub(super) fn eval_routers_prefetching<const PLAIN: u8>(&mut self, lo: u32, hi: u32) {
        let sends = self.sends::<PLAIN>();
        if self.sw.narrow && !self.sw.wide_masks {
            self.visit_busy::<PLAIN>(
                lo,
                hi,
                |n, s| n.eval_router_on::<u64, PLAIN>(s, sends),
                Some(|n: &Self, next, after| n.router_ahead::<u64>(next, after)),
            );
        } else {
            self.visit_busy::<PLAIN>(
                lo,
                hi,
                |n, s| n.eval_router_on::<u128, PLAIN>(s, sends),
                Some(|n: &Self, next, after| n.router_ahead::<u128>(next, after)),
            );
        }
    }

    /// Ask the cache for what the next routers' cycles read first: the record of the one
    /// after next (`after`), and, from the next one's record (asked for a router ago), its
    /// held output lanes and its input lanes holding one. A hint: it changes nothing else.
    #[inline(always)]
    fn router_ahead<M: LaneMask>(&self, next: SwitchId, after: Option<SwitchId>) {
        let size = std::mem::size_of::<SwState>();
        if let Some(a) = after {
            let p = self.sw.sw.items.as_ptr().wrapping_add(a.index());
            prefetch_lines(&mut 0, p as *const u8, size);
        }
        let st = &self.sw.sw[next];
        let base = st.base.0;
        // each line once (records of 44 and 56 bytes: neighbours share lines)
        let mut last = 0;
        let mut held = M::of(st.locked_out);
        while held != M::ZERO {
            let o = held.tz();
            held &= held - M::ONE;
            let p = self.sw.out.items.as_ptr().wrapping_add((base + o) as usize);
            prefetch_lines(&mut last, p as *const u8, std::mem::size_of::<OutPort>());
        }
        let mut locked = M::of(st.locked_in);
        while locked != M::ZERO {
            let i = locked.tz();
            locked &= locked - M::ONE;
            let p = self.sw.inp.items.as_ptr().wrapping_add((base + i) as usize);
            prefetch_lines(&mut last, p as *const u8, std::mem::size_of::<InPort>());
        }
        // the switch allocator's pointers, a byte a lane
        let (lb, lanes) = (base as usize, st.radix as usize);
        prefetch_lines(&mut last, self.sw.sa_in.as_ptr().wrapping_add(lb), lanes);
        prefetch_lines(&mut last, self.sw.sa_out.as_ptr().wrapping_add(lb), lanes);
    }

    /// Ask the cache for the record the flit `AHEAD` places after `ev` in `evs` (if any)
    /// will read on arrival (the input port's or the NIC's): a hint that changes nothing.
    #[inline(always)]
    pub(super) fn prefetch_rx(&self, evs: &[FlitEv], ev: &FlitEv) {
        let Some(ahead) = later(evs, ev) else {
            return;
        };
        match ahead.rx.end() {
            End::Nic(n) => prefetch(self.nic.st.as_ptr().wrapping_add(n as usize)),
            End::Port(g) => self.sw.inp.prefetch(g),
        }
    }

    /// `prefetch_rx` for credits (the output port's record, or the NIC's).
    #[inline(always)]
    pub(super) fn prefetch_tx(&self, evs: &[CreditEv], ev: &CreditEv) {
        let Some(ahead) = later(evs, ev) else {
            return;
        };
        match ahead.tx.end() {
            End::Nic(n) => prefetch(self.nic.st.as_ptr().wrapping_add(n as usize)),
            End::Port(g) => self.sw.out.prefetch(g),
        }
    }
}
