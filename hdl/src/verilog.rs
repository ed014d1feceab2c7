//! Verilog export of `PftInjector` (top module `pft_injector`), of its pipelined build
//! `PftInjectorPipelined` (top module `pft_injector_pipelined`), and of the self-tuned
//! throttle's node `SelftunedNode` (top module `selftuned_node`, seed 003).

use crate::pft_injector::PftInjector;
use crate::pft_injector_pipelined::PftInjectorPipelined;
use crate::selftuned::model::Params;
use crate::selftuned::selftuned_node::SelftunedNode;
use rust_hdl::prelude::*;

/// Name of the exported top module.
pub const TOP: &str = "pft_injector";
/// Name of the exported top module of the pipelined build.
pub const TOP_PIPELINED: &str = "pft_injector_pipelined";
/// Name of the exported top module of the self-tuned throttle's node.
pub const TOP_SELFTUNED: &str = "selftuned_node";

/// The build parameter: which block the Verilog is made of.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Build {
    /// `PftInjector`: the verdict of a cycle from that cycle's `c` (the default).
    #[default]
    Default,
    /// `PftInjectorPipelined`: the level from an earlier `c`, the verdict precomputed.
    Pipelined,
}

impl Build {
    /// The Verilog top module of this build.
    pub fn top(self) -> &'static str {
        match self {
            Build::Default => TOP,
            Build::Pipelined => TOP_PIPELINED,
        }
    }
}

/// rust-hdl names the top `top` and every sub-module `top$...`; rename that prefix, which
/// appears only in module names.
fn rename(v: String, top: &str) -> String {
    let v = v.replace("module top(", &format!("module {top}("));
    v.replace("top$", &format!("{top}$"))
}

/// Generate the Verilog of the block.
pub fn pft_injector_verilog() -> String {
    verilog_of(Build::Default)
}

/// Generate the Verilog of `build`.
pub fn verilog_of(build: Build) -> String {
    match build {
        Build::Default => {
            let mut uut = PftInjector::default();
            uut.connect_all();
            rename(generate_verilog(&uut), TOP)
        }
        Build::Pipelined => {
            let mut uut = PftInjectorPipelined::default();
            uut.connect_all();
            rename(generate_verilog(&uut), TOP_PIPELINED)
        }
    }
}

/// Generate the Verilog of `SelftunedNode` for the constants `p` (synthesis-time
/// parameters: `localparam`s of the modules). Panics if `p` does not pass `Params::check`.
pub fn selftuned_verilog(p: &Params) -> String {
    let mut uut = SelftunedNode::new(p);
    uut.connect_all();
    rename(generate_verilog(&uut), TOP_SELFTUNED)
}
