//! Look-ahead compare of the used credits `c` with a register (pipelined build): `c > x`
//! and `c < x` as flip-flops, loaded in the cycle before from the difference `c - x`, which
//! is kept in registers of its own.

use rust_hdl::prelude::*;

/// Keeps `d = c - x` (18-bit two's complement) and the flags `gt = c > x`, `lt = c < x`.
/// With `c' = max(c + send - ret, 0)` the next `c` and `x'` the next `x` (`load_value`
/// when `load`, else `x`), every flag is the sign of one subtraction that starts at a
/// register:
///
/// ```text
///   c' > x'  <=>  c' - x' - 1 >= 0        c' < x'  <=>  c' - x' < 0   (and x' != 0)
///   no load:  c' - x = d + send - ret      load:  c' - x' = c + send - (x' + ret)
/// ```
///
/// The clamp at 0 needs no case of its own: when `c + send < ret` both formulas already
/// give `c' > x'` false and `c' < x'` as `x' != 0`. It does change `d`: `d' = -x'`.
///
/// `d` is held so that neither the late `send` nor the clamp selects between 18-bit values
/// at the end of the cycle: `d = (zeroed ? neg_x : d_q) + plus - 1`. `plus` is the last
/// cycle's send (and the carry-in of the subtractions), `d_q = d + 1 - plus` does not depend
/// on it (`d_q' = d - ret + 1`, or `c - (x' + ret) + 1` after a load), `zeroed` says "c
/// was clamped to 0" and `neg_x = 1 - x` is `d_q` for c = 0. `reset` (c' = 0) comes with a
/// load of the reset value. The registers power up as for c = 0, x = 0.
#[derive(LogicBlock)]
pub struct CreditCompare {
    /// Block clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset of the block (c' = 0).
    pub reset: Signal<In, Bit>,
    /// Used credits `c`.
    pub c: Signal<In, Bits<16>>,
    /// A flit leaves this cycle.
    pub send: Signal<In, Bit>,
    /// Credits returned this cycle.
    pub ret: Signal<In, Bits<8>>,
    /// `c + send < ret`: c' is clamped to 0 (shared by the owner's compares).
    pub clamp: Signal<In, Bit>,
    /// The register compared with, this cycle.
    pub x: Signal<In, Bits<16>>,
    /// The register is loaded this cycle (a CSR write, or reset).
    pub load: Signal<In, Bit>,
    /// The value loaded.
    pub load_value: Signal<In, Bits<16>>,
    /// `c > x`.
    pub gt: Signal<Out, Bit>,
    /// `c < x`.
    pub lt: Signal<Out, Bit>,
    /// `c - x + 1 - plus` (powers up at 1: c = x = 0).
    d_q: DFFWithInit<Bits<18>>,
    plus: DFF<Bit>,
    zeroed: DFF<Bit>,
    /// `1 - x`, the `d_q` of c = 0 (powers up at 1).
    neg_x: DFFWithInit<Bits<18>>,
    gt_q: DFF<Bit>,
    lt_q: DFF<Bit>,
    base: Signal<Local, Bits<18>>,
    r18: Signal<Local, Bits<18>>,
    rm1: Signal<Local, Bits<18>>,
    rp1: Signal<Local, Bits<18>>,
    nr: Signal<Local, Bits<18>>,
    nrm1: Signal<Local, Bits<18>>,
    nrp1: Signal<Local, Bits<18>>,
    base19: Signal<Local, Bits<19>>,
    cin19: Signal<Local, Bits<19>>,
    nr19: Signal<Local, Bits<19>>,
    nrm1_19: Signal<Local, Bits<19>>,
    nrp1_19: Signal<Local, Bits<19>>,
    sum_idle: Signal<Local, Bits<19>>,
    sum_send: Signal<Local, Bits<19>>,
    sum_m1: Signal<Local, Bits<19>>,
    x_nonzero: Signal<Local, Bit>,
    fast_idle: Signal<Local, Bits<18>>,
    fast_send: Signal<Local, Bits<18>>,
    fast_m1: Signal<Local, Bits<18>>,
    c18: Signal<Local, Bits<18>>,
    lv18: Signal<Local, Bits<18>>,
    lvr: Signal<Local, Bits<18>>,
    lvrs: Signal<Local, Bits<18>>,
    lvr1: Signal<Local, Bits<18>>,
    lv_nonzero: Signal<Local, Bit>,
    load_idle: Signal<Local, Bits<18>>,
    load_send: Signal<Local, Bits<18>>,
    load_m1: Signal<Local, Bits<18>>,
}

impl Default for CreditCompare {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            c: Default::default(),
            send: Default::default(),
            ret: Default::default(),
            clamp: Default::default(),
            x: Default::default(),
            load: Default::default(),
            load_value: Default::default(),
            gt: Default::default(),
            lt: Default::default(),
            d_q: DFFWithInit::new(1.into()),
            plus: Default::default(),
            zeroed: Default::default(),
            neg_x: DFFWithInit::new(1.into()),
            gt_q: Default::default(),
            lt_q: Default::default(),
            base: Default::default(),
            r18: Default::default(),
            rm1: Default::default(),
            rp1: Default::default(),
            nr: Default::default(),
            nrm1: Default::default(),
            nrp1: Default::default(),
            base19: Default::default(),
            cin19: Default::default(),
            nr19: Default::default(),
            nrm1_19: Default::default(),
            nrp1_19: Default::default(),
            sum_idle: Default::default(),
            sum_send: Default::default(),
            sum_m1: Default::default(),
            x_nonzero: Default::default(),
            fast_idle: Default::default(),
            fast_send: Default::default(),
            fast_m1: Default::default(),
            c18: Default::default(),
            lv18: Default::default(),
            lvr: Default::default(),
            lvrs: Default::default(),
            lvr1: Default::default(),
            lv_nonzero: Default::default(),
            load_idle: Default::default(),
            load_send: Default::default(),
            load_m1: Default::default(),
        }
    }
}

impl Logic for CreditCompare {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, d_q, plus, zeroed, neg_x, gt_q, lt_q);
        // d = base + plus - 1 (plus is 0 while zeroed).
        if self.zeroed.q.val() {
            self.base.next = self.neg_x.q.val();
        } else {
            self.base.next = self.d_q.q.val();
        }
        // d - R = base + !R + plus: one carry chain with plus as its carry-in (bit 0 of a
        // 19-bit sum whose low bits are 1 and plus). R = ret, ret - 1, ret + 1 come from
        // the input alone.
        self.r18.next = bit_cast::<18, 8>(self.ret.val());
        self.rm1.next = self.r18.val() - 1;
        self.rp1.next = self.r18.val() + 1;
        self.base19.next = (bit_cast::<19, 18>(self.base.val()) << 1) | 1;
        if self.plus.q.val() {
            self.cin19.next = 1.into();
        } else {
            self.cin19.next = 0.into();
        }
        // (Inverted in 18-bit Locals first: Verilog would invert the widened value.)
        self.nr.next = !self.r18.val();
        self.nrm1.next = !self.rm1.val();
        self.nrp1.next = !self.rp1.val();
        self.nr19.next = (bit_cast::<19, 18>(self.nr.val()) << 1) | self.cin19.val();
        self.nrm1_19.next = (bit_cast::<19, 18>(self.nrm1.val()) << 1) | self.cin19.val();
        self.nrp1_19.next = (bit_cast::<19, 18>(self.nrp1.val()) << 1) | self.cin19.val();
        self.sum_idle.next = self.base19.val() + self.nr19.val();
        self.sum_send.next = self.base19.val() + self.nrm1_19.val();
        self.sum_m1.next = self.base19.val() + self.nrp1_19.val();
        self.x_nonzero.next = self.x.val().any();
        // No load: c' - x = d - (ret - send).
        self.fast_idle.next = self.sum_idle.val().get_bits::<18>(1);
        self.fast_send.next = self.sum_send.val().get_bits::<18>(1);
        self.fast_m1.next = self.sum_m1.val().get_bits::<18>(1);
        // Load: c' - x' = c - (x' + ret - send), x' + ret from inputs only.
        self.c18.next = bit_cast::<18, 16>(self.c.val());
        self.lv18.next = bit_cast::<18, 16>(self.load_value.val());
        self.lvr.next = self.lv18.val() + self.r18.val();
        self.lvrs.next = self.lvr.val() - 1;
        self.lvr1.next = self.lvr.val() + 1;
        self.lv_nonzero.next = self.load_value.val().any();
        self.load_idle.next = self.c18.val() - self.lvr.val();
        self.load_send.next = self.c18.val() - self.lvrs.val();
        self.load_m1.next = self.c18.val() - self.lvr1.val();
        // The next d without this cycle's send; the send goes to `plus`.
        self.zeroed.d.next = self.clamp.val();
        self.plus.d.next = self.send.val() & !self.clamp.val();
        if self.load.val() {
            self.neg_x.d.next = !self.lv18.val() + 2;
            self.d_q.d.next = self.load_send.val();
            if self.send.val() {
                self.gt_q.d.next = !self.load_idle.val().get_bit(17);
                self.lt_q.d.next = self.lv_nonzero.val() & self.load_send.val().get_bit(17);
            } else {
                self.gt_q.d.next = !self.load_m1.val().get_bit(17);
                self.lt_q.d.next = self.lv_nonzero.val() & self.load_idle.val().get_bit(17);
            }
        } else {
            self.d_q.d.next = self.fast_send.val();
            if self.send.val() {
                self.gt_q.d.next = !self.fast_idle.val().get_bit(17);
                self.lt_q.d.next = self.x_nonzero.val() & self.fast_send.val().get_bit(17);
            } else {
                self.gt_q.d.next = !self.fast_m1.val().get_bit(17);
                self.lt_q.d.next = self.x_nonzero.val() & self.fast_idle.val().get_bit(17);
            }
        }
        if self.reset.val() {
            self.zeroed.d.next = true;
            self.plus.d.next = false;
            self.gt_q.d.next = false;
            self.lt_q.d.next = self.lv_nonzero.val();
        }
        self.gt.next = self.gt_q.q.val();
        self.lt.next = self.lt_q.q.val();
    }
}

#[test]
fn credit_compare_synthesizes() {
    let mut uut = CreditCompare::default();
    uut.connect_all();
    yosys_validate("credit_compare", &generate_verilog(&uut)).unwrap();
}
