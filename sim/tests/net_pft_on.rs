//! PFT on chosen NICs only (`Network::with_cc_on`): the NICs left out never throttle and are
//! never Congested, the others do; the run is lossless (invariant checker on), deterministic
//! and independent of the evaluation order.

use pft_sim::cc::CcConfig;
use pft_sim::net::NodeId;
use pft_sim::net::{BernoulliSource, Delivery, EvalOrder, NetConfig, NetError, NicStats, Pattern};
use pft_sim::{EngineKind, Network, PftConfig};

mod mix;
use mix::Mix;

const NODES: u32 = 20;

fn cfg() -> NetConfig {
    mix::small_fat_tree()
}

/// A hard FT-FI throttle: Congested above 30 credits, one flit per 1 + c/2 cycles.
fn pft() -> PftConfig {
    PftConfig::default().with_all(&[
        ("det_mode", 0),
        ("thr_mode", 0),
        ("th_enter", 30),
        ("th_escape", 20),
        ("m", 0),
        ("n", 1),
        ("gating", 1),
    ])
}

/// PFT on the even NICs only.
fn on() -> Vec<bool> {
    (0..NODES).map(|i| i % 2 == 0).collect()
}

fn run(order: EvalOrder, on: Option<&[bool]>) -> (Vec<Delivery>, Vec<NicStats>) {
    let mut net =
        Network::with_cc_on(&cfg(), &CcConfig::Pft(pft()), EngineKind::Model, 5, on).unwrap();
    net.set_eval_order(order);
    let n = net.nodes();
    assert_eq!(n, NODES);
    let mut w = Mix(
        BernoulliSource::new(n, Pattern::Uniform, 0.3, 700, 64, 1),
        BernoulliSource::new(n, Pattern::Incast { dst: NodeId(3) }, 0.2, 2000, 64, 2),
        Vec::new(),
    );
    net.run(&mut w, 6000).unwrap();
    let stats = NodeId::all(n).map(|i| net.nic_stats(i)).collect();
    (w.2, stats)
}

#[test]
fn pft_only_where_it_is_on() {
    let flags = on();
    let (d, stats) = run(EvalOrder::Forward, Some(&flags));
    assert!(d.len() > 500, "only {} deliveries", d.len());
    for (i, s) in stats.iter().enumerate() {
        if !flags[i] {
            assert_eq!(
                (s.throttled_cycles, s.congested_cycles),
                (0, 0),
                "NIC {i} has PFT off"
            );
        }
    }
    let on_throttled: u64 = stats
        .iter()
        .zip(&flags)
        .filter(|(_, &f)| f)
        .map(|(s, _)| s.throttled_cycles)
        .sum();
    assert!(on_throttled > 1000, "the NICs with PFT on must throttle");
    // deterministic and independent of the evaluation order
    for order in [
        EvalOrder::Forward,
        EvalOrder::Reverse,
        EvalOrder::Shuffled(3),
    ] {
        let (d2, s2) = run(order, Some(&flags));
        assert_eq!(d, d2, "{order:?}: deliveries differ");
        assert_eq!(stats, s2, "{order:?}: counters differ");
    }
    // every flag on is the same network as `with_cc`
    let all = vec![true; NODES as usize];
    assert_eq!(
        run(EvalOrder::Forward, Some(&all)),
        run(EvalOrder::Forward, None)
    );
    assert_ne!(run(EvalOrder::Forward, None).1, stats);
}

#[test]
fn a_flag_list_of_the_wrong_length_is_refused() {
    let e = Network::with_cc_on(
        &cfg(),
        &CcConfig::Pft(pft()),
        EngineKind::Model,
        5,
        Some(&[true; 3]),
    )
    .err()
    .expect("refused");
    let NetError::Config(f) = e else {
        panic!("{e:?}")
    };
    assert_eq!(f.field, "pft_on");
    assert!(f.allowed.contains("one flag per NIC (20)"), "{f}");
}
