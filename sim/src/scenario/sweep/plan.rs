//! The plan of a sweep (`sweep.json`): its points, the point scenario files and the runs.
//! Every point scenario is checked here as `pftsim check` checks a file
//! (`Scenario::check_text`), so that a bad value fails before anything is written; every
//! invalid point is reported at once, each naming the point, its axis values and all its
//! problems.

use super::super::{sanitize, Refused, Scenario, ISOLATED, OFF};
use super::grid::{self, Grid};
use crate::cc::pft::EngineKind;
use crate::scenario::overrides::set_path;
use anyhow::{bail, Context};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// Largest number of runs a sweep may plan.
pub const MAX_RUNS: usize = 100_000;
/// Most invalid point scenarios a refused sweep lists (it counts the others).
pub const MAX_INVALID_SHOWN: usize = 20;

/// One run of the plan. Its index in `Plan::units` is its line of `jobs.txt` (from 0) and
/// its Slurm array task (before chunking by `--array-max`).
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
    /// The axis values, as written in the grid (TOML syntax), or their labels.
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
    /// SHA-256 of the plan's own content (`Plan::content_digest`), set when the plan is
    /// written: `--resume` refuses a plan that does not match it or has none (edited,
    /// damaged, or from an older pftsim).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub digest: Option<String>,
}

impl Plan {
    /// True when `other` runs the same files and runs (a resumable sweep).
    pub fn same_runs(&self, other: &Plan) -> bool {
        self.files == other.files && self.units == other.units
    }

    /// SHA-256 (hex) of the plan without its `digest`: of its JSON with the keys sorted
    /// (serde_json's `Value`), so any tool that reads `sweep.json` can compute it.
    pub fn content_digest(&self) -> anyhow::Result<String> {
        use sha2::Digest;
        let mut v = serde_json::to_value(self).context("serialising the plan")?;
        if let Some(o) = v.as_object_mut() {
            o.remove("digest");
        }
        let text = serde_json::to_string(&v).context("serialising the plan")?;
        Ok(crate::scenario::output::hex(&sha2::Sha256::digest(
            text.as_bytes(),
        )))
    }

    /// `sweep.json`: the plan as pretty JSON with its digest.
    pub fn to_file_text(&self) -> anyhow::Result<String> {
        let mut sealed = self.clone();
        sealed.digest = Some(self.content_digest()?);
        let mut s = serde_json::to_string_pretty(&sealed).context("serialising the plan")?;
        s.push('\n');
        Ok(s)
    }

    /// The engines the point scenarios run (`engine` of each point file; several with an
    /// `engine` axis), sorted and without repeats.
    pub fn engines(&self) -> anyhow::Result<Vec<EngineKind>> {
        let mut v = Vec::new();
        for (f, text) in &self.files {
            let sc = Scenario::parse(text).map_err(|m| anyhow::anyhow!("{f}: {m}"))?;
            if !v.contains(&sc.engine) {
                v.push(sc.engine);
            }
        }
        v.sort_by_key(|e| engine_name(*e));
        Ok(v)
    }
}

impl Plan {
    /// Every way the plan differs from one `plan` could have written: at least one point
    /// and one seed, each point `pNNNN` in grid order with one value per axis, heat-map
    /// axes among the axes, and exactly the runs its points, seeds and baseline groups
    /// make, each with its own point file. A plan edited and sealed again passes its
    /// digest; this refuses what no grid gives (`points = []` used to collect an empty
    /// `sweep.csv` over the sweep's results). Empty when the plan is whole.
    pub fn shape_errors(&self) -> Vec<String> {
        let mut errs = Vec::new();
        if self.points.is_empty() {
            errs.push("points = []: a sweep has one point or more (a grid gives at least one combination of axis values)".to_string());
        }
        if self.seeds.is_empty() {
            errs.push("seeds = []: a sweep has one seed or more".to_string());
        }
        let distinct: std::collections::BTreeSet<u64> = self.seeds.iter().copied().collect();
        if distinct.len() != self.seeds.len() {
            errs.push("seeds: a seed is listed twice".to_string());
        }
        if !matches!(self.entry_kind.as_str(), "pft" | "cc") {
            errs.push(format!(
                "entry_kind = {:?}: must be \"pft\" or \"cc\"",
                sanitize(&self.entry_kind)
            ));
        }
        let n = self.axes.len();
        if let Some((x, y)) = self.heatmap {
            if x >= n || y >= n || x == y {
                errs.push(format!(
                    "heatmap = [{x}, {y}]: must be two different axes in 0..{n}"
                ));
            }
        }
        // the runs the points make: (directory, point file or the group's point files, run)
        let mut want: BTreeMap<String, (Vec<String>, Option<&str>)> = BTreeMap::new();
        for (i, p) in self.points.iter().enumerate() {
            let id = format!("p{i:04}");
            if p.id != id {
                errs.push(format!(
                    "points[{i}].id = {:?}: must be {id:?} (points are numbered in grid order)",
                    sanitize(&p.id)
                ));
            }
            if p.values.len() != n {
                errs.push(format!(
                    "points[{i}].values: {} values for {n} axes",
                    p.values.len()
                ));
            }
            for &seed in &self.seeds {
                let f = point_file(&p.id, seed);
                want.insert(unit_dir_point(&p.id, seed), (vec![f.clone()], None));
                let mut base = vec![OFF];
                if self.isolated {
                    base.push(ISOLATED);
                }
                for r in base {
                    want.entry(unit_dir_base(p.group, seed, r))
                        .or_insert_with(|| (Vec::new(), Some(r)))
                        .0
                        .push(f.clone());
                }
            }
        }
        for (i, u) in self.units.iter().enumerate() {
            let at = format!("units[{i}]");
            let Some((files, run)) = want.remove(&u.dir) else {
                errs.push(format!(
                    "{at}.dir = {:?}: not a run of the plan's points and seeds",
                    sanitize(&u.dir)
                ));
                continue;
            };
            if !files.contains(&u.scenario) {
                errs.push(format!(
                    "{at}.scenario = {:?}: must be {}",
                    sanitize(&u.scenario),
                    files.join(" or ")
                ));
            }
            match run {
                Some(r) if u.run != r => errs.push(format!(
                    "{at}.run = {:?}: must be {r:?} (a baseline run)",
                    sanitize(&u.run)
                )),
                None if u.run == OFF || u.run == ISOLATED => errs.push(format!(
                    "{at}.run = {:?}: must be the point's entry",
                    sanitize(&u.run)
                )),
                _ => {}
            }
        }
        if let Some(d) = want.keys().next() {
            errs.push(format!(
                "units: no run {d:?} ({} of the points' runs missing)",
                want.len()
            ));
        }
        for f in self.files.keys() {
            if !self.units.iter().any(|u| u.scenario == *f) {
                errs.push(format!("files[{:?}]: no run reads it", sanitize(f)));
            }
        }
        errs
    }
}

/// The name of an engine as a scenario and `--engine` spell it.
pub fn engine_name(e: EngineKind) -> String {
    serde_json::to_value(e)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_else(|| format!("{e:?}").to_lowercase())
}

pub fn unit_dir_point(p: &str, seed: u64) -> String {
    format!("runs/{p}-s{seed}")
}

pub fn unit_dir_base(group: usize, seed: u64, run: &str) -> String {
    format!("runs/g{group:03}-s{seed}-{run}")
}

fn point_file(p: &str, seed: u64) -> String {
    format!("points/{p}-s{seed}.toml")
}

/// Names of the `[[kind]]` entries of `base`.
fn names(base: &toml::Table, kind: &str) -> Vec<String> {
    base.get(kind)
        .and_then(|v| v.as_array())
        .map(|a| {
            a.iter()
                .filter_map(|e| e.get("name").and_then(|n| n.as_str()).map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

/// The entry of every point (one name when there is no entry axis), and their kind; or
/// every problem with them.
fn entries(base: &toml::Table, grid: &Grid) -> Result<(Vec<String>, &'static str), Vec<String>> {
    let (pft_names, cc_names) = (names(base, "pft"), names(base, "cc"));
    let all_names = || {
        pft_names
            .iter()
            .chain(&cc_names)
            .map(|n| format!("{n:?}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut errs = Vec::new();
    let entry_axis = grid.axis.iter().position(grid::Axis::is_entry);
    let entries: Vec<String> = match entry_axis {
        Some(k) => {
            if grid.entry.is_some() {
                errs.push("grid: give `entry` or an axis with key = \"entry\", not both".into());
            }
            let mut v = Vec::new();
            for (j, x) in grid.axis[k].values.iter().enumerate() {
                match x.as_str() {
                    Some(s) => v.push(s.to_string()),
                    None => errs.push(format!(
                        "grid: `axis[{k}]`.values[{j}] = {}: must be the name of a [[pft]] or [[cc]] entry ({})",
                        sanitize(&x.to_string()),
                        all_names()
                    )),
                }
            }
            v
        }
        None => match grid
            .entry
            .as_ref()
            .or(pft_names.first())
            .or(cc_names.first())
        {
            Some(e) => vec![e.clone()],
            None => {
                errs.push("grid: the scenario has no [[pft]] or [[cc]] entry to sweep".into());
                Vec::new()
            }
        },
    };
    let mut kind = "";
    let mut mixed = false;
    for e in &entries {
        let k = if pft_names.contains(e) {
            "pft"
        } else if cc_names.contains(e) {
            "cc"
        } else {
            errs.push(format!(
                "grid: entry \"{}\": must name a [[pft]] or [[cc]] entry of the scenario ({})",
                sanitize(e),
                all_names()
            ));
            continue;
        };
        mixed |= !kind.is_empty() && k != kind;
        kind = k;
    }
    if mixed {
        errs.push("grid: the swept entries must all be [[pft]] or all [[cc]] entries".into());
    }
    if errs.is_empty() {
        Ok((entries, kind))
    } else {
        Err(errs)
    }
}

/// The plan of sweeping `sc_text` (the scenario file's text, at `sc_path`) over `grid`.
/// `engine`: the scenario's `engine` replaced (`pftsim sweep --engine`).
pub fn plan(
    sc_path: &Path,
    sc_text: &str,
    grid: &Grid,
    engine: Option<EngineKind>,
) -> anyhow::Result<Plan> {
    // The scenario's own directory: its relative input paths are taken from there, and the
    // point scenarios (written under `points/`) get them absolute.
    let dir = sc_path.parent().unwrap_or(Path::new(""));
    let sc = Scenario::parse_in(sc_text, Some(dir))
        .map_err(|m| anyhow::anyhow!("scenario {}: {m}", sc_path.display()))?;
    let base: toml::Table = toml::from_str(sc_text)
        .with_context(|| format!("scenario {} is not TOML", sc_path.display()))?;
    let (entries, kind, mut errs) = match entries(&base, grid) {
        Ok((e, k)) => (e, k, Vec::new()),
        Err(errs) => (Vec::new(), "", errs),
    };
    let entry_label = entries.join(",");
    errs.extend(grid::check_axes(grid, kind));
    let seeds = grid::seeds(grid, sc.seed).unwrap_or_else(|e| {
        errs.extend(e);
        Vec::new()
    });
    let n_points: usize = grid
        .axis
        .iter()
        .fold(1usize, |n, a| n.saturating_mul(a.values.len()));
    // at most a point run, an `off` and an `isolated` run per point and seed (told with
    // the grid's other errors: one pass shows them all)
    if n_points.saturating_mul(seeds.len()).saturating_mul(3) > MAX_RUNS {
        errs.push(format!(
            "grid: {n_points} points x {} seeds is too many: at most {MAX_RUNS} runs (3 per point and seed)",
            seeds.len()
        ));
    }
    if !errs.is_empty() {
        bail!("{}", errs.join("\n"));
    }
    let axes: Vec<String> = grid.axis.iter().map(grid::Axis::name).collect();
    let heatmap = grid::heatmap(grid);
    let isolated = super::super::wants_isolated(&sc);
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
            toml::Value::String(super::super::config::name_from_stem(&stem)),
        );
    }
    let entry_axis = grid.axis.iter().position(grid::Axis::is_entry);

    let mut points = Vec::new();
    let mut files = BTreeMap::new();
    let mut units = Vec::new();
    let mut groups: Vec<Vec<String>> = Vec::new();
    let mut group_file: Vec<BTreeMap<u64, String>> = Vec::new();
    // every invalid point scenario, with all its problems
    let mut invalid: Vec<String> = Vec::new();
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
        // the baseline group: the values of the keys outside the entry
        let gkey: Vec<String> = grid
            .axis
            .iter()
            .zip(&idx)
            .filter(|(a, _)| !a.is_entry())
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
        let what = |seed: u64| {
            format!(
                "grid point {id} ({}), seed {seed}",
                axes.iter()
                    .zip(&values)
                    .map(|(k, v)| format!("{k} = {}", sanitize(v)))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        };
        for &seed in &seeds {
            let mut pt = t.clone();
            pt.insert("seed".into(), toml::Value::Integer(seed as i64));
            pt.insert(
                kind.to_string(),
                toml::Value::Array(vec![entry_table(&entry)]),
            );
            for (a, &j) in grid.axis.iter().zip(&idx) {
                if a.is_entry() {
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
            absolute_inputs(&mut pt, dir);
            let text = toml::to_string(&pt).context("writing a point scenario")?;
            let psc = match Scenario::check_text(&text) {
                Ok(psc) => psc,
                Err(Refused::Parse(m)) => {
                    invalid.push(format!("{}: {m}", what(seed)));
                    continue;
                }
                Err(Refused::Invalid(e)) => {
                    invalid.push(format!("{}: invalid value(s):\n{e}", what(seed)));
                    continue;
                }
            };
            if psc.config_named(&entry).is_none() {
                invalid.push(format!(
                    "{}: the point has no [[{kind}]] entry named {entry:?} (an axis replaced it)",
                    what(seed)
                ));
                continue;
            }
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
    if !invalid.is_empty() {
        let n = invalid.len();
        let mut msg = invalid[..n.min(MAX_INVALID_SHOWN)].join("\n");
        if n > MAX_INVALID_SHOWN {
            msg += &format!("\n... and {} more", n - MAX_INVALID_SHOWN);
        }
        msg += &format!(
            "\n{n} of {} point scenarios (points x seeds) are invalid",
            n_points * seeds.len()
        );
        bail!("{msg}");
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
        digest: None,
    })
}

/// Reads the scenario and the grid and plans the sweep.
pub fn load_plan(
    sc_path: &Path,
    grid_path: &Path,
    engine: Option<EngineKind>,
) -> anyhow::Result<Plan> {
    // Validates the scenario file as `check` does (the error names it).
    Scenario::load(sc_path)?;
    let sc_text = crate::input::read_config(sc_path)
        .with_context(|| format!("cannot read scenario {}", sc_path.display()))?;
    let gtext = crate::input::read_config(grid_path)
        .with_context(|| format!("cannot read grid {}", grid_path.display()))?;
    let grid: Grid = toml::from_str(&gtext).map_err(|e| {
        if let Some(m) = e
            .span()
            .and_then(|s| grid::seed_syntax_error(&gtext, s.start))
        {
            return anyhow::anyhow!("{m}");
        }
        anyhow::anyhow!(
            "grid {} is not a valid grid file:\n{}",
            grid_path.display(),
            super::super::toml_error::syntax_message(&gtext, &e)
        )
    })?;
    plan(sc_path, &sc_text, &grid, engine)
}

/// Makes the input files a scenario's TOML names absolute, relative paths taken from `dir`
/// (the scenario file's directory): `network.topology.path` of a `file` topology and
/// `workload.path` of a `trace`. A sweep writes its point scenarios elsewhere
/// (`points/`), and they must still find the scenario's files.
fn absolute_inputs(t: &mut toml::Table, dir: &Path) {
    fn fix(tab: Option<&mut toml::Value>, kind: &str, dir: &Path) {
        let Some(tab) = tab.and_then(toml::Value::as_table_mut) else {
            return;
        };
        if tab.get("kind").and_then(toml::Value::as_str) != Some(kind) {
            return;
        }
        if let Some(toml::Value::String(p)) = tab.get_mut("path") {
            if Path::new(p.as_str()).is_relative() {
                if let Ok(abs) = std::path::absolute(dir.join(p.as_str())) {
                    *p = abs.display().to_string();
                }
            }
        }
    }
    let topo = t
        .get_mut("network")
        .and_then(toml::Value::as_table_mut)
        .and_then(|n| n.get_mut("topology"));
    fix(topo, "file", dir);
    fix(t.get_mut("workload"), "trace", dir);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A one-axis plan of a small scenario.
    fn small() -> Plan {
        let sc = "name = \"t\"\nseed = 1\n[cycles]\nmax = 100\n[network]\ntopology = { kind = \"single_switch\", nodes = 4 }\n[workload]\nkind = \"uniform\"\nload = 0.5\nmsg_bytes = 1024\n[[pft]]\nname = \"p\"\n";
        let grid: Grid = toml::from_str("[[axis]]\nkey = \"pft.m\"\nvalues = [18, 22]\n").unwrap();
        plan(Path::new("t.toml"), sc, &grid, None).unwrap()
    }

    /// A plan `plan` writes has the shape `read_plan` asks for; one edited out of it not.
    #[test]
    fn a_plan_has_the_shape_of_a_grid() {
        let p = small();
        assert_eq!(p.shape_errors(), Vec::<String>::new());
        let mut e = p.clone();
        e.points.clear();
        assert!(
            e.shape_errors()[0].starts_with("points = []"),
            "{:?}",
            e.shape_errors()
        );
        let mut e = p.clone();
        e.heatmap = Some((5, 6));
        assert_eq!(e.shape_errors().len(), 1);
        let mut e = p;
        e.units.pop();
        assert_eq!(e.shape_errors().len(), 1, "{:?}", e.shape_errors());
    }

    #[test]
    fn the_digest_seals_the_plan() {
        let p = small();
        let text = p.to_file_text().unwrap();
        let back: Plan = serde_json::from_str(&text).unwrap();
        let d = back.digest.clone().expect("a digest");
        assert_eq!(d, back.content_digest().unwrap(), "round trip");
        assert_eq!(
            d,
            p.content_digest().unwrap(),
            "independent of the digest field"
        );
        // any change of content changes it
        let mut edited = back.clone();
        edited.units[0].run = "off".into();
        assert_ne!(edited.content_digest().unwrap(), d);
        let mut edited = back;
        edited.files.insert("../x".into(), String::new());
        assert_ne!(edited.content_digest().unwrap(), d);
        assert_eq!(p.engines().unwrap(), vec![EngineKind::Model]);
        assert_eq!(engine_name(EngineKind::Rtl), "rtl");
    }
}
