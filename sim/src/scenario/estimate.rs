//! Estimates of a command's cost before it starts: node-cycles, wall time at the speed this
//! machine reaches on this scenario (measured by a short calibration run of its first
//! configuration, on a copy with fewer processes per NIC for a large GPCNeT workload; where
//! the runs stop when they finish, each run's end and cost from a trial of its own: `ends`),
//! and memory. `pftsim check` prints them; `run` and `compare` refuse a
//! command estimated above `LIMIT_SECONDS` or above `LIMIT_MEMORY_FRACTION` of the memory
//! available unless given `--yes` (docs/scenarios.md).

use super::config::Scenario;
use super::progress::Progress;
use super::run::{self, RunSpec};
use crate::metrics::timeseries::MAX_SAMPLES;
use crate::workload::WorkloadConfig;
use std::time::Instant;

mod ends;
pub use ends::*;

/// Above this estimated wall time a run needs `--yes`: 2 hours.
pub const LIMIT_SECONDS: f64 = 2.0 * 3600.0;
/// Above this fraction of `MemAvailable` a run needs `--yes`.
pub const LIMIT_MEMORY_FRACTION: f64 = 0.8;
/// Below this many node-cycles in all, `run` and `compare` skip the calibration (under a
/// minute at any speed this simulator reaches): nothing to ask.
pub const CALIBRATE_ABOVE: f64 = 1e9;
/// Growth of the peak between the last two calibration trials below this is noise.
pub const GROWTH_NOISE_BYTES: f64 = 4.0 * 1024.0 * 1024.0;
/// The calibration runs until a trial has taken this long on a core (or the scenario's
/// whole budget).
const CALIBRATION_SECONDS: f64 = 0.25;
/// What a command is estimated to cost.
#[derive(Clone, Debug, PartialEq)]
pub struct Estimate {
    /// Runs of the command.
    pub runs: usize,
    /// Runs at once.
    pub parallel: usize,
    /// Node-cycles over all runs: NICs x the cycles a run is expected to last x runs
    /// (`cycles.max`, or for a run that stops when its GPCNeT canaries or its motif finish, the finish
    /// the calibration extrapolates: `finish_fraction`).
    pub node_cycles: f64,
    /// Measured speed of one run on this machine once built, node-cycles per second.
    pub node_cycles_per_s: f64,
    /// Measured time to build one run (network and workload) before its first cycle.
    pub build_seconds: f64,
    /// The cycles a run is expected to last over its `cycles.max`: 1 but for a GPCNeT run
    /// that stops when its canaries finish (or a motif's); with `ends`, their mean.
    pub finish_fraction: f64,
    /// Wall time at that speed with `parallel` runs at once (at most: on 2 cores two runs
    /// share the machine with the OS).
    pub seconds: f64,
    /// Memory at its peak: the calibration's peak resident size per run (network and
    /// workload state; extrapolated from smaller copies for a large GPCNeT workload, see
    /// `estimate`) plus the time series' bound, times `parallel`.
    pub memory_bytes: f64,
    /// `MemAvailable` of this machine, when it can be read.
    pub available_bytes: Option<f64>,
    /// Of `memory_bytes`, per run: what the latency samples add after the calibration, over
    /// the cycles the run is expected to last (a phased workload weighs its phases' by
    /// their shares of the cycles).
    pub sample_bytes: f64,
    /// Runs that stop when they finish, each with its own expected end (`with_ends`): each
    /// run's label, its share of `cycles.max` and its cost per cycle against the calibrated
    /// run's. Empty: every run lasts `finish_fraction` at `node_cycles_per_s`.
    pub ends: Vec<RunEnd>,
    /// The cycles the per-run trials of a command whose runs stop when they finish may run
    /// (`finish_share`): the work bound, or where the time backstop stopped the calibrated
    /// run's trials (`finish_trial_cap`).
    pub trial_cycles: u64,
}

impl Estimate {
    /// True when the command needs `--yes`.
    pub fn needs_confirmation(&self) -> bool {
        self.seconds > LIMIT_SECONDS
            || self
                .available_bytes
                .is_some_and(|a| self.memory_bytes > LIMIT_MEMORY_FRACTION * a)
    }

    /// Wall time of one run of the calibrated shape whose NICs x `cycles.max` is
    /// `node_cycles_at_max` (a sweep's points differ in registers and size, not in kind).
    pub fn run_seconds(&self, node_cycles_at_max: f64) -> f64 {
        self.build_seconds
            + node_cycles_at_max * self.finish_fraction / self.node_cycles_per_s.max(1e-9)
    }

    /// One line for users, e.g. `2 runs x 1.2e9 node-cycles; about 1.5 min at 2.7e7
    /// node-cycles/s measured here, 2 at once; memory about 40 MiB (of 20 GiB available)`.
    /// Its first `about` is the whole command's wall time (scripts read it).
    pub fn describe(&self) -> String {
        format!(
            "{} run(s), {:.2e} node-cycles in all{}; about {} at {:.2e} node-cycles/s (measured here), {} at once; memory about {}{}",
            self.runs,
            self.node_cycles,
            if !self.ends.is_empty() {
                let each: Vec<String> = (self.ends.iter())
                    .map(|r| format!("{} {}", r.label, percent(r.share)))
                    .collect();
                format!(
                    " (expected to end at {} of `cycles.max`, when their canaries or iterations finish)",
                    each.join(", ")
                )
            } else if self.finish_fraction < 1.0 {
                format!(
                    " (expected to end at {:.0}% of `cycles.max`, when its canaries or iterations finish)",
                    100.0 * self.finish_fraction
                )
            } else {
                String::new()
            },
            duration(self.seconds),
            self.node_cycles_per_s,
            self.parallel,
            bytes(self.memory_bytes),
            self.available_bytes
                .map_or(String::new(), |a| format!(" of {} available", bytes(a)))
        )
    }
}

pub fn duration(s: f64) -> String {
    if s < 9.95 {
        // a short command in tenths: "about 0 s" read as 0 by a script
        format!("{s:.1} s")
    } else if s < 90.0 {
        format!("{s:.0} s")
    } else if s < 5400.0 {
        format!("{:.1} min", s / 60.0)
    } else if s < 2.0 * 86400.0 {
        format!("{:.1} h", s / 3600.0)
    } else {
        format!("{:.1} days", s / 86400.0)
    }
}

pub fn bytes(b: f64) -> String {
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

/// Most GPCNeT processes (NICs x `ppn`) the calibration builds. Its memory grows with
/// them (each process holds its steps and mailbox), so a full-size copy of a scenario of
/// many NICs and processes could take gigabytes just to be estimated. Above this the
/// calibration runs a copy with fewer processes per NIC (`calibration_copy`).
pub const CALIBRATION_PROCESSES: u64 = 32_768;

/// The scenario the calibration runs: `sc` itself, or, for a GPCNeT workload of more than
/// `CALIBRATION_PROCESSES` processes, a copy with `ppn` lowered to fit (the placement of
/// congestors and canaries depends on the NICs only, so the copy has the same roles). The
/// second value is the full `ppn` over the copy's (1.0 for `sc` itself).
///
/// A `uniform` workload with `phases` is calibrated on its busiest phase as a steady load
/// (the phase of most flits per cycle, its rate capped at the link's 1): a trial from cycle
/// 0 would see only the first phase, often a quiet one, and estimate far too low.
pub fn calibration_copy(sc: &Scenario) -> (Scenario, f64) {
    if let WorkloadConfig::Uniform(u) = &sc.workload {
        let busiest = u.phases.iter().min_by_key(|p| p.interval_cycles);
        if let Some(p) = busiest {
            let flits = crate::workload::config::flits_for(u.msg_bytes, sc.network.flit_bytes);
            let mut s = sc.clone();
            if let WorkloadConfig::Uniform(v) = &mut s.workload {
                v.load = (flits as f64 / p.interval_cycles.max(1) as f64).min(1.0);
                v.pattern = p.pattern;
                v.phases.clear();
            }
            return (s, 1.0);
        }
    }
    if let Some(ppn) = ppn(sc) {
        let nodes = sc.nodes().max(1) as u64;
        let fit = (CALIBRATION_PROCESSES / nodes).clamp(1, u32::MAX as u64) as u32;
        if ppn > fit {
            return (with_ppn(sc, fit), ppn as f64 / fit as f64);
        }
    }
    (sc.clone(), 1.0)
}

/// The ppn of a GPCNeT scenario (None for other workloads).
fn ppn(sc: &Scenario) -> Option<u32> {
    sc.gpcnet().map(|g| g.ppn)
}

/// One calibration trial: a fresh run from cycle 0.
#[derive(Clone, Debug, PartialEq)]
pub struct Trial {
    /// Cycles run.
    pub cycles: u64,
    /// Time on a core (`thread_cpu_seconds`; wall time where that cannot be read), the
    /// build of the network and the workload included.
    pub secs: f64,
    /// GPCNeT: the canaries finished within the trial (its `cycles` is then the run's end).
    pub finished: bool,
    /// GPCNeT: the share of its work done (`AnyWorkload::work_done`).
    pub work: Option<f64>,
    /// GPCNeT: each canary test's (first, last) cycle (`RunOutput::canary_spans`).
    pub spans: Vec<(Option<u64>, Option<u64>)>,
    /// Latency samples kept (one per delivered message and tag), which the run holds to
    /// its end.
    pub samples: u64,
}

/// Runs `sc` with `spec` for `cycles` cycles (at most `cycles.max`) from cycle 0, the
/// measurement window ignored. A GPCNeT run that stops when its canaries finish does so
/// here too: the trial then has measured the run's whole length.
fn timed_run(sc: &Scenario, spec: &RunSpec, cycles: u64) -> anyhow::Result<Trial> {
    let mut probe = sc.clone();
    probe.cycles.max = cycles.min(sc.cycles.max);
    probe.cycles.warmup = Some(0);
    let (t, cpu) = (Instant::now(), thread_cpu_seconds());
    let out = run::run(&probe, spec, &Progress::quiet())?;
    let secs = trial_seconds(cpu.zip(thread_cpu_seconds()), t.elapsed().as_secs_f64());
    Ok(Trial {
        cycles: out.cycles_run.max(1),
        secs,
        finished: stops_when_finished(sc) && out.finished,
        work: out.work_done,
        samples: out
            .delivery
            .latency
            .iter()
            .filter_map(|t| t.total.as_ref().map(|s| s.count))
            .sum(),
        spans: out.canary_spans,
    })
}

/// Below this wall time a trial's time on a core is not read: the kernel adds a running
/// thread's time at scheduler ticks and switches (a few ms apart), so such a trial reads 0
/// or a whole tick; 0 made a tiny scenario's speed look like 10^12 node-cycles/s.
pub const SHORT_TRIAL_SECONDS: f64 = 0.05;

/// A trial's time from the thread's time on a core before and after it, or `wall` where
/// that cannot be read, did not move, or the trial is shorter than `SHORT_TRIAL_SECONDS`.
pub fn trial_seconds(cpu: Option<(f64, f64)>, wall: f64) -> f64 {
    match cpu {
        Some((a, b)) if b > a && wall >= SHORT_TRIAL_SECONDS => b - a,
        _ => wall,
    }
    .max(1e-9)
}

/// The time this thread has spent on a core, seconds (`/proc/thread-self/schedstat`, in
/// nanoseconds); None where it cannot be read. A trial runs in the calling thread, so this
/// is its own time: unlike wall time it does not grow when other processes share the cores
/// at the moment of the check, and the estimate is what the command takes on an idle
/// machine.
fn thread_cpu_seconds() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = s.split_whitespace().next()?.parse().ok()?;
    Some(ns as f64 * 1e-9)
}

/// True for a run that ends when its GPCNeT canaries finish, or its motif's (trace's,
/// victim job's) iterations, usually long before `cycles.max`.
pub fn stops_when_finished(sc: &Scenario) -> bool {
    sc.cycles.stop_when_finished && (sc.gpcnet().is_some() || closed_loop_job(sc))
}

/// A motif, a trace or jobs side by side: a run that ends with the (victim's) iterations.
fn closed_loop_job(sc: &Scenario) -> bool {
    matches!(
        sc.workload,
        WorkloadConfig::Motif(_) | WorkloadConfig::Trace(_) | WorkloadConfig::Jobs(_)
    )
}

/// Wall time of a run as build + per-cycle time, `(build_s, s_per_cycle)`, from the last two
/// trials (`time = build + cycles x per_cycle`; each trial builds afresh): a short trial is
/// mostly build, so one trial's time over its cycles would overstate the per-cycle cost many
/// times over. With one trial, or when the two disagree (noise: the longer one took less
/// time per extra cycle than nothing), the last trial's time over its cycles, no build.
pub fn time_model(trials: &[Trial]) -> (f64, f64) {
    match trials {
        [] => (0.0, 0.0),
        [.., a, b] if b.cycles > a.cycles && b.secs > a.secs => {
            let per = (b.secs - a.secs) / (b.cycles - a.cycles) as f64;
            let build = (b.secs - per * b.cycles as f64).clamp(0.0, a.secs);
            (build, per)
        }
        [.., b] => (0.0, b.secs / b.cycles.max(1) as f64),
    }
}

/// How many times shorter the canary tests of a GPCNeT run that stops when its canaries
/// finish are in its calibration (`GpcnetConfig::shortened`): short enough to run to their
/// end in a second or two at the paper's size, long enough (about 7 latency and allreduce
/// iterations per ring) to meet the congestion the full run meets.
pub const SHORTEN: u32 = 16;

/// `sc` with its canary tests shortened by `SHORTEN` (GPCNeT only).
fn shortened(sc: &Scenario) -> Scenario {
    let mut s = sc.clone();
    if let WorkloadConfig::Gpcnet(g) = &mut s.workload {
        *g = g.shortened(SHORTEN);
    }
    s
}

/// The cycle in which a run of `sc` ends: `cycles.max`, or for a run that stops when its
/// GPCNeT canaries finish, the end the trial `t` of its shortened copy shows, each canary
/// test's span there stretched by the iterations it lacks (the canaries met the same
/// congestion in the copy: the congestors run all along in both). A trial that did not
/// reach its end extrapolates its own end from its share of the work done (the later
/// iterations taken to go as fast as the first did), then stretches it by the iterations
/// the copy lacks in all. A motif's, trace's or victim job's run is its own trial: it ends
/// where the trial ended, or at the trial's cycles over its share of the iterations done.
/// At least the trial's cycles, at most `cycles.max`.
pub fn expected_end(sc: &Scenario, t: &Trial) -> f64 {
    let max = sc.cycles.max as f64;
    if closed_loop_job(sc) && stops_when_finished(sc) {
        // A motif's trial is the run itself (not shortened): its end when it finished,
        // else its cycles over its share of the ranks' iterations done (the later
        // iterations taken to go as fast as the ones before).
        let end = match (t.finished, t.work) {
            (true, _) => t.cycles as f64,
            (false, Some(w)) if w > 0.0 => t.cycles as f64 / w,
            _ => max,
        };
        return end.clamp((t.cycles as f64).min(max), max);
    }
    let Some(full) = sc.gpcnet().filter(|_| stops_when_finished(sc)) else {
        return max;
    };
    let short = full.shortened(SHORTEN);
    let stretch = |i: usize| {
        let n = |g: &crate::workload::gpcnet::GpcnetConfig| {
            let (w, it, r) = g.test_iterations(full.canary_tests[i]);
            (w as f64 + it as f64) * r as f64
        };
        n(full) / n(&short).max(1.0)
    };
    let tests = full.canary_tests.len();
    let end = if t.finished && t.spans.len() == tests {
        let extra: f64 = (0..tests)
            .map(|i| match t.spans[i] {
                (Some(a), Some(b)) => b.saturating_sub(a) as f64 * (stretch(i) - 1.0),
                _ => 0.0,
            })
            .sum();
        t.cycles as f64 + extra
    } else {
        match t.work {
            Some(w) if w > 0.0 => {
                let start = full.canary_start_cycles as f64;
                let own_end = t.cycles as f64 / w;
                let mean = (0..tests).map(stretch).sum::<f64>() / tests.max(1) as f64;
                start + (own_end - start).max(0.0) * mean
            }
            _ => max,
        }
    };
    end.clamp((t.cycles as f64).min(max), max)
}

/// `sc` (a GPCNeT scenario) with `ppn` processes per NIC.
fn with_ppn(sc: &Scenario, ppn: u32) -> Scenario {
    let mut s = sc.clone();
    if let WorkloadConfig::Gpcnet(g) = &mut s.workload {
        g.ppn = ppn;
    }
    s
}

/// Bytes per cycle a run keeps growing by, from the peaks after calibration trials of
/// increasing length `(cycles, peak)`: the slope between the last two, 0 with fewer than
/// two trials or when the peak did not grow (a steady run's state is built by then).
/// A step of less than `GROWTH_NOISE_BYTES` between the two is taken as no growth:
/// allocator noise or the bounded time series, not state that grows without end.
pub fn growth_per_cycle(peaks: &[(u64, f64)]) -> f64 {
    let [.., (c0, p0), (c1, p1)] = peaks else {
        return 0.0;
    };
    if c1 <= c0 {
        return 0.0;
    }
    let g = (p1 - p0) / (c1 - c0) as f64;
    if g.is_finite() && p1 - p0 >= GROWTH_NOISE_BYTES {
        g
    } else {
        0.0
    }
}

/// Bytes a delivered message's latency samples take until the run ends: its total and
/// network latency (8 bytes each) in vectors that grow by doubling, and the copies sorted
/// for the percentiles. Measured 34.5 bytes a message on `torus-transpose.toml` between
/// 200,000 and 600,000 cycles (peak RSS 13,316 and 24,224 KiB, 323,500 more messages);
/// rounded up.
pub const SAMPLE_BYTES: f64 = 40.0;

/// Bytes per cycle the latency samples of trial `t` grow by: counted, not measured, so a
/// growth too slow for the peaks' noise (`GROWTH_NOISE_BYTES`) over a short calibration is
/// still extrapolated over a long run.
pub fn sample_growth_per_cycle(t: &Trial) -> f64 {
    t.samples as f64 / t.cycles.max(1) as f64 * SAMPLE_BYTES
}

/// The process's peak resident size above `rss0`, bytes.
fn peak_above(rss0: f64) -> f64 {
    (proc_kib("/proc/self/status", "VmHWM:").unwrap_or(rss0) - rss0).max(0.0)
}

/// Estimates `runs` runs of `sc` (the first being `first`), `jobs` at once, measuring the
/// speed with a short calibration run of `first`.
///
/// A GPCNeT scenario above `CALIBRATION_PROCESSES` processes is never built at full size.
/// Two copies with fewer processes per NIC run instead: one with `ppn_cal / 4` runs first,
/// until it takes `CALIBRATION_SECONDS`, then the one with `ppn_cal` (`calibration_copy`)
/// runs as many cycles. From the two:
/// - memory: the `ppn_cal` copy's peak plus, for each process per NIC beyond `ppn_cal`,
///   what one more cost between the copies (every process's state, the messages in flight
///   and the NICs' queues grow with the processes; the network does not);
/// - speed: the `ppn_cal` copy's time per node-cycle times `(ppn / ppn_cal)^b`, where `b`
///   is the measured growth of the time between the copies, kept in 0..=1 (a NIC with
///   more processes is slower per cycle, at most in proportion).
///
/// When `ppn_cal` < 4 (over 8192 NICs) there is no smaller copy: memory and time per
/// node-cycle are scaled by `ppn / ppn_cal` (erring high).
pub fn estimate(
    sc: &Scenario,
    first: &RunSpec,
    runs: usize,
    jobs: usize,
) -> anyhow::Result<Estimate> {
    let parts = phase_copies(sc);
    if parts.len() < 2 {
        return estimate_one(sc, first, runs, jobs);
    }
    // A run spends each phase's share of the cycles at that phase's cost per cycle; it
    // builds once and holds at most the most any phase holds.
    // The latency samples build up over all of the run's phases at each one's rate: their
    // shares, not the busiest phase's rate for the whole run.
    let mut per_node_cycle = 0.0;
    let (mut build, mut memory, mut samples) = (0.0f64, 0.0f64, 0.0f64);
    let mut last = None;
    for (copy, share) in &parts {
        let e = estimate_one(copy, first, runs, jobs)?;
        per_node_cycle += share / e.node_cycles_per_s.max(1e-12);
        build = build.max(e.build_seconds);
        memory = memory.max(e.memory_bytes - e.parallel as f64 * e.sample_bytes);
        samples += share * e.sample_bytes;
        last = Some(e);
    }
    let mut e = last.expect("two or more phases");
    e.node_cycles_per_s = 1.0 / per_node_cycle.max(1e-18);
    e.build_seconds = build;
    e.memory_bytes = memory + e.parallel as f64 * samples;
    e.sample_bytes = samples;
    e.seconds = runs.div_ceil(e.parallel) as f64 * e.run_seconds(node_cycles(sc, 1));
    Ok(e)
}

/// A `uniform` workload with phases of different rates or patterns, as one steady copy per
/// distinct phase (the phase's rate as `load`, its pattern), each with its share of one
/// pass through the list, in cycles. Empty or one entry: no phases to weigh (a single
/// distinct phase is calibrated as the steady load it is, `calibration_copy`).
///
/// A pass's cost per cycle changes with its phases (`selftuned-bursty.toml`: 2,000-cycle
/// bursts at one message every 15 cycles between quiet phases 4 and 5 times as long), so the
/// busiest phase alone estimated that scenario 4x too long (24 s against 6.0 s measured).
pub fn phase_copies(sc: &Scenario) -> Vec<(Scenario, f64)> {
    let WorkloadConfig::Uniform(u) = &sc.workload else {
        return Vec::new();
    };
    let pass: u64 = u.phases.iter().map(|p| p.cycles).sum();
    let mut parts: Vec<(u32, crate::workload::uniform::DestPattern, u64)> = Vec::new();
    for p in &u.phases {
        match parts
            .iter_mut()
            .find(|(i, d, _)| *i == p.interval_cycles && *d == p.pattern)
        {
            Some(part) => part.2 += p.cycles,
            None => parts.push((p.interval_cycles, p.pattern, p.cycles)),
        }
    }
    if parts.len() < 2 {
        return Vec::new();
    }
    let flits = crate::workload::config::flits_for(u.msg_bytes, sc.network.flit_bytes);
    parts
        .into_iter()
        .map(|(interval, pattern, cycles)| {
            let mut s = sc.clone();
            if let WorkloadConfig::Uniform(v) = &mut s.workload {
                v.load = (flits as f64 / interval.max(1) as f64).min(1.0);
                v.pattern = pattern;
                v.phases.clear();
            }
            (s, cycles as f64 / pass.max(1) as f64)
        })
        .collect()
}

/// `estimate` of a scenario calibrated as one steady load (or one GPCNeT run).
fn estimate_one(
    sc: &Scenario,
    first: &RunSpec,
    runs: usize,
    jobs: usize,
) -> anyhow::Result<Estimate> {
    let rss0 = proc_kib("/proc/self/status", "VmRSS:").unwrap_or(0.0);
    let ends = stops_when_finished(sc);
    let (cal, scale) = calibration_copy(&if ends { shortened(sc) } else { sc.clone() });
    let ppn_cal = ppn(&cal).unwrap_or(1);
    let small = (scale > 1.0 && ppn_cal >= 4).then(|| with_ppn(&cal, ppn_cal / 4));
    let mut cycles: u64 = 1000;
    // The peak after each trial: trials of 4x the cycles each, so the last two give how
    // the memory grows with the cycles run (each trial starts afresh and reuses what the
    // last one freed, so the process's peak is the longest trial's).
    let mut peaks: Vec<(u64, f64)> = Vec::new();
    let mut trials: Vec<Trial> = Vec::new();
    // The smaller copy first: the larger one's peak then is the process's.
    let last = loop {
        let t = timed_run(small.as_ref().unwrap_or(&cal), first, cycles)?;
        peaks.push((t.cycles, peak_above(rss0)));
        trials.push(t.clone());
        // A run that ends with its canaries is calibrated to that end (`expected_end`),
        // or up to `FINISH_NODE_CYCLES`; any other until a trial takes a quarter second.
        let next = if ends {
            next_finish_trial(&t, sc.nodes(), sc.cycles.max)
        } else {
            (t.secs < CALIBRATION_SECONDS && cycles < sc.cycles.max)
                .then(|| cycles.saturating_mul(4))
        };
        match next {
            Some(c) => cycles = c,
            None => break t,
        }
    };
    let peak_first = peak_above(rss0);
    // Only an open-loop workload can grow without end: GPCNeT's processes wait for every
    // message they send and run a fixed number of tests, so what they hold is bounded, and
    // a slope from the start of its run (queues filling) would be extrapolated wrongly.
    let growth = if sc.gpcnet().is_some() {
        0.0
    } else {
        growth_per_cycle(&peaks)
    };
    let (build, per_cycle) = time_model(&trials);
    // How much slower the full scenario is than the trials' copy, and its peak.
    let (slower, peak) = match &small {
        None => (scale, peak_first * scale),
        Some(_) => {
            let cal_t = timed_run(&cal, first, last.cycles)?;
            let peak_cal = peak_above(rss0);
            let (p_cal, p_small) = (ppn_cal as f64, (ppn_cal / 4) as f64);
            let b = (cal_t.secs / last.secs).ln() / (p_cal / p_small).ln();
            let b = if b.is_nan() { 1.0 } else { b.clamp(0.0, 1.0) };
            let per_ppn = ((peak_cal - peak_first) / (p_cal - p_small)).max(0.0);
            let p_full = p_cal * scale;
            (
                cal_t.secs / last.secs * scale.powf(b),
                peak_cal + per_ppn * (p_full - p_cal),
            )
        }
    };
    // What keeps growing (an open-loop overload's source queues, the latency samples of
    // every delivered message) over the cycles the calibration did not run: the peaks'
    // slope up to `cycles.max`, or, when more, the samples counted, kept from the warm-up's
    // end to the run's expected end (a motif's last iteration; GPCNeT keeps few).
    let end = expected_end(sc, &last);
    let grown = growth * scale * sc.cycles.max.saturating_sub(last.cycles) as f64;
    let kept_from = sc.cycles.warmup.unwrap_or(0).max(last.cycles) as f64;
    let sample_bytes = match sc.gpcnet() {
        Some(_) => 0.0,
        None => sample_growth_per_cycle(&last) * scale * (end - kept_from).max(0.0),
    };
    let (peak, sample_bytes) = if sample_bytes > grown {
        (peak + sample_bytes, sample_bytes)
    } else {
        (peak + grown, 0.0)
    };
    let speed = sc.nodes() as f64 / (per_cycle * slower).max(1e-12);
    let parallel = jobs.clamp(1, runs.max(1));
    let watched = sc.timeseries.nics.as_ref().map_or(8, |v| v.len().max(1)) as f64;
    let samples = (watched * sc.cycles.max as f64 / sc.timeseries.period.max(1) as f64)
        .min(MAX_SAMPLES as f64);
    // 8 bytes stored, about 24 more while the CSV is written
    let series = samples * 32.0;
    let finish = end / sc.cycles.max.max(1) as f64;
    let rounds = runs.div_ceil(parallel) as f64;
    let mut e = Estimate {
        runs,
        parallel,
        node_cycles: node_cycles(sc, runs) * finish,
        node_cycles_per_s: speed,
        build_seconds: build * slower,
        finish_fraction: finish,
        seconds: 0.0,
        memory_bytes: parallel as f64 * (peak + series) + rss0,
        available_bytes: available(),
        sample_bytes,
        ends: Vec::new(),
        trial_cycles: if ends {
            finish_trial_cap(&last, cycles, sc.nodes(), sc.cycles.max)
        } else {
            last.cycles
        },
    };
    e.seconds = rounds * e.run_seconds(node_cycles(sc, 1));
    Ok(e)
}

/// The memory a run may take: `MemAvailable`, or less under an address-space limit
/// (`ulimit -v`): the limit minus what the process has mapped but not touched (its
/// resident part is in the estimate already).
fn available() -> Option<f64> {
    let mem = proc_kib("/proc/meminfo", "MemAvailable:");
    let mapped = proc_kib("/proc/self/status", "VmSize:").unwrap_or(0.0)
        - proc_kib("/proc/self/status", "VmRSS:").unwrap_or(0.0);
    let limit = address_limit().map(|l| (l - mapped.max(0.0)).max(0.0));
    match (mem, limit) {
        (Some(m), Some(l)) => Some(m.min(l)),
        (m, l) => m.or(l),
    }
}

/// The soft address-space limit (`ulimit -v`, `RLIMIT_AS`) in bytes; None when unlimited.
fn address_limit() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = text.lines().find(|l| l.starts_with("Max address space"))?;
    line.split_whitespace().nth(3)?.parse().ok()
}

#[cfg(test)]
mod tests;
