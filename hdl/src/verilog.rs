//! Verilog export of `PftInjector` with top module `pft_injector`.

use crate::pft_injector::PftInjector;
use rust_hdl::prelude::*;

/// Name of the exported top module.
pub const TOP: &str = "pft_injector";

/// Generate the Verilog of the block. rust-hdl names the top `top` and every sub-module
/// `top$...`; we rename that prefix, which appears only in module names.
pub fn pft_injector_verilog() -> String {
    let mut uut = PftInjector::default();
    uut.connect_all();
    let v = generate_verilog(&uut);
    let v = v.replace("module top(", &format!("module {TOP}("));
    v.replace("top$", &format!("{TOP}$"))
}
