//! InfiniBand congestion control in the network (crate::cc::ibcc; docs/cc/ibcc.md): lossless
//! with the invariant checker on, CNPs travel as packets, every FECN comes back as a BECN,
//! deterministic, independent of the evaluation order, and it helps victims of a hot spot.
//! The rules themselves (CCTI up and down, timer, IRD, marking) are unit-tested in
//! `sim/src/cc/ibcc/{nic,switch}.rs`.

use pft_sim::cc::{CcConfig, IbccConfig};
use pft_sim::net::NodeId;
use pft_sim::net::{BernoulliSource, Delivery, EvalOrder, NetConfig, Pattern, TopologyConfig};
use pft_sim::scenario::{run, Progress, RunSpec, Scenario};
use pft_sim::{EngineKind, Network};

mod mix;
use mix::Mix;

fn cfg() -> NetConfig {
    NetConfig {
        topology: TopologyConfig::FatTree {
            radix: 8,
            leaves: 4,
        },
        link_gbps: 20.0, // 25.6 ns per cycle: ccti_timer 1 = 40 cycles
        buffer_flits: 128,
        eject_buffer_flits: 128,
        mtu_bytes: 1024,
        link_latency_cycles: 3,
        credit_latency_cycles: 2,
        switch_latency_cycles: 2,
        eject_rate: 0.7,
        voq: true,
        check: true,
        ..Default::default()
    }
}

fn ibcc() -> CcConfig {
    CcConfig::Ibcc(IbccConfig {
        ccti_timer: 5, // 200 cycles: CCTIs rise and fall within the test
        ..Default::default()
    })
}

fn mix(n: u32, stop: u64) -> Mix {
    Mix(
        BernoulliSource::new(n, Pattern::Uniform, 0.2, 1024, 64, 1).until(stop),
        BernoulliSource::new(n, Pattern::Incast { dst: NodeId(3) }, 0.05, 2048, 64, 2).until(stop),
        Vec::new(),
    )
}

/// Runs the mix for `cycles`, then drains; returns the deliveries, a trace of counters and
/// CCTIs, and the network.
fn run_mix(order: EvalOrder, cycles: u64) -> (Vec<Delivery>, Vec<String>, Network) {
    let mut net = Network::with_cc(&cfg(), &ibcc(), EngineKind::Model, 5).unwrap();
    net.set_eval_order(order);
    let n = net.nodes();
    let mut w = mix(n, cycles);
    let mut trace = Vec::new();
    for t in 0..cycles {
        net.step(&mut w).unwrap();
        if t % 250 == 0 {
            let cctis: Vec<u16> = (0..n)
                .map(|s| net.ccti(NodeId(s), NodeId(3)).unwrap())
                .collect();
            trace.push(format!("{t}: {:?} {cctis:?}", net.total_stats()));
        }
    }
    assert!(net.run_until_idle(&mut w, 200_000).unwrap(), "drains");
    for i in 0..n {
        trace.push(format!("{i}: {:?}", net.nic_stats(NodeId(i))));
    }
    (w.2, trace, net)
}

#[test]
fn ibcc_is_lossless_and_every_fecn_returns_as_a_becn() {
    let (deliveries, _, net) = run_mix(EvalOrder::Forward, 20_000);
    let t = net.total_stats();
    assert_eq!(t.messages_delivered, t.messages_accepted, "nothing lost");
    assert_eq!(deliveries.len() as u64, t.messages_accepted);
    assert!(net.is_idle());
    // A packet may be marked at several hops; it arrives with FECN once.
    let marked = net.fecn_marked();
    let ib = net.ibcc_total_stats();
    assert!(ib.fecn_received > 0, "the incast marks packets");
    assert!(
        ib.fecn_received <= marked,
        "{} > {marked}",
        ib.fecn_received
    );
    assert_eq!(ib.cnps_sent, ib.fecn_received, "one CNP per marked packet");
    assert_eq!(
        ib.becns_received, ib.cnps_sent,
        "every CNP reached its source"
    );
    assert_eq!(t.flits_injected, t.flits_ejected, "CNP flits are not data");
    // The incast sources were throttled, by their flow to NIC 3 only.
    assert!(t.throttled_cycles > 0);
    let senders_with_becns = (0..net.nodes())
        .filter(|&i| net.ibcc_stats(NodeId(i)).becns_received > 0)
        .count();
    assert!(
        senders_with_becns > 4,
        "{senders_with_becns} sources notified"
    );
}

#[test]
fn ibcc_is_deterministic_and_independent_of_evaluation_order() {
    let (d0, t0, _) = run_mix(EvalOrder::Forward, 8_000);
    let (d1, t1, _) = run_mix(EvalOrder::Forward, 8_000);
    assert_eq!((&d0, &t0), (&d1, &t1), "same seed, same run");
    for order in [EvalOrder::Reverse, EvalOrder::Shuffled(11)] {
        let (d, t, _) = run_mix(order, 8_000);
        assert_eq!(t0, t, "{order:?}: counters and CCTIs");
        assert_eq!(d0, d, "{order:?}: deliveries");
    }
}

/// A CNP is a real packet: it crosses the fabric (links and switches) after the marked
/// packet's head reached its destination, and its BECN raises the source's CCTI for that
/// destination only.
#[test]
fn cnp_travels_the_network_and_raises_one_flow() {
    let mut c = cfg();
    c.topology = TopologyConfig::SingleSwitch { nodes: 4 };
    let mut net = Network::with_cc(&c, &ibcc(), EngineKind::Model, 1).unwrap();
    // NICs 0 and 1 flood NIC 2 (ejecting at 0.7): its port queues up and marks.
    let mut w = Mix(
        BernoulliSource::new(4, Pattern::Incast { dst: NodeId(2) }, 1.0, 1024, 64, 3),
        BernoulliSource::new(4, Pattern::Uniform, 0.0, 64, 64, 4),
        Vec::new(),
    );
    let (mut first_fecn, mut first_becn) = (None, None);
    for t in 0..3_000u64 {
        net.step(&mut w).unwrap();
        if first_fecn.is_none() && net.ibcc_stats(NodeId(2)).fecn_received > 0 {
            first_fecn = Some(t);
        }
        let becns =
            net.ibcc_stats(NodeId(0)).becns_received + net.ibcc_stats(NodeId(1)).becns_received;
        if first_becn.is_none() && becns > 0 {
            first_becn = Some(t);
        }
    }
    let (f, b) = (first_fecn.unwrap(), first_becn.unwrap());
    // NIC 2 -> switch (3) -> switch pipeline (2) -> link to the source (3).
    assert!(b >= f + 3 + 2 + 3, "FECN at {f}, BECN at {b}");
    assert!(net.ibcc_stats(NodeId(2)).cnps_sent > 0);
    assert!(
        net.ccti(NodeId(0), NodeId(2)).unwrap() > 0 || net.ccti(NodeId(1), NodeId(2)).unwrap() > 0
    );
    assert_eq!(
        net.ccti(NodeId(0), NodeId(1)),
        Some(0),
        "flows that were not marked stay at 0"
    );
    assert_eq!(net.ccti(NodeId(2), NodeId(0)), Some(0));
}

/// The seed's claim on a small fabric: with hot spots, IB CC raises the receive rate of the
/// other nodes several-fold and costs the hot spots little.
#[test]
fn ibcc_helps_the_victims_of_hot_spots() {
    let text = r#"
name = "ib-small"
seed = 3
[cycles]
max = 300_000
warmup = 150_000
[network]
topology = { kind = "fat_tree", radix = 8, leaves = 8 }
link_gbps = 20.0
mtu_bytes = 2048
buffer_flits = 256
eject_buffer_flits = 256
link_latency_cycles = 2
credit_latency_cycles = 2
switch_latency_cycles = 4
voq = true
eject_rate = 0.68
[workload]
kind = "hotspot"
hotspots = 2
frac_c = 0.8
frac_v = 0.2
load = 0.675
injection = { type = "budget" }
max_outstanding = 8
[[cc]]
name = "ibcc"
kind = "ibcc"
ccti_timer = 30
"#;
    let sc = Scenario::parse(text).unwrap();
    sc.validate().unwrap();
    let go = |label: &str, cc: CcConfig| {
        let spec = RunSpec {
            label: label.into(),
            cc,
            congestors: true,
        };
        run::run(&sc, &spec, &Progress::quiet())
            .unwrap()
            .hotspot_rates
            .unwrap()
    };
    let off = go("off", CcConfig::none());
    let on = go("ibcc", sc.config_named("ibcc").unwrap());
    assert!(
        on.rx_nonhot > 3.0 * off.rx_nonhot,
        "non-hot-spot rate {} -> {} Gb/s",
        off.rx_nonhot,
        on.rx_nonhot
    );
    assert!(
        on.rx_hot > 0.9 * off.rx_hot,
        "hot-spot rate {} -> {} Gb/s",
        off.rx_hot,
        on.rx_hot
    );
}
