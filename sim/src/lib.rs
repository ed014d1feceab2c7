//! Behavioural models around the PFT block: fixed-latency channels and a credit link to one
//! switch input buffer. BookSim-like clock contract: every cycle, read the inputs (channel
//! heads), then evaluate and commit; results never depend on call order.

pub use pft_hdl::eprintln_safe;

pub mod cc;
pub mod channel;
pub mod cli;
pub mod error;
pub mod input;
pub mod link;
pub mod metrics;
pub mod net;
pub mod scenario;
pub mod schedule;
pub mod workload;

pub use cc::pft::{DetMode, EngineKind, PftConfig, ThrMode};
pub use cc::{CcConfig, Network};
