//! The cycle-level lossless network: channels, switches, NICs with a PFT block at each
//! injection port, topologies and routing. `docs/network.md` explains the model.
//!
//! Time scale: 1 cycle = the time of one flit on one link; 1 flit = 1 credit = `flit_bytes`
//! (default 64 B). At 100 Gb/s a 64 B flit is 5.12 ns, so 1 M cycles is about 5 ms.
//!
//! # API
//! ```no_run
//! use pft_sim::net::{BernoulliSource, EngineKind, NetConfig, Network, NodeId, Pattern, PftConfig};
//! let cfg = NetConfig::default(); // 120-node fat tree, 64 B flits, 4 KiB MTU, 1024-flit buffers
//! let mut net = Network::new(&cfg, &PftConfig::default(), EngineKind::Model, 1)?;
//! let mut w = BernoulliSource::new(net.nodes(), Pattern::Uniform, 0.3, 4096, cfg.flit_bytes, 7);
//! for _ in 0..10_000 {
//!     net.step(&mut w)?; // any `Workload`: tick() gives messages, delivered() gets `Delivery`s
//! }
//! let s = net.nic_stats(NodeId(0)); // flits injected/ejected, throttled and congested cycles, ...
//! let (c, congested) = (net.used_credits(NodeId(0)), net.congested(NodeId(0))); // PFT state now
//! # Ok::<(), pft_sim::net::NetError>(())
//! ```
//! - `Network::new(&NetConfig, &PftConfig, EngineKind, seed)`: validates (errors name the
//!   field and the allowed range), builds the topology and routing tables, resets and
//!   configures every NIC's PFT block through its CSR port.
//! - `Network::with_cc(&NetConfig, &CcConfig, EngineKind, seed)`: the same with any
//!   congestion control (`crate::cc`: none, PFT, IB CC); `ccti(src, dst)`, `fecn_marked()`.
//! - `step(&mut dyn Workload)`: one cycle; `run`, `run_until_idle` loop over it. Errors
//!   (`NetError`) are invariant violations, deadlocks and refused messages.
//! - Per NIC: `nic_stats(n)` (`NicStats` counters since cycle 0), `used_credits(n)`,
//!   `congested(n)`, `pft_outputs(n)` (last cycle), `pft_probe(n)`; per run: `now`,
//!   `total_stats`, `flits_in_network`, `messages_pending`, `is_idle`, `last_deliveries`,
//!   `topology` (paths, switch names), `switch_input_flits`, `nic_receive_flits`.
//! - `check()` runs the invariant checker on demand; `set_eval_order` permutes the
//!   component evaluation order (results do not depend on it).

mod build;
mod check;
pub mod config;
pub mod error;
pub mod faults;
mod network;
mod nic;
pub mod pft;
pub mod pft_config;
pub mod source;
mod store;
mod switch;
pub mod topology;
pub mod types;
pub mod verilator;

pub use crate::error::FieldError;
pub use config::{Arbitration, EngineKind, Fault, NetConfig, TopologyConfig};
pub use error::NetError;
pub use faults::{CreditScope, FaultSpec, LinkRef, Window};
pub use network::{EvalOrder, Network, NicStats};
pub use pft_config::{DetMode, PftConfig, ThrMode};
pub use source::{BernoulliSource, Pattern};
pub use topology::{Hop, Peer, SwitchSpec, Topology};
pub use types::{Delivery, Message, NodeId, Workload};
