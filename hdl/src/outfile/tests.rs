//! `outfile`'s checks and atomic writes, on files in a temporary directory.

use super::*;
use std::os::unix::fs::FileTypeExt;

fn tmpdir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("pft-outfile-{tag}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&d);
    fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn refuses_inputs_non_regular_files_and_bad_directories() {
    let d = tmpdir("refuse");
    let input = d.join("in.toml");
    fs::write(&input, "x").unwrap();
    let e = check(&input, &[&input]).unwrap_err().to_string();
    assert!(e.contains("it is the input"), "{e}");
    // the same file through a symbolic link and through `..`
    let link = d.join("link.toml");
    std::os::unix::fs::symlink(&input, &link).unwrap();
    assert!(check(&link, &[&input]).is_err());
    // through directories still to be made: `new/` is created, then `..` leads back
    for p in [d.join("new/../in.toml"), d.join("x/y/../../in.toml")] {
        let e = check(&p, &[&input]).unwrap_err().to_string();
        assert!(e.contains("it is the input"), "{p:?}: {e}");
        assert!(!d.join("new").exists() && !d.join("x").exists());
    }
    // a trailing slash names a directory, whatever `Path` makes of it
    for p in [d.join("s.json/"), d.join("nd/")] {
        let e = check(&p, &[]).unwrap_err().to_string();
        assert!(e.contains("ends in `/`"), "{p:?}: {e}");
    }
    let e = check(&d, &[]).unwrap_err().to_string();
    assert!(e.contains("a directory"), "{e}");
    // a descriptor's file would be replaced by the rename: refused, however named
    for fd in ["/dev/stdout", "/dev/fd/1", "/proc/self/fd/2", "/dev/stdin"] {
        let e = check(Path::new(fd), &[]).unwrap_err().to_string();
        assert!(e.contains("open descriptor of a process"), "{fd}: {e}");
    }
    // another of /proc's files is not called a descriptor
    for f in [
        "/proc/version",
        "/proc/sys/kernel/new.v",
        "/proc/self/fd/987654",
    ] {
        let e = check(Path::new(f), &[]).unwrap_err().to_string();
        assert!(e.contains("it is in /proc"), "{f}: {e}");
    }
    let e = check(Path::new("/dev/null"), &[]).unwrap_err().to_string();
    assert!(e.contains("a device"), "{e}");
    let e = check(&input.join("x.csv"), &[]).unwrap_err().to_string();
    assert!(e.contains("not a directory"), "{e}");
    let dangling = d.join("gone");
    std::os::unix::fs::symlink(d.join("missing-dir"), &dangling).unwrap();
    let e = check(&dangling.join("x.csv"), &[]).unwrap_err().to_string();
    assert!(
        e.contains("symbolic link") && e.contains("does not exist"),
        "{e}"
    );
    // a link that cannot be followed is not said to lead to nothing
    let looped = d.join("loop");
    std::os::unix::fs::symlink(&looped, &looped).unwrap();
    let e = check(&looped.join("x.csv"), &[]).unwrap_err().to_string();
    assert!(e.contains("a symbolic link that cannot be followed"), "{e}");
    // fine: a new file, an existing regular file, a file in a directory to be created
    check(&d.join("new.csv"), &[&input]).unwrap();
    check(&d.join("a/b/new.csv"), &[&input]).unwrap();
    let e = check_all(&[("--out", &d.join("o")), ("--vcd", &d.join("o"))], &[])
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("--vcd") && e.contains("--out names the same file"),
        "{e}"
    );
    // one new file under other spellings: `./`, `..`, a link to its directory
    let sub = d.join("sub");
    fs::create_dir_all(&sub).unwrap();
    let dlink = d.join("dlink");
    std::os::unix::fs::symlink(&sub, &dlink).unwrap();
    for (a, b) in [
        (d.join("o.csv"), d.join("./o.csv")),
        (d.join("o.csv"), sub.join("../o.csv")),
        (sub.join("x.json"), dlink.join("x.json")),
        (d.join("new/a.csv"), d.join("new/./b/../a.csv")),
    ] {
        assert!(!a.exists());
        let e = check_all(&[("--out", &a), ("--summary", &b)], &[])
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("--summary") && e.contains("--out names the same file"),
            "{a:?} {b:?}: {e}"
        );
    }
    check_all(
        &[
            ("--out", &d.join("o.csv")),
            ("--summary", &sub.join("o.csv")),
        ],
        &[],
    )
    .unwrap();
    fs::remove_dir_all(&d).unwrap();
}

#[test]
fn atomic_file_replaces_only_on_commit() {
    let d = tmpdir("atomic");
    let p = d.join("out.csv");
    fs::write(&p, "old").unwrap();
    {
        let mut f = AtomicFile::create(&p).unwrap();
        f.write_all(b"half").unwrap();
        // dropped: not committed
    }
    assert_eq!(fs::read_to_string(&p).unwrap(), "old");
    assert_eq!(
        fs::read_dir(&d).unwrap().count(),
        1,
        "temporary file removed"
    );
    write_atomic(&p, b"new").unwrap();
    assert_eq!(fs::read_to_string(&p).unwrap(), "new");
    // through a symbolic link: the target changes, the link stays
    let link = d.join("link.csv");
    std::os::unix::fs::symlink(&p, &link).unwrap();
    write_atomic(&link, b"via link").unwrap();
    assert!(fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(fs::read_to_string(&p).unwrap(), "via link");
    // a link to a device is refused, never replaced
    let dev = d.join("dev-link");
    std::os::unix::fs::symlink("/dev/null", &dev).unwrap();
    let e = write_atomic(&dev, b"x").unwrap_err().to_string();
    assert!(e.contains("a device"), "{e}");
    assert!(fs::metadata("/dev/null")
        .unwrap()
        .file_type()
        .is_char_device());
    fs::remove_dir_all(&d).unwrap();
}
