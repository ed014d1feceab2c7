//! `MvcmFlows`: N flows of MVCM source state in registers, the block a NIC with one flow per
//! destination would hold (measured at N = 1, 4, 16 and 64 in docs/hardware.md).

use super::interval_rom::IntervalRom;
use super::model::Params;
use super::mvcm_slot::MvcmSlot;
#[cfg(test)]
use super::PAPER;
use rust_hdl::prelude::*;

/// N flows, each cycle-exact to `mvcm::model::Flow` under the cycle mapping of
/// `mvcm::stepper` (`model_flows_cycle`). A NIC receives at most one ACK per cycle, the
/// host enqueues into one queue per cycle, and one packet starts per cycle, so each of the
/// three events is a valid bit and a flow number (A bits; a number `>= N` names no flow).
/// `can_inject` has one bit per flow, from registers (the NIC's scheduler picks among
/// them); the error flags are of this cycle's events, as in `MvcmFlow`. `reset` is
/// synchronous and resets every flow; the events of its cycle are ignored.
///
/// Per flow (`MvcmSlot`): the window, the waiting slots and a deadline timer (T + 1
/// flip-flops and a T-bit compare). Shared: the free-running counter `now` (T bits), the
/// multiplexer that picks the starting flow's slots, the interval table and one adder
/// `now + W - 1`. Why deadlines and not a countdown per flow: see `Deadline` and
/// docs/hardware.md.
///
/// ```text
///                   +---------------------------------------------+
///  ack_valid ------>|  slots[N]: window, waiting slots, deadline  |---> can_inject[N]
///  ack_flow[A] ---->|  decode: the named flow's valid bits        |---> err_stray
///  ack_mb, ack_vb ->|  interval: the starting flow's ws, e        |---> err_marks
///  fast_reset ----->|    -> k^e * rtt_min - 1 (or 0)              |---> err_not_eligible
///  reset_flow[A] -->|  now (T bits), value = now + W - 1          |
///  inject --------->|                                             |
///  inject_flow[A] ->|                                             |
///  clock, reset --->|                                             |
///                   +---------------------------------------------+
/// ```
#[derive(LogicBlock)]
pub struct MvcmFlows<const N: usize, const A: usize, const D: usize, const E: usize, const T: usize>
{
    /// Block clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset of every flow.
    pub reset: Signal<In, Bit>,
    /// An ACK arrives this cycle.
    pub ack_valid: Signal<In, Bit>,
    /// Its flow.
    pub ack_flow: Signal<In, Bits<A>>,
    /// Its MB bit.
    pub ack_mb: Signal<In, Bit>,
    /// Its VB bit.
    pub ack_vb: Signal<In, Bit>,
    /// The host puts a packet into an empty queue this cycle (fast reset).
    pub fast_reset: Signal<In, Bit>,
    /// Its flow.
    pub reset_flow: Signal<In, Bits<A>>,
    /// A packet asks to start this cycle.
    pub inject: Signal<In, Bit>,
    /// Its flow.
    pub inject_flow: Signal<In, Bits<A>>,
    /// Bit i: flow i may start a packet this cycle.
    pub can_inject: Signal<Out, Bits<N>>,
    /// This cycle's ACK is stray.
    pub err_stray: Signal<Out, Bit>,
    /// This cycle's ACK has MB = 0, VB = 1.
    pub err_marks: Signal<Out, Bit>,
    /// This cycle's `inject` was refused.
    pub err_not_eligible: Signal<Out, Bit>,
    /// The flows.
    pub slots: [MvcmSlot<D, E, T>; N],
    /// The waiting interval of the starting flow's slots.
    pub interval: IntervalRom<E, T>,
    // State.
    now: DFF<Bits<T>>,
    go: Signal<Local, Bit>,
    sel_ws: Signal<Local, Bit>,
    sel_e: Signal<Local, Bits<E>>,
    value: Signal<Local, Bits<T>>,
    can: Signal<Local, Bits<N>>,
    stray: Signal<Local, Bit>,
    marks: Signal<Local, Bit>,
    refused: Signal<Local, Bit>,
}

/// The paper's widths (`PaperFlow`'s) for N flows with A-bit flow numbers.
pub type PaperFlows<const N: usize, const A: usize> = MvcmFlows<N, A, 2, 3, 19>;

impl<const N: usize, const A: usize, const D: usize, const E: usize, const T: usize>
    MvcmFlows<N, A, D, E, T>
{
    /// N flows for the constants `p`. Panics if `p` does not pass `Params::check`, does
    /// not fit the widths, or N flows need more than A bits to number.
    pub fn new(p: &Params) -> Self {
        if let Err(e) = p.check() {
            panic!("MvcmFlows: {e}");
        }
        assert!(
            N >= 1 && N <= 64 && A < 64 && (N - 1) as u64 >> A == 0,
            "MvcmFlows: {N} flows (1..=64) do not fit {A}-bit flow numbers"
        );
        Self {
            clock: Default::default(),
            reset: Default::default(),
            ack_valid: Default::default(),
            ack_flow: Default::default(),
            ack_mb: Default::default(),
            ack_vb: Default::default(),
            fast_reset: Default::default(),
            reset_flow: Default::default(),
            inject: Default::default(),
            inject_flow: Default::default(),
            can_inject: Default::default(),
            err_stray: Default::default(),
            err_marks: Default::default(),
            err_not_eligible: Default::default(),
            slots: std::array::from_fn(|_| MvcmSlot::new(p)),
            interval: IntervalRom::new(p),
            now: Default::default(),
            go: Default::default(),
            sel_ws: Default::default(),
            sel_e: Default::default(),
            value: Default::default(),
            can: Default::default(),
            stray: Default::default(),
            marks: Default::default(),
            refused: Default::default(),
        }
    }

    /// The shared counter now.
    pub fn now_state(&self) -> u64 {
        self.now.q.val().index() as u64
    }
}

impl<const N: usize, const A: usize, const D: usize, const E: usize, const T: usize> Logic
    for MvcmFlows<N, A, D, E, T>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, now);
        self.now.d.next = self.now.q.val() + 1;
        self.go.next = !self.reset.val();
        self.sel_ws.next = false;
        self.sel_e.next = 0.into();
        for i in 0..N {
            self.slots[i].clock.next = self.clock.val();
            self.slots[i].reset.next = self.reset.val();
            self.slots[i].ack_valid.next =
                self.go.val() & self.ack_valid.val() & (self.ack_flow.val().index() == i);
            self.slots[i].ack_mb.next = self.ack_mb.val();
            self.slots[i].ack_vb.next = self.ack_vb.val();
            self.slots[i].fast_reset.next =
                self.go.val() & self.fast_reset.val() & (self.reset_flow.val().index() == i);
            self.slots[i].inject.next =
                self.go.val() & self.inject.val() & (self.inject_flow.val().index() == i);
            if self.inject_flow.val().index() == i {
                self.sel_ws.next = self.slots[i].ws_next.val();
                self.sel_e.next = self.slots[i].e_next.val();
            }
        }
        self.interval.ws.next = self.sel_ws.val();
        self.interval.e.next = self.sel_e.val();
        self.value.next = self.now.q.val() + self.interval.wait_m1.val();
        self.can.next = 0.into();
        self.stray.next = false;
        self.marks.next = false;
        self.refused.next = false;
        for i in 0..N {
            self.slots[i].value.next = self.value.val();
            self.slots[i].busy.next = self.interval.wait_m1.val().any();
            self.slots[i].now.next = self.now.q.val();
            self.can.next = self
                .can
                .val()
                .replace_bit(i, self.slots[i].can_inject.val());
            self.stray.next = self.stray.val() | self.slots[i].stray.val();
            self.marks.next = self.marks.val() | self.slots[i].marks.val();
            self.refused.next = self.refused.val() | self.slots[i].not_eligible.val();
        }
        self.can_inject.next = self.can.val();
        self.err_stray.next = self.stray.val();
        self.err_marks.next = self.marks.val();
        self.err_not_eligible.next = self.refused.val();
    }
}

#[test]
fn mvcm_flows_synthesizes() {
    let mut uut = PaperFlows::<4, 2>::new(&PAPER);
    uut.connect_all();
    yosys_validate("mvcm_flows", &generate_verilog(&uut)).unwrap();
}
