//! The three 32-bit event counters read through the CSR port.

use rust_hdl::prelude::*;

/// Counts cycles Congested, flits sent and cycles a ready flit was held back by throttling.
/// Each wraps at 2^32; a CSR write to a counter clears it (and wins over that cycle's count).
#[derive(LogicBlock, Default)]
pub struct PerfCounters {
    /// Block clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: all counters to 0.
    pub reset: Signal<In, Bit>,
    /// The block is Congested this cycle.
    pub congested: Signal<In, Bit>,
    /// A flit leaves this cycle.
    pub sent: Signal<In, Bit>,
    /// A ready flit with a credit is held back this cycle.
    pub throttled: Signal<In, Bit>,
    /// Clear CNT_CONGESTED.
    pub clear_congested: Signal<In, Bit>,
    /// Clear CNT_SENT.
    pub clear_sent: Signal<In, Bit>,
    /// Clear CNT_THROTTLED.
    pub clear_throttled: Signal<In, Bit>,
    /// CNT_CONGESTED.
    pub cnt_congested: Signal<Out, Bits<32>>,
    /// CNT_SENT.
    pub cnt_sent: Signal<Out, Bits<32>>,
    /// CNT_THROTTLED.
    pub cnt_throttled: Signal<Out, Bits<32>>,
    congested_count: DFF<Bits<32>>,
    sent_count: DFF<Bits<32>>,
    throttled_count: DFF<Bits<32>>,
}

impl Logic for PerfCounters {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, congested_count, sent_count, throttled_count);
        if self.congested.val() {
            self.congested_count.d.next = self.congested_count.q.val() + 1;
        }
        if self.sent.val() {
            self.sent_count.d.next = self.sent_count.q.val() + 1;
        }
        if self.throttled.val() {
            self.throttled_count.d.next = self.throttled_count.q.val() + 1;
        }
        if self.clear_congested.val() | self.reset.val() {
            self.congested_count.d.next = 0.into();
        }
        if self.clear_sent.val() | self.reset.val() {
            self.sent_count.d.next = 0.into();
        }
        if self.clear_throttled.val() | self.reset.val() {
            self.throttled_count.d.next = 0.into();
        }
        self.cnt_congested.next = self.congested_count.q.val();
        self.cnt_sent.next = self.sent_count.q.val();
        self.cnt_throttled.next = self.throttled_count.q.val();
    }
}

#[test]
fn perf_counters_synthesize() {
    let mut uut = PerfCounters::default();
    uut.connect_all();
    yosys_validate("perf_counters", &generate_verilog(&uut)).unwrap();
}
