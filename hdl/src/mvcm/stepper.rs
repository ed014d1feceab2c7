//! The cycle mapping of MVCM's event-ordered model, and the RTL stepped by hand with the
//! model's types, so that a test can run both side by side.
//!
//! **One cycle** (the model's open point 9): the flow's ACK (at most one per cycle), then
//! the fast reset, then the injection, all at the cycle's `now`. The outputs that describe
//! the state (`can_inject`, `dw`, `out`, the slots, `wait = next_ok - now`) are those at
//! the cycle's start, before its events; the error flags are those of the cycle's events.
//! A synchronous reset wins over the events of its cycle (they are ignored, no error) and
//! makes the next cycle's state `Flow::new`. [`model_cycle`] is the model run so;
//! [`MvcmStepper`] is the RTL, giving the same [`Outputs`].
//!
//! For a block of many flows ([`MvcmFlows`]) the cycle has at most one ACK, one fast reset
//! and one injection, each naming its flow ([`FlowsEvents`]); [`model_flows_cycle`] applies
//! them to a `Vec<Flow>` in that order, and [`MvcmFlowsStepper`] steps the RTL.

use super::model::{Flow, FlowError, Params};
use super::mvcm_flow::MvcmFlow;
use super::mvcm_flows::MvcmFlows;
use rust_hdl::prelude::*;

/// A cycle's events for one flow.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Events {
    /// An ACK of the flow with its (MB, VB) bits.
    pub ack: Option<(bool, bool)>,
    /// The host puts a packet into the flow's empty queue.
    pub fast_reset: bool,
    /// A packet of the flow asks to start.
    pub inject: bool,
}

/// What one flow shows in a cycle: its state at the cycle's start and the errors of the
/// cycle's events.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Outputs {
    /// `can_inject(now)`.
    pub can_inject: bool,
    pub dw: u8,
    pub out: u8,
    /// `ws_exp`.
    pub ws: Option<u8>,
    /// `next_ok - now`, at least 0.
    pub wait: u64,
    /// The ACK was stray.
    pub stray: bool,
    /// The ACK had MB = 0, VB = 1.
    pub marks: bool,
    /// The injection was refused.
    pub not_eligible: bool,
}

impl Outputs {
    /// The state part of `f` at cycle `now` (no errors).
    pub fn of_flow(f: &Flow, now: u64) -> Outputs {
        Outputs {
            can_inject: f.can_inject(now),
            dw: f.dw,
            out: f.out,
            ws: f.ws_exp,
            wait: f.next_ok.saturating_sub(now),
            ..Default::default()
        }
    }
}

/// The model `f` run through cycle `now` with the RTL's cycle mapping (module doc).
pub fn model_cycle(f: &mut Flow, p: &Params, now: u64, reset: bool, ev: Events) -> Outputs {
    let mut o = Outputs::of_flow(f, now);
    if reset {
        *f = Flow::new(p);
        return o;
    }
    if let Some((mb, vb)) = ev.ack {
        match f.on_ack(p, mb, vb) {
            Err(FlowError::StrayAck) => o.stray = true,
            Err(FlowError::ImpossibleMarks) => o.marks = true,
            _ => {}
        }
    }
    if ev.fast_reset {
        f.on_enqueue_into_empty_queue(p);
    }
    if ev.inject && f.on_inject(p, now).is_err() {
        o.not_eligible = true;
    }
    o
}

/// `MvcmFlow` stepped by hand: inputs change with the falling edge and settle before the
/// rising edge (no delta-cycle race). Powers up as `Flow::new` (no reset cycle needed).
pub struct MvcmStepper<const D: usize, const E: usize, const T: usize> {
    pub uut: Box<MvcmFlow<D, E, T>>,
    pub p: Params,
}

impl<const D: usize, const E: usize, const T: usize> MvcmStepper<D, E, T> {
    /// The block for `p`, at power-up.
    pub fn new(p: Params) -> Self {
        let mut uut = Box::new(MvcmFlow::new(&p));
        uut.connect_all();
        check_all(uut.as_ref()).expect("MvcmFlow fails rust-hdl's connection checks");
        uut.clock.next = Clock { clk: true };
        assert!(simulate(uut.as_mut(), 100), "the block did not settle");
        MvcmStepper { uut, p }
    }

    /// One cycle: `reset` and the events. Returns the cycle's outputs, then advances the
    /// clock.
    pub fn step(&mut self, reset: bool, ev: Events) -> Outputs {
        let u = self.uut.as_mut();
        u.clock.next = Clock { clk: false };
        u.reset.next = reset;
        u.ack_valid.next = ev.ack.is_some();
        let (mb, vb) = ev.ack.unwrap_or_default();
        u.ack_mb.next = mb;
        u.ack_vb.next = vb;
        u.fast_reset.next = ev.fast_reset;
        u.inject.next = ev.inject;
        assert!(simulate(u, 100), "the block did not settle");
        let out = self.outputs();
        let u = self.uut.as_mut();
        u.clock.next = Clock { clk: true };
        assert!(simulate(u, 100), "the block did not settle");
        out
    }

    /// The outputs now.
    pub fn outputs(&self) -> Outputs {
        let u = self.uut.as_ref();
        Outputs {
            can_inject: u.can_inject.val(),
            dw: u.dw.val().index() as u8,
            out: u.out.val().index() as u8,
            ws: u.ws.val().then(|| u.e.val().index() as u8),
            wait: u.wait_cycles.val().index() as u64,
            stray: u.err_stray.val(),
            marks: u.err_marks.val(),
            not_eligible: u.err_not_eligible.val(),
        }
    }

    /// The registers, read from the blocks (not through the ports), as an `Outputs`
    /// without errors: `can_inject` is recomputed from them.
    pub fn registers(&self) -> Outputs {
        let u = self.uut.as_ref();
        let (dw, out) = u.window.state();
        let wait = u.timer.state();
        Outputs {
            can_inject: out < dw && wait == 0,
            dw,
            out,
            ws: u.waiting.state(),
            wait,
            ..Default::default()
        }
    }
}

/// A cycle's events for a block of flows: at most one of each, naming its flow.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FlowsEvents {
    /// An ACK of flow `.0` with its (MB, VB) bits.
    pub ack: Option<(usize, bool, bool)>,
    /// A fast reset of flow `.0`.
    pub fast_reset: Option<usize>,
    /// A packet of flow `.0` asks to start.
    pub inject: Option<usize>,
}

/// What a block of flows shows in a cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FlowsOutputs {
    /// Bit i: flow i may start a packet (at the cycle's start).
    pub can_inject: u64,
    pub stray: bool,
    pub marks: bool,
    pub not_eligible: bool,
}

/// The flows `fs` run through cycle `now` with the cycle mapping of one flow (the ACK,
/// then the fast reset, then the injection; each names its flow).
pub fn model_flows_cycle(
    fs: &mut [Flow],
    p: &Params,
    now: u64,
    reset: bool,
    ev: FlowsEvents,
) -> FlowsOutputs {
    let mut o = FlowsOutputs::default();
    for (i, f) in fs.iter().enumerate() {
        o.can_inject |= (f.can_inject(now) as u64) << i;
    }
    if reset {
        fs.iter_mut().for_each(|f| *f = Flow::new(p));
        return o;
    }
    let mut evs = vec![Events::default(); fs.len()];
    if let Some((i, mb, vb)) = ev.ack {
        evs[i].ack = Some((mb, vb));
    }
    if let Some(i) = ev.fast_reset {
        evs[i].fast_reset = true;
    }
    if let Some(i) = ev.inject {
        evs[i].inject = true;
    }
    for (f, e) in fs.iter_mut().zip(evs) {
        let r = model_cycle(f, p, now, false, e);
        o.stray |= r.stray;
        o.marks |= r.marks;
        o.not_eligible |= r.not_eligible;
    }
    o
}

/// `MvcmFlows` stepped by hand, like [`MvcmStepper`].
pub struct MvcmFlowsStepper<
    const N: usize,
    const A: usize,
    const D: usize,
    const E: usize,
    const T: usize,
> {
    pub uut: Box<MvcmFlows<N, A, D, E, T>>,
    pub p: Params,
}

impl<const N: usize, const A: usize, const D: usize, const E: usize, const T: usize>
    MvcmFlowsStepper<N, A, D, E, T>
{
    /// The block for `p`, at power-up.
    pub fn new(p: Params) -> Self {
        let mut uut = Box::new(MvcmFlows::new(&p));
        uut.connect_all();
        check_all(uut.as_ref()).expect("MvcmFlows fails rust-hdl's connection checks");
        uut.clock.next = Clock { clk: true };
        assert!(simulate(uut.as_mut(), 100), "the block did not settle");
        MvcmFlowsStepper { uut, p }
    }

    /// One cycle: `reset` and the events. Returns the cycle's outputs, then advances the
    /// clock.
    pub fn step(&mut self, reset: bool, ev: FlowsEvents) -> FlowsOutputs {
        let u = self.uut.as_mut();
        u.clock.next = Clock { clk: false };
        u.reset.next = reset;
        let (ai, mb, vb) = ev.ack.unwrap_or_default();
        u.ack_valid.next = ev.ack.is_some();
        u.ack_flow.next = (ai as u64).into();
        u.ack_mb.next = mb;
        u.ack_vb.next = vb;
        u.fast_reset.next = ev.fast_reset.is_some();
        u.reset_flow.next = (ev.fast_reset.unwrap_or_default() as u64).into();
        u.inject.next = ev.inject.is_some();
        u.inject_flow.next = (ev.inject.unwrap_or_default() as u64).into();
        assert!(simulate(u, 100), "the block did not settle");
        let u = self.uut.as_ref();
        let out = FlowsOutputs {
            can_inject: u.can_inject.val().index() as u64,
            stray: u.err_stray.val(),
            marks: u.err_marks.val(),
            not_eligible: u.err_not_eligible.val(),
        };
        let u = self.uut.as_mut();
        u.clock.next = Clock { clk: true };
        assert!(simulate(u, 100), "the block did not settle");
        out
    }

    /// Flow i's registers as an `Outputs` without errors (`wait` from its deadline and the
    /// shared counter).
    pub fn registers(&self, i: usize) -> Outputs {
        let u = self.uut.as_ref();
        let s = &u.slots[i];
        let (dw, out) = s.window.state();
        let (waiting, deadline) = s.timer.state();
        let now = u.now_state();
        let mask = if T >= 64 { u64::MAX } else { (1u64 << T) - 1 };
        let wait = if waiting {
            (deadline.wrapping_sub(now) & mask) + 1
        } else {
            0
        };
        Outputs {
            can_inject: out < dw && !waiting,
            dw,
            out,
            ws: s.waiting.state(),
            wait,
            ..Default::default()
        }
    }
}
