//! The exported Verilog against the rust-hdl RTL: vectors recorded from the rust-hdl run are
//! replayed under Verilator (100,000 cycles per mode) and iverilog, every output compared
//! every cycle. Mutants of the Verilog must be caught, or the comparison proves nothing.
//! The rust-hdl RTL runs once per build and mode; every shorter replay takes a prefix of it.

use pft_hdl::stepper::RtlStepper;
use pft_tb::stimulus::{self, Mode};
use pft_tb::{vectors, verilator};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

const VERILATOR_CYCLES: u64 = 100_000;
const IVERILOG_CYCLES: u64 = 40_000;
/// The pipelined build under iverilog (about 2,400 cycles a second there): Verilator replays it for
/// VERILATOR_CYCLES per mode, iverilog is the second simulator's view.
const IVERILOG_CYCLES_PIPELINED: u64 = 10_000;

fn work() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("tb_verilog")
}

/// The exported Verilog, written once per test run.
fn verilog() -> &'static Path {
    static V: OnceLock<PathBuf> = OnceLock::new();
    V.get_or_init(|| {
        let dir = work();
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("pft_injector.v");
        std::fs::write(&p, pft_hdl::verilog::pft_injector_verilog()).unwrap();
        p
    })
}

/// The two builds whose rust-hdl RTL records vectors.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Build {
    Default,
    Pipelined,
}

/// Vectors of `cycles` cycles of `build`'s rust-hdl RTL under `mode`, from the stimulus seed
/// of that build and mode. The RTL runs once per build and mode, for VERILATOR_CYCLES cycles
/// (the most any test replays); a shorter file is the first `cycles` lines of that one, which
/// a shorter run of the same deterministic RTL and stimulus would write line for line.
/// Files are written once and only read afterwards, so the tests, run in parallel, share them.
fn recorded(build: Build, mode: Mode, cycles: u64) -> PathBuf {
    assert!(cycles <= VERILATOR_CYCLES);
    type Key = (Build, &'static str, u64);
    type Files = Mutex<HashMap<Key, Arc<OnceLock<PathBuf>>>>;
    static FILES: OnceLock<Files> = OnceLock::new();
    let cell = FILES
        .get_or_init(Default::default)
        .lock()
        .unwrap()
        .entry((build, mode.name(), cycles))
        .or_default()
        .clone();
    // Outside the map's lock: other builds and modes record at the same time.
    cell.get_or_init(|| {
        let prefix = match build {
            Build::Default => "",
            Build::Pipelined => "pipelined-",
        };
        std::fs::create_dir_all(work()).unwrap();
        let p = work().join(format!("{prefix}{}-{cycles}.vec", mode.name()));
        if cycles == VERILATOR_CYCLES {
            match build {
                Build::Default => {
                    let mut rtl = RtlStepper::new();
                    vectors::record(&mut rtl, mode, 0xC0DE_0000 + mode as u64, cycles, &p)
                }
                Build::Pipelined => {
                    let mut rtl = pft_hdl::stepper::RtlStepperPipelined::new();
                    vectors::record(&mut rtl, mode, 0xC1DE_0000 + mode as u64, cycles, &p)
                }
            }
            .unwrap();
        } else {
            let full = std::fs::read_to_string(recorded(build, mode, VERILATOR_CYCLES)).unwrap();
            let lines: String = full.split_inclusive('\n').take(cycles as usize).collect();
            assert_eq!(lines.lines().count() as u64, cycles);
            std::fs::write(&p, lines).unwrap();
        }
        p
    })
    .clone()
}

fn replay_exe() -> &'static Path {
    static E: OnceLock<PathBuf> = OnceLock::new();
    E.get_or_init(|| {
        verilator::build_replay(verilog(), "pft_injector", &work().join("obj_replay")).unwrap()
    })
}

fn verilator_mode(mode: Mode) {
    // the replayed stimulus exercises packet gating and the RI widths (counted on the model)
    stimulus::feature_coverage(mode, 0xC0DE_0000 + mode as u64, VERILATOR_CYCLES)
        .check(mode)
        .unwrap();
    let vec = recorded(Build::Default, mode, VERILATOR_CYCLES);
    let (r, log) = verilator::replay(replay_exe(), &vec).unwrap();
    eprintln!("{}: verilator {r:?}", mode.name());
    assert_eq!(r.cycles, VERILATOR_CYCLES, "{log}");
    assert_eq!(r.mismatches, 0, "Verilog differs from rust-hdl:\n{log}");
}

#[test]
fn verilator_matches_rtl_ft_fi() {
    verilator_mode(Mode::FtFi);
}
#[test]
fn verilator_matches_rtl_ft_ri() {
    verilator_mode(Mode::FtRi);
}
#[test]
fn verilator_matches_rtl_at_fi() {
    verilator_mode(Mode::AtFi);
}
#[test]
fn verilator_matches_rtl_at_ri() {
    verilator_mode(Mode::AtRi);
}

#[test]
fn iverilog_matches_rtl_all_modes() {
    let vvp = verilator::build_iverilog(verilog(), &work().join("iverilog")).unwrap();
    for mode in Mode::ALL {
        let vec = recorded(Build::Default, mode, IVERILOG_CYCLES);
        let (r, log) = verilator::replay_iverilog(&vvp, &vec).unwrap();
        eprintln!("{}: iverilog {r:?}", mode.name());
        assert_eq!(r.cycles, IVERILOG_CYCLES, "{log}");
        assert_eq!(r.mismatches, 0, "Verilog differs from rust-hdl:\n{log}");
    }
}

/// Deliberately broken Verilog: each mutation must make the replay report mismatches.
/// (text in the generated Verilog, replacement, the mode that exercises it)
pub const MUTANTS: [(&str, &str, &str, Mode); 5] = [
    (
        "fi-off-by-one",
        "sum33 = ((level) & 33'h1ffffffff) + ((not_operand) & 33'h1ffffffff);",
        "sum33 = ((level) & 33'h1ffffffff) + ((not_operand) & 33'h1ffffffff) + 33'h1;",
        Mode::AtFi,
    ),
    (
        "xorshift-13-to-12",
        "s1 = state$q << 32'hd;",
        "s1 = state$q << 32'hc;",
        Mode::FtRi,
    ),
    (
        "gating-ignored",
        "pass = throttle_ok | (csr$gate_packet & ~flit_head);",
        "pass = throttle_ok;",
        Mode::AtRi,
    ),
    (
        "r-width-ignored",
        "operand = r & mask;",
        "operand = r;",
        Mode::FtRi,
    ),
    (
        "credit-check-le",
        "credit_ok = count$q < credit_limit;",
        "credit_ok = count$q <= credit_limit;",
        Mode::FtFi,
    ),
];

fn mutant(name: &str, from: &str, to: &str) -> PathBuf {
    let out = work().join(format!("mutant-{name}.v"));
    verilator::mutant(verilog(), from, to, &out).unwrap()
}

#[test]
fn verilator_catches_broken_verilog() {
    let (name, from, to, mode) = MUTANTS[0];
    let exe = verilator::build_replay(
        &mutant(name, from, to),
        "pft_injector",
        &work().join(format!("obj_{name}")),
    )
    .unwrap();
    let vec = recorded(Build::Default, mode, VERILATOR_CYCLES);
    let (r, log) = verilator::replay(&exe, &vec).unwrap();
    eprintln!("mutant {name}: {r:?}\n{log}");
    assert!(
        r.mismatches > 0,
        "mutant {name} survived: the Verilog comparison is blind to it"
    );
}

#[test]
fn iverilog_catches_broken_verilog() {
    for (name, from, to, mode) in MUTANTS {
        let vvp =
            verilator::build_iverilog(&mutant(name, from, to), &work().join(format!("iv_{name}")))
                .unwrap();
        let vec = recorded(Build::Default, mode, IVERILOG_CYCLES);
        let (r, _) = verilator::replay_iverilog_until_mismatch(&vvp, &vec).unwrap();
        eprintln!("mutant {name}: {r:?}");
        assert!(r.mismatches > 0, "mutant {name} survived");
        assert_eq!(
            r.mismatches, 1,
            "mutant {name}: +first stops at the first mismatch"
        );
    }
}

// ---- The pipelined build: its exported Verilog against its rust-hdl RTL ----

const TOP_PIPELINED: &str = pft_hdl::verilog::TOP_PIPELINED;

/// The exported Verilog of the pipelined build, written once per test run.
fn verilog_pipelined() -> &'static Path {
    static V: OnceLock<PathBuf> = OnceLock::new();
    V.get_or_init(|| {
        let dir = work();
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("pft_injector_pipelined.v");
        let v = pft_hdl::verilog::verilog_of(pft_hdl::verilog::Build::Pipelined);
        assert!(v.contains(&format!("module {TOP_PIPELINED}(")));
        std::fs::write(&p, v).unwrap();
        p
    })
}

#[test]
fn pipelined_verilator_matches_rtl_all_modes() {
    let exe = verilator::build_replay(
        verilog_pipelined(),
        TOP_PIPELINED,
        &work().join("obj_replay_pipelined"),
    )
    .unwrap();
    for mode in Mode::ALL {
        let vec = recorded(Build::Pipelined, mode, VERILATOR_CYCLES);
        let (r, log) = verilator::replay(&exe, &vec).unwrap();
        eprintln!("pipelined {}: verilator {r:?}", mode.name());
        assert_eq!(r.cycles, VERILATOR_CYCLES, "{log}");
        assert_eq!(r.mismatches, 0, "Verilog differs from rust-hdl:\n{log}");
    }
}

#[test]
fn pipelined_iverilog_matches_rtl_all_modes() {
    let vvp = verilator::build_iverilog_top(
        verilog_pipelined(),
        TOP_PIPELINED,
        &work().join("iverilog_pipelined"),
    )
    .unwrap();
    for mode in Mode::ALL {
        let vec = recorded(Build::Pipelined, mode, IVERILOG_CYCLES_PIPELINED);
        let (r, log) = verilator::replay_iverilog(&vvp, &vec).unwrap();
        eprintln!("pipelined {}: iverilog {r:?}", mode.name());
        assert_eq!(r.cycles, IVERILOG_CYCLES_PIPELINED, "{log}");
        assert_eq!(r.mismatches, 0, "Verilog differs from rust-hdl:\n{log}");
    }
}

/// Broken copies of the pipelined Verilog that the replay must catch: the precomputed FI
/// compare off by one, the RI look-ahead one step behind (r(t+1) compared where r(t+2)
/// belongs), and the RI compare's low half off by one.
pub const MUTANTS_PIPELINED: [(&str, &str, &str, Mode); 3] = [
    (
        "pipelined-fi-off-by-one",
        "idle_ok = hi_zero & (gap_inc$q >= lvl_lo);",
        "idle_ok = hi_zero & (gap_inc$q > lvl_lo);",
        Mode::FtFi,
    ),
    (
        "pipelined-ri-look-ahead-stale",
        "ahead_masked$d = x3 & mask_next;",
        "ahead_masked$d = r_next & mask_next;",
        Mode::FtRi,
    ),
    (
        "pipelined-ri-low-half-off-by-one",
        "a_ge = (a_hi > lvl_hi) | ((a_hi >= lvl_hi) & (a_lo >= lvl_lo));",
        "a_ge = (a_hi > lvl_hi) | ((a_hi >= lvl_hi) & (a_lo > lvl_lo));",
        Mode::AtRi,
    ),
];

#[test]
fn pipelined_iverilog_catches_broken_verilog() {
    for (name, from, to, mode) in MUTANTS_PIPELINED {
        let out = work().join(format!("mutant-{name}.v"));
        let p = verilator::mutant(verilog_pipelined(), from, to, &out).unwrap();
        let vvp =
            verilator::build_iverilog_top(&p, TOP_PIPELINED, &work().join(format!("iv_{name}")))
                .unwrap();
        let vec = recorded(Build::Pipelined, mode, IVERILOG_CYCLES);
        let (r, _) = verilator::replay_iverilog_until_mismatch(&vvp, &vec).unwrap();
        eprintln!("mutant {name}: {r:?}");
        assert!(r.mismatches > 0, "mutant {name} survived");
        assert_eq!(
            r.mismatches, 1,
            "mutant {name}: +first stops at the first mismatch"
        );
    }
}
