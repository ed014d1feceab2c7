//! `pftsim sweep` (docs/sweeps.md): a local sweep, the same plan run from its job list by
//! GNU parallel (without `PFTSIM` set: the job lines name the binary that wrote them) and
//! by its Slurm scripts (`submit.sh` under a stand-in `sbatch` that runs each array task as
//! slurmd would), then `--collect`: the three give the same sweep.csv byte for byte. The
//! Slurm sweep lives in a directory whose name holds a space and a newline, is moved before
//! it is submitted, and is split into arrays of `--array-max` tasks. A point equal to a
//! scenario entry has the F_C and CIF `pftsim compare` prints. Missing runs are listed with
//! their tasks, and resubmitted or resumed alone.

use std::path::{Path, PathBuf};
use std::process::Command;

const PFTSIM: &str = env!("CARGO_BIN_EXE_pftsim");
const SMOKE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../scenarios/smoke.toml");

/// 2 points (m = 0: the entry as written, m = 3) x 2 seeds (7 is the scenario's) on the
/// smoke scenario's `hard` entry (FT-FI, n = 2); one baseline group.
const GRID: &str = r#"
entry = "hard"
seeds = [7, 8]
[[axis]]
key = "pft.m"
values = [0, 3]
[[axis]]
key = "network.buffer_flits"
values = [256]
"#;

/// A stand-in for Slurm's `sbatch`: runs every task of the array in order, as slurmd
/// would (SLURM_JOB_ID, SLURM_ARRAY_TASK_ID, `--chdir`, `--output` with %A and %a, the
/// `--export` variables), and logs each call to `$FAKE_SBATCH_LOG`.
const FAKE_SBATCH: &str = r#"#!/bin/bash
set -euo pipefail
chdir=$PWD; out=slurm-%A_%a.out; array=""; exp=""; script=""; name=""
while [ $# -gt 0 ]; do
    case "$1" in
        --chdir=*) chdir=${1#--chdir=} ;;
        --output=*) out=${1#--output=} ;;
        --array=*) array=${1#--array=} ;;
        --export=*) exp=${1#--export=} ;;
        --job-name=*) name=${1#--job-name=} ;;
        --*) ;;
        *) script=$1 ;;
    esac
    shift
done
[ -n "$array" ] || array=$(sed -n 's/^#SBATCH --array=//p' "$script")
echo "--array=$array --export=$exp" >> "$FAKE_SBATCH_LOG"
echo "$name" >> "$FAKE_SBATCH_LOG.names"
job=$(( $(wc -l < "$FAKE_SBATCH_LOG") + 100 ))
tasks=()
for part in ${array//,/ }; do
    if [[ $part == *-* ]]; then
        for ((t = ${part%-*}; t <= ${part#*-}; t++)); do tasks+=("$t"); done
    else
        tasks+=("$part")
    fi
done
for t in "${tasks[@]}"; do
    log=${out//%A/$job}; log=${log//%a/$t}
    ( cd "$chdir"
      vars=()
      IFS=, read -ra kv <<< "$exp"
      for x in "${kv[@]}"; do [ "$x" = ALL ] || vars+=("$x"); done
      env "${vars[@]}" SLURM_JOB_ID=$job SLURM_ARRAY_TASK_ID=$t bash "$script" > "$log" 2>&1 )
done
echo "Submitted batch job $job"
"#;

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("pftsim-sweep-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn pftsim(args: &[&str], cwd: &Path) -> String {
    let o = Command::new(PFTSIM)
        .args(args)
        .current_dir(cwd)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "pftsim {args:?}: {}\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap()
}

/// Runs `pftsim args` expecting a failure; returns stderr.
fn pftsim_fails(args: &[&str], cwd: &Path) -> String {
    let o = Command::new(PFTSIM)
        .args(args)
        .current_dir(cwd)
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(1),
        "pftsim {args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Runs a bash script with a PATH that has no pftsim (and the stand-in sbatch first).
fn sh(script: &str, cwd: &Path, env: &[(&str, &str)]) -> String {
    let o = Command::new("bash")
        .arg("-c")
        .arg(script)
        .current_dir(cwd)
        .env_remove("PFTSIM")
        .envs(env.iter().copied())
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "{script}: {}\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn manifest(dir: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("manifest.json")).unwrap()).unwrap()
}

fn fake_sbatch(root: &Path) -> (String, PathBuf) {
    let bin = root.join("fakebin");
    std::fs::create_dir_all(&bin).unwrap();
    let sb = bin.join("sbatch");
    std::fs::write(&sb, FAKE_SBATCH).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&sb, std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
    (path, root.join("sbatch.log"))
}

#[test]
fn local_parallel_and_slurm_sweeps_collect_the_same_csv() {
    let root = tmp("three");
    std::fs::write(root.join("grid.toml"), GRID).unwrap();
    let run = |dir: &str, extra: &[&str]| {
        let mut a = vec![
            "sweep",
            SMOKE,
            "--grid",
            "grid.toml",
            "--out",
            dir,
            "--quiet",
        ];
        a.extend(extra);
        pftsim(&a, &root)
    };
    let out = run("local", &["--jobs", "2"]);
    assert!(out.contains("p0001"), "{out}");
    let local = std::fs::read_to_string(root.join("local/sweep.csv")).unwrap();
    let lines: Vec<&str> = local.lines().collect();
    assert_eq!(lines.len(), 1 + 2 * 2, "{local}");
    assert!(lines[0].starts_with(
        "point,seed,pft.m,network.buffer_flits,f_c,f_c_bw,f_c_lat,cif_lat,cif_bw,cong_pct,thr_pct"
    ));
    assert!(lines[1].starts_with("p0000,7,0,256,"), "{}", lines[1]);
    // 2 points x 2 seeds, plus off and isolated per seed for the one baseline group
    let jobs = std::fs::read_to_string(root.join("local/jobs.txt")).unwrap();
    assert_eq!(jobs.lines().count(), 4 + 2 * 2);
    assert!(root.join("local/fc_heatmap.svg").is_file());
    // The placement study: every point paired with the `off` run of every seed.
    let pl = std::fs::read_to_string(root.join("local/placement.csv")).unwrap();
    let pl: Vec<Vec<&str>> = pl.lines().map(|l| l.split(',').collect()).collect();
    assert_eq!(
        pl[0].join(","),
        "point,pft.m,network.buffer_flits,seed_on,seed_off,same_placement,f_c,f_c_off"
    );
    assert_eq!(pl.len(), 1 + 2 * 2 * 2);
    let col = |row: &str, name: &str| -> f64 {
        let h: Vec<&str> = lines[0].split(',').collect();
        let r: Vec<&str> = row.split(',').collect();
        r[h.iter().position(|x| *x == name).unwrap()]
            .parse()
            .unwrap()
    };
    for r in &pl[1..] {
        let (on, off) = (r[3], r[4]);
        let find = |seed: &str| {
            *lines
                .iter()
                .find(|l| l.starts_with(&format!("{},{seed},", r[0])))
                .unwrap()
        };
        let (a, b) = (find(on), find(off));
        let want = col(a, "bw_mean") / col(b, "bw_off") * (col(b, "lat_off") / col(a, "lat_mean"));
        let got: f64 = r[6].parse().unwrap();
        assert!((got - want).abs() < 1e-9 * want, "{r:?}: {got} != {want}");
        if on == off {
            assert_eq!(r[5], "true");
            assert!((got - col(a, "f_c")).abs() < 1e-9 * got);
            assert_eq!(r[7], "1");
        } else {
            assert_eq!(r[5], "false");
            let off_off =
                col(a, "bw_off") / col(b, "bw_off") * (col(b, "lat_off") / col(a, "lat_off"));
            let got: f64 = r[7].parse().unwrap();
            assert!((got - off_off).abs() < 1e-9 * off_off);
        }
    }
    assert!(root.join("local/placement.svg").is_file());
    let m = manifest(&root.join("local"));
    assert_eq!(m["status"], "finished");
    for f in [
        "sweep.csv",
        "fc_heatmap.svg",
        "jobs.txt",
        "sweep.json",
        "placement.csv",
        "placement.svg",
    ] {
        assert!(
            m["files"].as_array().unwrap().iter().any(|x| x == f),
            "{f} not in the manifest: {m}"
        );
    }
    assert_eq!(m["dirs"].as_array().unwrap().len(), 8);

    // GNU parallel runs the job list with no PFTSIM and no pftsim on PATH
    run("par", &["--emit", "parallel"]);
    assert!(!root.join("par/sweep.csv").exists(), "emit runs nothing");
    let msg = pftsim_fails(&["sweep", "--collect", "--out", "par"], &root);
    assert!(
        msg.contains("8 of 8 runs are missing or did not finish")
            && msg.contains("runs/p0000-s7 (task 0): not run")
            && msg.contains("runs/g000-s8-isolated (task 7): not run")
            && msg.contains("parallel.sh (finished runs are skipped)")
            && !msg.contains("submit.sh"),
        "{msg}"
    );
    assert_eq!(
        manifest(&root.join("par"))["status"],
        "finished",
        "an early --collect changes nothing"
    );
    sh(
        "parallel --will-cite -j 2 < jobs.txt",
        &root.join("par"),
        &[],
    );
    // run again: every line finds its run finished and does nothing
    let again = sh("bash parallel.sh 2", &root.join("par"), &[]);
    assert!(again.is_empty() || !again.contains("accepted"), "{again}");
    let log = std::fs::read_to_string(root.join("par/logs/parallel.log")).unwrap();
    assert_eq!(log.lines().count(), 1 + 8, "{log}");
    // a second call appends its lines: the first call's stay
    sh("bash parallel.sh 2", &root.join("par"), &[]);
    let log2 = std::fs::read_to_string(root.join("par/logs/parallel.log")).unwrap();
    assert!(
        log2.starts_with(&log),
        "the first call's job log was replaced:\n{log2}"
    );
    assert_eq!(log2.lines().count(), 1 + 8 + 8, "{log2}");
    pftsim(&["sweep", "--collect", "--out", "par"], &root);
    let par = std::fs::read_to_string(root.join("par/sweep.csv")).unwrap();
    assert_eq!(par, local, "parallel vs local");

    // Slurm: a directory name with a space and a newline (and a would-be command), moved
    // after it was written, submitted from elsewhere in arrays of at most 3 tasks
    let weird = "sl urm\ntouch pwned";
    run(weird, &["--emit", "slurm", "--array-max", "3"]);
    let moved = root.join("moved here");
    std::fs::create_dir_all(&moved).unwrap();
    let sd = moved.join(weird);
    std::fs::rename(root.join(weird), &sd).unwrap();
    let text = std::fs::read_to_string(sd.join("sweep.sbatch")).unwrap();
    for want in [
        "#SBATCH --array=0-2\n",
        "#SBATCH --job-name=pftsim-sl_urm_touch_pwned\n",
        "#SBATCH --output=logs/slurm-%A_%a.out\n",
    ] {
        assert!(text.contains(want), "{want:?} not in:\n{text}");
    }
    assert!(text.contains("#SBATCH --time=") && text.contains("#SBATCH --mem="));
    assert!(
        !text.contains(weird),
        "the directory's name is in the script"
    );
    for s in ["sweep.sbatch", "submit.sh", "parallel.sh"] {
        sh(&format!("bash -n '{s}'"), &sd, &[]);
    }
    let (path, log) = fake_sbatch(&root);
    let env = [
        ("PATH", path.as_str()),
        ("FAKE_SBATCH_LOG", log.to_str().unwrap()),
    ];
    sh(
        &format!("bash {}/submit.sh", shell_quote(sd.to_str().unwrap())),
        &std::env::temp_dir(),
        &env,
    );
    let calls = std::fs::read_to_string(&log).unwrap();
    assert_eq!(
        calls,
        "--array=0-2 --export=ALL,PFTSIM_OFFSET=0\n--array=0-2 --export=ALL,PFTSIM_OFFSET=3\n--array=0-1 --export=ALL,PFTSIM_OFFSET=6\n"
    );
    assert_eq!(std::fs::read_dir(sd.join("logs")).unwrap().count(), 8);
    // the job is named after the sweep directory, in characters squeue shows as they are
    let names = std::fs::read_to_string(format!("{}.names", log.display())).unwrap();
    assert_eq!(names, "pftsim-sl_urm_touch_pwned\n".repeat(3));
    for e in walk(&root) {
        assert!(
            !e.ends_with("pwned"),
            "a line of the path ran as a command: {e:?}"
        );
    }
    pftsim(
        &[
            "sweep",
            SMOKE,
            "--grid",
            "grid.toml",
            "--collect",
            "--out",
            sd.to_str().unwrap(),
        ],
        &root,
    );
    let slurm = std::fs::read_to_string(sd.join("sweep.csv")).unwrap();
    assert_eq!(slurm, local, "slurm vs local");

    // two runs lost: --collect names both with their tasks; submit.sh --tasks runs them alone
    std::fs::remove_dir_all(sd.join("runs/p0001-s8")).unwrap();
    std::fs::remove_dir_all(sd.join("runs/g000-s8-off")).unwrap();
    let msg = pftsim_fails(
        &["sweep", "--collect", "--out", sd.to_str().unwrap()],
        &root,
    );
    assert!(
        msg.contains("2 of 8 runs")
            && msg.contains("runs/p0001-s8 (task 3): not run")
            && msg.contains("runs/g000-s8-off (task 6): not run")
            && msg.contains("submit.sh --tasks 3,6"),
        "{msg}"
    );
    std::fs::write(&log, "").unwrap();
    sh(
        &format!(
            "bash {}/submit.sh --tasks 3,6",
            shell_quote(sd.to_str().unwrap())
        ),
        &root,
        &env,
    );
    assert_eq!(
        std::fs::read_to_string(&log).unwrap(),
        "--array=0 --export=ALL,PFTSIM_OFFSET=3\n--array=0 --export=ALL,PFTSIM_OFFSET=6\n"
    );
    // the same as --tasks=LIST, and after an sbatch option (issue 36: both used to submit
    // every task)
    std::fs::write(&log, "").unwrap();
    sh(
        &format!(
            "bash {}/submit.sh --partition=debug --tasks=3,6",
            shell_quote(sd.to_str().unwrap())
        ),
        &root,
        &env,
    );
    assert_eq!(
        std::fs::read_to_string(&log).unwrap(),
        "--array=0 --export=ALL,PFTSIM_OFFSET=3\n--array=0 --export=ALL,PFTSIM_OFFSET=6\n"
    );
    pftsim(
        &["sweep", "--collect", "--out", sd.to_str().unwrap()],
        &root,
    );
    assert_eq!(
        std::fs::read_to_string(sd.join("sweep.csv")).unwrap(),
        local
    );

    // --resume runs only what is missing, and its estimate prices only that: nothing, then
    // one run of the eight (each of the same size: an eighth of the node-cycles of the
    // whole sweep, which `--emit` prices)
    let estimate = |args: &[&str]| {
        let o = Command::new(PFTSIM)
            .args(args)
            .current_dir(&root)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        assert!(o.status.success(), "{args:?}: {err}");
        let line = err
            .lines()
            .find(|l| l.starts_with("estimate: "))
            .unwrap_or_else(|| panic!("{args:?}: no estimate in {err}"))
            .to_string();
        let nc = line
            .split(", ")
            .nth(1)
            .and_then(|f| f.split(' ').next())
            .and_then(|x| x.parse::<f64>().ok());
        (line, nc)
    };
    let (line, _) = estimate(&["sweep", "--resume", "--out", "local"]);
    assert_eq!(line, "estimate: no run left to run (8 finished)");
    let (line, whole) = estimate(&[
        "sweep",
        SMOKE,
        "--grid",
        "grid.toml",
        "--out",
        "emitted",
        "--emit",
        "parallel",
    ]);
    assert!(line.starts_with("estimate: 8 run(s), "), "{line}");
    let kept = std::fs::read_to_string(root.join("local/runs/p0000-s7/manifest.json")).unwrap();
    std::fs::remove_dir_all(root.join("local/runs/p0001-s7")).unwrap();
    let (line, one) = estimate(&["sweep", "--resume", "--out", "local"]);
    assert!(
        line.starts_with("estimate: 1 run(s), ")
            && line.ends_with("(7 finished run(s) not counted)"),
        "{line}"
    );
    let (one, whole) = (one.unwrap(), whole.unwrap());
    assert!(
        (8.0 * one - whole).abs() <= 0.01 * whole,
        "{line}: 8 x {one} != {whole}"
    );
    assert_eq!(
        std::fs::read_to_string(root.join("local/runs/p0000-s7/manifest.json")).unwrap(),
        kept,
        "a finished run was run again"
    );
    assert_eq!(
        std::fs::read_to_string(root.join("local/sweep.csv")).unwrap(),
        local
    );

    // point p0000 seed 7 is smoke's `hard` entry as written: compare's F_C and CIF
    pftsim(&["compare", SMOKE, "--out", "cmp", "--quiet"], &root);
    let cmp = std::fs::read_to_string(root.join("cmp/compare.csv")).unwrap();
    let mut rdr = csv::Reader::from_reader(cmp.as_bytes());
    let h = rdr.headers().unwrap().clone();
    let col = |name: &str| h.iter().position(|c| c == name).unwrap();
    let hard = rdr
        .records()
        .map(|r| r.unwrap())
        .find(|r| &r[col("config")] == "hard")
        .unwrap();
    let mut srd = csv::Reader::from_reader(local.as_bytes());
    let sh_ = srd.headers().unwrap().clone();
    let scol = |name: &str| sh_.iter().position(|c| c == name).unwrap();
    let p0 = srd.records().next().unwrap().unwrap();
    for (c, s) in [
        ("f_c", "f_c"),
        ("cif_lat_avg", "cif_lat"),
        ("cif_bw_avg", "cif_bw"),
    ] {
        // the same numbers, to the last digit (the sweep's F_C was the product of its
        // parts, which rounds differently in about a third of the rows)
        assert_eq!(hard[col(c)], p0[scol(s)], "{c}: compare, sweep");
    }
    // a different plan written into the local sweep's directory: the earlier sweep's
    // results (CSV, plots, runs) are moved aside, not left beside the new plan
    std::fs::write(root.join("grid2.toml"), GRID.replace("[0, 3]", "[0, 4]")).unwrap();
    pftsim(
        &[
            "sweep",
            SMOKE,
            "--grid",
            "grid2.toml",
            "--out",
            "local",
            "--quiet",
            "--emit",
            "parallel",
        ],
        &root,
    );
    for gone in ["sweep.csv", "fc_heatmap.svg", "runs"] {
        assert!(
            !root.join("local").join(gone).exists(),
            "{gone} left beside the new plan"
        );
    }
    let msg = pftsim_fails(&["sweep", "--collect", "--out", "local"], &root);
    assert!(msg.contains("8 of 8 runs"), "{msg}");
    let _ = std::fs::remove_dir_all(&root);
}

fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', "'\\''"))
}

/// Every path under `d` (links not followed).
fn walk(d: &Path) -> Vec<PathBuf> {
    let mut v = Vec::new();
    if let Ok(rd) = std::fs::read_dir(d) {
        for e in rd.flatten() {
            let p = e.path();
            if e.file_type().is_ok_and(|t| t.is_dir()) {
                v.extend(walk(&p));
            }
            v.push(p);
        }
    }
    v
}

#[test]
fn a_bad_grid_is_refused_before_anything_runs() {
    let root = tmp("bad");
    for (grid, want) in [
        (
            "[[axis]]\nkey = \"pft.m\"\nvalues = [2, 40]\n",
            "grid point p0001 (pft.m = 40), seed 7: invalid value(s):\n  `pft[0].m` = 40: must be in 0..=31",
        ),
        (
            "entry = \"nope\"\n",
            "grid: entry \"nope\": must name a [[pft]] or [[cc]] entry of the scenario (\"paper\", \"hard\")",
        ),
        (
            "[[axis]]\nkey = \"seed\"\nvalues = [1]\n",
            "grid: `axis[0]`.key = \"seed\": not a sweep axis",
        ),
        ("[[axes]]\n", "unknown field `axes`"),
        // the entry and the axes are checked in one pass: both problems at once
        (
            "entry = \"nope\"\n[[axis]]\nkey = \"seed\"\nvalues = [1]\n",
            "grid: entry \"nope\": must name a [[pft]] or [[cc]] entry of the scenario (\"paper\", \"hard\")\ngrid: `axis[0]`.key = \"seed\": not a sweep axis",
        ),
    ] {
        std::fs::write(root.join("g.toml"), grid).unwrap();
        let o = Command::new(PFTSIM)
            .args(["sweep", SMOKE, "--grid", "g.toml", "--out", "o"])
            .current_dir(&root)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{grid}: {err}");
        assert!(err.contains(want), "{grid}:\n{err}");
        assert!(!root.join("o").exists(), "{grid}: nothing may be written");
    }
    let _ = std::fs::remove_dir_all(&root);
}

/// The shipped grids (scenarios/grids/, over scenarios/paper.toml) plan: every point
/// scenario parses and validates (`--emit` runs nothing), and the scripts are valid bash.
#[test]
fn the_shipped_grids_plan() {
    let root = tmp("grids");
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scenarios");
    let mut n = 0;
    for e in std::fs::read_dir(dir.join("grids")).unwrap() {
        let g = e.unwrap().path();
        // The grid's scenario is the one its usage line names (`pftsim sweep
        // scenarios/NAME.toml --grid ...`); every shipped grid has one.
        let text = std::fs::read_to_string(&g).unwrap();
        let scenario = text
            .lines()
            .find_map(|l| {
                let rest = l.split("pftsim sweep scenarios/").nth(1)?;
                Some(dir.join(rest.split_whitespace().next()?))
            })
            .unwrap_or_else(|| panic!("{}: no `pftsim sweep scenarios/...` line", g.display()));
        let out = format!("o{n}");
        let text = pftsim(
            &[
                "sweep",
                scenario.to_str().unwrap(),
                "--grid",
                g.to_str().unwrap(),
                "--out",
                &out,
                "--emit",
                "slurm",
                "--quiet",
            ],
            &root,
        );
        assert!(text.contains("runs of"), "{}: {text}", g.display());
        for s in ["sweep.sbatch", "submit.sh", "parallel.sh"] {
            sh(&format!("bash -n {s}"), &root.join(&out), &[]);
        }
        n += 1;
    }
    assert!(n >= 3, "{n} grids");
    let _ = std::fs::remove_dir_all(&root);
}

/// The study (`make study`, tb/study/run.sh): with `EMIT=parallel` it plans one sweep per
/// fabric of scenarios/study/ without running anything: every fabric checks without a
/// warning, every point scenario validates, and each plan has a run per motif, entry and
/// seed plus an `off` and an `isolated` run per motif and seed. An existing output
/// directory is refused.
#[test]
fn the_study_plans_every_fabric() {
    let root = tmp("study");
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let out = root.join("study");
    let script = repo.join("tb/study/run.sh");
    let run = |extra: &[(&str, &str)]| {
        Command::new("bash")
            .arg(&script)
            .arg(&out)
            .env("PFTSIM", PFTSIM)
            .env("EMIT", "parallel")
            .envs(extra.iter().copied())
            .output()
            .unwrap()
    };
    let o = run(&[]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    // no warning
    let unexpected: Vec<&str> = (err.lines()).filter(|l| l.contains("warning")).collect();
    assert!(unexpected.is_empty(), "{err}");
    let motifs = std::fs::read_to_string(repo.join("scenarios/study/motifs.toml")).unwrap();
    let motifs: toml::Table = toml::from_str(&motifs).unwrap();
    let n_motifs = motifs["axis"][0]["values"].as_array().unwrap().len();
    let n_seeds = motifs["seeds"].as_array().unwrap().len();
    assert!(n_motifs >= 8 && n_seeds >= 3);
    for f in ["fat_tree", "torus", "butterfly", "dragonfly"] {
        let sc = std::fs::read_to_string(repo.join(format!("scenarios/study/{f}.toml"))).unwrap();
        let sc: toml::Table = toml::from_str(&sc).unwrap();
        let entries = sc["cc"].as_array().unwrap().len();
        let jobs = std::fs::read_to_string(out.join(f).join("jobs.txt")).unwrap();
        assert_eq!(
            jobs.lines().count(),
            n_motifs * n_seeds * (entries + 2),
            "{f}: {entries} entries"
        );
        assert!(out.join(f).join("parallel.sh").exists());
    }
    let o = run(&[("FABRICS", "torus")]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("exists"));
    let _ = std::fs::remove_dir_all(&root);
}

/// A scenario's relative input file (here a `file` topology) is found by every point of a
/// sweep, whatever the current directory, and a run that read it is not "finished" for a
/// changed file (`run --skip-finished`).
#[test]
fn a_sweeps_points_find_the_scenarios_topology_file() {
    let root = tmp("inputs");
    let net = root.join("net");
    std::fs::create_dir_all(&net).unwrap();
    let triangle = "router 0 node 0 node 1 router 1 router 2\nrouter 1 node 2 node 3 router 2\nrouter 2 node 4 node 5\n";
    std::fs::write(net.join("t.net"), triangle).unwrap();
    std::fs::write(
        net.join("s.toml"),
        concat!(
            "name = \"inputs\"\nseed = 1\n[cycles]\nmax = 600\nwarmup = 100\n",
            "[network]\ntopology = { kind = \"file\", path = \"t.net\" }\n",
            "[workload]\nkind = \"uniform\"\nload = 0.3\nmsg_bytes = 512\n",
            "[[pft]]\nname = \"paper\"\n",
        ),
    )
    .unwrap();
    std::fs::write(
        root.join("g.toml"),
        "[[axis]]\nkey = \"pft.m\"\nvalues = [16, 18]\n",
    )
    .unwrap();
    let grid = root.join("g.toml");
    let grid = grid.to_str().unwrap();
    // from the scenario's directory, and from elsewhere
    pftsim(
        &[
            "sweep", "s.toml", "--grid", grid, "--out", "../o1", "--quiet",
        ],
        &net,
    );
    let o2 = root.join("o2");
    pftsim(
        &[
            "sweep",
            "net/s.toml",
            "--grid",
            grid,
            "--out",
            "o2",
            "--quiet",
        ],
        &root,
    );
    let point = std::fs::read_to_string(o2.join("points/p0000-s1.toml")).unwrap();
    let abs = std::fs::canonicalize(net.join("t.net")).unwrap();
    assert!(
        point.contains(&format!("{:?}", abs.display().to_string())),
        "{point}"
    );
    assert!(root.join("o1/sweep.csv").is_file() && o2.join("sweep.csv").is_file());
    // run --skip-finished: the same file skips, a changed one runs again
    let run = |cwd: &Path| {
        pftsim(
            &[
                "run",
                "s.toml",
                "--out",
                "../r",
                "--skip-finished",
                "--quiet",
            ],
            cwd,
        )
    };
    run(&net);
    assert!(run(&net).contains("nothing to do"));
    std::fs::write(
        net.join("t.net"),
        format!("{triangle}router 2 router 0 7\n"),
    )
    .unwrap();
    assert!(!run(&net).contains("nothing to do"));
    let _ = std::fs::remove_dir_all(&root);
}

/// `--array-max`, `--time` and `--mem` with `--emit parallel` change nothing there: the sweep
/// says so (and not with `--emit slurm`, which uses them).
#[test]
fn slurm_flags_with_emit_parallel_are_noted() {
    let root = tmp("slurm-flags-noted");
    std::fs::write(root.join("grid.toml"), GRID).unwrap();
    let note = "--array-max, --time and --mem are for the Slurm script";
    for (emit, out, noted) in [("parallel", "p", true), ("slurm", "s", false)] {
        let o = Command::new(PFTSIM)
            .args([
                "sweep",
                SMOKE,
                "--grid",
                "grid.toml",
                "--out",
                out,
                "--quiet",
            ])
            .args(["--emit", emit, "--array-max", "3", "--mem", "1G"])
            .current_dir(&root)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(o.status.success(), "--emit {emit}: {err}");
        assert_eq!(err.contains(note), noted, "--emit {emit}: {err}");
    }
    let _ = std::fs::remove_dir_all(&root);
}

/// `sweep --help` states `--array-max`'s default as the code has it (the flag is an
/// Option, so clap does not print the default itself).
#[test]
fn array_max_help_names_the_default() {
    let o = Command::new(PFTSIM)
        .args(["sweep", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&o.stdout);
    let want = format!("[default: {}]", pft_sim::scenario::sweep::ARRAY_MAX);
    let at = help.find("--array-max").expect("--array-max in the help");
    let next = help[at + 2..]
        .find("\n  -")
        .map_or(help.len(), |i| at + 2 + i);
    assert!(help[at..next].contains(&want), "{}", &help[at..next]);
}

/// A hot-spot scenario's isolated run gives `compare` no CIF (GPCNeT's measure): the sweep's
/// `cif_lat` and `cif_bw` are empty too (they were ratios of the victims' numbers).
#[test]
fn a_hot_spot_sweep_has_no_cif() {
    let root = tmp("hotspot-cif");
    let sc = pft_test_support::scenario::TINY_HOTSPOT
        .replace("seed = 3\n", "seed = 3\nisolated = true\n");
    std::fs::write(root.join("s.toml"), sc).unwrap();
    std::fs::write(
        root.join("g.toml"),
        pft_test_support::scenario::GRID_M_18_22,
    )
    .unwrap();
    pftsim(
        &[
            "sweep", "s.toml", "--grid", "g.toml", "--out", "sw", "--quiet",
        ],
        &root,
    );
    let text = std::fs::read_to_string(root.join("sw/sweep.csv")).unwrap();
    let mut rd = csv::Reader::from_reader(text.as_bytes());
    let h = rd.headers().unwrap().clone();
    let col = |n: &str| h.iter().position(|c| c == n).unwrap();
    let mut rows = 0;
    for r in rd.records() {
        let r = r.unwrap();
        rows += 1;
        assert!(!r[col("f_c")].is_empty(), "no F_C: {text}");
        assert_eq!(&r[col("cif_lat")], "", "{text}");
        assert_eq!(&r[col("cif_bw")], "", "{text}");
    }
    assert_eq!(rows, 2, "{text}");
    let _ = std::fs::remove_dir_all(&root);
}

/// The distribution plots draw at most 16 lines (docs/sweeps.md): with 17 baseline groups
/// (one per buffer size) they drew all 17 `off` lines and a point.
#[test]
fn a_distribution_plot_draws_at_most_16_lines() {
    let root = tmp("lines");
    std::fs::write(
        root.join("s.toml"),
        pft_test_support::scenario::TINY_HOTSPOT,
    )
    .unwrap();
    let values: Vec<String> = (0..17).map(|i| (64 + 8 * i).to_string()).collect();
    std::fs::write(
        root.join("g.toml"),
        format!(
            "[[axis]]\nkey = \"network.buffer_flits\"\nvalues = [{}]\n",
            values.join(", ")
        ),
    )
    .unwrap();
    pftsim(
        &[
            "sweep", "s.toml", "--grid", "g.toml", "--out", "sw", "--quiet",
        ],
        &root,
    );
    for f in ["latency_distribution.svg", "bandwidth_distribution.svg"] {
        let svg = std::fs::read_to_string(root.join("sw").join(f)).unwrap();
        let baselines = (0..17)
            .filter(|g| svg.contains(&format!("off (g{g:03})")))
            .count();
        let points = (0..17)
            .filter(|p| svg.contains(&format!("p{p:04} ")))
            .count();
        assert!(points >= 1, "{f}: no point drawn");
        assert!(
            baselines + points <= 16,
            "{f}: {baselines} baselines and {points} points"
        );
        assert!(
            svg.contains("of 17)"),
            "{f}: the title does not say what was cut"
        );
    }
    let _ = std::fs::remove_dir_all(&root);
}
