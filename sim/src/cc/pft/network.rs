//! PFT's accessors of the run's [`Network`](crate::cc::Network): its blocks' state,
//! outputs and probes, and the PFT-at-every-NIC constructor (the generic network names no
//! scheme; each scheme reaches its own state through its variant).

use super::{EngineKind, PftConfig, PftState};
use crate::cc::{CcConfig, Network};
use crate::net::{NetConfig, NetError, NodeId};

impl Network {
    /// Build a network at cycle 0 with PFT at every NIC: empty channels and buffers, every
    /// PFT block reset and configured (CREDIT_LIMIT = `buffer_flits`, SEED derived from
    /// `seed` per NIC). `with_cc` builds any congestion control.
    pub fn new(
        cfg: &NetConfig,
        pft: &PftConfig,
        engine: EngineKind,
        seed: u64,
    ) -> Result<Network, NetError> {
        Network::with_cc(cfg, &CcConfig::Pft(*pft), engine, seed)
    }

    /// The PFT blocks' state, for a PFT network.
    pub fn pft_state(&self) -> Option<&PftState> {
        match self {
            Network::Pft(n) => Some(n.scheme()),
            _ => None,
        }
    }

    /// The engine the PFT blocks run in (`model` for a network without PFT).
    pub fn engine_kind(&self) -> EngineKind {
        self.pft_state()
            .map_or(EngineKind::Model, |p| p.engine_kind())
    }

    /// The outputs of NIC `n`'s injection gate in the last simulated cycle, as the PFT
    /// block's output port (`csr_rdata` reads 0: the network never reads the CSR port).
    pub fn pft_outputs(&self, n: NodeId) -> pft_hdl::model::Outputs {
        super::outputs(self.gate_outputs(n))
    }

    /// The registered state of NIC `n`'s PFT block now (None without PFT), with the quiet
    /// cycles an idle NIC skipped caught up.
    pub fn pft_probe(&self, n: NodeId) -> Option<pft_hdl::stepper::Probe> {
        match self {
            Network::Pft(net) => Some(net.scheme().block(n.0).probe_after(net.idle_slots(n))),
            _ => None,
        }
    }
}
