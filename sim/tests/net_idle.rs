//! Idle NICs skip their quiet cycles (`Network::set_idle_skip`, on by default): a NIC with
//! nothing to send, receive or take back, whose gate is idle (`Scheme::gate_idle`; PFT:
//! `PftModel::idle`), is not stepped, and its gate catches up when something arrives. That
//! only saves work: with skipping on and off, the same runs give the same gate outputs, the
//! same PFT block state (caught up, `pft_probe`) and the same NIC counters at every NIC in
//! every cycle, and the same deliveries; and NICs did skip, and woke from long sleeps. A
//! sleeping NIC is not visited until something pokes it (`Nics::awake`); the checker, on
//! here, requires every unvisited NIC to be asleep with nothing to do. A NIC whose gate is
//! the plain credit check (`none`) also sleeps with a flit to send while every credit is
//! in use (`Scheme::gate_blocked`), until a credit comes back: the same comparison covers
//! it, and such sleeps happened; PFT's gate is never blocked in that sense (its
//! detection counts every slot), and its NICs never sleep with a flit to send.

use pft_sim::net::{
    BernoulliSource, Delivery, FaultSpec, Message, NetConfig, Pattern, TopologyConfig,
};
use pft_sim::net::{NodeId, Workload};
mod mix;

use mix::{at_ri, ft_fi, tree4x2};
use pft_sim::{CcConfig, EngineKind, Network, PftConfig};

fn tree() -> NetConfig {
    NetConfig {
        check: true,
        ..tree4x2()
    }
}

fn torus() -> NetConfig {
    NetConfig {
        topology: TopologyConfig::Torus { k: 4, n: 2 },
        vcs: Some(2),
        vc_buf_flits: Some(8),
        check: true,
        ..Default::default()
    }
}

/// The tree with faults that reach sleeping NICs: half the NICs eject at 0.05 flits a
/// cycle (a drain leaves a fraction banked for 20 cycles), stalled 20 cycles in 50 (a NIC
/// with an empty buffer and a fraction banked sleeps, and must wake when the stall ends
/// to bank the rest), and a register rewrite of every NIC while most sleep (each must
/// take its CSR writes).
fn tree_faults() -> NetConfig {
    NetConfig {
        faults: vec![
            FaultSpec::Eject {
                nics: Some((8..16).collect()),
                rate: 0.05,
                start: 0,
                duration: None,
                period: None,
            },
            FaultSpec::Eject {
                nics: Some((8..16).collect()),
                rate: 0.0,
                start: 900,
                duration: Some(20),
                period: Some(50),
            },
            FaultSpec::RegRewrite {
                at: 4_000,
                nics: None,
                regs: ft_fi().to_table(),
            },
        ],
        ..tree()
    }
}

/// Traffic of each run: a hot spot for the first tenth (NICs that throttle, then fall idle
/// mid-window) and light uniform traffic throughout (NICs asleep for long stretches between
/// messages). Every delivery is logged.
struct Traffic {
    hot: BernoulliSource,
    light: BernoulliSource,
    log: Vec<Delivery>,
}

impl Traffic {
    fn new(nodes: u32, cycles: u64) -> Self {
        Traffic {
            hot: BernoulliSource::new(nodes, Pattern::Incast { dst: NodeId(0) }, 0.2, 1024, 64, 3)
                .until(cycles / 10),
            light: BernoulliSource::new(nodes, Pattern::Uniform, 0.004, 256, 64, 4),
            log: Vec::new(),
        }
    }
}

impl Workload for Traffic {
    fn tick(&mut self, now: u64, out: &mut Vec<Message>) {
        self.hot.tick(now, out);
        let from = out.len();
        self.light.tick(now, out);
        for m in &mut out[from..] {
            m.id += 1 << 40;
            m.tag = 1;
        }
    }
    fn delivered(&mut self, _now: u64, d: &Delivery) {
        self.log.push(*d);
    }
}

/// `blocked`: NICs whose gate is the plain credit check, which sleep with a flit to send
/// while every credit is in use (else they never do).
fn run_both(
    name: &str,
    cfg: &NetConfig,
    cc: &CcConfig,
    throttles: bool,
    blocked: bool,
    cycles: u64,
) {
    // skipping on; off; on for the first half, then turned off (the sleepers wake)
    let mut nets: Vec<Network> = [true, false, true]
        .iter()
        .map(|&on| {
            let mut n = Network::with_cc(cfg, cc, EngineKind::Model, 17).unwrap();
            n.set_idle_skip(on);
            n
        })
        .collect();
    let nodes = nets[0].nodes();
    let mut ws: Vec<Traffic> = (0..3).map(|_| Traffic::new(nodes, cycles)).collect();
    let (mut asleep, mut longest, mut congested) = (0u64, 0u64, 0u64);
    // NIC-cycles asleep with flits queued to send
    let mut asleep_full = 0u64;
    let mut last_asleep = vec![0u64; nodes as usize];
    let mut woke_long = 0u32;
    for t in 0..cycles {
        if t == cycles / 2 {
            nets[2].set_idle_skip(false);
        }
        for (net, w) in nets.iter_mut().zip(ws.iter_mut()) {
            net.step(w).unwrap();
        }
        for i in 0..nodes {
            let n = NodeId(i);
            let (a, b) = (&nets[0], &nets[1]);
            assert_eq!(
                a.gate_outputs(n),
                b.gate_outputs(n),
                "{name}: cycle {t}, NIC {i}: gate outputs"
            );
            assert_eq!(
                a.pft_probe(n),
                b.pft_probe(n),
                "{name}: cycle {t}, NIC {i}: block"
            );
            assert_eq!(
                a.nic_stats(n),
                b.nic_stats(n),
                "{name}: cycle {t}, NIC {i}: counters"
            );
            assert_eq!(a.congested(n), b.congested(n), "{name}: cycle {t}, NIC {i}");
            let c = &nets[2];
            assert_eq!(
                (c.gate_outputs(n), c.pft_probe(n), c.nic_stats(n)),
                (b.gate_outputs(n), b.pft_probe(n), b.nic_stats(n)),
                "{name}: cycle {t}, NIC {i}: skipping turned off mid-run"
            );
            assert_eq!(b.idle_slots(n), 0, "{name}: skipping off");
            let s = a.idle_slots(n);
            asleep += (s > 0) as u64;
            asleep_full += (s > 0 && a.nic_stats(n).queued_flits > 0) as u64;
            longest = longest.max(s);
            woke_long += (s == 0 && last_asleep[i as usize] > 100) as u32;
            last_asleep[i as usize] = s;
            congested += a.congested(n) as u64;
        }
    }
    assert!(ws[0].log == ws[1].log, "{name}: deliveries differ");
    assert!(
        ws[2].log == ws[1].log,
        "{name}: deliveries differ (turned off mid-run)"
    );
    let delivered = ws[0].log.len();
    let nic_cycles = cycles * nodes as u64;
    assert!(delivered > 200, "{name}: {delivered} deliveries");
    assert!(
        asleep > nic_cycles / 4 && longest > 1_000 && woke_long > 20,
        "{name}: {asleep} of {nic_cycles} NIC-cycles asleep, longest {longest}, {woke_long} wake-ups after 100 or more"
    );
    if throttles {
        assert!(congested > 200, "{name}: {congested} Congested NIC-cycles");
    }
    if blocked {
        assert!(
            asleep_full > 1_000,
            "{name}: {asleep_full} NIC-cycles asleep with flits to send"
        );
    } else {
        assert_eq!(
            asleep_full, 0,
            "{name}: NIC-cycles asleep with flits to send"
        );
    }
}

#[test]
fn idle_nics_that_skip_cycles_run_as_if_stepped_every_cycle() {
    let cases = [
        // (its thresholds are above this buffer: it never goes Congested here)
        (
            "tree, PFT as in the paper",
            tree(),
            CcConfig::Pft(PftConfig::default()),
            false,
            false,
        ),
        (
            "tree, PFT FT-FI",
            tree(),
            CcConfig::Pft(ft_fi()),
            true,
            false,
        ),
        (
            "tree, PFT AT-RI short windows",
            tree(),
            CcConfig::Pft(at_ri()),
            true,
            false,
        ),
        (
            "tree, PFT off",
            tree(),
            CcConfig::Pft(PftConfig::disabled()),
            false,
            false,
        ),
        ("tree, none", tree(), CcConfig::none(), false, true),
        (
            "torus with lanes, none, 64-flit NIC buffers",
            NetConfig {
                buffer_flits: 64,
                ..torus()
            },
            CcConfig::none(),
            false,
            true,
        ),
        (
            "tree, PFT AT-RI, stalled ejection and a register rewrite",
            tree_faults(),
            CcConfig::Pft(at_ri()),
            true,
            false,
        ),
        (
            "torus with lanes, PFT AT-RI",
            torus(),
            CcConfig::Pft(at_ri()),
            true,
            false,
        ),
    ];
    for (name, cfg, cc, throttles, blocked) in cases {
        run_both(name, &cfg, &cc, throttles, blocked, 6_000);
    }
}
