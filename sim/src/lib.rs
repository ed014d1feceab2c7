//! Behavioural models around the PFT block: fixed-latency channels and a credit link to one
//! switch input buffer. BookSim-like clock contract: every cycle, read the inputs (channel
//! heads), then evaluate and commit; results never depend on call order.

/// `eprintln!` that never panics: with stderr closed (`2>&1 | head`), a message is dropped
/// and the exit status stays the command's own (1 for an error), not a panic's 101.
#[macro_export]
macro_rules! eprintln_safe {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

pub mod cc;
pub mod channel;
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
