//! The bad-input catalogue (docs/bad-inputs.md), rows `HX-*` (pft-verilog and pft-regs
//! arguments and outputs) and `BK-*` (bad inputs at the block's own ports: credit returns
//! beyond the credits in use, CSR writes to read-only or out-of-map addresses, register
//! values outside a field). An `HX` case runs the real binary like the other crates' cases
//! (the harness is the same as in sim/tests/bad_inputs.rs). A `BK` case drives the
//! reference model and the rust-hdl RTL (`RtlStepper`) side by side with the same inputs,
//! checks that their outputs and internal state agree in every cycle, and checks the
//! block's defined behaviour (docs/behaviour.md, docs/registers.md).

use pft_hdl::model::{Inputs, Outputs, PftModel};
use pft_hdl::regs::{self, addr};
use pft_hdl::stepper::{Engine, RtlStepper};
use std::collections::BTreeMap;
use std::fs::OpenOptions;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const PFT_VERILOG: &str = env!("CARGO_BIN_EXE_pft-verilog");
const PFT_REGS: &str = env!("CARGO_BIN_EXE_pft-regs");

/// Row prefixes this file owns.
const OWNED: [&str; 2] = ["HX", "BK"];
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
    Verilog,
    Regs,
}

/// What a case leaves behind.
enum Left {
    /// The directory is exactly as before the run.
    Unchanged,
    /// A custom check of the directory after the run (no HX case needs one yet).
    #[allow(dead_code)]
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
    #[allow(dead_code)]
    fn left(mut self, f: fn(&Path)) -> Self {
        self.left = Left::Check(f);
        self
    }
}

fn case_dir(id: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("bad_inputs_hdl")
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
            Bin::Verilog => PFT_VERILOG,
            Bin::Regs => PFT_REGS,
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
// pft-verilog and pft-regs

fn tool_cases() -> Vec<Case> {
    let v = Bin::Verilog;
    let r = Bin::Regs;
    vec![
        case("HX-01", v, &["--bogus"]).also(&["-o", "x.v"]),
        case("HX-02", v, &["a.v", "b.v"]),
        case("HX-03", v, &["od"]).dir("od"),
        case("HX-04", v, &["afile/x.v"]).file("afile", "keep me\n"),
        case("HX-05", r, &["--bogus"]).also(&["out.md"]),
        case("HX-06", r, &[]).stdout_full(),
    ]
}

// ---------------------------------------------------------------------------------------
// The block's own bad inputs: model and RTL in lock-step

/// The reference model and the RTL, driven with the same inputs.
struct Pair {
    m: PftModel,
    r: RtlStepper,
    cycle: u64,
}

impl Pair {
    /// Both engines after one reset cycle.
    fn new() -> Self {
        let mut p = Pair {
            m: PftModel::new(),
            r: RtlStepper::new(),
            cycle: 0,
        };
        p.step(Inputs {
            reset: true,
            ..Default::default()
        });
        p
    }

    /// One cycle on both; their outputs and state must agree.
    fn step(&mut self, i: Inputs) -> Outputs {
        let a = Engine::step(&mut self.m, &i);
        let b = self.r.step(&i);
        assert_eq!(
            a, b,
            "cycle {}: model and RTL outputs differ for {i:?}",
            self.cycle
        );
        assert_eq!(
            self.m.probe(),
            self.r.probe(),
            "cycle {}: model and RTL state differ after {i:?}",
            self.cycle
        );
        self.cycle += 1;
        a
    }

    fn io(&mut self, flit_valid: bool, credit_return: u8) -> Outputs {
        self.step(Inputs {
            flit_valid,
            credit_return,
            ..Default::default()
        })
    }

    fn write(&mut self, a: u8, d: u32) -> Outputs {
        self.step(Inputs {
            csr_we: true,
            csr_addr: a,
            csr_wdata: d,
            ..Default::default()
        })
    }

    /// A register's value (a cycle with no flit, no credit, no write).
    fn read(&mut self, a: u8) -> u32 {
        self.step(Inputs {
            csr_addr: a,
            ..Default::default()
        })
        .csr_rdata
    }

    fn status(&mut self) -> (bool, bool, u16) {
        let s = self.read(addr::STATUS);
        (
            s & regs::STATUS_ERR_UNDERFLOW != 0,
            s & regs::STATUS_ERR_OVERFLOW != 0,
            (s >> regs::STATUS_C_SHIFT) as u16,
        )
    }

    /// Every register as read back now.
    fn all_regs(&self) -> Vec<u32> {
        (0..16).map(|a| self.m.read(a)).collect()
    }
}

/// BK-01: more credits come back than are in use.
fn bk_credit_return_beyond_used() {
    let mut p = Pair::new();
    for _ in 0..3 {
        assert!(p.io(true, 0).send);
    }
    assert_eq!(p.status(), (false, false, 3));
    // 10 credits come back, 3 are in use: c clamps to 0 (no wrap), err_underflow is set
    p.io(false, 10);
    assert_eq!(p.status(), (true, false, 0));
    // sticky through normal traffic, which goes on as usual
    for _ in 0..5 {
        assert!(p.io(true, 0).send);
    }
    for _ in 0..5 {
        p.io(false, 1);
    }
    assert_eq!(p.status(), (true, false, 0));
    // the extreme: 255 credits with none in use
    p.io(false, 255);
    assert_eq!(p.status(), (true, false, 0));
    // write 1 to bit 1 clears it
    p.write(addr::STATUS, regs::STATUS_ERR_UNDERFLOW);
    assert_eq!(p.status(), (false, false, 0));
    // the boundary is not an error: c = 2, a send and 3 returns in one cycle
    p.io(true, 0);
    p.io(true, 0);
    p.io(true, 3);
    assert_eq!(p.status(), (false, false, 0));
}

/// BK-02: writes to read-only registers (AT_STATUS; STATUS without a 1 in an error bit).
fn bk_write_read_only() {
    let mut a = Pair::new();
    let mut b = Pair::new();
    let cfg = [
        (addr::CREDIT_LIMIT, 64),
        (addr::TH_ENTER, 8),
        (addr::TH_ESCAPE, 4),
        (addr::AT_WIN_E, 16),
        (addr::AT_CNT_E, 4),
        (addr::CTRL, regs::ctrl_word(true, true, false)),
    ];
    for (x, d) in cfg {
        a.write(x, d);
        b.write(x, d);
    }
    for _ in 0..12 {
        a.io(true, 0);
        b.io(true, 0);
    }
    assert!(a.m.win > 0 && a.m.hit > 0, "the AT window is running");
    // `a` gets the writes, `b` the same cycles without them
    a.write(addr::AT_STATUS, 0xFFFF_FFFF);
    b.io(false, 0);
    a.write(
        addr::STATUS,
        !(regs::STATUS_ERR_UNDERFLOW | regs::STATUS_ERR_OVERFLOW),
    );
    b.io(false, 0);
    assert_eq!(
        a.all_regs(),
        b.all_regs(),
        "a write to a read-only register changed something"
    );
    assert_eq!(a.m, b.m);
}

/// BK-03: an address beyond the 16-word map on the model's 8-bit `csr_addr`.
fn bk_address_beyond_map() {
    let mut a = Pair::new();
    let mut b = Pair::new();
    a.write(0x12, 0x55); // only csr_addr[3:0] exists: this is TH_ENTER
    b.write(addr::TH_ENTER, 0x55);
    assert_eq!(a.read(0x12), 0x55, "reads alias the same way");
    assert_eq!(b.read(addr::TH_ENTER), 0x55);
    assert_eq!(a.all_regs(), b.all_regs());
    a.write(0xFF, 0x1234); // = AT_STATUS, read-only: ignored
    b.io(false, 0);
    assert_eq!(a.all_regs(), b.all_regs());
    assert_eq!(a.m, b.m);
}

/// BK-04: values wider than their field.
fn bk_bits_outside_fields() {
    let mut p = Pair::new();
    p.write(addr::CTRL, 0xFFFF_FFF8); // no field bit set: stays disabled
    assert_eq!(p.read(addr::CTRL), 0);
    p.write(addr::CTRL, 0xFFFF_FFFF);
    assert_eq!(p.read(addr::CTRL), regs::CTRL_MASK);
    p.write(addr::CREDIT_LIMIT, 0x1_0005);
    assert_eq!(p.read(addr::CREDIT_LIMIT), 5);
    p.write(addr::TH_ENTER, 0xFFFF_0010);
    assert_eq!(p.read(addr::TH_ENTER), 0x10);
    p.write(addr::K, 0xABCD_1234);
    assert_eq!(p.read(addr::K), 0x1234);
    p.write(addr::SHAPE, 0xFFFF_FFFF);
    assert_eq!(p.read(addr::SHAPE), regs::SHAPE_MASK);
    assert_eq!((p.m.regs.m, p.m.regs.n), (31, 31));
    // m = 32 (what pft-trace and pftsim refuse) is m = 0 on the wire
    p.write(addr::SHAPE, 32);
    assert_eq!((p.m.regs.m, p.m.regs.n), (0, 0));
}

/// BK-05: SEED = 0, the generator's fixed point.
fn bk_seed_zero() {
    let mut p = Pair::new();
    p.write(addr::SEED, 0);
    assert_eq!(p.m.r, regs::RESET_SEED, "a write of 0 loads the reset seed");
    assert_eq!(p.read(addr::SEED), regs::RESET_SEED);
    assert_ne!(p.m.r, 0, "the generator still runs");
}

/// BK-06: CREDIT_LIMIT = 0.
fn bk_credit_limit_zero() {
    let mut p = Pair::new();
    p.write(addr::CREDIT_LIMIT, 0);
    for _ in 0..100 {
        let o = p.io(true, 0);
        assert!(!o.send && !o.throttled);
    }
    assert_eq!(p.status(), (false, false, 0));
    assert_eq!(p.read(addr::CNT_SENT), 0);
}

/// BK-07: CREDIT_LIMIT lowered below the credits in use.
fn bk_credit_limit_below_used() {
    let mut p = Pair::new();
    for _ in 0..10 {
        assert!(p.io(true, 0).send);
    }
    p.write(addr::CREDIT_LIMIT, 4);
    // c = 10 > 4: err_overflow at the end of the next cycle; no flit leaves
    let o = p.io(true, 0);
    assert!(!o.send && !o.throttled);
    assert_eq!(p.status(), (false, true, 10));
    // credits come back one by one; sends resume only below the new limit
    let mut c = 10;
    while c > 3 {
        let o = p.io(true, 1);
        assert!(!o.send, "sent with c = {c} >= 4");
        c -= 1;
    }
    assert!(p.io(true, 0).send, "c = 3 < 4: a flit leaves");
    assert_eq!(p.status(), (false, true, 4), "sticky");
    p.write(addr::STATUS, regs::STATUS_ERR_OVERFLOW);
    assert_eq!(p.status(), (false, false, 4));
}

/// Offers flits until `c` credits are in use (the throttle may hold some back).
fn hold_c(p: &mut Pair, c: u16) {
    for _ in 0..1000 {
        if p.m.c == c {
            return;
        }
        p.io(true, 0);
    }
    panic!("c did not reach {c}: {}", p.m.c);
}

/// BK-08: AT count larger than its window.
fn bk_at_count_above_window() {
    let mut p = Pair::new();
    p.write(addr::TH_ENTER, 2);
    p.write(addr::AT_WIN_E, 4);
    p.write(addr::AT_CNT_E, 5);
    p.write(addr::CTRL, regs::ctrl_word(true, true, false));
    hold_c(&mut p, 10);
    for _ in 0..500 {
        let o = p.io(false, 0);
        assert!(!o.congested, "entered Congested with AT_CNT_E > AT_WIN_E");
    }
    assert!(p.m.hit <= 4 && p.m.win <= 4);
}

/// BK-09: FT thresholds the wrong way round (TH_ENTER < TH_ESCAPE) with c between them.
fn bk_ft_thresholds_crossed() {
    let mut p = Pair::new();
    p.write(addr::TH_ENTER, 4);
    p.write(addr::TH_ESCAPE, 20);
    p.write(addr::CTRL, regs::ctrl_word(true, false, false));
    hold_c(&mut p, 10);
    let mut last = p.io(false, 0).congested;
    for _ in 0..50 {
        let now = p.io(false, 0).congested;
        assert_ne!(
            now, last,
            "FT flips every cycle when TH_ENTER < c < TH_ESCAPE"
        );
        last = now;
    }
}

fn block_cases() -> Vec<(&'static str, fn())> {
    vec![
        ("BK-01", bk_credit_return_beyond_used as fn()),
        ("BK-02", bk_write_read_only),
        ("BK-03", bk_address_beyond_map),
        ("BK-04", bk_bits_outside_fields),
        ("BK-05", bk_seed_zero),
        ("BK-06", bk_credit_limit_zero),
        ("BK-07", bk_credit_limit_below_used),
        ("BK-08", bk_at_count_above_window),
        ("BK-09", bk_ft_thresholds_crossed),
    ]
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
        if r.id.starts_with("BK") {
            assert!(
                r.exit.is_none(),
                "{}: a block row has no exit status (`-`)",
                r.id
            );
        }
    }
    let mut ids = std::collections::BTreeSet::new();
    for c in tool_cases() {
        assert!(ids.insert(c.id), "case {} twice", c.id);
    }
    for (id, _) in block_cases() {
        assert!(ids.insert(id), "case {id} twice");
    }
    let doc: std::collections::BTreeSet<&str> = rows
        .iter()
        .map(|r| r.id.as_str())
        .filter(|id| OWNED.contains(&&id[..2]))
        .collect();
    assert_eq!(
        doc, ids,
        "docs/bad-inputs.md rows (left) and the cases of hdl/tests/bad_inputs.rs (right) differ"
    );
}

#[test]
fn tool_arguments_and_outputs() {
    let rows = catalogue();
    for c in tool_cases() {
        run_case(&c, &rows);
    }
}

#[test]
fn block_bad_inputs_model_and_rtl() {
    let rows = catalogue();
    for (id, f) in block_cases() {
        row(&rows, id);
        f();
    }
}
