//! `IbccFlow`: IB CC's source state for one flow with its port's CCT and CCTI timer (seed
//! 002), cycle-exact to `ibcc::model` under the cycle mapping of `ibcc::stepper`.

use super::cct::Cct;
use super::ccti::Ccti;
use super::ccti_timer::CctiTimer;
use super::ird::Ird;
use super::model::Params;
use crate::mvcm::countdown::Countdown;
use rust_hdl::prelude::*;

/// One flow of a NIC port: its CCTI and IRD timer, and the port's CCT, spacing
/// arithmetic and CCTI timer (all of them per port, used here by one flow; `IbccFlows`
/// shares them among N flows).
///
/// In a cycle the block applies the flow's BECN (`becn`), then the CCTI timer's expiry
/// (`tick`, an output: the block's own timer), then a packet start (`start` with its
/// length `flits`), in the model's order. `ccti`, `eligible` and `wait_cycles` come from
/// registers: the state at the cycle's start (`eligible` is the model's `next_ok <= now`,
/// `wait_cycles` is `next_ok - now`, at least 0). A start loads the timer with
/// `flits + IRD(CCT[CCTI after this cycle's BECN and expiry]) - 1`; a start while not
/// eligible (`err_early`; the network never does it) is still taken, as in the model.
///
/// `reset` is synchronous: the cycle after it starts the model afresh (CCTI 0, eligible,
/// the timer's first expiry `first` cycles later); its cycle's events are ignored. The
/// CCTI timer powers up expiring, so give the block a reset cycle first.
///
/// Type parameters: C bits of CCTI (`limit < 2^C`), L bits of packet length (`flits`
/// 0..2^L), T bits of timer (`max_spacing(2^L - 1) - 1 < 2^T`), P bits of CCTI timer
/// (`period - 1 < 2^P`). Seed 002's Table I with 2 KiB packets of 64 B flits is
/// `IbccFlow<7, 6, 13, 13>` ([`Table1Flow`]).
///
/// ```text
///                 +----------------------------------------------+
///  becn --------->|  timer: CCTI timer (P bits) -> tick          |---> ccti[C]
///  start -------->|  ccti: CCTI (C bits), BECN then tick         |---> eligible
///  flits[L] ----->|  cct: CCT[ccti_next] (ROM)                   |---> wait_cycles[T]
///  clock, reset ->|  ird: flits + IRD - 1                        |---> tick
///                 |  wait: countdown (T bits)                    |---> err_early
///                 +----------------------------------------------+
/// ```
#[derive(LogicBlock)]
pub struct IbccFlow<const C: usize, const L: usize, const T: usize, const P: usize> {
    /// Block clock; everything is synchronous to its rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: the next cycle starts the model afresh.
    pub reset: Signal<In, Bit>,
    /// A BECN (a CNP's arrival) of the flow this cycle.
    pub becn: Signal<In, Bit>,
    /// A packet of the flow starts this cycle.
    pub start: Signal<In, Bit>,
    /// Its length, flits.
    pub flits: Signal<In, Bits<L>>,
    /// The CCTI at the cycle's start.
    pub ccti: Signal<Out, Bits<C>>,
    /// The flow may start a packet this cycle (its IRD has passed).
    pub eligible: Signal<Out, Bit>,
    /// Cycles until it may (`next_ok - now`, at least 0).
    pub wait_cycles: Signal<Out, Bits<T>>,
    /// The CCTI timer expires this cycle.
    pub tick: Signal<Out, Bit>,
    /// This cycle's start came before the IRD had passed.
    pub err_early: Signal<Out, Bit>,
    /// The port's CCTI timer.
    pub timer: CctiTimer<P>,
    /// The flow's CCTI.
    pub index: Ccti<C>,
    /// The port's CCT.
    pub cct: Cct<C>,
    /// `flits + IRD - 1`.
    pub spacing: Ird<L, T>,
    /// The cycles until `next_ok`.
    pub ird_timer: Countdown<T>,
    go: Signal<Local, Bit>,
}

/// Seed 002's Table I (increase 1, limit 127, min 0, linear CCT, timer 6,000 cycles at
/// 25.6 ns) with packets of up to 63 flits (2 KiB = 32 flits of 64 B): 7-bit CCTI, 6-bit
/// length, `63 + 63 * 127 - 1 < 2^13`, a 13-bit timer.
pub type Table1Flow = IbccFlow<7, 6, 13, 13>;
/// Wider: CCTI up to 255, 255-flit packets, any CCT of 16-bit entries (`255 + 255 * 16383
/// < 2^22`), periods up to 65,536 cycles.
pub type WideIbccFlow = IbccFlow<8, 8, 22, 16>;

/// The timer's constants and the widths' check, shared by the one-flow and the N-flow
/// block: panics unless `p` passes `Params::check` and fits C, L, T bits.
pub(crate) fn check_widths(who: &str, p: &Params, c: usize, l: usize, t: usize) {
    if let Err(e) = p.check() {
        panic!("{who}: {e}");
    }
    assert!(
        c <= 16 && (p.limit as u64) < 1u64 << c,
        "{who}: limit = {} does not fit {c} bits",
        p.limit
    );
    assert!((1..=16).contains(&l), "{who}: L = {l}: allowed 1..=16");
    let top = p.max_spacing((1u32 << l) - 1);
    assert!(
        t < 64 && top - 1 < 1u64 << t,
        "{who}: the longest spacing minus one, {}, does not fit {t} bits",
        top - 1
    );
}

impl<const C: usize, const L: usize, const T: usize, const P: usize> IbccFlow<C, L, T, P> {
    /// The flow for the constants `p` and a CCTI timer of `period` cycles whose first
    /// expiry is `first` cycles after a reset (1..=period). Panics, naming the constant, if
    /// they are out of range or do not fit the widths.
    pub fn new(p: &Params, period: u64, first: u64) -> Self {
        check_widths("IbccFlow", p, C, L, T);
        Self {
            clock: Default::default(),
            reset: Default::default(),
            becn: Default::default(),
            start: Default::default(),
            flits: Default::default(),
            ccti: Default::default(),
            eligible: Default::default(),
            wait_cycles: Default::default(),
            tick: Default::default(),
            err_early: Default::default(),
            timer: CctiTimer::new(period, first),
            index: Ccti::new(p),
            cct: Cct::new(p),
            spacing: Default::default(),
            ird_timer: Default::default(),
            go: Default::default(),
        }
    }
}

impl<const C: usize, const L: usize, const T: usize, const P: usize> Logic
    for IbccFlow<C, L, T, P>
{
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock, timer, index, ird_timer);
        self.go.next = !self.reset.val();
        self.timer.reset.next = self.reset.val();
        self.index.reset.next = self.reset.val();
        self.ird_timer.reset.next = self.reset.val();

        self.index.becn.next = self.becn.val() & self.go.val();
        self.index.tick.next = self.timer.tick.val() & self.go.val();
        self.cct.ccti.next = self.index.ccti_next.val();
        self.spacing.entry.next = self.cct.entry.val();
        self.spacing.flits.next = self.flits.val();
        self.ird_timer.load.next = self.start.val() & self.go.val();
        self.ird_timer.value.next = self.spacing.spacing_m1.val();
        self.ird_timer.cancel.next = false;

        self.ccti.next = self.index.ccti.val();
        self.eligible.next = self.ird_timer.idle.val();
        self.wait_cycles.next = self.ird_timer.remaining.val();
        self.tick.next = self.timer.tick.val() & self.go.val();
        self.err_early.next = self.start.val() & self.go.val() & !self.ird_timer.idle.val();
    }
}

#[test]
fn ibcc_flow_synthesizes() {
    let mut uut = Table1Flow::new(&Params::table1(), 6000, 1);
    uut.connect_all();
    yosys_validate("ibcc_flow", &generate_verilog(&uut)).unwrap();
}

#[test]
#[should_panic(expected = "IbccFlow: the longest spacing minus one, 8063, does not fit 12 bits")]
fn ibcc_flow_refuses_a_timer_too_narrow() {
    IbccFlow::<7, 6, 12, 13>::new(&Params::table1(), 6000, 1);
}
