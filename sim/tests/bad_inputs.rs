//! The bad-input catalogue (docs/bad-inputs.md), rows `SC-*` (scenario files; `SX-*`,
//! pftsim's arguments and outputs, are in `bad_inputs_cli.rs`, `NB-*` in
//! `bad_inputs_net_bench.rs`): one case per row,
//! run on the real binary in a fresh directory. Every case checks that the process exits
//! with the row's status and did not panic, that its output contains every ``code span``
//! of the row's "what it gets" column (so the doc shows the real message), and what is left
//! on disk (by default: nothing, not even a temporary file). `catalogue_matches_cases`
//! keeps the doc's rows and these cases in step. `BAD_INPUTS_SHOW=1 cargo test --release
//! --locked -p pft-sim --test bad_inputs -- --nocapture` prints every case's real output.

const PFTSIM: &str = env!("CARGO_BIN_EXE_pftsim");

/// Row prefixes this file owns.
const OWNED: [&str; 1] = ["SC"];
use pft_test_support::catalogue::*;
use pft_test_support::{case_root, catalogue};
use std::process::Command;

// ---------------------------------------------------------------------------------------
// Scenario files

/// A small valid scenario (checked by `base_scenario_is_valid`); the SC cases change one
/// thing in it.
const BASE: &str = r#"name = "bad"
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
[[pft]]
name = "p"
"#;

/// BASE with its `[[pft]]` entry replaced by the top-level entry `line` (an inline array
/// of tables), which must come before the first table.
fn inline_entries(line: &str) -> String {
    let body = BASE.replace("[[pft]]\nname = \"p\"\n", "");
    body.replacen("[cycles]", &format!("{line}\n[cycles]"), 1)
}

/// BASE on a dragonfly of 3 groups of a * p = 2 * 1 NICs, `workload` after its workload.
fn on_dragonfly(workload: &str) -> String {
    with(
        "topology = { kind = \"single_switch\", nodes = 4 }",
        "topology = { kind = \"dragonfly\", p = 1, a = 2, h = 1 }\nvcs = 2",
    )
    .replace(
        "msg_bytes = 1024\n",
        &format!("msg_bytes = 1024\n{workload}"),
    )
}

fn with(from: &str, to: &str) -> String {
    assert!(BASE.contains(from), "`{from}` is not in BASE");
    BASE.replacen(from, to, 1)
}

/// A scenario case: `check s.toml` and `run s.toml --out o` both fail the same way.
fn sc(id: &'static str, text: impl Into<Vec<u8>>) -> Case {
    case(id, PFTSIM, &["check", "s.toml"])
        .also(&["run", "s.toml", "--out", "o", "--quiet"])
        .also(&["compare", "s.toml", "--out", "o", "--quiet"])
        .file("s.toml", text)
}

const GPCNET: &str = r#"[network]
topology = { kind = "single_switch", nodes = 16 }
[workload]
kind = "gpcnet"
ppn = 0
"#;

/// A valid hot-spot scenario ending in a `[[pft]]` entry (SC-71 adds keys to it).
const HOTSPOT_OK: &str = r#"[cycles]
max = 1000
[network]
topology = { kind = "single_switch", nodes = 8 }
[workload]
kind = "hotspot"
hotspots = 1
[[pft]]
name = "p"
"#;

const HOTSPOT: &str = r#"[network]
topology = { kind = "single_switch", nodes = 8 }
[workload]
kind = "hotspot"
hotspots = 20
frac_c = 0.8
frac_v = 0.5
"#;

fn scenario_cases() -> Vec<Case> {
    let many_nics = format!(
        "[timeseries]\nnics = [{}]\n",
        (0..65).map(|_| "0").collect::<Vec<_>>().join(", ")
    );
    vec![
        sc("SC-01", with("name = \"bad\"", "name = \"bad")),
        sc("SC-02", ""),
        sc("SC-03", with("name = \"bad\"", "name = \"bad\"\nfoo = 1")),
        sc("SC-04", with("max = 1000", "maxx = 1000")),
        sc("SC-05", with("load = 0.5", "load = 0.5\nburst = 3")),
        sc("SC-06", with("max = 1000", "max = \"lots\"")),
        sc("SC-07", with("buffer_flits = 64", "buffer_flits = -5")),
        sc(
            "SC-08",
            with(
                "name = \"bad\"",
                "name = \"bad\"\nseed = 99999999999999999999",
            ),
        ),
        sc("SC-09", with("kind = \"uniform\"", "kind = \"ring\"")),
        sc(
            "SC-10",
            with(
                "{ kind = \"single_switch\", nodes = 4 }",
                "{ kind = \"hypercube\", nodes = 4 }",
            ),
        ),
        sc(
            "SC-11",
            with(
                "{ kind = \"single_switch\", nodes = 4 }",
                "{ kind = \"fat_tree\", radix = 8 }",
            ),
        ),
        sc(
            "SC-12",
            with(
                "{ kind = \"single_switch\", nodes = 4 }",
                "{ kind = \"fat_tree\", radix = 9, leaves = 2 }",
            ),
        ),
        sc(
            "SC-13",
            with(
                "{ kind = \"single_switch\", nodes = 4 }",
                "{ kind = \"three_stage\", radix = 66 }",
            ),
        ),
        sc(
            "SC-14",
            with(
                "{ kind = \"single_switch\", nodes = 4 }",
                "{ kind = \"fat_tree\", radix = 8, leaves = 9 }",
            ),
        ),
        sc("SC-15", with("nodes = 4", "nodes = 65")),
        sc(
            "SC-16",
            with("buffer_flits = 64", "nodes = 5\nbuffer_flits = 64"),
        ),
        sc("SC-17", with("mtu_bytes = 1024", "mtu_bytes = 1000")),
        sc("SC-18", with("buffer_flits = 64", "buffer_flits = 8")),
        sc(
            "SC-19",
            with("mtu_bytes = 1024", "mtu_bytes = 1024\nflit_bytes = 0"),
        ),
        sc(
            "SC-20",
            with("mtu_bytes = 1024", "mtu_bytes = 1024\neject_rate = 0.0"),
        ),
        // below the accumulator's 1/65536: this ran at 1/65536 unsaid
        sc(
            "SC-156",
            with("mtu_bytes = 1024", "mtu_bytes = 1024\neject_rate = 0.00001"),
        ),
        sc(
            "SC-21",
            with(
                "mtu_bytes = 1024",
                "mtu_bytes = 1024\nlink_latency_cycles = 0",
            ),
        ),
        sc("SC-22", with("max = 1000", "max = 0")),
        sc("SC-23", with("max = 1000", "max = 1000\nwarmup = 1000")),
        sc("SC-24", format!("{BASE}[timeseries]\nperiod = 0\n")),
        sc("SC-25", format!("{BASE}[timeseries]\nnics = [0, 4]\n")),
        sc("SC-26", format!("{BASE}{many_nics}")),
        sc("SC-27", with("load = 0.5", "load = 1.5")),
        sc(
            "SC-28",
            with(
                "msg_bytes = 1024",
                "msg_bytes = 1024\nstart_cycle = 10\nstop_cycle = 5",
            ),
        ),
        sc("SC-29", HOTSPOT),
        sc("SC-30", GPCNET),
        sc("SC-31", format!("{BASE}m = 40\n")),
        sc("SC-32", format!("{BASE}th_enter = 70000\n")),
        sc("SC-33", format!("{BASE}det_mode = \"xx\"\n")),
        sc("SC-34", with("name = \"p\"", "name = \"off\"")),
        sc("SC-35", format!("{BASE}[[pft]]\nname = \"p\"\n")),
        sc("SC-36", with("name = \"p\"", "name = \"../p\"")),
        // a PFT rewrite where no run has a PFT block: run as asked, with a warning
        case("SC-143", PFTSIM, &["check", "s.toml"])
            .also(&["run", "s.toml", "--out", "o", "--quiet"])
            .file(
                "s.toml",
                BASE.replace("[[pft]]\nname = \"p\"\n", "")
                    + CC
                    + "kind = \"ibcc\"\n"
                    + FAULT
                    + "kind = \"pft_rewrite\"\nat = 10\npft = { th_enter = 40 }\n",
            )
            .left(|d| {
                let o = d.join("o");
                assert!(!o.exists() || o.join("summary.json").exists(), "no summary");
            }),
        sc("SC-141", with("name = \"p\"", "th_enter = 40")),
        // groups that straddle a dragonfly's (a * p = 2 NICs): run as asked, with a
        // warning (it was accepted without a word), for a pattern and a phase's
        case("SC-161", PFTSIM, &["check", "s.toml"])
            .also(&["run", "s.toml", "--out", "o", "--quiet"])
            .also(&["check", "t.toml"])
            .file(
                "s.toml",
                on_dragonfly("pattern = { kind = \"group_shift\", group = 3 }\n"),
            )
            .file(
                "t.toml",
                on_dragonfly(
                    "[[workload.phases]]\ncycles = 100\ninterval_cycles = 10\n\
                     pattern = { kind = \"group_shift\", group = 3 }\n",
                ),
            )
            .left(|d| {
                let o = d.join("o");
                assert!(!o.exists() || o.join("summary.json").exists(), "no summary");
            }),
        sc("SC-37", with("name = \"bad\"", "name = \"my run\"")),
        sc(
            "SC-38",
            with("name = \"bad\"", "name = \"bad\"\nengine = \"verilog\""),
        ),
        sc(
            "SC-39",
            with("max = 1000", "max = 0")
                .replace("load = 0.5", "load = 2")
                .replace("name = \"p\"", "name = \"p\"\nm = 32\nk = 65536"),
        ),
        sc("SC-40", b"name = \"caf\xe9\"\n".to_vec()),
        sc(
            "SC-41",
            with("name = \"bad\"", "name = \"bad\"\nname = \"again\""),
        ),
        sc("SC-42", format!("{BASE}{CC}kind = \"timely\"\n")),
        sc(
            "SC-43",
            format!("{BASE}{CC}kind = \"ibcc\"\nthreshold = 16\n"),
        ),
        sc("SC-44", format!("{BASE}{CC}kind = \"ibcc\"\nthresh = 3\n")),
        // a key beside a pattern or injection type without keys (it was ignored: this
        // ran uniform traffic)
        sc(
            "SC-124",
            with(
                "msg_bytes = 1024\n",
                "msg_bytes = 1024\npattern = { kind = \"uniform\", node = 3, percent = 90 }\n",
            ),
        )
        .also(&["check", "t.toml"])
        .file(
            "t.toml",
            with(
                "msg_bytes = 1024\n",
                "msg_bytes = 1024\ninjection = { type = \"bernoulli\", peak_load = 0.5 }\n",
            ),
        ),
        // another motif's key (it was ignored)
        sc(
            "SC-127",
            "[cycles]\nmax = 2000\n[network]\ntopology = { kind = \"single_switch\", nodes = 4 }\n\
             [workload]\nkind = \"motif\"\nmotif = \"alltoall\"\nalgorithm = \"ring\"\n",
        ),
        // a pattern that sends nothing (it ran with no traffic at all)
        sc(
            "SC-128",
            with(
                "msg_bytes = 1024\n",
                "msg_bytes = 1024\npattern = { kind = \"shift\", by = 4 }\n",
            ),
        ),
        // malformed topology files (BookSim's anynet format): the line and the reason
        sc("SC-146", ON_FILE.replace("t.net", "")),
        // a lane key off the lane router and a fault on a switch the file lacks: one pass
        // (the file's topology is built for its fault references unless its lanes fail)
        sc(
            "SC-147",
            ON_FILE.replace(
                "[workload]",
                "head_latency_cycles = 2\n[[network.faults]]\nkind = \"link_pause\"\nlink = { switch = 99, port = 0 }\nduration = 10\n[workload]",
            ),
        )
        .file("t.net", "router 0 node 0 router 1\nrouter 1 node 1\n"),
        sc("SC-129", ON_FILE)
        .file("t.net", "router 0 node 0 node 1\nrouter 1 node 1 router 0\n"),
        sc("SC-130", ON_FILE)
        .file(
            "t.net",
            "router 0 node 0 node 1 router 1 5\nrouter 1 node 2\nrouter 0 router 1 7\n",
        ),
        sc("SC-131", ON_FILE)
        .file("t.net", "router 0 node 0 node 1\nrouter 1 node 2\n"),
        // runs that would not happen (they were skipped without a word)
        sc("SC-125", with("[cycles]", "isolated = true\n[cycles]")),
        sc(
            "SC-126",
            "[cycles]\nmax = 2000\n[network]\ntopology = { kind = \"single_switch\", nodes = 8 }\n\
             [workload]\nkind = \"jobs\"\n[[workload.jobs]]\nmotif = \"alltoall\"\nnics = 4\n\
             iterations = 2\n[[workload.jobs]]\nmotif = \"incast\"\nnics = 4\nstart_cycle = 2500\n",
        ),
        // keys that would do nothing (they used to be accepted silently)
        sc(
            "SC-122",
            format!("{BASE}{CC}kind = \"ibcc\"\nmarking = \"validated\"\nthreshold = 11\n"),
        ),
        sc(
            "SC-123",
            format!("{BASE}{CC}kind = \"selftuned\"\nthreshold = 5\ninit_percent = 3.0\n"),
        ),
        // keys the entry's other keys leave unread (they were accepted and did nothing)
        sc(
            "SC-132",
            format!(
                "{BASE}{CC}kind = \"renato\"\nm = 4\n\
                 [[cc]]\nname = \"d\"\nkind = \"selftuned\"\ntune = false\ndec_percent = 8.0\n\
                 [[cc]]\nname = \"e\"\nkind = \"dcqcn\"\npmax = 0.0\nkmin_bytes = 1000\n\
                 [[cc]]\nname = \"f\"\nkind = \"ibcc\"\nthreshold = 0\nmarking_rate = 5\n\
                 [[cc]]\nname = \"g\"\nkind = \"mvcm\"\nvalidate = false\nout_threshold_percent = 50\n"
            ),
        ),
        // the self-tuned tuning period with a static threshold (tune = false): set, it was
        // accepted and did nothing; left at its default, it was checked against g
        sc(
            "SC-159",
            format!(
                "{}{CC}kind = \"selftuned\"\ntune = false\nthreshold = 250\nh = 5\ntune_cycles = 80\n\
                 [[cc]]\nname = \"d\"\nkind = \"selftuned\"\ntune = false\nthreshold = 250\nh = 5\n",
                with(
                    "topology = { kind = \"single_switch\", nodes = 4 }",
                    "topology = { kind = \"torus\", k = 16, n = 2 }\nvcs = 3"
                )
            ),
        ),
        sc(
            "SC-133",
            "[cycles]\nmax = 1000\n[network]\ntopology = { kind = \"single_switch\", nodes = 4 }\n\
             [workload]\nkind = \"uniform\"\nload = 0.3\n[[workload.phases]]\ncycles = 100\n\
             interval_cycles = 10\n",
        ),
        // a field of the inline topology table (it used to name only `network.topology`)
        sc(
            "SC-134",
            BASE.replace("nodes = 4 }", "nodes = 4.0 }"),
        ),
        // an unknown field of the inline topology table (it was named `network.topology`)
        sc(
            "SC-137",
            BASE.replace("nodes = 4 }", "nodes = 4, radix = 8 }"),
        ),
        // an inline array of tables (it named the array, `pft` or `cc`, not the element)
        sc(
            "SC-138",
            inline_entries("pft = [{ name = \"a\" }, { name = \"b\", th_entr = 3 }]"),
        ),
        sc(
            "SC-139",
            inline_entries(
                "cc = [{ name = \"x\", kind = \"ibcc\" }, { name = \"y\", kind = \"dcqcn\", pmax = \"x\" }]",
            ),
        ),
        // a `kind` in a job (it was blamed on `workload.kind`, the jobs workload's own tag)
        sc(
            "SC-140",
            "[cycles]\nmax = 1000\n[network]\ntopology = { kind = \"single_switch\", nodes = 8 }\n\
             [workload]\nkind = \"jobs\"\n[[workload.jobs]]\nkind = \"motif\"\nmotif = \"alltoall\"\n\
             nics = 4\n",
        ),
        // no [workload] in a file that starts with a table (it was `cycles.workload`)
        sc("SC-135", "[cycles]\nmax = 1000\n"),
        // an error in the second fault entry (it was blamed on the first's first key)
        sc(
            "SC-136",
            format!(
                "{BASE}{FAULT}kind = \"credit_jitter\"\nmax_cycles = 40\n\
                 {FAULT}kind = \"credit_delay\"\ncycles = 300\nscope = 0\n"
            ),
        ),
        // errors in a later entry (they used to be blamed on `cc[0]`, often its `name`)
        sc(
            "SC-121",
            format!("{BASE}{CC}kind = \"none\"\n[[cc]]\nname = \"d\"\nkind = \"mvcm\"\nin_threshold_percent = -5\n"),
        )
        .also(&["check", "t.toml"])
        .file(
            "t.toml",
            format!("{BASE}{CC}kind = \"none\"\n[[cc]]\nname = \"d\"\nkind = 5\n"),
        ),
        sc("SC-45", format!("{BASE}{CC}")),
        sc(
            "SC-46",
            format!("{BASE}[[cc]]\nname = \"p\"\nkind = \"none\"\n"),
        ),
        sc(
            "SC-47",
            format!("{BASE}{CC}kind = \"ibcc\"\nccti_limit = 5\nccti_min = 10\n"),
        ),
        sc(
            "SC-48",
            format!("{BASE}{CC}kind = \"ibcc\"\nccti_limit = 2\ncct = [0, 1]\n"),
        ),
        sc(
            "SC-49",
            format!("{BASE}{CC}kind = \"none\"\nthreshold = 3\n"),
        ),
        sc(
            "SC-50",
            with("mtu_bytes = 1024", "mtu_bytes = 1024\nlink_gbps = 0.0"),
        ),
        sc("SC-51", format!("{BASE}m = -1\n")),
        sc("SC-52", format!("{BASE}gap = 3\n")),
        sc(
            "SC-53",
            format!("{BASE}{FAULT}kind = \"link_pause\"\nlink = {{ switch = 1, port = 0 }}\nduration = 10\n"),
        ),
        sc(
            "SC-54",
            format!("{BASE}{FAULT}kind = \"link_pause\"\nlink = {{ switch = 0, port = 7 }}\nduration = 10\n"),
        ),
        sc(
            "SC-55",
            format!("{BASE}{FAULT}kind = \"eject\"\nrate = 0.5\nnics = [1, 4]\n"),
        ),
        sc(
            "SC-155",
            format!("{BASE}{FAULT}kind = \"eject\"\nrate = 0.5\nnics = [1, 2, 1]\n"),
        ),
        sc(
            "SC-56",
            format!("{BASE}{FAULT}kind = \"credit_delay\"\ncycles = 5\nstart = 1000\n"),
        ),
        sc("SC-57", with("load = 0.5", "load = 0.5\nstart_cycle = 5000")),
        // traffic that stops before the measured window: every number was 0 or -, unsaid
        sc(
            "SC-157",
            with("max = 1000", "max = 1000\nwarmup = 500")
                .replace("load = 0.5", "load = 0.5\nstart_cycle = 100\nstop_cycle = 200"),
        ),
        sc(
            "SC-58",
            format!(
                "[cycles]\nmax = 1000\n{}",
                GPCNET.replace("ppn = 0", "ppn = 1\ncanary_start_cycles = 1000")
            ),
        ),
        sc("SC-59", format!("{BASE}[timeseries]\nnics = [0, 2, 0]\n")),
        sc(
            "SC-60",
            with(
                "topology = { kind = \"single_switch\", nodes = 4 }",
                "topology = \"single_switch\"",
            ),
        ),
        sc("SC-61", with("kind = \"uniform\"\n", "")),
        sc(
            "SC-62",
            format!("{BASE}{CC}kind = \"ibcc\"\nccti_increase = -1\n"),
        ),
        sc(
            "SC-63",
            with("name = \"bad\"", "name = \"bad\u{1b}[2J\u{7}\""),
        ),
        sc(
            "SC-64",
            with(
                "name = \"bad\"",
                &format!("name = \"bad\"\ndescription = {}", "x".repeat(1 << 20)),
            ),
        ),
        sc("SC-66", format!("{BASE}r_width = 0\n")),
        sc("SC-67", format!("{BASE}gating = \"head\"\n")),
        sc("SC-68", format!("{BASE}classes = [\"congestor\"]\n")),
        sc(
            "SC-69",
            format!(
                "[cycles]\nmax = 1000\n{}[[pft]]\nname = \"p\"\nclasses = [\"canaries\"]\n",
                GPCNET.replace("ppn = 0", "ppn = 1")
            ),
        ),
        sc("SC-70", format!("{BASE}nics = [1, 4]\n")),
        sc(
            "SC-71",
            format!("{}nics = [1]\nclasses = [\"c\"]\n", HOTSPOT_OK),
        ),
        sc("SC-72", format!("{HOTSPOT_OK}clock_ratio = 0.5\n")),
        sc("SC-73", format!("{HOTSPOT_OK}clock_ratio = \"fast\"\n")),
        sc("SC-75", format!("{HOTSPOT_OK}pipelined = \"yes\"\n")),
        sc(
            "SC-74",
            format!(
                "[cycles]\nmax = 1000\n{}canary_start_cycles = 10\nhost_send_ns = -1\n",
                GPCNET.replace("ppn = 0", "ppn = 1")
            ),
        ),
        case("SC-65", PFTSIM, &["check", "my run.toml"])
            .file("my run.toml", BASE.replacen("name = \"bad\"\n", "", 1)),
        // array elements: the element's index and the field's own range
        sc("SC-76", format!("{BASE}nics = [0, -1]\n")),
        sc(
            "SC-77",
            format!("{BASE}{CC}kind = \"ibcc\"\ncct = [0, 1, -2]\n"),
        ),
        sc("SC-78", format!("{BASE}[timeseries]\nnics = [-1]\n")),
        sc(
            "SC-79",
            format!("{BASE}{FAULT}kind = \"eject\"\nrate = 0.5\nnics = [1, -1]\n"),
        ),
        sc(
            "SC-80",
            format!(
                "[cycles]\nmax = 1000\n{}congestor_kinds = [\"a2a\", \"ring\"]\n",
                GPCNET.replace("ppn = 0", "ppn = 1")
            ),
        ),
        // valid, with a warning: the hot-spot workload's default frac_b = 0 has no B NIC
        case("SC-81", PFTSIM, &["check", "s.toml"])
            .file("s.toml", format!("{HOTSPOT_OK}classes = [\"b\"]\n")),
        case("SC-82", PFTSIM, &["check", "s.toml"]).file("s.toml", GPCNET_BIG),
        // the switch, the watchdog, the eager incast and the NIC's stream service
        sc(
            "SC-83",
            BASE.replace("[network]\n", "[network]\narbitration = \"oldest\"\n"),
        ),
        sc(
            "SC-84",
            BASE.replace("[network]\n", "[network]\nstall_cycles = -5\n"),
        ),
        sc(
            "SC-85",
            format!(
                "[cycles]\nmax = 1000\n{}canary_start_cycles = 10\neager_window = 0\n",
                GPCNET.replace("ppn = 0", "ppn = 1")
            ),
        ),
        sc(
            "SC-86",
            format!(
                "[cycles]\nmax = 1000\n{}incast_protocol = \"buffered\"\n",
                GPCNET.replace("ppn = 0", "ppn = 1")
            ),
        ),
        sc(
            "SC-87",
            HOTSPOT_OK.replace(
                "hotspots = 1\n",
                "hotspots = 1\nstream_service = \"fifo\"\n",
            ),
        ),
        // `--set KEY=VALUE` on run, compare and check
        set_case("SC-88", "pft.r_width=19"),
        set_case("SC-89", "network.mtu_bytes"),
        set_case("SC-90", "cycles.max.x=1"),
        set_case("SC-91", "network.mtu_bytes=65"),
        // the text with the --set values applied is written out again: its lines are not
        // the file's, so an error is named by its --set, or quoted from the file itself
        set_case("SC-144", "network.buffer_flits=-1"),
        case("SC-145", PFTSIM, &["check", "s.toml", "--set", "seed=3"])
            .also(&["run", "s.toml", "--out", "o", "--quiet", "--set", "seed=3"])
            .file("s.toml", with("buffer_flits = 64", "buffer_flits = -5")),
        // a --set value that starts as an array is one (it was taken for the string "[0,");
        // a date in the file is named a date-time (serde called it a map)
        set_case("SC-148", "timeseries.nics=[0,"),
        // a float TOML does not write so was the string "1e400"; an unknown key a --set
        // wrote was not named by it (the error is at the table it made)
        set_case("SC-151", "seed=1e400"),
        // one with a sign the TOML reader took as infinite (`-inf`, refused later as such)
        set_case("SC-153", "seed=-1e400"),
        set_case("SC-152", "network.a.b=1"),
        sc("SC-149", with("name = \"bad\"", "name = 1979-05-27")),
        // one pass reports the network, its faults and the [[cc]] entries together
        sc(
            "SC-92",
            format!(
                "{}{FAULT}kind = \"credit_jitter\"\nmax_cycles = 500\n{CC}kind = \"ibcc\"\nthreshold = 16\n",
                with("mtu_bytes = 1024", "mtu_bytes = 1024\nlink_latency_cycles = 0")
            ),
        ),
        sc(
            "SC-93",
            with(
                "{ kind = \"single_switch\", nodes = 4 }",
                "{ kind = \"torus\", k = 64, n = 3 }",
            ),
        ),
        sc(
            "SC-94",
            with("mtu_bytes = 1024\n", "mtu_bytes = 1024\nhead_latency_cycles = 3\n"),
        ),
        sc(
            "SC-95",
            with(
                "msg_bytes = 1024\n",
                "msg_bytes = 1024\npattern = { kind = \"tornado\", k = 3, n = 2 }\n",
            ),
        ),
        sc(
            "SC-98",
            with("mtu_bytes = 1024\n", "mtu_bytes = 1024\nack_bytes = 0\n"),
        ),
        sc(
            "SC-97",
            with("mtu_bytes = 1024\n", "mtu_bytes = 1024\nspeedup = 0\n"),
        ),
        sc(
            "SC-96",
            with(
                "msg_bytes = 1024\n",
                "msg_bytes = 1024\npattern = { kind = \"spiral\" }\n",
            ),
        ),
        sc("SC-99", with("msg_bytes = 1024\n", BAD_PHASES)),
        sc(
            "SC-100",
            with("mtu_bytes = 1024\n", "mtu_bytes = 1024\nsend_queue_msgs = 0\n"),
        ),
        sc(
            "SC-101",
            GPCNET.replace("ppn = 0\n", "").replace(
                "nodes = 16 }\n",
                "nodes = 16 }\nsend_queue_msgs = 4\n",
            ),
        ),
        sc(
            "SC-102",
            with(
                "[[pft]]",
                "[[cc]]\nname = \"tune\"\nkind = \"selftuned\"\n[[pft]]",
            ),
        ),
        // seed 004's hot-spot burst: both keys at least 1, both reported at once
        sc(
            "SC-103",
            HOTSPOT_OK.replace(
                "hotspots = 1\n",
                "hotspots = 1\nhot_start_after_delivered = 0\nhot_messages = 0\n",
            ),
        ),
        sc(
            "SC-105",
            with(
                "{ kind = \"single_switch\", nodes = 4 }",
                "{ kind = \"dragonfly\", p = 1, a = 2, h = 1, g = 4 }",
            ),
        ),
        sc(
            "SC-106",
            with(
                "{ kind = \"single_switch\", nodes = 4 }",
                "{ kind = \"dragonfly\", p = 1, a = 2, h = 1 }\nvcs = 2\nrouting = \"ugal\"",
            ),
        ),
        sc(
            "SC-104",
            HOTSPOT_OK.replace("hotspots = 1\n", "hotspots = 1\nhot_messages = -5\n"),
        ),
        // DCQCN: every key's range, Kmin against Kmax, the floor against the link
        sc("SC-107", format!("{BASE}{CC}kind = \"dcqcn\"\n{DCQCN_ALL_BAD}")),
        sc(
            "SC-108",
            format!("{BASE}{CC}kind = \"dcqcn\"\nkmin_bytes = 5120\nkmax_bytes = 5120\n"),
        ),
        sc("SC-109", format!("{BASE}{CC}kind = \"dcqcn\"\nkmin_bytes = 5000\n")),
        sc(
            "SC-112",
            with("mtu_bytes = 1024\n", "mtu_bytes = 1024\nescape_lanes = 1\n"),
        ),
        sc(
            "SC-120",
            with(
                "mtu_bytes = 1024\n",
                "mtu_bytes = 1024\ndisha_timeout_cycles = 8\n",
            ),
        ),
        sc(
            "SC-113",
            with(
                "mtu_bytes = 1024\n",
                "mtu_bytes = 1024\nallocator = \"central\"\n",
            ),
        ),
        sc(
            "SC-110",
            format!("{BASE}{CC}kind = \"dcqcn\"\nmin_rate_mbps = 200000.0\n"),
        ),
        // rates too small to mean anything (the floor became a rate of 0; the link's range
        // was printed with hundreds of digits)
        sc(
            "SC-142",
            format!("{BASE}{CC}kind = \"dcqcn\"\nmin_rate_mbps = 5e-324\n")
                .replace("[network]\n", "[network]\nlink_gbps = 1e-300\n"),
        ),
        // a link below 0.1 Gb/s refuses DCQCN's default floor: the message says it is one
        sc(
            "SC-158",
            format!("{BASE}{CC}kind = \"dcqcn\"\n")
                .replace("[network]\n", "[network]\nlink_gbps = 0.05\n"),
        ),
        sc(
            "SC-111",
            format!("{BASE}{CC}kind = \"dcqcn\"\nfast_recovery_steps = -1\n"),
        ),
        // IB CC's validated marking (seed 004's Fig. 12): its keys, its network
        sc(
            "SC-114",
            format!("{BASE}{CC}kind = \"ibcc\"\nin_threshold_percent = 39\nout_threshold_percent = 0\n"),
        ),
        sc(
            "SC-115",
            format!("{BASE}{CC}kind = \"ibcc\"\nmarking = \"validated\"\nout_threshold_percent = 101\n"),
        ),
        sc(
            "SC-116",
            format!("{BASE}{CC}kind = \"ibcc\"\nmarking = \"validated\"\n"),
        ),
        // motifs and traces (issue 45)
        sc("SC-117", with(UNIFORM_WL, "kind = \"motif\"\nmotif = \"halo3d\"\ngrid = [2, 2, 2]")),
        sc("SC-118", with(UNIFORM_WL, "kind = \"motif\"\nmotif = \"incast\"\niterations = 0")),
        sc("SC-119", with(UNIFORM_WL, "kind = \"trace\"\npath = \"t.trace\""))
            .file("t.trace", "# a trace\nranks 4\n0 sned 1 64\n"),
        sc("SC-150", with(UNIFORM_WL, "kind = \"trace\"\npath = \"\"")),
        // a blank path was shown bare (`= /tmp/x/ :`): quoted, with its white space
        sc("SC-154", with(UNIFORM_WL, "kind = \"trace\"\npath = \" \"")),
        // an array where a table is expected (serde read a struct, or a tagged table with
        // its tag first, from it: the first two ran uniform traffic on a 2-ary 2-mesh)
        sc(
            "SC-162",
            inline_entries("workload = [\"uniform\", 0.9, 1024]")
                .replace("[workload]\nkind = \"uniform\"\nload = 0.5\nmsg_bytes = 1024\n", ""),
        ),
        sc(
            "SC-163",
            with(
                "topology = { kind = \"single_switch\", nodes = 4 }",
                "topology = [\"mesh\", 2, 2]",
            ),
        ),
        sc(
            "SC-164",
            with("mtu_bytes = 1024\n", "mtu_bytes = 1024\nfaults = [[\"eject\", 0.5, [1]]]\n"),
        ),
        sc("SC-165", with("msg_bytes = 1024\n", "msg_bytes = 1024\npattern = [\"shift\", 1]\n")),
        sc(
            "SC-166",
            with("msg_bytes = 1024\n", "msg_bytes = 1024\ninjection = [\"on_off\", 0.5]\n"),
        ),
        sc("SC-167", with("msg_bytes = 1024\n", "msg_bytes = 1024\nphases = [[100, 10]]\n")),
        sc(
            "SC-168",
            with(UNIFORM_WL, "kind = \"jobs\"\njobs = [[\"alltoall\", 4]]"),
        ),
        // a `kind` inside a table inside a tagged table (it was blamed on the outer
        // table's own `kind`, at its line)
        sc(
            "SC-169",
            with(
                "msg_bytes = 1024\n",
                "msg_bytes = 1024\ninjection = { type = \"on_off\", mean_burst_cycles = 10, kind = 3 }\n",
            ),
        ),
        sc(
            "SC-170",
            format!("{BASE}{FAULT}kind = \"link_pause\"\nlink = {{ switch = 0, port = 0, kind = 1 }}\nduration = 10\n"),
        ),
        // a value of the wrong type: the key's own range (it was u32's, 0..=4294967295)
        sc(
            "SC-171",
            with(
                "msg_bytes = 1024\n",
                "msg_bytes = 1024\npattern = { kind = \"tornado\", k = -1, n = 2 }\n",
            ),
        ),
        sc(
            "SC-172",
            with(
                "msg_bytes = 1024\n",
                "msg_bytes = 1024\npattern = { kind = \"tornado\", k = 2, n = \"x\" }\n",
            ),
        ),
        sc(
            "SC-173",
            with(
                "msg_bytes = 1024\n",
                "msg_bytes = 1024\npattern = { kind = \"group_shift\", group = -2 }\n",
            ),
        ),
        sc(
            "SC-174",
            with(
                UNIFORM_WL,
                "kind = \"trace\"\npath = \"t.trace\"\nwarmup_iterations = -1",
            ),
        )
        .file(
            "t.trace",
            "ranks 2\n0 send 1 64\n0 iter\n1 recv 0 64\n1 iter\n\
             0 send 1 64\n0 iter\n1 recv 0 64\n1 iter\n",
        ),
        // an array for a link pause's link: read as `{ nic = 0, switch = 1 }`
        sc(
            "SC-176",
            format!("{BASE}{FAULT}kind = \"link_pause\"\nlink = [0, 1]\nduration = 10\n"),
        ),
        // a negative network count beside a workload that does not deserialize: the range
        // probe gave up (the workload, required, could not be taken out)
        sc(
            "SC-175",
            with("buffer_flits = 64", "buffer_flits = -5").replace("load = 0.5", "load = \"x\""),
        ),
        // a scheme's refusals of network keys beside an unrelated network error (they
        // waited for it to be fixed: one pass reports both)
        sc(
            "SC-160",
            format!("{BASE}{CC}kind = \"mvcm\"\nk = 2\nn = 1\n").replace(
                "mtu_bytes = 1024\n",
                "mtu_bytes = 1024\nvcs = 2\ndeadlock_cycles = 99999999999999\n",
            ),
        ),
    ]
}

/// BASE's workload keys (SC-117..119 replace them).
const UNIFORM_WL: &str = "kind = \"uniform\"\nload = 0.5\nmsg_bytes = 1024";

/// SC-105: every key of a `dcqcn` entry out of its range.
const DCQCN_ALL_BAD: &str = "kmin_bytes = 1099511627776
kmax_bytes = 0
pmax = 1.5
g = -0.1
cnp_interval_us = -1.0
alpha_timer_us = 0.0
rate_timer_us = 2e6
byte_counter_bytes = 0
fast_recovery_steps = 256
rai_mbps = -1.0
rhai_mbps = 1e9
min_rate_mbps = 0.0
";

/// SC-99: `[workload]` keys and phases with four errors, all reported at once.
const BAD_PHASES: &str = r#"msg_bytes = 1024
injection = { type = "on_off", mean_burst_cycles = 10.0, peak_load = 1.0 }
[[workload.phases]]
cycles = 0
interval_cycles = 15
[[workload.phases]]
cycles = 1500
interval_cycles = 0
pattern = { kind = "tornado", k = 3, n = 2 }
"#;

/// `--set` with a good scenario file: check, run and compare all refuse it.
fn set_case(id: &'static str, set: &'static str) -> Case {
    case(id, PFTSIM, &["check", "s.toml", "--set", set])
        .also(&["run", "s.toml", "--out", "o", "--quiet", "--set", set])
        .also(&["compare", "s.toml", "--out", "o", "--quiet", "--set", set])
        .file("s.toml", BASE)
}

/// GPCNeT on the default 120-NIC fat tree with 1024 processes per NIC (122,880 processes):
/// `check` estimates it without building them all (SC-82).
const GPCNET_BIG: &str = r#"[cycles]
max = 100000
[workload]
kind = "gpcnet"
ppn = 1024
"#;

/// The start of a `[[network.faults]]` entry (the SC-53.. cases add its kind and keys).
const FAULT: &str = "[[network.faults]]\n";

/// The start of a `[[cc]]` entry (the SC-42.. cases add its kind and keys).
const CC: &str = "[[cc]]\nname = \"c\"\n";

/// A scenario on the topology file `t.net` (SC-129..131 give the file).
const ON_FILE: &str =
    "[cycles]\nmax = 1000\n[network]\ntopology = { kind = \"file\", path = \"t.net\" }\n\
                       [workload]\nkind = \"uniform\"\nload = 0.5\n";

// ---------------------------------------------------------------------------------------
// Tests

#[test]
fn catalogue_matches_cases() {
    catalogue!().matches_cases(&OWNED, scenario_cases().iter().map(|c| c.id));
}

#[test]
fn base_scenario_is_valid() {
    let d = case_dir(&case_root!(), "base");
    std::fs::write(d.join("s.toml"), BASE).unwrap();
    let o = Command::new(PFTSIM)
        .args(["check", "s.toml"])
        .current_dir(&d)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

#[test]
fn scenario_files() {
    let cat = catalogue!();
    for c in scenario_cases() {
        cat.run(&c);
    }
}
