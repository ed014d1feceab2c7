//! The bad-input catalogue (docs/bad-inputs.md), rows `TC-*` (pft-trace config files),
//! `TS-*` (stimulus CSV files) and `TX-*` (pft-trace arguments and outputs; `TB-*`,
//! pft-bench's arguments, are in `bad_inputs_bench.rs`): one case per row, run on the real
//! binary in a fresh directory.
//! Every case checks that the process exits with the row's status and did not panic, that
//! its output contains every ``code span`` of the row's "what it gets" column, and what is
//! left on disk (by default: nothing, not even a temporary file). `catalogue_matches_cases`
//! keeps the doc's rows and these cases in step. `BAD_INPUTS_SHOW=1 cargo test --release
//! --locked -p pft-tb --test bad_inputs -- --nocapture` prints every case's real output.
//!
//! The harness (catalogue parser, `Catalogue::run`) is `pft_test_support::catalogue`, shared
//! with the `bad_inputs*` tests of `sim` and `hdl`.

const PFT_TRACE: &str = env!("CARGO_BIN_EXE_pft-trace");

/// Row prefixes this file owns.
const OWNED: [&str; 3] = ["TC", "TS", "TX"];
use pft_test_support::catalogue;
use pft_test_support::catalogue::*;

// ---------------------------------------------------------------------------------------
// pft-trace config files

const OK_STIM: &str = "flit_valid,credit_return\n1,0\n1,0\n0,1\n";

/// A config case: `--config c.toml` with a good stimulus and every output requested.
fn tc(id: &'static str, cfg: impl Into<Vec<u8>>) -> Case {
    case(
        id,
        PFT_TRACE,
        &[
            "--config",
            "c.toml",
            "--stimulus",
            "ok.csv",
            "--out",
            "o.csv",
            "--vcd",
            "o.vcd",
            "--summary",
            "o.json",
        ],
    )
    .also(&[
        "--config",
        "c.toml",
        "--engine",
        "rtl",
        "--cycles",
        "10",
        "--link-latency",
        "2",
        "--drain",
        "1",
        "--summary",
        "o.json",
        "--record-stimulus",
        "r.csv",
    ])
    .file("c.toml", cfg)
    .file("ok.csv", OK_STIM)
}

fn config_cases() -> Vec<Case> {
    vec![
        tc("TC-01", "m = 4\nn = = 3\n"),
        tc("TC-02", "m = 4\nbogus = 1\n"),
        tc("TC-03", "status = 0\n"),
        tc("TC-04", "k = \"3\"\n"),
        tc("TC-05", "m = 1.5\n"),
        tc("TC-06", "m = 32\n"),
        tc("TC-07", "th_enter = -1\n"),
        tc("TC-08", "credit_limit = 0\n"),
        tc("TC-09", "credit_limit = 70000\n"),
        tc("TC-10", "seed = 0\n"),
        tc("TC-11", "seed = 4294967296\n"),
        tc("TC-12", "det_mode = \"xx\"\n"),
        tc("TC-13", "enable = 1\n"),
        tc("TC-14", "[sec]\nm = 1\n"),
        case(
            "TC-15",
            PFT_TRACE,
            &[
                "--config",
                "nope.toml",
                "--stimulus",
                "ok.csv",
                "--summary",
                "o.json",
            ],
        )
        .file("ok.csv", OK_STIM),
        tc("TC-16", b"# caf\xe9\nm = 1\n".to_vec()),
        tc("TC-17", format!("m = \"{}\u{1b}[2J\"\n", "z".repeat(2000))),
        tc("TC-18", format!("{}\u{1b} = 1\n", "k".repeat(2000))),
        tc("TC-19", "r_width = 33\n"),
        tc("TC-20", "credit_limit = 18446744073709551615\n"),
        tc("TC-21", "k = -9223372036854775809\n"),
        // the same under a quoted key: a syntax error naming no key
        tc("TC-22", "\"m\" = 99999999999999999999\n"),
    ]
}

// ---------------------------------------------------------------------------------------
// Stimulus files

/// A stimulus case: `--stimulus s.csv` with every output requested.
fn ts(id: &'static str, stim: impl Into<Vec<u8>>) -> Case {
    case(
        id,
        PFT_TRACE,
        &[
            "--stimulus",
            "s.csv",
            "--out",
            "o.csv",
            "--vcd",
            "o.vcd",
            "--summary",
            "o.json",
        ],
    )
    .file("s.csv", stim)
}

/// Two flits go out, then 5 credits come back: 3 more than the 2 in use.
const EXCESS_RETURN: &str = "flit_valid,credit_return\n1,0\n1,0\n0,5\n0,0\n1,0\n0,0\n";

fn stimulus_cases() -> Vec<Case> {
    vec![
        ts("TS-01", "valid,credit\n1,0\n"),
        ts("TS-02", ""),
        ts("TS-03", "flit_valid,credit_return\n"),
        ts("TS-04", "flit_valid,credit_return\n1,0,3\n"),
        ts("TS-05", "flit_valid,credit_return\n1,0\n1\n"),
        ts("TS-06", "flit_valid,credit_return\n2,0\n"),
        ts("TS-07", "flit_valid,credit_return\nyes,0\n"),
        ts("TS-08", "flit_valid,credit_return\n1,0\n1,300\n"),
        ts("TS-09", "flit_valid,credit_return\n1,-1\n"),
        ts("TS-10", "flit_valid,credit_return\n1,1.5\n"),
        ts("TS-11", "flit_valid,credit_return\n1,\"0\n1,0\n"),
        ts("TS-12", b"flit_valid,credit_return\n1,\xff\n".to_vec()),
        ts("TS-14", "flit_valid,credit_return\r\n1,0\r\n0\r\n1,1\r\n"),
        ts(
            "TS-15",
            format!(
                "flit_valid,credit_return\n1,{}\u{1b}[2J\n",
                "9".repeat(2000)
            ),
        ),
        ts("TS-16", "flit_valid,credit_return,flit_head\n1,0,2\n"),
        ts("TS-17", "flit_valid,credit_return,flit_head\n1,0\n"),
        // the header's line was said to be line 1 after blank lines; a field past the
        // header's columns was named as a column it does not have
        ts("TS-19", "\n\nvalid\n"),
        ts("TS-20", b"flit_valid,credit_return\n1,0,\xff\n".to_vec()),
        // the same over-return refused: nothing written
        case(
            "TS-18",
            PFT_TRACE,
            &[
                "--stimulus",
                "s.csv",
                "--out",
                "o.csv",
                "--vcd",
                "o.vcd",
                "--summary",
                "o.json",
                "--strict",
            ],
        )
        .file("s.csv", EXCESS_RETURN),
        // defined behaviour, not an error: both engines trace it, identically, with a
        // warning and the over-return in the summary
        ts("TS-13", EXCESS_RETURN)
            .also(&[
                "--engine",
                "rtl",
                "--stimulus",
                "s.csv",
                "--out",
                "r.csv",
                "--vcd",
                "r.vcd",
                "--summary",
                "r.json",
            ])
            .left(|d| {
                if !d.join("r.csv").exists() {
                    return; // after the first (model) run
                }
                for f in ["csv", "vcd", "json"] {
                    assert_eq!(
                        std::fs::read(d.join(format!("o.{f}"))).unwrap(),
                        std::fs::read(d.join(format!("r.{f}"))).unwrap(),
                        "model and RTL traces differ (o.{f} / r.{f})"
                    );
                }
                let csv = std::fs::read_to_string(d.join("o.csv")).unwrap();
                let head: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
                let col = |row: &str, name: &str| -> u64 {
                    let i = head.iter().position(|h| *h == name).unwrap();
                    row.split(',').nth(i).unwrap().parse().unwrap()
                };
                let rows: Vec<&str> = csv.lines().skip(1).collect();
                // cycle 2: c = 2, 5 credits return; from cycle 3: c = 0 and the flag is set
                assert_eq!((col(rows[2], "c"), col(rows[2], "err_underflow")), (2, 0));
                for r in &rows[3..] {
                    assert_eq!(col(r, "err_underflow"), 1, "the flag is sticky: {r}");
                }
                assert_eq!(col(rows[3], "c"), 0, "c clamps at 0: {}", rows[3]);
                // and the block goes on: the flit of cycle 4 leaves, c = 1 in cycle 5
                assert_eq!((col(rows[4], "send"), col(rows[5], "c")), (1, 1));
            }),
    ]
}

// ---------------------------------------------------------------------------------------
// pft-trace arguments and outputs

fn trace_cli_cases() -> Vec<Case> {
    let t = PFT_TRACE;
    vec![
        case("TX-01", t, &[]).also(&["--summary", "o.json"]),
        case("TX-02", t, &["--stimulus", "ok.csv", "--cycles", "5"]).file("ok.csv", OK_STIM),
        case(
            "TX-03",
            t,
            &["--cycles", "0", "--link-latency", "2", "--drain", "1"],
        )
        .also(&["--cycles", "-10", "--link-latency", "2", "--drain", "1"])
        .also(&["--cycles", "lots", "--link-latency", "2", "--drain", "1"])
        .also(&[
            "--cycles",
            "10000000001",
            "--link-latency",
            "2",
            "--drain",
            "1",
        ]),
        case(
            "TX-04",
            t,
            &["--cycles", "10", "--link-latency", "0", "--drain", "1"],
        )
        .also(&[
            "--cycles",
            "10",
            "--link-latency",
            "2000000",
            "--drain",
            "1",
        ])
        .also(&["--cycles", "10", "--link-latency", "abc", "--drain", "1"])
        .also(&["--cycles", "10", "--link-latency", "1e3", "--drain", "1"]),
        case(
            "TX-05",
            t,
            &["--cycles", "10", "--link-latency", "2", "--drain", "1.5"],
        )
        .also(&["--cycles", "10", "--link-latency", "2", "--drain", "-0.1"])
        .also(&["--cycles", "10", "--link-latency", "2", "--drain", "-inf"])
        .also(&["--cycles", "10", "--link-latency", "2", "--drain", "-NaN"]),
        case(
            "TX-06",
            t,
            &[
                "--cycles",
                "10",
                "--link-latency",
                "2",
                "--drain-schedule",
                "5:1",
            ],
        ),
        case(
            "TX-07",
            t,
            &[
                "--cycles",
                "10",
                "--link-latency",
                "2",
                "--drain-schedule",
                "0:1,10:2",
            ],
        ),
        case(
            "TX-08",
            t,
            &[
                "--cycles",
                "10",
                "--link-latency",
                "2",
                "--drain",
                "1",
                "--link-seed",
                "-1",
            ],
        ),
        case("TX-09", t, &["--stimulus", "ok.csv", "--engine", "verilog"]).file("ok.csv", OK_STIM),
        case("TX-10", t, &["--stimulus", "ok.csv", "--bogus"]).file("ok.csv", OK_STIM),
        case("TX-11", t, &["--cycles", "10", "--drain", "1"]),
        case(
            "TX-12",
            t,
            &["--stimulus", "nope.csv", "--summary", "o.json"],
        ),
        case(
            "TX-13",
            t,
            &["--stimulus", "ok.csv", "--summary", "o.json", "--out", "od"],
        )
        .file("ok.csv", OK_STIM)
        .dir("od"),
        case(
            "TX-14",
            t,
            &[
                "--stimulus",
                "ok.csv",
                "--out",
                "o.csv",
                "--summary",
                "afile/s.json",
            ],
        )
        .file("ok.csv", OK_STIM)
        .file("afile", "keep me\n"),
        case(
            "TX-15",
            t,
            &[
                "--stimulus",
                "ok.csv",
                "--out",
                "o.csv",
                "--summary",
                "o.csv",
            ],
        )
        .file("ok.csv", OK_STIM),
        // an earlier run's outputs stay exactly as they were
        case(
            "TX-16",
            t,
            &[
                "--stimulus",
                "s.csv",
                "--out",
                "o.csv",
                "--summary",
                "o.json",
            ],
        )
        .file("s.csv", "flit_valid,credit_return\n1,0\n1,9999\n")
        .file("o.csv", "old csv\n")
        .file("o.json", "{\"old\": true}\n"),
        // an output onto an input: refused before any work, the input untouched
        case(
            "TX-18",
            t,
            &[
                "--stimulus",
                "ok.csv",
                "--config",
                "c.toml",
                "--summary",
                "c.toml",
            ],
        )
        .file("ok.csv", OK_STIM)
        .file("c.toml", "m = 3\n"),
        case("TX-19", t, &["--stimulus", "ok.csv", "--vcd", "ok.csv"]).file("ok.csv", OK_STIM),
        case(
            "TX-21",
            t,
            &[
                "--cycles",
                "10",
                "--link-latency",
                "2",
                "--drain",
                "1",
                "--strict",
            ],
        ),
        case("TX-20", t, &["--stimulus", "ok.csv", "--out", "/dev/null"]).file("ok.csv", OK_STIM),
        case("TX-23", t, &["--stimulus", "ok.csv", "--summary", "o.json"])
            .file("ok.csv", OK_STIM)
            .stdout_closed()
            .left(|d| {
                let s = std::fs::read_to_string(d.join("o.json")).expect("o.json written");
                assert!(s.contains("\"cycles\": 3"), "{s}");
            }),
        case(
            "TX-24",
            t,
            &[
                "--cycles",
                "10",
                "--link-latency",
                "1",
                "--drain-schedule",
                "-1:1",
            ],
        ),
        case("TX-25", t, &["--stimulus", "ok.csv", "--out", "-"]).file("ok.csv", OK_STIM),
        // a descriptor's file (here the harness's pipe) would be replaced by the rename
        case(
            "TX-29",
            t,
            &["--stimulus", "ok.csv", "--out", "/dev/stdout"],
        )
        .file("ok.csv", OK_STIM)
        .also(&["--stimulus", "ok.csv", "--summary", "/dev/fd/2"])
        .also(&["--stimulus", "ok.csv", "--vcd", "dl.vcd"])
        .symlink("dl.vcd", "/proc/self/fd/1"),
        case(
            "TX-30",
            t,
            &[
                "--cycles",
                "10",
                "--link-latency",
                "1",
                "--drain",
                "1",
                "--out",
                "/dev/pft-tx30.csv",
            ],
        ),
        // onto an input through directories still to be made (`new/` made, then `..`)
        case(
            "TX-31",
            t,
            &[
                "--stimulus",
                "ok.csv",
                "--config",
                "c.toml",
                "--summary",
                "new/../c.toml",
            ],
        )
        .file("ok.csv", OK_STIM)
        .file("c.toml", "m = 3\n")
        .also(&["--stimulus", "ok.csv", "--out", "x/y/../../ok.csv"]),
        // a trailing slash: a directory, refused before the run (the earlier outputs
        // were renamed into place before the last rename failed)
        case(
            "TX-32",
            t,
            &[
                "--cycles",
                "10",
                "--link-latency",
                "1",
                "--drain",
                "1",
                "--out",
                "o.csv",
                "--vcd",
                "o.vcd",
                "--summary",
                "s.json/",
            ],
        )
        .also(&[
            "--cycles",
            "10",
            "--link-latency",
            "1",
            "--drain",
            "1",
            "--out",
            "nd/",
        ]),
        // into a finished pftsim run's result directory: a file its manifest lists, and
        // its manifest (the check is `outfile::check`'s, as for pftsim's SR rows)
        case(
            "TX-33",
            t,
            &["--stimulus", "ok.csv", "--out", "r/nodes.csv"],
        )
        .file("ok.csv", OK_STIM)
        .dir("r")
        .file("r/.pftsim.lock", "")
        .file(
            "r/manifest.json",
            r#"{"files": ["nodes.csv"], "finished": true}"#,
        )
        .file("r/nodes.csv", "a run's results\n")
        .also(&["--stimulus", "ok.csv", "--summary", "r/manifest.json"]),
        case("TX-26", t, &["--stimulus", "ok.csv", "--out", "dl.csv"])
            .file("ok.csv", OK_STIM)
            .symlink("dl.csv", "nowhere/x.csv"),
        case("TX-27", t, &["--help"]).stdout_full(),
        // a schedule entry past the run: traced, with a warning
        case(
            "TX-28",
            t,
            &[
                "--cycles",
                "10",
                "--link-latency",
                "2",
                "--drain-schedule",
                "0:1,10:0.5",
                "--summary",
                "o.json",
            ],
        )
        .left(|d| assert!(d.join("o.json").exists(), "no summary")),
        case("TX-17", t, &["--stimulus", "ok.csv", "--summary", "o.json"])
            .file("ok.csv", OK_STIM)
            .stdout_full()
            .left(|d| {
                let s = std::fs::read_to_string(d.join("o.json")).expect("o.json written");
                assert!(s.contains("\"cycles\": 3"), "{s}");
            }),
        // one file under two spellings (issue 36): both writers used one temporary name
        case(
            "TX-22",
            t,
            &[
                "--cycles",
                "1000",
                "--link-latency",
                "2",
                "--drain",
                "1",
                "--out",
                "o.csv",
                "--summary",
                "./o.csv",
            ],
        )
        .also(&[
            "--stimulus",
            "ok.csv",
            "--vcd",
            "d/o.vcd",
            "--out",
            "d/../d/o.vcd",
        ])
        .also(&[
            "--cycles",
            "10",
            "--link-latency",
            "2",
            "--drain",
            "1",
            "--out",
            "dl/o.csv",
            "--record-stimulus",
            "d/o.csv",
        ])
        .file("ok.csv", OK_STIM)
        .dir("d")
        .symlink("dl", "d"),
    ]
}

fn all_cases() -> Vec<Case> {
    let mut v = config_cases();
    v.extend(stimulus_cases());
    v.extend(trace_cli_cases());
    v
}

// ---------------------------------------------------------------------------------------
// Tests

#[test]
fn catalogue_matches_cases() {
    catalogue!().matches_cases(&OWNED, all_cases().iter().map(|c| c.id));
}

#[test]
fn config_files() {
    let cat = catalogue!();
    for c in config_cases() {
        cat.run(&c);
    }
}

#[test]
fn stimulus_files() {
    let cat = catalogue!();
    for c in stimulus_cases() {
        cat.run(&c);
    }
}

#[test]
fn trace_arguments_and_outputs() {
    let cat = catalogue!();
    for c in trace_cli_cases() {
        cat.run(&c);
    }
}

/// A device or a pipe as pft-trace's stimulus or config is refused (it was read until memory
/// ran out, or blocked). (pftsim's scenario: `sim/tests/bad_inputs_paths.rs`.)
#[test]
fn devices_and_pipes_are_not_read() {
    let dir = std::env::temp_dir().join(format!("pft-devices-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let inputs = pft_test_support::device_and_pipe(&dir);
    let summary = dir.join("s.json").display().to_string();
    for input in &inputs {
        let i = input.as_str();
        let s = summary.as_str();
        for args in [
            vec!["--stimulus", i, "--summary", s],
            vec![
                "--config",
                i,
                "--cycles",
                "10",
                "--link-latency",
                "1",
                "--drain",
                "1",
                "--summary",
                s,
            ],
        ] {
            let o = std::process::Command::new(PFT_TRACE)
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

/// `--strict` refusing a run leaves no directory behind either: the ones made for its
/// outputs are removed with the temporary files (`TS-18`, in new directories).
#[test]
fn a_strict_refusal_leaves_no_directory() {
    let dir = std::env::temp_dir().join(format!("pft-strict-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("s.csv"), "flit_valid,credit_return\n0,5\n").unwrap();
    let o = std::process::Command::new(PFT_TRACE)
        .current_dir(&dir)
        .args([
            "--stimulus",
            "s.csv",
            "--out",
            "nd/sub/o.csv",
            "--vcd",
            "nd/o.vcd",
        ])
        .arg("--strict")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("--strict"), "{err}");
    assert!(!dir.join("nd").exists(), "a directory was left behind");
    // without --strict the same run writes both, in the directories it made
    let o = std::process::Command::new(PFT_TRACE)
        .current_dir(&dir)
        .args([
            "--stimulus",
            "s.csv",
            "--out",
            "nd/sub/o.csv",
            "--vcd",
            "nd/o.vcd",
        ])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(dir.join("nd/sub/o.csv").is_file() && dir.join("nd/o.vcd").is_file());
    let _ = std::fs::remove_dir_all(&dir);
}
