//! Seed 004's cold/hot metrics and `Delivery::bits` in a real network: a small fat tree
//! with one hot spot, the C nodes' burst after 2,000 deliveries, and IB CC marking the hot
//! spot's congestion (FECN). The deliveries of a run stepped here give an independent
//! computation of `coldhot.csv`, of `summary.json`'s `coldhot` and of the compare columns
//! that `pftsim run` and `pftsim compare` write; a run without a marking scheme has no
//! marked message; a uniform workload has empty cold/hot columns.

use pft_sim::cc::{CcConfig, Network};
use pft_sim::net::Delivery;
use pft_sim::scenario::{run, Scenario};
use pft_sim::workload::{tag, AnyWorkload, HotspotWorkload, NodeClass};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_pftsim");

/// 16 NICs, one hot spot, seed 004's 278-byte packets; the workload stops at 30,000 so
/// that the network drains before the end (40,000).
const SC: &str = r#"name = "coldhot"
seed = 3
[cycles]
max = 40000
[timeseries]
period = 500
[network]
topology = { kind = "fat_tree", radix = 8, leaves = 4 }
[workload]
kind = "hotspot"
hotspots = 1
frac_c = 0.5
frac_v = 0.5
load = 0.3
msg_bytes = 278
hot_start_after_delivered = 2000
hot_messages = 150
stop_cycle = 30000
[[cc]]
name = "ib"
kind = "ibcc"
"#;

fn tmp(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("coldhot")
        .join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn pftsim(args: &[&str]) -> String {
    let o = Command::new(BIN).args(args).output().expect("pftsim runs");
    assert!(
        o.status.success(),
        "pftsim {args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap()
}

/// Every delivery of `sc` under `cc`, stepped as `scenario::run` steps it; the workload;
/// the scheme's counters; the flits left in the network.
fn step_run(
    sc: &Scenario,
    cc: &CcConfig,
) -> (
    Vec<Delivery>,
    HotspotWorkload,
    std::collections::BTreeMap<String, u64>,
    u64,
) {
    let nc = &sc.network;
    let mut w = sc
        .workload
        .build_at(sc.nodes(), nc.flit_bytes, nc.link_gbps, sc.seed)
        .unwrap();
    let mut net = Network::with_cc_on(nc, cc, sc.engine, sc.seed, None).unwrap();
    run::set_stream_shares(&sc.workload, &w, &mut net);
    let mut all = Vec::new();
    while net.now() < sc.cycles.max {
        net.step(&mut w).unwrap();
        all.extend_from_slice(net.last_deliveries());
    }
    let AnyWorkload::Hotspot(h) = w else {
        panic!("a hot-spot workload")
    };
    (all, h, net.counter_map(), net.flits_in_network())
}

/// The expected `coldhot.csv` rows (as numbers; `None` = empty cell) and the run's figures
/// (cold_lat_peak, hot_link_util, marked_cold_frac, marked_hot_frac), computed here from
/// the deliveries alone.
#[allow(clippy::type_complexity)]
fn expected(
    sc: &Scenario,
    d: &[Delivery],
    h: &HotspotWorkload,
) -> (Vec<Vec<Option<f64>>>, [Option<f64>; 4]) {
    let p = sc.timeseries.period;
    let end = sc.cycles.max;
    let fb = sc.network.flit_bytes as u64;
    let nodes = sc.nodes() as f64;
    let hs = 1.0; // hotspots
    let hot = |x: &Delivery| h.hotspots_at(x.msg.created).contains(&x.msg.dst);
    let lat = |x: &Delivery| (x.delivered - x.msg.created) as f64;
    let flits = |x: &Delivery| (x.msg.bytes as u64).div_ceil(fb) as f64;
    let mean = |v: &[&Delivery]| {
        (!v.is_empty()).then(|| v.iter().map(|x| lat(x)).sum::<f64>() / v.len() as f64)
    };
    let wait = |v: &[&Delivery]| {
        (!v.is_empty()).then(|| {
            v.iter()
                .map(|x| (x.injected - x.msg.created) as f64)
                .sum::<f64>()
                / v.len() as f64
        })
    };
    let nb = end.div_ceil(p);
    let mut rows = Vec::new();
    let mut peak: Option<f64> = None;
    for k in 0..nb {
        let len = p.min(end - k * p) as f64;
        let inb: Vec<&Delivery> = d.iter().filter(|x| x.delivered / p == k).collect();
        let cold: Vec<&Delivery> = inb.iter().copied().filter(|x| !hot(x)).collect();
        let hotv: Vec<&Delivery> = inb.iter().copied().filter(|x| hot(x)).collect();
        let cm = mean(&cold);
        if let Some(m) = cm {
            peak = Some(peak.map_or(m, |q| q.max(m)));
        }
        rows.push(vec![
            Some((k * p) as f64),
            cm,
            mean(&hotv),
            Some(cold.len() as f64),
            Some(hotv.len() as f64),
            Some(cold.iter().map(|x| x.msg.bytes as f64).sum::<f64>() / (len * nodes)),
            Some(hotv.iter().map(|x| flits(x)).sum::<f64>() / (len * hs)),
            Some(cold.iter().filter(|x| x.bits != 0).count() as f64),
            Some(hotv.iter().filter(|x| x.bits != 0).count() as f64),
            wait(&cold),
            wait(&hotv),
        ]);
    }
    // the congestion period: the first C hot-spot message's creation to the last one's
    // delivery
    let from_c: Vec<&Delivery> = d
        .iter()
        .filter(|x| h.class_of(x.msg.src) == NodeClass::C && x.msg.tag == tag::HOTSPOT_HOT)
        .collect();
    let s = from_c.iter().map(|x| x.msg.created).min().unwrap();
    let e = from_c.iter().map(|x| x.delivered).max().unwrap();
    assert_eq!(Some(s), h.first_c_hot_created());
    let busy: f64 = d
        .iter()
        .filter(|x| hot(x) && x.delivered >= s && x.delivered <= e)
        .map(flits)
        .sum();
    let util = busy / ((e - s + 1) as f64 * hs);
    let frac = |want_hot: bool| {
        let v: Vec<&Delivery> = d.iter().filter(|x| hot(x) == want_hot).collect();
        v.iter().filter(|x| x.bits != 0).count() as f64 / v.len() as f64
    };
    (
        rows,
        [peak, Some(util), Some(frac(false)), Some(frac(true))],
    )
}

fn close(a: Option<f64>, b: Option<f64>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(x), Some(y)) => (x - y).abs() <= 1e-9 * x.abs().max(y.abs()).max(1.0),
        _ => false,
    }
}

fn cell(s: &str) -> Option<f64> {
    (!s.is_empty()).then(|| s.parse().unwrap())
}

#[test]
fn coldhot_csv_summary_and_compare_match_the_deliveries() {
    let sc = Scenario::parse(SC).unwrap();
    sc.validate().unwrap();
    let ib = sc.config_named("ib").unwrap();
    let (d, h, counters, left) = step_run(&sc, &ib);
    assert_eq!(left, 0, "the network drained");
    let start = h.hot_start().expect("the burst started");
    assert!(start > 1000 && start < 20_000, "burst from {start}");
    // the burst really congests the hot spot: hot latency far above cold at its peak
    let (rows, figs) = expected(&sc, &d, &h);
    let hot_peak = rows.iter().filter_map(|r| r[2]).fold(0.0, f64::max);
    let cold_median = {
        let mut v: Vec<f64> = rows.iter().filter_map(|r| r[1]).collect();
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    assert!(hot_peak > 5.0 * cold_median, "{hot_peak} vs {cold_median}");

    // Delivery::bits: IB CC marked packets, and (one packet per message) every FECN the
    // destinations received is exactly one marked delivery
    let marked = d.iter().filter(|x| x.bits != 0).count() as u64;
    assert!(marked > 0, "IB CC marked nothing");
    assert_eq!(marked, counters["fecn_received"]);
    assert!(d.iter().all(|x| x.bits & !1 == 0), "FECN is bit 0 alone");

    // `pftsim run`: coldhot.csv, against the deliveries
    let dir = tmp("run");
    std::fs::write(dir.join("s.toml"), SC).unwrap();
    let out = dir.join("out");
    pftsim(&[
        "run",
        dir.join("s.toml").to_str().unwrap(),
        "--pft",
        "ib",
        "--out",
        out.to_str().unwrap(),
        "--quiet",
    ]);
    let text = std::fs::read_to_string(out.join("coldhot.csv")).unwrap();
    let mut lines = text.lines();
    assert_eq!(
        lines.next().unwrap(),
        "cycle,cold_lat_mean,hot_lat_mean,cold_delivered,hot_delivered,\
cold_bytes_per_node_cycle,hot_link_util,cold_marked,hot_marked,cold_wait_mean,hot_wait_mean"
    );
    let got: Vec<Vec<Option<f64>>> = lines.map(|l| l.split(',').map(cell).collect()).collect();
    assert_eq!(got.len(), rows.len(), "one row per bin of 500 cycles");
    for (g, w) in got.iter().zip(&rows) {
        assert_eq!(g.len(), 11);
        for (i, (a, b)) in g.iter().zip(w).enumerate() {
            assert!(close(*a, *b), "row {:?} column {i}: {a:?} vs {b:?}", w[0]);
        }
    }
    assert!(
        got.iter().any(|r| r[1].is_none() || r[2].is_none()) || text.contains(",,"),
        "an empty bin writes empty means"
    );
    assert!(got.iter().map(|r| r[8].unwrap()).sum::<f64>() > 0.0);
    // the run's summary.json
    let s: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    let ch = &s["coldhot"];
    assert_eq!(ch["bin_cycles"], 500);
    assert_eq!(
        ch["cold_delivered"].as_u64().unwrap() + ch["hot_delivered"].as_u64().unwrap(),
        d.len() as u64
    );
    assert_eq!(ch["congestion_start"], h.first_c_hot_created().unwrap());
    // the hot flits in flight, counted cycle by cycle here: a hot message's flits from
    // the cycle its first flit left to its delivery cycle
    let fb = sc.network.flit_bytes as u64;
    let mut inflight = vec![0u64; sc.cycles.max as usize + 1];
    for x in d
        .iter()
        .filter(|x| h.hotspots_at(x.msg.created).contains(&x.msg.dst))
    {
        for c in x.injected..=x.delivered {
            inflight[c as usize] += (x.msg.bytes as u64).div_ceil(fb);
        }
    }
    let peak = *inflight.iter().max().unwrap();
    assert!(peak > 0);
    assert_eq!(ch["hot_flits_in_flight_peak"], peak);
    // the source waits over the run
    let cold: Vec<&Delivery> = d
        .iter()
        .filter(|x| !h.hotspots_at(x.msg.created).contains(&x.msg.dst))
        .collect();
    let cw = cold
        .iter()
        .map(|x| (x.injected - x.msg.created) as f64)
        .sum::<f64>()
        / cold.len() as f64;
    assert!(
        close(ch["cold_wait_mean"].as_f64(), Some(cw)),
        "{}",
        ch["cold_wait_mean"]
    );
    let wait_peak = rows.iter().filter_map(|r| r[9]).fold(0.0, f64::max);
    assert!(close(ch["cold_wait_peak"].as_f64(), Some(wait_peak)));
    for (k, f) in [
        "cold_lat_peak",
        "hot_link_util",
        "marked_cold_frac",
        "marked_hot_frac",
    ]
    .iter()
    .zip(figs)
    {
        assert!(close(ch[k].as_f64(), f), "{k}: {} vs {f:?}", ch[k]);
    }
    let util = figs[1].unwrap();
    assert!(
        util > 0.3 && util <= 1.01,
        "hot-spot link utilisation {util}"
    );

    // `pftsim compare`: the four columns at the end, off without any mark
    let cmp = dir.join("cmp");
    let table = pftsim(&[
        "compare",
        dir.join("s.toml").to_str().unwrap(),
        "--out",
        cmp.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(table.contains("cold_lat_peak"), "{table}");
    let mut rd = csv::Reader::from_path(cmp.join("compare.csv")).unwrap();
    let head = rd.headers().unwrap().clone();
    let names: Vec<&str> = head.iter().collect();
    assert_eq!(
        names[names.len() - 5..],
        [
            "cc_counters",
            "cold_lat_peak",
            "hot_link_util",
            "marked_cold_frac",
            "marked_hot_frac"
        ]
    );
    let col = |n: &str| head.iter().position(|c| c == n).unwrap();
    let recs: Vec<csv::StringRecord> = rd.records().map(|r| r.unwrap()).collect();
    let row = |name: &str| recs.iter().find(|r| &r[0] == name).unwrap().clone();
    let r = row("ib");
    for (k, f) in [
        "cold_lat_peak",
        "hot_link_util",
        "marked_cold_frac",
        "marked_hot_frac",
    ]
    .iter()
    .zip(figs)
    {
        assert!(
            close(cell(&r[col(k)]), f),
            "ib {k}: {} vs {f:?}",
            &r[col(k)]
        );
    }
    let off = row("off");
    assert_eq!(cell(&off[col("marked_cold_frac")]), Some(0.0));
    assert_eq!(cell(&off[col("marked_hot_frac")]), Some(0.0));
    for f in [
        "coldhot_latency.svg",
        "coldhot_throughput.svg",
        "off/coldhot.csv",
        "ib/coldhot_latency.svg",
    ] {
        assert!(cmp.join(f).is_file(), "{f}");
    }
    let svg = std::fs::read_to_string(cmp.join("coldhot_latency.svg")).unwrap();
    assert!(
        svg.contains("off cold") && svg.contains("ib cold"),
        "one line per run"
    );
    let m: Value =
        serde_json::from_str(&std::fs::read_to_string(cmp.join("manifest.json")).unwrap()).unwrap();
    let files: Vec<&str> = m["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap())
        .collect();
    for f in [
        "coldhot_latency.svg",
        "ib/coldhot.csv",
        "off/coldhot_throughput.svg",
    ] {
        assert!(files.contains(&f), "the manifest lists {f}");
    }
}

#[test]
fn without_a_marking_scheme_every_delivery_has_bits_0() {
    let sc = Scenario::parse(SC).unwrap();
    let (d, h, _, _) = step_run(&sc, &CcConfig::none());
    assert!(d.len() > 10_000);
    assert!(d.iter().all(|x| x.bits == 0));
    // the same burst under another scheme: it starts at its own 2,000th delivery
    assert!(h.hot_start().is_some());
    let hot = d
        .iter()
        .filter(|x| h.hotspots_at(x.msg.created).contains(&x.msg.dst))
        .count();
    assert!(hot >= 7 * 150, "{hot} hot deliveries");
}

/// Messages of several packets (1024 bytes, MTU 256): a delivery is marked when any of
/// its packets was, so the marked deliveries are at least a quarter of the FECNs received
/// and at most all of them.
#[test]
fn a_message_of_several_packets_is_marked_when_any_packet_was() {
    let text = SC
        .replace("msg_bytes = 278", "msg_bytes = 1024")
        .replace(
            "topology = { kind = \"fat_tree\", radix = 8, leaves = 4 }",
            "topology = { kind = \"fat_tree\", radix = 8, leaves = 4 }\nmtu_bytes = 256\nbuffer_flits = 64\neject_buffer_flits = 64",
        )
        .replace("max = 40000", "max = 100000")
        .replace("load = 0.3", "load = 0.2")
        .replace("hot_messages = 150", "hot_messages = 60");
    let sc = Scenario::parse(&text).unwrap();
    sc.validate().unwrap();
    let (d, _, counters, left) = step_run(&sc, &sc.config_named("ib").unwrap());
    assert_eq!(left, 0);
    let marked = d.iter().filter(|x| x.bits != 0).count() as u64;
    let fecn = counters["fecn_received"];
    assert!(marked > 0);
    assert!(
        marked <= fecn && fecn <= 4 * marked,
        "{marked} marked, {fecn} FECN"
    );
    assert!(
        fecn > marked,
        "some message had more than one marked packet"
    );
}

#[test]
fn other_workloads_have_empty_coldhot_columns_and_no_coldhot_files() {
    let dir = tmp("uniform");
    let text = r#"name = "uni"
[cycles]
max = 3000
[network]
topology = { kind = "single_switch", nodes = 4 }
[workload]
kind = "uniform"
load = 0.3
"#;
    std::fs::write(dir.join("s.toml"), text).unwrap();
    let out = dir.join("out");
    let table = pftsim(&[
        "compare",
        dir.join("s.toml").to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(!table.contains("cold_lat_peak"), "{table}");
    let mut rd = csv::Reader::from_path(out.join("compare.csv")).unwrap();
    let head = rd.headers().unwrap().clone();
    for r in rd.records() {
        let r = r.unwrap();
        for k in [
            "cold_lat_peak",
            "hot_link_util",
            "marked_cold_frac",
            "marked_hot_frac",
        ] {
            let i = head.iter().position(|c| c == k).unwrap();
            assert_eq!(&r[i], "", "{k} of a uniform workload");
        }
    }
    assert!(!out.join("off/coldhot.csv").exists());
    assert!(!out.join("coldhot_latency.svg").exists());
    let s: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("off/summary.json")).unwrap())
            .unwrap();
    assert!(
        s.get("coldhot").is_none(),
        "no coldhot key for a uniform run"
    );
}
