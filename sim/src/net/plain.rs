//! Plain cycles: the common case compiled on its own. Most runs step one thread with
//! no credit-delay fault, no NIC flow control, no ACKs and no CSR
//! write waiting; each NIC cycle still asked about every one of those (about 40 of a busy
//! NIC-cycle's 330 instructions on ft128 at load 0.5, docs/performance.md). The NIC's
//! cycle and the sends it calls take a `const PLAIN: bool`: the copy with `PLAIN` true
//! leaves out those branches, and a cycle takes it only when all of them are known
//! false (`Network::plain`). Both copies are the same code, so they give the same results;
//! `sim/tests/net_plain.rs` holds them to it cycle by cycle.

use super::network::Network;
use super::scheme::Scheme;

impl<S: Scheme> Network<S> {
    /// This cycle's NICs may run their plain copy: one thread (asked where phase 2 runs
    /// on one), and none of the features the copy leaves out.
    #[inline]
    pub(crate) fn plain(&self) -> bool {
        self.plain_on
            && !self.par_on
            && !self.seams.flows
            && self.acks.is_none()
            && self.faults.csr_pending == 0
            && !self.faults.credit.on
            && self.faults.test.is_none()
    }

    /// Let the plain copies run (the default) or not. For tests, which show that results
    /// do not depend on it.
    #[doc(hidden)]
    pub fn set_plain(&mut self, on: bool) {
        self.plain_on = on;
    }
}
