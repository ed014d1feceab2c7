//! The least-delay table of the adaptive file routings (`shortest_adaptive`, and the
//! adaptive lanes of `shortest_updown`) on a file whose channels have more than one
//! latency: the least delay in cycles from every router to every router with NICs, and
//! each port's channel latency, so that a router offers exactly the ports on a path of
//! least (delay, hops) to the destination's router, as `shortest` and `shortest_rising`
//! take one (`Graph::delays_to`, BookSim's `min_anynet`).
//!
//! Port p of router r towards its neighbour m is on such a path to router t iff
//! (lat(p) + C(m, t), 1 + H(m, t)) = (C(r, t), H(r, t)), C the least delay and H the hops
//! of the least-delay paths (the topology's hop table, built with the same latencies).
//! Along a lexicographically least (delay, hops) path every subpath is least too, so the
//! hops to go fall by one at each hop: the rising lanes, bounded by those hops, still close
//! no cycle. Without the table (one latency everywhere: least delay is fewest hops) the
//! hop test alone decides, as before.
//!
//! Cycles fit in a u32: a path has at most 65,535 hops of at most 65,536 cycles.

use super::anynet::Graph;
use crate::net::lanes::Routing;
use crate::net::types::NodeId;

/// Most bytes of the table, routers x routers with NICs x 4 (256 MiB, the routing table's
/// bound).
pub const MAX_BYTES: u64 = 1 << 28;

/// The table (see the module's comment).
#[derive(Clone, Debug)]
pub struct Delays {
    routers: usize,
    /// Per NIC: the column of its router.
    col: Vec<u32>,
    /// `cycles[col * routers + r]`: least delay from router r to the column's router.
    cycles: Vec<u32>,
    /// Per router: the index of its port 0 in `lat`.
    first: Vec<u32>,
    /// Per (router, port): the latency of the channel out of it (0 for a NIC's port).
    lat: Vec<u32>,
}

/// Routers with NICs: the table's columns.
fn targets(g: &Graph) -> u64 {
    g.nics.iter().filter(|n| !n.is_empty()).count() as u64
}

/// The refusal of `routing` on `g` when it would keep a table above MAX_BYTES (channels
/// without a latency weigh `default`); None when it keeps none or a small enough one.
pub fn refusal(g: &Graph, routing: Routing, default: u32) -> Option<String> {
    let adaptive = matches!(routing, Routing::ShortestAdaptive | Routing::ShortestUpdown);
    let (r, t) = (g.routers() as u64, targets(g));
    if !adaptive || r * t * 4 <= MAX_BYTES || g.one_latency(default) {
        return None;
    }
    Some(format!(
        "`{}` on a file with more than one channel latency keeps the least delay from every router to every router with NICs (4 bytes each): routers x routers with NICs must be in 1..={}, here {r} x {t} = {}; route it by `shortest` or `shortest_rising` (no such table, but a lane per hop of the longest path: at most 16 hops) or by `updown`, or give every channel one latency",
        routing.name(),
        MAX_BYTES / 4,
        r * t
    ))
}

impl Delays {
    /// An empty table for `g`, the ports' latencies filled in (`default` for a channel the
    /// file gives none).
    pub(super) fn new(g: &Graph, default: u32) -> Delays {
        let routers = g.routers() as usize;
        let mut column = vec![u32::MAX; routers];
        let mut cols = 0;
        for (r, n) in g.nics.iter().enumerate() {
            if !n.is_empty() {
                column[r] = cols;
                cols += 1;
            }
        }
        let (mut first, mut lat) = (Vec::with_capacity(routers), Vec::new());
        for (n, l) in g.nics.iter().zip(&g.links) {
            first.push(lat.len() as u32);
            lat.extend(n.iter().map(|_| 0));
            lat.extend(l.iter().map(|&(_, x)| x.unwrap_or(default)));
        }
        Delays {
            routers,
            col: g.nic_router.iter().map(|&r| column[r as usize]).collect(),
            cycles: vec![0; routers * cols as usize],
            first,
            lat,
        }
    }

    /// Fills the column of router `t` (nothing if it has no NICs) from `dist`, its
    /// `Graph::delays_to`.
    pub(super) fn set(&mut self, g: &Graph, t: u32, dist: &[(u64, u32)]) {
        let Some(&n) = g.nics[t as usize].first() else {
            return;
        };
        let base = self.col[n as usize] as usize * self.routers;
        for (c, d) in self.cycles[base..base + self.routers].iter_mut().zip(dist) {
            *c = d.0 as u32;
        }
    }

    /// Is port `p` of router `s`, to router `m`, on a least-delay path to NIC `d`'s router
    /// by the cycles (the hops are the caller's to check)?
    #[inline]
    pub fn on_path(&self, s: u32, p: u32, m: u32, d: NodeId) -> bool {
        let base = self.col[d.index()] as usize * self.routers;
        let lat = self.lat[self.first[s as usize] as usize + p as usize] as u64;
        lat + self.cycles[base + m as usize] as u64 == self.cycles[base + s as usize] as u64
    }
}
