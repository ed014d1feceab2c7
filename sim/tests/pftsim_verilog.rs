//! `pftsim verilog`: the file it writes (and what `--out -` prints) is the Verilog of the
//! entry's block at the constants a run of the entry derives, the constants it reports are
//! `summary.json`'s `cc_derived` where the run derives them, and `--flows` picks the
//! N-flow top, `--top` renames every module; and the constants are those the network a run
//! builds holds (MVCM's, IB CC's timer per NIC). (The Verilog against the models under Verilator: `tb/tests/*_verilog.rs`,
//! "at ... constants"; bad arguments: docs/bad-inputs.md, SX-39..48.)

use pft_sim::cc::export::{export_entry, RtlParams};
use pft_sim::scenario::Scenario;
use std::path::{Path, PathBuf};
use std::process::Command;

const PFTSIM: &str = env!("CARGO_BIN_EXE_pftsim");

fn scenario(file: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../scenarios")
        .join(file)
}

fn work(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("pftsim_verilog")
        .join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// `pftsim verilog FILE --cc ENTRY [extra] --out OUT`: (status ok, stdout, stderr).
fn verilog(file: &str, entry: &str, extra: &[&str], out: &Path) -> (bool, Vec<u8>, String) {
    let o = Command::new(PFTSIM)
        .arg("verilog")
        .arg(scenario(file))
        .args(["--cc", entry])
        .args(extra)
        .arg("--out")
        .arg(out)
        .output()
        .unwrap();
    (
        o.status.success(),
        o.stdout,
        String::from_utf8_lossy(&o.stderr).into(),
    )
}

#[test]
fn the_file_is_the_entrys_block_at_its_derived_constants() {
    let d = work("mvcm-hotspot");
    let out = d.join("mvcm.v");
    let (ok, stdout, err) = verilog("mvcm-hotspot.toml", "mvcm", &[], &out);
    assert!(ok, "{err}");
    let sc = Scenario::load(&scenario("mvcm-hotspot.toml")).unwrap();
    let e = export_entry(&sc, "mvcm", None, None).unwrap();
    let written = std::fs::read_to_string(&out).unwrap();
    assert_eq!(written, e.verilog);
    assert!(written.contains("module mvcm_flow("));
    let said = String::from_utf8(stdout).unwrap();
    assert!(
        said.contains("design mvcm_flow (top `mvcm_flow`)"),
        "{said}"
    );
    // the constants a run reports in summary.json's `cc_derived` (the entry sets none)
    let spec = pft_sim::scenario::run_spec(&sc, "mvcm").unwrap();
    for (k, v) in spec.cc.derived(&sc.network) {
        if k == "packet_bytes" {
            continue; // the round trip's packet: not a constant of the block
        }
        assert!(
            said.contains(&format!("{k}={v} ")) || said.trim_end().ends_with(&format!("{k}={v}")),
            "{k}={v} not in {said}"
        );
    }
    let RtlParams::Mvcm(p) = e.params else {
        panic!("{:?}", e.params)
    };
    assert_eq!(p.rtt_min, 58);
    // the paper's export holds other constants: the scenario's Verilog differs from it
    assert_ne!(
        written,
        pft_hdl::mvcm::verilog::mvcm_verilog(&pft_hdl::mvcm::PAPER)
    );
}

#[test]
fn stdout_gets_the_same_bytes_and_the_report_goes_to_stderr() {
    let d = work("stdout");
    let file = d.join("ibcc.v");
    let (ok, _, err) = verilog("study/torus.toml", "ibcc", &[], &file);
    assert!(ok, "{err}");
    let (ok, stdout, err) = verilog("study/torus.toml", "ibcc", &[], Path::new("-"));
    assert!(ok, "{err}");
    assert_eq!(stdout, std::fs::read(&file).unwrap());
    assert!(err.contains("timer_period=30000"), "{err}");
}

#[test]
fn flows_pick_the_n_flow_top() {
    let d = work("flows");
    let out = d.join("mvcm4.v");
    let (ok, _, err) = verilog("study/butterfly.toml", "mvcm", &["--flows", "4"], &out);
    assert!(ok, "{err}");
    let v = std::fs::read_to_string(&out).unwrap();
    assert!(v.contains("module mvcm_flows4("), "no mvcm_flows4 top");
    let out = d.join("dcqcn16.v");
    let (ok, _, err) = verilog("dcqcn-incast.toml", "dcqcn", &["--flows", "16"], &out);
    assert!(ok, "{err}");
    // dcqcn-incast runs the paper's constants: the registry's export, byte for byte
    assert_eq!(
        std::fs::read_to_string(&out).unwrap(),
        pft_hdl::dcqcn::verilog::dcqcn_flows_verilog(&pft_hdl::dcqcn::model::Params::paper(), 16)
    );
}

#[test]
fn ibcc_nics_take_their_own_timer_phase() {
    let sc = Scenario::load(&scenario("ib-silent-forest.toml")).unwrap();
    let first = |nic| match export_entry(&sc, "ibcc", None, Some(nic)).unwrap().params {
        RtlParams::Ibcc { first, period, .. } => {
            assert!((1..=period).contains(&first), "{first} of {period}");
            first
        }
        p => panic!("{p:?}"),
    };
    let phases: std::collections::BTreeSet<u64> = (0..16).map(first).collect();
    assert!(phases.len() > 8, "16 NICs, phases {phases:?}");
}

#[test]
fn the_constants_are_those_of_the_network_a_run_builds() {
    use pft_sim::cc::Network;
    for (file, entry) in [
        ("mvcm-hotspot.toml", "mvcm"),
        ("study/butterfly.toml", "mvcm"),
        ("ib-silent-forest.toml", "ibcc"),
        ("study/torus.toml", "ibcc"),
    ] {
        let sc = Scenario::load(&scenario(file)).unwrap();
        let cc = sc.config_named(entry).unwrap();
        let net = Network::with_cc(&sc.network, &cc, sc.engine, sc.seed).unwrap();
        match &net {
            Network::Mvcm(n) => {
                let RtlParams::Mvcm(p) = export_entry(&sc, entry, None, None).unwrap().params
                else {
                    panic!("{file}: not MVCM")
                };
                assert_eq!(n.scheme().params(), &p, "{file}");
            }
            Network::Ibcc(n) => {
                for nic in [0, 1, 7, 63] {
                    let RtlParams::Ibcc { period, first, .. } =
                        export_entry(&sc, entry, None, Some(nic)).unwrap().params
                    else {
                        panic!("{file}: not IB CC")
                    };
                    assert_eq!(n.scheme().nics.period(), period, "{file}");
                    assert_eq!(n.scheme().nics.next_expiry(nic), first, "{file} NIC {nic}");
                }
            }
            _ => panic!("{file} `{entry}`: another scheme"),
        }
    }
}

#[test]
fn top_renames_every_module() {
    let modules = |v: &str| -> Vec<String> {
        v.lines()
            .filter_map(|l| l.trim_start().strip_prefix("module "))
            .map(|l| l.split('(').next().unwrap().trim().to_string())
            .collect()
    };
    let d = work("top");
    let (a, b) = (d.join("n0.v"), d.join("n5.v"));
    for (out, nic, top) in [(&a, "0", "ibcc_n0"), (&b, "5", "ibcc_n5")] {
        let (ok, _, err) = verilog(
            "study/torus.toml",
            "ibcc",
            &["--nic", nic, "--top", top],
            out,
        );
        assert!(ok, "{err}");
    }
    let (ma, mb) = (
        modules(&std::fs::read_to_string(&a).unwrap()),
        modules(&std::fs::read_to_string(&b).unwrap()),
    );
    assert!(ma.len() > 1 && ma.len() == mb.len(), "{ma:?} {mb:?}");
    assert!(ma.iter().all(|m| m.starts_with("ibcc_n0")), "{ma:?}");
    assert!(mb.iter().all(|m| m.starts_with("ibcc_n5")), "{mb:?}");
}
