//! The exported Verilog of IB CC's per-flow source state (`ibcc_flow`, and `ibcc_flows4`
//! of four flows; seed 002) against its reference model (`pft_hdl::ibcc::model`, the
//! functions the simulator's IB CC runs), cycle by cycle under Verilator: vectors are
//! written from the model under the cycle mapping of `ibcc::stepper` (inputs and every
//! output: CCTI, eligible, the cycles until next_ok, the timer's expiry, the early-start
//! flag; for four flows the eligible vector, the expiry and the flag) and replayed on the
//! Verilog, 100,000 cycles per parameter set. Each Verilog also passes `verilator
//! --lint-only -Wall` with the project's waivers (the four-flow block with one more, named
//! below). Broken copies of the Verilog must be caught. Fails, naming the tool, when
//! `verilator` or `iverilog` does not run.

use pft_hdl::ibcc::model::Params;
use pft_hdl::ibcc::stepper::Port;
use pft_hdl::ibcc::verilog::{
    ibcc_flows_top, ibcc_flows_verilog, ibcc_table1_verilog, ibcc_verilog,
};
use pft_hdl::ibcc::verilog::{TOP_IBCC, TOP_IBCC_RANDOM};
use pft_tb::verilator;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use ibcc_stimulus::{steep, table1_short, Coverage, Stream};
use pft_test_support::stimulus::ibcc as ibcc_stimulus;

const CYCLES: u64 = 100_000;

fn work() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("ibcc_verilog")
}

/// Lint waiver of the N-flow block, on top of the project's: each flow's CCTI register
/// output, which `IbccFlow` exports and `IbccFlows` does not (the rust-hdl tests read the
/// registers directly). Waived by name only.
const FLOWS_WAIVERS: &str = "`verilator_config
lint_off -rule UNUSEDSIGNAL -file \"*\" -match \"Signal is not used: 'index$ccti'\"
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

/// Vectors of `cycles` cycles of the stream from `seed` on `n` flows of `p` with a timer
/// of `period`, first expiry `first`, from the model. Line 0 is the power-up reset
/// (expected: the Verilog's initial zeros, the expiry gated by the reset); the model starts
/// in the cycle after it. One flow: the `ibcc_flow` ports; more: the `ibcc_flows<N>` ports.
#[allow(clippy::too_many_arguments)]
fn vectors(
    p: &Params,
    period: u64,
    first: u64,
    n: usize,
    max_flits: u32,
    seed: u64,
    cycles: u64,
    path: &Path,
) -> Coverage {
    let mut port = Port::new(p.clone(), period, first, n);
    let mut stream = Stream::new(max_flits, seed);
    let mut cov = Coverage::default();
    let mut text = if n == 1 {
        String::from(
            "# reset becn start flits | ccti eligible wait_cycles tick err_early (hex)\n\
             1 0 0 0 0 1 0 0 0\n",
        )
    } else {
        format!(
            "# reset becn becn_flow start start_flow flits | eligible tick err_early (hex)\n\
             1 0 0 0 0 0 {:x} 0 0\n",
            (1u64 << n) - 1
        )
    };
    let b = |x: bool| x as u8;
    for t in 0..cycles - 1 {
        let before = port.clone();
        let (reset, ev) = stream.cycle(t, &port);
        let o = port.cycle(t, reset, ev);
        cov.count(t, &before, &port, reset, &ev, &o);
        let (si, flits) = ev.start.unwrap_or_default();
        if n == 1 {
            writeln!(
                text,
                "{:x} {:x} {:x} {:x} {:x} {:x} {:x} {:x} {:x}",
                b(reset),
                b(ev.becn.is_some()),
                b(ev.start.is_some()),
                flits,
                o.ccti[0],
                o.eligible,
                o.wait[0],
                b(o.tick),
                b(o.early)
            )
            .unwrap();
        } else {
            writeln!(
                text,
                "{:x} {:x} {:x} {:x} {:x} {:x} {:x} {:x} {:x}",
                b(reset),
                b(ev.becn.is_some()),
                ev.becn.unwrap_or(0),
                b(ev.start.is_some()),
                si,
                flits,
                o.eligible,
                b(o.tick),
                b(o.early)
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

/// Export, lint, build and replay one flow; every output must match in every cycle.
fn one_flow_matches_model(name: &str, (p, period): (Params, u64), max_flits: u32, seed: u64) {
    let first = 1 + seed % period;
    let v = ibcc_verilog(&p, period, first, TOP_IBCC);
    verilog_matches_model(
        name,
        v,
        (p, period, first),
        max_flits,
        seed,
        (CYCLES, false),
    );
}

/// `one_flow_matches_model` on the Verilog `verilog` of one flow of `p` with a timer of
/// `period` cycles, first expiry `first`, over `cycles` (`slow_timer`: the CCTI is not
/// asked to reach its floor).
fn verilog_matches_model(
    name: &str,
    verilog: String,
    (p, period, first): (Params, u64, u64),
    max_flits: u32,
    seed: u64,
    (cycles, slow_timer): (u64, bool),
) {
    verilator::require_tools(name, &[verilator::VERILATOR, verilator::IVERILOG]);
    let dir = work().join(name);
    let v = export(verilog, TOP_IBCC, &dir, None);
    let exe = replay_exe(name, &v, TOP_IBCC);
    let vec = dir.join("vectors.txt");
    let cov = vectors(&p, period, first, 1, max_flits, seed, cycles, &vec);
    if slow_timer {
        cov.check_the_rules_ran_above_the_floor(&p);
    } else {
        cov.check_the_rules_ran(&p);
    }
    let (r, log) = verilator::replay(&exe, &vec).unwrap();
    eprintln!("{name}: period {period}\n  verilator {r:?}, {cov:?}");
    assert_eq!(r.cycles, cycles, "{log}");
    assert_eq!(
        r.mismatches, 0,
        "the Verilog differs from the model:\n{log}"
    );
    // the second simulator on the first 20,000 of the same vectors
    verilator::assert_iverilog_prefix(&v, TOP_IBCC, &vec, 20_000, &dir.join("iverilog"));
}

#[test]
fn verilator_matches_model_at_the_study_toruss_constants() {
    // `pftsim verilog scenarios/study/torus.toml --cc ibcc`: 64-flit packets and a
    // 30,000-cycle timer at 100 Gb/s, which Table I's widths do not hold (the wide block),
    // NIC 0's timer phase as the run draws it (docs/hardware.md, "A scenario's constants")
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scenarios/study/torus.toml");
    let sc = pft_sim::scenario::Scenario::load(&path).unwrap();
    let e = pft_sim::cc::export::export_entry(&sc, "ibcc", None, None).unwrap();
    let pft_sim::cc::export::RtlParams::Ibcc {
        p,
        period,
        first,
        packet_flits,
    } = e.params
    else {
        panic!("not IB CC: {:?}", e.params)
    };
    assert_eq!((period, packet_flits), (30_000, 64));
    assert!(e.verilog.contains("module ibcc_flow("));
    // (a run of 40 timer periods: the coverage asks for more than ten expiries; so slow a
    // timer against the stream's BECNs never lets the CCTI fall back to the floor)
    let cycles = (40 * period, true);
    verilog_matches_model(
        "scenario-study-torus",
        e.verilog,
        (p, period, first),
        packet_flits,
        0x1BCC_1006,
        cycles,
    );
}

#[test]
fn verilator_matches_model_table1_at_table1_widths() {
    // Table I's rules with a 97-cycle timer: the export's widths (7, 6, 13, 13 bits).
    one_flow_matches_model("table1", table1_short(), 32, 0x1BCC_1001);
}

#[test]
fn verilator_matches_model_steep_steps_every_shift() {
    one_flow_matches_model("steep", steep(), 20, 0x1BCC_1002);
}

#[test]
fn verilator_matches_model_four_flows() {
    let name = "flows4";
    verilator::require_tools(name, &[verilator::VERILATOR, verilator::IVERILOG]);
    let ((p, period), n, seed) = (table1_short(), 4, 0x1BCC_1003);
    let first = 1 + seed % period;
    let top = ibcc_flows_top(n);
    let dir = work().join(name);
    let v = export(
        ibcc_flows_verilog(&p, period, first, n),
        &top,
        &dir,
        Some(FLOWS_WAIVERS),
    );
    let exe = replay_exe(name, &v, &top);
    let vec = dir.join("vectors.txt");
    let cov = vectors(&p, period, first, n, 32, seed, CYCLES, &vec);
    cov.check_the_rules_ran(&p);
    let (r, log) = verilator::replay(&exe, &vec).unwrap();
    eprintln!("{name}: period {period}\n  verilator {r:?}, {cov:?}");
    assert_eq!(r.cycles, CYCLES, "{log}");
    assert_eq!(
        r.mismatches, 0,
        "the Verilog differs from the model:\n{log}"
    );
    // the second simulator on the first 20,000 of the same vectors
    verilator::assert_iverilog_prefix(&v, &top, &vec, 20_000, &dir.join("iverilog"));
}

#[test]
fn the_exports_are_table1() {
    let v = ibcc_table1_verilog(false);
    assert!(v.contains(&format!("module {TOP_IBCC}(")));
    // 7-bit CCTI, 6-bit length, 13-bit timer; the CCTI timer's period 6,000 - 1.
    assert!(v.contains("output reg  [6:0] ccti;"), "{v}");
    assert!(v.contains("input wire  [5:0] flits;"));
    assert!(v.contains("output reg  [12:0] wait_cycles;"));
    assert!(v.contains(&format!("13'b{:b}", 5999)));
    let r = ibcc_table1_verilog(true);
    assert!(r.contains(&format!("module {TOP_IBCC_RANDOM}(")));
    assert!(
        r.contains("output reg  [19:0] wait_cycles;"),
        "a 20-bit timer"
    );
}

/// Broken copies of the steep configuration's Verilog (text in the export, replacement):
/// the timer lowers a CCTI at the floor, the CCT's shift is ignored, the CCTI timer's
/// period restarts from the reset phase.
const MUTANTS: [(&str, &str, &str); 3] = [
    (
        "timer-below-the-floor",
        "if (tick & (b > min)) begin",
        "if (tick & (b >= min)) begin",
    ),
    ("shift-ignored", "delay = prod >> shift;", "delay = prod;"),
    (
        "period-from-the-phase",
        "left$d = period_m1;",
        "left$d = first;",
    ),
];

#[test]
fn verilator_catches_broken_verilog() {
    verilator::require_tools("verilator_catches_broken_verilog", &[verilator::VERILATOR]);
    let ((p, period), seed) = (steep(), 0x1BCC_1002);
    let first = 1 + seed % period;
    let dir = work().join("mutants");
    let good = export(
        ibcc_verilog(&p, period, first, TOP_IBCC),
        TOP_IBCC,
        &dir,
        None,
    );
    let vec = dir.join("vectors.txt");
    vectors(&p, period, first, 1, 20, seed, CYCLES, &vec);
    for (name, from, to) in MUTANTS {
        let bad = verilator::mutant(&good, from, to, &dir.join(format!("{name}.v"))).unwrap();
        let exe = replay_exe(&format!("mutant-{name}"), &bad, TOP_IBCC);
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
