//! MVCM's waiting slots of one flow: whether there are any (`ws`) and their exponent `e`
//! (`k^e` slots), grown by imminent ACKs at `dw == 1` and removed by a clean ACK or the fast
//! reset.

use super::model::Params;
#[cfg(test)]
use super::PAPER;
use rust_hdl::prelude::*;

/// The waiting slots of one flow, cycle-exact to `mvcm::model::Flow`'s `ws_exp` (the
/// model's `incs` is always `e` with slots and 0 without, so it is not stored):
/// - `grow` (an imminent ACK at `dw == 1`, from `Window`): without slots, one slot
///   (`ws = 1`, `e = 0`); with slots and `e < ws_max_incs`, `e += 1`; at the bound nothing;
/// - `clear` (a clean ACK with slots) or `fast_reset`: no slots (`ws = 0`, `e = 0`).
///
/// `ws_next` and `e_next` are the slots after this cycle's ACK and fast reset: the ones a
/// packet started in this cycle uses for its interval. All registers power up and reset to
/// 0 (no slots).
///
/// ```text
///                  +------------------------------+
///  grow, clear --->|  ws    (1 bit)               |---> ws, e[E]
///  fast_reset ---->|  e     (E bits)              |---> ws_next, e_next[E]
///  clock, reset -->|                              |
///                  +------------------------------+
/// ```
#[derive(LogicBlock)]
pub struct Waiting<const E: usize> {
    /// Block clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: no waiting slots.
    pub reset: Signal<In, Bit>,
    /// An imminent ACK at `dw == 1`: set the slots to 1, or multiply them by k.
    pub grow: Signal<In, Bit>,
    /// A clean ACK with slots: remove them.
    pub clear: Signal<In, Bit>,
    /// The fast reset: remove them.
    pub fast_reset: Signal<In, Bit>,
    /// The flow has waiting slots (the register).
    pub ws: Signal<Out, Bit>,
    /// Their exponent: `k^e` slots (the register; 0 without slots).
    pub e: Signal<Out, Bits<E>>,
    /// `ws` after this cycle's ACK and fast reset.
    pub ws_next: Signal<Out, Bit>,
    /// `e` after this cycle's ACK and fast reset.
    pub e_next: Signal<Out, Bits<E>>,
    // Parameters (derived in new(): do not override).
    e_max: Constant<Bits<E>>,
    // State.
    ws_q: DFF<Bit>,
    e_q: DFF<Bits<E>>,
    ws_n: Signal<Local, Bit>,
    e_n: Signal<Local, Bits<E>>,
}

impl<const E: usize> Waiting<E> {
    /// The slots for `p` (its `ws_max_incs`). Panics if `p` does not pass `Params::check`
    /// or `ws_max_incs` does not fit E bits.
    pub fn new(p: &Params) -> Self {
        if let Err(e) = p.check() {
            panic!("Waiting: {e}");
        }
        assert!(
            E < 64 && (p.ws_max_incs as u64) < 1u64 << E,
            "Waiting: ws_max_incs = {} does not fit {E} bits",
            p.ws_max_incs
        );
        Self {
            clock: Default::default(),
            reset: Default::default(),
            grow: Default::default(),
            clear: Default::default(),
            fast_reset: Default::default(),
            ws: Default::default(),
            e: Default::default(),
            ws_next: Default::default(),
            e_next: Default::default(),
            e_max: Constant::new((p.ws_max_incs as u64).into()),
            ws_q: Default::default(),
            e_q: Default::default(),
            ws_n: Default::default(),
            e_n: Default::default(),
        }
    }

    /// The slots now, as the model's `ws_exp`.
    pub fn state(&self) -> Option<u8> {
        self.ws_q.q.val().then(|| self.e_q.q.val().index() as u8)
    }
}

impl<const E: usize> Logic for Waiting<E> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, ws_q, e_q);
        self.ws_n.next = self.ws_q.q.val();
        self.e_n.next = self.e_q.q.val();
        if self.grow.val() {
            if !self.ws_q.q.val() {
                self.ws_n.next = true;
                self.e_n.next = 0.into();
            } else if self.e_q.q.val() < self.e_max.val() {
                self.e_n.next = self.e_q.q.val() + 1;
            }
        }
        if self.clear.val() | self.fast_reset.val() {
            self.ws_n.next = false;
            self.e_n.next = 0.into();
        }
        self.ws_q.d.next = self.ws_n.val();
        self.e_q.d.next = self.e_n.val();
        if self.reset.val() {
            self.ws_q.d.next = false;
            self.e_q.d.next = 0.into();
        }
        self.ws.next = self.ws_q.q.val();
        self.e.next = self.e_q.q.val();
        self.ws_next.next = self.ws_n.val();
        self.e_next.next = self.e_n.val();
    }
}

#[test]
fn waiting_synthesizes() {
    let mut uut = Waiting::<3>::new(&PAPER);
    uut.connect_all();
    yosys_validate("mvcm_waiting", &generate_verilog(&uut)).unwrap();
}
