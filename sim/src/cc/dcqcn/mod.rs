//! DCQCN (Zhu et al., "Congestion Control for Large-Scale RDMA Deployments", SIGCOMM 2015),
//! the congestion control of RoCE NICs: switches (CP) mark ECN on packets by the occupancy
//! of the output's queue (RED: Kmin, Kmax, Pmax), the destination NIC (NP) returns at most
//! one CNP per flow per interval, and the source NIC (RP) runs a per-flow rate limiter: a
//! CNP cuts the rate by alpha/2, and fast recovery, additive and hyper increase raise it
//! again, driven by a timer and a byte counter.
//!
//! - `config`: the keys (the paper's values in its units) and their conversion to flits and
//!   cycles;
//! - `switch`: the CP (RED marking by the count IB CC keeps of the flits queued for an
//!   output);
//! - `nic`: the NP and RP, unit tests of every rule.
//!
//! Every choice the paper leaves open is in docs/cc/dcqcn.md.

pub mod config;
pub mod nic;
pub mod switch;

pub use config::{DcqcnConfig, Derived};
pub use nic::{DcqcnNicStats, DcqcnNics, Flow};
pub use switch::DcqcnSwitches;

use super::{Plugin, RunOpts};
use crate::error::FieldError;
use crate::net::scheme::{Arrival, Control, CreditGate, Departure, Global, OutputAt, Scheme};
use crate::net::{BuildCtx, NetConfig, NetError};
use std::collections::VecDeque;

/// The scheme bit a switch sets in a data packet: ECN's CE.
pub const ECN: u8 = 1;

/// The salt of the switches' random sources (`BuildCtx::nic_seed` of the switch index).
const SWITCH_SALT: u64 = 0xdc9c_5e1d;

/// The plug-in (registry entry `dcqcn`).
pub struct Dcqcn;

impl Plugin for Dcqcn {
    const KIND: &'static str = "dcqcn";
    const ABOUT: &'static str =
        "DCQCN: RED/ECN marking, CNPs, per-flow rate limiter (Zhu et al., SIGCOMM 2015)";
    type Config = DcqcnConfig;
    type State = DcqcnState;
    const OUT_OF_RANGE: Option<(&'static str, &'static str)> = Some(("pmax", "1.5"));
    const PROBES_AXIS: &'static str = "flows; % of line rate; flits";

    fn validate(cfg: &DcqcnConfig, prefix: &str, errs: &mut Vec<FieldError>) {
        errs.extend(cfg.errors(prefix));
    }

    fn validate_network(
        cfg: &DcqcnConfig,
        net: &NetConfig,
        prefix: &str,
        errs: &mut Vec<FieldError>,
    ) {
        if let Err(e) = cfg.derive(net, prefix) {
            errs.extend(e);
        }
    }

    fn derived(cfg: &DcqcnConfig, net: &NetConfig) -> Vec<(&'static str, u64)> {
        let (kmin, kmax) = cfg.thresholds_on(net);
        let mut v = super::left_out([
            ("kmin_bytes", cfg.kmin_bytes, kmin),
            ("kmax_bytes", cfg.kmax_bytes, kmax),
        ]);
        if cfg.pmax == 0.0 {
            // no marks between Kmin and Kmax: Kmin is not used (and refused when set)
            v.retain(|(k, _)| *k != "kmin_bytes");
        }
        v
    }

    fn build(cfg: &DcqcnConfig, ctx: &BuildCtx, _opts: &RunOpts) -> Result<DcqcnState, NetError> {
        let net = ctx.cfg;
        let d = cfg
            .derive(net, "cc")
            .map_err(|mut e| NetError::Config(e.remove(0)))?;
        let switches = ctx.topo.switches().len() as u32;
        Ok(DcqcnState {
            gate: CreditGate::new(ctx.nodes, net.buffer_flits as u16),
            nics: DcqcnNics::new(d, ctx.nodes),
            switches: DcqcnSwitches::new(
                &d,
                ctx.ports,
                (0..switches).map(|s| ctx.nic_seed(s, SWITCH_SALT)),
            ),
            now: 0,
        })
    }

    fn label(cfg: &DcqcnConfig) -> String {
        cfg.describe()
    }
}

/// DCQCN in a network: the plain credit check at every NIC's injection port, the NICs'
/// NP and RP, and the switches' CP.
pub struct DcqcnState {
    gate: CreditGate,
    pub nics: DcqcnNics,
    pub switches: DcqcnSwitches,
    /// The cycle now (the global hook's), for the times of arrivals.
    now: u64,
}

impl DcqcnState {
    /// ECN marks so far, all switches.
    pub fn ecn_marked(&self) -> u64 {
        self.switches.marked.iter().sum()
    }
}

impl Scheme for DcqcnState {
    const MARKS: bool = true;
    const MARKS_ON_LANES: bool = true;
    const FLOWS: bool = true;

    credit_gate_hooks!(gate);

    #[inline]
    fn cycle(&mut self, now: u64, _g: &Global) {
        self.now = now;
    }
    #[inline]
    fn nic_tick(&mut self, n: u32, now: u64) {
        self.nics.tick(n as usize, now);
    }
    #[inline]
    fn may_start(&mut self, n: u32, now: u64, queued: &VecDeque<u32>) -> bool {
        self.nics.ready(n as usize, now, queued)
    }
    #[inline]
    fn eligible(&self, n: u32, dst: u32, now: u64) -> bool {
        self.nics.eligible(n as usize, dst, now)
    }
    #[inline]
    fn queue_opened(&mut self, n: u32, _dst: u32) {
        self.nics.queue_opened(n as usize);
    }
    #[inline]
    fn packet_started(&mut self, n: u32, dst: u32, flits: u32, now: u64) {
        self.nics.started(n as usize, dst, flits, now);
    }
    #[inline]
    fn nic_congested(&self, n: u32) -> bool {
        self.nics.congested(n as usize)
    }

    /// A CNP: one flit to the marked packets' source.
    #[inline]
    fn take_control(&mut self, n: u32) -> Option<Control> {
        self.nics.take_cnp(n as usize).map(|dst| Control {
            dst,
            flits: 1,
            bits: 0,
        })
    }
    #[inline]
    fn control_waiting(&self, n: u32) -> bool {
        self.nics.cnps_pending(n as usize) > 0
    }
    fn controls_pending(&self) -> usize {
        self.nics.cnps_pending_total()
    }
    /// A CNP's arrival cuts the rate of flow `at -> src`; a data packet with ECN set is
    /// the NP's input.
    #[inline]
    fn arrived(&mut self, at: u32, a: &Arrival) {
        if a.ack {
            return; // the network's per-packet ACKs are not DCQCN's: its feedback is the CNP
        }
        if a.control {
            self.nics.cnp(at as usize, a.src, self.now);
        } else if a.bits & ECN != 0 {
            self.nics.marked(at as usize, a.src, self.now);
        }
    }

    #[inline]
    fn queued(&mut self, o: &OutputAt) {
        self.switches.arrive(o.global);
    }
    #[inline]
    fn unqueued(&mut self, o: &OutputAt) {
        self.switches.leave(o.global);
    }
    #[inline]
    fn departs(&mut self, o: &OutputAt, d: &Departure) -> u8 {
        if self
            .switches
            .depart(o.switch as usize, o.global, d.head, !d.control)
        {
            ECN
        } else {
            0
        }
    }
    fn queued_for(&self, gp: usize) -> Option<u32> {
        Some(self.switches.queued(gp))
    }

    fn nic_counters(&self, n: u32) -> Vec<(&'static str, u64)> {
        let s = &self.nics.stats[n as usize];
        vec![
            ("ecn_received", s.ecn_received),
            ("cnps_sent", s.cnps_sent),
            ("cnps_received", s.cnps_received),
            ("rate_increases", s.rate_increases),
        ]
    }
    fn counters(&self) -> Vec<(&'static str, u64)> {
        vec![("ecn_marked", self.ecn_marked())]
    }
    fn probes(&self) -> Vec<(&'static str, f64)> {
        let (count, mean) = self.nics.limited_summary();
        vec![
            ("limited_flows", count as f64),
            ("limited_rate_pct", mean * 100.0),
            ("queue_max_flits", self.switches.max_queued() as f64),
        ]
    }
}
