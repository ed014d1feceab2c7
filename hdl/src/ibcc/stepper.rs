//! The cycle mapping of IB CC's model, and the RTL stepped by hand with the model's types,
//! so that a test can run both side by side.
//!
//! **One cycle** (the network's order, `ibcc::model`): a flow's BECN (at most one per
//! port), then the CCTI timer's expiry (every flow of the port), then a packet start (at
//! most one per port), at the cycle's `now`. The outputs that describe the state (`ccti`,
//! `eligible = next_ok <= now`, `wait = next_ok - now`) are those at the cycle's start;
//! `tick` and `early` are of the cycle. A synchronous reset wins over the events of its
//! cycle (they are ignored) and starts the model afresh in the next cycle: every flow
//! `Flow::default()`, the timer's first expiry `first` cycles after the next cycle (a reset
//! in cycle r: in cycle r + 1 + first).
//! [`Port`] is the model run so; [`IbccStepper`] and [`IbccFlowsStepper`] are the RTL.

use super::ibcc_flow::IbccFlow;
use super::ibcc_flows::IbccFlows;
use super::model::{Flow, Params, Timer};
use rust_hdl::prelude::*;

/// A cycle's events for the flows of a port.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Events {
    /// A BECN of flow `.0`.
    pub becn: Option<usize>,
    /// A packet of `.1` flits of flow `.0` starts.
    pub start: Option<(usize, u32)>,
}

/// What a port's flows show in a cycle.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outputs {
    /// Each flow's CCTI at the cycle's start.
    pub ccti: Vec<u16>,
    /// Bit i: flow i is eligible (`next_ok <= now`).
    pub eligible: u64,
    /// Each flow's `next_ok - now`, at least 0.
    pub wait: Vec<u64>,
    /// The CCTI timer expires this cycle.
    pub tick: bool,
    /// The start came before its flow's IRD had passed.
    pub early: bool,
}

/// The model of one NIC port: its constants, its CCTI timer and its flows.
#[derive(Clone, Debug)]
pub struct Port {
    pub p: Params,
    pub period: u64,
    pub first: u64,
    pub timer: Timer,
    pub flows: Vec<Flow>,
}

impl Port {
    /// `n` flows as after a reset in cycle -1: the timer's first expiry in cycle `first`
    /// (as the network's NICs: `first = 1 + phase % period`).
    pub fn new(p: Params, period: u64, first: u64, n: usize) -> Port {
        Port {
            p,
            period,
            first,
            timer: Timer::new(period, first),
            flows: vec![Flow::default(); n],
        }
    }

    /// Cycle `now` with its reset and events (module doc).
    pub fn cycle(&mut self, now: u64, reset: bool, ev: Events) -> Outputs {
        let mut o = Outputs {
            ccti: self.flows.iter().map(|f| f.ccti).collect(),
            wait: self
                .flows
                .iter()
                .map(|f| f.next_ok.saturating_sub(now))
                .collect(),
            ..Default::default()
        };
        for (i, f) in self.flows.iter().enumerate() {
            o.eligible |= (f.eligible(now) as u64) << i;
        }
        if reset {
            self.flows.iter_mut().for_each(|f| *f = Flow::default());
            self.timer = Timer::new(self.period, now + 1 + self.first);
            return o;
        }
        if let Some(i) = ev.becn {
            self.flows[i].becn(&self.p);
        }
        o.tick = self.timer.expired(now);
        if o.tick {
            for f in &mut self.flows {
                f.timer(&self.p);
            }
        }
        if let Some((i, flits)) = ev.start {
            o.early = self.flows[i].start(&self.p, flits, now).is_err();
        }
        o
    }
}

/// `IbccFlow` stepped by hand: inputs change with the falling edge and settle before the
/// rising edge. Powers up with the CCTI timer expiring: step it once with `reset` first.
pub struct IbccStepper<const C: usize, const L: usize, const T: usize, const P: usize> {
    pub uut: Box<IbccFlow<C, L, T, P>>,
}

impl<const C: usize, const L: usize, const T: usize, const P: usize> IbccStepper<C, L, T, P> {
    /// The block for `p` and its timer, at power-up.
    pub fn new(p: &Params, period: u64, first: u64) -> Self {
        let mut uut = Box::new(IbccFlow::new(p, period, first));
        uut.connect_all();
        check_all(uut.as_ref()).expect("IbccFlow fails rust-hdl's connection checks");
        uut.clock.next = Clock { clk: true };
        assert!(simulate(uut.as_mut(), 100), "the block did not settle");
        IbccStepper { uut }
    }

    /// One cycle of flow 0: `reset` and the events. Returns the cycle's outputs (one flow),
    /// then advances the clock.
    pub fn step(&mut self, reset: bool, ev: Events) -> Outputs {
        let u = self.uut.as_mut();
        u.clock.next = Clock { clk: false };
        u.reset.next = reset;
        u.becn.next = ev.becn.is_some();
        u.start.next = ev.start.is_some();
        u.flits.next = (ev.start.map_or(0, |s| s.1) as u64).into();
        assert!(simulate(u, 100), "the block did not settle");
        let u = self.uut.as_ref();
        let out = Outputs {
            ccti: vec![u.ccti.val().index() as u16],
            eligible: u.eligible.val() as u64,
            wait: vec![u.wait_cycles.val().index() as u64],
            tick: u.tick.val(),
            early: u.err_early.val(),
        };
        let u = self.uut.as_mut();
        u.clock.next = Clock { clk: true };
        assert!(simulate(u, 100), "the block did not settle");
        out
    }

    /// `(ccti, wait)` of the registers now.
    pub fn registers(&self) -> (u16, u64) {
        (self.uut.index.state(), self.uut.ird_timer.state())
    }
}

/// `IbccFlows` stepped by hand, like [`IbccStepper`].
pub struct IbccFlowsStepper<
    const N: usize,
    const A: usize,
    const C: usize,
    const L: usize,
    const T: usize,
    const P: usize,
> {
    pub uut: Box<IbccFlows<N, A, C, L, T, P>>,
}

impl<
        const N: usize,
        const A: usize,
        const C: usize,
        const L: usize,
        const T: usize,
        const P: usize,
    > IbccFlowsStepper<N, A, C, L, T, P>
{
    /// The block for `p` and its timer, at power-up.
    pub fn new(p: &Params, period: u64, first: u64) -> Self {
        let mut uut = Box::new(IbccFlows::new(p, period, first));
        uut.connect_all();
        check_all(uut.as_ref()).expect("IbccFlows fails rust-hdl's connection checks");
        uut.clock.next = Clock { clk: true };
        assert!(simulate(uut.as_mut(), 100), "the block did not settle");
        IbccFlowsStepper { uut }
    }

    /// One cycle: `reset` and the events. Returns the cycle's outputs with each flow's
    /// CCTI and wait read from its registers, then advances the clock.
    pub fn step(&mut self, reset: bool, ev: Events) -> Outputs {
        let u = self.uut.as_mut();
        u.clock.next = Clock { clk: false };
        u.reset.next = reset;
        u.becn.next = ev.becn.is_some();
        u.becn_flow.next = (ev.becn.unwrap_or_default() as u64).into();
        let (si, flits) = ev.start.unwrap_or_default();
        u.start.next = ev.start.is_some();
        u.start_flow.next = (si as u64).into();
        u.flits.next = (flits as u64).into();
        assert!(simulate(u, 100), "the block did not settle");
        let u = self.uut.as_ref();
        let now = u.now_state();
        let mask = if T >= 64 { u64::MAX } else { (1u64 << T) - 1 };
        let out = Outputs {
            ccti: u.slots.iter().map(|s| s.index.state()).collect(),
            eligible: u.eligible.val().index() as u64,
            wait: u
                .slots
                .iter()
                .map(|s| match s.timer.state() {
                    (true, deadline) => (deadline.wrapping_sub(now) & mask) + 1,
                    (false, _) => 0,
                })
                .collect(),
            tick: u.tick.val(),
            early: u.err_early.val(),
        };
        let u = self.uut.as_mut();
        u.clock.next = Clock { clk: true };
        assert!(simulate(u, 100), "the block did not settle");
        out
    }
}
