//! `--collect`: every run of the plan checked (present, finished, of its own point
//! scenario), then one row per point and seed for `sweep.csv`.

use super::super::{output, sanitize, Scenario, ISOLATED, OFF};
use super::cluster::{self, shell_quote};
use super::plan::{unit_dir_base, unit_dir_point, Plan};
use anyhow::Context;
use std::collections::BTreeMap;
use std::path::Path;

/// A run that `--collect` cannot use.
#[derive(Clone, Debug, PartialEq)]
pub struct Missing {
    /// Its index: the line of `jobs.txt` (from 0) and the task of `submit.sh --tasks`.
    pub task: usize,
    /// Its directory (`runs/...`).
    pub dir: String,
    /// Why.
    pub why: String,
}

/// Every run of `plan` in `dir` that is not a finished run of its own point scenario.
pub fn missing(plan: &Plan, dir: &Path) -> anyhow::Result<Vec<Missing>> {
    let mut hashes: BTreeMap<&str, String> = BTreeMap::new();
    let mut out = Vec::new();
    for (task, u) in plan.units.iter().enumerate() {
        let want = match hashes.get(u.scenario.as_str()) {
            Some(h) => h.clone(),
            None => {
                let text = plan
                    .files
                    .get(&u.scenario)
                    .with_context(|| format!("{} lacks {}", super::PLAN, u.scenario))?;
                let sc =
                    Scenario::parse(text).map_err(|m| anyhow::anyhow!("{}: {m}", u.scenario))?;
                let h = output::scenario_sha256(&sc);
                hashes.insert(&u.scenario, h.clone());
                h
            }
        };
        let d = dir.join(&u.dir);
        let m = output::read_manifest(&d);
        let why = match &m {
            _ if !d.join("summary.json").is_file() && m.is_none() => Some("not run".to_string()),
            None => Some(format!("no {} (not a run of this sweep)", output::MANIFEST)),
            Some(m) if m.scenario_sha256 != want || m.runs.first() != Some(&u.run) => Some(format!(
                "a run of another scenario or entry (an earlier sweep's?); run its line of {} again",
                cluster::JOBS
            )),
            Some(m) if !m.finished => Some(match &m.error {
                Some(e) => format!("{}: {}", m.status.name(), sanitize(e)),
                None => format!("{}, not finished", m.status.name()),
            }),
            Some(_) if !d.join("summary.json").is_file() => Some("no summary.json".to_string()),
            // a summary a row cannot read (truncated, edited), or not the one the run
            // wrote (copied from another run): `--resume` runs it again
            Some(m) => read_brief(&d.join("summary.json"))
                .err()
                .map(|e| sanitize(&format!("{e:#}")))
                .or_else(|| m.changed_since(&d, "summary.json")),
        };
        if let Some(why) = why {
            out.push(Missing {
                task,
                dir: u.dir.clone(),
                why,
            });
        }
    }
    Ok(out)
}

/// Refuses a command into the run directory `rel` of the sweep in `sweep_dir` unless it is
/// that directory's line of `jobs.txt` (`new`, its manifest: a `run` of the line's point
/// scenario and entry), the rule `--collect` applies afterwards (`missing`), so that a
/// finished sweep's runs and its `sweep.csv` cannot be silently replaced by another run.
pub(crate) fn check_unit_dir(
    dir: &Path,
    sweep_dir: &Path,
    shown_sweep: &str,
    rel: &Path,
    new: &output::Manifest,
) -> anyhow::Result<()> {
    let shown_dir = sanitize(&dir.display().to_string());
    // a plain file of a plan's size only (a FIFO or a device is never opened, as for
    // `read_plan` and the manifests)
    let at = sweep_dir.join(super::PLAN);
    let plain = std::fs::symlink_metadata(&at).is_ok_and(|m| m.is_file() && m.len() <= 1 << 30);
    let plan: Option<Plan> = plain
        .then(|| std::fs::read_to_string(&at).ok())
        .flatten()
        .and_then(|t| serde_json::from_str(&t).ok());
    let Some(plan) = plan else {
        anyhow::bail!(
            "{shown_dir} is inside the sweep in {shown_sweep}, which has no readable {} (a plain file); give another --out",
            super::PLAN
        );
    };
    let Some((task, u)) = plan
        .units
        .iter()
        .enumerate()
        .find(|(_, u)| Path::new(&u.dir) == rel)
    else {
        anyhow::bail!(
            "{shown_dir} is inside the sweep in {shown_sweep} but is not one of its run directories; give another --out"
        );
    };
    let want = plan
        .files
        .get(&u.scenario)
        .and_then(|text| Scenario::parse(text).ok())
        .map(|sc| output::scenario_sha256(&sc));
    let ok = new.command == "run"
        && new.runs.first() == Some(&u.run)
        && want.as_deref() == Some(new.scenario_sha256.as_str());
    anyhow::ensure!(
        ok,
        "{shown_dir} is run {task} of the sweep in {shown_sweep} (line {} of its {}: `pftsim run {} --pft {}`): only that line writes there; run it, or give another --out",
        task + 1,
        cluster::JOBS,
        shell_quote(&u.scenario),
        shell_quote(&u.run)
    );
    Ok(())
}

/// The refusal of `--collect` when runs are missing: every one, with its task, and the
/// commands that run only those.
pub fn missing_message(plan: &Plan, dir: &Path, miss: &[Missing]) -> String {
    let mut s = format!(
        "{} of {} runs are missing or did not finish (task = line of {} from 0):\n",
        miss.len(),
        plan.units.len(),
        cluster::JOBS
    );
    for m in miss {
        s += &format!("  {} (task {}): {}\n", m.dir, m.task, m.why);
    }
    let shown = dir.display().to_string();
    let d = if shown.chars().any(char::is_control) {
        // not a command to paste: say so instead of printing one that would not run
        format!("<{}>", sanitize(&shown))
    } else {
        shell_quote(&shown)
    };
    let tasks: Vec<usize> = miss.iter().map(|m| m.task).collect();
    s += &format!("run only these:\n  here:           pftsim sweep --resume --out {d}");
    if dir.join(cluster::PARALLEL).is_file() {
        s += &format!(
            "\n  GNU parallel:   bash {d}/{} (finished runs are skipped)",
            cluster::PARALLEL
        );
    }
    if dir.join(cluster::SUBMIT).is_file() {
        s += &format!(
            "\n  Slurm:          bash {d}/{} --tasks {} (Slurm's own array indices and logs/slurm-*.out count within each array of --array-max tasks)",
            cluster::SUBMIT,
            tasks.iter().map(usize::to_string).collect::<Vec<_>>().join(",")
        );
    }
    s
}

/// The numbers of one run's `summary.json` a sweep row needs.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Brief {
    lat: Option<f64>,
    bw: Option<f64>,
    cong: f64,
    thr: f64,
    finished: bool,
    cycles: u64,
    /// A GPCNeT run (its `gpcnet` block): only such runs have a CIF, as in `compare`.
    gpcnet: bool,
}

pub(crate) fn read_brief(path: &Path) -> anyhow::Result<Brief> {
    let shown = path.display();
    // a run's own file: never read through a link, nor a directory, a device or a FIFO
    anyhow::ensure!(
        std::fs::symlink_metadata(path).is_ok_and(|m| m.is_file() && m.len() <= 1 << 30),
        "{shown} is not a plain file (a link, a directory or a device?): a sweep reads only its runs' own summaries"
    );
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {shown}"))?;
    let v: serde_json::Value =
        serde_json::from_str(&text).with_context(|| format!("{shown} is not a run summary"))?;
    let not = |what: &str| anyhow::anyhow!("{shown} is not a run summary: {what}");
    // the fields a row reads, each of its type (null: a measure the run does not have)
    let num = |p: &str| match v.pointer(p) {
        None | Some(serde_json::Value::Null) => Ok(None),
        Some(x) => x
            .as_f64()
            .map(Some)
            .ok_or_else(|| not(&format!("`{}` is not a number", &p[1..].replace('/', ".")))),
    };
    for t in ["/victims", "/pft_stats"] {
        if !v.pointer(t).is_some_and(|x| x.is_object()) {
            return Err(not(&format!("no `{}` object", &t[1..])));
        }
    }
    Ok(Brief {
        lat: num("/victims/latency_mean")?,
        bw: num("/victims/bandwidth_mean")?,
        cong: num("/pft_stats/frac_congested")?.unwrap_or(0.0),
        thr: num("/pft_stats/frac_throttled")?.unwrap_or(0.0),
        finished: v
            .pointer("/finished")
            .and_then(|x| x.as_bool())
            .ok_or_else(|| not("`finished` is not true or false"))?,
        cycles: v
            .pointer("/cycles_run")
            .and_then(|x| x.as_u64())
            .ok_or_else(|| not("`cycles_run` is not a count of cycles"))?,
        gpcnet: v.pointer("/gpcnet").is_some_and(|x| !x.is_null()),
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

fn ratio(a: Option<f64>, b: Option<f64>) -> Option<f64> {
    match (a, b) {
        (Some(a), Some(b)) if b != 0.0 && (a / b).is_finite() => Some(a / b),
        _ => None,
    }
}

/// The rows of `plan` from the runs in `dir` (all present: `missing` is empty).
pub fn rows(plan: &Plan, dir: &Path) -> anyhow::Result<Vec<Row>> {
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
                // compare's own formula, (B_C D_0) / (B_0 D_C), to the last bit (the product
                // of the two parts can round otherwise)
                f_c: match (on.bw, on.lat, off.bw, off.lat) {
                    (Some(b_c), Some(d_c), Some(b_0), Some(d_0)) => {
                        crate::metrics::gpcnet::control_factor(b_c, d_c, b_0, d_0)
                    }
                    _ => None,
                },
                f_c_bw,
                f_c_lat,
                // GPCNeT's CIF, of GPCNeT runs only (a hot-spot's isolated run has none)
                cif_lat: iso
                    .filter(|i| i.gpcnet && on.gpcnet)
                    .and_then(|i| ratio(on.lat, i.lat)),
                cif_bw: iso
                    .filter(|i| i.gpcnet && on.gpcnet)
                    .and_then(|i| ratio(i.bw, on.bw)),
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
    Ok(rows)
}

/// The runs whose workload did not finish before `cycles.max` (their summary says so).
pub fn unfinished(plan: &Plan, dir: &Path) -> Vec<String> {
    plan.units
        .iter()
        .filter(|u| read_brief(&dir.join(&u.dir).join("summary.json")).is_ok_and(|b| !b.finished))
        .map(|u| u.dir.clone())
        .collect()
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

/// `sweep.csv` as text.
/// An axis value as the CSV shows it: a TOML string as its text (quotes and escapes taken
/// off: `"a\"b"` is `a"b`), any other value as TOML writes it.
fn plain_text(v: &str) -> String {
    if v.starts_with(['"', '\'']) {
        if let Ok(t) = toml::from_str::<toml::Table>(&format!("v = {v}")) {
            if let Some(toml::Value::String(s)) = t.get("v") {
                return s.clone();
            }
        }
    }
    v.to_string()
}

pub fn csv_text(plan: &Plan, rows: &[Row]) -> anyhow::Result<String> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(csv_header(plan))?;
    for r in rows {
        let mut rec = vec![r.point.clone(), r.seed.to_string()];
        rec.extend(r.values.iter().map(|v| plain_text(v)));
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
    String::from_utf8(bytes).context("the CSV is UTF-8")
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_string_value_is_its_text_in_the_csv() {
        assert_eq!(super::plain_text(r#""paper""#), "paper");
        assert_eq!(super::plain_text(r#""a\"b""#), "a\"b");
        assert_eq!(super::plain_text(r#"'c:\x'"#), "c:\\x");
        assert_eq!(super::plain_text("0.5"), "0.5");
        assert_eq!(super::plain_text("[1, 2]"), "[1, 2]");
    }

    /// sweep.csv's victim means are the runs' own numbers to the last digit: serde_json
    /// parses f64s exactly only with `float_roundtrip` (without it these two read 1-2 ulp
    /// off, and sweep.csv differed from summary.json and compare.csv).
    #[test]
    fn a_summary_is_read_to_the_last_digit() {
        let dir = std::env::temp_dir().join(format!("pftsim-brief-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("summary.json");
        let (lat, bw) = ("352.0000000000001", "9.129197374423223");
        std::fs::write(
            &f,
            format!(
                r#"{{"victims": {{"latency_mean": {lat}, "bandwidth_mean": {bw}}},
                   "pft_stats": {{"frac_congested": 9.886862069560543, "frac_throttled": 0}},
                   "finished": true, "cycles_run": 1000}}"#
            ),
        )
        .unwrap();
        let b = super::read_brief(&f).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(
            b.lat.unwrap().to_bits(),
            lat.parse::<f64>().unwrap().to_bits()
        );
        assert_eq!(
            b.bw.unwrap().to_bits(),
            bw.parse::<f64>().unwrap().to_bits()
        );
        assert_eq!(b.cong.to_bits(), 9.886862069560543f64.to_bits());
    }
}
