//! k-ary n-trees with `hosts` below k^n (issue 42): seed 004's bidirectional MIN of 512
//! hosts on 640 switches (`kary_ntree`, k = 4, n = 5, hosts = 512) and smaller ones.
//! - the sizes: NICs, switches per level, ports (8 below the top, 4 at it), every port
//!   wired both ways;
//! - every pair's path, walked port by port from the switches' wiring and a routing rule:
//!   it reaches its NIC, turns around at the nearest common ancestor (2L + 1 switches), goes
//!   up then down; the channel-dependency graph of all paths is acyclic (no deadlock with
//!   one lane), and all-to-all traffic loads every channel of a level and direction
//!   equally (destination-mod-k);
//! - mutants of the rule are caught: turning around at the top, the merged top switch
//!   ignoring which part a packet came through, a down-up bounce, and down-up turns that
//!   close a cycle of channel dependencies (caught by the acyclicity check itself);
//! - `hosts` out of its set is refused naming the key and the allowed values;
//! - lossless under load with the invariant checker, for none, mvcm, renato and ibcc.

use pft_sim::cc::mvcm::MvcmConfig;
use pft_sim::cc::renato::RenatoConfig;
use pft_sim::cc::IbccConfig;
use pft_sim::net::{BernoulliSource, NetConfig, NodeId, Pattern, Peer, Topology, TopologyConfig};
use pft_sim::{CcConfig, EngineKind, Network};
use std::collections::HashMap;

mod cdg;
use cdg::{acyclic, add_path};

fn tree(k: u32, n: u32, hosts: Option<u32>) -> TopologyConfig {
    TopologyConfig::KaryNtree { k, n, hosts }
}

fn digit(x: u32, k: u32, i: u32) -> u32 {
    (x / k.pow(i)) % k
}

/// The nearest common ancestor's level: the highest digit above 0 where s and d differ.
fn nca(s: u32, d: u32, k: u32, n: u32) -> u32 {
    (1..n)
        .rev()
        .find(|&i| digit(s, k, i) != digit(d, k, i))
        .unwrap_or(0)
}

/// A routing rule: (switch, input port, destination) -> output port.
type Rule<'a> = &'a dyn Fn(u32, u32, u32) -> u32;

/// Walks every pair's path under `rule` and checks it (see the module doc). A cycle in the
/// channel-dependency graph is reported before a path's shape, so that a mutant is seen to
/// fail the deadlock proof itself, not only the minimality check.
fn check(t: &Topology, k: u32, n: u32, rule: Rule) -> Result<(), String> {
    let sw = t.switches();
    let mut cdg: HashMap<(u32, u32), Vec<(u32, u32)>> = HashMap::new();
    let mut load: HashMap<(u32, u32), u64> = HashMap::new();
    let mut shape: Option<String> = None;
    for s in 0..t.nodes() {
        for d in 0..t.nodes() {
            if s == d {
                continue;
            }
            let (mut at, mut port) = t.attach(NodeId(s));
            let mut chans = Vec::new();
            let mut levels = Vec::new();
            loop {
                levels.push(sw[at as usize].level as u32);
                if levels.len() > 4 * n as usize {
                    return Err(format!("{s} -> {d}: no arrival: levels {levels:?}"));
                }
                let out = rule(at, port, d);
                match sw[at as usize].ports.get(out as usize) {
                    Some(Peer::Nic(x)) if x.0 == d => break,
                    Some(Peer::Switch { switch, port: p }) => {
                        chans.push((at, out));
                        (at, port) = (*switch, *p);
                    }
                    other => return Err(format!("{s} -> {d}: port {out} of {at} is {other:?}")),
                }
            }
            let l = nca(s, d, k, n);
            if shape.is_none() {
                if levels.len() != 2 * l as usize + 1 {
                    shape = Some(format!(
                        "{s} -> {d}: not minimal: levels {levels:?}, the nearest common ancestor is at {l}"
                    ));
                } else {
                    let top = levels.iter().position(|&x| x == l).unwrap();
                    if !(levels[..=top].windows(2).all(|w| w[0] + 1 == w[1])
                        && levels[top..].windows(2).all(|w| w[0] == w[1] + 1))
                    {
                        shape = Some(format!("{s} -> {d}: not up then down: {levels:?}"));
                    }
                }
            }
            for c in &chans {
                *load.entry(*c).or_default() += 1;
            }
            add_path(&mut cdg, &chans);
        }
    }
    if !acyclic(&cdg) {
        return Err("the channel-dependency graph has a cycle".into());
    }
    if let Some(e) = shape {
        return Err(e);
    }
    // every switch-to-switch channel of a level and direction carries the same pairs
    let mut by: HashMap<(u8, bool), Vec<u64>> = HashMap::new();
    for (s, l) in sw.iter().enumerate() {
        for (p, peer) in l.ports.iter().enumerate() {
            if let Peer::Switch { .. } = peer {
                let c = load.get(&(s as u32, p as u32)).copied().unwrap_or(0);
                by.entry((l.level, p as u32 >= k)).or_default().push(c);
            }
        }
    }
    for ((level, up), v) in by {
        let (lo, hi) = (v.iter().min().unwrap(), v.iter().max().unwrap());
        if lo != hi {
            return Err(format!(
                "unequal all-to-all load on the {} channels of level {level}: {lo} to {hi} pairs",
                if up { "up" } else { "down" }
            ));
        }
    }
    Ok(())
}

#[test]
fn pruned_trees_have_the_seeds_sizes_and_wiring() {
    for (k, n, hosts, switches) in [
        (4, 5, 512, 640),
        (4, 5, 1024, 1280),
        (4, 3, 32, 24),
        (4, 2, 8, 4),
        (8, 2, 16, 4),
        (8, 2, 32, 8),
        (2, 4, 16, 32),
    ] {
        let cfg = tree(k, n, Some(hosts));
        cfg.validate().unwrap();
        assert_eq!(cfg.nodes(), hosts);
        let t = Topology::build(&cfg);
        let sw = t.switches();
        assert_eq!(
            (t.nodes(), sw.len() as u32),
            (hosts, switches),
            "{k} {n} {hosts}"
        );
        for (i, s) in sw.iter().enumerate() {
            let top = s.level as u32 + 1 == n;
            assert_eq!(s.radix, if top { k } else { 2 * k }, "{}", s.name);
            assert_eq!(s.ports.len() as u32, s.radix);
            for (p, peer) in s.ports.iter().enumerate() {
                match *peer {
                    Peer::Switch { switch, port } => assert_eq!(
                        sw[switch as usize].ports[port as usize],
                        Peer::Switch {
                            switch: i as u32,
                            port: p as u32
                        },
                        "{} port {p}: the link comes back",
                        s.name
                    ),
                    Peer::Nic(x) => assert_eq!(t.attach(x), (i as u32, p as u32)),
                    Peer::Unused => panic!("{} port {p} unused", s.name),
                }
            }
        }
    }
    // the full tree is today's: hosts = k^n is the same topology as no `hosts`
    let a = Topology::build(&tree(4, 3, None));
    let b = Topology::build(&tree(4, 3, Some(64)));
    assert_eq!(a.description(), b.description());
    assert_eq!(a.switches(), b.switches());
}

#[test]
fn routes_turn_around_at_the_nearest_common_ancestor_without_cycles_and_mutants_fail() {
    for (k, n, hosts) in [(4, 5, 512), (4, 3, 32), (4, 3, 64), (8, 2, 16), (2, 4, 16)] {
        let t = Topology::build(&tree(k, n, Some(hosts)));
        let sw = t.switches();
        let real = |s: u32, _p: u32, d: u32| t.route(s, NodeId(d));
        check(&t, k, n, &real).unwrap_or_else(|e| panic!("{}: {e}", t.description()));
        let level = |s: u32| sw[s as usize].level as u32;
        // mutant: climb to the top whatever the destination (turn around too high)
        let high = |s: u32, p: u32, d: u32| {
            if p < k && level(s) + 1 < n {
                k + digit(d, k, level(s))
            } else {
                t.route(s, NodeId(d))
            }
        };
        let e = check(&t, k, n, &high).expect_err("turning at the top");
        assert!(e.contains("not minimal"), "{e}");
        // mutant: at level 1, a packet from below that must climb bounces down to a sibling
        let bounce = |s: u32, p: u32, d: u32| {
            let r = t.route(s, NodeId(d));
            if level(s) == 1 && p < k && r >= k && n > 2 {
                (p + 1) % k
            } else {
                r
            }
        };
        if n > 2 {
            assert!(check(&t, k, n, &bounce).is_err(), "{}", t.description());
        }
        // mutant: at level 1, climbing packets bounce down to a sibling and back up, even
        // destinations from port 0 through port 1, odd ones from port 1 through port 0:
        // every path still arrives, but down-up turns close a cycle of channel
        // dependencies, which the deadlock proof must see
        let cross = |s: u32, p: u32, d: u32| {
            let r = t.route(s, NodeId(d));
            match (level(s), p, d % 2) {
                (1, 0, 0) | (1, 1, 1) if r >= k && n > 2 => 1 - p,
                _ => r,
            }
        };
        if n > 2 {
            let e = check(&t, k, n, &cross).expect_err("down-up turns");
            assert!(e.contains("cycle"), "{}: {e}", t.description());
        }
        // mutant: a merged top switch routes as the full tree's (part 0 only)
        if hosts < k.pow(n) {
            let part0 = |s: u32, _p: u32, d: u32| {
                if level(s) + 1 == n {
                    digit(d, k, n - 1)
                } else {
                    t.route(s, NodeId(d))
                }
            };
            let e = check(&t, k, n, &part0).expect_err("one part of a merged switch");
            assert!(e.contains("unequal all-to-all load"), "{e}");
        }
    }
}

#[test]
fn hosts_out_of_its_set_is_refused_naming_the_key_and_the_values() {
    for (k, n, hosts, values) in [
        (4, 5, 256, "512, 1024"),
        (4, 5, 768, "512, 1024"),
        (4, 5, 2048, "512, 1024"),
        (8, 2, 24, "16, 32, 64"),
        (4, 1, 2, "4"),
    ] {
        let cfg = tree(k, n, Some(hosts));
        let m = cfg.validate().expect_err("out of the set").to_string();
        assert!(
            m.contains("topology.hosts") && m.contains(values),
            "{k} {n} {hosts}: {m}"
        );
        let net = NetConfig {
            topology: cfg,
            ..NetConfig::default()
        };
        assert!(Network::with_cc(&net, &CcConfig::none(), EngineKind::Model, 1).is_err());
    }
    let t: NetConfig =
        toml::from_str("topology = { kind = \"kary_ntree\", k = 4, n = 5, hosts = 512 }").unwrap();
    assert_eq!(t.topology.nodes(), 512);
    assert_eq!(Topology::build(&t.topology).switches().len(), 640);
}

#[test]
fn the_seeds_tree_is_lossless_under_mvcm_renato_and_ibcc_with_the_checker() {
    let net = NetConfig {
        topology: tree(4, 3, Some(32)),
        buffer_flits: 128,
        out_buffer_flits: Some(128),
        eject_buffer_flits: 128,
        mtu_bytes: 280,
        flit_bytes: 8,
        speedup: Some(2),
        ack_bytes: Some(22),
        check: true,
        deadlock_cycles: 3_000,
        ..NetConfig::default()
    };
    for cc in [
        CcConfig::none(),
        CcConfig::Mvcm(MvcmConfig::default()),
        CcConfig::Renato(RenatoConfig::default()),
        CcConfig::Ibcc(IbccConfig::default()),
    ] {
        // uniform near a link's half, then an incast onto NIC 0 (a congestion tree)
        for (pattern, load) in [
            (Pattern::Uniform, 0.5),
            (Pattern::Incast { dst: NodeId(0) }, 0.2),
        ] {
            let mut sim = Network::with_cc(&net, &cc, EngineKind::Model, 5).unwrap();
            let mut w = BernoulliSource::new(32, pattern, load, 280, 8, 9).until(10_000);
            sim.run(&mut w, 10_000)
                .unwrap_or_else(|e| panic!("{cc:?} {pattern:?}: {e}"));
            assert!(
                sim.run_until_idle(&mut w, 2_000_000).unwrap(),
                "{cc:?} {pattern:?}: drains"
            );
            assert_eq!(w.created, w.delivered, "{cc:?} {pattern:?}: lossless");
            assert!(w.delivered > 300, "{cc:?}: {} delivered", w.delivered);
        }
    }
}
