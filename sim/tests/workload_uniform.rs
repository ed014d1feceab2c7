//! Uniform random traffic: offered load, bursty variant, destinations, determinism, validation.
#![allow(clippy::needless_range_loop, clippy::useless_vec)]

mod workload_fabric;

use pft_sim::metrics::DeliveryStats;
use pft_sim::net::types::{Message, Workload};
use pft_sim::net::NodeId;
use pft_sim::workload::{
    tag, AnyWorkload, InjectionProcess, UniformConfig, UniformWorkload, WorkloadConfig,
};
use workload_fabric::{flits_by_src, run_uniform as run, Fabric};

#[test]
fn bernoulli_offers_the_configured_load_per_node() {
    // 64-byte messages, 16-byte flits: 4 flits each; load 0.3 -> p = 0.075 message/cycle.
    let (nodes, flit, cycles) = (16u32, 16u32, 100_000u64);
    let cfg = UniformConfig {
        load: 0.3,
        msg_bytes: 64,
        ..Default::default()
    };
    let f = run(&cfg, nodes, flit, 7, cycles);
    let p = 0.3 / 4.0;
    let mean_msgs = p * cycles as f64;
    let sd = (cycles as f64 * p * (1.0 - p)).sqrt();
    for (n, fl) in flits_by_src(&f.created, nodes, flit).iter().enumerate() {
        let msgs = *fl as f64 / 4.0;
        assert!(
            (msgs - mean_msgs).abs() < 5.0 * sd,
            "node {n}: {msgs} messages, expected {mean_msgs} +- 5 sd ({sd})"
        );
    }
    let total: u64 = flits_by_src(&f.created, nodes, flit).iter().sum();
    let rate = total as f64 / (nodes as f64 * cycles as f64);
    // 5 sd of the pooled mean: 4 * 5 * sqrt(N p (1-p)) / (N) flits/cycle with N = nodes*cycles
    let tol = 4.0 * 5.0 * (p * (1.0 - p) / (nodes as f64 * cycles as f64)).sqrt();
    assert!(
        (rate - 0.3).abs() < tol,
        "offered {rate} flits/cycle/node, want 0.3 +- {tol}"
    );

    // The same load comes out at the destinations (measured with the metrics).
    let mut st = DeliveryStats::new(nodes, flit, 1000, cycles - 100);
    f.deliveries.iter().for_each(|d| st.record(d));
    let rep = st.report(None);
    assert!(
        (rep.mean_accepted_flits_per_cycle - 0.3).abs() < 0.01,
        "accepted {}",
        rep.mean_accepted_flits_per_cycle
    );
    assert!(rep.jain_accepted.unwrap() > 0.99);
}

#[test]
fn destinations_are_uniform_over_the_other_nodes() {
    let nodes = 8u32;
    let cfg = UniformConfig {
        load: 1.0,
        msg_bytes: 16,
        ..Default::default()
    };
    let f = run(&cfg, nodes, 16, 3, 20_000);
    let mut pair = vec![vec![0u64; nodes as usize]; nodes as usize];
    for m in &f.created {
        assert_ne!(m.src, m.dst, "a node never sends to itself");
        assert_eq!(m.tag, tag::UNIFORM);
        pair[m.src.index()][m.dst.index()] += 1;
    }
    // load 1, 1 flit: every node sends every cycle; each other node gets 1/7 of it.
    let per_src = 20_000.0f64;
    let q = 1.0 / 7.0;
    let sd = (per_src * q * (1.0 - q)).sqrt();
    for s in 0..nodes as usize {
        let sent: u64 = pair[s].iter().sum();
        assert_eq!(
            sent, 20_000,
            "load 1.0 with 1-flit messages sends every cycle"
        );
        for d in 0..nodes as usize {
            if s == d {
                continue;
            }
            let c = pair[s][d] as f64;
            assert!((c - per_src * q).abs() < 5.0 * sd, "{s}->{d}: {c}");
        }
    }
}

fn window_counts(msgs: &[Message], nodes: u32, cycles: u64, win: u64) -> Vec<f64> {
    let nw = (cycles / win) as usize;
    let mut c = vec![0f64; nodes as usize * nw];
    for m in msgs {
        let w = (m.created / win) as usize;
        if w < nw {
            c[m.src.index() * nw + w] += 1.0;
        }
    }
    c
}

fn mean_var(x: &[f64]) -> (f64, f64) {
    let n = x.len() as f64;
    let m = x.iter().sum::<f64>() / n;
    (
        m,
        x.iter().map(|v| (v - m) * (v - m)).sum::<f64>() / (n - 1.0),
    )
}

#[test]
fn on_off_keeps_the_mean_and_raises_the_variance() {
    let (nodes, cycles) = (16u32, 200_000u64);
    let base = UniformConfig {
        load: 0.3,
        msg_bytes: 16,
        ..Default::default()
    };
    let bursty = UniformConfig {
        injection: InjectionProcess::OnOff {
            mean_burst_cycles: 20.0,
            peak_load: 1.0,
        },
        ..base.clone()
    };
    let fb = run(&base, nodes, 16, 11, cycles);
    let fo = run(&bursty, nodes, 16, 11, cycles);
    let rate = |f: &Fabric| f.created.len() as f64 / (nodes as f64 * cycles as f64);
    assert!((rate(&fb) - 0.3).abs() < 0.003, "bernoulli {}", rate(&fb));
    // on/off: correlation time ~ 1/(alpha+beta) = 14 cycles, so the pooled mean's sd is
    // about 0.0013; allow 0.01.
    assert!((rate(&fo) - 0.3).abs() < 0.01, "on/off {}", rate(&fo));

    let (mb, vb) = mean_var(&window_counts(&fb.created, nodes, cycles, 100));
    let (mo, vo) = mean_var(&window_counts(&fo.created, nodes, cycles, 100));
    assert!(
        (mb - 30.0).abs() < 0.5 && (mo - 30.0).abs() < 1.0,
        "{mb} {mo}"
    );
    assert!(
        vo > 3.0 * vb,
        "bursty variance {vo} should be well above Bernoulli's {vb}"
    );

    // With peak load 1 and 1-flit messages a node sends in every On cycle, so runs of
    // consecutive sending cycles are the On periods: mean length = mean_burst_cycles.
    let mut runs = Vec::new();
    for n in 0..nodes {
        let mut cyc: Vec<u64> = fo
            .created
            .iter()
            .filter(|m| m.src == NodeId(n))
            .map(|m| m.created)
            .collect();
        cyc.sort_unstable();
        let mut len = 1u64;
        for w in cyc.windows(2) {
            if w[1] == w[0] + 1 {
                len += 1;
            } else {
                runs.push(len as f64);
                len = 1;
            }
        }
    }
    let (mr, _) = mean_var(&runs);
    assert!((mr - 20.0).abs() < 1.0, "mean burst {mr} cycles, want 20");
}

#[test]
fn same_seed_same_messages_other_seed_other_messages() {
    let cfg = UniformConfig {
        load: 0.4,
        msg_bytes: 100,
        injection: InjectionProcess::OnOff {
            mean_burst_cycles: 8.0,
            peak_load: 0.9,
        },
        ..Default::default()
    };
    let a = run(&cfg, 12, 32, 42, 5000).created;
    let b = run(&cfg, 12, 32, 42, 5000).created;
    let c = run(&cfg, 12, 32, 43, 5000).created;
    assert!(!a.is_empty());
    assert_eq!(a, b);
    assert_ne!(a, c);
    // ids are unique and dense
    assert!(a.iter().enumerate().all(|(i, m)| m.id == i as u64));
}

#[test]
fn start_and_stop_bound_the_creation_window() {
    let cfg = UniformConfig {
        load: 0.5,
        msg_bytes: 16,
        start_cycle: 100,
        stop_cycle: Some(300),
        ..Default::default()
    };
    let f = run(&cfg, 4, 16, 1, 1000);
    assert!(!f.created.is_empty());
    assert!(f
        .created
        .iter()
        .all(|m| m.created >= 100 && m.created < 300));
}

#[test]
fn max_outstanding_caps_undelivered_messages() {
    let cfg = UniformConfig {
        load: 1.0,
        msg_bytes: 16,
        max_outstanding: Some(2),
        ..Default::default()
    };
    let mut w = UniformWorkload::new(&cfg, 6, 16, 5).unwrap();
    let mut f = Fabric::ideal(6, 50);
    f.run_until(&mut w, 49);
    // nothing delivered yet: exactly two per node (load 1 draws every cycle)
    assert_eq!(f.created.len(), 12);
    f.run_until(&mut w, 1000);
    // then about two per node per 50 cycles, never more than 2 in flight per node
    let mut outstanding = vec![0i64; 6];
    let mut ev: Vec<(u64, i64, NodeId)> = f.created.iter().map(|m| (m.created, 1, m.src)).collect();
    ev.extend(f.deliveries.iter().map(|d| (d.delivered, -1, d.msg.src)));
    ev.sort_by_key(|e| (e.0, e.1));
    for (_, d, s) in ev {
        outstanding[s.index()] += d;
        assert!(outstanding[s.index()] <= 2);
    }
    assert!(f.created.len() > 200);
}

#[test]
fn validation_names_the_field_and_range_without_panicking() {
    let bad = UniformConfig {
        load: 1.5,
        msg_bytes: 0,
        stop_cycle: Some(0),
        ..Default::default()
    };
    let e = bad.validate(8).unwrap_err();
    assert!(
        e.names("load") && e.names("msg_bytes") && e.names("stop_cycle"),
        "{e}"
    );
    assert!(e.to_string().contains("0 <= load <= 1"), "{e}");
    assert!(UniformWorkload::new(&bad, 8, 16, 0).is_err());

    let e = UniformConfig::default().validate(1).unwrap_err();
    assert!(e.names("nodes"), "{e}");
    let e = UniformWorkload::new(&UniformConfig::default(), 8, 0, 0).unwrap_err();
    assert!(e.names("flit_bytes"), "{e}");

    let onoff = |burst: f64, peak: f64, load: f64| UniformConfig {
        load,
        injection: InjectionProcess::OnOff {
            mean_burst_cycles: burst,
            peak_load: peak,
        },
        ..Default::default()
    };
    let e = onoff(10.0, 0.2, 0.3).validate(8).unwrap_err();
    assert!(e.names("load"), "peak below load: {e}");
    let e = onoff(0.5, 1.0, 0.3).validate(8).unwrap_err();
    assert!(e.names("injection.mean_burst_cycles"), "{e}");
    let e = onoff(10.0, f64::NAN, 0.3).validate(8).unwrap_err();
    assert!(e.names("injection.peak_load"), "{e}");
    assert!(onoff(10.0, 1.0, 0.9).validate(8).is_ok());
    // load 0.95 with bursts of 10 at peak 1 needs alpha > 1: refused
    assert!(onoff(10.0, 1.0, 0.95).validate(8).is_err());
}

#[test]
fn toml_config_defaults_and_unknown_fields() {
    let c: WorkloadConfig = toml::from_str(
        "kind = \"uniform\"\nload = 0.25\n[injection]\ntype = \"on_off\"\nmean_burst_cycles = 30.0\npeak_load = 0.8\n",
    )
    .unwrap();
    let WorkloadConfig::Uniform(u) = &c else {
        panic!("not uniform: {c:?}")
    };
    assert_eq!(u.load, 0.25);
    assert_eq!(u.msg_bytes, UniformConfig::default().msg_bytes);
    assert!(c.validate(4).is_ok());
    let mut w = c.build(4, 16, 1).unwrap();
    assert!(matches!(w, AnyWorkload::Uniform(_)));
    let mut out = Vec::new();
    for t in 0..1000 {
        w.tick(t, &mut out);
    }
    assert!(!out.is_empty());
    assert!(!w.finished());
    assert!(toml::from_str::<WorkloadConfig>("kind = \"uniform\"\nlaod = 0.2\n").is_err());
    assert!(toml::from_str::<WorkloadConfig>("kind = \"nope\"\n").is_err());
}

#[test]
fn patterns_send_to_their_destinations_and_silence_fixed_points() {
    use pft_sim::workload::DestPattern;
    // 16 NICs: 4 address bits, a 4-ary 2-cube
    let nodes = 16u32;
    let bits = |s: u32| (0..4).map(|i| s >> i & 1).collect::<Vec<_>>();
    let expect = |p: DestPattern, s: u32| -> Option<u32> {
        let d = match p {
            DestPattern::Transpose => (s >> 2) | ((s & 3) << 2),
            DestPattern::Complement => 15 - s,
            DestPattern::BitReversal => bits(s).iter().fold(0, |a, b| a << 1 | b),
            DestPattern::Shuffle => ((s << 1) | (s >> 3)) & 15,
            // each base-4 digit + 1 (ceil(4/2) - 1)
            DestPattern::Tornado { .. } => ((s % 4 + 1) % 4) + 4 * ((s / 4 + 1) % 4),
            DestPattern::Shift { by } => (s + by) % nodes,
            _ => unreachable!(),
        };
        (d != s).then_some(d)
    };
    for p in [
        DestPattern::Transpose,
        DestPattern::Complement,
        DestPattern::BitReversal,
        DestPattern::Shuffle,
        DestPattern::Tornado {
            k: Some(4),
            n: Some(2),
        },
        DestPattern::Shift { by: 5 },
    ] {
        let cfg = UniformConfig {
            load: 0.5,
            msg_bytes: 64,
            pattern: p,
            ..Default::default()
        };
        let f = run(&cfg, nodes, 64, 3, 2_000);
        let mut sent = vec![0u32; nodes as usize];
        for m in &f.created {
            assert_eq!(Some(m.dst.0), expect(p, m.src.0), "{p:?} from {}", m.src);
            sent[m.src.index()] += 1;
        }
        for s in 0..nodes {
            // about 1,000 messages from every NIC that is not a fixed point
            match expect(p, s) {
                Some(_) => assert!(
                    sent[s as usize] > 800,
                    "{p:?}: NIC {s} sent {}",
                    sent[s as usize]
                ),
                None => assert_eq!(sent[s as usize], 0, "{p:?}: fixed point {s} sends"),
            }
        }
    }
    // a hot spot: about `percent` % of the messages (of the NICs other than the hot spot) go
    // to it, the rest uniformly elsewhere
    let cfg = UniformConfig {
        load: 0.5,
        msg_bytes: 64,
        pattern: DestPattern::HotSpot {
            node: 3,
            percent: 40,
        },
        ..Default::default()
    };
    let f = run(&cfg, nodes, 64, 3, 20_000);
    let others: Vec<&Message> = f.created.iter().filter(|m| m.src.0 != 3).collect();
    let hot = others.iter().filter(|m| m.dst.0 == 3).count() as f64 / others.len() as f64;
    // 40 % plus the uniform share's 1/15 of the other 60 %
    let want = 0.4 + 0.6 / 15.0;
    assert!((hot - want).abs() < 0.01, "hot share {hot}, want {want}");
    assert!(f.created.iter().all(|m| m.src != m.dst));
}

#[test]
fn permutation_and_group_shift_as_workload_patterns() {
    use pft_sim::workload::DestPattern;
    let nodes = 16u32;
    // a permutation: every NIC always to one destination, the destinations all distinct,
    // the same table as net-bench's (`Pattern::permutation`), fixed points silent
    let table = pft_sim::net::Pattern::permutation(9, nodes);
    let cfg = UniformConfig {
        load: 0.5,
        msg_bytes: 64,
        pattern: DestPattern::Permutation { seed: 9 },
        ..Default::default()
    };
    let f = run(&cfg, nodes, 64, 3, 2_000);
    let mut sent = vec![0u32; nodes as usize];
    for m in &f.created {
        assert_eq!(m.dst.0, table[m.src.index()], "from {}", m.src);
        sent[m.src.index()] += 1;
    }
    for s in 0..nodes {
        if table[s as usize] == s {
            assert_eq!(sent[s as usize], 0, "fixed point {s} sends");
        } else {
            assert!(sent[s as usize] > 800, "NIC {s} sent {}", sent[s as usize]);
        }
    }
    // another seed, another table
    assert_ne!(table, pft_sim::net::Pattern::permutation(10, nodes));
    // group shift in groups of 4: every message into the next group, all 4 NICs of it hit
    let cfg = UniformConfig {
        pattern: DestPattern::GroupShift { group: Some(4) },
        ..cfg
    };
    let f = run(&cfg, nodes, 64, 3, 2_000);
    let mut hit = vec![0u32; nodes as usize];
    for m in &f.created {
        assert_eq!(m.dst.0 / 4, (m.src.0 / 4 + 1) % 4, "{} -> {}", m.src, m.dst);
        hit[m.dst.index()] += 1;
    }
    assert!(hit.iter().all(|&h| h > 400), "{hit:?}");
    // in a scenario file
    let c: UniformConfig =
        toml::from_str("pattern = { kind = \"group_shift\", group = 4 }\nload = 0.5\n").unwrap();
    assert_eq!(c.pattern, DestPattern::GroupShift { group: Some(4) });
    let c: UniformConfig = toml::from_str("pattern = { kind = \"permutation\" }\n").unwrap();
    assert_eq!(c.pattern, DestPattern::Permutation { seed: 1 });
    // groups that do not divide the NICs are refused
    let bad = UniformConfig {
        pattern: DestPattern::GroupShift { group: Some(5) },
        ..Default::default()
    };
    let e = bad.validate(nodes).unwrap_err().to_string();
    assert!(
        e.contains("`pattern.group` = 5: must divide the 16 NICs into at least 2 groups: a divisor of 16 in 1..=8"),
        "{e}"
    );
}

#[test]
fn group_shift_takes_a_dragonflys_groups_by_default() {
    use pft_sim::scenario::Scenario;
    use pft_sim::workload::{DestPattern, WorkloadConfig};
    // BookSim's bad_dragon: the next group of a * p NICs, as net-bench infers it; in the
    // pattern and in every phase's
    let gs = "{ kind = \"group_shift\" }";
    let text = |topology: &str, phased: bool| {
        let work = if phased {
            format!("[[workload.phases]]\ncycles = 100\ninterval_cycles = 50\npattern = {gs}\n")
        } else {
            format!("load = 0.3\npattern = {gs}\n")
        };
        format!("[network]\ntopology = {topology}\nvcs = 2\n[workload]\nkind = \"uniform\"\n{work}")
    };
    let df = "{ kind = \"dragonfly\", p = 2, a = 4, h = 2 }";
    for phased in [false, true] {
        let sc = Scenario::parse(&text(df, phased)).unwrap();
        sc.validate().unwrap();
        let WorkloadConfig::Uniform(u) = &sc.workload else {
            panic!("uniform")
        };
        let p = if phased {
            &u.phases[0].pattern
        } else {
            &u.pattern
        };
        assert_eq!(*p, DestPattern::GroupShift { group: Some(8) });
    }
    // elsewhere a group must be given, and the error names it
    for (phased, key) in [
        (false, "workload.pattern.group"),
        (true, "workload.phases[0].pattern.group"),
    ] {
        let sc = Scenario::parse(&text("{ kind = \"torus\", k = 4, n = 2 }", phased)).unwrap();
        let e = sc.validate().unwrap_err().to_string();
        assert!(e.contains(key) && e.contains("required here"), "{e}");
    }
}

#[test]
fn patterns_that_do_not_fit_the_network_are_refused_naming_the_field() {
    use pft_sim::workload::DestPattern;
    for (p, nodes, want) in [
        (DestPattern::Transpose, 8, "transpose needs 4^j NICs"),
        (DestPattern::BitReversal, 12, "power of two"),
        (
            DestPattern::Tornado {
                k: Some(3),
                n: Some(2),
            },
            16,
            "needs 3^2 NICs",
        ),
        (
            DestPattern::Tornado {
                k: Some(4),
                n: None,
            },
            16,
            "give both k and n",
        ),
        (
            DestPattern::HotSpot {
                node: 16,
                percent: 10,
            },
            16,
            "`pattern.node` = 16: must be in 0..=15",
        ),
        (
            DestPattern::HotSpot {
                node: 1,
                percent: 101,
            },
            16,
            "`pattern.percent` = 101: must be in 0..=100",
        ),
    ] {
        let cfg = UniformConfig {
            pattern: p,
            ..Default::default()
        };
        let e = UniformWorkload::new(&cfg, nodes, 64, 1).expect_err("refused");
        let m = e.to_string();
        assert!(m.contains("pattern") && m.contains(want), "{p:?}: {m}");
    }
    // the scenario form
    let w: WorkloadConfig =
        toml::from_str("kind = \"uniform\"\npattern = { kind = \"tornado\", k = 8, n = 2 }")
            .unwrap();
    let WorkloadConfig::Uniform(c) = w else {
        panic!("uniform")
    };
    assert_eq!(
        c.pattern,
        DestPattern::Tornado {
            k: Some(8),
            n: Some(2)
        }
    );
}
