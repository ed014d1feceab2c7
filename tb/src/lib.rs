//! Testbench support for the PFT block: random stimulus, vector files for the Verilog replay,
//! waveforms, and the engines behind `pft-trace`.

pub mod fig1;
pub mod stimulus;
pub mod study;
pub mod trace;
pub mod vectors;
pub mod verilator;
