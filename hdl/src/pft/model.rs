//! Plain-Rust reference model of `PftInjector`: cycle-exact, no rust-hdl types.
//!
//! `step` takes the inputs of cycle t, returns the outputs of cycle t (computed from the
//! registered state of cycle t and the inputs, like the RTL's combinational outputs) and
//! commits the state of cycle t+1. Power-up state is all zeros, like the RTL's DFFs; assert
//! `reset` for one cycle to load the reset values.

use crate::regs::{self, addr, Access, Field};

/// Inputs of one cycle (the top block's input ports).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Inputs {
    pub reset: bool,
    pub flit_valid: bool,
    /// The flit at the head is a packet's first flit (used in packet gating only).
    pub flit_head: bool,
    /// Credits the switch returns this cycle (0..=255).
    pub credit_return: u8,
    pub csr_we: bool,
    pub csr_addr: u8,
    pub csr_wdata: u32,
}

impl Inputs {
    /// No reset, no flit offered, no credit back, no CSR write and the CSR port at address
    /// 0: a cycle `PftModel::step_quiet` may step (`flit_head` and `csr_wdata` do not
    /// matter then).
    #[inline]
    pub fn is_quiet(&self) -> bool {
        !self.reset
            && !self.flit_valid
            && self.credit_return == 0
            && !self.csr_we
            && self.csr_addr == 0
    }
}

/// Outputs of one cycle (the top block's output ports).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Outputs {
    pub send: bool,
    pub congested: bool,
    pub throttled: bool,
    pub used_credits: u16,
    pub csr_rdata: u32,
}

/// The software-visible registers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Regs {
    pub ctrl: u32,
    pub credit_limit: u16,
    pub th_enter: u16,
    pub th_escape: u16,
    pub at_win_e: u16,
    pub at_cnt_e: u16,
    pub at_win_s: u16,
    pub at_cnt_s: u16,
    pub m: u8,
    pub n: u8,
    pub k: u16,
    /// SHAPE.r_width: bits of r compared with f(c) (0 and > 32 act as 32).
    pub r_width: u8,
    pub seed: u32,
}

impl Regs {
    pub fn reset() -> Self {
        Regs {
            ctrl: regs::RESET_CTRL,
            credit_limit: regs::RESET_CREDIT_LIMIT,
            th_enter: regs::RESET_TH_ENTER,
            th_escape: regs::RESET_TH_ESCAPE,
            at_win_e: regs::RESET_AT_WIN_E,
            at_cnt_e: regs::RESET_AT_CNT_E,
            at_win_s: regs::RESET_AT_WIN_S,
            at_cnt_s: regs::RESET_AT_CNT_S,
            m: regs::RESET_M,
            n: regs::RESET_N,
            k: regs::RESET_K,
            r_width: regs::RESET_R_WIDTH,
            seed: regs::RESET_SEED,
        }
    }
    pub fn shape(&self) -> u32 {
        regs::shape_word(self.m, self.n) | (self.r_width as u32) << regs::SHAPE_R_WIDTH_SHIFT
    }

    /// A CSR read of `a` (0..=0xF) if it is a register `Regs` holds (the RW ones), else None.
    pub fn read(&self, a: u8) -> Option<u32> {
        (regs::REGS[(a & regs::ADDR_MASK) as usize].access == Access::Rw)
            .then(|| self.block().read(a))
    }

    /// The value of RW field `f` (0 for the fields of registers `Regs` does not hold).
    pub fn field(&self, f: &Field) -> u32 {
        (self.read(f.reg).unwrap_or(0) & f.mask()) >> f.offset
    }

    /// Sets RW field `f` to `v` like a CSR write of its register with its other fields kept
    /// (no change for the fields of registers `Regs` does not hold).
    pub fn set_field(&mut self, f: &Field, v: u32) {
        if let Some(word) = self.read(f.reg) {
            let mut block = self.block();
            block.write(f.reg, (word & !f.mask()) | ((v << f.offset) & f.mask()));
            *self = block.regs;
        }
    }

    /// A block holding these registers, for its CSR port: `PftModel::read` and `write` are
    /// the one address decode. (`PftModel::read` runs every cycle; split between it and
    /// `Regs`, it cost the network simulator 3% more instructions.)
    fn block(&self) -> PftModel {
        PftModel {
            regs: *self,
            ..PftModel::default()
        }
    }

    /// The CSR writes that load these values after a reset, in `regs::CONFIG_ORDER`.
    pub fn csr_writes(&self) -> [(u8, u32); regs::RW_REGS] {
        let block = self.block();
        regs::CONFIG_ORDER.map(|a| (a, block.read(a)))
    }

    /// The configuration prelude: one reset cycle, then `csr_writes`, one per cycle, with no
    /// flit and no credit (12 cycles).
    pub fn prelude(&self) -> Vec<Inputs> {
        std::iter::once(Inputs {
            reset: true,
            ..Default::default()
        })
        .chain(self.csr_writes().iter().map(|&(a, d)| Inputs {
            csr_we: true,
            csr_addr: a,
            csr_wdata: d,
            ..Default::default()
        }))
        .collect()
    }
}

/// Everything the block holds, registers included.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PftModel {
    pub regs: Regs,
    /// Used credits.
    pub c: u16,
    pub err_underflow: bool,
    pub err_overflow: bool,
    /// The one-bit FSM: Normal (false) / Congested (true).
    pub state: bool,
    /// AT window and hit counters.
    pub win: u16,
    pub hit: u16,
    /// FI: cycles since the last flit sent, saturating.
    pub gap: u16,
    /// RI: the free-running generator.
    pub r: u32,
    pub cnt_congested: u32,
    pub cnt_sent: u32,
    pub cnt_throttled: u32,
}

/// `f(c) = ((c << m) >> n) + k`, exact (up to 2^47 + 2^16).
#[inline]
pub fn level(c: u16, m: u8, n: u8, k: u16) -> u64 {
    (((c as u64) << m) >> n) + k as u64
}

/// A one-bit field's bits (`mask`, from `regs`) when `on`, else 0.
#[inline]
const fn flag(on: bool, mask: u32) -> u32 {
    if on {
        mask
    } else {
        0
    }
}

/// One step of the RI generator: Marsaglia's xorshift32 (13, 17, 5), a linear shift-xor
/// generator of period 2^32 - 1 whose successive outputs are not shifted copies.
#[inline]
pub fn xorshift32(mut x: u32) -> u32 {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    x
}

impl PftModel {
    /// Power-up state (all zeros, like the RTL's flip-flops before reset).
    pub fn new() -> Self {
        Self::default()
    }

    /// The state right after a reset cycle.
    pub fn after_reset() -> Self {
        let mut m = Self::new();
        m.step(&Inputs {
            reset: true,
            ..Default::default()
        });
        m
    }

    #[inline]
    pub fn enabled(&self) -> bool {
        self.regs.ctrl & regs::CTRL_ENABLE != 0
    }
    #[inline]
    pub fn det_at(&self) -> bool {
        self.regs.ctrl & regs::CTRL_DET_AT != 0
    }
    #[inline]
    pub fn thr_ri(&self) -> bool {
        self.regs.ctrl & regs::CTRL_THR_RI != 0
    }
    /// Packet gating: the throttle decides only for head flits.
    #[inline]
    pub fn gate_packet(&self) -> bool {
        self.regs.ctrl & regs::CTRL_GATING != 0
    }
    /// Congested as the throttle sees it (the state is held Normal while disabled).
    #[inline]
    pub fn congested(&self) -> bool {
        self.state && self.enabled()
    }
    /// The current level f(c).
    #[inline]
    pub fn level(&self) -> u64 {
        level(self.c, self.regs.m, self.regs.n, self.regs.k)
    }
    /// The throttle's verdict this cycle (true: a flit may leave).
    #[inline]
    pub fn throttle_ok(&self) -> bool {
        if !self.congested() {
            return true;
        }
        let gate = if self.thr_ri() {
            (self.r & regs::r_mask(self.regs.r_width)) as u64
        } else {
            self.gap as u64
        };
        gate >= self.level()
    }

    /// The CSR read port (combinational read of registered values).
    #[inline]
    pub fn read(&self, a: u8) -> u32 {
        let r = &self.regs;
        match a & regs::ADDR_MASK {
            addr::CTRL => r.ctrl,
            addr::CREDIT_LIMIT => r.credit_limit as u32,
            addr::TH_ENTER => r.th_enter as u32,
            addr::TH_ESCAPE => r.th_escape as u32,
            addr::AT_WIN_E => r.at_win_e as u32,
            addr::AT_CNT_E => r.at_cnt_e as u32,
            addr::AT_WIN_S => r.at_win_s as u32,
            addr::AT_CNT_S => r.at_cnt_s as u32,
            addr::SHAPE => r.shape(),
            addr::K => r.k as u32,
            addr::SEED => r.seed,
            addr::STATUS => {
                flag(self.congested(), regs::STATUS_CONGESTED)
                    | flag(self.err_underflow, regs::STATUS_ERR_UNDERFLOW)
                    | flag(self.err_overflow, regs::STATUS_ERR_OVERFLOW)
                    | (self.c as u32) << regs::STATUS_C_SHIFT
            }
            addr::CNT_CONGESTED => self.cnt_congested,
            addr::CNT_SENT => self.cnt_sent,
            addr::CNT_THROTTLED => self.cnt_throttled,
            // AT_STATUS
            _ => {
                (self.win as u32) << regs::AT_STATUS_WIN_SHIFT
                    | (self.hit as u32) << regs::AT_STATUS_HIT_SHIFT
            }
        }
    }

    /// Advance one quiet clock cycle (`Inputs::is_quiet`). The same state and outputs as
    /// `step` with such inputs (`quiet_step_is_step` compares them over random states),
    /// without the work those inputs make moot: a network simulation steps an idle NIC's
    /// block this way.
    #[inline]
    pub fn step_quiet(&mut self) -> Outputs {
        let congested = self.congested();
        let out = Outputs {
            send: false,
            congested,
            throttled: false,
            used_credits: self.c,
            csr_rdata: self.regs.ctrl,
        };
        let next_state = self.next_detector(&Inputs::default());
        if self.c > self.regs.credit_limit {
            self.err_overflow = true;
        }
        self.gap = self.gap.saturating_add(1);
        self.r = xorshift32(self.r);
        self.cnt_congested = self.cnt_congested.wrapping_add(congested as u32);
        (self.state, self.win, self.hit) = next_state;
        out
    }

    /// Advance one clock cycle.
    #[inline]
    pub fn step(&mut self, i: &Inputs) -> Outputs {
        let verdict = self.throttle_ok();
        self.step_with(i, verdict)
    }

    /// Advance one cycle whose only inputs are the flit port and the credit return (no
    /// reset, no CSR write, the CSR port at address 0): the cycle of a NIC in a network run.
    /// It is `step` itself, inlined with those inputs fixed, so that the compiler drops the
    /// CSR decode, the reset and the window restart (`port_step_is_step` holds it to `step`).
    #[inline(always)]
    pub fn step_port(&mut self, flit_valid: bool, flit_head: bool, credit_return: u8) -> Outputs {
        let i = Inputs {
            flit_valid,
            flit_head,
            credit_return,
            ..Default::default()
        };
        let verdict = self.throttle_ok();
        self.step_inline(&i, verdict)
    }

    /// Advance one clock cycle with the throttle's verdict `verdict` (`throttle_ok` of this
    /// cycle in the default build; a precomputed one in the pipelined build,
    /// `PftModelPipelined`). Everything else is the same block.
    #[inline]
    pub fn step_with(&mut self, i: &Inputs, verdict: bool) -> Outputs {
        self.step_inline(i, verdict)
    }

    /// The body of `step_with`, inlined where its inputs are partly constant.
    #[inline(always)]
    fn step_inline(&mut self, i: &Inputs, verdict: bool) -> Outputs {
        // ---- cycle t: decisions from registered values ----
        let credit_ok = self.c < self.regs.credit_limit;
        // Packet gating: a flit that is not a packet's first passes the throttle.
        let throttle_ok = verdict || (self.gate_packet() && !i.flit_head);
        let ready = !i.reset && i.flit_valid && credit_ok;
        let send = ready && throttle_ok;
        let out = Outputs {
            send,
            congested: self.congested(),
            throttled: ready && !throttle_ok,
            used_credits: self.c,
            csr_rdata: self.read(i.csr_addr),
        };
        if i.reset {
            *self = PftModel {
                regs: Regs::reset(),
                gap: regs::RESET_GAP,
                r: regs::RESET_SEED,
                ..Default::default()
            };
            return out;
        }

        // ---- commit t+1 ----
        let next_state = self.next_detector(i);
        let now_congested = out.congested;

        // Credit counter: 17-bit sum so that underflow is seen, never wrapped.
        let sum = self.c as u32 + send as u32;
        let ret = i.credit_return as u32;
        let c_next = if ret > sum {
            self.err_underflow = true;
            0
        } else {
            sum - ret
        };
        if self.c > self.regs.credit_limit {
            self.err_overflow = true;
        }
        self.c = c_next as u16;

        self.gap = if send { 0 } else { self.gap.saturating_add(1) };
        self.r = xorshift32(self.r);
        self.cnt_congested = self.cnt_congested.wrapping_add(now_congested as u32);
        self.cnt_sent = self.cnt_sent.wrapping_add(send as u32);
        self.cnt_throttled = self.cnt_throttled.wrapping_add(out.throttled as u32);
        (self.state, self.win, self.hit) = next_state;

        if i.csr_we {
            self.write(i.csr_addr, i.csr_wdata);
        }
        out
    }

    /// Detector: next (state, win, hit). FT and AT per spec §2; a write to a detector register
    /// restarts the AT window.
    #[inline(always)]
    fn next_detector(&self, i: &Inputs) -> (bool, u16, u16) {
        let r = &self.regs;
        if !self.enabled() {
            return (false, 0, 0);
        }
        let c = self.c;
        let hit_now = if self.state {
            c < r.th_escape
        } else {
            c > r.th_enter
        };
        if !self.det_at() {
            // FT: switch on the first hit.
            return (self.state ^ hit_now, 0, 0);
        }
        let (w, tp) = if self.state {
            (r.at_win_s, r.at_cnt_s)
        } else {
            (r.at_win_e, r.at_cnt_e)
        };
        let win_tmp = if self.win == w {
            0
        } else {
            self.win.wrapping_add(1)
        };
        let hit_tmp = if win_tmp == w {
            0
        } else {
            self.hit.wrapping_add(hit_now as u16)
        };
        let restart = i.csr_we && regs::restarts_window(i.csr_addr & regs::ADDR_MASK);
        if hit_tmp >= tp {
            (!self.state, 0, 0)
        } else if restart {
            (self.state, 0, 0)
        } else {
            (self.state, win_tmp, hit_tmp)
        }
    }

    /// A CSR write, committed at the clock edge (after the cycle's counter updates, so a write
    /// to a counter or an error bit wins over this cycle's increment or set).
    fn write(&mut self, a: u8, d: u32) {
        let r = &mut self.regs;
        match a & regs::ADDR_MASK {
            addr::CTRL => r.ctrl = d & regs::CTRL_MASK,
            addr::CREDIT_LIMIT => r.credit_limit = d as u16,
            addr::TH_ENTER => r.th_enter = d as u16,
            addr::TH_ESCAPE => r.th_escape = d as u16,
            addr::AT_WIN_E => r.at_win_e = d as u16,
            addr::AT_CNT_E => r.at_cnt_e = d as u16,
            addr::AT_WIN_S => r.at_win_s = d as u16,
            addr::AT_CNT_S => r.at_cnt_s = d as u16,
            addr::SHAPE => {
                r.m = ((d & regs::SHAPE_M_MASK) >> regs::SHAPE_M_SHIFT) as u8;
                r.n = ((d & regs::SHAPE_N_MASK) >> regs::SHAPE_N_SHIFT) as u8;
                r.r_width = ((d & regs::SHAPE_R_WIDTH_MASK) >> regs::SHAPE_R_WIDTH_SHIFT) as u8;
            }
            addr::K => r.k = d as u16,
            addr::SEED => {
                let s = if d == 0 { regs::RESET_SEED } else { d };
                r.seed = s;
                self.r = s;
            }
            addr::STATUS => {
                if d & regs::STATUS_ERR_UNDERFLOW != 0 {
                    self.err_underflow = false;
                }
                if d & regs::STATUS_ERR_OVERFLOW != 0 {
                    self.err_overflow = false;
                }
            }
            addr::CNT_CONGESTED => self.cnt_congested = 0,
            addr::CNT_SENT => self.cnt_sent = 0,
            addr::CNT_THROTTLED => self.cnt_throttled = 0,
            _ => {} // AT_STATUS is read-only
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// Every input that `step_quiet` leaves out makes a cycle not quiet.
    #[test]
    fn only_quiet_inputs_are_quiet() {
        let q = Inputs::default();
        assert!(q.is_quiet());
        assert!(Inputs {
            flit_head: true,
            csr_wdata: 5,
            ..q
        }
        .is_quiet());
        for i in [
            Inputs { reset: true, ..q },
            Inputs {
                flit_valid: true,
                ..q
            },
            Inputs {
                credit_return: 1,
                ..q
            },
            Inputs { csr_we: true, ..q },
            Inputs { csr_addr: 3, ..q },
        ] {
            assert!(!i.is_quiet(), "{i:?}");
        }
    }

    /// A state reached by random register writes and random traffic from reset.
    fn reachable(rng: &mut Xoshiro256PlusPlus) -> PftModel {
        let mut m = PftModel::after_reset();
        for _ in 0..rng.gen_range(0..300) {
            let small = rng.gen_range(0..48u32);
            m.step(&Inputs {
                reset: rng.gen_bool(0.001),
                flit_valid: rng.gen_bool(0.7),
                flit_head: rng.gen(),
                credit_return: if rng.gen_bool(0.2) {
                    rng.gen_range(0..3)
                } else {
                    0
                },
                csr_we: rng.gen_bool(0.05),
                csr_addr: rng.gen_range(0..16),
                csr_wdata: if rng.gen_bool(0.2) { rng.gen() } else { small },
            });
        }
        m
    }

    /// `step_port` is `step` with no reset and no CSR access, from the states of
    /// `quiet_step_is_step`, with flits offered (heads and not), credits back (up to
    /// more than are used, so that underflow is reached) and both together.
    #[test]
    fn port_step_is_step() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
        let (mut cycles, mut sent, mut throttled, mut under) = (0u64, 0u64, 0u64, 0u64);
        for _ in 0..3_000 {
            let mut m = reachable(&mut rng);
            for _ in 0..rng.gen_range(1..200) {
                let i = Inputs {
                    flit_valid: rng.gen_bool(0.7),
                    flit_head: rng.gen(),
                    credit_return: if rng.gen_bool(0.3) {
                        rng.gen_range(0..4)
                    } else {
                        0
                    },
                    ..Default::default()
                };
                let mut want = m;
                let out = want.step(&i);
                assert_eq!(
                    m.step_port(i.flit_valid, i.flit_head, i.credit_return),
                    out,
                    "outputs"
                );
                assert_eq!(m, want, "state");
                cycles += 1;
                sent += out.send as u64;
                throttled += out.throttled as u64;
                under += m.err_underflow as u64;
            }
        }
        assert!(
            sent > 1000 && throttled > 1000 && under > 100,
            "{cycles} cycles: {sent} sent, {throttled} throttled, {under} with underflow"
        );
    }

    /// `step_quiet` is `step` with quiet inputs, from states reached by random register
    /// writes and random traffic: both detectors and throttles, Normal and Congested, AT
    /// windows part way, credits above the limit.
    #[test]
    fn quiet_step_is_step() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        let (mut cycles, mut congested, mut at, mut over) = (0u64, 0u64, 0u64, 0u64);
        for _ in 0..3_000 {
            let mut m = reachable(&mut rng);
            for _ in 0..rng.gen_range(1..200) {
                let i = Inputs {
                    flit_head: rng.gen(),
                    csr_wdata: rng.gen(),
                    ..Default::default()
                };
                assert!(i.is_quiet());
                let mut want = m;
                let out = want.step(&i);
                assert_eq!(m.step_quiet(), out, "outputs");
                assert_eq!(m, want, "state");
                cycles += 1;
                congested += m.congested() as u64;
                at += (m.det_at() && m.win > 0) as u64;
                over += (m.c > m.regs.credit_limit) as u64;
            }
        }
        assert!(
            congested > 1000 && congested < cycles - 1000 && at > 1000 && over > 100,
            "{cycles} quiet cycles: {congested} Congested, {at} in an AT window, {over} over the limit"
        );
    }
}
