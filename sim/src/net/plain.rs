//! Plain cycles: the common case compiled on its own. Most runs step phase 2 with no NIC
//! flow control, no ACKs, no CSR write waiting, no credit-delay or credit-jitter fault and
//! no test fault, yet a busy NIC's cycle asked about every one of those, and the VCT
//! switch (switch model 0) about test faults at every flit it moved. The NIC's cycle, the
//! VCT switch's, the lane router's flit move and the sends they call take a `const PLAIN:
//! u8`, which copy of them runs: `GENERAL` asks about each feature and about threads;
//! `PLAIN_ONE` and `PLAIN_PAR` leave out those branches, and a cycle takes one of them only
//! when all of the features are known false (`Network::plain`): `PLAIN_ONE` on one thread
//! (its sends go straight into the channels), `PLAIN_PAR` in the chunks under threads
//! (its sends go into the chunk's log). The lane router's per-lane hop count asks about
//! threads in every copy. The three copies are one source, so they give the same results;
//! `sim/tests/net_plain.rs` holds them to it cycle by cycle (docs/performance.md, "Plain
//! cycles").

use super::network::Network;
use super::scheme::Scheme;

/// The copy of a cycle's code that asks about every feature, and whether it runs on
/// threads (`Network::par_on`).
pub(crate) const GENERAL: u8 = 0;
/// The plain copy on one thread.
pub(crate) const PLAIN_ONE: u8 = 1;
/// The plain copy in a chunk under threads (`parallel.rs`).
pub(crate) const PLAIN_PAR: u8 = 2;

/// Do copy `PLAIN`'s shared effects go into the chunk's log (`parallel.rs`)? The general
/// copy asks `par_on`; each plain copy knows.
#[inline(always)]
pub(crate) fn threaded<const PLAIN: u8>(par_on: bool) -> bool {
    debug_assert!(PLAIN == GENERAL || par_on == (PLAIN == PLAIN_PAR));
    match PLAIN {
        GENERAL => par_on,
        PLAIN_ONE => false,
        _ => true,
    }
}

/// Whether the plain copies may run, and how many cycles took them.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Plain {
    /// The plain copies may run (off for tests only: `set_plain`).
    pub on: bool,
    /// Cycles whose NICs and switches took the plain copies.
    pub cycles: u64,
}

impl Default for Plain {
    fn default() -> Self {
        Plain {
            on: true,
            cycles: 0,
        }
    }
}

impl<S: Scheme> Network<S> {
    /// This cycle's NICs and switches may run their plain copies (asked before phase 2,
    /// on one thread or under threads): none of the features the copies leave out is on.
    /// Those features do not change during phase 2 (faults start and end before it).
    #[inline]
    pub(crate) fn plain(&mut self) -> bool {
        let p = self.plain.on
            && !self.seams.flows
            && self.acks.is_none()
            && self.faults.csr_pending == 0
            && !self.faults.credit.on
            && self.faults.test.is_none();
        self.plain.cycles += p as u64;
        p
    }

    /// May the lane routers' cycle run a plain copy (`eval_routers_in` with `PLAIN_ONE` or
    /// `PLAIN_PAR`)? Not with a central arbiter, Disha's token or a test's choice of the
    /// switch allocator's way (`set_lane_sa_search`, `set_lane_ready_scan`), which those
    /// copies leave out: such a network's lane routers run the general copy in plain cycles
    /// too.
    #[inline]
    pub(crate) fn plain_lanes(&self) -> bool {
        self.sw.central.is_empty()
            && self.disha.is_none()
            && !self.sw.sa_search
            && !self.sw.ready_scan
    }

    /// Let the plain copies run (the default) or not. For tests, which show that results
    /// do not depend on it.
    #[doc(hidden)]
    pub fn set_plain(&mut self, on: bool) {
        self.plain.on = on;
    }

    /// Cycles so far whose NICs and switches took the plain copies (for tests).
    #[doc(hidden)]
    pub fn plain_cycles(&self) -> u64 {
        self.plain.cycles
    }
}
