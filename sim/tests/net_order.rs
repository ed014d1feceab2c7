//! Two-phase clocking: the order in which components are evaluated within a cycle does not
//! change any result (deliveries, per-NIC counters, PFT outputs in every cycle), with flit
//! gating and with packet gating and a narrow RI width.

use pft_sim::net::scheme::{CreditGate, GateIn, GateOut, Scheme};
use pft_sim::net::{BernoulliSource, Delivery, EvalOrder, NetConfig, Pattern, TopologyConfig};
use pft_sim::net::{Message, NodeId, Workload};
use pft_sim::{EngineKind, Network, PftConfig};

mod mix;
use mix::Mix;

/// A 40-NIC fat tree with the checker on.
fn config(voq: bool, threads: u32) -> NetConfig {
    NetConfig {
        topology: TopologyConfig::FatTree {
            radix: 8,
            leaves: 5,
        },
        buffer_flits: 128,
        eject_buffer_flits: 64,
        mtu_bytes: 1024,
        link_latency_cycles: 3,
        credit_latency_cycles: 2,
        switch_latency_cycles: 1,
        eject_rate: 0.8,
        voq,
        check: true,
        threads,
        ..Default::default()
    }
}

/// Uniform traffic with an incast on NIC 3; the deliveries are kept.
fn traffic(n: u32, load: f64) -> Mix {
    Mix(
        BernoulliSource::new(n, Pattern::Uniform, load, 700, 64, 1),
        BernoulliSource::new(n, Pattern::Incast { dst: NodeId(3) }, 0.1, 2000, 64, 2),
        Vec::new(),
    )
}

fn run(voq: bool, packet: bool, order: EvalOrder) -> (Vec<Delivery>, Vec<String>, u64, u64) {
    let cfg = config(voq, 1);
    let pft = PftConfig::default().with_all(&[
        ("th_enter", 30),
        ("th_escape", 50),
        ("at_win_e", 16),
        ("at_cnt_e", 8),
        ("at_win_s", 16),
        ("at_cnt_s", 8),
        ("m", 24),
    ]);
    // Packet gating with a 26-bit r: m = 24 then stops heads from c = 4 on while Congested.
    let pft = if packet {
        pft.with_all(&[("gating", 1), ("r_width", 26)])
    } else {
        pft
    };
    let mut net = Network::new(&cfg, &pft, EngineKind::Model, 9).unwrap();
    net.set_eval_order(order);
    let n = net.nodes();
    let mut w = traffic(n, 0.35);
    let mut trace = Vec::new();
    let mut h = 0u64;
    for t in 0..4000 {
        net.step(&mut w).unwrap();
        for i in 0..n {
            let o = net.pft_outputs(NodeId(i));
            h = h.wrapping_mul(31).wrapping_add(
                o.send as u64 | (o.throttled as u64) << 1 | (o.used_credits as u64) << 2,
            );
        }
        if t % 500 == 0 {
            trace.push(format!("{t}: {:?}", net.total_stats()));
        }
    }
    for i in 0..n {
        trace.push(format!("{i}: {:?}", net.nic_stats(NodeId(i))));
    }
    let throttled = net.total_stats().throttled_cycles;
    (w.2, trace, h, throttled)
}

#[test]
fn evaluation_order_does_not_matter() {
    let mut outputs = Vec::new();
    for (voq, packet) in [(false, false), (true, false), (true, true)] {
        let a = run(voq, packet, EvalOrder::Forward);
        outputs.push(a.2);
        assert!(a.0.len() > 500, "only {} deliveries", a.0.len());
        assert!(a.3 > 1000, "the PFT blocks must throttle: {} cycles", a.3);
        for order in [
            EvalOrder::Reverse,
            EvalOrder::Shuffled(1),
            EvalOrder::Shuffled(2),
        ] {
            let b = run(voq, packet, order);
            assert_eq!(
                a.0, b.0,
                "voq {voq}, packet {packet}, {order:?}: deliveries differ"
            );
            assert_eq!(
                a.1, b.1,
                "voq {voq}, packet {packet}, {order:?}: counters differ"
            );
            assert_eq!(
                a.2, b.2,
                "voq {voq}, packet {packet}, {order:?}: PFT outputs differ"
            );
        }
    }
    assert_ne!(outputs[1], outputs[2], "packet gating changed nothing");
}

/// A run on threads that turns to one thread halfway (a set evaluation order keeps a
/// network on one thread): what the chunks sent under threads and had not yet taken in
/// reaches its receivers as on one thread all along (`Network::leave_parallel`).
#[test]
fn threads_then_one_thread_midway_changes_nothing() {
    let run = |threads: u32, switch_at: Option<u64>| {
        let cfg = config(false, threads);
        let mut net = Network::new(&cfg, &PftConfig::default(), EngineKind::Model, 9).unwrap();
        let mut w = traffic(net.nodes(), 0.45);
        for t in 0..3000u64 {
            if Some(t) == switch_at {
                net.set_eval_order(EvalOrder::Reverse);
            }
            net.step(&mut w).unwrap();
        }
        (w.2, format!("{:?}", net.total_stats()))
    };
    let one = run(1, None);
    assert!(one.0.len() > 1000, "only {} deliveries", one.0.len());
    assert_eq!(run(2, None), one, "two threads differ from one");
    assert_eq!(
        run(2, Some(1500)),
        one,
        "two threads, then one, differ from one"
    );
}

/// A NIC gate that ignores credits, for a run that overflows a buffer.
struct Greedy(CreditGate);

impl Scheme for Greedy {
    fn gate(&mut self, n: u32, _now: u64, i: &GateIn) -> GateOut {
        self.0.step(n, i)
    }
    fn used_credits(&self, n: u32) -> u16 {
        self.0.used(n)
    }
}

/// Two long messages from cycle 0.
struct Two;

impl Workload for Two {
    fn tick(&mut self, now: u64, out: &mut Vec<Message>) {
        if now == 0 {
            for (id, src, dst) in [(0, 0, 2), (1, 1, 3)] {
                out.push(Message {
                    id,
                    src: NodeId(src),
                    dst: NodeId(dst),
                    bytes: 100_000,
                    tag: 0,
                    created: 0,
                });
            }
        }
    }
    fn delivered(&mut self, _now: u64, _d: &Delivery) {}
}

/// Two errors in one cycle, in different entry pools (buffer overflows at routers 4 and
/// 0 of a ring, fed by NICs 0 and 1 that ignore credits): the run reports the same one at
/// 1, 2 and 3 threads, whose chunks span different pools (the first pool's, as when every
/// chunk was one pool). Fails if an owner reports its first read error in arrival order.
#[test]
#[allow(clippy::result_large_err)] // (the build closure returns `NetError`, as the library)
fn two_errors_in_a_cycle_report_the_same_at_any_thread_count() {
    let ring = "router 0 node 1 node 3 router 1 router 7\nrouter 1 node 4 router 2\n\
        router 2 node 5 router 3\nrouter 3 node 6 router 4\nrouter 4 node 0 node 2 router 5\n\
        router 5 node 7 router 6\nrouter 6 node 8 router 7\nrouter 7 node 9\n";
    let dir = std::env::temp_dir().join(format!("pft-net-order-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("ring.anynet");
    std::fs::write(&path, ring).unwrap();
    let mut topology = TopologyConfig::File {
        path: path.display().to_string(),
        graph: None,
    };
    topology.resolve(None);
    let errors: Vec<String> = [1u32, 2, 3]
        .iter()
        .map(|&threads| {
            let cfg = NetConfig {
                topology: topology.clone(),
                buffer_flits: 16,
                eject_buffer_flits: 16,
                mtu_bytes: 16 * 64,
                eject_rate: 0.05,
                threads,
                ..NetConfig::default()
            };
            let mut net = pft_sim::net::Network::build(&cfg, 1, |ctx| {
                Ok(Greedy(CreditGate::new(ctx.nodes, 1000)))
            })
            .unwrap();
            net.run(&mut Two, 5000).unwrap_err().to_string()
        })
        .collect();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        errors[0].contains("buffer overflow at router 0 input 0"),
        "{}",
        errors[0]
    );
    assert_eq!(errors[1], errors[0], "two threads");
    assert_eq!(errors[2], errors[0], "three threads");
}

/// A credit gate that, in cycle 100, sends a flit it was not offered at NIC `bad` (an error
/// with the checker on) and panics at NIC `panics`; its NIC state is per NIC, so NICs run
/// on several threads.
struct ErrOrPanic {
    gate: CreditGate,
    bad: u32,
    panics: u32,
}

impl Scheme for ErrOrPanic {
    fn nic_parallel(&self) -> bool {
        true
    }
    fn gate(&mut self, n: u32, now: u64, i: &GateIn) -> GateOut {
        if now == 100 && n == self.panics {
            panic!("the gate of NIC {n} panics");
        }
        let mut o = self.gate.step(n, i);
        if now == 100 && n == self.bad {
            o.send = true;
        }
        o
    }
    fn used_credits(&self, n: u32) -> u16 {
        self.gate.used(n)
    }
}

struct Quiet;
impl Workload for Quiet {
    fn tick(&mut self, _now: u64, _out: &mut Vec<Message>) {}
    fn delivered(&mut self, _now: u64, _d: &Delivery) {}
}

/// An error in one NIC and a panic in another in the same cycle: whichever comes first in
/// NIC order is what the run reports (the error, or the panic with its own message), at 1,
/// 2 and 3 threads, whose NIC chunks split the 120 NICs differently. Fails if threads
/// report a chunk's panic over an earlier chunk's error, or lose the panic's message.
#[test]
#[allow(clippy::result_large_err)] // (the build closure returns `NetError`, as the library)
fn an_error_and_a_panic_in_a_cycle_report_the_first_at_any_thread_count() {
    for (bad, panics, want) in [
        (3, 100, "send without flit_valid"),
        (100, 3, "the gate of NIC 3 panics"),
    ] {
        let outcome = |threads: u32| {
            let cfg = NetConfig {
                check: true,
                threads,
                ..NetConfig::default() // a fat tree of 120 NICs
            };
            let mut net = pft_sim::net::Network::build(&cfg, 1, |ctx| {
                Ok(ErrOrPanic {
                    gate: CreditGate::new(ctx.nodes, 16),
                    bad,
                    panics,
                })
            })
            .unwrap();
            let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                net.run(&mut Quiet, 200).map_err(|e| e.to_string())
            }));
            match r {
                Ok(Err(e)) => format!("error: {e}"),
                Ok(Ok(())) => "ok".to_string(),
                Err(p) => format!(
                    "panic: {}",
                    p.downcast_ref::<String>().cloned().unwrap_or_default()
                ),
            }
        };
        let one = outcome(1);
        assert!(one.contains(want), "{one}");
        assert_eq!(outcome(2), one, "two threads");
        assert_eq!(outcome(3), one, "three threads");
    }
}
