//! The unchecked gate's short slot (`PftModel::step_port`: a block cycle with no reset and
//! no CSR access, taken when the checker is off, the clock ratio is 1 and no register
//! rewrite is under way) runs the block as the checked slot does (`PftModel::step` every
//! cycle): a network with the checker off and one with it on give the same gate outputs,
//! block state and NIC counters at every NIC in every cycle, and the same deliveries.
//! Most network tests run with the checker on (the long slot); this one holds the short
//! slot to the long one, NIC by NIC and cycle by cycle.

mod mix;

use mix::{at_ri, ft_fi, incast_over_uniform, lockstep, tree4x2};
use pft_sim::net::{FaultSpec, NetConfig};
use pft_sim::{CcConfig, EngineKind, Network, PftConfig};

fn tree(check: bool) -> NetConfig {
    NetConfig { check, ..tree4x2() }
}

/// AT-RI with short windows and packet gating (the head flag decides).
fn at_ri_packets() -> PftConfig {
    at_ri().with("gating", 1)
}

/// Runs `cfg` unchecked (the short slot) and checked, side by side, comparing every NIC
/// every cycle. Returns the Congested and throttled NIC-cycles seen.
fn checked_and_not(name: &str, cfg: NetConfig, cc: &CcConfig, skip: bool) -> (u64, u64) {
    let cycles = 4_000;
    let mut nets = [false, true].map(|check| {
        let c = NetConfig {
            check,
            ..cfg.clone()
        };
        let mut n = Network::with_cc(&c, cc, EngineKind::Model, 23).unwrap();
        n.set_idle_skip(skip);
        n
    });
    let nodes = nets[0].nodes();
    let mut ws = [(); 2].map(|_| incast_over_uniform(nodes, cycles, 0.3));
    lockstep(name, &mut nets, &mut ws, cycles)
}

#[test]
fn the_short_slot_runs_the_block_as_the_checked_slot() {
    let rewrite = NetConfig {
        faults: vec![FaultSpec::RegRewrite {
            at: 1_000,
            nics: None,
            regs: at_ri_packets().to_table(),
        }],
        ..tree(false)
    };
    let cases = [
        ("FT-FI", tree(false), ft_fi(), true),
        ("FT-FI, no idle skipping", tree(false), ft_fi(), false),
        ("AT-RI, packet gating", tree(false), at_ri_packets(), true),
        // CSR writes mid-run: those slots take the long way, the rest the short one
        ("FT-FI, rewritten to AT-RI at 1,000", rewrite, ft_fi(), true),
        // two block cycles a slot: the long way throughout (the unchecked copy of it)
        (
            "FT-FI at clock ratio 2",
            tree(false),
            ft_fi().with_clock_ratio(2.0),
            true,
        ),
    ];
    for (name, cfg, pft, skip) in cases {
        let (congested, throttled) = checked_and_not(name, cfg, &CcConfig::Pft(pft), skip);
        assert!(
            congested > 1_000 && throttled > 1_000,
            "{name}: {congested} Congested, {throttled} throttled NIC-cycles"
        );
    }
}
