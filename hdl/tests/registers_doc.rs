//! docs/registers.md is generated from the register map; it must be current. The map itself
//! must be well formed, and the model and the RTL must reset to its values.

use pft_hdl::model::{Inputs, PftModel, Regs};
use pft_hdl::regs::{self, Access, Kind, FIELDS, REGS};
use pft_hdl::stepper::{Engine, RtlStepper};

#[test]
fn registers_doc_is_current() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/registers.md");
    let on_disk = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        on_disk == pft_hdl::regs::markdown(),
        "docs/registers.md is stale: run `make docs` and commit it"
    );
}

/// The register map in every other language (hdl/generated/, written by `make docs`).
#[test]
fn generated_register_files_are_current() {
    for (format, file) in pft_hdl::regs_gen::FORMATS {
        let path = format!("{}/generated/{file}", env!("CARGO_MANIFEST_DIR"));
        let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            on_disk == pft_hdl::regs_gen::render(format).unwrap(),
            "{path} is stale: run `make docs` and commit it"
        );
    }
}

#[test]
fn register_map_is_consistent() {
    for (i, r) in REGS.iter().enumerate() {
        assert_eq!(r.addr as usize, i, "{} out of order", r.name);
        assert_eq!(
            r.reset & !r.mask,
            0,
            "{} reset value outside its mask",
            r.name
        );
        assert!(r.mask != 0, "{} has no field", r.name);
    }
}

#[test]
fn fields_are_consistent() {
    for (i, f) in FIELDS.iter().enumerate() {
        let max = (1u64 << f.width) - 1;
        assert!(
            f.width >= 1 && f.offset + f.width <= 32,
            "{} outside the word",
            f.name
        );
        assert!(
            f.reset as u64 <= max,
            "{} reset value wider than the field",
            f.name
        );
        assert!(
            f.lo <= f.hi && f.hi as u64 <= max,
            "{} range wider than the field",
            f.name
        );
        if f.access == Access::Rw {
            assert!(
                (f.lo..=f.hi).contains(&f.reset),
                "{} reset value out of range",
                f.name
            );
        }
        match f.kind {
            Kind::Int => {}
            Kind::Bool => assert_eq!(f.width, 1, "{} is a boolean", f.name),
            Kind::Enum(names) => assert_eq!(names.len() as u64, max + 1, "{} names", f.name),
        }
        assert!(
            FIELDS[..i].iter().all(|g| g.name != f.name),
            "{} named twice",
            f.name
        );
        if let Some(p) = i.checked_sub(1).map(|j| &FIELDS[j]) {
            assert!(
                p.reg < f.reg || (p.reg == f.reg && p.offset + p.width <= f.offset),
                "{} out of order or overlapping {}",
                f.name,
                p.name
            );
        }
        assert_eq!(regs::field(f.name), Some(f));
    }
}

#[test]
fn check_field_uses_the_fields_range() {
    assert_eq!(regs::check_field("m", 31), Ok(31));
    let e = regs::check_field("m", 32).unwrap_err();
    assert_eq!(
        e.to_string(),
        "`m` = 32: must be in 0..=31 (its register field width)"
    );
    assert_eq!(regs::check_field("seed", u32::MAX as u64), Ok(u32::MAX));
    let e = regs::check_field("seed", 0).unwrap_err();
    assert!(e.allowed().starts_with("must be in 1..=4294967295"), "{e}");
    assert!(regs::check_field("k", 1 << 16).is_err());
}

/// Every register reads its table reset value after a reset, in the model and the RTL.
#[test]
fn model_and_rtl_reset_to_the_table() {
    let reset = Inputs {
        reset: true,
        ..Default::default()
    };
    let mut engines: [Box<dyn Engine>; 2] =
        [Box::new(PftModel::new()), Box::new(RtlStepper::new())];
    for e in engines.iter_mut() {
        e.step(&reset);
        for r in REGS.iter() {
            let o = e.step(&Inputs {
                csr_addr: r.addr,
                ..Default::default()
            });
            assert_eq!(o.csr_rdata, r.reset, "{} after reset", r.name);
        }
    }
    for r in REGS.iter() {
        let held = Regs::reset().read(r.addr);
        assert_eq!(held.is_some(), r.access == Access::Rw, "{} in Regs", r.name);
        assert!(
            held.is_none_or(|d| d == r.reset),
            "{} in Regs::reset",
            r.name
        );
    }
}

/// Fields set one by one give the same registers as the CSR writes of their words.
#[test]
fn set_field_writes_one_field() {
    let mut r = Regs::reset();
    for f in regs::rw_fields() {
        r.set_field(f, f.hi);
        assert_eq!(r.field(f), f.hi, "{}", f.name);
    }
    let mut m = PftModel::after_reset();
    for (a, d) in r.csr_writes() {
        m.step(&Inputs {
            csr_we: true,
            csr_addr: a,
            csr_wdata: d,
            ..Default::default()
        });
    }
    assert_eq!(m.regs, r);
    // the prelude of docs/trace.md: CREDIT_LIMIT .. SEED, then CTRL
    assert_eq!(regs::CONFIG_ORDER, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0]);
}

/// `pft-regs --format=F` prints what `--format F` does (the clap tools' `--flag=value`).
#[test]
fn format_with_an_equals_sign() {
    let run = |args: &[&str]| {
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_pft-regs"))
            .args(args)
            .output()
            .unwrap();
        assert!(o.status.success(), "{args:?}");
        o.stdout
    };
    let joined = run(&["--format=h"]);
    assert_eq!(joined, run(&["--format", "h"]));
    assert_eq!(
        String::from_utf8(joined).unwrap(),
        pft_hdl::regs_gen::render("h").unwrap()
    );
}

/// `pft-regs --version` and `pft-verilog --design=NAME --flows=N` are read as the clap
/// tools read them (`--flag=value`; `--version` prints the name and version).
#[test]
fn clap_style_flags() {
    let run = |bin: &str, args: &[&str]| {
        let o = std::process::Command::new(bin).args(args).output().unwrap();
        assert!(
            o.status.success(),
            "{bin} {args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        String::from_utf8(o.stdout).unwrap()
    };
    let regs = env!("CARGO_BIN_EXE_pft-regs");
    let verilog = env!("CARGO_BIN_EXE_pft-verilog");
    let want = concat!(" ", env!("CARGO_PKG_VERSION"), "\n");
    assert_eq!(run(regs, &["--version"]), format!("pft-regs{want}"));
    assert_eq!(run(verilog, &["--version"]), format!("pft-verilog{want}"));
    let joined = run(verilog, &["--design=ibcc_flows", "--flows=4", "-"]);
    assert!(
        joined.contains("module ibcc_flows4"),
        "{}",
        &joined[..200.min(joined.len())]
    );
    assert_eq!(
        joined,
        run(verilog, &["--design", "ibcc_flows", "--flows", "4", "-"])
    );
}
