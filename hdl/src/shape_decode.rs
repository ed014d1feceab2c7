//! Decode of the SHAPE register (m, n) into what the level shifter needs, done once when
//! SHAPE is written instead of in every cycle's critical path.

use rust_hdl::prelude::*;

/// `((c << m) >> n)` equals `c << (m - n)` when `m >= n` and `c >> (n - m)` otherwise. For
/// the left case, the bits of the 16-bit `c` that land above bit 31 are those at positions
/// `>= 32 - (m - n)`: `spill_mask` marks them (zero when nothing can spill).
#[derive(LogicBlock)]
pub struct ShapeDecode {
    /// SHAPE.m.
    pub m: Signal<In, Bits<5>>,
    /// SHAPE.n.
    pub n: Signal<In, Bits<5>>,
    /// `m >= n`: shift left by `d_left`, else right by `d_right`.
    pub left: Signal<Out, Bit>,
    /// `m - n` (meaningful when `left`).
    pub d_left: Signal<Out, Bits<5>>,
    /// `n - m` (meaningful when not `left`).
    pub d_right: Signal<Out, Bits<5>>,
    /// Bits of `c` that a left shift pushes past bit 31.
    pub spill_mask: Signal<Out, Bits<16>>,
    ones: Constant<Bits<16>>,
    thirty_two: Constant<Bits<6>>,
    d6: Signal<Local, Bits<6>>,
    spill_sh: Signal<Local, Bits<6>>,
}

impl Default for ShapeDecode {
    fn default() -> Self {
        Self {
            m: Default::default(),
            n: Default::default(),
            left: Default::default(),
            d_left: Default::default(),
            d_right: Default::default(),
            spill_mask: Default::default(),
            ones: Constant::new(0xFFFF.into()),
            thirty_two: Constant::new(32.into()),
            d6: Default::default(),
            spill_sh: Default::default(),
        }
    }
}

impl Logic for ShapeDecode {
    #[hdl_gen]
    fn update(&mut self) {
        self.left.next = self.m.val() >= self.n.val();
        self.d_left.next = self.m.val() - self.n.val();
        self.d_right.next = self.n.val() - self.m.val();
        self.d6.next = bit_cast::<6, 5>(self.m.val()) - bit_cast::<6, 5>(self.n.val());
        // 32 - d in 1..32; shifting the 16 ones by 16 or more leaves 0 (nothing spills).
        self.spill_sh.next = self.thirty_two.val() - self.d6.val();
        if self.left.val() {
            self.spill_mask.next = self.ones.val() << self.spill_sh.val();
        } else {
            self.spill_mask.next = 0.into();
        }
    }
}

#[test]
fn shape_decode_synthesizes() {
    let mut uut = ShapeDecode::default();
    uut.connect_all();
    yosys_validate("shape_decode", &generate_verilog(&uut)).unwrap();
}
