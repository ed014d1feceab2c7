//! Topologies from a file in BookSim 2's `anynet` format, routed up*/down*.
//!
//! A line names a router or a NIC ("node") and what it connects to:
//! ```text
//! router 0 node 0 node 1 router 1        router 0 has NICs 0 and 1 and a link to router 1
//! router 1 node 2 router 2 100           ... and a 100-cycle channel to router 2
//! node 3 router 2                        NIC 3 hangs on router 2
//! ```
//! A link is bidirectional; a number after `router M` is the latency of the channel from
//! this line's router to M (flits and credits, as BookSim's `SetLatency`), the way back
//! keeps its own (1 in BookSim, `link_latency_cycles` here) unless M's line gives one.
//! Routers and NICs are numbered 0.. without gaps. Ports follow BookSim's order: a router's
//! NICs by number, then its router neighbours by number. `#` starts a comment (BookSim has
//! none; its files have no `#`).
//!
//! Routing: up*/down* (Autonet). A breadth-first search from the router with the smallest
//! eccentricity (ties: one with NICs, then the lowest number) gives each router a level; a
//! link goes *up* to the end with the lower (level, number). A packet may go up, then only
//! down, so no cycle of channel dependencies exists even with one lane. The table is per (router,
//! destination): a router from which the destination's router is reachable going only
//! down sends the packet down on a shortest down path, others up on a shortest legal path;
//! among equal choices the destination number picks one (destination mod count), to
//! spread the destinations over the links as d-mod-k does. Paths may be longer than the
//! shortest path in the graph (BookSim's `min_anynet` takes the shortest one, which can
//! deadlock): the cost of deadlock freedom on one lane.

mod tables;

pub use super::anynet_write::{write, write_new_file};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};
pub(super) use tables::build;

/// A parsed file: routers, their NICs and links.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Graph {
    /// Router of each NIC.
    pub nic_router: Vec<u32>,
    /// Per router: its NICs, by number.
    pub nics: Vec<Vec<u32>>,
    /// Per router: its neighbours by number, each with the latency of the channel towards
    /// it (None: the network's `link_latency_cycles`).
    pub links: Vec<Vec<(u32, Option<u32>)>>,
}

/// A malformed file: the line (1-based; 0 for the whole file) and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub line: usize,
    pub reason: String,
}

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.line == 0 {
            write!(f, "{}", self.reason)
        } else {
            write!(f, "line {}: {}", self.line, self.reason)
        }
    }
}

/// A word of the file as an error quotes it: control characters escaped, at most 80
/// characters (a message must not flood or drive the terminal).
fn quoted(w: &str) -> String {
    const MAX: usize = 80;
    let mut out: String = w
        .chars()
        .take(MAX)
        .flat_map(|c| {
            if c.is_control() || c == '\u{feff}' {
                c.escape_default().collect::<Vec<_>>()
            } else {
                vec![c]
            }
        })
        .collect();
    if w.chars().nth(MAX).is_some() {
        out.push_str("...");
    }
    out
}

/// Most routers and channel latency a file may give (the simulator's own limits are
/// checked with the network's keys).
const MAX_ROUTERS: u32 = 65_536;
const MAX_LINK_LATENCY: u32 = 65_536;

impl Graph {
    /// Parse `text`; `max_radix` and `max_nodes` are the simulator's limits.
    pub fn parse(text: &str, max_radix: u32, max_nodes: u32) -> Result<Graph, ParseError> {
        let err = |line: usize, reason: String| ParseError { line, reason };
        // (router, neighbour) -> latency with the line that gave it, and the line that
        // first named a NIC's router
        type Links = Vec<std::collections::BTreeMap<u32, (Option<u32>, usize)>>;
        let mut links: Links = Vec::new();
        let mut nic_router: Vec<Option<(u32, usize)>> = Vec::new();
        let grow = |links: &mut Links, named_at: &mut Vec<usize>, r: u32, line: usize| {
            if links.len() <= r as usize {
                links.resize(r as usize + 1, Default::default());
                named_at.resize(r as usize + 1, 0);
            }
            if named_at[r as usize] == 0 {
                named_at[r as usize] = line;
            }
        };
        // a byte-order mark (an editor's) is not part of the first line; a lone CR (an old
        // Mac editor's) ends a line, as CRLF and LF do
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        // (copied only when it has one: a file of 256 MiB is read once, not three times)
        let text: std::borrow::Cow<str> = if text.contains('\r') {
            text.replace("\r\n", "\n").replace('\r', "\n").into()
        } else {
            text.into()
        };
        // the line that first named each router (for the errors about a router as a whole)
        let mut named_at: Vec<usize> = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            let body = raw.split('#').next().unwrap_or("");
            let mut words = body.split_whitespace().peekable();
            let Some(head) = words.next() else { continue };
            let id = |w: Option<&str>, what: &str| -> Result<u32, ParseError> {
                let w = w.ok_or_else(|| err(line, format!("`{what}` needs a number")))?;
                // the range of the number itself: routers and NICs have limits of their own
                let max = if what == "router" {
                    MAX_ROUTERS - 1
                } else {
                    max_nodes.saturating_sub(1)
                };
                w.parse::<u32>().map_err(|_| {
                    err(
                        line,
                        format!("`{what} {}`: a whole number 0..={max} expected", quoted(w)),
                    )
                })
            };
            let head_router = match head {
                "router" => true,
                "node" => false,
                w => {
                    return Err(err(
                        line,
                        format!(
                            "`{}`: a line starts with `router` or `node` (a comment with `#`)",
                            quoted(w)
                        ),
                    ))
                }
            };
            let head_id = id(words.next(), head)?;
            if head_router && head_id >= MAX_ROUTERS {
                return Err(err(
                    line,
                    format!("router {head_id}: at most {MAX_ROUTERS} routers"),
                ));
            }
            if head_router {
                grow(&mut links, &mut named_at, head_id, line);
            }
            let mut any = false;
            while let Some(kind) = words.next() {
                let body_router = match kind {
                    "router" => true,
                    "node" => false,
                    w => {
                        return Err(err(
                            line,
                            format!(
                                "`{}`: `router N`, `node N` or a latency after a router expected",
                                quoted(w)
                            ),
                        ))
                    }
                };
                let body_id = id(words.next(), kind)?;
                any = true;
                // an optional latency after the entry
                let lat = match words.peek() {
                    Some(w) if *w != "router" && *w != "node" => {
                        let w = words.next().unwrap_or_default();
                        if !body_router && w.parse::<u64>().is_err() {
                            // a word, not a number, after a NIC: no latency goes there
                            return Err(err(
                                line,
                                format!(
                                    "`{}`: `router N` or `node N` expected after a NIC",
                                    quoted(w)
                                ),
                            ));
                        }
                        let l = w
                            .parse::<u32>()
                            .ok()
                            .filter(|l| (1..=MAX_LINK_LATENCY).contains(l));
                        Some(l.ok_or_else(|| {
                            err(
                                line,
                                format!(
                                    "latency `{}`: a whole number of cycles in 1..={MAX_LINK_LATENCY} expected",
                                    quoted(w)
                                ),
                            )
                        })?)
                    }
                    _ => None,
                };
                match (head_router, body_router) {
                    (false, false) => {
                        return Err(err(
                            line,
                            format!("node {head_id} to node {body_id}: a NIC connects to a router"),
                        ))
                    }
                    (true, true) => {
                        if body_id == head_id {
                            return Err(err(line, format!("router {head_id} linked to itself")));
                        }
                        if body_id >= MAX_ROUTERS {
                            return Err(err(
                                line,
                                format!("router {body_id}: at most {MAX_ROUTERS} routers"),
                            ));
                        }
                        grow(&mut links, &mut named_at, body_id, line);
                        let e = links[head_id as usize].entry(body_id).or_insert((None, 0));
                        match (*e, lat) {
                            // BookSim keeps the last of two latencies; two different
                            // ones are a mistake in the file, not a choice to guess at
                            ((Some(was), first), Some(l)) if was != l => {
                                return Err(err(
                                    line,
                                    format!("router {head_id} to router {body_id}: latency {l} here, {was} on line {first}: a channel has one latency"),
                                ));
                            }
                            (_, Some(l)) => *e = (Some(l), line),
                            _ => {}
                        }
                        links[body_id as usize].entry(head_id).or_insert((None, 0));
                    }
                    (h, _) => {
                        if lat.is_some() {
                            return Err(err(
                                line,
                                "a latency after a NIC's link is not modelled (BookSim stores it as a router link): set `link_latency_cycles`".into(),
                            ));
                        }
                        let (nic, router) = if h {
                            (body_id, head_id)
                        } else {
                            (head_id, body_id)
                        };
                        if nic >= max_nodes {
                            return Err(err(
                                line,
                                format!(
                                    "node {nic}: NICs are numbered 0..={} (at most {max_nodes})",
                                    max_nodes - 1
                                ),
                            ));
                        }
                        if router >= MAX_ROUTERS {
                            return Err(err(
                                line,
                                format!("router {router}: at most {MAX_ROUTERS} routers"),
                            ));
                        }
                        grow(&mut links, &mut named_at, router, line);
                        if nic_router.len() <= nic as usize {
                            nic_router.resize(nic as usize + 1, None);
                        }
                        match nic_router[nic as usize] {
                            Some((r, first)) if r != router => {
                                return Err(err(
                                    line,
                                    format!("node {nic} attached to router {router} and (line {first}) to router {r}: a NIC has one router"),
                                ))
                            }
                            _ => nic_router[nic as usize] = Some((router, line)),
                        }
                    }
                }
            }
            // `router N` alone is allowed (BookSim reads it): its links may be on other lines
            if !any && !head_router {
                return Err(err(line, format!("node {head_id} connects to nothing")));
            }
        }
        if links.is_empty() {
            return Err(err(0, "no router: the file names none".into()));
        }
        if let Some(n) = nic_router.iter().position(Option::is_none) {
            return Err(err(
                0,
                format!(
                    "node {n} is missing: NICs are numbered 0.. without gaps ({} named, the highest {})",
                    nic_router.iter().filter(|r| r.is_some()).count(),
                    nic_router.len() - 1
                ),
            ));
        }
        if nic_router.len() < 2 {
            return Err(err(
                0,
                format!("{} NIC(s): at least 2 needed", nic_router.len()),
            ));
        }
        let nic_router: Vec<u32> = nic_router
            .into_iter()
            .map(|x| x.map_or(0, |(r, _)| r))
            .collect();
        let mut nics = vec![Vec::new(); links.len()];
        for (n, &r) in nic_router.iter().enumerate() {
            nics[r as usize].push(n as u32);
        }
        for (r, l) in links.iter().enumerate() {
            if named_at[r] == 0 {
                // a gap: name the router above it and where it was named
                let top = links.len() - 1;
                return Err(err(
                    named_at[top],
                    format!("router {top} is named but router {r} is not: routers are numbered 0.. without gaps"),
                ));
            }
            if l.is_empty() && nics[r].is_empty() {
                return Err(err(
                    named_at[r],
                    format!("router {r} has no link and no NIC: every router is connected"),
                ));
            }
            let radix = (l.len() + nics[r].len()) as u32;
            if radix > max_radix {
                return Err(err(
                    named_at[r],
                    format!("router {r} has {radix} ports: at most {max_radix}"),
                ));
            }
        }
        let g = Graph {
            nic_router,
            nics,
            links: links
                .into_iter()
                .map(|m| m.into_iter().map(|(r, (l, _))| (r, l)).collect())
                .collect(),
        };
        let reach = g.distances(0);
        if let Some(r) = reach.iter().position(|d| *d == u32::MAX) {
            return Err(err(
                0,
                format!("router {r} cannot be reached from router 0: the graph is disconnected"),
            ));
        }
        Ok(g)
    }

    /// Routers.
    pub fn routers(&self) -> u32 {
        self.links.len() as u32
    }

    /// NICs.
    pub fn nodes(&self) -> u32 {
        self.nic_router.len() as u32
    }

    /// Hop counts from router `from` (u32::MAX: unreachable).
    fn distances(&self, from: u32) -> Vec<u32> {
        let mut d = vec![u32::MAX; self.links.len()];
        d[from as usize] = 0;
        let mut q = VecDeque::from([from]);
        while let Some(r) = q.pop_front() {
            for &(m, _) in &self.links[r as usize] {
                if d[m as usize] == u32::MAX {
                    d[m as usize] = d[r as usize] + 1;
                    q.push_back(m);
                }
            }
        }
        d
    }

    /// Does every channel have latency `default` (none given, or each one given equal to
    /// it)? Then least delay is fewest hops.
    pub fn one_latency(&self, default: u32) -> bool {
        self.links
            .iter()
            .flatten()
            .all(|&(_, l)| l.unwrap_or(default) == default)
    }

    /// Least-delay distances to router `t` from every router, as (cycles, hops) compared in
    /// that order: the fewest hops among the paths of least delay. BookSim's `min_anynet`
    /// is Dijkstra on the file's latencies; a channel without one takes `default` here (the
    /// network's `link_latency_cycles`: the delay simulated). With one latency everywhere
    /// the hops are a breadth-first search's.
    pub fn delays_to(&self, t: u32, default: u32) -> Vec<(u64, u32)> {
        let mut d = vec![(u64::MAX, u32::MAX); self.links.len()];
        d[t as usize] = (0, 0);
        let mut heap = BinaryHeap::from([Reverse(((0u64, 0u32), t))]);
        while let Some(Reverse((dm, m))) = heap.pop() {
            if dm > d[m as usize] {
                continue;
            }
            for &(r, _) in &self.links[m as usize] {
                // the channel r -> m
                let c = (dm.0 + self.latency(r, m, default) as u64, dm.1 + 1);
                if c < d[r as usize] {
                    d[r as usize] = c;
                    heap.push(Reverse((c, r)));
                }
            }
        }
        d
    }

    /// The latency of the channel from router `r` to its neighbour `m`.
    fn latency(&self, r: u32, m: u32, default: u32) -> u32 {
        let l = &self.links[r as usize];
        l[l.partition_point(|&(x, _)| x < m)].1.unwrap_or(default)
    }

    /// The lanes a lane-per-hop routing needs on this graph (at least 1): the most
    /// router-to-router hops of a path it takes. `shortest`, `shortest_rising` and
    /// `shortest_adaptive` take least-delay paths (`delays_to`): the diameter when every
    /// channel has one latency. Above `most` (no lane count is enough), the diameter, a
    /// lower bound, at once: a least-delay path takes at least the fewest hops, and the
    /// search from every router takes minutes on a large file.
    pub fn lanes_needed(&self, default: u32, most: u32) -> u32 {
        let diameter = self.diameter().max(1);
        if self.one_latency(default) || diameter > most {
            return diameter;
        }
        let hops = (0..self.routers()).flat_map(|t| self.delays_to(t, default));
        hops.map(|d| d.1).max().unwrap_or(0).max(1)
    }

    /// Each router's height: hops to the nearest router with NICs.
    fn heights(&self) -> Vec<u32> {
        let mut h = vec![u32::MAX; self.links.len()];
        let mut q = VecDeque::new();
        for (r, n) in self.nics.iter().enumerate() {
            if !n.is_empty() {
                h[r] = 0;
                q.push_back(r as u32);
            }
        }
        while let Some(r) = q.pop_front() {
            for &(m, _) in &self.links[r as usize] {
                if h[m as usize] == u32::MAX {
                    h[m as usize] = h[r as usize] + 1;
                    q.push_back(m);
                }
            }
        }
        h
    }

    /// The root of up*/down*: the router of least eccentricity; on ties one with NICs
    /// before one without, then the lowest number. (Found by bounding eccentricities:
    /// `eccentricity.rs`.) Why NICs: in an indirect network the routers with NICs are its
    /// edge, and a root there leaves the other edge routers deepest, so that "up" leads
    /// from the NICs into the core and the legal paths are the network's own up-then-down
    /// ones; a root inside the core (every router of a k-ary n-tree has one
    /// eccentricity) turns part of the network upside down and sends the rest through a
    /// few of its links (docs/network.md, "How close, against the routing's own choices").
    /// Only whether a router has NICs counts, not how many: a core router that also
    /// carries NICs is not preferred to the edge for carrying more.
    pub fn root(&self) -> u32 {
        super::eccentricity::center_by(
            self.links.len(),
            |r| self.distances(r),
            |r| (self.nics[r as usize].is_empty(), r),
        )
    }

    /// The longest shortest path, in router-to-router hops.
    pub fn diameter(&self) -> u32 {
        super::eccentricity::diameter(self.links.len(), |r| self.distances(r))
    }

    /// Port of router `r` towards neighbour router `m` (NICs come first).
    fn port_to(&self, r: u32, m: u32) -> u32 {
        let i = self.links[r as usize].partition_point(|&(x, _)| x < m);
        (self.nics[r as usize].len() + i) as u32
    }

    /// Each channel's latency: `(router, port, latency)` for the links the file gives one.
    pub fn latencies(&self) -> Vec<(u32, u32, u32)> {
        let mut out = Vec::new();
        for (r, l) in self.links.iter().enumerate() {
            for &(m, lat) in l {
                if let Some(lat) = lat {
                    out.push((r as u32, self.port_to(r as u32, m), lat));
                }
            }
        }
        out
    }
}
