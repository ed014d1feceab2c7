//! Routing on a dragonfly in the lane router (`routing = min | valiant | ugal | par`):
//! a packet's route state, the hop it takes from it, its lane, and the adaptive choices
//! (docs/network.md, "Dragonflies").
//!
//! A packet's state (`Packet::route`): its intermediate group (if it goes through one),
//! the global hops it has taken, whether it has taken any hop, and whether the source
//! router (and, under `par`, the next router) has made its choice. The hop from a state is
//! a pure function (`hop`), so the tests build every routing's channel-dependency graph
//! from the same code the router runs.
//!
//! Lanes: a hop's lane is the number of global hops taken counting this one (`min`: lane 0
//! up to the global hop, lane 1 from it on, as BookSim's `min_dragonflynew`; `valiant`,
//! `ugal`: 0, 1, 2), plus one for every hop after the first under `par` (whose packets may
//! take two local hops in their source group). Along every path the pair (lane, global
//! before local inside a lane) grows at every hop, so no cycle of channel dependencies.

use super::lanes::{Router, Routing};
use super::network::Network;
use super::scheme::Scheme;
use super::store::{MsgId, PktId, SwitchId};
use super::topology::DragonflyShape as Shape;

/// `Packet::route`: intermediate group + 1 (0: none, minimal).
pub const INTM: u32 = 0xFFFF;
/// `Packet::route`: the source router has chosen.
pub const DECIDED: u32 = 1 << 16;
/// `Packet::route` (`par`): the second router has chosen.
pub const PAR_DONE: u32 = 1 << 17;
/// `Packet::route`: global hops taken (2 bits).
pub const G_SHIFT: u32 = 18;
/// `Packet::route`: at least one router-to-router hop taken.
pub const MOVED: u32 = 1 << 20;

/// Lanes routing `r` uses on a dragonfly.
pub fn lanes_needed(r: Routing) -> u32 {
    r.dragonfly_lanes()
}

/// The output port and lane of a packet in state `state` at router `r` towards NIC `dst`
/// (a NIC port: lane 0).
pub fn hop(s: &Shape, routing: Routing, r: u32, dst: u32, state: u32) -> (u32, u32) {
    let (grp, dg) = (s.group(r), s.node_group(dst));
    let g = (state >> G_SHIFT) & 3;
    let intm = state & INTM;
    let target = if intm != 0 && g == 0 { intm - 1 } else { dg };
    let port = if target == grp {
        s.min_port(r, dst)
    } else {
        s.port_to_group(r, target)
    };
    if s.is_nic(port) {
        return (port, 0);
    }
    (
        port,
        lane(routing, g + s.is_global(port) as u32, state & MOVED != 0),
    )
}

/// The lane of a hop: `g_after` global hops taken counting this one; `moved`: not the
/// packet's first router-to-router hop.
pub fn lane(routing: Routing, g_after: u32, moved: bool) -> u32 {
    g_after + (routing == Routing::Par && moved) as u32
}

/// The state after taking `port` at a router (`port` not a NIC's).
pub fn after(s: &Shape, state: u32, port: u32) -> u32 {
    let g = (state >> G_SHIFT) & 3;
    let g = g + s.is_global(port) as u32;
    (state & !(3 << G_SHIFT)) | g << G_SHIFT | MOVED
}

impl<S: Scheme> Network<S> {
    /// The output port and lane (within its class) of packet `pk`'s head at dragonfly
    /// router `si`; makes the source router's choice (and, under `par`, the second
    /// router's) the first time it is asked, and keeps it in the packet.
    pub(crate) fn dragonfly_hop(&mut self, si: SwitchId, pk: PktId, rt: &Router) -> (u32, u32) {
        let s = rt.df.expect("a dragonfly's router");
        let r = si.0;
        let p = self.packets[pk];
        let mut state = p.route;
        let (grp, dg) = (s.group(r), s.node_group(p.dst));
        let moved = state & MOVED != 0;
        let g = (state >> G_SHIFT) & 3;
        let adaptive = matches!(rt.routing, Routing::Ugal | Routing::Par);
        if state & DECIDED == 0 {
            state |= DECIDED;
            if dg != grp {
                let t = match rt.routing {
                    Routing::Valiant => Some((self.draw(&p, 1) % s.g as u64) as u32),
                    _ if adaptive => {
                        let nodes = s.g * s.a * s.p;
                        Some((self.draw(&p, 1) % nodes as u64) as u32 / s.group_nodes())
                    }
                    _ => None,
                };
                if let Some(t) = t.filter(|&t| t != grp && t != dg) {
                    if !adaptive || self.nonminimal_wins(si, rt, &s, p.dst, t) {
                        state |= t + 1;
                    }
                }
            }
        } else if rt.routing == Routing::Par
            && state & PAR_DONE == 0
            && moved
            && g == 0
            && state & INTM == 0
            && dg != grp
        {
            // the second router of a minimal packet in its source group: may divert once
            state |= PAR_DONE;
            let nodes = s.g * s.a * s.p;
            let t = (self.draw(&p, 2) % nodes as u64) as u32 / s.group_nodes();
            if t != grp && t != dg && self.nonminimal_wins(si, rt, &s, p.dst, t) {
                state |= t + 1;
            }
        }
        self.packets[pk].route = state;
        hop(&s, rt.routing, r, p.dst, state)
    }

    /// UGAL's test at router `si`: the minimal port's used credits against twice the
    /// used credits of the port towards group `t` plus the threshold (BookSim's
    /// `ugal_dragonflynew`): true when the non-minimal port wins.
    fn nonminimal_wins(&self, si: SwitchId, rt: &Router, s: &Shape, dst: u32, t: u32) -> bool {
        let q = |port: u32| -> u32 {
            let st = &self.sw.sw[si];
            (0..rt.vcs)
                .map(|c| self.sw.out[st.port(port * rt.vcs + c)].used)
                .sum()
        };
        let q_min = q(s.min_port(si.0, dst));
        let q_non = q(s.port_to_group(si.0, t));
        q_min > 2 * q_non + rt.threshold
    }

    /// A packet's random draw `salt`: a hash of its message's workload id (or, for a
    /// control packet, its source and destination) and the run seed, as the torus's tie
    /// break (not of the packet's slot, whose reuse could depend on the evaluation order).
    fn draw(&self, p: &super::store::Packet, salt: u64) -> u64 {
        let key = if p.msg == MsgId::NONE {
            (p.src as u64) << 32 | p.dst as u64
        } else {
            self.msgs[p.msg].msg.id
        };
        super::faults::mix(
            self.seed ^ salt.wrapping_mul(0x9E37_79B9_7F4A_7C15),
            p.src,
            key,
        )
    }
}
