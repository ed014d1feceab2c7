//! The seeded random stimulus of the RTL designs, one module per design, each shared by the
//! design's rust-hdl comparison with its model (`hdl/tests/<design>_rtl.rs`) and its
//! Verilator replay (`tb/tests/<design>_verilog.rs`).

pub mod axis;
pub mod dcqcn;
pub mod ibcc;
pub mod mvcm;
pub mod selftuned;
