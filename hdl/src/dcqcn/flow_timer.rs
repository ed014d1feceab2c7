//! A flow's periodic timer against a shared free-running counter: DCQCN's rate timer and
//! alpha timer, two per flow.

use super::model::TIMER_BITS;
use rust_hdl::prelude::*;

/// Bits of the timers (`model::TIMER_BITS`).
pub const TB: usize = TIMER_BITS as usize;

/// A periodic timer of one flow: `load` sets its next event to `value` (`now + period` mod
/// 2^14, from the block around it: one adder per port, because every flow whose timer
/// starts or fires in a cycle loads the same value); while `run` (the flow's flag, kept by
/// the slot: limited for the rate timer, a CNP seen for the alpha timer), it fires in each
/// cycle in which the shared counter `now` equals its deadline, and reloads `value`. So with
/// `period < 2^14` it fires exactly every `period` cycles from its last load, the model's
/// `rate_at` / `alpha_at`.
///
/// Per flow: 14 flip-flops (enable flip-flops) and a 14-bit equality compare; against a
/// countdown per flow it needs no decrementer.
///
/// ```text
///                 +-------------------------------------+
///  load --------->|  deadline (14 bits)                 |---> fire
///  run ---------->|  fire = run & now == deadline       |
///  value[14] ---->|  deadline <= value on load or fire  |
///  now[14] ------>|                                     |
///  clock -------->|                                     |
///                 +-------------------------------------+
/// ```
#[derive(LogicBlock, Default)]
pub struct FlowTimer {
    /// Block clock.
    pub clock: Signal<In, Clock>,
    /// The timer (re)starts: next event at `value`.
    pub load: Signal<In, Bit>,
    /// The timer runs.
    pub run: Signal<In, Bit>,
    /// `now + period` (mod 2^14).
    pub value: Signal<In, Bits<TB>>,
    /// The shared free-running counter.
    pub now: Signal<In, Bits<TB>>,
    /// The timer's event is this cycle.
    pub fire: Signal<Out, Bit>,
    // State.
    deadline: DFF<Bits<TB>>,
    hit: Signal<Local, Bit>,
}

impl FlowTimer {
    /// The deadline now.
    pub fn state(&self) -> u64 {
        self.deadline.q.val().index() as u64
    }
}

impl Logic for FlowTimer {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, deadline);
        self.hit.next = self.run.val() & (self.deadline.q.val() == self.now.val());
        if self.hit.val() | self.load.val() {
            self.deadline.d.next = self.value.val();
        }
        self.fire.next = self.hit.val();
    }
}

#[test]
fn flow_timer_synthesizes() {
    let mut uut = FlowTimer::default();
    uut.connect_all();
    yosys_validate("dcqcn_flow_timer", &generate_verilog(&uut)).unwrap();
}
