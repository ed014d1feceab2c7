//! The bad-input catalogue (docs/bad-inputs.md), rows `SW-*`: sweeps, cluster scripts and
//! result directories that more than one command touches. One case per row, run on the real
//! binary in a fresh directory, checked like every row (exit status, no panic, the row's
//! message fragments, what is left on disk). `catalogue_matches_cases` keeps the doc's SW
//! rows and these cases in step.

use pft_test_support::catalogue::*;
// S: a 6-NIC hot-spot scenario of 2000 cycles, one `[[pft]]` entry `p`.
// G: one axis of two values: 2 points, 4 runs (2 points, off, isolated).
use pft_test_support::catalogue;
use pft_test_support::scenario::{GRID_M_18_22 as G, TINY_HOTSPOT as S};
use std::path::Path;

const PFTSIM: &str = env!("CARGO_BIN_EXE_pftsim");

/// One value: a one-axis sweep (F_C bars).
const G1: &str = "[[axis]]\nkey = \"pft.m\"\nvalues = [18]\n";

/// S for 10^10 cycles: a run that cannot end before the test interrupts it, on any machine.
fn endless() -> String {
    S.replace("max = 2000", "max = 10_000_000_000")
}

/// SW-10's driver: a local sweep, SIGINT once its first run has shown it is running (its
/// manifest says so), then the sweep's own exit status. Exit 97: the sweep ended before its
/// first run started; 98: it ignored SIGINT for 120 s (then SIGKILL). The polling bounds
/// (600 s, 120 s) only stop a hung case; the verdict never depends on how fast the run is.
const INTERRUPT_FIRST_RUN: &str = r#"
"$PFTSIM" sweep s.toml --grid g.toml --out o --quiet --jobs 1 --yes & pid=$!
m=o/runs/p0000-s3/manifest.json
for _ in $(seq 6000); do
    grep -q '"status": "running"' "$m" 2>/dev/null && break
    kill -0 "$pid" 2>/dev/null || { wait "$pid"; echo "error: the sweep ended (exit $?) before its first run" >&2; exit 97; }
    sleep 0.1
done
grep -q '"status": "running"' "$m" || { kill -KILL "$pid"; echo "error: no run started in 600 s" >&2; exit 97; }
kill -INT "$pid"
for _ in $(seq 1200); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$pid" 2>/dev/null; then
    kill -KILL "$pid"; wait "$pid"; echo "error: the sweep ignored SIGINT" >&2; exit 98
fi
wait "$pid"
"#;

/// S on 64 NICs for 10^10 cycles: hours on any machine.
fn huge() -> String {
    S.replace("max = 2000", "max = 10_000_000_000")
        .replace("nodes = 6 }", "nodes = 64 }")
}

/// The manifest of an earlier, finished sweep with its CSV, a heat map and a run.
const EARLIER_SWEEP: &str = r#"{
  "tool": "pftsim 0.1.0",
  "command": "sweep",
  "argv": ["pftsim", "sweep", "s.toml", "--grid", "g.toml", "--out", "o"],
  "scenario": "s.toml",
  "scenario_sha256": "0",
  "runs": ["runs/p0000-s3"],
  "files": ["sweep.json", "sweep.csv", "fc_heatmap.svg"],
  "dirs": ["runs/p0000-s3"],
  "started_unix": 1700000000,
  "finished": true
}
"#;

/// A `compare` that is running (with the lock held by the test) or finished.
const COMPARE_MANIFEST: &str = r#"{
  "tool": "pftsim 0.1.0",
  "command": "compare",
  "argv": ["pftsim", "compare", "s.toml", "--out", "o"],
  "scenario": "s.toml",
  "scenario_sha256": "0",
  "runs": ["off", "p"],
  "files": ["compare.json", "off/summary.json", "p/summary.json"],
  "started_unix": 1700000000,
  "finished": false,
  "pid": 4242
}
"#;

const RUNNING_SWEEP: &str = r#"{
  "tool": "pftsim 0.1.0",
  "command": "sweep",
  "argv": ["pftsim", "sweep", "s.toml", "--grid", "g.toml", "--out", "o"],
  "scenario": "s.toml",
  "scenario_sha256": "0",
  "runs": [],
  "files": ["sweep.json"],
  "started_unix": 1700000000,
  "finished": false,
  "pid": 4242
}
"#;

/// The earlier sweep's files in `o/` (with a user's own file) for SW-03..05.
fn over_earlier_sweep(c: Case) -> Case {
    c.file("s.toml", S)
        .file("g.toml", G)
        .dir("o/runs/p0000-s3")
        .file("o/manifest.json", EARLIER_SWEEP)
        .file("o/sweep.json", "{}\n")
        .file("o/sweep.csv", "old\n")
        .file("o/fc_heatmap.svg", "<svg/>\n")
        .file("o/runs/p0000-s3/summary.json", "{}\n")
        .file("o/mine.txt", "a user's own file\n")
}

/// The earlier sweep's files are all in `o/.previous-1700000000/`, none beside the new
/// command's, and the user's file is untouched.
fn earlier_sweep_moved_aside(d: &Path) {
    let o = d.join("o");
    let aside = o.join(".previous-1700000000");
    for f in [
        "sweep.csv",
        "fc_heatmap.svg",
        "runs/p0000-s3/summary.json",
        "manifest.json",
    ] {
        assert!(aside.join(f).is_file(), "{f} was not moved aside");
    }
    assert!(
        !o.join("fc_heatmap.svg").exists(),
        "the old heat map stayed"
    );
    // the new command may run a run of the same name: never the old one's summary
    if let Ok(sm) = std::fs::read_to_string(o.join("runs/p0000-s3/summary.json")) {
        assert_ne!(sm, "{}\n", "the old run stayed");
    }
    if let Ok(csv) = std::fs::read_to_string(o.join("sweep.csv")) {
        assert_ne!(csv, "old\n", "the old sweep.csv stayed");
    }
    assert_eq!(
        std::fs::read_to_string(o.join("mine.txt")).unwrap(),
        "a user's own file\n"
    );
    let m = std::fs::read_to_string(o.join("manifest.json")).unwrap();
    assert!(m.contains("\"finished\": true"), "{m}");
}

/// SW-30/32/34: two shell commands that finish a sweep in `o` (of `s.toml` and `g.toml`) and
/// then aim another run (of `other.toml`, or of another point) at its run `o/runs/p0001-s3`.
fn into_sweep_run(id: &'static str, first: &'static str, second: &'static str) -> Case {
    case(id, "bash", &["-c", first])
        .also(&["-c", second])
        .env("PFTSIM", PFTSIM)
        .file("s.toml", S)
        .file(
            "other.toml",
            S.replace("name = \"tiny\"", "name = \"other\""),
        )
        .file("g.toml", G)
        .left(sweep_run_untouched)
}

/// The sweep's run `o/runs/p0001-s3` is still its own, and nothing was moved aside.
fn sweep_run_untouched(d: &Path) {
    let run = d.join("o/runs/p0001-s3");
    let m = std::fs::read_to_string(run.join("manifest.json")).unwrap();
    assert!(
        m.contains("p0001-s3.toml"),
        "the sweep's run was replaced: {m}"
    );
    let moved = std::fs::read_dir(&run)
        .unwrap()
        .flatten()
        .any(|e| e.file_name().to_string_lossy().starts_with(".previous-"));
    assert!(!moved, "the sweep's run was moved aside");
}

/// A finished local sweep in `o`, then `damage` (a shell command), then `--collect`: refused,
/// and the sweep's manifest still says finished (no `sweep.csv` rewritten from it).
fn collect_damaged(id: &'static str, damage: &'static str) -> Case {
    let script = format!(
        "\"$PFTSIM\" sweep s.toml --grid g.toml --out o --quiet >/dev/null && {damage} && \"$PFTSIM\" sweep --collect --out o --quiet"
    );
    case(id, "bash", &["-c", Box::leak(script.into_boxed_str())])
        .env("PFTSIM", PFTSIM)
        .file("s.toml", S)
        .file("g.toml", G)
        .left(|d| {
            let m = manifest(&d.join("o/manifest.json"));
            assert_eq!(m["finished"], true, "{m}");
        })
}

/// The plan of `S` over `G`, with `points = []`, sealed again with a matching digest (as
/// the library computes it), so that only the plan's shape can refuse it.
fn plan_without_points() -> String {
    use pft_sim::scenario::sweep;
    let grid: sweep::Grid = toml::from_str(G).unwrap();
    let mut plan = sweep::plan(Path::new("s.toml"), S, &grid, None).unwrap();
    plan.points.clear();
    plan.to_file_text().unwrap()
}

/// The sweep's `sweep.csv` still holds its two rows, and its manifest says finished.
fn sweep_kept(d: &Path) {
    let csv = std::fs::read_to_string(d.join("o/sweep.csv")).unwrap();
    assert_eq!(csv.lines().count(), 3, "sweep.csv was rewritten: {csv}");
    let m = manifest(&d.join("o/manifest.json"));
    assert_eq!(m["finished"], true, "{m}");
}

fn manifest(p: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
}

fn sweep(out: &'static str) -> Vec<&'static str> {
    vec![
        "sweep", "s.toml", "--grid", "g.toml", "--out", out, "--quiet",
    ]
}

fn cases() -> Vec<Case> {
    let p = PFTSIM;
    vec![
        // writes through links: refused before anything, the target untouched
        case("SW-01", p, &sweep("o"))
            .file("s.toml", S)
            .file("g.toml", G)
            .dir("o")
            .symlink("o/sweep.csv", "../g.toml"),
        case("SW-02", p, &sweep("o"))
            .file("s.toml", S)
            .file("g.toml", G1)
            .dir("o")
            .symlink("o/fc_bars.svg", "/dev/null"),
        // an earlier sweep's results moved aside by a sweep, an --emit and a run
        over_earlier_sweep(case("SW-03", p, &sweep("o"))).left(earlier_sweep_moved_aside),
        over_earlier_sweep(case(
            "SW-04",
            p,
            &[
                "sweep", "s.toml", "--grid", "g.toml", "--out", "o", "--emit", "slurm", "--quiet",
            ],
        ))
        .left(earlier_sweep_moved_aside),
        over_earlier_sweep(case("SW-05", p, &["run", "s.toml", "--out", "o", "--quiet"]))
            .left(earlier_sweep_moved_aside),
        // nested and concurrent writers
        case("SW-06", p, &["run", "s.toml", "--out", "o/sub", "--quiet"])
            .file("s.toml", S)
            .dir("o")
            .file("o/manifest.json", COMPARE_MANIFEST)
            .locked("o/.pftsim.lock"),
        case("SW-07", p, &["run", "s.toml", "--out", "o/off", "--quiet"])
            .file("s.toml", S)
            .dir("o/off")
            .file(
                "o/manifest.json",
                COMPARE_MANIFEST.replace("\"finished\": false", "\"finished\": true"),
            )
            .file("o/off/summary.json", "{}\n"),
        case("SW-08", p, &sweep("o"))
            .file("s.toml", S)
            .file("g.toml", G)
            .dir("o")
            .file("o/manifest.json", RUNNING_SWEEP)
            .locked("o/.pftsim.lock"),
        case("SW-09", p, &["compare", "s.toml", "--out", "o", "--quiet"])
            .file("s.toml", S)
            .dir("o")
            .dir("other/p")
            .file("other/p/summary.json", "{}\n")
            .symlink("o/p", "../other/p"),
        // a sweep that does not finish says so in its manifest. SIGINT is sent only once the
        // first run's manifest says "running", and the runs are hours long (10^10 cycles), so
        // the interrupt lands inside that run on any machine; the loops' bounds guard against
        // a hang only (a pftsim that ignores SIGINT is SIGKILLed and the case fails).
        case("SW-10", "bash", &["-c", INTERRUPT_FIRST_RUN])
            .env("PFTSIM", PFTSIM)
            .file("s.toml", endless())
            .file("g.toml", G)
            .left(|d| {
                let m = manifest(&d.join("o/manifest.json"));
                assert_eq!(m["status"], "interrupted", "{m}");
                assert_eq!(m["finished"], false, "{m}");
                assert!(!d.join("o/sweep.csv").exists());
                let r = manifest(&d.join("o/runs/p0000-s3/manifest.json"));
                assert_eq!(r["status"], "interrupted", "{r}");
            }),
        case(
            "SW-11",
            "bash",
            &[
                "-c",
                "mkdir -p o && mount -t tmpfs -o size=48k pftsim-full o || exit 77; \
                 \"$PFTSIM\" sweep s.toml --grid g.toml --out o --quiet --jobs 1; rc=$?; \
                 cp o/manifest.json m.json; umount o; rmdir o; exit $rc",
            ],
        )
        .env("PFTSIM", PFTSIM)
        .file("s.toml", S)
        .file("g.toml", G)
        .left(|d| {
            let m = manifest(&d.join("m.json"));
            assert_eq!(m["finished"], false, "{m}");
            assert_ne!(m["status"], "finished", "{m}");
        }),
        case("SW-12", p, &sweep("o"))
            .file("s.toml", pft_test_support::scenario::deadlocking(S))
            .file("g.toml", G)
            .left(|d| {
                let m = manifest(&d.join("o/manifest.json"));
                assert_eq!(m["status"], "failed", "{m}");
                assert_eq!(m["finished"], false, "{m}");
                let failed = m["failed_runs"].as_array().unwrap();
                assert!(
                    failed
                        .iter()
                        .any(|f| f.as_str().unwrap().starts_with("runs/p0000-s3 (task 0): ")),
                    "{m}"
                );
                assert!(!d.join("o/sweep.csv").exists());
            }),
        // scripts for a path with a space and a newline
        case(
            "SW-13",
            p,
            &[
                "sweep", "s.toml", "--grid", "g.toml", "--out", "o u\ntouch pwned", "--emit",
                "slurm", "--quiet",
            ],
        )
        .file("s.toml", S)
        .file("g.toml", G)
        .left(|d| {
            let o = d.join("o u\ntouch pwned");
            for s in ["sweep.sbatch", "submit.sh", "parallel.sh"] {
                let text = std::fs::read_to_string(o.join(s)).unwrap();
                assert!(!text.contains("touch pwned"), "{s} names the directory");
                let st = std::process::Command::new("bash")
                    .args(["-n", s])
                    .current_dir(&o)
                    .status()
                    .unwrap();
                assert!(st.success(), "bash -n {s}");
            }
            assert!(!d.join("pwned").exists());
        }),
        // grid validation: every message names the field, its index and the range
        case("SW-14", p, &sweep("o"))
            .file("s.toml", S)
            .file(
                "g.toml",
                "[[axis]]\nkey = \"pft.m\"\nvalues = [18]\n[[axis]]\nkey = \"pft.m\"\nvalues = [22]\n",
            ),
        case("SW-15", p, &sweep("o")).file("s.toml", S).file(
            "g.toml",
            "[[axis]]\nkeys = [\"pft.m\", \"pft.m\"]\nvalues = [[18, 22]]\n",
        ),
        case("SW-16", p, &sweep("o"))
            .file("s.toml", S)
            .file("g.toml", "[[axis]]\nkey = \"pft\"\nvalues = [1]\n"),
        case("SW-17", p, &sweep("o"))
            .file("s.toml", S)
            .file("g.toml", "[[axis]]\nkey = \"pft.m\"\nvalues = [18, 22, 18]\n"),
        case("SW-18", p, &sweep("o"))
            .file("s.toml", S)
            .file("g.toml", format!("seeds = [-1]\n{G}")),
        // above i64::MAX: TOML's own message, without the key or the range
        case("SW-44", p, &sweep("o"))
            .file("s.toml", S)
            .file("g.toml", format!("seeds = [1,\n  9223372036854775808]\n{G}")),
        // too many runs beside another grid error: it was told only once the other was fixed
        case("SW-45", p, &sweep("o")).file("s.toml", S).file("g.toml", {
            let vals: Vec<String> = (0..200).map(|i| i.to_string()).collect();
            let vals = vals.join(", ");
            format!(
                "seeds = [1, 2, 3]\n[[axis]]\nkey = \"pft.m\"\nvalues = [{vals}]\n\
                 [[axis]]\nkey = \"pft.n\"\nvalues = [{vals}]\n\
                 [[axis]]\nkey = \"pft.k\"\nvalues = [0]\nlabels = [\"a\", \"b\"]\n"
            )
        }),
        case("SW-19", p, &sweep("o")).file("s.toml", S).file(
            "g.toml",
            format!("{G}labels = [\"a\", \"b\\u001b[2J\"]\n"),
        ),
        case("SW-20", p, &sweep("o"))
            .file("s.toml", huge())
            .file("g.toml", G),
        case(
            "SW-21",
            p,
            &[
                "sweep", "s.toml", "--grid", "g.toml", "--out", "o", "--emit", "slurm",
                "--array-max", "0",
            ],
        )
        .also(&[
            "sweep", "s.toml", "--grid", "g.toml", "--out", "o", "--emit", "slurm", "--array-max",
            "-5",
        ])
        .file("s.toml", S)
        .file("g.toml", G),
        case(
            "SW-22",
            "bash",
            &[
                "-c",
                "\"$PFTSIM\" sweep s.toml --grid g.toml --out o --emit slurm --quiet >/dev/null \
                 && \"$PFTSIM\" run o/points/p0001-s3.toml --pft p --out o/runs/p0001-s3 --quiet >/dev/null \
                 && \"$PFTSIM\" sweep --collect --out o",
            ],
        )
        .env("PFTSIM", PFTSIM)
        .file("s.toml", S)
        .file("g.toml", G)
        .left(|d| {
            assert!(!d.join("o/sweep.csv").exists());
            let m = manifest(&d.join("o/manifest.json"));
            assert_eq!(m["status"], "finished", "an early --collect changed the manifest: {m}");
        }),
        case(
            "SW-23",
            "bash",
            &[
                "-c",
                "\"$PFTSIM\" run s.toml --out o --quiet >/dev/null && \"$PFTSIM\" run s.toml --out o --quiet --skip-finished",
            ],
        )
        .env("PFTSIM", PFTSIM)
        .file("s.toml", S)
        .left(|d| {
            assert!(!d.join("o/.previous-1700000000").exists());
            let aside = std::fs::read_dir(d.join("o"))
                .unwrap()
                .flatten()
                .filter(|e| e.file_name().to_string_lossy().starts_with(".previous-"))
                .count();
            assert_eq!(aside, 0, "the finished run was run again");
        }),
        case(
            "SW-24",
            p,
            &[
                "sweep", "s.toml", "--grid", "g.toml", "--out", "o", "--emit", "slurm", "--time",
                "3 hours",
            ],
        )
        .also(&[
            "sweep", "s.toml", "--grid", "g.toml", "--out", "o", "--emit", "slurm", "--mem",
            "2GB",
        ])
        .also(&[
            "sweep", "s.toml", "--grid", "g.toml", "--out", "o", "--emit", "slurm", "--time", "-1",
        ])
        .also(&[
            "sweep", "s.toml", "--grid", "g.toml", "--out", "o", "--emit", "slurm", "--mem", "-5G",
        ])
        .file("s.toml", S)
        .file("g.toml", G),
        case(
            "SW-25",
            "bash",
            &[
                "-c",
                "\"$PFTSIM\" sweep s.toml --grid g.toml --out o --emit parallel --quiet >/dev/null \
                 && \"$PFTSIM\" sweep s.toml --grid g1.toml --out o --resume --quiet",
            ],
        )
        .env("PFTSIM", PFTSIM)
        .file("s.toml", S)
        .file("g.toml", G)
        .file("g1.toml", G1)
        .left(|d| assert!(!d.join("o/runs").exists(), "a run was started")),
        case(
            "SW-26",
            p,
            &["sweep", "s.toml", "--grid", "g.toml", "--out", "o", "--time", "10"],
        )
        .file("s.toml", S)
        .file("g.toml", G),
        case("SW-27", "bash", &["-c", "mkdir o && mkfifo o/.pftsim.lock && timeout 20 \"$PFTSIM\" run s.toml --out o --quiet; rc=$?; rm o/.pftsim.lock; rmdir o; exit $rc"])
            .env("PFTSIM", PFTSIM)
            .file("s.toml", S),
        case(
            "SW-28",
            "bash",
            &[
                "-c",
                "\"$PFTSIM\" sweep s.toml --grid g.toml --out o --emit slurm --quiet >/dev/null && PFTSIM_ARRAY_MAX=0 bash o/submit.sh",
            ],
        )
        .also(&[
            "-c",
            "\"$PFTSIM\" sweep s.toml --grid g.toml --out o --emit slurm --quiet >/dev/null && PFTSIM_ARRAY_MAX=1000001 bash o/submit.sh",
        ])
        .env("PFTSIM", PFTSIM)
        .file("s.toml", S)
        .file("g.toml", G)
        .left(|d| assert!(!d.join("o/runs").exists())),
        case(
            "SW-29",
            "bash",
            &[
                "-c",
                "mkdir \"b'in\" && cp \"$PFTSIM\" \"b'in/pftsim\" && \"b'in/pftsim\" sweep s.toml --grid g.toml --out o --emit parallel --quiet",
            ],
        )
        .env("PFTSIM", PFTSIM)
        .file("s.toml", S)
        .file("g.toml", G)
        .left(|d| assert!(!d.join("o").exists(), "the directory was taken before the refusal")),
        // a finished sweep's run directory takes only its own job line
        into_sweep_run(
            "SW-30",
            "\"$PFTSIM\" sweep s.toml --grid g.toml --out o --quiet >/dev/null && \"$PFTSIM\" run other.toml --out o/runs/p0001-s3 --quiet",
            "\"$PFTSIM\" sweep s.toml --grid g.toml --out o --quiet >/dev/null && \"$PFTSIM\" run o/points/p0000-s3.toml --pft p --out o/runs/p0001-s3 --quiet",
        ),
        // the same through a symbolic link to the run directory, or to a directory above it
        into_sweep_run(
            "SW-32",
            "\"$PFTSIM\" sweep s.toml --grid g.toml --out o --quiet >/dev/null && ln -s o/runs/p0001-s3 l && \"$PFTSIM\" run other.toml --out l --quiet",
            "\"$PFTSIM\" sweep s.toml --grid g.toml --out o --quiet >/dev/null && ln -s o/runs r && \"$PFTSIM\" run other.toml --out r/p0001-s3 --quiet",
        ),
        // `..` after a link: the system goes up from where the link leads
        into_sweep_run(
            "SW-34",
            "\"$PFTSIM\" sweep s.toml --grid g.toml --out o --quiet >/dev/null && ln -s o/runs/g000-s3-off l && \"$PFTSIM\" run other.toml --out l/../p0001-s3 --quiet",
            "\"$PFTSIM\" sweep s.toml --grid g.toml --out o --quiet >/dev/null && mkdir d && ln -s ../o/runs/p0000-s3 d/l && \"$PFTSIM\" run other.toml --out d/l/../p0001-s3 --quiet",
        ),
        // a local sweep whose --out goes through a link: its own runs are its own
        case(
            "SW-33",
            "bash",
            &[
                "-c",
                "mkdir real && ln -s real lnk && \"$PFTSIM\" sweep s.toml --grid g.toml --out lnk/o --quiet --jobs 2",
            ],
        )
        .env("PFTSIM", PFTSIM)
        .file("s.toml", S)
        .file("g.toml", G)
        .left(|d| {
            let m = manifest(&d.join("real/o/manifest.json"));
            assert_eq!(m["finished"], true, "{m}");
            assert!(d.join("real/o/sweep.csv").is_file());
        }),
        // --collect on a damaged sweep: a point file gone (this said "internal error" after
        // marking the sweep failed), a summary that is a link or of the wrong shape (read
        // through the link; taken for an unfinished run)
        collect_damaged("SW-35", "rm o/points/p0000-s3.toml"),
        collect_damaged(
            "SW-36",
            "rm o/runs/p0000-s3/summary.json && ln -s ../g000-s3-off/summary.json o/runs/p0000-s3/summary.json",
        ),
        collect_damaged(
            "SW-37",
            "sed -i 's/\"finished\": true/\"finished\": \"yes\"/' o/runs/p0000-s3/summary.json",
        ),
        // a summary that is not JSON: listed with the runs to run again, and `--resume`
        // runs it again (it used to be taken for finished, so that `--resume` refused the
        // same summary and never ran it)
        collect_damaged("SW-38", "echo garbage > o/runs/p0000-s3/summary.json"),
        // another run's summary copied in (a plain file of a run's shape): it was collected
        // as this run's, its numbers in this run's row
        collect_damaged(
            "SW-46",
            "cp o/runs/g000-s3-off/summary.json o/runs/p0000-s3/summary.json",
        ),
        // and `--resume` runs it again, so the row is the run's own
        case(
            "SW-47",
            "bash",
            &[
                "-c",
                "\"$PFTSIM\" sweep s.toml --grid g.toml --out o --quiet >/dev/null && cp o/runs/p0000-s3/summary.json own.json && cp o/runs/g000-s3-off/summary.json o/runs/p0000-s3/summary.json && \"$PFTSIM\" sweep --resume --out o --quiet >/dev/null && \"$PFTSIM\" sweep --collect --out o",
            ],
        )
        .env("PFTSIM", PFTSIM)
        .file("s.toml", S)
        .file("g.toml", G)
        .left(|d| {
            let again = std::fs::read(d.join("o/runs/p0000-s3/summary.json")).unwrap();
            let off = std::fs::read(d.join("o/runs/g000-s3-off/summary.json")).unwrap();
            assert_ne!(again, off, "the copied summary was kept");
            // the same run made again: the same bytes but for its wall time
            let strip = |b: &[u8]| {
                String::from_utf8_lossy(b)
                    .lines()
                    .filter(|l| !l.contains("wall_seconds"))
                    .collect::<Vec<_>>()
                    .join("\n")
            };
            let own = std::fs::read(d.join("own.json")).unwrap();
            assert_eq!(strip(&again), strip(&own), "not the run's own summary");
        }),
        case(
            "SW-39",
            "bash",
            &[
                "-c",
                "\"$PFTSIM\" sweep s.toml --grid g.toml --out o --quiet >/dev/null && echo garbage > o/runs/p0000-s3/summary.json && \"$PFTSIM\" sweep s.toml --grid g.toml --out o --resume --quiet >/dev/null && \"$PFTSIM\" sweep --collect --out o",
            ],
        )
        .env("PFTSIM", PFTSIM)
        .file("s.toml", S)
        .file("g.toml", G)
        .left(|d| {
            let s = std::fs::read_to_string(d.join("o/runs/p0000-s3/summary.json")).unwrap();
            assert!(s.contains("\"finished\": true"), "not run again: {s}");
        }),
        // a plan edited to `points = []` and sealed again: `--resume` collected an empty
        // sweep.csv over the sweep's results, exit 0
        case(
            "SW-40",
            "bash",
            &[
                "-c",
                "\"$PFTSIM\" sweep s.toml --grid g.toml --out o --quiet >/dev/null && cp plan.json o/sweep.json && \"$PFTSIM\" sweep --resume --out o --quiet",
            ],
        )
        .env("PFTSIM", PFTSIM)
        .file("s.toml", S)
        .file("g.toml", G)
        .file("plan.json", plan_without_points())
        .left(sweep_kept),
        // a sweep directory named with non-ASCII letters: submit.sh cut the job name in
        // bytes, one `_` per byte, where sweep.sbatch has one per character
        case(
            "SW-43",
            "bash",
            &[
                "-c",
                "mkdir bin && printf '#!/bin/bash\\nfor a; do case $a in --job-name=*) echo \"sbatch $a\";; esac; done\\n' > bin/sbatch && chmod +x bin/sbatch && \"$PFTSIM\" sweep s.toml --grid g.toml --out \u{e9}t\u{e9}.x --emit slurm --quiet >/dev/null && grep -- --job-name \u{e9}t\u{e9}.x/sweep.sbatch && PATH=\"$PWD/bin:$PATH\" bash \u{e9}t\u{e9}.x/submit.sh",
            ],
        )
        .env("PFTSIM", PFTSIM)
        .file("s.toml", S)
        .file("g.toml", G)
        .left(|d| assert!(!d.join("\u{e9}t\u{e9}.x/runs").exists(), "a run started")),
        // a plan that is not a plain file is never opened (a FIFO would block the run)
        case(
            "SW-31",
            "bash",
            &[
                "-c",
                "\"$PFTSIM\" sweep s.toml --grid g.toml --out o --quiet >/dev/null && rm o/sweep.json && mkfifo o/sweep.json && timeout 120 \"$PFTSIM\" run o/points/p0001-s3.toml --pft p --out o/runs/p0001-s3 --quiet; rc=$?; rm o/sweep.json; exit $rc",
            ],
        )
        .env("PFTSIM", PFTSIM)
        .file("s.toml", S)
        .file("g.toml", G)
        .left(|d| {
            let m = std::fs::read_to_string(d.join("o/runs/p0001-s3/manifest.json")).unwrap();
            assert!(m.contains("\"finished\": true"), "the sweep's run was touched: {m}");
        }),
    ]
}

#[test]
fn catalogue_matches_cases() {
    catalogue!().matches_cases(&["SW"], cases().iter().map(|c| c.id));
}

#[test]
fn sweeps_and_result_directories() {
    let cat = catalogue!();
    for c in cases() {
        cat.run(&c);
    }
}
