//! The export's shared pieces: the top module's name and the connected block's Verilog.
//! Each design's own export is in its folder (`pft/verilog.rs`, and the `verilog.rs` of
//! every other family), and the list of designs is [`crate::DESIGNS`]. PFT's build
//! parameter and tops stay reachable here (`pft_hdl::verilog::Build`), as before the
//! registry.

use rust_hdl::prelude::*;

pub use crate::pft::verilog::{pft_injector_verilog, verilog_of, Build, TOP, TOP_PIPELINED};

/// The flow counts of the multi-flow blocks the export builds (the sizes of the designs
/// that have sizes in [`crate::DESIGNS`]).
pub const FLOW_COUNTS: [usize; 4] = [1, 4, 16, 64];

/// rust-hdl names the top `top` and every sub-module `top$...`; rename that prefix, which
/// appears only in module names.
pub fn rename(v: String, top: &str) -> String {
    let v = v.replace("module top(", &format!("module {top}("));
    v.replace("top$", &format!("{top}$"))
}

/// The Verilog of a block, connected first (top module `top`; [`rename`] names it).
pub fn gen<B: Block>(mut uut: B) -> String {
    uut.connect_all();
    generate_verilog(&uut)
}
