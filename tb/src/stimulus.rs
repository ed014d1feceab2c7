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
    /// CTRL.gating of the current configuration (packet when true).
    gating: bool,
    /// Flits of the current packet still to send after its head (0: the next is a head).
    pkt_left: u32,
    /// The last cycle presented a head flit.
    shown_head: bool,
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
            gating: false,
            pkt_left: 0,
            shown_head: false,
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
        self.gating = self.rng.gen_bool(0.5);
        let ctrl = self.mode.ctrl() | if self.gating { regs::CTRL_GATING } else { 0 };
        self.pending.push_back((addr::CTRL, ctrl));
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
                if r.gen_bool(0.2) {
                    self.gating = !self.gating;
                }
                let gating = if self.gating { regs::CTRL_GATING } else { 0 };
                (self.mode.ctrl() & !regs::CTRL_ENABLE)
                    | en
                    | gating
                    | (r.gen::<u32>() & !regs::CTRL_MASK)
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
                // r_width: the extremes (1, 32; 0 and 63 act as 32) and narrow widths.
                let w: u32 = *[0, 32, 32, 1, 1, 8, 12, 16, 24, 31, 63]
                    .get(r.gen_range(0..11))
                    .unwrap();
                let (m, n) = if self.mode.ri() && (1..24).contains(&w) {
                    // a level that straddles 2^w for c up to a few hundred
                    (r.gen_range(0..=w.saturating_sub(6)), r.gen_range(0..=3))
                } else if self.mode.ri() {
                    (r.gen_range(18..=31), r.gen_range(0..=3))
                } else if r.gen_bool(0.8) {
                    (r.gen_range(0..=4), r.gen_range(0..=12))
                } else {
                    (r.gen_range(0..=31), r.gen_range(0..=31))
                };
                m | n << 8 | w << regs::SHAPE_R_WIDTH_SHIFT | (r.gen::<u32>() & !regs::SHAPE_MASK)
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
        // Now and then a CTRL write that switches the gating mode (flit/packet), keeping
        // the mode and enable: both gatings then occur in any long enough run.
        if self.rng.gen_bool(0.15) && self.pending.is_empty() {
            self.gating = !self.gating;
            let ctrl = self.mode.ctrl() | if self.gating { regs::CTRL_GATING } else { 0 };
            self.pending.push_back((addr::CTRL, ctrl));
        }
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
        // Packets of 1 to 8 flits (now and then 64) back to back: the head input is high
        // for a packet's first flit until it is sent; then the packet's other flits follow.
        // One cycle in 500 the input is random, since a NIC may drive anything.
        if prev.send {
            self.pkt_left = if self.shown_head {
                let len: u32 = if r.gen_bool(0.05) {
                    64
                } else {
                    r.gen_range(1..=8)
                };
                len - 1
            } else {
                self.pkt_left.saturating_sub(1)
            };
        }
        let mut flit_head = self.pkt_left == 0;
        if r.gen_ratio(1, 500) {
            flit_head = r.gen();
        }
        self.shown_head = flit_head;
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
            // SHAPE a quarter of the time: m, n and r_width change the throttle most.
            let a = if r.gen_bool(0.25) {
                addr::SHAPE
            } else {
                r.gen_range(0..16u8)
            };
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
            flit_head,
            credit_return,
            csr_we,
            csr_addr,
            csr_wdata,
        }
    }
}

/// What a stimulus made the block do with packet gating and the RI width, counted on the
/// reference model: the equivalence and Verilog-replay tests assert these, so that "equal"
/// covers the features.
#[derive(Clone, Copy, Debug, Default)]
pub struct FeatureCoverage {
    /// Packet gating, a ready head flit held back by the throttle.
    pub heads_held: u64,
    /// Packet gating, a non-head flit sent although the throttle's verdict was "hold".
    pub bodies_passed: u64,
    /// RI throttled with r_width 1, with 2..=31, and with all 32 bits (32, 0 or > 32).
    pub ri_w1: u64,
    pub ri_w_narrow: u64,
    pub ri_w32: u64,
}

impl FeatureCoverage {
    /// Counts one cycle: `before` is the model's state before it stepped on `i`, `o` the
    /// outputs of that cycle.
    pub fn count(&mut self, before: &pft_hdl::model::PftModel, i: &Inputs, o: &Outputs) {
        let ready = !i.reset && i.flit_valid && before.c < before.regs.credit_limit;
        if ready && before.gate_packet() && !before.throttle_ok() {
            self.heads_held += (i.flit_head && o.throttled) as u64;
            self.bodies_passed += (!i.flit_head && o.send) as u64;
        }
        if o.throttled && before.thr_ri() {
            match before.regs.r_width {
                1 => self.ri_w1 += 1,
                2..=31 => self.ri_w_narrow += 1,
                _ => self.ri_w32 += 1,
            }
        }
    }

    /// The features were exercised: heads held and non-heads passed in packet gating, and
    /// for the RI modes, throttling at r_width 1, a narrow width and 32 bits.
    pub fn check(&self, mode: Mode) -> Result<(), String> {
        let ri_ok = !mode.ri() || (self.ri_w1 > 0 && self.ri_w_narrow > 0 && self.ri_w32 > 0);
        if self.heads_held > 0 && self.bodies_passed > 0 && ri_ok {
            Ok(())
        } else {
            Err(format!(
                "{}: feature coverage too low: {self:?}",
                mode.name()
            ))
        }
    }
}

/// `FeatureCoverage` of `cycles` cycles of the stimulus `mode`/`seed` on the reference model.
pub fn feature_coverage(mode: Mode, seed: u64, cycles: u64) -> FeatureCoverage {
    let mut m = pft_hdl::model::PftModel::new();
    let mut stim = RandomStimulus::new(mode, seed);
    let mut prev = Outputs::default();
    let mut cov = FeatureCoverage::default();
    for _ in 0..cycles {
        let i = stim.next(&prev);
        let before = m;
        prev = m.step(&i);
        cov.count(&before, &i, &prev);
    }
    cov
}
