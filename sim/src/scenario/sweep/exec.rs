//! Running a plan here, and what it costs: the estimate `sweep` prints (and that sets the
//! Slurm script's `--time` and `--mem`), and the local runs, `--jobs` at once, each as its
//! `pftsim run` line would run it.

use super::super::estimate::{self, Estimate, CALIBRATE_ABOVE};
use super::super::{output, run_command, Progress, Scenario};
use super::plan::{Plan, Unit};
use anyhow::Context;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// What a sweep is estimated to cost.
#[derive(Clone, Debug, PartialEq)]
pub struct SweepCost {
    /// Node-cycles over all runs (each run's NICs x its `cycles.max`; a GPCNeT run that
    /// stops when its canaries finish is timed at the finish the calibration expects).
    pub node_cycles: f64,
    /// The calibration of the largest run (None when the sweep is too small to ask).
    pub calibration: Option<Estimate>,
    /// Wall time of the largest run, alone on a core.
    pub longest_run_s: Option<f64>,
    /// Wall time of all runs, `jobs` at once.
    pub total_s: Option<f64>,
    /// Memory of one run at its peak.
    pub run_memory: Option<f64>,
}

impl SweepCost {
    /// One line for users.
    pub fn describe(&self, runs: usize, jobs: usize) -> String {
        match (&self.calibration, self.total_s, self.longest_run_s) {
            (Some(e), Some(t), Some(l)) => format!(
                "{runs} run(s), {:.2e} node-cycles in all; about {} with {jobs} at once here (the longest run about {}) at {:.2e} node-cycles/s (measured here); memory about {} per run{}",
                self.node_cycles,
                estimate::duration(t),
                estimate::duration(l),
                e.node_cycles_per_s,
                estimate::bytes(self.run_memory.unwrap_or(0.0)),
                e.available_bytes
                    .map_or(String::new(), |a| format!(" of {} available", estimate::bytes(a)))
            ),
            _ => format!(
                "{runs} run(s), {:.2e} node-cycles in all (small: not calibrated)",
                self.node_cycles
            ),
        }
    }

    /// True when a local sweep with `jobs` at once needs `--yes` (the limits of `run`).
    pub fn needs_confirmation(&self, jobs: usize) -> bool {
        let (Some(t), Some(e)) = (self.total_s, &self.calibration) else {
            return false;
        };
        t > estimate::LIMIT_SECONDS
            || e.available_bytes.is_some_and(|a| {
                self.run_memory.unwrap_or(0.0) * jobs as f64 > estimate::LIMIT_MEMORY_FRACTION * a
            })
    }
}

/// Node-cycles of one run of `u` at most.
fn unit_node_cycles(plan: &Plan, u: &Unit) -> anyhow::Result<f64> {
    let text = plan
        .files
        .get(&u.scenario)
        .with_context(|| format!("the plan lacks {}", u.scenario))?;
    let sc = Scenario::parse(text).map_err(|m| anyhow::anyhow!("{}: {m}", u.scenario))?;
    Ok(estimate::node_cycles(&sc, 1))
}

/// The cost of `plan` with `jobs` runs at once. The speed is measured on the largest run;
/// `always` calibrates even a small sweep (the Slurm script needs a time and a memory).
pub fn cost(plan: &Plan, jobs: usize, always: bool) -> anyhow::Result<SweepCost> {
    let mut per: Vec<f64> = Vec::with_capacity(plan.units.len());
    // point files repeat across runs: parse each once
    let mut by_file: std::collections::BTreeMap<&str, f64> = Default::default();
    for u in &plan.units {
        let nc = match by_file.get(u.scenario.as_str()) {
            Some(&n) => n,
            None => {
                let n = unit_node_cycles(plan, u)?;
                by_file.insert(&u.scenario, n);
                n
            }
        };
        per.push(nc);
    }
    let total: f64 = per.iter().sum();
    let mut c = SweepCost {
        node_cycles: total,
        calibration: None,
        longest_run_s: None,
        total_s: None,
        run_memory: None,
    };
    if !always && total < CALIBRATE_ABOVE {
        return Ok(c);
    }
    // the largest run; among equals a congested one (the isolated baseline has no
    // congestors and needs a fraction of the memory and time)
    let (big, &nc) = per
        .iter()
        .enumerate()
        .max_by(|a, b| {
            let iso = |i: usize| plan.units[i].run == super::super::ISOLATED;
            a.1.total_cmp(b.1).then(iso(b.0).cmp(&iso(a.0)))
        })
        .context("a sweep has runs")?;
    let u = &plan.units[big];
    let sc = Scenario::parse(&plan.files[&u.scenario])
        .map_err(|m| anyhow::anyhow!("{}: {m}", u.scenario))?;
    let spec = super::super::run_spec(&sc, &u.run)?;
    let e = estimate::estimate(&sc, &spec, 1, 1)?;
    let longest = e.run_seconds(nc);
    c.longest_run_s = Some(longest);
    // `jobs` at once: the work spread over the cores, but never below the longest run
    let all: f64 = per.iter().map(|&n| e.run_seconds(n)).sum();
    c.total_s = Some((all / jobs.max(1) as f64).max(longest));
    c.run_memory = Some(e.memory_bytes);
    c.calibration = Some(e);
    Ok(c)
}

/// True when `u`'s directory holds its own finished run (the manifest names the point's
/// scenario and the run): `--resume` and `--skip-finished` leave it.
pub fn unit_done(plan: &Plan, dir: &Path, u: &Unit) -> bool {
    let Some(text) = plan.files.get(&u.scenario) else {
        return false;
    };
    let Ok(sc) = Scenario::parse(text) else {
        return false;
    };
    super::super::finished_run_in(&sc, &u.run, &dir.join(&u.dir))
}

/// Checks, before any run starts, that every run of `todo` can write its files: its
/// directory, and each file a `pftsim run` of it writes there (and in its `isolated/`), is
/// a real directory or a regular file or absent, never a link and no input
/// (`output::check_outputs`, as the run's own result directory checks them when it opens).
/// So a `--resume` never fails on the output of its tenth run after nine ran for hours.
pub fn check_run_outputs(plan: &Plan, dir: &Path, todo: &[usize]) -> anyhow::Result<()> {
    use super::super::{COLDHOT_RUN_FILES, ISOLATED, RUN_FILES};
    for &i in todo {
        let u = &plan.units[i];
        let text = plan
            .files
            .get(&u.scenario)
            .with_context(|| format!("the plan lacks {}", u.scenario))?;
        let sc = Scenario::parse(text).map_err(|m| anyhow::anyhow!("{}: {m}", u.scenario))?;
        let hot = matches!(sc.workload, crate::workload::WorkloadConfig::Hotspot(_));
        let mut names: Vec<&str> = RUN_FILES.to_vec();
        if hot {
            names.extend(COLDHOT_RUN_FILES);
        }
        let mut files: Vec<String> = vec![output::MANIFEST.to_string(), output::LOCK.to_string()];
        files.extend(names.iter().map(|f| f.to_string()));
        if u.run != ISOLATED && super::super::wants_isolated(&sc) {
            files.extend(names.iter().map(|f| format!("{ISOLATED}/{f}")));
        }
        let run_dir = dir.join(&u.dir);
        let point = dir.join(&u.scenario);
        let inputs = sc.inputs(&point);
        output::check_outputs(dir, &[], std::slice::from_ref(&u.dir), &[])
            .and_then(|()| output::check_outputs(&run_dir, &files, &[], &inputs))
            .with_context(|| format!("run {} (task {i}) could not write its files", u.dir))?;
    }
    Ok(())
}

/// Runs the units `todo` of `plan` in `dir`, `jobs` at once (each on `threads`, if given),
/// with one progress bar. A run that fails does not stop the others: the failures come back
/// as (unit index, error).
pub fn run_units(
    plan: &Plan,
    dir: &Path,
    todo: &[usize],
    jobs: usize,
    threads: Option<u32>,
    quiet: bool,
) -> Vec<(usize, anyhow::Error)> {
    let bar = if quiet {
        indicatif::ProgressBar::hidden()
    } else {
        let b = indicatif::ProgressBar::new(todo.len() as u64);
        b.set_style(
            indicatif::ProgressStyle::with_template(
                "sweep [{elapsed_precise}] {bar:30} {pos}/{len} runs, ETA {eta} {msg}",
            )
            .expect("valid template"),
        );
        b
    };
    let next = AtomicUsize::new(0);
    let failed: Mutex<Vec<(usize, anyhow::Error)>> = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..jobs.clamp(1, todo.len().max(1)) {
            s.spawn(|| loop {
                let k = next.fetch_add(1, Ordering::Relaxed);
                let Some(&i) = todo.get(k) else { break };
                let u = &plan.units[i];
                let r = (|| -> anyhow::Result<()> {
                    let f = dir.join(&u.scenario);
                    let mut sc = Scenario::load(&f)?;
                    if let Some(t) = threads {
                        sc.network.threads = t;
                    }
                    run_command(
                        &sc,
                        &sc.inputs(&f),
                        Some(&u.run),
                        &dir.join(&u.dir),
                        1,
                        true,
                        &Progress::quiet(),
                    )?;
                    Ok(())
                })();
                bar.inc(1);
                if let Err(e) = r {
                    bar.println(format!("run {} failed: {e:#}", u.dir));
                    failed
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .push((i, e));
                }
            });
        }
    });
    bar.finish_and_clear();
    let mut f = failed.into_inner().unwrap_or_else(|e| e.into_inner());
    f.sort_by_key(|(i, _)| *i);
    f
}

/// The manifest lines for failed runs: `runs/... (task N): error`.
pub fn failure_lines(plan: &Plan, failed: &[(usize, anyhow::Error)]) -> Vec<String> {
    failed
        .iter()
        .map(|(i, e)| {
            // the first line: a deadlock report goes on for pages (the run's own manifest
            // keeps all of it)
            let msg = format!("{e:#}");
            let first = msg.lines().next().unwrap_or("");
            format!(
                "{} (task {i}): {}{}",
                plan.units[*i].dir,
                super::super::sanitize(first),
                if msg.lines().nth(1).is_some() {
                    format!(" (all of it: {}/manifest.json)", plan.units[*i].dir)
                } else {
                    String::new()
                }
            )
        })
        .collect()
}

/// Writes `text` into the open sweep directory.
pub fn write(dir: &Path, rel: &str, text: &str) -> anyhow::Result<()> {
    output::write_atomic(&dir.join(rel), text.as_bytes())
}
