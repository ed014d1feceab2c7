//! `AxilSlave`: the AXI4-Lite slave of `pft_axis`, a register-block header in Corundum's
//! layout in front of PFT's word-addressed CSR port (its control; the data is `AxilData`).

use crate::regs::{addr, axil};
use rust_hdl::prelude::*;

/// AXI4-Lite slave, 32-bit data, 8-bit byte addresses (`regs::axil`). Every output is a
/// register (AXI: no combinational path from an input to an output; `reset` aside): a
/// request is granted in the cycle after it is seen, by raising its ready for one cycle,
/// and reaches the CSR port in that cycle. A write is granted when AW and W are both
/// valid and no write response waits, a read when AR is valid and no read response waits,
/// neither while a grant is out; when both want the port, they take turns
/// (`prefer_read`). So at most one request every two cycles. Each accepted request gives
/// exactly one response, from the cycle after it, held until its ready.
///
/// ```text
///  byte 0x00 RB_TYPE, 0x04 RB_VERSION, 0x08 RB_NEXT_PTR   read-only, writes ignored, OKAY
///       0x0C-0x3C reserved                                 read 0, writes ignored, OKAY
///       0x40 + 4*a  PFT register at word address a         OKAY
///       0x80-0xFF   outside the block                      SLVERR, read 0, writes ignored
/// ```
///
/// The data (the strobe merge, the read data register) is in `AxilData`, so that no
/// block both drives the CSR address and reads the CSR read data (Verilator would see a
/// combinational loop through one `always` block: `UNOPTFLAT`).
///
/// Byte strobes: a byte whose `wstrb` bit is low keeps its value in an RW register (the
/// write merges the register's read-back) and is written as 0 in the others (STATUS's
/// write-1-to-clear bits, the counters), so it clears nothing; a write with no strobe bit
/// set reaches no register. `addr[1:0]` and `*prot` are ignored.
#[derive(LogicBlock)]
pub struct AxilSlave {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: drops waiting responses and grants, accepts nothing in that cycle
    /// (the readys are low in it).
    pub reset: Signal<In, Bit>,
    pub awaddr: Signal<In, Bits<8>>,
    pub awvalid: Signal<In, Bit>,
    pub awready: Signal<Out, Bit>,
    pub wdata: Signal<In, Bits<32>>,
    pub wstrb: Signal<In, Bits<4>>,
    pub wvalid: Signal<In, Bit>,
    pub wready: Signal<Out, Bit>,
    pub bresp: Signal<Out, Bits<2>>,
    pub bvalid: Signal<Out, Bit>,
    pub bready: Signal<In, Bit>,
    pub araddr: Signal<In, Bits<8>>,
    pub arvalid: Signal<In, Bit>,
    pub arready: Signal<Out, Bit>,
    pub rresp: Signal<Out, Bits<2>>,
    pub rvalid: Signal<Out, Bit>,
    pub rready: Signal<In, Bit>,
    /// PFT's CSR port: write enable and word address.
    pub csr_we: Signal<Out, Bit>,
    pub csr_addr: Signal<Out, Bits<4>>,
    /// For `AxilData`: the strobed bytes of a write, whether the unstrobed bytes keep the
    /// register's value (an RW register), a read in this cycle and what it reads.
    pub wmask: Signal<Out, Bits<32>>,
    pub keep_old: Signal<Out, Bit>,
    pub read_go: Signal<Out, Bit>,
    pub rsel: Signal<Out, Bits<3>>,
    aw_grant: DFF<Bit>,
    ar_grant: DFF<Bit>,
    b_valid: DFF<Bit>,
    b_resp: DFF<Bits<2>>,
    r_valid: DFF<Bit>,
    r_resp: DFF<Bits<2>>,
    prefer_read: DFF<Bit>,
    byte3: Constant<Bits<32>>,
    w_want: Signal<Local, Bit>,
    r_want: Signal<Local, Bit>,
    write_go: Signal<Local, Bit>,
    go_read: Signal<Local, Bit>,
    aw_word: Signal<Local, Bits<4>>,
    ar_word: Signal<Local, Bits<4>>,
    ar_low: Signal<Local, Bits<6>>,
    mask0: Signal<Local, Bits<32>>,
    mask1: Signal<Local, Bits<32>>,
    mask2: Signal<Local, Bits<32>>,
    mask3: Signal<Local, Bits<32>>,
}

impl AxilSlave {
    pub fn new() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            awaddr: Default::default(),
            awvalid: Default::default(),
            awready: Default::default(),
            wdata: Default::default(),
            wstrb: Default::default(),
            wvalid: Default::default(),
            wready: Default::default(),
            bresp: Default::default(),
            bvalid: Default::default(),
            bready: Default::default(),
            araddr: Default::default(),
            arvalid: Default::default(),
            arready: Default::default(),
            rresp: Default::default(),
            rvalid: Default::default(),
            rready: Default::default(),
            csr_we: Default::default(),
            csr_addr: Default::default(),
            wmask: Default::default(),
            keep_old: Default::default(),
            read_go: Default::default(),
            rsel: Default::default(),
            aw_grant: Default::default(),
            ar_grant: Default::default(),
            b_valid: Default::default(),
            b_resp: Default::default(),
            r_valid: Default::default(),
            r_resp: Default::default(),
            prefer_read: Default::default(),
            byte3: Constant::new(0xFF00_0000u64.into()),
            w_want: Default::default(),
            r_want: Default::default(),
            write_go: Default::default(),
            go_read: Default::default(),
            aw_word: Default::default(),
            ar_word: Default::default(),
            ar_low: Default::default(),
            mask0: Default::default(),
            mask1: Default::default(),
            mask2: Default::default(),
            mask3: Default::default(),
        }
    }
}

impl Default for AxilSlave {
    fn default() -> Self {
        Self::new()
    }
}

// The decode below keeps literal offsets (rust-hdl needs them); tie them to the map.
const _: () = assert!(axil::ADDR_BITS == 8 && axil::PFT_BASE == 0x40 && axil::SPAN == 0x80);
const _: () = assert!(
    axil::RB_TYPE_OFFSET == 0 && axil::RB_VERSION_OFFSET == 4 && axil::RB_NEXT_PTR_OFFSET == 8
);
// Word addresses below SEED's + 1 are the RW registers (the strobe merge keeps their bytes).
const _: () = assert!(addr::SEED == 0xA && addr::STATUS == 0xB);

impl Logic for AxilSlave {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            aw_grant,
            ar_grant,
            b_valid,
            b_resp,
            r_valid,
            r_resp,
            prefer_read
        );
        // The handshakes of this cycle: a grant made last cycle meets its valids (AXI: a
        // valid stays up until its handshake).
        self.write_go.next =
            self.aw_grant.q.val() & self.awvalid.val() & self.wvalid.val() & !self.reset.val();
        self.go_read.next = self.ar_grant.q.val() & self.arvalid.val() & !self.reset.val();
        self.read_go.next = self.go_read.val();
        self.awready.next = self.aw_grant.q.val() & !self.reset.val();
        self.wready.next = self.aw_grant.q.val() & !self.reset.val();
        self.arready.next = self.ar_grant.q.val() & !self.reset.val();
        // The grants for the next cycle, from this cycle's requests.
        self.w_want.next = self.awvalid.val()
            & self.wvalid.val()
            & !self.b_valid.q.val()
            & !self.aw_grant.q.val()
            & !self.ar_grant.q.val();
        self.r_want.next = self.arvalid.val()
            & !self.r_valid.q.val()
            & !self.aw_grant.q.val()
            & !self.ar_grant.q.val();
        self.aw_grant.d.next = self.w_want.val() & (!self.r_want.val() | !self.prefer_read.q.val());
        self.ar_grant.d.next = self.r_want.val()
            & !(self.w_want.val() & (!self.r_want.val() | !self.prefer_read.q.val()));
        self.aw_word.next = self.awaddr.val().get_bits::<4>(2);
        self.ar_word.next = self.araddr.val().get_bits::<4>(2);
        self.ar_low.next = self.araddr.val().get_bits::<6>(2);

        // The CSR port: the read's word in a read's cycle, else the write's.
        self.csr_addr.next = self.aw_word.val();
        if self.go_read.val() {
            self.csr_addr.next = self.ar_word.val();
        }
        self.mask0.next = 0.into();
        self.mask1.next = 0.into();
        self.mask2.next = 0.into();
        self.mask3.next = 0.into();
        if self.wstrb.val().get_bit(0) {
            self.mask0.next = 0x0000_00FF.into();
        }
        if self.wstrb.val().get_bit(1) {
            self.mask1.next = 0x0000_FF00.into();
        }
        if self.wstrb.val().get_bit(2) {
            self.mask2.next = 0x00FF_0000.into();
        }
        if self.wstrb.val().get_bit(3) {
            self.mask3.next = self.byte3.val();
        }
        self.wmask.next = self.mask0.val() | self.mask1.val() | self.mask2.val() | self.mask3.val();
        // RW registers (word addresses 0x0-0xA) keep their unstrobed bytes.
        self.keep_old.next = self.aw_word.val() < 0xB;
        self.csr_we.next = self.write_go.val()
            & !self.awaddr.val().get_bit(7)
            & self.awaddr.val().get_bit(6)
            & self.wstrb.val().any();

        // Write response: OKAY, or SLVERR outside the block.
        if self.bready.val() {
            self.b_valid.d.next = false;
        }
        if self.write_go.val() {
            self.b_valid.d.next = true;
            self.b_resp.d.next = 0.into();
            if self.awaddr.val().get_bit(7) {
                self.b_resp.d.next = 2.into();
            }
        }
        // Read response: the header, a PFT register, 0 (reserved), or SLVERR and 0.
        if self.rready.val() {
            self.r_valid.d.next = false;
        }
        // What a read returns (AxilData): 0, PFT's register, or a header word.
        self.rsel.next = 0.into();
        if self.araddr.val().get_bit(7) {
            self.rsel.next = 0.into();
        } else if self.araddr.val().get_bit(6) {
            self.rsel.next = 1.into();
        } else if self.ar_low.val() == 0 {
            self.rsel.next = 2.into();
        } else if self.ar_low.val() == 1 {
            self.rsel.next = 3.into();
        } else if self.ar_low.val() == 2 {
            self.rsel.next = 4.into();
        }
        if self.go_read.val() {
            self.r_valid.d.next = true;
            self.r_resp.d.next = 0.into();
            if self.araddr.val().get_bit(7) {
                self.r_resp.d.next = 2.into();
            }
        }
        if self.write_go.val() {
            self.prefer_read.d.next = true;
        } else if self.go_read.val() {
            self.prefer_read.d.next = false;
        }
        // (AXI4-Lite: BVALID and RVALID low during reset, a waiting response included)
        self.bvalid.next = self.b_valid.q.val() & !self.reset.val();
        self.bresp.next = self.b_resp.q.val();
        self.rvalid.next = self.r_valid.q.val() & !self.reset.val();
        self.rresp.next = self.r_resp.q.val();
        if self.reset.val() {
            self.aw_grant.d.next = false;
            self.ar_grant.d.next = false;
            self.b_valid.d.next = false;
            self.r_valid.d.next = false;
            self.prefer_read.d.next = false;
        }
    }
}

#[test]
fn axil_slave_synthesizes() {
    let mut uut = AxilSlave::default();
    uut.connect_all();
    yosys_validate("axis_axil_slave", &generate_verilog(&uut)).unwrap();
}
