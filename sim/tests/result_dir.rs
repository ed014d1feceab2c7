//! A result directory belongs to one run of one command (docs/scenarios.md): `pftsim
//! compare` killed at seeded random points never leaves anything that looks complete, nor an
//! earlier command's files beside its own, and the next command cleans up after it.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

const PFTSIM: &str = env!("CARGO_BIN_EXE_pftsim");

/// The smoke scenario made to run its whole cycle budget (about a second per compare).
fn scenario(dir: &Path) -> PathBuf {
    let base = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../scenarios/smoke.toml"
    ))
    .unwrap();
    let text = base
        .replace("max = 400_000", "max = 600_000")
        .replace("stop_when_finished = true", "stop_when_finished = false");
    assert_ne!(text, base, "smoke.toml changed: update this test");
    let p = dir.join("s.toml");
    std::fs::write(&p, text).unwrap();
    p
}

#[derive(serde::Deserialize)]
struct Manifest {
    command: String,
    files: Vec<String>,
    finished: bool,
}

fn manifest(out: &Path) -> Option<Manifest> {
    std::fs::read(out.join("manifest.json"))
        .ok()
        .map(|b| serde_json::from_slice(&b).expect("a manifest is complete JSON"))
}

/// Every regular file under `out`, relative, except the lock, the manifest and what was
/// moved aside.
fn files(out: &Path) -> Vec<String> {
    fn walk(root: &Path, d: &Path, v: &mut Vec<String>) {
        for e in std::fs::read_dir(d).unwrap().flatten() {
            let p = e.path();
            let rel = p.strip_prefix(root).unwrap().to_string_lossy().into_owned();
            if rel.starts_with(".previous-") || rel == ".pftsim.lock" || rel == "manifest.json" {
                continue;
            }
            if p.is_dir() {
                walk(root, &p, v);
            } else {
                v.push(rel);
            }
        }
    }
    let mut v = Vec::new();
    walk(out, out, &mut v);
    v.sort();
    v
}

/// What a user may conclude from `out` must be true.
fn nothing_misleading(out: &Path, when: &str) {
    let m = manifest(out);
    let present = files(out);
    match &m {
        None => {
            // killed before the manifest: nothing of an earlier command may remain
            let visible: Vec<&String> = present
                .iter()
                .filter(|f| !f.contains("/.") && !f.starts_with('.'))
                .collect();
            assert!(
                visible.is_empty(),
                "{when}: files without a manifest: {visible:?}"
            );
        }
        Some(m) => {
            assert_eq!(m.command, "compare");
            for f in &present {
                let name = f.rsplit('/').next().unwrap();
                if name.starts_with('.') {
                    assert!(name.contains(".tmp-"), "{when}: unexpected hidden file {f}");
                    continue;
                }
                assert!(m.files.contains(f), "{when}: {f} is not this command's");
            }
            if m.finished {
                for f in &m.files {
                    assert!(out.join(f).is_file(), "{when}: finished but {f} missing");
                }
            } else {
                assert!(
                    !out.join("compare.json").exists(),
                    "{when}: compare.json of an unfinished command"
                );
            }
        }
    }
}

fn compare(s: &Path, out: &Path) -> std::process::Child {
    Command::new(PFTSIM)
        .args(["compare"])
        .arg(s)
        .arg("--out")
        .arg(out)
        .args(["--quiet", "--jobs", "2"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

#[test]
fn compare_killed_at_random_points_leaves_nothing_misleading() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("result_dir_crash");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let s = scenario(&dir);
    let out = dir.join("o");
    // a complete earlier command, and how long one takes
    let t0 = Instant::now();
    assert!(compare(&s, &out).wait().unwrap().success());
    let full = t0.elapsed();
    nothing_misleading(&out, "after the first compare");
    assert!(manifest(&out).unwrap().finished);
    // kill points spread over the run, from a fixed seed
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    for i in 0..8 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let at = full.mul_f64((x % 1000) as f64 / 1000.0 * 1.1);
        let mut child = compare(&s, &out);
        std::thread::sleep(at);
        let _ = child.kill();
        let _ = child.wait();
        nothing_misleading(&out, &format!("kill {i} after {at:?}"));
    }
    // the next command finishes and cleans up what the killed ones left
    assert!(compare(&s, &out).wait().unwrap().success());
    nothing_misleading(&out, "after the last compare");
    let m = manifest(&out).unwrap();
    assert!(m.finished);
    let hidden: Vec<String> = files(&out)
        .into_iter()
        .filter(|f| f.contains(".tmp-"))
        .collect();
    assert!(hidden.is_empty(), "temporary files left: {hidden:?}");
    // the earlier commands' results were moved aside, not lost
    let aside = std::fs::read_dir(&out)
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with(".previous-"))
        .count();
    assert!(aside >= 1, "nothing was moved aside");
}

/// A result directory whose name is not UTF-8 (`std::env::args` panicked on it when the
/// manifest recorded the command line): `run` and a sweep's `--emit` write into it, and
/// the manifest records the name with U+FFFD for the bytes that are not UTF-8.
#[test]
fn a_result_dir_named_in_bytes_that_are_not_utf8() {
    use std::os::unix::ffi::OsStrExt;
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("result_dir_not_utf8");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let smoke = concat!(env!("CARGO_MANIFEST_DIR"), "/../scenarios/smoke.toml");
    std::fs::write(
        dir.join("g.toml"),
        "seeds = [1]\n[[axis]]\nkey = \"network.mtu_bytes\"\nvalues = [64, 128]\n",
    )
    .unwrap();
    let name = std::ffi::OsStr::from_bytes(b"r\xffx");
    for (args, wrote) in [
        (vec!["run", smoke, "--quiet", "--out"], "summary.json"),
        (
            vec![
                "sweep", smoke, "--grid", "g.toml", "--emit", "parallel", "--out",
            ],
            "jobs.txt",
        ),
    ] {
        let _ = std::fs::remove_dir_all(dir.join(name));
        let o = Command::new(PFTSIM)
            .args(&args)
            .arg(name)
            .current_dir(&dir)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(o.status.success(), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(dir.join(name).join(wrote).is_file(), "{args:?}: no {wrote}");
        let m: serde_json::Value =
            serde_json::from_slice(&std::fs::read(dir.join(name).join("manifest.json")).unwrap())
                .unwrap();
        let argv: Vec<&str> = m["argv"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a.as_str().unwrap())
            .collect();
        assert_eq!(argv.last(), Some(&"r\u{fffd}x"), "{args:?}");
    }
}
