//! Injection processes shared by the open-loop workloads: Bernoulli and BookSim-style on/off
//! (a two-state Markov-modulated Bernoulli process).

use super::config::ConfigErrors;
use rand::Rng;
use serde::{Deserialize, Serialize};

/// How a source decides, each cycle, whether to create a message.
///
/// TOML: `injection = { type = "bernoulli" }` or
/// `injection = { type = "on_off", mean_burst_cycles = 100.0, peak_load = 1.0 }`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Default)]
#[serde(
    remote = "Self",
    tag = "type",
    rename_all = "snake_case",
    deny_unknown_fields
)]
pub enum InjectionProcess {
    /// Each cycle a message is created with probability `load / flits_per_message`.
    #[default]
    Bernoulli,
    /// BookSim's `on_off`: a per-source two-state Markov chain, updated every cycle before the
    /// injection draw. In the On state a message is created with probability
    /// `peak_load / flits_per_message`; in Off, never. On -> Off with probability
    /// `beta = 1 / mean_burst_cycles`; Off -> On with `alpha = beta * load / (peak_load - load)`,
    /// so the long-run fraction of On cycles is `load / peak_load` and the mean load equals
    /// the Bernoulli one.
    OnOff {
        /// Mean length of an On period, cycles (>= 1).
        mean_burst_cycles: f64,
        /// Load while On, flits/cycle (`load < peak_load <= 1`).
        peak_load: f64,
    },
    /// The IB study's generator (seed 002, Frame I): the stream creates a message whenever
    /// its time budget allows, so that by its t-th cycle it has created at most
    /// `load * t` flits. Deterministic (a constant-rate source). With `max_outstanding` it
    /// also waits while that many of its messages are undelivered. The budget it did not use
    /// stays (the seed's "after time t at most p% has been sent"): a stream that was held
    /// back may catch up, as far as its node's DMA (`hotspot`: a token bucket at the node's
    /// `load`, one message deep, shared by its streams) lets it.
    Budget,
}

impl Serialize for InjectionProcess {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        InjectionProcess::serialize(self, s)
    }
}

impl<'de> Deserialize<'de> for InjectionProcess {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        super::config::tagged_strict(d, "type", &["bernoulli", "budget"], |v| {
            InjectionProcess::deserialize(v)
        })
    }
}

impl InjectionProcess {
    /// Its `type`.
    pub fn kind(&self) -> &'static str {
        match self {
            InjectionProcess::Bernoulli => "bernoulli",
            InjectionProcess::OnOff { .. } => "on_off",
            InjectionProcess::Budget => "budget",
        }
    }

    /// Checks the process for a stream of mean load `load`. Fields are named under `prefix`.
    pub fn validate(&self, load: f64, prefix: &str, load_field: &str, errs: &mut ConfigErrors) {
        if let InjectionProcess::OnOff {
            mean_burst_cycles,
            peak_load,
        } = *self
        {
            let burst = format!("{prefix}.mean_burst_cycles");
            let peak = format!("{prefix}.peak_load");
            errs.check_f64(&burst, mean_burst_cycles, 1.0, 1e12);
            if !(peak_load > 0.0 && peak_load <= 1.0) {
                errs.push(&peak, peak_load, format!("allowed 0 < {peak} <= 1"));
            }
            if mean_burst_cycles >= 1.0 && peak_load > 0.0 && peak_load <= 1.0 && load >= 0.0 {
                // alpha <= 1  <=>  load <= peak * burst / (burst + 1)
                let max_load = peak_load * mean_burst_cycles / (mean_burst_cycles + 1.0);
                if load > max_load {
                    errs.push(
                        load_field,
                        load,
                        format!(
                            "allowed 0 <= {load_field} <= peak_load * mean_burst_cycles / (mean_burst_cycles + 1) = {max_load} (on_off needs Off periods of at least one cycle)"
                        ),
                    );
                }
            }
        }
    }
}

/// A compiled process for one stream: probabilities per cycle.
#[derive(Clone, Debug)]
pub(crate) struct Injector {
    /// `Budget`: (load, flits per message).
    budget: Option<(f64, u64)>,
    /// Message probability per cycle (Bernoulli) or per On cycle (on/off).
    p_msg: f64,
    /// `Some((alpha, beta))` for on/off.
    chain: Option<(f64, f64)>,
    /// Stationary probability of On, used to draw the initial state.
    p_on: f64,
}

impl Injector {
    /// `load` in flits/cycle, `flits` per message (>= 1). The process must have been validated.
    pub(crate) fn new(process: &InjectionProcess, load: f64, flits: u64) -> Self {
        let flits = flits.max(1) as f64;
        match *process {
            InjectionProcess::Budget => Injector {
                budget: Some((load, flits as u64)),
                p_msg: 0.0,
                chain: None,
                p_on: 1.0,
            },
            InjectionProcess::Bernoulli => Injector {
                budget: None,
                p_msg: (load / flits).clamp(0.0, 1.0),
                chain: None,
                p_on: 1.0,
            },
            InjectionProcess::OnOff {
                mean_burst_cycles,
                peak_load,
            } => {
                let beta = 1.0 / mean_burst_cycles;
                let alpha = if load <= 0.0 {
                    0.0
                } else {
                    (beta * load / (peak_load - load)).clamp(0.0, 1.0)
                };
                Injector {
                    budget: None,
                    p_msg: (peak_load / flits).clamp(0.0, 1.0),
                    chain: Some((alpha, beta)),
                    p_on: if load <= 0.0 { 0.0 } else { load / peak_load },
                }
            }
        }
    }

    /// True for `Budget`: use `budget_due` instead of `step`.
    pub(crate) fn is_budget(&self) -> bool {
        self.budget.is_some()
    }

    /// `Budget`: a stream that has created `sent` flits may create its next message in its
    /// cycle `elapsed` (0 = its first cycle).
    pub(crate) fn budget_due(&self, sent: u64, elapsed: u64) -> bool {
        self.budget
            .is_some_and(|(load, flits)| (sent + flits) as f64 <= load * (elapsed + 1) as f64)
    }

    /// Flits per message (`Budget`).
    pub(crate) fn budget_flits(&self) -> u64 {
        self.budget.map_or(0, |(_, f)| f)
    }

    /// Initial On/Off state of one source (always On for Bernoulli).
    pub(crate) fn initial_state<R: Rng>(&self, rng: &mut R) -> bool {
        match self.chain {
            None => true,
            Some(_) => rng.gen::<f64>() < self.p_on,
        }
    }

    /// One cycle of one source: updates `on` and says whether a message is created.
    /// Always draws the same number of random numbers for a given process kind.
    pub(crate) fn step<R: Rng>(&self, on: &mut bool, rng: &mut R) -> bool {
        if let Some((alpha, beta)) = self.chain {
            let u: f64 = rng.gen();
            *on = if *on { u >= beta } else { u < alpha };
        }
        let u: f64 = rng.gen();
        *on && u < self.p_msg
    }
}
