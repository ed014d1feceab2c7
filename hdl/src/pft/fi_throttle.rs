//! FI throttle: the saturating gap counter.

use rust_hdl::prelude::*;

/// Fixed-interval gap counter. `gap` counts the cycles since the last flit sent (16 bits,
/// saturating at 0xFFFF, cleared by a send, reset to 0xFFFF). The FI gate is open when
/// `gap >= f(c)` (compared in `ThrottleCompare`), so in Congested a flit leaves after `f(c)`
/// idle cycles: rate `1 / (1 + f(c))`. A level above 0xFFFF is never reached.
#[derive(LogicBlock, Default)]
pub struct FiThrottle {
    /// Block clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: gap to 0xFFFF.
    pub reset: Signal<In, Bit>,
    /// A flit leaves this cycle.
    pub send: Signal<In, Bit>,
    /// Cycles since the last flit sent.
    pub gap: Signal<Out, Bits<16>>,
    count: DFF<Bits<16>>,
}

impl Logic for FiThrottle {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, count);
        if self.send.val() {
            self.count.d.next = 0.into();
        } else if !self.count.q.val().all() {
            self.count.d.next = self.count.q.val() + 1;
        }
        if self.reset.val() {
            self.count.d.next = 0xFFFF.into();
        }
        self.gap.next = self.count.q.val();
    }
}

#[test]
fn fi_throttle_synthesizes() {
    let mut uut = FiThrottle::default();
    uut.connect_all();
    yosys_validate("fi_throttle", &generate_verilog(&uut)).unwrap();
}
