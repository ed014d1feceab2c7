//! Hand-stepped simulation of `PftInjector` (no threads), and the `Engine` trait that the
//! RTL and the reference model share so that every tool can run either.

use super::model::{Inputs, Outputs, PftModel};
use super::model_pipelined::PftModelPipelined;
use super::pft_injector::PftInjector;
use super::pft_injector_pipelined::PftInjectorPipelined;
use rust_hdl::prelude::*;

/// Internal state of the block after a cycle, for traces and waveforms.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Probe {
    pub c: u16,
    /// Congested as the throttle sees it (state and enable).
    pub state: bool,
    pub win: u16,
    pub hit: u16,
    pub gap: u16,
    pub r: u32,
    /// f(c), saturated at 2^32 (so a value of 2^32 means "at least"). In the pipelined
    /// build: the level register L (f of the `c` two cycles earlier).
    pub level: u64,
    pub cnt_congested: u32,
    pub cnt_sent: u32,
    pub cnt_throttled: u32,
    pub err_underflow: bool,
    pub err_overflow: bool,
}

/// A cycle-by-cycle implementation of the block.
pub trait Engine {
    /// Apply the inputs of one cycle; return that cycle's outputs; advance the clock.
    fn step(&mut self, i: &Inputs) -> Outputs;
    /// The registered state now (between two `step`s).
    fn probe(&self) -> Probe;
}

impl Engine for PftModel {
    #[inline]
    fn step(&mut self, i: &Inputs) -> Outputs {
        PftModel::step(self, i)
    }
    fn probe(&self) -> Probe {
        Probe {
            c: self.c,
            state: self.congested(),
            win: self.win,
            hit: self.hit,
            gap: self.gap,
            r: self.r,
            level: self.level().min(1 << 32),
            cnt_congested: self.cnt_congested,
            cnt_sent: self.cnt_sent,
            cnt_throttled: self.cnt_throttled,
            err_underflow: self.err_underflow,
            err_overflow: self.err_overflow,
        }
    }
}

impl Engine for PftModelPipelined {
    #[inline]
    fn step(&mut self, i: &Inputs) -> Outputs {
        PftModelPipelined::step(self, i)
    }
    fn probe(&self) -> Probe {
        Probe {
            level: self.level.min(1 << 32),
            ..self.base.probe()
        }
    }
}

/// The rust-hdl RTL, stepped by hand: inputs change with the falling edge and settle before
/// the rising edge (avoids the delta-cycle race of changing both in one settle).
pub struct RtlStepper {
    pub uut: Box<PftInjector>,
}

/// `RtlStepper` for the pipelined build.
pub struct RtlStepperPipelined {
    pub uut: Box<PftInjectorPipelined>,
}

/// The stepper of a top block type: both builds have the same ports and sub-block names
/// (`credit`, `fsm`, `fi`, `ri`, `counters`); `$level` is the path of the level and its
/// overflow flag.
macro_rules! rtl_stepper {
    ($stepper:ident, $top:ident, $($level:ident).+) => {
        impl Default for $stepper {
            fn default() -> Self {
                Self::new()
            }
        }

        impl $stepper {
            pub fn new() -> Self {
                let mut uut = Box::new($top::default());
                uut.connect_all();
                check_all(uut.as_ref())
                    .expect(concat!(stringify!($top), " fails rust-hdl's connection checks"));
                // Settle the power-up state with the clock high, so the first falling edge
                // is clean.
                uut.clock.next = Clock { clk: true };
                assert!(simulate(uut.as_mut(), 100), "the block did not settle");
                $stepper { uut }
            }
        }

        impl Engine for $stepper {
            #[inline]
            fn step(&mut self, i: &Inputs) -> Outputs {
                let u = self.uut.as_mut();
                u.clock.next = Clock { clk: false };
                u.reset.next = i.reset;
                u.flit_valid.next = i.flit_valid;
                u.flit_head.next = i.flit_head;
                u.credit_return.next = (i.credit_return as u64).into();
                u.csr_we.next = i.csr_we;
                u.csr_addr.next = ((i.csr_addr & 0xF) as u64).into();
                u.csr_wdata.next = (i.csr_wdata as u64).into();
                assert!(simulate(u, 100), "the block did not settle");
                let out = Outputs {
                    send: u.send.val(),
                    congested: u.congested.val(),
                    throttled: u.throttled.val(),
                    used_credits: u.used_credits.val().index() as u16,
                    csr_rdata: u.csr_rdata.val().index() as u32,
                };
                u.clock.next = Clock { clk: true };
                assert!(simulate(u, 100), "the block did not settle");
                out
            }

            fn probe(&self) -> Probe {
                let u = self.uut.as_ref();
                let lv = &u.$($level).+;
                let level = if lv.level_ovf.val() {
                    1u64 << 32
                } else {
                    lv.level.val().index() as u64
                };
                Probe {
                    c: u.credit.c.val().index() as u16,
                    state: u.fsm.congested.val(),
                    win: u.fsm.win.val().index() as u16,
                    hit: u.fsm.hit.val().index() as u16,
                    gap: u.fi.gap.val().index() as u16,
                    r: u.ri.r.val().index() as u32,
                    level,
                    cnt_congested: u.counters.cnt_congested.val().index() as u32,
                    cnt_sent: u.counters.cnt_sent.val().index() as u32,
                    cnt_throttled: u.counters.cnt_throttled.val().index() as u32,
                    err_underflow: u.credit.err_underflow.val(),
                    err_overflow: u.credit.err_overflow.val(),
                }
            }
        }
    };
}

rtl_stepper!(RtlStepper, PftInjector, shifter);
rtl_stepper!(RtlStepperPipelined, PftInjectorPipelined, level_pipe);
