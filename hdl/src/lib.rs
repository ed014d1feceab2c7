//! PFT (Proactive Flow Throttling) injection block and the other schemes' NIC logic:
//! rust-hdl RTL, the plain-Rust reference models, the register map and the Verilog export.
//! One block per file, one folder per family (`pft/`, `selftuned/`, `mvcm/`, `ibcc/`,
//! `dcqcn/`, `axis/`).
//!
//! This file is the design registry: the family modules and [`DESIGNS`], the one list of
//! designs that `pft-verilog`, `make synth-FAMILY`, `synth/tools/summarize.py` and the
//! shared Verilator replay harness read (the scripts through `hdl/generated/designs.json`).
//! Adding a design is its folder plus one line in [`DESIGNS`] (docs/hardware.md, "The
//! design registry").

/// `eprintln!` that never panics: with stderr closed (`2>&1 | head`), a message is dropped
/// and the exit status stays the command's own (1 for an error), not a panic's 101.
#[macro_export]
macro_rules! eprintln_safe {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

pub mod design;
pub mod outfile;
pub mod regs;
pub mod regs_gen;
pub mod verilog;

pub mod axis;
pub mod dcqcn;
pub mod ibcc;
pub mod mvcm;
pub mod pft;
pub mod selftuned;

// The paths from before PFT's blocks moved to `pft/` (sim/ and tb/ use them).
pub use pft::{
    congestion_fsm, congestion_fsm_fast, credit_compare, credit_counter, credit_counter_fast, csr,
    fi_throttle, fi_throttle_pipelined, level_pipe, level_shifter, model, model_pipelined,
    perf_counters, pft_injector, pft_injector_pipelined, ri_gate, ri_gate_pipelined, shape_decode,
    stepper, throttle_compare,
};

use design::Design;
use verilog::FLOW_COUNTS as N;

/// Every design the export builds, one line each: name (the top module, or with sizes the
/// tops `name<N>`), family (its folder, `make synth-FAMILY`), sizes, the reference model
/// its RTL is tested against, the older `pft-verilog` flags that select it, what it is, its
/// Verilog, its replay ports and blocks, and a script the flow runs after it. The first
/// design of a family without sizes is the one `make synth-FAMILY` places and routes.
#[rustfmt::skip]
pub const DESIGNS: &[Design] = &[
    Design { name: "pft_injector", family: "pft", sizes: &[], model: "pft::model::PftModel", alias: "", about: "PFT's block (the default)", verilog: pft::verilog::default_build, io: &pft::verilog::IO, extra: "" },
    Design { name: "pft_injector_pipelined", family: "pft", sizes: &[], model: "pft::model_pipelined::PftModelPipelined", alias: "--pipelined", about: "PFT's pipelined build", verilog: pft::verilog::pipelined_build, io: &pft::verilog::IO_PIPELINED, extra: "" },
    Design { name: "selftuned_node", family: "selftuned", sizes: &[], model: "selftuned::model::SelfTuned", alias: "--selftuned", about: "the self-tuned throttle's node (seed 003, the seed's constants)", verilog: selftuned::verilog::seed, io: &selftuned::verilog::IO, extra: "synth/sideband/run.sh" },
    Design { name: "mvcm_flow", family: "mvcm", sizes: &[], model: "mvcm::model::Flow", alias: "--mvcm", about: "one flow of MVCM (seed 004, the paper's 4-ary 5-fly)", verilog: mvcm::verilog::paper_flow, io: &mvcm::verilog::FLOW_IO, extra: "" },
    Design { name: "mvcm_flows", family: "mvcm", sizes: &N, model: "mvcm::stepper::model_flows_cycle", alias: "--mvcm --flows N", about: "MVCM per-flow source state (seed 004, the paper's 4-ary 5-fly: dw_max 2, k 4, n 5, rtt_min 354)", verilog: mvcm::verilog::paper_flows, io: &mvcm::verilog::FLOWS_IO, extra: "" },
    Design { name: "ibcc_flow", family: "ibcc", sizes: &[], model: "ibcc::model::Flow", alias: "--ibcc", about: "one flow of IB CC with the CCT and the CCTI timer (seed 002's Table I)", verilog: ibcc::verilog::table1_flow, io: &ibcc::verilog::FLOW_IO, extra: "" },
    Design { name: "ibcc_flow_random", family: "ibcc", sizes: &[], model: "ibcc::model::Flow", alias: "--ibcc --cct random", about: "ibcc_flow with a CCT of random entries", verilog: ibcc::verilog::random_flow, io: &ibcc::verilog::FLOW_IO, extra: "" },
    Design { name: "ibcc_flows", family: "ibcc", sizes: &N, model: "ibcc::stepper::Port", alias: "--ibcc --flows N", about: "IB CC per-flow source state with the port's CCT and CCTI timer (seed 002, Table I)", verilog: ibcc::verilog::table1_flows, io: &ibcc::verilog::FLOWS_IO, extra: "" },
    Design { name: "dcqcn_flow", family: "dcqcn", sizes: &[], model: "dcqcn::model::Flow", alias: "", about: "one flow of DCQCN's reaction point with the port's shared parts (the paper's constants, 100 Gb/s, 64 B flits)", verilog: dcqcn::verilog::paper_flow, io: &dcqcn::verilog::FLOW_IO, extra: "synth/dcqcn/fmax.sh" },
    Design { name: "dcqcn_flows", family: "dcqcn", sizes: &N, model: "dcqcn::stepper::Port", alias: "", about: "DCQCN reaction point per flow: rates, alpha, timers, byte counter, rate limiter (the paper's constants)", verilog: dcqcn::verilog::paper_flows, io: &dcqcn::verilog::FLOWS_IO, extra: "" },
    Design { name: "pft_axis", family: "axis", sizes: &[], model: "axis::model::AxisModel", alias: "", about: "PFT as AXI-Stream + AXI4-Lite IP (64-bit data; --data-width N)", verilog: axis::verilog::default_width, io: &axis::verilog::IO, extra: "" },
];

pub mod prelude {
    pub use crate::pft::model::{Inputs, Outputs, PftModel};
    pub use crate::pft::model_pipelined::PftModelPipelined;
    pub use crate::pft::pft_injector::PftInjector;
    pub use crate::pft::pft_injector_pipelined::PftInjectorPipelined;
    pub use crate::pft::stepper::{RtlStepper, RtlStepperPipelined};
}
