//! The bad-input catalogue (docs/bad-inputs.md), rows `HX-*` (pft-verilog and pft-regs
//! arguments and outputs) and `BK-*` (bad inputs at the block's own ports: credit returns
//! beyond the credits in use, CSR writes to read-only or out-of-map addresses, register
//! values outside a field). An `HX` case runs the real binary like the other crates' cases
//! (the harness, shared with the other crates, is `pft_test_support::catalogue`). A `BK` case
//! drives the reference model and the rust-hdl RTL (`RtlStepper`) side by side with the same inputs,
//! checks that their outputs and internal state agree in every cycle, and checks the
//! block's defined behaviour (docs/behaviour.md, docs/registers.md).

use pft_hdl::model::{Inputs, Outputs, PftModel};
use pft_hdl::regs::{self, addr};
use pft_hdl::stepper::{Engine, RtlStepper};
const PFT_VERILOG: &str = env!("CARGO_BIN_EXE_pft-verilog");
const PFT_REGS: &str = env!("CARGO_BIN_EXE_pft-regs");

/// Row prefixes this file owns.
const OWNED: [&str; 2] = ["HX", "BK"];
use pft_test_support::catalogue;
use pft_test_support::catalogue::*;

// ---------------------------------------------------------------------------------------
// pft-verilog and pft-regs

fn tool_cases() -> Vec<Case> {
    let v = PFT_VERILOG;
    let r = PFT_REGS;
    vec![
        case("HX-01", v, &["--bogus"]).also(&["-o", "x.v"]),
        case("HX-02", v, &["a.v", "b.v"]),
        case("HX-03", v, &["od"]).dir("od"),
        case("HX-04", v, &["afile/x.v"]).file("afile", "keep me\n"),
        case("HX-05", r, &["--bogus"]).also(&["out.md"]),
        case("HX-06", r, &[]).stdout_full(),
        case("HX-07", v, &["/dev/null"]),
        case("HX-08", v, &["-"]),
        case("HX-09", r, &[]).stdout_closed(),
        case("HX-12", r, &["--format", "vhdl"])
            .also(&["--format"])
            .also(&["--format=vhdl"]),
        case("HX-18", r, &["--format="]).also(&["--format", ""]),
        case("HX-13", v, &["--flows", "4", "--mvcm", "--flows", "16"]).also(&[
            "--design",
            "mvcm_flow",
            "--design",
            "ibcc_flow",
        ]),
        case("HX-10", v, &["-"]).stdout_closed(),
        // help and version are outputs too: a failed write is said, status 1
        case("HX-26", v, &["--help"])
            .also(&["--version"])
            .stdout_full(),
        case("HX-28", r, &["--help"])
            .also(&["--version"])
            .stdout_full(),
        case("HX-27", v, &["--help"])
            .also(&["--version"])
            .stdout_closed(),
        case("HX-29", r, &["--help"])
            .also(&["--version"])
            .stdout_closed(),
        // every output of a family is checked before the first is written
        case("HX-14", v, &["--family", "pft", "--out-dir", "fam"])
            .dir("fam/pft_injector_pipelined.v")
            .also(&["--family", "pft", "--out-dir", "afile"])
            .file("afile", "keep me\n"),
        case("HX-15", r, &["--format", "md", "--format", "h"]).also(&[
            "--format=md",
            "--format",
            "h",
        ]),
        case("HX-19", v, &["--list=yes"])
            .also(&["--pipelined=1", "-"])
            .also(&["--help=1"]),
        case("HX-20", v, &["--design="]).also(&["--design=pft_axis", "--data-width=", "-"]),
        case("HX-21", v, &["/dev/stdout"]).also(&["/proc/self/fd/1"]),
        case("HX-16", v, &["l.v"]).symlink("l.v", "missing/deep/y.v"),
        // a link that cannot be followed was said to lead to nothing, or to "" (a
        // descriptor that is not open, to be open)
        case("HX-22", v, &["loop/x.v"]).symlink("loop", "loop"),
        case("HX-23", v, &["/proc/self/fd/987654"]),
        case("HX-24", v, &["/dev/pft-hx24.v"]),
        case("HX-25", v, &["--data-width", "128", "x.v"]).also(&["--user-width", "8", "x.v"]),
        // two outputs of a family one file through a link: the first was lost, unsaid
        case("HX-30", v, &["--family", "pft", "--out-dir", "d"])
            .dir("d")
            .file("d/pft_injector_pipelined.v", "keep me\n")
            .symlink("d/pft_injector.v", "pft_injector_pipelined.v"),
        // a file a pftsim run lists in its result directory (it was replaced)
        case("HX-31", v, &["r/nodes.csv"])
            .dir("r")
            .file("r/.pftsim.lock", "")
            .file("r/manifest.json", r#"{"files": ["nodes.csv"]}"#)
            .file("r/nodes.csv", "a run's results\n")
            .also(&["--family", "pft", "--out-dir", "r"])
            .locked("r/.pftsim.lock"),
        case("HX-17", v, &["--family", "pft", "--out-dir", ""]).left(|d| {
            assert!(
                !d.join("pft_injector.v").exists(),
                "written into the case's directory"
            )
        }),
        // an output that is a symbolic link to a file: written through, the link stays
        case("HX-11", v, &["link.v"])
            .file("real.v", "old\n")
            .symlink("link.v", "real.v")
            .left(|d| {
                let link = std::fs::symlink_metadata(d.join("link.v")).unwrap();
                assert!(link.file_type().is_symlink(), "the link was replaced");
                let v = std::fs::read_to_string(d.join("real.v")).unwrap();
                assert!(v.contains("module pft_injector("), "{v}");
            }),
    ]
}

// ---------------------------------------------------------------------------------------
// The block's own bad inputs: model and RTL in lock-step

/// The reference model and the RTL, driven with the same inputs.
struct Pair {
    m: PftModel,
    r: RtlStepper,
    cycle: u64,
}

impl Pair {
    /// Both engines after one reset cycle.
    fn new() -> Self {
        let mut p = Pair {
            m: PftModel::new(),
            r: RtlStepper::new(),
            cycle: 0,
        };
        p.step(Inputs {
            reset: true,
            ..Default::default()
        });
        p
    }

    /// One cycle on both; their outputs and state must agree.
    fn step(&mut self, i: Inputs) -> Outputs {
        let a = Engine::step(&mut self.m, &i);
        let b = self.r.step(&i);
        assert_eq!(
            a, b,
            "cycle {}: model and RTL outputs differ for {i:?}",
            self.cycle
        );
        assert_eq!(
            self.m.probe(),
            self.r.probe(),
            "cycle {}: model and RTL state differ after {i:?}",
            self.cycle
        );
        self.cycle += 1;
        a
    }

    fn io(&mut self, flit_valid: bool, credit_return: u8) -> Outputs {
        self.step(Inputs {
            flit_valid,
            credit_return,
            ..Default::default()
        })
    }

    fn write(&mut self, a: u8, d: u32) -> Outputs {
        self.step(Inputs {
            csr_we: true,
            csr_addr: a,
            csr_wdata: d,
            ..Default::default()
        })
    }

    /// A register's value (a cycle with no flit, no credit, no write).
    fn read(&mut self, a: u8) -> u32 {
        self.step(Inputs {
            csr_addr: a,
            ..Default::default()
        })
        .csr_rdata
    }

    fn status(&mut self) -> (bool, bool, u16) {
        let s = self.read(addr::STATUS);
        (
            s & regs::STATUS_ERR_UNDERFLOW != 0,
            s & regs::STATUS_ERR_OVERFLOW != 0,
            (s >> regs::STATUS_C_SHIFT) as u16,
        )
    }

    /// Every register as read back now.
    fn all_regs(&self) -> Vec<u32> {
        (0..16).map(|a| self.m.read(a)).collect()
    }
}

/// BK-01: more credits come back than are in use.
fn bk_credit_return_beyond_used() {
    let mut p = Pair::new();
    for _ in 0..3 {
        assert!(p.io(true, 0).send);
    }
    assert_eq!(p.status(), (false, false, 3));
    // 10 credits come back, 3 are in use: c clamps to 0 (no wrap), err_underflow is set
    p.io(false, 10);
    assert_eq!(p.status(), (true, false, 0));
    // sticky through normal traffic, which goes on as usual
    for _ in 0..5 {
        assert!(p.io(true, 0).send);
    }
    for _ in 0..5 {
        p.io(false, 1);
    }
    assert_eq!(p.status(), (true, false, 0));
    // the extreme: 255 credits with none in use
    p.io(false, 255);
    assert_eq!(p.status(), (true, false, 0));
    // write 1 to bit 1 clears it
    p.write(addr::STATUS, regs::STATUS_ERR_UNDERFLOW);
    assert_eq!(p.status(), (false, false, 0));
    // the boundary is not an error: c = 2, a send and 3 returns in one cycle
    p.io(true, 0);
    p.io(true, 0);
    p.io(true, 3);
    assert_eq!(p.status(), (false, false, 0));
}

/// BK-02: writes to read-only registers (AT_STATUS; STATUS without a 1 in an error bit).
fn bk_write_read_only() {
    let mut a = Pair::new();
    let mut b = Pair::new();
    let cfg = [
        (addr::CREDIT_LIMIT, 64),
        (addr::TH_ENTER, 8),
        (addr::TH_ESCAPE, 4),
        (addr::AT_WIN_E, 16),
        (addr::AT_CNT_E, 4),
        (addr::CTRL, regs::ctrl_word(true, true, false)),
    ];
    for (x, d) in cfg {
        a.write(x, d);
        b.write(x, d);
    }
    for _ in 0..12 {
        a.io(true, 0);
        b.io(true, 0);
    }
    assert!(a.m.win > 0 && a.m.hit > 0, "the AT window is running");
    // `a` gets the writes, `b` the same cycles without them
    a.write(addr::AT_STATUS, 0xFFFF_FFFF);
    b.io(false, 0);
    a.write(
        addr::STATUS,
        !(regs::STATUS_ERR_UNDERFLOW | regs::STATUS_ERR_OVERFLOW),
    );
    b.io(false, 0);
    assert_eq!(
        a.all_regs(),
        b.all_regs(),
        "a write to a read-only register changed something"
    );
    assert_eq!(a.m, b.m);
}

/// BK-03: an address beyond the 16-word map on the model's 8-bit `csr_addr`.
fn bk_address_beyond_map() {
    let mut a = Pair::new();
    let mut b = Pair::new();
    a.write(0x12, 0x55); // only csr_addr[3:0] exists: this is TH_ENTER
    b.write(addr::TH_ENTER, 0x55);
    assert_eq!(a.read(0x12), 0x55, "reads alias the same way");
    assert_eq!(b.read(addr::TH_ENTER), 0x55);
    assert_eq!(a.all_regs(), b.all_regs());
    a.write(0xFF, 0x1234); // = AT_STATUS, read-only: ignored
    b.io(false, 0);
    assert_eq!(a.all_regs(), b.all_regs());
    assert_eq!(a.m, b.m);
}

/// BK-04: values wider than their field.
fn bk_bits_outside_fields() {
    let mut p = Pair::new();
    p.write(addr::CTRL, 0xFFFF_FFF0); // no field bit set: stays disabled
    assert_eq!(p.read(addr::CTRL), 0);
    p.write(addr::CTRL, 0xFFFF_FFFF);
    assert_eq!(p.read(addr::CTRL), regs::CTRL_MASK);
    p.write(addr::CREDIT_LIMIT, 0x1_0005);
    assert_eq!(p.read(addr::CREDIT_LIMIT), 5);
    p.write(addr::TH_ENTER, 0xFFFF_0010);
    assert_eq!(p.read(addr::TH_ENTER), 0x10);
    p.write(addr::K, 0xABCD_1234);
    assert_eq!(p.read(addr::K), 0x1234);
    p.write(addr::SHAPE, 0xFFFF_FFFF);
    assert_eq!(p.read(addr::SHAPE), regs::SHAPE_MASK);
    assert_eq!((p.m.regs.m, p.m.regs.n, p.m.regs.r_width), (31, 31, 63));
    // r_width 0 and above 32 act as 32: the RI gate compares all of r
    assert_eq!(regs::r_mask(63), u32::MAX);
    assert_eq!(regs::r_mask(0), u32::MAX);
    assert_eq!(regs::r_mask(8), 0xFF);
    // m = 32 (what pft-trace and pftsim refuse) is m = 0 on the wire
    p.write(addr::SHAPE, 32);
    assert_eq!((p.m.regs.m, p.m.regs.n), (0, 0));
}

/// BK-05: SEED = 0, the generator's fixed point.
fn bk_seed_zero() {
    let mut p = Pair::new();
    p.write(addr::SEED, 0);
    assert_eq!(p.m.r, regs::RESET_SEED, "a write of 0 loads the reset seed");
    assert_eq!(p.read(addr::SEED), regs::RESET_SEED);
    assert_ne!(p.m.r, 0, "the generator still runs");
}

/// BK-06: CREDIT_LIMIT = 0.
fn bk_credit_limit_zero() {
    let mut p = Pair::new();
    p.write(addr::CREDIT_LIMIT, 0);
    for _ in 0..100 {
        let o = p.io(true, 0);
        assert!(!o.send && !o.throttled);
    }
    assert_eq!(p.status(), (false, false, 0));
    assert_eq!(p.read(addr::CNT_SENT), 0);
}

/// BK-07: CREDIT_LIMIT lowered below the credits in use.
fn bk_credit_limit_below_used() {
    let mut p = Pair::new();
    for _ in 0..10 {
        assert!(p.io(true, 0).send);
    }
    p.write(addr::CREDIT_LIMIT, 4);
    // c = 10 > 4: err_overflow at the end of the next cycle; no flit leaves
    let o = p.io(true, 0);
    assert!(!o.send && !o.throttled);
    assert_eq!(p.status(), (false, true, 10));
    // credits come back one by one; sends resume only below the new limit
    let mut c = 10;
    while c > 3 {
        let o = p.io(true, 1);
        assert!(!o.send, "sent with c = {c} >= 4");
        c -= 1;
    }
    assert!(p.io(true, 0).send, "c = 3 < 4: a flit leaves");
    assert_eq!(p.status(), (false, true, 4), "sticky");
    p.write(addr::STATUS, regs::STATUS_ERR_OVERFLOW);
    assert_eq!(p.status(), (false, false, 4));
}

/// Offers flits until `c` credits are in use (the throttle may hold some back).
fn hold_c(p: &mut Pair, c: u16) {
    for _ in 0..1000 {
        if p.m.c == c {
            return;
        }
        p.io(true, 0);
    }
    panic!("c did not reach {c}: {}", p.m.c);
}

/// BK-08: AT count larger than its window.
fn bk_at_count_above_window() {
    let mut p = Pair::new();
    p.write(addr::TH_ENTER, 2);
    p.write(addr::AT_WIN_E, 4);
    p.write(addr::AT_CNT_E, 5);
    p.write(addr::CTRL, regs::ctrl_word(true, true, false));
    hold_c(&mut p, 10);
    for _ in 0..500 {
        let o = p.io(false, 0);
        assert!(!o.congested, "entered Congested with AT_CNT_E > AT_WIN_E");
    }
    assert!(p.m.hit <= 4 && p.m.win <= 4);
}

/// BK-09: FT thresholds the wrong way round (TH_ENTER < TH_ESCAPE) with c between them.
fn bk_ft_thresholds_crossed() {
    let mut p = Pair::new();
    p.write(addr::TH_ENTER, 4);
    p.write(addr::TH_ESCAPE, 20);
    p.write(addr::CTRL, regs::ctrl_word(true, false, false));
    hold_c(&mut p, 10);
    let mut last = p.io(false, 0).congested;
    for _ in 0..50 {
        let now = p.io(false, 0).congested;
        assert_ne!(
            now, last,
            "FT flips every cycle when TH_ENTER < c < TH_ESCAPE"
        );
        last = now;
    }
}

fn block_cases() -> Vec<(&'static str, fn())> {
    vec![
        ("BK-01", bk_credit_return_beyond_used as fn()),
        ("BK-02", bk_write_read_only),
        ("BK-03", bk_address_beyond_map),
        ("BK-04", bk_bits_outside_fields),
        ("BK-05", bk_seed_zero),
        ("BK-06", bk_credit_limit_zero),
        ("BK-07", bk_credit_limit_below_used),
        ("BK-08", bk_at_count_above_window),
        ("BK-09", bk_ft_thresholds_crossed),
    ]
}

// ---------------------------------------------------------------------------------------
// Tests

#[test]
fn catalogue_matches_cases() {
    let tools = tool_cases();
    let ids = tools.iter().map(|c| c.id);
    catalogue!().matches_cases(
        &OWNED,
        ids.chain(block_cases().into_iter().map(|(id, _)| id)),
    );
}

#[test]
fn tool_arguments_and_outputs() {
    let cat = catalogue!();
    for c in tool_cases() {
        cat.run(&c);
    }
}

#[test]
fn block_bad_inputs_model_and_rtl() {
    let cat = catalogue!();
    for (id, f) in block_cases() {
        cat.row(id);
        f();
    }
}
