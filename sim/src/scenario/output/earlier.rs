//! An earlier command's files in a result directory, and moving them aside before a new
//! command writes there (`ResultDir::open`). An earlier command is the one whose manifest
//! is in the directory (or, without one, an older pftsim's files by name: `legacy`), and
//! also every earlier command whose result directory lies below it where a file of either
//! goes: `run --out o/p` and then `compare --out o`, whose run `p` writes `o/p/`. Such a
//! command is moved aside whole, its manifest with every file and directory it lists, so
//! that no manifest below is left saying "finished" over files that are not its own.

use super::{check_entry, check_manifest_entries, registry, unix_now, Manifest, MANIFEST};
use anyhow::Context;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The files and directories of one earlier command that are there, relative to the
/// result directory.
pub(super) struct Earlier {
    /// Where its manifest is, relative to the result directory: `""` for the directory's
    /// own, `p` for `p/manifest.json`.
    at: String,
    /// Its manifest (`None`: the directory's own files without one, `legacy`).
    manifest: Option<Manifest>,
    /// What of it is there (files and directories), to be moved.
    present: Vec<String>,
}

impl Earlier {
    /// "a finished `run`", for messages.
    fn what(&self) -> String {
        match &self.manifest {
            Some(m) if m.finished => format!("a finished `{}`", m.command),
            Some(m) => format!("an unfinished `{}`", m.command),
            None => "an earlier command (no manifest)".to_string(),
        }
    }
}

/// `f` below `at` (`""`: the top).
fn below(at: &str, f: &str) -> String {
    if at.is_empty() {
        f.to_string()
    } else {
        format!("{at}/{f}")
    }
}

/// What `move_aside_earlier` would move: the files and directories of an earlier command
/// (listed in its manifest, or `legacy` without one) and planned ones, that are there, and
/// the manifest and everything listed in it of every earlier command whose result
/// directory (a directory below `dir` with a `manifest.json` of pftsim) holds one of those
/// files or directories, found again below those. Refuses a manifest entry that is not a
/// plain relative path below its directory or that goes through a link (`check_entry`),
/// and an input of this command that lies in what would be moved (a command never moves
/// its own inputs). The first element is the directory's own earlier command (perhaps
/// with nothing there), the others those below it.
pub(super) fn earlier_present(
    dir: &Path,
    new: &Manifest,
    old: Option<&Manifest>,
    legacy: &[String],
    inputs: &[&Path],
) -> anyhow::Result<Vec<Earlier>> {
    if let Some(m) = old {
        check_manifest_entries(dir, m)?;
    }
    let mut names: Vec<String> = old.map_or(legacy.to_vec(), |m| {
        m.files.iter().chain(&m.pending).cloned().collect()
    });
    names.extend(new.files.iter().chain(&new.pending).cloned());
    names.push(MANIFEST.to_string());
    let mut dirs: Vec<String> = old.map_or(Vec::new(), |m| m.dirs.clone());
    dirs.extend(new.dirs.iter().cloned());
    // earlier commands' result directories below `dir` that a file of this command or of
    // an earlier one lies in, each with what its manifest lists (relative to `dir`)
    let mut nested: Vec<(String, Manifest, BTreeSet<String>)> = Vec::new();
    let mut seen: BTreeSet<String> = BTreeSet::new();
    let mut queue: Vec<String> = names.iter().chain(&dirs).cloned().collect();
    while let Some(name) = queue.pop() {
        let ups: Vec<String> = Path::new(&name)
            .ancestors()
            .skip(1)
            .filter(|a| !a.as_os_str().is_empty())
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        // shallowest first
        for at in ups.into_iter().rev() {
            if !seen.insert(at.clone()) {
                continue;
            }
            // (inside a directory moved whole: moved with it; through a link or not a
            // real directory: nothing outside `dir` is read or moved)
            if dirs.iter().any(|d| Path::new(&at).starts_with(d))
                || check_entry(dir, &at, "").is_err()
                || !std::fs::symlink_metadata(dir.join(&at)).is_ok_and(|m| m.is_dir())
            {
                continue;
            }
            let sub = dir.join(&at);
            let Some(m) = registry::read_manifest(&sub) else {
                continue;
            };
            check_manifest_entries(&sub, &m)?;
            let files: Vec<String> = m
                .files
                .iter()
                .chain(&m.pending)
                .chain(std::iter::once(&MANIFEST.to_string()))
                .map(|f| below(&at, f))
                .collect();
            let subdirs: Vec<String> = m.dirs.iter().map(|d| below(&at, d)).collect();
            queue.extend(files.iter().chain(&subdirs).cloned());
            names.extend(files.iter().cloned());
            dirs.extend(subdirs.iter().cloned());
            let listed = files.into_iter().chain(subdirs).collect();
            nested.push((at, m, listed));
        }
    }
    names.sort();
    names.dedup();
    dirs.sort();
    dirs.dedup();
    // (a legacy name through a link is passed over: nothing outside `dir` is moved)
    let own = |f: &&String| check_entry(dir, f, "").is_ok();
    let present_dirs: Vec<String> = dirs
        .iter()
        .filter(own)
        .filter(|f| std::fs::symlink_metadata(dir.join(f)).is_ok_and(|m| m.is_dir()))
        .cloned()
        .collect();
    // what lies in a directory that is moved whole goes with it
    let in_moved_dir = |f: &String| {
        present_dirs
            .iter()
            .any(|d| d != f && Path::new(f).starts_with(d))
    };
    let present: Vec<String> = names
        .iter()
        .filter(own)
        .filter(|f| std::fs::symlink_metadata(dir.join(f)).is_ok_and(|m| m.is_file()))
        .chain(&present_dirs)
        .filter(|f| !in_moved_dir(f))
        .cloned()
        .collect();
    let mut groups = vec![Earlier {
        at: String::new(),
        manifest: old.cloned(),
        present: Vec::new(),
    }];
    let mut listed = Vec::new();
    for (at, m, l) in nested {
        groups.push(Earlier {
            at,
            manifest: Some(m),
            present: Vec::new(),
        });
        listed.push(l);
    }
    // each to the deepest earlier command that lists it; else the directory's own
    for f in present {
        let k = (0..listed.len())
            .filter(|&k| listed[k].contains(&f))
            .max_by_key(|&k| Path::new(&groups[k + 1].at).components().count())
            .map_or(0, |k| k + 1);
        groups[k].present.push(f);
    }
    // an input inside what would be moved: refused, naming it
    for i in inputs {
        let Ok(ci) = std::fs::canonicalize(i) else {
            continue;
        };
        for g in &groups {
            for f in &g.present {
                let Ok(cf) = std::fs::canonicalize(dir.join(f)) else {
                    continue;
                };
                if ci.starts_with(&cf) || pft_hdl::outfile::same_file(i, &dir.join(f)) {
                    let what = match &g.manifest {
                        Some(m) if g.at.is_empty() => {
                            format!("the files of the `{}` there", m.command)
                        }
                        Some(m) => format!("the files of the `{}` in {}", m.command, g.at),
                        None => "the files an earlier pftsim wrote there".to_string(),
                    };
                    anyhow::bail!(
                        "--out {}: the input {} lies in it ({f}) and would be moved aside with {what}; a command never moves its own inputs: give another --out, or copy the input elsewhere first",
                        super::super::sanitize(&dir.display().to_string()),
                        super::super::sanitize(&i.display().to_string())
                    );
                }
            }
        }
    }
    Ok(groups)
}

/// Moves the files and directories of earlier commands (`earlier_present` says which, and
/// refuses first when one holds an input) to `.previous-<unix time>/`, keeping their
/// relative paths: a manifest first, then what it lists, so that a command stopped midway
/// leaves no manifest over some of its files. One note on stderr per earlier command.
pub(super) fn move_aside_earlier(
    dir: &Path,
    new: &Manifest,
    old: Option<&Manifest>,
    legacy: &[String],
    inputs: &[&Path],
) -> anyhow::Result<()> {
    let groups = earlier_present(dir, new, old, legacy, inputs)?;
    if groups.iter().all(|g| g.present.is_empty()) {
        return Ok(());
    }
    let stamp = old.map_or_else(unix_now, |m| m.started_unix);
    let mut aside = dir.join(format!(".previous-{stamp}"));
    let mut k = 1;
    while aside.exists() {
        aside = dir.join(format!(".previous-{stamp}-{k}"));
        k += 1;
    }
    let manifests: BTreeSet<String> = groups
        .iter()
        .filter(|g| g.manifest.is_some())
        .map(|g| below(&g.at, MANIFEST))
        .collect();
    let all = groups.iter().flat_map(|g| &g.present);
    let (first, rest): (Vec<&String>, Vec<&String>) = all.partition(|f| manifests.contains(*f));
    let mut emptied: Vec<PathBuf> = Vec::new();
    for f in first.into_iter().chain(rest) {
        let to = aside.join(f);
        if let Some(d) = to.parent() {
            std::fs::create_dir_all(d).with_context(|| format!("cannot create {}", d.display()))?;
        }
        std::fs::rename(dir.join(f), &to)
            .with_context(|| format!("cannot move {} aside", dir.join(f).display()))?;
        let mut up = Path::new(f.as_str()).parent();
        while let Some(d) = up.filter(|d| !d.as_os_str().is_empty()) {
            emptied.push(dir.join(d));
            up = d.parent();
        }
    }
    // directories left empty go too, deepest first (never one holding anything else)
    emptied.sort_by(|a, b| (b.components().count(), b).cmp(&(a.components().count(), a)));
    emptied.dedup();
    for d in emptied {
        let _ = std::fs::remove_dir(d);
    }
    for g in groups.iter().filter(|g| !g.present.is_empty()) {
        let (from, to) = if g.at.is_empty() {
            (dir.to_path_buf(), aside.clone())
        } else {
            (dir.join(&g.at), aside.join(&g.at))
        };
        crate::eprintln_safe!(
            "note: moved {} file(s) of {} in {} to {}",
            g.present.len(),
            g.what(),
            super::super::sanitize(&from.display().to_string()),
            super::super::sanitize(&to.display().to_string())
        );
    }
    Ok(())
}
