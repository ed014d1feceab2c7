//! The harness of the bad-input catalogue (docs/bad-inputs.md), shared by the `bad_inputs*`
//! tests of the three crates: the catalogue's rows ([`Catalogue`], read by
//! [`catalogue!`](crate::catalogue!)), a case (the binary, the files and directories it starts
//! with, its argument vectors, what it must leave behind) and [`Catalogue::run`], which runs
//! the real binary in a fresh directory and checks the exit status, the absence of a panic,
//! the row's message fragments and what is left on disk; [`Catalogue::matches_cases`] keeps
//! the doc's rows and a test file's cases in step.

use std::collections::{BTreeMap, BTreeSet};
use std::fs::OpenOptions;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Every prefix of the catalogue, and the test file that owns it.
pub const ALL_PREFIXES: [(&str, &str); 14] = [
    ("SC", "sim/tests/bad_inputs.rs"),
    ("SX", "sim/tests/bad_inputs_cli.rs"),
    ("SW", "sim/tests/bad_inputs_sweep.rs"),
    ("SP", "sim/tests/bad_inputs_paths.rs"),
    ("SV", "sim/tests/bad_inputs_validation.rs"),
    ("NB", "sim/tests/bad_inputs_net_bench.rs"),
    ("SK", "sim/tests/bad_inputs_keys.rs"),
    ("SR", "sim/tests/bad_inputs_keys.rs"),
    ("TC", "tb/tests/bad_inputs.rs"),
    ("TS", "tb/tests/bad_inputs.rs"),
    ("TX", "tb/tests/bad_inputs.rs"),
    ("TB", "tb/tests/bad_inputs_bench.rs"),
    ("HX", "hdl/tests/bad_inputs.rs"),
    ("BK", "hdl/tests/bad_inputs.rs"),
];

// ---------------------------------------------------------------------------------------
// The catalogue (docs/bad-inputs.md)

pub struct Row {
    pub id: String,
    /// Exit status, or None when the row has none (block-level rows).
    pub exit: Option<i32>,
    /// The ``code spans`` of "what it gets": each must appear in the output.
    pub needles: Vec<String>,
}

pub fn doc_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/bad-inputs.md")
}

pub fn is_id(s: &str) -> bool {
    let b = s.as_bytes();
    (5..=6).contains(&b.len())
        && b[..2].iter().all(u8::is_ascii_uppercase)
        && b[2] == b'-'
        && b[3..].iter().all(u8::is_ascii_digit)
}

/// Cells of a Markdown table line (`\|` is a literal bar).
pub fn cells(line: &str) -> Vec<String> {
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
pub fn spans(cell: &str) -> Vec<String> {
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

/// The rows of docs/bad-inputs.md, in the doc's order.
pub fn rows() -> Vec<Row> {
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

/// The catalogue's rows, and the directory its cases run under (one subdirectory per case).
pub struct Catalogue {
    pub rows: Vec<Row>,
    root: PathBuf,
}

impl Catalogue {
    /// Reads docs/bad-inputs.md; the cases run under `root` (the caller's
    /// [`case_root!`](crate::case_root!)).
    pub fn read(root: PathBuf) -> Self {
        Catalogue { rows: rows(), root }
    }

    /// The row `id` (a case without a row fails here).
    pub fn row(&self, id: &str) -> &Row {
        self.rows
            .iter()
            .find(|r| r.id == id)
            .unwrap_or_else(|| panic!("{id} is not in docs/bad-inputs.md"))
    }

    /// A fresh, empty directory for the case `id`.
    pub fn case_dir(&self, id: &str) -> PathBuf {
        case_dir(&self.root, id)
    }

    /// Runs `c` (every argument vector) and checks it against its row.
    pub fn run(&self, c: &Case) {
        run_case(c, self.row(c.id), &self.case_dir(c.id));
    }

    /// The doc as a whole (its ids unique, every prefix in [`ALL_PREFIXES`], a message for
    /// every failing row, no exit status for a block row), and its rows of the prefixes
    /// `owned` against the ids of the cases of the one test file that owns them: the same
    /// set, no case twice.
    pub fn matches_cases<'a>(&self, owned: &[&str], cases: impl IntoIterator<Item = &'a str>) {
        let rows = &self.rows;
        assert!(rows.len() >= 30, "the catalogue has {} rows", rows.len());
        let mut seen = BTreeSet::new();
        for r in rows {
            assert!(
                seen.insert(r.id.as_str()),
                "{} appears twice in the doc",
                r.id
            );
            assert!(
                ALL_PREFIXES.iter().any(|(p, _)| *p == &r.id[..2]),
                "{}: unknown prefix (known: {ALL_PREFIXES:?})",
                r.id
            );
            if r.exit.is_some_and(|e| e != 0) {
                assert!(!r.needles.is_empty(), "{}: no ``message`` in the doc", r.id);
            }
            if r.id.starts_with("BK") {
                assert!(
                    r.exit.is_none(),
                    "{}: a block row has no exit status (`-`)",
                    r.id
                );
            }
        }
        let files: BTreeSet<&str> = ALL_PREFIXES
            .iter()
            .filter(|(p, _)| owned.contains(p))
            .map(|(_, f)| *f)
            .collect();
        assert_eq!(
            files.len(),
            1,
            "the prefixes {owned:?} are owned by one test file (ALL_PREFIXES: {files:?})"
        );
        let file = files.first().unwrap();
        assert_eq!(
            ALL_PREFIXES.iter().filter(|(_, f)| f == file).count(),
            owned.len(),
            "{file} owns other prefixes than {owned:?}"
        );
        let mut ids = BTreeSet::new();
        for id in cases {
            assert!(ids.insert(id), "case {id} twice");
        }
        let doc: BTreeSet<&str> = rows
            .iter()
            .map(|r| r.id.as_str())
            .filter(|id| owned.contains(&&id[..2]))
            .collect();
        assert_eq!(
            doc, ids,
            "docs/bad-inputs.md rows {owned:?} (left) and the cases of {file} (right) differ"
        );
    }
}

// ---------------------------------------------------------------------------------------
// Running a case

/// What a case leaves behind.
pub enum Left {
    /// The directory is exactly as before the run.
    Unchanged,
    /// A custom check of the directory after the run.
    Check(fn(&Path)),
}

pub struct Case {
    pub id: &'static str,
    /// The binary (`env!("CARGO_BIN_EXE_...")`).
    pub bin: &'static str,
    /// Files written before the run (relative to the case directory).
    pub files: Vec<(&'static str, Vec<u8>)>,
    /// Directories created before the run.
    pub dirs: Vec<&'static str>,
    /// One or more argument vectors, each run and checked the same way.
    pub runs: Vec<Vec<&'static str>>,
    /// Stdout is /dev/full.
    pub stdout_full: bool,
    /// Stdout is closed (the binary runs through `sh -c 'exec "$@" >&-'`).
    pub stdout_closed: bool,
    /// Symbolic links made before the run: (name, target).
    pub symlinks: Vec<(&'static str, &'static str)>,
    /// A file this test holds an exclusive lock on (`flock`) during the run.
    pub locked: Option<&'static str>,
    /// Environment variables of the run.
    pub env: Vec<(&'static str, &'static str)>,
    pub left: Left,
}

pub fn case(id: &'static str, bin: &'static str, args: &[&'static str]) -> Case {
    Case {
        id,
        bin,
        files: Vec::new(),
        dirs: Vec::new(),
        runs: vec![args.to_vec()],
        stdout_full: false,
        stdout_closed: false,
        symlinks: Vec::new(),
        locked: None,
        env: Vec::new(),
        left: Left::Unchanged,
    }
}

impl Case {
    pub fn file(mut self, name: &'static str, text: impl Into<Vec<u8>>) -> Self {
        self.files.push((name, text.into()));
        self
    }
    pub fn dir(mut self, name: &'static str) -> Self {
        self.dirs.push(name);
        self
    }
    pub fn also(mut self, args: &[&'static str]) -> Self {
        self.runs.push(args.to_vec());
        self
    }
    pub fn stdout_full(mut self) -> Self {
        self.stdout_full = true;
        self
    }
    pub fn stdout_closed(mut self) -> Self {
        self.stdout_closed = true;
        self
    }
    pub fn symlink(mut self, name: &'static str, target: &'static str) -> Self {
        self.symlinks.push((name, target));
        self
    }
    pub fn locked(mut self, name: &'static str) -> Self {
        self.locked = Some(name);
        self
    }
    pub fn env(mut self, key: &'static str, value: &'static str) -> Self {
        self.env.push((key, value));
        self
    }
    pub fn left(mut self, f: fn(&Path)) -> Self {
        self.left = Left::Check(f);
        self
    }
}

/// A fresh, empty directory for the case `id` under `root` (the caller's
/// [`case_root!`](crate::case_root!)).
pub fn case_dir(root: &Path, id: &str) -> PathBuf {
    let d = root.join(id);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Every file under `d` with its contents (directories as `None`).
pub fn snapshot(d: &Path) -> BTreeMap<PathBuf, Option<Vec<u8>>> {
    let mut m = BTreeMap::new();
    fn walk(root: &Path, d: &Path, m: &mut BTreeMap<PathBuf, Option<Vec<u8>>>) {
        for e in std::fs::read_dir(d).unwrap() {
            let p = e.unwrap().path();
            let rel = p.strip_prefix(root).unwrap().to_path_buf();
            let lm = std::fs::symlink_metadata(&p).unwrap();
            if lm.file_type().is_symlink() {
                let t = std::fs::read_link(&p).unwrap();
                m.insert(rel, Some(format!("-> {}", t.display()).into_bytes()));
            } else if lm.is_dir() {
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
pub fn no_temporaries(d: &Path) {
    for p in snapshot(d).keys() {
        let name = p.file_name().unwrap().to_string_lossy();
        assert!(
            !name.contains(".tmp-") && !name.contains(".partial"),
            "temporary file left behind: {}",
            p.display()
        );
    }
}

/// Runs `c` in the fresh directory `d` and checks it against its row `r`.
pub fn run_case(c: &Case, r: &Row, d: &Path) {
    for dir in &c.dirs {
        std::fs::create_dir_all(d.join(dir)).unwrap();
    }
    for (name, text) in &c.files {
        std::fs::write(d.join(name), text).unwrap();
    }
    for (name, target) in &c.symlinks {
        std::os::unix::fs::symlink(target, d.join(name)).unwrap();
    }
    // another writer holding the lock for the whole case
    let _held = c.locked.map(|name| {
        let f = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(d.join(name))
            .unwrap();
        f.try_lock().expect("the test takes the lock");
        f
    });
    for args in &c.runs {
        let before = snapshot(d);
        let mut cmd = if c.stdout_closed {
            let mut sh = Command::new("/bin/sh");
            sh.args(["-c", "exec \"$0\" \"$@\" >&-", c.bin]);
            sh
        } else {
            Command::new(c.bin)
        };
        cmd.args(args)
            .current_dir(d)
            .env("RUST_BACKTRACE", "0")
            .envs(c.env.iter().copied())
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
        // the summary, when the case wrote one (pft-trace `o.json`), is part of what the
        // input gets
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
                    snapshot(d) == before,
                    "{what}\nthe directory changed: before {:?}, after {:?}",
                    before.keys().collect::<Vec<_>>(),
                    snapshot(d).keys().collect::<Vec<_>>()
                );
            }
            Left::Check(f) => f(d),
        }
        no_temporaries(d);
    }
}
