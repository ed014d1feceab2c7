//! IB CC's packet spacing: `flits + IRD` from a CCT entry and the packet's length.

use rust_hdl::prelude::*;

/// `spacing = flits + ((flits * multiplier) >> shift)` for the CCT entry `entry` (shift in
/// bits 15:14, multiplier in 13:0; the `Cct` gives 0 at CCTI 0): the cycles from a packet's
/// start to the first cycle its flow may start the next (the model's `next_ok - now`).
/// `spacing_m1` is that minus one, at least 0 (the timers' load value).
///
/// The product is rust-hdl's 16 x 16 -> 32-bit multiply of the widened operands; only
/// L x 14 bits of it are not constant 0, and Yosys keeps only those (no DSP on an iCE40:
/// LUTs and carry chains). One multiplier per NIC port: one packet starts per cycle. The
/// caller checks that the largest spacing fits T bits (`Params::max_spacing`).
///
/// ```text
///                +-----------------------------------------------+
///  entry[16] --->|  spacing = flits + (flits * mult) >> shift    |---> spacing_m1[T]
///  flits[L] ---->|  spacing_m1 = max(spacing - 1, 0)             |
///                +-----------------------------------------------+
/// ```
#[derive(LogicBlock, Default)]
pub struct Ird<const L: usize, const T: usize> {
    /// The CCT entry of the flow's CCTI.
    pub entry: Signal<In, Bits<16>>,
    /// The packet's length, flits.
    pub flits: Signal<In, Bits<L>>,
    /// `flits + IRD - 1`, at least 0.
    pub spacing_m1: Signal<Out, Bits<T>>,
    mult: Signal<Local, Bits<16>>,
    shift: Signal<Local, Bits<2>>,
    flits16: Signal<Local, Bits<16>>,
    prod: Signal<Local, Bits<32>>,
    delay: Signal<Local, Bits<32>>,
    delay_t: Signal<Local, Bits<T>>,
    flits_t: Signal<Local, Bits<T>>,
    sum_t: Signal<Local, Bits<T>>,
    m1: Signal<Local, Bits<T>>,
}

impl<const L: usize, const T: usize> Logic for Ird<L, T> {
    #[hdl_gen]
    fn update(&mut self) {
        self.mult.next = bit_cast::<16, 14>(self.entry.val().get_bits::<14>(0));
        self.shift.next = self.entry.val().get_bits::<2>(14);
        self.flits16.next = bit_cast::<16, L>(self.flits.val());
        self.prod.next = self.flits16.val() * self.mult.val();
        self.delay.next = self.prod.val() >> self.shift.val();
        self.delay_t.next = bit_cast::<T, 32>(self.delay.val());
        self.flits_t.next = bit_cast::<T, L>(self.flits.val());
        self.sum_t.next = self.flits_t.val() + self.delay_t.val();
        self.m1.next = 0.into();
        if self.sum_t.val().any() {
            self.m1.next = self.sum_t.val() - 1;
        }
        self.spacing_m1.next = self.m1.val();
    }
}

#[test]
fn ird_synthesizes() {
    let mut uut = Ird::<6, 13>::default();
    uut.connect_all();
    yosys_validate("ibcc_ird", &generate_verilog(&uut)).unwrap();
}
