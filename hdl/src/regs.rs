//! Register map of the PFT block (spec §4, extended), described once, as in OpenTitan's
//! reggen: `FIELDS` gives every field (register, bits, access, reset value, the range the
//! tools accept, a one-line doc) and `REGS` every register. The CSR constants below, the
//! model's CSR write order, `docs/registers.md` (`markdown`) and the range check of every
//! config parser (`check_field`) derive from them. The RTL, the reference model, the
//! simulator and the tools read the constants.

use std::fmt;
use Access::{Ro, RoClear, Rw};

/// Width of the CSR word address.
pub const ADDR_BITS: usize = 4;
/// The bits of a word address the block decodes (`csr_addr[ADDR_BITS-1:0]`).
pub const ADDR_MASK: u8 = ((1u16 << ADDR_BITS) - 1) as u8;

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

/// Software access of a field; a register has the most permissive access of its fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// Read/write.
    Rw,
    /// Read-only; a write clears it (counters) or clears the written-1 bits (STATUS errors).
    RoClear,
    /// Read-only; writes are ignored.
    Ro,
}

/// How a field's value is written in config files and echoed in JSON.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// An integer.
    Int,
    /// A boolean (a 1-bit field).
    Bool,
    /// One of these names; the value is its index.
    Enum(&'static [&'static str]),
}

/// One field of the register map.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Field {
    /// Its name, which is also its key in config files (`[[pft]]`, `pft-trace --config`).
    pub name: &'static str,
    /// Word address of its register.
    pub reg: u8,
    /// Lowest bit.
    pub offset: u32,
    pub width: u32,
    pub access: Access,
    pub kind: Kind,
    pub reset: u32,
    /// The values the tools accept, `lo..=hi`: the whole width unless the field says why not.
    pub lo: u32,
    pub hi: u32,
    pub doc: &'static str,
}

/// A full-width integer field (the builders below narrow it).
const fn def(
    reg: u8,
    name: &'static str,
    offset: u32,
    width: u32,
    access: Access,
    reset: u32,
    doc: &'static str,
) -> Field {
    Field {
        name,
        reg,
        offset,
        width,
        access,
        kind: Kind::Int,
        reset,
        lo: 0,
        hi: ((1u64 << width) - 1) as u32,
        doc,
    }
}

impl Field {
    const fn boolean(self) -> Field {
        Field {
            kind: Kind::Bool,
            ..self
        }
    }

    const fn names(self, names: &'static [&'static str]) -> Field {
        Field {
            kind: Kind::Enum(names),
            ..self
        }
    }

    const fn range(self, lo: u32, hi: u32) -> Field {
        Field { lo, hi, ..self }
    }

    /// Its bits in its register.
    pub const fn mask(&self) -> u32 {
        (((1u64 << self.width) - 1) as u32) << self.offset
    }

    /// True when `lo..=hi` is everything the width holds.
    pub const fn full_range(&self) -> bool {
        self.lo == 0 && self.hi as u64 == (1u64 << self.width) - 1
    }

    /// `value` if it is in the field's range.
    pub fn check(&self, value: u64) -> Result<u32, FieldRangeError> {
        if (self.lo as u64..=self.hi as u64).contains(&value) {
            Ok(value as u32)
        } else {
            Err(FieldRangeError {
                field: *self,
                value,
            })
        }
    }

    /// Its bits as `[hi:lo]`, or `[b]` for one bit.
    pub fn bits(&self) -> String {
        match self.width {
            1 => format!("[{}]", self.offset),
            w => format!("[{}:{}]", self.offset + w - 1, self.offset),
        }
    }
}

/// Every field, in address and bit order.
#[rustfmt::skip]
pub const FIELDS: [Field; 25] = [
    // register, name, offset, width, access, reset, doc
    def(addr::CTRL, "enable", 0, 1, Rw, 0,
        "Throttling on. Off, the state is held Normal and only the credit check applies.").boolean(),
    def(addr::CTRL, "det_mode", 1, 1, Rw, 0,
        "Detection: 0 FT (fixed threshold), 1 AT (average threshold).").names(&["ft", "at"]),
    def(addr::CTRL, "thr_mode", 2, 1, Rw, 0,
        "Throttling: 0 FI (fixed interval), 1 RI (random interval).").names(&["fi", "ri"]),
    def(addr::CTRL, "gating", 3, 1, Rw, 0,
        "Where the throttle decides: 0 flit (every flit), 1 packet (only a packet's first flit, `flit_head` high; the rest of a started packet needs only credits).").names(&["flit", "packet"]),
    def(addr::CREDIT_LIMIT, "credit_limit", 0, 16, Rw, 1024,
        "Credits of the link. The block accepts 0 (no flit ever leaves); the tools refuse it.").range(1, 0xFFFF),
    def(addr::TH_ENTER, "th_enter", 0, 16, Rw, 0x250, "threshold_enter."),
    def(addr::TH_ESCAPE, "th_escape", 0, 16, Rw, 0x2a0, "threshold_escape."),
    // The paper gives no AT windows; 64-cycle windows with a 3/4 fraction are our choice
    // (docs/behaviour.md explains why).
    def(addr::AT_WIN_E, "at_win_e", 0, 16, Rw, 64, "T_e, cycles."),
    def(addr::AT_CNT_E, "at_cnt_e", 0, 16, Rw, 48, "T_e', hits."),
    def(addr::AT_WIN_S, "at_win_s", 0, 16, Rw, 64, "T_s, cycles."),
    def(addr::AT_CNT_S, "at_cnt_s", 0, 16, Rw, 48, "T_s', hits."),
    def(addr::SHAPE, "m", 0, 5, Rw, 18, "Left shift of c in f(c)."),
    def(addr::SHAPE, "n", 8, 5, Rw, 0, "Right shift in f(c)."),
    def(addr::SHAPE, "r_width", 16, 6, Rw, 32,
        "Bits of the RI random number compared with f(c): P(send) = max(0, 1 - f(c)/2^r_width). The block treats 0 and values above 32 as 32 (a read returns the 6 bits as written); the tools accept 1..=32.").range(1, 32),
    def(addr::K, "k", 0, 16, Rw, 0, "Offset of f(c)."),
    def(addr::SEED, "seed", 0, 32, Rw, 0x9E37_79B9,
        "Non-zero: 0 would lock the generator, so a write of 0 loads the reset value; the tools refuse 0.")
        .range(1, u32::MAX),
    def(addr::STATUS, "congested", 0, 1, Ro, 0, "Congested (and enabled).").boolean(),
    def(addr::STATUS, "err_underflow", 1, 1, RoClear, 0,
        "Sticky: more credits came back than were in use (credit_return > c + send); c stops at 0. Write 1 to clear it.").boolean(),
    def(addr::STATUS, "err_overflow", 2, 1, RoClear, 0,
        "Sticky: c was above CREDIT_LIMIT. Write 1 to clear it.").boolean(),
    def(addr::STATUS, "c", 16, 16, Ro, 0, "Used credits."),
    def(addr::CNT_CONGESTED, "cnt_congested", 0, 32, RoClear, 0, "Cycles spent Congested."),
    def(addr::CNT_SENT, "cnt_sent", 0, 32, RoClear, 0, "Flits sent."),
    def(addr::CNT_THROTTLED, "cnt_throttled", 0, 32, RoClear, 0, "Cycles throttled."),
    def(addr::AT_STATUS, "win", 0, 16, Ro, 0, "AT window counter."),
    def(addr::AT_STATUS, "hit", 16, 16, Ro, 0, "AT hit counter."),
];

/// One register of the map; `access`, `mask` and `reset` come from its fields.
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

const fn reg(addr: u8, name: &'static str, doc: &'static str) -> RegInfo {
    let (mut access, mut mask, mut reset) = (Ro, 0, 0);
    let mut i = 0;
    while i < FIELDS.len() {
        let f = FIELDS[i];
        if f.reg == addr {
            access = match (access, f.access) {
                (Rw, _) | (_, Rw) => Rw,
                (RoClear, _) | (_, RoClear) => RoClear,
                (Ro, Ro) => Ro,
            };
            mask |= f.mask();
            reset |= f.reset << f.offset;
        }
        i += 1;
    }
    RegInfo {
        name,
        addr,
        access,
        mask,
        reset,
        doc,
    }
}

/// The whole map, in address order. A register with several fields gets their layout in
/// front of its doc in `docs/registers.md`.
#[rustfmt::skip]
pub const REGS: [RegInfo; 16] = [
    reg(addr::CTRL, "CTRL", "A write restarts the AT window."),
    reg(addr::CREDIT_LIMIT, "CREDIT_LIMIT",
        "Credits of the link (receiver buffer, flits). A flit may leave only while c < CREDIT_LIMIT."),
    reg(addr::TH_ENTER, "TH_ENTER",
        "threshold_enter: Normal counts/enters when c > TH_ENTER. A write restarts the AT window."),
    reg(addr::TH_ESCAPE, "TH_ESCAPE",
        "threshold_escape: Congested counts/leaves when c < TH_ESCAPE. A write restarts the AT window."),
    reg(addr::AT_WIN_E, "AT_WIN_E", "AT window in Normal (T_e, cycles). A write restarts the AT window."),
    reg(addr::AT_CNT_E, "AT_CNT_E",
        "AT hits needed in Normal to enter Congested (T_e'). A write restarts the AT window."),
    reg(addr::AT_WIN_S, "AT_WIN_S", "AT window in Congested (T_s, cycles). A write restarts the AT window."),
    reg(addr::AT_CNT_S, "AT_CNT_S",
        "AT hits needed in Congested to escape (T_s'). A write restarts the AT window."),
    reg(addr::SHAPE, "SHAPE", "The shape of f(c) = ((c << m) >> n) + k."),
    reg(addr::K, "K", "k of f(c)."),
    reg(addr::SEED, "SEED",
        "RI generator seed. A write reloads the generator; a write of 0 loads the reset seed instead."),
    reg(addr::STATUS, "STATUS", "Write 1 to an error bit to clear it."),
    reg(addr::CNT_CONGESTED, "CNT_CONGESTED", "Cycles spent Congested (wraps). Any write clears it."),
    reg(addr::CNT_SENT, "CNT_SENT", "Flits sent (wraps). Any write clears it."),
    reg(addr::CNT_THROTTLED, "CNT_THROTTLED",
        "Cycles a ready flit with a credit was held back by throttling (wraps). Any write clears it."),
    reg(addr::AT_STATUS, "AT_STATUS", "AT window counter and hit counter."),
];

/// Number of RW registers: the CSR writes that configure the block.
pub const RW_REGS: usize = {
    let mut n = 0;
    let mut i = 0;
    while i < REGS.len() {
        n += matches!(REGS[i].access, Rw) as usize;
        i += 1;
    }
    n
};

/// The order software configures the block in after a reset: every RW register once, in
/// address order but CTRL last, so the block only starts detecting once it is configured.
pub const CONFIG_ORDER: [u8; RW_REGS] = {
    let mut order = [addr::CTRL; RW_REGS];
    let (mut i, mut n) = (0, 0);
    while i < REGS.len() {
        if matches!(REGS[i].access, Rw) && REGS[i].addr != addr::CTRL {
            order[n] = REGS[i].addr;
            n += 1;
        }
        i += 1;
    }
    order
};

const fn str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// The field called `name`, at compile time (a wrong name fails the build).
pub const fn named(name: &str) -> Field {
    let mut i = 0;
    while i < FIELDS.len() {
        if str_eq(FIELDS[i].name, name) {
            return FIELDS[i];
        }
        i += 1;
    }
    panic!("no register field of that name")
}

/// The reset value of a field of at most 16 bits.
const fn reset16(name: &str) -> u16 {
    let f = named(name);
    assert!(f.width <= 16);
    f.reset as u16
}

/// CTRL fields.
pub const CTRL_ENABLE: u32 = named("enable").mask();
/// CTRL.det_mode: 0 = FT (fixed threshold), 1 = AT (average threshold).
pub const CTRL_DET_AT: u32 = named("det_mode").mask();
/// CTRL.thr_mode: 0 = FI (fixed interval), 1 = RI (random interval).
pub const CTRL_THR_RI: u32 = named("thr_mode").mask();
pub const CTRL_MASK: u32 = REGS[addr::CTRL as usize].mask;

/// CTRL.gating: 0 = flit (every flit is gated), 1 = packet (only head flits are).
pub const CTRL_GATING: u32 = named("gating").mask();
/// The CTRL word for a mode.
pub const fn ctrl_word(enable: bool, det_at: bool, thr_ri: bool) -> u32 {
    (if enable { CTRL_ENABLE } else { 0 })
        | (if det_at { CTRL_DET_AT } else { 0 })
        | (if thr_ri { CTRL_THR_RI } else { 0 })
}

/// The SHAPE word for (m, n) with r_width 0 (which the block treats as 32).
pub const fn shape_word(m: u8, n: u8) -> u32 {
    (m as u32) << SHAPE_M_SHIFT | (n as u32) << SHAPE_N_SHIFT
}

/// The low bits of r that RI compares with f(c) for an r_width field value `w`: `w` bits,
/// or all 32 for 0 and values above 32.
pub const fn r_mask(w: u8) -> u32 {
    if w == 0 || w >= 32 {
        u32::MAX
    } else {
        (1u32 << w) - 1
    }
}

/// STATUS fields (read-only except the write-1-to-clear error bits).
pub const STATUS_CONGESTED: u32 = named("congested").mask();
pub const STATUS_ERR_UNDERFLOW: u32 = named("err_underflow").mask();
pub const STATUS_ERR_OVERFLOW: u32 = named("err_overflow").mask();
pub const STATUS_C_SHIFT: u32 = named("c").offset;

/// AT_STATUS fields: the AT window and hit counters.
pub const AT_STATUS_WIN_SHIFT: u32 = named("win").offset;
pub const AT_STATUS_HIT_SHIFT: u32 = named("hit").offset;

/// SHAPE fields: m and n.
pub const SHAPE_M_SHIFT: u32 = named("m").offset;
pub const SHAPE_M_MASK: u32 = named("m").mask();
pub const SHAPE_N_SHIFT: u32 = named("n").offset;
pub const SHAPE_N_MASK: u32 = named("n").mask();
pub const SHAPE_R_WIDTH_SHIFT: u32 = named("r_width").offset;
pub const SHAPE_R_WIDTH_MASK: u32 = named("r_width").mask();
pub const SHAPE_MASK: u32 = REGS[addr::SHAPE as usize].mask;

/// Reset values.
pub const RESET_CTRL: u32 = REGS[addr::CTRL as usize].reset;
pub const RESET_CREDIT_LIMIT: u16 = reset16("credit_limit");
pub const RESET_TH_ENTER: u16 = reset16("th_enter");
pub const RESET_TH_ESCAPE: u16 = reset16("th_escape");
pub const RESET_AT_WIN_E: u16 = reset16("at_win_e");
pub const RESET_AT_CNT_E: u16 = reset16("at_cnt_e");
pub const RESET_AT_WIN_S: u16 = reset16("at_win_s");
pub const RESET_AT_CNT_S: u16 = reset16("at_cnt_s");
pub const RESET_M: u8 = reset16("m") as u8;
pub const RESET_N: u8 = reset16("n") as u8;
pub const RESET_K: u16 = reset16("k");
pub const RESET_R_WIDTH: u8 = reset16("r_width") as u8;
/// Non-zero; also what a write of 0 to SEED loads (a zero seed would lock the generator).
pub const RESET_SEED: u32 = named("seed").reset;
/// The FI gap counter (not a register) resets saturated: no flit has been sent "for ever".
pub const RESET_GAP: u16 = 0xFFFF;

/// Look a register up by (case-insensitive) name.
pub fn by_name(name: &str) -> Option<&'static RegInfo> {
    REGS.iter().find(|r| r.name.eq_ignore_ascii_case(name))
}

/// Look a field up by name (its config key).
pub fn field(name: &str) -> Option<&'static Field> {
    FIELDS.iter().find(|f| f.name == name)
}

/// The fields software sets, in address and bit order: the keys of a full configuration.
pub fn rw_fields() -> impl Iterator<Item = &'static Field> {
    FIELDS.iter().filter(|f| f.access == Rw)
}

/// A value outside its field's range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FieldRangeError {
    pub field: Field,
    pub value: u64,
}

impl FieldRangeError {
    /// What the field allows, e.g. "must be in 0..=31 (its register field width)".
    pub fn allowed(&self) -> String {
        let f = &self.field;
        let why = if f.full_range() {
            "its register field width"
        } else {
            "see docs/registers.md"
        };
        format!("must be in {}..={} ({why})", f.lo, f.hi)
    }
}

impl fmt::Display for FieldRangeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "`{}` = {}: {}",
            self.field.name,
            self.value,
            self.allowed()
        )
    }
}

impl std::error::Error for FieldRangeError {}

/// The one range check of every config parser: `value` if it is in the range of the field
/// whose key is `key`. Panics when no field has that name: keys come from this table, never
/// from input.
pub fn check_field(key: &str, value: u64) -> Result<u32, FieldRangeError> {
    field(key)
        .unwrap_or_else(|| panic!("no register field `{key}`"))
        .check(value)
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

fn access_text(a: Access) -> &'static str {
    match a {
        Access::Rw => "RW",
        Access::RoClear => "RO, write clears",
        Access::Ro => "RO",
    }
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
         The same map, generated from the same table, is in `hdl/generated/`: SystemRDL \
         (`pft_regs.rdl`, byte offsets = word address x 4, for PeakRDL flows), a SystemVerilog \
         package (`pft_regs_pkg.sv`), Verilog-2005 defines (`pft_regs.vh`), a C header \
         (`pft_regs.h`) and a Python module (`pft_regs.py`); `pft-regs --format rdl|sv|vh|h|py` \
         prints each. The formal properties (`synth/formal/`) read the SystemVerilog package, \
         the FuseSoC testbench the Verilog defines, the cocotb testbench the Python module; \
         `make peakrdl` compiles the SystemRDL with systemrdl-compiler, runs PeakRDL's C-header \
         and HTML exporters on it and checks PeakRDL's header against `pft_regs.h`. The RTL's \
         decode (`hdl/src/pft/csr.rs`) keeps literal addresses and bit positions, which rust-hdl \
         needs; a compile-time check ties each one to this table.\n\n\
         | addr | name | access | mask | reset | description |\n|---|---|---|---|---|---|\n",
    );
    for r in REGS.iter() {
        let fields: Vec<&Field> = FIELDS.iter().filter(|f| f.reg == r.addr).collect();
        let layout = if fields.len() > 1 {
            let names: Vec<String> = fields
                .iter()
                .map(|f| format!("{}{}", f.name, f.bits()))
                .collect();
            format!("{}. ", names.join(", "))
        } else {
            String::new()
        };
        s += &format!(
            "| 0x{:X} | {} | {} | 0x{:08X} | 0x{:X} | {layout}{} |\n",
            r.addr,
            r.name,
            access_text(r.access),
            r.mask,
            r.reset,
            r.doc
        );
    }
    s += "\n## Fields\n\n\
          A field's name is also its key in the tools' config files: every RW field in a \
          `pft-trace --config` file, and all but `credit_limit` and `seed` (which the network \
          sets per link and per NIC) in a `pftsim` `[[pft]]` entry. `range` is what the tools \
          accept; it can be narrower than the width allows. A config file writes a one-bit \
          field by its name (`enable = true`, `det_mode = \"at\"`), not by its number.\n\n\
          | register | field | bits | width | access | reset | range | description |\n\
          |---|---|---|---|---|---|---|---|\n";
    for f in FIELDS.iter() {
        let range = match (f.access, f.kind) {
            (Access::Rw, Kind::Enum(names)) => names
                .iter()
                .enumerate()
                .map(|(i, n)| format!("{i} `{n}`"))
                .collect::<Vec<_>>()
                .join(", "),
            (Access::Rw, Kind::Bool) => "0 `false`, 1 `true`".to_string(),
            (Access::Rw, Kind::Int) => format!("{}..={}", f.lo, f.hi),
            _ => "-".to_string(),
        };
        s += &format!(
            "| {} | {} | {} | {} | {} | 0x{:X} | {range} | {} |\n",
            REGS[f.reg as usize].name,
            f.name,
            f.bits(),
            f.width,
            access_text(f.access),
            f.reset,
            f.doc
        );
    }
    s += "\n## AXI4-Lite byte map (`pft_axis`)\n\n\
          `pft_axis` (hdl/src/axis/) puts the same registers behind an AXI4-Lite slave: 32-bit \
          data, 8-bit byte addresses (`s_axil_awaddr[7:0]`, `s_axil_araddr[7:0]`; bits 1:0 \
          ignored). The block starts with a register-block header in Corundum's layout \
          (type, version, next-block pointer); PFT's register at word address `a` is at byte \
          `0x40 + 4a`. Responses are OKAY inside the block (0x00-0x7F; reserved words read 0 \
          and ignore writes, the header ignores writes) and SLVERR at 0x80 and above (reads \
          return 0, writes change nothing). Byte strobes are honoured: an unstrobed byte keeps \
          its value in an RW register and is written as 0 elsewhere (so it clears no \
          write-1-to-clear bit), and a write with no strobe bit reaches no register. Every \
          write to CTRL also sets CTRL.gating (packet gating): `pft_axis` never stops a packet \
          that has started. The generated files carry this map as `PFT_AXIL_*` (C, SystemVerilog, \
          Verilog defines), `AXIL_*` and `AXIL_OFFSETS` (Python) and the addrmap \
          `pft_axis_csr` (SystemRDL).\n\n| byte offset | name | value / register |\n|---|---|---|\n";
    for (n, v, what) in crate::regs_gen::axil_rows() {
        if n.ends_with("_OFFSET") {
            s += &format!(
                "| 0x{v:02X} | {} | {what} |\n",
                n.trim_end_matches("_OFFSET")
            );
        }
    }
    s += &format!(
        "| 0x{:02X}-0x3C | - | reserved: read 0, OKAY |\n| 0x80-0xFF | - | outside: SLVERR |\n\n\
         Header values: RB_TYPE = 0x{:08X} (\"PFT\\0\"), RB_VERSION = 0x{:08X} (0.1), RB_NEXT_PTR = \
         0x{:X} (the last block; `AxilData::new(next_ptr)` builds another).\n",
        axil::RB_NEXT_PTR_OFFSET + 4,
        axil::RB_TYPE,
        axil::RB_VERSION,
        axil::RB_NEXT_PTR
    );
    s
}

/// The AXI4-Lite byte map of `pft_axis` (hdl/src/axis/): a register-block header in
/// Corundum's layout (type, version, next-block pointer), then the PFT registers above. The
/// word-addressed map of `pft_injector` is unchanged; this map stands beside it.
pub mod axil {
    /// Width of `s_axil_awaddr` and `s_axil_araddr` (byte addresses 0x00-0xFF).
    pub const ADDR_BITS: usize = 8;
    /// Byte offset of the register-block type word (read-only).
    pub const RB_TYPE_OFFSET: u32 = 0x00;
    /// Byte offset of the register-block version word (read-only).
    pub const RB_VERSION_OFFSET: u32 = 0x04;
    /// Byte offset of the next-block pointer (read-only; 0 ends the chain).
    pub const RB_NEXT_PTR_OFFSET: u32 = 0x08;
    /// The register-block type id of PFT: ASCII "PFT" and a 0 byte.
    pub const RB_TYPE: u32 = 0x5046_5400;
    /// The register-block version: 0.1 (major in bits 15:8, minor in bits 7:0).
    pub const RB_VERSION: u32 = 0x0000_0001;
    /// The next-block pointer the export builds (0: the last block of the chain).
    pub const RB_NEXT_PTR: u32 = 0;
    /// Byte offset of the PFT register at word address 0 (CTRL); word `a` is at
    /// `PFT_BASE + 4 * a`.
    pub const PFT_BASE: u32 = 0x40;
    /// The block's span in bytes (0x00-0x7F); an address at 0x80 or above is outside it.
    pub const SPAN: u32 = 0x80;

    /// The byte offset of the PFT register at word address `a`.
    pub const fn offset(a: u8) -> u32 {
        PFT_BASE + 4 * (a as u32 & super::ADDR_MASK as u32)
    }
}
