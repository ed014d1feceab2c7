//! Fuzzing the inputs of `pft-trace` and `pft-bench` with proptest (docs/bad-inputs.md,
//! "Fuzzing"):
//!
//! - the config parser (`TraceConfig::parse`) on arbitrary text, and on random tables of
//!   known and unknown keys with values of every type, against an oracle built from the
//!   documented ranges: it accepts exactly the valid tables, applies their values, and
//!   names a bad key when it refuses one;
//! - the stimulus parser (`stimulus_csv::parse`) on arbitrary bytes, and on random files of
//!   good and bad headers, fields and line endings, against an oracle: it accepts exactly
//!   the valid files and names the first bad line;
//! - every accepted config and stimulus runs open loop on the model without a panic;
//! - random command lines through clap's `try_parse_from` on the binaries' own `Args` (the
//!   binaries are included below as modules), and a smaller sample through the real
//!   `pft-trace` binary: nothing panics, and exit statuses are 0, 1 or 2.
//!
//! Case counts are sized so that the whole file runs in about 30 s in a release build on a
//! 2-core machine; `PROPTEST_CASES=N` runs N cases per property instead (N / 50 for the
//! properties that start a process per case). Inputs that once failed are kept as plain
//! regression tests at the end.

use pft_hdl::regs;
use pft_tb::trace::config::{keys, TraceConfig};
use pft_tb::trace::run::{self, EngineKind, Sinks};
use pft_tb::trace::stimulus_csv::{self, StimulusRow, HEADER};
use proptest::prelude::*;
use std::path::Path;
use std::process::{Command, Stdio};

#[allow(dead_code, unused_imports)]
#[path = "../src/bin/pft-trace.rs"]
mod pft_trace_bin;

#[allow(dead_code, unused_imports)]
#[path = "../src/bin/pft-bench.rs"]
mod pft_bench_bin;

use pft_test_support::fuzz::{check_usage_error, config, process_config};

// ---------------------------------------------------------------------------------------
// Config files

/// The oracle: is `v` a valid value for `key`?
fn valid(key: &str, v: &toml::Value) -> bool {
    let int = |lo: i64, hi: i64| matches!(v, toml::Value::Integer(i) if (lo..=hi).contains(i));
    match key {
        "enable" => matches!(v, toml::Value::Boolean(_)),
        "det_mode" => matches!(v.as_str(), Some("ft" | "at")),
        "thr_mode" => matches!(v.as_str(), Some("fi" | "ri")),
        "gating" => matches!(v.as_str(), Some("flit" | "packet")),
        "credit_limit" => int(1, 0xFFFF),
        "m" | "n" => int(0, 31),
        "r_width" => int(1, 32),
        "seed" => int(1, 0xFFFF_FFFF),
        _ if keys().iter().any(|(k, _)| *k == key) => int(0, 0xFFFF),
        _ => false,
    }
}

fn config_value() -> impl Strategy<Value = toml::Value> {
    prop_oneof![
        3 => prop_oneof![
            Just(-1i64),
            Just(0),
            Just(1),
            Just(31),
            Just(32),
            Just(0xFFFF),
            Just(0x1_0000),
            Just(0xFFFF_FFFF),
            Just(0x1_0000_0000),
            Just(i64::MIN),
            Just(i64::MAX),
            0i64..=70_000,
        ]
        .prop_map(toml::Value::Integer),
        1 => any::<i64>().prop_map(toml::Value::Integer),
        1 => prop_oneof![any::<f64>(), Just(f64::NAN), Just(1.0)].prop_map(toml::Value::Float),
        1 => any::<bool>().prop_map(toml::Value::Boolean),
        2 => prop_oneof![
            Just("ft"),
            Just("at"),
            Just("fi"),
            Just("ri"),
            Just("flit"),
            Just("packet"),
            Just("FT"),
            Just(""),
            Just("5"),
        ]
        .prop_map(|s| toml::Value::String(s.to_string())),
        1 => any::<String>().prop_map(toml::Value::String),
        1 => prop::collection::vec(any::<i64>().prop_map(toml::Value::Integer), 0..3)
            .prop_map(toml::Value::Array),
        1 => (0i64..40)
            .prop_map(|i| toml::Value::Table([("x".to_string(), toml::Value::Integer(i))].into_iter().collect())),
    ]
}

fn config_key() -> impl Strategy<Value = String> {
    prop_oneof![
        6 => prop::sample::select(keys().into_iter().map(|(k, _)| k.to_string()).collect::<Vec<_>>()),
        1 => prop_oneof![
            Just("status"),
            Just("at_status"),
            Just("cnt_sent"),
            Just("ctrl"),
            Just("shape"),
            Just("credit"),
            Just("M"),
        ]
        .prop_map(str::to_string),
        1 => "[a-z_]{1,10}",
    ]
}

fn applied(cfg: &TraceConfig, key: &str, v: &toml::Value) -> bool {
    let i = v.as_integer().unwrap_or(-1);
    let r = &cfg.regs;
    match key {
        "enable" => Some(r.ctrl & regs::CTRL_ENABLE != 0) == v.as_bool(),
        "det_mode" => (r.ctrl & regs::CTRL_DET_AT != 0) == (v.as_str() == Some("at")),
        "thr_mode" => (r.ctrl & regs::CTRL_THR_RI != 0) == (v.as_str() == Some("ri")),
        "gating" => (r.ctrl & regs::CTRL_GATING != 0) == (v.as_str() == Some("packet")),
        "r_width" => r.r_width as i64 == i,
        "credit_limit" => r.credit_limit as i64 == i,
        "th_enter" => r.th_enter as i64 == i,
        "th_escape" => r.th_escape as i64 == i,
        "at_win_e" => r.at_win_e as i64 == i,
        "at_cnt_e" => r.at_cnt_e as i64 == i,
        "at_win_s" => r.at_win_s as i64 == i,
        "at_cnt_s" => r.at_cnt_s as i64 == i,
        "m" => r.m as i64 == i,
        "n" => r.n as i64 == i,
        "k" => r.k as i64 == i,
        "seed" => r.seed as i64 == i,
        _ => false,
    }
}

/// A refusal must say where.
fn names_something(msg: &str) -> bool {
    msg.contains('`') || msg.contains("line ")
}

proptest! {
    #![proptest_config(config(40_000))]

    #[test]
    fn config_arbitrary_text(text in any::<String>()) {
        if let Err(e) = TraceConfig::parse(&text, "t.toml") {
            let msg = e.to_string();
            prop_assert!(msg.contains("t.toml") && names_something(&msg), "{msg}");
        }
    }

    #[test]
    fn config_toml_like_lines(lines in prop::collection::vec(
        prop_oneof![
            "[a-z_]{1,12} = [0-9]{1,22}",
            "[a-z_]{1,12} = -[0-9]{1,5}",
            "[a-z_]{1,12} = 0x[0-9a-fA-F_]{1,10}",
            "[a-z_]{1,12} = \"[a-z]{0,4}\"",
            "[a-z_]{1,12} = (true|false|nan|inf|1e9|1.5)",
            "\\[[a-z]{0,6}\\]",
            "[a-z_ =\\[\\]{}\",.0-9#-]{0,24}",
        ],
        0..10,
    )) {
        let text = lines.join("\n");
        if let Err(e) = TraceConfig::parse(&text, "t.toml") {
            let msg = e.to_string();
            prop_assert!(names_something(&msg), "{msg}\n--- input\n{text}");
        }
    }

    /// Random tables against the oracle.
    #[test]
    fn config_tables(entries in prop::collection::btree_map(config_key(), config_value(), 0..8)) {
        let table: toml::Table = entries.clone().into_iter().collect();
        let text = toml::to_string(&table).unwrap();
        let bad: Vec<&String> = entries.iter().filter(|(k, v)| !valid(k, v)).map(|(k, _)| k).collect();
        match TraceConfig::parse(&text, "t.toml") {
            Ok(cfg) => {
                prop_assert!(bad.is_empty(), "accepted bad keys {bad:?}:\n{text}");
                for (k, v) in &entries {
                    prop_assert!(applied(&cfg, k, v), "`{k}` = {v} not applied: {cfg:?}");
                }
            }
            Err(e) => {
                let msg = e.to_string();
                prop_assert!(
                    bad.iter().any(|k| msg.contains(&format!("`{k}`"))),
                    "refused without naming a bad key ({bad:?}): {msg}\n{text}"
                );
                // the allowed values are in the message
                if let Some((_, allowed)) = keys().into_iter().find(|(k, _)| msg.contains(&format!("key `{k}`"))) {
                    prop_assert!(msg.contains(&allowed), "{msg}");
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// Stimulus files

#[derive(Clone, Debug)]
struct StimFile {
    header: (&'static str, bool),
    rows: Vec<Vec<(&'static str, Option<u8>)>>,
    crlf: bool,
    final_newline: bool,
}

/// (token, valid as flit_valid / credit_return value)
fn flit_token() -> impl Strategy<Value = (&'static str, Option<u8>)> {
    prop_oneof![
        8 => prop_oneof![Just(("0", Some(0u8))), Just(("1", Some(1))), Just((" 1 ", Some(1)))],
        1 => prop_oneof![
            Just(("2", None)),
            Just(("yes", None)),
            Just(("-1", None)),
            Just(("1.0", None)),
            Just(("\"1\"", None)),
            Just(("", None)),
            Just(("0x1", None)),
        ],
    ]
}

fn credit_token() -> impl Strategy<Value = (&'static str, Option<u8>)> {
    prop_oneof![
        8 => prop_oneof![
            Just(("0", Some(0u8))),
            Just(("1", Some(1))),
            Just(("7", Some(7))),
            Just(("255", Some(255))),
            Just((" 3", Some(3))),
            Just(("003", Some(3))),
            Just(("+2", Some(2))),
        ],
        1 => prop_oneof![
            Just(("256", None)),
            Just(("-1", None)),
            Just(("x", None)),
            Just(("1.5", None)),
            Just(("", None)),
            Just(("99999999999999999999", None)),
            Just(("'4'", None)),
        ],
    ]
}

fn stim_file() -> impl Strategy<Value = StimFile> {
    let header = prop_oneof![
        8 => Just(("flit_valid,credit_return", true)),
        1 => Just(("\u{feff}flit_valid,credit_return", true)),
        1 => prop_oneof![
            Just(("flit_valid, credit_return", false)),
            Just(("flit_valid,credit_return,", false)),
            Just(("valid,credit", false)),
            Just(("FLIT_VALID,CREDIT_RETURN", false)),
            Just(("flit_valid,credit_return,x", false)),
            Just(("flit_valid", false)),
        ],
    ];
    let row = prop_oneof![
        12 => (flit_token(), credit_token()).prop_map(|(a, b)| vec![a, b]),
        1 => flit_token().prop_map(|a| vec![a]),
        1 => (flit_token(), credit_token(), credit_token()).prop_map(|(a, b, c)| vec![a, b, c]),
    ];
    (
        header,
        prop::collection::vec(row, 0..20),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(header, rows, crlf, final_newline)| StimFile {
            header,
            rows,
            crlf,
            final_newline,
        })
}

impl StimFile {
    fn text(&self) -> String {
        let nl = if self.crlf { "\r\n" } else { "\n" };
        let mut lines = vec![self.header.0.to_string()];
        for r in &self.rows {
            lines.push(r.iter().map(|(t, _)| *t).collect::<Vec<_>>().join(","));
        }
        let mut s = lines.join(nl);
        if self.final_newline {
            s.push_str(nl);
        }
        s
    }

    /// The rows the parser must return, or the line (1-based) it must refuse.
    fn expect(&self) -> Result<Vec<StimulusRow>, Option<usize>> {
        if !self.header.1 {
            return Err(Some(1));
        }
        let mut out = Vec::new();
        for (i, r) in self.rows.iter().enumerate() {
            let line = i + 2;
            // a line with one empty field is an empty line: the CSV reader skips it
            if r.len() == 1 && r[0].0.is_empty() {
                continue;
            }
            match r.as_slice() {
                [(_, Some(f)), (_, Some(c))] => out.push(StimulusRow {
                    flit_valid: *f == 1,
                    credit_return: *c,
                    flit_head: None,
                }),
                _ => return Err(Some(line)),
            }
        }
        if out.is_empty() {
            return Err(None);
        }
        Ok(out)
    }
}

proptest! {
    #![proptest_config(config(40_000))]

    #[test]
    fn stimulus_arbitrary_bytes(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        if let Err(e) = stimulus_csv::parse(&bytes, "s.csv") {
            let msg = e.to_string();
            prop_assert!(msg.starts_with("stimulus s.csv"), "{msg}");
            prop_assert!(msg.contains("line ") || msg.contains("no rows"), "{msg}");
        }
    }

    #[test]
    fn stimulus_arbitrary_text_after_header(rest in any::<String>()) {
        let text = format!("{HEADER}\n{rest}");
        if let Err(e) = stimulus_csv::parse(text.as_bytes(), "s.csv") {
            let msg = e.to_string();
            prop_assert!(msg.contains("line ") || msg.contains("no rows"), "{msg}");
        }
    }

    /// Random files against the oracle.
    #[test]
    fn stimulus_files(f in stim_file()) {
        let text = f.text();
        match (stimulus_csv::parse(text.as_bytes(), "s.csv"), f.expect()) {
            (Ok(rows), Ok(want)) => prop_assert_eq!(rows, want),
            (Err(e), Err(line)) => {
                let msg = e.to_string();
                match line {
                    Some(l) => prop_assert!(msg.contains(&format!("line {l}")), "want line {l}: {msg}\n{text:?}"),
                    None => prop_assert!(msg.contains("no rows"), "{msg}\n{text:?}"),
                }
            }
            (got, want) => prop_assert!(false, "got {got:?}, want {want:?}\n{text:?}"),
        }
    }
}

// ---------------------------------------------------------------------------------------
// Whatever the parsers accept runs

proptest! {
    #![proptest_config(config(12_000))]

    #[test]
    fn accepted_inputs_run(
        entries in prop::collection::btree_map(
            prop::sample::select(keys().into_iter().map(|(k, _)| k.to_string()).collect::<Vec<_>>()),
            config_value(),
            0..10,
        ),
        f in stim_file(),
    ) {
        let table: toml::Table = entries.into_iter().collect();
        let Ok(cfg) = TraceConfig::parse(&toml::to_string(&table).unwrap(), "t.toml") else {
            return Ok(());
        };
        let Ok(stim) = stimulus_csv::parse(f.text().as_bytes(), "s.csv") else {
            return Ok(());
        };
        let mut sinks = Sinks::default();
        let s = run::open_loop(EngineKind::Model, &cfg, &stim, &mut sinks).unwrap();
        prop_assert_eq!(s.cycles, stim.len() as u64);
    }
}

// ---------------------------------------------------------------------------------------
// Command lines

fn arg() -> impl Strategy<Value = String> {
    prop_oneof![
        prop_oneof![
            Just("--config"),
            Just("--engine"),
            Just("--stimulus"),
            Just("--cycles"),
            Just("--link-latency"),
            Just("--drain"),
            Just("--drain-schedule"),
            Just("--link-seed"),
            Just("--out"),
            Just("--vcd"),
            Just("--summary"),
            Just("--record-stimulus"),
            Just("--model-cycles"),
            Just("--rtl-cycles"),
            Just("--verilator-cycles"),
            Just("--trace-cycles"),
            Just("--dir"),
            Just("--help"),
            Just("-V"),
            Just("--"),
            Just("rtl"),
            Just("model"),
            Just("c.toml"),
            Just("ok.csv"),
            Just("o.csv"),
            Just("o.json"),
            Just("0:1,5:0.5"),
            Just("0:1,0:1"),
            Just("0:"),
            Just(":"),
            Just("0:nan"),
            Just("0:1,18446744073709551615:0"),
        ]
        .prop_map(str::to_string),
        prop_oneof![
            any::<i64>().prop_map(|n| n.to_string()),
            any::<f64>().prop_map(|n| n.to_string()),
            (0u64..5).prop_map(|n| n.to_string()),
            Just("nan".to_string()),
            Just("-inf".to_string()),
            Just("1e400".to_string()),
            Just("".to_string()),
        ],
        "--[a-z-]{1,12}",
        "[0-9]{1,20}:[0-9.e-]{0,6}(,[0-9]{1,20}:[0-9.e-]{0,6}){0,3}",
        any::<String>(),
    ]
}

proptest! {
    #![proptest_config(config(40_000))]

    #[test]
    fn pft_trace_command_lines(args in prop::collection::vec(arg(), 0..9)) {
        use clap::Parser;
        let argv = std::iter::once("pft-trace".to_string()).chain(args.iter().cloned());
        if let Err(e) = pft_trace_bin::Args::try_parse_from(argv) {
            let r = check_usage_error("pft-trace", &e, &args);
            prop_assert!(r.is_ok(), "{}", r.unwrap_err());
        }
    }

    #[test]
    fn pft_bench_command_lines(args in prop::collection::vec(arg(), 0..7)) {
        use clap::Parser;
        let argv = std::iter::once("pft-bench".to_string()).chain(args.iter().cloned());
        if let Err(e) = pft_bench_bin::Args::try_parse_from(argv) {
            let r = check_usage_error("pft-bench", &e, &args);
            prop_assert!(r.is_ok(), "{}", r.unwrap_err());
        }
    }
}

/// The real binary on random command lines, in a directory with a config and a stimulus:
/// exit status 0, 1 or 2, never a panic. A smaller sample (each case starts a process).
#[test]
fn pft_trace_binary_command_lines() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("fuzz_pft_trace_cli");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("c.toml"), "credit_limit = 16\nth_enter = 4\n").unwrap();
    std::fs::write(
        dir.join("ok.csv"),
        "flit_valid,credit_return\n1,0\n1,0\n0,3\n",
    )
    .unwrap();
    let mut runner = proptest::test_runner::TestRunner::new(process_config(250));
    runner
        .run(&prop::collection::vec(arg(), 0..8), |args| {
            // a huge closed-loop run would only take time: cap --cycles
            let mut args = args;
            for i in 1..args.len() {
                if args[i - 1] == "--cycles" && args[i].parse::<u64>().is_ok_and(|n| n > 5000) {
                    args[i] = "5000".to_string();
                }
            }
            let o = Command::new(env!("CARGO_BIN_EXE_pft-trace"))
                .args(&args)
                .current_dir(&dir)
                .env("RUST_BACKTRACE", "0")
                .stdin(Stdio::null())
                .output()
                .unwrap();
            let err = String::from_utf8_lossy(&o.stderr);
            prop_assert!(
                matches!(o.status.code(), Some(0..=2)),
                "pft-trace {args:?}: exit {:?}\n{err}",
                o.status.code()
            );
            prop_assert!(!err.contains("panicked"), "pft-trace {args:?}:\n{err}");
            Ok(())
        })
        .unwrap();
}

// ---------------------------------------------------------------------------------------
// Regressions: inputs the fuzzers once failed on

#[test]
fn regressions() {
    // an unterminated quote was read as a quoted field running to the end of the file
    let e = stimulus_csv::parse(b"flit_valid,credit_return\n1,\"0\n1,0\n", "s.csv").unwrap_err();
    assert!(
        e.to_string().contains("line 2, column `credit_return`"),
        "{e}"
    );
    // line numbers were one short after CRLF line ends, and blank lines were not counted
    for (text, line) in [
        (&b"flit_valid,credit_return\r\n0"[..], 2),
        (b"flit_valid,credit_return\r\n1,0\r\n0\r\n1,1\r\n", 3),
        (b"flit_valid,credit_return\n\n\n1,x\n", 4),
        (b"flit_valid,credit_return\r1,0\r\n\r1,x\r", 4),
    ] {
        let e = stimulus_csv::parse(text, "s.csv").unwrap_err().to_string();
        assert!(
            e.contains(&format!("line {line}:")) || e.contains(&format!("line {line},")),
            "{text:?}: {e}"
        );
    }
}
