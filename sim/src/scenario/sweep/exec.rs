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
    /// Runs calibrated (`sample_units`; 0 when not calibrated).
    pub calibrated: usize,
}

impl SweepCost {
    /// One line for users.
    pub fn describe(&self, runs: usize, jobs: usize) -> String {
        match (&self.calibration, self.total_s, self.longest_run_s) {
            (Some(e), Some(t), Some(l)) => format!(
                "{runs} run(s), {:.2e} node-cycles in all; about {} with {jobs} at once here (the longest run about {}) at {:.2e} node-cycles/s (measured here, the slowest of {} run(s) calibrated); memory about {} per run{}",
                self.node_cycles,
                estimate::duration(t),
                estimate::duration(l),
                e.node_cycles_per_s,
                self.calibrated,
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

/// The cost of the runs `todo` of `plan` (indices into `plan.units`, ascending: every run,
/// or on a local `--resume` the unfinished ones) with `jobs` runs at once. The speed is
/// measured on the largest of them, a sample of their points and seeds (`sample_units`),
/// `jobs` calibrations at once, each on `threads` if given (as `run_units` runs them);
/// `always` calibrates even a small sweep (the Slurm script needs a time and a memory).
pub fn cost(
    plan: &Plan,
    todo: &[usize],
    jobs: usize,
    threads: Option<u32>,
    always: bool,
) -> anyhow::Result<SweepCost> {
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
    let total: f64 = todo.iter().map(|&i| per[i]).sum();
    let mut c = SweepCost {
        node_cycles: total,
        calibration: None,
        longest_run_s: None,
        total_s: None,
        run_memory: None,
        calibrated: 0,
    };
    if todo.is_empty() || (!always && total < CALIBRATE_ABOVE) {
        return Ok(c);
    }
    // The largest runs are calibrated, a sample that holds every value of every axis and
    // every seed (`sample_units`): runs differ in cost by their axes (the F_C map's runs at
    // 4 KiB packets took 1.5 times as long as at 64 bytes, in the median) and by their seeds
    // (a run that stops when it finishes ends where its seed lets it), so one run alone
    // can miss by either. Among the largest, runs with congestion control on rather than
    // `off`, and never the isolated baseline, which has no congestors: a scheme's state
    // costs time every cycle (PFT's model about doubles a GPCNeT cycle's time against
    // `off`), so, as `compare`'s estimate does (`estimate_specs`), the estimate errs high
    // for the baselines rather than low for every run of the entry.
    let sample = sample_units(plan, &per, todo);
    let cals = super::super::each_job(sample.len(), jobs, |k| {
        let u = &plan.units[sample[k]];
        let mut sc = Scenario::parse(&plan.files[&u.scenario])
            .map_err(|m| anyhow::anyhow!("{}: {m}", u.scenario))?;
        if let Some(t) = threads {
            sc.network.threads = t;
        }
        let spec = super::super::run_spec(&sc, &u.run)?;
        estimate::estimate(&sc, &spec, 1, 1)
            .with_context(|| format!("calibrating run {} of the sweep", u.dir))
    })?;
    // each calibrated run's build and time per node-cycle (at its expected end)
    let per_nc = |e: &Estimate, n: f64| (e.run_seconds(n) - e.build_seconds) / n.max(1.0);
    let times: Vec<(f64, f64)> = sample
        .iter()
        .zip(&cals)
        .map(|(&i, e)| (e.build_seconds, per_nc(e, per[i])))
        .collect();
    let k = times.len().max(1) as f64;
    let (build, tau) = times
        .iter()
        .fold((0.0, 0.0), |(b, t), &(bi, ti)| (b + bi / k, t + ti / k));
    // the longest run: the largest at the slowest run calibrated
    let nc = todo.iter().map(|&i| per[i]).fold(0.0, f64::max);
    let longest = times.iter().map(|&(b, t)| b + nc * t).fold(0.0, f64::max);
    c.longest_run_s = Some(longest);
    // every run at the sample's mean; `jobs` at once: the work spread over the cores, but
    // never below the longest run
    let all: f64 = todo.iter().map(|&i| build + per[i] * tau).sum();
    c.total_s = Some((all / jobs.max(1) as f64).max(longest));
    c.run_memory = Some(cals.iter().map(|e| e.memory_bytes).fold(0.0, f64::max));
    c.calibrated = cals.len();
    // the slowest run's calibration stands for the sweep (its speed is the one printed)
    let slowest = times
        .iter()
        .enumerate()
        .max_by(|a, b| a.1 .1.total_cmp(&b.1 .1))
        .map_or(0, |(i, _)| i);
    c.calibration = cals.into_iter().nth(slowest);
    Ok(c)
}

/// At most this many runs are calibrated (`sample_units`).
pub const SAMPLE_POINTS: usize = 8;

/// The runs `cost` calibrates: among the largest runs of `todo` (ascending indices into
/// `plan.units`; `per`: each unit's node-cycles at `cycles.max`), those with congestion
/// control on if any (else `off`, else any), and of them a sample in which every value of
/// every axis, and every seed, appears: the seed is one more axis (a run's end depends on
/// it: `pipelined-paper.toml`'s seeds run 1.5 to 6.5 million cycles), the j-th sample takes
/// each axis's (j mod its length)-th value, and an axis longer than `SAMPLE_POINTS` is
/// spread over the samples. A sampled combination the candidates lack is replaced by the
/// candidate that matches most of it (the first in the plan's order among equals).
pub fn sample_units(plan: &Plan, per: &[f64], todo: &[usize]) -> Vec<usize> {
    let top = todo.iter().map(|&i| per[i]).fold(0.0, f64::max);
    let kind = |u: &Unit| match u.run.as_str() {
        super::super::ISOLATED => 0,
        super::super::OFF => 1,
        _ => 2,
    };
    let big: Vec<usize> = todo
        .iter()
        .copied()
        .filter(|&i| per[i] >= top * (1.0 - 1e-9))
        .collect();
    let best = big.iter().map(|&i| kind(&plan.units[i])).max().unwrap_or(0);
    // each candidate run by its point's axis values and its seed (`points/pNNNN-sS.toml`),
    // in the plan's order (looked up by id, not by scanning: a plan holds up to `MAX_RUNS`)
    let values: std::collections::HashMap<&str, &[String]> = plan
        .points
        .iter()
        .map(|p| (p.id.as_str(), &p.values[..]))
        .collect();
    let mut seen = std::collections::HashSet::new();
    let mut cands: Vec<(Vec<&str>, usize)> = Vec::new();
    for &i in big.iter().filter(|&&i| kind(&plan.units[i]) == best) {
        let file = plan.units[i].scenario.as_str();
        let (id, seed) = file
            .strip_prefix("points/")
            .and_then(|f| f.rsplit_once("-s"))
            .unwrap_or((file, ""));
        let mut key: Vec<&str> = values
            .get(id)
            .map_or(Vec::new(), |v| v.iter().map(String::as_str).collect());
        key.resize(plan.axes.len(), "");
        key.push(seed);
        if seen.insert(key.clone()) {
            cands.push((key, i));
        }
    }
    if cands.is_empty() {
        return big.first().map_or(Vec::new(), |&i| vec![i]);
    }
    // each axis's values (the seed last) in the plan's order (a set each for the look-up:
    // an axis may hold thousands)
    let mut vals: Vec<Vec<&str>> = vec![Vec::new(); plan.axes.len() + 1];
    let mut has: Vec<std::collections::HashSet<&str>> = vec![Default::default(); vals.len()];
    for (key, _) in &cands {
        for (a, &v) in key.iter().enumerate() {
            if has[a].insert(v) {
                vals[a].push(v);
            }
        }
    }
    let m = vals
        .iter()
        .map(Vec::len)
        .max()
        .unwrap_or(1)
        .clamp(1, SAMPLE_POINTS);
    let mut out: Vec<usize> = Vec::new();
    for j in 0..m {
        let want: Vec<&str> = vals
            .iter()
            .map(|v| {
                let n = v.len();
                v[if n <= m { j % n } else { j * n / m }]
            })
            .collect();
        let score = |key: &[&str]| key.iter().zip(&want).filter(|(a, b)| a == b).count();
        let pick = cands
            .iter()
            .filter(|c| !out.contains(&c.1))
            .max_by_key(|c| (score(&c.0), std::cmp::Reverse(c.1)))
            .map(|c| c.1);
        if let Some(i) = pick {
            out.push(i);
        }
    }
    out
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

#[cfg(test)]
mod tests {
    use super::super::plan::Point;
    use super::*;

    /// A plan of `axes` (each its values), every combination a point in grid order (the
    /// last axis fastest), two seeds, an `off` baseline per point.
    fn plan(axes: &[&[&str]]) -> Plan {
        let mut combos: Vec<Vec<String>> = vec![Vec::new()];
        for vals in axes {
            combos = combos
                .iter()
                .flat_map(|c| {
                    vals.iter().map(move |v| {
                        let mut c = c.clone();
                        c.push(v.to_string());
                        c
                    })
                })
                .collect();
        }
        let points: Vec<Point> = combos
            .into_iter()
            .enumerate()
            .map(|(i, values)| Point {
                id: format!("p{i:04}"),
                values,
                group: i,
            })
            .collect();
        let mut units = Vec::new();
        for p in &points {
            for s in 1..=2 {
                units.push(Unit {
                    dir: format!("runs/{}-s{s}", p.id),
                    scenario: format!("points/{}-s{s}.toml", p.id),
                    run: "paper".into(),
                });
            }
        }
        for p in &points {
            units.push(Unit {
                dir: format!("runs/g{}-s1-off", p.group),
                scenario: format!("points/{}-s1.toml", p.id),
                run: super::super::super::OFF.into(),
            });
        }
        Plan {
            tool: "pftsim".into(),
            scenario: "x.toml".into(),
            entry: "paper".into(),
            entry_kind: "pft".into(),
            axes: (0..axes.len()).map(|a| format!("axis{a}")).collect(),
            seeds: vec![1, 2],
            heatmap: None,
            points,
            files: Default::default(),
            units,
            isolated: false,
            digest: None,
        }
    }

    /// Every run of `p`, as a fresh sweep prices them.
    fn all(p: &Plan) -> Vec<usize> {
        (0..p.units.len()).collect()
    }

    /// Each sampled run's axis values and seed.
    fn values(p: &Plan, sample: &[usize]) -> Vec<(Vec<String>, String)> {
        sample
            .iter()
            .map(|&i| {
                let u = &p.units[i];
                assert_eq!(u.run, "paper", "a run of the entry, not a baseline");
                let id = &u.scenario["points/".len().."points/p0000".len()];
                let seed = u
                    .scenario
                    .trim_end_matches(".toml")
                    .rsplit_once("-s")
                    .unwrap()
                    .1;
                let values = p.points.iter().find(|q| q.id == id).unwrap().values.clone();
                (values, seed.to_string())
            })
            .collect()
    }

    /// The sample holds every value of every axis and every seed, each run once; the F_C
    /// map's shape (5 x 4 x 4, here 2 seeds) takes 5 runs.
    #[test]
    fn sample_covers_every_axis_value_and_seed() {
        let axes: [&[&str]; 3] = [
            &["16", "19", "20", "21", "32"],
            &["64", "128", "512", "4096"],
            &["a", "b", "c", "d"],
        ];
        let p = plan(&axes);
        let per = vec![1e9; p.units.len()];
        let s = sample_units(&p, &per, &all(&p));
        assert_eq!(s.len(), 5);
        let v = values(&p, &s);
        for (a, vals) in axes.iter().enumerate() {
            for want in vals.iter() {
                assert!(
                    v.iter().any(|x| x.0[a] == *want),
                    "axis {a} value {want}: {v:?}"
                );
            }
        }
        for seed in ["1", "2"] {
            assert!(v.iter().any(|x| x.1 == seed), "seed {seed}: {v:?}");
        }
        let mut d = s.clone();
        d.sort();
        d.dedup();
        assert_eq!(d.len(), s.len(), "no run twice");
    }

    /// Only the largest runs are candidates; an axis longer than `SAMPLE_POINTS` is
    /// spread over the sample, from its first value to near its last.
    #[test]
    fn sample_takes_the_largest_and_spreads_long_axes() {
        let vals: Vec<String> = (0..20).map(|i| i.to_string()).collect();
        let refs: Vec<&str> = vals.iter().map(String::as_str).collect();
        let p = plan(&[&refs]);
        let mut per = vec![1e9; p.units.len()];
        // point p0000's runs are smaller: not candidates
        per[0] = 1e8;
        per[1] = 1e8;
        let s = sample_units(&p, &per, &all(&p));
        assert_eq!(s.len(), SAMPLE_POINTS);
        let v: Vec<usize> = values(&p, &s)
            .iter()
            .map(|x| x.0[0].parse().unwrap())
            .collect();
        assert!(!v.contains(&0), "the smaller point is left out: {v:?}");
        assert!(
            v.iter().any(|&x| x >= 15),
            "spread to the axis's end: {v:?}"
        );
        assert!(
            v.windows(2).all(|w| w[0] < w[1]),
            "in the axis's order: {v:?}"
        );
    }

    /// A sweep of baselines alone (no run of an entry among the largest) samples `off`.
    #[test]
    fn sample_falls_back_to_off() {
        let mut p = plan(&[&["1", "2"]]);
        p.units.retain(|u| u.run == super::super::super::OFF);
        let per = vec![1e9; p.units.len()];
        let s = sample_units(&p, &per, &all(&p));
        assert_eq!(s.len(), 2);
        assert!(s
            .iter()
            .all(|&i| p.units[i].run == super::super::super::OFF));
    }

    /// On `--resume` only the unfinished runs are candidates: a finished run is never
    /// calibrated, however large, and the largest unfinished ones are.
    #[test]
    fn sample_leaves_finished_runs_out() {
        let p = plan(&[&["1", "2", "3"]]);
        let mut per = vec![1e9; p.units.len()];
        // p0000's runs (0, 1) finished and the largest; p0001's (2, 3) left, one larger
        per[0] = 4e9;
        per[1] = 4e9;
        per[3] = 2e9;
        let todo: Vec<usize> = (2..p.units.len()).collect();
        let s = sample_units(&p, &per, &todo);
        assert_eq!(s, vec![3], "the largest run left");
        assert!(sample_units(&p, &per, &[]).is_empty());
    }
}
