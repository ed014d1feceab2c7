//! `CreditCounter` for the pipelined build: the credit check comes in as a register (from a
//! `CreditCompare`), and `c + send - credit_return` is one subtraction per outcome.

use rust_hdl::prelude::*;

/// Same behaviour as `CreditCounter` (see there): `c(t+1) = max(c + send - credit_return, 0)`
/// with the sticky errors. The check `c < credit_limit` is the input `below_limit`, and
/// `c + 1 - credit_return` is computed as `c - (credit_return - 1)` so that no increment
/// precedes the subtraction.
#[derive(LogicBlock, Default)]
pub struct CreditCounterFast {
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
    /// `c < credit_limit`, a register of `CreditCompare`.
    pub below_limit: Signal<In, Bit>,
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
    /// `c + send < credit_return`: the next `c` is clamped to 0 (an underflow).
    pub clamp: Signal<Out, Bit>,
    count: DFF<Bits<16>>,
    underflow: DFF<Bit>,
    overflow: DFF<Bit>,
    c18: Signal<Local, Bits<18>>,
    r18: Signal<Local, Bits<18>>,
    rs18: Signal<Local, Bits<18>>,
    dec_idle: Signal<Local, Bits<18>>,
    dec_send: Signal<Local, Bits<18>>,
    c_idle: Signal<Local, Bits<16>>,
    c_send: Signal<Local, Bits<16>>,
    uf_idle: Signal<Local, Bit>,
    uf_send: Signal<Local, Bit>,
    at_limit: Signal<Local, Bit>,
}

impl Logic for CreditCounterFast {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, count, underflow, overflow);
        self.c18.next = bit_cast::<18, 16>(self.count.q.val());
        self.r18.next = bit_cast::<18, 8>(self.credit_return.val());
        // credit_return - 1 (-1 for 0): c - rs18 is c + 1 - credit_return.
        self.rs18.next = self.r18.val() - 1;
        self.dec_idle.next = self.c18.val() - self.r18.val();
        self.dec_send.next = self.c18.val() - self.rs18.val();
        // Bit 17 of a difference is its sign: more credits returned than in use (c' = 0).
        // Each outcome is finished before the late `send` picks one.
        if self.dec_idle.val().get_bit(17) {
            self.c_idle.next = 0.into();
        } else {
            self.c_idle.next = self.dec_idle.val().get_bits::<16>(0);
        }
        if self.dec_send.val().get_bit(17) {
            self.c_send.next = 0.into();
        } else {
            self.c_send.next = self.dec_send.val().get_bits::<16>(0);
        }
        self.uf_idle.next = self.underflow.q.val() | self.dec_idle.val().get_bit(17);
        self.uf_send.next = self.underflow.q.val() | self.dec_send.val().get_bit(17);
        if self.send.val() {
            self.clamp.next = self.dec_send.val().get_bit(17);
            self.count.d.next = self.c_send.val();
            self.underflow.d.next = self.uf_send.val();
        } else {
            self.clamp.next = self.dec_idle.val().get_bit(17);
            self.count.d.next = self.c_idle.val();
            self.underflow.d.next = self.uf_idle.val();
        }
        // Only a CREDIT_LIMIT lowered below the credits in flight can leave c above it.
        self.at_limit.next = self.count.q.val() == self.credit_limit.val();
        self.credit_ok.next = self.below_limit.val();
        if !self.below_limit.val() & !self.at_limit.val() {
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
fn credit_counter_fast_synthesizes() {
    let mut uut = CreditCounterFast::default();
    uut.connect_all();
    yosys_validate("credit_counter_fast", &generate_verilog(&uut)).unwrap();
}
