//! Decode of the SHAPE register (m, n, r_width) into what the level shifter and the RI gate
//! need, done once when SHAPE is written instead of in every cycle's critical path.

use rust_hdl::prelude::*;

/// `((c << m) >> n)` equals `c << (m - n)` when `m >= n` and `c >> (n - m)` otherwise. The
/// shifter (see `LevelShifter`) shifts `c` left by `distance[3:0]`, then moves the result up
/// by 16 (`left` and `distance[4]`), keeps it (`left`), or takes its upper half (`!left`, a
/// right shift). So `distance` is `m - n` for a left shift; for a right shift by
/// `r = n - m <= 16` it is `16 - r`, which is `(m - n) mod 32` with bit 4 clear, and for
/// `r > 16` it is 0: the upper half of `c << 0` is 0, which is `c >> r` for a 16-bit `c`.
/// For a left shift by `d`, the bits of `c` that land above bit 31 are those at positions
/// `>= 32 - d`, i.e. above the `d - 16` top bits of 16 (only when `d >= 16`): `spill_mask`
/// marks them. `r_mask` keeps the low `r_width` bits of the RI generator (all 32 for 0 and
/// above 32). The masks are shifts of constants, so no adder is spent on them.
#[derive(LogicBlock)]
pub struct ShapeDecode {
    /// SHAPE.m.
    pub m: Signal<In, Bits<5>>,
    /// SHAPE.n.
    pub n: Signal<In, Bits<5>>,
    /// SHAPE.r_width.
    pub r_width: Signal<In, Bits<6>>,
    /// `m >= n`: a left shift, else a right shift.
    pub left: Signal<Out, Bit>,
    /// Shift distance of the barrel (see above).
    pub distance: Signal<Out, Bits<5>>,
    /// Bits of `c` that a left shift pushes past bit 31.
    pub spill_mask: Signal<Out, Bits<16>>,
    /// The bits of r that RI compares with f(c).
    pub r_mask: Signal<Out, Bits<32>>,
    ones: Constant<Bits<16>>,
    ones32: Constant<Bits<32>>,
    diff: Signal<Local, Bits<6>>,
    low4: Signal<Local, Bits<4>>,
    kept: Signal<Local, Bits<16>>,
    r_low: Signal<Local, Bits<5>>,
    above: Signal<Local, Bits<32>>,
}

impl Default for ShapeDecode {
    fn default() -> Self {
        Self {
            m: Default::default(),
            n: Default::default(),
            r_width: Default::default(),
            left: Default::default(),
            distance: Default::default(),
            spill_mask: Default::default(),
            r_mask: Default::default(),
            ones: Constant::new(0xFFFF.into()),
            ones32: Constant::new(0xFFFF_FFFFu64.into()),
            diff: Default::default(),
            low4: Default::default(),
            kept: Default::default(),
            r_low: Default::default(),
            above: Default::default(),
        }
    }
}

impl Logic for ShapeDecode {
    #[hdl_gen]
    fn update(&mut self) {
        // m - n on 6 bits: bit 5 is the borrow (m < n), bits 4:0 are (m - n) mod 32.
        self.diff.next = bit_cast::<6, 5>(self.m.val()) - bit_cast::<6, 5>(self.n.val());
        self.left.next = !self.diff.val().get_bit(5);
        self.low4.next = self.diff.val().get_bits::<4>(0);
        if !self.diff.val().get_bit(5) {
            self.distance.next = self.diff.val().get_bits::<5>(0);
        } else if self.diff.val().get_bit(4) {
            // r = n - m <= 16: shift by 16 - r, then take the upper half.
            self.distance.next = bit_cast::<5, 4>(self.low4.val());
        } else {
            // r > 16: c >> r is 0, the upper half of c << 0.
            self.distance.next = 0.into();
        }
        // Left by d >= 16: the top d - 16 bits of c spill, the 16 - (d - 16) below them stay.
        self.kept.next = self.ones.val() >> self.low4.val();
        if !self.diff.val().get_bit(5) & self.diff.val().get_bit(4) {
            self.spill_mask.next = !self.kept.val();
        } else {
            self.spill_mask.next = 0.into();
        }
        // r_width w in 1..=31 keeps the low w bits: not the ones shifted up by w.
        self.r_low.next = self.r_width.val().get_bits::<5>(0);
        self.above.next = self.ones32.val() << self.r_low.val();
        if (self.r_width.val() == 0) | self.r_width.val().get_bit(5) {
            self.r_mask.next = self.ones32.val();
        } else {
            self.r_mask.next = !self.above.val();
        }
    }
}

#[test]
fn shape_decode_synthesizes() {
    let mut uut = ShapeDecode::default();
    uut.connect_all();
    yosys_validate("shape_decode", &generate_verilog(&uut)).unwrap();
}
