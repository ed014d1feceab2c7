//! PFT (Proactive Flow Throttling) injection block: rust-hdl RTL, the plain-Rust reference
//! model, the register map and the Verilog export. One block per file.

pub mod congestion_fsm;
pub mod credit_counter;
pub mod csr;
pub mod fi_throttle;
pub mod level_shifter;
pub mod model;
pub mod outfile;
pub mod perf_counters;
pub mod pft_injector;
pub mod regs;
pub mod ri_gate;
pub mod shape_decode;
pub mod stepper;
pub mod verilog;

pub mod prelude {
    pub use crate::model::{Inputs, Outputs, PftModel};
    pub use crate::pft_injector::PftInjector;
    pub use crate::stepper::RtlStepper;
}
