//! The self-tuned global throttle of seed 003 (one node's logic): the reference model,
//! and its rust-hdl modules.
//!
//! - [`model`]: the plain-Rust reference model (cycle-exact, no rust-hdl types);
//! - [`selftuned_node::SelftunedNode`]: the top (Verilog top module `selftuned_node`), made
//!   of [`estimator::Estimator`] (the extrapolated estimate against T, `inhibit`) and
//!   [`tuner::Tuner`] (the hill climbing of T, with [`bw_rules::BwRules`] for its drop and
//!   reset rules); their multiplications by constants are [`const_mul::ConstMul`]s;
//! - [`stepper::SelftunedStepper`]: the RTL stepped by hand with the model's types.

pub mod bw_rules;
pub mod const_mul;
pub mod estimator;
pub mod model;
pub mod selftuned_node;
pub mod stepper;
pub mod tuner;
pub mod verilog;

use model::Params;

/// The seed's configuration for the 16-ary 2-cube (3,072 buffers): g = 32 (h = 2), a tuning
/// period of 96 cycles (3 snapshots), T from 1 % of the buffers, steps of 1 % up and 4 %
/// down, a drop below 75 %, the local-maxima reset below 75 % of the best (the seed leaves
/// it unspecified), r = 5, linear extrapolation. The Verilog export builds this one.
pub const SEED: Params = Params {
    g: 32,
    periods: 3,
    t_init: 30,
    inc: 30,
    dec: 122,
    t_ceiling: 3072,
    drop_pct: 75,
    reset_pct: 75,
    r: 5,
    linear: true,
};
