//! PFT (Proactive Flow Throttling, seed 001) as a scheme: every NIC's injection gate is its
//! PFT block, stepped as the reference model, the rust-hdl RTL or the exported Verilog under
//! Verilator (`EngineKind`, one choice per run), configured through the CSR port like the
//! hardware. PFT uses only the gate seam: no flow control, no control packets, no marking.
//!
//! - `config`: `PftConfig`, the register values and build options of a `[[pft]]` entry;
//! - `engine`: `PftEngine`, one NIC's block in the chosen engine;
//! - `verilator`: the exported Verilog as a shared library.
//!
//! docs/behaviour.md documents the block; docs/network.md how the network clocks it.

pub mod config;
pub mod engine;
mod network;
pub mod verilator;

pub use config::{DetMode, PftConfig, ThrMode};
pub use engine::{nic_seed, EngineKind, PftEngine};

use super::{Plugin, RunOpts};
use crate::error::FieldError;
use crate::net::scheme::{GateIn, GateOut, GateState, Scheme};
use crate::net::{BuildCtx, NetError};
use pft_hdl::model::{Inputs, Outputs};
use pft_hdl::regs::addr;

/// The PFT plug-in (registry entry `pft`).
pub struct Pft;

impl Plugin for Pft {
    const KIND: &'static str = "pft";
    const ABOUT: &'static str = "PFT at every NIC (a [[pft]] entry's registers)";
    type Config = PftConfig;
    type State = PftState;
    const OUT_OF_RANGE: Option<(&'static str, &'static str)> = Some(("m", "64"));

    fn validate(_cfg: &PftConfig, _prefix: &str, _errs: &mut Vec<FieldError>) {
        // A PftConfig holds only values in their fields' ranges (checked when it is made).
    }

    /// A `pft_rewrite` fault's register table is PFT's to check (the core only carries it).
    fn check_owned(net: &crate::net::NetConfig) -> Result<(), FieldError> {
        for (i, f) in net.faults.iter().enumerate() {
            if let crate::net::FaultSpec::RegRewrite { regs, .. } = f {
                PftConfig::check_rewrite(regs, &format!("faults[{i}].pft"))?;
            }
        }
        Ok(())
    }

    fn build(cfg: &PftConfig, ctx: &BuildCtx, opts: &RunOpts) -> Result<PftState, NetError> {
        PftState::new(cfg, ctx, opts)
    }

    fn label(cfg: &PftConfig) -> String {
        describe(cfg)
    }

    /// The paper's configuration with thresholds a small network's queues reach.
    fn example() -> PftConfig {
        PftConfig::default().with_all(&[("th_enter", 0x60), ("th_escape", 0x70)])
    }

    fn active(cfg: &PftConfig) -> bool {
        cfg.enabled()
    }
}

/// Every NIC's PFT block and the blocks' clock.
pub struct PftState {
    engine: Vec<PftEngine>,
    kind: EngineKind,
    credit_limit: u16,
    /// Block cycles per flit time in 1/65536, the fraction carried between cycles, and the
    /// block cycles of this cycle (docs/network.md, "Clock ratio").
    clk_q16: u32,
    clk_acc: u32,
    clk_steps: u32,
    /// Per NIC, the first disagreement its block's output showed with its own counter
    /// (checker on). Per NIC, not one for the network: NICs on several threads
    /// (`nic_parallel`) may each find one in the same cycle, and the checker reports the
    /// lowest, as one thread does.
    fault: Vec<Option<String>>,
}

impl PftState {
    /// Blocks reset and configured (CREDIT_LIMIT = `buffer_flits`, SEED derived from the
    /// run seed per NIC); a NIC that `opts.on` leaves out keeps its block as its credit
    /// counter with CTRL.enable = 0 (a NIC designer's "PFT on the congestors only").
    fn new(cfg: &PftConfig, ctx: &BuildCtx, opts: &RunOpts) -> Result<Self, NetError> {
        if opts.engine == EngineKind::Verilator {
            verilator::library(cfg.build())
                .map_err(|e| NetError::Config(FieldError::new("engine", "verilator", e)))?;
        }
        let credit_limit = ctx.cfg.buffer_flits as u16;
        let engine = (0..ctx.nodes)
            .map(|i| {
                let off = opts.on.is_some_and(|on| !on[i as usize]);
                let cfg_i = if off { cfg.with("enable", 0) } else { *cfg };
                PftEngine::configured(opts.engine, &cfg_i, credit_limit, nic_seed(ctx.seed, i))
            })
            .collect();
        Ok(PftState {
            engine,
            kind: opts.engine,
            credit_limit,
            clk_q16: cfg.clock_q16(),
            clk_acc: 0,
            clk_steps: 1,
            fault: vec![None; ctx.nodes as usize],
        })
    }

    /// The engine the blocks run in.
    pub fn engine_kind(&self) -> EngineKind {
        self.kind
    }

    /// NIC `n`'s block as last stepped: a NIC that skips idle cycles has not yet caught
    /// up the ones since it fell asleep (`Network::pft_probe` shows the block caught up).
    pub fn block(&self, n: u32) -> &PftEngine {
        &self.engine[n as usize]
    }
}

impl PftState {
    /// `gate`, checked (`CHECK`) or not.
    #[inline(always)]
    fn slot<const CHECK: bool>(&mut self, n: u32, g: &GateIn) -> GateOut {
        let engine = &mut self.engine[n as usize];
        if !CHECK && self.clk_steps == 1 && g.csr.is_none() {
            // The common slot: one block cycle, no CSR write.
            let o = engine.step_port(g.flit_valid, g.flit_head, g.credit_return);
            return GateOut {
                send: o.send,
                congested: o.congested,
                throttled: o.throttled,
                used_credits: o.used_credits,
            };
        }
        let mut inputs = Inputs {
            flit_valid: g.flit_valid,
            flit_head: g.flit_head,
            credit_return: g.credit_return,
            ..Default::default()
        };
        if let Some((a, d)) = g.csr {
            inputs.csr_we = true;
            inputs.csr_addr = a;
            inputs.csr_wdata = d;
        }
        let mut out = Outputs::default();
        let (mut sent, mut thr) = (false, false);
        for _ in 0..self.clk_steps {
            let c_before = if CHECK { engine.used_credits() } else { 0 };
            let o = engine.step(&inputs);
            if CHECK && o.used_credits != c_before && self.fault[n as usize].is_none() {
                self.fault[n as usize] = Some(format!(
                    "output used_credits = {} but the counter held {c_before}",
                    o.used_credits
                ));
            }
            // The block's counter moves only between its cycles; it sends a flit at most
            // once per slot (the core checks the slot's verdict against the link).
            debug_assert!(!o.send || inputs.flit_valid, "sent a flit not offered");
            sent |= o.send;
            thr |= o.throttled;
            out = o;
            inputs.credit_return = 0;
            inputs.csr_we = false;
            inputs.flit_valid &= !o.send;
        }
        // The slot's outputs: sent if any block cycle sent, throttled if the throttle held
        // the flit back in some block cycle and it did not leave; the rest from the last.
        GateOut {
            send: sent,
            congested: out.congested,
            throttled: thr && !sent,
            used_credits: out.used_credits,
        }
    }
}

impl Scheme for PftState {
    /// The reference model keeps one block per NIC (the RTL and Verilator engines are not
    /// claimed: their simulators' state is not known to be per block). `fault` is written
    /// only when a block disagrees with itself, each NIC's in a slot of its own.
    fn nic_parallel(&self) -> bool {
        self.kind == EngineKind::Model
    }

    /// One flit slot: the block's clock cycles in it (one at clock ratio 1). The slot's
    /// credits and CSR write come with the first; the flit is offered until the block sends
    /// it, and the link then carries it for the rest of the slot.
    #[inline(always)]
    fn gate(&mut self, n: u32, _now: u64, g: &GateIn) -> GateOut {
        // Two copies of the slot: the checked one compares each cycle's output with the
        // block's counter; the other stays as short as the block itself.
        if g.check {
            self.slot::<true>(n, g)
        } else {
            self.slot::<false>(n, g)
        }
    }

    #[inline]
    fn used_credits(&self, n: u32) -> u16 {
        self.engine[n as usize].used_credits()
    }

    /// At one block cycle per slot, an idle block (`PftModel::idle`) of the model engine.
    #[inline]
    fn gate_idle(&self, n: u32) -> bool {
        self.clk_q16 == 1 << 16 && self.engine[n as usize].idle()
    }

    #[inline]
    fn gate_skip(&mut self, n: u32, slots: u64) {
        self.engine[n as usize].skip_quiet(slots);
    }

    #[inline]
    fn gate_congested(&self, n: u32) -> bool {
        self.engine[n as usize].congested()
    }

    fn gate_error(&self, n: u32) -> Option<String> {
        if let Some(e) = &self.fault[n as usize] {
            return Some(e.clone());
        }
        let p = self.engine[n as usize].probe();
        (p.err_underflow || p.err_overflow).then(|| {
            format!(
                "credit error flags set (underflow {}, overflow {}), c = {}",
                p.err_underflow, p.err_overflow, p.c
            )
        })
    }

    fn gate_state(&self, n: u32) -> GateState {
        let p = self.engine[n as usize].probe();
        GateState {
            c: p.c,
            state: if p.state { "Congested" } else { "Normal" }.to_string(),
            reason: format!(
                "a throttle level that reaches P(send) = 0 below CREDIT_LIMIT does this (see docs/scenarios.md, 'levels that block completely'): f(c) = (c << m >> n) + k = {}{} now",
                p.level,
                if p.level >= 1 << 32 { " or more" } else { "" }
            ),
        }
    }

    fn gate_name(&self) -> &'static str {
        "PFT block"
    }

    /// The table's keys over the defaults, as a `[[pft]]` entry (checked by the scenario);
    /// every read-write register but SEED (each NIC keeps its own) and CREDIT_LIMIT (the
    /// link's), CTRL last.
    fn csr_writes(&self, regs: &toml::Table) -> Vec<(u8, u32)> {
        let Ok(cfg) = PftConfig::from_table(regs) else {
            return Vec::new(); // refused by validation before a run starts
        };
        cfg.writes(self.credit_limit, 1)
            .into_iter()
            .filter(|&(a, _)| a != addr::SEED && a != addr::CREDIT_LIMIT)
            .collect()
    }

    /// The blocks get floor((t+1)R) - floor(tR) clock cycles in flit slot t (R = clock
    /// ratio; 1 at R = 1).
    #[inline]
    fn cycle(&mut self, _now: u64, _g: &crate::net::scheme::Global) {
        let acc = self.clk_acc + self.clk_q16;
        self.clk_steps = acc >> 16;
        self.clk_acc = acc & 0xFFFF;
    }
}

/// The outputs of a block as the network last saw them (`csr_rdata` is not kept: the
/// network never reads the CSR port during a run, it reads 0 here).
pub fn outputs(g: GateOut) -> Outputs {
    Outputs {
        send: g.send,
        congested: g.congested,
        throttled: g.throttled,
        used_credits: g.used_credits,
        csr_rdata: 0,
    }
}

/// Short description of a PFT configuration: `off`, or `AT-RI m=18 n=0 k=0 0x250/0x2a0`
/// (with ` pipelined` after it for the pipelined build).
pub fn describe(p: &PftConfig) -> String {
    if !p.enabled() {
        return "off".to_string();
    }
    let det = match p.det_mode() {
        DetMode::Ft => "FT",
        DetMode::At => "AT",
    };
    let thr = match p.thr_mode() {
        ThrMode::Fi => "FI",
        ThrMode::Ri => "RI",
    };
    let r = p.regs();
    format!(
        "{det}-{thr} m={} n={} k={} {:#x}/{:#x}{}",
        r.m,
        r.n,
        r.k,
        r.th_enter,
        r.th_escape,
        if p.pipelined() { " pipelined" } else { "" }
    )
}
