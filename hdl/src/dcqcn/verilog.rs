//! Verilog export of DCQCN's reaction point: `DcqcnFlow` (top `dcqcn_flow`) and
//! `DcqcnFlows` (tops `dcqcn_flows<N>`), at the paper's constants on the default network.

use super::model::Params;
use crate::design::Io;
use crate::verilog::{gen, rename, FLOW_COUNTS};

/// Name of the exported top module of DCQCN's one flow.
pub const TOP_DCQCN: &str = "dcqcn_flow";

/// Generate the Verilog of `DcqcnFlow` for the constants `p` (top `top`). Panics if `p`
/// does not pass `Params::check`.
pub fn dcqcn_verilog(p: &Params, top: &str) -> String {
    use super::dcqcn_flow::DcqcnFlow;
    rename(gen(DcqcnFlow::new(p)), top)
}

/// The top module of `DcqcnFlows` with `n` flows: `dcqcn_flows<n>`.
pub fn dcqcn_flows_top(n: usize) -> String {
    format!("dcqcn_flows{n}")
}

/// Generate the Verilog of `DcqcnFlows` with `n` flows (one of [`FLOW_COUNTS`]) for the
/// constants `p`. Panics if `n` is not one of them or `p` does not pass `Params::check`.
pub fn dcqcn_flows_verilog(p: &Params, n: usize) -> String {
    use super::dcqcn_flows::DcqcnFlows;
    let v = match n {
        1 => gen(DcqcnFlows::<1, 1>::new(p)),
        4 => gen(DcqcnFlows::<4, 2>::new(p)),
        16 => gen(DcqcnFlows::<16, 4>::new(p)),
        64 => gen(DcqcnFlows::<64, 6>::new(p)),
        _ => panic!("dcqcn_flows_verilog: {n} flows: built for {FLOW_COUNTS:?}"),
    };
    rename(v, &dcqcn_flows_top(n))
}

/// The registry's export of one flow: the paper's constants (`Params::paper`).
pub fn paper_flow(_size: Option<usize>) -> String {
    dcqcn_verilog(&Params::paper(), TOP_DCQCN)
}

/// The registry's export of `n` flows: the paper's constants.
pub fn paper_flows(size: Option<usize>) -> String {
    dcqcn_flows_verilog(&Params::paper(), size.expect("dcqcn_flows: a flow count"))
}

/// One flow's replay ports and blocks (and the slot's blocks, kept in the per-module
/// report).
pub const FLOW_IO: Io = Io {
    clock: "clock",
    inputs: &["reset", "cnp", "start", "flits"],
    outputs: &["rc", "rt", "alpha", "eligible", "limited", "err_early"],
    blocks: &[
        (
            "slot",
            "DcqcnSlot: the flow's state and per-flow logic (below)",
        ),
        (
            "cut",
            "Cut: the CNP's rate cut (16 x 16 multiply) and alpha",
        ),
        ("byte_count", "ByteCounter: the start's byte counter"),
        (
            "byte_increase",
            "Increase: the byte counter's rate increase",
        ),
    ],
    keep: &[
        "slot$rates",
        "slot$alpha_reg",
        "slot$alpha_timer",
        "slot$rate_timer",
        "slot$increase",
        "slot$pacer",
    ],
    waive: &[],
};

/// N flows' replay ports; the slots' register outputs that only the one flow exports are
/// waived in the lint (tb/tests/dcqcn_verilog.rs waives the same names).
pub const FLOWS_IO: Io = Io {
    clock: "clock",
    inputs: &["reset", "cnp", "cnp_flow", "start", "start_flow", "flits"],
    outputs: &["eligible", "limited", "err_early"],
    blocks: &[],
    keep: &[],
    waive: &["slots$*$rt", "slots$*$alpha"],
};
