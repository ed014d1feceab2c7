//! The bad-input catalogue (docs/bad-inputs.md), rows `SK-*` (keys the scenario messages
//! name: quoted keys and table names, a line that is no key, a key too long to print, a
//! file too large to read) and `SR-*` (`pftsim trace-write`'s one file in another run's
//! result directory). One case per row, run on the real binary in a fresh directory,
//! checked like every row (exit status, no panic, the row's message fragments, nothing
//! left on disk); `catalogue_matches_cases` keeps the doc's rows and these cases in step.

use pft_test_support::catalogue::*;
use pft_test_support::{case_root, catalogue};
use std::process::Command;

const PFTSIM: &str = env!("CARGO_BIN_EXE_pftsim");

/// A small valid scenario: the SK cases change one thing in it.
const BASE: &str = r#"name = "bad"
seed = 1
[cycles]
max = 1000
[network]
topology = { kind = "single_switch", nodes = 4 }
buffer_flits = 64
[workload]
kind = "uniform"
load = 0.5
msg_bytes = 1024
"#;

/// BASE with `from` replaced by `to` (once; `from` must be there).
fn with(from: &str, to: &str) -> String {
    assert!(BASE.contains(from), "`{from}` is not in BASE");
    BASE.replacen(from, to, 1)
}

/// A scenario case: `check` and `run` fail the same way.
fn sk(id: &'static str, text: impl Into<Vec<u8>>) -> Case {
    case(id, PFTSIM, &["check", "s.toml", "--no-estimate"])
        .also(&["run", "s.toml", "--out", "o", "--quiet"])
        .file("s.toml", text)
}

/// The result directory `r` of a finished run, as pftsim leaves it: its lock file, a
/// manifest listing its files and a run directory, and one of those files.
fn result_dir(c: Case) -> Case {
    c.dir("r/iso")
        .file("r/.pftsim.lock", "")
        .file(
            "r/manifest.json",
            r#"{"tool": "pftsim 0.1.0", "command": "run", "files": ["nodes.csv", "iso/nodes.csv"], "dirs": ["runs/a"], "finished": true}"#,
        )
        .file("r/nodes.csv", "a run's results\n")
        .file("m.toml", MOTIF)
}

/// A two-rank motif whose trace `trace-write` writes.
const MOTIF: &str = r#"name = "m"
[cycles]
max = 1000
[network]
topology = { kind = "single_switch", nodes = 2 }
[workload]
kind = "motif"
motif = "allreduce"
iterations = 1
"#;

fn cases() -> Vec<Case> {
    let mut big = BASE.as_bytes().to_vec();
    big.resize(65 << 20, b'\n');
    vec![
        // a quoted key was named as the plain key above it (`seed`)
        sk("SK-01", with("seed = 1\n", "seed = 1\n\"x\" = 2\n")),
        // a quoted table name: its key was named without the table, with no range
        sk(
            "SK-02",
            with("[cycles]\nmax = 1000", "[\"cycles\"]\nmax = \"x\""),
        ),
        // a line that is no key was named as the key above it (`network.buffer_flits`)
        sk(
            "SK-03",
            with("buffer_flits = 64\n", "buffer_flits = 64\n@ = 1\n"),
        ),
        // a 100,000-character key was printed whole (a 100 kB line)
        sk(
            "SK-04",
            with(
                "seed = 1\n",
                &format!("seed = 1\n{} = 1\n", "q".repeat(100_000)),
            ),
        ),
        // a scenario over 64 MiB was read whole before it was parsed
        sk("SK-05", big),
        // a file a finished run lists (pftsim trace-write replaced it)
        result_dir(case(
            "SR-01",
            PFTSIM,
            &["trace-write", "m.toml", "--out", "r/nodes.csv"],
        ))
        .also(&["trace-write", "m.toml", "--out", "r/iso/nodes.csv"])
        .also(&["trace-write", "m.toml", "--out", "r/runs/a/x.txt"]),
        // the run's own manifest and lock, and what it moved aside (the manifest lists
        // none of them: they were replaced)
        result_dir(case(
            "SR-03",
            PFTSIM,
            &["trace-write", "m.toml", "--out", "r/manifest.json"],
        ))
        .dir("r/.previous-1")
        .also(&["trace-write", "m.toml", "--out", "r/.pftsim.lock"])
        .also(&["trace-write", "m.toml", "--out", "r/.previous-1/nodes.csv"]),
        // a new file in a directory another pftsim is writing
        result_dir(case(
            "SR-02",
            PFTSIM,
            &["trace-write", "m.toml", "--out", "r/new.txt"],
        ))
        .locked("r/.pftsim.lock"),
    ]
}

#[test]
fn catalogue_matches_cases() {
    catalogue!().matches_cases(&["SK", "SR"], cases().iter().map(|c| c.id));
}

#[test]
fn keys_and_sizes() {
    let cat = catalogue!();
    for c in cases() {
        cat.run(&c);
    }
}

/// The messages stay short: a key of 100,000 characters is cut, in the file and in a
/// `--set` (one the argument parser refuses too).
#[test]
fn long_keys_are_cut() {
    let d = case_dir(&case_root!(), "long-keys");
    let long = "q".repeat(100_000);
    std::fs::write(
        d.join("s.toml"),
        with("seed = 1\n", &format!("seed = 1\n{long} = 1\n")),
    )
    .unwrap();
    std::fs::write(d.join("b.toml"), BASE).unwrap();
    let set = format!("network.{long}=1");
    // (refused by the argument parser, exit 2: no `=`, and a key that is no key; clap
    // printed the whole value before the message)
    let (no_eq, bad_key) = (long.clone(), format!("{long}@=1"));
    for (args, code) in [
        (vec!["check", "s.toml", "--no-estimate"], 1),
        (vec!["check", "b.toml", "--no-estimate", "--set", &set], 1),
        (vec!["check", "b.toml", "--no-estimate", "--set", &no_eq], 2),
        (vec!["run", "b.toml", "--out", "o", "--set", &bad_key], 2),
    ] {
        let o = Command::new(PFTSIM)
            .args(&args)
            .current_dir(&d)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(code), "{args:?}");
        assert!(
            o.stderr.len() < 4_000,
            "{args:?}: {} bytes of stderr",
            o.stderr.len()
        );
    }
}

/// The same trace written beside the result directory is accepted (the refusal is the
/// result directory's, not the command's).
#[test]
fn trace_write_beside_a_result_dir() {
    let d = case_dir(&case_root!(), "beside");
    std::fs::write(d.join("m.toml"), MOTIF).unwrap();
    std::fs::create_dir_all(d.join("r")).unwrap();
    std::fs::write(d.join("r/.pftsim.lock"), "").unwrap();
    std::fs::write(d.join("r/manifest.json"), r#"{"files": ["nodes.csv"]}"#).unwrap();
    for out in ["t.trace", "r/other.trace"] {
        let o = Command::new(PFTSIM)
            .args(["trace-write", "m.toml", "--out", out])
            .current_dir(&d)
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "{out}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(d.join(out).is_file(), "{out}");
    }
}
