//! The shift-add level `f(c) = ((c << m) >> n) + k`, exact, as a 32-bit value plus an
//! overflow flag (the level is at least 2^32).

use rust_hdl::prelude::*;

/// Combinational shifter and adder, fed with SHAPE already decoded (see `ShapeDecode`).
///
/// No bit shifted out to the left is lost: `((c << m) >> n)` is `c << (m - n)` or
/// `c >> (n - m)`, both taken from one left barrel. A bit of `c` pushed past bit 31 (`c & spill_mask`) or a carry out of
/// `+ k` sets `level_ovf`. Every comparison downstream is against a gate of at most 32 bits,
/// so `level_ovf` means "never reached".
#[derive(LogicBlock, Default)]
pub struct LevelShifter {
    /// Used credits.
    pub c: Signal<In, Bits<16>>,
    /// SHAPE decoded: m >= n (else take the barrel's upper half).
    pub left: Signal<In, Bit>,
    /// SHAPE decoded: left-shift distance of the barrel.
    pub distance: Signal<In, Bits<5>>,
    /// SHAPE decoded: the right shift clears c.
    pub zero: Signal<In, Bit>,
    /// SHAPE decoded: bits of `c` that spill past bit 31.
    pub spill_mask: Signal<In, Bits<16>>,
    /// K.
    pub k: Signal<In, Bits<16>>,
    /// f(c) modulo 2^32.
    pub level: Signal<Out, Bits<32>>,
    /// f(c) >= 2^32.
    pub level_ovf: Signal<Out, Bit>,
    c32: Signal<Local, Bits<32>>,
    barrel: Signal<Local, Bits<32>>,
    shifted: Signal<Local, Bits<32>>,
    spill: Signal<Local, Bits<16>>,
    lo16: Signal<Local, Bits<16>>,
    hi16: Signal<Local, Bits<16>>,
    lo17: Signal<Local, Bits<17>>,
    carry: Signal<Local, Bit>,
}

impl Logic for LevelShifter {
    #[hdl_gen]
    fn update(&mut self) {
        self.c32.next = bit_cast::<32, 16>(self.c.val());
        // One barrel for both directions: c >> r is (c << (16 - r)) >> 16 (see ShapeDecode).
        self.barrel.next = self.c32.val() << self.distance.val();
        if self.left.val() {
            self.shifted.next = self.barrel.val();
        } else if self.zero.val() {
            self.shifted.next = 0.into();
        } else {
            self.shifted.next = self.barrel.val() >> 16;
        }
        self.spill.next = self.c.val() & self.spill_mask.val();
        self.level.next = self.shifted.val() + bit_cast::<32, 16>(self.k.val());
        // Carry out of `shifted + k`, computed beside the adder rather than after it: k has 16
        // bits, so it carries out only if the low half carries and the high half is all ones.
        self.lo16.next = self.shifted.val().get_bits::<16>(0);
        self.hi16.next = self.shifted.val().get_bits::<16>(16);
        self.lo17.next = bit_cast::<17, 16>(self.lo16.val()) + bit_cast::<17, 16>(self.k.val());
        self.carry.next = self.lo17.val().get_bit(16) & self.hi16.val().all();
        self.level_ovf.next = self.spill.val().any() | self.carry.val();
    }
}

#[test]
fn level_shifter_synthesizes() {
    let mut uut = LevelShifter::default();
    uut.connect_all();
    yosys_validate("level_shifter", &generate_verilog(&uut)).unwrap();
}
