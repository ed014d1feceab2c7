//! The study's reader (issue 45; `tb/study/run.sh`, `make study`): the rows of every fabric's
//! sweep directory, with the victim's slowdown against its isolated run, the aggressor's
//! delivered rate and how evenly its senders shared the congested link. The example
//! `study` (tb/examples/study.rs) writes them as `study.csv`, the figures and the tables
//! of docs/results.md ("The study").

use anyhow::{bail, Context};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

/// The study's fabrics, in the order of its tables (each `OUT_DIR/<fabric>/` holding a sweep).
pub const FABRICS: [&str; 4] = ["fat_tree", "torus", "butterfly", "dragonfly"];

/// One run of the study.
pub struct Row {
    pub fabric: String,
    pub motif: String,
    pub scheme: String,
    pub seed: u64,
    pub iter_mean: f64,
    pub iter_alone: f64,
    pub agg_rate: f64,
    pub agg_jain: f64,
    pub victim_jain: f64,
    pub thr_pct: f64,
    pub finished: bool,
    pub cycles_run: u64,
}

fn read_json(p: &Path) -> anyhow::Result<Value> {
    let t = std::fs::read_to_string(p).with_context(|| format!("reading {}", p.display()))?;
    serde_json::from_str(&t).with_context(|| format!("parsing {}", p.display()))
}

fn jain(x: &[f64]) -> f64 {
    pft_sim::metrics::jain_index(x).unwrap_or(f64::NAN)
}

/// What one run's `summary.json` and `nodes.csv` say.
struct RunReading {
    iter_mean: f64,
    agg_rate: f64,
    agg_jain: f64,
    victim_jain: f64,
    thr_pct: f64,
    finished: bool,
    cycles_run: u64,
    seed: u64,
}

fn reading(dir: &Path) -> anyhow::Result<RunReading> {
    let s = read_json(&dir.join("summary.json"))?;
    let iter_mean = s["motif"]["iteration_cycles"]["mean"]
        .as_f64()
        .unwrap_or(f64::NAN);
    let mut nodes = csv::Reader::from_path(dir.join("nodes.csv"))
        .with_context(|| format!("reading {}/nodes.csv", dir.display()))?;
    let h = nodes.headers()?.clone();
    let col = |name: &str| {
        h.iter()
            .position(|c| c == name)
            .with_context(|| format!("{}/nodes.csv: no column {name}", dir.display()))
    };
    let (class, inj, ej, acc, thr) = (
        col("class")?,
        col("flits_injected")?,
        col("flits_ejected")?,
        col("accepted_per_cycle")?,
        col("frac_throttled")?,
    );
    // aggressor NICs: (flits injected, flits ejected, accepted per cycle)
    let mut agg: Vec<(f64, f64, f64)> = Vec::new();
    let mut victim_acc = Vec::new();
    let (mut thr_sum, mut n) = (0.0f64, 0.0f64);
    for r in nodes.records() {
        let r = r?;
        let f = |i: usize| r[i].parse::<f64>().unwrap_or(f64::NAN);
        match &r[class] {
            "aggressor" => agg.push((f(inj), f(ej), f(acc))),
            "victim" => victim_acc.push(f(acc)),
            _ => {}
        }
        thr_sum += f(thr);
        n += 1.0;
    }
    let agg_rate = agg.iter().map(|a| a.2).sum();
    // the senders: every aggressor NIC but the one that received the most (the root)
    let root = agg
        .iter()
        .enumerate()
        .max_by(|a, b| a.1 .1.total_cmp(&b.1 .1))
        .map(|(i, _)| i);
    let senders: Vec<f64> = agg
        .iter()
        .enumerate()
        .filter(|(i, _)| Some(*i) != root)
        .map(|(_, a)| a.0)
        .collect();
    Ok(RunReading {
        iter_mean,
        agg_rate,
        agg_jain: jain(&senders),
        victim_jain: jain(&victim_acc),
        thr_pct: 100.0 * thr_sum / n.max(1.0),
        finished: s["finished"].as_bool().unwrap_or(false),
        cycles_run: s["cycles_run"].as_u64().unwrap_or(0),
        seed: s["seed"].as_u64().context("summary.json: no seed")?,
    })
}

/// The rows of one fabric's sweep: each point run with the `off` (scheme `none`) and
/// `isolated` runs of its group.
pub fn fabric_rows(fabric: &str, dir: &Path) -> anyhow::Result<Vec<Row>> {
    let plan = read_json(&dir.join("sweep.json"))?;
    let axes: Vec<&str> = plan["axes"]
        .as_array()
        .context("sweep.json: axes")?
        .iter()
        .filter_map(Value::as_str)
        .collect();
    let (Some(mi), Some(ei)) = (
        axes.iter().position(|a| *a == "workload.jobs"),
        axes.iter().position(|a| *a == "entry"),
    ) else {
        bail!(
            "{}: the study's sweeps have the axes workload.jobs and entry",
            dir.display()
        );
    };
    let label = |v: &Value| v.as_str().unwrap_or("").trim_matches('"').to_string();
    // point id -> (motif, entry, group)
    let mut points = BTreeMap::new();
    for p in plan["points"].as_array().context("sweep.json: points")? {
        let v = p["values"].as_array().context("sweep.json: point values")?;
        let (Some(m), Some(e)) = (v.get(mi), v.get(ei)) else {
            bail!(
                "{}: point {} lacks a value per axis",
                dir.display(),
                p["id"]
            );
        };
        points.insert(
            label(&p["id"]),
            (label(m), label(e), p["group"].as_u64().unwrap_or(0)),
        );
    }
    let mut runs: BTreeMap<String, RunReading> = BTreeMap::new();
    for u in plan["units"].as_array().context("sweep.json: units")? {
        let d = label(&u["dir"]);
        runs.insert(d.clone(), reading(&dir.join(&d))?);
    }
    let mut rows = Vec::new();
    // the motif of each group (for the `none` rows)
    let mut group_motif = BTreeMap::new();
    for (id, (motif, entry, group)) in &points {
        group_motif.insert(*group, motif.clone());
        for (d, r) in runs
            .iter()
            .filter(|(d, _)| d.starts_with(&format!("runs/{id}-s")))
        {
            let iso = runs
                .get(&format!("runs/g{group:03}-s{}-isolated", r.seed))
                .with_context(|| format!("{d}: no isolated run for its group and seed"))?;
            rows.push(row(fabric, motif, entry, r, iso.iter_mean));
        }
    }
    for (d, r) in runs.iter().filter(|(d, _)| d.ends_with("-off")) {
        let motif = d
            .strip_prefix("runs/g")
            .and_then(|g| g.get(..3)?.parse::<u64>().ok())
            .and_then(|g| group_motif.get(&g))
            .with_context(|| format!("{d}: not the `off` run of a point's group"))?;
        let iso = runs
            .get(&d.replace("-off", "-isolated"))
            .with_context(|| format!("{d}: no isolated run for its group and seed"))?;
        rows.push(row(fabric, motif, "none", r, iso.iter_mean));
    }
    Ok(rows)
}

fn row(fabric: &str, motif: &str, scheme: &str, r: &RunReading, alone: f64) -> Row {
    Row {
        fabric: fabric.into(),
        motif: motif.into(),
        scheme: scheme.into(),
        seed: r.seed,
        iter_mean: r.iter_mean,
        iter_alone: alone,
        agg_rate: r.agg_rate,
        agg_jain: r.agg_jain,
        victim_jain: r.victim_jain,
        thr_pct: r.thr_pct,
        finished: r.finished,
        cycles_run: r.cycles_run,
    }
}

pub fn mean(v: &[f64]) -> f64 {
    v.iter().sum::<f64>() / v.len().max(1) as f64
}

/// The aggressor of a fabric's sweep, as "motif of N KiB messages" (from its first point
/// scenario's second job), for the figures' titles.
pub fn aggressor(dir: &Path) -> Option<String> {
    let plan = read_json(&dir.join("sweep.json")).ok()?;
    let file = plan["units"][0]["scenario"].as_str()?;
    let sc: toml::Table = toml::from_str(&std::fs::read_to_string(dir.join(file)).ok()?).ok()?;
    let job = &sc.get("workload")?.get("jobs")?.as_array()?.get(1)?;
    let motif = job.get("motif")?.as_str()?;
    let kib = job.get("msg_bytes")?.as_integer()? / 1024;
    Some(format!("{motif} of {kib} KiB messages"))
}

/// The rows of every fabric whose sweep is in `out` (`OUT_DIR/<fabric>/sweep.json`), sorted by
/// fabric, motif, scheme and seed, and the fabrics found.
pub fn read_study(out: &Path) -> anyhow::Result<(Vec<Row>, Vec<&'static str>)> {
    let mut rows = Vec::new();
    let mut fabrics = Vec::new();
    for f in FABRICS {
        let d = out.join(f);
        if d.join("sweep.json").exists() {
            rows.extend(fabric_rows(f, &d)?);
            fabrics.push(f);
        }
    }
    if rows.is_empty() {
        bail!("{}: no fabric's sweep.json found", out.display());
    }
    rows.sort_by(|a, b| {
        (&a.fabric, &a.motif, &a.scheme, a.seed).cmp(&(&b.fabric, &b.motif, &b.scheme, b.seed))
    });
    Ok((rows, fabrics))
}

/// `study.csv` as text.
pub fn csv_text(rows: &[Row]) -> anyhow::Result<String> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record([
        "fabric",
        "motif",
        "scheme",
        "seed",
        "iter_mean",
        "iter_alone",
        "slowdown",
        "agg_flits_per_cycle",
        "agg_jain",
        "victim_jain",
        "thr_pct",
        "finished",
        "cycles_run",
    ])?;
    for r in rows {
        w.write_record([
            r.fabric.clone(),
            r.motif.clone(),
            r.scheme.clone(),
            r.seed.to_string(),
            format!("{}", r.iter_mean),
            format!("{}", r.iter_alone),
            format!("{}", r.slowdown()),
            format!("{}", r.agg_rate),
            format!("{}", r.agg_jain),
            format!("{}", r.victim_jain),
            format!("{}", r.thr_pct),
            r.finished.to_string(),
            r.cycles_run.to_string(),
        ])?;
    }
    let bytes = w.into_inner().map_err(|e| anyhow::anyhow!("csv: {e}"))?;
    String::from_utf8(bytes).context("the CSV is UTF-8")
}

impl Row {
    /// The victim's mean iteration time over its time alone.
    pub fn slowdown(&self) -> f64 {
        self.iter_mean / self.iter_alone
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NODES: &str = "node,class,role,flits_injected,flits_ejected,injected_per_cycle,\
                         accepted_per_cycle,mean_c,max_c,frac_congested,throttled_cycles,\
                         frac_throttled,messages_refused\n";

    /// A run directory: its summary and a nodes.csv of two victims and three aggressor NICs
    /// (two senders injecting `sent` flits each, a root ejecting their sum).
    fn run(dir: &Path, seed: u64, iter_mean: f64, sent: [u32; 2]) {
        std::fs::create_dir_all(dir).unwrap();
        let s = serde_json::json!({"seed": seed, "finished": true, "cycles_run": 1000,
            "motif": {"iteration_cycles": {"mean": iter_mean}}});
        std::fs::write(dir.join("summary.json"), s.to_string()).unwrap();
        let root = sent[0] + sent[1];
        let nodes = format!(
            "{NODES}0,victim,v,5,5,0.1,0.25,0,0,0,0,0.5,0\n1,victim,v,5,5,0.1,0.25,0,0,0,0,0.5,0\n\
             2,aggressor,a,{},0,0,0,0,0,0,0,0,0\n3,aggressor,a,0,{root},0,0.75,0,0,0,0,0,0\n\
             4,aggressor,a,{},0,0,0,0,0,0,0,0,0\n",
            sent[0], sent[1]
        );
        std::fs::write(dir.join("nodes.csv"), nodes).unwrap();
    }

    fn sweep(dir: &Path, with_isolated: bool) {
        let mut units = vec![
            serde_json::json!({"dir": "runs/p0000-s7", "run": "a"}),
            serde_json::json!({"dir": "runs/g000-s7-off", "run": "off"}),
        ];
        if with_isolated {
            units.push(serde_json::json!({"dir": "runs/g000-s7-isolated", "run": "isolated"}));
        }
        let plan = serde_json::json!({"axes": ["workload.jobs", "entry"],
            "points": [{"id": "p0000", "values": ["halo3d", "\"a\""], "group": 0}],
            "units": units});
        std::fs::create_dir_all(dir).unwrap();
        std::fs::write(dir.join("sweep.json"), plan.to_string()).unwrap();
        run(&dir.join("runs/p0000-s7"), 7, 3000.0, [10, 10]);
        run(&dir.join("runs/g000-s7-off"), 7, 6000.0, [30, 10]);
        run(&dir.join("runs/g000-s7-isolated"), 7, 1500.0, [0, 0]);
    }

    fn tmp(name: &str) -> std::path::PathBuf {
        let d = std::env::temp_dir().join(format!("pft-study-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        d
    }

    #[test]
    fn rows_pair_each_run_with_its_isolated_run_and_leave_out_the_root() {
        let out = tmp("rows");
        sweep(&out.join("torus"), true);
        let (rows, fabrics) = read_study(&out).unwrap();
        assert_eq!(fabrics, ["torus"]);
        assert_eq!(rows.len(), 2);
        let a = rows.iter().find(|r| r.scheme == "a").unwrap();
        let none = rows.iter().find(|r| r.scheme == "none").unwrap();
        assert_eq!(
            (a.motif.as_str(), none.motif.as_str()),
            ("halo3d", "halo3d")
        );
        assert_eq!((a.slowdown(), none.slowdown()), (2.0, 4.0));
        assert_eq!(a.seed, 7);
        // the senders alone: equal shares give 1; with the root's 0 it would be 2/3
        assert!((a.agg_jain - 1.0).abs() < 1e-12, "{}", a.agg_jain);
        // 30 against 10: (40^2) / (2 (900 + 100)) = 0.8
        assert!((none.agg_jain - 0.8).abs() < 1e-12, "{}", none.agg_jain);
        assert!((a.agg_rate - 0.75).abs() < 1e-12);
        assert!((a.victim_jain - 1.0).abs() < 1e-12);
        assert!((a.thr_pct - 20.0).abs() < 1e-9, "{}", a.thr_pct);
        let csv = csv_text(&rows).unwrap();
        assert!(csv.starts_with("fabric,motif,scheme,seed,iter_mean,iter_alone,slowdown,"));
        assert!(
            csv.contains("torus,halo3d,a,7,3000,1500,2,0.75,1,"),
            "{csv}"
        );
        let _ = std::fs::remove_dir_all(&out);
    }

    #[test]
    fn a_missing_isolated_run_is_named() {
        let out = tmp("noiso");
        sweep(&out.join("fat_tree"), false);
        let e = read_study(&out).err().unwrap().to_string();
        assert!(e.contains("runs/p0000-s7") && e.contains("isolated"), "{e}");
        let _ = std::fs::remove_dir_all(&out);
        assert!(read_study(&out).is_err(), "an empty directory has no study");
    }
}
