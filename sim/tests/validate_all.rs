//! One validation pass reports every problem of a scenario: the network's keys, each of its
//! faults, the `[[cc]]` and `[[pft]]` entries, the workload, the cycles and the time series
//! together, so a file is fixed in one round (docs/scenarios.md, "Validation"). Checks that
//! need an earlier value to be valid (the NIC count needs a valid topology) are skipped when
//! it is not, and only those.

use pft_sim::cc::ibcc::IbccConfig;
use pft_sim::net::{FaultSpec, NetConfig, TopologyConfig};
use pft_sim::scenario::{Refused, Scenario};

/// The fields of every error `text` gets from `Scenario::check_text`, in order.
fn refused(text: &str) -> Vec<String> {
    match Scenario::check_text(text) {
        Err(Refused::Invalid(e)) => e.0.into_iter().map(|e| e.field).collect(),
        Err(Refused::Parse(m)) => panic!("does not parse: {m}"),
        Ok(_) => panic!("accepted:\n{text}"),
    }
}

const NET: &str = r#"[cycles]
max = 1000
[network]
topology = { kind = "single_switch", nodes = 4 }
mtu_bytes = 1024
buffer_flits = 64
eject_buffer_flits = 64
"#;

#[test]
fn every_section_reports_at_once() {
    let text = format!(
        r#"{}link_latency_cycles = 0
eject_rate = 2.0
[timeseries]
period = 0
[workload]
kind = "uniform"
load = 2.0
[[network.faults]]
kind = "credit_jitter"
max_cycles = 500
[[network.faults]]
kind = "eject"
rate = 0.5
nics = [1, 9]
duration = 0
[[network.faults]]
kind = "link_pause"
link = {{ switch = 3, port = 0 }}
duration = 10
[[pft]]
name = "p"
m = 32
[[cc]]
name = "c"
kind = "ibcc"
threshold = 16
ccti_timer = 0
"#,
        NET.replace("max = 1000", "max = 1000\nwarmup = 1000")
    );
    let fields = refused(&text);
    for want in [
        "network.link_latency_cycles",
        "network.eject_rate",
        "network.faults[0].max_cycles",
        "network.faults[1].duration",
        "network.faults[1].nics",
        "network.faults[2].link.switch",
        "workload.load",
        "cycles.warmup",
        "timeseries.period",
        "pft[0].m",
        "cc[0].threshold",
        "cc[0].ccti_timer",
    ] {
        assert!(
            fields.iter().any(|f| f == want),
            "{want} missing: {fields:?}"
        );
    }
    assert_eq!(fields.len(), 12, "{fields:?}");
    // the network's errors come first, in the order of its keys, then its faults
    assert_eq!(fields[0], "network.link_latency_cycles");
    assert_eq!(fields[2], "network.faults[0].max_cycles");
}

/// A topology that cannot be built: its own error, the network's other keys and the faults'
/// own values are still reported; the checks against the NIC count (the faults' NICs and
/// switches, the workload, `timeseries.nics`, `[[pft]] nics`) wait for it.
#[test]
fn a_bad_topology_skips_only_what_depends_on_it() {
    let text = format!(
        r#"{}link_gbps = 0.0
[timeseries]
nics = [40]
[workload]
kind = "uniform"
load = 2.0
[[network.faults]]
kind = "credit_delay"
cycles = 0
[[network.faults]]
kind = "eject"
rate = 0.5
nics = [99]
[[pft]]
name = "p"
nics = [77]
k = 65536
"#,
        NET.replace("nodes = 4", "nodes = 65")
    );
    let fields = refused(&text);
    assert_eq!(
        fields,
        [
            "network.topology.nodes",
            "network.link_gbps",
            "network.faults[0].cycles",
            "pft[0].k",
        ]
    );
}

/// `mtu_bytes` is checked against a valid `flit_bytes`, the buffers against a valid MTU.
#[test]
fn network_keys_that_depend_on_others() {
    let mut n = NetConfig {
        flit_bytes: 0,
        link_latency_cycles: 0,
        ..NetConfig::default()
    };
    let fields =
        |n: &NetConfig| -> Vec<String> { n.errors().into_iter().map(|e| e.field).collect() };
    assert_eq!(fields(&n), ["flit_bytes", "link_latency_cycles"]);
    n.flit_bytes = 64;
    n.mtu_bytes = 1000;
    n.buffer_flits = 1;
    assert_eq!(fields(&n), ["mtu_bytes", "link_latency_cycles"]);
    n.mtu_bytes = 1024;
    n.eject_buffer_flits = 70_000;
    assert_eq!(
        fields(&n),
        ["buffer_flits", "eject_buffer_flits", "link_latency_cycles"]
    );
    // `validate` is the first of them
    assert_eq!(n.validate().unwrap_err(), n.errors()[0]);
    // a fat tree's leaves are checked against a valid radix
    let t = TopologyConfig::FatTree {
        radix: 9,
        leaves: 99,
    };
    let e = t.errors();
    assert_eq!(e.len(), 1);
    assert_eq!(e[0].field, "topology.radix");
}

#[test]
fn faults_and_ibcc_collect_every_error() {
    let f: FaultSpec =
        toml::from_str("kind = \"eject\"\nrate = 2.0\nnics = []\nduration = 5\nperiod = 5\n")
            .unwrap();
    let fields: Vec<String> = f
        .errors("faults[0]", 100_000)
        .into_iter()
        .map(|e| e.field)
        .collect();
    assert_eq!(
        fields,
        ["faults[0].period", "faults[0].rate", "faults[0].nics"]
    );
    assert_eq!(
        f.validate("faults[0]", 100_000).unwrap_err(),
        f.errors("faults[0]", 100_000)[0]
    );

    let c = IbccConfig {
        threshold: 16,
        marking_rate: 1 << 16,
        ccti_limit: 3,
        cct: Some(vec![0, 1 << 16]),
        ..IbccConfig::default()
    };
    let fields: Vec<String> = c.errors("cc[0]").into_iter().map(|e| e.field).collect();
    assert_eq!(
        fields,
        [
            "cc[0].threshold",
            "cc[0].marking_rate",
            "cc[0].cct[1]",
            "cc[0].cct"
        ]
    );
    // the CCT's length follows from ccti_limit: not checked while that is out of range
    let c = IbccConfig {
        ccti_limit: 20_000,
        cct: Some(vec![0]),
        ..IbccConfig::default()
    };
    let fields: Vec<String> = c.errors("").into_iter().map(|e| e.field).collect();
    assert_eq!(fields, ["ccti_limit"]);
}

/// `check`, `run` and `compare` load through the same function as a sweep's points:
/// `Scenario::load` gives exactly `check_text`'s errors.
#[test]
fn load_and_check_text_agree() {
    let text = format!(
        "{}link_latency_cycles = 0\n[workload]\nkind = \"uniform\"\nload = 2.0\n[[cc]]\nname = \"c\"\nkind = \"ibcc\"\nthreshold = 16\n",
        NET
    );
    let dir = std::env::temp_dir().join(format!("pftsim-validate-all-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("s.toml");
    std::fs::write(&path, &text).unwrap();
    let loaded = match Scenario::load(&path) {
        Err(pft_sim::scenario::ScenarioError::Invalid { problems, .. }) => problems,
        other => panic!("{other:?}"),
    };
    std::fs::remove_dir_all(&dir).unwrap();
    let Err(Refused::Invalid(checked)) = Scenario::check_text(&text) else {
        panic!("accepted")
    };
    assert_eq!(loaded, checked);
    assert_eq!(loaded.0.len(), 3);
}
