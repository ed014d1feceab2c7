//! The bad-input catalogue (docs/bad-inputs.md), rows `SP-*`: nothing outside the result
//! directory, ever (issue 36). Plans and manifests that were copied, hand-edited or damaged,
//! a command whose output holds its own input, a resume for another engine, `submit.sh
//! --tasks` in any position, and a resume whose later run could not write its files. One
//! case per row, run on the real binary in a fresh directory, checked like every row (exit
//! status, no panic, the row's message fragments, what is left on disk).
//! `catalogue_matches_cases` keeps the doc's SP rows and these cases in step.

use pft_test_support::catalogue::*;
// S: a 6-NIC hot-spot scenario of 2000 cycles, one `[[pft]]` entry `p`.
// G: one axis of two values: 2 points and one `off` run (tasks 0, 1, 2).
use pft_test_support::scenario::{GRID_M_18_22 as G, TINY_HOTSPOT as S};
use pft_test_support::{case_root, catalogue};
use std::path::Path;

const PFTSIM: &str = env!("CARGO_BIN_EXE_pftsim");

/// Two routers of three NICs each, as a BookSim `anynet` file.
const TOPO: &str = "router 0 node 0 node 1 node 2 router 1\nrouter 1 node 3 node 4 node 5\n";

/// `S` on the topology file at `path` (relative to the scenario's directory).
fn with_topology_file(path: &str) -> String {
    S.replace(
        r#"topology = { kind = "single_switch", nodes = 6 }"#,
        &format!(r#"topology = {{ kind = "file", path = "{path}" }}"#),
    )
}

/// A file outside the sweep directory that a plan or manifest names.
const VICTIM: &str = "a user's own file\n";

/// The plan `pftsim sweep --emit` writes for `S` and `G` (made once, in a scratch
/// directory of its own), as JSON.
fn emitted_plan() -> serde_json::Value {
    static PLAN: std::sync::OnceLock<serde_json::Value> = std::sync::OnceLock::new();
    PLAN.get_or_init(|| {
        let d = case_dir(&case_root!(), "plan-source");
        std::fs::write(d.join("s.toml"), S).unwrap();
        std::fs::write(d.join("g.toml"), G).unwrap();
        let st = std::process::Command::new(PFTSIM)
            .args([
                "sweep", "s.toml", "--grid", "g.toml", "--out", "o", "--emit", "slurm", "--quiet",
            ])
            .current_dir(&d)
            .output()
            .unwrap();
        assert!(st.status.success(), "{st:?}");
        serde_json::from_str(&std::fs::read_to_string(d.join("o/sweep.json")).unwrap()).unwrap()
    })
    .clone()
}

/// The emitted plan changed by `edit` and sealed again with a matching digest (as the
/// library computes it), so that only the path checks can refuse it.
fn resealed(edit: fn(&mut serde_json::Value)) -> String {
    let mut v = emitted_plan();
    edit(&mut v);
    let plan: pft_sim::scenario::sweep::Plan = serde_json::from_value(v).unwrap();
    plan.to_file_text().unwrap()
}

/// The emitted plan without its digest (as an older pftsim wrote it).
fn without_digest() -> String {
    let mut v = emitted_plan();
    v.as_object_mut()
        .unwrap()
        .remove("digest")
        .expect("a digest");
    serde_json::to_string_pretty(&v).unwrap() + "\n"
}

/// `victim.txt` beside `o/` is as it was, and nothing else appeared outside `o/`.
fn nothing_outside(d: &Path) {
    assert_eq!(
        std::fs::read_to_string(d.join("victim.txt")).unwrap(),
        VICTIM,
        "the file outside the sweep directory changed"
    );
    for gone in ["escaped", "runs", "points"] {
        assert!(!d.join(gone).exists(), "{gone} was created outside o/");
    }
}

/// The manifest an earlier `run --out o` left, its `files` list being `files` (JSON
/// strings, comma-separated).
fn earlier_run_manifest(files: &str) -> String {
    format!(
        r#"{{
  "tool": "pftsim 0.1.0",
  "command": "run",
  "argv": ["pftsim", "run", "s.toml", "--out", "o"],
  "scenario": "s.toml",
  "scenario_sha256": "0",
  "runs": ["p"],
  "files": [{files}],
  "started_unix": 1700000000,
  "finished": true
}}
"#
    )
}

/// No run of the sweep started.
fn no_run(d: &Path) {
    nothing_outside(d);
    assert!(!d.join("o/runs").exists(), "a run was started");
}

/// A stand-in `sbatch` that logs its arguments (one call per line) and prints them.
const SBATCH: &str = "#!/bin/bash\necho \"sbatch $*\" | tee -a \"$SBATCH_LOG\"\n";

/// Plans a sweep into `o` (`--emit slurm`), puts `plan.json` in place of its plan, and
/// resumes it.
const RESUME: &str = concat!(
    "\"$PFTSIM\" sweep s.toml --grid g.toml --out o --emit slurm --quiet >/dev/null || exit 90; ",
    "cp plan.json o/sweep.json && \"$PFTSIM\" sweep --resume --out o --quiet"
);

/// `RESUME` with `plan2.json`.
const RESUME_2: &str = concat!(
    "\"$PFTSIM\" sweep s.toml --grid g.toml --out o --emit slurm --quiet >/dev/null || exit 90; ",
    "cp plan2.json o/sweep.json && \"$PFTSIM\" sweep --resume --out o --quiet"
);

/// A `RESUME` case whose plan is `plan` (`resealed`): no run may start.
fn resume_with(id: &'static str, plan: String) -> Case {
    case(id, "bash", &["-c", RESUME])
        .env("PFTSIM", PFTSIM)
        .file("s.toml", S)
        .file("g.toml", G)
        .file("victim.txt", VICTIM)
        .file("plan.json", plan)
        .left(no_run)
}

fn cases() -> Vec<Case> {
    vec![
        // a plan naming a point file outside the sweep directory (digest made to match):
        // the resume used to overwrite it
        resume_with(
            "SP-01",
            resealed(|v| {
                let text = v["files"]["points/p0000-s3.toml"].clone();
                v["files"]["../victim.txt"] = text;
            }),
        ),
        // a plan naming a run directory outside the sweep directory: the resume used to
        // create a whole run there
        resume_with(
            "SP-02",
            resealed(|v| v["units"][0]["dir"] = "../escaped".into()),
        ),
        // a plan whose run directory is the sweep's points/ (or runs/ itself, or hides a
        // `.`): the resume used to write a run among the point files
        resume_with(
            "SP-11",
            resealed(|v| v["units"][0]["dir"] = "points".into()),
        )
        .also(&["-c", RESUME_2])
        .file("plan2.json", resealed(|v| v["units"][0]["dir"] = "runs".into())),
        resume_with(
            "SP-12",
            resealed(|v| v["units"][0]["dir"] = "runs/./p0000-s3".into()),
        ),
        // a plan whose point file is the sweep's job list: the resume used to write the
        // point's text over it
        resume_with(
            "SP-13",
            resealed(|v| {
                let text = v["files"]["points/p0000-s3.toml"].clone();
                v["files"]["jobs.txt"] = text;
                v["units"][0]["scenario"] = "jobs.txt".into();
            }),
        )
        .left(|d: &Path| {
            no_run(d);
            let jobs = std::fs::read_to_string(d.join("o/jobs.txt")).unwrap();
            assert!(jobs.contains("pftsim"), "jobs.txt was overwritten: {jobs}");
        }),
        // two runs of a plan in one directory: the second used to move the first aside
        resume_with(
            "SP-14",
            resealed(|v| {
                let first = v["units"][0]["dir"].clone();
                v["units"][1]["dir"] = first;
            }),
        ),
        // a hand-edited plan (digest not updated): refused, saying how to re-plan
        case(
            "SP-03",
            "bash",
            &["-c", concat!(
                "\"$PFTSIM\" sweep s.toml --grid g.toml --out o --emit slurm --quiet >/dev/null || exit 90; ",
                "sed -i 's/\"run\": \"p\"/\"run\": \"off\"/' o/sweep.json && \"$PFTSIM\" sweep --resume --out o --quiet"
            )],
        )
        .env("PFTSIM", PFTSIM)
        .file("s.toml", S)
        .file("g.toml", G)
        .file("victim.txt", VICTIM)
        .left(no_run),
        // a plan without a digest (an older pftsim's, or edited)
        case(
            "SP-04",
            "bash",
            &["-c", concat!(
                "\"$PFTSIM\" sweep s.toml --grid g.toml --out o --emit slurm --quiet >/dev/null || exit 90; ",
                "cp plan.json o/sweep.json && \"$PFTSIM\" sweep --resume --out o --quiet"
            )],
        )
        .env("PFTSIM", PFTSIM)
        .file("s.toml", S)
        .file("g.toml", G)
        .file("victim.txt", VICTIM)
        .file("plan.json", without_digest())
        .left(no_run),
        // an earlier command's manifest naming a file through a link out of the directory:
        // the next command used to move the linked file aside into o/
        case("SP-05", PFTSIM, &["run", "s.toml", "--out", "o", "--quiet"])
            .file("s.toml", S)
            .file("victim.txt", VICTIM)
            .dir("o")
            .symlink("o/lnk", "..")
            .file("o/manifest.json", earlier_run_manifest(r#""lnk/victim.txt", "summary.json""#)),
        // an earlier command's manifest naming the lock: the next command moved its own
        // lock aside, letting a second command into the directory while it ran
        case("SP-18", PFTSIM, &["run", "s.toml", "--out", "o", "--quiet"])
            .file("s.toml", S)
            .dir("o")
            .file("o/manifest.json", earlier_run_manifest(r#""summary.json", ".pftsim.lock""#)),
        // `run --out .` inside a sweep directory, on the sweep's own point scenario: it used
        // to move the sweep's files aside, its input among them
        case(
            "SP-06",
            "bash",
            &["-c", concat!(
                "\"$PFTSIM\" sweep s.toml --grid g.toml --out o --emit slurm --quiet >/dev/null || exit 90; ",
                "cd o && \"$PFTSIM\" run points/p0000-s3.toml --pft p --out . --quiet"
            )],
        )
        .env("PFTSIM", PFTSIM)
        .file("s.toml", S)
        .file("g.toml", G)
        .left(|d| {
            let o = d.join("o");
            assert!(o.join("points/p0000-s3.toml").is_file(), "the input moved");
            assert!(o.join("sweep.json").is_file(), "the plan moved");
            let aside = std::fs::read_dir(&o)
                .unwrap()
                .flatten()
                .filter(|e| e.file_name().to_string_lossy().starts_with(".previous-"))
                .count();
            assert_eq!(aside, 0, "something was moved aside");
            assert!(!o.join("summary.json").exists(), "the run ran");
        }),
        // --resume --engine for a plan of another engine: it used to run the plan's engine
        case(
            "SP-07",
            "bash",
            &["-c", concat!(
                "\"$PFTSIM\" sweep s.toml --grid g.toml --out o --emit slurm --quiet >/dev/null || exit 90; ",
                "\"$PFTSIM\" sweep --resume --out o --engine rtl --quiet"
            )],
        )
        .env("PFTSIM", PFTSIM)
        .file("s.toml", S)
        .file("g.toml", G)
        .file("victim.txt", VICTIM)
        .left(no_run),
        // submit.sh --tasks=LIST, and --tasks after an sbatch option: each used to submit
        // the whole sweep (and pass --tasks=... to sbatch)
        case(
            "SP-08",
            "bash",
            &["-c", concat!(
                "\"$PFTSIM\" sweep s.toml --grid g.toml --out o --emit slurm --quiet >/dev/null || exit 90; ",
                "chmod +x bin/sbatch; export SBATCH_LOG=$PWD/sbatch.log; export PATH=$PWD/bin:$PATH; ",
                "bash o/submit.sh --tasks=0,2 && bash o/submit.sh --partition=long --tasks 1"
            )],
        )
        .env("PFTSIM", PFTSIM)
        .file("s.toml", S)
        .file("g.toml", G)
        .dir("bin")
        .file("bin/sbatch", SBATCH)
        .left(|d| {
            let log = std::fs::read_to_string(d.join("sbatch.log")).unwrap();
            let lines: Vec<&str> = log.lines().collect();
            assert_eq!(lines.len(), 2, "{log}");
            assert!(lines[0].contains("--array=0,2 "), "{log}");
            assert!(lines[1].contains("--array=1 ") && lines[1].contains("--partition=long"), "{log}");
            assert!(!log.contains("--tasks"), "--tasks went to sbatch: {log}");
        }),
        // --tasks given twice: refused before sbatch
        case(
            "SP-09",
            "bash",
            &["-c", concat!(
                "\"$PFTSIM\" sweep s.toml --grid g.toml --out o --emit slurm --quiet >/dev/null || exit 90; ",
                "chmod +x bin/sbatch; export SBATCH_LOG=$PWD/sbatch.log; export PATH=$PWD/bin:$PATH; ",
                "bash o/submit.sh --tasks 1 --tasks=2"
            )],
        )
        .env("PFTSIM", PFTSIM)
        .file("s.toml", S)
        .file("g.toml", G)
        .dir("bin")
        .file("bin/sbatch", SBATCH)
        .left(|d| assert!(!d.join("sbatch.log").exists(), "sbatch was called")),
        // a local resume whose second run cannot write its summary: it used to fail only
        // after the first run had run
        case(
            "SP-10",
            "bash",
            &["-c", concat!(
                "\"$PFTSIM\" sweep s.toml --grid g.toml --out o --emit slurm --quiet >/dev/null || exit 90; ",
                "mkdir -p o/runs/p0001-s3/summary.json && \"$PFTSIM\" sweep --resume --out o --quiet --jobs 1"
            )],
        )
        .env("PFTSIM", PFTSIM)
        .file("s.toml", S)
        .file("g.toml", G)
        .left(|d| {
            for r in ["p0000-s3", "g000-s3-off"] {
                assert!(
                    !d.join("o/runs").join(r).exists(),
                    "run {r} started before the refusal"
                );
            }
            let m: serde_json::Value = serde_json::from_str(
                &std::fs::read_to_string(d.join("o/manifest.json")).unwrap(),
            )
            .unwrap();
            assert_eq!(m["status"], "finished", "the refusal changed the manifest: {m}");
        }),
        // `trace-write --out` onto the scenario's own topology file: it used to write the
        // trace over it (only the scenario file itself was an input)
        case(
            "SP-15",
            PFTSIM,
            &["trace-write", "s.toml", "--out", "topo.net"],
        )
        .also(&["trace-write", "s.toml", "--out", "./topo.net"])
        // through a directory still to be made (it used to make `nd/` and write there)
        .also(&["trace-write", "s.toml", "--out", "nd/../topo.net"])
        .file("s.toml", with_topology_file("topo.net"))
        .file("topo.net", TOPO),
        // `run`, `compare` and `sweep` into a directory whose planned output is the
        // topology file the scenario reads: `run` and `compare` used to move it aside and
        // write theirs in its place
        case(
            "SP-16",
            PFTSIM,
            &["run", "r.toml", "--pft", "p", "--out", "o", "--quiet"],
        )
        .also(&["compare", "c.toml", "--out", "o", "--quiet"])
        .also(&["sweep", "w.toml", "--grid", "g.toml", "--out", "o", "--emit", "slurm", "--quiet"])
        .file("r.toml", with_topology_file("o/summary.json"))
        .file("c.toml", with_topology_file("o/compare.json"))
        .file("w.toml", with_topology_file("o/sweep.json"))
        .file("g.toml", G)
        .dir("o")
        .file("o/summary.json", TOPO)
        .file("o/compare.json", TOPO)
        .file("o/sweep.json", TOPO),
        // a sweep whose grid gives one point a topology file the sweep writes: only the
        // base scenario's files were inputs, so it moved the file aside as an earlier
        // output and that point's runs failed
        case(
            "SP-17",
            PFTSIM,
            &["sweep", "s.toml", "--grid", "v.toml", "--out", "o", "--quiet", "--jobs", "1"],
        )
        .file("s.toml", with_topology_file("topo.net"))
        .file("topo.net", TOPO)
        .file(
            "v.toml",
            "[[axis]]\nkey = \"network.topology.path\"\nvalues = [\"topo.net\", \"o/sweep.csv\"]\n",
        )
        .dir("o")
        .file("o/sweep.csv", TOPO),
    ]
}

#[test]
fn catalogue_matches_cases() {
    catalogue!().matches_cases(&["SP"], cases().iter().map(|c| c.id));
}

#[test]
fn paths_stay_in_the_result_directory() {
    let cat = catalogue!();
    for c in cases() {
        cat.run(&c);
    }
}

/// A device or a pipe as the scenario, a sweep's grid or a topology file is refused (a
/// device was read until memory ran out, a pipe with no writer blocked).
#[test]
fn devices_and_pipes_are_not_read() {
    let dir = std::env::temp_dir().join(format!("pftsim-devices-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let inputs = pft_test_support::device_and_pipe(&dir);
    let smoke = concat!(env!("CARGO_MANIFEST_DIR"), "/../scenarios/smoke.toml");
    let out = dir.join("o").display().to_string();
    for input in &inputs {
        let i = input.as_str();
        let topo = format!("network.topology={{ kind = \"file\", path = \"{i}\" }}");
        for args in [
            vec!["check", i],
            vec!["sweep", i, "--grid", smoke, "--out", &out],
            vec!["sweep", smoke, "--grid", i, "--out", &out],
            vec!["check", smoke, "--set", &topo],
        ] {
            let o = std::process::Command::new(PFTSIM)
                .args(&args)
                .output()
                .unwrap();
            let err = String::from_utf8_lossy(&o.stderr);
            assert_eq!(o.status.code(), Some(1), "{args:?}: {err}");
            assert!(err.contains("not a regular file"), "{args:?}: {err}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
