//! Disha deadlock recovery (`routing = "disha"`, issue 41 part 2): fully adaptive lanes
//! that do deadlock, and the token's recovery path that resolves every presumed deadlock.
//! - with the time-out out of reach the same network deadlocks (the lanes really can);
//! - with it, the network drains every packet at full load, under the invariant checker
//!   (which watches the recovery path: one packet on it, the token's holder, and moving),
//!   losslessly, deterministically and independently of the evaluation order;
//! - a mutant that puts a second packet on the recovery path is caught;
//! - the keys are refused with their name and range where they do not apply.

#![allow(clippy::result_large_err)]

use pft_sim::net::{
    Allocator, BernoulliSource, Delivery, EvalOrder, Fault, NetConfig, NetError, Pattern, Routing,
    TopologyConfig,
};
use pft_sim::{CcConfig, EngineKind, Network};

mod lane_config;
use lane_config::lanes;

/// A small torus with short lanes and packets longer than a lane (wormhole), so fully
/// adaptive routing deadlocks quickly at full load.
fn cfg(k: u32, vcs: u32) -> NetConfig {
    NetConfig {
        head_latency_cycles: Some(1),
        deadlock_cycles: 20_000,
        ..lanes(
            TopologyConfig::Torus { k, n: 2 },
            vcs,
            4,
            Some(Routing::Disha),
        )
    }
}

/// Load `load` for `cycles`, then drain: the deliveries, and the packets that took the
/// recovery path.
fn run(
    cfg: &NetConfig,
    order: EvalOrder,
    pattern: Pattern,
    load: f64,
    cycles: u64,
) -> Result<(Vec<Delivery>, u64), NetError> {
    let mut net = Network::with_cc(cfg, &CcConfig::none(), EngineKind::Model, 5)?;
    net.set_eval_order(order);
    let nodes = net.nodes();
    let mut w = BernoulliSource::new(nodes, pattern, load, 16 * 64, 64, 9)
        .logged()
        .until(cycles);
    net.run(&mut w, cycles)?;
    assert!(net.run_until_idle(&mut w, 400_000)?, "drains");
    assert_eq!(w.created, w.delivered, "lossless");
    assert!(w.delivered > nodes as u64 * 5, "{} delivered", w.delivered);
    Ok((w.log.unwrap(), net.disha_recoveries()))
}

#[test]
fn without_recovery_fully_adaptive_lanes_deadlock() {
    // the time-out never expires within the watchdog's limit: no packet takes the token
    let c = NetConfig {
        disha_timeout_cycles: Some(60_000),
        ..cfg(8, 1)
    };
    match run(&c, EvalOrder::Forward, Pattern::Uniform, 0.5, 4_000) {
        Err(e @ NetError::Deadlock { .. }) | Err(e @ NetError::LanesStalled { .. }) => {
            let text = e.to_string();
            assert!(text.contains("cycle"), "{text}");
        }
        Err(e) => panic!("another error: {e}"),
        Ok((_, r)) => panic!("no deadlock ({r} recoveries)"),
    }
}

#[test]
fn disha_resolves_every_presumed_deadlock_losslessly_and_deterministically() {
    for (vcs, alloc, pattern, load) in [
        (1, None, Pattern::Uniform, 0.5),
        (2, None, Pattern::Tornado { k: 8, n: 2 }, 1.0),
        (1, Some(Allocator::Central), Pattern::Complement, 0.5),
    ] {
        let c = NetConfig {
            allocator: alloc,
            ..cfg(8, vcs)
        };
        let (log, r) = run(&c, EvalOrder::Forward, pattern, load, 600)
            .unwrap_or_else(|e| panic!("vcs={vcs} {pattern:?}: {e}"));
        // the load did presume deadlocks, and the recovery path resolved them
        assert!(r > 20, "vcs={vcs} {pattern:?}: {r} recoveries");
        for order in [EvalOrder::Reverse, EvalOrder::Shuffled(3)] {
            let (again, r2) = run(&c, order, pattern, load, 600).unwrap();
            assert_eq!(again, log, "vcs={vcs} {pattern:?} {order:?}");
            assert_eq!(r2, r);
        }
    }
}

#[test]
fn acks_are_not_taken_for_the_recovery_path() {
    // per-packet ACKs carry their own flag bit; the recovery path's must differ from it
    let c = NetConfig {
        ack_bytes: Some(64),
        ..cfg(8, 1)
    };
    let (_, r) = run(&c, EvalOrder::Forward, Pattern::Uniform, 0.5, 600)
        .unwrap_or_else(|e| panic!("with ACKs: {e}"));
    assert!(r > 20, "{r} recoveries");
}

#[test]
fn a_second_packet_on_the_recovery_path_is_caught() {
    let c = NetConfig {
        fault: Some(Fault::SecondToken { cycle: 300 }),
        ..cfg(8, 1)
    };
    match run(&c, EvalOrder::Forward, Pattern::Uniform, 0.5, 600) {
        Err(NetError::Invariant { detail, .. }) => {
            assert!(detail.contains("two packets on the path"), "{detail}")
        }
        Err(e) => panic!("another error: {e}"),
        Ok(_) => panic!("the mutant was not caught"),
    }
}

fn refused(c: NetConfig) -> String {
    match Network::with_cc(&c, &CcConfig::none(), EngineKind::Model, 1) {
        Err(NetError::Config(e)) => e.to_string(),
        Err(e) => panic!("{e}"),
        Ok(_) => panic!("accepted"),
    }
}

#[test]
fn the_disha_keys_are_refused_with_name_and_range_where_they_do_not_apply() {
    let ok = cfg(4, 1);
    for (c, key, text) in [
        (
            NetConfig {
                disha_timeout_cycles: Some(0),
                ..ok.clone()
            },
            "disha_timeout_cycles",
            "1..=65535",
        ),
        (
            NetConfig {
                disha_timeout_cycles: Some(8),
                routing: Some(Routing::Duato),
                vcs: Some(3),
                ..ok.clone()
            },
            "disha_timeout_cycles",
            "routing `disha`",
        ),
        (
            NetConfig {
                vcs: None,
                vc_buf_flits: None,
                head_latency_cycles: None,
                ..ok.clone()
            },
            "vcs",
            "`disha` needs the lane router",
        ),
        (
            NetConfig {
                topology: TopologyConfig::FatTree {
                    radix: 4,
                    leaves: 2,
                },
                ..ok.clone()
            },
            "routing",
            "routes tori and meshes",
        ),
    ] {
        let e = refused(c);
        assert!(e.contains(key) && e.contains(text), "{key}, {text}: {e}");
    }
}
