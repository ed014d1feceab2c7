//! FI throttle: the saturating gap counter and its compare against the level.

use rust_hdl::prelude::*;

/// Fixed-interval gate. `gap` counts the cycles since the last flit sent (16 bits,
/// saturating at 0xFFFF, cleared by a send, reset to 0xFFFF). `ok = gap >= f(c)`, so in
/// Congested a flit leaves after `f(c)` idle cycles: rate `1 / (1 + f(c))`. A level above
/// 0xFFFF is never reached.
#[derive(LogicBlock, Default)]
pub struct FiThrottle {
    /// Block clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: gap to 0xFFFF.
    pub reset: Signal<In, Bit>,
    /// A flit leaves this cycle.
    pub send: Signal<In, Bit>,
    /// f(c) modulo 2^32.
    pub level: Signal<In, Bits<32>>,
    /// f(c) >= 2^32.
    pub level_ovf: Signal<In, Bit>,
    /// The gate is open: `gap >= f(c)`.
    pub ok: Signal<Out, Bit>,
    /// Cycles since the last flit sent.
    pub gap: Signal<Out, Bits<16>>,
    count: DFF<Bits<16>>,
    gap32: Signal<Local, Bits<32>>,
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
        self.gap32.next = bit_cast::<32, 16>(self.count.q.val());
        self.ok.next = !self.level_ovf.val() & (self.gap32.val() >= self.level.val());
        self.gap.next = self.count.q.val();
    }
}

#[test]
fn fi_throttle_synthesizes() {
    let mut uut = FiThrottle::default();
    uut.connect_all();
    yosys_validate("fi_throttle", &generate_verilog(&uut)).unwrap();
}
