//! The throttle's one comparator: the FI gap or the RI random number against the level.

use rust_hdl::prelude::*;

/// `ok = x >= f(c)`, where `x` is the FI gap (CTRL.thr_mode FI) or the masked RI generator
/// output (RI). Only the selected gate's verdict is ever used, so the two gates share one
/// 32-bit comparator. It is written as the carry out of `level + !x`, which is set exactly when
/// `level > x`: the inversion then sits in the operand's select, not in front of the carry
/// chain (on iCE40 an inverted register or adder output costs a LUT per bit there).
#[derive(LogicBlock, Default)]
pub struct ThrottleCompare {
    /// CTRL.thr_mode: compare the RI number (high) or the FI gap (low).
    pub thr_ri: Signal<In, Bit>,
    /// FI: cycles since the last flit sent.
    pub gap: Signal<In, Bits<16>>,
    /// RI: the generator's current output.
    pub r: Signal<In, Bits<32>>,
    /// RI: the bits of r compared with the level (SHAPE.r_width decoded).
    pub mask: Signal<In, Bits<32>>,
    /// f(c) modulo 2^32.
    pub level: Signal<In, Bits<32>>,
    /// f(c) >= 2^32 (never reached).
    pub level_ovf: Signal<In, Bit>,
    /// The selected gate is open: `x >= f(c)`.
    pub ok: Signal<Out, Bit>,
    operand: Signal<Local, Bits<32>>,
    not_operand: Signal<Local, Bits<32>>,
    sum33: Signal<Local, Bits<33>>,
}

impl Logic for ThrottleCompare {
    #[hdl_gen]
    fn update(&mut self) {
        if self.thr_ri.val() {
            self.operand.next = self.r.val() & self.mask.val();
        } else {
            self.operand.next = bit_cast::<32, 16>(self.gap.val());
        }
        self.not_operand.next = !self.operand.val();
        // level + (2^32 - 1 - x) carries out of bit 31 exactly when level > x.
        self.sum33.next =
            bit_cast::<33, 32>(self.level.val()) + bit_cast::<33, 32>(self.not_operand.val());
        self.ok.next = !self.level_ovf.val() & !self.sum33.val().get_bit(32);
    }
}

#[test]
fn throttle_compare_synthesizes() {
    let mut uut = ThrottleCompare::default();
    uut.connect_all();
    yosys_validate("throttle_compare", &generate_verilog(&uut)).unwrap();
}
