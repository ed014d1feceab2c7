//! Typed, documented run configuration of the network (`NetConfig`). Every struct deserializes with serde
//! (missing keys take the defaults, unknown keys are refused); `errors` checks ranges and
//! returns every `FieldError` (crate::error), each naming the field and the allowed values;
//! `validate` returns the first.
//!
//! Units: 1 cycle = the time of one flit on one link; 1 flit = 1 credit = `flit_bytes` bytes.

use super::faults::FaultSpec;
pub use super::lanes::{Allocator, LaneReuse, Routing, Switching};
use serde::{Deserialize, Serialize};

/// Largest switch radix (today's switch allocates with 64-bit port masks).
pub const MAX_RADIX: u32 = 64;
/// Most lane records of one lane-router switch, ports x `vcs` (its allocator uses 128-bit
/// lane masks).
pub const MAX_LANES: u32 = 128;
/// Longest link, credit or switch latency accepted, in cycles.
pub const MAX_LATENCY_CYCLES: u32 = 1 << 16;
/// Longest watchdog limit accepted (`deadlock_cycles`, `stall_cycles`), in cycles: the
/// longest run (10^10 cycles, the scenario's `cycles.max` limit); a longer limit could
/// never fire.
pub const MAX_WATCHDOG_CYCLES: u64 = 10_000_000_000;

pub use crate::error::FieldError;

pub(crate) mod tables;
mod topology;
mod watchdog;
pub(crate) use tables::{table_only, tables_only, tagged_table_only, tagged_tables_only};
pub use topology::*;
pub(crate) use watchdog::shown;

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

/// The network: topology, units, buffers, latencies, switch options, ejection, checks.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct NetConfig {
    /// Topology and size.
    #[serde(deserialize_with = "tagged_table_only")]
    pub topology: TopologyConfig,
    /// If set, must equal the topology's node count (a cross-check for scenario files).
    pub nodes: Option<u32>,
    /// Bytes per flit; one flit = one credit = one cycle on a link. 1..=65536, default 64.
    pub flit_bytes: u32,
    /// Link rate, Gb/s: sets the length of a cycle (`flit_bytes * 8 / link_gbps` ns), which
    /// converts time-based parameters (IB CC's CCTI timer) and reports rates in Gb/s. It
    /// changes no cycle-level behaviour. 0.001..=100000 (1 Mb/s to 100 Tb/s), default 100 (64 B =
    /// 5.12 ns).
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
    /// Dragonfly: flit and credit latency of the links inside a group, cycles (then
    /// `link_latency_cycles` / `credit_latency_cycles` apply to NIC links only). Not set:
    /// those two. 1..=65536.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub local_latency_cycles: Option<u32>,
    /// Dragonfly: flit and credit latency of the links between groups, cycles. Not set:
    /// `link_latency_cycles` / `credit_latency_cycles`. 1..=65536.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub global_latency_cycles: Option<u32>,
    /// Switch pipeline latency, cycles: a flit leaving an input buffer in cycle t enters
    /// the output link in cycle t + this. 0..=65536, default 2.
    pub switch_latency_cycles: u32,
    /// Virtual output queues at every switch input (false: one FIFO per input, with
    /// head-of-line blocking). Default false.
    pub voq: bool,
    /// How a free switch output picks among the inputs that wait for it when the next
    /// packet's credits are not all there yet (docs/network.md, "Arbitration"). Default
    /// `fair_bypass`.
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
    #[serde(deserialize_with = "tagged_tables_only")]
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
    /// Lane router: when an output lane may take the next packet, `empty` (the lane behind
    /// it is empty: one packet per lane) or `tail` (the previous packet's tail has left).
    /// Needs `vcs`. Default (`NetConfig::lane_reuse`): `tail` on a dragonfly, `empty`
    /// elsewhere.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lane_reuse: Option<LaneReuse>,
    /// Dragonfly `ugal` and `par`: the bias towards the minimal path, flits (BookSim's
    /// `adaptive_threshold`): minimal when q_min <= 2 q_nonmin + this. 0..=65535, default 30.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ugal_threshold_flits: Option<u32>,
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
    /// Lane router, `duato` on a torus: its escape lanes, 2 (a dateline pair under
    /// dimension order; the default) or 1 (seed 003's one escape lane: lane 0 under
    /// dimension order without the wrap links, kept once taken; needs vcs >= 2). 1..=2.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub escape_lanes: Option<u32>,
    /// Lane router: how heads get output lanes, `separable` (every waiting head each cycle;
    /// the default) or `central` (seed 003's central arbiter: one head per router per
    /// cycle, round robin over the waiting input lanes). Needs `vcs`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub allocator: Option<Allocator>,
    /// Lane router, routing `disha`: cycles a head waits at the front of its input lane
    /// without an output lane before it is presumed deadlocked and may take the recovery
    /// token (seed 003: 8). 1..=65535, default 8.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub disha_timeout_cycles: Option<u32>,
    /// Threads for one run's phase 2 (`parallel.rs`): 1..=256, default 1. A run
    /// parameter, not part of the network: results are the same at every count, and it is
    /// never written into a run's outputs. `pftsim --threads` and `net-bench --threads` set it.
    #[serde(skip_serializing)]
    pub threads: u32,
    /// Test hook (see `Fault`); never read from files.
    #[serde(skip)]
    pub fault: Option<Fault>,
}

/// Most threads for one run (`NetConfig::threads`).
pub const MAX_THREADS: u32 = 256;

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
            local_latency_cycles: None,
            global_latency_cycles: None,
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
            lane_reuse: None,
            ugal_threshold_flits: None,
            ack_bytes: None,
            ack_vcs: None,
            send_queue_msgs: None,
            escape_lanes: None,
            allocator: None,
            disha_timeout_cycles: None,
            threads: 1,
            fault: None,
        }
    }
}

impl NetConfig {
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

    /// Flits one switch input port buffers: `buffer_flits`, or with lanes (`vcs`) its
    /// lanes' `vcs * vc_buf_flits` (what a marking scheme's thresholds are fractions of).
    pub fn input_port_flits(&self) -> u32 {
        self.vcs.map_or(self.buffer_flits, |v| {
            v.saturating_mul(self.vc_buf_flits.unwrap_or(super::lanes::DEFAULT_VC_BUF))
        })
    }

    /// Settings that are valid but do nothing as written (`check` and net-bench print
    /// them): `ugal`/`par` on a dragonfly whose lanes hold no more used credits per port
    /// than the threshold, so that their test (q_min > 2 q_nonmin + T) never fires.
    pub fn warnings(&self) -> Vec<String> {
        self.warnings_for(None)
    }

    /// `warnings`, knowing that no message is longer than `largest_msg_bytes` (net-bench's
    /// one size): under `lane_reuse = "empty"` a lane holds one packet at a time, so a
    /// port's used credits are bounded by its packets too, not only by its lanes.
    pub fn warnings_for(&self, largest_msg_bytes: Option<u32>) -> Vec<String> {
        let mut out = Vec::new();
        let adaptive = matches!(self.routing, Some(Routing::Ugal | Routing::Par));
        if let (true, Some(_), Some(vcs)) = (adaptive, self.topology.dragonfly(), self.vcs) {
            let fb = self.flit_bytes.max(1);
            let packet = largest_msg_bytes.map_or(self.mtu_flits(), |b| {
                b.div_ceil(fb).clamp(1, self.mtu_flits())
            });
            let lane = self.vc_buf_flits.unwrap_or(super::lanes::DEFAULT_VC_BUF);
            let (most, why, cure) = match self.lane_reuse() {
                LaneReuse::Empty if packet < lane => (
                    vcs.saturating_mul(packet),
                    format!("vcs x {packet}-flit packets: lane_reuse = \"empty\" holds one packet a lane"),
                    "set lane_reuse = \"tail\" or send longer packets",
                ),
                _ => (vcs.saturating_mul(lane), "vcs x vc_buf_flits".to_string(), "deepen the lanes"),
            };
            let t = self
                .ugal_threshold_flits
                .unwrap_or(super::lanes::DEFAULT_UGAL_THRESHOLD);
            if most <= t {
                out.push(format!(
                    "routing `{}`: a port holds at most {most} used credits here ({why}), not above ugal_threshold_flits = {t}, so the non-minimal test never fires and every packet routes as under `min`; lower ugal_threshold_flits or {cure}",
                    if self.routing == Some(Routing::Ugal) { "ugal" } else { "par" },
                ));
            }
        }
        out
    }

    /// The lane reuse in force: `lane_reuse`, or by default `tail` on a dragonfly (BookSim's
    /// dragonfly runs `wait_for_tail_credit = 0`: with one packet per lane a lane of a
    /// 100-cycle global link turns over once per credit round trip, and the dragonfly
    /// routings take lanes in an order that closes no cycle, so a lane may hold the tail of
    /// one packet and the next) and `empty` elsewhere.
    pub fn lane_reuse(&self) -> LaneReuse {
        self.lane_reuse
            .unwrap_or(if self.topology.dragonfly().is_some() {
                LaneReuse::Tail
            } else {
                LaneReuse::Empty
            })
    }

    /// Lane records per port of the lane router: `vcs`, and with routing `disha` one more
    /// (the deadlock buffer's lane). None without `vcs`.
    pub fn lane_records(&self) -> Option<u32> {
        self.vcs
            .map(|v| v + u32::from(self.routing == Some(Routing::Disha)))
    }

    /// `eject_rate` in the NIC's accumulator units, 1/65536 flit a cycle (`network::ONE`
    /// a flit): what a NIC drains and what the stall bound counts.
    pub(crate) fn eject_units(&self) -> u32 {
        use super::network::ONE;
        ((self.eject_rate * ONE as f64).round() as u32).clamp(1, ONE)
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
        in_range(&mut errs, "threads", self.threads, 1, MAX_THREADS);
        // (from 1 Mb/s: a cycle then stays below a second for any flit, and the rates and
        // times derived from it stay ordinary numbers)
        if !(self.link_gbps >= 0.001 && self.link_gbps <= 100_000.0) {
            errs.push(bad(
                "link_gbps",
                self.link_gbps,
                "must be in 0.001..=100000 Gb/s (1 Mb/s to 100 Tb/s)",
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
        // The topology's switches, ports and NICs, for the checks that need them (lanes per
        // switch, fault references): no routing tables (a file's take a search from every
        // router, seconds on a large file; the network builds them once, `Network::build`).
        let topo = topo_ok.then(|| super::topology::Topology::shape(&self.topology));
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
        let df = matches!(self.topology, TopologyConfig::Dragonfly { .. });
        for (field, v) in [
            ("local_latency_cycles", self.local_latency_cycles),
            ("global_latency_cycles", self.global_latency_cycles),
        ] {
            let Some(v) = v else { continue };
            if !df {
                errs.push(bad(
                    field,
                    v,
                    format!("applies to dragonflies (links inside and between groups); a {} has `link_latency_cycles`", self.topology.kind()),
                ));
            } else {
                in_range(&mut errs, field, v, 1, MAX_LATENCY_CYCLES);
            }
        }
        self.watchdog_errors(mtu_ok.then_some(mtu), &mut errs);
        // (the accumulator keeps 16 fractional bits: a smaller rate would run as 1/65536)
        if !(super::faults::MIN_EJECT_RATE..=1.0).contains(&self.eject_rate) {
            errs.push(bad(
                "eject_rate",
                self.eject_rate,
                "must be in [1/65536, 1] flits per cycle",
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
        // The buffers' entries against their 32-bit ids, as building the network judges
        // them (with every other value valid: they size the buffers).
        if let (Some(t), true) = (&topo, errs.is_empty()) {
            let lat = super::build::max_latency(self, t);
            if let Err(e) = super::build::entry_pools(self, t, lat) {
                errs.push(e);
            }
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
