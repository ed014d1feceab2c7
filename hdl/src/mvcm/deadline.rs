//! A per-flow deadline against a shared free-running counter: the timer of a flow in a
//! block of many flows (MVCM's and IB CC's multi-flow blocks).

use rust_hdl::prelude::*;

/// The flow waits (`idle` low) from the cycle after `load` until the shared counter `now`
/// has passed `deadline`: a packet started in cycle t with interval `W` loads
/// `deadline = now + W - 1` (mod 2^T) and `busy = (W > 1)`; in each cycle in which the flow
/// waits and `now == deadline`, the wait ends at the clock edge, so `idle` rises in cycle
/// t+W, the model's `next_ok`. `now` runs modulo 2^T and `W - 1 < 2^T`, so the first
/// `now == deadline` after t is cycle t+W-1 exactly. `cancel` ends the wait at once (MVCM's
/// clean ACK or fast reset); `load` wins over it. The cycles left, for a testbench, are
/// `deadline - now + 1` while waiting.
///
/// Per flow this is T + 1 flip-flops loaded only by the flow's own injection (enable
/// flip-flops) and a T-bit equality compare; the counter and the adder `now + W - 1` are
/// shared by all the flows of a block, because one packet starts per cycle. Against a
/// countdown per flow (`Countdown`: a T-bit decrementer per flow) it trades an adder for a
/// compare, and the record (deadline, busy flag) is what a flow table in SRAM would hold
/// (docs/hardware.md).
///
/// ```text
///                   +-------------------------------+
///  load, busy ----->|  waiting (1 bit)              |---> idle (!waiting)
///  value[T] ------->|  deadline (T bits)            |
///  cancel --------->|  end: waiting & now==deadline |
///  now[T] --------->|                               |
///  clock, reset --->|                               |
///                   +-------------------------------+
/// ```
#[derive(LogicBlock, Default)]
pub struct Deadline<const T: usize> {
    /// Block clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: not waiting.
    pub reset: Signal<In, Bit>,
    /// A packet of the flow starts: load `value` and `busy`.
    pub load: Signal<In, Bit>,
    /// `now + W - 1`, the last cycle of the wait.
    pub value: Signal<In, Bits<T>>,
    /// `W > 1`: there is a wait at all.
    pub busy: Signal<In, Bit>,
    /// The wait in progress is cancelled.
    pub cancel: Signal<In, Bit>,
    /// The shared free-running counter.
    pub now: Signal<In, Bits<T>>,
    /// Not waiting: the flow's time condition holds this cycle.
    pub idle: Signal<Out, Bit>,
    // State.
    waiting: DFF<Bit>,
    deadline: DFF<Bits<T>>,
}

impl<const T: usize> Deadline<T> {
    /// `(waiting, deadline)` now.
    pub fn state(&self) -> (bool, u64) {
        (self.waiting.q.val(), self.deadline.q.val().index() as u64)
    }
}

impl<const T: usize> Logic for Deadline<T> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, waiting, deadline);
        if self.waiting.q.val() & (self.deadline.q.val() == self.now.val()) {
            self.waiting.d.next = false;
        }
        if self.cancel.val() {
            self.waiting.d.next = false;
        }
        if self.load.val() {
            self.waiting.d.next = self.busy.val();
            self.deadline.d.next = self.value.val();
        }
        if self.reset.val() {
            self.waiting.d.next = false;
        }
        self.idle.next = !self.waiting.q.val();
    }
}

#[test]
fn deadline_synthesizes() {
    let mut uut = Deadline::<19>::default();
    uut.connect_all();
    yosys_validate("deadline", &generate_verilog(&uut)).unwrap();
}
