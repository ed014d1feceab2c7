//! Used-credit counter `c` of the injection link, with the credit check and sticky errors.

use rust_hdl::prelude::*;

/// Counts the link credits in use: +1 per flit sent, minus the credits returned.
///
/// `c(t+1) = c(t) + send(t) - credit_return(t)`, computed on 17 bits so that nothing wraps.
/// Returning more credits than are in use sets the sticky `err_underflow` and clamps `c` at 0;
/// a cycle that starts with `c > credit_limit` (only possible after CREDIT_LIMIT is lowered
/// below `c`) sets the sticky `err_overflow`. A flit may leave only while `c < credit_limit`.
#[derive(LogicBlock, Default)]
pub struct CreditCounter {
    /// Block clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: `c` and both error flags to 0.
    pub reset: Signal<In, Bit>,
    /// A flit leaves this cycle (uses one credit).
    pub send: Signal<In, Bit>,
    /// Credits the switch returns this cycle.
    pub credit_return: Signal<In, Bits<8>>,
    /// CREDIT_LIMIT register: credits of the link.
    pub credit_limit: Signal<In, Bits<16>>,
    /// Clear the underflow flag (a write-1-to-clear of STATUS); wins over a set.
    pub clear_underflow: Signal<In, Bit>,
    /// Clear the overflow flag; wins over a set.
    pub clear_overflow: Signal<In, Bit>,
    /// Used credits `c`.
    pub c: Signal<Out, Bits<16>>,
    /// `c < credit_limit`: a credit is available.
    pub credit_ok: Signal<Out, Bit>,
    /// Sticky: more credits were returned than were in use.
    pub err_underflow: Signal<Out, Bit>,
    /// Sticky: `c` was above `credit_limit`.
    pub err_overflow: Signal<Out, Bit>,
    count: DFF<Bits<16>>,
    underflow: DFF<Bit>,
    overflow: DFF<Bit>,
    c17: Signal<Local, Bits<17>>,
    ret17: Signal<Local, Bits<17>>,
    send17: Signal<Local, Bits<17>>,
    dec: Signal<Local, Bits<17>>,
    next17: Signal<Local, Bits<17>>,
    at_limit: Signal<Local, Bit>,
}

impl Logic for CreditCounter {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, count, underflow, overflow);
        // c - credit_return first, then the late `send` as the carry into a second adder.
        // Widen before any arithmetic (Verilog sizes expressions differently from Rust).
        self.c17.next = bit_cast::<17, 16>(self.count.q.val());
        self.ret17.next = bit_cast::<17, 8>(self.credit_return.val());
        if self.send.val() {
            self.send17.next = 1.into();
        } else {
            self.send17.next = 0.into();
        }
        self.dec.next = self.c17.val() - self.ret17.val();
        self.next17.next = self.dec.val() + self.send17.val();
        // On 17 bits c + send - credit_return lies in -255..=0xFFFF (a send needs c < 0xFFFF),
        // so bit 16 is its sign: more credits returned than were in use.
        if self.next17.val().get_bit(16) {
            self.count.d.next = 0.into();
            self.underflow.d.next = true;
        } else {
            self.count.d.next = bit_cast::<16, 17>(self.next17.val());
        }
        // Only a CREDIT_LIMIT lowered below the credits in flight can leave c above it.
        // c > limit is "no credit and not at the limit", sharing the credit check's compare.
        self.at_limit.next = self.count.q.val() == self.credit_limit.val();
        self.credit_ok.next = self.count.q.val() < self.credit_limit.val();
        if !self.credit_ok.val() & !self.at_limit.val() {
            self.overflow.d.next = true;
        }
        if self.clear_underflow.val() {
            self.underflow.d.next = false;
        }
        if self.clear_overflow.val() {
            self.overflow.d.next = false;
        }
        if self.reset.val() {
            self.count.d.next = 0.into();
            self.underflow.d.next = false;
            self.overflow.d.next = false;
        }
        self.c.next = self.count.q.val();
        self.err_underflow.next = self.underflow.q.val();
        self.err_overflow.next = self.overflow.q.val();
    }
}

#[test]
fn credit_counter_synthesizes() {
    let mut uut = CreditCounter::default();
    uut.connect_all();
    yosys_validate("credit_counter", &generate_verilog(&uut)).unwrap();
}
