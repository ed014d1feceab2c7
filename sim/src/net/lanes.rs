//! Lanes (virtual channels): the `[network]` keys that select the lane router, their
//! checks, and (in `lane_route.rs`, re-exported here) the routing functions that give a
//! packet head its candidate output lanes.
//!
//! A network without `vcs` runs today's switch (one lane per port, cut-through, table
//! routing). With `vcs = V` every switch-to-switch port has V lanes of `vc_buf_flits`
//! each, with their own credits; a NIC's injection and ejection ports keep one lane of
//! `buffer_flits` / `eject_buffer_flits`, so a NIC and its PFT block see one credit count
//! as before. `router.rs` is the lane router's cycle.

use super::config::{bad, NetConfig, TopologyConfig, MAX_LANES, MAX_LATENCY_CYCLES};
use super::disha::disha_errors;
use crate::error::FieldError;
use serde::{Deserialize, Serialize};

pub use super::lane_route::{
    candidates, rising_candidates, rising_next, shortest_hop, updown_candidates,
};

/// Most lanes per port.
pub const MAX_VCS: u32 = 16;

/// How a packet holds lanes (`[network] switching`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Switching {
    /// A head takes an output lane when the lane is free; each flit then needs one credit
    /// of that lane, so a blocked packet may stretch over several switches.
    Wormhole,
    /// Virtual cut-through: a lane holds a whole packet (`vc_buf_flits` >= the MTU), so a
    /// packet that has an output lane never waits for a credit and a blocked packet sits in
    /// one switch. Today's switch (no `vcs`) is cut-through too.
    Vct,
}

/// The routing function (`[network] routing`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Routing {
    /// Dimension order on a torus or mesh. On a torus with lanes the lanes are split into
    /// two dateline classes (needs vcs >= 2): a packet that still has to cross a ring's
    /// wrap link uses the upper half, after it the lower half.
    Dor,
    /// Dimension order on a torus with no dateline classes: its rings can deadlock. Only
    /// for studying that (today's switch, or lanes used as one class).
    DorNoDateline,
    /// Duato's adaptive routing on a torus or mesh: lanes from 2 (torus) or 1 (mesh) up may
    /// take any minimal direction, chosen by the most free credits; lane 0 (mesh) or lanes 0
    /// and 1 (torus, dateline classes) are the escape network under `dor`. Needs the lane
    /// router with vcs >= 3 (torus) or >= 2 (mesh).
    Duato,
    /// The topology's table: up/down on fat trees and k-ary n-trees (and a single switch),
    /// destination tag on k-ary n-flies.
    Updown,
    /// Dragonfly, minimal (BookSim's `min_dragonflynew`): lane 0 up to the global hop,
    /// lane 1 from it on. Needs vcs >= 2.
    Min,
    /// Dragonfly, Valiant: every packet leaving its group goes through a random
    /// intermediate group (minimal when that is its own or the destination's); the lane is
    /// the number of global hops taken, the current one included. Needs vcs >= 3.
    Valiant,
    /// Dragonfly, UGAL as BookSim's `ugal_dragonflynew`: at the source router a random
    /// intermediate node, minimal when q_min <= 2 q_nonmin + `ugal_threshold_flits`
    /// (q: used credits of the output port); the packet then goes through the node's group.
    /// Lanes as `valiant`. Needs vcs >= 3.
    Ugal,
    /// A file topology, paths of least delay (BookSim's `min_anynet`, which alone can
    /// deadlock; `Graph::delays_to`): the lane is the number of router-to-router hops taken
    /// before this one, so a packet only ever waits for a higher lane and no cycle of waits
    /// can close. Needs the lane router with vcs >= the longest path's router-to-router hops
    /// (`Graph::lanes_needed`; the graph's diameter when every link has one latency).
    Shortest,
    /// A file topology, the same shortest paths as `shortest`, the lanes rising: a hop may
    /// take any lane above the one the packet came on (any lane from a NIC) that leaves one
    /// lane for each hop still to go, so a packet still only ever waits for a higher lane,
    /// and a path shorter than the diameter has lanes to spare. The lowest free one is
    /// taken, keeping the higher ones for later hops. Needs vcs >= the diameter.
    ShortestRising,
    /// A file topology, every path of least delay (then fewest hops, as `shortest`): at
    /// each router the port on such a path with the most free credits over its lanes (as
    /// `duato`'s adaptive lanes choose), the lanes rising as under `shortest_rising`, which
    /// keeps it deadlock-free whatever port is taken. Packets may arrive out of order.
    /// Needs vcs as `shortest`.
    ShortestAdaptive,
    /// A file topology, Duato's protocol on any graph: lanes 1.. take any port on a path of
    /// least delay (the one with the most free credits over its lanes, as
    /// `shortest_adaptive`),
    /// lane 0 is the escape network under up*/down* (the `updown` table). A head is offered
    /// a free adaptive lane first, else the escape lane; once on the escape lane a packet
    /// keeps it, so no escape lane ever waits for an adaptive one and the escape network,
    /// acyclic, drains on its own. Needs the lane router with vcs >= 2 whatever the
    /// diameter. Packets may arrive out of order.
    ShortestUpdown,
    /// Dragonfly, progressive adaptive routing: UGAL at the source router, and a packet
    /// sent minimally may divert once at the next router of its group. The lane is the
    /// global hops taken plus one after the first hop. Needs vcs >= 4.
    Par,
    /// Disha deadlock recovery on a torus or mesh (seed 003's second configuration; Anjan
    /// and Pinkston, ISCA 1995): every one of the `vcs` lanes is fully adaptive and
    /// minimal, so the lanes can deadlock; a head blocked `disha_timeout_cycles` is presumed
    /// deadlocked, and the one packet holding the circulating token leaves on the deadlock
    /// buffers (one extra lane per port, its own minimal dimension-order path) with
    /// priority. `disha.rs`. Needs the lane router with vcs >= 1.
    Disha,
}

/// How the lane router grants output lanes to waiting heads (`[network] allocator`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Allocator {
    /// Every waiting head asks for a lane in the same cycle; each output lane grants one
    /// (a separable allocator, one iteration).
    #[default]
    Separable,
    /// Seed 003's router (its section 5.1): one central arbiter per router routes one head
    /// per cycle, given to the waiting input lanes in round robin ("demand-slotted"); a
    /// head that finds no free lane has used its slot and waits for its next turn.
    Central,
}

/// When an output lane may take the next packet (`[network] lane_reuse`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LaneReuse {
    /// When the lane behind it is empty (every credit back): one packet per lane (BookSim's
    /// `wait_for_tail_credit = 1`).
    #[default]
    Empty,
    /// As soon as the previous packet's tail has left (BookSim's `wait_for_tail_credit =
    /// 0`): a lane buffer may hold the tail of one packet and the following packets, so a
    /// lane longer than a packet keeps a long link busy.
    Tail,
}

impl Router {
    /// The routing of a network with lanes (None without `vcs`).
    pub fn of(cfg: &NetConfig) -> Option<Router> {
        let v = cfg.vcs?;
        let (k, n, wrap) = match cfg.topology {
            TopologyConfig::Torus { k, n } => (k, n, true),
            TopologyConfig::Mesh { k, n } => (k, n, false),
            _ => (0, 0, false),
        };
        Some(Router {
            routing: cfg
                .routing
                .unwrap_or_else(|| Routing::default_for(&cfg.topology)),
            vcs: v + u32::from(cfg.routing == Some(Routing::Disha)),
            k,
            n,
            wrap,
            ack_vcs: cfg.ack_vcs.unwrap_or(0),
            df: cfg.topology.dragonfly(),
            threshold: cfg.ugal_threshold_flits.unwrap_or(DEFAULT_UGAL_THRESHOLD),
            one_escape: wrap && cfg.routing == Some(Routing::Duato) && cfg.escape_lanes == Some(1),
            disha: cfg.routing == Some(Routing::Disha),
        })
    }

    /// A routing whose packets keep the escape lane (lane 0 of their class) once they
    /// arrived on it from another router: `shortest_updown`, and `duato` with one escape
    /// lane. The checker holds them to it.
    pub fn sticky_escape(&self) -> bool {
        self.one_escape || self.routing == Routing::ShortestUpdown
    }

    /// Does a lane, under `lane_reuse = "tail"`, take the next packet only when the lane
    /// behind it is empty or has room for all of it? Under Duato's routings (`duato`,
    /// `shortest_updown`). A head granted a lane that still holds another packet, without
    /// room for its own, waits on that lane alone; on an adaptive lane that breaks Duato's
    /// condition (a waiting head may always take the escape lane), and adaptive lanes so
    /// held by one another close cycles (measured: deadlocks on a 4-ary 2-cube with either
    /// `escape_lanes`, a 4-ary 2-mesh, and a dragonfly, a torus and a random graph written
    /// as files). With room, a packet never waits for a credit there, as under cut-through,
    /// and the packet ahead of it may always take the escape lane; granted an empty lane
    /// (a packet longer than the lane), it is the only packet in it, Duato's own wormhole
    /// case, so its head reaches the front downstream. The escape lanes, an
    /// acyclic network, would be safe at the tail alone, but they keep the same rule: a
    /// lane that frees sooner than the adaptive ones draws the packets onto the escape
    /// network, where under an incast they can starve (thin evidence, docs/network.md,
    /// "Lanes": one traced study point, a victim packet over 10^6 cycles behind the
    /// escape lanes to the root).
    pub fn whole_at_tail(&self) -> bool {
        matches!(self.routing, Routing::Duato | Routing::ShortestUpdown)
    }

    /// The lanes a packet may use on a switch-to-switch port: the routing over a class of
    /// lanes, and the class's first lane. With `ack_vcs` = C, control packets (ACKs) use the
    /// top C lanes, data the others; without, every packet all of them.
    #[inline]
    pub fn class(&self, control: bool) -> (Router, u32) {
        if self.ack_vcs == 0 {
            return (*self, 0);
        }
        let data = self.vcs - self.ack_vcs;
        let (vcs, base) = if control {
            (self.ack_vcs, data)
        } else {
            (data, 0)
        };
        (Router { vcs, ..*self }, base)
    }
}

impl Routing {
    /// The routing a topology uses when `routing` is not given.
    pub fn default_for(t: &TopologyConfig) -> Routing {
        match t {
            TopologyConfig::Torus { .. } | TopologyConfig::Mesh { .. } => Routing::Dor,
            TopologyConfig::Dragonfly { .. } => Routing::Min,
            _ => Routing::Updown,
        }
    }

    /// Every routing a topology takes, as an error lists them.
    pub fn all_for(t: &TopologyConfig) -> &'static str {
        match t {
            TopologyConfig::Torus { .. } => "`dor`, `duato`, `disha` or `dor_no_dateline`",
            TopologyConfig::Mesh { .. } => "`dor`, `duato` or `disha`",
            TopologyConfig::Dragonfly { .. } => "`min`, `valiant`, `ugal` or `par`",
            TopologyConfig::File { .. } => {
                "`updown`, `shortest`, `shortest_rising`, `shortest_adaptive` or `shortest_updown`"
            }
            _ => "`updown`",
        }
    }

    /// The key's value.
    pub fn name(self) -> &'static str {
        match self {
            Routing::Dor => "dor",
            Routing::DorNoDateline => "dor_no_dateline",
            Routing::Duato => "duato",
            Routing::Updown => "updown",
            Routing::Min => "min",
            Routing::Valiant => "valiant",
            Routing::Ugal => "ugal",
            Routing::Par => "par",
            Routing::Shortest => "shortest",
            Routing::ShortestRising => "shortest_rising",
            Routing::ShortestAdaptive => "shortest_adaptive",
            Routing::ShortestUpdown => "shortest_updown",
            Routing::Disha => "disha",
        }
    }

    /// A file routing whose lanes rise hop by hop (`shortest_rising`, `shortest_adaptive`)?
    pub fn rising(self) -> bool {
        matches!(self, Routing::ShortestRising | Routing::ShortestAdaptive)
    }

    /// A routing for file topologies only?
    pub fn file_only(self) -> bool {
        matches!(
            self,
            Routing::Shortest
                | Routing::ShortestRising
                | Routing::ShortestAdaptive
                | Routing::ShortestUpdown
        )
    }

    /// A file routing that needs a lane per hop of the diameter (`shortest`,
    /// `shortest_rising`, `shortest_adaptive`)?
    pub fn lane_per_hop(self) -> bool {
        self.file_only() && self != Routing::ShortestUpdown
    }

    /// A dragonfly routing?
    pub fn dragonfly(self) -> bool {
        matches!(
            self,
            Routing::Min | Routing::Valiant | Routing::Ugal | Routing::Par
        )
    }

    /// Lanes a dragonfly routing needs (0 for the others).
    pub fn dragonfly_lanes(self) -> u32 {
        match self {
            Routing::Min => 2,
            Routing::Valiant | Routing::Ugal => 3,
            Routing::Par => 4,
            _ => 0,
        }
    }
}

/// `ugal_threshold_flits` when not given (BookSim's `adaptive_threshold`).
pub const DEFAULT_UGAL_THRESHOLD: u32 = 30;

/// Every error of the lane keys of `cfg` (`vcs`, `vc_buf_flits`, `switching`, `routing`),
/// given a valid topology whose largest switch has `radix` ports; `mtu` is the packet size
/// in flits (None if not valid).
pub(crate) fn errors(cfg: &NetConfig, radix: u32, mtu: Option<u32>, errs: &mut Vec<FieldError>) {
    let topo = &cfg.topology;
    let cube = matches!(
        topo,
        TopologyConfig::Torus { .. } | TopologyConfig::Mesh { .. }
    );
    let torus = matches!(topo, TopologyConfig::Torus { .. });
    let routing = cfg.routing.unwrap_or_else(|| Routing::default_for(topo));
    let kind = topo.kind();
    let df = matches!(topo, TopologyConfig::Dragonfly { .. });
    if let Some(t) = cfg.ugal_threshold_flits {
        if !matches!(routing, Routing::Ugal | Routing::Par) {
            errs.push(bad(
                "ugal_threshold_flits",
                t,
                format!(
                    "applies to routing `ugal` and `par` (a dragonfly's adaptive choice), not `{}`",
                    routing.name()
                ),
            ));
        } else if t > 0xFFFF {
            errs.push(bad("ugal_threshold_flits", t, "must be in 0..=65535"));
        }
    }
    if let Some(r) = cfg.lane_reuse {
        if cfg.vcs.is_none() {
            errs.push(bad(
                "lane_reuse",
                format!("{r:?}").to_lowercase(),
                "needs `vcs` (the lane router); the switch without lanes queues packets in one buffer",
            ));
        }
    }
    if df != routing.dragonfly() {
        errs.push(bad(
            "routing",
            routing.name(),
            if df {
                format!("a dragonfly routes by {}", Routing::all_for(topo))
            } else {
                format!(
                    "`{}` routes dragonflies; a {kind} routes by {}",
                    routing.name(),
                    Routing::all_for(topo)
                )
            },
        ));
        return;
    }
    if df {
        let need = routing.dragonfly_lanes();
        let why = match routing {
            Routing::Min => "lane 0 before the global hop, lane 1 after",
            Routing::Par => "one lane per global hop, and one more after the first hop",
            _ => "one lane per global hop, up to two",
        };
        match cfg.vcs {
            None => errs.push(bad(
                "vcs",
                "not set (one lane)",
                format!(
                    "a dragonfly under `{}` needs the lane router with vcs >= {need} ({why})",
                    routing.name()
                ),
            )),
            Some(v) if v < need => errs.push(bad(
                "vcs",
                v,
                format!(
                    "routing `{}` on a dragonfly needs vcs >= {need} ({why})",
                    routing.name()
                ),
            )),
            _ => {}
        }
    }
    let file = matches!(topo, TopologyConfig::File { .. });
    if routing.file_only() {
        let name = routing.name();
        if let TopologyConfig::File { graph: Some(g), .. } = topo {
            let lat = cfg.link_latency_cycles;
            if let Some(why) = super::topology::least_delay::refusal(g, routing, lat) {
                errs.push(bad("routing", name, why));
            }
            if routing == Routing::ShortestUpdown {
                if cfg.vcs.is_none() {
                    errs.push(bad(
                        "vcs",
                        "not set (one lane)",
                        format!("routing `{name}` needs the lane router with vcs >= 2 (an escape lane and an adaptive lane)"),
                    ));
                }
            } else {
                let need = g.lanes_needed(cfg.link_latency_cycles, MAX_VCS);
                let why = "one lane per router-to-router hop of the longest path it routes";
                match cfg.vcs {
                    // no lane count is enough: the routing, not `vcs`, is what to change
                    _ if need > MAX_VCS => errs.push(bad(
                        "routing",
                        name,
                        format!("needs vcs >= {need} on this file ({why}), above the most lanes, {MAX_VCS}: route it by `shortest_updown` (two lanes, any diameter) or `updown`"),
                    )),
                    None => errs.push(bad(
                        "vcs",
                        "not set (one lane)",
                        format!("routing `{name}` needs the lane router with vcs >= {need} ({why})"),
                    )),
                    Some(v) if v < need => errs.push(bad(
                        "vcs",
                        v,
                        format!("routing `{name}` on this file needs vcs >= {need} ({why})"),
                    )),
                    _ => {}
                }
            }
        } else if !file {
            errs.push(bad(
                "routing",
                name,
                format!(
                    "`{name}` routes file topologies; a {kind} routes by {}",
                    Routing::all_for(topo)
                ),
            ));
        }
    }
    disha_errors(cfg, routing, errs);
    match routing {
        Routing::Dor | Routing::Duato | Routing::Disha if !cube => errs.push(bad(
            "routing",
            routing.name(),
            format!(
                "`{}` routes tori and meshes; a {kind} routes by {}",
                routing.name(),
                Routing::all_for(topo)
            ),
        )),
        Routing::DorNoDateline if !torus => errs.push(bad(
            "routing",
            routing.name(),
            format!(
                "`dor_no_dateline` is for tori; a {kind} routes by {}",
                Routing::all_for(topo)
            ),
        )),
        Routing::Updown if cube => errs.push(bad(
            "routing",
            "updown",
            format!("a {kind} routes by {}", Routing::all_for(topo)),
        )),
        _ => {}
    }
    if let Some(h) = cfg.head_latency_cycles {
        if cfg.vcs.is_none() {
            errs.push(bad(
                "head_latency_cycles",
                h,
                "needs `vcs` (the lane router); the switch without lanes has only `switch_latency_cycles`",
            ));
        } else if h > MAX_LATENCY_CYCLES {
            errs.push(bad(
                "head_latency_cycles",
                h,
                format!("must be in 0..={MAX_LATENCY_CYCLES}"),
            ));
        }
    }
    if let Some(e) = cfg.escape_lanes {
        if routing != Routing::Duato || !torus {
            errs.push(bad(
                "escape_lanes",
                e,
                format!(
                    "applies to routing `duato` on a torus (its escape lanes), not `{}` on a {kind}",
                    routing.name()
                ),
            ));
        } else if !(1..=2).contains(&e) {
            errs.push(bad(
                "escape_lanes",
                e,
                "must be in 1..=2: 2 a dateline pair under dimension order, 1 one lane under dimension order without the wrap links",
            ));
        }
    }
    if let Some(a) = cfg.allocator {
        if cfg.vcs.is_none() {
            errs.push(bad(
                "allocator",
                format!("{a:?}").to_lowercase(),
                "needs `vcs` (the lane router); the switch without lanes has its own arbitration (`arbitration`)",
            ));
        }
    }
    let Some(v) = cfg.vcs else {
        // today's switch: one lane, cut-through
        if let Some(c) = cfg.ack_vcs {
            errs.push(bad(
                "ack_vcs",
                c,
                "needs `vcs` (the lane router): a class of lanes for the ACKs",
            ));
        }
        if cfg.vc_buf_flits.is_some() {
            errs.push(bad(
                "vc_buf_flits",
                cfg.vc_buf_flits.unwrap_or(0),
                "needs `vcs` (the lane router); without it each port has one buffer of `buffer_flits`",
            ));
        }
        if cfg.switching == Some(Switching::Wormhole) {
            errs.push(bad(
                "switching",
                "wormhole",
                "needs `vcs` (the lane router); the switch without lanes is cut-through (`vct`)",
            ));
        }
        if torus && routing == Routing::Dor {
            errs.push(bad(
                "vcs",
                "not set (one lane)",
                "a torus under `dor` needs the lane router with vcs >= 2 (two dateline classes break the rings' cycles); set routing = \"dor_no_dateline\" to run it on one lane, where it can deadlock",
            ));
        }
        if routing == Routing::Disha {
            errs.push(bad(
                "vcs",
                "not set (one lane)",
                "`disha` needs the lane router with vcs >= 1 (its adaptive lanes; the deadlock buffer is added)",
            ));
        }
        if routing == Routing::Duato {
            errs.push(bad(
                "vcs",
                "not set (one lane)",
                format!(
                    "`duato` needs the lane router with vcs >= {}",
                    if torus { 3 } else { 2 }
                ),
            ));
        }
        return;
    };
    if !(1..=MAX_VCS).contains(&v) {
        errs.push(bad("vcs", v, format!("must be in 1..={MAX_VCS}")));
        return;
    }
    // the file routings need a lane per hop of the diameter in each class (checked above
    // for `vcs`; here for the classes of `ack_vcs`)
    let file_need = match topo {
        TopologyConfig::File { graph: Some(g), .. } if routing.lane_per_hop() => {
            Some(g.lanes_needed(cfg.link_latency_cycles, MAX_VCS))
        }
        _ => None,
    };
    let need = match routing {
        _ if file_need.is_some() => file_need.unwrap_or(1),
        r if r.dragonfly() => r.dragonfly_lanes(),
        Routing::Dor if torus => 2,
        Routing::Duato if torus && cfg.escape_lanes == Some(1) => 2,
        Routing::Duato if torus => 3,
        Routing::Duato | Routing::ShortestUpdown => 2,
        _ => 1,
    };
    if v < need && !df && file_need.is_none() {
        errs.push(bad(
            "vcs",
            v,
            format!(
                "routing `{}` on a {kind} needs vcs >= {need} ({})",
                routing.name(),
                match (routing, torus) {
                    (Routing::Dor, _) => "two dateline classes",
                    (_, true) if cfg.escape_lanes == Some(1) =>
                        "an escape lane and an adaptive lane",
                    (_, true) => "an escape pair of dateline classes and an adaptive lane",
                    _ => "an escape lane and an adaptive lane",
                }
            ),
        ));
    }
    if let Some(c) = cfg.ack_vcs {
        if cfg.ack_bytes.is_none() {
            errs.push(bad("ack_vcs", c, "needs `ack_bytes` (the ACKs it carries)"));
        } else if need > MAX_VCS {
            // the routing is refused (no lane count is enough; `need` a lower bound then)
        } else if v < 2 * need {
            // no value of ack_vcs fits: the lanes are too few
            errs.push(bad(
                "vcs",
                v,
                format!(
                    "must be at least {} with `ack_vcs`: the ACKs' class and the data's class each need {need} lanes under `{}`",
                    2 * need,
                    routing.name()
                ),
            ));
        } else if c < need || v < c + need {
            errs.push(bad(
                "ack_vcs",
                c,
                format!(
                    "must be in {need}..={}: the ACKs' class and the data's class (vcs = {v} in all) each need {need} lanes under `{}`",
                    v - need,
                    routing.name()
                ),
            ));
        }
    }
    // `disha` adds the deadlock buffer's lane to every port
    let db = u32::from(routing == Routing::Disha);
    if radix * (v + db) > MAX_LANES {
        errs.push(bad(
            "vcs",
            v,
            format!(
                "at most {} here: switches of {radix} ports x vcs lanes{} must be at most {MAX_LANES} (allocation uses 128-bit lane masks)",
                MAX_LANES / radix - db,
                if db == 1 { " (and disha's deadlock buffer)" } else { "" }
            ),
        ));
    }
    let buf = cfg.vc_buf_flits.unwrap_or(DEFAULT_VC_BUF);
    let switching = cfg.switching.unwrap_or(Switching::Wormhole);
    match (switching, mtu) {
        (Switching::Vct, Some(m)) if buf < m || buf > 0xFFFF => errs.push(bad(
            "vc_buf_flits",
            buf,
            format!("must be in {m}..=65535 under cut-through (`vct`): a lane holds a whole packet of mtu_bytes = {m} flits"),
        )),
        _ if !(1..=0xFFFF).contains(&buf) => {
            errs.push(bad("vc_buf_flits", buf, "must be in 1..=65535"))
        }
        _ => {}
    }
}

/// `vc_buf_flits` when not given (BookSim's `vc_buf_size`).
pub const DEFAULT_VC_BUF: u32 = 8;

/// What the lane router needs to route: the routing and, for cubes, their shape.
#[derive(Clone, Copy, Debug)]
pub struct Router {
    pub routing: Routing,
    pub vcs: u32,
    /// k, n and wrap of a cube (k = 0 otherwise).
    pub k: u32,
    pub n: u32,
    pub wrap: bool,
    /// Lanes of the control class (`ack_vcs`; 0: one class).
    pub ack_vcs: u32,
    /// A dragonfly's shape (None otherwise).
    pub df: Option<super::topology::DragonflyShape>,
    /// UGAL and PAR: `ugal_threshold_flits`.
    pub threshold: u32,
    /// `duato` on a torus with `escape_lanes = 1`: one escape lane (lane 0) under
    /// dimension order without the wrap links, which a packet keeps once it took it.
    pub one_escape: bool,
    /// `disha`: the top lane of every port (index `vcs - 1` here, where `vcs` counts it)
    /// is the deadlock buffer, the others are adaptive.
    pub disha: bool,
}
