//! No congestion control: every NIC sends a ready flit whenever it has a credit (the plain
//! credit check, `net::CreditGate`). The `off` row of every comparison.

use super::{Plugin, RunOpts};
use crate::error::FieldError;
use crate::net::scheme::{CreditGate, Scheme};
use crate::net::{BuildCtx, NetError};
use serde::{Deserialize, Serialize};

/// The plug-in (registry entry `none`).
pub struct NoCc;

/// `none` has no keys.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NoneConfig {}

impl Plugin for NoCc {
    const KIND: &'static str = "none";
    const ABOUT: &'static str = "no congestion control: a flit leaves whenever it has a credit";
    type Config = NoneConfig;
    type State = NoneState;

    fn validate(_cfg: &NoneConfig, _prefix: &str, _errs: &mut Vec<FieldError>) {}

    fn build(_cfg: &NoneConfig, ctx: &BuildCtx, _opts: &RunOpts) -> Result<NoneState, NetError> {
        Ok(NoneState(CreditGate::new(
            ctx.nodes,
            ctx.cfg.buffer_flits as u16,
        )))
    }

    fn label(_cfg: &NoneConfig) -> String {
        "off".to_string()
    }

    fn active(_cfg: &NoneConfig) -> bool {
        false
    }
}

/// Every NIC's credit counter.
pub struct NoneState(CreditGate);

impl Scheme for NoneState {
    credit_gate_hooks!(0);

    /// The credit gate keeps one counter per NIC.
    fn nic_parallel(&self) -> bool {
        true
    }
}
