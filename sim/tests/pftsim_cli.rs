//! The `pftsim` command line: `run` and `compare` on scenarios/smoke.toml write their files
//! with the documented headers and keys; the same command gives the same numbers; bad
//! scenarios fail cleanly (non-zero exit, the key and its range named, no panic, no output);
//! the RTL and model engines give identical results.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_pftsim");

fn smoke() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../scenarios/smoke.toml")
}

/// A fresh, empty directory under the target's temporary directory.
fn tmp(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("pftsim")
        .join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(d.parent().unwrap()).unwrap();
    d
}

fn pftsim(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().expect("pftsim runs")
}

fn ok(args: &[&str]) -> String {
    let o = pftsim(args);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "pftsim {args:?} failed:\n{err}");
    String::from_utf8(o.stdout).unwrap()
}

fn json(p: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
}

fn header(p: &Path) -> String {
    std::fs::read_to_string(p)
        .unwrap()
        .lines()
        .next()
        .unwrap_or_default()
        .to_string()
}

/// Drops every `wall_seconds` key (the only number that may differ between runs).
fn strip_wall(v: &mut Value) {
    match v {
        Value::Object(m) => {
            m.remove("wall_seconds");
            m.values_mut().for_each(strip_wall);
        }
        Value::Array(a) => a.iter_mut().for_each(strip_wall),
        _ => {}
    }
}

const NODES_HEADER: &str = "node,class,role,flits_injected,flits_ejected,injected_per_cycle,\
accepted_per_cycle,mean_c,max_c,frac_congested,throttled_cycles,frac_throttled,messages_refused";

fn check_run_dir(d: &Path) {
    for f in [
        "summary.json",
        "nodes.csv",
        "timeseries.csv",
        "latency_distribution.svg",
        "bandwidth_distribution.svg",
        "c_timeseries.svg",
    ] {
        assert!(d.join(f).is_file(), "{} missing", d.join(f).display());
    }
    assert_eq!(header(&d.join("nodes.csv")), NODES_HEADER);
    assert_eq!(header(&d.join("timeseries.csv")), "cycle,node,c,congested");
    let svg = std::fs::read_to_string(d.join("c_timeseries.svg")).unwrap();
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    let s = json(&d.join("summary.json"));
    for k in [
        "scenario",
        "run",
        "pft",
        "seed",
        "engine",
        "cycles_run",
        "finished",
        "wall_seconds",
        "throughput",
        "victims",
        "pft_stats",
        "config",
        "gpcnet",
    ] {
        assert!(s.get(k).is_some(), "summary.json lacks `{k}`");
    }
    for k in ["latency", "bandwidth"] {
        let sm = &s["victims"][k];
        for q in ["count", "mean", "p50", "p99", "max"] {
            assert!(sm[q].is_number(), "victims.{k}.{q} missing: {sm}");
        }
    }
    for k in ["frac_congested", "throttled_cycles", "mean_c"] {
        assert!(s["pft_stats"][k].is_number());
    }
    assert!(s["throughput"]["jain_accepted"].is_number());
    assert!(s["throughput"]["classes"].as_array().unwrap().len() >= 5);
    assert_eq!(s["finished"], Value::Bool(true), "smoke run did not finish");
}

#[test]
fn run_writes_every_file_and_reruns_identically() {
    let a = tmp("run_a");
    let b = tmp("run_b");
    let sm = smoke();
    let out = ok(&["run", sm.to_str().unwrap(), "--out", a.to_str().unwrap()]);
    assert!(out.contains("run `paper`"), "{out}");
    check_run_dir(&a);
    check_run_dir(&a.join("isolated"));
    let s = json(&a.join("summary.json"));
    assert_eq!(s["run"], "paper");
    assert!(s["cif"]["factors"].as_array().unwrap().len() == 3);
    assert_eq!(s["isolated"]["finished"], Value::Bool(true));

    ok(&["run", sm.to_str().unwrap(), "--out", b.to_str().unwrap()]);
    let (mut x, mut y) = (s, json(&b.join("summary.json")));
    strip_wall(&mut x);
    strip_wall(&mut y);
    assert_eq!(x, y, "the same command gave different numbers");
    for f in ["nodes.csv", "timeseries.csv", "isolated/nodes.csv"] {
        assert_eq!(
            std::fs::read(a.join(f)).unwrap(),
            std::fs::read(b.join(f)).unwrap(),
            "{f} differs between two identical runs"
        );
    }

    // --pft picks another entry, `off` disables PFT
    let c = tmp("run_off");
    ok(&[
        "run",
        sm.to_str().unwrap(),
        "--out",
        c.to_str().unwrap(),
        "--pft",
        "off",
    ]);
    let s = json(&c.join("summary.json"));
    assert_eq!(s["pft"]["enable"], Value::Bool(false));
    assert_eq!(s["pft_stats"]["throttled_cycles"], 0);
}

#[test]
fn compare_prints_one_table_and_writes_each_run() {
    let d = tmp("compare");
    let out = ok(&[
        "compare",
        smoke().to_str().unwrap(),
        "--out",
        d.to_str().unwrap(),
    ]);
    for w in [
        "config", "F_C", "CIFlat", "isolated", "off", "paper", "hard",
    ] {
        assert!(out.contains(w), "table lacks {w}:\n{out}");
    }
    assert_eq!(
        header(&d.join("compare.csv")),
        "config,pft,congestors,cycles_run,finished,accepted,lat_mean,lat_p99,bw_mean,bw_p99,\
f_c,f_c_tail,cif_lat_avg,cif_lat_p99,cif_bw_avg,cif_bw_p99,frac_congested,frac_throttled,\
wall_seconds,rx_hot,rx_nonhot,rx_total,cc_counters,cold_lat_peak,hot_link_util,\
marked_cold_frac,marked_hot_frac"
    );
    let c = json(&d.join("compare.json"));
    let rows = c["rows"].as_array().unwrap();
    let names: Vec<&str> = rows.iter().map(|r| r["config"].as_str().unwrap()).collect();
    assert_eq!(names, ["isolated", "off", "paper", "hard"]);
    for r in rows {
        assert_eq!(r["finished"], Value::Bool(true));
        // seed 004's columns are for hot-spot workloads only
        for k in [
            "cold_lat_peak",
            "hot_link_util",
            "marked_cold_frac",
            "marked_hot_frac",
        ] {
            assert!(r[k].is_null(), "{k} of a GPCNeT run: {}", r[k]);
        }
    }
    assert!(!d.join("off/coldhot.csv").exists() && !out.contains("cold/hot"));
    // F_C only for PFT-on runs; CIF for every congested run
    assert!(rows[1]["f_c"].is_null() && rows[2]["f_c"].is_number());
    assert!(rows[3]["f_c"].as_f64().unwrap() > 0.0);
    assert!(rows[0]["cif_lat_avg"].is_null() && rows[1]["cif_lat_avg"].is_number());
    // the hard throttle really throttles
    assert!(rows[3]["frac_throttled"].as_f64().unwrap() > 0.01);
    for n in names {
        check_run_dir(&d.join(n));
    }
    let hard = json(&d.join("hard/summary.json"));
    assert!(hard["control"]["f_c"].is_number());
    assert_eq!(hard["control"]["against"], "off");
    assert!(d.join("latency_distribution.svg").is_file());
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn bad_scenarios_fail_cleanly() {
    let base = std::fs::read_to_string(smoke()).unwrap();
    let dir = tmp("bad");
    let gpcnet_keys = |t: &str| {
        t.lines()
            .filter(|l| {
                !["ppn", "congestor", "canary", "lat_", "bw_", "allreduce"]
                    .iter()
                    .any(|k| l.starts_with(k))
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    let cases: Vec<(&str, String, Vec<&str>)> = vec![
        (
            "unknown_key",
            base.replace("[cycles]\n", "[cycles]\nmaxx = 5\n"),
            vec!["unknown field `maxx`", "max"],
        ),
        (
            "unknown_workload_key",
            base.replace("ppn = 4\n", "ppn = 4\nfoo = 1\n"),
            vec!["unknown field `foo`"],
        ),
        (
            "odd_radix",
            base.replace("radix = 8", "radix = 9"),
            vec!["network.topology.radix", "9", "even", "4..=64"],
        ),
        (
            "load_above_1",
            gpcnet_keys(&base.replace("kind = \"gpcnet\"", "kind = \"uniform\"\nload = 1.5")),
            vec!["workload.load", "1.5", "0 <= load <= 1"],
        ),
        (
            "malformed",
            base.replace("[workload]", "[workload"),
            vec!["line 25, column 10", "25 | [workload"],
        ),
        (
            "m_too_big",
            base.replace("m = 0", "m = 40"),
            vec!["pft[1].m", "0..=31"],
        ),
        (
            "warmup_past_max",
            base.replace("max = 400_000", "max = 400_000\nwarmup = 500_000"),
            vec!["cycles.warmup", "below cycles.max"],
        ),
        (
            "watch_out_of_range",
            base.replace("nics = [0, 1, 2, 3]", "nics = [0, 99]"),
            vec!["timeseries.nics[1]", "0..16"],
        ),
    ];
    for (name, text, needles) in cases {
        let p = write(&dir, &format!("{name}.toml"), &text);
        let out = dir.join(format!("out_{name}"));
        for cmd in ["run", "compare"] {
            let o = pftsim(&[cmd, p.to_str().unwrap(), "--out", out.to_str().unwrap()]);
            let err = String::from_utf8_lossy(&o.stderr);
            assert_eq!(o.status.code(), Some(1), "{name} {cmd}: {err}");
            assert!(!err.contains("panicked"), "{name}: {err}");
            for n in &needles {
                assert!(err.contains(n), "{name} {cmd}: `{n}` not in\n{err}");
            }
            assert!(!out.exists(), "{name}: output left behind");
        }
    }
    // a missing file, and an unknown --pft name
    let out = dir.join("out_missing");
    let o = pftsim(&[
        "run",
        dir.join("nope.toml").to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        err.contains("nope.toml") && err.contains("No such file"),
        "{err}"
    );
    assert!(!out.exists());
    let o = pftsim(&[
        "run",
        smoke().to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--pft",
        "nosuch",
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        err.contains("nosuch") && err.contains("paper, hard"),
        "{err}"
    );
    assert!(!out.exists());
}

/// A tiny incast that makes the PFT blocks go Congested and throttle.
fn tiny(engine: &str, pft: &str) -> String {
    format!(
        r#"
name = "tiny_{engine}"
seed = 3
engine = "{engine}"
[cycles]
max = 2500
[timeseries]
period = 10
[network]
topology = {{ kind = "single_switch", nodes = 6 }}
buffer_flits = 128
eject_buffer_flits = 128
mtu_bytes = 1024
check = true
[workload]
kind = "hotspot"
hotspots = 1
frac_c = 0.5
frac_v = 0.5
load = 0.9
msg_bytes = 1024
[[pft]]
{pft}
"#
    )
}

#[test]
fn rtl_and_model_engines_agree() {
    let dir = tmp("engines");
    for (tag, pft) in [
        (
            "ftfi",
            "name = \"ftfi\"\ndet_mode = \"ft\"\nthr_mode = \"fi\"\nth_enter = 40\nth_escape = 20\nm = 0\nn = 2",
        ),
        (
            "atri",
            "name = \"atri\"\nth_enter = 30\nth_escape = 40\nat_win_e = 16\nat_cnt_e = 8\nat_win_s = 16\nat_cnt_s = 8\nm = 25",
        ),
    ] {
        let mut sums = Vec::new();
        for engine in ["model", "rtl"] {
            let p = write(&dir, &format!("{tag}_{engine}.toml"), &tiny(engine, pft));
            let out = dir.join(format!("out_{tag}_{engine}"));
            ok(&[
                "run",
                p.to_str().unwrap(),
                "--out",
                out.to_str().unwrap(),
                "--quiet",
            ]);
            let mut s = json(&out.join("summary.json"));
            strip_wall(&mut s);
            for k in ["scenario", "engine", "config"] {
                s.as_object_mut().unwrap().remove(k);
            }
            let nodes = std::fs::read_to_string(out.join("nodes.csv")).unwrap();
            let ts = std::fs::read_to_string(out.join("timeseries.csv")).unwrap();
            sums.push((s, nodes, ts));
        }
        let t = sums[0].0["pft_stats"]["throttled_cycles"].as_u64().unwrap();
        assert!(t > 0, "{tag}: the blocks never throttled, the check is void");
        assert_eq!(sums[0].0, sums[1].0, "{tag}: summaries differ");
        assert_eq!(sums[0].1, sums[1].1, "{tag}: nodes.csv differs");
        assert_eq!(sums[0].2, sums[1].2, "{tag}: timeseries.csv differs");
    }
}

/// A PFT setting that passes no flit at all below CREDIT_LIMIT is valid but gets a warning
/// (it can stall a NIC halfway through a packet); the shipped scenarios get none.
#[test]
fn blocking_levels_are_warned_about() {
    let d = tmp("warn");
    std::fs::create_dir_all(&d).unwrap();
    let f = d.join("blocky.toml");
    std::fs::write(
        &f,
        "[workload]\nkind = \"uniform\"\n[[pft]]\nname = \"blocky\"\nthr_mode = \"ri\"\nm = 26\n\
         [[cc]]\nname = \"ccblocky\"\nkind = \"pft\"\nthr_mode = \"ri\"\nm = 26\n\
         [[network.faults]]\nkind = \"pft_rewrite\"\nat = 10\npft = { thr_mode = \"fi\", m = 16 }\n",
    )
    .unwrap();
    let o = pftsim(&["check", f.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(
        err.contains("warning:") && err.contains("[[pft]] `blocky`") && err.contains("c >= 64"),
        "{err}"
    );
    // `--no-estimate` warns the same and prints no estimate
    let quick = pftsim(&["check", f.to_str().unwrap(), "--no-estimate"]);
    assert!(quick.status.success());
    assert_eq!(quick.stderr, o.stderr);
    let (full, quick) = (
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&quick.stdout),
    );
    assert!(full.contains("estimate for `compare`"), "{full}");
    assert!(!quick.contains("estimate"), "{quick}");
    assert_eq!(quick.lines().next(), full.lines().next());
    // a `[[cc]]` entry of kind "pft" is warned about, and counted, as a `[[pft]]` one
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("2 PFT and 0 other congestion-control configuration(s)"),
        "{out}"
    );
    assert!(
        err.contains(
            "[[cc]] `ccblocky`: the throttle passes no flit at all once Congested with c >= 64"
        ),
        "{err}"
    );
    assert!(
        err.contains("network.faults[0].pft") && err.contains("c >= 1 "),
        "{err}"
    );
    let scenarios = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scenarios");
    for e in std::fs::read_dir(scenarios).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_none_or(|x| x != "toml") {
            continue; // scenarios/grids/: sweep grids, not scenarios
        }
        // warnings come from validation; without the calibration runs (every shipped
        // scenario's runs are run for 2,500 cycles by net_threads' compare)
        let o = pftsim(&["check", p.to_str().unwrap(), "--no-estimate"]);
        assert!(o.status.success());
        assert!(
            o.stderr.is_empty(),
            "{}: {}",
            p.display(),
            String::from_utf8_lossy(&o.stderr)
        );
    }
}

/// `check --no-estimate` runs no calibration: a scenario whose runs deadlock in their first
/// cycles (NICs that barely drain) fails `check`'s calibration and passes validation.
#[test]
fn no_estimate_runs_no_calibration() {
    let d = tmp("no_estimate");
    let f = write(
        &d,
        "stuck.toml",
        &pft_test_support::scenario::deadlocking(pft_test_support::scenario::TINY_HOTSPOT),
    );
    let o = pftsim(&["check", f.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("the estimate's calibration"), "{err}");
    let out = ok(&["check", f.to_str().unwrap(), "--no-estimate"]);
    assert!(out.contains(": ok: scenario"), "{out}");
}

/// `compare` puts off, PFT and IB CC in one table with the IB study's receive rates, and
/// `run --cc NAME` runs a `[[cc]]` entry.
#[test]
fn compare_mixes_pft_and_ibcc_with_receive_rates() {
    let d = tmp("mix");
    std::fs::create_dir_all(&d).unwrap();
    let sc = write(
        &d,
        "mix.toml",
        r#"name = "mix"
seed = 2
isolated = true
[cycles]
max = 40_000
warmup = 10_000
[network]
topology = { kind = "fat_tree", radix = 8, leaves = 4 }
link_gbps = 20.0
mtu_bytes = 2048
buffer_flits = 256
eject_buffer_flits = 256
voq = true
eject_rate = 0.68
check = true
[workload]
kind = "hotspot"
hotspots = 2
load = 0.675
injection = { type = "budget" }
max_outstanding = 8
[[pft]]
name = "paper"
[[cc]]
name = "ib"
kind = "ibcc"
ccti_timer = 20
"#,
    );
    let out = d.join("out");
    let table = ok(&[
        "compare",
        sc.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(table.contains("receive rates (Gb/s)"), "{table}");
    assert!(table.contains("IBCC w=15"), "{table}");
    let csv = std::fs::read_to_string(out.join("compare.csv")).unwrap();
    let rows: Vec<Vec<&str>> = csv.lines().map(|l| l.split(',').collect()).collect();
    let col = |name: &str| rows[0].iter().position(|c| *c == name).unwrap();
    let configs: Vec<&str> = rows[1..].iter().map(|r| r[0]).collect();
    assert_eq!(configs, ["isolated", "off", "paper", "ib"]);
    for r in &rows[1..] {
        for c in ["rx_hot", "rx_nonhot", "rx_total"] {
            let v: f64 = r[col(c)].parse().unwrap_or_else(|_| panic!("{c} in {r:?}"));
            assert!(v > 0.0 && v <= 20.0 * 32.0, "{c} = {v}");
        }
    }
    // The isolated run has no hot-spot traffic: hot spots receive what the others do.
    let iso = &rows[1];
    let (h, n): (f64, f64) = (
        iso[col("rx_hot")].parse().unwrap(),
        iso[col("rx_nonhot")].parse().unwrap(),
    );
    assert!(h < 3.0 * n, "isolated: hot {h} vs others {n}");
    // seed 004's columns: no C node sends in the isolated run, so no congestion period;
    // IB CC marks hot-spot messages, no scheme without marking does
    assert_eq!(iso[col("hot_link_util")], "");
    for r in &rows[2..] {
        let util: f64 = r[col("hot_link_util")].parse().unwrap();
        assert!(util > 0.1 && util < 1.1, "hot_link_util {util}");
        assert!(r[col("cold_lat_peak")].parse::<f64>().unwrap() > 0.0);
    }
    let marked = |r: &Vec<&str>| r[col("marked_hot_frac")].parse::<f64>().unwrap();
    assert_eq!(marked(&rows[2]), 0.0);
    assert!(marked(&rows[4]) > 0.0, "IB CC marked no hot message");
    assert!(table.contains("cold/hot (seed 004)"), "{table}");
    assert!(out.join("isolated/coldhot.csv").is_file());
    let s = json(&out.join("ib").join("summary.json"));
    assert_eq!(s["cc"]["kind"], "ibcc");
    assert!(s["improvement"]["rx_nonhot"].as_f64().unwrap() > 0.0);

    let one = d.join("one");
    let line = ok(&[
        "run",
        sc.to_str().unwrap(),
        "--out",
        one.to_str().unwrap(),
        "--cc",
        "ib",
        "--quiet",
    ]);
    assert!(line.contains("run `ib` (IBCC"), "{line}");
    assert_eq!(json(&one.join("summary.json"))["run"], "ib");
}

/// `--set` gives exactly the run of a file edited the same way, and a different one from
/// the file as it is.
#[test]
fn set_values_run_as_an_edited_file() {
    let sm = smoke();
    let text = std::fs::read_to_string(&sm).unwrap();
    let dir = tmp("set");
    std::fs::create_dir_all(&dir).unwrap();
    let edited = write(
        &dir,
        "edited.toml",
        &text.replacen("seed = 7", "seed = 3", 1).replacen(
            "mtu_bytes = 1024",
            "mtu_bytes = 512",
            1,
        ),
    );
    let (a, b, c) = (dir.join("a"), dir.join("b"), dir.join("c"));
    let run = |file: &Path, out: &Path, sets: &[&str]| {
        let mut args = vec![
            "run",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--pft",
            "off",
            "--quiet",
        ];
        for s in sets {
            args.extend(["--set", s]);
        }
        ok(&args);
        let mut v = json(&out.join("summary.json"));
        strip_wall(&mut v);
        v
    };
    let set = run(&sm, &a, &["seed=3", "network.mtu_bytes=512"]);
    assert_eq!(set["seed"], 3);
    let file = run(&edited, &b, &[]);
    let plain = run(&sm, &c, &[]);
    assert_eq!(set["throughput"], file["throughput"]);
    assert_eq!(set["victims"], file["victims"]);
    assert_ne!(set["victims"], plain["victims"], "--set changed nothing");
    assert_eq!(
        std::fs::read(a.join("nodes.csv")).unwrap(),
        std::fs::read(b.join("nodes.csv")).unwrap()
    );
}

#[test]
fn messages_refused_per_nic_and_in_all() {
    // 6 NICs with a send queue of one message at load 0.9 into a hot spot: the NICs refuse
    // messages; nodes.csv has each NIC's count and summary.json their sum
    let d = tmp("refused");
    std::fs::create_dir_all(&d).unwrap();
    let s = d.join("s.toml");
    std::fs::write(
        &s,
        "name = \"refused\"\nseed = 3\n[cycles]\nmax = 20000\n[network]\n\
         topology = { kind = \"single_switch\", nodes = 6 }\nbuffer_flits = 16\n\
         eject_buffer_flits = 16\nmtu_bytes = 256\nsend_queue_msgs = 1\n[workload]\n\
         kind = \"hotspot\"\nhotspots = 1\nfrac_c = 0.5\nfrac_v = 0.5\nload = 0.9\n\
         msg_bytes = 256\n",
    )
    .unwrap();
    let out = d.join("o");
    ok(&[
        "run",
        s.to_str().unwrap(),
        "--pft",
        "off",
        "--out",
        out.to_str().unwrap(),
        "--quiet",
    ]);
    let csv = std::fs::read_to_string(out.join("nodes.csv")).unwrap();
    let mut lines = csv.lines();
    let col = lines
        .next()
        .unwrap()
        .split(',')
        .position(|c| c == "messages_refused")
        .expect("the column");
    let per: Vec<u64> = lines
        .map(|l| l.split(',').nth(col).unwrap().parse().unwrap())
        .collect();
    assert_eq!(per.len(), 6);
    let total: u64 = per.iter().sum();
    assert!(total > 0, "nothing refused: {per:?}");
    assert_eq!(json(&out.join("summary.json"))["messages_refused"], total);
}

/// `series.csv` names the scheme's probe columns even when the run is shorter than one
/// `timeseries.period` (no row): the header does not depend on the run's length.
#[test]
fn a_run_shorter_than_one_period_keeps_the_probe_columns() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let sc = root.join("scenarios/mvcm-hotspot.toml");
    let head = |period: &str, name: &str| {
        let out = tmp(name);
        ok(&[
            "run",
            sc.to_str().unwrap(),
            "--cc",
            "mvcm",
            "--quiet",
            "--set",
            "cycles.max=1000",
            "--set",
            "cycles.warmup=0",
            "--set",
            &format!("timeseries.period={period}"),
            "--out",
            out.to_str().unwrap(),
        ]);
        let csv = std::fs::read_to_string(out.join("series.csv")).unwrap();
        (header(&out.join("series.csv")), csv.lines().count())
    };
    let (short, rows_short) = head("2000", "series_short");
    let (long, rows_long) = head("200", "series_long");
    assert_eq!(rows_short, 1, "a header and no row");
    assert!(rows_long > 1);
    assert!(short.contains("reduced_flows"), "{short}");
    assert_eq!(short, long);
}
