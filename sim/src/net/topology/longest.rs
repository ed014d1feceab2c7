//! The longest routed path of a topology, in switches, over every pair of NICs.
//!
//! The route out of a switch depends on the switch and the destination only, so every NIC
//! of a switch follows one path to a destination from its first hop on, and the walks to
//! one destination share their tails. One walk per (switch, destination), each switch's
//! length kept for the walks that reach it: switches x NICs steps in all, where a walk
//! per NIC pair (`path` over all pairs) took NICs^2 x path length (29 s on the 16,512-NIC
//! dragonfly before `pftsim check` could refuse a scheme). A cube's is known without a walk.

use super::rule::Rule;
use super::{Peer, Topology};
use crate::net::types::NodeId;

/// Not yet walked to this destination.
const UNKNOWN: u32 = u32::MAX;
/// On the walk in progress (reached again: a routing loop).
const WALKING: u32 = u32::MAX - 1;
/// Destinations walked at once.
const BLOCK: usize = 64;
/// No path: no route, a wrong NIC, an unused port or a loop (`path` fails).
const NONE: u32 = 0;

impl Topology {
    /// Switches on the longest routed path over all pairs of distinct NICs, as `path` walks
    /// them; a pair with no path counts 0 (a valid network has none: its build checks
    /// every pair).
    pub fn longest_path(&self) -> u32 {
        match self.rule {
            Some(Rule::Cube { k, n, wrap }) => {
                // dimension order: each dimension's longest leg (half a ring on a torus,
                // the plus way at a tie), all of them on one path, and the first router
                return n * if wrap { k / 2 } else { k - 1 } + 1;
            }
            Some(Rule::Dragonfly(s)) => {
                // minimal: local to the router holding the link to the destination's
                // group, global, local; each local hop is there for some pair when a
                // group has two routers or more
                let local = (s.a >= 2) as u32;
                return if s.g >= 2 { 2 + 2 * local } else { 1 + local };
            }
            _ => {}
        }
        let switches = self.switches.len();
        // the switches NICs inject into, and how many NICs each
        let mut nics = vec![0u32; switches];
        for &(s, _) in &self.attach {
            nics[s as usize] += 1;
        }
        let sources: Vec<u32> = (0..switches as u32)
            .filter(|&s| nics[s as usize] > 0)
            .collect();
        // destinations in blocks: the table's row of a switch for a block is one cache
        // line (a destination at a time read a line per switch: 20 s on a 100 x 100 mesh)
        let mut len = vec![UNKNOWN; switches * BLOCK];
        let mut walk = Vec::new();
        let mut most = 0;
        for d0 in (0..self.nodes).step_by(BLOCK) {
            len.fill(UNKNOWN);
            let block = d0..self.nodes.min(d0 + BLOCK as u32);
            for &s in &sources {
                for d in block.clone().map(NodeId) {
                    // a pair needs a source other than d itself
                    if s == self.attach(d).0 && nics[s as usize] == 1 {
                        continue;
                    }
                    let j = (d.0 - d0) as usize;
                    most = most.max(self.walk_len(s, d, &mut len[j..], &mut walk));
                }
            }
        }
        most
    }

    /// Switches from switch `s` to NIC `d` (NONE: no path), each switch passed remembered
    /// in `len[switch * BLOCK]`; `walk` is scratch.
    fn walk_len(&self, s: u32, d: NodeId, len: &mut [u32], walk: &mut Vec<u32>) -> u32 {
        walk.clear();
        let mut at = s;
        // the switches after the walk's last (0: it ejects to d); None: no path
        let tail = loop {
            match len[at as usize * BLOCK] {
                UNKNOWN => {}
                WALKING | NONE => break None,
                n => break Some(n),
            }
            len[at as usize * BLOCK] = WALKING;
            walk.push(at);
            let sw = &self.switches[at as usize];
            let out = self.route(at, d);
            if out >= sw.radix {
                break None;
            }
            match sw.ports[out as usize] {
                Peer::Nic(n) if n == d => break Some(0),
                Peer::Nic(_) | Peer::Unused => break None,
                Peer::Switch { switch, .. } => at = switch,
            }
        };
        let mut n = tail;
        for &w in walk.iter().rev() {
            n = n.map(|n| n + 1);
            len[w as usize * BLOCK] = n.unwrap_or(NONE);
        }
        len[s as usize * BLOCK]
    }
}
