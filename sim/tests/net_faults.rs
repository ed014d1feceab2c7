//! The invariant checker catches deliberate faults and says what broke, where and when.

use pft_sim::net::NodeId;
use pft_sim::net::{BernoulliSource, Fault, NetConfig, NetError, Pattern, TopologyConfig};
use pft_sim::{EngineKind, Network, PftConfig};

mod mix;

fn run_with(fault: Fault, check: bool) -> NetError {
    let cfg = mix::faulted_switch(fault, check);
    let mut net = Network::new(&cfg, &PftConfig::default(), EngineKind::Model, 1).unwrap();
    let mut w = BernoulliSource::new(6, Pattern::Uniform, 0.5, 4096, 64, 2);
    let e = net.run(&mut w, 20_000).unwrap_err();
    println!("{e}");
    e
}

#[test]
fn dropped_credit_breaks_conservation() {
    let e = run_with(Fault::DropCredit { cycle: 300 }, true);
    assert!(
        matches!(
            e,
            NetError::CreditNotConserved {
                cycle: 300,
                diff: 1,
                ..
            }
        ),
        "{e:?}"
    );
    let s = e.to_string();
    assert!(s.contains("cycle 300: credit not conserved on link"), "{s}");
    assert!(s.contains("-> switch 0 input"), "{s}");
}

#[test]
fn duplicated_flit_is_caught() {
    // With the checker: the copy is a flit without a credit, seen at the end of the cycle.
    let e = run_with(Fault::DuplicateFlit { cycle: 300 }, true);
    assert!(
        matches!(
            e,
            NetError::CreditNotConserved {
                cycle: 300,
                diff: -1,
                ..
            }
        ),
        "{e:?}"
    );
    // Without: the receiver sees the same flit twice when it arrives.
    let e = run_with(Fault::DuplicateFlit { cycle: 300 }, false);
    assert!(matches!(e, NetError::FlitDuplicated { .. }), "{e:?}");
    assert!(e.to_string().contains("flit duplicated at NIC"), "{e}");
}

#[test]
fn misrouted_packet_is_caught() {
    let e = run_with(Fault::Misroute { cycle: 300 }, true);
    assert!(matches!(e, NetError::Misrouted { .. }), "{e:?}");
    assert!(e.to_string().contains("flit misrouted: packet"), "{e}");
}

#[test]
fn frozen_switch_is_a_deadlock_with_a_dump() {
    let e = run_with(
        Fault::FreezeSwitch {
            switch: 0,
            cycle: 1000,
        },
        false,
    );
    let NetError::Deadlock {
        cycle,
        stalled_cycles,
        ref dump,
        ..
    } = e
    else {
        panic!("{e:?}")
    };
    assert_eq!(stalled_cycles, 500);
    assert!(cycle >= 1500);
    assert!(dump.contains("switch 0 input"), "{dump}");
    assert!(dump.contains("credits used"), "{dump}");
    assert!(dump.contains("NIC 0: used credits"), "{dump}");
}

#[test]
fn bad_messages_are_refused() {
    struct One(pft_sim::net::Message);
    impl pft_sim::net::Workload for One {
        fn tick(&mut self, now: u64, out: &mut Vec<pft_sim::net::Message>) {
            if now == 0 {
                out.push(self.0);
            }
        }
        fn delivered(&mut self, _: u64, _: &pft_sim::net::Delivery) {}
    }
    let cfg = NetConfig::default();
    for (src, dst, bytes, what) in [
        (0, 0, 10, "loopback"),
        (0, 500, 10, "nodes are 0..120"),
        (1, 2, 0, "0 bytes"),
    ] {
        let mut net = Network::new(&cfg, &PftConfig::default(), EngineKind::Model, 1).unwrap();
        let m = pft_sim::net::Message {
            id: 7,
            src: NodeId(src),
            dst: NodeId(dst),
            bytes,
            tag: 0,
            created: 0,
        };
        let e = net.step(&mut One(m)).unwrap_err().to_string();
        assert!(e.contains("message 7 refused") && e.contains(what), "{e}");
    }
}

/// A 4-ary 2-cube of lane routers (two lanes) with the checker on, 16-flit packets from
/// 64-flit NIC buffers at `load`, `cycles` cycles with `fault` (or none): the run's error.
fn lane_torus_run(
    fault: Option<Fault>,
    vc_buf_flits: Option<u32>,
    load: f64,
    cycles: u64,
) -> Option<NetError> {
    let cfg = NetConfig {
        topology: TopologyConfig::Torus { k: 4, n: 2 },
        vcs: Some(2),
        vc_buf_flits,
        buffer_flits: 64,
        eject_buffer_flits: 64,
        mtu_bytes: 16 * 64,
        check: true,
        deadlock_cycles: 500,
        fault,
        ..Default::default()
    };
    let mut net = Network::new(&cfg, &PftConfig::default(), EngineKind::Model, 1).unwrap();
    let mut w = BernoulliSource::new(16, Pattern::Uniform, load, 16 * 64, 64, 2);
    net.run(&mut w, cycles).err()
}

/// A lane-router mask left wrong by test hook `fault` (from cycle 300, 8-flit lanes at
/// `load`) stops the checked run in or after cycle 300 with an error containing `says`.
fn stale_mask_is_caught(fault: Fault, load: f64, says: &str) {
    let e =
        lane_torus_run(Some(fault), Some(8), load, 20_000).expect("the stale bit stops the run");
    assert!(
        matches!(e, NetError::Invariant { cycle: 300.., .. }),
        "{e:?}"
    );
    let s = e.to_string();
    assert!(s.contains(says), "{s}");
}

#[test]
fn a_stale_no_credit_bit_is_caught() {
    // lane router at a load that fills lanes: one credit back to a lane with none left
    // does not clear its no-credit bit, so the lane would wait for ever
    stale_mask_is_caught(
        Fault::StaleNoCredit { cycle: 300 },
        0.5,
        "credits in use, but the lane router's no-credit bit says 1",
    );
    // the same run without the fault is clean
    if let Some(e) = lane_torus_run(None, Some(8), 0.5, 5_000) {
        panic!("without the fault: {e}");
    }
}

#[test]
fn a_stale_has_flit_bit_is_caught() {
    // lane router: an input lane's last flit leaves but its has-flit bit stays set, so the
    // switch allocator would take the lane for one that can move a flit
    stale_mask_is_caught(
        Fault::StaleHasFlit { cycle: 300 },
        0.3,
        "0 flits in its buffer, but the lane router's has-flit bit says 1",
    );
}

#[test]
fn a_stale_stalled_bit_is_caught() {
    // lane router: a grant marks its input lane stalled though the output lane has
    // credits, so the switch allocator would pass the lane over
    stale_mask_is_caught(
        Fault::StaleStalled { cycle: 300 },
        0.5,
        "(held from it: true) and its stalled bit 1, against that lane's no-credit bit 0",
    );
}

#[test]
fn a_lane_with_two_owners_is_caught() {
    // lane router: one packet recorded on two output lanes
    let fault = Some(Fault::DoubleGrant { cycle: 300 });
    let e = lane_torus_run(fault, None, 0.3, 20_000).expect("the double grant stops the run");
    assert!(
        matches!(e, NetError::Invariant { cycle: 300.., .. }),
        "{e:?}"
    );
    let s = e.to_string();
    assert!(
        s.contains("holds two output lanes")
            || s.contains("which is not a live packet of this switch routed to it"),
        "{s}"
    );
    // the same run without the fault is clean
    if let Some(e) = lane_torus_run(None, None, 0.3, 5_000) {
        panic!("without the fault: {e}");
    }
}
