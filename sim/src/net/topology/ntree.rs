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
//! channel dependencies with one lane. A packet turns around at the lowest level whose
//! switches serve both ends (the nearest common ancestor).
//!
//! `hosts = m * k^(n-1)` (`m` in 2..=k dividing `k`) keeps NICs `0 .. hosts`: the words whose
//! top digit is below `m`, `hosts / k` switches per level. A top switch of the full tree
//! would use `m` of its `k` down ports, so groups of `g = k / m` of them (top digit `a*g + b`,
//! `b < g`) are one switch `(n-1, w with top digit a)` of `k` down ports: port `b*m + c`
//! leads to switch `(n-2, w with top digit c)`, arriving at its up port `k + a*g + b`. Routes
//! to `d` leave it on port `(d_(n-2) mod g) * m + d_(n-1)`, the link the full tree's routing
//! uses, so the `g` parts of a merged switch carry disjoint traffic. Seed 004's bidirectional
//! "4-ary 5-fly (512 hosts and 640 switches)" is `k = 4, n = 5, hosts = 512`: 5 levels of
//! 128 switches, 8 ports below the top and 4 at it.

use super::cube::{digit, with_digit};
use super::rule::Rule;
use super::{Peer, SwitchSpec, Topology};
use crate::net::types::NodeId;

/// A `k`-ary `n`-tree with NICs `0 .. hosts` (validated: `hosts = k^n`, or `m * k^(n-1)` with
/// `n >= 2` and `m` in 2..=k dividing `k`).
pub(super) fn build(k: u32, n: u32, hosts: u32) -> Topology {
    let nodes = hosts;
    let per = hosts / k; // switches per level
    let m = if n == 1 { k } else { hosts / k.pow(n - 1) }; // values of the top digit
    let g = k / m; // full-tree top switches per merged one
    let id = |l: u32, w: u32| l * per + w;
    let mut switches = Vec::with_capacity((n * per) as usize);
    for l in 0..n {
        for w in 0..per {
            let top = l + 1 == n;
            let mut ports = Vec::with_capacity(2 * k as usize);
            for p in 0..k {
                ports.push(if l == 0 {
                    Peer::Nic(NodeId(w * k + p))
                } else if top {
                    // port b*m + c: the merged part b's link to the switch with top digit c
                    let (b, c) = (p / m, p % m);
                    Peer::Switch {
                        switch: id(l - 1, with_digit(w, k, l - 1, c)),
                        port: k + digit(w, k, l - 1) * g + b,
                    }
                } else {
                    Peer::Switch {
                        switch: id(l - 1, with_digit(w, k, l - 1, p)),
                        port: k + digit(w, k, l - 1),
                    }
                });
            }
            if !top {
                for j in 0..k {
                    ports.push(if l + 2 == n {
                        // up to the merged top switch: part j mod g of top digit j / g
                        Peer::Switch {
                            switch: id(l + 1, with_digit(w, k, l, j / g)),
                            port: (j % g) * m + digit(w, k, l),
                        }
                    } else {
                        Peer::Switch {
                            switch: id(l + 1, with_digit(w, k, l, j)),
                            port: digit(w, k, l),
                        }
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
    let rule = Rule::Ntree { k, n, per, m, g };
    let route = rule.table(switches.len() as u32, nodes);
    let part = if hosts == k.pow(n) {
        String::new()
    } else {
        format!(
            " (NICs 0..{hosts} of {}; each top switch merges {g} of the full tree's)",
            k.pow(n)
        )
    };
    Topology {
        nodes,
        attach: (0..nodes).map(|d| (d / k, d % k)).collect(),
        eject: (0..nodes).map(|d| (d / k, d % k)).collect(),
        hops: Vec::new(),
        delays: None,
        description: format!(
            "{k}-ary {n}-tree{part}: {nodes} NICs, {n} levels of {per} switches ({} ports; {k} at the top), destination-mod-k up*/down* routing",
            2 * k
        ),
        switches,
        route,
        rule: Some(rule),
    }
}
