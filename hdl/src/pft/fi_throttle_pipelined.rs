//! FI throttle of the pipelined build: the gap counter of `FiThrottle`, with the compare
//! against the level done a cycle ahead.

use rust_hdl::prelude::*;

/// Fixed-interval gate, decision precomputed. `gap` counts as in `FiThrottle` (cleared by a
/// send, saturating at 0xFFFF, reset to 0xFFFF). `ok` is a register:
///
/// ```text
///   ok(t+1) = !ovf(t) & (gap(t+1) >= level(t))
/// ```
///
/// `gap(t+1)` is 0 after a send and `min(gap(t) + 1, 0xFFFF)` otherwise. The second value is
/// kept ready in its own register `gap_inc` (so no increment sits before the compare), and
/// the late `send` only picks one of two compares.
#[derive(LogicBlock)]
pub struct FiThrottlePipelined {
    /// Block clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: gap to 0xFFFF.
    pub reset: Signal<In, Bit>,
    /// A flit leaves this cycle.
    pub send: Signal<In, Bit>,
    /// The level register L (modulo 2^32).
    pub level: Signal<In, Bits<32>>,
    /// L >= 2^32.
    pub level_ovf: Signal<In, Bit>,
    /// The gate is open this cycle (decided last cycle).
    pub ok: Signal<Out, Bit>,
    /// `ok` of the next cycle (the verdict being registered).
    pub ok_next: Signal<Out, Bit>,
    /// Cycles since the last flit sent.
    pub gap: Signal<Out, Bits<16>>,
    count: DFF<Bits<16>>,
    /// `min(gap + 1, 0xFFFF)`; powers up at 1, the value for gap = 0.
    gap_inc: DFFWithInit<Bits<16>>,
    ok_q: DFF<Bit>,
    lvl_hi: Signal<Local, Bits<16>>,
    lvl_lo: Signal<Local, Bits<16>>,
    hi_zero: Signal<Local, Bit>,
    idle_ok: Signal<Local, Bit>,
    send_ok: Signal<Local, Bit>,
}

impl Default for FiThrottlePipelined {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            send: Default::default(),
            level: Default::default(),
            level_ovf: Default::default(),
            ok: Default::default(),
            gap: Default::default(),
            count: Default::default(),
            gap_inc: DFFWithInit::new(1.into()),
            ok_q: Default::default(),
            ok_next: Default::default(),
            lvl_hi: Default::default(),
            lvl_lo: Default::default(),
            hi_zero: Default::default(),
            idle_ok: Default::default(),
            send_ok: Default::default(),
        }
    }
}

impl Logic for FiThrottlePipelined {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, count, gap_inc, ok_q);
        if self.send.val() {
            self.count.d.next = 0.into();
            self.gap_inc.d.next = 1.into();
        } else {
            self.count.d.next = self.gap_inc.q.val();
            if !self.gap_inc.q.val().all() {
                self.gap_inc.d.next = self.gap_inc.q.val() + 1;
            }
        }
        // The gap of the next cycle without a send is `gap_inc` (0xFFFF after a reset
        // cycle); a 16-bit gap reaches only a level below 2^16.
        self.lvl_hi.next = self.level.val().get_bits::<16>(16);
        self.lvl_lo.next = self.level.val().get_bits::<16>(0);
        self.hi_zero.next = !self.lvl_hi.val().any();
        if self.reset.val() {
            self.idle_ok.next = self.hi_zero.val();
        } else {
            self.idle_ok.next = self.hi_zero.val() & (self.gap_inc.q.val() >= self.lvl_lo.val());
        }
        self.send_ok.next = self.hi_zero.val() & !self.lvl_lo.val().any();
        if self.send.val() {
            self.ok_q.d.next = !self.level_ovf.val() & self.send_ok.val();
        } else {
            self.ok_q.d.next = !self.level_ovf.val() & self.idle_ok.val();
        }
        if self.reset.val() {
            self.count.d.next = 0xFFFF.into();
            self.gap_inc.d.next = 0xFFFF.into();
        }
        self.ok.next = self.ok_q.q.val();
        self.ok_next.next = self.ok_q.d.val();
        self.gap.next = self.count.q.val();
    }
}

#[test]
fn fi_throttle_pipelined_synthesizes() {
    let mut uut = FiThrottlePipelined::default();
    uut.connect_all();
    yosys_validate("fi_throttle_pipelined", &generate_verilog(&uut)).unwrap();
}
