//! One flow's registers and logic inside a block of many flows (`IbccFlows`): the CCTI and
//! a deadline timer; the CCT, the spacing arithmetic, the CCTI timer and the counter are
//! shared.

use super::ccti::Ccti;
use super::model::Params;
use crate::mvcm::deadline::Deadline;
use rust_hdl::prelude::*;

/// One flow of `IbccFlows`: `Ccti` as in `IbccFlow`, and a `Deadline` instead of a
/// countdown. The block around it decodes which flow a BECN or a start names, and gives
/// every slot the port's timer expiry, the shared counter `now` and the deadline
/// `now + flits + IRD - 1` of the packet starting this cycle (computed once, from the
/// starting flow's `ccti_next`); only the starting slot loads it.
///
/// ```text
///                 +----------------------------------+
///  becn, tick --->|  index: CCTI (C bits)            |---> eligible
///  start -------->|  timer: waiting, deadline        |---> ccti_next[C]
///  value[T] ----->|                                  |
///  busy, now[T] ->|                                  |
///  clock, reset ->|                                  |
///                 +----------------------------------+
/// ```
#[derive(LogicBlock)]
pub struct IbccSlot<const C: usize, const T: usize> {
    /// Block clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: CCTI 0, eligible.
    pub reset: Signal<In, Bit>,
    /// A BECN of this flow.
    pub becn: Signal<In, Bit>,
    /// The port's CCTI timer expires this cycle.
    pub tick: Signal<In, Bit>,
    /// A packet of this flow starts.
    pub start: Signal<In, Bit>,
    /// The deadline of the packet starting this cycle.
    pub value: Signal<In, Bits<T>>,
    /// It waits at all (`flits + IRD > 1`).
    pub busy: Signal<In, Bit>,
    /// The shared free-running counter.
    pub now: Signal<In, Bits<T>>,
    /// The flow may start a packet this cycle.
    pub eligible: Signal<Out, Bit>,
    /// The CCTI after this cycle's BECN and expiry (for the shared CCT).
    pub ccti_next: Signal<Out, Bits<C>>,
    /// The flow's CCTI.
    pub index: Ccti<C>,
    /// The wait until `next_ok`.
    pub timer: Deadline<T>,
}

impl<const C: usize, const T: usize> IbccSlot<C, T> {
    /// One flow's slot for `p`. Panics if `p` does not pass `Params::check` or its limit
    /// does not fit C bits.
    pub fn new(p: &Params) -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            becn: Default::default(),
            tick: Default::default(),
            start: Default::default(),
            value: Default::default(),
            busy: Default::default(),
            now: Default::default(),
            eligible: Default::default(),
            ccti_next: Default::default(),
            index: Ccti::new(p),
            timer: Default::default(),
        }
    }
}

impl<const C: usize, const T: usize> Logic for IbccSlot<C, T> {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock, index, timer);
        self.index.reset.next = self.reset.val();
        self.timer.reset.next = self.reset.val();
        self.index.becn.next = self.becn.val();
        self.index.tick.next = self.tick.val();
        self.timer.load.next = self.start.val();
        self.timer.value.next = self.value.val();
        self.timer.busy.next = self.busy.val();
        self.timer.cancel.next = false;
        self.timer.now.next = self.now.val();
        self.eligible.next = self.timer.idle.val();
        self.ccti_next.next = self.index.ccti_next.val();
    }
}

#[test]
fn ibcc_slot_synthesizes() {
    let mut uut = IbccSlot::<7, 13>::new(&Params::table1());
    uut.connect_all();
    yosys_validate("ibcc_slot", &generate_verilog(&uut)).unwrap();
}
