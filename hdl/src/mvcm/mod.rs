//! MVCM (Marking and Validation Congestion Management, seed 004, Ferrer et al.): the
//! source side of one flow (one source-destination pair), which a simulator plug-in will
//! run and the RTL will be tested against.
//!
//! - [`model`]: the plain-Rust reference model (event-ordered, no rust-hdl types): the
//!   constants ([`model::Params`], with [`model::Params::derived`] from the network
//!   configuration), and one flow's dynamic window, waiting slots and injection timer
//!   ([`model::Flow`]) under the ACKs' MB/VB bits and the fast reset.

pub mod model;
