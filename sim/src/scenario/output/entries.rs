//! Paths read back from files pftsim wrote earlier (plans, manifests) and the outputs a
//! command plans: each checked before anything is written, moved or created.

#[allow(unused_imports)]
use super::*;

/// A relative path without `..`, `.`, a root or an empty part (`a//b`, a trailing `/`).
/// The text's own parts are checked: `components()` drops an inner `.` and a trailing `/`.
pub(super) fn is_plain_relative(f: &str) -> bool {
    let p = Path::new(f);
    f.split('/').all(|s| !s.is_empty() && s != "." && s != "..")
        && p.components().all(|c| matches!(c, Component::Normal(_)))
}

/// Checks a path read from a file that pftsim wrote earlier (a sweep plan, a manifest),
/// before anything is written or moved by it: `entry` must be a plain relative path below
/// `dir` (no root, no `..`, no `.`), and no part of it that exists may be a symbolic link
/// or, on the way, anything but a directory. So a plan or manifest that was copied,
/// hand-edited or damaged never makes a command write, create or move anything outside its
/// result directory. `what` names the entry in the message (`o/sweep.json: units[2].dir`).
pub fn check_entry(dir: &Path, entry: &str, what: &str) -> anyhow::Result<()> {
    let shown = super::super::sanitize(entry);
    anyhow::ensure!(
        is_plain_relative(entry),
        "{what} = {shown:?}: not a plain relative path below {} (no root, `..`, `.` or empty part); pftsim never writes outside its result directory",
        dir.display()
    );
    anyhow::ensure!(
        !entry.split('/').any(|s| s == registry::LOCK),
        "{what} = {shown:?}: a part of it is named {}, the lock of a result directory, which no command moves or writes into",
        registry::LOCK
    );
    let mut cur = dir.to_path_buf();
    let parts: Vec<Component> = Path::new(entry).components().collect();
    for (i, c) in parts.iter().enumerate() {
        cur.push(c);
        let Ok(m) = std::fs::symlink_metadata(&cur) else {
            break;
        };
        anyhow::ensure!(
            !m.file_type().is_symlink(),
            "{what} = {shown:?}: {} is a symbolic link (to {}); pftsim never writes through links",
            cur.display(),
            std::fs::read_link(&cur).unwrap_or_default().display()
        );
        anyhow::ensure!(
            i + 1 == parts.len() || m.is_dir(),
            "{what} = {shown:?}: {} is {}, not a directory",
            cur.display(),
            pft_hdl::outfile::kind_of(&m)
        );
    }
    Ok(())
}

/// Checks the entries of a manifest read from `dir` (its `files`, `pending` and `dirs`) with
/// `check_entry`.
pub(super) fn check_manifest_entries(dir: &Path, m: &Manifest) -> anyhow::Result<()> {
    let at = dir.join(MANIFEST);
    for (field, list) in [
        ("files", &m.files),
        ("pending", &m.pending),
        ("dirs", &m.dirs),
    ] {
        for (i, f) in list.iter().enumerate() {
            check_entry(dir, f, &format!("{}: {field}[{i}]", at.display())).map_err(|e| {
                // an entry pftsim would write is the manifest's own; a link or a file in
                // the way of a good entry was put there on disk
                let entry_ok = is_plain_relative(f) && !f.split('/').any(|s| s == registry::LOCK);
                if entry_ok {
                    anyhow::anyhow!(
                        "{e}\n(something on disk was put there after pftsim wrote it: remove it, or move {} away, to use it again)",
                        dir.display()
                    )
                } else {
                    anyhow::anyhow!(
                        "{e}\n(the manifest was changed or damaged after pftsim wrote it; move it away to use {} again)",
                        dir.display()
                    )
                }
            })?;
        }
    }
    Ok(())
}

/// Checks, before any work, that the files `files` (relative to `dir`, plain relative
/// paths) can be written as a result directory writes them: none is an input, none exists
/// as anything but a regular file, and no directory on the way is a symbolic link or a
/// file. `dirs` are child directories (each must be a real directory if it exists).
/// `ResultDir::open` runs it on its plan; a sweep runs it on every run it is about to
/// start, so that no run fails on its output after others ran for hours.
pub fn check_outputs(
    dir: &Path,
    files: &[String],
    dirs: &[String],
    inputs: &[&Path],
) -> anyhow::Result<()> {
    use pft_hdl::outfile;
    for f in files.iter().chain(dirs) {
        anyhow::ensure!(
            is_plain_relative(f),
            "internal error: {f:?} is not a relative path"
        );
    }
    for f in files {
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
                    pft_hdl::outfile::kind_of(&m)
                );
            }
        }
    }
    // the directories on the way to every planned file and child directory are real
    for (f, is_dir_entry) in files
        .iter()
        .map(|f| (f, false))
        .chain(dirs.iter().map(|f| (f, true)))
    {
        let mut cur = dir.to_path_buf();
        let parts: Vec<_> = Path::new(f.as_str()).components().collect();
        for (i, c) in parts.iter().enumerate() {
            let last = i + 1 == parts.len();
            if last && !is_dir_entry {
                break;
            }
            cur.push(c);
            let Ok(m) = std::fs::symlink_metadata(&cur) else {
                break;
            };
            if m.file_type().is_symlink() {
                anyhow::bail!(
                    "cannot write {}: {} is a symbolic link (to {}); the directories of a result directory must be its own",
                    dir.join(f).display(),
                    cur.display(),
                    std::fs::read_link(&cur).unwrap_or_default().display()
                );
            }
            if !m.is_dir() {
                anyhow::bail!(
                    "cannot write {}: {} is not a directory",
                    dir.join(f).display(),
                    cur.display()
                );
            }
        }
    }
    Ok(())
}
