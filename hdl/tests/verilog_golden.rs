//! Every design `pft-verilog` exports is byte-identical to the Verilog recorded before the
//! design registry (issue 37): `hdl/tests/golden/verilog.sha256` holds the SHA-256 of each
//! file as `sha256sum` prints it (the files themselves are 2 MB, and `*.v` is not committed).
//! The test runs the real binary with every command line the Makefile, the synth scripts and
//! the docs use, old flags and new, and compares the digests.
//!
//! A change that alters a design's text on purpose updates the list with
//! `pft-verilog --design NAME - | sha256sum`, and says why in the commit.

use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::process::Command;

const PFT_VERILOG: &str = env!("CARGO_BIN_EXE_pft-verilog");

/// File name -> SHA-256 (hex) of the recorded Verilog.
fn golden() -> BTreeMap<String, String> {
    let text = include_str!("golden/verilog.sha256");
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let (sum, name) = l.split_once("  ").expect("sha256sum line");
            (name.to_string(), sum.to_string())
        })
        .collect()
}

/// The Verilog `pft-verilog ARGS -` writes to stdout, as its SHA-256 (hex).
fn digest(args: &[&str]) -> String {
    let out = Command::new(PFT_VERILOG)
        .args(args)
        .arg("-")
        .output()
        .expect("run pft-verilog");
    assert!(
        out.status.success(),
        "pft-verilog {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    Sha256::digest(&out.stdout)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The old command lines (kept as aliases): file stem and flags.
fn old_forms() -> Vec<(String, Vec<String>)> {
    let mut v: Vec<(String, Vec<String>)> = vec![
        ("pft_injector".into(), vec![]),
        ("pft_injector_pipelined".into(), vec!["--pipelined".into()]),
        ("selftuned_node".into(), vec!["--selftuned".into()]),
        ("mvcm_flow".into(), vec!["--mvcm".into()]),
        ("ibcc_flow".into(), vec!["--ibcc".into()]),
        (
            "ibcc_flow_random".into(),
            vec!["--ibcc".into(), "--cct".into(), "random".into()],
        ),
        // Issue 38's design has no older flag; its width flag at the default width.
        (
            "pft_axis".into(),
            vec![
                "--design".into(),
                "pft_axis".into(),
                "--data-width".into(),
                "64".into(),
            ],
        ),
    ];
    for n in [1, 4, 16, 64] {
        for f in ["mvcm", "ibcc"] {
            v.push((
                format!("{f}_flows{n}"),
                vec![format!("--{f}"), "--flows".into(), n.to_string()],
            ));
        }
    }
    // Issue 40's designs have no older flag: the forms the docs and make synth-dcqcn use.
    v.push((
        "dcqcn_flow".into(),
        vec!["--design".into(), "dcqcn_flow".into()],
    ));
    for n in [1, 4, 16, 64] {
        v.push((
            format!("dcqcn_flows{n}"),
            vec![
                "--design".into(),
                "dcqcn_flows".into(),
                "--flows".into(),
                n.to_string(),
            ],
        ));
    }
    v
}

#[test]
fn every_old_command_line_gives_the_recorded_verilog() {
    let g = golden();
    let forms = old_forms();
    assert_eq!(
        forms.len(),
        g.len(),
        "a recorded design without a command line"
    );
    let mut bad = Vec::new();
    for (stem, args) in &forms {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let want = &g[&format!("{stem}.v")];
        let got = digest(&args);
        if &got != want {
            bad.push(format!(
                "{stem}: pft-verilog {args:?} gives {got}, recorded {want}"
            ));
        }
    }
    assert!(bad.is_empty(), "Verilog changed:\n{}", bad.join("\n"));
}

#[test]
fn every_registry_top_gives_the_recorded_verilog() {
    let g = golden();
    let mut seen = 0;
    for d in pft_hdl::DESIGNS {
        for (top, _) in d.tops() {
            let want = g
                .get(&format!("{top}.v"))
                .unwrap_or_else(|| panic!("{top}: not in golden/verilog.sha256"));
            assert_eq!(
                &digest(&["--design", &top]),
                want,
                "pft-verilog --design {top}"
            );
            seen += 1;
        }
    }
    assert_eq!(seen, g.len(), "a recorded design the registry lost");
}

#[test]
fn every_design_names_its_top() {
    // rust-hdl's Verilog generation recurses deeply: on a test thread's 2 MiB stack the
    // 512-bit pft_axis came within a build's inlining of overflowing it (a CI run did), so
    // the exports run on a thread with a main thread's 8 MiB, as `pft-verilog` does.
    std::thread::Builder::new()
        .stack_size(8 << 20)
        .spawn(|| {
            for d in pft_hdl::DESIGNS {
                for (top, size) in d.tops() {
                    let v = d.export(size);
                    assert!(v.contains(&format!("module {top}(")), "{top}");
                }
            }
        })
        .expect("a thread")
        .join()
        .expect("every design exports with its top named");
}

/// `hdl/generated/designs.json` is the registry as `pft-verilog --list` prints it (the
/// scripts read it; `make docs` rewrites it).
#[test]
fn generated_list_is_current() {
    let now = pft_hdl::design::json(pft_hdl::DESIGNS);
    let file = include_str!("../generated/designs.json");
    assert!(
        file == now,
        "hdl/generated/designs.json is stale: run `make docs`"
    );
}

/// `--version` prints the version as the clap tools do, and writes no Verilog.
#[test]
fn version_is_printed_like_the_other_tools() {
    let o = std::process::Command::new(PFT_VERILOG)
        .arg("--version")
        .current_dir(std::env::temp_dir())
        .output()
        .unwrap();
    assert!(o.status.success());
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        format!("pft-verilog {}\n", env!("CARGO_PKG_VERSION"))
    );
}
