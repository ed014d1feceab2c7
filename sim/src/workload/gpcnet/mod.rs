//! GPCNeT-like workload: congestor processes (all-to-all, two-sided incast, put incast, get
//! broadcast) and canary processes (random-ring latency, random-ring bandwidth with a barrier,
//! allreduce), closed loop through `Workload::delivered`. See docs/workloads.md for how each
//! GPCNeT test maps onto message exchanges and what differs from the real benchmark.

mod engine;
mod layout;
mod results;

pub use engine::GpcnetWorkload;
pub use layout::{CongestorGroup, Layout, NodeRole};
pub use results::{CanaryProcessResult, CanaryTestResult, CongestorProcessResult, GpcnetResults};

use super::config::{ConfigErrors, MAX_MSG_BYTES, MAX_NODES};
use serde::{Deserialize, Serialize};

/// The four congestor patterns of GPCNeT's `network_load_test`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CongestorKind {
    /// `A2A_CONGESTOR`: pairwise-exchange all-to-all of `congestor_msg_bytes` per pair.
    A2a,
    /// `P2P_INCAST_CONGESTOR`: every non-root sends to the group root (two-sided).
    Incast,
    /// `RMA_INCAST_CONGESTOR`: every non-root puts to the root and waits for remote completion.
    PutIncast,
    /// `RMA_BCAST_CONGESTOR`: every non-root gets `congestor_msg_bytes` from the root.
    GetBcast,
}

impl CongestorKind {
    /// GPCNeT's name of the test.
    pub fn gpcnet_name(self) -> &'static str {
        match self {
            CongestorKind::A2a => "Alltoall",
            CongestorKind::Incast => "Two-sided Incast",
            CongestorKind::PutIncast => "Put Incast",
            CongestorKind::GetBcast => "Get Bcast",
        }
    }
}

/// How a two-sided incast sender's `MPI_Send` completes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SendProtocol {
    /// Eager: the send completes once the message is handed to the NIC, so the process
    /// goes on to its next send; at most `eager_window` of its sends wait undelivered (the
    /// MPI's send resources). GPCNeT's 4 KiB `MPI_Send` (`congestors.c:41`) is below the
    /// eager limit of common MPIs.
    #[default]
    Eager,
    /// Rendezvous (or a zero-copy eager MPI): the send completes on delivery, with
    /// `congestor_window` in flight.
    Rendezvous,
}

/// The three canary (network) tests of GPCNeT's `network_load_test`, run in sequence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CanaryTest {
    /// `P2P_LATENCY`, "RR Two-sided Lat (8 B)". Sample: cycles per iteration.
    Latency,
    /// `P2P_NEIGHBORS`, "RR Two-sided BW+Sync (131072 B)". Sample: bytes/cycle per iteration.
    Bandwidth,
    /// `ALLREDUCE_LATENCY`, "Multiple Allreduce (8 B)". Sample: cycles per allreduce.
    Allreduce,
}

impl CanaryTest {
    /// Unit of the samples.
    pub fn units(self) -> &'static str {
        match self {
            CanaryTest::Latency | CanaryTest::Allreduce => "cycles",
            CanaryTest::Bandwidth => "bytes/cycle",
        }
    }

    /// True when a larger sample is better (bandwidth); false for latencies.
    pub fn higher_is_better(self) -> bool {
        matches!(self, CanaryTest::Bandwidth)
    }

    /// GPCNeT's name of the test.
    pub fn gpcnet_name(self) -> &'static str {
        match self {
            CanaryTest::Latency => "RR Two-sided Lat",
            CanaryTest::Bandwidth => "RR Two-sided BW+Sync",
            CanaryTest::Allreduce => "Multiple Allreduce",
        }
    }
}

/// Configuration of the `gpcnet` workload. Every field has a default; the defaults follow
/// GPCNeT v1.3 except the iteration counts, which are cut to fit cycle-level runs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GpcnetConfig {
    /// Processes per NIC (the paper's PPort; GPCNeT's processes per node). Process `p` runs on
    /// NIC `p / ppn`. Range 1..=1024. Default 16 (the paper).
    pub ppn: u32,
    /// Fraction of NICs whose processes are congestors: `floor(congestor_frac * nodes)`
    /// NICs. Range 0 < f < 1. Default 0.8.
    pub congestor_frac: f64,
    /// Run the congestors (`false`: the canaries run isolated, GPCNeT's baseline). The layout
    /// and the canaries' rings are the same either way for the same seed. Default true.
    pub congestors: bool,
    /// Congestor groups, one per entry, in this order; congestor NICs are dealt to them at
    /// random. 1..=4 distinct entries. Default all four in GPCNeT's order.
    pub congestor_kinds: Vec<CongestorKind>,
    /// Payload of a congestor message (a2a pair block, incast send, put, get response), bytes.
    /// Range 1..=67108864. Default 4096.
    pub congestor_msg_bytes: u32,
    /// Operations each put / get congestor process keeps in flight (1 = GPCNeT's blocking
    /// `MPI_Win_flush` after every operation), and each two-sided incast process under the
    /// `rendezvous` protocol. The all-to-all always runs its rounds one after the other.
    /// Range 1..=1024. Default 1.
    pub congestor_window: u32,
    /// How the two-sided incast senders' sends complete: `eager` (default) or
    /// `rendezvous` (docs/workloads.md, "Two-sided incast").
    pub incast_protocol: SendProtocol,
    /// Eager incast: sends a process may have handed to its NIC and not yet delivered
    /// before its next `MPI_Send` blocks. GPCNeT itself lets a sender run up to about two
    /// measurements of 512 operations ahead of the root (`congestors.c:164-170`); the MPI's
    /// send resources bound it before that. Range 1..=4096. Default 512.
    pub eager_window: u32,
    /// Size of the control messages: put acknowledgement and get request, bytes.
    /// Range 1..=67108864. Default 8.
    pub control_msg_bytes: u32,
    /// Canary tests, run one after the other in this order. 1..=3 distinct entries.
    /// Default latency, bandwidth, allreduce (GPCNeT's order).
    pub canary_tests: Vec<CanaryTest>,
    /// Cycle in which the canaries start (the congestors start at cycle 0: this is their
    /// warm-up). Used in isolated runs too, so both runs are comparable. Default 10000.
    pub canary_start_cycles: u64,
    /// Latency test message, bytes. Range 1..=67108864. Default 8.
    pub lat_msg_bytes: u32,
    /// Latency test: unmeasured iterations per ring. Range 0..=1000000. Default 10 (GPCNeT 200).
    pub lat_warmup_iters: u32,
    /// Latency test: measured iterations per ring. Range 1..=1000000. Default 100 (GPCNeT 200).
    pub lat_iters: u32,
    /// Latency test: random rings, one after the other. Range 1..=100000. Default 2
    /// (GPCNeT 30 per measurement, many measurements).
    pub lat_rings: u32,
    /// Bandwidth test message, bytes. Range 1..=67108864. Default 131072.
    pub bw_msg_bytes: u32,
    /// Bandwidth test: messages posted to each neighbour per iteration. Range 1..=1024.
    /// Default 8.
    pub bw_outstanding: u32,
    /// Bandwidth test: unmeasured iterations per ring. Range 0..=1000000. Default 1 (GPCNeT 1).
    pub bw_warmup_iters: u32,
    /// Bandwidth test: measured iterations per ring. Range 1..=1000000. Default 8 (GPCNeT 8).
    pub bw_iters: u32,
    /// Bandwidth test: random rings. Range 1..=100000. Default 1 (GPCNeT 30).
    pub bw_rings: u32,
    /// Dissemination-barrier message of the bandwidth test, bytes. Range 1..=67108864.
    /// Default 8.
    pub barrier_msg_bytes: u32,
    /// Allreduce message, bytes. Range 1..=67108864. Default 8.
    pub allreduce_msg_bytes: u32,
    /// Allreduce test: unmeasured operations. Range 0..=1000000. Default 10.
    pub allreduce_warmup_iters: u32,
    /// Allreduce test: measured operations. Range 1..=1000000. Default 100 (GPCNeT 200 per
    /// test, many tests).
    pub allreduce_iters: u32,
    /// Host software time to post one message (MPI send overhead, LogP's o_s), ns; the
    /// process's CPU is busy for it, one message after the other. Range 0..=1000000.
    /// Default 450 (docs/workloads.md, "Host time": with `host_recv_ns` it makes an 8-byte
    /// one-way MPI latency of about 1 us between two NICs of one switch).
    pub host_send_ns: f64,
    /// Host software time to complete one received message (LogP's o_r), ns, on the
    /// receiving process's CPU. Range 0..=1000000. Default 450.
    pub host_recv_ns: f64,
}

/// Default host time per message and side, ns (docs/workloads.md, "Host time").
pub const DEFAULT_HOST_NS: f64 = 450.0;

impl Default for GpcnetConfig {
    fn default() -> Self {
        GpcnetConfig {
            ppn: 16,
            congestor_frac: 0.8,
            congestors: true,
            congestor_kinds: vec![
                CongestorKind::A2a,
                CongestorKind::Incast,
                CongestorKind::PutIncast,
                CongestorKind::GetBcast,
            ],
            congestor_msg_bytes: 4096,
            congestor_window: 1,
            incast_protocol: SendProtocol::Eager,
            eager_window: 512,
            control_msg_bytes: 8,
            canary_tests: vec![
                CanaryTest::Latency,
                CanaryTest::Bandwidth,
                CanaryTest::Allreduce,
            ],
            canary_start_cycles: 10_000,
            lat_msg_bytes: 8,
            lat_warmup_iters: 10,
            lat_iters: 100,
            lat_rings: 2,
            bw_msg_bytes: 131_072,
            bw_outstanding: 8,
            bw_warmup_iters: 1,
            bw_iters: 8,
            bw_rings: 1,
            barrier_msg_bytes: 8,
            allreduce_msg_bytes: 8,
            allreduce_warmup_iters: 10,
            allreduce_iters: 100,
            host_send_ns: DEFAULT_HOST_NS,
            host_recv_ns: DEFAULT_HOST_NS,
        }
    }
}

/// Largest process count (`nodes * ppn`) accepted.
pub const MAX_PROCESSES: u64 = 1 << 24;

impl GpcnetConfig {
    /// (unmeasured iterations per ring, measured iterations per ring, rings) of canary test
    /// `t`; the allreduce runs as one ring.
    pub fn test_iterations(&self, t: CanaryTest) -> (u32, u32, u32) {
        match t {
            CanaryTest::Latency => (self.lat_warmup_iters, self.lat_iters, self.lat_rings),
            CanaryTest::Bandwidth => (self.bw_warmup_iters, self.bw_iters, self.bw_rings),
            CanaryTest::Allreduce => (self.allreduce_warmup_iters, self.allreduce_iters, 1),
        }
    }

    /// This workload with every canary test's iterations (unmeasured and measured) divided
    /// by `k`, rounded up, at least one measured; the rings, the congestors and everything
    /// else as they are. A cost estimate runs it to its end: the canaries meet the same
    /// congestion, for a `k`-th of the cycles.
    pub fn shortened(&self, k: u32) -> GpcnetConfig {
        let k = k.max(1);
        let mut c = self.clone();
        for (w, i) in [
            (&mut c.lat_warmup_iters, &mut c.lat_iters),
            (&mut c.bw_warmup_iters, &mut c.bw_iters),
            (&mut c.allreduce_warmup_iters, &mut c.allreduce_iters),
        ] {
            *w = w.div_ceil(k);
            *i = i.div_ceil(k).max(1);
        }
        c
    }

    /// Keys that are valid but change nothing here (no output but the config's echo), set
    /// to other than their defaults: the congestors' sizes, windows and protocol with
    /// `congestors = false` (not `congestor_kinds`, which still labels the NICs' classes and
    /// bounds `congestor_frac`), the eager incast's with the
    /// rendezvous protocol or without an incast group, the congestors' window when no
    /// congestor keeps one (only a2a and the eager incast), the control messages without a
    /// put or get group, a canary test's keys when `canary_tests` leaves the test out. Warned,
    /// not refused: a sweep may vary the switch with them set.
    pub fn warnings(&self) -> Vec<String> {
        let d = GpcnetConfig::default();
        let mut out = Vec::new();
        let mut moot = |keys: &[(&str, bool)], why: &str| {
            for (k, set) in keys {
                if *set {
                    out.push(format!("workload.{k} is set but changes nothing: {why}"));
                }
            }
        };
        let has = |k: CongestorKind| self.congestor_kinds.contains(&k);
        if !self.congestors {
            moot(
                &[
                    (
                        "congestor_msg_bytes",
                        self.congestor_msg_bytes != d.congestor_msg_bytes,
                    ),
                    (
                        "congestor_window",
                        self.congestor_window != d.congestor_window,
                    ),
                    ("incast_protocol", self.incast_protocol != d.incast_protocol),
                    ("eager_window", self.eager_window != d.eager_window),
                    (
                        "control_msg_bytes",
                        self.control_msg_bytes != d.control_msg_bytes,
                    ),
                ],
                "congestors = false runs no congestor",
            );
        } else {
            if !has(CongestorKind::Incast) {
                moot(
                    &[
                        ("incast_protocol", self.incast_protocol != d.incast_protocol),
                        ("eager_window", self.eager_window != d.eager_window),
                    ],
                    "it applies to the two-sided incast, which congestor_kinds leaves out",
                );
            } else if self.incast_protocol == SendProtocol::Rendezvous {
                moot(
                    &[("eager_window", self.eager_window != d.eager_window)],
                    "it bounds eager sends, and incast_protocol = \"rendezvous\"",
                );
            }
            let windowed = self.congestor_kinds.iter().any(|&k| match k {
                CongestorKind::A2a => false,
                CongestorKind::Incast => self.incast_protocol == SendProtocol::Rendezvous,
                CongestorKind::PutIncast | CongestorKind::GetBcast => true,
            });
            if !windowed {
                moot(
                    &[("congestor_window", self.congestor_window != d.congestor_window)],
                    "it sets the operations in flight of the rendezvous incast, put_incast and get_bcast, and congestor_kinds has none of them (a2a exchanges in pairs; the eager incast uses eager_window)",
                );
            }
            if !has(CongestorKind::PutIncast) && !has(CongestorKind::GetBcast) {
                moot(
                    &[("control_msg_bytes", self.control_msg_bytes != d.control_msg_bytes)],
                    "it sizes the put acks and get requests, and congestor_kinds has neither put_incast nor get_bcast",
                );
            }
        }
        let tests = [
            (
                CanaryTest::Latency,
                "latency",
                vec![
                    ("lat_msg_bytes", self.lat_msg_bytes != d.lat_msg_bytes),
                    (
                        "lat_warmup_iters",
                        self.lat_warmup_iters != d.lat_warmup_iters,
                    ),
                    ("lat_iters", self.lat_iters != d.lat_iters),
                    ("lat_rings", self.lat_rings != d.lat_rings),
                ],
            ),
            (
                CanaryTest::Bandwidth,
                "bandwidth",
                vec![
                    ("bw_msg_bytes", self.bw_msg_bytes != d.bw_msg_bytes),
                    ("bw_outstanding", self.bw_outstanding != d.bw_outstanding),
                    ("bw_warmup_iters", self.bw_warmup_iters != d.bw_warmup_iters),
                    ("bw_iters", self.bw_iters != d.bw_iters),
                    ("bw_rings", self.bw_rings != d.bw_rings),
                    // (its dissemination barrier is the bandwidth test's)
                    (
                        "barrier_msg_bytes",
                        self.barrier_msg_bytes != d.barrier_msg_bytes,
                    ),
                ],
            ),
            (
                CanaryTest::Allreduce,
                "allreduce",
                vec![
                    (
                        "allreduce_msg_bytes",
                        self.allreduce_msg_bytes != d.allreduce_msg_bytes,
                    ),
                    (
                        "allreduce_warmup_iters",
                        self.allreduce_warmup_iters != d.allreduce_warmup_iters,
                    ),
                    ("allreduce_iters", self.allreduce_iters != d.allreduce_iters),
                ],
            ),
        ];
        for (t, name, keys) in tests {
            if !self.canary_tests.contains(&t) {
                moot(&keys, &format!("canary_tests leaves out the {name} test"));
            }
        }
        out
    }

    /// NICs running congestors for `nodes` NICs: `floor(congestor_frac * nodes)`.
    pub fn congestor_nodes(&self, nodes: u32) -> u32 {
        ((self.congestor_frac * nodes as f64) + 1e-9)
            .floor()
            .max(0.0) as u32
    }

    /// Checks every field for a network of `nodes` NICs.
    pub fn validate(&self, nodes: u32) -> Result<(), ConfigErrors> {
        let mut e = ConfigErrors::default();
        e.check_u64("nodes", nodes as u64, 2, MAX_NODES as u64);
        e.check_u64("ppn", self.ppn as u64, 1, 1024);
        if nodes as u64 * self.ppn as u64 > MAX_PROCESSES {
            e.push(
                "ppn",
                self.ppn,
                format!("allowed nodes * ppn <= {MAX_PROCESSES}"),
            );
        }
        e.check_f64("congestor_frac", self.congestor_frac, 1e-9, 1.0 - 1e-9);
        let k = self.congestor_kinds.len();
        if k == 0 || k > 4 || has_duplicates(&self.congestor_kinds) {
            e.push(
                "congestor_kinds",
                names(&self.congestor_kinds),
                "allowed 1 to 4 distinct kinds of a2a, incast, put_incast, get_bcast",
            );
        }
        let t = self.canary_tests.len();
        if t == 0 || t > 3 || has_duplicates(&self.canary_tests) {
            e.push(
                "canary_tests",
                names(&self.canary_tests),
                "allowed 1 to 3 distinct tests of latency, bandwidth, allreduce",
            );
        }
        let max_b = MAX_MSG_BYTES as u64;
        for (f, v) in [
            ("congestor_msg_bytes", self.congestor_msg_bytes),
            ("control_msg_bytes", self.control_msg_bytes),
            ("lat_msg_bytes", self.lat_msg_bytes),
            ("bw_msg_bytes", self.bw_msg_bytes),
            ("barrier_msg_bytes", self.barrier_msg_bytes),
            ("allreduce_msg_bytes", self.allreduce_msg_bytes),
        ] {
            e.check_u64(f, v as u64, 1, max_b);
        }
        e.check_u64("congestor_window", self.congestor_window as u64, 1, 1024);
        e.check_u64("eager_window", self.eager_window as u64, 1, 4096);
        e.check_u64("bw_outstanding", self.bw_outstanding as u64, 1, 1024);
        for (f, v, lo) in [
            ("lat_warmup_iters", self.lat_warmup_iters, 0),
            ("lat_iters", self.lat_iters, 1),
            ("bw_warmup_iters", self.bw_warmup_iters, 0),
            ("bw_iters", self.bw_iters, 1),
            ("allreduce_warmup_iters", self.allreduce_warmup_iters, 0),
            ("allreduce_iters", self.allreduce_iters, 1),
        ] {
            e.check_u64(f, v as u64, lo, 1_000_000);
        }
        e.check_u64("lat_rings", self.lat_rings as u64, 1, 100_000);
        e.check_f64("host_send_ns", self.host_send_ns, 0.0, 1e6);
        e.check_f64("host_recv_ns", self.host_recv_ns, 0.0, 1e6);
        e.check_u64("bw_rings", self.bw_rings as u64, 1, 100_000);
        if nodes >= 2 && self.congestor_frac > 0.0 && self.congestor_frac < 1.0 && k >= 1 {
            let n_cong = self.congestor_nodes(nodes);
            let n_can = nodes - n_cong.min(nodes);
            if n_can < 2 || (n_cong as usize) < 2 * k {
                e.push(
                    "congestor_frac",
                    self.congestor_frac,
                    format!(
                        "allowed a value that leaves >= 2 canary NICs and >= 2 congestor NICs per group \
                         ({} groups); with nodes = {nodes} it gives {n_cong} congestor and \
                         {n_can} canary NICs (GPCNeT needs >= {} NICs)",
                        k,
                        2 + 2 * k
                    ),
                );
            }
        }
        e.into_result()
    }
}

/// A list as the scenario writes it (`["a2a", "incast"]`), not as Rust names its values.
fn names<T: serde::Serialize>(v: &[T]) -> String {
    toml::Value::try_from(v).map_or_else(|_| "?".into(), |t| t.to_string())
}

fn has_duplicates<T: PartialEq>(v: &[T]) -> bool {
    v.iter()
        .enumerate()
        .any(|(i, a)| v[..i].iter().any(|b| b == a))
}
