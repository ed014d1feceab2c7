//! DCQCN's rate cut and alpha update at a CNP: combinational, one per port.

use super::model::{Params, ONE};
use rust_hdl::prelude::*;

/// The CNP's arithmetic, cycle-exact to `dcqcn::model::Params::cut` and `alpha_cnp`:
/// `rc_cut = max(rc - ((rc * alpha + 2^15) >> 16), min_rate)` (the paper's
/// `RC (1 - alpha/2)` rounded to the nearest unit, one 16 x 16 multiply) and
/// `alpha_next = alpha - ((alpha + 2^(g_shift-1)) >> g_shift) + (ONE >> g_shift)` (the
/// paper's `(1 - g) alpha + g`, rounded as `Alpha`'s decay). `alpha` is the flow's alpha after this cycle's decay. One
/// CNP arrives per cycle at most (one flit per cycle on the port's link), so the port has
/// one, fed with the CNP's flow by a multiplexer.
///
/// ```text
///                 +------------------------------------------------+
///  rc[16] ------->|  rc_cut = max(rc - round(rc * alpha >> 16), min)|---> rc_cut[16]
///  alpha[16] ---->|  alpha_next = alpha - round(alpha >> g) + g    |---> alpha_next[16]
///                 +------------------------------------------------+
/// ```
#[derive(LogicBlock)]
pub struct Cut {
    /// The flow's current rate.
    pub rc: Signal<In, Bits<16>>,
    /// Its alpha after this cycle's decay.
    pub alpha: Signal<In, Bits<16>>,
    /// The rate after the cut.
    pub rc_cut: Signal<Out, Bits<16>>,
    /// Alpha after the CNP.
    pub alpha_next: Signal<Out, Bits<16>>,
    // Parameters (derived in new(): do not override).
    min_rate: Constant<Bits<16>>,
    g_shift: Constant<Bits<4>>,
    g: Constant<Bits<16>>,
    half: Constant<Bits<16>>,
    half32: Constant<Bits<32>>,
    // Wires.
    prod: Signal<Local, Bits<32>>,
    rounded: Signal<Local, Bits<32>>,
    high: Signal<Local, Bits<32>>,
    dec: Signal<Local, Bits<16>>,
    r: Signal<Local, Bits<16>>,
    sum: Signal<Local, Bits<16>>,
    part: Signal<Local, Bits<16>>,
    kept: Signal<Local, Bits<16>>,
}

impl Cut {
    /// The cut for `p` (its floor and g). Panics if `p` does not pass `Params::check`.
    pub fn new(p: &Params) -> Self {
        if let Err(e) = p.check() {
            panic!("Cut: {e}");
        }
        Self {
            rc: Default::default(),
            alpha: Default::default(),
            rc_cut: Default::default(),
            alpha_next: Default::default(),
            min_rate: Constant::new((p.min_rate as u64).into()),
            g_shift: Constant::new((p.g_shift as u64).into()),
            g: Constant::new(((ONE >> p.g_shift) as u64).into()),
            half: Constant::new(((1u64 << p.g_shift) >> 1).into()),
            half32: Constant::new((1u64 << 15).into()),
            prod: Default::default(),
            rounded: Default::default(),
            high: Default::default(),
            dec: Default::default(),
            r: Default::default(),
            sum: Default::default(),
            part: Default::default(),
            kept: Default::default(),
        }
    }
}

impl Logic for Cut {
    #[hdl_gen]
    fn update(&mut self) {
        self.prod.next = self.rc.val() * self.alpha.val();
        // rc * alpha <= 2^30: adding 2^15 does not carry out. The high half through a Local:
        // every bit is read (no unused bits in the lint).
        self.rounded.next = self.prod.val() + self.half32.val();
        self.high.next = self.rounded.val() >> 16;
        self.dec.next = bit_cast::<16, 32>(self.high.val());
        // dec <= round(rc / 2) <= rc (alpha <= 1.0): no wrap.
        self.r.next = self.rc.val() - self.dec.val();
        self.rc_cut.next = self.r.val();
        if self.r.val() < self.min_rate.val() {
            self.rc_cut.next = self.min_rate.val();
        }
        self.sum.next = self.alpha.val() + self.half.val();
        self.part.next = self.sum.val() >> self.g_shift.val();
        self.kept.next = self.alpha.val() - self.part.val();
        self.alpha_next.next = self.kept.val() + self.g.val();
    }
}

#[test]
fn cut_synthesizes() {
    let mut uut = Cut::new(&Params::paper());
    uut.connect_all();
    yosys_validate("dcqcn_cut", &generate_verilog(&uut)).unwrap();
}
