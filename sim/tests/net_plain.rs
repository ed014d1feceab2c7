//! The plain copies of the NIC's and the switch's cycle (`sim/src/net/plain.rs`: compiled
//! without the branches for threads, NIC flow control, ACKs, CSR writes, credit-delay and
//! test faults, and taken in a cycle where none of those is on) run as the general copies
//! do: a network with them allowed and one without (`set_plain(false)`) give the same gate
//! outputs, block state and NIC counters at every NIC in every cycle, and the same
//! deliveries. The cases switch between the copies mid-run (a credit-delay window, a
//! register rewrite), so a cycle of either copy follows one of the other.

mod mix;

use mix::{at_ri, ft_fi, incast_over_uniform, lockstep, tree4x2};
use pft_sim::net::{CreditScope, FaultSpec, NetConfig};
use pft_sim::{CcConfig, EngineKind, Network};

/// Runs `cfg` with the plain copies allowed and not, side by side, comparing every NIC
/// every cycle. Returns the throttled NIC-cycles seen.
fn plain_and_not(name: &str, cfg: &NetConfig, cc: &CcConfig) -> u64 {
    let cycles = 4_000;
    let mut nets = [true, false].map(|plain| {
        let mut n = Network::with_cc(cfg, cc, EngineKind::Model, 29).unwrap();
        n.set_plain(plain);
        n
    });
    let nodes = nets[0].nodes();
    let mut ws = [(); 2].map(|_| incast_over_uniform(nodes, cycles, 0.4));
    lockstep(name, &mut nets, &mut ws, cycles).1
}

#[test]
fn the_plain_copies_run_as_the_general_ones() {
    // credits to the NICs 3 cycles late in cycles 1,000..1,500 and 2,500..3,000: the
    // general copy in those cycles, the plain one around them
    let delay = NetConfig {
        faults: vec![FaultSpec::CreditDelay {
            cycles: 3,
            scope: CreditScope::All,
            start: 1_000,
            duration: Some(500),
            period: Some(1_500),
        }],
        ..tree4x2()
    };
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
    let cases = [
        ("FT-FI", tree4x2(), CcConfig::Pft(ft_fi())),
        (
            "AT-RI, VOQ",
            NetConfig {
                voq: true,
                ..tree4x2()
            },
            CcConfig::Pft(at_ri()),
        ),
        ("FT-FI, credit delay windows", delay, CcConfig::Pft(ft_fi())),
        (
            "FT-FI, rewritten to AT-RI at 1,200",
            rewrite,
            CcConfig::Pft(ft_fi()),
        ),
        ("FT-FI, checker on", checked, CcConfig::Pft(ft_fi())),
    ];
    for (name, cfg, cc) in &cases {
        let throttled = plain_and_not(name, cfg, cc);
        assert!(
            throttled > 1_000,
            "{name}: {throttled} throttled NIC-cycles"
        );
    }
    // no gate at all: the plain credit counter
    plain_and_not("none", &tree4x2(), &CcConfig::none());
}
