//! The seeded random event streams of IB CC's two cycle-by-cycle comparisons with its
//! reference model (`pft_hdl::ibcc::model`), shared by `hdl/tests/ibcc_rtl.rs` (the rust-hdl
//! RTL) and `tb/tests/ibcc_verilog.rs` (the exported Verilog under Verilator): the
//! parameter sets both run, the stream of BECNs and packet starts for a port's N flows
//! ([`Stream`]), and the events counted on the model ([`Coverage`]) with the checks both
//! make of them.

use pft_hdl::ibcc::model::{linear_cct, Params};
use pft_hdl::ibcc::stepper::{Events, Outputs, Port};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// Table I's rules (increase 1, limit 127, floor 0, linear CCT) with a short timer.
pub fn table1_short() -> (Params, u64) {
    (Params::table1(), 97)
}

/// Steps of 5 to a limit of 40 with a floor of 3, a CCT with every shift and scattered
/// multipliers below 101.
pub fn steep() -> (Params, u64) {
    (
        Params {
            increase: 5,
            limit: 40,
            min: 3,
            cct: (0..=40u16)
                .map(|i| ((i % 4) << 14) | ((i * 37) % 101))
                .collect(),
        },
        23,
    )
}

/// Table I's limit with the export's random CCT (`pft_hdl::ibcc::table1_random`: shifts and
/// multipliers anywhere, so long waits; run with short packets).
pub fn table1_random() -> (Params, u64) {
    (pft_hdl::ibcc::table1_random(), 61)
}

/// The widest steps: increase 255 against a limit of 255 (one BECN to the top), CCT entry
/// i = shift i mod 4, multiplier i.
pub fn widest() -> (Params, u64) {
    let cct = (0..=255u16).map(|i| ((i & 3) << 14) | i).collect();
    (
        Params {
            increase: 255,
            limit: 255,
            min: 0,
            cct,
        },
        11,
    )
}

/// The floor at the limit: the timer never lowers a CCTI that reached it.
pub fn floor_at_limit() -> (Params, u64) {
    (
        Params {
            increase: 2,
            limit: 9,
            min: 9,
            cct: linear_cct(9),
        },
        5,
    )
}

/// Limit 0: the CCTI never leaves 0 (no BECN takes effect), the timer still ticks.
pub fn limit_zero() -> (Params, u64) {
    (
        Params {
            increase: 3,
            limit: 0,
            min: 0,
            cct: linear_cct(0),
        },
        1,
    )
}

/// BECNs for a port's flows in phases (a burst of congestion: a BECN every 5 to 30 cycles,
/// 70 % to one hot flow; moderate: every 50 to 300; quiet: every 1,000), packet starts of a flow that may start (85 %: the
/// scheduler's pick) with mostly full-size packets and some short ones (1 flit, 0 flits
/// now and then), starts of any flow now and then (early: the network never does it, the
/// model still defines it), rare resets.
pub struct Stream {
    rng: Xoshiro256PlusPlus,
    max_flits: u32,
    hot_flow: usize,
    becn_rate: f64,
    phase_left: u64,
}

impl Stream {
    /// The stream for packets of up to `max_flits` from `seed`.
    pub fn new(max_flits: u32, seed: u64) -> Stream {
        Stream {
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            max_flits,
            hot_flow: 0,
            becn_rate: 0.1,
            phase_left: 0,
        }
    }

    /// Cycle `t`'s inputs, (reset, events), for the model `port` as it stands before it.
    pub fn cycle(&mut self, t: u64, port: &Port) -> (bool, Events) {
        let rng = &mut self.rng;
        let n = port.flows.len();
        if self.phase_left == 0 {
            self.becn_rate = match rng.gen_range(0..4) {
                0 | 1 => 0.001,
                2 => rng.gen_range(0.03..0.2),
                _ => rng.gen_range(0.003..0.02),
            };
            self.hot_flow = rng.gen_range(0..n);
            self.phase_left = rng.gen_range(50..=2000);
        }
        self.phase_left -= 1;
        let reset = rng.gen_bool(1e-4);
        let mut ev = Events::default();
        if rng.gen_bool(self.becn_rate) {
            ev.becn = Some(if rng.gen_bool(0.7) {
                self.hot_flow
            } else {
                rng.gen_range(0..n)
            });
        }
        let flits = match rng.gen_range(0..20) {
            0 => 0,
            1..=2 => 1,
            3..=5 => rng.gen_range(1..=self.max_flits),
            _ => self.max_flits,
        };
        let ready: Vec<usize> = (0..n).filter(|&i| port.flows[i].eligible(t)).collect();
        if !ready.is_empty() && rng.gen_bool(0.85) {
            ev.start = Some((ready[rng.gen_range(0..ready.len())], flits));
        } else if rng.gen_bool(0.01) {
            ev.start = Some((rng.gen_range(0..n), flits));
        }
        (reset, ev)
    }
}

/// Events seen in a run (counted on the model), to show the stream exercised the rules.
#[derive(Debug, Default, Clone)]
pub struct Coverage {
    pub cycles: u64,
    pub becns: u64,
    /// BECNs that left the CCTI at the limit.
    pub at_limit: u64,
    pub ticks: u64,
    /// Expiries that lowered some CCTI.
    pub lowered: u64,
    /// Expiries that found some CCTI at the floor above 0 (or at 0).
    pub at_floor: u64,
    pub starts: u64,
    /// Starts at CCTI > 0 (a table read).
    pub starts_with_ird: u64,
    /// Starts in the first cycle the flow may (`next_ok == now`, after a wait).
    pub at_next_ok: u64,
    pub early: u64,
    pub resets: u64,
    /// Cycles some flow waits.
    pub waiting: u64,
}

impl Coverage {
    /// One cycle of the model: the port `before` and `after` it, with its inputs and outputs.
    pub fn count(
        &mut self,
        t: u64,
        before: &Port,
        after: &Port,
        reset: bool,
        ev: &Events,
        o: &Outputs,
    ) {
        self.cycles += 1;
        self.waiting += before.flows.iter().any(|f| f.next_ok > t) as u64;
        if reset {
            self.resets += 1;
            return;
        }
        if let Some(i) = ev.becn {
            self.becns += 1;
            self.at_limit += (after.flows[i].ccti == before.p.limit && !o.tick) as u64;
        }
        if o.tick {
            self.ticks += 1;
            let lowered = before
                .flows
                .iter()
                .zip(&after.flows)
                .any(|(b, a)| a.ccti < b.ccti);
            self.lowered += lowered as u64;
            self.at_floor += after.flows.iter().any(|f| f.ccti <= before.p.min) as u64;
        }
        if let Some((i, _)) = ev.start {
            self.starts += 1;
            self.early += o.early as u64;
            self.starts_with_ird += (after.flows[i].ccti > 0) as u64;
            let b = &before.flows[i];
            self.at_next_ok += (b.next_ok == t && t > 0) as u64;
        }
    }

    /// What every run of the stream must show, for `p`.
    pub fn check_the_rules_ran(&self, p: &Params) {
        self.check_the_rules_ran_above_the_floor(p);
        assert!(self.at_floor > 0, "{self:?}");
    }

    /// `check_the_rules_ran` but a timer expiry at the CCTI's floor: with a timer much
    /// slower than the stream's BECNs (a scenario's 30,000 cycles at 100 Gb/s against a
    /// BECN every 30 cycles or so) the CCTI never falls back to the floor.
    pub fn check_the_rules_ran_above_the_floor(&self, p: &Params) {
        let c = self;
        assert!(c.becns > c.cycles / 500 && c.ticks > 10, "{c:?}");
        assert!(c.starts > c.cycles / 200 && c.at_next_ok > 10, "{c:?}");
        assert!(c.early > 3 && c.waiting > c.cycles / 10, "{c:?}");
        if p.limit > 0 {
            assert!(c.at_limit > 3 && c.starts_with_ird > 10, "{c:?}");
            if p.min < p.limit {
                assert!(c.lowered > 5, "{c:?}");
            }
        }
    }
}
