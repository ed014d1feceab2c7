//! Congestion control as one part of the network, with three seams:
//!
//! - **flit gate** at every NIC's injection port: the PFT block (`net::pft::PftEngine`).
//!   Every NIC has one; it is the NIC's link credit counter, and it throttles only when a
//!   `pft` configuration enables it (disabled, it passes any ready flit that has a credit);
//! - **packet-level flow control** at the NIC (`FlowCtl`, crate-private): which destination queue may
//!   start its next packet, and the notifications a NIC sends and receives;
//! - **switch marking** (`Marking`, crate-private): what a switch output writes into the packets that
//!   leave it.
//!
//! A scheme is one [`CcConfig`] variant and fills the seams it needs: `none` none of them,
//! `pft` the flit gate, `ibcc` the flow control (per-flow injection rate delay driven by
//! BECNs) and the marking (FECN at congested outputs). A further scheme is a new folder
//! beside `ibcc/` plus one variant here and in each seam it uses. docs/ibcc.md documents
//! IB CC; docs/behaviour.md the PFT block.

pub mod ibcc;

use crate::net::PftConfig;
use serde::{Deserialize, Serialize};

pub use ibcc::IbccConfig;

/// The congestion control of one run: every NIC and switch runs the same scheme.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum CcConfig {
    /// No congestion control: NICs send whenever a flit has a credit.
    None,
    /// PFT at every NIC with these registers.
    Pft(PftConfig),
    /// InfiniBand congestion control (FECN/BECN, CCT), seed 002.
    Ibcc(IbccConfig),
}

impl CcConfig {
    /// The registers of every NIC's PFT block: these for `pft`, disabled otherwise.
    pub fn pft(&self) -> PftConfig {
        match self {
            CcConfig::Pft(p) => *p,
            _ => PftConfig::disabled(),
        }
    }

    /// True when the scheme acts (a `pft` entry with `enable = false` does not).
    pub fn active(&self) -> bool {
        match self {
            CcConfig::None => false,
            CcConfig::Pft(p) => p.enabled(),
            CcConfig::Ibcc(_) => true,
        }
    }

    /// The IB CC parameters, for `ibcc`.
    pub fn ibcc(&self) -> Option<&IbccConfig> {
        match self {
            CcConfig::Ibcc(c) => Some(c),
            _ => None,
        }
    }

    /// Short name of the scheme: `none`, `pft` or `ibcc`.
    pub fn kind(&self) -> &'static str {
        match self {
            CcConfig::None => "none",
            CcConfig::Pft(_) => "pft",
            CcConfig::Ibcc(_) => "ibcc",
        }
    }

    /// Check the parameters; errors name the field (prefixed `prefix.`) and its range.
    pub fn validate(&self, prefix: &str) -> Result<(), crate::error::FieldError> {
        match self {
            // A PftConfig holds only values in their fields' ranges.
            CcConfig::None | CcConfig::Pft(_) => Ok(()),
            CcConfig::Ibcc(c) => c.validate(prefix),
        }
    }
}

impl From<PftConfig> for CcConfig {
    fn from(p: PftConfig) -> Self {
        CcConfig::Pft(p)
    }
}

/// NIC packet-level flow control of all NICs (the seam's NIC half).
pub(crate) enum FlowCtl {
    /// Any queued destination may start a packet (round robin).
    None,
    Ibcc(Box<ibcc::IbccNics>),
}

/// Switch output marking of all switches (the seam's switch half).
pub(crate) enum Marking {
    None,
    Ibcc(Box<ibcc::IbccSwitches>),
}
