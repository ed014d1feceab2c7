//! `pftsim sweep`: one scenario over a grid of values (docs/sweeps.md).
//!
//! A grid file (`grid`) names the `[[pft]]` or `[[cc]]` entry to vary, the seeds, and axes:
//! dotted scenario keys, each with a list of values. Every combination of axis values is a
//! point; a point and a seed make one scenario file and one `pftsim run` of it (`plan`).
//! F_C needs the same network without congestion control, and CIF the isolated canaries:
//! those runs are shared by the points that differ only in the entry's keys.
//!
//! Every run is a line of `jobs.txt`, so the same plan runs three ways: here on local
//! threads (`exec`), under GNU parallel or as Slurm job arrays (`cluster`). `--collect`
//! then checks every run and writes `sweep.csv` and the plots (`collect`, `plots`); a local
//! sweep ends with the same collection, so the three give the same CSV. The sweep directory
//! is one result directory (`output::ResultDir`): its manifest lists the plan's files, the
//! run directories and the collected files, and says "finished" only when the step that
//! wrote it finished.

pub mod cluster;
pub mod collect;
pub mod exec;
pub mod grid;
pub mod placement;
pub mod plan;
pub mod plots;

pub use cluster::{Emit, SlurmOpts, ARRAY_MAX, JOBS, PARALLEL, SBATCH, SUBMIT};
pub use collect::Row;
pub use grid::{Axis, Grid, ENTRY_AXIS};
pub use plan::{load_plan, plan, Plan, Point, Unit, MAX_RUNS};
pub use plots::BARS;

use super::output::{self, Manifest, ResultDir};
use super::Scenario;
use crate::cc::pft::EngineKind;
use anyhow::{bail, Context};
use std::path::{Path, PathBuf};

/// The plan file in a sweep directory.
pub const PLAN: &str = "sweep.json";
/// The collected table.
pub const CSV: &str = "sweep.csv";

/// What `collect` produced.
#[derive(Clone, Debug, PartialEq)]
pub struct Collected {
    pub rows: Vec<Row>,
    /// Plots written (relative to the sweep directory): heat maps or bars, distributions.
    pub plots: Vec<String>,
    /// Runs whose workload did not finish before `cycles.max`.
    pub unfinished: Vec<String>,
}

/// What `pftsim sweep` was asked.
#[derive(Clone, Debug)]
pub struct SweepArgs {
    /// The scenario and the grid (both, or neither with `--resume` / `--collect`).
    pub scenario: Option<PathBuf>,
    pub grid: Option<PathBuf>,
    pub out: PathBuf,
    pub emit: Option<Emit>,
    pub engine: Option<EngineKind>,
    pub jobs: usize,
    /// `--threads`: each local run's phase-2 threads, over the point files' own
    /// `network.threads` (the job lists of `--emit` run at the point files' value).
    pub threads: Option<u32>,
    pub quiet: bool,
    /// Run a local sweep estimated above the limits of `run`.
    pub yes: bool,
    /// Keep the finished runs of the sweep in `out` and run only the rest.
    pub resume: bool,
    /// Slurm settings: tasks per array, and `--time` / `--mem` overriding the estimate.
    pub array_max: usize,
    pub time: Option<String>,
    pub mem: Option<String>,
}

/// The plan's files in the sweep directory (relative), what is collected later aside.
fn plan_files(plan: &Plan, emit: Option<Emit>) -> Vec<String> {
    let mut v: Vec<String> = plan.files.keys().cloned().collect();
    v.push(JOBS.into());
    v.push(PARALLEL.into());
    if emit == Some(Emit::Slurm) {
        v.push(SBATCH.into());
        v.push(SUBMIT.into());
    }
    v.push(PLAN.into());
    v
}

/// What a sweep of an older pftsim (before manifests) left in `dir`: its files by name,
/// and its heat maps by pattern (`ResultDir::open` moves them aside).
fn legacy(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = [CSV, PLAN, JOBS, PARALLEL, SBATCH, SUBMIT, BARS]
        .iter()
        .map(|s| s.to_string())
        .collect();
    v.extend(plots::DISTRIBUTIONS.iter().map(|s| s.to_string()));
    if let Ok(rd) = std::fs::read_dir(dir) {
        for e in rd.flatten() {
            let n = e.file_name().to_string_lossy().into_owned();
            if n.starts_with("fc_heatmap") && n.ends_with(".svg") {
                v.push(n);
            }
        }
    }
    v
}

/// What `read_plan` asks of the plan's digest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Digest {
    /// It must be there and match (`--resume`, which writes and runs what the plan names).
    Required,
    /// It must match when there is one (`--collect`, which reads the runs; a plan of an
    /// older pftsim has none).
    IfPresent,
}

/// Reads the plan a sweep directory holds, and checks it before anything is written by
/// it: its digest (`need`), and every path it names (the point files, each run's directory
/// and scenario) with `output::check_entry`: plain relative paths below `dir` with no
/// symbolic link on the way. A refusal names the entry.
pub fn read_plan(dir: &Path, need: Digest) -> anyhow::Result<Plan> {
    let at = dir.join(PLAN);
    let shown = super::sanitize(&at.display().to_string());
    let d = cluster::shell_quote(&super::sanitize(&dir.display().to_string()));
    let replan = format!(
        "plan the sweep again: `pftsim sweep SCENARIO --grid GRID --out {d}` (the earlier results there are moved aside into .previous-*, never deleted)"
    );
    anyhow::ensure!(
        !std::fs::symlink_metadata(&at).is_ok_and(|m| !m.is_file()),
        "{shown} is not a regular file: not a sweep plan"
    );
    let text = std::fs::read_to_string(&at).with_context(|| {
        format!(
            "{} has no {PLAN}: not a sweep directory (write one with `pftsim sweep SCENARIO --grid GRID --out DIR`)",
            dir.display()
        )
    })?;
    let plan: Plan = serde_json::from_str(&text)
        .with_context(|| format!("{} is not a sweep plan", at.display()))?;
    match (&plan.digest, need) {
        (None, Digest::Required) => bail!(
            "{shown} has no digest (written by an older pftsim, or edited): --resume runs only a plan that pftsim wrote and that is unchanged; {replan}"
        ),
        (None, Digest::IfPresent) => {}
        (Some(d), _) => {
            let want = plan.content_digest()?;
            anyhow::ensure!(
                *d == want,
                "{shown} does not match its digest (it was edited or damaged after pftsim wrote it: digest {}, content {want}); {replan}",
                super::sanitize(d)
            );
        }
    }
    // one level below its own folder: a point file in points/, a run in runs/ (a plan
    // that names the sweep's other files, or runs/ itself, is refused)
    let one_below = |p: &str, folder: &str| {
        p.strip_prefix(folder)
            .is_some_and(|r| !r.is_empty() && !r.contains('/'))
    };
    for f in plan.files.keys() {
        let what = format!("{shown}: files[{:?}]", super::sanitize(f));
        output::check_entry(dir, f, &what)?;
        anyhow::ensure!(
            one_below(f, "points/") && f.ends_with(".toml"),
            "{what}: not a point file (points/NAME.toml)"
        );
    }
    let mut seen = std::collections::HashSet::new();
    for (i, u) in plan.units.iter().enumerate() {
        output::check_entry(dir, &u.dir, &format!("{shown}: units[{i}].dir"))?;
        // a run's own directory, one level below runs/ (not runs/ itself, nor points/)
        anyhow::ensure!(
            one_below(&u.dir, "runs/"),
            "{shown}: units[{i}].dir = {:?}: not a run directory (runs/NAME)",
            super::sanitize(&u.dir)
        );
        anyhow::ensure!(
            seen.insert(u.dir.as_str()),
            "{shown}: units[{i}].dir = {:?}: an earlier unit's run directory too",
            super::sanitize(&u.dir)
        );
        output::check_entry(dir, &u.scenario, &format!("{shown}: units[{i}].scenario"))?;
        anyhow::ensure!(
            plan.files.contains_key(&u.scenario),
            "{shown}: units[{i}].scenario = {:?}: not one of the plan's point files",
            super::sanitize(&u.scenario)
        );
    }
    // a plan edited and sealed again: only what a grid can give
    let errs = plan.shape_errors();
    if !errs.is_empty() {
        bail!(
            "{shown}: {}\n{shown} is not a plan pftsim writes; {replan}",
            errs.join(&format!("\n{shown}: "))
        );
    }
    Ok(plan)
}

/// The plan of `a`: from the scenario and the grid, checked against the one in `out` when
/// `resume`; or the one in `out` alone. A resume with `--engine` refuses a plan made for
/// another engine (it runs the plan as it is), naming both.
fn the_plan(a: &SweepArgs) -> anyhow::Result<Plan> {
    let fresh = match (&a.scenario, &a.grid) {
        (Some(s), Some(g)) => Some(load_plan(s, g, a.engine)?),
        _ => None,
    };
    if !a.resume {
        return fresh.context("give the scenario and --grid (or --resume / --collect)");
    }
    let held = read_plan(&a.out, Digest::Required)?;
    if let Some(want) = a.engine {
        let has = held.engines()?;
        if has != [want] {
            bail!(
                "--engine {}: the sweep in {} was planned for engine {} (its point scenarios say so); --resume runs the plan as it is: leave out --engine to resume it, or plan the sweep again with --engine {} (without --resume; the earlier results are moved aside)",
                plan::engine_name(want),
                super::sanitize(&a.out.display().to_string()),
                has.iter()
                    .map(|e| plan::engine_name(*e))
                    .collect::<Vec<_>>()
                    .join(", "),
                plan::engine_name(want)
            );
        }
    }
    if let Some(f) = &fresh {
        if !f.same_runs(&held) {
            bail!(
                "{} holds a different sweep than this scenario and grid: --resume continues the same sweep only (leave out --resume to start this one; the earlier results are moved aside)",
                a.out.display()
            );
        }
    }
    Ok(held)
}

/// The files the points of `plan` read (their `file` topologies and traces, made absolute
/// when the plan was made), each once: inputs of the sweep, as the scenario and the grid.
pub fn files_read(plan: &Plan) -> Vec<PathBuf> {
    let mut read = std::collections::BTreeSet::new();
    for text in plan.files.values() {
        // a point that does not parse is refused where it is run, naming it
        if let Ok(p) = Scenario::parse(text) {
            read.extend(p.files_read().into_iter().map(Path::to_path_buf));
        }
    }
    read.into_iter().collect()
}

/// `pftsim sweep`: writes the plan into `out` and, without `emit`, runs it on `jobs`
/// threads and collects it. Returns the plan and, after a local run, the collection.
pub fn sweep_command(a: &SweepArgs) -> anyhow::Result<(Plan, Option<Collected>)> {
    let plan = the_plan(a)?;
    // the scenario, the grid, and the files the scenario and its points read (a `file`
    // topology, a trace): no run overwrites them and no result directory moves them aside
    let base = a.scenario.as_deref().map(Scenario::load).transpose()?;
    let read = files_read(&plan);
    let inputs: Vec<&Path> = a
        .scenario
        .iter()
        .chain(&a.grid)
        .map(PathBuf::as_path)
        .chain(base.iter().flat_map(Scenario::files_read))
        .chain(read.iter().map(PathBuf::as_path))
        .collect();
    if a.emit.is_none() {
        // every point's engine can run here, before anything is written
        for text in plan.files.values() {
            let psc = Scenario::parse(text).map_err(|m| anyhow::anyhow!("{m}"))?;
            super::check_engine(&psc, &super::compare_specs(&psc)?)?;
        }
    }
    let mut plots = vec![CSV.to_string()];
    plots.extend(plots::names(&plan));
    // a fresh sweep's manifest, its directory checked before the estimate's calibration run
    let fresh = if a.resume {
        None
    } else {
        let sc_path = a.scenario.as_deref().expect("a fresh sweep has a scenario");
        let sc = base.as_ref().expect("a fresh sweep has a scenario");
        let mut manifest = Manifest::new(
            "sweep",
            sc,
            Some(sc_path),
            plan.units.iter().map(|u| u.dir.clone()).collect(),
            plan_files(&plan, a.emit),
        );
        manifest.dirs = plan.units.iter().map(|u| u.dir.clone()).collect();
        if a.emit.is_some() {
            // the scripts' logs: the sweep's, moved aside with it, never a link
            manifest.dirs.push(cluster::LOGS.to_string());
        }
        manifest.pending = plots;
        ResultDir::check(&a.out, &manifest, &legacy(&a.out), &inputs)?;
        Some(manifest)
    };
    // the runs a local resume will start (a fresh sweep, or one for a cluster, all of them)
    let todo: Vec<usize> = (0..plan.units.len())
        .filter(|&i| !(a.resume && exec::unit_done(&plan, &a.out, &plan.units[i])))
        .collect();
    // a local resume is priced by what it runs; the scripts' time and memory by every run
    let all: Vec<usize> = (0..plan.units.len()).collect();
    let priced = if a.emit.is_none() { &todo } else { &all };
    // (the scripts' runs keep the point files' threads; a local sweep's take `--threads`)
    let threads = if a.emit.is_none() { a.threads } else { None };
    let cost = exec::cost(&plan, priced, a.jobs, threads, a.emit == Some(Emit::Slurm))?;
    let finished = plan.units.len() - priced.len();
    let described = match (priced.len(), finished) {
        (0, _) => format!("no run left to run ({finished} finished)"),
        (_, 0) => cost.describe(priced.len(), a.jobs),
        (n, _) => format!(
            "{} ({finished} finished run(s) not counted)",
            cost.describe(n, a.jobs)
        ),
    };
    if a.emit.is_none() && !a.yes && cost.needs_confirmation(a.jobs) {
        bail!(
            "this sweep is estimated at {}; that is above {} h or {:.0}% of the available memory, so it needs --yes (or fewer points, seeds or cycles; or --emit for a cluster)",
            described,
            super::estimate::LIMIT_SECONDS / 3600.0,
            100.0 * super::estimate::LIMIT_MEMORY_FRACTION
        );
    }
    if !a.quiet {
        crate::eprintln_safe!("estimate: {described}");
    }
    let exe = cluster::this_binary()?;
    let slurm = SlurmOpts {
        array_max: a.array_max,
        time: a.time.clone().unwrap_or_else(|| {
            // the longest run, with room for a slower node: 1.5x and 10 minutes
            cluster::slurm_time(cost.longest_run_s.unwrap_or(0.0) * 1.5 + 600.0)
        }),
        mem: a.mem.clone().unwrap_or_else(|| {
            cluster::slurm_mem(cost.run_memory.unwrap_or(0.0) * 1.5 + 128.0 * 1048576.0)
        }),
        job_name: cluster::job_name(&a.out),
    };
    // refused before the directory is taken: a binary path the job lines cannot carry
    let jobs_text = cluster::jobs_text(&plan, &exe)?;
    // each run a local resume will start must be able to write its files, checked before
    // the directory is taken and before the first run (a fresh sweep moves the run
    // directories aside, and `ResultDir::open` checks them)
    if a.resume && a.emit.is_none() {
        exec::check_run_outputs(&plan, &a.out, &todo)?;
    }
    let rd = if a.resume {
        let rd = ResultDir::reopen(&a.out, "sweep", &inputs)?;
        rd.update(|m| {
            m.argv = output::argv();
            m.failed_runs.clear();
            m.error = None;
        });
        rd
    } else {
        let manifest = fresh.expect("a fresh sweep has its manifest");
        ResultDir::open(&a.out, manifest, &legacy(&a.out), &inputs)?
    };
    let dir = rd.path().to_path_buf();
    rd.run(|rd| {
        for (f, text) in &plan.files {
            exec::write(&dir, f, text)?;
        }
        exec::write(&dir, JOBS, &jobs_text)?;
        exec::write(&dir, PARALLEL, &cluster::parallel_sh(&plan, &exe))?;
        if a.emit == Some(Emit::Slurm) {
            exec::write(&dir, SBATCH, &cluster::sbatch(&plan, &slurm, &exe))?;
            exec::write(&dir, SUBMIT, &cluster::submit_sh(&plan, &slurm, &exe))?;
        }
        exec::write(&dir, PLAN, &plan.to_file_text()?)?;
        if a.emit.is_some() {
            // the scripts' logs go here; Slurm does not create the directory itself
            let logs = dir.join(cluster::LOGS);
            if !logs.is_dir() {
                std::fs::create_dir(&logs)
                    .with_context(|| format!("cannot create {}", logs.display()))?;
            }
            return Ok(None);
        }
        rd.save()?;
        let failed = exec::run_units(&plan, &dir, &todo, a.jobs, a.threads, a.quiet);
        if !failed.is_empty() {
            let lines = exec::failure_lines(&plan, &failed);
            rd.update(|m| m.failed_runs = lines.clone());
            bail!(
                "{} of {} runs failed:\n  {}\nfinished runs are kept; run the failed ones again with: pftsim sweep --resume --out {}",
                failed.len(),
                todo.len(),
                lines.join("\n  "),
                cluster::shell_quote(&super::sanitize(&a.out.display().to_string()))
            );
        }
        collect_into(rd, &plan).map(Some)
    })
    .map(|c| (plan, c))
}

/// Collects the finished runs of `plan` in the open sweep directory `rd`.
fn collect_into(rd: &ResultDir, plan: &Plan) -> anyhow::Result<Collected> {
    let dir = rd.path();
    let miss = collect::missing(plan, dir)?;
    if !miss.is_empty() {
        bail!("{}", collect::missing_message(plan, dir, &miss));
    }
    let rows = collect::rows(plan, dir)?;
    exec::write(dir, CSV, &collect::csv_text(plan, &rows)?)?;
    let plots = plots::write(dir, plan, &rows)?;
    let unfinished = collect::unfinished(plan, dir);
    rd.update(|m| {
        m.unfinished_runs = unfinished.clone();
        // every run is there and finished now
        m.failed_runs.clear();
        // what was planned but not drawn (no distributions in this workload) is not pending
        m.pending.clear();
    });
    Ok(Collected {
        rows,
        plots,
        unfinished,
    })
}

/// `pftsim sweep --collect --out DIR`: checks every run of the plan in `dir`; if any is
/// missing or did not finish, lists them all with their tasks and the commands that run
/// only those, and writes nothing. Else writes `sweep.csv` and the plots, in the sweep
/// directory's lock, and marks its manifest finished. `expect`: the plan the directory must
/// hold (from the scenario and grid given).
pub fn collect_command(
    dir: &Path,
    expect: Option<&Plan>,
    inputs: &[&Path],
) -> anyhow::Result<Collected> {
    let plan = read_plan(dir, Digest::IfPresent)?;
    if let Some(w) = expect {
        if !w.same_runs(&plan) {
            bail!(
                "{} holds a different sweep than the scenario and grid given",
                dir.display()
            );
        }
    }
    // checked before the directory is taken: an early --collect changes nothing
    for f in plan.files.keys() {
        let at = dir.join(f);
        if !std::fs::symlink_metadata(&at).is_ok_and(|m| m.is_file()) {
            bail!(
                "{} (a point scenario of this sweep) is missing or not a plain file: `pftsim sweep --resume --out {}` writes it again from {}",
                at.display(),
                dir.display(),
                PLAN
            );
        }
    }
    let miss = collect::missing(&plan, dir)?;
    if !miss.is_empty() {
        bail!("{}", collect::missing_message(&plan, dir, &miss));
    }
    // every summary a row reads, read once before (a damaged one changes nothing)
    collect::rows(&plan, dir)?;
    let rd = ResultDir::reopen(dir, "sweep", inputs)?;
    rd.update(|m| m.argv = output::argv());
    rd.run(|rd| collect_into(rd, &plan))
}
