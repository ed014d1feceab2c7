//! The bad-input catalogue (docs/bad-inputs.md), rows `TC-*` (pft-trace config files),
//! `TS-*` (stimulus CSV files), `TX-*` (pft-trace arguments and outputs) and `TB-*`
//! (pft-bench arguments): one case per row, run on the real binary in a fresh directory.
//! Every case checks that the process exits with the row's status and did not panic, that
//! its output contains every ``code span`` of the row's "what it gets" column, and what is
//! left on disk (by default: nothing, not even a temporary file). `catalogue_matches_cases`
//! keeps the doc's rows and these cases in step. `BAD_INPUTS_SHOW=1 cargo test --release
//! --locked -p pft-tb --test bad_inputs -- --nocapture` prints every case's real output.
//!
//! The harness (catalogue parser, `run_case`) is the same as in sim/tests/bad_inputs.rs.

use std::collections::BTreeMap;
use std::fs::OpenOptions;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const PFT_TRACE: &str = env!("CARGO_BIN_EXE_pft-trace");
const PFT_BENCH: &str = env!("CARGO_BIN_EXE_pft-bench");

/// Row prefixes this file owns.
const OWNED: [&str; 4] = ["TC", "TS", "TX", "TB"];
/// Every prefix of the catalogue, and the test file that owns it.
const ALL_PREFIXES: [(&str, &str); 9] = [
    ("SC", "sim/tests/bad_inputs.rs"),
    ("SX", "sim/tests/bad_inputs.rs"),
    ("NB", "sim/tests/bad_inputs.rs"),
    ("TC", "tb/tests/bad_inputs.rs"),
    ("TS", "tb/tests/bad_inputs.rs"),
    ("TX", "tb/tests/bad_inputs.rs"),
    ("TB", "tb/tests/bad_inputs.rs"),
    ("HX", "hdl/tests/bad_inputs.rs"),
    ("BK", "hdl/tests/bad_inputs.rs"),
];

// ---------------------------------------------------------------------------------------
// The catalogue (docs/bad-inputs.md)

struct Row {
    id: String,
    /// Exit status, or None when the row has none (block-level rows).
    exit: Option<i32>,
    /// The ``code spans`` of "what it gets": each must appear in the output.
    needles: Vec<String>,
}

fn doc_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/bad-inputs.md")
}

fn is_id(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 5
        && b[..2].iter().all(u8::is_ascii_uppercase)
        && b[2] == b'-'
        && b[3..].iter().all(u8::is_ascii_digit)
}

/// Cells of a Markdown table line (`\|` is a literal bar).
fn cells(line: &str) -> Vec<String> {
    let mut out = vec![String::new()];
    let mut chars = line.trim().trim_start_matches('|').chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&'|') => {
                out.last_mut().unwrap().push('|');
                chars.next();
            }
            '|' => out.push(String::new()),
            c => out.last_mut().unwrap().push(c),
        }
    }
    if out.last().is_some_and(|c| c.trim().is_empty()) {
        out.pop();
    }
    out.into_iter().map(|c| c.trim().to_string()).collect()
}

/// The contents of the double-backtick code spans of `cell`.
fn spans(cell: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = cell;
    while let Some(i) = rest.find("``") {
        let after = &rest[i + 2..];
        let Some(j) = after.find("``") else { break };
        let s = &after[..j];
        let s = s.strip_prefix(' ').unwrap_or(s);
        let s = s.strip_suffix(' ').unwrap_or(s);
        out.push(s.to_string());
        rest = &after[j + 2..];
    }
    out
}

fn catalogue() -> Vec<Row> {
    let text = std::fs::read_to_string(doc_path()).expect("docs/bad-inputs.md exists");
    let mut rows = Vec::new();
    for line in text.lines() {
        if !line.starts_with('|') {
            continue;
        }
        let c = cells(line);
        if c.is_empty() || !is_id(&c[0]) {
            continue;
        }
        assert_eq!(c.len(), 5, "{}: a row has 5 cells: {line}", c[0]);
        let exit = match c[3].as_str() {
            "-" | "—" => None,
            e => Some(e.parse().unwrap_or_else(|_| panic!("{}: exit `{e}`", c[0]))),
        };
        rows.push(Row {
            id: c[0].clone(),
            exit,
            needles: spans(&c[2]),
        });
    }
    rows
}

fn row<'a>(rows: &'a [Row], id: &str) -> &'a Row {
    rows.iter()
        .find(|r| r.id == id)
        .unwrap_or_else(|| panic!("{id} is not in docs/bad-inputs.md"))
}

// ---------------------------------------------------------------------------------------
// Running a case

#[derive(Clone, Copy)]
enum Bin {
    Trace,
    Bench,
}

/// What a case leaves behind.
enum Left {
    /// The directory is exactly as before the run.
    Unchanged,
    /// A custom check of the directory after the run.
    Check(fn(&Path)),
}

struct Case {
    id: &'static str,
    bin: Bin,
    /// Files written before the run (relative to the case directory).
    files: Vec<(&'static str, Vec<u8>)>,
    /// Directories created before the run.
    dirs: Vec<&'static str>,
    /// One or more argument vectors, each run and checked the same way.
    runs: Vec<Vec<&'static str>>,
    /// Stdout is /dev/full.
    stdout_full: bool,
    left: Left,
}

fn case(id: &'static str, bin: Bin, args: &[&'static str]) -> Case {
    Case {
        id,
        bin,
        files: Vec::new(),
        dirs: Vec::new(),
        runs: vec![args.to_vec()],
        stdout_full: false,
        left: Left::Unchanged,
    }
}

impl Case {
    fn file(mut self, name: &'static str, text: impl Into<Vec<u8>>) -> Self {
        self.files.push((name, text.into()));
        self
    }
    fn dir(mut self, name: &'static str) -> Self {
        self.dirs.push(name);
        self
    }
    fn also(mut self, args: &[&'static str]) -> Self {
        self.runs.push(args.to_vec());
        self
    }
    fn stdout_full(mut self) -> Self {
        self.stdout_full = true;
        self
    }
    fn left(mut self, f: fn(&Path)) -> Self {
        self.left = Left::Check(f);
        self
    }
}

fn case_dir(id: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("bad_inputs_tb")
        .join(id);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Every file under `d` with its contents (directories as `None`).
fn snapshot(d: &Path) -> BTreeMap<PathBuf, Option<Vec<u8>>> {
    let mut m = BTreeMap::new();
    fn walk(root: &Path, d: &Path, m: &mut BTreeMap<PathBuf, Option<Vec<u8>>>) {
        for e in std::fs::read_dir(d).unwrap() {
            let p = e.unwrap().path();
            let rel = p.strip_prefix(root).unwrap().to_path_buf();
            if p.is_dir() {
                m.insert(rel, None);
                walk(root, &p, m);
            } else {
                m.insert(rel, Some(std::fs::read(&p).unwrap()));
            }
        }
    }
    walk(d, d, &mut m);
    m
}

/// No temporary file anywhere under `d`.
fn no_temporaries(d: &Path) {
    for p in snapshot(d).keys() {
        let name = p.file_name().unwrap().to_string_lossy();
        assert!(
            !name.contains(".tmp-") && !name.contains(".partial"),
            "temporary file left behind: {}",
            p.display()
        );
    }
}

fn run_case(c: &Case, rows: &[Row]) {
    let r = row(rows, c.id);
    let d = case_dir(c.id);
    for dir in &c.dirs {
        std::fs::create_dir_all(d.join(dir)).unwrap();
    }
    for (name, text) in &c.files {
        std::fs::write(d.join(name), text).unwrap();
    }
    for args in &c.runs {
        let before = snapshot(&d);
        let exe = match c.bin {
            Bin::Trace => PFT_TRACE,
            Bin::Bench => PFT_BENCH,
        };
        let mut cmd = Command::new(exe);
        cmd.args(args)
            .current_dir(&d)
            .env("RUST_BACKTRACE", "0")
            .stdin(Stdio::null());
        if c.stdout_full {
            cmd.stdout(
                OpenOptions::new()
                    .write(true)
                    .open("/dev/full")
                    .expect("/dev/full"),
            );
        }
        let o = cmd.output().expect("the binary runs");
        let stderr = String::from_utf8_lossy(&o.stderr);
        let stdout = String::from_utf8_lossy(&o.stdout);
        // the summary, when the case wrote one, is part of what the input gets
        let summary = std::fs::read_to_string(d.join("o.json")).unwrap_or_default();
        let all = format!("{stderr}\n{stdout}\n{summary}");
        let what = format!(
            "{} {args:?}:\n--- stderr\n{stderr}--- stdout\n{stdout}",
            c.id
        );
        if std::env::var_os("BAD_INPUTS_SHOW").is_some() {
            // for whoever updates the doc: every case's real output
            eprintln!("=== {what}--- exit {:?}", o.status.code());
        }
        let code = o.status.code();
        assert!(code.is_some(), "{what}\nkilled by a signal");
        assert_ne!(code, Some(101), "{what}\npanicked (exit 101)");
        assert!(!stderr.contains("panicked"), "{what}\npanicked");
        if let Some(e) = r.exit {
            assert_eq!(code, Some(e), "{what}\nexit status (the doc says {e})");
            if e != 0 {
                assert!(stderr.contains("error"), "{what}\nno `error` on stderr");
            }
        }
        for n in &r.needles {
            assert!(
                all.contains(n.as_str()),
                "{what}\nthe doc's `{n}` is not in the output"
            );
        }
        match c.left {
            Left::Unchanged => {
                assert!(
                    snapshot(&d) == before,
                    "{what}\nthe directory changed: before {:?}, after {:?}",
                    before.keys().collect::<Vec<_>>(),
                    snapshot(&d).keys().collect::<Vec<_>>()
                );
            }
            Left::Check(f) => f(&d),
        }
        no_temporaries(&d);
    }
}

// ---------------------------------------------------------------------------------------
// pft-trace config files

const OK_STIM: &str = "flit_valid,credit_return\n1,0\n1,0\n0,1\n";

/// A config case: `--config c.toml` with a good stimulus and every output requested.
fn tc(id: &'static str, cfg: impl Into<Vec<u8>>) -> Case {
    case(
        id,
        Bin::Trace,
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
            Bin::Trace,
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
    ]
}

// ---------------------------------------------------------------------------------------
// Stimulus files

/// A stimulus case: `--stimulus s.csv` with every output requested.
fn ts(id: &'static str, stim: impl Into<Vec<u8>>) -> Case {
    case(
        id,
        Bin::Trace,
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
        // defined behaviour, not an error: both engines trace it, identically
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
    let t = Bin::Trace;
    vec![
        case("TX-01", t, &[]).also(&["--summary", "o.json"]),
        case("TX-02", t, &["--stimulus", "ok.csv", "--cycles", "5"]).file("ok.csv", OK_STIM),
        case(
            "TX-03",
            t,
            &["--cycles", "0", "--link-latency", "2", "--drain", "1"],
        )
        .also(&["--cycles", "-10", "--link-latency", "2", "--drain", "1"])
        .also(&["--cycles", "lots", "--link-latency", "2", "--drain", "1"]),
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
        ]),
        case(
            "TX-05",
            t,
            &["--cycles", "10", "--link-latency", "2", "--drain", "1.5"],
        )
        .also(&["--cycles", "10", "--link-latency", "2", "--drain", "-0.1"]),
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
        case("TX-17", t, &["--stimulus", "ok.csv", "--summary", "o.json"])
            .file("ok.csv", OK_STIM)
            .stdout_full()
            .left(|d| {
                let s = std::fs::read_to_string(d.join("o.json")).expect("o.json written");
                assert!(s.contains("\"cycles\": 3"), "{s}");
            }),
    ]
}

// ---------------------------------------------------------------------------------------
// pft-bench

fn bench_cases() -> Vec<Case> {
    let b = Bin::Bench;
    vec![
        case("TB-01", b, &["--trace-cycles", "0", "--dir", "bench"]),
        case("TB-02", b, &["--model-cycles", "-1", "--dir", "bench"]).also(&[
            "--rtl-cycles",
            "many",
            "--dir",
            "bench",
        ]),
        case("TB-03", b, &["--dir", "afile"]).file("afile", "keep me\n"),
    ]
}

fn all_cases() -> Vec<Case> {
    let mut v = config_cases();
    v.extend(stimulus_cases());
    v.extend(trace_cli_cases());
    v.extend(bench_cases());
    v
}

// ---------------------------------------------------------------------------------------
// Tests

#[test]
fn catalogue_matches_cases() {
    let rows = catalogue();
    assert!(rows.len() >= 30, "the catalogue has {} rows", rows.len());
    let mut seen = std::collections::BTreeSet::new();
    for r in &rows {
        assert!(
            seen.insert(r.id.clone()),
            "{} appears twice in the doc",
            r.id
        );
        assert!(
            ALL_PREFIXES.iter().any(|(p, _)| *p == &r.id[..2]),
            "{}: unknown prefix (known: {ALL_PREFIXES:?})",
            r.id
        );
    }
    let mut ids = std::collections::BTreeSet::new();
    for c in all_cases() {
        assert!(ids.insert(c.id), "case {} twice", c.id);
    }
    let doc: std::collections::BTreeSet<&str> = rows
        .iter()
        .map(|r| r.id.as_str())
        .filter(|id| OWNED.contains(&&id[..2]))
        .collect();
    assert_eq!(
        doc, ids,
        "docs/bad-inputs.md rows (left) and the cases of tb/tests/bad_inputs.rs (right) differ"
    );
}

#[test]
fn config_files() {
    let rows = catalogue();
    for c in config_cases() {
        run_case(&c, &rows);
    }
}

#[test]
fn stimulus_files() {
    let rows = catalogue();
    for c in stimulus_cases() {
        run_case(&c, &rows);
    }
}

#[test]
fn trace_arguments_and_outputs() {
    let rows = catalogue();
    for c in trace_cli_cases() {
        run_case(&c, &rows);
    }
}

#[test]
fn bench_arguments() {
    let rows = catalogue();
    for c in bench_cases() {
        run_case(&c, &rows);
    }
}
