//! GPCNeT with host time in the real network (docs/workloads.md, "Host time"): lossless
//! (invariant checker on), deterministic and independent of the evaluation order, with PFT
//! throttling; and the isolated latency iteration grows by the host's share.

use pft_sim::cc::CcConfig;
use pft_sim::net::{EvalOrder, NetConfig, TopologyConfig};
use pft_sim::workload::{CanaryTest, GpcnetConfig, GpcnetResults, GpcnetWorkload};
use pft_sim::{EngineKind, Network, PftConfig};

fn net_cfg() -> NetConfig {
    NetConfig {
        topology: TopologyConfig::FatTree {
            radix: 8,
            leaves: 5,
        },
        buffer_flits: 128,
        eject_buffer_flits: 128,
        mtu_bytes: 1024,
        voq: true,
        check: true,
        ..Default::default()
    }
}

fn gpcnet(host_ns: f64, congestors: bool) -> GpcnetConfig {
    GpcnetConfig {
        ppn: 8,
        congestors,
        congestor_msg_bytes: 4096,
        congestor_window: 2,
        canary_start_cycles: 2000,
        lat_warmup_iters: 2,
        lat_iters: 10,
        lat_rings: 1,
        bw_msg_bytes: 2048,
        bw_outstanding: 2,
        bw_iters: 2,
        allreduce_warmup_iters: 1,
        allreduce_iters: 5,
        host_send_ns: host_ns,
        host_recv_ns: host_ns,
        ..Default::default()
    }
}

/// Runs until the canaries finish; the results and the cycle count.
fn run(g: &GpcnetConfig, order: EvalOrder) -> (GpcnetResults, u64) {
    let cfg = net_cfg();
    // AT-RI with packet gating and a narrow r: throttles hard in this small fabric
    let pft = PftConfig::default().with_all(&[
        ("th_enter", 16),
        ("th_escape", 24),
        ("at_win_e", 32),
        ("at_cnt_e", 16),
        ("at_win_s", 32),
        ("at_cnt_s", 16),
        ("m", 22),
        ("gating", 1),
        ("r_width", 28),
    ]);
    let mut net = Network::with_cc(&cfg, &CcConfig::Pft(pft), EngineKind::Model, 4).unwrap();
    net.set_eval_order(order);
    let mut w =
        GpcnetWorkload::with_link(g, net.nodes(), cfg.flit_bytes, cfg.link_gbps, 4).unwrap();
    let mut cycles = 0;
    while !w.finished() {
        net.step(&mut w).unwrap();
        cycles += 1;
        assert!(cycles < 2_000_000, "the canaries did not finish");
    }
    if g.congestors {
        assert!(net.total_stats().throttled_cycles > 100, "PFT must act");
    }
    (w.results(), cycles)
}

#[test]
fn host_time_runs_are_lossless_deterministic_and_order_independent() {
    let g = gpcnet(450.0, true);
    let a = run(&g, EvalOrder::Forward);
    for order in [EvalOrder::Reverse, EvalOrder::Shuffled(11)] {
        assert_eq!(run(&g, order), a, "{order:?}");
    }
}

#[test]
fn host_time_lengthens_the_isolated_latency_iteration() {
    let mean = |r: &GpcnetResults| {
        let t = r.test(CanaryTest::Latency).unwrap();
        let s: Vec<f64> = t.processes.iter().flat_map(|p| p.samples.clone()).collect();
        s.iter().sum::<f64>() / s.len() as f64
    };
    let bare = mean(&run(&gpcnet(0.0, false), EvalOrder::Forward).0);
    let host = mean(&run(&gpcnet(450.0, false), EvalOrder::Forward).0);
    // 450 ns = 88 cycles at 5.12 ns: two posts and two receives on one CPU, overlapping
    // the network's own time; at least 4 x 88 and at most that plus the bare iteration
    assert!(bare > 20.0 && bare < 100.0, "bare {bare}");
    assert!(
        host >= 352.0 && host <= 352.0 + bare,
        "host {host}, bare {bare}"
    );
}
