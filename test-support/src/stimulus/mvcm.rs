//! The seeded random event streams of MVCM's two cycle-by-cycle comparisons with its
//! reference model (`pft_hdl::mvcm::model`), shared by `hdl/tests/mvcm_rtl.rs` (the rust-hdl
//! RTL) and `tb/tests/mvcm_verilog.rs` (the exported Verilog under Verilator): the
//! parameter sets both run, the stream of ACKs, fast resets and injections for N flows
//! ([`Stream`]), and the events counted on the model ([`Coverage`]) with the checks both
//! make of them.

use pft_hdl::mvcm::model::{Flow, Params};
use pft_hdl::mvcm::stepper::{FlowsEvents, FlowsOutputs};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::collections::VecDeque;

/// A short waiting interval, a window of 4, k = 2: every rule within a few hundred cycles.
pub const SMALL: Params = Params {
    dw_max: 4,
    k: 2,
    n: 3,
    rtt_min: 5,
    ws_max_incs: 3,
};

/// The paper's k = 4 and n = 5 with a short RTT (`4^5 * 3 = 3,072` cycles at the cap).
pub const PAPER_SHORT_RTT: Params = Params {
    dw_max: 2,
    k: 4,
    n: 5,
    rtt_min: 3,
    ws_max_incs: 5,
};

/// k not a power of two, a window of 1 (no DW phase: the first imminent ACK sets a slot).
pub const ODD_K_WINDOW_1: Params = Params {
    dw_max: 1,
    k: 3,
    n: 4,
    rtt_min: 2,
    ws_max_incs: 4,
};

/// No increases allowed: the slots stay at one (`ws_max_incs = 0`); a wide window.
pub const NO_INCREASES: Params = Params {
    dw_max: 9,
    k: 8,
    n: 2,
    rtt_min: 7,
    ws_max_incs: 0,
};

/// The widest window and exponent field: dw_max 255, k = 2, 7 increases, rtt_min 1.
pub const WIDEST: Params = Params {
    dw_max: 255,
    k: 2,
    n: 12,
    rtt_min: 1,
    ws_max_incs: 7,
};

/// How ACKs are marked in a phase of the stream.
#[derive(Clone, Copy, Debug)]
enum Phase {
    /// Mostly MB = 1, VB = 1: the window falls and the slots grow to the cap.
    Hot,
    /// Mostly MB = 1, VB = 0.
    Warm,
    /// Mostly clean: recovery.
    Clean,
    /// Any class.
    Mixed,
}

/// Events for N flows, closed loop on the model: each accepted injection returns an ACK
/// 1 to `2 * rtt_min` cycles later (at most one ACK per cycle: the earliest due), marked
/// by the phase (hot, warm, clean, mixed, switching every 20 to 3,000 cycles; 1 % MB = 0,
/// VB = 1); a stray ACK now and then when nothing is outstanding; fast resets (rare in a
/// hot phase); injections
/// of a flow that may inject (90 %), and now and then of any flow (refused, or allowed by
/// that cycle's ACK or fast reset); rare synchronous resets, which drop the ACKs in
/// flight.
pub struct Stream {
    rng: Xoshiro256PlusPlus,
    /// Per flow: the cycles its outstanding packets' ACKs are due, in order.
    due: Vec<VecDeque<u64>>,
    phase: Phase,
    phase_left: u64,
    /// The ACK latency is `1..=lat_max`.
    lat_max: u64,
    reset_rate: f64,
    pending_inject: Option<usize>,
}

impl Stream {
    /// The stream of `p` for `n` flows from `seed`.
    pub fn new(p: Params, n: usize, seed: u64) -> Stream {
        Stream {
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            due: vec![VecDeque::new(); n],
            phase: Phase::Hot,
            phase_left: 500,
            lat_max: 2 * p.rtt_min as u64,
            reset_rate: 1e-4,
            pending_inject: None,
        }
    }

    /// Cycle `t`'s inputs, (reset, events), for the model's flows `fs` as they stand
    /// before the cycle. Call [`Stream::commit`] with the cycle's outputs after it.
    pub fn cycle(&mut self, t: u64, fs: &[Flow]) -> (bool, FlowsEvents) {
        let rng = &mut self.rng;
        if self.phase_left == 0 {
            self.phase = match rng.gen_range(0..10) {
                0..=3 => Phase::Hot,
                4 => Phase::Warm,
                5..=7 => Phase::Clean,
                _ => Phase::Mixed,
            };
            self.phase_left = rng.gen_range(20..=3000);
        }
        self.phase_left -= 1;
        let reset = rng.gen_bool(self.reset_rate);
        let mut ev = FlowsEvents::default();
        // The ACK: the earliest due, else now and then a stray one.
        let due = (0..fs.len())
            .filter_map(|i| self.due[i].front().map(|&d| (d, i)))
            .min();
        let bits = |rng: &mut Xoshiro256PlusPlus, phase: Phase| -> (bool, bool) {
            if rng.gen_bool(0.01) {
                return (false, true);
            }
            let r: f64 = rng.gen();
            let (hot, warm) = match phase {
                Phase::Hot => (0.8, 0.9),
                Phase::Warm => (0.1, 0.85),
                Phase::Clean => (0.05, 0.1),
                Phase::Mixed => (0.34, 0.67),
            };
            if r < hot {
                (true, true)
            } else if r < warm {
                (true, false)
            } else {
                (false, false)
            }
        };
        match due {
            Some((d, i)) if d <= t => {
                self.due[i].pop_front();
                let (mb, vb) = bits(rng, self.phase);
                ev.ack = Some((i, mb, vb));
            }
            _ => {
                if rng.gen_bool(0.002) {
                    let i = rng.gen_range(0..fs.len());
                    if self.due[i].is_empty() {
                        let (mb, vb) = bits(rng, self.phase);
                        ev.ack = Some((i, mb, vb));
                    }
                }
            }
        }
        // Fast resets: rare in a hot phase (the slots climb to the cap), more in the others.
        let fast = match self.phase {
            Phase::Hot => 0.0003,
            Phase::Clean => 0.004,
            _ => 0.002,
        };
        if rng.gen_bool(fast) {
            ev.fast_reset = Some(rng.gen_range(0..fs.len()));
        }
        // The injection: a flow that may (the scheduler's pick), else now and then any.
        let ready: Vec<usize> = (0..fs.len()).filter(|&i| fs[i].can_inject(t)).collect();
        if !ready.is_empty() && rng.gen_bool(0.9) {
            ev.inject = Some(ready[rng.gen_range(0..ready.len())]);
        } else if rng.gen_bool(0.05) {
            ev.inject = Some(rng.gen_range(0..fs.len()));
        }
        self.pending_inject = ev.inject;
        (reset, ev)
    }

    /// The outcome of the cycle `t` of [`Stream::cycle`]: an accepted injection's ACK is
    /// due later; a reset drops every ACK in flight.
    pub fn commit(&mut self, t: u64, reset: bool, o: &FlowsOutputs) {
        if reset {
            self.due.iter_mut().for_each(|q| q.clear());
            return;
        }
        if let Some(i) = self.pending_inject.take() {
            if !o.not_eligible {
                let lat = self.rng.gen_range(1..=self.lat_max);
                let at = self.due[i].back().map_or(t + lat, |&b| b.max(t + lat));
                self.due[i].push_back(at);
            }
        }
    }
}

/// Events seen in a run (counted on the model), to show the stream exercised the rules.
#[derive(Debug, Default, Clone)]
pub struct Coverage {
    pub cycles: u64,
    pub injections: u64,
    pub dw_down: u64,
    pub dw_up: u64,
    pub ws_set: u64,
    pub ws_up: u64,
    /// Imminent ACKs with the slots at the cap (nothing changes).
    pub ws_at_cap: u64,
    pub ws_removed: u64,
    pub fast_resets: u64,
    pub stray: u64,
    pub marks: u64,
    pub not_eligible: u64,
    pub resets: u64,
    /// Injections in the first cycle the interval allows (`next_ok == now`, slots set).
    pub at_next_ok: u64,
    /// Cycles some flow waits for its interval.
    pub waiting: u64,
    /// Cycles some flow has a full window.
    pub window_full: u64,
}

impl Coverage {
    /// One cycle of the model: the flows `before` and `after` it, with its inputs and
    /// outputs.
    #[allow(clippy::too_many_arguments)]
    pub fn count(
        &mut self,
        t: u64,
        before: &[Flow],
        after: &[Flow],
        reset: bool,
        ev: &FlowsEvents,
        o: &FlowsOutputs,
        p: &Params,
    ) {
        self.cycles += 1;
        self.waiting += before.iter().any(|f| f.next_ok > t) as u64;
        self.window_full += before.iter().any(|f| f.out >= f.dw) as u64;
        if reset {
            self.resets += 1;
            return;
        }
        self.stray += o.stray as u64;
        self.marks += o.marks as u64;
        self.not_eligible += o.not_eligible as u64;
        self.fast_resets += ev.fast_reset.is_some() as u64;
        if let Some(i) = ev.inject {
            if !o.not_eligible {
                self.injections += 1;
                let b = &before[i];
                self.at_next_ok += (b.ws_exp.is_some() && b.next_ok == t && t > 0) as u64;
            }
        }
        if let Some((i, mb, vb)) = ev.ack {
            if o.stray || o.marks {
                return;
            }
            let (b, a) = (&before[i], &after[i]);
            // The fast reset of the same flow comes after the ACK: judge the ACK alone.
            let reset_too = ev.fast_reset == Some(i);
            match (mb, vb) {
                (true, _) if b.dw > a.dw => self.dw_down += 1,
                (true, true) if b.ws_exp.is_none() && a.ws_exp == Some(0) => self.ws_set += 1,
                (true, true) if b.ws_exp.is_some() && a.ws_exp > b.ws_exp => self.ws_up += 1,
                (true, true) if b.ws_exp == Some(p.ws_max_incs as u8) && !reset_too => {
                    self.ws_at_cap += 1
                }
                (false, false) if b.ws_exp.is_some() => self.ws_removed += 1,
                (false, false) if a.dw > b.dw && !reset_too => self.dw_up += 1,
                _ => {}
            }
        }
    }

    /// What every run of the stream must show: each rule and error ran, for `p`.
    pub fn check_the_rules_ran(&self, p: &Params) {
        assert!(
            self.injections > self.cycles / 50,
            "few injections: {self:?}"
        );
        assert!(
            self.ws_at_cap > 0,
            "the slots never reached the cap: {self:?}"
        );
        self.check_the_rules_ran_with_long_waits(p);
    }

    /// `check_the_rules_ran` but the injection rate and the slots' cap, for a round trip
    /// as long as a scenario's: waits of up to k^n * rtt_min cycles leave fewer injections
    /// a cycle, and the stream's resets come before n raises in a row (`mvcm-hotspot`'s
    /// 4^5 * 58 cycles). Each rule and error still ran.
    pub fn check_the_rules_ran_with_long_waits(&self, p: &Params) {
        let c = self;
        assert!(c.injections > c.cycles / 200, "few injections: {c:?}");
        assert!(c.ws_set > 3 && c.ws_removed > 3, "{c:?}");
        if p.dw_max > 1 {
            assert!(c.dw_down > 3 && c.dw_up > 3, "{c:?}");
        }
        if p.ws_max_incs > 0 {
            assert!(c.ws_up > 3, "{c:?}");
        }
        assert!(c.fast_resets > 3 && c.stray > 0 && c.marks > 0, "{c:?}");
        assert!(c.not_eligible > 3 && c.at_next_ok > 3, "{c:?}");
        assert!(
            c.waiting > c.cycles / 20 && c.window_full > c.cycles / 50,
            "{c:?}"
        );
    }
}
