//! IB CC's CCTI timer of a NIC port (the spec's per-SL timer, one SL).

use rust_hdl::prelude::*;

/// `tick` in the cycles the model's `ibcc::model::Timer` expires: `first` cycles after the
/// reset cycle (the model's `Timer::new(period, first)` started in the cycle after it),
/// then every `period` cycles. A countdown `left` of P bits: `tick = (left == 0)`, then
/// `left = period - 1`; the synchronous reset loads `first` (each NIC its own phase). The
/// register powers up at 0 (a tick in the first cycle), so give the block a reset cycle
/// after power-up, as a NIC would.
///
/// ```text
///                 +-------------------------------------+
///  clock, reset ->|  left (P bits): 0 -> period - 1     |---> tick
///                 |  reset -> first                     |
///                 +-------------------------------------+
/// ```
#[derive(LogicBlock)]
pub struct CctiTimer<const P: usize> {
    /// Block clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: the first expiry `first` cycles after this one.
    pub reset: Signal<In, Bit>,
    /// The timer expires this cycle: every flow's CCTI above the floor loses one.
    pub tick: Signal<Out, Bit>,
    // Parameters (derived in new(): do not override).
    period_m1: Constant<Bits<P>>,
    first: Constant<Bits<P>>,
    // State.
    left: DFF<Bits<P>>,
}

impl<const P: usize> CctiTimer<P> {
    /// A timer of `period` cycles (at least 1) whose first expiry is `first` cycles after
    /// the reset cycle (1..=period). Panics if they are out of range or `first` does not
    /// fit P bits.
    pub fn new(period: u64, first: u64) -> Self {
        assert!(
            period >= 1 && (1..=period).contains(&first),
            "CctiTimer: period {period}, first {first}: need 1 <= first <= period"
        );
        assert!(
            P < 64 && first < 1u64 << P && period - 1 < 1u64 << P,
            "CctiTimer: period {period}, first {first} do not fit {P} bits"
        );
        Self {
            clock: Default::default(),
            reset: Default::default(),
            tick: Default::default(),
            period_m1: Constant::new((period - 1).into()),
            first: Constant::new(first.into()),
            left: Default::default(),
        }
    }

    /// Cycles until the next expiry (0: this cycle).
    pub fn state(&self) -> u64 {
        self.left.q.val().index() as u64
    }
}

impl<const P: usize> Logic for CctiTimer<P> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, left);
        self.tick.next = !self.left.q.val().any();
        if self.left.q.val().any() {
            self.left.d.next = self.left.q.val() - 1;
        } else {
            self.left.d.next = self.period_m1.val();
        }
        if self.reset.val() {
            self.left.d.next = self.first.val();
        }
    }
}

#[test]
fn ccti_timer_synthesizes() {
    let mut uut = CctiTimer::<13>::new(6000, 1);
    uut.connect_all();
    yosys_validate("ibcc_ccti_timer", &generate_verilog(&uut)).unwrap();
}
