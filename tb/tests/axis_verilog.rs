//! The exported Verilog of `pft_axis` (64-bit data, `pft-verilog --design pft_axis`)
//! against its reference model (`pft_hdl::axis::model`), cycle by cycle under Verilator:
//! vectors of the model on the random streams of `pft_test_support::stimulus::axis`
//! (frames, back-pressure, credit link, pause, register traffic, resets) replayed through
//! the shared harness (`tb/verilator/replay_design.cpp`, the registry's ports), every
//! output every cycle, 100,000 cycles per seed. The file also lints alone under
//! `verilator --lint-only`. Broken copies of the Verilog must be caught. Fails, naming the tool,
//! when `verilator` (or, for the path check, `yosys`) does not run.

use pft_hdl::axis::model::AxisModel;
use pft_hdl::axis::verilog::{default_width, TOP};
use pft_tb::verilator;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use axis_stimulus::{Scoreboard, Stream, DEFAULT};
use pft_test_support::stimulus::axis as axis_stimulus;

const CYCLES: u64 = 100_000;

fn work() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("axis_verilog")
}

/// Vectors (inputs then outputs, hex, in `axis::verilog::IO`'s order) of the model.
fn vectors(seed: u64, path: &Path) -> Scoreboard {
    let mut m = AxisModel::new();
    let mut s = Stream::new(seed, DEFAULT);
    let mut sb = Scoreboard::default();
    let mut text = String::from("# pft_axis vectors: inputs | outputs (hex)\n");
    for t in 0..CYCLES {
        let i = s.next();
        let in_packet = m.in_packet;
        let o = m.step(&i);
        sb.check(t, &i, &o, in_packet);
        s.observe(&o);
        let b = |x: bool| x as u8;
        writeln!(
            text,
            "{:x} {:x} {:x} {:x} {:x} {:x} {:x} {:x} {:x} {:x} {:x} {:x} {:x} {:x} {:x} {:x} {:x} \
             {:x} {:x} {:x} {:x} {:x} {:x} {:x} {:x} {:x} {:x} {:x} {:x} {:x} {:x} {:x} {:x} \
             {:x} {:x} {:x} {:x}",
            b(i.rst),
            i.s_tdata[0],
            i.s_tkeep,
            b(i.s_tvalid),
            b(i.s_tlast),
            i.s_tuser,
            b(i.m_tready),
            i.awaddr,
            i.awprot,
            b(i.awvalid),
            i.wdata,
            i.wstrb,
            b(i.wvalid),
            b(i.bready),
            i.araddr,
            i.arprot,
            b(i.arvalid),
            b(i.rready),
            i.credit_return,
            b(i.pause),
            b(o.s_tready),
            o.m_tdata[0],
            o.m_tkeep,
            b(o.m_tvalid),
            b(o.m_tlast),
            o.m_tuser,
            b(o.awready),
            b(o.wready),
            o.bresp,
            b(o.bvalid),
            b(o.arready),
            o.rdata,
            o.rresp,
            b(o.rvalid),
            b(o.congested),
            b(o.throttled),
            o.used_credits
        )
        .unwrap();
    }
    std::fs::write(path, text).unwrap();
    sb
}

#[test]
fn verilog_matches_model_under_verilator() {
    verilator::require_tools(
        "verilog_matches_model_under_verilator",
        &[verilator::VERILATOR],
    );
    let dir = work();
    std::fs::create_dir_all(&dir).unwrap();
    let v = dir.join("pft_axis.v");
    std::fs::write(&v, default_width(None)).unwrap();
    let lint = Command::new("verilator")
        .args(["--lint-only", "--top-module", TOP])
        .arg(&v)
        .output()
        .unwrap();
    assert!(
        lint.status.success(),
        "verilator --lint-only on pft_axis.v alone:\n{}",
        String::from_utf8_lossy(&lint.stderr)
    );
    let exe = verilator::build_replay(&v, TOP, &dir.join("build")).unwrap();
    let mut vecs = Vec::new();
    for seed in [1u64, 2] {
        let p = dir.join(format!("vectors{seed}.txt"));
        let sb = vectors(seed, &p);
        assert!(sb.frames_out > 5_000 && sb.throttled > 1_000 && sb.resets > 5);
        let (r, out) = verilator::replay(&exe, &p).unwrap();
        assert_eq!(r.cycles, CYCLES);
        assert_eq!(r.mismatches, 0, "seed {seed}:\n{out}");
        vecs.push(p);
    }
    // Broken copies must be caught: the output register not draining and filling in one
    // cycle; SLVERR answered as OKAY; every beat treated as a packet's first (pause and
    // the throttle then stop packets in the middle).
    for (i, (from, to)) in [
        ("room = ~valid$q | m_tready;", "room = ~valid$q;"),
        ("b_resp$d = 32'h2;", "b_resp$d = 32'h0;"),
        ("started$d = ~s_tlast;", "started$d = 1'b0;"),
    ]
    .iter()
    .enumerate()
    {
        let mdir = dir.join(format!("mutant{i}"));
        std::fs::create_dir_all(&mdir).unwrap();
        let mv = verilator::mutant(&v, from, to, &mdir.join("pft_axis.v")).unwrap();
        let exe = verilator::build_replay(&mv, TOP, &mdir.join("build")).unwrap();
        let (r, _) = verilator::replay(&exe, &vecs[0]).unwrap();
        assert!(r.mismatches > 0, "mutant {from:?} -> {to:?} not caught");
        eprintln!(
            "mutant {i} ({from} -> {to}): {} mismatching cycles",
            r.mismatches
        );
    }
}

/// The ports of `pft_axis.v` on a combinational path from an input port of `ins` to an
/// output port of `outs` (yosys selections; yosys: the forward cone of the inputs, met by the backward cone of the
/// outputs, flip-flops stopping both).
fn combinational_ports(v: &Path, ins: &str, outs: &str, out: &Path) -> Vec<String> {
    let script = format!(
        "read_verilog {}; hierarchy -top {TOP}; proc; flatten; opt_clean; \
         tee -q -o {} select -list {ins} %coe* {outs} %cie* %i i:* o:* %u %i",
        v.display(),
        out.display()
    );
    let r = Command::new("yosys")
        .args(["-q", "-p", &script])
        .output()
        .unwrap();
    assert!(
        r.status.success(),
        "yosys:\n{}",
        String::from_utf8_lossy(&r.stderr)
    );
    let mut list: Vec<String> = std::fs::read_to_string(out)
        .unwrap()
        .lines()
        .map(|l| l.trim_start_matches(&format!("{TOP}/")).to_string())
        .collect();
    list.sort();
    list
}

/// AXI: no combinational path from an input to an output of the AXI4-Lite slave (its
/// readys are registers). The stream side is a pass-through, not a register slice:
/// `s_axis_tready` follows `m_axis_tready`, `s_axis_tvalid`, `pause` and `rst` in the same
/// cycle, as docs/axis.md says; `rst` also holds the valids low in its cycle. The slave of before (readys from the valids) must be caught.
#[test]
fn axil_slave_has_no_combinational_path() {
    verilator::require_tools("axil_slave_has_no_combinational_path", &[verilator::YOSYS]);
    let dir = work().join("paths");
    std::fs::create_dir_all(&dir).unwrap();
    let v = dir.join("pft_axis.v");
    std::fs::write(&v, default_width(None)).unwrap();
    let axil = combinational_ports(&v, "i:s_axil_*", "o:s_axil_*", &dir.join("axil.txt"));
    assert!(
        axil.is_empty(),
        "AXI4-Lite ports on a combinational path: {axil:?}"
    );
    let stream = combinational_ports(
        &v,
        "i:s_axis_* i:m_axis_* %u i:pause %u i:rst %u",
        "o:s_axis_* o:m_axis_* %u",
        &dir.join("axis.txt"),
    );
    // (`rst` holds m_axis_tvalid low in its cycle: AXI-Stream's TVALID low during reset)
    assert_eq!(
        stream,
        [
            "m_axis_tready",
            "m_axis_tvalid",
            "pause",
            "rst",
            "s_axis_tready",
            "s_axis_tvalid"
        ]
    );
    // `rst` reaches the AXI4-Lite side's readys and valids only (low in its cycle)
    let reset = combinational_ports(&v, "i:rst", "o:s_axil_*", &dir.join("reset.txt"));
    assert_eq!(
        reset,
        [
            "rst",
            "s_axil_arready",
            "s_axil_awready",
            "s_axil_bvalid",
            "s_axil_rvalid",
            "s_axil_wready"
        ]
    );
    // The check sees a path: arready from arvalid in the same cycle.
    let m = verilator::mutant(
        &v,
        "arready = ar_grant$q & ~reset;",
        "arready = ar_grant$q & ~reset | arvalid;",
        &dir.join("mutant.v"),
    )
    .unwrap();
    let axil = combinational_ports(&m, "i:s_axil_*", "o:s_axil_*", &dir.join("mutant.txt"));
    assert_eq!(axil, ["s_axil_arready", "s_axil_arvalid"]);
}
