//! The reference model of `pft_axis`: PFT's model (`pft::model::PftModel`) plus a plain-Rust
//! model of the wrapper (the stream's output register, the packet tracker, the AXI4-Lite
//! slave), stepped one cycle at a time.

use crate::pft::model::{Inputs as PftInputs, PftModel};
use crate::regs::{addr, axil, CTRL_GATING};

/// `tdata` of up to 512 bits as 64-bit words, word 0 the lowest.
pub type Data = [u64; 8];

/// One cycle's inputs (`clk` excluded).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Inputs {
    pub rst: bool,
    pub s_tdata: Data,
    pub s_tkeep: u64,
    pub s_tvalid: bool,
    pub s_tlast: bool,
    pub s_tuser: u64,
    pub m_tready: bool,
    pub awaddr: u8,
    pub awprot: u8,
    pub awvalid: bool,
    pub wdata: u32,
    pub wstrb: u8,
    pub wvalid: bool,
    pub bready: bool,
    pub araddr: u8,
    pub arprot: u8,
    pub arvalid: bool,
    pub rready: bool,
    pub credit_return: u8,
    pub pause: bool,
}

/// One cycle's outputs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Outputs {
    pub s_tready: bool,
    pub m_tdata: Data,
    pub m_tkeep: u64,
    pub m_tvalid: bool,
    pub m_tlast: bool,
    pub m_tuser: u64,
    pub awready: bool,
    pub wready: bool,
    pub bresp: u8,
    pub bvalid: bool,
    pub arready: bool,
    pub rdata: u32,
    pub rresp: u8,
    pub rvalid: bool,
    pub congested: bool,
    pub throttled: bool,
    pub used_credits: u16,
}

/// AXI response codes.
pub const OKAY: u8 = 0;
pub const SLVERR: u8 = 2;

/// The wrapper's state and PFT's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AxisModel {
    pub pft: PftModel,
    /// The output register.
    pub valid: bool,
    pub data: Data,
    pub keep: u64,
    pub last: bool,
    pub user: u64,
    /// A packet has started at the input and its last beat has not been sent.
    pub in_packet: bool,
    pub bvalid: bool,
    pub bresp: u8,
    pub rvalid: bool,
    pub rresp: u8,
    pub rdata: u32,
    pub prefer_read: bool,
    /// A write (a read) was granted last cycle: its ready is high in this one.
    pub aw_grant: bool,
    pub ar_grant: bool,
    /// The header's next-block pointer.
    pub next_ptr: u32,
}

/// What a byte address is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// A header word (its value).
    Header(u32),
    /// PFT's register at this word address.
    Pft(u8),
    /// Inside the block, no register.
    Reserved,
    /// Outside the block.
    Outside,
}

impl AxisModel {
    /// Power-up (all flip-flops 0), with the export's next pointer.
    pub fn new() -> Self {
        Self::with_next_ptr(axil::RB_NEXT_PTR)
    }

    pub fn with_next_ptr(next_ptr: u32) -> Self {
        Self {
            next_ptr,
            ..Default::default()
        }
    }

    /// The decode of byte address `a`.
    pub fn target(&self, a: u8) -> Target {
        let a = a as u32 & !3;
        if a >= axil::SPAN {
            Target::Outside
        } else if a >= axil::PFT_BASE {
            Target::Pft(((a - axil::PFT_BASE) / 4) as u8)
        } else if a == axil::RB_TYPE_OFFSET {
            Target::Header(axil::RB_TYPE)
        } else if a == axil::RB_VERSION_OFFSET {
            Target::Header(axil::RB_VERSION)
        } else if a == axil::RB_NEXT_PTR_OFFSET {
            Target::Header(self.next_ptr)
        } else {
            Target::Reserved
        }
    }

    /// One clock cycle.
    pub fn step(&mut self, i: &Inputs) -> Outputs {
        // ---- the AXI4-Lite side: last cycle's grant is this cycle's handshake ----
        let write_go = self.aw_grant && i.awvalid && i.wvalid && !i.rst;
        let read_go = self.ar_grant && i.arvalid && !i.rst;
        // who is granted the CSR port for the next cycle
        let idle = !self.aw_grant && !self.ar_grant;
        let w_want = i.awvalid && i.wvalid && !self.bvalid && idle;
        let r_want = i.arvalid && !self.rvalid && idle;
        let aw_grant = w_want && (!r_want || !self.prefer_read);
        let ar_grant = r_want && !aw_grant;
        let (aw, ar) = (self.target(i.awaddr), self.target(i.araddr));
        let csr_addr = if read_go {
            (i.araddr >> 2) & 0xF
        } else {
            (i.awaddr >> 2) & 0xF
        };
        let mut csr_we = false;
        let mut csr_wdata = 0;
        if let (true, Target::Pft(a)) = (write_go, aw) {
            let mask = (0..4)
                .filter(|b| i.wstrb >> b & 1 == 1)
                .fold(0u32, |m, b| m | 0xFF << (8 * b));
            let old = if a <= addr::SEED { self.pft.read(a) } else { 0 };
            csr_wdata = (i.wdata & mask) | (old & !mask);
            if a == addr::CTRL {
                csr_wdata |= CTRL_GATING;
            }
            csr_we = i.wstrb & 0xF != 0;
        }
        let rdata_now = self.pft.read(csr_addr);

        // ---- the stream side ----
        let room = !self.valid || i.m_tready;
        let flit_head = !self.in_packet;
        let flit_valid = i.s_tvalid && room && !(i.pause && flit_head);
        let p = self.pft.step(&PftInputs {
            reset: i.rst,
            flit_valid,
            flit_head,
            credit_return: i.credit_return,
            csr_we,
            csr_addr,
            csr_wdata,
        });
        let out = Outputs {
            s_tready: p.send,
            m_tdata: self.data,
            m_tkeep: self.keep,
            m_tvalid: self.valid && !i.rst,
            m_tlast: self.last,
            m_tuser: self.user,
            awready: self.aw_grant && !i.rst,
            wready: self.aw_grant && !i.rst,
            bresp: self.bresp,
            bvalid: self.bvalid && !i.rst,
            arready: self.ar_grant && !i.rst,
            rdata: self.rdata,
            rresp: self.rresp,
            rvalid: self.rvalid && !i.rst,
            congested: p.congested,
            throttled: p.throttled,
            used_credits: p.used_credits,
        };

        // ---- the rising edge ----
        if i.m_tready {
            self.valid = false;
        }
        if p.send {
            self.valid = true;
            self.data = i.s_tdata;
            self.keep = i.s_tkeep;
            self.last = i.s_tlast;
            self.user = i.s_tuser;
            self.in_packet = !i.s_tlast;
        }
        if i.bready {
            self.bvalid = false;
        }
        if write_go {
            self.bvalid = true;
            self.bresp = if aw == Target::Outside { SLVERR } else { OKAY };
        }
        if i.rready {
            self.rvalid = false;
        }
        if read_go {
            self.rvalid = true;
            (self.rresp, self.rdata) = match ar {
                Target::Outside => (SLVERR, 0),
                Target::Pft(_) => (OKAY, rdata_now),
                Target::Header(v) => (OKAY, v),
                Target::Reserved => (OKAY, 0),
            };
        }
        if write_go {
            self.prefer_read = true;
        } else if read_go {
            self.prefer_read = false;
        }
        (self.aw_grant, self.ar_grant) = (aw_grant, ar_grant);
        if i.rst {
            self.aw_grant = false;
            self.ar_grant = false;
            self.valid = false;
            self.in_packet = false;
            self.bvalid = false;
            self.rvalid = false;
            self.prefer_read = false;
        }
        out
    }
}
