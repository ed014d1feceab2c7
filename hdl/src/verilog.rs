//! Verilog export of `PftInjector` (top module `pft_injector`), of its pipelined build
//! `PftInjectorPipelined` (top module `pft_injector_pipelined`), and of the self-tuned
//! throttle's node `SelftunedNode` (top module `selftuned_node`, seed 003), of MVCM's
//! per-flow source state (`MvcmFlow`, top `mvcm_flow`; `MvcmFlows`, tops `mvcm_flows<N>`;
//! seed 004) and of IB CC's (`IbccFlow`, top `ibcc_flow`; `IbccFlows`, tops
//! `ibcc_flows<N>`).

use crate::ibcc;
use crate::mvcm;
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
/// Name of the exported top module of MVCM's one flow.
pub const TOP_MVCM: &str = "mvcm_flow";
/// Name of the exported top module of IB CC's one flow (Table I's linear CCT).
pub const TOP_IBCC: &str = "ibcc_flow";
/// Name of the exported top module of IB CC's one flow with a random CCT.
pub const TOP_IBCC_RANDOM: &str = "ibcc_flow_random";
/// The flow counts of the multi-flow blocks the export builds (`MvcmFlows`, `IbccFlows`).
pub const FLOW_COUNTS: [usize; 4] = [1, 4, 16, 64];

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

/// Generate the Verilog of `MvcmFlow` for the constants `p` (synthesis-time parameters), at
/// the paper's widths (`PaperFlow`: 2, 3 and 19 bits) when `p` fits them, else at
/// `WideFlow`'s (8, 5, 32). Panics if `p` does not pass `mvcm::model::Params::check`.
pub fn mvcm_verilog(p: &mvcm::model::Params) -> String {
    use mvcm::mvcm_flow::{fits, PaperFlow, WideFlow};
    let v = if fits(p, 2, 3, 19) {
        gen(PaperFlow::new(p))
    } else {
        gen(WideFlow::new(p))
    };
    rename(v, TOP_MVCM)
}

/// The top module of `MvcmFlows` with `n` flows: `mvcm_flows<n>`.
pub fn mvcm_flows_top(n: usize) -> String {
    format!("mvcm_flows{n}")
}

/// Generate the Verilog of `MvcmFlows` with `n` flows (one of [`FLOW_COUNTS`]) at the
/// paper's widths, for the constants `p`. Panics if `n` is not one of them or `p` does not
/// fit the widths.
pub fn mvcm_flows_verilog(p: &mvcm::model::Params, n: usize) -> String {
    use mvcm::mvcm_flows::PaperFlows;
    let v = match n {
        1 => gen(PaperFlows::<1, 1>::new(p)),
        4 => gen(PaperFlows::<4, 2>::new(p)),
        16 => gen(PaperFlows::<16, 4>::new(p)),
        64 => gen(PaperFlows::<64, 6>::new(p)),
        _ => panic!("mvcm_flows_verilog: {n} flows: built for {FLOW_COUNTS:?}"),
    };
    rename(v, &mvcm_flows_top(n))
}

/// The Verilog of a connected block.
fn gen<B: Block>(mut uut: B) -> String {
    uut.connect_all();
    generate_verilog(&uut)
}

/// Whether `IbccFlow<C, L, T, _>` holds `p` (its limit and its longest spacing for packets
/// of up to `2^L - 1` flits).
pub fn ibcc_fits(p: &ibcc::model::Params, c: usize, l: usize, t: usize) -> bool {
    p.check().is_ok() && (p.limit as u64) < 1 << c && p.max_spacing((1 << l) - 1) - 1 < 1 << t
}

/// Generate the Verilog of `IbccFlow` (top `top`) for the constants `p` and a CCTI timer
/// of `period` cycles, first expiry `first` cycles after a reset: at Table I's widths
/// (`Table1Flow`: 7-bit CCTI, 6-bit length, 13-bit timer, 13-bit CCTI timer) when `p` and
/// the timer fit them, else with a 20-bit timer (any CCT at 7 and 6 bits), else at
/// `WideIbccFlow`'s. Panics if they fit none.
pub fn ibcc_verilog(p: &ibcc::model::Params, period: u64, first: u64, top: &str) -> String {
    use ibcc::ibcc_flow::{IbccFlow, Table1Flow, WideIbccFlow};
    let timer13 = period - 1 < 1 << 13 && first < 1 << 13;
    let v = if ibcc_fits(p, 7, 6, 13) && timer13 {
        gen(Table1Flow::new(p, period, first))
    } else if ibcc_fits(p, 7, 6, 20) && timer13 {
        gen(IbccFlow::<7, 6, 20, 13>::new(p, period, first))
    } else {
        gen(WideIbccFlow::new(p, period, first))
    };
    rename(v, top)
}

/// Seed 002's Table I as `IbccFlow` (top `ibcc_flow`), or with a random CCT (`random`, top
/// `ibcc_flow_random`); the CCTI timer of 6,000 cycles, first expiry 1 cycle after a reset.
pub fn ibcc_table1_verilog(random: bool) -> String {
    if random {
        ibcc_verilog(
            &ibcc::table1_random(),
            ibcc::TABLE1_PERIOD,
            1,
            TOP_IBCC_RANDOM,
        )
    } else {
        let p = ibcc::model::Params::table1();
        ibcc_verilog(&p, ibcc::TABLE1_PERIOD, 1, TOP_IBCC)
    }
}

/// The top module of `IbccFlows` with `n` flows: `ibcc_flows<n>`.
pub fn ibcc_flows_top(n: usize) -> String {
    format!("ibcc_flows{n}")
}

/// Generate the Verilog of `IbccFlows` with `n` flows (one of [`FLOW_COUNTS`]) at Table I's
/// widths, for the constants `p` and the timer. Panics if `n` is not one of them or `p`
/// does not fit the widths.
pub fn ibcc_flows_verilog(p: &ibcc::model::Params, period: u64, first: u64, n: usize) -> String {
    use ibcc::ibcc_flows::Table1Flows;
    let v = match n {
        1 => gen(Table1Flows::<1, 1>::new(p, period, first)),
        4 => gen(Table1Flows::<4, 2>::new(p, period, first)),
        16 => gen(Table1Flows::<16, 4>::new(p, period, first)),
        64 => gen(Table1Flows::<64, 6>::new(p, period, first)),
        _ => panic!("ibcc_flows_verilog: {n} flows: built for {FLOW_COUNTS:?}"),
    };
    rename(v, &ibcc_flows_top(n))
}

/// Seed 002's Table I as `IbccFlows` with `n` flows (top `ibcc_flows<n>`).
pub fn ibcc_flows_table1_verilog(n: usize) -> String {
    let p = ibcc::model::Params::table1();
    ibcc_flows_verilog(&p, ibcc::TABLE1_PERIOD, 1, n)
}
