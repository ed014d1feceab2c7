//! k-ary n-cubes: tori (`wrap`) and meshes, one NIC per router, with dimension-order
//! routing (DOR).
//!
//! Router `r` has coordinates `r = sum(x_d * k^d)`, digit 0 first. Ports, as BookSim's
//! `KNCube`: `2d` goes to `x_d + 1` ("plus"), `2d + 1` to `x_d - 1` ("minus"), and `2n` is
//! the NIC; a plus port arrives at the neighbour's minus port. A torus wraps every ring
//! (`k - 1` to `0`); a mesh leaves the edge ports unused.
//!
//! DOR: correct the lowest dimension first, then the next. In a torus a packet takes the
//! shorter way round each ring; when both are equally long (`k` even, `k/2` apart) it goes
//! plus. BookSim breaks that tie at random per packet; a routing table has one answer per
//! (router, destination), and plus keeps the choice the same along the ring, so the path
//! stays minimal.

use super::rule::Rule;
use super::{Peer, SwitchSpec, Topology};
use crate::net::types::NodeId;

/// Digit `d` of `r` in base `k`.
pub fn digit(r: u32, k: u32, d: u32) -> u32 {
    (r / k.pow(d)) % k
}

/// `r` with digit `d` set to `v`.
pub fn with_digit(r: u32, k: u32, d: u32, v: u32) -> u32 {
    r - digit(r, k, d) * k.pow(d) + v * k.pow(d)
}

/// The output port of router `r` towards router `dst` under DOR (`2n`: eject). (Digit by
/// digit with one division each, no powers: a head's route at every router.)
pub fn dor_port(r: u32, dst: u32, k: u32, n: u32, wrap: bool) -> u32 {
    dor_step(r, dst, k, n, wrap).0
}

/// `dor_port`, with the digits of `r` and `dst` in the port's dimension (0, 0 to eject), so
/// that a caller needs no more divisions for them.
#[inline]
pub fn dor_step(r: u32, dst: u32, k: u32, n: u32, wrap: bool) -> (u32, u32, u32) {
    let (mut a, mut b) = (r, dst);
    for d in 0..n {
        let (x, y) = (a % k, b % k);
        (a, b) = (a / k, b / k);
        if x == y {
            continue;
        }
        let plus = if wrap {
            2 * ring_gap(x, y, k) <= k
        } else {
            y > x
        };
        return (if plus { 2 * d } else { 2 * d + 1 }, x, y);
    }
    (2 * n, 0, 0)
}

/// `(y - x) mod k` for digits `x`, `y` < `k`, by compare: the hops from `x` to `y` the plus
/// way round a ring.
#[inline]
pub fn ring_gap(x: u32, y: u32, k: u32) -> u32 {
    if y >= x {
        y - x
    } else {
        y + k - x
    }
}

/// A `k`-ary `n`-cube of `2n + 1`-port routers (a torus if `wrap`, else a mesh).
pub(super) fn build(k: u32, n: u32, wrap: bool) -> Topology {
    let nodes = k.pow(n);
    let radix = 2 * n + 1;
    let coords = |r: u32| {
        (0..n)
            .map(|d| digit(r, k, d).to_string())
            .collect::<Vec<_>>()
            .join(",")
    };
    let switches: Vec<SwitchSpec> = (0..nodes)
        .map(|r| {
            let mut ports = Vec::with_capacity(radix as usize);
            for d in 0..n {
                let x = digit(r, k, d);
                ports.push(if wrap || x + 1 < k {
                    Peer::Switch {
                        switch: with_digit(r, k, d, (x + 1) % k),
                        port: 2 * d + 1,
                    }
                } else {
                    Peer::Unused
                });
                ports.push(if wrap || x > 0 {
                    Peer::Switch {
                        switch: with_digit(r, k, d, (x + k - 1) % k),
                        port: 2 * d,
                    }
                } else {
                    Peer::Unused
                });
            }
            ports.push(Peer::Nic(NodeId(r)));
            SwitchSpec {
                radix,
                level: 0,
                name: format!("router ({})", coords(r)),
                ports,
            }
        })
        .collect();
    let rule = Rule::Cube { k, n, wrap };
    let route = rule.table(nodes, nodes);
    let kind = if wrap { "torus" } else { "mesh" };
    Topology {
        nodes,
        switches,
        attach: (0..nodes).map(|r| (r, 2 * n)).collect(),
        eject: (0..nodes).map(|r| (r, 2 * n)).collect(),
        route,
        rule: Some(rule),
        hops: Vec::new(),
        delays: None,
        description: format!(
            "{k}-ary {n}-cube {kind}: {nodes} routers of {radix} ports, one NIC each, dimension-order routing"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `dor_port` is the rule as first written (digits by powers, the ring distance by
    /// remainder), for every pair of routers of small tori and meshes, and `dor_step`'s
    /// digits are those of the port's dimension.
    #[test]
    fn dor_port_is_the_rule_by_digits() {
        let rule = |r: u32, dst: u32, k: u32, n: u32, wrap: bool| {
            for d in 0..n {
                let (x, y) = (digit(r, k, d), digit(dst, k, d));
                if x == y {
                    continue;
                }
                let plus = if wrap {
                    2 * ((y + k - x) % k) <= k
                } else {
                    y > x
                };
                return if plus { 2 * d } else { 2 * d + 1 };
            }
            2 * n
        };
        for (k, n) in [
            (2u32, 1u32),
            (3, 2),
            (4, 2),
            (5, 3),
            (8, 2),
            (16, 2),
            (4, 4),
        ] {
            for wrap in [true, false] {
                for r in 0..k.pow(n) {
                    for dst in 0..k.pow(n) {
                        let p = rule(r, dst, k, n, wrap);
                        let digits = if p == 2 * n {
                            (0, 0)
                        } else {
                            (digit(r, k, p / 2), digit(dst, k, p / 2))
                        };
                        assert_eq!(
                            dor_step(r, dst, k, n, wrap),
                            (p, digits.0, digits.1),
                            "{k}-ary {n}-cube, wrap {wrap}: {r} -> {dst}"
                        );
                        assert_eq!(dor_port(r, dst, k, n, wrap), p);
                    }
                }
            }
        }
    }
}
