//! Verilog export of IB CC's per-flow state (seed 002): `IbccFlow` (top `ibcc_flow`, with a
//! random CCT `ibcc_flow_random`) and `IbccFlows` (tops `ibcc_flows<N>`).

use super::model::Params;
use crate::design::Io;
use crate::verilog::{gen, rename, FLOW_COUNTS};

/// Name of the exported top module of IB CC's one flow (Table I's linear CCT).
pub const TOP_IBCC: &str = "ibcc_flow";
/// Name of the exported top module of IB CC's one flow with a random CCT.
pub const TOP_IBCC_RANDOM: &str = "ibcc_flow_random";

/// Whether `IbccFlow<C, L, T, _>` holds `p` (its limit and its longest spacing for packets
/// of up to `2^L - 1` flits).
pub fn ibcc_fits(p: &Params, c: usize, l: usize, t: usize) -> bool {
    p.check().is_ok() && (p.limit as u64) < 1 << c && p.max_spacing((1 << l) - 1) - 1 < 1 << t
}

/// Generate the Verilog of `IbccFlow` (top `top`) for the constants `p` and a CCTI timer
/// of `period` cycles, first expiry `first` cycles after a reset: at Table I's widths
/// (`Table1Flow`: 7-bit CCTI, 6-bit length, 13-bit timer, 13-bit CCTI timer) when `p` and
/// the timer fit them, else with a 20-bit timer (any CCT at 7 and 6 bits), else at
/// `WideIbccFlow`'s. Panics if they fit none.
pub fn ibcc_verilog(p: &Params, period: u64, first: u64, top: &str) -> String {
    use super::ibcc_flow::{IbccFlow, Table1Flow, WideIbccFlow};
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
            &super::table1_random(),
            super::TABLE1_PERIOD,
            1,
            TOP_IBCC_RANDOM,
        )
    } else {
        let p = Params::table1();
        ibcc_verilog(&p, super::TABLE1_PERIOD, 1, TOP_IBCC)
    }
}

/// The top module of `IbccFlows` with `n` flows: `ibcc_flows<n>`.
pub fn ibcc_flows_top(n: usize) -> String {
    format!("ibcc_flows{n}")
}

/// Generate the Verilog of `IbccFlows` with `n` flows (one of [`FLOW_COUNTS`]) at Table I's
/// widths, for the constants `p` and the timer. Panics if `n` is not one of them or `p`
/// does not fit the widths.
pub fn ibcc_flows_verilog(p: &Params, period: u64, first: u64, n: usize) -> String {
    use super::ibcc_flows::Table1Flows;
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
    let p = Params::table1();
    ibcc_flows_verilog(&p, super::TABLE1_PERIOD, 1, n)
}

/// The registry's export of one flow, Table I.
pub fn table1_flow(_size: Option<usize>) -> String {
    ibcc_table1_verilog(false)
}

/// The registry's export of one flow with a random CCT.
pub fn random_flow(_size: Option<usize>) -> String {
    ibcc_table1_verilog(true)
}

/// The registry's export of `n` flows, Table I.
pub fn table1_flows(size: Option<usize>) -> String {
    ibcc_flows_table1_verilog(size.expect("ibcc_flows: a flow count"))
}

/// One flow's replay ports and blocks (with either CCT).
pub const FLOW_IO: Io = Io {
    clock: "clock",
    inputs: &["reset", "becn", "start", "flits"],
    outputs: &["ccti", "eligible", "wait_cycles", "tick", "err_early"],
    blocks: &[
        ("timer", "CctiTimer: the port's CCTI timer (tick)"),
        (
            "index",
            "Ccti: the flow's CCTI, up on a BECN, down on a tick",
        ),
        ("cct", "Cct: the congestion control table (constants)"),
        (
            "spacing",
            "Ird: packet spacing flits + IRD from the CCT entry",
        ),
        (
            "ird_timer",
            "Countdown: cycles until the next packet may start",
        ),
    ],
    keep: &[],
    waive: &[],
};

/// N flows' replay ports; the one flow's CCTI output is waived in the lint.
pub const FLOWS_IO: Io = Io {
    clock: "clock",
    inputs: &["reset", "becn", "becn_flow", "start", "start_flow", "flits"],
    outputs: &["eligible", "tick", "err_early"],
    blocks: &[],
    keep: &[],
    waive: &["index$ccti"],
};
