//! Where each run of a command that stops when it finishes (GPCNeT canaries, a motif's
//! iterations) is expected to end, and what that costs: trials bounded in work, not time,
//! so that the predicted ends are the same on any machine (docs/scenarios.md, "Where a
//! GPCNeT run ends").

use super::*;

/// A run that stops when its GPCNeT canaries (or its motif's iterations) finish is calibrated
/// until its (GPCNeT: shortened) copy finishes, or until the next trial (4x the cycles)
/// would run more than this many node-cycles (NICs x cycles): a bound in work, not time, so
/// the trials, and the end they predict, are the same on any machine, at any load and
/// thread count (`next_finish_trial`). 2^27: a 128-NIC copy's last trial is 1,024,000 cycles.
pub const FINISH_NODE_CYCLES: f64 = 134_217_728.0;
/// The backstop of `FINISH_NODE_CYCLES`: no trial whose projected time on a core (4x the
/// last one's) is above this. No shipped scenario reaches it on this project's machine; a
/// scenario that does is calibrated on shorter trials on a slower machine.
pub const FINISH_CAP_SECONDS: f64 = 20.0;

/// One run of a command whose runs stop when they finish (`Estimate::ends`).
#[derive(Clone, Debug, PartialEq)]
pub struct RunEnd {
    pub label: String,
    /// The share of `cycles.max` it is expected to last.
    pub share: f64,
    /// Its time per cycle over the calibrated run's (their trials side by side).
    pub cost: f64,
}

impl Estimate {
    /// Each run its own end and cost (`ends`, in the order the runs start) on
    /// `node_cycles_at_max` (NICs x `cycles.max`): the node-cycles and the wall time of the
    /// runs handed out in that order to `parallel` workers, each taking the next run when it
    /// is free (`scenario::run_each`). A run's time: the calibrated build, then its cycles
    /// at the calibrated speed, times its `cost`.
    pub fn with_ends(mut self, ends: Vec<RunEnd>, node_cycles_at_max: f64) -> Self {
        let mut free = vec![0.0f64; self.parallel.max(1)];
        for r in &ends {
            let w = (0..free.len())
                .min_by(|&a, &b| free[a].total_cmp(&free[b]))
                .expect("a worker");
            free[w] += self.build_seconds
                + node_cycles_at_max * r.share * r.cost / self.node_cycles_per_s.max(1e-9);
        }
        let all: f64 = ends.iter().map(|r| r.share).sum();
        self.node_cycles = node_cycles_at_max * all;
        self.finish_fraction = all / ends.len().max(1) as f64;
        self.seconds = free.iter().copied().fold(0.0, f64::max);
        self.ends = ends;
        self
    }
}

/// A share as a percentage: tenths below 10 % (a run ending at 0.4 % is not "0%").
pub(super) fn percent(f: f64) -> String {
    if f < 0.0995 {
        format!("{:.1}%", 100.0 * f)
    } else {
        format!("{:.0}%", 100.0 * f)
    }
}

/// The cycles of the trial after `t` (4x its cycles) of a run that stops when it finishes,
/// on `nodes` NICs: None when `t` finished, reached `max`, or the next trial would pass
/// `FINISH_NODE_CYCLES` or (the backstop) `FINISH_CAP_SECONDS`. Only the backstop reads the
/// time, so the trials do not depend on the machine's speed below it.
pub fn next_finish_trial(t: &Trial, nodes: u32, max: u64) -> Option<u64> {
    let next = t.cycles.saturating_mul(4);
    let done = t.finished
        || t.cycles >= max
        || next as f64 * nodes.max(1) as f64 > FINISH_NODE_CYCLES
        || 4.0 * t.secs > FINISH_CAP_SECONDS;
    (!done).then_some(next)
}

/// The cycles the trials of the other runs of a command may run, after the calibrated run's
/// last trial `t` of `requested` cycles on `nodes` NICs (`Estimate::trial_cycles`). Where
/// that run finished, another may end later (`off` against PFT): the work bound of
/// `next_finish_trial`, which does not depend on the machine. Where it did not, its trials
/// stopped at the work bound, at `cycles.max`, or at the time backstop (a 16,512-NIC GPCNeT
/// copy: 1,000 cycles): `requested`, so the backstop holds the other runs' trials too.
pub fn finish_trial_cap(t: &Trial, requested: u64, nodes: u32, max: u64) -> u64 {
    if !t.finished {
        return requested;
    }
    let mut c = requested;
    while c < max && c.saturating_mul(4) as f64 * nodes.max(1) as f64 <= FINISH_NODE_CYCLES {
        c = c.saturating_mul(4);
    }
    c
}

/// The share of `cycles.max` a run of `spec` that stops when it finishes
/// (`stops_when_finished`) is expected to last: `expected_end` of one trial of at most
/// `cycles` cycles (`Estimate::trial_cycles`, `finish_trial_cap`) of the copy
/// `estimate` calibrates on (GPCNeT: shortened, and with fewer processes for a large
/// workload). Every trial is a fresh, deterministic run that stops where it finishes, so
/// this one ends where the last of such trials would, without the shorter ones before it;
/// and where `FINISH_CAP_SECONDS` cut the calibrated run's trials short (a large network:
/// a 16,512-NIC dragonfly) it is cut as short.
///
/// Also the trial's time on a core per cycle: runs of one scenario differ in cost per cycle
/// by their congestion control and engine (`pipelined.toml`'s pipelined-engine runs), which
/// the ratio of two such trials measures.
pub fn finish_share(sc: &Scenario, spec: &RunSpec, cycles: u64) -> anyhow::Result<(f64, f64)> {
    let (cal, scale) = calibration_copy(&shortened(sc));
    let ppn_cal = ppn(&cal).unwrap_or(1);
    let copy = match scale > 1.0 && ppn_cal >= 4 {
        true => with_ppn(&cal, ppn_cal / 4),
        false => cal,
    };
    let t = timed_run(&copy, spec, cycles)?;
    let share = expected_end(sc, &t) / sc.cycles.max.max(1) as f64;
    Ok((share, t.secs / t.cycles.max(1) as f64))
}
