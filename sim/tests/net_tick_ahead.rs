//! Under threads `Network::run` calls an open-loop workload's next `tick` while the current
//! cycle is evaluated (`Workload::open_loop`). It must change nothing:
//! - an open-loop source gives the same deliveries at 1, 2 and 3 threads, and has created
//!   the same messages when each `run` returns (no tick past a run's last cycle: a mutant
//!   without that bound fails);
//! - a closed-loop workload (a message sent when the last one arrived) is never ticked
//!   ahead: ticked before its deliveries it would send a cycle late, and a mutant that
//!   ignores `open_loop` fails here;
//! - a tick that panics panics where one thread's would: in the step of its cycle, the
//!   cycles before it whole; and a caller that catches it and runs on gets what one
//!   thread gives (the tick of that cycle asked again, nothing ticked ahead outside
//!   `run`).

use pft_sim::net::Workload;
use pft_sim::net::{
    BernoulliSource, Delivery, Message, NetConfig, NodeId, Pattern, TopologyConfig,
};
use pft_sim::{CcConfig, EngineKind, Network};

/// A 40-NIC fat tree with the checker on.
fn config(threads: u32) -> NetConfig {
    NetConfig {
        topology: TopologyConfig::FatTree {
            radix: 8,
            leaves: 5,
        },
        mtu_bytes: 1024,
        link_latency_cycles: 3,
        credit_latency_cycles: 2,
        check: true,
        threads,
        ..Default::default()
    }
}

fn net(threads: u32) -> Network {
    Network::with_cc(&config(threads), &CcConfig::none(), EngineKind::Model, 3).unwrap()
}

/// Uniform Bernoulli traffic, run as three `run`s: the deliveries and the messages created
/// when each `run` returned.
fn open_loop(threads: u32) -> (Vec<Delivery>, Vec<u64>) {
    let mut net = net(threads);
    let mut w = BernoulliSource::new(net.nodes(), Pattern::Uniform, 0.4, 700, 64, 5).logged();
    assert!(w.open_loop());
    let mut created = Vec::new();
    for cycles in [1_000, 1, 2_000] {
        net.run(&mut w, cycles).unwrap();
        created.push(w.created);
    }
    (w.log.take().unwrap(), created)
}

#[test]
fn an_open_loop_source_ticked_ahead_gives_the_same_run() {
    let one = open_loop(1);
    assert!(one.0.len() > 1_000, "{} deliveries", one.0.len());
    assert_eq!(open_loop(2), one, "two threads");
    assert_eq!(open_loop(3), one, "three threads");
}

/// Each NIC sends one message to the next NIC, and the next one when it arrived.
struct Ring {
    waiting: Vec<bool>,
    next_id: u64,
    log: Vec<(u64, u64)>,
}

impl Workload for Ring {
    fn tick(&mut self, now: u64, out: &mut Vec<Message>) {
        let n = self.waiting.len() as u32;
        for (src, w) in self.waiting.iter_mut().enumerate() {
            if !*w {
                *w = true;
                out.push(Message {
                    id: self.next_id,
                    src: NodeId(src as u32),
                    dst: NodeId((src as u32 + 7) % n),
                    bytes: 512,
                    tag: 0,
                    created: now,
                });
                self.next_id += 1;
            }
        }
    }
    fn delivered(&mut self, now: u64, d: &Delivery) {
        self.waiting[d.msg.src.index()] = false;
        self.log.push((now, d.msg.id));
    }
}

#[test]
fn a_closed_loop_workload_is_not_ticked_ahead() {
    let run = |threads: u32| {
        let mut net = net(threads);
        let mut w = Ring {
            waiting: vec![false; net.nodes() as usize],
            next_id: 0,
            log: Vec::new(),
        };
        assert!(!w.open_loop());
        net.run(&mut w, 3_000).unwrap();
        (w.log, w.next_id)
    };
    let one = run(1);
    assert!(one.0.len() > 1_000, "{} deliveries", one.0.len());
    assert_eq!(run(2), one, "two threads");
}

/// An open-loop source whose tick panics at cycle `at`.
struct Panics {
    inner: BernoulliSource,
    at: u64,
    delivered: u64,
}

impl Workload for Panics {
    fn open_loop(&self) -> bool {
        true
    }
    fn tick(&mut self, now: u64, out: &mut Vec<Message>) {
        assert!(now != self.at, "tick {now}");
        self.inner.tick(now, out);
    }
    fn delivered(&mut self, _now: u64, _d: &Delivery) {
        self.delivered += 1;
    }
}

#[test]
fn a_tick_that_panics_does_so_in_its_own_cycles_step() {
    let run = |threads: u32| {
        let mut net = net(threads);
        let inner = BernoulliSource::new(net.nodes(), Pattern::Uniform, 0.4, 700, 64, 5);
        let mut w = Panics {
            inner,
            at: 1_500,
            delivered: 0,
        };
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            net.run(&mut w, 3_000).map_err(|e| e.to_string())
        }));
        let msg = r.unwrap_err().downcast::<String>().unwrap();
        (*msg, net.now(), w.delivered, net.total_stats())
    };
    let one = run(1);
    assert_eq!((one.0.as_str(), one.1), ("tick 1500", 1_500));
    assert!(one.2 > 100);
    assert_eq!(format!("{:?}", run(2)), format!("{one:?}"), "two threads");
}

/// An open-loop source whose tick panics once, in cycle `at`.
struct PanicsOnce {
    inner: BernoulliSource,
    at: u64,
    fired: bool,
    log: Vec<(u64, u64, u64)>,
}

impl Workload for PanicsOnce {
    fn open_loop(&self) -> bool {
        true
    }
    fn tick(&mut self, now: u64, out: &mut Vec<Message>) {
        if now == self.at && !self.fired {
            self.fired = true;
            panic!("tick {now}");
        }
        self.inner.tick(now, out);
    }
    fn delivered(&mut self, now: u64, d: &Delivery) {
        self.log.push((now, d.msg.id, d.msg.created));
    }
}

/// A run resumed after a caught panic of a ticked-ahead tick, then stepped outside `run`,
/// gives the same cycle, messages and deliveries at 1, 2 and 3 threads (on 120 NICs, so
/// that there are NIC chunks on several threads), and on one thread without the checker,
/// where `run` evaluates blocks of cycles (the panic inside a block). Fails if the
/// panicked tick's messages are taken for its cycle, if a step after `run` ticks ahead, or
/// if a block left by a panic does not bring its switches up to the panicked cycle.
#[test]
fn a_run_resumed_after_a_caught_tick_panic_is_the_same() {
    let run = |threads: u32, check: bool| {
        let cfg = NetConfig {
            check,
            threads,
            ..NetConfig::default()
        };
        let mut net = Network::with_cc(&cfg, &CcConfig::none(), EngineKind::Model, 3).unwrap();
        let inner = BernoulliSource::new(net.nodes(), Pattern::Uniform, 0.3, 700, 64, 5);
        let mut w = PanicsOnce {
            inner,
            at: 500,
            fired: false,
            log: Vec::new(),
        };
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            net.run(&mut w, 1_000).unwrap()
        }));
        assert!(r.is_err(), "the tick panicked");
        let at = net.now();
        net.run(&mut w, 1_000).unwrap();
        for _ in 0..50 {
            net.step(&mut w).unwrap();
        }
        let created = w.inner.created;
        ((at, created, w.log), net.blocked_cycles())
    };
    let (one, blocked) = run(1, true);
    assert_eq!(one.0, 500);
    assert_eq!(blocked, 0, "no blocks with the checker");
    assert_eq!(run(2, true).0, one, "two threads");
    assert_eq!(run(3, true).0, one, "three threads");
    let (unchecked, blocked) = run(1, false);
    assert!(blocked > 1_000, "{blocked} cycles in blocks");
    assert_eq!(unchecked, one, "blocks");
}
