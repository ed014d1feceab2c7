//! The result directories this process holds: their locks and manifests. The manifest in
//! memory is the truth; it is written to disk when the command starts, finishes, fails, or
//! is interrupted (SIGINT, SIGTERM: the signal handler marks every open directory
//! "interrupted" and exits). The same list tells a nested `open` whether the directory
//! above it belongs to this process (a sweep running its runs) or to another one.

use anyhow::Context;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, Once};

/// The manifest's file name (`pft_hdl::outfile`'s: its output checks read it too).
pub const MANIFEST: &str = pft_hdl::outfile::MANIFEST;
/// The lock file's name: held (an advisory `flock`) while a command writes the directory;
/// the system releases it when the process ends, even when killed.
pub const LOCK: &str = pft_hdl::outfile::LOCK;

/// Where a command stands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Started and not ended (or killed with SIGKILL: then the lock is free).
    #[default]
    Running,
    /// Every file written.
    Finished,
    /// Ended with an error (`error` says which: a failed run, a full disk, ...).
    Failed,
    /// Stopped by SIGINT or SIGTERM.
    Interrupted,
}

impl Status {
    /// As the manifest writes it.
    pub fn name(self) -> &'static str {
        match self {
            Status::Running => "running",
            Status::Finished => "finished",
            Status::Failed => "failed",
            Status::Interrupted => "interrupted",
        }
    }
}

/// The manifest of a result directory: which command wrote which files, from which
/// scenario, and whether it finished. Written first (`finished: false`) and rewritten last.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Manifest {
    /// `pftsim <version>`.
    pub tool: String,
    /// `run`, `compare` or `sweep`.
    pub command: String,
    /// The command line (of the step that wrote the manifest last).
    pub argv: Vec<String>,
    /// The scenario file, if the command read one.
    pub scenario: Option<String>,
    /// SHA-256 of the scenario as run (its canonical TOML, comments and layout aside).
    pub scenario_sha256: String,
    /// The runs (`off`, `isolated`, the configurations' names; a sweep's run directories).
    pub runs: Vec<String>,
    /// Every file this command writes, relative to the directory.
    pub files: Vec<String>,
    /// Directories of this command that hold result directories of their own (a sweep's
    /// `runs/...`): moved aside whole by the next command.
    #[serde(default)]
    pub dirs: Vec<String>,
    /// Files a later step of this command writes (a sweep's `sweep.csv` and plots, written
    /// by `--collect`).
    #[serde(default)]
    pub pending: Vec<String>,
    /// Unix time when the command started.
    pub started_unix: u64,
    /// True only when the command finished and every file is written.
    pub finished: bool,
    /// `running`, `finished`, `failed` or `interrupted`.
    #[serde(default)]
    pub status: Status,
    /// Why it did not finish.
    #[serde(default)]
    pub error: Option<String>,
    /// Runs that failed, with their errors: a sweep's run directories, or a `run`'s or
    /// `compare`'s runs (recorded as each fails).
    #[serde(default)]
    pub failed_runs: Vec<String>,
    /// Runs that reached `cycles.max` before their workload finished.
    #[serde(default)]
    pub unfinished_runs: Vec<String>,
    /// The process that wrote it.
    #[serde(default)]
    pub pid: u32,
    /// SHA-256 (hex) of each file of `files` as the command left it, recorded when it
    /// finished: a file copied in or edited afterwards no longer matches (`--collect`,
    /// `--resume` and `run --skip-finished` take a run whose `summary.json` does not for
    /// one to run again).
    #[serde(default)]
    pub sha256: std::collections::BTreeMap<String, String>,
}

struct Open {
    dir: PathBuf,
    /// `dir` with its links resolved (`output::resolved`), as the ancestor check of a
    /// directory below it may see it
    real: PathBuf,
    manifest: super::Manifest,
    _lock: File,
}

static OPEN: Mutex<Vec<Open>> = Mutex::new(Vec::new());
static HANDLER: Once = Once::new();

fn open_list() -> std::sync::MutexGuard<'static, Vec<Open>> {
    OPEN.lock().unwrap_or_else(|e| e.into_inner())
}

/// Adds `dir` (absolute; `real`, with its links resolved) to the directories this process
/// holds.
pub fn insert(dir: PathBuf, real: PathBuf, manifest: Manifest, lock: File) {
    HANDLER.call_once(|| {
        // Best effort: a process that already has a handler keeps it.
        let _ = ctrlc::set_handler(on_signal);
    });
    open_list().push(Open {
        dir,
        real,
        manifest,
        _lock: lock,
    });
}

/// SIGINT or SIGTERM: every open directory says "interrupted", then the process ends with
/// status 130 (the shell's code for SIGINT).
fn on_signal() {
    let list = open_list();
    for o in list.iter() {
        let mut m = o.manifest.clone();
        m.finished = false;
        m.status = Status::Interrupted;
        m.error = Some("interrupted by a signal (SIGINT or SIGTERM)".to_string());
        let _ = write_manifest(&o.dir, &m);
    }
    crate::eprintln_safe!(
        "error: interrupted by a signal (SIGINT or SIGTERM); the manifest of each result directory in progress says \"interrupted\""
    );
    std::process::exit(130);
}

/// Memory ran out (`oom::LastWords`): every open directory says "failed" with `reason`.
/// Skipped when the list is held (the failing allocation came from code holding it): the
/// manifests then stay "running", as after a SIGKILL.
pub fn fail_all(reason: &str) {
    let list = match OPEN.try_lock() {
        Ok(l) => l,
        Err(std::sync::TryLockError::Poisoned(e)) => e.into_inner(),
        Err(std::sync::TryLockError::WouldBlock) => return,
    };
    for o in list.iter() {
        let mut m = o.manifest.clone();
        m.finished = false;
        m.status = Status::Failed;
        m.error = Some(reason.to_string());
        let _ = write_manifest(&o.dir, &m);
    }
}

/// Removes `dir` (its lock is released).
pub fn remove(dir: &Path) {
    open_list().retain(|o| o.dir != dir);
}

/// The manifest of the open `dir`.
pub fn manifest(dir: &Path) -> Manifest {
    open_list()
        .iter()
        .find(|o| o.dir == dir)
        .map(|o| o.manifest.clone())
        .expect("an open result directory")
}

/// Changes the manifest of the open `dir` in memory.
pub fn update(dir: &Path, f: impl FnOnce(&mut Manifest)) {
    if let Some(o) = open_list().iter_mut().find(|o| o.dir == dir) {
        f(&mut o.manifest);
    }
}

/// Writes the manifest of the open `dir`.
pub fn write(dir: &Path) -> anyhow::Result<()> {
    let list = open_list();
    let o = list
        .iter()
        .find(|o| o.dir == dir)
        .context("internal error: the result directory is not open")?;
    write_manifest(&o.dir, &o.manifest)
}

fn write_manifest(dir: &Path, m: &Manifest) -> anyhow::Result<()> {
    let mut s = serde_json::to_string_pretty(m).context("serialising the manifest")?;
    s.push('\n');
    let p = dir.join(MANIFEST);
    super::check_no_links(Some(dir), &p)?;
    super::write_no_follow(&p, s.as_bytes()).with_context(|| format!("writing {}", p.display()))
}

/// The deepest open directory holding `path` (absolute), with `path` recorded among its
/// files (unless it lies in one of its child directories).
pub fn record(path: &Path) -> Option<PathBuf> {
    let mut list = open_list();
    let o = list
        .iter_mut()
        .filter(|o| path.starts_with(&o.dir) && path != o.dir)
        .max_by_key(|o| o.dir.components().count())?;
    let rel = path
        .strip_prefix(&o.dir)
        .ok()?
        .to_string_lossy()
        .into_owned();
    let in_child = o
        .manifest
        .dirs
        .iter()
        .any(|d| Path::new(&rel).starts_with(d));
    if !in_child && !o.manifest.files.contains(&rel) {
        o.manifest.pending.retain(|p| *p != rel);
        o.manifest.files.push(rel);
    }
    Some(o.dir.clone())
}

/// True when `p` is a regular file itself (not a link, FIFO or device): only such lock and
/// manifest files are opened, so that a FIFO cannot hang a command nor a device fill memory.
pub fn is_plain_file(p: &Path) -> bool {
    std::fs::symlink_metadata(p).is_ok_and(|m| m.is_file())
}

/// Reads `dir/manifest.json`, if there is a complete one (a regular file of at most 64 MiB).
pub fn read_manifest(dir: &Path) -> Option<Manifest> {
    let p = dir.join(MANIFEST);
    if !std::fs::symlink_metadata(&p)
        .is_ok_and(|m| m.is_file() && m.len() <= pft_hdl::outfile::MAX_MANIFEST)
    {
        return None;
    }
    std::fs::read(p)
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
}

/// Refuses `dir` when its lock or manifest exists and is not a regular file.
pub fn check_own_files(dir: &Path) -> anyhow::Result<()> {
    for f in [LOCK, MANIFEST] {
        let p = dir.join(f);
        if let Ok(m) = std::fs::symlink_metadata(&p) {
            anyhow::ensure!(
                m.is_file(),
                "cannot use {}: it is {} (pftsim's {f} must be a regular file; move it away)",
                super::super::sanitize(&p.display().to_string()),
                pft_hdl::outfile::kind_of(&m)
            );
        }
    }
    Ok(())
}

/// "(`pftsim compare s.toml --out o`, pid 123)" from `dir`'s manifest, or "".
fn owner(dir: &Path) -> String {
    match read_manifest(dir) {
        Some(m) => format!(
            " (`{}`, pid {})",
            super::super::sanitize(&m.argv.join(" ")),
            m.pid
        ),
        None => String::new(),
    }
}

/// `a` as the user would name it: relative to the current directory when inside it.
fn shown(a: &Path) -> String {
    let cwd = std::env::current_dir().unwrap_or_default();
    match a.strip_prefix(&cwd) {
        Ok(r) if r.as_os_str().is_empty() => ".".to_string(),
        Ok(r) => r.display().to_string(),
        Err(_) => a.display().to_string(),
    }
}

/// True when this process holds `dir` (as it named it, or resolved).
fn held_here(dir: &Path) -> bool {
    open_list().iter().any(|o| o.dir == dir || o.real == dir)
}

/// True when another process holds the lock in `dir` (tried and released at once).
fn held_elsewhere(dir: &Path) -> bool {
    if !is_plain_file(&dir.join(LOCK)) {
        return false;
    }
    let Ok(f) = File::options().write(true).open(dir.join(LOCK)) else {
        return false;
    };
    matches!(
        pft_hdl::outfile::try_lock_briefly(&f, false),
        Err(std::fs::TryLockError::WouldBlock)
    )
}

/// Takes the lock of `dir`, or says who holds it (`ResultDir::take` has already refused a
/// lock file that is not a regular file, `check_own_files`).
pub fn lock(dir: &Path) -> anyhow::Result<File> {
    let lock_path = dir.join(LOCK);
    let lock = File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock_path)
        .with_context(|| format!("cannot create the lock {}", lock_path.display()))?;
    match pft_hdl::outfile::try_lock_briefly(&lock, false) {
        Ok(()) => Ok(lock),
        Err(std::fs::TryLockError::WouldBlock) => anyhow::bail!(
            "another pftsim is writing into {}{} (it holds {}); wait for it to end or give another --out",
            dir.display(),
            owner(dir),
            lock_path.display()
        ),
        Err(std::fs::TryLockError::Error(e)) => {
            Err(e).with_context(|| format!("cannot lock {}", lock_path.display()))
        }
    }
}

/// Refuses `dir` (absolute `abs`) inside a directory that another process is writing, or
/// inside another command's files (a run directory of a `compare`). A sweep's run
/// directories (its manifest's `dirs`) are open to the `pftsim run` lines of its job list
/// (`new`, the command's manifest, is that line's run: `collect::check_unit_dir`).
pub fn check_ancestors(dir: &Path, abs: &Path, new: &Manifest) -> anyhow::Result<()> {
    let mut up = abs.parent();
    while let Some(a) = up {
        up = a.parent();
        if held_here(a) {
            continue;
        }
        if !a.join(LOCK).exists() && !a.join(MANIFEST).exists() {
            continue;
        }
        if held_elsewhere(a) {
            anyhow::bail!(
                "{} is inside {}, which another pftsim is writing{}; wait for it to end or give another --out",
                dir.display(),
                shown(a),
                owner(a)
            );
        }
        let Some(m) = read_manifest(a) else { continue };
        let rel = abs.strip_prefix(a).unwrap_or(abs);
        if m.dirs.iter().any(|d| rel.starts_with(d)) {
            if m.command == "sweep" {
                crate::scenario::sweep::collect::check_unit_dir(dir, a, &shown(a), rel, new)?;
            }
            continue;
        }
        if let Some(f) = m
            .files
            .iter()
            .chain(&m.pending)
            .chain(&m.dirs)
            .find(|f| Path::new(f.as_str()).starts_with(rel))
        {
            anyhow::bail!(
                "{} holds files of the `{}` in {} (its {MANIFEST} lists {f}); give another --out",
                dir.display(),
                m.command,
                shown(a)
            );
        }
    }
    Ok(())
}

/// Refuses `dir` when a directory below it (to a depth of 4, links not followed, earlier
/// results moved aside skipped) is being written by another process.
pub fn check_descendants(dir: &Path) -> anyhow::Result<()> {
    fn walk(d: &Path, depth: usize, top: &Path) -> anyhow::Result<()> {
        let Ok(rd) = std::fs::read_dir(d) else {
            return Ok(());
        };
        for e in rd.flatten() {
            let name = e.file_name();
            if name.to_string_lossy().starts_with(".previous-") {
                continue;
            }
            if !e.file_type().is_ok_and(|t| t.is_dir()) {
                continue;
            }
            let p = e.path();
            if is_plain_file(&p.join(LOCK))
                && !held_here(&super::absolute(&p)?)
                && held_elsewhere(&p)
            {
                anyhow::bail!(
                    "{} holds {}, which another pftsim is writing{}; wait for it to end or give another --out",
                    top.display(),
                    p.display(),
                    owner(&p)
                );
            }
            if depth > 1 {
                walk(&p, depth - 1, top)?;
            }
        }
        Ok(())
    }
    walk(dir, 4, dir)
}
