//! Switch output arbitration under virtual cut-through (`[network] arbitration`,
//! docs/network.md section 2). One switch, one slow output (NIC 3 drains a quarter flit
//! per cycle into a one-packet receive buffer), two inputs that always have a packet for
//! it: NIC 0 sends 1-flit messages, NIC 1 16-flit ones. With `bypass` every credit the
//! output gets back fits a 1-flit packet first, so the 16-flit packets never fit: their
//! class starves, and the class-stall watchdog names it. `fair_bypass` and `reserve` serve
//! both within a bounded wait; `fair_bypass` lets small packets use the gaps.

#![allow(clippy::result_large_err)]

use pft_sim::net::{
    Arbitration, Delivery, Message, NetConfig, NetError, NodeId, TopologyConfig, Workload,
};
use pft_sim::{EngineKind, Network, PftConfig};

const SMALL: u32 = 0x0001; // tag::UNIFORM
const BIG: u32 = 0x0101; // tag::HOTSPOT_HOT

/// Keeps `depth` messages of each kind queued: 64 B from NIC 0 and 1 KiB from NIC 1, both
/// to NIC 3.
struct TwoSizes {
    id: u64,
    open: [u32; 2],
    depth: u32,
    delivered: [u64; 2],
}

impl Workload for TwoSizes {
    // its tags are the hot-spot workload's: the watchdog names them through this
    fn tag_name(&self, tag: u32) -> Option<&'static str> {
        pft_sim::workload::tag::known(tag)
    }
    fn tick(&mut self, now: u64, out: &mut Vec<Message>) {
        for (k, (src, bytes, tag)) in [(0, 64, SMALL), (1, 1024, BIG)].into_iter().enumerate() {
            while self.open[k] < self.depth {
                self.open[k] += 1;
                self.id += 1;
                out.push(Message {
                    id: self.id,
                    src: NodeId(src),
                    dst: NodeId(3),
                    bytes,
                    tag,
                    created: now,
                });
            }
        }
    }
    fn delivered(&mut self, _now: u64, d: &Delivery) {
        let k = (d.msg.tag == BIG) as usize;
        self.open[k] -= 1;
        self.delivered[k] += 1;
    }
}

fn cfg(arbitration: Arbitration, stall_cycles: u64) -> NetConfig {
    NetConfig {
        topology: TopologyConfig::SingleSwitch { nodes: 4 },
        voq: true,
        arbitration,
        mtu_bytes: 1024, // 16 flits
        buffer_flits: 64,
        eject_buffer_flits: 16,
        eject_rate: 0.25,
        link_latency_cycles: 2,
        credit_latency_cycles: 2,
        switch_latency_cycles: 1,
        check: true,
        stall_cycles,
        ..Default::default()
    }
}

/// Runs `cycles`; returns the workload and the network (or the error).
fn run(a: Arbitration, stall: u64, cycles: u64) -> (TwoSizes, Result<Network, NetError>) {
    let off = PftConfig::default().with("enable", 0);
    let mut net = Network::new(&cfg(a, stall), &off, EngineKind::Model, 1).unwrap();
    let mut w = TwoSizes {
        id: 0,
        open: [0; 2],
        depth: 8,
        delivered: [0; 2],
    };
    let r = net.run(&mut w, cycles).map(|_| net);
    (w, r)
}

fn longest_wait(net: &Network, tag: u32) -> u64 {
    let p = net.class_progress();
    p.iter().find(|c| c.0 == tag).expect("class seen").2
}

#[test]
fn bypass_starves_the_large_packets_and_the_watchdog_names_them() {
    let (w, r) = run(Arbitration::Bypass, 0, 40_000);
    let net = r.unwrap();
    // The output drains 0.25 flit/cycle: about 10,000 flits in 40,000 cycles, all of them
    // 1-flit packets after the start.
    assert!(w.delivered[0] > 9_000, "{:?}", w.delivered);
    assert!(w.delivered[1] <= 2, "{:?}", w.delivered);
    assert!(longest_wait(&net, BIG) > 35_000);

    let (_, r) = run(Arbitration::Bypass, 20_000, 100_000);
    let e = r.err().expect("the watchdog stops the run");
    let msg = e.to_string();
    println!("{msg}");
    let NetError::Stalled {
        cycle,
        ref class,
        stalled_cycles,
        ..
    } = e
    else {
        panic!("{e:?}")
    };
    assert_eq!(class, "hotspot_hot");
    assert!((20_000..20_000 + 1024 + 100).contains(&stalled_cycles));
    assert!(cycle < 22_000, "{cycle}");
    assert!(msg.contains("NIC 1 -> NIC 3"), "{msg}");
    assert!(msg.contains("waits for output 3"), "{msg}");
}

#[test]
fn fair_bypass_and_reserve_serve_both_sizes_within_a_bound() {
    for a in [Arbitration::FairBypass, Arbitration::Reserve] {
        let (w, r) = run(a, 20_000, 40_000);
        let net = r.unwrap_or_else(|e| panic!("{a:?}: {e}"));
        // One 16-flit turn takes 64 cycles of drain; two rounds of the two inputs, plus
        // the bypasses, stay far below 1,000 cycles.
        for tag in [SMALL, BIG] {
            let l = longest_wait(&net, tag);
            assert!(l < 1_000, "{a:?}: class {tag:#x} waited {l} cycles");
        }
        // Both get a real share of the 10,000 flits the output drains.
        let flits = w.delivered[0] + 16 * w.delivered[1];
        assert!(flits > 9_000, "{a:?}: {:?}", w.delivered);
        assert!(w.delivered[1] * 16 > 3_000, "{a:?}: {:?}", w.delivered);
        assert!(w.delivered[0] > 100, "{a:?}: {:?}", w.delivered);
    }
    // fair_bypass lets 1-flit packets through while a 16-flit one waits; reserve does not,
    // so small packets get more under fair_bypass.
    let (fair, _) = run(Arbitration::FairBypass, 0, 40_000);
    let (strict, _) = run(Arbitration::Reserve, 0, 40_000);
    assert!(
        fair.delivered[0] > strict.delivered[0],
        "{:?} vs {:?}",
        fair.delivered,
        strict.delivered
    );
}

#[test]
fn arbitration_key_reads_and_refuses() {
    let c: NetConfig = toml::from_str("arbitration = \"reserve\"").unwrap();
    assert_eq!(c.arbitration, Arbitration::Reserve);
    assert_eq!(NetConfig::default().arbitration, Arbitration::FairBypass);
    let e = toml::from_str::<NetConfig>("arbitration = \"oldest\"").unwrap_err();
    let m = e.to_string();
    assert!(m.contains("fair_bypass") && m.contains("bypass"), "{m}");
}

/// With the checker off, `run` evaluates this network in blocks of cycles (its links'
/// two cycles); each class-stall look (every 1,024 cycles) is still a cycle of its own, so
/// the watchdog speaks in the same cycle with the same words as when stepped.
#[test]
fn the_class_watchdog_speaks_in_the_same_cycle_through_blocks() {
    let mut c = cfg(Arbitration::Bypass, 20_000);
    c.check = false;
    let off = PftConfig::default().with("enable", 0);
    let go = |blocks: bool| {
        let mut net = Network::new(&c, &off, EngineKind::Model, 1).unwrap();
        let mut w = TwoSizes {
            id: 0,
            open: [0; 2],
            depth: 8,
            delivered: [0; 2],
        };
        let r = match blocks {
            true => net.run(&mut w, 100_000),
            false => (0..100_000).try_for_each(|_| net.step(&mut w)),
        };
        let e = r.expect_err("the watchdog stops the run");
        assert!(matches!(e, NetError::Stalled { .. }), "{e}");
        (e.to_string(), net.blocked_cycles())
    };
    let (a, _) = go(false);
    let (b, blocked) = go(true);
    assert!(blocked > 10_000, "{blocked} cycles in blocks");
    assert_eq!(a, b);
}
