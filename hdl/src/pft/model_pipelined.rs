//! Plain-Rust reference model of `PftInjectorPipelined` (the pipelined build): the default
//! block `PftModel` with the throttle's verdict taken from registers computed a cycle ahead.
//!
//! The pipeline, exactly (registers power up at 0 and are not reset; SHAPE, K and the RI
//! mask are the register values of the cycle named):
//!
//! ```text
//!   S(t+1)     = (c(t) << m(t)) >> n(t)                 exact
//!   L(t+1)     = S(t) + k(t)                            exact: f(c(t-1))
//!   fi_ok(t+1) = gap(t+1) >= L(t)
//!   ri_ok(t+1) = (r(t+1) & mask(t)) >= L(t)
//!   verdict(t) = !congested(t) | (RI ? ri_ok(t) : fi_ok(t))
//! ```
//!
//! so the throttle of cycle t compares that cycle's gap or r with `f(c(t-3))`. A level of
//! 2^32 or more (L >= 2^32) never opens a gate, as in the default build.

use super::model::{level, Inputs, Outputs, PftModel};
use crate::regs;

/// The pipelined block: the default block's state plus the four pipeline registers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PftModelPipelined {
    /// Everything the default block holds (registers, c, FSM, gap, r, counters).
    pub base: PftModel,
    /// S: `(c << m) >> n` of the previous cycle (exact).
    pub shift: u64,
    /// L: the level the gates were last compared with (exact, up to 2^47 + 2^16).
    pub level: u64,
    /// The FI gate's verdict for this cycle.
    pub fi_ok: bool,
    /// The RI gate's verdict for this cycle.
    pub ri_ok: bool,
}

impl PftModelPipelined {
    /// Power-up state (all zeros, like the RTL's flip-flops before reset).
    pub fn new() -> Self {
        Self::default()
    }

    /// The throttle's verdict this cycle (true: a flit may leave).
    #[inline]
    pub fn throttle_ok(&self) -> bool {
        !self.base.congested()
            || if self.base.thr_ri() {
                self.ri_ok
            } else {
                self.fi_ok
            }
    }

    /// Advance one clock cycle.
    #[inline]
    pub fn step(&mut self, i: &Inputs) -> Outputs {
        let b = &self.base;
        let (c, m, n, k) = (b.c, b.regs.m, b.regs.n, b.regs.k);
        let mask = regs::r_mask(b.regs.r_width);
        let l = self.level;
        let verdict = self.throttle_ok();
        let out = self.base.step_with(i, verdict);
        // base now holds gap(t+1) and r(t+1).
        self.level = self.shift + k as u64;
        self.shift = level(c, m, n, 0);
        self.fi_ok = self.base.gap as u64 >= l;
        self.ri_ok = (self.base.r & mask) as u64 >= l;
        out
    }
}
