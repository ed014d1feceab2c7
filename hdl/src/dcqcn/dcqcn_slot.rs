//! One flow's registers and per-flow logic of DCQCN's reaction point: what every flow
//! needs in every cycle (its timers, alpha's decay, the rate timer's increase, the rate
//! limiter); the CNP's arithmetic, the byte counter and its increase are per port.

use super::alpha::Alpha;
use super::byte_counter::WB;
use super::flow_timer::{FlowTimer, TB};
use super::increase::Increase;
use super::model::Params;
use super::pacer::{Pacer, DB};
use super::rates::Rates;
use rust_hdl::prelude::*;

/// One flow, cycle-exact to `dcqcn::model::Flow::cycle` together with the port's shared
/// parts (`DcqcnFlow`, `DcqcnFlows`), which read the flow's values after each step
/// through the outputs and give back the CNP's and the start's results:
///
/// 1. the alpha timer's event decays alpha (`Alpha`; `alpha_now` goes to the port's `Cut`);
/// 2. a CNP (`cnp`): `Rates` applies `rc_cut` (the port's cut of `rc`, `alpha_now`),
///    `Alpha` loads `alpha_cnp`, both timers restart;
/// 3. otherwise the rate timer's event: `T + 1` (saturating), then the slot's own
///    `Increase`; the values after it (`rt2`, `rc2`, `t2`, `bc1`, `bytes1`) go to the
///    port's byte counter and its `Increase`;
/// 4. a packet start (`start`) while limited keeps the port's `bytes_next`, and at a
///    byte-counter event (`byte_event`) its `bc_next`, `inc_rt`, `inc_rc`, `inc_lim`;
///    the rate limiter (`Pacer`) loads `load` or pays `rc` off.
///
/// The registers are in `Rates` (rates, counts, byte counter, limited), `Alpha` (alpha and
/// whether a CNP came), the timers' deadlines and the limiter's debt; this block only
/// connects them, with the choices of steps 3 and 4.
///
/// ```text
///                      +---------------------------------------------+
///  cnp, start -------->|  rates: Rates; alpha_reg: Alpha             |---> eligible, limited
///  rc_cut, alpha_cnp ->|  alpha_timer, rate_timer: FlowTimer         |---> rc, rt, alpha
///  load[22] ---------->|  increase: Increase (the rate timer's)      |---> alpha_now
///  bytes_next, ... --->|  pacer: Pacer                               |---> rt2, rc2, t2,
///  *_value, now[14] -->|                                             |     bc1, bytes1
///  clock, reset ------>|                                             |
///                      +---------------------------------------------+
/// ```
#[derive(LogicBlock)]
pub struct DcqcnSlot {
    /// Block clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: line rate, alpha 1.0, not limited, no debt.
    pub reset: Signal<In, Bit>,
    /// A CNP of this flow.
    pub cnp: Signal<In, Bit>,
    /// The CNP's rate (the port's `Cut` of `rc`, `alpha_now`).
    pub rc_cut: Signal<In, Bits<16>>,
    /// The CNP's alpha.
    pub alpha_cnp: Signal<In, Bits<16>>,
    /// A packet of this flow starts.
    pub start: Signal<In, Bit>,
    /// Its debt for the rate limiter.
    pub load: Signal<In, Bits<DB>>,
    /// The port's byte counter after the start (of `bytes1`).
    pub bytes_next: Signal<In, Bits<WB>>,
    /// The start ends a byte-counter period.
    pub byte_event: Signal<In, Bit>,
    /// The byte-counter events after it.
    pub bc_next: Signal<In, Bits<8>>,
    /// The rates after the port's increase of that event (from `rt2`, `rc2`), and whether
    /// the flow is still limited after it.
    pub inc_rt: Signal<In, Bits<16>>,
    pub inc_rc: Signal<In, Bits<16>>,
    pub inc_lim: Signal<In, Bit>,
    /// `now + rate_timer` and `now + alpha_timer` (mod 2^14).
    pub rate_value: Signal<In, Bits<TB>>,
    pub alpha_value: Signal<In, Bits<TB>>,
    /// The shared free-running counter.
    pub now: Signal<In, Bits<TB>>,
    /// The flow may start a packet this cycle (from registers).
    pub eligible: Signal<Out, Bit>,
    /// The flow is below the line rate (from registers).
    pub limited: Signal<Out, Bit>,
    /// Current rate, target rate, alpha (registers).
    pub rc: Signal<Out, Bits<16>>,
    pub rt: Signal<Out, Bits<16>>,
    pub alpha: Signal<Out, Bits<16>>,
    /// Alpha after this cycle's decay.
    pub alpha_now: Signal<Out, Bits<16>>,
    /// After this cycle's CNP and rate-timer event: the rates, the counts, the byte counter.
    pub rt2: Signal<Out, Bits<16>>,
    pub rc2: Signal<Out, Bits<16>>,
    pub t2: Signal<Out, Bits<8>>,
    pub bc1: Signal<Out, Bits<8>>,
    pub bytes1: Signal<Out, Bits<WB>>,
    /// Rates, counts, byte counter, limited.
    pub rates: Rates,
    /// Alpha.
    pub alpha_reg: Alpha,
    /// The alpha timer.
    pub alpha_timer: FlowTimer,
    /// The rate timer.
    pub rate_timer: FlowTimer,
    /// The rate timer's increase.
    pub increase: Increase,
    /// The rate limiter.
    pub pacer: Pacer,
    // Wires.
    tev: Signal<Local, Bit>,
    t2l: Signal<Local, Bits<8>>,
    take: Signal<Local, Bit>,
}

/// One flow's registers, read by a testbench.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SlotState {
    pub rc: u16,
    pub rt: u16,
    pub alpha: u16,
    pub t: u8,
    pub bc: u8,
    pub bytes: u32,
    pub deficit: u32,
    pub limited: bool,
}

impl DcqcnSlot {
    /// One flow for `p`. Panics if `p` does not pass `Params::check`.
    pub fn new(p: &Params) -> Self {
        if let Err(e) = p.check() {
            panic!("DcqcnSlot: {e}");
        }
        Self {
            clock: Default::default(),
            reset: Default::default(),
            cnp: Default::default(),
            rc_cut: Default::default(),
            alpha_cnp: Default::default(),
            start: Default::default(),
            load: Default::default(),
            bytes_next: Default::default(),
            byte_event: Default::default(),
            bc_next: Default::default(),
            inc_rt: Default::default(),
            inc_rc: Default::default(),
            inc_lim: Default::default(),
            rate_value: Default::default(),
            alpha_value: Default::default(),
            now: Default::default(),
            eligible: Default::default(),
            limited: Default::default(),
            rc: Default::default(),
            rt: Default::default(),
            alpha: Default::default(),
            alpha_now: Default::default(),
            rt2: Default::default(),
            rc2: Default::default(),
            t2: Default::default(),
            bc1: Default::default(),
            bytes1: Default::default(),
            rates: Default::default(),
            alpha_reg: Alpha::new(p),
            alpha_timer: Default::default(),
            rate_timer: Default::default(),
            increase: Increase::new(p),
            pacer: Default::default(),
            tev: Default::default(),
            t2l: Default::default(),
            take: Default::default(),
        }
    }

    /// The flow's registers now.
    pub fn state(&self) -> SlotState {
        let (rc, rt, t, bc, bytes, limited) = self.rates.state();
        SlotState {
            rc,
            rt,
            alpha: self.alpha_reg.state(),
            t,
            bc,
            bytes,
            deficit: self.pacer.state(),
            limited,
        }
    }
}

impl Logic for DcqcnSlot {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(
            self,
            clock,
            rates,
            alpha_reg,
            alpha_timer,
            rate_timer,
            pacer
        );
        // 1. The alpha timer; alpha's decay and the CNP's load.
        self.alpha_timer.load.next = self.cnp.val();
        self.alpha_timer.run.next = self.alpha_reg.on.val();
        self.alpha_timer.value.next = self.alpha_value.val();
        self.alpha_timer.now.next = self.now.val();
        self.alpha_reg.reset.next = self.reset.val();
        self.alpha_reg.decay.next = self.alpha_timer.fire.val();
        self.alpha_reg.cnp.next = self.cnp.val();
        self.alpha_reg.cnp_alpha.next = self.alpha_cnp.val();
        // 2. A CNP.
        self.rates.reset.next = self.reset.val();
        self.rates.cnp.next = self.cnp.val();
        self.rates.rc_cut.next = self.rc_cut.val();
        // 3. The rate timer's event (a CNP restarts the timer instead).
        self.rate_timer.load.next = self.cnp.val();
        self.rate_timer.run.next = self.rates.limited.val();
        self.rate_timer.value.next = self.rate_value.val();
        self.rate_timer.now.next = self.now.val();
        self.tev.next = self.rate_timer.fire.val() & !self.cnp.val();
        // (written once per evaluation, as `Rates`'s outputs: it leaves as `t2`)
        if self.tev.val() & (self.rates.t1.val() != 255) {
            self.t2l.next = self.rates.t1.val() + 1;
        } else {
            self.t2l.next = self.rates.t1.val();
        }
        self.increase.en.next = self.tev.val();
        self.increase.lim.next = self.rates.lim1.val();
        self.increase.rt.next = self.rates.rt1.val();
        self.increase.rc.next = self.rates.rc1.val();
        self.increase.t.next = self.t2l.val();
        self.increase.bc.next = self.rates.bc1.val();
        self.rates.t_in.next = self.t2l.val();
        // 4. A start: the byte counter (while limited), from the port.
        self.take.next = self.start.val() & self.increase.lim_next.val();
        self.rates.rt_in.next = self.increase.rt_next.val();
        self.rates.rc_in.next = self.increase.rc_next.val();
        self.rates.lim_in.next = self.increase.lim_next.val();
        self.rates.bc_in.next = self.rates.bc1.val();
        self.rates.bytes_in.next = self.rates.bytes1.val();
        if self.take.val() {
            self.rates.bytes_in.next = self.bytes_next.val();
        }
        if self.take.val() & self.byte_event.val() {
            self.rates.bc_in.next = self.bc_next.val();
            self.rates.rt_in.next = self.inc_rt.val();
            self.rates.rc_in.next = self.inc_rc.val();
            self.rates.lim_in.next = self.inc_lim.val();
        }
        // The rate limiter pays with the rate at the cycle's start.
        self.pacer.reset.next = self.reset.val();
        self.pacer.start.next = self.start.val();
        self.pacer.load.next = self.load.val();
        self.pacer.rc.next = self.rates.rc.val();
        self.eligible.next = self.pacer.eligible.val();
        self.limited.next = self.rates.limited.val();
        self.rc.next = self.rates.rc.val();
        self.rt.next = self.rates.rt.val();
        self.alpha.next = self.alpha_reg.alpha.val();
        self.alpha_now.next = self.alpha_reg.alpha_now.val();
        self.rt2.next = self.increase.rt_next.val();
        self.rc2.next = self.increase.rc_next.val();
        self.t2.next = self.t2l.val();
        self.bc1.next = self.rates.bc1.val();
        self.bytes1.next = self.rates.bytes1.val();
    }
}

#[test]
fn dcqcn_slot_synthesizes() {
    let mut uut = DcqcnSlot::new(&Params::paper());
    uut.connect_all();
    yosys_validate("dcqcn_slot", &generate_verilog(&uut)).unwrap();
}
