//! The bad-input catalogue (docs/bad-inputs.md), rows `SX-*` (`pftsim` arguments and output
//! directories): one case per row, run on the real binary in a fresh directory, checked
//! like every row (`bad_inputs.rs` says how); `catalogue_matches_cases` keeps the doc's
//! rows and these cases in step.

const PFTSIM: &str = env!("CARGO_BIN_EXE_pftsim");

use pft_test_support::catalogue::*;
use pft_test_support::{case_root, catalogue};
use std::process::Command;

/// The manifest of an earlier, finished `compare` (SX-17).
const EARLIER_MANIFEST: &str = r#"{
  "tool": "pftsim 0.1.0",
  "command": "compare",
  "argv": ["pftsim", "compare", "s.toml", "--out", "o"],
  "scenario": "s.toml",
  "scenario_sha256": "0",
  "runs": ["off", "p"],
  "files": ["compare.json", "p/summary.json"],
  "started_unix": 1700000000,
  "finished": true
}
"#;

// ---------------------------------------------------------------------------------------
// pftsim arguments and outputs

/// A uniform workload: no isolated baseline (SX-26).
const UNIFORM: &str = r#"[cycles]
max = 2000
[network]
topology = { kind = "single_switch", nodes = 6 }
buffer_flits = 128
eject_buffer_flits = 128
mtu_bytes = 1024
[workload]
kind = "uniform"
load = 0.5
msg_bytes = 1024
"#;

/// A tiny open-loop scenario that finishes in milliseconds (two PFT entries; checked by
/// `tiny_scenario_is_valid`).
const TINY: &str = r#"name = "tiny"
seed = 3
[cycles]
max = 2000
[timeseries]
period = 10
[network]
topology = { kind = "single_switch", nodes = 6 }
buffer_flits = 128
eject_buffer_flits = 128
mtu_bytes = 1024
[workload]
kind = "hotspot"
hotspots = 1
frac_c = 0.5
frac_v = 0.5
load = 0.9
msg_bytes = 1024
[[pft]]
name = "p"
[[pft]]
name = "q"
det_mode = "ft"
thr_mode = "fi"
th_enter = 40
th_escape = 20
"#;

/// TINY with an MVCM, an IB CC and a DCQCN entry beside its PFT entry (SX-39..48, `pftsim
/// verilog`).
fn with_cc() -> String {
    // (TINY's first PFT entry only; MVCM validates at CIOQ outputs and learns from ACKs)
    let head = &TINY[..TINY
        .find("[[pft]]\nname = \"q\"")
        .expect("TINY's second entry")];
    head.replace(
        "mtu_bytes = 1024\n",
        "mtu_bytes = 1024\nspeedup = 2\nack_bytes = 22\n",
    ) + "[[cc]]\nname = \"m\"\nkind = \"mvcm\"\nk = 2\nn = 1\n\
           [[cc]]\nname = \"i\"\nkind = \"ibcc\"\n\
           [[cc]]\nname = \"d\"\nkind = \"dcqcn\"\n"
}

/// TINY on 64 NICs for 10^10 cycles: about 6 * 10^11 node-cycles, hours on any machine.
fn huge() -> String {
    TINY.replace("max = 2000", "max = 10_000_000_000")
        .replace("nodes = 6 }", "nodes = 64 }")
}

fn cli_cases() -> Vec<Case> {
    let p = PFTSIM;
    vec![
        case("SX-01", p, &[]),
        case("SX-02", p, &["frobnicate"]),
        case("SX-03", p, &["run", "s.toml", "--out", "o", "--bogus"]).file("s.toml", TINY),
        case("SX-04", p, &["run", "s.toml"]).file("s.toml", TINY),
        case("SX-05", p, &["run", "s.toml", "--out", "o", "--jobs", "0"])
            .also(&["run", "s.toml", "--out", "o", "--jobs", "-3"])
            .also(&["compare", "s.toml", "--out", "o", "--jobs", "257"])
            .file("s.toml", TINY),
        case(
            "SX-06",
            p,
            &["run", "s.toml", "--out", "o", "--jobs", "two"],
        )
        .file("s.toml", TINY),
        case(
            "SX-07",
            p,
            &["run", "s.toml", "--out", "o", "--pft", "nosuch"],
        )
        .file("s.toml", TINY),
        case("SX-08", p, &["run", "nope.toml", "--out", "o"]).also(&["check", "nope.toml"]),
        case("SX-09", p, &["check", "sdir"]).dir("sdir"),
        case("SX-10", p, &["run", "s.toml", "--out", "afile", "--quiet"])
            .file("s.toml", TINY)
            .file("afile", "keep me\n"),
        case(
            "SX-11",
            p,
            &["run", "s.toml", "--out", "afile/o", "--quiet"],
        )
        .file("s.toml", TINY)
        .file("afile", "keep me\n"),
        // a run that fails in its middle, over the complete output of an earlier command
        case("SX-12", p, &["run", "s.toml", "--out", "o", "--quiet"])
            .file("s.toml", pft_test_support::scenario::deadlocking(TINY))
            .dir("o/isolated")
            .file("o/summary.json", "{}\n")
            .file("o/isolated/summary.json", "{}\n")
            .left(|d| {
                let o = d.join("o");
                assert!(
                    !o.join("summary.json").exists(),
                    "the old summary.json is still there"
                );
                assert!(
                    !o.join("isolated/summary.json").exists(),
                    "the old isolated/summary.json is still there"
                );
            }),
        // an output that cannot be written: refused before any work (this used to fail
        // after the run, with the earlier files written)
        case("SX-13", p, &["run", "s.toml", "--out", "o", "--quiet"])
            .file("s.toml", TINY)
            .dir("o/c_timeseries.svg")
            .left(|d| {
                let o = d.join("o");
                for f in ["nodes.csv", "summary.json", "manifest.json"] {
                    assert!(!o.join(f).exists(), "{f} written although refused");
                }
            }),
        // compare: a run's directory is a file; refused before any work, the earlier
        // command's files untouched
        case(
            "SX-14",
            p,
            &["compare", "s.toml", "--out", "o", "--quiet", "--jobs", "1"],
        )
        .file("s.toml", TINY)
        .dir("o/off")
        .dir("o/p")
        .file("o/compare.json", "{}\n")
        .file("o/off/summary.json", "{}\n")
        .file("o/p/summary.json", "{}\n")
        .file("o/q", "not a directory\n")
        .left(|d| {
            let o = d.join("o");
            for f in ["compare.json", "off/summary.json", "p/summary.json"] {
                assert_eq!(
                    std::fs::read_to_string(o.join(f)).unwrap(),
                    "{}\n",
                    "{f} changed"
                );
            }
            for f in ["compare.csv", "manifest.json", "off/nodes.csv"] {
                assert!(!o.join(f).exists(), "{f} written although refused");
            }
        }),
        // over an earlier finished `compare`: its files are moved aside and the user is told
        case("SX-17", p, &["run", "s.toml", "--out", "o", "--quiet"])
            .file("s.toml", TINY)
            .dir("o/p")
            .file("o/manifest.json", EARLIER_MANIFEST)
            .file("o/compare.json", "{}\n")
            .file("o/p/summary.json", "{}\n")
            .file("o/mine.txt", "a user's own file\n")
            .left(|d| {
                let o = d.join("o");
                let aside = o.join(".previous-1700000000");
                for f in ["compare.json", "p/summary.json", "manifest.json"] {
                    assert!(aside.join(f).is_file(), "{f} was not moved aside");
                }
                assert!(
                    !o.join("compare.json").exists(),
                    "compare.json left in place"
                );
                assert_eq!(
                    std::fs::read_to_string(o.join("mine.txt")).unwrap(),
                    "a user's own file\n"
                );
                let m = std::fs::read_to_string(o.join("manifest.json")).unwrap();
                assert!(
                    m.contains("\"command\": \"run\"") && m.contains("\"finished\": true"),
                    "{m}"
                );
            }),
        // a second writer into the same directory
        case("SX-18", p, &["compare", "s.toml", "--out", "o", "--quiet"])
            .file("s.toml", TINY)
            .dir("o")
            .locked("o/.pftsim.lock"),
        // an output that is a link to the input
        case("SX-19", p, &["run", "s.toml", "--out", "o", "--quiet"])
            .file("s.toml", TINY)
            .dir("o")
            .symlink("o/summary.json", "../s.toml"),
        case("SX-20", p, &["run", "s.toml", "--out", "o", "--quiet"])
            .file("s.toml", TINY)
            .symlink("o", "missing/dir"),
        case(
            "SX-21",
            p,
            &["run", "s.toml", "--out", "/dev/null", "--quiet"],
        )
        .file("s.toml", TINY),
        // in /dev, the system's devices (as root a run wrote its files among the device
        // nodes), also through a link
        case("SX-36", p, &["run", "s.toml", "--out", "/dev", "--quiet"])
            .file("s.toml", TINY)
            .also(&["run", "s.toml", "--out", "/dev/pft-sx36", "--quiet"])
            .also(&["run", "s.toml", "--out", "d/x", "--quiet"])
            .symlink("d", "/dev"),
        case("SX-37", p, &["run", "s.toml", "--out", "/", "--quiet"]).file("s.toml", TINY),
        // `check`'s own build and calibration out of memory: it said to use `pftsim check`
        case(
            "SX-38",
            "bash",
            &["-c", "ulimit -v 60000 && exec \"$PFTSIM\" check s.toml"],
        )
        .env("PFTSIM", PFTSIM)
        .file(
            "s.toml",
            "[cycles]\nmax = 1000\n[network]\ntopology = { kind = \"torus\", k = 32, n = 3 }\n\
             vcs = 2\n[workload]\nkind = \"uniform\"\nload = 0.1\nmsg_bytes = 1024\n",
        ),
        // a run estimated at hours: refused without --yes, before any output
        case("SX-22", p, &["compare", "s.toml", "--out", "o", "--quiet"])
            .file("s.toml", huge())
            .also(&["run", "s.toml", "--out", "o", "--quiet"]),
        // an open-loop overload (its source queues grow) under a 4 GB address-space
        // limit: refused before any output, the growth per cycle extrapolated
        case(
            "SX-30",
            "bash",
            &[
                "-c",
                "ulimit -v 4000000 && exec \"$PFTSIM\" run s.toml --pft off --out o --quiet",
            ],
        )
        .env("PFTSIM", PFTSIM)
        .file("s.toml", TINY.replace("max = 2000", "max = 2_000_000_000")),
        // the same with --yes under a 300 MB limit: the allocation fails within seconds,
        // and the manifest says "failed" with the reason (it used to stay "running")
        case(
            "SX-31",
            "bash",
            &[
                "-c",
                "ulimit -v 300000 && exec \"$PFTSIM\" run s.toml --pft off --out o --quiet --yes",
            ],
        )
        .env("PFTSIM", PFTSIM)
        .file("s.toml", TINY.replace("max = 2000", "max = 2_000_000_000"))
        .left(|d| {
            let m = std::fs::read_to_string(d.join("o/manifest.json")).unwrap();
            assert!(m.contains("\"status\": \"failed\""), "{m}");
            assert!(m.contains("\"finished\": false"), "{m}");
            assert!(m.contains("out of memory: an allocation of"), "{m}");
            assert!(!d.join("o/summary.json").exists(), "summary.json written");
        }),
        case("SX-15", p, &["check", "s.toml"])
            .file("s.toml", TINY)
            .stdout_full(),
        // a motif trace over the operation limit: the key with its prefix and its most
        // (it named `iterations` and the limit in operations only)
        case("SX-34", p, &["trace-write", "s.toml", "--out", "t.txt"]).file(
            "s.toml",
            "[cycles]\nmax = 2000000\n[network]\ntopology = { kind = \"single_switch\", nodes = 64 }\n\
             [workload]\nkind = \"motif\"\nmotif = \"alltoall\"\niterations = 100000\n",
        ),
        case("SX-35", p, &["trace-write", "s.toml", "--out", "/dev/stdout"]).file(
            "s.toml",
            "[cycles]\nmax = 2000\n[network]\ntopology = { kind = \"single_switch\", nodes = 4 }\n\
             [workload]\nkind = \"motif\"\nmotif = \"alltoall\"\niterations = 1\n",
        ),
        case("SX-33", p, &["--help"])
            .stdout_full()
            .also(&["run", "--help"]),
        case("SX-32", p, &["check", "s.toml"])
            .file("s.toml", TINY)
            .stdout_closed(),
        case(
            "SX-16",
            p,
            &["run", "s.toml", "--out", "o", "--pft", "p", "--pft", "q"],
        )
        .file("s.toml", TINY),
        // sweeps (docs/sweeps.md)
        case(
            "SX-23",
            p,
            &["sweep", "s.toml", "--grid", "g.toml", "--out", "o"],
        )
        .file("s.toml", TINY)
        .file("g.toml", "[[axis]]\nkey = \"pft.m\"\nvalues = [18, 32]\n"),
        case(
            "SX-24",
            p,
            &["sweep", "s.toml", "--grid", "g.toml", "--out", "o"],
        )
        .file("s.toml", TINY)
        .file("g.toml", "[[axis]]\nkey = \"pft.m\"\nvalues = 18\n"),
        case("SX-25", p, &["sweep", "--collect", "--out", "o"]).dir("o"),
        case(
            "SX-26",
            p,
            &["run", "s.toml", "--out", "o", "--pft", "isolated"],
        )
        .file("s.toml", UNIFORM),
        case(
            "SX-27",
            p,
            &["run", "s.toml", "--out", "o", "--engine", "verilator"],
        )
        // `check` refuses it as `run` does (it said ok)
        .also(&["check", "s.toml", "--set", "engine=\"verilator\""])
        .file("s.toml", TINY)
        .env("PFT_VERILOG", "missing.v"),
        case(
            "SX-28",
            p,
            &["run", "s.toml", "--out", "o", "--engine", "verilog"],
        )
        .file("s.toml", TINY),
        case(
            "SX-29",
            p,
            &["sweep", "s.toml", "--grid", "g.toml", "--out", "o"],
        )
        .file("s.toml", TINY)
        .file(
            "g.toml",
            "[[axis]]\nkey = \"pft.m\"\nvalues = [32, 18, 40]\n",
        ),
        case("SX-39", p, &["verilog", "s.toml", "--cc", "nope", "--out", "o.v"])
            .file("s.toml", with_cc()),
        case("SX-40", p, &["verilog", "s.toml", "--cc", "p", "--out", "o.v"])
            .file("s.toml", with_cc()),
        case(
            "SX-41",
            p,
            &["verilog", "s.toml", "--cc", "m", "--flows", "3", "--out", "o.v"],
        )
        .file("s.toml", with_cc()),
        case(
            "SX-42",
            p,
            &["verilog", "s.toml", "--cc", "i", "--nic", "6", "--out", "o.v"],
        )
        .file("s.toml", with_cc()),
        case(
            "SX-43",
            p,
            &["verilog", "s.toml", "--cc", "i", "--flows", "4", "--out", "o.v"],
        )
        .file("s.toml", with_cc()),
        case("SX-44", p, &["verilog", "s.toml", "--cc", "m", "--out", "s.toml"])
            .file("s.toml", with_cc()),
        case(
            "SX-45",
            p,
            &["verilog", "s.toml", "--cc", "m", "--nic", "0", "--out", "o.v"],
        )
        .file("s.toml", with_cc()),
        case("SX-46", p, &["verilog", "s.toml", "--cc", "m", "--out", "o.v"])
            .file("s.toml", with_cc().replace("kind = \"mvcm\"\n", "kind = \"mvcm\"\nwarm = false\n")),
        case("SX-47", p, &["verilog", "s.toml", "--cc", "d", "--out", "o.v"])
            .file("s.toml", with_cc().replace("kind = \"dcqcn\"\n", "kind = \"dcqcn\"\nrai_mbps = 1.0\n")),
        case(
            "SX-48",
            p,
            &["verilog", "s.toml", "--cc", "m", "--top", "9x", "--out", "o.v"],
        )
        .file("s.toml", with_cc()),
        // one configuration starves its run: the other runs' results are written (they
        // used to be dropped, leaving only the manifest)
        case("SX-49", p, &["compare", "s.toml", "--out", "o", "--quiet"])
            .file("s.toml", STARVING)
            .left(|d| {
                for f in ["off/summary.json", "mild/summary.json", "mild/nodes.csv", "compare.json"] {
                    assert!(d.join("o").join(f).is_file(), "o/{f} not written");
                }
                assert!(!d.join("o/blocking").exists(), "the failed run left a directory");
                let csv = std::fs::read_to_string(d.join("o/compare.csv")).unwrap();
                let rows: Vec<&str> = csv.lines().skip(1).map(|l| l.split(',').next().unwrap()).collect();
                assert_eq!(rows, ["off", "mild"], "{csv}");
                let m = manifest_json(&d.join("o/manifest.json"));
                assert_eq!(m["status"], "failed", "{m}");
                assert_eq!(m["finished"], false, "{m}");
                let failed = m["failed_runs"].as_array().unwrap();
                assert_eq!(failed.len(), 1, "{m}");
                assert!(failed[0].as_str().unwrap().starts_with("run `blocking` failed in cycle"), "{m}");
            }),
        // every run deadlocks: each named, the first one's dump in full, the manifest holds
        // both dumps
        case("SX-50", p, &["compare", "s.toml", "--out", "o", "--quiet", "--yes"])
            .file(
                "s.toml",
                pft_test_support::scenario::deadlocking(pft_test_support::scenario::TINY_HOTSPOT),
            )
            .left(|d| {
                let m = manifest_json(&d.join("o/manifest.json"));
                assert_eq!(m["status"], "failed", "{m}");
                let failed = m["failed_runs"].as_array().unwrap();
                assert_eq!(failed.len(), 2, "{m}");
                for (f, run) in failed.iter().zip(["off", "p"]) {
                    let f = f.as_str().unwrap();
                    assert!(f.starts_with(&format!("run `{run}` failed in cycle")), "{m}");
                    assert!(f.contains("\n  switch 0 input 0: holds"), "{m}");
                }
                assert!(!d.join("o/compare.csv").exists(), "a table of no run");
            }),
    ]
}

/// The manifest at `p`, parsed (SX-49, SX-50).
fn manifest_json(p: &std::path::Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
}

/// A hot-spot scenario whose `[[pft]]` entry `blocking` (P(send) = 0 once Congested)
/// starves a NIC within a few thousand cycles; `off` and `mild` finish (SX-49).
const STARVING: &str = r#"name = "starve"
seed = 1
isolated = false
[cycles]
max = 10000
[network]
topology = { kind = "three_stage", radix = 8 }
buffer_flits = 64
eject_buffer_flits = 64
voq = true
eject_rate = 0.68
deadlock_cycles = 1000
[workload]
kind = "hotspot"
hotspots = 2
frac_c = 0.8
frac_v = 0.2
frac_b = 0.0
load = 0.675
msg_bytes = 4096
injection = { type = "budget" }
max_outstanding = 8
[[pft]]
name = "mild"
th_enter = 40
th_escape = 48
m = 20
[[pft]]
name = "blocking"
th_enter = 20
th_escape = 48
m = 31
"#;

#[test]
fn catalogue_matches_cases() {
    catalogue!().matches_cases(&["SX"], cli_cases().iter().map(|c| c.id));
}

#[test]
fn tiny_scenario_is_valid() {
    let d = case_dir(&case_root!(), "tiny");
    std::fs::write(d.join("t.toml"), TINY).unwrap();
    let o = Command::new(PFTSIM)
        .args(["check", "t.toml"])
        .current_dir(&d)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

#[test]
fn pftsim_arguments_and_outputs() {
    let cat = catalogue!();
    for c in cli_cases() {
        cat.run(&c);
    }
}
