//! The exported Verilog of MVCM's per-flow source state (`mvcm_flow`, and `mvcm_flows4` of
//! four flows; seed 004) against its reference model (`pft_hdl::mvcm::model`), cycle by
//! cycle under Verilator: vectors are written from the model under the cycle mapping of
//! `mvcm::stepper` (inputs and every output: can_inject, dw, out, the slots, the cycles
//! until next_ok, the error flags; for four flows the can_inject vector and the flags) and
//! replayed on the Verilog, 100,000 cycles per parameter set. Each Verilog also passes
//! `verilator --lint-only -Wall` with the project's waivers (the four-flow block with three
//! more, named below). Broken copies of the Verilog must be caught, or the comparison
//! proves nothing. Fails, naming the tool, when `verilator` or `iverilog` does not run.

use pft_hdl::mvcm::model::{Flow, Params};
use pft_hdl::mvcm::stepper::{model_flows_cycle, FlowsOutputs};
use pft_hdl::mvcm::verilog::{mvcm_flows_top, mvcm_flows_verilog, mvcm_verilog, TOP_MVCM};
use pft_hdl::mvcm::PAPER;
use pft_sim::cc::export::RtlParams;
use pft_tb::verilator;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use mvcm_stimulus::{Coverage, Stream, PAPER_SHORT_RTT, SMALL};
use pft_test_support::stimulus::mvcm as mvcm_stimulus;

const CYCLES: u64 = 100_000;

fn work() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("mvcm_verilog")
}

/// Lint waivers of the N-flow block, on top of the project's: the observation outputs of
/// the per-flow blocks that `MvcmFlow` exports and `MvcmFlows` does not (the window's `dw`
/// and `out`, the slots' exponent `e`; the rust-hdl tests read the registers directly, and
/// Yosys removes the unused logic). Waived by name only.
const FLOWS_WAIVERS: &str = "`verilator_config
lint_off -rule UNUSEDSIGNAL -file \"*\" -match \"Signal is not used: 'window$dw'\"
lint_off -rule UNUSEDSIGNAL -file \"*\" -match \"Signal is not used: 'window$out'\"
lint_off -rule UNUSEDSIGNAL -file \"*\" -match \"Signal is not used: 'waiting$e'\"
";

/// Write `v` (top `top`) in `dir` and lint it like synth/check_verilog.sh does (`-Wall`,
/// the project's waivers, and `extra` waivers if any).
fn export(v: String, top: &str, dir: &Path, extra: Option<&str>) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    assert!(v.contains(&format!("module {top}(")));
    let f = dir.join(format!("{top}.v"));
    std::fs::write(&f, v).unwrap();
    let waivers = Path::new(env!("CARGO_MANIFEST_DIR")).join("../synth/lint/verilator_waivers.vlt");
    let mut cmd = Command::new("verilator");
    cmd.args(["--lint-only", "-Wall", "--top-module", top])
        .arg(&waivers);
    if let Some(w) = extra {
        let wf = dir.join("extra_waivers.vlt");
        std::fs::write(&wf, w).unwrap();
        cmd.arg(wf);
    }
    let o = cmd.arg(&f).output().unwrap();
    assert!(
        o.status.success(),
        "verilator --lint-only -Wall on {top}:\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    f
}

/// Vectors of `cycles` cycles of `p`'s stream from `seed` on `n` flows, from the model.
/// One flow: the `mvcm_flow` ports; more: the `mvcm_flows<N>` ports.
fn vectors(p: &Params, n: usize, seed: u64, cycles: u64, path: &Path) -> Coverage {
    let mut fs = vec![Flow::new(p); n];
    let mut stream = Stream::new(*p, n, seed);
    let mut cov = Coverage::default();
    let mut text = if n == 1 {
        String::from(
            "# reset ack_valid ack_mb ack_vb fast_reset inject | can_inject dw out ws e \
             wait_cycles err_stray err_marks err_not_eligible (hex)\n",
        )
    } else {
        String::from(
            "# reset ack_valid ack_flow ack_mb ack_vb fast_reset reset_flow inject \
             inject_flow | can_inject err_stray err_marks err_not_eligible (hex)\n",
        )
    };
    for t in 0..cycles {
        let before = fs.clone();
        let (reset, ev) = stream.cycle(t, &fs);
        let o: FlowsOutputs = model_flows_cycle(&mut fs, p, t, reset, ev);
        stream.commit(t, reset, &o);
        cov.count(t, &before, &fs, reset, &ev, &o, p);
        let (ai, mb, vb) = ev.ack.unwrap_or_default();
        let b = |x: bool| x as u8;
        if n == 1 {
            let f = &before[0];
            writeln!(
                text,
                "{:x} {:x} {:x} {:x} {:x} {:x} {:x} {:x} {:x} {:x} {:x} {:x} {:x} {:x} {:x}",
                b(reset),
                b(ev.ack.is_some()),
                b(mb),
                b(vb),
                b(ev.fast_reset.is_some()),
                b(ev.inject.is_some()),
                o.can_inject,
                f.dw,
                f.out,
                b(f.ws_exp.is_some()),
                f.ws_exp.unwrap_or(0),
                f.next_ok.saturating_sub(t),
                b(o.stray),
                b(o.marks),
                b(o.not_eligible)
            )
            .unwrap();
        } else {
            writeln!(
                text,
                "{:x} {:x} {:x} {:x} {:x} {:x} {:x} {:x} {:x} {:x} {:x} {:x} {:x}",
                b(reset),
                b(ev.ack.is_some()),
                ai,
                b(mb),
                b(vb),
                b(ev.fast_reset.is_some()),
                ev.fast_reset.unwrap_or(0),
                b(ev.inject.is_some()),
                ev.inject.unwrap_or(0),
                o.can_inject,
                b(o.stray),
                b(o.marks),
                b(o.not_eligible)
            )
            .unwrap();
        }
    }
    std::fs::write(path, text).unwrap();
    cov
}

fn replay_exe(name: &str, verilog: &Path, top: &str) -> PathBuf {
    verilator::build_replay(verilog, top, &work().join(format!("obj_{name}"))).unwrap()
}

/// Export, lint, build and replay one flow of `p`; every output must match in every cycle.
fn one_flow_matches_model(name: &str, p: Params, seed: u64) {
    verilog_matches_model(name, mvcm_verilog(&p), p, seed, (CYCLES, false));
}

/// `one_flow_matches_model` on the Verilog `verilog` of one flow of `p`, over `cycles`
/// (`long_waits`: a scenario's round trip, whose waits leave fewer injections).
fn verilog_matches_model(
    name: &str,
    verilog: String,
    p: Params,
    seed: u64,
    (cycles, long_waits): (u64, bool),
) {
    verilator::require_tools(name, &[verilator::VERILATOR, verilator::IVERILOG]);
    let dir = work().join(name);
    let v = export(verilog, TOP_MVCM, &dir, None);
    let exe = replay_exe(name, &v, TOP_MVCM);
    let vec = dir.join("vectors.txt");
    let cov = vectors(&p, 1, seed, cycles, &vec);
    if long_waits {
        cov.check_the_rules_ran_with_long_waits(&p);
    } else {
        cov.check_the_rules_ran(&p);
    }
    let (r, log) = verilator::replay(&exe, &vec).unwrap();
    eprintln!("{name}: {p:?}\n  verilator {r:?}, {cov:?}");
    assert_eq!(r.cycles, cycles, "{log}");
    assert_eq!(
        r.mismatches, 0,
        "the Verilog differs from the model:\n{log}"
    );
    // the second simulator on the first 20,000 of the same vectors
    verilator::assert_iverilog_prefix(&v, TOP_MVCM, &vec, 20_000, &dir.join("iverilog"));
}

#[test]
fn verilator_matches_model_paper_k_and_n_at_the_paper_widths() {
    // k = 4, n = 5, dw_max = 2 as in the paper, rtt_min 3 so the slots reach the cap in
    // the run: the export's widths (2, 3, 19 bits).
    one_flow_matches_model("paper-short-rtt", PAPER_SHORT_RTT, 0x3C3_1001);
}

/// The scenarios' runs: their waits (up to k^n * rtt_min cycles) need a longer run to
/// reach the slots' cap, with fewer injections a cycle than the short round trip's.
const SCENARIO_RUN: (u64, bool) = (1_000_000, true);

/// What `pftsim verilog scenarios/FILE --cc ENTRY` writes for one flow: its Verilog and
/// the model's constants.
fn scenario_export(file: &str, entry: &str) -> (String, Params) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../scenarios")
        .join(file);
    let sc = pft_sim::scenario::Scenario::load(&path).unwrap();
    let e = pft_sim::cc::export::export_entry(&sc, entry, None, None).unwrap();
    let RtlParams::Mvcm(p) = e.params else {
        panic!("{file} `{entry}`: not MVCM: {:?}", e.params)
    };
    assert_eq!(e.top, TOP_MVCM);
    (e.verilog, p)
}

#[test]
fn verilator_matches_model_at_mvcm_hotspots_constants() {
    // `pftsim verilog scenarios/mvcm-hotspot.toml --cc mvcm`: rtt_min 58 of its 8-byte
    // flits (docs/hardware.md, "A scenario's constants"), not the export's 354
    let (v, p) = scenario_export("mvcm-hotspot.toml", "mvcm");
    assert_eq!((p.dw_max, p.k, p.n, p.rtt_min), (2, 4, 5, 58), "{p:?}");
    verilog_matches_model("scenario-mvcm-hotspot", v, p, 0x3C3_1003, SCENARIO_RUN);
}

#[test]
fn verilator_matches_model_at_the_study_butterflys_constants() {
    // `pftsim verilog scenarios/study/butterfly.toml --cc mvcm`: dw_max 3, n 3, rtt_min 157
    let (v, p) = scenario_export("study/butterfly.toml", "mvcm");
    assert_eq!((p.dw_max, p.k, p.n, p.rtt_min), (3, 4, 3, 157), "{p:?}");
    verilog_matches_model("scenario-study-butterfly", v, p, 0x3C3_1004, SCENARIO_RUN);
}

#[test]
fn verilator_matches_model_small_at_the_wide_widths() {
    one_flow_matches_model("small", SMALL, 0x3C3_1002);
}

#[test]
fn verilator_matches_model_four_flows() {
    let name = "flows4";
    verilator::require_tools(name, &[verilator::VERILATOR, verilator::IVERILOG]);
    let (p, n) = (PAPER_SHORT_RTT, 4);
    let top = mvcm_flows_top(n);
    let dir = work().join(name);
    let v = export(mvcm_flows_verilog(&p, n), &top, &dir, Some(FLOWS_WAIVERS));
    let exe = replay_exe(name, &v, &top);
    let vec = dir.join("vectors.txt");
    let cov = vectors(&p, n, 0x3C3_1003, CYCLES, &vec);
    cov.check_the_rules_ran(&p);
    let (r, log) = verilator::replay(&exe, &vec).unwrap();
    eprintln!("{name}: {p:?}\n  verilator {r:?}, {cov:?}");
    assert_eq!(r.cycles, CYCLES, "{log}");
    assert_eq!(
        r.mismatches, 0,
        "the Verilog differs from the model:\n{log}"
    );
    // the second simulator on the first 20,000 of the same vectors
    verilator::assert_iverilog_prefix(&v, &top, &vec, 20_000, &dir.join("iverilog"));
}

#[test]
fn the_export_is_the_paper_configuration() {
    let v = mvcm_verilog(&PAPER);
    // 2-bit window, 3-bit exponent, 19-bit timer; the table's top entry 4^5 * 354 - 1.
    assert!(v.contains("output reg  [1:0] dw;"), "{v}");
    assert!(v.contains("output reg  [2:0] e;"));
    assert!(v.contains("output reg  [18:0] wait_cycles;"));
    assert!(v.contains(&format!("19'b{:b}", 4u64.pow(5) * 354 - 1)));
}

/// Broken copies of the small configuration's Verilog (text in the export, replacement):
/// a clean ACK's cancel no longer frees that cycle's injection, the slots grow one past
/// the cap, the window falls to 0.
const MUTANTS: [(&str, &str, &str); 3] = [
    (
        "cancel-ignored-by-the-injection",
        "time_ok = timer_idle | ws_clear | fast_reset;",
        "time_ok = timer_idle | fast_reset;",
    ),
    (
        "slots-past-the-cap",
        "else if (e_q$q < e_max) begin",
        "else if (e_q$q <= e_max) begin",
    ),
    (
        "window-below-1",
        "above = dwd$q < dw_max_m1;",
        "above = dwd$q <= dw_max_m1;",
    ),
];

#[test]
fn verilator_catches_broken_verilog() {
    verilator::require_tools("verilator_catches_broken_verilog", &[verilator::VERILATOR]);
    let dir = work().join("mutants");
    let good = export(mvcm_verilog(&SMALL), TOP_MVCM, &dir, None);
    let vec = dir.join("vectors.txt");
    vectors(&SMALL, 1, 0x3C3_1002, CYCLES, &vec);
    for (name, from, to) in MUTANTS {
        let bad = verilator::mutant(&good, from, to, &dir.join(format!("{name}.v"))).unwrap();
        let exe = replay_exe(&format!("mutant-{name}"), &bad, TOP_MVCM);
        let (r, log) = verilator::replay(&exe, &vec).unwrap();
        eprintln!(
            "mutant {name}: {r:?}\n  first: {}",
            log.lines().next().unwrap_or("")
        );
        assert!(
            r.mismatches > 0,
            "mutant {name} survived: the comparison is blind to it"
        );
    }
}
