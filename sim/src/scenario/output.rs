//! Writing outputs so that nothing half-written looks complete and nothing a user has is
//! destroyed: every file is written to a hidden temporary name in the same directory and
//! renamed into place (`pft_hdl::outfile`), and a result directory belongs to one run of
//! one command (`ResultDir`: a lock, a manifest written first and finished last, an earlier
//! command's files moved aside).

use anyhow::Context;
use serde::Serialize;
use std::path::{Path, PathBuf};

/// Writes `bytes` to `path` through a temporary file and a rename.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    pft_hdl::outfile::write_atomic(path, bytes)
        .with_context(|| format!("writing {}", path.display()))
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

/// The manifest of a result directory: which command wrote which files, from which
/// scenario, and whether it finished. Written first (`finished: false`) and rewritten last.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Manifest {
    /// `pftsim <version>`.
    pub tool: String,
    /// `run` or `compare`.
    pub command: String,
    /// The command line.
    pub argv: Vec<String>,
    /// The scenario file, if the command read one.
    pub scenario: Option<String>,
    /// SHA-256 of the scenario as run (its canonical TOML, comments and layout aside).
    pub scenario_sha256: String,
    /// The runs (`off`, `isolated`, the configurations' names).
    pub runs: Vec<String>,
    /// Every file this command writes, relative to the directory.
    pub files: Vec<String>,
    /// Unix time when the command started.
    pub started_unix: u64,
    /// False until every file is written.
    pub finished: bool,
}

/// The manifest's file name.
pub const MANIFEST: &str = "manifest.json";
/// The lock file's name: held (an advisory `flock`) while a command writes the directory;
/// the system releases it when the process ends, even when killed.
pub const LOCK: &str = ".pftsim.lock";

/// A result directory owned by one run of one command: checked, locked, cleared of an
/// earlier command's files (moved aside, never deleted), with a manifest.
pub struct ResultDir {
    dir: PathBuf,
    manifest: Manifest,
    _lock: std::fs::File,
}

impl ResultDir {
    /// Takes `dir` for `manifest` (`files` relative to `dir`). Before anything is written:
    /// refuses a `dir` that is not a directory (or a symbolic link to a missing one), one
    /// that cannot be written, one that another pftsim is writing (the lock), and a plan
    /// whose files would replace an input or something that is not a regular file. Then
    /// moves every file an earlier command listed in its manifest, and every planned file
    /// already there, to `dir/.previous-<time>/` (saying so on stderr), and writes the
    /// manifest with `finished: false`. In a directory without a manifest (written by an
    /// older pftsim), the files named in `legacy` count as an earlier command's. Other files
    /// in `dir` are never touched.
    pub fn open(
        dir: &Path,
        manifest: Manifest,
        legacy: &[String],
        inputs: &[&Path],
    ) -> anyhow::Result<ResultDir> {
        use pft_hdl::outfile;
        if let Some(i) = inputs.iter().find(|i| outfile::same_file(dir, i)) {
            anyhow::bail!("--out {}: it is the input {}", dir.display(), i.display());
        }
        match std::fs::metadata(dir) {
            Ok(m) if m.is_dir() => {}
            Ok(_) => anyhow::bail!(
                "output directory {} exists and is not a directory",
                dir.display()
            ),
            Err(_) => {
                outfile::check_dir(dir).map_err(|e| {
                    anyhow::anyhow!(
                        "cannot create output directory {}: {}",
                        dir.display(),
                        e.why
                    )
                })?;
            }
        }
        for f in &manifest.files {
            let p = dir.join(f);
            if let Some(i) = inputs.iter().find(|i| outfile::same_file(&p, i)) {
                anyhow::bail!(
                    "cannot write {}: it is the input {} (an output never overwrites an input)",
                    p.display(),
                    i.display()
                );
            }
            if let Ok(m) = std::fs::symlink_metadata(&p) {
                if !m.is_file() {
                    anyhow::bail!(
                        "cannot write {}: it is {} (only a regular file is replaced)",
                        p.display(),
                        if m.is_dir() {
                            "a directory"
                        } else {
                            "not a regular file"
                        }
                    );
                }
            }
            // a run's subdirectory must be a directory if it exists
            let mut up = Path::new(f).parent();
            while let Some(d) = up.filter(|d| !d.as_os_str().is_empty()) {
                let full = dir.join(d);
                if full.exists() && !full.is_dir() {
                    anyhow::bail!(
                        "cannot write {}: {} is not a directory",
                        p.display(),
                        full.display()
                    );
                }
                up = d.parent();
            }
        }
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create output directory {}", dir.display()))?;
        outfile::check_dir(dir)
            .map_err(|e| anyhow::anyhow!("output directory {}: {}", dir.display(), e.why))?;
        let lock_path = dir.join(LOCK);
        let lock = std::fs::File::options()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&lock_path)
            .with_context(|| format!("cannot create the lock {}", lock_path.display()))?;
        match lock.try_lock() {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => anyhow::bail!(
                "another pftsim is writing into {} (it holds {}); wait for it to end or give another --out",
                dir.display(),
                lock_path.display()
            ),
            Err(std::fs::TryLockError::Error(e)) => {
                return Err(e).with_context(|| format!("cannot lock {}", lock_path.display()))
            }
        }
        let rd = ResultDir {
            dir: dir.to_path_buf(),
            manifest,
            _lock: lock,
        };
        rd.remove_stale_temporaries();
        rd.move_aside_earlier(legacy)?;
        rd.write_manifest()?;
        Ok(rd)
    }

    /// Removes the temporary files (`.NAME.tmp-PID`) of planned files that a killed command
    /// left: no other pftsim writes here while the lock is held.
    fn remove_stale_temporaries(&self) {
        let mut dirs: Vec<PathBuf> = self
            .manifest
            .files
            .iter()
            .chain(std::iter::once(&MANIFEST.to_string()))
            .filter_map(|f| self.dir.join(f).parent().map(Path::to_path_buf))
            .collect();
        dirs.sort();
        dirs.dedup();
        for d in dirs {
            let Ok(rd) = std::fs::read_dir(&d) else {
                continue;
            };
            for e in rd.flatten() {
                let name = e.file_name().to_string_lossy().into_owned();
                let ours = self
                    .manifest
                    .files
                    .iter()
                    .map(|f| f.rsplit('/').next().unwrap_or(f))
                    .chain(std::iter::once(MANIFEST))
                    .any(|f| name.starts_with(&format!(".{f}.tmp-")));
                if ours && e.file_type().is_ok_and(|t| t.is_file()) {
                    let _ = std::fs::remove_file(e.path());
                }
            }
        }
    }

    /// Moves the files of an earlier command (listed in its manifest), and planned files
    /// already present, to `.previous-<unix time>/`, keeping their relative paths.
    fn move_aside_earlier(&self, legacy: &[String]) -> anyhow::Result<()> {
        let old: Option<Manifest> = std::fs::read(self.dir.join(MANIFEST))
            .ok()
            .and_then(|b| serde_json::from_slice(&b).ok());
        let mut names: Vec<String> = old.as_ref().map_or(legacy.to_vec(), |m| m.files.clone());
        names.extend(self.manifest.files.iter().cloned());
        names.push(MANIFEST.to_string());
        names.sort();
        names.dedup();
        let present: Vec<&String> = names
            .iter()
            .filter(|f| is_plain_relative(f))
            .filter(|f| std::fs::symlink_metadata(self.dir.join(f)).is_ok_and(|m| m.is_file()))
            .collect();
        if present.is_empty() {
            return Ok(());
        }
        let stamp = old.as_ref().map_or_else(unix_now, |m| m.started_unix);
        let mut aside = self.dir.join(format!(".previous-{stamp}"));
        let mut k = 1;
        while aside.exists() {
            aside = self.dir.join(format!(".previous-{stamp}-{k}"));
            k += 1;
        }
        for f in &present {
            let to = aside.join(f);
            if let Some(d) = to.parent() {
                std::fs::create_dir_all(d)
                    .with_context(|| format!("cannot create {}", d.display()))?;
            }
            std::fs::rename(self.dir.join(f), &to)
                .with_context(|| format!("cannot move {} aside", self.dir.join(f).display()))?;
            // a run subdirectory left empty goes too (never one holding anything else)
            if let Some(d) = Path::new(f.as_str())
                .parent()
                .filter(|d| !d.as_os_str().is_empty())
            {
                let _ = std::fs::remove_dir(self.dir.join(d));
            }
        }
        let what = match &old {
            Some(m) if m.finished => format!("a finished `{}`", m.command),
            Some(m) => format!("an unfinished `{}`", m.command),
            None => "an earlier command (no manifest)".to_string(),
        };
        eprintln!(
            "note: moved {} file(s) of {what} in {} to {}",
            present.len(),
            self.dir.display(),
            aside.display()
        );
        Ok(())
    }

    fn write_manifest(&self) -> anyhow::Result<()> {
        write_json(&self.dir.join(MANIFEST), &self.manifest)
    }

    /// The directory.
    pub fn path(&self) -> &Path {
        &self.dir
    }

    /// Marks the directory complete: checks that every planned file is there and rewrites
    /// the manifest with `finished: true`. The lock is released when `self` drops.
    pub fn finish(mut self) -> anyhow::Result<()> {
        for f in &self.manifest.files {
            anyhow::ensure!(
                self.dir.join(f).is_file(),
                "internal error: {} was planned but not written",
                self.dir.join(f).display()
            );
        }
        self.manifest.finished = true;
        self.write_manifest()
    }
}

/// A relative path without `..` or a root (manifest entries from disk are checked before
/// anything is moved).
fn is_plain_relative(f: &str) -> bool {
    let p = Path::new(f);
    !f.is_empty()
        && p.components()
            .all(|c| matches!(c, std::path::Component::Normal(_)))
}

fn unix_now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// SHA-256 (hex) of a scenario as run: its canonical TOML, comments and layout aside.
pub fn scenario_sha256(sc: &super::Scenario) -> String {
    use sha2::Digest;
    let canon = toml::to_string(sc).unwrap_or_default();
    let hash = sha2::Sha256::digest(canon.as_bytes());
    hash.iter().map(|b| format!("{b:02x}")).collect()
}

impl Manifest {
    /// A manifest for `command` on `sc` (read from `scenario`, if from a file), writing
    /// `files` for `runs`.
    pub fn new(
        command: &str,
        sc: &super::Scenario,
        scenario: Option<&Path>,
        runs: Vec<String>,
        files: Vec<String>,
    ) -> Manifest {
        Manifest {
            tool: format!("pftsim {}", env!("CARGO_PKG_VERSION")),
            command: command.to_string(),
            argv: std::env::args().collect(),
            scenario: scenario.map(|p| p.display().to_string()),
            scenario_sha256: scenario_sha256(sc),
            runs,
            files,
            started_unix: unix_now(),
            finished: false,
        }
    }
}
