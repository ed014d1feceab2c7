//! DCQCN's rate increase (fast recovery, additive, hyper), one event: combinational.

use super::model::{Params, LINE};
use rust_hdl::prelude::*;

/// One increase event, cycle-exact to `dcqcn::model::Params::increase`: from the counts `t`
/// and `bc` (this event's already counted), `hi = max`, `lo = min`; the target rate gains
/// nothing while `hi <= F`, `(lo - F) * rhai` while `lo > F`, else `rai`; it is capped at the
/// line rate; then `rc_next = (rt_next + rc + 1) >> 1`; `lim_next` is false when both are
/// at the line rate (the flow is no longer limited). Without `en` the rates and `lim` pass
/// through unchanged (the slot's rate timer has no event this cycle). The sums are 32 bits
/// wide, so nothing overflows. (The choice is made here, not by the block around it, so
/// that its own always block reads this block's outputs without writing its inputs from
/// the same values: Verilator then sees no false combinational loop, UNOPTFLAT.)
///
/// The product by the constant R_HAI is the sum of `(lo - F) << i` over R_HAI's set bits
/// (the other terms are constant 0, and Yosys folds them): popcount(R_HAI) - 1 adders of
/// 24 bits, one at the paper's 33 units. A `*` here was a multiplier cell per flow, and
/// Yosys' SAT-based `share` pass spent about two minutes a flow proving that the flows'
/// multipliers cannot be shared (over two hours for 64 flows).
///
/// A flow's slot has one (its rate timer's event); the port has one more for the byte
/// counter's event of the flow that starts a packet (one start per cycle), chained after
/// the slot's, as the model applies both in one cycle.
///
/// ```text
///               +------------------------------------------------------+
///  rt[16] ----->|  step = hi <= F ? 0 : lo > F ? (lo - F) rhai : rai   |---> rt_next[16]
///  rc[16] ----->|  rt_next = min(rt + step, LINE)                      |---> rc_next[16]
///  t[8], bc[8]->|  rc_next = (rt_next + rc + 1) >> 1                   |---> lim_next
///  en, lim ---->|  lim_next = !(both at LINE); all pass through if !en |
///               +------------------------------------------------------+
/// ```
#[derive(LogicBlock)]
pub struct Increase {
    /// The target rate before the event.
    pub rt: Signal<In, Bits<16>>,
    /// The current rate before the event.
    pub rc: Signal<In, Bits<16>>,
    /// Rate-timer events since the last CNP, this one counted.
    pub t: Signal<In, Bits<8>>,
    /// Byte-counter events since the last CNP, this one counted.
    pub bc: Signal<In, Bits<8>>,
    /// There is an event (else everything passes through).
    pub en: Signal<In, Bit>,
    /// The flow is limited before it.
    pub lim: Signal<In, Bit>,
    /// The target rate after it.
    pub rt_next: Signal<Out, Bits<16>>,
    /// The current rate after it.
    pub rc_next: Signal<Out, Bits<16>>,
    /// The flow is still limited after it (not both at the line rate).
    pub lim_next: Signal<Out, Bit>,
    // Parameters (derived in new(): do not override).
    f: Constant<Bits<8>>,
    rai: Constant<Bits<32>>,
    bit0: Constant<Bit>,
    bit1: Constant<Bit>,
    bit2: Constant<Bit>,
    bit3: Constant<Bit>,
    bit4: Constant<Bit>,
    bit5: Constant<Bit>,
    bit6: Constant<Bit>,
    bit7: Constant<Bit>,
    bit8: Constant<Bit>,
    bit9: Constant<Bit>,
    bit10: Constant<Bit>,
    bit11: Constant<Bit>,
    bit12: Constant<Bit>,
    bit13: Constant<Bit>,
    bit14: Constant<Bit>,
    bit15: Constant<Bit>,
    line: Constant<Bits<16>>,
    line32: Constant<Bits<32>>,
    // Wires.
    hi: Signal<Local, Bits<8>>,
    lo: Signal<Local, Bits<8>>,
    over: Signal<Local, Bits<8>>,
    over24: Signal<Local, Bits<24>>,
    term0: Signal<Local, Bits<24>>,
    term1: Signal<Local, Bits<24>>,
    term2: Signal<Local, Bits<24>>,
    term3: Signal<Local, Bits<24>>,
    term4: Signal<Local, Bits<24>>,
    term5: Signal<Local, Bits<24>>,
    term6: Signal<Local, Bits<24>>,
    term7: Signal<Local, Bits<24>>,
    term8: Signal<Local, Bits<24>>,
    term9: Signal<Local, Bits<24>>,
    term10: Signal<Local, Bits<24>>,
    term11: Signal<Local, Bits<24>>,
    term12: Signal<Local, Bits<24>>,
    term13: Signal<Local, Bits<24>>,
    term14: Signal<Local, Bits<24>>,
    term15: Signal<Local, Bits<24>>,
    prod: Signal<Local, Bits<24>>,
    step: Signal<Local, Bits<32>>,
    sum: Signal<Local, Bits<32>>,
    rt_n: Signal<Local, Bits<16>>,
    avg: Signal<Local, Bits<17>>,
    half: Signal<Local, Bits<17>>,
    rc_n: Signal<Local, Bits<16>>,
}

impl Increase {
    /// The increase for `p` (its F, R_AI and R_HAI). Panics if `p` does not pass
    /// `Params::check`.
    pub fn new(p: &Params) -> Self {
        if let Err(e) = p.check() {
            panic!("Increase: {e}");
        }
        // bit_i: bit i of R_HAI.
        let bit = |i: u32| -> Constant<Bit> { Constant::new(p.rhai >> i & 1 == 1) };
        Self {
            rt: Default::default(),
            rc: Default::default(),
            t: Default::default(),
            bc: Default::default(),
            en: Default::default(),
            lim: Default::default(),
            rt_next: Default::default(),
            rc_next: Default::default(),
            lim_next: Default::default(),
            f: Constant::new((p.f as u64).into()),
            rai: Constant::new((p.rai as u64).into()),
            bit0: bit(0),
            bit1: bit(1),
            bit2: bit(2),
            bit3: bit(3),
            bit4: bit(4),
            bit5: bit(5),
            bit6: bit(6),
            bit7: bit(7),
            bit8: bit(8),
            bit9: bit(9),
            bit10: bit(10),
            bit11: bit(11),
            bit12: bit(12),
            bit13: bit(13),
            bit14: bit(14),
            bit15: bit(15),
            line: Constant::new((LINE as u64).into()),
            line32: Constant::new((LINE as u64).into()),
            hi: Default::default(),
            lo: Default::default(),
            over: Default::default(),
            over24: Default::default(),
            term0: Default::default(),
            term1: Default::default(),
            term2: Default::default(),
            term3: Default::default(),
            term4: Default::default(),
            term5: Default::default(),
            term6: Default::default(),
            term7: Default::default(),
            term8: Default::default(),
            term9: Default::default(),
            term10: Default::default(),
            term11: Default::default(),
            term12: Default::default(),
            term13: Default::default(),
            term14: Default::default(),
            term15: Default::default(),
            prod: Default::default(),
            step: Default::default(),
            sum: Default::default(),
            rt_n: Default::default(),
            avg: Default::default(),
            half: Default::default(),
            rc_n: Default::default(),
        }
    }
}

impl Logic for Increase {
    #[hdl_gen]
    fn update(&mut self) {
        self.hi.next = self.bc.val();
        self.lo.next = self.t.val();
        if self.t.val() > self.bc.val() {
            self.hi.next = self.t.val();
            self.lo.next = self.bc.val();
        }
        // Widen before arithmetic (rust-hdl notes 1.9); `over` is used only when lo > F.
        self.over.next = self.lo.val() - self.f.val();
        // (lo - F) * rhai < 2^8 * 2^16: 24 bits; each shift lands in a 24-bit Local, and only
        // R_HAI's set bits shift (the others stay 0: Yosys folds them, the simulation skips
        // them).
        self.over24.next = bit_cast::<24, 8>(self.over.val());
        self.term0.next = 0.into();
        if self.bit0.val() {
            self.term0.next = self.over24.val();
        }
        self.term1.next = 0.into();
        if self.bit1.val() {
            self.term1.next = self.over24.val() << 1;
        }
        self.term2.next = 0.into();
        if self.bit2.val() {
            self.term2.next = self.over24.val() << 2;
        }
        self.term3.next = 0.into();
        if self.bit3.val() {
            self.term3.next = self.over24.val() << 3;
        }
        self.term4.next = 0.into();
        if self.bit4.val() {
            self.term4.next = self.over24.val() << 4;
        }
        self.term5.next = 0.into();
        if self.bit5.val() {
            self.term5.next = self.over24.val() << 5;
        }
        self.term6.next = 0.into();
        if self.bit6.val() {
            self.term6.next = self.over24.val() << 6;
        }
        self.term7.next = 0.into();
        if self.bit7.val() {
            self.term7.next = self.over24.val() << 7;
        }
        self.term8.next = 0.into();
        if self.bit8.val() {
            self.term8.next = self.over24.val() << 8;
        }
        self.term9.next = 0.into();
        if self.bit9.val() {
            self.term9.next = self.over24.val() << 9;
        }
        self.term10.next = 0.into();
        if self.bit10.val() {
            self.term10.next = self.over24.val() << 10;
        }
        self.term11.next = 0.into();
        if self.bit11.val() {
            self.term11.next = self.over24.val() << 11;
        }
        self.term12.next = 0.into();
        if self.bit12.val() {
            self.term12.next = self.over24.val() << 12;
        }
        self.term13.next = 0.into();
        if self.bit13.val() {
            self.term13.next = self.over24.val() << 13;
        }
        self.term14.next = 0.into();
        if self.bit14.val() {
            self.term14.next = self.over24.val() << 14;
        }
        self.term15.next = 0.into();
        if self.bit15.val() {
            self.term15.next = self.over24.val() << 15;
        }
        self.prod.next = self.term0.val()
            + self.term1.val()
            + self.term2.val()
            + self.term3.val()
            + self.term4.val()
            + self.term5.val()
            + self.term6.val()
            + self.term7.val()
            + self.term8.val()
            + self.term9.val()
            + self.term10.val()
            + self.term11.val()
            + self.term12.val()
            + self.term13.val()
            + self.term14.val()
            + self.term15.val();
        self.step.next = 0.into();
        if self.hi.val() > self.f.val() {
            if self.lo.val() > self.f.val() {
                self.step.next = bit_cast::<32, 24>(self.prod.val());
            } else {
                self.step.next = self.rai.val();
            }
        }
        self.sum.next = bit_cast::<32, 16>(self.rt.val()) + self.step.val();
        self.rt_n.next = bit_cast::<16, 32>(self.sum.val());
        if self.sum.val() > self.line32.val() {
            self.rt_n.next = self.line.val();
        }
        // At most 2^15 + 2^15 + 1: 17 bits.
        self.avg.next = bit_cast::<17, 16>(self.rt_n.val()) + bit_cast::<17, 16>(self.rc.val()) + 1;
        self.half.next = self.avg.val() >> 1;
        self.rc_n.next = bit_cast::<16, 17>(self.half.val());
        self.rt_next.next = self.rt.val();
        self.rc_next.next = self.rc.val();
        self.lim_next.next = self.lim.val();
        if self.en.val() {
            self.rt_next.next = self.rt_n.val();
            self.rc_next.next = self.rc_n.val();
            self.lim_next.next =
                !((self.rt_n.val() == self.line.val()) & (self.rc_n.val() == self.line.val()));
        }
    }
}

#[test]
fn increase_synthesizes() {
    let mut uut = Increase::new(&Params::paper());
    uut.connect_all();
    yosys_validate("dcqcn_increase", &generate_verilog(&uut)).unwrap();
}
