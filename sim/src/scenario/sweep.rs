//! `pftsim sweep`: one scenario over a grid of values (docs/sweeps.md).
//!
//! A grid file names the `[[pft]]` or `[[cc]]` entry to vary, the seeds, and axes: dotted
//! scenario keys, each with a list of values (`pft.m = [15, 18, 22]`,
//! `workload.host_send_ns = [0, 450]`). Every combination of axis values is a point. A
//! point and a seed make one scenario file (`points/pNNNN-sS.toml`: the entry alone, the
//! axis values and the seed applied), and one `pftsim run` of it. F_C needs the same
//! network without congestion control, and CIF the isolated canaries: those runs are
//! shared by the points that differ only in the entry's keys (a baseline group).
//!
//! Every run is a command line in `jobs.txt` (`pftsim run POINT --pft NAME --out DIR`), so
//! the same plan runs three ways: here on local threads, under GNU parallel, or as a Slurm
//! job array (`sweep.sbatch`). `--collect` then reads every run's `summary.json` and
//! writes `sweep.csv` (one row per point and seed) and the F_C heat maps; a local sweep
//! ends with the same collection, so the three give the same CSV.

use super::output::{self, Manifest, ResultDir};
use super::{plot, run_command, Progress, Scenario, ISOLATED, OFF};
use crate::net::EngineKind;
use anyhow::{bail, Context};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// Largest number of runs a sweep may plan.
pub const MAX_RUNS: usize = 100_000;

/// The plan file in a sweep directory.
pub const PLAN: &str = "sweep.json";
/// The job list (one `pftsim run` per line, run from the sweep directory).
pub const JOBS: &str = "jobs.txt";
/// The Slurm job-array script.
pub const SBATCH: &str = "sweep.sbatch";
/// The collected table.
pub const CSV: &str = "sweep.csv";
/// The F_C bar chart of a one-axis sweep.
pub const BARS: &str = "fc_bars.svg";

/// A grid file (TOML).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Grid {
    /// The `[[pft]]` or `[[cc]]` entry the points vary (default: the first `[[pft]]`, else
    /// the first `[[cc]]`).
    pub entry: Option<String>,
    /// Seeds (default: the scenario's `seed`). 1 to 1000 distinct values.
    pub seeds: Option<Vec<u64>>,
    /// The two axes of the F_C heat maps (default: the first two axes).
    pub heatmap: Option<Vec<String>>,
    /// The axes, in order (the first varies slowest).
    #[serde(default)]
    pub axis: Vec<Axis>,
}

/// One axis: a dotted key and its values.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Axis {
    /// `entry`: the values name `[[pft]]` (or `[[cc]]`) entries, one per point; `pft.KEY` /
    /// `cc.KEY`: a key of the swept entry; anything else: a scenario key by its dotted path
    /// (`network.buffer_flits`, `workload.host_send_ns`, `cycles.max`).
    pub key: Option<String>,
    /// Several keys set together (`keys = ["workload.host_send_ns",
    /// "workload.host_recv_ns"]`): each value is a list of one value per key.
    pub keys: Option<Vec<String>>,
    pub values: Vec<toml::Value>,
    /// Names of the values in the CSV and the plots (default: the values as TOML).
    pub labels: Option<Vec<String>>,
}

impl Axis {
    /// The axis's name: its key, or its keys joined with `+` (a CSV column).
    pub fn name(&self) -> String {
        match (&self.key, &self.keys) {
            (Some(k), _) => k.clone(),
            (None, Some(ks)) => ks.join("+"),
            (None, None) => String::new(),
        }
    }

    /// The keys this axis sets.
    fn key_list(&self) -> Vec<String> {
        match (&self.key, &self.keys) {
            (Some(k), _) => vec![k.clone()],
            (None, Some(ks)) => ks.clone(),
            (None, None) => Vec::new(),
        }
    }

    /// The values of value `j` for each key.
    fn values_at(&self, j: usize) -> Vec<toml::Value> {
        match (&self.keys, &self.values[j]) {
            (Some(_), toml::Value::Array(a)) => a.clone(),
            (_, v) => vec![v.clone()],
        }
    }
}

/// The axis name that picks the entry of each point.
pub const ENTRY_AXIS: &str = "entry";

/// One run of the plan.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Unit {
    /// Output directory, relative to the sweep directory (`runs/...`).
    pub dir: String,
    /// Scenario file, relative to the sweep directory (`points/...`).
    pub scenario: String,
    /// `--pft` argument: the entry's name, `off` or `isolated`.
    pub run: String,
}

/// One point of the grid.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Point {
    /// `p0000`, `p0001`, ... in grid order.
    pub id: String,
    /// The axis values, as written in the grid (TOML syntax).
    pub values: Vec<String>,
    /// Its baseline group (points with the same values on every axis outside the entry).
    pub group: usize,
}

/// A whole sweep: what `sweep.json` holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Plan {
    pub tool: String,
    pub scenario: String,
    /// The swept entry (entries, comma-separated, with an `entry` axis) and whether they
    /// are `[[pft]]` (`pft`) or `[[cc]]` (`cc`) entries.
    pub entry: String,
    pub entry_kind: String,
    pub axes: Vec<String>,
    pub seeds: Vec<u64>,
    pub heatmap: Option<(usize, usize)>,
    pub points: Vec<Point>,
    /// Point scenario files and their text.
    pub files: BTreeMap<String, String>,
    pub units: Vec<Unit>,
    /// Whether the scenario has an isolated baseline (GPCNeT, or `isolated = true`).
    pub isolated: bool,
}

fn unit_dir_point(p: &str, seed: u64) -> String {
    format!("runs/{p}-s{seed}")
}

fn unit_dir_base(group: usize, seed: u64, run: &str) -> String {
    format!("runs/g{group:03}-s{seed}-{run}")
}

fn point_file(p: &str, seed: u64) -> String {
    format!("points/{p}-s{seed}.toml")
}

/// Sets `key` (dotted) in `t`, creating tables on the way.
fn set_path(t: &mut toml::Table, key: &str, v: toml::Value) -> Result<(), String> {
    let mut parts: Vec<&str> = key.split('.').collect();
    let last = parts.pop().expect("split gives one part");
    let mut cur = t;
    for p in parts {
        let e = cur
            .entry(p.to_string())
            .or_insert_with(|| toml::Value::Table(toml::Table::new()));
        cur = e
            .as_table_mut()
            .ok_or_else(|| format!("`{p}` is not a table in the scenario"))?;
    }
    cur.insert(last.to_string(), v);
    Ok(())
}

/// The plan of sweeping `sc_text` (the scenario file's text, at `sc_path`) over `grid`.
/// Every point scenario is parsed and validated here, so that a bad value fails before
/// anything runs, naming the point and its axis values.
/// `engine`: the scenario's `engine` replaced (`pftsim sweep --engine`).
pub fn plan(
    sc_path: &Path,
    sc_text: &str,
    grid: &Grid,
    engine: Option<EngineKind>,
) -> anyhow::Result<Plan> {
    let sc = Scenario::parse(sc_text)
        .map_err(|m| anyhow::anyhow!("scenario {}: {m}", sc_path.display()))?;
    let base: toml::Table = toml::from_str(sc_text)
        .with_context(|| format!("scenario {} is not TOML", sc_path.display()))?;
    let names = |kind: &str| -> Vec<String> {
        base.get(kind)
            .and_then(|v| v.as_array())
            .map(|a| {
                a.iter()
                    .filter_map(|e| e.get("name").and_then(|n| n.as_str()).map(String::from))
                    .collect()
            })
            .unwrap_or_default()
    };
    let (pft_names, cc_names) = (names("pft"), names("cc"));
    let kind_of = |e: &str| {
        if pft_names.iter().any(|n| n == e) {
            Some("pft")
        } else if cc_names.iter().any(|n| n == e) {
            Some("cc")
        } else {
            None
        }
    };
    let all_names = || {
        pft_names
            .iter()
            .chain(&cc_names)
            .map(|n| format!("{n:?}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let entry_axis = grid
        .axis
        .iter()
        .position(|a| a.key.as_deref() == Some(ENTRY_AXIS));
    // the entry of every point (one name when there is no entry axis) and their kind
    let entries: Vec<String> = match entry_axis {
        Some(k) => {
            if grid.entry.is_some() {
                bail!("grid: give `entry` or an axis with key = \"entry\", not both");
            }
            grid.axis[k]
                .values
                .iter()
                .enumerate()
                .map(|(j, v)| {
                    v.as_str().map(String::from).with_context(|| {
                        format!("grid: `axis[{k}]`.values[{j}] = {v}: must be the name of a [[pft]] or [[cc]] entry ({})", all_names())
                    })
                })
                .collect::<anyhow::Result<_>>()?
        }
        None => vec![match &grid.entry {
            Some(e) => e.clone(),
            None => pft_names
                .first()
                .or(cc_names.first())
                .cloned()
                .context("grid: the scenario has no [[pft]] or [[cc]] entry to sweep")?,
        }],
    };
    let mut kind = "";
    for e in &entries {
        let Some(k) = kind_of(e) else {
            bail!(
                "grid: entry {e:?}: must name a [[pft]] or [[cc]] entry of the scenario ({})",
                all_names()
            );
        };
        if !kind.is_empty() && k != kind {
            bail!("grid: the swept entries must all be [[pft]] or all [[cc]] entries");
        }
        kind = k;
    }
    let entry_label = entries.join(",");
    let seeds = grid.seeds.clone().unwrap_or_else(|| vec![sc.seed]);
    if seeds.is_empty()
        || seeds.len() > 1000
        || seeds
            .iter()
            .enumerate()
            .any(|(i, s)| seeds[..i].contains(s))
    {
        bail!("grid: `seeds`: must list 1 to 1000 distinct seeds");
    }
    let key_ok = |k: &str| {
        !k.is_empty()
            && k.split('.').all(|p| {
                !p.is_empty()
                    && p.chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
            })
    };
    for (i, a) in grid.axis.iter().enumerate() {
        let at = format!("grid: `axis[{i}]`");
        let keys = a.key_list();
        if a.key.is_some() == a.keys.is_some() || keys.is_empty() {
            bail!("{at}: give `key` (one key) or `keys` (a list of keys), not both");
        }
        for k in &keys {
            if !key_ok(k) {
                bail!("{at}: key {k:?}: must be a dotted key such as \"pft.m\" or \"workload.host_send_ns\"");
            }
            let top = k.split('.').next().unwrap_or("");
            if (top == "pft" || top == "cc") && top != kind {
                bail!(
                    "{at}: key {k:?}: the swept entry {entry_label:?} is a [[{kind}]] entry: use `{kind}.KEY`"
                );
            }
            if *k == format!("{kind}.name")
                || k == "seed"
                || k == "isolated"
                || (k == ENTRY_AXIS && a.keys.is_some())
            {
                bail!(
                    "{at}: key {k:?}: not a sweep axis (the entry's name is fixed, seeds go in `seeds`, and the sweep runs the isolated baseline itself)"
                );
            }
        }
        if grid.axis[..i].iter().any(|b| b.name() == a.name()) {
            bail!("{at}: {:?} is an axis twice", a.name());
        }
        if a.values.is_empty() {
            bail!("{at}.values: must list at least one value");
        }
        if let Some(l) = &a.labels {
            let ok = l.len() == a.values.len()
                && l.iter().enumerate().all(|(j, x)| {
                    !x.is_empty() && !x.contains(['"', ',', '\n']) && !l[..j].contains(x)
                });
            if !ok {
                bail!(
                    "{at}.labels: must give one distinct, non-empty label (no quotes, commas or newlines) per value ({} values)",
                    a.values.len()
                );
            }
        }
        if a.keys.is_some() {
            for (j, v) in a.values.iter().enumerate() {
                if v.as_array().map(|x| x.len()) != Some(keys.len()) {
                    bail!(
                        "{at}.values[{j}] = {v}: must be a list of {} values, one per key",
                        keys.len()
                    );
                }
            }
        }
    }
    let axes: Vec<String> = grid.axis.iter().map(|a| a.name()).collect();
    let heatmap = match &grid.heatmap {
        Some(h) => {
            let idx = |k: &String| {
                axes.iter().position(|a| a == k).with_context(|| {
                    format!(
                        "grid: `heatmap`: {k:?} is not an axis ({})",
                        axes.join(", ")
                    )
                })
            };
            if h.len() != 2 || h[0] == h[1] {
                bail!("grid: `heatmap`: must name two different axes");
            }
            Some((idx(&h[0])?, idx(&h[1])?))
        }
        None if axes.len() >= 2 => Some((0, 1)),
        None => None,
    };
    let n_points: usize = grid
        .axis
        .iter()
        .fold(1usize, |n, a| n.saturating_mul(a.values.len()));
    let isolated = super::wants_isolated(&sc);
    // at most a point run, an `off` and an `isolated` run per point and seed
    if n_points.saturating_mul(seeds.len()).saturating_mul(3) > MAX_RUNS {
        bail!(
            "grid: {n_points} points x {} seeds is too many: at most {MAX_RUNS} runs (3 per point and seed)",
            seeds.len()
        );
    }
    // The scenario without entries and without an isolated run of its own; each point
    // puts its entry back.
    let mut t = base.clone();
    let entry_table = |name: &str| {
        base.get(kind)
            .and_then(|v| v.as_array())
            .and_then(|a| {
                a.iter()
                    .find(|e| e.get("name").and_then(|n| n.as_str()) == Some(name))
                    .cloned()
            })
            .expect("the entry exists")
    };
    t.remove("pft");
    t.remove("cc");
    t.insert("isolated".into(), toml::Value::Boolean(false));
    if let Some(e) = engine {
        let name = serde_json::to_value(e)?;
        let name = name.as_str().context("an engine name")?;
        t.insert("engine".into(), toml::Value::String(name.to_string()));
    }
    if !t.contains_key("name") {
        let stem = sc_path.file_stem().unwrap_or_default().to_string_lossy();
        t.insert(
            "name".into(),
            toml::Value::String(super::config::name_from_stem(&stem)),
        );
    }

    let mut points = Vec::new();
    let mut files = BTreeMap::new();
    let mut units = Vec::new();
    let mut groups: Vec<Vec<String>> = Vec::new();
    let mut group_file: Vec<BTreeMap<u64, String>> = Vec::new();
    for i in 0..n_points {
        // row-major: the first axis varies slowest
        let mut rem = i;
        let mut idx = vec![0; grid.axis.len()];
        for (k, a) in grid.axis.iter().enumerate().rev() {
            idx[k] = rem % a.values.len();
            rem /= a.values.len();
        }
        let id = format!("p{i:04}");
        let values: Vec<String> = grid
            .axis
            .iter()
            .zip(&idx)
            .map(|(a, &j)| match &a.labels {
                Some(l) => l[j].clone(),
                None => a.values[j].to_string(),
            })
            .collect();
        // the baseline group: the values of the axes that do not touch the entry
        // the baseline group: the values of the keys outside the entry
        let gkey: Vec<String> = grid
            .axis
            .iter()
            .zip(&idx)
            .filter(|(a, _)| a.key.as_deref() != Some(ENTRY_AXIS))
            .flat_map(|(a, &j)| {
                a.key_list()
                    .into_iter()
                    .zip(a.values_at(j))
                    .filter(|(k, _)| !k.starts_with(&format!("{kind}.")))
                    .map(|(k, v)| format!("{k}={v}"))
            })
            .collect();
        let entry = match entry_axis {
            Some(k) => entries[idx[k]].clone(),
            None => entries[0].clone(),
        };
        let group = match groups.iter().position(|g| *g == gkey) {
            Some(g) => g,
            None => {
                groups.push(gkey);
                group_file.push(BTreeMap::new());
                groups.len() - 1
            }
        };
        for &seed in &seeds {
            let mut pt = t.clone();
            pt.insert("seed".into(), toml::Value::Integer(seed as i64));
            pt.insert(
                kind.to_string(),
                toml::Value::Array(vec![entry_table(&entry)]),
            );
            for (a, &j) in grid.axis.iter().zip(&idx) {
                if a.key.as_deref() == Some(ENTRY_AXIS) {
                    continue;
                }
                for (key, v) in a.key_list().iter().zip(a.values_at(j)) {
                    let r = if let Some(k) = key.strip_prefix(&format!("{kind}.")) {
                        let e = pt
                            .get_mut(kind)
                            .and_then(|v| v.as_array_mut())
                            .and_then(|a| a.first_mut())
                            .and_then(|e| e.as_table_mut())
                            .expect("the entry is a table");
                        set_path(e, k, v)
                    } else {
                        set_path(&mut pt, key, v)
                    };
                    r.map_err(|m| anyhow::anyhow!("grid: axis `{key}`: {m}"))?;
                }
            }
            let text = toml::to_string(&pt).context("writing a point scenario")?;
            let what = || {
                format!(
                    "grid point {id} ({}), seed {seed}",
                    axes.iter()
                        .zip(&values)
                        .map(|(k, v)| format!("{k} = {v}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            };
            let psc = Scenario::parse(&text).map_err(|m| anyhow::anyhow!("{}: {m}", what()))?;
            psc.validate()
                .map_err(|e| anyhow::anyhow!("{}: invalid value(s):\n{e}", what()))?;
            let f = point_file(&id, seed);
            files.insert(f.clone(), text);
            units.push(Unit {
                dir: unit_dir_point(&id, seed),
                scenario: f.clone(),
                run: entry.clone(),
            });
            group_file[group].entry(seed).or_insert(f);
        }
        points.push(Point { id, values, group });
    }
    for (g, by_seed) in group_file.iter().enumerate() {
        for (&seed, f) in by_seed {
            let mut runs = vec![OFF];
            if isolated {
                runs.push(ISOLATED);
            }
            for r in runs {
                units.push(Unit {
                    dir: unit_dir_base(g, seed, r),
                    scenario: f.clone(),
                    run: r.to_string(),
                });
            }
        }
    }
    Ok(Plan {
        tool: format!("pftsim {}", env!("CARGO_PKG_VERSION")),
        scenario: sc.name().to_string(),
        entry: entry_label,
        entry_kind: kind.to_string(),
        axes,
        seeds,
        heatmap,
        points,
        files,
        units,
        isolated,
    })
}

/// The command line of `u`, run from the sweep directory. `pftsim` is `$PFTSIM` if set.
pub fn job_line(u: &Unit) -> String {
    format!(
        "\"${{PFTSIM:-pftsim}}\" run {} --pft {} --out {} --jobs 1 --quiet --yes",
        u.scenario, u.run, u.dir
    )
}

/// `sweep.sbatch`: a Slurm job array of the job list, one task per line.
pub fn sbatch(plan: &Plan, dir: &Path) -> String {
    format!(
        r#"#!/bin/bash
# Slurm job array of the sweep `{name}` ({n} runs, one per line of {JOBS}).
# Submit:   sbatch {SBATCH}          (from this directory, or anywhere: it cds here)
# pftsim must be on PATH on the compute nodes, or PFTSIM set to it:
#           sbatch --export=ALL,PFTSIM=/path/to/pftsim {SBATCH}
# Then:     pftsim sweep --collect --out {dir}
#SBATCH --job-name=pftsim-sweep
#SBATCH --array=0-{last}
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=1
#SBATCH --output=slurm-%A_%a.out
set -euo pipefail
cd {dir_q}
line=$(sed -n "$((SLURM_ARRAY_TASK_ID + 1))p" {JOBS})
eval "$line"
"#,
        name = plan.scenario,
        n = plan.units.len(),
        last = plan.units.len().saturating_sub(1),
        dir = dir.display(),
        dir_q = shell_quote(&dir.display().to_string()),
    )
}

fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', "'\\''"))
}

/// How `sweep` runs its plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Emit {
    /// Write the job list for GNU parallel (and run nothing).
    Parallel,
    /// Write the job list and a Slurm job-array script (and run nothing).
    Slurm,
}

/// The plan's files in the sweep directory (relative), `sweep.csv` and heat maps aside.
fn plan_files(plan: &Plan, emit: Option<Emit>) -> Vec<String> {
    let mut v: Vec<String> = plan.files.keys().cloned().collect();
    v.push(JOBS.into());
    if emit == Some(Emit::Slurm) {
        v.push(SBATCH.into());
    }
    v.push(PLAN.into());
    v
}

/// `pftsim sweep SCENARIO --grid GRID --out DIR [--emit parallel|slurm]`: writes the plan
/// into `dir` and, without `emit`, runs it on `jobs` threads and collects it. Returns the
/// plan and, after a local run, the collected rows.
#[allow(clippy::too_many_arguments)]
pub fn sweep_command(
    sc_path: &Path,
    grid_path: &Path,
    dir: &Path,
    emit: Option<Emit>,
    engine: Option<EngineKind>,
    jobs: usize,
    quiet: bool,
) -> anyhow::Result<(Plan, Option<Collected>)> {
    let plan = load_plan(sc_path, grid_path, engine)?;
    let dir = absolute(dir)?;
    let sc = Scenario::load(sc_path)?;
    if emit.is_none() {
        // every point's engine can run here, before anything is written
        for text in plan.files.values() {
            let psc = Scenario::parse(text).map_err(|m| anyhow::anyhow!("{m}"))?;
            super::check_engine(&psc, &super::compare_specs(&psc)?)?;
        }
    }
    let files = plan_files(&plan, emit);
    let manifest = Manifest::new(
        "sweep",
        &sc,
        Some(sc_path),
        plan.units.iter().map(|u| u.dir.clone()).collect(),
        files,
    );
    let rd = ResultDir::open(&dir, manifest, &[], &[sc_path, grid_path])?;
    for (f, text) in &plan.files {
        let p = dir.join(f);
        std::fs::create_dir_all(p.parent().expect("points/"))?;
        output::write_atomic(&p, text.as_bytes())?;
    }
    let jobs_text: String = plan.units.iter().map(|u| job_line(u) + "\n").collect();
    output::write_atomic(&dir.join(JOBS), jobs_text.as_bytes())?;
    if emit == Some(Emit::Slurm) {
        output::write_atomic(&dir.join(SBATCH), sbatch(&plan, &dir).as_bytes())?;
    }
    output::write_json(&dir.join(PLAN), &plan)?;
    rd.finish()?;
    if emit.is_some() {
        return Ok((plan, None));
    }
    run_units(&plan, &dir, jobs, quiet)?;
    let c = collect(&dir)?;
    Ok((plan, Some(c)))
}

fn absolute(p: &Path) -> anyhow::Result<PathBuf> {
    if p.is_absolute() {
        Ok(p.to_path_buf())
    } else {
        Ok(std::env::current_dir()?.join(p))
    }
}

/// Reads the scenario and the grid and plans the sweep.
pub fn load_plan(
    sc_path: &Path,
    grid_path: &Path,
    engine: Option<EngineKind>,
) -> anyhow::Result<Plan> {
    // Validates the scenario file as `check` does (the error names it).
    Scenario::load(sc_path)?;
    let sc_text = std::fs::read_to_string(sc_path)
        .with_context(|| format!("cannot read scenario {}", sc_path.display()))?;
    let gtext = std::fs::read_to_string(grid_path)
        .with_context(|| format!("cannot read grid {}", grid_path.display()))?;
    let grid: Grid = toml::from_str(&gtext).map_err(|e| {
        anyhow::anyhow!(
            "grid {} is not a valid grid file:\n{}",
            grid_path.display(),
            super::toml_error::syntax_message(&gtext, &e)
        )
    })?;
    plan(sc_path, &sc_text, &grid, engine)
}

/// Runs every unit of `plan` in `dir` (as its `pftsim run` line would), `jobs` at once,
/// with one progress bar over the runs.
fn run_units(plan: &Plan, dir: &Path, jobs: usize, quiet: bool) -> anyhow::Result<()> {
    let bar = if quiet {
        indicatif::ProgressBar::hidden()
    } else {
        let b = indicatif::ProgressBar::new(plan.units.len() as u64);
        b.set_style(
            indicatif::ProgressStyle::with_template(
                "sweep [{elapsed_precise}] {bar:30} {pos}/{len} runs, ETA {eta} {msg}",
            )
            .expect("valid template"),
        );
        b
    };
    let next = AtomicUsize::new(0);
    let failed: Mutex<Option<anyhow::Error>> = Mutex::new(None);
    std::thread::scope(|s| {
        for _ in 0..jobs.clamp(1, plan.units.len().max(1)) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= plan.units.len() {
                    break;
                }
                let u = &plan.units[i];
                let r = (|| -> anyhow::Result<()> {
                    let f = dir.join(&u.scenario);
                    let sc = Scenario::load(&f)?;
                    run_command(
                        &sc,
                        &[f.as_path()],
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
                    let mut f = failed.lock().expect("no panics while held");
                    if f.is_none() {
                        *f = Some(e.context(format!("run {}", u.dir)));
                    }
                    next.store(plan.units.len(), Ordering::Relaxed);
                }
            });
        }
    });
    bar.finish_and_clear();
    match failed.into_inner().expect("no panics while held") {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// The numbers of one run's `summary.json` a sweep row needs.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Brief {
    lat: Option<f64>,
    bw: Option<f64>,
    cong: f64,
    thr: f64,
    finished: bool,
    cycles: u64,
}

fn read_brief(path: &Path) -> anyhow::Result<Brief> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let v: serde_json::Value = serde_json::from_str(&text)
        .with_context(|| format!("{} is not a run summary", path.display()))?;
    let f = |p: &str| v.pointer(p).and_then(|x| x.as_f64());
    Ok(Brief {
        lat: f("/victims/latency_mean"),
        bw: f("/victims/bandwidth_mean"),
        cong: f("/pft_stats/frac_congested").unwrap_or(0.0),
        thr: f("/pft_stats/frac_throttled").unwrap_or(0.0),
        finished: v
            .pointer("/finished")
            .and_then(|x| x.as_bool())
            .unwrap_or(false),
        cycles: v
            .pointer("/cycles_run")
            .and_then(|x| x.as_u64())
            .unwrap_or(0),
    })
}

/// One row of `sweep.csv`.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub point: String,
    pub seed: u64,
    pub values: Vec<String>,
    pub f_c: Option<f64>,
    pub f_c_bw: Option<f64>,
    pub f_c_lat: Option<f64>,
    pub cif_lat: Option<f64>,
    pub cif_bw: Option<f64>,
    pub cong_pct: f64,
    pub thr_pct: f64,
    pub lat_mean: Option<f64>,
    pub bw_mean: Option<f64>,
    pub lat_off: Option<f64>,
    pub bw_off: Option<f64>,
    pub finished: bool,
    pub cycles_run: u64,
}

/// What `collect` produced.
#[derive(Clone, Debug, PartialEq)]
pub struct Collected {
    pub rows: Vec<Row>,
    /// Plots written (relative to the sweep directory): heat maps or bars, distributions.
    pub plots: Vec<String>,
}

fn ratio(a: Option<f64>, b: Option<f64>) -> Option<f64> {
    match (a, b) {
        (Some(a), Some(b)) if b != 0.0 && (a / b).is_finite() => Some(a / b),
        _ => None,
    }
}

/// `pftsim sweep --collect --out DIR`: reads `sweep.json` and every run's `summary.json`,
/// writes `sweep.csv` and the heat maps. Refuses, naming them, when runs are missing.
pub fn collect(dir: &Path) -> anyhow::Result<Collected> {
    let text = std::fs::read_to_string(dir.join(PLAN)).with_context(|| {
        format!(
            "{} has no {PLAN}: not a sweep directory (write one with `pftsim sweep SCENARIO --grid GRID --out DIR`)",
            dir.display()
        )
    })?;
    let plan: Plan = serde_json::from_str(&text)
        .with_context(|| format!("{} is not a sweep plan", dir.join(PLAN).display()))?;
    let missing: Vec<&str> = plan
        .units
        .iter()
        .filter(|u| !dir.join(&u.dir).join("summary.json").is_file())
        .map(|u| u.dir.as_str())
        .collect();
    if !missing.is_empty() {
        bail!(
            "{} of {} runs have no summary.json yet (not run, or not finished): {}{}",
            missing.len(),
            plan.units.len(),
            missing[..missing.len().min(10)].join(", "),
            if missing.len() > 10 { ", ..." } else { "" }
        );
    }
    // Every run must be of its own point scenario (not left by an earlier sweep into the
    // same directory): its manifest names the scenario's hash and the run.
    let mut hashes: BTreeMap<&str, String> = BTreeMap::new();
    for u in &plan.units {
        let want = match hashes.get(u.scenario.as_str()) {
            Some(h) => h.clone(),
            None => {
                let text = plan
                    .files
                    .get(&u.scenario)
                    .with_context(|| format!("{PLAN} lacks {}", u.scenario))?;
                let sc =
                    Scenario::parse(text).map_err(|m| anyhow::anyhow!("{}: {m}", u.scenario))?;
                let h = output::scenario_sha256(&sc);
                hashes.insert(&u.scenario, h.clone());
                h
            }
        };
        let mpath = dir.join(&u.dir).join(output::MANIFEST);
        let m: Option<Manifest> = std::fs::read_to_string(&mpath)
            .ok()
            .and_then(|t| serde_json::from_str(&t).ok());
        let ok = m.as_ref().is_some_and(|m| {
            m.finished && m.scenario_sha256 == want && m.runs.first() == Some(&u.run)
        });
        if !ok {
            bail!(
                "{} is not a finished run of {} with --pft {} (its {} says otherwise: a run of an earlier sweep, or an unfinished one); run its line of {JOBS} again",
                u.dir,
                u.scenario,
                u.run,
                output::MANIFEST
            );
        }
    }
    let brief = |d: &str| read_brief(&dir.join(d).join("summary.json"));
    let mut rows = Vec::new();
    for p in &plan.points {
        for &seed in &plan.seeds {
            let on = brief(&unit_dir_point(&p.id, seed))?;
            let off = brief(&unit_dir_base(p.group, seed, OFF))?;
            let iso = if plan.isolated {
                Some(brief(&unit_dir_base(p.group, seed, ISOLATED))?)
            } else {
                None
            };
            let f_c_bw = ratio(on.bw, off.bw);
            let f_c_lat = ratio(off.lat, on.lat);
            rows.push(Row {
                point: p.id.clone(),
                seed,
                values: p.values.clone(),
                f_c: f_c_bw.zip(f_c_lat).map(|(a, b)| a * b),
                f_c_bw,
                f_c_lat,
                cif_lat: iso.and_then(|i| ratio(on.lat, i.lat)),
                cif_bw: iso.and_then(|i| ratio(i.bw, on.bw)),
                cong_pct: 100.0 * on.cong,
                thr_pct: 100.0 * on.thr,
                lat_mean: on.lat,
                bw_mean: on.bw,
                lat_off: off.lat,
                bw_off: off.bw,
                finished: on.finished && off.finished,
                cycles_run: on.cycles,
            });
        }
    }
    write_csv(&dir.join(CSV), &plan, &rows)?;
    let mut plots = write_heatmaps(dir, &plan, &rows)?;
    plots.extend(write_distributions(dir, &plan)?);
    Ok(Collected { rows, plots })
}

/// The CSV header: point, seed, the axes, then the measures.
pub fn csv_header(plan: &Plan) -> Vec<String> {
    let mut h = vec!["point".to_string(), "seed".to_string()];
    h.extend(plan.axes.iter().cloned());
    h.extend(
        [
            "f_c",
            "f_c_bw",
            "f_c_lat",
            "cif_lat",
            "cif_bw",
            "cong_pct",
            "thr_pct",
            "lat_mean",
            "bw_mean",
            "lat_off",
            "bw_off",
            "finished",
            "cycles_run",
        ]
        .map(String::from),
    );
    h
}

fn num(v: Option<f64>) -> String {
    v.map_or(String::new(), |x| format!("{x}"))
}

fn write_csv(path: &Path, plan: &Plan, rows: &[Row]) -> anyhow::Result<()> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(csv_header(plan))?;
    for r in rows {
        let mut rec = vec![r.point.clone(), r.seed.to_string()];
        rec.extend(r.values.iter().map(|v| v.trim_matches('"').to_string()));
        rec.extend([
            num(r.f_c),
            num(r.f_c_bw),
            num(r.f_c_lat),
            num(r.cif_lat),
            num(r.cif_bw),
            format!("{}", r.cong_pct),
            format!("{}", r.thr_pct),
            num(r.lat_mean),
            num(r.bw_mean),
            num(r.lat_off),
            num(r.bw_off),
            r.finished.to_string(),
            r.cycles_run.to_string(),
        ]);
        w.write_record(rec)?;
    }
    let bytes = w.into_inner().map_err(|e| anyhow::anyhow!("csv: {e}"))?;
    output::write_atomic(path, &bytes)
}

/// One SVG per combination of the axes outside the heat map's two (`fc_heatmap.svg` when
/// there are none, else `fc_heatmap-N.svg`): mean F_C over the seeds in each cell.
fn write_heatmaps(dir: &Path, plan: &Plan, rows: &[Row]) -> anyhow::Result<Vec<String>> {
    let Some((xa, ya)) = plan.heatmap else {
        if plan.axes.len() != 1 {
            return Ok(Vec::new());
        }
        // one axis: F_C bars with the seeds' spread
        let bars: Vec<(String, Vec<f64>)> = plan
            .points
            .iter()
            .map(|p| {
                (
                    p.values[0].clone(),
                    rows.iter()
                        .filter(|r| r.point == p.id)
                        .filter_map(|r| r.f_c)
                        .collect(),
                )
            })
            .collect();
        let title = format!(
            "{}: F_C per {} ({} seed(s): bar = mean, line = range, dots = seeds)",
            plan.scenario,
            plan.axes[0],
            plan.seeds.len()
        );
        let svg = plot::fc_bars_svg(&title, &plan.axes[0], &bars)?;
        output::write_atomic(&dir.join(BARS), svg.as_bytes())?;
        return Ok(vec![BARS.to_string()]);
    };
    let distinct = |k: usize| {
        let mut v: Vec<String> = Vec::new();
        for p in &plan.points {
            if !v.contains(&p.values[k]) {
                v.push(p.values[k].clone());
            }
        }
        v
    };
    let (xs, ys) = (distinct(xa), distinct(ya));
    let rest: Vec<usize> = (0..plan.axes.len())
        .filter(|&k| k != xa && k != ya)
        .collect();
    let mut slices: Vec<Vec<String>> = Vec::new();
    for p in &plan.points {
        let key: Vec<String> = rest.iter().map(|&k| p.values[k].clone()).collect();
        if !slices.contains(&key) {
            slices.push(key);
        }
    }
    let mut written = Vec::new();
    for (si, key) in slices.iter().enumerate() {
        let mut cells = vec![vec![None; xs.len()]; ys.len()];
        for (yi, y) in ys.iter().enumerate() {
            for (xi, x) in xs.iter().enumerate() {
                let vals: Vec<f64> = rows
                    .iter()
                    .filter(|r| {
                        &r.values[xa] == x
                            && &r.values[ya] == y
                            && rest.iter().zip(key).all(|(&k, v)| &r.values[k] == v)
                    })
                    .filter_map(|r| r.f_c)
                    .collect();
                if !vals.is_empty() {
                    cells[yi][xi] = Some(vals.iter().sum::<f64>() / vals.len() as f64);
                }
            }
        }
        let fixed = rest
            .iter()
            .zip(key)
            .map(|(&k, v)| format!("{} = {v}", plan.axes[k]))
            .collect::<Vec<_>>()
            .join(", ");
        let title = format!(
            "{}: F_C of `{}` (mean of {} seed(s)){}",
            plan.scenario,
            plan.entry,
            plan.seeds.len(),
            if fixed.is_empty() {
                String::new()
            } else {
                format!(", {fixed}")
            }
        );
        let svg = plot::heatmap_svg(&title, &plan.axes[xa], &xs, &plan.axes[ya], &ys, &cells)?;
        let name = if slices.len() == 1 {
            "fc_heatmap.svg".to_string()
        } else {
            format!("fc_heatmap-{si}.svg")
        };
        output::write_atomic(&dir.join(&name), svg.as_bytes())?;
        written.push(name);
    }
    Ok(written)
}

/// The victims' per-process (or per-NIC) distributions of the first seed's runs, every point
/// and its `off` baseline overlaid (the PFT paper's Figs 3-4): `latency_distribution.svg`
/// and `bandwidth_distribution.svg`.
fn write_distributions(dir: &Path, plan: &Plan) -> anyhow::Result<Vec<String>> {
    let Some(&seed) = plan.seeds.first() else {
        return Ok(Vec::new());
    };
    let groups = plan
        .points
        .iter()
        .map(|p| p.group)
        .max()
        .map_or(0, |g| g + 1);
    let mut runs: Vec<(String, String)> = (0..groups)
        .map(|g| {
            let label = if groups == 1 {
                OFF.to_string()
            } else {
                format!("{OFF} (g{g:03})")
            };
            (label, unit_dir_base(g, seed, OFF))
        })
        .collect();
    runs.extend(plan.points.iter().map(|p| {
        (
            format!("{} {}", p.id, p.values.join(" ").replace('"', "")),
            unit_dir_point(&p.id, seed),
        )
    }));
    let mut written = Vec::new();
    for (file, pointer, what) in [
        (
            "latency_distribution.svg",
            "/victims/latency_per_process/sorted",
            "mean latency",
        ),
        (
            "bandwidth_distribution.svg",
            "/victims/bandwidth_per_process/sorted",
            "bandwidth",
        ),
    ] {
        let mut series = Vec::new();
        for (label, d) in &runs {
            let path = dir.join(d).join("summary.json");
            let text = std::fs::read_to_string(&path)
                .with_context(|| format!("cannot read {}", path.display()))?;
            let v: serde_json::Value = serde_json::from_str(&text)
                .with_context(|| format!("{} is not a run summary", path.display()))?;
            if let Some(a) = v.pointer(pointer).and_then(|x| x.as_array()) {
                series.push((
                    label.clone(),
                    a.iter().filter_map(|x| x.as_f64()).collect::<Vec<f64>>(),
                ));
            }
        }
        if series.is_empty() {
            continue;
        }
        let svg = plot::distribution_svg(
            &format!("{}: victim {what} per process, seed {seed}", plan.scenario),
            what,
            &series,
            super::run::HIST_BINS,
        )?;
        output::write_atomic(&dir.join(file), svg.as_bytes())?;
        written.push(file.to_string());
    }
    Ok(written)
}
