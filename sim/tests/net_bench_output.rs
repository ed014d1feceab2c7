//! `net-bench` never prints NaN or inf: a value with nothing to measure prints `n/a`
//! (docs/network.md, "net-bench"; issue 36).

use std::process::Command;

const NET_BENCH: &str = env!("CARGO_BIN_EXE_net-bench");

fn line(args: &[&str]) -> String {
    let o = Command::new(NET_BENCH).args(args).output().unwrap();
    assert!(
        o.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap()
}

/// The `key=value` pairs of the line, values that are neither numbers nor `n/a` refused
/// where a number is expected.
fn assert_no_nan_or_inf(l: &str) {
    for kv in l.split_whitespace() {
        let (k, v) = kv.split_once('=').unwrap();
        let lower = v.to_ascii_lowercase();
        assert!(
            !lower.contains("nan") && !lower.contains("inf"),
            "{k}={v} in: {l}"
        );
    }
}

#[test]
fn nothing_delivered_prints_n_a_for_the_latency() {
    let l = line(&["--topo", "single:4", "--cycles", "100", "--load", "0"]);
    assert_no_nan_or_inf(&l);
    assert!(l.contains("latency_mean_cycles=n/a"), "{l}");
    assert!(l.contains("delivered_messages=0"), "{l}");
}

#[test]
fn a_one_cycle_run_prints_numbers_or_n_a() {
    for args in [
        &["--topo", "single:2", "--cycles", "1", "--warmup", "0"][..],
        &[
            "--topo", "single:2", "--cycles", "1", "--warmup", "0", "--load", "1",
        ][..],
    ] {
        let l = line(args);
        assert_no_nan_or_inf(&l);
        for k in [
            "node_cycles_per_s=",
            "node_cycles_per_cpu_s=",
            "cycles_per_s=",
        ] {
            let v = l
                .split_whitespace()
                .find_map(|kv| kv.strip_prefix(k))
                .unwrap();
            assert!(
                v == "n/a" || v.parse::<f64>().is_ok_and(|x| x > 0.0),
                "{k}{v}"
            );
        }
    }
}

/// `--write-anynet` refuses what the file cannot say (a butterfly's one-way links, link
/// latencies of a topology that has none of its own) and writes nothing; a dragonfly's
/// latencies are written after `router M`.
#[test]
fn write_anynet_refuses_what_a_file_cannot_hold() {
    let dir = std::env::temp_dir().join(format!("net-bench-anynet-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("t.net");
    let p = path.to_str().unwrap();
    for (args, says) in [
        (vec!["--topo", "fly:2,3"], "one way"),
        (
            vec!["--topo", "torus:4,2", "--local-latency", "10"],
            "apply to dragonflies",
        ),
        // a ring of two: two links between the same routers, which a file would merge
        (
            vec!["--topo", "torus:2,2"],
            "routers 0 and 1 are joined by two links",
        ),
    ] {
        let o = Command::new(NET_BENCH)
            .args(&args)
            .args(["--write-anynet", p])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(!path.exists(), "{args:?}: nothing is written");
    }
    // a dragonfly's global links with their latency (both ends' lines), local ones bare
    line(&[
        "--topo",
        "dragonfly:2,4,2",
        "--global-latency",
        "100",
        "--write-anynet",
        p,
    ]);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(
        text.starts_with(
            "router 0 node 0 node 1 router 1 router 2 router 3 router 4 100 router 8 100\n"
        ),
        "{text}"
    );
    assert!(
        text.contains(
            "\nrouter 4 node 8 node 9 router 5 router 6 router 7 router 0 100 router 8 100\n"
        ),
        "{text}"
    );
    // written again from the file: the same latencies (each channel's on its line)
    let again = dir.join("again.net");
    let a = again.to_str().unwrap();
    line(&["--topo", &format!("file:{p}"), "--write-anynet", a]);
    let text2 = std::fs::read_to_string(&again).unwrap();
    assert_eq!(
        text2.matches(" 100").count(),
        text.matches(" 100").count(),
        "{text2}"
    );
    assert!(
        text2.starts_with(
            "router 0 node 0 node 1 router 1 router 2 router 3 router 4 100 router 8 100\n"
        ),
        "{text2}"
    );
    std::fs::remove_file(&again).unwrap();
    std::fs::remove_file(&path).unwrap();
    // a tree is written, and runs from the file
    line(&["--topo", "tree:2,3", "--write-anynet", p]);
    assert!(line(&["--topo", &format!("file:{p}"), "--cycles", "50"]).contains("nodes=8"));
    // an existing file or a directory is not written over, and is named for what it is
    let before = std::fs::read(&path).unwrap();
    let link = dir.join("to-stdout.net");
    std::os::unix::fs::symlink("/dev/stdout", &link).unwrap();
    for (to, says) in [
        (p, "it exists: an existing file is refused"),
        (dir.to_str().unwrap(), "it is a directory"),
        // (this said "File exists (os error 17)")
        (link.to_str().unwrap(), "it is a symbolic link"),
        // (this created a regular file among the device nodes, as root)
        (
            "/dev/pft-write-anynet.net",
            "/dev holds the system's devices",
        ),
    ] {
        let o = Command::new(NET_BENCH)
            .args(["--topo", "ft128", "--write-anynet", to])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{to}: {err}");
        assert!(
            err.contains(says) && (to.starts_with("/dev/") || err.contains("give a new file")),
            "{err}"
        );
    }
    assert_eq!(std::fs::read(&path).unwrap(), before);
    // `-` is stdout (a file named `-` used to be written), the same text as the file
    let o = Command::new(NET_BENCH)
        .args(["--topo", "tree:2,3", "--write-anynet", "-"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(o.stdout, before);
    assert!(!dir.join("-").exists(), "a file named - was written");
    // a closed stdout is an error, not a silent success
    let o = Command::new("bash")
        .args(["-c", "\"$NB\" --topo tree:2,3 --write-anynet - >&-"])
        .env("NB", NET_BENCH)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("cannot write to stdout"), "{err}");
    // a write cut short (here by a file-size limit: the process ends on SIGXFSZ) leaves no
    // file at the name asked for, only the temporary one (this left 20 KiB of 207)
    let o = Command::new("bash")
        .args([
            "-c",
            "ulimit -f 20; exec \"$NB\" --topo tree:8,4 --write-anynet big.net",
        ])
        .env("NB", NET_BENCH)
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(!o.status.success(), "the limit did not stop it");
    assert!(!dir.join("big.net").exists(), "a cut-off big.net was left");
    // a name that ends in `/` names a directory, not a file to make
    let o = Command::new(NET_BENCH)
        .args(["--topo", "tree:2,3", "--write-anynet", "newdir/"])
        .current_dir(&dir)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("it names a directory"), "{err}");
    assert!(!dir.join("newdir").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// A network net-bench refuses gets its error alone: the warnings of a network that runs
/// (here `ugal`'s threshold above what a port can hold) come after the refusals.
#[test]
fn a_refused_network_prints_no_warning_first() {
    let ugal = [
        "--topo",
        "dragonfly:2,4,2",
        "--routing",
        "ugal",
        "--vc-buf",
        "4",
        "--ugal-threshold",
        "100",
        "--cycles",
        "10",
        "--vcs",
    ];
    // runs: the warning is printed
    let o = Command::new(NET_BENCH)
        .args(ugal)
        .arg("3")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(err.contains("warning: routing `ugal`"), "{err}");
    // too few lanes for `ugal`: refused, and only the refusal is printed
    let o = Command::new(NET_BENCH)
        .args(ugal)
        .arg("2")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("needs vcs >= 3") && !err.contains("warning"),
        "{err}"
    );
}

/// `--routing disha` runs Disha with its default time-out (every routing a torus or mesh
/// refusal names is one `--routing` takes), and needs `--vcs` like the other lane routings.
#[test]
fn disha_is_a_routing_net_bench_takes() {
    let l = line(&[
        "--topo",
        "torus:4,2",
        "--routing",
        "disha",
        "--vcs",
        "2",
        "--cycles",
        "2000",
        "--load",
        "0.3",
    ]);
    let delivered: u64 = l
        .split_whitespace()
        .find_map(|kv| kv.strip_prefix("delivered_messages="))
        .unwrap()
        .parse()
        .unwrap();
    assert!(delivered > 0, "{l}");
    let o = Command::new(NET_BENCH)
        .args(["--topo", "mesh:4,2", "--routing", "ugal", "--cycles", "10"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("`disha`"), "{err}");
    let o = Command::new(NET_BENCH)
        .args([
            "--topo",
            "torus:4,2",
            "--routing",
            "disha",
            "--cycles",
            "10",
        ])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("'--vcs'") && !err.contains("panicked"),
        "{err}"
    );
}

/// The scenario files' pattern names are net-bench's too: the same run, field for field
/// (the time and memory fields aside).
#[test]
fn scenario_pattern_spellings_are_taken() {
    let run = |p: &str| {
        line(&[
            "--topo",
            "ft128",
            "--cycles",
            "1500",
            "--load",
            "0.3",
            "--pattern",
            p,
        ])
        .split_whitespace()
        .filter(|kv| {
            ![
                "build_s=",
                "wall_s=",
                "cpu_s=",
                "node_cycles_per",
                "cycles_per_s=",
                "peak_rss",
            ]
            .iter()
            .any(|t| kv.starts_with(t))
        })
        .map(str::to_string)
        .collect::<Vec<_>>()
    };
    assert_eq!(run("bit_reversal"), run("bitrev"));
    let hot = run("hot_spot:3,50");
    assert_eq!(hot, run("hotspot:3,50"));
    assert_ne!(hot, run("bitrev"), "the patterns differ");
}

/// `--deadlock-cycles` sets `network.deadlock_cycles`: the slow dragonfly refused at the
/// default (docs/bad-inputs.md, NB-27) runs with the flag one cycle above the bound its
/// refusal names, and is refused at the bound.
#[test]
fn the_watchdog_flags_set_their_keys() {
    let slow = [
        "--topo",
        "dragonfly:1,2,1",
        "--vcs",
        "2",
        "--global-latency",
        "40000",
        "--cycles",
        "1000",
    ];
    let run = |extra: &[&str]| {
        Command::new(NET_BENCH)
            .args(slow)
            .args(extra)
            .output()
            .unwrap()
    };
    let at = run(&["--deadlock-cycles", "720026"]);
    assert_eq!(at.status.code(), Some(2));
    let err = String::from_utf8_lossy(&at.stderr);
    assert!(
        err.contains(
            "'--deadlock-cycles': `deadlock_cycles` = 720026: must be 0 (off) or above 720026"
        ),
        "{err}"
    );
    let l = line(&[&slow[..], &["--deadlock-cycles", "720027"]].concat());
    assert!(l.contains("cycles=1000"), "{l}");
    line(&[&slow[..], &["--deadlock-cycles", "0"]].concat());
    // the stall watchdog's flag: 86 is a packet's shortest way at the defaults (NB-30)
    let short = ["--topo", "single:4", "--cycles", "100"];
    let o = Command::new(NET_BENCH)
        .args(short)
        .args(["--stall-cycles", "86"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    line(&[&short[..], &["--stall-cycles", "87"]].concat());
}
