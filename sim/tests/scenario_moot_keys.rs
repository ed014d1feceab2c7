//! Keys that are valid but change nothing in the scenario they are in (a GPCNeT
//! congestor's message size or window with `congestors = false`, the eager window under
//! the rendezvous protocol, the congestors' window with only a2a and the eager incast, a
//! left-out canary test's keys, a hot stream's `hot_messages` with `hot_traffic = false`)
//! are warned about by name, and the run with them is the run without them: five such keys
//! here, every NIC's traffic and `summary.json` but for the
//! config's echo. A workload's own `congestors = false` is kept by every run (it was
//! overridden: `off` ran the congestors). The shipped scenarios get no such warning.

use std::path::{Path, PathBuf};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_pftsim");

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn out(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("moot_keys")
        .join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(d.parent().unwrap()).unwrap();
    d
}

/// Drops every `wall_seconds` and `config` key (the time, and the echo of the keys set).
fn strip(v: &mut serde_json::Value) {
    match v {
        serde_json::Value::Object(m) => {
            m.remove("wall_seconds");
            m.remove("config");
            m.values_mut().for_each(strip);
        }
        serde_json::Value::Array(a) => a.iter_mut().for_each(strip),
        _ => {}
    }
}

/// `run --pft off` of `scenario` with `sets`: (stderr, nodes.csv rows as (class, the
/// traffic columns)).
fn run(scenario: &str, sets: &[&str], name: &str) -> (String, Vec<(String, String)>) {
    let d = out(name);
    let mut c = Command::new(BIN);
    c.arg("run")
        .arg(root().join(scenario))
        .args(["--pft", "off", "--quiet", "--out"])
        .arg(&d);
    for s in sets {
        c.args(["--set", s]);
    }
    let o = c.output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(o.status.success(), "{scenario} {sets:?}: {err}");
    let mut sum: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("summary.json")).unwrap()).unwrap();
    strip(&mut sum);
    let csv = std::fs::read_to_string(d.join("nodes.csv")).unwrap();
    let rows = csv
        .lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            // node, class, role, then the traffic columns (the role may name a hot spot)
            (f[1].to_string(), format!("{},{}", f[0], f[3..].join(",")))
        })
        .chain([("summary".to_string(), sum.to_string())])
        .collect();
    (err, rows)
}

/// With `base` set, adding `key` warns naming it and changes no NIC's traffic.
fn moot(scenario: &str, base: &[&str], key: &str, name: &str) {
    let (_, without) = run(scenario, base, &format!("{name}-a"));
    let sets: Vec<&str> = base.iter().copied().chain([key]).collect();
    let (err, with) = run(scenario, &sets, &format!("{name}-b"));
    let k = key.split('=').next().unwrap();
    assert!(
        err.contains("warning: ") && err.contains(&format!("{k} is set but changes")),
        "{key}: no warning: {err}"
    );
    let traffic = |r: &[(String, String)]| r.iter().map(|x| x.1.clone()).collect::<Vec<_>>();
    assert_eq!(traffic(&without), traffic(&with), "{key} changed the run");
}

#[test]
fn keys_that_change_nothing_are_warned_about_and_change_nothing() {
    let smoke = "scenarios/smoke.toml";
    moot(
        smoke,
        &["workload.incast_protocol=\"rendezvous\""],
        "workload.eager_window=3",
        "eager",
    );
    moot(
        smoke,
        &["workload.congestors=false"],
        "workload.congestor_msg_bytes=64",
        "congestors",
    );
    moot(
        smoke,
        &["workload.canary_tests=[\"bandwidth\", \"allreduce\"]"],
        "workload.lat_msg_bytes=64",
        "canary",
    );
    moot(
        smoke,
        &[
            "workload.congestor_kinds=[\"a2a\", \"incast\"]",
            "workload.incast_protocol=\"eager\"",
        ],
        "workload.congestor_window=4",
        "window",
    );
    moot(
        "scenarios/hotspot.toml",
        &[
            "cycles.max=30000",
            "cycles.warmup=5000",
            "workload.hot_traffic=false",
        ],
        "workload.hot_messages=5",
        "hot",
    );
}

#[test]
fn a_workloads_own_congestors_false_is_kept_by_every_run() {
    let congestor = |c: &str| matches!(c, "a2a" | "incast" | "put_incast" | "get_bcast");
    let injected = |rows: &[(String, String)]| -> u64 {
        rows.iter()
            .filter(|r| congestor(&r.0))
            .map(|r| r.1.split(',').nth(1).unwrap().parse::<u64>().unwrap())
            .sum()
    };
    let (_, on) = run("scenarios/smoke.toml", &[], "on");
    let (_, off) = run(
        "scenarios/smoke.toml",
        &["workload.congestors=false"],
        "off",
    );
    assert!(
        injected(&on) > 0,
        "the congestors sent nothing: the check is void"
    );
    assert_eq!(injected(&off), 0, "`congestors = false` ran the congestors");
}

#[test]
fn shipped_scenarios_have_no_key_that_changes_nothing() {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join("scenarios"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    assert!(files.len() > 10);
    for f in files {
        let o = Command::new(BIN)
            .args(["check", "--no-estimate"])
            .arg(&f)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(o.status.success(), "{}: {err}", f.display());
        assert!(
            !err.contains("is set but changes"),
            "{}: {err}",
            f.display()
        );
    }
}
