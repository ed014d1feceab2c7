//! `pft-trace` end to end: RTL and model give byte-identical traces, the closed-loop link
//! has the derived credit round trip, the directed episodes enter and leave Congested, runs
//! are deterministic, and every bad input fails cleanly without leaving files behind.
//! Run in --release.

use pft_tb::trace::record::VCD_SIGNALS;
use pft_tb::trace::stimulus_csv::{self, StimulusRow};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_pft-trace");

/// The documented directed-episode link (docs/trace.md, tb/examples/episode-*.toml).
const EPISODE: [&str; 6] = [
    "--cycles",
    "8000",
    "--link-latency",
    "8",
    "--drain-schedule",
    "0:1,2000:0.25,5000:1",
];

/// A fresh, empty directory for one test.
fn scratch(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("tb_trace")
        .join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn example(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples")
        .join(name)
        .display()
        .to_string()
}

fn run(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .output()
        .expect("cannot start pft-trace")
}

/// Run, insist on success, return stdout.
fn run_ok(args: &[&str]) -> String {
    let o = run(args);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "pft-trace {args:?} failed: {err}");
    assert!(!err.contains("panicked"), "{err}");
    String::from_utf8(o.stdout).unwrap()
}

fn p(d: &Path, f: &str) -> String {
    d.join(f).display().to_string()
}

fn read(path: &str) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn summary(path: &str) -> Value {
    serde_json::from_slice(&read(path)).unwrap()
}

fn write_config(d: &Path, name: &str, text: &str) -> String {
    let f = p(d, name);
    std::fs::write(&f, text).unwrap();
    f
}

/// Run `args` with `--out/--vcd/--summary` into `d` under `tag`; return the three files.
fn traced(d: &Path, tag: &str, args: &[&str]) -> (Vec<u8>, Vec<u8>, Value) {
    let (o, v, s) = (
        p(d, &format!("{tag}.csv")),
        p(d, &format!("{tag}.vcd")),
        p(d, &format!("{tag}.json")),
    );
    let mut a: Vec<&str> = args.to_vec();
    a.extend(["--out", &o, "--vcd", &v, "--summary", &s]);
    run_ok(&a);
    (read(&o), read(&v), summary(&s))
}

/// Seeded open-loop stimulus with phases of plentiful and scarce credits, and rare bursts
/// of excess returns (exercises the underflow flag).
fn random_stimulus(seed: u64, cycles: usize) -> Vec<StimulusRow> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    (0..cycles)
        .map(|t| {
            let p_ret = if (t / 1500) % 2 == 0 { 0.95 } else { 0.2 };
            let credit_return = if rng.gen_ratio(1, 4000) {
                255
            } else {
                rng.gen_bool(p_ret) as u8
            };
            StimulusRow {
                flit_valid: rng.gen_bool(0.9),
                credit_return,
                flit_head: None,
            }
        })
        .collect()
}

#[test]
fn rtl_and_model_identical_open_loop() {
    let d = scratch("identical_open");
    let stim = p(&d, "stim.csv");
    let mut f = std::fs::File::create(&stim).unwrap();
    stimulus_csv::write(&mut f, &random_stimulus(11, 20_000)).unwrap();
    drop(f);
    for (name, cfg) in [
        ("at-ri", "det_mode = \"at\"\nthr_mode = \"ri\"\ncredit_limit = 64\nth_enter = 40\nth_escape = 16\nat_win_e = 32\nat_cnt_e = 20\nat_win_s = 32\nat_cnt_s = 20\nm = 26\n"),
        ("ft-fi", "credit_limit = 64\nth_enter = 30\nth_escape = 10\nm = 1\nn = 3\nk = 1\n"),
    ] {
        let c = write_config(&d, &format!("{name}.toml"), cfg);
        let args = ["--config", c.as_str(), "--stimulus", stim.as_str()];
        let (csv_m, vcd_m, s_m) = traced(&d, &format!("{name}-model"), &[&args[..], &["--engine", "model"]].concat());
        let (csv_r, vcd_r, s_r) = traced(&d, &format!("{name}-rtl"), &[&args[..], &["--engine", "rtl"]].concat());
        assert!(csv_m == csv_r, "{name}: --out differs between rtl and model");
        assert!(vcd_m == vcd_r, "{name}: --vcd differs between rtl and model");
        assert_eq!(s_m, s_r);
        // The run must exercise what equality is claimed for.
        assert!(s_m["enters_congested"].as_u64().unwrap() >= 2, "{name}: {s_m}");
        assert!(s_m["leaves_congested"].as_u64().unwrap() >= 2, "{name}: {s_m}");
        assert!(s_m["throttled"].as_u64().unwrap() > 100, "{name}: {s_m}");
        assert_eq!(s_m["err_underflow"], true, "{name}: {s_m}");
        assert_eq!(s_m["cycles"], 20_000);
    }
}

#[test]
fn rtl_and_model_identical_closed_loop() {
    let d = scratch("identical_closed");
    for name in ["episode-ft-fi", "episode-at-ri"] {
        let cfg = example(&format!("{name}.toml"));
        let args = [&["--config", cfg.as_str()][..], &EPISODE[..]].concat();
        let (csv_m, vcd_m, s_m) = traced(
            &d,
            &format!("{name}-model"),
            &[&args[..], &["--engine", "model"]].concat(),
        );
        let (csv_r, vcd_r, s_r) = traced(
            &d,
            &format!("{name}-rtl"),
            &[&args[..], &["--engine", "rtl"]].concat(),
        );
        assert!(
            csv_m == csv_r,
            "{name}: --out differs between rtl and model"
        );
        assert!(
            vcd_m == vcd_r,
            "{name}: --vcd differs between rtl and model"
        );
        assert_eq!(s_m, s_r);
    }
}

/// Enable off, drain 1: the source sends every cycle as long as CREDIT_LIMIT >= 2L+1. A flit
/// sent in cycle s is counted in c from s+1 to s+2L (its credit is `credit_return` in s+2L),
/// so c(t) = min(t, 2L) and mean_c over N cycles = 2L - L(2L+1)/N exactly.
#[test]
fn full_rate_credit_round_trip() {
    let d = scratch("full_rate");
    let cfg = write_config(&d, "off.toml", "enable = false\n");
    let n = 5000u64;
    for l in [1u64, 4, 13] {
        let (csv, _, s) = traced(
            &d,
            &format!("l{l}"),
            &[
                "--config",
                &cfg,
                "--cycles",
                &n.to_string(),
                "--link-latency",
                &l.to_string(),
                "--drain",
                "1",
            ],
        );
        assert_eq!(s["sent"], n, "L={l}: {s}");
        assert_eq!(s["injection_rate"].as_f64().unwrap(), 1.0);
        let expect = 2.0 * l as f64 - (l * (2 * l + 1)) as f64 / n as f64;
        let mean_c = s["mean_c"].as_f64().unwrap();
        assert!(
            (mean_c - expect).abs() < 1e-9,
            "L={l}: mean_c {mean_c}, derived {expect}"
        );
        assert_eq!(s["max_c"], 2 * l);
        assert_eq!(s["link"]["credit_round_trip_cycles"], 2 * l + 1);
        assert_eq!(s["frac_congested"].as_f64().unwrap(), 0.0);
        // Per cycle: c(t) = min(t, 2L), and the buffer never holds more than one flit.
        let text = String::from_utf8(csv).unwrap();
        let mut lines = text.lines();
        let header: Vec<&str> = lines.next().unwrap().split(',').collect();
        assert_eq!(&header[..4], ["cycle", "send", "c", "congested"]);
        assert_eq!(*header.last().unwrap(), "buf");
        for (t, line) in lines.enumerate() {
            let f: Vec<u64> = line.split(',').map(|x| x.parse().unwrap()).collect();
            assert_eq!(f[0], t as u64);
            assert_eq!(f[2], (t as u64).min(2 * l), "L={l} cycle {t}");
            assert!(*f.last().unwrap() <= 1);
        }
    }
}

/// CREDIT_LIMIT < 2L+1: each credit carries one flit per 2L+1 cycles, so with drain 1 the
/// source sends in bursts of CREDIT_LIMIT every R = 2L+1 cycles: over N cycles exactly
/// floor(N/R)*CL + min(N mod R, CL) flits, a rate of CL/R.
#[test]
fn credit_limit_caps_rate_at_limit_over_round_trip() {
    let d = scratch("rate_cap");
    let l = 10u64;
    let r = 2 * l + 1;
    let n = r * 500 + 7;
    for cl in [1u64, 5, 20, 21] {
        let cfg = write_config(
            &d,
            &format!("cl{cl}.toml"),
            &format!("enable = false\ncredit_limit = {cl}\n"),
        );
        let (_, _, s) = traced(
            &d,
            &format!("cl{cl}"),
            &[
                "--config",
                &cfg,
                "--cycles",
                &n.to_string(),
                "--link-latency",
                &l.to_string(),
                "--drain",
                "1",
            ],
        );
        let expect = (n / r) * cl + (n % r).min(cl);
        assert_eq!(s["sent"], expect, "CL={cl}: {s}");
        let rate = s["injection_rate"].as_f64().unwrap();
        assert!(
            (rate - cl as f64 / r as f64).abs() < 0.002,
            "CL={cl}: rate {rate}"
        );
        assert!(s["link"]["max_buf_flits"].as_u64().unwrap() <= cl);
        assert_eq!(s["max_c"], cl.min(2 * l));
    }
}

/// The values a VCD gives one 1-bit signal at each timestamp where it changes.
fn vcd_changes(vcd: &[u8], name: &str) -> Vec<(u64, bool)> {
    let mut parser = vcd::Parser::new(vcd);
    let header = parser.parse_header().unwrap();
    let var = header
        .find_var(&["pft", name])
        .unwrap_or_else(|| panic!("no pft.{name}"));
    let mut t = 0;
    let mut out = Vec::new();
    for cmd in parser {
        match cmd.unwrap() {
            vcd::Command::Timestamp(ts) => t = ts,
            vcd::Command::ChangeScalar(id, v) if id == var.code => {
                out.push((t, v == vcd::Value::V1))
            }
            _ => {}
        }
    }
    out
}

#[test]
fn directed_episodes_enter_and_leave_congested() {
    let d = scratch("episodes");
    for (name, mode) in [("episode-ft-fi", "ft-fi"), ("episode-at-ri", "at-ri")] {
        let cfg = example(&format!("{name}.toml"));
        let (_, vcd, s) = traced(
            &d,
            name,
            &[&["--config", cfg.as_str()][..], &EPISODE[..]].concat(),
        );
        assert_eq!(s["mode"], mode);
        // Normal while the drain is 1; onset after it drops at 2000; recovery after 5000.
        let enter = s["first_enter_cycle"].as_u64().unwrap();
        let leave = s["last_leave_cycle"].as_u64().unwrap();
        assert!((2000..2500).contains(&enter), "{name}: {s}");
        assert!((5000..5500).contains(&leave), "{name}: {s}");
        assert_eq!(s["enters_congested"], 1, "{name}: one clean episode: {s}");
        assert_eq!(s["leaves_congested"], 1, "{name}: {s}");
        assert_eq!(s["congested_at_end"], false);
        assert!(
            s["throttled"].as_u64().unwrap() > 100,
            "{name}: the throttle acted: {s}"
        );
        // The waveform shows the same: congested rises at the onset and falls at recovery.
        let ch = vcd_changes(&vcd, "congested");
        let rises: Vec<u64> = ch.iter().filter(|c| c.1).map(|c| c.0 / 10).collect();
        let falls: Vec<u64> = ch
            .iter()
            .skip(1)
            .filter(|c| !c.1)
            .map(|c| c.0 / 10)
            .collect();
        assert_eq!(rises, [enter], "{name}");
        assert_eq!(falls, [leave], "{name}");
    }
}

#[test]
fn same_command_twice_gives_identical_outputs() {
    let d = scratch("deterministic");
    let cfg = example("episode-at-ri.toml");
    let args = |seed: &'static str| {
        vec![
            "--config",
            cfg.as_str(),
            "--cycles",
            "20000",
            "--link-latency",
            "5",
            "--drain",
            "0.3",
            "--link-seed",
            seed,
        ]
    };
    let a = traced(&d, "a", &args("7"));
    let b = traced(&d, "b", &args("7"));
    assert!(
        a.0 == b.0 && a.1 == b.1 && a.2 == b.2,
        "two identical runs differ"
    );
    // The seed matters (so the equality above is not vacuous).
    let c = traced(&d, "c", &args("8"));
    assert!(a.0 != c.0, "--link-seed has no effect");
}

/// A closed-loop run, recorded as stimulus and replayed open loop, gives the same trace.
#[test]
fn open_loop_replay_of_closed_loop_matches() {
    let d = scratch("replay");
    let cfg = example("episode-ft-fi.toml");
    let (rec, closed, open) = (p(&d, "rec.csv"), p(&d, "closed.csv"), p(&d, "open.csv"));
    run_ok(
        &[
            &["--config", cfg.as_str()][..],
            &EPISODE[..],
            &["--out", &closed, "--record-stimulus", &rec],
        ]
        .concat(),
    );
    run_ok(&["--config", &cfg, "--stimulus", &rec, "--out", &open]);
    let closed = String::from_utf8(read(&closed)).unwrap();
    let open = String::from_utf8(read(&open)).unwrap();
    let strip_buf = |l: &str| l.rsplit_once(',').unwrap().0.to_string();
    let closed: Vec<String> = closed.lines().map(strip_buf).collect();
    let open: Vec<&str> = open.lines().collect();
    assert_eq!(closed.len(), 8001);
    assert_eq!(closed, open);
}

/// Packets: a stimulus with a `flit_head` column and the closed loop's `--packet-flits`.
/// With packet gating the throttle holds only heads; RTL and model give byte-identical
/// traces; the recorded stimulus (with its `flit_head` column) replays the closed loop.
#[test]
fn packets_in_traces() {
    let d = scratch("packets");
    let cfg = write_config(
        &d,
        "pkt.toml",
        "gating = \"packet\"\ncredit_limit = 64\nth_enter = 20\nth_escape = 10\nm = 2\nn = 1\nk = 3\n",
    );
    // open loop: random heads
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
    let rows: Vec<StimulusRow> = random_stimulus(7, 6000)
        .into_iter()
        .map(|r| StimulusRow {
            flit_head: Some(rng.gen_bool(0.25)),
            ..r
        })
        .collect();
    let stim = p(&d, "stim.csv");
    let mut f = std::fs::File::create(&stim).unwrap();
    stimulus_csv::write(&mut f, &rows).unwrap();
    drop(f);
    let args = ["--config", cfg.as_str(), "--stimulus", stim.as_str()];
    let (csv_m, vcd_m, s_m) = traced(
        &d,
        "open-model",
        &[&args[..], &["--engine", "model"]].concat(),
    );
    let (csv_r, vcd_r, _) = traced(&d, "open-rtl", &[&args[..], &["--engine", "rtl"]].concat());
    assert!(csv_m == csv_r && vcd_m == vcd_r, "rtl and model differ");
    assert!(s_m["throttled"].as_u64().unwrap() > 50, "{s_m}");
    let check = |csv: &[u8], closed: bool| {
        let text = String::from_utf8(csv.to_vec()).unwrap();
        let mut lines = text.lines();
        let h: Vec<&str> = lines.next().unwrap().split(',').collect();
        assert_eq!(*h.last().unwrap(), "flit_head");
        assert_eq!(h.contains(&"buf"), closed);
        let col = |n: &str| h.iter().position(|c| *c == n).unwrap();
        let (thr, head, send, cong) = (
            col("throttled"),
            col("flit_head"),
            col("send"),
            col("congested"),
        );
        let mut body_sent_congested = 0;
        for l in lines {
            let v: Vec<&str> = l.split(',').collect();
            if v[thr] == "1" {
                assert_eq!(v[head], "1", "a non-head flit was held: {l}");
            }
            body_sent_congested += (v[head] == "0" && v[send] == "1" && v[cong] == "1") as u32;
        }
        assert!(body_sent_congested > 20, "{body_sent_congested}");
    };
    check(&csv_m, false);
    assert!(String::from_utf8_lossy(&vcd_m).contains(" flit_head "));
    // closed loop: 8-flit packets
    let (rec, closed, open) = (p(&d, "rec.csv"), p(&d, "closed.csv"), p(&d, "open.csv"));
    run_ok(
        &[
            &["--config", cfg.as_str()][..],
            &EPISODE[..],
            &[
                "--packet-flits",
                "8",
                "--out",
                &closed,
                "--record-stimulus",
                &rec,
            ],
        ]
        .concat(),
    );
    check(&read(&closed), true);
    assert!(String::from_utf8(read(&rec))
        .unwrap()
        .starts_with("flit_valid,credit_return,flit_head\n"));
    run_ok(&["--config", &cfg, "--stimulus", &rec, "--out", &open]);
    // the replay: the same rows without `buf`
    let closed = String::from_utf8(read(&closed)).unwrap();
    let open = String::from_utf8(read(&open)).unwrap();
    let strip_buf = |l: &str| {
        let mut v: Vec<&str> = l.split(',').collect();
        v.remove(v.len() - 2);
        v.join(",")
    };
    let closed: Vec<String> = closed.lines().map(strip_buf).collect();
    let open: Vec<&str> = open.lines().collect();
    assert_eq!(closed, open);
    // heads every 8 flits sent
    let sent_heads: Vec<usize> = open[1..]
        .iter()
        .filter(|l| l.split(',').nth(1) == Some("1"))
        .map(|l| l.ends_with(",1") as usize)
        .collect();
    assert!(sent_heads.len() > 100);
    for (i, h) in sent_heads.iter().enumerate() {
        assert_eq!(*h, (i % 8 == 0) as usize, "flit {i} sent");
    }
}

/// Defaults are the register reset values, except `enable` (true).
#[test]
fn defaults_are_reset_values() {
    use pft_hdl::regs;
    let d = scratch("defaults");
    let s = p(&d, "s.json");
    run_ok(&[
        "--cycles",
        "10",
        "--link-latency",
        "1",
        "--drain",
        "1",
        "--summary",
        &s,
    ]);
    let c = &summary(&s)["config"];
    assert_eq!(c["enable"], true);
    assert_eq!(c["det_mode"], "ft");
    assert_eq!(c["thr_mode"], "fi");
    assert_eq!(c["credit_limit"], regs::RESET_CREDIT_LIMIT);
    assert_eq!(c["th_enter"], regs::RESET_TH_ENTER);
    assert_eq!(c["th_escape"], regs::RESET_TH_ESCAPE);
    assert_eq!(c["at_win_e"], regs::RESET_AT_WIN_E);
    assert_eq!(c["at_cnt_e"], regs::RESET_AT_CNT_E);
    assert_eq!(c["at_win_s"], regs::RESET_AT_WIN_S);
    assert_eq!(c["at_cnt_s"], regs::RESET_AT_CNT_S);
    assert_eq!(c["m"], regs::RESET_M);
    assert_eq!(c["n"], regs::RESET_N);
    assert_eq!(c["k"], regs::RESET_K);
    assert_eq!(c["seed"], regs::RESET_SEED);
}

/// The VCD declares every signal once, with its width, and tb/pft.gtkw names each of them
/// the way GTKWave does (`pft.c[15:0]`, `pft.send`).
#[test]
fn vcd_declarations_match_gtkw() {
    let d = scratch("gtkw");
    let v = p(&d, "t.vcd");
    run_ok(&[
        "--cycles",
        "50",
        "--link-latency",
        "2",
        "--drain",
        "0.5",
        "--packet-flits",
        "4",
        "--vcd",
        &v,
    ]);
    let vcd = read(&v);
    let header = vcd::Parser::new(&vcd[..]).parse_header().unwrap();
    let mut names = vec![("clk".to_string(), 1u32)];
    names.extend(VCD_SIGNALS.iter().map(|&(n, w)| (n.to_string(), w)));
    let gtkw =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("pft.gtkw")).unwrap();
    let listed: Vec<&str> = gtkw.lines().filter(|l| l.starts_with("pft.")).collect();
    for (name, width) in &names {
        let var = header
            .find_var(&["pft", name])
            .unwrap_or_else(|| panic!("VCD lacks pft.{name}"));
        assert_eq!(var.size, *width, "{name}");
        let gname = if *width == 1 {
            format!("pft.{name}")
        } else {
            format!("pft.{name}[{}:0]", width - 1)
        };
        assert!(listed.contains(&gname.as_str()), "pft.gtkw lacks {gname}");
    }
    for l in listed {
        assert!(
            names
                .iter()
                .any(|(n, w)| l == format!("pft.{n}") || l == format!("pft.{n}[{}:0]", w - 1)),
            "{l}"
        );
    }
}

/// A bad-input case: name, config text, stimulus text, arguments (CFG, STIM and MISSING
/// stand for the files), and what the message must contain.
type BadCase<'a> = (
    &'a str,
    Option<&'a str>,
    Option<&'a str>,
    &'a [&'a str],
    &'a [&'a str],
);

/// Bad inputs: non-zero exit, `error:` naming the key/field and the allowed range, no panic,
/// and no output file (nor temporary file) left behind.
#[test]
fn bad_inputs_fail_cleanly() {
    let ok_stim = "flit_valid,credit_return\n1,0\n0,1\n";
    let cases: [BadCase; 16] = [
        (
            "unknown_key",
            Some("m = 4\nbogus = 1\n"),
            Some(ok_stim),
            &["--config", "CFG", "--stimulus", "STIM"],
            &["unknown key `bogus`", "allowed keys"],
        ),
        (
            "m_range",
            Some("m = 40\n"),
            Some(ok_stim),
            &["--config", "CFG", "--stimulus", "STIM"],
            &["`m`", "0..=31", "40"],
        ),
        (
            "seed_zero",
            Some("seed = 0\n"),
            Some(ok_stim),
            &["--config", "CFG", "--stimulus", "STIM"],
            &["`seed`", "1..=4294967295"],
        ),
        (
            "credit_limit_zero",
            Some("credit_limit = 0\n"),
            Some(ok_stim),
            &["--config", "CFG", "--stimulus", "STIM"],
            &["`credit_limit`", "1..=65535"],
        ),
        (
            "k_type",
            Some("k = \"3\"\n"),
            Some(ok_stim),
            &["--config", "CFG", "--stimulus", "STIM"],
            &["`k`", "0..=65535", "string"],
        ),
        (
            "det_mode",
            Some("det_mode = \"xx\"\n"),
            Some(ok_stim),
            &["--config", "CFG", "--stimulus", "STIM"],
            &["`det_mode`", "\"ft\" or \"at\""],
        ),
        (
            "malformed_toml",
            Some("m = 4\nn = = 3\n"),
            Some(ok_stim),
            &["--config", "CFG", "--stimulus", "STIM"],
            &["TOML", "line 2"],
        ),
        (
            "csv_header",
            None,
            Some("valid,credit\n1,0\n"),
            &["--stimulus", "STIM"],
            &["line 1", "header", "flit_valid,credit_return"],
        ),
        (
            "credit_return_300",
            None,
            Some("flit_valid,credit_return\n1,0\n1,300\n"),
            &["--stimulus", "STIM"],
            &["line 3", "`credit_return`", "0..=255"],
        ),
        (
            "flit_valid_2",
            None,
            Some("flit_valid,credit_return\n2,0\n"),
            &["--stimulus", "STIM"],
            &["line 2", "`flit_valid`", "0 or 1"],
        ),
        (
            "latency_zero",
            None,
            None,
            &["--cycles", "10", "--link-latency", "0", "--drain", "1"],
            &["--link-latency", "1..="],
        ),
        (
            "drain_1_5",
            None,
            None,
            &["--cycles", "10", "--link-latency", "2", "--drain", "1.5"],
            &["--drain", "0..=1"],
        ),
        (
            "schedule",
            None,
            None,
            &[
                "--cycles",
                "10",
                "--link-latency",
                "2",
                "--drain-schedule",
                "0:1,10:2",
            ],
            &["--drain-schedule", "0..=1"],
        ),
        (
            "missing_config",
            None,
            Some(ok_stim),
            &["--config", "MISSING", "--stimulus", "STIM"],
            &["nope.toml"],
        ),
        (
            "missing_stimulus",
            None,
            None,
            &["--stimulus", "MISSING"],
            &["nope.toml"],
        ),
        (
            "both_loops",
            None,
            Some(ok_stim),
            &["--stimulus", "STIM", "--cycles", "5"],
            &["--stimulus", "--cycles", "cannot be used with"],
        ),
    ];
    for (case, cfg, stim, args, expect) in cases {
        let d = scratch(&format!("bad_{case}"));
        let cfg_path = p(&d, "cfg.toml");
        let stim_path = p(&d, "stim.csv");
        let missing = p(&d, "nope.toml");
        if let Some(t) = cfg {
            std::fs::write(&cfg_path, t).unwrap();
        }
        if let Some(t) = stim {
            std::fs::write(&stim_path, t).unwrap();
        }
        let before: Vec<_> = std::fs::read_dir(&d)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        let outs = [p(&d, "o.csv"), p(&d, "o.vcd"), p(&d, "o.json")];
        let mut a: Vec<&str> = args
            .iter()
            .map(|&x| match x {
                "CFG" => cfg_path.as_str(),
                "STIM" => stim_path.as_str(),
                "MISSING" => missing.as_str(),
                _ => x,
            })
            .collect();
        a.extend(["--out", &outs[0], "--vcd", &outs[1], "--summary", &outs[2]]);
        let o = run(&a);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success(), "{case}: exit 0");
        assert!(o.status.code().is_some(), "{case}: killed by a signal");
        assert!(!err.contains("panicked"), "{case}: {err}");
        assert!(err.starts_with("error: "), "{case}: {err}");
        for e in expect {
            assert!(err.contains(e), "{case}: `{e}` not in: {err}");
        }
        let after: Vec<_> = std::fs::read_dir(&d)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(before, after, "{case}: files left behind");
    }
}

/// Success leaves exactly the requested files, no temporaries.
#[test]
fn success_leaves_only_requested_files() {
    let d = scratch("success_files");
    let a = ["o.csv", "o.vcd", "o.json", "r.csv"].map(|f| p(&d, f));
    run_ok(&[
        "--cycles",
        "100",
        "--link-latency",
        "3",
        "--drain",
        "0.7",
        "--out",
        &a[0],
        "--vcd",
        &a[1],
        "--summary",
        &a[2],
        "--record-stimulus",
        &a[3],
    ]);
    let mut after: Vec<String> = std::fs::read_dir(&d)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    after.sort();
    assert_eq!(after, ["o.csv", "o.json", "o.vcd", "r.csv"]);
    assert_eq!(String::from_utf8(read(&a[0])).unwrap().lines().count(), 101);
    assert_eq!(summary(&a[2])["cycles"], 100);
}
