//! The sweep's plots: F_C heat maps (or bars for one axis) and the victims' distributions.
//! Their names follow from the plan alone, so that a sweep claims them (and checks that
//! nothing in the way is a link or a device) before it runs.

use super::super::{plot, run::HIST_BINS, sanitize, OFF};
use super::collect::Row;
use super::plan::{unit_dir_base, unit_dir_point, Plan};
use anyhow::Context;
use std::path::Path;

/// The F_C bar chart of a one-axis sweep.
pub const BARS: &str = "fc_bars.svg";
/// Lines in a distribution plot, at most (the baselines first, then the first points).
pub const MAX_SERIES: usize = 16;
/// The distribution plots (the PFT paper's Figs 3-4).
pub const DISTRIBUTIONS: [&str; 2] = ["latency_distribution.svg", "bandwidth_distribution.svg"];

/// Distinct values of axis `k`, in grid order.
fn distinct(plan: &Plan, k: usize) -> Vec<String> {
    let mut v: Vec<String> = Vec::new();
    for p in &plan.points {
        if !v.contains(&p.values[k]) {
            v.push(p.values[k].clone());
        }
    }
    v
}

/// The combinations of the axes outside the heat map's two (one map each).
fn slices(plan: &Plan, xa: usize, ya: usize) -> (Vec<usize>, Vec<Vec<String>>) {
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
    (rest, slices)
}

fn heatmap_name(n: usize, i: usize) -> String {
    if n == 1 {
        "fc_heatmap.svg".to_string()
    } else {
        format!("fc_heatmap-{i}.svg")
    }
}

/// Every plot file `write` may write (relative to the sweep directory).
pub fn names(plan: &Plan) -> Vec<String> {
    let mut v = match plan.heatmap {
        Some((xa, ya)) => {
            let n = slices(plan, xa, ya).1.len();
            (0..n).map(|i| heatmap_name(n, i)).collect()
        }
        None if plan.axes.len() == 1 => vec![BARS.to_string()],
        None => Vec::new(),
    };
    v.extend(DISTRIBUTIONS.iter().map(|s| s.to_string()));
    v.extend(super::placement::names(plan));
    v
}

/// Writes the plots of `rows` into `dir`; returns the names written.
pub fn write(dir: &Path, plan: &Plan, rows: &[Row]) -> anyhow::Result<Vec<String>> {
    let mut written = write_fc(dir, plan, rows)?;
    written.extend(write_distributions(dir, plan)?);
    written.extend(super::placement::write(dir, plan, rows)?);
    Ok(written)
}

fn put(dir: &Path, name: &str, svg: &str) -> anyhow::Result<()> {
    super::super::output::write_atomic(&dir.join(name), svg.as_bytes())
}

/// One SVG per combination of the axes outside the heat map's two: mean F_C over the seeds
/// in each cell; or, with one axis, F_C bars with the seeds' spread.
fn write_fc(dir: &Path, plan: &Plan, rows: &[Row]) -> anyhow::Result<Vec<String>> {
    let Some((xa, ya)) = plan.heatmap else {
        if plan.axes.len() != 1 {
            return Ok(Vec::new());
        }
        let bars: Vec<(String, Vec<f64>)> = plan
            .points
            .iter()
            .map(|p| {
                (
                    sanitize(&p.values[0]),
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
        put(dir, BARS, &plot::fc_bars_svg(&title, &plan.axes[0], &bars)?)?;
        return Ok(vec![BARS.to_string()]);
    };
    let (xs, ys) = (distinct(plan, xa), distinct(plan, ya));
    let (rest, slices) = slices(plan, xa, ya);
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
            .map(|(&k, v)| format!("{} = {}", plan.axes[k], sanitize(v)))
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
        let clean = |v: &[String]| v.iter().map(|s| sanitize(s)).collect::<Vec<_>>();
        let svg = plot::heatmap_svg(
            &title,
            &plan.axes[xa],
            &clean(&xs),
            &plan.axes[ya],
            &clean(&ys),
            &cells,
        )?;
        let name = heatmap_name(slices.len(), si);
        put(dir, &name, &svg)?;
        written.push(name);
    }
    Ok(written)
}

/// The victims' per-process (or per-NIC) distributions of the first seed's runs, every point
/// and its `off` baseline overlaid, with the units the runs report.
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
    // at most MAX_SERIES lines: beyond that colours repeat and the legend outgrows the plot
    // (the first baselines, leaving a line for a point at least)
    let base_shown = groups.min(MAX_SERIES - 1);
    let mut runs: Vec<(String, String)> = (0..base_shown)
        .map(|g| {
            let label = if groups == 1 {
                OFF.to_string()
            } else {
                format!("{OFF} (g{g:03})")
            };
            (label, unit_dir_base(g, seed, OFF))
        })
        .collect();
    let shown = plan
        .points
        .len()
        .min(MAX_SERIES.saturating_sub(runs.len()).max(1));
    let mut cut = if shown < plan.points.len() {
        format!(
            " (points p0000..{}, of {})",
            plan.points[shown - 1].id,
            plan.points.len()
        )
    } else {
        String::new()
    };
    if base_shown < groups {
        cut += &format!(" (baselines g000..g{:03}, of {groups})", base_shown - 1);
    }
    runs.extend(plan.points.iter().take(shown).map(|p| {
        (
            sanitize(&format!("{} {}", p.id, p.values.join(" ").replace('"', ""))),
            unit_dir_point(&p.id, seed),
        )
    }));
    let mut written = Vec::new();
    for (file, pointer, what, unit_ptr) in [
        (
            DISTRIBUTIONS[0],
            "/victims/latency_per_process/sorted",
            "mean latency",
            "/victims/latency_units",
        ),
        (
            DISTRIBUTIONS[1],
            "/victims/bandwidth_per_process/sorted",
            "bandwidth",
            "/victims/bandwidth_units",
        ),
    ] {
        let mut series = Vec::new();
        let mut units = None;
        let mut who = "victim NIC";
        for (label, d) in &runs {
            let path = dir.join(d).join("summary.json");
            let text = std::fs::read_to_string(&path)
                .with_context(|| format!("cannot read {}", path.display()))?;
            let v: serde_json::Value = serde_json::from_str(&text)
                .with_context(|| format!("{} is not a run summary", path.display()))?;
            let src = v.pointer("/victims/source").and_then(|s| s.as_str());
            if src.is_some_and(|s| s.starts_with("GPCNeT")) {
                who = "process";
            }
            units = units.or_else(|| {
                v.pointer(unit_ptr)
                    .and_then(|s| s.as_str())
                    .map(String::from)
            });
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
        let desc = format!("{what} ({})", units.unwrap_or_else(|| "?".to_string()));
        let svg = plot::distribution_of_svg(
            &format!(
                "{}: victim {what} per {who}, seed {seed}{cut}",
                plan.scenario
            ),
            &desc,
            if who == "process" {
                "processes"
            } else {
                "victim NICs"
            },
            &series,
            HIST_BINS,
        )?;
        put(dir, file, &svg)?;
        written.push(file.to_string());
    }
    Ok(written)
}
