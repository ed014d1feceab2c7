//! Output files that never destroy what a user has. Every tool of the workspace writes
//! through here (it lives in the lowest crate so that `pft-verilog` and `pft-regs` can use it
//! too):
//!
//! - `check` refuses an output path, before any work, when it is the same file as one of the
//!   command's inputs, when it exists and is not a regular file (a directory, a device, a
//!   FIFO, a socket), or when the file cannot be created in its directory (missing and not
//!   creatable, not a directory, not writable, a symbolic link to a missing directory).
//! - `AtomicFile` and `write_atomic` write to a temporary name beside the output and rename
//!   it into place when complete, so a failed or killed command never leaves a partial file
//!   under the output's name. An output that is a symbolic link to a regular file is
//!   written through the link (the link stays).
//! - `check` also refuses an output in a `pftsim` result directory while another pftsim
//!   writes it, and over a file (or into a directory) that a run's manifest lists
//!   (`results`).

use std::fmt;
use std::fs::{self, File};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// Why an output path is refused.
#[derive(Debug)]
pub struct OutputError {
    /// The flag that named it (`--out`), if any.
    pub flag: Option<String>,
    /// The output as the user gave it.
    pub path: PathBuf,
    /// What is wrong, as a sentence fragment.
    pub why: String,
}

impl fmt::Display for OutputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.flag {
            Some(flag) => write!(f, "{flag} {}: {}", self.path.display(), self.why),
            None => write!(f, "cannot write {}: {}", self.path.display(), self.why),
        }
    }
}

impl std::error::Error for OutputError {}

fn refuse(path: &Path, why: impl Into<String>) -> OutputError {
    OutputError {
        flag: None,
        path: path.to_path_buf(),
        why: why.into(),
    }
}

/// The identity of an existing file (device and inode), following symbolic links.
#[cfg(unix)]
fn identity(p: &Path) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    fs::metadata(p).ok().map(|m| (m.dev(), m.ino()))
}

#[cfg(not(unix))]
fn identity(p: &Path) -> Option<(PathBuf, u64)> {
    fs::canonicalize(p).ok().map(|c| (c, 0))
}

/// True when `a` and `b` name the same existing file.
pub fn same_file(a: &Path, b: &Path) -> bool {
    match (identity(a), identity(b)) {
        (Some(x), Some(y)) => x == y,
        _ => false,
    }
}

/// What kind of thing an existing path is, for messages ("a FIFO", "a file", ...).
pub fn kind_of(m: &fs::Metadata) -> &'static str {
    // (of `symlink_metadata`: the link itself)
    if m.file_type().is_symlink() {
        return "a symbolic link";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let t = m.file_type();
        if t.is_block_device() || t.is_char_device() {
            return "a device";
        }
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    if m.is_dir() {
        "a directory"
    } else if m.is_file() {
        "a file"
    } else {
        "not a regular file"
    }
}

/// The file an output path names in the end: the target of a symbolic link (links to links
/// followed), else the path itself.
pub fn resolve(path: &Path) -> PathBuf {
    let mut p = path.to_path_buf();
    for _ in 0..40 {
        match link_target(&p) {
            Some(t) => p = t,
            None => break,
        }
    }
    p
}

/// Where the symbolic link `p` points, as a path (relative targets taken from the link's
/// directory); None when `p` is not a link.
fn link_target(p: &Path) -> Option<PathBuf> {
    let t = fs::read_link(p).ok()?;
    Some(if t.is_absolute() {
        t
    } else {
        p.parent().unwrap_or(Path::new("")).join(t)
    })
}

/// The first path on `path`'s chain of symbolic links that lies in a directory of `/proc`
/// (`/dev/stdout`, `/dev/fd/1`, `/proc/self/fd/1`, or a link to one): a process's open
/// descriptor, whose file (a pipe, a terminal, a file opened with `>>`) renaming a new file
/// over it would replace.
fn through_descriptor(path: &Path) -> Option<PathBuf> {
    let mut p = path.to_path_buf();
    for _ in 0..40 {
        let dir = p.parent().filter(|d| !d.as_os_str().is_empty());
        let dir = fs::canonicalize(dir.unwrap_or(Path::new("."))).ok();
        if dir.is_some_and(|d| d.starts_with("/proc")) {
            return Some(p);
        }
        p = link_target(&p)?;
    }
    None
}

/// The file `path` names in the end, as one absolute path: a symbolic link's target (links
/// to links followed), with `.` and `..` taken out and the links among the directories that
/// exist resolved (`Path::canonicalize` on the nearest existing ancestor, the missing rest
/// appended lexically). Two spellings of one output (`o.csv`, `./o.csv`, `d/../o.csv`, a
/// link to a directory) give the same path whether or not the file exists yet.
pub fn canonical(path: &Path) -> PathBuf {
    let target = resolve(path);
    let abs = if target.is_absolute() {
        target
    } else {
        std::env::current_dir().unwrap_or_default().join(target)
    };
    // the longest existing ancestor, canonicalized; the rest appended with `..` applied
    let parts: Vec<std::path::Component> = abs.components().collect();
    for k in (1..=parts.len()).rev() {
        let head: PathBuf = parts[..k].iter().collect();
        if let Ok(mut c) = fs::canonicalize(&head) {
            for p in &parts[k..] {
                match p {
                    std::path::Component::CurDir => {}
                    std::path::Component::ParentDir => {
                        c.pop();
                    }
                    p => c.push(p),
                }
            }
            return c;
        }
    }
    abs
}

/// Why directory `d` (it exists) takes no output: it is, or lies in, `/dev` (the system's
/// devices: as root a file can be created there, beside the device nodes) but for its
/// shared memory `/dev/shm`, a scratch file system users write to; or `/proc` or `/sys`
/// (the kernel's views). Judged where `d` leads, after its links.
fn system_dir(d: &Path) -> Option<String> {
    let real = fs::canonicalize(d).ok()?;
    let under = |root: &str| real.starts_with(root);
    let kernel = ["/dev", "/proc", "/sys"].into_iter().find(|r| under(r))?;
    if kernel == "/dev" && under("/dev/shm") {
        return None;
    }
    let at = if real != Path::new(kernel) {
        format!("{} (in {kernel})", d.display())
    } else if d != Path::new(kernel) {
        format!("{} (that is {kernel})", d.display())
    } else {
        kernel.to_string()
    };
    Some(match kernel {
        "/dev" => format!("{at} holds the system's devices: no output goes there; name a directory elsewhere (/dev/shm, shared memory, is allowed)"),
        _ => format!("{at} is the kernel's view of the system: no output goes there; name a directory elsewhere"),
    })
}

/// Checks that the directory `dir` exists or can be created, and can be written: the
/// nearest existing ancestor must be a directory (a dangling symbolic link is named as
/// such), and a probe file must be creatable in it.
pub fn check_dir(dir: &Path) -> Result<(), OutputError> {
    let shown = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    let mut up = Some(shown);
    while let Some(d) = up {
        if d.as_os_str().is_empty() {
            break;
        }
        match fs::symlink_metadata(d) {
            Ok(lm) => {
                if lm.file_type().is_symlink() {
                    if let Err(e) = fs::metadata(d) {
                        // to nothing, or not to be followed (a loop of links, a process's
                        // root in /proc that is not ours to read)
                        let why = match fs::read_link(d) {
                            Ok(t) if e.kind() == std::io::ErrorKind::NotFound => format!(
                                "{} is a symbolic link to {}, which does not exist",
                                d.display(),
                                t.display()
                            ),
                            _ => format!(
                                "{} is a symbolic link that cannot be followed ({e})",
                                d.display()
                            ),
                        };
                        return Err(refuse(dir, why));
                    }
                }
                let m = fs::metadata(d).map_err(|e| refuse(dir, e.to_string()))?;
                if !m.is_dir() {
                    return Err(refuse(
                        dir,
                        format!("{} is {}, not a directory", d.display(), kind_of(&m)),
                    ));
                }
                if let Some(why) = system_dir(d) {
                    return Err(refuse(dir, why));
                }
                // probe: can a file be created here?
                // (unique per call: threads of one process probe at once)
                static PROBES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
                let k = PROBES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let probe = d.join(format!(".pft-write-probe-{}-{k}", std::process::id()));
                return match File::options().write(true).create_new(true).open(&probe) {
                    Ok(_) => {
                        let _ = fs::remove_file(&probe);
                        Ok(())
                    }
                    Err(e) => Err(refuse(
                        dir,
                        format!("no file can be created in directory {} ({e})", d.display()),
                    )),
                };
            }
            Err(_) => up = d.parent(),
        }
    }
    // relative path whose ancestors do not exist: the current directory
    check_dir(Path::new("."))
}

/// Checks an output path before any work: not an input, a regular file if it exists,
/// creatable in its directory. `inputs` are the command's input files (missing ones are
/// ignored).
pub fn check(path: &Path, inputs: &[&Path]) -> Result<(), OutputError> {
    if path.as_os_str().is_empty() {
        return Err(refuse(path, "the file name is empty"));
    }
    // (the same file now, or once the output's missing directories are made:
    // `new/../in.toml` names `in.toml`)
    if let Some(i) = inputs
        .iter()
        .find(|i| same_file(path, i) || (i.exists() && canonical(path) == canonical(i)))
    {
        return Err(refuse(
            path,
            format!(
                "it is the input {} (an output never overwrites an input)",
                i.display()
            ),
        ));
    }
    if path.as_os_str() == "-" {
        return Err(refuse(path, "`-` is not standard output here: name a file"));
    }
    // `o.csv/` names a directory: `Path` drops the slash, the rename at the end would not
    if path.as_os_str().as_encoded_bytes().ends_with(b"/") {
        return Err(refuse(
            path,
            "it ends in `/`, a directory: name a file (e.g. DIR/out.csv)",
        ));
    }
    if let Some(fd) = through_descriptor(path) {
        // `/proc/PID/fd/N` (what `/dev/stdout` and `/dev/fd/N` lead to), or another file of
        // the kernel's there
        // (one that is not open is no descriptor: `/proc/self/fd/999`)
        let is_fd = fd
            .parent()
            .and_then(|d| fs::canonicalize(d).ok())
            .is_some_and(|d| d.file_name().is_some_and(|n| n == "fd"))
            && fs::symlink_metadata(&fd).is_ok();
        return Err(refuse(
            path,
            if is_fd {
                format!(
                    "it is an open descriptor of a process ({}): the output is written to a new file renamed into place, which would replace whatever the descriptor points to; name that file, or redirect the command's output",
                    fd.display()
                )
            } else {
                format!(
                    "it is in /proc ({}), the kernel's view of its processes: no output goes there; name a file",
                    fd.display()
                )
            },
        ));
    }
    let target = resolve(path);
    // a link to nothing: writing through it would create its target's directories,
    // wherever the link points
    if target != path && fs::symlink_metadata(&target).is_err() {
        return Err(refuse(
            path,
            format!(
                "it is a symbolic link to {}, which does not exist",
                target.display()
            ),
        ));
    }
    match fs::symlink_metadata(&target) {
        Ok(m) if m.is_file() => {}
        Ok(m) => {
            return Err(refuse(
                path,
                format!(
                    "it exists and is {} (only a regular file is replaced)",
                    kind_of(&fs::metadata(&target).unwrap_or(m))
                ),
            ))
        }
        Err(_) => {}
    }
    if target.file_name().is_none() {
        return Err(refuse(path, "it names no file"));
    }
    if let Some(why) = results::in_results(&canonical(path)) {
        return Err(refuse(path, why));
    }
    check_dir(target.parent().unwrap_or(Path::new(""))).map_err(|e| refuse(path, e.why))
}

/// Checks several outputs of one command: each with `check`, and no two the same.
pub fn check_all(outputs: &[(&str, &Path)], inputs: &[&Path]) -> Result<(), OutputError> {
    for (i, (flag, p)) in outputs.iter().enumerate() {
        check(p, inputs).map_err(|mut e| {
            e.flag = Some(flag.to_string());
            e
        })?;
        // one file under two names (`o.csv` and `./o.csv`, a link, a hard link) is one
        // output: two writers of one temporary name would leave it half-written
        let me = canonical(p);
        if let Some((other, _)) = outputs[..i]
            .iter()
            .find(|(_, q)| canonical(q) == me || same_file(p, q))
        {
            return Err(OutputError {
                flag: Some(flag.to_string()),
                ..refuse(p, format!("{other} names the same file"))
            });
        }
    }
    Ok(())
}

/// A file being written under a temporary name beside its final path; `commit` renames it
/// into place. Dropped without `commit` (an error, a panic), the temporary file is removed
/// and the final path is untouched.
pub struct AtomicFile {
    path: PathBuf,
    /// Empty once committed.
    tmp: PathBuf,
    w: Option<BufWriter<File>>,
}

/// The directories `AtomicFile::create` made in this process. A file dropped without a
/// commit removes those above it that are empty again, deepest first, so a refused run
/// leaves no directory behind (one that holds a file stays).
static MADE: std::sync::Mutex<Vec<PathBuf>> = std::sync::Mutex::new(Vec::new());

/// The temporary files of the `AtomicFile`s alive in this process, for
/// `remove_temporaries` (a signal handler's: a drop never runs there).
static LIVE: std::sync::Mutex<Vec<PathBuf>> = std::sync::Mutex::new(Vec::new());

/// Removes the temporary file of every `AtomicFile` not yet committed or dropped, for a
/// process about to end on a signal (SIGINT, SIGTERM): the final paths stay untouched.
/// Then the directories this process made that are empty again, deepest first (as a
/// dropped file does; one that holds a file stays).
pub fn remove_temporaries() {
    if let Ok(live) = LIVE.lock() {
        for t in live.iter() {
            let _ = fs::remove_file(t);
        }
    }
    // (`try_lock`: the signal may have come while this thread held it)
    if let Ok(made) = MADE.try_lock() {
        let mut dirs: Vec<&PathBuf> = made.iter().collect();
        dirs.sort_by_key(|d| std::cmp::Reverse(d.components().count()));
        for d in dirs {
            let _ = fs::remove_dir(d);
        }
    }
}

fn forget_temporary(tmp: &Path) {
    if let Ok(mut live) = LIVE.lock() {
        live.retain(|t| t != tmp);
    }
}

impl AtomicFile {
    /// Starts writing `path` (its directory is created if missing). The temporary name is
    /// `.NAME.tmp-PID` in the same directory (a rename within one file system is atomic).
    /// A symbolic link to a file is written through: the link stays.
    pub fn create(path: &Path) -> io::Result<Self> {
        let target = resolve(path);
        let name = target
            .file_name()
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "not a file name"))?;
        // only a regular file is replaced: a device, FIFO or directory (also behind a link)
        // is refused here too, not only by `check`, so no caller can replace one
        if let Ok(m) = fs::metadata(&target) {
            if !m.is_file() {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    format!(
                        "{} is {} (only a regular file is replaced)",
                        path.display(),
                        kind_of(&m)
                    ),
                ));
            }
        }
        let dir = match target.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        let made: Vec<PathBuf> = dir
            .ancestors()
            .take_while(|d| !d.as_os_str().is_empty() && !d.exists())
            .map(Path::to_path_buf)
            .collect();
        fs::create_dir_all(dir)?;
        if let Ok(mut m) = MADE.lock() {
            m.extend(made);
        }
        let tmp = dir.join(format!(
            ".{}.tmp-{}",
            name.to_string_lossy(),
            std::process::id()
        ));
        if let Ok(mut live) = LIVE.lock() {
            live.push(tmp.clone());
        }
        let f = File::create(&tmp).inspect_err(|_| forget_temporary(&tmp))?;
        Ok(AtomicFile {
            path: target,
            tmp,
            w: Some(BufWriter::with_capacity(1 << 16, f)),
        })
    }

    /// The final path (a symbolic link's target).
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The writer (buffered).
    pub fn writer(&mut self) -> &mut BufWriter<File> {
        self.w.as_mut().expect("writer used after finish")
    }

    /// Flushes and syncs the data, still under the temporary name.
    pub fn finish(&mut self) -> io::Result<()> {
        if let Some(w) = self.w.take() {
            let f = w.into_inner().map_err(|e| e.into_error())?;
            f.sync_all()?;
        }
        Ok(())
    }

    /// Finishes and renames into place (once; later calls do nothing).
    pub fn commit(&mut self) -> io::Result<()> {
        if self.tmp.as_os_str().is_empty() {
            return Ok(());
        }
        self.finish()?;
        fs::rename(&self.tmp, &self.path)?;
        forget_temporary(&self.tmp);
        self.tmp = PathBuf::new();
        Ok(())
    }
}

impl AtomicFile {
    /// Finishes and puts the file in place only if nothing is there yet (a hard link, then
    /// the temporary name removed): an existing path, even one made meanwhile, is an
    /// `AlreadyExists` error and stays as it was.
    pub fn commit_new(&mut self) -> io::Result<()> {
        if self.tmp.as_os_str().is_empty() {
            return Ok(());
        }
        self.finish()?;
        match fs::hard_link(&self.tmp, &self.path) {
            Ok(()) => {
                let _ = fs::remove_file(&self.tmp);
            }
            // a file system without hard links: a rename, the path checked just before
            Err(e)
                if e.kind() != io::ErrorKind::AlreadyExists
                    && fs::symlink_metadata(&self.path).is_err() =>
            {
                fs::rename(&self.tmp, &self.path)?;
            }
            Err(e) => return Err(e),
        }
        forget_temporary(&self.tmp);
        self.tmp = PathBuf::new();
        Ok(())
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.writer().write(buf)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.writer().flush()
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        self.w = None;
        if !self.tmp.as_os_str().is_empty() {
            let _ = fs::remove_file(&self.tmp);
            forget_temporary(&self.tmp);
            if let (Some(dir), Ok(made)) = (self.tmp.parent(), MADE.lock()) {
                for d in dir.ancestors().filter(|d| made.iter().any(|m| m == d)) {
                    if fs::remove_dir(d).is_err() {
                        break;
                    }
                }
            }
        }
    }
}

/// Writes `bytes` to `path` through an `AtomicFile`.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut f = AtomicFile::create(path)?;
    f.write_all(bytes)?;
    f.commit()
}

/// The standard descriptors (bit 0 stdin, 1 stdout, 2 stderr) the process started
/// without, as `guard_standard_fds` found them.
static STARTED_CLOSED: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(0);

/// Opens /dev/null on every standard descriptor (0, 1, 2) the process started without, and
/// remembers which. Rust's runtime does the same, but then a closed stdout (`>&-`) cannot be
/// told from `>/dev/null`; and a binary without that runtime (`#![no_main]`) would open its
/// first file on descriptor 1, where its printed text would go. Runs before `main`, from
/// `.init_array` (`standard_fds_guard!`).
pub extern "C" fn guard_standard_fds() {
    use std::os::fd::{AsRawFd, IntoRawFd};
    // the lowest free number is taken: one closed standard descriptor per turn
    while let Ok(f) = fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open("/dev/null")
    {
        let fd = f.as_raw_fd();
        if !(0..=2).contains(&fd) {
            return;
        }
        STARTED_CLOSED.fetch_or(1 << fd, std::sync::atomic::Ordering::Relaxed);
        let _ = f.into_raw_fd();
    }
}

/// Puts `outfile::guard_standard_fds` in the binary's `.init_array`, so that it runs before
/// Rust's runtime and `main`: write `pft_hdl::standard_fds_guard!();` once in a binary.
#[macro_export]
macro_rules! standard_fds_guard {
    () => {
        #[cfg(target_os = "linux")]
        #[used]
        #[link_section = ".init_array"]
        static GUARD_STANDARD_FDS: extern "C" fn() = $crate::outfile::guard_standard_fds;
    };
}

/// Fails when the process's standard output is closed (Rust's `stdout` otherwise drops
/// what is written to a closed descriptor 1 without an error): closed at start
/// (`standard_fds_guard!`), or now.
pub fn stdout_is_open() -> io::Result<()> {
    if STARTED_CLOSED.load(std::sync::atomic::Ordering::Relaxed) & 2 != 0 {
        return Err(io::Error::from_raw_os_error(9)); // EBADF, as a write would say
    }
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        io::stdout().as_fd().try_clone_to_owned().map(drop)
    }
    #[cfg(not(unix))]
    Ok(())
}

/// Writes `text` to stdout and flushes it; a closed stdout (`>&-`) fails like a full one.
pub fn write_stdout(text: &str) -> io::Result<()> {
    use io::Write;
    let mut out = io::stdout().lock();
    stdout_is_open()
        .and_then(|_| out.write_all(text.as_bytes()))
        .and_then(|_| out.flush())
}

mod results;
pub use results::{try_lock_briefly, LOCK, MANIFEST, MAX_MANIFEST};
#[cfg(test)]
mod tests;
