//! The hand-written reference Verilog (`synth/reference/pft_injector_ref.v`, the yardstick
//! the rust-hdl export is compared against in synthesis) against the plain-Rust reference
//! model: vectors recorded from `PftModel` (the project's stimulus, all four modes) are
//! replayed under Verilator (100,000 cycles per mode) and iverilog (40,000), every output
//! compared every cycle, plus 200,000 cycles of unconstrained inputs under Verilator.
//! Mutants of the reference must be caught, and the reference must lint clean with
//! `verilator --lint-only -Wall` (no waiver) and `iverilog -Wall`.

use pft_hdl::model::{Inputs, PftModel};
use pft_tb::stimulus::{self, Mode};
use pft_tb::{vectors, verilator};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

const VERILATOR_CYCLES: u64 = 100_000;
const IVERILOG_CYCLES: u64 = 40_000;
const RAW_CYCLES: u64 = 200_000;
const TOP: &str = "pft_injector_ref";
const REFERENCE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../synth/reference/pft_injector_ref.v"
);

fn reference() -> &'static Path {
    Path::new(REFERENCE)
}

fn work() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("tb_reference");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Stimulus seeds, distinct from tb_verilog.rs (0xC0DE_0000 + mode), chosen so that the
/// feature coverage check passes for every mode at 100,000 cycles.
fn seed(mode: Mode) -> u64 {
    0x5EF0_0030 + mode as u64
}

/// Vectors of `cycles` cycles of the reference model under `mode`, starting from its
/// all-zero power-up state, in a file private to `tag` (tests run in parallel).
fn vectors_for(tag: &str, mode: Mode, cycles: u64) -> PathBuf {
    let p = work().join(format!("{tag}-{}-{cycles}.vec", mode.name()));
    let mut model = PftModel::new();
    vectors::record(&mut model, mode, seed(mode), cycles, &p).unwrap();
    p
}

fn replay_exe() -> &'static Path {
    static E: OnceLock<PathBuf> = OnceLock::new();
    E.get_or_init(|| {
        verilator::build_replay_as(reference(), TOP, "pft_injector", &work().join("obj_replay"))
            .unwrap()
    })
}

fn verilator_mode(mode: Mode) {
    // the replayed stimulus exercises packet gating and the RI widths (counted on the model)
    stimulus::feature_coverage(mode, seed(mode), VERILATOR_CYCLES)
        .check(mode)
        .unwrap();
    let vec = vectors_for("verilator", mode, VERILATOR_CYCLES);
    let (r, log) = verilator::replay(replay_exe(), &vec).unwrap();
    eprintln!("{}: verilator {r:?}", mode.name());
    assert_eq!(r.cycles, VERILATOR_CYCLES, "{log}");
    assert_eq!(
        r.mismatches, 0,
        "reference Verilog differs from the model:\n{log}"
    );
}

#[test]
fn verilator_reference_matches_model_ft_fi() {
    verilator_mode(Mode::FtFi);
}
#[test]
fn verilator_reference_matches_model_ft_ri() {
    verilator_mode(Mode::FtRi);
}
#[test]
fn verilator_reference_matches_model_at_fi() {
    verilator_mode(Mode::AtFi);
}
#[test]
fn verilator_reference_matches_model_at_ri() {
    verilator_mode(Mode::AtRi);
}

#[test]
fn iverilog_reference_matches_model_all_modes() {
    let vvp = verilator::build_iverilog_top(reference(), TOP, &work().join("iverilog")).unwrap();
    for mode in Mode::ALL {
        let vec = vectors_for("iverilog", mode, IVERILOG_CYCLES);
        let (r, log) = verilator::replay_iverilog(&vvp, &vec).unwrap();
        eprintln!("{}: iverilog {r:?}", mode.name());
        assert_eq!(r.cycles, IVERILOG_CYCLES, "{log}");
        assert_eq!(
            r.mismatches, 0,
            "reference Verilog differs from the model:\n{log}"
        );
    }
}

/// Unconstrained inputs, beyond what the project's stimulus generates: any CSR write at
/// any time (SEED = 0, STATUS write-1-to-clear, counter clears, CTRL flipping every mode
/// and the gating, random SHAPE), flit_head at random, excess credit returns and resets.
/// The model is the judge; the first two cycles are resets, the rest is random from the
/// all-zero power-up state onwards.
#[test]
fn verilator_reference_matches_model_raw_inputs() {
    let p = work().join(format!("raw-{RAW_CYCLES}.vec"));
    let mut w = std::io::BufWriter::new(std::fs::File::create(&p).unwrap());
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0x5EF0_7A11);
    let mut model = PftModel::new();
    for cycle in 0..RAW_CYCLES {
        let csr_addr: u8 = rng.gen_range(0..16);
        let csr_wdata: u32 = match rng.gen_range(0..8) {
            0 => 0,
            1..=3 => rng.gen_range(0..=300),
            4 if csr_addr == 0x8 => rng.gen_range(0..=3) << 16 | rng.gen_range(0..=0x1F1F),
            _ => rng.gen(),
        };
        let i = Inputs {
            reset: cycle < 2 || rng.gen_ratio(1, 5_000),
            flit_valid: rng.gen_bool(0.8),
            flit_head: rng.gen_bool(0.5),
            credit_return: if rng.gen_ratio(1, 500) {
                rng.gen()
            } else {
                rng.gen_range(0..=1)
            },
            csr_we: rng.gen_ratio(1, 16),
            csr_addr,
            csr_wdata,
        };
        let o = model.step(&i);
        w.write_all(vectors::format_line(&i, &o).as_bytes())
            .unwrap();
    }
    w.flush().unwrap();
    drop(w);
    let (r, log) = verilator::replay(replay_exe(), &p).unwrap();
    eprintln!("raw inputs: verilator {r:?}");
    assert_eq!(r.cycles, RAW_CYCLES, "{log}");
    assert_eq!(
        r.mismatches, 0,
        "reference Verilog differs from the model:\n{log}"
    );
}

/// `verilator --lint-only -Wall` with no waiver at all, and `iverilog -Wall` silent.
#[test]
fn reference_lints_clean() {
    let out = Command::new("verilator")
        .args(["--lint-only", "-Wall", "--top-module", TOP])
        .arg(reference())
        .output()
        .expect("cannot run verilator");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "verilator -Wall failed:\n{text}");
    assert!(!text.contains("%Warning"), "verilator -Wall warns:\n{text}");

    let vvp = work().join("lint.vvp");
    let out = Command::new("iverilog")
        .args(["-g2005", "-Wall", "-o"])
        .arg(&vvp)
        .arg(reference())
        .output()
        .expect("cannot run iverilog");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.status.success() && text.trim().is_empty(),
        "iverilog -Wall:\n{text}"
    );
}

/// Deliberately broken copies of the reference: each must make the replay report
/// mismatches, or the comparison proves nothing. (name, text in the reference, replacement,
/// the mode that exercises it)
const MUTANTS: [(&str, &str, &str, Mode); 4] = [
    (
        "throttle-gt",
        "({16'd0, gate_value} >= level)",
        "({16'd0, gate_value} > level)",
        Mode::AtFi,
    ),
    (
        "xorshift-13-to-12",
        "r   ^ (r   << 13)",
        "r   ^ (r   << 12)",
        Mode::FtRi,
    ),
    (
        "at-flip-gt",
        "hit_tmp >= at_needed",
        "hit_tmp > at_needed",
        Mode::AtRi,
    ),
    (
        "gating-ignored",
        "throttle_ok | (gate_packet & ~flit_head)",
        "throttle_ok",
        Mode::FtFi,
    ),
];

fn mutant(name: &str, from: &str, to: &str) -> PathBuf {
    let out = work().join(format!("mutant-{name}.v"));
    verilator::mutant(reference(), from, to, &out).unwrap()
}

#[test]
fn iverilog_catches_broken_reference() {
    for (name, from, to, mode) in MUTANTS {
        let vvp = verilator::build_iverilog_top(
            &mutant(name, from, to),
            TOP,
            &work().join(format!("iv_{name}")),
        )
        .unwrap();
        let vec = vectors_for(&format!("mutant-{name}"), mode, IVERILOG_CYCLES);
        let (r, _) = verilator::replay_iverilog(&vvp, &vec).unwrap();
        eprintln!("mutant {name}: {r:?}");
        assert_eq!(r.cycles, IVERILOG_CYCLES);
        assert!(
            r.mismatches > 0,
            "mutant {name} survived: the comparison is blind to it"
        );
    }
}
