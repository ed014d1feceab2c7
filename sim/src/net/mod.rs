//! The cycle-level lossless network: channels, switches, NICs with a PFT block at each
//! injection port, topologies and routing.

pub mod types;
