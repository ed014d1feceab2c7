//! `PftEngine`: one NIC's PFT block, the reference model, the rust-hdl RTL or the exported
//! Verilog under Verilator (one choice per run), of the default or the pipelined build
//! (`PftConfig::pipelined`), configured like the hardware: a reset cycle, then CSR writes.

use super::config::PftConfig;
use super::verilator::{self, VerilatorBlock};
use pft_hdl::model::{Inputs, Outputs, PftModel};
use pft_hdl::model_pipelined::PftModelPipelined;
use pft_hdl::stepper::{Engine, Probe, RtlStepper, RtlStepperPipelined};
use serde::{Deserialize, Serialize};

/// Which implementation of the PFT block runs in every NIC (one choice per run).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EngineKind {
    /// The plain-Rust reference model (fast; default).
    #[default]
    Model,
    /// The rust-hdl RTL stepped by hand (about 60k block-cycles/s).
    Rtl,
    /// The exported Verilog (`synth/out/pft_injector.v`) under Verilator (`cc::pft::verilator`).
    Verilator,
}

/// One NIC's PFT block. The pipelined build's model is boxed so that the default model's
/// variant (the one the hot path steps) keeps its size. Both builds under Verilator are a
/// `VerilatorBlock` (of the build's library).
pub enum PftEngine {
    Model(PftModel),
    ModelPipelined(Box<PftModelPipelined>),
    Rtl(RtlStepper),
    RtlPipelined(RtlStepperPipelined),
    Verilator(Box<VerilatorBlock>),
}

impl PftEngine {
    /// A block after its prelude: one reset cycle, then one CSR write per cycle
    /// (`PftConfig::writes`, CTRL last), with no flit and no credit. These 12 cycles happen
    /// before network cycle 0.
    pub fn configured(kind: EngineKind, cfg: &PftConfig, credit_limit: u16, seed: u32) -> Self {
        let mut e = match (kind, cfg.pipelined()) {
            (EngineKind::Model, false) => PftEngine::Model(PftModel::new()),
            (EngineKind::Model, true) => {
                PftEngine::ModelPipelined(Box::new(PftModelPipelined::new()))
            }
            (EngineKind::Rtl, false) => PftEngine::Rtl(RtlStepper::new()),
            (EngineKind::Rtl, true) => PftEngine::RtlPipelined(RtlStepperPipelined::new()),
            (EngineKind::Verilator, _) => PftEngine::Verilator(Box::new(VerilatorBlock::new(
                // loaded (or refused) before the network is built: `cc::pft::Pft::build`
                verilator::library(cfg.build()).expect("the Verilator library is loaded first"),
            ))),
        };
        for i in cfg.block_regs(credit_limit, seed).prelude() {
            e.step(&i);
        }
        e
    }

    /// One cycle.
    #[inline]
    pub fn step(&mut self, i: &Inputs) -> Outputs {
        match self {
            PftEngine::Model(m) if i.is_quiet() => m.step_quiet(),
            PftEngine::Model(m) => m.step(i),
            PftEngine::ModelPipelined(m) => m.step(i),
            PftEngine::Rtl(r) => r.step(i),
            PftEngine::RtlPipelined(r) => r.step(i),
            PftEngine::Verilator(v) => v.step(i),
        }
    }

    /// One cycle with no reset and no CSR access (a network slot's cycle): the reference
    /// model's `step_port` or `step_quiet`, the other engines' `step`.
    #[inline(always)]
    pub fn step_port(&mut self, flit_valid: bool, flit_head: bool, credit_return: u8) -> Outputs {
        match self {
            PftEngine::Model(m) if !flit_valid && credit_return == 0 => m.step_quiet(),
            PftEngine::Model(m) => m.step_port(flit_valid, flit_head, credit_return),
            _ => self.step(&Inputs {
                flit_valid,
                flit_head,
                credit_return,
                ..Default::default()
            }),
        }
    }

    /// The block is idle (`PftModel::idle`): only the default build's reference model says
    /// so; the others step every cycle.
    #[inline]
    pub fn idle(&self) -> bool {
        matches!(self, PftEngine::Model(m) if m.idle())
    }

    /// `k` quiet cycles of an idle block at once (`PftModel::skip_quiet`).
    #[inline]
    pub fn skip_quiet(&mut self, k: u64) {
        match self {
            PftEngine::Model(m) => m.skip_quiet(k),
            _ => assert_eq!(k, 0, "only the model engine skips quiet cycles"),
        }
    }

    /// The registered state after `k` more quiet cycles of an idle block (`probe` at
    /// `k = 0`): what a NIC that skips its idle cycles would show had it stepped them.
    pub fn probe_after(&self, k: u64) -> Probe {
        match self {
            PftEngine::Model(m) if k > 0 => {
                let mut m = *m;
                m.skip_quiet(k);
                m.probe()
            }
            _ => self.probe(),
        }
    }

    /// The block's used-credit counter `c` now (between cycles): the NIC's credit state.
    #[inline]
    pub fn used_credits(&self) -> u16 {
        match self {
            PftEngine::Model(m) => m.c,
            PftEngine::ModelPipelined(m) => m.base.c,
            PftEngine::Rtl(r) => r.probe().c,
            PftEngine::RtlPipelined(r) => r.probe().c,
            PftEngine::Verilator(v) => v.used_credits(),
        }
    }

    /// Congested as the throttle sees it, now.
    #[inline]
    pub fn congested(&self) -> bool {
        match self {
            PftEngine::Model(m) => m.congested(),
            PftEngine::ModelPipelined(m) => m.base.congested(),
            PftEngine::Rtl(r) => r.probe().state,
            PftEngine::RtlPipelined(r) => r.probe().state,
            PftEngine::Verilator(v) => v.congested(),
        }
    }

    /// The block's registered state now.
    pub fn probe(&self) -> Probe {
        match self {
            PftEngine::Model(m) => m.probe(),
            PftEngine::ModelPipelined(m) => m.probe(),
            PftEngine::Rtl(r) => r.probe(),
            PftEngine::RtlPipelined(r) => r.probe(),
            PftEngine::Verilator(v) => v.probe(),
        }
    }
}

/// The RI generator seed of NIC `nic` for run seed `run_seed`: splitmix64 of both, never 0,
/// so that NICs do not throttle in lock-step.
pub fn nic_seed(run_seed: u64, nic: u32) -> u32 {
    let mut z = run_seed ^ (0x5046_5400_0000_0000 | nic as u64);
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    let s = (z ^ (z >> 32)) as u32;
    if s == 0 {
        1
    } else {
        s
    }
}
