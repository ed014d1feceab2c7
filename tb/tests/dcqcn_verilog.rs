//! The exported Verilog of DCQCN's reaction point (`dcqcn_flow`, and `dcqcn_flows4` of four
//! flows) against its fixed-point reference model (`pft_hdl::dcqcn::model`), cycle by cycle
//! under Verilator: vectors are written from the model under the cycle mapping of
//! `dcqcn::stepper` (inputs and every output: the rates, alpha, eligible, limited, the
//! early-start flag; for four flows the eligible and limited vectors and the flag) and
//! replayed on the Verilog, 100,000 cycles: one flow on the quick rules, four flows on the
//! extremes. Five Verilator builds (about 10 s each on 2 cores) set the test's time. Each Verilog also passes
//! `verilator --lint-only -Wall` with the project's waivers (the four-flow block with the
//! registry's, named below). Broken copies of the Verilog must be caught. Fails, naming the tool,
//! when `verilator` (or, for the iverilog test, `iverilog`) does not run.

use pft_hdl::dcqcn::model::Params;
use pft_hdl::dcqcn::stepper::Port;
use pft_hdl::dcqcn::verilog::{dcqcn_flows_top, dcqcn_flows_verilog, dcqcn_verilog, TOP_DCQCN};
use pft_tb::verilator;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use dcqcn_stimulus::{quick, steep, Coverage, Stream};
use pft_test_support::stimulus::dcqcn as dcqcn_stimulus;

const CYCLES: u64 = 100_000;

fn work() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("dcqcn_verilog")
}

/// Lint waivers of the N-flow block, on top of the project's: each slot's target rate and
/// alpha outputs, which `DcqcnFlow` exports and `DcqcnFlows` does not (the rust-hdl tests
/// read the registers directly). Waived by name only (`dcqcn::verilog::FLOWS_IO`).
const FLOWS_WAIVERS: &str = "`verilator_config
lint_off -rule UNUSEDSIGNAL -file \"*\" -match \"Signal is not used: 'slots$*$rt'\"
lint_off -rule UNUSEDSIGNAL -file \"*\" -match \"Signal is not used: 'slots$*$alpha'\"
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

/// Vectors of `cycles` cycles of the stream from `seed` on `n` flows of `p`, from the
/// model. Line 0 is the power-up reset (expected: the Verilog's initial zeros; eligible,
/// no debt); the model starts in the cycle after it. One flow: the `dcqcn_flow` ports;
/// more: the `dcqcn_flows<N>` ports.
fn vectors(p: &Params, n: usize, max_flits: u32, seed: u64, cycles: u64, path: &Path) -> Coverage {
    let mut port = Port::new(*p, n);
    let mut stream = Stream::new(max_flits, seed);
    let mut cov = Coverage::default();
    let mut text = if n == 1 {
        String::from(
            "# reset cnp start flits | rc rt alpha eligible limited err_early (hex)\n\
             1 0 0 0 0 0 0 1 0 0\n",
        )
    } else {
        format!(
            "# reset cnp cnp_flow start start_flow flits | eligible limited err_early (hex)\n\
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
                "{:x} {:x} {:x} {:x} {:x} {:x} {:x} {:x} {:x} {:x}",
                b(reset),
                b(ev.cnp.is_some()),
                b(ev.start.is_some()),
                flits,
                o.rc[0],
                o.rt[0],
                o.alpha[0],
                o.eligible,
                o.limited,
                b(o.early)
            )
            .unwrap();
        } else {
            writeln!(
                text,
                "{:x} {:x} {:x} {:x} {:x} {:x} {:x} {:x} {:x}",
                b(reset),
                b(ev.cnp.is_some()),
                ev.cnp.unwrap_or(0),
                b(ev.start.is_some()),
                si,
                flits,
                o.eligible,
                o.limited,
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
fn one_flow_matches_model(name: &str, p: Params, max_flits: u32, seed: u64, recovers: bool) {
    verilator::require_tools(name, &[verilator::VERILATOR]);
    let dir = work().join(name);
    let v = export(dcqcn_verilog(&p, TOP_DCQCN), TOP_DCQCN, &dir, None);
    let exe = replay_exe(name, &v, TOP_DCQCN);
    let vec = dir.join("vectors.txt");
    let cov = vectors(&p, 1, max_flits, seed, CYCLES, &vec);
    cov.check_the_rules_ran(recovers);
    let (r, log) = verilator::replay(&exe, &vec).unwrap();
    eprintln!("{name}:\n  verilator {r:?}, {cov:?}");
    assert_eq!(r.cycles, CYCLES, "{log}");
    assert_eq!(
        r.mismatches, 0,
        "the Verilog differs from the model:\n{log}"
    );
}

#[test]
fn verilator_matches_model_quick() {
    one_flow_matches_model("quick", quick(), 64, 0xDC9C_1001, true);
}

#[test]
fn verilator_matches_model_four_flows_steep() {
    // The extremes (g = 1/2, R_HAI the whole line, the floor 1 unit, 5-cycle timers) on
    // the N-flow block: the Verilog's widths and the flow multiplexers at once.
    let name = "flows4";
    verilator::require_tools(name, &[verilator::VERILATOR]);
    let (p, n, seed) = (steep(), 4, 0xDC9C_1004);
    let top = dcqcn_flows_top(n);
    let dir = work().join(name);
    let v = export(dcqcn_flows_verilog(&p, n), &top, &dir, Some(FLOWS_WAIVERS));
    let exe = replay_exe(name, &v, &top);
    let vec = dir.join("vectors.txt");
    let cov = vectors(&p, n, 127, seed, CYCLES, &vec);
    cov.check_the_rules_ran(true);
    let (r, log) = verilator::replay(&exe, &vec).unwrap();
    eprintln!("{name}:\n  verilator {r:?}, {cov:?}");
    assert_eq!(r.cycles, CYCLES, "{log}");
    assert_eq!(
        r.mismatches, 0,
        "the Verilog differs from the model:\n{log}"
    );
}

#[test]
fn the_export_is_the_papers() {
    let v = pft_hdl::dcqcn::verilog::paper_flow(None);
    assert!(v.contains(&format!("module {TOP_DCQCN}(")));
    assert!(v.contains("output reg  [15:0] rc;"), "{v}");
    assert!(v.contains("input wire  [6:0] flits;"));
    // the timers' periods (10,742 cycles) in 14 bits
    assert!(v.contains(&format!("14'b{:014b}", 10742)));
}

/// Broken copies of the quick configuration's Verilog (text in the export, replacement):
/// the cut by alpha instead of alpha/2, alpha's decay truncated instead of rounded (in the
/// register only), the rate timer reloading the alpha timer's period.
const MUTANTS: [(&str, &str, &str); 3] = [
    (
        "cut-by-alpha",
        "high = rounded >> 32'h10;",
        "high = rounded >> 32'hf;",
    ),
    (
        "decay-truncates",
        "sum_d = alpha_q$q + half;",
        "sum_d = alpha_q$q;",
    ),
    (
        "rate-timer-alpha-period",
        "rate_timer$value = rate_value;",
        "rate_timer$value = alpha_value;",
    ),
];

#[test]
fn verilator_catches_broken_verilog() {
    verilator::require_tools("verilator_catches_broken_verilog", &[verilator::VERILATOR]);
    let (p, seed) = (quick(), 0xDC9C_1001);
    let dir = work().join("mutants");
    let good = export(dcqcn_verilog(&p, TOP_DCQCN), TOP_DCQCN, &dir, None);
    let vec = dir.join("vectors.txt");
    vectors(&p, 1, 64, seed, CYCLES, &vec);
    // Built side by side (the builds are most of this test's time).
    let results: Vec<_> = std::thread::scope(|sc| {
        let jobs: Vec<_> = MUTANTS
            .iter()
            .map(|&(name, from, to)| {
                let (good, dir, vec) = (&good, &dir, &vec);
                sc.spawn(move || {
                    let bad =
                        verilator::mutant(good, from, to, &dir.join(format!("{name}.v"))).unwrap();
                    let exe = replay_exe(&format!("mutant-{name}"), &bad, TOP_DCQCN);
                    (name, verilator::replay(&exe, vec).unwrap())
                })
            })
            .collect();
        jobs.into_iter().map(|j| j.join().unwrap()).collect()
    });
    for (name, (r, log)) in results {
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

/// iverilog, the second simulator, on the first IVERILOG_CYCLES vectors of both blocks
/// (the same vectors as Verilator's): every output every cycle. rust-hdl's Verilog once
/// looped iverilog's event scheduler without end here (a CNP and a start in one cycle: a
/// value written twice in one evaluation fed back between two blocks; not a logic loop,
/// Verilator ran it).
#[test]
fn iverilog_matches_model() {
    verilator::require_tools("iverilog_matches_model", &[verilator::IVERILOG]);
    const IVERILOG_CYCLES: u64 = 20_000;
    for (name, p, n, seed) in [
        ("iverilog1", quick(), 1usize, 0xDC9C_1001u64),
        ("iverilog4", steep(), 4, 0xDC9C_1004),
    ] {
        let dir = work().join(name);
        let (v, top) = if n == 1 {
            (dcqcn_verilog(&p, TOP_DCQCN), TOP_DCQCN.to_string())
        } else {
            (dcqcn_flows_verilog(&p, n), dcqcn_flows_top(n))
        };
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join(format!("{top}.v"));
        std::fs::write(&f, v).unwrap();
        let vec = dir.join("vectors.txt");
        let cov = vectors(
            &p,
            n,
            if n == 1 { 64 } else { 127 },
            seed,
            IVERILOG_CYCLES,
            &vec,
        );
        assert!(
            cov.cnp_and_start > 0,
            "{name}: no CNP and start in one cycle"
        );
        // (every vector: the file holds IVERILOG_CYCLES)
        let all = IVERILOG_CYCLES as usize;
        verilator::assert_iverilog_prefix(&f, &top, &vec, all, &dir.join("obj"));
    }
}
