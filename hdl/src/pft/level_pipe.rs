//! The pipelined level (build option `pipelined`): `f(c)` computed over two registered
//! stages, shift then add, so that neither the barrel nor the adder is in the cycle's
//! decision path.

use super::level_shifter::LevelShifter;
use rust_hdl::prelude::*;

/// Two pipeline registers after the shifter:
///
/// ```text
///   S(t+1) = (c(t) << m) >> n        (LevelShifter with k = 0: 32 bits + spill)
///   L(t+1) = S(t) + k(t)             (32 bits + overflow)
/// ```
///
/// so `level` in cycle t is `f(c(t-2))`, with SHAPE of cycle t-2 and K of cycle t-1. The
/// registers have no reset: they are recomputed every cycle, reset cycles included, and
/// power up at 0 like every other flip-flop.
#[derive(LogicBlock, Default)]
pub struct LevelPipe {
    /// Block clock.
    pub clock: Signal<In, Clock>,
    /// Used credits.
    pub c: Signal<In, Bits<16>>,
    /// SHAPE decoded: m >= n.
    pub left: Signal<In, Bit>,
    /// SHAPE decoded: shift distance of the barrel.
    pub distance: Signal<In, Bits<5>>,
    /// SHAPE decoded: bits of `c` that spill past bit 31.
    pub spill_mask: Signal<In, Bits<16>>,
    /// K.
    pub k: Signal<In, Bits<16>>,
    /// L: f(c) of two cycles ago, modulo 2^32.
    pub level: Signal<Out, Bits<32>>,
    /// L >= 2^32.
    pub level_ovf: Signal<Out, Bit>,
    /// The shift stage (its own `+ k` is fed 0 and folds away).
    pub shifter: LevelShifter,
    shift_q: DFF<Bits<32>>,
    shift_ovf_q: DFF<Bit>,
    level_q: DFF<Bits<32>>,
    level_ovf_q: DFF<Bit>,
    lo16: Signal<Local, Bits<16>>,
    hi16: Signal<Local, Bits<16>>,
    lo17: Signal<Local, Bits<17>>,
}

impl Logic for LevelPipe {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, shift_q, shift_ovf_q, level_q, level_ovf_q);
        // Stage 1: the barrel.
        self.shifter.c.next = self.c.val();
        self.shifter.left.next = self.left.val();
        self.shifter.distance.next = self.distance.val();
        self.shifter.spill_mask.next = self.spill_mask.val();
        self.shifter.k.next = 0.into();
        self.shift_q.d.next = self.shifter.level.val();
        self.shift_ovf_q.d.next = self.shifter.level_ovf.val();
        // Stage 2: + k. k has 16 bits, so the sum carries out of bit 31 only if the low half
        // carries and the high half is all ones.
        self.level_q.d.next = self.shift_q.q.val() + bit_cast::<32, 16>(self.k.val());
        self.lo16.next = self.shift_q.q.val().get_bits::<16>(0);
        self.hi16.next = self.shift_q.q.val().get_bits::<16>(16);
        self.lo17.next = bit_cast::<17, 16>(self.lo16.val()) + bit_cast::<17, 16>(self.k.val());
        self.level_ovf_q.d.next =
            self.shift_ovf_q.q.val() | (self.lo17.val().get_bit(16) & self.hi16.val().all());
        self.level.next = self.level_q.q.val();
        self.level_ovf.next = self.level_ovf_q.q.val();
    }
}

#[test]
fn level_pipe_synthesizes() {
    let mut uut = LevelPipe::default();
    uut.connect_all();
    yosys_validate("level_pipe", &generate_verilog(&uut)).unwrap();
}
