//! The routing tables of a file topology: for every destination router, the up*/down*
//! or shortest-path choices of every router, written a group of destinations at a time.

use super::super::columns::{Columns, COLUMNS};
use super::super::{Peer, SwitchSpec, Topology};
use super::Graph;
use crate::net::types::NodeId;

/// Some of each router's router links (those `keep(r, m)` takes), in neighbour order, with
/// the ports they leave by, in flat arrays (compressed rows).
struct Adjacency {
    /// Router `r`'s links are entries `start[r]..start[r + 1]`.
    start: Vec<u32>,
    to: Vec<u32>,
    port: Vec<u32>,
}

impl Adjacency {
    fn new(g: &Graph, keep: impl Fn(u32, u32) -> bool) -> Self {
        let mut a = Adjacency {
            start: Vec::with_capacity(g.links.len() + 1),
            to: Vec::new(),
            port: Vec::new(),
        };
        a.start.push(0);
        for (r, links) in g.links.iter().enumerate() {
            let first = g.nics[r].len() as u32;
            for (i, &(m, _)) in links.iter().enumerate() {
                if keep(r as u32, m) {
                    a.to.push(m);
                    a.port.push(first + i as u32);
                }
            }
            a.start.push(a.to.len() as u32);
        }
        a
    }

    /// The neighbours router `r` keeps.
    #[inline]
    fn to(&self, r: u32) -> &[u32] {
        &self.to[self.start[r as usize] as usize..self.start[r as usize + 1] as usize]
    }

    /// Their ports, in the same order.
    #[inline]
    fn ports(&self, r: u32) -> &[u32] {
        &self.port[self.start[r as usize] as usize..self.start[r as usize + 1] as usize]
    }
}

/// Build the topology with its up*/down* table, or (`shortest`: how they take lanes)
/// shortest paths: of least delay with `latency` (`Graph::delays_to`, a channel without a
/// latency taking it), of fewest hops without; `hops`: also `Topology::hops` (the hops of
/// those paths from every router to every NIC's router), with either table; `ports`
/// (with `hops`): also the least delays an adaptive routing chooses ports by
/// (`least_delay`), when the channels have more than one latency. Without `tables`, the
/// switches, ports and NICs only (`Topology::shape`): no route is asked of it.
pub(in crate::net::topology) fn build(
    g: &Graph,
    path: &str,
    shortest: Option<&str>,
    hops: bool,
    ports: bool,
    latency: Option<u32>,
    tables: bool,
) -> Topology {
    let uniform = latency.is_none_or(|l| g.one_latency(l));
    let latency = latency.unwrap_or(1);
    // a channel's weight in `dist` below: 1 a hop where every channel has one latency
    let delay = |l: Option<u32>| {
        if uniform {
            1
        } else {
            l.unwrap_or(latency) as u64
        }
    };
    let lanes = shortest;
    let shortest = lanes.is_some();
    let routers = g.routers();
    let nodes = g.nodes();
    // up*/down*'s levels, from the root (a search from every router when eccentricities
    // tie: minutes on a 65,536-router ring); `shape` asks for no route and needs none
    let root = tables.then(|| g.root());
    let level = match root {
        Some(root) => g.distances(root),
        None => vec![0; routers as usize],
    };
    // (`shape`'s description names no root: it has not looked for one)
    let from_root = match root {
        Some(root) => format!(" from router {root}"),
        None => String::new(),
    };
    let switches: Vec<SwitchSpec> = (0..routers)
        .map(|r| {
            let mut ports: Vec<Peer> = g.nics[r as usize]
                .iter()
                .map(|&n| Peer::Nic(NodeId(n)))
                .collect();
            ports.extend(g.links[r as usize].iter().map(|&(m, _)| Peer::Switch {
                switch: m,
                port: g.port_to(m, r),
            }));
            SwitchSpec {
                radix: ports.len() as u32,
                level: level[r as usize].min(u8::MAX as u32) as u8,
                name: format!("router {r}"),
                ports,
            }
        })
        .collect();
    // Routers in order of (level, number): every up link goes to an earlier one. `rank`:
    // each router's place in it (compared instead of the pair)
    let mut order: Vec<u32> = (0..routers).collect();
    order.sort_by_key(|&r| (level[r as usize], r));
    let mut rank = vec![0u32; routers as usize];
    for (i, &r) in order.iter().enumerate() {
        rank[r as usize] = i as u32;
    }
    let key = |r: u32| rank[r as usize];
    let mut route = vec![
        u8::MAX;
        if tables {
            routers as usize * nodes as usize
        } else {
            0
        }
    ];
    let mut hop_table = if hops && tables {
        vec![0u8; routers as usize * nodes as usize]
    } else {
        Vec::new()
    };
    let inf = u32::MAX;
    let mut down = vec![inf; routers as usize];
    let mut above: Vec<u32> = Vec::new();
    // (cycles, hops) from each router to the destination router, and the routers seen
    let mut dist: Vec<(u64, u32)> = Vec::new();
    let mut seen: Vec<u32> = Vec::new();
    let all = Adjacency::new(g, |_, _| true);
    let mut cost = vec![inf; routers as usize];
    // Ties between equal next hops: digit h of the destination in base `count`, h the
    // router's height (hops to the nearest router with NICs), as d-mod-k takes digit l at
    // level l of a k-ary n-tree; 0 on every router of a direct network.
    let height = g.heights();
    // (one choice, or a router of height 0, without the 64-bit divisions: they were a
    // third of a 100 x 100 mesh file's build)
    let tie = |r: u32, d: u32, count: usize| {
        if count == 1 {
            0
        } else if height[r as usize] == 0 {
            (d % count as u32) as usize
        } else {
            let base = (count as u64).saturating_pow(height[r as usize]);
            ((d as u64 / base) % count as u64) as usize
        }
    };
    // the ports of the equal next hops (in neighbour order, which the ties go by)
    let mut choices: Vec<u32> = Vec::new();
    // each router's links up and down, with their ports: the passes below run once per
    // destination router over every router, and read these in tight loops
    let up = Adjacency::new(g, |r, m| key(m) < key(r));
    let downward = Adjacency::new(g, |r, m| key(m) > key(r));
    // The columns of a group of destinations, router by router (`Columns`): a column
    // written straight into the table touched a cache line per router (half the build
    // of a 100 x 100 mesh file)
    let widest = g.nics.iter().map(Vec::len).max().unwrap_or(0);
    let mut cols = Columns::new(
        if tables { routers as usize } else { 0 },
        COLUMNS.max(widest),
        hops,
    );
    let mut delays =
        (hops && ports && !uniform).then(|| super::super::least_delay::Delays::new(g, latency));
    for t in (0..routers).filter(|_| tables) {
        if g.nics[t as usize].is_empty() {
            // no NIC to route to (the tables' columns are NICs): a router of a chain or a
            // spine costs nothing here
            continue;
        }
        if cols.group.len() + g.nics[t as usize].len() > cols.width {
            cols.flush(&mut route, &mut hop_table, nodes as usize);
        }
        let first = cols.group.len();
        if !shortest {
            // down[r]: hops from r to t going only down (a down link goes to a later
            // router): a breadth-first search from t going up, which visits only the
            // routers above t (`above`, reset for the next destination)
            for &r in &above {
                down[r as usize] = inf;
            }
            above.clear();
            down[t as usize] = 0;
            above.push(t);
            let mut next = 0;
            while let Some(&r) = above.get(next) {
                next += 1;
                let d = down[r as usize] + 1;
                for &m in up.to(r) {
                    if down[m as usize] == inf {
                        down[m as usize] = d;
                        above.push(m);
                    }
                }
            }
            // cost[r]: the hops the policy takes (down if it can, else up), root first.
            for &r in &order {
                cost[r as usize] = if down[r as usize] != inf {
                    down[r as usize]
                } else {
                    up.to(r)
                        .iter()
                        .map(|&m| cost[m as usize].saturating_add(1))
                        .min()
                        .unwrap_or(inf)
                };
            }
        }
        // (cycles, hops) to t; with one latency everywhere, (hops, hops)
        if !(shortest || hops) {
        } else if uniform {
            // (`Graph::distances` into a buffer kept from one destination to the next)
            dist.clear();
            dist.resize(routers as usize, (inf as u64, inf));
            dist[t as usize] = (0, 0);
            seen.clear();
            seen.push(t);
            let mut next = 0;
            while let Some(&r) = seen.get(next) {
                next += 1;
                let h = dist[r as usize].1 + 1;
                for &m in all.to(r) {
                    if dist[m as usize].1 == inf {
                        dist[m as usize] = (h as u64, h);
                        seen.push(m);
                    }
                }
            }
        } else {
            dist = g.delays_to(t, latency);
        }
        if let Some(x) = delays.as_mut() {
            x.set(g, t, &dist);
        }
        for r in 0..routers {
            let links = &g.links[r as usize];
            choices.clear();
            if r == t {
            } else if shortest {
                let first_link = g.nics[r as usize].len() as u32;
                choices.extend(
                    links
                        .iter()
                        .zip(first_link..)
                        .filter(|&(&(m, l), _)| {
                            let (c, h) = dist[m as usize];
                            (c + delay(l), h + 1) == dist[r as usize]
                        })
                        .map(|(_, port)| port),
                );
            } else if down[r as usize] != inf {
                let want = down[r as usize];
                choices.extend(
                    downward
                        .to(r)
                        .iter()
                        .zip(downward.ports(r))
                        .filter(|&(&m, _)| down[m as usize].saturating_add(1) == want)
                        .map(|(_, &port)| port),
                );
            } else {
                let want = cost[r as usize];
                choices.extend(
                    up.to(r)
                        .iter()
                        .zip(up.ports(r))
                        .filter(|&(&m, _)| cost[m as usize].saturating_add(1) == want)
                        .map(|(_, &port)| port),
                );
            }
            let at = r as usize * cols.width + first;
            for (j, &d) in g.nics[t as usize].iter().enumerate() {
                if let Some(h) = cols.hops.get_mut(at + j) {
                    // (`shortest_rising` and `shortest_adaptive` need at most `MAX_VCS`;
                    // under `shortest_updown` a router more than 255 hops away is offered
                    // the escape lane alone)
                    *h = dist[r as usize].1.min(255) as u8;
                }
                let port = if r == t {
                    j as u32
                } else {
                    // nonempty: the root reaches every router going down, and every other
                    // router has a link up (to its parent in the search)
                    choices[tie(r, d, choices.len())]
                };
                cols.route[at + j] = port as u8;
            }
        }
        cols.group.extend(&g.nics[t as usize]);
    }
    cols.flush(&mut route, &mut hop_table, nodes as usize);
    let attach: Vec<(u32, u32)> = (0..nodes)
        .map(|n| {
            let r = g.nic_router[n as usize];
            let p = g.nics[r as usize].iter().position(|&x| x == n).unwrap_or(0);
            (r, p as u32)
        })
        .collect();
    let links: usize = g.links.iter().map(Vec::len).sum::<usize>() / 2;
    Topology {
        nodes,
        hops: hop_table,
        delays,
        description: format!(
            "from {path}: {routers} routers, {nodes} NICs, {links} links, {}",
            if let Some(lanes) = lanes {
                format!("shortest paths, {lanes}")
            } else if hops {
                format!("any shortest path on lanes 1.., up*/down*{from_root} on the escape lane 0")
            } else {
                format!("up*/down* routing{from_root}")
            }
        ),
        switches,
        eject: attach.clone(),
        attach,
        route,
        rule: None,
    }
}
