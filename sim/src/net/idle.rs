//! Idle NICs skip their quiet cycles: a NIC with nothing to do whose injection gate is idle
//! (`Scheme::gate_idle`) is not stepped, and its gate catches up the skipped cycles at once
//! when something arrives (`Scheme::gate_skip`). docs/performance.md, "Idle NICs".

use super::network::{Network, ONE};
use super::scheme::Scheme;
use super::state::AWAKE;
use super::store::PktId;
use super::types::NodeId;

impl<S: Scheme> Network<S> {
    /// NIC `n` skips cycle `now` (true) when it has nothing to do: no packet in progress, no
    /// message queued, no credit or flit arrived, nothing to drain, no ACK or CSR write
    /// waiting, and a gate that is idle (`Scheme::gate_idle`). Such a cycle would change
    /// nothing but the gate's idle registers and the NIC's last outputs, which the first
    /// skipped cycle sets. The cycle something arrives, the NIC wakes: its gate catches up
    /// the skipped slots at once, and the cycle runs as usual.
    #[inline(always)]
    pub(crate) fn nic_sleeps(&mut self, n: u32, now: u64) -> bool {
        let i = n as usize;
        let ns = &self.nic.st[i];
        let quiet = ns.cur_pkt == PktId::NONE
            && ns.dsts == 0
            && ns.credit_in == 0
            && ns.rx_occ == 0
            && (ns.rate == 0 || ns.acc >= ONE)
            && self.acks.as_ref().is_none_or(|a| a.queue[i].is_empty())
            && (self.faults.csr_pending == 0 || self.faults.csr_q[i].is_empty());
        let asleep = ns.asleep_from != AWAKE;
        if quiet && (asleep || self.cc.gate_idle(n)) {
            if !asleep {
                // the outputs of every skipped slot
                let c = self.cc.used_credits(n);
                let ns = &mut self.nic.st[i];
                ns.asleep_from = now;
                ns.out_flags = 0;
                ns.out_c = c;
                ns.thr_since = now + 1;
            }
            return true;
        }
        if asleep {
            self.wake(n, now);
        }
        false
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
        self.nic.skip_idle = on && !self.seams.flows;
    }
}
