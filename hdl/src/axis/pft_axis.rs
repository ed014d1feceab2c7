//! `PftAxis`: PFT as a drop-in IP for a NIC datapath, an AXI-Stream pass-through gated by
//! the unchanged `PftInjector`, with its registers behind an AXI4-Lite slave.

use super::{axil_data::AxilData, axil_slave::AxilSlave, stream_gate::StreamGate};
use crate::pft::pft_injector::PftInjector;
use crate::regs::{addr, CTRL_GATING};
use rust_hdl::prelude::*;

/// The top of `pft_axis`: D-bit `tdata`, K = D/8 `tkeep` bits, U-bit `tuser`. Every port is
/// a flat field, so the Verilog's port names are the fields' names.
///
/// ```text
///                  +--------------------------------------------------+
///  s_axis_* ------>| StreamGate (output register) ------------------->|---> m_axis_*
///  s_axis_tready <-|   flit_valid, flit_head |  ^ send                |<--- m_axis_tready
///  pause --------->|                         v  |                     |
///  credit_return ->| PftInjector (unchanged): credits, detector, gates|---> congested,
///                  |   csr_we/addr/wdata ^ | csr_rdata                |     throttled,
///  s_axil_* <----->| AxilSlave (header + byte map, strobes)           |     used_credits
///  clk, rst ------>|                                                  |
///                  +--------------------------------------------------+
/// ```
///
/// A beat is a flit: it uses one credit in the cycle PFT sends it into the output register
/// (`s_axis_tready`), and it appears on `m_axis` the next cycle. The throttle decides only
/// for a packet's first beat: every write to CTRL sets CTRL.gating (packet gating), and
/// while CTRL was never written the block is disabled (CTRL.enable = 0), so no beat inside
/// a packet is ever held back by the throttle; only credits and `m_axis_tready` pace it.
#[derive(LogicBlock)]
pub struct PftAxis<const D: usize, const K: usize, const U: usize> {
    /// Clock; everything is synchronous to its rising edge.
    pub clk: Signal<In, Clock>,
    /// Synchronous reset, active high.
    pub rst: Signal<In, Bit>,
    pub s_axis_tdata: Signal<In, Bits<D>>,
    pub s_axis_tkeep: Signal<In, Bits<K>>,
    pub s_axis_tvalid: Signal<In, Bit>,
    pub s_axis_tready: Signal<Out, Bit>,
    pub s_axis_tlast: Signal<In, Bit>,
    pub s_axis_tuser: Signal<In, Bits<U>>,
    pub m_axis_tdata: Signal<Out, Bits<D>>,
    pub m_axis_tkeep: Signal<Out, Bits<K>>,
    pub m_axis_tvalid: Signal<Out, Bit>,
    pub m_axis_tready: Signal<In, Bit>,
    pub m_axis_tlast: Signal<Out, Bit>,
    pub m_axis_tuser: Signal<Out, Bits<U>>,
    pub s_axil_awaddr: Signal<In, Bits<8>>,
    pub s_axil_awprot: Signal<In, Bits<3>>,
    pub s_axil_awvalid: Signal<In, Bit>,
    pub s_axil_awready: Signal<Out, Bit>,
    pub s_axil_wdata: Signal<In, Bits<32>>,
    pub s_axil_wstrb: Signal<In, Bits<4>>,
    pub s_axil_wvalid: Signal<In, Bit>,
    pub s_axil_wready: Signal<Out, Bit>,
    pub s_axil_bresp: Signal<Out, Bits<2>>,
    pub s_axil_bvalid: Signal<Out, Bit>,
    pub s_axil_bready: Signal<In, Bit>,
    pub s_axil_araddr: Signal<In, Bits<8>>,
    pub s_axil_arprot: Signal<In, Bits<3>>,
    pub s_axil_arvalid: Signal<In, Bit>,
    pub s_axil_arready: Signal<Out, Bit>,
    pub s_axil_rdata: Signal<Out, Bits<32>>,
    pub s_axil_rresp: Signal<Out, Bits<2>>,
    pub s_axil_rvalid: Signal<Out, Bit>,
    pub s_axil_rready: Signal<In, Bit>,
    /// Credits the link returns this cycle.
    pub credit_return: Signal<In, Bits<8>>,
    /// While high no new packet starts (PFC/LLFC pause).
    pub pause: Signal<In, Bit>,
    /// As on `pft_injector`.
    pub congested: Signal<Out, Bit>,
    pub throttled: Signal<Out, Bit>,
    pub used_credits: Signal<Out, Bits<16>>,
    /// PFT's block, unchanged.
    pub pft: PftInjector,
    /// The stream side.
    pub gate: StreamGate<D, K, U>,
    /// The register side: control, and data.
    pub axil: AxilSlave,
    pub axil_data: AxilData,
    ctrl_gating: Constant<Bits<32>>,
    is_ctrl: Signal<Local, Bit>,
}

impl<const D: usize, const K: usize, const U: usize> PftAxis<D, K, U> {
    /// The block with the register-block header's next pointer `next_ptr`.
    pub fn new(next_ptr: u32) -> Self {
        assert!(
            (64..=512).contains(&D) && D.is_power_of_two(),
            "tdata is 64..512 bits, a power of two"
        );
        Self {
            clk: Default::default(),
            rst: Default::default(),
            s_axis_tdata: Default::default(),
            s_axis_tkeep: Default::default(),
            s_axis_tvalid: Default::default(),
            s_axis_tready: Default::default(),
            s_axis_tlast: Default::default(),
            s_axis_tuser: Default::default(),
            m_axis_tdata: Default::default(),
            m_axis_tkeep: Default::default(),
            m_axis_tvalid: Default::default(),
            m_axis_tready: Default::default(),
            m_axis_tlast: Default::default(),
            m_axis_tuser: Default::default(),
            s_axil_awaddr: Default::default(),
            s_axil_awprot: Default::default(),
            s_axil_awvalid: Default::default(),
            s_axil_awready: Default::default(),
            s_axil_wdata: Default::default(),
            s_axil_wstrb: Default::default(),
            s_axil_wvalid: Default::default(),
            s_axil_wready: Default::default(),
            s_axil_bresp: Default::default(),
            s_axil_bvalid: Default::default(),
            s_axil_bready: Default::default(),
            s_axil_araddr: Default::default(),
            s_axil_arprot: Default::default(),
            s_axil_arvalid: Default::default(),
            s_axil_arready: Default::default(),
            s_axil_rdata: Default::default(),
            s_axil_rresp: Default::default(),
            s_axil_rvalid: Default::default(),
            s_axil_rready: Default::default(),
            credit_return: Default::default(),
            pause: Default::default(),
            congested: Default::default(),
            throttled: Default::default(),
            used_credits: Default::default(),
            pft: Default::default(),
            gate: Default::default(),
            axil: AxilSlave::new(),
            axil_data: AxilData::new(next_ptr),
            ctrl_gating: Constant::new((CTRL_GATING as u64).into()),
            is_ctrl: Default::default(),
        }
    }
}

impl<const D: usize, const K: usize, const U: usize> Default for PftAxis<D, K, U> {
    fn default() -> Self {
        Self::new(crate::regs::axil::RB_NEXT_PTR)
    }
}

// CTRL is word 0: the literal compare below.
const _: () = assert!(addr::CTRL == 0);

impl<const D: usize, const K: usize, const U: usize> Logic for PftAxis<D, K, U> {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clk, pft, gate, axil, axil_data);
        self.pft.reset.next = self.rst.val();
        self.gate.reset.next = self.rst.val();
        self.axil.reset.next = self.rst.val();

        // Stream: the gate offers the beat, PFT decides, the gate moves it.
        self.gate.s_tdata.next = self.s_axis_tdata.val();
        self.gate.s_tkeep.next = self.s_axis_tkeep.val();
        self.gate.s_tvalid.next = self.s_axis_tvalid.val();
        self.gate.s_tlast.next = self.s_axis_tlast.val();
        self.gate.s_tuser.next = self.s_axis_tuser.val();
        self.gate.m_tready.next = self.m_axis_tready.val();
        self.gate.pause.next = self.pause.val();
        self.pft.flit_valid.next = self.gate.flit_valid.val();
        self.pft.flit_head.next = self.gate.flit_head.val();
        self.pft.credit_return.next = self.credit_return.val();
        self.gate.send.next = self.pft.send.val();
        self.s_axis_tready.next = self.pft.send.val();
        self.m_axis_tdata.next = self.gate.m_tdata.val();
        self.m_axis_tkeep.next = self.gate.m_tkeep.val();
        self.m_axis_tvalid.next = self.gate.m_tvalid.val();
        self.m_axis_tlast.next = self.gate.m_tlast.val();
        self.m_axis_tuser.next = self.gate.m_tuser.val();

        // Registers: every CTRL write also sets CTRL.gating.
        self.axil.awaddr.next = self.s_axil_awaddr.val();
        self.axil.awvalid.next = self.s_axil_awvalid.val();
        self.axil.wdata.next = self.s_axil_wdata.val();
        self.axil.wstrb.next = self.s_axil_wstrb.val();
        self.axil.wvalid.next = self.s_axil_wvalid.val();
        self.axil.bready.next = self.s_axil_bready.val();
        self.axil.araddr.next = self.s_axil_araddr.val();
        self.axil.arvalid.next = self.s_axil_arvalid.val();
        self.axil.rready.next = self.s_axil_rready.val();
        self.axil_data.wdata.next = self.s_axil_wdata.val();
        self.axil_data.wmask.next = self.axil.wmask.val();
        self.axil_data.keep_old.next = self.axil.keep_old.val();
        self.axil_data.read_go.next = self.axil.read_go.val();
        self.axil_data.rsel.next = self.axil.rsel.val();
        self.axil_data.csr_rdata.next = self.pft.csr_rdata.val();
        self.pft.csr_we.next = self.axil.csr_we.val();
        self.pft.csr_addr.next = self.axil.csr_addr.val();
        self.is_ctrl.next = self.axil.csr_addr.val() == 0;
        self.pft.csr_wdata.next = self.axil_data.csr_wdata.val();
        if self.is_ctrl.val() {
            self.pft.csr_wdata.next = self.axil_data.csr_wdata.val() | self.ctrl_gating.val();
        }
        self.s_axil_awready.next = self.axil.awready.val();
        self.s_axil_wready.next = self.axil.wready.val();
        self.s_axil_bresp.next = self.axil.bresp.val();
        self.s_axil_bvalid.next = self.axil.bvalid.val();
        self.s_axil_arready.next = self.axil.arready.val();
        self.s_axil_rdata.next = self.axil_data.rdata.val();
        self.s_axil_rresp.next = self.axil.rresp.val();
        self.s_axil_rvalid.next = self.axil.rvalid.val();

        self.congested.next = self.pft.congested.val();
        self.throttled.next = self.pft.throttled.val();
        self.used_credits.next = self.pft.used_credits.val();
    }
}

#[test]
fn pft_axis_synthesizes() {
    let mut uut = PftAxis::<64, 8, 1>::default();
    uut.connect_all();
    yosys_validate("pft_axis", &generate_verilog(&uut)).unwrap();
}
