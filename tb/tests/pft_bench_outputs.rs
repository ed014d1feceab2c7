//! `pft-bench --dir DIR` checks DIR and everything it writes there before any work
//! (`pft_hdl::outfile`): a FIFO is refused without being opened, a symbolic link in DIR is
//! never written through, nothing goes under /dev, Verilator's build directory is no link;
//! a normal run (twice into one directory) still works. The real binary, tiny cycle counts.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const PFT_BENCH: &str = env!("CARGO_BIN_EXE_pft-bench");

/// The smallest run: the refusals come before any of it.
const TINY: [&str; 8] = [
    "--model-cycles",
    "1000",
    "--rtl-cycles",
    "100",
    "--verilator-cycles",
    "1000",
    "--trace-cycles",
    "100",
];

/// A refused run ends at once; one that opens a FIFO waits for a reader forever. The bound
/// only turns such a hang into a failure: far above any run here, a Verilator build on a
/// slow machine included, so no verdict depends on the machine's speed.
const TIMEOUT: Duration = Duration::from_secs(900);

/// A fresh scratch directory for one test.
fn scratch(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("pft-bench-outputs-{tag}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&d);
    fs::create_dir_all(&d).unwrap();
    d
}

/// Runs pft-bench with `TINY` and `--dir dir` in `cwd`; kills it after `TIMEOUT` (then the
/// test fails: it hung).
fn bench(cwd: &Path, dir: &str) -> Output {
    let mut child = Command::new(PFT_BENCH)
        .args(TINY)
        .args(["--dir", dir])
        .current_dir(cwd)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run pft-bench");
    let t0 = Instant::now();
    while child.try_wait().expect("wait for pft-bench").is_none() {
        if t0.elapsed() > TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            panic!("pft-bench --dir {dir} still running after {TIMEOUT:?}: it hung");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().expect("pft-bench's output")
}

/// Asserts a refusal: exit status 1, `error: cannot write PATH: ...` with `why` in it, no
/// panic.
fn assert_refused(o: &Output, path: &str, why: &str) {
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "exit status; stderr: {err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(
        err.starts_with(&format!("error: cannot write {path}: ")),
        "names the path: {err}"
    );
    assert!(err.contains(why), "says why ({why}): {err}");
    assert!(o.stdout.is_empty(), "no report on a refusal");
}

/// The names in `d`, sorted.
fn names(d: &Path) -> Vec<String> {
    let mut v: Vec<String> = fs::read_dir(d)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

#[test]
fn a_fifo_is_refused_without_being_opened() {
    use std::os::unix::fs::FileTypeExt;
    let d = scratch("fifo");
    fs::create_dir(d.join("w1")).unwrap();
    let st = Command::new("mkfifo")
        .arg(d.join("w1/trace.vec"))
        .status()
        .expect("mkfifo");
    assert!(st.success(), "mkfifo");
    let o = bench(&d, "w1");
    assert_refused(&o, "w1/trace.vec", "it exists and is a FIFO");
    assert!(fs::symlink_metadata(d.join("w1/trace.vec"))
        .unwrap()
        .file_type()
        .is_fifo());
    assert_eq!(names(&d.join("w1")), ["trace.vec"], "nothing written");
    fs::remove_dir_all(&d).unwrap();
}

#[test]
fn a_symbolic_link_in_dir_is_not_written_through() {
    let d = scratch("link");
    fs::write(d.join("notes.txt"), "my notes\n").unwrap();
    fs::create_dir(d.join("w2")).unwrap();
    std::os::unix::fs::symlink("../notes.txt", d.join("w2/trace.vec")).unwrap();
    let o = bench(&d, "w2");
    assert_refused(&o, "w2/trace.vec", "it is a symbolic link to ../notes.txt");
    assert_eq!(
        fs::read_to_string(d.join("notes.txt")).unwrap(),
        "my notes\n"
    );
    assert!(fs::symlink_metadata(d.join("w2/trace.vec"))
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(names(&d.join("w2")), ["trace.vec"], "nothing written");

    // a link to a device: named as one (this said `verilator bench failed: ` and nothing)
    fs::create_dir(d.join("w4")).unwrap();
    std::os::unix::fs::symlink("/dev/null", d.join("w4/pft_injector.v")).unwrap();
    let o = bench(&d, "w4");
    assert_refused(&o, "w4/pft_injector.v", "it exists and is a device");
    assert_eq!(names(&d.join("w4")), ["pft_injector.v"], "nothing written");

    // Verilator's build directory as a link to another directory, and as a file
    fs::create_dir(d.join("w5")).unwrap();
    fs::create_dir(d.join("other")).unwrap();
    std::os::unix::fs::symlink("../other", d.join("w5/obj_bench")).unwrap();
    let o = bench(&d, "w5");
    assert_refused(&o, "w5/obj_bench", "it is a symbolic link to ../other");
    assert!(names(&d.join("other")).is_empty(), "nothing built there");
    assert_eq!(names(&d.join("w5")), ["obj_bench"], "nothing written");
    fs::create_dir(d.join("w6")).unwrap();
    fs::write(d.join("w6/obj_bench"), "keep\n").unwrap();
    let o = bench(&d, "w6");
    assert_refused(
        &o,
        "w6/obj_bench",
        "it exists and is a file, not a directory",
    );
    assert_eq!(
        fs::read_to_string(d.join("w6/obj_bench")).unwrap(),
        "keep\n"
    );
    assert_eq!(names(&d.join("w6")), ["obj_bench"], "nothing written");
    fs::remove_dir_all(&d).unwrap();
}

#[test]
fn nothing_goes_under_dev() {
    let dev = format!("/dev/pft-bench-test-{}", std::process::id());
    let d = scratch("dev");
    let o = bench(&d, &dev);
    // cleaned up first, so that a failure leaves nothing in /dev
    let made = Path::new(&dev).exists();
    if made {
        let _ = fs::remove_dir_all(&dev);
    }
    assert!(!made, "{dev} was created");
    assert_refused(&o, &dev, "/dev holds the system's devices");
    fs::remove_dir_all(&d).unwrap();
}

#[test]
fn a_normal_run_writes_its_files_and_runs_again() {
    let d = scratch("normal");
    for run in 1..=2 {
        let o = bench(&d, "fresh/bench");
        let err = String::from_utf8_lossy(&o.stderr);
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(o.status.success(), "run {run}: {err}");
        assert!(
            out.contains("Verilator -O3 (exported Verilog)") && out.contains("model / rust-hdl"),
            "run {run}: {out}"
        );
        let w = d.join("fresh/bench");
        // the temporary files renamed into place, none left behind
        assert_eq!(
            names(&w),
            ["obj_bench", "pft_injector.v", "trace.vec"],
            "run {run}"
        );
        assert_eq!(
            fs::read_to_string(w.join("pft_injector.v")).unwrap(),
            pft_hdl::verilog::pft_injector_verilog(),
            "run {run}"
        );
        let trace = fs::read_to_string(w.join("trace.vec")).unwrap();
        let lines = trace
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
            .count();
        assert_eq!(lines, 100, "run {run}: --trace-cycles 100");
        assert!(w.join("obj_bench/bench").is_file(), "run {run}");
    }
    fs::remove_dir_all(&d).unwrap();
}
