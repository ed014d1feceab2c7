//! Verilog export of `PftInjector` (top module `pft_injector`) and of its pipelined build
//! `PftInjectorPipelined` (top module `pft_injector_pipelined`).

use super::pft_injector::PftInjector;
use super::pft_injector_pipelined::PftInjectorPipelined;
use crate::design::Io;
use crate::verilog::{gen, rename};

/// Name of the exported top module.
pub const TOP: &str = "pft_injector";
/// Name of the exported top module of the pipelined build.
pub const TOP_PIPELINED: &str = "pft_injector_pipelined";

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

/// Generate the Verilog of the block.
pub fn pft_injector_verilog() -> String {
    verilog_of(Build::Default)
}

/// Generate the Verilog of `build`.
pub fn verilog_of(build: Build) -> String {
    match build {
        Build::Default => rename(gen(PftInjector::default()), TOP),
        Build::Pipelined => rename(gen(PftInjectorPipelined::default()), TOP_PIPELINED),
    }
}

/// The replay ports of both builds (same ports).
const INPUTS: &[&str] = &[
    "reset",
    "flit_valid",
    "flit_head",
    "credit_return",
    "csr_we",
    "csr_addr",
    "csr_wdata",
];
const OUTPUTS: &[&str] = &[
    "send",
    "congested",
    "throttled",
    "used_credits",
    "csr_rdata",
];
const CSR: &str = "Csr: register file, write decode, 16-way read mux";
const COUNTERS: &str = "PerfCounters: three 32-bit event counters";

/// `PftInjector`'s ports and direct sub-blocks (anything else is the top's own logic:
/// send, throttle_ok, ready).
pub const IO: Io = Io {
    clock: "clock",
    inputs: INPUTS,
    outputs: OUTPUTS,
    blocks: &[
        ("csr", CSR),
        (
            "credit",
            "CreditCounter: used credits c, credit_ok, sticky errors",
        ),
        (
            "fsm",
            "CongestionFsm: Normal/Congested state, FT/AT detector",
        ),
        ("shifter", "LevelShifter: f(c) = ((c << m) >> n) + k"),
        ("fi", "FiThrottle: gap counter"),
        ("ri", "RiGate: xorshift generator r"),
        (
            "gate_cmp",
            "ThrottleCompare: gap or (r & mask) >= f(c), one comparator",
        ),
        ("counters", COUNTERS),
    ],
    keep: &[],
    waive: &[],
};

/// `PftInjectorPipelined`'s: same instance names where a block has a counterpart.
pub const IO_PIPELINED: Io = Io {
    clock: "clock",
    inputs: INPUTS,
    outputs: OUTPUTS,
    blocks: &[
        ("csr", CSR),
        (
            "credit",
            "CreditCounterFast: used credits c, sticky errors (credit check from cmp_limit)",
        ),
        ("cmp_limit", "CreditCompare: c < CREDIT_LIMIT a cycle ahead"),
        ("cmp_enter", "CreditCompare: c > TH_ENTER a cycle ahead"),
        ("cmp_escape", "CreditCompare: c < TH_ESCAPE a cycle ahead"),
        (
            "fsm",
            "CongestionFsmFast: Normal/Congested state, AT flags a cycle ahead",
        ),
        (
            "level_pipe",
            "LevelPipe: f(c) over two registered stages (shift, + k)",
        ),
        (
            "fi",
            "FiThrottlePipelined: gap counter, verdict gap >= L a cycle ahead",
        ),
        (
            "ri",
            "RiGatePipelined: xorshift generator r, verdict (r & mask) >= L a cycle ahead",
        ),
        (
            "fi_sel",
            "top: the FI verdict masked by the next CTRL.thr_mode, registered",
        ),
        (
            "ri_sel",
            "top: the RI verdict masked by the next CTRL.thr_mode, registered",
        ),
        ("counters", COUNTERS),
    ],
    keep: &[],
    waive: &[],
};

/// The registry's export of the default build.
pub fn default_build(_size: Option<usize>) -> String {
    verilog_of(Build::Default)
}

/// The registry's export of the pipelined build.
pub fn pipelined_build(_size: Option<usize>) -> String {
    verilog_of(Build::Pipelined)
}
