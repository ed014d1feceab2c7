//! The shift-add level `f(c) = ((c << m) >> n) + k`, exact, as a 32-bit value plus an
//! overflow flag (the level is at least 2^32).

use rust_hdl::prelude::*;

/// Combinational shifter and adder, fed with SHAPE already decoded (see `ShapeDecode`).
///
/// No bit shifted out to the left is lost: `((c << m) >> n)` is `c << (m - n)` or
/// `c >> (n - m)`. Both come from one barrel: `c` shifted left by `distance[3:0]`, then
/// moved up by 16 (`distance[4]`, left shifts of 16 and more), kept, or replaced by its upper
/// half (a right shift). A bit of `c` pushed past bit 31 (`c & spill_mask`) or a carry out of
/// `+ k` sets `level_ovf`. Every comparison downstream is against a gate of at most 32 bits,
/// so `level_ovf` means "never reached".
#[derive(LogicBlock, Default)]
pub struct LevelShifter {
    /// Used credits.
    pub c: Signal<In, Bits<16>>,
    /// SHAPE decoded: m >= n (else take the barrel's upper half).
    pub left: Signal<In, Bit>,
    /// SHAPE decoded: shift distance of the barrel.
    pub distance: Signal<In, Bits<5>>,
    /// SHAPE decoded: bits of `c` that spill past bit 31.
    pub spill_mask: Signal<In, Bits<16>>,
    /// K.
    pub k: Signal<In, Bits<16>>,
    /// f(c) modulo 2^32.
    pub level: Signal<Out, Bits<32>>,
    /// f(c) >= 2^32.
    pub level_ovf: Signal<Out, Bit>,
    c32: Signal<Local, Bits<32>>,
    low4: Signal<Local, Bits<4>>,
    barrel: Signal<Local, Bits<32>>,
    shifted: Signal<Local, Bits<32>>,
    spill: Signal<Local, Bits<16>>,
    sum33: Signal<Local, Bits<33>>,
}

impl Logic for LevelShifter {
    #[hdl_gen]
    fn update(&mut self) {
        self.c32.next = bit_cast::<32, 16>(self.c.val());
        self.low4.next = self.distance.val().get_bits::<4>(0);
        self.barrel.next = self.c32.val() << self.low4.val();
        // The last stage picks one of three: a right shift is the upper half (c >> r is
        // (c << (16 - r)) >> 16), a left shift by 16 or more moves the barrel up by 16.
        if !self.left.val() {
            self.shifted.next = self.barrel.val() >> 16;
        } else if self.distance.val().get_bit(4) {
            self.shifted.next = self.barrel.val() << 16;
        } else {
            self.shifted.next = self.barrel.val();
        }
        self.spill.next = self.c.val() & self.spill_mask.val();
        // One 33-bit adder: bit 32 is the carry out of `+ k`.
        self.sum33.next = bit_cast::<33, 32>(self.shifted.val()) + bit_cast::<33, 16>(self.k.val());
        self.level.next = self.sum33.val().get_bits::<32>(0);
        self.level_ovf.next = self.spill.val().any() | self.sum33.val().get_bit(32);
    }
}

#[test]
fn level_shifter_synthesizes() {
    let mut uut = LevelShifter::default();
    uut.connect_all();
    yosys_validate("level_shifter", &generate_verilog(&uut)).unwrap();
}
