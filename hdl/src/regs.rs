//! Register map of the PFT block (spec §4, extended): word addresses, field layout, reset
//! values. The RTL, the reference model, the trace tool and `docs/registers.md` all read it.

/// Width of the CSR word address.
pub const ADDR_BITS: usize = 4;

/// Word addresses.
pub mod addr {
    pub const CTRL: u8 = 0x0;
    pub const CREDIT_LIMIT: u8 = 0x1;
    pub const TH_ENTER: u8 = 0x2;
    pub const TH_ESCAPE: u8 = 0x3;
    pub const AT_WIN_E: u8 = 0x4;
    pub const AT_CNT_E: u8 = 0x5;
    pub const AT_WIN_S: u8 = 0x6;
    pub const AT_CNT_S: u8 = 0x7;
    pub const SHAPE: u8 = 0x8;
    pub const K: u8 = 0x9;
    pub const SEED: u8 = 0xA;
    pub const STATUS: u8 = 0xB;
    pub const CNT_CONGESTED: u8 = 0xC;
    pub const CNT_SENT: u8 = 0xD;
    pub const CNT_THROTTLED: u8 = 0xE;
    pub const AT_STATUS: u8 = 0xF;
}

/// CTRL fields.
pub const CTRL_ENABLE: u32 = 1 << 0;
/// CTRL.det_mode: 0 = FT (fixed threshold), 1 = AT (average threshold).
pub const CTRL_DET_AT: u32 = 1 << 1;
/// CTRL.thr_mode: 0 = FI (fixed interval), 1 = RI (random interval).
pub const CTRL_THR_RI: u32 = 1 << 2;
pub const CTRL_MASK: u32 = 0x7;

/// The CTRL word for a mode.
pub const fn ctrl_word(enable: bool, det_at: bool, thr_ri: bool) -> u32 {
    (if enable { CTRL_ENABLE } else { 0 })
        | (if det_at { CTRL_DET_AT } else { 0 })
        | (if thr_ri { CTRL_THR_RI } else { 0 })
}

/// The SHAPE word for (m, n).
pub const fn shape_word(m: u8, n: u8) -> u32 {
    (m as u32) << SHAPE_M_SHIFT | (n as u32) << SHAPE_N_SHIFT
}

/// STATUS fields (read-only except the write-1-to-clear error bits).
pub const STATUS_CONGESTED: u32 = 1 << 0;
pub const STATUS_ERR_UNDERFLOW: u32 = 1 << 1;
pub const STATUS_ERR_OVERFLOW: u32 = 1 << 2;
pub const STATUS_C_SHIFT: u32 = 16;

/// SHAPE fields: m in [4:0], n in [12:8].
pub const SHAPE_M_SHIFT: u32 = 0;
pub const SHAPE_N_SHIFT: u32 = 8;
pub const SHAPE_MASK: u32 = 0x1F1F;

/// Reset values.
pub const RESET_CTRL: u32 = 0;
pub const RESET_CREDIT_LIMIT: u16 = 1024;
pub const RESET_TH_ENTER: u16 = 0x250;
pub const RESET_TH_ESCAPE: u16 = 0x2a0;
/// The paper gives no AT windows; 64-cycle windows with a 3/4 fraction are our choice
/// (docs/behaviour.md explains why).
pub const RESET_AT_WIN_E: u16 = 64;
pub const RESET_AT_CNT_E: u16 = 48;
pub const RESET_AT_WIN_S: u16 = 64;
pub const RESET_AT_CNT_S: u16 = 48;
pub const RESET_M: u8 = 18;
pub const RESET_N: u8 = 0;
pub const RESET_K: u16 = 0;
/// Non-zero; also what a write of 0 to SEED loads (a zero seed would lock the generator).
pub const RESET_SEED: u32 = 0x9E37_79B9;
/// The FI gap counter resets saturated: no flit has been sent "for ever".
pub const RESET_GAP: u16 = 0xFFFF;

/// Software access of a register.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// Read/write.
    Rw,
    /// Read-only; a write clears it (counters) or clears the written-1 bits (STATUS errors).
    RoClear,
    /// Read-only; writes are ignored.
    Ro,
}

/// One row of the register map.
#[derive(Clone, Copy, Debug)]
pub struct RegInfo {
    pub name: &'static str,
    pub addr: u8,
    pub access: Access,
    /// Bits that exist (the rest read as 0 and ignore writes).
    pub mask: u32,
    pub reset: u32,
    pub doc: &'static str,
}

/// The whole map, in address order.
pub const REGS: [RegInfo; 16] = [
    RegInfo { name: "CTRL", addr: addr::CTRL, access: Access::Rw, mask: CTRL_MASK, reset: RESET_CTRL,
        doc: "enable[0], det_mode[1] (0 FT, 1 AT), thr_mode[2] (0 FI, 1 RI). A write restarts the AT window." },
    RegInfo { name: "CREDIT_LIMIT", addr: addr::CREDIT_LIMIT, access: Access::Rw, mask: 0xFFFF, reset: RESET_CREDIT_LIMIT as u32,
        doc: "Credits of the link (receiver buffer, flits). A flit may leave only while c < CREDIT_LIMIT." },
    RegInfo { name: "TH_ENTER", addr: addr::TH_ENTER, access: Access::Rw, mask: 0xFFFF, reset: RESET_TH_ENTER as u32,
        doc: "threshold_enter: Normal counts/enters when c > TH_ENTER. A write restarts the AT window." },
    RegInfo { name: "TH_ESCAPE", addr: addr::TH_ESCAPE, access: Access::Rw, mask: 0xFFFF, reset: RESET_TH_ESCAPE as u32,
        doc: "threshold_escape: Congested counts/leaves when c < TH_ESCAPE. A write restarts the AT window." },
    RegInfo { name: "AT_WIN_E", addr: addr::AT_WIN_E, access: Access::Rw, mask: 0xFFFF, reset: RESET_AT_WIN_E as u32,
        doc: "AT window in Normal (T_e, cycles). A write restarts the AT window." },
    RegInfo { name: "AT_CNT_E", addr: addr::AT_CNT_E, access: Access::Rw, mask: 0xFFFF, reset: RESET_AT_CNT_E as u32,
        doc: "AT hits needed in Normal to enter Congested (T_e'). A write restarts the AT window." },
    RegInfo { name: "AT_WIN_S", addr: addr::AT_WIN_S, access: Access::Rw, mask: 0xFFFF, reset: RESET_AT_WIN_S as u32,
        doc: "AT window in Congested (T_s, cycles). A write restarts the AT window." },
    RegInfo { name: "AT_CNT_S", addr: addr::AT_CNT_S, access: Access::Rw, mask: 0xFFFF, reset: RESET_AT_CNT_S as u32,
        doc: "AT hits needed in Congested to escape (T_s'). A write restarts the AT window." },
    RegInfo { name: "SHAPE", addr: addr::SHAPE, access: Access::Rw, mask: SHAPE_MASK, reset: (RESET_M as u32) | ((RESET_N as u32) << SHAPE_N_SHIFT),
        doc: "m[4:0], n[12:8] of f(c) = ((c << m) >> n) + k." },
    RegInfo { name: "K", addr: addr::K, access: Access::Rw, mask: 0xFFFF, reset: RESET_K as u32,
        doc: "k of f(c)." },
    RegInfo { name: "SEED", addr: addr::SEED, access: Access::Rw, mask: 0xFFFF_FFFF, reset: RESET_SEED,
        doc: "RI generator seed. A write reloads the generator; a write of 0 loads the reset seed instead." },
    RegInfo { name: "STATUS", addr: addr::STATUS, access: Access::RoClear, mask: 0xFFFF_0007, reset: 0,
        doc: "congested[0], err_underflow[1] (sticky), err_overflow[2] (sticky), c[31:16]. Write 1 to bit 1/2 to clear it." },
    RegInfo { name: "CNT_CONGESTED", addr: addr::CNT_CONGESTED, access: Access::RoClear, mask: 0xFFFF_FFFF, reset: 0,
        doc: "Cycles spent Congested (wraps). Any write clears it." },
    RegInfo { name: "CNT_SENT", addr: addr::CNT_SENT, access: Access::RoClear, mask: 0xFFFF_FFFF, reset: 0,
        doc: "Flits sent (wraps). Any write clears it." },
    RegInfo { name: "CNT_THROTTLED", addr: addr::CNT_THROTTLED, access: Access::RoClear, mask: 0xFFFF_FFFF, reset: 0,
        doc: "Cycles a ready flit with a credit was held back by throttling (wraps). Any write clears it." },
    RegInfo { name: "AT_STATUS", addr: addr::AT_STATUS, access: Access::Ro, mask: 0xFFFF_FFFF, reset: 0,
        doc: "AT window counter win[15:0] and hit counter hit[31:16]." },
];

/// Look a register up by (case-insensitive) name.
pub fn by_name(name: &str) -> Option<&'static RegInfo> {
    REGS.iter().find(|r| r.name.eq_ignore_ascii_case(name))
}

/// True for the writes that restart the AT window (every detector register).
pub const fn restarts_window(a: u8) -> bool {
    matches!(
        a,
        addr::CTRL
            | addr::TH_ENTER
            | addr::TH_ESCAPE
            | addr::AT_WIN_E
            | addr::AT_CNT_E
            | addr::AT_WIN_S
            | addr::AT_CNT_S
    )
}

/// The register map as Markdown, for `docs/registers.md`.
pub fn markdown() -> String {
    let mut s = String::from(
        "# PFT register map\n\n\
         <!-- Generated from hdl/src/regs.rs by `make docs` (cargo run --release --bin pft-regs). \
         Do not edit; a test fails when this file is stale. -->\n\n\
         32-bit registers at word addresses 0x0-0xF on the CSR port (`csr_we`, `csr_addr[3:0]`, \
         `csr_wdata[31:0]`, `csr_rdata[31:0]`). A write lands at the rising edge where `csr_we` is \
         high and takes effect from the next cycle. Reads are combinational from registered values. \
         Bits outside a register's mask read as 0 and ignore writes.\n\n\
         | addr | name | access | mask | reset | description |\n|---|---|---|---|---|---|\n",
    );
    for r in REGS.iter() {
        let access = match r.access {
            Access::Rw => "RW",
            Access::RoClear => "RO, write clears",
            Access::Ro => "RO",
        };
        s += &format!(
            "| 0x{:X} | {} | {} | 0x{:08X} | 0x{:X} | {} |\n",
            r.addr, r.name, access, r.mask, r.reset, r.doc
        );
    }
    s
}
