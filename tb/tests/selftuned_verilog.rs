//! The exported Verilog of the self-tuned throttle's node (`selftuned_node`, seed 003)
//! against its reference model (`pft_hdl::selftuned::model`), cycle by cycle under
//! Verilator: vectors are written from the model (inputs and every output: inhibit,
//! threshold, margin = estimate*g - T*g) and replayed on the Verilog of several parameter
//! sets, 100,000 cycles each. Each parameter set's Verilog also passes `verilator
//! --lint-only -Wall` with the project's waivers. Broken copies of the Verilog must be
//! caught, or the comparison proves nothing. Skips, saying so, only when `verilator` is
//! not on PATH.

use pft_hdl::selftuned::model::{Params, SelfTuned, Snapshot, BW_BITS};
use pft_hdl::selftuned::SEED;
use pft_hdl::verilog::{selftuned_verilog, TOP_SELFTUNED};
use pft_tb::verilator;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

const CYCLES: u64 = 100_000;
const MARGIN_MASK: i64 = (1 << 27) - 1;

fn work() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("selftuned_verilog")
}

/// False, with a message on stderr, when verilator is absent (the test then passes empty).
fn have_verilator(test: &str) -> bool {
    if verilator::available() {
        return true;
    }
    eprintln!(
        "SKIPPED {test}: `verilator --version` does not run; install verilator \
         (apt-get install verilator) to compare the exported Verilog with the model"
    );
    false
}

/// The Verilog of `p` in `dir`, linted like synth/check_verilog.sh does (`-Wall`, the
/// project's waivers only).
fn export(p: &Params, dir: &Path) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let v = selftuned_verilog(p);
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

/// Events of a run, counted on the model: the stream must exercise the rules.
#[derive(Debug, Default)]
struct Coverage {
    inhibit: u64,
    t_down: u64,
    t_up: u64,
    local_resets: u64,
    max_cleared: u64,
    negative: u64,
    /// Periods that end exactly on a rule's edge: `bw * 100 == pct * bw_prev` (or `max_bw`).
    edges: u64,
}

/// Vectors of `cycles` cycles from the model: line 0 is a power-up reset (expected outputs:
/// the Verilog's `initial` zeros), then snapshots every g cycles (sometimes early, late or
/// missing), full counts near T (so the gate toggles), on walks and at the extremes; flits
/// in regimes that rise and fall, each period's sum below 2^24; rare resets.
fn vectors(p: &Params, seed: u64, cycles: u64, path: &Path) -> Coverage {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut m = SelfTuned::new(*p);
    let mut cov = Coverage::default();
    let mut text = String::from(
        "# reset snap_valid snap_full snap_flits inhibit threshold margin (hex)\n1 0 0 0 0 0 0\n",
    );
    let flits_max = ((1u32 << BW_BITS) - 1) / p.periods;
    let mut next_snap = rng.gen_range(1..=p.g) as u64;
    let (mut full, mut slope, mut regime) = (p.t_init, 0i64, 0.5f64);
    for t in 1..cycles {
        let reset = rng.gen_bool(2e-4);
        let mut snap = None;
        if t == next_snap {
            next_snap += p.g as u64;
            let r: f64 = rng.gen();
            if r < 0.02 {
                next_snap += rng.gen_range(1..=3 * p.g as u64);
            } else if r < 0.04 && p.g > 1 {
                next_snap -= rng.gen_range(1..p.g as u64);
            }
            let mode: f64 = rng.gen();
            let f = if mode < 0.6 {
                if rng.gen_bool(0.3) {
                    slope = rng.gen_range(-60..=60);
                }
                m.t as i64 + slope + rng.gen_range(-40..=40)
            } else if mode < 0.9 {
                full as i64 + rng.gen_range(-300..=300)
            } else if mode < 0.95 {
                0
            } else {
                rng.gen_range(0..=65_535)
            };
            full = f.clamp(0, 65_535) as u32;
            if rng.gen_bool(0.08) {
                regime = (regime * rng.gen_range(0.2..1.8)).clamp(0.0, 1.0);
                if rng.gen_bool(0.1) {
                    regime = rng.gen_range(0.0..1.0);
                }
            }
            let mut flits = ((regime * rng.gen_range(0.9..1.1)).min(1.0) * flits_max as f64) as u32;
            if m.in_period + 1 >= p.periods && rng.gen_bool(0.15) {
                flits = boundary_flits(&m, &mut rng).unwrap_or(flits);
            }
            snap = Some(Snapshot {
                full,
                flits: flits.min(flits_max),
            });
        }
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
        cov.inhibit += o.inhibit as u64;
        cov.negative += (o.estimate_g < 0) as u64;
        if !reset && snap.is_some() && before.in_period + 1 >= p.periods {
            cov.t_down += (m.t < before.t) as u64;
            cov.t_up += (m.t > before.t) as u64;
            cov.local_resets += (m.resets > before.resets) as u64;
            cov.max_cleared += (before.max_bw > 0 && m.max_bw == 0) as u64;
            let bw100 = (before.bw_acc + snap.unwrap_or_default().flits) as u64 * 100;
            cov.edges += (bw100 == p.drop_pct as u64 * before.bw_prev as u64
                || bw100 == p.reset_pct as u64 * before.max_bw as u64)
                as u64;
        }
    }
    std::fs::write(path, text).unwrap();
    cov
}

/// Flits that put a period's `bw` on a rule's edge: `bw * 100` equal to `pct * bw_prev`
/// (or `pct * max_bw`), or one flit either side, when the period's flits so far allow it.
fn boundary_flits(m: &SelfTuned, rng: &mut impl Rng) -> Option<u32> {
    let (base, pct) = if rng.gen_bool(0.5) {
        (m.bw_prev, m.p.drop_pct)
    } else {
        (m.max_bw, m.p.reset_pct)
    };
    let edge = (base as u64 * pct as u64).div_ceil(100) as i64 + rng.gen_range(-1..=1);
    let flits = edge - m.bw_acc as i64;
    (0..=((1i64 << BW_BITS) - 1) / m.p.periods as i64)
        .contains(&flits)
        .then_some(flits as u32)
}

fn replay_exe(name: &str, verilog: &Path) -> PathBuf {
    verilator::build_prefixed(
        verilog,
        TOP_SELFTUNED,
        "Vselftuned_node",
        "selftuned_replay.cpp",
        &work().join(format!("obj_{name}")),
    )
    .unwrap()
}

/// Export, lint, build and replay `p`; every output must match in every cycle.
fn verilator_matches_model(name: &str, p: Params, seed: u64) {
    if !have_verilator(name) {
        return;
    }
    let dir = work().join(name);
    let exe = replay_exe(name, &export(&p, &dir));
    let vec = dir.join("vectors.txt");
    let cov = vectors(&p, seed, CYCLES, &vec);
    assert!(
        cov.inhibit > CYCLES / 50 && cov.inhibit < CYCLES * 49 / 50,
        "{cov:?}"
    );
    assert!(cov.t_down > 5 && cov.t_up > 5 && cov.edges > 2, "{cov:?}");
    if p.reset_pct > 0 {
        // (with r = 1 every local-maxima reset clears the maximum at once)
        assert!(
            cov.local_resets + cov.max_cleared > 5 && cov.max_cleared > 0,
            "{cov:?}"
        );
    }
    let (r, log) = verilator::replay(&exe, &vec).unwrap();
    eprintln!("{name}: {p:?}\n  verilator {r:?}, {cov:?}");
    assert_eq!(r.cycles, CYCLES, "{log}");
    assert_eq!(
        r.mismatches, 0,
        "the Verilog differs from the model:\n{log}"
    );
}

#[test]
fn verilator_matches_model_seed_config() {
    verilator_matches_model("seed", SEED, 0x5E1F_1001);
}

#[test]
fn verilator_matches_model_g48() {
    verilator_matches_model(
        "g48",
        Params {
            g: 48,
            periods: 2,
            ..SEED
        },
        0x5E1F_1002,
    );
}

#[test]
fn verilator_matches_model_g48_previous_snapshot_no_local_maxima_reset() {
    verilator_matches_model(
        "g48-previous-noreset",
        Params {
            g: 48,
            periods: 2,
            reset_pct: 0,
            linear: false,
            ..SEED
        },
        0x5E1F_1003,
    );
}

#[test]
fn verilator_matches_model_odd_constants() {
    verilator_matches_model(
        "odd",
        Params {
            g: 7,
            periods: 5,
            t_init: 500,
            inc: 1000,
            dec: 3,
            t_ceiling: 65_535,
            drop_pct: 90,
            reset_pct: 60,
            r: 2,
            linear: true,
        },
        0x5E1F_1004,
    );
}

#[test]
fn verilator_matches_model_widest() {
    // g = 256 (a 9-bit constant), one snapshot per period, the full 16-bit T range
    verilator_matches_model(
        "widest",
        Params {
            g: 256,
            periods: 1,
            t_init: 0,
            inc: 65_535,
            dec: 65_535,
            t_ceiling: 65_535,
            drop_pct: 100,
            reset_pct: 100,
            r: 1,
            linear: true,
        },
        0x5E1F_1005,
    );
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
    if !have_verilator("verilator_catches_broken_verilog") {
        return;
    }
    let dir = work().join("mutants");
    let good = export(&SEED, &dir);
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
