//! `IbccFlows`: N flows of IB CC source state in registers with the port's CCT, spacing
//! arithmetic and CCTI timer (measured at N = 1, 4, 16 and 64 in docs/hardware.md).

use super::cct::Cct;
use super::ccti_timer::CctiTimer;
use super::ibcc_flow::check_widths;
use super::ibcc_slot::IbccSlot;
use super::ird::Ird;
use super::model::Params;
use rust_hdl::prelude::*;

/// N flows of a NIC port, each cycle-exact to `ibcc::model` under the cycle mapping of
/// `ibcc::stepper` (`model_flows_cycle`). At most one BECN arrives per cycle (one flit per
/// cycle on the port's link) and one packet starts per cycle, so each is a valid bit and a
/// flow number (A bits; a number `>= N` names no flow). `eligible` has one bit per flow,
/// from registers (the NIC's scheduler picks among them); `tick` and `err_early` are as in
/// `IbccFlow`. `reset` is synchronous and resets every flow and the CCTI timer; the events
/// of its cycle are ignored.
///
/// Per flow (`IbccSlot`): the CCTI (C bits, with its BECN adder and its decrement: the
/// timer lowers every flow at once) and a deadline timer (T + 1 flip-flops, a T-bit
/// compare). Shared: the CCTI timer, the multiplexer that picks the starting flow's CCTI,
/// the CCT, the spacing multiplier, the counter `now` and one adder `now + spacing - 1`.
///
/// ```text
///                  +------------------------------------------------+
///  becn ---------->|  slots[N]: CCTI, deadline                      |---> eligible[N]
///  becn_flow[A] -->|  timer: CCTI timer -> tick (every slot)        |---> tick
///  start --------->|  cct, spacing: the starting flow's CCTI        |---> err_early
///  start_flow[A] ->|    -> flits + IRD - 1                          |
///  flits[L] ------>|  now (T bits), value = now + flits + IRD - 1   |
///  clock, reset -->|                                                |
///                  +------------------------------------------------+
/// ```
#[derive(LogicBlock)]
pub struct IbccFlows<
    const N: usize,
    const A: usize,
    const C: usize,
    const L: usize,
    const T: usize,
    const P: usize,
> {
    /// Block clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset of every flow and of the CCTI timer.
    pub reset: Signal<In, Bit>,
    /// A BECN arrives this cycle.
    pub becn: Signal<In, Bit>,
    /// Its flow.
    pub becn_flow: Signal<In, Bits<A>>,
    /// A packet starts this cycle.
    pub start: Signal<In, Bit>,
    /// Its flow.
    pub start_flow: Signal<In, Bits<A>>,
    /// Its length, flits.
    pub flits: Signal<In, Bits<L>>,
    /// Bit i: flow i may start a packet this cycle.
    pub eligible: Signal<Out, Bits<N>>,
    /// The CCTI timer expires this cycle.
    pub tick: Signal<Out, Bit>,
    /// This cycle's start came before its flow's IRD had passed.
    pub err_early: Signal<Out, Bit>,
    /// The flows.
    pub slots: [IbccSlot<C, T>; N],
    /// The port's CCTI timer.
    pub timer: CctiTimer<P>,
    /// The port's CCT.
    pub cct: Cct<C>,
    /// `flits + IRD - 1` of the starting flow.
    pub spacing: Ird<L, T>,
    // State.
    now: DFF<Bits<T>>,
    go: Signal<Local, Bit>,
    sel: Signal<Local, Bits<C>>,
    value: Signal<Local, Bits<T>>,
    elig: Signal<Local, Bits<N>>,
    early: Signal<Local, Bit>,
}

/// Table I's widths (`Table1Flow`'s) for N flows with A-bit flow numbers.
pub type Table1Flows<const N: usize, const A: usize> = IbccFlows<N, A, 7, 6, 13, 13>;

impl<
        const N: usize,
        const A: usize,
        const C: usize,
        const L: usize,
        const T: usize,
        const P: usize,
    > IbccFlows<N, A, C, L, T, P>
{
    /// N flows for the constants `p` and a CCTI timer of `period` cycles whose first expiry
    /// is `first` cycles after a reset. Panics if they are out of range, do not fit the
    /// widths, or N flows need more than A bits to number.
    pub fn new(p: &Params, period: u64, first: u64) -> Self {
        check_widths("IbccFlows", p, C, L, T);
        assert!(
            N >= 1 && N <= 64 && A < 64 && (N - 1) as u64 >> A == 0,
            "IbccFlows: {N} flows (1..=64) do not fit {A}-bit flow numbers"
        );
        Self {
            clock: Default::default(),
            reset: Default::default(),
            becn: Default::default(),
            becn_flow: Default::default(),
            start: Default::default(),
            start_flow: Default::default(),
            flits: Default::default(),
            eligible: Default::default(),
            tick: Default::default(),
            err_early: Default::default(),
            slots: std::array::from_fn(|_| IbccSlot::new(p)),
            timer: CctiTimer::new(period, first),
            cct: Cct::new(p),
            spacing: Default::default(),
            now: Default::default(),
            go: Default::default(),
            sel: Default::default(),
            value: Default::default(),
            elig: Default::default(),
            early: Default::default(),
        }
    }

    /// The shared counter now.
    pub fn now_state(&self) -> u64 {
        self.now.q.val().index() as u64
    }
}

impl<
        const N: usize,
        const A: usize,
        const C: usize,
        const L: usize,
        const T: usize,
        const P: usize,
    > Logic for IbccFlows<N, A, C, L, T, P>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, now);
        clock!(self, clock, timer);
        self.now.d.next = self.now.q.val() + 1;
        self.go.next = !self.reset.val();
        self.timer.reset.next = self.reset.val();
        self.sel.next = 0.into();
        for i in 0..N {
            self.slots[i].clock.next = self.clock.val();
            self.slots[i].reset.next = self.reset.val();
            self.slots[i].becn.next =
                self.go.val() & self.becn.val() & (self.becn_flow.val().index() == i);
            self.slots[i].tick.next = self.go.val() & self.timer.tick.val();
            self.slots[i].start.next =
                self.go.val() & self.start.val() & (self.start_flow.val().index() == i);
            if self.start_flow.val().index() == i {
                self.sel.next = self.slots[i].ccti_next.val();
            }
        }
        self.cct.ccti.next = self.sel.val();
        self.spacing.entry.next = self.cct.entry.val();
        self.spacing.flits.next = self.flits.val();
        self.value.next = self.now.q.val() + self.spacing.spacing_m1.val();
        self.elig.next = 0.into();
        self.early.next = false;
        for i in 0..N {
            self.slots[i].value.next = self.value.val();
            self.slots[i].busy.next = self.spacing.spacing_m1.val().any();
            self.slots[i].now.next = self.now.q.val();
            self.elig.next = self.elig.val().replace_bit(i, self.slots[i].eligible.val());
            if (self.start_flow.val().index() == i) & !self.slots[i].eligible.val() {
                self.early.next = self.go.val() & self.start.val();
            }
        }
        self.eligible.next = self.elig.val();
        self.tick.next = self.go.val() & self.timer.tick.val();
        self.err_early.next = self.early.val();
    }
}

#[test]
fn ibcc_flows_synthesizes() {
    let mut uut = Table1Flows::<4, 2>::new(&Params::table1(), 6000, 1);
    uut.connect_all();
    yosys_validate("ibcc_flows", &generate_verilog(&uut)).unwrap();
}
