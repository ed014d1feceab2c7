//! The clock ratio (`PftConfig::with_clock_ratio`, docs/network.md "Clock ratio"): the PFT
//! block runs floor((t+1)R) - floor(tR) clock cycles in flit slot t, so its counters count
//! block cycles. Ratio 1 is the network as before; at any ratio the run is lossless
//! (invariant checker on), deterministic and independent of the evaluation order, and a
//! fixed interval of f block cycles lets R/f flits per flit slot through.
//!
//! The pipelined build (`PftConfig::with_pipelined`, docs/network.md "Pipelined build"),
//! another way the NIC is built rather than a register, gets the same checks, at ratio 1
//! and at a fractional ratio; it changes a run only through the level's latency: with a
//! level that depends on c a congested run differs, with a constant level it is the same.

use pft_sim::cc::CcConfig;
use pft_sim::net::NodeId;
use pft_sim::net::{BernoulliSource, Delivery, EvalOrder, NetConfig, NicStats, Pattern};
use pft_sim::{EngineKind, Network, PftConfig};

mod mix;
use mix::Mix;

fn cfg() -> NetConfig {
    mix::small_fat_tree()
}

/// AT-RI with short windows, packet gating: throttles often in this network.
fn at_ri() -> PftConfig {
    PftConfig::default().with_all(&[
        ("th_enter", 30),
        ("th_escape", 50),
        ("at_win_e", 16),
        ("at_cnt_e", 8),
        ("at_win_s", 16),
        ("at_cnt_s", 8),
        ("m", 24),
        ("gating", 1),
    ])
}

fn run(pft: &PftConfig, order: EvalOrder, engine: EngineKind) -> (Vec<Delivery>, Vec<NicStats>) {
    let mut net = Network::with_cc(&cfg(), &CcConfig::Pft(*pft), engine, 5).unwrap();
    net.set_eval_order(order);
    let n = net.nodes();
    let mut w = Mix(
        BernoulliSource::new(n, Pattern::Uniform, 0.3, 700, 64, 1),
        BernoulliSource::new(n, Pattern::Incast { dst: NodeId(3) }, 0.2, 2000, 64, 2),
        Vec::new(),
    );
    net.run(&mut w, 5000).unwrap();
    let stats = NodeId::all(n).map(|i| net.nic_stats(i)).collect();
    (w.2, stats)
}

#[test]
fn ratio_one_is_the_flit_rate_block() {
    let p = at_ri();
    assert_eq!(p.with_clock_ratio(1.0), p);
    assert_eq!(p.clock_ratio(), 1.0);
    let a = run(&p, EvalOrder::Forward, EngineKind::Model);
    let b = run(
        &p.with_clock_ratio(3.58),
        EvalOrder::Forward,
        EngineKind::Model,
    );
    assert_ne!(a.1, b.1, "a faster block clock must change the run");
}

/// `p` throttles in this network, and every run of it (invariant checker on: lossless)
/// gives the same deliveries and counters whatever the evaluation order.
fn lossless_deterministic_and_order_independent(p: &PftConfig) {
    let (d, stats) = run(p, EvalOrder::Forward, EngineKind::Model);
    assert!(d.len() > 300, "only {} deliveries", d.len());
    let throttled: u64 = stats.iter().map(|s| s.throttled_cycles).sum();
    let congested: u64 = stats.iter().map(|s| s.congested_cycles).sum();
    assert!(
        throttled > 100 && congested > 1000,
        "{throttled} {congested}"
    );
    for order in [
        EvalOrder::Forward,
        EvalOrder::Reverse,
        EvalOrder::Shuffled(7),
    ] {
        let (d2, s2) = run(p, order, EngineKind::Model);
        assert_eq!(d, d2, "{order:?}: deliveries differ");
        assert_eq!(stats, s2, "{order:?}: counters differ");
    }
}

#[test]
fn a_fractional_ratio_is_lossless_deterministic_and_order_independent() {
    lossless_deterministic_and_order_independent(&at_ri().with_clock_ratio(3.58));
}

#[test]
fn the_pipelined_build_is_lossless_deterministic_and_order_independent() {
    for ratio in [1.0, 3.58] {
        let p = at_ri().with_clock_ratio(ratio).with_pipelined(true);
        assert!(p.pipelined());
        lossless_deterministic_and_order_independent(&p);
    }
}

#[test]
fn the_pipelined_build_changes_a_congested_run_through_the_level_latency_only() {
    // f(c) = c << 24 against RI: the throttle of the pipelined build sees the c of three
    // cycles earlier, so the same seed gives another run (at the NICs that throttle).
    let p = at_ri();
    let (d0, s0) = run(&p, EvalOrder::Forward, EngineKind::Model);
    let (d1, s1) = run(
        &p.with_pipelined(true),
        EvalOrder::Forward,
        EngineKind::Model,
    );
    let differ: Vec<usize> = (0..s0.len()).filter(|&i| s0[i] != s1[i]).collect();
    assert!(
        !differ.is_empty(),
        "pipelined = true left every NIC's counters unchanged"
    );
    let sent = |s: &[NicStats]| s.iter().map(|s| s.flits_injected).collect::<Vec<_>>();
    let thr = |s: &[NicStats]| s.iter().map(|s| s.throttled_cycles).collect::<Vec<_>>();
    assert!(
        sent(&s0) != sent(&s1) || thr(&s0) != thr(&s1),
        "NICs {differ:?} differ, but not in flits sent or throttled cycles"
    );
    assert_ne!(d0, d1, "the deliveries' timing is the same");
    // A level that does not depend on c (m = 0, n = 16: (c << 0) >> 16 = 0 below 65536,
    // so f = k) is the same three cycles later: the same run, FI and RI.
    for (thr_mode, k) in [(0, 10), (1, 1 << 15)] {
        let q = PftConfig::default().with_all(&[
            ("det_mode", 0),
            ("thr_mode", thr_mode),
            ("th_enter", 0),
            ("th_escape", 0),
            ("m", 0),
            ("n", 16),
            ("k", k),
            ("r_width", 16),
        ]);
        let a = run(&q, EvalOrder::Forward, EngineKind::Model);
        let b = run(
            &q.with_pipelined(true),
            EvalOrder::Forward,
            EngineKind::Model,
        );
        let throttled: u64 = a.1.iter().map(|s| s.throttled_cycles).sum();
        assert!(throttled > 1000, "thr_mode {thr_mode}: {throttled}");
        assert_eq!(a, b, "thr_mode {thr_mode}: a constant level, another run");
    }
}

#[test]
fn the_rtl_engine_agrees_at_a_fractional_ratio() {
    let p = at_ri().with_clock_ratio(2.5);
    assert_eq!(
        run(&p, EvalOrder::Forward, EngineKind::Model),
        run(&p, EvalOrder::Forward, EngineKind::Rtl)
    );
}

#[test]
fn the_rtl_engine_agrees_on_the_pipelined_build_at_a_fractional_ratio() {
    let p = at_ri().with_clock_ratio(2.5).with_pipelined(true);
    assert_eq!(
        run(&p, EvalOrder::Forward, EngineKind::Model),
        run(&p, EvalOrder::Forward, EngineKind::Rtl)
    );
}

/// Flits injected per NIC per flit slot under FT-FI with a constant level f = 10 block
/// cycles (Congested from the first flit on: TH_ENTER = 0, TH_ESCAPE = 0 never leaves).
fn fi_rate(ratio: f64) -> f64 {
    let pft = PftConfig::default()
        .with_all(&[
            ("det_mode", 0),
            ("thr_mode", 0),
            ("th_enter", 0),
            ("th_escape", 0),
            ("m", 0),
            ("n", 16),
            ("k", 10),
        ])
        .with_clock_ratio(ratio);
    let mut net = Network::with_cc(&cfg(), &CcConfig::Pft(pft), EngineKind::Model, 5).unwrap();
    let n = net.nodes();
    // offered 0.9 flit/slot per NIC: every NIC always has a flit waiting
    let mut w = Mix(
        BernoulliSource::new(n, Pattern::Uniform, 0.9, 640, 64, 1),
        BernoulliSource::new(n, Pattern::Uniform, 0.0, 640, 64, 2),
        Vec::new(),
    );
    let cycles = 20_000;
    net.run(&mut w, cycles).unwrap();
    let flits: u64 = NodeId::all(n)
        .map(|i| net.nic_stats(i).flits_injected)
        .sum();
    flits as f64 / (n as f64 * cycles as f64)
}

#[test]
fn the_fixed_interval_counts_block_cycles() {
    let base = fi_rate(1.0);
    assert!((0.08..=0.11).contains(&base), "ratio 1: {base}");
    for ratio in [2.0, 3.58, 4.0] {
        let r = fi_rate(ratio) / base;
        assert!(
            (r - ratio).abs() < 0.05 * ratio,
            "clock ratio {ratio}: rate ratio {r} (base {base})"
        );
    }
}
