//! The seeded random event streams of DCQCN's reaction point in its two cycle-by-cycle
//! comparisons with its reference model (`pft_hdl::dcqcn::model`), shared by
//! `hdl/tests/dcqcn_rtl.rs` (the rust-hdl RTL) and `tb/tests/dcqcn_verilog.rs` (the
//! exported Verilog under Verilator): the parameter sets both run, the stream of CNPs and
//! packet starts for a port's N flows ([`Stream`]), and the events counted on the model
//! ([`Coverage`]) with the checks both make of them.

use pft_hdl::dcqcn::model::{Params, LINE, ONE};
use pft_hdl::dcqcn::stepper::{Events, Outputs, Port};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// Short timers (rate 37, alpha 23 cycles), a byte counter of 300 flits, F = 3, g = 1/16,
/// R_AI 1/64 of the line, R_HAI 1/16, floor 1/256: every rule runs often, and flows return
/// to the line rate.
pub fn quick() -> Params {
    Params {
        rate_timer: 37,
        alpha_timer: 23,
        byte_counter: 300,
        f: 3,
        g_shift: 4,
        rai: LINE / 64,
        rhai: LINE / 16,
        min_rate: LINE / 256,
    }
}

/// The paper's rules and rounding (g = 1/256, F = 5, R_AI 13, R_HAI 33, floor 33 units)
/// with timers of 97 and 61 cycles and a byte counter of 500 flits: deep cuts, slow
/// recovery.
pub fn paper_short() -> Params {
    Params {
        rate_timer: 97,
        alpha_timer: 61,
        byte_counter: 500,
        ..Params::paper()
    }
}

/// The extremes: g = 1/2, F = 1, timers of 5 and 7 cycles, the smallest byte counter (127
/// flits), R_AI a quarter of the line, R_HAI the whole line (hyper steps saturate), the
/// floor 1 unit.
pub fn steep() -> Params {
    Params {
        rate_timer: 5,
        alpha_timer: 7,
        byte_counter: 127,
        f: 1,
        g_shift: 1,
        rai: LINE / 4,
        rhai: LINE,
        min_rate: 1,
    }
}

/// The longest timers (2^14 - 1 cycles: the deadlines wrap with the counter) and the
/// largest byte counter (2^18 flits), g = 1/32768.
pub fn widest() -> Params {
    Params {
        rate_timer: 16383,
        alpha_timer: 16383,
        byte_counter: 1 << 18,
        f: 255,
        g_shift: 15,
        rai: LINE,
        rhai: LINE,
        min_rate: LINE,
    }
}

/// CNPs for a port's flows in phases (a burst of congestion: a CNP every 3 to 40 cycles,
/// 70 % to one hot flow; moderate: every 100 to 500; quiet: every 5,000), packet starts of
/// a flow that may start (85 %: the scheduler's pick) with mostly full-size packets and
/// some short ones (1 flit), starts of any flow now and then (early: the network never
/// does it, the model still defines it), rare resets.
pub struct Stream {
    rng: Xoshiro256PlusPlus,
    max_flits: u32,
    hot_flow: usize,
    cnp_rate: f64,
    phase_left: u64,
}

impl Stream {
    /// The stream for packets of up to `max_flits` (1..=127) from `seed`.
    pub fn new(max_flits: u32, seed: u64) -> Stream {
        Stream {
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            max_flits,
            hot_flow: 0,
            cnp_rate: 0.1,
            phase_left: 0,
        }
    }

    /// Cycle `t`'s inputs, (reset, events), for the model `port` as it stands before it.
    pub fn cycle(&mut self, _t: u64, port: &Port) -> (bool, Events) {
        let rng = &mut self.rng;
        let n = port.flows.len();
        if self.phase_left == 0 {
            self.cnp_rate = match rng.gen_range(0..4) {
                0 => 0.0002,
                1 => rng.gen_range(0.002..0.01),
                _ => rng.gen_range(0.025..0.3),
            };
            self.hot_flow = rng.gen_range(0..n);
            self.phase_left = rng.gen_range(100..=3000);
        }
        self.phase_left -= 1;
        let reset = rng.gen_bool(5e-5);
        let mut ev = Events::default();
        if rng.gen_bool(self.cnp_rate) {
            ev.cnp = Some(if rng.gen_bool(0.7) {
                self.hot_flow
            } else {
                rng.gen_range(0..n)
            });
        }
        let flits = match rng.gen_range(0..20) {
            0..=1 => 1,
            2..=5 => rng.gen_range(1..=self.max_flits),
            _ => self.max_flits,
        };
        let ready: Vec<usize> = (0..n).filter(|&i| port.flows[i].eligible()).collect();
        if !ready.is_empty() && rng.gen_bool(0.85) {
            ev.start = Some((ready[rng.gen_range(0..ready.len())], flits));
        } else if rng.gen_bool(0.005) {
            ev.start = Some((rng.gen_range(0..n), flits));
        }
        (reset, ev)
    }
}

/// Events seen in a run (counted on the model), to show the stream exercised the rules.
#[derive(Debug, Default, Clone)]
pub struct Coverage {
    pub cycles: u64,
    pub cnps: u64,
    /// CNPs that left the rate at the floor.
    pub at_floor: u64,
    /// Alpha periods that ended (some flow decayed).
    pub decays: u64,
    /// Increases of a flow's target rate by kind (counted per cycle and flow, the last
    /// event's kind).
    pub fast: u64,
    pub additive: u64,
    pub hyper: u64,
    /// Byte-counter events.
    pub byte_events: u64,
    /// A flow went back to the line rate.
    pub recovered: u64,
    /// Target rates brought to the line rate by an additive or hyper step.
    pub capped: u64,
    pub starts: u64,
    pub early: u64,
    /// Starts the model saw as early (the same count as `early`, from the state).
    pub early_model: u64,
    pub resets: u64,
    /// Cycles some flow waits.
    pub waiting: u64,
    /// Alpha below a quarter somewhere (the decay ran long).
    pub low_alpha: u64,
    /// Cycles with a CNP and a start for the same flow (the case that once looped
    /// iverilog on the Verilog).
    pub cnp_and_start: u64,
}

impl Coverage {
    /// One cycle of the model: the port `before` and `after` it, with its inputs and outputs.
    pub fn count(
        &mut self,
        _t: u64,
        before: &Port,
        after: &Port,
        reset: bool,
        ev: &Events,
        o: &Outputs,
    ) {
        self.cycles += 1;
        self.waiting += before.flows.iter().any(|f| !f.eligible()) as u64;
        if reset {
            self.resets += 1;
            return;
        }
        let p = &before.p;
        self.cnp_and_start +=
            matches!((ev.cnp, ev.start), (Some(c), Some((s, _))) if c == s) as u64;
        for (i, (b, a)) in before.flows.iter().zip(&after.flows).enumerate() {
            self.decays += (a.alpha_at != b.alpha_at && ev.cnp != Some(i)) as u64;
            self.low_alpha += (a.alpha < ONE / 4) as u64;
            if ev.cnp == Some(i) {
                self.cnps += 1;
                self.at_floor += (a.rc == p.min_rate) as u64;
                continue;
            }
            let raised = a.t > b.t || a.bc > b.bc;
            if raised {
                let (hi, lo) = (a.t.max(a.bc), a.t.min(a.bc));
                if hi <= p.f {
                    self.fast += 1;
                } else if lo > p.f {
                    self.hyper += 1;
                } else {
                    self.additive += 1;
                }
                self.capped += (a.rt == LINE && b.rt < LINE && hi > p.f) as u64;
            }
            self.byte_events += (a.bc > b.bc) as u64;
            self.recovered += (b.limited && !a.limited) as u64;
        }
        if let Some((i, _)) = ev.start {
            self.starts += 1;
            self.early += o.early as u64;
            self.early_model += !before.flows[i].eligible() as u64;
        }
    }

    /// What every run of the stream must show; `recovers`: the constants let flows return
    /// to the line rate within the run.
    pub fn check_the_rules_ran(&self, recovers: bool) {
        let c = self;
        assert!(c.cnps > c.cycles / 1000 && c.at_floor > 0, "{c:?}");
        assert!(c.decays > 10 && c.fast > 10 && c.additive > 10, "{c:?}");
        assert!(c.byte_events > 10, "{c:?}");
        assert!(c.starts > c.cycles / 200 && c.early > 3, "{c:?}");
        assert_eq!(c.early, c.early_model, "{c:?}");
        assert!(c.waiting > c.cycles / 10, "{c:?}");
        if recovers {
            assert!(c.recovered > 3 && c.hyper > 3 && c.capped > 0, "{c:?}");
        }
    }
}
