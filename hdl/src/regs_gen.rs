//! The register map (`regs::FIELDS`, `regs::REGS`) written for other languages, so that no
//! testbench, header or property repeats an address, offset or reset by hand: SystemRDL
//! (for PeakRDL flows), a SystemVerilog package, a Verilog-2005 include of `define`s (Yosys,
//! Icarus `-g2005`, Verilator), a C header and a Python module. `pft-regs --format F` prints
//! one; `make docs` writes them all to `hdl/generated/`, and a test fails when a checked-in
//! copy is stale.
//!
//! Addresses: the CSR port is word addressed (`csr_addr[3:0]`). The SystemRDL map gives byte
//! offsets (word address x 4), as SystemRDL requires; every other output gives both.

use crate::regs::{axil, Access, Field, RegInfo, ADDR_BITS, FIELDS, REGS};

/// The AXI4-Lite byte map of `pft_axis` (`regs::axil`) as (name, value, what) rows: the
/// register-block header, the block's layout, and each PFT register's byte offset. Every
/// format below writes these beside the word-addressed map, with the prefix `PFT_AXIL_`.
pub fn axil_rows() -> Vec<(String, u32, String)> {
    let mut v = vec![
        (
            "ADDR_BITS".to_string(),
            axil::ADDR_BITS as u32,
            "width of s_axil_awaddr/araddr (byte addresses)".to_string(),
        ),
        (
            "RB_TYPE_OFFSET".into(),
            axil::RB_TYPE_OFFSET,
            "register-block type word (RO)".into(),
        ),
        (
            "RB_VERSION_OFFSET".into(),
            axil::RB_VERSION_OFFSET,
            "register-block version word (RO)".into(),
        ),
        (
            "RB_NEXT_PTR_OFFSET".into(),
            axil::RB_NEXT_PTR_OFFSET,
            "next register block's offset, 0 = last (RO)".into(),
        ),
        (
            "RB_TYPE".into(),
            axil::RB_TYPE,
            "PFT's register-block type id (\"PFT\\0\")".into(),
        ),
        (
            "RB_VERSION".into(),
            axil::RB_VERSION,
            "register-block version (major 15:8, minor 7:0)".into(),
        ),
        (
            "RB_NEXT_PTR".into(),
            axil::RB_NEXT_PTR,
            "the next pointer the export builds".into(),
        ),
        (
            "PFT_BASE".into(),
            axil::PFT_BASE,
            "byte offset of word address 0 (CTRL)".into(),
        ),
        (
            "SPAN".into(),
            axil::SPAN,
            "bytes in the block; an address at or above is SLVERR".into(),
        ),
    ];
    for r in REGS.iter() {
        v.push((
            format!("{}_OFFSET", r.name),
            axil::offset(r.addr),
            format!("{} (word 0x{:X})", r.name, r.addr),
        ));
    }
    v
}

/// What each output says about where it comes from.
const ORIGIN: &str = "Generated from hdl/src/regs.rs by `make docs` (pft-regs). Do not edit; a test fails when this file is stale.";

/// The formats `pft-regs --format` writes, with their file names in `hdl/generated/`.
pub const FORMATS: [(&str, &str); 6] = [
    ("md", "../../docs/registers.md"),
    ("rdl", "pft_regs.rdl"),
    ("sv", "pft_regs_pkg.sv"),
    ("vh", "pft_regs.vh"),
    ("h", "pft_regs.h"),
    ("py", "pft_regs.py"),
];

/// The text of one format (`FORMATS`), or `None` for an unknown name.
pub fn render(format: &str) -> Option<String> {
    Some(match format {
        "md" => crate::regs::markdown(),
        "rdl" => systemrdl(),
        "sv" => sv_package(),
        "vh" => verilog_defines(),
        "h" => c_header(),
        "py" => python_module(),
        _ => return None,
    })
}

fn fields_of(r: &RegInfo) -> impl Iterator<Item = &'static Field> + '_ {
    FIELDS.iter().filter(move |f| f.reg == r.addr)
}

fn upper(s: &str) -> String {
    s.to_ascii_uppercase()
}

/// A field's constant prefix: `CTRL_ENABLE`, or just `SEED` where the field is its register.
fn field_id(r: &RegInfo, f: &Field) -> String {
    if upper(f.name) == r.name {
        r.name.to_string()
    } else {
        format!("{}_{}", r.name, upper(f.name))
    }
}

/// Software access in SystemRDL: read-only fields cleared by a write (the counters, any
/// write) or by writing 1 (STATUS's error bits).
fn rdl_access(r: &RegInfo, f: &Field) -> &'static str {
    match f.access {
        Access::Rw => "sw = rw; hw = r;",
        Access::Ro => "sw = r; hw = w;",
        Access::RoClear if r.name == "STATUS" => "sw = rw; hw = w; onwrite = woclr;",
        Access::RoClear => "sw = rw; hw = w; onwrite = wclr;",
    }
}

fn rdl_string(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// SystemRDL 2.0: one `addrmap` of 32-bit registers at byte offsets.
pub fn systemrdl() -> String {
    let mut s = format!(
        "// {ORIGIN}\n// The CSR port is word addressed: byte offset = word address x 4.\n\n\
         addrmap pft_csr {{\n    name = \"PFT\";\n    desc = \"Proactive Flow Throttling: the CSR block of the NIC's injection throttle.\";\n    \
         default regwidth = 32;\n    default accesswidth = 32;\n"
    );
    for r in REGS.iter() {
        s += &format!(
            "\n    reg {{\n        name = \"{}\";\n        desc = \"{}\";\n",
            r.name,
            rdl_string(r.doc)
        );
        for f in fields_of(r) {
            s += &format!(
                "        field {{ desc = \"{}\"; {} }} {}[{}:{}] = 0x{:X};\n",
                rdl_string(f.doc),
                rdl_access(r, f),
                f.name,
                f.offset + f.width - 1,
                f.offset,
                f.reset
            );
        }
        s += &format!("    }} {} @ 0x{:02X};\n", r.name, r.addr as u32 * 4);
    }
    s += "};\n";
    s += &format!(
        "\n// pft_axis: the AXI4-Lite byte map, a register-block header (Corundum's layout) and the\n\
         // map above at 0x{:02X}. Elaborate it with top `pft_axis_csr` (`pft_csr` is the word map's).\n\
         addrmap pft_axis_csr {{\n    name = \"PFT (AXI4-Lite)\";\n    \
         desc = \"pft_axis: register-block header, then PFT's registers.\";\n    \
         default regwidth = 32;\n    default accesswidth = 32;\n",
        axil::PFT_BASE
    );
    for (n, off, v) in [
        ("RB_TYPE", axil::RB_TYPE_OFFSET, axil::RB_TYPE),
        ("RB_VERSION", axil::RB_VERSION_OFFSET, axil::RB_VERSION),
        ("RB_NEXT_PTR", axil::RB_NEXT_PTR_OFFSET, axil::RB_NEXT_PTR),
    ] {
        s += &format!(
            "\n    reg {{\n        name = \"{n}\";\n        \
             field {{ sw = r; hw = na; }} value[31:0] = 0x{v:X};\n    }} {n} @ 0x{off:02X};\n"
        );
    }
    s += &format!("\n    pft_csr PFT @ 0x{:02X};\n}};\n", axil::PFT_BASE);
    s
}

/// SystemVerilog: `package pft_regs_pkg` of localparams.
pub fn sv_package() -> String {
    let mut s = format!(
        "// {ORIGIN}\n\npackage pft_regs_pkg;\n  localparam int unsigned PFT_ADDR_BITS = {ADDR_BITS};\n"
    );
    for r in REGS.iter() {
        s += &format!(
            "\n  // {}\n  localparam logic [{}:0] PFT_{n}_ADDR = {ADDR_BITS}'h{:X};\n  \
             localparam logic [31:0] PFT_{n}_MASK = 32'h{:08X};\n  \
             localparam logic [31:0] PFT_{n}_RESET = 32'h{:08X};\n",
            r.name,
            ADDR_BITS - 1,
            r.addr,
            r.mask,
            r.reset,
            n = r.name
        );
        for f in fields_of(r) {
            let id = field_id(r, f);
            s += &format!(
                "  localparam int unsigned PFT_{id}_OFFSET = {};\n  \
                 localparam int unsigned PFT_{id}_WIDTH = {};\n  \
                 localparam logic [31:0] PFT_{id}_FIELD_MASK = 32'h{:08X};\n  \
                 localparam logic [31:0] PFT_{id}_FIELD_RESET = 32'h{:08X};\n",
                f.offset,
                f.width,
                f.mask(),
                f.reset
            );
        }
    }
    s += "\n  // pft_axis: the AXI4-Lite byte map\n";
    for (n, v, what) in axil_rows() {
        s += &format!("  localparam logic [31:0] PFT_AXIL_{n} = 32'h{v:08X};  // {what}\n");
    }
    s += "endpackage\n";
    s
}

/// Verilog-2005: `define`s, with an include guard.
pub fn verilog_defines() -> String {
    let mut s = format!(
        "// {ORIGIN}\n\n`ifndef PFT_REGS_VH\n`define PFT_REGS_VH\n\n`define PFT_ADDR_BITS {ADDR_BITS}\n"
    );
    for r in REGS.iter() {
        s += &format!(
            "\n// {}\n`define PFT_{n}_ADDR {ADDR_BITS}'h{:X}\n`define PFT_{n}_MASK 32'h{:08X}\n`define PFT_{n}_RESET 32'h{:08X}\n",
            r.name,
            r.addr,
            r.mask,
            r.reset,
            n = r.name
        );
        for f in fields_of(r) {
            let id = field_id(r, f);
            s += &format!(
                "`define PFT_{id}_OFFSET {}\n`define PFT_{id}_WIDTH {}\n`define PFT_{id}_MSB {}\n`define PFT_{id}_FIELD_RESET {}'h{:X}\n",
                f.offset,
                f.width,
                f.offset + f.width - 1,
                f.width,
                f.reset
            );
        }
    }
    s += "\n// pft_axis: the AXI4-Lite byte map\n";
    for (n, v, what) in axil_rows() {
        s += &format!("`define PFT_AXIL_{n} 32'h{v:X}  // {what}\n");
    }
    s += "\n`endif\n";
    s
}

/// C: `#define`s, with an include guard.
pub fn c_header() -> String {
    let mut s = format!(
        "/* {ORIGIN}\n * Word addresses on the CSR port; PFT_*_BYTE_OFFSET = word address x 4. */\n\n\
         #ifndef PFT_REGS_H\n#define PFT_REGS_H\n\n#define PFT_ADDR_BITS {ADDR_BITS}u\n"
    );
    for r in REGS.iter() {
        s += &format!(
            "\n/* {}: {} */\n#define PFT_{n}_ADDR 0x{:X}u\n#define PFT_{n}_BYTE_OFFSET 0x{:02X}u\n\
             #define PFT_{n}_MASK 0x{:08X}u\n#define PFT_{n}_RESET 0x{:08X}u\n",
            r.name,
            r.doc.replace("*/", "* /"),
            r.addr,
            r.addr as u32 * 4,
            r.mask,
            r.reset,
            n = r.name
        );
        for f in fields_of(r) {
            let id = field_id(r, f);
            s += &format!(
                "#define PFT_{id}_SHIFT {}u\n#define PFT_{id}_WIDTH {}u\n#define PFT_{id}_FIELD_MASK 0x{:08X}u\n#define PFT_{id}_FIELD_RESET 0x{:X}u\n",
                f.offset,
                f.width,
                f.mask(),
                f.reset
            );
        }
    }
    s += "\n/* pft_axis: the AXI4-Lite byte map (register-block header, then the registers above at\n * PFT_AXIL_PFT_BASE + 4 x word address; SLVERR at PFT_AXIL_SPAN and above). */\n";
    for (n, v, what) in axil_rows() {
        s += &format!("#define PFT_AXIL_{n} 0x{v:X}u /* {what} */\n");
    }
    s += "\n#endif /* PFT_REGS_H */\n";
    s
}

fn access_name(a: Access) -> &'static str {
    match a {
        Access::Rw => "rw",
        Access::Ro => "ro",
        Access::RoClear => "ro_clear",
    }
}

/// Python: constants per register and field, plus `REGS` and `FIELDS` tables.
pub fn python_module() -> String {
    let mut s = format!(
        "\"\"\"The PFT register map. {ORIGIN}\n\nWord addresses on the CSR port.\"\"\"\n\nADDR_BITS = {ADDR_BITS}\n"
    );
    for r in REGS.iter() {
        s += &format!(
            "\n{n} = 0x{:X}\n{n}_MASK = 0x{:08X}\n{n}_RESET = 0x{:08X}\n",
            r.addr,
            r.mask,
            r.reset,
            n = r.name
        );
        for f in fields_of(r) {
            let id = field_id(r, f);
            if id != r.name {
                s += &format!(
                    "{id}_SHIFT = {}\n{id}_WIDTH = {}\n{id}_FIELD_MASK = 0x{:08X}\n",
                    f.offset,
                    f.width,
                    f.mask()
                );
            }
        }
    }
    s += "\n# name: (address, access, mask, reset)\nREGS = {\n";
    for r in REGS.iter() {
        s += &format!(
            "    \"{}\": (0x{:X}, \"{}\", 0x{:08X}, 0x{:08X}),\n",
            r.name,
            r.addr,
            access_name(r.access),
            r.mask,
            r.reset
        );
    }
    s += "}\n\n# field: (register, offset, width, access, reset, lo, hi)\nFIELDS = {\n";
    for f in FIELDS.iter() {
        let r = REGS[f.reg as usize];
        s += &format!(
            "    \"{}\": (\"{}\", {}, {}, \"{}\", 0x{:X}, {}, {}),\n",
            f.name,
            r.name,
            f.offset,
            f.width,
            access_name(f.access),
            f.reset,
            f.lo,
            f.hi
        );
    }
    s += "}\n\n# pft_axis: the AXI4-Lite byte map\n";
    for (n, v, what) in axil_rows() {
        s += &format!("AXIL_{n} = 0x{v:X}  # {what}\n");
    }
    s += "\n# register name: its byte offset on pft_axis's AXI4-Lite port\nAXIL_OFFSETS = {\n";
    for r in REGS.iter() {
        s += &format!("    \"{}\": 0x{:02X},\n", r.name, axil::offset(r.addr));
    }
    s += "}\n";
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_format_renders_and_names_every_register() {
        for (f, _) in FORMATS {
            let text = render(f).expect("a listed format");
            for r in REGS.iter() {
                assert!(text.contains(r.name), "{f}: no {}", r.name);
            }
        }
        assert!(render("vhdl").is_none());
    }

    #[test]
    fn ids_are_the_register_when_the_field_is_it() {
        let seed = REGS.iter().find(|r| r.name == "SEED").unwrap();
        let f = FIELDS.iter().find(|f| f.name == "seed").unwrap();
        assert_eq!(field_id(seed, f), "SEED");
        let shape = REGS.iter().find(|r| r.name == "SHAPE").unwrap();
        let m = FIELDS.iter().find(|f| f.name == "r_width").unwrap();
        assert_eq!(field_id(shape, m), "SHAPE_R_WIDTH");
    }
}
