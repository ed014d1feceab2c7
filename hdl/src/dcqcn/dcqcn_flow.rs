//! `DcqcnFlow`: DCQCN's reaction point for one flow with its port's shared parts,
//! cycle-exact to `dcqcn::model` under the cycle mapping of `dcqcn::stepper`.

use super::byte_counter::{ByteCounter, LB};
use super::cut::Cut;
use super::dcqcn_slot::DcqcnSlot;
use super::flow_timer::TB;
use super::increase::Increase;
use super::model::{Params, RATE_BITS};
use super::pacer::DB;
use rust_hdl::prelude::*;

/// One flow of a NIC port: its slot (`DcqcnSlot`: the registers, the timers, alpha's decay,
/// the rate timer's increase, the rate limiter) and the port's parts (one CNP and one packet
/// start per cycle): the CNP's arithmetic (`Cut`), the byte counter (`ByteCounter`) and its
/// increase (`Increase`), the shared counter `now` and the adders `now + period` of the two
/// timers. `DcqcnFlows` shares them among N flows.
///
/// In a cycle the block applies the alpha timer, the flow's CNP (`cnp`), the rate timer,
/// then a packet start (`start` with its length `flits`), in the model's order. `rc`, `rt`,
/// `alpha`, `eligible` and `limited` come from registers: the state at the cycle's start. A
/// start while not eligible (`err_early`; the network never does it) is still taken, as in
/// the model. `reset` is synchronous: the next cycle starts the model afresh
/// (`Flow::default()`); its cycle's events are ignored. Registers power up at 0, not at
/// the reset values: give the block a reset cycle first.
///
/// ```text
///                 +------------------------------------------------------+
///  cnp ---------->|  slot: DcqcnSlot (rc, rt, alpha, T, BC, bytes,       |---> rc[16], rt[16]
///  start -------->|        timers, rate limiter)                         |---> alpha[16]
///  flits[7] ----->|  cut: Cut (CNP)                                      |---> eligible
///  clock, reset ->|  byte_count: ByteCounter, byte_increase: Increase    |---> limited
///                 |  now (14 bits), now + T, now + K, the start's        |---> err_early
///                 |  debt flits * LINE - rc                              |
///                 +------------------------------------------------------+
/// ```
#[derive(LogicBlock)]
pub struct DcqcnFlow {
    /// Block clock; everything is synchronous to its rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: the next cycle starts the model afresh.
    pub reset: Signal<In, Bit>,
    /// A CNP of the flow arrives this cycle.
    pub cnp: Signal<In, Bit>,
    /// A packet of the flow starts this cycle.
    pub start: Signal<In, Bit>,
    /// Its length, flits (1..=127).
    pub flits: Signal<In, Bits<LB>>,
    /// Current rate, units of the line rate / 2^15, at the cycle's start.
    pub rc: Signal<Out, Bits<16>>,
    /// Target rate.
    pub rt: Signal<Out, Bits<16>>,
    /// Alpha, units of 2^-15.
    pub alpha: Signal<Out, Bits<16>>,
    /// The flow may start a packet this cycle (its rate limiter's debt is paid).
    pub eligible: Signal<Out, Bit>,
    /// The flow is below the line rate.
    pub limited: Signal<Out, Bit>,
    /// This cycle's start came before the rate limiter allowed it.
    pub err_early: Signal<Out, Bit>,
    /// The flow's state and per-flow logic.
    pub slot: DcqcnSlot,
    /// The CNP's cut and alpha update.
    pub cut: Cut,
    /// The start's byte counter.
    pub byte_count: ByteCounter,
    /// The byte counter's increase.
    pub byte_increase: Increase,
    // Parameters (derived in new(): do not override).
    rate_timer: Constant<Bits<TB>>,
    alpha_timer: Constant<Bits<TB>>,
    // State.
    now: DFF<Bits<TB>>,
    go: Signal<Local, Bit>,
    rate_value: Signal<Local, Bits<TB>>,
    alpha_value: Signal<Local, Bits<TB>>,
    cost: Signal<Local, Bits<DB>>,
    rate: Signal<Local, Bits<DB>>,
    load: Signal<Local, Bits<DB>>,
}

impl DcqcnFlow {
    /// One flow for the constants `p`. Panics if `p` does not pass `Params::check`.
    pub fn new(p: &Params) -> Self {
        if let Err(e) = p.check() {
            panic!("DcqcnFlow: {e}");
        }
        Self {
            clock: Default::default(),
            reset: Default::default(),
            cnp: Default::default(),
            start: Default::default(),
            flits: Default::default(),
            rc: Default::default(),
            rt: Default::default(),
            alpha: Default::default(),
            eligible: Default::default(),
            limited: Default::default(),
            err_early: Default::default(),
            slot: DcqcnSlot::new(p),
            cut: Cut::new(p),
            byte_count: ByteCounter::new(p),
            byte_increase: Increase::new(p),
            rate_timer: Constant::new((p.rate_timer as u64).into()),
            alpha_timer: Constant::new((p.alpha_timer as u64).into()),
            now: Default::default(),
            go: Default::default(),
            rate_value: Default::default(),
            alpha_value: Default::default(),
            cost: Default::default(),
            rate: Default::default(),
            load: Default::default(),
        }
    }
}

/// `flits * LINE` is `flits << RATE_BITS`.
const _: () = assert!(RATE_BITS == 15);

impl Logic for DcqcnFlow {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, now);
        clock!(self, clock, slot);
        self.now.d.next = self.now.q.val() + 1;
        self.go.next = !self.reset.val();
        // The timers' next events (wrapping: Locals of 14 bits).
        self.rate_value.next = self.now.q.val() + self.rate_timer.val();
        self.alpha_value.next = self.now.q.val() + self.alpha_timer.val();
        // The CNP's arithmetic on the flow's values.
        self.cut.rc.next = self.slot.rc.val();
        self.cut.alpha.next = self.slot.alpha_now.val();
        // The start's byte counter and its increase on the values after the rate timer.
        self.byte_count.bytes.next = self.slot.bytes1.val();
        self.byte_count.flits.next = self.flits.val();
        self.byte_count.bc.next = self.slot.bc1.val();
        self.byte_increase.rt.next = self.slot.rt2.val();
        self.byte_increase.rc.next = self.slot.rc2.val();
        self.byte_increase.t.next = self.slot.t2.val();
        self.byte_increase.bc.next = self.byte_count.bc_next.val();
        self.byte_increase.en.next = true;
        self.byte_increase.lim.next = true;
        // The start's debt: max(flits * LINE - rc, 0), rc at the cycle's start.
        self.cost.next = bit_cast::<DB, LB>(self.flits.val()) << 15;
        self.rate.next = bit_cast::<DB, 16>(self.slot.rc.val());
        if self.cost.val() > self.rate.val() {
            self.load.next = self.cost.val() - self.rate.val();
        } else {
            self.load.next = 0.into();
        }
        self.slot.reset.next = self.reset.val();
        self.slot.cnp.next = self.go.val() & self.cnp.val();
        self.slot.start.next = self.go.val() & self.start.val();
        self.slot.rc_cut.next = self.cut.rc_cut.val();
        self.slot.alpha_cnp.next = self.cut.alpha_next.val();
        self.slot.load.next = self.load.val();
        self.slot.bytes_next.next = self.byte_count.bytes_next.val();
        self.slot.byte_event.next = self.byte_count.fired.val();
        self.slot.bc_next.next = self.byte_count.bc_next.val();
        self.slot.inc_rt.next = self.byte_increase.rt_next.val();
        self.slot.inc_rc.next = self.byte_increase.rc_next.val();
        self.slot.inc_lim.next = self.byte_increase.lim_next.val();
        self.slot.rate_value.next = self.rate_value.val();
        self.slot.alpha_value.next = self.alpha_value.val();
        self.slot.now.next = self.now.q.val();
        self.rc.next = self.slot.rc.val();
        self.rt.next = self.slot.rt.val();
        self.alpha.next = self.slot.alpha.val();
        self.eligible.next = self.slot.eligible.val();
        self.limited.next = self.slot.limited.val();
        self.err_early.next = self.go.val() & self.start.val() & !self.slot.eligible.val();
    }
}

#[test]
fn dcqcn_flow_synthesizes() {
    let mut uut = DcqcnFlow::new(&Params::paper());
    uut.connect_all();
    yosys_validate("dcqcn_flow", &generate_verilog(&uut)).unwrap();
}
