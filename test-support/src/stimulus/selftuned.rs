//! The seeded random snapshot streams of the self-tuned throttle's two cycle-by-cycle
//! comparisons with its reference model (`pft_hdl::selftuned::model`), shared by
//! `hdl/tests/selftuned_rtl.rs` (the rust-hdl RTL) and `tb/tests/selftuned_verilog.rs` (the
//! exported Verilog under Verilator): the parameter sets both run, the stream
//! (`SnapshotStream`), the flits that put a period on a rule's edge, and the events counted
//! on the model (`Coverage`) with the checks both make of them.

use pft_hdl::selftuned::model::{Outputs, Params, SelfTuned, Snapshot, BW_BITS};
use pft_hdl::selftuned::SEED;
use rand::Rng;
use rand_xoshiro::Xoshiro256PlusPlus;

/// The seed configuration at g = 48 (not a power of two), two snapshots per period.
pub const G48: Params = Params {
    g: 48,
    periods: 2,
    ..SEED
};

/// g not a power of two nor 3 * 2^k, other percentages, small r, a wide ceiling.
pub const ODD_CONSTANTS: Params = Params {
    g: 7,
    periods: 5,
    t_init: 500,
    inc: 1000,
    dec: 3,
    t_ceiling: 65_535,
    drop_pct: 90,
    reset_pct: 60,
    r: 2,
    linear: true,
};

/// The widest values: g = 256 (a 9-bit constant), one snapshot per period, the full 16-bit
/// T range and steps, r at its 8-bit top.
pub const WIDEST: Params = Params {
    g: 256,
    periods: 1,
    t_init: 0,
    inc: 65_535,
    dec: 65_535,
    t_ceiling: 65_535,
    drop_pct: 100,
    reset_pct: 100,
    r: 255,
    linear: true,
};

/// A snapshot stream: mostly one snapshot every g cycles (the side-band's rhythm), sometimes
/// early, late or missing; full counts near the model's current T (closed loop, so the gate
/// toggles), on random walks or at the extremes; flits in regimes that rise and fall (drops,
/// new maxima, runs of local-maxima resets), each period's sum below 2^24; rare resets.
pub struct SnapshotStream {
    p: Params,
    rng: Xoshiro256PlusPlus,
    flits_max: u32,
    next_snap: u64,
    full: u32,
    slope: i64,
    regime: f64,
}

impl SnapshotStream {
    /// The stream of `p` drawn from `rng`: its first snapshot in cycle `first_snap`, its
    /// flits starting in `regime` (0..1, a fraction of the most a snapshot may carry).
    pub fn new(p: Params, rng: Xoshiro256PlusPlus, first_snap: u64, regime: f64) -> Self {
        SnapshotStream {
            p,
            rng,
            flits_max: ((1u32 << BW_BITS) - 1) / p.periods,
            next_snap: first_snap,
            full: p.t_init,
            slope: 0,
            regime,
        }
    }

    /// Cycle `t`'s inputs, (reset, snapshot), for the model `m` as it stands before the cycle.
    pub fn cycle(&mut self, t: u64, m: &SelfTuned) -> (bool, Option<Snapshot>) {
        let p = self.p;
        let rng = &mut self.rng;
        let reset = rng.gen_bool(2e-4);
        if t != self.next_snap {
            return (reset, None);
        }
        self.next_snap += p.g as u64;
        let r: f64 = rng.gen();
        if r < 0.02 {
            self.next_snap += rng.gen_range(1..=3 * p.g as u64); // late (the age saturates)
        } else if r < 0.04 && p.g > 1 {
            self.next_snap -= rng.gen_range(1..p.g as u64); // early
        }
        // The full count.
        let mode: f64 = rng.gen();
        let f = if mode < 0.6 {
            // near T, with a trend: crosses the threshold between snapshots
            if rng.gen_bool(0.3) {
                self.slope = rng.gen_range(-60..=60);
            }
            m.t as i64 + self.slope + rng.gen_range(-40..=40)
        } else if mode < 0.9 {
            self.full as i64 + rng.gen_range(-300..=300)
        } else if mode < 0.95 {
            0
        } else {
            rng.gen_range(0..=65_535)
        };
        self.full = f.clamp(0, 65_535) as u32;
        // The flits: a regime that moves now and then.
        if rng.gen_bool(0.08) {
            self.regime = (self.regime * rng.gen_range(0.2..1.8)).clamp(0.0, 1.0);
            if rng.gen_bool(0.1) {
                self.regime = rng.gen_range(0.0..1.0);
            }
        }
        let jitter: f64 = rng.gen_range(0.9..1.1);
        let mut flits = ((self.regime * jitter).min(1.0) * self.flits_max as f64) as u32;
        if m.in_period + 1 >= p.periods && rng.gen_bool(0.15) {
            flits = boundary_flits(m, rng).unwrap_or(flits);
        }
        let snap = Snapshot {
            full: self.full,
            flits: flits.min(self.flits_max),
        };
        (reset, Some(snap))
    }
}

/// Flits that put a period's `bw` on a rule's edge: `bw * 100` equal to `pct * bw_prev`
/// (or `pct * max_bw`), or one flit either side, when the period's flits so far allow it.
fn boundary_flits(m: &SelfTuned, rng: &mut impl Rng) -> Option<u32> {
    let (base, pct) = if rng.gen_bool(0.5) {
        (m.bw_prev, m.p.drop_pct)
    } else {
        (m.max_bw, m.p.reset_pct)
    };
    let edge = (base as u64 * pct as u64).div_ceil(100) as i64 + rng.gen_range(-1..=1);
    let flits = edge - m.bw_acc as i64;
    (0..=((1i64 << BW_BITS) - 1) / m.p.periods as i64)
        .contains(&flits)
        .then_some(flits as u32)
}

/// Events seen in a run (counted on the model), to show the stream exercised the rules.
#[derive(Debug, Default)]
pub struct Coverage {
    pub cycles: u64,
    pub snapshots: u64,
    pub inhibit: u64,
    pub periods: u64,
    pub t_down: u64,
    pub t_up: u64,
    pub t_kept: u64,
    /// Local-maxima resets that leave the maximum (fewer than r in a row)...
    pub local_resets: u64,
    /// ...and those that clear it (the r-th in a row).
    pub max_cleared: u64,
    pub t_at_ceiling: u64,
    pub t_at_zero: u64,
    pub negative_estimate: u64,
    pub age_saturated: u64,
    pub resets: u64,
    /// Periods that end exactly on a rule's edge: `bw * 100 == pct * bw_prev` (or `max_bw`).
    pub edges: u64,
}

impl Coverage {
    /// One cycle of the model: `before` and `after` it, with its inputs and outputs.
    pub fn count(
        &mut self,
        before: &SelfTuned,
        after: &SelfTuned,
        reset: bool,
        snap: Option<Snapshot>,
        o: Outputs,
    ) {
        let (p, m) = (before.p, after);
        self.cycles += 1;
        self.inhibit += o.inhibit as u64;
        self.negative_estimate += (o.estimate_g < 0) as u64;
        self.age_saturated += (before.seen == 2 && before.age == p.g - 1 && snap.is_none()) as u64;
        self.t_at_ceiling += (m.t == p.t_ceiling) as u64;
        self.t_at_zero += (m.t == 0) as u64;
        if reset {
            self.resets += 1;
            return;
        }
        let Some(s) = snap else {
            return;
        };
        self.snapshots += 1;
        if before.in_period + 1 < p.periods {
            return;
        }
        self.periods += 1;
        match m.t.cmp(&before.t) {
            std::cmp::Ordering::Less => self.t_down += 1,
            std::cmp::Ordering::Greater => self.t_up += 1,
            std::cmp::Ordering::Equal => self.t_kept += 1,
        }
        self.local_resets += (m.resets > before.resets) as u64;
        self.max_cleared += (before.max_bw > 0 && m.max_bw == 0) as u64;
        let bw100 = (before.bw_acc as u64 + s.flits as u64) * 100;
        self.edges += (bw100 == p.drop_pct as u64 * before.bw_prev as u64
            || bw100 == p.reset_pct as u64 * before.max_bw as u64) as u64;
    }

    /// What every run of `cycles` cycles of `p` must show: the gate toggles, T moves both
    /// ways, and with the local-maxima reset on, resets that clear the maximum (with r = 1
    /// every local-maxima reset clears it at once).
    pub fn check_the_rules_ran(&self, p: &Params, cycles: u64) {
        let c = self;
        assert!(c.inhibit > cycles / 50, "the gate rarely inhibits: {c:?}");
        assert!(
            c.inhibit < cycles * 49 / 50,
            "the gate nearly always inhibits: {c:?}"
        );
        assert!(c.t_down > 5 && c.t_up > 5, "{c:?}");
        if p.reset_pct > 0 {
            assert!(
                c.local_resets + c.max_cleared > 5 && c.max_cleared > 0,
                "{c:?}"
            );
        }
    }
}
