//! Plain-Rust reference model of DCQCN's reaction point (RP) in the fixed-point integers the
//! RTL holds (Zhu et al., SIGCOMM 2015; docs/cc/dcqcn.md, "The RTL"): per flow a current and
//! a target rate, alpha, two event counts, a byte counter, a rate timer, an alpha timer and
//! a rate limiter. No clock and no rust-hdl types; the RTL (`dcqcn::dcqcn_flow`,
//! `dcqcn::dcqcn_flows`) is tested against it cycle by cycle.
//!
//! The simulator runs the same rules in floating point ([`super::float`], moved there from
//! `sim/src/cc/dcqcn/nic.rs`, so its results did not change). This model is their
//! fixed-point version, not the same arithmetic: `hdl/tests/dcqcn_model.rs` bounds the
//! difference.
//!
//! # Numbers
//!
//! - **Rates** `rc`, `rt`: integers in units of the line rate / 2^15 ([`LINE`] = 2^15 is the
//!   line rate, one flit per cycle), 16 bits.
//! - **Alpha**: a fraction in units of 2^-15 ([`ONE`] = 2^15 is 1.0), 16 bits. g is a power
//!   of two, `2^-g_shift`, so `alpha * (1 - g)` is `alpha - round(alpha >> g_shift)`
//!   (rounded to the nearest unit: [`Params::decay`]).
//! - **Counts** T and BC: 8 bits, saturating at 255 (the simulator's saturate at 2^32 - 1).
//! - **Timers**: cycles, 1..=2^14 - 1 ([`TIMER_BITS`]).
//! - **Byte counter**: flits sent since the last byte-counter event, below `byte_counter`
//!   (at most 2^18 flits).
//! - **Rate limiter**: the flow's debt `deficit` in rate units x cycles (22 bits): a packet
//!   of L flits (at most 127, [`FLIT_BITS`]) costs `L * LINE`; every cycle the flow earns
//!   its rate `rc` (the register at the cycle's start); it may start a packet when the debt
//!   is paid (`deficit == 0`).
//!
//! # Rules, one flow, one cycle (in this order)
//!
//! 1. **Alpha timer** (armed by the first CNP, then every `alpha_timer` cycles from the
//!    last CNP): `alpha = decay(alpha)`.
//! 2. **CNP**: `rt = rc`; `rc = max(rc - round(rc * alpha / 2^16), min_rate)`
//!    (`rc (1 - alpha/2)` with the alpha after step 1); `alpha = decay(alpha) + (ONE >>
//!    g_shift)`;
//!    T, BC and the byte counter to 0; the rate timer and the alpha timer restart; the flow
//!    is limited.
//! 3. **Rate timer** (while limited, every `rate_timer` cycles from the last CNP; not in the
//!    cycle of a CNP, which restarts it): `T += 1`, then an increase.
//! 4. **Packet start** of L flits: while limited, the byte counter adds L; at
//!    `byte_counter` it subtracts it, `BC += 1`, then an increase. The limiter's debt
//!    becomes `max(L * LINE - rc, 0)` (rc at the cycle's start). Without a start the debt
//!    is `max(deficit - rc, 0)`.
//!
//! **Increase** ([`Params::increase`]): with `hi = max(T, BC)`, `lo = min(T, BC)`: nothing
//! to RT while `hi <= F` (fast recovery); `RT += (lo - F) * rhai` while `lo > F` (hyper);
//! otherwise `RT += rai` (additive). RT is capped at [`LINE`]; then `RC = (RT + RC + 1) >> 1`
//! (rounded up, so RC reaches RT). When both are at [`LINE`] the flow is no longer limited:
//! its rate timer stops (alpha's runs on).
//!
//! # Where it differs from the simulator's floating point
//!
//! - Rounding: the constants (R_AI, R_HAI, the floor) are rounded to rate units
//!   ([`Params::from_float`]: R_AI 40 Mb/s of 100 Gb/s is 13.1 units, held as 13); the cut
//!   and alpha's decay round to the nearest unit (with both truncated, a flow sent 0.7 to
//!   2.2 % less than the float's over 100 ms, `hdl/tests/dcqcn_model.rs`), so
//!   alpha's decay stops at `2^(g_shift - 1) - 1` units (0.39 % at g = 1/256) where the
//!   float's goes on to 0; `(RT + RC + 1) >> 1` reaches RT where the float stops within
//!   1e-9.
//! - Alpha's periods are applied one by one when they end, not with `powf` at the next CNP
//!   (the same periods; other rounding).
//! - The limiter: a rate change applies from the cycle after it to the debt still to pay
//!   (a token bucket). The simulator moves the next start as if the whole gap since the
//!   last start had run at the new rate (NS-3's `ChangeRate`). At a constant rate both give
//!   `ceil(L * LINE / rc)` cycles between starts; after a change they differ by less than
//!   one packet's gap.

use super::float;
use std::fmt;

/// Bits of a rate's fraction: rates are integers of line rate / 2^15.
pub const RATE_BITS: u32 = 15;
/// The line rate (one flit per cycle) in rate units.
pub const LINE: u16 = 1 << RATE_BITS;
/// Bits of alpha's fraction.
pub const ALPHA_BITS: u32 = 15;
/// Alpha = 1.0.
pub const ONE: u16 = 1 << ALPHA_BITS;
/// Bits of the timers (periods up to 2^14 - 1 cycles).
pub const TIMER_BITS: u32 = 14;
/// Bits of a packet's length: up to 127 flits.
pub const FLIT_BITS: u32 = 7;
/// The longest packet, flits.
pub const MAX_FLITS: u32 = (1 << FLIT_BITS) - 1;
/// The largest byte counter, flits (the register holds up to twice it).
pub const MAX_BYTE_COUNTER: u32 = 1 << 18;
/// Bits of the byte counter's register.
pub const BYTE_BITS: u32 = 19;
/// Bits of the limiter's debt (`MAX_FLITS * LINE < 2^22`).
pub const DEFICIT_BITS: u32 = 22;
/// Where the event counts saturate.
pub const COUNT_MAX: u8 = u8::MAX;

/// The RP's constants as the RTL holds them (synthesis-time parameters).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Params {
    /// Rate timer, cycles (1..=2^14 - 1).
    pub rate_timer: u16,
    /// Alpha timer, cycles (1..=2^14 - 1).
    pub alpha_timer: u16,
    /// Byte counter, flits (127..=2^18: at least the longest packet).
    pub byte_counter: u32,
    /// Fast-recovery steps F (1..=255).
    pub f: u8,
    /// g = 2^-g_shift (1..=15).
    pub g_shift: u8,
    /// R_AI, rate units (0..=LINE).
    pub rai: u16,
    /// R_HAI, rate units (0..=LINE).
    pub rhai: u16,
    /// The floor of a cut, rate units (1..=LINE).
    pub min_rate: u16,
}

/// A rate as a fraction of the line rate.
pub fn rate_fraction(units: u16) -> f64 {
    units as f64 / LINE as f64
}

/// Alpha as a fraction.
pub fn alpha_fraction(units: u16) -> f64 {
    units as f64 / ONE as f64
}

/// A fraction of the line rate rounded to rate units.
pub fn rate_units(fraction: f64) -> f64 {
    (fraction * LINE as f64).round()
}

impl Params {
    /// The paper's constants (docs/cc/dcqcn.md, "Parameters") on the default network (64 B
    /// flits at 100 Gb/s, 5.12 ns a cycle): timers of 55 us = 10,742 cycles, the byte
    /// counter 10 MiB = 163,840 flits, F = 5, g = 1/256, R_AI 40 Mb/s = 13 units (0.0397 %
    /// of the line against 0.04 %), R_HAI 100 Mb/s = 33 units, the floor 100 Mb/s = 33.
    pub fn paper() -> Params {
        Params {
            rate_timer: 10742,
            alpha_timer: 10742,
            byte_counter: 163_840,
            f: 5,
            g_shift: 8,
            rai: 13,
            rhai: 33,
            min_rate: 33,
        }
    }

    /// The simulator's constants `p` converted: rates rounded to units (the floor at least
    /// 1 unit), g = 2^-g_shift exactly. An error names what does not fit the RTL.
    pub fn from_float(p: &float::Params) -> Result<Params, String> {
        let timer = |name: &str, v: u64| {
            if (1..1 << TIMER_BITS).contains(&v) {
                Ok(v as u16)
            } else {
                Err(format!(
                    "{name} = {v} cycles: the RTL's timers hold 1..={}",
                    (1 << TIMER_BITS) - 1
                ))
            }
        };
        let g_shift = (1..=ALPHA_BITS as u8)
            .find(|&k| p.g == 1.0 / (1u32 << k) as f64)
            .ok_or_else(|| format!("g = {}: the RTL needs 2^-k, k in 1..=15", p.g))?;
        let units = |name: &str, v: f64| {
            let u = rate_units(v);
            if (0.0..=LINE as f64).contains(&u) {
                Ok(u as u16)
            } else {
                Err(format!("{name} = {v}: not a fraction of the line rate"))
            }
        };
        if p.byte_counter > MAX_BYTE_COUNTER as u64 {
            return Err(format!(
                "byte_counter = {} flits: the RTL holds up to {MAX_BYTE_COUNTER}",
                p.byte_counter
            ));
        }
        let q = Params {
            rate_timer: timer("rate_timer", p.rate_timer)?,
            alpha_timer: timer("alpha_timer", p.alpha_timer)?,
            byte_counter: p.byte_counter as u32,
            f: u8::try_from(p.f).map_err(|_| format!("f = {}: allowed 1..=255", p.f))?,
            g_shift,
            rai: units("rai", p.rai)?,
            rhai: units("rhai", p.rhai)?,
            min_rate: units("min_rate", p.min_rate)?.max(1),
        };
        q.check()?;
        Ok(q)
    }

    /// Why these constants do not fit the RTL, if they do not.
    pub fn check(&self) -> Result<(), String> {
        let max_timer = (1u32 << TIMER_BITS) - 1;
        for (name, v) in [
            ("rate_timer", self.rate_timer),
            ("alpha_timer", self.alpha_timer),
        ] {
            if !(1..=max_timer).contains(&(v as u32)) {
                return Err(format!("{name} = {v}: allowed 1..={max_timer} cycles"));
            }
        }
        if !(MAX_FLITS..=MAX_BYTE_COUNTER).contains(&self.byte_counter) {
            return Err(format!(
                "byte_counter = {}: allowed {MAX_FLITS}..={MAX_BYTE_COUNTER} flits",
                self.byte_counter
            ));
        }
        if self.f == 0 {
            return Err("f = 0: allowed 1..=255".to_string());
        }
        if !(1..=ALPHA_BITS as u8).contains(&self.g_shift) {
            return Err(format!(
                "g_shift = {}: allowed 1..={ALPHA_BITS}",
                self.g_shift
            ));
        }
        for (name, v, lo) in [
            ("rai", self.rai, 0),
            ("rhai", self.rhai, 0),
            ("min_rate", self.min_rate, 1),
        ] {
            if !(lo..=LINE).contains(&v) {
                return Err(format!("{name} = {v}: allowed {lo}..={LINE} rate units"));
            }
        }
        Ok(())
    }

    /// Alpha after one period of its timer: `alpha - ((alpha + 2^(g_shift-1)) >> g_shift)`,
    /// `alpha (1 - g)` rounded to the nearest unit.
    #[inline]
    pub fn decay(&self, alpha: u16) -> u16 {
        alpha - ((alpha + (1 << (self.g_shift - 1))) >> self.g_shift)
    }

    /// Alpha after a CNP: `decay(alpha) + (ONE >> g_shift)`, `(1 - g) alpha + g`.
    #[inline]
    pub fn alpha_cnp(&self, alpha: u16) -> u16 {
        self.decay(alpha) + (ONE >> self.g_shift)
    }

    /// RC after a CNP at `alpha`: `max(rc - ((rc * alpha + 2^15) >> 16), min_rate)`,
    /// `rc (1 - alpha / 2)` rounded to the nearest unit.
    #[inline]
    pub fn cut(&self, rc: u16, alpha: u16) -> u16 {
        let dec = ((rc as u32 * alpha as u32 + (1 << ALPHA_BITS)) >> (ALPHA_BITS + 1)) as u16;
        (rc - dec).max(self.min_rate)
    }

    /// One increase with the counts `t` and `bc` (this event's already counted): the new
    /// `(rt, rc)`.
    #[inline]
    pub fn increase(&self, rt: u16, rc: u16, t: u8, bc: u8) -> (u16, u16) {
        let (hi, lo) = (t.max(bc), t.min(bc));
        let step = if hi <= self.f {
            0
        } else if lo > self.f {
            (lo - self.f) as u32 * self.rhai as u32
        } else {
            self.rai as u32
        };
        let rt = (rt as u32 + step).min(LINE as u32);
        let rc = (rt + rc as u32 + 1) >> 1;
        (rt as u16, rc as u16)
    }

    /// The limiter's debt after a packet of `flits` starts at rate `rc`:
    /// `max(flits * LINE - rc, 0)`.
    #[inline]
    pub fn load(flits: u32, rc: u16) -> u32 {
        (flits << RATE_BITS).saturating_sub(rc as u32)
    }
}

/// One flow's RP state, as the RTL's registers hold it (the two timers as the cycle of
/// their next event).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Flow {
    /// Current and target rate, rate units.
    pub rc: u16,
    pub rt: u16,
    /// Alpha, units of 2^-15.
    pub alpha: u16,
    /// Rate-timer and byte-counter events since the last CNP (saturating).
    pub t: u8,
    pub bc: u8,
    /// Flits towards the next byte-counter event.
    pub bytes: u32,
    /// The limiter's debt, rate units x cycles.
    pub deficit: u32,
    /// Below the line rate: the rate timer runs.
    pub limited: bool,
    /// The rate timer's next event (while limited).
    pub rate_at: u64,
    /// The alpha timer's next event (None before the first CNP).
    pub alpha_at: Option<u64>,
}

impl Default for Flow {
    /// At the line rate, alpha 1, not limited, may start.
    fn default() -> Self {
        Flow {
            rc: LINE,
            rt: LINE,
            alpha: ONE,
            t: 0,
            bc: 0,
            bytes: 0,
            deficit: 0,
            limited: false,
            rate_at: 0,
            alpha_at: None,
        }
    }
}

/// What a flow's cycle did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Step {
    /// Increase events (the rate timer's and the byte counter's: 0, 1 or 2).
    pub increases: u8,
    /// The alpha timer's period ended.
    pub decayed: bool,
    /// A packet started while the flow was not eligible (the network never does it; the
    /// model, as the RTL, takes it).
    pub early: bool,
}

/// A packet started before the flow's debt was paid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Early;

impl fmt::Display for Early {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("packet started before the flow's rate limiter allowed it")
    }
}

impl std::error::Error for Early {}

impl Flow {
    /// The flow may start a packet this cycle (its debt is paid).
    #[inline]
    pub fn eligible(&self) -> bool {
        self.deficit == 0
    }

    /// One increase with the counts as they are now.
    fn raise(&mut self, p: &Params) {
        let (rt, rc) = p.increase(self.rt, self.rc, self.t, self.bc);
        self.rt = rt;
        self.rc = rc;
        if rt == LINE && rc == LINE {
            self.limited = false;
        }
    }

    /// Cycle `now`: the alpha timer, a CNP (`cnp`), the rate timer, then a packet start of
    /// `start` flits, and the limiter (module doc, "Rules").
    pub fn cycle(&mut self, p: &Params, now: u64, cnp: bool, start: Option<u32>) -> Step {
        let mut s = Step::default();
        let rc0 = self.rc;
        if self.alpha_at == Some(now) {
            self.alpha = p.decay(self.alpha);
            self.alpha_at = Some(now + p.alpha_timer as u64);
            s.decayed = true;
        }
        if cnp {
            self.rt = self.rc;
            self.rc = p.cut(self.rc, self.alpha);
            self.alpha = p.alpha_cnp(self.alpha);
            self.t = 0;
            self.bc = 0;
            self.bytes = 0;
            self.limited = true;
            self.rate_at = now + p.rate_timer as u64;
            self.alpha_at = Some(now + p.alpha_timer as u64);
        } else if self.limited && self.rate_at == now {
            self.t = self.t.saturating_add(1);
            self.rate_at = now + p.rate_timer as u64;
            self.raise(p);
            s.increases += 1;
        }
        match start {
            Some(flits) => {
                s.early = !self.eligible();
                if self.limited {
                    self.bytes += flits;
                    if self.bytes >= p.byte_counter {
                        self.bytes -= p.byte_counter;
                        self.bc = self.bc.saturating_add(1);
                        self.raise(p);
                        s.increases += 1;
                    }
                }
                self.deficit = Params::load(flits, rc0);
            }
            None => self.deficit = self.deficit.saturating_sub(rc0 as u32),
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Round numbers: timers of 100 cycles, byte counter 1,000 flits, F = 2, g = 1/4,
    /// R_AI 1/128 of the line, R_HAI 1/32, floor 1/128.
    fn p() -> Params {
        Params {
            rate_timer: 100,
            alpha_timer: 100,
            byte_counter: 1000,
            f: 2,
            g_shift: 2,
            rai: LINE / 128,
            rhai: LINE / 32,
            min_rate: LINE / 128,
        }
    }

    #[test]
    fn a_cnp_halves_at_first_and_raises_alpha() {
        let p = p();
        let mut f = Flow::default();
        f.cycle(&p, 10, true, None);
        assert_eq!((f.rt, f.rc), (LINE, LINE / 2), "alpha 1: halved");
        assert_eq!(f.alpha, ONE, "(1 - g) + g");
        assert!(f.limited);
        assert_eq!((f.rate_at, f.alpha_at), (110, Some(110)));
        // two alpha periods, then a CNP in the cycle the second ends: both decays first
        for now in 11..210 {
            f.cycle(&p, now, false, None);
        }
        assert_eq!(f.alpha, ONE - ONE / 4, "one period so far");
        let rc = f.rc;
        f.cycle(&p, 210, true, None);
        let a = p.decay(ONE - ONE / 4);
        assert_eq!(a, 24576 - 6144, "exact: 3/4 of 24,576");
        assert_eq!(f.rc, p.cut(rc, a));
        assert_eq!(f.alpha, a - a / 4 + ONE / 4);
        // rounding to the nearest unit: 7 / 4 = 1.75 -> 2; the floor 2^(g_shift-1) - 1
        assert_eq!(p.decay(7), 5);
        assert_eq!(p.decay(1), 1);
        assert_eq!(p.decay(2), 1);
        let q = Params { min_rate: 1, ..p };
        assert_eq!(q.cut(3, ONE), 1, "3 - round(1.5)");
    }

    #[test]
    fn the_floor_holds_and_the_cut_never_underflows() {
        let p = p();
        let mut f = Flow::default();
        for now in 0..40 {
            f.cycle(&p, now, true, None);
        }
        assert_eq!(f.rc, p.min_rate);
        for rc in [1, 2, 3, 1000, LINE - 1, LINE] {
            for a in [0, 1, ONE / 2, ONE - 1, ONE] {
                let c = p.cut(rc, a);
                assert!(c <= rc.max(p.min_rate) && c >= p.min_rate, "{rc} {a} {c}");
            }
        }
    }

    #[test]
    fn fast_recovery_then_additive_then_hyper() {
        let p = p();
        // RT 1/2, RC 1/4
        let (rt, rc) = (LINE / 2, LINE / 4);
        assert_eq!(
            p.increase(rt, rc, 1, 0),
            (rt, (rt + rc).div_ceil(2)),
            "fast recovery"
        );
        assert_eq!(p.increase(rt, rc, 2, 2).0, rt, "F = 2: still fast recovery");
        assert_eq!(p.increase(rt, rc, 3, 0).0, rt + p.rai, "T > F: additive");
        assert_eq!(p.increase(rt, rc, 0, 3).0, rt + p.rai, "BC > F: additive");
        assert_eq!(
            p.increase(rt, rc, 5, 3).0,
            rt + p.rhai,
            "both > F: hyper, 1 step"
        );
        assert_eq!(
            p.increase(rt, rc, 5, 7).0,
            rt + 3 * p.rhai,
            "min(T, BC) - F = 3"
        );
        assert_eq!(p.increase(LINE - 1, 0, 255, 255).0, LINE, "capped");
        assert_eq!(
            p.increase(LINE, LINE - 1, 0, 0),
            (LINE, LINE),
            "RC reaches RT"
        );
    }

    #[test]
    fn the_rate_timer_raises_until_the_line_then_stops() {
        let p = Params { rai: LINE, ..p() };
        let mut f = Flow::default();
        f.cycle(&p, 0, true, None);
        let mut events = 0;
        let mut now = 1;
        while f.limited {
            let s = f.cycle(&p, now, false, None);
            events += s.increases as u32;
            assert!(s.increases == 0 || now % 100 == 0, "only every 100 cycles");
            now += 1;
            assert!(now < 100 * 100, "never recovers");
        }
        assert_eq!((f.rc, f.rt), (LINE, LINE));
        assert!(events > 2);
        let t = f.t;
        for n in now..now + 500 {
            assert_eq!(f.cycle(&p, n, false, None).increases, 0, "stopped");
        }
        assert_eq!(f.t, t);
    }

    #[test]
    fn the_byte_counter_counts_only_while_limited() {
        let p = p();
        let mut f = Flow::default();
        f.cycle(&p, 0, false, Some(100));
        assert_eq!(f.bytes, 0, "at line rate: not counted");
        f.cycle(&p, 1, true, None);
        let mut now = 2;
        for _ in 0..9 {
            f.cycle(&p, now, false, Some(100));
            now += 1;
        }
        assert_eq!((f.bytes, f.bc), (900, 0));
        let s = f.cycle(&p, now, false, Some(110));
        assert_eq!((f.bytes, f.bc, s.increases), (10, 1, 1));
    }

    #[test]
    fn a_cnp_in_the_cycle_of_a_timer_event_restarts_it() {
        let p = p();
        let mut f = Flow::default();
        f.cycle(&p, 0, true, None);
        for now in 1..100 {
            f.cycle(&p, now, false, None);
        }
        let s = f.cycle(&p, 100, true, None);
        assert_eq!((s.increases, f.t, f.rate_at), (0, 0, 200));
    }

    #[test]
    fn the_limiter_spaces_starts_by_the_rate() {
        let p = p();
        let mut f = Flow::default();
        f.cycle(&p, 0, false, Some(64));
        let free = (1..200).find(|&n| {
            let e = f.eligible();
            f.cycle(&p, n, false, None);
            e
        });
        assert_eq!(free, Some(64), "line rate: the packet's own time");
        // a third of the line: ceil(64 * 3) cycles
        let mut f = Flow {
            rc: LINE / 3,
            ..Flow::default()
        };
        f.cycle(&p, 0, false, Some(64));
        let mut n = 1;
        while !f.eligible() {
            f.cycle(&p, n, false, None);
            n += 1;
        }
        let want = (64u64 * LINE as u64).div_ceil((LINE / 3) as u64);
        assert_eq!(n, want, "eligible in cycle ceil(64 LINE / rc)");
        let s = f.cycle(&p, n, false, Some(1));
        assert!(!s.early);
        let s = f.cycle(&p, n + 1, false, Some(1));
        assert!(s.early, "a start before the debt is paid is flagged");
    }

    #[test]
    fn the_paper_converts_and_checks() {
        let fp = float::Params {
            alpha_timer: 10742,
            rate_timer: 10742,
            byte_counter: 163_840,
            f: 5,
            g: 1.0 / 256.0,
            rai: 0.0004,
            rhai: 0.001,
            min_rate: 0.001,
        };
        assert_eq!(Params::from_float(&fp), Ok(Params::paper()));
        assert!(Params::paper().check().is_ok());
        let bad = float::Params { g: 0.003, ..fp };
        assert!(Params::from_float(&bad).unwrap_err().contains("g = 0.003"));
        let bad = float::Params {
            rate_timer: 20000,
            ..fp
        };
        assert!(Params::from_float(&bad)
            .unwrap_err()
            .contains("rate_timer = 20000"));
        let tiny = float::Params {
            min_rate: 1e-9,
            ..fp
        };
        assert_eq!(Params::from_float(&tiny).unwrap().min_rate, 1);
        let q = Params {
            byte_counter: 100,
            ..Params::paper()
        };
        assert!(q.check().unwrap_err().contains("byte_counter = 100"));
    }
}
