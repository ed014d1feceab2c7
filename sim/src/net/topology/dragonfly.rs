//! Dragonflies (Kim, Dally, Scott and Abts, ISCA 2008), wired as BookSim 2's `dragonflynew`
//! (`src/networks/dragonfly.cpp`), generalised from its `k` (p = h = k, a = 2k) to any
//! `p`, `a`, `h` and `g`.
//!
//! `g` groups of `a` routers, each router with `p` NICs, `a - 1` local ports (all-to-all
//! inside the group) and `h` global ports. Router `r = group * a + i`; NIC `n` sits on
//! router `n / p`, port `n % p`. Ports of a router: `[0, p)` NICs, `[p, p + a - 1)` local
//! (port `p + j` goes to router `j` of the group if `j < i`, else to router `j + 1`: the
//! router's own index is skipped), `[p + a - 1, p + a - 1 + h)` global.
//!
//! Global links: group `G` numbers its `a * h` global links `k = i * h + c` (router `i`,
//! global port `c`); link `k` goes to group `k` if `k < G`, else to group `k + 1` (its own
//! number is skipped), so groups `G` and `T` share exactly one link, and the groups of a
//! full dragonfly (`g = a * h + 1`) use every global port. With fewer groups the links
//! whose group does not exist are unused. This is BookSim's "absolute" arrangement
//! (`dragonfly_port`: a router towards group `D` sends on `grp_output = D - (D > G)`).
//!
//! Minimal routing: eject if the NIC is here; inside the destination group one local hop
//! to its router; otherwise to the group's router that holds the link to the destination
//! group (a local hop unless it is this one), across it, then one local hop: at most
//! local, global, local.

use super::rule::Rule;
use super::{Peer, SwitchSpec, Topology};
use crate::net::types::NodeId;

/// A dragonfly's shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// NICs per router.
    pub p: u32,
    /// Routers per group.
    pub a: u32,
    /// Global ports per router.
    pub h: u32,
    /// Groups.
    pub g: u32,
}

impl Shape {
    /// Ports per router.
    pub fn radix(&self) -> u32 {
        self.p + self.a - 1 + self.h
    }
    /// NICs per group.
    pub fn group_nodes(&self) -> u32 {
        self.a * self.p
    }
    /// The first global port.
    pub fn first_global(&self) -> u32 {
        self.p + self.a - 1
    }
    /// Is `port` a global port?
    pub fn is_global(&self, port: u32) -> bool {
        port >= self.first_global()
    }
    /// Is `port` a NIC port?
    pub fn is_nic(&self, port: u32) -> bool {
        port < self.p
    }
    /// The group of router `r`.
    pub fn group(&self, r: u32) -> u32 {
        r / self.a
    }
    /// The group of NIC `n`.
    pub fn node_group(&self, n: u32) -> u32 {
        n / self.group_nodes()
    }
    /// The local port of router `i` (index in its group) towards router `j` of its group.
    pub fn local_port(&self, i: u32, j: u32) -> u32 {
        debug_assert_ne!(i, j);
        self.p + if j < i { j } else { j - 1 }
    }
    /// Group `from`'s link number towards group `to` (`to != from`).
    pub fn link_to(&self, from: u32, to: u32) -> u32 {
        if to < from {
            to
        } else {
            to - 1
        }
    }
    /// Router `r`'s output port towards group `t` (`t` not its own group): the global
    /// port if `r` holds the group's link to `t`, else the local port to the router that
    /// does.
    pub fn port_to_group(&self, r: u32, t: u32) -> u32 {
        let (grp, i) = (r / self.a, r % self.a);
        let k = self.link_to(grp, t);
        let exit = k / self.h;
        if exit == i {
            self.first_global() + k % self.h
        } else {
            self.local_port(i, exit)
        }
    }
    /// Router `r`'s minimal output port towards NIC `d`.
    pub fn min_port(&self, r: u32, d: u32) -> u32 {
        let rd = d / self.p;
        if rd == r {
            return d % self.p;
        }
        let (grp, dg) = (r / self.a, rd / self.a);
        if grp == dg {
            self.local_port(r % self.a, rd % self.a)
        } else {
            self.port_to_group(r, dg)
        }
    }
    /// What port `port` of router `r` leads to (`Peer::Unused` for a global link to a
    /// group that does not exist).
    pub fn peer(&self, r: u32, port: u32) -> Peer {
        let (grp, i) = (r / self.a, r % self.a);
        if port < self.p {
            return Peer::Nic(NodeId(r * self.p + port));
        }
        if port < self.first_global() {
            let l = port - self.p;
            let j = if l < i { l } else { l + 1 };
            return Peer::Switch {
                switch: grp * self.a + j,
                port: self.local_port(j, i),
            };
        }
        let k = i * self.h + (port - self.first_global());
        let t = if k < grp { k } else { k + 1 };
        if t >= self.g {
            return Peer::Unused;
        }
        let back = self.link_to(t, grp);
        Peer::Switch {
            switch: t * self.a + back / self.h,
            port: self.first_global() + back % self.h,
        }
    }
}

/// Build a dragonfly of `s`: `g * a` routers of `p + a - 1 + h` ports, minimal routing (in
/// the table up to `TABLE_MAX` entries).
pub(super) fn build(s: Shape) -> Topology {
    let routers = s.g * s.a;
    let nodes = routers * s.p;
    let radix = s.radix();
    let switches: Vec<SwitchSpec> = (0..routers)
        .map(|r| SwitchSpec {
            radix,
            level: 0,
            name: format!("group {} router {}", r / s.a, r % s.a),
            ports: (0..radix).map(|port| s.peer(r, port)).collect(),
        })
        .collect();
    let rule = Rule::Dragonfly(s);
    let route = rule.table(routers, nodes);
    Topology {
        nodes,
        switches,
        attach: (0..nodes).map(|n| (n / s.p, n % s.p)).collect(),
        eject: (0..nodes).map(|n| (n / s.p, n % s.p)).collect(),
        route,
        rule: Some(rule),
        hops: Vec::new(),
        delays: None,
        description: format!(
            "dragonfly: {} groups of {} routers, {} NICs, {} global links per router ({} ports each), {routers} routers, {nodes} nodes, minimal routing",
            s.g, s.a, s.p, s.h, radix
        ),
    }
}

/// The minimal routing table, router after router, one port per NIC: `min_port` for
/// every pair. A router's port towards another group is the same for all of that group's
/// NICs, so it is worked out once per group and repeated (the 16,512-NIC dragonfly's
/// 34 M entries took 0.6 s one by one).
pub(super) fn route_table(s: &Shape) -> Vec<u8> {
    let routers = s.g * s.a;
    let gn = s.group_nodes();
    let mut route = Vec::with_capacity(routers as usize * (routers * s.p) as usize);
    for r in 0..routers {
        let grp = s.group(r);
        for dg in 0..s.g {
            if dg == grp {
                route.extend((dg * gn..(dg + 1) * gn).map(|d| s.min_port(r, d) as u8));
            } else {
                route.extend(std::iter::repeat_n(
                    s.port_to_group(r, dg) as u8,
                    gn as usize,
                ));
            }
        }
    }
    route
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table built group by group is `min_port` of every router and NIC.
    #[test]
    fn route_table_is_min_port_everywhere() {
        let shapes = [
            (1, 2, 1, 3),
            (2, 4, 2, 9),
            (4, 8, 4, 33),
            (3, 5, 2, 7),
            (8, 16, 8, 5),
        ];
        for (p, a, h, g) in shapes {
            let s = Shape { p, a, h, g };
            let nodes = s.g * s.a * s.p;
            let want: Vec<u8> = (0..s.g * s.a)
                .flat_map(|r| (0..nodes).map(move |d| s.min_port(r, d) as u8))
                .collect();
            assert_eq!(route_table(&s), want, "{s:?}");
        }
    }
}
