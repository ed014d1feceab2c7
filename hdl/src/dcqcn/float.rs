//! DCQCN's reaction point (RP) in floating point: the rules the simulator runs
//! (`sim/src/cc/dcqcn/nic.rs` calls these functions for every flow; docs/cc/dcqcn.md, "The
//! source"). Moved here unchanged from the simulator, so that the fixed-point rules of the
//! RTL ([`super::model`]) sit beside them and a test bounds their difference
//! (`hdl/tests/dcqcn_model.rs`). The simulator's results are byte-identical to those before
//! the move.
//!
//! Event driven, not stepped by cycle: a CNP at `now` ([`Flow::cnp`]), the rate timer's
//! events up to `now` ([`Flow::timer`]), a packet start ([`Flow::started`]). Alpha's timer is
//! kept lazily: the periods elapsed since the last CNP are applied at the next CNP with
//! `powf`.

/// "Never" for a time.
pub const NEVER: u64 = u64::MAX;

/// The RP's constants, in flits, cycles and fractions of the line rate (the simulator's
/// `Derived`, the RP's part).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Params {
    /// Alpha timer and rate timer, cycles (at least 1).
    pub alpha_timer: u64,
    pub rate_timer: u64,
    /// Byte counter, flits (at least 1).
    pub byte_counter: u64,
    /// Fast-recovery steps F.
    pub f: u32,
    /// Alpha's gain g.
    pub g: f64,
    /// R_AI, R_HAI and the floor, fractions of the line rate.
    pub rai: f64,
    pub rhai: f64,
    pub min_rate: f64,
}

/// One flow's RP state.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Flow {
    /// Current and target rate, fractions of the line rate.
    pub rc: f64,
    pub rt: f64,
    /// Alpha and the cycle from which its timer runs (NEVER: no CNP yet).
    pub alpha: f64,
    pub alpha_t: u64,
    /// Rate-timer events and byte-counter events since the last CNP, flits counted towards
    /// the next byte-counter event, next rate-timer event.
    pub t: u32,
    pub bc: u32,
    pub bytes: u64,
    pub next_t: u64,
    /// The last packet's start and length, and the earliest start of the next.
    pub last_start: u64,
    pub last_len: u32,
    pub next_ok: u64,
    /// Below the line rate: the timers run.
    pub limited: bool,
}

impl Default for Flow {
    fn default() -> Self {
        Flow {
            rc: 1.0,
            rt: 1.0,
            alpha: 1.0,
            alpha_t: NEVER,
            t: 0,
            bc: 0,
            bytes: 0,
            next_t: NEVER,
            last_start: 0,
            last_len: 0,
            next_ok: 0,
            limited: false,
        }
    }
}

/// Cycles between the starts of two packets of `len` flits at rate `rc`.
#[inline]
fn gap(len: u32, rc: f64) -> u64 {
    if rc >= 1.0 {
        len as u64
    } else {
        (len as f64 / rc).ceil() as u64
    }
}

impl Flow {
    /// The next start from the last one at the current rate.
    #[inline]
    fn repace(&mut self) {
        if self.last_len > 0 {
            self.next_ok = self.last_start.saturating_add(gap(self.last_len, self.rc));
        }
    }

    /// A CNP at `now`.
    #[inline]
    pub fn cnp(&mut self, d: &Params, now: u64) {
        if self.alpha_t != NEVER {
            let k = (now - self.alpha_t) / d.alpha_timer;
            if k > 0 {
                self.alpha *= (1.0 - d.g).powf(k as f64);
            }
        }
        self.rt = self.rc;
        self.rc = (self.rc * (1.0 - self.alpha / 2.0)).max(d.min_rate);
        self.alpha = (1.0 - d.g) * self.alpha + d.g;
        self.alpha_t = now;
        self.t = 0;
        self.bc = 0;
        self.bytes = 0;
        self.next_t = now + d.rate_timer;
        self.limited = true;
        self.repace();
    }

    /// One increase event (the timer's or the byte counter's, already counted).
    #[inline]
    pub fn increase(&mut self, d: &Params) {
        let (hi, lo) = (self.t.max(self.bc), self.t.min(self.bc));
        if hi <= d.f {
            // fast recovery: towards RT
        } else if lo > d.f {
            self.rt += (lo - d.f) as f64 * d.rhai;
        } else {
            self.rt += d.rai;
        }
        self.rt = self.rt.min(1.0);
        self.rc = (self.rt + self.rc) / 2.0;
        if self.rt >= 1.0 && self.rc >= 1.0 - 1e-9 {
            self.rc = 1.0;
            self.limited = false;
            self.next_t = NEVER;
        }
        self.repace();
    }

    /// The rate timer at `now`: every event due (false: the flow is no longer limited).
    #[inline]
    pub fn timer(&mut self, d: &Params, now: u64) -> bool {
        while self.limited && self.next_t <= now {
            self.t = self.t.saturating_add(1);
            self.next_t += d.rate_timer;
            self.increase(d);
        }
        self.limited
    }

    /// A packet of `len` flits starts at `now`.
    #[inline]
    pub fn started(&mut self, d: &Params, len: u32, now: u64) {
        self.last_start = now;
        self.last_len = len;
        self.next_ok = now.saturating_add(gap(len, self.rc));
        if self.limited {
            self.bytes += len as u64;
            if self.bytes >= d.byte_counter {
                self.bytes -= d.byte_counter;
                self.bc = self.bc.saturating_add(1);
                self.increase(d);
            }
        }
    }
}
