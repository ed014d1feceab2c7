//! Decode of the SHAPE register (m, n, r_width) into what the level shifter and the RI gate
//! need, done once when SHAPE is written instead of in every cycle's critical path.

use rust_hdl::prelude::*;

/// `((c << m) >> n)` equals `c << (m - n)` when `m >= n` and `c >> (n - m)` otherwise. The
/// shifter has one left barrel: a right shift by `r <= 16` is `(c << (16 - r)) >> 16`, and
/// `16 - r` is `(m - n) + 16` modulo 32, i.e. `m - n` with bit 4 flipped. A right shift by
/// more than 16 clears the 16-bit `c` (`zero`). For the left case, the bits of `c` that land
/// above bit 31 are those at positions `>= 32 - (m - n)`: `spill_mask` marks them.
/// `r_mask` keeps the low `r_width` bits of the RI generator (all 32 for 0 and above 32).
#[derive(LogicBlock)]
pub struct ShapeDecode {
    /// SHAPE.m.
    pub m: Signal<In, Bits<5>>,
    /// SHAPE.n.
    pub n: Signal<In, Bits<5>>,
    /// SHAPE.r_width.
    pub r_width: Signal<In, Bits<6>>,
    /// `m >= n`: the level is the barrel's output, else its upper half.
    pub left: Signal<Out, Bit>,
    /// Left-shift distance of the barrel.
    pub distance: Signal<Out, Bits<5>>,
    /// `n - m > 16`: the shifted value is 0.
    pub zero: Signal<Out, Bit>,
    /// Bits of `c` that a left shift pushes past bit 31.
    pub spill_mask: Signal<Out, Bits<16>>,
    /// The bits of r that RI compares with f(c).
    pub r_mask: Signal<Out, Bits<32>>,
    ones: Constant<Bits<16>>,
    ones32: Constant<Bits<32>>,
    thirty_two: Constant<Bits<6>>,
    sixteen: Constant<Bits<6>>,
    d5: Signal<Local, Bits<5>>,
    d6: Signal<Local, Bits<6>>,
    r6: Signal<Local, Bits<6>>,
    spill_sh: Signal<Local, Bits<6>>,
    mask_sh: Signal<Local, Bits<6>>,
}

impl Default for ShapeDecode {
    fn default() -> Self {
        Self {
            m: Default::default(),
            n: Default::default(),
            r_width: Default::default(),
            left: Default::default(),
            distance: Default::default(),
            zero: Default::default(),
            spill_mask: Default::default(),
            r_mask: Default::default(),
            ones: Constant::new(0xFFFF.into()),
            ones32: Constant::new(0xFFFF_FFFFu64.into()),
            thirty_two: Constant::new(32.into()),
            sixteen: Constant::new(16.into()),
            d5: Default::default(),
            d6: Default::default(),
            r6: Default::default(),
            spill_sh: Default::default(),
            mask_sh: Default::default(),
        }
    }
}

impl Logic for ShapeDecode {
    #[hdl_gen]
    fn update(&mut self) {
        self.left.next = self.m.val() >= self.n.val();
        self.d5.next = self.m.val() - self.n.val();
        self.d6.next = bit_cast::<6, 5>(self.m.val()) - bit_cast::<6, 5>(self.n.val());
        self.r6.next = bit_cast::<6, 5>(self.n.val()) - bit_cast::<6, 5>(self.m.val());
        // 32 - d in 1..32; shifting the 16 ones by 16 or more leaves 0 (nothing spills).
        self.spill_sh.next = self.thirty_two.val() - self.d6.val();
        if self.left.val() {
            self.distance.next = self.d5.val();
            self.zero.next = false;
            self.spill_mask.next = self.ones.val() << self.spill_sh.val();
        } else {
            self.distance.next = self.d5.val() ^ 16;
            self.zero.next = self.r6.val() > self.sixteen.val();
            self.spill_mask.next = 0.into();
        }
        // r_width w in 1..=31 keeps the low w bits: all ones shifted right by 32 - w.
        self.mask_sh.next = self.thirty_two.val() - self.r_width.val();
        if (self.r_width.val() == 0) | self.r_width.val().get_bit(5) {
            self.r_mask.next = self.ones32.val();
        } else {
            self.r_mask.next = self.ones32.val() >> self.mask_sh.val();
        }
    }
}

#[test]
fn shape_decode_synthesizes() {
    let mut uut = ShapeDecode::default();
    uut.connect_all();
    yosys_validate("shape_decode", &generate_verilog(&uut)).unwrap();
}
