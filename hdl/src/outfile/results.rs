//! An output inside a `pftsim` result directory: a directory with pftsim's lock file
//! (`.pftsim.lock`) and manifest (`manifest.json`) belongs to the run that wrote it
//! (docs/bad-inputs.md, "A result directory belongs to one run"). A single-file output
//! (`pftsim trace-write`, `pft-trace`, `pft-verilog`, `pft-bench`) is refused there while
//! another pftsim holds the lock, and over a file or into a run directory the manifest
//! lists.

use std::fs::{self, File};
use std::path::{Component, Path};

/// A result directory's manifest (`pft_sim`'s `registry::MANIFEST` is this name).
pub const MANIFEST: &str = "manifest.json";
/// A result directory's lock: held (an advisory `flock`) while a command writes the
/// directory; the system releases it when the process ends, even when killed
/// (`pft_sim`'s `registry::LOCK` is this name).
pub const LOCK: &str = ".pftsim.lock";
/// Most bytes of a manifest read (here and by `pft_sim`'s `read_manifest`).
pub const MAX_MANIFEST: u64 = 64 << 20;

/// `try_lock` (or `try_lock_shared`) of `f`, tried again for up to 20 ms while it would
/// block: a probe of the lock by another process (pftsim's of the directories around its
/// own, or `in_results` below) holds it for microseconds and is no writer.
pub fn try_lock_briefly(f: &File, shared: bool) -> Result<(), fs::TryLockError> {
    let attempt = || {
        if shared {
            f.try_lock_shared()
        } else {
            f.try_lock()
        }
    };
    for _ in 0..20 {
        match attempt() {
            Err(fs::TryLockError::WouldBlock) => {
                std::thread::sleep(std::time::Duration::from_millis(1))
            }
            r => return r,
        }
    }
    attempt()
}

/// The files and run directories a manifest lists (`files`, `dirs`: relative to its
/// directory, `/`-separated); none if it is unreadable or not pftsim's.
fn listed(manifest: &Path) -> (Vec<String>, Vec<String>) {
    let v = fs::metadata(manifest)
        .ok()
        .filter(|m| m.len() <= MAX_MANIFEST)
        .and_then(|_| fs::read(manifest).ok())
        .and_then(|b| serde_json::from_slice::<serde_json::Value>(&b).ok());
    let strings = |key: &str| -> Vec<String> {
        v.as_ref()
            .and_then(|v| v.get(key)?.as_array().cloned())
            .unwrap_or_default()
            .iter()
            .filter_map(|p| p.as_str().map(str::to_string))
            .collect()
    };
    (strings("files"), strings("dirs"))
}

/// Why `target` (canonical: absolute, no links or `..` among its existing directories)
/// takes no output: the result directory of a run it lies in, and how.
pub(super) fn in_results(target: &Path) -> Option<String> {
    for dir in target.parent()?.ancestors() {
        let lock = dir.join(LOCK);
        if !lock.is_file() {
            continue;
        }
        // (a writer holds it exclusive: a shared probe is refused)
        let held = |f: File| {
            matches!(
                try_lock_briefly(&f, true),
                Err(fs::TryLockError::WouldBlock)
            )
        };
        if File::open(&lock).is_ok_and(held) {
            return Some(format!(
                "another pftsim is writing into {} (it holds {}); wait for it or name a file elsewhere",
                dir.display(),
                lock.display()
            ));
        }
        let Ok(rel) = target.strip_prefix(dir) else {
            continue;
        };
        // the run's own lock and manifest, and the earlier commands' files it moved aside
        let top = rel
            .components()
            .next()
            .map(|c| c.as_os_str().to_string_lossy());
        if let Some(top) =
            top.filter(|t| *t == LOCK || *t == MANIFEST || t.starts_with(".previous-"))
        {
            return Some(format!(
                "{top} in {} is pftsim's own (the run's lock, its manifest or earlier results it moved aside); name a file elsewhere",
                dir.display()
            ));
        }
        let manifest = dir.join(MANIFEST);
        if !manifest.is_file() {
            continue;
        }
        let (files, dirs) = listed(&manifest);
        // the file itself, or a run directory above it
        let mut prefix = String::new();
        for c in rel.components() {
            let Component::Normal(part) = c else {
                break;
            };
            if !prefix.is_empty() {
                prefix.push('/');
            }
            prefix.push_str(&part.to_string_lossy());
            if files.contains(&prefix) || dirs.contains(&prefix) {
                return Some(format!(
                    "{prefix} is a result of the pftsim run in {} (its {MANIFEST} lists it): an output never replaces another run's results; name a file elsewhere",
                    dir.display()
                ));
            }
        }
    }
    None
}
