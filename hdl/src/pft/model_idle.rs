//! Many quiet cycles at once: a network simulation does not step an idle NIC's block every
//! cycle, it catches the block up when the NIC next has work (`PftModel::skip_quiet`).
//!
//! A block is *idle* (`PftModel::idle`) when quiet cycles (`Inputs::is_quiet`: no reset, no
//! flit, no credit back, no CSR access) keep it Normal with the same outputs (send,
//! throttled and congested low, the same `c`). Such cycles still move four registers: the
//! FI gap (saturating), the RI generator, and the AT window and hit counters. Each has a
//! closed form, so a run of `k` quiet cycles costs what one does, whatever `k` is.

use super::model::{xorshift32, PftModel};
use std::sync::OnceLock;

/// The generator is linear over GF(2) (x' = M x): `table()[j][b]` is M^(2^j) applied to bit
/// `b`, for every jump of up to 2^64 - 1 steps.
fn table() -> &'static [[u32; 32]; 64] {
    static T: OnceLock<Box<[[u32; 32]; 64]>> = OnceLock::new();
    T.get_or_init(|| {
        let mut t = Box::new([[0u32; 32]; 64]);
        for b in 0..32 {
            t[0][b] = xorshift32(1 << b);
        }
        for j in 1..64 {
            for b in 0..32 {
                t[j][b] = apply(&t[j - 1], t[j - 1][b]);
            }
        }
        t
    })
}

/// The matrix whose columns are `m` applied to `x`.
#[inline]
fn apply(m: &[u32; 32], mut x: u32) -> u32 {
    let mut y = 0;
    while x != 0 {
        y ^= m[x.trailing_zeros() as usize];
        x &= x - 1;
    }
    y
}

/// `xorshift32` applied `k` times.
pub fn xorshift32_jump(mut x: u32, k: u64) -> u32 {
    if k < 64 {
        for _ in 0..k {
            x = xorshift32(x);
        }
        return x;
    }
    let t = table();
    let mut k = k;
    while k != 0 {
        x = apply(&t[k.trailing_zeros() as usize], x);
        k &= k - 1;
    }
    x
}

impl PftModel {
    /// Quiet cycles from now on keep the block Normal, its outputs those of `step_quiet` now
    /// (send, throttled and congested low, `c` unchanged), and change only `gap`, `r`, `win`
    /// and `hit` (`skip_quiet` catches those up). True when the block is Normal, its
    /// overflow flag already says what a quiet cycle would, and the detector cannot leave
    /// Normal with `c` fixed: disabled, or no hit at this `c` (`c <= TH_ENTER`) and, under
    /// AT, a hit count below AT_CNT_E (a count of 0 at AT_CNT_E = 0 would switch at once).
    #[inline]
    pub fn idle(&self) -> bool {
        let r = &self.regs;
        !self.state
            && (self.err_overflow || self.c <= r.credit_limit)
            && (!self.enabled()
                || (self.c <= r.th_enter && (!self.det_at() || self.hit < r.at_cnt_e)))
    }

    /// `k` quiet cycles of an `idle` block (the same state as `k` calls of `step_quiet`,
    /// whose outputs are all the same). The block stays idle.
    pub fn skip_quiet(&mut self, k: u64) {
        debug_assert!(
            self.idle(),
            "skip_quiet on a block that is not idle: {self:?}"
        );
        if k == 0 {
            return;
        }
        self.gap = (self.gap as u64 + k).min(u16::MAX as u64) as u16;
        self.r = xorshift32_jump(self.r, k);
        if !self.enabled() || !self.det_at() {
            // FT, or disabled: the detector's next state is (Normal, 0, 0).
            self.win = 0;
            self.hit = 0;
            return;
        }
        // AT in Normal with no hits: `win` counts up (wrapping) to AT_WIN_E, then restarts
        // at 0; `hit` is cleared in the cycle whose next `win` is AT_WIN_E.
        let w = self.regs.at_win_e as u64;
        let d = self.regs.at_win_e.wrapping_sub(self.win) as u64; // cycles until win = w
        let clear = if d == 0 { w + 1 } else { d };
        if k >= clear {
            self.hit = 0;
        }
        self.win = if k <= d {
            self.win.wrapping_add(k as u16)
        } else {
            ((k - d - 1) % (w + 1)) as u16
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pft::model::Inputs;
    use crate::regs::{self, addr};
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    #[test]
    fn jump_is_repeated_steps() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        for _ in 0..200 {
            let x: u32 = rng.gen();
            let k = rng.gen_range(0..20_000u64);
            let mut y = x;
            for _ in 0..k {
                y = xorshift32(y);
            }
            assert_eq!(xorshift32_jump(x, k), y, "x {x:#x} k {k}");
            // long jumps compose
            let (a, b) = (rng.gen::<u64>() >> 2, rng.gen::<u64>() >> 2);
            assert_eq!(
                xorshift32_jump(xorshift32_jump(x, a), b),
                xorshift32_jump(x, a + b)
            );
        }
        // the period is 2^32 - 1
        assert_eq!(xorshift32_jump(0x1234_5678, (1 << 32) - 1), 0x1234_5678);
        assert_ne!(xorshift32_jump(0x1234_5678, 1 << 31), 0x1234_5678);
    }

    /// `skip_quiet(k)` is `k` quiet steps, from idle states reached by random register
    /// writes and traffic; every one of those steps gives the idle outputs and keeps the
    /// block idle. Runs of `k` cross AT windows of every length, and the states cover AT
    /// windows part way with hits counted, FT, disabled blocks and both throttles.
    #[test]
    fn skip_is_quiet_steps() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
        let (mut idle, mut busy, mut at_hits, mut wraps, mut ft, mut off) = (0, 0, 0, 0, 0, 0);
        for _ in 0..8_000 {
            let mut m = PftModel::after_reset();
            let bit = |on: bool, mask: u32| if on { mask } else { 0 };
            let ctrl = bit(rng.gen_bool(0.9), regs::CTRL_ENABLE)
                | bit(rng.gen(), regs::CTRL_DET_AT)
                | bit(rng.gen(), regs::CTRL_THR_RI)
                | bit(rng.gen(), regs::CTRL_GATING);
            for (a, d) in [
                (addr::CREDIT_LIMIT, rng.gen_range(1..40)),
                (addr::TH_ENTER, rng.gen_range(0..24)),
                (addr::TH_ESCAPE, rng.gen_range(0..24)),
                (addr::AT_WIN_E, rng.gen_range(0..40)),
                (addr::AT_CNT_E, rng.gen_range(0..12)),
                (addr::AT_WIN_S, rng.gen_range(0..40)),
                (addr::AT_CNT_S, rng.gen_range(0..12)),
                (addr::SEED, rng.gen()),
                (addr::CTRL, ctrl),
            ] {
                m.step(&Inputs {
                    csr_we: true,
                    csr_addr: a,
                    csr_wdata: d,
                    ..Default::default()
                });
            }
            for _ in 0..rng.gen_range(0..300) {
                m.step(&Inputs {
                    reset: rng.gen_bool(0.0005),
                    flit_valid: rng.gen_bool(0.7),
                    flit_head: rng.gen(),
                    credit_return: if rng.gen_bool(0.3) {
                        rng.gen_range(0..3)
                    } else {
                        0
                    },
                    csr_we: rng.gen_bool(0.01),
                    csr_addr: rng.gen_range(0..16),
                    csr_wdata: rng.gen_range(0..40),
                });
            }
            // then a while with nothing to send, credits coming back
            for _ in 0..rng.gen_range(0..60) {
                m.step(&Inputs {
                    credit_return: rng.gen_range(0..2),
                    ..Default::default()
                });
            }
            if !m.idle() {
                busy += 1;
                continue;
            }
            idle += 1;
            let w = m.regs.at_win_e as u64;
            let k = match rng.gen_range(0..4) {
                0 => rng.gen_range(0..8),
                1 => rng.gen_range(0..3 * (w + 2)),
                2 => rng.gen_range(0..70_000),
                _ => w.wrapping_sub(m.win as u64) & 0xFFFF,
            };
            if m.enabled() && m.det_at() {
                at_hits += (m.hit > 0) as u32;
                wraps += (k > (m.regs.at_win_e.wrapping_sub(m.win) as u64)) as u32;
            } else if m.enabled() {
                ft += 1;
            } else {
                off += 1;
            }
            let mut want = m;
            for _ in 0..k {
                let o = want.step_quiet();
                assert!(!o.send && !o.throttled && !o.congested && o.used_credits == m.c);
                assert!(want.idle(), "left idle: {want:?} from {m:?}");
            }
            let mut got = m;
            got.skip_quiet(k);
            assert_eq!(got, want, "k = {k} from {m:?}");
        }
        assert!(
            idle > 2_000 && busy > 1_000 && at_hits > 50 && wraps > 500 && ft > 500 && off > 500,
            "idle {idle} busy {busy}: AT with hits {at_hits}, across a window {wraps}, FT {ft}, off {off}"
        );
    }

    /// Each condition of `idle` matters: Congested, a hit at this `c`, AT_CNT_E = 0 and an
    /// overflow not yet flagged each make a block not idle.
    #[test]
    fn what_is_not_idle() {
        let mut m = PftModel::after_reset();
        assert!(m.idle());
        m.state = true;
        m.regs.ctrl |= crate::regs::CTRL_ENABLE;
        assert!(!m.idle(), "Congested");
        m.state = false;
        m.c = m.regs.th_enter + 1;
        assert!(!m.idle(), "a hit at this c");
        m.c = 0;
        m.regs.ctrl |= crate::regs::CTRL_DET_AT;
        m.regs.at_cnt_e = 0;
        assert!(!m.idle(), "AT_CNT_E = 0 switches at once");
        let mut q = m;
        q.step_quiet();
        assert!(q.state, "and it does switch");
        m.regs.at_cnt_e = 3;
        assert!(m.idle());
        m.c = m.regs.credit_limit + 1;
        m.regs.th_enter = u16::MAX;
        assert!(!m.idle(), "an overflow not yet flagged");
        m.err_overflow = true;
        assert!(m.idle());
    }
}
