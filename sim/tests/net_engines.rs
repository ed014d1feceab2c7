//! The PFT engine choice (reference model, rust-hdl RTL, or the exported Verilog under
//! Verilator) does not change a run: same scenario and seed, identical PFT outputs in every
//! cycle at every NIC, identical state (for Verilator: what the CSR bus shows, everything
//! but the FI gap and the RI generator) and identical deliveries. The Verilator tests need
//! `synth/out/pft_injector.v` (`make verilog`; `make test` writes it first) and Verilator.
//! The same holds for the pipelined build (`PftConfig::with_pipelined`): its model, its
//! rust-hdl RTL and its Verilog (`synth/out/pft_injector_pipelined.v`, `make
//! verilog-pipelined`, which `make test` also writes first) agree cycle by cycle, on runs in
//! which the pipelined build does not run as the default one.

use pft_hdl::model::Outputs;
use pft_sim::net::{BernoulliSource, NetConfig, NicStats, Pattern, TopologyConfig};
use pft_sim::net::{Delivery, NodeId};
use pft_sim::{DetMode, EngineKind, Network, PftConfig, ThrMode};

fn incast_cfg() -> NetConfig {
    NetConfig {
        topology: TopologyConfig::SingleSwitch { nodes: 8 },
        mtu_bytes: 1024,
        buffer_flits: 256,
        eject_buffer_flits: 64,
        link_latency_cycles: 4,
        credit_latency_cycles: 3,
        switch_latency_cycles: 1,
        eject_rate: 0.5,
        check: true,
        ..Default::default()
    }
}

/// The traffic of every comparison: an incast into NIC 0 for two thirds of the run, logged.
fn incast(nodes: u32, cycles: u64) -> BernoulliSource {
    BernoulliSource::new(nodes, Pattern::Incast { dst: NodeId(0) }, 0.4, 1500, 64, 5)
        .until(cycles * 2 / 3)
        .logged()
}

type ModelRun = (Vec<Outputs>, Option<Vec<Delivery>>, Vec<NicStats>);

/// The comparisons' run on the model alone: every NIC's PFT outputs in every cycle, the
/// deliveries and every NIC's counters at the end.
fn model_run(cfg: &NetConfig, pft: &PftConfig, cycles: u64) -> ModelRun {
    let mut net = Network::new(cfg, pft, EngineKind::Model, 42).unwrap();
    let nodes = net.nodes();
    let mut w = incast(nodes, cycles);
    let mut outs = Vec::new();
    for _ in 0..cycles {
        net.step(&mut w).unwrap();
        outs.extend((0..nodes).map(|i| net.pft_outputs(NodeId(i))));
    }
    let stats = (0..nodes).map(|i| net.nic_stats(NodeId(i))).collect();
    (outs, w.log, stats)
}

/// `compare_with(other, ..)` on the pipelined build of `pft`, after checking that the
/// pipelined build's run differs from the default one's (so that an engine running the
/// default build instead would fail).
fn compare_pipelined(other: EngineKind, cfg: NetConfig, pft: PftConfig, cycles: u64) {
    let pipelined = pft.with_pipelined(true);
    let (a, b) = (
        model_run(&cfg, &pft, cycles),
        model_run(&cfg, &pipelined, cycles),
    );
    // NIC-cycles in which the two builds' outputs differ (thousands in these runs)
    let differ = a.0.iter().zip(&b.0).filter(|(x, y)| x != y).count();
    assert!(
        differ > 100 && a.1 != b.1,
        "this run hardly tells the pipelined build from the default one: {differ} NIC-cycles of other outputs, deliveries {}",
        if a.1 == b.1 { "the same" } else { "differ" }
    );
    compare_with(other, cfg, pipelined, cycles)
}

/// FT-FI with a level that grows with c (f = c/8 + 1).
fn ft_fi() -> PftConfig {
    PftConfig::default().with_all(&[
        ("det_mode", DetMode::Ft as u64),
        ("thr_mode", ThrMode::Fi as u64),
        ("th_enter", 40),
        ("th_escape", 30),
        ("m", 0),
        ("n", 3),
        ("k", 1),
    ])
}

/// AT-RI with short windows and a steep level (P(send) = 1 - c/256).
fn at_ri() -> PftConfig {
    PftConfig::default().with_all(&[
        ("th_enter", 40),
        ("th_escape", 60),
        ("at_win_e", 16),
        ("at_cnt_e", 8),
        ("at_win_s", 16),
        ("at_cnt_s", 8),
        ("m", 24),
    ])
}

/// The incast on a two-level fat tree with VOQs.
fn voq_tree() -> NetConfig {
    NetConfig {
        topology: TopologyConfig::FatTree {
            radix: 8,
            leaves: 3,
        },
        voq: true,
        ..incast_cfg()
    }
}

/// AT-RI with packet gating, a 26-bit r and clock ratio 2.5 (m = 20).
fn gated_at_ri() -> PftConfig {
    at_ri()
        .with_all(&[("m", 20), ("gating", 1), ("r_width", 26)])
        .with_clock_ratio(2.5)
}

fn compare(cfg: NetConfig, pft: PftConfig, cycles: u64) {
    compare_with(EngineKind::Rtl, cfg, pft, cycles)
}

/// The model against engine `other`, cycle by cycle.
fn compare_with(other: EngineKind, cfg: NetConfig, pft: PftConfig, cycles: u64) {
    let nodes = Network::new(&cfg, &pft, EngineKind::Model, 42)
        .unwrap()
        .nodes();
    let mut nets: Vec<Network> = [EngineKind::Model, other]
        .iter()
        .map(|&e| Network::new(&cfg, &pft, e, 42).unwrap_or_else(|err| panic!("{e:?}: {err}")))
        .collect();
    // the state the engines can show: Verilator's CSR bus has no FI gap and no RI generator
    let shown = |mut p: pft_hdl::stepper::Probe| {
        if other == EngineKind::Verilator {
            p.gap = 0;
            p.r = 0;
        }
        p
    };
    let mut w: Vec<BernoulliSource> = (0..2).map(|_| incast(nodes, cycles)).collect();
    let mut throttled = 0;
    let mut congested = 0;
    for t in 0..cycles {
        for (n, w) in nets.iter_mut().zip(w.iter_mut()) {
            n.step(w).unwrap();
        }
        for i in 0..nodes {
            let (a, b) = (
                nets[0].pft_outputs(NodeId(i)),
                nets[1].pft_outputs(NodeId(i)),
            );
            assert_eq!(
                a, b,
                "cycle {t}, NIC {i}: PFT outputs differ (model vs {other:?})"
            );
            assert_eq!(
                shown(nets[0].pft_probe(NodeId(i)).unwrap()),
                nets[1].pft_probe(NodeId(i)).unwrap(),
                "cycle {t}, NIC {i}: PFT state differs (model vs {other:?})"
            );
            throttled += a.throttled as u32;
            congested += a.congested as u32;
        }
    }
    assert_eq!(w[0].log, w[1].log, "deliveries differ");
    for i in 0..nodes {
        assert_eq!(nets[0].nic_stats(NodeId(i)), nets[1].nic_stats(NodeId(i)));
    }
    // The scenario does exercise the block.
    assert!(w[0].delivered > 20, "{} deliveries", w[0].delivered);
    assert!(congested > 100, "congested NIC-cycles: {congested}");
    assert!(throttled > 100, "throttled NIC-cycles: {throttled}");
}

#[test]
fn model_and_rtl_identical_ft_fi() {
    compare(incast_cfg(), ft_fi(), 3000);
}

#[test]
fn model_and_rtl_identical_at_ri() {
    compare(
        incast_cfg(),
        PftConfig::default().with_all(&[
            ("det_mode", DetMode::At as u64),
            ("thr_mode", ThrMode::Ri as u64),
            ("th_enter", 40),
            ("th_escape", 60),
            ("at_win_e", 16),
            ("at_cnt_e", 8),
            ("at_win_s", 16),
            ("at_cnt_s", 8),
            ("m", 24),
            ("n", 0),
            ("k", 0),
            ("enable", 1),
        ]),
        3000,
    );
}

#[test]
fn model_and_rtl_identical_on_a_fat_tree_with_voq() {
    compare(voq_tree(), at_ri(), 2000);
}

#[test]
fn model_and_verilator_identical_ft_fi_and_at_ri() {
    compare_with(EngineKind::Verilator, incast_cfg(), ft_fi(), 3000);
    compare_with(EngineKind::Verilator, incast_cfg(), at_ri(), 3000);
}

#[test]
fn model_and_verilator_identical_with_packet_gating_width_and_clock() {
    compare_with(EngineKind::Verilator, voq_tree(), gated_at_ri(), 2000);
}

#[test]
fn model_and_rtl_identical_pipelined() {
    compare_pipelined(EngineKind::Rtl, incast_cfg(), ft_fi(), 3000);
    compare_pipelined(EngineKind::Rtl, incast_cfg(), at_ri(), 3000);
}

#[test]
fn model_and_rtl_identical_pipelined_with_packet_gating_and_clock() {
    compare_pipelined(EngineKind::Rtl, voq_tree(), gated_at_ri(), 2000);
}

#[test]
fn model_and_verilator_identical_pipelined() {
    compare_pipelined(EngineKind::Verilator, incast_cfg(), ft_fi(), 3000);
    compare_pipelined(EngineKind::Verilator, incast_cfg(), at_ri(), 3000);
    compare_pipelined(EngineKind::Verilator, voq_tree(), gated_at_ri(), 2000);
}
