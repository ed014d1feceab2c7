//! The shift-add level `f(c) = ((c << m) >> n) + k`, exact, as a 32-bit value plus an
//! overflow flag (the level is at least 2^32).

use rust_hdl::prelude::*;

/// Combinational shifter and adder.
///
/// No bit shifted out to the left is lost: `((c << m) >> n)` equals `c << (m - n)` when
/// `m >= n` and `c >> (n - m)` otherwise. The left shift's bits above 31 (the "spill", `c >>
/// (32 - (m - n))`) and the carry of `+ k` set `level_ovf`. Every comparison downstream is
/// against a gate of at most 32 bits, so `level_ovf` means "never reached".
#[derive(LogicBlock)]
pub struct LevelShifter {
    /// Used credits.
    pub c: Signal<In, Bits<16>>,
    /// SHAPE.m.
    pub m: Signal<In, Bits<5>>,
    /// SHAPE.n.
    pub n: Signal<In, Bits<5>>,
    /// K.
    pub k: Signal<In, Bits<16>>,
    /// f(c) modulo 2^32.
    pub level: Signal<Out, Bits<32>>,
    /// f(c) >= 2^32.
    pub level_ovf: Signal<Out, Bit>,
    thirty_two: Constant<Bits<6>>,
    c32: Signal<Local, Bits<32>>,
    d_left: Signal<Local, Bits<6>>,
    d_right: Signal<Local, Bits<6>>,
    spill_sh: Signal<Local, Bits<6>>,
    left: Signal<Local, Bits<32>>,
    spill: Signal<Local, Bits<32>>,
    right: Signal<Local, Bits<32>>,
    shifted: Signal<Local, Bits<32>>,
    shift_ovf: Signal<Local, Bit>,
    sum: Signal<Local, Bits<32>>,
}

impl Default for LevelShifter {
    fn default() -> Self {
        Self {
            c: Default::default(),
            m: Default::default(),
            n: Default::default(),
            k: Default::default(),
            level: Default::default(),
            level_ovf: Default::default(),
            thirty_two: Constant::new(32.into()),
            c32: Default::default(),
            d_left: Default::default(),
            d_right: Default::default(),
            spill_sh: Default::default(),
            left: Default::default(),
            spill: Default::default(),
            right: Default::default(),
            shifted: Default::default(),
            shift_ovf: Default::default(),
            sum: Default::default(),
        }
    }
}

impl Logic for LevelShifter {
    #[hdl_gen]
    fn update(&mut self) {
        self.c32.next = bit_cast::<32, 16>(self.c.val());
        // Distances on 6 bits; only the one matching the sign of m - n is used.
        self.d_left.next = bit_cast::<6, 5>(self.m.val()) - bit_cast::<6, 5>(self.n.val());
        self.d_right.next = bit_cast::<6, 5>(self.n.val()) - bit_cast::<6, 5>(self.m.val());
        self.spill_sh.next = self.thirty_two.val() - self.d_left.val();
        self.left.next = self.c32.val() << self.d_left.val();
        // Shifting by 32 (d_left = 0) gives 0 in Rust and in Verilog.
        self.spill.next = self.c32.val() >> self.spill_sh.val();
        self.right.next = self.c32.val() >> self.d_right.val();
        if self.m.val() >= self.n.val() {
            self.shifted.next = self.left.val();
            self.shift_ovf.next = self.spill.val().any();
        } else {
            self.shifted.next = self.right.val();
            self.shift_ovf.next = false;
        }
        self.sum.next = self.shifted.val() + bit_cast::<32, 16>(self.k.val());
        self.level.next = self.sum.val();
        self.level_ovf.next = self.shift_ovf.val() | (self.sum.val() < self.shifted.val());
    }
}

#[test]
fn level_shifter_synthesizes() {
    let mut uut = LevelShifter::default();
    uut.connect_all();
    yosys_validate("level_shifter", &generate_verilog(&uut)).unwrap();
}
