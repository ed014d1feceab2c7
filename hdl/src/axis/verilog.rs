//! Verilog export of `PftAxis` (top module `pft_axis`): 64-bit `tdata` and 1-bit `tuser`
//! by default, other widths with `pft-verilog --design pft_axis --data-width N
//! [--user-width U]`.

use super::pft_axis::PftAxis;
use crate::design::Io;
use crate::verilog::{gen, rename};

/// Name of the exported top module.
pub const TOP: &str = "pft_axis";
/// The data widths the export builds (`--data-width`).
pub const DATA_WIDTHS: [usize; 4] = [64, 128, 256, 512];
/// The `tuser` widths the export builds (`--user-width`).
pub const USER_WIDTHS: [usize; 5] = [1, 8, 16, 32, 64];
/// The default data and user widths.
pub const DEFAULT_DATA_WIDTH: usize = 64;
pub const DEFAULT_USER_WIDTH: usize = 1;

/// What the export puts in front of rust-hdl's text, so that the file lints alone
/// (`verilator --lint-only --top-module pft_axis pft_axis.v`): rust-hdl writes 32-bit
/// literals into narrower contexts (`WIDTH`, the known and checked case of
/// ../shared/notes/rust-hdl-0.46.md 1.9) and leaves `*prot`, the unused CSR read ports
/// of the register file and a few hold-defaults of its registers (`UNUSED*`, `-Wall` only).
const PREAMBLE: &str = "// pft_axis: PFT as AXI-Stream + AXI4-Lite IP (hdl/src/axis/, pft-verilog --design pft_axis).\n\
/* verilator lint_off WIDTH */\n";

/// `Err` names what is out of range.
pub fn check_widths(data: usize, user: usize) -> Result<(), String> {
    if !DATA_WIDTHS.contains(&data) {
        return Err(format!(
            "--data-width {data}: must be in 64..512 and a power of two (64, 128, 256, 512)"
        ));
    }
    if !USER_WIDTHS.contains(&user) {
        return Err(format!("--user-width {user}: built for {USER_WIDTHS:?}"));
    }
    Ok(())
}

macro_rules! by_user {
    ($d:literal, $k:literal, $u:expr) => {
        match $u {
            1 => gen(PftAxis::<$d, $k, 1>::default()),
            8 => gen(PftAxis::<$d, $k, 8>::default()),
            16 => gen(PftAxis::<$d, $k, 16>::default()),
            32 => gen(PftAxis::<$d, $k, 32>::default()),
            64 => gen(PftAxis::<$d, $k, 64>::default()),
            _ => unreachable!(),
        }
    };
}

/// The Verilog of `pft_axis` with `data`-bit `tdata` and `user`-bit `tuser`.
pub fn axis_verilog(data: usize, user: usize) -> Result<String, String> {
    check_widths(data, user)?;
    let v = match data {
        64 => by_user!(64, 8, user),
        128 => by_user!(128, 16, user),
        256 => by_user!(256, 32, user),
        512 => by_user!(512, 64, user),
        _ => unreachable!(),
    };
    Ok(format!("{PREAMBLE}{}", rename(v, TOP)))
}

/// The registry's export: 64-bit data, 1-bit user.
pub fn default_width(_size: Option<usize>) -> String {
    axis_verilog(DEFAULT_DATA_WIDTH, DEFAULT_USER_WIDTH).expect("the default widths are built")
}

/// Replay ports (the shared Verilator harness: each at most 64 bits, so the 64-bit build).
pub const IO: Io = Io {
    clock: "clk",
    inputs: &[
        "rst",
        "s_axis_tdata",
        "s_axis_tkeep",
        "s_axis_tvalid",
        "s_axis_tlast",
        "s_axis_tuser",
        "m_axis_tready",
        "s_axil_awaddr",
        "s_axil_awprot",
        "s_axil_awvalid",
        "s_axil_wdata",
        "s_axil_wstrb",
        "s_axil_wvalid",
        "s_axil_bready",
        "s_axil_araddr",
        "s_axil_arprot",
        "s_axil_arvalid",
        "s_axil_rready",
        "credit_return",
        "pause",
    ],
    outputs: &[
        "s_axis_tready",
        "m_axis_tdata",
        "m_axis_tkeep",
        "m_axis_tvalid",
        "m_axis_tlast",
        "m_axis_tuser",
        "s_axil_awready",
        "s_axil_wready",
        "s_axil_bresp",
        "s_axil_bvalid",
        "s_axil_arready",
        "s_axil_rdata",
        "s_axil_rresp",
        "s_axil_rvalid",
        "congested",
        "throttled",
        "used_credits",
    ],
    blocks: &[
        ("pft", "PftInjector: PFT's block, unchanged"),
        (
            "gate",
            "StreamGate: output register, packet tracker, pause mask",
        ),
        (
            "axil",
            "AxilSlave: AXI4-Lite handshakes, address decode, responses",
        ),
        (
            "axil_data",
            "AxilData: byte-strobe merge, read data, register-block header",
        ),
    ],
    keep: &[],
    waive: &[],
};
