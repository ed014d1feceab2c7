//! Topologies and their deterministic routing tables: single switch, two-level fat tree,
//! the 648-node 3-stage fabric (up/down, d-mod-k; below), k-ary n-cube tori and meshes
//! (dimension order; `cube`), k-ary n-trees (up/down, d-mod-k; `ntree`) and k-ary n-flies
//! (unidirectional butterflies, destination tag; `fly`).
//!
//! A two-level fat tree of radix-k switches (h = k/2):
//! ```text
//!   spine 0   spine 1  ...  spine h-1        spine j, port l  <->  leaf l, port h + j
//!     |  \     /  |           |
//!   leaf 0   leaf 1  ...  leaf L-1            leaf l, port p < h  <->  NIC l*h + p
//!   |||||    |||||         |||||
//! ```
//! Routing to destination d (NIC d sits on leaf d / h, port d % h): a leaf sends d down on
//! port d % h if d is below it, else up to spine d mod h (port h + d % h): d-mod-k, so every
//! destination has exactly one spine and every down-link carries one destination only. A
//! spine sends d down to leaf d / h. Paths are up*/down*: leaf, spine, leaf (or one leaf).

pub mod anynet;
pub mod anynet_write;
mod columns;
pub mod cube;
pub mod dragonfly;
mod eccentricity;
mod fly;
pub mod least_delay;
mod longest;
mod ntree;
mod rule;

pub use self::rule::TABLE_MAX;

pub use self::dragonfly::Shape as DragonflyShape;
use super::config::TopologyConfig;
use super::lanes::Routing;
use super::types::NodeId;

/// What is on the far side of a switch port.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Peer {
    /// A NIC.
    Nic(NodeId),
    /// Port `port` of switch `switch`.
    Switch { switch: u32, port: u32 },
    /// Nothing (e.g. a spine port above a missing leaf).
    Unused,
}

/// One switch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SwitchSpec {
    /// Ports (all ports, used or not).
    pub radix: u32,
    /// 0 = leaf (edge), 1 = spine; a k-ary n-tree's level; 0 for every router of a cube.
    pub level: u8,
    /// Human-readable name, e.g. "leaf 3", "spine 0".
    pub name: String,
    /// What each port connects to.
    pub ports: Vec<Peer>,
}

/// One hop of a path: through `switch` from `in_port` to `out_port`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hop {
    pub switch: u32,
    pub in_port: u32,
    pub out_port: u32,
}

/// A built topology with its routing table.
#[derive(Clone, Debug)]
pub struct Topology {
    nodes: u32,
    switches: Vec<SwitchSpec>,
    /// Edge switch and port of every NIC: where it injects (and, except on a butterfly,
    /// where it ejects).
    attach: Vec<(u32, u32)>,
    /// Switch and output port that eject to every NIC (`attach` except on a butterfly).
    eject: Vec<(u32, u32)>,
    /// `route[s * nodes + d]`: the output port of switch s towards NIC d (u8::MAX: none);
    /// empty when `rule` routes (a built-in kind above `TABLE_MAX` entries).
    route: Vec<u8>,
    /// The built-in kind's routing rule (None for a file, the fat trees and the single
    /// switch, whose tables are always built).
    rule: Option<rule::Rule>,
    /// `hops[s * nodes + d]`: router-to-router hops from switch s to NIC d's switch on a
    /// path of least delay (the fewest hops among them; of fewest hops when every channel
    /// has one latency), for the routings that choose lanes or ports by them
    /// (`shortest_rising`, `shortest_adaptive`, `shortest_updown`); empty otherwise.
    hops: Vec<u8>,
    /// The least delays `shortest_adaptive` and `shortest_updown` choose ports by on a file
    /// with more than one channel latency; None otherwise (the hops decide).
    delays: Option<least_delay::Delays>,
    description: String,
}

impl Topology {
    /// Build from a validated config.
    pub fn build(cfg: &TopologyConfig) -> Topology {
        match *cfg {
            TopologyConfig::SingleSwitch { nodes } => Self::single_switch(nodes),
            TopologyConfig::FatTree { radix, leaves } => Self::fat_tree(radix, leaves),
            TopologyConfig::ThreeStage { radix } => Self::fat_tree(radix, radix),
            TopologyConfig::Torus { k, n } => cube::build(k, n, true),
            TopologyConfig::Mesh { k, n } => cube::build(k, n, false),
            TopologyConfig::KaryNtree { k, n, hosts } => {
                ntree::build(k, n, hosts.unwrap_or_else(|| k.pow(n)))
            }
            TopologyConfig::KaryNfly { k, n, hosts } => {
                fly::build(k, n, hosts.unwrap_or_else(|| k.pow(n)))
            }
            TopologyConfig::Dragonfly { .. } => {
                dragonfly::build(cfg.dragonfly().expect("a dragonfly"))
            }
            TopologyConfig::File {
                ref path,
                ref graph,
            } => anynet::build(
                graph.as_ref().expect("a file topology resolved and valid"),
                path,
                None,
                false,
                false,
                None,
                true,
            ),
        }
    }

    /// `build`'s switches, ports and NICs, for the checks that need no route: a file's
    /// routing tables (a search from every router to every router with NICs: seconds on a
    /// file of thousands of routers) and its up*/down* levels (`level` 0: the root search,
    /// minutes on a ring of 65,536 routers) are left out, so `route`, `hops_to`,
    /// `least_delay` and `path` must not be asked of it. Any other kind is `build` itself.
    pub fn shape(cfg: &TopologyConfig) -> Topology {
        match cfg {
            TopologyConfig::File {
                path,
                graph: Some(g),
            } => anynet::build(g, path, None, false, false, None, false),
            t => Self::build(t),
        }
    }

    /// The network's topology: `build`, with a file's shortest-path table under routing
    /// `shortest`, `shortest_rising` or `shortest_adaptive`, and its up*/down* table with
    /// the hops of least-delay paths under `shortest_updown`. All four follow least delay
    /// (BookSim's `min_anynet`), then fewest hops; the adaptive two keep the least delays
    /// too (`least_delay`) when the channels have more than one latency.
    pub fn for_net(cfg: &crate::net::NetConfig) -> Topology {
        let delay = Some(cfg.link_latency_cycles);
        match &cfg.topology {
            TopologyConfig::File {
                path,
                graph: Some(g),
            } if cfg.routing == Some(Routing::ShortestUpdown) => {
                anynet::build(g, path, None, true, true, delay, true)
            }
            TopologyConfig::File {
                path,
                graph: Some(g),
            } if matches!(
                cfg.routing,
                Some(Routing::Shortest | Routing::ShortestRising | Routing::ShortestAdaptive)
            ) =>
            {
                let (lanes, hops) = match cfg.routing {
                    Some(Routing::Shortest) => ("a lane per hop", false),
                    Some(Routing::ShortestAdaptive) => (
                        "any shortest path by free credits, lanes rising hop by hop",
                        true,
                    ),
                    _ => ("lanes rising hop by hop", true),
                };
                let ports = cfg.routing == Some(Routing::ShortestAdaptive);
                anynet::build(g, path, Some(lanes), hops, ports, delay, true)
            }
            t => Self::build(t),
        }
    }

    fn single_switch(nodes: u32) -> Topology {
        let sw = SwitchSpec {
            radix: nodes,
            level: 0,
            name: "switch 0".into(),
            ports: NodeId::all(nodes).map(Peer::Nic).collect(),
        };
        Topology {
            nodes,
            switches: vec![sw],
            attach: (0..nodes).map(|n| (0, n)).collect(),
            eject: (0..nodes).map(|n| (0, n)).collect(),
            route: (0..nodes).map(|d| d as u8).collect(),
            rule: None,
            hops: Vec::new(),
            delays: None,
            description: format!("single switch, {nodes} ports"),
        }
    }

    fn fat_tree(radix: u32, leaves: u32) -> Topology {
        let h = radix / 2;
        let nodes = leaves * h;
        let mut switches = Vec::new();
        for l in 0..leaves {
            let mut ports: Vec<Peer> = (0..h).map(|p| Peer::Nic(NodeId(l * h + p))).collect();
            ports.extend((0..h).map(|j| Peer::Switch {
                switch: leaves + j,
                port: l,
            }));
            switches.push(SwitchSpec {
                radix,
                level: 0,
                name: format!("leaf {l}"),
                ports,
            });
        }
        for j in 0..h {
            let ports = (0..radix)
                .map(|p| {
                    if p < leaves {
                        Peer::Switch {
                            switch: p,
                            port: h + j,
                        }
                    } else {
                        Peer::Unused
                    }
                })
                .collect();
            switches.push(SwitchSpec {
                radix,
                level: 1,
                name: format!("spine {j}"),
                ports,
            });
        }
        let n = nodes as usize;
        let mut route = vec![u8::MAX; switches.len() * n];
        for d in 0..nodes {
            let (leaf_of_d, local) = (d / h, d % h);
            for l in 0..leaves {
                route[l as usize * n + d as usize] = if l == leaf_of_d {
                    local as u8
                } else {
                    (h + d % h) as u8 // d-mod-k: spine d mod h
                };
            }
            for j in 0..h {
                route[(leaves + j) as usize * n + d as usize] = leaf_of_d as u8;
            }
        }
        Topology {
            nodes,
            attach: (0..nodes).map(|d| (d / h, d % h)).collect(),
            eject: (0..nodes).map(|d| (d / h, d % h)).collect(),
            hops: Vec::new(),
            delays: None,
            description: format!(
                "two-level fat tree of radix-{radix} switches: {leaves} leaves x {h} nodes, {h} spines ({leaves} of {radix} ports used), {} switches, {nodes} nodes",
                leaves + h
            ),
            switches,
            route,
            rule: None,
        }
    }

    /// Number of NICs.
    pub fn nodes(&self) -> u32 {
        self.nodes
    }

    /// The switches.
    pub fn switches(&self) -> &[SwitchSpec] {
        &self.switches
    }

    /// Switch and input port NIC `n` injects into (its edge switch and port; stage 0 of a
    /// butterfly).
    pub fn attach(&self, n: NodeId) -> (u32, u32) {
        self.attach[n.index()]
    }

    /// Switch and output port that eject to NIC `n` (`attach` but on a butterfly, whose
    /// last stage does).
    pub fn eject(&self, n: NodeId) -> (u32, u32) {
        self.eject[n.index()]
    }

    /// The output port of switch `s` towards NIC `d`: from the table, or by the rule where
    /// there is none.
    #[inline]
    pub fn route(&self, s: u32, d: NodeId) -> u32 {
        match self.route.get(s as usize * self.nodes as usize + d.index()) {
            Some(&p) => p as u32,
            None => self.rule_port(s, d),
        }
    }

    /// `route` by the rule (no table).
    #[inline(never)]
    fn rule_port(&self, s: u32, d: NodeId) -> u32 {
        debug_assert!(s < self.switches.len() as u32 && d.0 < self.nodes);
        self.rule.expect("a table or a rule").port(s, d.0)
    }

    /// Is the routing table built (else the rule routes: `TABLE_MAX`)?
    pub fn has_table(&self) -> bool {
        !self.route.is_empty()
    }

    /// The same topology routed by its rule alone, without the table (for tests: the
    /// rule and the table agree). None for a kind without a rule.
    #[doc(hidden)]
    pub fn without_table(&self) -> Option<Topology> {
        self.rule.map(|_| Topology {
            route: Vec::new(),
            ..self.clone()
        })
    }

    /// Router-to-router hops from switch `s` to NIC `d`'s switch on a path of least delay
    /// (`hops`: built for `shortest_rising`, `shortest_adaptive` and `shortest_updown`
    /// only).
    #[inline]
    pub fn hops_to(&self, s: u32, d: NodeId) -> u32 {
        self.hops[s as usize * self.nodes as usize + d.index()] as u32
    }

    /// Is port `p` of switch `s`, to switch `m` one hop nearer NIC `d`'s switch by
    /// `hops_to`, on a path of least delay to it? Always where every channel has one
    /// latency (`least_delay`).
    #[inline]
    pub fn least_delay(&self, s: u32, p: u32, m: u32, d: NodeId) -> bool {
        self.delays.as_ref().is_none_or(|x| x.on_path(s, p, m, d))
    }

    /// One line describing the topology.
    pub fn description(&self) -> &str {
        &self.description
    }

    /// The path of a packet from NIC `src` to NIC `dst` by following the routing tables, or
    /// an error naming the switch where it breaks (no route, unused port, loop).
    pub fn path(&self, src: NodeId, dst: NodeId) -> Result<Vec<Hop>, String> {
        let (mut s, mut in_port) = self.attach(src);
        let mut hops = Vec::new();
        for _ in 0..=self.switches.len() {
            let out = self.route(s, dst);
            let sw = &self.switches[s as usize];
            if out >= sw.radix {
                return Err(format!("{} has no route to NIC {dst}", sw.name));
            }
            hops.push(Hop {
                switch: s,
                in_port,
                out_port: out,
            });
            match sw.ports[out as usize] {
                Peer::Nic(n) if n == dst => return Ok(hops),
                Peer::Nic(n) => {
                    return Err(format!(
                        "{} port {out} leads to NIC {n}, not {dst}",
                        sw.name
                    ))
                }
                Peer::Unused => return Err(format!("{} routes to unused port {out}", sw.name)),
                Peer::Switch { switch, port } => {
                    s = switch;
                    in_port = port;
                }
            }
        }
        Err(format!("routing loop from NIC {src} to NIC {dst}"))
    }
}
