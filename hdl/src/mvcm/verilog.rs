//! Verilog export of MVCM's per-flow source state (seed 004): `MvcmFlow` (top `mvcm_flow`)
//! and `MvcmFlows` (tops `mvcm_flows<N>`).

use super::model::Params;
use crate::design::Io;
use crate::verilog::{gen, rename, FLOW_COUNTS};

/// Name of the exported top module of MVCM's one flow.
pub const TOP_MVCM: &str = "mvcm_flow";

/// Generate the Verilog of `MvcmFlow` for the constants `p` (synthesis-time parameters), at
/// the paper's widths (`PaperFlow`: 2, 3 and 19 bits) when `p` fits them, else at
/// `WideFlow`'s (8, 5, 32). Panics if `p` does not pass `Params::check`.
pub fn mvcm_verilog(p: &Params) -> String {
    use super::mvcm_flow::{fits, PaperFlow, WideFlow};
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
pub fn mvcm_flows_verilog(p: &Params, n: usize) -> String {
    use super::mvcm_flows::PaperFlows;
    let v = match n {
        1 => gen(PaperFlows::<1, 1>::new(p)),
        4 => gen(PaperFlows::<4, 2>::new(p)),
        16 => gen(PaperFlows::<16, 4>::new(p)),
        64 => gen(PaperFlows::<64, 6>::new(p)),
        _ => panic!("mvcm_flows_verilog: {n} flows: built for {FLOW_COUNTS:?}"),
    };
    rename(v, &mvcm_flows_top(n))
}

/// The registry's export of one flow: the paper's constants ([`super::PAPER`]).
pub fn paper_flow(_size: Option<usize>) -> String {
    mvcm_verilog(&super::PAPER)
}

/// The registry's export of `n` flows: the paper's constants.
pub fn paper_flows(size: Option<usize>) -> String {
    mvcm_flows_verilog(&super::PAPER, size.expect("mvcm_flows: a flow count"))
}

/// One flow's replay ports and blocks.
pub const FLOW_IO: Io = Io {
    clock: "clock",
    inputs: &[
        "reset",
        "ack_valid",
        "ack_mb",
        "ack_vb",
        "fast_reset",
        "inject",
    ],
    outputs: &[
        "can_inject",
        "dw",
        "out",
        "ws",
        "e",
        "wait_cycles",
        "err_stray",
        "err_marks",
        "err_not_eligible",
    ],
    blocks: &[
        (
            "window",
            "Window: dynamic window dw (as its deficit) and outstanding count",
        ),
        (
            "waiting",
            "Waiting: WS present, exponent e, multiplications left",
        ),
        (
            "interval",
            "IntervalRom: k^e * rtt_min - 1 per exponent (constants)",
        ),
        ("timer", "Countdown: cycles until the next packet may start"),
    ],
    keep: &[],
    waive: &[],
};

/// N flows' replay ports; the one flow's observation outputs it does not export are
/// waived in the lint (tb/tests/mvcm_verilog.rs waives the same names).
pub const FLOWS_IO: Io = Io {
    clock: "clock",
    inputs: &[
        "reset",
        "ack_valid",
        "ack_flow",
        "ack_mb",
        "ack_vb",
        "fast_reset",
        "reset_flow",
        "inject",
        "inject_flow",
    ],
    outputs: &["can_inject", "err_stray", "err_marks", "err_not_eligible"],
    blocks: &[],
    keep: &[],
    waive: &["window$dw", "window$out", "waiting$e"],
};
