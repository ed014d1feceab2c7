//! Typed, documented run configuration of the network (`NetConfig`). Every struct deserializes with serde
//! (missing keys take the defaults, unknown keys are refused); `errors` checks ranges and
//! returns every `FieldError` (crate::error), each naming the field and the allowed values;
//! `validate` returns the first.
//!
//! Units: 1 cycle = the time of one flit on one link; 1 flit = 1 credit = `flit_bytes` bytes.

use super::faults::FaultSpec;
pub use super::lanes::{Routing, Switching};
use serde::{Deserialize, Serialize};

/// Largest switch radix (allocation uses 64-bit port masks).
pub const MAX_RADIX: u32 = 64;
/// Longest link, credit or switch latency accepted, in cycles.
pub const MAX_LATENCY_CYCLES: u32 = 1 << 16;
/// Longest watchdog limit accepted (`deadlock_cycles`, `stall_cycles`), in cycles: the
/// longest run (10^10 cycles, the scenario's `cycles.max` limit); a longer limit could
/// never fire.
pub const MAX_WATCHDOG_CYCLES: u64 = 10_000_000_000;

pub use crate::error::FieldError;

pub(crate) fn bad(
    field: &str,
    value: impl std::fmt::Display,
    allowed: impl Into<String>,
) -> FieldError {
    FieldError::new(field, value, allowed)
}

/// Pushes an error unless `lo <= v <= hi`; true when in range.
fn in_range(errs: &mut Vec<FieldError>, field: &str, v: u32, lo: u32, hi: u32) -> bool {
    let ok = (lo..=hi).contains(&v);
    if !ok {
        errs.push(bad(field, v, format!("must be in {lo}..={hi}")));
    }
    ok
}

/// The first of `errs`, for the callers that stop there.
pub(crate) fn first(errs: Vec<FieldError>) -> Result<(), FieldError> {
    match errs.into_iter().next() {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// Most NICs of a k-ary n-cube or n-tree (routing tables are switches x NICs bytes, send
/// queues NICs^2 entries).
pub const MAX_NODES: u32 = 4096;

/// Pushes an error unless `k^n <= MAX_NODES`.
fn nodes_ok(errs: &mut Vec<FieldError>, k: u32, n: u32, why: &str) {
    if k.checked_pow(n).is_none_or(|v| v > MAX_NODES) {
        errs.push(bad(
            "topology.n",
            n,
            format!(
                "k^n (NICs) must be at most {MAX_NODES}: with k = {k}, n <= {}{why}",
                max_n(k)
            ),
        ));
    }
}

/// The largest n with k^n <= MAX_NODES (k >= 2).
fn max_n(k: u32) -> u32 {
    let mut n = 0;
    while k.checked_pow(n + 1).is_some_and(|v| v <= MAX_NODES) {
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
    /// each, dimension-order routing. k in 2..=4096, n in 1..=12, k^n <= 4096. With the one
    /// lane of today's switch its rings can deadlock (the deadlock detector names the
    /// waiting buffers); lanes with dateline classes are issue 22.
    Torus { k: u32, n: u32 },
    /// A `k`-ary `n`-cube mesh (a torus without the wrap links): dimension-order routing,
    /// deadlock-free with one lane. Ranges as `torus`.
    Mesh { k: u32, n: u32 },
    /// A `k`-ary `n`-tree (bidirectional MIN, BookSim's `fattree`): `k^n` NICs, `n` levels of
    /// `k^(n-1)` switches of `2k` ports, up/down routing. k in 2..=32, n in 1..=8,
    /// k^n <= 4096.
    KaryNtree { k: u32, n: u32 },
    /// A `k`-ary `n`-fly (unidirectional butterfly, BookSim's `fly`): `n` stages of
    /// `k^(n-1)` switches of `k x k` ports, NICs injecting at stage 0 and ejecting at stage
    /// `n - 1`, destination-tag routing. k in 2..=64, n in 1..=12, k^n <= 4096. `hosts`
    /// (default k^n) keeps NICs `0 .. hosts` and the switches on their paths, `hosts / k` per
    /// stage: a multiple of k^(n-1) up to k^n (the seed 004's 512 hosts on 640 switches are
    /// k = 4, n = 5, hosts = 512).
    KaryNfly {
        k: u32,
        n: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        hosts: Option<u32>,
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
            TopologyConfig::Torus { k, n }
            | TopologyConfig::Mesh { k, n }
            | TopologyConfig::KaryNtree { k, n } => k.saturating_pow(n),
            TopologyConfig::KaryNfly { k, n, hosts } => hosts.unwrap_or(k.saturating_pow(n)),
        }
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
                    nodes_ok(&mut errs, k, n, "");
                }
            }
            TopologyConfig::KaryNtree { k, n } => {
                let ok = in_range(&mut errs, "topology.k", k, 2, MAX_RADIX / 2)
                    & in_range(&mut errs, "topology.n", n, 1, 8);
                if ok {
                    nodes_ok(&mut errs, k, n, "");
                }
            }
            TopologyConfig::KaryNfly { k, n, hosts } => {
                let ok = in_range(&mut errs, "topology.k", k, 2, MAX_RADIX)
                    & in_range(&mut errs, "topology.n", n, 1, 12);
                if ok {
                    nodes_ok(&mut errs, k, n, "");
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

/// The network: topology, units, buffers, latencies, switch options, ejection, checks.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct NetConfig {
    /// Topology and size.
    pub topology: TopologyConfig,
    /// If set, must equal the topology's node count (a cross-check for scenario files).
    pub nodes: Option<u32>,
    /// Bytes per flit; one flit = one credit = one cycle on a link. 1..=65536, default 64.
    pub flit_bytes: u32,
    /// Link rate, Gb/s: sets the length of a cycle (`flit_bytes * 8 / link_gbps` ns), which
    /// converts time-based parameters (IB CC's CCTI timer) and reports rates in Gb/s. It
    /// changes no cycle-level behaviour. (0, 100000], default 100 (64 B = 5.12 ns).
    pub link_gbps: f64,
    /// Largest packet payload, bytes (messages are cut into packets of at most this). A
    /// multiple of `flit_bytes`, at most 65535 flits and at most both buffer sizes. Default
    /// 4096 (64 flits).
    pub mtu_bytes: u32,
    /// Switch input buffer per port, flits (= credits of the link feeding it; the PFT
    /// CREDIT_LIMIT at a NIC is its edge switch's input buffer). mtu..=65535, default 1024.
    pub buffer_flits: u32,
    /// NIC receive buffer, flits (= credits of the last switch's output). mtu..=65535,
    /// default 1024.
    pub eject_buffer_flits: u32,
    /// One-way flit latency of every link, cycles. 1..=65536, default 10.
    pub link_latency_cycles: u32,
    /// Latency of every credit return channel, cycles. 1..=65536, default 10.
    pub credit_latency_cycles: u32,
    /// Switch pipeline latency, cycles: a flit leaving an input buffer in cycle t enters
    /// the output link in cycle t + this. 0..=65536, default 2.
    pub switch_latency_cycles: u32,
    /// Virtual output queues at every switch input (false: one FIFO per input, with
    /// head-of-line blocking). Default false.
    pub voq: bool,
    /// How a free switch output picks among the inputs that wait for it when the next
    /// packet's credits are not all there yet (docs/network.md, "Arbitration"). Default
    /// `reserve`.
    pub arbitration: Arbitration,
    /// NIC drain rate, flits per cycle (deterministic fractional accumulator). (0, 1],
    /// default 1.
    pub eject_rate: f64,
    /// Run the invariant checker every cycle (credit conservation on every link, buffer
    /// bounds, the NIC gates' credit counts). Slower; on in tests. Default false.
    pub check: bool,
    /// Fail the run when no flit has moved for this many cycles while flits are in the
    /// network (deadlock), when one NIC has been stuck halfway through a packet for
    /// twice as long while others move (starvation), or (lane router) when lanes holding
    /// flits have sent none for this long while others move (a deadlock in part of the
    /// network). 0 disables all three. 0..=10^10 (`MAX_WATCHDOG_CYCLES`), default 100000.
    pub deadlock_cycles: u64,
    /// Fail the run when a traffic class (the messages of one workload tag: a GPCNeT test
    /// or congestor kind, hot-spot or uniform traffic) has had messages outstanding for this
    /// many cycles without one delivered, while flits may still move elsewhere. The error
    /// names the class and where its oldest message waits. Looked at every 1024 cycles. 0
    /// disables it. 0..=10^10 (`MAX_WATCHDOG_CYCLES`), default 1000000 (5.12 ms at 64 B
    /// and 100 Gb/s).
    pub stall_cycles: u64,
    /// Run-time faults (`[[network.faults]]`, see `faults::FaultSpec`): late or jittered
    /// credits, stalled or slow ejection, paused links, PFT registers rewritten mid-run.
    /// Default none.
    pub faults: Vec<FaultSpec>,
    /// Lanes (virtual channels) per switch-to-switch port: set, the network runs the lane
    /// router (`net/router.rs`); not set, today's switch (one lane per port). 1..=16, and
    /// switch radix x vcs <= 64. docs/network.md, "Lanes".
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vcs: Option<u32>,
    /// Buffer of each lane, flits (= its credits). Needs `vcs`. 1..=65535 (`vct`: at least
    /// the MTU), default 8.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vc_buf_flits: Option<u32>,
    /// `wormhole` or `vct` (virtual cut-through). Default: `wormhole` with `vcs`; the switch
    /// without lanes is cut-through.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub switching: Option<Switching>,
    /// `dor`, `dor_no_dateline`, `duato` (tori and meshes) or `updown` (trees, single
    /// switch). Default `dor` for tori and meshes, `updown` otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub routing: Option<Routing>,
    /// Lane router: cycles a packet's head spends on routing and lane allocation after it
    /// reaches the front of its input lane, before it may compete for the crossbar; body
    /// flits do not pay it (BookSim's RC and VA stages). With it the per-flit
    /// `switch_latency_cycles` can be BookSim's SA + ST. Needs `vcs`. 0..=65536, default 0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub head_latency_cycles: Option<u32>,
    /// The CIOQ switch: input and output queues and a crossbar `speedup` times as fast as
    /// the links (`net/cioq.rs`). Not set: today's switch. 1..=8; not with `vcs`, `voq` or
    /// run-time faults yet. docs/network.md, "CIOQ".
    #[serde(skip_serializing_if = "Option::is_none")]
    pub speedup: Option<u32>,
    /// CIOQ: each output queue, flits. Needs `speedup`. mtu..=65535, default `buffer_flits`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub out_buffer_flits: Option<u32>,
    /// Per-packet ACKs: the destination NIC returns an ACK of this many bytes (whole
    /// flits) for every data packet, with the packet's scheme bits (`net/acks.rs`). Not
    /// set: none. 1..=mtu_bytes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ack_bytes: Option<u32>,
    /// Lane router with ACKs: the top `ack_vcs` lanes of every switch-to-switch port carry
    /// the control packets (ACKs), the others the data, each class with the routing's own
    /// lane rules. Not set: ACKs share the lanes. Needs `vcs` and `ack_bytes`; each class
    /// at least the routing's minimum.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ack_vcs: Option<u32>,
    /// A NIC's send queue holds at most this many messages that have not started
    /// injection; a message the workload hands over to a full queue is refused (not
    /// created: the host stalls, as seed 003's nodes "try" to generate) and counted in
    /// `NicStats::messages_refused`. 1..=1048576; not set: unbounded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub send_queue_msgs: Option<u32>,
    /// Test hook (see `Fault`); never read from files.
    #[serde(skip)]
    pub fault: Option<Fault>,
}

impl Default for NetConfig {
    fn default() -> Self {
        NetConfig {
            topology: TopologyConfig::default(),
            nodes: None,
            flit_bytes: 64,
            link_gbps: 100.0,
            mtu_bytes: 4096,
            buffer_flits: 1024,
            eject_buffer_flits: 1024,
            link_latency_cycles: 10,
            credit_latency_cycles: 10,
            switch_latency_cycles: 2,
            voq: false,
            arbitration: Arbitration::default(),
            eject_rate: 1.0,
            check: false,
            deadlock_cycles: 100_000,
            stall_cycles: 1_000_000,
            faults: Vec::new(),
            vcs: None,
            vc_buf_flits: None,
            switching: None,
            routing: None,
            head_latency_cycles: None,
            speedup: None,
            out_buffer_flits: None,
            ack_bytes: None,
            ack_vcs: None,
            send_queue_msgs: None,
            fault: None,
        }
    }
}

impl NetConfig {
    /// `deadlock_cycles` against the latencies: the watchdog stops a run when no flit has
    /// moved for that long, so a wait in which no flit need move (a flit on a link and
    /// through a switch, a credit on its way) must be shorter, or a network that is only
    /// waiting is reported as deadlocked. Skipped while a latency is out of its own range.
    fn watchdog_errors(&self, errs: &mut Vec<FieldError>) {
        let limit = self.deadlock_cycles;
        for (field, v) in [
            ("deadlock_cycles", self.deadlock_cycles),
            ("stall_cycles", self.stall_cycles),
        ] {
            if v > MAX_WATCHDOG_CYCLES {
                errs.push(bad(
                    field,
                    v,
                    format!("must be in 0..={MAX_WATCHDOG_CYCLES} cycles (0: off; at most the longest run)"),
                ));
            }
        }
        if limit > MAX_WATCHDOG_CYCLES {
            return;
        }
        let head = self.head_latency_cycles.filter(|_| self.vcs.is_some());
        let in_range = |v: u32, lo: u32| (lo..=MAX_LATENCY_CYCLES).contains(&v);
        if limit == 0
            || !in_range(self.link_latency_cycles, 1)
            || !in_range(self.credit_latency_cycles, 1)
            || !in_range(self.switch_latency_cycles, 0)
            || !head.is_none_or(|h| in_range(h, 0))
        {
            return;
        }
        let hop = self.link_latency_cycles as u64
            + self.switch_latency_cycles as u64
            + head.unwrap_or(0) as u64;
        let mut waits: Vec<(u64, String)> = Vec::new();
        if hop >= limit {
            let keys = if head.is_some() {
                "network.link_latency_cycles + network.switch_latency_cycles + network.head_latency_cycles"
            } else {
                "network.link_latency_cycles + network.switch_latency_cycles"
            };
            waits.push((
                hop,
                format!("{keys} = {hop} (a flit on a link and through a switch)"),
            ));
        }
        let credit = self.credit_latency_cycles as u64;
        if credit >= limit {
            waits.push((
                credit,
                format!("network.credit_latency_cycles = {credit} (a credit on its way)"),
            ));
        }
        if let Some(most) = waits.iter().map(|w| w.0).max() {
            let what: Vec<String> = waits.into_iter().map(|w| w.1).collect();
            errs.push(bad(
                "deadlock_cycles",
                limit,
                format!(
                    "must be 0 (off) or above {most}: {} is at or above network.deadlock_cycles, and the deadlock watchdog would stop a network that is only waiting (or lower the latency)",
                    what.join(" and ")
                ),
            ));
        }
    }

    /// The errors of `speedup` and `out_buffer_flits` (the CIOQ switch); `mtu` the packet
    /// size in flits when valid.
    fn cioq_errors(&self, mtu: Option<u32>, errs: &mut Vec<FieldError>) {
        let Some(sp) = self.speedup else {
            if let Some(b) = self.out_buffer_flits {
                errs.push(bad(
                    "out_buffer_flits",
                    b,
                    "needs `speedup` (the CIOQ switch); without it a switch has input buffers only",
                ));
            }
            return;
        };
        let max = super::cioq::MAX_SPEEDUP;
        in_range(errs, "speedup", sp, 1, max);
        if self.vcs.is_some() {
            errs.push(bad(
                "speedup",
                sp,
                format!("the CIOQ switch has one lane per port: not with `vcs` (the lane router; network.vcs = {}) yet", self.vcs.unwrap_or(0)),
            ));
        }
        if self.voq {
            errs.push(bad(
                "voq",
                true,
                "applies to the input-queued switch: the CIOQ switch (`speedup`) has one FIFO per input",
            ));
        }
        if !self.faults.is_empty() {
            errs.push(bad(
                "faults",
                format!("{} run-time faults", self.faults.len()),
                "are not supported with `speedup` (the CIOQ switch) yet: remove them or `speedup`",
            ));
        }
        if let (Some(b), Some(m)) = (self.out_buffer_flits, mtu) {
            if !(m..=0xFFFF).contains(&b) {
                errs.push(bad(
                    "out_buffer_flits",
                    b,
                    format!("must be in {m}..=65535 (at least one packet of mtu_bytes = {m} flits: a packet crosses into an output queue whole)"),
                ));
            }
        }
    }

    /// Flits of the largest packet.
    pub fn mtu_flits(&self) -> u32 {
        self.mtu_bytes.div_ceil(self.flit_bytes.max(1))
    }

    /// Length of one cycle (one flit on a link), ns.
    pub fn cycle_ns(&self) -> f64 {
        self.flit_bytes as f64 * 8.0 / self.link_gbps
    }

    /// Gb/s of a rate of `flits_per_cycle` on a link.
    pub fn gbps(&self, flits_per_cycle: f64) -> f64 {
        flits_per_cycle * self.link_gbps
    }

    /// Flits needed for `bytes` of payload (at least one).
    pub fn flits_for(&self, bytes: u32) -> u32 {
        bytes.div_ceil(self.flit_bytes).max(1)
    }

    /// Check every field; the first error (`errors` has them all).
    pub fn validate(&self) -> Result<(), FieldError> {
        first(self.errors())
    }

    /// Every error of the fields (keys relative to `[network]`). A check that needs an
    /// earlier value to be valid is skipped when it is not, rather than report a consequence:
    /// `nodes` and the NICs, switches and ports the faults name need a valid topology,
    /// `mtu_bytes` a valid `flit_bytes`, the buffers a valid `mtu_bytes`, and the total of
    /// the credit faults needs every fault valid.
    pub fn errors(&self) -> Vec<FieldError> {
        let mut errs = self.topology.errors();
        let topo_ok = errs.is_empty();
        if let (Some(n), true) = (self.nodes, topo_ok) {
            let t = self.topology.nodes();
            if n != t {
                errs.push(bad(
                    "nodes",
                    n,
                    format!("must equal the topology's node count, {t}"),
                ));
            }
        }
        let flit_ok = in_range(&mut errs, "flit_bytes", self.flit_bytes, 1, 65536);
        if !(self.link_gbps > 0.0 && self.link_gbps <= 100_000.0) {
            errs.push(bad(
                "link_gbps",
                self.link_gbps,
                "must be in (0, 100000] Gb/s",
            ));
        }
        let mtu = self.mtu_flits();
        let mtu_ok = if !flit_ok {
            false
        } else if self.mtu_bytes == 0 || !self.mtu_bytes.is_multiple_of(self.flit_bytes) {
            errs.push(bad(
                "mtu_bytes",
                self.mtu_bytes,
                format!(
                    "must be a positive multiple of network.flit_bytes = {} (packets are whole flits)",
                    self.flit_bytes
                ),
            ));
            false
        } else if mtu > 0xFFFF {
            errs.push(bad(
                "mtu_bytes",
                self.mtu_bytes,
                format!(
                    "must be at most 65535 flits = {} bytes",
                    0xFFFF * self.flit_bytes as u64
                ),
            ));
            false
        } else {
            true
        };
        if mtu_ok {
            for (field, v) in [
                ("buffer_flits", self.buffer_flits),
                ("eject_buffer_flits", self.eject_buffer_flits),
            ] {
                if !in_range(&mut errs, field, v, mtu, 0xFFFF) {
                    errs.last_mut().expect("just pushed").allowed += &format!(
                        " (at least one packet of mtu_bytes = {} bytes = {mtu} flits, for virtual cut-through; at most the 16-bit credit counter)",
                        self.mtu_bytes
                    );
                }
            }
        }
        // The topology, built once for the checks that need it (lanes per switch, fault
        // references).
        let topo = topo_ok.then(|| super::topology::Topology::build(&self.topology));
        if let Some(t) = &topo {
            let radix = t.switches().iter().map(|s| s.radix).max().unwrap_or(1);
            super::lanes::errors(self, radix, mtu_ok.then_some(mtu), &mut errs);
        }
        if self.vcs.is_some() {
            if self.voq {
                errs.push(bad(
                    "voq",
                    true,
                    "applies to the switch without lanes: with `vcs` every input has one buffer per lane",
                ));
            }
            if !self.faults.is_empty() {
                errs.push(bad(
                    "faults",
                    format!("{} run-time faults", self.faults.len()),
                    "are not supported with `vcs` (the lane router) yet: remove them or `vcs`",
                ));
            }
        }
        self.cioq_errors(mtu_ok.then_some(mtu), &mut errs);
        if let Some(q) = self.send_queue_msgs {
            in_range(&mut errs, "send_queue_msgs", q, 1, 1 << 20);
        }
        if let (Some(b), true) = (self.ack_bytes, mtu_ok) {
            if !(1..=self.mtu_bytes).contains(&b) {
                errs.push(bad(
                    "ack_bytes",
                    b,
                    format!(
                        "must be in 1..={} (an ACK is a packet of at most mtu_bytes)",
                        self.mtu_bytes
                    ),
                ));
            }
        }
        for (field, v, lo) in [
            ("link_latency_cycles", self.link_latency_cycles, 1),
            ("credit_latency_cycles", self.credit_latency_cycles, 1),
            ("switch_latency_cycles", self.switch_latency_cycles, 0),
        ] {
            in_range(&mut errs, field, v, lo, MAX_LATENCY_CYCLES);
        }
        self.watchdog_errors(&mut errs);
        if !(self.eject_rate > 0.0 && self.eject_rate <= 1.0) {
            errs.push(bad(
                "eject_rate",
                self.eject_rate,
                "must be in (0, 1] flits per cycle",
            ));
        }
        let before = errs.len();
        for (i, f) in self.faults.iter().enumerate() {
            // a limit out of its range is judged above, not against the faults
            let limit = Some(self.deadlock_cycles).filter(|&d| d <= MAX_WATCHDOG_CYCLES);
            errs.extend(f.errors(&format!("faults[{i}]"), limit.unwrap_or(0)));
        }
        let extra: u64 = self
            .faults
            .iter()
            .map(|f| f.max_credit_extra() as u64)
            .sum();
        if errs.len() == before && extra > super::faults::MAX_CREDIT_EXTRA_CYCLES as u64 {
            errs.push(bad(
                "faults",
                format!("{extra} cycles of credit delay and jitter in all"),
                format!(
                    "the credit faults' `cycles` and `max_cycles` may add up to at most {}",
                    super::faults::MAX_CREDIT_EXTRA_CYCLES
                ),
            ));
        }
        // References to NICs, switches and ports: checked against the topology here, so
        // that `pftsim check` refuses what building the network would.
        if let Some(topo) = topo {
            if let Some(Fault::FreezeSwitch { switch, .. }) = self.fault {
                let n = topo.switches().len();
                if switch as usize >= n {
                    errs.push(bad("fault.switch", switch, format!("must be in 0..{n}")));
                }
            }
            super::faults::check_refs(&self.faults, &topo, &mut errs);
        }
        errs
    }
}
