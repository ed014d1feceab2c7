//! The self-tuned global throttle of seed 003 (Thottethodi, Lebeck and Mukherjee): every
//! node stops starting new packets while its estimate of the network-wide count of full
//! virtual-channel buffers exceeds a threshold, and a hill-climbing tuner sets the
//! threshold from the delivered throughput. docs/cc/selftuned.md has every choice the
//! paper leaves open.
//!
//! - `config`: the keys, named after the paper's constants (defaults = the paper's);
//! - the node's logic (estimator, gate, tuner) is `pft_hdl::selftuned::model`, the
//!   reference model that the RTL is tested against: one copy stands for every node,
//!   since the side-band gives all nodes the same snapshot in the same cycle;
//! - the side-band here: every g cycles a snapshot of (full buffers now, flits delivered
//!   in the last g cycles) is taken, and it reaches every node g cycles later.

pub mod config;

pub use config::{Estimate, SelfTunedConfig};

use super::{Plugin, RunOpts};
use crate::error::FieldError;
use crate::net::scheme::{CreditGate, GateState, Global, Scheme};
use crate::net::{BuildCtx, NetConfig, NetError, Topology};
use pft_hdl::selftuned::model::{Outputs, SelfTuned, Snapshot};
use std::collections::VecDeque;

/// The plug-in (registry entry `selftuned`).
pub struct SelfTunedPlugin;

impl Plugin for SelfTunedPlugin {
    const KIND: &'static str = "selftuned";
    const ABOUT: &'static str =
        "self-tuned global throttle (seed 003): full-buffer count on a side-band, hill-climbed threshold";
    type Config = SelfTunedConfig;
    type State = SelfTunedState;
    const OUT_OF_RANGE: Option<(&'static str, &'static str)> = Some(("drop_percent", "0"));
    const PROBES_AXIS: &'static str = "full buffers";
    const PROBES_NOT_PLOTTED: &'static [&'static str] = &["inhibit"];

    fn validate(cfg: &SelfTunedConfig, prefix: &str, errs: &mut Vec<FieldError>) {
        errs.extend(cfg.errors(prefix));
    }

    fn validate_network(
        cfg: &SelfTunedConfig,
        net: &NetConfig,
        prefix: &str,
        errs: &mut Vec<FieldError>,
    ) {
        // (its NICs and switch-to-switch ports: a file's routing tables are not needed)
        let topo = Topology::shape(&net.topology);
        if let Err(e) = cfg.params_for(net, &topo, prefix) {
            errs.push(e);
        }
    }

    fn derived(cfg: &SelfTunedConfig, net: &NetConfig) -> Vec<(&'static str, u64)> {
        let Ok((p, _)) = cfg.params_for(net, &Topology::shape(&net.topology), "cc") else {
            return Vec::new();
        };
        super::left_out([
            ("gather_cycles", cfg.gather_cycles, p.g as u64),
            ("threshold", cfg.threshold, p.t_init as u64),
        ])
    }

    fn build(
        cfg: &SelfTunedConfig,
        ctx: &BuildCtx,
        _opts: &RunOpts,
    ) -> Result<SelfTunedState, NetError> {
        let (p, buffers) = cfg.params(ctx)?;
        let model = SelfTuned::new(p);
        Ok(SelfTunedState {
            gate: CreditGate::new(ctx.nodes, ctx.cfg.buffer_flits as u16),
            g: p.g as u64,
            buffers,
            pending: None,
            delivered_at: 0,
            out: model.outputs(),
            model,
            full_now: 0,
            inhibited_cycles: 0,
            tunings: 0,
        })
    }

    fn label(cfg: &SelfTunedConfig) -> String {
        cfg.describe()
    }

    /// The suite's small fat tree is no cube: g is given; a threshold of 0 makes the gate
    /// act as soon as a buffer fills.
    fn example() -> SelfTunedConfig {
        SelfTunedConfig {
            gather_cycles: Some(32),
            threshold: Some(0),
            ..Default::default()
        }
    }
}

/// The scheme in a network: the plain credit check at every NIC, one copy of the node
/// logic (all nodes hold the same), and the side-band's snapshot in flight.
pub struct SelfTunedState {
    gate: CreditGate,
    /// Gather duration, cycles.
    g: u64,
    /// Switch-to-switch buffers (lanes) in the network.
    buffers: u64,
    /// The snapshot taken at the last multiple of g, arriving at the next one.
    pending: Option<Snapshot>,
    /// Flits delivered up to the last snapshot.
    delivered_at: u64,
    model: SelfTuned,
    /// The node logic's outputs in this cycle.
    out: Outputs,
    /// Full buffers at the start of this cycle (the truth the estimate tracks).
    full_now: u64,
    inhibited_cycles: u64,
    tunings: u64,
}

impl SelfTunedState {
    /// The threshold in force.
    pub fn threshold(&self) -> u32 {
        self.out.threshold
    }
    /// New packets are held this cycle.
    pub fn inhibit(&self) -> bool {
        self.out.inhibit
    }
    /// Switch-to-switch buffers counted.
    pub fn buffers(&self) -> u64 {
        self.buffers
    }
    /// Gather duration, cycles.
    pub fn gather_cycles(&self) -> u64 {
        self.g
    }
}

impl Scheme for SelfTunedState {
    const FLOWS: bool = true;
    const WANTS_GLOBAL: bool = true;

    credit_gate_hooks!(gate);
    fn gate_state(&self, n: u32) -> GateState {
        GateState {
            c: self.used_credits(n),
            state: if self.out.inhibit { "inhibit" } else { "open" }.into(),
            reason: format!(
                "the global estimate {:.1} is above the threshold {}",
                self.out.estimate_g as f64 / self.g as f64,
                self.out.threshold
            ),
        }
    }

    /// The side-band and the node logic's cycle. A snapshot is taken at every multiple of
    /// g (full buffers now, flits delivered since the last one) and arrives g cycles later.
    fn cycle(&mut self, now: u64, g: &Global) {
        self.full_now = g.full_inputs;
        let arriving = if now.is_multiple_of(self.g) {
            let taken = Snapshot {
                full: g.full_inputs.min(config::MAX_BUFFERS) as u32,
                flits: (g.flits_delivered - self.delivered_at).min(u32::MAX as u64) as u32,
            };
            self.delivered_at = g.flits_delivered;
            self.pending.replace(taken)
        } else {
            None
        };
        let before = self.model.in_period;
        self.out = self.model.step(arriving);
        if arriving.is_some() && self.model.in_period == 0 && before + 1 == self.model.p.periods {
            self.tunings += 1;
        }
        self.inhibited_cycles += self.out.inhibit as u64;
    }

    /// Every node holds new packets while its estimate is above the threshold; a packet
    /// already started finishes.
    #[inline]
    fn may_start(&mut self, _n: u32, _now: u64, queued: &VecDeque<u32>) -> bool {
        !self.out.inhibit && !queued.is_empty()
    }
    #[inline]
    fn nic_congested(&self, _n: u32) -> bool {
        self.out.inhibit
    }

    fn counters(&self) -> Vec<(&'static str, u64)> {
        vec![
            ("inhibited_cycles", self.inhibited_cycles),
            ("tunings", self.tunings),
            ("threshold", self.model.t as u64),
            ("buffers", self.buffers),
        ]
    }

    fn probes(&self) -> Vec<(&'static str, f64)> {
        vec![
            ("threshold", self.out.threshold as f64),
            ("estimate", self.out.estimate_g as f64 / self.g as f64),
            ("full_buffers", self.full_now as f64),
            ("inhibit", self.out.inhibit as u8 as f64),
        ]
    }
}
