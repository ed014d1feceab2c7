//! DCQCN's per-flow rate registers: the current and target rate, the event counts, the
//! byte counter and the limited flag, with the CNP's step.

use super::byte_counter::WB;
use super::model::LINE;
use rust_hdl::prelude::*;

/// One flow's rate state, cycle-exact to `dcqcn::model` (step 2 of a cycle and the
/// registers): the outputs `*1` are the values after this cycle's CNP (`cnp`: `rt = rc`,
/// `rc = rc_cut`, the counts and the byte counter 0, limited); the registers load the
/// values after the whole cycle (`*_in`, from the slot's increases and the port's byte
/// counter). Reset: both rates at the line rate, counts and byte counter 0, not limited.
///
/// The outputs come from the registers and `cnp`, `rc_cut` only, never from the `*_in`
/// inputs, so the chain CNP -> rate timer -> byte counter -> registers runs through other
/// blocks without a false loop in the Verilog (Verilator's UNOPTFLAT).
///
/// ```text
///                 +--------------------------------------------+
///  cnp ---------->|  rc, rt (16), t, bc (8), bytes (19),       |---> rc, rt, limited
///  rc_cut[16] --->|  limited: registers                        |---> rt1, rc1, t1, bc1,
///  *_in --------->|  *1 = cnp ? (rc, rc_cut, 0, 0, 0, 1) : q   |     bytes1, lim1
///  clock, reset ->|                                            |
///                 +--------------------------------------------+
/// ```
#[derive(LogicBlock)]
pub struct Rates {
    /// Block clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset.
    pub reset: Signal<In, Bit>,
    /// A CNP of the flow this cycle.
    pub cnp: Signal<In, Bit>,
    /// Its cut rate.
    pub rc_cut: Signal<In, Bits<16>>,
    /// The values after the cycle, loaded at its end.
    pub rt_in: Signal<In, Bits<16>>,
    pub rc_in: Signal<In, Bits<16>>,
    pub t_in: Signal<In, Bits<8>>,
    pub bc_in: Signal<In, Bits<8>>,
    pub bytes_in: Signal<In, Bits<WB>>,
    pub lim_in: Signal<In, Bit>,
    /// The registers: current and target rate, limited.
    pub rc: Signal<Out, Bits<16>>,
    pub rt: Signal<Out, Bits<16>>,
    pub limited: Signal<Out, Bit>,
    /// The values after this cycle's CNP.
    pub rt1: Signal<Out, Bits<16>>,
    pub rc1: Signal<Out, Bits<16>>,
    pub t1: Signal<Out, Bits<8>>,
    pub bc1: Signal<Out, Bits<8>>,
    pub bytes1: Signal<Out, Bits<WB>>,
    pub lim1: Signal<Out, Bit>,
    // Parameters.
    line: Constant<Bits<16>>,
    // State.
    rc_q: DFF<Bits<16>>,
    rt_q: DFF<Bits<16>>,
    t_q: DFF<Bits<8>>,
    bc_q: DFF<Bits<8>>,
    bytes_q: DFF<Bits<WB>>,
    lim_q: DFF<Bit>,
}

/// The registers of `Rates`, read by a testbench: `(rc, rt, t, bc, bytes, limited)`.
pub type RatesState = (u16, u16, u8, u8, u32, bool);

impl Default for Rates {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            cnp: Default::default(),
            rc_cut: Default::default(),
            rt_in: Default::default(),
            rc_in: Default::default(),
            t_in: Default::default(),
            bc_in: Default::default(),
            bytes_in: Default::default(),
            lim_in: Default::default(),
            rc: Default::default(),
            rt: Default::default(),
            limited: Default::default(),
            rt1: Default::default(),
            rc1: Default::default(),
            t1: Default::default(),
            bc1: Default::default(),
            bytes1: Default::default(),
            lim1: Default::default(),
            line: Constant::new((LINE as u64).into()),
            rc_q: Default::default(),
            rt_q: Default::default(),
            t_q: Default::default(),
            bc_q: Default::default(),
            bytes_q: Default::default(),
            lim_q: Default::default(),
        }
    }
}

impl Rates {
    /// The registers now.
    pub fn state(&self) -> RatesState {
        (
            self.rc_q.q.val().index() as u16,
            self.rt_q.q.val().index() as u16,
            self.t_q.q.val().index() as u8,
            self.bc_q.q.val().index() as u8,
            self.bytes_q.q.val().index() as u32,
            self.lim_q.q.val(),
        )
    }
}

impl Logic for Rates {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, rc_q, rt_q, t_q, bc_q, bytes_q, lim_q);
        // Each output is written once per evaluation (an `else`, not a default then an
        // override): a glitch here fed back through the slot's inputs and looped iverilog's
        // event scheduler without end (it is not a logic loop: Verilator ran it).
        if self.cnp.val() {
            self.rt1.next = self.rc_q.q.val();
            self.rc1.next = self.rc_cut.val();
            self.t1.next = 0.into();
            self.bc1.next = 0.into();
            self.bytes1.next = 0.into();
            self.lim1.next = true;
        } else {
            self.rt1.next = self.rt_q.q.val();
            self.rc1.next = self.rc_q.q.val();
            self.t1.next = self.t_q.q.val();
            self.bc1.next = self.bc_q.q.val();
            self.bytes1.next = self.bytes_q.q.val();
            self.lim1.next = self.lim_q.q.val();
        }
        self.rt_q.d.next = self.rt_in.val();
        self.rc_q.d.next = self.rc_in.val();
        self.t_q.d.next = self.t_in.val();
        self.bc_q.d.next = self.bc_in.val();
        self.bytes_q.d.next = self.bytes_in.val();
        self.lim_q.d.next = self.lim_in.val();
        if self.reset.val() {
            self.rt_q.d.next = self.line.val();
            self.rc_q.d.next = self.line.val();
            self.t_q.d.next = 0.into();
            self.bc_q.d.next = 0.into();
            self.bytes_q.d.next = 0.into();
            self.lim_q.d.next = false;
        }
        self.rc.next = self.rc_q.q.val();
        self.rt.next = self.rt_q.q.val();
        self.limited.next = self.lim_q.q.val();
    }
}

#[test]
fn rates_synthesizes() {
    let mut uut = Rates::default();
    uut.connect_all();
    yosys_validate("dcqcn_rates", &generate_verilog(&uut)).unwrap();
}
