//! The topology keys of `[network]` (`topology = { kind = ..., ... }`) with their ranges,
//! and the switch's arbitration.

#[allow(unused_imports)]
use super::*;

/// Most NICs of any topology. Per-NIC state is linear in NICs and per-flow state is kept
/// per active flow (send queues, ACK counts), so the limits are this and a file's routing
/// table.
pub const MAX_NODES: u32 = 32_768;

/// Most entries (bytes) of a file topology's routing table, routers x NICs (256 MiB). A
/// built-in kind routes by its rule above `topology::TABLE_MAX` entries, so it has no such
/// limit.
pub const MAX_TABLE_BYTES: u64 = 1 << 28;

/// Pushes an error unless `k^n <= most`.
pub(super) fn nodes_ok(errs: &mut Vec<FieldError>, k: u32, n: u32, most: u32) {
    if k.checked_pow(n).is_none_or(|v| v > most) {
        errs.push(bad(
            "topology.n",
            n,
            format!(
                "k^n (NICs) must be at most {most}: with k = {k}, n <= {}",
                max_n(k, most)
            ),
        ));
    }
}

/// The largest n with k^n <= most (k >= 2).
pub(super) fn max_n(k: u32, most: u32) -> u32 {
    let mut n = 0;
    while k.checked_pow(n + 1).is_some_and(|v| v <= most) {
        n += 1;
    }
    n
}

/// Which topology, with its size. Serde form: `{ kind = "fat_tree", radix = 24, leaves = 10 }`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum TopologyConfig {
    /// One switch of radix `nodes`; NIC i on port i (incast experiments). 2..=64 nodes.
    SingleSwitch { nodes: u32 },
    /// Two-level fat tree (leaf/spine; a folded 3-stage Clos) of `radix`-port switches:
    /// `leaves` leaf switches with radix/2 NICs below and radix/2 up-links, one to each of
    /// radix/2 spines; each spine uses `leaves` of its ports. Full bisection bandwidth.
    /// Nodes = leaves * radix / 2. radix even in 4..=64, leaves in 2..=radix.
    FatTree { radix: u32, leaves: u32 },
    /// The largest two-level tree of `radix`-port switches: radix leaves and radix/2 spines,
    /// radix^2/2 nodes. With radix 36: 648 nodes on 54 switches, the 3-stage fat tree of the
    /// Sun Datacenter InfiniBand Switch 648 used by the IB CC seed paper.
    ThreeStage { radix: u32 },
    /// A `k`-ary `n`-cube torus: `k^n` routers of `2n + 1` ports in `n` rings of `k`, one NIC
    /// each, dimension-order routing. k in 2..=32768, n in 1..=12, k^n <= 32768. With the one
    /// lane of today's switch its rings can deadlock (the deadlock detector names the
    /// waiting buffers); lanes with dateline classes are issue 22.
    Torus { k: u32, n: u32 },
    /// A `k`-ary `n`-cube mesh (a torus without the wrap links): dimension-order routing,
    /// deadlock-free with one lane. Ranges as `torus`.
    Mesh { k: u32, n: u32 },
    /// A `k`-ary `n`-tree (bidirectional MIN, BookSim's `fattree`): `k^n` NICs, `n` levels of
    /// `k^(n-1)` switches of `2k` ports, up/down routing. k in 2..=32, n in 1..=8,
    /// k^n <= 32768. `hosts` (default k^n) keeps NICs `0 .. hosts`, `hosts / k` switches per
    /// level: `m * k^(n-1)` with `m` in 2..=k dividing `k` (n >= 2), each top switch merging
    /// `k / m` of the full tree's (seed 004's bidirectional MIN, 512 hosts on 640 switches,
    /// is k = 4, n = 5, hosts = 512).
    KaryNtree {
        k: u32,
        n: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        hosts: Option<u32>,
    },
    /// A `k`-ary `n`-fly (unidirectional butterfly, BookSim's `fly`): `n` stages of
    /// `k^(n-1)` switches of `k x k` ports, NICs injecting at stage 0 and ejecting at stage
    /// `n - 1`, destination-tag routing. k in 2..=64, n in 1..=12, k^n <= 32768. `hosts`
    /// (default k^n) keeps NICs `0 .. hosts` and the switches on their paths, `hosts / k` per
    /// stage: a multiple of k^(n-1) up to k^n (the seed 004's 512 hosts on 640 switches are
    /// k = 4, n = 5, hosts = 512).
    KaryNfly {
        k: u32,
        n: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        hosts: Option<u32>,
    },
    /// A dragonfly (BookSim's `dragonflynew`, generalised): `g` groups of `a` routers, all
    /// to all inside a group, each router with `p` NICs and `h` global links; groups share
    /// one global link each, arranged as BookSim's (docs/network.md, "Dragonflies").
    /// p, a, h >= 1, g in 1..=a*h+1 (default a*h+1), p + a - 1 + h <= 64 ports,
    /// g*a*p <= 32768 NICs.
    Dragonfly {
        p: u32,
        a: u32,
        h: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        g: Option<u32>,
    },
    /// Routers, NICs and links from a file in BookSim 2's `anynet` format, routed up*/down*
    /// (docs/network.md, "Topologies from a file"). `path` is taken from the scenario
    /// file's directory when relative (net-bench: from the current directory). At most
    /// MAX_RADIX ports a router and MAX_NODES NICs, routers x NICs <= MAX_TABLE_BYTES.
    File {
        path: String,
        /// The parsed file (`resolve` reads it).
        #[serde(skip)]
        graph: Option<std::sync::Arc<crate::net::topology::anynet::Graph>>,
    },
}

impl Default for TopologyConfig {
    /// The paper's testbed size: 120 nodes, full bisection (radix 24, 10 leaves, 12 spines).
    fn default() -> Self {
        TopologyConfig::FatTree {
            radix: 24,
            leaves: 10,
        }
    }
}

impl TopologyConfig {
    /// Every `kind` (serde's names, in declaration order; a test checks them against
    /// serde's own list).
    pub const KINDS: &'static [&'static str] = &[
        "single_switch",
        "fat_tree",
        "three_stage",
        "torus",
        "mesh",
        "kary_ntree",
        "kary_nfly",
        "dragonfly",
        "file",
    ];

    /// This topology's `kind`.
    pub fn kind(&self) -> &'static str {
        match self {
            TopologyConfig::SingleSwitch { .. } => "single_switch",
            TopologyConfig::FatTree { .. } => "fat_tree",
            TopologyConfig::ThreeStage { .. } => "three_stage",
            TopologyConfig::Torus { .. } => "torus",
            TopologyConfig::Mesh { .. } => "mesh",
            TopologyConfig::KaryNtree { .. } => "kary_ntree",
            TopologyConfig::KaryNfly { .. } => "kary_nfly",
            TopologyConfig::Dragonfly { .. } => "dragonfly",
            TopologyConfig::File { .. } => "file",
        }
    }

    /// The IB seed's 648-node fabric of 36-port switches.
    pub fn ib648() -> Self {
        TopologyConfig::ThreeStage { radix: 36 }
    }

    /// Number of NICs (only meaningful after `validate`).
    pub fn nodes(&self) -> u32 {
        match *self {
            TopologyConfig::SingleSwitch { nodes } => nodes,
            TopologyConfig::FatTree { radix, leaves } => leaves * (radix / 2),
            TopologyConfig::ThreeStage { radix } => radix * (radix / 2),
            TopologyConfig::Torus { k, n } | TopologyConfig::Mesh { k, n } => k.saturating_pow(n),
            TopologyConfig::KaryNtree { k, n, hosts }
            | TopologyConfig::KaryNfly { k, n, hosts } => hosts.unwrap_or(k.saturating_pow(n)),
            TopologyConfig::Dragonfly { .. } => self
                .dragonfly()
                .map_or(0, |s| s.g.saturating_mul(s.a).saturating_mul(s.p)),
            TopologyConfig::File { ref graph, .. } => graph.as_ref().map_or(0, |g| g.nodes()),
        }
    }

    /// Number of switches (only meaningful after the sizes are valid).
    pub fn switches(&self) -> u64 {
        match *self {
            TopologyConfig::SingleSwitch { .. } => 1,
            TopologyConfig::FatTree { radix, leaves } => (leaves + radix / 2) as u64,
            TopologyConfig::ThreeStage { radix } => (radix + radix / 2) as u64,
            TopologyConfig::Torus { k, n } | TopologyConfig::Mesh { k, n } => {
                (k as u64).saturating_pow(n)
            }
            TopologyConfig::KaryNtree { k, n, .. } | TopologyConfig::KaryNfly { k, n, .. } => {
                n as u64 * (self.nodes() / k.max(1)) as u64
            }
            TopologyConfig::Dragonfly { .. } => {
                self.dragonfly().map_or(0, |s| s.g as u64 * s.a as u64)
            }
            TopologyConfig::File { ref graph, .. } => {
                graph.as_ref().map_or(0, |g| g.routers() as u64)
            }
        }
    }

    /// Pushes an error unless a file's routing table, routers x NICs bytes, is at most
    /// MAX_TABLE_BYTES (checked once the sizes are otherwise valid). A built-in kind has
    /// no such limit: above `topology::TABLE_MAX` entries it routes by its rule.
    fn table_ok(&self, errs: &mut Vec<FieldError>) {
        let TopologyConfig::File { ref path, .. } = *self else {
            return;
        };
        let (nodes, switches) = (self.nodes() as u64, self.switches());
        if nodes * switches <= MAX_TABLE_BYTES {
            return;
        }
        errs.push(bad(
            "topology.path",
            path.clone(),
            format!(
                "switches x NICs (the routing table's bytes) must be at most {MAX_TABLE_BYTES}: here {switches} switches x {nodes} NICs = {}",
                nodes * switches
            ),
        ));
    }

    /// A dragonfly's shape with `g` filled in (None for other topologies).
    pub fn dragonfly(&self) -> Option<crate::net::topology::DragonflyShape> {
        match *self {
            TopologyConfig::Dragonfly { p, a, h, g } => {
                Some(crate::net::topology::DragonflyShape {
                    p,
                    a,
                    h,
                    g: g.unwrap_or_else(|| a.saturating_mul(h).saturating_add(1)),
                })
            }
            _ => None,
        }
    }

    /// A `file` topology: makes a relative `path` absolute from `base` (None: the current
    /// directory) and reads the file; a file that cannot be read or parsed is reported by
    /// `errors`. Other topologies: nothing.
    pub fn resolve(&mut self, base: Option<&std::path::Path>) {
        if let TopologyConfig::File { path, graph } = self {
            if path.is_empty() {
                // (not the scenario's directory: `read_file` names the empty path)
                *graph = None;
                return;
            }
            let p = std::path::Path::new(path.as_str());
            let full = match base {
                Some(b) if p.is_relative() => b.join(p),
                _ => p.to_path_buf(),
            };
            if let Ok(abs) = std::path::absolute(&full) {
                *path = abs.display().to_string();
            }
            *graph = Self::read_file(path).ok().map(std::sync::Arc::new);
        }
    }

    /// Reads and parses an `anynet` file.
    fn read_file(path: &str) -> Result<crate::net::topology::anynet::Graph, String> {
        const MAX_BYTES: u64 = 1 << 28;
        if path.is_empty() {
            return Err("the path is empty: name the topology file".into());
        }
        let meta = std::fs::metadata(path).map_err(|e| format!("cannot read it: {e}"))?;
        if meta.len() > MAX_BYTES {
            return Err(format!(
                "cannot read it: {} bytes, at most {MAX_BYTES} (256 MiB)",
                meta.len()
            ));
        }
        let bytes = crate::input::read(path).map_err(|e| format!("cannot read it: {e}"))?;
        let text = String::from_utf8(bytes).map_err(|e| {
            // the line, as every other refusal of the file names one
            let at = e.utf8_error().valid_up_to();
            // (a line ends at LF, CRLF or a lone CR, as the parser reads it)
            let b = &e.as_bytes()[..at];
            let line = (0..b.len())
                .filter(|&i| b[i] == b'\n' || (b[i] == b'\r' && b.get(i + 1) != Some(&b'\n')))
                .count()
                + 1;
            format!("line {line}: not UTF-8 text (byte {} of the file)", at + 1)
        })?;
        crate::net::topology::anynet::Graph::parse(&text, MAX_RADIX, MAX_NODES)
            .map_err(|e| e.to_string())
    }

    /// Check the sizes; the first error (`errors` has them all).
    pub fn validate(&self) -> Result<(), FieldError> {
        first(self.errors())
    }

    /// Every error of the sizes (keys `topology.*`).
    pub fn errors(&self) -> Vec<FieldError> {
        let mut errs = Vec::new();
        let radix_ok = |errs: &mut Vec<FieldError>, radix: u32| {
            let ok = radix.is_multiple_of(2) && (4..=MAX_RADIX).contains(&radix);
            if !ok {
                errs.push(bad(
                    "topology.radix",
                    radix,
                    format!(
                        "must be even and in 4..={MAX_RADIX} (half the ports of a leaf go down, half up)"
                    ),
                ));
            }
            ok
        };
        match *self {
            TopologyConfig::SingleSwitch { nodes } => {
                in_range(&mut errs, "topology.nodes", nodes, 2, MAX_RADIX);
            }
            TopologyConfig::FatTree { radix, leaves } => {
                // the leaves' range is the radix's: checked when the radix is valid
                if radix_ok(&mut errs, radix) && !(2..=radix).contains(&leaves) {
                    errs.push(bad(
                        "topology.leaves",
                        leaves,
                        format!("must be in 2..={radix} (a spine has radix = {radix} ports, one per leaf)"),
                    ));
                }
            }
            TopologyConfig::ThreeStage { radix } => {
                radix_ok(&mut errs, radix);
            }
            TopologyConfig::Torus { k, n } | TopologyConfig::Mesh { k, n } => {
                let ok = in_range(&mut errs, "topology.k", k, 2, MAX_NODES)
                    & in_range(&mut errs, "topology.n", n, 1, 12);
                if ok {
                    nodes_ok(&mut errs, k, n, MAX_NODES);
                }
            }
            TopologyConfig::KaryNtree { k, n, hosts } => {
                let ok = in_range(&mut errs, "topology.k", k, 2, MAX_RADIX / 2)
                    & in_range(&mut errs, "topology.n", n, 1, 8);
                if ok {
                    nodes_ok(&mut errs, k, n, MAX_NODES);
                }
                if let (Some(h), true) = (hosts, ok && errs.is_empty()) {
                    let step = k.pow(n - 1);
                    let allowed: Vec<u32> = if n == 1 {
                        vec![k]
                    } else {
                        (2..=k)
                            .filter(|m| k.is_multiple_of(*m))
                            .map(|m| m * step)
                            .collect()
                    };
                    if !allowed.contains(&h) {
                        let list: Vec<String> = allowed.iter().map(u32::to_string).collect();
                        errs.push(bad(
                            "topology.hosts",
                            h,
                            format!(
                                "must be one of {} ({}): NICs 0..hosts of the {k}-ary {n}-tree, each top switch merging k / m of the full tree's",
                                list.join(", "),
                                if n == 1 {
                                    format!("k = {k} at n = 1")
                                } else {
                                    format!("m x k^(n-1) = m x {step} with m in 2..={k} dividing k")
                                }
                            ),
                        ));
                    }
                }
            }
            TopologyConfig::KaryNfly { k, n, hosts } => {
                let ok = in_range(&mut errs, "topology.k", k, 2, MAX_RADIX)
                    & in_range(&mut errs, "topology.n", n, 1, 12);
                if ok {
                    nodes_ok(&mut errs, k, n, MAX_NODES);
                }
                if let (Some(h), true) = (hosts, ok && errs.is_empty()) {
                    let step = k.pow(n - 1);
                    let all = k.pow(n);
                    if !(h >= step.max(2) && h <= all && h.is_multiple_of(step)) {
                        errs.push(bad(
                            "topology.hosts",
                            h,
                            format!(
                                "must be a multiple of k^(n-1) = {step} in {}..={all} (NICs 0..hosts of the {k}-ary {n}-fly; a partly filled first stage is not modelled)",
                                step.max(2)
                            ),
                        ));
                    }
                }
            }
            TopologyConfig::File {
                ref path,
                ref graph,
            } => {
                if graph.is_none() {
                    let why = match Self::read_file(path) {
                        Err(e) => e,
                        Ok(_) => "was not read (TopologyConfig::resolve)".into(),
                    };
                    errs.push(bad(
                        "topology.path",
                        path,
                        format!("a file in BookSim's anynet format (docs/network.md, \"Topologies from a file\"): {why}"),
                    ));
                }
            }
            TopologyConfig::Dragonfly { p, a, h, g } => {
                let ok = in_range(&mut errs, "topology.p", p, 1, MAX_RADIX)
                    & in_range(&mut errs, "topology.a", a, 1, MAX_RADIX)
                    & in_range(&mut errs, "topology.h", h, 1, MAX_RADIX);
                if !ok {
                    return errs;
                }
                let radix = p + a - 1 + h;
                if radix > MAX_RADIX {
                    // blame h while it has room, then p, then a (when p = h = 1 leaves it
                    // room), else p with the bound on a and h together
                    let room = |x: u32, y: u32| (MAX_RADIX + 1).saturating_sub(x + y);
                    let ports =
                        format!("p + (a - 1) + h (a router's ports) must be at most {MAX_RADIX}");
                    errs.push(if room(p, a) >= 1 {
                        bad(
                            "topology.h",
                            h,
                            format!("{ports}: with p = {p}, a = {a}, h <= {}", room(p, a)),
                        )
                    } else if room(a, h) >= 1 {
                        bad(
                            "topology.p",
                            p,
                            format!("{ports}: with a = {a}, h = {h}, p <= {}", room(a, h)),
                        )
                    } else if room(p, h) >= 1 {
                        bad(
                            "topology.a",
                            a,
                            format!("{ports}: with p = {p}, h = {h}, a <= {}", room(p, h)),
                        )
                    } else {
                        bad(
                            "topology.p",
                            p,
                            format!("{ports}: with a = {a} and h = {h} no p fits (a + h must be at most {MAX_RADIX})"),
                        )
                    });
                    return errs;
                }
                let most = a * h + 1;
                let groups = g.unwrap_or(most);
                if let Some(g) = g {
                    if !(1..=most).contains(&g) {
                        errs.push(bad(
                            "topology.g",
                            g,
                            format!("must be in 1..={most} (a*h + 1: each group has a*h = {} global links, one to every other group)", a * h),
                        ));
                        return errs;
                    }
                }
                let nodes = groups as u64 * a as u64 * p as u64;
                if nodes < 2 {
                    // g = 1 set (the default a*h + 1 is at least 2), a = p = 1
                    errs.push(bad(
                        "topology.g",
                        groups,
                        "g*a*p (NICs) must be at least 2: here 1 group x 1 router x 1 NIC",
                    ));
                }
                if nodes > MAX_NODES as u64 {
                    errs.push(bad(
                        if g.is_some() { "topology.g" } else { "topology.h" },
                        if g.is_some() { groups } else { h },
                        format!(
                            "g*a*p (NICs) must be at most {MAX_NODES}: here {groups} groups x {a} routers x {p} NICs = {nodes}{}",
                            if g.is_some() { "" } else { " (g defaults to a*h + 1; set a smaller g)" }
                        ),
                    ));
                }
            }
        }
        if errs.is_empty() {
            self.table_ok(&mut errs);
        }
        errs
    }
}

/// Test hook: one deliberate fault, to show that the invariant checker catches it. Not
/// settable from files (`#[serde(skip)]` on `NetConfig::fault`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// The first credit a switch input returns in or after `cycle` is lost.
    DropCredit { cycle: u64 },
    /// The first flit a switch output sends in or after `cycle` is sent twice.
    DuplicateFlit { cycle: u64 },
    /// The first packet head a switch routes in or after `cycle` takes the wrong port.
    Misroute { cycle: u64 },
    /// Switch `switch` stops forwarding from `cycle` on (a stuck crossbar): no progress.
    FreezeSwitch { switch: u32, cycle: u64 },
    /// Lane router: the first output lane granted in or after `cycle` is also recorded as
    /// held by the same packet on another free output lane of the switch (two owners).
    DoubleGrant { cycle: u64 },
    /// Lane router: the first credit that comes back in or after `cycle` to an output
    /// lane with none left leaves the lane's no-credit bit set (`Switches::no_credit`).
    StaleNoCredit { cycle: u64 },
    /// Lane router: the first input lane whose last flit leaves in or after `cycle` keeps
    /// its has-flit bit (`Switches::has_flit`).
    StaleHasFlit { cycle: u64 },
    /// Lane router: the first output lane granted in or after `cycle` has its input lane's
    /// stalled bit set though the lane has credits (`Switches::stalled_in`).
    StaleStalled { cycle: u64 },
    /// Routing `disha`: in or after `cycle`, while one packet holds the token, a second
    /// presumed-deadlocked packet is also put on the recovery path.
    SecondToken { cycle: u64 },
}

/// Output arbitration of the switches under virtual cut-through, where a packet may start
/// only when the downstream buffer has credits for all of it (docs/network.md,
/// "Arbitration"). Each output keeps a round-robin turn over the inputs whose next packet
/// is for it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Arbitration {
    /// The input whose turn it is keeps its turn while it waits for credits; smaller
    /// packets of other inputs that fit the free credits may go first, at most radix - 1
    /// of them, and then the output is reserved for it. A waiting packet is served within
    /// two rounds, and small packets still use the gaps a large one cannot.
    #[default]
    FairBypass,
    /// No overtaking: when the input whose turn it is is short of credits, the output is
    /// reserved for it until they arrive.
    Reserve,
    /// Round robin over the inputs whose packet fits now; a grant moves the turn past the
    /// granted input. A large packet can wait forever while small ones take every freed
    /// credit and move the turn past it (measured: `scenarios/default.toml` at seeds 8 and
    /// 9 never finish). Kept to show that effect.
    Bypass,
}
