//! The lane router's routing functions: a packet head's candidate output lanes at a router
//! under each routing of the torus, the mesh and file topologies (dragonflies route by
//! `dragonfly_route.rs`). Re-exported by `lanes.rs`.

use super::lanes::{Router, Routing};
use super::network::Network;
use super::scheme::Scheme;
use super::store::{MsgId, Packet, PktId, TIE_KNOWN, TIE_MINUS};
use super::topology::{cube, Peer, Topology};
use super::types::NodeId;

impl<S: Scheme> Network<S> {
    /// A packet's way round a torus ring when both ways are equally long: a bit of a hash
    /// of its message's workload id (or, for a control packet, of its source and
    /// destination) and the run seed. Not the packet's slot: slots are reused in an order
    /// that could depend on the evaluation order.
    #[inline]
    pub(crate) fn tie_minus(&self, pk: &Packet) -> bool {
        let key = if pk.msg == MsgId::NONE {
            (pk.src as u64) << 32 | pk.dst as u64
        } else {
            self.msgs[pk.msg].msg.id
        };
        super::faults::mix(self.seed, pk.src, key) & 1 != 0
    }

    /// `tie_minus` of packet `p` (`pk`, its record), kept in its flags once worked out: a
    /// head asks at every router, and the hash reads the message's record.
    #[inline]
    pub(crate) fn tie_of(&mut self, p: PktId, pk: &Packet) -> bool {
        if pk.flags & TIE_KNOWN != 0 {
            return pk.flags & TIE_MINUS != 0;
        }
        let minus = self.tie_minus(pk);
        self.packets[p].flags |= TIE_KNOWN | if minus { TIE_MINUS } else { 0 };
        minus
    }
}

/// A head's candidate output lanes at router `r` towards destination router/NIC `dst`:
/// `(port, first lane, end lane, adaptive)`, adaptive ones first. `table` is the
/// topology's table port (used by `updown` and `dor_no_dateline`). `tie_minus`: the
/// packet's way round a torus ring when both are equally long (`dor`, `duato`'s escape).
/// `escaped`: the head arrived on an escape lane from another router (read only with
/// `one_escape`, where it then keeps the escape lane), or (`disha`) its packet holds the
/// token and goes on the deadlock buffers. Public for the tests that build
/// each routing's channel-dependency graph.
pub fn candidates(
    rt: &Router,
    r: u32,
    dst: u32,
    table: u32,
    tie_minus: bool,
    escaped: bool,
    out: &mut Vec<(u32, u32, u32, bool)>,
) {
    out.clear();
    let v = rt.vcs;
    match rt.routing {
        Routing::Updown | Routing::DorNoDateline => out.push((table, 0, v, false)),
        Routing::Shortest
        | Routing::ShortestRising
        | Routing::ShortestAdaptive
        | Routing::ShortestUpdown => {
            unreachable!(
                "file routings route by `shortest_hop`, `rising_candidates` or `updown_candidates`"
            )
        }
        Routing::Min | Routing::Valiant | Routing::Ugal | Routing::Par => {
            unreachable!("dragonfly routings route by `dragonfly_hop`")
        }
        Routing::Dor | Routing::Duato if rt.one_escape => {
            // one escape lane: lane 0 under dimension order on the mesh inside the torus
            // (no wrap link, so one lane has no ring to close); lanes 1.. adaptive and
            // minimal on the torus. A packet on the escape lane stays on it, so no escape
            // lane waits for an adaptive one (the escape network drains on its own).
            let (k, n) = (rt.k, rt.n);
            let p = cube::dor_port(r, dst, k, n, false);
            if p == 2 * n {
                out.push((p, 0, 1, false));
                return;
            }
            if !escaped {
                adaptive(rt, r, dst, 1, v, out);
            }
            out.push((p, 0, 1, false));
        }
        Routing::Disha => {
            let (k, n, wrap) = (rt.k, rt.n, rt.wrap);
            let (mut p, x, y) = cube::dor_step(r, dst, k, n, wrap);
            if p == 2 * n {
                out.push((p, 0, 1, false)); // eject: the NIC's one lane
            } else if escaped {
                // the recovery path: the deadlock buffer on the dimension-order port (any
                // minimal path is deadlock-free for the one packet that holds the token)
                if wrap && tie_minus && 2 * cube::ring_gap(x, y, k) == k {
                    p += 1;
                }
                out.push((p, v - 1, v, false));
            } else {
                adaptive(rt, r, dst, 0, v - 1, out);
            }
        }
        Routing::Dor | Routing::Duato => {
            let (k, n, wrap) = (rt.k, rt.n, rt.wrap);
            let (mut p, x, y) = cube::dor_step(r, dst, k, n, wrap);
            if p == 2 * n {
                out.push((p, 0, 1, false)); // eject: the NIC's one lane
                return;
            }
            // both ways round equally long: the packet's own choice (as BookSim's random
            // tie-break; after one hop the way taken is the shorter one)
            if wrap && tie_minus && 2 * cube::ring_gap(x, y, k) == k {
                p += 1;
            }
            let escape = if rt.routing == Routing::Duato {
                if wrap {
                    2
                } else {
                    1
                }
            } else {
                v
            };
            if rt.routing == Routing::Duato {
                adaptive(rt, r, dst, escape, v, out);
            }
            // the dimension-order lanes (all of them for `dor`, the escape ones for duato)
            let (lo, hi) = if wrap {
                // (x, y: this router's and the destination's digits in the port's dimension)
                let to_wrap = if p.is_multiple_of(2) { y < x } else { y > x };
                let half = escape / 2;
                if to_wrap {
                    (half, escape)
                } else {
                    (0, half)
                }
            } else {
                (0, escape)
            };
            out.push((p, lo, hi, false));
        }
    }
}

/// `shortest`'s candidate at a router: the table's port `table`, on the lane numbered by the
/// router-to-router hops taken (`hops`), or lane 0 of a NIC's port.
pub fn shortest_hop(table: u32, hops: u32, nic: bool) -> (u32, u32, u32, bool) {
    if nic {
        (table, 0, 1, false)
    } else {
        (table, hops, hops + 1, false)
    }
}

/// `shortest_rising`'s and `shortest_adaptive`'s candidates at switch `s` for a head to NIC
/// `dst` whose table port is `table`: the table's port or (`adaptive`) every port on a path
/// of least (delay, hops) (`Topology::least_delay`; of fewest hops when every channel has
/// one latency), each on the lanes from `first` (one above the lane the packet came on, 0
/// from a NIC) to the highest that leaves one lane for each router-to-router hop after it;
/// a NIC's port on lane 0. A packet so only ever waits for a higher lane than its own (the
/// hops after fall by one at each hop: a subpath of a least path is least too), and
/// `first` + the hops after < `vcs` holds on every path when `vcs` >= the hops of the
/// longest least-delay path. Public for the tests that build the channel-dependency graph.
#[allow(clippy::too_many_arguments)]
pub fn rising_candidates(
    topo: &Topology,
    s: u32,
    table: u32,
    dst: NodeId,
    first: u32,
    vcs: u32,
    adaptive: bool,
    out: &mut Vec<(u32, u32, u32, bool)>,
) {
    out.clear();
    let ports = &topo.switches()[s as usize].ports;
    let Peer::Switch { switch, .. } = ports[table as usize] else {
        out.push((table, 0, 1, false));
        return;
    };
    if !adaptive {
        out.push((table, first, vcs - topo.hops_to(switch, dst), false));
        return;
    }
    let here = topo.hops_to(s, dst);
    for (p, peer) in ports.iter().enumerate() {
        if let Peer::Switch { switch: m, .. } = *peer {
            let after = topo.hops_to(m, dst);
            if after + 1 == here && topo.least_delay(s, p as u32, m, dst) {
                out.push((p as u32, first, vcs - after, true));
            }
        }
    }
}

/// `shortest_updown`'s candidates at switch `s` for a head to NIC `dst` whose `updown`
/// table port is `table`: unless `escaped` (it came on the escape lane from another
/// router), lanes 1.. of every port on a path of least (delay, hops) (adaptive, as
/// `rising_candidates`); then lane 0 of the
/// table's port, the escape. At the destination's router, lane 0 of the NIC's port. A
/// packet on the escape lane is offered the escape lane alone, so escape lanes wait only
/// for escape lanes, along up*/down* paths: no cycle (Duato's condition, with no indirect
/// dependency since nothing leaves the escape lane). Public for the tests that build the
/// channel-dependency graph.
pub fn updown_candidates(
    topo: &Topology,
    s: u32,
    table: u32,
    dst: NodeId,
    escaped: bool,
    vcs: u32,
    out: &mut Vec<(u32, u32, u32, bool)>,
) {
    out.clear();
    let ports = &topo.switches()[s as usize].ports;
    if let Peer::Nic(_) = ports[table as usize] {
        out.push((table, 0, 1, false));
        return;
    }
    if !escaped {
        let here = topo.hops_to(s, dst);
        for (p, peer) in ports.iter().enumerate() {
            if let Peer::Switch { switch: m, .. } = *peer {
                if topo.hops_to(m, dst) + 1 == here && topo.least_delay(s, p as u32, m, dst) {
                    out.push((p as u32, 1, vcs, true));
                }
            }
        }
    }
    out.push((table, 0, 1, false));
}

/// Under `shortest_rising` and `shortest_adaptive`, the `first` of the next hop of a packet
/// that took lane `taken` (of its class) on a hop between routers: the lane above it, so
/// that lanes strictly rise along a path (the router keeps it in the packet's `route`).
#[inline]
pub fn rising_next(taken: u32) -> u32 {
    taken + 1
}

/// The adaptive candidates: every minimal direction from router `r` to `dst`, on lanes
/// `first..end`.
fn adaptive(
    rt: &Router,
    r: u32,
    dst: u32,
    first: u32,
    end: u32,
    out: &mut Vec<(u32, u32, u32, bool)>,
) {
    let (k, n, wrap, v) = (rt.k, rt.n, rt.wrap, end);
    for d in 0..n {
        let (x, y) = (cube::digit(r, k, d), cube::digit(dst, k, d));
        if x == y {
            continue;
        }
        let (plus, minus) = if wrap {
            let f = (y + k - x) % k;
            (2 * f <= k, 2 * f >= k)
        } else {
            (y > x, y < x)
        };
        if plus {
            out.push((2 * d, first, v, true));
        }
        if minus {
            out.push((2 * d + 1, first, v, true));
        }
    }
}
