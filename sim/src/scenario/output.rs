//! Writing outputs so that nothing half-written looks complete: every file is written to a
//! hidden temporary name in the same directory and renamed into place, and the file that
//! marks a finished command (`summary.json`, `compare.json`) is removed first and written
//! last.

use anyhow::Context;
use serde::Serialize;
use std::path::{Path, PathBuf};

/// Writes `bytes` to `path` through a temporary file and a rename.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    let name = path
        .file_name()
        .with_context(|| format!("{} has no file name", path.display()))?;
    let tmp: PathBuf = path.with_file_name(format!(
        ".{}.tmp-{}",
        name.to_string_lossy(),
        std::process::id()
    ));
    let res = std::fs::write(&tmp, bytes)
        .and_then(|_| std::fs::rename(&tmp, path))
        .with_context(|| format!("writing {}", path.display()));
    if res.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    res
}

/// Writes `value` as pretty JSON (with a final newline).
pub fn write_json<T: Serialize>(path: &Path, value: &T) -> anyhow::Result<()> {
    let mut s = serde_json::to_string_pretty(value).context("serialising JSON")?;
    s.push('\n');
    write_atomic(path, s.as_bytes())
}

/// Writes rows as CSV with a header from the field names.
pub fn write_csv<R: Serialize>(path: &Path, rows: &[R]) -> anyhow::Result<()> {
    let s = crate::metrics::csv_table::rows_to_string(rows)
        .with_context(|| format!("formatting {}", path.display()))?;
    write_atomic(path, s.as_bytes())
}

/// Creates `dir` and removes its completion marker `marker` (left by an earlier command),
/// so that the directory never looks complete while this command runs.
pub fn prepare_dir(dir: &Path, marker: &str) -> anyhow::Result<()> {
    if dir.exists() && !dir.is_dir() {
        anyhow::bail!(
            "output directory {} exists and is not a directory",
            dir.display()
        );
    }
    std::fs::create_dir_all(dir)
        .with_context(|| format!("cannot create output directory {}", dir.display()))?;
    remove_marker(dir, marker)
}

/// Removes `dir/marker` if it is there (a missing `dir` is fine).
pub fn remove_marker(dir: &Path, marker: &str) -> anyhow::Result<()> {
    if !dir.is_dir() {
        return Ok(());
    }
    let m = dir.join(marker);
    match std::fs::remove_file(&m) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e).with_context(|| format!("removing the old {}", m.display())),
    }
}
