//! The bad-input catalogue (docs/bad-inputs.md), rows `SC-*` (scenario files), `SX-*`
//! (`pftsim` arguments and outputs) and `NB-*` (`net-bench` arguments): one case per row,
//! run on the real binary in a fresh directory. Every case checks that the process exits
//! with the row's status and did not panic, that its output contains every ``code span``
//! of the row's "what it gets" column (so the doc shows the real message), and what is left
//! on disk (by default: nothing, not even a temporary file). `catalogue_matches_cases`
//! keeps the doc's rows and these cases in step. `BAD_INPUTS_SHOW=1 cargo test --release
//! --locked -p pft-sim --test bad_inputs -- --nocapture` prints every case's real output.

use std::collections::BTreeMap;
use std::fs::OpenOptions;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const PFTSIM: &str = env!("CARGO_BIN_EXE_pftsim");
const NET_BENCH: &str = env!("CARGO_BIN_EXE_net-bench");

/// Row prefixes this file owns.
const OWNED: [&str; 3] = ["SC", "SX", "NB"];
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
    Pftsim,
    NetBench,
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
        .join("bad_inputs_sim")
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
            Bin::Pftsim => PFTSIM,
            Bin::NetBench => NET_BENCH,
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
        let all = format!("{stderr}\n{stdout}");
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
// Scenario files

/// A small valid scenario (checked by `base_scenario_is_valid`); the SC cases change one
/// thing in it.
const BASE: &str = r#"name = "bad"
[cycles]
max = 1000
[network]
topology = { kind = "single_switch", nodes = 4 }
buffer_flits = 64
eject_buffer_flits = 64
mtu_bytes = 1024
[workload]
kind = "uniform"
load = 0.5
msg_bytes = 1024
[[pft]]
name = "p"
"#;

fn with(from: &str, to: &str) -> String {
    assert!(BASE.contains(from), "`{from}` is not in BASE");
    BASE.replacen(from, to, 1)
}

/// A scenario case: `check s.toml` and `run s.toml --out o` both fail the same way.
fn sc(id: &'static str, text: impl Into<Vec<u8>>) -> Case {
    case(id, Bin::Pftsim, &["check", "s.toml"])
        .also(&["run", "s.toml", "--out", "o", "--quiet"])
        .also(&["compare", "s.toml", "--out", "o", "--quiet"])
        .file("s.toml", text)
}

const GPCNET: &str = r#"[network]
topology = { kind = "single_switch", nodes = 16 }
[workload]
kind = "gpcnet"
ppn = 0
"#;

const HOTSPOT: &str = r#"[network]
topology = { kind = "single_switch", nodes = 8 }
[workload]
kind = "hotspot"
hotspots = 20
frac_c = 0.8
frac_v = 0.5
"#;

fn scenario_cases() -> Vec<Case> {
    let many_nics = format!(
        "[timeseries]\nnics = [{}]\n",
        (0..65).map(|_| "0").collect::<Vec<_>>().join(", ")
    );
    vec![
        sc("SC-01", with("name = \"bad\"", "name = \"bad")),
        sc("SC-02", ""),
        sc("SC-03", with("name = \"bad\"", "name = \"bad\"\nfoo = 1")),
        sc("SC-04", with("max = 1000", "maxx = 1000")),
        sc("SC-05", with("load = 0.5", "load = 0.5\nburst = 3")),
        sc("SC-06", with("max = 1000", "max = \"lots\"")),
        sc("SC-07", with("buffer_flits = 64", "buffer_flits = -5")),
        sc(
            "SC-08",
            with(
                "name = \"bad\"",
                "name = \"bad\"\nseed = 99999999999999999999",
            ),
        ),
        sc("SC-09", with("kind = \"uniform\"", "kind = \"ring\"")),
        sc(
            "SC-10",
            with(
                "{ kind = \"single_switch\", nodes = 4 }",
                "{ kind = \"torus\", nodes = 4 }",
            ),
        ),
        sc(
            "SC-11",
            with(
                "{ kind = \"single_switch\", nodes = 4 }",
                "{ kind = \"fat_tree\", radix = 8 }",
            ),
        ),
        sc(
            "SC-12",
            with(
                "{ kind = \"single_switch\", nodes = 4 }",
                "{ kind = \"fat_tree\", radix = 9, leaves = 2 }",
            ),
        ),
        sc(
            "SC-13",
            with(
                "{ kind = \"single_switch\", nodes = 4 }",
                "{ kind = \"three_stage\", radix = 66 }",
            ),
        ),
        sc(
            "SC-14",
            with(
                "{ kind = \"single_switch\", nodes = 4 }",
                "{ kind = \"fat_tree\", radix = 8, leaves = 9 }",
            ),
        ),
        sc("SC-15", with("nodes = 4", "nodes = 65")),
        sc(
            "SC-16",
            with("buffer_flits = 64", "nodes = 5\nbuffer_flits = 64"),
        ),
        sc("SC-17", with("mtu_bytes = 1024", "mtu_bytes = 1000")),
        sc("SC-18", with("buffer_flits = 64", "buffer_flits = 8")),
        sc(
            "SC-19",
            with("mtu_bytes = 1024", "mtu_bytes = 1024\nflit_bytes = 0"),
        ),
        sc(
            "SC-20",
            with("mtu_bytes = 1024", "mtu_bytes = 1024\neject_rate = 0.0"),
        ),
        sc(
            "SC-21",
            with(
                "mtu_bytes = 1024",
                "mtu_bytes = 1024\nlink_latency_cycles = 0",
            ),
        ),
        sc("SC-22", with("max = 1000", "max = 0")),
        sc("SC-23", with("max = 1000", "max = 1000\nwarmup = 1000")),
        sc("SC-24", format!("{BASE}[timeseries]\nperiod = 0\n")),
        sc("SC-25", format!("{BASE}[timeseries]\nnics = [0, 4]\n")),
        sc("SC-26", format!("{BASE}{many_nics}")),
        sc("SC-27", with("load = 0.5", "load = 1.5")),
        sc(
            "SC-28",
            with(
                "msg_bytes = 1024",
                "msg_bytes = 1024\nstart_cycle = 10\nstop_cycle = 5",
            ),
        ),
        sc("SC-29", HOTSPOT),
        sc("SC-30", GPCNET),
        sc("SC-31", format!("{BASE}m = 40\n")),
        sc("SC-32", format!("{BASE}th_enter = 70000\n")),
        sc("SC-33", format!("{BASE}det_mode = \"xx\"\n")),
        sc("SC-34", with("name = \"p\"", "name = \"off\"")),
        sc("SC-35", format!("{BASE}[[pft]]\nname = \"p\"\n")),
        sc("SC-36", with("name = \"p\"", "name = \"../p\"")),
        sc("SC-37", with("name = \"bad\"", "name = \"my run\"")),
        sc(
            "SC-38",
            with("name = \"bad\"", "name = \"bad\"\nengine = \"verilog\""),
        ),
        sc(
            "SC-39",
            with("max = 1000", "max = 0")
                .replace("load = 0.5", "load = 2")
                .replace("name = \"p\"", "name = \"p\"\nm = 32\nk = 65536"),
        ),
        sc("SC-40", b"name = \"caf\xe9\"\n".to_vec()),
        sc(
            "SC-41",
            with("name = \"bad\"", "name = \"bad\"\nname = \"again\""),
        ),
    ]
}

// ---------------------------------------------------------------------------------------
// pftsim arguments and outputs

/// A tiny open-loop scenario that finishes in milliseconds (two PFT entries).
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

/// TINY with NICs that drain far slower than they inject and a short deadlock watchdog:
/// the network stops in the middle of the run.
fn deadlocking() -> String {
    TINY.replace(
        "mtu_bytes = 1024",
        "mtu_bytes = 1024\neject_rate = 0.00001\ndeadlock_cycles = 20",
    )
}

const RUN_FILES: [&str; 6] = [
    "summary.json",
    "nodes.csv",
    "timeseries.csv",
    "latency_distribution.svg",
    "bandwidth_distribution.svg",
    "c_timeseries.svg",
];

fn cli_cases() -> Vec<Case> {
    let p = Bin::Pftsim;
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
            .file("s.toml", deadlocking())
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
        // an output that cannot be written after others were
        case("SX-13", p, &["run", "s.toml", "--out", "o", "--quiet"])
            .file("s.toml", TINY)
            .dir("o/c_timeseries.svg")
            .left(|d| {
                let o = d.join("o");
                assert!(
                    o.join("nodes.csv").is_file(),
                    "the earlier outputs were not written: the case tests nothing"
                );
                assert!(
                    !o.join("summary.json").exists(),
                    "summary.json written after a failure"
                );
            }),
        // compare: the second run's directory cannot be created, after the first was written
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
            assert!(
                !o.join("compare.json").exists(),
                "compare.json after a failure"
            );
            // each run written before the failure is complete on its own ...
            for f in RUN_FILES {
                assert!(o.join("off").join(f).is_file(), "off/{f} missing");
                assert!(o.join("p").join(f).is_file(), "p/{f} missing");
            }
            // ... and is this command's, not the earlier one's
            let s = std::fs::read_to_string(o.join("p/summary.json")).unwrap();
            assert!(
                s.contains("\"run\": \"p\""),
                "p/summary.json is the old one: {s}"
            );
            assert!(
                !o.join("compare.csv").exists(),
                "compare.csv after a failure"
            );
        }),
        case("SX-15", p, &["check", "s.toml"])
            .file("s.toml", TINY)
            .stdout_full(),
        case(
            "SX-16",
            p,
            &["run", "s.toml", "--out", "o", "--pft", "p", "--pft", "q"],
        )
        .file("s.toml", TINY),
    ]
}

// ---------------------------------------------------------------------------------------
// net-bench

fn net_bench_cases() -> Vec<Case> {
    let n = Bin::NetBench;
    vec![
        case(
            "NB-01",
            n,
            &["--topo", "single:4", "--cycles", "10", "--load", "2"],
        )
        .also(&["--load", "-0.5"]),
        case("NB-02", n, &["--load", "nan"]),
        case(
            "NB-03",
            n,
            &["--topo", "single:4", "--cycles", "10", "--msg-bytes", "0"],
        ),
        case("NB-04", n, &["--topo", "single:4", "--cycles", "0"]),
        case("NB-05", n, &["--topo", "single:1"]).also(&["--topo", "ring"]),
        case("NB-06", n, &["--engine", "verilog"]),
        case("NB-07", n, &["--bogus"]),
        case("NB-08", n, &["--topo", "single:4", "--cycles", "10"]).stdout_full(),
    ]
}

fn all_cases() -> Vec<Case> {
    let mut v = scenario_cases();
    v.extend(cli_cases());
    v.extend(net_bench_cases());
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
        let prefix = &r.id[..2];
        assert!(
            ALL_PREFIXES.iter().any(|(p, _)| *p == prefix),
            "{}: unknown prefix (known: {ALL_PREFIXES:?})",
            r.id
        );
        if r.exit.is_some_and(|e| e != 0) {
            assert!(!r.needles.is_empty(), "{}: no ``message`` in the doc", r.id);
        }
    }
    let cases = all_cases();
    let mut ids = std::collections::BTreeSet::new();
    for c in &cases {
        assert!(ids.insert(c.id), "case {} twice", c.id);
    }
    let doc: std::collections::BTreeSet<&str> = rows
        .iter()
        .map(|r| r.id.as_str())
        .filter(|id| OWNED.contains(&&id[..2]))
        .collect();
    assert_eq!(
        doc, ids,
        "docs/bad-inputs.md rows (left) and the cases of sim/tests/bad_inputs.rs (right) differ"
    );
}

#[test]
fn base_scenario_is_valid() {
    let d = case_dir("base");
    std::fs::write(d.join("s.toml"), BASE).unwrap();
    std::fs::write(d.join("t.toml"), TINY).unwrap();
    for f in ["s.toml", "t.toml"] {
        let o = Command::new(PFTSIM)
            .args(["check", f])
            .current_dir(&d)
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "{f}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
}

#[test]
fn scenario_files() {
    let rows = catalogue();
    for c in scenario_cases() {
        run_case(&c, &rows);
    }
}

#[test]
fn pftsim_arguments_and_outputs() {
    let rows = catalogue();
    for c in cli_cases() {
        run_case(&c, &rows);
    }
}

#[test]
fn net_bench_arguments() {
    let rows = catalogue();
    for c in net_bench_cases() {
        run_case(&c, &rows);
    }
}
