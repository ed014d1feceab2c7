//! PFT's injection block: its rust-hdl blocks (one per file), the top `PftInjector` and its
//! pipelined build `PftInjectorPipelined` with their look-ahead blocks, the plain-Rust
//! reference models, the steppers and the Verilog export. The crate root re-exports every
//! module here (`pft_hdl::model`, `pft_hdl::stepper`, ...), the paths from before the move.
//!
//! Twins: the pipelined build's blocks (`*_fast`, `*_pipelined`, `credit_compare`,
//! `level_pipe`) are not parameters of the default build's: each computes its verdict a
//! cycle ahead with other registers and other logic (docs/hardware.md, "Twins").

pub mod congestion_fsm;
pub mod congestion_fsm_fast;
pub mod credit_compare;
pub mod credit_counter;
pub mod credit_counter_fast;
pub mod csr;
pub mod fi_throttle;
pub mod fi_throttle_pipelined;
pub mod level_pipe;
pub mod level_shifter;
pub mod model;
pub mod model_idle;
pub mod model_pipelined;
pub mod perf_counters;
pub mod pft_injector;
pub mod pft_injector_pipelined;
pub mod ri_gate;
pub mod ri_gate_pipelined;
pub mod shape_decode;
pub mod stepper;
pub mod throttle_compare;
pub mod verilog;
