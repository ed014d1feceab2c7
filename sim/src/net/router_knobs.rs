//! The lane router's switches for tests: each picks between two ways of doing the same
//! thing (mask widths, prefetching, the switch allocator's shortcuts), and the tests in
//! `tests/net_lane_masks.rs` show that the grants, and so the results, do not depend on
//! the choice.

use super::network::Network;
use super::scheme::Scheme;

impl<S: Scheme> Network<S> {
    /// The lane router's scans on `u128` lane masks at every switch (`wide`) or, the
    /// default, on `u64` ones when every switch has at most 64 lanes. For tests, which
    /// show that the grants do not depend on it.
    #[doc(hidden)]
    pub fn set_wide_lane_masks(&mut self, wide: bool) {
        self.sw.wide_masks = wide;
    }

    /// Prefetch the records phase 1 and the lane router will read (`on`), or not, whatever
    /// the network's size (by default on only above `PREFETCH_BYTES` of switch records).
    /// For tests, which show that the results do not depend on it.
    #[doc(hidden)]
    pub fn set_prefetch(&mut self, on: bool) {
        self.sw.prefetch = on;
    }

    /// Whether the run prefetches (`set_prefetch`).
    #[doc(hidden)]
    pub fn prefetches(&self) -> bool {
        self.sw.prefetch
    }

    /// The lane router's switch allocator grants a lone ready lane without its search (the
    /// default) or through it (`search`). For tests, which show that the grants do not
    /// depend on it.
    #[doc(hidden)]
    pub fn set_lane_sa_search(&mut self, search: bool) {
        self.sw.sa_search = search;
    }

    /// The lane router's switch allocator finds the input lanes that can move a flit from
    /// masks (the default: `locked_in & has_flit & !stalled_in`) or from their records
    /// (`scan`). For tests, which show that the grants do not depend on it.
    #[doc(hidden)]
    pub fn set_lane_ready_scan(&mut self, scan: bool) {
        self.sw.ready_scan = scan;
    }
}
