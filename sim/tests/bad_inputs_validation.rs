//! The bad-input catalogue (docs/bad-inputs.md), rows `SV-*`: one validation for `check`,
//! `run`, `compare` and `sweep`. Each row is a scenario (or a `--set`) that a derived check
//! used to let through, judge twice, or judge after the run had begun: a zero that reached a
//! division (a panic), a check that reported a value the user did not write, a refusal that
//! `check` did not make and the run made after creating its directory. One case per row, run
//! on the real binary in a fresh directory, checked like every row (exit status, no panic,
//! the row's message fragments, nothing left on disk). `catalogue_matches_cases` keeps the
//! doc's SV rows and these cases in step.

const PFTSIM: &str = env!("CARGO_BIN_EXE_pftsim");

use pft_test_support::catalogue::*;
use pft_test_support::{case_root, catalogue};

/// A small valid scenario: 4 NICs on one switch, uniform traffic, no entry.
const BASE: &str = r#"name = "sv"
[cycles]
max = 1000
[network]
topology = { kind = "single_switch", nodes = 4 }
buffer_flits = 64
eject_buffer_flits = 64
mtu_bytes = 1024
[workload]
kind = "uniform"
load = 0.5
msg_bytes = 1024
"#;

/// A valid network for MVCM and Renato's proposal: a 2-ary 2-fly of CIOQ switches with
/// ACKs, 8-byte flits and a 64-byte MTU.
const FLY: &str = r#"name = "sv"
[cycles]
max = 1000
[network]
topology = { kind = "kary_nfly", k = 2, n = 2 }
flit_bytes = 8
mtu_bytes = 64
buffer_flits = 64
eject_buffer_flits = 64
speedup = 2
ack_bytes = 8
[workload]
kind = "uniform"
load = 0.3
msg_bytes = 64
"#;

/// A one-axis grid over the scenario's own seed: `sweep` validates its point scenarios.
const GRID: &str = "[[axis]]\nkey = \"cycles.max\"\nvalues = [1000]\n";

fn with(base: &str, from: &str, to: &str) -> String {
    assert!(base.contains(from), "`{from}` is not in the base");
    base.replacen(from, to, 1)
}

/// `BASE` or `FLY` plus one `[[cc]]` entry of `kind` with `keys`.
fn entry(base: &str, kind: &str, keys: &str) -> String {
    format!("{base}[[cc]]\nname = \"c\"\nkind = \"{kind}\"\n{keys}")
}

/// A scenario case: `check`, `run`, `compare` and `sweep` all refuse it the same way,
/// before creating anything.
fn sv(id: &'static str, text: impl Into<Vec<u8>>) -> Case {
    case(id, PFTSIM, &["check", "s.toml"])
        .also(&["run", "s.toml", "--out", "o", "--quiet"])
        .also(&["compare", "s.toml", "--out", "o", "--quiet"])
        .also(&[
            "sweep", "s.toml", "--grid", "g.toml", "--out", "o", "--quiet", "--yes",
        ])
        .file("s.toml", text)
        .file("g.toml", GRID)
}

/// A `--set` case on `BASE`: `check`, `run` and `compare` refuse the value.
fn set_case(id: &'static str, set: &'static str) -> Case {
    case(id, PFTSIM, &["check", "s.toml", "--set", set])
        .also(&["run", "s.toml", "--out", "o", "--quiet", "--set", set])
        .also(&["compare", "s.toml", "--out", "o", "--quiet", "--set", set])
        .file("s.toml", BASE)
}

fn cases() -> Vec<Case> {
    vec![
        // a zero that reached a division before its range check (both panicked)
        sv("SV-01", entry(FLY, "mvcm", "packet_bytes = 0\n")),
        sv("SV-02", entry(FLY, "renato", "packet_bytes = 0\n")),
        // a derived check never judges a value already refused (this also said `cc[0]` =
        // mvcm: rtt_min = 0)
        sv("SV-03", entry(FLY, "mvcm", "rtt_min = 0\n")),
        // a scheme that marks at switch inputs with lanes (IB CC, refused here before it
        // marked on lanes: `check` said ok, and the run failed after creating its
        // directory, naming "credit counter")
        sv(
            "SV-04",
            entry(
                &with(FLY, "speedup = 2", "vcs = 2"),
                "renato",
                "",
            ),
        ),
        // latencies at or above the deadlock watchdog
        sv(
            "SV-05",
            with(
                BASE,
                "mtu_bytes = 1024",
                "mtu_bytes = 1024\nlink_latency_cycles = 10\nswitch_latency_cycles = 15\ndeadlock_cycles = 20",
            ),
        ),
        sv(
            "SV-06",
            with(
                BASE,
                "mtu_bytes = 1024",
                "mtu_bytes = 1024\ncredit_latency_cycles = 60\ndeadlock_cycles = 20",
            ),
        ),
        // one pass: every network feature MVCM needs, and its k and n (this reported the
        // first one only)
        sv("SV-07", entry(BASE, "mvcm", "")),
        // a derived limit names the key and a satisfiable range (this said `cc[0]` = mvcm)
        sv("SV-08", entry(FLY, "mvcm", "ws_max_incs = 31\n")),
        // the packet size's own range is the network's MTU
        sv("SV-09", entry(FLY, "renato", "packet_bytes = 65\n")),
        // a `--set` value over two lines (the first line was applied, the rest dropped)
        set_case("SV-10", "seed=7\nname = \"other\""),
        // a `kind = "pft"` entry reports every register at its full key (this said `cc[0]`
        // and stopped at the first)
        sv("SV-11", entry(BASE, "pft", "m = 40\nk = 70000\n")),
        // a topology file's link latency against the deadlock watchdog (`check` said ok;
        // the run created `o` and stopped with a deadlock in a network only waiting)
        sv(
            "SV-12",
            with(
                BASE,
                "{ kind = \"single_switch\", nodes = 4 }",
                "{ kind = \"file\", path = \"t.net\" }\ndeadlock_cycles = 1000",
            ),
        )
        .file("t.net", "router 0 node 0 node 1 router 1 5000\nrouter 1 node 2 node 3\n"),
        // a dragonfly's own link latency is named (this named link_latency_cycles and
        // credit_latency_cycles, with values the user did not write)
        sv(
            "SV-13",
            with(
                BASE,
                "{ kind = \"single_switch\", nodes = 4 }",
                "{ kind = \"dragonfly\", p = 1, a = 2, h = 1 }\nvcs = 2\n\
                 local_latency_cycles = 5000\ndeadlock_cycles = 1000",
            ),
        ),
        // a class watchdog shorter than any delivery (`check` said ok; the run created `o`
        // and stopped on a class that was only on its way)
        sv(
            "SV-14",
            with(BASE, "mtu_bytes = 1024", "mtu_bytes = 1024\nstall_cycles = 1"),
        ),
        // above the head's way but not the packet's: its 16 flits still arrive, one a cycle
        // (`check` said ok; the run stopped on a class whose first packet was on its way)
        sv(
            "SV-15",
            with(BASE, "mtu_bytes = 1024", "mtu_bytes = 1024\nstall_cycles = 30"),
        ),
        // a NIC that drains a flit each 65,536 cycles: the packet's flits drain that far
        // apart (`check` said ok; the run stopped on a class whose first packet drained)
        sv(
            "SV-18",
            with(
                BASE,
                "mtu_bytes = 1024",
                "mtu_bytes = 1024\neject_rate = 0.0000153\nstall_cycles = 500000",
            ),
        ),
        // the default deadlock limit on lanes of 40000-cycle global links (`check` said ok;
        // the run stopped on a lane behind a packet that only crawled)
        sv(
            "SV-16",
            with(
                BASE,
                "{ kind = \"single_switch\", nodes = 4 }",
                "{ kind = \"dragonfly\", p = 1, a = 2, h = 1 }\nvcs = 2\n\
                 global_latency_cycles = 40000",
            ),
        ),
        // lanes sized by the default `buffer_flits`, too many for the entry ids (this named
        // `buffer_flits`, which the user had not set, and not `vcs`)
        sv(
            "SV-17",
            with(
                &with(BASE, "buffer_flits = 64\neject_buffer_flits = 64\n", "vcs = 4\n"),
                "{ kind = \"single_switch\", nodes = 4 }",
                "{ kind = \"kary_ntree\", k = 8, n = 5 }",
            ),
        ),
    ]
}

#[test]
fn catalogue_matches_cases() {
    catalogue!().matches_cases(&["SV"], cases().iter().map(|c| c.id));
}

#[test]
fn base_scenarios_are_valid() {
    for (name, text) in [("BASE", BASE), ("FLY", FLY)] {
        let d = case_dir(&case_root!(), &format!("base-{name}"));
        std::fs::write(d.join("s.toml"), text).unwrap();
        let o = std::process::Command::new(PFTSIM)
            .args(["check", "s.toml"])
            .current_dir(&d)
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
}

#[test]
fn one_validation_for_every_command() {
    let cat = catalogue!();
    for c in cases() {
        cat.run(&c);
    }
}
