//! `pftsim sweep` (docs/sweeps.md): a local sweep, the same plan run from its job list by
//! GNU parallel and by its Slurm array script (each task run as Slurm would: the script
//! with SLURM_ARRAY_TASK_ID set), then `--collect`: the three give the same sweep.csv byte
//! for byte. A point equal to a scenario entry has the F_C and CIF `pftsim compare` prints.

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

fn sh(script: &str, cwd: &Path, env: &[(&str, &str)]) {
    let o = Command::new("bash")
        .arg("-c")
        .arg(script)
        .current_dir(cwd)
        .envs(env.iter().copied())
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "{script}: {}\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
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

    // GNU parallel runs the job list; collect gathers it
    run("par", &["--emit", "parallel"]);
    assert!(!root.join("par/sweep.csv").exists(), "emit runs nothing");
    let err = Command::new(PFTSIM)
        .args(["sweep", "--collect", "--out", "par"])
        .current_dir(&root)
        .output()
        .unwrap();
    assert!(!err.status.success());
    let msg = String::from_utf8_lossy(&err.stderr);
    assert!(
        msg.contains("8 of 8 runs have no summary.json yet") && msg.contains("runs/p0000-s7"),
        "{msg}"
    );
    sh(
        "parallel --will-cite -j 2 < jobs.txt",
        &root.join("par"),
        &[("PFTSIM", PFTSIM)],
    );
    pftsim(&["sweep", "--collect", "--out", "par"], &root);
    let par = std::fs::read_to_string(root.join("par/sweep.csv")).unwrap();
    assert_eq!(par, local, "parallel vs local");

    // the Slurm array script, one task per line, run from elsewhere (it cds itself)
    run("slurm", &["--emit", "slurm"]);
    let script = root.join("slurm/sweep.sbatch");
    let text = std::fs::read_to_string(&script).unwrap();
    assert!(text.contains("#SBATCH --array=0-7"), "{text}");
    for i in 0..8 {
        sh(
            &format!("bash {}", script.display()),
            &std::env::temp_dir(),
            &[("PFTSIM", PFTSIM), ("SLURM_ARRAY_TASK_ID", &i.to_string())],
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
            "slurm",
        ],
        &root,
    );
    let slurm = std::fs::read_to_string(root.join("slurm/sweep.csv")).unwrap();
    assert_eq!(slurm, local, "slurm vs local");

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
        let a: f64 = hard[col(c)].parse().unwrap();
        let b: f64 = p0[scol(s)].parse().unwrap();
        assert!(
            (a - b).abs() <= 1e-9 * a.abs(),
            "{c}: compare {a}, sweep {b}"
        );
    }
    // a different plan written into the local sweep's directory: the runs left there are
    // of other scenarios, and collect refuses them instead of mixing them in
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
    let o = Command::new(PFTSIM)
        .args(["sweep", "--collect", "--out", "local"])
        .current_dir(&root)
        .output()
        .unwrap();
    let msg = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success());
    assert!(
        msg.contains("runs/p0001-s7 is not a finished run of points/p0001-s7.toml"),
        "{msg}"
    );
    let _ = std::fs::remove_dir_all(&root);
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
            "grid: `axis[0]`: key \"seed\": not a sweep axis",
        ),
        ("[[axes]]\n", "unknown field `axes`"),
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
/// scenario parses and validates (`--emit` runs nothing).
#[test]
fn the_shipped_grids_plan() {
    let root = tmp("grids");
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scenarios");
    let mut n = 0;
    for e in std::fs::read_dir(dir.join("grids")).unwrap() {
        let g = e.unwrap().path();
        // The grid's scenario is in its name: pipelined-*.toml sweep default.toml (the
        // pipelined build's cost, docs/network.md), the others paper.toml.
        let name = g.file_name().unwrap().to_string_lossy().into_owned();
        let scenario = if name.starts_with("pipelined-") {
            dir.join("default.toml")
        } else {
            dir.join("paper.toml")
        };
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
            ],
            &root,
        );
        assert!(text.contains("runs of"), "{}: {text}", g.display());
        assert!(root.join(&out).join("sweep.sbatch").is_file());
        n += 1;
    }
    assert!(n >= 3, "{n} grids");
    let _ = std::fs::remove_dir_all(&root);
}
