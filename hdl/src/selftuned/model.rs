//! Plain-Rust reference model of one node's self-tuned global throttle (seed 003,
//! Thottethodi, Lebeck and Mukherjee): the estimator, the gate and the hill-climbing tuner.
//! Cycle-exact, no rust-hdl types; the sim's `selftuned` scheme runs it, and the RTL is
//! tested against it.
//!
//! Every node holds the same copy: the side-band delivers the same snapshot to all of them
//! in the same cycle, so all reach the same threshold (the paper's point). The model sees
//! only what a node sees: a snapshot `(full, flits)` every `g` cycles, `g` cycles old.
//!
//! `step` takes the inputs of cycle t, returns the outputs of cycle t (from the registered
//! state of cycle t, like the RTL's combinational outputs) and commits the state of t+1.
//! A snapshot that arrives in cycle t is therefore used from cycle t+1 on.
//!
//! Estimate (linear extrapolation to the present). Snapshot `S0` describes the network
//! `g + age` cycles ago (it was taken `g` cycles before it arrived, `age` cycles ago), `S1`
//! one gather earlier. The estimate now is `S0 + (S0 - S1) * (g + age) / g`; the gate
//! compares it with the threshold exactly, with no division:
//! `S0*g + (S0 - S1)*(g + age) > T*g`. With `previous` (or a single snapshot) the
//! estimate is `S0`; before any snapshot nothing is inhibited.
//!
//! Tuning, once per `periods` snapshots (the tuning period is `periods * g` cycles), on the
//! cycle the period's last snapshot arrives. `bw` is the flits of the period's snapshots;
//! `throttling` is true if the gate inhibited in any cycle of the period:
//! 1. `bw > max_bw`: remember `max_bw = bw`, `n_max` = the newest full count, `t_max = T`;
//! 2. `bw * 100 < drop_pct * bw_prev` (a drop): `T -= dec` (floor 0); else if
//!    throttling: `T += inc` (ceiling `t_ceiling`); else no change;
//! 3. `bw * 100 < reset_pct * max_bw` (far below the best seen): `T = min(t_max, n_max)`
//!    and one more consecutive reset; after `r` consecutive resets `max_bw = 0` (the
//!    search restarts); a period without a reset clears the count;
//! 4. `bw_prev = bw`.

/// Widths of the RTL's registers, which the model's values must fit.
pub const COUNT_BITS: u32 = 16;
/// Bits of the tuning-period flit accumulator and `max_bw`, `bw_prev`. The caller keeps a
/// period's flits below 2^24 (the RTL's register wraps; the sim refuses a tuning period
/// that could deliver more on its network).
pub const BW_BITS: u32 = 24;
/// Bits of the age counter (so `g` <= 2^AGE_BITS).
pub const AGE_BITS: u32 = 8;

/// The tuner's constants (the RTL's parameters). All counts are in buffers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Params {
    /// Gather duration `g`, cycles (1..=256): snapshots arrive every `g` cycles.
    pub g: u32,
    /// Snapshots per tuning period (1..=255): the period is `periods * g` cycles.
    pub periods: u32,
    /// Threshold at reset.
    pub t_init: u32,
    /// Additive increment and decrement of the threshold.
    pub inc: u32,
    pub dec: u32,
    /// Largest threshold (the number of buffers).
    pub t_ceiling: u32,
    /// A drop: `bw` below `drop_pct` % of the previous period's (1..=100; seed: 75).
    pub drop_pct: u32,
    /// Far below the best: `bw` below `reset_pct` % of `max_bw` (0 turns the local-maxima
    /// reset off; seed: unspecified, 75 chosen).
    pub reset_pct: u32,
    /// Consecutive resets after which `max_bw` is cleared (1..=255; seed: 5).
    pub r: u32,
    /// Linear extrapolation (true) or the previous snapshot (false).
    pub linear: bool,
}

impl Params {
    /// Why these constants do not fit the RTL, if they do not.
    pub fn check(&self) -> Result<(), String> {
        let cmax = (1u32 << COUNT_BITS) - 1;
        let fits = |name: &str, v: u32, lo: u32, hi: u32| {
            if v < lo || v > hi {
                Err(format!("{name} = {v}: allowed {lo}..={hi}"))
            } else {
                Ok(())
            }
        };
        fits("g", self.g, 1, 1 << AGE_BITS)?;
        fits("periods", self.periods, 1, 255)?;
        fits("t_ceiling", self.t_ceiling, 1, cmax)?;
        fits("t_init", self.t_init, 0, self.t_ceiling)?;
        fits("inc", self.inc, 0, self.t_ceiling)?;
        fits("dec", self.dec, 0, self.t_ceiling)?;
        fits("drop_pct", self.drop_pct, 1, 100)?;
        fits("reset_pct", self.reset_pct, 0, 100)?;
        fits("r", self.r, 1, 255)
    }
}

/// One snapshot of the side-band: full buffers and flits delivered in one gather.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Snapshot {
    /// Full buffers (fits COUNT_BITS).
    pub full: u32,
    /// Flits delivered network-wide in the gather's `g` cycles (fits BW_BITS).
    pub flits: u32,
}

/// What the node's logic shows in one cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Outputs {
    /// New packets may not start.
    pub inhibit: bool,
    /// The threshold `T` in force.
    pub threshold: u32,
    /// The estimate times `g` (`S0*g + (S0 - S1)*(g + age)`, or `S0*g`; 0 before any
    /// snapshot): signed, it may go below 0 when the count falls fast.
    pub estimate_g: i64,
}

/// The registered state of one node's throttle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SelfTuned {
    pub p: Params,
    /// Threshold.
    pub t: u32,
    /// Newest and previous snapshot's full counts; snapshots seen (saturates at 2).
    pub s0: u32,
    pub s1: u32,
    pub seen: u8,
    /// Cycles since the newest snapshot arrived (saturates at g - 1).
    pub age: u32,
    /// Snapshots so far in this tuning period, their flits, and "inhibited in the period".
    pub in_period: u32,
    pub bw_acc: u32,
    pub throttling: bool,
    pub bw_prev: u32,
    pub max_bw: u32,
    pub n_max: u32,
    pub t_max: u32,
    /// Consecutive local-maxima resets.
    pub resets: u32,
}

impl SelfTuned {
    /// The state after reset.
    pub fn new(p: Params) -> Self {
        SelfTuned {
            p,
            t: p.t_init,
            s0: 0,
            s1: 0,
            seen: 0,
            age: 0,
            in_period: 0,
            bw_acc: 0,
            throttling: false,
            bw_prev: 0,
            max_bw: 0,
            n_max: 0,
            t_max: 0,
            resets: 0,
        }
    }

    /// The outputs of this cycle (from the registered state).
    pub fn outputs(&self) -> Outputs {
        let g = self.p.g as i64;
        let (s0, s1) = (self.s0 as i64, self.s1 as i64);
        let estimate_g = match self.seen {
            0 => 0,
            1 => s0 * g,
            _ if !self.p.linear => s0 * g,
            _ => s0 * g + (s0 - s1) * (g + self.age as i64),
        };
        Outputs {
            inhibit: self.seen > 0 && estimate_g > self.t as i64 * g,
            threshold: self.t,
            estimate_g,
        }
    }

    /// One cycle: `snap` is the snapshot arriving in it, if any.
    pub fn step(&mut self, snap: Option<Snapshot>) -> Outputs {
        let out = self.outputs();
        let throttling = self.throttling || out.inhibit;
        let Some(s) = snap else {
            self.throttling = throttling;
            self.age = (self.age + 1).min(self.p.g - 1);
            return out;
        };
        self.s1 = self.s0;
        self.s0 = s.full;
        self.seen = (self.seen + 1).min(2);
        self.age = 0;
        let bw = self.bw_acc + s.flits;
        if self.in_period + 1 < self.p.periods {
            self.in_period += 1;
            self.bw_acc = bw;
            self.throttling = throttling;
            return out;
        }
        self.tune(bw, throttling);
        self.in_period = 0;
        self.bw_acc = 0;
        self.throttling = false;
        out
    }

    /// The end of a tuning period with `bw` flits delivered.
    fn tune(&mut self, bw: u32, throttling: bool) {
        let p = self.p;
        if bw > self.max_bw {
            self.max_bw = bw;
            self.n_max = self.s0;
            self.t_max = self.t;
        }
        let (bw100, prev, max) = (bw as u64 * 100, self.bw_prev as u64, self.max_bw as u64);
        if bw100 < p.drop_pct as u64 * prev {
            self.t = self.t.saturating_sub(p.dec);
        } else if throttling {
            self.t = (self.t + p.inc).min(p.t_ceiling);
        }
        if bw100 < p.reset_pct as u64 * max {
            self.t = self.t_max.min(self.n_max);
            self.resets += 1;
            if self.resets >= p.r {
                self.max_bw = 0;
                self.resets = 0;
            }
        } else {
            self.resets = 0;
        }
        self.bw_prev = bw;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::selftuned::SEED;

    /// Run whole gathers: one snapshot per g cycles, arriving in the gather's first cycle.
    fn gathers(m: &mut SelfTuned, snaps: &[Snapshot]) -> Vec<Outputs> {
        let mut outs = Vec::new();
        for s in snaps {
            outs.push(m.step(Some(*s)));
            for _ in 1..m.p.g {
                outs.push(m.step(None));
            }
        }
        outs
    }

    #[test]
    fn the_seed_constants_fit_and_bad_ones_are_named() {
        assert!(SEED.check().is_ok());
        let e = Params {
            drop_pct: 0,
            ..SEED
        }
        .check()
        .unwrap_err();
        assert!(e.contains("drop_pct") && e.contains("1..=100"), "{e}");
        let e = Params {
            t_init: 4000,
            ..SEED
        }
        .check()
        .unwrap_err();
        assert!(e.contains("t_init"), "{e}");
    }

    #[test]
    fn a_snapshot_is_used_from_the_next_cycle_and_nothing_is_inhibited_before() {
        let mut m = SelfTuned::new(SEED);
        let o = m.step(Some(Snapshot {
            full: 500,
            flits: 0,
        }));
        assert!(!o.inhibit, "the snapshot arriving now is not yet in force");
        assert!(m.step(None).inhibit, "500 > 30 from the next cycle");
    }

    #[test]
    fn the_estimate_extrapolates_to_the_present() {
        let mut m = SelfTuned::new(Params {
            t_init: 100,
            ..SEED
        });
        m.step(Some(Snapshot { full: 40, flits: 0 }));
        for _ in 1..32 {
            m.step(None);
        }
        // S1 = 40, S0 = 60: the slope is 20 per gather; S0 is g + age cycles old.
        m.step(Some(Snapshot { full: 60, flits: 0 }));
        let first = m.step(None); // age 0: S0 is g old, 60 + 20 * 32/32
        assert_eq!(first.estimate_g, 60 * 32 + 20 * 32);
        assert_eq!(m.outputs().estimate_g, 60 * 32 + 20 * 33, "age 1");
        assert!(!first.inhibit);
        // 60 + 20 * (32 + age) / 32 > 100 once 20 * (32 + age) > 1280: age > 32, never
        // within this gather (age <= 31): no inhibit with T = 100, but with T = 80 yes.
        let mut m2 = m;
        m2.t = 80;
        assert!(m2.outputs().inhibit, "60 + 20*33/32 = 80.6 > 80");
        let prev = SelfTuned {
            p: Params {
                linear: false,
                ..m.p
            },
            ..m2
        };
        assert!(
            !prev.outputs().inhibit,
            "the previous snapshot alone, 60, is below 80"
        );
    }

    #[test]
    fn throttling_without_a_drop_raises_the_threshold_and_a_drop_lowers_it() {
        let mut m = SelfTuned::new(SEED);
        // Period 1: full 100 > T = 30, the gate inhibits; bw 3 x 1000.
        let s = Snapshot {
            full: 100,
            flits: 1000,
        };
        gathers(&mut m, &[s, s]);
        assert_eq!(m.t, 30, "the period ends with its third snapshot");
        gathers(&mut m, &[s]);
        assert_eq!(m.t, 60, "throttled, no drop: + inc");
        assert_eq!((m.max_bw, m.n_max, m.t_max), (3000, 100, 30));
        // A period at 2,200 flits: below 75 % of 3,000 -> - dec (floor 0); and below 75 %
        // of max_bw: reset to min(t_max, n_max) = 30.
        let d = Snapshot {
            full: 100,
            flits: 600,
        };
        gathers(&mut m, &[s, d, d]);
        assert_eq!(m.t, 30);
        assert_eq!(m.resets, 1);
    }

    #[test]
    fn not_throttling_and_no_drop_keeps_the_threshold() {
        let mut m = SelfTuned::new(Params {
            t_init: 500,
            ..SEED
        });
        let s = Snapshot {
            full: 100,
            flits: 1000,
        };
        gathers(&mut m, &[s, s, s, s, s, s, s]);
        assert_eq!(m.t, 500);
        assert!(!m.outputs().inhibit);
    }

    #[test]
    fn r_consecutive_resets_clear_the_maximum() {
        let mut m = SelfTuned::new(Params {
            reset_pct: 75,
            r: 2,
            ..SEED
        });
        let hi = Snapshot {
            full: 10,
            flits: 1000,
        };
        let lo = Snapshot {
            full: 10,
            flits: 100,
        };
        gathers(&mut m, &[hi, hi, hi, hi, hi, hi]);
        assert_eq!(m.max_bw, 3000);
        gathers(&mut m, &[lo, lo, lo]);
        assert_eq!((m.resets, m.max_bw), (1, 3000));
        gathers(&mut m, &[lo, lo, lo]);
        assert_eq!(
            (m.resets, m.max_bw),
            (0, 0),
            "the second reset in a row restarts"
        );
    }
}
