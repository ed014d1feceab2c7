//! Uniform traffic in phases: periodic creation in a repeating list of phases (seed 003's
//! bursty load): intervals, repetition, determinism, `max_outstanding`, validation, TOML.
#![allow(clippy::needless_range_loop, clippy::useless_vec)]

mod workload_fabric;

use pft_sim::net::types::Message;
use pft_sim::workload::{
    tag, DestPattern, InjectionProcess, Phase, UniformConfig, UniformWorkload, WorkloadConfig,
};
use workload_fabric::{flits_by_src, run_uniform as run, Fabric};

fn phase(cycles: u64, interval_cycles: u32, pattern: DestPattern) -> Phase {
    Phase {
        cycles,
        interval_cycles,
        pattern,
    }
}

/// 8 nodes, 64-byte messages: {100 cycles, one every 10, uniform}, then {50 cycles, one
/// every 25, complement}, from cycle 20, twice (stop at 20 + 2 * 150).
fn two_phases() -> UniformConfig {
    UniformConfig {
        msg_bytes: 64,
        start_cycle: 20,
        stop_cycle: Some(320),
        phases: vec![
            phase(100, 10, DestPattern::Uniform),
            phase(50, 25, DestPattern::Complement),
        ],
        ..Default::default()
    }
}

/// Creation cycles of `src`'s messages in `[from, to)`, in order.
fn created_in(msgs: &[Message], src: u32, from: u64, to: u64) -> Vec<u64> {
    msgs.iter()
        .filter(|m| m.src.0 == src && (from..to).contains(&m.created))
        .map(|m| m.created)
        .collect()
}

#[test]
fn phases_create_one_message_per_interval_per_node_and_phase() {
    let nodes = 8u32;
    let f = run(&two_phases(), nodes, 16, 9, 400);
    // (from, to, interval, messages per node) of each phase occurrence
    let occurrences = [
        (20, 120, 10, 10),
        (120, 170, 25, 2),
        (170, 270, 10, 10),
        (270, 320, 25, 2),
    ];
    assert_eq!(f.created.len(), 8 * (10 + 2 + 10 + 2));
    assert!(f.created.iter().all(|m| (20..320).contains(&m.created)));
    for s in 0..nodes {
        for &(from, to, interval, count) in &occurrences {
            let t = created_in(&f.created, s, from, to);
            assert_eq!(t.len(), count, "node {s} in [{from}, {to}): {t:?}");
            // periodic: one offset in 0..interval, then every interval
            assert!(t[0] - from < interval, "node {s}: first at {}", t[0]);
            assert!(t.windows(2).all(|w| w[1] - w[0] == interval), "{t:?}");
        }
    }
    for m in &f.created {
        assert_eq!(m.tag, tag::UNIFORM);
        assert_eq!(m.bytes, 64);
        let in_complement = (120..170).contains(&m.created) || (270..320).contains(&m.created);
        if in_complement {
            assert_eq!(m.dst.0, 7 - m.src.0, "complement in phase 2: {m:?}");
        } else {
            assert_ne!(m.dst, m.src);
        }
    }
    // the uniform phases do not follow the complement
    assert!(f
        .created
        .iter()
        .any(|m| m.created < 120 && m.dst.0 != 7 - m.src.0));
    assert!(f.created.iter().enumerate().all(|(i, m)| m.id == i as u64));
}

#[test]
fn phases_repeat_until_the_run_ends_and_keep_their_mean_load() {
    let cfg = UniformConfig {
        stop_cycle: None,
        ..two_phases()
    };
    // 64-byte messages of 4 flits: 100 cycles at 4/10, 50 at 4/25
    let want = (100.0 * 0.4 + 50.0 * 0.16) / 150.0;
    assert!(
        (cfg.mean_load(16) - want).abs() < 1e-12,
        "{}",
        cfg.mean_load(16)
    );
    assert_eq!(UniformConfig::default().mean_load(16), 0.5);
    // ten whole sequences: exactly the mean load
    let (nodes, cycles) = (8u32, 20 + 10 * 150);
    let f = run(&cfg, nodes, 16, 2, cycles);
    let flits: u64 = flits_by_src(&f.created, nodes, 16).iter().sum();
    let rate = flits as f64 / (nodes as f64 * (cycles - 20) as f64);
    assert!((rate - want).abs() < 1e-12, "offered {rate}, want {want}");
    // the seed paper's high phase: 16-flit packets every 15 cycles, 1.07 flits/node/cycle
    let paper = UniformConfig {
        msg_bytes: 16 * 64,
        phases: vec![
            phase(3000, 1500, DestPattern::Uniform),
            phase(1500, 15, DestPattern::Transpose),
        ],
        ..Default::default()
    };
    assert!(paper.validate(256).is_ok());
    let high = UniformConfig {
        phases: paper.phases[1..].to_vec(),
        ..paper.clone()
    };
    assert!((high.mean_load(64) - 16.0 / 15.0).abs() < 1e-12);
}

#[test]
fn phase_intervals_longer_than_the_phase_send_at_most_once() {
    // 40-cycle phases with one message every 100 cycles: a node sends in an occurrence when
    // its offset falls inside it (40 % of the time), never twice
    let cfg = UniformConfig {
        msg_bytes: 16,
        phases: vec![phase(40, 100, DestPattern::Uniform)],
        ..Default::default()
    };
    let (nodes, cycles) = (16u32, 40 * 500);
    let f = run(&cfg, nodes, 16, 4, cycles);
    for s in 0..nodes {
        for k in 0..500 {
            assert!(created_in(&f.created, s, 40 * k, 40 * (k + 1)).len() <= 1);
        }
    }
    // mean 0.4 per node and occurrence: 3200 of 8000, sd 44
    let n = f.created.len() as f64;
    assert!((n - 3200.0).abs() < 5.0 * 44.0, "{n} messages");
}

#[test]
fn phases_are_deterministic_and_seeded() {
    let cfg = two_phases();
    let a = run(&cfg, 8, 16, 42, 400).created;
    let b = run(&cfg, 8, 16, 42, 400).created;
    let c = run(&cfg, 8, 16, 43, 400).created;
    assert_eq!(a, b);
    // another seed: other offsets (the first creation cycle of some node differs)
    let first = |m: &[Message]| {
        (0..8)
            .map(|s| created_in(m, s, 20, 120)[0])
            .collect::<Vec<_>>()
    };
    assert_ne!(first(&a), first(&c));
    // the offsets do not depend on deliveries: a slow fabric gives the same messages
    let mut w = UniformWorkload::new(&cfg, 8, 16, 42).unwrap();
    let mut slow = Fabric::limited(8, 40, 16);
    slow.run_until(&mut w, 400);
    assert_eq!(slow.created, a);
}

#[test]
fn phases_drop_creations_at_max_outstanding() {
    // one message every 10 cycles, delivered 25 cycles after creation, at most one
    // outstanding: a node creates at its offset + 0, 30, 60, ... (the creations due at
    // + 10 and + 20 find the cap and are dropped, not deferred): 34 of 100
    let cfg = UniformConfig {
        msg_bytes: 16,
        max_outstanding: Some(1),
        stop_cycle: Some(1000),
        phases: vec![phase(1000, 10, DestPattern::Uniform)],
        ..Default::default()
    };
    let mut w = UniformWorkload::new(&cfg, 6, 16, 5).unwrap();
    let mut f = Fabric::ideal(6, 25);
    f.run_until(&mut w, 1100);
    for s in 0..6 {
        let t = created_in(&f.created, s, 0, 1000);
        assert_eq!(t.len(), 34, "node {s}: {t:?}");
        assert!(
            t[0] < 10 && t.windows(2).all(|w| w[1] - w[0] == 30),
            "{t:?}"
        );
    }
    assert_eq!(w.messages_created(), 6 * 34);
}

#[test]
fn phase_validation_names_every_field_without_panicking() {
    let bad = UniformConfig {
        load: 7.0, // refused with phases, not range-checked
        injection: InjectionProcess::Budget,
        pattern: DestPattern::Shuffle,
        phases: vec![
            phase(0, 15, DestPattern::Uniform),
            phase(100, 0, DestPattern::Transpose),
            phase(0, 0, DestPattern::Shift { by: 3 }),
        ],
        ..Default::default()
    };
    let e = bad.validate(8).unwrap_err();
    let fields: Vec<&str> = e.0.iter().map(|f| f.field.as_str()).collect();
    assert_eq!(
        fields,
        [
            "load",
            "injection",
            "pattern",
            "phases[0].cycles",
            "phases[1].interval_cycles",
            "phases[1].pattern",
            "phases[2].cycles",
            "phases[2].interval_cycles",
        ],
        "{e}"
    );
    let m = e.to_string();
    assert!(
        m.contains("`injection` = budget: cannot be combined with `workload.phases`"),
        "{m}"
    );
    assert!(
        m.contains("`pattern` = shuffle: cannot be combined with `workload.phases`"),
        "{m}"
    );
    assert!(
        m.contains("`phases[0].cycles` = 0: allowed phases[0].cycles >= 1"),
        "{m}"
    );
    assert!(
        m.contains("`phases[1].pattern` = transpose: transpose needs 4^j NICs"),
        "{m}"
    );
    assert!(UniformWorkload::new(&bad, 8, 16, 0).is_err());
    // `load` is not read with phases: any value but the default is refused (not its
    // range: NaN too); the other keys are still checked
    let ok = UniformConfig {
        phases: vec![phase(10, 3, DestPattern::Complement)],
        ..Default::default()
    };
    assert!(ok.validate(8).is_ok());
    let e = UniformConfig {
        load: f64::NAN,
        ..ok.clone()
    }
    .validate(8)
    .unwrap_err();
    assert_eq!(e.0[0].field, "load", "{e}");
    let e = UniformConfig {
        msg_bytes: 0,
        ..ok.clone()
    }
    .validate(8)
    .unwrap_err();
    assert!(e.names("msg_bytes"), "{e}");
    // the same refusals when built through the scenario-level enum
    let w: Result<WorkloadConfig, _> = toml::from_str(
        "kind = \"uniform\"\ninjection = { type = \"budget\" }\n[[phases]]\ncycles = 0\ninterval_cycles = 15\n",
    );
    let e = w.unwrap().build(8, 16, 1).unwrap_err();
    assert!(e.names("injection") && e.names("phases[0].cycles"), "{e}");
}

#[test]
fn phases_in_toml_defaults_unknown_keys_and_echo() {
    let c: WorkloadConfig = toml::from_str(
        "kind = \"uniform\"\nmsg_bytes = 1024\n[[phases]]\ncycles = 3000\ninterval_cycles = 1500\n[[phases]]\ncycles = 1500\ninterval_cycles = 15\npattern = { kind = \"transpose\" }\n",
    )
    .unwrap();
    let WorkloadConfig::Uniform(u) = &c else {
        panic!("not uniform: {c:?}")
    };
    assert_eq!(
        u.phases,
        [
            phase(3000, 1500, DestPattern::Uniform),
            phase(1500, 15, DestPattern::Transpose)
        ]
    );
    assert!(c.validate(16).is_ok());
    // echoed and read back unchanged
    let back: WorkloadConfig = toml::from_str(&toml::to_string(&c).unwrap()).unwrap();
    assert_eq!(back, c);
    // without phases the echo has no `phases` key (configs echoed before are unchanged)
    let plain = serde_json::to_string(&UniformConfig::default()).unwrap();
    assert!(!plain.contains("phases"), "{plain}");
    // a phase's keys: unknown ones refused, `cycles` and `interval_cycles` required
    for bad in [
        "[[phases]]\ncycles = 10\ninterval_cycles = 1\ninterval = 3\n",
        "[[phases]]\ninterval_cycles = 1\n",
        "[[phases]]\ncycles = 10\n",
        "[[phases]]\ncycles = -1\ninterval_cycles = 1\n",
        "[[phases]]\ncycles = 10\ninterval_cycles = 5000000000\n",
    ] {
        let text = format!("kind = \"uniform\"\n{bad}");
        assert!(toml::from_str::<WorkloadConfig>(&text).is_err(), "{bad}");
    }
}

#[test]
fn a_scenario_with_phases_is_checked_with_the_workload_prefix() {
    use pft_sim::scenario::Scenario;
    let text = |phases: &str| {
        format!("[network]\ntopology = {{ kind = \"single_switch\", nodes = 4 }}\n[workload]\nkind = \"uniform\"\n{phases}")
    };
    let ok = Scenario::parse(&text(
        "[[workload.phases]]\ncycles = 100\ninterval_cycles = 15\n[[workload.phases]]\ncycles = 50\ninterval_cycles = 5\npattern = { kind = \"complement\" }\n",
    ))
    .unwrap();
    assert!(ok.validate().is_ok());
    let bad = Scenario::parse(&text(
        "pattern = { kind = \"complement\" }\n[[workload.phases]]\ncycles = 0\ninterval_cycles = 0\npattern = { kind = \"tornado\", k = 3, n = 2 }\n",
    ))
    .unwrap();
    let e = bad.validate().unwrap_err();
    for f in [
        "workload.pattern",
        "workload.phases[0].cycles",
        "workload.phases[0].interval_cycles",
        "workload.phases[0].pattern",
    ] {
        assert!(e.names(f), "{f}: {e}");
    }
}
