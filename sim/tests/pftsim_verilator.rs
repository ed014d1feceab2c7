//! `pftsim compare --engine verilator` (the exported Verilog at every NIC) gives the same
//! table as the reference model on the smoke scenario: every column of compare.csv but the
//! wall time. Needs `synth/out/pft_injector.v` (`make verilog`, which `make test` runs
//! first) and Verilator. Without the Verilog, the error names `make verilog`. The same for
//! an entry with `pipelined = true`, which runs `synth/out/pft_injector_pipelined.v`
//! (`make verilog-pipelined`, which `make test` also runs first).

use std::path::PathBuf;
use std::process::Command;

const PFTSIM: &str = env!("CARGO_BIN_EXE_pftsim");
const SMOKE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../scenarios/smoke.toml");

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("pftsim-verilator-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// compare.csv without its wall_seconds column.
fn table(dir: &std::path::Path) -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(dir.join("compare.csv")).unwrap();
    let mut rdr = csv::Reader::from_reader(text.as_bytes());
    let h = rdr.headers().unwrap().clone();
    let wall = h.iter().position(|c| c == "wall_seconds").unwrap();
    let mut rows = vec![h
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != wall)
        .map(|(_, c)| c.to_string())
        .collect()];
    for r in rdr.records() {
        let r = r.unwrap();
        rows.push(
            r.iter()
                .enumerate()
                .filter(|&(i, _)| i != wall)
                .map(|(_, c)| c.to_string())
                .collect(),
        );
    }
    rows
}

/// `smoke.toml` with its `hard` entry pipelined, written into `d`.
fn smoke_pipelined(d: &std::path::Path) -> PathBuf {
    let text = std::fs::read_to_string(SMOKE)
        .unwrap()
        .replace("name = \"hard\"", "name = \"hard\"\npipelined = true");
    assert!(text.contains("pipelined = true"));
    let f = d.join("smoke-pipelined.toml");
    std::fs::write(&f, text).unwrap();
    f
}

#[test]
fn the_verilog_engine_gives_the_models_table() {
    let d = tmp("table");
    same_tables(&d, SMOKE);
    // the summaries say which engine ran
    let s = std::fs::read_to_string(d.join("v/hard/summary.json")).unwrap();
    assert!(s.contains(r#""engine": "verilator""#), "{s}");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn the_pipelined_verilog_engine_gives_the_models_table() {
    let d = tmp("table-pipelined");
    let sc = smoke_pipelined(&d);
    same_tables(&d, sc.to_str().unwrap());
    let s = std::fs::read_to_string(d.join("v/hard/summary.json")).unwrap();
    assert!(s.contains("pipelined"), "{s}");
    let _ = std::fs::remove_dir_all(&d);
}

/// `compare` of `scenario` with the model into `d/m` and with Verilator into `d/v` gives
/// the same table.
fn same_tables(d: &std::path::Path, scenario: &str) {
    for (engine, out) in [("model", "m"), ("verilator", "v")] {
        let o = Command::new(PFTSIM)
            .args([
                "compare", scenario, "--out", out, "--quiet", "--engine", engine,
            ])
            .current_dir(d)
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "{engine}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
    let (m, v) = (table(&d.join("m")), table(&d.join("v")));
    assert_eq!(m.len(), 5, "isolated, off, paper, hard: {m:?}");
    assert_eq!(m, v);
}

#[test]
fn without_the_verilog_the_error_names_make_verilog() {
    let d = tmp("missing");
    let o = Command::new(PFTSIM)
        .args([
            "run",
            SMOKE,
            "--out",
            "o",
            "--quiet",
            "--engine",
            "verilator",
        ])
        .env("PFT_VERILOG", d.join("missing.v"))
        .current_dir(&d)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("run `make verilog`"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn without_the_pipelined_verilog_the_error_names_make_verilog_pipelined() {
    let d = tmp("missing-pipelined");
    let sc = smoke_pipelined(&d);
    for args in [&["run", "--pft", "hard"][..], &["compare"][..]] {
        let o = Command::new(PFTSIM)
            .args(&args[..1])
            .arg(&sc)
            .args(&args[1..])
            .args(["--out", "o", "--quiet", "--engine", "verilator"])
            .env("PFT_VERILOG_PIPELINED", d.join("missing.v"))
            .current_dir(&d)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {err}");
        assert!(
            err.contains("run `make verilog-pipelined`"),
            "{args:?}: {err}"
        );
        assert!(err.contains("missing.v"), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(
            !d.join("o").exists(),
            "{args:?}: an output directory was made"
        );
    }
    // the default-build entry does not need the pipelined Verilog
    let o = Command::new(PFTSIM)
        .arg("run")
        .arg(&sc)
        .args([
            "--pft",
            "paper",
            "--out",
            "o",
            "--quiet",
            "--engine",
            "verilator",
        ])
        .env("PFT_VERILOG_PIPELINED", d.join("missing.v"))
        .current_dir(&d)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let _ = std::fs::remove_dir_all(&d);
}
