//! Verilog export of the self-tuned throttle's node `SelftunedNode` (top module
//! `selftuned_node`, seed 003).

use super::model::Params;
use super::selftuned_node::SelftunedNode;
use crate::design::Io;
use crate::verilog::{gen, rename};

/// Name of the exported top module of the self-tuned throttle's node.
pub const TOP_SELFTUNED: &str = "selftuned_node";

/// Generate the Verilog of `SelftunedNode` for the constants `p` (synthesis-time
/// parameters: `localparam`s of the modules). Panics if `p` does not pass `Params::check`.
pub fn selftuned_verilog(p: &Params) -> String {
    rename(gen(SelftunedNode::new(p)), TOP_SELFTUNED)
}

/// The registry's export: the node with the seed's constants ([`super::SEED`]).
pub fn seed(_size: Option<usize>) -> String {
    selftuned_verilog(&super::SEED)
}

/// The node's replay ports and blocks (`tuner$rules`, the drop and reset rules, is kept as
/// its own module too).
pub const IO: Io = Io {
    clock: "clock",
    inputs: &["reset", "snap_valid", "snap_full", "snap_flits"],
    outputs: &["inhibit", "threshold", "margin"],
    blocks: &[
        (
            "estimator",
            "Estimator: s0, slope, age, margin = E - T*g (27 bits), inhibit = margin > 0",
        ),
        (
            "tuner",
            "Tuner: period, bw_acc, bw_prev, max_bw, t_back, resets, T; drop/reset rules",
        ),
    ],
    keep: &["tuner$rules"],
    waive: &[],
};
