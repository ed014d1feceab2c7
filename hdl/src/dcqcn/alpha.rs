//! DCQCN's per-flow alpha register: decays at the end of each alpha-timer period, loads the
//! CNP's update.

use super::model::{Params, ONE};
use rust_hdl::prelude::*;

/// One flow's alpha, cycle-exact to `dcqcn::model` (steps 1 and 2 of a cycle): `decay`
/// (the flow's alpha timer ends a period) gives
/// `alpha_now = alpha - ((alpha + 2^(g_shift-1)) >> g_shift)` (`alpha (1 - g)` rounded to
/// the nearest unit), else `alpha_now = alpha`; the cut of a CNP in this cycle reads
/// `alpha_now`, and the CNP loads `cnp_alpha` (computed once per port by `Cut` from
/// `alpha_now`). Units of 2^-15 (`ONE` = 1.0), 16 bits; resets to 1.0. `on`: a CNP came
/// since the reset (alpha's timer runs from the first CNP).
///
/// The decay is written twice, once for `alpha_now` and once for the register, so that
/// the output does not depend on `cnp_alpha` in the Verilog's always block (the port
/// computes `cnp_alpha` from `alpha_now`: one shared computation would be a false loop to
/// Verilator, UNOPTFLAT). Yosys merges the two.
///
/// ```text
///                 +-------------------------------------------------+
///  decay -------->|  a1 = decay ? alpha - round(alpha >> g) : alpha |---> alpha[16]
///  cnp ---------->|  alpha <= cnp ? cnp_alpha : a1                  |---> alpha_now[16]
///  cnp_alpha[16]->|  on <= on | cnp                                 |---> on
///  clock, reset ->|                                                 |
///                 +-------------------------------------------------+
/// ```
#[derive(LogicBlock)]
pub struct Alpha {
    /// Block clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: alpha 1.0, no CNP yet.
    pub reset: Signal<In, Bit>,
    /// The flow's alpha timer ends a period this cycle.
    pub decay: Signal<In, Bit>,
    /// A CNP of the flow this cycle.
    pub cnp: Signal<In, Bit>,
    /// Alpha after the CNP (from `Cut`).
    pub cnp_alpha: Signal<In, Bits<16>>,
    /// Alpha (the register).
    pub alpha: Signal<Out, Bits<16>>,
    /// Alpha after this cycle's decay, before its CNP.
    pub alpha_now: Signal<Out, Bits<16>>,
    /// A CNP came since the reset (the register).
    pub on: Signal<Out, Bit>,
    // Parameters (derived in new(): do not override).
    g_shift: Constant<Bits<4>>,
    half: Constant<Bits<16>>,
    one: Constant<Bits<16>>,
    // State.
    alpha_q: DFF<Bits<16>>,
    on_q: DFF<Bit>,
    sum: Signal<Local, Bits<16>>,
    part: Signal<Local, Bits<16>>,
    sum_d: Signal<Local, Bits<16>>,
    part_d: Signal<Local, Bits<16>>,
}

impl Alpha {
    /// Alpha for `p` (its g). Panics if `p` does not pass `Params::check`.
    pub fn new(p: &Params) -> Self {
        if let Err(e) = p.check() {
            panic!("Alpha: {e}");
        }
        Self {
            clock: Default::default(),
            reset: Default::default(),
            decay: Default::default(),
            cnp: Default::default(),
            cnp_alpha: Default::default(),
            alpha: Default::default(),
            alpha_now: Default::default(),
            on: Default::default(),
            g_shift: Constant::new((p.g_shift as u64).into()),
            half: Constant::new(((1u64 << p.g_shift) >> 1).into()),
            one: Constant::new((ONE as u64).into()),
            alpha_q: Default::default(),
            on_q: Default::default(),
            sum: Default::default(),
            part: Default::default(),
            sum_d: Default::default(),
            part_d: Default::default(),
        }
    }

    /// Alpha now.
    pub fn state(&self) -> u16 {
        self.alpha_q.q.val().index() as u16
    }
}

impl Logic for Alpha {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, alpha_q, on_q);
        // alpha + 2^(g_shift-1) <= 2^15 + 2^14: no carry out of 16 bits.
        self.sum.next = self.alpha_q.q.val() + self.half.val();
        self.part.next = self.sum.val() >> self.g_shift.val();
        self.alpha_now.next = self.alpha_q.q.val();
        if self.decay.val() {
            self.alpha_now.next = self.alpha_q.q.val() - self.part.val();
        }
        // The same for the register (see the type's doc).
        self.sum_d.next = self.alpha_q.q.val() + self.half.val();
        self.part_d.next = self.sum_d.val() >> self.g_shift.val();
        if self.decay.val() {
            self.alpha_q.d.next = self.alpha_q.q.val() - self.part_d.val();
        }
        if self.cnp.val() {
            self.alpha_q.d.next = self.cnp_alpha.val();
            self.on_q.d.next = true;
        }
        if self.reset.val() {
            self.alpha_q.d.next = self.one.val();
            self.on_q.d.next = false;
        }
        self.alpha.next = self.alpha_q.q.val();
        self.on.next = self.on_q.q.val();
    }
}

#[test]
fn alpha_synthesizes() {
    let mut uut = Alpha::new(&Params::paper());
    uut.connect_all();
    yosys_validate("dcqcn_alpha", &generate_verilog(&uut)).unwrap();
}
