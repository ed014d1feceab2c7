//! Estimates of a command's cost before it starts: node-cycles, wall time at the speed this
//! machine reaches on this scenario (measured by a short calibration run of its first
//! configuration), and memory. `pftsim check` prints them; `run` and `compare` refuse a
//! command estimated above `LIMIT_SECONDS` or above `LIMIT_MEMORY_FRACTION` of the memory
//! available unless given `--yes` (docs/scenarios.md).

use super::config::Scenario;
use super::progress::Progress;
use super::run::{self, RunSpec};
use crate::metrics::timeseries::MAX_SAMPLES;
use std::time::Instant;

/// Above this estimated wall time a run needs `--yes`: 2 hours.
pub const LIMIT_SECONDS: f64 = 2.0 * 3600.0;
/// Above this fraction of `MemAvailable` a run needs `--yes`.
pub const LIMIT_MEMORY_FRACTION: f64 = 0.8;
/// Below this many node-cycles in all, `run` and `compare` skip the calibration (under a
/// minute at any speed this simulator reaches): nothing to ask.
pub const CALIBRATE_ABOVE: f64 = 1e9;
/// The calibration runs until it has taken this long (or the scenario's whole budget).
const CALIBRATION_SECONDS: f64 = 0.25;

/// What a command is estimated to cost.
#[derive(Clone, Debug, PartialEq)]
pub struct Estimate {
    /// Runs of the command.
    pub runs: usize,
    /// Runs at once.
    pub parallel: usize,
    /// Node-cycles over all runs (NICs x `cycles.max` x runs; GPCNeT may stop earlier).
    pub node_cycles: f64,
    /// Measured speed of one run on this machine, node-cycles per second.
    pub node_cycles_per_s: f64,
    /// Wall time at that speed with `parallel` runs at once (at most: on 2 cores two runs
    /// share the machine with the OS).
    pub seconds: f64,
    /// Memory at its peak: the calibration's peak resident size per run (network and
    /// workload state) plus the time series' bound, times `parallel`.
    pub memory_bytes: f64,
    /// `MemAvailable` of this machine, when it can be read.
    pub available_bytes: Option<f64>,
}

impl Estimate {
    /// True when the command needs `--yes`.
    pub fn needs_confirmation(&self) -> bool {
        self.seconds > LIMIT_SECONDS
            || self
                .available_bytes
                .is_some_and(|a| self.memory_bytes > LIMIT_MEMORY_FRACTION * a)
    }

    /// One line for users, e.g. `2 runs x 1.2e9 node-cycles; about 1.5 min at 2.7e7
    /// node-cycles/s measured here, 2 at once; memory about 40 MiB (of 20 GiB available)`.
    pub fn describe(&self) -> String {
        format!(
            "{} run(s), {:.2e} node-cycles in all; about {} at {:.2e} node-cycles/s (measured here), {} at once; memory about {}{}",
            self.runs,
            self.node_cycles,
            duration(self.seconds),
            self.node_cycles_per_s,
            self.parallel,
            bytes(self.memory_bytes),
            self.available_bytes
                .map_or(String::new(), |a| format!(" of {} available", bytes(a)))
        )
    }
}

fn duration(s: f64) -> String {
    if s < 90.0 {
        format!("{s:.0} s")
    } else if s < 5400.0 {
        format!("{:.1} min", s / 60.0)
    } else if s < 2.0 * 86400.0 {
        format!("{:.1} h", s / 3600.0)
    } else {
        format!("{:.1} days", s / 86400.0)
    }
}

fn bytes(b: f64) -> String {
    if b < 1024.0 * 1024.0 * 1024.0 {
        format!("{:.0} MiB", b / (1024.0 * 1024.0))
    } else {
        format!("{:.1} GiB", b / (1024.0 * 1024.0 * 1024.0))
    }
}

/// A `/proc/self/status` or `/proc/meminfo` value in bytes (`kB` lines).
fn proc_kib(file: &str, key: &str) -> Option<f64> {
    let text = std::fs::read_to_string(file).ok()?;
    let line = text.lines().find(|l| l.starts_with(key))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024.0)
}

/// Node-cycles of `runs` runs of `sc` at most.
pub fn node_cycles(sc: &Scenario, runs: usize) -> f64 {
    sc.nodes() as f64 * sc.cycles.max as f64 * runs as f64
}

/// Estimates `runs` runs of `sc` (the first being `first`), `jobs` at once, measuring the
/// speed with a short calibration run of `first`.
pub fn estimate(
    sc: &Scenario,
    first: &RunSpec,
    runs: usize,
    jobs: usize,
) -> anyhow::Result<Estimate> {
    let rss0 = proc_kib("/proc/self/status", "VmRSS:").unwrap_or(0.0);
    let mut cycles: u64 = 1000;
    let (mut done, mut secs);
    loop {
        let mut probe = sc.clone();
        probe.cycles.max = cycles.min(sc.cycles.max);
        probe.cycles.warmup = Some(0);
        probe.cycles.stop_when_finished = false;
        let t = Instant::now();
        let out = run::run(&probe, first, &Progress::quiet())?;
        secs = t.elapsed().as_secs_f64();
        done = out.cycles_run.max(1);
        if secs >= CALIBRATION_SECONDS || probe.cycles.max >= sc.cycles.max {
            break;
        }
        cycles = cycles.saturating_mul(4);
    }
    let speed = sc.nodes() as f64 * done as f64 / secs.max(1e-9);
    let parallel = jobs.clamp(1, runs.max(1));
    let per_run = (proc_kib("/proc/self/status", "VmHWM:").unwrap_or(rss0) - rss0).max(0.0);
    let watched = sc.timeseries.nics.as_ref().map_or(8, |v| v.len().max(1)) as f64;
    let samples = (watched * sc.cycles.max as f64 / sc.timeseries.period.max(1) as f64)
        .min(MAX_SAMPLES as f64);
    // 8 bytes stored, about 24 more while the CSV is written
    let series = samples * 32.0;
    let total = node_cycles(sc, runs);
    let rounds = runs.div_ceil(parallel) as f64;
    Ok(Estimate {
        runs,
        parallel,
        node_cycles: total,
        node_cycles_per_s: speed,
        seconds: rounds * node_cycles(sc, 1) / speed,
        memory_bytes: parallel as f64 * (per_run + series) + rss0,
        available_bytes: proc_kib("/proc/meminfo", "MemAvailable:"),
    })
}
