//! IB CC's accessors of the run's [`Network`](crate::cc::Network): CCTIs, FECN marks and
//! the NICs' counters (the generic network names no scheme).

use super::IbccNicStats;
use crate::cc::Network;
use crate::net::NodeId;

impl Network {
    /// IB CC: the CCTI of flow `src -> dst` now (None without IB CC).
    pub fn ccti(&self, src: NodeId, dst: NodeId) -> Option<u16> {
        match self {
            Network::Ibcc(n) => Some(n.scheme().ccti(src.0, dst.0)),
            _ => None,
        }
    }

    /// IB CC: packets marked with FECN so far, all switches (0 without IB CC).
    pub fn fecn_marked(&self) -> u64 {
        match self {
            Network::Ibcc(n) => n.scheme().fecn_marked(),
            _ => 0,
        }
    }

    /// IB CC: NIC `n`'s counters (FECNs received, CNPs sent, BECNs received; zero without
    /// IB CC).
    pub fn ibcc_stats(&self, n: NodeId) -> IbccNicStats {
        match self {
            Network::Ibcc(net) => net.scheme().nics.stats[n.index()],
            _ => Default::default(),
        }
    }

    /// IB CC: every NIC's counters summed.
    pub fn ibcc_total_stats(&self) -> IbccNicStats {
        let mut t = IbccNicStats::default();
        for n in NodeId::all(self.nodes()) {
            let s = self.ibcc_stats(n);
            t.fecn_received += s.fecn_received;
            t.cnps_sent += s.cnps_sent;
            t.becns_received += s.becns_received;
            t.ccti_decrements += s.ccti_decrements;
        }
        t
    }
}
