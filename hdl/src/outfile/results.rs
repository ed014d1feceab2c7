//! An output inside a `pftsim` result directory: a directory with pftsim's lock file
//! (`.pftsim.lock`) and manifest (`manifest.json`) belongs to the run that wrote it
//! (docs/bad-inputs.md, "A result directory belongs to one run"). A single-file output
//! (`pftsim trace-write`, `pft-trace`, `pft-verilog`, `pft-bench`) is refused there while
//! another pftsim holds the lock, and over a file or into a run directory the manifest
//! lists.

use std::fs::{self, File};
use std::path::{Component, Path};

/// The lock and manifest file names (as `pft_sim::scenario::output::registry`'s).
const LOCK: &str = ".pftsim.lock";
const MANIFEST: &str = "manifest.json";
/// Most bytes of a manifest read here (a sweep of 10^6 runs lists about 50 MB).
const MAX_MANIFEST: u64 = 256 << 20;

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
        let manifest = dir.join(MANIFEST);
        if !lock.is_file() || !manifest.is_file() {
            continue;
        }
        if let Ok(f) = File::open(&lock) {
            if matches!(f.try_lock_shared(), Err(fs::TryLockError::WouldBlock)) {
                return Some(format!(
                    "another pftsim is writing into {} (it holds {}); wait for it or name a file elsewhere",
                    dir.display(),
                    lock.display()
                ));
            }
        }
        let Ok(rel) = target.strip_prefix(dir) else {
            continue;
        };
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
