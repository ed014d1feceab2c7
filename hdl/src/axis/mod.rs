//! `pft_axis`: PFT as a drop-in IP for a NIC datapath (issue 38). An AXI-Stream
//! pass-through gated by PFT's unchanged block, its registers behind an AXI4-Lite slave with
//! a Corundum-style register-block header. One block per file: `stream_gate.rs` (the output
//! register, the packet tracker, the pause mask), `axil_slave.rs` (the AXI4-Lite slave's control), `axil_data.rs` (its strobe merge and
//! read data),
//! the top `pft_axis.rs`; the wrapper's reference model `model.rs` (over PFT's), the
//! stepper and the Verilog export.

pub mod axil_data;
pub mod axil_slave;
pub mod model;
pub mod pft_axis;
pub mod stepper;
pub mod stream_gate;
pub mod verilog;
