//! MVCM's dynamic window of one flow: `dw` (kept as its deficit `dw_max - dw`) and `out`,
//! the ACK's corrective action on them, the ACK errors, and the injection check.

use super::model::Params;
#[cfg(test)]
use super::PAPER;
use rust_hdl::prelude::*;

/// The window of one flow, cycle-exact to `mvcm::model::Flow`'s `dw` and `out` under the
/// cycle mapping of `mvcm::stepper` (the ACK, then the fast reset, then the injection).
///
/// - **ACK** (`ack_valid`, `ack_mb`, `ack_vb`): with `out == 0` it is stray (`stray`) and
///   changes nothing; else `out -= 1` and, by the bits, an imminent or moderate ACK at
///   `dw > 1` lowers `dw`, an imminent ACK at `dw == 1` grows the waiting slots
///   (`ws_grow`, for `Waiting`), a clean ACK removes the waiting slots if there are any
///   (`ws_clear`) and else raises `dw` below `dw_max`; MB = 0, VB = 1 is `marks` and takes
///   no action beyond `out -= 1`.
/// - **Fast reset** (`fast_reset`): `dw = dw_max`; `out` is kept.
/// - **Injection** (`inject`): accepted (`accept`, `out += 1`) iff `out < dw` after this
///   cycle's ACK and fast reset and the waiting interval is over (`timer_idle`) or was
///   cancelled in this cycle (`ws_clear` or `fast_reset`); else `not_eligible`, nothing.
///
/// `dw` is stored as its deficit `dwd = dw_max - dw` (0 at full rate), so that the
/// power-up and the synchronous reset of every register are 0: the block powers up as
/// `Flow::new`, without a reset cycle. `dw > 1` is `dwd < dw_max - 1` and `dw < dw_max` is
/// `dwd != 0`, compares with constants.
///
/// ```text
///                  +----------------------------------+
///  ack_valid ----->|  dwd = dw_max - dw  (D bits)     |---> dw[D], out[D], open
///  ack_mb, ack_vb->|  out                (D bits)     |---> stray, marks
///  fast_reset ---->|  ACK action, window check        |---> ws_grow, ws_clear
///  inject -------->|                                  |---> accept, not_eligible
///  ws, timer_idle->|                                  |
///  clock, reset -->|                                  |
///                  +----------------------------------+
/// ```
#[derive(LogicBlock)]
pub struct Window<const D: usize> {
    /// Block clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: `dw = dw_max`, `out = 0`.
    pub reset: Signal<In, Bit>,
    /// An ACK of the flow arrives this cycle.
    pub ack_valid: Signal<In, Bit>,
    /// Its MB bit (the packet was marked).
    pub ack_mb: Signal<In, Bit>,
    /// Its VB bit (the mark was validated).
    pub ack_vb: Signal<In, Bit>,
    /// The host puts a packet into the flow's empty queue: back to `dw = dw_max`.
    pub fast_reset: Signal<In, Bit>,
    /// A packet of the flow asks to start this cycle.
    pub inject: Signal<In, Bit>,
    /// The flow has waiting slots (the `Waiting` register, at the cycle's start).
    pub ws: Signal<In, Bit>,
    /// No waiting interval is in progress (the timer, at the cycle's start).
    pub timer_idle: Signal<In, Bit>,
    /// The dynamic window `dw` (from the register).
    pub dw: Signal<Out, Bits<D>>,
    /// Packets outstanding (from the register).
    pub out: Signal<Out, Bits<D>>,
    /// `out < dw` at the cycle's start.
    pub open: Signal<Out, Bit>,
    /// The ACK is stray (`out == 0`): ignored.
    pub stray: Signal<Out, Bit>,
    /// The ACK has MB = 0, VB = 1: only `out -= 1`.
    pub marks: Signal<Out, Bit>,
    /// An imminent ACK at `dw == 1`: the waiting slots are set or multiplied by k.
    pub ws_grow: Signal<Out, Bit>,
    /// A clean ACK with waiting slots: they are removed, the interval is cancelled.
    pub ws_clear: Signal<Out, Bit>,
    /// The packet starts (`inject` and allowed).
    pub accept: Signal<Out, Bit>,
    /// `inject` while the flow may not start a packet: refused.
    pub not_eligible: Signal<Out, Bit>,
    // Parameters (derived in new(): do not override).
    dw_max: Constant<Bits<D>>,
    dw_max_m1: Constant<Bits<D>>,
    // State.
    dwd: DFF<Bits<D>>,
    out_q: DFF<Bits<D>>,
    took: Signal<Local, Bit>,
    hot: Signal<Local, Bit>,
    warm: Signal<Local, Bit>,
    clean: Signal<Local, Bit>,
    above: Signal<Local, Bit>,
    dwd_a: Signal<Local, Bits<D>>,
    dwd_r: Signal<Local, Bits<D>>,
    dw_r: Signal<Local, Bits<D>>,
    dw_q: Signal<Local, Bits<D>>,
    out_a: Signal<Local, Bits<D>>,
    out_n: Signal<Local, Bits<D>>,
    time_ok: Signal<Local, Bit>,
    ok: Signal<Local, Bit>,
}

impl<const D: usize> Window<D> {
    /// The window for `p` (its `dw_max`). Panics if `p` does not pass `Params::check` or
    /// `dw_max` does not fit D bits.
    pub fn new(p: &Params) -> Self {
        if let Err(e) = p.check() {
            panic!("Window: {e}");
        }
        assert!(
            D < 64 && (p.dw_max as u64) < 1u64 << D,
            "Window: dw_max = {} does not fit {D} bits",
            p.dw_max
        );
        Self {
            clock: Default::default(),
            reset: Default::default(),
            ack_valid: Default::default(),
            ack_mb: Default::default(),
            ack_vb: Default::default(),
            fast_reset: Default::default(),
            inject: Default::default(),
            ws: Default::default(),
            timer_idle: Default::default(),
            dw: Default::default(),
            out: Default::default(),
            open: Default::default(),
            stray: Default::default(),
            marks: Default::default(),
            ws_grow: Default::default(),
            ws_clear: Default::default(),
            accept: Default::default(),
            not_eligible: Default::default(),
            dw_max: Constant::new((p.dw_max as u64).into()),
            dw_max_m1: Constant::new((p.dw_max as u64 - 1).into()),
            dwd: Default::default(),
            out_q: Default::default(),
            took: Default::default(),
            hot: Default::default(),
            warm: Default::default(),
            clean: Default::default(),
            above: Default::default(),
            dwd_a: Default::default(),
            dwd_r: Default::default(),
            dw_r: Default::default(),
            dw_q: Default::default(),
            out_a: Default::default(),
            out_n: Default::default(),
            time_ok: Default::default(),
            ok: Default::default(),
        }
    }

    /// `(dw, out)` now (between two clock edges).
    pub fn state(&self) -> (u8, u8) {
        let dw_max = self.dw_max.val().index() as u8;
        let dwd = self.dwd.q.val().index() as u8;
        (dw_max.wrapping_sub(dwd), self.out_q.q.val().index() as u8)
    }
}

impl<const D: usize> Logic for Window<D> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, dwd, out_q);
        // The ACK: stray without a packet outstanding, else it releases one.
        self.stray.next = self.ack_valid.val() & (self.out_q.q.val() == 0);
        self.took.next = self.ack_valid.val() & (self.out_q.q.val() != 0);
        self.marks.next = self.took.val() & !self.ack_mb.val() & self.ack_vb.val();
        self.hot.next = self.took.val() & self.ack_mb.val() & self.ack_vb.val();
        self.warm.next = self.took.val() & self.ack_mb.val() & !self.ack_vb.val();
        self.clean.next = self.took.val() & !self.ack_mb.val() & !self.ack_vb.val();
        // dw > 1
        self.above.next = self.dwd.q.val() < self.dw_max_m1.val();
        self.dwd_a.next = self.dwd.q.val();
        if (self.hot.val() | self.warm.val()) & self.above.val() {
            self.dwd_a.next = self.dwd.q.val() + 1;
        }
        if self.clean.val() & !self.ws.val() & self.dwd.q.val().any() {
            self.dwd_a.next = self.dwd.q.val() - 1;
        }
        self.ws_grow.next = self.hot.val() & !self.above.val();
        self.ws_clear.next = self.clean.val() & self.ws.val();
        self.out_a.next = self.out_q.q.val();
        if self.took.val() {
            self.out_a.next = self.out_q.q.val() - 1;
        }
        // Then the fast reset.
        self.dwd_r.next = self.dwd_a.val();
        if self.fast_reset.val() {
            self.dwd_r.next = 0.into();
        }
        self.dw_r.next = self.dw_max.val() - self.dwd_r.val();
        // Then the injection: the window after the ACK and the fast reset, and the
        // interval (over, or cancelled in this cycle).
        self.time_ok.next = self.timer_idle.val() | self.ws_clear.val() | self.fast_reset.val();
        self.ok.next =
            self.inject.val() & (self.out_a.val() < self.dw_r.val()) & self.time_ok.val();
        self.accept.next = self.ok.val();
        self.not_eligible.next = self.inject.val() & !self.ok.val();
        self.out_n.next = self.out_a.val();
        if self.ok.val() {
            self.out_n.next = self.out_a.val() + 1;
        }
        self.dwd.d.next = self.dwd_r.val();
        self.out_q.d.next = self.out_n.val();
        if self.reset.val() {
            self.dwd.d.next = 0.into();
            self.out_q.d.next = 0.into();
        }
        self.dw_q.next = self.dw_max.val() - self.dwd.q.val();
        self.dw.next = self.dw_q.val();
        self.out.next = self.out_q.q.val();
        self.open.next = self.out_q.q.val() < self.dw_q.val();
    }
}

#[test]
fn window_synthesizes() {
    let mut uut = Window::<2>::new(&PAPER);
    uut.connect_all();
    yosys_validate("mvcm_window", &generate_verilog(&uut)).unwrap();
}

#[test]
#[should_panic(expected = "Window: dw_max = 4 does not fit 2 bits")]
fn window_refuses_a_dw_max_wider_than_its_registers() {
    Window::<2>::new(&Params { dw_max: 4, ..PAPER });
}
