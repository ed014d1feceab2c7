//! Idle NICs skip their quiet cycles: a NIC with nothing to do whose injection gate is idle
//! (`Scheme::gate_idle`), or whose only work is a flit its blocked gate cannot send
//! (`Scheme::gate_blocked`), is not stepped, and its gate catches up the skipped cycles at
//! once when something arrives (`Scheme::gate_skip`). A sleeping NIC is not even visited: phase 2
//! goes through the NICs whose visit bit is set (`Nics::awake`), and whatever reaches a NIC
//! sets its bit (`Nics::poke`). docs/performance.md, "Idle NICs".

use super::error::NetError;
use super::network::{Network, ONE};
use super::plain::{threaded, GENERAL, PLAIN_ONE};
use super::scheme::Scheme;
use super::state::{Nics, AWAKE};
use super::store::PktId;
use super::store::SwitchId;
use super::types::NodeId;
use std::sync::atomic::Ordering;

/// The visit bits of `nodes` NICs, every one set.
pub(crate) fn all_awake(nodes: u32) -> Vec<u64> {
    let mut w = vec![u64::MAX; nodes.div_ceil(64) as usize];
    if !nodes.is_multiple_of(64) {
        *w.last_mut().expect("nodes > 0") = (1u64 << (nodes % 64)) - 1;
    }
    w
}

impl<S: Scheme> Network<S> {
    /// NIC `n` skips cycle `now` (true) when it has nothing to do: no packet in progress, no
    /// message queued, no credit or flit arrived, nothing to drain, no ACK or CSR write
    /// waiting, and a gate that is idle (`Scheme::gate_idle`). Such a cycle would change
    /// nothing but the gate's idle registers and the NIC's last outputs, which the first
    /// skipped cycle sets. The cycle something arrives, the NIC wakes: its gate catches up
    /// the skipped slots at once, and the cycle runs as usual.
    ///
    /// A NIC with a flit to send sleeps too while its gate is blocked (`nic_still`,
    /// `Scheme::gate_blocked`): no credit is free and none came back, so the cycle could
    /// send nothing. The credit's return pokes it. (A NIC that fell asleep idle and then
    /// took a message while its gate was blocked sleeps on from the same cycle: `gate_skip`
    /// catches both kinds of slot up alike.)
    #[inline(always)]
    pub(crate) fn nic_sleeps(&mut self, n: u32, now: u64) -> bool {
        let asleep = self.nic.st[n as usize].asleep_from != AWAKE;
        if self.nic_calm(n) && self.nic_still(n, asleep) {
            if !asleep {
                // the outputs of every skipped slot
                let c = self.cc.used_credits(n);
                let ns = &mut self.nic.st[n as usize];
                ns.asleep_from = now;
                ns.out_flags = 0;
                ns.out_c = c;
                ns.thr_since = now + 1;
            }
            // not visited again until something pokes it
            self.nic.awake[n as usize / 64] &= !(1 << (n % 64));
            return true;
        }
        if asleep {
            self.wake(n, now);
        }
        false
    }

    /// NIC `n` (calm) can do nothing this cycle: nothing to send and an idle gate
    /// (`asleep`: it was, and nothing has stepped it since), or a flit to send and a
    /// blocked gate (`Scheme::gate_blocked`).
    #[inline(always)]
    fn nic_still(&self, n: u32, asleep: bool) -> bool {
        let ns = &self.nic.st[n as usize];
        if ns.cur_pkt == PktId::NONE && ns.dsts == 0 {
            asleep || self.cc.gate_idle(n)
        } else {
            self.cc.gate_blocked(n)
        }
    }

    /// Nothing reached NIC `n` this cycle and nothing waits but what it sends: no credit
    /// or flit arrived, nothing to drain, no ACK or CSR write waiting.
    #[inline(always)]
    fn nic_calm(&self, n: u32) -> bool {
        let i = n as usize;
        let ns = &self.nic.st[i];
        ns.credit_in == 0
            && ns.rx_occ == 0
            && (ns.rate == 0 || ns.acc >= ONE)
            && self.acks.as_ref().is_none_or(|a| a.queue[i].is_empty())
            && (self.faults.csr_pending == 0 || self.faults.csr_q[i].is_empty())
    }

    /// Phase 2 of NICs `lo..hi` (`lo` a multiple of 64) in order: every NIC when idle NICs
    /// do not skip, else only those whose visit bit is set. A NIC whose bit is clear is
    /// asleep and nothing has reached it, so its cycle is skipped either way: visiting it
    /// would only find it quiet again.
    #[inline(always)]
    pub(crate) fn eval_nics(&mut self, lo: u32, hi: u32) -> Result<(), Box<NetError>> {
        self.eval_nics_in::<GENERAL>(lo, hi)
    }

    /// `eval_nics` by copy `PLAIN` (`plain.rs`: a plain one when the cycle is plain).
    #[inline(always)]
    pub(crate) fn eval_nics_in<const PLAIN: u8>(
        &mut self,
        lo: u32,
        hi: u32,
    ) -> Result<(), Box<NetError>> {
        if !self.nic.skip_idle {
            for n in lo..hi {
                self.eval_nic_in::<PLAIN>(n)?;
            }
            return Ok(());
        }
        debug_assert!(lo.is_multiple_of(64));
        for k in lo / 64..hi.div_ceil(64) {
            // the bits as the word starts: a visit clears only its own NIC's bit
            let mut w = self.nic.awake[k as usize];
            while w != 0 {
                let n = k * 64 + w.trailing_zeros();
                w &= w - 1;
                self.eval_nic_in::<PLAIN>(n)?;
            }
        }
        Ok(())
    }

    /// Phase 2 of the switches on one thread, in order: those with a flit resident (their
    /// bit in `Switches::busy`). An empty switch's cycle does nothing in every switch
    /// model (`eval_switch`, `eval_router` and `eval_cioq` return at once), so it is not
    /// visited. (Under threads a chunk does the same for its own switches:
    /// `eval_switches_in`.)
    #[inline(always)]
    pub(crate) fn eval_switches(&mut self, plain: bool) -> Result<(), Box<NetError>> {
        let n = self.sw.sw.len() as u32;
        if plain {
            self.eval_switches_in::<PLAIN_ONE>(0, n)
        } else {
            self.eval_switches_in::<GENERAL>(0, n)
        }
    }

    /// `eval_switches` for switches `lo..hi` alone. (Only a read sets a busy bit, so a
    /// word's bits can be taken once. Under threads a chunk's switches' bits are set and
    /// cleared by that chunk alone, but a word may hold other chunks' bits: both by atomic
    /// read-modify-write then.)
    #[inline(always)]
    pub(crate) fn eval_switches_in<const PLAIN: u8>(
        &mut self,
        lo: u32,
        hi: u32,
    ) -> Result<(), Box<NetError>> {
        if self.sw.model == 1 {
            self.eval_routers_in::<PLAIN>(lo, hi);
        } else {
            self.visit_busy::<PLAIN>(
                lo,
                hi,
                |net, s| net.eval_switch_model::<PLAIN>(s),
                None::<fn(&Self, SwitchId, Option<SwitchId>)>,
            );
        }
        Ok(())
    }

    /// Evaluate (`eval`) each of switches `lo..hi` that holds a flit, and clear the busy
    /// bit of each left empty. Before each, `ahead` (if given) is shown the next busy switch
    /// in the same word and the one after it (if any), to ask the cache for their records:
    /// it can change nothing (`&Self`).
    #[inline(always)]
    pub(crate) fn visit_busy<const PLAIN: u8>(
        &mut self,
        lo: u32,
        hi: u32,
        mut eval: impl FnMut(&mut Self, SwitchId),
        mut ahead: Option<impl FnMut(&Self, SwitchId, Option<SwitchId>)>,
    ) {
        if lo >= hi {
            return;
        }
        for k in (lo / 64) as usize..=((hi - 1) / 64) as usize {
            let base = k as u32 * 64;
            let mut w = self.sw.busy[k].load(Ordering::Relaxed);
            if lo > base {
                w &= !0u64 << (lo - base);
            }
            if hi - base < 64 {
                w &= (1u64 << (hi - base)) - 1;
            }
            while w != 0 {
                let s = base + w.trailing_zeros();
                w &= w - 1;
                if let Some(ahead) = ahead.as_mut().filter(|_| w != 0) {
                    let next = base + w.trailing_zeros();
                    let rest = w & (w - 1);
                    let after = (rest != 0).then(|| SwitchId(base + rest.trailing_zeros()));
                    ahead(self, SwitchId(next), after);
                }
                eval(self, SwitchId(s));
                if self.sw.sw[SwitchId(s)].resident == 0 {
                    let b = &self.sw.busy[k];
                    if threaded::<PLAIN>(self.par_on) {
                        b.fetch_and(!(1 << (s % 64)), Ordering::Relaxed);
                    } else {
                        b.store(
                            b.load(Ordering::Relaxed) & !(1 << (s % 64)),
                            Ordering::Relaxed,
                        );
                    }
                }
            }
        }
    }

    /// Phase 2 of NIC chunks `lo..hi` by owner (`owner_p1`): each reads its inputs, then
    /// its NICs are evaluated (`eval_nics`; when `plain`, their plain copy `P`: `PLAIN_ONE`
    /// on one thread, `PLAIN_PAR` in a chunk under threads).
    pub(crate) fn eval_nic_chunks<const P: u8>(
        &mut self,
        lo: u32,
        hi: u32,
        plain: bool,
    ) -> Result<(), Box<NetError>> {
        for j in lo..hi {
            self.read_owner(j)?;
            let n = j * self.nic_chunk;
            let hi = (n + self.nic_chunk).min(self.nodes);
            if plain {
                self.eval_nics_in::<P>(n, hi)?;
            } else {
                self.eval_nics(n, hi)?;
            }
        }
        Ok(())
    }

    /// `eval_switches` by owner (`owner_p1`): each chunk of switches reads its inputs, then
    /// its switches with a flit resident are evaluated, in order.
    pub(crate) fn eval_switch_chunks(&mut self, plain: bool) -> Result<(), Box<NetError>> {
        for c in 0..self.sw_chunks {
            self.eval_switch_chunk::<PLAIN_ONE>(c, plain)?;
        }
        Ok(())
    }

    /// Switch chunk `c` reads its inputs, then its switches with a flit resident are
    /// evaluated (when `plain`, their plain copy `P`, as for `eval_nic_chunks`).
    #[inline]
    pub(crate) fn eval_switch_chunk<const P: u8>(
        &mut self,
        c: u32,
        plain: bool,
    ) -> Result<(), Box<NetError>> {
        self.read_owner(self.nic_owners + c)?;
        let n = self.sw.sw.len() as u32;
        let (lo, hi) = (c * self.sw_chunk, ((c + 1) * self.sw_chunk).min(n));
        if plain {
            self.eval_switches_in::<P>(lo, hi)
        } else {
            self.eval_switches_in::<GENERAL>(lo, hi)
        }
    }

    /// A flit arrived at switch `s`: it is visited from now on (`eval_switches`).
    #[inline]
    pub(crate) fn mark_busy(&mut self, s: SwitchId) {
        let (k, bit) = (s.0 as usize / 64, 1u64 << (s.0 % 64));
        let w = &self.sw.busy[k];
        // (under threads switch chunks on other threads set bits of the same word; a bit
        // stays set then, so once set the word is only read, and its cache line is not
        // passed between cores at every head)
        let x = w.load(Ordering::Relaxed);
        if x & bit == 0 {
            if self.par_on {
                w.fetch_or(bit, Ordering::Relaxed);
            } else {
                w.store(x | bit, Ordering::Relaxed);
            }
        }
    }

    /// Every switch holding a flit is visited; with idle NICs skipping, every NIC whose
    /// visit bit is clear is asleep and quiet (the checker's view of the pokes: a
    /// component left unvisited with something to do is a bug).
    pub(crate) fn check_sleepers(&self) -> Result<(), String> {
        for (s, st) in self.sw.sw.items.iter().enumerate() {
            if st.resident > 0 && self.sw.busy[s / 64].load(Ordering::Relaxed) >> (s % 64) & 1 == 0
            {
                return Err(format!(
                    "switch {s} holds {} flits but is not visited",
                    st.resident
                ));
            }
        }
        if !self.nic.skip_idle {
            return Ok(());
        }
        for n in 0..self.nodes {
            if self.nic.awake[n as usize / 64] >> (n % 64) & 1 == 0 {
                if self.nic.st[n as usize].asleep_from == AWAKE {
                    return Err(format!("NIC {n} is not visited but not asleep"));
                }
                if !(self.nic_calm(n) && self.nic_still(n, true)) {
                    return Err(format!(
                        "NIC {n} sleeps unvisited with something to do (a flit, credit, message it can send, ACK, CSR write or drain)"
                    ));
                }
            }
        }
        Ok(())
    }

    /// Sleeping NIC `n` wakes in cycle `now`: its gate catches up the skipped slots, and the
    /// starvation watchdog's start is what those slots would have left.
    fn wake(&mut self, n: u32, now: u64) {
        let ns = &mut self.nic.st[n as usize];
        let slots = now - ns.asleep_from;
        ns.asleep_from = AWAKE;
        ns.thr_since = now;
        self.cc.gate_skip(n, slots);
    }

    /// Cycles NIC `n` has skipped since it last ran (0 when it is awake): what its gate must
    /// still catch up.
    pub fn idle_slots(&self, n: NodeId) -> u64 {
        let from = self.nic.st[n.0 as usize].asleep_from;
        if from == AWAKE {
            0
        } else {
            self.now - from
        }
    }

    /// Let idle NICs skip their quiet cycles (the default for schemes without NIC flow
    /// control) or step every cycle. For tests, which show that results do not depend on
    /// it. Turning it off wakes every sleeping NIC (its gate caught up) first.
    #[doc(hidden)]
    pub fn set_idle_skip(&mut self, on: bool) {
        if !on {
            let now = self.now;
            for n in 0..self.nodes {
                if self.nic.st[n as usize].asleep_from != AWAKE {
                    self.wake(n, now);
                }
            }
        }
        self.nic.poke_all();
        self.nic.skip_idle = on && !self.seams.flows;
    }
}

impl Nics {
    /// Something reached NIC `n` that may end its quiet (a flit, a credit, a message, a
    /// CSR write; an ACK to send comes with a flit): phase 2 visits it this cycle, and it
    /// wakes there if it has something to do.
    #[inline(always)]
    pub(crate) fn poke(&mut self, n: u32) {
        self.awake[n as usize / 64] |= 1 << (n % 64);
    }

    /// Every NIC is visited this cycle (after a change that may reach any of them).
    pub(crate) fn poke_all(&mut self) {
        self.awake = all_awake(self.st.len() as u32);
    }
}
