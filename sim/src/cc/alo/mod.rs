//! ALO (At-Least-One; Baydal, Lopez and Duato), the comparator of seed 003: a node
//! estimates congestion from its own router's virtual channels. A new packet may start if
//! at least one virtual channel is free on every useful physical channel, or if at least
//! one useful physical channel has all its virtual channels free; otherwise the node holds
//! it. "Useful" channels are the outputs that minimal routing may take towards the
//! packet's destination. docs/cc/alo.md has the reading.
//!
//! A virtual channel is free when no packet holds it: the router's lane allocator could
//! give it to a new head now (the core's lane state, `Scheme::lanes`, read at the start of
//! the cycle, so the order in which components are stepped does not matter).

use super::{Plugin, RunOpts};
use crate::error::FieldError;
use crate::net::scheme::{CreditGate, GateState, Scheme};
use crate::net::topology::cube;
use crate::net::{BuildCtx, NetError, NodeId, Topology, TopologyConfig};
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// Keys of an `alo` entry.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AloConfig {
    /// Let a packet to another destination start while the one at the head of the NIC's
    /// round robin is held (false: one source queue, as the paper's nodes have).
    pub bypass: bool,
}

/// The plug-in (registry entry `alo`).
pub struct Alo;

impl Plugin for Alo {
    const KIND: &'static str = "alo";
    const ABOUT: &'static str =
        "At-Least-One (seed 003's comparator): inject only with free virtual channels on the useful outputs";
    type Config = AloConfig;
    type State = AloState;

    fn validate(_cfg: &AloConfig, _prefix: &str, _errs: &mut Vec<FieldError>) {}

    fn build(cfg: &AloConfig, ctx: &BuildCtx, _opts: &RunOpts) -> Result<AloState, NetError> {
        let net = ctx.cfg;
        // lane records per port (`disha`'s deadlock buffer is the top one, never a data lane)
        let v = net.lane_records().unwrap_or(1);
        let user = net.vcs.unwrap_or(1);
        let data = user - net.ack_vcs.unwrap_or(0).min(user - 1);
        let cube = match net.topology {
            TopologyConfig::Torus { k, n } => Some((k, n, true)),
            TopologyConfig::Mesh { k, n } => Some((k, n, false)),
            _ => None,
        };
        let switches = ctx.topo.switches().len();
        Ok(AloState {
            gate: CreditGate::new(ctx.nodes, net.buffer_flits as u16),
            bypass: cfg.bypass,
            vcs: v,
            data_mask: (1u128 << data) - 1,
            cube,
            topo: if cube.is_none() {
                Some(ctx.topo.clone())
            } else {
                None
            },
            attach: (0..ctx.nodes)
                .map(|n| ctx.topo.attach(NodeId(n)).0)
                .collect(),
            held: vec![0; switches],
            used: vec![0; switches],
            refused: vec![false; ctx.nodes as usize],
            refusals: 0,
        })
    }

    fn label(cfg: &AloConfig) -> String {
        if cfg.bypass {
            "ALO bypass".into()
        } else {
            "ALO".into()
        }
    }
}

/// ALO in a network: the plain credit check at every NIC and each router's lane state.
pub struct AloState {
    gate: CreditGate,
    bypass: bool,
    /// Lanes per port, and the lanes data packets use (the low ones).
    vcs: u32,
    data_mask: u128,
    /// k, n, wrap of a k-ary n-cube (minimal directions); None: the topology's table.
    cube: Option<(u32, u32, bool)>,
    topo: Option<Topology>,
    /// Each NIC's router.
    attach: Vec<u32>,
    /// Per switch, this cycle: lanes a packet holds, lanes with a link.
    held: Vec<u128>,
    used: Vec<u128>,
    /// The NIC's last `may_start` said no.
    refused: Vec<bool>,
    refusals: u64,
}

impl AloState {
    /// Free data lanes of local port `p` of switch `s`.
    #[inline]
    fn free(&self, s: u32, p: u32) -> u32 {
        let si = s as usize;
        let m = self.data_mask << (p * self.vcs);
        (self.used[si] & !self.held[si] & m).count_ones()
    }

    /// Physical channel `p` of switch `s` is useful and its free lanes: calls `f(free)`
    /// for each useful output of NIC `n`'s router towards NIC `dst`.
    fn useful(&self, n: u32, dst: u32, mut f: impl FnMut(u32, u32)) {
        let s = self.attach[n as usize];
        match (self.cube, &self.topo) {
            (Some((k, dims, wrap)), _) => {
                let y = self.attach[dst as usize];
                for d in 0..dims {
                    let (a, b) = (cube::digit(s, k, d), cube::digit(y, k, d));
                    if a == b {
                        continue;
                    }
                    let (plus, minus) = if wrap {
                        let fwd = (b + k - a) % k;
                        (2 * fwd <= k, 2 * fwd >= k)
                    } else {
                        (b > a, b < a)
                    };
                    for (go, p) in [(plus, 2 * d), (minus, 2 * d + 1)] {
                        if go {
                            f(p, self.free(s, p));
                        }
                    }
                }
            }
            (None, Some(t)) => {
                let p = t.route(s, NodeId(dst));
                f(p, self.free(s, p));
            }
            (None, None) => unreachable!("built with a table"),
        }
    }

    /// ALO's test for a packet from NIC `n` to `dst`.
    pub fn allows(&self, n: u32, dst: u32) -> bool {
        let all = self.data_mask.count_ones();
        let (mut every_one, mut one_all, mut any) = (true, false, false);
        self.useful(n, dst, |_, free| {
            any = true;
            every_one &= free >= 1;
            one_all |= free == all;
        });
        !any || every_one || one_all
    }
}

impl Scheme for AloState {
    const FLOWS: bool = true;
    const WANTS_LANES: bool = true;

    credit_gate_hooks!(gate);
    fn gate_state(&self, n: u32) -> GateState {
        GateState {
            c: self.used_credits(n),
            state: if self.refused[n as usize] {
                "held"
            } else {
                "open"
            }
            .into(),
            reason: "the useful outputs of its router have no free virtual channel".into(),
        }
    }

    #[inline]
    fn lanes(&mut self, s: u32, held: u128, used: u128) {
        self.held[s as usize] = held;
        self.used[s as usize] = used;
    }

    fn may_start(&mut self, n: u32, _now: u64, queued: &VecDeque<u32>) -> bool {
        let ok = if self.bypass {
            queued.iter().any(|&d| self.allows(n, d))
        } else {
            queued.front().is_some_and(|&d| self.allows(n, d))
        };
        self.refused[n as usize] = !ok;
        self.refusals += !ok as u64;
        ok
    }
    #[inline]
    fn eligible(&self, n: u32, dst: u32, _now: u64) -> bool {
        self.allows(n, dst)
    }
    #[inline]
    fn nic_congested(&self, n: u32) -> bool {
        self.refused[n as usize]
    }

    fn counters(&self) -> Vec<(&'static str, u64)> {
        vec![("refusals", self.refusals)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 4-ary 2-cube torus with 3 lanes per port, every lane free.
    fn torus() -> AloState {
        let n = 16;
        AloState {
            gate: CreditGate::new(n, 16),
            bypass: false,
            vcs: 3,
            data_mask: 0b111,
            cube: Some((4, 2, true)),
            topo: None,
            attach: (0..n).collect(),
            held: vec![0; n as usize],
            used: vec![(1 << 15) - 1; n as usize],
            refused: vec![false; n as usize],
            refusals: 0,
        }
    }

    /// Lane `v` of port `p`.
    fn lane(p: u32, v: u32) -> u128 {
        1 << (p * 3 + v)
    }

    #[test]
    fn at_least_one_free_lane_everywhere_or_one_channel_all_free() {
        let mut a = torus();
        // NIC 0 at (0, 0) to NIC 5 at (1, 1): useful outputs x+ (port 0) and y+ (port 2)
        assert!(a.allows(0, 5), "all free");
        a.held[0] = lane(0, 0) | lane(0, 1) | lane(0, 2);
        assert!(a.allows(0, 5), "x+ full, but y+ has all its lanes free");
        a.held[0] |= lane(2, 0);
        assert!(
            !a.allows(0, 5),
            "x+ has none free and no channel is all free"
        );
        a.held[0] = lane(0, 1) | lane(2, 2);
        assert!(a.allows(0, 5), "one free lane on every useful channel");
        // a lane of a useless channel (x-, port 1) does not matter
        a.held[0] = lane(0, 0) | lane(0, 1) | lane(0, 2) | lane(2, 0) | lane(1, 0);
        assert!(!a.allows(0, 5));
        a.held[0] = lane(1, 0) | lane(1, 1) | lane(1, 2) | lane(3, 0);
        assert!(a.allows(0, 5), "x- and y- are not useful towards (1, 1)");
    }

    #[test]
    fn both_ways_round_a_ring_are_useful_when_equally_long() {
        let mut a = torus();
        // NIC 0 to NIC 2 at (2, 0): x+ and x- are both minimal
        a.held[0] = lane(0, 0) | lane(0, 1) | lane(0, 2);
        assert!(a.allows(0, 2), "x- has all its lanes free");
        a.held[0] |= lane(1, 2);
        assert!(!a.allows(0, 2));
        // NIC 0 to NIC 1 at (1, 0): x+ only
        a.held[0] = lane(0, 0) | lane(0, 1);
        assert!(a.allows(0, 1));
        a.held[0] |= lane(0, 2);
        assert!(!a.allows(0, 1));
    }

    #[test]
    fn the_head_of_the_round_robin_is_judged_unless_bypass() {
        let mut a = torus();
        a.held[0] = lane(0, 0) | lane(0, 1) | lane(0, 2);
        let q: VecDeque<u32> = [1, 4].into_iter().collect(); // x+ blocked, then y+ open
        assert!(!a.may_start(0, 0, &q));
        assert!(a.nic_congested(0));
        a.bypass = true;
        assert!(a.may_start(0, 0, &q));
        assert!(!a.eligible(0, 1, 0) && a.eligible(0, 4, 0));
        assert_eq!(a.counters(), vec![("refusals", 1)]);
    }
}
