//! `--threads` changes no result (issue 44, part 1; docs/performance.md, "Threads"): every
//! shipped scenario, in a short copy, run by `pftsim compare` at 1, 2 and 3 threads, writes
//! the same files with the same bytes, and prints the same table. Only what measures time is
//! left out: `wall_seconds` (JSON fields and CSV columns), the printed line with the wall
//! time, and `manifest.json` (the command line, with its `--threads`, the start time and the
//! process id).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_pftsim");

fn tmp(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("net_threads")
        .join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The shipped scenarios (the study's grid files, which are not scenarios, left out).
fn shipped() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scenarios");
    let mut v = Vec::new();
    for dir in [root.clone(), root.join("study")] {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "toml") {
                let t: toml::Table = std::fs::read_to_string(&p).unwrap().parse().unwrap();
                if t.contains_key("network") || t.contains_key("workload") {
                    v.push(p);
                }
            }
        }
    }
    v.sort();
    v
}

/// A short copy of a scenario: 2,500 cycles without warm-up, the canaries from cycle 800,
/// run-time faults with their times divided by 1,000 (starting by cycle 2,000).
fn shorten(text: &str) -> String {
    let mut t: toml::Table = text.parse().unwrap();
    let cycles = t
        .entry("cycles")
        .or_insert(toml::Value::Table(Default::default()));
    let c = cycles.as_table_mut().unwrap();
    c.insert("max".into(), toml::Value::Integer(2500));
    c.insert("warmup".into(), toml::Value::Integer(0));
    if let Some(w) = t.get_mut("workload").and_then(|w| w.as_table_mut()) {
        if w.contains_key("canary_start_cycles") {
            w.insert("canary_start_cycles".into(), toml::Value::Integer(800));
        }
    }
    let faults = t
        .get_mut("network")
        .and_then(|n| n.get_mut("faults"))
        .and_then(|f| f.as_array_mut());
    for f in faults.into_iter().flatten() {
        let f = f.as_table_mut().unwrap();
        for k in ["start", "at", "duration", "period"] {
            if let Some(v) = f.get(k).and_then(|v| v.as_integer()) {
                let v = if k == "start" || k == "at" {
                    (v / 1000).min(2000)
                } else {
                    (v / 1000).max(1)
                };
                f.insert(k.into(), toml::Value::Integer(v));
            }
        }
    }
    toml::to_string(&t).unwrap()
}

/// Every file under `d`, by path relative to it.
fn files(d: &Path) -> BTreeMap<PathBuf, PathBuf> {
    let mut m = BTreeMap::new();
    let mut stack = vec![d.to_path_buf()];
    while let Some(x) = stack.pop() {
        for e in std::fs::read_dir(&x).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                m.insert(p.strip_prefix(d).unwrap().to_path_buf(), p);
            }
        }
    }
    m
}

fn strip_wall(v: &mut serde_json::Value) {
    match v {
        serde_json::Value::Object(m) => {
            m.remove("wall_seconds");
            m.values_mut().for_each(strip_wall);
        }
        serde_json::Value::Array(a) => a.iter_mut().for_each(strip_wall),
        _ => {}
    }
}

/// A file's content with what measures time left out.
fn content(p: &Path) -> String {
    let text = std::fs::read_to_string(p).unwrap();
    match p.extension().and_then(|x| x.to_str()) {
        Some("json") => {
            let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
            strip_wall(&mut v);
            v.to_string()
        }
        Some("csv") => without_wall_column(&text),
        _ => text,
    }
}

/// A CSV file's rows without its `wall_seconds` column, if it has one.
fn without_wall_column(text: &str) -> String {
    let mut r = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(text.as_bytes());
    let rows: Vec<csv::StringRecord> = r.records().map(|x| x.unwrap()).collect();
    let k = rows
        .first()
        .and_then(|h| h.iter().position(|c| c == "wall_seconds"));
    rows.iter()
        .map(|row| {
            row.iter()
                .enumerate()
                .filter(|&(i, _)| Some(i) != k)
                .map(|(_, c)| c)
                .collect::<Vec<_>>()
                .join("\u{1f}")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// `pftsim compare` of `scenario` at `threads`: its output directory and printed table.
fn compare(scenario: &Path, out: &Path, threads: u32) -> String {
    let o = Command::new(BIN)
        .args(["compare", scenario.to_str().unwrap(), "--out"])
        .arg(out)
        .args(["--jobs", "1", "--quiet", "--threads", &threads.to_string()])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{}: {err}", scenario.display());
    String::from_utf8(o.stdout).unwrap()
}

/// The printed table without the line that gives the wall time (it also names the output
/// directory).
fn table(stdout: &str) -> String {
    stdout
        .lines()
        .filter(|l| !l.contains("wall"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn every_shipped_scenario_gives_the_same_files_at_1_2_and_3_threads() {
    let all = shipped();
    assert!(all.len() >= 20, "{} scenarios found", all.len());
    let work = tmp("shipped");
    for sc in &all {
        let name = sc.file_stem().unwrap().to_str().unwrap();
        let short = work.join(format!("{name}.toml"));
        std::fs::write(&short, shorten(&std::fs::read_to_string(sc).unwrap())).unwrap();
        let mut base: Option<(BTreeMap<PathBuf, String>, String)> = None;
        for t in [1, 2, 3] {
            let out = work.join(format!("{name}-t{t}"));
            let printed = table(&compare(&short, &out, t));
            let got: BTreeMap<PathBuf, String> = files(&out)
                .into_iter()
                .filter(|(rel, _)| rel.file_name().is_none_or(|f| f != "manifest.json"))
                .map(|(rel, p)| (rel, content(&p)))
                .collect();
            match &base {
                None => base = Some((got, printed)),
                Some((want, want_printed)) => {
                    assert_eq!(
                        want.keys().collect::<Vec<_>>(),
                        got.keys().collect::<Vec<_>>(),
                        "{name}: other files at {t} threads"
                    );
                    for (rel, c) in want {
                        assert!(
                            *c == got[rel],
                            "{name}: {} differs between 1 and {t} threads",
                            rel.display()
                        );
                    }
                    assert_eq!(want_printed, &printed, "{name}: the table at {t} threads");
                }
            }
        }
    }
}
