//! `pft-trace` interrupted (SIGINT) while writing into directories it made: the temporary
//! files go, and so do the directories it made that are empty again (a failed run removed
//! them; an interrupted one left them, empty, until 2026-12-06).

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

const PFT_TRACE: &str = env!("CARGO_BIN_EXE_pft-trace");

/// Whether `d` holds a file whose name has `.tmp-` (an output being written).
fn writing(d: &Path) -> bool {
    std::fs::read_dir(d).is_ok_and(|rd| {
        rd.flatten()
            .any(|e| e.file_name().to_string_lossy().contains(".tmp-"))
    })
}

#[test]
fn an_interrupted_run_leaves_no_directory() {
    let root = std::env::temp_dir().join(format!("pft-trace-interrupt-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(&root).unwrap();
    let child = Command::new(PFT_TRACE)
        .args([
            "--cycles",
            "1000000000",
            "--link-latency",
            "3",
            "--drain",
            "0.7",
            "--out",
            "nd/sub/o.csv",
        ])
        .current_dir(&root)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // (a wait for the run to be writing, not a timed verdict: up to 10 minutes)
    let sub = root.join("nd/sub");
    for _ in 0..6000 {
        if writing(&sub) {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(writing(&sub), "the run never started writing nd/sub/o.csv");
    let st = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(st.success());
    let o = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(130), "{stderr}");
    assert!(stderr.contains("interrupted"), "{stderr}");
    assert!(!root.join("nd").exists(), "nd/ left behind: {stderr}");
    let _ = std::fs::remove_dir_all(&root);
}
