//! DCQCN's reaction point: the fixed-point model of the RTL (`dcqcn::model`) against the
//! floating-point rules the simulator runs (`dcqcn::float`), on the same events. They are
//! not the same arithmetic (docs/cc/dcqcn.md, "The RTL"); this test bounds how far apart
//! they get:
//!
//! 1. **Rates** (open loop: the same CNPs, the same packet starts, the timers of each):
//!    the largest difference of RC, RT and alpha in any cycle (the float's alpha with the
//!    periods since its last CNP applied), as fractions of the line rate (of 1 for alpha),
//!    on the paper's constants (100 ms) and on constants that are exact in fixed point:
//!    below 0.001 (measured: at most 0.00072);
//! 2. **Limiter** (closed loop: a flow that always has a packet and starts one whenever its
//!    limiter lets it, the same CNPs): the flits each sends, within 1 % (measured: at most
//!    0.47 %); and the fixed-point rates under either limiter (the RTL's debt, the
//!    simulator's `ChangeRate`) within 0.1 % (measured: at most 0.02 %);
//! 3. at a constant rate that both represent exactly, the gaps between starts are equal.

use pft_hdl::dcqcn::float;
use pft_hdl::dcqcn::model::{self, alpha_fraction, rate_fraction, Params, LINE};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// The paper's constants on the default network (docs/cc/dcqcn.md): 10,742-cycle timers,
/// 163,840-flit byte counter, F = 5, g = 1/256, R_AI 0.0004, R_HAI 0.001, floor 0.001.
fn paper() -> float::Params {
    float::Params {
        alpha_timer: 10742,
        rate_timer: 10742,
        byte_counter: 163_840,
        f: 5,
        g: 1.0 / 256.0,
        rai: 0.0004,
        rhai: 0.001,
        min_rate: 0.001,
    }
}

/// Constants that fixed point holds exactly (powers of two), short timers: what remains is
/// the arithmetic's rounding.
fn exact() -> float::Params {
    float::Params {
        alpha_timer: 23,
        rate_timer: 37,
        byte_counter: 300,
        f: 3,
        g: 1.0 / 16.0,
        rai: 1.0 / 64.0,
        rhai: 1.0 / 16.0,
        min_rate: 1.0 / 256.0,
    }
}

/// The paper's constants with R_AI, R_HAI and the floor on the fixed-point grid (13, 33
/// and 33 units): what is left of the difference is the arithmetic's, not the constants'.
fn paper_on_the_grid() -> float::Params {
    float::Params {
        rai: 13.0 / LINE as f64,
        rhai: 33.0 / LINE as f64,
        min_rate: 33.0 / LINE as f64,
        ..paper()
    }
}

/// CNPs in phases: congestion (a CNP every `interval` cycles on average, as the NP sends at
/// most one per flow per interval) and quiet spells.
struct Cnps {
    rng: Xoshiro256PlusPlus,
    interval: u64,
    congested: bool,
    left: u64,
}

impl Cnps {
    fn new(interval: u64, seed: u64) -> Cnps {
        Cnps {
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            interval,
            congested: false,
            left: 0,
        }
    }

    fn cnp(&mut self) -> bool {
        if self.left == 0 {
            self.congested = !self.congested;
            let k = if self.congested { 8 } else { 60 };
            self.left = self.rng.gen_range(1..=k) * self.interval;
        }
        self.left -= 1;
        self.congested && self.rng.gen_bool(1.0 / self.interval as f64)
    }
}

/// The largest differences seen.
#[derive(Debug, Default)]
struct Diff {
    rc: f64,
    rt: f64,
    alpha: f64,
    cnps: u64,
    increases: u64,
}

/// The float flow's alpha as a CNP at `now` would see it: its lazily kept value with the
/// alpha timer's periods since the last CNP applied.
fn alpha_now(fp: &float::Params, y: &float::Flow, now: u64) -> f64 {
    if y.alpha_t == float::NEVER {
        return y.alpha;
    }
    let k = (now - y.alpha_t) / fp.alpha_timer;
    if k > 0 {
        y.alpha * (1.0 - fp.g).powf(k as f64)
    } else {
        y.alpha
    }
}

/// Open loop for `cycles` cycles: CNPs from `seed`, a packet of 64 flits every 64 cycles.
fn rates(fp: &float::Params, interval: u64, seed: u64, cycles: u64) -> Diff {
    let p = Params::from_float(fp).unwrap();
    let mut x = model::Flow::default();
    let mut y = float::Flow::default();
    let mut cnps = Cnps::new(interval, seed);
    let mut d = Diff::default();
    for now in 0..cycles {
        let cnp = cnps.cnp();
        let start = (now % 64 == 0).then_some(64);
        let s = x.cycle(&p, now, cnp, start);
        if cnp {
            y.cnp(fp, now);
        }
        y.timer(fp, now);
        if let Some(l) = start {
            y.started(fp, l, now);
        }
        d.cnps += cnp as u64;
        d.increases += s.increases as u64;
        d.rc = d.rc.max((rate_fraction(x.rc) - y.rc).abs());
        d.rt = d.rt.max((rate_fraction(x.rt) - y.rt).abs());
        d.alpha = d
            .alpha
            .max((alpha_fraction(x.alpha) - alpha_now(fp, &y, now)).abs());
    }
    d
}

/// Closed loop for `cycles` cycles: flits sent by the fixed-point flow whose starts obey
/// the simulator's limiter instead of its own (`last start + ceil(L * LINE / rc)` with the
/// rate of each cycle, NS-3's `ChangeRate`): the limiters' share of the difference.
fn sent_retro(fp: &float::Params, interval: u64, seed: u64, cycles: u64) -> u64 {
    let p = Params::from_float(fp).unwrap();
    let mut x = model::Flow::default();
    let mut cnps = Cnps::new(interval, seed);
    let (mut sent, mut last) = (0, None);
    for now in 0..cycles {
        let cnp = cnps.cnp();
        let ok = last.is_none_or(|t: u64| now >= t + (64 * LINE as u64).div_ceil(x.rc as u64));
        let start = ok.then_some(64);
        x.cycle(&p, now, cnp, start);
        if ok {
            sent += 64;
            last = Some(now);
        }
    }
    sent
}

/// Closed loop for `cycles` cycles: flits sent by the fixed-point and the float flow.
fn sent(fp: &float::Params, interval: u64, seed: u64, cycles: u64) -> (u64, u64) {
    let p = Params::from_float(fp).unwrap();
    let mut x = model::Flow::default();
    let mut y = float::Flow::default();
    let mut cnps = Cnps::new(interval, seed);
    let (mut sx, mut sy) = (0, 0);
    for now in 0..cycles {
        let cnp = cnps.cnp();
        let start = x.eligible().then_some(64);
        x.cycle(&p, now, cnp, start);
        sx += start.unwrap_or(0) as u64;
        if cnp {
            y.cnp(fp, now);
        }
        y.timer(fp, now);
        if y.next_ok <= now {
            y.started(fp, 64, now);
            sy += 64;
        }
    }
    (sx, sy)
}

#[test]
fn the_rates_stay_close_on_the_paper_constants() {
    // CNPs at the NP's 50 us interval (9,766 cycles), 3 seeds of 20 M cycles (100 ms)
    for seed in 1..=3 {
        let d = rates(&paper(), 9766, seed, 20_000_000);
        eprintln!("paper, seed {seed}: {d:?}");
        assert!(d.cnps > 100 && d.increases > 1000, "{d:?}");
        assert!(d.rc < 0.001 && d.rt < 0.001 && d.alpha < 0.001, "{d:?}");
    }
}

#[test]
fn the_rates_stay_close_on_exact_constants() {
    for seed in 1..=3 {
        let d = rates(&exact(), 200, seed, 2_000_000);
        eprintln!("exact, seed {seed}: {d:?}");
        assert!(d.cnps > 1000 && d.increases > 5_000, "{d:?}");
        assert!(d.rc < 0.001 && d.rt < 0.001 && d.alpha < 0.001, "{d:?}");
    }
}

#[test]
fn the_limiters_send_the_same_within_a_percent() {
    for (name, fp, interval, cycles) in [
        ("paper", paper(), 9766, 20_000_000),
        ("paper on the grid", paper_on_the_grid(), 9766, 20_000_000),
        ("exact", exact(), 200, 2_000_000),
    ] {
        for seed in 1..=3 {
            let (x, y) = sent(&fp, interval, seed, cycles);
            let rel = (x as f64 - y as f64).abs() / y as f64;
            let r = sent_retro(&fp, interval, seed, cycles);
            let lim = (x as f64 - r as f64).abs() / r as f64;
            eprintln!(
                "{name}, seed {seed}: fixed {x} flits, float {y}, {:.4} %; fixed rates with \
                 the float's limiter {r}, {:.4} %",
                rel * 100.0,
                lim * 100.0
            );
            assert!(rel < 0.01, "{name} seed {seed}: fixed {x}, float {y}");
            assert!(
                lim < 0.001,
                "{name} seed {seed}: token bucket {x}, ChangeRate {r}"
            );
        }
    }
}

#[test]
fn at_a_rate_both_hold_exactly_the_gaps_are_equal() {
    let fp = exact();
    let p = Params::from_float(&fp).unwrap();
    for cuts in 1..=6 {
        // `cuts` CNPs in one cycle halve the rate each time (alpha stays 1 at g = 1/16 when
        // it starts at 1), then long timers keep it there.
        let fp = float::Params {
            rate_timer: 1 << 40,
            alpha_timer: 1 << 40,
            byte_counter: 1 << 18,
            ..fp
        };
        let p = Params {
            rate_timer: 16383,
            alpha_timer: 16383,
            byte_counter: 1 << 18,
            ..p
        };
        let mut x = model::Flow::default();
        let mut y = float::Flow::default();
        for _ in 0..cuts {
            x.cycle(&p, 0, true, None);
            y.cnp(&fp, 0);
        }
        assert_eq!(rate_fraction(x.rc), y.rc, "{cuts} cuts");
        let (mut gx, mut gy) = (Vec::new(), Vec::new());
        let (mut lx, mut ly) = (0, 0);
        for now in 1..16000 {
            let start = x.eligible().then_some(50);
            x.cycle(&p, now, false, start);
            if start.is_some() {
                gx.push(now - lx);
                lx = now;
            }
            if y.next_ok <= now {
                y.started(&fp, 50, now);
                gy.push(now - ly);
                ly = now;
            }
        }
        assert_eq!(gx, gy, "{cuts} cuts: rate {}", y.rc);
        assert_eq!(gx[2], (50u64 * LINE as u64).div_ceil(x.rc as u64));
    }
}
