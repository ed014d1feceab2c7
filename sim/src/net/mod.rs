//! The cycle-level lossless network: channels, switches, NICs, topologies and routing, and
//! the seams through which a congestion-control scheme acts on them (`scheme`). Nothing
//! here names a scheme: the schemes live in `crate::cc`, and `crate::Network` is this
//! network running any of them. `docs/network.md` explains the model.
//!
//! Time scale: 1 cycle = the time of one flit on one link; 1 flit = 1 credit = `flit_bytes`
//! (default 64 B). At 100 Gb/s a 64 B flit is 5.12 ns, so 1 M cycles is about 5 ms.
//!
//! # API
//! ```no_run
//! use pft_sim::cc::pft::{EngineKind, PftConfig};
//! use pft_sim::net::{BernoulliSource, NetConfig, NodeId, Pattern};
//! use pft_sim::Network;
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
//! - `Network::build(&NetConfig, seed, make_scheme)`: validates (errors name the field and
//!   the allowed range), builds the topology and routing tables, then the scheme.
//!   `crate::Network::new(&NetConfig, &PftConfig, EngineKind, seed)` (PFT at every NIC) and
//!   `with_cc(&NetConfig, &CcConfig, EngineKind, seed)` (any registered scheme) build one.
//! - `step(&mut dyn Workload)`: one cycle; `run`, `run_until_idle` loop over it. Errors
//!   (`NetError`) are invariant violations, deadlocks and refused messages.
//! - Per NIC: `nic_stats(n)` (`NicStats` counters since cycle 0), `used_credits(n)`,
//!   `congested(n)`, `gate_outputs(n)` (last cycle); per run: `now`, `total_stats`,
//!   `flits_in_network`, `messages_pending`, `is_idle`, `last_deliveries`, `topology`
//!   (paths, switch names), `switch_input_flits`, `nic_receive_flits`, `scheme()`.
//! - `check()` runs the invariant checker on demand; `set_eval_order` permutes the
//!   component evaluation order (results do not depend on it).

mod acks;
mod block;
pub use block::force_switch_chunk;
mod build;
mod channels;
mod check;
mod cioq;
pub mod config;
mod deadlock;
mod disha;
pub mod dragonfly_route;
pub mod error;
pub mod faults;
pub mod flows;
mod idle;
mod lane_move;
mod lane_route;
mod lane_stats;
mod lane_wait;
pub mod lanes;
mod network;
mod nic;
mod parallel;
mod plain;
mod pool;
mod prefetch;
mod router;
mod router_knobs;
pub mod scheme;
pub mod source;
mod state;
mod store;
mod switch;
pub mod topology;
pub mod types;

pub use crate::error::FieldError;
pub(crate) use build::nic_seed;
pub use build::BuildCtx;
pub use config::{
    Allocator, Arbitration, Fault, LaneReuse, NetConfig, Routing, Switching, TopologyConfig,
};
pub use error::NetError;
pub use faults::{CreditScope, FaultSpec, LinkRef, Window};
pub use lane_stats::LANE_PROBES;
pub use network::{EvalOrder, Network, NicStats};
pub use scheme::{CreditGate, DelayLine, GateIn, GateOut, Scheme};
pub use source::{BernoulliSource, Pattern};
pub use topology::{Hop, Peer, SwitchSpec, Topology};
pub use types::{Delivery, Message, NodeId, Workload};
