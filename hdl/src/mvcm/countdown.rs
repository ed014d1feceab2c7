//! A per-flow countdown timer: the cycles left until the flow's next packet may start
//! (`next_ok - now`, saturating at 0). Used by MVCM's single-flow block and by IB CC's.

use rust_hdl::prelude::*;

/// `remaining` is the model's `next_ok - now` (0 once `now >= next_ok`). A packet started
/// in cycle t with interval `W` sets `next_ok = t + W`, so `load` with `value = W - 1`
/// (0 for `W <= 1`) makes `remaining` `W - 1` in cycle t+1 and 0 in cycle t+W; `cancel`
/// (MVCM: the waiting slots removed) sets it to 0; `load` wins over `cancel` (a packet
/// started after a cancel in the same cycle gets the interval computed after it). Powers
/// up and resets to 0.
///
/// One decrementer of T bits per flow: the simplest exact timer for a block that holds one
/// flow. The blocks of many flows use `Deadline` instead (one shared counter, a compare per
/// flow; docs/hardware.md).
///
/// ```text
///                 +-----------------------------+
///  load --------->|  left (T bits)              |---> idle (left == 0)
///  value[T] ----->|  load ? value               |---> remaining[T]
///  cancel ------->|  : cancel ? 0 : left - 1    |
///  clock, reset ->|    (saturating at 0)        |
///                 +-----------------------------+
/// ```
#[derive(LogicBlock, Default)]
pub struct Countdown<const T: usize> {
    /// Block clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: 0, nothing to wait for.
    pub reset: Signal<In, Bit>,
    /// A packet starts: load `value`.
    pub load: Signal<In, Bit>,
    /// The interval minus one.
    pub value: Signal<In, Bits<T>>,
    /// The interval in progress is cancelled.
    pub cancel: Signal<In, Bit>,
    /// No interval in progress: the flow's time condition holds this cycle.
    pub idle: Signal<Out, Bit>,
    /// Cycles until the next packet may start.
    pub remaining: Signal<Out, Bits<T>>,
    // State.
    left: DFF<Bits<T>>,
}

impl<const T: usize> Countdown<T> {
    /// `remaining` now.
    pub fn state(&self) -> u64 {
        self.left.q.val().index() as u64
    }
}

impl<const T: usize> Logic for Countdown<T> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, left);
        if self.left.q.val().any() {
            self.left.d.next = self.left.q.val() - 1;
        }
        if self.cancel.val() {
            self.left.d.next = 0.into();
        }
        if self.load.val() {
            self.left.d.next = self.value.val();
        }
        if self.reset.val() {
            self.left.d.next = 0.into();
        }
        self.idle.next = !self.left.q.val().any();
        self.remaining.next = self.left.q.val();
    }
}

#[test]
fn countdown_synthesizes() {
    let mut uut = Countdown::<19>::default();
    uut.connect_all();
    yosys_validate("countdown", &generate_verilog(&uut)).unwrap();
}
