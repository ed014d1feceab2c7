//! Constrained-random stimulus for the block: phases of credit pressure that drive `c` up and
//! down through the thresholds, random register rewrites mid-run, random CSR reads, rare
//! excess credit returns and resets. Seeded; the same seed gives the same cycles.

use pft_hdl::model::{Inputs, Outputs};
use pft_hdl::regs::{self, addr};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::collections::VecDeque;

/// The four operating modes (CTRL.det_mode, CTRL.thr_mode).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    FtFi,
    FtRi,
    AtFi,
    AtRi,
}

impl Mode {
    pub const ALL: [Mode; 4] = [Mode::FtFi, Mode::FtRi, Mode::AtFi, Mode::AtRi];
    /// CTRL value with the block enabled.
    pub fn ctrl(self) -> u32 {
        regs::CTRL_ENABLE
            | match self {
                Mode::FtFi => 0,
                Mode::FtRi => regs::CTRL_THR_RI,
                Mode::AtFi => regs::CTRL_DET_AT,
                Mode::AtRi => regs::CTRL_DET_AT | regs::CTRL_THR_RI,
            }
    }
    pub fn name(self) -> &'static str {
        match self {
            Mode::FtFi => "ft-fi",
            Mode::FtRi => "ft-ri",
            Mode::AtFi => "at-fi",
            Mode::AtRi => "at-ri",
        }
    }
    pub fn ri(self) -> bool {
        matches!(self, Mode::FtRi | Mode::AtRi)
    }
}

/// Seeded random stimulus for one mode.
pub struct RandomStimulus {
    rng: Xoshiro256PlusPlus,
    mode: Mode,
    cycle: u64,
    pending: VecDeque<(u8, u32)>,
    limit: u32,
    phase_left: u32,
    p_valid: f64,
    p_return: f64,
    max_return: u8,
}

impl RandomStimulus {
    pub fn new(mode: Mode, seed: u64) -> Self {
        let mut s = RandomStimulus {
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            mode,
            cycle: 0,
            pending: VecDeque::new(),
            limit: regs::RESET_CREDIT_LIMIT as u32,
            phase_left: 0,
            p_valid: 1.0,
            p_return: 0.5,
            max_return: 1,
        };
        s.configure_all();
        s
    }

    /// Queue a full configuration: every register, then CTRL.
    fn configure_all(&mut self) {
        self.limit = self.rng.gen_range(4..=400);
        let w = (addr::CREDIT_LIMIT, self.limit);
        self.pending.push_back(w);
        for a in [
            addr::TH_ENTER,
            addr::TH_ESCAPE,
            addr::AT_WIN_E,
            addr::AT_CNT_E,
            addr::AT_WIN_S,
            addr::AT_CNT_S,
            addr::SHAPE,
            addr::K,
            addr::SEED,
        ] {
            let v = self.value_for(a);
            self.pending.push_back((a, v));
        }
        self.pending.push_back((addr::CTRL, self.mode.ctrl()));
    }

    /// A plausible (and sometimes extreme) value for a register.
    fn value_for(&mut self, a: u8) -> u32 {
        let r = &mut self.rng;
        match a {
            addr::CTRL => {
                // Keep the mode; the block is disabled now and then.
                let en = if r.gen_bool(0.9) {
                    regs::CTRL_ENABLE
                } else {
                    0
                };
                (self.mode.ctrl() & !regs::CTRL_ENABLE) | en | (r.gen::<u32>() & !regs::CTRL_MASK)
            }
            addr::CREDIT_LIMIT => {
                if r.gen_bool(0.05) {
                    r.gen_range(0..=0xFFFF)
                } else {
                    self.limit = r.gen_range(4..=400);
                    self.limit
                }
            }
            // Thresholds straddle the range c lives in, in both orders.
            addr::TH_ENTER | addr::TH_ESCAPE => r.gen_range(0..=self.limit + 8),
            addr::AT_WIN_E | addr::AT_WIN_S => {
                if r.gen_bool(0.05) {
                    r.gen_range(0..=3)
                } else {
                    r.gen_range(0..=120)
                }
            }
            addr::AT_CNT_E | addr::AT_CNT_S => r.gen_range(0..=100),
            addr::SHAPE => {
                let (m, n) = if self.mode.ri() {
                    (r.gen_range(18..=31), r.gen_range(0..=3))
                } else if r.gen_bool(0.8) {
                    (r.gen_range(0..=4), r.gen_range(0..=12))
                } else {
                    (r.gen_range(0..=31), r.gen_range(0..=31))
                };
                m | n << 8 | (r.gen::<u32>() & !regs::SHAPE_MASK)
            }
            addr::K => {
                if r.gen_bool(0.1) {
                    r.gen::<u32>()
                } else {
                    r.gen_range(0..=16)
                }
            }
            addr::SEED => {
                if r.gen_bool(0.1) {
                    0
                } else {
                    r.gen()
                }
            }
            _ => r.gen(),
        }
    }

    fn new_phase(&mut self) {
        let r = &mut self.rng;
        self.phase_left = r.gen_range(50..=4000);
        self.p_valid = *[1.0, 1.0, 0.9, 0.5, 0.1].get(r.gen_range(0..5)).unwrap();
        self.p_return = r.gen_range(0.0..=1.0);
        self.max_return = if r.gen_bool(0.8) {
            1
        } else {
            r.gen_range(1..=4)
        };
    }

    /// Inputs of the next cycle, given the outputs of the previous one.
    pub fn next(&mut self, prev: &Outputs) -> Inputs {
        let cyc = self.cycle;
        self.cycle += 1;
        if cyc < 2 {
            return Inputs {
                reset: true,
                ..Default::default()
            };
        }
        if self.rng.gen_ratio(1, 200_000) {
            self.configure_all();
            return Inputs {
                reset: true,
                ..Default::default()
            };
        }
        if self.phase_left == 0 {
            self.new_phase();
        }
        self.phase_left -= 1;
        let r = &mut self.rng;
        let flit_valid = r.gen_bool(self.p_valid);
        let c = prev.used_credits as u32;
        let credit_return = if r.gen_ratio(1, 20_000) {
            // More credits than are in use (or just many): exercises the underflow flag.
            r.gen_range(0..=255)
        } else if r.gen_bool(self.p_return) {
            (r.gen_range(0..=self.max_return as u32)).min(c) as u8
        } else {
            0
        };
        if self.pending.is_empty() && r.gen_ratio(1, 1500) {
            let a = r.gen_range(0..16u8);
            let v = self.value_for(a);
            self.pending.push_back((a, v));
        }
        let (csr_we, csr_addr, csr_wdata) = match self.pending.pop_front() {
            Some((a, v)) => (true, a, v),
            None => (false, self.rng.gen_range(0..16), self.rng.gen()),
        };
        Inputs {
            reset: false,
            flit_valid,
            credit_return,
            csr_we,
            csr_addr,
            csr_wdata,
        }
    }
}
