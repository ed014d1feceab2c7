//! The rust-hdl RTL of the self-tuned throttle (`SelftunedNode`) against its reference model
//! (`selftuned::model::SelfTuned`), cycle by cycle: every output (inhibit, threshold, and the
//! estimate as `margin + T*g`) and every register (against the model's state, `Registers`)
//! compared after every cycle. (a) the model's unit-test scenarios, (b) seeded random snapshot streams over
//! several parameter sets, tens of thousands of cycles each. Run in --release.

use pft_hdl::selftuned::model::{Params, SelfTuned, Snapshot, BW_BITS};
use pft_hdl::selftuned::stepper::{Registers, SelftunedStepper};
use pft_hdl::selftuned::SEED;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use selftuned_stimulus::{Coverage, SnapshotStream, G48, ODD_CONSTANTS, WIDEST};

use pft_test_support::stimulus::selftuned as selftuned_stimulus;

/// The RTL and the model side by side. The RTL powers up with its registers at 0, so the
/// first cycle is a reset (its outputs are the power-up state's and are not compared).
struct Lockstep {
    rtl: SelftunedStepper,
    model: SelfTuned,
    cycle: u64,
    tag: String,
}

impl Lockstep {
    fn new(p: Params, tag: &str) -> Self {
        let mut rtl = SelftunedStepper::new(p);
        rtl.step(true, None);
        let s = Lockstep {
            rtl,
            model: SelfTuned::new(p),
            cycle: 0,
            tag: tag.to_string(),
        };
        s.check_state();
        s
    }

    fn check_state(&self) {
        assert_eq!(
            self.rtl.registers(),
            Registers::of_model(&self.model),
            "{}: registers differ after cycle {}",
            self.tag,
            self.cycle
        );
    }

    /// One cycle on both: a synchronous reset acts like `SelfTuned::new` from the next
    /// cycle; the cycle's outputs still come from the registers.
    fn step(&mut self, reset: bool, snap: Option<Snapshot>) -> pft_hdl::selftuned::model::Outputs {
        let got = self.rtl.step(reset, snap);
        let want = if reset {
            let o = self.model.outputs();
            self.model = SelfTuned::new(self.model.p);
            o
        } else {
            self.model.step(snap)
        };
        assert_eq!(
            got, want,
            "{}: outputs differ in cycle {} (reset {reset}, snapshot {snap:?})",
            self.tag, self.cycle
        );
        self.cycle += 1;
        self.check_state();
        got
    }

    /// Whole gathers: one snapshot per g cycles, arriving in the gather's first cycle.
    fn gathers(&mut self, snaps: &[Snapshot]) {
        for s in snaps {
            self.step(false, Some(*s));
            for _ in 1..self.model.p.g {
                self.step(false, None);
            }
        }
    }
}

fn snap(full: u32, flits: u32) -> Snapshot {
    Snapshot { full, flits }
}

// ---- (a) the model's unit-test scenarios, on both ----

#[test]
fn a_snapshot_is_used_from_the_next_cycle_and_nothing_is_inhibited_before() {
    let mut ls = Lockstep::new(SEED, "next-cycle");
    for _ in 0..5 {
        assert!(!ls.step(false, None).inhibit, "no snapshot yet");
    }
    assert!(
        !ls.step(false, Some(snap(500, 0))).inhibit,
        "not yet in force"
    );
    assert!(ls.step(false, None).inhibit, "500 > 30 from the next cycle");
}

#[test]
fn the_estimate_extrapolates_to_the_present() {
    for (t_init, linear, inhibit_at_age_1) in
        [(100, true, false), (80, true, true), (80, false, false)]
    {
        let p = Params {
            t_init,
            linear,
            ..SEED
        };
        let mut ls = Lockstep::new(p, &format!("extrapolate T={t_init} linear={linear}"));
        ls.gathers(&[snap(40, 0)]);
        ls.step(false, Some(snap(60, 0)));
        let first = ls.step(false, None);
        let second = ls.step(false, None);
        if linear {
            assert_eq!(first.estimate_g, 60 * 32 + 20 * 32, "age 0");
            assert_eq!(second.estimate_g, 60 * 32 + 20 * 33, "age 1");
        } else {
            assert_eq!(second.estimate_g, 60 * 32);
        }
        assert!(!first.inhibit);
        assert_eq!(
            second.inhibit, inhibit_at_age_1,
            "60 + 20*33/32 = 80.6 against {t_init}"
        );
        for _ in 0..40 {
            ls.step(false, None); // the age saturates at g - 1: no snapshot comes
        }
        assert_eq!(ls.model.age, 31);
    }
}

#[test]
fn throttling_without_a_drop_raises_the_threshold_and_a_drop_lowers_it() {
    let mut ls = Lockstep::new(SEED, "raise-and-drop");
    let s = snap(100, 1000);
    ls.gathers(&[s, s]);
    assert_eq!(ls.model.t, 30);
    ls.gathers(&[s]);
    assert_eq!(ls.model.t, 60, "throttled, no drop: + inc");
    let d = snap(100, 600);
    ls.gathers(&[s, d, d]);
    assert_eq!((ls.model.t, ls.model.resets), (30, 1));
}

#[test]
fn not_throttling_and_no_drop_keeps_the_threshold() {
    let mut ls = Lockstep::new(
        Params {
            t_init: 500,
            ..SEED
        },
        "keep",
    );
    let s = snap(100, 1000);
    ls.gathers(&[s, s, s, s, s, s, s]);
    assert_eq!(ls.model.t, 500);
}

#[test]
fn r_consecutive_resets_clear_the_maximum() {
    let mut ls = Lockstep::new(Params { r: 2, ..SEED }, "r-resets");
    let hi = snap(10, 1000);
    let lo = snap(10, 100);
    ls.gathers(&[hi, hi, hi, hi, hi, hi]);
    assert_eq!(ls.model.max_bw, 3000);
    ls.gathers(&[lo, lo, lo]);
    assert_eq!((ls.model.resets, ls.model.max_bw), (1, 3000));
    ls.gathers(&[lo, lo, lo]);
    assert_eq!((ls.model.resets, ls.model.max_bw), (0, 0));
}

#[test]
fn a_reset_mid_period_restarts_everything() {
    let mut ls = Lockstep::new(SEED, "mid-reset");
    ls.gathers(&[
        snap(100, 1000),
        snap(200, 1000),
        snap(300, 1000),
        snap(900, 5),
    ]);
    ls.step(true, Some(snap(5000, 77))); // a reset wins over the snapshot of its cycle
    ls.gathers(&[snap(10, 10), snap(10, 10), snap(10, 10)]);
    assert_eq!(ls.model.t, 30);
}

#[test]
fn the_widest_values_fit() {
    // full counts 0 and 65535 alternating at g = 256, T from 0 up to 65535: the margin
    // reaches its extremes (about +-2^25.6).
    let p = WIDEST;
    let mut ls = Lockstep::new(p, "widest");
    let top = (1 << BW_BITS) - 1;
    ls.gathers(&[
        snap(0, top),
        snap(65_535, top),
        snap(0, 1),
        snap(65_535, top),
    ]);
    ls.gathers(&[snap(65_535, 5), snap(0, top), snap(65_535, top), snap(0, 0)]);
    let mut lo = i64::MAX;
    let mut hi = i64::MIN;
    let mut m = SelfTuned::new(p);
    for s in [snap(0, 9), snap(65_535, 9), snap(0, 9), snap(65_535, 9)] {
        for c in 0..p.g {
            let o = m.step(if c == 0 { Some(s) } else { None });
            lo = lo.min(o.estimate_g - o.threshold as i64 * 256);
            hi = hi.max(o.estimate_g - o.threshold as i64 * 256);
        }
    }
    ls.gathers(&[snap(0, 9), snap(65_535, 9), snap(0, 9), snap(65_535, 9)]);
    assert!(lo < -(1 << 24) && hi > 1 << 24, "margins {lo}..{hi}");
}

// ---- (b) seeded random snapshot streams ----

/// `p`'s stream from `seed` (its first snapshot in cycles 0..g, its flits in a random regime)
/// on both for `cycles` cycles.
fn random_run(p: Params, seed: u64, cycles: u64) -> Coverage {
    let tag = format!("{p:?} seed {seed:#x}");
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let first_snap = rng.gen_range(0..p.g) as u64;
    let regime = rng.gen_range(0.0..1.0);
    let mut stream = SnapshotStream::new(p, rng, first_snap, regime);
    let mut ls = Lockstep::new(p, &tag);
    let mut cov = Coverage::default();
    for t in 0..cycles {
        let (reset, s) = stream.cycle(t, &ls.model);
        let before = ls.model;
        let o = ls.step(reset, s);
        cov.count(&before, &ls.model, reset, s, o);
    }
    eprintln!("{tag}: {cov:?}");
    cov
}

const CYCLES: u64 = 40_000;

fn check_coverage(p: &Params, c: &Coverage) {
    c.check_the_rules_ran(p, c.cycles);
    assert!(c.t_kept > 5, "{c:?}");
    assert!(c.negative_estimate > 0 || !p.linear, "{c:?}");
    assert!(c.age_saturated > 0, "{c:?}");
    assert!(c.resets > 0, "{c:?}");
}

fn run_set(p: Params, seed: u64) {
    let c = random_run(p, seed, CYCLES);
    check_coverage(&p, &c);
}

#[test]
fn random_seed_config_g32_three_snapshots_per_period() {
    run_set(SEED, 0x5E1F_0001);
}

#[test]
fn random_g48_h3_two_snapshots_per_period() {
    run_set(G48, 0x5E1F_0002);
}

#[test]
fn random_without_the_local_maxima_reset() {
    run_set(
        Params {
            reset_pct: 0,
            ..SEED
        },
        0x5E1F_0003,
    );
    run_set(
        Params {
            reset_pct: 0,
            ..G48
        },
        0x5E1F_0013,
    );
}

#[test]
fn random_previous_snapshot_instead_of_linear() {
    run_set(
        Params {
            linear: false,
            ..SEED
        },
        0x5E1F_0004,
    );
    run_set(
        Params {
            linear: false,
            ..G48
        },
        0x5E1F_0014,
    );
}

#[test]
fn random_odd_constants() {
    // g not a power of two nor 3 * 2^k, other percentages, small r, a wide ceiling
    run_set(ODD_CONSTANTS, 0x5E1F_0005);
    run_set(
        Params {
            g: 255,
            periods: 1,
            t_init: 0,
            inc: 7,
            dec: 200,
            t_ceiling: 400,
            drop_pct: 100,
            reset_pct: 100,
            r: 1,
            linear: true,
        },
        0x5E1F_0006,
    );
}

#[test]
fn random_parameter_sets() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0x5E1F_0100);
    for i in 0..4u64 {
        let t_ceiling = rng.gen_range(1..=65_535);
        let p = Params {
            g: rng.gen_range(1..=256),
            periods: rng.gen_range(1..=6),
            t_init: rng.gen_range(0..=t_ceiling),
            inc: rng.gen_range(0..=t_ceiling.min(2000)),
            dec: rng.gen_range(0..=t_ceiling.min(2000)),
            t_ceiling,
            drop_pct: rng.gen_range(1..=100),
            reset_pct: rng.gen_range(0..=100),
            r: rng.gen_range(1..=8),
            linear: rng.gen_bool(0.7),
        };
        assert!(p.check().is_ok());
        // Not every random set reaches every rule (a tiny T range, inc 0): outputs and
        // registers are still compared every cycle.
        random_run(p, 0x5E1F_0200 + i, CYCLES / 2);
    }
}

#[test]
fn a_gather_of_one_cycle_and_long_periods() {
    let p = Params {
        g: 1,
        periods: 255,
        t_init: 3000,
        inc: 50,
        dec: 1,
        t_ceiling: 3072,
        drop_pct: 1,
        reset_pct: 1,
        r: 255,
        linear: true,
    };
    random_run(p, 0x5E1F_0007, CYCLES);
}
