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
