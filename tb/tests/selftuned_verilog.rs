//! The exported Verilog of the self-tuned throttle's node (`selftuned_node`, seed 003)
//! against its reference model (`pft_hdl::selftuned::model`), cycle by cycle under
//! Verilator: vectors are written from the model (inputs and every output: inhibit,
//! threshold, margin = estimate*g - T*g) and replayed on the Verilog of several parameter
//! sets, 100,000 cycles each. Each parameter set's Verilog also passes `verilator
//! --lint-only -Wall` with the project's waivers. Broken copies of the Verilog must be
//! caught, or the comparison proves nothing. Fails, naming the tool, when `verilator` or
//! `iverilog` does not run.

use pft_hdl::selftuned::model::{Params, SelfTuned};
use pft_hdl::selftuned::verilog::{selftuned_verilog, TOP_SELFTUNED};
use pft_hdl::selftuned::SEED;
use pft_tb::verilator;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use selftuned_stimulus::{Coverage, SnapshotStream, G48, ODD_CONSTANTS, WIDEST};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use pft_test_support::stimulus::selftuned as selftuned_stimulus;

const CYCLES: u64 = 100_000;
const MARGIN_MASK: i64 = (1 << 27) - 1;

fn work() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("selftuned_verilog")
}

/// The Verilog `v` of `p` in `dir`, linted like synth/check_verilog.sh does (`-Wall`, the
/// project's waivers only).
fn export(v: String, p: &Params, dir: &Path) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    assert!(v.contains(&format!("module {TOP_SELFTUNED}(")));
    let f = dir.join(format!("{TOP_SELFTUNED}.v"));
    std::fs::write(&f, v).unwrap();
    let waivers = Path::new(env!("CARGO_MANIFEST_DIR")).join("../synth/lint/verilator_waivers.vlt");
    let o = Command::new("verilator")
        .args(["--lint-only", "-Wall", "--top-module", TOP_SELFTUNED])
        .arg(&waivers)
        .arg(&f)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "verilator --lint-only -Wall on {p:?}:\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    f
}

/// Vectors of `cycles` cycles from the model: line 0 is a power-up reset (expected outputs:
/// the Verilog's `initial` zeros), then `p`'s stream from `seed` (its first snapshot in
/// cycles 1..=g, its flits starting at half the most a snapshot may carry).
fn vectors(p: &Params, seed: u64, cycles: u64, path: &Path) -> Coverage {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let first_snap = rng.gen_range(1..=p.g) as u64;
    let mut stream = SnapshotStream::new(*p, rng, first_snap, 0.5);
    let mut m = SelfTuned::new(*p);
    let mut cov = Coverage::default();
    let mut text = String::from(
        "# reset snap_valid snap_full snap_flits inhibit threshold margin (hex)\n1 0 0 0 0 0 0\n",
    );
    for t in 1..cycles {
        let (reset, snap) = stream.cycle(t, &m);
        let before = m;
        let o = if reset {
            let o = m.outputs();
            m = SelfTuned::new(*p);
            o
        } else {
            m.step(snap)
        };
        let margin = (o.estimate_g - o.threshold as i64 * p.g as i64) & MARGIN_MASK;
        let s = snap.unwrap_or_default();
        writeln!(
            text,
            "{:x} {:x} {:x} {:x} {:x} {:x} {:x}",
            reset as u8,
            snap.is_some() as u8,
            s.full,
            s.flits,
            o.inhibit as u8,
            o.threshold,
            margin
        )
        .unwrap();
        cov.count(&before, &m, reset, snap, o);
    }
    std::fs::write(path, text).unwrap();
    cov
}

fn replay_exe(name: &str, verilog: &Path) -> PathBuf {
    verilator::build_replay(verilog, TOP_SELFTUNED, &work().join(format!("obj_{name}"))).unwrap()
}

/// Export, lint, build and replay `p`; every output must match in every cycle.
fn verilator_matches_model(name: &str, p: Params, seed: u64) {
    verilog_matches_model(name, selftuned_verilog(&p), p, seed);
}

/// `verilator_matches_model` on the Verilog `verilog` of `p`.
fn verilog_matches_model(name: &str, verilog: String, p: Params, seed: u64) {
    verilator::require_tools(name, &[verilator::VERILATOR, verilator::IVERILOG]);
    let dir = work().join(name);
    let v = export(verilog, &p, &dir);
    let exe = replay_exe(name, &v);
    let vec = dir.join("vectors.txt");
    let cov = vectors(&p, seed, CYCLES, &vec);
    cov.check_the_rules_ran(&p, CYCLES);
    assert!(cov.edges > 2, "{cov:?}");
    let (r, log) = verilator::replay(&exe, &vec).unwrap();
    eprintln!("{name}: {p:?}\n  verilator {r:?}, {cov:?}");
    assert_eq!(r.cycles, CYCLES, "{log}");
    assert_eq!(
        r.mismatches, 0,
        "the Verilog differs from the model:\n{log}"
    );
    // the second simulator on the first 20,000 of the same vectors
    verilator::assert_iverilog_prefix(&v, TOP_SELFTUNED, &vec, 20_000, &dir.join("iverilog"));
}

#[test]
fn verilator_matches_model_at_the_study_toruss_constants() {
    // `pftsim verilog scenarios/study/torus.toml --cc selftuned`: the constants its 768
    // buffers derive (docs/hardware.md, "A scenario's constants"), not the seed's
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scenarios/study/torus.toml");
    let sc = pft_sim::scenario::Scenario::load(&path).unwrap();
    let e = pft_sim::cc::export::export_entry(&sc, "selftuned", None, None).unwrap();
    let pft_sim::cc::export::RtlParams::SelfTuned(p) = e.params else {
        panic!("not the self-tuned node: {:?}", e.params)
    };
    assert_eq!(
        (p.g, p.periods, p.t_init, p.inc, p.dec, p.t_ceiling),
        (16, 6, 7, 7, 30, 768)
    );
    verilog_matches_model("scenario-study-torus", e.verilog, p, 0x5E1F_1006);
}

#[test]
fn verilator_matches_model_seed_config() {
    verilator_matches_model("seed", SEED, 0x5E1F_1001);
}

#[test]
fn verilator_matches_model_g48() {
    verilator_matches_model("g48", G48, 0x5E1F_1002);
}

#[test]
fn verilator_matches_model_g48_previous_snapshot_no_local_maxima_reset() {
    verilator_matches_model(
        "g48-previous-noreset",
        Params {
            reset_pct: 0,
            linear: false,
            ..G48
        },
        0x5E1F_1003,
    );
}

#[test]
fn verilator_matches_model_odd_constants() {
    verilator_matches_model("odd", ODD_CONSTANTS, 0x5E1F_1004);
}

#[test]
fn verilator_matches_model_widest() {
    // g = 256 (a 9-bit constant), one snapshot per period, the full 16-bit T range; r = 1
    verilator_matches_model("widest", Params { r: 1, ..WIDEST }, 0x5E1F_1005);
}

/// Broken copies of the seed configuration's Verilog (text in the export, replacement):
/// the extrapolation's step sign, the drop rule's compare, the age's saturation.
const MUTANTS: [(&str, &str, &str); 3] = [
    (
        "slope-subtracted",
        "margin_q$d = margin_q$q + slope_w;",
        "margin_q$d = margin_q$q - slope_w;",
    ),
    (
        "drop-le",
        "dropped = mul_bw_drop$y < mul_prev$y;",
        "dropped = mul_bw_drop$y <= mul_prev$y;",
    ),
    (
        "age-never-saturates",
        "else if (age$q != age_max) begin",
        "else if (1'b1) begin",
    ),
];

#[test]
fn verilator_catches_broken_verilog() {
    verilator::require_tools("verilator_catches_broken_verilog", &[verilator::VERILATOR]);
    let dir = work().join("mutants");
    let good = export(selftuned_verilog(&SEED), &SEED, &dir);
    let vec = dir.join("vectors.txt");
    vectors(&SEED, 0x5E1F_1001, CYCLES, &vec);
    for (name, from, to) in MUTANTS {
        let bad = verilator::mutant(&good, from, to, &dir.join(format!("{name}.v"))).unwrap();
        let exe = replay_exe(&format!("mutant-{name}"), &bad);
        let (r, _) = verilator::replay(&exe, &vec).unwrap();
        eprintln!("mutant {name}: {r:?}");
        assert!(
            r.mismatches > 0,
            "mutant {name} survived: the comparison is blind to it"
        );
    }
}
