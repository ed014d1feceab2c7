//! Channel-dependency graphs for the routing tests: a node per channel (or lane), an edge
//! to each channel a packet may hold next.

use std::collections::HashMap;
use std::hash::Hash;

/// True when the graph has no cycle (Kahn's algorithm removes every node). Every node must
/// be a key, with its successors (possibly none).
pub fn acyclic<N: Copy + Eq + Hash>(g: &HashMap<N, Vec<N>>) -> bool {
    let mut indeg: HashMap<N, usize> = g.keys().map(|&k| (k, 0)).collect();
    for outs in g.values() {
        for o in outs {
            *indeg.get_mut(o).expect("every node is a key") += 1;
        }
    }
    let mut ready: Vec<N> = indeg
        .iter()
        .filter(|(_, &d)| d == 0)
        .map(|(&k, _)| k)
        .collect();
    let mut removed = 0;
    while let Some(c) = ready.pop() {
        removed += 1;
        for o in &g[&c] {
            let d = indeg.get_mut(o).expect("every node is a key");
            *d -= 1;
            if *d == 0 {
                ready.push(*o);
            }
        }
    }
    removed == g.len()
}

/// Adds one path's channels `chans` (in the order the packet holds them) to `g`: each a
/// node, each consecutive pair an edge (once).
#[allow(dead_code)] // not every test that includes this module builds graphs from paths
pub fn add_path<N: Copy + Eq + Hash>(g: &mut HashMap<N, Vec<N>>, chans: &[N]) {
    for c in chans {
        g.entry(*c).or_default();
    }
    for w in chans.windows(2) {
        let e = g.get_mut(&w[0]).expect("added above");
        if !e.contains(&w[1]) {
            e.push(w[1]);
        }
    }
}

/// A lane of a channel: `((switch, out_port), lane)`.
#[allow(dead_code)]
pub type LaneChan = ((u32, u32), u32);

/// Under `shortest_rising` (`adaptive` false) or `shortest_adaptive` on `vcs` lanes, the
/// (channel, lane) dependency graph of every lane a packet to NIC `d` may take from the
/// switches `sources(d)` (lane 0 and up from a NIC), for each `d` of `dests`: an edge from
/// each lane a packet may hold to each it may take next. `check(s, d, table, candidates)`
/// sees every head's candidates (`lanes::rising_candidates`) on the way.
#[allow(dead_code)] // not every test that includes this module walks the rising lanes
pub fn rising_cdg(
    t: &pft_sim::net::Topology,
    dests: &[u32],
    sources: impl Fn(u32) -> Vec<u32>,
    vcs: u32,
    adaptive: bool,
    mut check: impl FnMut(u32, u32, u32, &[(u32, u32, u32, bool)]),
) -> HashMap<LaneChan, Vec<LaneChan>> {
    use pft_sim::net::lanes::{rising_candidates, rising_next};
    use pft_sim::net::{NodeId, Peer};
    let sw = t.switches();
    let mut g: HashMap<LaneChan, Vec<LaneChan>> = HashMap::new();
    let mut cand = Vec::new();
    for &d in dests {
        // (the lane held, or none from a NIC; the switch; the lowest lane allowed)
        let mut work: Vec<(Option<LaneChan>, u32, u32)> =
            sources(d).into_iter().map(|s| (None, s, 0)).collect();
        let mut seen = std::collections::HashSet::new();
        while let Some((held, s, first)) = work.pop() {
            if !seen.insert((held, s)) {
                continue;
            }
            let table = t.route(s, NodeId(d));
            rising_candidates(t, s, table, NodeId(d), first, vcs, adaptive, &mut cand);
            check(s, d, table, &cand);
            for &(p, lo, hi, _) in &cand {
                let Peer::Switch { switch: m, .. } = sw[s as usize].ports[p as usize] else {
                    continue;
                };
                for l in lo..hi {
                    let next = ((s, p), l);
                    g.entry(next).or_default();
                    if let Some(h) = held {
                        g.entry(h).or_default().push(next);
                    }
                    work.push((Some(next), m, rising_next(l)));
                }
            }
        }
    }
    g
}
