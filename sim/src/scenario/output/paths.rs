//! Paths of result directories three ways: as written (`absolute`, lexical), with their
//! links resolved (`resolved`), and as the system reads them, `..` after a link included
//! (`physical`). `ResultDir::take` checks the directories above `--out` under the first two
//! and refuses an `--out` where the last two differ.

use anyhow::Context;
use std::path::{Component, Path, PathBuf};

/// `p` joined to the current directory when it is relative.
fn from_cwd(p: &Path) -> anyhow::Result<PathBuf> {
    Ok(if p.is_absolute() {
        p.to_path_buf()
    } else {
        std::env::current_dir()
            .context("cannot read the current directory")?
            .join(p)
    })
}

/// `p` made absolute against the current directory (lexically: links are not resolved, so
/// that a link inside a result directory is seen as one).
pub fn absolute(p: &Path) -> anyhow::Result<PathBuf> {
    let p = from_cwd(p)?;
    Ok(walk(PathBuf::new(), p.components()))
}

/// `parts` applied to `out` as text: `.` skipped, `..` one up.
fn walk<'a>(mut out: PathBuf, parts: impl IntoIterator<Item = Component<'a>>) -> PathBuf {
    for c in parts {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            c => out.push(c),
        }
    }
    out
}

/// Absolute `abs` with its links resolved: the longest part of it that exists made
/// canonical, the rest appended (as `absolute` left it). `abs` itself when nothing of it
/// resolves.
pub(super) fn resolved(abs: &Path) -> PathBuf {
    let mut rest = Vec::new();
    let mut at = abs;
    loop {
        if let Ok(c) = std::fs::canonicalize(at) {
            return rest.iter().rev().fold(c, |p, name| p.join(name));
        }
        match (at.parent(), at.file_name()) {
            (Some(up), Some(name)) => {
                rest.push(name);
                at = up;
            }
            _ => return abs.to_path_buf(),
        }
    }
}

/// `p` as the system reads it: against the current directory, its longest existing
/// prefix resolved (links, then `..` from where they lead), the rest applied as text.
pub(super) fn physical(p: &Path) -> anyhow::Result<PathBuf> {
    let full = from_cwd(p)?;
    let parts: Vec<Component> = full.components().collect();
    for n in (1..=parts.len()).rev() {
        if let Ok(out) = std::fs::canonicalize(parts[..n].iter().collect::<PathBuf>()) {
            return Ok(walk(out, parts[n..].iter().copied()));
        }
    }
    absolute(p)
}
