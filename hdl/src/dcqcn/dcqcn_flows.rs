//! `DcqcnFlows`: N flows of DCQCN's reaction point in registers with the port's shared
//! parts (measured at N = 1, 4, 16 and 64 in docs/hardware.md).

use super::byte_counter::{ByteCounter, LB, WB};
use super::cut::Cut;
use super::dcqcn_slot::DcqcnSlot;
use super::flow_timer::TB;
use super::increase::Increase;
use super::model::Params;
use super::pacer::DB;
use rust_hdl::prelude::*;

/// N flows of a NIC port, each cycle-exact to `dcqcn::model` under the cycle mapping of
/// `dcqcn::stepper` (`Port::cycle`). At most one CNP arrives per cycle (one flit per cycle
/// on the port's link) and one packet starts per cycle, so each is a valid bit and a flow
/// number (A bits; a number `>= N` names no flow). `eligible` and `limited` have one bit
/// per flow, from registers (the NIC's scheduler picks among the eligible flows);
/// `err_early` is as in `DcqcnFlow`. `reset` is synchronous and resets every flow; the
/// events of its cycle are ignored.
///
/// Per flow (`DcqcnSlot`): the rates, alpha, the counts, the byte counter, the two timers
/// and the rate limiter, with the logic every flow needs in every cycle. Shared: the
/// multiplexers that pick the CNP's flow (its `rc` and `alpha_now`) and the starting flow
/// (its `rc` and its values after the rate timer), one `Cut`, one `ByteCounter`, one
/// `Increase` for the byte counter's event, the counter `now` and the two adders
/// `now + period`.
///
/// ```text
///                  +----------------------------------------------------+
///  cnp ----------->|  slots[N]: DcqcnSlot                               |---> eligible[N]
///  cnp_flow[A] --->|  cut: Cut of the CNP's flow                        |---> limited[N]
///  start --------->|  byte_count: ByteCounter, byte_increase: Increase  |---> err_early
///  start_flow[A] ->|    of the starting flow                            |
///  flits[7] ------>|  now (14 bits), now + T, now + K, the debt         |
///  clock, reset -->|                                                    |
///                  +----------------------------------------------------+
/// ```
#[derive(LogicBlock)]
pub struct DcqcnFlows<const N: usize, const A: usize> {
    /// Block clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset of every flow.
    pub reset: Signal<In, Bit>,
    /// A CNP arrives this cycle.
    pub cnp: Signal<In, Bit>,
    /// Its flow.
    pub cnp_flow: Signal<In, Bits<A>>,
    /// A packet starts this cycle.
    pub start: Signal<In, Bit>,
    /// Its flow.
    pub start_flow: Signal<In, Bits<A>>,
    /// Its length, flits (1..=127).
    pub flits: Signal<In, Bits<LB>>,
    /// Bit i: flow i may start a packet this cycle.
    pub eligible: Signal<Out, Bits<N>>,
    /// Bit i: flow i is below the line rate.
    pub limited: Signal<Out, Bits<N>>,
    /// This cycle's start came before its flow's rate limiter allowed it.
    pub err_early: Signal<Out, Bit>,
    /// The flows.
    pub slots: [DcqcnSlot; N],
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
    c_rc: Signal<Local, Bits<16>>,
    c_alpha: Signal<Local, Bits<16>>,
    s_rc: Signal<Local, Bits<16>>,
    s_rt2: Signal<Local, Bits<16>>,
    s_rc2: Signal<Local, Bits<16>>,
    s_t2: Signal<Local, Bits<8>>,
    s_bc1: Signal<Local, Bits<8>>,
    s_bytes1: Signal<Local, Bits<WB>>,
    s_elig: Signal<Local, Bit>,
    cost: Signal<Local, Bits<DB>>,
    rate: Signal<Local, Bits<DB>>,
    load: Signal<Local, Bits<DB>>,
    elig: Signal<Local, Bits<N>>,
    lim: Signal<Local, Bits<N>>,
}

impl<const N: usize, const A: usize> DcqcnFlows<N, A> {
    /// N flows for the constants `p`. Panics if `p` does not pass `Params::check` or N
    /// flows need more than A bits to number.
    pub fn new(p: &Params) -> Self {
        if let Err(e) = p.check() {
            panic!("DcqcnFlows: {e}");
        }
        assert!(
            (1..=64).contains(&N) && A < 64 && (N - 1) as u64 >> A == 0,
            "DcqcnFlows: {N} flows (1..=64) do not fit {A}-bit flow numbers"
        );
        Self {
            clock: Default::default(),
            reset: Default::default(),
            cnp: Default::default(),
            cnp_flow: Default::default(),
            start: Default::default(),
            start_flow: Default::default(),
            flits: Default::default(),
            eligible: Default::default(),
            limited: Default::default(),
            err_early: Default::default(),
            slots: std::array::from_fn(|_| DcqcnSlot::new(p)),
            cut: Cut::new(p),
            byte_count: ByteCounter::new(p),
            byte_increase: Increase::new(p),
            rate_timer: Constant::new((p.rate_timer as u64).into()),
            alpha_timer: Constant::new((p.alpha_timer as u64).into()),
            now: Default::default(),
            go: Default::default(),
            rate_value: Default::default(),
            alpha_value: Default::default(),
            c_rc: Default::default(),
            c_alpha: Default::default(),
            s_rc: Default::default(),
            s_rt2: Default::default(),
            s_rc2: Default::default(),
            s_t2: Default::default(),
            s_bc1: Default::default(),
            s_bytes1: Default::default(),
            s_elig: Default::default(),
            cost: Default::default(),
            rate: Default::default(),
            load: Default::default(),
            elig: Default::default(),
            lim: Default::default(),
        }
    }
}

impl<const N: usize, const A: usize> Logic for DcqcnFlows<N, A> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, now);
        self.now.d.next = self.now.q.val() + 1;
        self.go.next = !self.reset.val();
        self.rate_value.next = self.now.q.val() + self.rate_timer.val();
        self.alpha_value.next = self.now.q.val() + self.alpha_timer.val();
        // The CNP's flow and the starting flow (0 when the number names no flow).
        self.c_rc.next = 0.into();
        self.c_alpha.next = 0.into();
        self.s_rc.next = 0.into();
        self.s_rt2.next = 0.into();
        self.s_rc2.next = 0.into();
        self.s_t2.next = 0.into();
        self.s_bc1.next = 0.into();
        self.s_bytes1.next = 0.into();
        self.s_elig.next = true;
        for i in 0..N {
            if self.cnp_flow.val().index() == i {
                self.c_rc.next = self.slots[i].rc.val();
                self.c_alpha.next = self.slots[i].alpha_now.val();
            }
            if self.start_flow.val().index() == i {
                self.s_rc.next = self.slots[i].rc.val();
                self.s_rt2.next = self.slots[i].rt2.val();
                self.s_rc2.next = self.slots[i].rc2.val();
                self.s_t2.next = self.slots[i].t2.val();
                self.s_bc1.next = self.slots[i].bc1.val();
                self.s_bytes1.next = self.slots[i].bytes1.val();
            }
            // Its own statement: the flag must not join the values above in one block of
            // the Verilog (a false loop to Verilator through the slot's CNP input).
            if self.start_flow.val().index() == i {
                self.s_elig.next = self.slots[i].eligible.val();
            }
        }
        self.cut.rc.next = self.c_rc.val();
        self.cut.alpha.next = self.c_alpha.val();
        self.byte_count.bytes.next = self.s_bytes1.val();
        self.byte_count.flits.next = self.flits.val();
        self.byte_count.bc.next = self.s_bc1.val();
        self.byte_increase.rt.next = self.s_rt2.val();
        self.byte_increase.rc.next = self.s_rc2.val();
        self.byte_increase.t.next = self.s_t2.val();
        self.byte_increase.bc.next = self.byte_count.bc_next.val();
        self.byte_increase.en.next = true;
        self.byte_increase.lim.next = true;
        self.cost.next = bit_cast::<DB, LB>(self.flits.val()) << 15;
        self.rate.next = bit_cast::<DB, 16>(self.s_rc.val());
        if self.cost.val() > self.rate.val() {
            self.load.next = self.cost.val() - self.rate.val();
        } else {
            self.load.next = 0.into();
        }
        self.elig.next = 0.into();
        self.lim.next = 0.into();
        for i in 0..N {
            self.slots[i].clock.next = self.clock.val();
            self.slots[i].reset.next = self.reset.val();
            self.slots[i].cnp.next =
                self.go.val() & self.cnp.val() & (self.cnp_flow.val().index() == i);
            self.slots[i].start.next =
                self.go.val() & self.start.val() & (self.start_flow.val().index() == i);
            self.slots[i].rc_cut.next = self.cut.rc_cut.val();
            self.slots[i].alpha_cnp.next = self.cut.alpha_next.val();
            self.slots[i].load.next = self.load.val();
            self.slots[i].bytes_next.next = self.byte_count.bytes_next.val();
            self.slots[i].byte_event.next = self.byte_count.fired.val();
            self.slots[i].bc_next.next = self.byte_count.bc_next.val();
            self.slots[i].inc_rt.next = self.byte_increase.rt_next.val();
            self.slots[i].inc_rc.next = self.byte_increase.rc_next.val();
            self.slots[i].inc_lim.next = self.byte_increase.lim_next.val();
            self.slots[i].rate_value.next = self.rate_value.val();
            self.slots[i].alpha_value.next = self.alpha_value.val();
            self.slots[i].now.next = self.now.q.val();
            self.elig.next = self.elig.val().replace_bit(i, self.slots[i].eligible.val());
            self.lim.next = self.lim.val().replace_bit(i, self.slots[i].limited.val());
        }
        self.eligible.next = self.elig.val();
        self.limited.next = self.lim.val();
        self.err_early.next = self.go.val() & self.start.val() & !self.s_elig.val();
    }
}

#[test]
fn dcqcn_flows_synthesizes() {
    let mut uut = DcqcnFlows::<4, 2>::new(&Params::paper());
    uut.connect_all();
    yosys_validate("dcqcn_flows", &generate_verilog(&uut)).unwrap();
}
