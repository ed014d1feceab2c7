//! k-ary n-trees: the bidirectional multistage network of BookSim's `FatTree` (Petrini and
//! Vanneschi), `k^n` NICs on `n` levels of `k^(n-1)` switches.
//!
//! Switch `(l, w)` (level `l`, 0 at the NICs; `w` an `n-1`-digit word in base `k`) serves the
//! NICs whose digits `l+1 ..` equal `w`'s digits `l ..`; `w`'s lower digits say which of the
//! `k^l` copies it is. Down port `c < k` leads to switch `(l-1, w with digit l-1 = c)` (at
//! level 0: NIC `w*k + c`); up port `k + j` to switch `(l+1, w with digit l = j)`, arriving at
//! its down port `w_l`. Top switches have the `k` down ports only.
//!
//! Routing to NIC `d`: down on port `d_l` (digit `l` of `d`) when `d` is below, else up on port
//! `k + d_l`: destination-mod-k, so a destination's packets climb to the same top switches and
//! every down link carries one destination's traffic. Up then down (up*/down*): no cycle of
//! channel dependencies with one lane.

use super::cube::{digit, with_digit};
use super::{Peer, SwitchSpec, Topology};
use crate::net::types::NodeId;

/// A `k`-ary `n`-tree.
pub(super) fn build(k: u32, n: u32) -> Topology {
    let nodes = k.pow(n);
    let per = k.pow(n - 1);
    let id = |l: u32, w: u32| l * per + w;
    let mut switches = Vec::with_capacity((n * per) as usize);
    for l in 0..n {
        for w in 0..per {
            let top = l + 1 == n;
            let mut ports = Vec::with_capacity(2 * k as usize);
            for c in 0..k {
                ports.push(if l == 0 {
                    Peer::Nic(NodeId(w * k + c))
                } else {
                    Peer::Switch {
                        switch: id(l - 1, with_digit(w, k, l - 1, c)),
                        port: k + digit(w, k, l - 1),
                    }
                });
            }
            if !top {
                for j in 0..k {
                    ports.push(Peer::Switch {
                        switch: id(l + 1, with_digit(w, k, l, j)),
                        port: digit(w, k, l),
                    });
                }
            }
            switches.push(SwitchSpec {
                radix: ports.len() as u32,
                level: l as u8,
                name: format!("level {l} switch {w}"),
                ports,
            });
        }
    }
    let mut route = vec![u8::MAX; switches.len() * nodes as usize];
    for l in 0..n {
        for w in 0..per {
            for d in 0..nodes {
                let below = d / k.pow(l + 1) == w / k.pow(l);
                let dl = digit(d, k, l);
                route[(id(l, w) * nodes + d) as usize] = if below { dl } else { k + dl } as u8;
            }
        }
    }
    Topology {
        nodes,
        attach: (0..nodes).map(|d| (d / k, d % k)).collect(),
        eject: (0..nodes).map(|d| (d / k, d % k)).collect(),
        description: format!(
            "{k}-ary {n}-tree: {nodes} NICs, {n} levels of {per} switches ({} ports; {k} at the top), destination-mod-k up*/down* routing",
            2 * k
        ),
        switches,
        route,
    }
}
