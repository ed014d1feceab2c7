//! PFT (Proactive Flow Throttling) injection block: rust-hdl RTL, the plain-Rust reference
//! model, the register map and the Verilog export. One block per file.

pub mod congestion_fsm;
pub mod congestion_fsm_fast;
pub mod credit_compare;
pub mod credit_counter;
pub mod credit_counter_fast;
pub mod csr;
pub mod fi_throttle;
pub mod fi_throttle_pipelined;
pub mod ibcc;
pub mod level_pipe;
pub mod level_shifter;
pub mod model;
pub mod model_pipelined;
pub mod mvcm;
pub mod outfile;
pub mod perf_counters;
pub mod pft_injector;
pub mod pft_injector_pipelined;
pub mod regs;
pub mod regs_gen;
pub mod ri_gate;
pub mod ri_gate_pipelined;
pub mod selftuned;
pub mod shape_decode;
pub mod stepper;
pub mod throttle_compare;
pub mod verilog;

pub mod prelude {
    pub use crate::model::{Inputs, Outputs, PftModel};
    pub use crate::model_pipelined::PftModelPipelined;
    pub use crate::pft_injector::PftInjector;
    pub use crate::pft_injector_pipelined::PftInjectorPipelined;
    pub use crate::stepper::{RtlStepper, RtlStepperPipelined};
}
