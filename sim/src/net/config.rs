//! Typed, documented run configuration of the network (`NetConfig`). Every struct deserializes with serde
//! (missing keys take the defaults, unknown keys are refused); `validate` checks ranges and
//! returns a `FieldError` (crate::error) that names the field and the allowed values.
//!
//! Units: 1 cycle = the time of one flit on one link; 1 flit = 1 credit = `flit_bytes` bytes.

use super::faults::FaultSpec;
use serde::{Deserialize, Serialize};

/// Largest switch radix (allocation uses 64-bit port masks).
pub const MAX_RADIX: u32 = 64;
/// Longest link, credit or switch latency accepted, in cycles.
pub const MAX_LATENCY_CYCLES: u32 = 1 << 16;

pub use crate::error::FieldError;

pub(crate) fn bad(
    field: &str,
    value: impl std::fmt::Display,
    allowed: impl Into<String>,
) -> FieldError {
    FieldError::new(field, value, allowed)
}

fn in_range(field: &str, v: u32, lo: u32, hi: u32) -> Result<(), FieldError> {
    if (lo..=hi).contains(&v) {
        Ok(())
    } else {
        Err(bad(field, v, format!("must be in {lo}..={hi}")))
    }
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
        }
    }

    /// Check the sizes.
    pub fn validate(&self) -> Result<(), FieldError> {
        let even_radix = |radix: u32| {
            if !radix.is_multiple_of(2) || !(4..=MAX_RADIX).contains(&radix) {
                Err(bad(
                    "topology.radix",
                    radix,
                    format!(
                        "must be even and in 4..={MAX_RADIX} (half the ports of a leaf go down, half up)"
                    ),
                ))
            } else {
                Ok(())
            }
        };
        match *self {
            TopologyConfig::SingleSwitch { nodes } => {
                in_range("topology.nodes", nodes, 2, MAX_RADIX)
            }
            TopologyConfig::FatTree { radix, leaves } => {
                even_radix(radix)?;
                if !(2..=radix).contains(&leaves) {
                    return Err(bad(
                        "topology.leaves",
                        leaves,
                        format!("must be in 2..={radix} (a spine has radix = {radix} ports, one per leaf)"),
                    ));
                }
                Ok(())
            }
            TopologyConfig::ThreeStage { radix } => even_radix(radix),
        }
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
    /// network (deadlock), or when one NIC has been stuck halfway through a packet for
    /// twice as long while others move (starvation). 0 disables both. Default 100000.
    pub deadlock_cycles: u64,
    /// Fail the run when a traffic class (the messages of one workload tag: a GPCNeT test
    /// or congestor kind, hot-spot or uniform traffic) has had messages outstanding for this
    /// many cycles without one delivered, while flits may still move elsewhere. The error
    /// names the class and where its oldest message waits. Looked at every 1024 cycles. 0
    /// disables it. Default 1000000 (5.12 ms at 64 B and 100 Gb/s).
    pub stall_cycles: u64,
    /// Run-time faults (`[[network.faults]]`, see `faults::FaultSpec`): late or jittered
    /// credits, stalled or slow ejection, paused links, PFT registers rewritten mid-run.
    /// Default none.
    pub faults: Vec<FaultSpec>,
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
            fault: None,
        }
    }
}

impl NetConfig {
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

    /// Check every field; the error names the first bad one.
    pub fn validate(&self) -> Result<(), FieldError> {
        self.topology.validate()?;
        if let Some(n) = self.nodes {
            let t = self.topology.nodes();
            if n != t {
                return Err(bad(
                    "nodes",
                    n,
                    format!("must equal the topology's node count, {t}"),
                ));
            }
        }
        in_range("flit_bytes", self.flit_bytes, 1, 65536)?;
        if !(self.link_gbps > 0.0 && self.link_gbps <= 100_000.0) {
            return Err(bad(
                "link_gbps",
                self.link_gbps,
                "must be in (0, 100000] Gb/s",
            ));
        }
        if self.mtu_bytes == 0 || !self.mtu_bytes.is_multiple_of(self.flit_bytes) {
            return Err(bad(
                "mtu_bytes",
                self.mtu_bytes,
                format!(
                    "must be a positive multiple of flit_bytes = {} (packets are whole flits)",
                    self.flit_bytes
                ),
            ));
        }
        let mtu = self.mtu_flits();
        if mtu > 0xFFFF {
            return Err(bad(
                "mtu_bytes",
                self.mtu_bytes,
                format!(
                    "must be at most 65535 flits = {} bytes",
                    0xFFFF * self.flit_bytes as u64
                ),
            ));
        }
        let buf = |field: &str, v: u32| {
            in_range(field, v, mtu, 0xFFFF).map_err(|mut e| {
                e.allowed += &format!(
                    " (at least one packet of mtu_bytes = {} bytes = {mtu} flits, for virtual cut-through; at most the 16-bit credit counter)",
                    self.mtu_bytes
                );
                e
            })
        };
        buf("buffer_flits", self.buffer_flits)?;
        buf("eject_buffer_flits", self.eject_buffer_flits)?;
        in_range(
            "link_latency_cycles",
            self.link_latency_cycles,
            1,
            MAX_LATENCY_CYCLES,
        )?;
        in_range(
            "credit_latency_cycles",
            self.credit_latency_cycles,
            1,
            MAX_LATENCY_CYCLES,
        )?;
        in_range(
            "switch_latency_cycles",
            self.switch_latency_cycles,
            0,
            MAX_LATENCY_CYCLES,
        )?;
        if !(self.eject_rate > 0.0 && self.eject_rate <= 1.0) {
            return Err(bad(
                "eject_rate",
                self.eject_rate,
                "must be in (0, 1] flits per cycle",
            ));
        }
        for (i, f) in self.faults.iter().enumerate() {
            f.validate(&format!("faults[{i}]"), self.deadlock_cycles)?;
        }
        let extra: u64 = self
            .faults
            .iter()
            .map(|f| f.max_credit_extra() as u64)
            .sum();
        if extra > super::faults::MAX_CREDIT_EXTRA_CYCLES as u64 {
            return Err(bad(
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
        let topo = super::topology::Topology::build(&self.topology);
        if let Some(Fault::FreezeSwitch { switch, .. }) = self.fault {
            let n = topo.switches().len();
            if switch as usize >= n {
                return Err(bad("fault.switch", switch, format!("must be in 0..{n}")));
            }
        }
        super::faults::check_refs(&self.faults, &topo)?;
        Ok(())
    }
}
