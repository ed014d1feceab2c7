//! `PftInjectorPipelined`: the PFT block with the pipelined level (build option
//! `pipelined`; Verilog top `pft_injector_pipelined`). Same ports, registers and CSR map as
//! `PftInjector`; only the throttle's timing differs (docs/behaviour.md, "Pipelined build").

use super::{
    congestion_fsm_fast::CongestionFsmFast, credit_compare::CreditCompare,
    credit_counter_fast::CreditCounterFast, csr::Csr, fi_throttle_pipelined::FiThrottlePipelined,
    level_pipe::LevelPipe, perf_counters::PerfCounters, ri_gate_pipelined::RiGatePipelined,
};
use rust_hdl::prelude::*;

/// The top block, pipelined. As `PftInjector`, except that the throttle verdict of cycle t
/// is a register computed in cycle t-1 against the level register L(t-1) = f(c(t-3)):
///
/// ```text
///   FI: ok(t) = gap(t) >= L(t-1)          RI: ok(t) = (r(t) & mask(t-1)) >= L(t-1)
/// ```
///
/// where gap and r are the same counters as in the default build, and L >= 2^32 never opens.
/// Credits, detector, counters and CSR behave exactly as in `PftInjector`.
#[derive(LogicBlock, Default)]
pub struct PftInjectorPipelined {
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
    pub credit: CreditCounterFast,
    /// `c < CREDIT_LIMIT`, a cycle ahead.
    pub cmp_limit: CreditCompare,
    /// `c > TH_ENTER`, a cycle ahead.
    pub cmp_enter: CreditCompare,
    /// `c < TH_ESCAPE`, a cycle ahead.
    pub cmp_escape: CreditCompare,
    /// Normal/Congested FSM with the FT/AT detector.
    pub fsm: CongestionFsmFast,
    /// f(c) over two pipeline stages.
    pub level_pipe: LevelPipe,
    /// FI gate, decided a cycle ahead.
    pub fi: FiThrottlePipelined,
    /// RI gate, decided a cycle ahead.
    pub ri: RiGatePipelined,
    /// Event counters.
    pub counters: PerfCounters,
    throttle_ok: Signal<Local, Bit>,
    // The gates' verdicts masked by CTRL.thr_mode, registered: `fi_sel | ri_sel` is
    // `thr_ri ? ri.ok : fi.ok`, with the select made a cycle ahead.
    fi_sel: DFF<Bit>,
    ri_sel: DFF<Bit>,
    pass: Signal<Local, Bit>,
    ready: Signal<Local, Bit>,
}

impl Logic for PftInjectorPipelined {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(
            self, clock, csr, credit, cmp_limit, cmp_enter, cmp_escape, fsm, level_pipe, fi, ri,
            counters
        );
        dff_setup!(self, clock, fi_sel, ri_sel);
        self.csr.reset.next = self.reset.val();
        self.credit.reset.next = self.reset.val();
        self.cmp_limit.reset.next = self.reset.val();
        self.cmp_enter.reset.next = self.reset.val();
        self.cmp_escape.reset.next = self.reset.val();
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
        self.fsm.above.next = self.cmp_enter.gt.val();
        self.fsm.below.next = self.cmp_escape.lt.val();
        self.fsm.win_e.next = self.csr.at_win_e.val();
        self.fsm.cnt_e.next = self.csr.at_cnt_e.val();
        self.fsm.win_s.next = self.csr.at_win_s.val();
        self.fsm.cnt_s.next = self.csr.at_cnt_s.val();
        self.fsm.win_e_next.next = self.csr.at_win_e_next.val();
        self.fsm.cnt_e_next.next = self.csr.at_cnt_e_next.val();
        self.fsm.win_s_next.next = self.csr.at_win_s_next.val();
        self.fsm.cnt_s_next.next = self.csr.at_cnt_s_next.val();

        // Level pipeline and gates (decided a cycle ahead).
        self.level_pipe.c.next = self.credit.c.val();
        self.level_pipe.left.next = self.csr.shape_left.val();
        self.level_pipe.distance.next = self.csr.shape_distance.val();
        self.level_pipe.spill_mask.next = self.csr.shape_spill_mask.val();
        self.level_pipe.k.next = self.csr.k.val();
        self.fi.level.next = self.level_pipe.level.val();
        self.fi.level_ovf.next = self.level_pipe.level_ovf.val();
        self.ri.level.next = self.level_pipe.level.val();
        self.ri.level_ovf.next = self.level_pipe.level_ovf.val();
        self.ri.mask.next = self.csr.r_mask.val();
        self.ri.mask_next.next = self.csr.r_mask_next.val();
        self.ri.reseed.next = self.csr.reseed.val();
        self.ri.seed.next = self.csr.seed_load.val();

        // The decision of this cycle, from the gates' registers.
        self.fi_sel.d.next = !self.csr.thr_ri_next.val() & self.fi.ok_next.val();
        self.ri_sel.d.next = self.csr.thr_ri_next.val() & self.ri.ok_next.val();
        self.throttle_ok.next =
            !self.fsm.congested.val() | self.fi_sel.q.val() | self.ri_sel.q.val();
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
        self.credit.below_limit.next = self.cmp_limit.lt.val();
        // The look-ahead compares of c with CREDIT_LIMIT and the thresholds.
        self.cmp_limit.x.next = self.csr.credit_limit.val();
        self.cmp_limit.load.next = self.csr.credit_limit_load.val();
        self.cmp_limit.load_value.next = self.csr.credit_limit_value.val();
        self.cmp_enter.x.next = self.csr.th_enter.val();
        self.cmp_enter.load.next = self.csr.th_enter_load.val();
        self.cmp_enter.load_value.next = self.csr.th_enter_value.val();
        self.cmp_escape.x.next = self.csr.th_escape.val();
        self.cmp_escape.load.next = self.csr.th_escape_load.val();
        self.cmp_escape.load_value.next = self.csr.th_escape_value.val();
        self.cmp_limit.c.next = self.credit.c.val();
        self.cmp_enter.c.next = self.credit.c.val();
        self.cmp_escape.c.next = self.credit.c.val();
        self.cmp_limit.send.next = self.send.val();
        self.cmp_enter.send.next = self.send.val();
        self.cmp_escape.send.next = self.send.val();
        self.cmp_limit.ret.next = self.credit_return.val();
        self.cmp_limit.clamp.next = self.credit.clamp.val();
        self.cmp_enter.clamp.next = self.credit.clamp.val();
        self.cmp_escape.clamp.next = self.credit.clamp.val();
        self.cmp_enter.ret.next = self.credit_return.val();
        self.cmp_escape.ret.next = self.credit_return.val();
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
fn pft_injector_pipelined_synthesizes() {
    let mut uut = PftInjectorPipelined::default();
    uut.connect_all();
    yosys_validate("pft_injector_pipelined", &generate_verilog(&uut)).unwrap();
}
