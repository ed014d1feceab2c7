//! The source stays split by responsibility: no file under `sim/src` over 700 lines
//! (issue 21). A file that grows past it is split, not the limit raised.

use std::path::{Path, PathBuf};

const MAX_LINES: usize = 700;

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

#[test]
fn no_source_file_is_over_700_lines() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    assert!(
        files.len() > 50,
        "{} files under {}",
        files.len(),
        src.display()
    );
    let long: Vec<String> = files
        .iter()
        .filter_map(|p| {
            let n = std::fs::read_to_string(p).unwrap().lines().count();
            (n > MAX_LINES).then(|| format!("{} ({n} lines)", p.display()))
        })
        .collect();
    assert!(long.is_empty(), "over {MAX_LINES} lines: {long:?}");
}

fn script_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            script_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "sh" || x == "py") {
            out.push(p);
        }
    }
}

/// The scripts under `tb/` and `synth/` run the binaries cargo just built: from `tb/release_dir.sh`
/// (target/release, or under CARGO_TARGET_DIR), never a fixed `target/release` path,
/// which under a CARGO_TARGET_DIR holds a stale build or none. A script that builds with
/// its own CARGO_TARGET_DIR set on the command (lane_vs.sh) names its own directory.
#[test]
fn scripts_run_what_cargo_built() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    script_files(&root.join("tb"), &mut files);
    script_files(&root.join("synth"), &mut files);
    assert!(
        files.len() > 20,
        "{} scripts under tb/ and synth/",
        files.len()
    );
    let fixed: Vec<String> = files
        .iter()
        .flat_map(|p| {
            let text = std::fs::read_to_string(p).unwrap();
            let sets_own = text.contains("CARGO_TARGET_DIR=\"$root/target\" cargo build");
            text.lines()
                .enumerate()
                .filter(|(_, l)| !l.trim_start().starts_with('#') && !sets_own)
                .filter(|(_, l)| l.contains("target/release/"))
                .map(|(i, l)| format!("{}:{}: {}", p.display(), i + 1, l.trim()))
                .collect::<Vec<_>>()
        })
        .collect();
    assert!(fixed.is_empty(), "a fixed target/release path: {fixed:#?}");
}
