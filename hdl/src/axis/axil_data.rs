//! `AxilData`: the data half of `pft_axis`'s AXI4-Lite slave: the byte-strobe merge of a
//! write and the read data register.

use crate::regs::axil;
use rust_hdl::prelude::*;

/// `csr_wdata = (wdata & wmask) | (keep_old ? csr_rdata & !wmask : 0)`: an RW register keeps
/// its unstrobed bytes (the CSR port reads the write's word in a write's cycle). A read
/// (`read_go`) loads `rdata` with what `rsel` picks: 0 (reserved, outside), 1 PFT's
/// register (`csr_rdata`), 2 RB_TYPE, 3 RB_VERSION, 4 RB_NEXT_PTR (`AxilSlave` decodes).
#[derive(LogicBlock)]
pub struct AxilData {
    /// Clock.
    pub clock: Signal<In, Clock>,
    pub wdata: Signal<In, Bits<32>>,
    pub wmask: Signal<In, Bits<32>>,
    pub keep_old: Signal<In, Bit>,
    pub read_go: Signal<In, Bit>,
    pub rsel: Signal<In, Bits<3>>,
    /// PFT's CSR read data at the port's address.
    pub csr_rdata: Signal<In, Bits<32>>,
    /// PFT's CSR write data.
    pub csr_wdata: Signal<Out, Bits<32>>,
    /// The read data register (`s_axil_rdata`).
    pub rdata: Signal<Out, Bits<32>>,
    r_data: DFF<Bits<32>>,
    rb_type: Constant<Bits<32>>,
    rb_version: Constant<Bits<32>>,
    rb_next_ptr: Constant<Bits<32>>,
    old: Signal<Local, Bits<32>>,
}

impl AxilData {
    /// With the register-block header's next-block pointer `next_ptr`.
    pub fn new(next_ptr: u32) -> Self {
        Self {
            clock: Default::default(),
            wdata: Default::default(),
            wmask: Default::default(),
            keep_old: Default::default(),
            read_go: Default::default(),
            rsel: Default::default(),
            csr_rdata: Default::default(),
            csr_wdata: Default::default(),
            rdata: Default::default(),
            r_data: Default::default(),
            rb_type: Constant::new((axil::RB_TYPE as u64).into()),
            rb_version: Constant::new((axil::RB_VERSION as u64).into()),
            rb_next_ptr: Constant::new((next_ptr as u64).into()),
            old: Default::default(),
        }
    }
}

impl Default for AxilData {
    fn default() -> Self {
        Self::new(axil::RB_NEXT_PTR)
    }
}

impl Logic for AxilData {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, r_data);
        self.old.next = 0.into();
        if self.keep_old.val() {
            self.old.next = self.csr_rdata.val();
        }
        self.csr_wdata.next =
            (self.wdata.val() & self.wmask.val()) | (self.old.val() & !self.wmask.val());
        if self.read_go.val() {
            self.r_data.d.next = 0.into();
            if self.rsel.val() == 1 {
                self.r_data.d.next = self.csr_rdata.val();
            }
            if self.rsel.val() == 2 {
                self.r_data.d.next = self.rb_type.val();
            }
            if self.rsel.val() == 3 {
                self.r_data.d.next = self.rb_version.val();
            }
            if self.rsel.val() == 4 {
                self.r_data.d.next = self.rb_next_ptr.val();
            }
        }
        self.rdata.next = self.r_data.q.val();
    }
}

#[test]
fn axil_data_synthesizes() {
    let mut uut = AxilData::default();
    uut.connect_all();
    yosys_validate("axis_axil_data", &generate_verilog(&uut)).unwrap();
}
