//! A result directory inside another command's (docs/scenarios.md, "A result directory
//! belongs to one run of one command"): `run --out o/p` and then `compare --out o`, whose run
//! `p` writes `o/p/`, or `compare --out n/p` and then `compare --out n`. The later command
//! moves the earlier one aside whole, its manifest with every file it lists, into
//! `.previous-*/p/`, and says whose files they were; nothing of the earlier command stays
//! beside the new one's, no manifest left behind says "finished" over files that are not its
//! own, and `run --skip-finished` does not take the new files for the earlier run. (These
//! used to move the earlier files one by one as "an earlier command (no manifest)", leaving
//! its manifest, and a compare's `compare.json` and run directories, where they were.)

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const PFTSIM: &str = env!("CARGO_BIN_EXE_pftsim");

/// A tiny scenario with two `[[pft]]` entries, `p` and `q` (milliseconds per run).
const S: &str = r#"name = "nested"
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
[[pft]]
name = "q"
"#;

/// A directory of its own under the system's temporary directory, removed when dropped.
struct Tmp(PathBuf);

impl Tmp {
    fn new(name: &str) -> Tmp {
        let d = std::env::temp_dir().join(format!(
            "pft-result-dir-nested-{}-{name}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(d.join("s.toml"), S).unwrap();
        let other = S.replace("load = 0.5", "load = 0.3");
        assert_ne!(other, S);
        std::fs::write(d.join("other.toml"), other).unwrap();
        Tmp(d)
    }

    /// `pftsim args` run in the directory.
    fn pftsim(&self, args: &[&str]) -> Output {
        Command::new(PFTSIM)
            .args(args)
            .current_dir(&self.0)
            .output()
            .unwrap()
    }

    /// `pftsim args`, which must succeed; its stderr.
    fn ok(&self, args: &[&str]) -> String {
        let o = self.pftsim(args);
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        assert!(o.status.success(), "pftsim {args:?}: {:?}\n{err}", o.status);
        err
    }
}

impl Drop for Tmp {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[derive(serde::Deserialize)]
struct Manifest {
    command: String,
    files: Vec<String>,
    finished: bool,
}

fn manifest(dir: &Path) -> Option<(Vec<u8>, Manifest)> {
    let b = std::fs::read(dir.join("manifest.json")).ok()?;
    let m = serde_json::from_slice(&b).expect("a manifest is complete JSON");
    Some((b, m))
}

/// Every regular file under `dir`, relative, except locks and what was moved aside.
fn files(dir: &Path) -> Vec<String> {
    fn walk(root: &Path, d: &Path, v: &mut Vec<String>) {
        for e in std::fs::read_dir(d).unwrap().flatten() {
            let p = e.path();
            let name = e.file_name().to_string_lossy().into_owned();
            if name.starts_with(".previous-") || name == ".pftsim.lock" {
                continue;
            }
            if e.file_type().unwrap().is_dir() {
                walk(root, &p, v);
            } else {
                v.push(p.strip_prefix(root).unwrap().to_string_lossy().into_owned());
            }
        }
    }
    let mut v = Vec::new();
    walk(dir, dir, &mut v);
    v.sort();
    v
}

/// The directories `.previous-*` in `dir`.
fn previous(dir: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with(".previous-"))
        .map(|e| e.path())
        .collect()
}

/// The earlier command whose manifest was `old` (bytes `bytes`) in `dir/sub` was moved
/// aside whole: one `dir/.previous-*/sub/` holds that manifest and every file it listed.
/// Nothing left in `dir/sub` is the earlier manifest, and every file there (but `mine`) is
/// one the command in `dir` lists (as `sub/...`).
fn moved_whole(dir: &Path, sub: &str, bytes: &[u8], old: &Manifest, mine: &[&str]) {
    let prev: Vec<PathBuf> = previous(dir)
        .into_iter()
        .filter(|p| std::fs::read(p.join(sub).join("manifest.json")).is_ok_and(|b| b == bytes))
        .collect();
    assert_eq!(
        prev.len(),
        1,
        "the earlier `{}`'s manifest in {}/.previous-*/{sub}/: {:?}",
        old.command,
        dir.display(),
        previous(dir)
    );
    let prev = prev[0].join(sub);
    for f in &old.files {
        assert!(
            prev.join(f).is_file(),
            "{f} of the earlier `{}` is not beside its manifest in {}",
            old.command,
            prev.display()
        );
    }
    let here = dir.join(sub);
    if let Some((b, _)) = manifest(&here) {
        assert!(
            b != bytes,
            "{}/manifest.json is still the earlier `{}`'s",
            here.display(),
            old.command
        );
    }
    let (_, top) = manifest(dir).expect("the new command's manifest");
    assert!(top.finished);
    let strays: Vec<String> = files(&here)
        .into_iter()
        .filter(|f| f != "manifest.json" && !mine.contains(&f.as_str()))
        .filter(|f| !top.files.contains(&format!("{sub}/{f}")))
        .collect();
    assert!(
        strays.is_empty(),
        "files of the earlier `{}` beside the `{}`'s in {}: {strays:?}",
        old.command,
        top.command,
        here.display()
    );
}

#[test]
fn compare_moves_a_run_in_its_run_directory_aside_whole() {
    let t = Tmp::new("run");
    let o = t.0.join("o");
    t.ok(&["run", "other.toml", "--out", "o/p", "--quiet"]);
    let (bytes, old) = manifest(&o.join("p")).expect("the run's manifest");
    assert!(old.command == "run" && old.finished);
    // a user's own file in the run's directory
    std::fs::write(o.join("p/mine.txt"), "mine\n").unwrap();

    let err = t.ok(&["compare", "s.toml", "--out", "o", "--quiet"]);
    assert!(
        err.contains("of a finished `run` in o/p to o/.previous-") && !err.contains("no manifest"),
        "the note names the run moved aside: {err}"
    );
    moved_whole(&o, "p", &bytes, &old, &["mine.txt"]);
    assert_eq!(
        std::fs::read_to_string(o.join("p/mine.txt")).unwrap(),
        "mine\n",
        "a user's own file is never touched"
    );

    // the run's line again: o/p now holds the compare's run `p`, not this run
    let summary = std::fs::read(o.join("p/summary.json")).unwrap();
    let again = t.pftsim(&[
        "run",
        "other.toml",
        "--out",
        "o/p",
        "--quiet",
        "--skip-finished",
    ]);
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&again.stdout),
        String::from_utf8_lossy(&again.stderr)
    );
    assert!(
        !said.contains("nothing to do"),
        "--skip-finished took the compare's files for the run: {said}"
    );
    // and the compare's run directory is its own (docs/bad-inputs.md, SW-07)
    assert!(
        !again.status.success() && said.contains("holds files of the `compare`"),
        "{said}"
    );
    assert_eq!(std::fs::read(o.join("p/summary.json")).unwrap(), summary);
}

#[test]
fn compare_moves_a_compare_in_its_run_directory_aside_whole() {
    let t = Tmp::new("compare");
    let n = t.0.join("n");
    t.ok(&["compare", "s.toml", "--out", "n/p", "--quiet"]);
    let (bytes, old) = manifest(&n.join("p")).expect("the inner compare's manifest");
    assert!(old.command == "compare" && old.finished);
    assert!(old.files.iter().any(|f| f == "compare.json"));
    assert!(old.files.iter().any(|f| f.starts_with("off/")));

    let err = t.ok(&["compare", "s.toml", "--out", "n", "--quiet"]);
    assert!(
        err.contains("of a finished `compare` in n/p to n/.previous-")
            && !err.contains("no manifest"),
        "the note names the compare moved aside: {err}"
    );
    moved_whole(&n, "p", &bytes, &old, &[]);
    for gone in ["compare.json", "compare.csv", "off", "p", "q"] {
        assert!(
            !n.join("p").join(gone).exists(),
            "n/p/{gone} of the inner compare is still there"
        );
    }
}
