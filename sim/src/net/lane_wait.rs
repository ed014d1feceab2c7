//! The lane router's wait lists: a head that found none of its candidate output lanes free
//! waits (its input lane's bit in `SwState::blocked`, and in `Switches::waiters` of each
//! output lane it tried) until one of those lanes may have freed (its tail left, or a
//! credit came back), instead of asking again every cycle: the retry would fail with no
//! side effect (docs/performance.md, "The lane router: heads that wait for a lane").
//! `lane_credit` also keeps `Switches::no_credit` and `Switches::stalled_in`, wait lists
//! or not (Disha, `set_lane_wait_lists(false)`).

use super::config::Fault;
use super::lanes::Routing;
use super::network::Network;
use super::scheme::Scheme;
use super::store::{End, Endpoint, Id, PortId, SwitchId};

/// How a credit back to a switch output is taken (`Network::lane_wake`): with wait lists
/// (`Switches::waiters`), a credit may free its lane (`lane_free`) when the lane is to a
/// NIC (`nic`), or when its credits in use drop below `below`: every one back (1), any
/// (`lane_reuse = "tail"` with `Switches::whole`: u32::MAX) or never (0: no wait lists, or
/// the tail alone frees the lane).
#[derive(Clone, Copy)]
pub(crate) struct LaneWake {
    /// The switches are lane routers (`lane_credit`).
    pub lanes: bool,
    pub below: u32,
    pub nic: bool,
}

impl<S: Scheme> Network<S> {
    /// The lane router's wait lists on (the default, not under Disha) or off (every waiting
    /// head asks for a lane every cycle). Call before the first step; for tests, which show
    /// that results do not depend on it.
    #[doc(hidden)]
    pub fn set_lane_wait_lists(&mut self, on: bool) {
        let off = !on || self.sw.vcs == 0 || self.cfg.routing == Some(Routing::Disha);
        self.sw.waiters = if off {
            Vec::new()
        } else {
            vec![0; self.sw.out.len()]
        };
        self.sw.sw.items.iter_mut().for_each(|st| st.blocked = 0);
    }

    /// Heads now waiting for one of the lanes they tried to free (all lane routers).
    #[doc(hidden)]
    pub fn lane_heads_waiting(&self) -> u32 {
        self.sw
            .sw
            .items
            .iter()
            .map(|st| st.blocked.count_ones())
            .sum()
    }

    /// How a credit back to a switch output is taken (`port_credit`), looked up once for
    /// an owner's credits: the same all phase 1.
    #[inline]
    pub(crate) fn lane_wake(&self) -> LaneWake {
        let below = if self.sw.waiters.is_empty() {
            0
        } else if !self.sw.reuse_tail {
            1
        } else if self.sw.whole {
            u32::MAX
        } else {
            0
        };
        LaneWake {
            lanes: self.sw.router.is_some(),
            below,
            nic: !self.sw.waiters.is_empty(),
        }
    }

    /// A credit came back to output lane `g` (global) of lane router `si`, its credits now
    /// `used` of `limit`, its receiver `rx`: the lane has a credit again
    /// (`Switches::no_credit`); if it may have made the lane free (`lane_free`), the heads
    /// blocked on it ask again (`wake`).
    #[inline(always)]
    pub(crate) fn lane_credit(
        &mut self,
        g: PortId,
        used: u32,
        limit: u32,
        si: SwitchId,
        rx: Endpoint,
        wake: LaneWake,
    ) {
        if used + 1 == limit && !self.stale_no_credit() {
            let st = &self.sw.sw[si];
            let l = st.local(g);
            self.sw.no_credit[si.index()] &= !(1u128 << l);
            if st.locked_out >> l & 1 != 0 {
                // the input lane holding it may move again
                let i = self.sw.held_from[g.index()];
                self.sw.stalled_in[si.index()] &= !(1u128 << i);
            }
        }
        if used < wake.below || wake.nic && matches!(rx.end(), End::Nic(_)) {
            self.lane_freed(g);
        }
    }

    /// Test hook `Fault::StaleNoCredit`: this credit, back to a lane with none left, fails
    /// to clear its no-credit bit.
    #[inline(always)]
    fn stale_no_credit(&mut self) -> bool {
        match self.faults.test {
            Some(Fault::StaleNoCredit { cycle })
                if !self.faults.test_fired && self.now >= cycle =>
            {
                self.faults.test_fired = true;
                true
            }
            _ => false,
        }
    }

    /// Is output lane `g` (global; it has a link and no packet holds it: the caller's
    /// masks, `SwState::used_mask` and `locked_out`) free for a packet of `len` flits?
    #[inline]
    pub(super) fn lane_free(&self, g: PortId, len: u16) -> bool {
        let op = &self.sw.out[g];
        match op.rx.end() {
            End::Nic(_) => op.limit - op.used >= len as u32,
            // `lane_reuse = "tail"`: the previous tail has left (under `vct` and Duato's
            // routings the lane behind must also be empty or take the whole packet)
            End::Port(_) if self.sw.reuse_tail => {
                !self.sw.whole || op.used == 0 || op.limit - op.used >= len as u32
            }
            End::Port(_) => op.used == 0,
        }
    }

    /// Output lane `g` (global) may have become free: wake the heads blocked on it.
    #[inline]
    pub(crate) fn lane_freed(&mut self, g: PortId) {
        let w = std::mem::take(&mut self.sw.waiters[g.index()]);
        if w != 0 {
            let si = self.sw.out[g].sw;
            self.sw.sw[si].blocked &= !w;
        }
    }
}
