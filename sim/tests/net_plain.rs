//! The plain copies of the NIC's and the VCT switch's cycle and of the lane router's flit
//! move (`sim/src/net/plain.rs`: compiled without the branches for NIC flow control, ACKs,
//! CSR writes, credit-delay and credit-jitter faults and test faults, and taken in a cycle
//! where none of those is on) run as the general copies do: a network
//! with them allowed and one without (`set_plain(false)`) give the same gate outputs,
//! block state and NIC counters at every NIC in every cycle, and the same deliveries.
//! Some cases switch between the copies mid-run (credit-fault windows, a register
//! rewrite), so a cycle of either copy follows one of the other; in others (ACKs, NIC
//! flow control) the plain copies must never run. Each case checks how many cycles took
//! them. Three cases run under two threads, where the chunks take the plain copy of their
//! own (`PLAIN_PAR`). The test faults run on one VCT switch and on lane routers.

mod mix;

use mix::{at_ri, ft_fi, incast_over_uniform, lockstep, tree4x2};
use pft_sim::net::{
    BernoulliSource, CreditScope, Fault, FaultSpec, NetConfig, Pattern, TopologyConfig,
};
use pft_sim::{CcConfig, EngineKind, Network, PftConfig};

const CYCLES: u64 = 4_000;

/// Which cycles of a case may take the plain copies.
#[derive(Clone, Copy, Debug)]
enum Takes {
    Every,
    Some,
    None,
}

/// Runs `cfg` with the plain copies allowed and not, side by side, comparing every NIC
/// every cycle, and checks the cycles that took them. Returns the throttled NIC-cycles.
fn plain_and_not(name: &str, cfg: &NetConfig, cc: &CcConfig, skip: bool, takes: Takes) -> u64 {
    let mut nets = [true, false].map(|plain| {
        let mut n = Network::with_cc(cfg, cc, EngineKind::Model, 29).unwrap();
        n.set_plain(plain);
        n.set_idle_skip(skip);
        n
    });
    let nodes = nets[0].nodes();
    let mut ws = [(); 2].map(|_| incast_over_uniform(nodes, CYCLES, 0.4));
    let throttled = lockstep(name, &mut nets, &mut ws, CYCLES).1;
    let p = nets[0].plain_cycles();
    assert_eq!(
        nets[1].plain_cycles(),
        0,
        "{name}: plain copies not allowed"
    );
    let ok = match takes {
        Takes::Every => p == CYCLES,
        Takes::Some => p > 0 && p < CYCLES,
        Takes::None => p == 0,
    };
    assert!(
        ok,
        "{name}: {p} of {CYCLES} cycles plain, expected {takes:?}"
    );
    throttled
}

/// A window of 500 cycles in every 1,500 from cycle 1,000.
fn windows(f: impl Fn(Option<u64>, Option<u64>) -> FaultSpec) -> NetConfig {
    NetConfig {
        faults: vec![f(Some(500), Some(1_500))],
        ..tree4x2()
    }
}

#[test]
fn the_plain_copies_run_as_the_general_ones() {
    // every credit 3 cycles late in cycles 1,000..1,500 and 2,500..3,000: the general
    // copies in those cycles, the plain ones around them
    let delay = windows(|duration, period| FaultSpec::CreditDelay {
        cycles: 3,
        scope: CreditScope::All,
        start: 1_000,
        duration,
        period,
    });
    let jitter = windows(|duration, period| FaultSpec::CreditJitter {
        max_cycles: 4,
        scope: CreditScope::Nics,
        start: 1_000,
        duration,
        period,
    });
    let rewrite = NetConfig {
        faults: vec![FaultSpec::RegRewrite {
            at: 1_200,
            nics: None,
            regs: at_ri().to_table(),
        }],
        ..tree4x2()
    };
    let checked = NetConfig {
        check: true,
        ..tree4x2()
    };
    let voq = NetConfig {
        voq: true,
        ..tree4x2()
    };
    // the lane router beside the NICs' plain copy
    let torus = NetConfig {
        topology: TopologyConfig::Torus { k: 4, n: 2 },
        vcs: Some(2),
        vc_buf_flits: Some(8),
        ..tree4x2()
    };
    let acks = NetConfig {
        ack_bytes: Some(64),
        ..tree4x2()
    };
    // under threads: the plain copy of the chunks (`PLAIN_PAR`) against the general one
    let two = |cfg: &NetConfig| NetConfig {
        threads: 2,
        ..cfg.clone()
    };
    let (tree2, torus2, delay2) = (two(&tree4x2()), two(&torus), two(&delay));
    let pft = CcConfig::Pft(ft_fi());
    let cases = [
        ("FT-FI", tree4x2(), pft.clone(), true, Takes::Every),
        (
            "FT-FI, no idle skipping",
            tree4x2(),
            pft.clone(),
            false,
            Takes::Every,
        ),
        (
            "AT-RI, VOQ",
            voq,
            CcConfig::Pft(at_ri()),
            true,
            Takes::Every,
        ),
        (
            "FT-FI, credit delay windows",
            delay,
            pft.clone(),
            true,
            Takes::Some,
        ),
        (
            "FT-FI, credit jitter windows",
            jitter,
            pft.clone(),
            true,
            Takes::Some,
        ),
        (
            "FT-FI, rewritten to AT-RI at 1,200",
            rewrite,
            pft.clone(),
            true,
            Takes::Some,
        ),
        (
            "FT-FI, checker on",
            checked,
            pft.clone(),
            true,
            Takes::Every,
        ),
        (
            "FT-FI, torus with lanes",
            torus,
            pft.clone(),
            true,
            Takes::Every,
        ),
        ("FT-FI, ACKs", acks, pft.clone(), true, Takes::None),
        ("FT-FI, two threads", tree2, pft.clone(), true, Takes::Every),
        (
            "FT-FI, torus with lanes, two threads",
            torus2,
            pft.clone(),
            true,
            Takes::Every,
        ),
        (
            "FT-FI, credit delay windows, two threads",
            delay2,
            pft,
            true,
            Takes::Some,
        ),
    ];
    for (name, cfg, cc, skip, takes) in &cases {
        let throttled = plain_and_not(name, cfg, cc, *skip, *takes);
        assert!(
            throttled > 1_000,
            "{name}: {throttled} throttled NIC-cycles"
        );
    }
    // no gate at all: the plain credit counter
    plain_and_not("none", &tree4x2(), &CcConfig::none(), true, Takes::Every);
    // NIC flow control (IB CC's injection-rate timers): never plain
    let ibcc = CcConfig::default_of("ibcc").expect("IB CC is registered");
    plain_and_not("IB CC", &tree4x2(), &ibcc, true, Takes::None);
}

/// A test fault (`NetConfig::fault`) is handled by the general copies alone: the run ends
/// the same way (the checker's error, or none without it) with the plain copies allowed
/// or not, and no cycle took them.
#[test]
fn test_faults_never_take_the_plain_copies() {
    for fault in [
        Fault::DropCredit { cycle: 300 },
        Fault::DuplicateFlit { cycle: 300 },
    ] {
        for (check, lanes) in [(true, false), (false, false), (true, true), (false, true)] {
            // one VCT switch, or a 4-ary 2-cube of lane routers (their own fault hooks)
            let cfg = if lanes {
                NetConfig {
                    topology: TopologyConfig::Torus { k: 4, n: 2 },
                    vcs: Some(2),
                    vc_buf_flits: Some(8),
                    // (its lanes to the NICs stand still for 500 cycles now and then at
                    // this load: only the faults should end the run)
                    deadlock_cycles: 20_000,
                    ..mix::faulted_switch(fault, check)
                }
            } else {
                mix::faulted_switch(fault, check)
            };
            let nodes = if lanes { 16 } else { 6 };
            let [a, b] = [true, false].map(|plain| {
                let pft = PftConfig::default();
                let mut net = Network::new(&cfg, &pft, EngineKind::Model, 1).unwrap();
                net.set_plain(plain);
                let mut w = BernoulliSource::new(nodes, Pattern::Uniform, 0.5, 4096, 64, 2);
                let r = net.run(&mut w, 20_000).map_err(|e| e.to_string());
                (r, net.plain_cycles())
            });
            assert_eq!(a.0, b.0, "{fault:?}, check {check}, lanes {lanes}");
            // the checker catches both faults
            assert!(
                !check
                    || a.0
                        .as_ref()
                        .is_err_and(|e| e.contains("credit not conserved")),
                "{fault:?}, lanes {lanes}: {:?}",
                a.0
            );
            assert_eq!(
                (a.1, b.1),
                (0, 0),
                "{fault:?}, check {check}, lanes {lanes}: plain cycles"
            );
        }
    }
}
