//! The bad-input catalogue (docs/bad-inputs.md), rows `NB-*` (`net-bench` arguments): one
//! case per row, run on the real binary in a fresh directory, checked like every row (exit
//! status, no panic, the row's message fragments, nothing left on disk);
//! `catalogue_matches_cases` keeps the doc's rows and these cases in step.

use pft_test_support::catalogue;
use pft_test_support::catalogue::*;

const NET_BENCH: &str = env!("CARGO_BIN_EXE_net-bench");

fn net_bench_cases() -> Vec<Case> {
    let n = NET_BENCH;
    vec![
        case(
            "NB-01",
            n,
            &["--topo", "single:4", "--cycles", "10", "--load", "2"],
        )
        .also(&["--load", "-0.5"])
        .also(&["--load", "-inf"]),
        case("NB-02", n, &["--load", "nan"]),
        case(
            "NB-03",
            n,
            &["--topo", "single:4", "--cycles", "10", "--msg-bytes", "0"],
        ),
        case("NB-04", n, &["--topo", "single:4", "--cycles", "0"]),
        case("NB-05", n, &["--topo", "ring"])
            .also(&["--topo", "torus:4"])
            .also(&["--topo", "dragonfly:4,8"]),
        case("NB-06", n, &["--engine", "verilog"]),
        case("NB-07", n, &["--bogus"]),
        case("NB-08", n, &["--topo", "single:4", "--cycles", "10"]).stdout_full(),
        case("NB-17", n, &["--topo", "single:4", "--cycles", "10"]).stdout_closed(),
        case("NB-18", n, &["--help"]).stdout_full(),
        // out of memory in an overload: this aborted with Rust's backtrace (status 134)
        case(
            "NB-26",
            "bash",
            &[
                "-c",
                "ulimit -v 300000 && exec \"$NB\" --topo single:64 --pattern hotspot:0,100 --load 1 --cycles 100000000",
            ],
        )
        .env("NB", NET_BENCH),
        case("NB-19", n, &["--cc", "none", "--pft", "on"]).also(&["--cc", "ibcc", "--pft", "off"]),
        case("NB-20", n, &["--ack-bytes", "5000", "--cycles", "10"]).also(&[
            "--topo",
            "ft128",
            "--cc",
            "selftuned",
            "--cycles",
            "10",
        ]),
        case("NB-21", n, &["--topo", "dragonfly:1,1,1,1", "--vcs", "2"]),
        case(
            "NB-22",
            n,
            &["--topo", "tree:32,3", "--vcs", "2", "--vc-buf", "65535"],
        ),
        // the default deadlock limit on lanes of slow global links: this ran and stopped
        // with a false deadlock (exit 1), at 40000 and at the flag's own top, 65536; the
        // refusal names `--deadlock-cycles`
        case(
            "NB-27",
            n,
            &[
                "--topo",
                "dragonfly:1,2,1",
                "--vcs",
                "2",
                "--global-latency",
                "40000",
                "--cycles",
                "200000",
            ],
        )
        .also(&[
            "--topo",
            "dragonfly:1,2,1",
            "--vcs",
            "2",
            "--global-latency",
            "65536",
            "--cycles",
            "200000",
        ]),
        // lanes sized by the NICs' buffer (no flag) beyond the entry ids: this exited 1
        // naming `buffer_flits`, and `--vc-buf` did not help
        case("NB-28", n, &["--topo", "tree:8,5", "--vcs", "4", "--cycles", "1"]),
        // the watchdogs' flags below their bounds: usage errors naming the flag
        case("NB-29", n, &["--deadlock-cycles", "5", "--cycles", "10"]),
        case("NB-30", n, &["--stall-cycles", "10", "--cycles", "10"]),
        // the PFT block's engine under another scheme was printed and not run
        case("NB-31", n, &["--engine", "rtl", "--cc", "none"]).also(&["--engine", "model", "--cc", "ibcc"]),
        case(
            "NB-23",
            n,
            &[
                "--topo",
                "torus:4,2",
                "--vcs",
                "2",
                "--voq",
                "--cycles",
                "10",
            ],
        ),
        case(
            "NB-24",
            n,
            &[
                "--topo",
                "single:4",
                "--pattern",
                "shift:4",
                "--cycles",
                "10",
            ],
        )
        .also(&[
            "--topo",
            "single:4",
            "--pattern",
            "shift:0",
            "--cycles",
            "10",
        ]),
        case(
            "NB-25",
            n,
            &[
                "--topo",
                "tree:32,3",
                "--speedup",
                "2",
                "--out-buf",
                "30000",
                "--cycles",
                "10",
            ],
        ),
        case("NB-09", n, &["--topo", "single:1"]).also(&["--topo", "torus:1,2"]),
        case("NB-10", n, &["--topo", "tree:8,6"]),
        case("NB-11", n, &["--packet-flits", "0"]).also(&[
            "--packet-flits",
            "4",
            "--msg-bytes",
            "64",
        ]),
        case("NB-12", n, &["--head-latency", "3"]),
        case("NB-13", n, &["--speedup", "0"]).also(&["--speedup", "2", "--vcs", "2"]),
        case("NB-15", n, &["--topo", "dragonfly:4,8,4,40"]),
        case(
            "NB-16",
            n,
            &[
                "--topo",
                "dragonfly:2,4,2",
                "--routing",
                "par",
                "--vcs",
                "3",
            ],
        ),
        case(
            "NB-14",
            n,
            &["--topo", "single:4", "--cycles", "100", "--load", "0"],
        ),
    ]
}

#[test]
fn catalogue_matches_cases() {
    catalogue!().matches_cases(&["NB"], net_bench_cases().iter().map(|c| c.id));
}

#[test]
fn net_bench_arguments() {
    let cat = catalogue!();
    for c in net_bench_cases() {
        cat.run(&c);
    }
}
