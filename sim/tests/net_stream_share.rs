//! A NIC's stream share (`Network::set_stream_share`, the IB CC seed's Frame I split of a B
//! node's hot-spot and uniform traffic). NIC 0 has a backlog of hot messages to NIC 3 and
//! of uniform messages to NICs 1 and 2; its link is the bottleneck. Round robin over the
//! three destination queues gives the hot stream a third of the flits; a share p gives it
//! p, and a stream that is empty does not hold the other back.

use pft_sim::net::{Delivery, Message, NetConfig, NodeId, TopologyConfig, Workload};
use pft_sim::{EngineKind, Network, PftConfig};

const HOT: u32 = 0x0101;
const UNI: u32 = 0x0102;

/// `hot` and `uni` messages of 1 KiB queued at cycle 0 (uniform ones alternate between
/// NICs 1 and 2); counts the flits delivered per stream.
struct Backlog {
    hot: u32,
    uni: u32,
    got: [u64; 2],
}

impl Workload for Backlog {
    fn tick(&mut self, now: u64, out: &mut Vec<Message>) {
        if now != 0 {
            return;
        }
        let mut id = 0;
        let mut push = |dst: u32, tag: u32| {
            id += 1;
            out.push(Message {
                id,
                src: NodeId(0),
                dst: NodeId(dst),
                bytes: 1024,
                tag,
                created: 0,
            });
        };
        for _ in 0..self.hot {
            push(3, HOT);
        }
        for k in 0..self.uni {
            push(1 + k % 2, UNI);
        }
    }
    fn delivered(&mut self, _now: u64, d: &Delivery) {
        self.got[(d.msg.tag == UNI) as usize] += 16;
    }
}

fn run(share: Option<f64>, hot: u32, uni: u32, cycles: u64) -> [u64; 2] {
    let cfg = NetConfig {
        topology: TopologyConfig::SingleSwitch { nodes: 4 },
        voq: true,
        mtu_bytes: 1024,
        buffer_flits: 64,
        eject_buffer_flits: 64,
        check: true,
        ..Default::default()
    };
    let off = PftConfig::default().with("enable", 0);
    let mut net = Network::new(&cfg, &off, EngineKind::Model, 1).unwrap();
    if let Some(p) = share {
        net.set_stream_share(NodeId(0), HOT, p);
    }
    let mut w = Backlog {
        hot,
        uni,
        got: [0; 2],
    };
    net.run(&mut w, cycles).unwrap();
    w.got
}

#[test]
fn round_robin_gives_the_hot_queue_a_third_and_a_share_gives_it_p() {
    // 20,000 cycles at one flit per cycle: about 20,000 flits, every queue still backlogged.
    let rr = run(None, 2_000, 2_000, 20_000);
    let hot = rr[0] as f64 / (rr[0] + rr[1]) as f64;
    assert!((hot - 1.0 / 3.0).abs() < 0.01, "round robin: {rr:?}");
    for p in [0.1, 0.5, 0.9] {
        let g = run(Some(p), 2_000, 2_000, 20_000);
        let hot = g[0] as f64 / (g[0] + g[1]) as f64;
        assert!((hot - p).abs() < 0.01, "share {p}: {g:?}");
        assert!(g[0] + g[1] > 19_000, "the link stays busy: {g:?}");
    }
}

#[test]
fn an_empty_stream_does_not_hold_the_other() {
    // 50 hot messages (800 flits) against a long uniform backlog at share 0.9: once the hot
    // ones are gone the uniform stream takes the whole link.
    let g = run(Some(0.9), 50, 2_000, 20_000);
    assert_eq!(g[0], 800);
    assert!(g[0] + g[1] > 19_000, "{g:?}");
}
