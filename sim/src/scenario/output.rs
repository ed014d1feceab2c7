//! Writing outputs so that nothing half-written looks complete and nothing a user has is
//! destroyed. A result directory belongs to one run of one command (`ResultDir`): a lock, a
//! manifest written first and finished last, an earlier command's files moved aside, and
//! every file written through `write_atomic`, which never follows a symbolic link and never
//! replaces anything but a regular file. docs/bad-inputs.md ("The rules every tool follows")
//! and docs/sweeps.md ("Output safety") describe the policy for users.

use anyhow::Context;
use serde::Serialize;
use std::path::{Component, Path, PathBuf};
use std::sync::Mutex;

mod earlier;
mod entries;
mod oom;
mod paths;
mod registry;
use earlier::{earlier_present, move_aside_earlier};
use entries::check_manifest_entries;
pub use entries::{check_entry, check_outputs};
pub use oom::LastWords;
pub use paths::absolute;
use paths::{physical, resolved};
pub use registry::{read_manifest, Manifest, Status, LOCK, MANIFEST};

/// Writes `bytes` to `path` through a temporary file and a rename, without following links:
/// `path` and every directory between its result directory and it must be real (a
/// symbolic link is refused, never written through) and `path`, if it exists, a regular
/// file. Inside an open result directory of this process the file is recorded in its
/// manifest.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    let abs = absolute(path)?;
    let root = registry::record(&abs);
    check_no_links(root.as_deref(), &abs)?;
    write_no_follow(&abs, bytes).with_context(|| format!("writing {}", path.display()))
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

/// Refuses `path` when a directory between `root` (exclusive) and it, or `path` itself, is
/// a symbolic link, or when `path` exists and is not a regular file.
fn check_no_links(root: Option<&Path>, path: &Path) -> anyhow::Result<()> {
    if let Some(root) = root {
        let rel = path.strip_prefix(root).unwrap_or(path);
        let mut cur = root.to_path_buf();
        let n = rel.components().count();
        for (i, c) in rel.components().enumerate() {
            cur.push(c);
            let Ok(m) = std::fs::symlink_metadata(&cur) else {
                break;
            };
            if m.file_type().is_symlink() {
                anyhow::bail!(
                    "cannot write {}: {} is a symbolic link (to {}); files of a result directory are never written through links",
                    path.display(),
                    cur.display(),
                    std::fs::read_link(&cur).unwrap_or_default().display()
                );
            }
            if i + 1 < n && !m.is_dir() {
                anyhow::bail!(
                    "cannot write {}: {} is not a directory",
                    path.display(),
                    cur.display()
                );
            }
        }
    }
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => anyhow::bail!(
            "cannot write {}: it is a symbolic link (to {}); result files are never written through links",
            path.display(),
            std::fs::read_link(path).unwrap_or_default().display()
        ),
        Ok(m) if !m.is_file() => anyhow::bail!(
            "cannot write {}: it is {} (only a regular file is replaced)",
            path.display(),
            pft_hdl::outfile::kind_of(&m)
        ),
        _ => Ok(()),
    }
}

/// The temporary file and rename of `write_atomic`, on `path` itself (never a link's
/// target): a rename replaces the directory entry, so a link or device node in the way
/// would be replaced, not written; `check_no_links` refuses those first.
fn write_no_follow(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let name = path
        .file_name()
        .ok_or_else(|| std::io::Error::other("not a file name"))?;
    let tmp = dir.join(format!(
        ".{}.tmp-{}",
        name.to_string_lossy(),
        std::process::id()
    ));
    let _ = std::fs::remove_file(&tmp);
    let res = (|| {
        let mut f = std::fs::File::options()
            .write(true)
            .create_new(true)
            .open(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        // checked again just before the rename: nothing but a regular file is replaced
        if let Ok(m) = std::fs::symlink_metadata(path) {
            if !m.is_file() {
                return Err(std::io::Error::other(format!(
                    "it became {} while being written",
                    pft_hdl::outfile::kind_of(&m)
                )));
            }
        }
        std::fs::rename(&tmp, path)
    })();
    if res.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    res
}

/// A result directory owned by one run of one command: checked, locked, cleared of an
/// earlier command's files (moved aside, never deleted), with a manifest. Dropped without
/// `finish`, its manifest says why (`fail`), or "failed" when nobody said.
pub struct ResultDir {
    dir: PathBuf,
    done: bool,
}

/// Serialises the checks and moves of `open` within one process (a sweep opens many run
/// directories at once).
static OPENING: Mutex<()> = Mutex::new(());

impl ResultDir {
    /// Takes `dir` for `manifest` (`files` and `dirs` relative to `dir`). Before anything is
    /// written: refuses a `dir` that is not a directory (or a symbolic link to a missing
    /// one), one that cannot be written, one that another pftsim is writing (the lock), one
    /// inside a directory another pftsim is writing or inside another command's files, one
    /// holding a directory another pftsim is writing, and a plan whose files would replace
    /// an input, a link or something that is not a regular file. Then moves every file and
    /// directory an earlier command listed in its manifest, and every planned file or
    /// directory already there, to `dir/.previous-<time>/` (saying so on stderr), and writes
    /// the manifest with `finished: false`. In a directory without a manifest (written by an
    /// older pftsim), the files named in `legacy` count as an earlier command's. An earlier
    /// command's result directory below `dir` where one of those files lies (`run --out
    /// o/p`, then `compare --out o`) goes too, its manifest with every file it lists
    /// (`earlier::earlier_present`). Other files in `dir` are never touched.
    pub fn open(
        dir: &Path,
        manifest: Manifest,
        legacy: &[String],
        inputs: &[&Path],
    ) -> anyhow::Result<ResultDir> {
        Self::take(dir, manifest, legacy, inputs, false)
    }

    /// Takes `dir` again for the next step of the command that wrote its manifest (a sweep's
    /// `--collect` or `--resume`): the same checks and lock as `open`, but the earlier
    /// command's files stay, and the manifest is the earlier one with `finished: false`
    /// until this step finishes. Refuses a directory whose manifest is not of `command`.
    pub fn reopen(dir: &Path, command: &str, inputs: &[&Path]) -> anyhow::Result<ResultDir> {
        let old = registry::read_manifest(dir).with_context(|| {
            format!(
                "{} has no {MANIFEST} of a `{command}`: nothing to continue there",
                dir.display()
            )
        })?;
        anyhow::ensure!(
            old.command == command,
            "{} holds the results of a `{}`, not of a `{command}` (its {MANIFEST} says so)",
            dir.display(),
            old.command
        );
        Self::take(dir, old, &[], inputs, true)
    }

    /// The checks of `take` (the caller holds `OPENING`): nothing written or moved. Returns
    /// `dir` absolute and as the system resolves it.
    fn checks(
        dir: &Path,
        manifest: &Manifest,
        legacy: &[String],
        inputs: &[&Path],
        keep: bool,
    ) -> anyhow::Result<(PathBuf, PathBuf)> {
        use pft_hdl::outfile;
        if let Some(i) = inputs.iter().find(|i| outfile::same_file(dir, i)) {
            anyhow::bail!("--out {}: it is the input {}", dir.display(), i.display());
        }
        match std::fs::metadata(dir) {
            // (in /dev or the kernel's views: refused by the `check_dir` below, before the
            // lock is written)
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
        let abs = absolute(dir)?;
        registry::check_ancestors(dir, &abs, manifest)?;
        // and where the system puts it: a link on the way may lead into another command's
        // directory (a sweep's run directory, a `compare`'s)
        let real = resolved(&abs);
        anyhow::ensure!(
            real.parent().is_some(),
            "--out {}: it is the root of the file system, which holds the system's own files; name a directory for this command's results",
            dir.display()
        );
        if real != abs {
            registry::check_ancestors(dir, &real, manifest)?;
        }
        // `..` after a link: the system goes up from the link's target, `absolute` (which
        // the writes use) from the link; the two would split one command between places
        let typed = physical(dir)?;
        anyhow::ensure!(
            typed == real,
            "--out {}: `..` after a symbolic link: the system reads it as {}, where this tool reads {}; write the path without `..`",
            dir.display(),
            typed.display(),
            real.display()
        );
        // before anything is moved: the lock and the manifest are plain files or absent
        registry::check_own_files(dir)?;
        // entries read from disk (the manifest `reopen` continues, an earlier command's) are
        // checked before anything is written or moved
        if keep {
            check_manifest_entries(dir, manifest)?;
        }
        let mut files: Vec<String> = manifest.files.clone();
        files.extend(manifest.pending.iter().cloned());
        check_outputs(dir, &files, &manifest.dirs, inputs)?;
        if !keep {
            // refused here, before the directory, the lock or the manifest is written
            let old = registry::read_manifest(dir);
            earlier_present(dir, manifest, old.as_ref(), legacy, inputs)?;
        }
        Ok((abs, real))
    }

    /// `open`'s checks alone, nothing written or moved: a command refuses its output
    /// directory with them before its own work (the cost estimate's calibration run).
    pub fn check(
        dir: &Path,
        manifest: &Manifest,
        legacy: &[String],
        inputs: &[&Path],
    ) -> anyhow::Result<()> {
        let _serial = OPENING.lock().unwrap_or_else(|e| e.into_inner());
        Self::checks(dir, manifest, legacy, inputs, false).map(|_| ())
    }

    fn take(
        dir: &Path,
        mut manifest: Manifest,
        legacy: &[String],
        inputs: &[&Path],
        keep: bool,
    ) -> anyhow::Result<ResultDir> {
        use pft_hdl::outfile;
        let _serial = OPENING.lock().unwrap_or_else(|e| e.into_inner());
        let (abs, real) = Self::checks(dir, &manifest, legacy, inputs, keep)?;
        let had = (dir.exists(), dir.join(registry::LOCK).exists());
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create output directory {}", dir.display()))?;
        outfile::check_dir(dir)
            .map_err(|e| anyhow::anyhow!("output directory {}: {}", dir.display(), e.why))?;
        let lock = registry::lock(dir)?;
        // a directory on the way replaced by a link since the checks above, or one below
        // being written by another process
        let refused = if resolved(&abs) != real {
            Some(anyhow::anyhow!(
                "--out {}: a directory on its path changed while it was checked; try again",
                dir.display()
            ))
        } else {
            registry::check_descendants(dir).err()
        };
        if let Some(e) = refused {
            // refused: the lock file and the directory this command made go again
            drop(lock);
            if !had.1 {
                let _ = std::fs::remove_file(dir.join(registry::LOCK));
            }
            if !had.0 {
                let _ = std::fs::remove_dir(dir);
            }
            return Err(e);
        }
        let old = registry::read_manifest(dir);
        if !keep {
            move_aside_earlier(dir, &manifest, old.as_ref(), legacy, inputs)?;
        }
        manifest.finished = false;
        manifest.status = Status::Running;
        manifest.error = None;
        manifest.pid = std::process::id();
        registry::insert(abs.clone(), real, manifest, lock);
        let rd = ResultDir {
            dir: abs,
            done: false,
        };
        rd.remove_stale_temporaries();
        registry::write(&rd.dir)?;
        Ok(rd)
    }

    /// Removes the temporary files (`.NAME.tmp-PID`) of planned files that a killed command
    /// left: no other pftsim writes here while the lock is held.
    fn remove_stale_temporaries(&self) {
        let m = registry::manifest(&self.dir);
        let names: Vec<String> = m
            .files
            .iter()
            .chain(&m.pending)
            .chain(std::iter::once(&MANIFEST.to_string()))
            .cloned()
            .collect();
        let mut dirs: Vec<PathBuf> = names
            .iter()
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
                let ours = names
                    .iter()
                    .map(|f| f.rsplit('/').next().unwrap_or(f))
                    .any(|f| name.starts_with(&format!(".{f}.tmp-")));
                if ours && e.file_type().is_ok_and(|t| t.is_file()) {
                    let _ = std::fs::remove_file(e.path());
                }
            }
        }
    }

    /// The directory (absolute).
    pub fn path(&self) -> &Path {
        &self.dir
    }

    /// Changes the manifest (in memory; written by the next `write`, `finish` or `fail`,
    /// or by the signal handler).
    pub fn update(&self, f: impl FnOnce(&mut Manifest)) {
        registry::update(&self.dir, f);
    }

    /// Writes the manifest as it stands (still `finished: false`).
    pub fn save(&self) -> anyhow::Result<()> {
        registry::write(&self.dir)
    }

    /// Marks the directory complete: checks that every file of the plan is there and
    /// rewrites the manifest with `finished: true`. The lock is released when `self` drops.
    pub fn finish(mut self) -> anyhow::Result<()> {
        let m = registry::manifest(&self.dir);
        for f in &m.files {
            anyhow::ensure!(
                self.dir.join(f).is_file(),
                "{} was planned but is not there (written and then removed while the command ran?)",
                self.dir.join(f).display()
            );
        }
        let sums = m
            .files
            .iter()
            .filter_map(|f| file_sha256(&self.dir.join(f)).map(|h| (f.clone(), h)))
            .collect();
        registry::update(&self.dir, |m| {
            m.finished = true;
            m.status = Status::Finished;
            m.sha256 = sums;
        });
        registry::write(&self.dir)?;
        self.done = true;
        Ok(())
    }

    /// Records why the command did not finish (`status` "failed", the error) and releases
    /// the directory. The manifest write is best effort: on a full disk the earlier one,
    /// which says `finished: false`, stays.
    pub fn fail(mut self, e: &anyhow::Error) {
        registry::update(&self.dir, |m| {
            m.finished = false;
            m.status = Status::Failed;
            m.error = Some(format!("{e:#}"));
        });
        let _ = registry::write(&self.dir);
        self.done = true;
    }

    /// Runs `f` in the directory: `finish` when it succeeds, `fail` with its error when not.
    pub fn run<T>(self, f: impl FnOnce(&ResultDir) -> anyhow::Result<T>) -> anyhow::Result<T> {
        match f(&self) {
            Ok(v) => {
                self.finish()?;
                Ok(v)
            }
            Err(e) => {
                self.fail(&e);
                Err(e)
            }
        }
    }
}

impl Drop for ResultDir {
    fn drop(&mut self) {
        if !self.done {
            registry::update(&self.dir, |m| {
                m.status = Status::Failed;
                m.finished = false;
            });
            let _ = registry::write(&self.dir);
        }
        registry::remove(&self.dir);
    }
}

fn unix_now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

impl super::Scenario {
    /// The files the scenario reads besides itself, as resolved (absolute once loaded from
    /// a file): a `file` topology and a motif trace. Inputs of every command that runs it
    /// (no output overwrites them, no result directory moves them aside) and part of its
    /// hash (`output::scenario_sha256`).
    pub fn files_read(&self) -> Vec<&Path> {
        let topology = match &self.network.topology {
            crate::net::TopologyConfig::File { path, .. } => Some(Path::new(path.as_str())),
            _ => None,
        };
        let trace = match &self.workload {
            crate::workload::WorkloadConfig::Trace(t) => Some(Path::new(t.path.as_str())),
            _ => None,
        };
        topology.into_iter().chain(trace).collect()
    }

    /// A command's inputs when it runs this scenario read from `file`: that file, then the
    /// files the scenario reads (`files_read`).
    pub fn inputs<'a>(&'a self, file: &'a Path) -> Vec<&'a Path> {
        std::iter::once(file).chain(self.files_read()).collect()
    }
}

/// SHA-256 (hex) of a scenario as run: its canonical TOML, comments and layout aside, and
/// then the bytes of the files it reads (a `file` topology, a trace), so that a changed file
/// is a changed scenario (`run --skip-finished`, `sweep --resume`).
pub fn scenario_sha256(sc: &super::Scenario) -> String {
    use sha2::Digest;
    let canon = toml::to_string(sc).unwrap_or_default();
    let mut h = sha2::Sha256::new();
    h.update(canon.as_bytes());
    for path in sc.files_read() {
        // unreadable: the run was refused, and nothing is skipped on its account
        h.update(crate::input::read(path).unwrap_or_default());
    }
    hex(&h.finalize())
}

/// Bytes (a digest) as lower-case hex, as `sha256sum` prints them.
pub(crate) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The command line as a manifest records it: `std::env::args` panics on an argument that
/// is not UTF-8 (a directory named so), so its bytes that are not are written as U+FFFD.
pub fn argv() -> Vec<String> {
    std::env::args_os()
        .map(|a| a.to_string_lossy().into_owned())
        .collect()
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
            argv: argv(),
            scenario: scenario.map(|p| p.display().to_string()),
            scenario_sha256: scenario_sha256(sc),
            runs,
            files,
            dirs: Vec::new(),
            pending: Vec::new(),
            started_unix: unix_now(),
            finished: false,
            status: Status::Running,
            error: None,
            failed_runs: Vec::new(),
            unfinished_runs: Vec::new(),
            pid: std::process::id(),
            sha256: Default::default(),
        }
    }

    /// Why `dir`'s `name` (one of `files`) is not the file this command left there: its
    /// SHA-256 differs from the one recorded when it finished. None when it matches or none
    /// was recorded (a manifest of a version before the digests).
    pub fn changed_since(&self, dir: &Path, name: &str) -> Option<String> {
        let want = self.sha256.get(name)?;
        (file_sha256(&dir.join(name)).as_ref() != Some(want)).then(|| {
            format!("{name} is not the file this run wrote (its SHA-256 differs from the one {MANIFEST} recorded: copied from another run or edited?)")
        })
    }
}

/// SHA-256 (hex) of the plain file at `path`; None when it is not one or cannot be read.
pub fn file_sha256(path: &Path) -> Option<String> {
    use sha2::Digest;
    if !std::fs::symlink_metadata(path).is_ok_and(|m| m.is_file()) {
        return None;
    }
    let mut f = std::fs::File::open(path).ok()?;
    let mut h = sha2::Sha256::new();
    std::io::copy(&mut f, &mut h).ok()?;
    Some(hex(&h.finalize()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_from_disk_stay_below_their_directory() {
        let d = std::env::temp_dir().join(format!("pft-check-entry-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(d.join("runs/a")).unwrap();
        std::fs::write(d.join("afile"), "x").unwrap();
        std::os::unix::fs::symlink("..", d.join("up")).unwrap();
        std::os::unix::fs::symlink("/tmp", d.join("runs/abs")).unwrap();
        for ok in ["runs/a", "runs/a/summary.json", "points/p0000-s1.toml", "x"] {
            check_entry(&d, ok, "e").unwrap_or_else(|e| panic!("{ok}: {e}"));
        }
        for (bad, says) in [
            ("../x", "not a plain relative path"),
            ("/etc/passwd", "not a plain relative path"),
            ("runs/../../x", "not a plain relative path"),
            ("./x", "not a plain relative path"),
            ("runs/./a", "not a plain relative path"),
            ("runs/a/", "not a plain relative path"),
            ("runs//a", "not a plain relative path"),
            ("", "not a plain relative path"),
            ("up/x", "is a symbolic link"),
            ("runs/abs/x", "is a symbolic link"),
            ("runs/abs", "is a symbolic link"),
            ("afile/x", "not a directory"),
        ] {
            let e = check_entry(&d, bad, "plan: units[3].dir")
                .expect_err(bad)
                .to_string();
            assert!(
                e.starts_with("plan: units[3].dir = ") && e.contains(says),
                "{bad}: {e}"
            );
        }
        std::fs::remove_dir_all(&d).unwrap();
    }
}
