//! DCQCN's reaction point (RP) at a source NIC (Zhu et al., SIGCOMM 2015): its rules in
//! floating point, which the simulator runs, and their fixed-point version, which the RTL
//! implements.
//!
//! - [`float`]: the rules in floating point, event driven; `sim/src/cc/dcqcn/nic.rs` calls
//!   them for every flow (moved here unchanged).
//! - [`model`]: the plain-Rust reference model in fixed point, stepped by cycle (no clock,
//!   no rust-hdl types); `hdl/tests/dcqcn_model.rs` bounds its difference from [`float`].

pub mod float;
pub mod model;
