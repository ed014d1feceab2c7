//! Fuzzing the inputs of `pftsim` and `net-bench` with proptest (docs/bad-inputs.md,
//! "Fuzzing"):
//!
//! - arbitrary text, and structured mutations of the shipped scenarios (a key dropped,
//!   renamed or added, a value replaced by one of another type, a huge, negative or
//!   non-finite number), through `Scenario::parse` and `Scenario::validate`: nothing
//!   panics, and every refusal names a key (or, for a syntax error, a line);
//! - random command lines through clap's `try_parse_from` on the binaries' own `Cli` and
//!   `Args` (the binaries are included below as modules), and a smaller sample through the
//!   real `pftsim` binary: nothing panics, and exit statuses are 0, 1 or 2.
//!
//! With the default case counts the whole file runs in about 70 s in a release build on a
//! 2-core machine (docs/bad-inputs.md, "Fuzzing"); `PROPTEST_CASES=N` runs N cases per
//! property instead (N / 50 for the properties that start a process per case). Inputs that
//! once failed are kept as plain regression tests at the end.

use pft_sim::scenario::Scenario;
use proptest::prelude::*;
use std::path::Path;
use std::process::{Command, Stdio};

#[allow(dead_code, unused_imports)]
#[path = "../src/bin/pftsim.rs"]
mod pftsim_bin;

#[allow(dead_code, unused_imports)]
#[path = "../src/bin/net-bench.rs"]
mod net_bench_bin;

use pft_test_support::fuzz::{check_usage_error, config, process_config};

fn scenario_texts() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scenarios");
    let mut v: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| {
            let p = e.unwrap().path();
            (p.extension()? == "toml").then(|| std::fs::read_to_string(p).unwrap())
        })
        .collect();
    v.sort();
    v.push(
        r#"[network]
topology = { kind = "single_switch", nodes = 8 }
buffer_flits = 64
eject_buffer_flits = 64
mtu_bytes = 1024
[workload]
kind = "uniform"
load = 0.5
injection = { type = "on_off", mean_burst_cycles = 100 }
[[pft]]
name = "a"
"#
        .to_string(),
    );
    assert!(v.len() >= 4, "the shipped scenarios were not found");
    v
}

/// Parse and validate like `Scenario::load`; the error text when refused.
fn check_text(text: &str) -> Result<(), String> {
    let s = Scenario::parse(text)?;
    s.validate().map_err(|p| p.to_string())
}

/// A refusal must say where: a backticked key, or a line for a syntax error.
fn names_something(msg: &str) -> bool {
    msg.contains('`') || msg.contains("line ")
}

// ---------------------------------------------------------------------------------------
// Structured mutations of TOML documents

#[derive(Clone, Debug)]
enum Mutation {
    Drop,
    Rename(String),
    Replace(toml::Value),
    Add(String, toml::Value),
}

fn random_value() -> impl Strategy<Value = toml::Value> {
    let leaf = prop_oneof![
        any::<i64>().prop_map(toml::Value::Integer),
        prop_oneof![
            Just(0i64),
            Just(-1),
            Just(1),
            Just(2),
            Just(31),
            Just(32),
            Just(64),
            Just(65535),
            Just(65536),
            Just(i64::MAX),
            Just(i64::MIN),
            Just(4294967296),
            Just(10_000_000_001),
        ]
        .prop_map(toml::Value::Integer),
        prop_oneof![
            any::<f64>(),
            Just(f64::NAN),
            Just(f64::INFINITY),
            Just(-0.0),
            Just(1e300),
            Just(0.5),
            Just(1.5),
        ]
        .prop_map(toml::Value::Float),
        any::<bool>().prop_map(toml::Value::Boolean),
        "[a-z_]{0,12}".prop_map(toml::Value::String),
        any::<String>().prop_map(toml::Value::String),
        prop_oneof![
            Just("uniform"),
            Just("hotspot"),
            Just("gpcnet"),
            Just("fat_tree"),
            Just("single_switch"),
            Just("three_stage"),
            Just("ft"),
            Just("at"),
            Just("ri"),
            Just("fi"),
            Just("rtl"),
            Just("model"),
            Just("off"),
            Just("isolated"),
        ]
        .prop_map(|s| toml::Value::String(s.to_string())),
    ];
    leaf.prop_recursive(2, 8, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(toml::Value::Array),
            prop::collection::btree_map("[a-z_]{1,8}", inner, 0..3)
                .prop_map(|m| toml::Value::Table(m.into_iter().collect())),
        ]
    })
}

fn random_key() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z_]{1,12}",
        // keys that exist somewhere, in the wrong place
        prop_oneof![
            Just("kind"),
            Just("nodes"),
            Just("radix"),
            Just("leaves"),
            Just("max"),
            Just("name"),
            Just("load"),
            Just("m"),
            Just("seed"),
            Just("warmup"),
            Just("period"),
            Just("nics"),
            Just("pft"),
            Just("workload"),
        ]
        .prop_map(str::to_string),
    ]
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        1 => Just(Mutation::Drop),
        1 => random_key().prop_map(Mutation::Rename),
        3 => random_value().prop_map(Mutation::Replace),
        1 => (random_key(), random_value()).prop_map(|(k, v)| Mutation::Add(k, v)),
    ]
}

/// Every path (keys and array indices) to a value in `t`.
fn paths(t: &toml::Table) -> Vec<Vec<String>> {
    fn walk(v: &toml::Value, at: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
        out.push(at.clone());
        match v {
            toml::Value::Table(t) => {
                for (k, v) in t {
                    at.push(k.clone());
                    walk(v, at, out);
                    at.pop();
                }
            }
            toml::Value::Array(a) => {
                for (i, v) in a.iter().enumerate() {
                    at.push(format!("[{i}]"));
                    walk(v, at, out);
                    at.pop();
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(&toml::Value::Table(t.clone()), &mut Vec::new(), &mut out);
    out.retain(|p| !p.is_empty());
    out
}

fn get_mut<'a>(v: &'a mut toml::Value, p: &[String]) -> Option<&'a mut toml::Value> {
    let Some((first, rest)) = p.split_first() else {
        return Some(v);
    };
    let next = match v {
        toml::Value::Table(t) => t.get_mut(first)?,
        toml::Value::Array(a) => {
            let i: usize = first.trim_matches(|c| c == '[' || c == ']').parse().ok()?;
            a.get_mut(i)?
        }
        _ => return None,
    };
    get_mut(next, rest)
}

/// Applies `m` at `p` (in `root`); false when it does not apply there.
fn apply(root: &mut toml::Value, p: &[String], m: &Mutation) -> bool {
    let (last, parent) = p.split_last().unwrap();
    if let Mutation::Replace(v) = m {
        return match get_mut(root, p) {
            Some(slot) => {
                *slot = v.clone();
                true
            }
            None => false,
        };
    }
    let Some(toml::Value::Table(t)) = get_mut(root, parent) else {
        return false;
    };
    match m {
        Mutation::Drop => t.remove(last).is_some(),
        Mutation::Rename(k) => match t.remove(last) {
            Some(v) => {
                t.insert(k.clone(), v);
                true
            }
            None => false,
        },
        Mutation::Add(k, v) => {
            t.insert(k.clone(), v.clone());
            true
        }
        Mutation::Replace(_) => unreachable!(),
    }
}

proptest! {
    #![proptest_config(config(40_000))]

    /// Any text at all.
    #[test]
    fn scenario_arbitrary_text(text in any::<String>()) {
        if let Err(msg) = check_text(&text) {
            prop_assert!(!msg.is_empty());
        }
    }

    /// Text that looks like TOML: lines of keys, tables and values in random order.
    #[test]
    fn scenario_toml_like_lines(lines in prop::collection::vec(
        prop_oneof![
            "\\[[a-z_.]{0,12}\\]",
            "\\[\\[[a-z]{0,6}\\]\\]",
            "[a-z_]{1,10} = [0-9]{1,22}",
            "[a-z_]{1,10} = -[0-9]{1,5}",
            "[a-z_]{1,10} = \"[a-z_]{0,8}\"",
            "[a-z_]{1,10} = \\{ [a-z_]{1,6} = [0-9a-z\"]{1,6} \\}",
            "[a-z_]{1,10} = \\[[0-9, ]{0,12}\\]",
            "[a-z_ =\\[\\]{}\",.0-9#-]{0,30}",
        ],
        0..16,
    )) {
        let text = lines.join("\n");
        if let Err(msg) = check_text(&text) {
            prop_assert!(names_something(&msg), "no key or line in: {msg}\n--- input\n{text}");
        }
    }

    /// One structured mutation of a shipped scenario.
    #[test]
    fn scenario_mutations(which in 0usize..64, at in any::<prop::sample::Index>(), m in mutation()) {
        let texts = scenario_texts();
        let base: toml::Table = toml::from_str(&texts[which % texts.len()]).unwrap();
        let ps = paths(&base);
        let p = ps[at.index(ps.len())].clone();
        let mut root = toml::Value::Table(base);
        if !apply(&mut root, &p, &m) {
            return Ok(()); // e.g. dropping an array element: nothing to test
        }
        let Ok(text) = toml::to_string(&root) else {
            return Ok(()); // not every mutated tree can be written as TOML
        };
        match check_text(&text) {
            Ok(()) => {}
            Err(msg) => {
                prop_assert!(names_something(&msg), "no key or line in: {msg}\n--- input\n{text}");
                // a problem list names a key on every line
                if !msg.contains("line ") {
                    for l in msg.lines() {
                        prop_assert!(l.trim_start().starts_with('`'), "line without a key: {l}\n{msg}");
                    }
                }
                // a value of the wrong type is refused at its own key, or at a table above
                // it when serde lost the position (internally tagged enums)
                if let Mutation::Replace(_) = m {
                    let named: Vec<&str> = p.iter()
                        .filter(|k| !k.starts_with('['))
                        .map(String::as_str)
                        .collect();
                    if msg.contains("invalid type") {
                        prop_assert!(
                            named.iter().any(|k| msg.contains(k)) || msg.contains("pft["),
                            "the error does not name {p:?}: {msg}\n--- input\n{text}"
                        );
                    }
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// Valid but unusual scenarios: whatever `validate` accepts must run

#[derive(Debug, Clone)]
struct Small {
    topo: String,
    flit_bytes: u32,
    mtu_flits: u32,
    buffer_extra: u32,
    eject_extra: u32,
    link: u32,
    credit: u32,
    switch: u32,
    voq: bool,
    eject_rate: f64,
    workload: String,
    cycles: u64,
    period: u64,
    pft: String,
    rtl: bool,
    seed: u64,
}

fn small_scenario() -> impl Strategy<Value = Small> {
    let topo = prop_oneof![
        (2u32..=8).prop_map(|n| format!("{{ kind = \"single_switch\", nodes = {n} }}")),
        (2u32..=4, 2u32..=4).prop_map(|(h, l)| format!(
            "{{ kind = \"fat_tree\", radix = {}, leaves = {} }}",
            2 * h,
            l.min(2 * h)
        )),
        Just("{ kind = \"three_stage\", radix = 4 }".to_string()),
    ];
    let workload = prop_oneof![
        (0.0f64..=1.0, 1u32..=300, any::<bool>()).prop_map(|(load, msg, burst)| format!(
            "kind = \"uniform\"\nload = {load}\nmsg_bytes = {msg}\n{}",
            if burst && load < 0.9 {
                "injection = { type = \"on_off\", mean_burst_cycles = 20.0, peak_load = 1.0 }\n"
            } else {
                ""
            }
        )),
        (1u32..=3, 0.0f64..=1.0, 1u32..=300).prop_map(|(h, load, msg)| format!(
            "kind = \"hotspot\"\nhotspots = {h}\nfrac_c = 0.5\nfrac_v = 0.5\nload = {load}\n\
             msg_bytes = {msg}\nmove_period_cycles = 50\n"
        )),
        (1u32..=2).prop_map(|ppn| format!(
            "kind = \"gpcnet\"\nppn = {ppn}\ncanary_start_cycles = 20\nlat_iters = 2\n\
             lat_warmup_iters = 0\nbw_iters = 1\nbw_warmup_iters = 0\nallreduce_iters = 1\n\
             allreduce_warmup_iters = 0\n"
        )),
    ];
    let pft = (
        any::<bool>(),
        prop_oneof![Just("ft"), Just("at")],
        prop_oneof![Just("fi"), Just("ri")],
        prop::array::uniform6(prop_oneof![0u32..=8, 0u32..=70, Just(65535)]),
        (0u32..=31, 0u32..=31, prop_oneof![0u32..=4, Just(65535)]),
    )
        .prop_map(|(en, d, t, v, (m, n, k))| {
            format!(
                "[[pft]]\nname = \"x\"\nenable = {en}\ndet_mode = \"{d}\"\nthr_mode = \"{t}\"\n\
                 th_enter = {}\nth_escape = {}\nat_win_e = {}\nat_cnt_e = {}\nat_win_s = {}\n\
                 at_cnt_s = {}\nm = {m}\nn = {n}\nk = {k}\n",
                v[0], v[1], v[2], v[3], v[4], v[5]
            )
        });
    (
        (
            topo,
            prop_oneof![Just(1u32), Just(8), Just(64), Just(100)],
            1u32..=6,
            0u32..=20,
            0u32..=20,
        ),
        (
            1u32..=4,
            1u32..=4,
            0u32..=3,
            any::<bool>(),
            prop_oneof![Just(0.05), Just(0.5), Just(1.0)],
        ),
        (
            workload,
            1u64..=300,
            1u64..=50,
            pft,
            prop::bool::weighted(0.05),
            0..=i64::MAX as u64,
        ),
    )
        .prop_map(
            |(
                (topo, flit_bytes, mtu_flits, buffer_extra, eject_extra),
                (link, credit, switch, voq, eject_rate),
                (workload, cycles, period, pft, rtl, seed),
            )| Small {
                topo,
                flit_bytes,
                mtu_flits,
                buffer_extra,
                eject_extra,
                link,
                credit,
                switch,
                voq,
                eject_rate,
                workload,
                cycles,
                period,
                pft,
                rtl,
                seed,
            },
        )
}

impl Small {
    fn toml(&self) -> String {
        let mtu = self.mtu_flits;
        format!(
            "seed = {}\nengine = \"{}\"\n[cycles]\nmax = {}\n[timeseries]\nperiod = {}\n\
             [network]\ntopology = {}\nflit_bytes = {}\nmtu_bytes = {}\nbuffer_flits = {}\n\
             eject_buffer_flits = {}\nlink_latency_cycles = {}\ncredit_latency_cycles = {}\n\
             switch_latency_cycles = {}\nvoq = {}\neject_rate = {}\ncheck = true\n\
             deadlock_cycles = 0\n[workload]\n{}{}",
            self.seed,
            if self.rtl { "rtl" } else { "model" },
            self.cycles,
            self.period,
            self.topo,
            self.flit_bytes,
            mtu * self.flit_bytes,
            mtu + self.buffer_extra,
            mtu + self.eject_extra,
            self.link,
            self.credit,
            self.switch,
            self.voq,
            self.eject_rate,
            self.workload,
            self.pft
        )
    }
}

proptest! {
    #![proptest_config(config(6000))]

    /// A scenario that `validate` accepts runs (with the invariant checker on every cycle)
    /// without a panic and without a failed invariant.
    #[test]
    fn valid_scenarios_run(sm in small_scenario()) {
        use pft_sim::scenario::{run, Progress, RunSpec};
        let text = sm.toml();
        let sc = match Scenario::parse(&text) {
            Ok(sc) => sc,
            Err(e) => return Err(TestCaseError::fail(format!("the generator wrote a bad file: {e}\n{text}"))),
        };
        if sc.validate().is_err() {
            return Ok(()); // refused (e.g. too few NICs for GPCNeT): the other tests cover it
        }
        for (name, cc) in sc.configs() {
            let spec = RunSpec { label: name, cc, congestors: true };
            let r = run::run(&sc, &spec, &Progress::quiet());
            prop_assert!(r.is_ok(), "{:#}\n--- scenario\n{text}", r.err().unwrap());
        }
    }
}

// ---------------------------------------------------------------------------------------
// Command lines

fn arg() -> impl Strategy<Value = String> {
    prop_oneof![
        prop_oneof![
            Just("run"),
            Just("compare"),
            Just("check"),
            Just("help"),
            Just("--out"),
            Just("--pft"),
            Just("--jobs"),
            Just("--quiet"),
            Just("--help"),
            Just("-h"),
            Just("--version"),
            Just("-V"),
            Just("--"),
            Just("-"),
            Just("--topo"),
            Just("--load"),
            Just("--cycles"),
            Just("--engine"),
            Just("--voq"),
            Just("--check"),
            Just("--msg-bytes"),
            Just("--seed"),
            Just("single:4"),
            Just("ft128"),
            Just("rtl"),
            Just("model"),
            Just("on"),
            Just("off"),
            Just("s.toml"),
            Just("o"),
        ]
        .prop_map(str::to_string),
        prop_oneof![
            any::<i64>().prop_map(|n| n.to_string()),
            any::<f64>().prop_map(|n| n.to_string()),
            Just("nan".to_string()),
            Just("inf".to_string()),
            Just("1e400".to_string()),
            Just("99999999999999999999999".to_string()),
            Just("0x10".to_string()),
            Just(" 3".to_string()),
            Just("".to_string()),
        ],
        "--[a-z-]{1,10}",
        "--[a-z-]{1,8}=[a-z0-9.:-]{0,6}",
        any::<String>(),
    ]
}

proptest! {
    #![proptest_config(config(40_000))]

    /// A refused command line is a usage error that names what is wrong
    /// (`pft_test_support::fuzz::check_usage_error`).
    #[test]
    fn pftsim_command_lines(args in prop::collection::vec(arg(), 0..7)) {
        use clap::Parser;
        let argv = std::iter::once("pftsim".to_string()).chain(args.iter().cloned());
        if let Err(e) = pftsim_bin::Cli::try_parse_from(argv) {
            let r = check_usage_error("pftsim", &e, &args);
            prop_assert!(r.is_ok(), "{}", r.unwrap_err());
        }
    }

    #[test]
    fn net_bench_command_lines(args in prop::collection::vec(arg(), 0..7)) {
        use clap::Parser;
        let argv = std::iter::once("net-bench".to_string()).chain(args.iter().cloned());
        match net_bench_bin::Args::try_parse_from(argv) {
            Ok(a) => {
                // whatever parses is in range: the run cannot panic on it
                let load = format!("{a:?}");
                prop_assert!(!load.contains("NaN"), "{load}");
            }
            Err(e) => {
                let r = check_usage_error("net-bench", &e, &args);
                prop_assert!(r.is_ok(), "{}", r.unwrap_err());
            }
        }
    }
}

/// The real binary, on random command lines, in a directory with a tiny scenario: exit
/// status 0, 1 or 2, never a panic. A smaller sample (each case starts a process).
#[test]
fn pftsim_binary_command_lines() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("fuzz_pftsim_cli");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("s.toml"),
        r#"[cycles]
max = 300
[network]
topology = { kind = "single_switch", nodes = 4 }
buffer_flits = 64
eject_buffer_flits = 64
mtu_bytes = 1024
[workload]
kind = "uniform"
load = 0.5
msg_bytes = 1024
[[pft]]
name = "p"
"#,
    )
    .unwrap();
    let mut runner = proptest::test_runner::TestRunner::new(process_config(250));
    runner
        .run(&prop::collection::vec(arg(), 0..6), |args| {
            let o = Command::new(env!("CARGO_BIN_EXE_pftsim"))
                .args(&args)
                .current_dir(&dir)
                .env("RUST_BACKTRACE", "0")
                .stdin(Stdio::null())
                .output()
                .unwrap();
            let err = String::from_utf8_lossy(&o.stderr);
            prop_assert!(
                matches!(o.status.code(), Some(0..=2)),
                "pftsim {args:?}: exit {:?}\n{err}",
                o.status.code()
            );
            prop_assert!(!err.contains("panicked"), "pftsim {args:?}:\n{err}");
            Ok(())
        })
        .unwrap();
}

// ---------------------------------------------------------------------------------------
// Regressions: inputs the fuzzers once failed on

#[test]
fn regressions() {
    // each input with what its message must contain
    for (text, must) in [
        (
            "[workload]\nkind = \"gpcnet\"\nppn = -4\n",
            "`workload.ppn` (line 3",
        ),
        ("[workload]\nload = 0.5\n", "`workload.kind`"),
        ("", "`workload`"),
    ] {
        let e = check_text(text).unwrap_err();
        assert!(e.contains(must), "{text:?}: `{must}` not in {e}");
    }
}
