//! DCQCN's rate increase (fast recovery, additive, hyper), one event: combinational.

use super::model::{Params, LINE};
use rust_hdl::prelude::*;

/// One increase event, cycle-exact to `dcqcn::model::Params::increase`: from the counts `t`
/// and `bc` (this event's already counted), `hi = max`, `lo = min`; the target rate gains
/// nothing while `hi <= F`, `(lo - F) * rhai` while `lo > F` (rust-hdl's 16 x 16 multiply,
/// of which Yosys keeps the 8 x `rhai` bits that are not 0), else `rai`; it is capped at the
/// line rate; then `rc_next = (rt_next + rc + 1) >> 1`; `lim_next` is false when both are
/// at the line rate (the flow is no longer limited). Without `en` the rates and `lim` pass
/// through unchanged (the slot's rate timer has no event this cycle). The sums are 32 bits
/// wide, so nothing overflows. (The choice is made here, not by the block around it, so
/// that its own always block reads this block's outputs without writing its inputs from
/// the same values: Verilator then sees no false combinational loop, UNOPTFLAT.)
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
    rhai: Constant<Bits<16>>,
    line: Constant<Bits<16>>,
    line32: Constant<Bits<32>>,
    // Wires.
    hi: Signal<Local, Bits<8>>,
    lo: Signal<Local, Bits<8>>,
    over: Signal<Local, Bits<8>>,
    prod: Signal<Local, Bits<32>>,
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
            rhai: Constant::new((p.rhai as u64).into()),
            line: Constant::new((LINE as u64).into()),
            line32: Constant::new((LINE as u64).into()),
            hi: Default::default(),
            lo: Default::default(),
            over: Default::default(),
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
        self.prod.next = bit_cast::<16, 8>(self.over.val()) * self.rhai.val();
        self.step.next = 0.into();
        if self.hi.val() > self.f.val() {
            if self.lo.val() > self.f.val() {
                self.step.next = self.prod.val();
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
