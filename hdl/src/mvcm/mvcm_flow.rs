//! `MvcmFlow`: MVCM's per-flow source state for one flow (seed 004), cycle-exact to
//! `mvcm::model::Flow` under the cycle mapping of `mvcm::stepper`.

use super::countdown::Countdown;
use super::interval_rom::IntervalRom;
use super::model::Params;
use super::waiting::Waiting;
use super::window::Window;
#[cfg(test)]
use super::PAPER;
use rust_hdl::prelude::*;

/// One flow's source state: the dynamic window, the waiting slots and the injection timer.
///
/// In a cycle the block applies the flow's ACK (`ack_valid` with its MB and VB bits), then
/// the fast reset (`fast_reset`: the host put a packet into the flow's empty queue), then
/// the injection (`inject`: a packet of the flow asks to start). `can_inject`, `dw`, `out`,
/// `ws`, `e` and `wait_cycles` come from registers: the state at the cycle's start, before its
/// events (`can_inject` is the model's `can_inject(now)`). The three error flags are of
/// this cycle's events: `err_stray` (an ACK with nothing outstanding: ignored),
/// `err_marks` (MB = 0, VB = 1: the packet is released, nothing else) and
/// `err_not_eligible` (`inject` refused). A packet whose `inject` was decided from
/// `can_inject` is always accepted (the model's open point 9), so a NIC that starts a
/// packet only when `can_inject` was high never sees `err_not_eligible`.
///
/// `reset` is synchronous: the cycle after it is `Flow::new` (every register 0), and the
/// events of the reset cycle are ignored (no error flag). The registers also power up as
/// `Flow::new`, so no reset cycle is needed after power-up.
///
/// The constants (`Params`: `dw_max`, `k`, `ws_max_incs`, `rtt_min`) are synthesis-time
/// parameters given to `new()`; the widths are type parameters: D bits for `dw` and `out`
/// (`dw_max < 2^D`), E bits for `e` (`ws_max_incs < 2^E`), T bits for the timer
/// (`k^ws_max_incs * rtt_min - 1 < 2^T`). The paper's 4-ary 5-fly is
/// `MvcmFlow<2, 3, 19>` ([`PaperFlow`]); [`WideFlow`] fits every `Params` that passes
/// `Params::check`.
///
/// ```text
///                  +--------------------------------------------+
///  ack_valid ----->|  window: dwd = dw_max - dw, out            |---> can_inject
///  ack_mb -------->|  waiting: ws, e                            |---> dw[D], out[D]
///  ack_vb -------->|  interval: ws ? k^e * rtt_min - 1 : 0      |---> ws, e[E], wait_cycles[T]
///  fast_reset ---->|  timer: cycles until next_ok (countdown)   |---> err_stray, err_marks,
///  inject -------->|                                            |     err_not_eligible
///  clock, reset -->|                                            |
///                  +--------------------------------------------+
/// ```
#[derive(LogicBlock)]
pub struct MvcmFlow<const D: usize, const E: usize, const T: usize> {
    /// Block clock; everything is synchronous to its rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: the next cycle is `Flow::new`.
    pub reset: Signal<In, Bit>,
    /// An ACK of the flow arrives this cycle.
    pub ack_valid: Signal<In, Bit>,
    /// Its MB bit.
    pub ack_mb: Signal<In, Bit>,
    /// Its VB bit.
    pub ack_vb: Signal<In, Bit>,
    /// The host puts a packet into the flow's empty injection queue (fast reset).
    pub fast_reset: Signal<In, Bit>,
    /// A packet of the flow asks to start this cycle.
    pub inject: Signal<In, Bit>,
    /// The flow may start a packet this cycle (`out < dw` and the interval is over).
    pub can_inject: Signal<Out, Bit>,
    /// The dynamic window.
    pub dw: Signal<Out, Bits<D>>,
    /// Packets outstanding.
    pub out: Signal<Out, Bits<D>>,
    /// The flow has waiting slots.
    pub ws: Signal<Out, Bit>,
    /// Their exponent (`k^e` slots; 0 without slots).
    pub e: Signal<Out, Bits<E>>,
    /// Cycles until the next packet may start (`next_ok - now`, at least 0).
    pub wait_cycles: Signal<Out, Bits<T>>,
    /// This cycle's ACK is stray (nothing outstanding): ignored.
    pub err_stray: Signal<Out, Bit>,
    /// This cycle's ACK has MB = 0, VB = 1: released its packet, nothing else.
    pub err_marks: Signal<Out, Bit>,
    /// This cycle's `inject` was refused.
    pub err_not_eligible: Signal<Out, Bit>,
    /// `dw` and `out`, the ACK's action, the injection check.
    pub window: Window<D>,
    /// The waiting slots.
    pub waiting: Waiting<E>,
    /// The waiting interval of the slots.
    pub interval: IntervalRom<E, T>,
    /// The cycles until `next_ok`.
    pub timer: Countdown<T>,
}

/// The paper's 4-ary 5-fly widths: `dw_max = 2` (2 bits), `ws_max_incs = 5` (3 bits),
/// `4^5 * 354 - 1 = 362,495` (19 bits).
pub type PaperFlow = MvcmFlow<2, 3, 19>;
/// Widths that fit every `Params` passing `Params::check` (`dw_max <= 255`,
/// `ws_max_incs <= 31`, intervals below 2^32).
pub type WideFlow = MvcmFlow<8, 5, 32>;

/// Whether `p` fits the widths D, E, T (`new()` panics otherwise).
pub fn fits(p: &Params, d: usize, e: usize, t: usize) -> bool {
    let fit = |v: u64, bits: usize| bits >= 64 || v < 1u64 << bits;
    p.check().is_ok()
        && fit(p.dw_max as u64, d)
        && fit(p.ws_max_incs as u64, e)
        && fit(p.max_waiting_interval() - 1, t)
}

impl<const D: usize, const E: usize, const T: usize> MvcmFlow<D, E, T> {
    /// The flow for the constants `p`. Panics, naming the constant, if `p` does not pass
    /// `Params::check` or does not fit the widths.
    pub fn new(p: &Params) -> Self {
        if let Err(e) = p.check() {
            panic!("MvcmFlow: {e}");
        }
        Self {
            clock: Default::default(),
            reset: Default::default(),
            ack_valid: Default::default(),
            ack_mb: Default::default(),
            ack_vb: Default::default(),
            fast_reset: Default::default(),
            inject: Default::default(),
            can_inject: Default::default(),
            dw: Default::default(),
            out: Default::default(),
            ws: Default::default(),
            e: Default::default(),
            wait_cycles: Default::default(),
            err_stray: Default::default(),
            err_marks: Default::default(),
            err_not_eligible: Default::default(),
            window: Window::new(p),
            waiting: Waiting::new(p),
            interval: IntervalRom::new(p),
            timer: Default::default(),
        }
    }
}

impl<const D: usize, const E: usize, const T: usize> Logic for MvcmFlow<D, E, T> {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock, window, waiting, timer);
        self.window.reset.next = self.reset.val();
        self.waiting.reset.next = self.reset.val();
        self.timer.reset.next = self.reset.val();
        // The events of a reset cycle are ignored.
        self.window.ack_valid.next = self.ack_valid.val() & !self.reset.val();
        self.window.ack_mb.next = self.ack_mb.val();
        self.window.ack_vb.next = self.ack_vb.val();
        self.window.fast_reset.next = self.fast_reset.val() & !self.reset.val();
        self.window.inject.next = self.inject.val() & !self.reset.val();
        self.window.ws.next = self.waiting.ws.val();
        self.window.timer_idle.next = self.timer.idle.val();

        self.waiting.grow.next = self.window.ws_grow.val();
        self.waiting.clear.next = self.window.ws_clear.val();
        self.waiting.fast_reset.next = self.fast_reset.val();

        self.interval.ws.next = self.waiting.ws_next.val();
        self.interval.e.next = self.waiting.e_next.val();

        self.timer.load.next = self.window.accept.val();
        self.timer.value.next = self.interval.wait_m1.val();
        self.timer.cancel.next = self.window.ws_clear.val() | self.fast_reset.val();

        self.can_inject.next = self.window.open.val() & self.timer.idle.val();
        self.dw.next = self.window.dw.val();
        self.out.next = self.window.out.val();
        self.ws.next = self.waiting.ws.val();
        self.e.next = self.waiting.e.val();
        self.wait_cycles.next = self.timer.remaining.val();
        self.err_stray.next = self.window.stray.val();
        self.err_marks.next = self.window.marks.val();
        self.err_not_eligible.next = self.window.not_eligible.val();
    }
}

#[test]
fn mvcm_flow_synthesizes() {
    let mut uut = PaperFlow::new(&PAPER);
    uut.connect_all();
    yosys_validate("mvcm_flow", &generate_verilog(&uut)).unwrap();
}

#[test]
fn wide_mvcm_flow_synthesizes() {
    let p = Params {
        dw_max: 255,
        k: 2,
        n: 12,
        rtt_min: 1,
        ws_max_incs: 31,
    };
    assert!(fits(&p, 8, 5, 32));
    let mut uut = WideFlow::new(&p);
    uut.connect_all();
    yosys_validate("mvcm_flow_wide", &generate_verilog(&uut)).unwrap();
}
