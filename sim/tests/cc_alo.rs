//! ALO in the network: the lane state reaches it, it holds packets only when the router's
//! useful channels are busy, and a held network still delivers.

use pft_sim::cc::alo::AloConfig;
use pft_sim::cc::CcConfig;
use pft_sim::net::{BernoulliSource, NetConfig, Pattern, Routing, TopologyConfig};
use pft_sim::{EngineKind, Network};

/// An 8-ary 2-cube: uniform traffic saturates it below a load of 1 (the bisection
/// carries at most 8/k = 1 flit per node per cycle, less with wormhole blocking).
fn torus() -> NetConfig {
    NetConfig {
        topology: TopologyConfig::Torus { k: 8, n: 2 },
        vcs: Some(3),
        vc_buf_flits: Some(8),
        routing: Some(Routing::Duato),
        flit_bytes: 16,
        mtu_bytes: 256,
        buffer_flits: 16,
        eject_buffer_flits: 16,
        check: true,
        deadlock_cycles: 5_000,
        ..NetConfig::default()
    }
}

fn refusals(load: f64) -> (u64, u64) {
    let cc = CcConfig::Alo(AloConfig::default());
    let mut net = Network::with_cc(&torus(), &cc, EngineKind::Model, 1).unwrap();
    let mut w = BernoulliSource::new(64, Pattern::Uniform, load, 256, 16, 9);
    net.run(&mut w, 5_000).unwrap();
    let r = net.scheme_totals()[0];
    assert_eq!(r.0, "refusals");
    (r.1, net.total_stats().messages_delivered)
}

#[test]
fn alo_holds_under_load_and_not_when_the_lanes_are_idle() {
    let (idle, got) = refusals(0.02);
    assert!(got > 0);
    let (busy, delivered) = refusals(0.9);
    assert!(busy > 200, "a saturated torus refused only {busy} times");
    assert!(idle * 20 < busy, "light load {idle} refusals, heavy {busy}");
    eprintln!("refusals: light load {idle}, heavy {busy}");
    assert!(
        delivered > 1_000,
        "the held network still delivers: {delivered}"
    );
}
