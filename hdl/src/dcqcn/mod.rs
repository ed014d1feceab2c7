//! DCQCN's reaction point (RP) at a source NIC (Zhu et al., SIGCOMM 2015): its rules in
//! floating point, which the simulator runs, their fixed-point version, which the RTL
//! implements, and the rust-hdl modules.
//!
//! - [`float`]: the rules in floating point, event driven; `sim/src/cc/dcqcn/nic.rs` calls
//!   them for every flow (moved here unchanged).
//! - [`model`]: the plain-Rust reference model in fixed point, stepped by cycle (no clock,
//!   no rust-hdl types); `hdl/tests/dcqcn_model.rs` bounds its difference from [`float`].
//! - [`dcqcn_flow::DcqcnFlow`]: one flow with its port's shared parts (Verilog top
//!   `dcqcn_flow`): [`dcqcn_slot::DcqcnSlot`] (the flow: [`rates::Rates`],
//!   [`alpha::Alpha`], two [`flow_timer::FlowTimer`]s, [`increase::Increase`],
//!   [`pacer::Pacer`]), and per port [`cut::Cut`], [`byte_counter::ByteCounter`] and a
//!   second [`increase::Increase`].
//! - [`dcqcn_flows::DcqcnFlows`]: N flows in registers (Verilog tops `dcqcn_flows<N>`), one
//!   slot per flow, the rest shared.
//! - [`stepper`]: the cycle mapping and the RTL stepped by hand with the model's types.

pub mod alpha;
pub mod byte_counter;
pub mod cut;
pub mod dcqcn_flow;
pub mod dcqcn_flows;
pub mod dcqcn_slot;
pub mod float;
pub mod flow_timer;
pub mod increase;
pub mod model;
pub mod pacer;
pub mod rates;
pub mod stepper;
pub mod verilog;
