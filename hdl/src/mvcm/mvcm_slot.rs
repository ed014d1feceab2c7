//! One flow's registers and logic inside a block of many flows (`MvcmFlows`): the window,
//! the waiting slots and a deadline timer; the interval table and the counter are shared.

use super::deadline::Deadline;
use super::model::Params;
use super::waiting::Waiting;
use super::window::Window;
#[cfg(test)]
use super::PAPER;
use rust_hdl::prelude::*;

/// One flow of `MvcmFlows`: `Window` and `Waiting` as in `MvcmFlow`, and a `Deadline`
/// instead of a countdown. The block around it decodes which flow an event names, and
/// gives every slot the shared counter `now` and the deadline `now + W - 1` of the packet
/// starting this cycle (computed once, from the starting flow's `ws_next` and `e_next`);
/// only the starting slot loads it.
///
/// ```text
///                  +----------------------------------+
///  ack_valid ----->|  window: dwd, out                |---> can_inject
///  ack_mb, ack_vb->|  waiting: ws, e                  |---> stray, marks, not_eligible
///  fast_reset ---->|  timer: waiting, deadline        |---> ws_next, e_next[E]
///  inject -------->|                                  |
///  value[T], busy->|                                  |
///  now[T] -------->|                                  |
///  clock, reset -->|                                  |
///                  +----------------------------------+
/// ```
#[derive(LogicBlock)]
pub struct MvcmSlot<const D: usize, const E: usize, const T: usize> {
    /// Block clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: `Flow::new`.
    pub reset: Signal<In, Bit>,
    /// An ACK of this flow arrives this cycle.
    pub ack_valid: Signal<In, Bit>,
    /// Its MB bit.
    pub ack_mb: Signal<In, Bit>,
    /// Its VB bit.
    pub ack_vb: Signal<In, Bit>,
    /// The fast reset of this flow.
    pub fast_reset: Signal<In, Bit>,
    /// A packet of this flow asks to start.
    pub inject: Signal<In, Bit>,
    /// The deadline of the packet starting this cycle, `now + W - 1`.
    pub value: Signal<In, Bits<T>>,
    /// Its interval is longer than one cycle (`W > 1`).
    pub busy: Signal<In, Bit>,
    /// The shared free-running counter.
    pub now: Signal<In, Bits<T>>,
    /// The flow may start a packet this cycle.
    pub can_inject: Signal<Out, Bit>,
    /// The ACK is stray.
    pub stray: Signal<Out, Bit>,
    /// The ACK has MB = 0, VB = 1.
    pub marks: Signal<Out, Bit>,
    /// `inject` was refused.
    pub not_eligible: Signal<Out, Bit>,
    /// The slots after this cycle's ACK and fast reset (for the shared interval table).
    pub ws_next: Signal<Out, Bit>,
    /// Their exponent.
    pub e_next: Signal<Out, Bits<E>>,
    /// `dw` and `out`.
    pub window: Window<D>,
    /// The waiting slots.
    pub waiting: Waiting<E>,
    /// The wait until `next_ok`.
    pub timer: Deadline<T>,
}

impl<const D: usize, const E: usize, const T: usize> MvcmSlot<D, E, T> {
    /// One flow's slot for `p`. Panics if `p` does not pass `Params::check` or does not fit
    /// D and E bits.
    pub fn new(p: &Params) -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            ack_valid: Default::default(),
            ack_mb: Default::default(),
            ack_vb: Default::default(),
            fast_reset: Default::default(),
            inject: Default::default(),
            value: Default::default(),
            busy: Default::default(),
            now: Default::default(),
            can_inject: Default::default(),
            stray: Default::default(),
            marks: Default::default(),
            not_eligible: Default::default(),
            ws_next: Default::default(),
            e_next: Default::default(),
            window: Window::new(p),
            waiting: Waiting::new(p),
            timer: Default::default(),
        }
    }
}

impl<const D: usize, const E: usize, const T: usize> Logic for MvcmSlot<D, E, T> {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock, window, waiting, timer);
        self.window.reset.next = self.reset.val();
        self.waiting.reset.next = self.reset.val();
        self.timer.reset.next = self.reset.val();
        self.window.ack_valid.next = self.ack_valid.val();
        self.window.ack_mb.next = self.ack_mb.val();
        self.window.ack_vb.next = self.ack_vb.val();
        self.window.fast_reset.next = self.fast_reset.val();
        self.window.inject.next = self.inject.val();
        self.window.ws.next = self.waiting.ws.val();
        self.window.timer_idle.next = self.timer.idle.val();

        self.waiting.grow.next = self.window.ws_grow.val();
        self.waiting.clear.next = self.window.ws_clear.val();
        self.waiting.fast_reset.next = self.fast_reset.val();

        self.timer.load.next = self.window.accept.val();
        self.timer.value.next = self.value.val();
        self.timer.busy.next = self.busy.val();
        self.timer.cancel.next = self.window.ws_clear.val() | self.fast_reset.val();
        self.timer.now.next = self.now.val();

        self.can_inject.next = self.window.open.val() & self.timer.idle.val();
        self.stray.next = self.window.stray.val();
        self.marks.next = self.window.marks.val();
        self.not_eligible.next = self.window.not_eligible.val();
        self.ws_next.next = self.waiting.ws_next.val();
        self.e_next.next = self.waiting.e_next.val();
    }
}

#[test]
fn mvcm_slot_synthesizes() {
    let mut uut = MvcmSlot::<2, 3, 19>::new(&PAPER);
    uut.connect_all();
    yosys_validate("mvcm_slot", &generate_verilog(&uut)).unwrap();
}
