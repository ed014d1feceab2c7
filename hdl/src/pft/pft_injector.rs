//! `PftInjector`: the PFT block at a NIC's injection port (spec §1).

use super::{
    congestion_fsm::CongestionFsm, credit_counter::CreditCounter, csr::Csr,
    fi_throttle::FiThrottle, level_shifter::LevelShifter, perf_counters::PerfCounters,
    ri_gate::RiGate, throttle_compare::ThrottleCompare,
};
use rust_hdl::prelude::*;

/// The top block. Every cycle: `send = flit_valid & (c < CREDIT_LIMIT) & pass`, where `pass`
/// is 1 in Normal and the FI or RI gate in Congested, and with packet gating (CTRL.gating)
/// also 1 for a flit that is not a packet's first (`flit_head` low). All decisions of a cycle
/// use registered values of that cycle; `reset` (synchronous) also blocks `send`.
///
/// ```text
///                 +------------------------------+
///  flit_valid --->|                              |---> send
///  flit_head ---->|                              |
///  credit_return->|  credit  fsm  level  fi/ri   |---> congested
///  csr_we ------->|  counter            gates    |---> used_credits
///  csr_addr ----->|                              |---> throttled
///  csr_wdata ---->|  csr + perf counters         |---> csr_rdata
///  clock, reset ->|                              |
///                 +------------------------------+
/// ```
#[derive(LogicBlock, Default)]
pub struct PftInjector {
    /// Block clock; everything is synchronous to its rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset (hold for at least one cycle after power-up).
    pub reset: Signal<In, Bit>,
    /// The NIC has a flit ready at the head of its injection queue.
    pub flit_valid: Signal<In, Bit>,
    /// That flit is a packet's first (only read with packet gating).
    pub flit_head: Signal<In, Bit>,
    /// Credits returned by the switch this cycle.
    pub credit_return: Signal<In, Bits<8>>,
    /// CSR write enable.
    pub csr_we: Signal<In, Bit>,
    /// CSR word address.
    pub csr_addr: Signal<In, Bits<4>>,
    /// CSR write data.
    pub csr_wdata: Signal<In, Bits<32>>,
    /// The head flit leaves this cycle.
    pub send: Signal<Out, Bit>,
    /// The block is Congested (and enabled) this cycle.
    pub congested: Signal<Out, Bit>,
    /// Used credits `c`.
    pub used_credits: Signal<Out, Bits<16>>,
    /// A ready flit with a credit is held back by throttling this cycle.
    pub throttled: Signal<Out, Bit>,
    /// CSR read data at `csr_addr`.
    pub csr_rdata: Signal<Out, Bits<32>>,
    /// Register file.
    pub csr: Csr,
    /// Used-credit counter.
    pub credit: CreditCounter,
    /// Normal/Congested FSM with the FT/AT detector.
    pub fsm: CongestionFsm,
    /// f(c).
    pub shifter: LevelShifter,
    /// FI gap counter.
    pub fi: FiThrottle,
    /// RI generator.
    pub ri: RiGate,
    /// The FI or RI gate's compare against f(c).
    pub gate_cmp: ThrottleCompare,
    /// Event counters.
    pub counters: PerfCounters,
    throttle_ok: Signal<Local, Bit>,
    pass: Signal<Local, Bit>,
    ready: Signal<Local, Bit>,
}

impl Logic for PftInjector {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock, csr, credit, fsm, fi, ri, counters);
        self.csr.reset.next = self.reset.val();
        self.credit.reset.next = self.reset.val();
        self.fsm.reset.next = self.reset.val();
        self.fi.reset.next = self.reset.val();
        self.ri.reset.next = self.reset.val();
        self.counters.reset.next = self.reset.val();

        // Register file.
        self.csr.we.next = self.csr_we.val();
        self.csr.addr.next = self.csr_addr.val();
        self.csr.wdata.next = self.csr_wdata.val();
        self.csr.congested.next = self.fsm.congested.val();
        self.csr.err_underflow.next = self.credit.err_underflow.val();
        self.csr.err_overflow.next = self.credit.err_overflow.val();
        self.csr.c.next = self.credit.c.val();
        self.csr.cnt_congested.next = self.counters.cnt_congested.val();
        self.csr.cnt_sent.next = self.counters.cnt_sent.val();
        self.csr.cnt_throttled.next = self.counters.cnt_throttled.val();
        self.csr.win.next = self.fsm.win.val();
        self.csr.hit.next = self.fsm.hit.val();

        // Detector.
        self.fsm.enable.next = self.csr.enable.val();
        self.fsm.det_at.next = self.csr.det_at.val();
        self.fsm.restart.next = self.csr.restart.val();
        self.fsm.c.next = self.credit.c.val();
        self.fsm.th_enter.next = self.csr.th_enter.val();
        self.fsm.th_escape.next = self.csr.th_escape.val();
        self.fsm.win_e.next = self.csr.at_win_e.val();
        self.fsm.cnt_e.next = self.csr.at_cnt_e.val();
        self.fsm.win_s.next = self.csr.at_win_s.val();
        self.fsm.cnt_s.next = self.csr.at_cnt_s.val();

        // Level and gates.
        self.shifter.c.next = self.credit.c.val();
        self.shifter.left.next = self.csr.shape_left.val();
        self.shifter.distance.next = self.csr.shape_distance.val();
        self.shifter.spill_mask.next = self.csr.shape_spill_mask.val();
        self.shifter.k.next = self.csr.k.val();
        self.ri.reseed.next = self.csr.reseed.val();
        self.ri.seed.next = self.csr_wdata.val();
        self.gate_cmp.thr_ri.next = self.csr.thr_ri.val();
        self.gate_cmp.gap.next = self.fi.gap.val();
        self.gate_cmp.r.next = self.ri.r.val();
        self.gate_cmp.mask.next = self.csr.r_mask.val();
        self.gate_cmp.level.next = self.shifter.level.val();
        self.gate_cmp.level_ovf.next = self.shifter.level_ovf.val();

        // The decision of this cycle: Normal passes, Congested asks the selected gate.
        self.throttle_ok.next = !self.fsm.congested.val() | self.gate_cmp.ok.val();
        // Packet gating: the rest of a started packet needs only credits.
        self.pass.next =
            self.throttle_ok.val() | (self.csr.gate_packet.val() & !self.flit_head.val());
        self.ready.next = !self.reset.val() & self.flit_valid.val() & self.credit.credit_ok.val();
        self.send.next = self.ready.val() & self.pass.val();
        self.throttled.next = self.ready.val() & !self.pass.val();

        // Consequences of the decision.
        self.credit.send.next = self.send.val();
        self.credit.credit_return.next = self.credit_return.val();
        self.credit.credit_limit.next = self.csr.credit_limit.val();
        self.credit.clear_underflow.next = self.csr.clear_underflow.val();
        self.credit.clear_overflow.next = self.csr.clear_overflow.val();
        self.fi.send.next = self.send.val();
        self.counters.congested.next = self.fsm.congested.val();
        self.counters.sent.next = self.send.val();
        self.counters.throttled.next = self.throttled.val();
        self.counters.clear_congested.next = self.csr.clear_congested.val();
        self.counters.clear_sent.next = self.csr.clear_sent.val();
        self.counters.clear_throttled.next = self.csr.clear_throttled.val();

        self.congested.next = self.fsm.congested.val();
        self.used_credits.next = self.credit.c.val();
        self.csr_rdata.next = self.csr.rdata.val();
    }
}

#[test]
fn pft_injector_synthesizes() {
    let mut uut = PftInjector::default();
    uut.connect_all();
    yosys_validate("pft_injector", &generate_verilog(&uut)).unwrap();
}
