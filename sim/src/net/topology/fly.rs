//! k-ary n-flies: the unidirectional butterfly of BookSim's `KNFly`, `n` stages of `k x k`
//! switches. A NIC injects into stage 0 and ejects from stage `n - 1`, so its two links end
//! on different switches (`Topology::attach` and `Topology::eject`).
//!
//! Switch `(i, w)` (stage `i`; `w` an `n-1`-digit word in base `k`). Output port `j` of a
//! switch of stage `i < n - 1` leads to switch `(i + 1, w with digit n-2-i = j)`, arriving
//! at its input port `w_(n-2-i)`; output port `j` of the last stage to NIC `w*k + j`. NIC `s`
//! injects at switch `(0, s / k)`, input port `s % k`.
//!
//! Routing to NIC `d` (destination tag): stage `i` sends on port `d_(n-1-i)`, digit
//! `n-1-i` of `d`. After stage `i` the word's digits `n-2 .. n-2-i` are `d`'s top digits, so
//! the last stage is switch `d / k` and its port `d % k` is `d`: one path per pair, `n`
//! switches long, and no cycle of channel dependencies (every hop goes one stage on).
//!
//! `hosts` < k^n (a multiple of k^(n-1)) keeps NICs `0 .. hosts` and the switches their
//! paths use: the words whose top digit is below `m = hosts / k^(n-1)`, `hosts / k` per stage.
//! Stage 0's output ports `m ..` lead to no switch (unused). The seed 004's "4-ary 5-fly
//! (512 hosts and 640 switches)" is `k = 4, n = 5, hosts = 512`: 5 stages of 128.

use super::cube::{digit, with_digit};
use super::rule::Rule;
use super::{Peer, SwitchSpec, Topology};
use crate::net::types::NodeId;

/// A `k`-ary `n`-fly with NICs `0 .. hosts` (validated: a multiple of k^(n-1), at most k^n).
pub(super) fn build(k: u32, n: u32, hosts: u32) -> Topology {
    let per = hosts.div_ceil(k); // switches per stage
    let id = |i: u32, w: u32| i * per + w;
    let mut switches = Vec::with_capacity((n * per) as usize);
    for i in 0..n {
        for w in 0..per {
            let ports = (0..k)
                .map(|j| {
                    if i + 1 == n {
                        if w * k + j < hosts {
                            Peer::Nic(NodeId(w * k + j))
                        } else {
                            Peer::Unused
                        }
                    } else {
                        let next = with_digit(w, k, n - 2 - i, j);
                        if next < per {
                            Peer::Switch {
                                switch: id(i + 1, next),
                                port: digit(w, k, n - 2 - i),
                            }
                        } else {
                            Peer::Unused
                        }
                    }
                })
                .collect();
            switches.push(SwitchSpec {
                radix: k,
                level: i as u8,
                name: format!("stage {i} switch {w}"),
                ports,
            });
        }
    }
    let rule = Rule::Fly { k, n, per };
    let route = rule.table(switches.len() as u32, hosts);
    let last = id(n - 1, 0);
    let full = if hosts == k.pow(n) {
        String::new()
    } else {
        format!(" (NICs 0..{hosts} of {})", k.pow(n))
    };
    Topology {
        nodes: hosts,
        attach: (0..hosts).map(|s| (s / k, s % k)).collect(),
        eject: (0..hosts).map(|d| (last + d / k, d % k)).collect(),
        hops: Vec::new(),
        delays: None,
        description: format!(
            "{k}-ary {n}-fly{full}: {hosts} NICs, {n} stages of {per} switches of {k} x {k} ports ({} switches), destination-tag routing, NICs inject at stage 0 and eject at stage {}",
            n * per,
            n - 1
        ),
        switches,
        route,
        rule: Some(rule),
    }
}
