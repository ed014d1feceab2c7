//! Run-time faults (`[[network.faults]]`): the network stays lossless through late and
//! jittered credits, stalled and slow ejection, paused links and PFT registers rewritten
//! mid-run (the invariant checker runs every cycle and every message is delivered), each
//! fault visibly does what it says, the two PFT engines still agree, and the evaluation
//! order still does not matter. Also: a PFT setting that blocks a NIC halfway through a
//! packet is reported as starvation, with the reason, instead of running for ever.

use pft_sim::net::NodeId;
use pft_sim::net::{
    BernoulliSource, CreditScope, EvalOrder, FaultSpec, LinkRef, NetConfig, NetError, Pattern,
    TopologyConfig,
};
use pft_sim::{DetMode, EngineKind, Network, PftConfig, ThrMode};

fn base() -> NetConfig {
    NetConfig {
        topology: TopologyConfig::FatTree {
            radix: 8,
            leaves: 4,
        }, // 16 NICs, 4 leaves, 4 spines
        mtu_bytes: 1024,
        buffer_flits: 128,
        eject_buffer_flits: 64,
        link_latency_cycles: 4,
        credit_latency_cycles: 3,
        switch_latency_cycles: 1,
        check: true,
        deadlock_cycles: 20_000,
        ..Default::default()
    }
}

/// What a run did: totals, and the flits NIC `watch` injected and ejected in `window`.
#[derive(Debug, Default)]
struct Outcome {
    created: u64,
    delivered: u64,
    mean_latency: f64,
    in_window_injected: u64,
    in_window_ejected: u64,
    congested_cycles: u64,
}

const CYCLES: u64 = 12_000;

/// Uniform load, messages stop at 2/3 of the run, then drain until idle: every message
/// must arrive. `window` and `watch` pick what to measure during the fault.
fn run(
    cfg: &NetConfig,
    pft: &PftConfig,
    engine: EngineKind,
    watch: u32,
    window: (u64, u64),
) -> Outcome {
    let mut net = Network::new(cfg, pft, engine, 3).unwrap();
    let mut w = BernoulliSource::new(net.nodes(), Pattern::Uniform, 0.6, 1024, 64, 9)
        .until(CYCLES * 2 / 3)
        .logged();
    let mut o = Outcome::default();
    let (mut inj0, mut ej0) = (0, 0);
    for t in 0..CYCLES {
        if t == window.0 {
            let s = net.nic_stats(NodeId(watch));
            (inj0, ej0) = (s.flits_injected, s.flits_ejected);
        }
        net.step(&mut w).unwrap_or_else(|e| panic!("{e}"));
        if t + 1 == window.1 {
            let s = net.nic_stats(NodeId(watch));
            o.in_window_injected = s.flits_injected - inj0;
            o.in_window_ejected = s.flits_ejected - ej0;
        }
    }
    assert!(
        net.run_until_idle(&mut w, 200_000)
            .unwrap_or_else(|e| panic!("{e}")),
        "the network did not drain"
    );
    net.check().unwrap();
    o.created = w.created;
    o.delivered = w.delivered;
    let log = w.log.as_ref().unwrap();
    o.mean_latency = log
        .iter()
        .map(|d| (d.delivered - d.injected) as f64)
        .sum::<f64>()
        / log.len() as f64;
    o.congested_cycles = net.total_stats().congested_cycles;
    assert_eq!(o.delivered, o.created, "messages lost");
    let t = net.total_stats();
    assert_eq!(t.flits_injected, t.flits_ejected);
    o
}

fn with(f: FaultSpec) -> NetConfig {
    NetConfig {
        faults: vec![f],
        ..base()
    }
}

const WIN: (u64, u64) = (3000, 5000);

#[test]
fn credit_delay_and_jitter_keep_the_network_lossless_and_slow_it() {
    let pft = PftConfig::disabled();
    // Buffers of 32 flits: a 40-cycle credit delay makes the credit loop the bottleneck.
    let small = |cfg: NetConfig| NetConfig {
        buffer_flits: 32,
        ..cfg
    };
    let clean = run(&small(base()), &pft, EngineKind::Model, 0, WIN);
    let delay = run(
        &small(with(FaultSpec::CreditDelay {
            cycles: 40,
            scope: CreditScope::All,
            start: WIN.0,
            duration: Some(WIN.1 - WIN.0),
            period: None,
        })),
        &pft,
        EngineKind::Model,
        0,
        WIN,
    );
    let jitter = run(
        &small(with(FaultSpec::CreditJitter {
            max_cycles: 60,
            scope: CreditScope::All,
            start: 0,
            duration: None,
            period: None,
        })),
        &pft,
        EngineKind::Model,
        0,
        WIN,
    );
    println!("clean {clean:?}\ndelay {delay:?}\njitter {jitter:?}");
    // Fewer credits in flight per round trip: messages take longer.
    assert!(
        delay.mean_latency > clean.mean_latency,
        "{delay:?} vs {clean:?}"
    );
    assert!(
        jitter.mean_latency > clean.mean_latency,
        "{jitter:?} vs {clean:?}"
    );
}

#[test]
fn stalled_and_slow_ejection() {
    let pft = PftConfig::disabled();
    let stall = run(
        &with(FaultSpec::Eject {
            nics: Some(vec![5]),
            rate: 0.0,
            start: WIN.0,
            duration: Some(WIN.1 - WIN.0),
            period: None,
        }),
        &pft,
        EngineKind::Model,
        5,
        WIN,
    );
    assert_eq!(stall.in_window_ejected, 0, "a stalled port drained flits");
    let clean = run(&base(), &pft, EngineKind::Model, 5, WIN);
    assert!(clean.in_window_ejected > 500, "{clean:?}");
    let slow = run(
        &with(FaultSpec::Eject {
            nics: None,
            rate: 0.25,
            start: WIN.0,
            duration: Some(WIN.1 - WIN.0),
            period: None,
        }),
        &pft,
        EngineKind::Model,
        5,
        WIN,
    );
    // At most a quarter flit per cycle (plus one banked flit).
    assert!(
        slow.in_window_ejected <= (WIN.1 - WIN.0) / 4 + 1,
        "{slow:?}"
    );
    assert!(slow.in_window_ejected > 0);
}

#[test]
fn paused_links() {
    let pft = PftConfig::disabled();
    let nic = run(
        &with(FaultSpec::LinkPause {
            link: LinkRef {
                nic: Some(7),
                ..Default::default()
            },
            start: WIN.0,
            duration: Some(WIN.1 - WIN.0),
            period: None,
        }),
        &pft,
        EngineKind::Model,
        7,
        WIN,
    );
    assert_eq!(
        nic.in_window_injected, 0,
        "a paused injection link carried flits"
    );
    // The ejection link of NIC 2 is output 2 of leaf 0 (NICs 0..4 hang off leaf 0).
    let sw = run(
        &with(FaultSpec::LinkPause {
            link: LinkRef {
                nic: None,
                switch: Some(0),
                port: Some(2),
            },
            start: WIN.0,
            duration: Some(WIN.1 - WIN.0),
            period: Some(4000),
        }),
        &pft,
        EngineKind::Model,
        2,
        WIN,
    );
    // At most the flits on the wire when the pause starts (5 cycles of link and switch
    // latency) and the few in the receive buffer (drained at 1 flit/cycle).
    assert!(sw.in_window_ejected <= 16, "{sw:?}");
}

#[test]
fn pft_rewritten_mid_run_takes_effect() {
    // Start with PFT off; at cycle 3000 the driver enables a hard FT-FI throttle.
    let hard = PftConfig::default().with_all(&[
        ("det_mode", DetMode::Ft as u64),
        ("thr_mode", ThrMode::Fi as u64),
        ("th_enter", 8),
        ("th_escape", 4),
        ("m", 0),
        ("n", 0),
        ("k", 40),
    ]);
    let cfg = with(FaultSpec::RegRewrite {
        at: 3000,
        nics: None,
        regs: hard.to_table(),
    });
    let mut net = Network::new(&cfg, &PftConfig::disabled(), EngineKind::Model, 3).unwrap();
    let mut w = BernoulliSource::new(net.nodes(), Pattern::Uniform, 0.6, 1024, 64, 9);
    net.run(&mut w, 3000).unwrap();
    assert_eq!(net.total_stats().congested_cycles, 0);
    net.run(&mut w, 3000).unwrap();
    assert!(
        net.total_stats().congested_cycles > 1000,
        "{:?}",
        net.total_stats()
    );
    assert!(net.total_stats().throttled_cycles > 100);
    let o = run(&cfg, &PftConfig::disabled(), EngineKind::Model, 0, WIN);
    assert!(o.congested_cycles > 0);
}

/// Every fault at once, repeating: both engines agree cycle by cycle, and so do three
/// evaluation orders.
fn all_faults() -> NetConfig {
    NetConfig {
        faults: vec![
            FaultSpec::CreditJitter {
                max_cycles: 9,
                scope: CreditScope::Nics,
                start: 100,
                duration: Some(300),
                period: Some(700),
            },
            FaultSpec::CreditDelay {
                cycles: 20,
                scope: CreditScope::All,
                start: 400,
                duration: Some(200),
                period: Some(900),
            },
            FaultSpec::Eject {
                nics: Some(vec![0, 1]),
                rate: 0.0,
                start: 200,
                duration: Some(150),
                period: Some(600),
            },
            FaultSpec::LinkPause {
                link: LinkRef {
                    nic: None,
                    switch: Some(4),
                    port: Some(0),
                },
                start: 50,
                duration: Some(100),
                period: Some(500),
            },
            FaultSpec::RegRewrite {
                at: 800,
                nics: Some(vec![1, 2, 3, 9]),
                regs: PftConfig::default()
                    .with_all(&[
                        ("det_mode", DetMode::Ft as u64),
                        ("thr_mode", ThrMode::Fi as u64),
                        ("th_enter", 16),
                        ("th_escape", 8),
                        ("m", 0),
                        ("n", 2),
                        ("k", 3),
                    ])
                    .to_table(),
            },
        ],
        ..base()
    }
}

#[test]
fn engines_agree_under_faults() {
    let cfg = all_faults();
    let pft = PftConfig::default().with_all(&[("th_enter", 24), ("th_escape", 30), ("m", 26)]);
    let mut nets: Vec<Network> = [EngineKind::Model, EngineKind::Rtl]
        .iter()
        .map(|&e| Network::new(&cfg, &pft, e, 11).unwrap())
        .collect();
    let mut ws: Vec<BernoulliSource> = (0..2)
        .map(|_| BernoulliSource::new(16, Pattern::Incast { dst: NodeId(0) }, 0.3, 1024, 64, 4))
        .collect();
    let mut congested = 0;
    for t in 0..1500 {
        for (n, w) in nets.iter_mut().zip(ws.iter_mut()) {
            n.step(w).unwrap_or_else(|e| panic!("{e}"));
        }
        for i in 0..16 {
            assert_eq!(
                nets[0].pft_probe(NodeId(i)),
                nets[1].pft_probe(NodeId(i)),
                "cycle {t} NIC {i}"
            );
            congested += nets[0].congested(NodeId(i)) as u32;
        }
    }
    assert!(congested > 0);
    assert_eq!(nets[0].total_stats(), nets[1].total_stats());
}

#[test]
fn order_does_not_matter_under_faults() {
    let cfg = all_faults();
    let pft = PftConfig::default();
    let mut logs = Vec::new();
    for order in [
        EvalOrder::Forward,
        EvalOrder::Reverse,
        EvalOrder::Shuffled(5),
    ] {
        let mut net = Network::new(&cfg, &pft, EngineKind::Model, 11).unwrap();
        net.set_eval_order(order);
        let mut w = BernoulliSource::new(16, Pattern::Uniform, 0.7, 1024, 64, 4).logged();
        net.run(&mut w, 4000).unwrap_or_else(|e| panic!("{e}"));
        logs.push((w.log.unwrap(), net.total_stats()));
    }
    assert!(!logs[0].0.is_empty());
    assert_eq!(logs[0], logs[1]);
    assert_eq!(logs[0], logs[2]);
}

#[test]
fn bad_fault_references_are_refused() {
    let cases = [
        (
            FaultSpec::Eject {
                nics: Some(vec![16]),
                rate: 0.5,
                start: 0,
                duration: None,
                period: None,
            },
            "faults[0].nics",
        ),
        (
            FaultSpec::LinkPause {
                link: LinkRef {
                    nic: None,
                    switch: Some(8),
                    port: Some(0),
                },
                start: 0,
                duration: Some(10),
                period: None,
            },
            "faults[0].link.switch",
        ),
        (
            FaultSpec::LinkPause {
                link: LinkRef {
                    nic: None,
                    switch: Some(0),
                    port: Some(8),
                },
                start: 0,
                duration: Some(10),
                period: None,
            },
            "faults[0].link.port",
        ),
        (
            FaultSpec::LinkPause {
                link: LinkRef {
                    nic: Some(1),
                    switch: Some(0),
                    port: None,
                },
                start: 0,
                duration: Some(10),
                period: None,
            },
            "faults[0].link",
        ),
        (
            FaultSpec::LinkPause {
                link: LinkRef {
                    nic: Some(1),
                    ..Default::default()
                },
                start: 0,
                duration: Some(30_000),
                period: None,
            },
            "faults[0].duration",
        ),
    ];
    for (f, field) in cases {
        let e = Network::new(
            &with(f.clone()),
            &PftConfig::default(),
            EngineKind::Model,
            1,
        )
        .err()
        .unwrap_or_else(|| panic!("{f:?} accepted"));
        let NetError::Config(c) = &e else {
            panic!("{e:?}")
        };
        assert_eq!(c.field, field, "{e}");
        println!("{e}");
    }
}

/// Test traffic for the freeze: NIC 0 streams 1 KiB messages to NICs 1, 2 and 4 in turn,
/// NIC 5 to NICs 2 and 1 (more than the ports drain at 0.5 flit per cycle), NIC 3 sends a light
/// stream to NIC 4 (that never congests), so the fabric keeps moving while NIC 0 is stuck.
struct Freeze {
    id: u64,
    delivered: u64,
}

impl pft_sim::net::Workload for Freeze {
    fn tick(&mut self, now: u64, out: &mut Vec<pft_sim::net::Message>) {
        let mut send = |src, dst| {
            self.id += 1;
            out.push(pft_sim::net::Message {
                id: self.id,
                src,
                dst,
                bytes: 1024,
                tag: 0,
                created: now,
            });
        };
        if now.is_multiple_of(8) && now < 40_000 {
            send(NodeId(0), NodeId([1, 2, 4][(now / 8 % 3) as usize]));
        }
        if now.is_multiple_of(16) && now < 40_000 {
            send(NodeId(5), NodeId(2 - (now / 16 % 2) as u32));
        }
        if now.is_multiple_of(200) && now < 40_000 {
            send(NodeId(3), NodeId(4));
        }
    }
    fn delivered(&mut self, _now: u64, _d: &pft_sim::net::Delivery) {
        self.delivered += 1;
    }
}

/// The freeze found by the scenario work, reduced: VOQ switch, FT-FI with a level above
/// the 16-bit gap for every c > 0 (P(send) = 0 once Congested). A NIC stopped halfway
/// through a packet keeps its edge-switch input locked, so the packets behind it in the
/// other VOQs never leave and c never falls. NIC 3 keeps moving, so the fabric-wide
/// deadlock detector cannot see it; the per-NIC watchdog does.
#[test]
fn blocking_level_is_reported_as_starvation() {
    let cfg = NetConfig {
        topology: TopologyConfig::SingleSwitch { nodes: 6 },
        voq: true,
        mtu_bytes: 1024,
        buffer_flits: 128,
        eject_buffer_flits: 32,
        eject_rate: 0.5,
        deadlock_cycles: 5_000,
        check: true,
        ..Default::default()
    };
    let pft = PftConfig::default().with_all(&[
        ("det_mode", DetMode::Ft as u64),
        ("thr_mode", ThrMode::Fi as u64),
        ("th_enter", 24),
        ("th_escape", 10),
        ("m", 16),
        ("n", 0),
        ("k", 0),
    ]);
    assert_eq!(pft.blocking_from(128), Some(1));
    // A level that blocks, behind a threshold c never passes, is harmless.
    let unreachable = pft.with_all(&[("th_enter", 128)]);
    assert_eq!(unreachable.blocking_from(128), None);
    let mut net = Network::new(&cfg, &pft, EngineKind::Model, 1).unwrap();
    let mut w = Freeze {
        id: 0,
        delivered: 0,
    };
    let e = net.run(&mut w, 200_000).unwrap_err();
    println!("{e}");
    let NetError::Starved {
        nic,
        c,
        ref reason,
        stalled_cycles,
        ..
    } = e
    else {
        panic!("{e:?}")
    };
    assert_eq!(nic, 0);
    // Twice the deadlock limit while other flits move; at least the limit when the held
    // packet stops the whole fabric (then it is named as the cause, not a deadlock).
    assert!(
        (5_000..=10_000).contains(&stalled_cycles),
        "{stalled_cycles}"
    );
    assert!(
        c >= 10,
        "c = {c} should hold at or above the escape threshold"
    );
    assert!(reason.contains("P(send) = 0"), "{reason}");
    // The same traffic with a level that always lets flits through completes.
    let ok = pft.with("m", 0);
    assert_eq!(ok.blocking_from(128), None);
    let mut net = Network::new(&cfg, &ok, EngineKind::Model, 1).unwrap();
    let mut w = Freeze {
        id: 0,
        delivered: 0,
    };
    net.run(&mut w, 40_000).unwrap();
    assert!(net.run_until_idle(&mut w, 2_000_000).unwrap());
    assert_eq!(w.delivered, w.id);
    // Packet gating: the same blocking level, but the throttle decides only at a packet's
    // first flit and a started packet needs only credits, so no NIC stops halfway. The
    // block still throttles (heads held while Congested), the run completes and loses
    // nothing, the invariant checker on.
    let packet = pft.with("gating", 1);
    assert_eq!(packet.blocking_from(128), None);
    let mut net = Network::new(&cfg, &packet, EngineKind::Model, 1).unwrap();
    let mut w = Freeze {
        id: 0,
        delivered: 0,
    };
    net.run(&mut w, 40_000).unwrap();
    assert!(net.run_until_idle(&mut w, 2_000_000).unwrap());
    assert_eq!(w.delivered, w.id);
    let held: u64 = NodeId::all(6)
        .map(|n| net.nic_stats(n).throttled_cycles)
        .sum();
    assert!(
        held > 1_000,
        "packet gating should still hold heads: {held}"
    );
}

/// Runs a scenario file's first PFT configuration through the `pftsim run` code path.
fn run_scenario(text: &str) -> anyhow::Result<pft_sim::scenario::RunOutput> {
    let sc = pft_sim::scenario::Scenario::parse(text).map_err(|e| anyhow::anyhow!(e))?;
    sc.validate().map_err(|e| anyhow::anyhow!("{e}"))?;
    let spec = pft_sim::scenario::RunSpec {
        label: "t".into(),
        cc: sc
            .pft
            .first()
            .map(|p| p.config())
            .unwrap_or_default()
            .into(),
        congestors: true,
    };
    pft_sim::scenario::run::run(&sc, &spec, &pft_sim::scenario::Progress::quiet())
}

/// 300 overlapping one-cycle credit delays whose windows end one cycle apart: the delay in
/// force falls by one cycle per cycle, so about 300 credits reach one NIC in the same cycle,
/// more than the block's 8-bit `credit_return` takes. The NIC holds the excess for the
/// next cycles; with the checker on every cycle, credit conservation must hold throughout.
#[test]
fn credit_bursts_beyond_255_are_carried_not_lost() {
    let mut text = String::from(
        r#"
        [cycles]
        max = 3000
        [network]
        topology = { kind = "single_switch", nodes = 4 }
        check = true
        [workload]
        kind = "hotspot"
        hotspots = 1
        frac_c = 0.75
        frac_v = 0.25
        load = 1.0
        msg_bytes = 65536
        max_outstanding = 16
        [[pft]]
        name = "paper"
        "#,
    );
    for i in 0..300 {
        text += &format!(
            "[[network.faults]]\nkind = \"credit_delay\"\ncycles = 1\nscope = \"nics\"\nduration = {}\n",
            1001 + i
        );
    }
    let r = run_scenario(&text).unwrap_or_else(|e| panic!("{e:#}"));
    assert!(
        r.accepted_per_node_cycle() > 0.1,
        "{}",
        r.accepted_per_node_cycle()
    );
}

/// Waiting a long time for credit is not starvation: a NIC behind a nearly stopped
/// ejection port, with a throttle that always passes at least half of the flits, waits
/// hundreds of thousands of cycles for credits and is throttled now and then. The watchdog
/// counts only cycles in a row in which the block holds back a flit that has credit.
#[test]
fn long_credit_waits_are_not_starvation() {
    let r = run_scenario(
        r#"
        [cycles]
        max = 2_000_000
        [network]
        topology = { kind = "single_switch", nodes = 8 }
        buffer_flits = 1000
        voq = true
        eject_rate = 0.0001
        deadlock_cycles = 50000
        eject_buffer_flits = 64
        [workload]
        kind = "hotspot"
        hotspots = 1
        frac_c = 0.75
        frac_v = 0.25
        load = 0.5
        msg_bytes = 4096
        max_outstanding = 64
        [[pft]]
        name = "ri21"
        m = 21
        "#,
    )
    .unwrap_or_else(|e| panic!("{e:#}"));
    assert!(r.pft_stats.throttled_cycles > 0, "the throttle never acted");
}

/// Stalls: a rate that would round to zero is refused; stalls that chain into a stop of
/// the whole fabric end as a deadlock whose dump names the stall faults.
#[test]
fn stalls_are_refused_or_explained() {
    let e = FaultSpec::Eject {
        nics: None,
        rate: 1e-6,
        start: 0,
        duration: None,
        period: None,
    }
    .validate("faults[0]", 100_000)
    .unwrap_err();
    assert_eq!(e.field, "faults[0].rate");
    let mut faults = Vec::new();
    for i in 0..8u64 {
        faults.push(FaultSpec::Eject {
            nics: None,
            rate: 0.0,
            start: 500 + 999 * i,
            duration: Some(999),
            period: None,
        });
    }
    let cfg = NetConfig {
        topology: TopologyConfig::SingleSwitch { nodes: 4 },
        deadlock_cycles: 1000,
        faults,
        ..Default::default()
    };
    let mut net = Network::new(&cfg, &PftConfig::default(), EngineKind::Model, 1).unwrap();
    let mut w = BernoulliSource::new(4, Pattern::Incast { dst: NodeId(3) }, 1.0, 4096, 64, 1);
    let e = net.run(&mut w, 20_000).unwrap_err();
    let NetError::Deadlock { dump, .. } = &e else {
        panic!("{e:?}")
    };
    assert!(
        dump.contains("note: the run has stall faults (faults[0]"),
        "{dump}"
    );
}

#[test]
fn a_bad_rewrite_table_is_refused_by_key_when_the_network_is_built() {
    // The core carries a `pft_rewrite` table; PFT checks it, also outside a scenario.
    let mut regs = toml::Table::new();
    regs.insert("m".into(), toml::Value::Integer(64));
    let cfg = with(FaultSpec::RegRewrite {
        at: 10,
        nics: None,
        regs,
    });
    let e = match Network::new(&cfg, &PftConfig::default(), EngineKind::Model, 1) {
        Ok(_) => panic!("a rewrite to m = 64 was accepted"),
        Err(e) => e.to_string(),
    };
    assert!(e.contains("faults[0].pft.m"), "{e}");
    assert!(e.contains("0..=31"), "{e}");
    // Every bad key of the table at once, in a scenario.
    let text = "[network]\ntopology = { kind = \"single_switch\", nodes = 4 }\n\
        [[network.faults]]\nkind = \"pft_rewrite\"\nat = 10\n\
        pft = { m = 64, bogus = 1, pipelined = true }\n\
        [workload]\nkind = \"uniform\"\n[cycles]\nmax = 1000\n";
    let sc = pft_sim::scenario::Scenario::parse(text).unwrap();
    let e = sc.validate().unwrap_err().to_string();
    // the keys a rewrite takes, without the two it refuses
    assert!(
        e.contains("a rewrite takes the register keys: enable,")
            && !e.contains("keys: clock_ratio"),
        "{e}"
    );
    for key in ["pft.m", "pft.bogus", "pft.pipelined"] {
        assert!(e.contains(key), "`{key}` not named: {e}");
    }
}
