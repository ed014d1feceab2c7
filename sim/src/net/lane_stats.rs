//! What the lanes of a router hold and carry, by class: Duato's escape lanes (on a torus
//! or mesh, and `shortest_updown`'s on a file topology) against its adaptive ones,
//! Disha's deadlock buffers against the adaptive lanes, and Disha's token. Issue 41 asks
//! why seed 003's router loses throughput past saturation; these are the numbers that say
//! where the flits are.
//!
//! - `series.csv` columns (`lane_probes`, sampled at each bin's last cycle): flits held in
//!   switch-to-switch input lanes by class and, for Disha, the token's state.
//! - `cc_counters` (`lane_counters`, whole run): flits sent over switch-to-switch links by
//!   the class of the lane they took, and on a torus those of them that went the long way
//!   round a ring (a detour: each adds two hops to the packet's minimal path). Their sum
//!   over the data flits delivered is the router-to-router hops per flit.
//!
//! Only `duato` and `disha` on a torus or mesh and `shortest_updown` on a file topology
//! have them; every other network's outputs are unchanged.

use super::config::Routing;
use super::network::Network;
use super::scheme::Scheme;
use super::store::{PktId, PortId, SwitchId};
use super::topology::cube;

/// The `series.csv` columns this module may add (`cc_probes.svg` leaves them out: they
/// are the network's, not the scheme's).
pub const LANE_PROBES: [&str; 5] = [
    "escape_lane_flits",
    "adaptive_lane_flits",
    "disha_recoveries",
    "token_held_cycles",
    "presumed_deadlocked",
];

impl<S: Scheme> Network<S> {
    /// Duato's escape lanes per port (lanes `0..n` of each class; `shortest_updown`'s lane
    /// 0), Disha's deadlock buffer (`None` when none of them routes this network).
    fn lane_classes(&self) -> Option<LaneClasses> {
        let rt = self.sw.router?;
        match rt.routing {
            Routing::Duato => Some(LaneClasses::Escape(if rt.one_escape || !rt.wrap {
                1
            } else {
                2
            })),
            Routing::ShortestUpdown => Some(LaneClasses::Escape(1)),
            Routing::Disha => Some(LaneClasses::Disha),
            _ => None,
        }
    }

    /// Whether lane `c` of a port is in the escape class (Duato) or the deadlock buffer
    /// (Disha).
    fn special_lane(&self, classes: LaneClasses, c: u32) -> bool {
        match classes {
            LaneClasses::Escape(n) => {
                // with `ack_vcs`, the ACKs' class has escape lanes of its own
                let ack = self.sw.router.map_or(0, |r| r.ack_vcs);
                let data = self.sw.vcs - ack;
                if ack > 0 && c >= data {
                    c - data < n
                } else {
                    c < n
                }
            }
            LaneClasses::Disha => c == self.sw.vcs - 1,
        }
    }

    /// A flit of packet `pkt` left switch `si` through its output lane `bo`: counted by
    /// lane when it goes to another switch (a NIC's port uses lane 0 only), and as a detour
    /// when the hop takes it farther from its destination on the torus (Duato's one escape
    /// lane goes the long way round where the short way crosses a wrap link).
    #[inline(always)]
    pub(crate) fn count_hop(&mut self, si: SwitchId, bo: PortId, pkt: PktId) {
        if !self.sw.hop_flits.is_empty() {
            self.count_hop_in(si, bo, pkt);
        }
    }

    /// `count_hop` where hops are counted (Duato's, Disha's and up*/down*'s routings), out
    /// of line: its divisions, inlined in the flit move, cost every other network's move
    /// registers it does not use.
    #[inline(never)]
    fn count_hop_in(&mut self, si: SwitchId, bo: PortId, pkt: PktId) {
        let v = self.sw.vcs;
        let st = &self.sw.sw[si];
        let o = st.local(bo);
        if st.used_mask >> (o - o % v + 1) & 1 == 0 {
            return;
        }
        let lane = (o % v) as usize;
        if self.par_on {
            let log = super::pool::log();
            if log.hops.len() <= lane {
                log.hops.resize(lane + 1, 0);
            }
            log.hops[lane] += 1;
        } else {
            self.sw.hop_flits[lane] += 1;
        }
        let rt = self.sw.router.expect("a lane router has its routing");
        if rt.wrap {
            let (k, p) = (rt.k, o / v);
            let (x, y) = (
                cube::digit(si.0, k, p / 2),
                cube::digit(self.packets[pkt].dst, k, p / 2),
            );
            let f = (y + k - x) % k;
            // the way round the ring this hop takes is the longer one
            if (p % 2 == 0 && 2 * f > k) || (p % 2 == 1 && 2 * f < k) {
                if self.par_on {
                    super::pool::log().detours += 1;
                } else {
                    self.sw.detour_flits += 1;
                }
            }
        }
    }

    /// The `series.csv` columns of the lanes now (empty unless `duato`, `disha` or
    /// `shortest_updown`): flits held in switch-to-switch input lanes, by class.
    pub fn lane_probes(&self) -> Vec<(&'static str, f64)> {
        let Some(classes) = self.lane_classes() else {
            return Vec::new();
        };
        let v = self.sw.vcs;
        let (mut special, mut adaptive) = (0u64, 0u64);
        let mut presumed = 0u64;
        let timeout = self.disha.as_deref().map_or(u64::MAX, |d| d.timeout);
        for st in self.sw.sw.items.iter() {
            for i in 0..st.radix {
                if st.used_mask >> (i - i % v + 1) & 1 == 0 {
                    continue; // a NIC's port, or no link
                }
                let g = st.port(i);
                let occ = self.sw.inp[g].occ as u64;
                if self.special_lane(classes, i % v) {
                    special += occ;
                } else {
                    adaptive += occ;
                }
                // a head without an output lane that has waited out Disha's time-out
                if st.queued >> i & 1 != 0
                    && st.locked_in >> i & 1 == 0
                    && self.now - self.sw.inp[g].moved_at >= timeout
                {
                    presumed += 1;
                }
            }
        }
        match (classes, self.disha.as_deref()) {
            (LaneClasses::Disha, Some(d)) => vec![
                ("adaptive_lane_flits", adaptive as f64),
                ("disha_recoveries", d.recoveries as f64),
                ("token_held_cycles", d.held_cycles as f64),
                ("presumed_deadlocked", presumed as f64),
            ],
            _ => vec![
                ("escape_lane_flits", special as f64),
                ("adaptive_lane_flits", adaptive as f64),
            ],
        }
    }

    /// The `cc_counters` of the lanes over the whole run (empty unless `duato`, `disha` or
    /// `shortest_updown`): flits sent switch to switch on escape lanes (Duato,
    /// `shortest_updown`) or deadlock buffers (Disha), and on adaptive lanes.
    pub fn lane_counters(&self) -> Vec<(&'static str, u64)> {
        let Some(classes) = self.lane_classes() else {
            return Vec::new();
        };
        let (mut special, mut adaptive) = (0, 0);
        for (c, &n) in self.sw.hop_flits.iter().enumerate() {
            if self.special_lane(classes, c as u32) {
                special += n;
            } else {
                adaptive += n;
            }
        }
        let name = match classes {
            LaneClasses::Escape(_) => "escape_hop_flits",
            LaneClasses::Disha => "recovery_hop_flits",
        };
        let mut c = vec![(name, special), ("adaptive_hop_flits", adaptive)];
        if self.sw.router.is_some_and(|rt| rt.wrap) {
            c.push(("detour_hop_flits", self.sw.detour_flits));
        }
        c
    }
}

/// How a torus router's lanes divide.
#[derive(Clone, Copy)]
enum LaneClasses {
    /// Duato: lanes `0..n` of a port are the escape lanes.
    Escape(u32),
    /// Disha: the top lane of a port is the deadlock buffer.
    Disha,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::config::{NetConfig, TopologyConfig};
    use crate::net::scheme::Plain;
    use crate::net::source::{BernoulliSource, Pattern};
    use crate::net::topology::cube;

    /// Once the network has drained, the hop counters add up to each delivered packet's
    /// flits times its minimal distance, plus two per detour hop: a hop counted on a NIC's
    /// port, twice, or not at all breaks the sum. Duato's dateline escape pair, Disha's
    /// adaptive lanes and its recovery path are minimal (no detour); Duato's one escape
    /// lane is not.
    #[test]
    fn hop_counters_add_up_to_the_minimal_paths() {
        // Disha with one adaptive lane, so that it deadlocks and recovers; Duato with one
        // escape lane, whose detours add two hops each
        for (routing, vcs, escape) in [
            (Routing::Duato, 3, Some(2)),
            (Routing::Disha, 1, None),
            (Routing::Duato, 3, Some(1)),
        ] {
            let (k, n) = (4, 2);
            let cfg = NetConfig {
                topology: TopologyConfig::Torus { k, n },
                vcs: Some(vcs),
                vc_buf_flits: Some(4),
                routing: Some(routing),
                escape_lanes: escape,
                mtu_bytes: 16 * 64,
                link_latency_cycles: 1,
                credit_latency_cycles: 1,
                switch_latency_cycles: 1,
                check: true,
                ..NetConfig::default()
            };
            let mut net = Plain::network(&cfg);
            let mut w = BernoulliSource::new(net.nodes(), Pattern::Uniform, 0.9, 16 * 64, 64, 9)
                .logged()
                .until(4_000);
            let mut probes = Vec::new();
            while net.now() < 4_000 || !net.is_idle() {
                net.step(&mut w).unwrap();
                if net.now().is_multiple_of(250) {
                    let held: f64 = (net.lane_probes().iter())
                        .filter(|(name, _)| name.ends_with("_lane_flits"))
                        .map(|p| p.1)
                        .sum();
                    probes.push((held, net.flits_in_network() as f64));
                }
                assert!(net.now() < 200_000, "{routing:?}: no drain");
            }
            let log = w.log.as_ref().unwrap();
            let want: u64 = log
                .iter()
                .map(|d| {
                    let (a, b) = (d.msg.src.0, d.msg.dst.0);
                    let hops: u32 = (0..n)
                        .map(|i| {
                            let (x, y) = (cube::digit(a, k, i), cube::digit(b, k, i));
                            ((y + k - x) % k).min((x + k - y) % k)
                        })
                        .sum();
                    u64::from(hops) * u64::from(d.msg.bytes.div_ceil(64))
                })
                .sum();
            let got = net.lane_counters();
            assert_eq!(got.len(), 3, "{routing:?}: {got:?}");
            let detours = got[2].1;
            assert_eq!(
                got[0].1 + got[1].1,
                want + 2 * detours,
                "{routing:?}: {got:?}"
            );
            assert_eq!(
                detours > 0,
                escape == Some(1),
                "{routing:?} {escape:?}: {got:?}"
            );
            assert!(
                got[0].1 > 0 && got[1].1 > 0,
                "{routing:?}: both classes carry flits: {got:?}"
            );
            // the lanes hold flits under load, never more than the network holds
            assert!(probes.iter().all(|(held, all)| held <= all), "{probes:?}");
            assert!(probes.iter().any(|(held, _)| *held > 0.0), "{probes:?}");
            if routing == Routing::Disha {
                let d = net.disha.as_deref().unwrap();
                assert!(
                    d.recoveries > 0 && d.held_cycles >= d.recoveries,
                    "{}",
                    d.recoveries
                );
            }
        }
    }

    /// Networks without Duato or Disha report nothing (their outputs stay as they were).
    #[test]
    fn other_routings_have_no_lane_columns() {
        let cfg = NetConfig {
            topology: TopologyConfig::Torus { k: 4, n: 2 },
            vcs: Some(2),
            vc_buf_flits: Some(4),
            routing: Some(Routing::Dor),
            mtu_bytes: 16 * 64,
            ..NetConfig::default()
        };
        let net = Plain::network(&cfg);
        assert!(net.lane_probes().is_empty() && net.lane_counters().is_empty());
        assert!(net.sw.hop_flits.is_empty());
    }
}
