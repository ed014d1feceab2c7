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
