//! DCQCN's per-flow rate limiter: a debt paid at the flow's rate.

use super::model::DEFICIT_BITS;
use rust_hdl::prelude::*;

/// Bits of the limiter's debt (`model::DEFICIT_BITS`).
pub const DB: usize = DEFICIT_BITS as usize;

/// One flow's rate limiter, cycle-exact to `dcqcn::model` (step 4 of a cycle): the debt
/// `deficit`, in rate units x cycles. A packet start loads `load` (`max(L * LINE - rc, 0)`,
/// computed once per port for the starting flow); otherwise every cycle pays `rc` (the
/// flow's rate register) off it, down to 0. `eligible` (the debt is paid) comes from the
/// register. At a constant rate the flow's starts are `ceil(L * LINE / rc)` cycles apart.
///
/// ```text
///                 +------------------------------------------------+
///  start -------->|  deficit <= start ? load : max(deficit - rc, 0) |---> eligible
///  load[22] ----->|  eligible = deficit == 0                        |
///  rc[16] ------->|                                                 |
///  clock, reset ->|                                                 |
///                 +------------------------------------------------+
/// ```
#[derive(LogicBlock, Default)]
pub struct Pacer {
    /// Block clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: no debt.
    pub reset: Signal<In, Bit>,
    /// A packet of the flow starts this cycle.
    pub start: Signal<In, Bit>,
    /// The debt it leaves.
    pub load: Signal<In, Bits<DB>>,
    /// The flow's rate (the register at the cycle's start).
    pub rc: Signal<In, Bits<16>>,
    /// The flow may start a packet this cycle.
    pub eligible: Signal<Out, Bit>,
    // State.
    deficit: DFF<Bits<DB>>,
    rate: Signal<Local, Bits<DB>>,
}

impl Pacer {
    /// The debt now.
    pub fn state(&self) -> u32 {
        self.deficit.q.val().index() as u32
    }
}

impl Logic for Pacer {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, deficit);
        self.rate.next = bit_cast::<DB, 16>(self.rc.val());
        self.deficit.d.next = 0.into();
        if self.deficit.q.val() > self.rate.val() {
            self.deficit.d.next = self.deficit.q.val() - self.rate.val();
        }
        if self.start.val() {
            self.deficit.d.next = self.load.val();
        }
        if self.reset.val() {
            self.deficit.d.next = 0.into();
        }
        self.eligible.next = self.deficit.q.val() == 0;
    }
}

#[test]
fn pacer_synthesizes() {
    let mut uut = Pacer::default();
    uut.connect_all();
    yosys_validate("dcqcn_pacer", &generate_verilog(&uut)).unwrap();
}
