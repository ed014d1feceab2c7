//! The cycle mapping of DCQCN's reaction-point model, and the RTL stepped by hand with the
//! model's types, so that a test can run both side by side.
//!
//! **One cycle** (the network's order: a CNP arrives in phase 1, the NIC's timers and its
//! packet start are phase 2; `dcqcn::model`, "Rules"): for every flow its alpha timer, then
//! a flow's CNP (at most one per port), then every flow's rate timer, then a packet start
//! (at most one per port), at the cycle's `now`. The outputs that describe the state (`rc`,
//! `rt`, `alpha`, `eligible`, `limited`) are those at the cycle's start; `early` is of the
//! cycle. A synchronous reset wins over the events of its cycle (they are ignored) and
//! starts the model afresh in the next cycle: every flow `Flow::default()`.
//! [`Port`] is the model run so; [`DcqcnFlowStepper`] and [`DcqcnFlowsStepper`] are the
//! RTL.

use super::dcqcn_flow::DcqcnFlow;
use super::dcqcn_flows::DcqcnFlows;
use super::dcqcn_slot::SlotState;
use super::model::{Flow, Params};
use rust_hdl::prelude::*;

/// A cycle's events for the flows of a port.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Events {
    /// A CNP of flow `.0`.
    pub cnp: Option<usize>,
    /// A packet of `.1` flits of flow `.0` starts.
    pub start: Option<(usize, u32)>,
}

/// What a port's flows show in a cycle.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outputs {
    /// Each flow's current rate, target rate and alpha at the cycle's start.
    pub rc: Vec<u16>,
    pub rt: Vec<u16>,
    pub alpha: Vec<u16>,
    /// Bit i: flow i may start a packet.
    pub eligible: u64,
    /// Bit i: flow i is below the line rate.
    pub limited: u64,
    /// The start came before its flow's rate limiter allowed it.
    pub early: bool,
}

/// The model of one NIC port: its constants and its flows.
#[derive(Clone, Debug)]
pub struct Port {
    pub p: Params,
    pub flows: Vec<Flow>,
}

impl Port {
    /// `n` flows as after a reset.
    pub fn new(p: Params, n: usize) -> Port {
        Port {
            p,
            flows: vec![Flow::default(); n],
        }
    }

    /// Cycle `now` with its reset and events (module doc).
    pub fn cycle(&mut self, now: u64, reset: bool, ev: Events) -> Outputs {
        let mut o = Outputs {
            rc: self.flows.iter().map(|f| f.rc).collect(),
            rt: self.flows.iter().map(|f| f.rt).collect(),
            alpha: self.flows.iter().map(|f| f.alpha).collect(),
            ..Default::default()
        };
        for (i, f) in self.flows.iter().enumerate() {
            o.eligible |= (f.eligible() as u64) << i;
            o.limited |= (f.limited as u64) << i;
        }
        if reset {
            self.flows.iter_mut().for_each(|f| *f = Flow::default());
            return o;
        }
        for (i, f) in self.flows.iter_mut().enumerate() {
            let start = ev.start.filter(|s| s.0 == i).map(|s| s.1);
            let s = f.cycle(&self.p, now, ev.cnp == Some(i), start);
            o.early |= s.early;
        }
        o
    }
}

/// The registers of the model's flow that the RTL's slot holds.
pub fn slot_state(f: &Flow) -> SlotState {
    SlotState {
        rc: f.rc,
        rt: f.rt,
        alpha: f.alpha,
        t: f.t,
        bc: f.bc,
        bytes: f.bytes,
        deficit: f.deficit,
        limited: f.limited,
    }
}

/// `DcqcnFlow` stepped by hand: inputs change with the falling edge and settle before the
/// rising edge. Registers power up at 0: step it once with `reset` first.
pub struct DcqcnFlowStepper {
    pub uut: Box<DcqcnFlow>,
}

impl DcqcnFlowStepper {
    /// The block for `p`, at power-up.
    pub fn new(p: &Params) -> Self {
        let mut uut = Box::new(DcqcnFlow::new(p));
        uut.connect_all();
        check_all(uut.as_ref()).expect("DcqcnFlow fails rust-hdl's connection checks");
        uut.clock.next = Clock { clk: true };
        assert!(simulate(uut.as_mut(), 100), "the block did not settle");
        DcqcnFlowStepper { uut }
    }

    /// One cycle of flow 0: `reset` and the events. Returns the cycle's outputs (one flow),
    /// then advances the clock.
    pub fn step(&mut self, reset: bool, ev: Events) -> Outputs {
        let u = self.uut.as_mut();
        u.clock.next = Clock { clk: false };
        u.reset.next = reset;
        u.cnp.next = ev.cnp.is_some();
        u.start.next = ev.start.is_some();
        u.flits.next = (ev.start.map_or(0, |s| s.1) as u64).into();
        assert!(simulate(u, 100), "the block did not settle");
        let u = self.uut.as_ref();
        let out = Outputs {
            rc: vec![u.rc.val().index() as u16],
            rt: vec![u.rt.val().index() as u16],
            alpha: vec![u.alpha.val().index() as u16],
            eligible: u.eligible.val() as u64,
            limited: u.limited.val() as u64,
            early: u.err_early.val(),
        };
        let u = self.uut.as_mut();
        u.clock.next = Clock { clk: true };
        assert!(simulate(u, 100), "the block did not settle");
        out
    }

    /// The flow's registers now.
    pub fn registers(&self) -> SlotState {
        self.uut.slot.state()
    }
}

/// `DcqcnFlows` stepped by hand, like [`DcqcnFlowStepper`].
pub struct DcqcnFlowsStepper<const N: usize, const A: usize> {
    pub uut: Box<DcqcnFlows<N, A>>,
}

impl<const N: usize, const A: usize> DcqcnFlowsStepper<N, A> {
    /// The block for `p`, at power-up.
    pub fn new(p: &Params) -> Self {
        let mut uut = Box::new(DcqcnFlows::new(p));
        uut.connect_all();
        check_all(uut.as_ref()).expect("DcqcnFlows fails rust-hdl's connection checks");
        uut.clock.next = Clock { clk: true };
        assert!(simulate(uut.as_mut(), 100), "the block did not settle");
        DcqcnFlowsStepper { uut }
    }

    /// One cycle: `reset` and the events. Returns the cycle's outputs with each flow's
    /// rates and alpha read from its registers, then advances the clock.
    pub fn step(&mut self, reset: bool, ev: Events) -> Outputs {
        let u = self.uut.as_mut();
        u.clock.next = Clock { clk: false };
        u.reset.next = reset;
        u.cnp.next = ev.cnp.is_some();
        u.cnp_flow.next = (ev.cnp.unwrap_or_default() as u64).into();
        let (si, flits) = ev.start.unwrap_or_default();
        u.start.next = ev.start.is_some();
        u.start_flow.next = (si as u64).into();
        u.flits.next = (flits as u64).into();
        assert!(simulate(u, 100), "the block did not settle");
        let u = self.uut.as_ref();
        let st: Vec<SlotState> = u.slots.iter().map(|s| s.state()).collect();
        let out = Outputs {
            rc: st.iter().map(|s| s.rc).collect(),
            rt: st.iter().map(|s| s.rt).collect(),
            alpha: st.iter().map(|s| s.alpha).collect(),
            eligible: u.eligible.val().index() as u64,
            limited: u.limited.val().index() as u64,
            early: u.err_early.val(),
        };
        let u = self.uut.as_mut();
        u.clock.next = Clock { clk: true };
        assert!(simulate(u, 100), "the block did not settle");
        out
    }

    /// Every flow's registers now.
    pub fn registers(&self) -> Vec<SlotState> {
        self.uut.slots.iter().map(|s| s.state()).collect()
    }
}
