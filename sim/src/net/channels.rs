//! Phase 1: the channels. Every flit and credit link is a fixed-latency pipe in one of two
//! timing wheels (`Network::fwheel`, `Network::cwheel`); a sender commits into the wheel
//! in phase 2, the receiver reads its heads in phase 1 of the cycle they arrive. With
//! phase 1 by owner (`Network::owner_p1`) each owner (a chunk of NICs or of switches) has
//! channels of its own and reads them just before it is evaluated.

use super::error::NetError;
use super::lane_wait::LaneWake;
use super::network::{Clocked, Network, Nic, Switch};
use super::scheme::Scheme;
use super::store::{CreditEv, End, Endpoint, FlitEv, Id, PortId};

impl<S: Scheme> Network<S> {
    /// Phase 1 without `owner_p1`: every channel head of this cycle (with it, each owner
    /// reads its own: `read_owner`).
    pub(crate) fn read_inputs(&mut self) -> Result<(), Box<NetError>> {
        if self.owner_p1 {
            Ok(())
        } else {
            self.read_owner(0)
        }
    }

    /// Phase 1 of owner `o`: the flits, then the credits, arriving there this cycle. With
    /// `owner_p1`, an error is the one the owner's entry pools would meet first, each pool
    /// reading its inputs and then evaluating its components before the next
    /// (`first_error`): so the error a run reports does not depend on how many pools an
    /// owner spans, that is on the thread count. Evaluates nothing when there is none.
    pub(crate) fn read_owner(&mut self, o: u32) -> Result<(), Box<NetError>> {
        self.read_owner_then(o, true)
    }

    /// `read_owner`; on an error, the components of the pools before the failing one are
    /// evaluated first when `eval` (as they would have been before its reads).
    #[inline]
    pub(crate) fn read_owner_then(&mut self, o: u32, eval: bool) -> Result<(), Box<NetError>> {
        if self.sw.prefetch {
            self.read_owner_pool::<true>(o, eval).map_err(|(e, _)| e)
        } else {
            self.read_owner_pool::<false>(o, eval).map_err(|(e, _)| e)
        }
    }

    /// `read_owner_then`, an error with its entry pool; `PF`: each read first asks the cache
    /// for the record of the read `AHEAD` events later (`Switches::prefetch`, `prefetch.rs`).
    /// (One copy of the reads' loops each way, each with its own copy of the reads,
    /// `Clocked::read`: a read with two callers would lose its inlining.)
    #[inline(never)]
    fn read_owner_pool<const PF: bool>(
        &mut self,
        o: u32,
        eval: bool,
    ) -> Result<(), (Box<NetError>, u32)> {
        let now = self.now;
        let ob = o as usize;
        let flits = self.fwheel.take_from(now, ob);
        let mut r = Ok(());
        let mut bad: &FlitEv = &FlitEv::default();
        for ev in &flits {
            if PF {
                self.prefetch_rx(&flits, ev);
            }
            r = match ev.rx.end() {
                End::Nic(n) => Nic::read::<S, PF>(self, n, ev),
                End::Port(g) => Switch::read::<S, PF>(self, g, ev),
            };
            if r.is_err() {
                bad = ev;
                break;
            }
        }
        if let Err(e) = r {
            // SAFETY: `bad` is the element of `flits` whose read failed
            let at = unsafe { (bad as *const FlitEv).offset_from(flits.as_ptr()) } as usize;
            let k = self.pool_of(flits[at].rx);
            let rest: Vec<FlitEv> = flits[at + 1..]
                .iter()
                .filter(|ev| self.pool_of(ev.rx) < k)
                .copied()
                .collect();
            self.fwheel.restore_to(now, ob, flits);
            let credits = self.cwheel.take_from(now, ob);
            let later: Vec<CreditEv> = credits
                .iter()
                .filter(|ev| self.pool_of(ev.tx) < k)
                .copied()
                .collect();
            self.cwheel.restore_to(now, ob, credits);
            return Err(self.first_error(o, e, k, rest, later, eval));
        }
        self.fwheel.restore_to(now, ob, flits);
        let mut r = Ok(());
        let credits = self.cwheel.take_from(now, ob);
        let wake = self.lane_wake();
        let mut bad: &CreditEv = &CreditEv::default();
        for ev in &credits {
            if PF {
                self.prefetch_tx(&credits, ev);
            }
            match ev.tx.end() {
                End::Nic(n) => {
                    self.nic.st[n as usize].credit_in += 1;
                    self.nic.poke(n);
                }
                End::Port(g) => r = self.port_credit(g, wake),
            }
            if r.is_err() {
                bad = ev;
                break;
            }
        }
        if let Err(e) = r {
            // SAFETY: `bad` is the element of `credits` whose read failed
            let at = unsafe { (bad as *const CreditEv).offset_from(credits.as_ptr()) } as usize;
            let k = self.pool_of(credits[at].tx);
            let later: Vec<CreditEv> = credits[at + 1..]
                .iter()
                .filter(|ev| self.pool_of(ev.tx) < k)
                .copied()
                .collect();
            self.cwheel.restore_to(now, ob, credits);
            return Err(self.first_error(o, e, k, Vec::new(), later, eval));
        }
        self.cwheel.restore_to(now, ob, credits);
        Ok(())
    }

    /// The error of owner `o`'s cycle whose first read error `e` in arrival order is in
    /// entry pool `k`, `flits` and `credits` the inputs of earlier pools not read yet: the
    /// first error in pool order, and its pool, as if each pool read its inputs, then
    /// (`eval`) evaluated its components, before the next. So those inputs are read (by
    /// `read_owner_pool` itself, so that its loop keeps the only calls of the reads), an
    /// error among them replacing `e` and `k`; then the components of the pools before `k`
    /// are evaluated (switches report no error in evaluation). Without `owner_p1`, `e` (the
    /// first in arrival order). The pool goes back by value, not through the network: two
    /// owners on two threads may meet errors in one cycle.
    #[cold]
    #[inline(never)]
    fn first_error(
        &mut self,
        o: u32,
        e: Box<NetError>,
        k: u32,
        flits: Vec<FlitEv>,
        credits: Vec<CreditEv>,
        eval: bool,
    ) -> (Box<NetError>, u32) {
        if !self.owner_p1 {
            return (e, k);
        }
        let (now, ob) = (self.now, o as usize);
        self.fwheel.append_to(now, ob, &flits);
        self.cwheel.append_to(now, ob, &credits);
        let (e, k) = match self.read_owner_pool::<false>(o, false) {
            Ok(()) => (e, k),
            Err(earlier) => earlier,
        };
        if eval && o < self.nic_owners {
            let lo = o * self.nic_chunk;
            let hi = (k << self.pool_nic_shift).min(self.nodes);
            if let Err(first) = self.eval_nics(lo, hi.max(lo)) {
                return (first, k);
            }
        }
        (e, k)
    }

    /// The entry pool of the component at `e` (`Network::pool_nic_shift`).
    #[inline]
    fn pool_of(&self, e: Endpoint) -> u32 {
        match e.end() {
            End::Nic(n) => n >> self.pool_nic_shift,
            End::Port(g) => self.pool_nic_owners + (self.sw.inp[g].sw.0 >> self.pool_sw_shift),
        }
    }

    /// The owner whose channels end at `e` (0 for all without `owner_p1`). A switch's
    /// links keep theirs (`OutPort::rx_owner`, `InPort::credit_owner`).
    #[inline(always)]
    pub(crate) fn owner_of(&self, e: Endpoint) -> u32 {
        if !self.owner_p1 {
            return 0;
        }
        match e.end() {
            End::Nic(n) => n >> self.nic_chunk.trailing_zeros(),
            End::Port(g) => self.port_owner[g.index()],
        }
    }

    /// A credit arrives at switch output port `g` (`wake`: `lane_wake`).
    #[inline(always)]
    pub(crate) fn port_credit(&mut self, g: PortId, wake: LaneWake) -> Result<(), Box<NetError>> {
        let op = &mut self.sw.out[g];
        if op.used == 0 {
            return Err(self.credit_underflow(g));
        }
        op.used -= 1;
        if wake.lanes {
            // (the record's fields the lane router needs, not a second look-up)
            let (used, limit, si, rx) = (op.used, op.limit, op.sw, op.rx);
            self.lane_credit(g, used, limit, si, rx, wake);
        }
        Ok(())
    }

    #[cold]
    #[inline(never)]
    fn credit_underflow(&self, g: PortId) -> Box<NetError> {
        Box::new(NetError::CreditUnderflow {
            cycle: self.now,
            component: self.out_port_name(g),
        })
    }
}
