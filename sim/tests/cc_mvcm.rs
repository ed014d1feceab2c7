//! MVCM (seed 004) and its comparator Renato's proposal in the network: the constants
//! derived from the network against the measured round trip, the switches' marking and
//! validation rules against the buffers they read, every flow's outstanding count against
//! the network's own, the corrective actions under a hot spot and the recovery after it,
//! and the configurations refused.

use pft_sim::cc::mvcm::MvcmConfig;
use pft_sim::cc::renato::{FlowUnit, RenatoConfig, Response};
use pft_sim::cc::CcConfig;
use pft_sim::net::{Delivery, Message, NetConfig, NodeId, TopologyConfig, Workload};
use pft_sim::{EngineKind, Network};

/// The seed's network at 8-byte flits: the 4-ary 5-fly with 512 hosts, CIOQ with speedup
/// 2, 1 KiB (128-flit) buffers, one-cycle links and credits, no switch pipeline, 278-byte
/// packets in a 280-byte MTU, 22-byte ACKs (3 flits).
fn paper_net() -> NetConfig {
    NetConfig {
        topology: TopologyConfig::KaryNfly {
            k: 4,
            n: 5,
            hosts: Some(512),
        },
        flit_bytes: 8,
        mtu_bytes: 280,
        buffer_flits: 128,
        out_buffer_flits: Some(128),
        eject_buffer_flits: 128,
        link_latency_cycles: 1,
        credit_latency_cycles: 1,
        switch_latency_cycles: 0,
        speedup: Some(2),
        ack_bytes: Some(22),
        ..Default::default()
    }
}

/// Messages of 278 bytes at given cycles; deliveries recorded.
struct Script {
    sends: Vec<(u64, u32, u32)>,
    next: usize,
    id: u64,
    delivered: Vec<Delivery>,
}

impl Script {
    fn new(mut sends: Vec<(u64, u32, u32)>) -> Script {
        sends.sort();
        Script {
            sends,
            next: 0,
            id: 0,
            delivered: Vec::new(),
        }
    }
}

impl Workload for Script {
    fn tick(&mut self, now: u64, out: &mut Vec<Message>) {
        while self.next < self.sends.len() && self.sends[self.next].0 == now {
            let (_, s, d) = self.sends[self.next];
            out.push(Message {
                id: self.id,
                src: NodeId(s),
                dst: NodeId(d),
                bytes: 278,
                tag: 0,
                created: now,
            });
            self.id += 1;
            self.next += 1;
        }
    }
    fn delivered(&mut self, _now: u64, d: &Delivery) {
        self.delivered.push(*d);
    }
}

fn mvcm_net(cfg: &NetConfig, m: MvcmConfig) -> Network {
    Network::with_cc(cfg, &CcConfig::Mvcm(m), EngineKind::Model, 1).unwrap()
}

#[test]
fn the_derived_round_trip_is_the_measured_one_on_an_idle_network() {
    let cfg = paper_net();
    let topo = pft_sim::net::Topology::build(&cfg.topology);
    let d = MvcmConfig::default()
        .derive(
            &cfg,
            || pft_sim::cc::round_trip::longest_path(&cfg, &topo),
            "cc",
        )
        .unwrap();
    let rt = d.round_trip;
    assert_eq!(
        (rt.switches, rt.one_way),
        (5, 6),
        "5 switches, 6 one-cycle links"
    );
    assert_eq!((rt.data_flits, rt.ack_flits), (35, 3));
    assert_eq!(rt.rtt, 2 * 6 + 35 + 3);
    assert_eq!(d.params.dw_max, 2, "ceil(50 / 35) = 2, the seed's DWmax");
    assert_eq!((d.params.k, d.params.n, d.params.ws_max_incs), (4, 5, 5));
    assert_eq!(
        (d.in_level, d.out_level),
        (84, 42),
        "66 % and 33 % of 128 flits"
    );
    // One packet 0 -> 511 on the idle network: from its start to its ACK's arrival.
    let mut net = mvcm_net(&cfg, MvcmConfig::default());
    let mut w = Script::new(vec![(0, 0, 511)]);
    let (mut start, mut back) = (None, None);
    for _ in 0..200 {
        net.step(&mut w).unwrap();
        let out = net.outstanding(NodeId(0), NodeId(511));
        if out == 1 && start.is_none() {
            start = Some(net.now());
        }
        if out == 0 && start.is_some() && back.is_none() {
            back = Some(net.now());
        }
    }
    // `now()` after a step is the next cycle: the packet started in cycle 0 and its ACK's
    // head reached the source in cycle `back - 1`.
    let (started, acked) = (start.unwrap() - 1, back.unwrap() - 1);
    let tail = w.delivered[0].delivered;
    assert_eq!(started, 0);
    assert_eq!(
        tail,
        started + rt.one_way as u64 + rt.data_flits as u64 - 1,
        "the data tail arrives one way plus its serialisation after its start"
    );
    // The destination starts the ACK in the cycle the tail arrives, and the source acts
    // on the ACK's head: the paper's sum (data and ACK each fully received) counts that
    // cycle twice and the ACK's own serialisation; so the source sees the ACK
    // ack_flits + 1 cycles before RTT_min.
    assert_eq!(acked - tail, rt.one_way as u64, "the ACK leaves at once");
    assert_eq!(acked - started, (rt.rtt - rt.ack_flits - 1) as u64);
    let topo_rtt = acked - started;
    assert_eq!(
        topo_rtt.div_ceil(rt.data_flits as u64),
        d.params.dw_max as u64,
        "the measured round trip gives the same DWmax"
    );
}

/// A 4-ary 3-fly (64 hosts) of CIOQ switches with the seed's buffers, for the runs below.
fn small_fly() -> NetConfig {
    NetConfig {
        topology: TopologyConfig::KaryNfly {
            k: 4,
            n: 3,
            hosts: None,
        },
        check: true,
        ..paper_net()
    }
}

mod mix;
use mix::Mix;
use pft_sim::net::{BernoulliSource, Pattern};

/// Uniform traffic at 0.08 and an incast to NIC 5 at 0.05 from every other NIC (3.2 times
/// what its link takes), 278-byte messages, until `stop`.
fn hot_spot(n: u32, stop: u64) -> Mix {
    Mix(
        BernoulliSource::new(n, Pattern::Uniform, 0.08, 278, 8, 1).until(stop),
        BernoulliSource::new(n, Pattern::Incast { dst: NodeId(5) }, 0.05, 278, 8, 2).until(stop),
        Vec::new(),
    )
}

fn mvcm_state(net: &Network) -> &pft_sim::cc::mvcm::MvcmState {
    match net {
        Network::Mvcm(n) => n.scheme(),
        _ => panic!("not an MVCM network"),
    }
}

#[test]
fn under_a_hot_spot_mvcm_throttles_hot_flows_keeps_its_counts_and_recovers_by_fast_reset() {
    let cfg = small_fly();
    let mut net = mvcm_net(&cfg, MvcmConfig::default());
    let n = net.nodes();
    let mut w = hot_spot(n, 20_000);
    let (mut most_ws, mut hot_reduced, mut cold_reduced) = (0u8, 0u64, 0u64);
    for _ in 0..40 {
        net.run(&mut w, 500).unwrap();
        let st = mvcm_state(&net);
        let p = *st.params();
        for s in 0..n {
            for d in 0..n {
                let f = st.flow(s, d);
                assert_eq!(
                    f.out as u32,
                    net.outstanding(NodeId(s), NodeId(d)),
                    "flow {s} -> {d}: the scheme's outstanding count is the network's"
                );
                f.check_invariants(&p)
                    .unwrap_or_else(|e| panic!("flow {s} -> {d}: {e}"));
                most_ws = most_ws.max(f.ws_exp.map_or(0, |e| e + 1));
                if f.dw < p.dw_max as u8 || f.ws_exp.is_some() {
                    if d == 5 {
                        hot_reduced += 1;
                    } else {
                        cold_reduced += 1;
                    }
                }
            }
        }
        net.check().unwrap();
    }
    let c = net.counter_map();
    println!("{c:?} most_ws {most_ws} hot {hot_reduced} cold {cold_reduced}");
    assert!(
        c["acks_hot"] > 0 && c["ws_up"] > 0 && c["dw_down"] > 0,
        "{c:?}"
    );
    assert!(c["mb_marked"] >= c["vb_validated"] && c["vb_validated"] > 0);
    assert!(
        most_ws >= 2,
        "some hot flow's WS grew past one slot ({most_ws})"
    );
    // per flow and sample: n - 1 flows go to the hot spot, (n - 1)^2 - (n - 1) elsewhere
    let (hot_flows, cold_flows) = ((n - 1) as f64, ((n - 1) * (n - 2)) as f64);
    let (hot, cold) = (
        hot_reduced as f64 / hot_flows / 40.0,
        cold_reduced as f64 / cold_flows / 40.0,
    );
    assert!(
        hot > 5.0 * cold,
        "the hot flows are the ones throttled: {hot:.3} of hot against {cold:.3} of cold flows per sample"
    );
    // the load stops; everything drains
    assert!(net.run_until_idle(&mut w, 2_000_000).unwrap());
    let t = net.total_stats();
    assert_eq!(t.messages_delivered, t.messages_accepted);
    // flows left below full rate (no ACK came back to restore them) recover at their next
    // packet: the fast reset
    let st = mvcm_state(&net);
    let p = *st.params();
    let reduced: Vec<(u32, u32)> = (0..n)
        .flat_map(|s| (0..n).map(move |d| (s, d)))
        .filter(|&(s, d)| {
            let f = st.flow(s, d);
            f.dw < p.dw_max as u8 || f.ws_exp.is_some()
        })
        .collect();
    assert!(!reduced.is_empty(), "some hot flow ended reduced");
    let resets = c["fast_resets"];
    let now = net.now();
    let mut again = Script::new(reduced.iter().map(|&(s, d)| (now, s, d)).collect());
    // the script's cycles are absolute: step it from now
    net.run(&mut again, 1).unwrap();
    let st = mvcm_state(&net);
    for &(s, d) in &reduced {
        let f = st.flow(s, d);
        assert_eq!(
            f.dw as u32, p.dw_max,
            "flow {s} -> {d} after its fast reset"
        );
        assert!(f.ws_exp.is_none());
    }
    assert_eq!(
        net.counter_map()["fast_resets"] - resets,
        reduced.len() as u64
    );
    assert!(net.run_until_idle(&mut again, 100_000).unwrap());
}

#[test]
fn mvcm_refuses_a_network_without_output_queues_or_acks_naming_the_key() {
    let with = |f: &dyn Fn(&mut NetConfig)| {
        let mut c = paper_net();
        f(&mut c);
        Network::with_cc(
            &c,
            &CcConfig::Mvcm(MvcmConfig::default()),
            EngineKind::Model,
            1,
        )
        .err()
        .map(|e| e.to_string())
    };
    let e = with(&|c| {
        c.speedup = None;
        c.out_buffer_flits = None;
    })
    .expect("no output queues");
    assert!(e.contains("network.speedup") && e.contains("1..=8"), "{e}");
    let e = with(&|c| c.ack_bytes = None).expect("no ACKs");
    assert!(e.contains("network.ack_bytes"), "{e}");
    let e = with(&|c| {
        c.topology = TopologyConfig::FatTree {
            radix: 8,
            leaves: 4,
        }
    })
    .expect("no k on a fat tree");
    assert!(e.contains("cc.k") && e.contains("2..=64"), "{e}");
    let e = Network::with_cc(
        &paper_net(),
        &CcConfig::Mvcm(MvcmConfig {
            dw_max: Some(0),
            ..Default::default()
        }),
        EngineKind::Model,
        1,
    )
    .err()
    .unwrap()
    .to_string();
    assert!(e.contains("cc.dw_max") && e.contains("1..=255"), "{e}");
    assert!(with(&|_| {}).is_none(), "the seed's network is accepted");
}

fn renato_state(net: &Network) -> &pft_sim::cc::renato::RenatoState {
    match net {
        Network::Renato(n) => n.scheme(),
        _ => panic!("not a Renato network"),
    }
}

#[test]
fn renato_keeps_a_window_of_one_and_slows_marked_flows_by_each_response() {
    for response in [Response::Lipd, Response::Fimd, Response::Aimd] {
        let cfg = small_fly();
        let rc = RenatoConfig {
            response,
            ..Default::default()
        };
        let mut net = Network::with_cc(&cfg, &CcConfig::Renato(rc), EngineKind::Model, 1).unwrap();
        let n = net.nodes();
        let mut w = hot_spot(n, 20_000);
        let (mut hot_slow, mut cold_slow) = (0u64, 0u64);
        for _ in 0..40 {
            net.run(&mut w, 500).unwrap();
            let st = renato_state(&net);
            for s in 0..n {
                for d in 0..n {
                    let f = st.flow(s, d);
                    let out = net.outstanding(NodeId(s), NodeId(d));
                    assert_eq!(f.out as u32, out, "{response:?} flow {s} -> {d}");
                    assert!(out <= 1, "{response:?}: window 1");
                    if st.gap(f) > 0 {
                        if d == 5 {
                            hot_slow += 1;
                        } else {
                            cold_slow += 1;
                        }
                    }
                }
            }
            net.check().unwrap();
        }
        let c = net.counter_map();
        println!("{response:?} {c:?} hot {hot_slow} cold {cold_slow}");
        assert!(c["ipm_onsets"] > 0 && c["ipm_marked"] > 0 && c["acks_marked"] > 0);
        let (hot, cold) = (
            hot_slow as f64 / (n - 1) as f64,
            cold_slow as f64 / ((n - 1) * (n - 2)) as f64,
        );
        assert!(
            hot > 5.0 * cold,
            "{response:?}: {hot:.2} of hot against {cold:.2} of cold flows slowed"
        );
        assert!(
            net.run_until_idle(&mut w, 5_000_000).unwrap(),
            "{response:?} drains"
        );
    }
}

/// `flow = "source"` (the ablation): one window and one delay per source NIC, shared by
/// all its destinations. At every check a NIC has at most one packet outstanding over
/// all its destinations (the network's own count), and the NIC's one flow counts that
/// sum; some NICs were busy and some slowed, so the checks saw the sharing act. The keys
/// parse from a scenario file.
#[test]
fn renato_flow_source_shares_one_window_and_delay_over_a_sources_destinations() {
    let cfg = small_fly();
    let rc = RenatoConfig {
        flow: FlowUnit::Source,
        ..Default::default()
    };
    let mut net = Network::with_cc(&cfg, &CcConfig::Renato(rc), EngineKind::Model, 1).unwrap();
    let n = net.nodes();
    let mut w = hot_spot(n, 20_000);
    let (mut busy, mut slowed) = (0u64, 0u64);
    for _ in 0..40 {
        net.run(&mut w, 500).unwrap();
        let st = renato_state(&net);
        for s in 0..n {
            let out: u32 = (0..n).map(|d| net.outstanding(NodeId(s), NodeId(d))).sum();
            assert!(
                out <= 1,
                "NIC {s}: {out} packets outstanding over its destinations"
            );
            let f = *st.flow(s, 0);
            assert_eq!(f.out as u32, out, "NIC {s}");
            busy += out as u64;
            slowed += (st.gap(&f) > 0) as u64;
        }
        net.check().unwrap();
    }
    assert!(
        busy > 0 && slowed > 0,
        "outstanding {busy}, slowed {slowed}"
    );
    assert!(net.run_until_idle(&mut w, 5_000_000).unwrap(), "drains");

    let sc = pft_sim::scenario::Scenario::parse(
        r#"name = "keys"
[network]
topology = { kind = "kary_nfly", k = 4, n = 3 }
speedup = 2
ack_bytes = 22
[workload]
kind = "uniform"
load = 0.1
[[cc]]
name = "r"
kind = "renato"
flow = "source"
[[cc]]
name = "m"
kind = "mvcm"
warm = false
"#,
    )
    .unwrap();
    sc.validate().unwrap();
    match sc.config_named("r").unwrap() {
        CcConfig::Renato(r) => assert_eq!(r.flow, FlowUnit::Source),
        other => panic!("{other:?}"),
    }
    match sc.config_named("m").unwrap() {
        CcConfig::Mvcm(m) => assert!(!m.warm),
        other => panic!("{other:?}"),
    }
}

/// Seed 004's Fig. 12: IB CC's response to MVCM's validated marks only (`ibcc` with
/// `marking = "validated"`). FECN goes only on packets marked at an input buffer and
/// validated at an output queue; IB's own output marking is off; each threshold gates.
#[test]
fn ibcc_with_validated_marking_sets_fecn_only_on_marked_and_validated_packets() {
    use pft_sim::cc::ibcc::{IbccConfig, Marking, FECN, MB};
    let cfg = small_fly();
    let run = |c: IbccConfig| {
        let mut net = Network::with_cc(&cfg, &CcConfig::Ibcc(c), EngineKind::Model, 1).unwrap();
        let mut w = hot_spot(net.nodes(), 20_000);
        net.run(&mut w, 20_000).unwrap();
        net.check().unwrap();
        (net.counter_map(), w.2)
    };
    let validated = |inp, out| IbccConfig {
        marking: Marking::Validated,
        in_threshold_percent: inp,
        out_threshold_percent: out,
        ..Default::default()
    };
    // IB's output marking marks under this hot spot
    let (c, _) = run(IbccConfig::default());
    assert!(c["fecn_marked"] > 0, "{c:?}");
    assert!(!c.contains_key("input_marked"));
    // validated marking at MVCM's defaults: every FECN packet carries MB
    let (c, del) = run(validated(None, None));
    assert!(c["input_marked"] > 0 && c["fecn_marked"] > 0, "{c:?}");
    assert!(c["fecn_marked"] <= c["input_marked"], "{c:?}");
    let fecn = del.iter().filter(|d| d.bits & FECN != 0).count();
    assert!(fecn > 0);
    assert!(
        del.iter().all(|d| d.bits & FECN == 0 || d.bits & MB != 0),
        "a packet got FECN without MVCM's input mark"
    );
    // each threshold gates its step: higher levels, fewer marks (a head may arrive with
    // only its own flit's room, so even 100 % is crossed under this incast)
    let (c_in, _) = run(validated(Some(100), Some(33)));
    assert!(c_in["input_marked"] < c["input_marked"], "{c_in:?} {c:?}");
    // an output queue never holds more than its size: marked, never validated, no BECN
    let (c_out, del) = run(validated(Some(66), Some(100)));
    assert!(c_out["input_marked"] > 0, "{c_out:?}");
    assert_eq!(
        (c_out["fecn_marked"], c_out["becns_received"]),
        (0, 0),
        "{c_out:?}"
    );
    assert!(del.iter().all(|d| d.bits & FECN == 0 || d.bits & MB != 0));
}
