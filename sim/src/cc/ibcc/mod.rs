//! InfiniBand congestion control (IBA 1.2.1 Annex A10) as the IB seed (002) describes it:
//! switches set FECN on packets leaving a congested output, the destination returns a BECN
//! in a congestion notification packet (CNP), and the source raises the flow's index into
//! a table of injection rate delays (IRD); a timer lowers every index again.
//!
//! - `IbccConfig`: the parameters, named after the seed's Table I (defaults = Table I);
//! - `nic`: source and destination NIC logic (per-flow CCTI, IRD, CCTI timer, CNPs); the
//!   source's rules are `pft_hdl::ibcc::model`, which the RTL is tested against;
//! - `switch`: the congestion state of each switch output and FECN marking.
//!
//! Every choice the seed leaves open is in docs/cc/ibcc.md.

pub mod config;
mod network;
pub mod nic;
pub mod switch;

pub use config::{IbccConfig, Marking, VictimMask, MAX_CCTI, TIMER_UNIT_NS};
pub use nic::{IbccNicStats, IbccNics};
/// The IRD of a CCT entry: the source's rules are `pft_hdl::ibcc::model`'s (nic.rs).
pub use pft_hdl::ibcc::model::ird;
pub use switch::IbccSwitches;

use super::{Plugin, RunOpts};
use crate::error::FieldError;
use crate::net::scheme::{Arrival, Control, CreditGate, Departure, InputAt, OutputAt, Scheme};
use crate::net::{BuildCtx, NetConfig, NetError, Peer};
use std::collections::VecDeque;

/// The salt of the NICs' CCTI timer phases (`BuildCtx::nic_seed`).
const TIMER_SALT: u64 = 0x1bcc;

/// The cycle of NIC `nic`'s first CCTI timer expiry in a run with seed `seed` and a timer
/// of `period` cycles: each NIC's phase is its own, so the NICs' timers do not expire in
/// lock-step (`IbccNics::new`; `pftsim verilog` exports it).
pub fn timer_first(seed: u64, nic: u32, period: u64) -> u64 {
    nic::first_expiry(crate::net::nic_seed(seed, nic, TIMER_SALT), period)
}

/// The scheme bit a switch sets in a data packet leaving a congested output.
pub const FECN: u8 = 1;
/// Under `marking = "validated"`: MVCM's input mark, which only a validation at an output
/// queue turns into FECN.
pub const MB: u8 = 2;

/// The plug-in (registry entry `ibcc`).
pub struct Ibcc;

impl Plugin for Ibcc {
    const KIND: &'static str = "ibcc";
    const ABOUT: &'static str = "InfiniBand CC (FECN/BECN, CCT; seed 002, Table I defaults)";
    type Config = IbccConfig;
    type State = IbccState;
    const OUT_OF_RANGE: Option<(&'static str, &'static str)> = Some(("threshold", "16"));

    fn validate(cfg: &IbccConfig, prefix: &str, errs: &mut Vec<FieldError>) {
        errs.extend(cfg.errors(prefix));
    }

    fn validate_network(
        cfg: &IbccConfig,
        net: &NetConfig,
        prefix: &str,
        errs: &mut Vec<FieldError>,
    ) {
        if cfg.marking == Marking::Validated && net.speedup.is_none() {
            errs.push(crate::net::config::bad(
                "network.speedup",
                "not set",
                format!("{prefix} (ibcc, marking = \"validated\") validates packets at output queues: set network.speedup (1..=8, the CIOQ switch)"),
            ));
        }
    }

    fn derived(cfg: &IbccConfig, _net: &NetConfig) -> Vec<(&'static str, u64)> {
        // validated marking's thresholds left out: MVCM's (`validated_levels`)
        if cfg.marking != Marking::Validated {
            return Vec::new();
        }
        super::left_out([
            (
                "in_threshold_percent",
                cfg.in_threshold_percent,
                config::VALIDATED_PERCENT.0,
            ),
            (
                "out_threshold_percent",
                cfg.out_threshold_percent,
                config::VALIDATED_PERCENT.1,
            ),
        ])
    }

    fn build(cfg: &IbccConfig, ctx: &BuildCtx, _opts: &RunOpts) -> Result<IbccState, NetError> {
        let victim = ctx
            .topo
            .switches()
            .iter()
            .map(|spec| {
                let mut m = 0u64;
                for (p, peer) in spec.ports.iter().enumerate() {
                    let set = match cfg.victim_mask {
                        VictimMask::NicPorts => matches!(peer, Peer::Nic(_)),
                        VictimMask::All => *peer != Peer::Unused,
                        VictimMask::None => false,
                    };
                    m |= (set as u64) << p;
                }
                m
            })
            .collect();
        let net = ctx.cfg;
        let validated = cfg.validated_levels(
            net.buffer_flits,
            net.out_buffer_flits.unwrap_or(net.buffer_flits),
        );
        // validated marking: the switches keep their counts but never mark on their own
        let sw_cfg = IbccConfig {
            threshold: if validated.is_some() {
                0
            } else {
                cfg.threshold
            },
            ..cfg.clone()
        };
        Ok(IbccState {
            validated,
            input_marked: 0,
            gate: CreditGate::new(ctx.nodes, net.buffer_flits as u16),
            nics: IbccNics::new(cfg, ctx.nodes, net.cycle_ns(), |i| {
                ctx.nic_seed(i, TIMER_SALT)
            }),
            switches: IbccSwitches::new(
                &sw_cfg,
                ctx.ports,
                victim,
                net.input_port_flits(),
                net.mtu_flits(),
                net.flit_bytes,
            ),
        })
    }

    fn label(cfg: &IbccConfig) -> String {
        cfg.describe()
    }
}

/// IB CC in a network: the plain credit check at every NIC's injection port, the NICs'
/// flows (CCTI, IRD, CNPs) and the switches' FECN marking.
pub struct IbccState {
    /// `marking = "validated"`: the input-buffer and output-queue levels (flits).
    validated: Option<(u32, u32)>,
    /// Heads marked at input buffers (MB; validated marking only).
    pub input_marked: u64,
    gate: CreditGate,
    pub nics: IbccNics,
    pub switches: IbccSwitches,
}

impl IbccState {
    /// CCTI of flow `src -> dst` now.
    pub fn ccti(&self, src: u32, dst: u32) -> u16 {
        self.nics.ccti(src, dst)
    }

    /// Packets marked with FECN so far, all switches.
    pub fn fecn_marked(&self) -> u64 {
        self.switches.marked.iter().sum()
    }
}

impl Scheme for IbccState {
    const MARKS: bool = true;
    const MARKS_ON_LANES: bool = true;
    const FLOWS: bool = true;

    credit_gate_hooks!(gate);

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

    /// A CNP: one flit to the marked packet's source.
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
    /// A CNP's arrival is the BECN of flow `at -> src`; a data packet with FECN queues a
    /// CNP to its source.
    #[inline]
    fn arrived(&mut self, at: u32, a: &Arrival) {
        if a.ack {
            // the network's per-packet ACKs are not IB CC's: its BECN is the CNP
            return;
        }
        if a.control {
            self.nics.becn(at as usize, a.src);
        } else if a.bits & FECN != 0 {
            self.nics.fecn(at as usize, a.src);
        }
    }

    /// MB under validated marking: a data head arriving at an input buffer over its level.
    #[inline]
    fn head_arrived(&mut self, i: &InputAt) -> u8 {
        match self.validated {
            Some((in_level, _)) if !i.control && i.occupancy + i.len as u32 > in_level => {
                self.input_marked += 1;
                MB
            }
            _ => 0,
        }
    }
    #[inline]
    fn queued(&mut self, o: &OutputAt) {
        self.switches
            .arrive(o.switch as usize, o.port, o.global, o.free);
    }
    #[inline]
    fn unqueued(&mut self, o: &OutputAt) {
        self.switches.leave(o.switch as usize, o.port, o.global);
    }
    #[inline(always)] // called from two switch models; keep it inlined into both (measured: out of line costs IB CC 5 % instructions)
    fn departs(&mut self, o: &OutputAt, d: &Departure) -> u8 {
        // under validated marking the switches' own level is off, so `mark` is false
        let mark = self.switches.depart(
            o.switch as usize,
            o.port,
            o.global,
            d.head,
            d.len as u32,
            !d.control,
        );
        if let Some((_, out_level)) = self.validated {
            // MVCM's validation: once, at the first saturated output queue
            if d.head && !d.control && d.bits & (MB | FECN) == MB && o.queue > out_level {
                self.switches.marked[o.global] += 1;
                return FECN;
            }
        }
        if mark {
            FECN
        } else {
            0
        }
    }
    #[inline]
    fn switch_done(&mut self, s: u32, free: impl Fn(u32) -> u32) {
        self.switches.commit(s as usize, free);
    }
    fn queued_for(&self, gp: usize) -> Option<u32> {
        Some(self.switches.queued(gp))
    }

    fn nic_counters(&self, n: u32) -> Vec<(&'static str, u64)> {
        let s = &self.nics.stats[n as usize];
        vec![
            ("fecn_received", s.fecn_received),
            ("cnps_sent", s.cnps_sent),
            ("becns_received", s.becns_received),
            ("ccti_decrements", s.ccti_decrements),
        ]
    }
    fn counters(&self) -> Vec<(&'static str, u64)> {
        if self.validated.is_some() {
            vec![
                ("input_marked", self.input_marked),
                ("fecn_marked", self.fecn_marked()),
            ]
        } else {
            vec![("fecn_marked", self.fecn_marked())]
        }
    }
    /// FECN is the mark the source acts on (MB alone is not).
    fn marked(&self, bits: u8) -> bool {
        bits & FECN != 0
    }
}
