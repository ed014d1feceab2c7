//! The routing rule of a built-in topology, and when its table is kept.
//!
//! Every built-in kind routes by a rule of (switch, destination NIC): dimension order on a
//! cube, destination-mod-k on a k-ary n-tree, destination tag on a k-ary n-fly, minimal on a
//! dragonfly. A table of one byte per (switch, NIC) answers a head's route with one load,
//! but grows with switches x NICs: 268 MB and 11 s of build for a 128 x 128 torus. So the
//! table is kept only up to `TABLE_MAX` entries (every network of the shipped scenarios,
//! the 16-ary 2-cube, the 1,056-NIC dragonfly); above, `Topology::route` asks the rule,
//! which costs a few divisions per head and nothing per NIC. A file topology has no rule
//! (its routes come from searches over its graph): its table is always built.

use super::cube::{digit, dor_port};
use super::dragonfly::Shape;

/// Most entries (bytes) of a built-in topology's routing table; above it the rule routes.
pub const TABLE_MAX: u64 = 1 << 24;

/// A built-in kind's routing rule (`port`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Rule {
    /// Dimension order on a `k`-ary `n`-cube (`cube`), a torus if `wrap`.
    Cube { k: u32, n: u32, wrap: bool },
    /// Destination-mod-k on a `k`-ary `n`-tree of `per` switches a level whose top digit
    /// takes `m` values, `g = k / m` full-tree top switches merged into one (`ntree`).
    Ntree {
        k: u32,
        n: u32,
        per: u32,
        m: u32,
        g: u32,
    },
    /// Destination tag on a `k`-ary `n`-fly of `per` switches a stage (`fly`).
    Fly { k: u32, n: u32, per: u32 },
    /// Minimal routing on a dragonfly (`dragonfly`).
    Dragonfly(Shape),
}

impl Rule {
    /// The output port of switch `s` towards NIC `d`.
    pub(super) fn port(&self, s: u32, d: u32) -> u32 {
        match *self {
            Rule::Cube { k, n, wrap } => dor_port(s, d, k, n, wrap),
            Rule::Ntree { k, n, per, m, g } => {
                let (l, w) = (s / per, s % per);
                let dl = digit(d, k, l);
                if l + 1 == n && g > 1 {
                    // a merged top switch: the part the full tree's routing uses
                    (digit(d, k, l - 1) % g) * m + dl
                } else if d / k.pow(l + 1) == w / k.pow(l) {
                    dl
                } else {
                    k + dl
                }
            }
            Rule::Fly { k, n, per } => digit(d, k, n - 1 - s / per),
            Rule::Dragonfly(shape) => shape.min_port(s, d),
        }
    }

    /// The table of `switches` x `nodes` entries, switch after switch, if it has at most
    /// `TABLE_MAX` entries; else empty (the rule routes).
    pub(super) fn table(&self, switches: u32, nodes: u32) -> Vec<u8> {
        if switches as u64 * nodes as u64 > TABLE_MAX {
            return Vec::new();
        }
        if let Rule::Dragonfly(shape) = self {
            return super::dragonfly::route_table(shape);
        }
        (0..switches)
            .flat_map(|s| (0..nodes).map(move |d| self.port(s, d) as u8))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::super::Topology;
    use super::TABLE_MAX;
    use crate::net::config::TopologyConfig as T;
    use crate::net::types::NodeId;

    /// Small networks of every kind with a rule: the rule alone routes every (switch, NIC)
    /// as the table does, and every NIC pair's path is the same.
    #[test]
    fn the_rule_routes_as_the_table() {
        let cfgs = [
            T::Torus { k: 5, n: 2 },
            T::Torus { k: 4, n: 3 },
            T::Mesh { k: 4, n: 3 },
            T::KaryNtree {
                k: 4,
                n: 3,
                hosts: None,
            },
            // merged top switches (g = 2)
            T::KaryNtree {
                k: 4,
                n: 3,
                hosts: Some(32),
            },
            T::KaryNtree {
                k: 3,
                n: 1,
                hosts: None,
            },
            T::KaryNfly {
                k: 3,
                n: 3,
                hosts: None,
            },
            T::KaryNfly {
                k: 4,
                n: 3,
                hosts: Some(32),
            },
            T::Dragonfly {
                p: 2,
                a: 4,
                h: 2,
                g: None,
            },
            T::Dragonfly {
                p: 3,
                a: 5,
                h: 2,
                g: Some(7),
            },
        ];
        for cfg in cfgs {
            let t = Topology::build(&cfg);
            assert!(t.has_table(), "{cfg:?}");
            let r = t.without_table().expect("a built-in kind has a rule");
            assert!(!r.has_table());
            let (sw, nodes) = (t.switches().len() as u32, t.nodes());
            for s in 0..sw {
                for d in NodeId::all(nodes) {
                    assert_eq!(t.route(s, d), r.route(s, d), "{cfg:?}: switch {s} to {d}");
                }
            }
            for a in NodeId::all(nodes) {
                for b in NodeId::all(nodes) {
                    assert_eq!(t.path(a, b), r.path(a, b), "{cfg:?}: {a} to {b}");
                    assert!(t.path(a, b).is_ok(), "{cfg:?}: {a} to {b}");
                }
            }
        }
    }

    /// Above `TABLE_MAX` entries no table is built, and the rule's paths reach their
    /// destinations (a spread of NIC pairs on each of four 16,384-NIC networks and the
    /// 16,512-NIC dragonfly).
    #[test]
    fn large_networks_route_by_the_rule() {
        let cfgs = [
            T::Torus { k: 128, n: 2 },
            T::Mesh { k: 32, n: 3 },
            T::KaryNtree {
                k: 4,
                n: 7,
                hosts: None,
            },
            T::KaryNfly {
                k: 4,
                n: 7,
                hosts: None,
            },
            T::Dragonfly {
                p: 8,
                a: 16,
                h: 8,
                g: None,
            },
        ];
        for cfg in cfgs {
            let t = Topology::build(&cfg);
            let (sw, nodes) = (t.switches().len() as u64, t.nodes());
            assert!(sw * nodes as u64 > TABLE_MAX, "{cfg:?}");
            assert!(!t.has_table(), "{cfg:?}");
            for i in 0..3000u64 {
                let a = NodeId((i * 7919 % nodes as u64) as u32);
                let b = NodeId(((i * 104_729 + 13) % nodes as u64) as u32);
                let p = t
                    .path(a, b)
                    .unwrap_or_else(|e| panic!("{cfg:?}: {a} to {b}: {e}"));
                assert_eq!(p[0].switch, t.attach(a).0);
                assert_eq!(p.last().unwrap().switch, t.eject(b).0);
            }
        }
    }
}
