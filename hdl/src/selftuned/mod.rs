//! The self-tuned global throttle of seed 003 (one node's logic): the reference model,
//! and its rust-hdl modules.

pub mod model;
